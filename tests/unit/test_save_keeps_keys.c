/* test_save_keeps_keys.c - a save writes every field the file had, plus the edits (issue 15,
 * "Saving keeps what the author wrote"). Changing one field of
 * scenarios/team-lora-70b-8xa100.yaml and saving removed 9 untouched lines, among them
 * price_per_gpu_hour: 1.39, because the writer left out every value equal to a preset's.
 *
 * Every shipped scenario is loaded, one field is edited, and the saved text is compared with
 * the file as lines (comments, which libyaml does not keep, and the quotes around a string,
 * which the emitter chooses, left aside; the order is the field table's): the only lines
 * removed or added are the edited field's.
 *
 * A save also keeps the file's comments where it can (scenario_format_yaml_kept): an edit
 * of every shipped scenario changes exactly the edited value's bytes; an edit it cannot
 * make in place (a field the file lacks, a list, a text that would not read back) falls
 * back to the canonical form.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shipped_catalog.h"
#include "shipped_scenarios.h"
#include "scenario.h"
#include "scenario_yaml.h"

#define MAX_LINES 400

struct lines {
	char text[MAX_LINES][320];
	bool used[MAX_LINES];
	int n;
};

/* The lines of a file that hold data: no comment lines, no blank lines, quotes dropped. */
static void split_lines(const char *text, struct lines *l)
{
	const char *p = text;
	l->n = 0;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		size_t k = 0, i = 0;
		char buf[320];
		while (i < len && p[i] == ' ')
			i++;
		if (i < len && p[i] != '#') {
			for (i = 0; i < len && k + 1 < sizeof(buf); i++)
				if (p[i] != '"' && p[i] != '\'')
					buf[k++] = p[i];
			buf[k] = '\0';
			assert_true(l->n < MAX_LINES);
			snprintf(l->text[l->n], sizeof(l->text[0]), "%s", buf);
			l->used[l->n++] = false;
		}
		p = nl ? nl + 1 : p + len;
	}
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = malloc(1 << 20);
	size_t n;
	assert_non_null(f);
	assert_non_null(buf);
	n = fread(buf, 1, (1 << 20) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* Lines of a that b lacks, matched one for one; written into out, counted. */
static int missing(struct lines *a, struct lines *b, char out[][320], int max)
{
	int n = 0;
	for (int i = 0; i < b->n; i++)
		b->used[i] = false;
	for (int i = 0; i < a->n; i++) {
		int j;
		for (j = 0; j < b->n; j++)
			if (!b->used[j] && strcmp(a->text[i], b->text[j]) == 0)
				break;
		if (j < b->n) {
			b->used[j] = true;
		} else {
			if (n < max)
				snprintf(out[n], sizeof(out[0]), "%s", a->text[i]);
			n++;
		}
	}
	return n;
}

static int checked;

/* The edit: `leaf: value` of key, set through the field table as --set and the UI's :set. */
static void check_edit(const char *path, const char *key, const char *value)
{
	static struct scenario s;
	static struct lines before, after;
	char removed[4][320], added[4][320], assignment[128], line[160];
	const char *leaf = strrchr(key, '.') ? strrchr(key, '.') + 1 : key;
	struct gp_error err;
	char *orig = slurp(path), *text = NULL;
	size_t len;
	int nr, na;

	assert_int_equal(scenario_load_file(path, cat, &s, NULL, NULL, &err), 0);
	snprintf(assignment, sizeof(assignment), "%s=%s", key, value);
	if (scenario_set_assignment(&s, cat, assignment, &err) != 0)
		fail_msg("%s --set %s: %s", path, assignment, err.message);
	assert_int_equal(scenario_format_yaml(&s, cat, &text, &len, &err), 0);
	split_lines(orig, &before);
	split_lines(text, &after);
	nr = missing(&before, &after, removed, 4);
	na = missing(&after, &before, added, 4);
	snprintf(line, sizeof(line), "%s: %s", leaf, value);
	/* at most the edited line goes, and exactly it comes */
	if (nr > 1 || (nr == 1 && !strstr(removed[0], leaf)))
		fail_msg("%s, %s: the save dropped '%s'%s\n%s", path, assignment, removed[0],
			 nr > 1 ? " and more" : "", text);
	if (na != 1 || !strstr(added[0], line))
		fail_msg("%s, %s: %d lines added ('%s')\n%s", path, assignment, na,
			 na ? added[0] : "", text);
	free(orig);
	free(text);
	checked++;
}

static void check_file(const char *path)
{
	check_edit(path, "hardware.count", "12345");
	check_edit(path, "hardware.pue", "1.37");
}

static void test_shipped_edit_and_save(void **state)
{
	(void)state;
	checked = 0;
	each_shipped_scenario(check_file);
	assert_true(checked >= 80);
}

/* The reproducer: lines equal to a preset's value stay. */
static void test_team_lora_price(void **state)
{
	static struct scenario s;
	struct gp_error err;
	char *text = NULL;
	size_t len;
	(void)state;
	assert_int_equal(
	    scenario_load_file("scenarios/team-lora-70b-8xa100.yaml", cat, &s, NULL, NULL, &err),
	    0);
	assert_int_equal(scenario_set_assignment(&s, cat, "workload.seq_len=8192", &err), 0);
	assert_int_equal(scenario_format_yaml(&s, cat, &text, &len, &err), 0);
	assert_non_null(strstr(text, "price_per_gpu_hour: 1.39"));
	assert_non_null(strstr(text, "precision: bf16"));
	assert_non_null(strstr(text, "rank: 16"));
	assert_non_null(strstr(text, "seq_len: 8192"));
	free(text);
}

/* What a file did not give stays out: the built-in scenario saves as before. */
static void test_unwritten_fields_stay_out(void **state)
{
	static struct scenario s, t;
	struct gp_error err;
	char *a = NULL, *b = NULL;
	size_t la, lb;
	(void)state;
	assert_int_equal(scenario_init_builtin(&s, cat, &err), 0);
	assert_int_equal(scenario_format_yaml(&s, cat, &a, &la, &err), 0);
	assert_null(strstr(a, "price_per_gpu_hour"));
	/* a saved file read again saves the same bytes */
	assert_int_equal(scenario_parse(a, la, "x.yaml", cat, &t, NULL, NULL, &err), 0);
	assert_int_equal(scenario_format_yaml(&t, cat, &b, &lb, &err), 0);
	assert_string_equal(a, b);
	free(a);
	free(b);
}

/* ---- comments kept (issue 15, "keeps comments where it can") ---- */

/* The lines of a and b that differ, as a count, with the first of each kept. */
static int differing_lines(const char *a, const char *b, char *la, char *lb, size_t size)
{
	int n = 0;
	while (*a || *b) {
		size_t na = strcspn(a, "\n"), nb = strcspn(b, "\n");
		if (na != nb || memcmp(a, b, na) != 0) {
			if (n++ == 0) {
				snprintf(la, size, "%.*s", (int)na, a);
				snprintf(lb, size, "%.*s", (int)nb, b);
			}
		}
		a += na + (a[na] == '\n');
		b += nb + (b[nb] == '\n');
	}
	return n;
}

static int spliced;

/* An edit of hardware.count (every shipped scenario gives it on one line) saves as the
 * file with only that value changed: each comment and blank line stays. */
static void check_splice(const char *path)
{
	static struct scenario s, back;
	struct gp_error err;
	char *orig = slurp(path), *text = NULL, la[320], lb[320];
	size_t len;
	bool kept;
	int n;

	assert_int_equal(scenario_load_file(path, cat, &s, NULL, NULL, &err), 0);
	if (scenario_set_assignment(&s, cat, "hardware.count=4096", &err) != 0)
		fail_msg("%s: %s", path, err.message);
	assert_int_equal(scenario_format_yaml_kept(&s, cat, &text, &len, &kept, &err), 0);
	if (!kept)
		fail_msg("%s: the save of one edit fell back to the canonical form", path);
	n = differing_lines(orig, text, la, lb, sizeof(la));
	if (n != 1 || !strstr(lb, "count: 4096") || !strstr(la, "count:"))
		fail_msg("%s: %d lines differ, first '%s' -> '%s'", path, n, la, lb);
	/* the byte counts differ by the value only */
	assert_int_equal(strlen(orig) + strlen(lb), strlen(text) + strlen(la));
	assert_int_equal(scenario_parse(text, len, path, cat, &back, NULL, NULL, &err), 0);
	assert_int_equal(back.hardware.count, 4096);
	free(orig);
	free(text);
	spliced++;
}

static void test_shipped_keep_comments(void **state)
{
	(void)state;
	spliced = 0;
	each_shipped_scenario(check_splice);
	assert_true(spliced >= 40);
}

static const char commented[] = "# a team's plan\n"
				"gpuplan: 1\n"
				"model:\n"
				"  preset: llama-3-8b   # the small one\n"
				"\n"
				"workload:\n"
				"  kind: online\n"
				"  seq_len: 4096  # the context we serve\n"
				"hardware:\n"
				"  gpu: h100-sxm-80gb\n"
				"  count: 8\n";

/* scenario_splice_yaml of text after the edit assignment (*out NULL when it cannot). */
static int splice_after(const char *text, const char *assignment, char **out, size_t *len)
{
	static struct scenario s;
	struct gp_error err;
	*out = NULL;
	if (scenario_parse(text, strlen(text), "c.yaml", cat, &s, NULL, NULL, &err) != 0)
		fail_msg("%s", err.message);
	if (scenario_set_assignment(&s, cat, assignment, &err) != 0)
		fail_msg("%s: %s", assignment, err.message);
	return scenario_splice_yaml(&s, cat, text, strlen(text), out, len);
}

/* A value followed by a comment keeps the comment. */
static void test_trailing_comment_kept(void **state)
{
	char *text;
	size_t len;
	(void)state;
	assert_int_equal(splice_after(commented, "workload.seq_len=8192", &text, &len), 0);
	assert_non_null(strstr(text, "  seq_len: 8192  # the context we serve\n"));
	assert_non_null(strstr(text, "# a team's plan\n"));
	assert_non_null(strstr(text, "  preset: llama-3-8b   # the small one\n"));
	assert_int_equal(len, strlen(commented));
	free(text);
}

/* A field the file does not give, a list, or a text that would not read back cannot be
 * spliced: the save writes the canonical form. */
static void test_splice_falls_back(void **state)
{
	static const char lora[] = "gpuplan: 1\nmodel:\n  preset: llama-3-8b\nworkload:\n"
				   "  kind: finetune\n  finetune:\n    method: lora\n"
				   "    targets: [q, v]  # the paper's\nhardware:\n"
				   "  gpu: h100-sxm-80gb\n  count: 8\n";
	/* a plain scalar continued on the next line: the new value would take it on */
	static const char cont[] = "gpuplan: 1\nmodel:\n  preset: llama-3-8b\nworkload:\n"
				   "  kind: online\nhardware:\n  gpu: h100-sxm-80gb\n"
				   "  count: 8\nname: one\n  two\n";
	char *text;
	size_t len;
	(void)state;
	assert_int_equal(splice_after(commented, "hardware.pue=1.37", &text, &len), -1);
	assert_null(text);
	assert_int_equal(splice_after(lora, "workload.finetune.targets=q,k,v,o", &text, &len), -1);
	assert_null(text);
	assert_int_equal(splice_after(lora, "hardware.count=16", &text, &len), 0);
	/* a list left as it was does not stop an edit elsewhere */
	assert_string_equal(text, "gpuplan: 1\nmodel:\n  preset: llama-3-8b\nworkload:\n"
				  "  kind: finetune\n  finetune:\n    method: lora\n"
				  "    targets: [q, v]  # the paper's\nhardware:\n"
				  "  gpu: h100-sxm-80gb\n  count: 16\n");
	free(text);
	assert_int_equal(splice_after(cont, "name=three", &text, &len), -1);
	assert_null(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_shipped_edit_and_save),
	    cmocka_unit_test(test_team_lora_price),
	    cmocka_unit_test(test_unwritten_fields_stay_out),
	    cmocka_unit_test(test_shipped_keep_comments),
	    cmocka_unit_test(test_trailing_comment_kept),
	    cmocka_unit_test(test_splice_falls_back),
	};
	return cmocka_run_group_tests(tests, shipped_catalog_setup, shipped_catalog_teardown);
}
