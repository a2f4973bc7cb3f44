/* report_json.h - the JSON report (gpuplan(1), JSON REPORT), built with cJSON.
 *
 * The writer's one file that includes cJSON.h (the reader's is hf_int.h); callers
 * see cJSON trees only as struct cJSON pointers they build with the
 * report_json_object/array/number/string/bool/null values, pass back here, or free with
 * report_json_free(): the front ends' sweep and calibrate documents are built so.
 */
#ifndef GPUPLAN_REPORT_JSON_H
#define GPUPLAN_REPORT_JSON_H

#include "catalog.h"
#include "diff.h"
#include "error.h"
#include "plan.h"
#include "scenario.h"
#include "search.h"
#include "validate.h"

struct cJSON;

#define REPORT_JSON_SCHEMA	    "gpuplan.report/1"
#define REPORT_JSON_DIFF_SCHEMA	    "gpuplan.diff/1"
#define REPORT_JSON_VALIDATE_SCHEMA "gpuplan.validate/1"

/* The whole report of s and its plan p as a new cJSON object: every documented key (a figure
 * that does not apply is null, bytes and parameter counts are integers) plus compatible
 * extras (layout, memory.per_gpu.overhead_parts, memory.host, compute.hfu,
 * compute.peak_flops, time.parts, assumptions). NULL when out of memory. The caller frees
 * it with report_json_free(). */
struct cJSON *report_json_build(const struct scenario *s, const struct plan *p);

/* The same report, its warnings led by warns (scenario_ignored_fields: the fields the
 * workload kind or framework ignores) as "FILE:LINE:COL: message", as check --json gives
 * them; a framework-conflict warning of the plan's that one of them places is left out.
 * warns may be NULL (report_json_build). */
struct cJSON *report_json_build_warned(const struct scenario *s, const struct plan *p,
				       const struct gp_problems *warns);

/* One top-level section of that report ("time", "throughput", "latency", "cost",
 * "bottleneck", "memory", ...), for reports that embed parts of it (`search --json`).
 * NULL for an unknown name or when out of memory. */
struct cJSON *report_json_section(const struct scenario *s, const struct plan *p, const char *name);

/* The comparison of two scenarios (`diff --json`): schema, a and b (file, name), inputs
 * [{key, a, b}] (each value whole in canonical file form, never cut as d's are), results
 * [{key, a, b, change, relative}], verdicts [{key, a, b}], and the two full reports under
 * reports.a and reports.b. NULL when out of memory. */
struct cJSON *report_json_diff(const struct diff *d, const struct scenario *a,
			       const struct plan *pa, const struct scenario *b,
			       const struct plan *pb);

/* The search report (gpuplan(1), search --json): evaluated, seconds and results, best
 * first, each with parallel, hardware, memory.fits, memory.per_gpu.total and the report's
 * time, throughput, latency, cost and bottleneck objects, plus meets_target and the
 * workload settings the search chose. s is the scenario searched (each result is applied
 * to a copy of it); cat may be NULL when no result changes the GPU. NULL when out of
 * memory. */
struct cJSON *report_json_search(const struct scenario *s, const struct catalog *cat,
				 const struct search_result *results, int n, long evaluated,
				 double seconds);

#define REPORT_JSON_SOLVE_SCHEMA "gpuplan.solve/1"

/* A goal-seek answer (`solve --json`): {schema, key, goal: "max"|"min", value (SI units),
 * text (the value as a scenario file writes it)}. NULL when out of memory. */
struct cJSON *report_json_solve(const char *key, bool maximize, double value, const char *text);

#define REPORT_JSON_EXPLAIN_SCHEMA "gpuplan.explain/1"

/* One explanation (`explain --json`, gpuplan(1), EXPLAIN JSON): schema, key, label, value
 * (as the JSON report writes that key: SI units, a number, null, a boolean or a word), unit
 * (units_kind_name), formula, terms, result, source, not_applicable (each the text of
 * explain_parts, null when the explanation has none) and text (the explanation as `explain`
 * prints it). NULL when out of memory. */
struct explain_parts;
struct figure;
struct cJSON *report_json_explain(const struct figure *f, const struct plan *p,
				  const struct explain_parts *parts, const char *text);
/* `explain FILE --json` without KEY: schema and keys, the NULL-terminated list. */
struct cJSON *report_json_explain_keys(const char *const *keys);

/* The validation report (`validate --json`, gpuplan(1)): schema, pass, all {count, mape,
 * worst}, groups [{group, title, file, mape_bound, stats, pass}], regimes [{tag, value,
 * stats}] and rows [{id, group, source, tags, scenario, figure, unit, measured,
 * predicted, error, tolerance, pinned}]: errors are signed fractions, null where a row has
 * no tolerance or pin. v as validation_run left it. NULL when out of memory. */
struct cJSON *report_json_validation(const struct validation *v);

#define REPORT_JSON_CHECK_SCHEMA   "gpuplan.check/1"
#define REPORT_JSON_CATALOG_SCHEMA "gpuplan.catalog/1"

/* `check --json`: schema, file (path), ok (no problems), count (every problem, dropped ones
 * included), dropped, and problems [{file, line, column, key, message}] in the order
 * found: file is fallback when the problem names none, line, column and key are null
 * when unknown, message has no FILE:LINE:COL prefix; warnings [message]: each of warns
 * (scenario_ignored_fields: fields the workload kind or framework ignores) as
 * "FILE:LINE:COL: message", then the plan p's other framework-conflict warnings (none when
 * p is NULL or the scenario has problems; warns may be NULL). NULL when out of memory. */
struct cJSON *report_json_check(const char *path, const struct gp_problems *probs,
				const char *fallback, const struct plan *p,
				const struct gp_problems *warns);

/* `catalog --json`: schema, then gpus [{id, name, vendor, memory_bytes, hbm_bytes_per_s,
 * peak_flops {DTYPE: FLOP/s or null}, sparse_flops {...}, link, link_bytes_per_s,
 * link_domain, pcie, pcie_bytes_per_s, power_w, price_per_hour, gpus_per_node,
 * network_bytes_per_s, file}] when gpus, and models [{id, params, active_params, layers,
 * hidden, heads, kv_heads, max_context, file}] when models; SI units, the names of
 * report_catalog_csv. NULL when out of memory. */
struct cJSON *report_json_catalog(const struct catalog *cat, bool gpus, bool models);

/* Prints a tree as indented text ending in a newline, malloc'd (free() it); NULL when out
 * of memory. */
char *report_json_print(const struct cJSON *json);

/* Parses JSON text (a report read back, in tests and golden checks); NULL when it is not
 * JSON. Free with report_json_free(). */
struct cJSON *report_json_parse(const char *text);

enum report_json_kind {
	REPORT_JSON_MISSING,
	REPORT_JSON_NULL,
	REPORT_JSON_BOOL,
	REPORT_JSON_NUMBER,
	REPORT_JSON_STRING,
	REPORT_JSON_ARRAY,
	REPORT_JSON_OBJECT,
};

/* What is at a dotted path ("memory.per_gpu.weights") of a tree. For a number, *number
 * (when not NULL) receives it; for a boolean, 0 or 1; for a string, *text (when not NULL)
 * points into the tree; for an array, *number is its length. */
enum report_json_kind report_json_get(const struct cJSON *json, const char *path, double *number,
				      const char **text);

/* Frees a tree; NULL is a no-op. */
void report_json_free(struct cJSON *json);

/* Adds v to the object o under key (taken whole, dots and all); frees v when it cannot.
 * False when v is NULL (out of memory) or it could not be added. */
bool report_json_add(struct cJSON *o, const char *key, struct cJSON *v);

/* Appends v to the array a, as report_json_add does. */
bool report_json_push(struct cJSON *a, struct cJSON *v);

/* New values for report_json_add and report_json_push, so that the front ends' other
 * documents (sweep, calibrate) need no cJSON.h; NULL when out of memory. A number that is
 * not finite is null, an integer one rounded; a NULL string is null. */
struct cJSON *report_json_object(void);
struct cJSON *report_json_array(void);
struct cJSON *report_json_number(double v, bool integer);
struct cJSON *report_json_string(const char *text);
struct cJSON *report_json_bool(bool b);
struct cJSON *report_json_null(void);

#endif
