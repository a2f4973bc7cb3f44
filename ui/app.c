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
}

void app_status_err(struct app *a, const struct gp_error *err)
{
	char buf[sizeof(a->status)];
	app_status(a, true, "%s", gp_error_format(err, buf, sizeof(buf)));
}

const struct field *app_selected_field(const struct app *a)
{
	const struct view_ops *v = app_pane(a, a->focus);
	return v->field ? v->field(a) : NULL;
}

bool app_editing(const struct app *a, const struct field *f)
{
	return a->mode == MODE_EDIT && f && a->edit_field == f;
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
		a->cv.stale = true;
	}
	/* the view over the body reruns its search when it is stale, and only while it is
	 * the view on top: a line typed or a window over it waits for it (a search takes
	 * milliseconds, a keystroke should not) */
	{
		const struct view_ops *v = app_body_view(a);
		if (v && v->recalc && a->mode == MODE_NORMAL)
			v->recalc(a, v);
	}
}

void app_relayout(struct app *a)
{
	/* each pane keeps its selection in view at its new height: its recalc, not the plan's
	 * (a resize changes no figure) */
	for (int p = 0; p < PANE_COUNT; p++) {
		const struct view_ops *v = app_pane(a, p);
		v->recalc(a, v);
	}
	/* a taller search view shows more rows: rerun only when the last run filled the rows
	 * it was asked for (there may be more) */
	if (a->sv.n >= a->sv.asked && search_view_capacity(a) > a->sv.asked)
		a->sv.stale = true;
	a->dirty |= DIRTY_DRAW;
}

static void plan_update(struct app *a)
{
	plan_compute(&a->scn, &a->plan);
	gp_problems_init(&a->problems);
	scenario_validate(&a->scn, NULL, &a->problems);
	a->computes++;
	/* each pane rebuilds what it shows from the new plan (neomutt's recalc) */
	for (int p = 0; p < PANE_COUNT; p++) {
		const struct view_ops *v = app_pane(a, p);
		v->recalc(a, v);
	}
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
	app_note_disk(a);
	a->sv.stale = true;
	a->sv.scaling_stale = true;
	for (int p = 0; p < PANE_COUNT; p++) {
		const struct view_ops *v = app_pane(a, p);
		if (v->rows)
			v->rows(a, &a->rows[p]);
	}
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

unsigned app_commit(struct app *a, const struct scenario *before)
{
	undo_push(a, before);
	return DIRTY_CALC | DIRTY_DRAW;
}

/* "undone: hardware.count = 4; 2 more to undo": what the step changed back (the first field
 * it changed, and how many others), as the edit's own message named it, then what is
 * left; from is the scenario before the step. */
static void undo_status(struct app *a, const char *what, const struct scenario *from, int left,
			const char *verb)
{
	const struct field *first = NULL;
	char v[160], others[32] = "";
	int n = 0;

	for (const struct field *f = scenario_fields; f->key; f++)
		if (!scenario_field_equal(from, &a->scn, f) && (n++ == 0))
			first = f;
	if (n > 1)
		snprintf(others, sizeof(others), " and %d more field%s", n - 1, n > 2 ? "s" : "");
	if (!first) {
		app_status(a, false, "%s; %d more to %s", what, left, verb);
		return;
	}
	scenario_field_format(&a->scn, first, v, sizeof(v));
	app_status(a, false, "%s: %s = %s%s; %d more to %s", what, first->key, v, others, left,
		   verb);
}

static unsigned undo(struct app *a)
{
	struct scenario from = a->scn; /* on the stack, as cycle_preset's */

	if (!a->nundo) {
		app_status(a, false, "nothing to undo");
		return DIRTY_DRAW;
	}
	if (a->nredo < UNDO_MAX)
		a->redo[a->nredo++] = a->scn;
	a->undo_head = (a->undo_head + UNDO_MAX - 1) % UNDO_MAX;
	a->nundo--;
	a->scn = a->undo[a->undo_head];
	undo_status(a, "undone", &from, a->nundo, "undo");
	return DIRTY_CALC | DIRTY_DRAW;
}

static unsigned redo(struct app *a)
{
	struct scenario from = a->scn;

	if (!a->nredo) {
		app_status(a, false, "nothing to redo");
		return DIRTY_DRAW;
	}
	a->undo[a->undo_head] = a->scn;
	a->undo_head = (a->undo_head + 1) % UNDO_MAX;
	if (a->nundo < UNDO_MAX)
		a->nundo++;
	a->scn = a->redo[--a->nredo];
	undo_status(a, "redone", &from, a->nredo, "redo");
	return DIRTY_CALC | DIRTY_DRAW;
}

static unsigned move_sel(struct app *a, int delta)
{
	return app_pane(a, a->focus)->move_by(a, delta);
}

/* PgUp/PgDn: a page less a row of overlap. */
static unsigned page(struct app *a, int dir)
{
	return app_pane(a, a->focus)->page_by(a, dir);
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
		snprintf(a->base_path, sizeof(a->base_path), "%s", a->path);
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

const char *app_baseline_mark(const struct app *a, char *buf, size_t size)
{
	const char *slash = strrchr(a->base_path, '/');

	if (!a->has_baseline)
		snprintf(buf, size, "%s", "");
	else if (strcmp(a->base_path, a->path) == 0)
		snprintf(buf, size, "%s", "[baseline]");
	else
		/* pinned before :w NEW went on with another file: say whose it is */
		snprintf(buf, size, "[baseline: %.60s]",
			 !a->base_path[0] ? "built-in"
			 : slash	  ? slash + 1
					  : a->base_path);
	return buf;
}

/* The key handlers of keys.c's table: each returns the dirty bits. */
KEY_DRAWS(app_key_next_pane, a->focus = (a->focus + 1) % PANE_COUNT)
KEY_DRAWS(app_key_prev_pane, a->focus = (a->focus + PANE_COUNT - 1) % PANE_COUNT)

unsigned app_key_pane(struct app *a, int key)
{
	a->focus = keys_action(key) - ACT_PANE_1;
	return DIRTY_DRAW;
}

KEY_HANDLER(app_key_up, move_sel(a, -1))
KEY_HANDLER(app_key_down, move_sel(a, 1))
KEY_HANDLER(app_key_page_up, page(a, -1))
KEY_HANDLER(app_key_page_down, page(a, 1))
KEY_HANDLER(app_key_top, move_sel(a, -1000))
KEY_HANDLER(app_key_bottom, move_sel(a, 1000))
KEY_DRAWS(app_key_edit, app_edit_start(a))
KEY_HANDLER(app_key_inc, DIRTY_DRAW | app_step(a, 1, false))
KEY_HANDLER(app_key_dec, DIRTY_DRAW | app_step(a, -1, false))
KEY_HANDLER(app_key_next_choice, DIRTY_DRAW | app_step(a, 1, true))
KEY_HANDLER(app_key_prev_choice, DIRTY_DRAW | app_step(a, -1, true))
KEY_HANDLER(app_key_undo, undo(a))
KEY_HANDLER(app_key_redo, redo(a))
KEY_HANDLER(app_key_baseline, baseline(a))

unsigned app_key_explain(struct app *a, int key)
{
	const char *k = app_pane(a, a->focus)->selected_key(a);

	(void)key;
	if (k)
		explain_open(a, k);
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

KEY_DRAWS(app_key_quit, app_quit(a, false))
KEY_DRAWS(app_key_save, app_save(a, NULL))

unsigned app_key_redraw(struct app *a, int key)
{
	(void)key;
	if (a->screen)
		clearok(curscr, TRUE);
	return DIRTY_DRAW;
}

KEY_DRAWS(app_key_search, search_view_open(a, VIEW_SEARCH))
KEY_DRAWS(app_key_scaling, search_view_open(a, VIEW_SCALING))

static unsigned solve(struct app *a, bool maximize)
{
	const struct field *f = app_selected_field(a);

	if (f)
		return app_goal_seek(a, f->key, maximize);
	app_status(a, true, "goal seek: select a numeric field first (or :solve max KEY)");
	return DIRTY_DRAW;
}

KEY_HANDLER(app_key_solve_max, solve(a, true))
KEY_HANDLER(app_key_solve_min, solve(a, false))

enum key_ctx app_key_ctx(const struct app *a)
{
	const struct view_ops *v = app_view(a);
	return v->key_ctx ? v->key_ctx(a) : v->ctx;
}

/* A key in a pane: the pane's row, else the main view's. */
unsigned app_pane_key(struct app *a, int key)
{
	const struct key_row *r = keys_find(app_key_ctx(a), key);
	unsigned dirty = DIRTY_DRAW;

	if (!r)
		r = keys_find(KC_MAIN, key);
	if (r && a->status[0] && !(r->flags & KF_KEEP_STATUS))
		a->status[0] = '\0';
	if (r)
		dirty |= r->run(a, key);
	return dirty;
}

/* A key in a view over the body: the view's row, else a main row that works over the view
 * (the view takes any other key). */
unsigned app_body_view_key(struct app *a, int key)
{
	const struct key_row *r = keys_find(app_key_ctx(a), key);

	if (r)
		return DIRTY_DRAW | r->run(a, key);
	r = keys_find(KC_MAIN, key);
	if (!r || !(r->flags & (KF_OVER_VIEW | KF_CLOSES_VIEW)))
		return DIRTY_DRAW;
	if (r->flags & KF_CLOSES_VIEW)
		search_view_open(a, VIEW_NONE);
	if (a->status[0] && !(r->flags & KF_KEEP_STATUS))
		a->status[0] = '\0';
	return DIRTY_DRAW | r->run(a, key);
}

/* The first line shown of the window the mode opened (help, explanation, notes). */
static int *view_top(struct app *a)
{
	return a->mode == MODE_HELP	 ? &a->help_top
	       : a->mode == MODE_EXPLAIN ? &a->explain_top
					 : &a->notes_top;
}

unsigned view_key_scroll_down(struct app *a, int key)
{
	*view_top(a) += key == ' ' || key == KEYF(KEY_NPAGE) ? 10 : 1;
	return DIRTY_DRAW;
}

unsigned view_key_scroll_up(struct app *a, int key)
{
	int *top = view_top(a), by = key == KEYF(KEY_PPAGE) ? 10 : 1;
	*top = *top > by ? *top - by : 0;
	return DIRTY_DRAW;
}

KEY_DRAWS(view_key_close, a->mode = MODE_NORMAL)

unsigned view_key(struct app *a, int key)
{
	const struct key_row *r = keys_find(KC_VIEW, key);
	return r && r->run ? r->run(a, key) : view_key_close(a, key);
}

void app_handle_key(struct app *a, int key)
{
	a->dirty |= app_view(a)->key(a, key);
	if ((a->mode == MODE_EDIT || a->mode == MODE_COMMAND || a->mode == MODE_PROMPT) &&
	    a->line.full) {
		app_status(a, true,
			   "the line is full (%d bytes): a key did not fit, so Enter is "
			   "refused (Esc, then a shorter line)",
			   LINE_EDIT_MAX - 1);
		a->dirty |= DIRTY_DRAW;
	}
}
