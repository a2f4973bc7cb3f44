/* test_serving_shipped.c - every shipped scenario that serves a load (issue 13): at
 * capacity_plan.gpus_required its replicas keep up with the peak and hold the SLO at its
 * percentile under the modelled step, and one replica fewer does not. Under scheduler
 * alone the modelled step is the decode step by itself (no queue, no prompts joining);
 * team-serve plans under vLLM V1's chunked scheduler (76 GPUs: 64 under alone). Every
 * shipped scenario with an SLO reports, at its own count, the SLO's percentile within
 * the target or says "cannot meet" with the reason; capacity_plan.fewest's fleet, where
 * one is named, holds the SLO too. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capacity.h"
#include "plan.h"
#include "scenario.h"
#include "scenario_yaml.h"
#include "shipped_catalog.h"
#include "shipped_scenarios.h"

static int checked;

static void check_file(const char *path)
{
	struct gp_error err;
	struct scenario s, t;
	struct plan p, q;
	const struct workload *w = &s.workload;
	double span;
	if (scenario_load_file(path, cat, &s, NULL, NULL, &err) != 0)
		fail_msg("%s: %s", path, err.message);
	if (w->kind != WL_ONLINE || !(w->requests_per_day > 0 || w->requests_per_s > 0))
		return;
	plan_compute(&s, &p);
	span = (double)p.tp * p.pp * (p.ep > 1 ? p.ep : 1);
	printf("%s: gpus_required %g (replicas of %g GPUs)\n", path, p.gpus_required, span);
	/* a shipped serving scenario answers: a count, not "cannot meet" */
	assert_true(isfinite(p.gpus_required) && p.gpus_required >= span);
	t = s;
	t.hardware.count = (int)p.gpus_required;
	plan_compute(&t, &q);
	if (!plan_serving_meets(&t, &q))
		fail_msg("%s: at gpus_required %g the SLO does not hold (TTFT %g, TPOT %g at "
			 "P%g)",
			 path, p.gpus_required, q.serving.ttft_slo_s, q.serving.tpot_slo_s,
			 q.serving.slo_percentile);
	assert_false(q.serving.overloaded);
	if (!isnan(q.serving.scheduler) && (w->slo.ttft_s > 0 || w->slo.tpot_s > 0)) {
		assert_true(!(w->slo.ttft_s > 0) || q.serving.ttft_slo_s <= w->slo.ttft_s);
		assert_true(!(w->slo.tpot_s > 0) || q.serving.tpot_slo_s <= w->slo.tpot_s);
	}
	if (p.gpus_required > span) {
		t.hardware.count = (int)(p.gpus_required - span);
		plan_compute(&t, &q);
		if (plan_serving_meets(&t, &q))
			fail_msg("%s: one replica fewer (%d GPUs) still meets", path,
				 t.hardware.count);
	}
	checked++;
}

static int with_slo;

/* The SLO at the file's own count: met at its percentile, or a warning that says the
 * plan cannot meet it and why (the load outruns the replicas, or a lone request's
 * latency is above the target). */
static void check_slo(const char *path)
{
	struct gp_error err;
	struct scenario s;
	struct plan p;
	struct capacity_fewest f;
	const struct workload *w = &s.workload;
	bool ttft_ok, tpot_ok, said = false;

	if (scenario_load_file(path, cat, &s, NULL, NULL, &err) != 0)
		fail_msg("%s: %s", path, err.message);
	if (!(w->slo.ttft_s > 0 || w->slo.tpot_s > 0))
		return;
	with_slo++;
	plan_compute(&s, &p);
	ttft_ok = !(w->slo.ttft_s > 0) || p.serving.ttft_slo_s <= w->slo.ttft_s;
	tpot_ok = !(w->slo.tpot_s > 0) || p.serving.tpot_slo_s <= w->slo.tpot_s;
	for (int i = 0; i < p.nwarnings && i < PLAN_MAX_WARNINGS; i++) {
		char msg[320];
		plan_warning_format(&p.warnings[i], msg, sizeof(msg));
		/* "cannot meet the load: R requests/s per replica arrive, it completes at
		 * most C ...", "cannot meet the tpot target at any number of replicas: ..." */
		if (strstr(msg, "cannot meet") && strchr(msg, ':') && strlen(msg) > 40)
			said = true;
	}
	printf("%s at its %d GPUs: TTFT %g (target %g), TPOT %g (target %g) at P%g: %s\n", path,
	       s.hardware.count, p.serving.ttft_slo_s, w->slo.ttft_s, p.serving.tpot_slo_s,
	       w->slo.tpot_s, p.serving.slo_percentile,
	       ttft_ok && tpot_ok ? "meets" : said ? "says cannot meet" : "MISSES SILENTLY");
	assert_true((ttft_ok && tpot_ok) || said);
	if (capacity_fewest(&s, &p, &f)) {
		printf("  fewest: tp %d x pp %d, %g GPUs: TTFT %g, TPOT %g\n", f.tp, f.pp,
		       f.gpus_required, f.ttft_slo_s, f.tpot_slo_s);
		assert_true(f.meets);
		assert_true(!(w->slo.ttft_s > 0) || f.ttft_slo_s <= w->slo.ttft_s);
		assert_true(!(w->slo.tpot_s > 0) || f.tpot_slo_s <= w->slo.tpot_s);
	}
}

static void test_shipped_slo(void **state)
{
	(void)state;
	with_slo = 0;
	each_shipped_scenario(check_slo);
	/* team-serve and workshop 4 state one (lesson 4 at its 8 requests in flight, with no
	 * load to size for); seed 8 says in its notes why not */
	assert_true(with_slo >= 2);
}

static void test_shipped_serving(void **state)
{
	(void)state;
	checked = 0;
	each_shipped_scenario(check_file);
	/* team-serve (an SLO under vLLM's scheduler) and seed 8 (a measured throughput) */
	assert_true(checked >= 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_shipped_serving),
	    cmocka_unit_test(test_shipped_slo),
	};
	return cmocka_run_group_tests(tests, shipped_catalog_setup, shipped_catalog_teardown);
}
