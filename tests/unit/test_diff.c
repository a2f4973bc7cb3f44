/* test_diff.c - diff_compute finds every changed input and result and the changed
 * verdicts, and nothing else; its text keeps its columns. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "diff.h"
#include "plan.h"
#include "report.h"
#include "scenario.h"

static void fill(struct scenario *s, struct plan *p)
{
	scenario_init(s);
	snprintf(s->hardware.gpu.id, sizeof(s->hardware.gpu.id), "a100-80gb-sxm");
	s->hardware.count = 8;
	memset(p, 0, sizeof(*p));
	for (const struct figure *f = figures; f->key; f++)
		if (figure_is_number(f))
			*(double *)((char *)p + f->offset) = 1000;
	p->ttft_s = NAN;
	p->tpot_s = NAN;
	p->mem.capacity = 80e9;
	p->mem.total = 60e9;
	p->mem.fits = true;
	p->binding = BN_COMPUTE;
}

static const struct diff_input *find_input(const struct diff *d, const char *key)
{
	for (int i = 0; i < d->ninputs; i++)
		if (strcmp(d->inputs[i].field->key, key) == 0)
			return &d->inputs[i];
	return NULL;
}

static const struct diff_result *find_result(const struct diff *d, const char *key)
{
	for (int i = 0; i < d->nresults; i++)
		if (strcmp(d->results[i].figure->key, key) == 0)
			return &d->results[i];
	return NULL;
}

static void test_identical(void **state)
{
	struct scenario a, b;
	struct plan pa, pb;
	struct diff d;

	(void)state;
	fill(&a, &pa);
	fill(&b, &pb);
	diff_compute(&a, &pa, &b, &pb, &d);
	assert_false(diff_any(&d));
	assert_int_equal(d.ninputs, 0);
	assert_int_equal(d.nresults, 0);
}

static void test_inputs(void **state)
{
	struct scenario a, b;
	struct plan pa, pb;
	struct diff d;
	const struct diff_input *in;

	(void)state;
	fill(&a, &pa);
	fill(&b, &pb);
	b.hardware.count = 16;
	b.workload.tokens = 2e12;
	b.parallel.zero = 3;
	/* batch is an inference field: two training scenarios never read it */
	b.workload.batch = 64;
	diff_compute(&a, &pa, &b, &pb, &d);
	assert_int_equal(d.ninputs, 3);
	in = find_input(&d, "hardware.count");
	assert_non_null(in);
	assert_string_equal(in->a, "8");
	assert_string_equal(in->b, "16");
	in = find_input(&d, "workload.tokens");
	assert_non_null(in);
	assert_string_equal(in->b, "2T");
	assert_non_null(find_input(&d, "parallel.zero"));
	assert_null(find_input(&d, "workload.batch"));
	/* in field-table order */
	assert_string_equal(d.inputs[0].field->key, "workload.tokens");
}

static void test_results(void **state)
{
	struct scenario a, b;
	struct plan pa, pb;
	struct diff d;
	const struct diff_result *r;

	(void)state;
	fill(&a, &pa);
	fill(&b, &pb);
	pb.mem.total = 66e9;		/* +10% */
	pb.step_s = 1000 * (1 + 1e-12); /* rounding noise: not a change */
	pb.ttft_s = 0.25;		/* now applies */
	pb.mfu = 0;			/* from 1000 to 0 */
	pa.kwh = 0;			/* from 0: no relative change */
	diff_compute(&a, &pa, &b, &pb, &d);
	r = find_result(&d, "memory.per_gpu.total");
	assert_non_null(r);
	assert_true(fabs(r->change - 6e9) < 1);
	assert_true(fabs(r->relative - 0.1) < 1e-12);
	assert_null(find_result(&d, "time.step_s"));
	assert_null(find_result(&d, "latency.tpot_s")); /* NAN on both sides */
	r = find_result(&d, "latency.ttft_s");
	assert_non_null(r);
	assert_true(isnan(r->change));
	r = find_result(&d, "compute.mfu");
	assert_non_null(r);
	assert_true(r->relative == -1);
	r = find_result(&d, "energy.kwh");
	assert_non_null(r);
	assert_true(isnan(r->relative));
	assert_int_equal(d.nresults, 4);
	assert_false(d.fits_changed);
	assert_false(d.binding_changed);
}

/* The details (figure.h) are compared too: a part of the step that moves is a result; and
 * every number of the table moving at once fits in the diff. */
static void test_details(void **state)
{
	struct scenario a, b;
	struct plan pa, pb;
	struct diff d;
	const struct diff_result *r;
	int numbers = 0;

	(void)state;
	fill(&a, &pa);
	fill(&b, &pb);
	pb.parts.tp_comm_s = 1500;
	diff_compute(&a, &pa, &b, &pb, &d);
	r = find_result(&d, "time.parts.tp_comm_s");
	assert_non_null(r);
	assert_true(r->change == 500);
	assert_int_equal(d.nresults, 1);

	for (const struct figure *f = figures; f->key; f++)
		if (figure_is_number(f)) {
			*(double *)((char *)&pb + f->offset) = 2000;
			numbers++;
		}
	diff_compute(&a, &pa, &b, &pb, &d);
	assert_true(numbers > 64);
	assert_int_equal(d.nresults, numbers);
}

static void test_verdicts(void **state)
{
	struct scenario a, b;
	struct plan pa, pb;
	struct diff d;
	struct report_buf out = {0};

	(void)state;
	fill(&a, &pa);
	fill(&b, &pb);
	b.hardware.count = 1;
	pb.mem.total = 120e9;
	pb.mem.fits = false;
	pb.binding = BN_CAPACITY;
	diff_compute(&a, &pa, &b, &pb, &d);
	assert_true(d.fits_changed);
	assert_true(d.fits_a);
	assert_false(d.fits_b);
	assert_true(d.binding_changed);
	assert_int_equal(d.binding_a, BN_COMPUTE);
	assert_int_equal(d.binding_b, BN_CAPACITY);

	assert_int_equal(diff_text(&out, &d, "a.yaml", "b.yaml"), 0);
	assert_non_null(strstr(out.data, "!! memory.fits"));
	assert_non_null(strstr(out.data, "NO LONGER FITS"));
	assert_non_null(strstr(out.data, "!! bottleneck.binding"));
	assert_non_null(strstr(out.data, "compute      capacity"));
	assert_non_null(strstr(out.data, "+55.9 GiB (+100%)")); /* 60e9 bytes */
	/* verdicts come before the inputs and results */
	assert_true(strstr(out.data, "memory.fits") < strstr(out.data, "INPUTS"));
	/* the columns line up: every value row is at most 80 columns and has no trailing blank */
	for (char *line = out.data; *line;) {
		char *nl = strchr(line, '\n');
		size_t n = nl ? (size_t)(nl - line) : strlen(line);
		assert_true(n <= 80);
		assert_true(n == 0 || line[n - 1] != ' ');
		line += n + (nl ? 1 : 0);
	}
	report_buf_release(&out);

	assert_int_equal(diff_markdown(&out, &d, "a.yaml", "b.yaml"), 0);
	assert_non_null(strstr(out.data, "| **memory.fits** | fits | **does not fit** |"));
	assert_non_null(strstr(out.data, "| `hardware.count` | 8 | 1 |"));
	report_buf_release(&out);
}

static void test_long_values_wrap(void **state)
{
	struct scenario a, b;
	struct plan pa, pb;
	struct diff d;
	struct report_buf out = {0};

	(void)state;
	fill(&a, &pa);
	fill(&b, &pb);
	snprintf(a.name, sizeof(a.name), "a rather long scenario name");
	snprintf(b.name, sizeof(b.name), "another long scenario name");
	snprintf(b.notes, sizeof(b.notes), "line one\nline two");
	diff_compute(&a, &pa, &b, &pb, &d);
	assert_int_equal(d.ninputs, 2);
	assert_null(strchr(find_input(&d, "notes")->b, '\n'));
	diff_text(&out, &d, "a", "b");
	assert_non_null(strstr(out.data, "       A: a rather long scenario name\n"));
	assert_non_null(strstr(out.data, "       B: another long scenario name\n"));
	report_buf_release(&out);
}

/* A figure that no longer applies (NaN) reads "-" even when the figure has names: the
 * serving scheduler once read "chunked  alone  no longer applies". */
static void test_nan_named_figure(void **state)
{
	struct scenario a, b;
	struct plan pa, pb;
	struct diff d;
	struct report_buf out = {0};
	const struct diff_result *r;

	(void)state;
	fill(&a, &pa);
	fill(&b, &pb);
	pa.serving.scheduler = SCHED_CHUNKED;
	pb.serving.scheduler = NAN;
	diff_compute(&a, &pa, &b, &pb, &d);
	r = find_result(&d, "serving.scheduler");
	assert_non_null(r);
	diff_text(&out, &d, "a", "b");
	{
		const char *row = strstr(out.data, "serving.scheduler");
		char k[64], va[64], vb[64];
		assert_non_null(row);
		assert_int_equal(sscanf(row, "%63s %63s %63s", k, va, vb), 3);
		assert_string_equal(va, "chunked");
		assert_string_equal(vb, "-");
	}
	report_buf_release(&out);
}

/* Notes longer than a diff row are cut at a character, never inside a UTF-8 sequence (the
 * JSON and Markdown stay valid), and end with an ellipsis that says they were cut. */
static void test_long_notes_cut_at_a_character(void **state)
{
	struct scenario a, b;
	struct plan pa, pb;
	struct diff d;
	const char *v;
	size_t n = 0;

	(void)state;
	fill(&a, &pa);
	fill(&b, &pb);
	for (int i = 0; i < 300 && n + 3 < sizeof(b.notes); i++, n += 2)
		memcpy(b.notes + n, "\xC3\xA9", 3); /* é */
	diff_compute(&a, &pa, &b, &pb, &d);
	v = find_input(&d, "notes")->b;
	assert_true(strlen(v) < sizeof(d.inputs[0].b));
	assert_string_equal(v + strlen(v) - 3, "\xE2\x80\xA6");
	/* every character before the ellipsis is a whole é */
	for (size_t i = 0; i + 3 < strlen(v); i += 2)
		assert_memory_equal(v + i, "\xC3\xA9", 2);
	assert_int_equal((strlen(v) - 3) % 2, 0);
}

static void test_no_differences_text(void **state)
{
	struct scenario a;
	struct plan pa;
	struct diff d;
	struct report_buf out = {0};

	(void)state;
	fill(&a, &pa);
	diff_compute(&a, &pa, &a, &pa, &d);
	diff_text(&out, &d, "a", "a");
	assert_non_null(strstr(out.data, "no differences"));
	report_buf_release(&out);
}

/* A figure that codes a name (serving.scheduler) is compared by its names: "chunked" to
 * "prefill-first", never "3 -> 2 (-33.3%)"; its change and relative are null. */
static void test_codes_by_name(void **state)
{
	struct scenario a;
	struct plan pa, pb;
	struct diff d;
	const struct diff_result *r;
	struct report_buf out = {0}, md = {0};

	(void)state;
	fill(&a, &pa);
	pb = pa;
	pa.serving.scheduler = SCHED_CHUNKED;
	pb.serving.scheduler = SCHED_PREFILL_FIRST;
	diff_compute(&a, &pa, &a, &pb, &d);
	r = find_result(&d, "serving.scheduler");
	assert_non_null(r);
	assert_true(isnan(r->change) && isnan(r->relative));
	diff_text(&out, &d, "a", "b");
	assert_non_null(strstr(out.data, "serving.scheduler                 chunked      "
					 "prefill-first changed"));
	assert_null(strstr(out.data, "33.3%"));
	diff_markdown(&md, &d, "a", "b");
	assert_non_null(
	    strstr(md.data, "| `serving.scheduler` | chunked | prefill-first | changed |"));
	report_buf_release(&out);
	report_buf_release(&md);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_identical),
	    cmocka_unit_test(test_inputs),
	    cmocka_unit_test(test_results),
	    cmocka_unit_test(test_nan_named_figure),
	    cmocka_unit_test(test_details),
	    cmocka_unit_test(test_verdicts),
	    cmocka_unit_test(test_long_values_wrap),
	    cmocka_unit_test(test_long_notes_cut_at_a_character),
	    cmocka_unit_test(test_no_differences_text),
	    cmocka_unit_test(test_codes_by_name),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
