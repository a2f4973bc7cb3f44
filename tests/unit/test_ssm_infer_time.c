/* test_ssm_infer_time.c - a state-space model's prefill runs its scans over the prompt
 * (plan.ssm_scan_s, part of TTFT: Mamba-Codestral's Mamba-2 SSD, Jamba's Mamba-1 selective
 * scan, Qwen3-Next's Gated DeltaNet), never faster than their FLOPs at the GPU's peak, and
 * split over tensor parallelism; its decode step reads and writes each sequence's fixed
 * recurrent state and updates it, so it grows with the batch and not with the context. A
 * transformer has no scans. */
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
	static const char *const base[] = {"workload.kind=offline",
					   "workload.prompt_tokens=8000",
					   "workload.output_tokens=100",
					   "workload.batch=1",
					   "hardware.gpu=h100-sxm-80gb",
					   "hardware.count=1",
					   NULL};
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

/* Mamba-Codestral alone on an H100: the prompt's 8000 tokens run the chunked SSD scan once
 * forward, at most at the dense peak, at least at a fifth of it with every byte streamed at
 * a third of HBM; the batch of one waits for no decode step, so its TTFT is the prefill, of
 * which the scans are a part */
static void test_prefill_runs_the_scans(void **state)
{
	struct plan p;
	double F, T = 8000, lo, hi;
	(void)state;
	plan_of("mamba-codestral", NULL, &p);
	assert_true(p.model.ssm.layers > 0 && p.model.ssm.heads > 0);
	F = model_ssm_flops_per_token(&p.model, false);
	lo = F * T / p.peak_flops;
	hi = T * (F / (0.2 * p.peak_flops) +
		  model_ssm_scan_bytes_per_token(&p.model, 2) / (p.hbm_efficiency * 3.35e12 / 3));
	fprintf(stderr, "mamba-codestral: prefill scans %.4g s (bounds %.4g - %.4g), ttft %.4g s\n",
		p.ssm_scan_s, lo, hi, p.ttft_s);
	assert_true(p.ssm_scan_s >= lo);
	assert_true(p.ssm_scan_s <= hi);
	/* and the TTFT pays for them, over the GEMMs of 2 N a token at the peak */
	assert_true(p.ttft_s >= p.ssm_scan_s + 2 * p.active_params * T / p.peak_flops);
}

/* the scans are linear in the prompt: twice the prompt, twice the scans, and the TTFT
 * grows by at least the added scans and GEMMs */
static void test_scans_grow_with_the_prompt(void **state)
{
	static const char *const twice[] = {"workload.prompt_tokens=16000", NULL};
	struct plan a, b;
	(void)state;
	plan_of("mamba-codestral", NULL, &a);
	plan_of("mamba-codestral", twice, &b);
	assert_true(fabs(b.ssm_scan_s / a.ssm_scan_s - 2) < 1e-9);
	assert_true(b.ttft_s - a.ttft_s >=
		    a.ssm_scan_s + 2 * a.active_params * 8000 / a.peak_flops);
}

/* tensor parallelism splits the heads (Megatron-Core's MambaMixer, vLLM's MambaMixer2
 * shard d_inner): tp 2 halves a prompt's scans */
static void test_tp_splits_the_prefill_scans(void **state)
{
	static const char *const tp2[] = {"hardware.count=2", "parallel.tp=2", NULL};
	struct plan a, b;
	(void)state;
	plan_of("mamba-codestral", NULL, &a);
	plan_of("mamba-codestral", tp2, &b);
	assert_int_equal(b.tp, 2);
	assert_true(fabs(b.ssm_scan_s / a.ssm_scan_s - 0.5) < 1e-9);
}

/* Jamba's Mamba-1 selective scan on the FP32 CUDA cores; Qwen3-Next's Gated DeltaNet on the
 * tensor cores; Llama has none */
static void test_hybrids_and_transformers(void **state)
{
	struct plan p;
	struct scenario s;
	double fp32;
	(void)state;
	build(&s, "jamba-1.5-mini", NULL);
	plan_compute(&s, &p);
	fp32 = s.hardware.gpu.peak_flops[DTYPE_FP32];
	assert_true(p.model.ssm.layers > 0 && p.model.ssm.heads == 0);
	assert_true(p.ssm_scan_s >= model_ssm_flops_per_token(&p.model, false) * 8000 / fp32);
	plan_of("qwen3-next-80b", NULL, &p);
	assert_true(p.model.ssm.gated_delta);
	assert_true(p.ssm_scan_s >=
		    model_ssm_flops_per_token(&p.model, false) * 8000 / p.peak_flops);
	plan_of("llama-3.1-8b", NULL, &p);
	assert_true(p.ssm_scan_s == 0);
}

/* A pure state-space model's decode step: no KV cache, so a step at a context four times
 * longer costs the same; each sequence more reads and writes its state (2 x the state's
 * bytes at no more than the HBM peak) and updates it on the CUDA cores (its recurrent
 * FLOPs at no more than the FP32 peak) */
static void test_decode_follows_the_batch_not_the_context(void **state)
{
	static const char *const b32[] = {"workload.batch=32", NULL};
	static const char *const b32_long[] = {"workload.batch=32", "workload.prompt_tokens=32000",
					       NULL};
	static const char *const b64[] = {"workload.batch=64", NULL};
	struct plan a, l, b;
	struct scenario s;
	double state_b, fp32;
	(void)state;
	build(&s, "mamba-codestral", b32);
	plan_compute(&s, &a);
	fp32 = s.hardware.gpu.peak_flops[DTYPE_FP32];
	plan_of("mamba-codestral", b32_long, &l);
	plan_of("mamba-codestral", b64, &b);
	assert_true(fabs(l.tpot_s / a.tpot_s - 1) < 1e-9);
	state_b = model_ssm_state_elems(&a.model, NULL) * 2;
	fprintf(stderr, "mamba-codestral: tpot %.4g s at batch 32, %.4g s at 64; state %.4g B\n",
		a.tpot_s, b.tpot_s, state_b);
	assert_true(b.tpot_s - a.tpot_s >= 32 * 2 * state_b / 3.35e12);
	assert_true(a.decode.kv_read_s >= 32 * 2 * state_b / 3.35e12);
	/* the state's update: the only FLOPs beside the GEMMs in a model without attention */
	assert_true(a.decode.attention_flops_s >=
		    32 * model_ssm_flops_per_token(&a.model, true) / fp32 * (1 - 1e-9));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_prefill_runs_the_scans),
	    cmocka_unit_test(test_scans_grow_with_the_prompt),
	    cmocka_unit_test(test_tp_splits_the_prefill_scans),
	    cmocka_unit_test(test_hybrids_and_transformers),
	    cmocka_unit_test(test_decode_follows_the_batch_not_the_context),
	};
	return cmocka_run_group_tests(tests, shipped_catalog_setup, shipped_catalog_teardown);
}
