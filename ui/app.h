/* app.h - the terminal UI's state and the functions that act on it.
 *
 * The live loop (CONTRIBUTING.md, as neomutt's recalc/repaint): a key is mapped to an action
 * (keys.c); the handler changes the state and sets dirty bits; app_compute() recomputes the plan
 * when DIRTY_CALC is set and app_draw() redraws when DIRTY_DRAW is set: each pane draws from
 * read-only state into its window, wnoutrefresh, then one doupdate. tui.c owns the one struct app
 * and the signal flags; nothing here but drawing touches curses, so the state is tested without a
 * terminal.
 */
#ifndef GPUPLAN_UI_APP_H
#define GPUPLAN_UI_APP_H

#include <stdbool.h>

#include "catalog.h"
#include "field_edit.h"
#include "keys.h"
#include "layout.h"
#include "pane.h"
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
	MODE_NOTES, /* the scenario's notes (notes_view.c) */
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
	enum picker_kind kind;	   /* the field's catalog: its models or its GPUs */
	const struct field *field; /* the field picked (model.preset, hardware.gpu) */
	struct line_edit filter;
	int idx[PICK_MAX]; /* catalog indices that match the filter */
	int n;
	int sel, top;
};

/* Tab's candidates on the : line and at the save-as prompt (complete.c): another Tab on the
 * line Tab left cycles through them, Shift-Tab back. */
#define COMPLETE_MAX 256
struct completion {
	char line[LINE_EDIT_MAX]; /* the line as the last Tab left it ("" none) */
	char lead[LINE_EDIT_MAX]; /* the text before the candidate */
	char stem[LINE_EDIT_MAX]; /* what the first Tab completed to: their common prefix */
	int n, total;		  /* candidates held (sorted), found */
	int sel;		  /* the one on the line; -1 the stem */
	const char *cand[COMPLETE_MAX];
	char pool[8192]; /* file names (field keys and catalog ids are the tables') */
};

/* A view over the body that follows the scenario (search_view.c): the best layouts, or the
 * scaling table. While one is open the mode stays MODE_NORMAL; the view takes the keys it
 * knows and lets undo, redo, :, help and quit through. */
enum view { VIEW_NONE, VIEW_SEARCH, VIEW_SCALING, VIEW_CHART };

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
	int asked;	    /* the rows the last search_run was asked for */
};

/* The chart view (chart_view.c): a figure against an input over a range around its value,
 * planned once a change of the scenario, its text drawn again only when the plans or the
 * window's size change. */
struct figure;
#define CHART_VIEW_MAX 16 /* values of the input charted */
struct chart_view {
	const struct field *field; /* the input along x */
	const struct figure *fig;  /* the figure along y */
	/* the scaling view's case (c on it): hardware.count from 8 to 1,024, each count planned
	 * with the best layout a search finds there (search_scaling, as the scaling view),
	 * not with the scenario's layout */
	bool best_layout;
	int n;			  /* values */
	bool geometric;		  /* doubling steps: a logarithmic axis */
	double x[CHART_VIEW_MAX]; /* the input's values */
	double y[CHART_VIEW_MAX]; /* the figure at each; NaN where the scenario does not check */
	double capacity[CHART_VIEW_MAX], ttft[CHART_VIEW_MAX], tpot[CHART_VIEW_MAX]; /* the lines */
	int invalid;	    /* values at which the scenario does not check */
	bool stale;	    /* the scenario or the figure changed since the plans */
	unsigned long runs; /* passes of plans, for tests */
	int text_w, text_h; /* the size text was drawn for; -1 none */
	int text_lines;
	char text[40000]; /* chart_text's lines */
};

/* The figures Results can explain, in the order the selection moves through them. */
#define RESULT_MAX_ITEMS 32

/* Lesson mode (lesson.c): the edits of a lesson left by :next or :prev, kept until :reset. */
#define LESSON_MAX 32
struct lesson_edit {
	char path[GP_PATH_MAX];
	struct scenario scn;
};

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
	char base_path[GP_PATH_MAX];	/* the file the baseline was pinned on (a->path then) */
	struct scenario undo[UNDO_MAX]; /* a ring: the newest at (undo_head - 1) */
	int undo_head, nundo;
	struct scenario redo[UNDO_MAX]; /* a stack */
	int nredo;
	/* paths up to PATH_MAX (error.h's GP_PATH_MAX) whole; a longer one is refused whole */
	char path[GP_PATH_MAX]; /* "" for the built-in scenario */
	bool new_file;		/* path did not exist at the start: the built-in scenario, for :w */

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
	struct completion comp;
	const struct field *edit_field;
	bool edit_error;
	struct picker pick;
	struct scenario_source pick_keys;  /* the fields the pick keeps (app_file_keys) */
	struct scenario_source cycle_keys; /* the same for Left/Right on a preset */
	char status[GP_PATH_MAX + 400];	   /* room for a message naming a whole path */
	bool status_error;
	int help_top;
	char explain_key[64];
	char explain_text[8192];
	int explain_top; /* first line shown */
	int notes_top;	 /* the notes view's first line shown */
	int nresult_items;
	const char *result_keys[RESULT_MAX_ITEMS];

	bool quit;
	bool quit_after_save;		/* :wq asked for a file name: quit once it is written */
	char pending_save[GP_PATH_MAX]; /* PROMPT_OVERWRITE: the file to write on y */
	int exit_status;
	char recover_path[GP_PATH_MAX]; /* the recovery file offered or written */
	char recover_own[GP_PATH_MAX];	/* the one restored: kept until saved or discarded */
	long long recover_ns;		/* recover_path's mtime: the next asked is older */
	bool disk_known;		/* path's file as read or written (app_note_disk) */
	unsigned long long disk_dev, disk_ino;
	long long disk_size, disk_mtime_ns;
	unsigned long computes; /* plan_compute calls, for tests and the bench */
	enum view view;
	struct search_view sv;
	struct chart_view cv;
	struct lesson_edit lessons[LESSON_MAX];
	int nlessons;

	/* the screen */
	bool screen; /* curses is up */
	struct layout lay;
	struct theme theme;
	WINDOW *w_title, *w_status, *w_legend, *w_pane[PANE_COUNT], *w_popup, *w_view;
	int cursor_shown; /* -1 unknown, 0, 1 */
};

/* Sets up a (stopped) app on s; path is NULL or "" for the built-in scenario. A path that
 * does not exist is a new file (s the built-in scenario): new_file is set, and saving
 * creates it. */
void app_init(struct app *a, const struct catalog *cat, const struct scenario *s, const char *path,
	      unsigned flags);

/* Where keys act now: the mode, the open view or the focused pane (keys.h). */
enum key_ctx app_key_ctx(const struct app *a);

/* The main view's key handlers (keys.c's table): each returns the dirty bits. */
unsigned app_key_next_pane(struct app *a, int key);
unsigned app_key_prev_pane(struct app *a, int key);
unsigned app_key_pane(struct app *a, int key); /* 1-4 */
unsigned app_key_up(struct app *a, int key);
unsigned app_key_down(struct app *a, int key);
unsigned app_key_page_up(struct app *a, int key);
unsigned app_key_page_down(struct app *a, int key);
unsigned app_key_top(struct app *a, int key);
unsigned app_key_bottom(struct app *a, int key);
unsigned app_key_edit(struct app *a, int key);
unsigned app_key_inc(struct app *a, int key);
unsigned app_key_dec(struct app *a, int key);
unsigned app_key_next_choice(struct app *a, int key);
unsigned app_key_prev_choice(struct app *a, int key);
unsigned app_key_undo(struct app *a, int key);
unsigned app_key_redo(struct app *a, int key);
unsigned app_key_baseline(struct app *a, int key);
unsigned app_key_explain(struct app *a, int key); /* the selected figure or field */
unsigned app_key_command(struct app *a, int key);
unsigned app_key_help(struct app *a, int key);
unsigned app_key_quit(struct app *a, int key);
unsigned app_key_save(struct app *a, int key);
unsigned app_key_redraw(struct app *a, int key);
unsigned app_key_search(struct app *a, int key);
unsigned app_key_scaling(struct app *a, int key);
unsigned app_key_chart(struct app *a, int key); /* c: the chart view (chart_view.c) */
unsigned app_key_solve_max(struct app *a, int key);
unsigned app_key_solve_min(struct app *a, int key);
unsigned app_key_notes(struct app *a, int key); /* n, :notes (notes_view.c) */

/* Handles one key (keys.h encoding): the view on top's (view.h's app_view). */
void app_handle_key(struct app *a, int key);

/* Recomputes the plan when DIRTY_CALC is set and rebuilds the pane rows; reruns the open
 * view's stale search while it is on top. */
void app_compute(struct app *a);

/* After a->lay changed (a resize): the panes' rows and scroll positions for their new
 * heights, the search rerun only when its view grew past the rows last asked for; no plan
 * is recomputed. Sets DIRTY_DRAW. */
void app_relayout(struct app *a);

/* The field selected in the focused pane; NULL on Results or a line that is not a field. */
const struct field *app_selected_field(const struct app *a);

/* Whether field f is the one being typed (MODE_EDIT). */
bool app_editing(const struct app *a, const struct field *f);

/* The first validation problem of field f; NULL when it has none. */
const struct gp_error *app_field_problem(const struct app *a, const struct field *f);

/* The title's baseline mark: "" without one, "[baseline]" when it is of the file shown,
 * else "[baseline: NAME]" with the name of the file it was pinned on. Returns buf. */
const char *app_baseline_mark(const struct app *a, char *buf, size_t size);

/* Whether the scenario differs from the one last read or written. */
bool app_unsaved(const struct app *a);

/* The scenario changed from before to a->scn: one undoable edit. Returns the dirty bits
 * (recompute, redraw) for the handler to return. */
unsigned app_commit(struct app *a, const struct scenario *before);

/* Sets the status line; error draws it as an error. It sets no dirty bit: the handler that
 * says something returns DIRTY_DRAW (every key handler does). */
void app_status(struct app *a, bool error, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The status line says err (as FILE:LINE:COL: message), drawn as an error. */
void app_status_err(struct app *a, const struct gp_error *err);

/* The resolved value of an auto field (dp, global_batch, batch, efficiencies), for +/-. */
double app_auto_value(const struct app *a, const struct field *f);

/* Editing (app_edit.c): + and - step the selected field (cycle: Left/Right through a
 * choice's values); Enter starts typing its value, or opens the picker on a preset; the keys
 * while a value is typed or a preset picked. */
unsigned app_step(struct app *a, int dir, bool cycle); /* returns the dirty bits */
void app_edit_start(struct app *a);
unsigned app_edit_key(struct app *a, int key); /* each returns the dirty bits */
unsigned app_pick_key(struct app *a, int key);
/* The picker's keys (keys.c's KC_PICK rows); each returns the dirty bits. */
unsigned pick_key_up(struct app *a, int key);
unsigned pick_key_down(struct app *a, int key);
unsigned pick_key_page_up(struct app *a, int key);
unsigned pick_key_page_down(struct app *a, int key);
unsigned pick_key_take(struct app *a, int key);
unsigned pick_key_cancel(struct app *a, int key);

/* The fields of s that a preset set in the UI keeps, as --set keeps those its file gave:
 * the keys the file wrote (s->written) and those the session's edits made differ from
 * what the presets alone give. Only the keys are filled. */
void app_file_keys(const struct app *a, const struct scenario *s, struct scenario_source *src);

/* scenario_apply_sets on s with keys as the file's fields (the rule --set follows): all n
 * assignments, presets first. 0, or -1 with err and *failed (may be NULL) set. */
int app_apply_sets(struct app *a, struct scenario *s, const struct scenario_source *keys,
		   const char *const *sets, int n, int *failed, struct gp_error *err);

/* Why batch auto's running batch is below the auto value (the most that fit, which the
 * KV cache is sized for). */
enum batch_run {
	BATCH_RUN_FIT,	       /* it is not: decode runs the most that fit */
	BATCH_RUN_SLO,	       /* the largest batch meeting the SLO (capacity_plan.slo_batch) */
	BATCH_RUN_CAP,	       /* the engine's running cap (serving.max_running, max_num_seqs) */
	BATCH_RUN_LOAD,	       /* the arrivals' steady state (serving.batch, Little's law) */
	BATCH_RUN_OVERLOAD,    /* the arrivals outrun the replica: it runs its cap */
	BATCH_RUN_CONCURRENCY, /* a closed loop's concurrency */
};
/* batch auto: the batch decode runs (serving.batch under a scheduler, as the report's
 * "engine runs at most 256"; plan_batch under scheduler alone) when it is below the auto
 * value, with *why; else 0 and BATCH_RUN_FIT. The SLO's batch only where it is what
 * runs: an overloaded engine runs its cap, not the 101 that would meet the SLO. */
double app_running_batch(const struct app *a, const struct field *f, enum batch_run *why);

/* The UI's other modules, for the callers (tui.c, the tests, the bench) that drive it all. */
#include "app_file.h"
#include "command.h"
#include "complete.h"
#include "lesson.h"
#include "prompt.h"
#include "view.h"

#endif
