/* explain_view.c - the explanation window: how the selected figure is derived (the
 * formula, the numbers, the source, from the core's explain module), or for an input what
 * the field means. */
#include "app.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "explain.h"

/* batch auto: which batch decode runs and why, where it is not the fit (the auto value,
 * written fit); the length written (snprintf-style), 0 for none. */
static size_t batch_run_text(const struct app *a, const struct field *f, const char *fit, char *buf,
			     size_t size)
{
	enum batch_run why;
	double run = app_running_batch(a, f, &why), slo = a->plan.slo_batch;
	char r[48], m[96] = "";
	int n = 0;

	if (!(run > 0))
		return 0;
	units_format_human(UNIT_COUNT, run, 3, r, sizeof(r));
	/* under a load, the SLO's batch is what would meet it, not what runs */
	if (why != BATCH_RUN_SLO && isfinite(slo) && slo > 0)
		snprintf(m, sizeof(m), "; the largest batch meeting the SLO is %.0f", slo);
	switch (why) {
	case BATCH_RUN_SLO:
		n = snprintf(
		    buf, size,
		    "decode runs at %s, the largest batch that meets the SLO; the KV cache "
		    "is sized for the %s that fit (as vLLM preallocates it)\n",
		    r, fit);
		break;
	case BATCH_RUN_CAP:
		n = snprintf(buf, size,
			     "the engine runs at most %s at once (its running cap, as vLLM's "
			     "max_num_seqs); the KV cache holds the %s that fit%s\n",
			     r, fit, m);
		break;
	case BATCH_RUN_OVERLOAD:
		n = snprintf(buf, size,
			     "the arrivals outrun the replica: the engine runs its running cap, %s "
			     "at once (serving.batch); the KV cache holds the %s that fit%s\n",
			     r, fit, m);
		break;
	case BATCH_RUN_LOAD:
		n = snprintf(buf, size,
			     "under the load the engine runs %s at once on average (serving.batch, "
			     "by Little's law); the KV cache holds the %s that fit%s\n",
			     r, fit, m);
		break;
	case BATCH_RUN_CONCURRENCY:
		n = snprintf(buf, size,
			     "the closed loop keeps %s in the engine (serving.batch); the KV cache "
			     "holds the %s that fit%s\n",
			     r, fit, m);
		break;
	case BATCH_RUN_FIT:
		break;
	}
	return n > 0 ? (size_t)n : 0;
}

/* An input: its value, what it means, and what it takes (its range and unit, or its
 * choices), what auto stands for now, and what + and - do to it. */
static void explain_field(struct app *a, const struct field *f)
{
	char value[128], lo[48], hi[48];
	size_t len, size = sizeof(a->explain_text);
	char *t = a->explain_text;

	scenario_field_format(&a->scn, f, value, sizeof(value));
	len = (size_t)snprintf(t, size, "%s = %s\n\n%s\n\n", f->key, value, f->doc);
	if ((f->type == FIELD_INT || f->type == FIELD_NUM) && len < size) {
		if (f->type == FIELD_INT) {
			units_format_human(UNIT_COUNT, f->min, 4, lo, sizeof(lo));
			units_format_human(UNIT_COUNT, f->max, 4, hi, sizeof(hi));
		} else if (f->unit == UNIT_RATIO) {
			units_format_percent(f->min, 3, lo, sizeof(lo));
			units_format_percent(f->max, 3, hi, sizeof(hi));
		} else {
			units_format(f->unit, f->min, lo, sizeof(lo));
			units_format(f->unit, f->max, hi, sizeof(hi));
		}
		len += (size_t)snprintf(t + len, size - len, "takes: %s to %s%s\n", lo, hi,
					f->auto_ok ? ", or auto" : "");
		if (f->auto_ok && strcmp(value, "auto") == 0 && app_auto_value(a, f) > 0 &&
		    len < size) {
			double v = app_auto_value(a, f);
			if (f->unit == UNIT_RATIO)
				units_format_percent(v, 3, lo, sizeof(lo));
			else
				units_format_human(UNIT_COUNT, v, 4, lo, sizeof(lo));
			len += (size_t)snprintf(t + len, size - len, "auto: %s in this plan\n", lo);
			if (len < size)
				len += batch_run_text(a, f, lo, t + len, size - len);
		}
		if (len < size)
			len += (size_t)snprintf(t + len, size - len, "+ and -: %s\n",
						field_step_doubles(f)	? "double and halve it"
						: f->type == FIELD_INT	? "add and take one"
						: f->unit == UNIT_RATIO ? "add and take 5 points"
									: "add and take 10%");
	} else if (f->names && f->type != FIELD_TARGETS && len < size) {
		/* the choices, unless the line above lists them already */
		if (!(f->names[0] && f->names[1] && strstr(f->doc, f->names[0]) &&
		      strstr(f->doc, f->names[1]))) {
			len += (size_t)snprintf(t + len, size - len, "choices:");
			for (int i = 0; f->names[i] && len < size; i++)
				len += (size_t)snprintf(t + len, size - len, "%s %s", i ? " |" : "",
							f->names[i]);
			if (len < size)
				len += (size_t)snprintf(t + len, size - len, "\n");
		}
		if (len < size)
			len += (size_t)snprintf(t + len, size - len,
						"Left and Right (h, l) cycle them\n");
	} else if (f->type == FIELD_BOOL && len < size) {
		len += (size_t)snprintf(t + len, size - len,
					"takes: true | false; Left and Right toggle it\n");
	} else if (f->type == FIELD_STR && field_is_choice(f) && len < size) {
		len += (size_t)snprintf(t + len, size - len,
					"Enter opens the picker; Left and Right go through the "
					"catalog\n");
	}
	(void)len;
}

void explain_open(struct app *a, const char *key)
{
	const struct field *f = scenario_field_find(key);
	char value[128];

	snprintf(a->explain_key, sizeof(a->explain_key), "%s", key);
	a->explain_text[0] = '\0';
	a->mode = MODE_EXPLAIN;
	a->explain_top = 0;
	if (strcmp(key, "warnings") == 0) {
		/* each warning in full, one a paragraph */
		size_t len = (size_t)snprintf(a->explain_text, sizeof(a->explain_text),
					      "warnings: %d\n", a->plan.nwarnings);
		for (int i = 0; i < a->plan.nwarnings && len < sizeof(a->explain_text); i++) {
			char msg[256];
			plan_warning_format(&a->plan.warnings[i], msg, sizeof(msg));
			len += (size_t)snprintf(a->explain_text + len,
						sizeof(a->explain_text) - len, "\n! %s\n", msg);
		}
		return;
	}
	if (f) {
		explain_field(a, f);
		return;
	}
	{
		struct gp_error err;
		memset(&err, 0, sizeof(err));
		/* unwrapped: the view wraps to its own width, hanging each paragraph */
		if (explain_key_wrapped(&a->scn, &a->plan, key, 0, a->explain_text,
					sizeof(a->explain_text), &err) == 0)
			return;
		/* a figure explain does not know: at least its value, and why */
		pane_results_value(a, key, value, sizeof(value));
		snprintf(a->explain_text, sizeof(a->explain_text), "%s = %s\n\n%s\n", key, value,
			 err.message);
	}
}

/* Characters (not bytes) in the first n bytes of s. */
static int chars(const char *s, int n)
{
	int c = 0;
	for (int i = 0; i < n; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			c++;
	return c;
}

/* Bytes of s that hold its first c characters (stopping at the end of s). */
static int bytes_of(const char *s, int len, int c)
{
	int i = 0;
	while (i < len && c > 0) {
		i++;
		while (i < len && ((unsigned char)s[i] & 0xc0) == 0x80)
			i++;
		c--;
	}
	return i;
}

/* Wraps text at spaces into lines of at most width columns, a continuation indented like
 * the line it continues; draws lines skip.. into w from row y0 while row < ymax (w may be
 * NULL to count). Returns the number of lines. */
static int wrap_text(struct app *a, WINDOW *w, const char *text, int width, int skip, int y0,
		     int ymax)
{
	int count = 0;

	if (width < 8)
		width = 8;
	while (*text) {
		int len = (int)strcspn(text, "\n"), indent = 0;
		const char *line = text;
		bool first = true;

		while (indent < len && line[indent] == ' ')
			indent++;
		/* a continuation hangs under the text after a leading "= " or "label: " (the
		 * core's own layout: "source: ...", "= 64 x 1.05 s + ..."), else under the
		 * line's indent */
		if (len - indent > 2 && line[indent] == '=' && line[indent + 1] == ' ') {
			indent += 2;
		} else if (strcspn(line + indent, " \n") < 40 &&
			   strncmp(line + indent + strcspn(line + indent, " \n"), " = ", 3) == 0 &&
			   line[0] == ' ') {
			/* a formula, "  lhs = rhs": under the right-hand side */
			indent += (int)strcspn(line + indent, " \n") + 3;
		} else {
			int k = indent;
			while (k < len && k - indent < 12 && line[k] != ' ' && line[k] != ':')
				k++;
			if (k < len - 1 && k > indent && line[k] == ':' && line[k + 1] == ' ')
				indent = k + 2;
		}
		if (indent > width / 2)
			indent = width / 2;
		do {
			int lead = first ? 0 : indent;
			int avail = width - lead, take = len;
			if (chars(line, len) > avail) {
				int cut = bytes_of(line, len, avail), sp = cut;
				while (sp > 0 && line[sp] != ' ')
					sp--;
				take = sp > 0 ? sp : cut;
			}
			if (w && count >= skip && y0 + count - skip < ymax) {
				char buf[512];
				snprintf(buf, sizeof(buf), "%.*s", take, line);
				draw_text(a, w, y0 + count - skip, 2 + lead, avail, ROLE_POPUP,
					  buf);
			}
			count++;
			line += take;
			len -= take;
			while (len > 0 && *line == ' ') {
				line++;
				len--;
			}
			first = false;
		} while (len > 0);
		text = line;
		if (*text == '\n')
			text++;
	}
	return count;
}

int explain_lines(struct app *a, int width)
{
	return wrap_text(a, NULL, a->explain_text, width, 0, 0, 0);
}

/* The first line shown of n with visible lines: scrolling stops with the last line at the
 * bottom. explain_top itself may be past it (keys read before a redraw). */
static int explain_top_shown(const struct app *a, int n, int visible)
{
	int top = a->explain_top;

	if (top > n - visible)
		top = n - visible;
	return top < 0 ? 0 : top;
}

void explain_draw(struct app *a, const struct view_ops *v, WINDOW *w)
{
	int height = getmaxy(w), width = getmaxx(w), n, visible = height - 2;
	char title[96];

	(void)v;
	n = explain_lines(a, width - 4);
	snprintf(title, sizeof(title), "Explain %s%s", a->explain_key,
		 n > visible ? "  (Up/Down scroll)" : "");
	draw_frame(a, w, title);
	wrap_text(a, w, a->explain_text, width - 4, explain_top_shown(a, n, visible), 1,
		  height - 1);
	wnoutrefresh(w);
}

static void explain_place(struct app *a, struct rect body, struct rect *r);

static unsigned explain_view_key(struct app *a, int key)
{
	/* scroll from the line on the screen: the window app_draw places (it draws nothing on
	 * a screen too small) */
	if (a->screen && !a->lay.too_small) {
		struct rect body = {.y = 1, .x = 0, .h = a->lay.rows - 3, .w = a->lay.cols}, r;
		explain_place(a, body, &r);
		a->explain_top = explain_top_shown(a, explain_lines(a, r.w - 4), r.h - 2);
	}
	view_key(a, key);
	return DIRTY_DRAW;
}

/* Explanations are written for 80 columns: as wide as that allows, as tall as the text, and
 * no taller than the body. */
static void explain_place(struct app *a, struct rect body, struct rect *r)
{
	view_place_text(a, body, 86, explain_lines, r);
}

const struct view_ops explain_view = {
    .key = explain_view_key,
    .draw = explain_draw,
    .place = explain_place,
    VIEW_OPS("explain", KC_VIEW),
};
