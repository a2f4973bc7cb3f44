/* file.h - whole-file reads with a size cap, and crash-safe writes. */
#ifndef GPUPLAN_FILE_H
#define GPUPLAN_FILE_H

#include <stddef.h>

#include "error.h"

/* Reads path ("-" = standard input) into a malloc'd buffer with a NUL after the last byte;
 * the caller frees *out. A file over max bytes is an input error (GP_EINPUT) naming the
 * limit; a read failure is GP_EIO. Returns 0 or -1. */
int file_read_all(const char *path, size_t max, char **out, size_t *len, struct gp_error *err);

/* Writes len bytes to path atomically: a temporary file in the same folder, fsync, rename,
 * fsync of the folder. On failure the old file is left whole and the temporary removed.
 * Returns 0 or -1 (GP_EIO). */
int file_write_atomic(const char *path, const char *data, size_t len, struct gp_error *err);

#endif
