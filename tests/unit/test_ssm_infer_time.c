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
#include "scenario_set.h"

static void build(struct scenario *s, const char *preset, const char *const *kv)
{
	static const char *const base[] = {"workload.kind=offline",
					   "workload.prompt_tokens=8000",
					   "workload.output_tokens=100",
					   "workload.batch=1",
					   "hardware.gpu=h100-sxm-80gb",
					   "hardware.count=1",
					   NULL};
	load("scenarios/default.yaml", s);
	setf(s, "model.preset=%s", preset);
	for (const char *const *k = base; *k; k++)
		set(s, *k);
	for (; kv && *kv; kv++)
		set(s, *kv);
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

/* Each kind of scan, at no more than its peak: Mamba-2's SSD (Mamba-Codestral) and Gated
 * DeltaNet (Qwen3-Next) on the tensor cores, Mamba-1's selective scan (Jamba) on the FP32
 * CUDA cores; tensor parallelism splits the heads (Megatron-Core's MambaMixer, vLLM's
 * MambaMixer2 shard d_inner), so tp 2 halves a prompt's scans. Llama has none. */
static void test_each_kind_of_scan(void **state)
{
	static const struct {
		const char *preset;
		bool cuda_cores;
	} rows[] = {
	    {"mamba-codestral", false}, {"jamba-1.5-mini", true}, {"qwen3-next-80b", false}};
	static const char *const tp2[] = {"hardware.count=2", "parallel.tp=2", NULL};
	struct plan p, q;
	struct scenario s;
	(void)state;
	for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		double rate;
		build(&s, rows[i].preset, NULL);
		plan_compute(&s, &p);
		rate = rows[i].cuda_cores ? s.hardware.gpu.peak_flops[DTYPE_FP32] : p.peak_flops;
		assert_true(p.model.ssm.layers > 0);
		assert_true((p.model.ssm.heads == 0) == rows[i].cuda_cores);
		assert_true(p.ssm_scan_s >=
			    model_ssm_flops_per_token(&p.model, false) * 8000 / rate);
		plan_of(rows[i].preset, tp2, &q);
		assert_int_equal(q.tp, 2);
		assert_true(fabs(q.ssm_scan_s / p.ssm_scan_s - 0.5) < 1e-9);
	}
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
	    cmocka_unit_test(test_each_kind_of_scan),
	    cmocka_unit_test(test_decode_follows_the_batch_not_the_context),
	};
	return cmocka_run_group_tests(tests, shipped_catalog_setup, shipped_catalog_teardown);
}
