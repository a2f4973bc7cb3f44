/* deep_dir.h - a mktemp folder (top) for a test program of long paths, and folders of
 * 200-byte names below it (NAME_MAX is 255) down to a path of a given length. Include once
 * per test program, after cmocka.h. */
#ifndef GPUPLAN_TEST_DEEP_DIR_H
#define GPUPLAN_TEST_DEEP_DIR_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "error.h"

static char top[GP_PATH_MAX];

/* Makes top, $TMPDIR/NAME-XXXXXX (else under /tmp); 0 or -1. */
static int deep_dir_top(const char *name)
{
	snprintf(top, sizeof(top), "%s/%s-XXXXXX",
		 getenv("TMPDIR") && getenv("TMPDIR")[0] ? getenv("TMPDIR") : "/tmp", name);
	return mkdtemp(top) ? 0 : -1;
}

/* Removes top and everything below it; 0 or -1. */
static int deep_dir_remove(void)
{
	char cmd[GP_PATH_MAX + 32];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	return system(cmd) == 0 ? 0 : -1;
}

/* Makes folders below top, each name 200 bytes, until the path is at least want bytes;
 * returns the folder's path (malloc'd). */
static char *deep_dir(const char *name, size_t want)
{
	char part[201];
	char *p = malloc(GP_PATH_MAX);
	size_t n;

	assert_non_null(p);
	memset(part, 'd', 200);
	part[200] = '\0';
	memcpy(part, name, strlen(name));
	n = (size_t)snprintf(p, GP_PATH_MAX, "%s", top);
	while (n < want) {
		n += (size_t)snprintf(p + n, GP_PATH_MAX - n, "/%s", part);
		assert_true(n < GP_PATH_MAX);
		assert_int_equal(mkdir(p, 0700), 0);
	}
	return p;
}

#endif
