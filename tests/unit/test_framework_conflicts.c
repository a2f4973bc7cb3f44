/* test_framework_conflicts.c - settings a named framework cannot run with (issue 12, Bad
 * input): a problem naming both settings and what is accepted where the framework refuses
 * them (llm.c's tensor parallelism and offload, DeepSpeed's ZeRO-2/3 under a pipeline, a
 * serving framework's engine), a plan warning where it quietly runs something else
 * (llm.c's ZeRO-2 and -3 run as stage 0), and the plan follows what the framework runs;
 * a value the framework has no way to run (framework.c's value gaps: 8-bit AdamW on
 * Megatron, per-op recompute on llm.c, fp8 GGUF weights) a warning naming the field, its
 * value and the framework; one load field overridden by another a warning; and the
 * embedding and head of online fp8 quantization kept 16-bit by the CUDA-graph engines. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "framework.h"
#include "explain.h"
#include "plan.h"
#include "report.h"
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

/* Sets key as a file writing it would: the value, and the field marked written (as
 * cli_io.c's cli_ignored_fields marks a --set). */
static void set(struct scenario *s, const char *key, const char *value)
{
	struct gp_error err;
	const struct field *f = scenario_field_find(key);
	ptrdiff_t i = f ? f - scenario_fields : -1;
	assert_int_equal(scenario_set(s, cat, key, value, &err), 0);
	assert_true(i >= 0 && i < SCENARIO_MAX_FIELDS);
	s->written[i / 8] |= (unsigned char)(1u << (i % 8));
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

/* The warnings scenario_ignored_fields gives s: their count, and whether one on field
 * holds a and b (field "": none looked for). */
static int warnings(const struct scenario *s, const char *field, const char *a, const char *b)
{
	struct gp_problems pr;
	bool found = false;

	gp_problems_init(&pr);
	scenario_ignored_fields(s, NULL, &pr);
	for (int i = 0; i < pr.count; i++)
		if (strcmp(pr.items[i].field, field) == 0 && strstr(pr.items[i].message, a) &&
		    strstr(pr.items[i].message, b))
			found = true;
	if (field[0] && !found)
		fail_msg("no warning on %s naming '%s' and '%s' (%d warnings%s%s)", field, a, b,
			 pr.count, pr.count ? ": " : "", pr.count ? pr.items[0].message : "");
	return pr.count;
}

/* The audit's cases: each a warning naming the field, its value, the framework and the
 * framework's file, not a problem (the framework runs, the plan takes the value as
 * written); the same value under a framework that has it warns nothing. */
static void test_value_gaps(void **state)
{
	static const struct {
		const char *fw, *key, *value, *source;
	} cases[] = {
	    {"megatron", "workload.optimizer", "adam8bit", "megatron/training/arguments.py"},
	    {"megatron", "workload.loss", "chunked", "language_module.py"},
	    {"megatron", "workload.recompute", "op", "transformer_config.py"},
	    {"llm.c", "workload.recompute", "op", "train_gpt2.cu -r"},
	    {"llm.c", "workload.optimizer_states", "paged", "train_gpt2.cu"},
	    {"deepspeed", "parallel.reshard_after_forward", "never",
	     "stage3_param_persistence_threshold"},
	};
	struct scenario s;
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char both[96];
		train(&s, cases[i].fw);
		if (strcmp(cases[i].fw, "deepspeed") == 0)
			set(&s, "parallel.zero", "3");
		assert_int_equal(warnings(&s, "", "", ""), 0);
		set(&s, cases[i].key, cases[i].value);
		snprintf(both, sizeof(both), "%s %s", cases[i].key, cases[i].value);
		assert_int_equal(warnings(&s, cases[i].key, cases[i].fw, both), 1);
		warnings(&s, cases[i].key, cases[i].source, "planned as written");
		assert_int_equal(problems(&s, "", "", ""), 0); /* a warning, not an error */
		/* FSDP2 (torchtitan) and torchtune list none of these as missing */
		set(&s, "workload.framework", "fsdp");
		assert_int_equal(warnings(&s, "", "", ""), 0);
	}
	/* Megatron runs FSDP2 with --torch-fsdp2-no-reshard-after-forward (arguments.py) */
	train(&s, "megatron");
	set(&s, "parallel.zero", "3");
	set(&s, "parallel.reshard_after_forward", "never");
	assert_int_equal(warnings(&s, "", "", ""), 0);
	/* llm.c's -r 1 (selective) and -w 0 (no master copy) are its own flags */
	train(&s, "llm.c");
	set(&s, "workload.recompute", "selective");
	set(&s, "workload.master_weights", "none");
	assert_int_equal(warnings(&s, "", "", ""), 0);
}

/* Every gap of the table is a value of a field of the scenario table, and setting it
 * under its framework (for a workload the field applies to) gives the warning. */
static void test_value_gaps_table(void **state)
{
	int n = 0;
	(void)state;
	for (int f = 0; f < FW_COUNT; f++) {
		const struct value_gap *g;
		for (int i = 0; (g = framework_value_gap(f, i)) != NULL; i++, n++) {
			struct scenario s;
			char both[96];
			assert_non_null(scenario_field_find(g->key));
			assert_non_null(g->lacks);
			assert_non_null(g->source);
			train(&s, framework_name(f));
			if (!framework_get(f)->trains) {
				set(&s, "workload.kind", "online");
				set(&s, "workload.framework", framework_name(f));
			}
			set(&s, g->key, g->value);
			snprintf(both, sizeof(both), "%s %s", g->key, g->value);
			warnings(&s, g->key, framework_name(f), both);
		}
	}
	assert_true(n >= 14);
	assert_null(framework_value_gap(FW_FSDP, 0));
	assert_null(framework_value_gap(FW_COUNT + 3, 0)); /* out of range: the default row */
}

/* GGUF has no fp8 type: llama.cpp, as the framework or as the engine the default
 * framework runs on a consumer GPU, warns naming Q8_0; vLLM runs fp8. */
static void test_llamacpp_fp8(void **state)
{
	struct scenario s;
	(void)state;
	train(&s, "llama.cpp");
	set(&s, "workload.kind", "online");
	set(&s, "workload.framework", "llama.cpp");
	set(&s, "workload.weights", "fp8");
	assert_int_equal(warnings(&s, "workload.weights", "framework llama.cpp", "Q8_0"), 1);
	set(&s, "workload.weights", "int8");
	assert_int_equal(warnings(&s, "", "", ""), 0);
	train(&s, "default");
	set(&s, "workload.kind", "online");
	set(&s, "workload.weights", "fp8");
	set(&s, "workload.engine", "llama.cpp");
	assert_int_equal(warnings(&s, "workload.weights", "engine llama.cpp", "Q8_0"), 1);
	set(&s, "workload.engine", "auto");
	assert_int_equal(warnings(&s, "", "", ""), 0); /* H100: a CUDA-graph engine */
	set(&s, "hardware.gpu", "rtx-4090");
	assert_int_equal(warnings(&s, "workload.weights", "engine llama.cpp", "Q8_0"), 1);
	set(&s, "workload.framework", "vllm");
	assert_int_equal(warnings(&s, "", "", ""), 0);
}

/* requests_per_s over requests_per_day warns in check as in the plan (one text), and
 * peak_factor beside requests_per_s is not applied: it scales the daily average. */
static void test_load_overrides(void **state)
{
	struct scenario s;
	struct plan p;
	double rate;
	(void)state;
	train(&s, "vllm");
	set(&s, "workload.kind", "online");
	set(&s, "workload.framework", "vllm");
	set(&s, "workload.requests_per_s", "5");
	assert_int_equal(warnings(&s, "", "", ""), 0);
	set(&s, "workload.requests_per_day", "1M");
	assert_int_equal(
	    warnings(&s, "workload.requests_per_s", "overrides", "workload.requests_per_day"), 1);
	plan_compute(&s, &p);
	assert_non_null(warning(&p, PW_RATE_OVERRIDES));
	assert_true(plan_warning_field_ignored(warning(&p, PW_RATE_OVERRIDES)));
	assert_string_equal(plan_warning_conflict_key(warning(&p, PW_RATE_OVERRIDES)),
			    "workload.requests_per_s");
	set(&s, "workload.requests_per_day", "0");
	set(&s, "workload.peak_factor", "3");
	assert_int_equal(
	    warnings(&s, "workload.peak_factor", "not applied", "workload.requests_per_s"), 1);
	/* the fleet follows the rate as given, whatever the factor */
	plan_compute(&s, &p);
	rate = p.serving.fleet_rate;
	set(&s, "workload.peak_factor", "1");
	plan_compute(&s, &p);
	assert_true(rate > 4.99 && p.serving.fleet_rate == rate);
	/* with the daily load alone the factor is read */
	set(&s, "workload.requests_per_s", "0");
	set(&s, "workload.requests_per_day", "1M");
	set(&s, "workload.peak_factor", "3");
	assert_int_equal(warnings(&s, "", "", ""), 0);
}

/* Online fp8 quantization of a 16-bit checkpoint under a CUDA-graph engine keeps the
 * embedding and head bf16 (vLLM's Fp8Config quantizes LinearBase only): auto is bf16
 * there, as weights elsewhere (llama.cpp's engine) and for other formats. */
static void test_fp8_embedding(void **state)
{
	static const char *const engines[] = {"vllm", "sglang", "trt-llm", "default"};
	struct scenario s;
	struct plan a, b;
	(void)state;
	for (int i = 0; i < 4; i++) {
		train(&s, engines[i]);
		set(&s, "workload.kind", "online");
		set(&s, "workload.framework", engines[i]);
		set(&s, "workload.weights", "fp8");
		plan_compute(&s, &a);
		set(&s, "workload.embedding_weights", "bf16");
		plan_compute(&s, &b);
		assert_true(a.mem.weights == b.mem.weights);
		set(&s, "workload.embedding_weights", "same");
		plan_compute(&s, &b);
		/* llama-3.1-8b: two 128256 x 4096 matrices, a byte each fewer */
		assert_true(a.mem.weights - b.mem.weights > 1.0e9);
	}
	/* llama.cpp's engine, and int8, keep auto as weights */
	train(&s, "default");
	set(&s, "workload.kind", "online");
	set(&s, "workload.weights", "fp8");
	set(&s, "workload.engine", "llama.cpp");
	plan_compute(&s, &a);
	set(&s, "workload.embedding_weights", "same");
	plan_compute(&s, &b);
	assert_true(a.mem.weights == b.mem.weights);
	train(&s, "vllm");
	set(&s, "workload.kind", "online");
	set(&s, "workload.framework", "vllm");
	set(&s, "workload.weights", "int8");
	plan_compute(&s, &a);
	set(&s, "workload.embedding_weights", "same");
	plan_compute(&s, &b);
	assert_true(a.mem.weights == b.mem.weights);
}

/* The default framework's serving title names the engine it serves as and the slack. */
static void test_default_titles(void **state)
{
	(void)state;
	assert_string_equal(framework_title(FW_DEFAULT, false, true),
			    framework_get(FW_DEFAULT)->title);
	assert_non_null(strstr(framework_title(FW_DEFAULT, true, true), "vLLM V1"));
	assert_non_null(strstr(framework_title(FW_DEFAULT, true, true), "5% slack"));
	assert_non_null(strstr(framework_title(FW_DEFAULT, true, true), "case 16"));
	assert_non_null(strstr(framework_title(FW_DEFAULT, true, false), "llama.cpp"));
	assert_null(strstr(framework_title(FW_DEFAULT, true, true), "papers"));
	assert_string_equal(framework_title(FW_VLLM, true, true), "vLLM");
	assert_string_equal(framework_title(FW_MEGATRON, false, true),
			    framework_get(FW_MEGATRON)->title);
}

/* text with each run of white space (the report's wrapping) as one space, in place */
static void squeeze(char *text)
{
	char *o = text;
	for (const char *c = text; *c; c++)
		if (!(*c == ' ' || *c == '\n') || o == text || o[-1] != ' ')
			*o++ = *c == '\n' ? ' ' : *c;
	*o = 0;
}

/* parallel.zero under framework megatron names Megatron-LM's implementation of the stage
 * (megatron/training/arguments.py --data-parallel-sharding-strategy): ZeRO-3 is Megatron-FSDP
 * with optim_grads_params, in the report's header (text and Markdown) and in explain's
 * framework note; the plan's stage, not the field's, and nothing for another framework. */
static void test_megatron_fsdp_named(void **state)
{
	(void)state;
	static const struct {
		const char *fw, *zero, *want;
	} rows[] = {
	    {"megatron", "3",
	     "; data parallel: Megatron-FSDP (--use-megatron-fsdp, sharding "
	     "strategy optim_grads_params)"},
	    {"megatron", "2",
	     "; data parallel: Megatron-FSDP (--use-megatron-fsdp, sharding "
	     "strategy optim_grads)"},
	    {"megatron", "1", "; data parallel: distributed optimizer"},
	    {"megatron", "0", "Megatron-Core; data parallel: DDP"},
	    {"fsdp", "3", NULL},
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct scenario s;
		struct plan *p = malloc(sizeof(*p));
		struct report_buf t = {0}, m = {0};
		struct gp_error err;
		static char buf[16384];

		assert_non_null(p);
		train(&s, rows[i].fw);
		assert_int_equal(scenario_set(&s, cat, "parallel.zero", rows[i].zero, &err), 0);
		plan_compute(&s, p);
		assert_int_equal(report_text(&t, &s, p), 0);
		assert_int_equal(report_markdown(&m, &s, p), 0);
		assert_non_null(strstr(t.data, "\nframework  megatron: ") ||
				strcmp(rows[i].fw, "megatron"));
		squeeze(t.data);
		if (rows[i].want) {
			if (!strstr(t.data, rows[i].want))
				fail_msg("zero %s: no '%s' in\n%s", rows[i].zero, rows[i].want,
					 t.data);
			assert_non_null(strstr(m.data, "- **Framework:** megatron: "));
			assert_non_null(strstr(m.data, "data parallel: "));
		} else {
			assert_null(strstr(t.data, "data parallel: "));
		}
		if (strcmp(rows[i].zero, "3") == 0) {
			assert_int_equal(explain_key_wrapped(&s, p, "memory.per_gpu.weights", 1000,
							     buf, sizeof(buf), &err),
					 0);
			assert_true(!rows[i].want || strstr(buf, "Megatron-FSDP"));
			assert_true(!rows[i].want || strstr(buf, "optim_grads_params"));
		}
		report_buf_release(&t);
		report_buf_release(&m);
		free(p);
	}
	/* llm.c's ZeRO-2 runs as stage 0 (PW_ZERO_FALLBACK): the header follows the plan */
	assert_null(framework_dp_title(FW_LLMC, 2));
	assert_string_equal(framework_dp_title(FW_MEGATRON, 7), framework_dp_title(FW_MEGATRON, 3));
}

/* TensorRT-LLM quantizes the KV cache only with --kv_cache_dtype fp8
 * (examples/quantization/quantize.py; --qformat fp8 alone leaves kv_cache_quant_algo
 * unset): fp8 weights with the 16-bit default cache warn naming the option, and explain
 * of the KV figure says so; a cache set to fp8, bf16 weights or another engine do not. */
static void test_trtllm_fp8_kv(void **state)
{
	struct scenario s;
	struct plan *p = malloc(sizeof(*p));
	struct gp_error err;
	char buf[4000], text[400];
	const struct plan_warning *w;
	(void)state;
	assert_non_null(p);
	train(&s, "trt-llm");
	set(&s, "workload.kind", "offline");
	set(&s, "hardware.count", "1");
	set(&s, "workload.weights", "fp8");
	plan_compute(&s, p);
	w = warning(p, PW_TRTLLM_KV_16BIT);
	assert_non_null(w);
	plan_warning_format(w, text, sizeof(text));
	assert_non_null(strstr(text, "--kv_cache_dtype fp8"));
	assert_non_null(strstr(text, "bf16 kv cache"));
	assert_int_equal(
	    explain_key_wrapped(&s, p, "memory.per_gpu.kv_cache", 1000, buf, sizeof(buf), &err), 0);
	assert_non_null(strstr(buf, "--kv_cache_dtype fp8"));
	set(&s, "workload.kv_cache", "fp8");
	plan_compute(&s, p);
	assert_null(warning(p, PW_TRTLLM_KV_16BIT));
	assert_int_equal(
	    explain_key_wrapped(&s, p, "memory.per_gpu.kv_cache", 1000, buf, sizeof(buf), &err), 0);
	assert_null(strstr(buf, "--kv_cache_dtype fp8"));
	set(&s, "workload.kv_cache", "bf16");
	set(&s, "workload.weights", "bf16");
	plan_compute(&s, p);
	assert_null(warning(p, PW_TRTLLM_KV_16BIT));
	set(&s, "workload.weights", "fp8");
	set(&s, "workload.framework", "vllm");
	plan_compute(&s, p);
	assert_null(warning(p, PW_TRTLLM_KV_16BIT));
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_llmc_refuses),
	    cmocka_unit_test(test_llmc_zero_fallback),
	    cmocka_unit_test(test_deepspeed_pipeline_zero),
	    cmocka_unit_test(test_serving_engine),
	    cmocka_unit_test(test_value_gaps),
	    cmocka_unit_test(test_value_gaps_table),
	    cmocka_unit_test(test_llamacpp_fp8),
	    cmocka_unit_test(test_load_overrides),
	    cmocka_unit_test(test_fp8_embedding),
	    cmocka_unit_test(test_default_titles),
	    cmocka_unit_test(test_megatron_fsdp_named),
	    cmocka_unit_test(test_trtllm_fp8_kv),
	};
	return cmocka_run_group_tests(tests, shipped_catalog_setup, shipped_catalog_teardown);
}
