/* test_catalog_user.c - a user's model file or GPU entry that does not import is skipped
 * with one warning naming it and the reason, and the rest of the catalog loads (issue 14);
 * a scenario that names a skipped id fails with that reason. Runs
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
#include "scenario.h"
#include "scenario_yaml.h"

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
	/* whole, to its "(skipped)": the message once listed every known model_type and ran
	 * past the warning's room, cut mid-word */
	assert_true(strlen(w) > 9);
	assert_string_equal(w + strlen(w) - 9, "(skipped)");
	assert_non_null(strstr(w, "lacks 'num_hidden_layers'"));
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

/* A user catalog folder in a fresh temporary folder, with gpus.yaml holding text; the
 * built-in catalog of the tree. Returns the catalog loaded (0 from catalog_load_default
 * asserted); *tmp is the folder to remove. */
static struct catalog *load_with_gpus(const char *text, char *tmp, size_t size)
{
	char path[4400], cwd[4096];
	struct catalog *cat = catalog_new();
	struct gp_error err = {0};
	size_t n;

	assert_non_null(cat);
	snprintf(tmp, size, "/tmp/gpuplan-usergpu.XXXXXX");
	assert_non_null(mkdtemp(tmp));
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	/* built with memcpy: GCC's -O1 sanitizer build takes tmp for null in a "%s" */
	n = strlen(tmp);
	assert_true(n + sizeof("/gpuplan/gpus.yaml") <= sizeof(path));
	memcpy(path, tmp, n);
	memcpy(path + n, "/gpuplan", sizeof("/gpuplan"));
	assert_int_equal(mkdir(path, 0700), 0);
	memcpy(path + n, "/gpuplan/gpus.yaml", sizeof("/gpuplan/gpus.yaml"));
	put(path, text);
	setenv("XDG_CONFIG_HOME", tmp, 1);
	snprintf(path, sizeof(path), "%s/catalog", cwd);
	setenv("GPUPLAN_CATALOG", path, 1);
	assert_int_equal(catalog_load_default(cat, NULL, &err), 0);
	return cat;
}

static void remove_tree(const char *tmp)
{
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	assert_int_equal(system(cmd), 0);
}

/* A GPU entry complete but for the keys that text adds or replaces. */
#define GOOD_GPU(id)                                                                               \
	"  - id: " id "\n    name: Good\n    vendor: nvidia\n    memory: 80GB\n"                   \
	"    hbm_bandwidth: 3TB/s\n    peak: {bf16: 900T}\n    link: nvlink4\n"                    \
	"    link_bandwidth: 900GB/s\n    link_domain: 8\n    pcie: gen5x16\n"                     \
	"    pcie_bandwidth: 64GB/s\n    power: 700W\n    price_per_hour: 2\n"                     \
	"    gpus_per_node: 8\n    network: 400Gb/s\n"

/* The error of a scenario that names gpu, from its text. */
static int scenario_with_gpu(const struct catalog *cat, const char *gpu, struct gp_error *err)
{
	char text[200];
	struct scenario s;

	snprintf(text, sizeof(text), "model:\n  preset: llama-2-7b\nhardware:\n  gpu: %s\n", gpu);
	scenario_init(&s);
	return scenario_parse(text, strlen(text), "s.yaml", cat, &s, NULL, NULL, err);
}

static void test_bad_user_gpu_entries_skipped(void **state)
{
	char tmp[64];
	struct gp_error err = {0};
	const struct catalog_skip *k;
	const char *w;
	struct catalog *cat =
	    load_with_gpus("gpus:\n"
			   "  - id: banana-gpu\n    name: B\n    vendor: nvidia\n"
			   "    memory: banana\n"		       /* line 5 */
			   "  - id: h100-sxm-80gb\n    bogus_key: 1\n" /* line 7 */
			   GOOD_GPU("good-gpu") GOOD_GPU("good-gpu"),
			   tmp, sizeof(tmp));
	(void)state;

	/* the good entry and the other built-in GPUs load */
	assert_non_null(catalog_find_gpu(cat, "good-gpu"));
	assert_non_null(catalog_find_gpu(cat, "b200"));
	assert_null(catalog_find_gpu(cat, "banana-gpu"));
	/* the built-in H100 that a bad entry meant to override is not used quietly */
	assert_null(catalog_find_gpu(cat, "h100-sxm-80gb"));
	assert_int_equal(cat->nwarnings, 3);
	w = warning_of(cat, "banana-gpu");
	assert_non_null(w);
	assert_non_null(strstr(w, "gpuplan/gpus.yaml:5:13: memory: cannot read 'banana'"));
	w = warning_of(cat, "bogus_key");
	assert_non_null(w);
	assert_non_null(strstr(w, "gpus.yaml:7:5: unknown key 'bogus_key'"));
	assert_non_null(strstr(w, "and the built-in one too"));
	w = warning_of(cat, "duplicate GPU id 'good-gpu'");
	assert_non_null(w);
	assert_non_null(strstr(w, "(GPU entry 'good-gpu' skipped)")); /* the first stays */

	k = catalog_skipped(cat, true, "banana-gpu");
	assert_non_null(k);
	assert_non_null(strstr(k->why, ":5:13: memory"));
	assert_non_null(catalog_find_gpu(cat, "good-gpu"));
	assert_null(catalog_skipped(cat, true, "no-such-gpu"));
	assert_null(catalog_skipped(cat, false, "banana-gpu"));

	/* a scenario that names another GPU works; one that names a skipped one says why */
	assert_int_equal(scenario_with_gpu(cat, "good-gpu", &err), 0);
	assert_int_equal(scenario_with_gpu(cat, "a100-80gb-sxm", &err), 0);
	assert_int_equal(scenario_with_gpu(cat, "banana-gpu", &err), -1);
	assert_non_null(strstr(err.message, "the user's entry for it was skipped"));
	assert_non_null(strstr(err.message, "gpus.yaml:5:13: memory: cannot read 'banana'"));
	assert_int_equal(scenario_with_gpu(cat, "h100-sxm-80gb", &err), -1);
	assert_non_null(strstr(err.message, "unknown key 'bogus_key'"));
	catalog_free(cat);
	remove_tree(tmp);
}

static void test_unparsable_user_gpus_skipped(void **state)
{
	static const char *const bad[] = {
	    "gpus:\n  - id: [\n",	   /* a YAML syntax error */
	    "gpu:\n" GOOD_GPU("good-gpu"), /* not 'gpus:' */
	    "gpus: {id: good-gpu}\n",	   /* not a list */
	};
	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char tmp[64];
		struct gp_error err = {0};
		struct catalog *cat = load_with_gpus(bad[i], tmp, sizeof(tmp));
		const struct catalog_skip *k;

		assert_int_equal(cat->nwarnings, 1);
		assert_non_null(strstr(cat->warnings[0], "gpuplan/gpus.yaml:"));
		assert_non_null(strstr(cat->warnings[0], "(file skipped)"));
		assert_non_null(catalog_find_gpu(cat, "h100-sxm-80gb"));
		assert_null(catalog_find_gpu(cat, "good-gpu"));
		/* any GPU id the catalog lacks may have been in that file */
		k = catalog_skipped(cat, true, "good-gpu");
		assert_non_null(k);
		assert_string_equal(k->id, "");
		assert_int_equal(scenario_with_gpu(cat, "h100-sxm-80gb", &err), 0);
		assert_int_equal(scenario_with_gpu(cat, "good-gpu", &err), -1);
		assert_non_null(
		    strstr(err.message, "the user's gpus.yaml, which may name it, was"));
		/* a typo of a known id still gets its "did you mean" */
		assert_int_equal(scenario_with_gpu(cat, "h100-sxm-80g", &err), -1);
		assert_non_null(strstr(err.message, "did you mean 'h100-sxm-80gb'"));
		assert_non_null(strstr(err.message, "the user's gpus.yaml was skipped"));
		catalog_free(cat);
		remove_tree(tmp);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_bad_user_files_skipped),
	    cmocka_unit_test(test_bad_user_gpu_entries_skipped),
	    cmocka_unit_test(test_unparsable_user_gpus_skipped),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
