/* pane.h - the panes: the input panes' rows and the functions that draw the panes. */
#ifndef GPUPLAN_UI_PANE_H
#define GPUPLAN_UI_PANE_H

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

#endif
