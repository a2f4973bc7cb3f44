/* app_file.c - saving, opening and the recovery file of unsaved edits. */
#include "app_file.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "command.h"
#include "scenario_yaml.h"

void app_recover_path(const char *path, char *buf, size_t size)
{
	if (path && path[0] && strcmp(path, "-") != 0) {
		const char *slash = strrchr(path, '/');
		if (slash)
			snprintf(buf, size, "%.*s.%s.recover", (int)(slash - path + 1), path,
				 slash + 1);
		else
			snprintf(buf, size, ".%s.recover", path);
		return;
	}
	{
		const char *state = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
		if (state && state[0] == '/')
			snprintf(buf, size, "%s/gpuplan/recover.yaml", state);
		else
			snprintf(buf, size, "%s/.local/state/gpuplan/recover.yaml",
				 home && home[0] ? home : ".");
	}
}

/* mkdir -p of the folder holding file. */
static void make_parent_dirs(const char *file)
{
	char dir[1024];
	char *p;

	snprintf(dir, sizeof(dir), "%s", file);
	p = strrchr(dir, '/');
	if (!p || p == dir)
		return;
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

int app_write_recovery(struct app *a)
{
	struct gp_error err;

	if (!app_unsaved(a))
		return 0;
	app_recover_path(a->path, a->recover_path, sizeof(a->recover_path));
	make_parent_dirs(a->recover_path);
	return scenario_save_file(&a->scn, a->cat, a->recover_path, &err);
}

bool app_offer_recovery(struct app *a)
{
	struct stat st;

	app_recover_path(a->path, a->recover_path, sizeof(a->recover_path));
	if (stat(a->recover_path, &st) != 0)
		return false;
	a->mode = MODE_PROMPT;
	a->prompt = PROMPT_RECOVER;
	/* what is found, then the question (a long path wraps over the legend line) */
	app_status(a, false, "unsaved edits from a lost session in %s: restore them? (y/n)",
		   a->recover_path);
	return true;
}

void app_expand_path(const char *in, char *out, size_t size)
{
	const char *home = getenv("HOME");

	if (in[0] == '~' && (in[1] == '/' || in[1] == '\0') && home && home[0])
		snprintf(out, size, "%s%s", home, in + 1);
	else
		snprintf(out, size, "%s", in);
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

static int save(struct app *a, const char *path, bool force);

int app_save(struct app *a, const char *path)
{
	return save(a, path, false);
}

int app_save_force(struct app *a, const char *path)
{
	return save(a, path, true);
}

static int save(struct app *a, const char *path, bool force)
{
	struct gp_error err;
	char old_recover[1024], expanded[sizeof(a->path)];
	struct stat st;

	if (path && path[0]) {
		app_expand_path(path, expanded, sizeof(expanded));
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
	if (!force && stat(path, &st) == 0 && !S_ISDIR(st.st_mode)) {
		/* nothing is replaced without a yes: another file, or this file's comments */
		bool own = a->path[0] && same_file(path, a->path);
		if (!own || file_has_comments(path)) {
			snprintf(a->pending_save, sizeof(a->pending_save), "%s", path);
			a->mode = MODE_PROMPT;
			a->prompt = PROMPT_OVERWRITE;
			if (own)
				app_status(a, false,
					   "%s has comments, which saving drops (it writes the "
					   "canonical form): save anyway? (y/n)",
					   path);
			else
				app_status(a, false, "%s exists: replace it? (y/n)", path);
			return -1;
		}
	}
	memset(&err, 0, sizeof(err));
	if (scenario_save_file(&a->scn, a->cat, path, &err) != 0) {
		app_status_err(a, &err);
		return -1;
	}
	app_recover_path(a->path, old_recover, sizeof(old_recover));
	if (path != a->path)
		snprintf(a->path, sizeof(a->path), "%s", path);
	snprintf(a->scn.path, sizeof(a->scn.path), "%s", a->path);
	a->saved = a->scn;
	a->new_file = false;
	unlink(old_recover);
	app_status(a, false, "written %s", a->path);
	return 0;
}

unsigned app_open(struct app *a, const char *name, bool force)
{
	struct scenario t;
	struct gp_error err;
	struct gp_problems *probs;
	char file[sizeof(a->path)];

	app_expand_path(name, file, sizeof(file));
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
	a->scn = t;
	a->saved = t;
	snprintf(a->path, sizeof(a->path), "%s", file);
	a->new_file = false;
	a->nundo = 0;
	a->nredo = 0;
	app_status(a, false, "read %s", file);
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
	a->quit = true;
}

unsigned app_restore_recovery(struct app *a)
{
	unsigned dirty;
	struct scenario t;
	struct gp_error err;

	memset(&err, 0, sizeof(err));
	scenario_init(&t);
	if (scenario_load_file(a->recover_path, a->cat, &t, NULL, NULL, &err) != 0) {
		app_status_err(a, &err);
		return DIRTY_DRAW;
	}
	snprintf(t.path, sizeof(t.path), "%s", a->path);
	dirty = app_commit(a, &a->scn); /* undoable */
	a->scn = t;
	unlink(a->recover_path);
	app_status(a, false, "restored unsaved edits from %s", a->recover_path);
	return dirty;
}
