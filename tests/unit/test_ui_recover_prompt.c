/* test_ui_recover_prompt.c - the question after a lost session, designed as vim's swap-file
 * question (issue 15, review M7 and m12): y restores the edits and keeps the recovery file until
 * they are saved or discarded, d deletes it, n and Esc keep it for later; a session that kept one
 * writes its own edits elsewhere; :w notices a file changed on disk; sessions without a file get
 * recovery files of their own (issue 16). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "app.h"
#include "scenario_yaml.h"
#include "ui_catalog.h"

static struct catalog cat;
static struct app app;
static struct scenario builtin;
static char dir[64], file[128], recover[160], state[128];

/* a scenario file, and a session on it with an edit that a signal wrote out */
static int setup(void **st)
{
	struct gp_error err;
	(void)st;
	if (cat.ngpus == 0) {
		ui_cat_add_gpu(&cat, "h100-sxm-80gb", 80e9, 1e15, 2);
		ui_cat_add_model(&cat, "llama-3.1-8b", 32, 4096, 32, 8, 14336);
	}
	if (scenario_init_builtin(&builtin, &cat, &err) != 0)
		return -1;
	snprintf(dir, sizeof(dir), "%s", "/tmp/gpuplan-recover-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(file, sizeof(file), "%s/a.yaml", dir);
	snprintf(recover, sizeof(recover), "%s/.a.yaml.recover", dir);
	snprintf(state, sizeof(state), "%s/state", dir);
	setenv("XDG_STATE_HOME", state, 1);
	app_init(&app, &cat, &builtin, file, 0);
	app_command(&app, "w!");
	app_command(&app, "set hardware.count=32");
	app_compute(&app);
	if (app_write_recovery(&app) != 0 || access(recover, F_OK) != 0)
		return -1;
	/* the next start */
	app_init(&app, &cat, &builtin, file, 0);
	return app_offer_recovery(&app) ? 0 : -1;
}

static int teardown(void **st)
{
	(void)st;
	char cmd[256];
	/* the folder mkdtemp made, and only it */
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (strncmp(dir, "/tmp/gpuplan-recover-", 21) == 0 && system(cmd) != 0)
		return -1;
	unsetenv("XDG_STATE_HOME");
	return 0;
}

static void key(int k)
{
	app_handle_key(&app, k);
	app_compute(&app);
}

static void command(const char *c)
{
	app_command(&app, c);
	app_compute(&app);
}

static void test_question_names_each_choice(void **st)
{
	(void)st;
	assert_int_equal(app_key_ctx(&app), KC_RECOVER);
	assert_non_null(strstr(app.status, "restore (y)"));
	assert_non_null(strstr(app.status, "discard (d)"));
	assert_non_null(strstr(app.status, "keep for later (n)"));
}

static void test_n_keeps_for_later(void **st)
{
	(void)st;
	key('n');
	assert_int_equal(app.mode, MODE_NORMAL);
	assert_int_equal(app.scn.hardware.count, builtin.hardware.count);
	assert_int_equal(access(recover, F_OK), 0);
	assert_non_null(strstr(app.status, "kept"));
	/* it is offered again at the next start */
	app_init(&app, &cat, &builtin, file, 0);
	assert_true(app_offer_recovery(&app));
	assert_string_equal(app.recover_path, recover);
}

static void test_kept_file_not_written_over(void **st)
{
	struct scenario t;
	struct gp_error err;
	(void)st;
	key('n');
	command("set hardware.count=4");
	/* this session hangs up: its edits go to the state folder, the kept file stays */
	assert_int_equal(app_write_recovery(&app), 0);
	assert_string_not_equal(app.recover_path, recover);
	assert_non_null(strstr(app.recover_path, "/state/gpuplan/a.yaml-"));
	assert_int_equal(scenario_load_file(recover, &cat, &t, NULL, NULL, &err), 0);
	assert_int_equal(t.hardware.count, 32);
	assert_int_equal(scenario_load_file(app.recover_path, &cat, &t, NULL, NULL, &err), 0);
	assert_int_equal(t.hardware.count, 4);
}

static void test_esc_keeps(void **st)
{
	(void)st;
	key(KEY_ESC);
	assert_int_equal(access(recover, F_OK), 0);
	assert_non_null(strstr(app.status, "kept"));
}

static void test_d_discards(void **st)
{
	(void)st;
	key('d');
	assert_int_equal(app.mode, MODE_NORMAL);
	assert_int_equal(access(recover, F_OK), -1);
	assert_non_null(strstr(app.status, "deleted"));
	assert_non_null(strstr(app.status, recover));
	assert_int_equal(app.scn.hardware.count, builtin.hardware.count);
}

static void test_y_keeps_until_saved(void **st)
{
	(void)st;
	key('y');
	assert_int_equal(app.scn.hardware.count, 32);
	/* a crash now (no recovery written) still leaves the restored edits on disk */
	assert_int_equal(access(recover, F_OK), 0);
	command("set hardware.count=16");
	assert_int_equal(access(recover, F_OK), 0);
	/* a hang-up rewrites the restored file itself, not another beside it */
	assert_int_equal(app_write_recovery(&app), 0);
	assert_string_equal(app.recover_path, recover);
	/* saving takes it */
	command("w!");
	assert_false(app_unsaved(&app));
	assert_int_equal(access(recover, F_OK), -1);
}

static void test_y_then_quit_discards(void **st)
{
	(void)st;
	key('y');
	command("q");
	assert_int_equal(app_key_ctx(&app), KC_QUIT);
	assert_int_equal(access(recover, F_OK), 0);
	key('y'); /* quit without saving: the edits are discarded on purpose */
	assert_true(app.quit);
	assert_int_equal(access(recover, F_OK), -1);
}

static void test_y_then_edit_other_discards(void **st)
{
	(void)st;
	key('y');
	command("e! ");
	assert_int_equal(access(recover, F_OK), 0); /* :e! with no name opens nothing */
	{
		char c[200];
		snprintf(c, sizeof(c), "e! %s", file);
		command(c);
	}
	assert_false(app_unsaved(&app));
	assert_int_equal(access(recover, F_OK), -1);
}

static void test_w_notices_change_on_disk(void **st)
{
	FILE *f;
	struct timespec ts[2] = {{0, UTIME_NOW}, {0, UTIME_NOW}};
	(void)st;
	key('y');
	/* another program rewrites the file after it was read */
	f = fopen(file, "a");
	assert_non_null(f);
	fputs("# changed by another program\n", f);
	fclose(f);
	utimensat(AT_FDCWD, file, ts, 0);
	command("w");
	assert_int_equal(app.mode, MODE_PROMPT);
	assert_int_equal(app.prompt, PROMPT_OVERWRITE);
	assert_non_null(strstr(app.status, "changed on disk"));
	key('n');
	assert_true(app_unsaved(&app));
	/* y writes it; the next :w does not ask again */
	command("w");
	key('y');
	assert_false(app_unsaved(&app));
	command("set hardware.count=4");
	command("w");
	assert_int_equal(app.mode, MODE_NORMAL);
	assert_false(app_unsaved(&app));
}

static void test_sessions_without_file_distinct(void **st)
{
	char first[sizeof(app.recover_path)];
	pid_t pid;
	int status;
	(void)st;
	key('d');
	/* a session without a file, in a child process (another pid), hangs up */
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		app_init(&app, &cat, &builtin, "", 0);
		app_command(&app, "set hardware.count=2");
		_exit(app_write_recovery(&app) == 0 ? 0 : 1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	/* and this one */
	app_init(&app, &cat, &builtin, "", 0);
	command("set hardware.count=4");
	assert_int_equal(app_write_recovery(&app), 0);
	snprintf(first, sizeof(first), "%s", app.recover_path);
	assert_non_null(strstr(first, "/state/gpuplan/recover-"));
	{
		/* two files, neither over the other */
		char cmd[300];
		snprintf(cmd, sizeof(cmd), "test $(ls '%s/gpuplan' | grep -c '^recover-') = 2",
			 state);
		assert_int_equal(system(cmd), 0);
	}
	/* the next start without a file offers one of them */
	app_init(&app, &cat, &builtin, "", 0);
	assert_true(app_offer_recovery(&app));
	assert_non_null(strstr(app.recover_path, "/state/gpuplan/recover-"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_question_names_each_choice, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_n_keeps_for_later, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_kept_file_not_written_over, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_esc_keeps, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_d_discards, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_y_keeps_until_saved, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_y_then_quit_discards, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_y_then_edit_other_discards, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_w_notices_change_on_disk, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_sessions_without_file_distinct, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
