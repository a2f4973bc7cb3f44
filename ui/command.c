/* command.c - the : line: its commands and its keys. */
#include "command.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_file.h"
#include "complete.h"
#include "scenario_sets.h"
#include "text.h"

const char *command_skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* The words :search takes: what it ranks by, and whether it searches the catalog's GPUs. */
static const struct search_word {
	const char *word;
	int by; /* enum search_by, or -1 when the word sets the hardware */
	bool hardware;
} search_words[] = {
    {"time", SEARCH_BY_TIME, false},
    {"cost", SEARCH_BY_COST, false},
    {"hardware", -1, true},
    {"here", -1, false},
};

#define NSEARCH_WORDS (sizeof(search_words) / sizeof(search_words[0]))

/* :search [time|cost] [hardware|here] */
static unsigned cmd_search(struct app *a, const char *arg)
{
	char w[32];
	int n;

	while (*arg) {
		const struct search_word *sw = NULL;
		n = (int)strcspn(arg, " \t");
		snprintf(w, sizeof(w), "%.*s", n, arg);
		for (size_t i = 0; i < NSEARCH_WORDS && !sw; i++)
			if (strcmp(w, search_words[i].word) == 0)
				sw = &search_words[i];
		if (!sw) {
			char list[64];
			struct text_acc len = text_acc_on(list, sizeof(list));
			for (size_t i = 0; i < NSEARCH_WORDS; i++)
				text_add(&len, "%s%s",
					 i == 0			  ? ""
					 : i + 1 == NSEARCH_WORDS ? " or "
								  : ", ",
					 search_words[i].word);
			app_status(a, true, ":search takes %s, not '%s'", list, w);
			return DIRTY_DRAW;
		}
		if (sw->by >= 0)
			a->sv.by = (enum search_by)sw->by;
		else
			a->sv.hardware = sw->hardware;
		a->sv.stale = true;
		a->sv.sel = 0;
		arg = command_skip_blanks(arg + n);
	}
	search_view_open(a, VIEW_SEARCH);
	return DIRTY_DRAW;
}

static const char *const solve_words[] = {"max", "min", NULL}; /* maximize, minimize */

/* :solve max|min [KEY]: goal seek on KEY, or on the selected field */
static unsigned cmd_solve(struct app *a, const char *arg)
{
	const struct field *f = app_selected_field(a);
	bool maximize;
	size_t n = strcspn(arg, " \t");

	if (n == 3 && strncmp(arg, solve_words[0], 3) == 0)
		maximize = true;
	else if (n == 3 && strncmp(arg, solve_words[1], 3) == 0)
		maximize = false;
	else {
		app_status(a, true,
			   ":solve needs max or min and a key (:solve max workload.seq_len)");
		return DIRTY_DRAW;
	}
	arg = command_skip_blanks(arg + n);
	if (!arg[0] && !f) {
		app_status(a, true, ":solve %s needs a key, or a field selected",
			   maximize ? "max" : "min");
		return DIRTY_DRAW;
	}
	return app_goal_seek(a, arg[0] ? arg : f->key, maximize);
}

#define SET_MAX_PAIRS 32

/* Splits the words of :set into its KEY=VALUE pairs, in place: a pair starts at a word
 * holding '=' (not first) once the pair before has its value, so "KEY = VALUE" and a value
 * with a blank in it ("name=a b") stay one pair. A word "--set" (or "--set=" before a
 * pair), as a lesson's notes write the command line's option, is left out and starts the
 * next pair, so such a line can be pasted. Returns how many, at most max. */
static int set_pairs(char *buf, const char **out, int max)
{
	int n = 0;
	bool has_eq = false, complete = false; /* the pair being read: its '=', a value */
	bool fresh = false;		       /* "--set" came: the next word starts a pair */
	char *p = buf;

	while (*(p = (char *)command_skip_blanks(p))) {
		size_t len = strcspn(p, " \t");
		const char *eq;
		if (len >= 5 && strncmp(p, "--set", 5) == 0 && (len == 5 || p[5] == '=')) {
			/* the pair before ends at the blank before the option */
			if (n > 0)
				p[-1] = '\0';
			fresh = true;
			p += len == 5 ? 5 : 6;
			len -= len == 5 ? 5 : 6;
			if (!len)
				continue;
		}
		eq = memchr(p, '=', len);
		if (n == 0 || fresh || (complete && eq && eq != p)) {
			if (n == max)
				return -1;
			/* the pair before ends at the blank before this word */
			if (n > 0)
				p[-1] = '\0';
			out[n++] = p;
			has_eq = complete = fresh = false;
		}
		has_eq |= eq != NULL;
		if (has_eq)
			complete = p[len - 1] != '=';
		p += len;
	}
	return n;
}

/* :set KEY=VALUE [KEY=VALUE...]: all of them or none, as --set gives them (presets first,
 * the fields the file gave in their sections kept) */
static unsigned cmd_set(struct app *a, const char *arg)
{
	struct scenario before = a->scn;
	struct scenario_source *keys;
	struct gp_error err;
	char buf[LINE_EDIT_MAX];
	const char *sets[SET_MAX_PAIRS];
	int n, failed = -1, rc;

	memset(&err, 0, sizeof(err));
	if (!arg[0]) {
		app_status(a, true,
			   ":set needs KEY=VALUE (e.g. :set hardware.count=16; several pairs "
			   "set together)");
		return DIRTY_DRAW;
	}
	snprintf(buf, sizeof(buf), "%s", arg);
	n = set_pairs(buf, sets, SET_MAX_PAIRS);
	if (n < 0) {
		app_status(a, true, ":set takes at most %d pairs", SET_MAX_PAIRS);
		return DIRTY_DRAW;
	}
	if (n == 0) {
		app_status(a, true, ":set needs KEY=VALUE after --set");
		return DIRTY_DRAW;
	}
	keys = malloc(sizeof(*keys));
	if (!keys) {
		app_status(a, true, ":set: out of memory");
		return DIRTY_DRAW;
	}
	app_file_keys(a, &a->scn, keys);
	rc = app_apply_sets(a, &a->scn, keys, sets, n, &failed, &err);
	free(keys);
	if (rc != 0) {
		char msg[sizeof(a->status)];
		a->scn = before;
		gp_error_format(&err, msg, sizeof(msg));
		if (n > 1)
			app_status(a, true, "%s (nothing set: pair %d of %d)", msg, failed + 1, n);
		else
			app_status(a, true, "%s", msg);
		return DIRTY_DRAW;
	}
	app_status(a, false, "set %s", arg);
	return app_commit(a, &before);
}

static unsigned cmd_write(struct app *a, const char *arg)
{
	app_save(a, arg);
	return DIRTY_DRAW;
}

static unsigned cmd_write_force(struct app *a, const char *arg)
{
	app_save_force(a, arg);
	return DIRTY_DRAW;
}

static unsigned cmd_write_quit(struct app *a, const char *arg)
{
	if (app_save(a, arg) == 0)
		a->quit = true;
	else if (a->mode == MODE_PROMPT &&
		 (a->prompt == PROMPT_SAVE_AS || a->prompt == PROMPT_OVERWRITE))
		a->quit_after_save = true; /* once the name is typed and written */
	return DIRTY_DRAW;
}

static unsigned cmd_edit(struct app *a, const char *arg)
{
	return app_open(a, arg, false);
}

static unsigned cmd_edit_force(struct app *a, const char *arg)
{
	return app_open(a, arg, true);
}

static unsigned cmd_quit(struct app *a, const char *arg)
{
	(void)arg;
	app_quit(a, false);
	return DIRTY_DRAW;
}

static unsigned cmd_quit_force(struct app *a, const char *arg)
{
	(void)arg;
	app_quit(a, true);
	return DIRTY_DRAW;
}

static unsigned cmd_help(struct app *a, const char *arg)
{
	(void)arg;
	a->mode = MODE_HELP;
	a->help_top = 0;
	return DIRTY_DRAW;
}

static unsigned cmd_notes(struct app *a, const char *arg)
{
	(void)arg;
	return app_key_notes(a, 0);
}

static unsigned cmd_next(struct app *a, const char *arg)
{
	(void)arg;
	return app_lesson_step(a, 1);
}

static unsigned cmd_prev(struct app *a, const char *arg)
{
	(void)arg;
	return app_lesson_step(a, -1);
}

static unsigned cmd_reset(struct app *a, const char *arg)
{
	(void)arg;
	return app_lesson_reset(a);
}

static unsigned cmd_chart(struct app *a, const char *arg)
{
	return chart_view_command(a, arg);
}

static unsigned cmd_scaling(struct app *a, const char *arg)
{
	(void)arg;
	search_view_open(a, VIEW_SCALING);
	return DIRTY_DRAW;
}

/* In the order the help screen and the : line's legend show them; CMD_LISTED ones are
 * named when a command is unknown. */
/* clang-format off */
const struct command command_table[] = {
    {"set", NULL, CMD_ARG_ASSIGN, NULL, cmd_set, CMD_LISTED, HELP_COMMANDS, ":set KEY=VALUE",
     "set fields by their paths: :set hardware.count=16;\n"
     "several pairs (a lesson's line) go together, or none\n"
     "(Tab completes commands, keys, values; Up/Down recall)", "K=V"},
    {"w", "write", CMD_ARG_FILE, NULL, cmd_write, CMD_LISTED, HELP_COMMANDS, ":w [FILE]",
     "save (to FILE, which the session then goes on with);\n"
     "asks for a name when there is none (F2, ^S), and\n"
     "before replacing a file or its comments (:w! not)", "[FILE]"},
    {"w!", NULL, CMD_ARG_FILE, NULL, cmd_write_force, 0, HELP_COMMANDS, NULL,
     "save without asking", NULL},
    {"wq", "x", CMD_ARG_FILE, NULL, cmd_write_quit, 0, HELP_COMMANDS, NULL,
     "save, then quit", NULL},
    {"e", "edit", CMD_ARG_FILE, NULL, cmd_edit, CMD_LISTED, HELP_COMMANDS, ":e FILE",
     "open another scenario (:e! drops unsaved edits); Tab\n"
     "completes file names after :e and :w", "FILE"},
    {"e!", NULL, CMD_ARG_FILE, NULL, cmd_edit_force, 0, HELP_COMMANDS, NULL,
     "open another scenario, dropping unsaved edits", NULL},
    {"q", "quit", CMD_ARG_NONE, NULL, cmd_quit, CMD_LISTED, HELP_COMMANDS, ":q, :q!, :wq",
     "quit (asks about unsaved edits), quit anyway, save+quit", "Quit"},
    {"q!", "quit!", CMD_ARG_NONE, NULL, cmd_quit_force, CMD_LISTED, HELP_COMMANDS, NULL,
     "quit anyway", NULL},
    {"search", NULL, CMD_ARG_WORDS, NULL, cmd_search, CMD_LISTED, HELP_SEARCH, NULL,
     "the search view (:search cost hardware ranks by cost, over the catalog's GPUs)", NULL},
    {"solve", NULL, CMD_ARG_KEY, solve_words, cmd_solve, CMD_LISTED, HELP_SEARCH,
     ":solve max KEY", "the same for any numeric field (:solve min KEY)", NULL},
    {"scaling", NULL, CMD_ARG_NONE, NULL, cmd_scaling, CMD_LISTED, HELP_SEARCH, "S, :scaling",
     "time, cost and efficiency against 8 to 1,024 GPUs", NULL},
    {"chart", NULL, CMD_ARG_WORDS, NULL, cmd_chart, CMD_LISTED, HELP_SEARCH, NULL,
     "the chart view (:chart workload.seq_len memory.per_gpu.total charts that figure\n"
     "against that field)", NULL},
    {"notes", NULL, CMD_ARG_NONE, NULL, cmd_notes, CMD_LISTED, HELP_COMMANDS, "n, :notes",
     "the scenario's notes (a lesson's text and questions)", NULL},
    {"next", NULL, CMD_ARG_NONE, NULL, cmd_next, CMD_LISTED, HELP_COMMANDS,
     ":next, :prev", "lessons: the next, previous scenario of the file's\n"
     "folder in name order (scenarios/workshop/); each\n"
     "lesson keeps your edits until :reset", "Lesson"},
    {"prev", NULL, CMD_ARG_NONE, NULL, cmd_prev, CMD_LISTED, HELP_COMMANDS, NULL,
     "the previous lesson", NULL},
    {"reset", NULL, CMD_ARG_NONE, NULL, cmd_reset, CMD_LISTED, HELP_COMMANDS, ":reset",
     "the scenario as its file has it (u undoes)", NULL},
    {"help", "h", CMD_ARG_NONE, NULL, cmd_help, CMD_LISTED, HELP_COMMANDS, ":help",
     "this screen", NULL},
    {NULL, NULL, CMD_ARG_NONE, NULL, NULL, 0, HELP_NONE, NULL, NULL, NULL},
};
/* clang-format on */

const struct command *command_find(const char *name, size_t len)
{
	for (const struct command *c = command_table; c->name; c++)
		if ((strlen(c->name) == len && strncmp(c->name, name, len) == 0) ||
		    (c->alias && strlen(c->alias) == len && strncmp(c->alias, name, len) == 0))
			return c;
	return NULL;
}

/* "unknown command 'x' (expected set, w, e, ... or help)": the CMD_LISTED names. */
static void unknown_command(struct app *a, const char *word)
{
	char list[200];
	size_t len = 0;
	int n = 0, i = 0;

	for (const struct command *c = command_table; c->name; c++)
		n += (c->flags & CMD_LISTED) != 0;
	for (const struct command *c = command_table; c->name; c++) {
		if (!(c->flags & CMD_LISTED))
			continue;
		i++;
		len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
					i == 1	 ? ""
					: i == n ? " or "
						 : ", ",
					c->name);
		if (len >= sizeof(list))
			break;
	}
	app_status(a, true, "unknown command '%s' (expected %s)", word, list);
}

/* Runs a command line; returns the dirty bits. */
static unsigned command_run(struct app *a, const char *cmd)
{
	const struct command *c;
	const char *arg;
	size_t n;

	cmd = command_skip_blanks(cmd);
	n = strcspn(cmd, " \t");
	if (n >= 32) {
		app_status(a, true, "unknown command '%.40s'", cmd);
		return DIRTY_DRAW;
	}
	arg = command_skip_blanks(cmd + n);
	if (!n)
		return 0;
	c = command_find(cmd, n);
	if (c)
		return DIRTY_DRAW | c->run(a, arg);
	{
		char word[32];
		snprintf(word, sizeof(word), "%.*s", (int)n, cmd);
		unknown_command(a, word);
	}
	return DIRTY_DRAW;
}

void app_command(struct app *a, const char *cmd)
{
	a->dirty |= command_run(a, cmd);
}

unsigned command_key_leave(struct app *a, int key)
{
	/* Backspace on an empty line leaves it; on text it deletes, as the line editor does */
	if (a->line.len > 0) {
		a->status[0] = '\0';
		line_edit_key(&a->line, key);
		return DIRTY_DRAW;
	}
	a->mode = MODE_NORMAL;
	a->status[0] = '\0';
	return 0;
}

KEY_DRAWS(command_key_complete, app_complete(a))
KEY_DRAWS(command_key_complete_back, complete_cycle(a, -1))

unsigned command_key_history(struct app *a, int key)
{
	/* the earlier commands, newest first */
	int pos = a->history_pos + (key == KEYF(KEY_UP) ? -1 : 1);

	if (pos >= 0 && pos <= a->nhistory) {
		a->history_pos = pos;
		line_edit_set(&a->line, pos < a->nhistory ? a->history[pos] : "");
	}
	return DIRTY_DRAW;
}

unsigned command_key_run(struct app *a, int key)
{
	char cmd[LINE_EDIT_MAX];

	a->status[0] = '\0';
	if (line_edit_key(&a->line, key) != EDIT_ACCEPT)
		return DIRTY_DRAW; /* a full line is refused (app_handle_key says so) */
	snprintf(cmd, sizeof(cmd), "%s", a->line.buf);
	a->mode = MODE_NORMAL;
	complete_history_add(a, cmd);
	return DIRTY_DRAW | command_run(a, cmd);
}

unsigned command_key_cancel(struct app *a, int key)
{
	(void)key;
	a->status[0] = '\0';
	a->mode = MODE_NORMAL;
	return DIRTY_DRAW;
}

unsigned command_key(struct app *a, int key)
{
	const struct key_row *r = keys_find(KC_COMMAND, key);

	if (r && r->run)
		return r->run(a, key);
	a->status[0] = '\0';
	line_edit_key(&a->line, key);
	return DIRTY_DRAW;
}

static const char *command_lead(const struct app *a)
{
	(void)a;
	return ":";
}

/* The : line, typed on the status line. */
const struct view_ops command_view = {
    .flags = VIEW_LINE_HINTS,
    .key = command_key,
    .cursor = draw_line_cursor,
    .line = command_lead,
    VIEW_OPS("command", KC_COMMAND),
};
