/* test_ui_small.c - the UI's state at other sizes than 80x24 and for a file not there yet: the
 * picker pages by the rows it shows at each height; a resize keeps every pane's selection in view;
 * gpuplan NEWFILE.yaml is the built-in scenario bound to a file that saving creates. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "app.h"
#include "ui_catalog.h"

static struct catalog cat;
static struct app app;

/* 60 GPUs, more than two pages of the picker at any height */
#define NGPUS 60

static void init(const char *path)
{
	struct scenario s;
	struct gp_error err;

	if (cat.ngpus == 0) {
		ui_cat_add_gpu(&cat, "h100-sxm-80gb", 80e9, 1e15, 2);
		for (int i = 1; i < NGPUS; i++) {
			char id[32];
			snprintf(id, sizeof(id), "gpu-%02d", i);
			ui_cat_add_gpu(&cat, id, 80e9 + i * 1e9, 1e15, 2);
		}
		ui_cat_add_model(&cat, "llama-3.1-8b", 32, 4096, 32, 8, 14336);
	}
	assert_int_equal(scenario_init_builtin(&s, &cat, &err), 0);
	app_init(&app, &cat, &s, path, 0);
}

static void key(int k)
{
	app_handle_key(&app, k);
	app_compute(&app);
}

static void keys(const char *s)
{
	for (; *s; s++)
		key((unsigned char)*s);
}

/* The terminal is now rows x cols, as app_screen_layout does it without the windows. */
static void resize(int rows, int cols)
{
	layout_compute(rows, cols, &app.lay);
	app.dirty |= DIRTY_CALC;
	app_compute(&app);
}

/* PgDn and PgUp move the picker's selection, and its list, by exactly the rows it shows:
 * the popup covers the body (rows - 3) less its frame, filter and heading lines (4). They
 * moved by rows - 10 while rows - 7 showed. */
static void test_picker_pages(void **state)
{
	(void)state;
	init(NULL);
	for (int rows = 18; rows <= 50; rows += 8) {
		int page = rows - 7;
		resize(rows, 80);
		assert_int_equal(picker_visible(&app), page);
		keys("3g");
		key('\r');
		assert_int_equal(app.mode, MODE_PICK);
		assert_int_equal(app.pick.n, NGPUS);
		assert_int_equal(app.pick.sel, 0);
		key(KEYF(KEY_NPAGE));
		assert_int_equal(app.pick.sel, page);
		/* the next page, whole (or the last full page) */
		assert_int_equal(app.pick.top, page < NGPUS - page ? page : NGPUS - page);
		/* the choice is previewed */
		assert_string_equal(app.scn.hardware.gpu.id, cat.gpus[page].id);
		for (int i = 2; i < (NGPUS + page - 1) / page; i++) {
			key(KEYF(KEY_NPAGE));
			assert_int_equal(app.pick.sel, i * page);
		}
		key(KEYF(KEY_NPAGE));
		/* at the end: the last GPU, the list's last page full */
		assert_int_equal(app.pick.sel, NGPUS - 1);
		assert_int_equal(app.pick.top, NGPUS - page);
		key(KEYF(KEY_PPAGE));
		assert_int_equal(app.pick.sel, NGPUS - 1 - page);
		assert_int_equal(app.pick.top, NGPUS - 2 * page > 0 ? NGPUS - 2 * page : 0);
		key(KEY_ESC);
		assert_int_equal(app.mode, MODE_NORMAL);
		assert_string_equal(app.scn.hardware.gpu.id, "h100-sxm-80gb");
	}
}

/* Resizing keeps each pane's selection, and scrolls it into view where the pane is short. */
static void test_resize_keeps_selection(void **state)
{
	static const int sizes[][2] = {{24, 80}, {18, 64}, {50, 200}, {23, 80}, {18, 80}, {24, 64}};
	const struct field *sel[PANE_RESULTS];
	(void)state;
	init(NULL);
	keys("1G2G3G");
	keys("4jjjj");
	for (int p = 0; p < PANE_RESULTS; p++) {
		app.focus = p;
		sel[p] = app_selected_field(&app);
		assert_non_null(sel[p]);
	}
	app.focus = PANE_RESULTS;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		resize(sizes[i][0], sizes[i][1]);
		assert_false(app.lay.too_small);
		assert_int_equal(app.sel[PANE_RESULTS], 4);
		for (int p = 0; p < PANE_RESULTS; p++) {
			int visible = app.lay.pane[p].h - 1;
			app.focus = p;
			assert_ptr_equal(app_selected_field(&app), sel[p]);
			assert_true(app.sel[p] >= app.top[p]);
			assert_true(app.sel[p] < app.top[p] + visible);
		}
		app.focus = PANE_RESULTS;
	}
}

/* gpuplan NEWFILE.yaml: the built-in scenario bound to the new file, nothing unsaved; ^S
 * creates it, and then it is an ordinary file. */
static void test_new_file(void **state)
{
	char dir[] = "/tmp/gpuplan-ui-small.XXXXXX", path[128];
	struct stat st;
	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/new.yaml", dir);
	init(path);
	assert_true(app.new_file);
	assert_string_equal(app.path, path);
	assert_false(app_unsaved(&app));
	assert_non_null(strstr(app.status, "new file"));
	assert_int_equal(stat(path, &st), -1);
	key(KEY_CTRL('s'));
	assert_int_equal(app.mode, MODE_NORMAL); /* no question: the file is its own */
	assert_int_equal(stat(path, &st), 0);
	assert_true(st.st_size > 0);
	assert_false(app.new_file);
	assert_non_null(strstr(app.status, "written"));
	/* an existing file is not new */
	init(path);
	assert_false(app.new_file);
	unlink(path);
	rmdir(dir);
	/* nor is the built-in scenario */
	init(NULL);
	assert_false(app.new_file);
}

/* The help is written for 76 columns; in a narrower window its lines wrap, and scrolling
 * reaches the last of them. */
static void test_help_wraps(void **state)
{
	(void)state;
	init(NULL);
	assert_int_equal(help_display_lines(76), help_lines());
	assert_true(help_display_lines(60) > help_lines());
	resize(18, 64);
	key('?');
	assert_int_equal(app.mode, MODE_HELP);
	for (int i = 0; i < 200; i++)
		key('j');
	assert_int_equal(app.help_top, help_display_lines(60) - 1);
	key(KEY_ESC);
	assert_int_equal(app.mode, MODE_NORMAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_picker_pages),
	    cmocka_unit_test(test_resize_keeps_selection),
	    cmocka_unit_test(test_new_file),
	    cmocka_unit_test(test_help_wraps),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
