/* test_serving_spec.c - speculative decoding (workload.speculative, src/plan_time.c): the
 * identities, the tokens a step gains, the cost of a draft nobody accepts, the gain that
 * shrinks as the batch grows, the draft's memory, and the inputs refused with their place. */
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
#define SEED11 "scenarios/seed-11b-7b-decode-a100.yaml"

static void eagle(struct scenario *s, int k, const char *a)
{
	set(s, "workload.speculative.method=eagle");
	setf(s, "workload.speculative.tokens=%d", k);
	setf(s, "workload.speculative.acceptance=%s", a);
}

static void same_plan(const struct plan *a, const struct plan *b)
{
	assert_true(a->tpot_s == b->tpot_s && a->ttft_s == b->ttft_s);
	assert_true(a->tokens_per_s == b->tokens_per_s);
	assert_true(a->mem.weights == b->mem.weights && a->mem.total == b->mem.total);
	assert_true(a->max_batch == b->max_batch);
	assert_true(a->slo_batch == b->slo_batch || (isnan(a->slo_batch) && isnan(b->slo_batch)));
	assert_memory_equal(&a->serving, &b->serving, offsetof(struct plan_serving, overloaded));
	assert_true(a->gpus_required == b->gpus_required ||
		    (isnan(a->gpus_required) && isnan(b->gpus_required)));
}

/* K = 0, or method none whatever the other fields say, is today's plan bit for bit, under
 * the step alone and under the loaded schedulers. */
static void test_spec_identity(void **state)
{
	static const char *const scheds[] = {"alone", "chunked", "prefill-first", "static"};
	(void)state;
	for (int i = 0; i < 4; i++) {
		struct scenario s, z;
		struct plan p0, p1;
		load(SGLANG, &s);
		setf(&s, "workload.scheduler=%s", scheds[i]);
		set(&s, "workload.requests_per_s=4");
		set(&s, "workload.slo.tpot=50ms");
		plan_compute(&s, &p0);
		z = s;
		set(&z, "workload.speculative.tokens=4");
		set(&z, "workload.speculative.acceptance=0.8");
		set(&z, "workload.speculative.draft_params=1B"); /* method none: ignored */
		plan_compute(&z, &p1);
		same_plan(&p0, &p1);
		assert_true(isnan(p1.decode.spec_tokens_per_step));
		assert_true(p1.mem.draft_weights == 0 && p1.mem.draft_kv_bytes_per_token == 0);
		z = s;
		z.workload.speculative.method = SPEC_EAGLE; /* K = 0 in the core: none */
		plan_compute(&z, &p1);
		same_plan(&p0, &p1);
	}
}

/* Leviathan et al. 2023, Equation 1: (1 - a^(K+1)) / (1 - a) tokens a step; at batch 1 a
 * step of the target is its weight read, so TPOT falls by about that factor less the
 * draft's share. Acceptance 0 gains one token a step for the price of K + 1 rows and K
 * draft steps: slower than no speculation. */
static void test_spec_gain(void **state)
{
	struct scenario s, z;
	struct plan p0, p1, pz;
	double E = (1 - pow(0.7, 4)) / (1 - 0.7);
	(void)state;
	load(SEED11, &s);
	plan_compute(&s, &p0);
	z = s;
	eagle(&z, 3, "0.7");
	plan_compute(&z, &p1);
	assert_true(fabs(p1.decode.spec_tokens_per_step - E) < 1e-12);
	assert_true(fabs((p1.decode.verify_s + p1.decode.draft_s) / E - p1.tpot_s) <
		    1e-12 * p1.tpot_s);
	printf("eagle K=3 a=0.7 at batch 1: TPOT %.4g -> %.4g ms (x%.3g; E %.3g)\n",
	       p0.tpot_s * 1e3, p1.tpot_s * 1e3, p0.tpot_s / p1.tpot_s, E);
	/* the verify pass of 4 rows costs little more than a step of 1 at batch 1 */
	assert_true(p1.decode.verify_s > p0.tpot_s && p1.decode.verify_s < 1.05 * p0.tpot_s);
	assert_true(p1.tpot_s < p0.tpot_s / 1.8 && p1.tpot_s > p0.tpot_s / E);
	assert_true(p1.tokens_per_s > 1.8 * p0.tokens_per_s);
	/* the draft prefills the prompt too */
	assert_true(p1.ttft_s > p0.ttft_s);

	z = s;
	eagle(&z, 3, "0");
	plan_compute(&z, &pz);
	assert_true(pz.decode.spec_tokens_per_step == 1);
	assert_true(pz.tpot_s > p0.tpot_s);
	assert_true(pz.tokens_per_s < p0.tokens_per_s);

	/* more acceptance, more gain; more tokens at a = 0.7 past the optimum cost more */
	z = s;
	eagle(&z, 3, "0.9");
	plan_compute(&z, &pz);
	assert_true(pz.tpot_s < p1.tpot_s);
}

/* Under a large batch the verify pass's GEMMs turn compute-bound K + 1 times sooner: the
 * speed-up shrinks as the batch grows. */
static void test_spec_batch(void **state)
{
	double prev = INFINITY;
	(void)state;
	for (int b = 1; b <= 512; b *= 8) {
		struct scenario s, z;
		struct plan p0, p1;
		load(SEED11, &s);
		setf(&s, "workload.batch=%d", b);
		plan_compute(&s, &p0);
		z = s;
		eagle(&z, 3, "0.7");
		plan_compute(&z, &p1);
		printf("batch %3d: speed-up x%.3g\n", b, p0.tpot_s / p1.tpot_s);
		/* flat while decode is memory-bound, then falling */
		assert_true(p0.tpot_s / p1.tpot_s <= prev * 1.01);
		prev = p0.tpot_s / p1.tpot_s;
	}
	assert_true(prev < 1.6);
}

/* The draft's memory: a 1B draft model's weights and its KV cache at the target's width;
 * eagle's one layer and projection; ngram none. The KV cache holds fewer sequences. */
static void test_spec_memory(void **state)
{
	struct scenario s, z;
	struct plan p0, p1;
	(void)state;
	load(SEED11, &s);
	set(&s, "workload.batch=auto");
	plan_compute(&s, &p0);
	z = s;
	set(&z, "workload.speculative.method=draft");
	set(&z, "workload.speculative.tokens=4");
	set(&z, "workload.speculative.acceptance=0.6");
	set(&z, "workload.speculative.draft_params=1B");
	set(&z, "workload.speculative.draft_layers=16");
	plan_compute(&z, &p1);
	/* fp16: 2 B a parameter */
	assert_true(fabs(p1.mem.draft_weights - 2e9) < 1);
	assert_true(fabs(p1.mem.weights - p0.mem.weights - 2e9) < 1);
	/* 16 of the 7B's 32 layers at its width: half its cache a token more */
	assert_true(fabs(p1.mem.draft_kv_bytes_per_token - p0.mem.kv_bytes_per_token / 2) < 1e-6);
	assert_true(p1.max_batch < p0.max_batch);

	z = s;
	eagle(&z, 3, "0.7");
	plan_compute(&z, &p1);
	/* one Llama-2-7B layer (202,383,360 parameters with its norms) + 2 h^2 */
	assert_true(fabs(p1.mem.draft_weights - 2 * (202383360.0 + 2 * 4096.0 * 4096)) < 1e4);
	assert_true(fabs(p1.mem.draft_kv_bytes_per_token - p0.mem.kv_bytes_per_token / 32) < 1e-6);

	z = s;
	set(&z, "workload.speculative.method=ngram");
	set(&z, "workload.speculative.tokens=3");
	set(&z, "workload.speculative.acceptance=0.5");
	plan_compute(&z, &p1);
	assert_true(p1.mem.draft_weights == 0 && p1.max_batch == p0.max_batch);
	assert_true(p1.decode.draft_s == 0);
}

/* Under load the speculative step is the loaded step too: at a light rate TPOT falls, and
 * the percentiles keep their order. */
static void test_spec_loaded(void **state)
{
	struct scenario s, z;
	struct plan p0, p1;
	(void)state;
	load(SGLANG, &s);
	set(&s, "workload.requests_per_s=1");
	plan_compute(&s, &p0);
	z = s;
	eagle(&z, 3, "0.7");
	plan_compute(&z, &p1);
	printf("SGLang 70B at 1 rps: TPOT p50 %.4g -> %.4g ms with eagle\n",
	       p0.serving.tpot[0] * 1e3, p1.serving.tpot[0] * 1e3);
	assert_true(p1.serving.tpot[0] < p0.serving.tpot[0] / 1.5);
	assert_true(p1.serving.tpot[0] <= p1.serving.tpot[1] &&
		    p1.serving.tpot[1] <= p1.serving.tpot[2]);
	assert_true(p1.serving.ttft[0] <= p1.serving.ttft[1] &&
		    p1.serving.ttft[1] <= p1.serving.ttft[2]);
}

#define HEAD "gpuplan: 1\nmodel:\n  preset: llama-2-7b\nworkload:\n  kind: online\n"

/* Acceptance outside [0, 1) or without a method, K < 1 under a method, a draft model
 * without its size: an input error at the line and column of the key (exit 2 in the
 * CLI). */
static void test_spec_bad(void **state)
{
	static const struct {
		const char *yaml;
		int line;
		const char *word;
	} bad[] = {
	    {HEAD "  speculative:\n    method: eagle\n    tokens: 3\n    acceptance: 1\n", 9,
	     "expected [0, 1)"},
	    {HEAD "  speculative:\n    method: eagle\n    tokens: 3\n    acceptance: -0.1\n", 9,
	     "acceptance"},
	    {HEAD "  speculative:\n    method: eagle\n    tokens: 3\n    acceptance: 1.5\n", 9,
	     "expected [0, 1)"},
	    /* a rate with nothing drafted: named with the method it lacks */
	    {HEAD "  speculative:\n    acceptance: 0.7\n", 7,
	     "acceptance 0.7 without a speculative method"},
	    {HEAD "  speculative:\n    method: none\n    acceptance: 0.7\n", 8,
	     "speculative.method is none at 7:5"},
	    {HEAD "  speculative:\n    method: mtp\n    tokens: 0\n    acceptance: 0.5\n", 8,
	     "tokens"},
	    {HEAD "  speculative:\n    method: mtp\n    acceptance: 0.5\n", 6, "tokens"},
	    {HEAD "  speculative:\n    method: draft\n    tokens: 2\n    draft_layers: 4\n", 6,
	     "draft_params"},
	    {HEAD "  speculative:\n    method: draft\n    tokens: 2\n    draft_params: 1B\n", 6,
	     "draft_layers"},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		refused_at(bad[i].yaml, bad[i].line, bad[i].word);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_spec_identity), cmocka_unit_test(test_spec_gain),
	    cmocka_unit_test(test_spec_batch),	  cmocka_unit_test(test_spec_memory),
	    cmocka_unit_test(test_spec_loaded),	  cmocka_unit_test(test_spec_bad),
	};
	return cmocka_run_group_tests(tests, shipped_catalog_setup, shipped_catalog_teardown);
}
