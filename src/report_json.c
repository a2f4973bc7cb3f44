/* report_json.c - the --json documents (report, diff, search, solve), built with cJSON. */
#include "report_json.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>

#include "band.h"
#include "capacity.h"
#include "dtype.h"
#include "explain.h"
#include "figure.h"
#include "model.h"
#include "report.h"
#include "units.h"

/* The object at a dotted path under root ("memory.per_gpu"), created as needed; NULL when
 * out of memory or when a non-object is in the way. */
static cJSON *object_at(cJSON *root, const char *path, size_t len)
{
	cJSON *o = root;
	const char *p = path, *end = path + len;

	while (o && p < end) {
		const char *dot = memchr(p, '.', (size_t)(end - p));
		size_t n = dot ? (size_t)(dot - p) : (size_t)(end - p);
		char name[64];
		cJSON *child;

		if (n >= sizeof(name))
			return NULL;
		memcpy(name, p, n);
		name[n] = '\0';
		child = cJSON_GetObjectItemCaseSensitive(o, name);
		if (!child)
			child = cJSON_AddObjectToObject(o, name);
		else if (!cJSON_IsObject(child))
			return NULL;
		o = child;
		p += n + (dot ? 1 : 0);
	}
	return o;
}

/* A number, or null when it does not apply (NAN) or is not finite. */
static cJSON *number(double v, bool integer)
{
	if (!isfinite(v))
		return cJSON_CreateNull();
	return cJSON_CreateNumber(integer ? round(v) : v);
}

/* Adds value at a dotted key ("memory.per_gpu.weights"); frees value on failure.
 * Returns 0 or -1. */
static int put(cJSON *root, const char *key, cJSON *value)
{
	const char *last = strrchr(key, '.');
	cJSON *o;

	if (!value)
		return -1;
	o = last ? object_at(root, key, (size_t)(last - key)) : root;
	if (!o || !cJSON_AddItemToObject(o, last ? last + 1 : key, value)) {
		cJSON_Delete(value);
		return -1;
	}
	return 0;
}

static int put_num(cJSON *root, const char *key, double v, bool integer)
{
	return put(root, key, number(v, integer));
}

static int put_str(cJSON *root, const char *key, const char *text)
{
	return put(root, key, text ? cJSON_CreateString(text) : cJSON_CreateNull());
}

/* "uncertainty": for each figure that carries an error band (band.h) and has a value,
 * its band from the validation residuals of its regime, keyed by the figure's key. */
static int put_uncertainty(cJSON *r, const struct scenario *s, const struct plan *p)
{
	cJSON *u = cJSON_AddObjectToObject(r, "uncertainty");
	int bad = !u;

	for (const struct figure *f = figures; u && f->key; f++) {
		struct band band;
		double v = f->word ? NAN : figure_value(f, p);
		cJSON *o;
		if (!isfinite(v) || !band_lookup(s, f->key, v, &band))
			continue;
		o = cJSON_AddObjectToObject(u, f->key);
		if (!o ||
		    !cJSON_AddItemToObject(o, "validated", cJSON_CreateBool(band.validated)) ||
		    !cJSON_AddItemToObject(o, "lo", number(band.lo, false)) ||
		    !cJSON_AddItemToObject(o, "hi", number(band.hi, false)) ||
		    !cJSON_AddItemToObject(o, "band", number(band.pct, false)) ||
		    !cJSON_AddItemToObject(o, "indicative", cJSON_CreateBool(band.indicative)) ||
		    !cJSON_AddItemToObject(o, "regime", cJSON_CreateString(band.regime)) ||
		    !cJSON_AddItemToObject(o, "n",
					   cJSON_CreateNumber(band.entry ? band.entry->n : 0)) ||
		    !cJSON_AddItemToObject(o, "mape",
					   number(band.entry ? band.entry->mape : NAN, false)) ||
		    !cJSON_AddItemToObject(o, "runs",
					   band.entry ? cJSON_CreateString(band.entry->runs)
						      : cJSON_CreateNull()) ||
		    !cJSON_AddItemToObject(o, "gpus",
					   band.entry ? cJSON_CreateString(band.entry->gpus)
						      : cJSON_CreateNull()))
			bad = 1;
	}
	return bad;
}

/* item appended to array; -1 (item freed) when either is NULL or out of memory */
static int add_to(cJSON *array, cJSON *item)
{
	if (!item || !cJSON_AddItemToArray(array, item)) {
		cJSON_Delete(item);
		return -1;
	}
	return 0;
}

/* Whether warns holds a warning placed at key (a field scenario_ignored_fields names). */
static bool warns_have(const struct gp_problems *warns, const char *key)
{
	for (int i = 0; warns && key && i < warns->count; i++)
		if (strcmp(warns->items[i].field, key) == 0)
			return true;
	return false;
}

static int build_into(cJSON *r, const struct scenario *s, const struct plan *p,
		      const struct gp_problems *warns)
{
	int bad = 0;
	cJSON *warnings;

	bad |= put_str(r, "schema", REPORT_JSON_SCHEMA);
	bad |= put_str(r, "scenario.name", s->name);
	bad |= put_str(r, "scenario.file", s->path[0] ? s->path : NULL);
	for (const struct figure *f = figures; f->key; f++) {
		if (f->flags & FIGURE_BOOL)
			bad |= put(r, f->key, cJSON_CreateBool(figure_value(f, p) != 0));
		else if (f->word)
			bad |= put_str(r, f->key, f->word(p));
		else
			bad |= put_num(r, f->key, figure_value(f, p), f->integer);
	}

	/* details, not figures (figure.h), after the figures of their object */
	bad |= put(r, "model.shape_assumed", cJSON_CreateBool(p->shape_assumed));
	bad |= put_str(r, "model.preset", s->model.preset[0] ? s->model.preset : NULL);

	warnings = cJSON_AddArrayToObject(r, "warnings");
	if (!warnings)
		bad = 1;
	/* the fields the workload kind or framework ignores, at their places, as check
	 * --json gives them; then the plan's, less the conflicts those already name */
	for (int i = 0; warnings && warns && i < warns->count; i++) {
		char msg[GP_PATH_MAX + 600];
		bad |=
		    add_to(warnings,
			   cJSON_CreateString(gp_error_format(&warns->items[i], msg, sizeof(msg))));
	}
	for (int i = 0; warnings && i < p->nwarnings && i < PLAN_MAX_WARNINGS; i++) {
		char msg[320];
		if (plan_warning_field_ignored(&p->warnings[i]) &&
		    warns_have(warns, plan_warning_conflict_key(&p->warnings[i])))
			continue;
		bad |= add_to(warnings, cJSON_CreateString(plan_warning_format(&p->warnings[i], msg,
									       sizeof(msg))));
	}

	bad |= put_num(r, "layout.tp", p->tp, true);
	bad |= put_num(r, "layout.pp", p->pp, true);
	bad |= put_num(r, "layout.dp", p->dp, true);
	bad |= put_num(r, "layout.ep", p->ep, true);
	bad |= put_num(r, "layout.cp", p->cp, true);
	bad |= put_num(r, "layout.virtual_stages", p->virtual_stages, true);
	bad |= put_num(r, "layout.zero", p->zero, true);
	bad |= put_num(r, "layout.micro_batches", p->micro_batches, true);
	bad |= put_num(r, "layout.global_batch", p->global_batch, true);

	bad |= put_str(r, "assumptions.gpu", s->hardware.gpu.id);
	bad |= put_str(r, "assumptions.precision", dtype_name(p->precision));
	/* whose behaviour the figures follow (issue 12: the report names the framework) */
	bad |= put_str(r, "assumptions.framework", framework_name(s->workload.framework));
	bad |=
	    put_str(r, "assumptions.framework_title",
		    framework_title(s->workload.framework,
				    s->workload.kind == WL_ONLINE || s->workload.kind == WL_OFFLINE,
				    p->engine == ENGINE_CUDA_GRAPHS));
	if (s->workload.kind == WL_ONLINE || s->workload.kind == WL_OFFLINE)
		bad |= put_str(r, "assumptions.engine",
			       scenario_enum_name("workload.engine", (int)p->engine));
	bad |= put_num(r, "assumptions.peak_flops", p->peak_flops, false);
	bad |= put_num(r, "assumptions.matmul_efficiency", p->matmul_efficiency, false);
	bad |= put_str(r, "assumptions.matmul_efficiency_source", report_source_mfu(s));
	bad |= put_num(r, "assumptions.hbm_efficiency", p->hbm_efficiency, false);
	bad |= put_str(r, "assumptions.hbm_efficiency_source", report_source_hbm(s));
	bad |= put_num(r, "assumptions.network_efficiency", p->network_efficiency, false);
	bad |= put_str(r, "assumptions.network_efficiency_source", report_source_network(s));
	bad |= s->profile[0] ? put_str(r, "assumptions.profile", s->profile)
			     : put(r, "assumptions.profile", cJSON_CreateNull());
	bad |= put_num(r, "assumptions.pue", s->hardware.pue, false);
	bad |= put_num(r, "assumptions.mtbf_gpu_hours", s->hardware.mtbf_gpu_hours, false);
	bad |= put_num(r, "assumptions.price_per_gpu_hour", s->hardware.gpu.price_per_hour, false);
	bad |= put_uncertainty(r, s, p);
	return bad ? -1 : 0;
}

/* capacity_plan.fewest: the layout that meets the load with the fewest GPUs
 * (capacity_fewest, src/capacity.c), null when the file's is already the fewest or no
 * load is given. */
static int put_fewest(cJSON *r, const struct scenario *s, const struct plan *p)
{
	struct capacity_fewest f;
	cJSON *o;
	int bad = 0;

	if (!capacity_fewest(s, p, &f))
		return put(r, "capacity_plan.fewest", cJSON_CreateNull());
	if (!(o = cJSON_CreateObject()))
		return -1;
	bad |= put_num(o, "tp", f.tp, true);
	bad |= put_num(o, "pp", f.pp, true);
	bad |= put_num(o, "ep", f.ep, true);
	bad |= put_num(o, "gpus_required", f.gpus_required, true);
	bad |= put_num(o, "replicas", f.replicas, true);
	bad |= put_num(o, "batch", f.batch, false);
	bad |= put_str(o, "policy",
		       scheduler_name(isnan(f.scheduler) ? SCHED_ALONE : (int)f.scheduler));
	bad |= put_num(o, "ttft_at_slo_s", f.ttft_slo_s, false);
	bad |= put_num(o, "tpot_at_slo_s", f.tpot_slo_s, false);
	bad |= put(o, "meets_target", cJSON_CreateBool(f.meets));
	if (bad) {
		cJSON_Delete(o);
		return -1;
	}
	return put(r, "capacity_plan.fewest", o);
}

/* The report, with or without capacity_plan.fewest (a search result is itself a
 * candidate layout: it plans no others), with warns (may be NULL) first in warnings. */
static cJSON *build(const struct scenario *s, const struct plan *p, bool fewest,
		    const struct gp_problems *warns)
{
	cJSON *r = cJSON_CreateObject();

	if (r && (build_into(r, s, p, warns) != 0 || (fewest && put_fewest(r, s, p) != 0))) {
		cJSON_Delete(r);
		return NULL;
	}
	return r;
}

struct cJSON *report_json_build_warned(const struct scenario *s, const struct plan *p,
				       const struct gp_problems *warns)
{
	return build(s, p, true, warns);
}

struct cJSON *report_json_build(const struct scenario *s, const struct plan *p)
{
	return build(s, p, true, NULL);
}

struct cJSON *report_json_section(const struct scenario *s, const struct plan *p, const char *name)
{
	cJSON *r = report_json_build(s, p), *sec;

	if (!r)
		return NULL;
	sec = cJSON_DetachItemFromObjectCaseSensitive(r, name);
	cJSON_Delete(r);
	return sec;
}

static cJSON *verdict(const char *key, const char *a, const char *b)
{
	cJSON *v = cJSON_CreateObject();

	if (v && (!cJSON_AddStringToObject(v, "key", key) || !cJSON_AddStringToObject(v, "a", a) ||
		  !cJSON_AddStringToObject(v, "b", b))) {
		cJSON_Delete(v);
		return NULL;
	}
	return v;
}

struct cJSON *report_json_diff(const struct diff *d, const struct scenario *a,
			       const struct plan *pa, const struct scenario *b,
			       const struct plan *pb)
{
	cJSON *r = cJSON_CreateObject(), *inputs, *results, *verdicts, *ra, *rb;
	size_t size = 2 * sizeof(a->notes) + 64; /* the longest field, notes, whole */
	char *text = malloc(size);
	int bad = 0;

	if (!r || !text) {
		cJSON_Delete(r);
		free(text);
		return NULL;
	}
	bad |= put_str(r, "schema", REPORT_JSON_DIFF_SCHEMA);
	bad |= put_str(r, "a.file", a->path[0] ? a->path : NULL);
	bad |= put_str(r, "a.name", a->name);
	bad |= put_str(r, "b.file", b->path[0] ? b->path : NULL);
	bad |= put_str(r, "b.name", b->name);
	inputs = cJSON_AddArrayToObject(r, "inputs");
	results = cJSON_AddArrayToObject(r, "results");
	verdicts = cJSON_AddArrayToObject(r, "verdicts");
	if (!inputs || !results || !verdicts) {
		cJSON_Delete(r);
		free(text);
		return NULL;
	}
	/* d's values are cut to fit the text's columns: JSON carries each whole, newlines and
	 * all, formatted again from the two scenarios */
	for (int i = 0; i < d->ninputs; i++) {
		const struct field *f = d->inputs[i].field;
		cJSON *o = cJSON_CreateObject();
		if (o &&
		    (!cJSON_AddStringToObject(o, "key", f->key) ||
		     !cJSON_AddStringToObject(o, "a", scenario_field_format(a, f, text, size)) ||
		     !cJSON_AddStringToObject(o, "b", scenario_field_format(b, f, text, size))))
			bad = 1;
		bad |= add_to(inputs, o);
	}
	free(text);
	for (int i = 0; i < d->nresults; i++) {
		const struct diff_result *x = &d->results[i];
		bool integer = x->figure->integer;
		cJSON *o = cJSON_CreateObject();
		if (o && (!cJSON_AddStringToObject(o, "key", x->figure->key) ||
			  !cJSON_AddItemToObject(o, "a", number(x->a, integer)) ||
			  !cJSON_AddItemToObject(o, "b", number(x->b, integer)) ||
			  !cJSON_AddItemToObject(o, "change", number(x->change, integer)) ||
			  !cJSON_AddItemToObject(o, "relative", number(x->relative, false))))
			bad = 1;
		bad |= add_to(results, o);
	}
	if (d->fits_changed)
		bad |= add_to(verdicts, verdict("memory.fits", d->fits_a ? "fits" : "does not fit",
						d->fits_b ? "fits" : "does not fit"));
	if (d->binding_changed)
		bad |= add_to(verdicts, verdict("bottleneck.binding", bottleneck_name(d->binding_a),
						bottleneck_name(d->binding_b)));
	ra = report_json_build(a, pa);
	rb = report_json_build(b, pb);
	bad |= put(r, "reports.a", ra);
	bad |= put(r, "reports.b", rb);
	if (bad) {
		cJSON_Delete(r);
		return NULL;
	}
	return r;
}

static cJSON *search_result(const struct scenario *s0, const struct catalog *cat,
			    const struct search_result *r)
{
	static const char *const sections[] = {"time",		"throughput", "latency",
					       "capacity_plan", "cost",	      "bottleneck"};
	struct scenario s = *s0;
	cJSON *o = cJSON_CreateObject(), *full;
	int bad = 0;

	if (!o)
		return NULL;
	search_apply(&s, cat, r);
	bad |= put_num(o, "parallel.tp", r->parallel.tp, true);
	bad |= put_num(o, "parallel.pp", r->parallel.pp, true);
	bad |= put_num(o, "parallel.dp", r->plan.dp, true);
	bad |= put_num(o, "parallel.ep", r->parallel.ep, true);
	bad |= put_num(o, "parallel.cp", r->parallel.cp, true);
	bad |= put_num(o, "parallel.zero", r->plan.zero, true); /* the stage the plan ran */
	bad |= put_num(o, "parallel.micro_batch", r->micro_batch, true);
	bad |= put_str(o, "parallel.recompute",
		       scenario_enum_name("workload.recompute", (int)r->recompute));
	bad |=
	    put(o, "parallel.sequence_parallel", cJSON_CreateBool(r->parallel.sequence_parallel));
	bad |= put_str(o, "parallel.offload",
		       scenario_enum_name("parallel.offload", (int)r->parallel.offload));
	bad |= put_num(o, "parallel.virtual_stages", r->parallel.virtual_stages, true);
	bad |= put_str(o, "hardware.gpu", r->gpu);
	bad |= put_num(o, "hardware.count", r->count, true);
	bad |= put(o, "memory.fits", cJSON_CreateBool(r->plan.mem.fits));
	bad |= put_num(o, "memory.per_gpu.total", r->plan.mem.total, true);
	if (s.workload.kind == WL_ONLINE || s.workload.kind == WL_OFFLINE) {
		/* the batch the plan ran, as the report writes auto values resolved; batch_auto
		 * says the search left it to workload.batch auto */
		bad |= put_num(o, "workload.batch", plan_batch(&s, &r->plan), true);
		bad |= put(o, "workload.batch_auto", cJSON_CreateBool(r->batch <= 0));
		bad |= put_str(o, "workload.weights", dtype_name(r->weights));
		bad |= put_str(o, "workload.kv_cache", dtype_name(r->kv_cache));
	}
	bad |= put(o, "meets_target", cJSON_CreateBool(r->meets_target));
	bad |= put_num(o, "score", r->score, false);
	full = build(&s, &r->plan, false, NULL);
	if (!full)
		bad = 1;
	for (size_t i = 0; full && i < sizeof(sections) / sizeof(sections[0]); i++)
		bad |=
		    put(o, sections[i], cJSON_DetachItemFromObjectCaseSensitive(full, sections[i]));
	cJSON_Delete(full);
	if (bad) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

struct cJSON *report_json_search(const struct scenario *s, const struct catalog *cat,
				 const struct search_result *results, int n, long evaluated,
				 double seconds)
{
	cJSON *r = cJSON_CreateObject(), *list;
	int bad = 0;

	if (!r)
		return NULL;
	bad |= put_str(r, "schema", "gpuplan.search/1");
	bad |= put_num(r, "evaluated", (double)evaluated, true);
	bad |= put_num(r, "seconds", seconds, false);
	list = cJSON_AddArrayToObject(r, "results");
	if (!list)
		bad = 1;
	for (int i = 0; list && i < n; i++)
		bad |= add_to(list, search_result(s, cat, &results[i]));
	if (bad) {
		cJSON_Delete(r);
		return NULL;
	}
	return r;
}

struct cJSON *report_json_solve(const char *key, bool maximize, double value, const char *text)
{
	cJSON *r = cJSON_CreateObject();
	int bad = 0;

	if (!r)
		return NULL;
	bad |= put_str(r, "schema", REPORT_JSON_SOLVE_SCHEMA);
	bad |= put_str(r, "key", key);
	bad |= put_str(r, "goal", maximize ? "max" : "min");
	bad |= put_num(r, "value", value, false);
	bad |= put_str(r, "text", text);
	if (bad) {
		cJSON_Delete(r);
		return NULL;
	}
	return r;
}

struct cJSON *report_json_explain_keys(const char *const *keys)
{
	cJSON *r = cJSON_CreateObject(), *list = cJSON_CreateArray();
	int bad = !list || put_str(r, "schema", REPORT_JSON_EXPLAIN_SCHEMA);

	if (!r) {
		cJSON_Delete(list);
		return NULL;
	}
	for (; !bad && *keys; keys++) {
		cJSON *k = cJSON_CreateString(*keys);
		bad |= !k || !cJSON_AddItemToArray(list, k);
	}
	if (bad || !cJSON_AddItemToObject(r, "keys", list)) {
		cJSON_Delete(list);
		cJSON_Delete(r);
		return NULL;
	}
	return r;
}

/* A part of an explanation: its text, or null when it has none. */
static int put_part(cJSON *r, const char *key, const char *text)
{
	return put_str(r, key, text[0] ? text : NULL);
}

struct cJSON *report_json_explain(const struct figure *f, const struct plan *p,
				  const struct explain_parts *parts, const char *text)
{
	cJSON *r = cJSON_CreateObject();
	int bad = 0;

	if (!r)
		return NULL;
	bad |= put_str(r, "schema", REPORT_JSON_EXPLAIN_SCHEMA);
	bad |= put_str(r, "key", f->key);
	bad |= put_str(r, "label", f->label);
	/* the value as build_into writes the figure */
	if (f->flags & FIGURE_BOOL)
		bad |= put(r, "value", cJSON_CreateBool(figure_value(f, p) != 0));
	else if (f->word)
		bad |= put_str(r, "value", f->word(p));
	else
		bad |= put_num(r, "value", figure_value(f, p), f->integer);
	bad |= put_str(r, "unit", units_kind_name(f->unit));
	bad |= put_part(r, "formula", parts->formula);
	bad |= put_part(r, "terms", parts->terms);
	bad |= put_part(r, "result", parts->result);
	bad |= put_part(r, "source", parts->source);
	bad |= put_part(r, "not_applicable", parts->not_applicable);
	bad |= put_str(r, "text", text);
	if (bad) {
		cJSON_Delete(r);
		return NULL;
	}
	return r;
}

struct cJSON *report_json_check(const char *path, const struct gp_problems *probs,
				const char *fallback, const struct plan *p,
				const struct gp_problems *warns)
{
	cJSON *r = cJSON_CreateObject(), *list;
	int bad = 0;

	if (!r)
		return NULL;
	bad |= put_str(r, "schema", REPORT_JSON_CHECK_SCHEMA);
	bad |= put_str(r, "file", path);
	bad |= put(r, "ok", cJSON_CreateBool(!probs->count && !probs->dropped));
	bad |= put_num(r, "count", probs->count + probs->dropped, true);
	bad |= put_num(r, "dropped", probs->dropped, true);
	list = cJSON_AddArrayToObject(r, "problems");
	if (!list)
		bad = 1;
	for (int i = 0; !bad && i < probs->count; i++) {
		const struct gp_error *e = &probs->items[i];
		cJSON *o = cJSON_CreateObject();

		bad |= add_to(list, o);
		bad |= bad || put_str(o, "file", e->file[0] ? e->file : fallback) ||
		       put_num(o, "line", e->line > 0 ? e->line : NAN, true) ||
		       put_num(o, "column", e->column > 0 ? e->column : NAN, true) ||
		       put_str(o, "key", e->field[0] ? e->field : NULL) ||
		       put_str(o, "message", e->message);
	}
	list = bad ? NULL : cJSON_AddArrayToObject(r, "warnings");
	if (!list)
		bad = 1;
	for (int i = 0; !bad && warns && !probs->count && i < warns->count; i++) {
		char msg[GP_PATH_MAX + 600];
		bad |= add_to(
		    list, cJSON_CreateString(gp_error_format(&warns->items[i], msg, sizeof(msg))));
	}
	for (int i = 0; !bad && p && !probs->count && i < p->nwarnings; i++) {
		char msg[256];
		if (p->warnings[i].code == PW_FRAMEWORK_CONFLICT &&
		    !plan_warning_field_ignored(&p->warnings[i]))
			bad |= add_to(list, cJSON_CreateString(plan_warning_format(
						&p->warnings[i], msg, sizeof(msg))));
	}
	if (bad) {
		cJSON_Delete(r);
		return NULL;
	}
	return r;
}

/* {fp32: FLOP/s, ...}: null for a precision the GPU does not have */
static cJSON *flops_by_dtype(const double *flops)
{
	cJSON *o = cJSON_CreateObject();

	for (int t = 0; o && t < DTYPE_COUNT; t++)
		if (put_num(o, dtype_name(t), flops[t] > 0 ? flops[t] : NAN, true)) {
			cJSON_Delete(o);
			return NULL;
		}
	return o;
}

static cJSON *catalog_gpu(const struct gpu *g, const char *file)
{
	cJSON *o = cJSON_CreateObject();

	if (!o || put_str(o, "id", g->id) || put_str(o, "name", g->name) ||
	    put_str(o, "vendor", g->vendor) || put_num(o, "memory_bytes", g->memory_bytes, true) ||
	    put_num(o, "cuda_total_bytes", g->cuda_total_bytes > 0 ? g->cuda_total_bytes : NAN,
		    true) ||
	    put_num(o, "hbm_bytes_per_s", g->hbm_bytes_per_s, true) ||
	    put(o, "peak_flops", flops_by_dtype(g->peak_flops)) ||
	    put(o, "sparse_flops", flops_by_dtype(g->sparse_flops)) ||
	    put_str(o, "link", g->link) ||
	    put_num(o, "link_bytes_per_s", g->link_bytes_per_s, true) ||
	    put_num(o, "link_domain", g->link_domain, true) || put_str(o, "pcie", g->pcie) ||
	    put_num(o, "pcie_bytes_per_s", g->pcie_bytes_per_s, true) ||
	    put_num(o, "power_w", g->power_w, false) ||
	    put_num(o, "price_per_hour", g->price_per_hour, false) ||
	    put_num(o, "gpus_per_node", g->gpus_per_node, true) ||
	    put_num(o, "network_bytes_per_s", g->network_bytes_per_s, true) ||
	    put_str(o, "file", file)) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

static cJSON *catalog_model(const struct catalog_model *cm, const char *file)
{
	cJSON *o = cJSON_CreateObject();
	struct model m;
	struct model_params n;

	model_resolve(&cm->model, &m, NULL);
	model_count_params(&m, &n);
	if (!o || put_str(o, "id", cm->id) || put_num(o, "params", n.total, true) ||
	    put_num(o, "active_params", n.active, true) || put_num(o, "layers", m.layers, true) ||
	    put_num(o, "hidden", m.hidden, true) || put_num(o, "heads", m.heads, true) ||
	    put_num(o, "kv_heads", m.kv_heads ? m.kv_heads : m.heads, true) ||
	    put_num(o, "max_context", m.max_context, true) || put_str(o, "file", file)) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

struct cJSON *report_json_catalog(const struct catalog *cat, bool gpus, bool models)
{
	cJSON *r = cJSON_CreateObject(), *list;
	int bad = 0;

	if (!r)
		return NULL;
	bad |= put_str(r, "schema", REPORT_JSON_CATALOG_SCHEMA);
	if (gpus) {
		list = cJSON_AddArrayToObject(r, "gpus");
		bad |= !list;
		for (int i = 0; !bad && i < cat->ngpus; i++)
			bad |= add_to(list, catalog_gpu(&cat->gpus[i], cat->gpu_origin[i]));
	}
	if (models) {
		list = cJSON_AddArrayToObject(r, "models");
		bad |= !list;
		for (int i = 0; !bad && i < cat->nmodels; i++)
			bad |= add_to(list, catalog_model(&cat->models[i], cat->model_origin[i]));
	}
	if (bad) {
		cJSON_Delete(r);
		return NULL;
	}
	return r;
}

char *report_json_print(const struct cJSON *json)
{
	char *text = cJSON_Print(json), *out;
	size_t n;

	if (!text)
		return NULL;
	/* cJSON allocates with its own hooks; hand back plain malloc'd text with a newline */
	n = strlen(text);
	out = malloc(n + 2);
	if (out) {
		memcpy(out, text, n);
		out[n] = '\n';
		out[n + 1] = '\0';
	}
	cJSON_free(text);
	return out;
}

struct cJSON *report_json_parse(const char *text)
{
	return cJSON_Parse(text);
}

enum report_json_kind report_json_get(const struct cJSON *json, const char *path, double *number,
				      const char **text)
{
	const cJSON *o = json;
	const char *p = path;

	while (o && *p) {
		const char *dot = strchr(p, '.');
		size_t n = dot ? (size_t)(dot - p) : strlen(p);
		char name[64];

		if (n >= sizeof(name) || !cJSON_IsObject(o))
			return REPORT_JSON_MISSING;
		memcpy(name, p, n);
		name[n] = '\0';
		o = cJSON_GetObjectItemCaseSensitive(o, name);
		p += n + (dot ? 1 : 0);
	}
	if (!o)
		return REPORT_JSON_MISSING;
	if (cJSON_IsNull(o))
		return REPORT_JSON_NULL;
	if (cJSON_IsBool(o)) {
		if (number)
			*number = cJSON_IsTrue(o) ? 1 : 0;
		return REPORT_JSON_BOOL;
	}
	if (cJSON_IsNumber(o)) {
		if (number)
			*number = o->valuedouble;
		return REPORT_JSON_NUMBER;
	}
	if (cJSON_IsString(o)) {
		if (text)
			*text = o->valuestring;
		return REPORT_JSON_STRING;
	}
	if (cJSON_IsArray(o)) {
		if (number)
			*number = cJSON_GetArraySize(o);
		return REPORT_JSON_ARRAY;
	}
	return REPORT_JSON_OBJECT;
}

bool report_json_add(cJSON *o, const char *key, cJSON *v)
{
	if (!v)
		return false;
	if (!cJSON_AddItemToObject(o, key, v)) {
		cJSON_Delete(v);
		return false;
	}
	return true;
}

bool report_json_push(cJSON *a, cJSON *v)
{
	if (!v)
		return false;
	if (!cJSON_AddItemToArray(a, v)) {
		cJSON_Delete(v);
		return false;
	}
	return true;
}

struct cJSON *report_json_object(void)
{
	return cJSON_CreateObject();
}

struct cJSON *report_json_array(void)
{
	return cJSON_CreateArray();
}

struct cJSON *report_json_number(double v, bool integer)
{
	return number(v, integer);
}

struct cJSON *report_json_string(const char *text)
{
	return text ? cJSON_CreateString(text) : cJSON_CreateNull();
}

struct cJSON *report_json_bool(bool b)
{
	return cJSON_CreateBool(b);
}

struct cJSON *report_json_null(void)
{
	return cJSON_CreateNull();
}

void report_json_free(struct cJSON *json)
{
	cJSON_Delete(json);
}

static cJSON *validate_stats_json(const struct validate_stats *st)
{
	cJSON *o = cJSON_CreateObject();
	if (!o || put_num(o, "count", st->n, true) || put_num(o, "mape", st->mape, false) ||
	    put_num(o, "worst", st->worst, false)) {
		cJSON_Delete(o);
		return NULL;
	}
	return o;
}

struct cJSON *report_json_validation(const struct validation *v)
{
	cJSON *r = cJSON_CreateObject();
	cJSON *groups = cJSON_CreateArray(), *regimes = cJSON_CreateArray();
	cJSON *rows = cJSON_CreateArray();
	int bad = 0;

	if (!r || !groups || !regimes || !rows) {
		cJSON_Delete(r), cJSON_Delete(groups), cJSON_Delete(regimes), cJSON_Delete(rows);
		return NULL;
	}
	bad |= put_str(r, "schema", REPORT_JSON_VALIDATE_SCHEMA);
	bad |= put(r, "pass", cJSON_CreateBool(v->pass));
	bad |= put(r, "all", validate_stats_json(&v->all));
	bad |= put(r, "groups", groups);
	bad |= put(r, "regimes", regimes);
	bad |= put(r, "rows", rows);
	for (int g = 0; !bad && g < v->ngroups; g++) {
		const struct validate_group *grp = &v->groups[g];
		cJSON *o = cJSON_CreateObject();
		bad |= add_to(groups, o);
		bad |= bad || put_str(o, "group", grp->name) || put_str(o, "title", grp->title) ||
		       put_str(o, "file", grp->file) ||
		       put_num(o, "mape_bound", grp->mape_bound, false) ||
		       put(o, "stats", validate_stats_json(&grp->stats)) ||
		       put(o, "pass", cJSON_CreateBool(grp->pass));
	}
	for (int i = 0; !bad && i < v->nregimes; i++) {
		const struct validate_regime *x = &v->regimes[i];
		cJSON *o = cJSON_CreateObject();
		bad |= add_to(regimes, o);
		bad |= bad || put_str(o, "tag", validate_tag_name(x->tag)) ||
		       put_str(o, "value", x->value) ||
		       put(o, "stats", validate_stats_json(&x->stats));
	}
	for (int i = 0; !bad && i < v->nrows; i++) {
		const struct validate_row *row = &v->rows[i];
		cJSON *o = cJSON_CreateObject(), *tags = cJSON_CreateObject();
		bad |= add_to(rows, o);
		if (bad) {
			cJSON_Delete(tags);
			break;
		}
		bad |= put(o, "tags", tags);
		bad |= bad || put_str(o, "id", row->id) ||
		       put_str(o, "group", v->groups[row->group].name) ||
		       put_str(o, "source", row->source);
		for (int t = 0; !bad && t < VTAG_COUNT; t++)
			bad |= put_str(tags, validate_tag_name(t), row->tags[t]);
		bad |= bad || put_str(o, "scenario", row->scenario[0] ? row->scenario : NULL) ||
		       put_str(o, "figure", row->figure) || put_str(o, "unit", row->unit) ||
		       put_num(o, "measured", row->measured, false) ||
		       put_num(o, "predicted", row->predicted, false) ||
		       put_num(o, "error", row->error, false) ||
		       put_num(o, "tolerance", row->tolerance, false) ||
		       put_num(o, "pinned", row->pinned, false);
	}
	if (bad) {
		cJSON_Delete(r);
		return NULL;
	}
	return r;
}
