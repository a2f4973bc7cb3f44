/* lesson.c - lesson mode: :next and :prev walk the scenario's folder in name order (a
 * workshop's lessons), keeping each lesson's edits until :reset. */
#include "lesson.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app_file.h"

#define LESSON_FILES 256 /* scenario files a folder may hold for :next and :prev */

static int name_cmp(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

/* The stash slot of path; NULL when it has none. */
static struct lesson_edit *stash_find(struct app *a, const char *path)
{
	for (int i = 0; i < a->nlessons; i++)
		if (strcmp(a->lessons[i].path, path) == 0)
			return &a->lessons[i];
	return NULL;
}

static void stash_drop(struct app *a, const char *path)
{
	struct lesson_edit *e = stash_find(a, path);

	if (e)
		*e = a->lessons[--a->nlessons];
}

/* Keeps the lesson's edits for its next visit; 0, or -1 when the stash is full. */
static int stash_keep(struct app *a)
{
	struct lesson_edit *e = stash_find(a, a->path);

	if (!app_unsaved(a)) {
		stash_drop(a, a->path);
		return 0;
	}
	if (!e) {
		if (a->nlessons >= LESSON_MAX)
			return -1;
		e = &a->lessons[a->nlessons++];
		snprintf(e->path, sizeof(e->path), "%s", a->path);
	}
	e->scn = a->scn;
	return 0;
}

int lesson_neighbour(const char *path, int dir, char *out, size_t size, int *pos, int *count)
{
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	char folder[GP_PATH_MAX];
	char *names[LESSON_FILES];
	struct dirent *e;
	int n = 0, at = -1, rc = -1;
	DIR *d;

	snprintf(folder, sizeof(folder), "%.*s", slash ? (int)(slash - path) : 1,
		 slash ? path : ".");
	if (slash == path)
		snprintf(folder, sizeof(folder), "/");
	d = opendir(folder);
	if (!d)
		return -1;
	while ((e = readdir(d)) != NULL && n < LESSON_FILES) {
		size_t len = strlen(e->d_name);
		if (e->d_name[0] == '.' || len < 6 || strcmp(e->d_name + len - 5, ".yaml") != 0)
			continue;
		if (!(names[n] = strdup(e->d_name)))
			break;
		n++;
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof(names[0]), name_cmp);
	/* where the file is, or would be (a new file), in name order */
	for (int i = 0; i < n && at < 0; i++)
		if (strcmp(names[i], base) >= 0)
			at = i;
	if (at < 0)
		at = n;
	{
		bool here = at < n && strcmp(names[at], base) == 0;
		int to = dir > 0 ? (here ? at + 1 : at) : at - 1;
		*count = n;
		if (to >= 0 && to < n) {
			int len = slash ? snprintf(out, size, "%.*s%s", (int)(slash - path + 1),
						   path, names[to])
					: snprintf(out, size, "%s", names[to]);
			*pos = to + 1;
			rc = len >= 0 && (size_t)len < size ? 0 : -1;
		} else {
			*pos = here ? at + 1 : 0;
			rc = 1;
		}
	}
	for (int i = 0; i < n; i++)
		free(names[i]);
	return rc;
}

int app_write_lesson_recoveries(struct app *a)
{
	/* app_write_recovery writes the app's scenario for its path: each kept lesson in
	 * turn takes their place, then the one on screen comes back */
	struct keep {
		struct scenario scn, saved;
		char path[sizeof(a->path)], recover_path[sizeof(a->recover_path)],
		    recover_own[sizeof(a->recover_own)];
	} *k = malloc(sizeof(*k));
	int failed = 0;

	if (!k)
		return a->nlessons;
	k->scn = a->scn;
	k->saved = a->saved;
	memcpy(k->path, a->path, sizeof(k->path));
	memcpy(k->recover_path, a->recover_path, sizeof(k->recover_path));
	memcpy(k->recover_own, a->recover_own, sizeof(k->recover_own));
	for (int i = 0; i < a->nlessons; i++) {
		const struct lesson_edit *e = &a->lessons[i];
		if (strcmp(e->path, k->path) == 0)
			continue; /* the lesson on screen: app_write_recovery's */
		a->scn = e->scn;
		/* the stash holds only edits that differ from the lesson's file */
		memset(&a->saved, 0, sizeof(a->saved));
		snprintf(a->path, sizeof(a->path), "%s", e->path);
		a->recover_path[0] = a->recover_own[0] = '\0';
		failed += app_write_recovery(a) != 0;
	}
	a->scn = k->scn;
	a->saved = k->saved;
	memcpy(a->path, k->path, sizeof(k->path));
	memcpy(a->recover_path, k->recover_path, sizeof(k->recover_path));
	memcpy(a->recover_own, k->recover_own, sizeof(k->recover_own));
	free(k);
	return failed;
}

unsigned app_lesson_step(struct app *a, int dir)
{
	char next[sizeof(a->path)], base[sizeof(a->path)];
	const struct lesson_edit *e;
	unsigned dirty;
	int pos = 0, count = 0, rc;

	if (!a->path[0]) {
		app_status(a, true,
			   ":%s walks the folder of the scenario's file (start with one, "
			   "e.g. scenarios/workshop/01-weights-and-precision.yaml)",
			   dir > 0 ? "next" : "prev");
		return DIRTY_DRAW;
	}
	rc = lesson_neighbour(a->path, dir, next, sizeof(next), &pos, &count);
	if (rc < 0) {
		app_status(a, true, "cannot list the folder of %s", a->path);
		return DIRTY_DRAW;
	}
	if (rc > 0) {
		app_status(a, false, "%s lesson of the folder (%d of %d)",
			   dir > 0 ? "the last" : "the first", pos, count);
		return DIRTY_DRAW;
	}
	snprintf(base, sizeof(base), "%s", a->path);
	if (stash_keep(a) != 0) {
		app_status(a, true,
			   "edits of %d lessons are kept already: :w or :reset this one first",
			   LESSON_MAX);
		return DIRTY_DRAW;
	}
	/* a restored recovery file stays for the next start: its edits now live in the
	 * stash, not on disk, so it is not this session's to delete */
	if (app_unsaved(a))
		a->recover_own[0] = '\0';
	dirty = app_open(a, next, true);
	if (strcmp(a->path, next) != 0)
		return dirty; /* the file did not read: the status says why, nothing moved */
	e = stash_find(a, a->path);
	if (e) {
		a->scn = e->scn; /* the learner's edits of this lesson, unsaved */
		app_status(a, false, "lesson %d of %d: %s, with your edits (:reset drops them)",
			   pos, count, strrchr(next, '/') ? strrchr(next, '/') + 1 : next);
	} else {
		app_status(a, false, "lesson %d of %d: %s (n: its notes; :next, :prev)", pos, count,
			   strrchr(next, '/') ? strrchr(next, '/') + 1 : next);
		/* a lost session's edits of this lesson (app_write_lesson_recoveries): asked
		 * as at the start */
		app_offer_recovery(a);
	}
	return dirty | DIRTY_CALC | DIRTY_DRAW;
}

unsigned app_lesson_reset(struct app *a)
{
	struct scenario before = a->scn;
	char file[sizeof(a->path)];
	unsigned dirty;

	if (!a->path[0] || a->new_file) {
		app_status(a, true, ":reset rereads the scenario's file, and there is none");
		return DIRTY_DRAW;
	}
	snprintf(file, sizeof(file), "%s", a->path);
	dirty = app_open(a, file, true);
	if (a->status_error)
		return dirty;
	stash_drop(a, a->path);
	/* one undoable edit: u brings the edits back */
	if (memcmp(&before, &a->scn, sizeof(before)) != 0)
		dirty |= app_commit(a, &before);
	app_status(a, false, "reset to %s as its file has it (u undoes)", a->path);
	return dirty;
}
