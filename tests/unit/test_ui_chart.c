/* test_ui_chart.c - the chart view (issue 18): the values an input is charted over, the plans at
 * each, the fit limit and SLO lines, the text at a window's size (ASCII when asked), and the keys
 * that open, change and close it; a resize draws again without planning again. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "chart.h"
#include "ui_app_fixture.h"

static void test_range_doubles_a_count(void **state)
{
	const struct field *f = scenario_field_find("hardware.count");
	double x[CHART_VIEW_MAX];
	bool geo;
	int n;

	(void)state;
	n = chart_view_range(f, 8, x, CHART_VIEW_MAX, &geo);
	/* 8 halved to 1 (0.5 is no count), doubled four times to 128 */
	assert_int_equal(n, 8);
	assert_true(geo);
	assert_true(x[0] == 1 && x[3] == 8 && x[7] == 128);
	/* no range around nothing */
	assert_int_equal(chart_view_range(f, 0, x, CHART_VIEW_MAX, &geo), 0);
}

static void test_range_of_a_fraction_and_a_word(void **state)
{
	const struct field *hit = scenario_field_find("workload.prefix_cache_hit");
	const struct field *name = scenario_field_find("name");
	double x[CHART_VIEW_MAX];
	bool geo = true;
	int n;

	(void)state;
	n = chart_view_range(hit, 0, x, CHART_VIEW_MAX, &geo);
	/* its whole range in tenths, linear: 0 .. 0.999 */
	assert_int_equal(n, 11);
	assert_false(geo);
	assert_true(x[0] == 0 && fabs(x[10] - hit->max) < 1e-12);
	assert_int_equal(chart_view_range(name, 1, x, CHART_VIEW_MAX, &geo), 0);
}

static void test_range_of_a_small_count(void **state)
{
	const struct field *layers = scenario_field_find("model.layers");
	double x[CHART_VIEW_MAX];
	bool geo = true;
	int n;

	(void)state;
	assert_false(field_step_doubles(layers));
	/* six either side, one a step */
	n = chart_view_range(layers, 32, x, CHART_VIEW_MAX, &geo);
	assert_int_equal(n, 13);
	assert_false(geo);
	assert_true(x[0] == 26 && x[12] == 38);
	/* from its least (1) */
	n = chart_view_range(layers, 3, x, CHART_VIEW_MAX, &geo);
	assert_int_equal(n, 9);
	assert_true(x[0] == 1 && x[8] == 9);
}

/* A size axis rounds in the binary unit its labels are written in: a 93.1 GiB top is
 * 100 GiB (not 100e9 bytes, 93.1 GiB); 1010 GiB goes up to 1 TiB; counts stay decimal. */
static void test_range_of_sizes_is_binary(void **state)
{
	static const struct {
		double top, hi;
		enum unit_kind unit;
	} cases[] = {{93.1 * 1073741824.0, 100 * 1073741824.0, UNIT_BYTES},
		     {1010 * 1073741824.0, 1099511627776.0, UNIT_BYTES},
		     {300 * 1048576.0, 500 * 1048576.0, UNIT_BYTES},
		     {93.1e9, 100e9, UNIT_COUNT}};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double y[2] = {0, cases[i].top}, lo, hi;
		struct chart c = {.y_unit = cases[i].unit, .n = 2, .nseries = 1};
		c.series[0].y = y;
		chart_y_range(&c, &lo, &hi);
		assert_true(lo == 0);
		assert_true(fabs(hi - cases[i].hi) < 1e-9 * cases[i].hi);
	}
}

/* c on hardware.count: memory per GPU at 1 .. 128 GPUs, falling as ZeRO 3 shards it, with
 * the GPU's memory as the fit limit */
static void test_c_charts_memory_against_the_count(void **state)
{
	struct chart c;
	char xl[128];

	(void)state;
	keys("3j");
	assert_string_equal(app_selected_field(&app)->key, "hardware.count");
	keys("c");
	assert_int_equal(app.view, VIEW_CHART);
	assert_string_equal(app.cv.field->key, "hardware.count");
	assert_string_equal(app.cv.fig->key, "memory.per_gpu.total");
	assert_int_equal(app.cv.runs, 1);
	assert_int_equal(app.cv.n, 8);
	for (int i = 1; i < app.cv.n; i++)
		assert_true(app.cv.y[i] < app.cv.y[i - 1]);
	/* the point at the scenario's own count is the plan the panes show */
	assert_true(app.cv.x[3] == 8);
	assert_true(fabs(app.cv.y[3] - app.plan.mem.total) < 1e-6 * app.plan.mem.total);
	chart_view_build(&app, &c, xl, sizeof(xl));
	assert_int_equal(c.nrules, 1);
	assert_string_equal(c.rules[0].label, "memory.capacity (fit limit)");
	assert_true(c.rules[0].y[0] == app.plan.mem.capacity);
	assert_string_equal(xl, "hardware.count (log scale)");
}

static void test_text_fits_and_ascii_is_ascii(void **state)
{
	int lines = 0;

	(void)state;
	keys("3jc");
	chart_view_render(&app, 76, 18, true);
	for (const char *s = app.cv.text; *s; s++) {
		assert_true((unsigned char)*s < 0x80);
		lines += *s == '\n';
	}
	assert_true(lines > 8 && lines <= 18);
	assert_non_null(strstr(app.cv.text, "memory.capacity (fit limit)"));
	assert_non_null(strstr(app.cv.text, "hardware.count (log scale)"));
	/* a small window: fewer rows, still whole */
	chart_view_render(&app, 60, 12, false);
	lines = 0;
	for (const char *s = app.cv.text; *s; s++)
		lines += *s == '\n';
	assert_true(lines > 0 && lines <= 12);
	/* no room: no text rather than a cut chart */
	chart_view_render(&app, 30, 12, false);
	assert_string_equal(app.cv.text, "");
}

/* a resize draws the text again from the plans kept; f plans the next figure; an edit
 * plans again; q closes */
static void test_keys_and_what_they_plan(void **state)
{
	unsigned long computes;

	(void)state;
	keys("3jc");
	assert_int_equal(app.cv.runs, 1);
	computes = app.computes;
	chart_view_render(&app, 76, 18, false);
	chart_view_render(&app, 100, 30, false);
	app_relayout(&app);
	app_compute(&app);
	assert_int_equal(app.cv.runs, 1);
	assert_int_equal(app.computes, computes);
	keys("f");
	assert_int_equal(app.cv.runs, 2);
	assert_string_not_equal(app.cv.fig->key, "memory.per_gpu.total");
	keys("F");
	assert_string_equal(app.cv.fig->key, "memory.per_gpu.total");
	keys("u"); /* nothing to undo: no plan */
	app.scn.workload.seq_len = 4096;
	app.dirty |= DIRTY_CALC;
	app_compute(&app);
	assert_int_equal(app.cv.runs, 4);
	keys("q");
	assert_int_equal(app.view, VIEW_NONE);
	assert_false(app.quit);
	keys("3jc");
	app_handle_key(&app, KEY_ESC);
	assert_int_equal(app.view, VIEW_NONE);
}

/* on Results, the selected figure; a word field says why it cannot be charted */
static void test_results_figure_and_a_word(void **state)
{
	(void)state;
	keys("4");
	while (strcmp(app_pane(&app, PANE_RESULTS)->selected_key(&app), "time.step_s") != 0 &&
	       app.sel[PANE_RESULTS] < app.nresult_items - 1)
		keys("j");
	assert_string_equal(app_pane(&app, PANE_RESULTS)->selected_key(&app), "time.step_s");
	keys("c");
	assert_int_equal(app.view, VIEW_CHART);
	assert_string_equal(app.cv.fig->key, "time.step_s");
	assert_string_equal(app.cv.field->key, "hardware.count");
	{
		struct chart c;
		char xl[128];
		chart_view_build(&app, &c, xl, sizeof(xl));
		assert_int_equal(c.nrules, 0);
	}
	keys("q1g");
	assert_string_equal(app_selected_field(&app)->key, "model.preset");
	keys("c");
	assert_int_equal(app.view, VIEW_NONE);
	assert_non_null(strstr(app.status, "is not a number"));
}

static void test_chart_command(void **state)
{
	(void)state;
	keys(":chart workload.seq_len time.step_s\n");
	assert_int_equal(app.view, VIEW_CHART);
	assert_string_equal(app.cv.field->key, "workload.seq_len");
	assert_string_equal(app.cv.fig->key, "time.step_s");
	keys("q:chart no.such.thing\n");
	assert_non_null(strstr(app.status, "neither a numeric figure nor a field"));
}

/* The scaling view's case of the chart (c on it): each count from 8 to 1,024 planned with
 * the best layout the scaling view's search finds there, not the scenario's; f changes the
 * figure over the same layouts; S goes back to their table; c on a pane charts the
 * scenario's own layout again. */
static void test_scaling_is_a_chart_of_best_layouts(void **state)
{
	double fixed[CHART_VIEW_MAX];
	int nfixed;

	(void)state;
	assert_int_equal(app.scn.hardware.count, 8);
	/* the scenario's layout charted against the count, for comparison */
	keys(":chart hardware.count throughput.tokens_per_s_per_gpu\n");
	assert_int_equal(app.view, VIEW_CHART);
	assert_false(app.cv.best_layout);
	nfixed = app.cv.n;
	memcpy(fixed, app.cv.y, sizeof(fixed));
	keys("qS");
	assert_int_equal(app.view, VIEW_SCALING);
	keys("c");
	assert_int_equal(app.view, VIEW_CHART);
	assert_true(app.cv.best_layout);
	assert_string_equal(app.cv.field->key, "hardware.count");
	assert_string_equal(app.cv.fig->key, "throughput.tokens_per_s_per_gpu");
	assert_int_equal(app.cv.n, app.sv.ncounts);
	assert_true(app.cv.n == 8 && app.cv.x[0] == 8 && app.cv.x[7] == 1024);
	for (int i = 0; i < app.cv.n; i++) {
		const struct search_result *r = &app.sv.scaling[i];
		if (!r->count)
			assert_true(isnan(app.cv.y[i]));
		else
			assert_true(app.cv.y[i] == r->plan.tokens_per_s_per_gpu);
	}
	/* at the scenario's own count (8, the fixed chart's fourth point) the best layout by
	 * time is at least as fast as the scenario's */
	assert_true(nfixed > 3 && app.sv.scaling[0].count == 8);
	assert_true(app.cv.y[0] >= fixed[3] * (1 - 1e-9));
	keys("f");
	assert_true(app.cv.best_layout);
	assert_string_not_equal(app.cv.fig->key, "throughput.tokens_per_s_per_gpu");
	for (int i = 0; i < app.cv.n; i++)
		if (app.sv.scaling[i].count)
			assert_true(app.cv.y[i] ==
					figure_value(app.cv.fig, &app.sv.scaling[i].plan) ||
				    (isnan(app.cv.y[i]) &&
				     isnan(figure_value(app.cv.fig, &app.sv.scaling[i].plan))));
	keys("S");
	assert_int_equal(app.view, VIEW_SCALING);
	keys("q3jc");
	assert_int_equal(app.view, VIEW_CHART);
	assert_false(app.cv.best_layout);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_range_doubles_a_count),
	    cmocka_unit_test(test_range_of_a_fraction_and_a_word),
	    cmocka_unit_test(test_range_of_a_small_count),
	    cmocka_unit_test(test_range_of_sizes_is_binary),
	    cmocka_unit_test_setup(test_c_charts_memory_against_the_count, setup),
	    cmocka_unit_test_setup(test_text_fits_and_ascii_is_ascii, setup),
	    cmocka_unit_test_setup(test_keys_and_what_they_plan, setup),
	    cmocka_unit_test_setup(test_results_figure_and_a_word, setup),
	    cmocka_unit_test_setup(test_chart_command, setup),
	    cmocka_unit_test_setup(test_scaling_is_a_chart_of_best_layouts, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
