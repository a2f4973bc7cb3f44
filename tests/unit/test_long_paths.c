/* test_long_paths.c - long paths and link chains (issue 16): a path of 300 or 4000 bytes is kept
 * whole in errors, scenarios and relative hf_config rewriting, or refused whole, never cut into
 * another path; a dangling chain of links saves at its end or says "dangling symbolic link", and
 * only a loop says ELOOP. Everything lives in a mktemp folder. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "error.h"
#include "file.h"
#include "scenario.h"
#include "scenario_yaml.h"
#include "deep_dir.h"
#include "shipped_catalog.h"

static char cfg_text_path[] = "catalog/models/llama-2-7b.json";

static int setup(void **state)
{
	if (deep_dir_top("gpuplan-test-paths") != 0)
		return -1;
	return shipped_catalog_setup(state);
}

static int teardown(void **state)
{
	if (deep_dir_remove() != 0)
		return -1;
	return shipped_catalog_teardown(state);
}

static void write_text(const char *path, const char *text)
{
	struct gp_error err;
	assert_int_equal(file_write_atomic(path, text, strlen(text), &err), 0);
}

static void copy_config(const char *to)
{
	char *data;
	size_t len;
	struct gp_error err;
	assert_int_equal(file_read_all(cfg_text_path, 1 << 20, &data, &len, &err), 0);
	assert_int_equal(file_write_atomic(to, data, len, &err), 0);
	free(data);
}

/* gp_error keeps a long file whole; one beyond GP_PATH_MAX is dropped and said to be too
 * long; a message cut to fit ends in "...". */
static void test_error_keeps_or_refuses_whole(void **state)
{
	static char path[6000], buf[GP_PATH_MAX + 2048];
	struct gp_error err;
	(void)state;

	memset(path, 'p', 300);
	path[0] = '/';
	path[300] = '\0';
	gp_error_set(&err, GP_EIO, path, 3, 4, "cannot read");
	assert_string_equal(err.file, path);
	gp_error_format(&err, buf, sizeof(buf));
	assert_int_equal(strncmp(buf, path, 300), 0);
	assert_string_equal(buf + 300, ":3:4: cannot read");

	memset(path, 'p', 4000);
	path[4000] = '\0';
	gp_error_set(&err, GP_EIO, path, 0, 0, "cannot read");
	assert_string_equal(err.file, path);

	memset(path, 'p', 5000);
	path[5000] = '\0';
	gp_error_set(&err, GP_EIO, path, 0, 0, "cannot open: %s", strerror(ENAMETOOLONG));
	assert_string_equal(err.file, "");
	assert_string_equal(err.message, "path too long (5000 bytes, limit 4095): cannot open: "
					 "File name too long");

	gp_error_set(&err, GP_EINPUT, NULL, 0, 0, "%s", path);
	assert_int_equal(strlen(err.message), sizeof(err.message) - 1);
	assert_string_equal(err.message + sizeof(err.message) - 4, "...");
}

/* A scenario 300 and 4000 bytes deep keeps its path whole and reads the hf_config beside
 * it; a name of GP_PATH_MAX bytes or more is refused whole. */
static void test_scenario_deep_path(void **state)
{
	static const size_t depth[] = {300, 3800};
	struct scenario *s = malloc(sizeof(*s));
	struct gp_error err;
	(void)state;

	for (size_t i = 0; i < 2; i++) {
		char *dir = deep_dir(i ? "long" : "mid", depth[i]);
		char file[GP_PATH_MAX], cfg[GP_PATH_MAX];
		snprintf(file, sizeof(file), "%s/s.yaml", dir);
		snprintf(cfg, sizeof(cfg), "%s/config.json", dir);
		assert_true(strlen(file) >= depth[i]);
		copy_config(cfg);
		write_text(file, "gpuplan: 1\nmodel:\n  hf_config: config.json\nhardware:\n"
				 "  gpu: h100-sxm-80gb\n");
		assert_int_equal(scenario_load_file(file, cat, s, NULL, NULL, &err), 0);
		assert_string_equal(s->path, file);
		assert_int_equal(s->model.layers, 32); /* llama-2-7b's num_hidden_layers */

		/* a bad value names the whole path */
		write_text(file, "gpuplan: 1\nworkload:\n  seq_len: many\n");
		assert_int_equal(scenario_load_file(file, cat, s, NULL, NULL, &err), -1);
		assert_string_equal(err.file, file);
		assert_int_equal(err.line, 3);
		free(dir);
	}

	{
		size_t n = GP_PATH_MAX + 10;
		char *name = malloc(n + 1);
		memset(name, 'n', n);
		name[n] = '\0';
		assert_int_equal(scenario_parse("gpuplan: 1\n", 11, name, cat, s, NULL, NULL, &err),
				 -1);
		assert_string_equal(err.file, "");
		assert_non_null(strstr(err.message, "path too long (4106 bytes, limit 4095)"));
		free(name);
	}
	free(s);
}

/* Saved elsewhere, a relative hf_config is rewritten; where the rewritten path would not
 * fit model.hf_config, the save is refused whole and nothing is written. */
static void test_rebase_refuses_what_does_not_fit(void **state)
{
	struct scenario *s = malloc(sizeof(*s)), *t = malloc(sizeof(*t));
	char *dir = deep_dir("rebase", 300);
	char file[GP_PATH_MAX], cfg[GP_PATH_MAX], near[GP_PATH_MAX], out[GP_PATH_MAX + 64];
	struct stat st;
	struct gp_error err;
	(void)state;

	snprintf(file, sizeof(file), "%s/s.yaml", dir);
	snprintf(cfg, sizeof(cfg), "%s/config.json", dir);
	copy_config(cfg);
	write_text(file, "gpuplan: 1\nmodel:\n  hf_config: config.json\nhardware:\n"
			 "  gpu: h100-sxm-80gb\n");
	assert_int_equal(scenario_load_file(file, cat, s, NULL, NULL, &err), 0);

	/* beside it, one folder down: "../config.json" */
	snprintf(near, sizeof(near), "%s/sub", dir);
	assert_int_equal(mkdir(near, 0700), 0);
	snprintf(out, sizeof(out), "%s/copy.yaml", near);
	assert_int_equal(scenario_save_file(s, cat, out, &err), 0);
	assert_int_equal(scenario_load_file(out, cat, t, NULL, NULL, &err), 0);
	assert_string_equal(t->model.hf_config, "../config.json");
	assert_int_equal(t->model.layers, 32);

	/* at the top, the config is 300 bytes away: more than model.hf_config holds */
	snprintf(out, sizeof(out), "%s/far.yaml", top);
	assert_int_equal(scenario_save_file(s, cat, out, &err), -1);
	assert_non_null(strstr(err.message, "limit 255"));
	assert_int_equal(lstat(out, &st), -1);
	free(dir);
	free(s);
	free(t);
}

/* A dangling chain saves at its end, the links kept; one whose end is in no folder says
 * "dangling symbolic link" and creates nothing; a loop says ELOOP. */
static void test_link_chains(void **state)
{
	char a[GP_PATH_MAX + 64], b[GP_PATH_MAX + 64], end[GP_PATH_MAX + 64], *data;
	struct file_target ft;
	struct stat st;
	struct gp_error err;
	(void)state;

	snprintf(a, sizeof(a), "%s/chain1", top);
	snprintf(b, sizeof(b), "%s/chain2", top);
	snprintf(end, sizeof(end), "%s/tgt", top);
	assert_int_equal(mkdir(end, 0700), 0);
	assert_int_equal(symlink("chain2", a), 0);
	assert_int_equal(symlink("tgt/end.yaml", b), 0);
	assert_int_equal(file_check_target(a, &ft, &err), 0);
	assert_false(ft.exists);
	assert_int_equal(file_write_atomic(a, "x\n", 2, &err), 0);
	assert_int_equal(lstat(a, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(lstat(b, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	strcat(end, "/end.yaml");
	assert_int_equal(file_read_all(end, 100, &data, &(size_t){0}, &err), 0);
	assert_string_equal(data, "x\n");
	free(data);

	/* into a folder that is not there */
	snprintf(a, sizeof(a), "%s/nowhere1", top);
	snprintf(b, sizeof(b), "%s/nowhere2", top);
	assert_int_equal(symlink("nowhere2", a), 0);
	assert_int_equal(symlink("gone/end.yaml", b), 0);
	assert_int_equal(file_write_atomic(a, "x\n", 2, &err), -1);
	assert_string_equal(err.file, a);
	assert_non_null(strstr(err.message, "dangling symbolic link"));
	assert_null(strstr(err.message, "Too many levels"));
	assert_int_equal(lstat(a, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	snprintf(end, sizeof(end), "%s/gone", top);
	assert_int_equal(lstat(end, &st), -1);

	/* a loop */
	snprintf(a, sizeof(a), "%s/loop1", top);
	snprintf(b, sizeof(b), "%s/loop2", top);
	assert_int_equal(symlink("loop2", a), 0);
	assert_int_equal(symlink("loop1", b), 0);
	assert_int_equal(file_write_atomic(a, "x\n", 2, &err), -1);
	assert_non_null(strstr(err.message, "Too many levels of symbolic links"));
	assert_int_equal(file_check_target(a, &ft, &err), -1);
	assert_non_null(strstr(err.message, "Too many levels of symbolic links"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_error_keeps_or_refuses_whole),
	    cmocka_unit_test(test_scenario_deep_path),
	    cmocka_unit_test(test_rebase_refuses_what_does_not_fit),
	    cmocka_unit_test(test_link_chains),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
