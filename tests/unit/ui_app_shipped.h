/* ui_app_shipped.h - one struct app on a shipped scenario and the catalog/ folder
 * (shipped_catalog.h's cat), for the terminal UI's unit tests that drive a real lesson or
 * seed without a terminal. Include once per test program, after shipped_catalog.h. */
#ifndef GPUPLAN_TEST_UI_APP_SHIPPED_H
#define GPUPLAN_TEST_UI_APP_SHIPPED_H

#include "app.h"
#include "scenario_yaml.h"

static struct app app;

/* path read as `gpuplan FILE` reads it, into a fresh app; -1 when it does not load. */
static int open_shipped(const char *path)
{
	struct scenario s;
	struct gp_error err;
	if (scenario_load_file(path, cat, &s, NULL, NULL, &err) != 0)
		return -1;
	app_init(&app, cat, &s, path, 0);
	return 0;
}

#endif
