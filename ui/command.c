/* command.c - the : line: its commands and its keys. */
#include "command.h"

#include <stdio.h>
#include <string.h>

#include "app_file.h"
#include "complete.h"

const char *command_skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* :search [time|cost] [hardware|here] */
static void search_command(struct app *a, const char *arg)
{
	char w[32];
	int n;

	while (*arg) {
		n = (int)strcspn(arg, " \t");
		snprintf(w, sizeof(w), "%.*s", n, arg);
		if (strcmp(w, "time") == 0 || strcmp(w, "cost") == 0) {
			a->sv.by = w[0] == 'c' ? SEARCH_BY_COST : SEARCH_BY_TIME;
		} else if (strcmp(w, "hardware") == 0 || strcmp(w, "here") == 0) {
			a->sv.hardware = w[1] == 'a';
		} else {
			app_status(a, true, ":search takes time, cost, hardware or here, not '%s'",
				   w);
			return;
		}
		a->sv.stale = true;
		a->sv.sel = 0;
		arg = command_skip_blanks(arg + n);
	}
	search_view_open(a, VIEW_SEARCH);
}

/* :solve max|min [KEY]: goal seek on KEY, or on the selected field */
static void solve_command(struct app *a, const char *arg)
{
	const struct field *f = app_selected_field(a);
	bool maximize;
	size_t n = strcspn(arg, " \t");

	if (n == 3 && strncmp(arg, "max", 3) == 0)
		maximize = true;
	else if (n == 3 && strncmp(arg, "min", 3) == 0)
		maximize = false;
	else {
		app_status(a, true,
			   ":solve needs max or min and a key (:solve max workload.seq_len)");
		return;
	}
	arg = command_skip_blanks(arg + n);
	if (!arg[0] && !f) {
		app_status(a, true, ":solve %s needs a key, or a field selected",
			   maximize ? "max" : "min");
		return;
	}
	app_goal_seek(a, arg[0] ? arg : f->key, maximize);
}

void app_command(struct app *a, const char *cmd)
{
	char word[32];
	const char *arg;
	size_t n;

	cmd = command_skip_blanks(cmd);
	n = strcspn(cmd, " \t");
	if (n >= sizeof(word)) {
		app_status(a, true, "unknown command '%.40s'", cmd);
		return;
	}
	memcpy(word, cmd, n);
	word[n] = '\0';
	arg = command_skip_blanks(cmd + n);
	if (!word[0])
		return;
	if (strcmp(word, "set") == 0) {
		struct scenario before = a->scn;
		struct gp_error err;
		memset(&err, 0, sizeof(err));
		if (!arg[0]) {
			app_status(a, true, ":set needs KEY=VALUE (e.g. :set hardware.count=16)");
			return;
		}
		if (scenario_set_assignment(&a->scn, a->cat, arg, &err) != 0) {
			a->scn = before;
			app_status_err(a, &err);
			return;
		}
		app_commit(a, &before);
		app_status(a, false, "set %s", arg);
	} else if (strcmp(word, "w") == 0 || strcmp(word, "write") == 0) {
		app_save(a, arg);
	} else if (strcmp(word, "w!") == 0) {
		app_save_force(a, arg);
	} else if (strcmp(word, "wq") == 0 || strcmp(word, "x") == 0) {
		if (app_save(a, arg) == 0)
			a->quit = true;
		else if (a->mode == MODE_PROMPT &&
			 (a->prompt == PROMPT_SAVE_AS || a->prompt == PROMPT_OVERWRITE))
			a->quit_after_save = true; /* once the name is typed and written */
	} else if (strcmp(word, "e") == 0 || strcmp(word, "edit") == 0) {
		app_open(a, arg, false);
	} else if (strcmp(word, "e!") == 0) {
		app_open(a, arg, true);
	} else if (strcmp(word, "q") == 0 || strcmp(word, "quit") == 0) {
		app_quit(a, false);
	} else if (strcmp(word, "q!") == 0 || strcmp(word, "quit!") == 0) {
		app_quit(a, true);
	} else if (strcmp(word, "help") == 0 || strcmp(word, "h") == 0) {
		a->mode = MODE_HELP;
		a->help_top = 0;
	} else if (strcmp(word, "search") == 0) {
		search_command(a, arg);
	} else if (strcmp(word, "scaling") == 0) {
		search_view_open(a, VIEW_SCALING);
	} else if (strcmp(word, "solve") == 0) {
		solve_command(a, arg);
	} else {
		app_status(a, true,
			   "unknown command '%s' (expected set, w, e, q, q!, search, solve, "
			   "scaling or help)",
			   word);
	}
	a->dirty |= DIRTY_DRAW;
}

void command_key(struct app *a, int key)
{
	if ((key == 127 || key == KEYF(KEY_BACKSPACE) || key == KEY_CTRL('h')) &&
	    a->line.len == 0) {
		a->mode = MODE_NORMAL;
		a->status[0] = '\0';
		return;
	}
	if (key == '\t') {
		app_complete(a);
		a->dirty |= DIRTY_DRAW;
		return;
	}
	if (key == KEYF(KEY_UP) || key == KEYF(KEY_DOWN)) {
		/* the earlier commands, newest first */
		int pos = a->history_pos + (key == KEYF(KEY_UP) ? -1 : 1);
		if (pos >= 0 && pos <= a->nhistory) {
			a->history_pos = pos;
			line_edit_set(&a->line, pos < a->nhistory ? a->history[pos] : "");
		}
		a->dirty |= DIRTY_DRAW;
		return;
	}
	a->status[0] = '\0';
	switch (line_edit_key(&a->line, key)) {
	case EDIT_ACCEPT: {
		char cmd[LINE_EDIT_MAX];
		snprintf(cmd, sizeof(cmd), "%s", a->line.buf);
		a->mode = MODE_NORMAL;
		complete_history_add(a, cmd);
		app_command(a, cmd);
		break;
	}
	case EDIT_CANCEL:
		a->mode = MODE_NORMAL;
		break;
	default:
		break;
	}
	a->dirty |= DIRTY_DRAW;
}
