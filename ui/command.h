/* command.h - the : line (command.c). */
#ifndef GPUPLAN_UI_COMMAND_H
#define GPUPLAN_UI_COMMAND_H

#include "app.h"

/* Runs a command line ("set k=v", "w", "e FILE", "q", "q!", "help"). */
void app_command(struct app *a, const char *cmd);

/* A key while the : line is open: Tab completes, Up/Down recall, Enter runs. */
void command_key(struct app *a, int key);

/* s past its spaces and tabs. */
const char *command_skip_blanks(const char *s);

#endif
