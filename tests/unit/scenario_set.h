/* scenario_set.h - a scenario file loaded and --set KEY=VALUE applied as the command line
 * applies them, the test failing with the message when either is refused: load, set, and
 * setf (set with a printf format). Needs cmocka.h and shipped_catalog.h (cat) first. */
#ifndef GPUPLAN_TEST_SCENARIO_SET_H
#define GPUPLAN_TEST_SCENARIO_SET_H

#include <stdarg.h>
#include <stdio.h>

#include "scenario.h"
#include "scenario_yaml.h"

static void load(const char *path, struct scenario *s)
{
	struct gp_error err;
	if (scenario_load_file(path, cat, s, NULL, NULL, &err) != 0)
		fail_msg("%s: %s", path, err.message);
}

static void set(struct scenario *s, const char *kv)
{
	struct gp_error err;
	if (scenario_set_assignment(s, cat, kv, &err) != 0)
		fail_msg("--set %s: %s", kv, err.message);
}

static void setf(struct scenario *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void setf(struct scenario *s, const char *fmt, ...)
{
	char kv[256];
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = vsnprintf(kv, sizeof(kv), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(kv))
		fail_msg("--set %s...: too long", kv);
	set(s, kv);
}

#endif
