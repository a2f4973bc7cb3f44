/* explain_view.c - the explanation window: how the selected figure is derived (the
 * formula, the numbers, the source) from the core's explain module when it is built in;
 * otherwise the figure and, for an input, what the field means. */
#include "app.h"

#include <stdio.h>
#include <string.h>

#if defined(__has_include)
#if __has_include("explain.h")
#include "explain.h"
#define HAVE_EXPLAIN 1
#endif
#endif

void explain_open(struct app *a, const char *key)
{
	const struct field *f = scenario_field_find(key);
	char value[128];

	snprintf(a->explain_key, sizeof(a->explain_key), "%s", key);
	a->explain_text[0] = '\0';
	a->mode = MODE_EXPLAIN;
	a->dirty |= DIRTY_DRAW;
	if (f) {
		scenario_field_format(&a->scn, f, value, sizeof(value));
		snprintf(a->explain_text, sizeof(a->explain_text), "%s = %s\n\n%s\n", key, value,
			 f->doc);
		return;
	}
#ifdef HAVE_EXPLAIN
	{
		struct gp_error err;
		memset(&err, 0, sizeof(err));
		if (explain_key(&a->scn, &a->plan, key, a->explain_text, sizeof(a->explain_text),
				&err) == 0)
			return;
	}
#endif
	pane_results_value(a, key, value, sizeof(value));
	snprintf(a->explain_text, sizeof(a->explain_text),
		 "%s = %s\n\n(the derivation of this figure is not available in this build;\n"
		 "gpuplan explain FILE %s prints it when it is)\n",
		 key, value, key);
}

void explain_draw(struct app *a, WINDOW *w)
{
	int height = getmaxy(w), width = getmaxx(w), y = 1;
	const char *p = a->explain_text;

	char title[96];

	snprintf(title, sizeof(title), "Explain %s", a->explain_key);
	draw_frame(a, w, title);
	/* one line per text line, wrapped at the window's width */
	while (*p && y < height - 1) {
		size_t n = strcspn(p, "\n");
		const char *line = p;
		while (y < height - 1) {
			size_t take = n > (size_t)(width - 4) ? (size_t)(width - 4) : n;
			char buf[512];
			snprintf(buf, sizeof(buf), "%.*s", (int)take, line);
			draw_text(a, w, y++, 2, width - 4, ROLE_POPUP, buf);
			line += take;
			n -= take;
			if (!n)
				break;
		}
		p = line + n;
		if (*p == '\n')
			p++;
	}
	wnoutrefresh(w);
}
