/* report.h - a plan as text for people: the 80-column text report and the Markdown review
 * document, and the command line's search, scaling and catalog listings. The figures they
 * list come from the figure table (figure.h).
 *
 * Nothing here prints: each function appends to a struct report_buf, which the front end
 * writes out. Numbers are formatted by units.c.
 */
#ifndef GPUPLAN_REPORT_H
#define GPUPLAN_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "catalog.h"
#include "figure.h"
#include "plan.h"
#include "scenario.h"
#include "search.h"
#include "units.h"

/* A growing, NUL-terminated text buffer. Start it zeroed ({0}); report_buf_release() frees
 * it. An allocation failure sets failed and makes later appends no-ops, so a caller checks
 * once at the end. */
struct report_buf {
	char *data; /* NULL until something is appended */
	size_t len;
	size_t cap;
	bool failed;
};

void report_buf_printf(struct report_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void report_buf_release(struct report_buf *b);

/* Appends the len bytes of text, which came from a file (a name, a note, a value), as
 * Markdown text: every character Markdown or HTML would read as markup escaped
 * (text_markdown_escape), a line break a space. */
void report_buf_markdown(struct report_buf *b, const char *text, size_t len);

/* Appends text as a Markdown code span that nothing in it can end or turn into markup. */
void report_buf_markdown_code(struct report_buf *b, const char *text);

/* Appends label padded to indent columns, then text word-wrapped at 80 columns with every
 * further line indented by indent, then a newline. */
void report_wrap(struct report_buf *b, int indent, const char *label, const char *text);

/* Why no GPU count meets the load, where the plan knows a reason no count changes (a lone
 * request's latency above the SLO, a load past the most GPUs planned): the warning's
 * text in buf. False when the plan has no such warning. */
bool report_fleet_reason(const struct plan *p, char *buf, size_t size);

/* The fewest-GPU layout for the load (capacity_fewest, src/capacity.h) in words, for the
 * reports' "fewest GPUs" row, explain and the UI: the layout, its GPUs and replicas, the
 * batch and the serving policy, against the file's. False when the file's layout is
 * already the fewest or no load is given. */
bool report_fewest_text(const struct scenario *s, const struct plan *p, char *text, size_t size);

/* The source of an efficiency or default the plan used, in a few words, for the
 * assumptions sections: which of the scenario's values were given and which modelled. */
const char *report_source_mfu(const struct scenario *s);
const char *report_source_hbm(const struct scenario *s);
const char *report_source_network(const struct scenario *s);

/* The workload kind's name ("train"), from the field table. */
const char *report_workload_name(enum workload_kind k);

/* The text report, readable at 80 columns: header, itemized memory with a bar per part
 * against the capacity, time, throughput, latency, cost, energy, reliability, the verdicts
 * in the order capacity, bandwidth and interconnect, compute, and the warnings. ASCII only,
 * so it survives any terminal, pipe or e-mail.
 * Returns 0, or -1 when out of memory. */
int report_text(struct report_buf *b, const struct scenario *s, const struct plan *p);

/* The Markdown review document: summary, memory table, time and cost, bottlenecks,
 * warnings and the assumptions used. Returns 0, or -1 when out of memory. */
int report_markdown(struct report_buf *b, const struct scenario *s, const struct plan *p);

/* `gpuplan search` as text for an 80-column terminal: the scenario's name (name when it
 * has none), how many layouts were evaluated in seconds and how many fit, then each of the
 * n ranked results in res in two lines (what to run, then what it gives), or why none
 * fits. cat is the catalog the results' GPUs come from. */
void report_search_text(struct report_buf *b, const struct scenario *s, const struct catalog *cat,
			const struct search_options *opt, const struct search_result *res, int n,
			const struct search_stats *stats, double seconds, const char *name);

/* CSV as RFC 4180 reads it: a field that holds a comma, a double quote, a CR or an LF is
 * quoted, its quotes doubled; rows end in LF (as the scaling CSV always has), which every
 * CSV reader accepts. Start a writer as {b, 0}; each field after the first of a row is
 * preceded by a comma; report_csv_end() ends the row. */
struct report_csv {
	struct report_buf *b;
	int col; /* fields written in the current row */
};

/* A text field; NULL is an empty field. */
void report_csv_str(struct report_csv *w, const char *text);
/* A number in SI units: whole numbers (integer, or bytes and counts) without a fraction,
 * others with 10 significant digits; an empty field when v does not apply (NAN, inf). */
void report_csv_num(struct report_csv *w, double v, bool integer);
void report_csv_bool(struct report_csv *w, bool v);
void report_csv_end(struct report_csv *w);

/* `search --csv`: a header, then one row per result, best first: rank, the layout under
 * the scenario file's keys and values (hardware.gpu, parallel.offload as
 * "optimizer+params", workload.recompute, ...; the fields the workload does not read are
 * empty), then the figures under the JSON report's keys in SI units. s is the scenario
 * searched; cat as for report_search_text. */
void report_search_csv(struct report_buf *b, const struct scenario *s, const struct catalog *cat,
		       const struct search_result *res, int n);

/* `gpuplan catalog gpus --csv` (gpus true) or `catalog models --csv`: a header, then one
 * row per entry in catalog order; figures in SI units, a precision a GPU lacks empty; file
 * is where the entry came from. The names are those of catalog --json. */
void report_catalog_csv(struct report_buf *b, const struct catalog *cat, bool gpus);

struct diff;
struct validation;

/* `diff --csv`: a header (section,key,a,b,change,relative), then a row per changed verdict
 * (section "verdict", a and b as diff --json writes them), per input that differs
 * ("input", the whole values in canonical file form, never cut) and per result that
 * differs ("result", SI units; change is b - a, relative (b - a) / |a|, empty when they
 * do not apply). sa and sb are the scenarios d compared. */
void report_diff_csv(struct report_buf *b, const struct diff *d, const struct scenario *sa,
		     const struct scenario *sb);

/* `validate --csv`: a header, then one row per measured row of v as validation_run left
 * it: id, group, source, the four tags, scenario, the sets joined by ";", figure, unit,
 * measured, predicted, error (a signed fraction), tolerance and pinned (empty when none). */
void report_validation_csv(struct report_buf *b, const struct validation *v);

/* `search --scaling`: the GPU counts it runs, powers of two from 1 to 1,024 (the terminal
 * view's range, which starts at 8), or to four times the scenario's when that is more;
 * writes at most max to counts and returns how many. */
int report_scaling_counts(const struct scenario *s, int *counts, int max);

/* The n results of search_scaling() at counts (for scenario s0) as CSV in SI units, with a
 * header line: search --csv's layout columns and figures under the scenario file's and the
 * JSON report's keys, values as a scenario file writes them (optimizer+params), then
 * compute.mfu, bottleneck.binding and efficiency, tokens/s per GPU against the fewest GPUs
 * that fit; a count where nothing fits has its hardware.count, memory.fits false and
 * empty fields. */
void report_scaling_csv(struct report_buf *b, const struct scenario *s0, const struct catalog *cat,
			const int *counts, const struct search_result *res, int n);

/* `gpuplan catalog`: the GPUs (dense peaks per precision, the sparse figures apart, memory,
 * bandwidths, power, price) and the models (parameters counted from each config), each
 * under the file or folder it came from; a blank line between the two when both. */
void report_catalog(struct report_buf *b, const struct catalog *cat, bool gpus, bool models);

#endif
