/* profile.c - calibration profiles: efficiency knobs saved under the user's configuration
 * folder and applied to other scenarios of the same cluster. */
#include "profile.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "file.h"
#include "scenario_yaml.h"
#include "yaml_doc.h"

/* The efficiency knobs are the field table's efficiency.* rows: a knob added there is a
 * profile's too. */
static bool is_knob(const struct field *f)
{
	return strncmp(f->key, "efficiency.", 11) == 0 && f->type == FIELD_NUM;
}

static double *knob_in(struct efficiency *e, const struct field *f)
{
	return (double *)((char *)e + (f->offset - offsetof(struct scenario, efficiency)));
}

static double knob_of(const struct efficiency *e, const struct field *f)
{
	return *(const double *)((const char *)e +
				 (f->offset - offsetof(struct scenario, efficiency)));
}

bool profile_name_ok(const char *name)
{
	size_t n = strlen(name);

	if (n == 0 || n >= PROFILE_NAME_MAX ||
	    strspn(name, "abcdefghijklmnopqrstuvwxyz"
			 "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
			 "0123456789._-") != n)
		return false;
	return name[0] != '.' && name[0] != '-' && name[0] != '_';
}

int profile_path(const char *name, char *buf, size_t size, struct gp_error *err)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
	int n;

	if (!profile_name_ok(name))
		return gp_error_set(err, GP_EUSAGE, NULL, 0, 0,
				    "profile name '%s' (expected 1 to %d letters, digits, '.', "
				    "'_' or '-', starting with a letter or a digit)",
				    name, PROFILE_NAME_MAX - 1);
	/* XDG Base Directory Specification: a relative XDG_CONFIG_HOME is ignored */
	if (xdg && xdg[0] == '/')
		n = snprintf(buf, size, "%s/gpuplan/profiles/%s.yaml", xdg, name);
	else if (home && home[0]) /* as the user catalog (catalog.c) */
		n = snprintf(buf, size, "%s/.config/gpuplan/profiles/%s.yaml", home, name);
	else
		return gp_error_set(
		    err, GP_EIO, NULL, 0, 0,
		    "no folder for profile '%s': XDG_CONFIG_HOME is not an absolute "
		    "path and HOME is not set",
		    name);
	if (n < 0 || (size_t)n >= size)
		return gp_error_set(err, GP_EIO, NULL, 0, 0,
				    "the path of profile '%s' is too long (limit %zu bytes)", name,
				    size - 1);
	return 0;
}

/* The position of key in src, for a message about it. */
static void key_position(const struct scenario_source *src, const char *key, int *line, int *col)
{
	*line = *col = 1;
	for (int i = 0; i < src->nkeys; i++)
		if (strcmp(src->keys[i].key, key) == 0) {
			*line = src->keys[i].line;
			*col = src->keys[i].column;
			return;
		}
}

int profile_load(const char *name, const struct catalog *cat, struct profile *pr, bool *missing,
		 struct gp_error *err)
{
	struct scenario *s = malloc(sizeof(*s));
	struct scenario_source *src = calloc(1, sizeof(*src));
	char *text = NULL;
	size_t len = 0;
	int rc = -1, nknobs = 0;

	memset(pr, 0, sizeof(*pr));
	if (missing)
		*missing = false;
	if (!s || !src) {
		gp_error_set(err, GP_EIO, NULL, 0, 0, "out of memory");
		goto out;
	}
	snprintf(pr->name, sizeof(pr->name), "%s", name);
	if (profile_path(name, pr->path, sizeof(pr->path), err) != 0)
		goto out;
	if (file_read_all(pr->path, SCENARIO_MAX_FILE_BYTES, &text, &len, err) != 0) {
		struct stat st;
		if (missing && lstat(pr->path, &st) != 0 && errno == ENOENT)
			*missing = true;
		goto out;
	}
	scenario_init(s);
	if (scenario_parse(text, len, pr->path, cat, s, src, NULL, err) != 0)
		goto out;
	/* only the knobs: a profile that set the model or the GPU would plan another cluster */
	for (int i = 0; i < src->nkeys; i++) {
		const char *k = src->keys[i].key;
		const struct field *f = scenario_field_find(k);
		if (strcmp(k, "gpuplan") == 0 || strcmp(k, "name") == 0 ||
		    strcmp(k, "notes") == 0 || strcmp(k, "efficiency") == 0)
			continue;
		if (f && is_knob(f)) {
			nknobs++;
			continue;
		}
		gp_error_set(err, GP_EINPUT, pr->path, src->keys[i].line, src->keys[i].column,
			     "'%s' in a calibration profile (expected only efficiency.* knobs, "
			     "gpuplan, name and notes)",
			     k);
		gp_error_set_field(err, k);
		goto out;
	}
	if (nknobs == 0) {
		int line, col;
		key_position(src, "gpuplan", &line, &col);
		gp_error_set(err, GP_EINPUT, pr->path, line, col,
			     "no knob in profile '%s' (expected efficiency.mfu, efficiency.hbm, "
			     "... as gpuplan calibrate --profile writes them)",
			     name);
		goto out;
	}
	pr->knobs = s->efficiency;
	snprintf(pr->notes, sizeof(pr->notes), "%s", s->notes);
	rc = 0;
out:
	free(text);
	free(s);
	free(src);
	return rc;
}

void profile_apply(const struct profile *pr, struct scenario *s)
{
	snprintf(s->profile, sizeof(s->profile), "%s", pr->name);
	s->profile_knobs = pr->knobs;
	memset(&s->profile_under, 0, sizeof(s->profile_under));
	for (const struct field *f = scenario_fields; f->key; f++)
		if (is_knob(f) && knob_of(&pr->knobs, f) > 0) {
			*knob_in(&s->profile_under, f) = knob_of(&s->efficiency, f);
			*knob_in(&s->efficiency, f) = knob_of(&pr->knobs, f);
		}
}

void profile_unapply(struct scenario *s)
{
	for (const struct field *f = scenario_fields; f->key; f++) {
		int i = (int)(f - scenario_fields);
		double p = is_knob(f) ? knob_of(&s->profile_knobs, f) : 0;
		if (p <= 0 || knob_of(&s->efficiency, f) != p)
			continue;
		*knob_in(&s->efficiency, f) = knob_of(&s->profile_under, f);
		if (knob_of(&s->profile_under, f) <= 0 && i < SCENARIO_MAX_FIELDS)
			s->written[i / 8] &= (unsigned char)~(1u << (i % 8));
	}
}

void profile_carry(const struct scenario *from, struct scenario *to)
{
	struct profile pr;

	if (!from->profile[0])
		return;
	memset(&pr, 0, sizeof(pr));
	snprintf(pr.name, sizeof(pr.name), "%s", from->profile);
	pr.knobs = from->profile_knobs;
	profile_apply(&pr, to);
}

void profile_take(struct profile *pr, const struct scenario *s)
{
	/* s was planned with the profile applied and every --set after it: a knob the profile
	 * gave is in s unless a --set changed it, to auto (0) too, which drops it here */
	for (const struct field *f = scenario_fields; f->key; f++)
		if (is_knob(f))
			*knob_in(&pr->knobs, f) = knob_of(&s->efficiency, f);
}

/* mkdir -p of the folders above path, each made 0700. */
static int make_folders(const char *path, struct gp_error *err)
{
	char dir[GP_PATH_MAX];
	struct stat st;

	snprintf(dir, sizeof(dir), "%s", path);
	for (char *p = dir + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		if (mkdir(dir, 0700) != 0 && errno != EEXIST)
			return gp_error_set(err, GP_EIO, dir, 0, 0, "cannot make the folder: %s",
					    strerror(errno));
		if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
			return gp_error_set(err, GP_EIO, dir, 0, 0, "not a folder");
		*p = '/';
	}
	return 0;
}

static const char profile_header[] =
    "# A gpuplan calibration profile: efficiency knobs fitted by `gpuplan calibrate\n"
    "# --profile NAME`, applied to every scenario planned with --profile NAME\n"
    "# (gpuplan(1), FILES).\n";

int profile_save(const struct profile *pr, struct gp_error *err)
{
	struct scenario *t = malloc(sizeof(*t));
	struct file_target target;
	struct yemit *e = NULL;
	char *text = NULL, *all = NULL, v[64];
	size_t len = 0;
	int rc = -1;

	if (!t) {
		gp_error_set(err, GP_EIO, NULL, 0, 0, "out of memory");
		goto out;
	}
	scenario_init(t);
	t->efficiency = pr->knobs;
	if (!(e = yemit_new(err)))
		goto out;
	yemit_mapping_start(e);
	yemit_scalar(e, "gpuplan", YEMIT_ANY);
	yemit_scalar(e, "1", YEMIT_ANY);
	yemit_scalar(e, "name", YEMIT_ANY);
	yemit_scalar(e, pr->name, YEMIT_ANY);
	if (pr->notes[0]) {
		yemit_scalar(e, "notes", YEMIT_ANY);
		yemit_scalar(e, pr->notes, strchr(pr->notes, '\n') ? YEMIT_LITERAL : YEMIT_ANY);
	}
	yemit_scalar(e, "efficiency", YEMIT_ANY);
	yemit_mapping_start(e);
	for (const struct field *f = scenario_fields; f->key; f++) {
		if (!is_knob(f) || knob_of(&pr->knobs, f) <= 0)
			continue;
		yemit_scalar(e, f->key + 11, YEMIT_ANY);
		yemit_scalar(e, scenario_field_format(t, f, v, sizeof(v)), YEMIT_ANY);
	}
	yemit_mapping_end(e);
	yemit_mapping_end(e);
	rc = yemit_finish(e, &text, &len, err);
	if (rc != 0)
		goto out;
	rc = -1;
	if (!(all = malloc(sizeof(profile_header) + len))) {
		gp_error_set(err, GP_EIO, NULL, 0, 0, "out of memory");
		goto out;
	}
	memcpy(all, profile_header, sizeof(profile_header) - 1);
	memcpy(all + sizeof(profile_header) - 1, text, len);
	/* a FIFO or a device at the path, or at the end of a link there, is refused before
	 * anything is made; file_write_own then replaces a link, never writing through it */
	if (file_check_target(pr->path, &target, err) != 0 || make_folders(pr->path, err) != 0 ||
	    file_write_own(pr->path, all, sizeof(profile_header) - 1 + len, err) != 0)
		goto out;
	rc = 0;
out:
	free(all);
	free(text);
	free(t);
	return rc;
}
