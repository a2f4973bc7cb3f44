/* complete.h - Tab completion and the : line history (complete.c). */
#ifndef GPUPLAN_UI_COMPLETE_H
#define GPUPLAN_UI_COMPLETE_H

#include "app.h"

/* Tab on the : line: completes the command's name (the first word), a field key after
 * "set " (to "set KEY=" when one matches, else to the longest common prefix, listing the
 * candidates on the status line), or after "set KEY=" one of its values (choices,
 * true/false, catalog ids); "max" or "min" after "solve ", and after "solve max " or
 * "solve min " a numeric field's key. */
void app_complete(struct app *a);

/* Tab after a file command (cmd, "" at the save-as prompt): the file names that start with
 * typed, completed to their longest common prefix, the others listed on the status line. */
void complete_file(struct app *a, const char *cmd, const char *typed);

/* Another Tab (dir 1) or Shift-Tab (dir -1) on the line the last Tab left: the next or
 * previous candidate, in sorted order, then back to what was typed. Returns false (and
 * does nothing) when the line is not one Tab left with candidates to cycle through. */
bool complete_cycle(struct app *a, int dir);

/* The candidates as the status line shows them after the line typed, in width columns:
 * as many as fit around the one on the line, then "+N more" for the rest. NULL when Tab
 * left no list to cycle through (the status line shows its message then). *sel_at and
 * *sel_len: the bytes of buf that name the candidate on the line (*sel_len 0: none). */
const char *complete_hint(const struct app *a, int width, char *buf, size_t size, int *sel_at,
			  int *sel_len);

/* Remembers a command line run (not an empty one, nor the last one again). */
void complete_history_add(struct app *a, const char *cmd);

#endif
