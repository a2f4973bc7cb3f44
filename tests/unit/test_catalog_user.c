/* test_catalog_user.c - a user's model file that does not import is skipped with one
 * warning naming it and the reason, and the rest of the catalog loads (issue 14). Runs
 * from the repository root (make check), with a user catalog made in a temporary folder. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "catalog.h"

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static const char *warning_of(const struct catalog *cat, const char *part)
{
	for (int i = 0; i < cat->nwarnings; i++)
		if (strstr(cat->warnings[i], part))
			return cat->warnings[i];
	return NULL;
}

static void test_bad_user_files_skipped(void **state)
{
	char tmpl[] = "/tmp/gpuplan-user.XXXXXX", dir[300], path[4200];
	struct catalog *cat = catalog_new();
	struct gp_error err = {0};
	const char *w;
	char cwd[4096];
	(void)state;
	assert_non_null(cat);
	assert_non_null(mkdtemp(tmpl));
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	snprintf(dir, sizeof(dir), "%s/gpuplan/models", tmpl);
	snprintf(path, sizeof(path), "%s/gpuplan", tmpl);
	assert_int_equal(mkdir(path, 0700), 0);
	assert_int_equal(mkdir(dir, 0700), 0);
	/* a folder named like a config, bad JSON, an unknown model type, and a good one */
	snprintf(path, sizeof(path), "%s/folder.json", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/broken.json", dir);
	put(path, "{\"model_type\": \"llama\",\n");
	snprintf(path, sizeof(path), "%s/strange.json", dir);
	put(path, "{\"model_type\": \"no_such_family\", \"d\": 1}\n");
	snprintf(path, sizeof(path), "%s/tiny.json", dir);
	put(path, "{\"model_type\": \"llama\", \"num_hidden_layers\": 2, \"hidden_size\": 64, "
		  "\"num_attention_heads\": 4, \"intermediate_size\": 128, \"vocab_size\": 10}\n");
	setenv("XDG_CONFIG_HOME", tmpl, 1);
	snprintf(path, sizeof(path), "%s/catalog", cwd);
	setenv("GPUPLAN_CATALOG", path, 1);

	assert_int_equal(catalog_load_default(cat, NULL, &err), 0);
	assert_non_null(catalog_find_model(cat, "tiny"));
	assert_non_null(catalog_find_model(cat, "llama-3.2-1b")); /* the shipped ones load */
	assert_null(catalog_find_model(cat, "broken"));
	assert_null(catalog_find_model(cat, "strange"));
	assert_null(catalog_find_model(cat, "folder"));
	assert_int_equal(cat->nwarnings, 3);
	w = warning_of(cat, "broken.json");
	assert_non_null(w);
	assert_non_null(strstr(w, "invalid JSON"));
	assert_non_null(strstr(w, "skipped"));
	w = warning_of(cat, "strange.json");
	assert_non_null(w);
	assert_non_null(strstr(w, "no_such_family"));
	assert_non_null(warning_of(cat, "folder.json"));

	/* the same files in a catalog loaded as such (not the user's) still fail */
	{
		struct catalog *strict = catalog_new();
		snprintf(path, sizeof(path), "%s/gpuplan", tmpl);
		assert_int_equal(catalog_load_dir(strict, path, 1, &err), -1);
		catalog_free(strict);
	}
	catalog_free(cat);
	snprintf(path, sizeof(path), "rm -rf '%s'", tmpl);
	assert_int_equal(system(path), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_bad_user_files_skipped),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
