/* test_model.c - exact parameter counts from shapes written by hand, the standard shape for
 * a model given only by size, and KV-cache sizes. The Hugging Face import of the same
 * models is tested in test_hf_config.c. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "explain.h"
#include "model.h"
#include "plan.h"
#include "scenario.h"

/* Exact: every count here is an integer far below 2^53, so doubles hold it exactly. */
#define assert_count(got, want) assert_int_equal((long long)(got), (long long)(want))

static void assert_within(double got, double want, double rel)
{
	if (!(fabs(got - want) <= rel * fabs(want)))
		fail_msg("%.0f is not within %g%% of %.0f (off by %.3f%%)", got, rel * 100, want,
			 (got - want) / want * 100);
}

static struct model llama2_7b(void)
{
	/* Llama 2 paper Table 1 and meta-llama/Llama-2-7b-hf config.json. */
	struct model m = {0};
	m.layers = 32;
	m.hidden = 4096;
	m.heads = 32;
	m.ffn = 11008;
	m.vocab = 32000;
	m.mlp = MLP_GATED;
	m.norm = NORM_RMSNORM;
	m.max_context = 4096;
	return m;
}

static void count(const struct model *in, struct model_params *p)
{
	struct model r;
	bool assumed = true;
	model_resolve(in, &r, &assumed);
	assert_false(assumed);
	model_count_params(&r, p);
}

static void test_llama2_7b(void **state)
{
	struct model m = llama2_7b();
	struct model_params p;
	(void)state;
	count(&m, &p);
	/* HF safetensors metadata: 6,738,415,616. */
	assert_count(p.total, 6738415616LL);
	assert_count(p.active, p.total);
	assert_count(p.embedding, 32000LL * 4096);
	assert_count(p.head, 32000LL * 4096);
	assert_count(p.attention, 4LL * 4096 * 4096);
	assert_count(p.mlp, 3LL * 4096 * 11008);
	assert_count(p.norms, 2 * 4096);
	assert_count(p.final_norm, 4096);
	assert_count(p.expert, 0);
	assert_count(p.router, 0);
	/* DeepSpeed's largest module: the 32000 x 4096 embedding (or head). */
	assert_count(p.largest_layer, 32000LL * 4096);
}

static void test_llama2_70b_gqa(void **state)
{
	struct model m = llama2_7b();
	struct model_params p;
	(void)state;
	m.layers = 80;
	m.hidden = 8192;
	m.heads = 64;
	m.kv_heads = 8;
	m.ffn = 28672;
	count(&m, &p);
	/* PEFT "all params" for Llama-2-70b-hf: 68,976,648,192. */
	assert_count(p.total, 68976648192LL);
	/* q and o are 8192 x 8192; k and v 8192 x 1024. */
	assert_count(p.attention, 2LL * 8192 * 8192 + 2LL * 8192 * 1024);
}

static void test_tied_embeddings_and_resolve_defaults(void **state)
{
	struct model m = llama2_7b(), r;
	struct model_params untied, tied;
	bool assumed = true;
	(void)state;
	model_resolve(&m, &r, &assumed);
	assert_false(assumed);
	assert_int_equal(r.kv_heads, 32);
	assert_int_equal(r.head_dim, 128);
	assert_int_equal(r.norms_per_layer, 2);
	model_count_params(&r, &untied);
	m.tied_embeddings = true;
	count(&m, &tied);
	assert_count(tied.head, 0);
	assert_count(untied.total - tied.total, 32000LL * 4096);

	/* A parallel block (GPT-J, Falcon-7B) has one norm per layer by default. */
	m.parallel_block = true;
	model_resolve(&m, &r, NULL);
	assert_int_equal(r.norms_per_layer, 1);
	/* An explicit count wins. */
	m.norms_per_layer = 2;
	model_resolve(&m, &r, NULL);
	assert_int_equal(r.norms_per_layer, 2);
}

static void test_gpt2_biases_layernorm_positions(void **state)
{
	/* openai-community/gpt2: 12 layers, 768 wide, 12 heads, 4h GELU MLP, 1024 learned
	 * positions, LayerNorm with bias, biases everywhere, tied. HF: 124,439,808. */
	struct model m = {0};
	struct model_params p;
	(void)state;
	m.layers = 12;
	m.hidden = 768;
	m.heads = 12;
	m.ffn = 3072;
	m.vocab = 50257;
	m.mlp = MLP_PLAIN;
	m.norm = NORM_LAYERNORM;
	m.tied_embeddings = true;
	m.attention_bias = true;
	m.mlp_bias = true;
	m.position_embeddings = 1024;
	count(&m, &p);
	assert_count(p.total, 124439808LL);
	assert_count(p.embedding, 50257LL * 768 + 1024 * 768);
	assert_count(p.head, 0);
	/* c_attn 768 x 2304 + 2304, c_proj 768 x 768 + 768 */
	assert_count(p.attention, 768LL * 2304 + 2304 + 768 * 768 + 768);
	/* c_fc 768 x 3072 + 3072, c_proj 3072 x 768 + 768 */
	assert_count(p.mlp, 2LL * 768 * 3072 + 3072 + 768);
	assert_count(p.norms, 2 * 2 * 768);
	assert_count(p.final_norm, 2 * 768);
}

static void test_gemma2_head_dim_and_four_norms(void **state)
{
	/* Gemma 2 9B: head_dim 256 with 16 heads on a 3584-wide model; 4 norms a layer.
	 * Gemma 2 report Table 1: 8,324,201,984 non-embedding + 917,504,000 embedding. */
	struct model m = {0};
	struct model_params p;
	(void)state;
	m.layers = 42;
	m.hidden = 3584;
	m.heads = 16;
	m.kv_heads = 8;
	m.head_dim = 256;
	m.ffn = 14336;
	m.vocab = 256000;
	m.tied_embeddings = true;
	m.norms_per_layer = 4;
	count(&m, &p);
	assert_count(p.total, 9241705984LL);
	assert_count(p.total - p.embedding, 8324201984LL);
	assert_count(p.attention, 3584LL * 4096 * 2 + 3584LL * 2048 * 2);
}

static void test_qwen_biases_and_qk_norm(void **state)
{
	struct model m = llama2_7b();
	struct model_params base, p;
	(void)state;
	m.kv_heads = 8;
	count(&m, &base);
	/* Qwen2: biases on q (4096), k and v (1024 each), not on o. */
	m.qkv_bias = true;
	count(&m, &p);
	assert_count(p.attention - base.attention, 4096 + 2 * 1024);
	/* attention_bias adds o's bias too (and includes q, k, v). */
	m.attention_bias = true;
	count(&m, &p);
	assert_count(p.attention - base.attention, 4096 + 2 * 1024 + 4096);
	/* Qwen3 q_norm and k_norm: one RMSNorm weight over head_dim each. */
	m.qkv_bias = m.attention_bias = false;
	m.qk_norm = true;
	count(&m, &p);
	assert_count(p.attention - base.attention, 2 * 128);
	assert_count(p.total - base.total, 32 * 2 * 128);
	/* mlp_bias on a gated MLP: gate and up (ffn each) and down (hidden). */
	m.qk_norm = false;
	m.mlp_bias = true;
	count(&m, &p);
	assert_count(p.mlp - base.mlp, 2 * 11008 + 4096);
}

static struct model mixtral_8x7b(void)
{
	struct model m = llama2_7b();
	m.kv_heads = 8;
	m.ffn = 14336;
	m.moe.experts = 8;
	m.moe.active = 2;
	m.moe.expert_ffn = 14336;
	return m;
}

static void test_mixtral_moe(void **state)
{
	struct model m = mixtral_8x7b();
	struct model_params p;
	(void)state;
	count(&m, &p);
	/* HF card: 46,702,792,704 total; 12,879,925,248 active (Mixtral paper: 47B/13B). */
	assert_count(p.total, 46702792704LL);
	assert_count(p.active, 12879925248LL);
	assert_count(p.expert, 3LL * 4096 * 14336);
	assert_count(p.router, 4096 * 8);
	assert_count(p.mlp, 0); /* every layer is MoE */
	assert_int_equal(model_moe_layers(&m), 32);
}

static struct model deepseek_v3(void)
{
	/* deepseek-ai/DeepSeek-V3 config.json */
	struct model m = {0};
	m.layers = 61;
	m.hidden = 7168;
	m.heads = 128;
	m.kv_heads = 128;
	m.ffn = 18432;
	m.vocab = 129280;
	m.mla = (struct mla_shape){
	    .q_rank = 1536, .kv_rank = 512, .rope_dim = 64, .nope_dim = 128, .v_dim = 128};
	m.moe = (struct moe_shape){
	    .experts = 256, .active = 8, .shared = 1, .expert_ffn = 2048, .dense_layers = 3};
	return m;
}

static void test_deepseek_v3_mla_moe(void **state)
{
	struct model m = deepseek_v3(), r;
	struct model_params p;
	double attn, expert;
	(void)state;
	count(&m, &p);
	/* modeling_deepseek.py DeepseekV3Attention, module by module. */
	attn = 7168.0 * 1536 + 1536 +	   /* q_a_proj, q_a_layernorm */
	       1536.0 * 128 * 192 +	   /* q_b_proj */
	       7168.0 * (512 + 64) + 512 + /* kv_a_proj_with_mqa, kv_a_layernorm */
	       512.0 * 128 * 256 +	   /* kv_b_proj */
	       128.0 * 128 * 7168;	   /* o_proj */
	assert_count(p.attention, attn);
	expert = 3.0 * 7168 * 2048;
	assert_count(p.expert, expert);
	assert_count(p.shared, expert);
	assert_count(p.router, 7168 * 256);
	assert_count(p.mlp, 3.0 * 7168 * 18432);
	assert_int_equal(model_moe_layers(&m), 58);
	assert_count(p.total, 2.0 * 129280 * 7168 + 7168 + 61 * (attn + 2 * 7168) + 3 * p.mlp +
				  58 * (256 * expert + 7168 * 256 + expert));
	/* DeepSeek-V3 report: 671B total (MTP module excluded). */
	assert_within(p.total, 671e9, 0.01);
	/* KV cache per token per layer: the 512 latent + the 64 rotary key (DeepSeek-V2
	 * paper Section 2.1.2). */
	model_resolve(&m, &r, NULL);
	assert_true(model_kv_elems_per_token_layer(&r) == 576);
	assert_int_equal(r.head_dim, 192); /* q/k head: nope + rope */
}

static void test_kv_elems(void **state)
{
	struct model m = llama2_7b(), r;
	(void)state;
	model_resolve(&m, &r, NULL);
	/* Llama 2 7B: 2 x 32 x 128 = 8192 elements (a 16-bit cache: 0.5 MiB per token over
	 * 32 layers). */
	assert_true(model_kv_elems_per_token_layer(&r) == 8192);
	/* Unresolved model: defaults applied. */
	assert_true(model_kv_elems_per_token_layer(&m) == 8192);
	/* GQA: Llama 3 8B has 8 KV heads: 2048. */
	m.kv_heads = 8;
	assert_true(model_kv_elems_per_token_layer(&m) == 2048);
	/* Gemma 2: 8 KV heads of 256. */
	m.head_dim = 256;
	assert_true(model_kv_elems_per_token_layer(&m) == 4096);
}

static void test_params_with_shape_scales(void **state)
{
	struct model m = mixtral_8x7b();
	struct model_params exact, p;
	double f;
	(void)state;
	count(&m, &exact);
	m.params = 50e9;
	count(&m, &p);
	f = 50e9 / exact.total;
	assert_true(p.total == 50e9);
	assert_within(p.active, exact.active * f, 1e-12);
	assert_within(p.expert, exact.expert * f, 1e-12);
	assert_within(p.embedding, exact.embedding * f, 1e-12);
	assert_within(p.largest_layer, exact.largest_layer * f, 1e-12);
}

static void test_standard_shape_recovers_llama(void **state)
{
	struct model m = {0}, r;
	struct model_params p;
	bool assumed = false;
	(void)state;
	/* Llama 2 7B's exact count gives back Llama 2 7B's shape. */
	m.params = 6738415616.0;
	model_resolve(&m, &r, &assumed);
	assert_true(assumed);
	assert_int_equal(r.hidden, 4096);
	assert_int_equal(r.layers, 32);
	assert_int_equal(r.heads, 32);
	assert_int_equal(r.kv_heads, 32);
	assert_int_equal(r.head_dim, 128);
	assert_int_equal(r.ffn, 11008);
	assert_int_equal(r.vocab, 32000);
	assert_int_equal(r.mlp, MLP_GATED);
	assert_int_equal(r.norm, NORM_RMSNORM);
	assert_false(r.tied_embeddings);
	model_count_params(&r, &p);
	assert_true(p.total == 6738415616.0);
	/* And Llama 2 13B's (40 x 5120, ffn 13824: HF 13,015,864,320). */
	m.params = 13015864320.0;
	model_resolve(&m, &r, &assumed);
	assert_int_equal(r.hidden, 5120);
	assert_int_equal(r.layers, 40);
	assert_int_equal(r.ffn, 13824);
}

static void test_standard_shape_any_size(void **state)
{
	static const double sizes[] = {125e6, 350e6, 1.3e9, 3e9, 7e9, 34e9, 70e9, 175e9, 1e12};
	(void)state;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct model m = {0}, r;
		struct model_params p;
		bool assumed = false;
		double aspect;
		m.params = sizes[i];
		model_resolve(&m, &r, &assumed);
		assert_true(assumed);
		assert_int_equal(r.hidden % 128, 0);
		assert_int_equal(r.heads, r.hidden / 128);
		assert_int_equal(r.head_dim, 128);
		assert_int_equal(r.ffn % 256, 0);
		assert_true(r.ffn >= 8.0 / 3 * r.hidden && r.ffn < 8.0 / 3 * r.hidden + 256);
		aspect = (double)r.hidden / r.layers;
		assert_true(aspect >= 96 && aspect <= 136);
		/* The reported total is the size given... */
		model_count_params(&r, &p);
		assert_true(p.total == sizes[i]);
		/* ...and the shape's own exact count is close to it: within a layer's share
		 * (whole layers, ffn in steps of 256); below 1B the embedding dominates and
		 * few shapes fall in the aspect band (125M: 896 x 7 layers, 128.0M). */
		r.params = 0;
		model_count_params(&r, &p);
		assert_within(p.total, sizes[i], sizes[i] >= 1e9 ? 0.01 : 0.03);
		if (sizes[i] >= 30e9)
			assert_within(p.total, sizes[i], 0.002);
	}
}

static void test_largest_layer(void **state)
{
	struct model m = llama2_7b();
	struct model_params p;
	(void)state;
	/* A small vocabulary and a wide MLP: one MLP matrix is the largest module. */
	m.vocab = 1000;
	m.ffn = 65536;
	count(&m, &p);
	assert_count(p.largest_layer, 4096LL * 65536);
	/* Experts: one expert matrix, not the whole layer. */
	m = mixtral_8x7b();
	m.vocab = 1000;
	count(&m, &p);
	assert_count(p.largest_layer, 4096LL * 14336);
}

static void test_narrow_embedding_no_final_norm(void **state)
{
	/* OPT-350m: 512-wide embedding with project_in/project_out to 1024, post-LN with no
	 * final norm, 2050 learned positions, biases, tied. 331,196,416 parameters
	 * (pytorch_model.bin: 388 tensors). */
	struct model m = {0};
	struct model_params p;
	(void)state;
	m.layers = 24;
	m.hidden = 1024;
	m.heads = 16;
	m.ffn = 4096;
	m.vocab = 50272;
	m.mlp = MLP_PLAIN;
	m.norm = NORM_LAYERNORM;
	m.tied_embeddings = true;
	m.attention_bias = true;
	m.mlp_bias = true;
	m.position_embeddings = 2050;
	m.embed_dim = 512;
	m.no_final_norm = true;
	count(&m, &p);
	assert_count(p.total, 331196416LL);
	assert_count(p.embedding, 50272LL * 512 + 2050 * 1024 + 512 * 1024);
	assert_count(p.final_norm, 1024 * 512); /* project_out */
}

static void test_embedding_norm(void **state)
{
	/* BLOOM 176B: word_embeddings_layernorm, LayerNorm, biases, tied, 4h MLP.
	 * bigscience/bloom card: 176,247,271,424. */
	struct model m = {0};
	struct model_params p;
	(void)state;
	m.layers = 70;
	m.hidden = 14336;
	m.heads = 112;
	m.ffn = 4 * 14336;
	m.vocab = 250880;
	m.mlp = MLP_PLAIN;
	m.norm = NORM_LAYERNORM;
	m.tied_embeddings = true;
	m.attention_bias = true;
	m.mlp_bias = true;
	m.embedding_norm = true;
	count(&m, &p);
	assert_count(p.total, 176247271424LL);
	assert_count(p.embedding, 250880LL * 14336 + 2 * 14336);
}

static void test_empty_model(void **state)
{
	struct model m = {0}, r;
	struct model_params p;
	bool assumed = true;
	(void)state;
	model_resolve(&m, &r, &assumed);
	assert_false(assumed);
	model_count_params(&r, &p);
	assert_true(p.total == 0 && p.active == 0);
	assert_true(model_kv_elems_per_token_layer(&r) == 0);
}

/* The KV share of local/global layers: (G S + (L - G) min(S, W)) / (L S); every layer
 * windowed gives min(S, W) / S; no window, a global_layers of layers or a short sequence
 * give 1. */
static void test_kv_share(void **state)
{
	struct model m = llama2_7b();
	(void)state;
	assert_true(model_kv_share(&m, 8192, 1024) == 1);
	assert_int_equal(model_local_layers(&m), 0);
	m.sliding_window = 1024;
	assert_int_equal(model_local_layers(&m), 32);
	assert_true(model_kv_share(&m, 8192, 1024) == 1024.0 / 8192);
	m.global_layers = 8;
	assert_int_equal(model_local_layers(&m), 24);
	assert_true(model_kv_share(&m, 8192, 1024) == (8 * 8192.0 + 24 * 1024) / (32 * 8192.0));
	assert_true(model_kv_share(&m, 1000, 1024) == 1);
	m.global_layers = 40; /* more than the layers: every layer global */
	assert_int_equal(model_local_layers(&m), 0);
	assert_true(model_kv_share(&m, 8192, 1024) == 1);
}

/* Jamba-1.5-Mini's shape written as scenario fields (its config.json: 32 layers, attention
 * in 4, Mamba-1 in 28 with d_state 16, d_conv 4, expand 2, dt_rank 256, RMSNorms on dt, B
 * and C; 16 experts in 16 layers). */
static struct model jamba_mini(void)
{
	struct model m = {0};
	m.layers = 32;
	m.hidden = 4096;
	m.heads = 32;
	m.kv_heads = 8;
	m.ffn = 14336;
	m.vocab = 65536;
	m.max_context = 262144;
	m.moe.experts = 16;
	m.moe.active = 2;
	m.moe.expert_ffn = 14336;
	m.moe.dense_layers = 16;
	m.ssm.layers = 28;
	m.ssm.d_state = 16;
	m.ssm.d_conv = 4;
	m.ssm.expand = 2;
	m.ssm.dt_rank = 256;
	m.ssm.dt_norms = true;
	return m;
}

/* Jamba-1.5-Mini on tp H100s (the datasheet's dense bf16 peak and HBM3 bandwidth). */
static void jamba_scenario(struct scenario *s, enum workload_kind kind, int tp)
{
	scenario_init(s);
	s->model = jamba_mini();
	s->workload.kind = kind;
	s->workload.precision = DTYPE_BF16;
	s->hardware.count = tp;
	s->parallel.tp = tp;
	snprintf(s->hardware.gpu.id, sizeof(s->hardware.gpu.id), "h100-sxm-80gb");
	s->hardware.gpu.memory_bytes = 80e9;
	s->hardware.gpu.gpus_per_node = 8;
	s->hardware.gpu.link_domain = 8;
	s->hardware.gpu.peak_flops[DTYPE_BF16] = 989e12;
	s->hardware.gpu.hbm_bytes_per_s = 3.35e12;
}

/* The shape fields give the count the config does (test_hf_config.c, 51,570,323,328 and
 * 12,110,311,296 active), and the averages the plan sums stay exact. */
static void test_ssm_hybrid_count(void **state)
{
	struct model m = jamba_mini(), r;
	struct model_params p;
	double mamba, attn, mlp;
	(void)state;
	model_resolve(&m, &r, NULL);
	model_count_params(&r, &p);
	mamba = 4096.0 * 16384 + 8192 * 5 + 8192.0 * 288 + 256.0 * 8192 + 8192 + 8192 * 16 + 8192 +
		8192.0 * 4096 + 256 + 32;
	attn = 2 * 4096.0 * 4096 + 2 * 4096.0 * 1024;
	mlp = 3 * 4096.0 * 14336;
	assert_count(p.ssm, mamba);
	assert_count(p.attention_one, attn);
	assert_count(p.mlp_one, mlp);
	assert_count(p.total, 28 * mamba + 4 * attn + 32 * 2 * 4096.0 + 16 * mlp +
				  16 * (16 * mlp + 4096.0 * 16) + 2 * 65536.0 * 4096 + 4096);
	assert_count(p.total, 51570323328.0);
	assert_count(p.active, 12110311296.0);
	/* the per-layer averages: layers x attention and (layers - MoE) x mlp */
	assert_true(fabs(32 * p.attention - (28 * mamba + 4 * attn)) < 1);
	assert_true(fabs(16 * p.mlp - 16 * mlp) < 1);
	/* Mamba-1's scan, 9 d_inner N + d_inner a layer (state-spaces/mamba issue #110) */
	assert_count(model_ssm_flops_per_token(&r, false), 28 * (9 * 8192.0 * 16 + 8192));
}

/* The KV cache grows with the context in the attention layers only; the recurrent state is
 * fixed per sequence: (d_conv - 1) x d_inner + d_inner x d_state per Mamba-1 layer, and
 * for Mamba-2 (d_conv - 1) x (d_inner + 2 G N) + H x P x N. */
static void test_ssm_state_and_kv(void **state)
{
	struct scenario s;
	struct model m2 = {0};
	static struct plan a, b;
	double conv, per_tok, st;
	(void)state;

	m2.layers = 64;
	m2.hidden = 4096;
	m2.heads = 128;
	m2.head_dim = 64;
	m2.vocab = 32768;
	m2.mlpless_layers = 64;
	m2.ssm.layers = 64;
	m2.ssm.d_state = 128;
	m2.ssm.heads = 128;
	m2.ssm.groups = 8;
	assert_count(model_ssm_state_elems(&m2, &conv),
		     64 * (3 * (8192.0 + 2 * 8 * 128) + 128 * 64.0 * 128));
	assert_count(conv, 64 * 3 * 10240.0);
	assert_true(model_kv_elems_per_token_layer(&m2) == 0);
	/* SSD in chunks of 256: 2 Q N G + H (2 Q P + 4 N P) a layer; decode 5 d_inner N */
	assert_count(model_ssm_flops_per_token(&m2, false),
		     64 * (2 * 256.0 * 128 * 8 + 128 * (2 * 256.0 * 64 + 4 * 128.0 * 64)));
	assert_count(model_ssm_flops_per_token(&m2, true), 64 * 5 * 8192.0 * 128);

	jamba_scenario(&s, WL_ONLINE, 2);
	s.workload.weights = DTYPE_BF16;
	s.workload.kv_cache = DTYPE_BF16;
	s.workload.batch = 1;
	s.workload.output_tokens = 0;
	s.workload.prompt_tokens = 4096;
	plan_compute_memory(&s, &a);
	s.workload.prompt_tokens = 8192;
	plan_compute_memory(&s, &b);
	/* 4 attention layers x 2 x (8 / tp) heads x 128 x 2 bytes per token on one GPU */
	per_tok = 4 * 2 * 4 * 128 * 2.0;
	assert_true(fabs(a.mem.kv_bytes_per_token - per_tok) < 1e-6);
	/* the state: 28 layers x (3 x 8192 + 8192 x 16) elements, bf16, over tp 2 */
	st = 28 * (3 * 8192.0 + 8192 * 16) * 2 / 2;
	assert_true(fabs(a.mem.kv_cache - (4096 * per_tok + st)) < 1);
	assert_true(fabs(b.mem.kv_cache - (8192 * per_tok + st)) < 1);
	/* 4096 more tokens cost only the attention layers' keys and values */
	assert_true(fabs(b.mem.kv_cache - a.mem.kv_cache - 4096 * per_tok) < 1);
	/* explain writes the state as its own term, and the attention layers' 4 */
	{
		static char buf[8192];
		struct gp_error err;
		plan_compute(&s, &b);
		assert_int_equal(
		    explain_key(&s, &b, "memory.per_gpu.kv_cache", buf, sizeof(buf), &err), 0);
		assert_non_null(strstr(buf, "recurrent state"));
		assert_non_null(strstr(buf, "28 layers' 4.36M elements x 2 B / 2"));
		assert_non_null(strstr(buf, "attention layers on this GPU"));
		assert_non_null(strstr(buf, "= 2 x 4 x 128 x 2 B x 4"));
	}
}

/* Training activations of the state-space layers, per token (plan_memory.c,
 * act_ssm_token), bf16, FlashAttention, no recomputation, tp 1:
 * - a Mamba-2 model of Mamba-Codestral's shape: each layer its norm's input and the
 *   mixer's input, 2 x 2 h, and what MambaSplitConv1dScanCombinedFn saves, zxbcdt
 *   2 (2 x 8192 + 2 x 8 x 128 + 128), out_x 2 x 8192 and rstd 4 x 8: 69,920 bytes;
 * - Jamba-1.5-Mini: 4 attention blocks (Q, K, V 2 x 128 x 48, the output 2 x 128 x 32, lse
 *   4 x 32), 28 Mamba-1 blocks (xz, x_dbl, B and C, out: 2 (3 x 8192 + 256 + 4 x 16), and
 *   fp32 scan_intermediates 8 x 8192 x 16 / 2048), 16 dense MLPs (gate, up and down
 *   inputs 3 x 2 x 14336), 16 MoE blocks (router 4 x 16, dispatched copies 2 x 2 x 2 x
 *   4096, the 2 experts' 2 x 3 x 2 x 14336), each block with its norm and input, 4h. */
static void test_ssm_training_activations(void **state)
{
	struct scenario s;
	static struct plan p;
	double h = 4096, blk = 4 * h, sq = 4096;
	double attn = 2 * 128 * 48.0 + 2 * 128 * 32.0 + 4 * 32, mamba1, mlp_d, mlp_m;
	(void)state;

	jamba_scenario(&s, WL_TRAIN, 1);
	s.model.layers = 64;
	s.model.heads = 128;
	s.model.kv_heads = 128;
	s.model.head_dim = 64;
	s.model.ffn = 0;
	s.model.vocab = 32768;
	s.model.max_context = 0;
	s.model.moe = (struct moe_shape){0};
	s.model.mlpless_layers = 64;
	s.model.ssm = (struct ssm_shape){.layers = 64, .d_state = 128, .heads = 128, .groups = 8};
	s.model.ssm.d_inner = 8192;
	s.workload.seq_len = (int)sq;
	s.workload.micro_batch = 1;
	s.workload.recompute = RECOMPUTE_NONE;
	s.workload.flash_attention = true;
	plan_compute_memory(&s, &p);
	assert_true(fabs(p.mem.activations_per_layer -
			 sq * (blk + 2 * (2 * 8192 + 2 * 8 * 128 + 128.0) + 2 * 8192 + 4 * 8)) <
		    1e-3);
	assert_true(fabs(p.mem.activations_per_layer - sq * 69920) < 1e-3);

	jamba_scenario(&s, WL_TRAIN, 1);
	s.workload.seq_len = (int)sq;
	s.workload.micro_batch = 1;
	s.workload.recompute = RECOMPUTE_NONE;
	s.workload.flash_attention = true;
	plan_compute_memory(&s, &p);
	mamba1 = 2 * (3 * 8192 + 256 + 4 * 16.0) + 8 * 8192 * 16.0 / 2048;
	mlp_d = 3 * 2 * 14336.0;
	mlp_m = 4 * 16 + 2 * 2 * 2 * 4096.0 + 2 * 3 * 2 * 14336.0;
	assert_true(
	    fabs(p.mem.activations_per_layer - sq *
						   (4 * (attn + blk) + 28 * (mamba1 + blk) +
						    16 * (mlp_d + blk) + 16 * (mlp_m + blk)) /
						   32) < 1e-3);
	assert_true(fabs(p.mem.activations_per_layer - sq * 224800) < 1e-3);
	{
		/* explain itemizes the hybrid's blocks, the hand counts above: attention
		 * 20,608 + 16,384 = 36,992 B (36.1 KiB), Mamba 50,304 + 16,384 (65.1 KiB),
		 * dense MLP 86,016 + 16,384 (100 KiB), MoE 204,864 + 16,384 (216 KiB) */
		static char buf[8192];
		struct gp_error err;
		plan_compute(&s, &p);
		assert_int_equal(
		    explain_key(&s, &p, "memory.per_gpu.activations", buf, sizeof(buf), &err), 0);
		assert_non_null(
		    strstr(buf, "= (4 x 36.1 KiB + 28 x 65.1 KiB + 16 x 100 KiB + 16 x 216 KiB)"));
		assert_non_null(strstr(buf, "MambaInnerFn"));
	}
	/* full recomputation keeps each layer's input, 2 h, whatever the layer */
	s.workload.recompute = RECOMPUTE_FULL;
	plan_compute_memory(&s, &p);
	assert_true(fabs(p.mem.activations_per_layer - sq * 2 * h) < 1e-3);
}

/* Phi-3-small's shape on the H100 of jamba_scenario: 32 layers of 32 heads of 128 on 8
 * KV heads, 16 of them block-sparse (16 local blocks of 64 tokens, stride 8). */
static void phi3_small_scenario(struct scenario *s, enum workload_kind kind)
{
	struct scenario base;
	scenario_init(&base);
	jamba_scenario(s, kind, 1);
	s->model = base.model;
	s->model.layers = 32;
	s->model.hidden = 4096;
	s->model.heads = 32;
	s->model.kv_heads = 8;
	s->model.ffn = 14336;
	s->model.vocab = 100352;
	s->model.sparse_layers = 16;
	s->model.sparse_local = 1024;
	s->model.sparse_stride = 8;
}

/* Block-sparse attention (Phi-3-small: 32 layers of 32 heads of 128, every 2nd dense, the
 * others 16 local blocks of 64 tokens and every 8th block before them). A query at t in a
 * sparse layer sees min(t, 1024) + max(0, t - 1024) / 8 keys; summed over the keys of a
 * full 8192-token sequence (the training convention, 12 x layers x keys x q width) the 16
 * dense layers see 8192 and the 16 sparse ones 1024 + 7168 / 8 = 1920. */
static void test_block_sparse_flops(void **state)
{
	struct scenario s;
	static struct plan p, d;
	double window, global;
	(void)state;

	phi3_small_scenario(&s, WL_TRAIN);
	model_attention_window(&s.model, &window, &global);
	assert_true(window == 1024 && fabs(global - (0.5 + 0.5 / 8)) < 1e-15);
	s.workload.seq_len = 8192;
	s.workload.micro_batch = 1;
	plan_compute(&s, &p);
	assert_true(fabs(p.attention_flops_per_token - 12.0 * (16 * 8192 + 16 * 1920) * 4096) < 1);
	/* the same model dense: every layer sees 8192; the KV cache is the same either way */
	s.model.sparse_layers = 0;
	plan_compute(&s, &d);
	assert_true(fabs(d.attention_flops_per_token - 12.0 * 32 * 8192 * 4096) < 1);
	/* within the local blocks every key is seen: no saving at 1024 tokens */
	s.model.sparse_layers = 16;
	s.workload.seq_len = 1024;
	plan_compute(&s, &p);
	s.model.sparse_layers = 0;
	plan_compute(&s, &d);
	assert_true(p.attention_flops_per_token == d.attention_flops_per_token);
	/* a sliding window takes precedence */
	s.model.sparse_layers = 16;
	s.model.sliding_window = 4096;
	model_attention_window(&s.model, &window, &global);
	assert_true(window == 4096 && global == 0);
}

/* The decode step's KV read of block-sparse layers: each of a KV head's 4 query heads
 * (Phi-3-small: 32 on 8 KV heads, stride 8) keeps other blocks (vLLM
 * blocksparse_attention/utils.py get_sparse_attn_mask: head h keeps block b when
 * (b + h step + 1) % 8 == 0, step = max(1, 8 // 32) = 1), so the KV head is read at 4 / 8
 * of its remote blocks while each head's FLOPs see 1 / 8. At a context of 7500 (7000
 * prompt tokens, 1000 out, ctx = P + O / 2) a layer averages (16 x 7500 + 16 x (1024 +
 * 6476 / 8)) / 32 = 4667 keys of FLOPs and reads (16 x 7500 + 16 x (1024 + 6476 x 4 / 8))
 * / 32 = 5881 cached tokens. */
static void test_block_sparse_decode_read(void **state)
{
	struct scenario s;
	static struct plan p, d;
	double window, global, flop_keys, read_keys;
	(void)state;

	phi3_small_scenario(&s, WL_ONLINE);
	model_kv_read_window(&s.model, &window, &global);
	assert_true(window == 1024 && fabs(global - 0.75) < 1e-15);
	model_attention_window(&s.model, &window, &global);
	assert_true(window == 1024 && fabs(global - 0.5625) < 1e-15);
	s.workload.prompt_tokens = 7000;
	s.workload.output_tokens = 1000;
	s.workload.batch = 4;
	s.workload.kv_cache = DTYPE_BF16;
	plan_compute(&s, &p);
	s.model.sparse_layers = 0;
	plan_compute(&s, &d);
	assert_true(p.decode.batch == d.decode.batch && d.decode.kv_read_s > 0);
	/* the dense plan reads and computes over all 7500 */
	flop_keys = 7500 * p.attention_flops_per_token / d.attention_flops_per_token;
	read_keys = 7500 * p.decode.kv_read_s / d.decode.kv_read_s;
	assert_true(fabs(flop_keys - 4666.75) < 1e-6);
	assert_true(fabs(read_keys - 5881) < 1e-6);

	/* one KV head a query head: each reads its own 1 / 8 */
	s.model.sparse_layers = 16;
	s.model.kv_heads = 32;
	model_kv_read_window(&s.model, &window, &global);
	assert_true(fabs(global - 0.5625) < 1e-15);
	/* 4 heads on one KV head, stride 16: step 16 / 4 = 4, offsets 0, 4, 8, 12 take 4 of
	 * the 16 residues */
	s.model.heads = 4;
	s.model.kv_heads = 1;
	s.model.sparse_stride = 16;
	model_kv_read_window(&s.model, &window, &global);
	assert_true(fabs(global - (1 - 0.5 * (1 - 4.0 / 16))) < 1e-15);
	/* 32 heads on one KV head, stride 8: every block is read */
	s.model.heads = 32;
	s.model.sparse_stride = 8;
	model_kv_read_window(&s.model, &window, &global);
	assert_true(fabs(global - 1) < 1e-15);
}

/* Training FLOPs of a hybrid: 6N, the attention core of the attention layers only
 * (12 x attention layers x s x heads x head_dim, Narayanan et al. 2021 eq. 3), and the
 * Mamba-1 scans forward and backward (3 x 28 x (9 d_inner N + d_inner)). */
static void test_ssm_training_flops(void **state)
{
	struct scenario s;
	static struct plan p;
	struct model_params c;
	struct model r;
	(void)state;

	jamba_scenario(&s, WL_TRAIN, 8);
	s.workload.seq_len = 4096;
	s.workload.micro_batch = 1;
	plan_compute(&s, &p);
	model_resolve(&s.model, &r, NULL);
	model_count_params(&r, &c);
	assert_true(fabs(p.attention_flops_per_token - 12.0 * 4 * 4096 * 4096) < 1);
	assert_true(fabs(p.flops_per_token - (6 * c.active + 12.0 * 4 * 4096 * 4096 +
					      3 * 28 * (9 * 8192.0 * 16 + 8192))) < 1e3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_llama2_7b),
	    cmocka_unit_test(test_llama2_70b_gqa),
	    cmocka_unit_test(test_tied_embeddings_and_resolve_defaults),
	    cmocka_unit_test(test_gpt2_biases_layernorm_positions),
	    cmocka_unit_test(test_gemma2_head_dim_and_four_norms),
	    cmocka_unit_test(test_qwen_biases_and_qk_norm),
	    cmocka_unit_test(test_mixtral_moe),
	    cmocka_unit_test(test_deepseek_v3_mla_moe),
	    cmocka_unit_test(test_kv_elems),
	    cmocka_unit_test(test_params_with_shape_scales),
	    cmocka_unit_test(test_standard_shape_recovers_llama),
	    cmocka_unit_test(test_standard_shape_any_size),
	    cmocka_unit_test(test_largest_layer),
	    cmocka_unit_test(test_narrow_embedding_no_final_norm),
	    cmocka_unit_test(test_embedding_norm),
	    cmocka_unit_test(test_empty_model),
	    cmocka_unit_test(test_kv_share),
	    cmocka_unit_test(test_ssm_hybrid_count),
	    cmocka_unit_test(test_ssm_state_and_kv),
	    cmocka_unit_test(test_ssm_training_flops),
	    cmocka_unit_test(test_block_sparse_flops),
	    cmocka_unit_test(test_block_sparse_decode_read),
	    cmocka_unit_test(test_ssm_training_activations),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
