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

int file_read_all(const char *path, size_t max, char **out, size_t *len, struct gp_error *err)
{
	int fd, is_stdin = strcmp(path, "-") == 0;
	size_t cap = 8192, n = 0;
	char *buf;
	ssize_t r;

	fd = is_stdin ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return gp_error_set(err, GP_EIO, path, 0, 0, "cannot open: %s", strerror(errno));
	buf = malloc(cap + 1);
	if (!buf) {
		if (!is_stdin)
			close(fd);
		return gp_error_set(err, GP_EIO, path, 0, 0, "out of memory");
	}
	for (;;) {
		if (n == cap) {
			char *nb;
			if (cap > max) {
				free(buf);
				if (!is_stdin)
					close(fd);
				return gp_error_set(err, GP_EINPUT, path, 0, 0,
						    "file is larger than the %zu-byte limit", max);
			}
			cap *= 2;
			nb = realloc(buf, cap + 1);
			if (!nb) {
				free(buf);
				if (!is_stdin)
					close(fd);
				return gp_error_set(err, GP_EIO, path, 0, 0, "out of memory");
			}
			buf = nb;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;
			free(buf);
			if (!is_stdin)
				close(fd);
			return gp_error_set(err, GP_EIO, path, 0, 0, "cannot read: %s",
					    strerror(e));
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	if (!is_stdin)
		close(fd);
	if (n > max) {
		free(buf);
		return gp_error_set(err, GP_EINPUT, path, 0, 0,
				    "file is larger than the %zu-byte limit", max);
	}
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
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

/* The file a save should replace: path itself, or, when path is a symbolic link, the file
 * it points to (followed to the end; a dangling link's target as written, relative to the
 * link's folder), so that the link stays a link, as editors keep it. */
static int save_target(const char *path, char *out, size_t size)
{
	struct stat st;
	char link[4096];
	ssize_t n;
	const char *slash;

	if (lstat(path, &st) != 0 || !S_ISLNK(st.st_mode))
		return snprintf(out, size, "%s", path) < (int)size ? 0 : -1;
	if (realpath(path, link)) /* the whole chain resolves */
		return snprintf(out, size, "%s", link) < (int)size ? 0 : -1;
	n = readlink(path, link, sizeof(link) - 1);
	if (n <= 0)
		return snprintf(out, size, "%s", path) < (int)size ? 0 : -1;
	link[n] = '\0';
	slash = strrchr(path, '/');
	if (link[0] == '/' || !slash)
		return snprintf(out, size, "%s", link) < (int)size ? 0 : -1;
	return snprintf(out, size, "%.*s/%s", (int)(slash - path), path, link) < (int)size ? 0 : -1;
}

int file_write_atomic(const char *path_given, const char *data, size_t len, struct gp_error *err)
{
	char tmp[4096], dir[4096], path[4096];
	const char *slash;
	int fd, e, dfd;
	struct stat st;
	mode_t mode = 0644;

	if (save_target(path_given, path, sizeof(path)) != 0)
		return gp_error_set(err, GP_EIO, path_given, 0, 0, "path too long");
	if (snprintf(tmp, sizeof(tmp), "%s.tmp.XXXXXX", path) >= (int)sizeof(tmp))
		return gp_error_set(err, GP_EIO, path_given, 0, 0, "path too long");
	fd = mkstemp(tmp);
	if (fd < 0)
		return gp_error_set(err, GP_EIO, path_given, 0, 0,
				    "cannot create a temporary file: %s", strerror(errno));
	/* keep the permissions of the file being replaced */
	if (stat(path, &st) == 0)
		mode = st.st_mode & 07777;
	if (write_all(fd, data, len) != 0 || fchmod(fd, mode) != 0 || fsync(fd) != 0) {
		e = errno;
		close(fd);
		unlink(tmp);
		return gp_error_set(err, GP_EIO, path_given, 0, 0, "cannot write: %s", strerror(e));
	}
	if (close(fd) != 0) {
		e = errno;
		unlink(tmp);
		return gp_error_set(err, GP_EIO, path_given, 0, 0, "cannot write: %s", strerror(e));
	}
	if (rename(tmp, path) != 0) {
		e = errno;
		unlink(tmp);
		return gp_error_set(err, GP_EIO, path_given, 0, 0, "cannot replace the file: %s",
				    strerror(e));
	}
	/* make the rename itself durable */
	slash = strrchr(path, '/');
	if (slash)
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash > path ? slash - path : 1), path);
	else
		snprintf(dir, sizeof(dir), ".");
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	return 0;
}
