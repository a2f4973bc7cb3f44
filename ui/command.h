/* command.h - the : line (command.c). */
#ifndef GPUPLAN_UI_COMMAND_H
#define GPUPLAN_UI_COMMAND_H

#include "app.h"

/* What a command's argument is: what Tab completes after its name. */
enum command_arg {
	CMD_ARG_NONE,
	CMD_ARG_FILE,	/* a file name: :e FILE, :w [FILE] */
	CMD_ARG_KEY,	/* one of the words, then a numeric field's key: :solve max KEY */
	CMD_ARG_ASSIGN, /* KEY=VALUE: :set hardware.count=16 */
	CMD_ARG_WORDS,	/* words of its own, not completed: :search cost hardware */
};

#define CMD_LISTED 1u /* named in the message for an unknown command */

/* One : command (vis's CommandDef, tmux's cmd_entry): the line "NAME ARG" (or "ALIAS ARG")
 * runs run(a, ARG), ARG past its blanks ("" for none), which returns the dirty bits. */
struct command {
	const char *name, *alias; /* alias NULL for none */
	enum command_arg arg;
	const char *const *words; /* CMD_ARG_KEY: the words before the key, NULL-terminated */
	unsigned (*run)(struct app *a, const char *arg);
	unsigned flags; /* CMD_* */
	/* the help screen: its section, the key column ("" or NULL: the line of the command
	 * above covers it) and the text, '\n' between lines; the : line's legend (NULL: none) */
	enum help_section section;
	const char *help_keys, *help, *legend;
};

/* The commands, ending with a row whose name is NULL. */
extern const struct command command_table[];

/* The command named (or aliased) by the len bytes at name; NULL when none is. */
const struct command *command_find(const char *name, size_t len);

/* Runs a command line ("set k=v", "w", "e FILE", "q", "q!", "help") and applies the dirty
 * bits its command returns (the : line returns them to app_handle_key instead). */
void app_command(struct app *a, const char *cmd);

/* A key while the : line is open: Tab completes, Up/Down recall, Enter runs. */
unsigned command_key(struct app *a, int key); /* returns the dirty bits */
/* The : line's keys (keys.c's KC_COMMAND rows); each returns the dirty bits. */
unsigned command_key_run(struct app *a, int key);	    /* Enter */
unsigned command_key_cancel(struct app *a, int key);	    /* Esc */
unsigned command_key_complete(struct app *a, int key);	    /* Tab */
unsigned command_key_complete_back(struct app *a, int key); /* Shift-Tab */
unsigned command_key_history(struct app *a, int key);	    /* Up, Down */
unsigned command_key_leave(struct app *a, int key);	    /* Backspace: on an empty line, leave */

/* s past its spaces and tabs. */
const char *command_skip_blanks(const char *s);

#endif
