/* test_ui_baseline_open.c - a baseline belongs to the scenario it was pinned on: :e of another file
 * clears it and says so (a baseline of a training run against a serving plan compares nothing), :e
 * of the same file keeps it, and its mark names the file when the session went on with another (:w
 * NEW) (issue 15, review m3). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "app.h"
#include "scenario_yaml.h"
#include "shipped_catalog.h"
#include "ui_app_shipped.h"

#define LESSON "scenarios/workshop/08-time-cost-and-deadlines.yaml"
#define SERVE  "scenarios/default.yaml"

static int setup(void **state)
{
	(void)state;
	return open_shipped(LESSON);
}

static void key(int k)
{
	app_handle_key(&app, k);
	app_compute(&app);
}

static void test_open_other_clears(void **state)
{
	char mark[96];
	(void)state;
	key('b');
	assert_true(app.has_baseline);
	assert_string_equal(app_baseline_mark(&app, mark, sizeof(mark)), "[baseline]");
	app_command(&app, "e " SERVE);
	app_compute(&app);
	assert_false(app.status_error);
	assert_string_equal(app.path, SERVE);
	assert_false(app.has_baseline);
	assert_non_null(strstr(app.status, "baseline"));
	assert_non_null(strstr(app.status, "08-time-cost-and-deadlines.yaml"));
	assert_string_equal(app_baseline_mark(&app, mark, sizeof(mark)), "");
}

static void test_reopen_same_keeps(void **state)
{
	(void)state;
	key('b');
	app_command(&app, "e " LESSON);
	app_compute(&app);
	assert_true(app.has_baseline);
}

/* pinned on the lesson, the session goes on with a copy: the mark says whose it is */
static void test_mark_names_file(void **state)
{
	char mark[96], path[64], cmd[96];
	(void)state;
	snprintf(path, sizeof(path), "/tmp/gpuplan-baseline-%d.yaml", (int)getpid());
	key('b');
	snprintf(cmd, sizeof(cmd), "w %s", path);
	app_command(&app, cmd);
	app_compute(&app);
	assert_false(app.status_error);
	assert_true(app.has_baseline);
	assert_string_equal(app_baseline_mark(&app, mark, sizeof(mark)),
			    "[baseline: 08-time-cost-and-deadlines.yaml]");
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup(test_open_other_clears, setup),
	    cmocka_unit_test_setup(test_reopen_same_keeps, setup),
	    cmocka_unit_test_setup(test_mark_names_file, setup),
	};
	return cmocka_run_group_tests(tests, shipped_catalog_setup, shipped_catalog_teardown);
}
