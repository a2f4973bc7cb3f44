/* file.c - whole-file reads with a size cap, and writes through a temporary file, fsync
 * and rename, so a crash leaves the old file or the new one. */
#include "file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What a node that is not a regular file is, for messages. */
static const char *node_kind(mode_t m)
{
	static const struct {
		mode_t type; /* S_IFMT's bits, as S_ISFIFO and the others test them */
		const char *name;
	} kinds[] = {
	    {S_IFIFO, "a FIFO"},    {S_IFCHR, "a character device"}, {S_IFBLK, "a block device"},
	    {S_IFSOCK, "a socket"}, {S_IFDIR, "a directory"},	     {S_IFLNK, "a symbolic link"},
	};

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if ((m & S_IFMT) == kinds[i].type)
			return kinds[i].name;
	return "not a plain file";
}

/* Reads fd to its end into *out (NUL-terminated); closes fd unless it is standard input. */
static int read_fd(int fd, const char *path, size_t max, char **out, size_t *len,
		   struct gp_error *err)
{
	size_t cap = 8192, n = 0;
	char *buf = malloc(cap + 1);
	ssize_t r;
	int rc = -1;

	if (!buf) {
		gp_error_set(err, GP_EIO, path, 0, 0, "out of memory");
		goto out;
	}
	for (;;) {
		if (n == cap) {
			char *nb;
			if (cap > max) {
				gp_error_set(err, GP_EINPUT, path, 0, 0,
					     "file is larger than the %zu-byte limit", max);
				goto out;
			}
			cap *= 2;
			nb = realloc(buf, cap + 1);
			if (!nb) {
				gp_error_set(err, GP_EIO, path, 0, 0, "out of memory");
				goto out;
			}
			buf = nb;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			gp_error_set(err, GP_EIO, path, 0, 0, "cannot read: %s", strerror(errno));
			goto out;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	if (n > max) {
		gp_error_set(err, GP_EINPUT, path, 0, 0, "file is larger than the %zu-byte limit",
			     max);
		goto out;
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	buf = NULL;
	rc = 0;
out:
	free(buf);
	if (fd != STDIN_FILENO)
		close(fd);
	return rc;
}

/* Opens path for reading without blocking (O_NONBLOCK: a FIFO with no writer would block
 * open(2) forever) and checks, on the open descriptor, that it is a regular file; own also
 * refuses a symbolic link and a file of another user. Returns the descriptor or -1. */
static int open_regular(const char *path, bool own, struct gp_error *err)
{
	int flags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (own ? O_NOFOLLOW : 0);
	int fd = open(path, flags);
	struct stat st;

	if (fd < 0) {
		if (own && errno == ELOOP)
			return gp_error_set(err, GP_EIO, path, 0, 0,
					    "cannot open: a symbolic link (not followed)");
		return gp_error_set(err, GP_EIO, path, 0, 0, "cannot open: %s", strerror(errno));
	}
	if (fstat(fd, &st) != 0) {
		gp_error_set(err, GP_EIO, path, 0, 0, "cannot read: %s", strerror(errno));
		close(fd);
		return -1;
	}
	if (S_ISDIR(st.st_mode) || !S_ISREG(st.st_mode)) {
		/* a directory keeps read(2)'s own words, as before this check */
		if (S_ISDIR(st.st_mode))
			gp_error_set(err, GP_EIO, path, 0, 0, "cannot read: %s", strerror(EISDIR));
		else
			gp_error_set(err, GP_EIO, path, 0, 0,
				     "cannot read: not a regular file (%s)", node_kind(st.st_mode));
		close(fd);
		return -1;
	}
	if (own && st.st_uid != geteuid()) {
		gp_error_set(err, GP_EIO, path, 0, 0, "cannot read: owned by another user");
		close(fd);
		return -1;
	}
	return fd;
}

int file_read_all(const char *path, size_t max, char **out, size_t *len, struct gp_error *err)
{
	int fd = strcmp(path, "-") == 0 ? STDIN_FILENO : open_regular(path, false, err);

	return fd < 0 ? -1 : read_fd(fd, path, max, out, len, err);
}

int file_read_own(const char *path, size_t max, char **out, size_t *len, struct gp_error *err)
{
	int fd = open_regular(path, true, err);

	return fd < 0 ? -1 : read_fd(fd, path, max, out, len, err);
}

static int write_all(int fd, const char *data, size_t len)
{
	while (len) {
		ssize_t w = write(fd, data, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -1;
		data += w;
		len -= (size_t)w;
	}
	return 0;
}

/* Links a save follows before it calls the chain a loop: the kernel's MAXSYMLINKS
 * (include/linux/namei.h), so a chain open(2) follows is one a save follows. */
#define SAVE_MAX_LINKS 40

/* The name link (read from the link at path) stands for: relative to path's folder unless
 * absolute, as the kernel resolves it. malloc'd; NULL when out of memory. */
static char *link_join(const char *path, const char *link)
{
	const char *slash = strrchr(path, '/');
	char *res;

	if (link[0] == '/' || !slash)
		return strdup(link);
	res = malloc((size_t)(slash - path) + 1 + strlen(link) + 1);
	if (res)
		sprintf(res, "%.*s/%s", (int)(slash - path), path, link);
	return res;
}

/* The file a save should replace, malloc'd: path itself, or, when path is a symbolic link,
 * the file at the end of its chain (followed link by link, each target relative to its
 * link's folder; a dangling chain ends at the name that does not exist), so that the links
 * stay links, as editors keep them. *via_link tells that a link was followed. NULL with
 * errno ELOOP for a chain of more than SAVE_MAX_LINKS links (a loop), ENOMEM when out of
 * memory. */
static char *save_target(const char *path, bool *via_link)
{
	struct stat st;
	char *cur, *link, *next;
	ssize_t n;

	*via_link = false;
	if (lstat(path, &st) != 0 || !S_ISLNK(st.st_mode))
		return strdup(path);
	*via_link = true;
	if ((cur = realpath(path, NULL)) != NULL) /* the whole chain resolves */
		return cur;
	if (!(cur = strdup(path)))
		return NULL;
	for (int hops = 0; lstat(cur, &st) == 0 && S_ISLNK(st.st_mode); hops++) {
		size_t size = (size_t)st.st_size + 1 > 256 ? (size_t)st.st_size + 1 : 256;
		if (hops == SAVE_MAX_LINKS) {
			free(cur);
			errno = ELOOP;
			return NULL;
		}
		if (!(link = malloc(size))) {
			free(cur);
			return NULL;
		}
		n = readlink(cur, link, size - 1);
		if (n <= 0) { /* gone or changed meanwhile: the save checks this name */
			free(link);
			return cur;
		}
		link[n] = '\0';
		next = link_join(cur, link);
		free(link);
		free(cur);
		if (!(cur = next))
			return NULL;
	}
	return cur;
}

/* The folder of path, malloc'd ("." for a bare name); NULL when out of memory. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? strndup(path, slash > path ? (size_t)(slash - path) : 1) : strdup(".");
}

/* Checks the resolved target; st is filled when it exists. via_link: target is the end
 * of given's chain of symbolic links. */
static int check_target(const char *given, const char *target, bool via_link, struct stat *st,
			bool *exists, struct gp_error *err)
{
	*exists = false;
	if (lstat(target, st) != 0) {
		int e = errno;
		if (e == ENOENT && via_link) {
			/* a dangling link: its end is created, where its folder is there */
			char *dir = dir_of(target);
			struct stat dst;
			bool there = dir && stat(dir, &dst) == 0 && S_ISDIR(dst.st_mode);
			free(dir);
			if (!there)
				return gp_error_set(
				    err, GP_EIO, given, 0, 0,
				    "cannot save: a dangling symbolic link: its end "
				    "'%s' is in no folder (%s)",
				    target, strerror(ENOENT));
			return 0;
		}
		if (e == ENOENT)
			return 0;
		return gp_error_set(err, GP_EIO, given, 0, 0, "cannot save: %s", strerror(e));
	}
	*exists = true;
	if (S_ISLNK(st->st_mode)) /* left after resolving: changed while it was followed */
		return gp_error_set(err, GP_EIO, given, 0, 0,
				    "cannot save: a symbolic link that does not resolve (%s)",
				    strerror(ELOOP));
	if (!S_ISREG(st->st_mode))
		return gp_error_set(err, GP_EIO, given, 0, 0,
				    "cannot save over %s: not a regular file",
				    node_kind(st->st_mode));
	return 0;
}

/* save_target's failure as an error naming path. */
static int target_failed(const char *path, struct gp_error *err)
{
	if (errno == ELOOP)
		return gp_error_set(err, GP_EIO, path, 0, 0,
				    "cannot save: a symbolic link that does not resolve (%s)",
				    strerror(ELOOP));
	return gp_error_set(err, GP_EIO, path, 0, 0, "out of memory");
}

int file_check_target(const char *path, struct file_target *t, struct gp_error *err)
{
	bool via_link;
	char *target = save_target(path, &via_link);
	struct stat st;
	bool exists;
	int rc;

	memset(t, 0, sizeof(*t));
	if (!target)
		return target_failed(path, err);
	rc = check_target(path, target, via_link, &st, &exists, err);
	if (rc == 0 && exists) {
		t->exists = true;
		t->links = (unsigned long)st.st_nlink;
		/* the mode's write bits too: root may write anything, but a 0444 file says
		 * "do not", as vi reads it */
		t->writable =
		    (st.st_mode & 0222) && faccessat(AT_FDCWD, target, W_OK, AT_EACCESS) == 0;
	}
	free(target);
	return rc;
}

/* The folder of path, made durable after a rename into it. */
static void sync_dir_of(const char *path)
{
	char *dir = dir_of(path);
	int dfd;

	if (!dir)
		return;
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	free(dir);
}

/* Writes data to a new temporary beside path, with mode (and owner, when own is given),
 * and renames it onto path. */
static int replace_with(const char *given, const char *path, const char *data, size_t len,
			mode_t mode, const struct stat *owner, struct gp_error *err)
{
	size_t n = strlen(path);
	char *tmp = malloc(n + sizeof(".tmp.XXXXXX"));
	int fd, e;

	if (!tmp)
		return gp_error_set(err, GP_EIO, given, 0, 0, "out of memory");
	memcpy(tmp, path, n);
	memcpy(tmp + n, ".tmp.XXXXXX", sizeof(".tmp.XXXXXX"));
	/* mkstemp: O_CREAT|O_EXCL, mode 0600, so nothing planted at the name is followed */
	fd = mkstemp(tmp);
	if (fd < 0) {
		e = errno;
		free(tmp);
		return gp_error_set(err, GP_EIO, given, 0, 0, "cannot create a temporary file: %s",
				    strerror(e));
	}
	/* the owner first: chown clears the set-id bits that fchmod then sets; only root
	 * may give a file away, a member may keep the group: best effort */
	if (owner && fchown(fd, owner->st_uid, owner->st_gid) != 0)
		(void)!fchown(fd, (uid_t)-1, owner->st_gid);
	if (write_all(fd, data, len) != 0 || fchmod(fd, mode) != 0 || fsync(fd) != 0) {
		e = errno;
		close(fd);
		goto fail;
	}
	if (close(fd) != 0) {
		e = errno;
		goto fail;
	}
	if (rename(tmp, path) != 0) {
		e = errno;
		unlink(tmp);
		free(tmp);
		return gp_error_set(err, GP_EIO, given, 0, 0, "cannot replace the file: %s",
				    strerror(e));
	}
	free(tmp);
	/* make the rename itself durable */
	sync_dir_of(path);
	return 0;
fail:
	unlink(tmp);
	free(tmp);
	return gp_error_set(err, GP_EIO, given, 0, 0, "cannot write: %s", strerror(e));
}

int file_write_atomic(const char *path_given, const char *data, size_t len, struct gp_error *err)
{
	bool via_link;
	char *path = save_target(path_given, &via_link);
	struct stat st;
	bool exists;
	mode_t mode, mask;
	int rc;

	if (!path)
		return target_failed(path_given, err);
	if (check_target(path_given, path, via_link, &st, &exists, err) != 0) {
		free(path);
		return -1;
	}
	if (exists) {
		mode = st.st_mode & 07777; /* keep the permissions of the file being replaced */
	} else {
		mask = umask(0); /* umask(2) can only be read by setting it */
		umask(mask);
		mode = 0666 & ~mask;
	}
	rc = replace_with(path_given, path, data, len, mode, exists ? &st : NULL, err);
	free(path);
	return rc;
}

int file_write_own(const char *path, const char *data, size_t len, struct gp_error *err)
{
	return replace_with(path, path, data, len, 0600, NULL, err);
}
