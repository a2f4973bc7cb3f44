/* test_ssm_train_time.c - the state-space layers' scans take time in a training step
 * (Mamba-Codestral's Mamba-2 SSD, Jamba's Mamba-1 selective scan, Qwen3-Next's Gated
 * DeltaNet): plan.ssm_scan_s is part of time.parts.attention_s, never faster than the scans'
 * FLOPs at the GPU's peak (tensor cores for the chunked SSD and Gated DeltaNet, CUDA cores
 * for the selective scan), run once forward and twice backward (again forward under full
 * recomputation), and split over tensor parallelism. A transformer has none. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "catalog.h"
#include "shipped_catalog.h"
#include "error.h"
#include "model.h"
#include "plan.h"
#include "scenario.h"

static void build(struct scenario *s, const char *preset, const char *const *kv)
{
	static const char *const base[] = {"workload.kind=train", "workload.seq_len=4096",
					   "workload.micro_batch=1", "workload.global_batch=64",
					   "hardware.gpu=h100-sxm-80gb", "hardware.count=8",
					   "parallel.zero=3", NULL};
	struct gp_error err;
	char set[96];
	scenario_init(s);
	snprintf(set, sizeof(set), "model.preset=%s", preset);
	if (scenario_set_assignment(s, cat, set, &err) != 0)
		fail_msg("%s: %s", set, err.message);
	for (const char *const *k = base; *k; k++)
		if (scenario_set_assignment(s, cat, *k, &err) != 0)
			fail_msg("%s: %s", *k, err.message);
	for (; kv && *kv; kv++)
		if (scenario_set_assignment(s, cat, *kv, &err) != 0)
			fail_msg("%s: %s", *kv, err.message);
}

static void plan_of(const char *preset, const char *const *kv, struct plan *p)
{
	struct scenario s;
	build(&s, preset, kv);
	plan_compute(&s, p);
}

/* the tokens one GPU's scans run in a step: its replica's share, its heads' share */
static double tokens_per_gpu(const struct plan *p)
{
	return p->global_batch * 4096 / (p->dp * (p->cp > 0 ? p->cp : 1) * p->tp);
}

static void test_pure_ssm_scans_are_its_attention_part(void **state)
{
	struct plan p;
	double F, T, lo, hi;
	(void)state;
	plan_of("mamba-codestral", NULL, &p);
	assert_true(p.model.ssm.layers > 0 && p.model.ssm.heads > 0);
	/* no attention layer: the mixers' core is the scans */
	assert_true(p.ssm_scan_s > 0);
	assert_true(fabs(p.parts.attention_s - p.ssm_scan_s) <= 1e-12 * p.ssm_scan_s);
	/* forward and backward, 3 x the chunked forward FLOPs, never above the dense peak;
	 * nor slower than at a fifth of it with all its bytes streamed at a third of HBM */
	F = model_ssm_flops_per_token(&p.model, false);
	T = tokens_per_gpu(&p);
	lo = 3 * F * T / p.peak_flops;
	hi = 3 * T *
	     (F / (0.2 * p.peak_flops) +
	      model_ssm_scan_bytes_per_token(&p.model, 2) / (p.hbm_efficiency * 3.35e12 / 3));
	fprintf(stderr, "mamba-codestral: scans %.4g s (bounds %.4g - %.4g), step %.4g s\n",
		p.ssm_scan_s, lo, hi, p.step_s);
	assert_true(p.ssm_scan_s >= lo);
	assert_true(p.ssm_scan_s <= hi);
	/* and the step pays for them */
	assert_true(p.step_s > p.ssm_scan_s);
}

/* full recomputation runs the layers' forward again, the scans with them: 1 + 2 -> 2 + 2 */
static void test_full_recompute_runs_the_scans_again(void **state)
{
	static const char *const full[] = {"workload.recompute=full", NULL};
	static const char *const none[] = {"workload.recompute=none", NULL};
	struct plan a, b;
	(void)state;
	plan_of("mamba-codestral", none, &a);
	plan_of("mamba-codestral", full, &b);
	assert_true(a.ssm_scan_s > 0);
	assert_true(fabs(b.ssm_scan_s / a.ssm_scan_s - 4.0 / 3) < 1e-9);
	/* the hardware FLOPs count the scans' recomputed forward too */
	assert_true(b.hw_flops_per_token - a.hw_flops_per_token >=
		    model_ssm_flops_per_token(&a.model, false) * (1 - 1e-9));
}

/* tensor parallelism splits the heads (Megatron-Core's MambaMixer shards d_inner): tp 2 over
 * the same 8 GPUs runs twice the tokens per replica and half the heads, the same time */
static void test_tp_splits_the_scans(void **state)
{
	static const char *const tp2[] = {"parallel.tp=2", NULL};
	struct plan a, b;
	(void)state;
	plan_of("mamba-codestral", NULL, &a);
	plan_of("mamba-codestral", tp2, &b);
	assert_int_equal(b.tp, 2);
	assert_true(fabs(b.ssm_scan_s / a.ssm_scan_s - 1) < 1e-9);
}

/* Jamba: Mamba-1 mixers beside attention layers; the selective scan runs on the CUDA
 * cores, so it is never faster than its FLOPs at the FP32 peak */
static void test_hybrid_adds_the_scans_to_its_attention(void **state)
{
	struct plan p;
	struct scenario s;
	double fp32;
	(void)state;
	build(&s, "jamba-1.5-mini", NULL);
	plan_compute(&s, &p);
	fp32 = s.hardware.gpu.peak_flops[DTYPE_FP32];
	assert_true(p.model.ssm.layers > 0 && p.model.ssm.heads == 0);
	assert_true(p.ssm_scan_s > 0);
	assert_true(p.parts.attention_s > p.ssm_scan_s); /* its attention layers' cores */
	assert_true(p.ssm_scan_s >=
		    3 * model_ssm_flops_per_token(&p.model, false) * tokens_per_gpu(&p) / fp32);
}

static void test_gated_delta_and_transformers(void **state)
{
	struct plan p;
	(void)state;
	plan_of("qwen3-next-80b", NULL, &p);
	assert_true(p.model.ssm.gated_delta);
	assert_true(p.ssm_scan_s >=
		    3 * model_ssm_flops_per_token(&p.model, false) * tokens_per_gpu(&p) /
			p.peak_flops);
	plan_of("llama-3.1-8b", NULL, &p);
	assert_true(p.ssm_scan_s == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_pure_ssm_scans_are_its_attention_part),
	    cmocka_unit_test(test_full_recompute_runs_the_scans_again),
	    cmocka_unit_test(test_tp_splits_the_scans),
	    cmocka_unit_test(test_hybrid_adds_the_scans_to_its_attention),
	    cmocka_unit_test(test_gated_delta_and_transformers),
	};
	return cmocka_run_group_tests(tests, shipped_catalog_setup, shipped_catalog_teardown);
}
