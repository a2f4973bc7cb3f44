/* test_ui_search.c - the search view, the scaling view and goal seek without a terminal: the view
 * lists the best layouts and follows edits only while open; Enter applies one as one undoable edit;
 * c/t and H rerank and widen; the rows fit their width; goal seek sets the field. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#define UI_APP_TWO_OF_EACH
#include "ui_app_fixture.h"

static void key(int k)
{
	app_handle_key(&app, k);
	app_compute(&app);
}

static void command(const char *cmd)
{
	app_command(&app, cmd);
	app_compute(&app);
}

/* Puts the focus on the field key (wherever its pane is). */
static void select_field(const char *fkey)
{
	for (int p = 0; p < PANE_RESULTS; p++)
		for (int i = 0; i < app.rows[p].n; i++)
			if (app.rows[p].r[i].kind == ROW_FIELD &&
			    strcmp(app.rows[p].r[i].f->key, fkey) == 0) {
				app.focus = p;
				app.sel[p] = i;
				return;
			}
	fail_msg("no row for %s", fkey);
}

static bool same_layout(const struct scenario *a, const struct scenario *b)
{
	return memcmp(&a->parallel, &b->parallel, sizeof(a->parallel)) == 0 &&
	       a->workload.micro_batch == b->workload.micro_batch &&
	       a->workload.recompute == b->workload.recompute;
}

static void test_open_lists_best_first(void **state)
{
	(void)state;
	assert_int_equal(app.view, VIEW_NONE);
	keys("s");
	assert_int_equal(app.view, VIEW_SEARCH);
	assert_int_equal(app.mode, MODE_NORMAL);
	assert_int_equal(app.sv.runs, 1);
	assert_true(app.sv.n > 1);
	/* as many as the view shows at 80x24: 24 - 3 lines - frame - 2 heading lines */
	assert_int_equal(search_view_capacity(&app), 17);
	assert_true(app.sv.n <= 17);
	assert_true(app.sv.stats.fitting >= app.sv.n);
	for (int i = 0; i < app.sv.n; i++) {
		assert_true(app.sv.res[i].plan.mem.fits);
		assert_string_equal(app.sv.res[i].gpu, app.scn.hardware.gpu.id);
		assert_int_equal(app.sv.res[i].count, app.scn.hardware.count);
		if (i && app.sv.res[i].meets_target == app.sv.res[i - 1].meets_target)
			assert_true(app.sv.res[i].score >= app.sv.res[i - 1].score);
	}
	/* by time: the first is at least as fast as the scenario as it is */
	assert_true(app.sv.res[0].plan.tokens_per_s >= app.plan.tokens_per_s * (1 - 1e-9) ||
		    !app.plan.mem.fits);
	/* the selection moves and stops at the ends */
	keys("jjj");
	assert_int_equal(app.sv.sel, 3);
	keys("kkkkkk");
	assert_int_equal(app.sv.sel, 0);
	keys("G");
	assert_int_equal(app.sv.sel, app.sv.n - 1);
	/* moving and closing do not search again */
	key(KEY_ESC);
	assert_int_equal(app.view, VIEW_NONE);
	assert_int_equal(app.sv.runs, 1);
	/* reopened without an edit: the same results, no new run */
	keys("s");
	assert_int_equal(app.sv.runs, 1);
}

static void test_follows_edits_only_while_open(void **state)
{
	int n8;
	(void)state;
	select_field("hardware.count");
	keys("+-+");
	assert_int_equal(app.sv.runs, 0); /* closed: no search on the edit path */
	keys("s");
	assert_int_equal(app.sv.runs, 1);
	assert_int_equal(app.sv.res[0].count, 16);
	n8 = app.sv.n;
	/* an edit while open (the : line, undo) reruns it once per compute */
	command("set hardware.count=32");
	assert_int_equal(app.view, VIEW_SEARCH);
	assert_int_equal(app.sv.runs, 2);
	assert_int_equal(app.sv.res[0].count, 32);
	keys("u");
	assert_int_equal(app.scn.hardware.count, 16);
	assert_int_equal(app.sv.runs, 3);
	assert_int_equal(app.sv.res[0].count, 16);
	assert_int_equal(app.sv.n, n8);
	/* several keys before one compute (the live loop drains them): one run */
	app_handle_key(&app, KEY_CTRL('r'));
	app_handle_key(&app, 'u');
	app_handle_key(&app, KEY_CTRL('r'));
	app_compute(&app);
	assert_int_equal(app.sv.runs, 4);
	assert_int_equal(app.sv.res[0].count, 32);
}

static void test_apply_and_undo(void **state)
{
	struct scenario before;
	int nundo, pick = -1;
	(void)state;
	keys("s");
	before = app.scn;
	nundo = app.nundo;
	/* a result whose layout differs from the scenario's */
	for (int i = 0; i < app.sv.n && pick < 0; i++) {
		struct scenario t = app.scn;
		search_apply(&t, &cat, &app.sv.res[i]);
		if (!same_layout(&t, &app.scn))
			pick = i;
	}
	assert_true(pick >= 0);
	for (int i = 0; i < pick; i++)
		key('j');
	key('\r');
	assert_int_equal(app.view, VIEW_NONE);
	assert_int_equal(app.nundo, nundo + 1); /* one edit */
	assert_int_equal(app.scn.parallel.tp, app.sv.res[pick].parallel.tp);
	assert_int_equal(app.scn.parallel.pp, app.sv.res[pick].parallel.pp);
	assert_int_equal(app.scn.parallel.zero, app.sv.res[pick].parallel.zero);
	assert_int_equal(app.scn.workload.micro_batch, app.sv.res[pick].micro_batch);
	assert_false(same_layout(&app.scn, &before));
	assert_non_null(strstr(app.status, "applied layout"));
	/* the plan is the one the row promised */
	assert_true(app.plan.mem.fits);
	assert_true(fabs(app.plan.step_s - app.sv.res[pick].plan.step_s) <= 1e-9 * app.plan.step_s);
	keys("u");
	assert_int_equal(memcmp(&app.scn, &before, sizeof(before)), 0);
}

static void test_apply_typed_ahead(void **state)
{
	struct scenario t;
	(void)state;
	/* s and Enter in one read: the search runs before Enter applies its first row */
	app_handle_key(&app, 's');
	app_handle_key(&app, '\r');
	app_compute(&app);
	assert_int_equal(app.view, VIEW_NONE);
	assert_false(app.status_error);
	assert_int_equal(app.sv.runs, 1);
	assert_int_equal(app.nundo, 1); /* the built-in's layout is not the best: it changed */
	t = app.undo[(app.undo_head + UNDO_MAX - 1) % UNDO_MAX];
	search_apply(&t, &cat, &app.sv.res[0]);
	assert_true(same_layout(&t, &app.scn));
}

static void test_rank_by_cost_and_hardware(void **state)
{
	(void)state;
	keys("s");
	keys("c");
	assert_int_equal(app.sv.by, SEARCH_BY_COST);
	assert_int_equal(app.sv.runs, 2);
	for (int i = 1; i < app.sv.n; i++)
		if (app.sv.res[i].meets_target == app.sv.res[i - 1].meets_target)
			assert_true(app.sv.res[i].plan.usd_per_million_tokens >=
				    app.sv.res[i - 1].plan.usd_per_million_tokens * (1 - 1e-9));
	keys("t");
	assert_int_equal(app.sv.by, SEARCH_BY_TIME);
	keys("H");
	assert_true(app.sv.hardware);
	assert_int_equal(app.sv.runs, 4);
	assert_true(app.sv.n > 0);
	/* over the catalog: GPU types and counts other than the scenario's */
	{
		bool other = false;
		for (int i = 0; i < app.sv.n; i++) {
			assert_non_null(catalog_find_gpu(&cat, app.sv.res[i].gpu));
			other |= app.sv.res[i].count != app.scn.hardware.count;
		}
		assert_true(other);
	}
	/* Enter takes the GPU and the count too */
	key('\r');
	assert_string_equal(app.scn.hardware.gpu.id, app.sv.res[0].gpu);
	assert_int_equal(app.scn.hardware.count, app.sv.res[0].count);
	keys("u");
	assert_int_equal(app.scn.hardware.count, 8);
	/* :search sets both ways of ranking */
	command("search cost here");
	assert_int_equal(app.view, VIEW_SEARCH);
	assert_int_equal(app.sv.by, SEARCH_BY_COST);
	assert_false(app.sv.hardware);
	command("search fastest");
	assert_true(app.status_error);
}

static void test_keys_in_the_view(void **state)
{
	struct scenario before;
	(void)state;
	keys("s");
	before = app.scn;
	/* keys of the main view that would edit a hidden field do nothing */
	keys("+-hl");
	assert_int_equal(memcmp(&app.scn, &before, sizeof(before)), 0);
	assert_int_equal(app.view, VIEW_SEARCH);
	/* s again closes; Tab closes and moves on */
	keys("s");
	assert_int_equal(app.view, VIEW_NONE);
	keys("s");
	key('\t');
	assert_int_equal(app.view, VIEW_NONE);
	assert_int_equal(app.focus, PANE_WORKLOAD);
	/* help opens over the view and the view is still there after it */
	keys("s?");
	assert_int_equal(app.mode, MODE_HELP);
	key(KEY_ESC);
	assert_int_equal(app.mode, MODE_NORMAL);
	assert_int_equal(app.view, VIEW_SEARCH);
	keys("S");
	assert_int_equal(app.view, VIEW_SCALING);
}

static void test_rows_fit(void **state)
{
	char head[512], row[512];
	(void)state;
	keys("s");
	for (int hw = 0; hw < 2; hw++) {
		if (hw)
			keys("H");
		/* 80 columns: the view's inside is 78 */
		search_view_heading(&app, 78, head, sizeof(head));
		assert_true(text_width(head) <= 78);
		assert_non_null(strstr(head, " tp"));
		assert_non_null(strstr(head, " z"));
		assert_non_null(strstr(head, "mb"));
		assert_non_null(strstr(head, "rc"));
		/* over the catalog's GPUs, sp and off give way to the GPU id */
		assert_true((strstr(head, " sp") != NULL) == (hw == 0));
		assert_true((strstr(head, "off") != NULL) == (hw == 0));
		assert_non_null(strstr(head, "time"));
		assert_non_null(strstr(head, "cost"));
		assert_non_null(strstr(head, "mem"));
		/* the bottleneck gives way too, after sp and off */
		assert_true((strstr(head, "binds") != NULL) == (hw == 0));
		assert_true((strstr(head, "gpus") != NULL) == (hw == 1));
		/* the value the ranking compares, after the rank (tokens/s by time) */
		assert_int_equal(strncmp(head, "  #   tok/s ", 12), 0);
		for (int i = 0; i < app.sv.n; i++) {
			search_view_row(&app, &app.sv.res[i], i + 1, 78, row, sizeof(row));
			assert_true(text_width(row) <= 78);
			/* the columns line up with the heading: mem ends where it does */
			{
				size_t mx = (size_t)(strstr(head, "   mem") - head) + 6;
				assert_true(strlen(row) >= mx);
				assert_true(row[mx - 1] != ' ');
				assert_true(row[mx] == ' ' || row[mx] == '\0');
			}
			if (hw) {
				/* the GPU id whole: a100-80gb-sxm and a100-80gb-pcie stay apart */
				char id[64];
				snprintf(id, sizeof(id), "x%s ", app.sv.res[i].gpu);
				assert_non_null(strstr(row, id));
			}
		}
	}
	/* a wide terminal shows the step time too; 80 columns leave it out for the GPU */
	search_view_heading(&app, 200, head, sizeof(head));
	assert_non_null(strstr(head, "step"));
	search_view_heading(&app, 78, head, sizeof(head));
	assert_null(strstr(head, "step"));
	/* the row's figures: the first result */
	keys("H");
	search_view_row(&app, &app.sv.res[0], 1, 78, row, sizeof(row));
	{
		char tp[16];
		snprintf(tp, sizeof(tp), " %2d ", app.sv.res[0].parallel.tp);
		assert_int_equal(strncmp(row, "  1", 3), 0);
		assert_non_null(strstr(row, tp));
		assert_non_null(strchr(row, '$'));
		assert_non_null(strstr(row, "G ")); /* memory per GPU, in GiB ("63.4G") */
		/* a two-digit rank keeps a blank before it: "10" touched the border */
		search_view_row(&app, &app.sv.res[0], 10, 78, row, sizeof(row));
		assert_int_equal(strncmp(row, " 10", 3), 0);
	}
}

static void test_inference_rows(void **state)
{
	char head[512], row[512];
	(void)state;
	command("set workload.kind=online");
	keys("s");
	assert_true(app.sv.n > 0);
	search_view_heading(&app, 78, head, sizeof(head));
	assert_non_null(strstr(head, "repl"));
	assert_non_null(strstr(head, "wts"));
	assert_non_null(strstr(head, "kv"));
	assert_non_null(strstr(head, "tpot"));
	assert_non_null(strstr(head, "$/Mtok"));
	assert_null(strstr(head, " mb"));
	for (int i = 0; i < app.sv.n; i++) {
		search_view_row(&app, &app.sv.res[i], i + 1, 78, row, sizeof(row));
		assert_true(text_width(row) <= 78);
		assert_non_null(strstr(row, dtype_name(app.sv.res[i].weights)));
	}
	/* Enter takes the layout and the formats of the selected row */
	keys("j");
	{
		const struct search_result r = app.sv.res[1];
		key('\r');
		assert_int_equal(app.view, VIEW_NONE);
		assert_int_equal(app.scn.parallel.tp, r.parallel.tp);
		assert_int_equal(app.scn.parallel.pp, r.parallel.pp);
		assert_int_equal(app.scn.workload.weights, r.weights);
		assert_int_equal(app.scn.workload.kv_cache, r.kv_cache);
		assert_true(fabs(app.plan.tpot_s - r.plan.tpot_s) <= 1e-9 * r.plan.tpot_s);
	}
}

/* The score's cell of row (six columns, right-aligned to the heading word label), blanks
 * trimmed. */
static void cell_under(const char *head, const char *row, const char *label, char *out, size_t size)
{
	const char *at = strstr(head, label);
	size_t end, start;
	assert_non_null(at);
	end = (size_t)(at - head) + strlen(label);
	assert_true(end >= 6 && strlen(row) >= end);
	start = end - 6;
	assert_true(row[start - 1] == ' ' || row[start - 1] == '!');
	while (start < end && row[start] == ' ')
		start++;
	snprintf(out, size, "%.*s", (int)(end - start), row + start);
}

/* How often label occurs in s. */
static int count_of(const char *s, const char *label)
{
	int n = 0;
	for (const char *at = strstr(s, label); at; at = strstr(at + 1, label))
		n++;
	return n;
}

/* The value search ranks by is a column right after the rank, under a heading that names
 * its unit, and the title and status say it: tokens/s or $/M tokens, and under an online
 * load the GPUs the load needs or their $/h (search.c's score_of). It was not shown. */
static void test_rank_value_shown(void **state)
{
	static const struct {
		const char *set, *by, *label, *status;
	} cases[] = {
	    {NULL, "t", "tok/s", "ranked by time (tokens/s)"},
	    {NULL, "c", "$/Mtok", "ranked by cost ($/M tokens)"},
	    {"set workload.kind=online", "t", "tok/s", "ranked by time (tokens/s)"},
	    {"set workload.kind=online", "c", "$/Mtok", "ranked by cost ($/M tokens)"},
	    {"set workload.kind=online workload.requests_per_day=5000000", "t", "fleet",
	     "ranked by GPUs the load needs"},
	    {"set workload.kind=online workload.requests_per_day=5000000", "c", "$/h",
	     "ranked by cost of the load's GPUs ($/h)"},
	};
	char head[512], row[512], cell[64], want[64];
	(void)state;
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		bool infer = cases[k].set != NULL, load = k >= 4;
		setup(NULL);
		if (cases[k].set)
			command(cases[k].set);
		assert_false(app.status_error);
		assert_true(search_sized_by_load(&app.scn) == load);
		keys("s");
		keys(cases[k].by);
		assert_string_equal(app.status, cases[k].status);
		assert_true(app.sv.n > 1);
		for (int width = 62; width <= 200; width += 138 - 62)
			for (int hw = 0; hw < 2; hw++) {
				if (hw != app.sv.hardware)
					keys("H");
				/* 64 columns over the catalog's GPUs: inference's layout has no
				 * column left to give way (its GPU id is cut to 8 instead) */
				if (width < 78 && hw && infer)
					continue;
				search_view_heading(&app, width, head, sizeof(head));
				assert_true(text_width(head) <= width);
				/* right after the rank, at every width */
				{
					char lead[32];
					snprintf(lead, sizeof(lead), "  # %7s ", cases[k].label);
					assert_int_equal(strncmp(head, lead, strlen(lead)), 0);
				}
				/* once: inference's tok/s or $/Mtok column is that column */
				if (!load)
					assert_int_equal(count_of(head, cases[k].label), 1);
				for (int i = 0; i < app.sv.n; i++) {
					const struct search_result *r = &app.sv.res[i];
					const struct plan *p = &r->plan;
					search_view_row(&app, r, i + 1, width, row, sizeof(row));
					assert_true(text_width(row) <= width);
					cell_under(head, row, cases[k].label, cell, sizeof(cell));
					/* the figure the plan reports, which the score ranks */
					if (load && !isfinite(p->gpus_required))
						snprintf(want, sizeof(want), "none");
					else if (load && k == 4)
						units_format_compact(UNIT_COUNT, p->gpus_required,
								     want, sizeof(want));
					else if (load)
						units_format_compact(
						    UNIT_USD,
						    p->gpus_required *
							catalog_find_gpu(&cat, r->gpu)
							    ->price_per_hour,
						    want, sizeof(want));
					else if (k % 2 == 0)
						units_format_compact(UNIT_COUNT, p->tokens_per_s,
								     want, sizeof(want));
					else
						units_format_compact(UNIT_USD,
								     p->usd_per_million_tokens,
								     want, sizeof(want));
					assert_string_equal(cell, want);
					/* best first: the shown value never gets better down the
					 * list among rows that meet the target alike */
					if (i && r->meets_target == app.sv.res[i - 1].meets_target)
						assert_true(r->score >= app.sv.res[i - 1].score);
				}
			}
	}
}

static void test_goal_seek(void **state)
{
	const struct field *f = scenario_field_find("workload.seq_len");
	int before, nundo;
	struct scenario t;
	struct plan p;
	char want[96];
	(void)state;
	select_field("workload.seq_len");
	before = app.scn.workload.seq_len;
	nundo = app.nundo;
	assert_true(app.plan.mem.fits);
	keys(">");
	assert_false(app.status_error);
	assert_true(app.scn.workload.seq_len > before);
	snprintf(want, sizeof(want), "largest workload.seq_len that fits: %d",
		 app.scn.workload.seq_len);
	assert_non_null(strstr(app.status, want));
	assert_int_equal(app.nundo, nundo + 1);
	assert_true(app.plan.mem.fits);
	/* the largest: one more does not fit */
	if (app.scn.workload.seq_len < f->max) {
		t = app.scn;
		t.workload.seq_len++;
		plan_compute(&t, &p);
		assert_false(p.mem.fits);
	}
	keys("u");
	assert_int_equal(app.scn.workload.seq_len, before);
	/* the fewest GPUs that hold it, by command */
	command("solve min hardware.count");
	assert_false(app.status_error);
	assert_true(app.scn.hardware.count <= 8);
	assert_true(app.plan.mem.fits);
	assert_non_null(strstr(app.status, "smallest hardware.count that fits"));
	/* failures go to the status line and change nothing */
	t = app.scn;
	command("solve max model.preset");
	assert_true(app.status_error);
	assert_int_equal(memcmp(&t, &app.scn, sizeof(t)), 0);
	command("solve max workload.sequence");
	assert_true(app.status_error);
	command("solve most workload.seq_len");
	assert_true(app.status_error);
	app.focus = PANE_RESULTS;
	keys(">");
	assert_true(app.status_error);
	assert_non_null(strstr(app.status, "select a numeric field"));
}

static void test_scaling(void **state)
{
	char head[256], row[256];
	(void)state;
	keys("S");
	assert_int_equal(app.view, VIEW_SCALING);
	assert_int_equal(app.sv.runs, 1);
	assert_int_equal(app.sv.ncounts, 8);
	assert_int_equal(app.sv.counts[0], 8);
	assert_int_equal(app.sv.counts[7], 1024);
	scaling_view_heading(&app, head, sizeof(head));
	assert_non_null(strstr(head, "gpus"));
	assert_non_null(strstr(head, "eff"));
	for (int i = 0; i < app.sv.ncounts; i++) {
		double eff = scaling_efficiency(&app, i);
		scaling_view_row(&app, i, row, sizeof(row));
		/* room for a bar of at least 16 cells beside it at 80 columns */
		assert_true(text_width(row) <= 78 - 17);
		if (!app.sv.scaling[i].count) {
			assert_non_null(strstr(row, "nothing fits"));
			continue;
		}
		assert_int_equal(app.sv.scaling[i].count, app.sv.counts[i]);
		assert_true(eff > 0 && eff < 1.5);
		/* more GPUs, less time */
		if (i && app.sv.scaling[i - 1].count)
			assert_true(app.sv.scaling[i].plan.total_s <
				    app.sv.scaling[i - 1].plan.total_s);
	}
	assert_true(app.sv.scaling[0].count == 8);
	assert_true(fabs(scaling_efficiency(&app, 0) - 1) < 1e-12);
	/* follows edits while open */
	command("set workload.seq_len=4096");
	assert_int_equal(app.sv.runs, 2);
	key(KEY_ESC);
	assert_int_equal(app.view, VIEW_NONE);
	command("scaling");
	assert_int_equal(app.view, VIEW_SCALING);
}

/* Where each blank-separated word of s ends; returns how many. */
static int word_ends(const char *s, int *ends, int max)
{
	int n = 0;
	for (int i = 0; s[i] && n < max; i++)
		if (s[i] != ' ' && (s[i + 1] == ' ' || s[i + 1] == '\0'))
			ends[n++] = i;
	return n;
}

/* The scaling table's figures end under their headings, for training and for inference
 * (inference's were one column right of theirs) */
static void test_scaling_columns_line_up(void **state)
{
	char head[256], row[256];
	int he[16], re[16], nh, nr;
	(void)state;
	for (int kind = 0; kind < 2; kind++) {
		if (kind)
			command("set workload.kind=online");
		keys("S");
		assert_int_equal(app.view, VIEW_SCALING);
		app_compute(&app);
		scaling_view_heading(&app, head, sizeof(head));
		/* training says where state is offloaded (a layout may fit only by it) */
		assert_true((strstr(head, " off ") != NULL) == (kind == 0));
		/* inference says which weight and KV formats each count's best layout uses */
		assert_true((strstr(head, " wts ") != NULL) == (kind == 1));
		assert_true((strstr(head, " kv ") != NULL) == (kind == 1));
		nh = word_ends(head, he, 16);
		for (int i = 0; i < app.sv.ncounts; i++) {
			if (!app.sv.scaling[i].count)
				continue;
			scaling_view_row(&app, i, row, sizeof(row));
			nr = word_ends(row, re, 16);
			assert_int_equal(nr, nh);
			for (int j = 0; j < nh; j++)
				assert_int_equal(re[j], he[j]);
		}
		key(KEY_ESC);
	}
}

/* The search view's figures end under their headings: the rank under "#" (it was over the
 * target mark), tp, pp, dp and the rest as they were */
static void test_search_columns_line_up(void **state)
{
	static const char *const right[] = {"#", "tp", "pp", "dp", "z", "mb", "time", "cost", NULL};
	char head[512], row[512];
	(void)state;
	keys("s");
	app_compute(&app);
	assert_true(app.sv.n > 0);
	search_view_heading(&app, 78, head, sizeof(head));
	search_view_row(&app, &app.sv.res[0], 1, 78, row, sizeof(row));
	for (int i = 0; right[i]; i++) {
		char w[16];
		const char *at;
		size_t end;
		snprintf(w, sizeof(w), " %s ", right[i]);
		at = strstr(head, w);
		assert_non_null(at);
		end = (size_t)(at - head) + strlen(right[i]); /* the heading's last character */
		assert_true(row[end] != ' ');
		assert_true(row[end + 1] == ' ');
	}
}

static void test_solve_completes_numeric_keys(void **state)
{
	(void)state;
	line_edit_set(&app.line, "solve max workload.seq_l");
	app_complete(&app);
	assert_string_equal(app.line.buf, "solve max workload.seq_len");
	/* only numbers: workload.kind is a choice, not offered */
	line_edit_set(&app.line, "solve min workload.k");
	app_complete(&app);
	assert_true(app.status_error);
	assert_string_equal(app.line.buf, "solve min workload.k");
	/* :set still completes to KEY= */
	line_edit_set(&app.line, "set workload.seq_l");
	app_complete(&app);
	assert_string_equal(app.line.buf, "set workload.seq_len=");
}

static void test_help_and_commands(void **state)
{
	bool search = false, solve = false, scaling = false;
	(void)state;
	for (int i = 0; i < help_lines(); i++) {
		search |= strstr(help_line(i), ":search") != NULL;
		solve |= strstr(help_line(i), ":solve") != NULL;
		scaling |= strstr(help_line(i), ":scaling") != NULL;
		assert_true(text_width(help_line(i)) <= 76);
	}
	assert_true(search && solve && scaling);
	assert_int_equal(keys_action('s'), ACT_SEARCH);
	assert_int_equal(keys_action('S'), ACT_SCALING);
	assert_int_equal(keys_action('>'), ACT_SOLVE_MAX);
	assert_int_equal(keys_action('<'), ACT_SOLVE_MIN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup(test_open_lists_best_first, setup),
	    cmocka_unit_test_setup(test_follows_edits_only_while_open, setup),
	    cmocka_unit_test_setup(test_apply_and_undo, setup),
	    cmocka_unit_test_setup(test_apply_typed_ahead, setup),
	    cmocka_unit_test_setup(test_rank_by_cost_and_hardware, setup),
	    cmocka_unit_test_setup(test_keys_in_the_view, setup),
	    cmocka_unit_test_setup(test_rows_fit, setup),
	    cmocka_unit_test_setup(test_inference_rows, setup),
	    cmocka_unit_test_setup(test_rank_value_shown, setup),
	    cmocka_unit_test_setup(test_goal_seek, setup),
	    cmocka_unit_test_setup(test_scaling, setup),
	    cmocka_unit_test_setup(test_scaling_columns_line_up, setup),
	    cmocka_unit_test_setup(test_search_columns_line_up, setup),
	    cmocka_unit_test_setup(test_solve_completes_numeric_keys, setup),
	    cmocka_unit_test_setup(test_help_and_commands, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
