/* test_ui_long_paths.c - long paths in the terminal UI (issue 16): a scenario 300 and 3800 bytes
 * deep is saved by :w typed on the : line, opened by :e, walked by :next, pinned as the baseline
 * and given a recovery file, each with its path whole (the UI kept 512 bytes: such a path was cut
 * into the name of another file, or the : line refused it at 256); a path of PATH_MAX bytes or more
 * is refused whole with a message and creates nothing. Everything lives in a mktemp folder. */
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

#include "app_file.h"
#include "deep_dir.h"
#include "ui_app_fixture.h"

static int setup_dir(void **state)
{
	if (deep_dir_top("gpuplan-ui-paths") != 0)
		return -1;
	return setup(state);
}

static int teardown_dir(void **state)
{
	(void)state;
	return deep_dir_remove();
}

/* Types the : command cmd and Enter, as keys; then the recompute. */
static void type_command(const char *cmd)
{
	app_handle_key(&app, ':');
	for (const char *c = cmd; *c; c++)
		app_handle_key(&app, (unsigned char)*c);
	app_handle_key(&app, '\r');
	app_compute(&app);
}

/* The entries of folder dir, as one count. */
static int entries(const char *dir)
{
	char cmd[GP_PATH_MAX + 64];
	FILE *f;
	int n = 0, c;
	snprintf(cmd, sizeof(cmd), "ls -A '%s'", dir);
	f = popen(cmd, "r");
	assert_non_null(f);
	while ((c = fgetc(f)) != EOF)
		n += c == '\n';
	pclose(f);
	return n;
}

static void test_deep_paths_whole(void **state)
{
	static const size_t depth[] = {300, 3800};
	(void)state;
	for (size_t i = 0; i < 2; i++) {
		char *dir = deep_dir(i ? "long" : "mid", depth[i]);
		char a[GP_PATH_MAX], b[GP_PATH_MAX], cmd[GP_PATH_MAX + 16], want[GP_PATH_MAX + 16];
		struct stat st;

		setup(NULL);
		snprintf(a, sizeof(a), "%s/a.yaml", dir);
		snprintf(b, sizeof(b), "%s/b.yaml", dir);
		assert_true(strlen(a) > depth[i]);
		/* :w PATH typed on the : line: the line holds it, the file is written there */
		keys("3j+"); /* an edit: hardware.count 8 -> 16 */
		assert_true(app_unsaved(&app));
		snprintf(cmd, sizeof(cmd), "w %s", b);
		type_command(cmd);
		assert_false(app.status_error);
		assert_false(app.line.full);
		assert_int_equal(stat(b, &st), 0);
		assert_string_equal(app.path, b);
		assert_string_equal(app.scn.path, b);
		snprintf(want, sizeof(want), "written %s", b);
		assert_string_equal(app.status, want);
		assert_false(app_unsaved(&app));
		/* another file of the folder, then :e of the first back */
		assert_int_equal(app_save_force(&app, a), 0);
		assert_int_equal(stat(a, &st), 0);
		snprintf(cmd, sizeof(cmd), "e %s", b);
		type_command(cmd);
		assert_false(app.status_error);
		assert_string_equal(app.path, b);
		assert_int_equal(app.scn.hardware.count, 16);
		/* the baseline's file, whole (its mark names the file) */
		keys("b");
		assert_true(app.has_baseline);
		assert_string_equal(app.base_path, b);
		/* :prev walks the long folder: a.yaml before b.yaml */
		type_command("prev");
		assert_false(app.status_error);
		assert_string_equal(app.path, a);
		/* the recovery file beside it: .a.yaml.recover, the whole folder */
		keys("3j+");
		assert_int_equal(app_write_recovery(&app), 0);
		snprintf(want, sizeof(want), "%s/.a.yaml.recover", dir);
		assert_string_equal(app.recover_path, want);
		assert_int_equal(stat(want, &st), 0);
		assert_true(S_ISREG(st.st_mode));
		/* offered at the next start, by its whole name */
		{
			struct scenario s = app.saved;
			app_init(&app, &cat, &s, a, 0);
			assert_true(app_offer_recovery(&app));
			assert_string_equal(app.recover_path, want);
			assert_non_null(strstr(app.status, want));
		}
		free(dir);
	}
}

/* A name of PATH_MAX bytes or more, typed (it fits the : line) or from ~/ expanded, is
 * refused whole: the message says so with its length, nothing is created, and the scenario
 * keeps its file. */
static void test_too_long_refused_whole(void **state)
{
	char *dir = deep_dir("over", 3900);
	char name[GP_PATH_MAX + 64], cmd[GP_PATH_MAX + 80], want[96];
	const char *home = getenv("HOME");
	char *saved_home = home ? strdup(home) : NULL;
	int before;
	size_t n;
	(void)state;

	/* DIR/xxx...x.yaml, 4100 bytes: the first 4095 would be a name in DIR */
	n = (size_t)snprintf(name, sizeof(name), "%s/", dir);
	while (n < 4095)
		name[n++] = 'x';
	memcpy(name + n, ".yaml", 6);
	n += 5;
	before = entries(dir);
	keys("3j+");
	snprintf(cmd, sizeof(cmd), "w %s", name);
	type_command(cmd);
	assert_false(app.line.full); /* the : line holds it: the save refuses it */
	assert_true(app.status_error);
	snprintf(want, sizeof(want), "file name too long (%zu bytes; at most %d)", n,
		 GP_PATH_MAX - 1);
	assert_non_null(strstr(app.status, want));
	assert_int_equal(entries(dir), before);
	assert_string_equal(app.path, "");
	assert_true(app_unsaved(&app));
	/* :e of it, the same */
	snprintf(cmd, sizeof(cmd), "e! %s", name);
	type_command(cmd);
	assert_true(app.status_error);
	assert_non_null(strstr(app.status, want));

	/* ~/ expanded past PATH_MAX: HOME is the deep folder, the name 300 bytes */
	setenv("HOME", dir, 1);
	n = (size_t)snprintf(cmd, sizeof(cmd), "w ~/");
	while (n < 304)
		cmd[n++] = 'y';
	cmd[n] = '\0';
	type_command(cmd);
	assert_true(app.status_error);
	assert_non_null(strstr(app.status, "file name too long"));
	assert_int_equal(entries(dir), before);
	if (saved_home)
		setenv("HOME", saved_home, 1);
	else
		unsetenv("HOME");
	free(saved_home);
	free(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup(test_deep_paths_whole, setup),
	    cmocka_unit_test_setup(test_too_long_refused_whole, setup),
	};
	return cmocka_run_group_tests(tests, setup_dir, teardown_dir);
}
