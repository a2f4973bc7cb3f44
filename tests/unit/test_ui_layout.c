/* Layout is a pure function of rows x cols: every part inside the screen, nothing
 * overlapping, the body covered exactly, too_small below 80x24. */
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
	/* each input pane shows its header and at least four rows */
	for (int p = 0; p < PANE_RESULTS; p++)
		assert_true(l.pane[p].h >= 5);
	/* Results is full height, right of the inputs, at least 40 wide */
	assert_int_equal(l.pane[PANE_RESULTS].h, rows - 3);
	assert_true(l.pane[PANE_RESULTS].w >= 40);
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

static void test_too_small(void **state)
{
	struct layout l;
	(void)state;
	layout_compute(23, 80, &l);
	assert_true(l.too_small);
	layout_compute(24, 79, &l);
	assert_true(l.too_small);
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
		cmocka_unit_test(test_too_small),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
