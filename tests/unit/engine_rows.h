/* engine_rows.h - hand-made scenarios of small-batch decode under an engine (workload.engine),
 * for the physics checks of test_engine.c (formats in the order of the bytes they read,
 * monotone in the batch) and the [trt-quant] ratios there. The published decode rates of
 * CUDA-graph engines that GRAPH_LAYER_S, GRAPH_TOKEN_S and GRAPH_DEQUANT_S in
 * src/plan_time.c were fitted to are rows of tests/validation/decode-cuda-graphs.yaml, each
 * with its source, read by test_engine.c and `gpuplan validate`. */
#ifndef GPUPLAN_TEST_ENGINE_ROWS_H
#define GPUPLAN_TEST_ENGINE_ROWS_H

#include "time_rows.h"

/* NVIDIA A100 SXM4 40GB: the 80GB card's figures with 40 GB of HBM2 at 1,555 GB/s
 * (A100 datasheet). */
static inline void gpu_a100_40gb(struct gpu *g)
{
	gpu_a100_80gb(g);
	snprintf(g->id, sizeof(g->id), "a100-40gb-sxm");
	g->memory_bytes = 40e9;
	g->hbm_bytes_per_s = 1555e9;
}

/* Llama 2 7B / 70B (Meta config.json): 7B is multi-head (32 KV heads), 70B GQA (8). */
static inline void model_llama2(struct model *m, bool big)
{
	memset(m, 0, sizeof(*m));
	m->layers = big ? 80 : 32;
	m->hidden = big ? 8192 : 4096;
	m->heads = big ? 64 : 32;
	m->kv_heads = big ? 8 : 32;
	m->ffn = big ? 28672 : 11008;
	m->vocab = 32000;
	m->mlp = MLP_GATED;
	m->norm = NORM_RMSNORM;
	m->max_context = 4096;
}

enum engine_gpu { EG_A100_80, EG_A100_40, EG_H100 };
enum engine_model { EM_LLAMA2_7B, EM_LLAMA3_8B, EM_LLAMA2_70B, EM_LLAMA3_70B };

/* One decode case: model, formats, GPUs (= tensor parallelism), batch and lengths. */
struct engine_row {
	const char *source; /* where the case comes from ("physics": none) */
	enum engine_gpu gpu;
	enum engine_model model;
	enum dtype weights, precision, kv;
	int gpus; /* = tensor parallelism */
	int batch, prompt, output;
};

/* The scenario of row r under the given engine: the decode step of the batch alone
 * (workload.scheduler alone), the step these rows measure and the engines' constants were
 * fitted to, not a loaded engine's. */
static inline void engine_row_scenario(const struct engine_row *r, enum engine e,
				       struct scenario *s)
{
	scenario_init(s);
	if (r->model == EM_LLAMA2_7B || r->model == EM_LLAMA2_70B)
		model_llama2(&s->model, r->model == EM_LLAMA2_70B);
	else
		model_llama3(&s->model, r->model == EM_LLAMA3_70B);
	s->model.max_context = 131072;
	s->workload.kind = WL_ONLINE;
	s->workload.engine = e;
	s->workload.scheduler = SCHED_ALONE;
	s->workload.precision = r->precision;
	s->workload.weights = r->weights;
	s->workload.kv_cache = r->kv;
	s->workload.batch = r->batch;
	s->workload.prompt_tokens = r->prompt;
	s->workload.output_tokens = r->output;
	if (r->gpu == EG_H100)
		gpu_h100_sxm(&s->hardware.gpu);
	else if (r->gpu == EG_A100_40)
		gpu_a100_40gb(&s->hardware.gpu);
	else
		gpu_a100_80gb(&s->hardware.gpu);
	s->hardware.count = r->gpus;
	s->parallel.tp = r->gpus;
}

#endif
