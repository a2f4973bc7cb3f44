/* search.h - the layouts (and, optionally, GPU types and counts) that fit, ranked.
 *
 * Enumerates parallel layouts for a scenario, keeps those that fit (and meet the deadline
 * or SLO when the scenario gives one), and ranks them by time or cost. Allocation-free:
 * the caller provides the result array; each candidate is a modified copy of one working
 * scenario, its memory computed first and its time only when it fits.
 */
#ifndef GPUPLAN_SEARCH_H
#define GPUPLAN_SEARCH_H

#include <stdbool.h>

#include "catalog.h"
#include "plan.h"
#include "scenario.h"

enum search_by { SEARCH_BY_TIME, SEARCH_BY_COST };

struct search_options {
	enum search_by by;
	int top;	    /* results wanted (at most the array's size) */
	bool hardware;	    /* also over the catalog's GPUs and counts (needs cat) */
	int max_gpus;	    /* largest count tried with hardware; 0 = 4096 */
	bool cross_node_tp; /* allow tp beyond one node's GPUs */
	const struct catalog *cat;
};

/* One ranked candidate: the inputs it changes and the figures it gives. */
struct search_result {
	char gpu[32];
	int count;
	struct parallel parallel;
	int micro_batch;
	enum recompute recompute;
	int batch; /* inference: concurrent sequences (0 = auto) */
	enum dtype weights;
	enum dtype kv_cache;
	double score;	   /* lower is better: seconds per token, or USD per token; online
			    * serving under a load: GPUs required, or their USD per hour */
	double tiebreak;   /* between equal scores, lower is better: the count, then the
			    * end-to-end latency at the SLO percentile as a fraction */
	bool meets_target; /* deadline / SLO met (true when none is given) */
	struct plan plan;
};

struct search_stats {
	long layouts;	/* layouts in the space, including those pruned unseen */
	long evaluated; /* layouts whose memory was computed */
	long fitting;	/* of those, layouts that fit */
	long timed;	/* layouts whose time was computed */
};

/* Searches around s; writes up to opt->top best results (best first) into out and returns
 * how many. Pure: no allocation, no I/O. */
int search_run(const struct scenario *s, const struct search_options *opt,
	       struct search_result *out, struct search_stats *stats);

/* Writes a result's layout into s (the scenario it came from), e.g. to apply it. */
void search_apply(struct scenario *s, const struct catalog *cat, const struct search_result *r);

/* Goal seek: the largest (maximize) or smallest value of the numeric field key for which
 * s still fits and meets its deadline or SLO, keeping everything else. Returns 0 with
 * *value set, or -1 when no value in the field's range works (err says why). */
int search_solve(const struct scenario *s, const char *key, bool maximize, double *value,
		 struct gp_error *err);

/* Whether s with the numeric field key set to v still fits and meets its deadline or SLO,
 * as search_solve tries each value (hardware.count: whole replicas, dp from the count).
 * Allocation-free; one plan. */
bool search_works(const struct scenario *s, const char *key, double v);

/* Scaling: for each GPU count in counts[], the best layout by time. out[i].count == 0 when
 * nothing fits at counts[i]. */
void search_scaling(const struct scenario *s, const struct search_options *opt, const int *counts,
		    int n, struct search_result *out);

/* Whether s asks for more than a fit: a deadline or a TTFT or TPOT SLO, which a layout
 * must meet to count (meets_target); what solve, goal seek and the search view say. */
bool search_has_target(const struct scenario *s);

/* Whether search ranks s's layouts by the fleet its load needs (online, with
 * requests_per_day or requests_per_s): capacity_plan.gpus_required, or its cost. */
bool search_sized_by_load(const struct scenario *s);

#endif
