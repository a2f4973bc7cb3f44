/* keys.c - the action table: each key of each mode and view, what it does, how the legend
 * and the help screen name it. */
#include "keys.h"

#include <stdio.h>
#include <string.h>

#include "app.h"
#include "command.h"
#include "prompt.h"

#define ENTER '\n', '\r', KEYF(KEY_ENTER)

/* A view's q and Esc: close it, at place at of its legend. */
#define CLOSE_VIEW(kc, at, fn)                                                                     \
	{                                                                                          \
		kc, {'q', KEY_ESC}, ACT_NONE, "close", "q/Esc", "Close", {[kc] = at}, 0,           \
		    HELP_NONE, NULL, "close the view (q quits only from the panes)", fn, NULL      \
	}

/* In the order of the help screen (sections apart); the legends place their rows by
 * legend_at. Every key of every mode is a row with its handler: the main view's and the
 * views' (run), the picker's moves, the : line's, the prompts' and the windows' (run), and
 * the line editor's, which every line typed shares (KC_LINE, edit: line_edit_key runs
 * them). The rows of KC_EDIT and the picker's filter without a handler name what Enter,
 * Esc and typing mean in that mode, the line editor doing the work. A legend's order is
 * its priority: a narrow terminal leaves out its last items first, the quit or close
 * staying (draw.c), so the main legend's first eight and q Quit are the 80 columns' (n
 * Notes among them, for a workshop's lessons), e Explain and c Chart the wider ones'. */
/* clang-format off */
const struct key_row key_table[] = {
    /* Moving */
    {KC_MAIN, {'\t'}, ACT_NEXT_PANE, "next-pane", "Tab", "Pane",
     {[KC_MAIN] = 2, [KC_RESULTS] = 2}, KF_CLOSES_VIEW, HELP_MOVING,
     "Tab, Shift-Tab", "next, previous pane (1-4 jump to one)", app_key_next_pane, NULL},
    {KC_MAIN, {KEYF(KEY_BTAB)}, ACT_PREV_PANE, "prev-pane", NULL, NULL, {0}, KF_CLOSES_VIEW,
     HELP_MOVING, NULL, NULL, app_key_prev_pane, NULL},
    {KC_MAIN, {'1'}, ACT_PANE_1, "pane-1", NULL, NULL, {0}, KF_CLOSES_VIEW, HELP_MOVING, NULL,
     NULL, app_key_pane, NULL},
    {KC_MAIN, {'2'}, ACT_PANE_2, "pane-2", NULL, NULL, {0}, KF_CLOSES_VIEW, HELP_MOVING, NULL,
     NULL, app_key_pane, NULL},
    {KC_MAIN, {'3'}, ACT_PANE_3, "pane-3", NULL, NULL, {0}, KF_CLOSES_VIEW, HELP_MOVING, NULL,
     NULL, app_key_pane, NULL},
    {KC_MAIN, {'4'}, ACT_PANE_4, "pane-4", NULL, NULL, {0}, KF_CLOSES_VIEW, HELP_MOVING, NULL,
     NULL, app_key_pane, NULL},
    {KC_MAIN, {KEYF(KEY_UP), 'k'}, ACT_UP, "up", "Up/Down", "Figure", {[KC_RESULTS] = 4}, 0,
     HELP_MOVING, "Up/Down, k/j", "previous, next field", app_key_up, NULL},
    {KC_MAIN, {KEYF(KEY_DOWN), 'j'}, ACT_DOWN, "down", NULL, NULL, {0}, 0, HELP_MOVING, NULL,
     NULL, app_key_down, NULL},
    {KC_MAIN, {KEYF(KEY_PPAGE)}, ACT_PAGE_UP, "page-up", NULL, NULL, {0}, 0, HELP_MOVING,
     "PgUp/PgDn", "a page up, down", app_key_page_up, NULL},
    {KC_MAIN, {KEYF(KEY_NPAGE)}, ACT_PAGE_DOWN, "page-down", NULL, NULL, {0}, 0, HELP_MOVING,
     NULL, NULL, app_key_page_down, NULL},
    {KC_MAIN, {KEYF(KEY_HOME), 'g'}, ACT_TOP, "top", NULL, NULL, {0}, 0, HELP_MOVING,
     "Home/End, g/G", "the first, the last field", app_key_top, NULL},
    {KC_MAIN, {KEYF(KEY_END), 'G'}, ACT_BOTTOM, "bottom", NULL, NULL, {0}, 0, HELP_MOVING, NULL,
     NULL, app_key_bottom, NULL},
    /* Editing */
    {KC_MAIN, {ENTER}, ACT_EDIT, "edit", "Enter", "Edit", {[KC_MAIN] = 3}, 0, HELP_EDITING,
     "Enter", "type a value, with units as in files (80GB, 400Gb/s,\n"
     "7B, 5d); results follow while it reads; Enter applies,\n"
     "Esc cancels", app_key_edit, NULL},
    {KC_RESULTS, {ENTER}, ACT_NONE, "explain", "Enter", "Explain", {[KC_RESULTS] = 3}, 0,
     HELP_NONE, NULL, "explain the selected figure", app_key_explain, NULL},
    {KC_PICK, {KEYF(KEY_UP), KEY_CTRL('p')}, ACT_NONE, "choose-prev", "Up/Down", "Choose",
     {[KC_PICK] = 1}, 0, HELP_NONE, NULL, "the previous preset", pick_key_up, NULL},
    {KC_PICK, {KEYF(KEY_DOWN), KEY_CTRL('n')}, ACT_NONE, "choose-next", NULL, NULL, {0}, 0,
     HELP_NONE, NULL, "the next preset", pick_key_down, NULL},
    {KC_PICK, {KEYF(KEY_PPAGE)}, ACT_NONE, "page-up", NULL, NULL, {0}, 0, HELP_NONE, NULL,
     "a page of presets up", pick_key_page_up, NULL},
    {KC_PICK, {KEYF(KEY_NPAGE)}, ACT_NONE, "page-down", NULL, NULL, {0}, 0, HELP_NONE, NULL,
     "a page of presets down", pick_key_page_down, NULL},
    {KC_PICK, {0}, ACT_NONE, "filter", "type", "Filter", {[KC_PICK] = 2}, 0, HELP_NONE, NULL,
     "what is typed filters the presets", NULL, NULL},
    {KC_PICK, {ENTER}, ACT_NONE, "take", "Enter", "Take", {[KC_PICK] = 3}, 0, HELP_EDITING,
     "Enter on a preset", "the picker: type to filter, Enter takes, Esc cancels", pick_key_take, NULL},
    {KC_PICK, {KEY_ESC}, ACT_NONE, "cancel", "Esc", "Cancel", {[KC_PICK] = 4}, 0, HELP_NONE,
     NULL, "back to the preset before the picker", pick_key_cancel, NULL},
    {KC_MAIN, {'+', '='}, ACT_INC, "step-up", "+-", "Step", {[KC_MAIN] = 4}, KF_KEEP_STATUS,
     HELP_EDITING, "+ / -", "step: doubles or halves counts and batches", app_key_inc, NULL},
    {KC_MAIN, {'-', '_'}, ACT_DEC, "step-down", NULL, NULL, {0}, KF_KEEP_STATUS, HELP_EDITING,
     NULL, NULL, app_key_dec, NULL},
    {KC_MAIN, {KEYF(KEY_RIGHT), 'l'}, ACT_NEXT_CHOICE, "next-choice", NULL, NULL, {0}, 0,
     HELP_EDITING, "Left/Right, h/l", "cycle a choice (kind, precision, gpu, model)",
     app_key_next_choice, NULL},
    {KC_MAIN, {KEYF(KEY_LEFT), 'h'}, ACT_PREV_CHOICE, "prev-choice", NULL, NULL, {0}, 0,
     HELP_EDITING, NULL, NULL, app_key_prev_choice, NULL},
    {KC_MAIN, {'u'}, ACT_UNDO, "undo", "u", "Undo",
     {[KC_MAIN] = 5, [KC_RESULTS] = 5, [KC_SEARCH] = 5, [KC_SCALING] = 4, [KC_CHART] = 3},
     KF_OVER_VIEW,
     HELP_EDITING, "u, Ctrl-R", "undo, redo", app_key_undo, NULL},
    {KC_MAIN, {KEY_CTRL('r')}, ACT_REDO, "redo", NULL, NULL, {0}, KF_OVER_VIEW, HELP_EDITING,
     NULL, NULL, app_key_redo, NULL},
    {KC_MAIN, {'b'}, ACT_BASELINE, "baseline", NULL, NULL, {0}, KF_OVER_VIEW, HELP_EDITING, "b",
     "pin a baseline: results show their change against it;\n"
     "b again moves it here after edits, else clears it", app_key_baseline, NULL},
    {KC_MAIN, {'e'}, ACT_EXPLAIN, "explain", "e", "Explain", {[KC_MAIN] = 9}, 0, HELP_EDITING,
     "e", "explain the selected figure (Enter on Results) or field;\n"
     "on the warnings, list them whole", app_key_explain, NULL},
    {KC_MAIN, {'n'}, ACT_NOTES, "notes", "n", "Notes", {[KC_MAIN] = 8}, 0, HELP_NONE,
     NULL, "the scenario's notes, as :notes", app_key_notes, NULL},
    /* Commands: command.h's table, and the key that opens its line */
    {KC_MAIN, {':'}, ACT_COMMAND, "command", ":", "Cmd",
     {[KC_MAIN] = 7, [KC_RESULTS] = 7, [KC_SEARCH] = 6, [KC_SCALING] = 5, [KC_CHART] = 4},
     KF_OVER_VIEW,
     HELP_NONE, NULL, "open the command line", app_key_command, NULL},
    {KC_COMMAND, {ENTER}, ACT_NONE, "run", "Enter", "Run", {[KC_COMMAND] = 1}, 0, HELP_NONE,
     NULL, "run the command line", command_key_run, NULL},
    {KC_COMMAND, {KEY_ESC}, ACT_NONE, "cancel", "Esc", "Cancel", {[KC_COMMAND] = 2}, 0,
     HELP_NONE, NULL, "close the command line", command_key_cancel, NULL},
    {KC_COMMAND, {'\t'}, ACT_NONE, "complete", "Tab", "Complete", {[KC_COMMAND] = 3}, 0,
     HELP_NONE, NULL, "complete a command's file name, key or value", command_key_complete, NULL},
    {KC_COMMAND, {KEYF(KEY_BTAB)}, ACT_NONE, "complete-back", NULL, NULL, {0}, 0, HELP_NONE,
     NULL, "back through the candidates the last Tab listed", command_key_complete_back,
     NULL},
    {KC_COMMAND, {KEYF(KEY_UP), KEYF(KEY_DOWN)}, ACT_NONE, "history", NULL, NULL, {0}, 0,
     HELP_NONE, NULL, "recall an earlier command line", command_key_history, NULL},
    {KC_COMMAND, {127, KEYF(KEY_BACKSPACE), KEY_CTRL('h')}, ACT_NONE, "leave", NULL, NULL, {0}, 0, HELP_NONE,
     NULL, "on an empty line: close it", command_key_leave, NULL},
    /* Search, goal seek, scaling */
    {KC_MAIN, {'s'}, ACT_SEARCH, "search", "s", "Search", {[KC_MAIN] = 6, [KC_RESULTS] = 6},
     0, HELP_SEARCH, "s, :search", "the best layouts for this scenario, rerun after every\n"
     "edit: Up/Down choose, Enter applies (u undoes), c/t\n"
     "rank by cost/time, H over the catalog's GPUs too, q or\n"
     "Esc closes (:search cost hardware sets both)", app_key_search, NULL},
    {KC_SEARCH, {ENTER}, ACT_NONE, "apply", "Enter", "Apply", {[KC_SEARCH] = 1}, 0, HELP_NONE,
     NULL, "apply the selected layout (u undoes)", search_view_key_apply, NULL},
    {KC_SEARCH, {KEYF(KEY_UP), 'k'}, ACT_NONE, "choose-prev", "Up/Down", "Choose",
     {[KC_SEARCH] = 2}, 0, HELP_NONE, NULL, "the layout above", search_view_key_up, NULL},
    {KC_SEARCH, {KEYF(KEY_DOWN), 'j'}, ACT_NONE, "choose-next", NULL, NULL, {0}, 0, HELP_NONE,
     NULL, "the layout below", search_view_key_down, NULL},
    {KC_SEARCH, {KEYF(KEY_PPAGE)}, ACT_NONE, "page-up", NULL, NULL, {0}, 0, HELP_NONE, NULL,
     "a page of layouts up", search_view_key_page_up, NULL},
    {KC_SEARCH, {KEYF(KEY_NPAGE)}, ACT_NONE, "page-down", NULL, NULL, {0}, 0, HELP_NONE, NULL,
     "a page of layouts down", search_view_key_page_down, NULL},
    {KC_SEARCH, {KEYF(KEY_HOME), 'g'}, ACT_NONE, "first", NULL, NULL, {0}, 0, HELP_NONE, NULL,
     "the best layout", search_view_key_top, NULL},
    {KC_SEARCH, {KEYF(KEY_END), 'G'}, ACT_NONE, "last", NULL, NULL, {0}, 0, HELP_NONE, NULL,
     "the last layout", search_view_key_bottom, NULL},
    {KC_SEARCH, {'c'}, ACT_NONE, "by-cost", "c/t", "Cost/Time", {[KC_SEARCH] = 3}, 0,
     HELP_NONE, NULL, "rank by cost", search_view_key_by_cost, NULL},
    {KC_SEARCH, {'t'}, ACT_NONE, "by-time", NULL, NULL, {0}, 0, HELP_NONE, NULL,
     "rank by time", search_view_key_by_time, NULL},
    {KC_SEARCH, {'H'}, ACT_NONE, "hardware", "H", "Hardware", {[KC_SEARCH] = 4}, 0, HELP_NONE,
     NULL, "search the catalog's GPUs and counts too, or again this hardware only",
     search_view_key_hardware, NULL},
    {KC_SEARCH, {'s'}, ACT_NONE, "close", NULL, NULL, {0}, 0, HELP_NONE, NULL,
     "close the search view", search_view_key_search, NULL},
    {KC_SEARCH, {'S'}, ACT_NONE, "scaling", NULL, NULL, {0}, 0, HELP_NONE, NULL,
     "the scaling view instead", search_view_key_scaling, NULL},
    CLOSE_VIEW(KC_SEARCH, 7, search_view_key_close),
    {KC_MAIN, {'>'}, ACT_SOLVE_MAX, "solve-max", NULL, NULL, {0}, 0, HELP_SEARCH, "> / <",
     "goal seek on the selected field: the largest (smallest)\n"
     "value that still fits and meets the deadline or SLO", app_key_solve_max, NULL},
    {KC_MAIN, {'<'}, ACT_SOLVE_MIN, "solve-min", NULL, NULL, {0}, 0, HELP_SEARCH, NULL, NULL,
     app_key_solve_min, NULL},
    {KC_MAIN, {'S'}, ACT_SCALING, "scaling", NULL, NULL, {0}, 0, HELP_SEARCH, NULL,
     "the scaling view: time, cost and efficiency against GPU count (:scaling)",
     app_key_scaling, NULL},
    {KC_SCALING, {'s'}, ACT_NONE, "search", "s", "Search", {[KC_SCALING] = 2}, 0, HELP_NONE,
     NULL, "the search view instead", search_view_key_search, NULL},
    {KC_SCALING, {'S'}, ACT_NONE, "close", NULL, NULL, {0}, 0, HELP_NONE, NULL,
     "close the scaling view", search_view_key_scaling, NULL},
    {KC_SCALING, {'c'}, ACT_NONE, "chart", "c", "Chart", {[KC_SCALING] = 3}, 0, HELP_NONE, NULL,
     "chart the best layouts: a figure against the GPU count", chart_view_key_scaling, NULL},
    CLOSE_VIEW(KC_SCALING, 6, search_view_key_close),
    {KC_MAIN, {'c'}, ACT_CHART, "chart", "c", "Chart", {[KC_MAIN] = 10, [KC_RESULTS] = 9}, 0,
     HELP_SEARCH, "c, :chart", "the chart view: a figure against the selected field,\n"
     "halved and doubled around its value (on Results: the\n"
     "selected figure); the fit limit and the SLO as lines;\n"
     "f/F the next, previous figure (:chart FIELD FIGURE)", app_key_chart, NULL},
    {KC_CHART, {'f'}, ACT_NONE, "next-figure", "f/F", "Figure", {[KC_CHART] = 2}, 0, HELP_NONE,
     NULL, "chart the next figure", chart_view_key_next_figure, NULL},
    {KC_CHART, {'F'}, ACT_NONE, "prev-figure", NULL, NULL, {0}, 0, HELP_NONE, NULL,
     "chart the previous figure", chart_view_key_prev_figure, NULL},
    {KC_CHART, {'c'}, ACT_NONE, "close", NULL, NULL, {0}, 0, HELP_NONE, NULL,
     "close the chart view", chart_view_key_close, NULL},
    {KC_CHART, {'S'}, ACT_NONE, "scaling", NULL, NULL, {0}, 0, HELP_NONE, NULL,
     "the scaling view instead (its table of layouts)", search_view_key_scaling, NULL},
    CLOSE_VIEW(KC_CHART, 5, chart_view_key_close),
    /* Screen: the help screen's closing paragraph says these */
    {KC_MAIN, {KEYF(KEY_F(1)), '?'}, ACT_HELP, "help", "F1", "Help",
     {[KC_MAIN] = 1, [KC_RESULTS] = 1, [KC_SCALING] = 1, [KC_CHART] = 1}, KF_OVER_VIEW, HELP_NONE, NULL,
     "this help screen", app_key_help, NULL},
    {KC_MAIN, {'q', KEYF(KEY_F(10))}, ACT_QUIT, "quit", "q", "Quit",
     {[KC_MAIN] = 11, [KC_RESULTS] = 8}, KF_OVER_VIEW, HELP_NONE, NULL,
     "quit (asks first when there are unsaved edits)", app_key_quit, NULL},
    {KC_MAIN, {KEY_CTRL('s'), KEYF(KEY_F(2))}, ACT_SAVE, "save", NULL, NULL, {0}, KF_OVER_VIEW,
     HELP_NONE, NULL, "save, as :w", app_key_save, NULL},
    {KC_MAIN, {KEY_CTRL('l')}, ACT_REDRAW, "redraw", NULL, NULL, {0}, KF_OVER_VIEW, HELP_NONE,
     NULL, "redraw the screen", app_key_redraw, NULL},
    /* typing a value (and a file name at the save-as prompt): what Enter and Esc mean
     * there; the keys are the line editor's (KC_LINE) */
    {KC_EDIT, {ENTER}, ACT_NONE, "apply", "Enter", "Apply", {[KC_EDIT] = 1}, 0, HELP_NONE,
     NULL, "apply the value", NULL, NULL},
    {KC_EDIT, {KEY_ESC}, ACT_NONE, "cancel", "Esc", "Cancel", {[KC_EDIT] = 2}, 0, HELP_NONE,
     NULL, "cancel the edit", NULL, NULL},
    /* the line editor: every line typed (line_edit_key runs these rows) */
    {KC_LINE, {ENTER}, ACT_NONE, "accept", NULL, NULL, {0}, 0, HELP_NONE, NULL,
     "the line is done: what it means is the mode's (apply, run, take, save)", NULL,
     line_edit_accept},
    {KC_LINE, {KEY_ESC}, ACT_NONE, "cancel", NULL, NULL, {0}, 0, HELP_NONE, NULL,
     "leave the line: the mode's cancel", NULL, line_edit_cancel},
    {KC_LINE, {KEYF(KEY_LEFT)}, ACT_NONE, "left", "Left/Right", "Move", {[KC_EDIT] = 4}, 0,
     HELP_NONE, NULL, "the cursor a character left", NULL, line_edit_left},
    {KC_LINE, {KEYF(KEY_RIGHT)}, ACT_NONE, "right", NULL, NULL, {0}, 0, HELP_NONE, NULL,
     "the cursor a character right", NULL, line_edit_right},
    {KC_LINE, {KEYF(KEY_HOME), KEY_CTRL('a')}, ACT_NONE, "home", NULL, NULL, {0}, 0, HELP_NONE,
     NULL, "the cursor to the start of the line", NULL, line_edit_home},
    {KC_LINE, {KEYF(KEY_END), KEY_CTRL('e')}, ACT_NONE, "end", NULL, NULL, {0}, 0, HELP_NONE,
     NULL, "the cursor to the end of the line", NULL, line_edit_end},
    {KC_LINE, {127, KEYF(KEY_BACKSPACE), KEY_CTRL('h')}, ACT_NONE, "backspace", NULL, NULL,
     {0}, 0, HELP_NONE, NULL, "delete the character before the cursor", NULL,
     line_edit_backspace},
    {KC_LINE, {KEYF(KEY_DC), KEY_CTRL('d')}, ACT_NONE, "delete", NULL, NULL, {0}, 0, HELP_NONE,
     NULL, "delete the character under the cursor", NULL, line_edit_delete},
    {KC_LINE, {KEY_CTRL('u')}, ACT_NONE, "kill-before", "^U", "Clear", {[KC_EDIT] = 3}, 0,
     HELP_NONE, NULL, "delete everything before the cursor", NULL, line_edit_kill_before},
    {KC_LINE, {KEY_CTRL('k')}, ACT_NONE, "kill-after", NULL, NULL, {0}, 0, HELP_NONE, NULL,
     "delete everything after the cursor", NULL, line_edit_kill_after},
    {KC_LINE, {KEY_CTRL('w')}, ACT_NONE, "kill-word", NULL, NULL, {0}, 0, HELP_NONE, NULL,
     "delete the word before the cursor", NULL, line_edit_kill_word},
    /* the questions: prompt.c answers each by the row bound to its key */
    {KC_PROMPT, {'y', 'Y'}, ACT_NONE, "yes", "y", "Yes", {[KC_PROMPT] = 1}, 0, HELP_NONE, NULL,
     "replace the file", prompt_key_overwrite_yes, NULL},
    {KC_PROMPT, {'n', 'N', 'q', KEY_ESC}, ACT_NONE, "no", "n/Esc", "No", {[KC_PROMPT] = 2}, 0,
     HELP_NONE, NULL, "do not save", prompt_key_overwrite_no, NULL},
    {KC_QUIT, {'y', 'Y'}, ACT_NONE, "quit", "y", "Quit", {[KC_QUIT] = 1}, 0, HELP_NONE, NULL,
     "quit without saving", prompt_key_quit_yes, NULL},
    {KC_QUIT, {'n', 'N', 'q', KEY_ESC}, ACT_NONE, "stay", "n/Esc", "Stay", {[KC_QUIT] = 2}, 0,
     HELP_NONE, NULL, "do not quit", prompt_key_quit_no, NULL},
    {KC_QUIT, {'w', 'W'}, ACT_NONE, "save-quit", "w", "Save+quit", {[KC_QUIT] = 3}, 0,
     HELP_NONE, NULL, "save, then quit", prompt_key_quit_save, NULL},
    {KC_RECOVER, {'y', 'Y'}, ACT_NONE, "restore", "y", "Restore", {[KC_RECOVER] = 1}, 0,
     HELP_NONE, NULL, "restore the lost session's edits (the recovery file stays until\n"
     "they are saved or discarded)", prompt_key_recover_yes, NULL},
    {KC_RECOVER, {'d', 'D'}, ACT_NONE, "discard", "d", "Discard", {[KC_RECOVER] = 2}, 0,
     HELP_NONE, NULL, "delete the recovery file: its edits are gone",
     prompt_key_recover_discard, NULL},
    {KC_RECOVER, {'n', 'N', 'q', KEY_ESC}, ACT_NONE, "keep", "n/Esc", "Keep for later",
     {[KC_RECOVER] = 3}, 0, HELP_NONE, NULL, "keep the recovery file for the next start",
     prompt_key_recover_keep, NULL},
    /* the help and explanation windows */
    {KC_VIEW, {KEYF(KEY_DOWN), 'j', ' ', KEYF(KEY_NPAGE)}, ACT_NONE, "scroll-down", "Up/Down",
     "Scroll", {[KC_VIEW] = 1}, 0, HELP_NONE, NULL, "scroll down (a line, a page)",
     view_key_scroll_down, NULL},
    {KC_VIEW, {KEYF(KEY_UP), 'k', KEYF(KEY_PPAGE)}, ACT_NONE, "scroll-up", NULL, NULL, {0}, 0,
     HELP_NONE, NULL, "scroll up (a line, a page)", view_key_scroll_up, NULL},
    {KC_VIEW, {'q', KEY_ESC}, ACT_NONE, "close", "q/Esc", "Close", {[KC_VIEW] = 2}, 0,
     HELP_NONE, NULL, "close the window (as any other key does)", view_key_close, NULL},
    {KC_MAIN, {0}, ACT_NONE, NULL, NULL, NULL, {0}, 0, HELP_NONE, NULL, NULL, NULL, NULL},
};
/* clang-format on */

static const char *const ctx_names[KC_COUNT] = {
    [KC_MAIN] = "main",	      [KC_RESULTS] = "results", [KC_SEARCH] = "search",
    [KC_SCALING] = "scaling", [KC_CHART] = "chart",	[KC_EDIT] = "edit",
    [KC_PICK] = "pick",	      [KC_COMMAND] = "cmdline", [KC_PROMPT] = "prompt",
    [KC_QUIT] = "quit",	      [KC_RECOVER] = "recover", [KC_VIEW] = "view",
    [KC_LINE] = "line",
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
	    {KEYF(KEY_DC), "Delete"},
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
