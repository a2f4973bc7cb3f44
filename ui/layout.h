/* layout.h - where each part of the screen goes: a pure function of rows x cols.
 *
 * The screen is a title line, the four panes (Model, Workload and Hardware stacked on the
 * left, Results on the right), a status line and the key legend on the bottom line.
 * Below LAYOUT_MIN_ROWS x LAYOUT_MIN_COLS the layout says too_small and nothing else.
 * Between that and LAYOUT_STD_ROWS x LAYOUT_STD_COLS the panes are shorter or narrower.
 */
#ifndef GPUPLAN_UI_LAYOUT_H
#define GPUPLAN_UI_LAYOUT_H

#include <stdbool.h>

/* The smallest screen the UI works in: 80x24 less tmux's or screen's status line and an
 * SSH window a few rows or columns short of it; the panes shrink and scroll there. */
#define LAYOUT_MIN_ROWS 18
#define LAYOUT_MIN_COLS 64
/* The size the layout is designed for (and the one the state starts with). */
#define LAYOUT_STD_ROWS 24
#define LAYOUT_STD_COLS 80

enum pane_id { PANE_MODEL, PANE_WORKLOAD, PANE_HARDWARE, PANE_RESULTS, PANE_COUNT };

struct rect {
	int y, x, h, w;
};

struct layout {
	int rows, cols;
	bool too_small;
	struct rect title;
	struct rect pane[PANE_COUNT];
	struct rect status;
	struct rect legend;
};

/* Fills l for a terminal of rows x cols. Never fails. */
void layout_compute(int rows, int cols, struct layout *l);

#endif
