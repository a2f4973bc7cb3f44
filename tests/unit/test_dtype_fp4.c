/* test_dtype_fp4.c - the microscaling formats: nvfp4, mxfp4 and fp6 (MXFP6) bytes with their
 * block scales, the FP4 tensor-core peaks of the catalog, and gpt-oss-120b's published
 * checkpoint (MXFP4 experts, the rest bf16) within 1%. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "dtype.h"
#include "plan.h"
#include "report.h"
#include "scenario.h"
#include "shipped_catalog.h"

#define GIB 1073741824.0

/* NVFP4: 16 E2M1 elements share an FP8 E4M3 scale: 4 + 8/16 = 4.5 bits (NVIDIA, "Introducing
 * NVFP4", 2025). MXFP4 / MXFP6: 32 elements share an E8M0 scale: 4.25 and 6.25 bits (OCP
 * Microscaling Formats v1.0, Table 1). */
static void test_block_format_bytes(void **state)
{
	enum dtype d;
	(void)state;
	assert_true(dtype_bytes(DTYPE_NVFP4) == 4.5 / 8);
	assert_true(dtype_bytes(DTYPE_MXFP4) == 4.25 / 8);
	assert_true(dtype_bytes(DTYPE_FP6) == 6.25 / 8);
	assert_int_equal(dtype_parse("nvfp4", &d), 0);
	assert_int_equal(d, DTYPE_NVFP4);
	assert_int_equal(dtype_parse("mxfp4", &d), 0);
	assert_int_equal(d, DTYPE_MXFP4);
	assert_int_equal(dtype_parse("fp6", &d), 0);
	assert_int_equal(d, DTYPE_FP6);
	assert_string_equal(dtype_name(DTYPE_FP6), "fp6");
	assert_true(dtype_is_microscaled(DTYPE_MXFP4) && !dtype_is_microscaled(DTYPE_INT4));
}

/* Dense FP4 peaks (catalog/gpus.yaml, each with its source): HGX B200 18 PF* / 2, GB200
 * 20 PF* / 2, RTX 5090 3,352 AI TOPS* / 2; MI355X MXFP4 only (CDNA 4 has no NVFP4); Hopper
 * has none. */
static void test_fp4_peaks(void **state)
{
	(void)state;
	assert_true(catalog_find_gpu(cat, "b200")->peak_flops[DTYPE_NVFP4] == 9000e12);
	assert_true(catalog_find_gpu(cat, "b200")->peak_flops[DTYPE_MXFP4] == 9000e12);
	assert_true(catalog_find_gpu(cat, "b200")->peak_flops[DTYPE_FP6] == 4500e12);
	assert_true(catalog_find_gpu(cat, "gb200")->peak_flops[DTYPE_NVFP4] == 10000e12);
	assert_true(catalog_find_gpu(cat, "rtx-5090")->peak_flops[DTYPE_NVFP4] == 1676e12);
	assert_true(catalog_find_gpu(cat, "mi355x")->peak_flops[DTYPE_MXFP4] > 10000e12);
	assert_true(catalog_find_gpu(cat, "mi355x")->peak_flops[DTYPE_NVFP4] == 0);
	assert_true(catalog_find_gpu(cat, "h100-sxm-80gb")->peak_flops[DTYPE_NVFP4] == 0);
}

static void plan_gpt_oss(const char *gpu, const char *weights, const char *experts,
			 const char *precision, struct plan *p)
{
	struct scenario s;
	struct gp_error err;

	scenario_init(&s);
	assert_int_equal(scenario_set(&s, cat, "model.preset", "gpt-oss-120b", &err), 0);
	assert_int_equal(scenario_set(&s, cat, "workload.kind", "online", &err), 0);
	assert_int_equal(scenario_set(&s, cat, "hardware.gpu", gpu, &err), 0);
	assert_int_equal(scenario_set(&s, cat, "workload.weights", weights, &err), 0);
	assert_int_equal(scenario_set(&s, cat, "workload.expert_weights", experts, &err), 0);
	assert_int_equal(scenario_set(&s, cat, "workload.precision", precision, &err), 0);
	plan_compute(&s, p);
}

/* OpenAI's gpt-oss model card (arXiv 2508.10925, Table 1): gpt-oss-120b, 116.83B parameters
 * of which 114.71B in the MLP (MXFP4 in the checkpoint), checkpoint size 60.8 GiB. */
static void test_gpt_oss_120b_checkpoint(void **state)
{
	struct plan p;
	double want = 60.8 * GIB;
	(void)state;
	plan_gpt_oss("b200", "bf16", "mxfp4", "bf16", &p);
	printf("gpt-oss-120b weights %.2f GiB, published 60.8 GiB (%+.2f%%)\n", p.mem.weights / GIB,
	       100 * (p.mem.weights / want - 1));
	assert_true(p.mem.weights > want * 0.99 && p.mem.weights < want * 1.01);
	/* auto: the experts as workload.weights; all of it mxfp4 once the embedding and head,
	 * which the checkpoint keeps bf16 (workload.embedding_weights: auto), are too */
	plan_gpt_oss("b200", "mxfp4", "auto", "bf16", &p);
	{
		double kept = p.mem.weights;
		struct scenario s;
		struct gp_error err;
		scenario_init(&s);
		assert_int_equal(scenario_set(&s, cat, "model.preset", "gpt-oss-120b", &err), 0);
		assert_int_equal(scenario_set(&s, cat, "workload.kind", "online", &err), 0);
		assert_int_equal(scenario_set(&s, cat, "hardware.gpu", "b200", &err), 0);
		assert_int_equal(scenario_set(&s, cat, "workload.weights", "mxfp4", &err), 0);
		assert_int_equal(scenario_set(&s, cat, "workload.embedding_weights", "same", &err),
				 0);
		plan_compute(&s, &p);
		assert_true(p.mem.weights < kept && p.mem.weights < want * 0.97);
	}
}

/* W4A4 on Blackwell runs at the FP4 peak; on Hopper nvfp4 compute falls back (a warning)
 * to bf16, where the weights are dequantised as int4's are. */
static void test_fp4_compute(void **state)
{
	struct plan p;
	(void)state;
	plan_gpt_oss("b200", "nvfp4", "nvfp4", "nvfp4", &p);
	assert_true(p.peak_flops == 9000e12);
	plan_gpt_oss("h100-sxm-80gb", "nvfp4", "nvfp4", "nvfp4", &p);
	assert_true(p.peak_flops == 989.4e12);
}

static bool has_warning(const struct plan *p, enum plan_warning_code code)
{
	for (int i = 0; i < p->nwarnings; i++)
		if (p->warnings[i].code == code)
			return true;
	return false;
}

/* workload.precision auto: NVFP4 weights on a GPU with FP4 tensor cores and a CUDA-graph
 * engine compute W4A4 at the FP4 peak (vLLM ModelOptNvFp4LinearMethod,
 * cutlass_scaled_fp4_mm; plan_precision), as fp8 weights compute W8A8; MXFP4 stays
 * weight-only (vLLM's default Blackwell MXFP4 MoE backend takes bf16 activations), and so
 * does NVFP4 on Hopper, without a warning, and under llama.cpp. */
static void test_fp4_auto(void **state)
{
	struct plan p;
	struct scenario s;
	struct gp_error err;
	(void)state;
	plan_gpt_oss("b200", "nvfp4", "nvfp4", "auto", &p);
	assert_int_equal(p.precision, DTYPE_NVFP4);
	assert_int_equal(p.peak_precision, DTYPE_NVFP4);
	assert_true(p.peak_flops == 9000e12);
	assert_false(has_warning(&p, PW_NO_PRECISION_PEAK));
	plan_gpt_oss("b200", "mxfp4", "mxfp4", "auto", &p);
	assert_int_equal(p.precision, DTYPE_BF16);
	assert_true(p.peak_flops == 2250e12);
	plan_gpt_oss("h100-sxm-80gb", "nvfp4", "nvfp4", "auto", &p);
	assert_int_equal(p.precision, DTYPE_BF16);
	assert_true(p.peak_flops == 989.4e12);
	assert_false(has_warning(&p, PW_NO_PRECISION_PEAK));
	scenario_init(&s);
	assert_int_equal(scenario_set(&s, cat, "model.preset", "gpt-oss-120b", &err), 0);
	assert_int_equal(scenario_set(&s, cat, "workload.kind", "online", &err), 0);
	assert_int_equal(scenario_set(&s, cat, "hardware.gpu", "b200", &err), 0);
	assert_int_equal(scenario_set(&s, cat, "workload.weights", "nvfp4", &err), 0);
	assert_int_equal(scenario_set(&s, cat, "workload.engine", "llama.cpp", &err), 0);
	plan_compute(&s, &p);
	assert_int_equal(p.precision, DTYPE_BF16);
	/* training keeps its mixed precision */
	assert_int_equal(scenario_set(&s, cat, "workload.engine", "auto", &err), 0);
	assert_int_equal(scenario_set(&s, cat, "workload.kind", "train", &err), 0);
	plan_compute(&s, &p);
	assert_int_equal(p.precision, DTYPE_BF16);
}

/* The report names the precision whose peak it used: nvfp4 asked of an H100 (no FP4
 * peak) runs bf16 with a warning, and the header says bf16, not "989 TFLOP/s nvfp4". */
static void test_fp4_header(void **state)
{
	static const char *const cases[][4] = {
	    {"h100-sxm-80gb", "nvfp4", "989 TFLOP/s bf16", "TFLOP/s nvfp4"},
	    {"a100-80gb-sxm", "mxfp4", "312 TFLOP/s bf16", "TFLOP/s mxfp4"},
	    {"b200", "nvfp4", "9 PFLOP/s nvfp4", "PFLOP/s bf16"},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct plan p;
		struct scenario s;
		struct gp_error err;
		struct report_buf b = {0};
		scenario_init(&s);
		assert_int_equal(scenario_set(&s, cat, "model.preset", "gpt-oss-120b", &err), 0);
		assert_int_equal(scenario_set(&s, cat, "workload.kind", "online", &err), 0);
		assert_int_equal(scenario_set(&s, cat, "hardware.gpu", cases[i][0], &err), 0);
		assert_int_equal(scenario_set(&s, cat, "workload.weights", cases[i][1], &err), 0);
		assert_int_equal(scenario_set(&s, cat, "workload.precision", cases[i][1], &err),
				 0);
		plan_compute(&s, &p);
		assert_int_equal(has_warning(&p, PW_NO_PRECISION_PEAK), i < 2);
		assert_int_equal(report_text(&b, &s, &p), 0);
		assert_non_null(strstr(b.data, cases[i][2]));
		assert_null(strstr(b.data, cases[i][3]));
		report_buf_release(&b);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_block_format_bytes),
	    cmocka_unit_test(test_fp4_peaks),
	    cmocka_unit_test(test_gpt_oss_120b_checkpoint),
	    cmocka_unit_test(test_fp4_compute),
	    cmocka_unit_test(test_fp4_auto),
	    cmocka_unit_test(test_fp4_header),
	};
	return cmocka_run_group_tests(tests, shipped_catalog_setup, shipped_catalog_teardown);
}
