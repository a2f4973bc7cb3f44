/* test_ui_set_preset.c - a preset set on the : line keeps the fields the file gave in its section,
 * as --set does (gpuplan-scenario(5): the fields written in the file override the preset). */
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
#include "ui_catalog.h"

static struct catalog cat;
static struct app app;
static struct scenario file;
static struct scenario_source src;

static const char text[] = "gpuplan: 1\n"
			   "model:\n"
			   "  preset: llama-3.1-8b\n"
			   "  layers: 20\n"
			   "workload:\n"
			   "  kind: train\n"
			   "hardware:\n"
			   "  gpu: h100-sxm-80gb\n"
			   "  gpus_per_node: 4\n"
			   "  count: 8\n";

static int setup(void **state)
{
	struct gp_error err;
	(void)state;
	if (cat.ngpus == 0) {
		ui_cat_add_gpu(&cat, "h100-sxm-80gb", 80e9, 1e15, 2);
		ui_cat_add_gpu(&cat, "a100-80gb-sxm", 40e9, 3e14, 1);
		ui_cat_add_model(&cat, "llama-3.1-8b", 32, 4096, 32, 8, 14336);
		ui_cat_add_model(&cat, "llama-3.1-70b", 80, 8192, 64, 8, 28672);
	}
	if (scenario_parse(text, strlen(text), "preset.yaml", &cat, &file, &src, NULL, &err) != 0)
		return -1;
	app_init(&app, &cat, &file, NULL, 0);
	return 0;
}

/* --set model.preset=llama-3.1-70b on the file keeps its 20 layers */
static void test_cli_rule(void **state)
{
	const char *sets[] = {"model.preset=llama-3.1-70b", "hardware.gpu=a100-80gb-sxm"};
	struct scenario s = file;
	struct gp_error err;
	int bad;
	(void)state;
	assert_int_equal(scenario_apply_sets(&s, &cat, sets, 2, &src, &bad, &err), 0);
	assert_string_equal(s.model.preset, "llama-3.1-70b");
	assert_int_equal(s.model.hidden, 8192);
	assert_int_equal(s.model.layers, 20);
	assert_string_equal(s.hardware.gpu.id, "a100-80gb-sxm");
	assert_int_equal(s.hardware.gpu.gpus_per_node, 4);
	assert_true(s.hardware.gpu.memory_bytes == 40e9);
}

/* the same rule on the : line, which has no loader's key list: the fields that differ from
 * the preset are the file's */
static void test_ui_set_preset(void **state)
{
	(void)state;
	assert_int_equal(app.scn.model.layers, 20);
	app_command(&app, "set model.preset=llama-3.1-70b");
	assert_false(app.status_error);
	assert_string_equal(app.scn.model.preset, "llama-3.1-70b");
	assert_int_equal(app.scn.model.hidden, 8192);
	assert_int_equal(app.scn.model.heads, 64);
	assert_int_equal(app.scn.model.layers, 20);
	app_command(&app, "set hardware.gpu = a100-80gb-sxm");
	assert_false(app.status_error);
	assert_string_equal(app.scn.hardware.gpu.id, "a100-80gb-sxm");
	assert_int_equal(app.scn.hardware.gpu.gpus_per_node, 4);
	assert_int_equal(app.scn.hardware.count, 8);
}

/* a preset that does not exist leaves the scenario as it was, with the --set message */
static void test_ui_set_unknown_preset(void **state)
{
	struct scenario before = app.scn;
	(void)state;
	app_command(&app, "set model.preset=llama-9");
	assert_true(app.status_error);
	assert_non_null(strstr(app.status, "unknown model 'llama-9'"));
	assert_memory_equal(&app.scn, &before, sizeof(before));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup(test_cli_rule, setup),
	    cmocka_unit_test_setup(test_ui_set_preset, setup),
	    cmocka_unit_test_setup(test_ui_set_unknown_preset, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
