/* error.h - how the core reports failure and validation problems.
 *
 * Core functions that can fail return 0 on success or -1 on failure and fill an optional
 * struct gp_error (NULL is accepted: the caller then only learns that it failed). The core
 * never prints and never exits; front ends format the error with gp_error_format().
 */
#ifndef GPUPLAN_ERROR_H
#define GPUPLAN_ERROR_H

#include <stdarg.h>
#include <stddef.h>

/* The longest path a struct gp_error, a scenario's path and its source keep, with the NUL:
 * Linux's PATH_MAX (<linux/limits.h>), the longest name open(2) takes. A longer path is
 * never cut into another one: gp_error_set() drops it and says "path too long (N bytes,
 * limit 4095)", and the loaders refuse it whole. */
#define GP_PATH_MAX 4096

enum gp_error_code {
	GP_OK = 0,
	GP_EINPUT,    /* bad input: a file, a field, a value (exit status 2) */
	GP_EUSAGE,    /* bad command line (exit status 2) */
	GP_EIO,	      /* reading or writing failed (exit status 1) */
	GP_EINTERNAL, /* a bug or an impossible state (exit status 1) */
};

struct gp_error {
	enum gp_error_code code;
	char file[GP_PATH_MAX]; /* "" when the input is not a file (a --set, a typed value) */
	int line;		/* 1-based; 0 when unknown */
	int column;		/* 1-based; 0 when unknown */
	char field[64];		/* the scenario key concerned, e.g. "workload.seq_len"; may be "" */
	/* lowercase, no final period: "unknown key 'batchsize' (did you mean 'batch'?)"; room
	 * for a path of a few hundred bytes; one that does not fit ends in "..." */
	char message[1024];
};

/* Fills err (when not NULL) and returns -1, so a failing path can `return gp_error_set(...)`.
 * file may be NULL. A file of GP_PATH_MAX bytes or more is not kept (err->file is "") and
 * the message starts "path too long (N bytes, limit 4095): "; a message that does not fit
 * ends in "...": neither is ever cut silently. */
int gp_error_set(struct gp_error *err, enum gp_error_code code, const char *file, int line,
		 int column, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* gp_error_set with a va_list. */
int gp_error_vset(struct gp_error *err, enum gp_error_code code, const char *file, int line,
		  int column, const char *fmt, va_list ap) __attribute__((format(printf, 6, 0)));

/* Sets err->field (when err is not NULL). */
void gp_error_set_field(struct gp_error *err, const char *field);

/* Formats "FILE:LINE:COL: message" (parts that are unknown are left out) into buf;
 * returns buf. */
char *gp_error_format(const struct gp_error *err, char *buf, size_t size);

/* The process exit status for an error: 2 for input and usage, 1 otherwise. */
int gp_error_exit_status(const struct gp_error *err);

/* Validation is not failure: it collects every problem, not only the first. */
#define GP_MAX_PROBLEMS 64
struct gp_problems {
	int count;   /* problems kept, at most GP_MAX_PROBLEMS */
	int dropped; /* problems beyond that, counted only */
	struct gp_error items[GP_MAX_PROBLEMS];
};

void gp_problems_init(struct gp_problems *p);
/* Appends a copy of err; never fails (counts it in dropped when full). */
void gp_problems_add(struct gp_problems *p, const struct gp_error *err);

#endif
