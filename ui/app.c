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

static void undo(struct app *a)
{
	if (!a->nundo) {
		app_status(a, false, "nothing to undo");
		return;
	}
	if (a->nredo < UNDO_MAX)
		a->redo[a->nredo++] = a->scn;
	a->undo_head = (a->undo_head + UNDO_MAX - 1) % UNDO_MAX;
	a->nundo--;
	a->scn = a->undo[a->undo_head];
	a->dirty |= DIRTY_CALC | DIRTY_DRAW;
	app_status(a, false, "undone (%d more)", a->nundo);
}

static void redo(struct app *a)
{
	if (!a->nredo) {
		app_status(a, false, "nothing to redo");
		return;
	}
	a->undo[a->undo_head] = a->scn;
	a->undo_head = (a->undo_head + 1) % UNDO_MAX;
	if (a->nundo < UNDO_MAX)
		a->nundo++;
	a->scn = a->redo[--a->nredo];
	a->dirty |= DIRTY_CALC | DIRTY_DRAW;
	app_status(a, false, "redone (%d more)", a->nredo);
}

static void move_sel(struct app *a, int delta)
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
	a->dirty |= DIRTY_DRAW;
}

/* PgUp/PgDn: a page less a row of overlap; an input pane's rows scroll with the selection,
 * which keeps its place on the screen (the selection used to move while the rows stayed). */
static void page(struct app *a, int dir)
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
	move_sel(a, dir * step);
}

static void baseline(struct app *a)
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
	a->dirty |= DIRTY_DRAW;
}

static void normal_key(struct app *a, int key)
{
	enum action act = keys_action(key);
	const struct field *f;

	if (a->view != VIEW_NONE && search_view_key(a, key)) {
		a->dirty |= DIRTY_DRAW;
		return;
	}
	if (act != ACT_NONE && a->status[0] && act != ACT_INC && act != ACT_DEC)
		a->status[0] = '\0';
	switch (act) {
	case ACT_NEXT_PANE:
		a->focus = (a->focus + 1) % PANE_COUNT;
		break;
	case ACT_PREV_PANE:
		a->focus = (a->focus + PANE_COUNT - 1) % PANE_COUNT;
		break;
	case ACT_PANE_1:
	case ACT_PANE_2:
	case ACT_PANE_3:
	case ACT_PANE_4:
		a->focus = act - ACT_PANE_1;
		break;
	case ACT_UP:
		move_sel(a, -1);
		break;
	case ACT_DOWN:
		move_sel(a, 1);
		break;
	case ACT_PAGE_UP:
		page(a, -1);
		break;
	case ACT_PAGE_DOWN:
		page(a, 1);
		break;
	case ACT_TOP:
		move_sel(a, -1000);
		break;
	case ACT_BOTTOM:
		move_sel(a, 1000);
		break;
	case ACT_EDIT:
		app_edit_start(a);
		break;
	case ACT_INC:
		app_step(a, 1, false);
		break;
	case ACT_DEC:
		app_step(a, -1, false);
		break;
	case ACT_NEXT_CHOICE:
		app_step(a, 1, true);
		break;
	case ACT_PREV_CHOICE:
		app_step(a, -1, true);
		break;
	case ACT_UNDO:
		undo(a);
		break;
	case ACT_REDO:
		redo(a);
		break;
	case ACT_BASELINE:
		baseline(a);
		break;
	case ACT_EXPLAIN:
		if (a->focus == PANE_RESULTS) {
			if (a->nresult_items)
				explain_open(a, a->result_keys[a->sel[PANE_RESULTS]]);
		} else if ((f = app_selected_field(a)) != NULL) {
			explain_open(a, f->key);
		}
		break;
	case ACT_COMMAND:
		a->mode = MODE_COMMAND;
		a->history_pos = a->nhistory;
		line_edit_set(&a->line, "");
		break;
	case ACT_HELP:
		a->mode = MODE_HELP;
		a->help_top = 0;
		break;
	case ACT_QUIT:
		app_quit(a, false);
		break;
	case ACT_SAVE:
		app_save(a, NULL);
		break;
	case ACT_REDRAW:
		if (a->screen)
			clearok(curscr, TRUE);
		break;
	case ACT_SEARCH:
		search_view_open(a, VIEW_SEARCH);
		break;
	case ACT_SCALING:
		search_view_open(a, VIEW_SCALING);
		break;
	case ACT_SOLVE_MAX:
	case ACT_SOLVE_MIN:
		if ((f = app_selected_field(a)) != NULL)
			app_goal_seek(a, f->key, act == ACT_SOLVE_MAX);
		else
			app_status(a, true,
				   "goal seek: select a numeric field first (or :solve max KEY)");
		break;
	case ACT_NONE:
		break;
	}
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
