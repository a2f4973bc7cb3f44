/* test_time_kv.c - the time model's K/V projections follow each layer's own K/V heads
 * (issue 14: DeciLM's per-layer n_heads_in_group, model.kv_sum), checked against a hand
 * count. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "hf_config.h"
#include "plan.h"
#include "scenario.h"
#include "shipped_catalog.h"

/* A three-layer nemotron-nas config, hidden 1024, 16 heads of 64, every layer attention
 * and an MLP of ffn_mult 1; layer i has 16 / g[i] K/V heads. */
static void plan_groups(const int g[3], struct plan *p)
{
	static struct scenario s;
	char cfg[1024], blocks[512] = "";
	struct model m;
	struct gp_error err = {0};
	size_t n = 0;

	for (int i = 0; i < 3; i++)
		n += (size_t)snprintf(blocks + n, sizeof(blocks) - n,
				      "%s{\"attention\": {\"n_heads_in_group\": %d}, "
				      "\"ffn\": {\"ffn_mult\": 1.0}}",
				      i ? ", " : "", g[i]);
	snprintf(cfg, sizeof(cfg),
		 "{\"model_type\": \"nemotron-nas\", \"num_hidden_layers\": 3, "
		 "\"hidden_size\": 1024, \"num_attention_heads\": 16, \"vocab_size\": 1000, "
		 "\"block_configs\": [%s]}",
		 blocks);
	assert_int_equal(hf_config_parse(cfg, strlen(cfg), NULL, &m, &err), 0);
	scenario_init(&s);
	assert_int_equal(scenario_set(&s, cat, "workload.kind", "train", &err), 0);
	assert_int_equal(scenario_set(&s, cat, "hardware.gpu", "h100-sxm-80gb", &err), 0);
	assert_int_equal(scenario_set(&s, cat, "workload.seq_len", "4096", &err), 0);
	assert_int_equal(scenario_set(&s, cat, "workload.micro_batch", "4", &err), 0);
	assert_int_equal(scenario_set(&s, cat, "workload.global_batch", "4", &err), 0);
	s.model = m;
	plan_compute(&s, p);
	assert_true(p->parts.matmul_s > 0);
}

/* The hand count: at T = 16384 tokens a micro-batch every GEMM of these layers is
 * compute-bound, and a compute-bound GEMM's time is linear in its output width n
 * (plan_time.c gemm_s: 2 (m + c)(n + c)(k + c) / peak). The fused QKV projection of a
 * layer is n = q + 2 x kv wide, so the step's matmul time is linear in the K/V heads
 * summed over the layers. Layers of 4, 2 and 2 K/V heads (8 in all) sit a third of the
 * way from three layers of 2 (6) to three of 4 (12): (8 - 6) / (12 - 6). Taking the
 * rounded-up mean (kv_heads 4) would give the all-4 model's time. */
static void test_kv_projections_follow_each_layer(void **state)
{
	static const int two[3] = {8, 8, 8}, four[3] = {4, 4, 4}, mixed[3] = {4, 8, 8};
	struct plan a, b, mx;
	double want;
	(void)state;

	plan_groups(two, &a);
	plan_groups(four, &b);
	plan_groups(mixed, &mx);
	assert_int_equal(mx.model.kv_sum, 8);
	assert_int_equal(mx.model.kv_heads, 4);
	want = a.parts.matmul_s + (b.parts.matmul_s - a.parts.matmul_s) / 3;
	printf("matmul: 2 K/V heads %.6g s, 4 %.6g s, 4-2-2 %.6g s (hand count %.6g s)\n",
	       a.parts.matmul_s, b.parts.matmul_s, mx.parts.matmul_s, want);
	assert_true(b.parts.matmul_s > a.parts.matmul_s * 1.01);
	assert_true(fabs(mx.parts.matmul_s - want) < 1e-9 * want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_kv_projections_follow_each_layer),
	};
	return cmocka_run_group_tests(tests, shipped_catalog_setup, shipped_catalog_teardown);
}
