/* pane.h - the panes: the input panes' rows and the functions that draw the panes. */
#ifndef GPUPLAN_UI_PANE_H
#define GPUPLAN_UI_PANE_H

#include <stdbool.h>

#include "keys.h"
#include "scenario.h"

struct app;
struct gpu;

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

/* The input panes' rows and info lines (pane_model.c, pane_workload.c, pane_hardware.c). */
void pane_model_rows(const struct app *a, struct pane_rows *out);
void pane_workload_rows(const struct app *a, struct pane_rows *out);
void pane_hardware_rows(const struct app *a, struct pane_rows *out);
void pane_model_info(const struct app *a, WINDOW *w, int y, int x, int width, int info);
void pane_hardware_info(const struct app *a, WINDOW *w, int y, int x, int width, int info);

/* Building the rows (pane.c): a field row when key applies to the workload; another row. */
void pane_rows_add(const struct app *a, struct pane_rows *out, const char *key, const char *label);
void pane_rows_other(struct pane_rows *out, enum row_kind kind, const char *label, int info);
/* The shown fields of pane in the field table's order, with an info row (label, info)
 * below its picker (the field with a catalog): the Model and Hardware panes' rows. */
void pane_rows_picker(const struct app *a, struct pane_rows *out, enum field_pane pane,
		      const char *label, int info);

/* "80 GiB  3.35 TB/s  989 TF  $2.50/h" (pane_hardware.c). */
void pane_hardware_gpu_summary(const struct gpu *g, char *buf, size_t size);

/* What the three input panes share (pane.c), as view.h's callbacks: each acts on the pane v
 * or, where there is no v, the focused one. */
struct view_ops;
void pane_inputs_recalc(struct app *a, const struct view_ops *v);
void pane_inputs_draw(struct app *a, const struct view_ops *v, WINDOW *w);
unsigned pane_inputs_move(struct app *a, int delta);
unsigned pane_inputs_page(struct app *a, int dir);
const struct field *pane_inputs_field(const struct app *a);
const char *pane_inputs_selected_key(const struct app *a);
/* the selected field's problem, else its whole value when the pane cuts it */
const char *pane_inputs_status(const struct app *a, char *buf, size_t size, int *role);
/* the cursor in the value being typed (edit_view's) */
WINDOW *pane_inputs_cursor(const struct app *a, int *y, int *x);
/* The rows a page moves in the focused pane: its lines less one of overlap. */
int pane_page_step(const struct app *a);

/* An input pane's callbacks: the struct view_ops of pane_model.c and the others is
 * {.name, .pane, .title, PANE_INPUT_OPS, .rows, .info} (tig's DEFINE_VIEW). */
#define PANE_INPUT_OPS                                                                             \
	.ctx = KC_MAIN, .key = app_pane_key, .recalc = pane_inputs_recalc,                         \
	.draw = pane_inputs_draw, .move_by = pane_inputs_move, .page_by = pane_inputs_page,        \
	.field = pane_inputs_field, .selected_key = pane_inputs_selected_key,                      \
	.status = pane_inputs_status

/* The Results pane's figures (pane_results.c). */
/* Whether the scenario has problems (scenario_validate, as `gpuplan check`): the pane then
 * lists them, one item each, in place of the plan. */
bool pane_results_invalid(const struct app *a);
/* The pane's verdict: "fits", "does not fit", or "does not check" when it is invalid. */
const char *pane_results_fit(const struct app *a);
/* The text of a result for the explanation window; "" when key is unknown. */
void pane_results_value(const struct app *a, const char *key, char *buf, size_t size);
/* The whole verdict a Results key stands for ("capacity: fits: ..."), or for "warnings" the
 * warnings in full, for the status line when the pane clips them; NULL for other keys. */
const char *pane_results_verdict(const struct app *a, const char *key, char *buf, size_t size);
/* The Results items that have a line in a pane of height x width: bit i for
 * a->result_keys[i]. A pure function of the state and the size, as layout.c is of the
 * terminal's. */
unsigned pane_results_shown(const struct app *a, int height, int width);
/* "KEY = VALUE" for a Results item that the pane has no line for at its size (a short
 * terminal), for the status line while it is selected; NULL when it has one. */
const char *pane_results_hidden(const struct app *a, const char *key, char *buf, size_t size);
/* The error band of the figure at key (band.h), as the pane shows it: mark, compact, "±11%"
 * (the theme's glyph; "+-11%" in ASCII) or "±?" outside every validated regime; why, as
 * the reports write it, "+-11%: 7 measured llm-foundry runs on h100-sxm-80gb" or
 * "unvalidated: ...". Either buffer may be NULL. False when the figure carries no band or
 * has no value. */
bool pane_results_band(const struct app *a, const char *key, char *mark, size_t msize, char *why,
		       size_t wsize);

#endif
