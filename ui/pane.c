/* pane.c - the input panes' common drawing: a header, then label/value rows that scroll. */
#include "app.h"

#include <stdio.h>
#include <string.h>

#define LABEL_W 15

/* The value as shown: the file form, with what an auto value resolved to. */
static void value_text(const struct app *a, const struct field *f, char *buf, size_t size)
{
	scenario_field_format(&a->scn, f, buf, size);
	if (strcmp(buf, "auto") == 0) {
		double v = app_auto_value(a, f);
		if (v > 0) {
			char n[48];
			if (f->type == FIELD_NUM && f->unit == UNIT_RATIO)
				units_format_percent(v, 0, n, sizeof(n));
			else
				units_format_human(UNIT_COUNT, v, 4, n, sizeof(n));
			snprintf(buf, size, "auto (%s)", n);
			/* batch auto: the batch decode runs, then the most that fit, which the
			 * KV cache is sized for (as vLLM preallocates) */
			enum batch_run why;
			double run = app_running_batch(a, f, &why);
			if (run > 0) {
				char m[48];
				units_format_human(UNIT_COUNT, run, 3, m, sizeof(m));
				snprintf(buf, size, "auto (%s; fits %s)", m, n);
			}
		}
	} else if (f->type == FIELD_STR && !buf[0]) {
		snprintf(buf, size, "-");
	} else if (f->type == FIELD_NUM && f->unit == UNIT_RATIO) {
		/* a percentage, as its auto value is shown: 50%, not 0.5 beside auto (45%) */
		double v = *(const double *)((const char *)&a->scn + f->offset);
		units_format_percent(v, 3, buf, size);
	} else if (f->type == FIELD_NUM &&
		   *(const double *)((const char *)&a->scn + f->offset) == 0) {
		/* 0 is "not given" for these (no deadline, no SLO, storage not modelled) */
		snprintf(buf, size, "-");
	} else if (f->type == FIELD_INT && f->min > 0 &&
		   *(const int *)((const char *)&a->scn + f->offset) == 0) {
		/* below the field's minimum: not given (a model known by its size only has no
		 * layers, not zero of them) */
		snprintf(buf, size, "-");
	}
}

/* "KEY = VALUE" for the status line when field f's value is wider than its pane shows it;
 * NULL when it fits. */
static const char *value_cut(const struct app *a, const struct field *f, char *buf, size_t size)
{
	char v[LINE_EDIT_MAX + 32];
	int room;

	if (!f)
		return NULL;
	room = a->lay.pane[a->focus].w - (LABEL_W + 2) - 1;
	value_text(a, f, v, sizeof(v));
	if (text_width(v) <= room)
		return NULL;
	snprintf(buf, size, "%s = %s", f->key, v);
	return buf;
}

const char *pane_inputs_status(const struct app *a, char *buf, size_t size, int *role)
{
	const struct field *f = pane_inputs_field(a);
	const struct gp_error *e = app_field_problem(a, f);

	*role = ROLE_WARN;
	if (e)
		return e->message;
	/* a value the pane cuts (a long hf_config path): whole here */
	*role = ROLE_NORMAL;
	return value_cut(a, f, buf, size);
}

/* The columns the value being typed is scrolled by, so the cursor (at column cc) stays in
 * a field of cw columns. */
static int edit_offset(int cc, int cw)
{
	return cc >= cw ? cc - cw + 1 : 0;
}

WINDOW *pane_inputs_cursor(const struct app *a, int *y, int *x)
{
	int p = a->focus, sel = a->sel[p], top = a->top[p];
	const struct pane_rows *rows = &a->rows[p];
	int visible = a->lay.pane[p].h - 1, value_x = LABEL_W + 2;
	int cw = a->lay.pane[p].w - value_x - 1, cc = line_edit_cursor_col(&a->line);

	/* where pane_inputs_draw draws the text: the selected row, when it is shown */
	if (!app_pane(a, p)->rows || sel < top || sel - top >= visible || sel >= rows->n ||
	    rows->r[sel].kind != ROW_FIELD || !app_editing(a, rows->r[sel].f))
		return NULL;
	*y = sel - top + 1;
	*x = value_x + cc - edit_offset(cc, cw);
	return a->w_pane[p];
}

void pane_inputs_draw(struct app *a, const struct view_ops *ops, WINDOW *w)
{
	int pane = ops->pane;
	const struct pane_rows *rows = &a->rows[pane];
	int height = getmaxy(w), width = getmaxx(w);
	int visible = height - 1, top = a->top[pane];
	bool focus = a->focus == pane;
	char right[32] = "";
	int value_x = LABEL_W + 2;

	werase(w);
	if (top > 0 || top + visible < rows->n)
		snprintf(right, sizeof(right), "%s%s %d/%d", top > 0 ? a->theme.g->more_up : " ",
			 top + visible < rows->n ? a->theme.g->more_down : " ", a->sel[pane] + 1,
			 rows->n);
	draw_header(a, w, pane, ops->title, right);
	for (int i = 0; i < visible && top + i < rows->n; i++) {
		const struct pane_row *r = &rows->r[top + i];
		int y = i + 1;
		bool selected = focus && a->sel[pane] == top + i && app_selection_shown(a);
		char v[LINE_EDIT_MAX + 32];
		int role;

		if (r->kind == ROW_HEADING) {
			draw_textf(a, w, y, 1, width - 1, ROLE_HEADER, "%s", r->label);
			continue;
		}
		if (selected) {
			wattrset(w, a->theme.attr[ROLE_SELECTED]);
			mvwhline(w, y, 0, ' ', width);
			wattrset(w, A_NORMAL);
		}
		draw_textf(a, w, y, 1, LABEL_W, selected ? ROLE_SELECTED : ROLE_LABEL, "%s",
			   r->label);
		if (r->kind == ROW_INFO) {
			if (ops->info)
				ops->info(a, w, y, value_x, width - value_x - 1, r->info);
			continue;
		}
		if (selected && app_editing(a, r->f)) {
			int cw = width - value_x - 1, cc = line_edit_cursor_col(&a->line);
			/* scroll the text so the cursor stays in view (pane_inputs_cursor) */
			int off = edit_offset(cc, cw);
			role = a->edit_error ? ROLE_ERROR : ROLE_EDIT;
			wattrset(w, a->theme.attr[role]);
			mvwhline(w, y, value_x, ' ', cw);
			wattrset(w, A_NORMAL);
			{
				const char *s = a->line.buf;
				for (int k = 0; k < off && *s; k++) {
					s++;
					while ((*s & 0xc0) == 0x80)
						s++;
				}
				draw_text(a, w, y, value_x, cw, role, s);
			}
			continue;
		}
		value_text(a, r->f, v, sizeof(v));
		if (app_field_problem(a, r->f)) {
			/* a value that cannot go with the others: marked beside the field, the
			 * problem itself on the status line when the field is selected */
			draw_text(a, w, y, LABEL_W + 1, 1, ROLE_WARN, "!");
			role = selected ? ROLE_SELECTED : ROLE_WARN;
		} else if (selected)
			role = ROLE_SELECTED;
		else if (!scenario_field_equal(&a->scn, &a->saved, r->f))
			role = ROLE_CHANGED;
		else
			role = ROLE_VALUE;
		draw_text_clip(a, w, y, value_x, width - value_x - 1, role, v);
	}
	wnoutrefresh(w);
}

/* Appends a row, unless the pane is full. */
static void rows_push(struct pane_rows *out, enum row_kind kind, const struct field *f,
		      const char *label, int info)
{
	if (out->n >= PANE_MAX_ROWS)
		return;
	out->r[out->n].kind = kind;
	out->r[out->n].f = f;
	out->r[out->n].label = label;
	out->r[out->n].info = info;
	out->n++;
}

/* Appends a field row for key when it exists and applies to the scenario's workload. */
void pane_rows_add(const struct app *a, struct pane_rows *out, const char *key, const char *label)
{
	const struct field *f = scenario_field_find(key);

	if (f && scenario_field_applies(&a->scn, f))
		rows_push(out, ROW_FIELD, f, label, 0);
}

void pane_rows_other(struct pane_rows *out, enum row_kind kind, const char *label, int info)
{
	rows_push(out, kind, NULL, label, info);
}

void pane_rows_picker(const struct app *a, struct pane_rows *out, enum field_pane pane,
		      const char *label, int info)
{
	out->n = 0;
	for (const struct field *f = NULL; (f = scenario_pane_next(pane, f));) {
		if (!scenario_field_shown(&a->scn, f))
			continue;
		pane_rows_add(a, out, f->key, f->label);
		if (f->catalog != FIELD_CATALOG_NONE)
			pane_rows_other(out, ROW_INFO, label, info);
	}
}

const struct field *pane_inputs_field(const struct app *a)
{
	const struct pane_rows *r = &a->rows[a->focus];

	if (a->sel[a->focus] < 0 || a->sel[a->focus] >= r->n)
		return NULL;
	if (r->r[a->sel[a->focus]].kind != ROW_FIELD)
		return NULL;
	return r->r[a->sel[a->focus]].f;
}

const char *pane_inputs_selected_key(const struct app *a)
{
	const struct field *f = pane_inputs_field(a);
	return f ? f->key : NULL;
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

	if (visible <= 0)
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

/* Rebuilds the rows (the workload kind decides which fields show), keeping the selection on
 * the same field when it is still there. */
void pane_inputs_recalc(struct app *a, const struct view_ops *v)
{
	int p = v->pane, keep = -1;
	struct pane_rows *r = &a->rows[p];
	const struct field *was = a->sel[p] < r->n ? r->r[a->sel[p]].f : NULL;

	v->rows(a, r);
	for (int i = 0; was && i < r->n; i++)
		if (r->r[i].f == was)
			keep = i;
	select_row(a, p, keep >= 0 ? keep : a->sel[p], 1);
	scroll_to_selection(a, p);
}

unsigned pane_inputs_move(struct app *a, int delta)
{
	int p = a->focus, start = a->sel[p] + delta;
	const struct pane_rows *r = &a->rows[p];

	/* skip headings and info lines in the direction of travel */
	if (start >= 0 && start < r->n)
		select_row(a, p, start, delta > 0 ? 1 : -1);
	else
		select_row(a, p, start, delta > 0 ? -1 : 1);
	scroll_to_selection(a, p);
	return DIRTY_DRAW;
}

int pane_page_step(const struct app *a)
{
	int visible = a->lay.pane[a->focus].h - 1;
	return visible > 2 ? visible - 1 : 1;
}

/* PgUp/PgDn: the rows scroll with the selection, which keeps its place on the screen (the
 * selection used to move while the rows stayed). */
unsigned pane_inputs_page(struct app *a, int dir)
{
	int p = a->focus, visible = a->lay.pane[p].h - 1, step = pane_page_step(a);
	int max_top = a->rows[p].n - visible;

	a->top[p] += dir * step;
	if (a->top[p] > max_top)
		a->top[p] = max_top;
	if (a->top[p] < 0)
		a->top[p] = 0;
	return pane_inputs_move(a, dir * step);
}
