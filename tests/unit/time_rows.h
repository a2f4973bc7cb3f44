/* time_rows.h - hand-made GPUs (datasheet figures, as catalog/gpus.yaml gives them with
 * their sources) and model shapes, for the tests and benchmarks that need a GPU without the
 * catalog. The published measurements the time model is held to are rows of the data files
 * of tests/validation/ (each with its source and scenario, on catalog GPUs), read by the
 * unit tests and `gpuplan validate`. */
#ifndef GPUPLAN_TEST_TIME_ROWS_H
#define GPUPLAN_TEST_TIME_ROWS_H

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "plan.h"
#include "scenario.h"

/* NVIDIA A100 SXM4 80GB datasheet; Selene: 8 x 200 Gb/s HDR InfiniBand per node of 8. */
static inline void gpu_a100_80gb(struct gpu *g)
{
	memset(g, 0, sizeof(*g));
	snprintf(g->id, sizeof(g->id), "a100-80gb-sxm");
	g->memory_bytes = 80e9;
	g->hbm_bytes_per_s = 2039e9;
	g->peak_flops[DTYPE_FP32] = 19.5e12;
	g->peak_flops[DTYPE_TF32] = 156e12;
	g->peak_flops[DTYPE_BF16] = 312e12;
	g->peak_flops[DTYPE_FP16] = 312e12;
	g->peak_flops[DTYPE_INT8] = 624e12;
	g->sparse_flops[DTYPE_BF16] = 624e12;
	snprintf(g->link, sizeof(g->link), "nvlink3");
	g->link_bytes_per_s = 600e9;
	g->link_domain = 8;
	g->pcie_bytes_per_s = 32e9;
	g->power_w = 400;
	g->price_per_hour = 1.8;
	g->gpus_per_node = 8;
	g->network_bytes_per_s = 25e9;
}

/* NVIDIA H100 SXM5 80GB; 8 x 400 Gb/s per node of 8 (MosaicML's and most H100 clusters). */
static inline void gpu_h100_sxm(struct gpu *g)
{
	memset(g, 0, sizeof(*g));
	snprintf(g->id, sizeof(g->id), "h100-sxm-80gb");
	g->memory_bytes = 80e9;
	g->hbm_bytes_per_s = 3.35e12;
	g->peak_flops[DTYPE_FP32] = 67e12;
	g->peak_flops[DTYPE_TF32] = 494.7e12;
	g->peak_flops[DTYPE_BF16] = 989.4e12;
	g->peak_flops[DTYPE_FP16] = 989.4e12;
	g->peak_flops[DTYPE_FP8] = 1978.9e12;
	g->peak_flops[DTYPE_INT8] = 1978.9e12;
	g->sparse_flops[DTYPE_BF16] = 1978.9e12;
	g->sparse_flops[DTYPE_FP8] = 3957.8e12;
	snprintf(g->link, sizeof(g->link), "nvlink4");
	g->link_bytes_per_s = 900e9;
	g->link_domain = 8;
	g->pcie_bytes_per_s = 64e9;
	g->power_w = 700;
	g->price_per_hour = 3.0;
	g->gpus_per_node = 8;
	g->network_bytes_per_s = 50e9;
}

/* GeForce RTX 4090 (Ada whitepaper, Appendix A): FP16 tensor dense with FP32 accumulate. */
static inline void gpu_rtx4090(struct gpu *g)
{
	memset(g, 0, sizeof(*g));
	snprintf(g->id, sizeof(g->id), "rtx-4090");
	g->memory_bytes = 24e9;
	g->hbm_bytes_per_s = 1008e9;
	g->peak_flops[DTYPE_FP32] = 82.6e12;
	g->peak_flops[DTYPE_TF32] = 82.6e12;
	g->peak_flops[DTYPE_BF16] = 165.2e12;
	g->peak_flops[DTYPE_FP16] = 165.2e12;
	g->peak_flops[DTYPE_FP8] = 330.3e12;
	g->peak_flops[DTYPE_INT8] = 660.6e12;
	snprintf(g->link, sizeof(g->link), "pcie");
	g->pcie_bytes_per_s = 32e9;
	g->power_w = 450;
	g->price_per_hour = 0.7;
	g->gpus_per_node = 8;
	g->network_bytes_per_s = 12.5e9;
}

/* GeForce RTX 3090 (GA102 whitepaper). */
static inline void gpu_rtx3090(struct gpu *g)
{
	memset(g, 0, sizeof(*g));
	snprintf(g->id, sizeof(g->id), "rtx-3090");
	g->memory_bytes = 24e9;
	g->hbm_bytes_per_s = 936e9;
	g->peak_flops[DTYPE_FP32] = 35.6e12;
	g->peak_flops[DTYPE_TF32] = 35.6e12;
	g->peak_flops[DTYPE_BF16] = 71e12;
	g->peak_flops[DTYPE_FP16] = 71e12;
	g->peak_flops[DTYPE_INT8] = 284e12;
	snprintf(g->link, sizeof(g->link), "pcie");
	g->pcie_bytes_per_s = 32e9;
	g->power_w = 350;
	g->price_per_hour = 0.4;
	g->gpus_per_node = 8;
	g->network_bytes_per_s = 12.5e9;
}

/* GPT-style model of Megatron-LM's Table 1: 4h GELU MLP, LayerNorm, biases, learned
 * positions, tied embeddings. */
static inline void model_gpt(struct model *m, int layers, int hidden, int heads, int vocab,
			     int positions)
{
	memset(m, 0, sizeof(*m));
	m->layers = layers;
	m->hidden = hidden;
	m->heads = heads;
	m->ffn = 4 * hidden;
	m->vocab = vocab;
	m->mlp = MLP_PLAIN;
	m->norm = NORM_LAYERNORM;
	m->tied_embeddings = true;
	m->attention_bias = true;
	m->mlp_bias = true;
	m->position_embeddings = positions;
	m->max_context = positions;
}

/* Llama 3 8B / 70B (Meta config.json). */
static inline void model_llama3(struct model *m, bool big)
{
	memset(m, 0, sizeof(*m));
	m->layers = big ? 80 : 32;
	m->hidden = big ? 8192 : 4096;
	m->heads = big ? 64 : 32;
	m->kv_heads = 8;
	m->ffn = big ? 28672 : 14336;
	m->vocab = 128256;
	m->mlp = MLP_GATED;
	m->norm = NORM_RMSNORM;
	m->max_context = 8192;
}

#endif
