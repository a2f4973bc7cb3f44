/* test_ui_keystroke_cost.c - the keystroke path's cost (issue 15's reviewer findings): a resize
 * recomputes no plan and reruns the search only when its view grew past the rows last asked for;
 * the picker's preview and Left/Right on a preset allocate nothing; a search waits while a line is
 * typed over its view. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ui_app_fixture.h"

/* Heap allocations counted: by the sanitizer's hooks in `make asan`, else by standing in
 * for glibc's malloc. */
static volatile unsigned long mallocs; /* volatile: malloc is assumed to touch no global */
#if defined(__SANITIZE_ADDRESS__)
/* sanitizer/allocator_interface.h's, declared here: the header is not always installed */
int __sanitizer_install_malloc_and_free_hooks(void (*m)(const volatile void *, size_t),
					      void (*f)(const volatile void *));
static void on_malloc(const volatile void *p, size_t n)
{
	(void)p;
	(void)n;
	mallocs++;
}
static void on_free(const volatile void *p)
{
	(void)p;
}
static void count_init(void)
{
	static int done;
	if (!done)
		__sanitizer_install_malloc_and_free_hooks(on_malloc, on_free);
	done = 1;
}
#else
extern void *__libc_malloc(size_t n);
void *malloc(size_t n);
void *malloc(size_t n)
{
	mallocs++;
	return __libc_malloc(n);
}
static void count_init(void)
{
}
#endif

static void key(int k)
{
	app_handle_key(&app, k);
	app_compute(&app);
}

static void test_resize_recomputes_no_plan(void **state)
{
	unsigned long computes, runs;
	(void)state;
	keys("s");
	computes = app.computes;
	runs = app.sv.runs;
	assert_true(runs > 0);
	/* smaller: nothing recomputed, nothing searched */
	layout_compute(20, 80, &app.lay);
	app_relayout(&app);
	app_compute(&app);
	assert_int_equal(app.computes, computes);
	assert_int_equal(app.sv.runs, runs);
	assert_true(app.dirty & DIRTY_DRAW);
	/* back: the view is no taller than the rows asked, no rerun */
	layout_compute(LAYOUT_STD_ROWS, LAYOUT_STD_COLS, &app.lay);
	app_relayout(&app);
	app_compute(&app);
	assert_int_equal(app.computes, computes);
	assert_int_equal(app.sv.runs, runs);
	/* taller than asked, with the rows filled: one rerun for the new rows, no plan */
	if (app.sv.n >= app.sv.asked) {
		layout_compute(60, 120, &app.lay);
		app_relayout(&app);
		app_compute(&app);
		assert_int_equal(app.sv.runs, runs + 1);
	}
	assert_int_equal(app.computes, computes);
}

static void test_search_waits_while_a_line_is_typed(void **state)
{
	unsigned long runs;
	(void)state;
	keys("s");
	runs = app.sv.runs;
	keys(":");
	assert_int_equal(app.mode, MODE_COMMAND);
	app.sv.stale = true; /* as an edit under the view would leave it */
	app_compute(&app);
	assert_int_equal(app.sv.runs, runs);
	key(KEY_ESC);
	assert_int_equal(app.sv.runs, runs + 1);
}

static void test_preview_and_cycle_allocate_nothing(void **state)
{
	unsigned long before;
	(void)state;
	count_init();
	/* the count counts */
	before = mallocs;
	{
		void *volatile p = malloc(16); /* volatile: not a pair the compiler may drop */
		free(p);
	}
	assert_int_equal(mallocs - before, 1);
	if (cat.ngpus < 2)
		ui_cat_add_gpu(&cat, "a100-80gb-sxm", 80e9, 1e15, 2);
	/* Left/Right on hardware.gpu: the next GPU, as --set sets it */
	keys("3g");
	assert_string_equal(app_selected_field(&app)->key, "hardware.gpu");
	before = mallocs;
	key(KEYF(KEY_RIGHT));
	assert_string_not_equal(app.scn.hardware.gpu.id, "h100-sxm-80gb");
	key(KEYF(KEY_LEFT));
	assert_string_equal(app.scn.hardware.gpu.id, "h100-sxm-80gb");
	assert_int_equal(mallocs - before, 0);
	/* the picker's preview at each Down */
	keys("\r");
	assert_int_equal(app.mode, MODE_PICK);
	before = mallocs;
	key(KEYF(KEY_DOWN));
	assert_int_equal(app.pick.sel, 1);
	key(KEYF(KEY_UP));
	assert_int_equal(mallocs - before, 0);
	key(KEY_ESC);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup(test_resize_recomputes_no_plan, setup),
	    cmocka_unit_test_setup(test_search_waits_while_a_line_is_typed, setup),
	    cmocka_unit_test_setup(test_preview_and_cycle_allocate_nothing, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
