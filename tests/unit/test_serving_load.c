/* test_serving_load.c - serving past its capacity and the inputs the loaded model refuses
 * (src/plan_serve.c, serve): overload said under every scheduler and with a measured
 * throughput, TTFT unbounded in the text and null in the JSON, bad input, one load
 * (a rate or a closed loop) behind every figure, and the capacity plan's pools. */
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
#include "report.h"
#include "report_json.h"
#include "scenario.h"
#include "scenario_yaml.h"
#include "shipped_catalog.h"
#include "scenario_set.h"
#include "serving_text.h"

#define SGLANG "tests/data/serving/sglang-70b-4xh200.yaml"
#define TEAM   "scenarios/team-serve-70b-5m-requests.yaml"

static int warnings_of(const struct plan *p, enum plan_warning_code code)
{
	int n = 0;
	for (int i = 0; i < p->nwarnings; i++)
		n += p->warnings[i].code == code;
	return n;
}

/* The model's capacity at the rate of the SGLang row is about 11 requests/s per replica: a
 * measured throughput below the arrivals' tokens is an overload the model alone does not
 * see. */
static void test_overload_measured(void **state)
{
	struct scenario s;
	struct plan p;
	(void)state;
	load(SGLANG, &s);
	set(&s, "workload.requests_per_s=5");
	plan_compute(&s, &p);
	assert_false(p.serving.overloaded);
	assert_int_equal(warnings_of(&p, PW_OVERLOADED), 0);
	assert_true(isfinite(p.ttft_s) && isfinite(p.serving.ttft[2]));

	/* 500 tokens/s per GPU x 4 GPUs / 534 output tokens = 3.75 requests/s < 5 */
	set(&s, "workload.measured_tokens_per_s=500");
	plan_compute(&s, &p);
	assert_true(p.serving.overloaded);
	assert_int_equal(warnings_of(&p, PW_OVERLOADED), 1);
	assert_true(fabs(p.serving.capacity_rate - 500.0 * 4 / 534) < 1e-9);
	assert_true(p.serving.utilisation > 1);
	assert_true(isnan(p.ttft_s) && isnan(p.serving.ttft[0]) && isnan(p.serving.ttft[2]));
	assert_true(isnan(p.serving.ttft_slo_s) && isnan(p.serving.e2e[1]));
	assert_true(isfinite(p.tpot_s));

	/* a measured rate above the arrivals: no overload, the model's queue */
	set(&s, "workload.measured_tokens_per_s=5000");
	plan_compute(&s, &p);
	assert_false(p.serving.overloaded);
	assert_true(isfinite(p.ttft_s));
	assert_true(p.serving.utilisation < 1);
}

/* A measured throughput runs the queue at the measured capacity (serve_measured): seed 8
 * at 12 GPUs, 150 tokens/s a GPU at batch 1 of 50-token answers, is mu = 3 requests/s a
 * replica against 2.89 arriving (rho 0.965): the M/D/1 wait rho / (2 mu (1 - rho)) is
 * seconds, not the model's 10 ms; the service times are the model's scaled so that the
 * batch completes mu; the wait grows as rho nears 1, and the fleet stays 12. */
static void test_measured_queue(void **state)
{
	struct scenario s;
	struct plan p, q;
	const struct plan_serving *v = &p.serving;
	double rho, mu = 3, lam = 1e6 * 3 / 86400.0 / 12, f;
	(void)state;
	load("scenarios/seed-08-online-customer-service.yaml", &s);
	set(&s, "hardware.count=12");
	plan_compute(&s, &p);
	rho = lam / mu;
	printf("seed 8 at 12: rho %.4g, wait %.4g s (M/D/1 %.4g), TTFT P99 %.4g s, scale %.3g\n",
	       v->utilisation, v->wait_s, rho / (2 * mu * (1 - rho)), v->ttft[2],
	       v->measured_scale);
	assert_true(p.gpus_required == 12);
	assert_false(v->overloaded);
	assert_true(fabs(v->capacity_rate - mu) < 1e-12 && fabs(v->utilisation - rho) < 1e-12);
	assert_true(fabs(v->wait_s - rho / (2 * mu * (1 - rho))) < 1e-9 * v->wait_s);
	assert_true(v->wait_s > 1);
	/* the P99 wait: the exponential tail of that mean past 1 - rho */
	assert_true(fabs(v->lv_wait_s[2] - v->wait_s / rho * log(rho / 0.01)) < 1e-9);
	assert_true(fabs(v->ttft[2] - (v->lv_own_s[2] + v->lv_wait_s[2])) < 1e-12);
	assert_true(v->ttft[0] <= v->ttft[1] && v->ttft[1] <= v->ttft[2]);
	/* the scaled engine at the batch completes the measured rate: batch / e2e = mu */
	f = v->measured_scale;
	assert_true(f > 0 && isfinite(f));
	assert_true(fabs(v->batch / v->e2e_run_s - mu) < 1e-9 * mu);
	/* Little's law with the wait */
	assert_true(fabs(v->concurrency - lam * (v->e2e_run_s + v->wait_s)) < 1e-9);
	/* the throughput stays the measurement */
	assert_true(fabs(p.tokens_per_s_per_gpu - 150) < 1e-9);
	/* more GPUs: a lighter load, a shorter wait */
	set(&s, "hardware.count=24");
	plan_compute(&s, &q);
	assert_true(q.serving.wait_s < v->wait_s && q.gpus_required == 12);
}

/* Alone, the lone request's latencies stand, but a peak past what the count's replicas
 * complete is said (and not at the count the capacity plan gives). */
static void test_overload_alone(void **state)
{
	struct scenario s;
	struct plan p;
	double need;
	(void)state;
	load(TEAM, &s);
	set(&s, "workload.scheduler=alone"); /* team-serve plans chunked */
	plan_compute(&s, &p);
	assert_true(p.serving.overloaded);
	assert_int_equal(warnings_of(&p, PW_OVERLOADED), 1);
	assert_true(isfinite(p.ttft_s));
	need = p.gpus_required;
	s.hardware.count = (int)need;
	s.parallel.dp = 0;
	plan_compute(&s, &p);
	assert_false(p.serving.overloaded);
	assert_int_equal(warnings_of(&p, PW_OVERLOADED), 0);
	/* one replica fewer: over */
	s.hardware.count = (int)need - 4;
	plan_compute(&s, &p);
	assert_true(p.serving.overloaded);
	/* the same with a measured throughput */
	load(TEAM, &s);
	set(&s, "workload.scheduler=alone");
	set(&s, "workload.measured_tokens_per_s=100");
	plan_compute(&s, &p);
	assert_true(p.serving.overloaded);
	s.hardware.count = (int)p.gpus_required;
	s.parallel.dp = 0;
	plan_compute(&s, &p);
	assert_false(p.serving.overloaded);
}

/* The text keeps the TTFT row, saying unbounded and why; the JSON keeps its key, null,
 * with serving.overloaded true. */
static void test_overload_reported(void **state)
{
	struct scenario s;
	struct plan p;
	struct report_buf b = {0};
	struct cJSON *j;
	double flag = -1;
	char *at;
	(void)state;
	load(SGLANG, &s);
	set(&s, "workload.requests_per_s=1000");
	plan_compute(&s, &p);
	assert_int_equal(report_text(&b, &s, &p), 0);
	at = strstr(b.data, "  time to first token    unbounded: 1000 requests/s per replica");
	assert_non_null(at);
	report_buf_release(&b);

	j = report_json_build(&s, &p);
	assert_non_null(j);
	assert_int_equal(report_json_get(j, "latency.ttft_s", NULL, NULL), REPORT_JSON_NULL);
	assert_int_equal(report_json_get(j, "latency.ttft_p99_s", NULL, NULL), REPORT_JSON_NULL);
	assert_int_equal(report_json_get(j, "serving.overloaded", &flag, NULL), REPORT_JSON_BOOL);
	assert_true(flag == 1);
	report_json_free(j);

	/* not overloaded: the flag is false and the row is a number */
	set(&s, "workload.requests_per_s=2");
	plan_compute(&s, &p);
	j = report_json_build(&s, &p);
	assert_int_equal(report_json_get(j, "serving.overloaded", &flag, NULL), REPORT_JSON_BOOL);
	assert_true(flag == 0);
	assert_int_equal(report_json_get(j, "latency.ttft_s", NULL, NULL), REPORT_JSON_NUMBER);
	report_json_free(j);
	assert_int_equal(report_text(&b, &s, &p), 0);
	assert_null(strstr(b.data, "unbounded"));
	report_buf_release(&b);
}

/* A target a lone request misses: no fleet, the reason in the warning and on the text's
 * GPUs required row, alone and under a scheduler; a target it meets sizes a fleet. */
static void test_cannot_meet(void **state)
{
	static const char *const scheds[] = {"alone", "chunked"};
	(void)state;
	for (int k = 0; k < 2; k++) {
		struct scenario s;
		struct plan p;
		struct report_buf b = {0};
		load(TEAM, &s);
		setf(&s, "workload.scheduler=%s", scheds[k]);
		set(&s, "workload.slo.ttft=10ms");
		plan_compute(&s, &p);
		assert_true(isnan(p.gpus_required) && isnan(p.replicas));
		assert_int_equal(warnings_of(&p, PW_SLO_UNREACHABLE_TTFT), 1);
		assert_int_equal(report_text(&b, &s, &p), 0);
		assert_non_null(strstr(b.data, "  GPUs required          none: cannot meet the "
					       "ttft target at any number of"));
		report_buf_release(&b);

		set(&s, "workload.slo.ttft=1s");
		set(&s, "workload.slo.tpot=5ms");
		plan_compute(&s, &p);
		assert_true(isnan(p.gpus_required));
		assert_int_equal(warnings_of(&p, PW_SLO_UNREACHABLE_TPOT), 1);

		set(&s, "workload.slo.tpot=50ms");
		plan_compute(&s, &p);
		assert_true(isfinite(p.gpus_required) && p.gpus_required >= 4);
		assert_int_equal(warnings_of(&p, PW_SLO_UNREACHABLE_TTFT), 0);
		assert_int_equal(warnings_of(&p, PW_SLO_UNREACHABLE_TPOT), 0);
	}
}

/* Prefix caching: hit 0 is no cache (the same plan, bit for bit); a hit shortens the
 * prefill, so TTFT, under every scheduler, and never the decode step alone. */
static void test_prefix_cache(void **state)
{
	static const char *const scheds[] = {"alone", "chunked", "prefill-first", "static"};
	(void)state;
	for (int k = 0; k < 4; k++) {
		struct scenario s, z;
		struct plan p0, pz, ph;
		load(SGLANG, &s);
		setf(&s, "workload.scheduler=%s", scheds[k]);
		set(&s, "workload.requests_per_s=4");
		/* a prompt long enough that its prefill is the GPU's work: SGLang's 509-token
		 * prefill waits for the host's eager launches (plan_time_int.h, eager_extend), which
		 * a shorter computed suffix does not shorten */
		set(&s, "workload.prompt_tokens=2048");
		plan_compute(&s, &p0);
		z = s;
		set(&z, "workload.prefix_cache_hit=0");
		plan_compute(&z, &pz);
		/* field by field: the bytes after the bool are padding, which a copy
		 * need not keep */
		assert_memory_equal(&p0.serving, &pz.serving,
				    offsetof(struct plan_serving, overloaded));
		assert_true(p0.serving.overloaded == pz.serving.overloaded);
		assert_memory_equal(&p0.serving.fleet_rule, &pz.serving.fleet_rule,
				    sizeof(p0.serving) - offsetof(struct plan_serving, fleet_rule));
		assert_true(p0.ttft_s == pz.ttft_s && p0.tpot_s == pz.tpot_s);
		set(&s, "workload.prefix_cache_hit=0.5");
		plan_compute(&s, &ph);
		printf("prefix cache %-13s TTFT %.4g -> %.4g s at hit 0.5\n", scheds[k], p0.ttft_s,
		       ph.ttft_s);
		assert_true(ph.ttft_s < p0.ttft_s);
		if (k == 0) {
			assert_true(ph.tpot_s == p0.tpot_s); /* the decode step alone */
		} else {
			assert_true(ph.serving.ttft[2] < p0.serving.ttft[2]);
			assert_true(ph.serving.ttft[0] <= ph.serving.ttft[1] &&
				    ph.serving.ttft[1] <= ph.serving.ttft[2]);
			assert_true(ph.serving.capacity_rate >= p0.serving.capacity_rate);
		}
	}
}

/* A hit rate outside [0, 1) is an input error with its place (exit 2 in the CLI). */
static void test_prefix_cache_bad(void **state)
{
	static const char *const bad[] = {"workload.prefix_cache_hit=1",
					  "workload.prefix_cache_hit=-0.1",
					  "workload.prefix_cache_hit=1.5"};
	struct gp_error err;
	struct scenario s;
	FILE *f;
	char dir[] = "/tmp/gpuplan-prefix-XXXXXX", path[64];
	(void)state;
	for (int i = 0; i < 3; i++) {
		load(SGLANG, &s);
		assert_int_not_equal(scenario_set_assignment(&s, cat, bad[i], &err), 0);
	}
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/s.yaml", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("gpuplan: 1\nmodel:\n  preset: llama-2-7b\nworkload:\n  kind: online\n"
	      "  prefix_cache_hit: 1\nhardware:\n  gpu: a100-80gb-sxm\n",
	      f);
	fclose(f);
	assert_int_not_equal(scenario_load_file(path, cat, &s, NULL, NULL, &err), 0);
	assert_int_equal(err.line, 6);
	assert_true(err.column > 0);
	assert_non_null(strstr(err.message, "prefix_cache_hit"));
	remove(path);
	rmdir(dir);
}

/* A closed loop (workload.concurrency) beside an open rate (requests_per_s) is two loads:
 * refused at the first key's place, the message naming both and the second's place. */
static void test_closed_loop_and_rate(void **state)
{
	struct gp_error err;
	(void)state;
	memset(&err, 0, sizeof(err));
	assert_int_not_equal(load_text("gpuplan: 1\nmodel:\n  preset: llama-2-7b\nworkload:\n"
				       "  kind: online\n  concurrency: 8\n  requests_per_s: 3\n"
				       "hardware:\n  gpu: a100-80gb-sxm\n",
				       &err),
			     0);
	printf("%d:%d: %s\n", err.line, err.column, err.message);
	assert_int_equal(err.line, 6);
	assert_int_equal(err.column, 3);
	assert_non_null(strstr(err.message, "workload.concurrency 8"));
	assert_non_null(strstr(err.message, "workload.requests_per_s 3 at 7:3"));
	/* either alone, or concurrency with the daily load its fleet covers, is one load */
	assert_int_equal(load_text("gpuplan: 1\nmodel:\n  preset: llama-2-7b\nworkload:\n"
				   "  kind: online\n  concurrency: 8\n  requests_per_day: 1M\n"
				   "hardware:\n  gpu: a100-80gb-sxm\n",
				   &err),
			 0);
}

/* requests_per_s takes precedence over requests_per_day: every figure (the latencies,
 * the queue, the fleet, under alone as under a loaded scheduler) is the one the same peak
 * rate given as a daily load gives, and a warning names both. */
static void test_rate_precedence(void **state)
{
	static const char *const scheds[] = {"workload.scheduler=alone",
					     "workload.scheduler=chunked"};
	(void)state;
	for (int i = 0; i < 2; i++) {
		struct scenario s, t;
		struct plan a, b;
		struct report_buf r = {0};
		load(TEAM, &s);
		set(&s, scheds[i]);
		t = s;
		set(&s, "workload.requests_per_s=40");
		/* 40 requests/s at the peak: 40 x 86,400 / peak_factor a day */
		setf(&t, "workload.requests_per_day=%.17g", 40 * 86400 / t.workload.peak_factor);
		plan_compute(&s, &a);
		plan_compute(&t, &b);
		assert_true(isfinite(a.gpus_required) && a.gpus_required > 0);
		assert_true(a.gpus_required == b.gpus_required && a.replicas == b.replicas);
		/* the same rate to the last bits the daily load's arithmetic keeps */
		assert_true(fabs(a.tpot_s - b.tpot_s) <= 1e-12 * b.tpot_s);
		assert_true(fabs(a.tokens_per_s - b.tokens_per_s) <= 1e-12 * b.tokens_per_s);
		assert_true((isnan(a.ttft_s) && isnan(b.ttft_s)) ||
			    fabs(a.ttft_s - b.ttft_s) <= 1e-12 * b.ttft_s);
		assert_int_equal(warnings_of(&a, PW_RATE_OVERRIDES), 1);
		assert_int_equal(warnings_of(&b, PW_RATE_OVERRIDES), 0);
		/* the text report's workload line says the rate followed */
		assert_int_equal(report_text(&r, &s, &a), 0);
		assert_non_null(strstr(r.data, "40 requests/s"));
		assert_non_null(strstr(r.data, "overrides workload.requests_per_day"));
		assert_null(strstr(r.data, "requests/day"));
		report_buf_release(&r);
	}
}

/* The disaggregated capacity plan's split (src/plan_serve.c, serve_disagg) in the JSON
 * report and the text report: the pools add up to the replicas (the "17 + 5" explain
 * showed alone), each pool's engines are tp x pp GPUs, both are null under another
 * scheduler, and the prefill pool's where a lone prompt misses the TTFT target. */
static void test_pool_split(void **state)
{
	static const char *const sets[] = {"workload.scheduler=chunked", "workload.slo.ttft=1ms"};
	struct scenario s;
	struct plan p;
	struct report_buf b = {0};
	struct cJSON *j;
	double np = -1, nd = -1, gpus = -1;
	(void)state;
	load(TEAM, &s);
	set(&s, "workload.scheduler=disaggregated");
	plan_compute(&s, &p);
	j = report_json_build(&s, &p);
	assert_int_equal(report_json_get(j, "capacity_plan.prefill_engines", &np, NULL),
			 REPORT_JSON_NUMBER);
	assert_int_equal(report_json_get(j, "capacity_plan.decode_engines", &nd, NULL),
			 REPORT_JSON_NUMBER);
	assert_int_equal(report_json_get(j, "capacity_plan.gpus_required", &gpus, NULL),
			 REPORT_JSON_NUMBER);
	report_json_free(j);
	printf("team-serve disaggregated: %g prefill + %g decode engines, %g GPUs\n", np, nd, gpus);
	assert_true(np >= 1 && nd >= 1 && np == floor(np) && nd == floor(nd));
	assert_true(np + nd == p.replicas);
	assert_true(gpus == (np + nd) * p.tp * p.pp);
	/* the prompts of 1500 tokens outweigh the 300 outputs' decode at TP 4 */
	assert_true(np > nd);
	assert_int_equal(report_text(&b, &s, &p), 0);
	assert_non_null(strstr(b.data, "prefill engines"));
	assert_non_null(strstr(b.data, "decode engines"));
	report_buf_release(&b);
	for (int i = 0; i < 2; i++) {
		struct scenario t = s;
		set(&t, sets[i]);
		plan_compute(&t, &p);
		j = report_json_build(&t, &p);
		assert_int_equal(report_json_get(j, "capacity_plan.prefill_engines", NULL, NULL),
				 REPORT_JSON_NULL);
		if (i == 1)
			assert_int_equal(
			    report_json_get(j, "capacity_plan.gpus_required", NULL, NULL),
			    REPORT_JSON_NULL);
		if (i == 0) /* the decode pool too; under the TTFT floor it is still sized */
			assert_int_equal(
			    report_json_get(j, "capacity_plan.decode_engines", NULL, NULL),
			    REPORT_JSON_NULL);
		report_json_free(j);
		assert_int_equal(report_text(&b, &t, &p), 0);
		{
			/* no pool row (the overload warning may name the pool that overruns) */
			char *warn = strstr(b.data, "\nWARNINGS");
			if (warn)
				*warn = '\0';
			assert_null(strstr(b.data, "prefill engines"));
		}
		report_buf_release(&b);
	}
}

/* A measured rate above what the GPUs' peak computes warns once, with the MFU it implies:
 * time_infer's MFU under a loaded engine (pt_serve keeps it when the rate is measured),
 * alone, and under a closed loop and a disaggregated pair, whose loaded figures are
 * skipped the same way. */
static void test_measured_over_peak(void **state)
{
	static const char *const sched[] = {"auto", "alone", "disaggregated"};
	struct scenario s;
	struct plan p;
	(void)state;
	for (int i = 0; i < 3; i++) {
		load(SGLANG, &s);
		setf(&s, "workload.scheduler=%s", sched[i]);
		set(&s, "workload.requests_per_s=5");
		set(&s, "workload.measured_tokens_per_s=1e7");
		plan_compute(&s, &p);
		assert_true(p.mfu > 1);
		assert_int_equal(warnings_of(&p, PW_MEASURED_OVER_PEAK), 1);
		for (int k = 0; k < p.nwarnings; k++)
			if (p.warnings[k].code == PW_MEASURED_OVER_PEAK)
				assert_true(p.warnings[k].a == 1e7 &&
					    p.warnings[k].b == 100 * p.mfu);
		/* a rate the peak computes: none */
		set(&s, "workload.measured_tokens_per_s=100");
		plan_compute(&s, &p);
		assert_true(p.mfu < 1);
		assert_int_equal(warnings_of(&p, PW_MEASURED_OVER_PEAK), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_overload_measured),	 cmocka_unit_test(test_overload_alone),
	    cmocka_unit_test(test_overload_reported),	 cmocka_unit_test(test_cannot_meet),
	    cmocka_unit_test(test_prefix_cache),	 cmocka_unit_test(test_prefix_cache_bad),
	    cmocka_unit_test(test_closed_loop_and_rate), cmocka_unit_test(test_rate_precedence),
	    cmocka_unit_test(test_pool_split),	 cmocka_unit_test(test_measured_queue),
	    cmocka_unit_test(test_measured_over_peak),
	};
	return cmocka_run_group_tests(tests, shipped_catalog_setup, shipped_catalog_teardown);
}
