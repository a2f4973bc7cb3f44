/* app_edit.c - stepping a field, typing its value, and the preset picker. */
#include "app.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario_sets.h"
#include "scenario_yaml.h"

double app_auto_value(const struct app *a, const struct field *f)
{
	double v = scenario_field_resolved(f, &a->plan);

	if (!isfinite(v) || v < 0)
		v = 0;
	if (f->type == FIELD_INT)
		v = floor(v);
	return v;
}

double app_running_batch(const struct app *a, const struct field *f, enum batch_run *why)
{
	const struct plan *p = &a->plan;
	double fit = app_auto_value(a, f), slo = p->slo_batch;
	/* under a scheduler the engine's steady state (plan_serve.c: the load's batch by
	 * Little's law, its running cap when overloaded or offline, a closed loop's
	 * concurrency); under scheduler alone plan_batch's: the SLO's batch, else the fit */
	double run = isfinite(p->serving.batch) ? p->serving.batch
		     : isfinite(slo) && slo > 0 ? slo
						: fit;

	*why = BATCH_RUN_FIT;
	if (strcmp(f->key, "workload.batch") != 0 || !(run > 0) || run >= fit)
		return 0;
	if (isfinite(slo) && fabs(run - slo) < 0.5)
		*why = BATCH_RUN_SLO;
	else if (p->serving.overloaded)
		*why = BATCH_RUN_OVERLOAD;
	else if (isfinite(p->serving.rate))
		*why = BATCH_RUN_LOAD;
	else if (run == p->serving.max_running)
		*why = BATCH_RUN_CAP;
	else
		*why = BATCH_RUN_CONCURRENCY;
	return run;
}

void app_file_keys(const struct app *a, const struct scenario *s, struct scenario_source *src)
{
	/* on the stack: the picker's preview and Left/Right call this at each key, and a key
	 * allocates nothing */
	struct scenario base_buf, *base = &base_buf;
	int n = scenario_field_count();

	(void)a;
	memset(src, 0, sizeof(*src));
	scenario_preset_base(s, a->cat, base);
	for (int i = 0; i < n && src->nkeys < SCENARIO_MAX_KEYS; i++) {
		const struct field *f = &scenario_fields[i];
		/* what the file wrote (the loader's keys, as --set has them), and what the
		 * session's edits set apart from the presets (both written by :w) */
		if (!scenario_field_written(s, i) && (!base || scenario_field_equal(s, base, f)))
			continue;
		snprintf(src->keys[src->nkeys++].key, sizeof(src->keys[0].key), "%s", f->key);
	}
}

int app_apply_sets(struct app *a, struct scenario *s, const struct scenario_source *keys,
		   const char *const *sets, int n, int *failed, struct gp_error *err)
{
	return scenario_apply_sets(s, a->cat, sets, n, keys, failed, err);
}

/* Left/Right on a preset (hardware.gpu, model.preset): the next one in the catalog, set as
 * --set sets it, so the fields the file gave in its section stay. */
static int cycle_preset(struct app *a, const struct field *f, int dir)
{
	struct scenario t = a->scn;
	struct scenario_source *keys = &a->cycle_keys; /* the app's: a key allocates nothing */
	char kv[sizeof(t.model.preset) + 64];
	const char *set = kv;
	size_t len;
	int rc;

	if (field_cycle(&t, a->cat, f, dir) != 0)
		return -1;
	len = (size_t)snprintf(kv, sizeof(kv), "%s=", f->key);
	scenario_field_format(&t, f, kv + len, sizeof(kv) - len);
	app_file_keys(a, &a->scn, keys);
	rc = app_apply_sets(a, &a->scn, keys, &set, 1, NULL, NULL);
	return rc;
}

unsigned app_step(struct app *a, int dir, bool cycle)
{
	unsigned dirty;
	const struct field *f = app_selected_field(a);
	struct scenario before = a->scn;
	struct gp_error err;
	int rc;

	if (!f)
		return 0;
	memset(&err, 0, sizeof(err));
	if (cycle && field_is_choice(f) && f->catalog != FIELD_CATALOG_NONE)
		rc = cycle_preset(a, f, dir);
	else if (cycle && field_is_choice(f))
		rc = field_cycle(&a->scn, a->cat, f, dir);
	else
		rc = field_step(&a->scn, a->cat, f, dir, app_auto_value(a, f), &err);
	if (rc != 0) {
		a->scn = before;
		if (err.message[0])
			app_status(a, true, "%s", err.message);
		else
			app_status(a, false, "%s: press Enter to type a value", f->key);
		return DIRTY_DRAW;
	}
	dirty = app_commit(a, &before);
	{
		char v[160];
		app_status(a, false, "%s = %s", f->key,
			   scenario_field_format(&a->scn, f, v, sizeof(v)));
	}
	return dirty;
}

/* The end of a typed value or a pick: Enter keeps the scenario as one undoable edit (none
 * when nothing changed), Esc puts back the one before it. */
static unsigned edit_accept(struct app *a)
{
	a->mode = MODE_NORMAL;
	if (memcmp(&a->scn, &a->edit_base, sizeof(a->scn)) != 0)
		return app_commit(a, &a->edit_base);
	return 0;
}

static unsigned edit_cancel(struct app *a)
{
	a->mode = MODE_NORMAL;
	a->scn = a->edit_base;
	app_status(a, false, "cancelled");
	return DIRTY_CALC;
}

/* A preset picked from a catalog (the field table's catalog kind: model.preset's models,
 * hardware.gpu's GPUs); model.hf_config, a preset too (FIELD_PRESET), is a file name typed. */
static bool is_picked_field(const struct field *f)
{
	return (f->flags & FIELD_PRESET) && f->catalog != FIELD_CATALOG_NONE;
}

void app_edit_start(struct app *a)
{
	const struct field *f = app_selected_field(a);
	char v[LINE_EDIT_MAX];

	if (!f) {
		/* a pane without fields (Results): Enter explains its selection */
		const char *k = app_pane(a, a->focus)->selected_key(a);
		if (k)
			explain_open(a, k);
		return;
	}
	a->edit_base = a->scn;
	if (is_picked_field(f)) {
		/* the fields a preset must not replace, once for the whole pick */
		app_file_keys(a, &a->edit_base, &a->pick_keys);
		picker_open(a, f);
		return;
	}
	a->edit_field = f;
	a->edit_error = false;
	scenario_field_format(&a->scn, f, v, sizeof(v));
	if (f->type == FIELD_NUM && f->unit == UNIT_RATIO &&
	    *(const double *)((const char *)&a->scn + f->offset) > 0)
		/* as the pane shows it: 50%, which reads back the same */
		units_format_percent(*(const double *)((const char *)&a->scn + f->offset), 4, v,
				     sizeof(v));
	line_edit_set(&a->line, v);
	a->mode = MODE_EDIT;
	app_status(a, false, "%s: %s", f->key, f->doc);
}

/* Enter on a text that does not read: the reason (err), not just that it does not. */
static void edit_refuse(struct app *a, const struct gp_error *err)
{
	char msg[sizeof(a->status)];

	if (err->message[0])
		app_status(a, true, "%s (fix it, or Esc to cancel)",
			   gp_error_format(err, msg, sizeof(msg)));
	else
		app_status(a, true, "%s: '%s' does not read (fix it, or Esc to cancel)",
			   a->edit_field->key, a->line.buf);
}

unsigned app_edit_key(struct app *a, int key)
{
	struct gp_error err;
	unsigned dirty = DIRTY_DRAW;

	switch (line_edit_key(&a->line, key)) {
	case EDIT_CHANGED:
		memset(&err, 0, sizeof(err));
		if (a->edit_field->flags & FIELD_FILE) {
			/* a file (model.hf_config) is read on Enter, not at each key of its
			 * name: a half-typed path is no error, and the results keep the last
			 * model that read */
			a->edit_error = false;
			app_status(a, false, "%s: %s", a->edit_field->key, a->edit_field->doc);
			break;
		}
		/* Results follow the text while it reads; the last value that read stays. */
		if (field_edit_apply(&a->edit_base, a->cat, a->edit_field, a->line.buf, &a->scn,
				     &err) == 0) {
			a->edit_error = false;
			dirty |= DIRTY_CALC;
			app_status(a, false, "%s: %s", a->edit_field->key, a->edit_field->doc);
		} else {
			a->edit_error = true;
			app_status_err(a, &err);
		}
		break;
	case EDIT_ACCEPT:
		memset(&err, 0, sizeof(err));
		if (a->edit_field->flags & FIELD_FILE) {
			/* the file is read now, once */
			a->edit_error = field_edit_apply(&a->edit_base, a->cat, a->edit_field,
							 a->line.buf, &a->scn, &err) != 0;
			if (a->edit_error) {
				edit_refuse(a, &err);
				break;
			}
		} else if (a->edit_error) {
			struct scenario t;
			if (field_edit_apply(&a->edit_base, a->cat, a->edit_field, a->line.buf, &t,
					     &err) == 0)
				err.message[0] = '\0';
			edit_refuse(a, &err);
			break;
		}
		dirty |= edit_accept(a);
		app_status(a, false, "%s = %s", a->edit_field->key, a->line.buf);
		break;
	case EDIT_CANCEL:
		dirty |= edit_cancel(a);
		break;
	case EDIT_MOVED:
	case EDIT_UNHANDLED:
		break;
	}
	return dirty;
}

/* The scenario with the preset selected in the picker, tentatively; returns the dirty bits. */
static unsigned pick_preview(struct app *a)
{
	char kv[sizeof(a->scn.model.preset) + 64];
	const char *set = kv;

	a->scn = a->edit_base;
	if (a->pick.n == 0)
		return 0;
	snprintf(kv, sizeof(kv), "%s=%s", a->pick.field->key,
		 a->pick.kind == PICK_MODEL ? a->cat->models[a->pick.idx[a->pick.sel]].id
					    : a->cat->gpus[a->pick.idx[a->pick.sel]].id);
	/* as --set: the preset, then the fields the file gave in its section again */
	if (app_apply_sets(a, &a->scn, &a->pick_keys, &set, 1, NULL, NULL) != 0)
		a->scn = a->edit_base;
	return DIRTY_CALC | DIRTY_DRAW;
}

unsigned pick_key_up(struct app *a, int key)
{
	(void)key;
	if (a->pick.sel > 0)
		a->pick.sel--;
	return DIRTY_DRAW | pick_preview(a);
}

unsigned pick_key_down(struct app *a, int key)
{
	(void)key;
	if (a->pick.sel < a->pick.n - 1)
		a->pick.sel++;
	return DIRTY_DRAW | pick_preview(a);
}

/* PgUp/PgDn: exactly the rows the list shows, the list scrolling with the selection */
unsigned pick_key_page_up(struct app *a, int key)
{
	struct picker *pk = &a->pick;
	int page = picker_visible(a);

	(void)key;
	pk->sel = pk->sel > page ? pk->sel - page : 0;
	pk->top = pk->top > page ? pk->top - page : 0;
	return DIRTY_DRAW | pick_preview(a);
}

unsigned pick_key_page_down(struct app *a, int key)
{
	struct picker *pk = &a->pick;
	int page = picker_visible(a), max_top = pk->n > page ? pk->n - page : 0;

	(void)key;
	pk->sel = pk->sel + page < pk->n ? pk->sel + page : (pk->n ? pk->n - 1 : 0);
	pk->top = pk->top + page < max_top ? pk->top + page : max_top;
	return DIRTY_DRAW | pick_preview(a);
}

unsigned pick_key_take(struct app *a, int key)
{
	struct picker *pk = &a->pick;
	unsigned dirty = DIRTY_DRAW;

	(void)key;
	if (pk->filter.full)
		return dirty; /* a filter cut short is refused (app_handle_key says so) */
	if (pk->n == 0) {
		app_status(a, true, "nothing matches '%s'", pk->filter.buf);
		return dirty;
	}
	dirty |= edit_accept(a);
	{
		char v[160];
		app_status(a, false, "%s = %s", pk->field->key,
			   scenario_field_format(&a->scn, pk->field, v, sizeof(v)));
	}
	return dirty;
}

KEY_HANDLER(pick_key_cancel, DIRTY_DRAW | edit_cancel(a))

unsigned app_pick_key(struct app *a, int key)
{
	const struct key_row *r = keys_find(KC_PICK, key);
	unsigned dirty = DIRTY_DRAW;

	if (r && r->run)
		return r->run(a, key);
	/* the rest is the filter's line editor */
	if (line_edit_key(&a->pick.filter, key) == EDIT_CHANGED) {
		picker_filter(a);
		dirty |= pick_preview(a);
	}
	return dirty;
}

/* A value being typed in a pane: the pane draws the text, this view takes the keys. */
const struct view_ops edit_view = {
    .flags = VIEW_STATUS_ONE_LINE | VIEW_STATUS_FIELD,
    .key = app_edit_key,
    .cursor = pane_inputs_cursor,
    VIEW_OPS("edit", KC_EDIT),
};
