/* test_engine.c - workload.engine: cuda-graphs against published decode rates of CUDA-graph
 * engines (tests/validation/decode-cuda-graphs.yaml, with sources, the rows `gpuplan
 * validate` plans). GRAPH_LAYER_S, GRAPH_TOKEN_S and
 * GRAPH_DEQUANT_S in src/plan_time.c were fitted to these rows together (a grid over 0-100
 * us, 0-1 ms and 0-0.3 ps minimising the worst plus the mean |error|; rounded); the rest
 * of the engine's model is the kernels' documented behaviour. Each test prints its per-row
 * errors, next to what the default engine (llama.cpp's kernels) predicts for the row. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "engine_rows.h"
/* after cmocka.h */
#include "shipped_catalog.h"
#include "measured_rows.h"

#define ROWS   "tests/validation/decode-cuda-graphs.yaml"
#define TRTLLM "tests/validation/throughput-trtllm.yaml"

static double rel_err(double got, double want)
{
	return (got - want) / want;
}

/* The row's figure under engine e (*s, *p: its scenario and plan): decode tokens/s per
 * sequence, 1 / TPOT, or for a batch-latency row (derived.batch_latency_s) the whole
 * batch's generation, B x out / tokens/s. */
static double row_figure(const struct validate_row *r, enum engine e, struct scenario *s,
			 struct plan *p)
{
	measured_plan(r, s, p);
	if (s->workload.engine != e) {
		s->workload.engine = e;
		plan_compute(s, p);
	}
	assert_true(isfinite(p->tpot_s) && p->tpot_s > 0);
	if (strcmp(r->figure, "derived.batch_latency_s") == 0)
		return (double)s->workload.batch * s->workload.output_tokens / p->tokens_per_s;
	assert_string_equal(r->figure, "derived.decode_rate");
	return 1 / p->tpot_s;
}

static void test_engine_rows(void **state)
{
	struct validation v;
	double worst = 0, sum = 0, sum_default = 0;
	int n = 0;
	(void)state;
	measured_load(&v, ROWS);
	printf("CUDA-graph engines (GRAPH_LAYER_S 55 us, GRAPH_TOKEN_S 0.15 ms, GRAPH_DEQUANT_S "
	       "0.15 ps):\ndecode tokens/s per sequence, or (s) the batch's whole generation\n");
	printf("  %-28s measured  cuda-graphs          llama.cpp\n", "row");
	for (int i = 0; i < v.nrows; i++) {
		const struct validate_row *r = &v.rows[i];
		struct scenario s;
		struct plan *p = malloc(sizeof(*p));
		double got, dflt, e, ed;
		assert_non_null(p);
		got = row_figure(r, ENGINE_CUDA_GRAPHS, &s, p);
		assert_int_equal(s.workload.engine, ENGINE_CUDA_GRAPHS);
		measured_same(r, &s, p, got);
		dflt = row_figure(r, ENGINE_LLAMACPP, &s, p);
		free(p);
		e = rel_err(got, r->measured);
		ed = rel_err(dflt, r->measured);
		printf("  %-28s %8.3f  %8.3f %+6.1f%%   %8.3f %+6.1f%%%s\n", r->id, r->measured,
		       got, 100 * e, dflt, 100 * ed, strcmp(r->unit, "s") == 0 ? " (s)" : "");
		/* every row is held to the test's 20% */
		assert_true(r->tolerance == 0.20);
		n++;
		sum += fabs(e);
		sum_default += fabs(ed);
		if (fabs(e) > worst)
			worst = fabs(e);
	}
	printf("  held rows %d: mean |error| %.1f%% (llama.cpp kernels: %.1f%%), worst %.1f%%\n", n,
	       100 * sum / n, 100 * sum_default / n, 100 * worst);
	/* 41 rows (a row removed from the file is a decision, made here too) */
	assert_int_equal(n, 41);
	assert_true(worst <= 0.20);
	assert_true(sum / n <= 0.08);
	assert_true(v.groups[0].mape_bound <= 0.08);
	/* the engine describes these runs better than llama.cpp's kernels do */
	assert_true(sum < 0.5 * sum_default);
	validation_release(&v);
}

/* [trt-quant] NVIDIA/TensorRT-LLM docs/source/blogs/quantization-in-TRT-LLM.md,
 * "Performance": LLaMA-v2-7B, H100 80GB, TP 1, input 1024, output 128: FP8 over FP16
 * speedup 1.51x at batch 1, 1.40x at batch 8 (a ratio of whole-request throughput; the
 * blog's FP8 recipe quantises the KV cache to FP8 as well, assumed here). A ratio of two
 * plans, not one figure of one scenario: kept here, outside `gpuplan validate`. */
struct engine_ratio {
	int batch;
	double speedup;
};

static const struct engine_ratio engine_trt_fp8[] = {{1, 1.51}, {8, 1.40}};

/* [trt-quant]: the FP8 over FP16 speedup of whole requests (prefill of 1024 tokens, 128
 * generated), LLaMA-v2-7B on one H100, TensorRT-LLM. */
static void test_trt_fp8_speedup(void **state)
{
	(void)state;
	printf("TensorRT-LLM FP8 over FP16, LLaMA-v2-7B, H100, 1024/128\n");
	for (unsigned k = 0; k < sizeof(engine_trt_fp8) / sizeof(engine_trt_fp8[0]); k++) {
		struct engine_row r = {"trt-quant",
				       EG_H100,
				       EM_LLAMA2_7B,
				       DTYPE_FP16,
				       DTYPE_FP16,
				       DTYPE_FP16,
				       1,
				       engine_trt_fp8[k].batch,
				       1024,
				       128};
		double got[2];
		for (int e = 0; e < 2; e++) {
			struct scenario s;
			struct plan a, b;
			r.weights = r.precision = r.kv = DTYPE_FP16;
			engine_row_scenario(&r, (enum engine)e, &s);
			plan_compute(&s, &a);
			r.weights = r.precision = r.kv = DTYPE_FP8;
			engine_row_scenario(&r, (enum engine)e, &s);
			plan_compute(&s, &b);
			got[e] = b.tokens_per_s / a.tokens_per_s;
		}
		printf("  batch %d  published %.2fx  cuda-graphs %.2fx %+5.1f%%  llama.cpp %.2fx "
		       "%+5.1f%%\n",
		       engine_trt_fp8[k].batch, engine_trt_fp8[k].speedup, got[1],
		       100 * rel_err(got[1], engine_trt_fp8[k].speedup), got[0],
		       100 * rel_err(got[0], engine_trt_fp8[k].speedup));
		assert_true(fabs(rel_err(got[1], engine_trt_fp8[k].speedup)) <= 0.20);
	}
}

/* TensorRT-LLM is a CUDA-graph engine: its batched-throughput rows (test_time.c,
 * perf-overview.md, Llama 3.1 8B FP8 on one H100), which test_time.c holds to 25% in five
 * columns under the default, all eight fall within 9% under the engine: held to 15%. */
static void test_trtllm_throughput_rows(void **state)
{
	struct validation v;
	double worst = 0;
	(void)state;
	measured_load(&v, TRTLLM);
	printf("TensorRT-LLM Llama 3.1 8B FP8, 1 x H100, output tokens/s under cuda-graphs\n");
	for (int i = 0; i < v.nrows; i++) {
		const struct validate_row *r = &v.rows[i];
		double got[2];
		for (int e = 0; e < 2; e++) {
			struct scenario s;
			struct plan p;
			measured_plan(r, &s, &p);
			s.workload.engine = (enum engine)e;
			plan_compute(&s, &p);
			got[e] = p.tokens_per_s;
		}
		printf("  %-24s  measured %6.0f  cuda-graphs %6.0f %+6.1f%%  llama.cpp %6.0f "
		       "%+6.1f%%%s\n",
		       r->id, r->measured, got[1], 100 * rel_err(got[1], r->measured), got[0],
		       100 * rel_err(got[0], r->measured),
		       isnan(r->tolerance) ? "  (not held in test_time.c)" : "");
		if (fabs(rel_err(got[1], r->measured)) > worst)
			worst = fabs(rel_err(got[1], r->measured));
	}
	printf("  worst |error| %.1f%%\n", 100 * worst);
	assert_int_equal(v.nrows, 8);
	assert_true(worst <= 0.15);
	validation_release(&v);
}

/* Weight-only formats under a CUDA-graph engine decode in the order of the bytes they
 * read, at every small batch: int4 before int8 before bf16 (vLLM's Marlin rows above, at
 * batches 1-16), and int4 before fp8 on FP8 tensor cores (TensorRT-LLM's quantisation
 * blog: int4 AWQ "High" against FP8 "Medium" at batch <= 4), which llama.cpp's kernels
 * invert on an H100 by batch 8. */
static void test_fused_int4_beats_fp8(void **state)
{
	static const enum dtype order[] = {DTYPE_INT4, DTYPE_FP8, DTYPE_INT8, DTYPE_BF16};
	static const int batches[] = {1, 4, 8, 16};
	(void)state;
	printf("H100, Llama 3 8B, cuda-graphs: time per output token (ms)\n");
	for (unsigned b = 0; b < sizeof(batches) / sizeof(batches[0]); b++) {
		double t[4];
		printf("  batch %2d:", batches[b]);
		for (unsigned k = 0; k < sizeof(order) / sizeof(order[0]); k++) {
			struct engine_row r = {"physics",
					       EG_H100,
					       EM_LLAMA3_8B,
					       order[k],
					       order[k] == DTYPE_FP8 ? DTYPE_FP8 : DTYPE_BF16,
					       DTYPE_BF16,
					       1,
					       batches[b],
					       512,
					       128};
			struct scenario s;
			struct plan p;
			engine_row_scenario(&r, ENGINE_CUDA_GRAPHS, &s);
			plan_compute(&s, &p);
			printf("  %s %.2f", dtype_name(order[k]), 1e3 * p.tpot_s);
			t[k] = p.tpot_s;
		}
		printf("\n");
		/* int4 < fp8, int4 < int8, and both 8-bit formats < bf16 */
		assert_true(t[0] < t[1] && t[0] < t[2]);
		assert_true(t[1] < t[3] && t[2] < t[3]);
	}
}

/* scenario_init leaves the engine on auto, and the engine changes the decode step only
 * (not training, not the memory plan). */
static void test_default_and_scope(void **state)
{
	struct scenario s;
	struct plan a, b;
	(void)state;
	scenario_init(&s);
	assert_int_equal(s.workload.engine, ENGINE_AUTO);
	assert_int_equal(s.workload.precision, PRECISION_AUTO);

	/* training ignores the engine */
	model_llama3(&s.model, false);
	gpu_h100_sxm(&s.hardware.gpu);
	s.hardware.count = 8;
	s.workload.tokens = 1e9;
	plan_compute(&s, &a);
	s.workload.engine = ENGINE_CUDA_GRAPHS;
	plan_compute(&s, &b);
	assert_true(a.step_s == b.step_s);
	assert_true(a.mem.total == b.mem.total);

	/* inference: same memory, a different (faster) decode step on this row */
	{
		static const struct engine_row r0 = {"torchao-a100",
						     EG_A100_80,
						     EM_LLAMA2_7B,
						     DTYPE_BF16,
						     DTYPE_BF16,
						     DTYPE_BF16,
						     1,
						     1,
						     5,
						     200};
		engine_row_scenario(&r0, ENGINE_LLAMACPP, &s);
	}
	plan_compute(&s, &a);
	s.workload.engine = ENGINE_CUDA_GRAPHS;
	plan_compute(&s, &b);
	assert_true(a.mem.total == b.mem.total);
	assert_true(b.tpot_s < a.tpot_s);
}

/* workload.engine auto and workload.precision auto: a CUDA-graph engine on data-centre
 * GPUs, llama.cpp on the catalog's consumer cards, the serving framework's own kernels
 * when one is named; fp8 weights compute W8A8 only on fp8 tensor cores under a CUDA-graph
 * engine; an explicit field always wins. */
static void test_auto_engine_precision(void **state)
{
	static const struct {
		const char *gpu;
		enum framework fw;
		enum engine engine;
	} rows[] = {
	    {"h100-sxm-80gb", FW_DEFAULT, ENGINE_CUDA_GRAPHS},
	    {"a100-80gb-sxm", FW_DEFAULT, ENGINE_CUDA_GRAPHS},
	    {"mi300x", FW_DEFAULT, ENGINE_CUDA_GRAPHS},
	    {"l40s", FW_DEFAULT, ENGINE_CUDA_GRAPHS},
	    {"rtx-4090", FW_DEFAULT, ENGINE_LLAMACPP},
	    {"rtx-3090", FW_DEFAULT, ENGINE_LLAMACPP},
	    {"rtx-5090", FW_DEFAULT, ENGINE_LLAMACPP},
	    {"rtx-4090", FW_VLLM, ENGINE_CUDA_GRAPHS},
	    {"rtx-4090", FW_SGLANG, ENGINE_CUDA_GRAPHS},
	    {"h100-sxm-80gb", FW_TRTLLM, ENGINE_CUDA_GRAPHS},
	    {"h100-sxm-80gb", FW_LLAMACPP, ENGINE_LLAMACPP},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct scenario s;
		struct plan p;
		const struct gpu *g = catalog_find_gpu(cat, rows[i].gpu);
		assert_non_null(g);
		scenario_init(&s);
		model_llama3(&s.model, false);
		s.hardware.gpu = *g;
		s.workload.kind = WL_ONLINE;
		s.workload.framework = rows[i].fw;
		s.workload.weights = DTYPE_FP8;
		plan_compute(&s, &p);
		assert_int_equal(p.engine, rows[i].engine);
		assert_int_equal(plan_engine(&s), rows[i].engine);
		/* fp8 weights: W8A8 where the tensor cores have fp8 and the engine runs it */
		assert_int_equal(p.precision, rows[i].engine == ENGINE_CUDA_GRAPHS &&
						      g->peak_flops[DTYPE_FP8] > 0
						  ? DTYPE_FP8
						  : DTYPE_BF16);
		/* explicit values win */
		s.workload.engine = ENGINE_LLAMACPP;
		s.workload.precision = DTYPE_FP16;
		plan_compute(&s, &p);
		assert_int_equal(p.engine, ENGINE_LLAMACPP);
		assert_int_equal(p.precision, DTYPE_FP16);
	}
	{
		/* W8A8 doubles the GEMMs' peak: the compute-bound prefill of an fp8 checkpoint
		 * on an H100 runs at the fp8 peak under auto, at the bf16 one when asked */
		struct scenario s;
		struct plan a, b;
		scenario_init(&s);
		model_llama3(&s.model, false);
		s.hardware.gpu = *catalog_find_gpu(cat, "h100-sxm-80gb");
		s.workload.kind = WL_ONLINE;
		s.workload.weights = DTYPE_FP8;
		s.workload.prompt_tokens = 4096;
		plan_compute(&s, &a);
		s.workload.precision = DTYPE_BF16;
		plan_compute(&s, &b);
		assert_true(fabs(a.peak_flops / b.peak_flops - 2) < 0.01);
		assert_true(a.ttft_s < 0.7 * b.ttft_s);
		/* int4 weights dequantise into 16-bit GEMMs (weight-only) */
		s.workload.precision = PRECISION_AUTO;
		s.workload.weights = DTYPE_INT4;
		plan_compute(&s, &a);
		assert_int_equal(a.precision, DTYPE_BF16);
		/* training resolves to bf16 (fp16 on a V100, which has no bf16 peak) */
		s.workload.kind = WL_TRAIN;
		plan_compute(&s, &a);
		assert_int_equal(a.precision, DTYPE_BF16);
		s.hardware.gpu = *catalog_find_gpu(cat, "v100-sxm-32gb");
		plan_compute(&s, &a);
		assert_int_equal(a.precision, DTYPE_FP16);
	}
}

/* Under the engine a step still grows with the batch and every figure stays finite, from
 * every measured row's scenario. */
static void test_engine_monotone_finite(void **state)
{
	struct validation v;
	(void)state;
	measured_load(&v, ROWS);
	for (int i = 0; i < v.nrows; i++) {
		double prev = 0;
		for (int B = 1; B <= 4096; B *= 2) {
			struct scenario s;
			struct plan p;
			measured_plan(&v.rows[i], &s, &p);
			s.workload.batch = B;
			plan_compute(&s, &p);
			assert_true(isfinite(p.tpot_s) && p.tpot_s >= prev);
			assert_true(isfinite(p.tokens_per_s) && p.tokens_per_s > 0);
			assert_true(isfinite(p.decode_compute_bound_batch));
			prev = p.tpot_s;
		}
	}
	validation_release(&v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_engine_rows),
	    cmocka_unit_test(test_trt_fp8_speedup),
	    cmocka_unit_test(test_trtllm_throughput_rows),
	    cmocka_unit_test(test_fused_int4_beats_fp8),
	    cmocka_unit_test(test_default_and_scope),
	    cmocka_unit_test(test_auto_engine_precision),
	    cmocka_unit_test(test_engine_monotone_finite),
	};
	return cmocka_run_group_tests(tests, shipped_catalog_setup, shipped_catalog_teardown);
}
