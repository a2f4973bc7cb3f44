/* test_hf_config.c - real Hugging Face config.json files give the published parameter
 * counts, and bad configs give errors that name the key and its place.
 *
 * The configs are copies in tests/data/configs (sources in its README.md); the expected
 * counts are those Hugging Face reports for the published weights (safetensors metadata,
 * or PEFT's print_trainable_parameters "all params") unless a comment names another source.
 * Tests run from the repository root (make check). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>
#include <dirent.h>

#include "hf_config.h"
#include "validate.h"
#include "plan.h"
#include "scenario.h"

#define DATA "tests/data/configs/"

/* The exact counts of the imported configs: one copy, shared with `gpuplan validate`
 * (tests/validation/parameter-counts.yaml, each row's source there). */
#define ROWS "tests/validation/parameter-counts.yaml"

static struct validation counts;

/* The published count of the row with this id. */
static double published(const char *id)
{
	const struct validate_row *r = validation_find(&counts, id);
	if (!r)
		fail_msg("%s: no row '%s'", ROWS, id);
	return r->measured;
}

#define assert_count(got, want) assert_int_equal((long long)(got), (long long)(want))

static void assert_within(double got, double want, double rel)
{
	if (!(fabs(got - want) <= rel * fabs(want)))
		fail_msg("%.0f is not within %g%% of %.0f (off by %.3f%%)", got, rel * 100, want,
			 (got - want) / want * 100);
}

/* |got - want| within half a unit of a published figure's last digit */
static void assert_published(double got, double want, double unit)
{
	if (!(fabs(got - want) <= unit / 2))
		fail_msg("%.0f is not %.0f to within %.0f", got, want, unit / 2);
}

/* Loads DATA name, resolves it and counts it. */
static void load(const char *name, struct model *r, struct model_params *p)
{
	char path[256];
	struct model m;
	struct gp_error err = {0};
	char buf[700];
	bool assumed = true;

	snprintf(path, sizeof(path), DATA "%s", name);
	if (hf_config_load_file(path, &m, &err) != 0)
		fail_msg("%s", gp_error_format(&err, buf, sizeof(buf)));
	assert_string_equal(m.preset, "");
	assert_string_equal(m.hf_config, "");
	assert_true(m.params == 0);
	model_resolve(&m, r, &assumed);
	assert_false(assumed);
	model_count_params(r, p);
}

/* Parses text expecting failure; returns the error. */
static struct gp_error parse_fail(const char *text)
{
	struct model m;
	struct gp_error err = {0};

	assert_int_equal(hf_config_parse(text, strlen(text), "c.json", &m, &err), -1);
	assert_int_equal(err.code, GP_EINPUT);
	assert_string_equal(err.file, "c.json");
	return err;
}

/* Parses text expecting an error at field, line:column (0: not checked) whose message
 * holds part. */
static void fail_with(const char *text, const char *field, int line, int column, const char *part)
{
	struct gp_error e = parse_fail(text);

	assert_string_equal(e.field, field);
	if (line)
		assert_int_equal(e.line, line);
	if (column)
		assert_int_equal(e.column, column);
	if (!strstr(e.message, part))
		fail_msg("'%s' does not say '%s'", e.message, part);
}

static void parse_ok(const char *text, struct model *r, struct model_params *p)
{
	struct model m;
	struct gp_error err = {0};
	char buf[700];

	if (hf_config_parse(text, strlen(text), NULL, &m, &err) != 0)
		fail_msg("%s", gp_error_format(&err, buf, sizeof(buf)));
	model_resolve(&m, r, NULL);
	model_count_params(r, p);
}

/* Dense models: within 0.1% (all are in fact exact). Llama-2-7b-hf, Meta-Llama-3-8B,
 * Mistral-7B-v0.1: safetensors metadata; Llama-2-70b-hf: PEFT "all params"; Qwen2-7B: the
 * Qwen2.5-7B card (7.61B, the same dimensions); gemma-2-9b: Gemma 2 report Table 1
 * (8,324,201,984 non-embedding + 256,000 x 3,584 embedding); gpt2: openai-community/gpt2;
 * Phi-3-mini: the Phi-3 report (3.8B). The counts are the rows of ROWS. */
static void test_dense_reference_counts(void **state)
{
	static const struct {
		const char *file, *row;
	} configs[] = {
	    {"Llama-2-7b-hf.json", "hf-llama-2-7b-params"},
	    {"Llama-2-70b-hf.json", "hf-llama-2-70b-params"},
	    {"Meta-Llama-3-8B.json", "hf-llama-3-8b-params"},
	    {"Mistral-7B-v0.1.json", "hf-mistral-7b-params"},
	    {"Qwen2-7B.json", "hf-qwen2-7b-params"},
	    {"gemma-2-9b.json", "hf-gemma-2-9b-params"},
	    {"gpt2.json", "hf-gpt2-params"},
	    {"Phi-3-mini-4k-instruct.json", "hf-phi-3-mini-params"},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(configs) / sizeof(configs[0]); i++) {
		struct model r;
		struct model_params p;
		double total = published(configs[i].row);
		/* the row plans this very config */
		assert_non_null(
		    strstr(validation_find(&counts, configs[i].row)->sets[0], configs[i].file));
		load(configs[i].file, &r, &p);
		assert_within(p.total, total, 0.001);
		assert_count(p.total, total);
		assert_true(p.active == p.total);
	}
}

static void test_mixtral(void **state)
{
	struct model r;
	struct model_params p;
	(void)state;
	load("Mixtral-8x7B-v0.1.json", &r, &p);
	assert_within(p.total, 46702792704.0, 0.01);
	assert_within(p.active, 12879925248.0, 0.01);
	assert_count(p.total, published("hf-mixtral-8x7b-params"));
	assert_count(p.active, published("hf-mixtral-8x7b-active"));
	assert_int_equal(r.moe.experts, 8);
	assert_int_equal(r.moe.active, 2);
	assert_int_equal(r.moe.expert_ffn, 14336);
	assert_int_equal(r.sliding_window, 0); /* "sliding_window": null */
	assert_int_equal(r.max_context, 32768);
}

/* Published MoE active counts look truncated, not rounded: the module-by-module counts are
 * 37.55B (DeepSeek-V3, published "37B") and 3.353B (Qwen3-30B-A3B, "3.3B"), 1.5% and 1.6%
 * above the headline figures, while their totals (671.03B, 30.53B) match to 0.1%. So the
 * active counts are checked exactly against the modules, and the headline figure as a
 * truncation (37B <= x < 38B), not within 1% of it. */
static void test_deepseek_v3(void **state)
{
	struct model r;
	struct model_params p;
	double attn, expert, dense, fixed;
	(void)state;
	load("DeepSeek-V3.json", &r, &p);
	assert_int_equal(r.mla.q_rank, 1536);
	assert_int_equal(r.mla.kv_rank, 512);
	assert_int_equal(r.mla.rope_dim, 64);
	assert_int_equal(r.mla.nope_dim, 128);
	assert_int_equal(r.mla.v_dim, 128);
	assert_int_equal(r.moe.experts, 256);
	assert_int_equal(r.moe.active, 8);
	assert_int_equal(r.moe.shared, 1);
	assert_int_equal(r.moe.shared_ffn, 2048);
	assert_int_equal(r.moe.expert_ffn, 2048);
	assert_int_equal(r.moe.dense_layers, 3);
	assert_int_equal(r.ffn, 18432);
	assert_int_equal(r.max_context, 163840);
	assert_false(r.tied_embeddings);
	/* DeepSeek-V3 report / README_WEIGHTS: 671B main model (MTP module excluded). */
	assert_within(p.total, 671e9, 0.01);
	assert_within(p.total, 671e9, 0.001);
	/* Active: embedding, head, final norm, 61 attentions and norm pairs, 3 dense MLPs,
	 * and per MoE layer the router, 8 routed and 1 shared expert (modeling_deepseek.py). */
	attn = 7168.0 * 1536 + 1536 + 1536.0 * 128 * 192 + 7168.0 * 576 + 512 + 512.0 * 128 * 256 +
	       128.0 * 128 * 7168;
	expert = 3.0 * 7168 * 2048;
	dense = 3.0 * 7168 * 18432;
	fixed = 2.0 * 129280 * 7168 + 7168 + 61 * (attn + 2 * 7168) + 3 * dense;
	assert_count(p.active, fixed + 58 * (7168 * 256 + 9 * expert));
	assert_true(p.active >= 37e9 && p.active < 38e9);
	assert_true(model_kv_elems_per_token_layer(&r) == 576);
}

static void test_qwen3_moe(void **state)
{
	struct model r;
	struct model_params p;
	double attn, expert, fixed;
	(void)state;
	load("Qwen3-30B-A3B.json", &r, &p);
	assert_true(r.qk_norm);
	assert_int_equal(r.head_dim, 128);
	assert_int_equal(r.kv_heads, 4);
	assert_int_equal(r.moe.experts, 128);
	assert_int_equal(r.moe.active, 8);
	assert_int_equal(r.moe.expert_ffn, 768);
	assert_int_equal(r.moe.dense_layers, 0);
	assert_int_equal(r.moe.shared, 0);
	assert_int_equal(r.sliding_window, 0);
	assert_int_equal(r.max_context, 40960);
	/* Qwen3-30B-A3B card: 30.5B total, 3.3B active. */
	assert_within(p.total, 30.5e9, 0.01);
	assert_within(p.total, 30.5e9, 0.002);
	attn = 2048.0 * 4096 * 2 + 2048.0 * 512 * 2 + 2 * 128;
	expert = 3.0 * 2048 * 768;
	fixed = 2.0 * 151936 * 2048 + 2048 + 48 * (attn + 2 * 2048 + 2048 * 128);
	assert_count(p.active, fixed + 48 * 8 * expert);
	assert_count(p.total, fixed + 48 * 128 * expert);
	assert_true(p.active >= 3.3e9 && p.active < 3.4e9);
}

/* Qwen2-MoE (modeling_qwen2_moe.py): q, k, v biases; per MoE layer a router (h x E), the
 * routed experts, one shared expert and its shared_expert_gate (h x 1). Qwen1.5-MoE-A2.7B:
 * "14.3B parameters in total and 2.7B activated parameters" (its Hugging Face model
 * card); Qwen2-57B-A14B: 57B total, 14B active (its name, the Qwen convention of
 * truncated figures, as Qwen3-30B-A3B's 3.3B). The module sums are checked exactly and
 * the published figures within their rounding. */
static void test_qwen2_moe(void **state)
{
	struct model r;
	struct model_params p;
	double attn, layer, expert;
	(void)state;
	load("qwen1.5-moe-a2.7b.json", &r, &p);
	assert_true(r.qkv_bias && !r.attention_bias);
	assert_int_equal(r.moe.experts, 60);
	assert_int_equal(r.moe.active, 4);
	assert_int_equal(r.moe.shared, 1);
	assert_int_equal(r.moe.shared_ffn, 5632);
	assert_true(r.moe.shared_gate);
	assert_int_equal(r.moe.dense_layers, 0);
	attn = 4.0 * 2048 * 2048 + 3 * 2048;
	expert = 3.0 * 2048 * 1408;
	layer = attn + 2 * 2048 + 2048.0 * 60 + 2048 + 3.0 * 2048 * 5632;
	assert_count(p.total, 2.0 * 151936 * 2048 + 2048 + 24 * (layer + 60 * expert));
	assert_count(p.active, 2.0 * 151936 * 2048 + 2048 + 24 * (layer + 4 * expert));
	assert_true(p.total >= 14.25e9 && p.total < 14.35e9);
	assert_true(p.active >= 2.65e9 && p.active < 2.75e9);

	load("qwen2-57b-a14b.json", &r, &p);
	assert_int_equal(r.kv_heads, 4);
	assert_int_equal(r.moe.experts, 64);
	assert_int_equal(r.moe.active, 8);
	attn = 2.0 * 3584 * 3584 + 2.0 * 3584 * 512 + 3584 + 2 * 512;
	expert = 3.0 * 3584 * 2560;
	layer = attn + 2 * 3584 + 3584.0 * 64 + 3584 + 3.0 * 3584 * 20480;
	assert_count(p.total, 2.0 * 151936 * 3584 + 3584 + 28 * (layer + 64 * expert));
	assert_count(p.active, 2.0 * 151936 * 3584 + 3584 + 28 * (layer + 8 * expert));
	assert_true(p.total >= 57e9 && p.total < 58e9);
	assert_true(p.active >= 14e9 && p.active < 15e9);
}

static void test_other_moe_catalog(void **state)
{
	struct model r;
	struct model_params p;
	(void)state;
	/* Qwen3-235B-A22B card: 235B total, 22B active. */
	load("qwen3-235b-a22b.json", &r, &p);
	assert_within(p.total, 235e9, 0.01);
	assert_within(p.active, 22e9, 0.01);
	/* Mixtral-8x22B (mistral.ai release post): 141B total, 39B active. */
	load("mixtral-8x22b.json", &r, &p);
	assert_within(p.total, 141e9, 0.01);
	assert_within(p.active, 39e9, 0.01);
}

static void test_falcon_40b_rw_keys(void **state)
{
	struct model r;
	struct model_params p;
	double tied;
	(void)state;
	/* The old "RefinedWeb" spelling: n_layer, n_head, n_head_kv; no published exact count
	 * ("40B" on the card). Falcon ties lm_head to word_embeddings (transformers'
	 * FalconForCausalLM; vLLM PR #3590), so the count is 41,303,293,952. The "41.8B" the
	 * Hugging Face hub shows counts the checkpoint's duplicate lm_head tensor as well. */
	load("falcon-40b.json", &r, &p);
	assert_int_equal(r.layers, 60);
	assert_int_equal(r.hidden, 8192);
	assert_int_equal(r.heads, 128);
	assert_int_equal(r.kv_heads, 8);
	assert_int_equal(r.head_dim, 64);
	assert_int_equal(r.ffn, 4 * 8192);
	assert_int_equal(r.norms_per_layer, 2); /* ln_attn and ln_mlp */
	assert_int_equal(r.norm, NORM_LAYERNORM);
	assert_int_equal(r.mlp, MLP_PLAIN);
	assert_true(r.parallel_block);
	assert_true(r.tied_embeddings);
	assert_false(r.attention_bias);
	assert_false(r.mlp_bias);
	assert_int_equal(r.max_context, 2048);
	/* query_key_value (128 + 2 x 8) x 64 wide, dense, two MLP matrices, two LayerNorms. */
	tied = 60 * (8192.0 * 144 * 64 + 8192.0 * 8192 + 2 * 8192.0 * 32768 + 4 * 8192) +
	       65024.0 * 8192 + 2 * 8192;
	assert_count(p.total, tied);
	assert_within(p.total + 65024.0 * 8192, 41.8e9, 0.001);
}

static void test_falcon_new_keys(void **state)
{
	/* The same model in transformers' own spelling (configuration_falcon.py). */
	static const char *text =
	    "{\"model_type\": \"falcon\", \"architectures\": [\"FalconForCausalLM\"],\n"
	    " \"num_hidden_layers\": 60, \"hidden_size\": 8192, \"num_attention_heads\": 128,\n"
	    " \"num_kv_heads\": 8, \"new_decoder_architecture\": true, \"parallel_attn\": true,\n"
	    " \"bias\": false, \"alibi\": false, \"vocab_size\": 65024}";
	/* Falcon-7B's: multi-query (one K/V head), one input_layernorm (parallel_attn). */
	static const char *text7 =
	    "{\"model_type\": \"RefinedWebModel\", \"hidden_size\": 4544, \"n_head\": 71,\n"
	    " \"n_layer\": 32, \"multi_query\": true, \"parallel_attn\": true, \"bias\": false,\n"
	    " \"vocab_size\": 65024}";
	struct model r, rw;
	struct model_params p, prw;
	(void)state;
	parse_ok(text, &r, &p);
	load("falcon-40b.json", &rw, &prw);
	assert_true(p.total == prw.total);
	assert_int_equal(r.kv_heads, 8);
	assert_int_equal(r.norms_per_layer, 2);
	parse_ok(text7, &r, &p);
	assert_int_equal(r.kv_heads, 1);
	assert_int_equal(r.norms_per_layer, 1);
	/* query_key_value 4544 x (4544 + 2 x 64), dense, 4h MLP, one LayerNorm; tied. */
	assert_count(p.total, 32 * (4544.0 * 4672 + 4544.0 * 4544 + 2 * 4544.0 * 18176 + 2 * 4544) +
				  65024.0 * 4544 + 2 * 4544);
	/* HF hub "7.22B" counts the duplicate lm_head tensor too. */
	assert_within(p.total + 65024.0 * 4544, 7.22e9, 0.001);
}

static void test_bloom_176b(void **state)
{
	struct model r;
	struct model_params p;
	(void)state;
	/* bigscience/bloom card: 176,247,271,424. Keys n_embed and num_attention_heads. */
	load("bloom-176b.json", &r, &p);
	assert_count(p.total, 176247271424LL);
	assert_int_equal(r.layers, 70);
	assert_int_equal(r.hidden, 14336);
	assert_int_equal(r.heads, 112);
	assert_true(r.embedding_norm);
	assert_true(r.tied_embeddings);
	assert_int_equal(r.position_embeddings, 0); /* ALiBi */
}

static void test_opt(void **state)
{
	struct model r;
	struct model_params p;
	(void)state;
	/* OPT-13B (facebook/opt-13b config.json: 40 layers, hidden 5120). Module by module from
	 * modeling_opt.py: embed_tokens 50272 x 5120, embed_positions 2050 x 5120, per layer
	 * q/k/v/out_proj with biases, fc1/fc2 with biases, two LayerNorms; final_layer_norm;
	 * lm_head tied: 12,853,473,280 (the "13B" of Zhang et al. 2022, Table 1). */
	load("opt-13b.json", &r, &p);
	assert_int_equal(r.layers, 40);
	assert_int_equal(r.hidden, 5120);
	assert_int_equal(r.position_embeddings, 2050);
	assert_int_equal(r.max_context, 2048);
	assert_count(p.total, 50272.0 * 5120 + 2050.0 * 5120 +
				  40 * (4 * (5120.0 * 5120 + 5120) + 2 * 5120.0 * 20480 + 20480 +
					5120 + 4 * 5120) +
				  2 * 5120);
	assert_within(p.total, 13e9, 0.015);
	/* OPT-350m: 512-wide embeddings with project_in/out, post-LN without a final norm:
	 * 331,196,416 (facebook/opt-350m pytorch_model.bin, 388 tensors). */
	load("opt-350m.json", &r, &p);
	assert_int_equal(r.embed_dim, 512);
	assert_true(r.no_final_norm);
	assert_count(p.total, 331196416LL);
}

static void test_catalog_dense(void **state)
{
	static const struct {
		const char *file;
		double total;
		double rel;
	} rows[] = {
	    {"llama-2-13b.json", 13015864320.0, 0.001},	    /* HF safetensors metadata */
	    {"llama-3.1-405b.json", 405853388800.0, 0.001}, /* HF safetensors metadata */
	    {"qwen2.5-72b.json", 72.7e9, 0.001},	    /* Qwen2.5-72B card: 72.7B */
	    {"qwen3-8b.json", 8.2e9, 0.002},		    /* Qwen3-8B card: 8.2B */
	    {"llama-33b.json", 32.5e9, 0.001},		    /* LLaMA paper Table 2: 32.5B */
	};
	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct model r;
		struct model_params p;
		load(rows[i].file, &r, &p);
		assert_within(p.total, rows[i].total, rows[i].rel);
	}
}

static void test_fields(void **state)
{
	struct model r;
	struct model_params p;
	(void)state;
	load("Llama-2-7b-hf.json", &r, &p);
	assert_int_equal(r.max_context, 4096);
	assert_int_equal(r.kv_heads, 32);
	assert_int_equal(r.mlp, MLP_GATED);
	assert_int_equal(r.norm, NORM_RMSNORM);
	assert_true(model_kv_elems_per_token_layer(&r) == 8192);
	load("Meta-Llama-3-8B.json", &r, &p);
	assert_int_equal(r.kv_heads, 8);
	assert_int_equal(r.vocab, 128256);
	assert_true(model_kv_elems_per_token_layer(&r) == 2048);
	load("Mistral-7B-v0.1.json", &r, &p);
	assert_int_equal(r.sliding_window, 4096);
	load("Qwen2-7B.json", &r, &p);
	assert_true(r.qkv_bias);
	assert_false(r.attention_bias);
	assert_int_equal(r.sliding_window, 0); /* use_sliding_window false */
	load("gemma-2-9b.json", &r, &p);
	assert_int_equal(r.head_dim, 256);
	assert_int_equal(r.norms_per_layer, 4);
	assert_true(r.tied_embeddings);
	assert_int_equal(r.mlp, MLP_GATED); /* GeGLU despite hidden_activation gelu */
	load("gpt2.json", &r, &p);
	assert_int_equal(r.ffn, 3072); /* n_inner absent: 4h */
	assert_int_equal(r.position_embeddings, 1024);
	assert_int_equal(r.max_context, 1024);
	assert_true(r.tied_embeddings && r.attention_bias && r.mlp_bias);
	assert_int_equal(r.norm, NORM_LAYERNORM);
	assert_int_equal(r.mlp, MLP_PLAIN);
	load("Phi-3-mini-4k-instruct.json", &r, &p);
	assert_int_equal(r.sliding_window, 2047);
	load("llama-33b.json", &r, &p);
	assert_int_equal(r.max_context, 2048); /* max_sequence_length */
	assert_int_equal(r.kv_heads, 52);      /* no num_key_value_heads: MHA */
}

static void test_architectures_without_model_type(void **state)
{
	static const char *text =
	    "{\"architectures\": [\"Foo\", \"GPT2LMHeadModel\"],\n"
	    " \"n_layer\": 12, \"n_embd\": 768, \"n_head\": 12, \"n_inner\": null,\n"
	    " \"vocab_size\": 50257}";
	struct model r;
	struct model_params p;
	(void)state;
	parse_ok(text, &r, &p);
	assert_count(p.total, 124439808LL);
}

static void test_qwen3_moe_dense_layers(void **state)
{
	/* mlp_only_layers and decoder_sparse_step (modeling_qwen3_moe.py): with step 2,
	 * layer i is sparse when i + 1 is even (1, 3, 5); listing 0 and 3 makes 3 dense too.
	 * Dense: 0, 2, 3, 4; sparse: 1, 5. */
	static const char *text =
	    "{\"model_type\": \"qwen3_moe\", \"num_hidden_layers\": 6, \"hidden_size\": 64,\n"
	    " \"num_attention_heads\": 4, \"num_key_value_heads\": 2, \"head_dim\": 16,\n"
	    " \"intermediate_size\": 128, \"moe_intermediate_size\": 32, \"num_experts\": 4,\n"
	    " \"num_experts_per_tok\": 2, \"decoder_sparse_step\": 2, \"mlp_only_layers\": [0, "
	    "3],\n"
	    " \"vocab_size\": 100}";
	struct model r;
	struct model_params p;
	(void)state;
	parse_ok(text, &r, &p);
	assert_int_equal(r.moe.dense_layers, 4);
	assert_int_equal(model_moe_layers(&r), 2);
	assert_count(p.mlp, 3 * 64 * 128);
	assert_count(p.total, 2 * 100 * 64 + 64 + 6 * (p.attention + 2 * 64) + 4 * p.mlp +
				  2 * (4 * 3 * 64 * 32 + 64 * 4));
	/* a layer list names layers: an entry that is none, or one listed twice, is an error
	 * at that entry (Llama 4's moe_layers alike), not a layer left out or counted twice */
#define Q3M_SMALL                                                                                  \
	"{\"model_type\": \"qwen3_moe\", \"num_hidden_layers\": 6, \"hidden_size\": 64,\n"         \
	"\"num_attention_heads\": 4, \"intermediate_size\": 128, \"moe_intermediate_size\": 32,\n" \
	"\"num_experts\": 4, \"num_experts_per_tok\": 2, \"vocab_size\": 100,\n"
	fail_with(Q3M_SMALL "\"mlp_only_layers\": [0, 6]}", "mlp_only_layers", 4, 24,
		  "entry 1 must be a layer number from 0 to 5");
	fail_with(Q3M_SMALL "\"mlp_only_layers\": [1.5]}", "mlp_only_layers", 4, 21,
		  "entry 0 must be a layer number");
	fail_with(Q3M_SMALL "\"mlp_only_layers\": [2, \"3\"]}", "mlp_only_layers", 4, 24,
		  "entry 1 must be");
	fail_with(Q3M_SMALL "\"mlp_only_layers\": [2, 4, 2]}", "mlp_only_layers", 4, 27,
		  "layer 2 is listed twice");
	fail_with(Q3M_SMALL "\"mlp_only_layers\": 3}", "mlp_only_layers", 4, 20,
		  "must be an array of layer numbers, not a number");
#undef Q3M_SMALL
#define L4_SMALL                                                                                   \
	"{\"model_type\": \"llama4_text\", \"num_hidden_layers\": 4, \"hidden_size\": 64,\n"       \
	"\"num_attention_heads\": 4, \"intermediate_size\": 128, \"vocab_size\": 100,\n"           \
	"\"num_local_experts\": 4, \"num_experts_per_tok\": 1,\n"
	parse_ok(L4_SMALL "\"moe_layers\": [1, 3]}", &r, &p);
	assert_int_equal(r.moe.dense_layers, 2);
	parse_ok(L4_SMALL "\"interleave_moe_layer_step\": 2}", &r, &p);
	assert_int_equal(r.moe.dense_layers, 2); /* layers 1 and 3 MoE */
	fail_with(L4_SMALL "\"moe_layers\": [1, 1, 3]}", "moe_layers", 4, 19,
		  "layer 1 is listed twice");
	fail_with(L4_SMALL "\"moe_layers\": [\"1\"]}", "moe_layers", 4, 16,
		  "entry 0 must be a layer number from 0 to 3");
#undef L4_SMALL
}

static void test_deepseek_v2_lite_keys(void **state)
{
	/* DeepSeek-V2-Lite's shape: q_lora_rank null (one q_proj), 2 shared experts, first
	 * layer dense. Published: 15.7B total (HF hub). */
	static const char *text =
	    "{\"model_type\": \"deepseek_v2\", \"num_hidden_layers\": 27, \"hidden_size\": 2048,\n"
	    " \"num_attention_heads\": 16, \"num_key_value_heads\": 16, \"intermediate_size\": "
	    "10944,\n"
	    " \"q_lora_rank\": null, \"kv_lora_rank\": 512, \"qk_rope_head_dim\": 64,\n"
	    " \"qk_nope_head_dim\": 128, \"v_head_dim\": 128, \"n_routed_experts\": 64,\n"
	    " \"n_shared_experts\": 2, \"num_experts_per_tok\": 6, \"moe_intermediate_size\": "
	    "1408,\n"
	    " \"first_k_dense_replace\": 1, \"moe_layer_freq\": 1, \"vocab_size\": 102400,\n"
	    " \"tie_word_embeddings\": false, \"max_position_embeddings\": 163840}";
	struct model r;
	struct model_params p;
	(void)state;
	parse_ok(text, &r, &p);
	assert_int_equal(r.mla.q_rank, 0);
	assert_int_equal(r.moe.dense_layers, 1);
	assert_int_equal(r.moe.shared, 2);
	assert_count(p.attention,
		     2048.0 * 16 * 192 + 2048.0 * 576 + 512 + 512.0 * 16 * 256 + 16.0 * 128 * 2048);
	assert_count(p.shared, 2 * 3.0 * 2048 * 1408);
	assert_within(p.total, 15.7e9, 0.001);
}

static void test_error_malformed_json(void **state)
{
	struct gp_error e;
	char buf[700];
	(void)state;
	e = parse_fail("{\n  \"model_type\": \"llama\",\n  \"hidden_size\": ]\n}");
	assert_int_equal(e.line, 3);
	assert_int_equal(e.column, 18);
	assert_non_null(strstr(e.message, "invalid JSON"));
	assert_string_equal(gp_error_format(&e, buf, sizeof(buf)),
			    "c.json:3:18: invalid JSON: unexpected ']'");
	/* Unterminated: the error is at the end of the text. */
	e = parse_fail("{\n  \"a\": 1,\n");
	assert_int_equal(e.line, 3);
	assert_int_equal(e.column, 1);
	assert_non_null(strstr(e.message, "end of the text"));
	/* Columns count characters: the two-byte 'é' is one column. */
	e = parse_fail("{\"é\": 1 2}");
	assert_int_equal(e.line, 1);
	assert_int_equal(e.column, 9);
	/* Text after the object. */
	e = parse_fail("{\"a\": 1}\n}");
	assert_int_equal(e.line, 2);
	assert_int_equal(e.column, 1);
	/* Not an object; empty. */
	e = parse_fail("[1, 2]");
	assert_non_null(strstr(e.message, "JSON object"));
	e = parse_fail("");
	assert_int_equal(e.line, 1);
	assert_int_equal(e.column, 1);
}

static void test_error_missing_field(void **state)
{
	struct gp_error e;
	(void)state;
	e = parse_fail(
	    "{\"model_type\": \"llama\", \"hidden_size\": 4096, \"num_attention_heads\": 32,"
	    " \"intermediate_size\": 11008, \"vocab_size\": 32000}");
	assert_string_equal(e.field, "num_hidden_layers");
	assert_non_null(strstr(e.message, "missing 'num_hidden_layers'"));
	assert_int_equal(e.line, 1);
	/* DeepSeek without its MLA rank. */
	e = parse_fail(
	    "{\"model_type\": \"deepseek_v3\", \"num_hidden_layers\": 2, \"hidden_size\": 64,"
	    " \"num_attention_heads\": 4, \"intermediate_size\": 128, \"vocab_size\": 10}");
	assert_string_equal(e.field, "kv_lora_rank");
	assert_non_null(strstr(e.message, "kv_lora_rank"));
	/* Mixtral without its expert count. */
	e = parse_fail(
	    "{\"model_type\": \"mixtral\", \"num_hidden_layers\": 2, \"hidden_size\": 64,"
	    " \"num_attention_heads\": 4, \"intermediate_size\": 128, \"vocab_size\": 10}");
	assert_string_equal(e.field, "num_local_experts");
}

static void test_error_unknown_architecture(void **state)
{
	struct gp_error e;
	(void)state;
	/* (mamba was the example here until Mamba imported; rwkv is still refused) */
	e = parse_fail(
	    "{\n  \"model_type\": \"rwkv\",\n  \"architectures\": [\"RwkvForCausalLM\"]\n}");
	assert_string_equal(e.field, "model_type");
	assert_non_null(strstr(e.message, "'rwkv'"));
	assert_int_equal(e.line, 2);
	assert_int_equal(e.column, 17);
	e = parse_fail("{\"hidden_size\": 64}");
	assert_string_equal(e.field, "model_type");
	assert_non_null(strstr(e.message, "missing 'model_type'"));
	/* A layer count beyond the scenario's range (and no loop over two billion layers). */
	e = parse_fail("{\"model_type\": \"qwen3_moe\", \"num_hidden_layers\": 2000000000}");
	assert_string_equal(e.field, "num_hidden_layers");
	e = parse_fail("{\"model_type\": 7}");
	assert_string_equal(e.field, "model_type");
}

static void test_error_bad_values(void **state)
{
	static const char *head = "{\"model_type\": \"llama\", \"num_hidden_layers\": 32,\n"
				  " \"num_attention_heads\": 32, \"intermediate_size\": 11008,"
				  " \"vocab_size\": 32000,\n";
	char text[512];
	struct gp_error e;
	(void)state;
	snprintf(text, sizeof(text), "%s \"hidden_size\": -4096}", head);
	e = parse_fail(text);
	assert_string_equal(e.field, "hidden_size");
	assert_non_null(strstr(e.message, "-4096"));
	assert_int_equal(e.line, 3);
	assert_int_equal(e.column, 17);
	snprintf(text, sizeof(text), "%s \"hidden_size\": 4096.5}", head);
	e = parse_fail(text);
	assert_string_equal(e.field, "hidden_size");
	assert_non_null(strstr(e.message, "integer"));
	snprintf(text, sizeof(text), "%s \"hidden_size\": \"4096\"}", head);
	e = parse_fail(text);
	assert_string_equal(e.field, "hidden_size");
	assert_non_null(strstr(e.message, "string"));
	snprintf(text, sizeof(text), "%s \"hidden_size\": 1e12}", head);
	e = parse_fail(text);
	assert_string_equal(e.field, "hidden_size");
	assert_non_null(strstr(e.message, "at most"));
	snprintf(text, sizeof(text), "%s \"hidden_size\": 1e400}", head);
	e = parse_fail(text);
	assert_string_equal(e.field, "hidden_size");
	snprintf(text, sizeof(text), "%s \"hidden_size\": 0}", head);
	e = parse_fail(text);
	assert_string_equal(e.field, "hidden_size");
	snprintf(text, sizeof(text), "%s \"hidden_size\": 4096, \"tie_word_embeddings\": 1}", head);
	e = parse_fail(text);
	assert_string_equal(e.field, "tie_word_embeddings");
	/* A nested key of the same name is not the top-level one. */
	snprintf(text, sizeof(text),
		 "%s \"rope_scaling\": {\"hidden_size\": 1}, \"hidden_size\": -1}", head);
	e = parse_fail(text);
	assert_int_equal(e.column, 53); /* the top-level -1, not the nested 1 at 34 */
}

/* Adding a model is dropping its config.json into catalog/models: every one imports. */
static void test_catalog_models_import(void **state)
{
	DIR *d = opendir("catalog/models");
	struct dirent *de;
	int n = 0;
	(void)state;
	if (!d)
		skip(); /* the catalog is not in this tree */
	while ((de = readdir(d)) != NULL) {
		char path[512], buf[700];
		struct model m, r;
		struct model_params p;
		struct gp_error err = {0};
		size_t len = strlen(de->d_name);
		if (len < 5 || strcmp(de->d_name + len - 5, ".json") != 0)
			continue;
		snprintf(path, sizeof(path), "catalog/models/%s", de->d_name);
		if (hf_config_load_file(path, &m, &err) != 0)
			fail_msg("%s", gp_error_format(&err, buf, sizeof(buf)));
		model_resolve(&m, &r, NULL);
		model_count_params(&r, &p);
		assert_true(p.total > 1e8 && p.active > 1e8 && p.active <= p.total);
		/* a context limit wherever there is attention (a pure state-space model such
		 * as Mamba-Codestral has no positions: 0, any length) */
		assert_true(r.max_context > 0 || model_attention_layers(&r) == 0);
		n++;
	}
	closedir(d);
	assert_true(n > 0);
}

static void test_error_file(void **state)
{
	struct model m;
	struct gp_error e = {0};
	(void)state;
	assert_int_equal(hf_config_load_file(DATA "no-such-config.json", &m, &e), -1);
	assert_int_equal(e.code, GP_EIO);
	assert_string_equal(e.file, DATA "no-such-config.json");
	/* NULL error pointer is accepted. */
	assert_int_equal(hf_config_parse("{", 1, NULL, &m, NULL), -1);
	assert_int_equal(hf_config_parse("{\"model_type\": \"x\"}", 19, NULL, &m, NULL), -1);
}

/* Loads DATA name with its import information. */
static void load_info(const char *name, struct model *r, struct model_params *p,
		      struct hf_config_info *info)
{
	char path[256], buf[700];
	struct model m;
	struct gp_error err = {0};

	snprintf(path, sizeof(path), DATA "%s", name);
	if (hf_config_load_file_info(path, &m, info, &err) != 0)
		fail_msg("%s", gp_error_format(&err, buf, sizeof(buf)));
	model_resolve(&m, r, NULL);
	model_count_params(r, p);
}

static bool has_warning(const struct hf_config_info *info, const char *part)
{
	for (int i = 0; i < info->nwarnings; i++)
		if (strstr(info->warnings[i], part))
			return true;
	return false;
}

/* Plans the memory of DATA name served in bf16 (4 sequences of 1000 + 24 tokens, over
 * tp of 2 H100s): its KV cache a token is what the tests read. */
static void plan_serving(const char *name, int tp, struct plan *p)
{
	static struct scenario s;
	struct model_params c;

	scenario_init(&s);
	load(name, &s.model, &c);
	s.workload.kind = WL_ONLINE;
	s.workload.precision = s.workload.weights = s.workload.kv_cache = DTYPE_BF16;
	s.workload.prompt_tokens = 1000;
	s.workload.output_tokens = 24;
	s.workload.batch = 4;
	snprintf(s.hardware.gpu.id, sizeof(s.hardware.gpu.id), "h100-sxm-80gb");
	s.hardware.gpu.memory_bytes = 80e9;
	s.hardware.gpu.gpus_per_node = s.hardware.gpu.link_domain = 8;
	s.hardware.count = 2;
	s.parallel.tp = tp;
	plan_compute_memory(&s, p);
}

/* Dense families of issue 14, each counted module by module as its modeling file builds
 * it, and equal to the published figure where one is exact. */
static void test_new_dense_families(void **state)
{
	struct model r;
	struct model_params p;
	double layer;
	(void)state;
	/* microsoft/phi-2 (modeling_phi.py): q, k, v, dense and fc1/fc2 with biases, one
	 * LayerNorm a layer, lm_head with a bias: 2,779,683,840 (HF safetensors metadata,
	 * "2.7B" on the card). */
	load("phi-2.json", &r, &p);
	assert_true(r.head_bias && r.parallel_block && r.attention_bias && r.mlp_bias);
	assert_int_equal(r.norms_per_layer, 1);
	assert_count(p.total, 2779683840LL);
	/* THUDM/chatglm3-6b: 6,243,584,000 (the figure its modeling code's users report and
	 * the module sum: query_key_value 4096 x 4608 with bias, dense, SwiGLU 13696, two
	 * RMSNorms; untied output_layer). */
	load("chatglm3-6b.json", &r, &p);
	assert_int_equal(r.kv_heads, 2);
	assert_int_equal(r.head_dim, 128);
	assert_true(r.qkv_bias && !r.attention_bias);
	assert_int_equal(r.max_context, 8192);
	assert_count(p.total, 6243584000LL);
	/* Pythia (EleutherAI/pythia-6.9b-deduped, -12b-deduped): 6,857,302,016 and
	 * 11,846,072,320 (Pythia paper, Table 1 and the model cards). */
	load("pythia-6.9b-deduped.json", &r, &p);
	assert_true(r.parallel_block);
	assert_int_equal(r.norms_per_layer, 2);
	assert_count(p.total, 6857302016LL);
	load("pythia-12b-deduped.json", &r, &p);
	assert_count(p.total, 11846072320LL);
	/* Baichuan-13B's shape (W_pack, ALiBi, vocab 64000, model_max_length): 13,264,901,120
	 * (baichuan-inc/Baichuan-13B README's parameter table). */
	load("baichuan-13b.json", &r, &p);
	assert_int_equal(r.max_context, 4096);
	assert_count(p.total, 13264901120LL);
	/* Baichuan 2 7B's shape (vocab 125696, z_loss_weight, RoPE, 4096 context): W_pack
	 * 3 x 4096 x 4096 and o_proj without biases, SwiGLU 11008, two RMSNorms, a final
	 * one, an untied NormHead of 125696 x 4096 (Baichuan 2's modeling_baichuan.py):
	 * 7,505,973,248 by this module sum (baichuan-inc/Baichuan2-7B-Base's card: "7B"). */
	load("baichuan2-7b-shape.json", &r, &p);
	assert_int_equal(r.max_context, 4096);
	assert_false(r.attention_bias || r.qkv_bias || r.tied_embeddings);
	layer = 4.0 * 4096 * 4096 + 3.0 * 4096 * 11008 + 2 * 4096;
	assert_count(p.total, 2.0 * 125696 * 4096 + 4096 + 32 * layer);
	assert_count(p.total, 7505973248LL);
	/* OLMo 2 7B (modeling_olmo2.py): q_norm over 32 x 128, k_norm over 32 x 128, two
	 * post-norms a layer: 7,298,617,344 (allenai/OLMo-2-1124-7B, "7.3B"). */
	load("olmo-2-7b-sft.json", &r, &p);
	assert_true(r.qk_norm && r.qk_norm_full);
	layer = 4.0 * 4096 * 4096 + 2 * 4096 + 3.0 * 4096 * 11008 + 2 * 4096;
	assert_count(p.total, 2.0 * 100352 * 4096 + 4096 + 32 * layer);
	assert_count(p.total, 7298617344LL);
	/* GLM-4-0414 (modeling_glm4.py), the 9B shape of transformers' Glm4Config defaults
	 * ("glm4-4-9b-chat style", configuration_glm4.py); no whole published GLM-4-9B-0414
	 * config.json was found (tests/data/configs/README.md). A layer: q 4096 x 4096, k and
	 * v 4096 x 2 x 128, each with a bias; o_proj without; gate_up_proj 4096 x 2 x 13696,
	 * down_proj; four RMSNorms. A final norm, untied embeddings and lm_head of 151552 x
	 * 4096: 9,400,279,040, the n-params llama.cpp reads from the tensors of the same 9B
	 * GLM-4 language model (GLM-4.6V-Flash's BF16 GGUF, n-vocab 151552, n-embd 4096, in
	 * a public model-list fixture). */
	parse_ok("{\"architectures\": [\"Glm4ForCausalLM\"], \"model_type\": \"glm4\", "
		 "\"vocab_size\": 151552, \"hidden_size\": 4096, \"intermediate_size\": 13696, "
		 "\"num_hidden_layers\": 40, \"num_attention_heads\": 32, "
		 "\"num_key_value_heads\": 2, \"head_dim\": 128, \"partial_rotary_factor\": 0.5, "
		 "\"attention_bias\": true, \"tie_word_embeddings\": false, "
		 "\"max_position_embeddings\": 32768}",
		 &r, &p);
	assert_true(r.qkv_bias && !r.attention_bias && !r.tied_embeddings);
	assert_int_equal(r.kv_heads, 2);
	assert_int_equal(r.norms_per_layer, 4);
	layer = 4096.0 * 4096 + 4096 + 2 * (4096.0 * 256 + 256) + 4096.0 * 4096 +
		4096.0 * 2 * 13696 + 13696.0 * 4096 + 4 * 4096;
	assert_count(p.total, 2.0 * 151552 * 4096 + 4096 + 40 * layer);
	assert_count(p.total, 9400279040LL);
}

/* Real configs of the families that used to be tested only with made-up shapes, each
 * counted module by module as its modeling file builds it. */
static void test_real_family_configs(void **state)
{
	struct model r;
	struct model_params p;
	static struct plan pl;
	double layer, fixed, expert;
	(void)state;
	/* bigcode/starcoder2-15b (modeling_starcoder2.py): q (6144 x 6144), k and v (6144 x
	 * 4 x 128), o, c_fc/c_proj (24576), each with a bias; two LayerNorms with biases a
	 * layer and a final one; untied lm_head without a bias: 15,957,889,024 (the card's
	 * "15B", the Hub's "16B params"). Every layer windowed (4096). */
	load("starcoder2-15b.json", &r, &p);
	assert_true(r.attention_bias && r.mlp_bias && !r.tied_embeddings);
	assert_int_equal(r.kv_heads, 4);
	assert_int_equal(r.sliding_window, 4096);
	assert_int_equal(r.global_layers, 0);
	layer = 2 * (6144.0 * 6144 + 6144) + 2 * (6144.0 * 512 + 512) + 2 * 6144.0 * 24576 + 24576 +
		6144 + 4 * 6144;
	assert_count(p.total, 2.0 * 49152 * 6144 + 2 * 6144 + 40 * layer);
	assert_count(p.total, 15957889024LL);
	/* ibm-granite/granite-3.1-3b-a800m-instruct (modeling_granitemoe.py): bias-free q, k
	 * (8 x 64), v, o; 40 experts of input_linear (2 x 512 rows) and output_linear, top 8;
	 * a bias-free router; two RMSNorms; tied: 3,298,793,472 total (the Hub's "3.3B") and
	 * 882,874,368 active, 807,371,328 without the embedding (the name's "A800M"). */
	load("granite-3.1-3b-a800m.json", &r, &p);
	assert_int_equal(r.moe.experts, 40);
	assert_int_equal(r.moe.active, 8);
	assert_int_equal(r.moe.shared, 0);
	assert_true(r.tied_embeddings);
	expert = 3.0 * 1536 * 512;
	fixed = 49155.0 * 1536 + 1536 +
		32 * (2 * 1536.0 * 1536 + 2 * 1536.0 * 512 + 1536.0 * 40 + 2 * 1536);
	assert_count(p.total, fixed + 32 * 40 * expert);
	assert_count(p.active, fixed + 32 * 8 * expert);
	assert_count(p.total, 3298793472LL);
	assert_true(p.active - p.embedding >= 800e6 && p.active - p.embedding < 810e6);
	/* Granite 3.3 2B's dense shape (modeling_granite.py): bias-free q, k (8 x 64), v, o;
	 * SwiGLU 8192; two RMSNorms a layer; a final one; tied over 49159. The four
	 * multipliers scale activations and are no parameters: 2,533,539,840 by this sum. */
	load("granite-3.3-2b.json", &r, &p);
	assert_true(r.tied_embeddings && !r.attention_bias);
	assert_int_equal(r.kv_heads, 8);
	assert_int_equal(r.max_context, 131072);
	layer = 2 * 2048.0 * 2048 + 2 * 2048.0 * 512 + 3 * 2048.0 * 8192 + 2 * 2048;
	assert_count(p.total, 49159.0 * 2048 + 40 * layer + 2048);
	assert_count(p.total, 2533539840LL);
	/* EleutherAI/gpt-j-6b (modeling_gptj.py): bias-free q, k, v, out_proj; fc_in/fc_out
	 * (4 x 4096) with biases; one ln_1 a layer; ln_f; untied lm_head with a bias over
	 * 50400: 6,050,882,784 (the Hub's "6.05B"). The card's 6,053,381,344 is 2,498,560
	 * more, which no module of the Hugging Face model accounts for: it is the count of
	 * the mesh-transformer-jax checkpoint, not of these weights. */
	load("gpt-j-6b.json", &r, &p);
	assert_true(r.parallel_block && r.head_bias && r.mlp_bias && !r.attention_bias);
	assert_int_equal(r.ffn, 16384);
	layer = 4 * 4096.0 * 4096 + 2 * 4096.0 * 16384 + 16384 + 4096 + 2 * 4096;
	assert_count(p.total, 50400.0 * 4096 + 28 * layer + 2 * 4096 + 50400.0 * 4096 + 50400);
	assert_count(p.total, 6050882784LL);
	/* CohereForAI/aya-23-8b (modeling_cohere.py): bias-free q, k (8 x 128), v, o and SwiGLU
	 * 14336; one CohereLayerNorm (a weight, no bias) a layer feeding attention and MLP in
	 * parallel, and a final one; embeddings tied (no tie_word_embeddings key: CohereConfig's
	 * default): 8,028,033,024 (the Hub's "8.03B"). */
	load("aya-23-8b.json", &r, &p);
	assert_true(r.parallel_block && r.tied_embeddings && !r.qk_norm);
	assert_int_equal(r.norms_per_layer, 1);
	layer = 2 * 4096.0 * 4096 + 2 * 4096.0 * 1024 + 3 * 4096.0 * 14336 + 4096;
	assert_count(p.total, 256000.0 * 4096 + 32 * layer + 4096);
	assert_count(p.total, 8028033024LL);
	/* CohereForAI/c4ai-command-r7b-12-2024 (modeling_cohere2.py): the same modules as Aya
	 * 23 8B, as transformers prints them for a 4-bit re-upload (Svngoku/c4ai-command-r7b-
	 * 12-2024-4bit's card: Embedding(256000, 4096), 32 x Cohere2DecoderLayer, k and v
	 * 4096 -> 1024, MLP 14336, one Cohere2LayerNorm a layer); its sliding windows add no
	 * parameter: 8,028,033,024, Aya 23 8B's count. No whole published config.json was
	 * found (tests/data/configs/README.md): the printout's shape written as keys. */
	parse_ok("{\"architectures\": [\"Cohere2ForCausalLM\"], \"model_type\": \"cohere2\", "
		 "\"vocab_size\": 256000, \"hidden_size\": 4096, \"intermediate_size\": 14336, "
		 "\"num_hidden_layers\": 32, \"num_attention_heads\": 32, "
		 "\"num_key_value_heads\": 8, \"sliding_window\": 4096, "
		 "\"sliding_window_pattern\": 4}",
		 &r, &p);
	assert_true(r.parallel_block && r.tied_embeddings);
	assert_int_equal(r.global_layers, 8);
	assert_count(p.total, 256000.0 * 4096 + 32 * layer + 4096);
	/* internlm/internlm2-chat-1_8b (InternLM's modeling_internlm2.py): a packed,
	 * bias-free wqkv of (16 + 2 x 8) x 128 rows, wo, SwiGLU 8192, two RMSNorms; untied
	 * output: 1,889,110,016 (the Hub's "1.89B"). */
	load("internlm2-chat-1_8b.json", &r, &p);
	assert_int_equal(r.kv_heads, 8);
	assert_false(r.attention_bias);
	layer = 32 * 128.0 * 2048 + 2048.0 * 2048 + 3 * 2048.0 * 8192 + 2 * 2048;
	assert_count(p.total, 2 * 92544.0 * 2048 + 24 * layer + 2048);
	assert_count(p.total, 1889110016LL);
	/* LGAI-EXAONE/EXAONE-4.0-32B (modeling_exaone4.py): bias-free q, k (8 x 128), v, o;
	 * q_norm and k_norm over one head (128 each); post_attention_layernorm and
	 * post_feedforward_layernorm; SwiGLU 27392; a final norm; untied lm_head:
	 * 30,954,640,384 without the two embeddings (the card's "Number of Parameters
	 * (without embeddings): 30.95B") and 32,003,216,384 in all. sliding_window_pattern
	 * 4: three 4096-token windowed layers, then a global one. */
	load("exaone-4.0-32b.json", &r, &p);
	assert_true(r.qk_norm && !r.tied_embeddings);
	assert_int_equal(r.kv_heads, 8);
	assert_int_equal(r.sliding_window, 4096);
	assert_int_equal(r.global_layers, 16);
	layer = 2 * 5120.0 * 5120 + 2 * 5120.0 * 1024 + 2 * 128 + 2 * 5120 + 3 * 5120.0 * 27392;
	assert_count(p.total - 2 * p.embedding, 64 * layer + 5120);
	assert_count(p.total - 2 * p.embedding, 30954640384LL);
	assert_count(p.total, 32003216384LL);
	/* LGAI-EXAONE/EXAONE-4.0-1.2B, the same module sum: q (32 x 64), k and v (8 x 64), o;
	 * q_norm and k_norm (64 each); two block norms; SwiGLU 4096; a final norm; tied over
	 * 102400: 1,069,676,288 without the embedding (the card's "Number of Parameters
	 * (without embeddings): 1.07B") and 1,279,391,488 in all. Every layer global
	 * (sliding_window null, layer_types all full_attention). */
	load("exaone-4.0-1.2b.json", &r, &p);
	assert_true(r.qk_norm && r.tied_embeddings);
	assert_int_equal(r.kv_heads, 8);
	assert_int_equal(r.head_dim, 64);
	assert_int_equal(r.sliding_window, 0);
	assert_int_equal(r.global_layers, 0);
	layer = 2 * 2048.0 * 2048 + 2 * 2048.0 * 512 + 2 * 64 + 2 * 2048 + 3 * 2048.0 * 4096;
	assert_count(p.total - p.embedding, 30 * layer + 2048);
	assert_count(p.total - p.embedding, 1069676288LL);
	assert_count(p.total, 1279391488LL);
	/* K and V of 8 heads of 64 in each of 30 layers, 2 bytes each: 61,440 bytes a token */
	plan_serving("exaone-4.0-1.2b.json", 1, &pl);
	assert_true(pl.mem.kv_bytes_per_token == 30 * 2 * 8 * 64 * 2.0);
	/* openbmb MiniCPM-2B (its modeling_minicpm.py): Llama's bias-free q, k, v, o over 36
	 * heads of 64 (no GQA), SwiGLU 5760, two RMSNorms a layer, a final one; lm_head tied
	 * to embed_tokens (no tie_word_embeddings key: MiniCPMConfig's default, True):
	 * 2,442,057,984 without the embedding (the card's "2.4B non-embedding parameters")
	 * and 2,724,880,896 with its 122753 x 2304. scale_emb, dim_model_base and scale_depth
	 * scale activations and are no parameters. */
	load("minicpm-2b.json", &r, &p);
	assert_true(r.tied_embeddings && !r.attention_bias);
	assert_int_equal(r.kv_heads, 36);
	assert_int_equal(r.max_context, 2048);
	layer = 4 * 2304.0 * 2304 + 3 * 2304.0 * 5760 + 2 * 2304;
	assert_count(p.total - p.embedding, 40 * layer + 2304);
	assert_count(p.total - p.embedding, 2442057984LL);
	assert_count(p.total, 2724880896LL);
	/* K and V of 36 heads of 64 in each of 40 layers: 368,640 bytes a token */
	plan_serving("minicpm-2b.json", 1, &pl);
	assert_true(pl.mem.kv_bytes_per_token == 40 * 2 * 2304 * 2.0);
	/* stabilityai/stablelm-3b-4e1t (transformers' modeling_stablelm.py): bias-free q, k,
	 * v, o (use_qkv_bias false) over 32 heads of 80, SwiGLU 6912, two LayerNorms with
	 * biases a layer and a final one, untied lm_head over 50304: 2,795,443,200, the
	 * card's "Parameters" figure exactly. partial_rotary_factor 0.25 rotates a quarter of
	 * each head and adds no parameters. */
	load("stablelm-3b-4e1t.json", &r, &p);
	assert_true(r.norm == NORM_LAYERNORM && !r.qkv_bias && !r.tied_embeddings);
	assert_int_equal(r.kv_heads, 32);
	layer = 4 * 2560.0 * 2560 + 3 * 2560.0 * 6912 + 2 * 2 * 2560;
	assert_count(p.total, 2 * 50304.0 * 2560 + 32 * layer + 2 * 2560);
	assert_count(p.total, 2795443200LL);
	/* stabilityai/stablelm-2-zephyr-1_6b, Stable LM 2 1.6B's shape: q, k and v with biases
	 * (use_qkv_bias), a bias-free o, SwiGLU 5632, two LayerNorms with biases a layer, a
	 * final one, untied over 100352: 1,644,515,328. The base model's card gives
	 * 1,644,417,024, 98,304 (24 x 4096, the layers' LayerNorm biases) fewer: the count
	 * here is transformers' module sum (nn.LayerNorm keeps its bias), not the card's. */
	load("stablelm-2-zephyr-1_6b.json", &r, &p);
	assert_true(r.norm == NORM_LAYERNORM && r.qkv_bias && !r.tied_embeddings);
	layer = 4 * 2048.0 * 2048 + 3 * 2048 + 3 * 2048.0 * 5632 + 2 * 2 * 2048;
	assert_count(p.total, 2 * 100352.0 * 2048 + 24 * layer + 2 * 2048);
	assert_count(p.total, 1644515328LL);
	assert_count(p.total - 24 * 2 * 2048, 1644417024LL);
}

/* Real configs of the MoE families that had none, each counted module by module as its
 * modeling file builds it (sources in tests/data/configs/README.md). */
static void test_real_moe_configs(void **state)
{
	struct model r;
	struct model_params p;
	double fixed, expert;
	(void)state;
	/* databricks/dbrx-instruct (modeling_dbrx.py): a bias-free Wqkv of (48 + 2 x 8) x 128
	 * rows, out_proj, norm_1 and norm_2 (LayerNorm without bias), a bias-free router
	 * over 16 experts (top 4) of w1, v1 and w2 (10752); norm_f; untied lm_head:
	 * 131,596,523,520 total, 36,469,708,800 active (Databricks' announcement: "132B
	 * total parameters of which 36B parameters are active"). Its shape keys sit in the
	 * nested attn_config and ffn_config. */
	load("dbrx-instruct.json", &r, &p);
	assert_int_equal(r.kv_heads, 8);
	assert_int_equal(r.moe.experts, 16);
	assert_int_equal(r.moe.active, 4);
	assert_int_equal(r.max_context, 32768);
	assert_false(r.tied_embeddings);
	expert = 3.0 * 6144 * 10752;
	fixed = 2.0 * 100352 * 6144 + 6144 +
		40 * (6144.0 * 8192 + 6144.0 * 6144 + 2 * 6144 + 6144.0 * 16);
	assert_count(p.total, fixed + 40 * 16 * expert);
	assert_count(p.active, fixed + 40 * 4 * expert);
	assert_count(p.total, 131596523520LL);
	assert_count(p.active, 36469708800LL);
	/* microsoft/Phi-3.5-MoE-instruct (modeling_phimoe.py): q, k (8 x 128), v and o with
	 * biases (attention_bias); two LayerNorms with biases a layer; a bias-free router
	 * over 16 experts (top 2) of w1, w3 and w2 (6400); a final LayerNorm; untied lm_head
	 * with a bias (lm_head_bias): 41,873,153,344 total and 6,640,999,744 active (the
	 * card: "16x3.8B parameters with 6.6B active parameters"; "41.9B params" in the
	 * note the config comes from). */
	load("phi-3.5-moe-instruct.json", &r, &p);
	assert_true(r.attention_bias && r.head_bias && !r.tied_embeddings);
	assert_int_equal(r.kv_heads, 8);
	assert_int_equal(r.moe.experts, 16);
	assert_int_equal(r.moe.active, 2);
	expert = 3.0 * 4096 * 6400;
	fixed =
	    2.0 * 32064 * 4096 + 32064 + 2 * 4096 +
	    32 * (2 * (4096.0 * 4096 + 4096) + 2 * (4096.0 * 1024 + 1024) + 4 * 4096 + 4096.0 * 16);
	assert_count(p.total, fixed + 32 * 16 * expert);
	assert_count(p.active, fixed + 32 * 2 * expert);
	assert_count(p.total, 41873153344LL);
	assert_count(p.active, 6640999744LL);
	/* openbmb/MiniCPM-MoE-8x2B (its modeling_minicpm.py, MiniCPMMoE): MiniCPM-2B's
	 * attention, two RMSNorms a layer, a bias-free gate over 8 experts (top 2) of
	 * gate, up and down (5760) in every layer; the embedding tied: 13,873,291,776 total
	 * and 4,318,142,976 active, 13,590,468,864 and 4,035,320,064 without the embedding
	 * (the card's "13.6B" non-embedding parameters, "4B" activated). */
	load("minicpm-moe-8x2b.json", &r, &p);
	assert_true(r.tied_embeddings);
	assert_int_equal(r.moe.experts, 8);
	assert_int_equal(r.moe.active, 2);
	expert = 3.0 * 2304 * 5760;
	fixed = 122753.0 * 2304 + 2304 + 40 * (4 * 2304.0 * 2304 + 2 * 2304 + 2304.0 * 8);
	assert_count(p.total, fixed + 40 * 8 * expert);
	assert_count(p.active, fixed + 40 * 2 * expert);
	assert_count(p.total, 13873291776LL);
	assert_count(p.active, 4318142976LL);
	assert_count(p.total - p.embedding, 13590468864LL);
}

/* microsoft/Phi-3-small-8k-instruct (its remote code modeling_phi3_small.py; vLLM's
 * phi3_small.py): per layer a fused query_key_value of (32 + 2 x 8) x 128 and dense, both
 * with biases (nn.Linear's default; the config's attention_bias false is not read), an
 * up_proj to 2 x 14336 (GEGeLU's two halves) and a down_proj, with biases, and two
 * LayerNorms with biases; a final LayerNorm; lm_head tied to the 100352-token embedding.
 * 7,392,272,384 parameters: the 7.39B published for it (the Phi-3 report, arXiv
 * 2404.14219, calls it the 7B model). Its block-sparse layers keep the K/V of every token
 * (vLLM's paged cache), so the cache is 32 layers x 2 x 8 x 128 a token. */
static void test_phi3_small(void **state)
{
	struct model r;
	struct model_params p;
	struct hf_config_info info;
	struct plan pl;
	double attn, mlp, layer;
	(void)state;
	load_info("phi-3-small-8k-instruct.json", &r, &p, &info);
	assert_int_equal(r.layers, 32);
	assert_int_equal(r.head_dim, 128);
	assert_int_equal(r.kv_heads, 8);
	assert_int_equal(r.ffn, 14336);
	assert_true(r.attention_bias && r.mlp_bias && r.tied_embeddings && !r.head_bias);
	assert_true(r.mlp == MLP_GATED && r.norm == NORM_LAYERNORM);
	assert_int_equal(r.sliding_window, 0);
	attn = 4096.0 * (32 + 2 * 8) * 128 + (32 + 2 * 8) * 128 + 4096.0 * 4096 + 4096;
	mlp = 4096.0 * 2 * 14336 + 2 * 14336 + 14336.0 * 4096 + 4096;
	layer = attn + mlp + 2 * 2 * 4096;
	assert_count(p.attention_one, attn);
	assert_count(p.mlp_one, mlp);
	assert_count(p.total, 100352.0 * 4096 + 32 * layer + 2 * 4096);
	assert_count(p.total, 7392272384LL);
	assert_count(p.active, p.total);
	assert_published(p.total, 7.39e9, 0.01e9);
	/* 16 of the 32 layers block-sparse (every 2nd dense): 16 local blocks of 64 tokens,
	 * then every 8th block */
	assert_int_equal(r.sparse_layers, 16);
	assert_int_equal(r.sparse_local, 1024);
	assert_int_equal(r.sparse_stride, 8);
	assert_int_equal(info.nwarnings, 0);
	assert_true(model_kv_elems_per_token_layer(&r) == 2 * 8 * 128);
	plan_serving("phi-3-small-8k-instruct.json", 1, &pl);
	assert_true(pl.mem.kv_bytes_per_token == 32 * 2 * 8 * 128 * 2.0);

	/* ff_dim_multiplier instead: multiplier x (hidden // 3) x 2, up to a multiple of 256
	 * unless gegelu_pad_to_256 is false (Phi3SmallConfig.intermediate_size) */
#define P3S_SMALL                                                                                  \
	"{\"model_type\": \"phi3small\", \"num_hidden_layers\": 2, \"hidden_size\": 1000,\n"       \
	"\"num_attention_heads\": 8, \"num_key_value_heads\": 2, \"vocab_size\": 100"
	parse_ok(P3S_SMALL ", \"ff_dim_multiplier\": 3, \"ff_intermediate_size\": null}", &r, &p);
	assert_int_equal(r.ffn, 2048); /* 3 x 333 x 2 = 1998, padded */
	parse_ok(P3S_SMALL ", \"ff_dim_multiplier\": 3, \"gegelu_pad_to_256\": false}", &r, &p);
	assert_int_equal(r.ffn, 1998);
	parse_ok(P3S_SMALL
		 ", \"ff_intermediate_size\": 512, \"dense_attention_every_n_layers\": 1}",
		 &r, &p);
	assert_int_equal(r.ffn, 512);
	/* every layer dense: none sparse; null: every layer block-sparse */
	parse_ok(P3S_SMALL ", \"ff_intermediate_size\": 512, "
			   "\"dense_attention_every_n_layers\": 1}",
		 &r, &p);
	assert_int_equal(r.sparse_layers, 0);
	parse_ok(P3S_SMALL
		 ", \"ff_intermediate_size\": 512, "
		 "\"dense_attention_every_n_layers\": null, \"blocksparse_vert_stride\": 4}",
		 &r, &p);
	assert_int_equal(r.sparse_layers, 2);
	assert_int_equal(r.sparse_stride, 4);
	fail_with(P3S_SMALL ", \"ff_intermediate_size\": 512,\n\"ff_dim_multiplier\": 3}",
		  "ff_dim_multiplier", 3, 22, "not both");
	fail_with(P3S_SMALL "}", "ff_intermediate_size", 1, 1, "missing 'ff_intermediate_size'");
	fail_with(P3S_SMALL ", \"ff_intermediate_size\": 512,\n\"hidden_act\": \"silu\"}",
		  "hidden_act", 3, 15, "must be \"gegelu\"");
	/* the heads must divide hidden (there is no head_dim key) */
	fail_with(
	    "{\"model_type\": \"phi3small\", \"num_hidden_layers\": 2, \"hidden_size\": 1000, "
	    "\"num_attention_heads\": 7, \"vocab_size\": 100, \"ff_intermediate_size\": 512}",
	    "num_attention_heads", 1, 97, "7 heads do not divide hidden_size 1000");
#undef P3S_SMALL
}

/* DeepSeekMoE 16B (deepseek-ai/deepseek-moe-16b-base): 16.4B total, 2.8B active
 * (DeepSeekMoE paper, Table 3; the card). One dense layer, then 64 routed experts (top 6)
 * and 2 shared ones of 1408 per layer. */
static void test_deepseek_moe(void **state)
{
	struct model r;
	struct model_params p;
	double fixed, expert;
	(void)state;
	load("deepseek-moe-16b.json", &r, &p);
	assert_int_equal(r.mla.kv_rank, 0);
	assert_int_equal(r.moe.experts, 64);
	assert_int_equal(r.moe.shared, 2);
	assert_int_equal(r.moe.dense_layers, 1);
	expert = 3.0 * 2048 * 1408;
	fixed = 2.0 * 102400 * 2048 + 2048 + 28 * (4.0 * 2048 * 2048 + 2 * 2048) +
		3.0 * 2048 * 10944 + 27 * (2048.0 * 64 + 2 * expert);
	assert_count(p.total, fixed + 27 * 64 * expert);
	assert_count(p.active, fixed + 27 * 6 * expert);
	assert_count(p.total, 16375728128LL);
	assert_true(p.total >= 16.35e9 && p.total < 16.45e9);
	assert_true(p.active >= 2.8e9 && p.active < 2.9e9);
}

/* openai/gpt-oss-20b (modeling_gpt_oss.py): biases on q, k, v, o, experts and router,
 * one sink per head. OpenAI's model card: 20.91B total, 3.61B active, where "active"
 * leaves out the input embedding (it counts the unembedding): here active includes both,
 * so active - embedding is compared. */
static void test_gpt_oss(void **state)
{
	struct model r;
	struct model_params p;
	struct hf_config_info info;
	double attn, expert, layer;
	(void)state;
	load_info("gpt-oss-20b.json", &r, &p, &info);
	assert_true(r.attention_sinks && r.router_bias && r.mlp_bias && r.attention_bias);
	assert_int_equal(r.moe.experts, 32);
	assert_int_equal(r.moe.active, 4);
	/* layer_types: 12 sliding (128 tokens) and 12 full layers, alternating */
	assert_int_equal(r.sliding_window, 128);
	assert_int_equal(r.global_layers, 12);
	assert_false(r.chunked_attention);
	assert_false(has_warning(&info, "sliding-window"));
	attn = 2880.0 * 4096 + 4096 + 2 * (2880.0 * 512 + 512) + 4096.0 * 2880 + 2880 + 64;
	expert = 3.0 * 2880 * 2880 + 2 * 2880 + 2880;
	layer = attn + 2 * 2880 + 2880.0 * 32 + 32;
	assert_count(p.total, 2.0 * 201088 * 2880 + 2880 + 24 * (layer + 32 * expert));
	assert_count(p.active, 2.0 * 201088 * 2880 + 2880 + 24 * (layer + 4 * expert));
	assert_true(fabs(p.total - 20.91e9) < 0.005e9);
	assert_true(fabs(p.active - p.embedding - 3.61e9) < 0.005e9);
}

/* Which layers attend over a window, for the families that mix them: layer_types,
 * sliding_window_pattern (a number, or EXAONE's letters), or the family's default; a null
 * sliding_window leaves every layer global; a layer_types list of the wrong length is an
 * error at its key. */
static void test_window_layers(void **state)
{
	struct model r;
	struct model_params p;
	struct gp_error e;
	(void)state;
	/* google/gemma-2-9b: Gemma2Config's layer_types alternate, sliding first: 21 of 42 */
	load("gemma-2-9b.json", &r, &p);
	assert_int_equal(r.sliding_window, 4096);
	assert_int_equal(r.global_layers, 21);
	/* Cohere2Config: sliding_window_pattern 4 (c4ai-command-r7b-12-2024) */
	parse_ok("{\"model_type\": \"cohere2\", \"num_hidden_layers\": 32, \"hidden_size\": 64, "
		 "\"num_attention_heads\": 4, \"intermediate_size\": 128, \"vocab_size\": 100, "
		 "\"sliding_window\": 4096, \"sliding_window_pattern\": 4}",
		 &r, &p);
	assert_int_equal(r.sliding_window, 4096);
	assert_int_equal(r.global_layers, 8);
	/* cohere2 without a pattern: the class's default, 4 */
	parse_ok("{\"model_type\": \"cohere2\", \"num_hidden_layers\": 10, \"hidden_size\": 64, "
		 "\"num_attention_heads\": 4, \"intermediate_size\": 128, \"vocab_size\": 100, "
		 "\"sliding_window\": 512}",
		 &r, &p);
	assert_int_equal(r.global_layers, 2);
	/* EXAONE 4.0 32B spells the pattern "LLLG" */
	parse_ok("{\"model_type\": \"exaone4\", \"num_hidden_layers\": 64, \"hidden_size\": 64, "
		 "\"num_attention_heads\": 4, \"intermediate_size\": 128, \"vocab_size\": 100, "
		 "\"sliding_window\": 4096, \"sliding_window_pattern\": \"LLLG\"}",
		 &r, &p);
	assert_int_equal(r.sliding_window, 4096);
	assert_int_equal(r.global_layers, 16);
	/* a null window: every layer global (EXAONE 4.0 1.2B) */
	parse_ok("{\"model_type\": \"exaone4\", \"num_hidden_layers\": 30, \"hidden_size\": 64, "
		 "\"num_attention_heads\": 4, \"intermediate_size\": 128, \"vocab_size\": 100, "
		 "\"sliding_window\": null}",
		 &r, &p);
	assert_int_equal(r.sliding_window, 0);
	assert_int_equal(r.global_layers, 0);
	/* every layer in layer_types sliding: one window for all (global 0) */
	parse_ok("{\"model_type\": \"olmo3\", \"num_hidden_layers\": 2, \"hidden_size\": 64, "
		 "\"num_attention_heads\": 4, \"intermediate_size\": 128, \"vocab_size\": 100, "
		 "\"sliding_window\": 256, \"layer_types\": [\"sliding_attention\", "
		 "\"sliding_attention\"]}",
		 &r, &p);
	assert_int_equal(r.sliding_window, 256);
	assert_int_equal(r.global_layers, 0);
	e = parse_fail(
	    "{\"model_type\": \"gpt_oss\", \"num_hidden_layers\": 3, \"hidden_size\": 64,\n"
	    "\"num_attention_heads\": 4, \"intermediate_size\": 128, \"vocab_size\": 100,\n"
	    "\"num_local_experts\": 4, \"num_experts_per_tok\": 2, \"sliding_window\": 128,\n"
	    " \"layer_types\": [\"sliding_attention\", \"full_attention\"]}");
	assert_string_equal(e.field, "layer_types");
	assert_int_equal(e.line, 4);
	assert_int_equal(e.column, 17);
	assert_non_null(strstr(e.message, "lists 2 layers, but num_hidden_layers is 3"));
#define OSS_SMALL                                                                                  \
	"{\"model_type\": \"gpt_oss\", \"num_hidden_layers\": 2, \"hidden_size\": 64,\n"           \
	"\"num_attention_heads\": 4, \"intermediate_size\": 128, \"vocab_size\": 100,\n"           \
	"\"num_local_experts\": 4, \"num_experts_per_tok\": 2,\n"
	/* A layer that is neither is an error at its entry naming what is accepted, not a
	 * full-attention layer; Llama 4's chunked layers are no sliding layers of these
	 * families; sliding layers without a window (0, null, absent) contradict them, at the
	 * window's key (at layer_types when it is absent). Line 0: not checked. */
	static const struct {
		const char *tail, *field;
		int line, column;
		const char *message;
	} bad[] = {
	    {"\"sliding_window\": 128,\n\"layer_types\": [\"sliding_attention\", "
	     "\"bogus_attention\"]}",
	     "layer_types", 5, 38,
	     "layer 1 is \"bogus_attention\"; expected \"sliding_attention\" or "
	     "\"full_attention\""},
	    {"\"sliding_window\": 128, \"layer_types\": [\"full_attention\", 7]}", "layer_types", 4,
	     58, "must hold strings, not a number"},
	    {"\"sliding_window\": 128,\n\"layer_types\": [\"chunked_attention\", "
	     "\"full_attention\"]}",
	     "layer_types", 5, 17, "layer 0 is \"chunked_attention\""},
	    {"\"sliding_window\": 0,\n\"layer_types\": [\"sliding_attention\", "
	     "\"full_attention\"]}",
	     "sliding_window", 4, 19,
	     "lists 1 \"sliding_attention\" layers, but 'sliding_window' is 0"},
	    {"\"sliding_window\": null,\n\"layer_types\": [\"sliding_attention\", "
	     "\"full_attention\"]}",
	     "sliding_window", 4, 19, "'sliding_window' is null"},
	    {"\"layer_types\": [\"sliding_attention\", \"full_attention\"]}", "sliding_window", 4,
	     16, "'sliding_window' is not given"},
	    /* 0 with the family's default pattern (gpt-oss: every other layer sliding) */
	    {"\"sliding_window\": 0}", "sliding_window", 4, 19,
	     "'sliding_window' is 0, but 1 of the 2 layers"},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char text[600];
		snprintf(text, sizeof(text), "%s%s", OSS_SMALL, bad[i].tail);
		fail_with(text, bad[i].field, bad[i].line, bad[i].column, bad[i].message);
	}
	/* every layer full: no window wanted, 0 or null alike */
	parse_ok(OSS_SMALL "\"sliding_window\": 0, "
			   "\"layer_types\": [\"full_attention\", \"full_attention\"]}",
		 &r, &p);
	assert_int_equal(r.sliding_window, 0);
	parse_ok(OSS_SMALL "\"sliding_window\": 128, "
			   "\"layer_types\": [\"full_attention\", \"sliding_attention\"]}",
		 &r, &p);
	assert_int_equal(r.sliding_window, 128);
	assert_int_equal(r.global_layers, 1);
#undef OSS_SMALL
	e = parse_fail(
	    "{\"model_type\": \"llama4_text\", \"num_hidden_layers\": 2, \"hidden_size\": 64, "
	    "\"num_attention_heads\": 4, \"intermediate_size\": 128, \"vocab_size\": 100, "
	    "\"num_local_experts\": 4, \"num_experts_per_tok\": 1, "
	    "\"attention_chunk_size\": 8192, \"no_rope_layers\": [1, 2]}");
	assert_string_equal(e.field, "no_rope_layers");
}

/* Families whose layers this count cannot express are still refused by name at model_type
 * (Falcon-H1's parallel attention and Mamba mixers, Phi-3-small's block-sparse attention); a
 * Nemotron-H pattern that does not list every layer is an error at the pattern
 * (nvidia/Nemotron-H-8B-Base-8K's keys, abridged). These two used to assert that nemotron_h and
 * jamba were refused; they import now (test_ssm_families). */
static void test_hybrids_refused(void **state)
{
	struct gp_error e;
	(void)state;
	e = parse_fail("{\"num_hidden_layers\": 52, \"hidden_size\": 4096,\n"
		       "  \"num_attention_heads\": 32, \"intermediate_size\": 21504,\n"
		       "  \"vocab_size\": 131072, \"model_type\": \"nemotron_h\",\n"
		       "  \"hybrid_override_pattern\": \"M-M-M-M*-\"}");
	assert_string_equal(e.field, "hybrid_override_pattern");
	assert_int_equal(e.line, 4);
	assert_int_equal(e.column, 30);
	assert_non_null(strstr(e.message, "has 9 layers, but num_hidden_layers is 52"));
	e = parse_fail("{\"model_type\": \"nemotron_h\", \"hybrid_override_pattern\": \"M-X*\"}");
	assert_string_equal(e.field, "hybrid_override_pattern");
	assert_non_null(strstr(e.message, "layer 2 is 'X'"));
	e = parse_fail("{\"model_type\": \"falcon_h1\", \"num_hidden_layers\": 44, "
		       "\"hidden_size\": 3072, \"num_attention_heads\": 12, "
		       "\"intermediate_size\": 12288, \"vocab_size\": 130049}");
	assert_non_null(strstr(e.message, "'falcon_h1' is not supported"));
	/* Mamba-2 heads that do not make the inner width; Jamba's offset past its period */
	e = parse_fail(
	    "{\"model_type\": \"mamba2\", \"num_hidden_layers\": 2, \"hidden_size\": 64,\n"
	    " \"vocab_size\": 10, \"num_heads\": 3, \"head_dim\": 64}");
	assert_string_equal(e.field, "num_heads");
	assert_int_equal(e.line, 2);
	assert_non_null(strstr(e.message, "do not make expand x hidden_size = 128"));
	e = parse_fail(
	    "{\"model_type\": \"jamba\", \"num_hidden_layers\": 32, \"hidden_size\": 4096, "
	    "\"num_attention_heads\": 32, \"intermediate_size\": 14336, "
	    "\"vocab_size\": 65536, \"attn_layer_offset\": 8}");
	assert_string_equal(e.field, "attn_layer_offset");
	e = parse_fail(
	    "{\"model_type\": \"jamba\", \"num_hidden_layers\": 32, \"hidden_size\": 4096, "
	    "\"num_attention_heads\": 32, \"intermediate_size\": 14336, "
	    "\"vocab_size\": 65536, \"num_experts\": 2, \"num_experts_per_tok\": 3}");
	assert_string_equal(e.field, "num_experts_per_tok");
	assert_non_null(strstr(e.message, "3 experts per token, but only 2 experts"));
}

/* State-space models and hybrids, counted module by module as transformers builds them
 * (model.c, ssm_params):
 * - mistralai/Mamba-Codestral-7B-v0.1 (Mamba-2): 7,285,403,648, the figure Mistral's
 *   announcement gives ("an instructed model, with 7,285,403,648 parameters"), exactly;
 * - tiiuae/falcon-mamba-7b (Mamba-1): 7,272,665,088 by the module count below; the model
 *   card's "7.27B";
 * - ai21labs/AI21-Jamba-1.5-Mini: 51,570,323,328 total and 12,110,311,296 active; the model
 *   card's "12B active and 52B total parameters";
 * - nvidia/NVIDIA-Nemotron-Nano-9B-v2: 8,888,227,328; Hugging Face's "8.89B" for its
 *   weights. */
static void test_ssm_families(void **state)
{
	struct model r;
	struct model_params p;
	double mixer, conv;
	(void)state;

	load("mamba-codestral-7b.json", &r, &p);
	assert_int_equal(r.ssm.layers, 64);
	assert_int_equal(model_attention_layers(&r), 0);
	assert_int_equal(model_mlp_layers(&r), 0);
	assert_count(p.total, 7285403648.0);
	/* in_proj 4096 x (2 x 8192 + 2 x 8 x 128 + 128), conv1d over 10240 channels of 4 taps
	 * with biases, dt_bias, A_log and D per head, the gated norm, out_proj */
	mixer = 4096.0 * 18560 + 10240 * 5 + 3 * 128 + 8192 + 8192.0 * 4096;
	assert_count(p.ssm, mixer);
	assert_count(p.total, 64 * (mixer + 4096) + 2 * 32768.0 * 4096 + 4096);
	/* the state: (4 - 1) x 10240 conv and 128 heads x 64 x 128 SSM per layer */
	assert_count(model_ssm_state_elems(&r, &conv), 64 * (3 * 10240.0 + 8192.0 * 128));
	assert_count(conv, 64 * 3 * 10240.0);
	assert_true(model_kv_elems_per_token_layer(&r) == 0);

	load("falcon-mamba-7b.json", &r, &p);
	assert_int_equal(r.ssm.heads, 0);
	assert_int_equal(r.ssm.d_inner, 8192); /* intermediate_size, not expand 16 x 4096 */
	/* in_proj, conv1d (bias), x_proj to dt_rank 256 + 2 x 16, dt_proj (bias), A_log, D,
	 * out_proj; Falcon Mamba's B, C and dt norms have no weights */
	mixer = 4096.0 * 16384 + 8192 * 5 + 8192.0 * 288 + 256.0 * 8192 + 8192 + 8192 * 16 + 8192 +
		8192.0 * 4096;
	assert_count(p.ssm, mixer);
	assert_count(p.total, 7272665088.0);
	assert_count(model_ssm_state_elems(&r, NULL), 64 * (3 * 8192.0 + 8192 * 16));

	load("jamba-1.5-mini.json", &r, &p);
	/* attention where i % 8 == 4: layers 4, 12, 20, 28; MoE where i % 2 == 1 */
	assert_int_equal(model_attention_layers(&r), 4);
	assert_int_equal(r.ssm.layers, 28);
	assert_int_equal(model_moe_layers(&r), 16);
	assert_count(p.total, 51570323328.0);
	assert_count(p.active, 12110311296.0);
	assert_within(p.total, 52e9, 0.01);
	assert_within(p.active, 12e9, 0.01);
	/* KV cache in 4 of 32 layers: 2 x 8 x 128 elements each, averaged over the layers */
	assert_true(model_kv_elems_per_token_layer(&r) == 2 * 8 * 128 * 4 / 32.0);
	/* HF's HybridMambaAttentionDynamicCache: conv (4 - 1) x 8192, SSM 8192 x 16 */
	assert_count(model_ssm_state_elems(&r, NULL), 28 * (3 * 8192.0 + 8192 * 16));

	load("nemotron-nano-9b-v2.json", &r, &p);
	assert_int_equal(r.ssm.layers, 27);
	assert_int_equal(model_attention_layers(&r), 4);
	assert_int_equal(model_mlp_layers(&r), 25);
	assert_int_equal(r.ssm.d_inner, 128 * 80);
	assert_count(p.total, 8888227328.0);
	assert_within(p.total, 8.89e9, 0.001);
	/* conv over 10240 + 2 x 8 x 128 channels, SSM 128 heads x 80 x 128 */
	assert_count(model_ssm_state_elems(&r, NULL), 27 * (3 * 12288.0 + 10240.0 * 128));

	/* Nemotron-H-8B's keys, the rest NemotronHConfig's defaults (intermediate_size 21504,
	 * head_dim 128): 24 Mamba-2, 4 attention and 24 MLP layers; the card's "8B" */
	load("nemotron-h-8b.json", &r, &p);
	assert_int_equal(r.ssm.layers, 24);
	assert_int_equal(model_attention_layers(&r), 4);
	assert_int_equal(model_mlp_layers(&r), 24);
	assert_count(p.total,
		     24 * (4096.0 * 18560 + 10240 * 5 + 384 + 8192 + 8192.0 * 4096 + 4096) +
			 4 * (2 * 4096.0 * 4096 + 2 * 4096.0 * 1024 + 4096) +
			 24 * (2 * 4096.0 * 21504 + 4096) + 2 * 131072.0 * 4096 + 4096);
	assert_within(p.total, 8e9, 0.02);
}

/* Qwen3-Next-80B-A3B (tests/data/configs/README.md), counted module by module as
 * modeling_qwen3_next.py builds it:
 * - a Gated DeltaNet layer: in_proj_qkvz 2048 x (2 x 16 x 128 + 2 x 32 x 128) = 2048 x
 *   12288, in_proj_ba 2048 x 64, conv1d 8192 channels x 4 taps without bias, dt_bias and
 *   A_log 32 each, the gated norm 128, out_proj 4096 x 2048: 33,718,464;
 * - a gated-attention layer: q_proj 2048 x 16 x 256 x 2, k_proj and v_proj 2048 x 512,
 *   o_proj 4096 x 2048, q_norm and k_norm 256 each: 27,263,488;
 * - every layer's MoE: router 2048 x 512, 512 experts of 3 x 2048 x 512, the shared expert
 *   of 3 x 2048 x 512 and its 2048 x 1 gate: 1,614,809,088; two norms of 2048;
 * - embedding and untied head 151936 x 2048 each, the final norm 2048.
 * 36 linear and 12 full layers: 79,674,391,296 in all; per token 10 of the 512 experts:
 * 3,874,929,408 active. The model card's "80B total, 3B activated" (3.25B without the
 * embedding and head). The note the config comes from prints torchinfo's count of one
 * linear-attention decoder layer, 1,648,531,648 = 33,718,464 + 1,614,809,088 + 4096, and an
 * independent test of Qwen3-Coder-Next (the same shape) asserts 79,674,391,296 and
 * 3,874,929,408 against the checkpoint's tensors. The checkpoint's mtp.* layer is not
 * counted (transformers does not load it). */
static void test_qwen3_next(void **state)
{
	struct model r;
	struct model_params p;
	double conv, gdn = 2048.0 * 12288 + 2048 * 64 + 8192 * 4 + 64 + 128 + 4096.0 * 2048;
	double attn = 2048.0 * 8192 + 2 * 2048.0 * 512 + 4096.0 * 2048 + 512;
	double moe = 2048.0 * 512 + 513 * 3 * 2048.0 * 512 + 2048;
	struct gp_error e;
	(void)state;

	load("qwen3-next-80b-a3b.json", &r, &p);
	assert_int_equal(r.ssm.layers, 36);
	assert_int_equal(model_attention_layers(&r), 12);
	assert_int_equal(model_moe_layers(&r), 48);
	assert_true(r.ssm.gated_delta && r.attention_gate && r.qk_norm);
	assert_count(gdn, 33718464.0);
	assert_count(attn, 27263488.0);
	assert_count(p.ssm, gdn);
	assert_count(p.attention_one, attn);
	assert_count(gdn + moe + 4096, 1648531648.0); /* torchinfo, one linear layer */
	assert_count(p.total,
		     36 * gdn + 12 * attn + 48 * (moe + 4096) + 2 * 151936.0 * 2048 + 2048);
	assert_count(p.total, 79674391296.0);
	assert_count(p.active, 3874929408.0);
	assert_within(p.total, 80e9, 0.01);
	/* KV in the 12 full layers only: 2 x 2 x 256 each, averaged over the 48 */
	assert_true(model_kv_elems_per_token_layer(&r) == 2 * 2 * 256 * 12 / 48.0);
	/* the fixed state per linear layer: 32 value heads x 128 x 128, and the conv's
	 * (4 - 1) x 8192 (Qwen3NextDynamicCache recurrent_states, conv_states) */
	assert_count(model_ssm_state_elems(&r, &conv), 36 * (32 * 128.0 * 128 + 3 * 8192.0));
	assert_count(conv, 36 * 3 * 8192.0);
	/* decode: 7 dk dv per value head per layer; chunked: 6 C dk + 4 C dv + 6 dk dv */
	assert_true(model_ssm_flops_per_token(&r, true) == 36 * 7 * 32 * 128.0 * 128);
	assert_true(model_ssm_flops_per_token(&r, false) ==
		    36 * 32 * (6 * 64 * 128.0 + 4 * 64 * 128.0 + 6 * 128.0 * 128));
	assert_true(model_ssm_in_width(&r) == 12288 + 64);

	/* layer_types, when given, decide; they must list every layer */
#define Q3N_SMALL                                                                                  \
	"{\"model_type\": \"qwen3_next\", \"num_hidden_layers\": 4, \"hidden_size\": 256, "        \
	"\"num_attention_heads\": 4, \"vocab_size\": 64, \"num_experts\": 4, "                     \
	"\"num_experts_per_tok\": 2, \"moe_intermediate_size\": 64"
	parse_ok(Q3N_SMALL ", \"layer_types\": [\"full_attention\", \"linear_attention\", "
			   "\"full_attention\", \"linear_attention\"]}",
		 &r, &p);
	assert_int_equal(model_attention_layers(&r), 2);
	e = parse_fail(Q3N_SMALL
		       ",\n \"layer_types\": [\"full_attention\", \"sliding_attention\"]}");
	assert_string_equal(e.field, "layer_types");
	assert_int_equal(e.line, 2);
	assert_int_equal(e.column, 36); /* at the entry, not the list */
	assert_non_null(strstr(e.message, "layer 1 is \"sliding_attention\"; expected "
					  "\"full_attention\" or \"linear_attention\""));
	e = parse_fail(Q3N_SMALL ", \"linear_num_key_heads\": 3, \"linear_num_value_heads\": 8}");
#undef Q3N_SMALL
	assert_string_equal(e.field, "linear_num_value_heads");
}

/* DeciLM (nemotron-nas): per-layer blocks, counted as modeling_decilm.py builds them. A
 * hand-made four-layer config, counted independently here: layer 0 attention with 16 / 4
 * K/V heads and an MLP of ffn_mult 2 (int(2 x 2 x 1024 / 3) = 1365, rounded up to 1536);
 * layer 1 no attention (and no input norm) and ffn_mult 1 (682 -> 768); layer 2 a linear
 * for attention and no MLP (nor its norm); layer 3 attention and a linear for the MLP. */
static void test_decilm_blocks(void **state)
{
	static const char cfg[] =
	    "{\"model_type\": \"nemotron-nas\", \"num_hidden_layers\": 4, \"hidden_size\": 1024,\n"
	    " \"num_attention_heads\": 16, \"vocab_size\": 1000, \"block_configs\": [\n"
	    " {\"attention\": {\"n_heads_in_group\": 4, \"no_op\": false, \"replace_with_linear\": "
	    "false}, \"ffn\": {\"ffn_mult\": 2.0, \"no_op\": false, \"replace_with_linear\": "
	    "false}},\n"
	    " {\"attention\": {\"n_heads_in_group\": null, \"no_op\": true}, \"ffn\": "
	    "{\"ffn_mult\": "
	    "1.0}},\n"
	    " {\"attention\": {\"replace_with_linear\": true}, \"ffn\": {\"ffn_mult\": null, "
	    "\"no_op\": true}},\n"
	    " {\"attention\": {\"n_heads_in_group\": 4}, \"ffn\": {\"replace_with_linear\": "
	    "true}}]}";
	struct model r;
	struct model_params p;
	struct gp_error e;
	double attn = 2 * 1024.0 * 1024 + 2 * 1024.0 * 256;
	(void)state;

	parse_ok(cfg, &r, &p);
	assert_int_equal(model_attention_layers(&r), 2);
	assert_int_equal(r.kv_heads, 4);
	assert_int_equal(model_mlp_layers(&r), 2);
	assert_int_equal(r.linear_blocks, 2);
	assert_true(r.ffn_sum == 1536 + 768);
	assert_count(p.total, 2 * attn + 2 * 1024.0 * 1024 + 3 * 1024.0 * (1536 + 768) +
				  6 * 1024.0 + 2 * 1000.0 * 1024 + 1024);
	/* the KV cache: 2 of the 4 layers, 2 x 4 x 64 elements each */
	assert_true(model_kv_elems_per_token_layer(&r) == 2 * 4 * 64 * 2 / 4.0);

	e = parse_fail(
	    "{\"model_type\": \"nemotron-nas\", \"num_hidden_layers\": 2, "
	    "\"hidden_size\": 1024, \"num_attention_heads\": 16, \"vocab_size\": 10,\n"
	    " \"block_configs\": [{\"attention\": {\"no_op\": true}, \"ffn\": {\"no_op\": "
	    "true}}]}");
	assert_string_equal(e.field, "block_configs");
	assert_int_equal(e.line, 2);
	assert_non_null(strstr(e.message, "lists 1 layers, but num_hidden_layers is 2"));
	e = parse_fail("{\"model_type\": \"nemotron-nas\", \"num_hidden_layers\": 1, "
		       "\"hidden_size\": 1024, \"num_attention_heads\": 16, \"vocab_size\": 10, "
		       "\"block_configs\": [{\"attention\": {\"n_heads_in_group\": 3}, \"ffn\": "
		       "{\"ffn_mult\": 1.0}}]}");
	assert_non_null(strstr(e.message, "n_heads_in_group must divide num_attention_heads 16"));
	/* K/V heads that differ per layer: their sum (model.kv_sum), 4 + 2 */
	parse_ok("{\"model_type\": \"nemotron-nas\", \"num_hidden_layers\": 2, "
		 "\"hidden_size\": 1024, \"num_attention_heads\": 16, \"vocab_size\": 10, "
		 "\"block_configs\": [{\"attention\": {\"n_heads_in_group\": 4}, \"ffn\": "
		 "{\"ffn_mult\": 1.0}}, {\"attention\": {\"n_heads_in_group\": 8}, \"ffn\": "
		 "{\"ffn_mult\": 1.0}}]}",
		 &r, &p);
	assert_int_equal(r.kv_sum, 6);
	assert_int_equal(r.kv_heads, 4); /* 3 rounded up to a divisor of 16 */
	assert_count(p.total, 2 * (2 * 1024.0 * 1024 + 3 * 1024.0 * 768 + 2 * 1024) +
				  1024.0 * 64 * 6 * 2 + 2 * 10.0 * 1024 + 1024);
	assert_true(model_kv_elems_per_token_layer(&r) == 2.0 * 64 * 6 / 2);
	e = parse_fail("{\"model_type\": \"nemotron-nas\", \"num_hidden_layers\": 1, "
		       "\"hidden_size\": 1024, \"num_attention_heads\": 16, \"vocab_size\": 10, "
		       "\"block_configs\": [{\"attention\": {\"no_op\": 1}, \"ffn\": {}}]}");
	assert_non_null(strstr(e.message, "'no_op' must be true or false"));
}

/* The Llama-Nemotron NAS models' real block_configs (tests/data/configs/README.md), counted
 * module by module as modeling_decilm.py builds them (an independent count in Python over
 * the same files gives the same figures):
 * - Llama-3.3-Nemotron-Super-49B-v1: 49 attention layers of 8 K/V heads (31 no_op), 80
 *   MLPs of ffn_mult 2.625 to 5.25: 49,867,145,216, the checkpoint's size as a notes file
 *   records it ("49,867,145,216 bf16 params"); embedding and head 2,101,354,496, attention
 *   7,398,752,256, MLPs 40,365,981,696, norms 1,056,768;
 * - Llama-3.1-Nemotron-Ultra-253B-v1: 64 attention layers (98 no_op), 81 MLPs (81 no_op):
 *   253,401,268,224, the card's "253B";
 * - Llama-3.1-Nemotron-51B-Instruct: 54 attention layers of 8, 4, 2 or 1 K/V heads (371 in
 *   all), 18 attention blocks replaced by a linear, 8 no_op: 51,501,015,040, Hugging Face's
 *   "51.5B"; the linear blocks are 18 x 8192 x 8192 = 1,207,959,552. */
static void test_decilm_real(void **state)
{
	struct model r;
	struct model_params p;
	(void)state;

	load("llama-3.3-nemotron-super-49b.json", &r, &p);
	assert_int_equal(model_attention_layers(&r), 49);
	assert_int_equal(r.kv_heads, 8);
	assert_int_equal(r.kv_sum, 0);
	assert_count(p.total, 49867145216.0);
	/* the KV cache of the 49 attention layers, 2 x 8 x 128 each, over the 80 */
	assert_true(model_kv_elems_per_token_layer(&r) == 2 * 8 * 128 * 49 / 80.0);

	load("llama-3.1-nemotron-ultra-253b.json", &r, &p);
	assert_int_equal(model_attention_layers(&r), 64);
	assert_int_equal(model_mlp_layers(&r), 81);
	assert_count(p.total, 253401268224.0);
	assert_published(p.total, 253e9, 1e9);

	load("llama-3.1-nemotron-51b.json", &r, &p);
	assert_int_equal(model_attention_layers(&r), 54);
	assert_int_equal(r.linear_blocks, 18);
	assert_int_equal(r.kv_sum, 371);
	assert_int_equal(r.kv_heads, 8); /* 371 / 54 rounded up to a divisor of 64 */
	assert_count(p.total, 51501015040.0);
	assert_published(p.total, 51.5e9, 0.1e9);
	assert_true(model_kv_elems_per_token_layer(&r) == 2.0 * 371 * 128 / 80);
}

/* The KV cache of nvidia/Llama-3_1-Nemotron-51B-Instruct counted by hand from its
 * block_configs (issue 14): of the 80 blocks 18 replace attention by a linear and 8 are
 * no_op; the 54 that attend have n_heads_in_group 8 (44 blocks), 16 (1), 32 (6) and 64
 * (3) over 64 heads, so 8, 4, 2 and 1 K/V heads: 44 x 8 + 4 + 6 x 2 + 3 = 371. head_dim
 * 8192 / 64 = 128; a bf16 cache holds 2 (K, V) x 371 x 128 x 2 B = 189,952 B a token,
 * where kv_heads (8 in every layer) would give 2 x 8 x 128 x 2 B x 54 = 221,184 B, 16%
 * more. Under tp 2 each layer keeps its heads / 2, the 1-head layers theirs whole:
 * 44 x 4 + 2 + 6 + 3 = 187 heads, 95,744 B, which the plan's average (371 / 54 / 2 a
 * layer) approaches to within one head a 1-head layer. */
static void test_decilm_kv_cache(void **state)
{
	static struct plan p;
	(void)state;

	plan_serving("llama-3.1-nemotron-51b.json", 1, &p);
	assert_true(p.mem.kv_bytes_per_token == 189952.0);
	/* the cache of 4 sequences of 1024 tokens is the per-token count times theirs */
	assert_true(fabs(p.mem.kv_cache - 189952.0 * 4 * 1024) <= 1e-6 * p.mem.kv_cache);

	plan_serving("llama-3.1-nemotron-51b.json", 2, &p);
	assert_true(p.mem.kv_bytes_per_token == 189952.0 / 2);
	assert_true(p.mem.kv_bytes_per_token <= 95744.0);
	assert_true(p.mem.kv_bytes_per_token >= 95744.0 - 3 * 2 * 128 * 2.0);
}

/* Multimodal configs: the language model from text_config, the vision tower apart. */
static void test_multimodal(void **state)
{
	struct model r;
	struct model_params p;
	struct hf_config_info info;
	double layer, moe, dense;
	(void)state;
	/* google/gemma-3-4b-it: 4,300,079,472 with SigLIP and the projector (HF safetensors
	 * metadata, "4.3B"); q_norm/k_norm over head_dim, four norms a layer, tied. */
	load_info("gemma-3-4b-it.json", &r, &p, &info);
	assert_true(r.qk_norm && !r.qk_norm_full && r.tied_embeddings);
	assert_int_equal(r.norms_per_layer, 4);
	assert_int_equal(r.head_dim, 256);
	/* sliding_window_pattern 6: layers 5, 11, 17, 23, 29 global, 29 of 34 local */
	assert_int_equal(r.sliding_window, 1024);
	assert_int_equal(r.global_layers, 5);
	layer = 2560.0 * 2048 * 2 + 2 * 2560.0 * 1024 + 2 * 256 + 3.0 * 2560 * 10240 + 4 * 2560;
	assert_count(p.total, 262208.0 * 2560 + 2560 + 34 * layer);
	assert_count(info.vision_params, 3.0 * 14 * 14 * 1152 + 1152 + 4096.0 * 1152 +
					     27 * (4 * (1152.0 * 1152 + 1152) + 2 * 1152.0 * 4304 +
						   4304 + 1152 + 4 * 1152) +
					     2 * 1152 + 1152.0 * 2560 + 1152);
	assert_count(p.total + info.vision_params, 4300079472LL);
	assert_true(has_warning(&info, "image tokens are not modelled"));
	/* meta-llama/Llama-4-Scout-17B-16E: every layer MoE with 16 experts, top 1, and a
	 * shared expert of 8192; 17B active (its card). The vision model, adapter and
	 * projector as the module listing beside the config gives them: 871,932,416. */
	load_info("llama-4-scout.json", &r, &p, &info);
	assert_int_equal(r.moe.experts, 16);
	assert_int_equal(r.moe.active, 1);
	assert_int_equal(r.moe.shared, 1);
	assert_int_equal(r.moe.dense_layers, 0);
	assert_false(r.tied_embeddings);
	/* attention_chunk_size 8192 in the RoPE layers; no_rope_layers has a 0 (NoPE, global)
	 * every 4th layer: 12 of 48 */
	assert_int_equal(r.sliding_window, 8192);
	assert_true(r.chunked_attention);
	assert_int_equal(r.global_layers, 12);
	dense = 3.0 * 5120 * 8192;
	moe = 2.0 * 5120 * 5120 + 2 * 5120.0 * 1024 + 2 * 5120 + 5120.0 * 16 + dense;
	assert_count(p.total, 2.0 * 202048 * 5120 + 5120 + 48 * (moe + 16 * dense));
	assert_count(p.active, 2.0 * 202048 * 5120 + 5120 + 48 * (moe + dense));
	assert_true(p.active >= 17e9 && p.active < 18e9);
	assert_count(info.vision_params, 871932416LL);
	assert_true(r.vision_params == info.vision_params);
	assert_true(p.total + info.vision_params >= 108e9 && p.total + info.vision_params < 110e9);
	/* Mistral Small 3.1/3.2 24B (FLUX.2's text encoder, the config its loader builds the
	 * model from before a strict load of the checkpoint): the text model is
	 * mistralai/Mistral-Small-24B-Base-2501's, 23,572,403,200; Pixtral's tower
	 * (modeling_pixtral.py: a bias-free 14 x 14 patch conv, ln_pre, 24 layers of bias-free
	 * q, k, v, o and SwiGLU 4096 with two RMSNorms) is 403,305,472 and Mistral 3's
	 * projector (an RMSNorm, the 2 x 2 patch merger 4096 -> 1024, linear_1 1024 -> 5120,
	 * linear_2 5120 -> 5120, no biases) 35,652,608: 24,011,361,280 in all
	 * (mistralai/Mistral-Small-3.1-24B-Instruct-2503, safetensors "24B"). */
	load_info("mistral-small-3.1-24b.json", &r, &p, &info);
	assert_int_equal(r.sliding_window, 0);
	assert_count(p.total, 23572403200LL);
	assert_count(info.vision_params,
		     3.0 * 14 * 14 * 1024 + 1024 +
			 24 * (4 * 1024.0 * 1024 + 3 * 1024.0 * 4096 + 2 * 1024) + 1024 +
			 4 * 1024.0 * 1024 + 1024.0 * 5120 + 5120.0 * 5120);
	assert_count(info.vision_params, 438958080LL);
	assert_count(p.total + r.vision_params, 24011361280LL);
	assert_false(has_warning(&info, "is not counted"));
	/* a text-only Ministral 3 config (model_type ministral3 at the top, as in a Mistral 3
	 * text_config) reads as Mistral, with no "unknown model_type" assumption: the same
	 * text model as above */
	{
		static const char *text =
		    "{\"model_type\": \"ministral3\", \"architectures\": "
		    "[\"Ministral3ForCausalLM\"], \"head_dim\": 128, \"hidden_size\": 5120, "
		    "\"intermediate_size\": 32768, \"num_attention_heads\": 32, "
		    "\"num_hidden_layers\": 40, \"num_key_value_heads\": 8, \"vocab_size\": "
		    "131072, \"sliding_window\": null, \"tie_word_embeddings\": false}";
		struct model m;
		struct gp_error err = {0};
		struct hf_config_info ti;
		assert_int_equal(hf_config_parse_info(text, strlen(text), NULL, &m, &ti, &err), 0);
		assert_int_equal(ti.nwarnings, 0);
		assert_true(m.vision_params == 0);
		model_resolve(&m, &r, NULL);
		model_count_params(&r, &p);
		assert_count(p.total, 23572403200LL);
	}
}

/* Python's json.dumps writes bare Infinity and NaN (Nemotron-H's time_step_limit): they
 * read, and offsets after them stay exact. */
static void test_infinity_nan(void **state)
{
	static const char *ok =
	    "{\"model_type\": \"llama\", \"time_step_limit\": [0.0, Infinity],\n"
	    " \"x\": -Infinity, \"y\": NaN, \"s\": \"NaN Infinity\",\n"
	    " \"num_hidden_layers\": 2, \"hidden_size\": 64, \"num_attention_heads\": 4,\n"
	    " \"intermediate_size\": 128, \"vocab_size\": 100}";
	struct model r;
	struct model_params p;
	struct gp_error e;
	(void)state;
	parse_ok(ok, &r, &p);
	assert_int_equal(r.layers, 2);
	e = parse_fail("{\"model_type\": \"llama\", \"a\": Infinity,\n \"hidden_size\": ]}");
	assert_int_equal(e.line, 2);
	assert_int_equal(e.column, 17);
	e = parse_fail("{\"model_type\": \"llama\", \"num_hidden_layers\": NaN}");
	assert_string_equal(e.field, "num_hidden_layers");
	assert_non_null(strstr(e.message, "NaN"));
	e = parse_fail("{\"model_type\": \"llama\", \"num_hidden_layers\": Infinity}");
	assert_string_equal(e.field, "num_hidden_layers");
	assert_non_null(strstr(e.message, "Infinity"));
	/* Not a value position: still invalid JSON. */
	e = parse_fail("{\"model_type\": \"llama\" NaN}");
	assert_non_null(strstr(e.message, "invalid JSON"));
}

/* An unknown model_type with Llama's keys reads as Llama and says so; without them the
 * error names the missing key and the way around. */
static void test_unknown_llama_shaped(void **state)
{
	static const char *text =
	    "{\"model_type\": \"newmodel\", \"num_hidden_layers\": 32, \"hidden_size\": 4096,\n"
	    " \"num_attention_heads\": 32, \"intermediate_size\": 11008, \"vocab_size\": 32000}";
	struct model m, r;
	struct model_params p;
	struct hf_config_info info;
	struct gp_error e = {0};
	(void)state;
	assert_int_equal(hf_config_parse_info(text, strlen(text), NULL, &m, &info, &e), 0);
	model_resolve(&m, &r, NULL);
	model_count_params(&r, &p);
	assert_count(p.total, 6738415616LL); /* Llama 2 7B's shape */
	assert_int_equal(info.nwarnings, 1);
	assert_non_null(strstr(info.warnings[0], "'newmodel'"));
	assert_non_null(strstr(info.warnings[0], "read as Llama"));
	e = parse_fail(
	    "{\"model_type\": \"newmodel\", \"num_hidden_layers\": 32, \"hidden_size\": 4096,"
	    " \"num_attention_heads\": 32, \"vocab_size\": 32000}");
	assert_string_equal(e.field, "model_type");
	assert_non_null(strstr(e.message, "'intermediate_size'"));
	assert_non_null(strstr(e.message, "model.params"));
	/* a bad model_type beside a known architecture reads by the architecture and warns,
	 * naming both */
	static const char *arch =
	    "{\"model_type\": \"zzz\", \"architectures\": [\"LlamaForCausalLM\"],\n"
	    " \"num_hidden_layers\": 32, \"hidden_size\": 4096, \"num_attention_heads\": 32,\n"
	    " \"intermediate_size\": 11008, \"vocab_size\": 32000}";
	assert_int_equal(hf_config_parse_info(arch, strlen(arch), NULL, &m, &info, &e), 0);
	assert_int_equal(info.nwarnings, 1);
	assert_non_null(strstr(info.warnings[0], "'zzz'"));
	assert_non_null(strstr(info.warnings[0], "'LlamaForCausalLM'"));
}

/* Contradictory shapes: errors at the key, with its line and column. */
static void test_error_contradictions(void **state)
{
	static const char *head = "{\"model_type\": \"llama\", \"num_hidden_layers\": 2,\n"
				  " \"intermediate_size\": 128, \"vocab_size\": 100,\n";
	char text[512];
	struct gp_error e;
	(void)state;
	snprintf(text, sizeof(text), "%s \"hidden_size\": 100, \"num_attention_heads\": 3}", head);
	e = parse_fail(text);
	assert_string_equal(e.field, "num_attention_heads");
	assert_non_null(strstr(e.message, "do not divide"));
	assert_int_equal(e.line, 3);
	assert_int_equal(e.column, 45);
	snprintf(text, sizeof(text),
		 "%s \"hidden_size\": 64, \"num_attention_heads\": 4, \"num_key_value_heads\": 3}",
		 head);
	e = parse_fail(text);
	assert_string_equal(e.field, "num_key_value_heads");
	e = parse_fail(
	    "{\"model_type\": \"mixtral\", \"num_hidden_layers\": 2, \"hidden_size\": 64,"
	    " \"num_attention_heads\": 4, \"intermediate_size\": 128, \"vocab_size\": 10,"
	    " \"num_local_experts\": 2, \"num_experts_per_tok\": 4}");
	assert_string_equal(e.field, "num_experts_per_tok");
	assert_non_null(strstr(e.message, "only 2 experts"));
	/* A nested key's place: dbrx's ffn_config. */
	e = parse_fail(
	    "{\"model_type\": \"dbrx\", \"n_layers\": 2, \"d_model\": 64, \"n_heads\": 4,"
	    " \"vocab_size\": 10,\n \"ffn_config\": {\"ffn_hidden_size\": 8, \"moe_num_experts\": "
	    "0}}");
	assert_string_equal(e.field, "moe_num_experts");
	assert_int_equal(e.line, 2);
	assert_int_equal(e.column, 58);
}

/* A valid Llama config's keys, for the repeated-key tests. */
#define TINY_LLAMA                                                                              \
	"\"model_type\": \"llama\", \"num_hidden_layers\": 2, \"hidden_size\": 64,"           \
	" \"num_attention_heads\": 4, \"intermediate_size\": 128, \"vocab_size\": 100"

/* Python's json.load (transformers) keeps a repeated key's last value, cJSON its first:
 * a repeat is refused at its second occurrence, at every level, in the scenario reader's
 * words for a repeated YAML key (scenario_yaml.c). */
static void test_duplicate_keys(void **state)
{
	struct model_params p;
	struct model r, m;
	struct gp_error e;
	char buf[700];
	(void)state;
	/* the same text without the repeat imports */
	parse_ok("{" TINY_LLAMA "}", &r, &p);
	assert_int_equal(r.hidden, 64);
	/* top level: the place of the second, the line of the first */
	e = parse_fail("{\"model_type\": \"llama\",\n \"hidden_size\": 4096,\n"
		       " \"num_hidden_layers\": 2, \"num_attention_heads\": 4,\n"
		       "  \"hidden_size\": 8192, \"intermediate_size\": 128, \"vocab_size\": 10}");
	assert_string_equal(gp_error_format(&e, buf, sizeof(buf)),
			    "c.json:4:3: duplicate key 'hidden_size' (first given at line 2)");
	assert_string_equal(e.field, "hidden_size");
	/* the same value twice is a repeat too (Python keeps one; the file is wrong) */
	fail_with("{" TINY_LLAMA ",\n \"vocab_size\": 100}", "vocab_size", 2, 2,
		  "duplicate key 'vocab_size' (first given at line 1)");
	/* a multimodal config's text_config; the same name at two levels is no repeat */
	fail_with("{\"model_type\": \"mistral3\", \"hidden_size\": 1,\n \"text_config\": {"
		  "\"model_type\": \"mistral\", \"hidden_size\": 64,\n  \"hidden_size\": 128}}",
		  "hidden_size", 3, 3, "duplicate key 'hidden_size' (first given at line 2)");
	/* quantization_config and rope_scaling */
	fail_with("{" TINY_LLAMA ",\n \"quantization_config\": {\"quant_method\": \"fp8\",\n"
		  "   \"quant_method\": \"gptq\"}}",
		  "quant_method", 3, 4, "duplicate key 'quant_method' (first given at line 2)");
	fail_with("{" TINY_LLAMA ",\n \"rope_scaling\": {\"factor\": 8.0, \"rope_type\": "
		  "\"llama3\", \"factor\": 32.0}}",
		  "factor", 2, 57, "duplicate key 'factor' (first given at line 2)");
	/* objects in an array (DeciLM's block_configs), after an array of numbers */
	fail_with("{" TINY_LLAMA ", \"x\": [1, -2.5e3, true, null, \"}\"],\n"
		  " \"block_configs\": [{\"ffn\": {\"ffn_mult\": 1}}, {\"ffn\": {\"ffn_mult\": 1,"
		  "\n \"ffn_mult\": 2}}]}",
		  "ffn_mult", 3, 2, "duplicate key 'ffn_mult' (first given at line 2)");
	/* two repeats: the first in the text is named, an inner one before an outer one */
	fail_with("{\"a\": 1,\n \"b\": 2,\n \"b\": 3,\n \"a\": 4}", "b", 3, 2,
		  "duplicate key 'b' (first given at line 2)");
	fail_with("{\"a\": 1, \"x\": {\"k\": 1,\n \"k\": 2},\n \"a\": 2}", "k", 2, 2,
		  "(first given at line 1)");
	/* names compare as decoded: "hidden\u005fsize" is hidden_size */
	fail_with("{" TINY_LLAMA ",\n \"hidden\\u005fsize\": 8}", "hidden_size", 2, 2,
		  "duplicate key 'hidden_size' (first given at line 1)");
	/* a key's text inside a string value, or in a nested object, is not the member: no
	 * false repeat, and the place is the member's */
	parse_ok("{" TINY_LLAMA ", \"note\": \"\\\"hidden_size\\\": 8, {\\\"vocab_size\\\": 1}\","
		 " \"rope_scaling\": {\"hidden_size\": 1, \"vocab_size\": [{\"vocab_size\": 2}]}}",
		 &r, &p);
	assert_int_equal(r.hidden, 64);
	fail_with("{\"note\": \"\\\"b\\\": 1\", \"y\": {\"b\": 0}, \"b\": 1,\n \"b\": 2}", "b", 2,
		  2, "(first given at line 1)");
	fail_with("{\"y\": {\"b\": 0},\n \"b\": 1,\n\n \"b\": 2}", "b", 4, 2,
		  "(first given at line 2)");
	/* case matters, as in Python's dict */
	parse_ok("{" TINY_LLAMA ", \"Hidden_Size\": 1}", &r, &p);
	/* after a UTF-8 byte order mark (one column, as cJSON skips it) */
	fail_with("\xEF\xBB\xBF{\"a\": 1, \"a\": 2}", "a", 1, 11, "duplicate key 'a'");
	/* 500 objects deep (cJSON refuses past 1000): the innermost repeat is found */
	{
		char deep[4096];
		size_t n = 0;
		for (int i = 0; i < 500; i++)
			n += (size_t)snprintf(deep + n, sizeof(deep) - n, "{\"a\": ");
		n += (size_t)snprintf(deep + n, sizeof(deep) - n, "{\"b\": 1, \"b\": 2}");
		for (int i = 0; i < 500; i++)
			n += (size_t)snprintf(deep + n, sizeof(deep) - n, "}");
		fail_with(deep, "b", 1, 3010, "duplicate key 'b' (first given at line 1)");
	}
	/* no error structure: refused all the same */
	assert_int_equal(hf_config_parse("{\"a\": 1, \"a\": 2}", 16, NULL, &m, NULL), -1);
}

/* An object of thousands of members (per-layer lists, vocabularies) is read quickly: each
 * object's names are sorted, not compared pairwise. 50,000 members pairwise would be
 * 1.25e9 comparisons, seconds; sorted they take milliseconds, also under the sanitizers. */
static void test_duplicate_keys_large(void **state)
{
	static const int sizes[] = {5000, 50000};
	struct model_params p;
	struct model r;
	(void)state;
	for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		int n = sizes[s];
		size_t cap = (size_t)n * 24 + 256, len = 0;
		char *text = malloc(cap);
		struct gp_error e = {0};
		struct model m;
		clock_t t0;
		double cpu;

		assert_non_null(text);
		len += (size_t)snprintf(text + len, cap - len, "{" TINY_LLAMA ",\n\"extra\": {");
		for (int i = 0; i < n; i++)
			len += (size_t)snprintf(text + len, cap - len, "%s\n\"k%d\": %d",
						i ? "," : "", i, i);
		len += (size_t)snprintf(text + len, cap - len, "}}");
		t0 = clock();
		parse_ok(text, &r, &p);
		cpu = (double)(clock() - t0) / CLOCKS_PER_SEC;
		assert_int_equal(r.hidden, 64);
		if (cpu > 1.0)
			fail_msg("%d members took %.2f s of CPU", n, cpu);
		/* the same object with its last member repeating the first: found, at its
		 * place (member i on line i + 3) */
		len -= 2;
		len += (size_t)snprintf(text + len, cap - len, ",\n\"k0\": 1}}");
		assert_int_equal(hf_config_parse(text, len, "big.json", &m, &e), -1);
		assert_int_equal(e.line, n + 3);
		assert_int_equal(e.column, 1);
		assert_string_equal(e.message, "duplicate key 'k0' (first given at line 3)");
		free(text);
	}
}

static int setup(void **state)
{
	struct gp_error err;
	(void)state;
	validation_init(&counts);
	if (validation_load_file(&counts, ROWS, &err) != 0) {
		fprintf(stderr, "%s: %s\n", ROWS, err.message);
		return -1;
	}
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	validation_release(&counts);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_dense_reference_counts),
	    cmocka_unit_test(test_mixtral),
	    cmocka_unit_test(test_deepseek_v3),
	    cmocka_unit_test(test_qwen3_moe),
	    cmocka_unit_test(test_qwen2_moe),
	    cmocka_unit_test(test_other_moe_catalog),
	    cmocka_unit_test(test_falcon_40b_rw_keys),
	    cmocka_unit_test(test_falcon_new_keys),
	    cmocka_unit_test(test_bloom_176b),
	    cmocka_unit_test(test_opt),
	    cmocka_unit_test(test_catalog_dense),
	    cmocka_unit_test(test_fields),
	    cmocka_unit_test(test_architectures_without_model_type),
	    cmocka_unit_test(test_qwen3_moe_dense_layers),
	    cmocka_unit_test(test_deepseek_v2_lite_keys),
	    cmocka_unit_test(test_error_malformed_json),
	    cmocka_unit_test(test_error_missing_field),
	    cmocka_unit_test(test_error_unknown_architecture),
	    cmocka_unit_test(test_error_bad_values),
	    cmocka_unit_test(test_catalog_models_import),
	    cmocka_unit_test(test_error_file),
	    cmocka_unit_test(test_new_dense_families),
	    cmocka_unit_test(test_real_family_configs),
	    cmocka_unit_test(test_phi3_small),
	    cmocka_unit_test(test_deepseek_moe),
	    cmocka_unit_test(test_real_moe_configs),
	    cmocka_unit_test(test_gpt_oss),
	    cmocka_unit_test(test_window_layers),
	    cmocka_unit_test(test_hybrids_refused),
	    cmocka_unit_test(test_ssm_families),
	    cmocka_unit_test(test_qwen3_next),
	    cmocka_unit_test(test_decilm_blocks),
	    cmocka_unit_test(test_decilm_real),
	    cmocka_unit_test(test_decilm_kv_cache),
	    cmocka_unit_test(test_multimodal),
	    cmocka_unit_test(test_infinity_nan),
	    cmocka_unit_test(test_unknown_llama_shaped),
	    cmocka_unit_test(test_error_contradictions),
	    cmocka_unit_test(test_duplicate_keys),
	    cmocka_unit_test(test_duplicate_keys_large),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
