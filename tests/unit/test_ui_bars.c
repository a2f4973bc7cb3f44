/* test_ui_bars.c - bar geometry: stacked parts add up exactly, small parts stay visible, over-full
 * bars fill the width, eighths round to the nearest. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "bars.h"

static int sum(const int *c, int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += c[i];
	return s;
}

static void test_stack_exact(void **state)
{
	double v[3] = {10, 20, 30};
	int cells[3];
	(void)state;
	/* 60 of 100 over 40 cells: 24 cells, 4 + 8 + 12 */
	assert_int_equal(bars_stack(v, 3, 100, 40, cells), 24);
	assert_int_equal(cells[0], 4);
	assert_int_equal(cells[1], 8);
	assert_int_equal(cells[2], 12);
}

static void test_stack_rounding_adds_up(void **state)
{
	double v[6] = {16.1, 16.1, 12.0, 36.5, 0, 1.5};
	int cells[6];
	(void)state;
	for (int width = 1; width <= 120; width++) {
		int filled = bars_stack(v, 6, 80, width, cells);
		assert_int_equal(sum(cells, 6), filled);
		assert_true(filled <= width);
		assert_int_equal(cells[4], 0); /* a zero part gets nothing */
	}
}

static void test_stack_small_part_visible(void **state)
{
	double v[3] = {1000, 1, 1000};
	int cells[3];
	(void)state;
	bars_stack(v, 3, 2001, 20, cells);
	assert_true(cells[1] >= 1);
	assert_int_equal(sum(cells, 3), 20);
}

static void test_stack_over_capacity(void **state)
{
	double v[2] = {60, 60};
	int cells[2];
	(void)state;
	/* the caller scales by max(capacity, total): a full bar */
	assert_int_equal(bars_stack(v, 2, 120, 30, cells), 30);
	assert_int_equal(cells[0], 15);
	/* scaled by a smaller capacity it is capped at the width */
	assert_int_equal(bars_stack(v, 2, 80, 30, cells), 30);
	assert_int_equal(sum(cells, 2), 30);
	/* the capacity mark of 80 in a bar scaled to 120 */
	assert_int_equal(bars_marker(80, 120, 30), 20);
	assert_int_equal(bars_marker(200, 120, 30), 30);
}

static void test_stack_degenerate(void **state)
{
	double v[2] = {5, 5}, z[2] = {0, -3};
	int cells[2] = {9, 9};
	(void)state;
	assert_int_equal(bars_stack(v, 2, 0, 30, cells), 0);
	assert_int_equal(cells[0] + cells[1], 0);
	assert_int_equal(bars_stack(z, 2, 10, 30, cells), 0);
	assert_int_equal(bars_stack(v, 2, 10, 0, cells), 0);
	/* anything above zero shows at least one cell */
	assert_int_equal(bars_stack(v, 2, 1e12, 30, cells), 1);
}

static void test_fill(void **state)
{
	int full, eighths;
	(void)state;
	bars_fill(0.5, 10, &full, &eighths);
	assert_int_equal(full, 5);
	assert_int_equal(eighths, 0);
	bars_fill(0.3, 10, &full, &eighths); /* 3 cells exactly: 24 eighths */
	assert_int_equal(full, 3);
	assert_int_equal(eighths, 0);
	bars_fill(0.33, 10, &full, &eighths); /* 26.4 eighths -> 26 */
	assert_int_equal(full, 3);
	assert_int_equal(eighths, 2);
	bars_fill(1.7, 10, &full, &eighths); /* clamped */
	assert_int_equal(full, 10);
	assert_int_equal(eighths, 0);
	bars_fill(-1, 10, &full, &eighths);
	assert_int_equal(full, 0);
	assert_int_equal(eighths, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stack_exact),
		cmocka_unit_test(test_stack_rounding_adds_up),
		cmocka_unit_test(test_stack_small_part_visible),
		cmocka_unit_test(test_stack_over_capacity),
		cmocka_unit_test(test_stack_degenerate),
		cmocka_unit_test(test_fill),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
