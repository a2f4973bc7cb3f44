/* chart.h - a figure against an input as a picture: the terminal chart (Unicode braille or
 * ASCII), and an SVG document a Markdown review can embed. `gpuplan sweep` draws with it.
 *
 * Pure: each function appends to a struct report_buf (report.h) and never prints. The
 * points are evenly spaced along x (a sweep's points are FROM + i x STEP, or FROM x FACTOR^i
 * on a logarithmic axis), so a point's column follows from its index; x holds the values
 * only to label the axis. A value that is NaN or infinite is a gap. No allocation besides
 * the buffer's own growth.
 */
#ifndef GPUPLAN_CHART_H
#define GPUPLAN_CHART_H

#include <stdbool.h>

#include "report.h"
#include "units.h"

#define CHART_MAX_SERIES 8
#define CHART_MAX_RULES	 4
#define CHART_MAX_POINTS 256 /* per chart */

/* One curve: its label (the legend's) and its n values, one a point. */
struct chart_series {
	const char *label;
	const double *y;
};

/* A limit drawn as a line across the chart (the GPU memory a plan must fit in, an SLO):
 * its label and its n values, one a point (a constant value is a horizontal line). */
struct chart_rule {
	const char *label;
	const double *y;
};

struct chart {
	const char *title;   /* the first line; may be NULL */
	const char *x_label; /* the axis' name: the swept field's key */
	enum unit_kind x_unit;
	const char *y_label; /* the figure's key */
	enum unit_kind y_unit;
	int n;		 /* points, 1 to CHART_MAX_POINTS */
	const double *x; /* n values */
	int nseries;
	struct chart_series series[CHART_MAX_SERIES];
	int nrules;
	struct chart_rule rules[CHART_MAX_RULES];
	/* words to label the n points with instead of x's numbers (a sweep over a list of
	 * GPUs or frameworks); NULL for numbers */
	const char *const *x_words;
};

/* The chart as text, width columns wide (at least 40) and height rows for the plot (at least
 * 4), then the x axis, its labels and a legend: a single curve in braille dots (2 x 4 a
 * cell) or, with ascii, '*' at each point joined by '.'; several curves each with its own
 * mark (Unicode or ASCII). Rules are dashed ('-' in ASCII); a curve is drawn over them. */
void chart_text(struct report_buf *b, const struct chart *c, int width, int height, bool ascii);

/* An SVG 1.1 document (valid XML, with the xmlns, width, height and viewBox a Markdown
 * renderer needs) with the n charts stacked, each one panel with axes, tick labels, curves,
 * dashed rules and a legend; title, when not NULL, above them all. Text is XML-escaped. */
void chart_svg(struct report_buf *b, const struct chart *charts, int n, const char *title);

/* The y range chart_text and chart_svg draw: from the least value (or 0 when none is
 * below 0) up to the largest value of any curve or rule, rounded up to 1, 2, 2.5 or 5
 * times a power of ten (of the binary unit the axis writes, for sizes: 100 GiB, not 100e9
 * bytes). A chart with no finite value gives 0 to 1. */
void chart_y_range(const struct chart *c, double *lo, double *hi);

#endif
