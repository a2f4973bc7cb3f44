/* help.c - the help screen (F1, ?, :help). */
#include "app.h"

#include <stdio.h>
#include <string.h>

#include "command.h"

/* The help screen's text, at most 76 columns a line (the help window's inside at 80x24):
 * a title, then each section's keys (keys.c's table) and commands (command.c's table) in
 * table order, "  KEYS" in 18 columns and the text, then the paragraph on the screen. */
static const char *const help_title = "gpuplan: what a model, a workload and a cluster need, "
				      "live as you type";
static const char *const help_section_titles[HELP_SECTIONS] = {
    [HELP_MOVING] = "Moving",
    [HELP_EDITING] = "Editing",
    [HELP_COMMANDS] = "Commands",
    [HELP_SEARCH] = "Search, goal seek, scaling (views over the panes, fit 80x24)",
};
static const char *const help_screen[] = {
    "Screen",
    "  q or Esc closes a view (search, scaling, help, notes, an explanation);",
    "  at the panes q or F10 quits (w at its question saves first). Ctrl-L",
    "  redraws; the title's mark means unsaved edits. A message too long for",
    "  its line goes on over the key legend until the next key.",
    "  +-11% after a result: its error band, how far gpuplan was from measured",
    "  runs like it (+-?: none measured); selected, the status line names them.",
    "  NO_COLOR=1: no colour; --ascii or a non-UTF-8 locale: ASCII drawing.",
    "  A dropped connection (SIGHUP) keeps unsaved edits in a recovery file",
    "  that the next start offers to restore.",
    NULL,
};

#define HELP_MAX_LINES 64
#define HELP_LINE_MAX  80

/* Built once, on first use (the tables are constant), so help_line needs no buffer. */
static char help_text[HELP_MAX_LINES][HELP_LINE_MAX];
static int help_n = -1;

static void help_add(const char *keys, const char *text, int len)
{
	if (help_n < HELP_MAX_LINES)
		snprintf(help_text[help_n++], HELP_LINE_MAX, keys ? "  %-18s%.*s" : "%s%.*s",
			 keys ? keys : "", len, text);
}

/* One entry: its first line after its keys, the others under that text. */
static void help_add_entry(const char *keys, const char *text)
{
	while (*text) {
		int len = (int)strcspn(text, "\n");
		help_add(keys ? keys : "", text, len);
		keys = "";
		text += len + (text[len] == '\n');
	}
}

static void help_build(void)
{
	help_n = 0;
	help_add(NULL, help_title, (int)strlen(help_title));
	help_add(NULL, "", 0);
	for (int s = HELP_NONE + 1; s < HELP_SECTIONS; s++) {
		help_add(NULL, help_section_titles[s], (int)strlen(help_section_titles[s]));
		for (const struct key_row *r = key_table; r->name; r++)
			if ((int)r->section == s && r->help_keys)
				help_add_entry(r->help_keys, r->help);
		for (const struct command *c = command_table; c->name; c++)
			if ((int)c->section == s && c->help_keys)
				help_add_entry(c->help_keys, c->help);
	}
	for (int i = 0; help_screen[i]; i++)
		help_add(NULL, help_screen[i], (int)strlen(help_screen[i]));
}

const char *help_line(int i)
{
	return i >= 0 && i < help_lines() ? help_text[i] : NULL;
}

int help_lines(void)
{
	if (help_n < 0)
		help_build();
	return help_n;
}

/* The column a help line's text starts at after its key (the first run of two spaces past
 * the indent); for a line without a key, its indent. */
static int help_text_col(const char *line)
{
	const char *p = line;

	while (*p == ' ')
		p++;
	for (const char *q = p; *q; q++)
		if (q[0] == ' ' && q[1] == ' ') {
			while (*q == ' ')
				q++;
			if (*q)
				return (int)(q - line);
			break;
		}
	return (int)(p - line);
}

/* The help wrapped at width columns (a window narrower than 80, on a 64-column terminal):
 * a long line breaks at a space and goes on under its text. Fills display line want into
 * buf (with *heading) and returns the number of display lines. */
static int help_wrap(int width, int want, char *buf, size_t size, bool *heading)
{
	int n = 0;

	for (int i = 0; i < help_lines(); i++) {
		const char *line = help_text[i], *rest = line;
		int indent = help_text_col(line), first = 1;
		if (indent > width / 2)
			indent = 4;
		do {
			int room = first ? width : width - indent, len = (int)strlen(rest);
			if (text_width(rest) > room && room > 8) {
				len = room; /* ASCII text: a byte a column */
				while (len > room / 2 && rest[len] != ' ')
					len--;
				if (rest[len] != ' ')
					len = room;
			}
			if (n == want) {
				snprintf(buf, size, "%*s%.*s", first ? 0 : indent, "", len, rest);
				*heading = line[0] && line[0] != ' ';
			}
			n++;
			rest += len;
			while (*rest == ' ')
				rest++;
			first = 0;
		} while (*rest);
	}
	return n;
}

int help_display_lines(int width)
{
	char buf[8];
	bool heading;

	return help_wrap(width, -1, buf, sizeof(buf), &heading);
}

/* The first line shown of n in a window of height rows: scrolling stops with the last line
 * at the bottom, as in the explanation window. help_top itself may be past it (a resize,
 * keys read before a redraw). */
static int help_top_shown(const struct app *a, int n, int height)
{
	int top = a->help_top;

	if (top > n - (height - 2))
		top = n - (height - 2);
	return top < 0 ? 0 : top;
}

void help_draw(struct app *a, const struct view_ops *v, WINDOW *w)
{
	int height = getmaxy(w), width = getmaxx(w), n = help_display_lines(width - 4);
	int top = help_top_shown(a, n, height);

	(void)v;
	draw_frame(a, w,
		   n > height - 2 ? "Help (Up/Down scroll, q or Esc closes)"
				  : "Help (q or Esc closes)");
	for (int i = 0; i + 2 < height && top + i < n; i++) {
		char line[160];
		bool heading;
		help_wrap(width - 4, top + i, line, sizeof(line), &heading);
		draw_text(a, w, i + 1, 2, width - 4, heading ? ROLE_HEADER : ROLE_NORMAL, line);
	}
	wnoutrefresh(w);
}

static unsigned help_key(struct app *a, int key)
{
	int n = help_display_lines(a->lay.cols - 4);

	/* scroll from the line on the screen: the help covers the body (help_place), rows - 3
	 * by cols, as app_draw places it (it draws nothing on a screen too small) */
	if (a->screen && !a->lay.too_small)
		a->help_top = help_top_shown(a, n, a->lay.rows - 3);
	view_key(a, key);
	if (a->help_top > n - 1)
		a->help_top = n - 1;
	return DIRTY_DRAW;
}

/* The help covers the body. */
static void help_place(struct app *a, struct rect body, struct rect *r)
{
	(void)a;
	*r = body;
}

const struct view_ops help_view = {
    .key = help_key,
    .draw = help_draw,
    .place = help_place,
    VIEW_OPS("help", KC_VIEW),
};
