/* sweep.h - `gpuplan sweep`: a scenario planned again at each value of one or more inputs,
 * its figures drawn against the first (gpuplan(1), sweep).
 */
#ifndef GPUPLAN_SWEEP_H
#define GPUPLAN_SWEEP_H

#include <stdbool.h>

#include "catalog.h"
#include "scenario.h"

#define SWEEP_MAX_RANGES  4   /* KEY=FROM..TO operands: the x axis, then the curves' keys */
#define SWEEP_MAX_VALUES  256 /* values of one range (the x axis' points) */
#define SWEEP_MAX_CURVES  8   /* combinations of the second and later ranges' values */
#define SWEEP_MAX_FIGURES 8   /* --y figures, one chart each */

/* What the command line read. */
struct sweep_request {
	const struct catalog *cat;
	const struct scenario *s; /* loaded, --set applied, valid */
	const char *file;	  /* as given, for messages and the output's scenario.file */
	const struct scenario_source *src; /* the file's keys, for a swept preset; may be NULL */
	int nsets;
	const char *const *sets; /* the --set options, applied again after a swept preset */
	int nranges;
	const char *const *ranges; /* "KEY=FROM..TO[:STEP|*FACTOR]" or "KEY=A,B,..." */
	int nys;
	const char *const *ys; /* --y FIGURE (each may list several, comma-separated) */
	const char *svg;       /* --svg FILE, or NULL; "-" is standard output */
	bool json, csv, ascii;
};

/* Runs the sweep and prints its result (text chart, --csv, --json; the SVG to its file).
 * Returns the exit status: 0, 2 for a bad range or figure (a message naming it), 1 when
 * writing failed or memory ran out. */
int sweep_run(const struct sweep_request *r);

/* The figure table as TSV for `gpuplan figures` (shell completion of --y): one figure a
 * line, key, "number" (what --y charts) or "word", unit, label. */
struct report_buf;
void sweep_figures(struct report_buf *b);

#endif
