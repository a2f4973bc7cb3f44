/* test_ui_notes.c - workshop use (issue 15, review M4): the scenario's notes open in a view (n,
 * :notes) that scrolls at 80x24, the legend names its key, and :set takes several KEY=VALUE pairs,
 * all of them or none, so a lesson's line can be pasted. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "app.h"
#include "scenario_yaml.h"
#include "shipped_catalog.h"
#include "ui_app_shipped.h"

#define LESSON "scenarios/workshop/08-time-cost-and-deadlines.yaml"

static int setup(void **state)
{
	(void)state;
	return open_shipped(LESSON);
}

static void key(int k)
{
	app_handle_key(&app, k);
	app_compute(&app);
}

static void command(const char *c)
{
	app_command(&app, c);
	app_compute(&app);
}

static void test_notes_key_and_command(void **state)
{
	struct legend_item items[16];
	bool in_legend = false;
	(void)state;
	assert_non_null(strstr(app.scn.notes, "Question to try"));
	key('n');
	assert_int_equal(app.mode, MODE_NOTES);
	assert_ptr_equal(app_view(&app), &notes_view);
	key('x'); /* any other key closes it */
	assert_int_equal(app.mode, MODE_NORMAL);
	command("notes");
	assert_int_equal(app.mode, MODE_NOTES);
	key(KEY_ESC);
	assert_int_equal(app.mode, MODE_NORMAL);
	keys_legend(KC_MAIN, items, 16);
	for (int i = 0; items[i].key; i++)
		in_legend |= strcmp(items[i].key, "n") == 0;
	assert_true(in_legend);
}

/* notes (a list, which does not reflow) longer than the 80x24 window scroll, and q closes the view, not the program */
static void test_notes_scroll(void **state)
{
	size_t len = 0;
	(void)state;
	for (int i = 0; i < 40; i++)
		len += (size_t)snprintf(app.scn.notes + len, sizeof(app.scn.notes) - len,
					"- point %d of a long lesson\n", i);
	assert_true(notes_lines(&app, 76) >= 40);
	key('n');
	key(KEYF(KEY_DOWN));
	key(KEYF(KEY_DOWN));
	assert_int_equal(app.mode, MODE_NOTES);
	assert_int_equal(app.notes_top, 2);
	key(KEYF(KEY_NPAGE));
	assert_int_equal(app.notes_top, 12);
	key('q');
	assert_int_equal(app.mode, MODE_NORMAL);
	assert_false(app.quit);
}

/* a paragraph the file breaks at 88 columns reflows to the window's 76: lesson 8 reads whole
 * in the 80x24 window (22 rows between the title and the status lines, less the frame),
 * where wrapping each of its lines alone took 19 lines */
static void test_notes_reflow(void **state)
{
	(void)state;
	assert_true(notes_lines(&app, 76) <= 15);
}

/* a lesson's line pasted: both pairs, one undo step */
static void test_set_pairs(void **state)
{
	(void)state;
	command("set hardware.count=128 efficiency.mfu=0.3");
	assert_false(app.status_error);
	assert_int_equal(app.scn.hardware.count, 128);
	assert_true(app.scn.efficiency.mfu == 0.3);
	key('u');
	assert_int_equal(app.scn.hardware.count, 64);
	assert_true(app.scn.efficiency.mfu == 0);
	/* KEY = VALUE with blanks is still one pair, beside another */
	command("set hardware.count = 32 workload.seq_len=8192");
	assert_false(app.status_error);
	assert_int_equal(app.scn.hardware.count, 32);
	assert_int_equal(app.scn.workload.seq_len, 8192);
}

/* one pair that does not read: none is set, and the message says which */
static void test_set_pairs_all_or_nothing(void **state)
{
	struct scenario before = app.scn;
	(void)state;
	command("set hardware.count=128 efficiency.mfu=7");
	assert_true(app.status_error);
	assert_non_null(strstr(app.status, "efficiency.mfu"));
	assert_non_null(strstr(app.status, "pair 2 of 2"));
	assert_memory_equal(&app.scn, &before, sizeof(before));
	command("set hardware.count=128 nosuch.key=1");
	assert_true(app.status_error);
	assert_memory_equal(&app.scn, &before, sizeof(before));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup(test_notes_key_and_command, setup),
	    cmocka_unit_test_setup(test_notes_scroll, setup),
	    cmocka_unit_test_setup(test_notes_reflow, setup),
	    cmocka_unit_test_setup(test_set_pairs, setup),
	    cmocka_unit_test_setup(test_set_pairs_all_or_nothing, setup),
	};
	return cmocka_run_group_tests(tests, shipped_catalog_setup, shipped_catalog_teardown);
}
