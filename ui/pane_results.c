/* pane_results.c - the Results pane: the per-GPU memory bar against capacity with its
 * legend; the three verdicts in judging order (capacity with the headroom, bandwidth and
 * interconnect, compute); time, throughput, latency, cost and energy; the bottleneck bars
 * in the same order with the binding one marked; the warnings; on a taller terminal where
 * the step time goes and the rest of the plan. With a baseline pinned each figure shows
 * its change against it. */
#include "app.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "band.h"
#include "bars.h"
#include "capacity.h"

#include "explain.h"
#include "figure.h"
#include "report.h"

/* The memory parts in the legend's order (the table's FIGURE_PART rows, figure.h). */
static void mem_parts(const struct plan *p, double out[MEM_PARTS])
{
	for (int i = 0; i < MEM_PARTS; i++) {
		const struct figure *f = figure_memory_part(i);
		out[i] = f ? figure_value(f, p) : 0;
	}
}

static const char *mem_part_key(int i)
{
	const struct figure *f = figure_memory_part(i);
	return f ? f->key : "";
}

/* Judging order (seed case 15): capacity, then bandwidth and interconnect, then compute. */
static const enum bottleneck bn_order[BN_COUNT] = {BN_CAPACITY, BN_HBM, BN_INTERCONNECT, BN_COMPUTE,
						   BN_DATA_IO};

/* The figures the pane lists for the workload, in their order (figure.h). Returns how many.
 * The deadline's GPU count has no value without a deadline: left out then, as the text
 * report leaves it out, so a training plan without one keeps its line for the others. */
static int pane_figures(const struct app *a, const struct figure **out)
{
	int n = figure_list(FIGURE_LIST_PANE, a->scn.workload.kind, -1, out, RESULT_MAX_ITEMS),
	    k = 0;

	for (int i = 0; i < n; i++)
		if (out[i]->offset != offsetof(struct plan, gpus_required) ||
		    !isnan(figure_value(out[i], &a->plan)))
			out[k++] = out[i];
	return k;
}

/* Under a load (a scheduler other than alone) three lines after the figures: TTFT and TPOT
 * at P50/P90/P99 and the queue (issue 13), each an item for explain: the figure at the
 * SLO's percentile and the wait. None under scheduler alone. */
/* The serving lines, in order: the TTFT and ITL percentiles, TPOT and TTFT at the SLO's
 * percentile beside their targets (the figures the SLO is judged by, plan_serve.c: a P99
 * ITL above the target is no miss when TPOT at the SLO meets it), and the queue. The short
 * terminal's budget gives them up from the end. */
enum serving_line_kind { SL_TTFT, SL_ITL, SL_TPOT_SLO, SL_TTFT_SLO, SL_QUEUE };
#define SERVING_LINES 5

/* The lines a plan shows (out: their kinds, in order). Returns how many. */
static int serving_kinds(const struct app *a, enum serving_line_kind out[SERVING_LINES])
{
	bool inference = a->scn.workload.kind != WL_TRAIN && a->scn.workload.kind != WL_FINETUNE;
	const struct slo *slo = &a->scn.workload.slo;
	int n = 0;

	if (!inference || isnan(a->plan.serving.scheduler))
		return 0;
	out[n++] = SL_TTFT;
	out[n++] = SL_ITL;
	if (slo->tpot_s > 0)
		out[n++] = SL_TPOT_SLO;
	if (slo->ttft_s > 0)
		out[n++] = SL_TTFT_SLO;
	out[n++] = SL_QUEUE;
	return n;
}

static int serving_lines(const struct app *a)
{
	enum serving_line_kind k[SERVING_LINES];

	return serving_kinds(a, k);
}

/* The item line i stands for: a percentile line explains the figure at the SLO where no
 * line of its own gives that figure, its P99 where one does. */
static const char *serving_key(const struct app *a, int i)
{
	enum serving_line_kind k[SERVING_LINES];
	int n = serving_kinds(a, k);
	const struct slo *slo = &a->scn.workload.slo;

	if (i >= n)
		return NULL;
	switch (k[i]) {
	case SL_TTFT:
		return slo->ttft_s > 0 ? "latency.ttft_p99_s" : "latency.ttft_at_slo_s";
	case SL_ITL:
		return slo->tpot_s > 0 ? "latency.tpot_p99_s" : "latency.tpot_at_slo_s";
	case SL_TPOT_SLO:
		return "latency.tpot_at_slo_s";
	case SL_TTFT_SLO:
		return "latency.ttft_at_slo_s";
	case SL_QUEUE:
		break;
	}
	return "serving.wait_s";
}

/* "118/153/205 ms": the three levels in the unit of the largest (ms below a second);
 * "unbounded" when the queue has no steady state, "-" when a level has no value. */
static void levels_format(const struct plan *p, const double v[3], char *buf, size_t size)
{
	double top = 0, scale;
	size_t len = 0;

	for (int i = 0; i < 3; i++) {
		if (!isfinite(v[i])) {
			snprintf(buf, size, "%s", p->serving.overloaded ? "unbounded" : "-");
			return;
		}
		top = v[i] > top ? v[i] : top;
	}
	scale = top >= 1 ? 1 : 1e3;
	for (int i = 0; i < 3 && len < size; i++) {
		char n[16];
		units_format_num3(v[i] * scale, n, sizeof(n));
		len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? "/" : "", n);
	}
	if (len < size)
		snprintf(buf + len, size - len, " %s", scale == 1 ? "s" : "ms");
}

/* A figure at the SLO's percentile against its target: "47.5 ms ✔ (50 ms)", the mark the
 * verdicts use; met as plan_serve.c judges it (within 1e-9 of the target). */
static void slo_format(const struct app *a, double v, double target, char *buf, size_t size)
{
	const struct glyphs *g = a->theme.g;
	char t[24], n[24];

	units_format_human(UNIT_SECONDS, target, 3, t, sizeof(t));
	if (!isfinite(v)) {
		snprintf(buf, size, "%s %s (%s)", a->plan.serving.overloaded ? "unbounded" : "-",
			 g->bad, t);
		return;
	}
	units_format_human(UNIT_SECONDS, v, 3, n, sizeof(n));
	snprintf(buf, size, "%s %s (%s)", n, v <= target * (1 + 1e-9) ? g->ok : g->bad, t);
}

/* Line i of serving_lines: its label and its value. */
static void serving_line(const struct app *a, int i, char *label, size_t lsize, char *v,
			 size_t size)
{
	const struct plan_serving *sv = &a->plan.serving;
	const struct slo *slo = &a->scn.workload.slo;
	enum serving_line_kind k[SERVING_LINES];
	char u[24], wt[24];

	serving_kinds(a, k);
	switch (k[i]) {
	case SL_TTFT:
	case SL_ITL:
		snprintf(label, lsize, "%s", k[i] == SL_TTFT ? "ttft p50/90/99" : "itl p50/90/99");
		levels_format(&a->plan, k[i] == SL_TTFT ? sv->ttft : sv->tpot, v, size);
		return;
	case SL_TPOT_SLO:
	case SL_TTFT_SLO:
		snprintf(label, lsize, "%s@p%g", k[i] == SL_TPOT_SLO ? "tpot" : "ttft",
			 isfinite(sv->slo_percentile) ? sv->slo_percentile : 99);
		if (k[i] == SL_TPOT_SLO)
			slo_format(a, sv->tpot_slo_s, slo->tpot_s, v, size);
		else
			slo_format(a, sv->ttft_slo_s, slo->ttft_s, v, size);
		return;
	case SL_QUEUE:
		break;
	}
	snprintf(label, lsize, "queue");
	/* the offered load (figure.c, FIGURE_FMT_LOAD): a share up to 1, "load 15.2x" when
	 * the arrivals outrun the replica: then the report's word first, which a narrow pane
	 * keeps ("overloaded, load 15.2x", the report's "overloaded (offered load 15.2x)") */
	figure_format_short(figure_find("serving.utilisation"), &a->plan, u, sizeof(u));
	if (sv->utilisation > 1 + 1e-9)
		snprintf(v, size, "overloaded, %s", u);
	else if (sv->overloaded)
		snprintf(v, size, "util %s, unbounded", u);
	else {
		units_format_human(UNIT_SECONDS, sv->wait_s, 3, wt, sizeof(wt));
		snprintf(v, size, "util %s, wait %s", u, wt);
	}
}

bool pane_results_invalid(const struct app *a)
{
	return a->problems.count > 0;
}

const char *pane_results_fit(const struct app *a)
{
	if (pane_results_invalid(a))
		return "does not check";
	return a->plan.mem.fits ? "fits" : "does not fit";
}

/* The key an item of the problems list stands for: the field at fault, which e explains
 * (a problem that names no field, such as a missing model, has none). */
static const char *problem_key(const struct gp_error *e)
{
	return e->field[0] ? e->field : "problems";
}

/* The items the selection moves through (a->result_keys), for the plan just computed. */
static void results_items(struct app *a)
{
	const struct figure *figs[RESULT_MAX_ITEMS];
	struct explain_verdict vd[EXPLAIN_VERDICTS];
	double parts[MEM_PARTS];
	int n = 0, nfig = pane_figures(a, figs);

	if (pane_results_invalid(a)) {
		/* a scenario `gpuplan check` rejects has no plan to show: its problems are the
		 * items */
		for (int i = 0; i < a->problems.count && n < RESULT_MAX_ITEMS; i++)
			a->result_keys[n++] = problem_key(&a->problems.items[i]);
		a->nresult_items = n;
		return;
	}
	mem_parts(&a->plan, parts);
	a->result_keys[n++] = "memory.per_gpu.total";
	/* the parts the legend shows, in its order */
	for (int i = 0; i < MEM_PARTS; i++)
		if (parts[i] > 0)
			a->result_keys[n++] = mem_part_key(i);
	explain_verdicts(&a->plan, vd);
	for (int i = 0; i < EXPLAIN_VERDICTS; i++)
		a->result_keys[n++] = vd[i].key;
	for (int i = 0; i < nfig && n < RESULT_MAX_ITEMS; i++)
		a->result_keys[n++] = figs[i]->key;
	for (int i = 0; i < serving_lines(a) && n < RESULT_MAX_ITEMS; i++)
		a->result_keys[n++] = serving_key(a, i);
	for (int b = 0; b < BN_COUNT && n < RESULT_MAX_ITEMS; b++)
		a->result_keys[n++] = figure_bottleneck(bn_order[b])->key;
	/* the warnings, one item (the report's key): the pane clips them, the status line and
	 * Enter give them whole */
	if (a->plan.nwarnings > 0 && n < RESULT_MAX_ITEMS)
		a->result_keys[n++] = "warnings";
	a->nresult_items = n;
}

const char *pane_results_verdict(const struct app *a, const char *key, char *buf, size_t size)
{
	struct explain_verdict vd[EXPLAIN_VERDICTS];

	if (strcmp(key, "warnings") == 0 && a->plan.nwarnings > 0) {
		size_t len = 0;
		if (a->plan.nwarnings > 1)
			len = (size_t)snprintf(
			    buf, size, "%d warnings (Enter lists them): ", a->plan.nwarnings);
		for (int i = 0; i < a->plan.nwarnings && len < size; i++) {
			char msg[256];
			plan_warning_format(&a->plan.warnings[i], msg, sizeof(msg));
			len +=
			    (size_t)snprintf(buf + len, size - len, "%s%s", i ? "; " : "! ", msg);
		}
		return buf;
	}
	explain_verdicts(&a->plan, vd);
	for (int i = 0; i < EXPLAIN_VERDICTS; i++) {
		if (strcmp(key, vd[i].key) != 0)
			continue;
		snprintf(buf, size, "%s: %s", vd[i].topic, vd[i].text);
		return buf;
	}
	return NULL;
}

void pane_results_value(const struct app *a, const char *key, char *buf, size_t size)
{
	const struct figure *f = figure_find(key);

	buf[0] = '\0';
	if (f)
		figure_format_short(f, &a->plan, buf, size);
}

static bool item_selected(const struct app *a, const char *key)
{
	return a->focus == PANE_RESULTS && app_selection_shown(a) && a->nresult_items &&
	       strcmp(a->result_keys[a->sel[PANE_RESULTS]], key) == 0;
}

/* The bits of pane_results_shown that stand for key. */
static unsigned item_bits(const struct app *a, const char *key)
{
	unsigned bits = 0;

	for (int i = 0; i < a->nresult_items; i++)
		if (strcmp(a->result_keys[i], key) == 0)
			bits |= 1u << i;
	return bits;
}

const char *pane_results_hidden(const struct app *a, const char *key, char *buf, size_t size)
{
	const struct rect *r = &a->lay.pane[PANE_RESULTS];
	unsigned shown = pane_results_shown(a, r->h, r->w);
	char v[64];

	for (int i = 0; i < a->nresult_items; i++) {
		if (strcmp(a->result_keys[i], key) != 0 || (shown & (1u << i)))
			continue;
		pane_results_value(a, key, v, sizeof(v));
		if (!v[0])
			return NULL;
		snprintf(buf, size, "%s = %s", key, v);
		return buf;
	}
	return NULL;
}

bool pane_results_band(const struct app *a, const char *key, char *mark, size_t msize, char *why,
		       size_t wsize)
{
	const struct figure *f = figure_find(key);
	double x = f ? figure_value(f, &a->plan) : NAN;
	struct band b;

	if (!isfinite(x) || !band_lookup(&a->scn, key, x, &b))
		return false;
	if (mark && msize) {
		const char *pm = a->theme.g ? a->theme.g->plusminus : "+-";
		if (b.validated)
			snprintf(mark, msize, "%s%.0f%%", pm, 100 * b.pct);
		else
			snprintf(mark, msize, "%s?", pm);
	}
	if (why && wsize)
		band_describe(&b, why, wsize);
	return true;
}

/* The change of now against then, with an up or down mark coloured by whether it is an
 * improvement: "▲ 12%". Nothing when there is no baseline or no change. */
static void draw_delta(struct app *a, WINDOW *w, int y, int x, int width, double now, double then,
		       int better)
{
	const struct glyphs *g = a->theme.g;
	double rel;
	char n[32];
	int role;

	if (!a->has_baseline || !isfinite(now) || !isfinite(then) || now == then || width < 1)
		return;
	role = (now > then) == (better > 0) ? ROLE_GOOD : ROLE_BAD;
	/* a narrow pane: the mark alone, the value keeps its room */
	if (width >= 4 && then != 0 && fabs(rel = (now - then) / fabs(then)) < 100) {
		units_format_num3(fabs(rel) * 100, n, sizeof(n));
		draw_textf(a, w, y, x, width, role, "%s%s%%", now > then ? g->up : g->down, n);
	} else {
		draw_textf(a, w, y, x, width, role, "%s", now > then ? g->up : g->down);
	}
}

/* The selected row's background across the pane (nothing when not selected). */
static void row_highlight(struct app *a, WINDOW *w, int y, int width, bool sel)
{
	if (!sel)
		return;
	wattrset(w, a->theme.attr[ROLE_SELECTED]);
	mvwhline(w, y, 1, ' ', width - 1);
	wattrset(w, A_NORMAL);
}

/* One "label  value  change" line; the selected item drawn selected. */
static void draw_figure(struct app *a, WINDOW *w, int y, const char *key, const char *label,
			const char *value, double now, double then, int better)
{
	int width = getmaxx(w);
	bool sel = item_selected(a, key);
	int vx = 15, dx = a->has_baseline ? width - 7 : width;

	/* a narrow pane (64 columns) with a baseline: the change as its mark alone when the
	 * value would be cut for its percentage */
	if (a->has_baseline && text_width(value) > dx - vx - 1)
		dx = width - 3;
	row_highlight(a, w, y, width, sel);
	draw_text(a, w, y, 2, vx - 3, sel ? ROLE_SELECTED : ROLE_LABEL, label);
	draw_text(a, w, y, vx, dx - vx - 1, sel ? ROLE_SELECTED : ROLE_VALUE, value);
	/* the error band after the value when it fits whole ("1.19 min ±11%"); the status line
	 * says where it comes from while the figure is selected */
	{
		char mark[24];
		int bx = vx + text_width(value) + 1;
		if (pane_results_band(a, key, mark, sizeof(mark), NULL, 0) &&
		    bx + text_width(mark) <= dx - 1)
			draw_text(a, w, y, bx, text_width(mark), sel ? ROLE_SELECTED : ROLE_DIM,
				  mark);
	}
	draw_delta(a, w, y, dx, width - dx, now, then, better);
}

/* A serving line: its label and its value after it (in the figures' column when the label
 * leaves room), cut when narrow. */
static void serving_line_draw(struct app *a, WINDOW *w, int y, const char *key, const char *label,
			      const char *value)
{
	int width = getmaxx(w), vx = text_width(label) + 3 > 15 ? text_width(label) + 3 : 15;
	bool sel = item_selected(a, key);

	row_highlight(a, w, y, width, sel);
	draw_text(a, w, y, 2, vx - 3, sel ? ROLE_SELECTED : ROLE_LABEL, label);
	draw_text_clip(a, w, y, vx, width - vx - 1, sel ? ROLE_SELECTED : ROLE_VALUE, value);
}

static void draw_memory_bar(struct app *a, WINDOW *w, int y, int x, int width)
{
	const struct plan_memory *m = &a->plan.mem;
	const struct glyphs *g = a->theme.g;
	double parts[MEM_PARTS];
	double scale = m->capacity > m->total ? m->capacity : m->total;
	int cells[MEM_PARTS], filled, cap_at = -1, cx = x;

	mem_parts(&a->plan, parts);
	filled = bars_stack(parts, MEM_PARTS, scale, width, cells);
	if (m->total > m->capacity && m->capacity > 0)
		cap_at = bars_marker(m->capacity, scale, width);
	for (int i = 0; i < MEM_PARTS; i++) {
		wattrset(w, a->theme.attr[ROLE_MEM_WEIGHTS + i]);
		for (int c = 0; c < cells[i]; c++, cx++)
			mvwaddstr(w, y, cx, cx - x == cap_at ? g->over : g->mem_part[i]);
	}
	wattrset(w, a->theme.attr[ROLE_MEM_FREE]);
	for (int c = filled; c < width; c++, cx++)
		mvwaddstr(w, y, cx, g->mem_free);
	wattrset(w, A_NORMAL);
}

/* One pass of the legend with names: each part's glyph then its name and size, flowing over
 * at most max_lines lines; draws only when w is not NULL, and adds the parts placed to
 * *shown when shown is not NULL. When they do not all fit, the smallest parts are left out
 * (never the largest, which is most often why a plan does not fit); the others keep the
 * legend's order. Returns the parts left out (0 when all fit) and sets *lines to the lines
 * used. */
static int memory_legend_pass(const struct app *a, WINDOW *w, int y, int x, int width, bool tiny,
			      int max_lines, int *lines, unsigned *shown)
{
	double parts[MEM_PARTS];
	bool in[MEM_PARTS];
	int left = 0;

	mem_parts(&a->plan, parts);
	for (int i = 0; i < MEM_PARTS; i++)
		in[i] = parts[i] > 0;
	/* measure the parts still in; while they overflow, leave out the smallest; then draw */
	for (bool draw = false;;) {
		int cx = x, line = 0;
		bool over = false;
		for (int i = 0; i < MEM_PARTS && !over; i++) {
			const struct figure *f = figure_memory_part(i);
			char v[32], item[64];
			int iw;
			if (!in[i])
				continue;
			units_format_compact(UNIT_BYTES, parts[i], v, sizeof(v));
			snprintf(item, sizeof(item), "%s %s", tiny ? f->tiny_label : f->short_label,
				 v);
			iw = 1 + text_width(item) + 1;
			if (cx + iw - 1 > x + width && cx > x) {
				if (++line >= max_lines) {
					over = true;
					break;
				}
				cx = x;
			}
			if (draw && shown)
				*shown |= item_bits(a, f->key);
			if (draw && w) {
				wattrset(w, a->theme.attr[ROLE_MEM_WEIGHTS + i]);
				mvwaddstr(w, y + line, cx, a->theme.g->mem_part[i]);
				wattrset(w, A_NORMAL);
				draw_text((struct app *)a, w, y + line, cx + 1, x + width - cx - 1,
					  item_selected(a, f->key) ? ROLE_SELECTED : ROLE_LABEL,
					  item);
			}
			cx += iw;
		}
		if (!over) {
			if (draw) {
				*lines = line + 1;
				return left;
			}
			draw = true;
			continue;
		}
		{
			int smallest = -1;
			for (int i = 0; i < MEM_PARTS; i++)
				if (in[i] && (smallest < 0 || parts[i] < parts[smallest]))
					smallest = i;
			in[smallest] = false;
			left++;
		}
	}
}

/* The legend flows over as many lines as it needs (at most max_lines); when the parts do not
 * all fit with their names (five parts of a training plan at 80 columns), with shorter ones,
 * so that the parts shown add up to the total whenever there is room for them all. With w
 * NULL it only measures; shown as memory_legend_pass's. Returns the lines used. */
static int draw_memory_legend(const struct app *a, WINDOW *w, int y, int x, int width,
			      int max_lines, unsigned *shown)
{
	int lines;
	bool tiny = memory_legend_pass(a, NULL, y, x, width, false, max_lines, &lines, NULL) != 0;

	memory_legend_pass(a, w, y, x, width, tiny, max_lines, &lines, shown);
	return lines;
}

static void draw_bottleneck(struct app *a, WINDOW *w, int y, int b)
{
	const struct glyphs *g = a->theme.g;
	int width = getmaxx(w), bx = 15, bw = width - bx - 8;
	double share = a->plan.shares[b];
	bool binding = a->plan.binding == (enum bottleneck)b;
	const char *key = figure_bottleneck((enum bottleneck)b)->key;
	bool sel = item_selected(a, key);
	char pct[16];

	row_highlight(a, w, y, width, sel);
	draw_text(a, w, y, 2, bx - 3,
		  sel	    ? ROLE_SELECTED
		  : binding ? ROLE_BINDING
			    : ROLE_LABEL,
		  figure_bottleneck_short((enum bottleneck)b));
	if (bw < 4)
		return;
	draw_bar(a, w, y, bx, bw, isfinite(share) ? share : 0, binding ? ROLE_BINDING : ROLE_BAR);
	units_format_share(share, pct, sizeof(pct)); /* five columns, then times over */
	draw_text(a, w, y, bx + bw + 1, 5, sel ? ROLE_SELECTED : ROLE_VALUE, pct);
	if (binding)
		draw_text(a, w, y, bx + bw + 6, 2, ROLE_BINDING, g->binding);
}

/* Where a step's time goes, then layout, compute and reliability figures. */
/* One line of the plan's details: cut with an ellipsis when the pane is narrow. */
static void detail_line(struct app *a, WINDOW *w, int y, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void detail_line(struct app *a, WINDOW *w, int y, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	draw_text_clip(a, w, y, 2, getmaxx(w) - 3, ROLE_LABEL, buf);
}

static void draw_details(struct app *a, WINDOW *w, int y, int height)
{
	const struct plan *p = &a->plan;
	int width = getmaxx(w);
	double sum = 0;
	char v[64], v2[64];
	bool training = a->scn.workload.kind == WL_TRAIN || a->scn.workload.kind == WL_FINETUNE;

	/* the step's parts (time.parts), which add up to step_s: in inference tpot, the
	 * loaded steps' prompt share, the weight read past the GEMMs and the fixed part
	 * included (plan_serve.c pt_decode_terms) */
	for (unsigned i = 0; i < PLAN_PARTS; i++) {
		double t = figure_value(figure_time_part((int)i), p);
		if (isfinite(t) && t > 0)
			sum += t;
	}
	/* a heading only with room for a line under it: none left alone on the pane's last */
	if (sum > 0 && y + 1 < height) {
		draw_text(a, w, y++, 2, width - 3, ROLE_HEADER,
			  training ? "step time by part" : "decode step (tpot) by part");
		for (unsigned i = 0; i < PLAN_PARTS && y < height; i++) {
			double t = figure_value(figure_time_part((int)i), p);
			if (!isfinite(t) || t <= 0)
				continue;
			units_format_human(UNIT_SECONDS, t, 3, v, sizeof(v));
			units_format_percent(t / sum, 0, v2, sizeof(v2));
			draw_text(a, w, y, 2, 12, ROLE_LABEL,
				  figure_time_part((int)i)->short_label);
			draw_textf(a, w, y++, 15, width - 16, ROLE_VALUE, "%-10s %4s", v, v2);
		}
	}
	if (y + 2 < height) {
		y++;
		draw_text(a, w, y++, 2, width - 3, ROLE_HEADER, "plan");
		{
			struct parallel par = {
			    .tp = p->tp, .pp = p->pp, .dp = p->dp, .ep = p->ep, .cp = p->cp};
			char lay[96];
			units_format_layout(&par, UNITS_LAYOUT_PANE, training, lay, sizeof(lay));
			detail_line(a, w, y++, "layout       %s", lay);
		}
		if (y < height) { /* the error band of the step or tpot (band.h) */
			struct band bd;
			char why[256];
			double x = training ? p->step_s : p->tpot_s;
			if (isfinite(x) &&
			    band_lookup(&a->scn, training ? "time.step_s" : "latency.tpot_s", x,
					&bd)) {
				band_describe(&bd, why, sizeof(why));
				detail_line(a, w, y++, "trust        %s %s",
					    training ? "step" : "tpot", why);
			}
		}
		if (y < height && training)
			detail_line(a, w, y++,
				    "batch        %d sequence%s, %d micro-batch%s, zero %d",
				    p->global_batch, p->global_batch == 1 ? "" : "s",
				    p->micro_batches, p->micro_batches == 1 ? "" : "es", p->zero);
		if (y < height && isfinite(p->flops_per_token)) {
			units_format_human(UNIT_COUNT, p->flops_per_token, 3, v, sizeof(v));
			units_format_human(UNIT_FLOPS, p->peak_flops, 3, v2, sizeof(v2));
			detail_line(a, w, y++, "compute      %s FLOP/token, peak %s", v, v2);
		}
		if (y < height && p->mem.host > 0) {
			units_format_human(UNIT_BYTES, p->mem.host, 3, v, sizeof(v));
			detail_line(a, w, y++, "host memory  %s per GPU", v);
		}
		if (y < height && training && isfinite(p->goodput) && p->goodput > 0) {
			/* the report's figures as it writes them (figure_format): 1.46, 99.6%;
			 * the checkpoint interval last, which a narrow pane cuts first */
			char n[64];
			figure_format(figure_find("reliability.expected_interruptions"),
				      p->expected_interruptions, n, sizeof(n));
			units_format_human(UNIT_SECONDS, p->checkpoint_interval_s, 3, v, sizeof(v));
			figure_format(figure_find("reliability.goodput"), p->goodput, v2,
				      sizeof(v2));
			detail_line(
			    a, w, y++,
			    "reliability  %s interruptions, goodput %s, checkpoint every %s", n, v2,
			    v);
		}
	}
}

/* How many lines each part of the pane gets. A short terminal (80x18 in tmux over SSH)
 * gives up, in this order: the legend's second line, the bottleneck bars that do not bind,
 * the legend, the verdicts (compute, then bandwidth, then capacity: the header keeps the fit),
 * the figures after the first (step time, or ttft), and the bar. The memory total, the fit,
 * the step time and the binding bottleneck stay. */
struct results_budget {
	int bar, legend, verdicts, figures, bottlenecks, serving;
};

static void results_budget(const struct app *a, int avail, int inner, struct results_budget *b)
{
	const struct figure *figs[RESULT_MAX_ITEMS];
	int nfig = pane_figures(a, figs);

	b->bar = 1;
	b->legend = draw_memory_legend(a, NULL, 0, 0, inner, 2, NULL);
	b->verdicts = EXPLAIN_VERDICTS;
	b->figures = nfig;
	b->bottlenecks = BN_COUNT;
	b->serving = serving_lines(a);
#define NEED (1 + b->bar + b->legend + b->verdicts + b->figures + b->bottlenecks + b->serving)
	if (NEED > avail && b->legend > 1)
		b->legend = 1;
	while (NEED > avail && b->bottlenecks > 1)
		b->bottlenecks--;
	if (NEED > avail)
		b->legend = 0;
	/* the queue's line, then the SLO's and the percentiles', before the verdicts */
	while (NEED > avail && b->serving > 0)
		b->serving--;
	while (NEED > avail && b->verdicts > 0)
		b->verdicts--;
	while (NEED > avail && b->figures > 1)
		b->figures--;
	if (NEED > avail)
		b->bar = 0;
#undef NEED
}

/* The bottlenecks n lines list, in judging order: the binding one always among them.
 * Returns how many (n at most). */
static int bottlenecks_listed(const struct app *a, int n, enum bottleneck out[BN_COUNT])
{
	bool binding_in = false;
	int k = 0;

	for (int i = 0; i < n; i++)
		binding_in |= a->plan.binding == bn_order[i];
	for (int i = 0; i < BN_COUNT && k < n; i++) {
		bool binding = a->plan.binding == bn_order[i];
		/* the last line is the binding one's when it would not come in order */
		if (!binding_in && !binding && k == n - 1)
			continue;
		out[k++] = bn_order[i];
	}
	return k;
}

/* The pane's lines, top to bottom: what each shows, where and on how many lines. One
 * layout serves both the drawing (results_draw) and the question of which items have a
 * line (pane_results_shown), so the two cannot disagree; a new kind of line is a row kind
 * here and its function in row_draw[]. */
enum results_row_kind {
	ROW_PROBLEMS,	/* the heading of a scenario that does not check */
	ROW_PROBLEM,	/* one of its problems (i: which) */
	ROW_TOTAL,	/* the memory per GPU against capacity */
	ROW_BAR,	/* the memory bar */
	ROW_LEGEND,	/* its legend, one or two lines */
	ROW_VERDICT,	/* i: the verdict's index, in judging order */
	ROW_FIGURE,	/* fig: time, throughput, latency, cost, energy */
	ROW_SERVING,	/* i: the serving line's index (serving_line) */
	ROW_BOTTLENECK, /* i: the bottleneck */
	ROW_WARNINGS,	/* as many of the warnings as there are lines */
};

struct results_row {
	enum results_row_kind kind;
	int y, lines, i;
	const char *key; /* the item it stands for; NULL for none */
	const struct figure *fig;
};

/* At most: the total, the bar, the legend, a line a verdict, figure, serving line and
 * bottleneck, the warnings (a plan that does not check: fewer). */
#define RESULTS_ROWS (3 + EXPLAIN_VERDICTS + RESULT_MAX_ITEMS + SERVING_LINES + BN_COUNT + 1)

struct results_layout {
	struct results_row row[RESULTS_ROWS];
	int n, y;			     /* y: the first line after the rows */
	int inner, legend_lines, legend_max; /* the legend's lines, and the most it may take */
	bool legend_tiny;
	unsigned legend_shown; /* the parts the legend has room for (draw_memory_legend) */
	struct explain_verdict vd[EXPLAIN_VERDICTS];
};

/* Adds a row of lines lines at the layout's next line when the pane still has one. */
static bool row_add(struct results_layout *l, int height, enum results_row_kind kind, int lines,
		    int i, const char *key)
{
	if (l->y >= height || l->n >= RESULTS_ROWS)
		return false;
	l->row[l->n++] =
	    (struct results_row){.kind = kind, .y = l->y, .lines = lines, .i = i, .key = key};
	l->y += lines;
	return true;
}

static void results_layout(const struct app *a, int height, int width, struct results_layout *l)
{
	const struct figure *figs[RESULT_MAX_ITEMS];
	enum bottleneck bn[BN_COUNT];
	struct results_budget bud;
	int nfig, nbn;

	*l = (struct results_layout){.y = 1, .inner = width - 4};
	if (pane_results_invalid(a)) {
		/* a line of heading, then a problem a line */
		row_add(l, height, ROW_PROBLEMS, 1, 0, NULL);
		for (int i = 0; i < a->nresult_items; i++)
			row_add(l, height, ROW_PROBLEM, 1, i, a->result_keys[i]);
		return;
	}
	results_budget(a, height - 1, l->inner, &bud);
	/* the memory total keeps its line whatever the height */
	l->row[l->n++] = (struct results_row){
	    .kind = ROW_TOTAL, .y = l->y++, .lines = 1, .key = "memory.per_gpu.total"};
	if (bud.bar)
		row_add(l, height, ROW_BAR, 1, 0, NULL);
	if (bud.legend && l->y < height) {
		l->legend_max = bud.legend;
		/* as draw_memory_legend: short names when the long ones leave parts out; kept,
		 * so that drawing the legend measures it no more */
		l->legend_tiny = memory_legend_pass(a, NULL, l->y, 2, l->inner, false, bud.legend,
						    &l->legend_lines, NULL) != 0;
		memory_legend_pass(a, NULL, l->y, 2, l->inner, l->legend_tiny, bud.legend,
				   &l->legend_lines, &l->legend_shown);
		row_add(l, height, ROW_LEGEND, l->legend_lines, 0, NULL);
	}
	explain_verdicts(&a->plan, l->vd);
	for (int i = 0; i < bud.verdicts; i++)
		row_add(l, height, ROW_VERDICT, 1, i, l->vd[i].key);
	nfig = pane_figures(a, figs);
	for (int i = 0; i < nfig && i < bud.figures; i++)
		if (row_add(l, height, ROW_FIGURE, 1, i, figs[i]->key))
			l->row[l->n - 1].fig = figs[i];
	for (int i = 0; i < bud.serving; i++)
		row_add(l, height, ROW_SERVING, 1, i, serving_key(a, i));
	nbn = bottlenecks_listed(a, bud.bottlenecks, bn);
	for (int i = 0; i < nbn; i++)
		row_add(l, height, ROW_BOTTLENECK, 1, bn[i], figure_bottleneck(bn[i])->key);
	if (a->plan.nwarnings > 0 && l->y < height) {
		int lines = height - l->y < a->plan.nwarnings ? height - l->y : a->plan.nwarnings;
		row_add(l, height, ROW_WARNINGS, lines, 0, "warnings");
	}
}

unsigned pane_results_shown(const struct app *a, int height, int width)
{
	struct results_layout l;
	unsigned shown = 0;

	results_layout(a, height, width, &l);
	for (int r = 0; r < l.n; r++) {
		const struct results_row *row = &l.row[r];
		if (row->kind == ROW_PROBLEM)
			shown |= 1u << row->i; /* two problems of one field are two items */
		else if (row->kind == ROW_LEGEND)
			shown |= l.legend_shown;
		else if (row->key)
			shown |= item_bits(a, row->key);
	}
	return shown;
}

/* In place of the plan, the problems that make `gpuplan check` reject the scenario: the
 * same validation, so the pane never shows a fit and a cost for a layout the command line
 * refuses to compute. */
static void row_problems(struct app *a, WINDOW *w, const struct results_layout *l,
			 const struct results_row *r)
{
	(void)l;
	draw_textf(a, w, r->y, 2, getmaxx(w) - 3, ROLE_BAD,
		   "no plan: %d problem%s (as gpuplan check)",
		   a->problems.count + a->problems.dropped,
		   a->problems.count + a->problems.dropped == 1 ? "" : "s");
}

static void row_problem(struct app *a, WINDOW *w, const struct results_layout *l,
			const struct results_row *r)
{
	const struct gp_error *e = &a->problems.items[r->i];
	bool sel = item_selected(a, r->key) && a->sel[PANE_RESULTS] == r->i;
	int width = getmaxx(w);
	char line[400];

	(void)l;
	row_highlight(a, w, r->y, width, sel);
	snprintf(line, sizeof(line), "! %s%s%s", e->field, e->field[0] ? ": " : "", e->message);
	draw_text_clip(a, w, r->y, 2, width - 3, sel ? ROLE_SELECTED : ROLE_WARN, line);
}

static void row_total(struct app *a, WINDOW *w, const struct results_layout *l,
		      const struct results_row *r)
{
	const struct plan *p = &a->plan;
	const struct figure *total = figure_find(r->key);
	char v[64], c[64], line[160];

	(void)l;
	units_format_human(UNIT_BYTES, p->mem.total, 3, v, sizeof(v));
	units_format_human(UNIT_BYTES, p->mem.capacity, 3, c, sizeof(c));
	snprintf(line, sizeof(line), "%s / %s", v, c);
	if (text_width(line) > getmaxx(w) - 15 - (a->has_baseline ? 4 : 1)) {
		/* a narrow pane: 14.2G / 80G */
		units_format_compact(UNIT_BYTES, p->mem.total, v, sizeof(v));
		units_format_compact(UNIT_BYTES, p->mem.capacity, c, sizeof(c));
		snprintf(line, sizeof(line), "%s / %s", v, c);
	}
	draw_figure(a, w, r->y, total->key, total->short_label, line, p->mem.total,
		    a->base_plan.mem.total, total->better);
}

static void row_bar(struct app *a, WINDOW *w, const struct results_layout *l,
		    const struct results_row *r)
{
	draw_memory_bar(a, w, r->y, 2, l->inner);
}

static void row_legend(struct app *a, WINDOW *w, const struct results_layout *l,
		       const struct results_row *r)
{
	int lines;

	memory_legend_pass(a, w, r->y, 2, l->inner, l->legend_tiny, l->legend_max, &lines, NULL);
}

/* A verdict, in the order a plan is judged (seed case 15): capacity, then bandwidth and
 * interconnect, then compute; the first stands for the headroom. */
static void row_verdict(struct app *a, WINDOW *w, const struct results_layout *l,
			const struct results_row *r)
{
	const struct glyphs *g = a->theme.g;
	const struct explain_verdict *vd = &l->vd[r->i];
	int role = vd->state == VERDICT_OK     ? ROLE_GOOD
		   : vd->state == VERDICT_WARN ? ROLE_WARN
					       : ROLE_BAD;
	const char *mark = vd->state == VERDICT_OK     ? g->ok
			   : vd->state == VERDICT_WARN ? "!"
						       : g->bad;
	bool sel = item_selected(a, vd->key);
	int width = getmaxx(w);

	/* no change mark here: the headroom's would sit unlabelled beside the memory, and
	 * point the other way from the memory line's */
	row_highlight(a, w, r->y, width, sel);
	draw_text(a, w, r->y, 2, 2, sel ? ROLE_SELECTED : role, mark);
	draw_text_clip(a, w, r->y, 5, width - 6, sel ? ROLE_SELECTED : ROLE_LABEL, vd->text);
}

/* capacity_plan.fewest for the pane's scenario (src/capacity.c, a few dozen plans): kept
 * for the last scenario asked, so a redraw without an edit plans nothing again. */
static bool fewest_of(const struct app *a, struct capacity_fewest *out)
{
	static struct scenario last;
	static struct capacity_fewest fewest;
	static bool known, found;

	if (!known || memcmp(&last, &a->scn, sizeof(last)) != 0) {
		memcpy(&last, &a->scn, sizeof(last));
		found = capacity_fewest(&a->scn, &a->plan, &fewest);
		known = true;
	}
	*out = fewest;
	return found;
}

/* After GPUs required, the fewest-GPU layout when it is not the file's and fits the
 * value's column whole: "76 (66 at tp 2 pp 1)". */
static void fewest_suffix(const struct app *a, char *v, size_t size, int room)
{
	struct capacity_fewest f;
	struct parallel par;
	char t[48], lay[32];
	size_t n = strlen(v);

	if (!fewest_of(a, &f))
		return;
	par = (struct parallel){.tp = f.tp, .pp = f.pp};
	units_format_layout(&par, UNITS_LAYOUT_TERSE, false, lay, sizeof(lay));
	snprintf(t, sizeof(t), " (%.0f at %s)", f.gpus_required, lay);
	if (text_width(v) + text_width(t) <= room && n + strlen(t) < size)
		memcpy(v + n, t, strlen(t) + 1);
}

static void row_figure(struct app *a, WINDOW *w, const struct results_layout *l,
		       const struct results_row *r)
{
	const struct plan *p = &a->plan;
	const struct figure *f = r->fig;
	char v[64];

	figure_format_short(f, p, v, sizeof(v));
	/* a latency with no steady state (an overloaded queue: null in the JSON report) reads
	 * as the report's "unbounded", as the serving lines below it do, not as "-" */
	if (f->format == FIGURE_FMT_SECONDS && !isfinite(figure_value(f, p)) &&
	    p->serving.overloaded && a->scn.workload.kind == WL_ONLINE)
		snprintf(v, sizeof(v), "unbounded");
	if (f->format == FIGURE_FMT_TOKENS && isfinite(p->tokens_per_s_per_gpu) && l->inner > 36) {
		char per[32];
		units_format_human(UNIT_COUNT, p->tokens_per_s_per_gpu, 3, per, sizeof(per));
		snprintf(v + strlen(v), sizeof(v) - strlen(v), " (%s/gpu)", per);
	}
	if (f->offset == offsetof(struct plan, gpus_required) && !a->problems.count)
		fewest_suffix(a, v, sizeof(v), getmaxx(w) - (a->has_baseline ? 7 : 0) - 15 - 1);
	draw_figure(a, w, r->y, f->key, f->short_label, v, figure_value(f, p),
		    figure_value(f, &a->base_plan), f->better);
}

static void row_serving(struct app *a, WINDOW *w, const struct results_layout *l,
			const struct results_row *r)
{
	char label[24], v[64];

	(void)l;
	serving_line(a, r->i, label, sizeof(label), v, sizeof(v));
	serving_line_draw(a, w, r->y, r->key, label, v);
}

static void row_bottleneck(struct app *a, WINDOW *w, const struct results_layout *l,
			   const struct results_row *r)
{
	(void)l;
	draw_bottleneck(a, w, r->y, r->i);
}

/* The warnings, as many as there is room for; selected as one item. */
static void row_warnings(struct app *a, WINDOW *w, const struct results_layout *l,
			 const struct results_row *r)
{
	const struct plan *p = &a->plan;
	int role = item_selected(a, r->key) ? ROLE_SELECTED : ROLE_WARN, width = getmaxx(w);

	(void)l;
	for (int i = 0; i < r->lines; i++) {
		int y = r->y + i;
		char msg[256], line[300];
		plan_warning_format(&p->warnings[i], msg, sizeof(msg));
		row_highlight(a, w, y, width, role == ROLE_SELECTED);
		if (i == r->lines - 1 && i < p->nwarnings - 1) {
			/* the last line left: say how many did not fit */
			char more[32];
			int mw = snprintf(more, sizeof(more), " (+%d)", p->nwarnings - 1 - i);
			draw_textf(a, w, y, 2, width - 3 - mw, role, "! %s", msg);
			draw_text(a, w, y, width - mw - 1, mw, role, more);
			break;
		}
		snprintf(line, sizeof(line), "! %s", msg);
		draw_text_clip(a, w, y, 2, width - 3, role, line);
	}
}

static void (*const row_draw[])(struct app *a, WINDOW *w, const struct results_layout *l,
				const struct results_row *r) = {
    [ROW_PROBLEMS] = row_problems, [ROW_PROBLEM] = row_problem, [ROW_TOTAL] = row_total,
    [ROW_BAR] = row_bar,	   [ROW_LEGEND] = row_legend,	[ROW_VERDICT] = row_verdict,
    [ROW_FIGURE] = row_figure,	   [ROW_SERVING] = row_serving, [ROW_BOTTLENECK] = row_bottleneck,
    [ROW_WARNINGS] = row_warnings,
};

/* The pane's header: its title and, at the right end, the fit verdict, drawn as a focused
 * header where no colour marks a plan that does not fit or cannot be planned. */
static void results_header(struct app *a, WINDOW *w, const char *title, const char *right)
{
	draw_header(a, w, PANE_RESULTS, title, right);
	if (!a->theme.color && (!a->plan.mem.fits || pane_results_invalid(a)))
		draw_text(a, w, 0, getmaxx(w) - text_width(right) - 1, text_width(right),
			  ROLE_HEADER_FOCUS, right);
}

static void results_draw(struct app *a, const struct view_ops *ops, WINDOW *w)
{
	const struct plan *p = &a->plan;
	const struct glyphs *g = a->theme.g;
	int height = getmaxy(w), width = getmaxx(w);
	struct results_layout l;
	char right[48];

	werase(w);
	results_layout(a, height, width, &l);
	/* the column separator down the left edge */
	for (int r = 1; r < height; r++)
		draw_text(a, w, r, 0, 1, ROLE_DIM, g->sep);
	/* the capacity verdict's mark: a plan that fits with little headroom is "fits !",
	 * as the verdict line under it and the report's capacity (WARNING) have it */
	snprintf(right, sizeof(right), "%s %s", pane_results_fit(a),
		 !p->mem.fits || pane_results_invalid(a) ? g->bad
		 : l.vd[0].state == VERDICT_WARN	 ? "!"
							 : g->ok);
	results_header(a, w, ops->title, right);
	for (int r = 0; r < l.n; r++)
		row_draw[l.row[r].kind](a, w, &l, &l.row[r]);
	if (pane_results_invalid(a)) {
		wnoutrefresh(w);
		return;
	}
	if (p->nwarnings > 0 && l.row[l.n - 1].kind != ROW_WARNINGS) {
		/* no line left for the warnings: the header says they are there */
		char title[48];
		snprintf(title, sizeof(title), "Results  !%d warning%s", p->nwarnings,
			 p->nwarnings > 1 ? "s" : "");
		/* a narrow pane keeps the fit verdict: the count alone */
		if (text_width(title) + text_width(right) + 6 > width)
			snprintf(title, sizeof(title), "Results !%d", p->nwarnings);
		results_header(a, w, title, right);
	}
	/* a taller terminal shows where the time goes and the rest of the plan */
	if (l.y + 4 < height)
		draw_details(a, w, l.y + 1, height);
	wnoutrefresh(w);
}

static void results_recalc(struct app *a, const struct view_ops *v)
{
	(void)v;
	results_items(a);
	if (a->sel[PANE_RESULTS] >= a->nresult_items)
		a->sel[PANE_RESULTS] = a->nresult_items ? a->nresult_items - 1 : 0;
}

static unsigned results_move(struct app *a, int delta)
{
	int s = a->sel[PANE_RESULTS] + delta;

	if (s < 0)
		s = 0;
	if (s >= a->nresult_items)
		s = a->nresult_items - 1;
	a->sel[PANE_RESULTS] = s < 0 ? 0 : s;
	return DIRTY_DRAW;
}

static unsigned results_page(struct app *a, int dir)
{
	return results_move(a, dir * pane_page_step(a));
}

static const char *results_selected_key(const struct app *a)
{
	const char *k = a->nresult_items ? a->result_keys[a->sel[PANE_RESULTS]] : NULL;

	/* a problem that names no field has nothing to explain */
	if (k && pane_results_invalid(a) && strcmp(k, "problems") == 0)
		return NULL;
	return k;
}

/* A verdict longer than the pane is wide: the whole of it; a figure a short terminal has no
 * line for, too. */
static const char *results_status(const struct app *a, char *buf, size_t size, int *role)
{
	const char *key = results_selected_key(a), *t;

	*role = ROLE_NORMAL;
	if (!key)
		return NULL;
	if (pane_results_invalid(a)) {
		/* the selected problem whole, as the input pane says it beside the field */
		const struct gp_error *e = &a->problems.items[a->sel[PANE_RESULTS]];
		*role = ROLE_WARN;
		snprintf(buf, size, "%s%s%s", e->field, e->field[0] ? ": " : "", e->message);
		return buf;
	}
	if ((t = pane_results_verdict(a, key, buf, size)) != NULL)
		return t;
	/* a banded figure: its value and where its band comes from (band_describe) */
	{
		char why[256];
		if (pane_results_band(a, key, NULL, 0, why, sizeof(why))) {
			const struct figure *f = figure_find(key);
			char v[64];
			if (!pane_results_hidden(a, key, buf, size))
				snprintf(buf, size, "%s %s",
					 f->short_label ? f->short_label : f->label,
					 figure_format(f, figure_value(f, &a->plan), v, sizeof(v)));
			snprintf(buf + strlen(buf), size - strlen(buf), ", %s", why);
			return buf;
		}
	}
	return pane_results_hidden(a, key, buf, size);
}

const struct view_ops pane_results = {
    .name = "results",
    .pane = PANE_RESULTS,
    .title = "Results",
    .ctx = KC_RESULTS,
    .key = app_pane_key,
    .recalc = results_recalc,
    .draw = results_draw,
    .move_by = results_move,
    .page_by = results_page,
    .selected_key = results_selected_key,
    .status = results_status,
};
