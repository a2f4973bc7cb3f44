/* pane.c - the input panes' common drawing: a header, then label/value rows that scroll. */
#include "app.h"

#include <stdio.h>
#include <string.h>

#define LABEL_W 15

static const char *const pane_titles[PANE_COUNT] = {"Model", "Workload", "Hardware", "Results"};

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
			/* batch auto with an SLO: decode runs at the largest batch meeting it,
			 * the KV cache is sized for the most that fit (as vLLM preallocates) */
			if (app_slo_batch(a, f) > 0) {
				char m[48];
				units_format_human(UNIT_COUNT, app_slo_batch(a, f), 4, m,
						   sizeof(m));
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

const char *pane_value_cut(const struct app *a, const struct field *f, char *buf, size_t size)
{
	char v[LINE_EDIT_MAX + 32];
	int room;

	if (!f || a->focus >= PANE_RESULTS)
		return NULL;
	room = a->lay.pane[a->focus].w - (LABEL_W + 2) - 1;
	value_text(a, f, v, sizeof(v));
	if (text_width(v) <= room)
		return NULL;
	snprintf(buf, size, "%s = %s", f->key, v);
	return buf;
}

void pane_inputs_draw(struct app *a, int pane, WINDOW *w)
{
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
	draw_header(a, w, pane, pane_titles[pane], right);
	for (int i = 0; i < visible && top + i < rows->n; i++) {
		const struct pane_row *r = &rows->r[top + i];
		int y = i + 1;
		bool selected = focus && a->sel[pane] == top + i && a->mode != MODE_PICK;
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
			if (pane == PANE_MODEL)
				pane_model_info(a, w, y, value_x, width - value_x - 1, r->info);
			else if (pane == PANE_HARDWARE)
				pane_hardware_info(a, w, y, value_x, width - value_x - 1, r->info);
			continue;
		}
		if (selected && a->mode == MODE_EDIT && a->edit_field == r->f) {
			int cw = width - value_x - 1, off = 0, cc = line_edit_cursor_col(&a->line);
			/* scroll the text so the cursor stays in view */
			if (cc >= cw)
				off = cc - cw + 1;
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
			a->cur_win = w;
			a->cur_y = y;
			a->cur_x = value_x + cc - off;
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

/* Appends a field row for key when it exists and applies to the scenario's workload. */
void pane_rows_add(const struct app *a, struct pane_rows *out, const char *key, const char *label)
{
	const struct field *f = scenario_field_find(key);

	if (!f || !scenario_field_applies(&a->scn, f) || out->n >= PANE_MAX_ROWS)
		return;
	out->r[out->n].kind = ROW_FIELD;
	out->r[out->n].f = f;
	out->r[out->n].label = label;
	out->r[out->n].info = 0;
	out->n++;
}

void pane_rows_other(struct pane_rows *out, enum row_kind kind, const char *label, int info)
{
	if (out->n >= PANE_MAX_ROWS)
		return;
	out->r[out->n].kind = kind;
	out->r[out->n].f = NULL;
	out->r[out->n].label = label;
	out->r[out->n].info = info;
	out->n++;
}
