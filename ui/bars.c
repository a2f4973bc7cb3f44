/* bars.c - bar geometry: how many cells, and eighths of a cell, each part gets. */
#include "bars.h"

#include <math.h>

#define BARS_MAX_PARTS 16

int bars_stack(const double *values, int n, double scale, int width, int *cells)
{
	double exact[BARS_MAX_PARTS], sum = 0;
	int filled, given = 0;

	if (n > BARS_MAX_PARTS)
		n = BARS_MAX_PARTS;
	for (int i = 0; i < n; i++) {
		double v = values[i] > 0 && isfinite(values[i]) ? values[i] : 0;
		cells[i] = 0;
		exact[i] = v;
		sum += v;
	}
	if (!(scale > 0) || width <= 0 || sum <= 0)
		return 0;
	filled = (int)lround(sum / scale * width);
	if (filled > width)
		filled = width;
	if (filled < 1)
		filled = 1;
	for (int i = 0; i < n; i++) {
		exact[i] = exact[i] / sum * filled;
		cells[i] = (int)floor(exact[i]);
		given += cells[i];
	}
	/* Largest remainder first, but parts that got nothing come before the rest, so a small
	 * part stays visible. */
	while (given < filled) {
		int best = -1;
		double best_rem = -1;
		for (int pass = 0; pass < 2 && best < 0; pass++) {
			for (int i = 0; i < n; i++) {
				double rem = exact[i] - cells[i];
				if (exact[i] <= 0 || (pass == 0 && cells[i] > 0))
					continue;
				if (rem > best_rem) {
					best_rem = rem;
					best = i;
				}
			}
		}
		cells[best]++;
		given++;
	}
	/* A part still at zero takes a cell from the largest part when it can spare one. */
	for (int i = 0; i < n; i++) {
		int big = -1;
		if (exact[i] <= 0 || cells[i] > 0)
			continue;
		for (int j = 0; j < n; j++)
			if (cells[j] > 1 && (big < 0 || cells[j] > cells[big]))
				big = j;
		if (big < 0)
			break;
		cells[big]--;
		cells[i]++;
	}
	return filled;
}

int bars_fill(double frac, int width, int *full, int *eighths)
{
	long total;

	if (!(frac > 0) || width <= 0) {
		*full = 0;
		*eighths = 0;
		return 0;
	}
	if (frac > 1)
		frac = 1;
	total = lround(frac * width * 8);
	if (total > (long)width * 8)
		total = (long)width * 8;
	*full = (int)(total / 8);
	*eighths = (int)(total % 8);
	return *full;
}

int bars_marker(double value, double scale, int width)
{
	long c;

	if (!(scale > 0) || !(value > 0) || width <= 0)
		return 0;
	c = lround(value / scale * width);
	if (c > width)
		c = width;
	return (int)c;
}
