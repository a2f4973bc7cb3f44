/* sweep.c - `gpuplan sweep`: plan a scenario at each value of some inputs and chart it. */
#include "sweep.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart.h"
#include "error.h"
#include "figure.h"
#include "file.h"
#include "plan.h"
#include "report.h"
#include "report_json.h"
#include "scenario_sets.h"
#include "text.h"
#include "units.h"

#define EXIT_USAGE 2
#define EXIT_IO	   1

#define CHART_COLUMNS 80
#define CHART_ROWS    13 /* 12 steps: a y label at each quarter */

/* One KEY=FROM..TO operand, its values generated, or a list KEY=A,B,C. */
struct range {
	const char *arg;
	const struct field *f;
	int n;
	bool geometric; /* *FACTOR: points evenly spaced on a log axis */
	bool list;	/* KEY=A,B,C: the values as given, evenly spaced in that order */
	bool words;	/* a list of words (enum, dtype, bool, catalog id): v[i] is i */
	double v[SWEEP_MAX_VALUES];
	char text[SWEEP_MAX_VALUES][64];     /* each value in canonical file form */
	const char *texts[SWEEP_MAX_VALUES]; /* text[i], for the chart's x labels */
};

/* What one plan gave. */
struct point {
	int at[SWEEP_MAX_RANGES]; /* the value of each range */
	bool valid, fits;
	double y[SWEEP_MAX_FIGURES];
	double capacity, slo_ttft_s, slo_tpot_s;
	char problem[256];
};

struct sweep {
	const struct sweep_request *r;
	int nranges;
	struct range ranges[SWEEP_MAX_RANGES];
	int nfigs;
	const struct figure *figs[SWEEP_MAX_FIGURES];
	int ncurves, npoints;
	struct point *points; /* ncurves x the x axis' n, curve-major */
	int invalid;
	/* a preset swept (hardware.gpu, model.preset) is set as --set sets it: the file's own
	 * fields of its section again over it, then the other --set options
	 * (scenario_apply_sets); sets holds those and one KEY=VALUE a preset range */
	const char **sets;
	char assign[SWEEP_MAX_RANGES][192];
};

static int usage(const char *arg, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int usage(const char *arg, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "gpuplan sweep: '%s': ", arg);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fprintf(
	    stderr,
	    "usage: gpuplan sweep FILE KEY=FROM..TO[:STEP|*FACTOR]|KEY=A,B,... [--y FIGURE]...\n");
	return EXIT_USAGE;
}

/* Ranges --------------------------------------------------------------------------------- */

/* Stores value v of range g as text, checked by the field table as --set checks a value (a
 * whole number for a count, within the field's range). 0 or the exit status. */
static int range_put(struct range *g, const struct catalog *cat, const struct scenario *s,
		     struct scenario *scratch, double v)
{
	struct gp_error err = {0};
	char msg[1024];

	if (g->f->type == FIELD_INT) {
		if (v != floor(v) || fabs(v) > 2e9)
			return usage(g->arg,
				     "the point %.10g is not a whole number (%s is a count)", v,
				     g->f->key);
		snprintf(g->text[g->n], sizeof(g->text[0]), "%.0f", v);
	} else {
		units_format(g->f->unit, v, g->text[g->n], sizeof(g->text[0]));
	}
	*scratch = *s;
	if (scenario_field_set(scratch, cat, g->f, g->text[g->n], &err) != 0) {
		err.file[0] = '\0';
		return usage(g->arg, "%s", gp_error_format(&err, msg, sizeof(msg)));
	}
	g->v[g->n++] = v;
	return 0;
}

/* Parses text as a value of the range's field (or, for a factor, a plain number). */
static int range_number(struct range *g, const char *what, const char *text, size_t len,
			enum unit_kind unit, double *out)
{
	char buf[64];
	const char *why = NULL;

	if (len == 0 || len >= sizeof(buf))
		return usage(g->arg, "%s is %s (expected KEY=FROM..TO[:STEP|*FACTOR])", what,
			     len ? "too long" : "missing");
	memcpy(buf, text, len);
	buf[len] = '\0';
	if (units_parse(unit, buf, out, &why) != 0)
		return usage(g->arg, "cannot read %s '%s' (expected %s)", what, buf, why);
	return 0;
}

/* Stores the word text (a list's value of a field that is no number) as --set would read
 * it, in canonical file form; its position on the axis is its index. */
static int range_word(struct range *g, const struct catalog *cat, const struct scenario *s,
		      struct scenario *scratch, const char *text)
{
	struct gp_error err = {0};
	char msg[1024];

	*scratch = *s;
	if (scenario_field_set(scratch, cat, g->f, text, &err) != 0) {
		err.file[0] = '\0';
		return usage(g->arg, "%s", gp_error_format(&err, msg, sizeof(msg)));
	}
	scenario_field_format(scratch, g->f, g->text[g->n], sizeof(g->text[0]));
	g->v[g->n] = g->n;
	g->n++;
	return 0;
}

/* KEY=A,B,C into g: each value read as --set reads it (a number with its unit, or a word),
 * in the order given. A field whose value is free text or a list is refused. */
static int range_list(struct range *g, const char *value, const struct catalog *cat,
		      const struct scenario *s, struct scenario *scratch)
{
	const struct field *f = g->f;
	int rc;

	if (f->type == FIELD_TARGETS || (f->flags & FIELD_FILE) ||
	    (f->type == FIELD_STR && f->catalog == FIELD_CATALOG_NONE))
		return usage(g->arg,
			     "%s cannot be swept (a sweep lists numbers, choices or catalog ids)",
			     f->key);
	g->list = true;
	g->words = f->type != FIELD_INT && f->type != FIELD_NUM;
	for (const char *at = value;; at++) {
		size_t len = strcspn(at, ",");
		char buf[64];

		if (len == 0)
			return usage(g->arg, "an empty value in the list (expected KEY=A,B,...)");
		if (g->n == SWEEP_MAX_VALUES)
			return usage(g->arg, "more than %d values", SWEEP_MAX_VALUES);
		if (g->words) {
			if (len >= sizeof(buf))
				return usage(g->arg, "the value '%.*s' is too long", (int)len, at);
			memcpy(buf, at, len);
			buf[len] = '\0';
			rc = range_word(g, cat, s, scratch, buf);
		} else {
			double v;
			rc = range_number(g, "a value", at, len, f->unit, &v);
			if (rc == 0)
				rc = range_put(g, cat, s, scratch, v);
		}
		if (rc != 0)
			return rc;
		for (int i = 0; i < g->n - 1; i++)
			if (strcmp(g->text[i], g->text[g->n - 1]) == 0)
				return usage(g->arg, "%s is listed twice", g->text[i]);
		at += len;
		if (!*at)
			break;
	}
	return 0;
}

/* KEY=FROM..TO[:STEP|*FACTOR] into g: FROM, then FROM + STEP (or x FACTOR) while it has not
 * passed TO. Without STEP or FACTOR: x2 for a field the terminal UI doubles, steps of 1
 * for another count, else 16 evenly spaced points. 0 or the exit status, with a message
 * naming the operand. */
static int range_parse(struct range *g, const char *arg, const struct catalog *cat,
		       const struct scenario *s, struct scenario *scratch)
{
	const char *eq = strchr(arg, '='), *value, *dots, *to, *sep;
	char key[128];
	double from, last, step = 0, factor = 0;
	long count;
	int rc;

	memset(g, 0, sizeof(*g));
	g->arg = arg;
	if (!eq || eq == arg)
		return usage(arg, "not a range (expected KEY=FROM..TO[:STEP|*FACTOR], e.g. "
				  "workload.seq_len=1k..32k*2)");
	snprintf(key, sizeof(key), "%.*s", (int)(eq - arg), arg);
	g->f = scenario_field_find(key);
	if (!g->f) {
		const char *near = scenario_field_suggest(key, NULL);
		if (near)
			return usage(arg, "unknown key '%s' (did you mean '%s'?)", key, near);
		return usage(arg, "unknown key '%s' (gpuplan-scenario(5) lists them)", key);
	}
	value = eq + 1;
	dots = strstr(value, "..");
	if (!dots && strchr(value, ','))
		return range_list(g, value, cat, s, scratch);
	if (g->f->type != FIELD_INT && g->f->type != FIELD_NUM)
		return usage(arg,
			     "%s is not a number (a sweep steps a count or a quantity; list "
			     "other values, as %s=A,B)",
			     g->f->key, g->f->key);
	if (!dots)
		return usage(arg, "no '..' (expected KEY=FROM..TO[:STEP|*FACTOR], or a list "
				  "KEY=A,B,...)");
	to = dots + 2;
	sep = to + strcspn(to, ":*");
	if ((rc = range_number(g, "FROM", value, (size_t)(dots - value), g->f->unit, &from)) ||
	    (rc = range_number(g, "TO", to, (size_t)(sep - to), g->f->unit, &last)))
		return rc;
	if (*sep == ':') {
		if ((rc = range_number(g, "STEP", sep + 1, strlen(sep + 1), g->f->unit, &step)))
			return rc;
		if (step == 0)
			return usage(arg, "STEP is 0 (expected a step that moves from FROM to TO)");
	} else if (*sep == '*') {
		if ((rc = range_number(g, "FACTOR", sep + 1, strlen(sep + 1), UNIT_NONE, &factor)))
			return rc;
		if (!(factor > 1))
			return usage(arg, "FACTOR %g is not above 1 (expected *2, *1.5, ...)",
				     factor);
	} else if (g->f->flags & FIELD_STEP_DOUBLES && from > 0) {
		factor = 2;
	} else if (g->f->type == FIELD_INT) {
		step = from <= last ? 1 : -1;
	} else {
		step = from == last ? 1 : (last - from) / 15;
	}
	if (step > 0 && from > last)
		return usage(arg, "FROM is above TO (a positive STEP counts up; give a negative "
				  "one to count down)");
	if (step < 0 && from < last)
		return usage(arg, "FROM is below TO with a negative STEP (it would never reach "
				  "TO)");
	if (factor > 0 && !(from > 0))
		return usage(arg, "FROM must be above 0 to multiply by a FACTOR");
	if (factor > 0 && from > last)
		return usage(arg, "FROM is above TO (a FACTOR counts up)");
	/* FROM and TO themselves first, so that a range past the field's says so with the
	 * value given, not a point of the walk that the user never typed */
	if ((rc = range_put(g, cat, s, scratch, from)) ||
	    (rc = range_put(g, cat, s, scratch, last)))
		return rc;
	g->n = 0;
	/* how many points, before any is made: a tolerance of 1e-9 keeps TO itself when
	 * rounding leaves it a hair past */
	if (factor > 0)
		count = (long)floor(log(last / from) / log(factor) + 1e-9) + 1;
	else
		count = (long)floor((last - from) / step + 1e-9) + 1;
	if (count > SWEEP_MAX_VALUES)
		return usage(arg, "%ld points (at most %d: take a larger STEP or FACTOR)", count,
			     SWEEP_MAX_VALUES);
	g->geometric = factor > 0;
	for (long i = 0; i < count; i++) {
		double v = factor > 0 ? from * pow(factor, (double)i) : from + step * (double)i;
		/* a factor of 2 from a whole number stays whole: pow is exact there */
		if ((rc = range_put(g, cat, s, scratch, v)) != 0)
			return rc;
	}
	return 0;
}

/* Figures -------------------------------------------------------------------------------- */

static int figure_add(struct sweep *w, const char *name, size_t len)
{
	char key[128];
	const struct figure *f, *near = NULL;
	int best = 4;

	snprintf(key, sizeof(key), "%.*s", (int)len, name);
	f = figure_find(key);
	if (!f) {
		for (const struct figure *g = figures; g->key; g++) {
			int d = text_edit_distance(key, g->key);
			if (d < best && figure_is_number(g)) {
				best = d;
				near = g;
			}
		}
		if (near)
			return usage(key, "unknown figure for --y (did you mean '%s'?)", near->key);
		return usage(key, "unknown figure for --y (`gpuplan explain FILE` lists them)");
	}
	if (!figure_is_number(f))
		return usage(key, "--y needs a number; %s is a word", key);
	for (int i = 0; i < w->nfigs; i++)
		if (w->figs[i] == f)
			return 0;
	if (w->nfigs == SWEEP_MAX_FIGURES)
		return usage(key, "more than %d --y figures", SWEEP_MAX_FIGURES);
	w->figs[w->nfigs++] = f;
	return 0;
}

void sweep_figures(struct report_buf *b)
{
	for (const struct figure *f = figures; f->key; f++)
		report_buf_printf(b, "%s\t%s\t%s\t%s\n", f->key,
				  figure_is_number(f) ? "number" : "word", units_kind_name(f->unit),
				  f->label);
}

/* Without --y: memory per GPU, then what the workload is judged on. */
static void figures_default(struct sweep *w)
{
	static const char *const second[WL_COUNT] = {
	    [WL_TRAIN] = "time.step_s",
	    [WL_FINETUNE] = "time.step_s",
	    [WL_ONLINE] = "latency.tpot_s",
	    [WL_OFFLINE] = "throughput.tokens_per_s",
	};

	w->figs[w->nfigs++] = figure_find("memory.per_gpu.total");
	w->figs[w->nfigs++] = figure_find(second[w->r->s->workload.kind]);
}

/* The run ----------------------------------------------------------------------------------- */

static bool is_memory(const struct figure *f)
{
	return strncmp(f->key, "memory.per_gpu.", 15) == 0;
}

/* The points, planned: the preallocated points, one scenario and one plan used again, so
 * nothing is allocated in the loop. */
static void sweep_plan(struct sweep *w, struct scenario *work, struct plan *p,
		       struct gp_problems *probs)
{
	const int nx = w->ranges[0].n;

	for (int k = 0; k < w->npoints; k++) {
		struct point *pt = &w->points[k];
		int curve = k / nx, rest = curve;
		struct gp_error err = {0};
		char msg[1024];

		pt->at[0] = k % nx;
		for (int g = w->nranges - 1; g >= 1; g--) {
			pt->at[g] = rest % w->ranges[g].n;
			rest /= w->ranges[g].n;
		}
		*work = *w->r->s;
		/* presets first, as --set applies them, then the other values */
		int nsets = w->r->nsets, failed = -1;
		for (int g = 0; g < w->nranges; g++)
			if (w->ranges[g].f->flags & FIELD_PRESET) {
				const struct range *rg = &w->ranges[g];
				char a[sizeof(w->assign[0])];
				/* through a copy: the text and the assignment share *w */
				snprintf(a, sizeof(a), "%s=%s", rg->f->key, rg->text[pt->at[g]]);
				memcpy(w->assign[g], a, sizeof(a));
				w->sets[nsets++] = w->assign[g];
			}
		gp_problems_init(probs);
		if (nsets > w->r->nsets && scenario_apply_sets(work, w->r->cat, w->sets, nsets,
							       w->r->src, &failed, &err) != 0)
			gp_problems_add(probs, &err);
		for (int g = 0; g < w->nranges; g++)
			if (!(w->ranges[g].f->flags & FIELD_PRESET))
				/* each value was set on a copy of the scenario when it was read */
				(void)scenario_field_set(work, w->r->cat, w->ranges[g].f,
							 w->ranges[g].text[pt->at[g]], &err);
		if (!probs->count)
			scenario_validate(work, NULL, probs);
		for (int i = 0; i < w->nfigs; i++)
			pt->y[i] = NAN;
		pt->capacity = pt->slo_ttft_s = pt->slo_tpot_s = NAN;
		if (probs->count) {
			struct gp_error e = probs->items[0];
			e.file[0] = '\0';
			e.line = e.column = 0;
			snprintf(pt->problem, sizeof(pt->problem), "%s",
				 gp_error_format(&e, msg, sizeof(msg)));
			pt->valid = false;
			w->invalid++;
			continue;
		}
		plan_compute(work, p);
		pt->valid = true;
		pt->fits = p->mem.fits;
		for (int i = 0; i < w->nfigs; i++)
			pt->y[i] = figure_value(w->figs[i], p);
		pt->capacity = p->mem.capacity;
		if (work->workload.slo.ttft_s > 0)
			pt->slo_ttft_s = work->workload.slo.ttft_s;
		if (work->workload.slo.tpot_s > 0)
			pt->slo_tpot_s = work->workload.slo.tpot_s;
	}
}

/* "hardware.count=8, workload.batch=16": the values of the curve's ranges after the first. */
static void curve_label(const struct sweep *w, const struct point *pt, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int g = 1; g < w->nranges && used < size; g++)
		used += (size_t)snprintf(buf + used, size - used, "%s%s=%s", g > 1 ? ", " : "",
					 w->ranges[g].f->key, w->ranges[g].text[pt->at[g]]);
}

/* Output ------------------------------------------------------------------------------------ */

static bool any_finite(const double *v, int n)
{
	for (int i = 0; i < n; i++)
		if (isfinite(v[i]))
			return true;
	return false;
}

/* The charts of the sweep, one a figure, over the preallocated values vals (nfigs x
 * ncurves x nx, then the rules' 3 x nx), labels (one a curve) and titles (one a figure,
 * then the x axis' name). */
static void sweep_charts(struct sweep *w, struct chart *charts, double *vals, char (*labels)[160],
			 char (*titles)[256])
{
	const int nx = w->ranges[0].n;
	double *capacity = vals + (size_t)w->nfigs * w->ncurves * nx;
	double *ttft = capacity + nx, *tpot = ttft + nx;
	char *xlabel = titles[SWEEP_MAX_FIGURES]; /* the axis' name on a log scale */

	snprintf(xlabel, sizeof(titles[0]), "%s (log scale)", w->ranges[0].f->key);

	for (int i = 0; i < nx; i++) {
		capacity[i] = w->points[i].capacity;
		ttft[i] = w->points[i].slo_ttft_s;
		tpot[i] = w->points[i].slo_tpot_s;
	}
	for (int c = 0; c < w->ncurves; c++)
		curve_label(w, &w->points[c * nx], labels[c], sizeof(labels[c]));
	for (int f = 0; f < w->nfigs; f++) {
		struct chart *ch = &charts[f];
		const struct figure *fig = w->figs[f];

		memset(ch, 0, sizeof(*ch));
		snprintf(titles[f], sizeof(titles[f]), "%s (%s) against %s", fig->key, fig->label,
			 w->ranges[0].f->key);
		ch->title = titles[f];
		ch->x_label = w->ranges[0].geometric ? xlabel : w->ranges[0].f->key;
		ch->x_unit = w->ranges[0].f->unit;
		ch->x_words = w->ranges[0].words ? w->ranges[0].texts : NULL;
		ch->y_label = fig->key;
		ch->y_unit = fig->unit;
		ch->n = nx;
		ch->x = w->ranges[0].v;
		ch->nseries = w->ncurves;
		for (int c = 0; c < w->ncurves; c++) {
			double *y = vals + ((size_t)f * w->ncurves + c) * nx;
			for (int i = 0; i < nx; i++)
				y[i] = w->points[c * nx + i].y[f];
			ch->series[c].y = y;
			ch->series[c].label = w->ncurves > 1 ? labels[c] : fig->key;
		}
		if (is_memory(fig))
			ch->rules[ch->nrules++] =
			    (struct chart_rule){"memory.capacity (fit limit)", capacity};
		if (strncmp(fig->key, "latency.ttft", 12) == 0 && any_finite(ttft, nx))
			ch->rules[ch->nrules++] =
			    (struct chart_rule){"workload.slo.ttft (SLO)", ttft};
		if (strncmp(fig->key, "latency.tpot", 12) == 0 && any_finite(tpot, nx))
			ch->rules[ch->nrules++] =
			    (struct chart_rule){"workload.slo.tpot (SLO)", tpot};
	}
}

static void sweep_csv(const struct sweep *w, struct report_buf *b)
{
	struct report_csv c = {b, 0};

	for (int g = 0; g < w->nranges; g++)
		report_csv_str(&c, w->ranges[g].f->key);
	report_csv_str(&c, "valid");
	report_csv_str(&c, "memory.fits");
	for (int f = 0; f < w->nfigs; f++)
		report_csv_str(&c, w->figs[f]->key);
	report_csv_str(&c, "memory.capacity");
	report_csv_str(&c, "workload.slo.ttft");
	report_csv_str(&c, "workload.slo.tpot");
	report_csv_str(&c, "problem");
	report_csv_end(&c);
	for (int k = 0; k < w->npoints; k++) {
		const struct point *pt = &w->points[k];

		for (int g = 0; g < w->nranges; g++) {
			const struct range *rg = &w->ranges[g];
			if (rg->words)
				report_csv_str(&c, rg->text[pt->at[g]]);
			else
				report_csv_num(&c, rg->v[pt->at[g]], rg->f->type == FIELD_INT);
		}
		report_csv_bool(&c, pt->valid);
		if (pt->valid)
			report_csv_bool(&c, pt->fits);
		else
			report_csv_str(&c, NULL);
		for (int f = 0; f < w->nfigs; f++)
			report_csv_num(&c, pt->y[f], w->figs[f]->integer);
		report_csv_num(&c, pt->capacity, true);
		report_csv_num(&c, pt->slo_ttft_s, false);
		report_csv_num(&c, pt->slo_tpot_s, false);
		report_csv_str(&c, pt->valid ? NULL : pt->problem);
		report_csv_end(&c);
	}
}

/* JSON through report_json.h's values (cJSON behind it: CONTRIBUTING.md, "Layers"): NULL when out
 * of memory. */
/* A range's value i: a number, or a list's word as a file writes it (true/false a bool). */
static struct cJSON *json_value(const struct range *rg, int i)
{
	if (!rg->words)
		return report_json_number(rg->v[i], rg->f->type == FIELD_INT);
	if (rg->f->type == FIELD_BOOL)
		return report_json_bool(strcmp(rg->text[i], "true") == 0);
	return report_json_string(rg->text[i]);
}

static struct cJSON *sweep_json(const struct sweep *w)
{
	struct cJSON *root = report_json_object(), *o, *arr;
	bool ok = root != NULL;
	const struct scenario *s = w->r->s;

	ok = ok && report_json_add(root, "schema", report_json_string("gpuplan.sweep/1"));
	ok = ok && report_json_add(root, "scenario", o = report_json_object());
	ok = ok && report_json_add(o, "name", report_json_string(s->name));
	ok = ok && report_json_add(o, "file", report_json_string(w->r->file));
	ok = ok && report_json_add(root, "inputs", arr = report_json_array());
	for (int g = 0; ok && g < w->nranges; g++) {
		const struct range *rg = &w->ranges[g];
		struct cJSON *in = report_json_object(), *vals;

		ok = report_json_push(arr, in);
		if (!ok)
			break;
		ok =
		    report_json_add(in, "key", report_json_string(rg->f->key)) &&
		    report_json_add(in, "unit", report_json_string(units_kind_name(rg->f->unit))) &&
		    report_json_add(in, "scale",
				    report_json_string(rg->list	       ? "list"
						       : rg->geometric ? "log"
								       : "linear")) &&
		    report_json_add(in, "values", vals = report_json_array());
		for (int i = 0; ok && i < rg->n; i++)
			ok = report_json_push(vals, json_value(rg, i));
	}
	ok = ok && report_json_add(root, "figures", arr = report_json_array());
	for (int f = 0; ok && f < w->nfigs; f++) {
		struct cJSON *fo = report_json_object();
		ok = report_json_push(arr, fo);
		if (!ok)
			break;
		ok = report_json_add(fo, "key", report_json_string(w->figs[f]->key)) &&
		     report_json_add(fo, "label", report_json_string(w->figs[f]->label)) &&
		     report_json_add(fo, "unit",
				     report_json_string(units_kind_name(w->figs[f]->unit)));
	}
	ok = ok && report_json_add(root, "points", arr = report_json_array());
	for (int k = 0; ok && k < w->npoints; k++) {
		const struct point *pt = &w->points[k];
		struct cJSON *po = report_json_object(), *in, *fig, *lim;

		ok = report_json_push(arr, po);
		if (!ok)
			break;
		ok = report_json_add(po, "inputs", in = report_json_object());
		for (int g = 0; ok && g < w->nranges; g++)
			ok = report_json_add(in, w->ranges[g].f->key,
					     json_value(&w->ranges[g], pt->at[g]));
		ok = ok && report_json_add(po, "valid", report_json_bool(pt->valid)) &&
		     report_json_add(po, "problem",
				     pt->valid ? report_json_null()
					       : report_json_string(pt->problem)) &&
		     report_json_add(po, "fits",
				     pt->valid ? report_json_bool(pt->fits) : report_json_null()) &&
		     report_json_add(po, "figures", fig = report_json_object());
		for (int f = 0; ok && f < w->nfigs; f++)
			ok = report_json_add(fig, w->figs[f]->key,
					     report_json_number(pt->y[f], w->figs[f]->integer));
		ok =
		    ok && report_json_add(po, "limits", lim = report_json_object()) &&
		    report_json_add(lim, "memory.capacity",
				    report_json_number(pt->capacity, true)) &&
		    report_json_add(lim, "slo.ttft_s", report_json_number(pt->slo_ttft_s, false)) &&
		    report_json_add(lim, "slo.tpot_s", report_json_number(pt->slo_tpot_s, false));
	}
	if (!ok) {
		report_json_free(root);
		return NULL;
	}
	return root;
}

/* Whether the locale's characters are UTF-8, from the environment as setlocale(LC_CTYPE, "")
 * reads it: LC_ALL, then LC_CTYPE, then LANG. */
static bool locale_utf8(void)
{
	const char *names[] = {"LC_ALL", "LC_CTYPE", "LANG"};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const char *v = getenv(names[i]);
		char low[128];
		size_t n = 0;

		if (!v || !*v)
			continue;
		for (; v[n] && n < sizeof(low) - 1; n++)
			low[n] = (char)(v[n] >= 'A' && v[n] <= 'Z' ? v[n] - 'A' + 'a' : v[n]);
		low[n] = '\0';
		return strstr(low, "utf-8") || strstr(low, "utf8");
	}
	return false;
}

static int write_stdout(const struct report_buf *b)
{
	if (b->failed) {
		fprintf(stderr, "gpuplan: out of memory\n");
		return EXIT_IO;
	}
	if ((b->len && fwrite(b->data, 1, b->len, stdout) != b->len) || fflush(stdout) != 0) {
		fprintf(stderr, "gpuplan: writing standard output: %s\n", strerror(errno));
		return EXIT_IO;
	}
	return 0;
}

static int write_svg(const char *path, const struct report_buf *b)
{
	struct gp_error err = {0};
	struct file_target t;
	char msg[1024];

	if (strcmp(path, "-") == 0)
		return write_stdout(b);
	if (b->failed) {
		fprintf(stderr, "gpuplan: out of memory\n");
		return EXIT_IO;
	}
	if (file_check_target(path, &t, &err) != 0 ||
	    file_write_atomic(path, b->data, b->len, &err) != 0) {
		if (!err.file[0])
			snprintf(err.file, sizeof(err.file), "%s", path);
		fprintf(stderr, "%s\n", gp_error_format(&err, msg, sizeof(msg)));
		return gp_error_exit_status(&err);
	}
	return 0;
}

int sweep_run(const struct sweep_request *r)
{
	struct sweep *w = calloc(1, sizeof(*w));
	struct scenario *work = malloc(sizeof(*work));
	struct plan *p = malloc(sizeof(*p));
	struct gp_problems *probs = malloc(sizeof(*probs));
	struct chart *charts = calloc(SWEEP_MAX_FIGURES, sizeof(*charts));
	char(*labels)[160] = calloc(SWEEP_MAX_CURVES, sizeof(*labels));
	char(*titles)[256] = calloc(SWEEP_MAX_FIGURES + 1, sizeof(*titles));
	double *vals = NULL;
	struct report_buf out = {0}, svg = {0};
	int rc = 0;

	if (!w || !work || !p || !probs || !charts || !labels || !titles) {
		fprintf(stderr, "gpuplan: out of memory\n");
		rc = EXIT_IO;
		goto out;
	}
	w->r = r;
	if (r->nranges > SWEEP_MAX_RANGES) {
		rc = usage(r->ranges[SWEEP_MAX_RANGES], "more than %d ranges", SWEEP_MAX_RANGES);
		goto out;
	}
	w->ncurves = 1;
	for (int g = 0; g < r->nranges; g++) {
		if ((rc = range_parse(&w->ranges[g], r->ranges[g], r->cat, r->s, work)) != 0)
			goto out;
		for (int h = 0; h < g; h++)
			if (w->ranges[h].f == w->ranges[g].f) {
				rc = usage(r->ranges[g], "%s is swept twice", w->ranges[g].f->key);
				goto out;
			}
		w->nranges++;
		if (g > 0 && (w->ncurves *= w->ranges[g].n) > SWEEP_MAX_CURVES) {
			rc = usage(r->ranges[g],
				   "%d curves (at most %d: the ranges after the first give one "
				   "curve for each combination of their values)",
				   w->ncurves, SWEEP_MAX_CURVES);
			goto out;
		}
	}
	for (int i = 0; i < r->nys; i++) {
		const char *y = r->ys[i];
		for (;;) {
			size_t n = strcspn(y, ",");
			if ((rc = figure_add(w, y, n)) != 0)
				goto out;
			if (!y[n])
				break;
			y += n + 1;
		}
	}
	if (!w->nfigs)
		figures_default(w);
	for (int g = 0; g < w->nranges; g++)
		for (int i = 0; i < w->ranges[g].n; i++)
			w->ranges[g].texts[i] = w->ranges[g].text[i];
	w->sets = calloc((size_t)r->nsets + SWEEP_MAX_RANGES, sizeof(*w->sets));
	for (int i = 0; w->sets && i < r->nsets; i++)
		w->sets[i] = r->sets[i];
	w->npoints = w->ncurves * w->ranges[0].n;
	w->points = calloc((size_t)w->npoints, sizeof(*w->points));
	vals = calloc((size_t)(w->nfigs * w->ncurves + 3) * (size_t)w->ranges[0].n, sizeof(*vals));
	if (!w->points || !vals || !w->sets) {
		fprintf(stderr, "gpuplan: out of memory\n");
		rc = EXIT_IO;
		goto out;
	}
	sweep_plan(w, work, p, probs);
	/* a point the scenario cannot hold is left out of the charts, and said so */
	for (int k = 0, said = 0; k < w->npoints; k++) {
		const struct point *pt = &w->points[k];
		char where[512];
		size_t used = 0;

		if (pt->valid)
			continue;
		if (said++ == 10) {
			fprintf(stderr, "gpuplan sweep: %d more points left out\n",
				w->invalid - 10);
			break;
		}
		for (int g = 0; g < w->nranges; g++)
			used += (size_t)snprintf(where + used, sizeof(where) - used, "%s%s=%s",
						 g ? ", " : "", w->ranges[g].f->key,
						 w->ranges[g].text[pt->at[g]]);
		fprintf(stderr, "gpuplan sweep: %s: left out: %s\n", where, pt->problem);
	}
	sweep_charts(w, charts, vals, labels, titles);
	if (r->svg) {
		char title[300];
		snprintf(title, sizeof(title), "%s", r->s->name[0] ? r->s->name : r->file);
		chart_svg(&svg, charts, w->nfigs, title);
		if ((rc = write_svg(r->svg, &svg)) != 0)
			goto out;
		if (!r->json && !r->csv)
			goto out;
	}
	if (r->json) {
		struct cJSON *j = sweep_json(w);
		char *text = j ? report_json_print(j) : NULL;
		report_json_free(j);
		if (!text) {
			fprintf(stderr, "gpuplan: out of memory\n");
			rc = EXIT_IO;
			goto out;
		}
		report_buf_printf(&out, "%s", text);
		free(text);
	} else if (r->csv) {
		sweep_csv(w, &out);
	} else {
		bool ascii = r->ascii || !locale_utf8();
		for (int f = 0; f < w->nfigs; f++) {
			if (f)
				report_buf_printf(&out, "\n");
			chart_text(&out, &charts[f], CHART_COLUMNS, CHART_ROWS, ascii);
		}
	}
	rc = write_stdout(&out);
out:
	report_buf_release(&out);
	report_buf_release(&svg);
	if (w) {
		free(w->points);
		free(w->sets);
	}
	free(w);
	free(work);
	free(p);
	free(probs);
	free(charts);
	free(labels);
	free(titles);
	free(vals);
	return rc;
}
