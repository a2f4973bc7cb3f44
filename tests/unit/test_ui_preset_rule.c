/* test_ui_preset_rule.c - changing the GPU or the model in the UI follows the rule --set follows:
 * the fields the file gave in the preset's section stay (gpuplan-scenario(5)). Lesson 8 gives its
 * own price_per_gpu_hour (2.69, the H100 SXM's catalog price); with another GPU the UI used to drop
 * it ($127/h) where `gpuplan report --set hardware.gpu=...` keeps it ($172/h) (issue 15, review
 * M2). Each UI path is checked against the command line's result. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "app.h"
#include "scenario_sets.h"
#include "scenario_yaml.h"
#include "shipped_catalog.h"

#define LESSON "scenarios/workshop/08-time-cost-and-deadlines.yaml"
#define OTHER  "h100-pcie-80gb"

static struct app app;
static struct scenario file, cli;
static struct scenario_source src;
static struct plan cli_plan;

/* The lesson as the command line reads it, and --set hardware.gpu=OTHER on it. */
static int setup(void **state)
{
	const char *set = "hardware.gpu=" OTHER;
	struct gp_error err;
	(void)state;
	if (scenario_load_file(LESSON, cat, &file, &src, NULL, &err) != 0)
		return -1;
	cli = file;
	if (scenario_apply_sets(&cli, cat, &set, 1, &src, NULL, &err) != 0)
		return -1;
	plan_compute(&cli, &cli_plan);
	app_init(&app, cat, &file, LESSON, 0);
	return 0;
}

static void key(int k)
{
	app_handle_key(&app, k);
	app_compute(&app);
}

/* what the CLI's result and the UI's must agree on */
static void same_as_cli(void)
{
	assert_string_equal(app.scn.hardware.gpu.id, OTHER);
	assert_true(cli.hardware.gpu.price_per_hour == 2.69);
	assert_true(app.scn.hardware.gpu.price_per_hour == cli.hardware.gpu.price_per_hour);
	assert_memory_equal(&app.scn.hardware, &cli.hardware, sizeof(cli.hardware));
	assert_true(app.plan.usd_per_hour == cli_plan.usd_per_hour);
	assert_true(app.plan.usd_total == cli_plan.usd_total);
}

static void test_set_gpu(void **state)
{
	(void)state;
	app_command(&app, "set hardware.gpu=" OTHER);
	app_compute(&app);
	assert_false(app.status_error);
	same_as_cli();
}

/* the picker: Enter on gpu, the id typed as the filter, Enter takes it */
static void test_picker_gpu(void **state)
{
	(void)state;
	key('3');
	key('g');
	assert_string_equal(app_selected_field(&app)->key, "hardware.gpu");
	key('\n');
	assert_int_equal(app.mode, MODE_PICK);
	for (const char *p = OTHER; *p; p++)
		key((unsigned char)*p);
	/* the preview already keeps the price */
	assert_true(app.scn.hardware.gpu.price_per_hour == 2.69);
	key('\n');
	assert_int_equal(app.mode, MODE_NORMAL);
	same_as_cli();
}

/* Right on gpu cycles through the catalog: each GPU as --set would give it */
static void test_cycle_gpu(void **state)
{
	(void)state;
	key('3');
	key('g');
	for (int i = 0; i < cat->ngpus && strcmp(app.scn.hardware.gpu.id, OTHER) != 0; i++) {
		key(KEYF(KEY_RIGHT));
		assert_true(app.scn.hardware.gpu.price_per_hour == 2.69);
	}
	same_as_cli();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup(test_set_gpu, setup),
	    cmocka_unit_test_setup(test_picker_gpu, setup),
	    cmocka_unit_test_setup(test_cycle_gpu, setup),
	};
	return cmocka_run_group_tests(tests, shipped_catalog_setup, shipped_catalog_teardown);
}
