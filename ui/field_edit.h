/* field_edit.h - the one-line editor (fields, the : command line, prompts) and the field
 * operations behind +/-, Left/Right and typed values.
 *
 * Keys are ints as keys.h encodes them: a character is its code point, a curses function
 * key is KEYF(KEY_...). Nothing here draws.
 */
#ifndef GPUPLAN_UI_FIELD_EDIT_H
#define GPUPLAN_UI_FIELD_EDIT_H

#include <stdbool.h>

#include "catalog.h"
#include "error.h"
#include "scenario.h"
#include "scenario_sets.h" /* field_edit_apply loads as scenario_field_load does */

/* A line holds ":w! " and a path of up to PATH_MAX bytes (error.h's GP_PATH_MAX) whole. */
#define LINE_EDIT_MAX (GP_PATH_MAX + 16)

struct line_edit {
	char buf[LINE_EDIT_MAX]; /* UTF-8, NUL-terminated */
	int len;		 /* bytes */
	int cur;		 /* cursor, a byte offset at a character boundary */
	bool full; /* a key typed did not fit: the text is not what was typed, and Enter is
		    * refused until the line is set again (a path cut short is another path) */
};

enum edit_result {
	EDIT_UNHANDLED, /* not an editing key */
	EDIT_MOVED,	/* cursor moved, text unchanged */
	EDIT_CHANGED,	/* text changed */
	EDIT_ACCEPT,	/* Enter */
	EDIT_CANCEL,	/* Esc */
};

/* Starts editing text, the cursor at its end. */
void line_edit_set(struct line_edit *e, const char *text);

/* Handles one key: the row of keys.c's table (KC_LINE) bound to it, else a printable
 * character inserts. */
enum edit_result line_edit_key(struct line_edit *e, int key);

/* The KC_LINE rows' handlers: Enter, Esc, Left, Right, Home/^A, End/^E, Backspace/^H,
 * Delete/^D, ^U (everything before the cursor), ^K (after it), ^W (the word before). */
enum edit_result line_edit_accept(struct line_edit *e, int key);
enum edit_result line_edit_cancel(struct line_edit *e, int key);
enum edit_result line_edit_left(struct line_edit *e, int key);
enum edit_result line_edit_right(struct line_edit *e, int key);
enum edit_result line_edit_home(struct line_edit *e, int key);
enum edit_result line_edit_end(struct line_edit *e, int key);
enum edit_result line_edit_backspace(struct line_edit *e, int key);
enum edit_result line_edit_delete(struct line_edit *e, int key);
enum edit_result line_edit_kill_before(struct line_edit *e, int key);
enum edit_result line_edit_kill_after(struct line_edit *e, int key);
enum edit_result line_edit_kill_word(struct line_edit *e, int key);

/* Display column of the cursor (characters before it). */
int line_edit_cursor_col(const struct line_edit *e);

/* Parses text as f's value onto a copy of base and, when it reads, stores that copy in
 * *out and returns 0; otherwise returns -1 with err filled and *out untouched. Blank text
 * is an error ("expected a value"). A file the field names (model.hf_config) is read
 * (scenario_field_load). */
int field_edit_apply(const struct scenario *base, const struct catalog *cat, const struct field *f,
		     const char *text, struct scenario *out, struct gp_error *err);

/* Whether +/- double and halve f (counts, batches, sizes, rates) rather than add one. */
bool field_step_doubles(const struct field *f);

/* +/- on f: doubles or halves counts, batches, sizes and rates, adds or takes one for
 * other whole numbers, 10% for plain numbers and money, 0.05 for ratios; cycles choices.
 * An "auto" value (0) starts from auto_value (the figure the plan resolved it to; 0 when
 * unknown); going below the minimum of a field that accepts auto gives auto. Clamped to
 * the field's range. Returns 0 when s changed, -1 (with err) when it cannot step. */
int field_step(struct scenario *s, const struct catalog *cat, const struct field *f, int dir,
	       double auto_value, struct gp_error *err);

/* Left/Right on a choice (enum, dtype, bool, a catalog preset): the next or previous one,
 * wrapping. Returns 0 when s changed, -1 when f is not a choice. */
int field_cycle(struct scenario *s, const struct catalog *cat, const struct field *f, int dir);

/* Whether f is a choice that Left/Right cycles (enum, dtype, bool, presets). */
bool field_is_choice(const struct field *f);

#endif
