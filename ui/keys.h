/* keys.h - key codes and the action table: every key of every mode and view, with its
 * action's name, its legend label, its help text and its handler (tig's REQ_INFO). The
 * help screen (help.c), the key legends (draw.c) and `gpuplan keys` (for the man page's
 * check) are built from it. */
#ifndef GPUPLAN_UI_KEYS_H
#define GPUPLAN_UI_KEYS_H

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <curses.h>

#include "field_edit.h"

/* A key as the UI passes it around: a character is its code point; a curses function key
 * (KEY_UP, KEY_F(1), KEY_RESIZE) is KEYF(code), so the two never collide. */
#define KEYF(k)	    (0x40000000 | (k))
#define KEY_CTRL(c) ((c)&0x1f)
#define KEY_ESC	    27

/* The sections of the help screen, in order. */
enum help_section {
	HELP_NONE, /* not on the help screen */
	HELP_MOVING,
	HELP_EDITING,
	HELP_COMMANDS,
	HELP_SEARCH,
	HELP_SECTIONS,
};

enum action {
	ACT_NONE,
	ACT_NEXT_PANE,
	ACT_PREV_PANE,
	ACT_UP,
	ACT_DOWN,
	ACT_PAGE_UP,
	ACT_PAGE_DOWN,
	ACT_TOP,
	ACT_BOTTOM,
	ACT_EDIT,
	ACT_INC,
	ACT_DEC,
	ACT_NEXT_CHOICE,
	ACT_PREV_CHOICE,
	ACT_UNDO,
	ACT_REDO,
	ACT_BASELINE,
	ACT_EXPLAIN,
	ACT_COMMAND,
	ACT_HELP,
	ACT_QUIT,
	ACT_SAVE,
	ACT_REDRAW,
	ACT_PANE_1,
	ACT_PANE_2,
	ACT_PANE_3,
	ACT_PANE_4,
	ACT_SEARCH,    /* the best layouts */
	ACT_SCALING,   /* time, cost and efficiency against GPU count */
	ACT_SOLVE_MAX, /* goal seek: the largest value of the selected field that works */
	ACT_SOLVE_MIN, /* ... the smallest */
	ACT_NOTES,     /* the scenario's notes */
	ACT_CHART,     /* a figure against the selected input */
};

struct app;
struct line_edit;

/* Where a key acts: the main view (and Results, which adds to it), a view over the panes,
 * or a mode. */
enum key_ctx {
	KC_MAIN,
	KC_RESULTS, /* Results focused: these rows first, then KC_MAIN's */
	KC_SEARCH,  /* the search view: these rows, then KC_MAIN's that pass (KF_*_VIEW) */
	KC_SCALING,
	KC_CHART, /* the chart view */
	KC_EDIT,  /* a value being typed, and the save-as prompt */
	KC_PICK,
	KC_COMMAND, /* the : line; its commands are command.h's table */
	KC_PROMPT,
	KC_QUIT,    /* the question before quitting with unsaved edits */
	KC_RECOVER, /* the question on a lost session's recovery file */
	KC_VIEW,    /* the help and explanation windows */
	KC_LINE,    /* the line editor: a value, the : line, save as, the picker's filter */
	KC_COUNT,
};

#define KF_OVER_VIEW   1u /* a KC_MAIN key that works while a view is open */
#define KF_CLOSES_VIEW 2u /* a KC_MAIN key that closes an open view, then works */
#define KF_KEEP_STATUS 4u /* leaves the status line's message (+ and - say the new value) */

#define KEY_ROW_KEYS 4

/* One row of the action table. keys ends at the first 0 (none: a legend-only row). */
struct key_row {
	enum key_ctx ctx;
	int keys[KEY_ROW_KEYS];
	enum action act; /* KC_MAIN's: what keys_action says; ACT_NONE elsewhere */
	const char *name;
	/* the legend: label and text, and the row's place in each context's legend (1 first,
	 * 0 not in it) */
	const char *legend_key, *legend_text;
	unsigned char legend_at[KC_COUNT];
	unsigned flags; /* KF_* */
	/* the help screen: the section, the key column (NULL: the row above covers it on the
	 * help screen) and the text, '\n' between lines; help NULL: the covering row's */
	enum help_section section;
	const char *help_keys, *help;
	/* returns the dirty bits (DIRTY_*); NULL on a row of KC_LINE, and on the rows that
	 * name what Enter and Esc mean in a mode that hands them to the line editor */
	unsigned (*run)(struct app *a, int key);
	/* KC_LINE: the line editor's action on the line (field_edit.h) */
	enum edit_result (*edit)(struct line_edit *e, int key);
};

/* A handler that does not look at its key, written as one line of the module that owns
 * it: KEY_HANDLER(NAME, EXPR) defines `unsigned NAME(struct app *a, int key)` returning
 * EXPR (its dirty bits); KEY_DRAWS(NAME, STATEMENT) runs STATEMENT and returns
 * DIRTY_DRAW. */
#define KEY_HANDLER(name, expr)                                                                    \
	unsigned name(struct app *a, int key)                                                      \
	{                                                                                          \
		(void)key;                                                                         \
		return expr;                                                                       \
	}
#define KEY_DRAWS(name, statement)                                                                 \
	unsigned name(struct app *a, int key)                                                      \
	{                                                                                          \
		(void)key;                                                                         \
		statement;                                                                         \
		return DIRTY_DRAW;                                                                 \
	}

/* The table, ending with a row whose name is NULL. */
extern const struct key_row key_table[];

/* The row of ctx bound to key; NULL when none is. */
const struct key_row *keys_find(enum key_ctx ctx, int key);

/* One item of the key legend on the bottom line. */
struct legend_item {
	const char *key, *text;
};

/* The legend of ctx in order, ending with a {NULL, NULL} item (KC_COMMAND's ends with the
 * : commands' items); returns the number of items. */
int keys_legend(enum key_ctx ctx, struct legend_item *out, int max);

/* A key as the man page writes it: "Tab", "Shift-Tab", "PgUp", "Ctrl-R", "F1", "q". */
const char *keys_label(int key, char *buf, int size);

/* Prints the table for `gpuplan keys`: one line a key, "CONTEXT\tKEY\tACTION\tHELP", then
 * one a : command name or alias, "command\t:NAME\tNAME\tHELP". Returns 0, or 1 when
 * writing failed. */
int keys_print(void);

/* The action bound to key in the main view; ACT_NONE when unbound. */
enum action keys_action(int key);

/* A key's name for messages: "q", "Tab", "F1", "^R". Returns buf. */
const char *keys_name(int key, char *buf, int size);

#endif
