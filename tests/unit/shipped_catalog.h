/* shipped_catalog.h - the catalog/ folder loaded once for a cmocka group, for the unit tests
 * that plan the shipped scenarios and presets: `cat`, and shipped_catalog_setup/teardown
 * for cmocka_run_group_tests. Include once per test program, after cmocka.h. */
#ifndef GPUPLAN_TEST_SHIPPED_CATALOG_H
#define GPUPLAN_TEST_SHIPPED_CATALOG_H

#include <stdio.h>

#include "catalog.h"
#include "error.h"

static struct catalog *cat;

static int shipped_catalog_setup(void **state)
{
	struct gp_error err;
	(void)state;
	cat = catalog_new();
	if (!cat)
		return -1;
	if (catalog_load_dir(cat, "catalog", 0, &err) != 0) {
		char buf[512];
		fprintf(stderr, "%s\n", gp_error_format(&err, buf, sizeof(buf)));
		return -1;
	}
	return 0;
}

static int shipped_catalog_teardown(void **state)
{
	(void)state;
	catalog_free(cat);
	return 0;
}

#endif
