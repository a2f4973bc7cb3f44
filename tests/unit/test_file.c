/* test_file.c - whole-file reads and crash-safe writes: a save killed at any moment leaves the old
 * file or the new one, whole; a failed save leaves the old file as it was. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "file.h"

static char dir[256];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/gpuplan-test-file-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[300];
	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

static void path_in(char *buf, size_t size, const char *name)
{
	snprintf(buf, size, "%s/%s", dir, name);
}

static void test_read_and_write(void **state)
{
	char path[300], *data;
	size_t len;
	struct gp_error err;
	(void)state;
	path_in(path, sizeof(path), "a.yaml");
	assert_int_equal(file_write_atomic(path, "hello\n", 6, &err), 0);
	assert_int_equal(file_read_all(path, 100, &data, &len, &err), 0);
	assert_int_equal(len, 6);
	assert_string_equal(data, "hello\n");
	free(data);
	/* over the cap: an input error that names the limit */
	assert_int_equal(file_read_all(path, 3, &data, &len, &err), -1);
	assert_int_equal(err.code, GP_EINPUT);
	assert_non_null(strstr(err.message, "limit"));
	path_in(path, sizeof(path), "missing.yaml");
	assert_int_equal(file_read_all(path, 100, &data, &len, &err), -1);
	assert_int_equal(err.code, GP_EIO);
}

/* Saving through a symbolic link replaces the file it points to and keeps the link (as
 * editors do), also for a link to a link and a dangling relative link. */
static void test_save_through_symlink(void **state)
{
	char path[300], link[300], link2[300], dangling[300], *data;
	size_t len;
	struct stat st;
	struct gp_error err;
	(void)state;
	path_in(path, sizeof(path), "real.yaml");
	path_in(link, sizeof(link), "link.yaml");
	path_in(link2, sizeof(link2), "link2.yaml");
	assert_int_equal(file_write_atomic(path, "old\n", 4, &err), 0);
	assert_int_equal(symlink("real.yaml", link), 0);
	assert_int_equal(symlink("link.yaml", link2), 0);
	assert_int_equal(file_write_atomic(link2, "new\n", 4, &err), 0);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(lstat(link2, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(file_read_all(path, 100, &data, &len, &err), 0);
	assert_string_equal(data, "new\n");
	free(data);
	/* a dangling link: its target is created beside it */
	path_in(dangling, sizeof(dangling), "dangling.yaml");
	assert_int_equal(symlink("made.yaml", dangling), 0);
	assert_int_equal(file_write_atomic(dangling, "made\n", 5, &err), 0);
	assert_int_equal(lstat(dangling, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	path_in(path, sizeof(path), "made.yaml");
	assert_int_equal(file_read_all(path, 100, &data, &len, &err), 0);
	assert_string_equal(data, "made\n");
	free(data);
}

static void test_failed_save_keeps_old(void **state)
{
	char path[300], bad[320], *data;
	size_t len;
	struct gp_error err;
	(void)state;
	path_in(path, sizeof(path), "keep.yaml");
	assert_int_equal(file_write_atomic(path, "old\n", 4, &err), 0);
	/* a folder that is a file: the temporary cannot be created */
	snprintf(bad, sizeof(bad), "%s/sub.yaml", path);
	assert_int_equal(file_write_atomic(bad, "new\n", 4, &err), -1);
	assert_int_equal(err.code, GP_EIO);

	/* a full disk, simulated by a file-size limit in a child process */
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct rlimit rl = {4096, 4096};
		static char big[1 << 16];
		signal(SIGXFSZ, SIG_IGN);
		setrlimit(RLIMIT_FSIZE, &rl);
		memset(big, 'n', sizeof(big));
		_exit(file_write_atomic(path, big, sizeof(big), NULL) == -1 ? 0 : 1);
	}
	int st;
	waitpid(pid, &st, 0);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_int_equal(file_read_all(path, 100, &data, &len, &err), 0);
	assert_string_equal(data, "old\n");
	free(data);
	/* and no temporary is left behind */
	DIR *d = opendir(dir);
	struct dirent *e;
	while ((e = readdir(d)))
		assert_null(strstr(e->d_name, ".tmp."));
	closedir(d);
}

/* Kills a process in the middle of saving, many times: the file is always whole. */
static void test_killed_save_is_old_or_new(void **state)
{
	enum { SIZE = 1 << 20, ROUNDS = 40 };
	char path[300], *data;
	size_t len;
	struct gp_error err;
	static char a[SIZE], b[SIZE];
	(void)state;
	memset(a, 'a', SIZE);
	memset(b, 'b', SIZE);
	path_in(path, sizeof(path), "killed.yaml");
	assert_int_equal(file_write_atomic(path, a, SIZE, &err), 0);
	srand((unsigned)time(NULL));
	for (int i = 0; i < ROUNDS; i++) {
		pid_t pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			for (int k = 0;; k++)
				file_write_atomic(path, k % 2 ? a : b, SIZE, NULL);
		}
		struct timespec ts = {0, (long)(rand() % 20000) * 1000};
		nanosleep(&ts, NULL);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		assert_int_equal(file_read_all(path, 2 * SIZE, &data, &len, &err), 0);
		assert_int_equal(len, SIZE);
		assert_true(memcmp(data, a, SIZE) == 0 || memcmp(data, b, SIZE) == 0);
		free(data);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_and_write),
		cmocka_unit_test(test_save_through_symlink),
		cmocka_unit_test(test_failed_save_keeps_old),
		cmocka_unit_test(test_killed_save_is_old_or_new),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
