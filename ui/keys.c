/* keys.c - the action table: each key of each mode and view, what it does, how the legend
 * and the help screen name it. */
#include "keys.h"

#include <stdio.h>
#include <string.h>

#include "app.h"
#include "command.h"
#include "prompt.h"

#define ENTER '\n', '\r', KEYF(KEY_ENTER)

/* In the order of the help screen (sections apart); the legends place their rows by
 * legend_at. Rows without a handler document keys that the line editor, the picker and
 * the prompts read themselves:
 * - KC_EDIT, KC_COMMAND and the picker's filter: line_edit_key (field_edit.c) is one
 *   editor shared by the value being typed, the : line, the save-as prompt and the
 *   filter; every key it does not bind is text, and what Enter or Esc means depends on
 *   the mode that asked (its EDIT_* result), so these rows cannot carry one handler.
 * - KC_PICK's moves (app_pick_key, app_edit.c) and KC_VIEW's scrolls (view_scroll_key)
 *   could: their handlers would replace those switches, not sit beside them.
 * (The questions answered by one key, KC_PROMPT, KC_QUIT and KC_RECOVER, are rows with
 * handlers: prompt_key runs the row bound to the key.) */
/* clang-format off */
const struct key_row key_table[] = {
    /* Moving */
    {KC_MAIN, {'\t'}, ACT_NEXT_PANE, "next-pane", "Tab", "Pane",
     {[KC_MAIN] = 2, [KC_RESULTS] = 2}, KF_CLOSES_VIEW, HELP_MOVING,
     "Tab, Shift-Tab", "next, previous pane (1-4 jump to one)", app_key_next_pane},
    {KC_MAIN, {KEYF(KEY_BTAB)}, ACT_PREV_PANE, "prev-pane", NULL, NULL, {0}, KF_CLOSES_VIEW,
     HELP_MOVING, NULL, NULL, app_key_prev_pane},
    {KC_MAIN, {'1'}, ACT_PANE_1, "pane-1", NULL, NULL, {0}, KF_CLOSES_VIEW, HELP_MOVING, NULL,
     NULL, app_key_pane},
    {KC_MAIN, {'2'}, ACT_PANE_2, "pane-2", NULL, NULL, {0}, KF_CLOSES_VIEW, HELP_MOVING, NULL,
     NULL, app_key_pane},
    {KC_MAIN, {'3'}, ACT_PANE_3, "pane-3", NULL, NULL, {0}, KF_CLOSES_VIEW, HELP_MOVING, NULL,
     NULL, app_key_pane},
    {KC_MAIN, {'4'}, ACT_PANE_4, "pane-4", NULL, NULL, {0}, KF_CLOSES_VIEW, HELP_MOVING, NULL,
     NULL, app_key_pane},
    {KC_MAIN, {KEYF(KEY_UP), 'k'}, ACT_UP, "up", "Up/Down", "Figure", {[KC_RESULTS] = 4}, 0,
     HELP_MOVING, "Up/Down, k/j", "previous, next field;  PgUp/PgDn, g/G", app_key_up},
    {KC_MAIN, {KEYF(KEY_DOWN), 'j'}, ACT_DOWN, "down", NULL, NULL, {0}, 0, HELP_MOVING, NULL,
     NULL, app_key_down},
    {KC_MAIN, {KEYF(KEY_PPAGE)}, ACT_PAGE_UP, "page-up", NULL, NULL, {0}, 0, HELP_MOVING, NULL,
     NULL, app_key_page_up},
    {KC_MAIN, {KEYF(KEY_NPAGE)}, ACT_PAGE_DOWN, "page-down", NULL, NULL, {0}, 0, HELP_MOVING,
     NULL, NULL, app_key_page_down},
    {KC_MAIN, {KEYF(KEY_HOME), 'g'}, ACT_TOP, "top", NULL, NULL, {0}, 0, HELP_MOVING, NULL,
     NULL, app_key_top},
    {KC_MAIN, {KEYF(KEY_END), 'G'}, ACT_BOTTOM, "bottom", NULL, NULL, {0}, 0, HELP_MOVING, NULL,
     NULL, app_key_bottom},
    /* Editing */
    {KC_MAIN, {ENTER}, ACT_EDIT, "edit", "Enter", "Edit", {[KC_MAIN] = 3}, 0, HELP_EDITING,
     "Enter", "type a value, with units as in files (80GB, 400Gb/s,\n"
     "7B, 5d); results follow while it reads; Enter applies,\n"
     "Esc cancels", app_key_edit},
    {KC_RESULTS, {ENTER}, ACT_NONE, "explain", "Enter", "Explain", {[KC_RESULTS] = 3}, 0,
     HELP_NONE, NULL, "explain the selected figure", app_key_explain},
    {KC_PICK, {KEYF(KEY_UP), KEY_CTRL('p')}, ACT_NONE, "choose-prev", "Up/Down", "Choose",
     {[KC_PICK] = 1}, 0, HELP_NONE, NULL, "the previous preset", NULL},
    {KC_PICK, {KEYF(KEY_DOWN), KEY_CTRL('n')}, ACT_NONE, "choose-next", NULL, NULL, {0}, 0,
     HELP_NONE, NULL, "the next preset", NULL},
    {KC_PICK, {KEYF(KEY_PPAGE)}, ACT_NONE, "page-up", NULL, NULL, {0}, 0, HELP_NONE, NULL,
     "a page of presets up", NULL},
    {KC_PICK, {KEYF(KEY_NPAGE)}, ACT_NONE, "page-down", NULL, NULL, {0}, 0, HELP_NONE, NULL,
     "a page of presets down", NULL},
    {KC_PICK, {0}, ACT_NONE, "filter", "type", "Filter", {[KC_PICK] = 2}, 0, HELP_NONE, NULL,
     "what is typed filters the presets", NULL},
    {KC_PICK, {ENTER}, ACT_NONE, "take", "Enter", "Take", {[KC_PICK] = 3}, 0, HELP_EDITING,
     "Enter on a preset", "the picker: type to filter, Enter takes, Esc cancels", NULL},
    {KC_PICK, {KEY_ESC}, ACT_NONE, "cancel", "Esc", "Cancel", {[KC_PICK] = 4}, 0, HELP_NONE,
     NULL, "back to the preset before the picker", NULL},
    {KC_MAIN, {'+', '='}, ACT_INC, "step-up", "+-", "Step", {[KC_MAIN] = 4}, KF_KEEP_STATUS,
     HELP_EDITING, "+ / -", "step: doubles or halves counts and batches", app_key_inc},
    {KC_MAIN, {'-', '_'}, ACT_DEC, "step-down", NULL, NULL, {0}, KF_KEEP_STATUS, HELP_EDITING,
     NULL, NULL, app_key_dec},
    {KC_MAIN, {KEYF(KEY_RIGHT), 'l'}, ACT_NEXT_CHOICE, "next-choice", NULL, NULL, {0}, 0,
     HELP_EDITING, "Left/Right, h/l", "cycle a choice (kind, precision, gpu, model)",
     app_key_next_choice},
    {KC_MAIN, {KEYF(KEY_LEFT), 'h'}, ACT_PREV_CHOICE, "prev-choice", NULL, NULL, {0}, 0,
     HELP_EDITING, NULL, NULL, app_key_prev_choice},
    {KC_MAIN, {'u'}, ACT_UNDO, "undo", "u", "Undo",
     {[KC_MAIN] = 5, [KC_RESULTS] = 5, [KC_SEARCH] = 5, [KC_SCALING] = 3}, KF_OVER_VIEW,
     HELP_EDITING, "u, Ctrl-R", "undo, redo", app_key_undo},
    {KC_MAIN, {KEY_CTRL('r')}, ACT_REDO, "redo", NULL, NULL, {0}, KF_OVER_VIEW, HELP_EDITING,
     NULL, NULL, app_key_redo},
    {KC_MAIN, {'b'}, ACT_BASELINE, "baseline", NULL, NULL, {0}, KF_OVER_VIEW, HELP_EDITING, "b",
     "pin a baseline: results show their change against it;\n"
     "b again moves it here after edits, else clears it", app_key_baseline},
    {KC_MAIN, {'e'}, ACT_EXPLAIN, "explain", "e", "Explain", {[KC_MAIN] = 8}, 0, HELP_EDITING,
     "e", "explain the selected figure (Enter on Results) or field;\n"
     "on the warnings, list them whole", app_key_explain},
    {KC_MAIN, {'n'}, ACT_NOTES, "notes", "n", "Notes", {[KC_MAIN] = 10}, 0, HELP_NONE,
     NULL, "the scenario's notes, as :notes", app_key_notes},
    /* Commands: command.h's table, and the key that opens its line */
    {KC_MAIN, {':'}, ACT_COMMAND, "command", ":", "Cmd",
     {[KC_MAIN] = 7, [KC_RESULTS] = 7, [KC_SEARCH] = 6, [KC_SCALING] = 4}, KF_OVER_VIEW,
     HELP_NONE, NULL, "open the command line", app_key_command},
    {KC_COMMAND, {ENTER}, ACT_NONE, "run", "Enter", "Run", {[KC_COMMAND] = 1}, 0, HELP_NONE,
     NULL, "run the command line", NULL},
    {KC_COMMAND, {KEY_ESC}, ACT_NONE, "cancel", "Esc", "Cancel", {[KC_COMMAND] = 2}, 0,
     HELP_NONE, NULL, "close the command line", NULL},
    {KC_COMMAND, {'\t'}, ACT_NONE, "complete", "Tab", "Complete", {[KC_COMMAND] = 3}, 0,
     HELP_NONE, NULL, "complete a command's file name, key or value", NULL},
    {KC_COMMAND, {KEYF(KEY_UP), KEYF(KEY_DOWN)}, ACT_NONE, "history", NULL, NULL, {0}, 0,
     HELP_NONE, NULL, "recall an earlier command line", NULL},
    {KC_COMMAND, {127, KEYF(KEY_BACKSPACE)}, ACT_NONE, "leave", NULL, NULL, {0}, 0, HELP_NONE,
     NULL, "on an empty line: close it", NULL},
    /* Search, goal seek, scaling */
    {KC_MAIN, {'s'}, ACT_SEARCH, "search", "s", "Search", {[KC_MAIN] = 6, [KC_RESULTS] = 6},
     0, HELP_SEARCH, "s, :search", "the best layouts for this scenario, rerun after every\n"
     "edit: Up/Down choose, Enter applies (u undoes), c/t\n"
     "rank by cost/time, H over the catalog's GPUs too, q or\n"
     "Esc closes (:search cost hardware sets both)", app_key_search},
    {KC_SEARCH, {ENTER}, ACT_NONE, "apply", "Enter", "Apply", {[KC_SEARCH] = 1}, 0, HELP_NONE,
     NULL, "apply the selected layout (u undoes)", search_view_key_apply},
    {KC_SEARCH, {KEYF(KEY_UP), 'k'}, ACT_NONE, "choose-prev", "Up/Down", "Choose",
     {[KC_SEARCH] = 2}, 0, HELP_NONE, NULL, "the layout above", search_view_key_up},
    {KC_SEARCH, {KEYF(KEY_DOWN), 'j'}, ACT_NONE, "choose-next", NULL, NULL, {0}, 0, HELP_NONE,
     NULL, "the layout below", search_view_key_down},
    {KC_SEARCH, {KEYF(KEY_PPAGE)}, ACT_NONE, "page-up", NULL, NULL, {0}, 0, HELP_NONE, NULL,
     "a page of layouts up", search_view_key_page_up},
    {KC_SEARCH, {KEYF(KEY_NPAGE)}, ACT_NONE, "page-down", NULL, NULL, {0}, 0, HELP_NONE, NULL,
     "a page of layouts down", search_view_key_page_down},
    {KC_SEARCH, {KEYF(KEY_HOME), 'g'}, ACT_NONE, "first", NULL, NULL, {0}, 0, HELP_NONE, NULL,
     "the best layout", search_view_key_top},
    {KC_SEARCH, {KEYF(KEY_END), 'G'}, ACT_NONE, "last", NULL, NULL, {0}, 0, HELP_NONE, NULL,
     "the last layout", search_view_key_bottom},
    {KC_SEARCH, {'c'}, ACT_NONE, "by-cost", "c/t", "Cost/Time", {[KC_SEARCH] = 3}, 0,
     HELP_NONE, NULL, "rank by cost", search_view_key_by_cost},
    {KC_SEARCH, {'t'}, ACT_NONE, "by-time", NULL, NULL, {0}, 0, HELP_NONE, NULL,
     "rank by time", search_view_key_by_time},
    {KC_SEARCH, {'H'}, ACT_NONE, "hardware", "H", "Hardware", {[KC_SEARCH] = 4}, 0, HELP_NONE,
     NULL, "search the catalog's GPUs and counts too, or again this hardware only",
     search_view_key_hardware},
    {KC_SEARCH, {'s'}, ACT_NONE, "close", NULL, NULL, {0}, 0, HELP_NONE, NULL,
     "close the search view", search_view_key_search},
    {KC_SEARCH, {'S'}, ACT_NONE, "scaling", NULL, NULL, {0}, 0, HELP_NONE, NULL,
     "the scaling view instead", search_view_key_scaling},
    {KC_SEARCH, {'q', KEY_ESC}, ACT_NONE, "close", "q/Esc", "Close", {[KC_SEARCH] = 7}, 0,
     HELP_NONE, NULL, "close the view (q quits only from the panes)", search_view_key_close},
    {KC_MAIN, {'>'}, ACT_SOLVE_MAX, "solve-max", NULL, NULL, {0}, 0, HELP_SEARCH, "> / <",
     "goal seek on the selected field: the largest (smallest)\n"
     "value that still fits and meets the deadline or SLO", app_key_solve_max},
    {KC_MAIN, {'<'}, ACT_SOLVE_MIN, "solve-min", NULL, NULL, {0}, 0, HELP_SEARCH, NULL, NULL,
     app_key_solve_min},
    {KC_MAIN, {'S'}, ACT_SCALING, "scaling", NULL, NULL, {0}, 0, HELP_SEARCH, NULL,
     "the scaling view: time, cost and efficiency against GPU count (:scaling)",
     app_key_scaling},
    {KC_SCALING, {'s'}, ACT_NONE, "search", "s", "Search", {[KC_SCALING] = 2}, 0, HELP_NONE,
     NULL, "the search view instead", search_view_key_search},
    {KC_SCALING, {'S'}, ACT_NONE, "close", NULL, NULL, {0}, 0, HELP_NONE, NULL,
     "close the scaling view", search_view_key_scaling},
    {KC_SCALING, {'q', KEY_ESC}, ACT_NONE, "close", "q/Esc", "Close", {[KC_SCALING] = 5}, 0,
     HELP_NONE, NULL, "close the view (q quits only from the panes)", search_view_key_close},
    /* Screen: the help screen's closing paragraph says these */
    {KC_MAIN, {KEYF(KEY_F(1)), '?'}, ACT_HELP, "help", "F1", "Help",
     {[KC_MAIN] = 1, [KC_RESULTS] = 1, [KC_SCALING] = 1}, KF_OVER_VIEW, HELP_NONE, NULL,
     "this help screen", app_key_help},
    {KC_MAIN, {'q', KEYF(KEY_F(10))}, ACT_QUIT, "quit", "q", "Quit",
     {[KC_MAIN] = 9, [KC_RESULTS] = 8}, KF_OVER_VIEW, HELP_NONE, NULL,
     "quit (asks first when there are unsaved edits)", app_key_quit},
    {KC_MAIN, {KEY_CTRL('s'), KEYF(KEY_F(2))}, ACT_SAVE, "save", NULL, NULL, {0}, KF_OVER_VIEW,
     HELP_NONE, NULL, "save, as :w", app_key_save},
    {KC_MAIN, {KEY_CTRL('l')}, ACT_REDRAW, "redraw", NULL, NULL, {0}, KF_OVER_VIEW, HELP_NONE,
     NULL, "redraw the screen", app_key_redraw},
    /* typing a value (and a file name at the save-as prompt) */
    {KC_EDIT, {ENTER}, ACT_NONE, "apply", "Enter", "Apply", {[KC_EDIT] = 1}, 0, HELP_NONE,
     NULL, "apply the value", NULL},
    {KC_EDIT, {KEY_ESC}, ACT_NONE, "cancel", "Esc", "Cancel", {[KC_EDIT] = 2}, 0, HELP_NONE,
     NULL, "cancel the edit", NULL},
    {KC_EDIT, {KEY_CTRL('u')}, ACT_NONE, "clear", "^U", "Clear", {[KC_EDIT] = 3}, 0, HELP_NONE,
     NULL, "delete everything before the cursor", NULL},
    {KC_EDIT, {KEYF(KEY_LEFT), KEYF(KEY_RIGHT)}, ACT_NONE, "move", "Left/Right", "Move",
     {[KC_EDIT] = 4}, 0, HELP_NONE, NULL, "move the cursor", NULL},
    /* the questions: prompt.c answers each by the row bound to its key */
    {KC_PROMPT, {'y', 'Y'}, ACT_NONE, "yes", "y", "Yes", {[KC_PROMPT] = 1}, 0, HELP_NONE, NULL,
     "replace the file", prompt_key_overwrite_yes},
    {KC_PROMPT, {'n', 'N', 'q', KEY_ESC}, ACT_NONE, "no", "n/Esc", "No", {[KC_PROMPT] = 2}, 0,
     HELP_NONE, NULL, "do not save", prompt_key_overwrite_no},
    {KC_QUIT, {'y', 'Y'}, ACT_NONE, "quit", "y", "Quit", {[KC_QUIT] = 1}, 0, HELP_NONE, NULL,
     "quit without saving", prompt_key_quit_yes},
    {KC_QUIT, {'n', 'N', 'q', KEY_ESC}, ACT_NONE, "stay", "n/Esc", "Stay", {[KC_QUIT] = 2}, 0,
     HELP_NONE, NULL, "do not quit", prompt_key_quit_no},
    {KC_QUIT, {'w', 'W'}, ACT_NONE, "save-quit", "w", "Save+quit", {[KC_QUIT] = 3}, 0,
     HELP_NONE, NULL, "save, then quit", prompt_key_quit_save},
    {KC_RECOVER, {'y', 'Y'}, ACT_NONE, "restore", "y", "Restore", {[KC_RECOVER] = 1}, 0,
     HELP_NONE, NULL, "restore the lost session's edits (the recovery file stays until\n"
     "they are saved or discarded)", prompt_key_recover_yes},
    {KC_RECOVER, {'d', 'D'}, ACT_NONE, "discard", "d", "Discard", {[KC_RECOVER] = 2}, 0,
     HELP_NONE, NULL, "delete the recovery file: its edits are gone",
     prompt_key_recover_discard},
    {KC_RECOVER, {'n', 'N', 'q', KEY_ESC}, ACT_NONE, "keep", "n/Esc", "Keep for later",
     {[KC_RECOVER] = 3}, 0, HELP_NONE, NULL, "keep the recovery file for the next start",
     prompt_key_recover_keep},
    /* the help and explanation windows */
    {KC_VIEW, {KEYF(KEY_DOWN), 'j', ' ', KEYF(KEY_NPAGE)}, ACT_NONE, "scroll-down", "Up/Down",
     "Scroll", {[KC_VIEW] = 1}, 0, HELP_NONE, NULL, "scroll down (a line, a page)", NULL},
    {KC_VIEW, {KEYF(KEY_UP), 'k', KEYF(KEY_PPAGE)}, ACT_NONE, "scroll-up", NULL, NULL, {0}, 0,
     HELP_NONE, NULL, "scroll up (a line, a page)", NULL},
    {KC_VIEW, {'q', KEY_ESC}, ACT_NONE, "close", "q/Esc", "Close", {[KC_VIEW] = 2}, 0,
     HELP_NONE, NULL, "close the window (as any other key does)", NULL},
    {KC_MAIN, {0}, ACT_NONE, NULL, NULL, NULL, {0}, 0, HELP_NONE, NULL, NULL, NULL},
};
/* clang-format on */

static const char *const ctx_names[KC_COUNT] = {
    [KC_MAIN] = "main",	      [KC_RESULTS] = "results", [KC_SEARCH] = "search",
    [KC_SCALING] = "scaling", [KC_EDIT] = "edit",	[KC_PICK] = "pick",
    [KC_COMMAND] = "cmdline", [KC_PROMPT] = "prompt",	[KC_QUIT] = "quit",
    [KC_RECOVER] = "recover", [KC_VIEW] = "view",
};

const struct key_row *keys_find(enum key_ctx ctx, int key)
{
	for (const struct key_row *r = key_table; r->name; r++) {
		if (r->ctx != ctx)
			continue;
		for (int i = 0; i < KEY_ROW_KEYS && r->keys[i]; i++)
			if (r->keys[i] == key)
				return r;
	}
	return NULL;
}

enum action keys_action(int key)
{
	const struct key_row *r = keys_find(KC_MAIN, key);
	return r ? r->act : ACT_NONE;
}

int keys_legend(enum key_ctx ctx, struct legend_item *out, int max)
{
	int n = 0;

	for (int at = 1; n + 1 < max; at++) {
		const struct key_row *r = key_table;
		while (r->name && r->legend_at[ctx] != at)
			r++;
		if (!r->name)
			break;
		out[n].key = r->legend_key;
		out[n++].text = r->legend_text;
	}
	for (const struct command *c = command_table; ctx == KC_COMMAND && c->name && n + 1 < max;
	     c++)
		if (c->legend) {
			out[n].key = c->name;
			out[n++].text = c->legend;
		}
	out[n].key = out[n].text = NULL;
	return n;
}

const char *keys_label(int key, char *buf, int size)
{
	static const struct {
		int key;
		const char *name;
	} names[] = {
	    {'\t', "Tab"},
	    {'\n', "Enter"},
	    {'\r', "Enter"},
	    {' ', "Space"},
	    {127, "Backspace"},
	    {KEY_ESC, "Esc"},
	    {KEYF(KEY_ENTER), "Enter"},
	    {KEYF(KEY_BTAB), "Shift-Tab"},
	    {KEYF(KEY_UP), "Up"},
	    {KEYF(KEY_DOWN), "Down"},
	    {KEYF(KEY_LEFT), "Left"},
	    {KEYF(KEY_RIGHT), "Right"},
	    {KEYF(KEY_PPAGE), "PgUp"},
	    {KEYF(KEY_NPAGE), "PgDn"},
	    {KEYF(KEY_HOME), "Home"},
	    {KEYF(KEY_END), "End"},
	    {KEYF(KEY_BACKSPACE), "Backspace"},
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].key == key) {
			snprintf(buf, (size_t)size, "%s", names[i].name);
			return buf;
		}
	if ((key & KEYF(0)) && (key & ~KEYF(0)) >= KEY_F(1) && (key & ~KEYF(0)) <= KEY_F(12))
		snprintf(buf, (size_t)size, "F%d", (key & ~KEYF(0)) - KEY_F0);
	else if (key > 0 && key < 0x20)
		snprintf(buf, (size_t)size, "Ctrl-%c", key + '@');
	else
		keys_name(key, buf, size);
	return buf;
}

/* A help text on one line: its line breaks as spaces. */
static void print_help(const char *help)
{
	for (const char *p = help ? help : ""; *p; p++)
		putchar(*p == '\n' ? ' ' : *p);
	putchar('\n');
}

int keys_print(void)
{
	const char *help = NULL;
	enum help_section section = HELP_NONE;

	for (const struct key_row *r = key_table; r->name; r++) {
		char last[32] = "";
		/* a row without help of its own is covered by the one above it in its section */
		if (r->help || r->section != section)
			help = r->help;
		section = r->section;
		for (int i = 0; i < KEY_ROW_KEYS && r->keys[i]; i++) {
			char key[32];
			keys_label(r->keys[i], key, sizeof(key));
			if (strcmp(key, last) == 0)
				continue; /* Enter: '\n', '\r' and KEY_ENTER */
			snprintf(last, sizeof(last), "%s", key);
			printf("%s\t%s\t%s\t", ctx_names[r->ctx], key, r->name);
			print_help(r->help ? r->help : help);
		}
	}
	for (const struct command *c = command_table; c->name; c++) {
		printf("command\t:%s\t%s\t", c->name, c->name);
		print_help(c->help);
		if (c->alias) {
			printf("command\t:%s\t%s\t", c->alias, c->name);
			print_help(c->help);
		}
	}
	return fflush(stdout) != 0 || ferror(stdout) ? 1 : 0;
}

const char *keys_name(int key, char *buf, int size)
{
	if (key == '\t')
		snprintf(buf, (size_t)size, "Tab");
	else if (key == '\n' || key == '\r' || key == KEYF(KEY_ENTER))
		snprintf(buf, (size_t)size, "Enter");
	else if (key == KEY_ESC)
		snprintf(buf, (size_t)size, "Esc");
	else if (key & KEYF(0)) {
		int k = key & ~KEYF(0);
		if (k >= KEY_F(1) && k <= KEY_F(12))
			snprintf(buf, (size_t)size, "F%d", k - KEY_F0);
		else
			snprintf(buf, (size_t)size, "%s", keyname(k) ? keyname(k) : "?");
	} else if (key < 0x20)
		snprintf(buf, (size_t)size, "^%c", key + '@');
	else if (key < 0x80)
		snprintf(buf, (size_t)size, "%c", key);
	else
		snprintf(buf, (size_t)size, "U+%04X", (unsigned)key);
	return buf;
}
