/* lesson.h - lesson mode: :next, :prev and :reset (lesson.c). */
#ifndef GPUPLAN_UI_LESSON_H
#define GPUPLAN_UI_LESSON_H

#include "app.h"

/* The scenario file before (dir < 0) or after (dir > 0) path in its folder, the folder's
 * *.yaml files (not dot files) sorted by name, as out; *pos its place from 1 and *count the
 * files. 0; 1 when path is the first (last) and nothing is written; -1 when the folder
 * cannot be read or the name does not fit. */
int lesson_neighbour(const char *path, int dir, char *out, size_t size, int *pos, int *count);

/* :next (dir 1) and :prev (dir -1): the next (previous) lesson of the folder. The edits of
 * the lesson left are kept, and come back when it is opened again, until :reset. Returns
 * the dirty bits. */
unsigned app_lesson_step(struct app *a, int dir);

/* After a hang-up or a fatal signal, beside app_write_recovery (which writes the lesson on
 * screen): each kept lesson's edits to that lesson's own recovery file (.FILE.recover
 * beside it, else the state folder), so a lost session loses no lesson's edits; the next
 * start, or :next and :prev into that lesson, offers it. Returns the lessons that could
 * not be written. Not for signal handlers. */
int app_write_lesson_recoveries(struct app *a);

/* :reset: the scenario as its file has it, the lesson's kept edits dropped; one undoable
 * edit. Returns the dirty bits. */
unsigned app_lesson_reset(struct app *a);

#endif
