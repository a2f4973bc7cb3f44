/* bars.h - bar geometry: how many cells each part of a bar gets. Pure; no curses. */
#ifndef GPUPLAN_UI_BARS_H
#define GPUPLAN_UI_BARS_H

/* Splits width cells among n stacked parts in proportion to values[i] / scale (values
 * below zero count as zero; scale <= 0 draws nothing). The filled cells are
 * round(sum / scale x width), capped at width, shared by largest remainder so they add up
 * exactly; a part that is not zero gets at least one cell when there is a cell to give.
 * Returns the number of filled cells. */
int bars_stack(const double *values, int n, double scale, int width, int *cells);

/* A single bar of frac (0..1, clamped) over width cells, in eighths of a cell:
 * *full whole cells and then *eighths (0..7) of one more. Returns *full. */
int bars_fill(double frac, int width, int *full, int *eighths);

/* The cell (0..width) where a marker for value / scale falls, clamped to the bar. */
int bars_marker(double value, double scale, int width);

#endif
