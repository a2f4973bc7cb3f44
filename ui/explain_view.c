/* explain_view.c - the explanation window: how the selected figure is derived (the
 * formula, the numbers, the source, from the core's explain module), or for an input what
 * the field means. */
#include "app.h"

#include <stdio.h>
#include <string.h>

#include "explain.h"

void explain_open(struct app *a, const char *key)
{
	const struct field *f = scenario_field_find(key);
	char value[128];

	snprintf(a->explain_key, sizeof(a->explain_key), "%s", key);
	a->explain_text[0] = '\0';
	a->mode = MODE_EXPLAIN;
	a->explain_top = 0;
	a->dirty |= DIRTY_DRAW;
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
		scenario_field_format(&a->scn, f, value, sizeof(value));
		snprintf(a->explain_text, sizeof(a->explain_text), "%s = %s\n\n%s\n", key, value,
			 f->doc);
		return;
	}
	{
		struct gp_error err;
		memset(&err, 0, sizeof(err));
		if (explain_key(&a->scn, &a->plan, key, a->explain_text, sizeof(a->explain_text),
				&err) == 0)
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

void explain_draw(struct app *a, WINDOW *w)
{
	int height = getmaxy(w), width = getmaxx(w), n, visible = height - 2;
	char title[96];

	n = explain_lines(a, width - 4);
	if (a->explain_top > n - visible)
		a->explain_top = n - visible;
	if (a->explain_top < 0)
		a->explain_top = 0;
	snprintf(title, sizeof(title), "Explain %s%s", a->explain_key,
		 n > visible ? "  (Up/Down scroll)" : "");
	draw_frame(a, w, title);
	wrap_text(a, w, a->explain_text, width - 4, a->explain_top, 1, height - 1);
	wnoutrefresh(w);
}
