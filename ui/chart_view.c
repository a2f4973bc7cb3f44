/* chart_view.c - the chart view (c, :chart): a figure against the selected input over a range
 * around its value, drawn by src/chart.c as `gpuplan sweep` draws it, the fit limit and the
 * SLO as lines; f and F choose the figure, q or Esc closes. The plans run once a change of
 * the scenario (its recalc), the text once a change of the plans or the window's size. The
 * scaling view's case (c on it, best_layout): a figure against hardware.count from 8 to
 * 1,024, each count with the best layout the scaling view's search finds (search_view.c
 * says why its table stays a view of its own). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "app.h"
#include "chart.h"
#include "field_edit.h"
#include "units.h"

/* The figure a chart opens on when none was chosen: memory per GPU, what every plan must
 * fit (as `gpuplan sweep` without --y starts). */
#define CHART_DEFAULT_FIGURE "memory.per_gpu.total"

int chart_view_range(const struct field *f, double v, double *x, int max, bool *geometric)
{
	int n = 0;
	double hi = f->max, lo = f->min;

	*geometric = false;
	if (f->type != FIELD_INT && f->type != FIELD_NUM)
		return 0;
	if ((f->unit == UNIT_RATIO || f->type == FIELD_NUM) && hi <= 1) {
		/* a fraction: its whole range, a tenth of it a step */
		for (int i = 0; i <= 10 && n < max; i++)
			x[n++] = lo + (hi - lo) * i / 10;
		return n;
	}
	if (f->type == FIELD_INT && !field_step_doubles(f)) {
		/* a small count (pipeline stages, layers): six either side, one a step */
		for (double c = v - 6; c <= v + 6 && n < max; c++)
			if (c >= lo && c <= hi && c >= 0)
				x[n++] = c;
		return n;
	}
	/* a size, a count that doubles, a quantity: halved four times and doubled four
	 * times, a logarithmic axis */
	if (!(v > 0))
		return 0;
	*geometric = true;
	for (int k = -4; k <= 4 && n < max; k++) {
		double c = ldexp(v, k);
		if (f->type == FIELD_INT)
			c = round(c);
		if (c < lo || c > hi || c <= 0 || (n && c <= x[n - 1]))
			continue;
		x[n++] = c;
	}
	/* a count rounded to whole numbers (1, 3, 5 from 5) steps unevenly: no log axis then;
	 * 52, 105, 210 from 839 is near enough doubling to read as one */
	for (int i = 1; i < n && f->type == FIELD_INT; i++)
		if (fabs(x[i] / x[i - 1] - 2) > 0.1)
			*geometric = false;
	return n;
}

/* The field's value as the scenario has it, auto resolved through the plan. */
static double field_value_now(const struct app *a, const struct field *f)
{
	const void *p = (const char *)&a->scn + f->offset;
	double v = f->type == FIELD_INT ? *(const int *)p : *(const double *)p;

	if (scenario_field_is_auto(f, v))
		v = app_auto_value(a, f);
	return v;
}

static bool is_memory(const struct figure *f)
{
	return strncmp(f->key, "memory.per_gpu.", 15) == 0;
}

/* The scaling view's case: the best layout by time at each count of the scaling view (8 to
 * 1,024), by the same search (search_scaling into a->sv, so the scaling view shows these
 * layouts when it opens again); a count where nothing fits is a gap. */
static void chart_best_layouts(struct app *a)
{
	struct chart_view *cv = &a->cv;
	struct search_view *sv = &a->sv;
	struct search_options o;

	memset(&o, 0, sizeof(o));
	o.cat = a->cat;
	o.top = 1;
	sv->ncounts = 0;
	for (int c = 8; c <= 1024 && sv->ncounts < SCALING_MAX && sv->ncounts < CHART_VIEW_MAX;
	     c *= 2)
		sv->counts[sv->ncounts++] = c;
	search_scaling(&a->scn, &o, sv->counts, sv->ncounts, sv->scaling);
	sv->scaling_stale = false;
	cv->n = sv->ncounts;
	cv->geometric = true;
	cv->invalid = 0;
	for (int i = 0; i < cv->n; i++) {
		const struct search_result *r = &sv->scaling[i];
		cv->x[i] = sv->counts[i];
		cv->y[i] = cv->capacity[i] = NAN;
		cv->ttft[i] = a->scn.workload.slo.ttft_s > 0 ? a->scn.workload.slo.ttft_s : NAN;
		cv->tpot[i] = a->scn.workload.slo.tpot_s > 0 ? a->scn.workload.slo.tpot_s : NAN;
		if (!r->count) {
			cv->invalid++;
			continue;
		}
		cv->y[i] = figure_value(cv->fig, &r->plan);
		cv->capacity[i] = r->plan.mem.capacity;
	}
	cv->runs++;
	a->dirty |= DIRTY_DRAW;
}

/* The view's recalc: plans the scenario at each value when the view is open and stale. */
static void chart_view_compute(struct app *a, const struct view_ops *v)
{
	struct chart_view *cv = &a->cv;
	struct scenario work;
	struct plan p;
	struct gp_problems probs;

	(void)v;
	if (a->view != VIEW_CHART || !cv->stale || !cv->field || !cv->fig)
		return;
	cv->stale = false;
	cv->text_w = cv->text_h = -1;
	if (cv->best_layout) {
		chart_best_layouts(a);
		return;
	}
	cv->n = chart_view_range(cv->field, field_value_now(a, cv->field), cv->x, CHART_VIEW_MAX,
				 &cv->geometric);
	cv->invalid = 0;
	for (int i = 0; i < cv->n; i++) {
		struct gp_error err;
		char text[64];

		memset(&err, 0, sizeof(err));
		work = a->scn;
		cv->y[i] = cv->capacity[i] = cv->ttft[i] = cv->tpot[i] = NAN;
		/* each value through the field table, as a file (and sweep) would give it */
		if (cv->field->type == FIELD_INT)
			snprintf(text, sizeof(text), "%.0f", cv->x[i]);
		else
			snprintf(text, sizeof(text), "%.17g", cv->x[i]);
		gp_problems_init(&probs);
		if (scenario_field_set(&work, a->cat, cv->field, text, &err) != 0 ||
		    (scenario_validate(&work, NULL, &probs), probs.count > 0)) {
			cv->invalid++;
			continue;
		}
		plan_compute(&work, &p);
		cv->y[i] = figure_value(cv->fig, &p);
		cv->capacity[i] = p.mem.capacity;
		if (work.workload.slo.ttft_s > 0)
			cv->ttft[i] = work.workload.slo.ttft_s;
		if (work.workload.slo.tpot_s > 0)
			cv->tpot[i] = work.workload.slo.tpot_s;
	}
	cv->runs++;
	a->dirty |= DIRTY_DRAW;
}

static bool any_finite(const double *v, int n)
{
	for (int i = 0; i < n; i++)
		if (isfinite(v[i]))
			return true;
	return false;
}

void chart_view_build(const struct app *a, struct chart *c, char *xlabel, size_t size)
{
	const struct chart_view *cv = &a->cv;

	memset(c, 0, sizeof(*c));
	snprintf(xlabel, size, "%s%s", cv->field->key, cv->geometric ? " (log scale)" : "");
	c->x_label = xlabel;
	c->x_unit = cv->field->unit;
	c->y_label = cv->fig->key;
	c->y_unit = cv->fig->unit;
	c->n = cv->n;
	c->x = cv->x;
	c->nseries = 1;
	c->series[0] = (struct chart_series){cv->fig->key, cv->y};
	/* the same lines as `gpuplan sweep` (cli/sweep.c's sweep_charts) */
	if (is_memory(cv->fig))
		c->rules[c->nrules++] =
		    (struct chart_rule){"memory.capacity (fit limit)", cv->capacity};
	if (strncmp(cv->fig->key, "latency.ttft", 12) == 0 && any_finite(cv->ttft, cv->n))
		c->rules[c->nrules++] = (struct chart_rule){"workload.slo.ttft (SLO)", cv->ttft};
	if (strncmp(cv->fig->key, "latency.tpot", 12) == 0 && any_finite(cv->tpot, cv->n))
		c->rules[c->nrules++] = (struct chart_rule){"workload.slo.tpot (SLO)", cv->tpot};
}

static int count_lines(const char *s)
{
	int n = 0;
	for (; *s; s++)
		n += *s == '\n';
	return n;
}

void chart_view_render(struct app *a, int width, int rows, bool ascii)
{
	struct chart_view *cv = &a->cv;
	struct chart c;
	char xlabel[128];
	int height;

	if (cv->text_w == width && cv->text_h == rows)
		return;
	cv->text_w = width;
	cv->text_h = rows;
	cv->text[0] = '\0';
	cv->text_lines = 0;
	if (cv->n < 2 || width < 40)
		return;
	chart_view_build(a, &c, xlabel, sizeof(xlabel));
	/* the plot's rows: what the axis, its labels, its name and the legend leave */
	height = rows - 4;
	for (int tries = 0; tries < 3 && height >= 4; tries++) {
		struct report_buf b = {0};
		int lines;

		chart_text(&b, &c, width, height, ascii);
		lines = b.data ? count_lines(b.data) : 0;
		if (lines <= rows || height == 4 || tries == 2) {
			snprintf(cv->text, sizeof(cv->text), "%s",
				 b.data && !b.failed ? b.data : "");
			cv->text_lines = lines;
			report_buf_release(&b);
			if (lines <= rows)
				return;
			break;
		}
		report_buf_release(&b);
		height -= lines - rows;
		if (height < 4)
			height = 4;
	}
	/* no room even at the least height: nothing rather than a cut chart */
	if (cv->text_lines > rows) {
		cv->text[0] = '\0';
		cv->text_lines = 0;
	}
}

/* Opening ------------------------------------------------------------------------------- */

static const struct figure *figure_if_number(const char *key)
{
	const struct figure *f = key ? figure_find(key) : NULL;
	return f && figure_is_number(f) ? f : NULL;
}

unsigned chart_view_open_on(struct app *a, const struct field *f, const struct figure *fig)
{
	struct chart_view *cv = &a->cv;
	double x[CHART_VIEW_MAX];
	bool geometric;

	if (!f)
		f = cv->field ? cv->field : scenario_field_find("hardware.count");
	if (!fig)
		fig = cv->fig ? cv->fig : figure_find(CHART_DEFAULT_FIGURE);
	if (f->type != FIELD_INT && f->type != FIELD_NUM) {
		app_status(a, true, "chart: %s is not a number (select a count or a quantity)",
			   f->key);
		return DIRTY_DRAW;
	}
	if (chart_view_range(f, field_value_now(a, f), x, CHART_VIEW_MAX, &geometric) < 2) {
		app_status(a, true, "chart: %s has no range around its value to chart", f->key);
		return DIRTY_DRAW;
	}
	cv->field = f;
	cv->fig = fig;
	cv->best_layout = false;
	cv->stale = true;
	search_view_open(a, VIEW_CHART);
	return DIRTY_DRAW;
}

/* The figure the scaling view's chart opens on: tokens/s per GPU, whose fall from linear is
 * the view's efficiency column. */
#define CHART_SCALING_FIGURE "throughput.tokens_per_s_per_gpu"

unsigned chart_view_key_scaling(struct app *a, int key)
{
	struct chart_view *cv = &a->cv;

	(void)key;
	cv->field = scenario_field_find("hardware.count");
	cv->fig = cv->best_layout && cv->fig ? cv->fig : figure_find(CHART_SCALING_FIGURE);
	cv->best_layout = true;
	cv->stale = true;
	search_view_open(a, VIEW_CHART);
	return DIRTY_DRAW;
}

unsigned app_key_chart(struct app *a, int key)
{
	const struct view_ops *pane = app_pane(a, a->focus);

	(void)key;
	/* on a pane of fields: the selected field against the figure last charted; on one of
	 * figures (Results): the selected figure against the field last charted */
	if (!pane->field)
		return chart_view_open_on(a, NULL, figure_if_number(pane->selected_key(a)));
	return chart_view_open_on(a, app_selected_field(a), NULL);
}

unsigned chart_view_command(struct app *a, const char *arg)
{
	const struct figure *fig = NULL;
	const struct field *f = NULL;
	char word[2][128] = {"", ""};

	if (arg && sscanf(arg, "%127s %127s", word[0], word[1]) < 0)
		word[0][0] = '\0';
	for (int i = 0; i < 2 && word[i][0]; i++) {
		const struct field *ff = scenario_field_find(word[i]);
		const struct figure *g = figure_find(word[i]);
		if (ff && !f)
			f = ff;
		else if (g && figure_is_number(g) && !fig)
			fig = g;
		else {
			app_status(a, true, "chart: '%s' is neither a numeric figure nor a field",
				   word[i]);
			return DIRTY_DRAW;
		}
	}
	if (!f) /* the selected field; none on Results */
		f = app_selected_field(a);
	return chart_view_open_on(a, f, fig);
}

/* The view's keys ----------------------------------------------------------------------- */

/* The next (dir 1) or previous (-1) numeric figure of the table that the plan has a value
 * for; the details (figure.h) are left to `sweep --y`. */
static const struct figure *figure_step(const struct app *a, const struct figure *at, int dir)
{
	int n = 0, i = 0;

	while (figures[n].key)
		n++;
	for (int k = 0; k < n; k++)
		if (&figures[k] == at)
			i = k;
	for (int step = 1; step < n; step++) {
		const struct figure *g = &figures[((i + dir * step) % n + n) % n];
		if (figure_is_number(g) && !(g->flags & FIGURE_DETAIL) &&
		    isfinite(figure_value(g, &a->plan)))
			return g;
	}
	return at;
}

static unsigned figure_key(struct app *a, int dir)
{
	struct chart_view *cv = &a->cv;

	cv->fig = figure_step(a, cv->fig, dir);
	cv->stale = true;
	app_status(a, false, "chart: %s (%s)", cv->fig->key, cv->fig->label);
	return DIRTY_DRAW;
}

KEY_HANDLER(chart_view_key_next_figure, figure_key(a, 1))
KEY_HANDLER(chart_view_key_prev_figure, figure_key(a, -1))
KEY_DRAWS(chart_view_key_close, search_view_open(a, VIEW_NONE))

/* Drawing ------------------------------------------------------------------------------- */

static void chart_view_draw(struct app *a, const struct view_ops *v, WINDOW *w)
{
	struct chart_view *cv = &a->cv;
	int width = getmaxx(w), height = getmaxy(w), inner = width - 4;
	char title[256], line[1024], now[64];
	const char *s;
	int y = 2;

	(void)v;
	if (cv->best_layout)
		snprintf(title, sizeof(title), "Chart: %s by GPU count, best layouts",
			 cv->fig->key);
	else
		snprintf(title, sizeof(title), "Chart: %s against %s", cv->fig->key,
			 cv->field->key);
	draw_frame(a, w, title);
	scenario_field_format(&a->scn, cv->field, now, sizeof(now));
	if (cv->best_layout && cv->invalid)
		snprintf(line, sizeof(line),
			 "the scaling view's best layouts (S: their table); %d counts fit "
			 "nothing (gaps); f/F figure",
			 cv->invalid);
	else if (cv->best_layout)
		snprintf(line, sizeof(line),
			 "the scaling view's best layouts (S: their table); f/F: another figure");
	else if (cv->invalid)
		snprintf(line, sizeof(line),
			 "%s now %s; %d of %d values do not check (gaps); f/F figure",
			 cv->field->key, now, cv->invalid, cv->n);
	else
		snprintf(line, sizeof(line), "%s now %s; f/F: another figure; q or Esc closes",
			 cv->field->key, now);
	draw_text_clip(a, w, 1, 2, inner, ROLE_DIM, line);
	chart_view_render(a, inner, height - 3, !a->theme.utf8);
	if (!cv->text[0]) {
		draw_text(a, w, 2, 2, inner, ROLE_BAD,
			  cv->n < 2 ? "nothing to chart" : "no room for the chart here");
		wnoutrefresh(w);
		return;
	}
	s = cv->text;
	while (*s && y < height - 1) {
		const char *e = strchr(s, '\n');
		size_t len = e ? (size_t)(e - s) : strlen(s);
		snprintf(line, sizeof(line), "%.*s", (int)len, s);
		draw_text(a, w, y++, 2, inner, ROLE_NORMAL, line);
		s = e ? e + 1 : s + len;
	}
	wnoutrefresh(w);
}

const struct view_ops chart_view_ops = {
    .key = app_body_view_key,
    .recalc = chart_view_compute,
    .draw = chart_view_draw,
    VIEW_OPS("chart", KC_CHART),
};
