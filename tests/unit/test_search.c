/* test_search.c - search: ranked layouts that fit, goal seek, scaling. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "search.h"
#include "time_rows.h"


/* Llama-2-70B (Llama-2-70b-hf config.json). */
static void llama2_70b(struct scenario *s)
{
	scenario_init(s);
	s->model.layers = 80;
	s->model.hidden = 8192;
	s->model.heads = 64;
	s->model.kv_heads = 8;
	s->model.ffn = 28672;
	s->model.vocab = 32000;
	s->model.max_context = 4096;
	gpu_h100_sxm(&s->hardware.gpu);
	s->workload.seq_len = 4096;
	s->workload.global_batch = 1024;
	s->workload.tokens = 2e12;
}

static void test_ranked_and_fitting(void **state)
{
	struct scenario s;
	struct search_result res[10];
	struct search_stats st;
	struct search_options opt = {.by = SEARCH_BY_TIME, .top = 10};
	(void)state;
	llama2_70b(&s);
	s.hardware.count = 64;
	int n = search_run(&s, &opt, res, &st);
	assert_true(n == 10);
	assert_true(st.evaluated >= st.fitting && st.fitting > 0);
	for (int i = 0; i < n; i++) {
		assert_true(res[i].plan.mem.fits);
		assert_true(res[i].count == 64);
		assert_true((long)res[i].parallel.tp * res[i].parallel.pp * res[i].parallel.dp == 64);
		assert_true(64 % res[i].parallel.tp == 0 && res[i].parallel.tp <= 8);
		if (i)
			assert_true(res[i - 1].score <= res[i].score);
		/* applying a result and planning again gives the same figures */
		struct scenario t = s;
		struct plan p;
		search_apply(&t, NULL, &res[i]);
		plan_compute(&t, &p);
		assert_true(fabs(p.tokens_per_s - res[i].plan.tokens_per_s) <=
			    1e-9 * res[i].plan.tokens_per_s);
	}
	/* by cost, on the same GPU count, the ranking agrees with time */
	opt.by = SEARCH_BY_COST;
	struct search_result c[1];
	assert_int_equal(search_run(&s, &(struct search_options){.by = SEARCH_BY_COST, .top = 1},
				    c, NULL), 1);
	assert_true(fabs(c[0].plan.tokens_per_s - res[0].plan.tokens_per_s) <=
		    1e-9 * res[0].plan.tokens_per_s);
}

/* Seed case 12: 70B full training does not fit 8 x H100 as given, but search names
 * layouts that do (ZeRO-3 with optimizer offload). */
static void test_seed12_search_finds_fitting(void **state)
{
	struct scenario s;
	struct plan p;
	struct search_result res[5];
	struct search_options opt = {.by = SEARCH_BY_TIME, .top = 5};
	(void)state;
	llama2_70b(&s);
	s.hardware.count = 8;
	s.parallel.zero = 3;
	plan_compute(&s, &p);
	assert_false(p.mem.fits);
	int n = search_run(&s, &opt, res, NULL);
	assert_true(n > 0);
	for (int i = 0; i < n; i++) {
		assert_true(res[i].plan.mem.fits);
		assert_true(res[i].parallel.offload != OFFLOAD_NONE);
	}
}

/* search proposes only layouts the framework runs, as scenario_validate accepts them:
 * DeepSpeed's pipeline without ZeRO-2/3, torchtune without a pipeline, llm.c with data
 * parallelism only and no offload. */
static void test_search_keeps_to_the_framework(void **state)
{
	static const enum framework fws[] = {FW_DEEPSPEED, FW_TORCHTUNE, FW_LLMC, FW_MEGATRON};
	static struct search_result res[400];
	struct search_options opt = {.by = SEARCH_BY_TIME, .top = 400};
	bool pipelined = false;
	(void)state;
	for (int f = 0; f < 4; f++) {
		struct scenario s;
		llama2_70b(&s);
		s.hardware.count = 16;
		s.workload.framework = fws[f];
		int n = search_run(&s, &opt, res, NULL);
		for (int i = 0; i < n; i++) {
			const struct parallel *l = &res[i].parallel;
			assert_true(framework_runs_layout(fws[f], l->tp, l->pp, l->zero,
							  l->offload != OFFLOAD_NONE));
			if (fws[f] == FW_DEEPSPEED)
				assert_false(l->pp > 1 && l->zero >= 2);
			if (fws[f] == FW_TORCHTUNE)
				assert_true(l->pp == 1);
			if (fws[f] == FW_LLMC)
				assert_true(l->tp == 1 && l->offload == OFFLOAD_NONE);
			pipelined |= fws[f] == FW_MEGATRON && l->pp > 1;
		}
	}
	assert_true(pipelined); /* the rule filters, it does not drop pipelines everywhere */
}

/* The size: 405B on 1,024 GPUs is at least 10,000 layouts. */
static void test_large_space(void **state)
{
	struct scenario s;
	struct search_result res[3];
	struct search_stats st;
	struct search_options opt = {.by = SEARCH_BY_TIME, .top = 3};
	(void)state;
	scenario_init(&s);
	s.model.layers = 126; /* Llama-3.1-405B config.json */
	s.model.hidden = 16384;
	s.model.heads = 128;
	s.model.kv_heads = 8;
	s.model.ffn = 53248;
	s.model.vocab = 128256;
	s.model.max_context = 131072;
	gpu_h100_sxm(&s.hardware.gpu);
	s.hardware.count = 1024;
	s.workload.seq_len = 8192;
	s.workload.global_batch = 2048;
	s.workload.tokens = 15e12;
	int n = search_run(&s, &opt, res, &st);
	assert_true(st.layouts >= 10000);
	assert_true(st.evaluated <= st.layouts && st.evaluated > 0);
	assert_true(n == 3);
	/* 405B's 6.5 TB of model states need sharding: ZeRO-3, or tp x pp of at least 8 */
	assert_true(res[0].parallel.zero == 3 || res[0].parallel.tp * res[0].parallel.pp >= 8);
}

static void test_solve(void **state)
{
	struct scenario s, t;
	struct plan p;
	struct gp_error err;
	double v;
	(void)state;
	llama2_70b(&s);
	s.hardware.count = 64;
	s.parallel.tp = 8;
	s.parallel.zero = 1;
	s.workload.recompute = RECOMPUTE_SELECTIVE;
	s.workload.tokens = 0;
	assert_int_equal(search_solve(&s, "workload.seq_len", true, &v, &err), 0);
	t = s;
	t.workload.seq_len = (int)v;
	plan_compute(&t, &p);
	assert_true(p.mem.fits);
	t.workload.seq_len = (int)v + 1;
	plan_compute(&t, &p);
	assert_false(p.mem.fits);

	/* the fewest GPUs that fit 70B training with tp 8 under ZeRO-3: a multiple of 8 */
	s.parallel.zero = 3;
	assert_int_equal(search_solve(&s, "hardware.count", false, &v, &err), 0);
	assert_true(fmod(v, 8) == 0);
	t = s;
	t.hardware.count = (int)v;
	t.parallel.dp = 0;
	plan_compute(&t, &p);
	assert_true(p.mem.fits);
	if (v > 8) {
		t.hardware.count = (int)v - 8;
		plan_compute(&t, &p);
		assert_false(p.mem.fits);
	}
	assert_int_equal(search_solve(&s, "workload.kind", true, &v, &err), -1);
	assert_int_equal(search_solve(&s, "workload.seqlen", true, &v, &err), -1);
	assert_non_null(strstr(err.message, "did you mean 'workload.seq_len'"));
}

static void test_scaling(void **state)
{
	struct scenario s;
	struct search_result out[4];
	struct search_options opt = {.by = SEARCH_BY_TIME, .top = 1};
	int counts[] = {8, 64, 256, 1024};
	(void)state;
	llama2_70b(&s);
	search_scaling(&s, &opt, counts, 4, out);
	/* more GPUs never train slower at the best layout */
	for (int i = 1; i < 4; i++) {
		if (!out[i - 1].count)
			continue;
		assert_true(out[i].count == counts[i]);
		assert_true(out[i].plan.tokens_per_s >= out[i - 1].plan.tokens_per_s);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ranked_and_fitting),
		cmocka_unit_test(test_seed12_search_finds_fitting),
		cmocka_unit_test(test_search_keeps_to_the_framework),
		cmocka_unit_test(test_large_space),
		cmocka_unit_test(test_solve),
		cmocka_unit_test(test_scaling),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
