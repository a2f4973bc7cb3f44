/* shipped_scenarios.h - each_shipped_scenario: calls check on the path of every .yaml file
 * in scenarios/ and scenarios/workshop/ (the tests run from the tree's root), for the unit
 * tests that hold every shipped scenario to a property. Needs cmocka.h first. */
#ifndef GPUPLAN_TEST_SHIPPED_SCENARIOS_H
#define GPUPLAN_TEST_SHIPPED_SCENARIOS_H

#include <dirent.h>
#include <stdio.h>
#include <string.h>

static void each_shipped_scenario(void (*check)(const char *path))
{
	static const char *const dirs[] = {"scenarios", "scenarios/workshop"};

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		DIR *d = opendir(dirs[i]);
		struct dirent *e;

		assert_non_null(d);
		while ((e = readdir(d)) != NULL) {
			char path[512];
			size_t n = strlen(e->d_name);
			if (n < 6 || strcmp(e->d_name + n - 5, ".yaml") != 0)
				continue;
			snprintf(path, sizeof(path), "%s/%s", dirs[i], e->d_name);
			check(path);
		}
		closedir(d);
	}
}

#endif
