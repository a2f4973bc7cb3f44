/* test_extremes.c - extreme but valid inputs plan to finite figures (issue: hardening). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "plan.h"
#include "time_rows.h"


/* Every figure is finite, or NAN where it does not apply; never an infinity. */
static void assert_sane(const struct plan *p)
{
	const double figures[] = {
		p->params, p->active_params, p->mem.weights, p->mem.gradients, p->mem.optimizer,
		p->mem.activations, p->mem.kv_cache, p->mem.overhead, p->mem.total,
		p->mem.capacity, p->mem.headroom, p->flops_per_token, p->flops_total, p->mfu,
		p->step_s, p->total_s, p->gpu_hours, p->tokens_per_s, p->tokens_per_s_per_gpu,
		p->ttft_s, p->tpot_s, p->max_batch, p->replicas, p->gpus_required, p->usd_total,
		p->usd_per_hour, p->usd_per_million_tokens, p->kwh, p->expected_interruptions,
		p->checkpoint_interval_s, p->goodput,
	};
	for (size_t i = 0; i < sizeof(figures) / sizeof(figures[0]); i++)
		if (isinf(figures[i]))
			fail_msg("figure %zu is infinite", i);
	assert_true(isfinite(p->mem.total) && p->mem.total > 0);
	for (int b = 0; b < BN_COUNT; b++)
		assert_false(isinf(p->shares[b]));
}

static void test_train_extremes(void **state)
{
	struct scenario s;
	struct plan p;
	(void)state;
	scenario_init(&s);
	gpu_h100_sxm(&s.hardware.gpu);
	s.model.params = 405e9; /* by size only: shape assumed */
	s.workload.tokens = 1e18;
	s.hardware.count = 1000000;
	s.parallel.tp = 8;
	s.parallel.pp = 125;
	s.parallel.zero = 3;
	s.workload.seq_len = 1000000;
	s.workload.recompute = RECOMPUTE_FULL;
	plan_compute(&s, &p);
	assert_sane(&p);
	assert_true(p.shape_assumed);
	assert_true(isfinite(p.total_s) && p.total_s > 0);
}

static void test_inference_extremes(void **state)
{
	struct scenario s;
	struct plan p;
	(void)state;
	scenario_init(&s);
	gpu_h100_sxm(&s.hardware.gpu);
	s.model.layers = 126; /* Llama-3.1-405B */
	s.model.hidden = 16384;
	s.model.heads = 128;
	s.model.kv_heads = 8;
	s.model.ffn = 53248;
	s.model.vocab = 128256;
	s.model.max_context = 131072;
	s.workload.kind = WL_ONLINE;
	s.workload.prompt_tokens = 1000000;
	s.workload.output_tokens = 1000000;
	s.workload.batch = 0;
	s.workload.requests_per_day = 1e12;
	s.hardware.count = 1000000;
	s.parallel.tp = 8;
	plan_compute(&s, &p);
	assert_sane(&p);

	s.workload.kind = WL_OFFLINE;
	s.workload.tokens = 1e18;
	s.workload.deadline_s = 1;
	plan_compute(&s, &p);
	assert_sane(&p);
}

static void test_tiny_extremes(void **state)
{
	struct scenario s;
	struct plan p;
	(void)state;
	scenario_init(&s);
	gpu_h100_sxm(&s.hardware.gpu);
	s.model.layers = 1;
	s.model.hidden = 1;
	s.model.heads = 1;
	s.model.ffn = 1;
	s.model.vocab = 1;
	s.workload.seq_len = 1;
	s.workload.tokens = 1;
	plan_compute(&s, &p);
	assert_sane(&p);
	assert_true(p.mem.fits);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_train_extremes),
		cmocka_unit_test(test_inference_extremes),
		cmocka_unit_test(test_tiny_extremes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
