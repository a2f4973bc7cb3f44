/* view.h - the views over the panes (search, scaling), the windows over them (help,
 * explanation, picker) and the drawing helpers they share. */
#ifndef GPUPLAN_UI_VIEW_H
#define GPUPLAN_UI_VIEW_H

#include "app.h"

struct chart;

/* One pane or view, as the main loop, app.c and draw.c see it: tig's view_ops (one
 * instance per view), neomutt's windows (recalc, repaint, recursor). Each pane module
 * defines one (pane_model, ..., pane_results) and each view's module one (search_view_ops,
 * scaling_view_ops, help_view, explain_view, picker_view, and the lines being typed:
 * edit_view, command_view, prompt_view); view.c finds the ones the state selects. A
 * callback a kind does not need is NULL. */
struct view_ops {
	const char *name;
	int pane;	   /* a pane's enum pane_id; -1 for a view */
	const char *title; /* a pane's header */
	enum key_ctx ctx;  /* where its keys act (keys.h), for the legend and the table */
	unsigned flags;	   /* VIEW_* */
	/* the context when it depends on the state (the prompts); NULL: ctx */
	enum key_ctx (*key_ctx)(const struct app *a);
	/* a key while it is on top; returns the dirty bits */
	unsigned (*key)(struct app *a, int key);
	/* brings what it shows up to date with the state: a pane after each recompute of the
	 * plan, a view over the body at each app_compute (it reruns a stale search) */
	void (*recalc)(struct app *a, const struct view_ops *v);
	/* draws it: a pane into its window, a view over the body into the body's, a window
	 * of its own (place) into that */
	void (*draw)(struct app *a, const struct view_ops *v, WINDOW *w);
	/* a window of its own over the body (a popup): where it goes */
	void (*place)(struct app *a, struct rect body, struct rect *r);
	/* where the cursor shows, after drawing: its window and *y, *x; NULL hides it */
	WINDOW *(*cursor)(const struct app *a, int *y, int *x);
	/* a line typed on the status line: what leads it (":", "save as: "); NULL: none */
	const char *(*line)(const struct app *a);
	/* the panes: move the selection by delta rows, or by dir pages */
	unsigned (*move_by)(struct app *a, int delta);
	unsigned (*page_by)(struct app *a, int dir);
	/* the panes: the selected field (NULL: none, or a pane without fields) */
	const struct field *(*field)(const struct app *a);
	/* the panes: the key that e (and Enter where there is no field) explains; NULL: none */
	const char *(*selected_key)(const struct app *a);
	/* the panes: what the status line says of the selection, with *role; NULL: nothing */
	const char *(*status)(const struct app *a, char *buf, size_t size, int *role);
	/* the input panes: their rows, and their info lines drawn at (y, x) */
	void (*rows)(const struct app *a, struct pane_rows *out);
	void (*info)(const struct app *a, WINDOW *w, int y, int x, int width, int info);
};

/* The members every view that is no pane sets: its name, no pane, where its keys act; as
 * {.key, .draw, ..., VIEW_OPS("help", KC_VIEW)} (pane.h's PANE_INPUT_OPS for the panes). */
#define VIEW_OPS(vname, vctx) .name = (vname), .pane = -1, .ctx = (vctx)

#define VIEW_HIDES_SELECTION 1u /* the panes draw no selection under it (the picker) */
#define VIEW_STATUS_ONE_LINE 2u /* the status line keeps to its line: the legend stays */
#define VIEW_STATUS_FIELD                                                                          \
	4u		   /* the status begins "KEY: " of the field typed: dropped                \
			      when it does not fit */
#define VIEW_LINE_HINTS 8u /* the status message shows after the line typed (Tab's) */

/* The instances (view.c finds them; nothing else names them). */
extern const struct view_ops pane_model, pane_workload, pane_hardware, pane_results;
extern const struct view_ops search_view_ops, scaling_view_ops, help_view, explain_view,
    picker_view, edit_view, command_view, prompt_view, notes_view, chart_view_ops;

/* The pane p (enum pane_id). */
const struct view_ops *app_pane(const struct app *a, int p);
/* The view over the body (search, scaling); NULL when none is open. */
const struct view_ops *app_body_view(const struct app *a);
/* The view on top, which keys go to: the mode's, else the view over the body, else the
 * focused pane. */
const struct view_ops *app_view(const struct app *a);
/* Whether the panes draw their selection now (not under the picker). */
bool app_selection_shown(const struct app *a);

/* The key handlers the instances share (app.c): a pane's rows, then the main view's; a view
 * over the body's rows, then the main rows that work over it. Each returns the dirty bits. */
unsigned app_pane_key(struct app *a, int key);
unsigned app_body_view_key(struct app *a, int key);
/* A key in the help, an explanation or the notes: the KC_VIEW row bound to it (scroll,
 * close), and any other key closes the window. Returns the dirty bits. */
unsigned view_key(struct app *a, int key);
unsigned view_key_scroll_down(struct app *a, int key); /* a line; Space, PgDn a page */
unsigned view_key_scroll_up(struct app *a, int key);   /* a line; PgUp a page */
unsigned view_key_close(struct app *a, int key);
/* A framed text popup in body: max_w columns at most, as tall as text_lines(a, w - 4) lines of
 * text at its width plus the frame, no taller than the body, centred (explain, notes). */
void view_place_text(struct app *a, struct rect body, int max_w,
		     int (*text_lines)(struct app *a, int width), struct rect *r);

/* The search and scaling views (search_view.c). */
void search_view_open(struct app *a, enum view v); /* opens v (VIEW_NONE closes) */
/* The views' key handlers (keys.c's table: KC_SEARCH, KC_SCALING); each returns the dirty
 * bits. _search and _scaling open their view, or close it when it is the one open. */
unsigned search_view_key_search(struct app *a, int key);
unsigned search_view_key_scaling(struct app *a, int key);
unsigned search_view_key_close(struct app *a, int key);
unsigned search_view_key_up(struct app *a, int key);
unsigned search_view_key_down(struct app *a, int key);
unsigned search_view_key_page_up(struct app *a, int key);
unsigned search_view_key_page_down(struct app *a, int key);
unsigned search_view_key_top(struct app *a, int key);
unsigned search_view_key_bottom(struct app *a, int key);
unsigned search_view_key_apply(struct app *a, int key); /* the selected layout */
unsigned search_view_key_by_cost(struct app *a, int key);
unsigned search_view_key_by_time(struct app *a, int key);
unsigned search_view_key_hardware(struct app *a, int key); /* toggles the catalog search */
int search_view_capacity(const struct app *a);		   /* result rows the view shows */
/* The column heading and one result row of the search view, at most width columns (the
 * columns that do not fit are left out, least needed first). */
void search_view_heading(const struct app *a, int width, char *buf, size_t size);
void search_view_row(const struct app *a, const struct search_result *r, int rank, int width,
		     char *buf, size_t size);
/* One row of the scaling table (the bar is drawn apart); i indexes a->sv.scaling. The
 * efficiency is tokens/s per GPU against the smallest count that fits, 0 when none. */
double scaling_efficiency(const struct app *a, int i);
void scaling_view_heading(const struct app *a, char *buf, size_t size);
void scaling_view_row(const struct app *a, int i, char *buf, size_t size);
void search_view_draw(struct app *a, const struct view_ops *v, WINDOW *w);
void scaling_view_draw(struct app *a, const struct view_ops *v, WINDOW *w);
/* Goal seek on field key (search_solve): on success sets it as one undoable edit and says
 * what it found on the status line, else says the failure there. Returns the dirty bits. */
unsigned app_goal_seek(struct app *a, const char *key, bool maximize);
/* A GPU count goal seek found, in whole nodes when it is past one node: the least (most,
 * maximize) multiple of the node size (and of tp x pp x ep) from count up (down) at which s
 * still works; count itself when it is within one node, already whole, or no whole-node
 * count works. */
double goal_seek_node_count(const struct scenario *s, double count, bool maximize);

/* The chart view (chart_view.c). The values of field f charted around its value v, at
 * most max into x: a fraction over its whole range in tenths, a small count six either side,
 * else v halved and doubled four times each (*geometric: a logarithmic axis); within the
 * field's range. Returns how many (0: f is no number, or v is 0 where it must double). */
int chart_view_range(const struct field *f, double v, double *x, int max, bool *geometric);
/* The chart of a->cv for chart.c: xlabel (size bytes) holds the axis' name. */
void chart_view_build(const struct app *a, struct chart *c, char *xlabel, size_t size);
/* chart_text of it into a->cv.text, width columns and at most rows lines, unless it is
 * already drawn at that size; no text when there is no room. */
void chart_view_render(struct app *a, int width, int rows, bool ascii);
/* Opens the view on field f (NULL: the last charted, else hardware.count) against figure
 * fig (NULL: the last, else memory per GPU); says why on the status line when f is no
 * number or has no range. Returns the dirty bits. */
unsigned chart_view_open_on(struct app *a, const struct field *f, const struct figure *fig);
/* :chart [FIELD] [FIGURE], either order; each missing one as c takes it. */
unsigned chart_view_command(struct app *a, const char *arg);
unsigned chart_view_key_next_figure(struct app *a, int key); /* f */
unsigned chart_view_key_prev_figure(struct app *a, int key); /* F */
unsigned chart_view_key_close(struct app *a, int key);
/* c on the scaling view: its best layouts charted, the figure against hardware.count. */
unsigned chart_view_key_scaling(struct app *a, int key);

/* Drawing (draw.c, pane.c, pane_results.c, help.c, picker.c). */
void app_screen_start(struct app *a);  /* after initscr: theme, windows */
void app_screen_layout(struct app *a); /* (re)builds the windows for the terminal's size */
void app_screen_stop(struct app *a);   /* deletes the windows (not endwin) */
void app_draw(struct app *a);	       /* every window, wnoutrefresh, one doupdate */
void help_draw(struct app *a, const struct view_ops *v, WINDOW *w);
int help_lines(void);
const char *help_line(int i); /* NULL past the end */
/* Lines the help takes wrapped at width columns (help_lines() from 76 up). */
int help_display_lines(int width);
/* The picker of f, a field of a catalog (the field table's catalog kind). */
void picker_open(struct app *a, const struct field *f);
void picker_filter(struct app *a);
void picker_draw(struct app *a, const struct view_ops *v, WINDOW *w);
int picker_visible(const struct app *a); /* rows the picker's list shows: a page */
void explain_open(struct app *a, const char *key);
void explain_draw(struct app *a, const struct view_ops *v, WINDOW *w);
int explain_lines(struct app *a, int width); /* lines the text takes, wrapped at width */
int notes_lines(struct app *a, int width);   /* lines the notes take, wrapped at width */

/* Helpers the panes share (draw.c). */
/* The cursor on the status line where a line is typed (the : line, save as). */
WINDOW *draw_line_cursor(const struct app *a, int *y, int *x);
/* Whether a question answered by one key is asked (quit with unsaved edits, overwrite,
 * recover): the too-small screen shows it, and its keys work there. */
bool draw_question_asked(const struct app *a);
void draw_text(struct app *a, WINDOW *w, int y, int x, int width, int role, const char *s);
/* draw_text, but a text that does not fit ends in an ellipsis, so a cut value says so. */
void draw_text_clip(struct app *a, WINDOW *w, int y, int x, int width, int role, const char *s);
int draw_textf(struct app *a, WINDOW *w, int y, int x, int width, int role, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));
void draw_header(struct app *a, WINDOW *w, int pane, const char *title, const char *right);
/* Erases a popup window and draws its border with title in it. */
void draw_frame(struct app *a, WINDOW *w, const char *title);
/* A bar of frac (0..1, bars_fill's eighths) over width cells from (y, x), in role. */
void draw_bar(struct app *a, WINDOW *w, int y, int x, int width, double frac, int role);
/* Display columns of a UTF-8 string (one per character; the glyphs used are all narrow). */
int text_width(const char *s);

#endif
