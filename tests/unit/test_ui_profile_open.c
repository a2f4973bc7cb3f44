/* test_ui_profile_open.c - a calibration profile belongs to the session: `gpuplan --profile NAME
 * FILE` plans FILE with the profile's knobs, and so is every file :e opens later (issue 17), as the
 * command line plans each file it is given with --profile; a session without one plans :e's file
 * with its own knobs. The fixture profile (tests/data/profiles) gives efficiency.mfu 0.4. */
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
#include "profile.h"
#include "report.h"
#include "scenario_yaml.h"
#include "shipped_catalog.h"
#include "ui_app_shipped.h"

#define FIRST "tests/data/cli/train.yaml"
#define OTHER "tests/data/cli/train-1gpu.yaml"

/* FIRST read as `gpuplan --profile test-h100x8 FILE` reads it: the profile applied. */
static int setup_profiled(void **state)
{
	static struct profile pr;
	struct scenario s;
	struct gp_error err = {0};
	bool missing = false;
	char dir[4096];

	(void)state;
	/* XDG_CONFIG_HOME is taken only when absolute: the fixture under the tree's root,
	 * where the tests run */
	if (!getcwd(dir, sizeof(dir) - 32))
		return -1;
	strcat(dir, "/tests/data/profiles");
	if (setenv("XDG_CONFIG_HOME", dir, 1) != 0 ||
	    profile_load("test-h100x8", cat, &pr, &missing, &err) != 0 ||
	    scenario_load_file(FIRST, cat, &s, NULL, NULL, &err) != 0) {
		fprintf(stderr, "setup: %s\n", err.message);
		return -1;
	}
	profile_apply(&pr, &s);
	app_init(&app, cat, &s, FIRST, 0);
	app_compute(&app);
	return 0;
}

static void open_other(void)
{
	app_command(&app, "e " OTHER);
	app_compute(&app);
	assert_false(app.status_error);
	assert_string_equal(app.path, OTHER);
}

static void test_open_keeps_profile(void **state)
{
	(void)state;
	assert_float_equal(app.plan.mfu, 0.4, 1e-9);
	open_other();
	assert_string_equal(app.scn.profile, "test-h100x8");
	assert_float_equal(app.scn.efficiency.mfu, 0.4, 0);
	assert_float_equal(app.plan.mfu, 0.4, 1e-9);
	assert_non_null(strstr(report_source_mfu(&app.scn), "from the calibration profile"));
	/* the file as read with the profile: nothing to save */
	assert_false(app_unsaved(&app));
}

static void test_open_without_profile(void **state)
{
	double mfu;

	(void)state;
	assert_int_equal(open_shipped(OTHER), 0);
	app_compute(&app);
	mfu = app.plan.mfu;
	assert_true(mfu > 0 && mfu != 0.4);
	assert_int_equal(open_shipped(FIRST), 0);
	app_compute(&app);
	open_other();
	assert_string_equal(app.scn.profile, "");
	assert_float_equal(app.scn.efficiency.mfu, 0, 0);
	assert_float_equal(app.plan.mfu, mfu, 1e-12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup(test_open_keeps_profile, setup_profiled),
	    cmocka_unit_test(test_open_without_profile),
	};
	return cmocka_run_group_tests(tests, shipped_catalog_setup, shipped_catalog_teardown);
}
