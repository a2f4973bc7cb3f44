/* test_capacity.c - capacity_plan.fewest (src/capacity.c, issue 13): under a load the
 * layout of one node that meets it with the fewest GPUs, checked against every layout
 * scenario_validate accepts, planned here on its own; null at the fewest layout, without
 * a load and for training; its fleet meets the SLO at its count; gpuplan search, over the
 * same layouts, ranks the same count first. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "capacity.h"
#include "error.h"
#include "plan.h"
#include "scenario.h"
#include "scenario_yaml.h"
#include "search.h"
#include "shipped_catalog.h"

#define TEAM "scenarios/team-serve-70b-5m-requests.yaml"

static void load(const char *path, struct scenario *s)
{
	struct gp_error err;
	if (scenario_load_file(path, cat, s, NULL, NULL, &err) != 0)
		fail_msg("%s: %s", path, err.message);
}

/* The fewest GPUs over every tp x pp of one node that scenario_validate accepts at one
 * replica, found here by planning each: not the function's own filter. */
static double brute_fewest(const struct scenario *s, int *tp_out)
{
	int node = s->hardware.gpu.gpus_per_node > 0 ? s->hardware.gpu.gpus_per_node : 8;
	double best = INFINITY;

	for (int tp = 1; tp <= node; tp *= 2)
		for (int pp = 1; tp * pp <= node; pp *= 2) {
			struct scenario t = *s;
			struct gp_problems probs;
			struct plan q;
			t.parallel.tp = tp;
			t.parallel.pp = pp;
			t.parallel.dp = 0;
			t.hardware.count = tp * pp;
			gp_problems_init(&probs);
			scenario_validate(&t, NULL, &probs);
			if (probs.count)
				continue;
			plan_compute(&t, &q);
			if (q.mem.fits && isfinite(q.gpus_required) && q.gpus_required < best) {
				best = q.gpus_required;
				*tp_out = tp;
			}
		}
	return best;
}

static void test_team_serve_fewest(void **state)
{
	struct scenario s, t;
	struct plan p, q;
	struct capacity_fewest f;
	int tp = 0;
	(void)state;

	load(TEAM, &s);
	plan_compute(&s, &p);
	assert_true(capacity_fewest(&s, &p, &f));
	printf("team-serve: file tp %d: %g GPUs; fewest tp %d pp %d: %g GPUs (%g replicas), "
	       "batch %.1f, TTFT %.3f s TPOT %.4f s at P%g, %d layouts\n",
	       p.tp, p.gpus_required, f.tp, f.pp, f.gpus_required, f.replicas, f.batch,
	       f.ttft_slo_s, f.tpot_slo_s, p.serving.slo_percentile, f.tried);
	assert_true(f.gpus_required < p.gpus_required);
	assert_true(f.file_gpus == p.gpus_required);
	assert_true(f.gpus_required == f.replicas * f.tp * f.pp * f.ep);
	/* the minimum over the layouts the validation accepts, planned independently */
	assert_true(f.gpus_required == brute_fewest(&s, &tp));
	assert_int_equal(f.tp, tp);
	/* its fleet holds the SLO at the percentile under the loaded step */
	assert_true(f.meets);
	assert_true(f.ttft_slo_s <= s.workload.slo.ttft_s);
	assert_true(f.tpot_slo_s <= s.workload.slo.tpot_s);
	assert_true(f.batch >= 1);
	assert_true(!isnan(f.scheduler));

	/* at the fewest layout nothing fewer is named, and gpus_required is its count */
	t = s;
	t.parallel.tp = f.tp;
	t.parallel.pp = f.pp;
	t.hardware.count = f.tp * f.pp;
	plan_compute(&t, &q);
	assert_true(q.gpus_required == f.gpus_required);
	assert_false(capacity_fewest(&t, &q, &f));
}

/* no load: nothing to size (workshop 4), nor for training */
static void test_no_load(void **state)
{
	struct scenario s;
	struct plan p;
	struct capacity_fewest f;
	(void)state;

	load("scenarios/workshop/04-kv-cache-and-batch.yaml", &s);
	plan_compute(&s, &p);
	assert_false(capacity_fewest(&s, &p, &f));
	assert_int_equal(f.tried, 0);
	load(TEAM, &s);
	s.workload.kind = WL_TRAIN;
	plan_compute(&s, &p);
	assert_false(capacity_fewest(&s, &p, &f));
}

/* a file's layout that cannot meet the load but another can: named, the file's count
 * NaN. At tp 1 a lone request of the 70B model decodes a token in more than 20 ms (all
 * its fp8 weights from one GPU's HBM a step), so a 20 ms TPOT target has no count; tp 4
 * reads a quarter a GPU. */
static void test_file_cannot_meet(void **state)
{
	struct scenario s;
	struct plan p;
	struct capacity_fewest f;
	(void)state;

	load(TEAM, &s);
	s.parallel.tp = 1;
	s.hardware.count = 1;
	s.workload.slo.tpot_s = 0.020;
	plan_compute(&s, &p);
	printf("team-serve at tp 1, TPOT 20 ms: gpus_required %g\n", p.gpus_required);
	assert_true(isnan(p.gpus_required));
	assert_true(capacity_fewest(&s, &p, &f));
	printf("  fewest: tp %d: %g GPUs, TPOT %.4f s at P%g\n", f.tp, f.gpus_required,
	       f.tpot_slo_s, p.serving.slo_percentile);
	assert_true(isnan(f.file_gpus));
	assert_true(f.tp >= 2);
	assert_true(f.meets);
	assert_true(f.tpot_slo_s <= 0.020);
}

/* A load no count up to PLAN_MAX_GPUS carries, under the lone-decode scheduler: the plan
 * names no fleet (the loaded schedulers' walk stops there too) and warns, and the fewest
 * layout names none past the ceiling either (its count must fit an int hardware.count). */
static void test_past_the_ceiling(void **state)
{
	struct scenario s;
	struct plan p;
	struct capacity_fewest f;
	bool warned = false;
	(void)state;

	load("scenarios/seed-08-online-customer-service.yaml", &s);
	s.workload.requests_per_s = 1e9;
	s.workload.output_tokens = 4000;
	s.workload.measured_tokens_per_s = 0;
	s.workload.scheduler = SCHED_ALONE;
	s.parallel.tp = 2;
	s.hardware.count = 2;
	plan_compute(&s, &p);
	for (int i = 0; i < p.nwarnings; i++)
		warned |= p.warnings[i].code == PW_FLEET_OVER_MAX;
	printf("1e9 requests/s alone: gpus_required %g, over-max warning %d\n", p.gpus_required,
	       warned);
	assert_true(isnan(p.gpus_required));
	assert_true(isnan(p.replicas));
	assert_true(warned);
	/* nor does any other layout of the node: none is named past the ceiling */
	assert_false(capacity_fewest(&s, &p, &f));
	/* an offline deadline no count below the ceiling meets, at the loaded engine's fixed
	 * rate and at the lone step's: none, with the warning */
	for (int alone = 0; alone <= 1; alone++) {
		load("scenarios/team-offline-scoring.yaml", &s);
		s.workload.deadline_s = 1e-3;
		if (alone)
			s.workload.scheduler = SCHED_ALONE;
		plan_compute(&s, &p);
		warned = false;
		for (int i = 0; i < p.nwarnings; i++)
			warned |= p.warnings[i].code == PW_FLEET_OVER_MAX;
		assert_true(isnan(p.gpus_required));
		assert_true(isnan(p.replicas));
		assert_true(warned);
	}
}

/* search and capacity_fewest plan with the same model: among search's layouts at the
 * file's weights and KV format (search also tries others), the fewest GPUs required is
 * capacity_fewest's, at its tp and pp (team-serve's 4 GPUs hold the tp 2 x pp 1 layout) */
static void test_search_agrees(void **state)
{
	static struct search_result res[64];
	struct search_options opt = {.by = SEARCH_BY_TIME, .top = 64};
	struct scenario s;
	struct plan p;
	struct capacity_fewest f;
	double best = INFINITY;
	int n, at = -1;
	(void)state;

	load(TEAM, &s);
	plan_compute(&s, &p);
	assert_true(capacity_fewest(&s, &p, &f));
	assert_true(f.tp * f.pp <= s.hardware.count);
	n = search_run(&s, &opt, res, NULL);
	assert_true(n > 0);
	for (int i = 0; i < n; i++) {
		const struct search_result *r = &res[i];
		if (r->weights != s.workload.weights || r->kv_cache != s.workload.kv_cache ||
		    r->batch != 0 || r->parallel.ep > 1 || !r->plan.mem.fits)
			continue;
		if (r->plan.gpus_required < best) {
			best = r->plan.gpus_required;
			at = i;
		}
	}
	assert_true(at >= 0);
	printf("search: tp %d x pp %d needs %g GPUs; capacity_fewest: tp %d x pp %d, %g\n",
	       res[at].parallel.tp, res[at].parallel.pp, best, f.tp, f.pp, f.gpus_required);
	assert_true(best == f.gpus_required);
	assert_int_equal(res[at].parallel.tp, f.tp);
	assert_int_equal(res[at].parallel.pp, f.pp);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_team_serve_fewest), cmocka_unit_test(test_no_load),
	    cmocka_unit_test(test_file_cannot_meet),  cmocka_unit_test(test_past_the_ceiling),
	    cmocka_unit_test(test_search_agrees),
	};
	return cmocka_run_group_tests(tests, shipped_catalog_setup, shipped_catalog_teardown);
}
