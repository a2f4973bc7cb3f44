/* test_presets.c - this year's catalog presets (catalog/models/, sources in its README.md)
 * give the published parameter counts, and quantization_config names the weights' format.
 *
 * "Exact" figures are Hugging Face's safetensors metadata totals (the count on the model
 * page) and are asserted to the parameter; a figure published to three significant digits
 * (a model card's "5.13B active") is asserted to that precision. Tests run from the
 * repository root (make check). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "explain.h"
#include "hf_config.h"
#include "model.h"
#include "plan.h"
#include "scenario.h"
#include "shipped_catalog.h"
#include "measured_rows.h"

#define MODELS "catalog/models/"

/* The exact counts: one copy, shared with `gpuplan validate`
 * (tests/validation/parameter-counts.yaml, each row's source there). */
#define ROWS "tests/validation/parameter-counts.yaml"

static struct validation rows;

/* The published count of the row with this id. */
static double published(const char *id)
{
	return measured_row(&rows, id)->measured;
}

#define assert_count(got, want) assert_int_equal((long long)(got), (long long)(want))

struct preset {
	struct model r;
	struct model_params p;
	struct hf_config_info info;
};

static void load(const char *id, struct preset *out)
{
	char path[256], buf[700];
	struct model m;
	struct gp_error err = {0};

	snprintf(path, sizeof(path), MODELS "%s.json", id);
	if (hf_config_load_file_info(path, &m, &out->info, &err) != 0)
		fail_msg("%s", gp_error_format(&err, buf, sizeof(buf)));
	model_resolve(&m, &out->r, NULL);
	model_count_params(&out->r, &out->p);
	/* the catalog holds the same model under the id */
	if (!catalog_find_model(cat, id))
		fail_msg("catalog has no model '%s'", id);
}

/* |got - want| within half a unit of the figure's last digit */
static void assert_published(double got, double want, double unit)
{
	if (!(fabs(got - want) <= unit / 2))
		fail_msg("%.0f is not %.0f to within %.0f", got, want, unit / 2);
}

static void test_llama_3_2(void **state)
{
	struct preset a, b;
	(void)state;
	/* meta-llama/Llama-3.2-1B and -3B safetensors totals: 1,235,814,400 and
	 * 3,212,749,824 (model card: 1.23B, 3.21B); tied embeddings */
	load("llama-3.2-1b", &a);
	assert_true(a.r.tied_embeddings);
	assert_count(a.p.total, published("llama-3.2-1b-params"));
	load("llama-3.2-3b", &b);
	assert_count(b.p.total, published("llama-3.2-3b-params"));
}

static void test_llama_4(void **state)
{
	struct preset s, m;
	(void)state;
	/* meta-llama/Llama-4-Scout-17B-16E: 108,641,793,536 with the vision encoder
	 * (safetensors, "109B"), 17B active; every layer MoE with 16 experts */
	load("llama-4-scout", &s);
	assert_int_equal(s.r.moe.experts, 16);
	assert_int_equal(s.r.moe.dense_layers, 0);
	assert_count(s.p.total + s.info.vision_params, published("llama-4-scout-params"));
	assert_published(s.p.active, 17e9, 1e9);
	/* the base model's context, as its config.json gives it (262144 = 8192 x rope factor
	 * 8), not the Instruct model's 10M (10485760): the preset follows the file */
	assert_int_equal(s.r.max_context, 262144);
	/* Llama-4-Maverick-17B-128E: 401,583,781,376 ("400B total", safetensors "402B"),
	 * 17B active; MoE in every other layer, dense intermediate_size_mlp in the rest */
	load("llama-4-maverick", &m);
	assert_int_equal(m.r.moe.experts, 128);
	assert_int_equal(m.r.moe.dense_layers, 24);
	assert_count(m.p.total + m.info.vision_params, published("llama-4-maverick-params"));
	assert_published(m.p.active, 17e9, 1e9);
	/* Maverick's config: a 1M context and no rope_scaling */
	assert_int_equal(m.r.max_context, 1048576);
}

static void test_gpt_oss(void **state)
{
	struct preset a, b;
	double attn, expert, emb;
	(void)state;
	/* gpt-oss model card (arXiv 2508.10925, Table 1): 20.91B total, 3.61B active;
	 * 116.83B total, 5.13B active. Active there counts the unembedding, not the
	 * embedding table. Module by module (modeling_gpt_oss.py): q (64 x 64), k and v (8 x
	 * 64), o, each with a bias, and 64 sinks; two RMSNorms; a router over the experts
	 * with a bias; each expert's gate_up (2 x 2880) and down with biases; a final norm;
	 * an untied 201088 x 2880 embedding and head. 20b: 24 layers of 32 experts, top 4:
	 * 20,914,757,184 total, 3,608,307,264 active without the embedding. 120b: 36 layers
	 * of 128: 116,829,156,672 total, 5,132,849,472 active without it. */
	attn = 2880.0 * 4096 + 4096 + 2 * (2880.0 * 512 + 512) + 4096.0 * 2880 + 2880 + 64;
	expert = 3.0 * 2880 * 2880 + 2 * 2880 + 2880;
	emb = 201088.0 * 2880;
	load("gpt-oss-20b", &a);
	assert_published(a.p.total, 20.91e9, 0.01e9);
	assert_published(a.p.active - a.p.embedding, 3.61e9, 0.01e9);
	assert_count(a.p.total,
		     2 * emb + 2880 + 24 * (attn + 2 * 2880 + 2880 * 32 + 32 + 32 * expert));
	assert_count(a.p.total, 20914757184LL);
	assert_count(a.p.active - a.p.embedding, 3608307264LL);
	load("gpt-oss-120b", &b);
	assert_int_equal(b.r.layers, 36);
	assert_int_equal(b.r.moe.experts, 128);
	assert_published(b.p.total, 116.83e9, 0.01e9);
	assert_published(b.p.active - b.p.embedding, 5.13e9, 0.01e9);
	assert_count(b.p.total,
		     2 * emb + 2880 + 36 * (attn + 2 * 2880 + 2880 * 128 + 128 + 128 * expert));
	assert_count(b.p.active - b.p.embedding,
		     emb + 2880 + 36 * (attn + 2 * 2880 + 2880 * 128 + 128 + 4 * expert));
	assert_count(b.p.total, 116829156672LL);
	assert_count(b.p.active - b.p.embedding, 5132849472LL);
}

static void test_dense_2025(void **state)
{
	struct preset g, q, ms, phi;
	(void)state;
	/* google/gemma-3-27b-it: 27,432,406,640 with SigLIP and the projector (safetensors,
	 * "27.4B"); its text_config has no vocab_size (Gemma3TextConfig's 262208) and no
	 * sliding_window_pattern (Gemma3TextConfig's 6: layers 5, 11, ..., 59 global, 10 of
	 * 62; the other 52 attend over 1024 tokens) */
	load("gemma-3-27b", &g);
	assert_int_equal(g.r.vocab, 262208);
	assert_int_equal(g.r.sliding_window, 1024);
	assert_int_equal(g.r.global_layers, 10);
	assert_count(g.p.total + g.info.vision_params, published("gemma-3-27b-params"));
	/* Qwen/Qwen3-32B model card: 32.8B, 31.2B non-embedding (untied) */
	load("qwen3-32b", &q);
	assert_count(q.p.total, published("qwen3-32b-params"));
	assert_published(q.p.total, 32.8e9, 0.1e9);
	assert_published(q.p.total - q.p.embedding - q.p.head, 31.2e9, 0.1e9);
	/* mistralai/Mistral-Small-24B-Instruct-2501 (the preset's published config.json):
	 * 23,572,403,200 (safetensors, "24B"; its model.safetensors.index.json total_size
	 * 47,144,806,400 bytes is 2 bytes each in bf16; Base-2501 has the same shape, and
	 * Mistral Small 3.1/3.2 add a 438,958,080-parameter vision encoder to it) */
	load("mistral-small-3", &ms);
	assert_count(ms.p.total, published("mistral-small-3-params"));
	/* microsoft/phi-4: 14,659,507,200 (safetensors, "14.7B") */
	load("phi-4", &phi);
	assert_count(phi.p.total, published("phi-4-params"));
}

/* Qwen/Qwen3-235B-A22B (modeling_qwen3_moe.py), module by module: bias-free q (64 x 128),
 * k and v (4 x 128), o; q_norm and k_norm over one head (128 each); two RMSNorms; a
 * bias-free router over 128 experts of gate, up and down (1536), top 8; a final norm; an
 * untied 151936 x 4096 embedding and head: 235,093,634,560 total (the card's "235B") and
 * 22,190,763,520 active (its "22B activated"; 22.2B). */
static void test_qwen3_235b(void **state)
{
	struct preset q;
	double layer, expert, fixed;
	(void)state;
	load("qwen3-235b-a22b", &q);
	assert_int_equal(q.r.layers, 94);
	assert_int_equal(q.r.moe.experts, 128);
	assert_int_equal(q.r.moe.active, 8);
	expert = 3.0 * 4096 * 1536;
	layer = 2 * 4096.0 * 8192 + 2 * 4096.0 * 512 + 2 * 128 + 2 * 4096 + 4096.0 * 128;
	fixed = 2.0 * 151936 * 4096 + 4096;
	assert_count(q.p.total, fixed + 94 * (layer + 128 * expert));
	assert_count(q.p.active, fixed + 94 * (layer + 8 * expert));
	assert_count(q.p.total, 235093634560LL);
	assert_count(q.p.active, 22190763520LL);
}

static void test_deepseek_r1(void **state)
{
	struct preset r;
	(void)state;
	/* deepseek-ai/DeepSeek-R1's config.json (DeepSeek-V3's keys and dimensions,
	 * transformers_version 4.46.3): 671B total, 37B active
	 * (model card; the 685B on the model page adds the 14B multi-token-prediction
	 * module, which num_nextn_predict_layers names and inference does not load). Active
	 * counted as gpt-oss's card counts it, without the embedding table: 36.6B, "37B";
	 * with it, 37.6B. */
	load("deepseek-r1", &r);
	assert_published(r.p.total, 671e9, 1e9);
	assert_published(r.p.active - r.p.embedding, 37e9, 1e9);
	/* Module by module (modeling_deepseek.py, as test_hf_config.c's test_deepseek_v3
	 * spells out): 61 MLA attentions and norm pairs, 3 dense MLPs of 18432, 58 MoE layers
	 * of a router, 256 routed experts and a shared one of 2048, an untied 129280 x 7168
	 * embedding and head: 671,026,404,352 total (DeepSeek's README_WEIGHTS: "671B" main
	 * model, the MTP module apart), 37,552,282,624 active with the embedding. */
	assert_count(r.p.total, 671026404352LL);
	assert_count(r.p.active, 37552282624LL);
	/* One dense layer as torchinfo counts transformers' DeepseekV3DecoderLayer built
	 * from this config.json with intermediate_size cut to 1843: 226,753,536, of which
	 * the gate, up and down projections are 3 x 7168 x 1843; the rest is one layer's
	 * MLA attention (q_a, q_a_layernorm, q_b, kv_a_proj_with_mqa, kv_a_layernorm,
	 * kv_b, o_proj) and its two RMSNorms (catalog/models/README.md names the note) */
	assert_count(r.p.attention + r.p.norms, 226753536LL - 3LL * 7168 * 1843);
	assert_count(r.p.mlp_one, 3LL * 7168 * 18432);
}

/* quantization_config: the format named, and the workload.weights that can hold it. */
/* The hybrid presets (catalog/models/README.md) and the NAS-pruned Nemotron Super 49B, counted module by module as
 * tests/unit/test_hf_config.c's test_ssm_families and test_qwen3_next spell out:
 * Mamba-Codestral 7,285,403,648 (Mistral's announcement, exactly); Jamba 1.5 Mini
 * 51,570,323,328 / 12,110,311,296 (the card's "52B total, 12B active"); Nemotron Nano 9B v2
 * 8,888,227,328 (Hugging Face's "8.89B"); Qwen3-Next-80B-A3B 79,674,391,296 / 3,874,929,408
 * (the card's "80B total, 3B activated"; a test of Qwen3-Coder-Next's tensors gives the
 * same two). Each keeps a fixed state in place of KV in its state-space layers. */
static void test_hybrids(void **state)
{
	struct preset a;
	(void)state;

	load("mamba-codestral", &a);
	assert_count(a.p.total, published("mamba-codestral-params"));
	assert_int_equal(model_attention_layers(&a.r), 0);
	load("jamba-1.5-mini", &a);
	assert_count(a.p.total, published("jamba-1.5-mini-params"));
	assert_count(a.p.active, published("jamba-1.5-mini-active"));
	assert_published(a.p.total, 52e9, 1e9);
	assert_published(a.p.active, 12e9, 1e9);
	load("nemotron-nano-9b", &a);
	assert_count(a.p.total, published("nemotron-nano-9b-params"));
	assert_published(a.p.total, 8.89e9, 0.01e9);
	load("qwen3-next-80b", &a);
	assert_count(a.p.total, published("qwen3-next-80b-params"));
	assert_count(a.p.active, published("qwen3-next-80b-active"));
	assert_published(a.p.total, 80e9, 1e9);
	assert_true(a.r.ssm.gated_delta && a.r.ssm.layers == 36);
	assert_true(model_ssm_state_elems(&a.r, NULL) > 0);
	/* DeciLM: 49,867,145,216, the checkpoint's size (test_hf_config.c, test_decilm_real) */
	load("nemotron-49b", &a);
	assert_count(a.p.total, published("nemotron-49b-params"));
	assert_int_equal(model_attention_layers(&a.r), 49);
}

static void test_quantization_config(void **state)
{
	struct preset r, o;
	struct hf_config_info info;
	struct model m;
	struct gp_error err = {0};
	static const char *const head =
	    "{\"model_type\": \"llama\", \"num_hidden_layers\": 2, \"hidden_size\": 64, "
	    "\"num_attention_heads\": 4, \"intermediate_size\": 128, \"vocab_size\": 10, ";
	static const struct {
		const char *quant;
		const char *method;
		int has;
		enum dtype weights;
	} cases[] = {
	    {"{\"quant_method\": \"fp8\", \"activation_scheme\": \"dynamic\"}", "fp8", 1,
	     DTYPE_FP8},
	    {"{\"quant_method\": \"gptq\", \"bits\": 4, \"group_size\": 128}", "gptq", 1,
	     DTYPE_INT4},
	    {"{\"quant_method\": \"gptq\", \"bits\": 8}", "gptq", 1, DTYPE_INT8},
	    {"{\"quant_method\": \"gptq\", \"bits\": 3}", "gptq", 1, DTYPE_INT3},
	    {"{\"quant_method\": \"gptq\", \"bits\": 5}", "gptq", 0, DTYPE_BF16},
	    {"{\"quant_method\": \"awq\", \"bits\": 4, \"version\": \"gemm\"}", "awq", 1,
	     DTYPE_INT4},
	    {"{\"quant_method\": \"bitsandbytes\", \"load_in_4bit\": true, "
	     "\"bnb_4bit_quant_type\": \"nf4\"}",
	     "bitsandbytes", 1, DTYPE_NF4},
	    {"{\"load_in_8bit\": true}", "bitsandbytes", 1, DTYPE_INT8},
	    {"{\"quant_method\": \"hqq\"}", "hqq", 1, DTYPE_INT4}, /* HqqConfig's defaults */
	    /* HqqConfig.to_dict's quant_config (hqq's BaseQuantizeConfig) read */
	    {"{\"quant_method\": \"hqq\", \"quant_config\": {\"weight_quant_params\": "
	     "{\"nbits\": 2, \"group_size\": 16, \"axis\": 1}}}",
	     "hqq", 1, DTYPE_INT2},
	    {"{\"quant_method\": \"hqq\", \"quant_config\": {\"weight_quant_params\": "
	     "{\"nbits\": 8, \"group_size\": 128}}}",
	     "hqq", 1, DTYPE_INT8},
	    /* values HqqConfig refuses: not modelled, as GPTQ's 5 bits */
	    {"{\"quant_method\": \"hqq\", \"quant_config\": {\"weight_quant_params\": "
	     "{\"nbits\": 5, \"group_size\": 64}}}",
	     "hqq", 0, DTYPE_BF16},
	    {"{\"quant_method\": \"hqq\", \"quant_config\": {\"weight_quant_params\": "
	     "{\"nbits\": 4, \"group_size\": 0}}}",
	     "hqq", 0, DTYPE_BF16},
	    {"{\"quant_method\": \"hqq\", \"quant_config\": {\"weight_quant_params\": "
	     "{\"nbits\": 4, \"group_size\": 64, \"axis\": 2}}}",
	     "hqq", 0, DTYPE_BF16},
	    {"{\"quant_method\": \"hqq\", \"quant_config\": {\"weight_quant_params\": "
	     "{\"nbits\": \"4\", \"group_size\": 64}}}",
	     "hqq", 0, DTYPE_BF16},
	    /* dynamic_config: one config a layer name, no weight_quant_params */
	    {"{\"quant_method\": \"hqq\", \"quant_config\": {\"self_attn.q_proj\": "
	     "{\"weight_quant_params\": {\"nbits\": 4, \"group_size\": 64}}}}",
	     "hqq", 0, DTYPE_BF16},
	};
	(void)state;
	/* DeepSeek-R1: fp8 e4m3 in 128 x 128 blocks */
	load("deepseek-r1", &r);
	assert_string_equal(r.info.quant_method, "fp8");
	assert_true(r.info.has_weights);
	assert_int_equal(r.info.weights, DTYPE_FP8);
	assert_non_null(strstr(r.info.warnings[r.info.nwarnings - 1], "128x128 blocks"));
	/* gpt-oss: the experts alone are MXFP4 (4.25 bits, dtype mxfp4), the rest bf16 */
	load("gpt-oss-120b", &o);
	assert_string_equal(o.info.quant_method, "mxfp4");
	assert_int_equal(o.info.weights, DTYPE_BF16);
	assert_int_equal(o.r.quant.experts, DTYPE_MXFP4);
	assert_non_null(strstr(o.info.warnings[o.info.nwarnings - 1], "4.25 bits"));
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[600];
		snprintf(text, sizeof(text), "%s\"quantization_config\": %s}", head,
			 cases[i].quant);
		if (hf_config_parse_info(text, strlen(text), "q.json", &m, &info, &err) != 0)
			fail_msg("%s: %s", cases[i].quant, err.message);
		assert_string_equal(info.quant_method, cases[i].method);
		assert_int_equal(info.has_weights, cases[i].has);
		if (cases[i].has)
			assert_int_equal(info.weights, cases[i].weights);
		assert_int_equal(info.nwarnings, 1);
		assert_non_null(strstr(info.warnings[0], "quantization_config"));
	}
	/* HQQ's skip_modules (linear tags, transformers integrations/hqq.py
	 * name_to_linear_tag) naming every attention projection: attention 16-bit */
	{
		char text[800];
		snprintf(text, sizeof(text),
			 "%s\"quantization_config\": {\"quant_method\": \"hqq\", "
			 "\"quant_config\": {\"weight_quant_params\": {\"nbits\": 4, "
			 "\"group_size\": 64}}, \"skip_modules\": [\"lm_head\", "
			 "\"self_attn.q_proj\", \"self_attn.k_proj\", \"self_attn.v_proj\", "
			 "\"self_attn.o_proj\"]}}",
			 head);
		if (hf_config_parse_info(text, strlen(text), "q.json", &m, &info, &err) != 0)
			fail_msg("%s", err.message);
		assert_true(m.quant.set && m.quant.weights == DTYPE_INT4 && m.quant.attn_16);
		assert_int_equal(m.quant.group, 64);
	}
	/* none: nothing said */
	{
		char text[600];
		snprintf(text, sizeof(text), "%s\"torch_dtype\": \"bfloat16\"}", head);
		assert_int_equal(
		    hf_config_parse_info(text, strlen(text), "q.json", &m, &info, &err), 0);
		assert_string_equal(info.quant_method, "");
		assert_false(info.has_weights);
		assert_int_equal(info.nwarnings, 0);
	}
}

/* Plans an online scenario of the preset with prompt + output tokens, batch 1, bf16 KV on
 * an H100, under framework fw ("default" or "vllm"). */
static void plan_kv_with(const char *id, int prompt, int output, const char *fw,
			 const char *extra, struct plan *p)
{
	char buf[3][64];
	const char *kv[] = {buf[0], "workload.kind=online", buf[1], buf[2],
			    "workload.kv_cache=bf16", "workload.weights=bf16",
			    "workload.batch=1", "hardware.gpu=h200", NULL, NULL, NULL};
	struct scenario s;
	struct gp_error err;
	char fwbuf[64];

	snprintf(buf[0], sizeof(buf[0]), "model.preset=%s", id);
	snprintf(buf[1], sizeof(buf[1]), "workload.prompt_tokens=%d", prompt);
	snprintf(buf[2], sizeof(buf[2]), "workload.output_tokens=%d", output);
	snprintf(fwbuf, sizeof(fwbuf), "workload.framework=%s", fw);
	kv[8] = fwbuf;
	kv[9] = extra;
	scenario_init(&s);
	for (const char *const *a = kv; *a; a++)
		if (scenario_set_assignment(&s, cat, *a, &err) != 0)
			fail_msg("%s: %s", *a, err.message);
	plan_compute(&s, p);
}

static void plan_kv(const char *id, int prompt, int output, const char *fw, struct plan *p)
{
	plan_kv_with(id, prompt, output, fw, NULL, p);
}

/* The KV cache of local/global models: a windowed layer keeps min(S, window) tokens, a
 * global one all S (Gemma 3 report, Section 2: 5 local layers of 1024 tokens per global
 * one; gpt-oss model card: alternating 128-token banded and dense layers; Llama 4: chunks
 * of 8192 in 3 of 4 layers). Bytes per token are 2 x kv_heads x head_dim x 2 (bf16) per
 * layer; the sequence holds (G S + L_local min(S, W)) / L tokens of them. vLLM reserves
 * min(W - 1 + max_num_batched_tokens, S) + one block per sliding layer and
 * min(C + max_num_batched_tokens, S) per chunked layer (vllm/v1/kv_cache_interface.py,
 * SlidingWindowSpec / ChunkedLocalAttentionSpec.max_admission_blocks_per_request; V1's
 * API-server default max_num_batched_tokens 2048, block 16). */
/* model.vision_params: the catalog's multimodal presets carry their vision tower, which a
 * serving plan holds in its weights (16-bit, as vLLM loads it) and a training plan and the
 * reported parameters leave out. google/gemma-3-27b-it at tp 1: the weights are the whole
 * bf16 checkpoint, 2 x 27,432,406,640 bytes. */
static void serve(const char *preset, const char *vision, int tp, const char *kind,
		  struct plan *p)
{
	struct scenario s;
	struct gp_error err;
	char t[16];

	snprintf(t, sizeof(t), "%d", tp);
	scenario_init(&s);
	assert_int_equal(scenario_set(&s, cat, "model.preset", preset, &err), 0);
	assert_int_equal(scenario_set(&s, cat, "workload.kind", kind, &err), 0);
	assert_int_equal(scenario_set(&s, cat, "hardware.gpu", "h200", &err), 0);
	assert_int_equal(scenario_set(&s, cat, "parallel.tp", t, &err), 0);
	if (vision)
		assert_int_equal(scenario_set(&s, cat, "model.vision_params", vision, &err), 0);
	plan_compute(&s, p);
}

static void test_vision_weights(void **state)
{
	struct preset g;
	struct plan with, without;
	double v;
	(void)state;
	load("gemma-3-27b", &g);
	v = g.info.vision_params;
	assert_true(g.r.vision_params == v && v > 400e6 && v < 450e6);
	serve("gemma-3-27b", NULL, 1, "online", &with);
	serve("gemma-3-27b", "0", 1, "online", &without);
	assert_true(with.model.vision_params == v);
	assert_count(with.mem.weights, 2 * published("gemma-3-27b-params"));
	assert_count(with.mem.weights - without.mem.weights, 2 * v);
	assert_true(with.params == without.params && with.params == g.p.total);
	/* split over tp as vLLM's tensor-parallel encoder is */
	serve("gemma-3-27b", NULL, 2, "online", &with);
	serve("gemma-3-27b", "0", 2, "online", &without);
	assert_count(with.mem.weights - without.mem.weights, v);
	assert_true(with.mem.vision_weights == v);
}

static bool has_warning(const struct plan *p, enum plan_warning_code code)
{
	for (int i = 0; i < p->nwarnings; i++)
		if (p->warnings[i].code == code)
			return true;
	return false;
}

/* Training and fine-tuning hold the vision tower too (plan_memory.c stage_memory): full
 * training trains it (weights, gradients and AdamW states at the model's bytes: bf16
 * weights and gradients, 12 B of fp32 master and moments, ZeRO Section 3), LoRA and QLoRA
 * keep it frozen at 16 bits with no gradient or state; every plan warns that image
 * tokens are not modelled. google/gemma-3-27b-it, tp 8, no ZeRO. */
static void test_vision_training(void **state)
{
	static const char *const methods[] = {"full", "lora", "qlora"};
	struct preset g;
	struct plan with, without;
	double v8;
	(void)state;
	load("gemma-3-27b", &g);
	v8 = g.info.vision_params / 8;
	serve("gemma-3-27b", NULL, 8, "train", &with);
	serve("gemma-3-27b", "0", 8, "train", &without);
	assert_count(with.mem.weights - without.mem.weights, 2 * v8);
	assert_count(with.mem.gradients - without.mem.gradients, 2 * v8);
	assert_count(with.mem.optimizer - without.mem.optimizer, 12 * v8);
	assert_count(with.mem.vision_optimizer, 12 * v8);
	assert_true(with.mem.total > without.mem.total + 16 * v8);
	assert_true(has_warning(&with, PW_VISION_NOT_MODELLED));
	assert_false(has_warning(&without, PW_VISION_NOT_MODELLED));
	for (int i = 0; i < 3; i++) {
		struct scenario s;
		struct gp_error err;
		struct plan *pp[2] = {&with, &without};
		for (int k = 0; k < 2; k++) {
			scenario_init(&s);
			assert_int_equal(scenario_set(&s, cat, "model.preset", "gemma-3-27b", &err),
					 0);
			assert_int_equal(scenario_set(&s, cat, "workload.kind", "finetune", &err),
					 0);
			assert_int_equal(
			    scenario_set(&s, cat, "workload.finetune.method", methods[i], &err), 0);
			assert_int_equal(scenario_set(&s, cat, "hardware.gpu", "h200", &err), 0);
			assert_int_equal(scenario_set(&s, cat, "parallel.tp", "8", &err), 0);
			if (k)
				assert_int_equal(
				    scenario_set(&s, cat, "model.vision_params", "0", &err), 0);
			plan_compute(&s, pp[k]);
		}
		assert_count(with.mem.weights - without.mem.weights, 2 * v8);
		if (i == 0) { /* full fine-tuning trains it */
			assert_count(with.mem.gradients - without.mem.gradients, 2 * v8);
			assert_count(with.mem.optimizer - without.mem.optimizer, 12 * v8);
		} else { /* frozen with the base */
			assert_true(with.mem.gradients == without.mem.gradients);
			assert_true(with.mem.optimizer == without.mem.optimizer);
			assert_true(with.mem.vision_gradients == 0);
		}
		assert_true(has_warning(&with, PW_VISION_NOT_MODELLED));
	}
	{
		/* the warning's text says what is missing */
		char buf[300];
		plan_warning_format(&with.warnings[0], buf, sizeof(buf));
		for (int i = 0; i < with.nwarnings; i++)
			if (with.warnings[i].code == PW_VISION_NOT_MODELLED)
				plan_warning_format(&with.warnings[i], buf, sizeof(buf));
		assert_non_null(strstr(buf, "image tokens are not modelled"));
		assert_non_null(strstr(buf, "423M"));
	}
	{
		/* explain names the term, its figure and where the rule comes from */
		static const char *const keys[] = {"memory.per_gpu.weights",
						   "memory.per_gpu.gradients",
						   "memory.per_gpu.optimizer"};
		struct scenario s;
		struct gp_error err;
		char buf[4096];
		scenario_init(&s);
		assert_int_equal(scenario_set(&s, cat, "model.preset", "gemma-3-27b", &err), 0);
		assert_int_equal(scenario_set(&s, cat, "workload.kind", "train", &err), 0);
		assert_int_equal(scenario_set(&s, cat, "hardware.gpu", "h200", &err), 0);
		assert_int_equal(scenario_set(&s, cat, "parallel.tp", "8", &err), 0);
		plan_compute(&s, &with);
		for (int i = 0; i < 3; i++) {
			assert_int_equal(
			    explain_key_wrapped(&s, &with, keys[i], 0, buf, sizeof(buf), &err), 0);
			assert_non_null(strstr(buf, "+ vision tower"));
			assert_non_null(strstr(buf, "model.vision_params 423M"));
			assert_non_null(strstr(buf, "encoder_trainable"));
		}
	}
}

static void test_window_kv(void **state)
{
	struct plan p;
	double S = 32768 + 1024, per = 62 * 2.0 * 16 * 128 * 2;
	(void)state;
	/* google/gemma-3-27b: 62 layers, 16 KV heads of 128, 10 global, window 1024 */
	plan_kv("gemma-3-27b", 32768, 1024, "default", &p);
	assert_true(fabs(p.mem.kv_bytes_per_token - per) < 1e-6);
	assert_true(fabs(p.mem.kv_tokens_per_seq - (10 * S + 52 * 1024.0) / 62) < 1e-6);
	assert_true(fabs(p.mem.kv_cache - 2.0 * 16 * 128 * 2 * (10 * S + 52 * 1024.0)) < 1);
	/* 5.06 x less than with every layer global */
	assert_true(p.mem.kv_tokens_per_seq < S / 5.0);
	plan_kv("gemma-3-27b", 32768, 1024, "vllm", &p);
	/* vLLM's budget on an H200 online: 8192 tokens (framework_vllm_batch) */
	assert_true(fabs(p.mem.kv_tokens_per_seq - (10 * S + 52 * (1023.0 + 8192 + 16)) / 62) <
		    1e-6);
	/* a short sequence: every layer keeps all of it */
	plan_kv("gemma-3-27b", 700, 100, "default", &p);
	assert_true(fabs(p.mem.kv_tokens_per_seq - 800) < 1e-9);

	/* openai/gpt-oss-120b: 36 layers, 8 KV heads of 64, 18 global, window 128 */
	plan_kv("gpt-oss-120b", 8000, 192, "default", &p);
	assert_true(fabs(p.mem.kv_bytes_per_token - 36 * 2.0 * 8 * 64 * 2) < 1e-6);
	assert_true(fabs(p.mem.kv_tokens_per_seq - (18 * 8192.0 + 18 * 128.0) / 36) < 1e-6);

	/* meta-llama/Llama-4-Scout: 48 layers, 8 KV heads of 128, 12 NoPE global layers, 36
	 * chunked at 8192 */
	plan_kv("llama-4-scout", 100000, 0 + 1, "default", &p);
	assert_true(fabs(p.mem.kv_tokens_per_seq - (12 * 100001.0 + 36 * 8192.0) / 48) < 1e-6);
	plan_kv("llama-4-scout", 100000, 1, "vllm", &p);
	assert_true(fabs(p.mem.kv_tokens_per_seq - (12 * 100001.0 + 36 * (8192.0 + 8192)) / 48) <
		    1e-6);
	/* the most sequences that fit follow: every layer global holds S per sequence */
	{
		struct plan all;
		plan_kv("gemma-3-27b", 32768, 1024, "default", &p);
		plan_kv_with("gemma-3-27b", 32768, 1024, "default", "model.global_layers=62", &all);
		assert_true(fabs(all.mem.kv_tokens_per_seq - S) < 1e-9);
		assert_true(p.max_batch > 4 * all.max_batch);
	}
}

/* Every row of parameter-counts.yaml: the count `gpuplan validate` reads from the plan is
 * the published one to the parameter, and for a preset the count of this test's own load
 * of the preset's config (model_count_params, plus the vision tower where the row's figure
 * is derived.checkpoint_params; an imported config's, test_hf_config.c's). */
static void test_every_row(void **state)
{
	(void)state;
	for (int i = 0; i < rows.nrows; i++) {
		const struct validate_row *r = &rows.rows[i];
		struct scenario s;
		struct plan *p = malloc(sizeof(*p));
		struct preset pre;
		double got, v;
		assert_non_null(p);
		measured_plan(r, &s, p);
		if (!s.model.preset[0]) { /* an imported config: test_hf_config.c counts it */
			assert_true(s.model.hf_config[0] != '\0');
			measured_same(r, &s, p, r->measured);
			free(p);
			continue;
		}
		load(s.model.preset, &pre);
		if (strcmp(r->figure, "model.active_params") == 0)
			got = pre.p.active;
		else if (strcmp(r->figure, "derived.checkpoint_params") == 0)
			got = pre.p.total + pre.info.vision_params;
		else
			got = pre.p.total;
		measured_same(r, &s, p, got);
		assert_int_equal(validate_row_predict(r, &s, p, &v), 0);
		assert_count(v, r->measured);
		assert_true(r->tolerance == 0);
		free(p);
	}
	assert_int_equal(rows.nrows, 25);
}

static int setup(void **state)
{
	return measured_setup(state, &rows, ROWS);
}

static int teardown(void **state)
{
	return measured_teardown(state, &rows);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_llama_3_2),	cmocka_unit_test(test_llama_4),
	    cmocka_unit_test(test_gpt_oss),	cmocka_unit_test(test_dense_2025),
	    cmocka_unit_test(test_qwen3_235b), cmocka_unit_test(test_deepseek_r1),
	    cmocka_unit_test(test_quantization_config),
	    cmocka_unit_test(test_window_kv),	cmocka_unit_test(test_hybrids),
	    cmocka_unit_test(test_vision_weights), cmocka_unit_test(test_vision_training),
	    cmocka_unit_test(test_every_row),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
