/* test_ui_bands.c - the Results pane shows the error band of every figure the reports
 * band (issue 17): a compact mark after the value ("±11%", "±?" outside every validated
 * regime) and, while the figure is selected, the whole band_describe text on the status
 * line, the same as the text report's HOW FAR TO TRUST THESE. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "app.h"
#include "band.h"
#include "figure.h"
#include "layout.h"
#include "report.h"
#include "scenario_yaml.h"
#include "shipped_catalog.h"
#include "theme.h"
#include "ui_app_shipped.h"
#include "view.h"

static void open_at(const char *path, int rows, int cols)
{
	assert_int_equal(open_shipped(path), 0);
	layout_compute(rows, cols, &app.lay);
	app.theme.g = &theme_glyphs_utf8;
	app.focus = PANE_RESULTS;
}

/* The status line with the Results item at key selected; NULL when it says nothing. */
static const char *status_of(const char *key, char *buf, size_t size)
{
	int role;
	for (int i = 0; i < app.nresult_items; i++)
		if (strcmp(app.result_keys[i], key) == 0) {
			app.sel[PANE_RESULTS] = i;
			return pane_results.status(&app, buf, size, &role);
		}
	fail_msg("%s is not a Results item", key);
	return NULL;
}

/* Every item of the pane that band.h bands and has a value shows its band, and its mark
 * agrees with band_lookup; the others show none. Returns how many have one. */
static int check_items(void)
{
	int banded = 0;
	for (int i = 0; i < app.nresult_items; i++) {
		const char *key = app.result_keys[i];
		const struct figure *f = figure_find(key);
		double x = f ? figure_value(f, &app.plan) : NAN;
		struct band b;
		char mark[24], why[256], want[24], want_why[256];
		bool has = f && isfinite(x) && band_lookup(&app.scn, key, x, &b);
		assert_int_equal(pane_results_band(&app, key, mark, sizeof(mark), why, sizeof(why)),
				 has);
		if (!has)
			continue;
		banded++;
		if (b.validated)
			snprintf(want, sizeof(want), "\u00b1%.0f%%", 100 * b.pct);
		else
			snprintf(want, sizeof(want), "\u00b1?");
		assert_string_equal(mark, want);
		band_describe(&b, want_why, sizeof(want_why));
		assert_string_equal(why, want_why);
	}
	return banded;
}

static void test_training(void **state)
{
	char mark[24], why[256], buf[512];
	const char *t;
	(void)state;
	open_at("scenarios/default.yaml", 24, 80);
	/* memory per GPU, step time, total time and throughput */
	assert_true(check_items() >= 4);
	assert_true(pane_results_band(&app, "time.step_s", mark, sizeof(mark), why, sizeof(why)));
	assert_true(strncmp(mark, "\u00b1", 2) == 0 && mark[2] >= '1' && mark[2] <= '9');
	assert_non_null(strstr(why, " measured "));
	/* no band on a cost */
	assert_false(pane_results_band(&app, "cost.usd_total", mark, sizeof(mark), NULL, 0));
	/* the memory of a training run on hopper under the default framework: no measured run */
	assert_true(
	    pane_results_band(&app, "memory.per_gpu.total", mark, sizeof(mark), why, sizeof(why)));
	assert_string_equal(mark, "\u00b1?");
	assert_true(strncmp(why, "unvalidated: ", 13) == 0);
	/* selected, the status line gives the value and where the band comes from */
	t = status_of("time.step_s", buf, sizeof(buf));
	assert_non_null(t);
	pane_results_band(&app, "time.step_s", NULL, 0, why, sizeof(why));
	assert_true(strncmp(t, "step time ", 10) == 0);
	assert_non_null(strstr(t, why));
	t = status_of("memory.per_gpu.total", buf, sizeof(buf));
	assert_non_null(t);
	assert_non_null(strstr(t, "unvalidated: outside every validated regime"));
	/* a verdict keeps its own status; a figure without a band says nothing */
	t = status_of("compute.mfu", buf, sizeof(buf));
	assert_true(t && strncmp(t, "compute: ", 9) == 0);
	assert_null(status_of("cost.usd_total", buf, sizeof(buf)));
	/* ASCII: the band's mark in ASCII */
	app.theme.g = &theme_glyphs_ascii;
	assert_true(pane_results_band(&app, "time.step_s", mark, sizeof(mark), NULL, 0));
	assert_true(strncmp(mark, "+-", 2) == 0);
}

/* A pane too short for every figure (pane_results_shown is a function of its size; 5 lines
 * keep the memory total, two figures and the binding bottleneck): the status line names a banded
 * figure without a line by its key, as it names any hidden figure, and adds its band. */
static void test_hidden(void **state)
{
	char buf[512], why[256], hidden[512];
	int n = 0;
	(void)state;
	open_at("scenarios/default.yaml", 18, 64);
	app.lay.pane[PANE_RESULTS].h = 5;
	for (int i = 0; i < app.nresult_items; i++) {
		const char *key = app.result_keys[i], *t;
		if (!pane_results_band(&app, key, NULL, 0, why, sizeof(why)) ||
		    !pane_results_hidden(&app, key, hidden, sizeof(hidden)))
			continue;
		n++;
		t = status_of(key, buf, sizeof(buf));
		assert_non_null(t);
		assert_true(strncmp(t, hidden, strlen(hidden)) == 0);
		assert_non_null(strstr(t, why));
	}
	assert_true(n > 0);
}

/* Serving: time per output token and throughput are banded from the measured serving runs
 * on hopper; the band a report prints is the band the pane shows. */
static void test_serving(void **state)
{
	char mark[24], why[256];
	(void)state;
	open_at("scenarios/team-serve-70b-5m-requests.yaml", 24, 80);
	assert_true(check_items() >= 3);
	assert_true(
	    pane_results_band(&app, "latency.tpot_s", mark, sizeof(mark), why, sizeof(why)));
	assert_true(strstr(why, " measured ") != NULL);
	assert_true(
	    pane_results_band(&app, "throughput.tokens_per_s", mark, sizeof(mark), NULL, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_training),
	    cmocka_unit_test(test_hidden),
	    cmocka_unit_test(test_serving),
	};
	return cmocka_run_group_tests(tests, shipped_catalog_setup, shipped_catalog_teardown);
}
