/* keys.h - key codes and the key -> action tables. */
#ifndef GPUPLAN_UI_KEYS_H
#define GPUPLAN_UI_KEYS_H

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <curses.h>

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
};

/* The action bound to key in the main view; ACT_NONE when unbound. */
enum action keys_action(int key);

/* A key's name for messages: "q", "Tab", "F1", "^R". Returns buf. */
const char *keys_name(int key, char *buf, int size);

#endif
