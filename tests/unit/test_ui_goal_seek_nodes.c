/* test_ui_goal_seek_nodes.c - goal seek on hardware.count proposes whole nodes past one node (issue
 * 15, review m14): seed 12 (a 70B full training on 8-GPU H100 nodes) with 80 GB (decimal) cards
 * fits from 17 GPUs, two nodes and one GPU; the UI proposes 24, three nodes, and says 17 is the
 * exact bound. (With the catalog's 79.11 GiB that CUDA reports it fits from 16, whole nodes
 * already, so the card is given 80 GB here to keep a count that is not a node's multiple.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "app.h"
#include "scenario_yaml.h"
#include "search.h"
#include "shipped_catalog.h"
#include "ui_app_shipped.h"

static void load(const char *file)
{
	assert_int_equal(open_shipped(file), 0);
	app.scn.hardware.gpu.memory_bytes = 80e9; /* hardware.memory: 80GB */
}

static void test_seed12_min_count_whole_nodes(void **state)
{
	double exact;
	struct gp_error err;
	(void)state;
	load("scenarios/seed-12-70b-full-training-8xh100.yaml");
	assert_int_equal(app.scn.hardware.gpu.gpus_per_node, 8);
	/* the exact bound the core finds (gpuplan solve --min hardware.count) */
	assert_int_equal(search_solve(&app.scn, "hardware.count", false, &exact, &err), 0);
	assert_true(exact == 17);
	app.dirty |= app_goal_seek(&app, "hardware.count", false);
	app_compute(&app);
	assert_int_equal(app.scn.hardware.count, 24);
	assert_int_equal(app.scn.hardware.count % 8, 0);
	assert_true(app.plan.mem.fits);
	assert_non_null(strstr(app.status, "whole nodes"));
	assert_non_null(strstr(app.status, "17"));
}

static void test_within_a_node_and_whole_counts_kept(void **state)
{
	(void)state;
	load("scenarios/seed-12-70b-full-training-8xh100.yaml");
	assert_true(goal_seek_node_count(&app.scn, 4, false) == 4);
	assert_true(goal_seek_node_count(&app.scn, 32, false) == 32);
	/* past a node, up for the least, down for the most */
	assert_true(goal_seek_node_count(&app.scn, 17, false) == 24);
	assert_true(goal_seek_node_count(&app.scn, 31, true) == 24);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_seed12_min_count_whole_nodes),
	    cmocka_unit_test(test_within_a_node_and_whole_counts_kept),
	};
	return cmocka_run_group_tests(tests, shipped_catalog_setup, shipped_catalog_teardown);
}
