/* test_ui_view_close.c - one rule for the views (issue 15, review m1): q and Esc close a view
 * (search, scaling, help, explanation, notes), and only q at the panes quits (asking over unsaved
 * edits). Before, q in the search and scaling views quit the program. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "ui_app_fixture.h"

/* opens the view that open names (a key), presses close, and checks it closed, the program
 * still running */
static void closes(const char *open, int close)
{
	keys(open);
	assert_true(app.view != VIEW_NONE || app.mode != MODE_NORMAL);
	app_handle_key(&app, close);
	app_compute(&app);
	assert_int_equal(app.mode, MODE_NORMAL);
	assert_int_equal(app.view, VIEW_NONE);
	assert_false(app.quit);
}

static void test_q_closes_each_view(void **state)
{
	(void)state;
	closes("s", 'q');
	closes("S", 'q');
	closes("?", 'q');
	closes("n", 'q');
	closes("4e", 'q');
	/* q at the panes quits */
	keys("q");
	assert_true(app.quit);
}

static void test_esc_closes_each_view(void **state)
{
	(void)state;
	closes("s", KEY_ESC);
	closes("S", KEY_ESC);
	closes("?", KEY_ESC);
	closes("n", KEY_ESC);
	closes("4e", KEY_ESC);
	assert_false(app.quit);
}

static void test_q_over_a_view_with_edits_does_not_ask(void **state)
{
	(void)state;
	keys("3j+");
	assert_true(app_unsaved(&app));
	closes("s", 'q');
	assert_int_equal(app.mode, MODE_NORMAL);
	/* at the panes it asks */
	keys("q");
	assert_int_equal(app_key_ctx(&app), KC_QUIT);
	assert_false(app.quit);
}

static void test_legend_says_q_closes(void **state)
{
	struct legend_item items[16];
	int found = 0;
	(void)state;
	for (int ctx = KC_SEARCH; ctx <= KC_SCALING; ctx++) {
		int n = keys_legend((enum key_ctx)ctx, items, 16);
		for (int i = 0; i < n; i++)
			found += strcmp(items[i].key, "q/Esc") == 0 &&
				 strcmp(items[i].text, "Close") == 0;
	}
	assert_int_equal(found, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup(test_q_closes_each_view, setup),
	    cmocka_unit_test_setup(test_esc_closes_each_view, setup),
	    cmocka_unit_test_setup(test_q_over_a_view_with_edits_does_not_ask, setup),
	    cmocka_unit_test_setup(test_legend_says_q_closes, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
