/* tui.h - the terminal UI's entry point. */
#ifndef GPUPLAN_TUI_H
#define GPUPLAN_TUI_H

#include "catalog.h"
#include "scenario.h"

/* Runs the interactive planner on s (loaded from path, or the built-in scenario when path
 * is NULL) until the user quits; flags are CLI_UI_*. Restores the terminal on every exit
 * path. Returns the process exit status. */
int tui_run(const struct catalog *cat, struct scenario *s, const char *path, unsigned flags);

#endif
