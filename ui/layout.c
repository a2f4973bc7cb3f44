#include "layout.h"

#include <string.h>

/* Rows each input pane gets at the minimum size, header line included: 6 + 9 + 6 = 21, the
 * body of an 80x24 screen. */
enum { MODEL_MIN_H = 6, WORKLOAD_MIN_H = 9, HARDWARE_MIN_H = 6 };
/* The input column is wide enough for a label and a value; past 80 columns it takes a
 * quarter of the extra room, up to LEFT_MAX_W, and the rest goes to Results, whose lines are
 * longer. */
enum { LEFT_MIN_W = 40, LEFT_MAX_W = 56 };

static struct rect rect_make(int y, int x, int h, int w)
{
	struct rect r = {y, x, h, w};
	return r;
}

void layout_compute(int rows, int cols, struct layout *l)
{
	int body_y = 1, body_h, left_w, extra, model_h, workload_h, hardware_h;

	memset(l, 0, sizeof(*l));
	l->rows = rows;
	l->cols = cols;
	if (rows < LAYOUT_MIN_ROWS || cols < LAYOUT_MIN_COLS) {
		l->too_small = true;
		return;
	}
	body_h = rows - 3;
	left_w = LEFT_MIN_W + (cols - LAYOUT_MIN_COLS) / 4;
	if (left_w > LEFT_MAX_W)
		left_w = LEFT_MAX_W;

	/* Extra rows go mostly to Workload, which has the most fields, then Model. */
	extra = body_h - (MODEL_MIN_H + WORKLOAD_MIN_H + HARDWARE_MIN_H);
	workload_h = WORKLOAD_MIN_H + extra / 2;
	model_h = MODEL_MIN_H + extra / 4;
	hardware_h = body_h - workload_h - model_h;

	l->title = rect_make(0, 0, 1, cols);
	l->pane[PANE_MODEL] = rect_make(body_y, 0, model_h, left_w);
	l->pane[PANE_WORKLOAD] = rect_make(body_y + model_h, 0, workload_h, left_w);
	l->pane[PANE_HARDWARE] = rect_make(body_y + model_h + workload_h, 0, hardware_h, left_w);
	l->pane[PANE_RESULTS] = rect_make(body_y, left_w, body_h, cols - left_w);
	l->status = rect_make(rows - 2, 0, 1, cols);
	l->legend = rect_make(rows - 1, 0, 1, cols);
}
