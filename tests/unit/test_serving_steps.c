/* test_serving_steps.c - multi-step scheduling, workload.scheduler_steps (vLLM v0
 * --num-scheduler-steps; src/plan_infer.c, time_infer, serve_levels, closed_wait): one step
 * is the plan of before, more steps delay first tokens by whole steps and never slow the
 * decode step, the gaps between tokens spread between a block's steps (block_gap), and the
 * field's bad values are refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "framework.h"
#include "plan.h"
#include "scenario.h"
#include "scenario_yaml.h"
#include "shipped_catalog.h"
#include "scenario_set.h"

#define NIM    "tests/data/serving/nim-70b-2xh100-fp8.yaml"
#define SGLANG "tests/data/serving/sglang-70b-4xh200.yaml"
#define TEAM   "scenarios/team-serve-70b-5m-requests.yaml"

/* The loads the tests run: a closed loop (chunked, TensorRT-LLM), an open arrival rate
 * (prefill-first, SGLang), the shipped vLLM scenario at 6 req/s (chunked, its fleet). */
static const char *const files[] = {NIM, SGLANG, TEAM};
static const char *const loads[] = {"workload.concurrency=50", "workload.requests_per_s=4",
				    "workload.scheduler=chunked"};
static const char *const rates[] = {NULL, NULL, "workload.requests_per_s=6"};

static void plan_at(int i, int steps, struct plan *p)
{
	struct scenario s;
	load(files[i], &s);
	set(&s, loads[i]);
	if (rates[i])
		set(&s, rates[i]);
	if (steps > 0)
		setf(&s, "workload.scheduler_steps=%d", steps);
	plan_compute(&s, p);
}

static void same(double a, double b)
{
	if (!(a == b || (isnan(a) && isnan(b))))
		fail_msg("%.17g != %.17g", a, b);
}

/* auto is 1 under every framework, and 1 is the plan of before: every figure the same. */
static void test_one_step_is_identity(void **state)
{
	(void)state;
	for (int f = 0; f < FW_COUNT; f++)
		assert_int_equal(framework_scheduler_steps(f, 0), 1);
	for (int i = 0; i < 3; i++) {
		struct plan a, b;
		plan_at(i, 0, &a);
		plan_at(i, 1, &b);
		same(a.ttft_s, b.ttft_s);
		same(a.tpot_s, b.tpot_s);
		same(a.tokens_per_s, b.tokens_per_s);
		same(a.gpus_required, b.gpus_required);
		for (int l = 0; l < 3; l++) {
			same(a.serving.ttft[l], b.serving.ttft[l]);
			same(a.serving.tpot[l], b.serving.tpot[l]);
		}
		same(a.serving.wait_s, b.serving.wait_s);
		assert_true(b.serving.scheduler_steps == 1);
	}
}

/* More steps a scheduling: TTFT grows, by about (n - 1) / 2 mean steps (a request joins at
 * a block's first step), the decode step does not slow down (the host's share is paid once
 * a block), and TPOT is not worse. */
static void test_ttft_grows_tpot_not_worse(void **state)
{
	static const int steps[] = {2, 4, 8, 16};
	(void)state;
	for (int i = 0; i < 3; i++) {
		struct plan one, p;
		double last = 0;
		plan_at(i, 1, &one);
		last = one.ttft_s;
		for (int k = 0; k < 4; k++) {
			double n = steps[k], extra;
			plan_at(i, steps[k], &p);
			extra = p.ttft_s - one.ttft_s;
			printf("%s, %2d steps: ttft %.1f ms (+%.1f, (n-1)/2 steps %.1f), tpot %.3f "
			       "ms (%.3f)\n",
			       files[i], steps[k], 1e3 * p.ttft_s, 1e3 * extra,
			       1e3 * (n - 1) / 2 * one.tpot_s, 1e3 * p.tpot_s, 1e3 * one.tpot_s);
			assert_true(p.serving.scheduler_steps == n);
			/* team-serve at 16 steps: its budget, offered once a block, no longer
			 * takes 6 prompts a second (rate x prompt service >= 1), an overload
			 * without a TTFT, never a clamped queue */
			if (p.serving.overloaded) {
				assert_true(one.serving.scheduler == SCHED_CHUNKED);
				assert_false(one.serving.overloaded);
				assert_true(isnan(p.ttft_s));
				assert_true(6 * p.serving.prompt_svc_s >= 1 || i != 2);
				break;
			}
			assert_true(p.ttft_s > last);
			last = p.ttft_s;
			/* the TTFT's extra is the wait for the boundary; under prefill-first
			 * (SGLang's file) within 25% of (n - 1) / 2 steps, the queue behind it
			 * growing a little with the longer e2e; under chunked the prompts that
			 * spill past a block's first step wait a block (test_spill_waits_a_block)
			 * and the queue at the budget grows more */
			assert_true(extra >= 0.75 * (n - 1) / 2 * one.tpot_s);
			if (one.serving.scheduler == SCHED_PREFILL_FIRST)
				assert_true(extra <= 1.25 * (n - 1) / 2 * one.tpot_s);
			assert_true(p.tpot_s <= one.tpot_s * (1 + 1e-12));
			assert_true(p.serving.step_decode_s < one.serving.step_decode_s);
			for (int l = 0; l < 3; l++)
				assert_true(p.serving.ttft[l] >= one.serving.ttft[l]);
		}
	}
}

/* The gaps spread (block_gap): 1 - 1/n of them are plain decode steps without the host's
 * share, the block's first carries it and n steps' prompts. So the P50 gap is the decode
 * step less the host's share of it, GRAPH_TOKEN_S / n (0.15 ms, plan_time_int.h); the P99
 * gap is no shorter than at one step (but for that share); P99 >= P90 >= P50; the mean gap
 * lies between. */
static void test_itl_spread(void **state)
{
	static const int steps[] = {2, 4, 8, 16};
	(void)state;
	for (int i = 0; i < 3; i++) {
		struct plan one, p;
		plan_at(i, 1, &one);
		for (int k = 0; k < 4; k++) {
			const struct plan_serving *v = &p.serving;
			double n = steps[k];
			plan_at(i, steps[k], &p);
			printf("%s, %d steps: ITL P50 %.2f P90 %.2f P99 %.2f ms (one step: %.2f "
			       "%.2f %.2f), mean %.2f\n",
			       files[i], steps[k], 1e3 * v->tpot[0], 1e3 * v->tpot[1],
			       1e3 * v->tpot[2], 1e3 * one.serving.tpot[0],
			       1e3 * one.serving.tpot[1], 1e3 * one.serving.tpot[2],
			       1e3 * p.tpot_s);
			assert_true(v->tpot[2] >= v->tpot[1] && v->tpot[1] >= v->tpot[0]);
			/* at n >= 2 the median gap is a step inside a block */
			assert_true(fabs(v->tpot[0] - (v->step_decode_s - 0.15e-3 / n)) < 1e-12);
			assert_true(v->lv_k[0] == 0);
			/* no shorter than at one step but for the host's share its decode
			 * steps shed */
			assert_true(v->tpot[2] >= one.serving.tpot[2] - 0.15e-3);
			assert_true(v->tpot[0] <= p.tpot_s && p.tpot_s <= v->tpot[2]);
			/* at n >= 10 the P90 gap is inside a block too, and the P99 gap a
			 * block's first step, which holds the host's whole share */
			if (n >= 10) {
				assert_true(v->tpot[1] == v->tpot[0]);
				assert_true(v->tpot[2] >= v->step_decode_s + 0.15e-3 * (1 - 2 / n));
			}
		}
	}
}

/* Under multi-step chunked scheduling vLLM v0 does not chunk a prompt (prompt_svc;
 * vllm/core/scheduler.py _chunk_new_tokens_to_schedule under is_multi_step: one over the
 * budget's remaining tokens is postponed to a later scheduling): a block's first step takes
 * k = floor(F / P) whole prompts, so a prompt holds 1 / k of a block and each further step
 * of the block adds a decode step over k to its service, not P / F of one (the share of a
 * prompt cut into the room's chunks). NIM's 5,000-token prompts in a room of some 8,100
 * tokens: one a block, P / F = 0.61; team-serve's 1,500 in some 1,800: one, P / F = 0.84.
 * Prefill-first's service does not change with the steps. */
static void test_spill_waits_a_block(void **state)
{
	(void)state;
	for (int i = 0; i < 3; i++) {
		struct plan one, p4, p8;
		struct scenario s;
		double P, k, per, want;
		load(files[i], &s);
		P = s.workload.prompt_tokens;
		plan_at(i, 1, &one);
		plan_at(i, 4, &p4);
		plan_at(i, 8, &p8);
		if (one.serving.scheduler != SCHED_CHUNKED) {
			assert_true(fabs(p8.serving.prompt_svc_s - one.serving.prompt_svc_s) <=
				    0.05 * one.serving.prompt_svc_s);
			continue;
		}
		k = floor(p8.serving.room / P);
		assert_true(k == floor(p4.serving.room / P));
		per = (p8.serving.prompt_svc_s - p4.serving.prompt_svc_s) / 4;
		want = p8.serving.step_decode_s / k;
		printf("%s: room %.0f of %.0f-token prompts, %.0f a block; the service grows "
		       "%.2f ms a step, a decode step / k %.2f ms, P / F of one %.2f ms\n",
		       files[i], p8.serving.room, P, k, 1e3 * per, 1e3 * want,
		       1e3 * P / p8.serving.room * p8.serving.step_decode_s);
		assert_true(k >= 1 && k < p8.serving.room / P);
		/* within 5%: the running batch, so the decode step, moves a little with the
		 * longer TTFT; the chunks' share, P / F, is 16% (team-serve) or 39% (NIM) off */
		assert_true(fabs(per - want) <= 0.05 * want);
	}
}

/* A prompt joins whole only while the decodes leave it room, B - 1 <= T - P, so the
 * running batch grows to T - P + 1 and the clients beyond it wait for a slot; a prompt
 * longer than the whole budget is never scheduled (vllm/core/scheduler.py
 * _get_prompt_limit: min(max_model_len, max_num_batched_tokens) under multi-step,
 * _schedule_prefills ignores it), an overload that serves nothing, never a chunked
 * prompt. One step chunks both and serves them. */
static int count_code(const struct plan *p, enum plan_warning_code code)
{
	int n = 0;
	for (int i = 0; i < p->nwarnings; i++)
		n += p->warnings[i].code == code;
	return n;
}

static void test_whole_prompts(void **state)
{
	struct scenario s;
	struct plan p;
	(void)state;
	for (int n = 1; n <= 4; n += 3) {
		load(TEAM, &s);
		set(&s, "workload.max_batched_tokens=1600");
		set(&s, "workload.concurrency=200");
		setf(&s, "workload.scheduler_steps=%d", n);
		plan_compute(&s, &p);
		printf("team-serve, 1,500-token prompts, budget 1,600, 200 clients, %d steps: "
		       "batch %.0f, ttft %.0f ms\n",
		       n, p.serving.batch, 1e3 * p.ttft_s);
		assert_true(p.serving.scheduler == SCHED_CHUNKED);
		assert_true(p.serving.batch == (n == 1 ? 200 : 1600 - 1500 + 1));
		assert_false(p.serving.overloaded);

		load(TEAM, &s);
		set(&s, "workload.max_batched_tokens=1024");
		setf(&s, "workload.scheduler_steps=%d", n);
		for (int closed = 0; closed < 2; closed++) {
			if (closed)
				set(&s, "workload.concurrency=50");
			plan_compute(&s, &p);
			printf("team-serve, budget 1,024, %s, %d steps: overloaded %d, %.0f "
			       "tokens/s\n",
			       closed ? "50 clients" : "its rate", n, p.serving.overloaded,
			       p.tokens_per_s);
			if (n == 1) { /* chunked: the budget takes every prompt in pieces */
				assert_true(isfinite(p.serving.prompt_svc_s));
				assert_true(p.tokens_per_s > 0);
				assert_int_equal(count_code(&p, PW_PROMPT_OVER_BUDGET), 0);
				continue;
			}
			/* the prompt is refused, not queued: the warning says so, not "add
			 * replicas" */
			assert_int_equal(count_code(&p, PW_PROMPT_OVER_BUDGET), 1);
			assert_int_equal(count_code(&p, PW_OVERLOADED), 0);
			for (int i = 0; i < p.nwarnings; i++)
				if (p.warnings[i].code == PW_PROMPT_OVER_BUDGET) {
					assert_true(p.warnings[i].a == 1500);
					assert_true(p.warnings[i].b == 1024);
				}
			assert_true(p.serving.overloaded);
			assert_true(isinf(p.serving.prompt_svc_s));
			assert_true(isnan(p.ttft_s));
			assert_true(p.tokens_per_s == 0);
		}
	}
}

/* Under scheduler alone nothing queues, so only the decode step changes: the host's
 * share, GRAPH_TOKEN_S, paid once in n steps. */
static void test_alone_amortizes_the_host(void **state)
{
	struct scenario s;
	struct plan a, b;
	(void)state;
	load(NIM, &s);
	set(&s, "workload.scheduler=alone");
	set(&s, "workload.concurrency=0");
	plan_compute(&s, &a);
	set(&s, "workload.scheduler_steps=8");
	plan_compute(&s, &b);
	assert_true(b.ttft_s == a.ttft_s || fabs(b.ttft_s - a.ttft_s) < 1e-3 * a.ttft_s);
	assert_true(b.tpot_s < a.tpot_s);
	/* 0.15 ms x 7/8, the host's share (plan_time_int.h GRAPH_TOKEN_S) */
	assert_true(fabs((a.tpot_s - b.tpot_s) - 0.15e-3 * 7 / 8) < 1e-9);
	assert_true(isnan(b.serving.scheduler_steps));
}

static void test_bad_steps(void **state)
{
	static const char *const bad[] = {
	    "workload.scheduler_steps=1025", "workload.scheduler_steps=-1",
	    "workload.scheduler_steps=2.5", "workload.scheduler_steps=many"};
	struct scenario s;
	struct gp_error err;
	(void)state;
	load(NIM, &s);
	for (int i = 0; i < 4; i++)
		assert_int_not_equal(scenario_set_assignment(&s, cat, bad[i], &err), 0);
	set(&s, "workload.scheduler_steps=auto");
	assert_int_equal(s.workload.scheduler_steps, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_one_step_is_identity),
	    cmocka_unit_test(test_ttft_grows_tpot_not_worse),
	    cmocka_unit_test(test_alone_amortizes_the_host),
	    cmocka_unit_test(test_itl_spread),
	    cmocka_unit_test(test_spill_waits_a_block),
	    cmocka_unit_test(test_whole_prompts),
	    cmocka_unit_test(test_bad_steps),
	};
	return cmocka_run_group_tests(tests, shipped_catalog_setup, shipped_catalog_teardown);
}
