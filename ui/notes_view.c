/* notes_view.c - the scenario's notes (a lesson's text and its questions) in a window over
 * the body: n or :notes opens it, Up/Down and the page keys scroll, any other key closes. */
#include "app.h"

#include <stdio.h>
#include <string.h>

/* Bytes of the longest start of s (len bytes) that takes at most width columns and ends at
 * a space, or exactly width columns when a word is longer than that; *next skips the
 * spaces after it. One column a character: the notes' glyphs are narrow. */
static int wrap_take(const char *s, int len, int width, int *next)
{
	int cols = 0, i = 0, sp = -1;

	while (i < len) {
		int c = i + 1;
		while (c < len && ((unsigned char)s[c] & 0xc0) == 0x80)
			c++;
		if (cols == width)
			break;
		if (s[i] == ' ' || s[i] == '\n')
			sp = i;
		cols++;
		i = c;
	}
	if (i < len && sp > 0 && s[i] != ' ' && s[i] != '\n')
		i = sp;
	*next = i;
	while (*next < len && (s[*next] == ' ' || s[*next] == '\n'))
		(*next)++;
	return i;
}

/* Bytes of the paragraph text starts with: the notes' lines are broken for the file's
 * width, so a line break inside a paragraph is a space, reflowed to the window's; a blank
 * line, or a line that starts with a blank or a list mark, begins another. */
static int paragraph_len(const char *text)
{
	int i = 0;

	for (;;) {
		i += (int)strcspn(text + i, "\n");
		if (!text[i] || i == 0 || strchr("\n -*", text[i + 1]))
			return i;
		i++;
	}
}

/* The notes wrapped at width; draws lines skip.. into w from row y0 while row < ymax (w NULL
 * only counts). Returns the number of lines. */
static int notes_wrap(struct app *a, WINDOW *w, int width, int skip, int y0, int ymax)
{
	const char *text = a->scn.notes[0] ? a->scn.notes
					   : "This scenario has no notes (a notes: block in its "
					     "file holds a lesson's text and its questions).";
	int n = 0;

	if (width < 8)
		width = 8;
	while (*text) {
		int len = paragraph_len(text), off = 0;
		do {
			int next, take = wrap_take(text + off, len - off, width, &next);
			if (w && n >= skip && y0 + n - skip < ymax) {
				char buf[512];
				snprintf(buf, sizeof(buf), "%.*s", take, text + off);
				for (char *c = buf; (c = strchr(c, '\n')) != NULL;)
					*c = ' ';
				draw_text(a, w, y0 + n - skip, 2, width, ROLE_POPUP, buf);
			}
			n++;
			off += next;
		} while (off < len);
		text += len;
		if (*text == '\n')
			text++;
	}
	return n;
}

int notes_lines(struct app *a, int width)
{
	return notes_wrap(a, NULL, width, 0, 0, 0);
}

unsigned app_key_notes(struct app *a, int key)
{
	(void)key;
	a->mode = MODE_NOTES;
	a->notes_top = 0;
	return DIRTY_DRAW;
}

static void notes_draw(struct app *a, const struct view_ops *v, WINDOW *w)
{
	int height = getmaxy(w), width = getmaxx(w), visible = height - 2;
	int n = notes_lines(a, width - 4);
	char title[160];

	(void)v;
	/* scrolling stops with the last line at the bottom, as in the help */
	if (a->notes_top > n - visible)
		a->notes_top = n - visible;
	if (a->notes_top < 0)
		a->notes_top = 0;
	snprintf(title, sizeof(title), "Notes %.100s%s", a->scn.name[0] ? a->scn.name : "",
		 n > visible ? "  (Up/Down scroll)" : "");
	draw_frame(a, w, title);
	notes_wrap(a, w, width - 4, a->notes_top, 1, height - 1);
	wnoutrefresh(w);
}

/* As wide as the body allows up to 80 columns of text, as tall as the notes. */
static void notes_place(struct app *a, struct rect body, struct rect *r)
{
	view_place_text(a, body, 84, notes_lines, r);
}

const struct view_ops notes_view = {
    .key = view_key, /* scroll and close: KC_VIEW's rows, each returning DIRTY_DRAW */
    .draw = notes_draw,
    .place = notes_place,
    VIEW_OPS("notes", KC_VIEW),
};
