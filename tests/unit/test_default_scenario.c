/* test_default_scenario.c - scenarios/default.yaml is the built-in scenario written out
 * (scenario_init_builtin): the two must agree on every field of the field table, so that the
 * file documents what `gpuplan` opens without one. Also: every shipped scenario loads without
 * a problem. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "catalog.h"
#include "shipped_catalog.h"
#include "scenario.h"
#include "scenario_yaml.h"

static void test_default_file_is_the_builtin(void **state)
{
	static struct scenario builtin, file;
	struct gp_error err;
	char a[512], b[512];
	(void)state;

	assert_int_equal(scenario_init_builtin(&builtin, cat, &err), 0);
	if (scenario_load_file("scenarios/default.yaml", cat, &file, NULL, NULL, &err) != 0)
		fail_msg("scenarios/default.yaml: %s", err.message);
	for (const struct field *f = scenario_fields; f->key; f++) {
		if (scenario_field_equal(&builtin, &file, f))
			continue;
		fail_msg("%s: built-in %s, scenarios/default.yaml %s", f->key,
			 scenario_field_format(&builtin, f, a, sizeof(a)),
			 scenario_field_format(&file, f, b, sizeof(b)));
	}
}

/* Every file in scenarios/ and scenarios/workshop/ loads and validates cleanly. */
static void check_folder(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)) != NULL) {
		static struct scenario s;
		static struct gp_problems problems;
		struct gp_error err;
		char path[512];
		size_t len = strlen(e->d_name);

		if (len < 6 || strcmp(e->d_name + len - 5, ".yaml") != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		gp_problems_init(&problems);
		if (scenario_load_file(path, cat, &s, NULL, &problems, &err) != 0)
			fail_msg("%s: %s", path, err.message);
		scenario_validate(&s, NULL, &problems);
		if (problems.count)
			fail_msg("%s: %s", path, problems.items[0].message);
		n++;
	}
	closedir(d);
	assert_true(n > 0);
}

static void test_shipped_scenarios_load(void **state)
{
	(void)state;
	check_folder("scenarios");
	check_folder("scenarios/workshop");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_default_file_is_the_builtin),
	    cmocka_unit_test(test_shipped_scenarios_load),
	};
	return cmocka_run_group_tests(tests, shipped_catalog_setup, shipped_catalog_teardown);
}
