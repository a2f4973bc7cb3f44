/* app_file.c - saving, opening and the recovery file of unsaved edits. */
#include "app_file.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "command.h"
#include "file.h"
#include "profile.h"
#include "scenario_yaml.h"

/* The state folder ($XDG_STATE_HOME/gpuplan, else ~/.local/state/gpuplan); 0 or -1. */
static int state_dir(char *buf, size_t size)
{
	const char *state = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	int n;

	if (state && state[0] == '/')
		n = snprintf(buf, size, "%s/gpuplan", state);
	else
		n = snprintf(buf, size, "%s/.local/state/gpuplan", home && home[0] ? home : ".");
	if (n < 0 || (size_t)n >= size) {
		if (size)
			buf[0] = '\0';
		return -1;
	}
	return 0;
}

int app_recover_path(const char *path, char *buf, size_t size)
{
	int n;

	if (path && path[0] && strcmp(path, "-") != 0) {
		const char *slash = strrchr(path, '/');
		if (slash)
			n = snprintf(buf, size, "%.*s.%s.recover", (int)(slash - path + 1), path,
				     slash + 1);
		else
			n = snprintf(buf, size, ".%s.recover", path);
	} else {
		/* a session without a file has its own name (its process id): two of them
		 * lost at once keep two files, not one over the other */
		char dir[GP_PATH_MAX];
		if (state_dir(dir, sizeof(dir)) != 0)
			n = -1;
		else
			n = snprintf(buf, size, "%s/recover-%ld.yaml", dir, (long)getpid());
	}
	/* a name cut short would be another file: none at all */
	if (n < 0 || (size_t)n >= size) {
		if (size)
			buf[0] = '\0';
		return -1;
	}
	return 0;
}

/* The names of path's recovery files in the state folder: dir/PREFIX[-N]SUFFIX, where
 * PREFIX is the file's name and a hash of its full path (FNV-1a, 64 bits), so files of the
 * same name in two folders do not share one, and SUFFIX ".recover"; for a session without
 * a file PREFIX is "recover" and SUFFIX ".yaml". 0 or -1. */
static int state_names(const char *path, char *dir, size_t dsize, char *prefix, size_t psize,
		       const char **suffix)
{
	const char *base;
	char *real;
	uint64_t h = 1469598103934665603u;
	int n;

	if (state_dir(dir, dsize) != 0)
		return -1;
	if (!path[0] || strcmp(path, "-") == 0) {
		snprintf(prefix, psize, "recover");
		*suffix = ".yaml";
		return 0;
	}
	base = strrchr(path, '/');
	base = base ? base + 1 : path;
	real = realpath(path, NULL);
	for (const char *p = real ? real : path; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211u;
	free(real);
	n = snprintf(prefix, psize, "%.100s-%016llx", base, (unsigned long long)h);
	*suffix = ".recover";
	return n < 0 || (size_t)n >= psize ? -1 : 0;
}

/* The fallback recovery file of a scenario whose folder cannot be written, or whose
 * recovery file beside it holds a lost session's edits kept for later: in the state folder,
 * the first of PREFIX.SUFFIX, PREFIX-PID.SUFFIX, PREFIX-PID-N.SUFFIX that is free or
 * this session's own (a->recover_own). */
static int recover_state_path(const struct app *a, char *buf, size_t size)
{
	char dir[GP_PATH_MAX], prefix[160];
	const char *suffix;
	struct stat st;

	if (state_names(a->path, dir, sizeof(dir), prefix, sizeof(prefix), &suffix) != 0)
		return -1;
	for (int i = 0; i < 100; i++) {
		int n = i == 0	 ? snprintf(buf, size, "%s/%s%s", dir, prefix, suffix)
			: i == 1 ? snprintf(buf, size, "%s/%s-%ld%s", dir, prefix, (long)getpid(),
					    suffix)
				 : snprintf(buf, size, "%s/%s-%ld-%d%s", dir, prefix,
					    (long)getpid(), i, suffix);
		if (n < 0 || (size_t)n >= size)
			break;
		if (lstat(buf, &st) != 0 || strcmp(buf, a->recover_own) == 0)
			return 0;
	}
	if (size)
		buf[0] = '\0';
	return -1;
}

/* mkdir -p of the folder holding file. */
static void make_parent_dirs(const char *file)
{
	char *dir = strdup(file), *p;

	if (!dir)
		return;
	p = strrchr(dir, '/');
	if (p && p != dir) {
		*p = '\0';
		for (p = dir + 1; *p; p++) {
			if (*p != '/')
				continue;
			*p = '\0';
			mkdir(dir, 0700);
			*p = '/';
		}
		mkdir(dir, 0700);
	}
	free(dir);
}

/* A relative model.hf_config made absolute (it is relative to the scenario's folder), for
 * a recovery file written in another folder. */
static void absolute_hf_config(struct scenario *t, const char *path)
{
	const char *slash = strrchr(path, '/');
	char *joined, *real;

	if (!t->model.hf_config[0] || t->model.hf_config[0] == '/')
		return;
	joined = malloc(strlen(path) + strlen(t->model.hf_config) + 3);
	if (!joined)
		return;
	sprintf(joined, "%.*s%s", slash ? (int)(slash - path + 1) : 0, path, t->model.hf_config);
	real = realpath(joined, NULL);
	if (real && strlen(real) < sizeof(t->model.hf_config))
		snprintf(t->model.hf_config, sizeof(t->model.hf_config), "%s", real);
	free(real);
	free(joined);
}

/* Reads a recovery file into *t: only a regular file of this user, not through a link,
 * that reads as a scenario. 0, or -1 with why in err. */
static int read_recovery(const struct app *a, const char *path, struct scenario *t,
			 struct gp_error *err)
{
	char *text = NULL;
	size_t len = 0;
	int rc;

	scenario_init(t);
	if (file_read_own(path, SCENARIO_MAX_FILE_BYTES, &text, &len, err) != 0)
		return -1;
	rc = scenario_parse(text, len, path, a->cat, t, NULL, NULL, err);
	free(text);
	return rc;
}

/* Whether a lost session's recovery file is at path: one that would be offered. */
static bool recovery_at(const struct app *a, const char *path)
{
	struct gp_error err;
	struct scenario *t = malloc(sizeof(*t));
	bool found;

	if (!t)
		return true; /* out of memory: not written over on a guess */
	memset(&err, 0, sizeof(err));
	found = read_recovery(a, path, t, &err) == 0;
	free(t);
	return found;
}

/* Writes s to the recovery file at path (never through a link planted there, 0600). */
static int write_recovery_at(const struct app *a, const struct scenario *s, const char *path)
{
	struct gp_error err;
	char *text = NULL;
	size_t len = 0;
	int rc;

	if (!path[0] || scenario_format_yaml(s, a->cat, &text, &len, &err) != 0)
		return -1;
	make_parent_dirs(path);
	rc = file_write_own(path, text, len, &err);
	free(text);
	return rc;
}

int app_write_recovery(struct app *a)
{
	struct scenario *t;
	bool kept;
	int rc;

	if (!app_unsaved(a))
		return 0;
	/* the file this session restored is its own to rewrite; a lost session's beside the
	 * file (offered at the start and kept for later, or left since) is not written over */
	if (a->recover_own[0])
		snprintf(a->recover_path, sizeof(a->recover_path), "%s", a->recover_own);
	else
		app_recover_path(a->path, a->recover_path, sizeof(a->recover_path));
	kept = !a->recover_own[0] && a->recover_path[0] && recovery_at(a, a->recover_path);
	if (a->recover_path[0] && !kept && write_recovery_at(a, &a->scn, a->recover_path) == 0)
		return 0;
	/* the folder is read-only, or something is in the way: the state folder */
	if (recover_state_path(a, a->recover_path, sizeof(a->recover_path)) != 0)
		return -1;
	t = malloc(sizeof(*t));
	if (!t)
		return -1;
	*t = a->scn;
	absolute_hf_config(t, a->path);
	rc = write_recovery_at(a, t, a->recover_path);
	free(t);
	return rc;
}

void app_drop_recovery(struct app *a)
{
	if (a->recover_own[0])
		unlink(a->recover_own);
	a->recover_own[0] = '\0';
}

/* The recovery files of a->path that may be offered are asked newest first, one after the
 * other: a file is ordered by its modification time, then its name. */
struct offer {
	const char *bound; /* only files ordered before this one (NULL: all) */
	long long bound_ns;
	char best[GP_PATH_MAX]; /* the newest of them that reads */
	long long best_ns;
	int count;		     /* how many of them read */
	char why[GP_PATH_MAX + 400]; /* why the first that does not read is not offered */
};

static bool ordered_before(long long ns, const char *name, long long other_ns, const char *other)
{
	return ns < other_ns || (ns == other_ns && strcmp(name, other) < 0);
}

/* Counts the recovery file at name in o when it is ordered before o->bound and reads (only
 * a regular file of this user, not through a link, that reads as a scenario). */
static void consider(const struct app *a, const char *name, struct offer *o, struct scenario *t)
{
	struct gp_error err;
	struct stat st;
	long long ns;

	if (lstat(name, &st) != 0 || strlen(name) >= sizeof(o->best))
		return;
	ns = (long long)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
	if (o->bound && !ordered_before(ns, name, o->bound_ns, o->bound))
		return;
	memset(&err, 0, sizeof(err));
	if (read_recovery(a, name, t, &err) != 0) {
		/* a planted or broken file is not offered; say why it is left */
		if (!o->why[0])
			gp_error_format(&err, o->why, sizeof(o->why));
		return;
	}
	o->count++;
	if (!o->best[0] || ordered_before(o->best_ns, o->best, ns, name)) {
		memcpy(o->best, name, strlen(name) + 1); /* fits (above) */
		o->best_ns = ns;
	}
}

/* Every recovery file of a->path: beside the file, then the state folder's (state_names). */
static void find_offers(const struct app *a, struct offer *o)
{
	char dir[GP_PATH_MAX], prefix[160], name[GP_PATH_MAX + 256];
	const char *suffix;
	struct scenario *t = malloc(sizeof(*t));
	struct dirent *e;
	DIR *d;

	if (!t)
		return;
	if (a->path[0] && app_recover_path(a->path, name, sizeof(name)) == 0)
		consider(a, name, o, t);
	if (state_names(a->path, dir, sizeof(dir), prefix, sizeof(prefix), &suffix) == 0 &&
	    (d = opendir(dir)) != NULL) {
		while ((e = readdir(d)) != NULL) {
			size_t lp = strlen(prefix), ls = strlen(suffix), le = strlen(e->d_name);
			if (le < lp + ls || strncmp(e->d_name, prefix, lp) != 0 ||
			    strcmp(e->d_name + le - ls, suffix) != 0 ||
			    (e->d_name[lp] != '-' && le != lp + ls))
				continue;
			/* a name the recovery path cannot hold whole is never offered */
			if (snprintf(name, sizeof(name), "%s/%s", dir, e->d_name) <
			    (int)sizeof(a->recover_path))
				consider(a, name, o, t);
		}
		closedir(d);
	}
	free(t);
}

/* Asks about the newest recovery file ordered before bound (NULL: the newest of all); lead
 * says what became of the one asked before. Returns whether it asked. */
static bool offer_next(struct app *a, const char *bound, long long bound_ns, const char *lead)
{
	struct offer *o = calloc(1, sizeof(*o));
	bool first = !bound;

	if (!o)
		return false;
	o->bound = bound;
	o->bound_ns = bound_ns;
	find_offers(a, o);
	if (!o->count) {
		if (first && o->why[0])
			app_status(a, true, "recovery file not offered: %s", o->why);
		free(o);
		return false;
	}
	memcpy(a->recover_path, o->best, strlen(o->best) + 1);
	a->recover_ns = o->best_ns;
	a->mode = MODE_PROMPT;
	a->prompt = PROMPT_RECOVER;
	/* what is found, then the question (a long path wraps over the legend line); as
	 * vim's swap-file question, only an explicit d deletes it. Two or more are asked
	 * newest first, each in turn whatever the answer, so none is passed over unseen. */
	if (first && o->count == 1)
		app_status(a, false,
			   "unsaved edits from a lost session in %s: restore (y), discard (d), "
			   "keep for later (n)?",
			   a->recover_path);
	else if (first)
		app_status(a, false,
			   "edits of %d lost sessions, newest first: %s: restore (y), discard (d), "
			   "keep (n)?",
			   o->count, a->recover_path);
	else
		app_status(a, false, "%s; next (older): %s: restore (y), discard (d), keep (n)?",
			   lead, a->recover_path);
	free(o);
	return true;
}

bool app_offer_recovery(struct app *a)
{
	return offer_next(a, NULL, 0, NULL);
}

bool app_offer_next_recovery(struct app *a, const char *lead)
{
	char bound[sizeof(a->recover_path)];

	memcpy(bound, a->recover_path, sizeof(bound));
	return offer_next(a, bound, a->recover_ns, lead);
}

int app_expand_path(const char *in, char *out, size_t size)
{
	const char *home = getenv("HOME");
	int n;

	if (in[0] == '~' && (in[1] == '/' || in[1] == '\0') && home && home[0])
		n = snprintf(out, size, "%s%s", home, in + 1);
	else
		n = snprintf(out, size, "%s", in);
	return n >= 0 && (size_t)n < size ? 0 : -1;
}

/* Whether the YAML file at path has a comment: a line that starts with #, or a value
 * followed by " #" on a "key: value" line (block text, as in notes, does not count). */
static bool file_has_comments(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		const char *p = line, *colon;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '#') {
			found = true;
			break;
		}
		colon = strstr(p, ": ");
		if (colon && strspn(p, "abcdefghijklmnopqrstuvwxyz_") == (size_t)(colon - p) &&
		    !strchr("\"'|>", *command_skip_blanks(colon + 2)) && strstr(colon, " #"))
			found = true;
	}
	fclose(f);
	return found;
}

/* Whether two names are the same file (the same inode, else the same text). */
static bool same_file(const char *x, const char *y)
{
	struct stat sx, sy;

	if (stat(x, &sx) == 0 && stat(y, &sy) == 0)
		return sx.st_dev == sy.st_dev && sx.st_ino == sy.st_ino;
	return strcmp(x, y) == 0;
}

void app_note_disk(struct app *a)
{
	struct stat st;

	a->disk_known = a->path[0] && stat(a->path, &st) == 0;
	if (!a->disk_known)
		return;
	a->disk_dev = (unsigned long long)st.st_dev;
	a->disk_ino = (unsigned long long)st.st_ino;
	a->disk_size = (long long)st.st_size;
	a->disk_mtime_ns = (long long)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
}

/* Whether the file a->path, now st, is not the one last read or written. */
static bool disk_changed(const struct app *a, const struct stat *st)
{
	long long mtime = (long long)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;

	return a->disk_known &&
	       (a->disk_dev != (unsigned long long)st->st_dev ||
		a->disk_ino != (unsigned long long)st->st_ino ||
		a->disk_size != (long long)st->st_size || a->disk_mtime_ns != mtime);
}

static int save(struct app *a, const char *path, bool force);

int app_save(struct app *a, const char *path)
{
	return save(a, path, false);
}

int app_save_force(struct app *a, const char *path)
{
	return save(a, path, true);
}

/* The status line's message for a file name that does not fit a path buffer: refused
 * whole, never cut into the name of another file. */
static void too_long(struct app *a, const char *name, size_t max)
{
	app_status(a, true, "file name too long (%zu bytes; at most %zu): %.60s...", strlen(name),
		   max - 1, name);
}

/* Whether s checks (scenario_validate, as `gpuplan check`); when it does not, the status
 * line names its first problem and says how to save it anyway. */
static bool save_checks(struct app *a)
{
	struct gp_problems *probs = malloc(sizeof(*probs));
	bool ok;

	if (!probs)
		return true; /* out of memory: the save itself will say so, or succeed */
	gp_problems_init(probs);
	scenario_validate(&a->scn, NULL, probs);
	ok = probs->count == 0;
	if (!ok) {
		const struct gp_error *e = &probs->items[0];
		int more = probs->count + probs->dropped - 1;
		char others[48] = "";
		if (more > 0)
			snprintf(others, sizeof(others), " (and %d more)", more);
		app_status(a, true,
			   "not saved: %s%s%s%s: gpuplan check would reject the file (:w! saves "
			   "it anyway)",
			   e->field, e->field[0] ? ": " : "", e->message, others);
	}
	free(probs);
	return ok;
}

/* Writes the scenario to path without the --profile's knobs: a profile is the cluster's,
 * inherited, not the file's (a knob the user changed is the file's). Only the edited values
 * of the file change where they can (scenario_save_file_kept); with dry_run nothing is
 * written and *kept says whether the file's comments would stay. */
static int save_own(const struct app *a, const char *path, bool dry_run, bool *kept,
		    struct gp_error *err)
{
	struct scenario *t = malloc(sizeof(*t));
	char *text = NULL;
	size_t len;
	int rc;

	if (!t)
		return gp_error_set(err, GP_EIO, path, 0, 0, "out of memory");
	*t = a->scn;
	profile_unapply(t);
	if (dry_run)
		rc = scenario_format_yaml_kept(t, a->cat, &text, &len, kept, err);
	else
		rc = scenario_save_file_kept(t, a->cat, path, kept, err);
	free(text);
	free(t);
	return rc;
}

static int save(struct app *a, const char *path, bool force)
{
	struct gp_error err;
	char expanded[sizeof(a->path)];
	struct stat st;
	struct file_target ft;
	bool kept = false;

	/* a scenario the command line refuses is not written without :w! (vi's rule for a
	 * read-only file) */
	if (!force && !save_checks(a))
		return -1;
	if (path && path[0]) {
		if (app_expand_path(path, expanded, sizeof(expanded)) != 0) {
			too_long(a, path, sizeof(expanded));
			return -1;
		}
		path = expanded;
	}
	if (!path || !path[0])
		path = a->path;
	if (!path[0]) {
		a->mode = MODE_PROMPT;
		a->prompt = PROMPT_SAVE_AS;
		line_edit_set(&a->line, "");
		app_status(a, false, "save as: ");
		return -1;
	}
	memset(&err, 0, sizeof(err));
	/* a FIFO or a device is never replaced; a read-only file only with :w! (as vi) */
	if (file_check_target(path, &ft, &err) != 0) {
		app_status_err(a, &err);
		return -1;
	}
	if (!force && ft.exists && !ft.writable) {
		app_status(a, true, "%s is read-only (:w! writes it anyway)", path);
		return -1;
	}
	if (!force && stat(path, &st) == 0 && !S_ISDIR(st.st_mode)) {
		/* nothing is replaced without a yes: another file, this file changed on disk
		 * since it was read or written (vim's "file changed since reading it"), or this
		 * file's comments */
		bool own = a->path[0] && same_file(path, a->path);
		if (own && disk_changed(a, &st)) {
			snprintf(a->pending_save, sizeof(a->pending_save), "%s", path);
			a->mode = MODE_PROMPT;
			a->prompt = PROMPT_OVERWRITE;
			app_status(a, false,
				   "%s changed on disk since it was read: overwrite it? (y/n)",
				   path);
			return -1;
		}
		/* the comments stay when only one-line values of the file changed */
		if (own && file_has_comments(path) && save_own(a, path, true, &kept, &err) != 0)
			kept = false;
		if (!own || (file_has_comments(path) && !kept)) {
			snprintf(a->pending_save, sizeof(a->pending_save), "%s", path);
			a->mode = MODE_PROMPT;
			a->prompt = PROMPT_OVERWRITE;
			if (own)
				app_status(a, false,
					   "%s has comments, which this save drops (an edit it "
					   "cannot make in place: it writes the canonical form): "
					   "save anyway? (y/n)",
					   path);
			else
				app_status(a, false, "%s exists: replace it? (y/n)", path);
			return -1;
		}
	}
	if (save_own(a, path, false, &kept, &err) != 0) {
		app_status_err(a, &err);
		return -1;
	}
	if (path != a->path)
		snprintf(a->path, sizeof(a->path), "%s", path);
	snprintf(a->scn.path, sizeof(a->scn.path), "%s", a->path);
	a->saved = a->scn;
	a->new_file = false;
	/* the edits restored from a lost session are saved: its recovery file goes (one kept
	 * for later stays for the next start) */
	app_drop_recovery(a);
	app_note_disk(a);
	/* the save replaces the file by a new one (atomic): its other names keep the old
	 * text, which the user is told rather than surprised by */
	if (ft.links > 1)
		app_status(a, false,
			   "written %s (a new file: its %lu other hard link%s keep%s the "
			   "old text)",
			   a->path, ft.links - 1, ft.links > 2 ? "s" : "", ft.links > 2 ? "" : "s");
	else
		app_status(a, false, "written %s", a->path);
	return 0;
}

unsigned app_open(struct app *a, const char *name, bool force)
{
	struct scenario t;
	struct gp_error err;
	struct gp_problems *probs;
	char file[sizeof(a->path)];

	if (app_expand_path(name, file, sizeof(file)) != 0) {
		too_long(a, name, sizeof(file));
		return DIRTY_DRAW;
	}
	/* "-" is a file here: standard input is the terminal */
	if (strcmp(file, "-") == 0)
		snprintf(file, sizeof(file), "./-");
	if (!file[0]) {
		app_status(a, true, ":e needs a file name (:e FILE)");
		return DIRTY_DRAW;
	}
	if (!force && app_unsaved(a)) {
		app_status(a, true, "unsaved edits (:w to save them, or :e! %s to drop them)",
			   file);
		return DIRTY_DRAW;
	}
	memset(&err, 0, sizeof(err));
	scenario_init(&t);
	/* every problem, so the one shown is the first in the file (not the first found:
	 * presets are applied before other fields) and the count of the others is said */
	probs = malloc(sizeof(*probs));
	if (probs)
		gp_problems_init(probs);
	if (scenario_load_file(file, a->cat, &t, NULL, probs, &err) != 0) {
		int more = probs ? probs->count + probs->dropped - 1 : 0;
		char buf[sizeof(a->status)];
		gp_error_format(&err, buf, sizeof(buf));
		if (more > 0)
			app_status(a, true, "%s (and %d more: gpuplan check %s)", buf, more, file);
		else
			app_status(a, true, "%s", buf);
		free(probs);
		return DIRTY_DRAW;
	}
	free(probs);
	/* the calibration profile the session started with (gpuplan --profile NAME) plans
	 * this file too, as it would have from the command line */
	profile_carry(&a->scn, &t);
	/* the edits restored from a lost session are dropped (:e!) or saved already */
	app_drop_recovery(a);
	a->scn = t;
	a->saved = t;
	a->new_file = false;
	a->nundo = 0;
	a->nredo = 0;
	if (a->has_baseline && !same_file(a->base_path, file)) {
		/* a baseline of another scenario would compare unrelated plans (serving a 70B
		 * against training a 7B): it goes, and the user is told */
		const char *slash = strrchr(a->base_path, '/');
		a->has_baseline = false;
		app_status(a, false, "read %s; the baseline (of %s) cleared: b pins one here", file,
			   !a->base_path[0] ? "the built-in scenario"
			   : slash	    ? slash + 1
					    : a->base_path);
	} else {
		app_status(a, false, "read %s", file);
	}
	snprintf(a->path, sizeof(a->path), "%s", file);
	app_note_disk(a);
	return DIRTY_CALC | DIRTY_DRAW;
}

void app_quit(struct app *a, bool force)
{
	if (!force && app_unsaved(a)) {
		a->mode = MODE_PROMPT;
		a->prompt = PROMPT_QUIT;
		app_status(a, false, "unsaved edits: quit without saving? (y/n, w saves first)");
		return;
	}
	/* quitting without saving discards the edits restored from a lost session */
	app_drop_recovery(a);
	a->quit = true;
}

unsigned app_restore_recovery(struct app *a)
{
	unsigned dirty;
	struct scenario t;
	struct gp_error err;

	memset(&err, 0, sizeof(err));
	if (read_recovery(a, a->recover_path, &t, &err) != 0) {
		app_status_err(a, &err);
		return DIRTY_DRAW;
	}
	snprintf(t.path, sizeof(t.path), "%s", a->path);
	/* the session's --profile stays: a knob still at its value is the profile's (a save
	 * leaves it out), one changed is the edits' */
	memcpy(t.profile, a->scn.profile, sizeof(t.profile));
	t.profile_knobs = a->scn.profile_knobs;
	t.profile_under = a->scn.profile_under;
	dirty = app_commit(a, &a->scn); /* undoable */
	a->scn = t;
	/* the file stays until the edits are saved or discarded: a crash now loses nothing */
	snprintf(a->recover_own, sizeof(a->recover_own), "%s", a->recover_path);
	app_status(a, false, "restored unsaved edits from %s (kept until saved)", a->recover_path);
	return dirty;
}
