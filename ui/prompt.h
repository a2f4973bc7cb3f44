/* prompt.h - the questions on the status line (prompt.c). */
#ifndef GPUPLAN_UI_PROMPT_H
#define GPUPLAN_UI_PROMPT_H

#include "app.h"

/* A key while a question (a->prompt) is asked: the save-as line's editor, else the row of
 * the key table (KC_QUIT, KC_PROMPT, KC_RECOVER) bound to it; other keys wait. */
unsigned prompt_key(struct app *a, int key); /* returns the dirty bits */

/* The questions' key handlers (keys.c's table); each returns the dirty bits. */
unsigned prompt_key_quit_yes(struct app *a, int key);  /* quit without saving */
unsigned prompt_key_quit_no(struct app *a, int key);   /* stay */
unsigned prompt_key_quit_save(struct app *a, int key); /* save, then quit */
unsigned prompt_key_overwrite_yes(struct app *a, int key);
unsigned prompt_key_overwrite_no(struct app *a, int key);
/* After a lost session: y restores its edits (the recovery file is kept until they are
 * saved or discarded), d deletes the file, n and Esc keep it for the next start. */
unsigned prompt_key_recover_yes(struct app *a, int key);
unsigned prompt_key_recover_discard(struct app *a, int key);
unsigned prompt_key_recover_keep(struct app *a, int key);

#endif
