/* test_context_parallel.c - context parallelism (parallel.cp): the sequence split over cp GPUs, its
 * memory, its K/V exchange, the GPU count, the layout string and the search. The Llama 3 405B 128k
 * run at cp 16 is a row of test_physics_review.c (test_llama3_405b_mfu). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "shipped_catalog.h"
#include "error.h"
#include "plan.h"
#include "report.h"
#include "scenario.h"
#include "search.h"

/* Llama 3.1 70B training at 32k on H100s: tp 8, pp 1, dp 2; cp set by each test. */
static const char *const base70[] = {"model.preset=llama-3.1-70b",
				     "workload.kind=train",
				     "workload.seq_len=32768",
				     "workload.micro_batch=1",
				     "workload.global_batch=16",
				     "workload.recompute=selective",
				     "hardware.gpu=h100-sxm-80gb",
				     "parallel.tp=8",
				     "parallel.dp=2",
				     "parallel.zero=1",
				     NULL};

/* Plans base with the extra assignments (NULL-terminated), at count GPUs. */
static void plan_with(struct scenario *s, struct plan *p, const char *const *base,
		      const char *const *extra, int count)
{
	struct gp_error err;
	const char *const *lists[2] = {base, extra};

	scenario_init(s);
	for (int l = 0; l < 2; l++)
		for (const char *const *kv = lists[l]; kv && *kv; kv++)
			if (scenario_set_assignment(s, cat, *kv, &err) != 0) {
				fprintf(stderr, "%s: %s\n", *kv, err.message);
				fail();
			}
	s->hardware.count = count;
	plan_compute(s, p);
}

static bool rel_near(double got, double want, double tol)
{
	return fabs(got - want) <= tol * fabs(want);
}

/* Activations fall as 1/cp (each GPU stores seq_len / cp tokens of every sequence), the
 * data-parallel degree stays, the GPU count grows cp-fold, and ZeRO-1's optimizer shard
 * falls as 1/cp (the cp ranks join the data-parallel group: Megatron's
 * get_data_parallel_group(with_context_parallel=True)). */
static void test_memory_falls_with_cp(void **state)
{
	struct scenario s;
	struct plan p1, p;
	static const char *const cp1[] = {"parallel.cp=1", NULL};
	(void)state;

	plan_with(&s, &p1, base70, cp1, 16);
	assert_int_equal(p1.dp, 2);
	assert_int_equal(p1.cp, 1);
	for (int cp = 2; cp <= 8; cp *= 2) {
		char kv[32];
		const char *const extra[] = {kv, NULL};
		snprintf(kv, sizeof(kv), "parallel.cp=%d", cp);
		plan_with(&s, &p, base70, extra, 16 * cp);
		assert_int_equal(p.dp, 2);
		assert_int_equal(p.cp, cp);
		/* FlashAttention (the default): the stored tensors are linear in s */
		assert_true(rel_near(p.mem.activations, p1.mem.activations / cp, 1e-12));
		assert_true(rel_near(p.mem.optimizer, p1.mem.optimizer / cp, 1e-12));
		/* ZeRO-1 leaves weights and gradients whole */
		assert_true(rel_near(p.mem.weights, p1.mem.weights, 1e-12));
		assert_true(rel_near(p.mem.gradients, p1.mem.gradients, 1e-12));
		/* the ring's K/V chunks: max(cp, 4) chunks of 2 x (s / cp) x (8 K/V heads / tp 8)
		 * x 128 x 2 B, beside one more NCCL communicator (the cp group) */
		double chunk = 2.0 * 32768 / cp * 1 * 128 * 2;
		double nccl = 4194304.0 * 16 * 2;
		assert_true(rel_near(p.mem.comm_buffers - p1.mem.comm_buffers,
				     (cp > 4 ? cp : 4) * chunk + nccl, 1e-12));
	}
}

/* A scenario that does not train ignores cp: serving plans as with cp 1. */
static void test_inference_ignores_cp(void **state)
{
	static const char *const serve[] = {"model.preset=llama-3.1-8b", "workload.kind=online",
					    "hardware.gpu=h100-sxm-80gb", "parallel.tp=2", NULL};
	static const char *const cp4[] = {"parallel.cp=4", NULL};
	struct scenario s;
	struct plan a, b;
	(void)state;

	plan_with(&s, &a, serve, NULL, 2);
	plan_with(&s, &b, serve, cp4, 2);
	assert_int_equal(b.cp, 1);
	assert_int_equal(b.dp, a.dp);
	assert_true(b.mem.total == a.mem.total);
	assert_true(b.tpot_s == a.tpot_s);
}

/* Time: each GPU runs 1/cp of the GEMMs and of the attention (causal load balance), so at
 * the same dp the per-GPU compute halves with cp 2; the exchange is 0 at cp 1; the ring's
 * exposed part is never more than the all-gather's (the same bytes, partly hidden); the
 * all-gather runs once a forward pass and twice in the backward, so selective recompute
 * (attention's forward twice) takes 4/3 of its time without recompute. */
static void test_time_properties(void **state)
{
	static const char *const cp1[] = {"parallel.cp=1", NULL};
	static const char *const cp2[] = {"parallel.cp=2", NULL};
	static const char *const ring[] = {"parallel.cp=8", "parallel.cp_comm=p2p", NULL};
	static const char *const ag[] = {"parallel.cp=8", "parallel.cp_comm=all_gather", NULL};
	static const char *const ag_none[] = {"parallel.cp=8", "parallel.cp_comm=all_gather",
					      "workload.recompute=none", NULL};
	struct scenario s;
	struct plan a, b, r, g, gn;
	(void)state;

	plan_with(&s, &a, base70, cp1, 16);
	plan_with(&s, &b, base70, cp2, 32);
	assert_true(a.parts.cp_comm_s == 0);
	assert_true(rel_near(b.parts.matmul_s, a.parts.matmul_s / 2, 0.05));
	assert_true(rel_near(b.parts.attention_s, a.parts.attention_s / 2, 0.05));
	/* the model FLOPs per token do not change: MFU counts the whole sequence */
	assert_true(b.flops_per_token == a.flops_per_token);
	assert_true(b.step_s < a.step_s);

	plan_with(&s, &r, base70, ring, 128);
	plan_with(&s, &g, base70, ag, 128);
	plan_with(&s, &gn, base70, ag_none, 128);
	fprintf(stderr, "70B 32k cp 8: ring %.4g s, all-gather %.4g s exposed of %.4g s\n",
		r.parts.cp_comm_s, g.parts.cp_comm_s, g.step_s);
	assert_true(g.parts.cp_comm_s > 0);
	assert_true(r.parts.cp_comm_s <= g.parts.cp_comm_s);
	assert_true(rel_near(g.parts.cp_comm_s, gn.parts.cp_comm_s * 4 / 3, 1e-9));
	/* the exposed exchange is communication in the bottleneck shares */
	assert_true(g.shares[BN_INTERCONNECT] > r.shares[BN_INTERCONNECT]);
}

/* The GPU count: tp x pp x ep x cp must divide it, and the sequence must split into 2 cp
 * chunks; both name parallel.cp's factor. */
static void test_validation(void **state)
{
	static const char *const bad_count[] = {"parallel.cp=4", NULL};
	static const char *const bad_seq[] = {"parallel.cp=4", "workload.seq_len=32764", NULL};
	struct scenario s;
	struct plan p;
	struct gp_problems pr;
	bool seen = false;
	(void)state;

	plan_with(&s, &p, base70, bad_count, 48); /* 8 x 4 = 32 does not divide 48 */
	gp_problems_init(&pr);
	scenario_validate(&s, NULL, &pr);
	for (int i = 0; i < pr.count; i++)
		seen |= strstr(pr.items[i].message, "tp x pp x ep x cp = 32 does not divide") != 0;
	assert_true(seen);

	plan_with(&s, &p, base70, bad_seq, 64);
	gp_problems_init(&pr);
	scenario_validate(&s, NULL, &pr);
	seen = false;
	for (int i = 0; i < pr.count; i++)
		seen |= strcmp(pr.items[i].field, "parallel.cp") == 0 &&
			strstr(pr.items[i].message, "2 x cp = 8 equal chunks") != 0;
	assert_true(seen);
}

/* The layout string names cp where it is more than 1, in training only. */
static void test_layout_string(void **state)
{
	struct parallel par = {.tp = 8, .pp = 2, .dp = 4, .ep = 1, .cp = 2, .virtual_stages = 1};
	char buf[160];
	(void)state;

	units_format_layout(&par, UNITS_LAYOUT_REPORT, true, buf, sizeof(buf));
	assert_non_null(strstr(buf, "tp 8, pp 2, dp 4, ep 1, cp 2"));
	units_format_layout(&par, UNITS_LAYOUT_SEARCH, true, buf, sizeof(buf));
	assert_string_equal(buf, "tp 8, pp 2, dp 4, cp 2");
	units_format_layout(&par, UNITS_LAYOUT_BRIEF, true, buf, sizeof(buf));
	assert_string_equal(buf, "tp 8, pp 2, dp 4, cp 2");
	units_format_layout(&par, UNITS_LAYOUT_PANE, true, buf, sizeof(buf));
	assert_string_equal(buf, "tp 8  pp 2  dp 4  ep 1  cp 2");
	units_format_layout(&par, UNITS_LAYOUT_SEARCH, false, buf, sizeof(buf));
	assert_string_equal(buf, "tp 8, pp 2, dp 4");
	par.cp = 1;
	units_format_layout(&par, UNITS_LAYOUT_BRIEF, true, buf, sizeof(buf));
	assert_string_equal(buf, "tp 8, pp 2, dp 4");
}

/* The search tries cp for long sequences, and only for them: 70B at 128k on 64 H100s
 * ranks context-parallel layouts among the best (none fits without: 128k tokens of
 * activations a GPU), and at 2k it tries none. */
static void test_search_tries_cp(void **state)
{
	static const char *const long_seq[] = {"workload.seq_len=131072", "parallel.dp=auto", NULL};
	static const char *const short_seq[] = {"workload.seq_len=2048", "parallel.dp=auto", NULL};
	static struct search_result res[5];
	struct search_options o = {.by = SEARCH_BY_TIME, .top = 5};
	struct search_stats st;
	struct scenario s;
	struct plan p;
	int n, with_cp = 0;
	(void)state;

	plan_with(&s, &p, base70, long_seq, 64);
	n = search_run(&s, &o, res, &st);
	assert_true(n > 0);
	for (int i = 0; i < n; i++) {
		with_cp += res[i].parallel.cp > 1;
		assert_int_equal((long)res[i].parallel.tp * res[i].parallel.pp *
				     res[i].parallel.cp * res[i].plan.dp,
				 64);
		assert_int_equal(res[i].plan.cp, res[i].parallel.cp);
	}
	assert_true(with_cp > 0);

	plan_with(&s, &p, base70, short_seq, 64);
	n = search_run(&s, &o, res, &st);
	assert_true(n > 0);
	for (int i = 0; i < n; i++)
		assert_int_equal(res[i].parallel.cp, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_memory_falls_with_cp),
	    cmocka_unit_test(test_inference_ignores_cp),
	    cmocka_unit_test(test_time_properties),
	    cmocka_unit_test(test_validation),
	    cmocka_unit_test(test_layout_string),
	    cmocka_unit_test(test_search_tries_cp),
	};
	return cmocka_run_group_tests(tests, shipped_catalog_setup, shipped_catalog_teardown);
}
