/* test_serving_offload.c - the prefix cache's tiers (workload.prefix_cache_tokens,
 * workload.host_kv_cache; src/plan_infer.c prefix_tiers): without a working set the plan
 * is the one of before; the device keeps prefixes only in the KV blocks the running batch
 * leaves free; a host tier keeps what the device evicts (SGLang HiRadixCache, vLLM's
 * OffloadingConnector), so the hit rate returns, and each hit held on the host is loaded
 * over PCIe ahead of the prefill (TTFT); a host tier without a working set is refused at
 * its place. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plan.h"
#include "scenario.h"
#include "scenario_yaml.h"
#include "shipped_catalog.h"
#include "serving_text.h"

#define TEAM "scenarios/team-serve-70b-5m-requests.yaml"

/* team-serve with the --set assignments in kv, up to a NULL */
static void team(struct scenario *s, const char *const *kv)
{
	struct gp_error err;
	if (scenario_load_file(TEAM, cat, s, NULL, NULL, &err) != 0)
		fail_msg("%s: %s", TEAM, err.message);
	for (; *kv; kv++)
		if (scenario_set_assignment(s, cat, *kv, &err) != 0)
			fail_msg("--set %s: %s", *kv, err.message);
}

static void set(struct scenario *s, const char *kv)
{
	struct gp_error err;
	if (scenario_set_assignment(s, cat, kv, &err) != 0)
		fail_msg("--set %s: %s", kv, err.message);
}

static void alone(struct scenario *s)
{
	static const char *const kv[] = {"workload.scheduler=alone",
					 "workload.prefix_cache_hit=0.6", NULL};
	team(s, kv);
}

/* no working set: every hit on the device, no load, the plan of before */
static void test_no_working_set(void **state)
{
	struct scenario s;
	struct plan p;
	(void)state;
	alone(&s);
	plan_compute(&s, &p);
	assert_true(isnan(p.prefix_hit) && isnan(p.host_kv_load_s));
}

/* batch auto fills the device's KV with running sequences: no room for prefixes, so a
 * working set without a host tier loses every hit (the TTFT of no cache), and a host tier
 * that holds it all gets them back, each loaded at hit x prompt x KV bytes / PCIe */
static void test_host_tier(void **state)
{
	struct scenario s, z;
	struct plan none, dev, host, half, nocache;
	double load;
	(void)state;
	alone(&s);
	z = s;
	set(&z, "workload.prefix_cache_hit=0");
	plan_compute(&z, &nocache);
	z = s;
	set(&z, "workload.prefix_cache_tokens=2M");
	plan_compute(&z, &dev);
	assert_true(dev.prefix_hit == 0);
	assert_true(dev.ttft_s == nocache.ttft_s);
	z = s;
	set(&z, "workload.prefix_cache_tokens=2M");
	set(&z, "workload.host_kv_cache=1TB");
	plan_compute(&z, &host);
	plan_compute(&s, &none);
	assert_true(fabs(host.prefix_hit - 0.6) < 1e-12);
	assert_true(host.prefix_host_share == 1);
	load = 0.6 * 1500 * host.mem.kv_bytes_per_token / z.hardware.gpu.pcie_bytes_per_s;
	printf("host tier: load %.4g ms of TTFT %.4g ms (device only %.4g, no cache %.4g)\n",
	       1e3 * host.host_kv_load_s, 1e3 * host.ttft_s, 1e3 * none.ttft_s,
	       1e3 * nocache.ttft_s);
	assert_true(fabs(host.host_kv_load_s / load - 1) < 1e-12);
	assert_true(fabs(host.ttft_s - (none.ttft_s + load)) < 1e-12 * host.ttft_s);
	/* the host-held hits still beat recomputing: a GPU's 80 kB share of the fp8 KV a
	 * token (320 kB over tp 4) over 64 GB/s, against the prefill */
	assert_true(host.ttft_s < nocache.ttft_s);
	/* a host tier of half the working set: half the hits */
	z = s;
	set(&z, "workload.prefix_cache_tokens=2M");
	{
		char kv[64];
		snprintf(kv, sizeof(kv), "workload.host_kv_cache=%.17g",
			 1e6 * host.mem.kv_bytes_per_token);
		set(&z, kv);
	}
	plan_compute(&z, &half);
	assert_true(fabs(half.prefix_hit - 0.3) < 1e-9);
	assert_true(half.ttft_s > host.ttft_s - host.host_kv_load_s + half.host_kv_load_s - 1e-12 &&
		    half.ttft_s < nocache.ttft_s);
}

/* SGLang loads a host-held prefix layer by layer under the prefill (HiCache load_back,
 * each layer's attention waiting for its own layer): TTFT carries only what the prefill's
 * layers do not hide, the first layer's copy when the copy is the shorter; the copy itself
 * is the same; vLLM's connector loads it ahead of the prefill, all of it. */
static void test_layerwise_load(void **state)
{
	static const char *const kv[] = {"workload.prefix_cache_tokens=2M",
					 "workload.host_kv_cache=1TB", NULL};
	struct scenario s, z;
	struct plan ahead, lw, lw_none;
	double L = 80, copy;
	(void)state;
	alone(&s);
	for (const char *const *k = kv; *k; k++)
		set(&s, *k);
	set(&s, "workload.framework=vllm");
	set(&s, "workload.scheduler=alone");
	plan_compute(&s, &ahead);
	z = s;
	set(&z, "workload.framework=sglang");
	set(&z, "workload.scheduler=alone");
	plan_compute(&z, &lw);
	set(&z, "workload.host_kv_cache=0");
	set(&z, "workload.prefix_cache_tokens=0");
	plan_compute(&z, &lw_none);
	copy = 0.6 * 1500 * lw.mem.kv_bytes_per_token / z.hardware.gpu.pcie_bytes_per_s;
	printf("host prefix %.3g ms: ahead (vllm) %.3g ms exposed, layer-wise (sglang) %.3g ms\n",
	       1e3 * copy, 1e3 * ahead.host_kv_load_s, 1e3 * lw.host_kv_load_s);
	assert_true(fabs(lw.host_kv_copy_s / copy - 1) < 1e-12);
	assert_true(fabs(ahead.host_kv_load_s - ahead.host_kv_copy_s) < 1e-15);
	/* the copy (under a millisecond) is shorter than the prefill of the 600 uncached tokens */
	assert_true(fabs(lw.host_kv_load_s - copy / L) < 1e-9 * copy);
	assert_true(fabs(lw.ttft_s - (lw_none.ttft_s + copy / L)) < 1e-9 * lw.ttft_s);
}

/* a batch below max_batch leaves the device free blocks: prefixes there, no load */
static void test_device_room(void **state)
{
	struct scenario s;
	struct plan p;
	(void)state;
	alone(&s);
	set(&s, "workload.batch=64");
	set(&s, "workload.prefix_cache_tokens=2M");
	plan_compute(&s, &p);
	assert_true(p.max_batch > 64);
	assert_true(p.prefix_hit > 0 && p.prefix_hit <= 0.6);
	assert_true(p.prefix_host_share == 0 && p.host_kv_load_s == 0);
	set(&s, "workload.host_kv_cache=1TB");
	plan_compute(&s, &p);
	assert_true(fabs(p.prefix_hit - 0.6) < 1e-12);
	assert_true(p.prefix_host_share > 0 && p.prefix_host_share < 1);
}

/* under a loaded scheduler the prompt's own passes carry the load */
static void test_loaded(void **state)
{
	struct scenario s, z;
	struct plan a, b;
	(void)state;
	{
		static const char *const kv[] = {"hardware.count=80",
						 "workload.prefix_cache_hit=0.6", NULL};
		team(&s, kv);
	}
	plan_compute(&s, &a);
	z = s;
	set(&z, "workload.prefix_cache_tokens=2M");
	set(&z, "workload.host_kv_cache=1TB");
	plan_compute(&z, &b);
	assert_false(b.serving.overloaded);
	printf("chunked: own passes %.4g -> %.4g ms (load %.4g ms)\n",
	       1e3 * a.serving.ttft_service_s, 1e3 * b.serving.ttft_service_s,
	       1e3 * b.host_kv_load_s);
	/* the load, and a hair more: the running batch grows by what the load adds */
	assert_true(b.serving.ttft_service_s - a.serving.ttft_service_s >= b.host_kv_load_s);
	assert_true(fabs(b.serving.ttft_service_s - a.serving.ttft_service_s - b.host_kv_load_s) <
		    0.05 * b.host_kv_load_s);
	/* decode does not read the host: the gap moves only with the batch, a hair */
	assert_true(fabs(b.serving.tpot_mean_s / a.serving.tpot_mean_s - 1) < 1e-3);
}

/* a host tier without the tokens it would hold, or a working set without hits */
static void test_bad(void **state)
{
	struct gp_error err;
	(void)state;
	assert_int_not_equal(
	    load_text("gpuplan: 1\nmodel:\n  preset: llama-2-7b\nhardware:\n  gpu: a100-80gb-sxm\n"
		      "workload:\n"
		      "  kind: online\n  prompt_tokens: 500\n  output_tokens: "
		      "100\n  host_kv_cache: 100GB\n",
		      &err),
	    0);
	printf("%s\n", err.message);
	assert_non_null(strstr(err.message, "prefix_cache_tokens"));
	assert_int_equal(err.line, 10);
	assert_int_equal(err.column, 3);
	assert_int_not_equal(
	    load_text("gpuplan: 1\nmodel:\n  preset: llama-2-7b\nhardware:\n  gpu: a100-80gb-sxm\n"
		      "workload:\n"
		      "  kind: online\n  prompt_tokens: 500\n  output_tokens: "
		      "100\n  prefix_cache_tokens: 1M\n",
		      &err),
	    0);
	printf("%s\n", err.message);
	assert_non_null(strstr(err.message, "prefix_cache_hit"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_no_working_set), cmocka_unit_test(test_host_tier),
	    cmocka_unit_test(test_layerwise_load), cmocka_unit_test(test_device_room),
	    cmocka_unit_test(test_loaded),	   cmocka_unit_test(test_bad),
	};
	return cmocka_run_group_tests(tests, shipped_catalog_setup, shipped_catalog_teardown);
}
