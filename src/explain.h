/* explain.h - how each figure of the report is derived, in words fit for a projector.
 *
 * `gpuplan explain FILE KEY` prints, for one key of the JSON report: the formula in
 * symbols, the same formula with this scenario's numbers, the result, and where the
 * formula comes from. Lines stay within 80 columns. Pure: no allocation, no I/O.
 */
#ifndef GPUPLAN_EXPLAIN_H
#define GPUPLAN_EXPLAIN_H

#include <stddef.h>

#include "error.h"
#include "plan.h"
#include "scenario.h"

/* Writes the explanation of key (as in the JSON report, e.g. "memory.per_gpu.optimizer")
 * for s and its plan p (from plan_compute) into buf, always terminated, truncated at size.
 * Returns 0, or -1 with err saying "unknown key 'x' (did you mean 'y'?)" (GP_EUSAGE). */
int explain_key(const struct scenario *s, const struct plan *p, const char *key, char *buf,
		size_t size, struct gp_error *err);

/* The same, wrapped at width columns (explain_key: 80), or with width 0 one line a
 * paragraph, for a reader that wraps to its own width (the terminal UI). */
int explain_key_wrapped(const struct scenario *s, const struct plan *p, const char *key, int width,
			char *buf, size_t size, struct gp_error *err);

/* Every key explain_key knows, NULL-terminated, in report order: each numeric key of the
 * JSON report, then memory.fits and bottleneck.binding. Static storage. */
const char *const *explain_keys(void);

/* The known key closest to key, or NULL when none is close. */
const char *explain_suggest(const char *key);

/* The three verdicts the text report and the results pane give, in the order people should
 * judge a plan (seed case 15): capacity (does it load), then bandwidth and interconnect
 * (does it run well), then compute. */
enum verdict_state { VERDICT_OK, VERDICT_WARN, VERDICT_FAIL };

struct explain_verdict {
	const char *topic; /* "capacity", "bandwidth and interconnect", "compute" */
	enum verdict_state state;
	char text[160]; /* one line: "fits: 61.2 GB of 80 GB (77%)" */
};

#define EXPLAIN_VERDICTS 3

/* Fills out[0..2] in that order. */
void explain_verdicts(const struct plan *p, struct explain_verdict out[EXPLAIN_VERDICTS]);

#endif
