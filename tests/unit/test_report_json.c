/* test_report_json.c - the JSON report has exactly gpuplan(1)'s keys and types, built from a
 * hand-made plan (so these tests do not depend on the plan's physics). */
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
#include "report_json.h"
#include "scenario.h"

static void fill(struct scenario *s, struct plan *p)
{
	scenario_init(s);
	snprintf(s->name, sizeof(s->name), "a \"quoted\" name");
	snprintf(s->path, sizeof(s->path), "scenarios/x.yaml");
	snprintf(s->hardware.gpu.id, sizeof(s->hardware.gpu.id), "h100-sxm-80gb");
	s->hardware.gpu.memory_bytes = 80e9;
	memset(p, 0, sizeof(*p));
	p->params = 6738415616.0;
	p->active_params = 6738415616.0;
	p->tp = p->pp = p->ep = p->virtual_stages = 1;
	p->dp = 8;
	p->mem.weights = 13476831232.4; /* fractional bytes: written as a whole number */
	p->mem.gradients = 13476831232;
	p->mem.optimizer = 10107623424;
	p->mem.activations = 2.5e9;
	p->mem.kv_cache = 0;
	p->mem.overhead = 1.6e9;
	p->mem.total = 41161285888.4;
	p->mem.capacity = 80e9;
	p->mem.headroom = 80e9 - 41161285888.4;
	p->mem.fits = true;
	p->mem.host = 0;
	p->flops_per_token = 4.2e10;
	p->flops_total = 8.4e22;
	p->mfu = 0.42;
	p->step_s = 7.5;
	p->total_s = 2.9e6;
	p->gpu_hours = 6444;
	p->tokens_per_s = 6.9e5;
	p->tokens_per_s_per_gpu = 8.6e4;
	p->ttft_s = NAN; /* training: latency does not apply */
	p->tpot_s = NAN;
	p->max_batch = NAN;
	p->replicas = NAN;
	p->gpus_required = 8;
	p->slo_batch = NAN;
	p->usd_total = 16110;
	p->usd_per_hour = 20;
	p->usd_per_million_tokens = 0.008;
	p->kwh = 5400;
	p->expected_interruptions = 0.13;
	p->checkpoint_interval_s = 3000;
	p->goodput = 0.99;
	p->shares[BN_CAPACITY] = 0.51;
	p->shares[BN_COMPUTE] = 0.8;
	p->shares[BN_HBM] = 0.1;
	p->shares[BN_INTERCONNECT] = 0.05;
	p->shares[BN_DATA_IO] = 0;
	p->binding = BN_COMPUTE;
	plan_warn(p, PW_SEQ_OVER_CONTEXT, 8192, 4096);
	plan_warn(p, PW_TP_ACROSS_NODES, 16, 8);
}

static const char *const spec_keys[] = {
	"schema", "scenario.name", "scenario.file", "model.params", "model.active_params",
	"memory.per_gpu.weights", "memory.per_gpu.gradients", "memory.per_gpu.optimizer",
	"memory.per_gpu.activations", "memory.per_gpu.kv_cache", "memory.per_gpu.overhead",
	"memory.per_gpu.total", "memory.capacity", "memory.headroom", "memory.fits",
	"compute.flops_per_token", "compute.flops_total", "compute.mfu", "time.step_s",
	"time.total_s", "time.gpu_hours", "throughput.tokens_per_s",
	"throughput.tokens_per_s_per_gpu", "latency.ttft_s", "latency.tpot_s",
	"capacity_plan.max_batch", "capacity_plan.replicas", "capacity_plan.gpus_required",
	"cost.usd_total", "cost.usd_per_hour", "cost.usd_per_million_tokens", "energy.kwh",
	"reliability.expected_interruptions", "reliability.checkpoint_interval_s",
	"reliability.goodput", "bottleneck.binding", "bottleneck.shares.capacity",
	"bottleneck.shares.compute", "bottleneck.shares.hbm_bandwidth",
	"bottleneck.shares.interconnect", "bottleneck.shares.data_io", "warnings", NULL};

/* Builds, prints and parses back, so the tests see what a script would read. */
static struct cJSON *round_trip(const struct scenario *s, const struct plan *p)
{
	struct cJSON *j = report_json_build(s, p), *back;
	char *text;

	assert_non_null(j);
	text = report_json_print(j);
	assert_non_null(text);
	assert_int_equal(text[strlen(text) - 1], '\n');
	report_json_free(j);
	back = report_json_parse(text);
	free(text);
	assert_non_null(back);
	return back;
}

static void test_every_spec_key(void **state)
{
	struct scenario s;
	struct plan p;
	struct cJSON *j;

	(void)state;
	fill(&s, &p);
	j = round_trip(&s, &p);
	for (int i = 0; spec_keys[i]; i++) {
		enum report_json_kind k = report_json_get(j, spec_keys[i], NULL, NULL);
		if (k == REPORT_JSON_MISSING)
			fail_msg("missing key %s", spec_keys[i]);
	}
	report_json_free(j);
}

static void test_types_and_values(void **state)
{
	struct scenario s;
	struct plan p;
	struct cJSON *j;
	double v;
	const char *t;

	(void)state;
	fill(&s, &p);
	j = round_trip(&s, &p);
	assert_int_equal(report_json_get(j, "schema", NULL, &t), REPORT_JSON_STRING);
	assert_string_equal(t, "gpuplan.report/1");
	assert_int_equal(report_json_get(j, "scenario.name", NULL, &t), REPORT_JSON_STRING);
	assert_string_equal(t, "a \"quoted\" name");
	assert_int_equal(report_json_get(j, "scenario.file", NULL, &t), REPORT_JSON_STRING);
	assert_string_equal(t, "scenarios/x.yaml");
	/* bytes and parameter counts are whole numbers */
	assert_int_equal(report_json_get(j, "memory.per_gpu.weights", &v, NULL), REPORT_JSON_NUMBER);
	assert_true(v == 13476831232.0);
	assert_int_equal(report_json_get(j, "memory.per_gpu.total", &v, NULL), REPORT_JSON_NUMBER);
	assert_true(v == 41161285888.0);
	assert_int_equal(report_json_get(j, "model.params", &v, NULL), REPORT_JSON_NUMBER);
	assert_true(v == 6738415616.0);
	/* other figures keep their fractions */
	assert_int_equal(report_json_get(j, "compute.mfu", &v, NULL), REPORT_JSON_NUMBER);
	assert_true(v == 0.42);
	assert_int_equal(report_json_get(j, "time.step_s", &v, NULL), REPORT_JSON_NUMBER);
	assert_true(v == 7.5);
	/* what does not apply is null */
	assert_int_equal(report_json_get(j, "latency.ttft_s", NULL, NULL), REPORT_JSON_NULL);
	assert_int_equal(report_json_get(j, "latency.tpot_s", NULL, NULL), REPORT_JSON_NULL);
	assert_int_equal(report_json_get(j, "capacity_plan.max_batch", NULL, NULL),
			 REPORT_JSON_NULL);
	assert_int_equal(report_json_get(j, "memory.fits", &v, NULL), REPORT_JSON_BOOL);
	assert_true(v == 1);
	assert_int_equal(report_json_get(j, "bottleneck.binding", NULL, &t), REPORT_JSON_STRING);
	assert_string_equal(t, "compute");
	assert_int_equal(report_json_get(j, "bottleneck.shares.compute", &v, NULL),
			 REPORT_JSON_NUMBER);
	assert_true(v == 0.8);
	assert_int_equal(report_json_get(j, "warnings", &v, NULL), REPORT_JSON_ARRAY);
	assert_true(v == 2);
	/* the framework the figures follow is named, the default one too (issue 12) */
	assert_int_equal(report_json_get(j, "assumptions.framework", NULL, &t),
			 REPORT_JSON_STRING);
	assert_string_equal(t, "default");
	report_json_free(j);
	s.workload.framework = FW_FSDP;
	j = round_trip(&s, &p);
	assert_int_equal(report_json_get(j, "assumptions.framework", NULL, &t),
			 REPORT_JSON_STRING);
	assert_string_equal(t, "fsdp");
	assert_int_equal(report_json_get(j, "assumptions.framework_title", NULL, &t),
			 REPORT_JSON_STRING);
	assert_non_null(strstr(t, "FSDP2"));
	report_json_free(j);
}

static void test_does_not_fit(void **state)
{
	struct scenario s;
	struct plan p;
	struct cJSON *j;
	double v;
	const char *t;

	(void)state;
	fill(&s, &p);
	p.mem.total = 1.1e12;
	p.mem.headroom = 80e9 - 1.1e12;
	p.mem.fits = false;
	p.binding = BN_CAPACITY;
	j = round_trip(&s, &p);
	assert_int_equal(report_json_get(j, "memory.fits", &v, NULL), REPORT_JSON_BOOL);
	assert_true(v == 0);
	assert_int_equal(report_json_get(j, "memory.headroom", &v, NULL), REPORT_JSON_NUMBER);
	assert_true(v == 80e9 - 1.1e12);
	report_json_get(j, "bottleneck.binding", NULL, &t);
	assert_string_equal(t, "capacity");
	report_json_free(j);
}

static void test_builtin_file_is_null(void **state)
{
	struct scenario s;
	struct plan p;
	struct cJSON *j;

	(void)state;
	fill(&s, &p);
	s.path[0] = '\0';
	j = round_trip(&s, &p);
	assert_int_equal(report_json_get(j, "scenario.file", NULL, NULL), REPORT_JSON_NULL);
	report_json_free(j);
}

static void test_infinite_is_null(void **state)
{
	struct scenario s;
	struct plan p;
	struct cJSON *j;

	(void)state;
	fill(&s, &p);
	p.total_s = INFINITY; /* JSON has no infinity: never print "inf" */
	j = round_trip(&s, &p);
	assert_int_equal(report_json_get(j, "time.total_s", NULL, NULL), REPORT_JSON_NULL);
	report_json_free(j);
}

static void test_section(void **state)
{
	struct scenario s;
	struct plan p;
	struct cJSON *sec;
	double v;

	(void)state;
	fill(&s, &p);
	sec = report_json_section(&s, &p, "time");
	assert_non_null(sec);
	assert_int_equal(report_json_get(sec, "step_s", &v, NULL), REPORT_JSON_NUMBER);
	assert_true(v == 7.5);
	report_json_free(sec);
	assert_null(report_json_section(&s, &p, "no_such_section"));
}

static void test_diff_json(void **state)
{
	struct scenario a, b;
	struct plan pa, pb;
	struct diff *d = malloc(sizeof(*d));
	struct cJSON *j;
	double v;
	const char *t;
	char *text;

	(void)state;
	fill(&a, &pa);
	fill(&b, &pb);
	b.hardware.count = 16;
	pb.mem.total = 2 * pa.mem.total;
	pb.mem.fits = false;
	diff_compute(&a, &pa, &b, &pb, d);
	j = report_json_diff(d, &a, &pa, &b, &pb);
	assert_non_null(j);
	text = report_json_print(j);
	report_json_free(j);
	j = report_json_parse(text);
	free(text);
	assert_int_equal(report_json_get(j, "schema", NULL, &t), REPORT_JSON_STRING);
	assert_string_equal(t, "gpuplan.diff/1");
	assert_int_equal(report_json_get(j, "inputs", &v, NULL), REPORT_JSON_ARRAY);
	assert_true(v == 1);
	assert_int_equal(report_json_get(j, "results", &v, NULL), REPORT_JSON_ARRAY);
	assert_true(v >= 1);
	assert_int_equal(report_json_get(j, "verdicts", &v, NULL), REPORT_JSON_ARRAY);
	assert_true(v == 1);
	assert_int_equal(report_json_get(j, "reports.b.memory.fits", &v, NULL), REPORT_JSON_BOOL);
	assert_true(v == 0);
	report_json_free(j);
	free(d);
}

static void test_get_missing(void **state)
{
	struct cJSON *j = report_json_parse("{\"a\": {\"b\": 1}}");

	(void)state;
	assert_non_null(j);
	assert_int_equal(report_json_get(j, "a.c", NULL, NULL), REPORT_JSON_MISSING);
	assert_int_equal(report_json_get(j, "a.b.c", NULL, NULL), REPORT_JSON_MISSING);
	assert_int_equal(report_json_get(j, "a", NULL, NULL), REPORT_JSON_OBJECT);
	report_json_free(j);
	assert_null(report_json_parse("{not json"));
	report_json_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_spec_key),
		cmocka_unit_test(test_types_and_values),
		cmocka_unit_test(test_does_not_fit),
		cmocka_unit_test(test_builtin_file_is_null),
		cmocka_unit_test(test_infinite_is_null),
		cmocka_unit_test(test_section),
		cmocka_unit_test(test_diff_json),
		cmocka_unit_test(test_get_missing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
