/* test_hf_quant_skip.c - a quantization_config's own list of modules left unquantized
 * (compressed-tensors ignore, ModelOpt exclude_modules, transformers' modules_to_not_convert):
 * what covers every layer is planned 16-bit, attention included (workload.attention_weights),
 * and what the plan cannot express is warned with the parameters it may miscount. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "dtype.h"
#include "hf_config.h"
#include "plan.h"
#include "scenario.h"
#include "scenario_sets.h"
#include "shipped_catalog.h"

#define DATA "tests/data/configs/"

/* A temporary config.json: the published config at base with quantization_config qc
 * added as its last key (base's own renamed out of the way). */
static void with_quant(const char *base, const char *qc, char *path, size_t n)
{
	static char text[1 << 16];
	FILE *f = fopen(base, "rb");
	size_t len;
	int fd;

	assert_non_null(f);
	len = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[len] = '\0';
	{
		char *own = strstr(text, "\"quantization_config\"");
		if (own)
			memcpy(own + 1, "quantization_IGNORE", 19);
	}
	while (len > 0 && text[len - 1] != '}')
		len--;
	assert_true(len > 0);
	snprintf(path, n, "/tmp/gpuplan-quant-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	fprintf(f, "%.*s, \"quantization_config\": %s}\n", (int)(len - 1), text, qc);
	fclose(f);
}

static void import(const char *path, struct model *m, struct hf_config_info *info)
{
	struct gp_error err = {0};
	assert_int_equal(hf_config_load_file_info(path, m, info, &err), 0);
	for (int i = 0; i < info->nwarnings; i++)
		printf("  warning: %s\n", info->warnings[i]);
}

/* The warning that has every one of the NULL-ended strings, or NULL. */
static const char *warned(const struct hf_config_info *info, const char *const *has)
{
	for (int i = 0; i < info->nwarnings; i++) {
		bool all = true;
		for (const char *const *h = has; *h; h++)
			all = all && strstr(info->warnings[i], *h);
		if (all)
			return info->warnings[i];
	}
	return NULL;
}

static bool any_miscount(const struct hf_config_info *info)
{
	static const char *const a[] = {"miscounted", NULL}, *const b[] = {"no module gpuplan models", NULL};
	return warned(info, a) || warned(info, b);
}

/* Online on one B200, the model from path, then sets (NULL-ended). */
static void plan_path(const char *path, const char *const *sets, struct scenario *s,
		      struct plan *p)
{
	struct gp_error err = {0};
	char what[300];

	snprintf(what, sizeof(what), "model.hf_config=%s", path);
	scenario_init(s);
	assert_int_equal(scenario_load_assignment(s, cat, what, &err), 0);
	assert_int_equal(scenario_set(s, cat, "workload.kind", "online", &err), 0);
	assert_int_equal(scenario_set(s, cat, "hardware.gpu", "b200", &err), 0);
	assert_int_equal(scenario_set(s, cat, "workload.batch", "1", &err), 0);
	for (; sets && *sets; sets++)
		assert_int_equal(scenario_load_assignment(s, cat, *sets, &err), 0);
	plan_compute(s, p);
}

/* gpt-oss's modules_to_not_convert (openai/gpt-oss-20b config.json, tests/data/configs):
 * every pattern matches its modules (self_attn, mlp.router, embed_tokens, lm_head, as
 * transformers' should_convert_module matches them), none is warned. */
static void test_gpt_oss_list(void **state)
{
	struct model m;
	static struct hf_config_info info;
	(void)state;

	import(DATA "gpt-oss-20b.json", &m, &info);
	assert_true(m.quant.weights == DTYPE_BF16 && m.quant.experts == DTYPE_MXFP4);
	assert_false(any_miscount(&info));
}

/* MiniMax-M2's NVFP4 export, whose quantization_config (quant_method modelopt, quant_algo
 * NVFP4, "ignore": ["lm_head", "model.layers.*.block_sparse_moe.gate",
 * "model.layers.*.self_attn*"]) a Rust loader's unit test quotes (its
 * m2_config_json fixture; found with find_string on "model.layers.*.self_attn*"), on
 * Mixtral 8x7B, whose modules are named as MiniMax-M2's (block_sparse_moe): attention
 * bf16, experts nvfp4. The bytes, module by module: per layer q, o 4096^2, k, v
 * 4096 x 1024 (bf16), 8 experts of 3 x 4096 x 14336 (nvfp4), the router 8 x 4096 and two
 * norms (bf16); embedding and head 32000 x 4096 and the final norm, bf16. */
static void test_modelopt_attention_bf16(void **state)
{
	static const char *const same[] = {"workload.attention_weights=same", NULL};
	static const char *const kept[] = {"attention projections kept bf16", NULL};
	char path[64];
	struct model m;
	static struct hf_config_info info;
	struct scenario s;
	struct plan p, ps;
	double attn = 2.0 * 4096 * 4096 + 2.0 * 4096 * 1024, ex = 8 * 3.0 * 4096 * 14336;
	double b4 = dtype_bytes(DTYPE_NVFP4), want;
	(void)state;

	with_quant(DATA "Mixtral-8x7B-v0.1.json",
		   "{\"quant_algo\": \"NVFP4\", \"quant_method\": \"modelopt\", \"weights\": "
		   "{\"num_bits\": 4, \"type\": \"float\", \"group_size\": 16}, \"ignore\": "
		   "[\"lm_head\", \"model.layers.*.block_sparse_moe.gate\", "
		   "\"model.layers.*.self_attn*\"]}",
		   path, sizeof(path));
	import(path, &m, &info);
	assert_true(m.quant.attn_16 && m.quant.weights == DTYPE_NVFP4);
	assert_true(m.quant.experts == DTYPE_NVFP4);
	assert_non_null(warned(&info, kept));
	assert_false(any_miscount(&info));

	plan_path(path, NULL, &s, &p);
	want = 32 * (attn * 2 + ex * b4 + 8 * 4096 * 2 + 2 * 4096 * 2) + 2 * 32000.0 * 4096 * 2 +
	       4096 * 2;
	printf("Mixtral 8x7B, attention bf16, experts nvfp4: %.6g bytes, module sum %.6g\n",
	       p.mem.weights, want);
	assert_true(p.mem.weights > want * (1 - 1e-9) && p.mem.weights < want * (1 + 1e-9));

	/* the scenario overrides the checkpoint: attention as workload.weights */
	plan_path(path, same, &s, &ps);
	want = 32 * attn * (2 - b4);
	assert_true(p.mem.weights - ps.mem.weights > want * (1 - 1e-9) &&
		    p.mem.weights - ps.mem.weights < want * (1 + 1e-9));
	/* and decode reads what memory holds */
	assert_true(p.decode.weight_read_s > ps.decode.weight_read_s);
	unlink(path);
}

/* A DeepSeek-V3-architecture NVFP4 list (sglang's GLM-5.2 loader test, QUANT_CONFIGS
 * "nvfp4": quant_method modelopt, "ignore": ["lm_head", "model.layers.*.self_attn*",
 * "model.layers.*.mlp.shared_experts*", "model.layers.0.mlp*", "model.layers.*.mlp.gate"])
 * on DeepSeek-V3's shape: attention bf16 in every layer is planned; the shared experts
 * bf16 in all 58 MoE layers while layers 1 and 2's dense MLPs stay nvfp4, and layer 0's
 * dense MLP alone bf16, are not expressible and are warned with their parameters:
 * 3 x 7168 x 18432 = 396,361,728 (one dense MLP) and 58 x 3 x 7168 x 2048 =
 * 2,554,331,136 (the shared experts). */
static void test_modelopt_some_layers(void **state)
{
	static const char *const mlp[] = {"'model.layers.0.mlp*'", "dense MLPs", "1 of 3 layers",
					  "3.96e+08", NULL};
	static const char *const shared[] = {"shared experts", "58 of 58 layers", "2.55e+09",
					     NULL};
	char path[64];
	struct model m;
	static struct hf_config_info info;
	(void)state;

	with_quant(DATA "DeepSeek-V3.json",
		   "{\"quant_method\": \"modelopt\", \"quant_algo\": \"NVFP4\", \"group_size\": "
		   "16, \"ignore\": [\"lm_head\", \"model.layers.*.self_attn*\", "
		   "\"model.layers.*.mlp.shared_experts*\", \"model.layers.0.mlp*\", "
		   "\"model.layers.*.mlp.gate\"]}",
		   path, sizeof(path));
	import(path, &m, &info);
	assert_true(m.quant.attn_16 && m.quant.weights == DTYPE_NVFP4);
	assert_non_null(warned(&info, mlp));
	assert_non_null(warned(&info, shared));

	/* the attention kept bf16 is 61 layers of MLA: q_a 7168 x 1536, q_b 1536 x 128 x 192,
	 * kv_a_proj_with_mqa 7168 x 576, kv_b 512 x 128 x 256, o 128 x 128 x 7168 and the
	 * q_a and kv_a norms (1536 + 512): 187,107,328 a layer (modeling_deepseek_v3.py
	 * DeepseekV3Attention), each 2 bytes instead of nvfp4's */
	{
		static const char *const same[] = {"workload.attention_weights=same", NULL};
		struct scenario s;
		struct plan p, ps;
		double want = 61 * 187107328.0 * (2 - dtype_bytes(DTYPE_NVFP4));
		plan_path(path, NULL, &s, &p);
		plan_path(path, same, &s, &ps);
		printf("DeepSeek-V3 attention bf16 over nvfp4: %.6g bytes, module sum %.6g\n",
		       p.mem.weights - ps.mem.weights, want);
		assert_true(p.mem.weights - ps.mem.weights > want * (1 - 1e-9) &&
			    p.mem.weights - ps.mem.weights < want * (1 + 1e-9));
	}
	unlink(path);
}

/* NVIDIA ModelOpt's NVFP4 export of a DeepSeek-V3-architecture model keeps everything but
 * the routed experts 16-bit: exclude_modules "lm_head", "model.layers.0*",
 * "model.layers.1.*", "model.layers.2.*" (the dense layers whole) and, for every MoE layer
 * N, "model.layers.N.self_attn*" and "model.layers.N.mlp.shared_experts*" (the "NVIDIA
 * reference format" a ModelOpt-compatible merge script rebuilds, build_hf_quant_config;
 * the GLM-5.2-NVFP4 checkpoint's hf_quant_config.json has the same list, its byte census
 * finding only mlp.experts packed e2m1). Dense MLPs and shared experts 16-bit together
 * with attention are workload.weights bf16 and expert_weights nvfp4, gpt-oss's shape: no
 * field of their own is needed, and nothing is warned as miscounted. */
static void test_modelopt_experts_only(void **state)
{
	static char qc[8192];
	char path[64];
	size_t n = 0;
	struct model m;
	static struct hf_config_info info;
	(void)state;

	n += (size_t)snprintf(qc + n, sizeof(qc) - n,
			      "{\"quant_method\": \"modelopt\", \"quant_algo\": \"NVFP4\", "
			      "\"group_size\": 16, \"exclude_modules\": [\"lm_head\", "
			      "\"model.layers.0*\", \"model.layers.1.*\", \"model.layers.2.*\"");
	for (int i = 3; i < 61; i++)
		n += (size_t)snprintf(qc + n, sizeof(qc) - n,
				      ", \"model.layers.%d.self_attn*\", "
				      "\"model.layers.%d.mlp.shared_experts*\"",
				      i, i);
	snprintf(qc + n, sizeof(qc) - n, "]}");
	with_quant(DATA "DeepSeek-V3.json", qc, path, sizeof(path));
	import(path, &m, &info);
	assert_true(m.quant.set && m.quant.experts == DTYPE_NVFP4);
	assert_int_equal(m.quant.weights, DTYPE_BF16);
	assert_false(any_miscount(&info));
	{
		struct scenario s;
		struct plan p;
		plan_path(path, NULL, &s, &p);
		assert_int_equal(s.workload.weights, DTYPE_BF16);
		assert_int_equal(workload_expert_weights(&s.workload), DTYPE_NVFP4);
	}
	unlink(path);
}

/* compressed-tensors (llm-compressor): "ignore": ["lm_head", "re:.*mlp.gate$"], the list
 * llm-compressor's examples give Qwen MoE and DeepSeek models (QeRL's notes, "MoE-Specific
 * Exclusions"; an FP8_BLOCK recipe's recipe_spec), matched as vLLM's compressed_tensors
 * utils match them: the routers, already bf16, and the head: nothing to warn. Without
 * lm_head the head is quantized: warned with its 151936 x 2048 parameters; a pattern
 * naming a module Qwen3-MoE has not (llm-compressor's Qwen3.5 "re:.*linear_attn.*") is
 * named; "re:.*self_attn" (llm-compressor's MXFP4 advice) keeps attention bf16. */
static void test_compressed_tensors(void **state)
{
	static const char *const head[] = {"does not list lm_head", "3.11e+08", NULL};
	static const char *const unknown[] = {"'re:.*linear_attn.*'", "no module gpuplan models", NULL};
	char path[64], qc[1024];
	struct model m;
	static struct hf_config_info info;
	const char *fmt = "{\"config_groups\": {\"group_0\": {\"targets\": [\"Linear\"], "
			  "\"weights\": {\"num_bits\": 8, \"type\": \"float\", \"strategy\": "
			  "\"block\", \"block_structure\": [128, 128]}}}, \"format\": "
			  "\"float-quantized\", \"quant_method\": \"compressed-tensors\", "
			  "\"ignore\": [%s]}";
	(void)state;

	snprintf(qc, sizeof(qc), fmt, "\"lm_head\", \"re:.*mlp.gate$\"");
	with_quant(DATA "Qwen3-30B-A3B.json", qc, path, sizeof(path));
	import(path, &m, &info);
	unlink(path);
	assert_true(m.quant.weights == DTYPE_FP8 && !m.quant.attn_16);
	assert_false(any_miscount(&info));

	snprintf(qc, sizeof(qc), fmt, "\"re:.*mlp.gate$\", \"re:.*linear_attn.*\"");
	with_quant(DATA "Qwen3-30B-A3B.json", qc, path, sizeof(path));
	import(path, &m, &info);
	unlink(path);
	assert_non_null(warned(&info, head));
	assert_non_null(warned(&info, unknown));

	snprintf(qc, sizeof(qc), fmt, "\"lm_head\", \"re:.*mlp.gate$\", \"re:.*self_attn\"");
	with_quant(DATA "Qwen3-30B-A3B.json", qc, path, sizeof(path));
	import(path, &m, &info);
	unlink(path);
	assert_true(m.quant.attn_16 && m.quant.weights == DTYPE_FP8);
	assert_false(any_miscount(&info));
}

/* Not a published list: layer 0's attention kept bf16 by name, as compressed-tensors
 * writes per-module entries: 1 of 48 layers, warned with that layer's 4096 x 2048 x 2 +
 * 512 x 2048 x 2 + two 128-wide q/k norms = 18,874,624 parameters. */
static void test_one_layer_by_name(void **state)
{
	static const char *const one[] = {"attention projections", "1 of 48 layers", "1.89e+07",
					  NULL};
	char path[64];
	struct model m;
	static struct hf_config_info info;
	(void)state;

	with_quant(DATA "Qwen3-30B-A3B.json",
		   "{\"config_groups\": {\"group_0\": {\"weights\": {\"num_bits\": 8, \"type\": "
		   "\"float\", \"strategy\": \"channel\"}}}, \"format\": \"float-quantized\", "
		   "\"quant_method\": \"compressed-tensors\", \"ignore\": [\"lm_head\", "
		   "\"model.layers.0.self_attn.q_proj\", \"model.layers.0.self_attn.k_proj\", "
		   "\"model.layers.0.self_attn.v_proj\", \"model.layers.0.self_attn.o_proj\"]}",
		   path, sizeof(path));
	import(path, &m, &info);
	unlink(path);
	assert_false(m.quant.attn_16);
	assert_non_null(warned(&info, one));
}

/* AutoAWQ's Mixtral export: "modules_to_not_convert": ["gate"] (a Mixtral-8x7B AWQ
 * config.json, bits 4, group_size 128, version gemm, as a KV-cache planner's fixture
 * transcribes it; found with find_string on that list): transformers' matcher takes
 * "gate" as a suffix of block_sparse_moe.gate, the router, bf16 already: no warning. */
static void test_awq_router(void **state)
{
	char path[64];
	struct model m;
	static struct hf_config_info info;
	(void)state;

	with_quant(DATA "Mixtral-8x7B-v0.1.json",
		   "{\"bits\": 4, \"group_size\": 128, \"modules_to_not_convert\": [\"gate\"], "
		   "\"quant_method\": \"awq\", \"version\": \"gemm\", \"zero_point\": true}",
		   path, sizeof(path));
	import(path, &m, &info);
	unlink(path);
	assert_true(m.quant.weights == DTYPE_INT4 && m.quant.experts == DTYPE_INT4);
	assert_false(m.quant.attn_16);
	assert_false(any_miscount(&info));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_gpt_oss_list),
	    cmocka_unit_test(test_modelopt_attention_bf16),
	    cmocka_unit_test(test_modelopt_some_layers),
	    cmocka_unit_test(test_modelopt_experts_only),
	    cmocka_unit_test(test_compressed_tensors),
	    cmocka_unit_test(test_one_layer_by_name),
	    cmocka_unit_test(test_awq_router),
	};
	return cmocka_run_group_tests(tests, shipped_catalog_setup, shipped_catalog_teardown);
}
