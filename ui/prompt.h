/* prompt.h - the questions on the status line (prompt.c). */
#ifndef GPUPLAN_UI_PROMPT_H
#define GPUPLAN_UI_PROMPT_H

#include "app.h"

/* A key while a question (a->prompt) is asked. */
unsigned prompt_key(struct app *a, int key); /* returns the dirty bits */

#endif
