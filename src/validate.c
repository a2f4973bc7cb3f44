/* validate.c - the measured rows of the YAML files of tests/validation/ planned again,
 * with their errors and statistics (validate.h). The rows are the ones the unit tests assert, read
 * from the same files, so the numbers here and there are one set. */
#include "validate.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "band.h"
#include "file.h"
#include "report_json.h"
#include "scenario_sets.h"
#include "scenario_yaml.h"
#include "yaml_doc.h"

#define MAX_FILE   (1 << 20)
#define MAX_DEPTH  8
#define MAX_FILES  64
#define MAX_GROUPS 64

static const char *const tag_names[VTAG_COUNT] = {"framework", "gpu", "workload", "scale"};

const char *validate_tag_name(enum validate_tag t)
{
	return t >= 0 && t < VTAG_COUNT ? tag_names[t] : "?";
}

/* The units a measured figure is written in, and what one is in SI. */
static const struct {
	const char *name;
	double si;
} units[] = {
    {"GiB", 1073741824.0}, {"GB", 1e9},	      {"s", 1}, {"ms", 1e-3},
    {"tokens/s", 1},	   {"TFLOP/s", 1e12}, {"1", 1}, {"ktok/s", 1e3},
};

/* The derived figures (validate.h, VALIDATE_DERIVED; derived_figure below). */
static const char *const derived_names[] = {"decode_rate", "batch_latency_s", "megatron_tflops",
					    "checkpoint_params"};

void validation_init(struct validation *v)
{
	memset(v, 0, sizeof(*v));
}

void validation_release(struct validation *v)
{
	if (!v)
		return;
	free(v->rows);
	free(v->groups);
	free(v->regimes);
	validation_init(v);
}

static int bad(struct gp_error *err, const char *file, const struct ynode *n, const char *what,
	       const char *key)
{
	return gp_error_set(err, GP_EINPUT, file, n ? n->line : 0, n ? n->column : 0, "%s%s%s%s",
			    what, key ? " '" : "", key ? key : "", key ? "'" : "");
}

static int copy_scalar(const struct ynode *n, char *dst, size_t size, const char *file,
		       const char *key, struct gp_error *err)
{
	if (n->kind != YNODE_SCALAR)
		return bad(err, file, n, "expected a value for", key);
	if (n->len >= size)
		return bad(err, file, n, "value too long for", key);
	memcpy(dst, n->text, n->len + 1);
	return 0;
}

static int number(const struct ynode *n, double *out, const char *file, const char *key,
		  struct gp_error *err)
{
	char *end;
	if (n->kind != YNODE_SCALAR || !n->len)
		return bad(err, file, n, "expected a number for", key);
	*out = strtod(n->text, &end);
	if (*end || !isfinite(*out))
		return gp_error_set(err, GP_EINPUT, file, n->line, n->column,
				    "'%s' is not a number (%s)", n->text, key);
	return 0;
}

static int read_tags(const struct ynode *m, struct validate_row *r, const char *file,
		     struct gp_error *err)
{
	if (m->kind != YNODE_MAPPING)
		return bad(err, file, m, "expected a mapping for", "tags");
	for (size_t i = 0; i + 1 < m->n; i += 2) {
		const struct ynode *k = &m->items[i], *val = &m->items[i + 1];
		int t;
		for (t = 0; t < VTAG_COUNT; t++)
			if (k->kind == YNODE_SCALAR && strcmp(k->text, tag_names[t]) == 0)
				break;
		if (t == VTAG_COUNT)
			return gp_error_set(err, GP_EINPUT, file, k->line, k->column,
					    "unknown tag '%s' (expected framework, gpu, "
					    "workload or scale)",
					    k->kind == YNODE_SCALAR ? k->text : "?");
		if (copy_scalar(val, r->tags[t], sizeof(r->tags[t]), file, k->text, err) != 0)
			return -1;
	}
	for (int t = 0; t < VTAG_COUNT; t++)
		if (!r->tags[t][0])
			return bad(err, file, m, "missing tag", tag_names[t]);
	return 0;
}

static int read_sets(const struct ynode *m, struct validate_row *r, const char *file,
		     struct gp_error *err)
{
	if (m->kind != YNODE_MAPPING)
		return bad(err, file, m, "expected a mapping of KEY: VALUE for", "set");
	for (size_t i = 0; i + 1 < m->n; i += 2) {
		const struct ynode *k = &m->items[i], *val = &m->items[i + 1];
		if (k->kind != YNODE_SCALAR || val->kind != YNODE_SCALAR)
			return bad(err, file, k, "expected KEY: VALUE in", "set");
		if (r->nsets == VALIDATE_MAX_SETS)
			return bad(err, file, k, "too many fields in", "set");
		if ((size_t)snprintf(r->sets[r->nsets], sizeof(r->sets[0]), "%s=%s", k->text,
				     val->text) >= sizeof(r->sets[0]))
			return bad(err, file, val, "value too long for", k->text);
		r->nsets++;
	}
	return 0;
}

static int read_row(const struct ynode *m, struct validate_row *r, const char *file,
		    struct gp_error *err)
{
	bool have_measured = false;
	memset(r, 0, sizeof(*r));
	r->tolerance = r->pinned = NAN;
	r->predicted = r->error = NAN;
	if (strlen(file) >= sizeof(r->file)) /* never kept cut short */
		return gp_error_set(err, GP_EINPUT, file, 0, 0, "path too long (limit %zu bytes)",
				    sizeof(r->file) - 1);
	snprintf(r->file, sizeof(r->file), "%s", file);
	r->line = m->line;
	if (m->kind != YNODE_MAPPING)
		return bad(err, file, m, "expected a mapping for a row", NULL);
	for (size_t i = 0; i + 1 < m->n; i += 2) {
		const struct ynode *k = &m->items[i], *val = &m->items[i + 1];
		const char *key = k->kind == YNODE_SCALAR ? k->text : "?";
		int rc;
		if (strcmp(key, "id") == 0)
			rc = copy_scalar(val, r->id, sizeof(r->id), file, key, err);
		else if (strcmp(key, "source") == 0)
			rc = copy_scalar(val, r->source, sizeof(r->source), file, key, err);
		else if (strcmp(key, "tags") == 0)
			rc = read_tags(val, r, file, err);
		else if (strcmp(key, "scenario") == 0)
			rc = copy_scalar(val, r->scenario, sizeof(r->scenario), file, key, err);
		else if (strcmp(key, "set") == 0)
			rc = read_sets(val, r, file, err);
		else if (strcmp(key, "figure") == 0)
			rc = copy_scalar(val, r->figure, sizeof(r->figure), file, key, err);
		else if (strcmp(key, "unit") == 0)
			rc = copy_scalar(val, r->unit, sizeof(r->unit), file, key, err);
		else if (strcmp(key, "measured") == 0)
			rc = number(val, &r->measured, file, key, err), have_measured = true;
		else if (strcmp(key, "tolerance") == 0)
			rc = number(val, &r->tolerance, file, key, err);
		else if (strcmp(key, "pinned") == 0)
			rc = number(val, &r->pinned, file, key, err);
		else
			rc = gp_error_set(err, GP_EINPUT, file, k->line, k->column,
					  "unknown key '%s' in a row (expected id, source, tags, "
					  "scenario, set, figure, measured, unit, tolerance or "
					  "pinned)",
					  key);
		if (rc != 0)
			return -1;
	}
	if (!r->id[0])
		return bad(err, file, m, "a row without", "id");
	if (!r->source[0] || !r->figure[0] || !r->unit[0] || !have_measured || !r->tags[0][0])
		return gp_error_set(err, GP_EINPUT, file, m->line, m->column,
				    "row '%s' needs source, tags, figure, measured and unit",
				    r->id);
	if (r->measured == 0)
		return gp_error_set(err, GP_EINPUT, file, m->line, m->column,
				    "row '%s': a measured 0 has no relative error", r->id);
	if (strncmp(r->figure, VALIDATE_DERIVED, strlen(VALIDATE_DERIVED)) == 0) {
		bool known = false;
		for (size_t d = 0; d < sizeof(derived_names) / sizeof(derived_names[0]); d++)
			known |=
			    strcmp(r->figure + strlen(VALIDATE_DERIVED), derived_names[d]) == 0;
		if (!known)
			return gp_error_set(
			    err, GP_EINPUT, file, m->line, m->column,
			    "row '%s': unknown figure '%s' (the derived figures are "
			    "decode_rate, batch_latency_s, "
			    "megatron_tflops and checkpoint_params)",
			    r->id, r->figure);
	}
	for (size_t u = 0; u < sizeof(units) / sizeof(units[0]); u++)
		if (strcmp(r->unit, units[u].name) == 0)
			r->unit_si = units[u].si;
	if (r->unit_si == 0)
		return gp_error_set(err, GP_EINPUT, file, m->line, m->column,
				    "row '%s': unknown unit '%s' (expected GiB, GB, s, ms, "
				    "tokens/s, TFLOP/s or 1)",
				    r->id, r->unit);
	return 0;
}

static int add_rows(struct validation *v, const struct ynode *seq, int group, const char *file,
		    struct gp_error *err)
{
	struct validate_row *rows;
	if (seq->kind != YNODE_SEQUENCE)
		return bad(err, file, seq, "expected a list for", "rows");
	rows = realloc(v->rows, (v->nrows + seq->n + 1) * sizeof(*rows));
	if (!rows)
		return gp_error_set(err, GP_EIO, file, 0, 0, "out of memory");
	v->rows = rows;
	for (size_t i = 0; i < seq->n; i++) {
		struct validate_row *r = &v->rows[v->nrows];
		if (read_row(&seq->items[i], r, file, err) != 0)
			return -1;
		if (validation_find(v, r->id))
			return gp_error_set(err, GP_EINPUT, file, r->line, 0,
					    "row id '%s' given twice", r->id);
		r->group = group;
		v->nrows++;
	}
	return 0;
}

static int load_group(struct validation *v, const struct ynode *root, const char *path,
		      struct gp_error *err)
{
	struct validate_group *g, *groups;
	const struct ynode *rows = NULL;
	bool have_bound = false;

	if (!root || root->kind != YNODE_MAPPING)
		return bad(err, path, root, "expected a mapping (group, title, mape_bound, rows)",
			   NULL);
	if (v->ngroups == MAX_GROUPS)
		return gp_error_set(err, GP_EINPUT, path, 0, 0, "more than %d groups", MAX_GROUPS);
	groups = realloc(v->groups, (v->ngroups + 1) * sizeof(*groups));
	if (!groups)
		return gp_error_set(err, GP_EIO, path, 0, 0, "out of memory");
	v->groups = groups;
	g = &v->groups[v->ngroups];
	memset(g, 0, sizeof(*g));
	if (strlen(path) >= sizeof(g->file)) /* never kept cut short */
		return gp_error_set(err, GP_EINPUT, path, 0, 0, "path too long (limit %zu bytes)",
				    sizeof(g->file) - 1);
	snprintf(g->file, sizeof(g->file), "%s", path);
	for (size_t i = 0; i + 1 < root->n; i += 2) {
		const struct ynode *k = &root->items[i], *val = &root->items[i + 1];
		const char *key = k->kind == YNODE_SCALAR ? k->text : "?";
		int rc = 0;
		if (strcmp(key, "group") == 0)
			rc = copy_scalar(val, g->name, sizeof(g->name), path, key, err);
		else if (strcmp(key, "title") == 0)
			rc = copy_scalar(val, g->title, sizeof(g->title), path, key, err);
		else if (strcmp(key, "mape_bound") == 0)
			rc = number(val, &g->mape_bound, path, key, err), have_bound = true;
		else if (strcmp(key, "rows") == 0)
			rows = val;
		else
			rc = gp_error_set(err, GP_EINPUT, path, k->line, k->column,
					  "unknown key '%s' (expected group, title, mape_bound or "
					  "rows)",
					  key);
		if (rc != 0)
			return -1;
	}
	if (!g->name[0] || !have_bound || !rows)
		return gp_error_set(err, GP_EINPUT, path, root->line, root->column,
				    "a group needs group, mape_bound and rows");
	for (int i = 0; i < v->ngroups; i++)
		if (strcmp(v->groups[i].name, g->name) == 0)
			return gp_error_set(err, GP_EINPUT, path, root->line, root->column,
					    "group '%s' given twice (also %s)", g->name,
					    v->groups[i].file);
	if (add_rows(v, rows, v->ngroups, path, err) != 0)
		return -1;
	v->ngroups++;
	return 0;
}

int validation_load_file(struct validation *v, const char *path, struct gp_error *err)
{
	char *text = NULL;
	size_t len;
	struct ynode *root = NULL;
	int nproblems = 0, rc = -1;

	if (file_read_all(path, MAX_FILE, &text, &len, err) != 0)
		return -1;
	if (ynode_read(text, len, path, MAX_DEPTH, &root, NULL, &nproblems, err) != 0 || nproblems)
		goto out;
	rc = load_group(v, root, path, err);
out:
	ynode_free(root);
	free(text);
	return rc;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int validation_load_dir(struct validation *v, const char *dir, struct gp_error *err)
{
	char *names[MAX_FILES];
	int n = 0, rc = 0;
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		return gp_error_set(err, GP_EIO, dir, 0, 0, "cannot open the folder");
	while ((de = readdir(d)) != NULL) {
		size_t len = strlen(de->d_name);
		if (de->d_name[0] == '.' || len < 6 || strcmp(de->d_name + len - 5, ".yaml"))
			continue;
		if (n == MAX_FILES) {
			rc = gp_error_set(err, GP_EINPUT, dir, 0, 0, "more than %d data files",
					  MAX_FILES);
			break;
		}
		names[n] = malloc(strlen(dir) + len + 2);
		if (!names[n]) {
			rc = gp_error_set(err, GP_EIO, dir, 0, 0, "out of memory");
			break;
		}
		snprintf(names[n], strlen(dir) + len + 2, "%s/%s", dir, de->d_name);
		n++;
	}
	closedir(d);
	qsort(names, n, sizeof(names[0]), by_name);
	if (rc == 0 && n == 0)
		rc = gp_error_set(err, GP_EINPUT, dir, 0, 0, "no *.yaml data files");
	for (int i = 0; rc == 0 && i < n; i++)
		rc = validation_load_file(v, names[i], err);
	for (int i = 0; i < n; i++)
		free(names[i]);
	return rc;
}

const struct validate_row *validation_find(const struct validation *v, const char *id)
{
	for (int i = 0; i < v->nrows; i++)
		if (strcmp(v->rows[i].id, id) == 0)
			return &v->rows[i];
	return NULL;
}

int validate_row_scenario(const struct validate_row *r, const struct catalog *cat,
			  struct scenario *s, struct gp_error *err)
{
	if (r->scenario[0]) {
		if (scenario_load_file(r->scenario, cat, s, NULL, NULL, err) != 0)
			return -1;
	} else {
		scenario_init(s);
	}
	for (int i = 0; i < r->nsets; i++)
		if (scenario_load_assignment(s, cat, r->sets[i], err) != 0) {
			char msg[sizeof(err->message)];
			snprintf(msg, sizeof(msg), "%s", err->message);
			return gp_error_set(err, GP_EINPUT, r->file, r->line, 0,
					    "row '%s': %s: %.200s", r->id, r->sets[i], msg);
		}
	return 0;
}

/* The figures a published row is stated in that the report gives only in parts: each
 * derived from the plan (and the scenario) as the row's source counts it. NAN when the
 * plan has not the parts. */
static double derived_figure(const char *name, const struct scenario *s, const struct plan *p)
{
	/* One sequence's decode rate, 1 / time per output token: what a batch-1 benchmark
	 * (llama.cpp's tg, gpt-fast, torchao's generate.py) prints as tokens/s. */
	if (strcmp(name, "decode_rate") == 0)
		return p->tpot_s > 0 ? 1 / p->tpot_s : NAN;
	/* The seconds a whole batch's generation takes, prefill and decode, as vLLM's
	 * benchmark_latency.py times it: B x output tokens over the batch's tokens/s. */
	if (strcmp(name, "batch_latency_s") == 0)
		return p->tokens_per_s > 0
			   ? (double)s->workload.batch * s->workload.output_tokens / p->tokens_per_s
			   : NAN;
	/* Megatron-LM's TFLOP/s per GPU, counted as Narayanan et al. (SC'21) count them
	 * (section 5.1, recomputation included): F = 96 B s l h^2 (1 + s/(6h) + V/(16 l h))
	 * per iteration, over the step time and the GPUs. */
	if (strcmp(name, "megatron_tflops") == 0) {
		double B = s->workload.global_batch, sl = s->workload.seq_len, l = s->model.layers;
		double h = s->model.hidden, V = s->model.vocab;
		double f = 96 * B * sl * l * h * h * (1 + sl / (6 * h) + V / (16 * l * h));
		return p->step_s > 0 && s->hardware.count > 0 ? f / (p->step_s * s->hardware.count)
							      : NAN;
	}
	/* Every parameter the checkpoint stores, the language model's and a multimodal
	 * model's vision tower (model.params + model.vision_params): what Hugging Face's
	 * safetensors metadata totals on a model's page. */
	if (strcmp(name, "checkpoint_params") == 0)
		return p->params > 0 ? p->params + p->model.vision_params : NAN;
	return NAN;
}

int validate_row_predict(const struct validate_row *r, const struct scenario *s,
			 const struct plan *p, double *value)
{
	struct cJSON *json;
	double x = NAN;

	if (strncmp(r->figure, VALIDATE_DERIVED, strlen(VALIDATE_DERIVED)) == 0) {
		*value = derived_figure(r->figure + strlen(VALIDATE_DERIVED), s, p) / r->unit_si;
		return 0;
	}
	json = report_json_build(s, p);
	if (!json)
		return -1;
	if (report_json_get(json, r->figure, &x, NULL) != REPORT_JSON_NUMBER)
		x = NAN;
	report_json_free(json);
	*value = x / r->unit_si;
	return 0;
}

/* The row's regime for error bands, by band.c's own functions on the row's scenario. */
static void row_regime(struct validate_row *r, const struct scenario *s)
{
	bool rate = false;
	r->band_class = band_class_of(r->figure, &rate);
	snprintf(r->band_kind, sizeof(r->band_kind), "%s",
		 scenario_enum_name("workload.kind", (int)s->workload.kind));
	snprintf(r->band_framework, sizeof(r->band_framework), "%s",
		 band_framework(s, (enum band_class)(r->band_class < 0 ? 0 : r->band_class)));
	snprintf(r->band_load, sizeof(r->band_load), "%s", band_load(s));
	snprintf(r->band_generation, sizeof(r->band_generation), "%s",
		 band_generation(s->hardware.gpu.id));
	snprintf(r->gpu_id, sizeof(r->gpu_id), "%s", s->hardware.gpu.id);
	r->band_error = rate ? 1 / (1 + r->error) - 1 : r->error;
}

/* Adds |e| to a running MAPE (sum until stats_end) and keeps the worst. */
static void stats_add(struct validate_stats *st, double e)
{
	st->n++;
	st->mape += fabs(e);
	if (fabs(e) > fabs(st->worst))
		st->worst = e;
}

static void stats_end(struct validate_stats *st)
{
	if (st->n)
		st->mape /= st->n;
}

static int regime_index(struct validation *v, enum validate_tag t, const char *value)
{
	int i;
	for (i = 0; i < v->nregimes; i++)
		if (v->regimes[i].tag == t && strcmp(v->regimes[i].value, value) == 0)
			return i;
	memset(&v->regimes[i], 0, sizeof(v->regimes[i]));
	v->regimes[i].tag = t;
	snprintf(v->regimes[i].value, sizeof(v->regimes[i].value), "%s", value);
	v->nregimes++;
	return i;
}

int validation_run(struct validation *v, const struct catalog *cat, struct gp_error *err)
{
	struct scenario *s = malloc(sizeof(*s));
	struct plan *p = malloc(sizeof(*p));
	int rc = -1;

	free(v->regimes);
	v->nregimes = 0;
	v->regimes = calloc((size_t)v->nrows * VTAG_COUNT + 1, sizeof(*v->regimes));
	if (!s || !p || !v->regimes) {
		gp_error_set(err, GP_EIO, NULL, 0, 0, "out of memory");
		goto out;
	}
	memset(&v->all, 0, sizeof(v->all));
	for (int g = 0; g < v->ngroups; g++)
		memset(&v->groups[g].stats, 0, sizeof(v->groups[g].stats));
	for (int i = 0; i < v->nrows; i++) {
		struct validate_row *r = &v->rows[i];
		if (validate_row_scenario(r, cat, s, err) != 0)
			goto out;
		plan_compute(s, p);
		if (validate_row_predict(r, s, p, &r->predicted) != 0) {
			gp_error_set(err, GP_EIO, NULL, 0, 0, "out of memory");
			goto out;
		}
		if (!isfinite(r->predicted)) {
			gp_error_set(err, GP_EINPUT, r->file, r->line, 0,
				     "row '%s': the plan gives no %s", r->id, r->figure);
			goto out;
		}
		r->error = (r->predicted - r->measured) / r->measured;
		row_regime(r, s);
		/* a group of exact counts (bound 0) checks bookkeeping, not an estimate: left
		 * out of the headline, which it would only lower */
		if (v->groups[r->group].mape_bound > 0)
			stats_add(&v->all, r->error);
		stats_add(&v->groups[r->group].stats, r->error);
		for (int t = 0; t < VTAG_COUNT; t++)
			stats_add(&v->regimes[regime_index(v, t, r->tags[t])].stats, r->error);
	}
	/* regimes grouped by tag, each tag's values in order of first appearance */
	for (int a = 1; a < v->nregimes; a++) {
		struct validate_regime x = v->regimes[a];
		int b = a;
		for (; b > 0 && v->regimes[b - 1].tag > x.tag; b--)
			v->regimes[b] = v->regimes[b - 1];
		v->regimes[b] = x;
	}
	stats_end(&v->all);
	for (int i = 0; i < v->nregimes; i++)
		stats_end(&v->regimes[i].stats);
	v->pass = true;
	for (int g = 0; g < v->ngroups; g++) {
		struct validate_group *grp = &v->groups[g];
		stats_end(&grp->stats);
		grp->pass = grp->stats.mape <= grp->mape_bound;
		v->pass = v->pass && grp->pass;
	}
	rc = 0;
out:
	free(s);
	free(p);
	return rc;
}

/* '*' within the tolerance the tests hold the row to, '!' outside it, ' ' not held. */
static char row_mark(const struct validate_row *r)
{
	if (isnan(r->tolerance))
		return ' ';
	return fabs(r->error) <= r->tolerance ? '*' : '!';
}

/* x in at most 9 characters (a count of billions as 1.236e+09), for the text report's
 * columns. */
static const char *cell9(char buf[16], double x)
{
	if (snprintf(buf, 16, "%.5g", x) > 9)
		snprintf(buf, 16, "%.4g", x);
	return buf;
}

/* x for the Markdown report: a whole count (a parameter count) to the unit, so the row
 * reads as the published figure; anything else to 4 digits. */
static const char *cell_md(char buf[32], double x)
{
	if (fabs(x) >= 1e5 && fabs(x) < 1e15 && x == floor(x))
		snprintf(buf, 32, "%.0f", x);
	else
		snprintf(buf, 32, "%.4g", x);
	return buf;
}

/* The rows outside the tolerance the tests hold them to (marked '!'): a group within its
 * bound can still hold some, and the headline says how many. */
static int rows_outside(const struct validation *v)
{
	int n = 0;
	for (int i = 0; i < v->nrows; i++)
		n += row_mark(&v->rows[i]) == '!';
	return n;
}

void validation_text(struct report_buf *b, const struct validation *v)
{
	int out = rows_outside(v);

	report_buf_printf(b, "%d measured figures in %d group%s: MAPE %.1f%%, worst %+.1f%%: %s\n",
			  v->all.n, v->ngroups, v->ngroups == 1 ? "" : "s", 100 * v->all.mape,
			  100 * v->all.worst,
			  v->pass ? "groups within bounds" : "a group past its bound");
	if (out)
		report_buf_printf(
		    b, "(%d row%s outside the tolerance the tests hold %s to, marked !)\n", out,
		    out == 1 ? "" : "s", out == 1 ? "it" : "them");
	if (v->nrows > v->all.n)
		report_buf_printf(b, "(and %d exact counts, held to 0, not in that MAPE)\n",
				  v->nrows - v->all.n);
	for (int g = 0; g < v->ngroups; g++) {
		const struct validate_group *grp = &v->groups[g];
		report_buf_printf(b, "\n%s: %s\n", grp->name, grp->title);
		report_buf_printf(b, "  %-23s %-16s %9s %9s %-8s %6s\n", "row", "figure",
				  "measured", "gpuplan", "unit", "error");
		for (int i = 0; i < v->nrows; i++) {
			const struct validate_row *r = &v->rows[i];
			if (r->group != g)
				continue;
			const char *dot = strrchr(r->figure, '.');
			char m[16], c[16];
			report_buf_printf(b, "  %-23.23s %-16.16s %9s %9s %-8s %+6.1f%%%c\n", r->id,
					  dot ? dot + 1 : r->figure, cell9(m, r->measured),
					  cell9(c, r->predicted), r->unit, 100 * r->error,
					  row_mark(r));
		}
		report_buf_printf(b, "  %d rows: MAPE %.1f%% (bound %.1f%%), worst %+.1f%%: %s\n",
				  grp->stats.n, 100 * grp->stats.mape, 100 * grp->mape_bound,
				  100 * grp->stats.worst, grp->pass ? "ok" : "OVER THE BOUND");
	}
	report_buf_printf(b, "\n  * within the tolerance the tests hold the row to, ! outside it "
			     "(pinned)\n");
	report_buf_printf(b, "\nby regime\n  %-10s %-24s %5s %7s %7s\n", "tag", "value", "rows",
			  "MAPE", "worst");
	for (int i = 0; i < v->nregimes; i++) {
		const struct validate_regime *x = &v->regimes[i];
		report_buf_printf(b, "  %-10s %-24.24s %5d %6.1f%% %+6.1f%%\n",
				  validate_tag_name(x->tag), x->value, x->stats.n,
				  100 * x->stats.mape, 100 * x->stats.worst);
	}
}

/* One regime of error bands: its first row, its rows' count, least and greatest residual,
 * MAPE and "/"-joined frameworks and GPUs. */
struct regime {
	const struct validate_row *r;
	int k;
	double emin, emax, mape;
	char runs[160], gpus[160];
};

static int each_regime(struct report_buf *b, const struct validation *v,
		       void (*row)(struct report_buf *b, const struct regime *x));

static void band_markdown_row(struct report_buf *b, const struct regime *x)
{
	const struct validate_row *r = x->r;
	report_buf_printf(
	    b, "| %s of %s, %s%s%s, on %s | %d | %+.1f%% to %+.1f%% | %.1f%% | %s | %s |\n",
	    band_class_name((enum band_class)r->band_class), r->band_kind, r->band_framework,
	    r->band_load[0] ? ", " : "", r->band_load, r->band_generation, x->k, 100 * x->emin,
	    100 * x->emax, 100 * x->mape, x->runs, x->gpus);
}

/* A regime of fewer than BAND_MIN_ROWS rows and the band it carries; nothing for others. */
static void band_indicative_row(struct report_buf *b, const struct regime *x)
{
	const struct validate_row *r = x->r;
	double sp = band_class_spread((enum band_class)r->band_class);
	if (x->k >= BAND_MIN_ROWS)
		return;
	report_buf_printf(b,
			  "| %s of %s, %s%s%s, on %s | %d | %+.1f%% to %+.1f%% | %+.1f%% to "
			  "%+.1f%% |\n",
			  band_class_name((enum band_class)r->band_class), r->band_kind,
			  r->band_framework, r->band_load[0] ? ", " : "", r->band_load,
			  r->band_generation, x->k, 100 * x->emin, 100 * x->emax,
			  100 * fmin(x->emin, -sp), 100 * fmax(x->emax, sp));
}

/* The regimes of fewer than BAND_MIN_ROWS rows, whose bands the reports widen to the
 * spread of their class (band.h), with the range they carry. */
static void validation_indicative_markdown(struct report_buf *b, const struct validation *v)
{
	report_buf_printf(b,
			  "\nA regime of fewer than %d rows shows where those runs landed, not how "
			  "far runs\nspread: its band is *indicative*, widened to hold +-s, s the "
			  "spread of its class (the\nmean |residual| of every measured row of that "
			  "class: memory %.1f%%, speed %.1f%%,\nttft %.1f%%), and the reports say "
			  "\"indicative\" beside it.\n\n"
			  "| indicative regime | rows | residual range | band carried |\n"
			  "|---|---:|---:|---:|\n",
			  BAND_MIN_ROWS, 100 * band_class_spread(BAND_MEMORY),
			  100 * band_class_spread(BAND_SPEED), 100 * band_class_spread(BAND_TTFT));
	each_regime(b, v, band_indicative_row);
}

/* The error bands the reports print (band.h), one regime a row: the same regimes and
 * residuals as band_table.c, which `make band-table` writes from these rows. */
static void validation_bands_markdown(struct report_buf *b, const struct validation *v)
{
	report_buf_printf(
	    b, "\n## Error bands by regime\n\n"
	       "The band each figure of a report carries (HOW FAR TO TRUST THESE, the JSON "
	       "report's\n`uncertainty`): the residuals of the measured rows of its regime "
	       "(class of figure,\nworkload, framework (for inference speed the engine), "
	       "load (online serving: alone\nor loaded), GPU generation), as a duration or size (a "
	       "rate's residual e is turned into\n1 / (1 + e) - 1). A scenario in no regime "
	       "below is reported \"unvalidated: outside\nevery validated regime\".\n\n"
	       "| regime | rows | residual range | MAPE | runs | GPUs |\n"
	       "|---|---:|---:|---:|---|---|\n");
	each_regime(b, v, band_markdown_row);
}

void validation_markdown(struct report_buf *b, const struct validation *v)
{
	report_buf_printf(b, "# How far gpuplan's figures have been from measured runs\n\n");
	report_buf_printf(b, "Generated by `gpuplan validate --markdown` (`make validation-doc`) "
			     "from the data files\nof `tests/validation/`, the rows the unit tests "
			     "assert. Do not edit by hand.\n\n");
	report_buf_printf(b, "%d measured figures in %d group%s: MAPE %.1f%%, worst %+.1f%%: %s.\n",
			  v->all.n, v->ngroups, v->ngroups == 1 ? "" : "s", 100 * v->all.mape,
			  100 * v->all.worst,
			  v->pass ? "every group within its bound" : "a group past its bound");
	if (rows_outside(v))
		report_buf_printf(
		    b,
		    "%d row%s %s outside the tolerance the tests hold %s to (\"missed\" in "
		    "the tables below).\n",
		    rows_outside(v), rows_outside(v) == 1 ? "" : "s",
		    rows_outside(v) == 1 ? "is" : "are", rows_outside(v) == 1 ? "it" : "them");
	if (v->nrows > v->all.n)
		report_buf_printf(b,
				  "The %d exact counts of the groups bound at 0 are not in that "
				  "MAPE: they check\nbookkeeping, not an estimate.\n",
				  v->nrows - v->all.n);
	report_buf_printf(b, "\n## Groups\n\n| group | rows | MAPE | bound | worst | |\n"
			     "|---|---:|---:|---:|---:|---|\n");
	for (int g = 0; g < v->ngroups; g++) {
		const struct validate_group *grp = &v->groups[g];
		report_buf_printf(b, "| %s | %d | %.1f%% | %.1f%% | %+.1f%% | %s |\n", grp->name,
				  grp->stats.n, 100 * grp->stats.mape, 100 * grp->mape_bound,
				  100 * grp->stats.worst, grp->pass ? "ok" : "over the bound");
	}
	report_buf_printf(b, "\n## Regimes\n\n| tag | value | rows | MAPE | worst |\n"
			     "|---|---|---:|---:|---:|\n");
	for (int i = 0; i < v->nregimes; i++) {
		const struct validate_regime *x = &v->regimes[i];
		report_buf_printf(b, "| %s | %s | %d | %.1f%% | %+.1f%% |\n",
				  validate_tag_name(x->tag), x->value, x->stats.n,
				  100 * x->stats.mape, 100 * x->stats.worst);
	}
	validation_bands_markdown(b, v);
	validation_indicative_markdown(b, v);
	for (int g = 0; g < v->ngroups; g++) {
		const struct validate_group *grp = &v->groups[g];
		report_buf_printf(b, "\n## %s\n\n%s (`%s`).\n\n", grp->name, grp->title, grp->file);
		report_buf_printf(b, "| row | figure | measured | gpuplan | error | tolerance | "
				     "source |\n|---|---|---:|---:|---:|---:|---|\n");
		for (int i = 0; i < v->nrows; i++) {
			const struct validate_row *r = &v->rows[i];
			char tol[32] = "not held";
			if (r->group != g)
				continue;
			if (!isnan(r->tolerance))
				snprintf(tol, sizeof(tol), "%.0f%%%s", 100 * r->tolerance,
					 fabs(r->error) <= r->tolerance ? "" : " (missed)");
			char m[32], c[32];
			report_buf_printf(b, "| %s | `%s` | %s %s | %s %s | %+.1f%% | %s | %s |\n",
					  r->id, r->figure, cell_md(m, r->measured), r->unit,
					  cell_md(c, r->predicted), r->unit, 100 * r->error, tol,
					  r->source);
		}
	}
}

static bool same_regime(const struct validate_row *a, const struct validate_row *b)
{
	return a->band_class == b->band_class && strcmp(a->band_kind, b->band_kind) == 0 &&
	       strcmp(a->band_framework, b->band_framework) == 0 &&
	       strcmp(a->band_load, b->band_load) == 0 &&
	       strcmp(a->band_generation, b->band_generation) == 0;
}

/* Appends word to a "/"-joined list of at most 4 distinct words (then "..."). */
static void add_word(char *list, size_t size, const char *word)
{
	char padded[160];
	int n = 1;
	snprintf(padded, sizeof(padded), "/%s/", list);
	for (const char *c = list; *c; c++)
		n += *c == '/';
	{
		char needle[64];
		snprintf(needle, sizeof(needle), "/%s/", word);
		if (strstr(padded, needle) || strstr(list, "..."))
			return;
	}
	if (!list[0])
		snprintf(list, size, "%s", word);
	else if (n == 4)
		strncat(list, "/...", size - strlen(list) - 1);
	else {
		strncat(list, "/", size - strlen(list) - 1);
		strncat(list, word, size - strlen(list) - 1);
	}
}

/* The regime row i opens (the first row of its regime); false when row i carries no band
 * or an earlier row opened its regime. */
static bool regime_of(const struct validation *v, int i, struct regime *x)
{
	const struct validate_row *r = &v->rows[i];
	double sum = 0;

	if (r->band_class < 0)
		return false;
	for (int j = 0; j < i; j++)
		if (same_regime(&v->rows[j], r))
			return false;
	x->r = r;
	x->k = 0;
	x->emin = INFINITY;
	x->emax = -INFINITY;
	x->runs[0] = x->gpus[0] = '\0';
	for (int j = i; j < v->nrows; j++) {
		const struct validate_row *q = &v->rows[j];
		if (!same_regime(q, r))
			continue;
		x->k++;
		x->emin = fmin(x->emin, q->band_error);
		x->emax = fmax(x->emax, q->band_error);
		sum += fabs(q->band_error);
		add_word(x->runs, sizeof(x->runs), q->tags[VTAG_FRAMEWORK]);
		add_word(x->gpus, sizeof(x->gpus), q->gpu_id);
	}
	x->mape = sum / x->k;
	return true;
}

/* Calls row for each regime, in the order of the rows that open them; their count. */
static int each_regime(struct report_buf *b, const struct validation *v,
		       void (*row)(struct report_buf *b, const struct regime *x))
{
	struct regime x;
	int n = 0;

	for (int i = 0; i < v->nrows; i++) {
		if (!regime_of(v, i, &x))
			continue;
		row(b, &x);
		n++;
	}
	return n;
}

static void band_table_row(struct report_buf *b, const struct regime *x)
{
	const struct validate_row *r = x->r;
	report_buf_printf(b,
			  "\t{BAND_%s, \"%s\", \"%s\", \"%s\", \"%s\", %d, %.6f, %.6f, %.6f,\n"
			  "\t \"%s\", \"%s\"},\n",
			  r->band_class == BAND_MEMORY	? "MEMORY"
			  : r->band_class == BAND_SPEED ? "SPEED"
							: "TTFT",
			  r->band_kind, r->band_framework, r->band_load, r->band_generation, x->k,
			  x->emin, x->emax, x->mape, x->runs, x->gpus);
}

void validation_band_table(struct report_buf *b, const struct validation *v)
{
	int n;
	report_buf_printf(b, "/* band_table.c - generated by `make band-table` from the rows of "
			     "tests/validation/\n"
			     " * (gpuplan validate): the residuals of each regime (band.h). Do not "
			     "edit by hand. */\n"
			     "#include \"band.h\"\n\n"
			     "/* class, kind, framework, generation, rows, least and greatest "
			     "residual, MAPE,\n"
			     " * the rows' frameworks and GPUs */\n"
			     "/* clang-format off */\n"
			     "const struct band_regime band_table[] = {\n");
	n = each_regime(b, v, band_table_row);
	report_buf_printf(b, "};\n/* clang-format on */\n\nconst int band_table_n = %d;\n", n);
}
