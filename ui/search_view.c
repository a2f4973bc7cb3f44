/* search_view.c - the search view (s, :search): the best layouts for the scenario, rerun
 * after every edit while it is open; Enter applies one as an undoable edit. The scaling view
 * (S, :scaling): the best layout by time at 8 to 1,024 GPUs, with time, cost and the
 * scaling efficiency as a bar. Goal seek (>, <, :solve): the largest or smallest value of a
 * field that still fits. Both views cover the body at full width, so a result keeps one
 * line even at 80x24; the searches run from app_compute, once after the keys already typed,
 * and never while no view is open.
 *
 * The scaling view and the chart view (chart_view.c, issue 18: "the scaling view becomes
 * one case of it"): c on this view charts its best layouts as the chart view's
 * best_layout case (a figure against hardware.count, each count planned with the layout
 * search_scaling finds there, f/F another figure), and S there comes back here. The table
 * stays a view of its own because a chart draws one figure a series and no layout: which
 * layout wins at each count (tp, pp, dp, ZeRO, offload; the weight and KV formats for
 * inference) beside five figures at once is what this view is for, and the table and a
 * readable chart do not both fit the body at 80x24 (8 rows of table and about 14 of chart
 * against the body's 20). The chart view opened from a pane on hardware.count keeps the
 * scenario's layout (as `gpuplan sweep` does) and grows only dp. */
#include "app.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "figure.h"
#include "report.h"

static double wall_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static bool is_inference(const struct scenario *s)
{
	return s->workload.kind == WL_ONLINE || s->workload.kind == WL_OFFLINE;
}

/* Rows of the body (between the title and the status line), less the frame and the two
 * lines above the results. */
int search_view_capacity(const struct app *a)
{
	int n = a->lay.rows - 3 - 2 - 2;
	if (n < 1)
		n = 1;
	return n > SEARCH_VIEW_MAX ? SEARCH_VIEW_MAX : n;
}

void search_view_open(struct app *a, enum view v)
{
	if (a->view != v)
		a->status[0] = '\0';
	a->view = v;
}

/* The views' recalc: reruns the open view's search when the scenario changed (from
 * app_compute, so the live loop runs it once after draining the keys already typed); nothing
 * when none is open. */
static void search_view_compute(struct app *a, const struct view_ops *v)
{
	struct search_view *sv = &a->sv;
	struct search_options o;
	double t0;

	(void)v;
	memset(&o, 0, sizeof(o));
	o.cat = a->cat;
	if (a->view == VIEW_SEARCH && sv->stale) {
		o.by = sv->by;
		o.top = search_view_capacity(a);
		o.hardware = sv->hardware;
		t0 = wall_s();
		sv->n = search_run(&a->scn, &o, sv->res, &sv->stats);
		sv->asked = o.top;
		sv->run_s = wall_s() - t0;
		sv->stale = false;
		sv->runs++;
		if (sv->sel >= sv->n)
			sv->sel = sv->n > 0 ? sv->n - 1 : 0;
		a->dirty |= DIRTY_DRAW;
	} else if (a->view == VIEW_SCALING && sv->scaling_stale) {
		/* powers of two from one node (8 GPUs) to 1,024 */
		sv->ncounts = 0;
		for (int c = 8; c <= 1024 && sv->ncounts < SCALING_MAX; c *= 2)
			sv->counts[sv->ncounts++] = c;
		o.top = 1;
		t0 = wall_s();
		search_scaling(&a->scn, &o, sv->counts, sv->ncounts, sv->scaling);
		sv->run_s = wall_s() - t0;
		sv->scaling_stale = false;
		sv->runs++;
		a->dirty |= DIRTY_DRAW;
	}
}

/* Applies the selected result as one undoable edit and closes the view; returns the dirty
 * bits. */
static unsigned apply_selected(struct app *a)
{
	struct search_view *sv = &a->sv;
	const struct search_result *r;
	struct scenario before;
	char lay[96];

	/* Enter typed ahead of the first run (s Enter in one read): run it now */
	app_compute(a);
	before = a->scn;
	if (sv->n == 0) {
		app_status(a, true, "nothing to apply: no layout fits");
		return DIRTY_DRAW;
	}
	r = &sv->res[sv->sel];
	search_apply(&a->scn, a->cat, r);
	search_view_open(a, VIEW_NONE);
	if (memcmp(&before, &a->scn, sizeof(before)) == 0) {
		app_status(a, false, "layout %d is the one in use", sv->sel + 1);
		return DIRTY_DRAW;
	}
	units_format_layout(&r->parallel, UNITS_LAYOUT_BRIEF, !is_inference(&a->scn), lay,
			    sizeof(lay));
	app_status(a, false, "applied layout %d: %d x %s, %s (u undoes)", sv->sel + 1, r->count,
		   r->gpu, lay);
	return app_commit(a, &before);
}

static void sel_move(struct app *a, int delta)
{
	struct search_view *sv = &a->sv;
	int s = sv->sel + delta;

	if (s >= sv->n)
		s = sv->n - 1;
	if (s < 0)
		s = 0;
	sv->sel = s;
}

/* What search ranks by (search.c's score_of: lower is better), as the view shows it: the
 * tokens per second of all the scenario's GPUs (the score is its inverse) or the USD per
 * million tokens; for online serving under a load, the GPUs the load needs
 * (capacity_plan.gpus_required) or their USD per hour. */
enum rank_key { RANK_TOKENS_PER_S, RANK_USD_PER_MTOK, RANK_FLEET, RANK_FLEET_USD_PER_H };

static const struct {
	const char *title; /* after "by ": the title and the status line */
	const char *head;  /* the column's heading, C_SCORE's width */
} rank_keys[] = {
    [RANK_TOKENS_PER_S] = {"time (tokens/s)", "  tok/s"},
    [RANK_USD_PER_MTOK] = {"cost ($/M tokens)", " $/Mtok"},
    [RANK_FLEET] = {"GPUs the load needs", "  fleet"},
    [RANK_FLEET_USD_PER_H] = {"cost of the load's GPUs ($/h)", "    $/h"},
};

static enum rank_key rank_key(const struct app *a, enum search_by by)
{
	if (search_sized_by_load(&a->scn))
		return by == SEARCH_BY_COST ? RANK_FLEET_USD_PER_H : RANK_FLEET;
	return by == SEARCH_BY_COST ? RANK_USD_PER_MTOK : RANK_TOKENS_PER_S;
}

/* A result's score in the unit its heading names, in buf. */
static void rank_value_format(const struct app *a, const struct search_result *r, char *buf,
			      size_t size)
{
	switch (rank_key(a, a->sv.by)) {
	case RANK_TOKENS_PER_S:
		units_format_compact(UNIT_COUNT, r->score > 0 ? 1 / r->score : NAN, buf, size);
		break;
	case RANK_USD_PER_MTOK:
		units_format_compact(UNIT_USD, r->score * 1e6, buf, size);
		break;
	case RANK_FLEET:
	case RANK_FLEET_USD_PER_H:
		/* no count meets the load: search ranks it after every one that has one */
		if (!isfinite(r->plan.gpus_required))
			snprintf(buf, size, "none");
		else
			units_format_compact(rank_key(a, a->sv.by) == RANK_FLEET ? UNIT_COUNT
										 : UNIT_USD,
					     r->score, buf, size);
		break;
	}
}

static void set_by(struct app *a, enum search_by by)
{
	if (a->sv.by != by) {
		a->sv.by = by;
		a->sv.stale = true;
		a->sv.sel = 0;
	}
	app_status(a, false, "ranked by %s", rank_keys[rank_key(a, by)].title);
}

/* The search and scaling views' key handlers (keys.c's table): each returns the dirty
 * bits. */
KEY_DRAWS(search_view_key_search,
	  search_view_open(a, a->view == VIEW_SEARCH ? VIEW_NONE : VIEW_SEARCH))
KEY_DRAWS(search_view_key_scaling,
	  search_view_open(a, a->view == VIEW_SCALING ? VIEW_NONE : VIEW_SCALING))

unsigned search_view_key_close(struct app *a, int key)
{
	(void)key;
	search_view_open(a, VIEW_NONE);
	a->status[0] = '\0';
	return DIRTY_DRAW;
}

KEY_DRAWS(search_view_key_up, sel_move(a, -1))
KEY_DRAWS(search_view_key_down, sel_move(a, 1))
KEY_DRAWS(search_view_key_page_up, sel_move(a, -search_view_capacity(a)))
KEY_DRAWS(search_view_key_page_down, sel_move(a, search_view_capacity(a)))
KEY_DRAWS(search_view_key_top, sel_move(a, -a->sv.n))
KEY_DRAWS(search_view_key_bottom, sel_move(a, a->sv.n))
KEY_HANDLER(search_view_key_apply, apply_selected(a))
KEY_DRAWS(search_view_key_by_cost, set_by(a, SEARCH_BY_COST))
KEY_DRAWS(search_view_key_by_time, set_by(a, SEARCH_BY_TIME))

unsigned search_view_key_hardware(struct app *a, int key)
{
	struct search_view *sv = &a->sv;

	(void)key;
	sv->hardware = !sv->hardware;
	sv->stale = true;
	sv->sel = 0;
	app_status(a, false, "%s",
		   sv->hardware ? "searching the catalog's GPUs and counts too"
				: "searching layouts on this hardware");
	return DIRTY_DRAW;
}

enum col {
	C_RANK,
	C_SCORE, /* what the ranking compares (rank_keys) */
	C_GPU,
	C_TP,
	C_PP,
	C_DP,
	C_EP,
	C_V,
	C_ZERO,
	C_MB,
	C_RC,
	C_SP,
	C_OFF,
	C_BATCH,
	C_WEIGHTS,
	C_KV,
	C_STEP,
	C_TTFT,
	C_TPOT,
	C_TPS,
	C_TOTAL,
	C_COST,
	C_MEM,
	C_BINDS,
	C_NCOLS
};

struct column {
	const char *head;
	int width; /* columns, the leading space included */
	int drop;  /* 0: always shown; else left out first when higher */
};

/* GPU: " 1024x" and the id, GPU_ID_MIN..GPU_ID_MAX columns */
enum { GPU_ID_MIN = 8, GPU_ID_MAX = 16 };

/* v goes first (interleaving changes the time least), then the step time. Sequence
 * parallelism, offload and the bottleneck give way after them, and the memory per GPU
 * last: to the score on a 64-column terminal, and over the catalog's GPUs to the GPU id,
 * which must read whole (truncated, a100-80gb-sxm and a100-80gb-pcie were both
 * "a100-80gb-"). */
static const struct column cols[C_NCOLS] = {
    [C_RANK] = {"  # ", 4, 0},	   [C_SCORE] = {"", 7, 0},	  [C_GPU] = {" gpus", 6, 0},
    [C_TP] = {" tp", 3, 0},	   [C_PP] = {" pp", 3, 0},	  [C_DP] = {"   dp", 5, 0},
    [C_EP] = {" ep", 3, 0},	   [C_V] = {" v", 2, 5},	  [C_ZERO] = {" z", 2, 0},
    [C_MB] = {"  mb", 4, 0},	   [C_RC] = {" rc  ", 5, 0},	  [C_SP] = {" sp", 3, 2},
    [C_OFF] = {" off", 4, 2},	   [C_BATCH] = {" batch", 6, 0},  [C_WEIGHTS] = {" wts ", 5, 0},
    [C_KV] = {" kv  ", 5, 0},	   [C_STEP] = {"    step", 8, 4}, [C_TTFT] = {"    ttft", 8, 3},
    [C_TPOT] = {"    tpot", 8, 0}, [C_TPS] = {"  tok/s", 7, 4},	  [C_TOTAL] = {"    time", 8, 0},
    [C_COST] = {"   cost", 7, 0},  [C_MEM] = {"   mem", 6, 1},	  [C_BINDS] = {" binds", 9, 2},
};

/* The columns shown at width, in order; *gpu_w gets the GPU id's width. */
static int columns_for(const struct app *a, int width, enum col *out, int *gpu_w)
{
	static const enum col training[] = {C_RANK, C_SCORE, C_GPU,   C_TP,   C_PP,  C_DP,
					    C_EP,   C_V,     C_ZERO,  C_MB,   C_RC,  C_SP,
					    C_OFF,  C_STEP,  C_TOTAL, C_COST, C_MEM, C_BINDS};
	static const enum col inference[] = {C_RANK, C_SCORE, C_GPU,	 C_TP,	C_PP,
					     C_DP,   C_BATCH, C_WEIGHTS, C_KV,	C_TTFT,
					     C_TPOT, C_TPS,   C_COST,	 C_MEM, C_BINDS};
	bool infer = is_inference(&a->scn);
	enum rank_key key = rank_key(a, a->sv.by);
	const enum col *list = infer ? inference : training;
	int nlist = infer ? (int)(sizeof(inference) / sizeof(inference[0]))
			  : (int)(sizeof(training) / sizeof(training[0]));
	bool moe = a->plan.model.moe.experts > 0;
	int n = 0, total = 0;

	*gpu_w = 0;
	for (int i = 0; i < nlist; i++) {
		enum col c = list[i];
		if ((c == C_GPU && !a->sv.hardware) || (c == C_EP && !moe))
			continue;
		/* the score column says it already: the same figure (plan_time.c's finish
		 * derives $/M tokens from the same USD per hour and tokens/s as score_of) */
		if (infer && ((c == C_TPS && key == RANK_TOKENS_PER_S) ||
			      (c == C_COST && key == RANK_USD_PER_MTOK)))
			continue;
		out[n++] = c;
		total += cols[c].width;
	}
	if (a->sv.hardware) {
		*gpu_w = GPU_ID_MAX;
		total += *gpu_w;
	}
	/* leave out the optional columns, the least needed first, then narrow the GPU id */
	while (total > width) {
		int worst = -1;
		for (int i = 0; i < n; i++)
			if (cols[out[i]].drop &&
			    (worst < 0 || cols[out[i]].drop > cols[out[worst]].drop))
				worst = i;
		if (worst < 0)
			break;
		total -= cols[out[worst]].width;
		memmove(&out[worst], &out[worst + 1], sizeof(out[0]) * (size_t)(n - worst - 1));
		n--;
	}
	if (a->sv.hardware && total > width) {
		int cut = total - width;
		*gpu_w = *gpu_w - cut > GPU_ID_MIN ? *gpu_w - cut : GPU_ID_MIN;
	}
	return n;
}

void search_view_heading(const struct app *a, int width, char *buf, size_t size)
{
	enum col c[C_NCOLS];
	int gpu_w, n = columns_for(a, width, c, &gpu_w);
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < n && len < size; i++) {
		if (c[i] == C_SCORE)
			len += (size_t)snprintf(buf + len, size - len, "%s",
						rank_keys[rank_key(a, a->sv.by)].head);
		else if (c[i] == C_GPU)
			len += (size_t)snprintf(buf + len, size - len, "%-*s",
						cols[C_GPU].width + gpu_w, " gpus");
		else if (c[i] == C_DP && is_inference(&a->scn))
			len += (size_t)snprintf(buf + len, size - len, " repl");
		else if (c[i] == C_COST && is_inference(&a->scn))
			len += (size_t)snprintf(buf + len, size - len, " $/Mtok");
		else
			len += (size_t)snprintf(buf + len, size - len, "%s", cols[c[i]].head);
	}
}

void search_view_row(const struct app *a, const struct search_result *r, int rank, int width,
		     char *buf, size_t size)
{
	static const char *const rcs[] = {"none", "sel", "full"};
	static const char *const offs[] = {"-", "opt", "all"};
	const struct plan *p = &r->plan;
	bool infer = is_inference(&a->scn);
	enum col c[C_NCOLS];
	int gpu_w, n = columns_for(a, width, c, &gpu_w);
	size_t len = 0;
	char t[48];

	buf[0] = '\0';
	for (int i = 0; i < n && len < size; i++) {
		t[0] = '\0';
		switch (c[i]) {
		case C_RANK:
			/* a space before the rank's two digits (SEARCH_VIEW_MAX is 60), so
			 * "10" does not touch the border */
			snprintf(t, sizeof(t), " %2d%s", rank, r->meets_target ? " " : "!");
			break;
		case C_SCORE: {
			char v[24];
			rank_value_format(a, r, v, sizeof(v));
			snprintf(t, sizeof(t), " %6s", v);
			break;
		}
		case C_GPU:
			snprintf(t, sizeof(t), " %4dx%-*.*s", r->count, gpu_w, gpu_w, r->gpu);
			break;
		case C_TP:
			snprintf(t, sizeof(t), " %2d", r->parallel.tp);
			break;
		case C_PP:
			snprintf(t, sizeof(t), " %2d", r->parallel.pp);
			break;
		case C_DP:
			snprintf(t, sizeof(t), " %4d", r->parallel.dp);
			break;
		case C_EP:
			snprintf(t, sizeof(t), " %2d", r->parallel.ep);
			break;
		case C_V:
			snprintf(t, sizeof(t), " %d",
				 r->parallel.virtual_stages > 1 ? r->parallel.virtual_stages % 10
								: 1);
			break;
		case C_ZERO:
			snprintf(t, sizeof(t), " %d", r->plan.zero);
			break;
		case C_MB:
			snprintf(t, sizeof(t), " %3d", r->micro_batch);
			break;
		case C_RC:
			snprintf(t, sizeof(t), " %-4s", rcs[(unsigned)r->recompute % 3]);
			break;
		case C_SP:
			snprintf(t, sizeof(t), " %-2s", r->parallel.sequence_parallel ? "sp" : "-");
			break;
		case C_OFF:
			snprintf(t, sizeof(t), " %-3s", offs[(unsigned)r->parallel.offload % 3]);
			break;
		case C_BATCH: {
			/* batch auto: the batch the engine runs, the KV pool's bound or, where
			 * the engine's running cap holds it below that (figure_label names the
			 * pool's bound then), the cap, as the results pane's "256 (KV 839)" */
			const struct figure *f = figure_find("capacity_plan.max_batch");
			double v = r->batch > 0 ? r->batch : figure_value(f, p);
			char b[24];

			if (r->batch <= 0 && figure_label(f, p) == f->capped_label)
				v = p->serving.max_running;
			units_format_compact(UNIT_COUNT, v, b, sizeof(b));
			snprintf(t, sizeof(t), " %5s", b);
			break;
		}
		case C_WEIGHTS:
			snprintf(t, sizeof(t), " %-4.4s", dtype_name(r->weights));
			break;
		case C_KV:
			snprintf(t, sizeof(t), " %-4.4s", dtype_name(r->kv_cache));
			break;
		case C_STEP:
		case C_TTFT:
		case C_TPOT:
		case C_TOTAL: {
			char v[24];
			double s = c[i] == C_STEP   ? p->step_s
				   : c[i] == C_TTFT ? p->ttft_s
				   : c[i] == C_TPOT ? p->tpot_s
						    : p->total_s;
			units_format_compact(UNIT_SECONDS, s, v, sizeof(v));
			/* an overloaded replica's ttft has no steady state: `gpuplan search`'s
			 * "TTFT unbounded", in the column's seven, not "-" */
			if (c[i] == C_TTFT && !isfinite(s) && p->serving.overloaded)
				snprintf(v, sizeof(v), "unbound");
			snprintf(t, sizeof(t), " %7s", v);
			break;
		}
		case C_TPS: {
			char v[24];
			units_format_compact(UNIT_COUNT, p->tokens_per_s, v, sizeof(v));
			snprintf(t, sizeof(t), " %6s", v);
			break;
		}
		case C_COST: {
			char v[24];
			units_format_compact(UNIT_USD,
					     infer ? p->usd_per_million_tokens : p->usd_total, v,
					     sizeof(v));
			snprintf(t, sizeof(t), " %6s", v);
			break;
		}
		case C_MEM: {
			char v[24];
			units_format_compact(UNIT_BYTES, p->mem.total, v, sizeof(v));
			snprintf(t, sizeof(t), " %5s", v);
			break;
		}
		case C_BINDS:
			/* the figure table's narrowest name (figure.h), the one source */
			snprintf(t, sizeof(t), " %s", figure_bottleneck_tiny(p->binding));
			break;
		case C_NCOLS:
			break;
		}
		len += (size_t)snprintf(buf + len, size - len, "%s", t);
	}
	if (len >= size)
		buf[size - 1] = '\0';
}

void search_view_draw(struct app *a, const struct view_ops *v, WINDOW *w)
{
	struct search_view *sv = &a->sv;
	int height = getmaxy(w), width = getmaxx(w), inner = width - 2;
	char title[160], line[512], dt[32];
	const struct workload *wl = &a->scn.workload;
	/* what search's meets_target checks: the deadline, the SLO, and for online serving
	 * the load (a daily count, an arrival rate, or a closed loop's concurrency) on the
	 * scenario's GPUs */
	bool load = wl->kind == WL_ONLINE &&
		    (wl->requests_per_day > 0 || wl->requests_per_s > 0 || wl->concurrency > 0);
	bool target = search_has_target(&a->scn) || load;

	(void)v;
	snprintf(title, sizeof(title), "Search: best layouts by %s%s",
		 rank_keys[rank_key(a, sv->by)].title,
		 sv->hardware ? " over the catalog's GPUs" : "");
	draw_frame(a, w, title);
	units_format_human(UNIT_SECONDS, sv->run_s, 2, dt, sizeof(dt));
	/* c, t and H are on the key legend: this line says what was searched, and what ! is,
	 * within 76 columns */
	snprintf(line, sizeof(line), "%ld layouts, %ld fit, %s%s", sv->stats.evaluated,
		 sv->stats.fitting, dt,
		 !target ? ""
		 : load	 ? "; ! misses the SLO or the daily load"
			 : "; ! misses the deadline or SLO");
	draw_text_clip(a, w, 1, 2, inner - 2, ROLE_DIM, line);
	search_view_heading(a, inner, line, sizeof(line));
	draw_text(a, w, 2, 1, inner, ROLE_HEADER, line);
	if (sv->n == 0) {
		draw_text(a, w, 3, 2, inner - 2, ROLE_BAD,
			  sv->hardware
			      ? "no layout fits on the catalog's GPUs"
			      : "no layout fits on this hardware (H searches the catalog)");
	}
	for (int i = 0; i < sv->n && 3 + i < height - 1; i++) {
		int role = i == sv->sel		     ? ROLE_SELECTED
			   : sv->res[i].meets_target ? ROLE_NORMAL
						     : ROLE_WARN;
		search_view_row(a, &sv->res[i], i + 1, inner, line, sizeof(line));
		if (i == sv->sel) {
			wattrset(w, a->theme.attr[ROLE_SELECTED]);
			mvwhline(w, 3 + i, 1, ' ', width - 2);
			wattrset(w, A_NORMAL);
		}
		draw_text(a, w, 3 + i, 1, inner, role, line);
	}
	wnoutrefresh(w);
}

double scaling_efficiency(const struct app *a, int i)
{
	const struct search_view *sv = &a->sv;

	/* Strong-scaling efficiency: tokens/s per GPU at this count over the same at the
	 * smallest count that fits (1.0 = linear speed-up). */
	for (int j = 0; j < sv->ncounts && j <= i; j++) {
		double base = sv->scaling[j].plan.tokens_per_s_per_gpu;
		if (!sv->scaling[j].count)
			continue;
		if (!sv->scaling[i].count || !(base > 0))
			return 0;
		return sv->scaling[i].plan.tokens_per_s_per_gpu / base;
	}
	return 0;
}

/* The scaling table's columns: the heading, the columns each takes (the gap before it
 * included; its figures end where the heading does) and the order in which a narrow view
 * leaves it out (1 first, 0 never): a column goes whole, a figure is never cut. */
struct scaling_col {
	const char *head;
	int width, drop;
};

enum { SCALING_COLS = 11 };

static const struct scaling_col infer_cols[SCALING_COLS] = {
    {"gpus", 5, 0},   {"tp", 4, 0},	 {"pp", 4, 0},	 {"repl", 6, 3},
    {"wts", 5, 2},    {"kv", 5, 1},	 {"tpot", 9, 0}, {"ttft", 8, 4},
    {"$/Mtok", 7, 0}, {"tok/gpu", 8, 0}, {"eff", 5, 0},
};
static const struct scaling_col train_cols[SCALING_COLS] = {
    {"gpus", 5, 0}, {"tp", 4, 0},   {"pp", 4, 0},   {"dp", 5, 0},      {"z", 2, 1},   {"off", 4, 3},
    {"step", 8, 0}, {"time", 8, 0}, {"cost", 7, 0}, {"tok/gpu", 8, 2}, {"eff", 5, 0},
};

/* The columns that fit in width (keep[c]), the lowest-ranked left out first. */
static const struct scaling_col *scaling_fit(const struct app *a, int width, bool *keep)
{
	const struct scaling_col *tab = is_inference(&a->scn) ? infer_cols : train_cols;
	int total = 0, maxrank = 0;

	for (int c = 0; c < SCALING_COLS; c++) {
		keep[c] = true;
		total += tab[c].width;
		if (tab[c].drop > maxrank)
			maxrank = tab[c].drop;
	}
	for (int rank = 1; rank <= maxrank && total > width; rank++)
		for (int c = 0; c < SCALING_COLS; c++)
			if (tab[c].drop == rank) {
				keep[c] = false;
				total -= tab[c].width;
			}
	return tab;
}

/* cells[] right-aligned in the kept columns, one line in buf. */
static void scaling_join(const struct scaling_col *tab, const bool *keep, char cells[][24],
			 char *buf, size_t size)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int c = 0; c < SCALING_COLS && n < size; c++)
		if (keep[c]) {
			int w = snprintf(buf + n, size - n, "%*s", tab[c].width, cells[c]);
			n += w > 0 ? (size_t)w : 0;
		}
}

static void scaling_heading_fit(const struct app *a, int width, char *buf, size_t size)
{
	bool keep[SCALING_COLS];
	const struct scaling_col *tab = scaling_fit(a, width, keep);
	char cells[SCALING_COLS][24];

	for (int c = 0; c < SCALING_COLS; c++)
		snprintf(cells[c], sizeof(cells[c]), "%s", tab[c].head);
	scaling_join(tab, keep, cells, buf, size);
}

static void scaling_row_fit(const struct app *a, int i, int width, char *buf, size_t size)
{
	static const char *const offs[] = {"-", "opt", "all"};
	const struct search_view *sv = &a->sv;
	const struct search_result *r = &sv->scaling[i];
	const struct plan *p = &r->plan;
	bool infer = is_inference(&a->scn), keep[SCALING_COLS];
	const struct scaling_col *tab = scaling_fit(a, width, keep);
	char c[SCALING_COLS][24];

	if (!r->count) {
		snprintf(buf, size, "%5d  nothing fits", sv->counts[i]);
		return;
	}
	snprintf(c[0], sizeof(c[0]), "%d", r->count);
	snprintf(c[1], sizeof(c[1]), "%d", r->parallel.tp);
	snprintf(c[2], sizeof(c[2]), "%d", r->parallel.pp);
	snprintf(c[3], sizeof(c[3]), "%d", r->parallel.dp);
	if (infer) {
		/* the weight and KV cache formats too: the best layout may be another format
		 * than the scenario's */
		snprintf(c[4], sizeof(c[4]), "%s", dtype_name(r->weights));
		snprintf(c[5], sizeof(c[5]), "%s", dtype_name(r->kv_cache));
	} else {
		/* the offload too: a layout that fits only by parking state in host memory
		 * says so */
		snprintf(c[4], sizeof(c[4]), "%c", (char)('0' + r->plan.zero));
		snprintf(c[5], sizeof(c[5]), "%s", offs[(unsigned)r->parallel.offload % 3]);
	}
	units_format_compact(UNIT_SECONDS, infer ? p->tpot_s : p->step_s, c[6], sizeof(c[6]));
	units_format_compact(UNIT_SECONDS, infer ? p->ttft_s : p->total_s, c[7], sizeof(c[7]));
	if (infer && !isfinite(p->ttft_s) && p->serving.overloaded)
		snprintf(c[7], sizeof(c[7]), "unbound"); /* as the search table's ttft */
	units_format_compact(UNIT_USD, infer ? p->usd_per_million_tokens : p->usd_total, c[8],
			     sizeof(c[8]));
	units_format_compact(UNIT_COUNT, p->tokens_per_s_per_gpu, c[9], sizeof(c[9]));
	snprintf(c[10], sizeof(c[10]), "%.0f%%", scaling_efficiency(a, i) * 100);
	scaling_join(tab, keep, c, buf, size);
}

/* The whole table, as wide as it is (each heading ends where its column's figures do). */
void scaling_view_heading(const struct app *a, char *buf, size_t size)
{
	scaling_heading_fit(a, 1 << 20, buf, size);
}

void scaling_view_row(const struct app *a, int i, char *buf, size_t size)
{
	scaling_row_fit(a, i, 1 << 20, buf, size);
}

void scaling_view_draw(struct app *a, const struct view_ops *v, WINDOW *w)
{
	struct search_view *sv = &a->sv;
	int width = getmaxx(w), height = getmaxy(w), inner = width - 4;
	bool infer = is_inference(&a->scn);
	char line[256];

	(void)v;
	draw_frame(a, w, "Scaling: the best layout by time at each GPU count");
	/* within the 76 columns of an 80-column view */
	snprintf(line, sizeof(line), "%s; tok/gpu: tokens/s per GPU; eff: that vs the fewest GPUs",
		 infer ? "wts, kv: formats" : "off: offload");
	draw_text_clip(a, w, 1, 2, inner, ROLE_DIM, line);
	scaling_heading_fit(a, inner, line, sizeof(line));
	draw_text(a, w, 2, 2, inner, ROLE_HEADER, line);
	for (int i = 0; i < sv->ncounts && 3 + i < height - 1; i++) {
		const struct search_result *r = &sv->scaling[i];
		bool current = sv->counts[i] == a->scn.hardware.count;
		int tw, bx, bw;
		double eff = scaling_efficiency(a, i);

		scaling_row_fit(a, i, inner, line, sizeof(line));
		tw = text_width(line);
		draw_text(a, w, 3 + i, 2, inner,
			  current    ? ROLE_SELECTED
			  : r->count ? ROLE_NORMAL
				     : ROLE_BAD,
			  line);
		/* the efficiency as a bar in what is left of the line */
		bx = 2 + tw + 1;
		bw = width - 2 - bx;
		if (!r->count || bw < 4)
			continue;
		draw_bar(a, w, 3 + i, bx, bw, eff > 1 ? 1 : eff, ROLE_BAR);
	}
	if (3 + sv->ncounts < height - 1) {
		char dt[32];
		units_format_human(UNIT_SECONDS, sv->run_s, 2, dt, sizeof(dt));
		snprintf(line, sizeof(line),
			 "searched in %s; follows every edit (u undoes, q or Esc closes)", dt);
		draw_text(a, w, 3 + sv->ncounts + (3 + sv->ncounts + 1 < height - 1), 2, inner,
			  ROLE_DIM, line);
	}
	wnoutrefresh(w);
}

static long gcd_l(long x, long y)
{
	while (y) {
		long t = x % y;
		x = y;
		y = t;
	}
	return x;
}

double goal_seek_node_count(const struct scenario *s, double count, bool maximize)
{
	/* the node size as the time model takes it (plan_time_int.h's gpus_per_node: 8 when the
	 * catalog does not say), and whole replicas of tp x pp x ep (x cp) within whole nodes */
	long node = s->hardware.gpu.gpus_per_node > 0 ? s->hardware.gpu.gpus_per_node : 8;
	long span = (long)scenario_replica_gpus(s), step;
	const struct field *f = scenario_field_find("hardware.count");

	if (span < 1)
		span = 1;
	step = node / gcd_l(node, span) * span;
	if (count <= node || fmod(count, (double)step) == 0)
		return count;
	if (maximize) {
		/* down to whole nodes, at least one node */
		for (double v = floor(count / step) * step; v >= step; v -= step)
			if (search_works(s, "hardware.count", v))
				return v;
	} else {
		/* up to whole nodes: a few dozen plans at most */
		double v = ceil(count / step) * step;
		for (int i = 0; i < 64 && v <= f->max; i++, v += step)
			if (search_works(s, "hardware.count", v))
				return v;
	}
	return count;
}

unsigned app_goal_seek(struct app *a, const char *key, bool maximize)
{
	unsigned dirty = DIRTY_DRAW;
	const struct field *f;
	struct scenario before = a->scn;
	struct gp_error err;
	double value, exact;
	char text[160], msg[sizeof(a->status)], nodes[96] = "";
	bool target = search_has_target(&a->scn);

	memset(&err, 0, sizeof(err));
	if (search_solve(&a->scn, key, maximize, &value, &err) != 0) {
		app_status(a, true, "goal seek: %s", gp_error_format(&err, msg, sizeof(msg)));
		return DIRTY_DRAW;
	}
	f = scenario_field_find(key);
	/* GPUs past one node come in whole nodes (17 on 8-GPU nodes is two nodes and a GPU
	 * that talks to its replica over the network): the proposal is the least (most)
	 * whole-node count that works, and the status says the exact bound too */
	exact = value;
	if (strcmp(key, "hardware.count") == 0)
		value = goal_seek_node_count(&a->scn, value, maximize);
	/* write the value through the field table, as a file would hold it */
	if (f->type == FIELD_INT)
		snprintf(text, sizeof(text), "%.0f", value);
	else
		units_format(f->unit, value, text, sizeof(text));
	if (scenario_field_set(&a->scn, a->cat, f, text, &err) != 0) {
		a->scn = before;
		app_status(a, true, "goal seek: %s", gp_error_format(&err, msg, sizeof(msg)));
		return DIRTY_DRAW;
	}
	/* as search_solve tried it: more GPUs go to data parallelism */
	if (strcmp(f->key, "hardware.count") == 0 && a->scn.hardware.count != before.hardware.count)
		a->scn.parallel.dp = 0;
	scenario_field_format(&a->scn, f, text, sizeof(text));
	if (memcmp(&before, &a->scn, sizeof(before)) != 0)
		dirty = app_commit(a, &before);
	if (exact != value) {
		long node =
		    a->scn.hardware.gpu.gpus_per_node > 0 ? a->scn.hardware.gpu.gpus_per_node : 8;
		snprintf(nodes, sizeof(nodes), " in whole nodes (%.0f x %ld; %.0f would be exact)",
			 value / node, node, exact);
	}
	app_status(a, false, "%s %s that fits%s: %s%s%s", maximize ? "largest" : "smallest", f->key,
		   target ? " and meets the target" : "", text, nodes,
		   memcmp(&before, &a->scn, sizeof(before)) == 0 ? " (already set)"
								 : " (u undoes)");
	return dirty;
}

const struct view_ops search_view_ops = {
    .key = app_body_view_key,
    .recalc = search_view_compute,
    .draw = search_view_draw,
    VIEW_OPS("search", KC_SEARCH),
};

const struct view_ops scaling_view_ops = {
    .key = app_body_view_key,
    .recalc = search_view_compute,
    .draw = scaling_view_draw,
    VIEW_OPS("scaling", KC_SCALING),
};
