/* cli.h - the command-line front end: parses arguments, calls the core, prints.
 *
 * Thin by design: each command loads the catalog and the scenario (applying --set), calls
 * the core and prints its result. Exit status: 0 success, 2 bad usage or input, 1 I/O or
 * internal failure (gpuplan(1), EXIT STATUS).
 */
#ifndef GPUPLAN_CLI_H
#define GPUPLAN_CLI_H

#include "catalog.h"
#include "scenario.h"

#define CLI_UI_ASCII 1u /* --ascii: draw with ASCII only */
/* The longest file name (with its NUL) the terminal UI keeps: struct app's path[] in
 * ui/app.h, PATH_MAX as the core's (error.h). cli_main refuses a longer one whole before
 * the UI starts. */
#define CLI_UI_PATH_MAX GP_PATH_MAX

/* The terminal UI, supplied by ui/ so that src/ never links curses. path is the file the
 * scenario came from (NULL for the built-in one). Returns the exit status. */
typedef int (*cli_ui_fn)(const struct catalog *cat, struct scenario *s, const char *path,
			 unsigned flags);

/* The terminal UI's key table for the hidden `gpuplan keys`, supplied by ui/ as ui is:
 * prints it as TSV to standard output; returns 0, or nonzero when writing failed. */
typedef int (*cli_keys_fn)(void);

/* Runs the command line; returns the process exit status. */
int cli_main(int argc, char **argv, cli_ui_fn ui, cli_keys_fn keys);

#endif
