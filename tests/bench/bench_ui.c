/* bench_ui.c - the terminal UI's cost of one keystroke: CPU time from the key to the
 * finished screen update (the handler, plan_compute, every pane drawn, doupdate) and the
 * bytes written to the terminal, for typical edits at 80x24. Goals (issue 4): under 1 ms
 * and under 2 KB per edit. The screen is an xterm-256color written to a temporary file.
 * Prints "name value unit" lines; exits 1 when it cannot run. */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "app.h"
#include "catalog.h"
#include "scenario.h"

static struct app app;

static double cpu_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

struct result {
	double us;
	double bytes_mean;
	long bytes_max;
};

/* Presses keys[i % nkeys] n times, each followed by the live loop's compute and draw. */
static struct result run(FILE *out, const int *keys, int nkeys, int n)
{
	struct result r = {0, 0, 0};
	double t0, total_bytes = 0;

	fflush(out);
	t0 = cpu_s();
	for (int i = 0; i < n; i++) {
		long before = ftell(out), b;
		app_handle_key(&app, keys[i % nkeys]);
		app_compute(&app);
		app_draw(&app);
		fflush(out);
		b = ftell(out) - before;
		total_bytes += b;
		if (b > r.bytes_max)
			r.bytes_max = b;
	}
	r.us = (cpu_s() - t0) / n * 1e6;
	r.bytes_mean = total_bytes / n;
	return r;
}

static void report(const char *name, struct result r)
{
	printf("ui.%s.cpu_per_key %.1f us%s\n", name, r.us,
	       r.us < 1000 ? "" : " (over the 1 ms goal)");
	printf("ui.%s.bytes_per_key %.0f B (max %ld)%s\n", name, r.bytes_mean, r.bytes_max,
	       r.bytes_max < 2048 ? "" : " (over the 2 KB goal)");
}

int main(void)
{
	struct catalog *cat = catalog_new();
	struct scenario s;
	struct gp_error err;
	SCREEN *scr;
	FILE *out = tmpfile(), *in = fopen("/dev/null", "r");
	const int step[] = {'+', '-'};
	const int type[] = {'0', KEYF(KEY_BACKSPACE)};
	const int move[] = {'j', 'k'};
	const int undo_redo[] = {'u', KEY_CTRL('r')};
	struct result r_step, r_type, r_move, r_search, r_search_move;
	unsigned long runs;
	int n = 2000;

	setlocale(LC_CTYPE, "C.UTF-8");
	setenv("GPUPLAN_CATALOG", "catalog", 0);
	setenv("TERM", "xterm-256color", 1);
	setenv("LINES", "24", 1);
	setenv("COLUMNS", "80", 1);
	unsetenv("NO_COLOR");
	memset(&err, 0, sizeof(err));
	if (!cat || !out || !in || catalog_load_default(cat, NULL, &err) != 0 ||
	    scenario_init_builtin(&s, cat, &err) != 0) {
		fprintf(stderr, "bench_ui: cannot set up: %s\n", err.message);
		return 1;
	}
	app_init(&app, cat, &s, NULL, 0);
	scr = newterm("xterm-256color", out, in);
	if (!scr) {
		fprintf(stderr, "bench_ui: no xterm-256color terminfo\n");
		return 1;
	}
	app_screen_start(&app);
	app_compute(&app);
	app_draw(&app);

	/* + and - on hardware.count: the plan changes, so do most results */
	app_handle_key(&app, '3');
	app_handle_key(&app, 'j');
	r_step = run(out, step, 2, n);
	/* typing in workload.seq_len: each keystroke that reads moves the results */
	app_handle_key(&app, '2');
	app_handle_key(&app, 'j');
	app_handle_key(&app, 'j');
	app_handle_key(&app, '\r');
	r_type = run(out, type, 2, n);
	app_handle_key(&app, KEY_ESC);
	/* moving the selection: no recompute, two rows repainted */
	r_move = run(out, move, 2, n);
	/* the search view open over an edit (undo, redo of hardware.count): each key reruns
	 * the search once and redraws its rows; moving in it runs nothing */
	app_handle_key(&app, '3');
	app_handle_key(&app, 'g');
	app_handle_key(&app, 'j');
	app_handle_key(&app, '+');
	app_handle_key(&app, 's');
	app_compute(&app);
	runs = app.sv.runs;
	r_search = run(out, undo_redo, 2, n / 10);
	runs = app.sv.runs - runs;
	r_search_move = run(out, move, 2, n);

	app_screen_stop(&app);
	endwin();
	delscreen(scr);
	fclose(out);
	fclose(in);
	catalog_free(cat);

	report("step", r_step);
	report("type", r_type);
	report("move", r_move);
	/* a search is 1-8 ms of CPU (issue 6): not held to the 1 ms goal of an edit */
	printf("ui.search_edit.cpu_per_key %.1f us (%lu searches for %d keys)\n", r_search.us, runs,
	       n / 10);
	printf("ui.search_edit.bytes_per_key %.0f B (max %ld)\n", r_search.bytes_mean,
	       r_search.bytes_max);
	report("search_move", r_search_move);
	printf("ui.computes %lu\n", app.computes);
	return 0;
}
