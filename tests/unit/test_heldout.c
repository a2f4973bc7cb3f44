/* test_heldout.c - the held-out published measurements (tests/validation/heldout-*.yaml):
 * torchtitan's other benchmark rows and TensorRT-LLM's other perf-overview columns, none of
 * them fitted to. Each row within its tolerance (issue 12's 10% on memory, 15% on speed),
 * or, where gpuplan misses, not held and pinned at its honest error, by name; each group's
 * MAPE under its bound. A row that starts or stops missing fails here until its file says
 * so. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "plan.h"
#include "scenario.h"
#include "shipped_catalog.h"
#include "validate.h"

static const char *const files[] = {
    "tests/validation/heldout-serving.yaml",
    "tests/validation/heldout-train-memory.yaml",
    "tests/validation/heldout-train-speed.yaml",
};
#define NFILES (sizeof(files) / sizeof(files[0]))

/* The rows that miss their tolerance, each pinned at its error in its file, the list ended
 * by NULL. tt-8b-float8-mem and tt-8b-compile-mem were pinned at +13.6% and +12.0% (87.2
 * and 86.3 GiB), the eager op policy's saved set, until the compiled layer's was counted
 * (src/plan_memory.c act_op_unread_token): 82.6 and 81.7 GiB, +7.6% and +6.1%.
 * tt-70b-2d-mem (Llama 3.1 70B on 256 H100s, FSDP 32 x TP 8, sequence parallelism, full
 * recomputation, 71.9 GiB measured) was pinned at -22.2% (55.9 GiB) until torchtitan's
 * loss-parallel cross-entropy and the head's all-gathered input were counted
 * (src/plan_memory.c loss_bytes_token): 66.9 GiB, -6.9%. */
static const char *const pinned_ids[] = {NULL};

static struct validation rows;

static const struct validate_row *row(const char *id)
{
	const struct validate_row *r = validation_find(&rows, id);
	if (!r)
		fail_msg("no held-out row '%s'", id);
	return r;
}

/* The row's figure planned here, in the row's unit, independently of validation_run. */
static double predict(const struct validate_row *r)
{
	struct scenario s;
	struct gp_error err;
	struct plan *p = malloc(sizeof(*p));
	double v = NAN;
	assert_non_null(p);
	if (validate_row_scenario(r, cat, &s, &err) != 0)
		fail_msg("%s: %s", r->id, err.message);
	plan_compute(&s, p);
	assert_int_equal(validate_row_predict(r, &s, p, &v), 0);
	free(p);
	return v;
}

static bool is_pinned_id(const char *id)
{
	for (size_t i = 0; pinned_ids[i]; i++)
		if (strcmp(pinned_ids[i], id) == 0)
			return true;
	return false;
}

/* Every row: the plan here and validation_run agree; within its tolerance, or pinned at
 * its honest error to VALIDATE_PIN_SLACK, and pinned exactly when named above. */
static void test_every_row(void **state)
{
	(void)state;
	assert_int_equal(rows.nrows, 16);
	for (int i = 0; i < rows.nrows; i++) {
		const struct validate_row *r = &rows.rows[i];
		double v = predict(r), e = (v - r->measured) / r->measured;
		printf("  %-26s %10.4g %10.4g %+6.1f%%\n", r->id, r->measured, v, 100 * e);
		assert_true(fabs(v - r->predicted) <= 1e-9 * fabs(v));
		assert_false(isnan(r->tolerance));
		assert_true(strstr(r->source, "Held out, not fitted to") != NULL);
		if (is_pinned_id(r->id)) {
			assert_false(isnan(r->pinned));
			assert_true(fabs(e) > r->tolerance);
			assert_true(fabs(e - r->pinned) <= VALIDATE_PIN_SLACK);
		} else {
			assert_true(isnan(r->pinned));
			assert_true(fabs(e) <= r->tolerance);
		}
	}
}

/* Each group's MAPE under the bound: 10% on memory, 15% on speed. */
static void test_group_bounds(void **state)
{
	(void)state;
	assert_int_equal(rows.ngroups, (int)NFILES);
	for (int g = 0; g < rows.ngroups; g++) {
		const struct validate_group *gr = &rows.groups[g];
		double want = strstr(gr->name, "memory") ? 0.10 : 0.15;
		printf("  %-22s MAPE %5.1f%% (bound %4.1f%%)\n", gr->name, 100 * gr->stats.mape,
		       100 * gr->mape_bound);
		assert_true(fabs(gr->mape_bound - want) < 1e-12);
		assert_true(gr->stats.mape <= gr->mape_bound);
		assert_true(gr->pass);
	}
}

/* What the files' comments say gpuplan does not model, held so the comment is updated
 * when it starts to: torch.compile under workload.framework fsdp plans the step time of
 * the eager row (its memory is modelled, test_compile_memory.c; the calibration row
 * torchtitan-8b-fsdp2-speed of framework-speed.yaml, 6088.4 tokens/s under the same hardware
 * settings; 6102.7 before FSDP2's fp32 gradient reduce-scatter), and Float8 adds to the planned
 * memory torchao's casts alone, about 0.9 GiB (the rebuilt layer's weight casts, 218 M x 1 B, and
 * one MLP linear's backward casts, 2 x 16384 x (4096 + 14336) + 4096 x 14336 B, with the
 * allocator's slack of 0.15 and cuBLASLt's 1 MiB: 0.94 GiB), where the measured run is 0.2 GiB
 * under the compile row. */
static void test_unmodelled_as_stated(void **state)
{
	(void)state;
	double compiled = predict(row("tt-8b-compile-tps"));
	double c_mem = predict(row("tt-8b-compile-mem"));
	double f8_mem = predict(row("tt-8b-float8-mem"));
	double f8_tps = predict(row("tt-8b-float8-tps"));
	assert_true(fabs(compiled - 6088.4) < 1.0);
	double casts = 32 * (4096.0 * (4096 + 2 * 1024 + 4096) + 3 * 4096.0 * 14336) / 32 +
		       2 * 16384.0 * (4096 + 14336) + 4096.0 * 14336;
	assert_true(fabs((f8_mem - c_mem) * 1073741824.0 - (1.15 * casts + 1048576)) < 2e6);
	/* Float8 itself is modelled in speed: fp8 GEMMs make the step faster */
	assert_true(f8_tps > 1.2 * compiled);
}

static int setup(void **state)
{
	struct gp_error err;
	if (shipped_catalog_setup(state) != 0)
		return -1;
	validation_init(&rows);
	for (size_t i = 0; i < NFILES; i++)
		if (validation_load_file(&rows, files[i], &err) != 0) {
			fprintf(stderr, "%s: %s\n", err.file, err.message);
			return -1;
		}
	if (validation_run(&rows, cat, &err) != 0) {
		fprintf(stderr, "%s: %s\n", err.file, err.message);
		return -1;
	}
	return 0;
}

static int teardown(void **state)
{
	validation_release(&rows);
	return shipped_catalog_teardown(state);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_every_row),
	    cmocka_unit_test(test_group_bounds),
	    cmocka_unit_test(test_unmodelled_as_stated),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
