/* test_ui_complete.c - tab completion on the : line (complete.c): candidates sorted, another Tab
 * cycles through them and Shift-Tab back, and the status line shows as many as fit with a count of
 * the rest (issue 15: cut, unsorted, no cycling). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "ui_app_fixture.h"

/* the candidates Tab found, in the order it offers them */
static int listed(char out[][64], int max)
{
	int n = 0;
	for (; n < app.comp.n && n < max; n++)
		snprintf(out[n], 64, "%s", app.comp.cand[n]);
	return n;
}

static void test_keys_sorted_and_cycled(void **state)
{
	char cands[COMPLETE_MAX][64];
	int n;
	(void)state;
	keys(":set work");
	keys("\t");
	assert_string_equal(app.line.buf, "set workload.");
	n = listed(cands, COMPLETE_MAX);
	assert_true(n > 5);
	assert_int_equal(n, app.comp.total);
	for (int i = 1; i < n; i++)
		assert_true(strcmp(cands[i - 1], cands[i]) < 0);
	/* the status line lists them in that order */
	assert_int_equal(strncmp(app.status, cands[0], strlen(cands[0])), 0);
	assert_true(strstr(app.status, cands[1]) < strstr(app.status, cands[2]));
	/* Tab again: the first, then the second; Shift-Tab back; round to the stem */
	keys("\t");
	assert_string_equal(app.line.buf + 4, cands[0]);
	keys("\t");
	assert_string_equal(app.line.buf + 4, cands[1]);
	assert_true(complete_cycle(&app, -1));
	assert_string_equal(app.line.buf + 4, cands[0]);
	assert_true(complete_cycle(&app, -1));
	assert_string_equal(app.line.buf, "set workload.");
	assert_true(complete_cycle(&app, -1));
	assert_string_equal(app.line.buf + 4, cands[n - 1]);
	/* Shift-Tab as a key steps back too (from the last to the one before) */
	app_handle_key(&app, KEYF(KEY_BTAB));
	assert_string_equal(app.line.buf + 4, cands[n - 2]);
	/* a key typed ends the cycle: Tab completes what is on the line */
	keys("=");
	assert_false(complete_cycle(&app, 1));
	app_handle_key(&app, KEY_ESC);
}

/* Tab after "set " with nothing typed: every field is a candidate, however many the
 * table holds (the candidates' array once held fewer than the table's rows). */
static void test_every_key_a_candidate(void **state)
{
	(void)state;
	keys(":set ");
	keys("\t");
	assert_int_equal(app.comp.total, scenario_field_count());
	app_handle_key(&app, KEY_ESC);
	app_handle_key(&app, KEY_ESC);
}

static void test_hint_fits_and_counts(void **state)
{
	char hint[400], cands[COMPLETE_MAX][64];
	int at, len, n, shown = 0;
	(void)state;
	keys(":set work\t");
	n = listed(cands, COMPLETE_MAX);
	assert_non_null(complete_hint(&app, 50, hint, sizeof(hint), &at, &len));
	assert_true(text_width(hint) <= 50);
	assert_int_equal(len, 0); /* the stem is on the line: none selected */
	/* the whole candidates before the count, in order */
	for (const char *p = hint; *p != '+';) {
		size_t l = strcspn(p, " ");
		assert_true(shown < n);
		assert_memory_equal(p, cands[shown], l);
		assert_int_equal(strlen(cands[shown]), l);
		shown++;
		p += l;
		while (*p == ' ')
			p++;
	}
	assert_true(shown < n);
	{
		char want[32];
		snprintf(want, sizeof(want), "+%d more", n - shown);
		assert_non_null(strstr(hint, want));
	}
	/* cycling to the last one pages the hint to it, marked */
	for (int i = 0; i < n; i++)
		keys("\t");
	assert_string_equal(app.line.buf + 4, cands[n - 1]);
	assert_non_null(complete_hint(&app, 50, hint, sizeof(hint), &at, &len));
	assert_int_equal(len, (int)strlen(cands[n - 1]));
	assert_memory_equal(hint + at, cands[n - 1], (size_t)len);
	assert_true(text_width(hint) <= 50);
	app_handle_key(&app, KEY_ESC);
}

static void test_files_sorted(void **state)
{
	char dir[] = "/tmp/gpuplan-test-complete-XXXXXX", f[300], want[300];
	const char *names[] = {"seed-15-verdicts.yaml", "seed-13a-lora.yaml", "seed-13b-lora.yaml"};
	(void)state;
	assert_non_null(mkdtemp(dir));
	for (int i = 0; i < 3; i++) {
		snprintf(f, sizeof(f), "%s/%s", dir, names[i]);
		fclose(fopen(f, "w"));
	}
	snprintf(f, sizeof(f), ":e %s/seed-1\t", dir);
	keys(f);
	assert_string_equal(app.status,
			    "seed-13a-lora.yaml  seed-13b-lora.yaml  seed-15-verdicts.yaml");
	keys("\t");
	snprintf(want, sizeof(want), "e %s/seed-13a-lora.yaml", dir);
	assert_string_equal(app.line.buf, want);
	keys("\t\t");
	snprintf(want, sizeof(want), "e %s/seed-15-verdicts.yaml", dir);
	assert_string_equal(app.line.buf, want);
	app_handle_key(&app, KEY_ESC);
	for (int i = 0; i < 3; i++) {
		snprintf(f, sizeof(f), "%s/%s", dir, names[i]);
		unlink(f);
	}
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup(test_keys_sorted_and_cycled, setup),
	    cmocka_unit_test_setup(test_every_key_a_candidate, setup),
	    cmocka_unit_test_setup(test_hint_fits_and_counts, setup),
	    cmocka_unit_test_setup(test_files_sorted, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
