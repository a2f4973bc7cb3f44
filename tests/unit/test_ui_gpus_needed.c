/* test_ui_gpus_needed.c - the Results pane lists "gpus needed" (capacity_plan.gpus_required, the
 * count that meets the deadline) for training and offline scenarios with a deadline, as the text
 * report prints it (issue 15, review M5), and leaves it out when there is no deadline. */
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

static bool listed(const char *key)
{
	for (int i = 0; i < app.nresult_items; i++)
		if (strcmp(app.result_keys[i], key) == 0)
			return true;
	return false;
}

static void open_file(const char *path)
{
	assert_int_equal(open_shipped(path), 0);
}

static void test_training_deadline(void **state)
{
	char v[64];
	(void)state;
	open_file("scenarios/workshop/08-time-cost-and-deadlines.yaml");
	assert_true(app.plan.gpus_required > 0);
	assert_true(listed("capacity_plan.gpus_required"));
	pane_results_value(&app, "capacity_plan.gpus_required", v, sizeof(v));
	assert_string_equal(v, "128"); /* what report and solve --min hardware.count say */
}

static void test_offline_deadline(void **state)
{
	(void)state;
	open_file("scenarios/team-offline-scoring.yaml");
	assert_true(app.plan.gpus_required > 0);
	assert_true(listed("capacity_plan.gpus_required"));
}

static void test_no_deadline(void **state)
{
	(void)state;
	open_file("scenarios/default.yaml");
	assert_true(app.scn.workload.deadline_s == 0);
	assert_false(listed("capacity_plan.gpus_required"));
	assert_true(listed("time.total_s"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_training_deadline),
	    cmocka_unit_test(test_offline_deadline),
	    cmocka_unit_test(test_no_deadline),
	};
	return cmocka_run_group_tests(tests, shipped_catalog_setup, shipped_catalog_teardown);
}
