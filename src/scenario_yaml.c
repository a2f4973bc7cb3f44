/* scenario_yaml.c - scenario files: read strictly by the field table, written canonically. */
#include "scenario_yaml.h"

#include <stdbool.h>
#include <stdio.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "file.h"
#include "scenario_sets.h"
#include "text.h"
#include "yaml_doc.h"

/*
 * Reading happens in three steps, each over plain data:
 *  1. ynode_read: libyaml's event parser (never its document loader, which expands
 *     aliases) builds a small tree of our own nodes, rejecting anchors, aliases, tags,
 *     deep nesting and anything libyaml itself cannot read. No libyaml structure outlives
 *     the function.
 *  2. the scenario walker checks every key against the field table (unknown keys,
 *     duplicates, node kinds) and collects (field, value, position) records;
 *  3. the records are applied: presets first (model.preset, model.hf_config,
 *     hardware.gpu), then every other field in file order, so fields override presets
 *     wherever they are written.
 */

/* ---- problems ------------------------------------------------------------------------ */

/* Whether another problem is worth details that cost time (suggestions): a file of a
 * million bad keys must still be rejected quickly. */
static bool sink_wants_more(const struct ysink *k)
{
	if (k->problems)
		return k->problems->count < GP_MAX_PROBLEMS;
	return k->count == 0;
}

/* Whether reading can stop: without a list, only the first problem is kept. */
static bool sink_done(const struct ysink *k)
{
	return !k->problems && k->count > 0;
}

/* ---- the scenario walker ------------------------------------------------------------- */

#define KEY_MAX 128

struct record {
	const struct field *f;
	const char *text; /* points into the tree or to joined */
	char *joined;	  /* a list value written out, owned */
	int key_line, key_column;
	int line, column; /* of the value */
};

struct walker {
	struct ysink sink;
	struct record *records;
	int nrecords;
	int *seen; /* per field index: 1 + record index, or 0 */
	struct {
		char key[KEY_MAX];
		int line;
	} sections[32];
	int nsections;
	struct scenario_source *src;
};

/* Whether key (full, dotted) names a section: some field lies below it. */
static bool is_section(const char *key)
{
	size_t n = strlen(key);

	for (const struct field *f = scenario_fields; f->key; f++)
		if (strncmp(f->key, key, n) == 0 && f->key[n] == '.')
			return true;
	return false;
}

/* The name of the child of section prefix ("" or "model.") that field key lies in. */
static size_t child_name(const char *key, size_t plen, char *buf, size_t size)
{
	const char *rest = key + plen, *dot = strchr(rest, '.');
	size_t n = dot ? (size_t)(dot - rest) : strlen(rest);

	snprintf(buf, size, "%.*s", (int)n, rest);
	return n;
}

/* Whether a field before f under prefix has the child name (the unknown-key message lists
 * each child once). */
static bool child_before(const struct field *f, const char *prefix, size_t plen, const char *name)
{
	char other[KEY_MAX];

	for (const struct field *g = scenario_fields; g < f; g++) {
		if (strncmp(g->key, prefix, plen) != 0)
			continue;
		child_name(g->key, plen, other, sizeof(other));
		if (strcmp(other, name) == 0)
			return true;
	}
	return false;
}

/* Message for an unknown key at section prefix: the closest name at this level, else the
 * closest field anywhere, else the names this level takes. */
static void unknown_key(struct walker *w, const struct ynode *k, const char *prefix,
			const char *full)
{
	size_t plen = strlen(prefix);
	const char *local = k->text;
	char best[KEY_MAX] = "", name[KEY_MAX], list[SCENARIO_KEYS_LIST_BYTES] = "";
	int bestd = 1000, nchildren = 0;
	size_t ln = 0;
	const char *near;

	if (!sink_wants_more(&w->sink)) {
		ysink_report(&w->sink, k->line, k->column, full, "unknown key '%s'", local);
		return;
	}
	char last[KEY_MAX] = "";

	if (strchr(local, '.') && scenario_field_find(full)) {
		char first[KEY_MAX];
		child_name(local, 0, first, sizeof(first));
		ysink_report(&w->sink, k->line, k->column, full,
			     "dotted key '%s' (expected it nested: '%s:' with '%s:' under it)",
			     local, first, local + strlen(first) + 1);
		return;
	}
	for (const struct field *f = scenario_fields; f->key; f++) {
		int d;
		if (strncmp(f->key, prefix, plen) != 0)
			continue;
		child_name(f->key, plen, name, sizeof(name));
		/* each child once: a subsection's fields are mostly contiguous, but a field
		 * added later may stand apart from its section (workload.attention_weights
		 * after efficiency.*), so an earlier field's child counts too */
		if (strcmp(name, last) == 0 || child_before(f, prefix, plen, name))
			continue;
		snprintf(last, sizeof(last), "%s", name);
		nchildren++;
		if (ln < sizeof(list))
			ln += (size_t)snprintf(list + ln, sizeof(list) - ln, "%s%s",
					       nchildren > 1 ? ", " : "", name);
		d = text_edit_distance(local, name);
		if (d < bestd) {
			bestd = d;
			snprintf(best, sizeof(best), "%s", name);
		}
	}
	if (best[0] && bestd <= (int)strlen(local) / 3 + 1 && bestd < (int)strlen(local)) {
		ysink_report(&w->sink, k->line, k->column, full,
			     "unknown key '%s' (did you mean '%s'?)", local, best);
		return;
	}
	/* a key of another section, written here ("seq_len" at the top) */
	near = strchr(local, '.') ? NULL : scenario_field_suggest(local, NULL);
	if (near) {
		const char *dot = strrchr(near, '.');
		if (text_edit_distance(local, dot ? dot + 1 : near) > (int)strlen(local) / 3 + 1)
			near = NULL;
	}
	if (near) {
		ysink_report(&w->sink, k->line, k->column, full,
			     "unknown key '%s' (did you mean '%s'?)", local,
			     strncmp(near, prefix, plen) == 0 ? near + plen : near);
		return;
	}
	if (nchildren <= SCENARIO_KEYS_LISTED && ln < sizeof(list))
		ysink_report(&w->sink, k->line, k->column, full,
			     "unknown key '%s' (expected one of %s)", local, list);
	else
		ysink_report(&w->sink, k->line, k->column, full,
			     "unknown key '%s' (expected a key of '%.*s'; see gpuplan-scenario(5))",
			     local, plen ? (int)plen - 1 : 0, prefix);
}

static void source_add(struct walker *w, const char *key, int line, int column)
{
	struct scenario_source *src = w->src;

	if (!src || src->nkeys >= SCENARIO_MAX_KEYS)
		return;
	snprintf(src->keys[src->nkeys].key, sizeof(src->keys[0].key), "%s", key);
	src->keys[src->nkeys].line = line;
	src->keys[src->nkeys].column = column;
	src->nkeys++;
}

/* Joins a list of plain values ("[q, k, v]") into "q, k, v". */
static int join_list(struct walker *w, const struct ynode *v, const char *full, char **out)
{
	size_t n = 1;
	char *buf;

	if (v->n == 0) {
		ysink_report(&w->sink, v->line, v->column, full,
			     "%s: empty list (expected at least one of q, k, v, o, gate, up, down)",
			     full);
		return -1;
	}
	for (size_t i = 0; i < v->n; i++) {
		if (v->items[i].kind != YNODE_SCALAR) {
			if (v->items[i].kind != YNODE_BAD)
				ysink_report(&w->sink, v->items[i].line, v->items[i].column, full,
					     "%s: expected a list of names, found %s in it", full,
					     ynode_kind_name(&v->items[i]));
			return -1;
		}
		n += v->items[i].len + 2;
	}
	buf = malloc(n);
	if (!buf) {
		ysink_report(&w->sink, v->line, v->column, full, "out of memory");
		return -1;
	}
	buf[0] = '\0';
	for (size_t i = 0, at = 0; i < v->n; i++)
		at += (size_t)snprintf(buf + at, n - at, "%s%s", i ? ", " : "", v->items[i].text);
	*out = buf;
	return 0;
}

static void walk_mapping(struct walker *w, const struct ynode *map, const char *prefix);

static void walk_pair(struct walker *w, const struct ynode *k, const struct ynode *v,
		      const char *prefix)
{
	char full[KEY_MAX];
	const struct field *f;

	if (k->kind != YNODE_SCALAR) {
		if (k->kind != YNODE_BAD)
			ysink_report(&w->sink, k->line, k->column, NULL,
				     "expected a key name here, found %s", ynode_kind_name(k));
		return;
	}
	if (strlen(prefix) + k->len >= sizeof(full) || memchr(k->text, '\0', k->len)) {
		ysink_report(&w->sink, k->line, k->column, NULL, "unknown key (too long)");
		return;
	}
	snprintf(full, sizeof(full), "%s%s", prefix, k->text);

	if (!strchr(k->text, '.') && is_section(full)) {
		for (int i = 0; i < w->nsections; i++) {
			if (strcmp(w->sections[i].key, full) == 0) {
				ysink_report(&w->sink, k->line, k->column, full,
					     "duplicate key '%s' (first given at line %d)", k->text,
					     w->sections[i].line);
				return;
			}
		}
		if (w->nsections < (int)(sizeof(w->sections) / sizeof(w->sections[0]))) {
			snprintf(w->sections[w->nsections].key, KEY_MAX, "%s", full);
			w->sections[w->nsections].line = k->line;
			w->nsections++;
		}
		source_add(w, full, k->line, k->column);
		if (v->kind == YNODE_MAPPING) {
			char sub[KEY_MAX + 1];
			snprintf(sub, sizeof(sub), "%s.", full);
			walk_mapping(w, v, sub);
		} else if (v->kind == YNODE_SCALAR && v->plain && v->len == 0) {
			/* "efficiency:" with nothing under it: an empty section */
		} else if (v->kind != YNODE_BAD) {
			ysink_report(&w->sink, v->line, v->column, full,
				     "%s: expected a mapping of keys under it, found %s", full,
				     ynode_kind_name(v));
		}
		return;
	}

	f = strchr(k->text, '.') ? NULL : scenario_field_find(full);
	if (!f) {
		unknown_key(w, k, prefix, full);
		return;
	}
	{
		int idx = (int)(f - scenario_fields);
		struct record *rec;

		if (w->seen[idx]) {
			ysink_report(&w->sink, k->line, k->column, full,
				     "duplicate key '%s' (first given at line %d)", k->text,
				     w->records[w->seen[idx] - 1].key_line);
			return;
		}
		source_add(w, full, k->line, k->column);
		rec = &w->records[w->nrecords];
		memset(rec, 0, sizeof(*rec));
		rec->f = f;
		rec->key_line = k->line;
		rec->key_column = k->column;
		rec->line = v->line;
		rec->column = v->column;
		switch (v->kind) {
		case YNODE_SCALAR:
			if (memchr(v->text, '\0', v->len)) {
				ysink_report(&w->sink, v->line, v->column, full,
					     "%s: the value contains a NUL character", full);
				return;
			}
			rec->text = v->text;
			break;
		case YNODE_SEQUENCE:
			if (f->type != FIELD_TARGETS) {
				ysink_report(&w->sink, v->line, v->column, full,
					     "%s: expected a single value, found a list", full);
				return;
			}
			if (join_list(w, v, full, &rec->joined) != 0)
				return;
			rec->text = rec->joined;
			break;
		case YNODE_MAPPING:
			ysink_report(&w->sink, v->line, v->column, full,
				     "%s: expected a single value, found a mapping", full);
			return;
		case YNODE_BAD:
			return;
		}
		w->seen[idx] = ++w->nrecords;
	}
}

static void walk_mapping(struct walker *w, const struct ynode *map, const char *prefix)
{
	for (size_t i = 0; i + 1 < map->n && !sink_done(&w->sink); i += 2)
		walk_pair(w, &map->items[i], &map->items[i + 1], prefix);
}

static void apply_record(struct walker *w, struct scenario *s, const struct catalog *cat,
			 const struct record *rec)
{
	struct gp_error e;
	const struct field *f = rec->f;

	memset(&e, 0, sizeof(e));
	if (strcmp(f->key, "gpuplan") == 0) {
		double v;
		if (units_parse(UNIT_NONE, rec->text, &v, NULL) == 0 && v != SCENARIO_VERSION) {
			ysink_report(
			    &w->sink, rec->line, rec->column, f->key,
			    "unsupported schema version '%s' (this gpuplan reads version %d)",
			    rec->text, SCENARIO_VERSION);
			return;
		}
	}
	if (scenario_field_load(s, cat, f, rec->text, &e) == 0)
		return;
	if (e.code == GP_EIO || !e.file[0]) {
		/* point at the value; a file the value names that cannot be read is bad input
		 * of this file */
		if (e.code == GP_EIO && strcmp(f->key, "model.hf_config") == 0) {
			char msg[sizeof(e.message)];
			memcpy(msg, e.message, sizeof(msg));
			gp_error_set(&e, GP_EINPUT, w->sink.file, rec->line, rec->column,
				     "%s: cannot read '%s': %s", f->key, rec->text, msg);
		} else {
			snprintf(e.file, sizeof(e.file), "%s", w->sink.file);
			e.line = rec->line;
			e.column = rec->column;
		}
	}
	/* else: an error inside the Hugging Face config, with its own file and position */
	snprintf(e.field, sizeof(e.field), "%s", f->key);
	ysink_add(&w->sink, &e);
}

int scenario_parse(const char *text, size_t len, const char *name, const struct catalog *cat,
		   struct scenario *s, struct scenario_source *src, struct gp_problems *problems,
		   struct gp_error *err)
{
	struct walker w;
	struct ynode *root = NULL;
	int nfields = scenario_field_count(), nread = 0, rc = -1;
	int start = problems ? problems->count : 0;

	memset(&w, 0, sizeof(w));
	w.sink.file = name;
	w.sink.problems = problems;
	w.sink.err = err;
	w.src = src;
	scenario_init(s);
	if (src)
		memset(src, 0, sizeof(*src));
	/* a path cut to fit would name another file, and a relative hf_config would be read
	 * from another folder: refused whole (gp_error_set says "path too long") */
	if (name && strlen(name) >= sizeof(s->path))
		return gp_error_set(err, GP_EINPUT, name, 0, 0, "cannot read the scenario");
	snprintf(s->path, sizeof(s->path), "%s", name ? name : "");
	if (src)
		snprintf(src->file, sizeof(src->file), "%s", name ? name : "");
	if (len > SCENARIO_MAX_FILE_BYTES) {
		ysink_report(&w.sink, 1, 1, NULL, "file is larger than the %d-byte limit",
			     SCENARIO_MAX_FILE_BYTES);
		return -1;
	}
	w.records = calloc((size_t)nfields, sizeof(*w.records));
	w.seen = calloc((size_t)nfields, sizeof(*w.seen));
	if (!w.records || !w.seen) {
		struct gp_error e;
		gp_error_set(&e, GP_EIO, name, 0, 0, "out of memory");
		ysink_add(&w.sink, &e);
		goto out;
	}

	if (ynode_read(text, len, name, SCENARIO_MAX_DEPTH, &root, problems, &nread, err) != 0 &&
	    !root) {
		w.sink.count += nread;
		goto out;
	}
	w.sink.count += nread;
	if (sink_done(&w.sink))
		goto out;
	if (!root || (root->kind == YNODE_SCALAR && root->plain && root->len == 0)) {
		ysink_report(
		    &w.sink, 1, 1, NULL,
		    "empty file (expected a scenario: keys such as model:, workload:, hardware:)");
		goto out;
	}
	if (root->kind != YNODE_MAPPING) {
		if (root->kind != YNODE_BAD)
			ysink_report(&w.sink, root->line, root->column, NULL,
				     "expected a mapping of keys at the top (model:, workload:, "
				     "hardware: ...), found %s",
				     ynode_kind_name(root));
		goto out;
	}
	walk_mapping(&w, root, "");
	{
		/* a catalog preset or a Hugging Face config: each gives the whole model, so a
		 * file with both is ambiguous */
		const struct field *pf = scenario_field_find("model.preset");
		const struct field *hf = scenario_field_find("model.hf_config");
		int pi = pf ? w.seen[pf - scenario_fields] : 0;
		int hi = hf ? w.seen[hf - scenario_fields] : 0;
		if (pi && hi)
			ysink_report(
			    &w.sink, w.records[hi - 1].line, w.records[hi - 1].column,
			    "model.hf_config",
			    "model.hf_config given with model.preset (expected one of them: "
			    "each gives the whole model)");
	}
	if (sink_done(&w.sink))
		goto out;

	/* presets first, in table order (model.preset, model.hf_config, hardware.gpu), then
	 * everything else in file order */
	for (int idx = 0; idx < nfields; idx++)
		if ((scenario_fields[idx].flags & FIELD_PRESET) && w.seen[idx])
			apply_record(&w, s, cat, &w.records[w.seen[idx] - 1]);
	for (int i = 0; i < w.nrecords && !sink_done(&w.sink); i++)
		if (!(w.records[i].f->flags & FIELD_PRESET))
			apply_record(&w, s, cat, &w.records[i]);
	/* the keys the author wrote, which a save keeps (issue 15) */
	for (int idx = 0; idx < nfields && idx < SCENARIO_MAX_FIELDS; idx++)
		if (w.seen[idx])
			s->written[idx / 8] |= (unsigned char)(1u << (idx % 8));
out:
	rc = w.sink.count ? -1 : 0;
	if (problems && problems->count > start) {
		/* in file order, so `gpuplan check` reads top to bottom */
		for (int i = start + 1; i < problems->count; i++) {
			struct gp_error e = problems->items[i];
			int j = i;
			while (j > start && (problems->items[j - 1].line > e.line ||
					     (problems->items[j - 1].line == e.line &&
					      problems->items[j - 1].column > e.column))) {
				problems->items[j] = problems->items[j - 1];
				j--;
			}
			problems->items[j] = e;
		}
		if (err)
			*err = problems->items[start];
	}
	if (w.records)
		for (int i = 0; i < w.nrecords; i++)
			free(w.records[i].joined);
	free(w.records);
	free(w.seen);
	ynode_free(root);
	return rc;
}

int scenario_load_file(const char *path, const struct catalog *cat, struct scenario *s,
		       struct scenario_source *src, struct gp_problems *problems,
		       struct gp_error *err)
{
	char *text = NULL;
	size_t len = 0;
	struct gp_error e;
	int rc;

	memset(&e, 0, sizeof(e));
	if (file_read_all(path, SCENARIO_MAX_FILE_BYTES, &text, &len, &e) != 0) {
		scenario_init(s);
		if (e.code == GP_EINPUT) {
			e.line = 1;
			e.column = 1;
		}
		if (problems)
			gp_problems_add(problems, &e);
		if (err)
			*err = e;
		return -1;
	}
	rc = scenario_parse(text, len, path, cat, s, src, problems, err);
	free(text);
	return rc;
}

/* ---- writing ------------------------------------------------------------------------- */

struct writer {
	struct yemit *emitter;
	const struct scenario *s;
	const bool *emit; /* per field index */
};

static void writer_scalar(struct writer *w, const char *text, enum yemit_style style)
{
	yemit_scalar(w->emitter, text, style);
}

static void writer_mapping(struct writer *w, int start)
{
	if (start)
		yemit_mapping_start(w->emitter);
	else
		yemit_mapping_end(w->emitter);
}

static void writer_value(struct writer *w, const struct field *f)
{
	char buf[4200];

	if (f->type == FIELD_TARGETS) {
		unsigned bits = *(const unsigned *)((const char *)w->s + f->offset);
		yemit_flow_list_start(w->emitter);
		for (int i = 0; f->names[i]; i++)
			if (bits & (1u << i))
				writer_scalar(w, f->names[i], YEMIT_ANY);
		yemit_list_end(w->emitter);
		return;
	}
	scenario_field_format(w->s, f, buf, sizeof(buf));
	if (strcmp(f->key, "notes") == 0)
		writer_scalar(w, buf, YEMIT_LITERAL);
	else
		writer_scalar(w, buf, YEMIT_ANY);
}

static bool writer_any_below(const struct writer *w, const char *prefix)
{
	size_t plen = strlen(prefix);

	for (int i = 0; scenario_fields[i].key; i++)
		if (w->emit[i] && strncmp(scenario_fields[i].key, prefix, plen) == 0)
			return true;
	return false;
}

/* Writes the fields below prefix ("" or "model.") in table order; a subsection is written
 * whole where its first field is. */
static void writer_level(struct writer *w, const char *prefix)
{
	size_t plen = strlen(prefix);
	char done[16][KEY_MAX];
	int ndone = 0;

	for (int i = 0; scenario_fields[i].key; i++) {
		const struct field *f = &scenario_fields[i];
		char child[KEY_MAX], sub[KEY_MAX + 1];
		int j;

		if (strncmp(f->key, prefix, plen) != 0)
			continue;
		if (!strchr(f->key + plen, '.')) {
			if (w->emit[i]) {
				writer_scalar(w, f->key + plen, YEMIT_ANY);
				writer_value(w, f);
			}
			continue;
		}
		child_name(f->key, plen, child, sizeof(child));
		for (j = 0; j < ndone; j++)
			if (strcmp(done[j], child) == 0)
				break;
		if (j < ndone || ndone == 16)
			continue;
		snprintf(done[ndone++], KEY_MAX, "%s", child);
		snprintf(sub, sizeof(sub), "%s%s.", prefix, child);
		if (!writer_any_below(w, sub))
			continue;
		writer_scalar(w, child, YEMIT_ANY);
		writer_mapping(w, 1);
		writer_level(w, sub);
		writer_mapping(w, 0);
	}
}

/* Emits the fields marked in emit (below only, when not NULL: "model.") as one document. */
static int write_document(const struct scenario *s, const bool *emit, const char *only, char **out,
			  size_t *len, struct gp_error *err)
{
	struct writer w;

	memset(&w, 0, sizeof(w));
	w.s = s;
	w.emit = emit;
	w.emitter = yemit_new(err);
	if (!w.emitter)
		return -1;
	writer_mapping(&w, 1);
	if (only) {
		char name[KEY_MAX];
		child_name(only, 0, name, sizeof(name));
		writer_scalar(&w, name, YEMIT_ANY);
		writer_mapping(&w, 1);
		writer_level(&w, only);
		writer_mapping(&w, 0);
	} else {
		writer_level(&w, "");
	}
	writer_mapping(&w, 0);
	return yemit_finish(w.emitter, out, len, err);
}

bool scenario_field_written(const struct scenario *s, int idx)
{
	return idx >= 0 && idx < SCENARIO_MAX_FIELDS && (s->written[idx / 8] >> (idx % 8)) & 1u;
}

static void mark_fields(const struct scenario *s, const struct scenario *base, bool *emit)
{
	for (int i = 0; scenario_fields[i].key; i++) {
		const struct field *f = &scenario_fields[i];
		/* the schema version, and workload.kind, which gpuplan-scenario(5) requires of a
		 * file even when it is the default */
		if (strcmp(f->key, "gpuplan") == 0 || strcmp(f->key, "workload.kind") == 0)
			emit[i] = true;
		else if (f->flags & FIELD_PRESET)
			emit[i] = ((const char *)s + f->offset)[0] != '\0';
		else
			emit[i] = !scenario_field_equal(s, base, f) || scenario_field_written(s, i);
	}
}

int scenario_format_yaml(const struct scenario *s, const struct catalog *cat, char **out,
			 size_t *len, struct gp_error *err)
{
	struct scenario *base = malloc(sizeof(*base));
	bool *emit = calloc((size_t)scenario_field_count(), sizeof(*emit));
	int rc = -1;

	if (!base || !emit) {
		gp_error_set(err, GP_EIO, NULL, 0, 0, "out of memory");
		goto out;
	}
	/* what s is compared with, so that fields equal to their preset or default are left
	 * out */
	scenario_preset_base(s, cat, base);
	mark_fields(s, base, emit);
	rc = write_document(s, emit, NULL, out, len, err);
out:
	free(base);
	free(emit);
	return rc;
}

int scenario_format_model_yaml(const struct model *m, char **out, size_t *len, struct gp_error *err)
{
	struct scenario *s = malloc(sizeof(*s)), *base = malloc(sizeof(*base));
	bool *emit = calloc((size_t)scenario_field_count(), sizeof(*emit));
	int rc = -1;

	if (!s || !base || !emit) {
		gp_error_set(err, GP_EIO, NULL, 0, 0, "out of memory");
		goto out;
	}
	scenario_init(s);
	s->model = *m;
	scenario_init(base);
	mark_fields(s, base, emit);
	for (int i = 0; scenario_fields[i].key; i++)
		if (strncmp(scenario_fields[i].key, "model.", 6) != 0)
			emit[i] = false;
	rc = write_document(s, emit, "model.", out, len, err);
out:
	free(s);
	free(base);
	free(emit);
	return rc;
}

/* ---- saving with the file's comments --------------------------------------------------- */

/* The bytes [*b, *e) of the one-line scalar value of the key leaf at line:column of text;
 * false when the value there is not a plain or quoted scalar on that line (nothing after
 * it but blanks and a comment). */
static bool value_span(const char *text, size_t len, int line, int column, const char *leaf,
		       size_t *b, size_t *e)
{
	size_t p = 0, n = strlen(leaf);

	for (int l = 1; l < line; l++) {
		const char *nl = memchr(text + p, '\n', len - p);
		if (!nl)
			return false;
		p = (size_t)(nl - text) + 1;
	}
	if (column < 1 || (size_t)(column - 1) + n > len - p)
		return false;
	p += (size_t)column - 1;
	if (memcmp(text + p, leaf, n) != 0)
		return false;
	p += n;
	while (p < len && text[p] == ' ')
		p++;
	if (p + 1 >= len || text[p] != ':' || (text[p + 1] != ' ' && text[p + 1] != '\t'))
		return false;
	p++;
	while (p < len && (text[p] == ' ' || text[p] == '\t'))
		p++;
	/* nothing on the line (a block below it), a flow list or mapping, a block scalar, an
	 * anchor, alias or tag: not a one-line scalar */
	if (p >= len || text[p] == '\0' || strchr("\r\n#[{|>&*!%@`", text[p]))
		return false;
	*b = p;
	if (text[p] == '"' || text[p] == '\'') {
		char q = text[p++];
		while (p < len && text[p] != '\n') {
			if (q == '"' && text[p] == '\\' && p + 1 < len) {
				p += 2;
				continue;
			}
			if (text[p] == q && q == '\'' && p + 1 < len && text[p + 1] == '\'') {
				p += 2;
				continue;
			}
			if (text[p] == q)
				break;
			p++;
		}
		if (p >= len || text[p] != q)
			return false;
		*e = ++p;
	} else {
		while (p < len && text[p] != '\n' && text[p] != '\r' &&
		       !(text[p] == '#' && (text[p - 1] == ' ' || text[p - 1] == '\t')))
			p++;
		while (text[p - 1] == ' ' || text[p - 1] == '\t')
			p--;
		*e = p;
	}
	while (p < len && (text[p] == ' ' || text[p] == '\t'))
		p++;
	return p >= len || text[p] == '\n' || text[p] == '\r' || text[p] == '#';
}

/* The value of f in s as the writer writes it after "key: ", when that is one line: 0, or
 * -1 (a list, the notes' block text, a value the emitter breaks over lines). */
static int value_text(const struct scenario *s, const struct field *f, char *out, size_t size)
{
	char buf[4200], *doc = NULL;
	const char *v, *nl;
	struct yemit *em;
	struct gp_error e;
	size_t dlen;
	int rc = -1;

	if (f->type == FIELD_TARGETS || strcmp(f->key, "notes") == 0)
		return -1;
	scenario_field_format(s, f, buf, sizeof(buf));
	if (!(em = yemit_new(&e)))
		return -1;
	yemit_mapping_start(em);
	yemit_scalar(em, "k", YEMIT_ANY);
	yemit_scalar(em, buf, YEMIT_ANY);
	yemit_mapping_end(em);
	if (yemit_finish(em, &doc, &dlen, &e) != 0)
		return -1;
	v = strstr(doc, "k: ");
	nl = v ? strchr(v + 3, '\n') : NULL;
	if (nl && (nl[1] == '\0' || strncmp(nl + 1, "...", 3) == 0) &&
	    (size_t)(nl - v - 3) < size) {
		memcpy(out, v + 3, (size_t)(nl - v - 3));
		out[nl - v - 3] = '\0';
		rc = 0;
	}
	free(doc);
	return rc;
}

struct splice {
	size_t b, e;
	char value[4200];
};

static int splice_cmp(const void *x, const void *y)
{
	const struct splice *a = x, *b = y;
	return a->b < b->b ? -1 : a->b > b->b;
}

/* The edits of s from the text orig, each a value's span and its new text: their count, or
 * -1 when some changed field is not a one-line scalar of orig. */
static int splice_find(const struct scenario *s, const struct scenario *o,
		       const struct scenario_source *src, const char *orig, size_t olen,
		       struct splice *sp)
{
	int n = 0;

	for (int i = 0; scenario_fields[i].key; i++) {
		const struct field *f = &scenario_fields[i];
		const char *leaf = strrchr(f->key, '.') ? strrchr(f->key, '.') + 1 : f->key;
		int k;

		if (scenario_field_equal(s, o, f))
			continue;
		for (k = 0; k < src->nkeys; k++)
			if (strcmp(src->keys[k].key, f->key) == 0)
				break;
		if (k == src->nkeys ||
		    !value_span(orig, olen, src->keys[k].line, src->keys[k].column, leaf, &sp[n].b,
				&sp[n].e) ||
		    value_text(s, f, sp[n].value, sizeof(sp[n].value)) != 0)
			return -1;
		n++;
	}
	qsort(sp, (size_t)n, sizeof(*sp), splice_cmp);
	return n;
}

int scenario_splice_yaml(const struct scenario *s, const struct catalog *cat, const char *orig,
			 size_t olen, char **out, size_t *len)
{
	struct scenario *o = malloc(sizeof(*o)), *t = malloc(sizeof(*t));
	struct scenario_source *src = malloc(sizeof(*src));
	struct splice *sp = malloc((size_t)scenario_field_count() * sizeof(*sp));
	struct gp_error e;
	char *text = NULL;
	size_t used = 0, at = 0, cap = olen + 1;
	int n, rc = -1;

	if (!o || !t || !src || !sp ||
	    scenario_parse(orig, olen, s->path, cat, o, src, NULL, &e) != 0 ||
	    (n = splice_find(s, o, src, orig, olen, sp)) < 0)
		goto out;
	for (int i = 0; i < n; i++)
		cap += strlen(sp[i].value);
	if (!(text = malloc(cap)))
		goto out;
	for (int i = 0; i < n; i++) {
		size_t vl = strlen(sp[i].value);
		if (sp[i].b < at)
			goto out;
		memcpy(text + used, orig + at, sp[i].b - at);
		used += sp[i].b - at;
		memcpy(text + used, sp[i].value, vl);
		used += vl;
		at = sp[i].e;
	}
	memcpy(text + used, orig + at, olen - at);
	used += olen - at;
	text[used] = '\0';
	/* the text must read back as s, field for field, or the canonical form is written */
	if (scenario_parse(text, used, s->path, cat, t, NULL, NULL, &e) != 0)
		goto out;
	for (int i = 0; scenario_fields[i].key; i++)
		if (!scenario_field_equal(s, t, &scenario_fields[i]))
			goto out;
	*out = text;
	*len = used;
	text = NULL;
	rc = 0;
out:
	free(text);
	free(o);
	free(t);
	free(src);
	free(sp);
	return rc;
}

int scenario_format_yaml_kept(const struct scenario *s, const struct catalog *cat, char **out,
			      size_t *len, bool *kept, struct gp_error *err)
{
	char *orig = NULL;
	size_t olen = 0;
	struct gp_error e;
	int rc = -1;

	*kept = false;
	if (s->path[0] && strcmp(s->path, "-") != 0 &&
	    file_read_all(s->path, SCENARIO_MAX_FILE_BYTES, &orig, &olen, &e) == 0)
		rc = scenario_splice_yaml(s, cat, orig, olen, out, len);
	free(orig);
	if (rc == 0) {
		*kept = true;
		return 0;
	}
	return scenario_format_yaml(s, cat, out, len, err);
}

/* The folder of path, resolved ("." for a bare name): 0, -1 when it cannot be resolved, -2
 * when its name is too long to resolve (never a shorter folder's). */
static int real_dir(const char *path, char *out)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	int n;

	if (!slash)
		n = snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		n = snprintf(dir, sizeof(dir), "/");
	else
		n = snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	if (n < 0 || (size_t)n >= sizeof(dir))
		return -2;
	return realpath(dir, out) ? 0 : -1;
}

/* A relative model.hf_config is relative to the scenario's own file: saved elsewhere, it
 * is rewritten relative to the new file, so the copy reads the same config. Left as it
 * is when either folder cannot be resolved; refused (-1, naming to) when the folder's
 * name or the rewritten path would not fit, since the path as written would then name
 * another file. */
static int rebase_hf_config(struct scenario *t, const char *to, struct gp_error *err)
{
	char from_dir[PATH_MAX], to_dir[PATH_MAX], cfg[PATH_MAX], joined[2 * PATH_MAX + 2];
	char rel[sizeof(t->model.hf_config)];
	const char *a, *b;
	size_t used = 0, common = 0, need;
	int rc;

	if (!t->model.hf_config[0] || t->model.hf_config[0] == '/' || !t->path[0] ||
	    strcmp(t->path, "-") == 0)
		return 0;
	if ((rc = real_dir(t->path, from_dir)) == 0)
		rc = real_dir(to, to_dir);
	if (rc == -2)
		return gp_error_set(err, GP_EINPUT, to, 0, 0,
				    "cannot save: the folder's name is too long to rewrite the "
				    "relative model.hf_config '%s' (limit %d bytes)",
				    t->model.hf_config, PATH_MAX - 1);
	if (rc != 0)
		return 0;
	snprintf(joined, sizeof(joined), "%s/%s", from_dir, t->model.hf_config);
	if (!realpath(joined, cfg))
		return 0;
	/* the folder both lie in: to_dir[0, common), ending where a '/' follows in both */
	if (strcmp(to_dir, "/") != 0) {
		size_t i = 0;
		while (to_dir[i] && to_dir[i] == cfg[i])
			i++;
		if ((to_dir[i] == '\0' || to_dir[i] == '/') && cfg[i] == '/') {
			common = i;
		} else {
			while (i > 0 && to_dir[i - 1] != '/')
				i--;
			common = i > 0 ? i - 1 : 0;
		}
		/* up from to_dir to that folder: one "../" a folder below it */
		for (a = to_dir + common; *a; a++)
			if (*a == '/')
				used += 3;
	}
	b = cfg + common;
	while (*b == '/')
		b++;
	need = used + strlen(b);
	if (need >= sizeof(rel))
		return gp_error_set(err, GP_EINPUT, to, 0, 0,
				    "cannot save: model.hf_config relative to this file would be "
				    "%zu bytes (limit %zu); give it as an absolute path",
				    need, sizeof(rel) - 1);
	for (size_t k = 0; k < used; k += 3)
		memcpy(rel + k, "../", 3);
	memcpy(rel + used, b, strlen(b) + 1);
	memcpy(t->model.hf_config, rel, need + 1);
	return 0;
}

static int save_file(const struct scenario *s, const struct catalog *cat, const char *path,
		     bool *kept, struct gp_error *err)
{
	struct scenario *t = malloc(sizeof(*t));
	char *text;
	size_t len;
	int rc;

	if (!t)
		return gp_error_set(err, GP_EIO, NULL, 0, 0, "out of memory");
	*t = *s;
	if (rebase_hf_config(t, path, err) != 0) {
		free(t);
		return -1;
	}
	if (kept)
		rc = scenario_format_yaml_kept(t, cat, &text, &len, kept, err);
	else
		rc = scenario_format_yaml(t, cat, &text, &len, err);
	free(t);
	if (rc != 0)
		return -1;
	rc = file_write_atomic(path, text, len, err);
	free(text);
	return rc;
}

int scenario_save_file(const struct scenario *s, const struct catalog *cat, const char *path,
		       struct gp_error *err)
{
	return save_file(s, cat, path, NULL, err);
}

int scenario_save_file_kept(const struct scenario *s, const struct catalog *cat, const char *path,
			    bool *kept, struct gp_error *err)
{
	return save_file(s, cat, path, kept, err);
}
