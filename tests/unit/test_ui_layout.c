/* test_ui_layout.c - layout is a pure function of rows x cols: every part inside the screen,
 * nothing overlapping, the body covered exactly, too_small below 64x18 (80x24 less a multiplexer's
 * status line and a short SSH window). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "layout.h"

static int inside(struct rect r, int rows, int cols)
{
	return r.y >= 0 && r.x >= 0 && r.h > 0 && r.w > 0 && r.y + r.h <= rows &&
	       r.x + r.w <= cols;
}

static int overlap(struct rect a, struct rect b)
{
	return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

static void check_layout(int rows, int cols)
{
	struct layout l;
	struct rect all[PANE_COUNT + 3];
	int n = 0, area = 0;

	layout_compute(rows, cols, &l);
	assert_false(l.too_small);
	assert_int_equal(l.rows, rows);
	assert_int_equal(l.cols, cols);
	all[n++] = l.title;
	all[n++] = l.status;
	all[n++] = l.legend;
	for (int p = 0; p < PANE_COUNT; p++)
		all[n++] = l.pane[p];
	for (int i = 0; i < n; i++) {
		assert_true(inside(all[i], rows, cols));
		area += all[i].h * all[i].w;
		for (int j = i + 1; j < n; j++)
			assert_false(overlap(all[i], all[j]));
	}
	/* nothing left uncovered */
	assert_int_equal(area, rows * cols);
	assert_int_equal(l.title.y, 0);
	assert_int_equal(l.legend.y, rows - 1);
	assert_int_equal(l.status.y, rows - 2);
	/* each input pane shows its header and at least four rows at 80x24 and more, two on
	 * a shorter screen */
	for (int p = 0; p < PANE_RESULTS; p++)
		assert_true(l.pane[p].h >= (rows >= 24 ? 5 : 3));
	/* Results is full height, right of the inputs, at least 40 wide from 80 columns, 32
	 * below */
	assert_int_equal(l.pane[PANE_RESULTS].h, rows - 3);
	assert_true(l.pane[PANE_RESULTS].w >= (cols >= 80 ? 40 : 32));
	assert_true(l.pane[PANE_MODEL].w >= 32);
}

static void test_minimum(void **state)
{
	struct layout l;
	(void)state;
	check_layout(24, 80);
	layout_compute(24, 80, &l);
	/* the design at 80x24: 6 + 9 + 6 rows on the left, 40 columns each side */
	assert_int_equal(l.pane[PANE_MODEL].h, 6);
	assert_int_equal(l.pane[PANE_WORKLOAD].h, 9);
	assert_int_equal(l.pane[PANE_HARDWARE].h, 6);
	assert_int_equal(l.pane[PANE_MODEL].w, 40);
	assert_int_equal(l.pane[PANE_RESULTS].x, 40);
	assert_int_equal(l.pane[PANE_RESULTS].w, 40);
}

static void test_larger(void **state)
{
	struct layout small, big;
	(void)state;
	for (int rows = 24; rows <= 80; rows += 7)
		for (int cols = 80; cols <= 300; cols += 37)
			check_layout(rows, cols);
	/* more room is used: taller panes, a wider Results, inputs capped in width */
	layout_compute(24, 80, &small);
	layout_compute(50, 200, &big);
	assert_true(big.pane[PANE_WORKLOAD].h > small.pane[PANE_WORKLOAD].h);
	assert_true(big.pane[PANE_MODEL].h >= small.pane[PANE_MODEL].h);
	assert_true(big.pane[PANE_RESULTS].w > small.pane[PANE_RESULTS].w);
	assert_true(big.pane[PANE_MODEL].w <= 56);
	assert_true(big.pane[PANE_RESULTS].w > big.pane[PANE_MODEL].w);
}

/* tmux's status line in an 80x24 terminal leaves 80x23, an SSH window may be 80x18 or 64
 * columns wide: every one of those lays out, and a shorter screen takes rows from the input
 * panes, Workload first, never from Results. */
static void test_short_and_narrow(void **state)
{
	struct layout l, prev;
	(void)state;
	for (int rows = 18; rows <= 24; rows++)
		check_layout(rows, 80);
	for (int cols = 64; cols <= 80; cols++)
		check_layout(24, cols);
	check_layout(18, 64);
	layout_compute(24, 80, &prev);
	for (int rows = 23; rows >= 18; rows--) {
		layout_compute(rows, 80, &l);
		assert_true(l.pane[PANE_WORKLOAD].h <= prev.pane[PANE_WORKLOAD].h);
		assert_true(l.pane[PANE_MODEL].h <= prev.pane[PANE_MODEL].h);
		assert_true(l.pane[PANE_HARDWARE].h <= prev.pane[PANE_HARDWARE].h);
		assert_int_equal(l.pane[PANE_RESULTS].h, rows - 3);
		prev = l;
	}
	layout_compute(23, 80, &l);
	assert_int_equal(l.pane[PANE_WORKLOAD].h, 8); /* Workload gives its row first */
	layout_compute(24, 64, &l);
	assert_int_equal(l.pane[PANE_MODEL].w, 32);
	assert_int_equal(l.pane[PANE_RESULTS].w, 32);
}

static void test_too_small(void **state)
{
	struct layout l;
	(void)state;
	layout_compute(17, 80, &l);
	assert_true(l.too_small);
	layout_compute(24, 63, &l);
	assert_true(l.too_small);
	layout_compute(17, 64, &l);
	assert_true(l.too_small);
	layout_compute(18, 64, &l);
	assert_false(l.too_small);
	layout_compute(0, 0, &l);
	assert_true(l.too_small);
	layout_compute(24, 80, &l);
	assert_false(l.too_small);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_minimum),
		cmocka_unit_test(test_larger),
		cmocka_unit_test(test_short_and_narrow),
		cmocka_unit_test(test_too_small),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
