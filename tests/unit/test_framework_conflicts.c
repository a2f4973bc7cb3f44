/* test_framework_conflicts.c - settings a named framework cannot run with (issue 12, Bad
 * input): a problem naming both settings and what is accepted where the framework refuses
 * them (llm.c's tensor parallelism and offload, DeepSpeed's ZeRO-2/3 under a pipeline, a
 * serving framework's engine), a plan warning where it quietly runs something else
 * (llm.c's ZeRO-2 and -3 run as stage 0), and the plan follows what the framework runs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "framework.h"
#include "plan.h"
#include "scenario.h"
#include "shipped_catalog.h"

/* llama-3.1-8b training on 8 x H100 with framework f (a scenario_set value). */
static void train(struct scenario *s, const char *f)
{
	struct gp_error err;

	scenario_init(s);
	assert_int_equal(scenario_set(s, cat, "model.preset", "llama-3.1-8b", &err), 0);
	assert_int_equal(scenario_set(s, cat, "hardware.gpu", "h100-sxm-80gb", &err), 0);
	assert_int_equal(scenario_set(s, cat, "hardware.count", "8", &err), 0);
	assert_int_equal(scenario_set(s, cat, "workload.kind", "train", &err), 0);
	assert_int_equal(scenario_set(s, cat, "workload.framework", f, &err), 0);
}

static void set(struct scenario *s, const char *key, const char *value)
{
	struct gp_error err;
	assert_int_equal(scenario_set(s, cat, key, value, &err), 0);
}

/* The problems of s: their count, and the one on field whose message holds a and b. */
static int problems(const struct scenario *s, const char *field, const char *a, const char *b)
{
	struct gp_problems pr;
	bool found = false;

	gp_problems_init(&pr);
	scenario_validate(s, NULL, &pr);
	for (int i = 0; i < pr.count; i++)
		if (strcmp(pr.items[i].field, field) == 0 && strstr(pr.items[i].message, a) &&
		    strstr(pr.items[i].message, b))
			found = true;
	if (field[0] && !found)
		fail_msg("no problem on %s naming '%s' and '%s' (%d problems)", field, a, b,
			 pr.count);
	return pr.count;
}

static const struct plan_warning *warning(const struct plan *p, enum plan_warning_code code)
{
	for (int i = 0; i < p->nwarnings; i++)
		if (p->warnings[i].code == code)
			return &p->warnings[i];
	return NULL;
}

/* llm.c parallelises over data only (train_gpt2.cu, llmc/zero.cuh): tp above 1 and an
 * offload are problems; ZeRO-1 is accepted. */
static void test_llmc_refuses(void **state)
{
	struct scenario s;
	(void)state;
	train(&s, "llm.c");
	set(&s, "parallel.zero", "1");
	assert_int_equal(problems(&s, "", "", ""), 0);
	set(&s, "parallel.tp", "2");
	assert_int_equal(problems(&s, "parallel.tp", "llm.c", "parallel.tp 2"), 1);
	problems(&s, "parallel.tp", "expected tp 1", "megatron");
	set(&s, "parallel.tp", "1");
	set(&s, "parallel.offload", "optimizer");
	assert_int_equal(problems(&s, "parallel.offload", "llm.c", "parallel.offload optimizer"),
			 1);
	problems(&s, "parallel.offload", "expected offload none", "deepspeed");
	/* the same layout under another framework is fine */
	train(&s, "deepspeed");
	set(&s, "parallel.tp", "2");
	set(&s, "parallel.offload", "optimizer");
	assert_int_equal(problems(&s, "", "", ""), 0);
}

/* llm.c's set_zero_configs disables ZeRO-2 and -3 ("not yet supported") and runs stage 0:
 * the plan warns naming both, and holds what stage 0 holds. */
static void test_llmc_zero_fallback(void **state)
{
	struct scenario s;
	struct plan p, zero0;
	char buf[300];
	const struct plan_warning *w;
	(void)state;
	for (int z = 2; z <= 3; z++) {
		char v[4];
		snprintf(v, sizeof(v), "%d", z);
		train(&s, "llm.c");
		set(&s, "parallel.zero", v);
		assert_int_equal(problems(&s, "", "", ""), 0); /* accepted: it runs */
		plan_compute(&s, &p);
		set(&s, "parallel.zero", "0");
		plan_compute(&s, &zero0);
		assert_int_equal(p.zero, 0);
		assert_true(p.mem.total == zero0.mem.total);
		assert_true(p.mem.optimizer == zero0.mem.optimizer);
		w = warning(&p, PW_ZERO_FALLBACK);
		assert_non_null(w);
		assert_null(warning(&zero0, PW_ZERO_FALLBACK));
		plan_warning_format(w, buf, sizeof(buf));
		assert_non_null(strstr(buf, "llm.c"));
		assert_non_null(strstr(buf, z == 2 ? "parallel.zero 2" : "parallel.zero 3"));
		assert_non_null(strstr(buf, "stage 0"));
	}
	/* ZeRO-1 stays ZeRO-1; other frameworks keep ZeRO-3 */
	train(&s, "llm.c");
	set(&s, "parallel.zero", "1");
	plan_compute(&s, &p);
	assert_int_equal(p.zero, 1);
	assert_null(warning(&p, PW_ZERO_FALLBACK));
	train(&s, "fsdp");
	set(&s, "parallel.zero", "3");
	plan_compute(&s, &p);
	assert_int_equal(p.zero, 3);
	assert_null(warning(&p, PW_ZERO_FALLBACK));
}

/* DeepSpeed's PipelineEngine asserts zero_optimization_stage() < 2. */
static void test_deepspeed_pipeline_zero(void **state)
{
	struct scenario s;
	(void)state;
	train(&s, "deepspeed");
	set(&s, "parallel.pp", "2");
	set(&s, "parallel.zero", "1");
	assert_int_equal(problems(&s, "", "", ""), 0);
	for (int z = 2; z <= 3; z++) {
		char v[16], want[32];
		snprintf(v, sizeof(v), "%d", z);
		snprintf(want, sizeof(want), "parallel.zero %d", z);
		set(&s, "parallel.zero", v);
		assert_int_equal(problems(&s, "parallel.zero", want, "parallel.pp 2"), 1);
		problems(&s, "parallel.zero", "deepspeed", "expected zero 0 or 1");
	}
	set(&s, "parallel.pp", "1"); /* ZeRO-3 without a pipeline runs */
	assert_int_equal(problems(&s, "", "", ""), 0);
	train(&s, "megatron"); /* Megatron's distributed optimizer under a pipeline is fine */
	set(&s, "parallel.pp", "2");
	set(&s, "parallel.zero", "3");
	assert_int_equal(problems(&s, "", "", ""), 0);
}

/* A serving framework runs its own kernels: workload.engine may only agree. */
static void test_serving_engine(void **state)
{
	static const char *const graphs[] = {"vllm", "sglang", "trt-llm"};
	struct scenario s;
	(void)state;
	for (int i = 0; i < 3; i++) {
		train(&s, graphs[i]);
		set(&s, "workload.kind", "online");
		assert_int_equal(problems(&s, "", "", ""), 0);
		set(&s, "workload.engine", "cuda-graphs");
		assert_int_equal(problems(&s, "", "", ""), 0);
		set(&s, "workload.engine", "llama.cpp");
		assert_int_equal(
		    problems(&s, "workload.engine", graphs[i], "workload.engine llama.cpp"), 1);
		problems(&s, "workload.engine", "expected engine auto or cuda-graphs", "");
	}
	train(&s, "llama.cpp");
	set(&s, "workload.kind", "offline");
	set(&s, "workload.engine", "cuda-graphs");
	assert_int_equal(problems(&s, "workload.engine", "llama.cpp", "engine cuda-graphs"), 1);
	problems(&s, "workload.engine", "expected engine auto or llama.cpp", "");
	set(&s, "workload.engine", "llama.cpp");
	assert_int_equal(problems(&s, "", "", ""), 0);
	/* the default framework takes either engine */
	train(&s, "default");
	set(&s, "workload.kind", "online");
	set(&s, "workload.engine", "llama.cpp");
	assert_int_equal(problems(&s, "", "", ""), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_llmc_refuses),
	    cmocka_unit_test(test_llmc_zero_fallback),
	    cmocka_unit_test(test_deepspeed_pipeline_zero),
	    cmocka_unit_test(test_serving_engine),
	};
	return cmocka_run_group_tests(tests, shipped_catalog_setup, shipped_catalog_teardown);
}
