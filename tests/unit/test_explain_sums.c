/* test_explain_sums.c - every explanation of every shipped scenario (and of variations:
 * pipeline and tensor parallelism, ZeRO 0-3, offload, LoRA and QLoRA, MoE presets, online
 * and offline serving with and without an SLO, batch auto) is checked as a teacher would:
 *  - no line wider than 80 columns, no "nan", "inf" or "-0" printed;
 *  - an applicable explanation names its source;
 *  - the numbers add up: where a statement ("= 1.14 GiB x 32 + 4.34 GiB") is an arithmetic
 *    expression of printed figures and the next one is a figure ("= 40.9 GiB"), evaluating
 *    the first with interval arithmetic (each figure is +- half a unit of its third
 *    significant digit, the precision explain prints at) must reach the second;
 *  - every applicable key but a few that are not arithmetic has at least one such check,
 *    so an explanation cannot pass by printing prose instead of numbers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "shipped_catalog.h"
#include "shipped_scenarios.h"
#include "explain.h"
#include "figure.h"
#include "framework.h"
#include "plan.h"
#include "scenario.h"
#include "scenario_sets.h"
#include "scenario_yaml.h"

/* ---- interval arithmetic over printed figures ---- */

struct iv {
	double lo, hi;
};

static struct iv iv_exact(double v)
{
	struct iv r = {v, v};
	return r;
}

/* A figure printed to 3 significant digits: +- half a unit of the third. Figures printed
 * with more digits (whole numbers like 58745) get the same, wider, allowance. */
static struct iv iv_printed(double mantissa, double scale)
{
	double half = 0, a = fabs(mantissa);
	struct iv r;
	if (a > 0)
		half = 0.5 * pow(10, floor(log10(a)) - 2);
	r.lo = (mantissa - half) * scale;
	r.hi = (mantissa + half) * scale;
	if (r.lo > r.hi) {
		double t = r.lo;
		r.lo = r.hi;
		r.hi = t;
	}
	return r;
}

static struct iv iv_add(struct iv a, struct iv b)
{
	struct iv r = {a.lo + b.lo, a.hi + b.hi};
	return r;
}

static struct iv iv_sub(struct iv a, struct iv b)
{
	struct iv r = {a.lo - b.hi, a.hi - b.lo};
	return r;
}

static struct iv iv_mul(struct iv a, struct iv b)
{
	double p[4] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
	struct iv r = {p[0], p[0]};
	for (int i = 1; i < 4; i++) {
		r.lo = fmin(r.lo, p[i]);
		r.hi = fmax(r.hi, p[i]);
	}
	return r;
}

static struct iv iv_div(struct iv a, struct iv b)
{
	struct iv inv;
	if (b.lo <= 0 && b.hi >= 0) {
		struct iv all = {-INFINITY, INFINITY};
		return all;
	}
	inv.lo = 1 / b.hi;
	inv.hi = 1 / b.lo;
	return iv_mul(a, inv);
}

/* ---- a parser for the numbers line ---- */

struct parser {
	const char *p;
	int ok;
};

static void skip_blanks(struct parser *ps)
{
	while (*ps->p == ' ' || *ps->p == '\n')
		ps->p++;
}

static int word_is(struct parser *ps, const char *w)
{
	size_t n = strlen(w);
	skip_blanks(ps);
	if (strncmp(ps->p, w, n) != 0)
		return 0;
	if (isalnum((unsigned char)ps->p[n]))
		return 0;
	return 1;
}

/* Units written after a space, longest first; the value in SI base units. */
static const struct {
	const char *text;
	double scale;
} units[] = {
    {"TWh", 3.6e15},
    {"GWh", 3.6e12},
    {"MWh", 3.6e9},
    {"kWh", 3.6e6},
    {"tok/s", 1},
    {"PFLOP/s", 1e15},
    {"TFLOP/s", 1e12},
    {"GFLOP/s", 1e9},
    {"FLOP/s", 1},
    {"TB/s", 1e12},
    {"GB/s", 1e9},
    {"MB/s", 1e6},
    {"kB/s", 1e3},
    {"B/s", 1},
    /* sizes are binary (units.c); a decimal "GB" left in an explanation does not parse */
    {"TiB", 1099511627776.0},
    {"GiB", 1073741824.0},
    {"MiB", 1048576.0},
    {"KiB", 1024.0},
    {"B", 1},
    {"kW", 1e3},
    {"W", 1},
    {"min", 60},
    {"ms", 1e-3},
    {"us", 1e-6},
    {"s", 1},
    {"h", 3600},
    {"d", 86400},
    {"y", 31557600},
};

static struct iv parse_expr(struct parser *ps);

static struct iv parse_number(struct parser *ps)
{
	char *end;
	double v, scale = 1;
	const char *q;

	skip_blanks(ps);
	if (*ps->p == '$')
		ps->p++;
	v = strtod(ps->p, &end);
	if (end == ps->p || !(isdigit((unsigned char)*ps->p) || *ps->p == '.')) {
		ps->ok = 0;
		return iv_exact(0);
	}
	q = end;
	/* count suffixes written against the number: 8.03B, 525M, 8.19k, 2T */
	if (*q == 'k' || *q == 'M' || *q == 'B' || *q == 'T') {
		if (!isalpha((unsigned char)q[1])) {
			scale = *q == 'k' ? 1e3 : *q == 'M' ? 1e6 : *q == 'B' ? 1e9 : 1e12;
			q++;
		}
		if (q[0] == '/' && q[1] == 'h' && !isalnum((unsigned char)q[2])) {
			scale /= 3600.0; /* "$44.1k/h" */
			q += 2;
		}
	} else if (*q == '%') {
		scale = 0.01;
		q++;
	} else if (q[0] == '/' && q[1] == 'h' && !isalnum((unsigned char)q[2])) {
		scale = 1 / 3600.0; /* "$2.69/h" */
		q += 2;
	} else if (*q == ' ') {
		const char *u = q + 1;
		for (unsigned i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
			size_t n = strlen(units[i].text);
			if (strncmp(u, units[i].text, n) == 0 && !isalnum((unsigned char)u[n]) &&
			    u[n] != '/') {
				scale = units[i].scale;
				q = u + n;
				break;
			}
		}
	}
	ps->p = q;
	/* whole numbers written exactly (%d) are as exact as 3 significant digits or better */
	return iv_printed(v, scale);
}

static struct iv parse_factor(struct parser *ps)
{
	static const char *const funcs[] = {"max", "min", "sqrt", "ceil", "floor", NULL};
	skip_blanks(ps);
	if (*ps->p == '-') {
		struct iv a;
		ps->p++;
		a = parse_factor(ps);
		return iv_sub(iv_exact(0), a);
	}
	if (*ps->p == '(') {
		struct iv a;
		ps->p++;
		a = parse_expr(ps);
		skip_blanks(ps);
		if (*ps->p != ')')
			ps->ok = 0;
		else
			ps->p++;
		return a;
	}
	for (int f = 0; funcs[f]; f++) {
		size_t n = strlen(funcs[f]);
		if (strncmp(ps->p, funcs[f], n) == 0 && ps->p[n] == '(') {
			struct iv a, b;
			ps->p += n + 1;
			a = parse_expr(ps);
			skip_blanks(ps);
			while (*ps->p == ',') {
				ps->p++;
				b = parse_expr(ps);
				if (f == 0) {
					a.lo = fmax(a.lo, b.lo);
					a.hi = fmax(a.hi, b.hi);
				} else if (f == 1) {
					a.lo = fmin(a.lo, b.lo);
					a.hi = fmin(a.hi, b.hi);
				} else {
					ps->ok = 0;
				}
				skip_blanks(ps);
			}
			if (*ps->p != ')')
				ps->ok = 0;
			else
				ps->p++;
			if (f == 2) {
				a.lo = sqrt(fmax(a.lo, 0));
				a.hi = sqrt(fmax(a.hi, 0));
			} else if (f == 3) {
				a.lo = ceil(a.lo);
				a.hi = ceil(a.hi);
			} else if (f == 4) {
				a.lo = floor(a.lo);
				a.hi = floor(a.hi);
			}
			return a;
		}
	}
	return parse_number(ps);
}

static struct iv parse_term(struct parser *ps)
{
	struct iv a = parse_factor(ps);
	while (ps->ok) {
		if (word_is(ps, "x")) {
			ps->p++;
			a = iv_mul(a, parse_factor(ps));
		} else if (*ps->p == '/' && ps->p[1] == ' ') {
			ps->p++;
			a = iv_div(a, parse_factor(ps));
		} else {
			break;
		}
	}
	return a;
}

static struct iv parse_expr(struct parser *ps)
{
	struct iv a = parse_term(ps);
	while (ps->ok) {
		skip_blanks(ps);
		if (*ps->p == '+' && ps->p[1] == ' ') {
			ps->p++;
			a = iv_add(a, parse_term(ps));
		} else if (*ps->p == '-' && ps->p[1] == ' ') {
			ps->p++;
			a = iv_sub(a, parse_term(ps));
		} else {
			break;
		}
	}
	return a;
}

/* The statement as an expression; returns 0 when it is not one (prose, a comparison). */
static int eval(const char *text, struct iv *out, int *is_figure)
{
	struct parser ps = {text, 1};
	const char *start;
	char bare[1024];
	const char *paren = strstr(text, " (");
	/* a figure may carry a comment: "23.4 GiB (fits in 24 GiB)" */
	if (paren && strchr(text, '(') == paren + 1 && paren[strlen(paren) - 1] == ')') {
		struct parser one = {text, 1};
		skip_blanks(&one);
		if (*one.p == '-')
			one.p++;
		parse_number(&one);
		if (one.ok && one.p == paren) {
			snprintf(bare, sizeof(bare), "%.*s", (int)(paren - text), text);
			ps.p = bare;
		}
	}
	skip_blanks(&ps);
	start = ps.p;
	*out = parse_expr(&ps);
	skip_blanks(&ps);
	if (!ps.ok || *ps.p)
		return 0;
	/* a figure: one number and its unit, nothing else */
	{
		struct parser one = {start, 1};
		if (*one.p == '-')
			one.p++;
		parse_number(&one);
		skip_blanks(&one);
		*is_figure = one.ok && !*one.p;
	}
	return 1;
}

/* ---- the statements of an explanation ---- */

#define MAX_ST 32

struct statements {
	char text[MAX_ST][1024];
	int para[MAX_ST]; /* the paragraph each is in: sums are checked within one */
	int n;
};

/* Each paragraph after the headline that starts "  lhs = ...": its statements, each
 * starting where its '=' sits in the column of the first ("  <pad> = ..."). Lines with the
 * '=' elsewhere continue the statement before them. */
static void split(const char *buf, struct statements *st)
{
	const char *line = strchr(buf, '\n');
	int col = -1, para = 0;
	st->n = 0;
	while (line && *line) {
		const char *nl;
		size_t len;
		line++;
		nl = strchr(line, '\n');
		len = nl ? (size_t)(nl - line) : strlen(line);
		if (len == 0) {
			col = -1;
			para++;
		} else if (col < 0) {
			const char *eq = strstr(line, " = ");
			if (eq && (size_t)(eq - line) < len && line[0] == ' ' && line[1] == ' ' &&
			    line[2] != ' ' && st->n < MAX_ST) {
				col = (int)(eq - line) + 1;
				snprintf(st->text[st->n], sizeof(st->text[0]), "%.*s",
					 (int)(len - (size_t)col - 2), line + col + 2);
				st->para[st->n++] = para;
			} else {
				col = 0; /* prose: nothing in this paragraph is a statement */
			}
		} else if (col > 0 && (size_t)col + 2 <= len && line[col] == '=' &&
			   line[col - 1] == ' ' && line[col + 1] == ' ' && st->n < MAX_ST) {
			snprintf(st->text[st->n], sizeof(st->text[0]), "%.*s",
				 (int)(len - (size_t)col - 2), line + col + 2);
			st->para[st->n++] = para;
		} else if (col > 0 && st->n > 0) {
			size_t have = strlen(st->text[st->n - 1]);
			snprintf(st->text[st->n - 1] + have, sizeof(st->text[0]) - have, " %.*s",
				 (int)len, line);
		}
		line = nl;
	}
}

/* Keys whose explanation is not a sum or product of figures. */
static int exempt(const char *key)
{
	static const char *const not_arithmetic[] = {
	    "memory.capacity",	       /* a datasheet figure */
	    "memory.fits",	       /* a comparison */
	    "capacity_plan.max_batch", /* the largest B keeping an inequality true */
	    "bottleneck.binding",      /* the largest share */
	    NULL,
	};
	for (int i = 0; not_arithmetic[i]; i++)
		if (strcmp(key, not_arithmetic[i]) == 0)
			return 1;
	return 0;
}

static int failures;

/* w as a word of l (not inside "dominant" or "infinite") */
static int has_word(const char *l, const char *w)
{
	size_t n = strlen(w);
	for (const char *m = strstr(l, w); m; m = strstr(m + 1, w))
		if ((m == l || !isalpha((unsigned char)m[-1])) && !isalpha((unsigned char)m[n]))
			return 1;
	return 0;
}

static void complain(const char *what, const char *key, const char *why, const char *buf)
{
	failures++;
	printf("%s %s: %s\n%s\n", what, key, why, buf);
}

/* Checks the explanation of one key; returns the number of sums checked. */
static int check_key(const char *what, const char *key, const char *buf)
{
	struct statements st;
	int checked = 0;
	const char *line = buf;
	bool applicable = !strstr(buf, "not applicable") && !strstr(buf, "not modelled");

	while (*line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char l[1024];
		snprintf(l, sizeof(l), "%.*s", (int)len, line);
		if (len > 80)
			complain(what, key, "a line wider than 80 columns", buf);
		for (char *c = l; *c; c++)
			*c = (char)tolower((unsigned char)*c);
		if (has_word(l, "nan") || has_word(l, "inf"))
			complain(what, key, "nan or inf printed", buf);
		for (const char *m = strstr(l, "-0"); m; m = strstr(m + 1, "-0"))
			if (m[2] != '.' && !isdigit((unsigned char)m[2]) &&
			    (m == l || !isalnum((unsigned char)m[-1])))
				complain(what, key, "-0 printed", buf);
		line = nl ? nl + 1 : line + len;
	}
	if (!applicable)
		return 0;
	if (!strstr(buf, "source: "))
		complain(what, key, "no source named", buf);
	split(buf, &st);
	/* a term of a formula is never negative: a negative one is a remainder gone wrong
	 * (only a result, such as a negative headroom, may be) */
	for (int i = 0; i + 1 < st.n; i++)
		for (const char *m = strchr(st.para[i] == st.para[i + 1] ? st.text[i] : "", '-'); m;
		     m = strchr(m + 1, '-'))
			if (isdigit((unsigned char)m[1]) &&
			    (m == st.text[i] || m[-1] == ' ' || m[-1] == '(' || m[-1] == ','))
				complain(what, key, "a negative term", buf);
	/* units_format_human writes NaN as "-": in the numbers (not the formula, the first
	 * statement of a paragraph), a "-" that is no minus sign is a NaN */
	for (int i = 1; i < st.n; i++) {
		if (st.para[i] != st.para[i - 1])
			continue;
		for (const char *m = strchr(st.text[i], '-'); m; m = strchr(m + 1, '-')) {
			const char *n = m + 1;
			if (m > st.text[i] && m[-1] != ' ' && m[-1] != '(')
				continue; /* inside a word: "memory-bound" */
			while (*n == ' ')
				n++;
			if (!(isdigit((unsigned char)*n) || *n == '(' || *n == '$' ||
			      strncmp(n, "max(", 4) == 0 || strncmp(n, "min(", 4) == 0 ||
			      strncmp(n, "sqrt(", 5) == 0 || strncmp(n, "ceil(", 5) == 0 ||
			      strncmp(n, "floor(", 6) == 0))
				complain(what, key, "a NaN printed as '-'", buf);
		}
	}
	for (int i = 0; i + 1 < st.n; i++) {
		struct iv a, r;
		int fig_a, fig_r;
		if (st.para[i] != st.para[i + 1])
			continue;
		if (!eval(st.text[i], &a, &fig_a) || fig_a)
			continue;
		if (!eval(st.text[i + 1], &r, &fig_r) || !fig_r)
			continue;
		checked++;
		/* a relative hair for the doubles themselves */
		if (a.hi < r.lo - 1e-9 * fabs(r.lo) || a.lo > r.hi + 1e-9 * fabs(r.hi)) {
			char why[256];
			snprintf(why, sizeof(why), "'%s' gives %.4g..%.4g, not '%s'", st.text[i],
				 a.lo, a.hi, st.text[i + 1]);
			complain(what, key, why, buf);
		}
	}
	/* the headline gives the same figure as the first paragraph's result (offloaded
	 * states excepted: 0 B on the GPU, the formula's figure in host memory) */
	{
		char head[256];
		const char *eq = strstr(buf, " = ");
		const char *nl = strchr(buf, '\n');
		int last = -1;
		for (int i = 0; i < st.n && st.para[i] == st.para[0]; i++)
			last = i;
		if (eq && nl && eq < nl && last > 0 && !strstr(st.text[last], "host memory")) {
			struct iv h, r;
			int fig_h, fig_r;
			snprintf(head, sizeof(head), "%.*s", (int)(nl - eq - 3), eq + 3);
			if (eval(head, &h, &fig_h) && fig_h && eval(st.text[last], &r, &fig_r) &&
			    fig_r && (h.hi < r.lo || h.lo > r.hi))
				complain(what, key, "the headline and the result differ", buf);
		}
	}
	/* max_batch: the batch found fits and one more sequence does not */
	if (strcmp(key, "capacity_plan.max_batch") == 0 && strstr(buf, "  memory with ") &&
	    ((!strstr(buf, "(fits in ") && !strstr(buf, "not even one sequence fits")) ||
	     !strstr(buf, "(over ")))
		complain(what, key, "the batch found should fit and one more should not", buf);
	/* an explanation may say why its numbers are not itemized, in so many words */
	if (!checked && !exempt(key) && !strstr(buf, "not itemized: "))
		complain(what, key, "no numbers line that evaluates to the result", buf);
	return checked;
}

static void cut_suffix(char *text, const char *suffix)
{
	size_t n = strlen(text), k = suffix ? strlen(suffix) : 0;
	if (k && n > k && strcmp(text + n - k, suffix) == 0)
		text[n - k] = '\0';
}

/* The explanation's result (its first paragraph's last figure) is the figure the report
 * shows (figure_format of the plan's value, the figure table's row that the results pane
 * also reads), both within their printed precision; offloaded states excepted, as above
 * (issue 15: explanations gave a number the pane did not show). */
static void check_result_is_figure(const char *what, const char *key, const char *buf,
				   const struct plan *p)
{
	const struct figure *f = figure_find(key);
	struct statements st;
	struct iv r, shown;
	char text[128], result[1024];
	double v;
	int last = -1, fig, fig_shown;

	if (!f || !figure_is_number(f) || strstr(buf, "not applicable") ||
	    strstr(buf, "not modelled"))
		return;
	v = figure_value(f, p);
	if (!isfinite(v))
		return;
	split(buf, &st);
	for (int i = 0; i < st.n && st.para[i] == st.para[0]; i++)
		last = i;
	if (last <= 0 || strstr(st.text[last], "host memory"))
		return;
	/* the row's suffix (" tokens/s", "/h", " kWh") is a word here, not a unit to scale */
	snprintf(result, sizeof(result), "%s", st.text[last]);
	/* an offered load above 1 reads "overloaded (offered load 15.2x)" in the reports:
	 * explain's result is held to the figure's number itself */
	if (f->format == FIGURE_FMT_LOAD)
		units_format_human(f->unit, v, 3, text, sizeof(text));
	else
		figure_format(f, v, text, sizeof(text));
	cut_suffix(result, f->suffix);
	cut_suffix(text, f->suffix);
	if (!eval(result, &r, &fig) || !fig)
		return;
	if (!eval(text, &shown, &fig_shown) || !fig_shown) {
		complain(what, key, "the report's figure does not read as a figure", text);
		return;
	}
	if (shown.hi < r.lo - 1e-9 * fabs(r.lo) || shown.lo > r.hi + 1e-9 * fabs(r.hi)) {
		char why[1200];
		snprintf(why, sizeof(why), "the result '%s' is not the figure shown, '%s'", result,
			 text);
		complain(what, key, why, buf);
	}
}

/* An explanation names what its number rests on (issue 15): a measured rate where one
 * pins the time, the 3,600 s of an hour in a price per token, the recompute mode's
 * formula for the activations. */
static void check_cites(const char *what, const char *key, const char *buf,
			const struct scenario *s)
{
	bool train = s->workload.kind == WL_TRAIN || s->workload.kind == WL_FINETUNE;
	if (strstr(buf, "not applicable"))
		return;
	if (s->workload.measured_tokens_per_s > 0 &&
	    (strcmp(key, "compute.mfu") == 0 || strcmp(key, "throughput.tokens_per_s") == 0 ||
	     (train && strcmp(key, "time.step_s") == 0)) &&
	    !strstr(buf, "measured_tokens_per_s"))
		complain(what, key, "a measured throughput not named", buf);
	/* the shares under a measured rate are the model's, and say so (explain_serving.c
	 * share_measured) */
	if (s->workload.measured_tokens_per_s > 0 && strncmp(key, "bottleneck.shares.", 18) == 0 &&
	    strcmp(key, "bottleneck.shares.capacity") != 0 && !strstr(buf, "not modelled:") &&
	    !strstr(buf, "not measured ones"))
		complain(what, key, "shares under a measured rate not said to be the model's", buf);
	if (strcmp(key, "cost.usd_per_million_tokens") == 0 && !strstr(buf, "3600"))
		complain(what, key, "per hour over per second without the 3600 s", buf);
	if (train && strcmp(key, "memory.per_gpu.activations") == 0) {
		bool full = s->workload.recompute == RECOMPUTE_FULL;
		if (full &&
		    (!strstr(buf, "full recomputation stores 2 s b h") || !strstr(buf, "e s b h")))
			complain(what, key, "full recompute cites another formula", buf);
		if (!strstr(buf, "bytes per layer = "))
			complain(what, key, "the bytes per layer are not derived", buf);
	}
}

/* Checks the explanations of the keys starting with only (every key when NULL). */
static void check_keys(const char *what, const struct scenario *s, const char *only)
{
	static struct plan p;
	char buf[8192];
	const char *const *keys = explain_keys();

	plan_compute(s, &p);
	for (int i = 0; keys[i]; i++) {
		struct gp_error err;
		if (only && strncmp(keys[i], only, strlen(only)) != 0)
			continue;
		assert_int_equal(explain_key(s, &p, keys[i], buf, sizeof(buf), &err), 0);
		assert_true(strlen(buf) + 1 < sizeof(buf));
		check_key(what, keys[i], buf);
		check_result_is_figure(what, keys[i], buf, &p);
		check_cites(what, keys[i], buf, s);
		/* a decode step is itemized unless a pipeline runs micro-batches */
		if (p.pp == 1 && strstr(buf, "not itemized: a step") == NULL &&
		    strstr(buf, "not itemized: the plan's parts") != NULL)
			complain(what, keys[i], "a decode step not itemized without a pipeline",
				 buf);
	}
}

static void check_scenario(const char *what, const struct scenario *s)
{
	check_keys(what, s, NULL);
}

static int load(const char *path, struct scenario *s)
{
	struct gp_error err;
	if (scenario_load_file(path, cat, s, NULL, NULL, &err) != 0) {
		printf("%s: %s\n", path, err.message);
		return -1;
	}
	return 0;
}

static void check_folder(const char *dir, int *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	assert_non_null(d);
	while ((e = readdir(d)) != NULL) {
		static struct scenario s;
		char path[512];
		size_t len = strlen(e->d_name);
		if (len < 6 || strcmp(e->d_name + len - 5, ".yaml") != 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		assert_int_equal(load(path, &s), 0);
		check_scenario(path, &s);
		(*n)++;
	}
	closedir(d);
}

/* ---- the tests ---- */

static void test_checker_catches_a_bad_sum(void **state)
{
	/* the defect that started this: extra terms left out of the formula */
	const char *bad = "memory.per_gpu.activations = 6.03 GiB\n\n"
			  "  activations = bytes per layer x layers\n"
			  "              = 67.1 MiB x 80\n"
			  "              = 6.03 GiB\n\n  source: x\n";
	const char *good = "memory.per_gpu.activations = 6.03 GiB\n\n"
			   "  activations = bytes per layer x layers + head\n"
			   "              = 67.1 MiB x 80 + 807 MiB\n"
			   "              = 6.03 GiB\n\n  source: x\n";
	const char *prose = "compute.mfu = 45%\n\n  mfu = a / b\n      = 45%\n\n  source: x\n";
	(void)state;
	failures = 0;
	assert_int_equal(check_key("selftest", "memory.per_gpu.activations", bad), 1);
	assert_int_equal(failures, 1);
	failures = 0;
	assert_int_equal(check_key("selftest", "memory.per_gpu.activations", good), 1);
	assert_int_equal(failures, 0);
	assert_int_equal(check_key("selftest", "compute.mfu", prose), 0);
	assert_int_equal(failures, 1);
	failures = 0;
	/* wrapped statements, units, functions, percentages */
	assert_int_equal(check_key("selftest", "reliability.goodput",
				   "g = 99.8%\n\n  goodput = 1 - w / i\n"
				   "          = 1 - 56.2 s / 14 h - (14 h / 2 + 10 min) /\n"
				   "            260 d\n          = 99.8%\n\n  source: x\n"),
			 1);
	assert_int_equal(failures, 0);
	assert_int_equal(check_key("selftest", "capacity_plan.replicas",
				   "r = 12\n\n  replicas = ceil(a)\n"
				   "           = ceil(1M x 3 x 50 / 86400 / 150)\n"
				   "           = 12\n\n  source: x\n"),
			 1);
	assert_int_equal(failures, 0);
	/* a later paragraph's sum, with a comment after its figure */
	assert_int_equal(
	    check_key("selftest", "capacity_plan.max_batch",
		      "m = 7\n\n  m = the most B\n    = 7\n\n"
		      "  memory with 7 sequences = 1.05 x (13.5 GiB + 7 x 1.15 GiB) +\n"
		      "                            791 MiB\n"
		      "                          = 23.4 GiB (fits in 24 GiB)\n\n"
		      "  memory with 8 sequences = 1.05 x (13.5 GiB + 8 x 1.15 GiB)\n"
		      "                          = 26.6 GiB (over 24 GiB)\n\n  source: x\n"),
	    2);
	assert_int_equal(failures, 1);
	failures = 0;
	/* a headline that is not the result */
	check_key("selftest", "x",
		  "x = 5 GiB\n\n  x = a + b\n    = 2 GiB + 4 GiB\n    = 6 GiB\n\n"
		  "  source: x\n");
	assert_int_equal(failures, 1);
	failures = 0;
	/* a negative term */
	check_key("selftest", "x",
		  "x = 1\n\n  x = a + b\n    = 2 s + -1 s\n    = 1 s\n\n"
		  "  source: x\n");
	assert_int_equal(failures, 1);
	failures = 0;
	check_key("selftest", "x",
		  "x = 1\n\n  x = a x b\n    = 8.03B x - B / 8\n    = -\n\n"
		  "  source: x\n");
	assert_int_equal(failures, 3); /* two NaNs, no sum to check */
	failures = 0;
	check_key("selftest", "x",
		  "x = 12\n\n  x = a\n    = 12 x nan\n    = -0 B\n\n  source: x\n");
	assert_true(failures >= 2);
	failures = 0;
}

static void test_shipped_scenarios(void **state)
{
	int n = 0;
	(void)state;
	failures = 0;
	check_folder("scenarios", &n);
	check_folder("scenarios/workshop", &n);
	assert_true(n >= 40);
	assert_int_equal(failures, 0);
}

/* Variations on shipped scenarios: the layouts and workloads a workshop tries. */
static void test_variations(void **state)
{
	static const struct {
		const char *file;
		const char *set[10];
	} v[] = {
	    {"scenarios/default.yaml", {"parallel.zero=0", NULL}},
	    {"scenarios/default.yaml", {"parallel.zero=1", NULL}},
	    {"scenarios/default.yaml", {"parallel.zero=2", NULL}},
	    {"scenarios/default.yaml", {"parallel.zero=1", "parallel.offload=optimizer", NULL}},
	    {"scenarios/default.yaml", {"parallel.offload=optimizer+params", NULL}},
	    {"scenarios/default.yaml", {"parallel.tp=2", "parallel.pp=2", "parallel.zero=1", NULL}},
	    {"scenarios/default.yaml", {"parallel.pp=4", "parallel.zero=0", NULL}},
	    {"scenarios/default.yaml",
	     {"parallel.pp=4", "parallel.virtual_stages=2", "workload.recompute=full", NULL}},
	    {"scenarios/default.yaml", {"workload.recompute=none", NULL}},
	    {"scenarios/default.yaml",
	     {"workload.recompute=full", "workload.recompute_method=uniform",
	      "workload.recompute_layers=5", "parallel.tp=2", NULL}},
	    {"scenarios/default.yaml",
	     {"workload.global_batch=auto", "workload.micro_batch=4", "parallel.tp=2",
	      "parallel.sequence_parallel=true", NULL}},
	    {"scenarios/default.yaml",
	     {"workload.precision=fp8", "workload.optimizer=adam8bit", "parallel.zero=0", NULL}},
	    {"scenarios/default.yaml",
	     {"workload.optimizer=sgd", "workload.grad_dtype=fp32", "parallel.zero=2", NULL}},
	    /* Transformer Engine's fp8 weight copies under ZeRO-3: the gathered layers' */
	    {"scenarios/seed-12-70b-full-training-8xh100.yaml",
	     {"workload.precision=fp8", "workload.recompute=full", "workload.framework=megatron",
	      NULL}},
	    /* paged 8-bit states, some evicted to the host (one GPU: no room for them) */
	    {"scenarios/default.yaml",
	     {"workload.framework=torchtune", "workload.kind=finetune",
	      "workload.finetune.method=full", "parallel.zero=0", "hardware.count=1",
	      "workload.optimizer=adam8bit", "workload.optimizer_states=paged",
	      "hardware.gpu=rtx-4090", "workload.recompute=full", NULL}},
	    {"scenarios/default.yaml", {"workload.flash_attention=false", NULL}},
	    {"scenarios/default.yaml", {"workload.deadline=2d", "hardware.storage=1GB/s", NULL}},
	    {"scenarios/default.yaml", {"efficiency.mfu=0.4", NULL}},
	    {"scenarios/default.yaml", {"model.preset=mixtral-8x7b", "parallel.ep=8", NULL}},
	    {"scenarios/default.yaml",
	     {"model.preset=deepseek-v3", "hardware.count=64", "parallel.ep=8", NULL}},
	    {"scenarios/default.yaml",
	     {"workload.kind=finetune", "workload.finetune.method=lora", NULL}},
	    {"scenarios/default.yaml",
	     {"workload.kind=finetune", "workload.finetune.method=qlora",
	      "workload.finetune.base_weights=nf4", NULL}},
	    {"scenarios/seed-08-online-customer-service.yaml",
	     {"workload.measured_tokens_per_s=0", NULL}},
	    {"scenarios/seed-08-online-customer-service.yaml",
	     {"workload.measured_tokens_per_s=0", "workload.batch=auto", "workload.slo.tpot=50ms",
	      NULL}},
	    {"scenarios/seed-07-offline-measured-throughput.yaml",
	     {"workload.measured_tokens_per_s=0", "workload.batch=auto", NULL}},
	    {"scenarios/seed-07-offline-measured-throughput.yaml",
	     {"workload.measured_tokens_per_s=0", "workload.slo.ttft=2s", NULL}},
	    {"scenarios/team-serve-70b-5m-requests.yaml", {"parallel.tp=8", NULL}},
	    {"scenarios/team-serve-70b-5m-requests.yaml", {"parallel.tp=2", "parallel.pp=2", NULL}},
	    {"scenarios/team-serve-70b-5m-requests.yaml", {"workload.batch=auto", NULL}},
	    {"scenarios/team-serve-70b-5m-requests.yaml",
	     {"workload.batch=256", "workload.slo.tpot=20ms", NULL}},
	    {"scenarios/seed-16-kv-cache-max-batch.yaml",
	     {"workload.kv_cache=int8", "hardware.storage=1GB/s", NULL}},
	    {"scenarios/default.yaml", {"parallel.pp=2", "parallel.zero=1", NULL}},
	    {"scenarios/workshop/07-mixture-of-experts.yaml", {"parallel.ep=2", NULL}},
	    {"scenarios/workshop/07-mixture-of-experts.yaml",
	     {"workload.batch=auto", "workload.slo.tpot=40ms", NULL}},
	    {"scenarios/seed-21-7b-decode-cuda-graphs-a100.yaml",
	     {"workload.batch=auto", "workload.slo.ttft=500ms", NULL}},
	    {"scenarios/seed-22-8b-int4-marlin-h100.yaml",
	     {"hardware.count=2", "parallel.tp=2", NULL}},
	    {"scenarios/workshop/04-kv-cache-and-batch.yaml",
	     {"model.preset=deepseek-v3", "hardware.count=8", "workload.weights=fp8", NULL}},
	    /* per-layer K/V heads (model.kv_sum), sharded */
	    {"scenarios/workshop/04-kv-cache-and-batch.yaml",
	     {"model.hf_config=../../tests/data/configs/llama-3.1-nemotron-51b.json",
	      "hardware.gpu=h100-sxm-80gb", "hardware.count=2", "parallel.tp=2", NULL}},
	    {"scenarios/workshop/04-kv-cache-and-batch.yaml",
	     {"model.hf_config=../../tests/data/configs/llama-3.1-nemotron-51b.json",
	      "hardware.gpu=h100-sxm-80gb", "workload.framework=vllm", NULL}},
	    {"scenarios/workshop/03-activations-and-recomputation.yaml",
	     {"workload.recompute=full", NULL}},
	    {"scenarios/workshop/03-activations-and-recomputation.yaml",
	     {"workload.recompute=full", "parallel.tp=2", "parallel.sequence_parallel=true", NULL}},
	    {"scenarios/workshop/08-time-cost-and-deadlines.yaml",
	     {"workload.measured_tokens_per_s=5000", NULL}},
	};
	(void)state;
	failures = 0;
	for (unsigned i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		static struct scenario s;
		char what[512];
		int k = snprintf(what, sizeof(what), "%s", v[i].file);
		assert_int_equal(load(v[i].file, &s), 0);
		for (int j = 0; v[i].set[j]; j++) {
			struct gp_error err;
			/* as --set: a model.hf_config is read, relative to the file */
			if (scenario_load_assignment(&s, cat, v[i].set[j], &err) != 0)
				fail_msg("%s --set %s: %s", v[i].file, v[i].set[j], err.message);
			k += snprintf(what + k, sizeof(what) - (size_t)k, " --set %s", v[i].set[j]);
		}
		check_scenario(what, &s);
	}
	assert_int_equal(failures, 0);
}

/* Every explanation adds up to its figure under every scheduler (issue 13: the loaded
 * engine replaced tpot, step, ttft, MFU and throughput after their explanations' terms
 * were taken from the step alone): each scheduler over serving scenarios that are
 * overloaded, within capacity, an open loop, a closed loop and offline. */
static void test_every_scheduler(void **state)
{
	static const char *const sched[] = {"alone",   "auto",	 "prefill-first",
					    "chunked", "static", "disaggregated"};
	static const struct {
		const char *file;
		const char *set[5];
	} v[] = {
	    {"scenarios/team-serve-70b-5m-requests.yaml", {NULL}},
	    {"scenarios/team-serve-70b-5m-requests.yaml", {"hardware.count=80", NULL}},
	    {"scenarios/team-serve-70b-5m-requests.yaml",
	     {"hardware.count=96", "workload.output_length.dist=exponential", NULL}},
	    {"scenarios/team-serve-70b-5m-requests.yaml",
	     {"workload.requests_per_day=0", "workload.concurrency=64", NULL}},
	    {"scenarios/seed-08-online-customer-service.yaml",
	     {"workload.measured_tokens_per_s=0", "workload.batch=auto", "workload.slo.tpot=50ms",
	      NULL}},
	    {"scenarios/seed-08-online-customer-service.yaml", {NULL}},
	    {"scenarios/seed-07-offline-measured-throughput.yaml",
	     {"workload.measured_tokens_per_s=0", "workload.batch=auto", NULL}},
	    {"scenarios/workshop/04-kv-cache-and-batch.yaml", {NULL}},
	    {"scenarios/team-serve-70b-5m-requests.yaml",
	     {"hardware.count=80", "workload.prefix_cache_hit=0.6",
	      "workload.prefix_cache_tokens=2M", "workload.host_kv_cache=100GB"}},
	    /* an open loop without an SLO (the lesson's own SLO cleared) */
	    {"scenarios/workshop/04-kv-cache-and-batch.yaml",
	     {"workload.requests_per_s=2", "workload.prompt_length.dist=exponential",
	      "workload.slo.ttft=0", "workload.slo.tpot=0"}},
	    /* the lesson's SLO under that load: no count meets it (a lone request's P99 TTFT
	     * is over 2 s), another layout does (capacity_plan.fewest) */
	    {"scenarios/workshop/04-kv-cache-and-batch.yaml",
	     {"workload.requests_per_s=2", "workload.prompt_length.dist=exponential", NULL}},
	    /* an offline deadline past gpuplan's ceiling of GPUs: no fleet, its need shown */
	    {"scenarios/team-offline-scoring.yaml", {"workload.deadline=1ms", NULL}},
	    /* finite runs (workload.requests): overloaded, open, closed loop, offline */
	    {"scenarios/team-serve-70b-5m-requests.yaml", {"workload.requests=5000", NULL}},
	    {"scenarios/team-serve-70b-5m-requests.yaml",
	     {"hardware.count=80", "workload.requests=5000", NULL}},
	    {"scenarios/team-serve-70b-5m-requests.yaml",
	     {"workload.requests_per_day=0", "workload.concurrency=64", "workload.requests=1000",
	      NULL}},
	    {"scenarios/seed-07-offline-measured-throughput.yaml",
	     {"workload.measured_tokens_per_s=0", "workload.batch=auto", "workload.requests=777",
	      NULL}},
	};
	(void)state;
	failures = 0;
	for (unsigned i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		for (unsigned k = 0; k < sizeof(sched) / sizeof(sched[0]); k++) {
			static struct scenario s;
			struct gp_error err;
			char what[512], set[64];
			int n = snprintf(what, sizeof(what), "%s", v[i].file);
			assert_int_equal(load(v[i].file, &s), 0);
			for (int j = 0; v[i].set[j]; j++) {
				if (scenario_set_assignment(&s, cat, v[i].set[j], &err) != 0)
					fail_msg("%s --set %s: %s", v[i].file, v[i].set[j],
						 err.message);
				n += snprintf(what + n, sizeof(what) - (size_t)n, " --set %s",
					      v[i].set[j]);
			}
			snprintf(set, sizeof(set), "workload.scheduler=%s", sched[k]);
			if (scenario_set_assignment(&s, cat, set, &err) != 0)
				fail_msg("--set %s: %s", set, err.message);
			snprintf(what + n, sizeof(what) - (size_t)n, " --set %s", set);
			check_scenario(what, &s);
		}
	}
	assert_int_equal(failures, 0);
}

/* Every memory figure adds up under every framework (issue 14: SGLang's pool left lesson
 * 04's activations, KV cache and overhead short of their figures): each framework over
 * every shipped scenario and workshop lesson, each memory.per_gpu.* row of the figure
 * table (src/figure.c) explained. */
static int framework_runs;

static void check_frameworks(const char *path)
{
	for (int f = FW_DEFAULT + 1; f < FW_COUNT; f++) {
		static struct scenario s;
		struct gp_error err;
		char what[640], set[64];
		assert_int_equal(load(path, &s), 0);
		snprintf(set, sizeof(set), "workload.framework=%s", framework_name(f));
		if (scenario_set_assignment(&s, cat, set, &err) != 0)
			fail_msg("%s --set %s: %s", path, set, err.message);
		snprintf(what, sizeof(what), "%s --set %s", path, set);
		check_keys(what, &s, "memory.per_gpu.");
		framework_runs++;
	}
}

static void test_every_framework(void **state)
{
	const char *const *keys = explain_keys();
	int memory = 0;
	(void)state;
	/* the figure table's memory rows are all explained */
	for (int i = 0; keys[i]; i++)
		if (strncmp(keys[i], "memory.per_gpu.", 15) == 0 && figure_find(keys[i]))
			memory++;
	assert_true(memory >= 9);
	failures = 0;
	framework_runs = 0;
	each_shipped_scenario(check_frameworks);
	assert_true(framework_runs >= 40 * (FW_COUNT - 1));
	assert_int_equal(failures, 0);
}

/* A hybrid's memory (issue 14): each block's bytes per token add up to the layer's, under
 * every framework, with and without a pipeline, in training and serving. */
static void test_hybrids(void **state)
{
	static const char *const models[] = {"jamba-1.5-mini", "qwen3-next-80b", "mamba-codestral",
					     "nemotron-nano-9b", "nemotron-49b"};
	static const char *const sets[][4] = {
	    {"hardware.count=8", NULL},
	    {"hardware.count=8", "parallel.pp=2", "parallel.zero=1", NULL},
	    {"hardware.count=8", "parallel.tp=2", "workload.recompute=selective", NULL},
	    {"workload.kind=online", "hardware.count=8", "parallel.tp=8", NULL},
	};
	int blocks = 0;
	(void)state;
	failures = 0;
	for (unsigned i = 0; i < sizeof(models) / sizeof(models[0]); i++)
		for (unsigned j = 0; j < sizeof(sets) / sizeof(sets[0]); j++)
			for (int f = FW_DEFAULT; f < FW_COUNT; f++) {
				static struct scenario s;
				static struct plan p;
				struct gp_error err;
				char what[512], set[64];
				int n;
				assert_int_equal(load("scenarios/default.yaml", &s), 0);
				n = snprintf(what, sizeof(what), "default --set model.preset=%s",
					     models[i]);
				snprintf(set, sizeof(set), "model.preset=%s", models[i]);
				assert_int_equal(scenario_set_assignment(&s, cat, set, &err), 0);
				for (int k = 0; sets[j][k]; k++) {
					assert_int_equal(
					    scenario_set_assignment(&s, cat, sets[j][k], &err), 0);
					n += snprintf(what + n, sizeof(what) - (size_t)n,
						      " --set %s", sets[j][k]);
				}
				snprintf(set, sizeof(set), "workload.framework=%s",
					 framework_name(f));
				assert_int_equal(scenario_set_assignment(&s, cat, set, &err), 0);
				snprintf(what + n, sizeof(what) - (size_t)n, " --set %s", set);
				check_keys(what, &s, "memory.per_gpu.");
				plan_compute(&s, &p);
				if (isfinite(p.mem.act_block[PLAN_BLOCK_INPUT])) {
					char buf[8192];
					/* and the explanation itemizes them */
					assert_int_equal(explain_key(&s, &p,
								     "memory.per_gpu.activations",
								     buf, sizeof(buf), &err),
							 0);
					if (!strstr(buf, "bytes per token = (") ||
					    !strstr(buf, " blocks x"))
						complain(what, "memory.per_gpu.activations",
							 "the blocks not itemized", buf);
					blocks++;
				}
			}
	/* the blocks are itemized in training: 4 of the 5 models x 3 layouts at least */
	assert_true(blocks >= 12 * (FW_COUNT - 1));
	assert_int_equal(failures, 0);
}

/* Every catalog preset (issue 14), trained on 512 B200s under ZeRO-3 with full
 * recomputation (so the largest fits) and served on 8 with tp 8: the FLOP lines add up
 * to the FLOPs per token (attention, state-space scans and all), the MFU is computed,
 * the weight lines add up to the weights (the vision tower too), and in training the step
 * adds up, a hybrid's attention part with its scans (plan.ssm_scan_s); served, the TTFT
 * adds up, and a state-space model's shows its prompt's scans. */
static void test_every_preset(void **state)
{
	static const char *const sets[][6] = {
	    {"hardware.gpu=b200", "hardware.count=512", "parallel.zero=3",
	     "workload.recompute=full", "workload.global_batch=512", NULL},
	    {"workload.kind=online", "hardware.gpu=b200", "hardware.count=8", "parallel.tp=8",
	     NULL},
	};
	static const char *const keys[] = {"compute.flops_per_token", "compute.mfu",
					   "memory.per_gpu.weights"};
	int presets = 0;
	(void)state;
	failures = 0;
	for (int i = 0; i < cat->nmodels; i++)
		for (unsigned j = 0; j < sizeof(sets) / sizeof(sets[0]); j++) {
			static struct scenario s;
			static struct plan p;
			struct gp_error err;
			char what[512], set[96], buf[8192];
			assert_int_equal(load("scenarios/default.yaml", &s), 0);
			snprintf(set, sizeof(set), "model.preset=%s", cat->models[i].id);
			assert_int_equal(scenario_set_assignment(&s, cat, set, &err), 0);
			for (int k = 0; sets[j][k]; k++)
				assert_int_equal(scenario_set_assignment(&s, cat, sets[j][k], &err),
						 0);
			snprintf(what, sizeof(what), "default --set %s (%s)", set,
				 j == 0 ? "train" : "online");
			plan_compute(&s, &p);
			if (!p.mem.fits) /* a plan that does not load has no speed */
				continue;
			presets++;
			for (unsigned k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
				assert_int_equal(
				    explain_key(&s, &p, keys[k], buf, sizeof(buf), &err), 0);
				if (check_key(what, keys[k], buf) == 0)
					complain(what, keys[k], "no sum checked", buf);
				check_result_is_figure(what, keys[k], buf, &p);
			}
			if (!isfinite(p.mfu) || p.mfu <= 0)
				complain(what, "compute.mfu", "not computed", "");
			if (j == 0) {
				assert_int_equal(
				    explain_key(&s, &p, "time.step_s", buf, sizeof(buf), &err), 0);
				if (check_key(what, "time.step_s", buf) <
				    (p.ssm_scan_s > 0 ? 2 : 1))
					complain(what, "time.step_s", "the sums not all checked",
						 buf);
				if (p.ssm_scan_s > 0 && !strstr(buf, "state-space scans"))
					complain(what, "time.step_s", "the scans not shown", buf);
			} else if (!p.serving.overloaded) {
				/* served: a prompt's scans in its TTFT (plan_infer.c) */
				bool ssm = p.model.ssm.layers > 0;
				assert_int_equal(
				    explain_key(&s, &p, "latency.ttft_s", buf, sizeof(buf), &err),
				    0);
				if (ssm != (p.ssm_scan_s > 0))
					complain(what, "latency.ttft_s", "scans without SSM layers",
						 buf);
				if (check_key(what, "latency.ttft_s", buf) < (ssm ? 2 : 1))
					complain(what, "latency.ttft_s", "the sums not all checked",
						 buf);
				if (ssm && !strstr(buf, "state-space scans"))
					complain(what, "latency.ttft_s", "the scans not shown",
						 buf);
			}
		}
	/* nearly every preset fits both ways */
	assert_true(presets >= 2 * cat->nmodels - 8);
	assert_int_equal(failures, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_checker_catches_a_bad_sum),
	    cmocka_unit_test(test_shipped_scenarios),
	    cmocka_unit_test(test_variations),
	    cmocka_unit_test(test_every_scheduler),
	    cmocka_unit_test(test_every_framework),
	    cmocka_unit_test(test_hybrids),
	    cmocka_unit_test(test_every_preset),
	};
	return cmocka_run_group_tests(tests, shipped_catalog_setup, shipped_catalog_teardown);
}
