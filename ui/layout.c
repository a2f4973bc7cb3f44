/* layout.c - where each pane goes on a screen of rows x cols. */
#include "layout.h"

#include <string.h>

/* Rows each input pane gets at 80x24, header line included: 6 + 9 + 6 = 21, the body of an
 * 80x24 screen. A shorter screen takes rows from Workload first (it scrolls, and holds the
 * most fields), then from Model and Hardware, down to MIN_SHORT_H each (a header and two
 * rows). */
enum { MODEL_STD_H = 6, WORKLOAD_STD_H = 9, HARDWARE_STD_H = 6, MIN_SHORT_H = 3 };
/* The input column is wide enough for a label and a value; past 80 columns it takes a
 * quarter of the extra room, up to LEFT_MAX_W, and the rest goes to Results, whose lines are
 * longer. Below 80 columns both sides give up columns alike, the inputs no fewer than
 * LEFT_NARROW_W. */
enum { LEFT_STD_W = 40, LEFT_MAX_W = 56, LEFT_NARROW_W = 32 };

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
	if (cols >= LAYOUT_STD_COLS)
		left_w = LEFT_STD_W + (cols - LAYOUT_STD_COLS) / 4;
	else
		left_w = LEFT_STD_W - (LAYOUT_STD_COLS - cols + 1) / 2;
	if (left_w > LEFT_MAX_W)
		left_w = LEFT_MAX_W;
	if (left_w < LEFT_NARROW_W)
		left_w = LEFT_NARROW_W;

	extra = body_h - (MODEL_STD_H + WORKLOAD_STD_H + HARDWARE_STD_H);
	if (extra >= 0) {
		/* Extra rows go mostly to Workload, which has the most fields, then Model. */
		workload_h = WORKLOAD_STD_H + extra / 2;
		model_h = MODEL_STD_H + extra / 4;
	} else {
		/* Fewer: Workload gives up to three, then Model and Hardware by turns. */
		int short_by = -extra, w_cut = short_by < 3 ? short_by : 3;
		workload_h = WORKLOAD_STD_H - w_cut;
		short_by -= w_cut;
		model_h = MODEL_STD_H - (short_by + 1) / 2;
		if (model_h < MIN_SHORT_H)
			model_h = MIN_SHORT_H;
		hardware_h = HARDWARE_STD_H - short_by / 2;
		if (hardware_h < MIN_SHORT_H)
			hardware_h = MIN_SHORT_H;
		workload_h = body_h - model_h - hardware_h;
	}
	hardware_h = body_h - workload_h - model_h;

	l->title = rect_make(0, 0, 1, cols);
	l->pane[PANE_MODEL] = rect_make(body_y, 0, model_h, left_w);
	l->pane[PANE_WORKLOAD] = rect_make(body_y + model_h, 0, workload_h, left_w);
	l->pane[PANE_HARDWARE] = rect_make(body_y + model_h + workload_h, 0, hardware_h, left_w);
	l->pane[PANE_RESULTS] = rect_make(body_y, left_w, body_h, cols - left_w);
	l->status = rect_make(rows - 2, 0, 1, cols);
	l->legend = rect_make(rows - 1, 0, 1, cols);
}
