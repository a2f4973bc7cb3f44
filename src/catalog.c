/* catalog.c - the catalog loaded: catalog/gpus.yaml through yaml_doc.c's strict reader,
 * catalog/models/ *.json through hf_config.c, the user's files over the shipped ones;
 * and the lookups by id. */
#include "catalog.h"

#include <ctype.h>
#include <dirent.h>
#include <stdbool.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "file.h"
#include "hf_config.h"
#include "scenario.h"
#include "text.h"
#include "units.h"
#include "yaml_doc.h"

#ifndef GPUPLAN_DATADIR
#define GPUPLAN_DATADIR "/usr/local/share/gpuplan"
#endif

/* A catalog file is small; anything much larger is not one. */
#define CATALOG_MAX_FILE_BYTES (4 << 20)
#define GPUS_MAX_DEPTH	       4

/* Copies src into dst (size bytes), cut short when longer. */
static void copy_text(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src);

	if (n >= size)
		n = size - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
}

struct catalog *catalog_new(void)
{
	return calloc(1, sizeof(struct catalog));
}

void catalog_free(struct catalog *cat)
{
	free(cat);
}

double gpu_capacity_bytes(const struct gpu *g)
{
	if (g->cuda_total_bytes > 0 && g->memory_bytes == g->listed_memory_bytes)
		return g->cuda_total_bytes;
	return g->memory_bytes;
}

const struct gpu *catalog_find_gpu(const struct catalog *cat, const char *id)
{
	for (int i = 0; cat && id && i < cat->ngpus; i++)
		if (strcmp(cat->gpus[i].id, id) == 0)
			return &cat->gpus[i];
	return NULL;
}

const struct catalog_model *catalog_find_model(const struct catalog *cat, const char *id)
{
	for (int i = 0; cat && id && i < cat->nmodels; i++)
		if (strcmp(cat->models[i].id, id) == 0)
			return &cat->models[i];
	return NULL;
}

/* The closest of n ids (stride bytes apart) to id, when close enough to be a typo. */
static const char *suggest(const char *id, const char *first, int n, size_t stride)
{
	const char *best = NULL;
	int bestd = 1000;

	if (!id)
		return NULL;
	for (int i = 0; i < n; i++) {
		const char *cand = first + (size_t)i * stride;
		int d = text_edit_distance(id, cand);
		/* "h100" is a prefix of "h100-sxm-80gb": count that as close */
		if (strlen(id) >= 2 && strncmp(cand, id, strlen(id)) == 0 && d > 2)
			d = 2;
		if (d < bestd) {
			bestd = d;
			best = cand;
		}
	}
	if (best && bestd <= (int)strlen(id) / 2 + 1 && bestd < (int)strlen(id))
		return best;
	return NULL;
}

/* "did you mean": the ids that start with id ("h100" names three H100s, and the nearest
 * by spelling, "h200", would be another GPU), as 'a', 'b' or 'c', up to four; else the
 * closest id by spelling. Writes "" when nothing is near. */
static void suggest_list(const char *id, const char *first, int n, size_t stride, char *buf,
			 size_t size)
{
	const char *hit[4];
	int nhit = 0, more = 0;
	size_t len = id ? strlen(id) : 0, used = 0;

	buf[0] = '\0';
	if (!id)
		return;
	for (int i = 0; i < n && len >= 2; i++) {
		const char *cand = first + (size_t)i * stride;
		if (strncmp(cand, id, len) == 0) {
			if (nhit < 4)
				hit[nhit++] = cand;
			else
				more = 1;
		}
	}
	if (nhit == 0) {
		const char *near = suggest(id, first, n, stride);
		if (near)
			snprintf(buf, size, "'%s'", near);
		return;
	}
	for (int i = 0; i < nhit && used < size; i++) {
		const char *sep = i == 0 ? "" : i == nhit - 1 && !more ? " or " : ", ";
		int w = snprintf(buf + used, size - used, "%s'%s'", sep, hit[i]);
		if (w < 0)
			break;
		used += (size_t)w;
	}
	if (more && used < size)
		snprintf(buf + used, size - used, ", ...");
}

void catalog_suggest_gpus(const struct catalog *cat, const char *id, char *buf, size_t size)
{
	if (!cat || !cat->ngpus) {
		buf[0] = '\0';
		return;
	}
	suggest_list(id, cat->gpus[0].id, cat->ngpus, sizeof(cat->gpus[0]), buf, size);
}

void catalog_suggest_models(const struct catalog *cat, const char *id, char *buf, size_t size)
{
	if (!cat || !cat->nmodels) {
		buf[0] = '\0';
		return;
	}
	suggest_list(id, cat->models[0].id, cat->nmodels, sizeof(cat->models[0]), buf, size);
}

const char *catalog_suggest_gpu(const struct catalog *cat, const char *id)
{
	if (!cat || !cat->ngpus)
		return NULL;
	return suggest(id, cat->gpus[0].id, cat->ngpus, sizeof(cat->gpus[0]));
}

const char *catalog_suggest_model(const struct catalog *cat, const char *id)
{
	if (!cat || !cat->nmodels)
		return NULL;
	return suggest(id, cat->models[0].id, cat->nmodels, sizeof(cat->models[0]));
}

/* ---- gpus.yaml ----------------------------------------------------------------------- */

enum gkey_type { GK_STR, GK_NUM, GK_INT, GK_PEAKS };

struct gkey {
	const char *key;
	enum gkey_type type;
	enum unit_kind unit;
	size_t offset, size;
	bool required;
	const char *field; /* the scenario field whose range the value keeps, or NULL */
};

#define GOFF(m) offsetof(struct gpu, m)
#define GSTR(k, m)                                                                                 \
	{                                                                                          \
		k, GK_STR, UNIT_NONE, GOFF(m), sizeof(((struct gpu *)0)->m), true, NULL            \
	}
#define GNUM(k, m, u)                                                                              \
	{                                                                                          \
		k, GK_NUM, u, GOFF(m), sizeof(double), true, NULL                                  \
	}
/* A figure a scenario can also set: the catalog keeps that field's range (src/scenario.c
 * scenario_fields[]), so a user entry cannot hold a GPU the scenario side would refuse. */
#define GNUM_F(k, m, u, f)                                                                         \
	{                                                                                          \
		k, GK_NUM, u, GOFF(m), sizeof(double), true, f                                     \
	}
#define GNUM_OPT(k, m, u)                                                                          \
	{                                                                                          \
		k, GK_NUM, u, GOFF(m), sizeof(double), false, NULL                                 \
	}
#define GSTR_OPT(k, m)                                                                             \
	{                                                                                          \
		k, GK_STR, UNIT_NONE, GOFF(m), sizeof(((struct gpu *)0)->m), false, NULL           \
	}
#define GINT(k, m)                                                                                 \
	{                                                                                          \
		k, GK_INT, UNIT_COUNT, GOFF(m), sizeof(int), true, NULL                            \
	}
#define GINT_OPT(k, m)                                                                             \
	{                                                                                          \
		k, GK_INT, UNIT_COUNT, GOFF(m), sizeof(int), false, NULL                           \
	}

/* The keys of one entry; every one is required except sparse, cuda_total, class, sms and
 * gemm_efficiency. */
static const struct gkey gpu_keys[] = {
    GSTR("id", id),
    GSTR("name", name),
    GSTR("vendor", vendor),
    GSTR_OPT("class", gpu_class),
    GNUM_F("memory", memory_bytes, UNIT_BYTES, "hardware.memory"),
    GNUM_OPT("cuda_total", cuda_total_bytes, UNIT_BYTES),
    GNUM_F("hbm_bandwidth", hbm_bytes_per_s, UNIT_BYTES_PER_S, "hardware.hbm_bandwidth"),
    {"peak", GK_PEAKS, UNIT_FLOPS, GOFF(peak_flops), sizeof(double) * DTYPE_COUNT, true, NULL},
    {"sparse", GK_PEAKS, UNIT_FLOPS, GOFF(sparse_flops), sizeof(double) * DTYPE_COUNT, false, NULL},
    GSTR("link", link),
    GNUM_F("link_bandwidth", link_bytes_per_s, UNIT_BYTES_PER_S, "hardware.link_bandwidth"),
    GINT("link_domain", link_domain),
    GSTR("pcie", pcie),
    GNUM("pcie_bandwidth", pcie_bytes_per_s, UNIT_BYTES_PER_S),
    GNUM_F("power", power_w, UNIT_WATTS, "hardware.power"),
    GNUM("price_per_hour", price_per_hour, UNIT_USD),
    GINT("gpus_per_node", gpus_per_node),
    GINT_OPT("sms", sms),
    GNUM_OPT("gemm_efficiency", gemm_efficiency, UNIT_RATIO),
    GNUM_F("network", network_bytes_per_s, UNIT_BITS_PER_S, "hardware.network"),
    {NULL, GK_STR, UNIT_NONE, 0, 0, false, NULL},
};

/* Precisions a peak may be given for. */
static const char *const peak_names[] = {"fp32", "tf32",  "bf16",  "fp16", "fp8", "int8",
					 "int4", "nvfp4", "mxfp4", "fp6",  NULL};

const char *catalog_gpu_key(int i)
{
	int n = (int)(sizeof(gpu_keys) / sizeof(gpu_keys[0])) - 1;
	return i >= 0 && i < n ? gpu_keys[i].key : NULL;
}

const char *catalog_peak_name(int i)
{
	int n = (int)(sizeof(peak_names) / sizeof(peak_names[0])) - 1;
	return i >= 0 && i < n ? peak_names[i] : NULL;
}

static int node_error(struct gp_error *err, const char *file, const struct ynode *n,
		      const char *fmt, const char *a, const char *b)
{
	char msg[300];
	snprintf(msg, sizeof(msg), fmt, a, b);
	return gp_error_set(err, GP_EINPUT, file, n->line, n->column, "%s", msg);
}

static const char *closest_key(const char *key, const char *const *names, size_t stride)
{
	const char *best = NULL;
	int bestd = 1000;

	for (const char *const *p = names; *p;
	     p = (const char *const *)((const char *)p + stride)) {
		int d = text_edit_distance(key, *p);
		if (d < bestd) {
			bestd = d;
			best = *p;
		}
	}
	return best && bestd <= (int)strlen(key) / 2 + 1 && bestd < (int)strlen(key) ? best : NULL;
}

static int unknown(struct gp_error *err, const char *file, const struct ynode *k, const char *near,
		   const char *where)
{
	if (near)
		return gp_error_set(err, GP_EINPUT, file, k->line, k->column,
				    "unknown key '%.64s' (did you mean '%s'?)", k->text, near);
	return gp_error_set(err, GP_EINPUT, file, k->line, k->column,
			    "unknown key '%.64s' (expected a key of %s)", k->text, where);
}

static int read_number(const struct ynode *v, enum unit_kind unit, const char *file,
		       const char *key, double *out, struct gp_error *err)
{
	const char *why = NULL;

	if (v->kind != YNODE_SCALAR)
		return gp_error_set(err, GP_EINPUT, file, v->line, v->column,
				    "%s: expected a number, found %s", key, ynode_kind_name(v));
	/* gpuplan-catalog(5): a bare number where a unit is expected is an error ("64" is not
	 * 64 bytes of memory but a missing GiB) */
	if ((unit == UNIT_BYTES || unit == UNIT_BYTES_PER_S || unit == UNIT_BITS_PER_S ||
	     unit == UNIT_WATTS) &&
	    v->len > 0 &&
	    (isdigit((unsigned char)v->text[v->len - 1]) || v->text[v->len - 1] == '.'))
		return gp_error_set(err, GP_EINPUT, file, v->line, v->column,
				    "%s: '%.64s' has no unit (expected %s)", key, v->text,
				    units_expected(unit));
	if (units_parse(unit, v->text, out, &why) != 0)
		return gp_error_set(err, GP_EINPUT, file, v->line, v->column,
				    "%s: cannot read '%.64s' (expected %s)", key, v->text,
				    why ? why : units_expected(unit));
	if (*out < 0)
		return gp_error_set(err, GP_EINPUT, file, v->line, v->column,
				    "%s: '%.64s' is negative (expected a positive value)", key,
				    v->text);
	return 0;
}

/* The range of the scenario field gk->field, as --set hardware.memory=... keeps it. */
static int in_range(const struct ynode *v, const struct gkey *gk, double x, const char *file,
		    struct gp_error *err)
{
	const struct field *f = gk->field ? scenario_field_find(gk->field) : NULL;
	char lo[32], hi[32];

	if (!f || (x >= f->min && x <= f->max))
		return 0;
	units_format_human(gk->unit, f->min, 6, lo, sizeof(lo));
	units_format_human(gk->unit, f->max, 6, hi, sizeof(hi));
	return gp_error_set(err, GP_EINPUT, file, v->line, v->column,
			    "%s: %.64s is out of range (expected %s to %s)", gk->key, v->text, lo,
			    hi);
}

static int read_peaks(const struct ynode *v, const char *file, const char *key, double *peaks,
		      struct gp_error *err)
{
	bool seen[DTYPE_COUNT] = {false};

	if (v->kind != YNODE_MAPPING)
		return gp_error_set(err, GP_EINPUT, file, v->line, v->column,
				    "%s: expected a mapping of precisions (bf16: 989.4T), found %s",
				    key, ynode_kind_name(v));
	for (size_t i = 0; i + 1 < v->n; i += 2) {
		const struct ynode *k = &v->items[i];
		enum dtype d;
		int j;

		if (k->kind != YNODE_SCALAR)
			return gp_error_set(err, GP_EINPUT, file, k->line, k->column,
					    "expected a precision name, found %s",
					    ynode_kind_name(k));
		for (j = 0; peak_names[j]; j++)
			if (strcmp(peak_names[j], k->text) == 0)
				break;
		if (!peak_names[j])
			return unknown(
			    err, file, k, closest_key(k->text, peak_names, sizeof(char *)),
			    "fp32, tf32, bf16, fp16, fp8, int8, int4, nvfp4, mxfp4, fp6");
		dtype_parse(peak_names[j], &d);
		if (seen[d])
			return gp_error_set(err, GP_EINPUT, file, k->line, k->column,
					    "duplicate key '%s'", k->text);
		seen[d] = true;
		if (read_number(&v->items[i + 1], UNIT_FLOPS, file, k->text, &peaks[d], err) != 0)
			return -1;
	}
	return 0;
}

static int read_gpu(const struct ynode *entry, const char *file, struct gpu *g,
		    struct gp_error *err)
{
	bool seen[sizeof(gpu_keys) / sizeof(gpu_keys[0])] = {false};

	memset(g, 0, sizeof(*g));
	if (entry->kind != YNODE_MAPPING)
		return gp_error_set(
		    err, GP_EINPUT, file, entry->line, entry->column,
		    "expected a GPU entry (a mapping with id:, name:, ...), found %s",
		    ynode_kind_name(entry));
	for (size_t i = 0; i + 1 < entry->n; i += 2) {
		const struct ynode *k = &entry->items[i], *v = &entry->items[i + 1];
		const struct gkey *gk;
		char *p;

		if (k->kind != YNODE_SCALAR)
			return gp_error_set(err, GP_EINPUT, file, k->line, k->column,
					    "expected a key name, found %s", ynode_kind_name(k));
		for (gk = gpu_keys; gk->key; gk++)
			if (strcmp(gk->key, k->text) == 0)
				break;
		if (!gk->key)
			return unknown(err, file, k,
				       closest_key(k->text, &gpu_keys[0].key, sizeof(gpu_keys[0])),
				       "a GPU entry");
		if (seen[gk - gpu_keys])
			return gp_error_set(err, GP_EINPUT, file, k->line, k->column,
					    "duplicate key '%s'", k->text);
		seen[gk - gpu_keys] = true;
		p = (char *)g + gk->offset;
		switch (gk->type) {
		case GK_STR:
			if (v->kind != YNODE_SCALAR)
				return gp_error_set(err, GP_EINPUT, file, v->line, v->column,
						    "%s: expected a single value, found %s",
						    gk->key, ynode_kind_name(v));
			if (v->len == 0 || v->len >= gk->size || memchr(v->text, '\0', v->len))
				return gp_error_set(err, GP_EINPUT, file, v->line, v->column,
						    "%s: expected 1 to %zu characters", gk->key,
						    gk->size - 1);
			/* class picks the default inference engine (framework_engine in
			 * src/framework.c) */
			if (gk->offset == GOFF(gpu_class) && strcmp(v->text, "datacenter") != 0 &&
			    strcmp(v->text, "consumer") != 0)
				return gp_error_set(err, GP_EINPUT, file, v->line, v->column,
						    "class: unknown value '%.64s' (expected "
						    "datacenter or consumer)",
						    v->text);
			memcpy(p, v->text, v->len + 1);
			break;
		case GK_NUM:
			if (read_number(v, gk->unit, file, gk->key, (double *)p, err) != 0 ||
			    in_range(v, gk, *(double *)p, file, err) != 0)
				return -1;
			break;
		case GK_INT: {
			double x;
			if (read_number(v, gk->unit, file, gk->key, &x, err) != 0)
				return -1;
			/* range first: casting an out-of-range double to int is undefined */
			if (x < 1 || x > 1e6 || x != floor(x))
				return gp_error_set(err, GP_EINPUT, file, v->line, v->column,
						    "%s: '%.64s' is not a count from 1 to 1000000",
						    gk->key, v->text);
			*(int *)p = (int)x;
			break;
		}
		case GK_PEAKS:
			if (read_peaks(v, file, gk->key, (double *)p, err) != 0)
				return -1;
			break;
		}
	}
	for (const struct gkey *gk = gpu_keys; gk->key; gk++)
		if (gk->required && !seen[gk - gpu_keys])
			return node_error(err, file, entry, "GPU entry %s lacks '%s'",
					  g->id[0] ? g->id : "(no id)", gk->key);
	if (g->memory_bytes <= 0 || g->hbm_bytes_per_s <= 0)
		return node_error(err, file, entry,
				  "GPU entry %s: memory and hbm_bandwidth must be "
				  "above zero%s",
				  g->id, "");
	if (!(g->gemm_efficiency >= 0 && g->gemm_efficiency <= 1))
		return node_error(
		    err, file, entry,
		    "GPU entry %s: gemm_efficiency is not a fraction (expected a share "
		    "of the dense peak, above 0 and at most 1%s)",
		    g->id, "");
	if (g->cuda_total_bytes > g->memory_bytes)
		return node_error(err, file, entry,
				  "GPU entry %s: cuda_total is more than memory (expected what "
				  "CUDA reports as total, at most the memory%s)",
				  g->id, "");
	g->listed_memory_bytes = g->memory_bytes;
	return 0;
}

/* The place of an entry in a list of *n (at most max): found, the index of the entry of
 * the same id (an overlay replaces it), or *n when there is none, which a new entry takes;
 * -1 with err when the list is full. */
static int slot(int *n, int max, int found, const char *what, const char *origin,
		struct gp_error *err)
{
	if (found < *n)
		return found;
	if (*n == max)
		return gp_error_set(err, GP_EINPUT, origin, 0, 0, "too many %s (at most %d)", what,
				    max);
	return (*n)++;
}

static int catalog_add_gpu(struct catalog *cat, const struct gpu *g, const char *origin,
			   struct gp_error *err)
{
	int i;

	if (strlen(origin) >= sizeof(cat->gpu_origin[0])) /* never kept cut short */
		return gp_error_set(err, GP_EINPUT, origin, 0, 0, "cannot keep the file's name");
	for (i = 0; i < cat->ngpus; i++)
		if (strcmp(cat->gpus[i].id, g->id) == 0)
			break;
	if ((i = slot(&cat->ngpus, CATALOG_MAX_GPUS, i, "GPUs", origin, err)) < 0)
		return -1;
	cat->gpus[i] = *g;
	copy_text(cat->gpu_origin[i], sizeof(cat->gpu_origin[i]), origin);
	return 0;
}

/* A skipped user file's or entry's message, kept for the front end; what says what was
 * skipped ("skipped", "GPU entry 'x' skipped"). */
static void catalog_warn(struct catalog *cat, const struct gp_error *e, const char *what)
{
	char buf[512];

	if (cat->nwarnings >= CATALOG_MAX_WARNINGS) {
		cat->nwarnings_dropped++;
		return;
	}
	snprintf(cat->warnings[cat->nwarnings++], sizeof(cat->warnings[0]), "%s (%s)",
		 gp_error_format(e, buf, sizeof(buf)), what);
}

/* Remembers a skipped user entry of id ("" for a whole gpus.yaml) with its reason, for
 * catalog_skipped(), and warns. */
static void catalog_skip(struct catalog *cat, bool gpu, const char *id, const struct gp_error *e,
			 const char *what)
{
	char buf[512];

	catalog_warn(cat, e, what);
	if (cat->nskipped >= CATALOG_MAX_SKIPPED)
		return;
	cat->skipped[cat->nskipped].gpu = gpu;
	copy_text(cat->skipped[cat->nskipped].id, sizeof(cat->skipped[0].id), id);
	copy_text(cat->skipped[cat->nskipped].why, sizeof(cat->skipped[0].why),
		  gp_error_format(e, buf, sizeof(buf)));
	cat->nskipped++;
}

const struct catalog_skip *catalog_skipped(const struct catalog *cat, bool gpu, const char *id)
{
	const struct catalog_skip *file = NULL;

	for (int i = 0; cat && id && i < cat->nskipped; i++) {
		const struct catalog_skip *k = &cat->skipped[i];
		if (k->gpu != gpu)
			continue;
		if (strcmp(k->id, id) == 0 && id[0])
			return k;
		if (gpu && !k->id[0] && !file)
			file = k;
	}
	return file;
}

/* The id an entry gives, when it gives one as a value that fits; "" otherwise. */
static void entry_id(const struct ynode *entry, char *buf, size_t size)
{
	buf[0] = '\0';
	if (entry->kind != YNODE_MAPPING)
		return;
	for (size_t m = 0; m + 1 < entry->n; m += 2) {
		const struct ynode *k = &entry->items[m], *v = &entry->items[m + 1];
		if (k->kind == YNODE_SCALAR && strcmp(k->text, "id") == 0 &&
		    v->kind == YNODE_SCALAR && v->len > 0 && v->len < size &&
		    !memchr(v->text, '\0', v->len)) {
			memcpy(buf, v->text, v->len + 1);
			return;
		}
	}
}

/* Takes entry i out of a list of *n (items stride bytes apart, origins beside them): a
 * user's entry for its id was skipped. */
static void drop_entry(void *items, size_t stride, char (*origin)[GP_PATH_MAX], int *n, int i)
{
	memmove((char *)items + (size_t)i * stride, (char *)items + (size_t)(i + 1) * stride,
		(size_t)(*n - i - 1) * stride);
	memmove(origin[i], origin[i + 1], (size_t)(*n - i - 1) * sizeof(origin[0]));
	(*n)--;
}

/* The 'gpus:' list of a gpus.yaml tree; NULL with err when the file is not one. */
static const struct ynode *gpus_list(const struct ynode *root, const char *file,
				     struct gp_error *err)
{
	const struct ynode *list = NULL;
	static const char *const top[] = {"gpus", NULL};

	if (!root || root->kind != YNODE_MAPPING) {
		gp_error_set(err, GP_EINPUT, file, root ? root->line : 1, root ? root->column : 1,
			     "expected a mapping with the key 'gpus:'");
		return NULL;
	}
	for (size_t i = 0; i + 1 < root->n; i += 2) {
		const struct ynode *k = &root->items[i];
		if (k->kind != YNODE_SCALAR) {
			gp_error_set(err, GP_EINPUT, file, k->line, k->column,
				     "expected a key name, found %s", ynode_kind_name(k));
			return NULL;
		}
		if (strcmp(k->text, "gpus") != 0) {
			unknown(err, file, k, closest_key(k->text, top, sizeof(char *)),
				"the catalog ('gpus:')");
			return NULL;
		}
		if (list) {
			gp_error_set(err, GP_EINPUT, file, k->line, k->column,
				     "duplicate key 'gpus'");
			return NULL;
		}
		list = &root->items[i + 1];
	}
	if (!list) {
		gp_error_set(err, GP_EINPUT, file, root->line, root->column,
			     "no 'gpus:' list in the catalog");
		return NULL;
	}
	if (list->kind != YNODE_SEQUENCE) {
		gp_error_set(err, GP_EINPUT, file, list->line, list->column,
			     "gpus: expected a list of GPU entries, found %s",
			     ynode_kind_name(list));
		return NULL;
	}
	return list;
}

/* Reads entry i of list into g: read_gpu, then an id given twice in one file is a mistake
 * (a later file may override). */
static int read_entry(const struct ynode *list, size_t i, const char *file, struct gpu *g,
		      struct gp_error *err)
{
	if (read_gpu(&list->items[i], file, g, err) != 0)
		return -1;
	for (size_t j = 0; j < i; j++) {
		char id[sizeof(g->id)];
		entry_id(&list->items[j], id, sizeof(id));
		if (strcmp(id, g->id) == 0)
			return gp_error_set(err, GP_EINPUT, file, list->items[i].line,
					    list->items[i].column,
					    "duplicate GPU id '%s' (first given at line %d)", g->id,
					    list->items[j].line);
	}
	return 0;
}

/* Parses a gpus.yaml into cat. With lenient (the user's file) an entry that does not read
 * is skipped with a warning, and so is the whole file when it does not parse: one bad
 * entry must not stop every command. */
static int parse_gpus(struct catalog *cat, const char *text, size_t len, const char *file,
		      bool lenient, struct gp_error *err)
{
	struct ynode *root = NULL;
	const struct ynode *list = NULL;
	struct gp_error one = {0};
	struct gp_error *e = lenient ? &one : err;
	int rc = -1;

	if (ynode_read(text, len, file, GPUS_MAX_DEPTH, &root, NULL, NULL, e) != 0 ||
	    !(list = gpus_list(root, file, e))) {
		if (lenient) {
			catalog_skip(cat, true, "", &one, "file skipped");
			rc = 0;
		}
		goto out;
	}
	for (size_t i = 0; i < list->n; i++) {
		struct gpu g;
		if (read_entry(list, i, file, &g, e) != 0) {
			char id[sizeof(g.id)], what[96];
			const struct gpu *found;
			if (!lenient)
				goto out;
			entry_id(&list->items[i], id, sizeof(id));
			found = id[0] ? catalog_find_gpu(cat, id) : NULL;
			/* a built-in GPU the entry meant to override is not used either (an
			 * entry of this file, given first, stays) */
			if (found && strcmp(cat->gpu_origin[found - cat->gpus], file) != 0) {
				drop_entry(cat->gpus, sizeof(cat->gpus[0]), cat->gpu_origin,
					   &cat->ngpus, (int)(found - cat->gpus));
				snprintf(what, sizeof(what),
					 "GPU entry '%s' skipped, and the built-in one too", id);
			} else {
				snprintf(what, sizeof(what),
					 id[0] ? "GPU entry '%s' skipped" : "GPU entry skipped",
					 id);
			}
			catalog_skip(cat, true, id, &one, what);
			continue;
		}
		/* a full catalog is not the file's fault: that stays an error */
		if (catalog_add_gpu(cat, &g, file, err) != 0)
			goto out;
	}
	rc = 0;
out:
	ynode_free(root);
	return rc;
}

int catalog_parse_gpus(struct catalog *cat, const char *text, size_t len, const char *file,
		       struct gp_error *err)
{
	return parse_gpus(cat, text, len, file, false, err);
}

/* ---- models -------------------------------------------------------------------------- */

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int catalog_add_model(struct catalog *cat, const char *id, const struct model *m,
			     const char *origin, struct gp_error *err)
{
	int i;

	if (strlen(origin) >= sizeof(cat->model_origin[0])) /* never kept cut short */
		return gp_error_set(err, GP_EINPUT, origin, 0, 0, "cannot keep the file's name");
	for (i = 0; i < cat->nmodels; i++)
		if (strcmp(cat->models[i].id, id) == 0)
			break;
	if ((i = slot(&cat->nmodels, CATALOG_MAX_MODELS, i, "models", origin, err)) < 0)
		return -1;
	copy_text(cat->models[i].id, sizeof(cat->models[i].id), id);
	cat->models[i].model = *m;
	cat->models[i].model.preset[0] = '\0';
	cat->models[i].model.hf_config[0] = '\0';
	copy_text(cat->model_origin[i], sizeof(cat->model_origin[i]), origin);
	return 0;
}

/* Reads every DIR/models/ *.json in name order. With lenient (the user's folder) a file
 * that does not import is skipped with a warning: one bad file must not stop every
 * command. */
static int catalog_load_models(struct catalog *cat, const char *dir, int optional, bool lenient,
			       struct gp_error *err)
{
	char path[4096];
	DIR *d;
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0;
	int rc = -1;

	if (snprintf(path, sizeof(path), "%s/models", dir) >= (int)sizeof(path))
		return gp_error_set(err, GP_EIO, dir, 0, 0, "path too long (limit %zu bytes)",
				    sizeof(path) - 1);
	d = opendir(path);
	if (!d) {
		if (optional)
			return 0;
		return gp_error_set(err, GP_EIO, path, 0, 0, "cannot open the models folder");
	}
	while ((de = readdir(d)) != NULL) {
		size_t l = strlen(de->d_name);
		if (l <= 5 || strcmp(de->d_name + l - 5, ".json") != 0 || de->d_name[0] == '.')
			continue;
		if (n == cap) {
			size_t ncap = cap ? cap * 2 : 64;
			char **nn = realloc(names, ncap * sizeof(*nn));
			if (!nn) {
				gp_error_set(err, GP_EIO, path, 0, 0, "out of memory");
				goto out;
			}
			names = nn;
			cap = ncap;
		}
		names[n] = strdup(de->d_name);
		if (!names[n]) {
			gp_error_set(err, GP_EIO, path, 0, 0, "out of memory");
			goto out;
		}
		n++;
	}
	if (n)
		qsort(names, n, sizeof(*names), compare_names);
	for (size_t i = 0; i < n; i++) {
		char file[4400], id[64] = "";
		const struct catalog_model *found;
		struct model m;
		size_t l = strlen(names[i]) - 5;

		struct gp_error one = {0};
		struct gp_error *e = lenient ? &one : err;

		snprintf(file, sizeof(file), "%s/%s", path, names[i]);
		if (l >= sizeof(cat->models[0].id)) {
			gp_error_set(e, GP_EINPUT, file, 0, 0,
				     "model id '%.*s' is too long "
				     "(at most %zu characters)",
				     (int)l, names[i], sizeof(cat->models[0].id) - 1);
			goto bad;
		}
		snprintf(id, sizeof(id), "%.*s", (int)l, names[i]);
		memset(&m, 0, sizeof(m));
		if (hf_config_load_file(file, &m, e) != 0)
			goto bad;
		/* a full catalog is not the file's fault: that stays an error */
		if (catalog_add_model(cat, id, &m, file, err) != 0)
			goto out;
		continue;
	bad:
		if (!lenient)
			goto out;
		found = id[0] ? catalog_find_model(cat, id) : NULL;
		if (found)
			drop_entry(cat->models, sizeof(cat->models[0]), cat->model_origin,
				   &cat->nmodels, (int)(found - cat->models));
		catalog_skip(cat, false, id, &one,
			     found ? "skipped, and the built-in model of that id too" : "skipped");
	}
	rc = 0;
out:
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	closedir(d);
	return rc;
}

static bool file_exists(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0;
}

static int load_dir(struct catalog *cat, const char *dir, int optional, bool lenient,
		    struct gp_error *err)
{
	char path[4096];
	char *text = NULL;
	size_t len = 0;
	int rc;

	if (snprintf(path, sizeof(path), "%s/gpus.yaml", dir) >= (int)sizeof(path))
		return gp_error_set(err, GP_EIO, dir, 0, 0, "path too long (limit %zu bytes)",
				    sizeof(path) - 1);
	if (!optional || file_exists(path)) {
		struct gp_error one = {0};
		if (file_read_all(path, CATALOG_MAX_FILE_BYTES, &text, &len,
				  lenient ? &one : err) != 0) {
			if (!lenient)
				return -1;
			catalog_skip(cat, true, "", &one, "file skipped");
		} else {
			rc = parse_gpus(cat, text, len, path, lenient, err);
			free(text);
			if (rc != 0)
				return -1;
		}
	}
	return catalog_load_models(cat, dir, optional, lenient, err);
}

int catalog_load_dir(struct catalog *cat, const char *dir, int optional, struct gp_error *err)
{
	return load_dir(cat, dir, optional, false, err);
}

/* The folder of the running program: from exe_path when it names one, else /proc. */
static bool exe_dir(const char *exe_path, char *buf, size_t size)
{
	const char *slash;

	if (exe_path && strchr(exe_path, '/')) {
		slash = strrchr(exe_path, '/');
		/* "/gpuplan" lives in "/" */
		snprintf(buf, size, "%.*s", slash == exe_path ? 1 : (int)(slash - exe_path),
			 exe_path);
		return true;
	}
	{
		ssize_t n = readlink("/proc/self/exe", buf, size - 1);
		char *s;
		if (n <= 0 || (size_t)n >= size - 1)
			return false;
		buf[n] = '\0';
		s = strrchr(buf, '/');
		if (!s)
			return false;
		if (s == buf)
			s[1] = '\0';
		else
			*s = '\0';
		return true;
	}
}

int catalog_load_default(struct catalog *cat, const char *exe_path, struct gp_error *err)
{
	const char *env = getenv("GPUPLAN_CATALOG");
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	char dir[4096], probe[4200], user[4096];

	if (env && env[0]) {
		if (catalog_load_dir(cat, env, 0, err) != 0)
			return -1;
	} else {
		/* beside the program: `catalog` in a build tree, then ../share/gpuplan for an
		 * installed one, wherever it was installed (DESTDIR, a moved prefix, a build
		 * configured with another PREFIX), then the DATADIR fixed at build time */
		static const char *const beside[] = {"/catalog", "/../share/gpuplan"};
		bool found = false, have_dir = exe_dir(exe_path, dir, sizeof(dir) - 32);
		size_t l = have_dir ? strlen(dir) : 0;

		for (size_t i = 0; have_dir && !found && i < 2; i++) {
			snprintf(dir + l, sizeof(dir) - l, "%s", beside[i]);
			snprintf(probe, sizeof(probe), "%s/gpus.yaml", dir);
			if (file_exists(probe)) {
				if (catalog_load_dir(cat, dir, 0, err) != 0)
					return -1;
				found = true;
			}
		}
		if (!found) {
			snprintf(probe, sizeof(probe), "%s/gpus.yaml", GPUPLAN_DATADIR);
			if (!file_exists(probe))
				return gp_error_set(err, GP_EIO, NULL, 0, 0,
						    "no catalog found (looked in $GPUPLAN_CATALOG, "
						    "'catalog' and '../share/gpuplan' beside the "
						    "program, and %s)",
						    GPUPLAN_DATADIR);
			if (catalog_load_dir(cat, GPUPLAN_DATADIR, 0, err) != 0)
				return -1;
		}
	}
	/* the user's catalog adds or overrides entries by id */
	if (xdg && xdg[0] == '/')
		snprintf(user, sizeof(user), "%s/gpuplan", xdg);
	else if (home && home[0])
		snprintf(user, sizeof(user), "%s/.config/gpuplan", home);
	else
		return 0;
	return load_dir(cat, user, 1, true, err);
}
