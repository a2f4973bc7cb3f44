/* file.h - whole-file reads with a size cap, and crash-safe writes. */
#ifndef GPUPLAN_FILE_H
#define GPUPLAN_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"

/* Reads path ("-" = standard input) into a malloc'd buffer with a NUL after the last byte;
 * the caller frees *out. The file is opened without blocking (a FIFO with no writer never
 * hangs) and must be a regular file: a FIFO, a device or a socket is refused at once
 * (GP_EIO), as is a directory. A file over max bytes is an input error (GP_EINPUT) naming
 * the limit; a read failure is GP_EIO. Returns 0 or -1. */
int file_read_all(const char *path, size_t max, char **out, size_t *len, struct gp_error *err);

/* As file_read_all, for a file this process wrote for itself (a recovery file): path is
 * never followed through a symbolic link, and the file must be a regular file owned by the
 * effective user; otherwise GP_EIO. "-" is a file name here. */
int file_read_own(const char *path, size_t max, char **out, size_t *len, struct gp_error *err);

/* What a save to path would replace: the file itself, or the end of a symbolic link. */
struct file_target {
	bool exists;	     /* the file to replace exists (else a save creates it) */
	bool writable;	     /* it exists and its mode and the user allow writing it */
	unsigned long links; /* its hard links (0 when it does not exist) */
};

/* Fills *t for a save to path; -1 (GP_EIO, naming path) when a save must not go there:
 * the target exists and is not a regular file (a FIFO, a device, a directory, a socket),
 * a chain of symbolic links longer than the kernel follows (a loop: "Too many levels of
 * symbolic links"), or a dangling link whose end lies in no folder ("a dangling symbolic
 * link"). A dangling link (or chain) whose end's folder exists saves to that end. */
int file_check_target(const char *path, struct file_target *t, struct gp_error *err);

/* Writes len bytes to path atomically: a temporary file in the same folder, fsync, rename,
 * fsync of the folder. A symbolic link is kept: the file at the end of its chain is
 * replaced (or created, for a dangling one). A file
 * that is replaced keeps its mode and, where the process may set them, its owner and
 * group; a new file gets 0666 less the umask. Refuses what file_check_target refuses
 * (nothing is written). It does not refuse a read-only file: the front ends ask first.
 * Another hard link of the file keeps the old text. On failure the old file is left whole
 * and the temporary removed. Returns 0 or -1 (GP_EIO). */
int file_write_atomic(const char *path, const char *data, size_t len, struct gp_error *err);

/* Writes a private file (a recovery file) at path atomically: a temporary file created
 * with O_EXCL in the same folder, mode 0600, renamed onto path itself, so a symbolic link
 * planted at path is replaced, never written through; a directory there is a failure.
 * Returns 0 or -1 (GP_EIO). */
int file_write_own(const char *path, const char *data, size_t len, struct gp_error *err);

#endif
