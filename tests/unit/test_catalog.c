/* test_catalog.c - the catalog: gpus.yaml read strictly, models/ *.json, lookups and suggestions,
 * the default search order and the user catalog overriding by id. Run from the top of the tree
 * (make check does). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "catalog.h"

#define FIXTURE "tests/data/scenarios/catalog"
#define USER "tests/data/scenarios/user/gpuplan"

static void test_fixture_catalog_loads(void **state)
{
	struct catalog *cat = catalog_new();
	struct gp_error err;
	const struct gpu *h;
	const struct catalog_model *m;

	(void)state;
	assert_non_null(cat);
	assert_int_equal(catalog_load_dir(cat, FIXTURE, 0, &err), 0);
	assert_int_equal(cat->ngpus, 2);
	assert_int_equal(cat->nmodels, 2);
	h = catalog_find_gpu(cat, "h100-sxm-80gb");
	assert_non_null(h);
	assert_string_equal(h->name, "NVIDIA H100 SXM5 80GB");
	assert_string_equal(h->vendor, "nvidia");
	assert_true(h->memory_bytes == 80e9);
	assert_true(h->hbm_bytes_per_s == 3.35e12);
	assert_true(h->peak_flops[DTYPE_FP32] == 67e12);
	assert_true(h->peak_flops[DTYPE_TF32] == 494.7e12);
	assert_true(h->peak_flops[DTYPE_BF16] == 989.4e12);
	assert_true(h->peak_flops[DTYPE_FP8] == 1978.9e12);
	assert_true(h->peak_flops[DTYPE_INT4] == 0); /* not given: not supported */
	assert_true(h->sparse_flops[DTYPE_BF16] == 1979e12);
	assert_true(h->sparse_flops[DTYPE_FP8] == 0);
	assert_string_equal(h->link, "nvlink4");
	assert_true(h->link_bytes_per_s == 900e9);
	assert_int_equal(h->link_domain, 8);
	assert_string_equal(h->pcie, "gen5x16");
	assert_true(h->pcie_bytes_per_s == 64e9);
	assert_true(h->power_w == 700);
	assert_true(h->price_per_hour == 2.69);
	assert_int_equal(h->gpus_per_node, 8);
	assert_true(h->network_bytes_per_s == 400e9 / 8);
	assert_string_equal(cat->gpu_origin[h - cat->gpus], FIXTURE "/gpus.yaml");
	/* a flow mapping of peaks reads the same */
	assert_true(catalog_find_gpu(cat, "a100-80gb-sxm")->peak_flops[DTYPE_BF16] == 312e12);

	m = catalog_find_model(cat, "llama-2-7b");
	assert_non_null(m);
	assert_int_equal(m->model.layers, 32);
	assert_int_equal(m->model.hidden, 4096);
	assert_string_equal(m->model.preset, "");
	assert_string_equal(cat->model_origin[m - cat->models], FIXTURE "/models/llama-2-7b.json");
	/* models are read in name order */
	assert_string_equal(cat->models[0].id, "llama-2-7b");
	assert_string_equal(cat->models[1].id, "mixtral-8x7b");

	assert_null(catalog_find_gpu(cat, "h100"));
	assert_null(catalog_find_gpu(cat, NULL));
	assert_null(catalog_find_model(cat, "llama"));
	catalog_free(cat);
	catalog_free(NULL);
}

static void test_suggestions(void **state)
{
	struct catalog *cat = catalog_new();
	struct gp_error err;

	(void)state;
	assert_int_equal(catalog_load_dir(cat, FIXTURE, 0, &err), 0);
	assert_string_equal(catalog_suggest_gpu(cat, "h100"), "h100-sxm-80gb");
	assert_string_equal(catalog_suggest_gpu(cat, "h100-sxm-80g"), "h100-sxm-80gb");
	assert_string_equal(catalog_suggest_gpu(cat, "a100-80gb-sxn"), "a100-80gb-sxm");
	assert_null(catalog_suggest_gpu(cat, "tpu-v5"));
	assert_null(catalog_suggest_gpu(cat, ""));
	assert_string_equal(catalog_suggest_model(cat, "llama-2-7"), "llama-2-7b");
	assert_string_equal(catalog_suggest_model(cat, "mixtral-8x7"), "mixtral-8x7b");
	assert_null(catalog_suggest_model(cat, "gpt-4"));
	catalog_free(cat);
}

static void test_user_catalog_overrides(void **state)
{
	struct catalog *cat = catalog_new();
	struct gp_error err;
	const struct gpu *a;

	(void)state;
	assert_int_equal(catalog_load_dir(cat, FIXTURE, 0, &err), 0);
	assert_int_equal(catalog_load_dir(cat, USER, 1, &err), 0);
	assert_int_equal(cat->ngpus, 3);
	a = catalog_find_gpu(cat, "a100-80gb-sxm");
	assert_true(a->price_per_hour == 1.10);
	assert_string_equal(a->name, "NVIDIA A100 SXM4 80GB (our cluster)");
	assert_string_equal(cat->gpu_origin[a - cat->gpus], USER "/gpus.yaml");
	/* the others keep theirs */
	assert_string_equal(cat->gpu_origin[catalog_find_gpu(cat, "h100-sxm-80gb") - cat->gpus],
			    FIXTURE "/gpus.yaml");
	assert_non_null(catalog_find_gpu(cat, "lab-gpu"));
	assert_non_null(catalog_find_model(cat, "my-model"));
	assert_int_equal(catalog_find_model(cat, "my-model")->model.layers, 40);
	assert_int_equal(cat->nmodels, 3);
	catalog_free(cat);
}

static void test_missing_folders(void **state)
{
	struct catalog *cat = catalog_new();
	struct gp_error err;

	(void)state;
	assert_int_equal(catalog_load_dir(cat, "tests/data/no-such-catalog", 1, &err), 0);
	assert_int_equal(cat->ngpus, 0);
	assert_int_equal(catalog_load_dir(cat, "tests/data/no-such-catalog", 0, &err), -1);
	assert_int_equal(err.code, GP_EIO);
	catalog_free(cat);
}

static char *absolute(const char *rel)
{
	char cwd[2048];
	char *out = malloc(4096);

	assert_non_null(getcwd(cwd, sizeof(cwd)));
	snprintf(out, 4096, "%s/%s", cwd, rel);
	return out;
}

static void test_default_search_order(void **state)
{
	struct catalog *cat;
	struct gp_error err;
	char *fixture = absolute(FIXTURE), *user = absolute("tests/data/scenarios/user");
	char *none = absolute("tests/data/no-such-config");

	(void)state;
	/* $GPUPLAN_CATALOG, then the user's catalog over it */
	setenv("GPUPLAN_CATALOG", fixture, 1);
	setenv("XDG_CONFIG_HOME", user, 1);
	cat = catalog_new();
	assert_int_equal(catalog_load_default(cat, NULL, &err), 0);
	assert_true(catalog_find_gpu(cat, "a100-80gb-sxm")->price_per_hour == 1.10);
	assert_non_null(catalog_find_gpu(cat, "h100-sxm-80gb"));
	catalog_free(cat);

	/* the folder `catalog` beside the program */
	unsetenv("GPUPLAN_CATALOG");
	setenv("XDG_CONFIG_HOME", none, 1);
	cat = catalog_new();
	assert_int_equal(catalog_load_default(cat, "tests/data/scenarios/gpuplan", &err), 0);
	assert_int_equal(cat->ngpus, 2);
	assert_true(catalog_find_gpu(cat, "a100-80gb-sxm")->price_per_hour == 1.89);
	catalog_free(cat);

	/* ~/.config/gpuplan when XDG_CONFIG_HOME is not set */
	unsetenv("XDG_CONFIG_HOME");
	{
		char *home = absolute("tests/data/scenarios/home");
		char *cfg = absolute("tests/data/scenarios/home/.config");
		char *link = absolute("tests/data/scenarios/home/.config/gpuplan");
		char *old = getenv("HOME") ? strdup(getenv("HOME")) : NULL;
		mkdir(home, 0755);
		mkdir(cfg, 0755);
		unlink(link);
		{
			char *target = absolute(USER);
			assert_int_equal(symlink(target, link), 0);
			free(target);
		}
		setenv("HOME", home, 1);
		cat = catalog_new();
		assert_int_equal(catalog_load_default(cat, "tests/data/scenarios/gpuplan", &err), 0);
		assert_non_null(catalog_find_gpu(cat, "lab-gpu"));
		catalog_free(cat);
		unlink(link);
		rmdir(cfg);
		rmdir(home);
		if (old)
			setenv("HOME", old, 1);
		free(old);
		free(home);
		free(cfg);
		free(link);
	}
	free(fixture);
	free(user);
	free(none);
}

/* Writes text as DIR/gpus.yaml in a fresh folder and loads it. */
static int load_text(const char *text, struct gp_error *err)
{
	char dir[] = "/tmp/gpuplan-cat-XXXXXX", path[64];
	struct catalog *cat = catalog_new();
	FILE *f;
	int rc;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/gpus.yaml", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	memset(err, 0, sizeof(*err));
	rc = catalog_load_dir(cat, dir, 1, err);
	unlink(path);
	rmdir(dir);
	catalog_free(cat);
	return rc;
}

#define ITEM \
	"  - id: x1\n" \
	"    name: X1\n" \
	"    vendor: nvidia\n" \
	"    memory: 80GB\n" \
	"    hbm_bandwidth: 3TB/s\n" \
	"    peak: {bf16: 900T}\n" \
	"    link: nvlink4\n" \
	"    link_bandwidth: 900GB/s\n" \
	"    link_domain: 8\n" \
	"    pcie: gen5x16\n" \
	"    pcie_bandwidth: 64GB/s\n" \
	"    power: 700W\n" \
	"    price_per_hour: 2\n" \
	"    gpus_per_node: 8\n" \
	"    network: 400Gb/s\n"
#define ENTRY "gpus:\n" ITEM

static void test_gpus_yaml_is_strict(void **state)
{
	static const struct {
		const char *text;
		int line, column;
		const char *message;
	} cases[] = {
		{ENTRY "    memroy: 80GB\n", 17, 5, "unknown key 'memroy' (did you mean 'memory'?)"},
		{ENTRY "    power: 700W\n", 17, 5, "duplicate key 'power'"},
		{"gpus:\n  - id: x2\n    name: X\n", 2, 5, "GPU entry x2 lacks 'vendor'"},
		{"gpus:\n  - id: x2\n    memory: 80GBs\n", 3, 13, "memory: cannot read '80GBs'"},
		{"gpus:\n  - id: x2\n    memory: -80GB\n", 3, 13, "negative"},
		{"gpus:\n  - id: x2\n    peak: {bf61: 1T}\n", 3, 12,
		 "unknown key 'bf61' (did you mean 'bf16'?)"},
		{"gpus:\n  - id: x2\n    peak: 1T\n", 3, 11, "expected a mapping of precisions"},
		{"gpus:\n  - id: x2\n    link_domain: 2.5\n", 3, 18, "not a count"},
		{"gpu:\n  - id: x2\n", 1, 1, "unknown key 'gpu' (did you mean 'gpus'?)"},
		{"gpus: {id: x2}\n", 1, 7, "expected a list of GPU entries"},
		{"gpus:\n  - id: &a x2\n", 2, 9, "anchor '&a' is not allowed"},
		{"gpus:\n\t- id: x2\n", 2, 1, "tab character"},
		{"", 1, 1, "expected a mapping with the key 'gpus:'"},
		/* gpuplan-catalog(5): a bare number where a unit is expected is an error */
		{"gpus:\n  - id: x2\n    memory: 64\n", 3, 13,
		 "memory: '64' has no unit (expected a size"},
		{"gpus:\n  - id: x2\n    network: 200\n", 3, 14, "network: '200' has no unit"},
		{"gpus:\n  - id: x2\n    power: 400\n", 3, 12, "power: '400' has no unit"},
		{"gpus:\n  - id: x2\n    hbm_bandwidth: 1.6e12\n", 3, 20,
		 "hbm_bandwidth: '1.6e12' has no unit"},
		{"gpus:\n  - id: x2\n    pcie_bandwidth: 64.\n", 3, 21, "has no unit"},
		/* and the scenario fields' ranges (hardware.memory: 1 MB to 1 PB) */
		{"gpus:\n  - id: x2\n    memory: 64KiB\n", 3, 13,
		 "memory: 64KiB is out of range (expected 976.562 KiB to 909.495 TiB)"},
		{"gpus:\n  - id: x2\n    power: 2MW\n", 3, 12, "power: 2MW is out of range"},
		{"gpus:\n  - id: x2\n    network: 400b/s\n", 3, 14, "network: 400b/s is out of range"},
	};

	(void)state;
	{
		struct gp_error err;
		assert_int_equal(load_text(ENTRY, &err), 0);
		/* the same id twice in one file */
		assert_int_equal(load_text(ENTRY ITEM, &err), -1);
		assert_non_null(strstr(err.message, "duplicate GPU id 'x1' (first given at line 2)"));
		assert_int_equal(err.line, 17);
	}
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct gp_error err;
		if (load_text(cases[i].text, &err) != -1)
			fail_msg("case %zu loaded", i);
		if (err.line != cases[i].line || err.column != cases[i].column ||
		    !strstr(err.message, cases[i].message) || err.code != GP_EINPUT)
			fail_msg("case %zu: %d:%d %s (expected %d:%d %s)", i, err.line, err.column,
				 err.message, cases[i].line, cases[i].column, cases[i].message);
		assert_non_null(strstr(err.file, "/gpus.yaml"));
	}
}

/* The shipped catalog (catalog/) keeps every GPU and model id below: scenarios, docs
 * and users' files name them. */
static void test_shipped_catalog_has_every_spec_id(void **state)
{
	static const char *const gpus[] = {
		"h100-sxm-80gb", "h100-pcie-80gb", "h100-nvl-94gb", "h200", "h200-nvl", "b200",
		"gb200", "a100-80gb-sxm", "a100-40gb-sxm", "a100-80gb-pcie", "a100-40gb-pcie",
		"l40s", "l40", "l4", "a10", "t4", "v100-sxm-32gb", "v100-pcie-32gb", "rtx-4090",
		"rtx-3090", "rtx-6000-ada", "mi300x", "mi325x", "mi250x", "gaudi2", "gaudi3",
	};
	static const char *const models[] = {
		"gpt2", "gpt3-175b", "llama-33b", "llama-2-7b", "llama-2-13b", "llama-2-70b",
		"llama-3-8b", "llama-3.1-8b", "llama-3.1-70b", "llama-3.1-405b", "mistral-7b",
		"mixtral-8x7b", "mixtral-8x22b", "qwen2.5-7b", "qwen2.5-72b", "qwen3-8b",
		"qwen3-30b-a3b", "qwen3-235b-a22b", "gemma-2-9b", "phi-3-mini", "falcon-40b",
		"bloom-176b", "opt-13b", "deepseek-v3",
	};
	struct catalog *cat;
	struct gp_error err;
	char buf[512];

	(void)state;
	if (access("catalog/gpus.yaml", R_OK) != 0)
		skip(); /* the data file lands separately */
	cat = catalog_new();
	if (catalog_load_dir(cat, "catalog", 0, &err) != 0)
		fail_msg("%s", gp_error_format(&err, buf, sizeof(buf)));
	for (size_t i = 0; i < sizeof(gpus) / sizeof(gpus[0]); i++) {
		const struct gpu *g = catalog_find_gpu(cat, gpus[i]);
		if (!g)
			fail_msg("GPU %s missing", gpus[i]);
		if (!(g->memory_bytes > 0 && g->hbm_bytes_per_s > 0 && g->power_w > 0 &&
		      g->gpus_per_node > 0 &&
		      (g->peak_flops[DTYPE_BF16] > 0 || g->peak_flops[DTYPE_FP16] > 0)))
			fail_msg("GPU %s lacks a figure", gpus[i]);
		/* sparse figures are recorded, never used as peaks */
		for (int d = 0; d < DTYPE_COUNT; d++)
			if (g->sparse_flops[d] > 0 && g->peak_flops[d] >= g->sparse_flops[d])
				fail_msg("GPU %s: %d peak not below its sparse figure", gpus[i], d);
	}
	for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++) {
		const struct catalog_model *m = catalog_find_model(cat, models[i]);
		if (!m)
			fail_msg("model %s missing", models[i]);
		if (m->model.layers <= 0)
			fail_msg("model %s has no layers", models[i]);
	}
	catalog_free(cat);
}

/* "did you mean" over the shipped catalog: a prefix names every id it starts (never the
 * nearest spelling, 'h200' for 'h100', 'a10' for 'a100'), else the nearest by spelling */
static void test_shipped_suggestions(void **state)
{
	static const struct {
		const char *typed, *want;
	} gpus[] = {
	    {"h100", "'h100-sxm-80gb', 'h100-pcie-80gb' or 'h100-nvl-94gb'"},
	    {"a100", "'a100-80gb-sxm', 'a100-40gb-sxm', 'a100-80gb-pcie' or 'a100-40gb-pcie'"},
	    {"h2000", "'h200'"},
	    {"a10g", "'a10'"},
	    {"zzzzzz", ""},
	};
	struct catalog *cat;
	struct gp_error err;
	char buf[512];

	(void)state;
	cat = catalog_new();
	if (catalog_load_dir(cat, "catalog", 0, &err) != 0)
		fail_msg("%s", gp_error_format(&err, buf, sizeof(buf)));
	for (size_t i = 0; i < sizeof(gpus) / sizeof(gpus[0]); i++) {
		catalog_suggest_gpus(cat, gpus[i].typed, buf, sizeof(buf));
		if (strcmp(buf, gpus[i].want) != 0)
			fail_msg("%s: got \"%s\", want \"%s\"", gpus[i].typed, buf, gpus[i].want);
	}
	catalog_suggest_models(cat, "llama-3.1", buf, sizeof(buf));
	assert_string_equal(buf, "'llama-3.1-405b', 'llama-3.1-70b' or 'llama-3.1-8b'");
	catalog_suggest_models(cat, "llama", buf, sizeof(buf));
	assert_non_null(strstr(buf, ", ..."));
	catalog_suggest_models(cat, "mistral-7c", buf, sizeof(buf));
	assert_string_equal(buf, "'mistral-7b'");
	catalog_free(cat);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fixture_catalog_loads),
		cmocka_unit_test(test_suggestions),
		cmocka_unit_test(test_user_catalog_overrides),
		cmocka_unit_test(test_missing_folders),
		cmocka_unit_test(test_default_search_order),
		cmocka_unit_test(test_gpus_yaml_is_strict),
		cmocka_unit_test(test_shipped_catalog_has_every_spec_id),
		cmocka_unit_test(test_shipped_suggestions),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
