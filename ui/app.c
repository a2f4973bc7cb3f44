/* app.c - the UI's state, the undo ring and key dispatch; nothing here draws. */
#include "app.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "app_file.h"
#include "command.h"
#include "prompt.h"

void app_status(struct app *a, bool error, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(a->status, sizeof(a->status), fmt, ap);
	va_end(ap);
	a->status_error = error;
	a->dirty |= DIRTY_DRAW;
}

void app_status_err(struct app *a, const struct gp_error *err)
{
	char buf[sizeof(a->status)];
	app_status(a, true, "%s", gp_error_format(err, buf, sizeof(buf)));
}

static void rows_build(struct app *a)
{
	pane_model_rows(a, &a->rows[PANE_MODEL]);
	pane_workload_rows(a, &a->rows[PANE_WORKLOAD]);
	pane_hardware_rows(a, &a->rows[PANE_HARDWARE]);
}

const struct field *app_selected_field(const struct app *a)
{
	const struct pane_rows *r;

	if (a->focus >= PANE_RESULTS)
		return NULL;
	r = &a->rows[a->focus];
	if (a->sel[a->focus] < 0 || a->sel[a->focus] >= r->n)
		return NULL;
	if (r->r[a->sel[a->focus]].kind != ROW_FIELD)
		return NULL;
	return r->r[a->sel[a->focus]].f;
}

/* Puts the selection of pane p on a field row, searching from row i in direction dir. */
static void select_row(struct app *a, int p, int i, int dir)
{
	const struct pane_rows *r = &a->rows[p];

	if (r->n == 0) {
		a->sel[p] = 0;
		return;
	}
	if (i < 0)
		i = 0;
	if (i >= r->n)
		i = r->n - 1;
	for (int j = i; j >= 0 && j < r->n; j += dir)
		if (r->r[j].kind == ROW_FIELD) {
			a->sel[p] = j;
			return;
		}
	for (int j = i; j >= 0 && j < r->n; j -= dir)
		if (r->r[j].kind == ROW_FIELD) {
			a->sel[p] = j;
			return;
		}
}

/* Keeps the selected row of pane p inside its window. */
static void scroll_to_selection(struct app *a, int p)
{
	int visible = a->lay.pane[p].h - 1, n;

	if (p == PANE_RESULTS || visible <= 0)
		return;
	n = a->rows[p].n;
	if (a->sel[p] < a->top[p])
		a->top[p] = a->sel[p];
	if (a->sel[p] >= a->top[p] + visible)
		a->top[p] = a->sel[p] - visible + 1;
	if (a->top[p] > n - visible)
		a->top[p] = n - visible;
	if (a->top[p] < 0)
		a->top[p] = 0;
}

static void plan_update(struct app *a);

void app_compute(struct app *a)
{
	if (a->dirty & DIRTY_CALC) {
		a->dirty &= ~DIRTY_CALC;
		plan_update(a);
		/* the views' searches rerun when next shown (now, when one is open) */
		a->sv.stale = true;
		a->sv.scaling_stale = true;
	}
	search_view_compute(a);
}

static void plan_update(struct app *a)
{
	plan_compute(&a->scn, &a->plan);
	gp_problems_init(&a->problems);
	scenario_validate(&a->scn, NULL, &a->problems);
	a->computes++;
	/* Rebuild the rows (the workload kind decides which fields show), keeping each
	 * selection on the same field when it is still there. */
	const struct field *was[PANE_RESULTS];
	for (int p = 0; p < PANE_RESULTS; p++) {
		const struct pane_rows *r = &a->rows[p];
		was[p] = a->sel[p] < r->n ? r->r[a->sel[p]].f : NULL;
	}
	rows_build(a);
	for (int p = 0; p < PANE_RESULTS; p++) {
		const struct pane_rows *r = &a->rows[p];
		int keep = -1;
		for (int i = 0; was[p] && i < r->n; i++)
			if (r->r[i].f == was[p])
				keep = i;
		select_row(a, p, keep >= 0 ? keep : a->sel[p], 1);
		scroll_to_selection(a, p);
	}
	pane_results_items(a);
	if (a->sel[PANE_RESULTS] >= a->nresult_items)
		a->sel[PANE_RESULTS] = a->nresult_items ? a->nresult_items - 1 : 0;
	a->dirty |= DIRTY_DRAW;
}

const struct gp_error *app_field_problem(const struct app *a, const struct field *f)
{
	for (int i = 0; f && i < a->problems.count; i++)
		if (strcmp(a->problems.items[i].field, f->key) == 0)
			return &a->problems.items[i];
	return NULL;
}

void app_init(struct app *a, const struct catalog *cat, const struct scenario *s, const char *path,
	      unsigned flags)
{
	memset(a, 0, sizeof(*a));
	a->cat = cat;
	a->flags = flags;
	a->scn = *s;
	a->saved = *s;
	snprintf(a->path, sizeof(a->path), "%s", path && strcmp(path, "-") != 0 ? path : "");
	a->dirty = DIRTY_CALC | DIRTY_DRAW | DIRTY_LAYOUT;
	a->mode = MODE_NORMAL;
	a->focus = PANE_MODEL;
	layout_compute(LAYOUT_STD_ROWS, LAYOUT_STD_COLS, &a->lay);
	/* gpuplan NEWFILE.yaml: the built-in scenario, bound to a file :w creates (as an
	 * editor opens a file that is not there yet) */
	if (a->path[0] && access(a->path, F_OK) != 0 && errno == ENOENT) {
		a->new_file = true;
		app_status(a, false, "new file %s: :w or ^S creates it", a->path);
	}
	a->sv.stale = true;
	a->sv.scaling_stale = true;
	rows_build(a);
	app_compute(a);
}

bool app_unsaved(const struct app *a)
{
	for (const struct field *f = scenario_fields; f->key; f++)
		if (!scenario_field_equal(&a->scn, &a->saved, f))
			return true;
	return false;
}

static void undo_push(struct app *a, const struct scenario *before)
{
	a->undo[a->undo_head] = *before;
	a->undo_head = (a->undo_head + 1) % UNDO_MAX;
	if (a->nundo < UNDO_MAX)
		a->nundo++;
	a->nredo = 0;
}

void app_commit(struct app *a, const struct scenario *before)
{
	undo_push(a, before);
	a->dirty |= DIRTY_CALC | DIRTY_DRAW;
}

static unsigned undo(struct app *a)
{
	if (!a->nundo) {
		app_status(a, false, "nothing to undo");
		return DIRTY_DRAW;
	}
	if (a->nredo < UNDO_MAX)
		a->redo[a->nredo++] = a->scn;
	a->undo_head = (a->undo_head + UNDO_MAX - 1) % UNDO_MAX;
	a->nundo--;
	a->scn = a->undo[a->undo_head];
	app_status(a, false, "undone (%d more)", a->nundo);
	return DIRTY_CALC | DIRTY_DRAW;
}

static unsigned redo(struct app *a)
{
	if (!a->nredo) {
		app_status(a, false, "nothing to redo");
		return DIRTY_DRAW;
	}
	a->undo[a->undo_head] = a->scn;
	a->undo_head = (a->undo_head + 1) % UNDO_MAX;
	if (a->nundo < UNDO_MAX)
		a->nundo++;
	a->scn = a->redo[--a->nredo];
	app_status(a, false, "redone (%d more)", a->nredo);
	return DIRTY_CALC | DIRTY_DRAW;
}

static unsigned move_sel(struct app *a, int delta)
{
	int p = a->focus;

	if (p == PANE_RESULTS) {
		int s = a->sel[p] + delta;
		if (s < 0)
			s = 0;
		if (s >= a->nresult_items)
			s = a->nresult_items - 1;
		a->sel[p] = s < 0 ? 0 : s;
	} else {
		int start = a->sel[p] + delta;
		const struct pane_rows *r = &a->rows[p];
		/* skip headings and info lines in the direction of travel */
		if (start >= 0 && start < r->n)
			select_row(a, p, start, delta > 0 ? 1 : -1);
		else
			select_row(a, p, start, delta > 0 ? -1 : 1);
		scroll_to_selection(a, p);
	}
	return DIRTY_DRAW;
}

/* PgUp/PgDn: a page less a row of overlap; an input pane's rows scroll with the selection,
 * which keeps its place on the screen (the selection used to move while the rows stayed). */
static unsigned page(struct app *a, int dir)
{
	int p = a->focus, visible = a->lay.pane[p].h - 1, step;

	step = visible > 2 ? visible - 1 : 1;
	if (p != PANE_RESULTS) {
		int max_top = a->rows[p].n - visible;
		a->top[p] += dir * step;
		if (a->top[p] > max_top)
			a->top[p] = max_top;
		if (a->top[p] < 0)
			a->top[p] = 0;
	}
	return move_sel(a, dir * step);
}

static unsigned baseline(struct app *a)
{
	bool same = a->has_baseline && memcmp(&a->base_scn, &a->scn, sizeof(a->scn)) == 0;

	if (same) {
		a->has_baseline = false;
		app_status(a, false, "baseline cleared");
	} else {
		bool moved = a->has_baseline;
		a->has_baseline = true;
		a->base_scn = a->scn;
		a->base_plan = a->plan;
		if (moved)
			/* b after edits moves the baseline here; only b on it clears it */
			app_status(a, false,
				   "baseline moved to the current plan (b again, with no edit, "
				   "clears it)");
		else
			app_status(a, false,
				   "baseline pinned: results now show the change against it "
				   "(b again to clear)");
	}
	return DIRTY_DRAW;
}

/* The key handlers of keys.c's table: each returns the dirty bits. */
unsigned app_key_next_pane(struct app *a, int key)
{
	(void)key;
	a->focus = (a->focus + 1) % PANE_COUNT;
	return DIRTY_DRAW;
}

unsigned app_key_prev_pane(struct app *a, int key)
{
	(void)key;
	a->focus = (a->focus + PANE_COUNT - 1) % PANE_COUNT;
	return DIRTY_DRAW;
}

unsigned app_key_pane(struct app *a, int key)
{
	a->focus = keys_action(key) - ACT_PANE_1;
	return DIRTY_DRAW;
}

unsigned app_key_up(struct app *a, int key)
{
	(void)key;
	return move_sel(a, -1);
}

unsigned app_key_down(struct app *a, int key)
{
	(void)key;
	return move_sel(a, 1);
}

unsigned app_key_page_up(struct app *a, int key)
{
	(void)key;
	return page(a, -1);
}

unsigned app_key_page_down(struct app *a, int key)
{
	(void)key;
	return page(a, 1);
}

unsigned app_key_top(struct app *a, int key)
{
	(void)key;
	return move_sel(a, -1000);
}

unsigned app_key_bottom(struct app *a, int key)
{
	(void)key;
	return move_sel(a, 1000);
}

unsigned app_key_edit(struct app *a, int key)
{
	(void)key;
	app_edit_start(a);
	return DIRTY_DRAW;
}

unsigned app_key_inc(struct app *a, int key)
{
	(void)key;
	app_step(a, 1, false);
	return DIRTY_DRAW;
}

unsigned app_key_dec(struct app *a, int key)
{
	(void)key;
	app_step(a, -1, false);
	return DIRTY_DRAW;
}

unsigned app_key_next_choice(struct app *a, int key)
{
	(void)key;
	app_step(a, 1, true);
	return DIRTY_DRAW;
}

unsigned app_key_prev_choice(struct app *a, int key)
{
	(void)key;
	app_step(a, -1, true);
	return DIRTY_DRAW;
}

unsigned app_key_undo(struct app *a, int key)
{
	(void)key;
	return undo(a);
}

unsigned app_key_redo(struct app *a, int key)
{
	(void)key;
	return redo(a);
}

unsigned app_key_baseline(struct app *a, int key)
{
	(void)key;
	return baseline(a);
}

unsigned app_key_explain(struct app *a, int key)
{
	const struct field *f;

	(void)key;
	if (a->focus == PANE_RESULTS) {
		if (a->nresult_items)
			explain_open(a, a->result_keys[a->sel[PANE_RESULTS]]);
	} else if ((f = app_selected_field(a)) != NULL) {
		explain_open(a, f->key);
	}
	return DIRTY_DRAW;
}

unsigned app_key_command(struct app *a, int key)
{
	(void)key;
	a->mode = MODE_COMMAND;
	a->history_pos = a->nhistory;
	line_edit_set(&a->line, "");
	return DIRTY_DRAW;
}

unsigned app_key_help(struct app *a, int key)
{
	(void)key;
	a->mode = MODE_HELP;
	a->help_top = 0;
	return DIRTY_DRAW;
}

unsigned app_key_quit(struct app *a, int key)
{
	(void)key;
	app_quit(a, false);
	return DIRTY_DRAW;
}

unsigned app_key_save(struct app *a, int key)
{
	(void)key;
	app_save(a, NULL);
	return DIRTY_DRAW;
}

unsigned app_key_redraw(struct app *a, int key)
{
	(void)key;
	if (a->screen)
		clearok(curscr, TRUE);
	return DIRTY_DRAW;
}

unsigned app_key_search(struct app *a, int key)
{
	(void)key;
	search_view_open(a, VIEW_SEARCH);
	return DIRTY_DRAW;
}

unsigned app_key_scaling(struct app *a, int key)
{
	(void)key;
	search_view_open(a, VIEW_SCALING);
	return DIRTY_DRAW;
}

static unsigned solve(struct app *a, bool maximize)
{
	const struct field *f = app_selected_field(a);

	if (f)
		app_goal_seek(a, f->key, maximize);
	else
		app_status(a, true, "goal seek: select a numeric field first (or :solve max KEY)");
	return DIRTY_DRAW;
}

unsigned app_key_solve_max(struct app *a, int key)
{
	(void)key;
	return solve(a, true);
}

unsigned app_key_solve_min(struct app *a, int key)
{
	(void)key;
	return solve(a, false);
}

enum key_ctx app_key_ctx(const struct app *a)
{
	switch (a->mode) {
	case MODE_EDIT:
		return KC_EDIT;
	case MODE_PICK:
		return KC_PICK;
	case MODE_COMMAND:
		return KC_COMMAND;
	case MODE_PROMPT:
		return a->prompt == PROMPT_SAVE_AS ? KC_EDIT
		       : a->prompt == PROMPT_QUIT  ? KC_QUIT
						   : KC_PROMPT;
	case MODE_HELP:
	case MODE_EXPLAIN:
		return KC_VIEW;
	case MODE_NORMAL:
		break;
	}
	if (a->view == VIEW_SEARCH)
		return KC_SEARCH;
	if (a->view == VIEW_SCALING)
		return KC_SCALING;
	return a->focus == PANE_RESULTS ? KC_RESULTS : KC_MAIN;
}

/* A key in the main view: the open view's row, else a main row that works over the view
 * (the view takes any other key); else the focused pane's row, else the main view's. */
static void normal_key(struct app *a, int key)
{
	enum key_ctx ctx = app_key_ctx(a);
	const struct key_row *r = keys_find(ctx, key);

	if (a->view != VIEW_NONE) {
		a->dirty |= DIRTY_DRAW;
		if (r) {
			a->dirty |= r->run(a, key);
			return;
		}
		r = keys_find(KC_MAIN, key);
		if (!r || !(r->flags & (KF_OVER_VIEW | KF_CLOSES_VIEW)))
			return;
		if (r->flags & KF_CLOSES_VIEW)
			search_view_open(a, VIEW_NONE);
	} else if (!r) {
		r = keys_find(KC_MAIN, key);
	}
	if (r && a->status[0] && !(r->flags & KF_KEEP_STATUS))
		a->status[0] = '\0';
	if (r)
		a->dirty |= r->run(a, key);
	a->dirty |= DIRTY_DRAW;
}

/* Scrolls a help or explanation window: j/k, arrows, space and page keys. Returns false
 * for any other key (which closes the window). */
static bool scroll_key(int key, int *top)
{
	if (key == KEYF(KEY_DOWN) || key == 'j')
		(*top)++;
	else if (key == KEYF(KEY_UP) || key == 'k')
		*top = *top > 0 ? *top - 1 : 0;
	else if (key == KEYF(KEY_NPAGE) || key == ' ')
		*top += 10;
	else if (key == KEYF(KEY_PPAGE))
		*top = *top > 10 ? *top - 10 : 0;
	else
		return false;
	return true;
}

void app_handle_key(struct app *a, int key)
{
	switch (a->mode) {
	case MODE_NORMAL:
		normal_key(a, key);
		break;
	case MODE_EDIT:
		app_edit_key(a, key);
		break;
	case MODE_PICK:
		app_pick_key(a, key);
		break;
	case MODE_COMMAND:
		command_key(a, key);
		break;
	case MODE_PROMPT:
		prompt_key(a, key);
		break;
	case MODE_HELP:
		if (!scroll_key(key, &a->help_top))
			a->mode = MODE_NORMAL;
		if (a->help_top > help_display_lines(a->lay.cols - 4) - 1)
			a->help_top = help_display_lines(a->lay.cols - 4) - 1;
		a->dirty |= DIRTY_DRAW;
		break;
	case MODE_EXPLAIN:
		if (!scroll_key(key, &a->explain_top))
			a->mode = MODE_NORMAL;
		a->dirty |= DIRTY_DRAW;
		break;
	}
}
