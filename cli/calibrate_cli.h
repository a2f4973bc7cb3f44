/* calibrate_cli.h - `gpuplan calibrate`: a scenario's efficiency knobs fitted to figures
 * measured on the user's own run (src/calibrate.h), shown before and after, and written
 * into the scenario (gpuplan(1), calibrate).
 */
#ifndef GPUPLAN_CLI_CALIBRATE_H
#define GPUPLAN_CLI_CALIBRATE_H

#include <stdbool.h>

#include "catalog.h"
#include "profile.h"
#include "scenario.h"

/* What the command line read. */
struct calibrate_request {
	const struct catalog *cat;
	struct scenario *s; /* loaded, --set applied, valid; fitted in place */
	const char *file;   /* as given */
	int nmeasured;
	const char *const *measured; /* --measured KEY=VALUE */
	int nknobs;
	const char *const *knobs; /* --knob KNOB: the knobs a speed measurement may fit */
	const char *output;	  /* -o FILE, or NULL */
	bool write;		  /* --write: back into file */
	bool json;
	struct profile *profile; /* --profile NAME (read, or empty when new), or NULL */
};

/* Runs the calibration and prints its result: with -o or --write the summary on standard
 * output and the scenario saved (atomically, every field the file gave kept); without,
 * the calibrated scenario on standard output and the summary on standard error; --json
 * the summary as JSON (schema gpuplan.calibrate/1). With a profile, its knobs are those
 * of the calibrated scenario (the ones it gave and the ones fitted) and it is saved
 * (profile_save), the summary on standard output unless the scenario goes there too.
 * Returns the exit status: 0; 2 for a
 * malformed --measured, a figure that does not apply, or a bad combination of options;
 * 1 when a measurement no knob in range explains (nothing written), or writing failed. */
int calibrate_run(const struct calibrate_request *r);

#endif
