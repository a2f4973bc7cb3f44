/* test_moe_train.c - mixture-of-experts training time: the expert-parallel all-to-alls,
 * exposed (standard Megatron-LM / DeepSpeed-MoE) or overlapped with another micro-batch's
 * compute (parallel.ep_overlap: DeepSeek-V3's DualPipe, Megatron-Core's overlapped MoE
 * communication).
 *
 * Published row: DeepSeek-V3 Technical Report (DeepSeek-AI, arXiv 2412.19437):
 *  - Section 1 and Table 1: "training DeepSeek-V3 on each trillion tokens requires only
 *    180K H800 GPU hours, i.e., 3.7 days on our cluster with 2048 H800 GPUs"; pre-training
 *    (14.8T tokens) costs 2664K GPU hours (2.788M with context extension and
 *    post-training); 671B parameters, 37B active per token.
 *  - Section 3.1: 2048 H800 GPUs, 8 a node over NVLink/NVSwitch, InfiniBand between nodes.
 *  - Section 3.2: 16-way pipeline parallelism, 64-way expert parallelism spanning 8 nodes,
 *    ZeRO-1 data parallelism, no tensor parallelism.
 *  - Section 3.2.1: cross-node expert parallelism gives a computation-to-communication
 *    ratio of about 1:1; DualPipe overlaps the computation and communication of a pair of
 *    forward and backward chunks so that "both all-to-all and PP communication can be fully
 *    hidden"; its bubble is (PP/2 - 1)(F&B + B - 3W) against 1F1B's (PP - 1)(F + B).
 *  - Section 3.2.2: each token goes to at most 4 nodes; NVLink 160 GB/s, IB 50 GB/s.
 *  - Section 3.3: FP8 GEMMs; activations are dispatched in FP8 (combine stays BF16).
 *  - Section 4.2: sequence length 4K; batch size ramped from 3072 to 15360 sequences over
 *    the first 469B tokens, then 15360.
 * The H800 is an H100 SXM with its NVLink cut to 400 GB/s; the scenario takes the
 * h100-sxm-80gb and sets link_bandwidth 400GB/s, with 400 Gb/s InfiniBand per GPU.
 *
 * Properties: ep_overlap never makes a step slower, and with ep = 1 (or a dense model)
 * it changes nothing. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "catalog.h"
#include "shipped_catalog.h"
#include "error.h"
#include "plan.h"
#include "scenario.h"
#include "scenario_yaml.h"
#include "measured_rows.h"

/* |a - b| <= tol (this cmocka has no assert_double_equal) */
#define assert_close(a, b, tol) assert_true(fabs((a) - (b)) <= (tol))

/* Published: 180K H800 GPU-hours per trillion tokens, 2664K for the 14.8T of
 * pre-training (arXiv 2412.19437, Section 1 and Table 1): the row deepseek-v3-h800-gpu-hours
 * of tests/validation/training-cost.yaml, one copy shared with `gpuplan validate`. */
#define DSV3_ROWS "tests/validation/training-cost.yaml"
#define DSV3_ROW  "deepseek-v3-h800-gpu-hours"

/* Tolerance: the modelled figure with ep_overlap may be 15% below or 25% above the
 * published one. No constant of the model was fitted to this row (the result, +18%, was
 * known when the bounds were written; they follow from the reasons here). Above: the
 * model knowingly leaves out three things that only make DeepSeek faster - DualPipe's
 * smaller bubble (the model charges 1F1B's (pp - 1) x micro-batch, about a tenth of the
 * step here), FP8 dispatch (a quarter less all-to-all bytes) and node-limited routing (at
 * most 4 nodes a token) - so the model should sit above the published figure by up to
 * that much. Below: the dense training rows of this model (test_time.c, MosaicML) miss
 * by up to 15%; nothing here is expected to make the model too fast beyond that (the SMs
 * DeepSeek gives to communication, 20 of 132, and the multi-token-prediction module,
 * one more transformer block and output head, are not charged; both err low). The
 * batch ramp (3072 to 15360 sequences over the first 469B tokens, 3% of the run) is
 * left out. */
#define DSV3_TOL_LOW  0.85
#define DSV3_TOL_HIGH 1.25

static const char dsv3_yaml[] = "gpuplan: 1\n"
				"name: DeepSeek-V3 pre-training on 2048 x H800\n"
				"model:\n"
				"  preset: deepseek-v3\n"
				"workload:\n"
				"  kind: train\n"
				"  precision: fp8\n"
				"  seq_len: 4096\n"
				"  micro_batch: 1\n"
				"  global_batch: 15360\n"
				"  tokens: 14.8T\n"
				"  recompute: selective\n"
				"hardware:\n"
				"  gpu: h100-sxm-80gb\n"
				"  count: 2048\n"
				"  link_bandwidth: 400GB/s\n"
				"  network: 400Gb/s\n"
				"parallel:\n"
				"  tp: 1\n"
				"  pp: 16\n"
				"  ep: 64\n"
				"  zero: 1\n";

static void dsv3_scenario(struct scenario *s)
{
	struct gp_error err;

	memset(&err, 0, sizeof(err));
	assert_int_equal(
	    scenario_parse(dsv3_yaml, strlen(dsv3_yaml), "dsv3.yaml", cat, s, NULL, NULL, &err), 0);
}

static void set(struct scenario *s, const char *kv)
{
	struct gp_error err;

	memset(&err, 0, sizeof(err));
	if (scenario_set_assignment(s, cat, kv, &err) != 0) {
		char buf[512];
		fail_msg("%s: %s", kv, gp_error_format(&err, buf, sizeof(buf)));
	}
}

static double per_trillion(const struct plan *p)
{
	return p->gpu_hours / 14.8;
}

static void test_deepseek_v3_published(void **state)
{
	struct scenario s;
	struct plan off, on;
	double a, b;

	struct validation v;
	const struct validate_row *r;
	struct scenario rs;
	struct plan *rp = malloc(sizeof(*rp));
	double published_per_t;

	(void)state;
	assert_non_null(rp);
	measured_load(&v, DSV3_ROWS);
	r = measured_row(&v, DSV3_ROW);
	published_per_t = r->measured / 14.8;
	dsv3_scenario(&s);
	assert_false(s.parallel.ep_overlap); /* default: today's exposed all-to-alls */
	plan_compute(&s, &off);
	s.parallel.ep_overlap = true;
	plan_compute(&s, &on);
	a = per_trillion(&off);
	b = per_trillion(&on);
	/* the row's scenario is this one, with ep_overlap: validate reads these GPU-hours */
	measured_plan(r, &rs, rp);
	measured_same(r, &rs, rp, on.gpu_hours);
	free(rp);
	validation_release(&v);
	printf("DeepSeek-V3, 2048 x H800, pp 16 ep 64 ZeRO-1: GPU-hours per trillion tokens\n");
	printf("  published %.0f  exposed all-to-alls %.0f (%.2fx, EP %.0f%% of the step)\n",
	       published_per_t, a, a / published_per_t,
	       100 * off.parts.ep_comm_s / off.step_s);
	printf("  ep_overlap %.0f (%+.1f%%, EP %.0f%% of the step), pre-training %.2fM GPU-hours "
	       "(published 2.664M)\n",
	       b, 100 * (b / published_per_t - 1), 100 * on.parts.ep_comm_s / on.step_s,
	       on.gpu_hours / 1e6);
	assert_true(isfinite(a) && isfinite(b));
	/* with overlap: the published figure within the stated tolerance */
	assert_true(b >= published_per_t * DSV3_TOL_LOW);
	assert_true(b <= published_per_t * DSV3_TOL_HIGH);
	/* without: exposed all-to-alls are far off (the report's 1:1 computation to
	 * communication ratio, Section 3.2.1), which is why the switch exists */
	assert_true(a > published_per_t * 1.6);
	/* the overlap hides all but the all-to-all time beyond each micro-batch's compute,
	 * and the pipeline bubble (pp - 1 micro-batches) shrinks with it */
	assert_true(on.parts.ep_comm_s < off.parts.ep_comm_s);
	assert_true(on.parts.bubble_s < off.parts.bubble_s);
	/* everything else is the same work */
	assert_close(on.parts.matmul_s, off.parts.matmul_s, 0);
	assert_close(on.parts.attention_s, off.parts.attention_s, 0);
	assert_close(on.parts.dp_comm_s, off.parts.dp_comm_s, 0);
	assert_close(on.flops_per_token, off.flops_per_token, 0);
}

/* Per micro-batch the exposed part is max(ep - compute, 0): check it on the parts. */
static void test_exposed_part(void **state)
{
	struct scenario s;
	struct plan off, on;
	double m, compute, want;

	(void)state;
	dsv3_scenario(&s);
	plan_compute(&s, &off);
	s.parallel.ep_overlap = true;
	plan_compute(&s, &on);
	m = on.micro_batches;
	assert_true(m > 1);
	compute = (off.parts.matmul_s + off.parts.attention_s + off.parts.memory_bound_s) / m;
	want = m * fmax(off.parts.ep_comm_s / m - compute, 0);
	assert_close(on.parts.ep_comm_s, want, 1e-9 * off.step_s);
	/* a fast network: the all-to-alls hide entirely */
	set(&s, "hardware.network=3.2Tb/s");
	set(&s, "hardware.link_bandwidth=900GB/s");
	plan_compute(&s, &on);
	assert_close(on.parts.ep_comm_s, 0, 0);
}

static void check_pair(struct scenario *s, long *n)
{
	struct plan off, on;

	s->parallel.ep_overlap = false;
	plan_compute(s, &off);
	s->parallel.ep_overlap = true;
	plan_compute(s, &on);
	if (isnan(off.step_s)) {
		assert_true(isnan(on.step_s));
		return;
	}
	(*n)++;
	if (!(on.step_s <= off.step_s))
		fail_msg("%s ep %d pp %d mb %d: overlap %.6g s > exposed %.6g s", s->name,
			 s->parallel.ep, s->parallel.pp, s->workload.micro_batch, on.step_s,
			 off.step_s);
	if (s->parallel.ep <= 1) {
		/* nothing to overlap: bit for bit the same */
		assert_memory_equal(&on.parts, &off.parts, sizeof(on.parts));
		assert_close(on.step_s, off.step_s, 0);
		assert_close(on.gpu_hours, off.gpu_hours, 0);
	}
}

/* Over MoE and dense models, ep, pp, micro-batch, recompute, precision and fabric: the
 * overlap never slows a step; with ep = 1 it changes nothing. */
static void test_never_slower(void **state)
{
	static const char *const models[] = {"deepseek-v3", "mixtral-8x7b", "qwen3-30b-a3b",
					     "llama-3.1-8b"};
	static const char *const eps[] = {"1", "2", "8", "64"};
	static const char *const pps[] = {"1", "4", "16"};
	static const char *const mbs[] = {"1", "4"};
	static const char *const recs[] = {"none", "selective", "full"};
	static const char *const nets[] = {"100Gb/s", "400Gb/s", "3.2Tb/s"};
	long n = 0;

	(void)state;
	for (size_t mi = 0; mi < sizeof(models) / sizeof(models[0]); mi++)
		for (size_t ei = 0; ei < sizeof(eps) / sizeof(eps[0]); ei++)
			for (size_t pi = 0; pi < sizeof(pps) / sizeof(pps[0]); pi++)
				for (size_t bi = 0; bi < sizeof(mbs) / sizeof(mbs[0]); bi++)
					for (size_t ri = 0; ri < sizeof(recs) / sizeof(recs[0]);
					     ri++)
						for (size_t ni = 0;
						     ni < sizeof(nets) / sizeof(nets[0]); ni++) {
							struct scenario s;
							char kv[128];
							dsv3_scenario(&s);
							snprintf(kv, sizeof(kv), "model.preset=%s",
								 models[mi]);
							set(&s, kv);
							s.parallel.ep = atoi(eps[ei]);
							s.parallel.pp = atoi(pps[pi]);
							s.workload.micro_batch = atoi(mbs[bi]);
							snprintf(kv, sizeof(kv),
								 "workload.recompute=%s", recs[ri]);
							set(&s, kv);
							snprintf(kv, sizeof(kv),
								 "hardware.network=%s", nets[ni]);
							set(&s, kv);
							check_pair(&s, &n);
						}
	printf("ep_overlap never slower: %ld scenarios\n", n);
	assert_true(n > 100);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_deepseek_v3_published),
	    cmocka_unit_test(test_exposed_part),
	    cmocka_unit_test(test_never_slower),
	};
	return cmocka_run_group_tests(tests, shipped_catalog_setup, shipped_catalog_teardown);
}
