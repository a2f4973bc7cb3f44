/* app.h - the terminal UI's state and the functions that act on it.
 *
 * The live loop (STYLE.md): a key is mapped to an action (keys.c); the handler changes the
 * state and sets dirty bits; app_compute() recomputes the plan when DIRTY_CALC is set and
 * app_draw() redraws when DIRTY_DRAW is set: each pane draws from read-only state into its
 * window, wnoutrefresh, then one doupdate. tui.c owns the one struct app and the signal
 * flags; nothing here but drawing touches curses, so the state is tested without a
 * terminal.
 */
#ifndef GPUPLAN_UI_APP_H
#define GPUPLAN_UI_APP_H

#include <stdbool.h>

#include "catalog.h"
#include "field_edit.h"
#include "keys.h"
#include "layout.h"
#include "plan.h"
#include "scenario.h"
#include "search.h"
#include "theme.h"

#define DIRTY_CALC   1u /* the scenario changed: recompute the plan */
#define DIRTY_DRAW   2u /* something shown changed: redraw */
#define DIRTY_LAYOUT 4u /* the terminal's size changed: rebuild the windows */

#define UNDO_MAX 64

enum mode {
	MODE_NORMAL,
	MODE_EDIT,    /* typing a field's value */
	MODE_PICK,    /* the preset picker */
	MODE_COMMAND, /* the : line */
	MODE_PROMPT,  /* a question on the status line */
	MODE_HELP,
	MODE_EXPLAIN,
};

enum prompt_kind {
	PROMPT_NONE,
	PROMPT_SAVE_AS,	  /* a file name, then save */
	PROMPT_QUIT,	  /* unsaved edits: quit anyway? */
	PROMPT_RECOVER,	  /* a recovery file was found: restore it? */
	PROMPT_OVERWRITE, /* saving would replace another file, or drop the file's comments */
};

enum picker_kind { PICK_MODEL, PICK_GPU };

#define PICK_MAX (CATALOG_MAX_MODELS > CATALOG_MAX_GPUS ? CATALOG_MAX_MODELS : CATALOG_MAX_GPUS)

struct picker {
	enum picker_kind kind;
	struct line_edit filter;
	int idx[PICK_MAX]; /* catalog indices that match the filter */
	int n;
	int sel, top;
};

/* One row of an input pane: a field, or a line of figures that is not a field. */
enum row_kind { ROW_FIELD, ROW_INFO, ROW_HEADING };

struct pane_row {
	enum row_kind kind;
	const struct field *f; /* ROW_FIELD */
	const char *label;
	int info; /* ROW_INFO: which line (pane-specific) */
};

#define PANE_MAX_ROWS 64

struct pane_rows {
	int n;
	struct pane_row r[PANE_MAX_ROWS];
};

/* A view over the body that follows the scenario (search_view.c): the best layouts, or the
 * scaling table. While one is open the mode stays MODE_NORMAL; the view takes the keys it
 * knows and lets undo, redo, :, help and quit through. */
enum view { VIEW_NONE, VIEW_SEARCH, VIEW_SCALING };

#define SEARCH_VIEW_MAX 60 /* most rows the search view holds (a tall terminal) */
#define SCALING_MAX	12 /* GPU counts in the scaling table */

struct search_view {
	enum search_by by;
	bool hardware;				   /* also over the catalog's GPUs and counts */
	int n, sel;				   /* results, the selected one */
	struct search_result res[SEARCH_VIEW_MAX]; /* best first */
	struct search_stats stats;
	double run_s; /* wall time of the last run */
	bool stale;   /* the scenario changed since the run */
	int ncounts;
	int counts[SCALING_MAX];
	struct search_result scaling[SCALING_MAX]; /* .count == 0: nothing fits there */
	bool scaling_stale;
	unsigned long runs; /* search_run / search_scaling passes, for tests */
};

/* The figures Results can explain, in the order the selection moves through them. */
#define RESULT_MAX_ITEMS 32

struct app {
	const struct catalog *cat;
	unsigned flags;		   /* CLI_UI_* */
	struct scenario scn;	   /* what is shown; tentative while a field is typed */
	struct scenario saved;	   /* as last read or written: unsaved edits differ */
	struct scenario edit_base; /* before the edit or pick in progress */
	struct plan plan;
	struct gp_problems problems; /* scenario_validate's findings, shown beside fields */
	bool has_baseline;
	struct scenario base_scn;
	struct plan base_plan;
	struct scenario undo[UNDO_MAX]; /* a ring: the newest at (undo_head - 1) */
	int undo_head, nundo;
	struct scenario redo[UNDO_MAX]; /* a stack */
	int nredo;
	char path[512]; /* "" for the built-in scenario */
	bool new_file;	/* path did not exist at the start: the built-in scenario, for :w */

	unsigned dirty;
	enum mode mode;
	enum prompt_kind prompt;
	int focus;			       /* enum pane_id */
	int sel[PANE_COUNT];		       /* selected row (Results: item) of each pane */
	int top[PANE_COUNT];		       /* first row shown */
	struct pane_rows rows[PANE_COUNT - 1]; /* the input panes' rows, rebuilt on change */
	struct line_edit line;		       /* the field, command or prompt being typed */
	char history[16][LINE_EDIT_MAX];       /* : commands run, oldest first */
	int nhistory, history_pos;
	const struct field *edit_field;
	bool edit_error;
	struct picker pick;
	char status[400];
	bool status_error;
	int help_top;
	char explain_key[64];
	char explain_text[8192];
	int explain_top; /* first line shown */
	int nresult_items;
	unsigned result_hidden; /* bit i: result_keys[i] has no line at this size (drawing) */
	const char *result_keys[RESULT_MAX_ITEMS];

	bool quit;
	bool quit_after_save;	/* :wq asked for a file name: quit once it is written */
	char pending_save[512]; /* PROMPT_OVERWRITE: the file to write on y */
	int exit_status;
	char recover_path[1024];
	unsigned long computes; /* plan_compute calls, for tests and the bench */
	enum view view;
	struct search_view sv;

	/* the screen */
	bool screen; /* curses is up */
	struct layout lay;
	struct theme theme;
	WINDOW *w_title, *w_status, *w_legend, *w_pane[PANE_COUNT], *w_popup, *w_view;
	WINDOW *cur_win; /* where the cursor goes, NULL for hidden */
	int cur_y, cur_x;
	int cursor_shown; /* -1 unknown, 0, 1 */
};

/* Sets up a (stopped) app on s; path is NULL or "" for the built-in scenario. A path that
 * does not exist is a new file (s the built-in scenario): new_file is set, and saving
 * creates it. */
void app_init(struct app *a, const struct catalog *cat, const struct scenario *s, const char *path,
	      unsigned flags);

/* Handles one key (keys.h encoding), in whatever mode the app is in. */
void app_handle_key(struct app *a, int key);

/* Recomputes the plan when DIRTY_CALC is set and rebuilds the pane rows. */
void app_compute(struct app *a);

/* The field selected in the focused pane; NULL on Results or a line that is not a field. */
const struct field *app_selected_field(const struct app *a);

/* The first validation problem of field f; NULL when it has none. */
const struct gp_error *app_field_problem(const struct app *a, const struct field *f);

/* Whether the scenario differs from the one last read or written. */
bool app_unsaved(const struct app *a);

/* The scenario changed from before to a->scn: one undoable edit; recompute. */
void app_commit(struct app *a, const struct scenario *before);

/* Sets the status line; error draws it as an error. */
void app_status(struct app *a, bool error, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Tab on the : line: completes a field key after "set " (to "set KEY=" when one matches,
 * else to the longest common prefix, listing the candidates on the status line), or after
 * "set KEY=" one of its values (choices, true/false, catalog ids); after "solve max " or
 * "solve min " a numeric field's key. */
void app_complete(struct app *a);

/* Runs a command line ("set k=v", "w", "e FILE", "q", "q!", "help"). */
void app_command(struct app *a, const char *cmd);

/* A file name as typed: a leading ~/ is $HOME/, as a shell would have it. */
void app_expand_path(const char *in, char *out, size_t size);

/* Saves to path (or the current path when NULL; ~/ expanded); 0 or -1 with the status line
 * set. Asks first (PROMPT_OVERWRITE) before replacing a file other than the scenario's own,
 * or the scenario's own file when it holds comments, which the canonical form drops;
 * app_save_force does not ask. */
int app_save_force(struct app *a, const char *path);
int app_save(struct app *a, const char *path);

/* The recovery file for a scenario path (or the built-in one when path is ""). */
void app_recover_path(const char *path, char *buf, size_t size);

/* When the recovery file of the scenario's path exists, asks (on the status line) whether
 * to restore it; y restores, n removes it, Esc keeps it. Returns whether it asked. */
bool app_offer_recovery(struct app *a);

/* Writes unsaved edits to the recovery file; 0 or -1. Not for signal handlers. */
int app_write_recovery(struct app *a);

/* The resolved value of an auto field (dp, global_batch, batch, efficiencies), for +/-. */
double app_auto_value(const struct app *a, const struct field *f);

/* batch auto with an SLO: the batch decode runs at (the largest meeting the SLO) when it is
 * below the auto value (the most that fit, which the KV cache is sized for); else 0. */
double app_slo_batch(const struct app *a, const struct field *f);

/* Rows of the input panes (pane_model.c, pane_workload.c, pane_hardware.c). */
void pane_model_rows(const struct app *a, struct pane_rows *out);
void pane_workload_rows(const struct app *a, struct pane_rows *out);
void pane_hardware_rows(const struct app *a, struct pane_rows *out);

/* Building the rows (pane.c): a field row when key applies to the workload; another row. */
void pane_rows_add(const struct app *a, struct pane_rows *out, const char *key, const char *label);
void pane_rows_other(struct pane_rows *out, enum row_kind kind, const char *label, int info);

/* Draws the info line `info` of a pane at (y, x) within width w (pane_*.c). */
void pane_model_info(const struct app *a, WINDOW *w, int y, int x, int width, int info);
void pane_hardware_info(const struct app *a, WINDOW *w, int y, int x, int width, int info);

/* "80 GB  3.35 TB/s  989 TF  $2.50/h" (pane_hardware.c). */
void pane_hardware_gpu_summary(const struct gpu *g, char *buf, size_t size);

/* The search and scaling views (search_view.c). */
void search_view_open(struct app *a, enum view v); /* opens v (VIEW_NONE closes) */
/* A key while a view is open; returns whether the view took it. */
bool search_view_key(struct app *a, int key);
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
