/* view.h - the views over the panes (search, scaling), the windows over them (help,
 * explanation, picker) and the drawing helpers they share. */
#ifndef GPUPLAN_UI_VIEW_H
#define GPUPLAN_UI_VIEW_H

#include "app.h"

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
/* Reruns the open view's search when the scenario changed (from app_compute, so the live
 * loop runs it once after draining the keys already typed); nothing when none is open. */
void search_view_compute(struct app *a);
int search_view_capacity(const struct app *a); /* result rows the view shows */
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
void search_view_draw(struct app *a, WINDOW *w);
void scaling_view_draw(struct app *a, WINDOW *w);
/* Goal seek on field key (search_solve): on success sets it as one undoable edit and says
 * what it found on the status line; returns 0, or -1 with the failure there. */
int app_goal_seek(struct app *a, const char *key, bool maximize);

/* Drawing (draw.c, pane.c, pane_results.c, help.c, picker.c). */
void app_screen_start(struct app *a);  /* after initscr: theme, windows */
void app_screen_layout(struct app *a); /* (re)builds the windows for the terminal's size */
void app_screen_stop(struct app *a);   /* deletes the windows (not endwin) */
void app_draw(struct app *a);	       /* every window, wnoutrefresh, one doupdate */
void pane_inputs_draw(struct app *a, int pane, WINDOW *w);
/* "KEY = VALUE" for the status line when field f's value is wider than its pane shows it;
 * NULL when it fits. */
const char *pane_value_cut(const struct app *a, const struct field *f, char *buf, size_t size);
void pane_results_draw(struct app *a, WINDOW *w);
void pane_results_items(struct app *a);
/* A bottleneck's share in at most five columns: "  7%", "767%", " 145x". */
void pane_results_share_format(double share, char *buf, size_t size);
/* The text of a result for the explanation window; "" when key is unknown. */
void pane_results_value(const struct app *a, const char *key, char *buf, size_t size);
/* The whole verdict a Results key stands for ("capacity: fits: ..."), or for "warnings" the
 * warnings in full, for the status line when the pane clips them; NULL for other keys. */
const char *pane_results_verdict(const struct app *a, const char *key, char *buf, size_t size);
/* "KEY = VALUE" for a Results item that the pane had no line for in the last frame (a short
 * terminal), for the status line while it is selected; NULL when it was drawn. */
const char *pane_results_hidden(const struct app *a, const char *key, char *buf, size_t size);
void help_draw(struct app *a, WINDOW *w);
int help_lines(void);
const char *help_line(int i); /* NULL past the end */
/* Lines the help takes wrapped at width columns (help_lines() from 76 up). */
int help_display_lines(int width);
void picker_open(struct app *a, enum picker_kind kind);
void picker_filter(struct app *a);
void picker_draw(struct app *a, WINDOW *w);
int picker_visible(const struct app *a); /* rows the picker's list shows: a page */
void explain_open(struct app *a, const char *key);
void explain_draw(struct app *a, WINDOW *w);
int explain_lines(struct app *a, int width); /* lines the text takes, wrapped at width */

/* Helpers the panes share (draw.c). */
void draw_text(struct app *a, WINDOW *w, int y, int x, int width, int role, const char *s);
/* draw_text, but a text that does not fit ends in an ellipsis, so a cut value says so. */
void draw_text_clip(struct app *a, WINDOW *w, int y, int x, int width, int role, const char *s);
int draw_textf(struct app *a, WINDOW *w, int y, int x, int width, int role, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));
void draw_header(struct app *a, WINDOW *w, int pane, const char *title, const char *right);
/* Erases a popup window and draws its border with title in it. */
void draw_frame(struct app *a, WINDOW *w, const char *title);
/* Display columns of a UTF-8 string (one per character; the glyphs used are all narrow). */
int text_width(const char *s);

#endif
