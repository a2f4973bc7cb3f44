/* diff.h - what differs between two scenarios and their plans (`gpuplan diff`).
 *
 * diff_compute() compares every field of the field table and every figure of the report
 * (figure.h: the numbers), and the verdicts (fits, binding bottleneck). Pure: no I/O, no
 * allocation. The text and Markdown forms append to a struct report_buf; the JSON form is
 * report_json_diff().
 */
#ifndef GPUPLAN_DIFF_H
#define GPUPLAN_DIFF_H

#include <stdbool.h>

#include "figure.h"
#include "plan.h"
#include "report.h"
#include "scenario.h"

#define DIFF_MAX_INPUTS	 192
#define DIFF_MAX_RESULTS FIGURE_MAX

struct diff_input {
	const struct field *field;
	char a[160], b[160]; /* the values in canonical file form */
};

struct diff_result {
	const struct figure *figure;
	double a, b;
	double change;	 /* b - a; NAN when either is NAN */
	double relative; /* (b - a) / |a|; NAN when a is 0 or either is NAN */
};

struct diff {
	int ninputs;
	struct diff_input inputs[DIFF_MAX_INPUTS];
	int nresults;
	struct diff_result results[DIFF_MAX_RESULTS];
	bool fits_a, fits_b;
	enum bottleneck binding_a, binding_b;
	bool fits_changed, binding_changed;
};

/* Compares a (with plan pa) and b (with plan pb) into d. Two figures are equal when both
 * do not apply (NAN) or they agree to 1 part in 1e9. */
void diff_compute(const struct scenario *a, const struct plan *pa, const struct scenario *b,
		  const struct plan *pb, struct diff *d);

/* Whether anything differs (inputs, results or verdicts). */
bool diff_any(const struct diff *d);

/* The diff in two columns at 80 columns, changed verdicts marked with "!!". name_a and
 * name_b head the columns. Returns 0, or -1 when out of memory. */
int diff_text(struct report_buf *out, const struct diff *d, const char *name_a, const char *name_b);

/* The diff as Markdown tables, changed verdicts in bold. Returns 0 or -1. */
int diff_markdown(struct report_buf *out, const struct diff *d, const char *name_a,
		  const char *name_b);

#endif
