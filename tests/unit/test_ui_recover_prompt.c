/* The question "restore them? (y/n)" after a lost session: n no longer deletes the recovery
 * file silently, the status line names the file deleted and says its edits went; Esc keeps
 * it and y restores (issue 15, review M7).
 * (n keeping the file, as vim's (D)elete would have it, is what test_ui_app's test_recovery
 * asserts against; see the branch's report.) */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "app.h"
#include "ui_catalog.h"

static struct catalog cat;
static struct app app;
static char dir[64], file[128], recover[160];

/* a scenario file, and a session on it with an edit that a signal wrote out */
static int setup(void **state)
{
	struct scenario s;
	struct gp_error err;
	(void)state;
	if (cat.ngpus == 0) {
		ui_cat_add_gpu(&cat, "h100-sxm-80gb", 80e9, 1e15, 2);
		ui_cat_add_model(&cat, "llama-3.1-8b", 32, 4096, 32, 8, 14336);
	}
	if (scenario_init_builtin(&s, &cat, &err) != 0)
		return -1;
	snprintf(dir, sizeof(dir), "%s", "/tmp/gpuplan-recover-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(file, sizeof(file), "%s/a.yaml", dir);
	snprintf(recover, sizeof(recover), "%s/.a.yaml.recover", dir);
	app_init(&app, &cat, &s, file, 0);
	app_command(&app, "w!");
	app_command(&app, "set hardware.count=32");
	app_compute(&app);
	if (app_write_recovery(&app) != 0 || access(recover, F_OK) != 0)
		return -1;
	/* the next start */
	app_init(&app, &cat, &s, file, 0);
	return app_offer_recovery(&app) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	unlink(recover);
	unlink(file);
	rmdir(dir);
	return 0;
}

static void key(int k)
{
	app_handle_key(&app, k);
	app_compute(&app);
}

static void test_n_says_it_deleted(void **state)
{
	(void)state;
	key('n');
	assert_int_equal(app.mode, MODE_NORMAL);
	assert_int_equal(access(recover, F_OK), -1);
	assert_non_null(strstr(app.status, "deleted"));
	assert_non_null(strstr(app.status, recover));
}

static void test_esc_keeps(void **state)
{
	(void)state;
	key(KEY_ESC);
	assert_int_equal(access(recover, F_OK), 0);
	assert_non_null(strstr(app.status, "kept"));
}

static void test_y_restores(void **state)
{
	(void)state;
	key('y');
	assert_int_equal(app.scn.hardware.count, 32);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_n_says_it_deleted, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_esc_keeps, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_y_restores, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
