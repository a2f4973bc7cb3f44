/* test_serving_lengths.c - request lengths drawn from a law (workload.prompt_length,
 * output_length; src/plan_serve.c serve_levels): a fixed law is today's M/D/1 plan bit for
 * bit, the Pollaczek-Khinchine wait grows with the variance, the levels read the law's
 * quantiles, and a law without its parameters is refused at its place. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plan.h"
#include "scenario.h"
#include "scenario_yaml.h"
#include "shipped_catalog.h"
#include "scenario_set.h"
#include "serving_text.h"

#define SGLANG "tests/data/serving/sglang-70b-4xh200.yaml"

static void base(struct scenario *s, const char *sched, const char *rate)
{
	load(SGLANG, s);
	setf(s, "workload.scheduler=%s", sched);
	setf(s, "workload.requests_per_s=%s", rate);
}

/* dist fixed, given or not, is the M/D/1 plan of before, field by field */
static void test_fixed_identity(void **state)
{
	static const char *const scheds[] = {"chunked", "prefill-first", "static"};
	(void)state;
	for (int i = 0; i < 3; i++) {
		struct scenario s, z;
		struct plan p0, p1;
		base(&s, scheds[i], "6");
		set(&s, "workload.slo.ttft=1s");
		plan_compute(&s, &p0);
		z = s;
		set(&z, "workload.prompt_length.dist=fixed");
		set(&z, "workload.output_length.dist=fixed");
		plan_compute(&z, &p1);
		assert_memory_equal(&p0.serving, &p1.serving,
				    offsetof(struct plan_serving, overloaded));
		assert_memory_equal(&p0.serving.fleet_rule, &p1.serving.fleet_rule,
				    sizeof(p0.serving) - offsetof(struct plan_serving, fleet_rule));
		assert_true(p0.ttft_s == p1.ttft_s && p0.tpot_s == p1.tpot_s);
		assert_true(p0.gpus_required == p1.gpus_required ||
			    (isnan(p0.gpus_required) && isnan(p1.gpus_required)));
	}
}

/* M/G/1 (Pollaczek-Khinchine): the queue's mean wait is (1 + cv^2) times M/D/1's; an
 * exponential prompt (cv^2 = 1) doubles it, a uniform one on [1, 1017] (cv^2 =
 * 1016^2 / 12 / 509^2 = 0.332) multiplies it by 1.332. The residual of the step in flight
 * is the same. */
static void test_pk_wait(void **state)
{
	struct scenario s, z;
	struct plan p0, pe, pu;
	double res, q0, cv2 = 1016.0 * 1016 / 12 / (509.0 * 509);
	(void)state;
	base(&s, "chunked", "8");
	plan_compute(&s, &p0);
	z = s;
	set(&z, "workload.prompt_length.dist=exponential");
	plan_compute(&z, &pe);
	z = s;
	set(&z, "workload.prompt_length.dist=uniform");
	set(&z, "workload.prompt_length.min=1");
	set(&z, "workload.prompt_length.max=1017");
	plan_compute(&z, &pu);
	res = p0.serving.tpot_mean_s / 2;
	q0 = p0.serving.wait_s - res;
	printf("queue wait at 8 rps: fixed %.4g ms, uniform %.4g ms, exponential %.4g ms\n",
	       q0 * 1e3, (pu.serving.wait_s - res) * 1e3, (pe.serving.wait_s - res) * 1e3);
	assert_true(q0 > 0);
	assert_true(fabs((pe.serving.wait_s - res) / q0 - 2) < 1e-9);
	assert_true(fabs((pu.serving.wait_s - res) / q0 - (1 + cv2)) < 1e-9);
	/* the mean service and the running batch (Little's law on the means) do not move */
	assert_true(pe.serving.batch == p0.serving.batch && pe.tpot_s == p0.tpot_s);
}

/* The levels read the law: the exponential's median prompt (ln 2 of the mean) is
 * shorter, its P99 (ln 100 of it) far longer, and the P99 end-to-end takes ln 100 times
 * the mean output of steps; the levels stay ordered. */
static void test_levels(void **state)
{
	static const char *const scheds[] = {"chunked", "prefill-first"};
	(void)state;
	for (int i = 0; i < 2; i++) {
		struct scenario s, z;
		struct plan p0, p1;
		double O = 534, oq;
		base(&s, scheds[i], "4");
		/* prompts long enough that a prefill is the GPU's work: the 509-token one of
		 * the SGLang row waits for the host's eager launches (src/plan_time.c,
		 * eager_extend), which a shorter median prompt does not shorten */
		set(&s, "workload.prompt_tokens=2048");
		plan_compute(&s, &p0);
		z = s;
		set(&z, "workload.prompt_length.dist=exponential");
		set(&z, "workload.output_length.dist=exponential");
		plan_compute(&z, &p1);
		printf("%s: TTFT p50 %.4g -> %.4g, p99 %.4g -> %.4g s; e2e p99 %.4g -> %.4g s\n",
		       scheds[i], p0.serving.ttft[0], p1.serving.ttft[0], p0.serving.ttft[2],
		       p1.serving.ttft[2], p0.serving.e2e[2], p1.serving.e2e[2]);
		assert_true(p1.serving.ttft[0] < p0.serving.ttft[0]);
		assert_true(p1.serving.ttft[2] > 2 * p0.serving.ttft[2]);
		for (int k = 0; k < 2; k++) {
			assert_true(p1.serving.ttft[k] <= p1.serving.ttft[k + 1]);
			assert_true(p1.serving.e2e[k] <= p1.serving.e2e[k + 1]);
		}
		oq = -O * log(0.01);
		assert_true(fabs(p1.serving.e2e[2] - p1.serving.ttft[2] -
				 (oq - 1) * p1.serving.tpot_mean_s) < 1e-9 * p1.serving.e2e[2]);
		/* lognormal: the median is the mean e^(-sigma^2 / 2) */
		z = s;
		set(&z, "workload.output_length.dist=lognormal");
		set(&z, "workload.output_length.sigma=1");
		plan_compute(&z, &p1);
		oq = O * exp(-0.5);
		assert_true(fabs(p1.serving.e2e[0] - p1.serving.ttft[0] -
				 (oq - 1) * p1.serving.tpot_mean_s) < 1e-3 * p1.serving.e2e[0]);
	}
}

/* A request's TPOT, the mean of its own (output - 1) gaps (vLLM benchmarks/serve.py
 * calculate_metrics), spreads with the output-length law: short requests average over
 * few gaps, so the SLO's percentile rises while the mean gap and the per-token levels
 * (ITL) stay; the gap count is the law's harmonic mean of output - 1
 * (src/plan_serve.c, request_gaps). */
static void test_tpot_spread(void **state)
{
	static const char *const scheds[] = {"chunked", "prefill-first"};
	(void)state;
	for (int i = 0; i < 2; i++) {
		struct scenario s, z;
		struct plan p0, p1, p2;
		double O = 534, want;
		base(&s, scheds[i], "6");
		set(&s, "workload.slo.tpot=1s"); /* a target: the SLO's level is planned */
		plan_compute(&s, &p0);
		/* fixed: output - 1 gaps exactly */
		assert_true(p0.serving.slo_gaps == O - 1);
		/* uniform on [84, 984] (mean 534): E[1 / (O - 1)] = ln(983 / 83) / 900 for a
		 * continuous law; the 32-point rule over whole tokens lands within 2% */
		z = s;
		set(&z, "workload.output_length.dist=uniform");
		set(&z, "workload.output_length.min=84");
		set(&z, "workload.output_length.max=984");
		plan_compute(&z, &p1);
		want = 900 / log(983.0 / 83.0);
		printf("%s: uniform gaps %.4g (continuous %.4g)\n", scheds[i], p1.serving.slo_gaps,
		       want);
		assert_true(fabs(p1.serving.slo_gaps / want - 1) < 0.02);
		assert_true(p1.serving.slo_gaps < O - 1);
		/* exponential: fewer gaps still, a wider TPOT at the percentile */
		z = s;
		set(&z, "workload.output_length.dist=exponential");
		plan_compute(&z, &p2);
		printf("%s: TPOT at P99 fixed %.4g, uniform %.4g, exponential %.4g s (gaps %.4g, "
		       "%.4g, %.4g)\n",
		       scheds[i], p0.serving.tpot_slo_s, p1.serving.tpot_slo_s,
		       p2.serving.tpot_slo_s, p0.serving.slo_gaps, p1.serving.slo_gaps,
		       p2.serving.slo_gaps);
		assert_true(p2.serving.slo_gaps < p1.serving.slo_gaps);
		assert_true(p1.serving.tpot_slo_s >= p0.serving.tpot_slo_s);
		assert_true(p2.serving.tpot_slo_s > p0.serving.tpot_slo_s);
		assert_true(p2.serving.tpot_slo_s >= p1.serving.tpot_slo_s);
		/* the mean gap and the per-token levels do not depend on the lengths' spread */
		assert_true(p2.serving.tpot_mean_s == p0.serving.tpot_mean_s);
		for (int k = 0; k < 3; k++)
			assert_true(p2.serving.tpot[k] == p0.serving.tpot[k]);
	}
}

#define HEAD                                                                                       \
	"gpuplan: 1\nmodel:\n  preset: llama-2-7b\nworkload:\n  kind: online\n"                    \
	"  prompt_tokens: 500\n  output_tokens: 100\n"

/* A law without its parameters, with another law's, or whose uniform bounds do not
 * average to the mean: an input error at the key (exit 2 in the CLI). */
static void test_lengths_bad(void **state)
{
	static const struct {
		const char *yaml;
		int line;
		const char *word;
	} bad[] = {
	    {HEAD "  prompt_length:\n    dist: uniform\n", 8, "min"},
	    {HEAD "  prompt_length:\n    dist: uniform\n    min: 1\n", 8, "max"},
	    {HEAD "  prompt_length:\n    dist: uniform\n    min: 600\n    max: 100\n", 11, "max"},
	    {HEAD "  prompt_length:\n    dist: uniform\n    min: 1\n    max: 2000\n", 6,
	     "prompt_tokens"},
	    {HEAD "  output_length:\n    dist: lognormal\n", 8, "sigma"},
	    {HEAD "  output_length:\n    dist: exponential\n    sigma: 1\n", 10, "sigma"},
	    {HEAD "  output_length:\n    dist: fixed\n    max: 10\n", 10, "max"},
	    {HEAD "  output_length:\n    dist: gamma\n", 9, "gamma"},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		refused_at(bad[i].yaml, bad[i].line, bad[i].word);
	/* and a good one loads */
	{
		struct gp_error err;
		assert_int_equal(load_text(HEAD "  prompt_length:\n    dist: uniform\n    min: 1\n"
						"    max: 999\nhardware:\n  gpu: a100-80gb-sxm\n",
					   &err),
				 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fixed_identity),
	    cmocka_unit_test(test_pk_wait),
	    cmocka_unit_test(test_levels),
	    cmocka_unit_test(test_tpot_spread),
	    cmocka_unit_test(test_lengths_bad),
	};
	return cmocka_run_group_tests(tests, shipped_catalog_setup, shipped_catalog_teardown);
}
