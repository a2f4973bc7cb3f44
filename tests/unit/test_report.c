/* test_report.c - the text report stays within 80 columns and gives its verdicts in the
 * order capacity, bandwidth and interconnect, compute (seed case 15); the Markdown review
 * has its sections. Built from hand-made plans, independent of the plan's physics. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "plan.h"
#include "report.h"
#include "scenario.h"

static void fill(struct scenario *s, struct plan *p, enum workload_kind kind)
{
	scenario_init(s);
	s->workload.kind = kind;
	snprintf(s->name, sizeof(s->name), "a scenario whose name is long enough to matter here");
	snprintf(s->model.preset, sizeof(s->model.preset), "llama-2-70b");
	snprintf(s->hardware.gpu.id, sizeof(s->hardware.gpu.id), "a100-80gb-sxm");
	s->hardware.gpu.memory_bytes = 80e9;
	s->hardware.gpu.hbm_bytes_per_s = 2.039e12;
	s->hardware.count = 1024;
	memset(p, 0, sizeof(*p));
	for (const struct figure *f = figures; f->key; f++)
		if (figure_is_number(f))
			*(double *)((char *)p + f->offset) = 123456789.123;
	p->model.layers = 80;
	p->model.hidden = 8192;
	p->model.heads = 64;
	p->model.kv_heads = 8;
	p->tp = 8;
	p->pp = 4;
	p->dp = 32;
	p->ep = 1;
	p->virtual_stages = 2;
	p->mem.weights = 4.3e9;
	p->mem.gradients = 4.3e9;
	p->mem.optimizer = 30e9;
	p->mem.activations = 150e9; /* more than the capacity on its own */
	p->mem.kv_cache = 0;
	p->mem.overhead = 2e9;
	p->mem.total = 190.6e9;
	p->mem.capacity = 80e9;
	p->mem.headroom = -110.6e9;
	p->mem.fits = false;
	p->mem.host = 0;
	p->slo_batch = NAN;
	p->ttft_s = NAN;
	p->binding = BN_CAPACITY;
	p->shares[BN_CAPACITY] = 2.38;
	p->shares[BN_COMPUTE] = 0.5;
	p->shares[BN_HBM] = 0.2;
	p->shares[BN_INTERCONNECT] = 0.3;
	p->shares[BN_DATA_IO] = 0;
	for (int i = 0; i < 5; i++)
		plan_warn(p, PW_DOES_NOT_FIT, 190.6e9, 80e9);
}

static void assert_lines_fit(const char *text)
{
	for (const char *line = text; *line;) {
		const char *nl = strchr(line, '\n');
		size_t n = nl ? (size_t)(nl - line) : strlen(line);
		if (n > 80)
			fail_msg("line wider than 80 columns: %.*s", (int)n, line);
		if (n && line[n - 1] == ' ')
			fail_msg("trailing blank: '%.*s'", (int)n, line);
		line += n + (nl ? 1 : 0);
	}
}

static void test_text_80_columns(void **state)
{
	enum workload_kind kinds[] = {WL_TRAIN, WL_FINETUNE, WL_ONLINE, WL_OFFLINE};

	(void)state;
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		struct scenario s;
		struct plan p;
		struct report_buf b = {0};
		fill(&s, &p, kinds[k]);
		assert_int_equal(report_text(&b, &s, &p), 0);
		assert_lines_fit(b.data);
		report_buf_release(&b);
	}
}

static void test_text_verdict_order(void **state)
{
	struct scenario s;
	struct plan p;
	struct report_buf b = {0};
	const char *v, *cap, *hbm, *net, *comp;

	(void)state;
	fill(&s, &p, WL_TRAIN);
	report_text(&b, &s, &p);
	v = strstr(b.data, "VERDICTS");
	assert_non_null(v);
	/* the numbered verdicts, whichever words say them (explain.c's when built in) */
	cap = strstr(v, "1. capacity");
	assert_non_null(cap);
	hbm = strstr(cap, "2. ");
	assert_non_null(hbm);
	net = strstr(hbm, "interconnect");
	comp = strstr(hbm, "3. compute");
	assert_non_null(net);
	assert_non_null(comp);
	assert_true(cap < hbm && hbm < net && net < comp);
	assert_true(strstr(hbm, "bandwidth") < comp);
	assert_non_null(strstr(v, "binding bottleneck: capacity"));
	/* the bar of a part larger than the capacity is capped and marked */
	assert_non_null(strstr(b.data, "|#"));
	assert_non_null(strstr(b.data, "#>"));
	assert_non_null(strstr(b.data, "DOES NOT FIT"));
	assert_non_null(strstr(b.data, "WARNINGS"));
	report_buf_release(&b);
}

static void test_text_memory_parts(void **state)
{
	struct scenario s;
	struct plan p;
	struct report_buf b = {0};

	(void)state;
	fill(&s, &p, WL_ONLINE);
	p.mem.kv_cache = 12e9;
	p.mem.fits = true;
	p.binding = BN_HBM;
	report_text(&b, &s, &p);
	assert_non_null(strstr(b.data, "KV cache"));
	assert_null(strstr(b.data, "  optimizer")); /* inference has no optimizer states */
	assert_non_null(strstr(b.data, "11.2 GiB")); /* 12e9 bytes / 2^30 */
	assert_non_null(strstr(b.data, "FITS:"));
	assert_non_null(strstr(b.data, "binding bottleneck: hbm_bandwidth"));
	report_buf_release(&b);
}

static void test_markdown_sections(void **state)
{
	static const char *const sections[] = {"# a scenario", "## Summary", "## Memory per GPU",
					       "| weights | 4 GiB |", "## Time and cost",
					       "## Bottlenecks", "## Warnings", "## Assumptions", NULL};
	struct scenario s;
	struct plan p;
	struct report_buf b = {0};
	const char *last;

	(void)state;
	fill(&s, &p, WL_TRAIN);
	snprintf(s.notes, sizeof(s.notes), "first line\nsecond | line");
	assert_int_equal(report_markdown(&b, &s, &p), 0);
	last = b.data;
	for (int i = 0; sections[i]; i++) {
		const char *at = strstr(b.data, sections[i]);
		if (!at || at < last)
			fail_msg("section '%s' missing or out of order", sections[i]);
		last = at;
	}
	assert_non_null(strstr(b.data, "**does not fit in memory**"));
	/* a pipe of the note is escaped: it cannot start a table of its own (issue 16) */
	assert_non_null(strstr(b.data, "> first line\n> second \\| line"));
	report_buf_release(&b);
}

static void test_figures_table(void **state)
{
	(void)state;
	/* every figure is a double of struct plan, and keys are unique */
	for (const struct figure *f = figures; f->key; f++) {
		assert_true(f->offset + sizeof(double) <= sizeof(struct plan));
		assert_ptr_equal(figure_find(f->key), f);
	}
	assert_null(figure_find("memory.per_gpu"));
}

static void test_buf_grows(void **state)
{
	struct report_buf b = {0};

	(void)state;
	for (int i = 0; i < 10000; i++)
		report_buf_printf(&b, "%d,", i);
	assert_false(b.failed);
	assert_int_equal(strlen(b.data), b.len);
	assert_memory_equal(b.data, "0,1,2,", 6);
	assert_non_null(strstr(b.data, ",9999,"));
	report_buf_release(&b);
	assert_null(b.data);
	report_buf_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_80_columns),   cmocka_unit_test(test_text_verdict_order),
		cmocka_unit_test(test_text_memory_parts), cmocka_unit_test(test_markdown_sections),
		cmocka_unit_test(test_figures_table),     cmocka_unit_test(test_buf_grows),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
