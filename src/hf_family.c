/* hf_family.c - the config.json readers of the dense and mixture-of-experts families
 * (Llama and its kin, GPT-2, Falcon, OPT, BLOOM, DeepSeek, Phi, DBRX, Llama 4, gpt-oss)
 * and of a multimodal checkpoint's vision tower; hf_config.c's family table calls them.
 */
#include "hf_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The longest context: max_position_embeddings, n_positions (GPT-2), seq_length (some
 * BLOOM and ChatGLM-style configs) or max_sequence_length (the first LLaMA conversions),
 * else the family's default. */
int hf_read_max_context(struct hf *c, int def, int *out)
{
	static const char *const keys[] = {"max_position_embeddings", "n_positions", "seq_length",
					   "max_sequence_length"};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		int r = hf_get_int(c, keys[i], 1, out);
		if (r != 0)
			return r < 0 ? -1 : 0;
	}
	*out = def;
	return 0;
}

/* Llama and the families that copy its keys (LlamaConfig): num_hidden_layers, hidden_size,
 * num_attention_heads, num_key_value_heads (default: heads), head_dim (default hidden /
 * heads), intermediate_size, vocab_size, tie_word_embeddings, attention_bias, mlp_bias.
 * rope_scaling (Llama 3.1) changes no parameter and is ignored. */
int hf_read_llama_like(struct hf *c, struct model *m, bool need_ffn, bool tied_default,
		       int context_default)
{
	if (hf_need_int(c, "num_hidden_layers", NULL, 1, &m->layers) ||
	    hf_need_int(c, "hidden_size", NULL, 1, &m->hidden) ||
	    hf_need_int(c, "num_attention_heads", NULL, 1, &m->heads) ||
	    hf_opt_int(c, "num_key_value_heads", 1, m->heads, &m->kv_heads) ||
	    hf_opt_int(c, "head_dim", 1, 0, &m->head_dim) ||
	    (c->vocab_default ? hf_opt_int(c, "vocab_size", 1, c->vocab_default, &m->vocab)
			      : hf_need_int(c, "vocab_size", NULL, 1, &m->vocab)) ||
	    hf_opt_bool(c, "tie_word_embeddings", tied_default, &m->tied_embeddings) ||
	    hf_opt_bool(c, "attention_bias", false, &m->attention_bias) ||
	    hf_opt_bool(c, "mlp_bias", false, &m->mlp_bias) ||
	    hf_read_max_context(c, context_default, &m->max_context))
		return -1;
	if (need_ffn)
		return hf_need_int(c, "intermediate_size", NULL, 1, &m->ffn);
	return hf_opt_int(c, "intermediate_size", 1, 0, &m->ffn);
}

/* Qwen2/Qwen3 keep sliding_window in every config but use it only with
 * use_sliding_window true (configuration_qwen2.py). */
int hf_read_qwen_window(struct hf *c, struct model *m)
{
	bool use = false;

	if (hf_opt_bool(c, "use_sliding_window", false, &use))
		return -1;
	if (!use)
		return 0;
	return hf_opt_int(c, "sliding_window", 0, 0, &m->sliding_window);
}

/* Mixtral-style experts (modeling_mixtral.py): the count under key, each an MLP of
 * intermediate_size (read before, into m->ffn), num_experts_per_tok (or alt) of them active
 * per token. */
int hf_read_ffn_experts(struct hf *c, struct model *m, const char *key, const char *alt)
{
	if (hf_need_int(c, key, NULL, 1, &m->moe.experts) ||
	    hf_need_int(c, "num_experts_per_tok", alt, 1, &m->moe.active))
		return -1;
	m->moe.expert_ffn = m->ffn;
	return 0;
}

/* The layers a list of layer numbers under key names (Qwen3-MoE's mlp_only_layers, Llama
 * 4's moe_layers), marked in listed (layers + 1 entries or more, cleared here): 0 when
 * absent, else 1. Each entry must be an integer from 0 to layers - 1, listed once; an
 * error at the entry otherwise. One pass over the list, however long. */
static int layer_set(struct hf *c, const char *key, int layers, bool *listed)
{
	const cJSON *list = hf_item(c, key), *e;
	size_t off = hf_koff(c, key);
	int n = 0;

	memset(listed, 0, (size_t)layers * sizeof(*listed));
	if (!list)
		return 0;
	if (!cJSON_IsArray(list))
		return hf_fail_at(c, off, key, "'%s' must be an array of layer numbers, not %s",
				  key, hf_kind_name(list));
	cJSON_ArrayForEach(e, list)
	{
		double v = cJSON_IsNumber(e) ? e->valuedouble : -1;
		if (!cJSON_IsNumber(e) || v != floor(v) || v < 0 || v >= layers)
			return hf_fail_at(c, hf_array_elem_offset(c->text, c->len, off, n), key,
					  "'%s': entry %d must be a layer number from 0 to %d", key,
					  n, layers - 1);
		if (listed[(int)v])
			return hf_fail_at(c, hf_array_elem_offset(c->text, c->len, off, n), key,
					  "'%s': layer %d is listed twice", key, (int)v);
		listed[(int)v] = true;
		n++;
	}
	return 1;
}

/* Qwen3-MoE (modeling_qwen3_moe.py): layer i has the sparse MLP unless it is listed in
 * mlp_only_layers or (i + 1) is not a multiple of decoder_sparse_step; the others have a
 * dense MLP of intermediate_size. No shared experts. */
int hf_read_qwen3_moe(struct hf *c, struct model *m)
{
	bool only[10001]; /* num_hidden_layers is at most 10000 (hf_key_max) */
	int step, dense = 0;

	if (hf_need_int(c, "num_experts", NULL, 1, &m->moe.experts) ||
	    hf_need_int(c, "num_experts_per_tok", NULL, 1, &m->moe.active) ||
	    hf_need_int(c, "moe_intermediate_size", NULL, 1, &m->moe.expert_ffn) ||
	    hf_opt_int(c, "decoder_sparse_step", 1, 1, &step) ||
	    layer_set(c, "mlp_only_layers", m->layers, only) < 0)
		return -1;
	/* Qwen3MoeDecoderLayer: dense when layer_idx in mlp_only_layers or not
	 * (layer_idx + 1) % decoder_sparse_step == 0 */
	for (int i = 0; i < m->layers; i++)
		if (only[i] || (i + 1) % step != 0)
			dense++;
	m->moe.dense_layers = dense;
	if (dense && !m->ffn)
		return hf_fail_at(
		    c, hf_koff(c, NULL), "intermediate_size",
		    "missing 'intermediate_size' (a %s config with dense layers needs it)",
		    c->type);
	return 0;
}

/* The block of the GPT-2 lineage (modeling_gpt2.py's GPT2Block, and OPT, BLOOM, Falcon,
 * StarCoder2 after it): LayerNorms and a plain (GELU or ReLU) MLP, with biases on the
 * attention and MLP projections when bias. */
static void set_layernorm_block(struct model *m, bool bias)
{
	m->attention_bias = bias;
	m->mlp_bias = bias;
	m->mlp = MLP_PLAIN;
	m->norm = NORM_LAYERNORM;
}

/* The GPT-2 spellings (n_layer, n_head, with the newer names as alternatives) of the
 * layers, heads and vocabulary that GPT-2, BLOOM and GPT-J share; hidden and hidden_alt
 * name the width, which each spells its own way. */
static int read_gpt2_dims(struct hf *c, struct model *m, const char *hidden, const char *hidden_alt)
{
	if (hf_need_int(c, "n_layer", "num_hidden_layers", 1, &m->layers) ||
	    hf_need_int(c, hidden, hidden_alt, 1, &m->hidden) ||
	    hf_need_int(c, "n_head", "num_attention_heads", 1, &m->heads) ||
	    hf_need_int(c, "vocab_size", NULL, 1, &m->vocab))
		return -1;
	return 0;
}

/* GPT-2 (configuration_gpt2.py, modeling_gpt2.py): n_layer, n_embd, n_head, n_inner (null:
 * 4 x n_embd), learned positions wpe of n_positions; LayerNorm with bias, biases on every
 * Conv1D, GELU MLP, lm_head tied to wte. */
int hf_read_gpt2(struct hf *c, struct model *m)
{
	if (read_gpt2_dims(c, m, "n_embd", "hidden_size") ||
	    hf_opt_int(c, "n_inner", 1, 4 * m->hidden, &m->ffn) ||
	    hf_opt_int(c, "n_positions", 1, 1024, &m->position_embeddings) ||
	    hf_opt_bool(c, "tie_word_embeddings", true, &m->tied_embeddings))
		return -1;
	m->max_context = m->position_embeddings;
	set_layernorm_block(m, true);
	return 0;
}

/* Falcon: transformers' configuration_falcon.py / modeling_falcon.py, and the older
 * configuration_RW.py / modelling_RW.py of the first uploads (keys n_layer, n_head,
 * n_head_kv, multi_query).
 * - new_decoder_architecture (Falcon-40B/180B; the RW code of falcon-40b, recognisable by
 *   n_head_kv or model_type "RefinedWeb"): query_key_value has (2 x kv + heads) x head_dim
 *   outputs, and two LayerNorms (ln_attn, ln_mlp) unless num_ln_in_parallel_attn is 1;
 * - otherwise multi_query gives one K/V head (Falcon-7B) and the block has
 *   input_layernorm, plus post_attention_layernorm unless parallel_attn;
 * - bias: on query_key_value, dense and both MLP matrices; ffn_hidden_size, default 4h;
 * - lm_head tied to word_embeddings (PretrainedConfig default; vLLM PR #3590 and
 *   transformers PR #35715 confirm every Falcon ties them). */
int hf_read_falcon(struct hf *c, struct model *m)
{
	bool hf_keys = strcmp(c->type, "falcon") == 0 || strcmp(c->type, "FalconForCausalLM") == 0;
	bool new_arch, multi_query, parallel;
	int kv, lns;

	if (hf_need_int(c, "num_hidden_layers", "n_layer", 1, &m->layers) ||
	    hf_need_int(c, "hidden_size", "n_embed", 1, &m->hidden) ||
	    hf_need_int(c, "num_attention_heads", "n_head", 1, &m->heads) ||
	    hf_need_int(c, "vocab_size", NULL, 1, &m->vocab) ||
	    hf_opt_bool(c, "new_decoder_architecture",
			hf_has_key(c, "n_head_kv") || strcmp(c->type, "RefinedWeb") == 0 ||
			    strcmp(c->type, "RWForCausalLM") == 0,
			&new_arch) ||
	    hf_opt_bool(c, "multi_query", hf_keys, &multi_query) ||
	    hf_opt_bool(c, "parallel_attn", hf_keys, &parallel) ||
	    hf_opt_bool(c, "bias", false, &m->attention_bias) ||
	    hf_opt_bool(c, "tie_word_embeddings", true, &m->tied_embeddings) ||
	    hf_opt_int(c, "ffn_hidden_size", 1, 4 * m->hidden, &m->ffn) ||
	    hf_opt_int(c, "num_ln_in_parallel_attn", 1, 2, &lns) ||
	    hf_read_max_context(c, 2048, &m->max_context)) /* Falcon paper: 2,048 tokens */
		return -1;
	if (new_arch) {
		if (hf_opt_int(c, "num_kv_heads", 1, 0, &kv))
			return -1;
		if (!kv && hf_opt_int(c, "n_head_kv", 1, m->heads, &kv))
			return -1;
		m->kv_heads = kv;
		m->norms_per_layer = lns == 1 ? 1 : 2;
	} else {
		m->kv_heads = multi_query ? 1 : m->heads;
		m->norms_per_layer = parallel ? 1 : 2;
	}
	m->parallel_block = parallel || new_arch;
	set_layernorm_block(m, m->attention_bias);
	return 0;
}

/* OPT (configuration_opt.py, modeling_opt.py): ffn_dim; learned positions with an offset
 * of 2 (OPTLearnedPositionalEmbedding: max_position_embeddings + 2 rows); enable_bias on
 * every projection; LayerNorm; ReLU MLP; word_embed_proj_dim narrower than hidden adds
 * project_in and project_out (opt-350m); final_layer_norm only with do_layer_norm_before
 * and not _remove_final_layer_norm; lm_head tied to embed_tokens. */
int hf_read_opt(struct hf *c, struct model *m)
{
	bool pre_ln, remove_final, bias;
	int proj;

	if (hf_need_int(c, "num_hidden_layers", NULL, 1, &m->layers) ||
	    hf_need_int(c, "hidden_size", NULL, 1, &m->hidden) ||
	    hf_need_int(c, "num_attention_heads", NULL, 1, &m->heads) ||
	    hf_need_int(c, "ffn_dim", NULL, 1, &m->ffn) ||
	    hf_need_int(c, "vocab_size", NULL, 1, &m->vocab) ||
	    hf_opt_int(c, "max_position_embeddings", 1, 2048, &m->max_context) ||
	    hf_opt_int(c, "word_embed_proj_dim", 1, m->hidden, &proj) ||
	    hf_opt_bool(c, "do_layer_norm_before", true, &pre_ln) ||
	    hf_opt_bool(c, "_remove_final_layer_norm", false, &remove_final) ||
	    hf_opt_bool(c, "enable_bias", true, &bias) ||
	    hf_opt_bool(c, "tie_word_embeddings", true, &m->tied_embeddings))
		return -1;
	m->position_embeddings = m->max_context + 2;
	m->embed_dim = proj != m->hidden ? proj : 0;
	m->no_final_norm = !pre_ln || remove_final;
	set_layernorm_block(m, bias);
	return 0;
}

/* BLOOM (configuration_bloom.py, modeling_bloom.py): n_layer, hidden_size (n_embed in the
 * 176B config), n_head (num_attention_heads); ALiBi, so no position parameters;
 * word_embeddings_layernorm; biases on query_key_value, dense and the 4h GELU MLP;
 * LayerNorm; lm_head tied. Trained on 2,048-token sequences (BLOOM paper, Section 3.5). */
int hf_read_bloom(struct hf *c, struct model *m)
{
	if (read_gpt2_dims(c, m, "hidden_size", "n_embed") ||
	    hf_opt_bool(c, "tie_word_embeddings", true, &m->tied_embeddings) ||
	    hf_read_max_context(c, 2048, &m->max_context))
		return -1;
	m->ffn = 4 * m->hidden;
	m->embedding_norm = true;
	set_layernorm_block(m, true);
	return 0;
}

/* The routed experts' keys of DeepSeek's configs, V2/V3 and DeepSeekMoE alike
 * (modeling_deepseek.py DeepseekDecoderLayer): layer i is MoE when i >=
 * first_k_dense_replace and i % moe_layer_freq == 0; n_shared_experts shared experts of
 * moe_intermediate_size each. */
static int deepseek_experts(struct hf *c, struct model *m, int first_dense, int freq)
{
	int dense = 0;

	if (hf_need_int(c, "num_experts_per_tok", NULL, 1, &m->moe.active) ||
	    hf_need_int(c, "moe_intermediate_size", NULL, 1, &m->moe.expert_ffn) ||
	    hf_opt_int(c, "n_shared_experts", 0, 0, &m->moe.shared))
		return -1;
	for (int i = 0; i < m->layers; i++)
		if (!(i >= first_dense && i % freq == 0))
			dense++;
	m->moe.dense_layers = dense;
	if (m->moe.shared)
		m->moe.shared_ffn = m->moe.expert_ffn;
	return 0;
}

/* DeepSeek-V2/V3 (configuration_deepseek.py, modeling_deepseek.py): MLA ranks and head
 * sizes; layer i is MoE when n_routed_experts is set, i >= first_k_dense_replace and
 * i % moe_layer_freq == 0; n_shared_experts shared experts of moe_intermediate_size. The
 * multi-token-prediction module (num_nextn_predict_layers, 14B in DeepSeek-V3) is not
 * part of the main model and is left out (DeepSeek-V3's README_WEIGHTS.md on
 * Hugging Face: 671B main + 14B MTP). */
int hf_read_deepseek(struct hf *c, struct model *m)
{
	int routed = 0, first_dense, freq;

	if (hf_read_llama_like(c, m, true, false, 4096) ||
	    hf_opt_int(c, "q_lora_rank", 1, 0, &m->mla.q_rank) ||
	    hf_need_int(c, "kv_lora_rank", NULL, 1, &m->mla.kv_rank) ||
	    hf_need_int(c, "qk_rope_head_dim", NULL, 1, &m->mla.rope_dim) ||
	    hf_need_int(c, "qk_nope_head_dim", NULL, 0, &m->mla.nope_dim) ||
	    hf_need_int(c, "v_head_dim", NULL, 1, &m->mla.v_dim) ||
	    hf_opt_int(c, "n_routed_experts", 0, 0, &routed) ||
	    hf_opt_int(c, "first_k_dense_replace", 0, 0, &first_dense) ||
	    hf_opt_int(c, "moe_layer_freq", 1, 1, &freq))
		return -1;
	/* head_dim is not a DeepSeek key; model_resolve derives it from the MLA sizes. */
	m->head_dim = 0;
	if (!routed)
		return 0;
	m->moe.experts = routed;
	return deepseek_experts(c, m, first_dense, freq);
}

/* layer_types, one string per layer: 0 when absent, else 1 with *matched the number of
 * entries that are one of match (NULL-terminated); every other entry must be other. Errors
 * at the entry that is neither, naming the accepted values, and at the key when it is not
 * an array of strings or does not list every layer. */
int hf_layer_types_count(struct hf *c, const struct model *m, const char *const *match,
			 const char *other, int *matched)
{
	const cJSON *types = hf_item(c, "layer_types"), *t;
	size_t off = hf_koff(c, "layer_types");
	int n = 0;

	*matched = 0;
	if (!types)
		return 0;
	if (!cJSON_IsArray(types))
		return hf_fail_at(c, off, "layer_types",
				  "'layer_types' must be an array of strings, not %s",
				  hf_kind_name(types));
	cJSON_ArrayForEach(t, types)
	{
		bool hit = false;
		if (!cJSON_IsString(t))
			return hf_fail_at(c, hf_array_elem_offset(c->text, c->len, off, n),
					  "layer_types", "'layer_types' must hold strings, not %s",
					  hf_kind_name(t));
		for (int i = 0; match[i]; i++)
			hit = hit || strcmp(t->valuestring, match[i]) == 0;
		if (!hit && strcmp(t->valuestring, other) != 0) {
			char names[160];
			size_t k = 0;
			for (int i = 0; match[i] && k < sizeof(names); i++)
				k += (size_t)snprintf(names + k, sizeof(names) - k, "%s\"%s\"",
						      i ? ", " : "", match[i]);
			return hf_fail_at(
			    c, hf_array_elem_offset(c->text, c->len, off, n), "layer_types",
			    "'layer_types': layer %d is \"%.40s\"; expected %s or \"%s\"", n,
			    t->valuestring, k < sizeof(names) ? names : "", other);
		}
		*matched += hit;
		n++;
	}
	if (n != m->layers)
		return hf_fail_at(c, off, "layer_types",
				  "'layer_types' lists %d layers, but num_hidden_layers is %d", n,
				  m->layers);
	return 1;
}

/* Sliding-window and full-attention layers mixed (Gemma 2/3, gpt-oss, OLMo 3, Cohere 2,
 * EXAONE 4): sliding_window (null or absent: every layer is full) and how many layers are
 * full, from layer_types as the configuration classes write it ("sliding_attention" or
 * "full_attention" per layer), else from sliding_window_pattern (every pattern-th layer
 * full: configuration_gemma3.py and configuration_cohere2.py build layer_types as
 * "sliding" if (i + 1) % pattern else "full"; EXAONE 4 may spell it "LLLG", a G per full
 * layer), else from the family's default period (period; 0 = every layer windowed, as
 * Mistral). The windowed layers keep sliding_window tokens of KV cache (model.c,
 * model_kv_share). */
int hf_mixed_window(struct hf *c, struct model *m, int period)
{
	static const char *const windowed[] = {"sliding_attention", NULL};
	const cJSON *pat = hf_item(c, "sliding_window_pattern");
	int sliding = 0, full = 0, window = 0, r;

	if (hf_opt_int(c, "sliding_window", 0, 0, &window))
		return -1;
	m->sliding_window = 0;
	m->global_layers = 0;
	r = hf_layer_types_count(c, m, windowed, "full_attention", &sliding);
	if (r < 0)
		return -1;
	/* sliding layers need a window: 0, or a null one beside a layer_types list that names
	 * sliding layers, contradicts them (a null window with only a pattern means none, as
	 * EXAONE 4.0 1.2B writes it) */
	if (r && sliding > 0 && window <= 0) {
		const cJSON *w = cJSON_GetObjectItemCaseSensitive(c->root, "sliding_window");
		return hf_fail_at(
		    c, hf_koff(c, w ? "sliding_window" : "layer_types"), "sliding_window",
		    "'layer_types' lists %d \"sliding_attention\" layers, but "
		    "'sliding_window' is %s: give the window in tokens (at least 1), or "
		    "make those layers \"full_attention\"",
		    sliding,
		    !w		      ? "not given"
		    : cJSON_IsNull(w) ? "null"
				      : "0");
	}
	if (r) {
		full = m->layers - sliding;
	} else if (cJSON_IsString(pat) && pat->valuestring[0]) {
		/* one letter per layer of a repeating period: L local, G global */
		const char *p = pat->valuestring;
		int len = (int)strlen(p);
		for (int i = 0; i < m->layers; i++) {
			if (p[i % len] == 'G')
				full++;
			else
				sliding++;
		}
	} else {
		int every = period;
		if (pat && hf_get_int(c, "sliding_window_pattern", 1, &every) < 0)
			return -1;
		full = every > 0 ? m->layers / every : 0;
		sliding = m->layers - full;
	}
	if (sliding > 0 && window == 0 && hf_item(c, "sliding_window"))
		return hf_fail_at(
		    c, hf_koff(c, "sliding_window"), "sliding_window",
		    "'sliding_window' is 0, but %d of the %d layers are sliding-window "
		    "layers (%s): give the window in tokens (at least 1), or null for "
		    "none",
		    sliding, m->layers,
		    pat ? "sliding_window_pattern" : "the family's default pattern");
	if (window <= 0 || sliding == 0)
		return 0; /* every layer attends over the whole context */
	m->sliding_window = window;
	m->global_layers = full;
	return 0;
}

/* The block Phi and GPT-J share: attention and a GELU MLP in parallel after one LayerNorm
 * (ln_1 in modeling_gptj.py, input_layernorm in modeling_phi.py), biases on the MLP and on
 * the lm_head. */
static void set_parallel_block(struct model *m)
{
	m->mlp_bias = true;
	m->head_bias = true;
	m->parallel_block = true;
	m->norms_per_layer = 1;
	m->mlp = MLP_PLAIN;
	m->norm = NORM_LAYERNORM;
}

/* Phi-1, Phi-1.5, Phi-2 (modeling_phi.py): one input_layernorm feeds attention and MLP in
 * parallel; q, k, v and dense with biases; fc1/fc2 GELU MLP with biases; LayerNorms;
 * final_layernorm; lm_head with a bias; qk_layernorm adds a LayerNorm over head_dim to q
 * and k. The first uploads' remote code (model_type "phi-msft", modeling_phi.py of
 * microsoft/phi-2 before transformers 4.37) spells them n_embd, n_layer, n_head, n_head_kv,
 * n_inner (null: 4 x n_embd), n_positions; its Wqkv, out_proj, fc1, fc2 and the
 * CausalLMHead's ln and linear are the same parameters. */
int hf_read_phi(struct hf *c, struct model *m)
{
	int kv = 0;

	if (hf_need_int(c, "num_hidden_layers", "n_layer", 1, &m->layers) ||
	    hf_need_int(c, "hidden_size", "n_embd", 1, &m->hidden) ||
	    hf_need_int(c, "num_attention_heads", "n_head", 1, &m->heads) ||
	    hf_opt_int(c, "num_key_value_heads", 1, 0, &kv) ||
	    (!kv && hf_opt_int(c, "n_head_kv", 1, 0, &kv)) ||
	    hf_need_int(c, "vocab_size", NULL, 1, &m->vocab) ||
	    hf_opt_bool(c, "tie_word_embeddings", false, &m->tied_embeddings) ||
	    hf_opt_bool(c, "qk_layernorm", false, &m->qk_norm) ||
	    hf_read_max_context(c, 2048, &m->max_context))
		return -1;
	if (hf_opt_int(c, "intermediate_size", 1, 0, &m->ffn) ||
	    (!m->ffn && hf_opt_int(c, "n_inner", 1, 4 * m->hidden, &m->ffn)))
		return -1;
	if (hf_item(c, "num_local_experts"))
		return hf_fail_at(c, hf_koff(c, "num_local_experts"), "num_local_experts",
				  "a phi config with experts (phixtral) is not supported; give "
				  "model.params and the shape fields instead");
	m->kv_heads = kv;
	m->attention_bias = true;
	set_parallel_block(m);
	return 0;
}

/* GPT-J (modeling_gptj.py): n_embd, n_layer, n_head, n_inner (null: 4h), n_positions,
 * rotary positions; q, k, v and out_proj without bias; fc_in/fc_out with biases; one ln_1
 * per block (attention and MLP in parallel); ln_f; an untied lm_head with a bias. */
int hf_read_gptj(struct hf *c, struct model *m)
{
	if (read_gpt2_dims(c, m, "n_embd", "hidden_size") ||
	    hf_opt_int(c, "n_inner", 1, 4 * m->hidden, &m->ffn) ||
	    hf_opt_bool(c, "tie_word_embeddings", false, &m->tied_embeddings) ||
	    hf_read_max_context(c, 2048, &m->max_context))
		return -1;
	set_parallel_block(m);
	return 0;
}

/* GPT-NeoX and Pythia (modeling_gpt_neox.py): query_key_value and dense with biases
 * (attention_bias, default true); dense_h_to_4h/dense_4h_to_h GELU MLP with biases;
 * input_layernorm and post_attention_layernorm (LayerNorm) even with
 * use_parallel_residual; final_layer_norm; embed_in and embed_out untied by default. */
int hf_read_gpt_neox(struct hf *c, struct model *m)
{
	bool parallel;

	if (hf_read_llama_like(c, m, true, false, 2048) ||
	    hf_opt_bool(c, "attention_bias", true, &m->attention_bias) ||
	    hf_opt_bool(c, "use_parallel_residual", true, &parallel))
		return -1;
	m->mlp_bias = true;
	m->parallel_block = parallel;
	m->norms_per_layer = 2;
	m->mlp = MLP_PLAIN;
	m->norm = NORM_LAYERNORM;
	return 0;
}

/* StableLM (modeling_stablelm.py): LayerNorms with biases; q, k, v biases with
 * use_qkv_bias, o_proj without; a bias-free SwiGLU MLP; use_parallel_residual drops the
 * post_attention_layernorm; untied by default. qk_layernorm (StableLM 2 12B) is one
 * bias-free LayerNorm per head, which this count cannot express, so it is refused. */
int hf_read_stablelm(struct hf *c, struct model *m)
{
	bool parallel, qk;

	if (hf_read_llama_like(c, m, true, false, 4096) ||
	    hf_opt_bool(c, "use_qkv_bias", false, &m->qkv_bias) ||
	    hf_opt_bool(c, "use_parallel_residual", false, &parallel) ||
	    hf_opt_bool(c, "qk_layernorm", false, &qk))
		return -1;
	if (qk)
		return hf_fail_at(
		    c, hf_koff(c, "qk_layernorm"), "qk_layernorm",
		    "a stablelm config with 'qk_layernorm' true is not supported; give "
		    "model.params and the shape fields instead");
	m->parallel_block = parallel;
	m->norms_per_layer = parallel ? 1 : 2;
	m->norm = NORM_LAYERNORM;
	return 0;
}

/* StarCoder2 (modeling_starcoder2.py): q, k, v, o and the c_fc/c_proj GELU MLP with
 * biases (use_bias, default true); LayerNorms with biases; tied embeddings by default; one
 * sliding_window for every layer. */
int hf_read_starcoder2(struct hf *c, struct model *m)
{
	bool bias;

	if (hf_read_llama_like(c, m, true, true, 4096) || hf_opt_bool(c, "use_bias", true, &bias) ||
	    hf_opt_int(c, "sliding_window", 0, 0, &m->sliding_window))
		return -1;
	set_layernorm_block(m, bias);
	return 0;
}

/* ChatGLM2/3 and GLM-4's first release (THUDM's modeling_chatglm.py): num_layers,
 * kv_channels (head size), multi_query_group_num K/V heads when multi_query_attention,
 * ffn_hidden_size of a SwiGLU MLP (dense_h_to_4h is 2 x ffn wide), padded_vocab_size;
 * query_key_value biases with add_qkv_bias, dense and MLP biases with add_bias_linear;
 * RMSNorm (rmsnorm) or LayerNorm; the final norm with post_layer_norm; an untied
 * output_layer. */
int hf_read_chatglm(struct hf *c, struct model *m)
{
	bool mqa, qkv_bias, linear_bias, rms, post;

	if (hf_need_int(c, "num_layers", "num_hidden_layers", 1, &m->layers) ||
	    hf_need_int(c, "hidden_size", NULL, 1, &m->hidden) ||
	    hf_need_int(c, "num_attention_heads", NULL, 1, &m->heads) ||
	    hf_need_int(c, "ffn_hidden_size", NULL, 1, &m->ffn) ||
	    hf_need_int(c, "padded_vocab_size", "vocab_size", 1, &m->vocab) ||
	    hf_opt_int(c, "kv_channels", 1, 0, &m->head_dim) ||
	    hf_opt_bool(c, "multi_query_attention", false, &mqa) ||
	    hf_opt_bool(c, "add_qkv_bias", false, &qkv_bias) ||
	    hf_opt_bool(c, "add_bias_linear", false, &linear_bias) ||
	    hf_opt_bool(c, "rmsnorm", true, &rms) ||
	    hf_opt_bool(c, "post_layer_norm", true, &post) ||
	    hf_opt_bool(c, "tie_word_embeddings", false, &m->tied_embeddings) ||
	    hf_read_max_context(c, 2048, &m->max_context))
		return -1;
	if (mqa && hf_need_int(c, "multi_query_group_num", NULL, 1, &m->kv_heads))
		return -1;
	if (linear_bias && !qkv_bias)
		return hf_fail_at(c, hf_koff(c, "add_bias_linear"), "add_bias_linear",
				  "'add_bias_linear' without 'add_qkv_bias' is not supported");
	m->attention_bias = linear_bias;
	m->qkv_bias = qkv_bias && !linear_bias;
	m->mlp_bias = linear_bias;
	m->norm = rms ? NORM_RMSNORM : NORM_LAYERNORM;
	m->no_final_norm = !post;
	return 0;
}

/* DBRX (modeling_dbrx.py): d_model, n_heads, n_layers, max_seq_len, and the nested
 * attn_config (kv_n_heads) and ffn_config (ffn_hidden_size, moe_num_experts, moe_top_k);
 * Wqkv and out_proj without bias; bias-free LayerNorms norm_1 and norm_2 (a weight only, so
 * counted as RMSNorm is); every layer MoE with a bias-free router and SwiGLU experts (w1,
 * v1, w2); an untied lm_head. */
int hf_read_dbrx(struct hf *c, struct model *m)
{
	const cJSON *top = c->root;
	size_t top_base = c->base;
	int r;

	if (hf_need_int(c, "n_layers", NULL, 1, &m->layers) ||
	    hf_need_int(c, "d_model", NULL, 1, &m->hidden) ||
	    hf_need_int(c, "n_heads", NULL, 1, &m->heads) ||
	    hf_need_int(c, "vocab_size", NULL, 1, &m->vocab) ||
	    hf_opt_bool(c, "tie_word_embeddings", false, &m->tied_embeddings) ||
	    hf_opt_int(c, "max_seq_len", 1, 2048, &m->max_context))
		return -1;
	if ((r = hf_enter(c, "attn_config")) < 0 ||
	    (r && hf_opt_int(c, "kv_n_heads", 1, 1, &m->kv_heads)))
		return -1;
	c->root = top;
	c->base = top_base;
	if ((r = hf_enter(c, "ffn_config")) < 0)
		return -1;
	if (!r)
		return hf_fail_at(c, hf_koff(c, NULL), "ffn_config",
				  "missing 'ffn_config' (a dbrx config needs it)");
	if (hf_need_int(c, "ffn_hidden_size", NULL, 1, &m->moe.expert_ffn) ||
	    hf_need_int(c, "moe_num_experts", NULL, 1, &m->moe.experts) ||
	    hf_need_int(c, "moe_top_k", NULL, 1, &m->moe.active))
		return -1;
	m->ffn = m->moe.expert_ffn;
	return 0;
}

/* Llama 4's chunked attention (modeling_llama4.py, Llama4TextDecoderLayer): a layer with
 * no_rope_layers[i] = 1 uses RoPE and attends within chunks of attention_chunk_size tokens;
 * one with 0 (NoPE) attends over the whole context. Llama4TextConfig's default list is 1
 * but for every no_rope_layer_interval-th layer (4). Without attention_chunk_size every
 * layer is global. */
static int read_llama4_chunks(struct hf *c, struct model *m)
{
	const cJSON *list = hf_item(c, "no_rope_layers"), *e;
	int chunk = 0, interval, global = 0, n = 0;

	if (hf_opt_int(c, "attention_chunk_size", 1, 0, &chunk) ||
	    hf_opt_int(c, "no_rope_layer_interval", 1, 4, &interval))
		return -1;
	if (list && !cJSON_IsArray(list))
		return hf_fail_at(c, hf_koff(c, "no_rope_layers"), "no_rope_layers",
				  "'no_rope_layers' must be an array of 0 and 1, not %s",
				  hf_kind_name(list));
	if (list) {
		cJSON_ArrayForEach(e, list)
		{
			if (!cJSON_IsNumber(e) || (e->valuedouble != 0 && e->valuedouble != 1))
				return hf_fail_at(c, hf_koff(c, "no_rope_layers"), "no_rope_layers",
						  "'no_rope_layers' must hold 0 or 1 per layer");
			global += e->valuedouble == 0;
			n++;
		}
		if (n != m->layers)
			return hf_fail_at(c, hf_koff(c, "no_rope_layers"), "no_rope_layers",
					  "'no_rope_layers' lists %d layers, but num_hidden_layers "
					  "is %d",
					  n, m->layers);
	} else {
		global = m->layers / interval;
	}
	if (chunk <= 0 || global >= m->layers)
		return 0;
	m->sliding_window = chunk;
	m->chunked_attention = true;
	m->global_layers = global;
	return 0;
}

/* Llama 4's text model (modeling_llama4.py, Llama4TextConfig): layer i is MoE when it is
 * in moe_layers (default: every interleave_moe_layer_step-th layer, counting from
 * step - 1); a MoE layer has num_local_experts routed experts and one shared expert of
 * intermediate_size and a bias-free router; the other layers a dense MLP of
 * intermediate_size_mlp. use_qk_norm is an L2 norm without weights. */
int hf_read_llama4(struct hf *c, struct model *m)
{
	bool listed[10001]; /* num_hidden_layers is at most 10000 (hf_key_max) */
	int step, moe = 0, r;

	if (hf_read_llama_like(c, m, true, false, 131072) ||
	    hf_read_ffn_experts(c, m, "num_local_experts", NULL) ||
	    hf_opt_int(c, "interleave_moe_layer_step", 1, 1, &step))
		return -1;
	m->moe.shared = 1;
	m->moe.shared_ffn = m->ffn;
	if (hf_opt_int(c, "intermediate_size_mlp", 1, m->ffn, &m->ffn) ||
	    (r = layer_set(c, "moe_layers", m->layers, listed)) < 0)
		return -1;
	for (int i = r ? 0 : step - 1; i < m->layers; i += r ? 1 : step)
		moe += r ? listed[i] : 1;
	m->moe.dense_layers = m->layers - moe;
	return read_llama4_chunks(c, m);
}

/* gpt-oss (modeling_gpt_oss.py): q, k, v, o with biases (attention_bias); a learned sink
 * per head (self_attn.sinks); every layer MoE, num_local_experts SwiGLU experts of
 * intermediate_size with biases (gate_up_proj_bias, down_proj_bias) and a router with a
 * bias; untied. */
int hf_read_gpt_oss(struct hf *c, struct model *m)
{
	if (hf_read_llama_like(c, m, true, false, 131072) ||
	    hf_read_ffn_experts(c, m, "num_local_experts", "experts_per_token"))
		return -1;
	m->mlp_bias = true;
	m->router_bias = true;
	m->attention_sinks = true;
	/* GptOssConfig: layer_types alternate sliding (128) and full, sliding first */
	return hf_mixed_window(c, m, 2);
}

/* Phi-3-small (microsoft/Phi-3-small-8k-instruct's remote code, modeling_phi3_small.py
 * and configuration_phi3_small.py; vLLM's model_executor/models/phi3_small.py builds the
 * same modules). Phi3SmallSelfAttention: one fused query_key_value of (heads + 2 kv_heads)
 * x head_dim and dense, both nn.Linear with their default bias, whatever attention_bias
 * says (vLLM: bias=True); head_dim = hidden / heads. Phi3SmallMLP: up_proj to
 * 2 x intermediate_size (GEGeLU's gate and linear halves, interleaved) and down_proj, both
 * with biases: a gated MLP's matrices and biases. Two nn.LayerNorms a layer and a final
 * one, with biases. lm_head has no bias and is tied (_tied_weights_keys; the config leaves
 * tie_word_embeddings at PretrainedConfig's true). intermediate_size is
 * ff_intermediate_size, else ff_dim_multiplier x (hidden // 3) x 2, rounded up to 256
 * when gegelu_pad_to_256 (Phi3SmallConfig.intermediate_size). The mup multipliers scale
 * activations, not weights. Every layer but each dense_attention_every_n_layers-th is
 * block-sparse (local blocks and a vertical stride, Phi-3 report Section 2), yet keeps
 * the K/V of every token: vLLM's paged cache holds all of them and the kernel reads the
 * blocks its pattern picks, and with blocksparse_homo_head_pattern false each head picks
 * other blocks. The count and KV cache are then exact; the sparse layers' pattern goes to
 * model.sparse_layers, sparse_local and sparse_stride (their attention FLOPs: model.c,
 * model_attention_window). */
int hf_read_phi3_small(struct hf *c, struct model *m)
{
	const cJSON *act = hf_item(c, "hidden_act");
	int mult = 0, dense_every = 2, block = 64, local = 16, stride = 8, sparse;
	bool pad = true;

	if (hf_need_int(c, "num_hidden_layers", NULL, 1, &m->layers) ||
	    hf_need_int(c, "hidden_size", NULL, 1, &m->hidden) ||
	    hf_need_int(c, "num_attention_heads", NULL, 1, &m->heads) ||
	    hf_opt_int(c, "num_key_value_heads", 1, 8, &m->kv_heads) ||
	    hf_need_int(c, "vocab_size", NULL, 1, &m->vocab) ||
	    hf_opt_bool(c, "tie_word_embeddings", true, &m->tied_embeddings) ||
	    hf_read_max_context(c, 8192, &m->max_context) ||
	    hf_opt_int(c, "ff_intermediate_size", 1, 0, &m->ffn) ||
	    hf_opt_int(c, "ff_dim_multiplier", 1, 0, &mult) ||
	    hf_opt_bool(c, "gegelu_pad_to_256", true, &pad) ||
	    hf_opt_int(c, "dense_attention_every_n_layers", 0, 2, &dense_every) ||
	    hf_opt_int(c, "blocksparse_block_size", 1, 64, &block) ||
	    hf_opt_int(c, "blocksparse_num_local_blocks", 1, 16, &local) ||
	    hf_opt_int(c, "blocksparse_vert_stride", 1, 8, &stride))
		return -1;
	if (act && (!cJSON_IsString(act) || strcmp(act->valuestring, "gegelu") != 0))
		return hf_fail_at(
		    c, hf_koff(c, "hidden_act"), "hidden_act",
		    "'hidden_act' must be \"gegelu\" (Phi3SmallMLP supports no other)");
	if (m->ffn && mult)
		return hf_fail_at(c, hf_koff(c, "ff_dim_multiplier"), "ff_dim_multiplier",
				  "give one of 'ff_intermediate_size' and 'ff_dim_multiplier', not "
				  "both");
	if (!m->ffn && !mult)
		return hf_fail_at(
		    c, hf_koff(c, NULL), "ff_intermediate_size",
		    "missing 'ff_intermediate_size' (or 'ff_dim_multiplier'; a %s config "
		    "needs one)",
		    c->type);
	if (!m->ffn) {
		double ffn = (double)mult * (m->hidden / 3) * 2;
		if (pad)
			ffn = ceil(ffn / 256) * 256;
		if (ffn > hf_key_max("ff_intermediate_size"))
			return hf_fail_at(
			    c, hf_koff(c, "ff_dim_multiplier"), "ff_dim_multiplier",
			    "'ff_dim_multiplier' %d makes an intermediate size of %.0f, "
			    "more than %d",
			    mult, ffn, hf_key_max("ff_intermediate_size"));
		m->ffn = (int)ffn;
	}
	m->attention_bias = true;
	m->mlp_bias = true;
	m->mlp = MLP_GATED;
	m->norm = NORM_LAYERNORM;
	/* null: no dense layer (Phi3SmallSelfAttention tests the value's truth) */
	if (cJSON_IsNull(
		cJSON_GetObjectItemCaseSensitive(c->root, "dense_attention_every_n_layers")))
		dense_every = 0;
	/* layer i is dense when (i + 1) % dense_attention_every_n_layers == 0
	 * (Phi3SmallSelfAttention.block_sparse) */
	sparse = m->layers - (dense_every > 0 ? m->layers / dense_every : 0);
	if (sparse > 0) {
		if ((double)local * block > hf_key_max("blocksparse_num_local_blocks"))
			return hf_fail_at(c, hf_koff(c, "blocksparse_num_local_blocks"),
					  "blocksparse_num_local_blocks",
					  "%d local blocks of %d tokens are more than %d tokens",
					  local, block, hf_key_max("blocksparse_num_local_blocks"));
		m->sparse_layers = sparse;
		m->sparse_local = local * block;
		m->sparse_stride = stride;
	}
	return 0;
}

/* A vision tower of a known shape (vision_config's model_type), counted module by module;
 * 0 when it is not one of them. Reads from the top-level object. */
double hf_vision_params(struct hf *c, int text_hidden)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(c->top, "vision_config"), *t;
	double h, f, l, ch, patch, img, p = 0;
	const char *type;

	if (!cJSON_IsObject(v))
		return 0;
#define VNUM(key, def)                                                                             \
	((t = cJSON_GetObjectItemCaseSensitive(v, key)) && cJSON_IsNumber(t) &&                    \
		 t->valuedouble > 0 && t->valuedouble < 1e7                                        \
	     ? t->valuedouble                                                                      \
	     : (def))
	t = cJSON_GetObjectItemCaseSensitive(v, "model_type");
	type = cJSON_IsString(t) ? t->valuestring : "";
	h = VNUM("hidden_size", 0);
	f = VNUM("intermediate_size", 0);
	l = VNUM("num_hidden_layers", 0);
	ch = VNUM("num_channels", 3);
	patch = VNUM("patch_size", 14);
	img = VNUM("image_size", 224);
	if (!h || !f || !l)
		return 0;
	if (strcmp(type, "siglip_vision_model") == 0) {
		/* SigLIP (modeling_siglip.py) without its head: patch_embedding Conv2d with a
		 * bias, position_embedding of (image_size / patch_size)^2; per layer q, k, v,
		 * out_proj and fc1/fc2 with biases, two LayerNorms; post_layernorm. Gemma 3's
		 * projector (modeling_gemma3.py): mm_input_projection_weight (vision x text
		 * hidden) and mm_soft_emb_norm. */
		double pos = floor(img / patch) * floor(img / patch);
		p = ch * patch * patch * h + h + pos * h +
		    l * (4 * (h * h + h) + 2 * h * f + f + h + 4 * h) + 2 * h;
		p += h * text_hidden + h;
	} else if (strcmp(type, "llama4_vision_model") == 0) {
		/* Llama 4's vision model (modeling_llama4.py): a bias-free patch linear,
		 * class_embedding, positional_embedding_vlm of (image_size / patch)^2 + 1,
		 * layernorm_pre/post; per layer q, k, v, o and fc1/fc2 with biases and two
		 * LayerNorms; the vision_adapter's bias-free fc1 (pixel-shuffled width to
		 * projector_input_dim) and fc2 (to projector_output_dim); the projector
		 * linear_1 (vision_output_dim x text hidden, multi_modal_projector_bias). */
		double ratio = VNUM("pixel_shuffle_ratio", 0.5);
		double in = VNUM("projector_input_dim", 4096),
		       out = VNUM("projector_output_dim", 4096);
		double vout = VNUM("vision_output_dim", 4096);
		double pos = floor(img / patch) * floor(img / patch) + 1;
		p = ch * patch * patch * h + h + pos * h + 4 * h +
		    l * (4 * (h * h + h) + 2 * h * f + f + h + 4 * h);
		p += floor(h / (ratio * ratio)) * in + in * out + vout * text_hidden;
	} else if (strcmp(type, "pixtral") == 0) {
		/* Pixtral (modeling_pixtral.py, PixtralVisionModel): a bias-free patch_conv,
		 * ln_pre (an RMSNorm), per layer bias-free q, k, v, o and a SwiGLU
		 * feed_forward with two RMSNorms; 2D RoPE, no position parameters. Mistral 3's
		 * projector (modeling_mistral3.py, Mistral3MultiModalProjector): an RMSNorm,
		 * the patch merger's bias-free (merge^2 x vision) x vision linear, linear_1
		 * (vision x text hidden) and linear_2 (text x text hidden), with biases only
		 * with multimodal_projector_bias. */
		const cJSON *top = c->top;
		const cJSON *pb =
		    cJSON_GetObjectItemCaseSensitive(top, "multimodal_projector_bias");
		const cJSON *ms = cJSON_GetObjectItemCaseSensitive(top, "spatial_merge_size");
		double merge = cJSON_IsNumber(ms) && ms->valuedouble >= 1 && ms->valuedouble < 64
				   ? ms->valuedouble
				   : 2;
		double bias = cJSON_IsTrue(pb) ? 1 : 0;
		p = ch * patch * patch * h + h + l * (4 * h * h + 3 * h * f + 2 * h);
		p += h + merge * merge * h * h + h * text_hidden + text_hidden * text_hidden +
		     bias * 2 * text_hidden;
	} else {
		hf_warn(
		    c,
		    "the vision tower ('%.40s') is not counted: the parameters are the language "
		    "model's",
		    type);
		return 0;
	}
#undef VNUM
	return p;
}

/* DeepSeekMoE 16B (deepseek-ai/deepseek-moe-16b-base's modeling_deepseek.py): layer i is
 * MoE when i >= first_k_dense_replace and i % moe_layer_freq == 0, with n_routed_experts
 * experts and n_shared_experts shared ones of moe_intermediate_size (DeepSeekMoE paper,
 * Section 3); Llama's attention. */
int hf_read_deepseek_moe(struct hf *c, struct model *m)
{
	int first_dense, freq;

	if (hf_read_llama_like(c, m, true, false, 4096) ||
	    hf_need_int(c, "n_routed_experts", NULL, 1, &m->moe.experts) ||
	    hf_opt_int(c, "first_k_dense_replace", 0, 0, &first_dense) ||
	    hf_opt_int(c, "moe_layer_freq", 1, 1, &freq))
		return -1;
	return deepseek_experts(c, m, first_dense, freq);
}
