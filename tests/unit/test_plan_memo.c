/* test_plan_memo.c - the per-thread memos of the hot path (src/plan_memory.c
 * resolve_counted: the last model's shape and counts; src/plan_serve.c request_gaps: the last
 * output-length law's gaps) never answer for another input: a plan computed after other
 * models and laws is the plan computed first, byte for byte, and an edited field gives
 * the fresh count. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "model.h"
#include "plan.h"
#include "scenario.h"
#include "time_rows.h"

static void train_8b(struct scenario *s)
{
	scenario_init(s);
	gpu_h100_sxm(&s->hardware.gpu);
	model_llama3(&s->model, false);
	s->workload.tokens = 1e12;
	s->workload.seq_len = 8192;
	s->workload.global_batch = 512;
	s->hardware.count = 64;
	s->parallel.zero = 1;
}

/* every byte of the plan, from a zeroed struct (fields a path leaves alone stay 0) */
static void plan_of(const struct scenario *s, struct plan *p)
{
	memset(p, 0, sizeof(*p));
	plan_compute(s, p);
}

/* the counts and shape of another model in between, and an edited field: each plan is
 * the one computed from scratch */
static void test_model_memo(void **state)
{
	struct scenario a, b, c;
	struct plan pa, pb, pc, again;
	struct model m;
	struct model_params direct;
	(void)state;
	train_8b(&a);
	b = a;
	b.model.vocab = 32000; /* one field edited */
	c = a;
	memset(&c.model, 0, sizeof(c.model));
	c.model.params = 7e9; /* a size only: the standard shape assumed */

	plan_of(&a, &pa);
	plan_of(&b, &pb);
	plan_of(&c, &pc);
	plan_of(&a, &again);
	assert_memory_equal(&pa, &again, sizeof(pa));

	/* the edited field's count is its own, as model_count_params gives it */
	model_resolve_shape(&b.model, &m, NULL);
	model_count_params(&m, &direct);
	assert_memory_equal(&pb.counts, &direct, sizeof(direct));
	assert_true(pb.counts.embedding < pa.counts.embedding);
	assert_false(pa.shape_assumed);
	assert_false(pb.shape_assumed);
	assert_true(pc.shape_assumed);

	/* and twice in a row, the remembered answer is the computed one */
	plan_of(&b, &again);
	assert_memory_equal(&pb, &again, sizeof(pb));
	plan_of(&c, &again);
	assert_memory_equal(&pc, &again, sizeof(pc));
}

static void serve_8b(struct scenario *s, enum length_dist d, double out, double sigma)
{
	train_8b(s);
	s->workload.kind = WL_ONLINE;
	s->workload.scheduler = SCHED_CHUNKED;
	s->workload.requests_per_s = 20;
	s->workload.slo.tpot_s = 0.05;
	s->workload.slo.ttft_s = 1;
	s->workload.slo.percentile = 99;
	s->workload.output_tokens = (int)out;
	s->workload.output_length.dist = d;
	s->workload.output_length.sigma = sigma;
	s->hardware.count = 8;
}

/* the gaps of one output law in between plans of another give each its own figures */
static void test_gaps_memo(void **state)
{
	struct scenario a, b, c;
	struct plan pa, pb, pc, again;
	(void)state;
	serve_8b(&a, DIST_EXPONENTIAL, 200, 0);
	serve_8b(&b, DIST_EXPONENTIAL, 300, 0);
	serve_8b(&c, DIST_LOGNORMAL, 200, 0.8);

	plan_of(&a, &pa);
	plan_of(&b, &pb);
	plan_of(&c, &pc);
	plan_of(&a, &again);
	assert_memory_equal(&pa, &again, sizeof(pa));
	assert_true(pa.serving.tpot_slo_s != pb.serving.tpot_slo_s ||
		    pa.serving.slo_gaps != pb.serving.slo_gaps);
	assert_true(pa.serving.slo_gaps != pc.serving.slo_gaps);
	plan_of(&c, &again);
	assert_memory_equal(&pc, &again, sizeof(pc));
	plan_of(&b, &again);
	assert_memory_equal(&pb, &again, sizeof(pb));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_model_memo),
	    cmocka_unit_test(test_gaps_memo),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
