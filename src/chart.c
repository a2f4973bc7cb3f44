/* chart.c - charts of a figure against an input: terminal text (braille or ASCII) and SVG. */
#include "chart.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAX_COLS    256 /* the text chart's widest plot */
#define MAX_ROWS    64
#define CHART_LABEL 24 /* an x label: a number, or a word such as "optimizer+params" */

/* The glyphs of the text chart, UTF-8 and their ASCII twins (gpuplan(1), sweep: ASCII
 * with --ascii or where the locale is not UTF-8). */
struct glyphs {
	const char *vert, *tick_y, *corner, *horiz, *tick_x, *rule, *join;
	const char *marks[CHART_MAX_SERIES];
};

static const struct glyphs utf8_glyphs = {
    "\u2502", "\u2524",
    "\u2514", "\u2500",
    "\u252c", "\u2504",
    "\u00b7", {"\u25cf", "\u25cb", "\u25a0", "\u25a1", "\u25b2", "\u25b3", "\u25c6", "\u25c7"},
};
static const struct glyphs ascii_glyphs = {
    "|", "+", "+", "-", "+", "-", ".", {"*", "+", "o", "x", "#", "@", "%", "&"},
};

/* 1, 2, 2.5 or 5 times a power of ten, the least not below v (v > 0). */
static double nice_ceil(double v)
{
	static const double steps[] = {1, 2, 2.5, 5, 10};
	double p = pow(10, floor(log10(v)));

	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++)
		if (steps[i] * p >= v * (1 - 1e-12))
			return steps[i] * p;
	return 10 * p;
}

/* nice_ceil in the unit the axis writes: sizes in KiB, MiB, GiB or TiB (units.c), so a
 * 93.1 GiB top reads 100 GiB, not 100e9 bytes written as 93.1 GiB. */
static double nice_ceil_in(enum unit_kind unit, double v)
{
	double u = 1;

	if (unit != UNIT_BYTES)
		return nice_ceil(v);
	while (v > 1000 * u && u < 1099511627776.0) /* 1010 GiB: the top is 1 TiB */
		u *= 1024;
	return nice_ceil(v / u) * u;
}

void chart_y_range(const struct chart *c, double *lo, double *hi)
{
	double mn = INFINITY, mx = -INFINITY;

	for (int k = 0; k < c->nseries + c->nrules; k++) {
		const double *y = k < c->nseries ? c->series[k].y : c->rules[k - c->nseries].y;
		for (int i = 0; i < c->n; i++) {
			if (!isfinite(y[i]))
				continue;
			mn = fmin(mn, y[i]);
			mx = fmax(mx, y[i]);
		}
	}
	if (!isfinite(mn)) {
		*lo = 0;
		*hi = 1;
		return;
	}
	*lo = mn < 0 ? -nice_ceil_in(c->y_unit, -mn) : 0;
	*hi = mx > 0 ? nice_ceil_in(c->y_unit, mx) : 0;
	if (*hi <= *lo)
		*hi = *lo + (*lo < 0 ? nice_ceil_in(c->y_unit, -*lo) : 1);
}

/* The column of point i in a plot cols wide. */
static int point_col(int i, int n, int cols)
{
	if (n <= 1)
		return cols / 2;
	return (int)lround((double)i * (cols - 1) / (n - 1));
}

/* A rule's value at a column, interpolated between the points on either side; NAN in a
 * gap. */
static double value_at_col(const double *y, int n, int col, int cols)
{
	double t, f;
	int i;

	if (n <= 1)
		return y[0];
	t = (double)col * (n - 1) / (cols - 1);
	i = (int)floor(t);
	if (i >= n - 1)
		return y[n - 1];
	f = t - i;
	if (!isfinite(y[i]) || !isfinite(y[i + 1]))
		return f < 1e-9 ? y[i] : NAN;
	return y[i] + f * (y[i + 1] - y[i]);
}

/* The x labels: a label at a point's column where it does not touch its neighbours, the
 * first and the last points always. starts[i] is the label's first column or -1. */
static void x_labels(const struct chart *c, int cols, char labels[][CHART_LABEL], int *starts)
{
	int prev_end = -2, last_start;

	for (int i = 0; i < c->n; i++) {
		/* a count below 100,000 whole ("4096", not "4.1k"), since it is what was typed */
		if (c->x_words)
			snprintf(labels[i], sizeof(labels[i]), "%s", c->x_words[i]);
		else if ((c->x_unit == UNIT_COUNT || c->x_unit == UNIT_NONE) &&
			 c->x[i] == floor(c->x[i]) && fabs(c->x[i]) < 1e5)
			snprintf(labels[i], sizeof(labels[i]), "%.0f", c->x[i]);
		else
			units_format_compact(c->x_unit, c->x[i], labels[i], sizeof(labels[i]));
		starts[i] = -1;
	}
	{
		int len = (int)strlen(labels[c->n - 1]), col = point_col(c->n - 1, c->n, cols);
		last_start = col - len / 2;
		if (last_start + len > cols)
			last_start = cols - len;
		if (last_start < 0)
			last_start = 0;
	}
	for (int i = 0; i < c->n; i++) {
		int len = (int)strlen(labels[i]), col = point_col(i, c->n, cols);
		int start = col - len / 2;

		if (start + len > cols)
			start = cols - len;
		if (start < 0)
			start = 0;
		if (i == c->n - 1) {
			if (start > prev_end + 1 || c->n == 1)
				starts[i] = start;
			break;
		}
		if (start > prev_end + 1 && (c->n == 1 || start + len + 1 < last_start)) {
			starts[i] = start;
			prev_end = start + len - 1;
		}
	}
}

/* Text ---------------------------------------------------------------------------------- */

struct cell {
	unsigned char dots; /* braille bits */
	signed char mark;   /* series + 1, 0 none */
	bool join, rule;
};

/* Braille dot (dx, dy) of a cell: Unicode's dot numbering, 1-2-3-7 down the left column and
 * 4-5-6-8 down the right. */
static const unsigned char braille_bit[4][2] = {
    {0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80}};

static void put_dot(struct cell *cells, int cols, int rows, int x, int y)
{
	if (x < 0 || y < 0 || x >= 2 * cols || y >= 4 * rows)
		return;
	cells[(y / 4) * cols + x / 2].dots |= braille_bit[y % 4][x % 2];
}

/* Bresenham's line between two dots. */
static void dot_line(struct cell *cells, int cols, int rows, int x0, int y0, int x1, int y1)
{
	int dx = x1 > x0 ? x1 - x0 : x0 - x1, dy = -(y1 > y0 ? y1 - y0 : y0 - y1);
	int sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1, e = dx + dy;

	for (;;) {
		put_dot(cells, cols, rows, x0, y0);
		if (x0 == x1 && y0 == y1)
			break;
		int e2 = 2 * e;

		if (e2 >= dy) {
			e += dy;
			x0 += sx;
		}
		if (e2 <= dx) {
			e += dx;
			y0 += sy;
		}
	}
}

static int value_row(double v, double lo, double hi, int rows)
{
	int r = (int)lround((hi - v) / (hi - lo) * (rows - 1));
	return r < 0 ? 0 : r >= rows ? rows - 1 : r;
}

static void braille_series(struct cell *cells, int cols, int rows, const struct chart *c,
			   const double *y, double lo, double hi)
{
	int px = -1, py = -1;

	for (int i = 0; i < c->n; i++) {
		int x, yy;

		if (!isfinite(y[i])) {
			px = -1;
			continue;
		}
		x = c->n <= 1 ? cols : (int)lround((double)i * (2 * cols - 1) / (c->n - 1));
		yy = (int)lround((hi - y[i]) / (hi - lo) * (4 * rows - 1));
		if (px >= 0)
			dot_line(cells, cols, rows, px, py, x, yy);
		else
			put_dot(cells, cols, rows, x, yy);
		px = x;
		py = yy;
	}
}

static void mark_series(struct cell *cells, int cols, int rows, const struct chart *c, int k,
			double lo, double hi)
{
	const double *y = c->series[k].y;

	for (int i = 0; i < c->n; i++) {
		int col = point_col(i, c->n, cols);

		if (!isfinite(y[i]))
			continue;
		cells[value_row(y[i], lo, hi, rows) * cols + col].mark = (signed char)(k + 1);
		if (i + 1 >= c->n || !isfinite(y[i + 1]))
			continue;
		/* the columns between this point and the next: joined where no point is */
		for (int cc = col + 1, end = point_col(i + 1, c->n, cols); cc < end; cc++) {
			double f = (double)(cc - col) / (end - col);
			struct cell *at =
			    &cells[value_row(y[i] + f * (y[i + 1] - y[i]), lo, hi, rows) * cols +
				   cc];
			at->join = true;
		}
	}
}

static void put_utf8_braille(struct report_buf *b, unsigned dots)
{
	/* U+2800 + dots, as UTF-8: E2, A0 + (dots >> 6), 80 + (dots & 63) */
	report_buf_printf(b, "%c%c%c", 0xe2, 0xa0 + (dots >> 6), 0x80 + (dots & 0x3f));
}

/* Appends text padded (or cut) to n columns; text is ASCII. */
static void put_padded(struct report_buf *b, const char *text, int n, bool right)
{
	int len = (int)strlen(text);

	if (len > n)
		len = n;
	report_buf_printf(b, right ? "%*.*s" : "%-*.*s", n, len, text);
}

void chart_text(struct report_buf *b, const struct chart *c, int width, int height, bool ascii)
{
	const struct glyphs *g = ascii ? &ascii_glyphs : &utf8_glyphs;
	const int gutter = 9; /* an 8-column y label and the axis */
	int cols = width - gutter, rows = height;
	bool braille = !ascii && c->nseries == 1;
	struct cell cells[MAX_ROWS * MAX_COLS];
	char labels[CHART_MAX_POINTS][CHART_LABEL];
	int starts[CHART_MAX_POINTS];
	int label_every;
	double lo, hi;

	if (cols > MAX_COLS)
		cols = MAX_COLS;
	if (rows > MAX_ROWS)
		rows = MAX_ROWS;
	if (cols < 8 || rows < 2 || c->n < 1 || c->n > CHART_MAX_POINTS)
		return;
	/* a label every quarter when the rows divide so, else at the top and the bottom */
	label_every = (rows - 1) % 4 == 0 ? (rows - 1) / 4 : rows - 1;
	chart_y_range(c, &lo, &hi);
	memset(cells, 0, sizeof(cells[0]) * (size_t)(rows * cols));
	for (int k = 0; k < c->nseries; k++) {
		if (braille)
			braille_series(cells, cols, rows, c, c->series[k].y, lo, hi);
		else
			mark_series(cells, cols, rows, c, k, lo, hi);
	}
	for (int k = 0; k < c->nrules; k++) {
		for (int col = 0; col < cols; col++) {
			double v = value_at_col(c->rules[k].y, c->n, col, cols);
			struct cell *at;

			if (!isfinite(v))
				continue;
			at = &cells[value_row(v, lo, hi, rows) * cols + col];
			at->rule = true;
		}
	}

	if (c->title) {
		put_padded(b, c->title, width, false);
		/* no trailing blanks: a golden file or a diff shows none */
		while (b->len && b->data[b->len - 1] == ' ')
			b->data[--b->len] = '\0';
		report_buf_printf(b, "\n");
	}
	for (int r = 0; r < rows; r++) {
		bool labelled = r % label_every == 0;
		char label[32] = "";
		int last = cols - 1;

		if (labelled) {
			double v = hi - (hi - lo) * r / (rows - 1);
			/* the row at 0 says 0, not the rounding error of hi - hi */
			if (fabs(v) < 1e-9 * (hi - lo))
				v = 0;
			units_format_compact(c->y_unit, v, label, sizeof(label));
		}
		put_padded(b, label, gutter - 1, true);
		report_buf_printf(b, "%s", labelled ? g->tick_y : g->vert);
		/* the row up to its last drawn cell */
		while (last >= 0 && !cells[r * cols + last].dots && !cells[r * cols + last].mark &&
		       !cells[r * cols + last].join && !cells[r * cols + last].rule)
			last--;
		for (int col = 0; col <= last; col++) {
			const struct cell *at = &cells[r * cols + col];

			if (at->dots)
				put_utf8_braille(b, at->dots);
			else if (at->mark)
				report_buf_printf(b, "%s", g->marks[at->mark - 1]);
			else if (at->join)
				report_buf_printf(b, "%s", g->join);
			else if (at->rule)
				report_buf_printf(b, "%s", g->rule);
			else
				report_buf_printf(b, " ");
		}
		report_buf_printf(b, "\n");
	}

	/* the x axis, a tick under each labelled point, the labels, the axis' name */
	x_labels(c, cols, labels, starts);
	put_padded(b, "", gutter - 1, true);
	report_buf_printf(b, "%s", g->corner);
	for (int col = 0; col < cols; col++) {
		bool tick = false;
		for (int i = 0; i < c->n && !tick; i++)
			tick = starts[i] >= 0 && point_col(i, c->n, cols) == col;
		report_buf_printf(b, "%s", tick ? g->tick_x : g->horiz);
	}
	report_buf_printf(b, "\n");
	{
		int at = 0;
		put_padded(b, "", gutter, true);
		for (int i = 0; i < c->n; i++) {
			if (starts[i] < 0)
				continue;
			report_buf_printf(b, "%*s%s", starts[i] - at, "", labels[i]);
			at = starts[i] + (int)strlen(labels[i]);
		}
		report_buf_printf(b, "\n");
	}
	{
		int len = (int)strlen(c->x_label);
		int pad = gutter + (cols - len) / 2;
		report_buf_printf(b, "%*s%s\n", pad > 0 ? pad : 0, "", c->x_label);
	}

	/* the legend, wrapped at width: each curve's mark, then each rule's */
	{
		int used = 0;
		for (int k = 0; k < c->nseries + c->nrules; k++) {
			const char *mark = k >= c->nseries ? g->rule
					   : braille	   ? "\u28ff"
							   : g->marks[k];
			const char *label =
			    k < c->nseries ? c->series[k].label : c->rules[k - c->nseries].label;
			int len = 2 + (int)strlen(label) + 3;

			if (used && used + len > width) {
				report_buf_printf(b, "\n");
				used = 0;
			}
			report_buf_printf(b, "%s%s %s", used ? "   " : "  ", mark, label);
			used += len;
		}
		report_buf_printf(b, "\n");
	}
}

/* SVG ----------------------------------------------------------------------------------- */

/* The panel's geometry, in pixels. */
#define SVG_WIDTH  720
#define SVG_LEFT   80
#define SVG_RIGHT  24
#define SVG_TOP	   34
#define SVG_PLOT_H 220
#define SVG_PANEL  (SVG_TOP + SVG_PLOT_H + 80)
#define SVG_TITLE  32

static const char *const svg_colours[CHART_MAX_SERIES] = {
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"};

/* Text as XML character data or an attribute's value: & < > " ' escaped. */
static void svg_text(struct report_buf *b, const char *text)
{
	/* XML 1.0's five predefined entities (Section 4.6), each the same place in both */
	static const char special[] = "&<>\"'";
	static const char *const entity[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"};

	for (const char *p = text; *p; p++) {
		const char *at = strchr(special, *p);
		if (at)
			report_buf_printf(b, "%s", entity[at - special]);
		else
			report_buf_printf(b, "%c", *p);
	}
}

static double svg_x(int i, int n)
{
	double w = SVG_WIDTH - SVG_LEFT - SVG_RIGHT;
	return SVG_LEFT + (n <= 1 ? w / 2 : w * i / (n - 1));
}

static double svg_y(double v, double lo, double hi, double top)
{
	return top + SVG_TOP + SVG_PLOT_H * (hi - v) / (hi - lo);
}

/* A curve or a rule as polylines, one for each run of finite values. */
static void svg_polylines(struct report_buf *b, const struct chart *c, const double *y, double lo,
			  double hi, double top, const char *style)
{
	bool open = false;

	for (int i = 0; i <= c->n; i++) {
		bool ok = i < c->n && isfinite(y[i]);
		if (ok && !open) {
			report_buf_printf(b, "<polyline fill=\"none\" %s points=\"", style);
			open = true;
		} else if (!ok && open) {
			report_buf_printf(b, "\"/>\n");
			open = false;
		}
		if (ok)
			report_buf_printf(b, "%s%.1f,%.1f", i && isfinite(y[i - 1]) ? " " : "",
					  svg_x(i, c->n), svg_y(y[i], lo, hi, top));
	}
}

static void svg_panel(struct report_buf *b, const struct chart *c, double top)
{
	const double left = SVG_LEFT, right = SVG_WIDTH - SVG_RIGHT;
	const double y0 = top + SVG_TOP, y1 = top + SVG_TOP + SVG_PLOT_H;
	/* x labels laid out as in the text chart, at about 7 pixels a character */
	const int cols = (SVG_WIDTH - SVG_LEFT - SVG_RIGHT) / 7;
	char labels[CHART_MAX_POINTS][CHART_LABEL];
	int starts[CHART_MAX_POINTS];
	double lo, hi, lx;

	if (c->n < 1 || c->n > CHART_MAX_POINTS)
		return;
	chart_y_range(c, &lo, &hi);
	report_buf_printf(b, "<g>\n<text x=\"%.1f\" y=\"%.1f\" font-size=\"14\">", left, top + 20);
	svg_text(b, c->title ? c->title : c->y_label);
	report_buf_printf(b, "</text>\n");
	/* the y grid and labels at each quarter */
	for (int k = 0; k <= 4; k++) {
		double v = lo + (hi - lo) * k / 4, y = svg_y(v, lo, hi, top);
		char label[32];

		if (fabs(v) < 1e-9 * (hi - lo))
			v = 0;
		units_format_compact(c->y_unit, v, label, sizeof(label));
		report_buf_printf(b,
				  "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
				  "stroke=\"#dddddd\"/>\n",
				  left, y, right, y);
		report_buf_printf(b,
				  "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" "
				  "font-size=\"11\">",
				  left - 6, y + 4);
		svg_text(b, label);
		report_buf_printf(b, "</text>\n");
	}
	report_buf_printf(b,
			  "<polyline fill=\"none\" stroke=\"#333333\" points=\"%.1f,%.1f %.1f,%.1f "
			  "%.1f,%.1f\"/>\n",
			  left, y0, left, y1, right, y1);
	x_labels(c, cols, labels, starts);
	for (int i = 0; i < c->n; i++) {
		double x = svg_x(i, c->n);
		if (starts[i] < 0)
			continue;
		report_buf_printf(b,
				  "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
				  "stroke=\"#333333\"/>\n",
				  x, y1, x, y1 + 5);
		report_buf_printf(b,
				  "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
				  "font-size=\"11\">",
				  x, y1 + 18);
		svg_text(b, labels[i]);
		report_buf_printf(b, "</text>\n");
	}
	report_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"12\">",
			  (left + right) / 2, y1 + 36);
	svg_text(b, c->x_label);
	report_buf_printf(b, "</text>\n");
	for (int k = 0; k < c->nrules; k++)
		svg_polylines(b, c, c->rules[k].y, lo, hi, top,
			      "stroke=\"#555555\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"");
	for (int k = 0; k < c->nseries; k++) {
		char style[96];

		snprintf(style, sizeof(style), "stroke=\"%s\" stroke-width=\"2\"", svg_colours[k]);
		svg_polylines(b, c, c->series[k].y, lo, hi, top, style);
		for (int i = 0; i < c->n; i++)
			if (isfinite(c->series[k].y[i]))
				report_buf_printf(b,
						  "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"2.5\" "
						  "fill=\"%s\"/>\n",
						  svg_x(i, c->n),
						  svg_y(c->series[k].y[i], lo, hi, top),
						  svg_colours[k]);
	}
	/* the legend, one row under the axis' name */
	lx = left;
	for (int k = 0; k < c->nseries + c->nrules; k++) {
		bool rule = k >= c->nseries;
		const char *label = rule ? c->rules[k - c->nseries].label : c->series[k].label;
		double y = y1 + 58;

		report_buf_printf(b,
				  "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
				  "stroke=\"%s\" stroke-width=\"2\"%s/>\n",
				  lx, y - 4, lx + 18, y - 4, rule ? "#555555" : svg_colours[k],
				  rule ? " stroke-dasharray=\"6 4\"" : "");
		report_buf_printf(b, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">", lx + 22, y);
		svg_text(b, label);
		report_buf_printf(b, "</text>\n");
		lx += 22 + 6.5 * (double)strlen(label) + 18;
	}
	report_buf_printf(b, "</g>\n");
}

void chart_svg(struct report_buf *b, const struct chart *charts, int n, const char *title)
{
	int head = title ? SVG_TITLE : 0, height = head + n * SVG_PANEL;

	report_buf_printf(b,
			  "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
			  "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" "
			  "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
			  "font-family=\"sans-serif\">\n"
			  "<rect width=\"100%%\" height=\"100%%\" fill=\"#ffffff\"/>\n",
			  SVG_WIDTH, height, SVG_WIDTH, height);
	if (title) {
		report_buf_printf(b, "<text x=\"%d\" y=\"22\" font-size=\"16\">", SVG_LEFT);
		svg_text(b, title);
		report_buf_printf(b, "</text>\n");
	}
	for (int k = 0; k < n; k++)
		svg_panel(b, &charts[k], head + k * SVG_PANEL);
	report_buf_printf(b, "</svg>\n");
}
