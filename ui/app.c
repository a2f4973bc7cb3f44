/* app.c - what each key does to the state; nothing here draws. */
#include "app.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scenario_yaml.h"

void app_status(struct app *a, bool error, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(a->status, sizeof(a->status), fmt, ap);
	va_end(ap);
	a->status_error = error;
	a->dirty |= DIRTY_DRAW;
}

static void status_err(struct app *a, const struct gp_error *err)
{
	char buf[sizeof(a->status)];
	app_status(a, true, "%s", gp_error_format(err, buf, sizeof(buf)));
}

static void rows_build(struct app *a)
{
	pane_model_rows(a, &a->rows[PANE_MODEL]);
	pane_workload_rows(a, &a->rows[PANE_WORKLOAD]);
	pane_hardware_rows(a, &a->rows[PANE_HARDWARE]);
}

const struct field *app_selected_field(const struct app *a)
{
	const struct pane_rows *r;

	if (a->focus >= PANE_RESULTS)
		return NULL;
	r = &a->rows[a->focus];
	if (a->sel[a->focus] < 0 || a->sel[a->focus] >= r->n)
		return NULL;
	if (r->r[a->sel[a->focus]].kind != ROW_FIELD)
		return NULL;
	return r->r[a->sel[a->focus]].f;
}

/* Puts the selection of pane p on a field row, searching from row i in direction dir. */
static void select_row(struct app *a, int p, int i, int dir)
{
	const struct pane_rows *r = &a->rows[p];

	if (r->n == 0) {
		a->sel[p] = 0;
		return;
	}
	if (i < 0)
		i = 0;
	if (i >= r->n)
		i = r->n - 1;
	for (int j = i; j >= 0 && j < r->n; j += dir)
		if (r->r[j].kind == ROW_FIELD) {
			a->sel[p] = j;
			return;
		}
	for (int j = i; j >= 0 && j < r->n; j -= dir)
		if (r->r[j].kind == ROW_FIELD) {
			a->sel[p] = j;
			return;
		}
}

/* Keeps the selected row of pane p inside its window. */
static void scroll_to_selection(struct app *a, int p)
{
	int visible = a->lay.pane[p].h - 1, n;

	if (p == PANE_RESULTS || visible <= 0)
		return;
	n = a->rows[p].n;
	if (a->sel[p] < a->top[p])
		a->top[p] = a->sel[p];
	if (a->sel[p] >= a->top[p] + visible)
		a->top[p] = a->sel[p] - visible + 1;
	if (a->top[p] > n - visible)
		a->top[p] = n - visible;
	if (a->top[p] < 0)
		a->top[p] = 0;
}

static void plan_update(struct app *a);

void app_compute(struct app *a)
{
	if (a->dirty & DIRTY_CALC) {
		a->dirty &= ~DIRTY_CALC;
		plan_update(a);
		/* the views' searches rerun when next shown (now, when one is open) */
		a->sv.stale = true;
		a->sv.scaling_stale = true;
	}
	search_view_compute(a);
}

static void plan_update(struct app *a)
{
	plan_compute(&a->scn, &a->plan);
	gp_problems_init(&a->problems);
	scenario_validate(&a->scn, NULL, &a->problems);
	a->computes++;
	/* Rebuild the rows (the workload kind decides which fields show), keeping each
	 * selection on the same field when it is still there. */
	const struct field *was[PANE_RESULTS];
	for (int p = 0; p < PANE_RESULTS; p++) {
		const struct pane_rows *r = &a->rows[p];
		was[p] = a->sel[p] < r->n ? r->r[a->sel[p]].f : NULL;
	}
	rows_build(a);
	for (int p = 0; p < PANE_RESULTS; p++) {
		const struct pane_rows *r = &a->rows[p];
		int keep = -1;
		for (int i = 0; was[p] && i < r->n; i++)
			if (r->r[i].f == was[p])
				keep = i;
		select_row(a, p, keep >= 0 ? keep : a->sel[p], 1);
		scroll_to_selection(a, p);
	}
	pane_results_items(a);
	if (a->sel[PANE_RESULTS] >= a->nresult_items)
		a->sel[PANE_RESULTS] = a->nresult_items ? a->nresult_items - 1 : 0;
	a->dirty |= DIRTY_DRAW;
}

const struct gp_error *app_field_problem(const struct app *a, const struct field *f)
{
	for (int i = 0; f && i < a->problems.count; i++)
		if (strcmp(a->problems.items[i].field, f->key) == 0)
			return &a->problems.items[i];
	return NULL;
}

void app_init(struct app *a, const struct catalog *cat, const struct scenario *s, const char *path,
	      unsigned flags)
{
	memset(a, 0, sizeof(*a));
	a->cat = cat;
	a->flags = flags;
	a->scn = *s;
	a->saved = *s;
	snprintf(a->path, sizeof(a->path), "%s", path && strcmp(path, "-") != 0 ? path : "");
	a->dirty = DIRTY_CALC | DIRTY_DRAW | DIRTY_LAYOUT;
	a->mode = MODE_NORMAL;
	a->focus = PANE_MODEL;
	layout_compute(LAYOUT_STD_ROWS, LAYOUT_STD_COLS, &a->lay);
	/* gpuplan NEWFILE.yaml: the built-in scenario, bound to a file :w creates (as an
	 * editor opens a file that is not there yet) */
	if (a->path[0] && access(a->path, F_OK) != 0 && errno == ENOENT) {
		a->new_file = true;
		app_status(a, false, "new file %s: :w or ^S creates it", a->path);
	}
	a->sv.stale = true;
	a->sv.scaling_stale = true;
	rows_build(a);
	app_compute(a);
}

bool app_unsaved(const struct app *a)
{
	for (const struct field *f = scenario_fields; f->key; f++)
		if (!scenario_field_equal(&a->scn, &a->saved, f))
			return true;
	return false;
}

static void undo_push(struct app *a, const struct scenario *before)
{
	a->undo[a->undo_head] = *before;
	a->undo_head = (a->undo_head + 1) % UNDO_MAX;
	if (a->nundo < UNDO_MAX)
		a->nundo++;
	a->nredo = 0;
}

/* The scenario changed from before to a->scn: make it undoable and recompute. */
static void commit(struct app *a, const struct scenario *before)
{
	undo_push(a, before);
	a->dirty |= DIRTY_CALC | DIRTY_DRAW;
}

void app_commit(struct app *a, const struct scenario *before)
{
	commit(a, before);
}

static void undo(struct app *a)
{
	if (!a->nundo) {
		app_status(a, false, "nothing to undo");
		return;
	}
	if (a->nredo < UNDO_MAX)
		a->redo[a->nredo++] = a->scn;
	a->undo_head = (a->undo_head + UNDO_MAX - 1) % UNDO_MAX;
	a->nundo--;
	a->scn = a->undo[a->undo_head];
	a->dirty |= DIRTY_CALC | DIRTY_DRAW;
	app_status(a, false, "undone (%d more)", a->nundo);
}

static void redo(struct app *a)
{
	if (!a->nredo) {
		app_status(a, false, "nothing to redo");
		return;
	}
	a->undo[a->undo_head] = a->scn;
	a->undo_head = (a->undo_head + 1) % UNDO_MAX;
	if (a->nundo < UNDO_MAX)
		a->nundo++;
	a->scn = a->redo[--a->nredo];
	a->dirty |= DIRTY_CALC | DIRTY_DRAW;
	app_status(a, false, "redone (%d more)", a->nredo);
}

double app_auto_value(const struct app *a, const struct field *f)
{
	double v = scenario_field_resolved(f, &a->plan);

	if (!isfinite(v) || v < 0)
		v = 0;
	if (f->type == FIELD_INT)
		v = floor(v);
	return v;
}

double app_slo_batch(const struct app *a, const struct field *f)
{
	double b = a->plan.slo_batch;
	if (strcmp(f->key, "workload.batch") != 0 || !isfinite(b) || b <= 0 ||
	    b >= app_auto_value(a, f))
		return 0;
	return b;
}

static void step(struct app *a, int dir, bool cycle)
{
	const struct field *f = app_selected_field(a);
	struct scenario before = a->scn;
	struct gp_error err;
	int rc;

	if (!f)
		return;
	memset(&err, 0, sizeof(err));
	if (cycle && field_is_choice(f))
		rc = field_cycle(&a->scn, a->cat, f, dir);
	else
		rc = field_step(&a->scn, a->cat, f, dir, app_auto_value(a, f), &err);
	if (rc != 0) {
		a->scn = before;
		if (err.message[0])
			app_status(a, true, "%s", err.message);
		else
			app_status(a, false, "%s: press Enter to type a value", f->key);
		return;
	}
	commit(a, &before);
	{
		char v[160];
		app_status(a, false, "%s = %s", f->key,
			   scenario_field_format(&a->scn, f, v, sizeof(v)));
	}
}

static bool is_preset_field(const struct field *f)
{
	return f->catalog != FIELD_CATALOG_NONE;
}

static void edit_start(struct app *a)
{
	const struct field *f = app_selected_field(a);
	char v[LINE_EDIT_MAX];

	if (a->focus == PANE_RESULTS) {
		if (a->nresult_items)
			explain_open(a, a->result_keys[a->sel[PANE_RESULTS]]);
		return;
	}
	if (!f)
		return;
	a->edit_base = a->scn;
	if (is_preset_field(f)) {
		picker_open(a, strcmp(f->key, "model.preset") == 0 ? PICK_MODEL : PICK_GPU);
		return;
	}
	a->edit_field = f;
	a->edit_error = false;
	scenario_field_format(&a->scn, f, v, sizeof(v));
	if (f->type == FIELD_NUM && f->unit == UNIT_RATIO &&
	    *(const double *)((const char *)&a->scn + f->offset) > 0)
		/* as the pane shows it: 50%, which reads back the same */
		snprintf(v, sizeof(v), "%.4g%%",
			 *(const double *)((const char *)&a->scn + f->offset) * 100);
	line_edit_set(&a->line, v);
	a->mode = MODE_EDIT;
	app_status(a, false, "%s: %s", f->key, f->doc);
}

static void edit_key(struct app *a, int key)
{
	struct gp_error err;

	switch (line_edit_key(&a->line, key)) {
	case EDIT_CHANGED:
		memset(&err, 0, sizeof(err));
		/* Results follow the text while it reads; the last value that read stays. */
		if (field_edit_apply(&a->edit_base, a->cat, a->edit_field, a->line.buf, &a->scn,
				     &err) == 0) {
			a->edit_error = false;
			a->dirty |= DIRTY_CALC;
			app_status(a, false, "%s: %s", a->edit_field->key, a->edit_field->doc);
		} else {
			a->edit_error = true;
			status_err(a, &err);
		}
		break;
	case EDIT_ACCEPT:
		if (a->edit_error) {
			/* the reason the text does not read, not just that it does not */
			char msg[sizeof(a->status)];
			struct scenario t;
			memset(&err, 0, sizeof(err));
			if (field_edit_apply(&a->edit_base, a->cat, a->edit_field, a->line.buf, &t,
					     &err) != 0 &&
			    err.message[0])
				app_status(a, true, "%s (fix it, or Esc to cancel)",
					   gp_error_format(&err, msg, sizeof(msg)));
			else
				app_status(a, true,
					   "%s: '%s' does not read (fix it, or Esc to cancel)",
					   a->edit_field->key, a->line.buf);
			break;
		}
		a->mode = MODE_NORMAL;
		if (memcmp(&a->scn, &a->edit_base, sizeof(a->scn)) != 0)
			commit(a, &a->edit_base);
		app_status(a, false, "%s = %s", a->edit_field->key, a->line.buf);
		break;
	case EDIT_CANCEL:
		a->mode = MODE_NORMAL;
		a->scn = a->edit_base;
		a->dirty |= DIRTY_CALC;
		app_status(a, false, "cancelled");
		break;
	case EDIT_MOVED:
	case EDIT_UNHANDLED:
		break;
	}
	a->dirty |= DIRTY_DRAW;
}

static void pick_preview(struct app *a)
{
	const char *id;

	a->scn = a->edit_base;
	if (a->pick.n == 0)
		return;
	id = a->pick.kind == PICK_MODEL ? a->cat->models[a->pick.idx[a->pick.sel]].id
					: a->cat->gpus[a->pick.idx[a->pick.sel]].id;
	scenario_set(&a->scn, a->cat, a->pick.kind == PICK_MODEL ? "model.preset" : "hardware.gpu",
		     id, NULL);
	a->dirty |= DIRTY_CALC | DIRTY_DRAW;
}

static void pick_key(struct app *a, int key)
{
	struct picker *pk = &a->pick;
	/* PgUp/PgDn: exactly the rows the list shows, the list scrolling with the selection */
	int page = picker_visible(a), max_top = pk->n > page ? pk->n - page : 0;

	switch (key) {
	case KEYF(KEY_UP):
	case KEY_CTRL('p'):
		if (pk->sel > 0)
			pk->sel--;
		pick_preview(a);
		return;
	case KEYF(KEY_DOWN):
	case KEY_CTRL('n'):
		if (pk->sel < pk->n - 1)
			pk->sel++;
		pick_preview(a);
		return;
	case KEYF(KEY_PPAGE):
		pk->sel = pk->sel > page ? pk->sel - page : 0;
		pk->top = pk->top > page ? pk->top - page : 0;
		pick_preview(a);
		return;
	case KEYF(KEY_NPAGE):
		pk->sel = pk->sel + page < pk->n ? pk->sel + page : (pk->n ? pk->n - 1 : 0);
		pk->top = pk->top + page < max_top ? pk->top + page : max_top;
		pick_preview(a);
		return;
	default:
		break;
	}
	switch (line_edit_key(&pk->filter, key)) {
	case EDIT_CHANGED:
		picker_filter(a);
		pick_preview(a);
		break;
	case EDIT_ACCEPT:
		if (pk->n == 0) {
			app_status(a, true, "nothing matches '%s'", pk->filter.buf);
			break;
		}
		a->mode = MODE_NORMAL;
		if (memcmp(&a->scn, &a->edit_base, sizeof(a->scn)) != 0)
			commit(a, &a->edit_base);
		app_status(a, false, "%s = %s",
			   pk->kind == PICK_MODEL ? "model.preset" : "hardware.gpu",
			   pk->kind == PICK_MODEL ? a->scn.model.preset : a->scn.hardware.gpu.id);
		break;
	case EDIT_CANCEL:
		a->mode = MODE_NORMAL;
		a->scn = a->edit_base;
		a->dirty |= DIRTY_CALC;
		app_status(a, false, "cancelled");
		break;
	default:
		break;
	}
	a->dirty |= DIRTY_DRAW;
}

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

static const char *skip_blanks(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
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
		    !strchr("\"'|>", *skip_blanks(colon + 2)) && strstr(colon, " #"))
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
		status_err(a, &err);
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

static void open_file(struct app *a, const char *name, bool force)
{
	struct scenario t;
	struct gp_error err;
	struct gp_problems *probs;
	char file[sizeof(a->path)];

	app_expand_path(name, file, sizeof(file));
	if (!file[0]) {
		app_status(a, true, ":e needs a file name (:e FILE)");
		return;
	}
	if (!force && app_unsaved(a)) {
		app_status(a, true, "unsaved edits (:w to save them, or :e! %s to drop them)",
			   file);
		return;
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
		return;
	}
	free(probs);
	a->scn = t;
	a->saved = t;
	snprintf(a->path, sizeof(a->path), "%s", file);
	a->new_file = false;
	a->nundo = 0;
	a->nredo = 0;
	a->dirty |= DIRTY_CALC | DIRTY_DRAW;
	app_status(a, false, "read %s", file);
}

static void quit(struct app *a, bool force)
{
	if (!force && app_unsaved(a)) {
		a->mode = MODE_PROMPT;
		a->prompt = PROMPT_QUIT;
		app_status(a, false, "unsaved edits: quit without saving? (y/n, w saves first)");
		return;
	}
	a->quit = true;
}

/* :search [time|cost] [hardware|here] */
static void search_command(struct app *a, const char *arg)
{
	char w[32];
	int n;

	while (*arg) {
		n = (int)strcspn(arg, " \t");
		snprintf(w, sizeof(w), "%.*s", n, arg);
		if (strcmp(w, "time") == 0 || strcmp(w, "cost") == 0) {
			a->sv.by = w[0] == 'c' ? SEARCH_BY_COST : SEARCH_BY_TIME;
		} else if (strcmp(w, "hardware") == 0 || strcmp(w, "here") == 0) {
			a->sv.hardware = w[1] == 'a';
		} else {
			app_status(a, true, ":search takes time, cost, hardware or here, not '%s'",
				   w);
			return;
		}
		a->sv.stale = true;
		a->sv.sel = 0;
		arg = skip_blanks(arg + n);
	}
	search_view_open(a, VIEW_SEARCH);
}

/* :solve max|min [KEY]: goal seek on KEY, or on the selected field */
static void solve_command(struct app *a, const char *arg)
{
	const struct field *f = app_selected_field(a);
	bool maximize;
	size_t n = strcspn(arg, " \t");

	if (n == 3 && strncmp(arg, "max", 3) == 0)
		maximize = true;
	else if (n == 3 && strncmp(arg, "min", 3) == 0)
		maximize = false;
	else {
		app_status(a, true,
			   ":solve needs max or min and a key (:solve max workload.seq_len)");
		return;
	}
	arg = skip_blanks(arg + n);
	if (!arg[0] && !f) {
		app_status(a, true, ":solve %s needs a key, or a field selected",
			   maximize ? "max" : "min");
		return;
	}
	app_goal_seek(a, arg[0] ? arg : f->key, maximize);
}

void app_command(struct app *a, const char *cmd)
{
	char word[32];
	const char *arg;
	size_t n;

	cmd = skip_blanks(cmd);
	n = strcspn(cmd, " \t");
	if (n >= sizeof(word)) {
		app_status(a, true, "unknown command '%.40s'", cmd);
		return;
	}
	memcpy(word, cmd, n);
	word[n] = '\0';
	arg = skip_blanks(cmd + n);
	if (!word[0])
		return;
	if (strcmp(word, "set") == 0) {
		struct scenario before = a->scn;
		struct gp_error err;
		memset(&err, 0, sizeof(err));
		if (!arg[0]) {
			app_status(a, true, ":set needs KEY=VALUE (e.g. :set hardware.count=16)");
			return;
		}
		/* as --set does: a preset keeps the fields the file gave in its section */
		if (scenario_apply_sets(&a->scn, a->cat, &arg, 1, NULL, NULL, &err) != 0) {
			a->scn = before;
			status_err(a, &err);
			return;
		}
		commit(a, &before);
		app_status(a, false, "set %s", arg);
	} else if (strcmp(word, "w") == 0 || strcmp(word, "write") == 0) {
		app_save(a, arg);
	} else if (strcmp(word, "w!") == 0) {
		app_save_force(a, arg);
	} else if (strcmp(word, "wq") == 0 || strcmp(word, "x") == 0) {
		if (app_save(a, arg) == 0)
			a->quit = true;
		else if (a->mode == MODE_PROMPT &&
			 (a->prompt == PROMPT_SAVE_AS || a->prompt == PROMPT_OVERWRITE))
			a->quit_after_save = true; /* once the name is typed and written */
	} else if (strcmp(word, "e") == 0 || strcmp(word, "edit") == 0) {
		open_file(a, arg, false);
	} else if (strcmp(word, "e!") == 0) {
		open_file(a, arg, true);
	} else if (strcmp(word, "q") == 0 || strcmp(word, "quit") == 0) {
		quit(a, false);
	} else if (strcmp(word, "q!") == 0 || strcmp(word, "quit!") == 0) {
		quit(a, true);
	} else if (strcmp(word, "help") == 0 || strcmp(word, "h") == 0) {
		a->mode = MODE_HELP;
		a->help_top = 0;
	} else if (strcmp(word, "search") == 0) {
		search_command(a, arg);
	} else if (strcmp(word, "scaling") == 0) {
		search_view_open(a, VIEW_SCALING);
	} else if (strcmp(word, "solve") == 0) {
		solve_command(a, arg);
	} else {
		app_status(a, true,
			   "unknown command '%s' (expected set, w, e, q, q!, search, solve, "
			   "scaling or help)",
			   word);
	}
	a->dirty |= DIRTY_DRAW;
}

static void restore_recovery(struct app *a)
{
	struct scenario t;
	struct gp_error err;

	memset(&err, 0, sizeof(err));
	scenario_init(&t);
	if (scenario_load_file(a->recover_path, a->cat, &t, NULL, NULL, &err) != 0) {
		status_err(a, &err);
		return;
	}
	snprintf(t.path, sizeof(t.path), "%s", a->path);
	undo_push(a, &a->scn);
	a->scn = t;
	unlink(a->recover_path);
	a->dirty |= DIRTY_CALC | DIRTY_DRAW;
	app_status(a, false, "restored unsaved edits from %s", a->recover_path);
}

static void complete_file(struct app *a, const char *cmd, const char *typed);

static void prompt_key(struct app *a, int key)
{
	enum prompt_kind kind = a->prompt;

	if (kind == PROMPT_SAVE_AS) {
		if (key == '\t') {
			/* file names, as after :w */
			complete_file(a, "", a->line.buf);
			a->dirty |= DIRTY_DRAW;
			return;
		}
		switch (line_edit_key(&a->line, key)) {
		case EDIT_ACCEPT:
			a->mode = MODE_NORMAL;
			a->prompt = PROMPT_NONE;
			if (!a->line.buf[0]) {
				a->quit_after_save = false;
				app_status(a, false, "not saved");
				break;
			}
			{
				char file[sizeof(a->line.buf)];
				snprintf(file, sizeof(file), "%s", a->line.buf);
				if (app_save(a, file) == 0 && a->quit_after_save)
					a->quit = true;
			}
			if (a->mode != MODE_PROMPT)
				a->quit_after_save = false;
			break;
		case EDIT_CANCEL:
			a->mode = MODE_NORMAL;
			a->prompt = PROMPT_NONE;
			a->quit_after_save = false;
			app_status(a, false, "not saved");
			break;
		default:
			break;
		}
		a->dirty |= DIRTY_DRAW;
		return;
	}
	if (kind == PROMPT_QUIT && (key == 'w' || key == 'W')) {
		/* save, then quit: at once, or once a name is typed when there is none */
		a->mode = MODE_NORMAL;
		a->prompt = PROMPT_NONE;
		if (app_save(a, NULL) == 0)
			a->quit = true;
		else if (a->mode == MODE_PROMPT &&
			 (a->prompt == PROMPT_SAVE_AS || a->prompt == PROMPT_OVERWRITE))
			a->quit_after_save = true;
		a->dirty |= DIRTY_DRAW;
		return;
	}
	if (kind == PROMPT_OVERWRITE) {
		if (key == 'y' || key == 'Y') {
			char file[sizeof(a->pending_save)];
			snprintf(file, sizeof(file), "%s", a->pending_save);
			a->mode = MODE_NORMAL;
			a->prompt = PROMPT_NONE;
			if (app_save_force(a, file) == 0 && a->quit_after_save)
				a->quit = true;
			a->quit_after_save = false;
		} else if (key == 'n' || key == 'N' || key == KEY_ESC || key == 'q') {
			a->mode = MODE_NORMAL;
			a->prompt = PROMPT_NONE;
			a->quit_after_save = false;
			app_status(a, false, "not saved");
		}
		a->dirty |= DIRTY_DRAW;
		return;
	}
	if (key == 'y' || key == 'Y') {
		a->mode = MODE_NORMAL;
		a->prompt = PROMPT_NONE;
		if (kind == PROMPT_QUIT)
			a->quit = true;
		else if (kind == PROMPT_RECOVER)
			restore_recovery(a);
	} else if (key == 'n' || key == 'N' || key == KEY_ESC || key == 'q') {
		a->mode = MODE_NORMAL;
		a->prompt = PROMPT_NONE;
		if (kind == PROMPT_RECOVER && (key == 'n' || key == 'N')) {
			unlink(a->recover_path);
			app_status(a, false, "recovery file removed");
		} else if (kind == PROMPT_RECOVER) {
			/* only a plain no drops the edits; Esc keeps them for the next start */
			app_status(a, false, "recovery file kept: %s", a->recover_path);
		} else {
			a->status[0] = '\0';
		}
	}
	a->dirty |= DIRTY_DRAW;
}

/* The values Tab offers for f: its names, true/false, or the catalog's ids. */
static int value_candidates(const struct app *a, const struct field *f, const char **out, int max)
{
	static const char *const bools[] = {"true", "false", NULL};
	const char *const *names = f->type == FIELD_BOOL ? bools : f->names;
	int n = 0;

	if (f->catalog == FIELD_CATALOG_MODELS) {
		for (int i = 0; i < a->cat->nmodels && n < max; i++)
			out[n++] = a->cat->models[i].id;
	} else if (f->catalog == FIELD_CATALOG_GPUS) {
		for (int i = 0; i < a->cat->ngpus && n < max; i++)
			out[n++] = a->cat->gpus[i].id;
	} else if (names && f->type != FIELD_TARGETS) {
		for (int i = 0; names[i] && n < max; i++)
			out[n++] = names[i];
	}
	return n;
}

/* Tab after :e, :w and the like: the file names that start with what is typed (folders
 * with a slash), completed to their longest common prefix and listed on the status line;
 * dot files only when the name typed starts with a dot. */
static void complete_file(struct app *a, const char *cmd, const char *typed)
{
	char dir[LINE_EDIT_MAX], expanded[LINE_EDIT_MAX], common[LINE_EDIT_MAX] = "";
	char text[LINE_EDIT_MAX * 2 + 8];
	const char *slash = strrchr(typed, '/'), *base = slash ? slash + 1 : typed;
	size_t blen = strlen(base), shown = 0;
	int n = 0;
	bool only_dir = false;
	DIR *d;
	struct dirent *e;

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - typed + 1) : 0, typed);
	app_expand_path(dir[0] ? dir : ".", expanded, sizeof(expanded));
	a->status[0] = '\0';
	a->status_error = false;
	d = opendir(expanded);
	if (!d) {
		app_status(a, true, "no folder '%s'", dir[0] ? dir : ".");
		return;
	}
	while ((e = readdir(d)) != NULL) {
		char path[LINE_EDIT_MAX * 2 + 2];
		struct stat st;
		bool is_dir;
		size_t c = 0;
		if (strncmp(e->d_name, base, blen) != 0 || strcmp(e->d_name, ".") == 0 ||
		    strcmp(e->d_name, "..") == 0 || (e->d_name[0] == '.' && base[0] != '.'))
			continue;
		snprintf(path, sizeof(path), "%s/%s", expanded, e->d_name);
		is_dir = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
		if (n == 0) {
			snprintf(common, sizeof(common), "%s", e->d_name);
			only_dir = is_dir;
		} else {
			while (common[c] && common[c] == e->d_name[c])
				c++;
			common[c] = '\0';
		}
		n++;
		if (shown + strlen(e->d_name) + 3 < sizeof(a->status) / 2)
			shown +=
			    (size_t)snprintf(a->status + shown, sizeof(a->status) - shown, "%s%s%s",
					     shown ? "  " : "", e->d_name, is_dir ? "/" : "");
	}
	closedir(d);
	if (n == 0) {
		app_status(a, true, "no file starts with '%s'", typed);
		return;
	}
	if (n == 1)
		a->status[0] = '\0';
	/* after a command (":w dir/na"), or alone at the save-as prompt (cmd "") */
	snprintf(text, sizeof(text), "%s%s%s%s%s", cmd, cmd[0] ? " " : "", dir, common,
		 n == 1 && only_dir ? "/" : "");
	line_edit_set(&a->line, text);
}

void app_complete(struct app *a)
{
	const char *p = a->line.buf, *word, *eq, *cands[PICK_MAX + 8];
	const char *first = NULL;
	char key[128], text[LINE_EDIT_MAX];
	size_t plen, common = 0, shown = 0;
	int ncand = 0, n = 0;
	/* ":solve max KEY" completes a numeric key, no value after it */
	const char *lead = "set ";

	while (*p == ' ')
		p++;
	{
		static const char *const file_cmds[] = {"e",	 "e!", "edit", "w", "w!",
							"write", "wq", "x",    NULL};
		size_t cl = strcspn(p, " ");
		for (int i = 0; file_cmds[i]; i++)
			if (p[cl] == ' ' && cl == strlen(file_cmds[i]) &&
			    strncmp(p, file_cmds[i], cl) == 0) {
				char cmd[8];
				snprintf(cmd, sizeof(cmd), "%s", file_cmds[i]);
				complete_file(a, cmd, skip_blanks(p + cl));
				return;
			}
	}
	if (strncmp(p, "solve max ", 10) == 0 || strncmp(p, "solve min ", 10) == 0)
		lead = p[7] == 'a' ? "solve max " : "solve min ";
	else if (strncmp(p, "set ", 4) != 0)
		return;
	word = p + strlen(lead);
	while (*word == ' ')
		word++;
	eq = lead[1] == 'e' ? strchr(word, '=') : NULL;
	if (lead[1] == 'o') {
		for (const struct field *f = scenario_fields; f->key; f++)
			if (f->type == FIELD_INT || f->type == FIELD_NUM)
				cands[ncand++] = f->key;
	} else if (eq) {
		/* a value: the field's choices */
		const struct field *f;
		snprintf(key, sizeof(key), "%.*s", (int)(eq - word), word);
		f = scenario_field_find(key);
		if (!f)
			return;
		ncand = value_candidates(a, f, cands, (int)(sizeof(cands) / sizeof(cands[0])));
		word = eq + 1;
	} else {
		for (const struct field *f = scenario_fields; f->key; f++)
			cands[ncand++] = f->key;
	}
	plen = strlen(word);
	a->status[0] = '\0';
	a->status_error = false;
	for (int i = 0; i < ncand; i++) {
		size_t c = 0;
		if (strncmp(cands[i], word, plen) != 0)
			continue;
		if (!first) {
			first = cands[i];
			common = strlen(first);
		}
		while (c < common && cands[i][c] == first[c])
			c++;
		common = c;
		n++;
		/* the candidates, after the text typed, as many as fit */
		if (shown + strlen(cands[i]) + 2 < sizeof(a->status) / 2)
			shown += (size_t)snprintf(a->status + shown, sizeof(a->status) - shown,
						  "%s%s", shown ? "  " : "", cands[i]);
	}
	if (n == 0) {
		snprintf(a->status, sizeof(a->status), "nothing starts with '%s'", word);
		a->status_error = true;
		return;
	}
	if (n == 1)
		a->status[0] = '\0';
	if (eq)
		snprintf(text, sizeof(text), "set %s=%.*s", key, (int)common, first);
	else
		snprintf(text, sizeof(text), "%s%.*s%s", lead, (int)common, first,
			 n == 1 && lead[1] == 'e' ? "=" : "");
	line_edit_set(&a->line, text);
}

static void history_add(struct app *a, const char *cmd)
{
	int max = (int)(sizeof(a->history) / sizeof(a->history[0]));

	if (!cmd[0] || (a->nhistory && strcmp(a->history[a->nhistory - 1], cmd) == 0))
		return;
	if (a->nhistory == max) {
		memmove(a->history[0], a->history[1], sizeof(a->history[0]) * (size_t)(max - 1));
		a->nhistory--;
	}
	snprintf(a->history[a->nhistory++], sizeof(a->history[0]), "%s", cmd);
}

static void command_key(struct app *a, int key)
{
	if ((key == 127 || key == KEYF(KEY_BACKSPACE) || key == KEY_CTRL('h')) &&
	    a->line.len == 0) {
		a->mode = MODE_NORMAL;
		a->status[0] = '\0';
		return;
	}
	if (key == '\t') {
		app_complete(a);
		a->dirty |= DIRTY_DRAW;
		return;
	}
	if (key == KEYF(KEY_UP) || key == KEYF(KEY_DOWN)) {
		/* the earlier commands, newest first */
		int pos = a->history_pos + (key == KEYF(KEY_UP) ? -1 : 1);
		if (pos >= 0 && pos <= a->nhistory) {
			a->history_pos = pos;
			line_edit_set(&a->line, pos < a->nhistory ? a->history[pos] : "");
		}
		a->dirty |= DIRTY_DRAW;
		return;
	}
	a->status[0] = '\0';
	switch (line_edit_key(&a->line, key)) {
	case EDIT_ACCEPT: {
		char cmd[LINE_EDIT_MAX];
		snprintf(cmd, sizeof(cmd), "%s", a->line.buf);
		a->mode = MODE_NORMAL;
		history_add(a, cmd);
		app_command(a, cmd);
		break;
	}
	case EDIT_CANCEL:
		a->mode = MODE_NORMAL;
		break;
	default:
		break;
	}
	a->dirty |= DIRTY_DRAW;
}

static void move_sel(struct app *a, int delta)
{
	int p = a->focus;

	if (p == PANE_RESULTS) {
		int s = a->sel[p] + delta;
		if (s < 0)
			s = 0;
		if (s >= a->nresult_items)
			s = a->nresult_items - 1;
		a->sel[p] = s < 0 ? 0 : s;
	} else {
		int start = a->sel[p] + delta;
		const struct pane_rows *r = &a->rows[p];
		/* skip headings and info lines in the direction of travel */
		if (start >= 0 && start < r->n)
			select_row(a, p, start, delta > 0 ? 1 : -1);
		else
			select_row(a, p, start, delta > 0 ? -1 : 1);
		scroll_to_selection(a, p);
	}
	a->dirty |= DIRTY_DRAW;
}

/* PgUp/PgDn: a page less a row of overlap; an input pane's rows scroll with the selection,
 * which keeps its place on the screen (the selection used to move while the rows stayed). */
static void page(struct app *a, int dir)
{
	int p = a->focus, visible = a->lay.pane[p].h - 1, step;

	step = visible > 2 ? visible - 1 : 1;
	if (p != PANE_RESULTS) {
		int max_top = a->rows[p].n - visible;
		a->top[p] += dir * step;
		if (a->top[p] > max_top)
			a->top[p] = max_top;
		if (a->top[p] < 0)
			a->top[p] = 0;
	}
	move_sel(a, dir * step);
}

static void baseline(struct app *a)
{
	bool same = a->has_baseline && memcmp(&a->base_scn, &a->scn, sizeof(a->scn)) == 0;

	if (same) {
		a->has_baseline = false;
		app_status(a, false, "baseline cleared");
	} else {
		bool moved = a->has_baseline;
		a->has_baseline = true;
		a->base_scn = a->scn;
		a->base_plan = a->plan;
		if (moved)
			/* b after edits moves the baseline here; only b on it clears it */
			app_status(a, false,
				   "baseline moved to the current plan (b again, with no edit, "
				   "clears it)");
		else
			app_status(a, false,
				   "baseline pinned: results now show the change against it "
				   "(b again to clear)");
	}
	a->dirty |= DIRTY_DRAW;
}

static void normal_key(struct app *a, int key)
{
	enum action act = keys_action(key);
	const struct field *f;

	if (a->view != VIEW_NONE && search_view_key(a, key)) {
		a->dirty |= DIRTY_DRAW;
		return;
	}
	if (act != ACT_NONE && a->status[0] && act != ACT_INC && act != ACT_DEC)
		a->status[0] = '\0';
	switch (act) {
	case ACT_NEXT_PANE:
		a->focus = (a->focus + 1) % PANE_COUNT;
		break;
	case ACT_PREV_PANE:
		a->focus = (a->focus + PANE_COUNT - 1) % PANE_COUNT;
		break;
	case ACT_PANE_1:
	case ACT_PANE_2:
	case ACT_PANE_3:
	case ACT_PANE_4:
		a->focus = act - ACT_PANE_1;
		break;
	case ACT_UP:
		move_sel(a, -1);
		break;
	case ACT_DOWN:
		move_sel(a, 1);
		break;
	case ACT_PAGE_UP:
		page(a, -1);
		break;
	case ACT_PAGE_DOWN:
		page(a, 1);
		break;
	case ACT_TOP:
		move_sel(a, -1000);
		break;
	case ACT_BOTTOM:
		move_sel(a, 1000);
		break;
	case ACT_EDIT:
		edit_start(a);
		break;
	case ACT_INC:
		step(a, 1, false);
		break;
	case ACT_DEC:
		step(a, -1, false);
		break;
	case ACT_NEXT_CHOICE:
		step(a, 1, true);
		break;
	case ACT_PREV_CHOICE:
		step(a, -1, true);
		break;
	case ACT_UNDO:
		undo(a);
		break;
	case ACT_REDO:
		redo(a);
		break;
	case ACT_BASELINE:
		baseline(a);
		break;
	case ACT_EXPLAIN:
		if (a->focus == PANE_RESULTS) {
			if (a->nresult_items)
				explain_open(a, a->result_keys[a->sel[PANE_RESULTS]]);
		} else if ((f = app_selected_field(a)) != NULL) {
			explain_open(a, f->key);
		}
		break;
	case ACT_COMMAND:
		a->mode = MODE_COMMAND;
		a->history_pos = a->nhistory;
		line_edit_set(&a->line, "");
		break;
	case ACT_HELP:
		a->mode = MODE_HELP;
		a->help_top = 0;
		break;
	case ACT_QUIT:
		quit(a, false);
		break;
	case ACT_SAVE:
		app_save(a, NULL);
		break;
	case ACT_REDRAW:
		if (a->screen)
			clearok(curscr, TRUE);
		break;
	case ACT_SEARCH:
		search_view_open(a, VIEW_SEARCH);
		break;
	case ACT_SCALING:
		search_view_open(a, VIEW_SCALING);
		break;
	case ACT_SOLVE_MAX:
	case ACT_SOLVE_MIN:
		if ((f = app_selected_field(a)) != NULL)
			app_goal_seek(a, f->key, act == ACT_SOLVE_MAX);
		else
			app_status(a, true,
				   "goal seek: select a numeric field first (or :solve max KEY)");
		break;
	case ACT_NONE:
		break;
	}
	a->dirty |= DIRTY_DRAW;
}
/* Scrolls a help or explanation window: j/k, arrows, space and page keys. Returns false
 * for any other key (which closes the window). */
static bool scroll_key(int key, int *top)
{
	if (key == KEYF(KEY_DOWN) || key == 'j')
		(*top)++;
	else if (key == KEYF(KEY_UP) || key == 'k')
		*top = *top > 0 ? *top - 1 : 0;
	else if (key == KEYF(KEY_NPAGE) || key == ' ')
		*top += 10;
	else if (key == KEYF(KEY_PPAGE))
		*top = *top > 10 ? *top - 10 : 0;
	else
		return false;
	return true;
}

void app_handle_key(struct app *a, int key)
{
	switch (a->mode) {
	case MODE_NORMAL:
		normal_key(a, key);
		break;
	case MODE_EDIT:
		edit_key(a, key);
		break;
	case MODE_PICK:
		pick_key(a, key);
		break;
	case MODE_COMMAND:
		command_key(a, key);
		break;
	case MODE_PROMPT:
		prompt_key(a, key);
		break;
	case MODE_HELP:
		if (!scroll_key(key, &a->help_top))
			a->mode = MODE_NORMAL;
		if (a->help_top > help_display_lines(a->lay.cols - 4) - 1)
			a->help_top = help_display_lines(a->lay.cols - 4) - 1;
		a->dirty |= DIRTY_DRAW;
		break;
	case MODE_EXPLAIN:
		if (!scroll_key(key, &a->explain_top))
			a->mode = MODE_NORMAL;
		a->dirty |= DIRTY_DRAW;
		break;
	}
}
