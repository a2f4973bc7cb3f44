/* measured_rows.h - one data file of tests/validation/ (a group of published measurements,
 * each with its source and scenario) loaded for a unit test, the same rows `gpuplan
 * validate` plans: the test computes each figure from the plan itself and checks that
 * validate reads that very number, so the two cannot disagree. Include after cmocka.h and
 * shipped_catalog.h (the rows name catalog GPUs). */
#ifndef GPUPLAN_TEST_MEASURED_ROWS_H
#define GPUPLAN_TEST_MEASURED_ROWS_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "validate.h"

/* Loads path into v (fail_msg on a problem). */
static inline void measured_load(struct validation *v, const char *path)
{
	struct gp_error err;
	validation_init(v);
	if (validation_load_file(v, path, &err) != 0)
		fail_msg("%s:%d:%d: %s", err.file, err.line, err.column, err.message);
	assert_int_equal(v->ngroups, 1);
}

/* A cmocka group setup: the shipped catalog, then path's rows into v (-1, said on stderr,
 * when either does not load). measured_teardown undoes it. */
static inline int measured_setup(void **state, struct validation *v, const char *path)
{
	struct gp_error err;
	if (shipped_catalog_setup(state) != 0)
		return -1;
	validation_init(v);
	if (validation_load_file(v, path, &err) != 0) {
		fprintf(stderr, "%s:%d:%d: %s\n", err.file, err.line, err.column, err.message);
		return -1;
	}
	return 0;
}

static inline int measured_teardown(void **state, struct validation *v)
{
	validation_release(v);
	return shipped_catalog_teardown(state);
}

/* Row r's scenario in *s, planned into *p. */
static inline void measured_plan(const struct validate_row *r, struct scenario *s, struct plan *p)
{
	struct gp_error err;
	if (validate_row_scenario(r, cat, s, &err) != 0)
		fail_msg("%s: %s", r->id, err.message);
	plan_compute(s, p);
}

/* got (the test's own figure from the plan, in the row's unit) is what validate reads. */
static inline void measured_same(const struct validate_row *r, const struct scenario *s,
				 const struct plan *p, double got)
{
	double v;
	assert_int_equal(validate_row_predict(r, s, p, &v), 0);
	if (!(fabs(v - got) <= 1e-12 * fabs(got)))
		fail_msg("%s: validate reads %.9g, the test %.9g", r->id, v, got);
}

/* The row with this id (fail_msg when there is none). */
static inline const struct validate_row *measured_row(const struct validation *v, const char *id)
{
	const struct validate_row *r = validation_find(v, id);
	if (!r)
		fail_msg("no measured row '%s'", id);
	return r;
}

#endif
