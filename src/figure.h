/* figure.h - every output figure once: its JSON key, its labels, its unit, where its value
 * lives in struct plan, which lists show it and in what order, and its explanation.
 *
 * One row a figure, as htop's MeterClass gives one struct to everything about a meter.
 * The JSON report writes every row at its key, `diff` compares the numbers, the text and
 * Markdown reports and the terminal UI's results pane list the rows whose place in their
 * list is not 0, and `gpuplan explain KEY` calls the row's explain function. A new figure
 * is one row here plus one explain function in explain_*.c; a detail of one (a part of the
 * step) is one row with FIGURE_DETAIL and its parent's function.
 *
 * Pure: static tables and lookups, no allocation, no I/O.
 */
#ifndef GPUPLAN_FIGURE_H
#define GPUPLAN_FIGURE_H

#include <stdbool.h>
#include <stddef.h>

#include "plan.h"
#include "scenario.h"
#include "units.h"

/* The part of the report a figure belongs to. The text report titles time (compute, time,
 * throughput, latency, capacity plan), cost (cost and energy) and reliability apart. */
enum figure_section {
	FIGURE_MODEL,
	FIGURE_MEMORY,
	FIGURE_TIME,
	FIGURE_COST,
	FIGURE_RELIABILITY,
	FIGURE_BOTTLENECK,
};

/* How the results pane writes a figure (figure_format_short). */
enum figure_format {
	FIGURE_FMT_NONE, /* not shown by the pane: "" */
	FIGURE_FMT_SECONDS,
	FIGURE_FMT_TOKENS, /* "58.7k tok/s" */
	FIGURE_FMT_RATIO,
	FIGURE_FMT_USD,
	FIGURE_FMT_KWH, /* kWh up to TWh */
	FIGURE_FMT_COUNT,
	FIGURE_FMT_BYTES,
	FIGURE_FMT_SHARE, /* "78%", " (binding)" after the binding bottleneck's */
	/* an offered load (serving.utilisation: arrivals over capacity): "51.8%" up to 1,
	 * "overloaded (offered load 15.2x)" above; the pane's "52%", "load 15.2x" */
	FIGURE_FMT_LOAD,
};

/* A figure's place in a list, for a training and for an inference plan: 1 first, 0 where
 * the list does not show it. Places are ordered, not dense. */
struct figure_place {
	unsigned char train, infer;
};

/* flags */
#define FIGURE_PART	  0x1u	/* a part of memory.per_gpu.total, drawn in the memory bar */
#define FIGURE_BOOL	  0x2u	/* a word row whose value is true or false (JSON bool) */
#define FIGURE_HEAD_BARE  0x4u	/* explain's headline without the suffix */
#define FIGURE_HEAD_COUNT 0x8u	/* explain's headline as a bare count ("1.2B") */
#define FIGURE_HEAD_PLAIN 0x10u /* explain's headline as a bare plain number */
/* A detail of another figure (a part of the step, of the overhead; HFU beside MFU): in the
 * JSON report, `diff`, `explain` (its value, then its parent's explanation: figure_parent)
 * and `sweep --y`, in no list of the reports or the pane, not charted by the UI. */
#define FIGURE_DETAIL	 0x20u
#define FIGURE_TIME_PART 0x40u /* a part of time.step_s, in plan_part_get's order */
/* A part of memory.per_gpu.overhead (a FIGURE_DETAIL): the text and Markdown reports list
 * these under the overhead, and they add up to it (plan_memory.c) */
#define FIGURE_OVERHEAD_PART 0x80u

/* explain.c's writer, which the explain functions append to. */
struct ex;

struct figure {
	const char *key;	 /* the JSON report's path: "memory.per_gpu.weights" */
	const char *label;	 /* the reports': "weights" */
	const char *short_label; /* the results pane's, at most 12 columns; NULL: not there */
	const char *tiny_label;	 /* the narrowest (the pane's legend, the search view); or NULL */
	/* The reports' label where an engine's running cap (serving.max_running: vLLM's
	 * max_num_seqs) holds the batch below the figure's value: capacity_plan.max_batch,
	 * the KV pool's bound, reads "KV pool holds" then (figure_label); NULL elsewhere */
	const char *capped_label;
	enum unit_kind unit; /* of the value, for the reports and `diff` */
	const char *suffix;  /* appended to the reports' human form (" tokens/s"), or NULL */
	enum figure_format format;
	size_t offset; /* of the double in struct plan; 0 for a word row */
	/* A word row (memory.fits, bottleneck.binding): its value (1 or 0, the bottleneck) and
	 * its word ("true", "hbm_bandwidth"). NULL for a number. */
	double (*get)(const struct plan *p);
	const char *(*word)(const struct plan *p);
	/* A number that codes a name (serving.scheduler: an enum's value): the name of a
	 * value, which the reports and `diff` print instead of the number. NULL otherwise. */
	const char *(*name)(double value);
	bool integer;	  /* written as a whole number in JSON (bytes, parameter counts) */
	int better;	  /* +1 higher is better, -1 lower is better, 0 neither (the pane's mark) */
	unsigned applies; /* APPLIES_*: the workloads whose results pane lists it, and of a
			   * memory part (FIGURE_PART) those whose reports list it */
	enum figure_section section;
	/* in the text report's time, cost and reliability sections and the Markdown
	 * document's table of them: one list for both */
	struct figure_place text;
	unsigned char pane; /* in the results pane's figures; 0: not there */
	/* in `search --csv`'s (and --scaling's) figure columns, for every workload: they
	 * compare layouts, so one set of columns; 0: not there */
	unsigned char csv;
	unsigned flags; /* FIGURE_* */
	/* Writes how the figure is derived, after the headline explain.c writes. */
	void (*explain)(struct ex *e, const struct scenario *s, const struct plan *p);
};

/* Every figure in the JSON report's order, terminated by a row whose key is NULL; at most
 * FIGURE_MAX rows (test_figure.c checks). */
#define FIGURE_MAX 256
extern const struct figure figures[];

/* Outside the table: details, not figures. The JSON report also writes these, which are
 * no number of struct plan that `diff` could compare or `explain` derive:
 *   model.shape_assumed, model.preset  whether the shape was assumed (a bool of the plan
 *                                      about its input) and the preset the scenario named
 *   warnings                           the plan's warnings, as text (plan_warning.c)
 *   layout.*                           the layout the plan ran with: ints of struct plan,
 *                                      resolved from the parallel.* fields, which `diff`
 *                                      compares as inputs
 *   assumptions.*                      the inputs and constants the figures rest on, and
 *                                      their sources (strings)
 *   uncertainty.*                      each figure's error band (band.h), keyed by figure
 * The inference pane's decode-step terms are struct plan_decode's (ui/pane_results.c),
 * which the JSON report does not write. */

/* The figure with this key, or NULL. */
const struct figure *figure_find(const char *key);

/* Whether f is a number (not a word row). */
bool figure_is_number(const struct figure *f);

/* The figure's value in p (NAN when it does not apply). */
double figure_value(const struct figure *f, const struct plan *p);

/* The figure's value for the reports: "75.2 GiB", "1.2M tokens/s", "-" for NAN; a coded
 * number's name (figure.name); an offered load as FIGURE_FMT_LOAD says. Returns buf. */
char *figure_format(const struct figure *f, double value, char *buf, size_t size);

/* The figure's label in the reports for p: its capped_label where an engine's running cap
 * holds the batch below its value, its label otherwise. */
const char *figure_label(const struct figure *f, const struct plan *p);

/* The figure's value in p for the reports: figure_format's, and after a capped_label's
 * value the cap that holds it ("839 sequences (engine runs at most 256)"). Returns buf. */
char *figure_format_plan(const struct figure *f, const struct plan *p, char *buf, size_t size);

/* The figure's value in p for the results pane ("58.7k tok/s", "3.2 TWh"); "" when the
 * pane does not show it (FIGURE_FMT_NONE). A capped_label's figure under its cap reads the
 * cap, then the value: "256 (KV 839)". Returns buf. */
char *figure_format_short(const struct figure *f, const struct plan *p, char *buf, size_t size);

/* The rows of a list in its order, for a training or an inference plan (the CSV's list is
 * the same for both): those of section (or of every section when section is negative)
 * whose place in the list is not 0. Returns how many it wrote to out, at most max. */
enum figure_list { FIGURE_LIST_TEXT, FIGURE_LIST_PANE, FIGURE_LIST_CSV };
int figure_list(enum figure_list list, enum workload_kind kind, int section,
		const struct figure **out, int max);

/* The i-th part of the memory total (FIGURE_PART rows in order), or NULL past the last. */
const struct figure *figure_memory_part(int i);

/* The i-th part of the overhead (FIGURE_OVERHEAD_PART rows in order), or NULL past the
 * last: the one list of them the text and Markdown reports print. */
const struct figure *figure_overhead_part(int i);

/* The i-th part of the step (FIGURE_TIME_PART rows, in plan_part_get's order: time.parts.*),
 * or NULL past the last (PLAN_PARTS). */
const struct figure *figure_time_part(int i);

/* The figure a FIGURE_DETAIL row is a detail of: the first row that is no detail and has its
 * explain function. NULL for a row that is no detail. */
const struct figure *figure_parent(const struct figure *f);

/* The share figure of bottleneck b (bottleneck.shares.*), or NULL; which bottleneck a
 * share row is (BN_COUNT for another row). */
const struct figure *figure_bottleneck(enum bottleneck b);
enum bottleneck figure_bottleneck_of(const struct figure *f);

/* The bottleneck's names for people, from its share row: short ("hbm bw") and narrowest
 * ("hbm bw", "network"); its long one is the row's label ("HBM bandwidth") and its key name
 * bottleneck_name() (plan.h). "?" for an unknown one. */
const char *figure_bottleneck_short(enum bottleneck b);
const char *figure_bottleneck_tiny(enum bottleneck b);

#endif
