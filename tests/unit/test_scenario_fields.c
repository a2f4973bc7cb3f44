/* test_scenario_fields.c - the field table: every field reads back what it writes, rejects what it
 * should, and misspelt keys get a "did you mean". */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "scenario.h"

static void set_ok(struct scenario *s, const char *key, const char *value)
{
	struct gp_error err;
	if (scenario_set(s, NULL, key, value, &err) != 0)
		fail_msg("%s=%s: %s", key, value, err.message);
}

static const char *set_bad(struct scenario *s, const char *key, const char *value)
{
	static struct gp_error err;
	struct scenario before = *s;
	if (scenario_set(s, NULL, key, value, &err) == 0)
		fail_msg("%s=%s was accepted", key, value);
	assert_memory_equal(&before, s, sizeof(before)); /* a failed set changes nothing */
	return err.message;
}

static void test_table_is_sane(void **state)
{
	(void)state;
	int n = scenario_field_count();
	assert_true(n > 60);
	/* the written-field bits and the : line's completion hold at most this many */
	assert_true(n <= SCENARIO_MAX_FIELDS);
	for (int i = 0; i < n; i++) {
		const struct field *f = &scenario_fields[i];
		assert_ptr_equal(scenario_field_find(f->key), f);
		assert_non_null(f->doc);
		assert_true(f->offset + (f->size ? f->size : 1) <= sizeof(struct scenario));
		for (int j = i + 1; j < n; j++)
			assert_string_not_equal(f->key, scenario_fields[j].key);
	}
}

/* Whatever a field formats, it reads back to the same value. */
static void test_every_field_roundtrips(void **state)
{
	struct scenario s, t;
	char buf[512];
	(void)state;
	scenario_init(&s);
	set_ok(&s, "model.params", "6.74B");
	set_ok(&s, "workload.tokens", "2T");
	set_ok(&s, "hardware.network", "400Gb/s");
	set_ok(&s, "hardware.storage", "2GB/s");
	set_ok(&s, "workload.deadline", "5d");
	set_ok(&s, "workload.slo.tpot", "50ms");
	set_ok(&s, "efficiency.mfu", "0.4");
	set_ok(&s, "workload.finetune.targets", "[q, v, down]");
	set_ok(&s, "name", "x: y");
	/* fields whose zero means "not given" are outside their range: give them values */
	set_ok(&s, "model.layers", "32");
	set_ok(&s, "model.hidden", "4096");
	set_ok(&s, "model.heads", "32");
	set_ok(&s, "model.ffn", "11008");
	set_ok(&s, "model.vocab", "32000");
	set_ok(&s, "model.max_context", "4096");
	set_ok(&s, "hardware.memory", "80GB");
	set_ok(&s, "hardware.hbm_bandwidth", "3.35TB/s");
	set_ok(&s, "hardware.link_bandwidth", "900GB/s");
	set_ok(&s, "hardware.power", "700W");
	for (const struct field *f = scenario_fields; f->key; f++) {
		if (!strcmp(f->key, "model.preset") || !strcmp(f->key, "hardware.gpu") ||
		    !strcmp(f->key, "model.hf_config"))
			continue;
		t = s;
		scenario_field_format(&s, f, buf, sizeof(buf));
		struct gp_error err;
		if (scenario_field_set(&t, NULL, f, buf, &err) != 0)
			fail_msg("%s: '%s' does not read back: %s", f->key, buf, err.message);
		assert_true(scenario_field_equal(&s, &t, f));
	}
}

static void test_values(void **state)
{
	struct scenario s;
	char buf[64];
	(void)state;
	scenario_init(&s);
	set_ok(&s, "workload.seq_len", "32k");
	assert_int_equal(s.workload.seq_len, 32000);
	set_ok(&s, "workload.batch", "auto");
	assert_int_equal(s.workload.batch, 0);
	scenario_field_format(&s, scenario_field_find("workload.batch"), buf, sizeof(buf));
	assert_string_equal(buf, "auto");
	set_ok(&s, "workload.kind", "online");
	assert_int_equal(s.workload.kind, WL_ONLINE);
	set_ok(&s, "workload.weights", "int4");
	assert_int_equal(s.workload.weights, DTYPE_INT4);
	set_ok(&s, "workload.finetune.targets", "q,k,v,o");
	assert_int_equal(s.workload.finetune.targets, LORA_Q | LORA_K | LORA_V | LORA_O);
	set_ok(&s, "hardware.network", "400Gb/s");
	assert_true(s.hardware.gpu.network_bytes_per_s == 50e9);
	set_ok(&s, "parallel.offload", "optimizer+params");
	assert_int_equal(s.parallel.offload, OFFLOAD_OPTIMIZER_PARAMS);
	set_ok(&s, "parallel.sequence_parallel", "true");
	assert_true(s.parallel.sequence_parallel);
}

static void test_rejects(void **state)
{
	struct scenario s;
	(void)state;
	scenario_init(&s);
	assert_non_null(strstr(set_bad(&s, "parallel.zero", "7"), "out of range"));
	assert_non_null(strstr(set_bad(&s, "hardware.count", "0"), "out of range"));
	assert_non_null(strstr(set_bad(&s, "hardware.count", "-8"), "out of range"));
	assert_non_null(strstr(set_bad(&s, "hardware.count", "2.5"), "whole number"));
	assert_non_null(strstr(set_bad(&s, "workload.seq_len", "nan"), "expected"));
	assert_non_null(strstr(set_bad(&s, "workload.seq_len", "inf"), "expected"));
	assert_non_null(strstr(set_bad(&s, "workload.tokens", "2TB"), "expected a count"));
	assert_non_null(strstr(set_bad(&s, "hardware.network", "400Gbit"), "bandwidth"));
	assert_non_null(strstr(set_bad(&s, "workload.kind", "training"), "train, finetune"));
	assert_non_null(strstr(set_bad(&s, "workload.flash_attention", "yes"), "true or false"));
	assert_non_null(strstr(set_bad(&s, "workload.finetune.targets", "[q, x]"), "'x'"));
	assert_non_null(strstr(set_bad(&s, "parallel.tp", "auto"), "expected"));
	assert_non_null(strstr(set_bad(&s, "workload.batchsize", "8"), "did you mean 'workload.batch'"));
	assert_non_null(strstr(set_bad(&s, "hardware.gpu", "h100"), "unknown GPU"));
}

static void test_assignment(void **state)
{
	struct scenario s;
	struct gp_error err;
	(void)state;
	scenario_init(&s);
	assert_int_equal(scenario_set_assignment(&s, NULL, "hardware.count=16", &err), 0);
	assert_int_equal(s.hardware.count, 16);
	assert_int_equal(scenario_set_assignment(&s, NULL, "workload.seq_len = 8192", &err), 0);
	assert_int_equal(s.workload.seq_len, 8192);
	assert_int_equal(scenario_set_assignment(&s, NULL, "hardware.count", &err), -1);
	assert_non_null(strstr(err.message, "KEY=VALUE"));
	assert_int_equal(scenario_set_assignment(&s, NULL, "=3", &err), -1);
}

static void test_suggest(void **state)
{
	(void)state;
	assert_string_equal(scenario_field_suggest("workload.seqlen", NULL), "workload.seq_len");
	assert_string_equal(scenario_field_suggest("batchsize", "workload."), "workload.batch");
	assert_string_equal(scenario_field_suggest("hardware.cuont", NULL), "hardware.count");
	assert_null(scenario_field_suggest("completely.unrelated.thing", NULL));
}

static void test_validate(void **state)
{
	struct scenario s;
	struct gp_problems p;
	(void)state;
	scenario_init(&s);
	s.model.layers = 32;
	s.model.hidden = 4096;
	s.model.heads = 32;
	s.model.kv_heads = 48;
	s.model.ffn = 11008;
	s.model.vocab = 32000;
	snprintf(s.hardware.gpu.id, sizeof(s.hardware.gpu.id), "x");
	s.hardware.count = 8;
	s.parallel.tp = 3;
	s.parallel.pp = 4;
	gp_problems_init(&p);
	scenario_validate(&s, NULL, &p);
	/* kv_heads above heads, heads not a multiple of kv_heads, tp not dividing heads,
	 * tp x pp above the GPUs: all reported, not just the first */
	assert_true(p.count >= 4);
	int saw_tp = 0, saw_kv = 0, saw_span = 0;
	for (int i = 0; i < p.count; i++) {
		saw_tp |= strstr(p.items[i].message, "does not divide the 32 attention heads") != NULL;
		saw_kv |= strstr(p.items[i].message, "kv_heads 48 is above heads 32") != NULL;
		saw_span |= strstr(p.items[i].message, "more than the 8 GPUs") != NULL;
	}
	assert_true(saw_tp && saw_kv && saw_span);

	s.model.kv_heads = 8;
	s.parallel.tp = 8;
	s.parallel.pp = 1;
	gp_problems_init(&p);
	scenario_validate(&s, NULL, &p);
	assert_int_equal(p.count, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_is_sane), cmocka_unit_test(test_every_field_roundtrips),
		cmocka_unit_test(test_values),	      cmocka_unit_test(test_rejects),
		cmocka_unit_test(test_assignment),    cmocka_unit_test(test_suggest),
		cmocka_unit_test(test_validate),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
