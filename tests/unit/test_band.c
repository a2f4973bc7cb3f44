/* test_band.c - error bands (band.h): the table in the tree is what the rows of
 * tests/validation/ give (`make band-table`), every measured row's figure lies inside the
 * band of its own regime, no band is wider than its regime's worst residual, a scenario
 * outside every regime is unvalidated, and the reports carry the bands. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "band.h"
#include "figure.h"
#include "file.h"
#include "report.h"
#include "report_json.h"
#include "scenario_yaml.h"
#include "validate.h"
/* after cmocka.h */
#include "shipped_catalog.h"

static struct validation v;

static int setup(void **state)
{
	struct gp_error err;
	char msg[512];
	if (shipped_catalog_setup(state) != 0)
		return -1;
	validation_init(&v);
	if (validation_load_dir(&v, "tests/validation", &err) != 0 ||
	    validation_run(&v, cat, &err) != 0) {
		fprintf(stderr, "%s\n", gp_error_format(&err, msg, sizeof(msg)));
		return -1;
	}
	return 0;
}

static int teardown(void **state)
{
	validation_release(&v);
	return shipped_catalog_teardown(state);
}

/* src/band_table.c is byte for byte what validation_band_table writes now. */
static void test_table_is_generated(void **state)
{
	struct report_buf b = {0};
	struct gp_error err;
	char *text = NULL;
	size_t len = 0;
	(void)state;
	validation_band_table(&b, &v);
	assert_false(b.failed);
	assert_int_equal(file_read_all("src/band_table.c", 1 << 20, &text, &len, &err), 0);
	if (len != b.len || memcmp(text, b.data, len) != 0)
		fail_msg("src/band_table.c is not what the rows of tests/validation/ give: run "
			 "make band-table");
	free(text);
	report_buf_release(&b);
}

/* The compiled table holds each regime's rows: their count and least and greatest
 * residual, computed here again from validate's results. */
static void test_table_matches_validate(void **state)
{
	int rows = 0;
	(void)state;
	assert_true(band_table_n > 0);
	for (int i = 0; i < band_table_n; i++) {
		const struct band_regime *t = &band_table[i];
		double emin = INFINITY, emax = -INFINITY;
		int n = 0;
		for (int j = 0; j < v.nrows; j++) {
			const struct validate_row *r = &v.rows[j];
			if (r->band_class != (int)t->cls || strcmp(r->band_kind, t->kind) ||
			    strcmp(r->band_framework, t->framework) ||
			    strcmp(r->band_load, t->load) ||
			    strcmp(r->band_generation, t->generation))
				continue;
			n++;
			emin = fmin(emin, r->band_error);
			emax = fmax(emax, r->band_error);
		}
		assert_int_equal(n, t->n);
		assert_true(fabs(emin - t->emin) < 1e-6 && fabs(emax - t->emax) < 1e-6);
		rows += n;
	}
	/* every row with a banded figure is in one regime (a parameter count, a run's
	 * GPU-hours carry none) */
	{
		int banded = 0;
		for (int j = 0; j < v.nrows; j++)
			banded += v.rows[j].band_class >= 0;
		assert_int_equal(rows, banded);
		assert_true(banded < v.nrows);
	}
}

/* Each row's generation tag (written by hand in its file) is the one band.c reads from
 * its scenario's GPU: the regimes are the files' own. A parameter count is of no GPU
 * (tagged "any", and carrying no band). */
static void test_generation_tags(void **state)
{
	(void)state;
	for (int i = 0; i < v.nrows; i++)
		if (strcmp(v.rows[i].tags[VTAG_GPU], "any") == 0)
			assert_true(v.rows[i].band_class < 0);
		else if (strcmp(v.rows[i].tags[VTAG_GPU], v.rows[i].band_generation) != 0)
			fail_msg("%s: tagged %s, its GPU %s is %s", v.rows[i].id,
				 v.rows[i].tags[VTAG_GPU], v.rows[i].gpu_id,
				 v.rows[i].band_generation);
}

/* The figure a row's band is read at: the report's key, or for a derived figure the one
 * it is derived from, with the measured value turned into that figure's terms. */
static const char *banded_key(const struct validate_row *r, const struct scenario *s,
			      const struct plan *p, double *value, double *measured)
{
	double si = r->measured * r->unit_si;
	if (strcmp(r->figure, "derived.decode_rate") == 0) {
		*value = p->tpot_s;
		*measured = 1 / si;
		return "latency.tpot_s";
	}
	if (strcmp(r->figure, "derived.batch_latency_s") == 0) {
		*value = p->tokens_per_s;
		*measured = s->workload.batch * s->workload.output_tokens / si;
		return "throughput.tokens_per_s";
	}
	if (strcmp(r->figure, "derived.megatron_tflops") == 0) {
		*value = p->step_s;
		*measured = p->step_s * (r->predicted / r->measured);
		return "time.step_s";
	}
	*value = r->predicted * r->unit_si;
	*measured = si;
	return r->figure;
}

/* Every measured row, banded as a user's scenario of its regime is: validated, its
 * measurement inside [lo, hi], the band no wider than the regime's worst residual; a
 * regime of fewer than BAND_MIN_ROWS rows indicative, its band holding the spread of its
 * class and no wider than that or its worst residual. */
static void test_rows_inside_their_band(void **state)
{
	struct plan *p = malloc(sizeof(*p));
	(void)state;
	assert_non_null(p);
	for (int i = 0; i < v.nrows; i++) {
		const struct validate_row *r = &v.rows[i];
		struct scenario s;
		struct gp_error err;
		struct band b;
		double value, measured, worst;
		const char *key;
		if (r->band_class < 0) /* a figure that carries no band */
			continue;
		assert_int_equal(validate_row_scenario(r, cat, &s, &err), 0);
		plan_compute(&s, p);
		key = banded_key(r, &s, p, &value, &measured);
		assert_true(band_lookup(&s, key, value, &b));
		if (!b.validated)
			fail_msg("%s: %s unvalidated (%s)", r->id, key, b.regime);
		if (!(measured >= b.lo * (1 - 1e-6) && measured <= b.hi * (1 + 1e-6)))
			fail_msg("%s: measured %g outside %g to %g", r->id, measured, b.lo, b.hi);
		/* no wider than the worst residual of the regime, in the figure's own terms */
		worst = 0;
		for (int j = 0; j < v.nrows; j++) {
			const struct validate_row *q = &v.rows[j];
			bool rate;
			assert_true(band_class_of(key, &rate) >= 0);
			if (q->band_class != (int)b.entry->cls ||
			    strcmp(q->band_kind, b.entry->kind) ||
			    strcmp(q->band_framework, b.entry->framework) ||
			    strcmp(q->band_generation, b.entry->generation))
				continue;
			/* a duration's truth is v / (1 + e): off by 1 / (1 + e) - 1; a rate's by e
			 */
			worst =
			    fmax(worst, fabs(rate ? q->band_error : 1 / (1 + q->band_error) - 1));
		}
		assert_int_equal(b.indicative, b.entry->n < BAND_MIN_ROWS);
		if (b.indicative) {
			bool rate;
			double f = b.floor, lo, hi;
			band_class_of(key, &rate);
			lo = rate ? value * (1 - f) : value / (1 + f);
			hi = rate ? value * (1 + f) : value / (1 - f);
			if (!(b.lo <= lo * (1 + 1e-9) && b.hi >= hi * (1 - 1e-9)))
				fail_msg(
				    "%s: indicative band %g to %g does not hold the class spread "
				    "%g to %g",
				    r->id, b.lo, b.hi, lo, hi);
			worst = fmax(worst, rate ? f : 1 / (1 - f) - 1);
		}
		if (!(b.pct <= worst + 1e-5)) /* the table keeps 6 decimals */
			fail_msg("%s: band %g, worst residual %g", r->id, b.pct, worst);
	}
	free(p);
}

/* The class spread is the mean |residual| of the class's rows, as validate computes them;
 * one row (vLLM's KV budget on an RTX 3090, +1.7%) gives an indicative band of at least
 * that spread, and says so; a regime of many rows is not widened. (torchtitan's reserved
 * memory was the one-row example until the held-out rows of heldout-train-memory.yaml
 * gave its regime six.) */
static void test_indicative(void **state)
{
	const struct validate_row *r = validation_find(&v, "vllm-3090-kv");
	struct scenario s;
	struct gp_error err;
	struct band b;
	char why[256];
	(void)state;
	for (int c = 0; c < BAND_CLASS_COUNT; c++) {
		double sum = 0;
		int n = 0;
		for (int i = 0; i < v.nrows; i++)
			if (v.rows[i].band_class == c) {
				sum += fabs(v.rows[i].band_error);
				n++;
			}
		assert_true(n > 0);
		assert_true(fabs(band_class_spread((enum band_class)c) - sum / n) < 1e-5);
	}
	assert_non_null(r);
	assert_int_equal(validate_row_scenario(r, cat, &s, &err), 0);
	assert_true(band_lookup(&s, "memory.per_gpu.reserved", 20e9, &b));
	assert_true(b.validated && b.indicative);
	assert_int_equal(b.entry->n, 1);
	assert_true(fabs(b.entry->emax) < 0.02); /* the one row's residual: +1.7% */
	assert_true(b.floor > 0.03 && b.pct >= b.floor);
	band_describe(&b, why, sizeof(why));
	assert_non_null(strstr(why, "1 measured vllm run"));
	assert_non_null(strstr(why, "indicative"));
	/* torchtitan's FSDP memory on Hopper: six rows, the regime's own spread */
	r = validation_find(&v, "torchtitan-8b-fsdp2");
	assert_int_equal(validate_row_scenario(r, cat, &s, &err), 0);
	assert_true(band_lookup(&s, "memory.per_gpu.reserved", 70e9, &b));
	assert_true(b.validated && !b.indicative && b.entry->n == 6);
	/* MosaicML's 7 H100 rows: the regime's own residuals */
	r = validation_find(&v, "mpt-7b-2k");
	assert_int_equal(validate_row_scenario(r, cat, &s, &err), 0);
	assert_true(band_lookup(&s, "time.step_s", 1.0, &b));
	assert_true(b.validated && !b.indicative && isnan(b.floor));
	band_describe(&b, why, sizeof(why));
	assert_null(strstr(why, "indicative"));
}

/* A GPU no measured run used, and a framework none ran: unvalidated, no range. */
static void test_outside_is_unvalidated(void **state)
{
	struct scenario s;
	struct gp_error err;
	struct band b;
	char why[256];
	(void)state;
	assert_int_equal(scenario_init_builtin(&s, cat, &err), 0);
	assert_int_equal(scenario_set(&s, cat, "hardware.gpu", "mi300x", &err), 0);
	assert_true(band_lookup(&s, "time.step_s", 2.0, &b));
	assert_false(b.validated);
	assert_true(isnan(b.lo) && isnan(b.hi) && isnan(b.pct));
	band_describe(&b, why, sizeof(why));
	assert_non_null(strstr(why, "unvalidated"));
	assert_non_null(strstr(why, "cdna3"));
	/* a figure that carries no band */
	assert_false(band_lookup(&s, "cost.usd_total", 1.0, &b));
}

/* The reports: the text report's section says unvalidated on an MI300X and gives a band
 * on the H100 of the MosaicML rows; the JSON report's uncertainty object agrees. */
static void test_reports_carry_bands(void **state)
{
	struct scenario s;
	struct plan *p = malloc(sizeof(*p));
	struct gp_error err;
	struct report_buf b = {0};
	struct cJSON *json;
	double lo, hi, band, step;
	(void)state;
	assert_non_null(p);
	assert_int_equal(validate_row_scenario(validation_find(&v, "mpt-7b-2k"), cat, &s, &err), 0);
	plan_compute(&s, p);
	assert_int_equal(report_text(&b, &s, p), 0);
	assert_non_null(strstr(b.data, "HOW FAR TO TRUST THESE"));
	assert_non_null(strstr(b.data, "measured llm-foundry runs on h100-sxm-80gb"));
	report_buf_release(&b);
	json = report_json_build(&s, p);
	assert_non_null(json);
	assert_int_equal(report_json_get(json, "time.step_s", &step, NULL), REPORT_JSON_NUMBER);
	report_json_free(json);
	{
		struct band bd;
		assert_true(band_lookup(&s, "time.step_s", step, &bd));
		lo = bd.lo, hi = bd.hi, band = bd.pct;
		assert_true(bd.validated && lo < step && step < hi && band > 0 && band < 0.2);
	}
	b = (struct report_buf){0};
	assert_int_equal(report_markdown(&b, &s, p), 0);
	assert_non_null(strstr(b.data, "## How far to trust these"));
	report_buf_release(&b);

	assert_int_equal(scenario_set(&s, cat, "hardware.gpu", "mi300x", &err), 0);
	plan_compute(&s, p);
	b = (struct report_buf){0};
	assert_int_equal(report_text(&b, &s, p), 0);
	assert_non_null(strstr(b.data, "unvalidated: outside every validated regime"));
	report_buf_release(&b);

	/* one row's regime: the text says indicative, the JSON's uncertainty too */
	assert_int_equal(validate_row_scenario(validation_find(&v, "vllm-3090-kv"), cat, &s, &err),
			 0);
	plan_compute(&s, p);
	b = (struct report_buf){0};
	assert_int_equal(report_text(&b, &s, p), 0);
	{
		/* the band widened to the memory class's spread (band.h), however the class's
		 * rows move: the row's own residual is well inside it */
		struct band bd;
		char want[64];
		assert_true(band_lookup(&s, "memory.per_gpu.total",
					figure_value(figure_find("memory.per_gpu.total"), p), &bd));
		assert_true(bd.indicative);
		assert_true(bd.pct >= band_class_spread(BAND_MEMORY));
		/* the text wraps at 80 columns: the run's name may start the next line */
		snprintf(want, sizeof(want), "memory per GPU");
		assert_non_null(strstr(b.data, want));
		snprintf(want, sizeof(want), "+-%.0f%%: 1 measured vllm", 100 * bd.pct);
		assert_non_null(strstr(strstr(b.data, "memory per GPU"), want));
		/* "run on rtx-3090" after it, wherever the line breaks */
		assert_non_null(strstr(strstr(strstr(b.data, want), "run"), "on rtx-3090"));
	}
	assert_non_null(strstr(b.data, "(indicative: too few rows for a"));
	report_buf_release(&b);
	json = report_json_build(&s, p);
	assert_non_null(json);
	{
		char *text = report_json_print(json);
		assert_non_null(text);
		assert_non_null(strstr(text, "\"indicative\":\ttrue"));
		free(text);
	}
	report_json_free(json);
	free(p);
}

/* The band's regime of scenario s's figure key at value: validated, from entry *out. */
static const struct band_regime *entry_of(const struct scenario *s, const char *key, double value)
{
	struct band b;
	assert_true(band_lookup(s, key, value, &b));
	if (!b.validated)
		fail_msg("%s unvalidated: %s", key, b.regime);
	return b.entry;
}

/* Naming the framework keeps the band of its engine's runs: TensorRT-LLM's offline rows
 * (measured with trt-llm, planned with workload.framework trt-llm) stand for a scenario
 * that names trt-llm, as for one that names none (issue 12). */
static void test_framework_keeps_engine_band(void **state)
{
	struct scenario s;
	struct gp_error err;
	const struct band_regime *a, *b;
	(void)state;
	assert_int_equal(
	    validate_row_scenario(validation_find(&v, "trtllm-8b-fp8-1000-1000"), cat, &s, &err),
	    0);
	assert_int_equal(s.workload.framework, FW_TRTLLM);
	a = entry_of(&s, "throughput.tokens_per_s", 1e4);
	assert_non_null(strstr(a->runs, "trt-llm"));
	assert_int_equal(scenario_set(&s, cat, "workload.framework", "default", &err), 0);
	b = entry_of(&s, "throughput.tokens_per_s", 1e4);
	assert_ptr_equal(a, b);
	assert_int_equal(scenario_set(&s, cat, "workload.framework", "trt-llm", &err), 0);
	/* memory follows the framework's own rules: its own regime */
	assert_string_equal(band_framework(&s, BAND_MEMORY), "trt-llm");
	assert_string_equal(band_framework(&s, BAND_SPEED), "cuda-graphs");
}

/* A loaded figure (a scheduler under arrivals) takes its band from the runs measured
 * under load (serving.yaml), a lone decode step's from the single-stream rows. */
static void test_loaded_band_from_loaded_runs(void **state)
{
	struct scenario s;
	struct gp_error err;
	const struct band_regime *loaded, *alone;
	(void)state;
	assert_int_equal(scenario_load_file("scenarios/team-serve-70b-5m-requests.yaml", cat, &s,
					    NULL, NULL, &err),
			 0);
	assert_string_equal(band_load(&s), "loaded");
	loaded = entry_of(&s, "latency.tpot_p99_s", 0.1);
	assert_string_equal(loaded->load, "loaded");
	/* every row of the regime was planned under a load */
	for (int j = 0; j < v.nrows; j++)
		if (v.rows[j].band_class == (int)loaded->cls &&
		    !strcmp(v.rows[j].band_kind, loaded->kind) &&
		    !strcmp(v.rows[j].band_framework, loaded->framework) &&
		    !strcmp(v.rows[j].band_load, "loaded") &&
		    !strcmp(v.rows[j].band_generation, loaded->generation))
			assert_non_null(strstr(v.rows[j].scenario, "tests/data/serving/"));
	assert_int_equal(scenario_set(&s, cat, "workload.scheduler", "alone", &err), 0);
	assert_string_equal(band_load(&s), "alone");
	alone = entry_of(&s, "latency.tpot_s", 0.1);
	assert_string_equal(alone->load, "alone");
	assert_true(alone != loaded);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_table_is_generated),
	    cmocka_unit_test(test_table_matches_validate),
	    cmocka_unit_test(test_generation_tags),
	    cmocka_unit_test(test_rows_inside_their_band),
	    cmocka_unit_test(test_indicative),
	    cmocka_unit_test(test_outside_is_unvalidated),
	    cmocka_unit_test(test_reports_carry_bands),
	    cmocka_unit_test(test_framework_keeps_engine_band),
	    cmocka_unit_test(test_loaded_band_from_loaded_runs),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
