/* ui_app_fixture.h - one struct app on the built-in scenario and a small hand-made catalog
 * (ui_catalog.h), for the terminal UI's unit tests that drive keys without a terminal.
 * Include once per test program, after cmocka.h. */
#ifndef GPUPLAN_TEST_UI_APP_FIXTURE_H
#define GPUPLAN_TEST_UI_APP_FIXTURE_H

#include "app.h"
#include "ui_catalog.h"

static struct catalog cat;
static struct app app;

/* The catalog: an H100 and Llama 3.1 8B; with UI_APP_TWO_OF_EACH defined before this is
 * included, an A100 and Llama 3.1 70B too, the H100 faster and dearer (989 against 312 TF,
 * $2.5 against $1.5 an hour), so the picker has a choice and the search ranks them. */
static void ui_app_catalog(struct catalog *c)
{
	ui_cat_add_gpu(c, "h100-sxm-80gb", 80e9, 989e12, 2.5);
	ui_cat_add_model(c, "llama-3.1-8b", 32, 4096, 32, 8, 14336);
#ifdef UI_APP_TWO_OF_EACH
	ui_cat_add_gpu(c, "a100-80gb-sxm", 80e9, 312e12, 1.5);
	ui_cat_add_model(c, "llama-3.1-70b", 80, 8192, 64, 8, 28672);
#endif
}

/* cmocka setup: a fresh app on the built-in scenario (an 8B model on an H100). */
static int setup(void **state)
{
	struct scenario s;
	struct gp_error err;
	(void)state;
	if (cat.ngpus == 0)
		ui_app_catalog(&cat);
	if (scenario_init_builtin(&s, &cat, &err) != 0)
		return -1;
	app_init(&app, &cat, &s, NULL, 0);
	return 0;
}

/* Each byte of s as a key, then the recompute the live loop would do. */
static void keys(const char *s)
{
	for (; *s; s++)
		app_handle_key(&app, (unsigned char)*s);
	app_compute(&app);
}

#endif
