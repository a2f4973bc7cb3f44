/* test_report_figures.c - the text and Markdown reports of shipped scenarios read the one
 * figure table (issue 11): the Markdown table has every figure and row the text report's
 * time section has; the overhead's listed parts add up to it; the header names the
 * framework, default included (issue 12); allocated and reserved memory are given with the
 * measurement each matches; an overload reads as an offered load; the experts' own format
 * and both counts of active parameters are named. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "figure.h"
#include "plan.h"
#include "report.h"
#include "scenario_yaml.h"
#include "shipped_catalog.h"
#include "units.h"

#define SERVE "scenarios/team-serve-70b-5m-requests.yaml"
#define SEED2 "scenarios/seed-02-7b-mixed-precision-adam.yaml"
static const char *const fsdp[] = {"workload.framework=fsdp", NULL};

/* path planned with the --set assignments in sets (NULL-terminated), and its two reports */
static void plan_file(const char *path, const char *const *sets, struct scenario *s, struct plan *p,
		      struct report_buf *text, struct report_buf *md)
{
	struct gp_error err;

	if (scenario_load_file(path, cat, s, NULL, NULL, &err) != 0)
		fail_msg("%s: %s", path, err.message);
	for (int i = 0; sets && sets[i]; i++) {
		char key[128];
		const char *eq = strchr(sets[i], '=');
		snprintf(key, sizeof(key), "%.*s", (int)(eq - sets[i]), sets[i]);
		if (scenario_set(s, cat, key, eq + 1, &err) != 0)
			fail_msg("%s: %s", sets[i], err.message);
	}
	plan_compute(s, p);
	assert_int_equal(report_text(text, s, p), 0);
	assert_int_equal(report_markdown(md, s, p), 0);
}

static void release(struct report_buf *a, struct report_buf *b)
{
	report_buf_release(a);
	report_buf_release(b);
}

/* The Markdown table has a row for every figure of the text report's list with a value,
 * at its key and under its label for the plan (figure_label: max batch under an engine
 * cap reads "KV pool holds"): TTFT and ITL levels, TPOT at the SLO, utilisation, wait,
 * slo_batch. */
static void markdown_has_text_list(const struct scenario *s, const struct plan *p, const char *md)
{
	const struct figure *list[64];
	int n = figure_list(FIGURE_LIST_TEXT, s->workload.kind, -1, list, 64);

	assert_true(n > 3);
	for (int i = 0; i < n; i++) {
		char row[96];
		if (isnan(figure_value(list[i], p)))
			continue;
		snprintf(row, sizeof(row), "| %s | ", figure_label(list[i], p));
		if (!strstr(md, row))
			fail_msg("Markdown has no row for %s", list[i]->key);
	}
}

static void test_markdown_reads_the_table(void **state)
{
	static const char *const fleet[] = {"hardware.count=76", NULL};
	struct scenario s;
	struct plan p;
	struct report_buf t = {0}, m = {0};

	(void)state;
	plan_file(SERVE, fleet, &s, &p, &t, &m);
	markdown_has_text_list(&s, &p, m.data);
	/* the levels and the queue under a load, in both */
	assert_false(isnan(p.serving.ttft[2]));
	static const char *const keys[] = {"`latency.ttft_p50_s`",	"`latency.ttft_p99_s`",
					   "`latency.tpot_p99_s`",	"`latency.tpot_at_slo_s`",
					   "`serving.utilisation`",	"`serving.wait_s`",
					   "`capacity_plan.slo_batch`", "`serving.policy`"};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!strstr(m.data, keys[i]))
			fail_msg("Markdown lacks %s", keys[i]);
	assert_non_null(strstr(t.data, "TTFT, P99"));
	assert_non_null(strstr(t.data, "largest batch meeting the SLO"));
	release(&t, &m);

	/* a training plan: its list too */
	plan_file(SEED2, NULL, &s, &p, &t, &m);
	markdown_has_text_list(&s, &p, m.data);
	release(&t, &m);
}

/* The Markdown memory table's bytes column adds up to its total (to the three digits it
 * prints): the overhead's parts once sat in it under the overhead and counted it twice. */
static void md_column_sums(const char *path, const char *md)
{
	const char *row = strstr(md, "| part | bytes | share of capacity |");
	double sum = 0, total = -1;

	assert_non_null(row);
	while ((row = strchr(row, '\n')) != NULL && *++row == '|') {
		char label[96], value[48], compact[48], *w = compact;
		double v;
		if (sscanf(row, "| %95[^|]| %47[^|]|", label, value) != 2)
			fail_msg("%s: memory row %.40s", path, row);
		if (strncmp(label, "---", 3) == 0)
			continue;
		for (const char *r = value; *r; r++)
			if (*r != ' ' && *r != '*')
				*w++ = *r;
		*w = '\0';
		assert_int_equal(units_parse(UNIT_BYTES, compact, &v, NULL), 0);
		if (strncmp(label, "**total**", 9) == 0) {
			total = v;
			break;
		}
		sum += v;
	}
	assert_true(total > 0);
	/* each row is rounded to three digits: half a unit of the third digit each */
	if (fabs(sum - total) > 0.01 * total)
		fail_msg("%s: the memory rows sum to %.4g, the total is %.4g", path, sum, total);
}

/* The overhead's parts the reports list add up to the overhead (cuBLAS's 64 MiB under
 * fsdp, the recomputed layer of seed 12 included), in text and Markdown. */
static void overhead_parts_sum(const char *path, const char *const *sets)
{
	struct scenario s;
	struct plan p;
	struct report_buf t = {0}, m = {0};
	const struct figure *f;
	double sum = 0;
	int held = 0;

	plan_file(path, sets, &s, &p, &t, &m);
	md_column_sums(path, m.data);
	for (int i = 0; (f = figure_overhead_part(i)) != NULL; i++) {
		double v = figure_value(f, &p);
		char text[96], row[128], n[32];
		assert_true(f->flags & FIGURE_DETAIL);
		sum += v;
		if (!(v > 0))
			continue;
		held++;
		units_format_human(UNIT_BYTES, v, 3, n, sizeof(n));
		snprintf(text, sizeof(text), "%s %s", f->label, n);
		snprintf(row, sizeof(row), "| %s | %s |", f->label, n);
		/* the text report may break the list between a label and its value's line */
		if (!strstr(t.data, f->label) || !strstr(t.data, n))
			fail_msg("%s: the text report lacks %s", path, text);
		/* in the table of the overhead's parts, not in the parts' column */
		if (!strstr(m.data, "The overhead, of which:") ||
		    !strstr(strstr(m.data, "The overhead, of which:"), row))
			fail_msg("%s: the Markdown report's overhead table lacks %s", path, row);
	}
	assert_true(held >= 2);
	if (fabs(sum - p.mem.overhead) > 1e-9 * p.mem.overhead)
		fail_msg("%s: parts %.0f, overhead %.0f", path, sum, p.mem.overhead);
	release(&t, &m);
}

static void test_overhead_parts_add_up(void **state)
{
	struct scenario s;
	struct plan p;
	struct report_buf t = {0}, m = {0};

	(void)state;
	overhead_parts_sum(SEED2, fsdp);
	overhead_parts_sum(SEED2, NULL);
	overhead_parts_sum("scenarios/seed-12-70b-full-training-8xh100.yaml", NULL);
	overhead_parts_sum(SERVE, NULL);
	plan_file(SEED2, fsdp, &s, &p, &t, &m);
	assert_true(p.mem.blas_workspace > 0);
	assert_non_null(strstr(t.data, "cuBLAS workspaces 64 MiB"));
	release(&t, &m);
}

/* The header names the framework whose behaviour the figures follow, the default too. */
static void test_header_names_framework(void **state)
{
	struct scenario s;
	struct plan p;
	struct report_buf t = {0}, m = {0};

	(void)state;
	plan_file(SEED2, NULL, &s, &p, &t, &m);
	assert_non_null(strstr(t.data, "\nframework  default: the papers' mixed precision"));
	assert_non_null(strstr(m.data, "- **Framework:** default: the papers' mixed precision"));
	release(&t, &m);
	plan_file(SEED2, fsdp, &s, &p, &t, &m);
	assert_non_null(strstr(t.data, "\nframework  fsdp: PyTorch FSDP2 (torchtitan)\n"));
	assert_non_null(strstr(m.data, "- **Framework:** fsdp: PyTorch FSDP2 (torchtitan)\n"));
	release(&t, &m);
}

/* Allocated and reserved, each with the counter it matches; the total nvidia-smi's. */
static void test_allocated_reserved(void **state)
{
	struct scenario s;
	struct plan p;
	struct report_buf t = {0}, m = {0};
	char a[32], r[32], want[128];

	(void)state;
	plan_file(SEED2, fsdp, &s, &p, &t, &m);
	assert_true(p.mem.allocated < p.mem.reserved && p.mem.reserved < p.mem.total);
	units_format_human(UNIT_BYTES, p.mem.allocated, 3, a, sizeof(a));
	units_format_human(UNIT_BYTES, p.mem.reserved, 3, r, sizeof(r));
	snprintf(want, sizeof(want), "allocated %s (as torch.cuda.max_memory_allocated)", a);
	assert_non_null(strstr(t.data, want));
	want[0] = 'A';
	assert_non_null(strstr(m.data, want));
	snprintf(want, sizeof(want), "reserved %s (as", r);
	assert_non_null(strstr(t.data, want));
	assert_non_null(strstr(m.data, want));
	assert_non_null(strstr(t.data, "max_memory_reserved"));
	assert_non_null(strstr(t.data, "nvidia-smi"));
	assert_non_null(strstr(m.data, "the total is what nvidia-smi shows"));
	release(&t, &m);
}

/* An overloaded replica's utilisation reads as an offered load, not "1518%". */
static void test_overload_offered_load(void **state)
{
	struct scenario s;
	struct plan p;
	struct report_buf t = {0}, m = {0};
	char n[16], want[64];

	(void)state;
	plan_file(SERVE, NULL, &s, &p, &t, &m);
	assert_true(p.serving.overloaded && p.serving.utilisation > 1);
	units_format_num3(p.serving.utilisation, n, sizeof(n));
	snprintf(want, sizeof(want), "overloaded (offered load %sx)", n);
	assert_non_null(strstr(t.data, want));
	assert_non_null(strstr(m.data, want));
	snprintf(want, sizeof(want), "%.0f%%", 100 * p.serving.utilisation);
	assert_null(strstr(t.data, want));
	assert_null(strstr(m.data, want));
	release(&t, &m);
	/* a stable fleet: a share */
	static const char *const fleet[] = {"hardware.count=76", NULL};
	plan_file(SERVE, fleet, &s, &p, &t, &m);
	assert_true(p.serving.utilisation < 1);
	assert_null(strstr(t.data, "offered load"));
	release(&t, &m);
}

/* A scenario serving tests/data/configs/NAME on an H100, planned and reported as text. A
 * file naming the config, as gpuplan import writes one: the loader applies its
 * quantization_config (hf_quant.c). */
static void plan_config(const char *name, struct scenario *s, struct plan *p, struct report_buf *t)
{
	struct gp_error err;
	char dir[1024], path[] = "/tmp/gpuplan-cfg-XXXXXX";
	int fd;
	FILE *f;

	assert_non_null(getcwd(dir, sizeof(dir)));
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fprintf(f,
		"gpuplan: 1\nname: t\nmodel:\n  hf_config: %s/tests/data/configs/%s\n"
		"workload:\n  kind: online\nhardware:\n  gpu: h100-sxm-80gb\n",
		dir, name);
	fclose(f);
	if (scenario_load_file(path, cat, s, NULL, NULL, &err) != 0)
		fail_msg("%s", err.message);
	unlink(path);
	plan_compute(s, p);
	assert_int_equal(report_text(t, s, p), 0);
}

/* gpt-oss-20b's experts are mxfp4 in the checkpoint; the header says so, and gives the
 * active count with and without the input embedding (the model card's 3.61B). */
static void test_experts_and_active(void **state)
{
	struct scenario s;
	struct plan p;
	struct report_buf t = {0}, m = {0};

	(void)state;
	plan_config("gpt-oss-20b.json", &s, &p, &t);
	assert_int_equal(workload_expert_weights(&s.workload), DTYPE_MXFP4);
	assert_non_null(strstr(t.data, "weights bf16, experts mxfp4"));
	/* OpenAI's gpt-oss model card (arXiv 2508.10925, Table 1): 3.61B active */
	assert_true(fabs((p.active_params - p.counts.embedding) / 3.61e9 - 1) < 0.005);
	assert_non_null(strstr(t.data, "4.19B active with the input embedding"));
	assert_non_null(strstr(t.data, "3.61B"));
	release(&t, &m);
	/* experts as the weights: no experts item */
	plan_file(SEED2, NULL, &s, &p, &t, &m);
	assert_null(strstr(t.data, "experts "));
	release(&t, &m);
}

/* MiniCPM-MoE-8x2B ties its embedding to the output head: the figure without the
 * embedding drops the head as well, and the header says so. */
static void test_tied_active(void **state)
{
	struct scenario s;
	struct plan p;
	struct report_buf t = {0}, md = {0};
	char with[32], without[32], want[160];

	(void)state;
	plan_config("minicpm-moe-8x2b.json", &s, &p, &t);
	assert_true(p.model.tied_embeddings && p.active_params < p.params);
	units_format_human(UNIT_COUNT, p.active_params, 3, with, sizeof(with));
	units_format_human(UNIT_COUNT, p.active_params - p.counts.embedding, 3, without,
			   sizeof(without));
	snprintf(want, sizeof(want), "%s active with the tied embedding and head, %s without them",
		 with, without);
	/* the Markdown summary's line, which is not wrapped */
	assert_int_equal(report_markdown(&md, &s, &p), 0);
	assert_non_null(strstr(md.data, want));
	assert_null(strstr(md.data, "input embedding"));
	assert_null(strstr(t.data, "input embedding"));
	release(&t, &md);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_markdown_reads_the_table),
	    cmocka_unit_test(test_overhead_parts_add_up),
	    cmocka_unit_test(test_header_names_framework),
	    cmocka_unit_test(test_allocated_reserved),
	    cmocka_unit_test(test_overload_offered_load),
	    cmocka_unit_test(test_experts_and_active),
	    cmocka_unit_test(test_tied_active),
	};
	return cmocka_run_group_tests(tests, shipped_catalog_setup, shipped_catalog_teardown);
}
