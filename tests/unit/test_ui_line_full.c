/* test_ui_line_full.c - the line editor when a key does not fit (field_edit.c, line_edit_key): the
 * keys past LINE_EDIT_MAX used to be dropped without a word, so `:w` with a long path wrote to the
 * path cut short, another file. The line is marked full, Enter is refused with a message, and
 * nothing is written. The line holds a path of PATH_MAX bytes (test_ui_long_paths): here the keys
 * go past it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "ui_app_fixture.h"

static void test_long_write_refused(void **state)
{
	static char line[LINE_EDIT_MAX + 200], cut[sizeof(app.line.buf)];
	char dir[] = "/tmp/gpuplan-line-XXXXXX";
	size_t room;
	(void)state;
	assert_non_null(mkdtemp(dir));
	/* ":w DIR/aaaa...a.yaml", past the line: what fits is DIR/aaa...a, another name */
	snprintf(line, sizeof(line), ":w %s/", dir);
	room = strlen(line);
	while (strlen(line) < LINE_EDIT_MAX + 80)
		strcat(line, "a");
	strcat(line, ".yaml");
	keys(line);
	assert_true(app.line.full);
	assert_int_equal(app.mode, MODE_COMMAND);
	assert_non_null(strstr(app.status, "the line is full"));
	keys("\n");
	/* Enter refused: still on the line, and nothing was written under the cut name */
	assert_int_equal(app.mode, MODE_COMMAND);
	memcpy(cut, app.line.buf + 2, sizeof(cut) - 2);
	cut[sizeof(cut) - 2] = '\0';
	assert_true(strlen(cut) > room);
	assert_int_not_equal(access(cut, F_OK), 0);
	/* Esc, then a new line: the editor is whole again */
	app_handle_key(&app, 27);
	keys(":");
	assert_false(app.line.full);
	app_handle_key(&app, 27);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup(test_long_write_refused, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
