/* complete.h - Tab completion and the : line history (complete.c). */
#ifndef GPUPLAN_UI_COMPLETE_H
#define GPUPLAN_UI_COMPLETE_H

#include "app.h"

/* Tab on the : line: completes a field key after "set " (to "set KEY=" when one matches,
 * else to the longest common prefix, listing the candidates on the status line), or after
 * "set KEY=" one of its values (choices, true/false, catalog ids); after "solve max " or
 * "solve min " a numeric field's key. */
void app_complete(struct app *a);

/* Tab after a file command (cmd, "" at the save-as prompt): the file names that start with
 * typed, completed to their longest common prefix, the others listed on the status line. */
void complete_file(struct app *a, const char *cmd, const char *typed);

/* Remembers a command line run (not an empty one, nor the last one again). */
void complete_history_add(struct app *a, const char *cmd);

#endif
