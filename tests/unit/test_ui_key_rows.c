/* test_ui_key_rows.c - every key of every mode is a row of the action table with its handler (issue
 * 11, step 3): the line editor's Ctrl-A/E/K/W/D and Delete, the picker's moves, the : line's keys,
 * the questions' answers and the windows' scrolls; only the rows that name what Enter, Esc and
 * typing mean in a mode that hands them to the line editor have none. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "app.h"

static void test_rows_have_handlers(void **state)
{
	int line = 0, others = 0;
	(void)state;
	for (const struct key_row *r = key_table; r->name; r++) {
		if (!r->keys[0])
			continue; /* a legend row ("type": the filter) */
		if (r->ctx == KC_LINE) {
			assert_non_null(r->edit);
			line++;
		} else if (r->ctx != KC_EDIT) {
			if (!r->run)
				fail_msg("row %s of context %d binds keys without a handler", r->name,
					 r->ctx);
			others++;
		}
	}
	assert_true(line >= 11);
	assert_true(others > 60);
}

static void test_editor_keys_through_the_table(void **state)
{
	struct line_edit e;
	(void)state;
	line_edit_set(&e, "tp 8 pp 4");
	assert_non_null(keys_find(KC_LINE, KEY_CTRL('a')));
	assert_int_equal(line_edit_key(&e, KEY_CTRL('a')), EDIT_MOVED);
	assert_int_equal(e.cur, 0);
	assert_int_equal(line_edit_key(&e, KEY_CTRL('d')), EDIT_CHANGED);
	assert_string_equal(e.buf, "p 8 pp 4");
	assert_int_equal(line_edit_key(&e, KEYF(KEY_DC)), EDIT_CHANGED);
	assert_string_equal(e.buf, " 8 pp 4");
	assert_int_equal(line_edit_key(&e, KEY_CTRL('e')), EDIT_MOVED);
	assert_int_equal(e.cur, e.len);
	assert_int_equal(line_edit_key(&e, KEY_CTRL('w')), EDIT_CHANGED);
	assert_string_equal(e.buf, " 8 pp ");
	line_edit_key(&e, KEY_CTRL('a'));
	line_edit_key(&e, KEYF(KEY_RIGHT));
	line_edit_key(&e, KEYF(KEY_RIGHT));
	assert_int_equal(line_edit_key(&e, KEY_CTRL('k')), EDIT_CHANGED);
	assert_string_equal(e.buf, " 8");
	assert_int_equal(line_edit_key(&e, KEY_CTRL('u')), EDIT_CHANGED);
	assert_string_equal(e.buf, "");
	assert_int_equal(line_edit_key(&e, '\r'), EDIT_ACCEPT);
	assert_int_equal(line_edit_key(&e, KEY_ESC), EDIT_CANCEL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_rows_have_handlers),
	    cmocka_unit_test(test_editor_keys_through_the_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
