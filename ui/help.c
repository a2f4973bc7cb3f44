/* help.c - the help screen (F1, ?, :help). */
#include "app.h"

#include <stdio.h>
#include <string.h>

/* At most 76 columns a line: the help window's inside at 80x24. */
static const char *const help_text[] = {
    "gpuplan: what a model, a workload and a cluster need, live as you type",
    "",
    "Moving",
    "  Tab, Shift-Tab    next, previous pane (1-4 jump to one)",
    "  Up/Down, k/j      previous, next field;  PgUp/PgDn, g/G",
    "Editing",
    "  Enter             type a value, with units as in files (80GB, 400Gb/s,",
    "                    7B, 5d); results follow while it reads; Enter applies,",
    "                    Esc cancels",
    "  Enter on a preset the picker: type to filter, Enter takes, Esc cancels",
    "  + / -             step: doubles or halves counts and batches",
    "  Left/Right, h/l   cycle a choice (kind, precision, gpu, model)",
    "  u, Ctrl-R         undo, redo",
    "  b                 pin a baseline: results show their change against it;",
    "                    b again moves it here after edits, else clears it",
    "  e                 explain the selected figure (Enter on Results) or field;",
    "                    on the warnings, list them whole",
    "Commands",
    "  :set KEY=VALUE    set a field by its path: :set hardware.count=16",
    "                    (Tab completes keys and values, Up/Down recall)",
    "  :w [FILE]         save (to FILE, which the session then goes on with);",
    "                    asks for a name when there is none (F2, ^S), and",
    "                    before replacing a file or its comments (:w! not)",
    "  :e FILE           open another scenario (:e! drops unsaved edits); Tab",
    "                    completes file names after :e and :w",
    "  :q, :q!, :wq      quit (asks about unsaved edits), quit anyway, save+quit",
    "  :help             this screen",
    "Search, goal seek, scaling (views over the panes, fit 80x24)",
    "  s, :search        the best layouts for this scenario, rerun after every",
    "                    edit: Up/Down choose, Enter applies (u undoes), c/t",
    "                    rank by cost/time, H over the catalog's GPUs too, Esc",
    "                    closes (:search cost hardware sets both)",
    "  > / <             goal seek on the selected field: the largest (smallest)",
    "                    value that still fits and meets the deadline or SLO",
    "  :solve max KEY    the same for any numeric field (:solve min KEY)",
    "  S, :scaling       time, cost and efficiency against 8 to 1,024 GPUs",
    "Screen",
    "  Ctrl-L redraws; q or F10 quits (w at its question saves first); the",
    "  title's mark means unsaved edits. A message too long for its line goes",
    "  on over the key legend until the next key.",
    "  NO_COLOR=1: no colour; --ascii or a non-UTF-8 locale: ASCII drawing.",
    "  A dropped connection (SIGHUP) keeps unsaved edits in a recovery file",
    "  that the next start offers to restore.",
    NULL,
};

const char *help_line(int i)
{
	return i >= 0 && i < help_lines() ? help_text[i] : NULL;
}

int help_lines(void)
{
	int n = 0;
	while (help_text[n])
		n++;
	return n;
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

	for (int i = 0; help_text[i]; i++) {
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

void help_draw(struct app *a, WINDOW *w)
{
	int height = getmaxy(w), width = getmaxx(w), n = help_display_lines(width - 4);

	/* scrolling stops with the last line at the bottom, as in the explanation window */
	if (a->help_top > n - (height - 2))
		a->help_top = n - (height - 2);
	if (a->help_top < 0)
		a->help_top = 0;
	draw_frame(a, w,
		   n > height - 2 ? "Help (Up/Down scroll, other keys close)"
				  : "Help (any key closes)");
	for (int i = 0; i + 2 < height && a->help_top + i < n; i++) {
		char line[160];
		bool heading;
		help_wrap(width - 4, a->help_top + i, line, sizeof(line), &heading);
		draw_text(a, w, i + 1, 2, width - 4, heading ? ROLE_HEADER : ROLE_NORMAL, line);
	}
	wnoutrefresh(w);
}
