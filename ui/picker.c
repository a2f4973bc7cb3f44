/* picker.c - the preset picker: the catalog's models or GPUs, filtered as you type. */
#include "app.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "model.h"

/* Case-insensitive substring test. */
static bool contains(const char *hay, const char *needle)
{
	size_t n = strlen(needle);

	if (!n)
		return true;
	for (; *hay; hay++) {
		size_t i = 0;
		while (i < n && hay[i] &&
		       tolower((unsigned char)hay[i]) == tolower((unsigned char)needle[i]))
			i++;
		if (i == n)
			return true;
	}
	return false;
}

void picker_filter(struct app *a)
{
	struct picker *pk = &a->pick;
	const char *current =
	    pk->kind == PICK_MODEL ? a->edit_base.model.preset : a->edit_base.hardware.gpu.id;
	int total = pk->kind == PICK_MODEL ? a->cat->nmodels : a->cat->ngpus;

	pk->n = 0;
	pk->sel = 0;
	for (int i = 0; i < total; i++) {
		const char *id = pk->kind == PICK_MODEL ? a->cat->models[i].id : a->cat->gpus[i].id;
		const char *name = pk->kind == PICK_MODEL ? "" : a->cat->gpus[i].name;
		if (!contains(id, pk->filter.buf) && !contains(name, pk->filter.buf))
			continue;
		if (strcmp(id, current) == 0 && !pk->filter.buf[0])
			pk->sel = pk->n;
		pk->idx[pk->n++] = i;
	}
	pk->top = 0;
}

void picker_open(struct app *a, const struct field *f)
{
	a->pick.kind = f->catalog == FIELD_CATALOG_MODELS ? PICK_MODEL : PICK_GPU;
	a->pick.field = f;
	line_edit_set(&a->pick.filter, "");
	picker_filter(a);
	a->mode = MODE_PICK;
	app_status(a, false, "choose a %s: type to filter",
		   a->pick.kind == PICK_MODEL ? "model" : "GPU");
}

/* The popup covers the body (rows - 3) less its frame, the filter and the heading. */
int picker_visible(const struct app *a)
{
	int visible = a->lay.rows - 3 - 4;
	return visible > 1 ? visible : 1;
}

void picker_draw(struct app *a, const struct view_ops *v, WINDOW *w)
{
	struct picker *pk = &a->pick;
	int height = getmaxy(w), width = getmaxx(w), visible = height - 4;
	char line[160];

	(void)v;
	snprintf(line, sizeof(line), "Choose a %s (%d of %d)",
		 pk->kind == PICK_MODEL ? "model" : "GPU", pk->n,
		 pk->kind == PICK_MODEL ? a->cat->nmodels : a->cat->ngpus);
	draw_frame(a, w, line);
	draw_textf(a, w, 1, 2, width - 4, ROLE_LABEL, "filter: ");
	draw_text(a, w, 1, 10, width - 12, ROLE_EDIT, pk->filter.buf);
	if (pk->kind == PICK_MODEL)
		snprintf(line, sizeof(line), "%-22s %9s %9s %6s %8s", "id", "params", "active",
			 "layers", "context");
	else
		snprintf(line, sizeof(line), "%-18s %7s %10s %8s %6s  %s", "id", "memory",
			 "bandwidth", "bf16", "$/h", "name");
	draw_text(a, w, 2, 2, width - 4, ROLE_HEADER, line);
	if (visible < 1)
		visible = 1;
	if (pk->sel < pk->top)
		pk->top = pk->sel;
	if (pk->sel >= pk->top + visible)
		pk->top = pk->sel - visible + 1;
	for (int i = 0; i < visible && pk->top + i < pk->n; i++) {
		int k = pk->idx[pk->top + i];
		bool sel = pk->top + i == pk->sel;
		if (pk->kind == PICK_MODEL) {
			const struct catalog_model *cm = &a->cat->models[k];
			struct model m;
			struct model_params mp;
			char total[24], active[24], ctx[24];
			model_resolve(&cm->model, &m, NULL);
			model_count_params(&m, &mp);
			units_format_human(UNIT_COUNT, mp.total, 3, total, sizeof(total));
			units_format_human(UNIT_COUNT, mp.active, 3, active, sizeof(active));
			/* contexts are powers of two and read as such: 4k, 128k, not 4.1k */
			if (m.max_context > 0 && m.max_context % 1024 == 0)
				snprintf(ctx, sizeof(ctx), "%dk", m.max_context / 1024);
			else
				units_format_human(UNIT_COUNT, m.max_context, 3, ctx, sizeof(ctx));
			snprintf(line, sizeof(line), "%-22s %9s %9s %6d %8s", cm->id, total, active,
				 m.layers, ctx);
		} else {
			const struct gpu *g = &a->cat->gpus[k];
			char mem[24], bw[24];
			units_format_human(UNIT_BYTES, g->memory_bytes, 3, mem, sizeof(mem));
			units_format_human(UNIT_BYTES_PER_S, g->hbm_bytes_per_s, 3, bw, sizeof(bw));
			char tf[24];
			if (g->peak_flops[DTYPE_BF16] > 0)
				units_format_tflops(g->peak_flops[DTYPE_BF16], tf, sizeof(tf));
			else
				snprintf(tf, sizeof(tf), "-");
			snprintf(line, sizeof(line), "%-18s %7s %10s %8s %6.2f  %s", g->id, mem, bw,
				 tf, g->price_per_hour, g->name);
		}
		if (sel) {
			wattrset(w, a->theme.attr[ROLE_SELECTED]);
			mvwhline(w, 3 + i, 1, ' ', width - 2);
			wattrset(w, A_NORMAL);
		}
		draw_text(a, w, 3 + i, 2, width - 4, sel ? ROLE_SELECTED : ROLE_NORMAL, line);
	}
	if (pk->n == 0)
		draw_text(a, w, 3, 2, width - 4, ROLE_DIM, "nothing matches");
	wnoutrefresh(w);
}

/* The picker covers the body's first 80 columns. */
static void picker_place(struct app *a, struct rect body, struct rect *r)
{
	(void)a;
	*r = (struct rect){.y = body.y, .x = 0, .h = body.h, .w = body.w < 80 ? body.w : 80};
}

/* In the filter, where picker_draw writes it. */
static WINDOW *picker_cursor(const struct app *a, int *y, int *x)
{
	*y = 1;
	*x = 10 + line_edit_cursor_col(&a->pick.filter);
	return a->w_popup;
}

const struct view_ops picker_view = {
    .flags = VIEW_HIDES_SELECTION | VIEW_STATUS_ONE_LINE,
    .key = app_pick_key,
    .draw = picker_draw,
    .place = picker_place,
    .cursor = picker_cursor,
    VIEW_OPS("picker", KC_PICK),
};
