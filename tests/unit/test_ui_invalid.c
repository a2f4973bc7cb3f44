/* test_ui_invalid.c - a scenario that `gpuplan check` rejects is not shown as a plan, nor saved
 * without :w!: the UI runs the same validation (scenario_validate) on every edit, marks the field
 * at fault and lists the problems in place of the results (issue 15, review M1). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "app.h"
#include "ui_catalog.h"

static struct catalog cat;
static struct app app;
static char dir[64];

static int setup(void **state)
{
	struct scenario s;
	struct gp_error err;
	(void)state;
	if (cat.ngpus == 0) {
		ui_cat_add_gpu(&cat, "h100-sxm-80gb", 80e9, 1e15, 2);
		ui_cat_add_model(&cat, "llama-3.1-8b", 32, 4096, 32, 8, 14336);
		ui_cat_add_model(&cat, "llama-3.1-70b", 80, 8192, 64, 8, 28672);
	}
	if (scenario_init_builtin(&s, &cat, &err) != 0)
		return -1;
	app_init(&app, &cat, &s, NULL, 0);
	return 0;
}

static void key(int k)
{
	app_handle_key(&app, k);
	app_compute(&app);
}

static void command(const char *c)
{
	app_command(&app, c);
	app_compute(&app);
}

/* The field's row selected in the focused pane: Down until it is (or the pane ends). */
static void select_field(const char *k)
{
	for (int i = 0; i < 60; i++) {
		const struct field *f = app_selected_field(&app);
		if (f && strcmp(f->key, k) == 0)
			return;
		key(KEYF(KEY_DOWN));
	}
	fail_msg("no field %s in the pane", k);
}

/* + on tp past the 8 GPUs: no "fits", the problem in the pane, tp marked */
static void test_step_tp_past_gpus(void **state)
{
	const struct field *tp = scenario_field_find("parallel.tp");
	(void)state;
	assert_int_equal(app.scn.hardware.count, 8);
	assert_false(pane_results_invalid(&app));
	assert_string_equal(pane_results_fit(&app), "fits");
	key('2');
	key('g');
	select_field("parallel.tp");
	while (app.scn.parallel.tp < 16)
		key('+');
	assert_int_equal(app.scn.parallel.tp, 16);
	assert_true(pane_results_invalid(&app));
	assert_string_equal(pane_results_fit(&app), "does not check");
	assert_non_null(app_field_problem(&app, tp));
	/* the results' items are the problems, not figures that cost money */
	assert_int_equal(app.nresult_items, app.problems.count);
	for (int i = 0; i < app.nresult_items; i++)
		assert_null(strstr(app.result_keys[i], "cost."));
	/* and the field's problem says the GPU count */
	assert_non_null(strstr(app_field_problem(&app, tp)->message, "8 GPUs"));
	key('+');
	assert_int_equal(app.scn.parallel.tp, 32);
	assert_true(pane_results_invalid(&app));
	/* undo back to a valid layout: the plan comes back */
	key('u');
	key('u');
	key('u');
	key('u');
	key('u');
	assert_false(pane_results_invalid(&app));
	assert_string_equal(pane_results_fit(&app), "fits");
}

/* :set parallel.tp=3 on a 64-head model: tp 3 does not divide the heads */
static void test_set_tp_3_on_64_heads(void **state)
{
	const struct field *tp = scenario_field_find("parallel.tp");
	(void)state;
	command("set model.preset=llama-3.1-70b");
	command("set hardware.count=64");
	assert_false(pane_results_invalid(&app));
	command("set parallel.tp=3");
	assert_false(app.status_error); /* the value reads: it is the layout that is wrong */
	assert_int_equal(app.scn.parallel.tp, 3);
	assert_true(pane_results_invalid(&app));
	assert_non_null(app_field_problem(&app, tp));
	assert_non_null(strstr(app_field_problem(&app, tp)->message, "divide"));
}

/* :w refuses a scenario that does not check, naming the problem; :w! writes it */
static void test_save_refuses_invalid(void **state)
{
	char file[128];
	(void)state;
	snprintf(file, sizeof(file), "%s/bad.yaml", dir);
	command("set parallel.tp=16");
	assert_true(pane_results_invalid(&app));
	{
		char cmd[160];
		snprintf(cmd, sizeof(cmd), "w %s", file);
		command(cmd);
	}
	assert_true(app.status_error);
	assert_non_null(strstr(app.status, "not saved"));
	assert_non_null(strstr(app.status, "parallel.tp"));
	assert_non_null(strstr(app.status, ":w!"));
	assert_int_equal(access(file, F_OK), -1);
	assert_true(app_unsaved(&app));
	{
		char cmd[160];
		snprintf(cmd, sizeof(cmd), "w! %s", file);
		command(cmd);
	}
	assert_false(app.status_error);
	assert_int_equal(access(file, F_OK), 0);
	assert_false(app_unsaved(&app));
	unlink(file);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup(test_step_tp_past_gpus, setup),
	    cmocka_unit_test_setup(test_set_tp_3_on_64_heads, setup),
	    cmocka_unit_test_setup(test_save_refuses_invalid, setup),
	};
	int rc;
	snprintf(dir, sizeof(dir), "%s", "/tmp/gpuplan-invalid-XXXXXX");
	if (!mkdtemp(dir))
		return 1;
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	rmdir(dir);
	return rc;
}
