/* test_ui_lesson.c - lesson mode (issue 15): :next and :prev walk scenarios/workshop/ in name
 * order, each lesson keeping the learner's edits until :reset. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "app.h"
#include "scenario_yaml.h"
#include "shipped_catalog.h"
#include "ui_app_shipped.h"

#define W "scenarios/workshop/"

static void start(const char *file)
{
	assert_int_equal(open_shipped(file), 0);
}

static void command(const char *c)
{
	app_command(&app, c);
	app_compute(&app);
}

static void test_walks_in_name_order(void **state)
{
	static const char *const order[] = {
	    W "01-weights-and-precision.yaml",
	    W "02-optimizer-states-and-zero.yaml",
	    W "03-activations-and-recomputation.yaml",
	    W "04-kv-cache-and-batch.yaml",
	    W "05-quantization.yaml",
	    W "06-parallel-layouts-and-bottlenecks.yaml",
	    W "07-mixture-of-experts.yaml",
	    W "08-time-cost-and-deadlines.yaml",
	    W "09-measure-then-plan.yaml",
	};
	(void)state;
	start(order[0]);
	for (int i = 1; i < 9; i++) {
		command("next");
		assert_string_equal(app.path, order[i]);
		assert_false(app_unsaved(&app));
	}
	assert_non_null(strstr(app.status, "lesson 9 of 9"));
	command("next");
	assert_string_equal(app.path, order[8]);
	assert_non_null(strstr(app.status, "the last lesson"));
	for (int i = 7; i >= 0; i--) {
		command("prev");
		assert_string_equal(app.path, order[i]);
	}
	command("prev");
	assert_string_equal(app.path, order[0]);
	assert_non_null(strstr(app.status, "the first lesson"));
}

static void test_edits_kept_per_lesson_until_reset(void **state)
{
	int count;
	(void)state;
	start(W "01-weights-and-precision.yaml");
	count = app.scn.hardware.count;
	command("set hardware.count=64");
	command("next");
	assert_string_equal(app.path, W "02-optimizer-states-and-zero.yaml");
	assert_false(app_unsaved(&app)); /* lesson 2 as its file has it */
	command("set workload.seq_len=1024");
	command("prev");
	assert_string_equal(app.path, W "01-weights-and-precision.yaml");
	assert_int_equal(app.scn.hardware.count, 64); /* the learner's edit is back */
	assert_true(app_unsaved(&app));
	assert_non_null(strstr(app.status, "your edits"));
	command("next");
	assert_true(app.scn.workload.seq_len == 1024);
	command("prev");
	/* :reset drops lesson 1's edits, as one undoable edit */
	command("reset");
	assert_int_equal(app.scn.hardware.count, count);
	assert_false(app_unsaved(&app));
	app_handle_key(&app, 'u');
	app_compute(&app);
	assert_int_equal(app.scn.hardware.count, 64);
	command("reset");
	command("next");
	command("prev");
	assert_int_equal(app.scn.hardware.count, count); /* stays reset */
}

static void test_without_a_file(void **state)
{
	struct scenario s;
	struct gp_error err;
	(void)state;
	assert_int_equal(scenario_init_builtin(&s, cat, &err), 0);
	app_init(&app, cat, &s, NULL, 0);
	command("next");
	assert_true(app.status_error);
	assert_non_null(strstr(app.status, "folder of the scenario's file"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_walks_in_name_order),
	    cmocka_unit_test(test_edits_kept_per_lesson_until_reset),
	    cmocka_unit_test(test_without_a_file),
	};
	return cmocka_run_group_tests(tests, shipped_catalog_setup, shipped_catalog_teardown);
}
