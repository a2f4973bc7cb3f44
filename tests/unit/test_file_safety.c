/* test_file_safety.c - the file module against a hostile or odd filesystem (issue 16): no input
 * blocks, no save replaces a node that is not a regular file, private files are never written
 * through a planted link, and modes follow the umask and the file replaced. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <dirent.h>
#include <unistd.h>

#include "file.h"

static char dir[256];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/gpuplan-test-safety-XXXXXX");
	/* a test that would block is killed rather than hang the suite */
	alarm(20);
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

static char *slurp(const char *path)
{
	char *data = NULL;
	size_t len;
	struct gp_error err;
	return file_read_all(path, 1 << 20, &data, &len, &err) == 0 ? data : NULL;
}

/* A FIFO with no writer is refused at once (open(2) without O_NONBLOCK would block), and
 * so is a character device; a regular file still reads. */
static void test_read_refuses_fifo_and_device(void **state)
{
	char fifo[300], *data = NULL;
	size_t len;
	struct gp_error err;
	(void)state;
	path_in(fifo, sizeof(fifo), "in.fifo");
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(file_read_all(fifo, 100, &data, &len, &err), -1);
	assert_int_equal(err.code, GP_EIO);
	assert_non_null(strstr(err.message, "not a regular file (a FIFO)"));
	assert_int_equal(file_read_all("/dev/null", 100, &data, &len, &err), -1);
	assert_non_null(strstr(err.message, "character device"));
	assert_int_equal(file_read_own(fifo, 100, &data, &len, &err), -1);
}

/* A save onto a FIFO or a device is refused and leaves the node as it was. */
static void test_save_refuses_non_regular(void **state)
{
	char fifo[300], link[300];
	struct stat st;
	struct file_target t;
	struct gp_error err;
	(void)state;
	path_in(fifo, sizeof(fifo), "out.fifo");
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(file_write_atomic(fifo, "x\n", 2, &err), -1);
	assert_non_null(strstr(err.message, "not a regular file"));
	assert_int_equal(lstat(fifo, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	assert_int_equal(file_check_target("/dev/null", &t, &err), -1);
	assert_non_null(strstr(err.message, "character device"));
	/* through a link to it, too (a FIFO of our own: never link to the system's /dev/null,
	 * which a broken save run as root would replace) */
	path_in(link, sizeof(link), "fifo.yaml");
	assert_int_equal(symlink("out.fifo", link), 0);
	assert_int_equal(file_write_atomic(link, "x\n", 2, &err), -1);
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
}

/* A symbolic link loop is ELOOP, never turned into a file. */
static void test_save_refuses_link_loop(void **state)
{
	char a[300], b[300];
	struct stat st;
	struct gp_error err;
	(void)state;
	path_in(a, sizeof(a), "loopa");
	path_in(b, sizeof(b), "loopb");
	assert_int_equal(symlink("loopb", a), 0);
	assert_int_equal(symlink("loopa", b), 0);
	assert_int_equal(file_write_atomic(a, "x\n", 2, &err), -1);
	assert_int_equal(lstat(a, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(lstat(b, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
}

/* New files follow the umask; a replaced file keeps its mode. */
static void test_modes(void **state)
{
	char path[300];
	struct stat st;
	struct gp_error err;
	mode_t old = umask(077);
	(void)state;
	path_in(path, sizeof(path), "new.yaml");
	assert_int_equal(file_write_atomic(path, "a\n", 2, &err), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	umask(022);
	path_in(path, sizeof(path), "new2.yaml");
	assert_int_equal(file_write_atomic(path, "a\n", 2, &err), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0644);
	assert_int_equal(chmod(path, 0600), 0);
	assert_int_equal(file_write_atomic(path, "b\n", 2, &err), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	umask(old);
}

/* What a front end asks about before a save: read-only, hard links. */
static void test_check_target(void **state)
{
	char path[300], other[300];
	struct file_target t;
	struct gp_error err;
	(void)state;
	path_in(path, sizeof(path), "ro.yaml");
	assert_int_equal(file_check_target(path, &t, &err), 0);
	assert_false(t.exists);
	assert_int_equal(file_write_atomic(path, "a\n", 2, &err), 0);
	assert_int_equal(file_check_target(path, &t, &err), 0);
	assert_true(t.exists && t.writable);
	assert_int_equal(t.links, 1);
	assert_int_equal(chmod(path, 0444), 0);
	assert_int_equal(file_check_target(path, &t, &err), 0);
	assert_false(t.writable);
	path_in(other, sizeof(other), "other.yaml");
	assert_int_equal(link(path, other), 0);
	assert_int_equal(file_check_target(path, &t, &err), 0);
	assert_int_equal(t.links, 2);
}

/* A private file is written at the name itself: a link planted there is replaced, and the
 * file it pointed to is untouched; the file is 0600 whatever the umask. */
static void test_write_own_never_follows(void **state)
{
	char victim[300], rec[300], dangling[300], made[300], *data;
	struct stat st;
	struct gp_error err;
	mode_t old = umask(0);
	(void)state;
	path_in(victim, sizeof(victim), "victim");
	path_in(rec, sizeof(rec), ".a.yaml.recover");
	assert_int_equal(file_write_atomic(victim, "keys\n", 5, &err), 0);
	assert_int_equal(symlink(victim, rec), 0);
	assert_int_equal(file_write_own(rec, "edits\n", 6, &err), 0);
	assert_int_equal(lstat(rec, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0600);
	data = slurp(victim);
	assert_string_equal(data, "keys\n");
	free(data);
	/* a dangling link creates nothing at its target */
	path_in(dangling, sizeof(dangling), ".b.yaml.recover");
	path_in(made, sizeof(made), "made");
	assert_int_equal(symlink("made", dangling), 0);
	assert_int_equal(file_write_own(dangling, "edits\n", 6, &err), 0);
	assert_int_equal(lstat(made, &st), -1);
	umask(old);
}

/* file_read_own refuses a link, so a recovery file swapped for one is not read. */
static void test_read_own_refuses_link(void **state)
{
	char real[300], lnk[300], *data = NULL;
	size_t len;
	struct gp_error err;
	(void)state;
	path_in(real, sizeof(real), "real");
	path_in(lnk, sizeof(lnk), "lnk");
	assert_int_equal(file_write_own(real, "x\n", 2, &err), 0);
	assert_int_equal(file_read_own(real, 100, &data, &len, &err), 0);
	assert_string_equal(data, "x\n");
	free(data);
	assert_int_equal(symlink("real", lnk), 0);
	assert_int_equal(file_read_own(lnk, 100, &data, &len, &err), -1);
	assert_non_null(strstr(err.message, "symbolic link"));
}

/* The other user of the ownership tests: "nobody" on Debian (65534). Only root may give a
 * file away, so as another user the test checks what that user can: its own files. */
#define OTHER_UID ((uid_t)65534)

/* A recovery file owned by another user is not read (a planted file is never offered);
 * one owned by the effective user is. */
static void test_read_own_refuses_other_owner(void **state)
{
	char path[300], *data = NULL;
	size_t len;
	struct gp_error err;
	(void)state;
	path_in(path, sizeof(path), ".planted.recover");
	assert_int_equal(file_write_own(path, "x\n", 2, &err), 0);
	assert_int_equal(file_read_own(path, 100, &data, &len, &err), 0);
	free(data);
	data = NULL;
	if (geteuid() != 0)
		return; /* no file of another user can be made here */
	assert_int_equal(chown(path, OTHER_UID, OTHER_UID), 0);
	assert_int_equal(file_read_own(path, 100, &data, &len, &err), -1);
	assert_null(data);
	assert_non_null(strstr(err.message, "owned by another user"));
}

/* A replaced file keeps its owner and group where the process may set them (root: any;
 * another user: its own), and its mode. */
static void test_save_keeps_owner(void **state)
{
	char path[300];
	struct stat st;
	struct gp_error err;
	uid_t uid = geteuid() == 0 ? OTHER_UID : geteuid();
	gid_t gid = geteuid() == 0 ? (gid_t)OTHER_UID : getegid();
	(void)state;
	path_in(path, sizeof(path), "owned.yaml");
	assert_int_equal(file_write_atomic(path, "old\n", 4, &err), 0);
	assert_int_equal(chown(path, uid, gid), 0);
	assert_int_equal(chmod(path, 0640), 0);
	assert_int_equal(file_write_atomic(path, "new\n", 4, &err), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_uid, uid);
	assert_int_equal(st.st_gid, gid);
	assert_int_equal(st.st_mode & 07777, 0640);
}

static volatile sig_atomic_t got_xfsz;
static void on_xfsz(int sig)
{
	(void)sig;
	got_xfsz = 1;
}

/* SIGXFSZ during a save, caught as the terminal UI catches it (a handler that sets a flag,
 * ui/tui.c): the write fails with EFBIG, the old file is whole and no temporary is left. */
static void test_xfsz_during_save(void **state)
{
	char path[300], *data;
	size_t len;
	struct gp_error err;
	int st;
	(void)state;
	path_in(path, sizeof(path), "xfsz.yaml");
	assert_int_equal(file_write_atomic(path, "old\n", 4, &err), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		struct sigaction sa;
		struct rlimit rl = {4096, 4096};
		static char big[1 << 16];
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_xfsz;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGXFSZ, &sa, NULL);
		setrlimit(RLIMIT_FSIZE, &rl);
		memset(big, 'n', sizeof(big));
		_exit(file_write_atomic(path, big, sizeof(big), &err) == -1 && got_xfsz &&
			      strstr(err.message, "File too large")
			  ? 0
			  : 1);
	}
	waitpid(pid, &st, 0);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_int_equal(file_read_all(path, 100, &data, &len, &err), 0);
	assert_string_equal(data, "old\n");
	free(data);
	DIR *d = opendir(dir);
	struct dirent *e;
	assert_non_null(d);
	while ((e = readdir(d)))
		assert_null(strstr(e->d_name, "xfsz.yaml.tmp."));
	closedir(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_read_refuses_fifo_and_device),
	    cmocka_unit_test(test_save_refuses_non_regular),
	    cmocka_unit_test(test_save_refuses_link_loop),
	    cmocka_unit_test(test_modes),
	    cmocka_unit_test(test_check_target),
	    cmocka_unit_test(test_write_own_never_follows),
	    cmocka_unit_test(test_read_own_refuses_link),
	    cmocka_unit_test(test_read_own_refuses_other_owner),
	    cmocka_unit_test(test_save_keeps_owner),
	    cmocka_unit_test(test_xfsz_during_save),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
