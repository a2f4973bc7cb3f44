/* engine_rows.h - published small-batch decode measurements of CUDA-graph engines
 * (workload.engine: cuda-graphs), with their sources. GRAPH_LAYER_S, GRAPH_TOKEN_S and
 * GRAPH_DEQUANT_S in src/plan_time.c were fitted to all of these rows together;
 * test_engine.c prints every row's error.
 *
 * Each row is the decode rate of one sequence, 1 / (time per output token), at the batch
 * given, or ([vllm-marlin]) the seconds a whole batch's generation takes. Where a
 * source reports tokens/s of a whole generation from a prompt of a few tokens (gpt-fast,
 * torchao), prefill is a negligible part of it and the figure is taken as the decode
 * rate.
 *
 * Sources:
 *  [torchao-a100] pytorch/ao, torchao/quantization/README.md, "Benchmarks / CUDA backend |
 *     NVIDIA-A100-80GB GPU": torchao/_models/llama/generate.py, batch size 1 ("latency
 *     optimized"), torch.compile of the decode step (CUDA graphs), the prompt "Hello, my
 *     name is" and 200 new tokens (generate.py's defaults). int8wo: int8 weights
 *     dequantised inside the compiled GEMV; int4wo-64: tinygemm
 *     (aten._weight_int4pack_mm, fused dequantisation, groups of 64).
 *  [torchao-h100] the same README, "CUDA backend | NVIDIA-H100 GPU", Llama-3.1-8B. The
 *     README does not say SXM or PCIe; the H100 SXM's 3.35 TB/s is assumed (its bf16 row
 *     moves 1.90 TB/s, 95% of a PCIe card's 2.0 TB/s, which a torch.compile GEMV does not
 *     reach on the A100: 1.42 of 2.04 TB/s). float8wo: fp8 weights, bf16 activations.
 *  [gpt-fast] pytorch-labs/gpt-fast README.md, "Benchmarks": 8 x A100-80GB power-limited
 *     to 330 W, batch size 1, a 5-token prompt; torch.compile (mode reduce-overhead: CUDA
 *     graphs); tensor parallelism with ENABLE_INTRA_NODE_COMM (custom all-reduce).
 *  [nim-70b] NVIDIA NIM LLM benchmarking, "Performance",
 *     https://docs.nvidia.com/nim/benchmarking/llm/1.0.0/performance : Llama-3.3-70b-
 *     instruct, NIM 1.8.0, 2 x H100 80G, fp8 TP2 (NIM's optimised H100 profiles are
 *     prebuilt TensorRT-LLM engines, its support matrix says), concurrency 1,
 *     ITL (ms): 18.58 at 5000 input / 500 output tokens, 18.91 at 500 / 2000.
 *  [vllm-h100] "Recipe: concurrency sweep", https://yobitelcomm.github.io/bench/recipes/
 *     concurrency-sweep/ : one H100-80GB-HBM3, vLLM 0.21.0, fp16, Llama-3.1-8B-Instruct,
 *     workload llm.inference.chatbot-short (lengths not stated; short), concurrency 1:
 *     tpot_p50 6.48 ms. A third-party page, not the vLLM project's.
 *  [vllm-a100] J. Musgrave, "vLLM throughput-latency sweep on NVIDIA A100",
 *     https://johnmusgrave.com/p/vllm-throughput-latency-sweep-on : one A100 40GB, vLLM
 *     0.23.0, Llama-3.1-8B-Instruct bf16, 1024 input / 128 output tokens, concurrency 1:
 *     "decode ... runs at about 75 tokens/sec" (a rounded figure).
 *  [vllm-marlin] vllm-project/vllm pull request #23197 (and #21836, #21865, the same
 *     table), "[Performance] Introduce Marlin-based GEMM kernels for the calibration-free
 *     RTN-based quantization", description: H100 GPUs (SXM assumed), `python
 *     benchmark_latency.py --model <model> --n 1 --num-iters-warmup 3 --num-iters 10
 *     --input-len 256 --output-len 32 -tp <#GPUs> --batch-size <batch> [--quantization
 *     rtn]`, seconds for the whole batch (prefill and 32 generated tokens), each an average
 *     of 5 runs. Llama3.1-8B on 1 GPU: BF16 and the new (Marlin) RTN Int8 and Int4 at
 *     batches 1, 4, 8, 16; Llama3.3-70B on 4 GPUs: BF16 (the quantised 70B rows are cut
 *     off in the stored copy). RTN Int4 is taken as gpuplan's int4 (an fp16 scale per 128
 *     weights; the PR does not state the group size), Int8 as int8 weights, both with
 *     bf16 activations.
 *  [trt-quant] NVIDIA/TensorRT-LLM docs/source/blogs/quantization-in-TRT-LLM.md,
 *     "Performance": LLaMA-v2-7B, H100 80GB, TP 1, input 1024, output 128: FP8 over FP16
 *     speedup 1.51x at batch 1, 1.40x at batch 8 (a ratio of whole-request throughput;
 *     the blog's FP8 recipe quantises the KV cache to FP8 as well, assumed here).
 */
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

struct engine_row {
	const char *source; /* a tag of the list above */
	enum engine_gpu gpu;
	enum engine_model model;
	enum dtype weights, precision, kv;
	int gpus; /* = tensor parallelism */
	int batch, prompt, output;
	double tokens_per_s; /* per sequence: 1 / time per output token (0: latency_s) */
	bool held;	     /* held to the tolerance; else printed only (all are held) */
	double latency_s;    /* or: the batch's whole generation, prefill and decode, s */
};

static const struct engine_row engine_rows[] = {
    /* torchao, A100 80GB */
    {"torchao-a100", EG_A100_80, EM_LLAMA2_7B, DTYPE_BF16, DTYPE_BF16, DTYPE_BF16, 1, 1, 5, 200,
     107.38, true, 0},
    {"torchao-a100", EG_A100_80, EM_LLAMA2_7B, DTYPE_INT8, DTYPE_BF16, DTYPE_BF16, 1, 1, 5, 200,
     170.83, true, 0},
    {"torchao-a100", EG_A100_80, EM_LLAMA2_7B, DTYPE_INT4, DTYPE_BF16, DTYPE_BF16, 1, 1, 5, 200,
     201.14, true, 0},
    {"torchao-a100", EG_A100_80, EM_LLAMA3_8B, DTYPE_BF16, DTYPE_BF16, DTYPE_BF16, 1, 1, 5, 200,
     95.64, true, 0},
    {"torchao-a100", EG_A100_80, EM_LLAMA3_8B, DTYPE_INT8, DTYPE_BF16, DTYPE_BF16, 1, 1, 5, 200,
     153.03, true, 0},
    {"torchao-a100", EG_A100_80, EM_LLAMA3_8B, DTYPE_INT4, DTYPE_BF16, DTYPE_BF16, 1, 1, 5, 200,
     180.80, true, 0},
    /* torchao, H100 */
    {"torchao-h100", EG_H100, EM_LLAMA3_8B, DTYPE_BF16, DTYPE_BF16, DTYPE_BF16, 1, 1, 5, 200,
     126.90, true, 0},
    {"torchao-h100", EG_H100, EM_LLAMA3_8B, DTYPE_INT8, DTYPE_BF16, DTYPE_BF16, 1, 1, 5, 200,
     198.85, true, 0},
    {"torchao-h100", EG_H100, EM_LLAMA3_8B, DTYPE_INT4, DTYPE_BF16, DTYPE_BF16, 1, 1, 5, 200,
     241.39, true, 0},
    {"torchao-h100", EG_H100, EM_LLAMA3_8B, DTYPE_FP8, DTYPE_BF16, DTYPE_BF16, 1, 1, 5, 200, 178.46,
     true, 0},
    /* gpt-fast, A100 80GB at 330 W */
    {"gpt-fast", EG_A100_80, EM_LLAMA2_7B, DTYPE_BF16, DTYPE_BF16, DTYPE_BF16, 1, 1, 5, 200, 104.9,
     true, 0},
    {"gpt-fast", EG_A100_80, EM_LLAMA2_7B, DTYPE_INT8, DTYPE_BF16, DTYPE_BF16, 1, 1, 5, 200, 155.58,
     true, 0},
    {"gpt-fast", EG_A100_80, EM_LLAMA2_7B, DTYPE_INT4, DTYPE_BF16, DTYPE_BF16, 1, 1, 5, 200, 196.80,
     true, 0},
    {"gpt-fast", EG_A100_80, EM_LLAMA2_70B, DTYPE_INT8, DTYPE_BF16, DTYPE_BF16, 1, 1, 5, 200, 19.13,
     true, 0},
    {"gpt-fast", EG_A100_80, EM_LLAMA2_70B, DTYPE_INT4, DTYPE_BF16, DTYPE_BF16, 1, 1, 5, 200, 25.25,
     true, 0},
    {"gpt-fast", EG_A100_80, EM_LLAMA2_7B, DTYPE_BF16, DTYPE_BF16, DTYPE_BF16, 2, 1, 5, 200, 168.84,
     true, 0},
    {"gpt-fast", EG_A100_80, EM_LLAMA2_7B, DTYPE_BF16, DTYPE_BF16, DTYPE_BF16, 4, 1, 5, 200, 254.02,
     true, 0},
    {"gpt-fast", EG_A100_80, EM_LLAMA2_7B, DTYPE_BF16, DTYPE_BF16, DTYPE_BF16, 8, 1, 5, 200, 328.43,
     true, 0},
    {"gpt-fast", EG_A100_80, EM_LLAMA2_70B, DTYPE_BF16, DTYPE_BF16, DTYPE_BF16, 2, 1, 5, 200, 21.32,
     true, 0},
    {"gpt-fast", EG_A100_80, EM_LLAMA2_70B, DTYPE_BF16, DTYPE_BF16, DTYPE_BF16, 4, 1, 5, 200, 38.01,
     true, 0},
    {"gpt-fast", EG_A100_80, EM_LLAMA2_70B, DTYPE_BF16, DTYPE_BF16, DTYPE_BF16, 8, 1, 5, 200, 62.50,
     true, 0},
    /* NIM 1.8.0 (TensorRT-LLM), 2 x H100, fp8 */
    {"nim-70b", EG_H100, EM_LLAMA3_70B, DTYPE_FP8, DTYPE_FP8, DTYPE_FP8, 2, 1, 5000, 500,
     1000 / 18.58, true, 0},
    {"nim-70b", EG_H100, EM_LLAMA3_70B, DTYPE_FP8, DTYPE_FP8, DTYPE_FP8, 2, 1, 500, 2000,
     1000 / 18.91, true, 0},
    /* vLLM */
    {"vllm-h100", EG_H100, EM_LLAMA3_8B, DTYPE_FP16, DTYPE_FP16, DTYPE_FP16, 1, 1, 256, 256,
     1000 / 6.48, true, 0},
    {"vllm-a100", EG_A100_40, EM_LLAMA3_8B, DTYPE_BF16, DTYPE_BF16, DTYPE_BF16, 1, 1, 1024, 128, 75,
     true, 0},
/* vLLM benchmark_latency on H100: 256 prompt tokens, 32 generated, the batch's latency */
#define VLLM_RTN(model, w, gpus, b, s)                                                             \
	{                                                                                          \
		"vllm-marlin", EG_H100, model, w, DTYPE_BF16, DTYPE_BF16, gpus, b, 256, 32, 0,     \
		    true, s                                                                        \
	}
    VLLM_RTN(EM_LLAMA3_8B, DTYPE_BF16, 1, 1, 0.236),
    VLLM_RTN(EM_LLAMA3_8B, DTYPE_BF16, 1, 4, 0.260),
    VLLM_RTN(EM_LLAMA3_8B, DTYPE_BF16, 1, 8, 0.284),
    VLLM_RTN(EM_LLAMA3_8B, DTYPE_BF16, 1, 16, 0.336),
    VLLM_RTN(EM_LLAMA3_8B, DTYPE_INT8, 1, 1, 0.186),
    VLLM_RTN(EM_LLAMA3_8B, DTYPE_INT8, 1, 4, 0.231),
    VLLM_RTN(EM_LLAMA3_8B, DTYPE_INT8, 1, 8, 0.248),
    VLLM_RTN(EM_LLAMA3_8B, DTYPE_INT8, 1, 16, 0.300),
    VLLM_RTN(EM_LLAMA3_8B, DTYPE_INT4, 1, 1, 0.154),
    VLLM_RTN(EM_LLAMA3_8B, DTYPE_INT4, 1, 4, 0.194),
    VLLM_RTN(EM_LLAMA3_8B, DTYPE_INT4, 1, 8, 0.216),
    VLLM_RTN(EM_LLAMA3_8B, DTYPE_INT4, 1, 16, 0.267),
    VLLM_RTN(EM_LLAMA3_70B, DTYPE_BF16, 4, 1, 0.558),
    VLLM_RTN(EM_LLAMA3_70B, DTYPE_BF16, 4, 4, 0.629),
    VLLM_RTN(EM_LLAMA3_70B, DTYPE_BF16, 4, 8, 0.700),
    VLLM_RTN(EM_LLAMA3_70B, DTYPE_BF16, 4, 16, 0.855),
#undef VLLM_RTN
};

#define ENGINE_ROWS ((int)(sizeof(engine_rows) / sizeof(engine_rows[0])))

/* [trt-quant]: FP8 over FP16 whole-request throughput, LLaMA-v2-7B on one H100 */
struct engine_ratio {
	int batch;
	double speedup;
};

static const struct engine_ratio engine_trt_fp8[] = {{1, 1.51}, {8, 1.40}};

/* The scenario of row r under the given engine. */
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

static inline const char *engine_model_name(enum engine_model m)
{
	static const char *const names[] = {"L2-7B", "L3-8B", "L2-70B", "L3-70B"};
	return names[m];
}

#endif
