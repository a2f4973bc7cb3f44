/* test_scenario_yaml.c - scenario files: strict loading (every bad-input class with its
 * FILE:LINE:COL), presets before overrides, --set, and saving: load(save(s)) == s and
 * save(load(save(s))) is byte-identical. Run from the top of the tree (make check does). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "catalog.h"
#include "file.h"
#include "scenario.h"
#include "scenario_yaml.h"

#define CATALOG_DIR "tests/data/scenarios/catalog"
#define BAD	    "tests/data/bad/"

static struct catalog *cat;

static int setup(void **state)
{
	struct gp_error err;

	(void)state;
	cat = catalog_new();
	if (!cat)
		return -1;
	if (catalog_load_dir(cat, CATALOG_DIR, 0, &err) != 0) {
		char buf[512];
		fprintf(stderr, "%s\n", gp_error_format(&err, buf, sizeof(buf)));
		return -1;
	}
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	catalog_free(cat);
	return 0;
}

/* Time bounds are for a plain build; sanitizers and valgrind run many times slower, and
 * GPUPLAN_TEST_TIME_FACTOR scales them by hand. */
static double time_factor(void)
{
	const char *f = getenv("GPUPLAN_TEST_TIME_FACTOR"), *pre = getenv("LD_PRELOAD");
	double x = 1;

#if defined(__SANITIZE_ADDRESS__)
	x = 20;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
	x = 20;
#endif
#endif
	if (pre && strstr(pre, "vgpreload"))
		x = 100;
	if (f && atof(f) > 0)
		x = atof(f);
	return x;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int parse_text(const char *text, struct scenario *s, struct gp_problems *p,
		      struct gp_error *err)
{
	if (p)
		gp_problems_init(p);
	memset(err, 0, sizeof(*err));
	return scenario_parse(text, strlen(text), "t.yaml", cat, s, NULL, p, err);
}

/* Every field of a and b is the same. */
static void assert_same_fields(const struct scenario *a, const struct scenario *b)
{
	for (const struct field *f = scenario_fields; f->key; f++) {
		if (!scenario_field_equal(a, b, f)) {
			char x[4200], y[4200];
			fail_msg("%s differs: '%s' vs '%s'", f->key,
				 scenario_field_format(a, f, x, sizeof(x)),
				 scenario_field_format(b, f, y, sizeof(y)));
		}
	}
}

/* save -> load gives the same fields; save again gives the same bytes. */
static void assert_round_trip(const struct scenario *s)
{
	char *one = NULL, *two = NULL;
	size_t n1, n2;
	struct scenario back;
	struct gp_problems p;
	struct gp_error err;

	assert_int_equal(scenario_format_yaml(s, cat, &one, &n1, &err), 0);
	assert_int_equal(strlen(one), n1);
	gp_problems_init(&p);
	if (scenario_parse(one, n1, s->path[0] ? s->path : "saved.yaml", cat, &back, NULL, &p,
			   &err) != 0) {
		char buf[512];
		fail_msg("saved file does not load: %s\n%s",
			 gp_error_format(&err, buf, sizeof(buf)), one);
	}
	assert_same_fields(s, &back);
	assert_int_equal(scenario_format_yaml(&back, cat, &two, &n2, &err), 0);
	assert_int_equal(n1, n2);
	assert_string_equal(one, two);
	free(one);
	free(two);
}

/* ---- loading good files ---------------------------------------------------------------- */

static void test_full_file_loads(void **state)
{
	struct scenario s;
	struct scenario_source src;
	struct gp_problems p;
	struct gp_error err;
	const struct catalog_model *llama = catalog_find_model(cat, "llama-2-7b");

	(void)state;
	assert_non_null(llama);
	gp_problems_init(&p);
	assert_int_equal(
	    scenario_load_file("tests/data/scenarios/full.yaml", cat, &s, &src, &p, &err), 0);
	assert_int_equal(p.count, 0);
	assert_string_equal(s.name, "Llama-2-7B pre-training");
	assert_string_equal(s.notes, "Line one of the notes.\n  An indented line: kept verbatim.\n"
				     "\nAfter a blank line.\n");
	assert_string_equal(s.path, "tests/data/scenarios/full.yaml");
	/* the preset fills the model; max_context overrides it */
	assert_string_equal(s.model.preset, "llama-2-7b");
	assert_int_equal(s.model.layers, llama->model.layers);
	assert_int_equal(s.model.hidden, llama->model.hidden);
	assert_int_equal(s.model.max_context, 8192);
	assert_int_equal(s.workload.kind, WL_TRAIN);
	assert_int_equal(s.workload.micro_batch, 2);
	assert_int_equal(s.workload.global_batch, 1024);
	assert_true(s.workload.tokens == 2e12);
	assert_int_equal(s.workload.grad_dtype, DTYPE_FP32);
	assert_int_equal(s.workload.recompute, RECOMPUTE_SELECTIVE);
	assert_int_equal(s.workload.finetune.targets, LORA_Q | LORA_K | LORA_V | LORA_O);
	assert_int_equal(s.workload.finetune.base_weights, DTYPE_NF4);
	assert_true(s.workload.deadline_s == 5 * 86400.0);
	/* the GPU preset, then its overrides */
	assert_string_equal(s.hardware.gpu.id, "a100-80gb-sxm");
	assert_true(s.hardware.gpu.memory_bytes == 80e9);
	assert_true(s.hardware.gpu.peak_flops[DTYPE_BF16] == 312e12);
	assert_true(s.hardware.gpu.network_bytes_per_s == 400e9 / 8);
	assert_true(s.hardware.storage_bytes_per_s == 2e9);
	assert_true(s.hardware.gpu.price_per_hour == 2.0);
	assert_true(s.hardware.pue == 1.3);
	assert_int_equal(s.hardware.count, 64);
	assert_int_equal(s.parallel.tp, 2);
	assert_int_equal(s.parallel.pp, 2);
	assert_int_equal(s.parallel.dp, 0);
	assert_int_equal(s.parallel.zero, 1);
	assert_true(s.parallel.sequence_parallel);
	assert_true(s.efficiency.mfu == 0.45);
	assert_true(s.efficiency.hbm == 0);

	/* each key's position, sections included */
	assert_string_equal(src.file, "tests/data/scenarios/full.yaml");
	{
		int found = 0;
		for (int i = 0; i < src.nkeys; i++) {
			if (strcmp(src.keys[i].key, "workload.seq_len") == 0) {
				assert_int_equal(src.keys[i].line, 15);
				assert_int_equal(src.keys[i].column, 3);
				found |= 1;
			}
			if (strcmp(src.keys[i].key, "workload.finetune.rank") == 0) {
				assert_int_equal(src.keys[i].line, 23);
				assert_int_equal(src.keys[i].column, 28);
				found |= 2;
			}
			if (strcmp(src.keys[i].key, "hardware") == 0) {
				assert_int_equal(src.keys[i].line, 25);
				assert_int_equal(src.keys[i].column, 1);
				found |= 4;
			}
		}
		assert_int_equal(found, 7);
	}
}

static void test_presets_apply_before_fields(void **state)
{
	static const char *const files[] = {
	    "model:\n  layers: 40\n  preset: llama-2-7b\n"
	    "hardware:\n  price_per_gpu_hour: 9\n  memory: 40GB\n  gpu: h100-sxm-80gb\n",
	    "hardware:\n  gpu: h100-sxm-80gb\n  memory: 40GB\n  price_per_gpu_hour: 9\n"
	    "model:\n  preset: llama-2-7b\n  layers: 40\n",
	};
	struct scenario s;
	struct gp_error err;

	(void)state;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		assert_int_equal(parse_text(files[i], &s, NULL, &err), 0);
		assert_int_equal(s.model.layers, 40);
		assert_int_equal(s.model.hidden, 4096); /* from the preset */
		assert_string_equal(s.model.preset, "llama-2-7b");
		assert_true(s.hardware.gpu.price_per_hour == 9);
		assert_true(s.hardware.gpu.memory_bytes == 40e9);
		assert_true(s.hardware.gpu.hbm_bytes_per_s == 3.35e12); /* from the preset */
		assert_string_equal(s.hardware.gpu.id, "h100-sxm-80gb");
	}
}

static void test_targets_list_or_text(void **state)
{
	struct scenario s;
	struct gp_error err;

	(void)state;
	assert_int_equal(parse_text("workload:\n  finetune:\n    targets:\n      - q\n      - v\n"
				    "      - down\n",
				    &s, NULL, &err),
			 0);
	assert_int_equal(s.workload.finetune.targets, LORA_Q | LORA_V | LORA_DOWN);
	assert_int_equal(parse_text("workload: {finetune: {targets: 'q, k'}}\n", &s, NULL, &err),
			 0);
	assert_int_equal(s.workload.finetune.targets, LORA_Q | LORA_K);
	assert_int_equal(parse_text("workload: {finetune: {targets: [q, [k]]}}\n", &s, NULL, &err),
			 -1);
	assert_int_equal(err.line, 1);
	assert_int_equal(err.column, 36);
}

static void test_empty_section_is_allowed(void **state)
{
	struct scenario s, d;
	struct gp_error err;

	(void)state;
	assert_int_equal(
	    parse_text("efficiency:\n  # all modelled\nparallel: {}\n", &s, NULL, &err), 0);
	scenario_init(&d);
	assert_same_fields(&s, &d);
}

static void test_set_assignment(void **state)
{
	struct scenario s;
	struct gp_error err;

	(void)state;
	assert_int_equal(parse_text("model: {preset: llama-2-7b}\nhardware: {gpu: h100-sxm-80gb}\n",
				    &s, NULL, &err),
			 0);
	assert_int_equal(scenario_set_assignment(&s, cat, "hardware.count=16", &err), 0);
	assert_int_equal(s.hardware.count, 16);
	assert_int_equal(scenario_set_assignment(&s, cat, "workload.tokens = 1.5T", &err), 0);
	assert_true(s.workload.tokens == 1.5e12);
	assert_int_equal(scenario_set_assignment(&s, cat, "hardware.gpu=a100-80gb-sxm", &err), 0);
	assert_true(s.hardware.gpu.memory_bytes == 80e9);
	assert_true(s.hardware.gpu.peak_flops[DTYPE_BF16] == 312e12);
	assert_int_equal(scenario_set_assignment(&s, cat, "workload.batchsize=8", &err), -1);
	assert_non_null(strstr(err.message, "did you mean 'workload.batch'"));
	assert_int_equal(gp_error_exit_status(&err), 2);
	assert_int_equal(scenario_set_assignment(&s, cat, "parallel.zero=7", &err), -1);
	assert_non_null(strstr(err.message, "0 to 3 or auto"));
	assert_int_equal(s.parallel.zero, ZERO_AUTO); /* unchanged: the default */
	assert_int_equal(scenario_set_assignment(&s, cat, "hardware.count", &err), -1);
}

/* ---- bad input ------------------------------------------------------------------------- */

struct bad_case {
	const char *file;
	int line, column;
	const char *message; /* a part of the first problem's message */
};

static const struct bad_case bad_cases[] = {
    {"anchor.yaml", 1, 8, "anchor '&m' is not allowed"},
    {"bad-bool.yaml", 6, 20, "'yes' is not a boolean (expected true or false)"},
    {"bad-enum.yaml", 6, 9, "unknown value 'pretrain' (expected train, finetune"},
    {"bad-target.yaml", 7, 23, "unknown target 'x'"},
    {"billion-laughs.yaml", 2, 1, "unknown key 'a'"},
    {"binary.yaml", 1, 1, "not a text file"},
    {"comments-only.yaml", 1, 1, "empty file"},
    {"duplicate-keys.yaml", 6, 3, "duplicate key 'count' (first given at line 5)"},
    {"duplicate-section.yaml", 5, 1, "duplicate key 'model' (first given at line 1)"},
    {"empty.yaml", 1, 1, "empty file"},
    {"fractional-count.yaml", 6, 16, "'1.5' is not a whole number"},
    {"inf.yaml", 6, 11, "cannot read 'inf'"},
    {"int-overflow.yaml", 6, 12, "out of range (expected 1 to 100000000)"},
    {"invalid-utf8.yaml", 2, 10, "invalid UTF-8: byte 0xE9"},
    {"nan-plain.yaml", 6, 11, "cannot read 'nan'"},
    {"nan.yaml", 6, 11, "cannot read '.nan'"},
    {"negative-count.yaml", 6, 7, "parallel.tp: -2 is out of range (expected 1 to 65536)"},
    {"overflow.yaml", 6, 11, "cannot read '1e400'"},
    {"preset-and-hf-config.yaml", 3, 14, "model.hf_config given with model.preset"},
    {"schema-version.yaml", 6, 10, "unsupported schema version '2'"},
    {"syntax.yaml", 3, 1, "invalid YAML"},
    {"tab-indent.yaml", 3, 1, "tab character in indentation"},
    {"tag.yaml", 1, 8, "tag 'tag:yaml.org,2002:python/object:os.system' is not allowed"},
    {"top-level-list.yaml", 1, 1, "expected a mapping of keys at the top"},
    {"two-documents.yaml", 3, 1, "a second YAML document"},
    {"unit-typo-duration.yaml", 6, 13, "cannot read '5days' (expected a duration"},
    {"unit-typo.yaml", 5, 12, "cannot read '2GBs' (expected a bandwidth"},
    {"unknown-gpu.yaml", 4, 8, "unknown GPU 'h100-sxm' (did you mean 'h100-sxm-80gb'?)"},
    /* a prefix names the GPUs it starts (test_catalog: all of them, in the real catalog) */
    {"unknown-gpu-prefix.yaml", 4, 8, "unknown GPU 'h100' (did you mean 'h100-sxm-80gb'?)"},
    {"unknown-key.yaml", 6, 3, "unknown key 'batchsize' (did you mean 'batch'?)"},
    {"unknown-model.yaml", 2, 11, "unknown model 'llama-2-7c' (did you mean 'llama-2-7b'?)"},
    {"wrong-kind-list.yaml", 6, 7, "parallel.tp: expected a single value, found a list"},
    {"wrong-kind-mapping.yaml", 6, 12, "expected a single value, found a mapping"},
    {"wrong-kind-section.yaml", 5, 11, "workload: expected a mapping of keys"},
    {"zero-count.yaml", 5, 10, "hardware.count: 0 is out of range (expected 1 to"},
    {"zero-stage-7.yaml", 6, 9, "parallel.zero: 7 is out of range (expected 0 to 3 or auto)"},
};

static void check_bad(const struct bad_case *c)
{
	char path[256], buf[512];
	struct scenario s;
	struct gp_problems p;
	struct gp_error err;
	double t0;

	snprintf(path, sizeof(path), BAD "%s", c->file);
	gp_problems_init(&p);
	memset(&err, 0, sizeof(err));
	t0 = now_s();
	if (scenario_load_file(path, cat, &s, NULL, &p, &err) != -1)
		fail_msg("%s: loaded without an error", path);
	/* the bound is for the whole process; the loader gets a tenth of it */
	if (now_s() - t0 > 0.05 * time_factor())
		fail_msg("%s: took %.3f s", path, now_s() - t0);
	gp_error_format(&err, buf, sizeof(buf));
	if (err.code != GP_EINPUT || gp_error_exit_status(&err) != 2)
		fail_msg("%s: code %d (%s)", path, err.code, buf);
	if (strcmp(err.file, path) != 0 || err.line != c->line || err.column != c->column)
		fail_msg("%s: expected %d:%d, got %s", path, c->line, c->column, buf);
	if (!strstr(err.message, c->message))
		fail_msg("%s: expected '%s' in '%s'", path, c->message, buf);
	/* the list holds it too, first in file order */
	if (p.count < 1 || p.items[0].line != err.line || strcmp(p.items[0].message, err.message))
		fail_msg("%s: problem list does not start with the error", path);
}

static void test_bad_inputs(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++)
		check_bad(&bad_cases[i]);
}

/* Every file in tests/data/bad/ is either in the table or a layout problem for validate. */
/* "did you mean" prefers a key of the same section, then one of another section. */
static void test_suggestions(void **state)
{
	static const char *const cases[][2] = {
	    {"model: {moe: {expert: 8}}\n", "unknown key 'expert' (did you mean 'experts'?)"},
	    {"model: {mla: {rank: 8}}\n", "unknown key 'rank' (did you mean 'q_rank'?)"},
	    {"workload: {slo: {ttf: 1s}}\n", "unknown key 'ttf' (did you mean 'ttft'?)"},
	    {"hardwar: {count: 1}\n", "unknown key 'hardwar' (did you mean 'hardware'?)"},
	    {"tp: 2\n", "unknown key 'tp' (did you mean 'parallel.tp'?)"},
	    {"workload: {tp: 2}\n", "unknown key 'tp' (did you mean 'parallel.tp'?)"},
	    {"workload: {finetune: {targets: []}}\n", "empty list (expected at least one of"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct scenario s;
		struct gp_error err;
		if (parse_text(cases[i][0], &s, NULL, &err) != -1 ||
		    !strstr(err.message, cases[i][1]))
			fail_msg("'%s' gave '%s' (expected '%s')", cases[i][0], err.message,
				 cases[i][1]);
		assert_int_equal(err.line, 1);
	}
}

/* An unknown key at the top lists each section once, although a field may stand apart from
 * its section in the table (workload.attention_weights after efficiency.*). */
static void test_unknown_top_key(void **state)
{
	struct scenario s;
	struct gp_error err;
	const char *m, *w;

	(void)state;
	assert_int_equal(parse_text("xyzzy: 1\n", &s, NULL, &err), -1);
	m = strstr(err.message, "(expected one of ");
	assert_non_null(m);
	w = strstr(m, "workload");
	assert_non_null(w);
	if (strstr(w + 1, "workload"))
		fail_msg("a section listed twice: '%s'", err.message);
	for (const struct field *f = scenario_fields; f->key; f++) {
		char section[64];
		snprintf(section, sizeof(section), "%.*s", (int)strcspn(f->key, "."), f->key);
		if (!strstr(m, section))
			fail_msg("section '%s' not listed: '%s'", section, err.message);
	}
}

/* The message for an unknown key in each section of the field table: "expected one of"
 * the section's keys, each once in the table's order, when there are at most SCENARIO_KEYS_LISTED
 * and they fit the message; else "expected a key of" the section. The lists come from
 * scenario_fields[], so a new field needs no edit here. */
static void test_unknown_key_lists(void **state)
{
	int sections = 0, listed = 0;

	(void)state;
	for (const struct field *f = scenario_fields; f->key; f++) {
		for (const char *dot = strchr(f->key, '.'); dot; dot = strchr(dot + 1, '.')) {
			size_t plen = (size_t)(dot - f->key) + 1, ln = 0;
			char yaml[256] = "", want[1200], list[1024] = "", *q;
			const struct field *g;
			int n = 0, depth = 0;
			struct scenario sc;
			struct gp_error err;

			/* once a section: at the first field under it */
			for (g = scenario_fields; g < f && strncmp(g->key, f->key, plen) != 0; g++)
				;
			if (g < f)
				continue;
			for (g = f; g->key; g++) {
				char name[64];
				size_t k;
				if (strncmp(g->key, f->key, plen) != 0)
					continue;
				k = strcspn(g->key + plen, ".");
				snprintf(name, sizeof(name), "%.*s", (int)k, g->key + plen);
				/* each key once: "a, b" with name between separators */
				{
					char padded[1100], needle[70];
					snprintf(padded, sizeof(padded), ", %s,", list);
					snprintf(needle, sizeof(needle), ", %s,", name);
					if (strstr(padded, needle))
						continue;
				}
				ln += (size_t)snprintf(list + ln, sizeof(list) - ln, "%s%s",
						       n ? ", " : "", name);
				n++;
			}
			/* "a.b." as "a: {b: {xyzzy: 1}}" */
			for (const char *c = f->key; c < f->key + plen; c = q + 1) {
				q = strchr(c, '.');
				snprintf(yaml + strlen(yaml), sizeof(yaml) - strlen(yaml),
					 "%.*s: {", (int)(q - c), c);
				depth++;
			}
			snprintf(yaml + strlen(yaml), sizeof(yaml) - strlen(yaml), "xyzzy: 1%.*s\n",
				 depth, "}}}}}}}}");
			if (n <= SCENARIO_KEYS_LISTED && ln < SCENARIO_KEYS_LIST_BYTES) {
				snprintf(want, sizeof(want),
					 "unknown key 'xyzzy' (expected one of %s)", list);
				listed++;
			} else {
				snprintf(want, sizeof(want),
					 "unknown key 'xyzzy' (expected a key of '%.*s'",
					 (int)plen - 1, f->key);
			}
			if (parse_text(yaml, &sc, NULL, &err) != -1 || !strstr(err.message, want))
				fail_msg("'%s' gave '%s' (expected '%s')", yaml, err.message, want);
			assert_int_equal(err.line, 1);
			sections++;
		}
	}
	printf("%d sections, %d listing their keys\n", sections, listed);
	assert_true(sections >= 5 && listed >= 3);
}

/* Layouts that load but scenario_validate refuses (test_impossible_layouts_point_at_their_keys) */
static const struct {
	const char *file;
	int line;
	const char *message;
} layout_cases[] = {
    {"tp-not-dividing-heads.yaml", 7, "tp 3 does not divide the 32 attention heads"},
    {"layout-above-count.yaml", 7, "tp x pp x ep = 16 is more than the 8 GPUs"},
    {"kv-heads-above-heads.yaml", 5, "kv_heads 8 is above heads 4"},
    {"hidden-not-divisible.yaml", 3, "hidden 100 is not divisible by heads 3"},
    {"ssm-layers-above-layers.yaml", 9,
     "ssm.layers 3 and mixerless_layers 2 are more than the 4 layers"},
    {"sparse-layers-above-layers.yaml", 10, "sparse_layers 99 is more than the 4 layers"},
    {"sparse-without-stride.yaml", 8,
     "sparse_layers 2 needs sparse_local and sparse_stride above 0 (sparse_stride is 0)"},
    {"sparse-without-local.yaml", 8,
     "sparse_layers 2 needs sparse_local and sparse_stride above 0 (sparse_local is 0)"},
};

static void test_bad_folder_is_covered(void **state)
{
	DIR *d = opendir(BAD);
	struct dirent *de;
	int n = 0;

	(void)state;
	assert_non_null(d);
	while ((de = readdir(d)) != NULL) {
		size_t i;
		if (de->d_name[0] == '.')
			continue;
		for (i = 0; i < sizeof(bad_cases) / sizeof(bad_cases[0]); i++)
			if (strcmp(bad_cases[i].file, de->d_name) == 0)
				break;
		for (size_t j = 0; j < sizeof(layout_cases) / sizeof(layout_cases[0]); j++)
			if (strcmp(layout_cases[j].file, de->d_name) == 0)
				i = 0;
		if (i == sizeof(bad_cases) / sizeof(bad_cases[0]) &&
		    strcmp(de->d_name, "many-problems.yaml") != 0)
			fail_msg("%s%s is not tested", BAD, de->d_name);
		n++;
	}
	closedir(d);
	assert_true(n >= 30);
}

static void test_collects_every_problem(void **state)
{
	static const struct {
		int line, column;
		const char *message;
	} want[] = {
	    {1, 10, "unsupported schema version"},
	    {3, 11, "unknown model 'llama-2-7c'"},
	    {5, 3, "duplicate key 'layers'"},
	    {6, 8, "model.moe: expected a mapping"},
	    {8, 3, "unknown key 'batchsize' (did you mean 'batch'?)"},
	    {9, 12, "expected a single value, found a list"},
	    {10, 16, "expected a single value, found a mapping"},
	    {11, 32, "'2.5' is not a whole number"},
	    {12, 11, "workload.tokens: -5 is out of range"},
	    {13, 15, "cannot read '1sec'"},
	    {15, 8, "unknown GPU 'h100'"},
	    {16, 10, "hardware.count: 0 is out of range"},
	    {18, 9, "parallel.zero: 7 is out of range"},
	    {19, 7, "cannot read 'nan'"},
	    {20, 1, "unknown key 'seq_len' (did you mean 'workload.seq_len'?)"},
	    {21, 1, "unknown key 'modle' (did you mean 'model'?)"},
	    {22, 1, "dotted key 'model.preset'"},
	};
	struct scenario s;
	struct gp_problems p;
	struct gp_error err;

	(void)state;
	gp_problems_init(&p);
	assert_int_equal(scenario_load_file(BAD "many-problems.yaml", cat, &s, NULL, &p, &err), -1);
	assert_int_equal(p.count, (int)(sizeof(want) / sizeof(want[0])));
	for (int i = 0; i < p.count; i++) {
		if (p.items[i].line != want[i].line || p.items[i].column != want[i].column ||
		    !strstr(p.items[i].message, want[i].message))
			fail_msg("problem %d: %d:%d %s (expected %d:%d %s)", i, p.items[i].line,
				 p.items[i].column, p.items[i].message, want[i].line,
				 want[i].column, want[i].message);
		assert_string_equal(p.items[i].file, BAD "many-problems.yaml");
	}
	/* without a list, the first problem only */
	memset(&err, 0, sizeof(err));
	assert_int_equal(scenario_load_file(BAD "many-problems.yaml", cat, &s, NULL, NULL, &err),
			 -1);
	assert_true(err.line > 0);
}

/* Layouts that cannot be load, and scenario_validate points at the key responsible. */
static void test_impossible_layouts_point_at_their_keys(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(layout_cases) / sizeof(layout_cases[0]); i++) {
		char path[256];
		struct scenario s;
		struct scenario_source src;
		struct gp_problems p;
		struct gp_error err;
		int hit = 0;

		snprintf(path, sizeof(path), BAD "%s", layout_cases[i].file);
		gp_problems_init(&p);
		assert_int_equal(scenario_load_file(path, cat, &s, &src, &p, &err), 0);
		scenario_validate(&s, &src, &p);
		for (int j = 0; j < p.count; j++)
			if (strstr(p.items[j].message, layout_cases[i].message) &&
			    p.items[j].line == layout_cases[i].line &&
			    strcmp(p.items[j].file, path) == 0)
				hit = 1;
		if (!hit)
			fail_msg("%s: no '%s' at line %d (%d problems)", path,
				 layout_cases[i].message, layout_cases[i].line, p.count);
	}
}

static void test_deep_nesting_is_refused(void **state)
{
	const size_t depth = 20000;
	char *text = malloc(2 * depth + 16);
	struct scenario s;
	struct gp_error err;
	size_t n = 0;
	double t0;

	(void)state;
	assert_non_null(text);
	/* flow lists, then flow mappings, 20,000 deep */
	for (int kind = 0; kind < 2; kind++) {
		n = (size_t)sprintf(text, "model: ");
		for (size_t i = 0; i < depth; i++)
			text[n++] = kind ? '{' : '[';
		if (kind)
			n += (size_t)sprintf(text + n, "a: 1");
		for (size_t i = 0; i < depth; i++)
			text[n++] = kind ? '}' : ']';
		text[n] = '\0';
		t0 = now_s();
		assert_int_equal(scenario_parse(text, n, "deep.yaml", cat, &s, NULL, NULL, &err),
				 -1);
		assert_true(now_s() - t0 < 0.1 * time_factor());
		assert_non_null(strstr(err.message, "nesting deeper than"));
		assert_int_equal(err.line, 1);
		assert_true(err.column > 7 && err.column < 7 + 2 * SCENARIO_MAX_DEPTH);
	}
	free(text);
}

static void test_huge_file_is_refused(void **state)
{
	char path[] = "/tmp/gpuplan-huge-XXXXXX";
	int fd = mkstemp(path);
	struct scenario s;
	struct gp_problems p;
	struct gp_error err;
	double t0;

	(void)state;
	assert_true(fd >= 0);
	/* 100 MB, sparse: only what the loader reads is ever touched */
	assert_int_equal(ftruncate(fd, 100 * 1000 * 1000), 0);
	close(fd);
	gp_problems_init(&p);
	t0 = now_s();
	assert_int_equal(scenario_load_file(path, cat, &s, NULL, &p, &err), -1);
	assert_true(now_s() - t0 < 0.1 * time_factor());
	unlink(path);
	assert_int_equal(err.code, GP_EINPUT);
	assert_int_equal(gp_error_exit_status(&err), 2);
	assert_non_null(strstr(err.message, "larger than"));
	assert_int_equal(err.line, 1);
	assert_int_equal(p.count, 1);

	/* the same limit for text given directly */
	{
		size_t n = (size_t)SCENARIO_MAX_FILE_BYTES + 1;
		char *big = malloc(n);
		assert_non_null(big);
		memset(big, '#', n);
		assert_int_equal(scenario_parse(big, n, "big.yaml", cat, &s, NULL, NULL, &err), -1);
		assert_non_null(strstr(err.message, "larger than"));
		free(big);
	}
}

static void test_many_bad_keys_stay_fast(void **state)
{
	/* ~60,000 unknown keys in under 1 MB: problems beyond the list are counted only */
	size_t cap = SCENARIO_MAX_FILE_BYTES, n = 0;
	char *text = malloc(cap);
	struct scenario s;
	struct gp_problems p;
	struct gp_error err;
	double t0;
	int i = 0;

	(void)state;
	assert_non_null(text);
	while (n + 32 < cap)
		n += (size_t)sprintf(text + n, "k%07d: 1\n", i++);
	gp_problems_init(&p);
	t0 = now_s();
	assert_int_equal(scenario_parse(text, n, "keys.yaml", cat, &s, NULL, &p, &err), -1);
	/* linear: about 0.2 s here; with a suggestion for each key it would take seconds */
	assert_true(now_s() - t0 < 1.0 * time_factor());
	assert_int_equal(p.count, GP_MAX_PROBLEMS);
	assert_int_equal(p.count + p.dropped, i);
	free(text);
}

static void test_unreadable_file(void **state)
{
	struct scenario s;
	struct gp_error err;

	(void)state;
	assert_int_equal(
	    scenario_load_file("tests/data/no-such-file.yaml", cat, &s, NULL, NULL, &err), -1);
	assert_int_equal(err.code, GP_EIO);
	assert_string_equal(err.file, "tests/data/no-such-file.yaml");
}

static void test_standard_input(void **state)
{
	int saved = dup(0), fd = open("tests/data/scenarios/inference.yaml", O_RDONLY);
	struct scenario s;
	struct gp_error err;
	int rc;

	(void)state;
	assert_true(saved >= 0 && fd >= 0);
	assert_int_equal(dup2(fd, 0), 0);
	close(fd);
	rc = scenario_load_file("-", cat, &s, NULL, NULL, &err);
	dup2(saved, 0);
	close(saved);
	assert_int_equal(rc, 0);
	assert_string_equal(s.path, "-");
	assert_int_equal(s.workload.kind, WL_ONLINE);
	assert_int_equal(s.workload.batch, 0); /* auto */
	assert_true(s.workload.requests_per_day == 5e6);
	assert_true(s.workload.slo.tpot_s == 0.05);
}

/* ---- saving ------------------------------------------------------------------------------ */

static void test_round_trip_fixtures(void **state)
{
	static const char *const files[] = {
	    "tests/data/scenarios/full.yaml",
	    "tests/data/scenarios/inference.yaml",
	    "tests/data/scenarios/shape-only.yaml",
	    "tests/data/scenarios/hf-config.yaml",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		struct scenario s;
		struct gp_error err;
		char buf[512];
		if (scenario_load_file(files[i], cat, &s, NULL, NULL, &err) != 0)
			fail_msg("%s", gp_error_format(&err, buf, sizeof(buf)));
		assert_round_trip(&s);
	}
}

/* Values other than the default, for the fields whose value the test chooses (a string
 * with quotes and a hash, a count with its suffix, units); every other field gets one from
 * the table (other_value), so a new field needs no row here. */
static const char *const every_field[][2] = {
    {"name", "Every: field \"set\" # not a comment"},
    {"notes", "  leading spaces\ttab\nünïcödé line\n\n\ntrailing blank lines\n\n"},
    {"model.params", "6.74B"},
    {"model.layers", "3"},
    {"model.hidden", "96"},
    {"model.heads", "6"},
    {"model.kv_heads", "2"},
    {"model.head_dim", "16"},
    {"model.ffn", "300"},
    {"model.vocab", "1000"},
    {"model.mlp", "plain"},
    {"model.norm", "layernorm"},
    {"model.tied_embeddings", "true"},
    {"model.attention_bias", "true"},
    {"model.max_context", "32k"},
    {"model.moe.experts", "8"},
    {"model.moe.active", "2"},
    {"model.moe.shared", "1"},
    {"model.moe.expert_ffn", "128"},
    {"model.moe.shared_ffn", "256"},
    {"model.moe.dense_layers", "1"},
    {"model.moe.shared_gate", "true"},
    {"model.moe.router_bias", "true"},
    {"model.mla.q_rank", "48"},
    {"model.mla.kv_rank", "32"},
    {"model.mla.rope_dim", "8"},
    {"model.mla.nope_dim", "16"},
    {"model.mla.v_dim", "16"},
    {"model.qkv_bias", "true"},
    {"model.mlp_bias", "true"},
    {"model.qk_norm", "true"},
    {"model.qk_norm_full", "true"},
    {"model.attention_gate", "true"},
    {"model.attention_sinks", "true"},
    {"model.norms_per_layer", "4"},
    {"model.position_embeddings", "2050"},
    {"model.embedding_norm", "true"},
    {"model.parallel_block", "true"},
    {"model.sliding_window", "4096"},
    {"model.global_layers", "3"},
    {"model.chunked_attention", "true"},
    {"model.sparse_layers", "2"},
    {"model.sparse_local", "1024"},
    {"model.sparse_stride", "8"},
    {"model.embed_dim", "48"},
    {"model.no_final_norm", "true"},
    {"model.head_bias", "true"},
    {"model.dropout", "true"},
    {"model.ssm.layers", "6"},
    {"model.ssm.d_state", "128"},
    {"model.ssm.d_conv", "4"},
    {"model.ssm.expand", "2"},
    {"model.ssm.d_inner", "8192"},
    {"model.ssm.heads", "128"},
    {"model.ssm.groups", "8"},
    {"model.ssm.dt_rank", "256"},
    {"model.ssm.proj_bias", "true"},
    {"model.ssm.no_conv_bias", "true"},
    {"model.ssm.dt_norms", "true"},
    {"model.ssm.gated_delta", "true"},
    {"model.mixerless_layers", "2"},
    {"model.mlpless_layers", "4"},
    {"model.linear_blocks", "1"},
    {"model.ffn_sum", "40000"},
    {"model.kv_sum", "20"},
    {"model.vision_params", "417M"},
    {"workload.kind", "finetune"},
    {"workload.precision", "fp8"},
    {"workload.seq_len", "8192"},
    {"workload.micro_batch", "4"},
    {"workload.global_batch", "2048"},
    {"workload.tokens", "1.25T"},
    {"workload.optimizer", "adam8bit"},
    {"workload.grad_dtype", "fp32"},
    {"workload.recompute", "full"},
    {"workload.recompute_layers", "4"},
    {"workload.recompute_method", "uniform"},
    {"workload.flash_attention", "false"},
    {"workload.finetune.method", "qlora"},
    {"workload.finetune.rank", "64"},
    {"workload.finetune.targets", "[q, v, gate, up, down]"},
    {"workload.finetune.base_weights", "nf4"},
    {"workload.finetune.adapter_dtype", "bf16"},
    {"workload.finetune.dropout", "0.05"},
    {"workload.prompt_tokens", "2000"},
    {"workload.output_tokens", "300"},
    {"workload.batch", "auto"},
    {"workload.weights", "int4"},
    {"workload.expert_weights", "mxfp4"},
    {"workload.kv_cache", "fp8"},
    {"workload.engine", "cuda-graphs"},
    {"workload.framework", "fsdp"},
    {"workload.master_weights", "none"},
    {"workload.optimizer_states", "bf16"},
    {"workload.loss", "chunked"},
    {"workload.compile", "off"},
    {"workload.grad_lifetime", "fused"},
    {"workload.activation_offload", "true"},
    {"workload.fp8_scope", "linear"},
    {"parallel.reshard_after_forward", "never"},
    {"parallel.tp_comm_overlap", "on"},
    {"parallel.overlap_grad_reduce", "off"},
    {"parallel.overlap_param_gather", "on"},
    {"efficiency.overlap", "0.85"},
    {"workload.gpu_memory_utilization", "0.8"},
    {"workload.scheduler", "chunked"},
    {"workload.max_batched_tokens", "8192"},
    {"workload.max_running", "256"},
    {"workload.scheduler_steps", "8"},
    {"workload.requests_per_s", "4"},
    {"workload.concurrency", "50"},
    {"workload.requests", "2400"},
    {"workload.prefill_engines", "2"},
    {"workload.decode_engines", "6"},
    {"workload.prefix_cache_hit", "0.25"},
    {"workload.prefix_cache_tokens", "2M"},
    {"workload.host_kv_cache", "200GB"},
    {"workload.speculative.method", "draft"},
    {"workload.speculative.tokens", "4"},
    {"workload.speculative.acceptance", "0.7"},
    {"workload.speculative.draft_params", "1B"},
    {"workload.speculative.draft_layers", "16"},
    {"workload.prompt_length.dist", "uniform"},
    {"workload.prompt_length.min", "100"},
    {"workload.prompt_length.max", "900"},
    {"workload.prompt_length.sigma", "0.5"},
    {"workload.output_length.dist", "lognormal"},
    {"workload.output_length.min", "10"},
    {"workload.output_length.max", "500"},
    {"workload.output_length.sigma", "0.8"},
    {"workload.requests_per_day", "5M"},
    {"workload.peak_factor", "2.5"},
    {"workload.slo.ttft", "1.5s"},
    {"workload.slo.tpot", "50ms"},
    {"workload.slo.percentile", "99"},
    {"workload.measured_tokens_per_s", "3300"},
    {"workload.deadline", "30d"},
    {"hardware.gpu", "h100-sxm-80gb"},
    {"hardware.count", "512"},
    {"hardware.gpus_per_node", "4"},
    {"hardware.network", "3.2Tb/s"},
    {"hardware.storage", "2GB/s"},
    {"hardware.price_per_gpu_hour", "2.1"},
    {"hardware.pue", "1.45"},
    {"hardware.mtbf_gpu_hours", "12345.5"},
    {"hardware.memory", "94GiB"},
    {"hardware.hbm_bandwidth", "3.9TB/s"},
    {"hardware.link_bandwidth", "1.8TB/s"},
    {"hardware.power", "1.2kW"},
    {"parallel.tp", "2"},
    {"parallel.pp", "4"},
    {"parallel.dp", "64"},
    {"parallel.ep", "2"},
    {"parallel.cp", "2"},
    {"parallel.cp_comm", "all_gather"},
    {"parallel.ep_overlap", "true"},
    {"parallel.virtual_stages", "2"},
    {"parallel.zero", "3"},
    {"parallel.sequence_parallel", "true"},
    {"parallel.offload", "optimizer+params"},
    {"efficiency.mfu", "0.41"},
    {"efficiency.hbm", "80%"},
    {"efficiency.network", "0.7"},
    {"efficiency.gemm", "0.62"},
    {"efficiency.memory_overhead", "12%"},
    {"workload.embedding_weights", "bf16"},
    {"workload.attention_weights", "bf16"},
    {"workload.weight_group", "64"},
};

/* Sets field f of s to a value other than its value in d, from the table alone: the other
 * truth value, the first other name, or the first of its maximum, its minimum, 2 and 1
 * that reads and differs. Returns whether one did. */
static bool other_value(struct scenario *s, const struct scenario *d, const struct field *f)
{
	static const char *const truths[] = {"true", "false", NULL};
	static const char *const word[] = {"x", NULL};
	char nums[4][32];
	const char *numbers[5];
	const char *const *tries = f->names;
	struct gp_error err;

	snprintf(nums[0], sizeof(nums[0]), "%.17g", f->max);
	snprintf(nums[1], sizeof(nums[1]), "%.17g", f->min);
	snprintf(nums[2], sizeof(nums[2]), "2");
	snprintf(nums[3], sizeof(nums[3]), "1");
	for (int i = 0; i < 4; i++)
		numbers[i] = nums[i];
	numbers[4] = NULL;
	if (f->type == FIELD_BOOL)
		tries = truths;
	else if (f->type == FIELD_STR)
		tries = word;
	else if (f->type == FIELD_INT || f->type == FIELD_NUM)
		tries = numbers;
	for (; tries && *tries; tries++) {
		struct scenario t = *s;
		if (scenario_field_set(&t, cat, f, *tries, &err) == 0 &&
		    !scenario_field_equal(&t, d, f)) {
			*s = t;
			return true;
		}
	}
	return false;
}

static void test_round_trip_every_field(void **state)
{
	struct scenario s, d;
	struct gp_error err;
	size_t n = sizeof(every_field) / sizeof(every_field[0]);

	(void)state;
	scenario_init(&s);
	scenario_init(&d);
	for (size_t i = 0; i < n; i++) {
		char buf[512];
		if (scenario_set(&s, cat, every_field[i][0], every_field[i][1], &err) != 0)
			fail_msg("%s", gp_error_format(&err, buf, sizeof(buf)));
		for (size_t j = 0; j < i; j++)
			if (!strcmp(every_field[i][0], every_field[j][0]))
				fail_msg("%s is listed twice in every_field", every_field[i][0]);
	}
	/* every field but the version and the model presets (the shape is given instead) is
	 * set to something else than its default: the value above, or one from the table */
	for (const struct field *f = scenario_fields + 1; f->key; f++)
		if (strcmp(f->key, "model.preset") && strcmp(f->key, "model.hf_config") &&
		    scenario_field_equal(&s, &d, f) && !other_value(&s, &d, f))
			fail_msg("%s: no value other than its default reads: add it to every_field",
				 f->key);
	for (const struct field *f = scenario_fields + 1; f->key; f++)
		if (strcmp(f->key, "model.preset") && strcmp(f->key, "model.hf_config") &&
		    scenario_field_equal(&s, &d, f))
			fail_msg("%s still has its default", f->key);
	assert_round_trip(&s);
}

static void test_saved_form_is_short_and_ordered(void **state)
{
	struct scenario s;
	struct gp_error err;
	char *out;
	size_t len;

	(void)state;
	scenario_init(&s);
	assert_int_equal(scenario_set(&s, cat, "model.preset", "llama-2-7b", &err), 0);
	assert_int_equal(scenario_set(&s, cat, "hardware.gpu", "h100-sxm-80gb", &err), 0);
	assert_int_equal(scenario_set(&s, cat, "workload.tokens", "2T", &err), 0);
	assert_int_equal(scenario_set(&s, cat, "hardware.storage", "2GB/s", &err), 0);
	assert_int_equal(scenario_set(&s, cat, "parallel.zero", "1", &err), 0);
	assert_int_equal(scenario_set(&s, cat, "workload.finetune.rank", "8", &err), 0);
	assert_int_equal(scenario_set(&s, cat, "name", "short", &err), 0);
	/* equal to the preset: left out */
	assert_int_equal(scenario_set(&s, cat, "hardware.memory", "80GB", &err), 0);
	assert_int_equal(scenario_set(&s, cat, "model.layers", "32", &err), 0);
	assert_int_equal(scenario_format_yaml(&s, cat, &out, &len, &err), 0);
	assert_string_equal(out,
			    "gpuplan: 1\n"
			    "name: short\n"
			    "model:\n"
			    "  preset: llama-2-7b\n"
			    "workload:\n"
			    "  kind: train\n" /* gpuplan-scenario(5) requires it, default or not */
			    "  tokens: 2T\n"
			    "  finetune:\n"
			    "    rank: 8\n"
			    "hardware:\n"
			    "  gpu: h100-sxm-80gb\n"
			    "  storage: 2GB/s\n"
			    "parallel:\n"
			    "  zero: 1\n");
	free(out);

	/* a field differing from its preset but equal to the default is kept */
	assert_int_equal(scenario_set(&s, cat, "hardware.gpus_per_node", "4", &err), 0);
	s.model.tied_embeddings = !s.model.tied_embeddings;
	assert_int_equal(scenario_format_yaml(&s, cat, &out, &len, &err), 0);
	assert_non_null(strstr(out, "  gpus_per_node: 4\n"));
	assert_non_null(strstr(out, "  tied_embeddings: "));
	free(out);
	assert_round_trip(&s);
}

static void test_notes_kept_verbatim(void **state)
{
	static const char *const notes[] = {
	    "one line",
	    "one line and its break\n",
	    "  starts with spaces\nand goes on\n",
	    "ends without a break\nsecond line",
	    "several breaks at the end\n\n\n",
	    "\n\nstarts with breaks\n",
	    "trailing spaces   \nline\n",
	    "tab\tinside and \"quotes\" and: colons # and hashes\n",
	    "- looks like a list\n? and a key\n",
	    "ünïcödé ✓ 日本語\n",
	    "control \x01 character",
	    "",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(notes) / sizeof(notes[0]); i++) {
		struct scenario s, back;
		struct gp_error err;
		char *out;
		size_t len;

		scenario_init(&s);
		snprintf(s.notes, sizeof(s.notes), "%s", notes[i]);
		assert_int_equal(scenario_format_yaml(&s, cat, &out, &len, &err), 0);
		if (scenario_parse(out, len, "n.yaml", cat, &back, NULL, NULL, &err) != 0)
			fail_msg("notes %zu: %s\n%s", i, err.message, out);
		if (strcmp(back.notes, notes[i]) != 0)
			fail_msg("notes %zu: '%s' came back as '%s'\n%s", i, notes[i], back.notes,
				 out);
		/* a literal block where libyaml can write one: not with tabs, control
		 * characters or spaces before a line break (those get a quoted scalar) */
		if (notes[i][0] && strcspn(notes[i], "\x01\t") == strlen(notes[i]) &&
		    !strstr(notes[i], " \n"))
			if (!strstr(out, "notes: |"))
				fail_msg("notes %zu not written as a literal block:\n%s", i, out);
		free(out);
		assert_round_trip(&s);
	}
}

static void test_model_yaml(void **state)
{
	const struct catalog_model *cm = catalog_find_model(cat, "mixtral-8x7b");
	struct scenario s;
	struct gp_error err;
	char *out;
	size_t len;

	(void)state;
	assert_non_null(cm);
	assert_int_equal(scenario_format_model_yaml(&cm->model, &out, &len, &err), 0);
	assert_true(strncmp(out, "model:\n  layers: ", 17) == 0);
	assert_null(strstr(out, "gpuplan:"));
	assert_null(strstr(out, "workload:"));
	assert_int_equal(scenario_parse(out, len, "import.yaml", cat, &s, NULL, NULL, &err), 0);
	s.model.preset[0] = '\0';
	for (const struct field *f = scenario_fields; f->key; f++) {
		struct scenario want;
		if (strncmp(f->key, "model.", 6) != 0)
			continue;
		scenario_init(&want);
		want.model = cm->model;
		if (!scenario_field_equal(&s, &want, f))
			fail_msg("%s differs after import", f->key);
	}
	free(out);
}

static void test_save_file_is_atomic(void **state)
{
	char dir[] = "/tmp/gpuplan-save-XXXXXX", path[300], *text, *out;
	size_t len, olen;
	struct scenario s;
	struct gp_error err;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/plan.yaml", dir);
	assert_int_equal(
	    scenario_load_file("tests/data/scenarios/full.yaml", cat, &s, NULL, NULL, &err), 0);
	assert_int_equal(scenario_save_file(&s, cat, path, &err), 0);
	assert_int_equal(file_read_all(path, 1 << 20, &text, &len, &err), 0);
	assert_int_equal(scenario_format_yaml(&s, cat, &out, &olen, &err), 0);
	assert_int_equal(len, olen);
	assert_memory_equal(text, out, len);
	free(text);
	free(out);

	/* a save that cannot happen leaves the old file whole */
	if (geteuid() != 0) {
		struct scenario t = s;
		t.hardware.count = 128;
		assert_int_equal(chmod(dir, 0555), 0);
		assert_int_equal(scenario_save_file(&t, cat, path, &err), -1);
		assert_int_equal(err.code, GP_EIO);
		assert_int_equal(chmod(dir, 0755), 0);
		assert_int_equal(scenario_load_file(path, cat, &t, NULL, NULL, &err), 0);
		assert_int_equal(t.hardware.count, 64);
	}
	{
		char missing[400];
		snprintf(missing, sizeof(missing), "%s/no/such/dir/plan.yaml", dir);
		assert_int_equal(scenario_save_file(&s, cat, missing, &err), -1);
		assert_int_equal(err.code, GP_EIO);
	}
	unlink(path);
	assert_int_equal(rmdir(dir), 0);
}

static void test_hf_config_is_relative_to_the_file(void **state)
{
	struct scenario s;
	struct gp_error err;
	char buf[512];

	(void)state;
	if (scenario_load_file("tests/data/scenarios/hf-config.yaml", cat, &s, NULL, NULL, &err))
		fail_msg("%s", gp_error_format(&err, buf, sizeof(buf)));
	assert_string_equal(s.model.hf_config, "catalog/models/llama-2-7b.json");
	assert_int_equal(s.model.layers, 32);
	assert_int_equal(s.model.hidden, 4096);
	assert_int_equal(s.model.max_context, 2048); /* overridden */

	/* a config that is not there is bad input at the value */
	assert_int_equal(parse_text("model:\n  hf_config: nowhere/config.json\n", &s, NULL, &err),
			 -1);
	assert_int_equal(err.code, GP_EINPUT);
	assert_int_equal(err.line, 2);
	assert_int_equal(err.column, 14);
	assert_non_null(strstr(err.message, "nowhere/config.json"));
}

/* Every shipped scenario (scenarios/, scenarios/workshop/) loads against the shipped
 * catalog, and its canonical form round-trips. */
static void round_trip_folder(const char *dir, const struct catalog *shipped, int *count)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d)) != NULL) {
		char path[600], buf[512];
		size_t l = strlen(de->d_name);
		struct scenario s;
		struct gp_problems p;
		struct gp_error err;
		char *one, *two;
		size_t n1, n2;
		struct scenario back;

		if (l < 6 || strcmp(de->d_name + l - 5, ".yaml") != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		gp_problems_init(&p);
		if (scenario_load_file(path, shipped, &s, NULL, &p, &err) != 0)
			fail_msg("%s", gp_error_format(&err, buf, sizeof(buf)));
		assert_int_equal(scenario_format_yaml(&s, shipped, &one, &n1, &err), 0);
		if (scenario_parse(one, n1, path, shipped, &back, NULL, NULL, &err) != 0)
			fail_msg("%s saved does not load: %s", path, err.message);
		assert_same_fields(&s, &back);
		assert_int_equal(scenario_format_yaml(&back, shipped, &two, &n2, &err), 0);
		if (n1 != n2 || memcmp(one, two, n1) != 0)
			fail_msg("%s: canonical form is not stable", path);
		free(one);
		free(two);
		(*count)++;
	}
	closedir(d);
}

static void test_shipped_scenarios_round_trip(void **state)
{
	struct catalog *shipped;
	struct gp_error err;
	int count = 0;

	(void)state;
	if (access("catalog/gpus.yaml", R_OK) != 0 || access("scenarios", R_OK) != 0)
		skip();
	shipped = catalog_new();
	assert_int_equal(catalog_load_dir(shipped, "catalog", 0, &err), 0);
	round_trip_folder("scenarios", shipped, &count);
	round_trip_folder("scenarios/workshop", shipped, &count);
	catalog_free(shipped);
	if (count == 0)
		skip();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_full_file_loads),
	    cmocka_unit_test(test_presets_apply_before_fields),
	    cmocka_unit_test(test_targets_list_or_text),
	    cmocka_unit_test(test_empty_section_is_allowed),
	    cmocka_unit_test(test_set_assignment),
	    cmocka_unit_test(test_bad_inputs),
	    cmocka_unit_test(test_bad_folder_is_covered),
	    cmocka_unit_test(test_suggestions),
	    cmocka_unit_test(test_unknown_key_lists),
	    cmocka_unit_test(test_unknown_top_key),
	    cmocka_unit_test(test_collects_every_problem),
	    cmocka_unit_test(test_impossible_layouts_point_at_their_keys),
	    cmocka_unit_test(test_deep_nesting_is_refused),
	    cmocka_unit_test(test_huge_file_is_refused),
	    cmocka_unit_test(test_many_bad_keys_stay_fast),
	    cmocka_unit_test(test_unreadable_file),
	    cmocka_unit_test(test_standard_input),
	    cmocka_unit_test(test_round_trip_fixtures),
	    cmocka_unit_test(test_round_trip_every_field),
	    cmocka_unit_test(test_saved_form_is_short_and_ordered),
	    cmocka_unit_test(test_notes_kept_verbatim),
	    cmocka_unit_test(test_model_yaml),
	    cmocka_unit_test(test_save_file_is_atomic),
	    cmocka_unit_test(test_hf_config_is_relative_to_the_file),
	    cmocka_unit_test(test_shipped_scenarios_round_trip),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
