/* test_figure.c - the figure table (src/figure.c): every row is complete and its key
 * unique; the JSON report writes every row at its key, in the table's order; each row's
 * explanation says something for the shipped scenarios; the lists' places are unambiguous;
 * the bottleneck rows agree with bottleneck_name(); the details follow their parents. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <string.h>

#include <cJSON.h>

#include "explain.h"
#include "figure.h"
#include "plan.h"
#include "report_json.h"
#include "scenario_yaml.h"
#include "shipped_catalog.h"

/* A training, an online and an offline scenario of the shipped set. */
static const char *const shipped[] = {
    "scenarios/default.yaml",
    "scenarios/seed-08-online-customer-service.yaml",
    "scenarios/seed-07-offline-measured-throughput.yaml",
    "scenarios/team-lora-70b-8xa100.yaml",
};
#define NSHIPPED (sizeof(shipped) / sizeof(shipped[0]))

static void load(const char *path, struct scenario *s, struct plan *p)
{
	struct gp_error err;

	if (scenario_load_file(path, cat, s, NULL, NULL, &err) != 0)
		fail_msg("%s: %s", path, err.message);
	plan_compute(s, p);
}

static void test_rows_complete(void **state)
{
	int n = 0, parts = 0, words = 0;

	(void)state;
	for (const struct figure *f = figures; f->key; f++, n++) {
		assert_non_null(f->label);
		assert_true(f->label[0] != '\0');
		assert_true((int)f->unit >= UNIT_NONE && (int)f->unit <= UNIT_USD);
		assert_non_null(f->explain);
		assert_ptr_equal(figure_find(f->key), f); /* unique */
		assert_true(f->better >= -1 && f->better <= 1);
		if (f->short_label)
			assert_true(strlen(f->short_label) <= 12);
		if (figure_is_number(f)) {
			assert_null(f->get);
			assert_true(f->offset + sizeof(double) <= sizeof(struct plan));
		} else {
			assert_non_null(f->get);
			words++;
		}
		/* the pane lists only what it can label and write */
		if (f->pane) {
			assert_non_null(f->short_label);
			assert_true(f->format != FIGURE_FMT_NONE);
			assert_true(f->applies != 0);
		}
		if (f->flags & FIGURE_PART) {
			assert_non_null(f->short_label);
			assert_non_null(f->tiny_label);
			assert_ptr_equal(figure_memory_part(parts), f);
			parts++;
		}
	}
	assert_null(figure_find("memory.per_gpu"));
	/* memory.fits, bottleneck.binding, serving.overloaded, serving.policy */
	assert_int_equal(words, 4);
	assert_int_equal(parts, 6); /* the results pane's MEM_PARTS (ui/theme.h) */
	assert_null(figure_memory_part(parts));
	/* explain knows every key: the numbers, then the words */
	{
		const char *const *keys = explain_keys();
		int k = 0;
		for (; keys[k]; k++)
			assert_non_null(figure_find(keys[k]));
		assert_int_equal(k, n);
		assert_string_equal(keys[n - 1], "bottleneck.binding");
	}
}

/* The JSON report's leaves in document order that are table keys. */
static void json_walk(const cJSON *o, char *path, size_t len, const struct figure **seen,
		      int *nseen)
{
	for (const cJSON *c = o->child; c; c = c->next) {
		size_t n = len;
		const struct figure *f;
		if (!c->string)
			continue;
		n += (size_t)snprintf(path + len, 256 - len, "%s%s", len ? "." : "", c->string);
		if (cJSON_IsObject(c)) {
			json_walk(c, path, n, seen, nseen);
		} else if ((f = figure_find(path)) != NULL) {
			if (f->flags & FIGURE_BOOL)
				assert_true(cJSON_IsBool(c));
			else if (f->word)
				assert_true(cJSON_IsString(c));
			else
				assert_true(cJSON_IsNumber(c) || cJSON_IsNull(c));
			seen[(*nseen)++] = f;
		}
		path[len] = '\0';
	}
}

static void test_json_follows_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < NSHIPPED; i++) {
		struct scenario s;
		struct plan p;
		const struct figure *seen[128];
		char path[256] = "";
		int nseen = 0, n = 0;
		cJSON *json;

		load(shipped[i], &s, &p);
		json = report_json_build(&s, &p);
		assert_non_null(json);
		json_walk(json, path, 0, seen, &nseen);
		/* every row once, in the table's order */
		for (const struct figure *f = figures; f->key; f++, n++) {
			assert_true(n < nseen);
			assert_string_equal(seen[n]->key, f->key);
		}
		assert_int_equal(nseen, n);
		report_json_free(json);
	}
}

static void test_explain_every_row(void **state)
{
	(void)state;
	for (size_t i = 0; i < NSHIPPED; i++) {
		struct scenario s;
		struct plan p;

		load(shipped[i], &s, &p);
		for (const struct figure *f = figures; f->key; f++) {
			char buf[8192], head[96];
			struct gp_error err;
			double v = figure_value(f, &p);

			assert_int_equal(explain_key(&s, &p, f->key, buf, sizeof(buf), &err), 0);
			snprintf(head, sizeof(head), "%s = ", f->key);
			assert_true(strncmp(buf, head, strlen(head)) == 0);
			/* more than the headline */
			assert_non_null(strstr(buf, "\n\n  "));
			/* a figure that applies is derived, with its source */
			if (isfinite(v) && v != 0 && f->section != FIGURE_BOTTLENECK &&
			    strstr(buf, "not applicable") == NULL)
				assert_non_null(strstr(buf, "source: "));
		}
	}
}

/* A detail (FIGURE_DETAIL) has a parent that is no detail and is in no list; the time parts
 * are struct plan_time_parts in plan_part_get's order, with the pane's labels; explain
 * gives a detail's value, then its parent's explanation. */
static void test_details(void **state)
{
	struct scenario s;
	struct plan p;
	int n = 0, details = 0;
	char buf[8192];
	struct gp_error err;

	(void)state;
	for (const struct figure *f = figures; f->key; f++, n++) {
		const struct figure *up = figure_parent(f);
		if (!(f->flags & FIGURE_DETAIL)) {
			assert_null(up);
			assert_false(f->flags & FIGURE_TIME_PART);
			continue;
		}
		details++;
		assert_non_null(up);
		assert_false(up->flags & FIGURE_DETAIL);
		assert_true(up < f); /* a detail follows its parent, as in the JSON report */
		assert_true(figure_is_number(f));
		assert_int_equal(f->pane + f->text.train + f->text.infer, 0);
	}
	assert_true(n <= FIGURE_MAX);
	assert_true(details >= PLAN_PARTS);

	load("scenarios/default.yaml", &s, &p);
	for (unsigned i = 0; i < PLAN_PARTS; i++)
		*plan_part(&p.parts, i) = 1.0 + i;
	for (unsigned i = 0; i < PLAN_PARTS; i++) {
		const struct figure *f = figure_time_part((int)i);
		assert_non_null(f);
		assert_true(f->flags & FIGURE_TIME_PART);
		assert_true(strncmp(f->key, "time.parts.", 11) == 0);
		assert_true(figure_value(f, &p) == plan_part_get(&p.parts, i));
		assert_non_null(f->short_label);
		assert_ptr_equal(figure_parent(f), figure_find("time.step_s"));
	}
	assert_null(figure_time_part(PLAN_PARTS));

	plan_compute(&s, &p);
	assert_int_equal(explain_key(&s, &p, "time.parts.matmul_s", buf, sizeof(buf), &err), 0);
	assert_true(strncmp(buf, "time.parts.matmul_s = ", 22) == 0);
	assert_non_null(strstr(buf, "matmul_s = matmuls (a detail of time.step_s)"));
	assert_non_null(strstr(buf, "\ntime.step_s = "));
	assert_non_null(strstr(buf, "  step = "));
}

static void test_places_unambiguous(void **state)
{
	static const enum figure_list lists[] = {FIGURE_LIST_TEXT, FIGURE_LIST_PANE,
						 FIGURE_LIST_CSV};

	(void)state;
	for (size_t l = 0; l < sizeof(lists) / sizeof(lists[0]); l++) {
		for (int kind = 0; kind < WL_COUNT; kind++) {
			const struct figure *out[64];
			int n = figure_list(lists[l], (enum workload_kind)kind, -1, out, 64);
			/* no two rows share a place: the order would be the table's by chance */
			for (int i = 0; i < n; i++)
				for (int j = i + 1; j < n; j++)
					if (lists[l] == FIGURE_LIST_PANE)
						assert_true(out[i]->pane != out[j]->pane);
					else if (lists[l] == FIGURE_LIST_CSV)
						assert_true(out[i]->csv != out[j]->csv);
					else
						assert_true(
						    kind <= WL_FINETUNE
							? out[i]->text.train != out[j]->text.train
							: out[i]->text.infer != out[j]->text.infer);
			assert_true(n > 3);
		}
	}
}

/* The text report's two-column sections pad a label to 22 columns (report.c): a longer one
 * pushes its row's second column out of line ("wait before the first pass" did). */
static void test_text_labels_fit(void **state)
{
	(void)state;
	for (int kind = 0; kind < WL_COUNT; kind++) {
		const struct figure *out[64];
		int n = figure_list(FIGURE_LIST_TEXT, (enum workload_kind)kind, -1, out, 64);
		for (int i = 0; i < n; i++) {
			if (strlen(out[i]->label) > 22 ||
			    (out[i]->capped_label && strlen(out[i]->capped_label) > 22))
				fail_msg("%s: label '%s' is wider than the report's 22 columns",
					 out[i]->key, out[i]->label);
		}
	}
}

static void test_bottleneck_names(void **state)
{
	(void)state;
	for (int b = 0; b < BN_COUNT; b++) {
		const struct figure *f = figure_bottleneck((enum bottleneck)b);
		assert_non_null(f);
		assert_int_equal(figure_bottleneck_of(f), b);
		/* the key's last part is the name the JSON report and diff write */
		assert_string_equal(strrchr(f->key, '.') + 1, bottleneck_name((enum bottleneck)b));
		/* written once: the name is the row's own key, not a second copy of it */
		assert_ptr_equal(strrchr(f->key, '.') + 1, bottleneck_name((enum bottleneck)b));
		assert_non_null(figure_bottleneck_short((enum bottleneck)b));
		assert_non_null(figure_bottleneck_tiny((enum bottleneck)b));
	}
	assert_null(figure_bottleneck(BN_COUNT));
	assert_string_equal(bottleneck_name(BN_COUNT), "?");
	assert_string_equal(figure_bottleneck_short(BN_COUNT), "?");
	assert_string_equal(figure_bottleneck(BN_HBM)->label, "HBM bandwidth");
	assert_int_equal(figure_bottleneck_of(figure_find("memory.per_gpu.total")), BN_COUNT);
}

/* serving.policy names the scheduler serving.scheduler numbers, by the names
 * workload.scheduler takes, in enum scheduler's order; "alone" where no load is modelled
 * (issue 13: the reports name the policy they assume). */
static void test_policy_names(void **state)
{
	const struct field *fd = scenario_field_find("workload.scheduler");
	const struct figure *f = figure_find("serving.policy");
	struct scenario s;
	struct plan p;
	int n = 0;

	(void)state;
	assert_non_null(fd);
	assert_non_null(f);
	for (; fd->names[n]; n++)
		assert_string_equal(fd->names[n], scheduler_name(n));
	assert_int_equal(n, SCHED_COUNT);
	assert_string_equal(scheduler_name(SCHED_COUNT), "?");
	assert_string_equal(scheduler_policy(-1), "?");
	load("scenarios/team-serve-70b-5m-requests.yaml", &s, &p);
	assert_string_equal(f->word(&p), "chunked");
	assert_int_equal((int)figure_value(f, &p), SCHED_CHUNKED);
	load("scenarios/default.yaml", &s, &p);
	assert_string_equal(f->word(&p), "alone");
	assert_true(isnan(figure_value(f, &p)));
}

/* capacity_plan.max_batch is the KV pool's bound (839 for team-serve at tp 4); where the
 * engine's running cap (max_running 256, vLLM's max_num_seqs) is below it the reports and
 * the pane say the batch is the cap, and the value stays the pool's; where the cap is above
 * the pool the label is the plain one. */
static void test_max_batch_under_cap(void **state)
{
	const struct figure *f = figure_find("capacity_plan.max_batch");
	struct scenario s;
	struct plan p;
	char t[96];

	(void)state;
	assert_non_null(f);
	load("scenarios/team-serve-70b-5m-requests.yaml", &s, &p);
	assert_true(p.serving.max_running < p.max_batch);
	assert_int_equal((int)figure_value(f, &p), (int)p.max_batch);
	assert_string_equal(figure_label(f, &p), "KV pool holds");
	snprintf(t, sizeof(t), "%.0f sequences (engine runs at most %.0f)", p.max_batch,
		 p.serving.max_running);
	assert_string_equal(figure_format_plan(f, &p, t + 48, 48) ? t + 48 : "", t);
	snprintf(t, sizeof(t), "%.0f (KV %.0f)", p.serving.max_running, p.max_batch);
	{
		char sh[48];
		assert_string_equal(figure_format_short(f, &p, sh, sizeof(sh)), t);
	}
	/* a cap above the pool (and a token budget that does not bound the batch, which
	 * plan_serve.c also caps at): the pool is the batch */
	s.workload.max_running = 4096;
	s.workload.max_batched_tokens = 1 << 20;
	plan_compute(&s, &p);
	assert_false(p.serving.max_running < p.max_batch);
	assert_string_equal(figure_label(f, &p), "max batch");
	assert_string_equal(figure_format_plan(f, &p, t, sizeof(t)),
			    figure_format(f, p.max_batch, t + 48, 48));
	/* other rows keep their label */
	assert_string_equal(figure_label(figure_find("latency.tpot_s"), &p),
			    "time per output token");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_rows_complete),     cmocka_unit_test(test_json_follows_table),
	    cmocka_unit_test(test_explain_every_row), cmocka_unit_test(test_places_unambiguous),
	    cmocka_unit_test(test_bottleneck_names),  cmocka_unit_test(test_policy_names),
	    cmocka_unit_test(test_details),	      cmocka_unit_test(test_max_batch_under_cap),
	    cmocka_unit_test(test_text_labels_fit),
	};
	return cmocka_run_group_tests(tests, shipped_catalog_setup, shipped_catalog_teardown);
}
