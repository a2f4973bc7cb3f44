/* draw.c - the screen: windows from the layout, the title, status and legend lines, and the
 * one doupdate per frame. Each window is erased and drawn whole from the state; curses
 * sends only the cells that changed, so an edit costs a few hundred bytes. */
#include "app.h"
#include "bars.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "cli.h"
#include "text.h"

/* The columns of the character at s, and its length in bytes in *len: wcwidth of the
 * decoded code point (wide East Asian characters take two), 1 for what does not decode. */
static int char_cols(const char *s, int *len)
{
	const unsigned char *u = (const unsigned char *)s;
	unsigned cp;
	int n, w;

	if (u[0] < 0x80) {
		*len = 1;
		return 1;
	}
	n = u[0] >= 0xf0 ? 4 : u[0] >= 0xe0 ? 3 : u[0] >= 0xc0 ? 2 : 1;
	cp = n == 4 ? u[0] & 0x07 : n == 3 ? u[0] & 0x0f : u[0] & 0x1f;
	for (int i = 1; i < n; i++) {
		if ((u[i] & 0xc0) != 0x80) {
			*len = i;
			return 1;
		}
		cp = cp << 6 | (u[i] & 0x3f);
	}
	*len = n;
	w = n > 1 ? wcwidth((wchar_t)cp) : 1;
	return w < 0 ? 1 : w;
}

int text_width(const char *s)
{
	int cols = 0, len;

	while (*s) {
		cols += char_cols(s, &len);
		s += len;
	}
	return cols;
}

/* Bytes of s that fill at most width columns. */
static int bytes_for_width(const char *s, int width)
{
	int cols = 0, i = 0, len;

	while (s[i]) {
		int c = char_cols(s + i, &len);
		if (cols + c > width)
			break;
		cols += c;
		i += len;
	}
	return i;
}

void draw_text(struct app *a, WINDOW *w, int y, int x, int width, int role, const char *s)
{
	char clean[1024];
	size_t len;
	int n;

	if (width <= 0 || !s)
		return;
	/* text from a file (a scenario's name, a path) may hold control characters, which
	 * curses would draw as ^[ or expand (a tab), wider than the columns counted: escaped
	 * as the CLI escapes them (text.c, "\e[31m"), so both front ends show the same; a
	 * text longer than clean is cut, as the width cuts it anyway */
	len = strlen(s);
	if (text_has_control(s) || text_utf8_invalid_at(s, len) != len) {
		text_escape_control(s, len, clean, sizeof(clean), 0);
		s = clean;
	}
	n = bytes_for_width(s, width);
	if (n <= 0)
		return;
	wattrset(w, a->theme.attr[role]);
	mvwaddnstr(w, y, x, s, n);
	wattrset(w, A_NORMAL);
}

void draw_text_clip(struct app *a, WINDOW *w, int y, int x, int width, int role, const char *s)
{
	const char *ell = a->theme.g->ellipsis;
	int ew = text_width(ell);

	if (!s || text_width(s) <= width || width <= ew) {
		draw_text(a, w, y, x, width, role, s);
		return;
	}
	draw_text(a, w, y, x, width - ew, role, s);
	draw_text(a, w, y, x + width - ew, ew, role, ell);
}

int draw_textf(struct app *a, WINDOW *w, int y, int x, int width, int role, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	draw_text(a, w, y, x, width, role, buf);
	return text_width(buf) < width ? text_width(buf) : width;
}

/* Fills from (y, x) to the end of the line with role's background. */
static void fill_line(struct app *a, WINDOW *w, int y, int x, int role)
{
	int width = getmaxx(w);

	wattrset(w, a->theme.attr[role]);
	wmove(w, y, x);
	for (int i = x; i < width; i++)
		waddch(w, ' ');
	wattrset(w, A_NORMAL);
}

void draw_header(struct app *a, WINDOW *w, int pane, const char *title, const char *right)
{
	int role = a->focus == pane ? ROLE_HEADER_FOCUS : ROLE_HEADER;
	int width = getmaxx(w);

	fill_line(a, w, 0, 0, role);
	draw_textf(a, w, 0, 0, width, role, " %d %s", pane + 1, title);
	if (right && right[0]) {
		int rw = text_width(right);
		if (rw + 1 < width - text_width(title) - 4)
			draw_text(a, w, 0, width - rw - 1, rw, role, right);
	}
}

static void delete_windows(struct app *a)
{
	WINDOW **all[] = {&a->w_title,	 &a->w_status,	&a->w_legend,  &a->w_popup,  &a->w_view,
			  &a->w_pane[0], &a->w_pane[1], &a->w_pane[2], &a->w_pane[3]};
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++) {
		if (*all[i])
			delwin(*all[i]);
		*all[i] = NULL;
	}
}

static WINDOW *rect_window(struct rect r)
{
	return newwin(r.h, r.w, r.y, r.x);
}

void app_screen_layout(struct app *a)
{
	int rows, cols;

	getmaxyx(stdscr, rows, cols);
	delete_windows(a);
	/* stdscr is only the background: refreshing it here keeps a later getch from painting
	 * it over the panes. */
	werase(stdscr);
	wnoutrefresh(stdscr);
	layout_compute(rows, cols, &a->lay);
	a->dirty &= ~DIRTY_LAYOUT;
	a->dirty |= DIRTY_DRAW;
	/* curses' idea of the screen may be stale after a resize: repaint it all once. */
	clearok(curscr, TRUE);
	if (a->lay.too_small)
		return;
	a->w_title = rect_window(a->lay.title);
	a->w_status = rect_window(a->lay.status);
	a->w_legend = rect_window(a->lay.legend);
	for (int p = 0; p < PANE_COUNT; p++)
		a->w_pane[p] = rect_window(a->lay.pane[p]);
	/* the search and scaling views cover the body at full width */
	a->w_view = newwin(a->lay.rows - 3, a->lay.cols, 1, 0);
	/* the panes' scroll positions depend on their heights; the plan does not */
	app_relayout(a);
}

void app_screen_start(struct app *a)
{
	bool ascii = (a->flags & CLI_UI_ASCII) != 0;

	theme_init(&a->theme, theme_locale_utf8(), theme_env_no_color(), ascii);
	a->screen = true;
	a->cursor_shown = -1;
	app_screen_layout(a);
}

void app_screen_stop(struct app *a)
{
	delete_windows(a);
	a->screen = false;
}

/* s past its first cols columns (a wide character counts two; one that straddles the
 * mark is skipped too). */
static const char *skip_cols(const char *s, int cols)
{
	int len;

	while (cols > 0 && *s) {
		cols -= char_cols(s, &len);
		s += len;
	}
	return s;
}

/* The title: the name, the unsaved mark, then on the right the baseline mark and the file.
 * A long name gives way first (cut with an ellipsis), so that the baseline mark always shows
 * and the file keeps FILE_MIN columns; the file is then shortened from the left. */
static void draw_title(struct app *a)
{
	enum { FILE_MIN = 20 };
	WINDOW *w = a->w_title;
	const char *ell = a->theme.g->ellipsis;
	int width = getmaxx(w), x;
	/* the name and path escaped here (as draw_text would), so their widths are the
	 * columns drawn */
	char name_esc[sizeof(a->scn.name) * 4], file_esc[sizeof(a->path) * 4];
	const char *name = a->scn.name[0] ? a->scn.name : "untitled";
	const char *file = a->path[0] ? a->path : "(built-in)";
	char mark[96], marks[sizeof(mark) + 16];
	text_escape_control(name, strlen(name), name_esc, sizeof(name_esc), 0);
	text_escape_control(file, strlen(file), file_esc, sizeof(file_esc), 0);
	name = name_esc;
	file = file_esc;
	const char *base = marks;
	app_baseline_mark(a, mark, sizeof(mark));
	snprintf(marks, sizeof(marks), "%s%s%s", mark, mark[0] ? " " : "",
		 a->new_file ? "[new file] " : "");
	bool unsaved = app_unsaved(a);
	int fw = text_width(file), nw = text_width(name);
	int markw = unsaved ? 1 + text_width(a->theme.g->unsaved) : 0;
	int right_min = text_width(base) + (fw < FILE_MIN ? fw : FILE_MIN) + 1;
	int name_room = width - 10 - markw - 2 - right_min;
	char right[sizeof(marks) + sizeof(file_esc) + 8], shown[sizeof(name_esc) + 8];

	werase(w);
	fill_line(a, w, 0, 0, ROLE_TITLE);
	if (nw > name_room && name_room >= 8) {
		/* the name's first name_room - 1 columns and an ellipsis */
		const char *end = name + bytes_for_width(name, name_room - text_width(ell));
		while (end > name && end[-1] == ' ')
			end--;
		snprintf(shown, sizeof(shown), "%.*s%s", (int)(end - name), name, ell);
	} else {
		snprintf(shown, sizeof(shown), "%s", name);
	}
	x = draw_textf(a, w, 0, 0, width, ROLE_TITLE, " gpuplan  %s", shown);
	if (unsaved)
		x += draw_textf(a, w, 0, x, width - x, ROLE_TITLE_MARK, " %s", a->theme.g->unsaved);
	{
		int room = width - x - 3 - text_width(base);
		if (room >= 8) {
			if (fw > room)
				snprintf(right, sizeof(right), "%s%s%s ", base, ell,
					 skip_cols(file, fw - room + text_width(ell)));
			else
				snprintf(right, sizeof(right), "%s%s ", base, file);
			draw_text(a, w, 0, width - text_width(right), text_width(right), ROLE_TITLE,
				  right);
		} else if (base[0] && width - x - 2 >= text_width(base)) {
			draw_text(a, w, 0, width - text_width(base), text_width(base), ROLE_TITLE,
				  base);
		}
	}
	wnoutrefresh(w);
}

/* What the status line shows when it is not the : line or the save-as prompt: a message,
 * else the whole of the selected verdict or the warnings, else the selected field's
 * problem. NULL for nothing; *role is how to draw it. */
static const char *status_shown(const struct app *a, char *buf, size_t size, int *role)
{
	const struct view_ops *top = app_view(a);

	if (top->line && top->line(a))
		return NULL;
	if (a->status[0]) {
		*role = a->status_error ? ROLE_ERROR : ROLE_NORMAL;
		return a->status;
	}
	if (top->pane < 0 || !top->status)
		return NULL; /* the status line belongs to the view's messages */
	/* the focused pane's word on its selection */
	return top->status(a, buf, size, role);
}

/* A text wider than the status line is not cut off: it breaks at a space and goes on over
 * the key legend's line (until the next key clears it). Returns the bytes of the first line
 * and sets *rest to where the second starts (NULL when it all fits). */
static int status_split(const char *s, int width, const char **rest)
{
	int n;

	*rest = NULL;
	if (text_width(s) <= width)
		return (int)strlen(s);
	n = bytes_for_width(s, width);
	for (int i = n; i > 0; i--)
		if (s[i] == ' ' && i >= n / 2) {
			n = i;
			break;
		}
	*rest = s + n;
	while (**rest == ' ')
		(*rest)++;
	return n;
}

/* The columns legend item i takes (all of them when i < 0): the key, a space, its meaning
 * and two spaces before the next item, as htop writes "F1 Help  F2 Setup". */
static int legend_width(const struct legend_item *items, int i)
{
	int total = 0;

	for (int k = i < 0 ? 0 : i; items[k].key && (i < 0 || k == i); k++)
		total += text_width(items[k].key) + 1 + text_width(items[k].text) + 2;
	return total;
}

/* While a value is typed or picked the legend's keys are what the user needs: the status
 * line keeps to its line there (the field's description is cut, e gives it whole). */
static bool status_one_line(const struct app *a)
{
	return (app_view(a)->flags & VIEW_STATUS_ONE_LINE) != 0;
}

/* The status text on one line of width columns: without the field's key in front when the
 * text is longer (the pane shows which field it is), then cut with an ellipsis. */
static void draw_status_one_line(struct app *a, WINDOW *w, int width, int role, const char *s)
{
	const struct field *f = a->edit_field;
	size_t n;

	if (text_width(s) > width && (app_view(a)->flags & VIEW_STATUS_FIELD) && f &&
	    strncmp(s, f->key, n = strlen(f->key)) == 0 && strncmp(s + n, ": ", 2) == 0)
		s += n + 2;
	draw_text_clip(a, w, 0, 0, width, role, s);
}

static void draw_legend(struct app *a)
{
	bool shown[16];
	WINDOW *w = a->w_legend;
	struct legend_item items[16];
	int width = getmaxx(w), x = 0;
	const char *rest = NULL, *text;
	char buf[1024];
	int role = ROLE_NORMAL;

	if ((text = status_shown(a, buf, sizeof(buf), &role)) != NULL && !status_one_line(a))
		status_split(text, width, &rest);
	if (rest) {
		werase(w);
		if (text_width(rest) > width) {
			/* still longer: the end is cut, and says so */
			const char *ell = a->theme.g->ellipsis;
			draw_text(a, w, 0, 0, width - text_width(ell), role, rest);
			draw_text(a, w, 0, width - text_width(ell), text_width(ell), role, ell);
		} else {
			draw_text(a, w, 0, 0, width, role, rest);
		}
		wnoutrefresh(w);
		return;
	}

	/* the keys of the mode, view or pane the keys act in (keys.c's table) */
	keys_legend(app_key_ctx(a), items, (int)(sizeof(items) / sizeof(items[0])));
	werase(w);
	/* A narrow terminal: the items before the last (q Quit, Esc Close) are left out from
	 * the end, the lowest in the table's order first, so the first and the last always
	 * show. The last item needs no gap after it. */
	{
		int n = 0, total;
		while (items[n].key)
			n++;
		for (int i = 0; i < n; i++)
			shown[i] = true;
		/* the item that quits or closes stays even when a row comes after it (n Notes) */
		int keep = n - 1;
		for (int i = n - 1; i > 0; i--)
			if (strcmp(items[i].key, "q") == 0 || strcmp(items[i].key, "Esc") == 0) {
				keep = i;
				break;
			}
		total = legend_width(items, -1) - 2;
		for (int i = n - 1; i > 0 && total > width; i--) {
			if (i == keep)
				continue;
			total -= legend_width(items, i);
			shown[i] = false;
		}
		/* htop: the key plain, its meaning on a coloured field */
		for (int i = 0; i < n && x < width; i++) {
			int kw = text_width(items[i].key), tw = text_width(items[i].text);
			int cell = 1 + tw + (i < n - 1 ? 2 : 0);
			if (!shown[i])
				continue;
			if (x + kw + 1 + tw > width)
				break;
			if (x + kw + cell > width)
				cell = width - x - kw;
			draw_text(a, w, 0, x, kw, ROLE_KEY, items[i].key);
			x += kw;
			wattrset(w, a->theme.attr[ROLE_KEY_TEXT]);
			mvwaddch(w, 0, x, ' ');
			waddstr(w, items[i].text);
			for (int j = 1 + tw; j < cell; j++)
				waddch(w, ' ');
			wattrset(w, A_NORMAL);
			x += cell;
		}
	}
	if (x < width)
		fill_line(a, w, 0, x, ROLE_KEY_TEXT);
	wnoutrefresh(w);
}

/* The lead of the line typed on the status line (":", "save as: "); NULL when none is. */
static const char *line_lead(const struct app *a)
{
	const struct view_ops *top = app_view(a);
	return top->line ? top->line(a) : NULL;
}

/* The columns a line typed after lead is scrolled by: a line longer than the screen
 * scrolls so the cursor stays in view, as the field editor does. */
static int line_offset(const struct app *a, const char *lead, int width)
{
	int avail = width - text_width(lead) - 1, cc = line_edit_cursor_col(&a->line);
	return avail > 0 && cc >= avail ? cc - avail + 1 : 0;
}

WINDOW *draw_line_cursor(const struct app *a, int *y, int *x)
{
	const char *lead = line_lead(a);
	int width = getmaxx(a->w_status);

	if (!lead)
		return NULL;
	*y = 0;
	*x = text_width(lead) + line_edit_cursor_col(&a->line) - line_offset(a, lead, width);
	if (*x >= width)
		*x = width - 1;
	return a->w_status;
}

static void draw_status(struct app *a)
{
	WINDOW *w = a->w_status;
	int width = getmaxx(w);
	const char *lead = line_lead(a);

	werase(w);
	if (lead) {
		int lw = text_width(lead), avail = width - lw - 1,
		    off = line_offset(a, lead, width);
		draw_text(a, w, 0, 0, width, ROLE_NORMAL, lead);
		draw_text(a, w, 0, lw, avail, ROLE_NORMAL, skip_cols(a->line.buf, off));
		if ((app_view(a)->flags & VIEW_LINE_HINTS) && a->status[0] && !off) {
			/* Tab's candidates, after what is typed: as many as fit, the one on
			 * the line shown selected, and how many more there are */
			int x = lw + text_width(a->line.buf) + 3, at, len;
			char hint[sizeof(a->status)];
			if (x < width - 4 &&
			    complete_hint(a, width - x, hint, sizeof(hint), &at, &len)) {
				draw_text(a, w, 0, x, width - x, ROLE_DIM, hint);
				if (len) {
					char sel[sizeof(hint)], before[sizeof(hint)];
					int col;
					snprintf(before, sizeof(before), "%.*s", at, hint);
					snprintf(sel, sizeof(sel), "%.*s", len, hint + at);
					col = x + text_width(before);
					draw_text(a, w, 0, col, width - col, ROLE_SELECTED, sel);
				}
			} else if (x < width - 4) {
				draw_text(a, w, 0, x, width - x,
					  a->status_error ? ROLE_ERROR : ROLE_DIM, a->status);
			}
		}
	} else {
		const char *rest, *text;
		char buf[1024], first[1024];
		int role = ROLE_NORMAL;
		if ((text = status_shown(a, buf, sizeof(buf), &role)) != NULL &&
		    status_one_line(a)) {
			draw_status_one_line(a, w, width, role, text);
		} else if (text) {
			int n = status_split(text, width, &rest);
			snprintf(first, sizeof(first), "%.*s", n, text);
			draw_text(a, w, 0, 0, width, role, first);
		}
	}
	wnoutrefresh(w);
}

/* Whether a question answered by a key (quit with unsaved edits, overwrite, recover) is
 * asked: the too-small screen shows it and lets its keys through. */
bool draw_question_asked(const struct app *a)
{
	return a->mode == MODE_PROMPT && !line_lead(a) && a->status[0];
}

static void draw_too_small(struct app *a)
{
	int cols = a->lay.cols, rows = a->lay.rows, y = 2;

	werase(stdscr);
	mvwprintw(stdscr, 0, 0, "terminal too small");
	mvwprintw(stdscr, 1, 0, "need %dx%d, have %dx%d", LAYOUT_MIN_COLS, LAYOUT_MIN_ROWS,
		  a->lay.cols, a->lay.rows);
	if (draw_question_asked(a)) {
		/* the question, broken at spaces over the lines there are: its keys work here */
		const char *q = a->status, *rest;
		while (*q && y < rows) {
			int n = status_split(q, cols, &rest);
			char line[sizeof(a->status)];
			snprintf(line, sizeof(line), "%.*s", n, q);
			draw_text(a, stdscr, y++, 0, cols,
				  a->status_error ? ROLE_ERROR : ROLE_NORMAL, line);
			q = rest ? rest : "";
		}
	} else {
		/* the one key that works here (edits in progress are kept for a larger
		 * terminal) */
		mvwprintw(stdscr, 2, 0, "%s", a->mode == MODE_NORMAL ? "q quits" : "^C quits");
	}
	wnoutrefresh(stdscr);
	if (a->cursor_shown != 0) {
		curs_set(0);
		a->cursor_shown = 0;
	}
	doupdate();
}

static WINDOW *popup(struct app *a, int h, int w, int y, int x)
{
	if (a->w_popup)
		delwin(a->w_popup);
	a->w_popup = newwin(h, w, y, x);
	return a->w_popup;
}

void draw_bar(struct app *a, WINDOW *w, int y, int x, int width, double frac, int role)
{
	const struct glyphs *g = a->theme.g;
	int full, eighths;

	bars_fill(frac, width, &full, &eighths);
	wattrset(w, a->theme.attr[role]);
	for (int c = 0; c < full; c++)
		mvwaddstr(w, y, x + c, g->bar_full);
	if (eighths && full < width && g->bar_eighth[eighths][0])
		mvwaddstr(w, y, x + full, g->bar_eighth[eighths]);
	wattrset(w, A_NORMAL);
}

void draw_frame(struct app *a, WINDOW *w, const char *title)
{
	int width = getmaxx(w);

	werase(w);
	wattrset(w, a->theme.attr[ROLE_POPUP]);
	/* box() would use the alternate character set, which is not ASCII: draw the ASCII
	 * twin explicitly when the glyphs must be ASCII */
	if (a->theme.utf8)
		box(w, 0, 0);
	else
		wborder(w, '|', '|', '-', '-', '+', '+', '+', '+');
	wattrset(w, A_NORMAL);
	if (title)
		draw_textf(a, w, 0, 2, width - 4, ROLE_HEADER_FOCUS, " %s ", title);
}

void app_draw(struct app *a)
{
	const struct view_ops *top = app_view(a), *body_view = app_body_view(a);
	struct rect body;
	WINDOW *cursor = NULL;
	int cy = 0, cx = 0;

	a->dirty &= ~DIRTY_DRAW;
	if (!a->screen)
		return;
	if (a->lay.too_small) {
		draw_too_small(a);
		return;
	}
	draw_title(a);
	for (int p = 0; p < PANE_COUNT; p++) {
		const struct view_ops *v = app_pane(a, p);
		v->draw(a, v, a->w_pane[p]);
	}
	draw_status(a);
	draw_legend(a);

	body.y = 1;
	body.x = 0;
	body.h = a->lay.rows - 3;
	body.w = a->lay.cols;
	/* the search and scaling views cover the body; help, the picker and the explanation
	 * have a window of their own over it */
	if (body_view)
		body_view->draw(a, body_view, a->w_view);
	if (top->place) {
		struct rect r;
		top->place(a, body, &r);
		top->draw(a, top, popup(a, r.h, r.w, r.y, r.x));
	} else if (a->w_popup) {
		delwin(a->w_popup);
		a->w_popup = NULL;
	}
	/* neomutt's recursor: the view on top says where the cursor goes */
	if (top->cursor)
		cursor = top->cursor(a, &cy, &cx);
	if (cursor) {
		wmove(cursor, cy, cx);
		wnoutrefresh(cursor);
	}
	if (a->cursor_shown != (cursor != NULL)) {
		a->cursor_shown = cursor != NULL;
		curs_set(a->cursor_shown);
	}
	doupdate();
}
