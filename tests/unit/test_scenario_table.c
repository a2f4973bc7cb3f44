/* test_scenario_table.c - the field table's own rules: every row labelled, each pane's rows
 * its fields in table order, presets and auto figures declared where they are used; enum
 * names looked up;
 * setting a field never reads a file, loading one does; --set's order of presets and fields. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "plan.h"
#include "scenario.h"
#include "scenario_sets.h"

static void test_rows(void **state)
{
	(void)state;
	for (int pane = FIELD_PANE_MODEL; pane <= FIELD_PANE_HARDWARE; pane++) {
		const struct field *f = NULL;
		int row = 0;
		/* a pane's rows are its fields in table order, each once, those marked
		 * FIELD_PANE_LAST after the others: no number to keep */
		for (int last = 0; last < 2; last++)
			for (const struct field *g = scenario_fields; g->key; g++) {
				if ((int)g->pane != pane || !(g->flags & FIELD_PANE_LAST) != !last)
					continue;
				f = scenario_pane_next((enum field_pane)pane, f);
				assert_ptr_equal(f, g);
				assert_ptr_equal(scenario_pane_field((enum field_pane)pane, ++row),
						 g);
			}
		assert_true(row > 0);
		assert_null(scenario_pane_next((enum field_pane)pane, f));
		assert_null(scenario_pane_field((enum field_pane)pane, row + 1));
		assert_null(scenario_pane_field((enum field_pane)pane, 0));
	}
	assert_null(scenario_pane_next(FIELD_PANE_NONE, NULL));
	assert_null(scenario_pane_field(FIELD_PANE_NONE, 1));
}

/* The Model pane opens with the preset and the shape a user edits; the config path and the
 * size, blank under a preset, come after it (at 80x24 the pane shows five rows). */
static void test_model_pane_order(void **state)
{
	static const char *const first[] = {"model.preset", "model.layers", "model.hidden",
					    "model.heads", "model.kv_heads"};
	const struct field *f = NULL, *last = NULL;
	(void)state;
	for (size_t i = 0; i < sizeof(first) / sizeof(first[0]); i++)
		assert_string_equal(scenario_pane_field(FIELD_PANE_MODEL, (int)i + 1)->key,
				    first[i]);
	while ((f = scenario_pane_next(FIELD_PANE_MODEL, f)))
		last = f;
	assert_non_null(last);
	assert_string_equal(last->key, "model.params");
	/* the saved order is the table's: the config and the size still follow the preset */
	assert_true(scenario_field_find("model.hf_config") ==
		    scenario_field_find("model.preset") + 1);
}

static void test_every_row(void **state)
{
	(void)state;
	for (const struct field *f = scenario_fields; f->key; f++) {
		if (!f->label || !f->label[0])
			fail_msg("%s has no label", f->key);
		/* what auto resolves to is known for every field that takes auto */
		if (f->auto_ok != (f->resolved_kind != FIELD_RESOLVED_NONE))
			fail_msg("%s: auto without a resolved figure, or the reverse", f->key);
		if ((f->catalog != FIELD_CATALOG_NONE || (f->flags & FIELD_FILE)) &&
		    !(f->flags & FIELD_PRESET))
			fail_msg("%s: a catalog id or a file gives a whole section", f->key);
		if ((f->flags & FIELD_PRESET) && f->type != FIELD_STR)
			fail_msg("%s: a preset is named by text", f->key);
		if ((f->flags & FIELD_STEP_DOUBLES) && f->type != FIELD_INT && f->type != FIELD_NUM)
			fail_msg("%s: only numbers double", f->key);
	}
}

static void test_names(void **state)
{
	const struct field *kind = scenario_field_find("workload.kind");
	const struct field *flash = scenario_field_find("workload.flash_attention");
	const struct field *kv = scenario_field_find("workload.kv_cache");
	(void)state;
	assert_string_equal(scenario_enum_name("workload.recompute", RECOMPUTE_FULL), "full");
	assert_string_equal(scenario_enum_name("parallel.offload", OFFLOAD_OPTIMIZER_PARAMS),
			    "optimizer+params");
	assert_string_equal(scenario_enum_name("workload.optimizer", OPT_NONE), "none");
	assert_string_equal(scenario_enum_name("workload.engine", ENGINE_CUDA_GRAPHS),
			    "cuda-graphs");
	assert_string_equal(scenario_enum_name("workload.optimizer", 4), "?");
	assert_string_equal(scenario_enum_name("workload.optimizer", -1), "?");
	assert_string_equal(scenario_enum_name("workload.seq_len", 0), "?");
	assert_string_equal(scenario_enum_name("no.such", 0), "?");
	assert_string_equal(field_choice_name(kind, WL_OFFLINE), "offline");
	assert_null(field_choice_name(kind, WL_COUNT));
	assert_string_equal(field_choice_name(flash, 1), "true");
	assert_string_equal(field_choice_name(flash, 0), "false");
	assert_null(field_choice_name(flash, 2));
	assert_string_equal(field_choice_name(kv, 0), "fp32");
}

static void test_resolved(void **state)
{
	struct plan p;
	(void)state;
	memset(&p, 0, sizeof(p));
	p.dp = 6;
	p.max_batch = 41.5;
	p.model.kv_heads = 8;
	assert_true(scenario_field_resolved(scenario_field_find("parallel.dp"), &p) == 6);
	assert_true(scenario_field_resolved(scenario_field_find("workload.batch"), &p) == 41.5);
	assert_true(scenario_field_resolved(scenario_field_find("model.kv_heads"), &p) == 8);
	assert_true(scenario_field_resolved(scenario_field_find("model.layers"), &p) == 0);
}

/* a file a field names is read by the loader's step, never by setting the field */
static void test_file_fields(void **state)
{
	const struct field *f = scenario_field_find("model.hf_config");
	struct scenario s, before;
	struct gp_error err;
	(void)state;
	scenario_init(&s);
	snprintf(s.path, sizeof(s.path), "tests/data/scenarios/x.yaml");
	before = s;
	assert_int_equal(scenario_field_set(&s, NULL, f, "../configs/Llama-2-7b-hf.json", &err),
			 -1);
	assert_int_equal(err.code, GP_EINTERNAL);
	assert_memory_equal(&s, &before, sizeof(s));
	assert_int_equal(scenario_field_load(&s, NULL, f, "../configs/Llama-2-7b-hf.json", &err),
			 0);
	assert_string_equal(s.model.hf_config, "../configs/Llama-2-7b-hf.json");
	assert_int_equal(s.model.layers, 32);
	assert_int_equal(scenario_field_load(&s, NULL, f, "../configs/none.json", &err), -1);
	assert_int_equal(err.code, GP_EIO);
	assert_string_equal(err.field, "model.hf_config");
	assert_int_equal(s.model.layers, 32);
}

static void test_apply_sets(void **state)
{
	const char *sets[] = {"hardware.count=16", "parallel.tp=2", "nosuch=1", "parallel.pp=2"};
	struct scenario s;
	struct gp_error err;
	int bad = 7;
	(void)state;
	scenario_init(&s);
	assert_int_equal(scenario_apply_sets(&s, NULL, sets, 2, NULL, &bad, &err), 0);
	assert_int_equal(bad, -1);
	assert_int_equal(s.hardware.count, 16);
	assert_int_equal(scenario_apply_sets(&s, NULL, sets, 4, NULL, &bad, &err), -1);
	assert_int_equal(bad, 2);
	assert_non_null(strstr(err.message, "unknown key 'nosuch'"));
	assert_int_equal(s.parallel.pp, 1); /* in order: the one after it is not applied */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_rows),       cmocka_unit_test(test_model_pane_order),
	    cmocka_unit_test(test_every_row),  cmocka_unit_test(test_names),
	    cmocka_unit_test(test_resolved),   cmocka_unit_test(test_file_fields),
	    cmocka_unit_test(test_apply_sets),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
