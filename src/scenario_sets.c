/* scenario_sets.c - values applied as a scenario file applies them: file fields read here,
 * presets before the fields that override them. */
#include "scenario_sets.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hf_config.h"
#include "text.h"

/* Copies the folder of path (with its slash) before rel into buf, unless rel is absolute;
 * returns the length of the whole path, which is size or more when it does not fit (a
 * name cut short would be another file). A bare "-" is the file "./-": file_read_all
 * would read standard input, which a scenario never names. */
static size_t relative_to(const char *path, const char *rel, char *buf, size_t size)
{
	const char *slash = strrchr(path, '/');
	int n;
	if (rel[0] == '/' || !slash || strcmp(path, "-") == 0)
		n = snprintf(buf, size, "%s%s", strcmp(rel, "-") == 0 ? "./" : "", rel);
	else
		n = snprintf(buf, size, "%.*s%s", (int)(slash - path + 1), path, rel);
	return n < 0 ? size : (size_t)n;
}

int scenario_field_load(struct scenario *s, const struct catalog *cat, const struct field *f,
			const char *text, struct gp_error *err)
{
	char path[GP_PATH_MAX];
	struct model m;
	size_t need;
	size_t len = strlen(text), bad = text_utf8_invalid_at(text, len);

	/* the one door of --set, :set and the field editor: text that could not be saved (the
	 * YAML emitter refuses it) or printed as JSON never gets in */
	if (bad < len) {
		gp_error_set(err, GP_EINPUT, NULL, 0, 0,
			     "invalid UTF-8 in the value: byte 0x%02X at offset %zu does not start "
			     "a valid character",
			     (unsigned char)text[bad], bad);
		gp_error_set_field(err, f->key);
		return -1;
	}

	/* a value too long for the field is refused before anything is read */
	if (!(f->flags & FIELD_FILE) || strlen(text) >= f->size)
		return scenario_field_set(s, cat, f, text, err);
	if ((need = relative_to(s->path, text, path, sizeof(path))) >= sizeof(path)) {
		gp_error_set(err, GP_EINPUT, NULL, 0, 0,
			     "the path of '%s' beside the scenario is too long (%zu bytes, limit "
			     "%zu)",
			     text, need, sizeof(path) - 1);
		gp_error_set_field(err, f->key);
		return -1;
	}
	/* a file beside the scenario, else a Hub id in the local Hugging Face cache */
	if (hf_config_resolve_value(text, path, path, sizeof(path), err) != 0 ||
	    hf_config_load_file(path, &m, err) != 0) {
		gp_error_set_field(err, f->key);
		return -1;
	}
	return scenario_field_set_model(s, f, text, &m, err);
}

/* KEY=VALUE given to apply: scenario_field_set or scenario_field_load. */
static int assign(struct scenario *s, const struct catalog *cat, const char *kv,
		  int (*apply)(struct scenario *, const struct catalog *, const struct field *,
			       const char *, struct gp_error *),
		  struct gp_error *err)
{
	const struct field *f;
	const char *value;

	if (scenario_assignment_split(kv, &f, &value, err) != 0)
		return -1;
	return apply(s, cat, f, value, err);
}

int scenario_set_assignment(struct scenario *s, const struct catalog *cat, const char *kv,
			    struct gp_error *err)
{
	return assign(s, cat, kv, scenario_field_set, err);
}

int scenario_load_assignment(struct scenario *s, const struct catalog *cat, const char *kv,
			     struct gp_error *err)
{
	return assign(s, cat, kv, scenario_field_load, err);
}

void scenario_preset_base(const struct scenario *s, const struct catalog *cat,
			  struct scenario *base)
{
	scenario_init(base);
	snprintf(base->path, sizeof(base->path), "%s", s->path);
	/* in table order, as the loader applies them: model.preset, model.hf_config,
	 * hardware.gpu */
	for (const struct field *f = scenario_fields; f->key; f++) {
		const char *v = (const char *)s + f->offset;
		if (!(f->flags & FIELD_PRESET) || !v[0] ||
		    (f->catalog != FIELD_CATALOG_NONE && !cat))
			continue;
		scenario_field_load(base, cat, f, v, NULL);
	}
}

/* Whether f lies in section ("model." or "hardware.") */
static bool in_section(const struct field *f, const char *section)
{
	return strncmp(f->key, section, strlen(section)) == 0;
}

/* After a preset: the fields of the sections it replaced that the file set (src's keys, or
 * those that differ from the presets' own values), as they were in old, over it. */
static void reapply_own_fields(struct scenario *s, const struct scenario *old,
			       const struct scenario_source *src, const struct catalog *cat,
			       bool model, bool hardware)
{
	/* on the stack, not the heap: the UI calls this at each key of a preview */
	struct scenario base_buf, *base = NULL;
	char text[4096];
	int n = src ? src->nkeys : scenario_field_count();

	if (!src) {
		base = &base_buf;
		scenario_preset_base(old, cat, base);
	}
	for (int i = 0; i < n; i++) {
		const struct field *f =
		    src ? scenario_field_find(src->keys[i].key) : &scenario_fields[i];
		if (!f || (f->flags & FIELD_PRESET))
			continue;
		if (!(model && in_section(f, "model.")) &&
		    !(hardware && in_section(f, "hardware.")))
			continue;
		if (base && scenario_field_equal(old, base, f))
			continue;
		scenario_field_format(old, f, text, sizeof(text));
		/* a value that read in the file reads again: nothing to report */
		(void)scenario_field_set(s, cat, f, text, NULL);
	}
}

int scenario_apply_sets(struct scenario *s, const struct catalog *cat, const char *const *sets,
			int n, const struct scenario_source *src, int *failed, struct gp_error *err)
{
	struct scenario old_buf, *old = NULL;
	int rc = -1;

	if (failed)
		*failed = -1;
	for (int pass = 0; pass < 2; pass++) {
		bool model = false, hardware = false;
		for (int i = 0; i < n; i++) {
			const struct field *f = NULL;
			const char *value;
			/* an assignment that does not split is not a preset: it fails in turn */
			bool preset = scenario_assignment_split(sets[i], &f, &value, NULL) == 0 &&
				      (f->flags & FIELD_PRESET);
			if (preset != (pass == 0))
				continue;
			if (preset && !old) {
				old = &old_buf;
				*old = *s;
			}
			if (scenario_load_assignment(s, cat, sets[i], err) != 0) {
				if (failed)
					*failed = i;
				goto out;
			}
			if (preset && in_section(f, "model."))
				model = true;
			else if (preset)
				hardware = true;
		}
		if (pass == 0 && old)
			reapply_own_fields(s, old, src, cat, model, hardware);
	}
	rc = 0;
out:
	return rc;
}
