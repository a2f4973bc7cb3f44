/* hf_config.c - a Hugging Face config.json turned into a struct model.
 *
 * Each family reads the keys its transformers configuration class reads, with the same
 * defaults (configuration_llama.py, configuration_gpt2.py, ...), and sets the details that
 * make its parameter count exact, as its modeling file builds the modules. The cJSON tree
 * never leaves this file.
 */
#include "hf_config.h"

#include <cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "file.h"

#define HF_CONFIG_MAX_BYTES (4u << 20) /* config.json files are a few kilobytes */

enum family {
	FAM_LLAMA,
	FAM_MISTRAL,
	FAM_MIXTRAL,
	FAM_QWEN2,
	FAM_QWEN3,
	FAM_QWEN3_MOE,
	FAM_QWEN2_MOE,
	FAM_GEMMA,
	FAM_GEMMA2,
	FAM_PHI3,
	FAM_GPT2,
	FAM_FALCON,
	FAM_OPT,
	FAM_BLOOM,
	FAM_DEEPSEEK,
};

/* model_type as transformers spells it, and the class names in "architectures" (used when
 * model_type is absent). "RefinedWeb" and "RefinedWebModel" are the model_type of the
 * first Falcon uploads (falcon-40b, falcon-7b) with their own configuration_RW.py. */
static const struct {
	const char *model_type;
	const char *arch;
	enum family fam;
} families[] = {
    {"llama", "LlamaForCausalLM", FAM_LLAMA},
    {"mistral", "MistralForCausalLM", FAM_MISTRAL},
    {"mixtral", "MixtralForCausalLM", FAM_MIXTRAL},
    {"qwen2", "Qwen2ForCausalLM", FAM_QWEN2},
    {"qwen3", "Qwen3ForCausalLM", FAM_QWEN3},
    {"qwen3_moe", "Qwen3MoeForCausalLM", FAM_QWEN3_MOE},
    {"qwen2_moe", "Qwen2MoeForCausalLM", FAM_QWEN2_MOE},
    {"gemma", "GemmaForCausalLM", FAM_GEMMA},
    {"gemma2", "Gemma2ForCausalLM", FAM_GEMMA2},
    {"phi3", "Phi3ForCausalLM", FAM_PHI3},
    {"gpt2", "GPT2LMHeadModel", FAM_GPT2},
    {"falcon", "FalconForCausalLM", FAM_FALCON},
    {"RefinedWeb", "RWForCausalLM", FAM_FALCON},
    {"RefinedWebModel", NULL, FAM_FALCON},
    {"opt", "OPTForCausalLM", FAM_OPT},
    {"bloom", "BloomForCausalLM", FAM_BLOOM},
    {NULL, "BloomModel", FAM_BLOOM},
    {"deepseek_v2", "DeepseekV2ForCausalLM", FAM_DEEPSEEK},
    {"deepseek_v3", "DeepseekV3ForCausalLM", FAM_DEEPSEEK},
};

#define KNOWN_TYPES                                                                                \
	"llama, mistral, mixtral, qwen2, qwen2_moe, qwen3, qwen3_moe, gemma, gemma2, phi3, gpt2, " \
	"falcon, "                                                                                 \
	"opt, bloom, deepseek_v2, deepseek_v3"

struct hf {
	const cJSON *root;
	const char *text;
	size_t len;
	const char *file;
	struct gp_error *err;
	const char *type; /* model_type (or architecture) for messages */
};

static bool is_space(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

/* 1-based line and column (in characters, as libyaml counts them) of a byte offset. */
static void text_position(const char *t, size_t off, int *line, int *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < off; i++) {
		if (t[i] == '\n') {
			++*line;
			*col = 1;
		} else if (((unsigned char)t[i] & 0xC0) != 0x80) {
			++*col;
		}
	}
}

/* The byte offset of the value of a top-level key, or of the top-level object's opening
 * brace when the key is not there (or is NULL). cJSON keeps no positions, so this rescans
 * the text (already known to be valid JSON). */
static size_t key_offset(const char *t, size_t n, const char *key)
{
	size_t klen = key ? strlen(key) : 0, obj = 0;
	int depth = 0;

	for (size_t i = 0; i < n; i++) {
		char ch = t[i];
		if (ch == '"') {
			size_t s = i + 1, j = s;
			while (j < n && t[j] != '"')
				j += t[j] == '\\' ? 2 : 1;
			if (key && depth == 1 && j - s == klen && memcmp(t + s, key, klen) == 0) {
				size_t k = j + 1;
				while (k < n && is_space(t[k]))
					k++;
				if (k < n && t[k] == ':') {
					for (k++; k < n && is_space(t[k]); k++)
						;
					return k;
				}
			}
			i = j;
		} else if (ch == '{' || ch == '[') {
			if (depth == 0)
				obj = i;
			depth++;
		} else if (ch == '}' || ch == ']') {
			depth--;
		}
	}
	return obj;
}

static int fail_at(struct hf *c, size_t off, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int fail_at(struct hf *c, size_t off, const char *field, const char *fmt, ...)
{
	char msg[sizeof(c->err->message)];
	int line, col;
	va_list ap;

	if (!c->err)
		return -1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	text_position(c->text, off, &line, &col);
	gp_error_set(c->err, GP_EINPUT, c->file, line, col, "%s", msg);
	gp_error_set_field(c->err, field);
	return -1;
}

static const cJSON *item(const struct hf *c, const char *key)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(c->root, key);
	return cJSON_IsNull(it) ? NULL : it; /* null means "not given" in these configs */
}

static const char *kind_name(const cJSON *it)
{
	if (cJSON_IsBool(it))
		return "a boolean";
	if (cJSON_IsString(it))
		return "a string";
	if (cJSON_IsArray(it))
		return "an array";
	if (cJSON_IsObject(it))
		return "an object";
	return "a number";
}

/* The largest value a key may hold: the ranges of the scenario's model fields (so an
 * imported model is a valid scenario, and no loop over layers runs for ever). */
static int key_max(const char *key)
{
	if (strcmp(key, "num_hidden_layers") == 0 || strcmp(key, "n_layer") == 0)
		return 10000;
	if (strcmp(key, "max_position_embeddings") == 0 || strcmp(key, "n_positions") == 0 ||
	    strcmp(key, "seq_length") == 0 || strcmp(key, "max_sequence_length") == 0 ||
	    strcmp(key, "sliding_window") == 0)
		return 100000000;
	return 16777216;
}

/* An integer >= min under key: 1 when found (and *out set), 0 when absent or null, -1 on
 * a value that is not such an integer. */
static int get_int(struct hf *c, const char *key, int min, int *out)
{
	const cJSON *it = item(c, key);
	size_t off;
	double v;

	if (!it)
		return 0;
	off = key_offset(c->text, c->len, key);
	if (!cJSON_IsNumber(it))
		return fail_at(c, off, key, "'%s' must be an integer, not %s", key, kind_name(it));
	v = it->valuedouble;
	if (v != floor(v))
		return fail_at(c, off, key, "'%s' must be an integer (got %.17g)", key, v);
	if (v < min)
		return fail_at(c, off, key, "'%s' must be at least %d (got %.17g)", key, min, v);
	if (v > key_max(key))
		return fail_at(c, off, key, "'%s' must be at most %d (got %.17g)", key,
			       key_max(key), v);
	*out = (int)v;
	return 1;
}

/* A required integer, under key or (when alt is not NULL) its older spelling alt. */
static int need_int(struct hf *c, const char *key, const char *alt, int min, int *out)
{
	int r = get_int(c, key, min, out);

	if (r == 0 && alt)
		r = get_int(c, alt, min, out);
	if (r == 0)
		return fail_at(c, key_offset(c->text, c->len, NULL), key,
			       "missing '%s' (a %s config needs it)", key, c->type);
	return r < 0 ? -1 : 0;
}

/* An optional integer: def when absent. */
static int opt_int(struct hf *c, const char *key, int min, int def, int *out)
{
	int r = get_int(c, key, min, out);

	if (r == 0)
		*out = def;
	return r < 0 ? -1 : 0;
}

static int opt_bool(struct hf *c, const char *key, bool def, bool *out)
{
	const cJSON *it = item(c, key);

	if (!it) {
		*out = def;
		return 0;
	}
	if (!cJSON_IsBool(it))
		return fail_at(c, key_offset(c->text, c->len, key), key,
			       "'%s' must be true or false, not %s", key, kind_name(it));
	*out = cJSON_IsTrue(it);
	return 0;
}

/* The longest context: max_position_embeddings, n_positions (GPT-2), seq_length (some
 * BLOOM and ChatGLM-style configs) or max_sequence_length (the first LLaMA conversions),
 * else the family's default. */
static int read_max_context(struct hf *c, int def, int *out)
{
	static const char *const keys[] = {"max_position_embeddings", "n_positions", "seq_length",
					   "max_sequence_length"};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		int r = get_int(c, keys[i], 1, out);
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
static int read_llama_like(struct hf *c, struct model *m, bool need_ffn, bool tied_default,
			   int context_default)
{
	if (need_int(c, "num_hidden_layers", NULL, 1, &m->layers) ||
	    need_int(c, "hidden_size", NULL, 1, &m->hidden) ||
	    need_int(c, "num_attention_heads", NULL, 1, &m->heads) ||
	    opt_int(c, "num_key_value_heads", 1, m->heads, &m->kv_heads) ||
	    opt_int(c, "head_dim", 1, 0, &m->head_dim) ||
	    need_int(c, "vocab_size", NULL, 1, &m->vocab) ||
	    opt_bool(c, "tie_word_embeddings", tied_default, &m->tied_embeddings) ||
	    opt_bool(c, "attention_bias", false, &m->attention_bias) ||
	    opt_bool(c, "mlp_bias", false, &m->mlp_bias) ||
	    read_max_context(c, context_default, &m->max_context))
		return -1;
	if (need_ffn)
		return need_int(c, "intermediate_size", NULL, 1, &m->ffn);
	return opt_int(c, "intermediate_size", 1, 0, &m->ffn);
}

/* Qwen2/Qwen3 keep sliding_window in every config but use it only with
 * use_sliding_window true (configuration_qwen2.py). */
static int read_qwen_window(struct hf *c, struct model *m)
{
	bool use = false;

	if (opt_bool(c, "use_sliding_window", false, &use))
		return -1;
	if (!use)
		return 0;
	return opt_int(c, "sliding_window", 0, 0, &m->sliding_window);
}

/* Qwen3-MoE (modeling_qwen3_moe.py): layer i has the sparse MLP unless it is listed in
 * mlp_only_layers or (i + 1) is not a multiple of decoder_sparse_step; the others have a
 * dense MLP of intermediate_size. No shared experts. */
static int read_qwen3_moe(struct hf *c, struct model *m)
{
	const cJSON *only = item(c, "mlp_only_layers");
	int step, dense = 0;

	if (need_int(c, "num_experts", NULL, 1, &m->moe.experts) ||
	    need_int(c, "num_experts_per_tok", NULL, 1, &m->moe.active) ||
	    need_int(c, "moe_intermediate_size", NULL, 1, &m->moe.expert_ffn) ||
	    opt_int(c, "decoder_sparse_step", 1, 1, &step))
		return -1;
	if (only && !cJSON_IsArray(only))
		return fail_at(c, key_offset(c->text, c->len, "mlp_only_layers"), "mlp_only_layers",
			       "'mlp_only_layers' must be an array of layer numbers, not %s",
			       kind_name(only));
	for (int i = 0; i < m->layers; i++) {
		bool listed = false;
		const cJSON *e;
		cJSON_ArrayForEach(e, only)
		{
			if (!cJSON_IsNumber(e))
				return fail_at(c, key_offset(c->text, c->len, "mlp_only_layers"),
					       "mlp_only_layers",
					       "'mlp_only_layers' must hold layer numbers, not %s",
					       kind_name(e));
			if (e->valuedouble == i)
				listed = true;
		}
		if (listed || (i + 1) % step != 0)
			dense++;
	}
	m->moe.dense_layers = dense;
	if (dense && !m->ffn)
		return fail_at(
		    c, key_offset(c->text, c->len, NULL), "intermediate_size",
		    "missing 'intermediate_size' (a %s config with dense layers needs it)",
		    c->type);
	return 0;
}

/* GPT-2 (configuration_gpt2.py, modeling_gpt2.py): n_layer, n_embd, n_head, n_inner (null:
 * 4 x n_embd), learned positions wpe of n_positions; LayerNorm with bias, biases on every
 * Conv1D, GELU MLP, lm_head tied to wte. */
static int read_gpt2(struct hf *c, struct model *m)
{
	if (need_int(c, "n_layer", "num_hidden_layers", 1, &m->layers) ||
	    need_int(c, "n_embd", "hidden_size", 1, &m->hidden) ||
	    need_int(c, "n_head", "num_attention_heads", 1, &m->heads) ||
	    need_int(c, "vocab_size", NULL, 1, &m->vocab) ||
	    opt_int(c, "n_inner", 1, 4 * m->hidden, &m->ffn) ||
	    opt_int(c, "n_positions", 1, 1024, &m->position_embeddings) ||
	    opt_bool(c, "tie_word_embeddings", true, &m->tied_embeddings))
		return -1;
	m->max_context = m->position_embeddings;
	m->mlp = MLP_PLAIN;
	m->norm = NORM_LAYERNORM;
	m->attention_bias = true;
	m->mlp_bias = true;
	return 0;
}

static bool has_key(const struct hf *c, const char *key)
{
	return item(c, key) != NULL;
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
static int read_falcon(struct hf *c, struct model *m)
{
	bool hf_keys = strcmp(c->type, "falcon") == 0 || strcmp(c->type, "FalconForCausalLM") == 0;
	bool new_arch, multi_query, parallel;
	int kv, lns;

	if (need_int(c, "num_hidden_layers", "n_layer", 1, &m->layers) ||
	    need_int(c, "hidden_size", "n_embed", 1, &m->hidden) ||
	    need_int(c, "num_attention_heads", "n_head", 1, &m->heads) ||
	    need_int(c, "vocab_size", NULL, 1, &m->vocab) ||
	    opt_bool(c, "new_decoder_architecture",
		     has_key(c, "n_head_kv") || strcmp(c->type, "RefinedWeb") == 0 ||
			 strcmp(c->type, "RWForCausalLM") == 0,
		     &new_arch) ||
	    opt_bool(c, "multi_query", hf_keys, &multi_query) ||
	    opt_bool(c, "parallel_attn", hf_keys, &parallel) ||
	    opt_bool(c, "bias", false, &m->attention_bias) ||
	    opt_bool(c, "tie_word_embeddings", true, &m->tied_embeddings) ||
	    opt_int(c, "ffn_hidden_size", 1, 4 * m->hidden, &m->ffn) ||
	    opt_int(c, "num_ln_in_parallel_attn", 1, 2, &lns) ||
	    read_max_context(c, 2048, &m->max_context)) /* Falcon paper: 2,048 tokens */
		return -1;
	if (new_arch) {
		if (opt_int(c, "num_kv_heads", 1, 0, &kv))
			return -1;
		if (!kv && opt_int(c, "n_head_kv", 1, m->heads, &kv))
			return -1;
		m->kv_heads = kv;
		m->norms_per_layer = lns == 1 ? 1 : 2;
	} else {
		m->kv_heads = multi_query ? 1 : m->heads;
		m->norms_per_layer = parallel ? 1 : 2;
	}
	m->parallel_block = parallel || new_arch;
	m->mlp_bias = m->attention_bias;
	m->mlp = MLP_PLAIN;
	m->norm = NORM_LAYERNORM;
	return 0;
}

/* OPT (configuration_opt.py, modeling_opt.py): ffn_dim; learned positions with an offset
 * of 2 (OPTLearnedPositionalEmbedding: max_position_embeddings + 2 rows); enable_bias on
 * every projection; LayerNorm; ReLU MLP; word_embed_proj_dim narrower than hidden adds
 * project_in and project_out (opt-350m); final_layer_norm only with do_layer_norm_before
 * and not _remove_final_layer_norm; lm_head tied to embed_tokens. */
static int read_opt(struct hf *c, struct model *m)
{
	bool pre_ln, remove_final, bias;
	int proj;

	if (need_int(c, "num_hidden_layers", NULL, 1, &m->layers) ||
	    need_int(c, "hidden_size", NULL, 1, &m->hidden) ||
	    need_int(c, "num_attention_heads", NULL, 1, &m->heads) ||
	    need_int(c, "ffn_dim", NULL, 1, &m->ffn) ||
	    need_int(c, "vocab_size", NULL, 1, &m->vocab) ||
	    opt_int(c, "max_position_embeddings", 1, 2048, &m->max_context) ||
	    opt_int(c, "word_embed_proj_dim", 1, m->hidden, &proj) ||
	    opt_bool(c, "do_layer_norm_before", true, &pre_ln) ||
	    opt_bool(c, "_remove_final_layer_norm", false, &remove_final) ||
	    opt_bool(c, "enable_bias", true, &bias) ||
	    opt_bool(c, "tie_word_embeddings", true, &m->tied_embeddings))
		return -1;
	m->position_embeddings = m->max_context + 2;
	m->embed_dim = proj != m->hidden ? proj : 0;
	m->no_final_norm = !pre_ln || remove_final;
	m->attention_bias = bias;
	m->mlp_bias = bias;
	m->mlp = MLP_PLAIN;
	m->norm = NORM_LAYERNORM;
	return 0;
}

/* BLOOM (configuration_bloom.py, modeling_bloom.py): n_layer, hidden_size (n_embed in the
 * 176B config), n_head (num_attention_heads); ALiBi, so no position parameters;
 * word_embeddings_layernorm; biases on query_key_value, dense and the 4h GELU MLP;
 * LayerNorm; lm_head tied. Trained on 2,048-token sequences (BLOOM paper, Section 3.5). */
static int read_bloom(struct hf *c, struct model *m)
{
	if (need_int(c, "n_layer", "num_hidden_layers", 1, &m->layers) ||
	    need_int(c, "hidden_size", "n_embed", 1, &m->hidden) ||
	    need_int(c, "n_head", "num_attention_heads", 1, &m->heads) ||
	    need_int(c, "vocab_size", NULL, 1, &m->vocab) ||
	    opt_bool(c, "tie_word_embeddings", true, &m->tied_embeddings) ||
	    read_max_context(c, 2048, &m->max_context))
		return -1;
	m->ffn = 4 * m->hidden;
	m->embedding_norm = true;
	m->attention_bias = true;
	m->mlp_bias = true;
	m->mlp = MLP_PLAIN;
	m->norm = NORM_LAYERNORM;
	return 0;
}

/* DeepSeek-V2/V3 (configuration_deepseek.py, modeling_deepseek.py): MLA ranks and head
 * sizes; layer i is MoE when n_routed_experts is set, i >= first_k_dense_replace and
 * i % moe_layer_freq == 0; n_shared_experts shared experts of moe_intermediate_size. The
 * multi-token-prediction module (num_nextn_predict_layers, 14B in DeepSeek-V3) is not
 * part of the main model and is left out (DeepSeek-V3's README_WEIGHTS.md on
 * Hugging Face: 671B main + 14B MTP). */
static int read_deepseek(struct hf *c, struct model *m)
{
	int routed = 0, first_dense, freq, dense = 0;

	if (read_llama_like(c, m, true, false, 4096) ||
	    opt_int(c, "q_lora_rank", 1, 0, &m->mla.q_rank) ||
	    need_int(c, "kv_lora_rank", NULL, 1, &m->mla.kv_rank) ||
	    need_int(c, "qk_rope_head_dim", NULL, 1, &m->mla.rope_dim) ||
	    need_int(c, "qk_nope_head_dim", NULL, 0, &m->mla.nope_dim) ||
	    need_int(c, "v_head_dim", NULL, 1, &m->mla.v_dim) ||
	    opt_int(c, "n_routed_experts", 0, 0, &routed) ||
	    opt_int(c, "first_k_dense_replace", 0, 0, &first_dense) ||
	    opt_int(c, "moe_layer_freq", 1, 1, &freq))
		return -1;
	/* head_dim is not a DeepSeek key; model_resolve derives it from the MLA sizes. */
	m->head_dim = 0;
	if (!routed)
		return 0;
	m->moe.experts = routed;
	if (need_int(c, "num_experts_per_tok", NULL, 1, &m->moe.active) ||
	    need_int(c, "moe_intermediate_size", NULL, 1, &m->moe.expert_ffn) ||
	    opt_int(c, "n_shared_experts", 0, 0, &m->moe.shared))
		return -1;
	for (int i = 0; i < m->layers; i++)
		if (!(i >= first_dense && i % freq == 0))
			dense++;
	m->moe.dense_layers = dense;
	if (m->moe.shared)
		m->moe.shared_ffn = m->moe.expert_ffn;
	return 0;
}

static int read_family(struct hf *c, enum family fam, struct model *m)
{
	switch (fam) {
	case FAM_LLAMA:
	case FAM_PHI3: /* fused qkv_proj and gate_up_proj: the same parameters */
		if (read_llama_like(c, m, true, false, 2048))
			return -1;
		/* Phi-3-mini attends over a sliding window of sliding_window tokens. */
		return fam == FAM_PHI3 ? opt_int(c, "sliding_window", 0, 0, &m->sliding_window) : 0;
	case FAM_MISTRAL: /* MistralConfig and MixtralConfig default to 4096 x 32 tokens */
		if (read_llama_like(c, m, true, false, 131072))
			return -1;
		return opt_int(c, "sliding_window", 0, 0, &m->sliding_window);
	case FAM_MIXTRAL:
		/* Each of num_local_experts experts is an MLP of intermediate_size
		 * (modeling_mixtral.py); every layer is MoE. */
		if (read_llama_like(c, m, true, false, 131072) ||
		    need_int(c, "num_local_experts", NULL, 1, &m->moe.experts) ||
		    need_int(c, "num_experts_per_tok", NULL, 1, &m->moe.active) ||
		    opt_int(c, "sliding_window", 0, 0, &m->sliding_window))
			return -1;
		m->moe.expert_ffn = m->ffn;
		return 0;
	case FAM_QWEN2:
		/* Qwen2Attention: q_proj, k_proj, v_proj with bias, o_proj without. */
		if (read_llama_like(c, m, true, false, 32768))
			return -1;
		m->qkv_bias = true;
		m->attention_bias = false;
		return read_qwen_window(c, m);
	case FAM_QWEN2_MOE:
		/* Qwen2-MoE (modeling_qwen2_moe.py, Qwen1.5-MoE and Qwen2-57B-A14B): Qwen2's
		 * attention (q, k, v biases); a sparse block of num_experts routed experts of
		 * moe_intermediate_size, a router gate, one shared expert of
		 * shared_expert_intermediate_size and its hidden x 1 sigmoid gate; which layers
		 * are sparse as in Qwen3-MoE (decoder_sparse_step, mlp_only_layers). */
		if (read_llama_like(c, m, false, false, 32768) || read_qwen_window(c, m) ||
		    read_qwen3_moe(c, m) ||
		    opt_int(c, "shared_expert_intermediate_size", 0, 0, &m->moe.shared_ffn))
			return -1;
		m->qkv_bias = true;
		m->attention_bias = false;
		if (m->moe.shared_ffn > 0) {
			m->moe.shared = 1;
			m->moe.shared_gate = true;
		}
		return 0;
	case FAM_QWEN3:
	case FAM_QWEN3_MOE:
		/* Qwen3Attention: q_norm and k_norm (RMSNorm over head_dim); biases only
		 * with attention_bias. */
		if (read_llama_like(c, m, fam == FAM_QWEN3, false, 32768) || read_qwen_window(c, m))
			return -1;
		m->qk_norm = true;
		return fam == FAM_QWEN3_MOE ? read_qwen3_moe(c, m) : 0;
	case FAM_GEMMA:
	case FAM_GEMMA2:
		/* GeGLU MLP (gate, up, down: gated whatever hidden_activation says); head_dim
		 * default 256; embeddings tied by default. Gemma 2 adds post-attention and
		 * post-feedforward norms: 4 RMSNorms a layer (modeling_gemma2.py). Gemma 2
		 * alternates sliding-window and global layers, so no window is set: the
		 * global layers keep the whole context. */
		if (read_llama_like(c, m, true, true, 8192))
			return -1;
		if (!m->head_dim)
			m->head_dim = 256;
		m->norms_per_layer = fam == FAM_GEMMA2 ? 4 : 2;
		return 0;
	case FAM_GPT2:
		return read_gpt2(c, m);
	case FAM_FALCON:
		return read_falcon(c, m);
	case FAM_OPT:
		return read_opt(c, m);
	case FAM_BLOOM:
		return read_bloom(c, m);
	case FAM_DEEPSEEK:
		return read_deepseek(c, m);
	}
	return -1;
}

/* The family from model_type, else from the first known name in architectures. */
static int find_family(struct hf *c, enum family *fam)
{
	const cJSON *type = item(c, "model_type"), *archs = item(c, "architectures"), *a;

	if (!cJSON_IsArray(archs))
		archs = NULL;

	if (type && !cJSON_IsString(type))
		return fail_at(c, key_offset(c->text, c->len, "model_type"), "model_type",
			       "'model_type' must be a string, not %s", kind_name(type));
	if (type) {
		for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++) {
			if (families[i].model_type &&
			    strcmp(families[i].model_type, type->valuestring) == 0) {
				*fam = families[i].fam;
				c->type = families[i].model_type;
				return 0;
			}
		}
	}
	cJSON_ArrayForEach(a, archs)
	{
		if (!cJSON_IsString(a))
			continue;
		for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++) {
			if (families[i].arch && strcmp(families[i].arch, a->valuestring) == 0) {
				*fam = families[i].fam;
				c->type = families[i].arch;
				return 0;
			}
		}
	}
	if (type)
		return fail_at(c, key_offset(c->text, c->len, "model_type"), "model_type",
			       "unknown model_type '%.80s' (known: " KNOWN_TYPES ")",
			       type->valuestring);
	return fail_at(
	    c, key_offset(c->text, c->len, NULL), "model_type",
	    "missing 'model_type' (and no known name in 'architectures'; known: " KNOWN_TYPES ")");
}

/* Whether the model trains with dropout, which keeps a 1-byte mask per dropped element
 * (Korthikanti et al. 2023, Section 4): any of the families' dropout probabilities above 0
 * (GPT-2 resid/attn/embd_pdrop 0.1, OPT dropout 0.1; Llama, Mistral, Qwen attention_dropout
 * 0.0). */
static bool uses_dropout(const struct hf *c)
{
	static const char *const keys[] = {
	    "resid_pdrop",
	    "attn_pdrop",
	    "embd_pdrop",
	    "dropout",
	    "attention_dropout",
	    "hidden_dropout",
	    "hidden_dropout_prob",
	    "activation_dropout",
	    NULL,
	};
	bool given = false;

	for (int i = 0; keys[i]; i++) {
		const cJSON *it = item(c, keys[i]);
		if (cJSON_IsNumber(it) && it->valuedouble > 0)
			return true;
		given |= cJSON_IsNumber(it);
	}
	/* transformers' GPT2Config defaults resid/embd/attn_pdrop to 0.1 when absent */
	return !given && strcmp(c->type, "gpt2") == 0;
}

int hf_config_parse(const char *text, size_t len, const char *file, struct model *out,
		    struct gp_error *err)
{
	struct hf c = {.text = text, .len = len, .file = file, .err = err, .type = "?"};
	const char *end = NULL;
	cJSON *root;
	struct model m;
	enum family fam = FAM_LLAMA;
	int rc = -1;
	size_t off;

	memset(out, 0, sizeof(*out));
	if (!text) {
		c.text = "";
		c.len = 0;
		return fail_at(&c, 0, "", "empty config (expected a JSON object)");
	}
	root = cJSON_ParseWithLengthOpts(text, len, &end, false);
	if (!root) {
		size_t rest;
		off = end && end >= text && end <= text + len ? (size_t)(end - text) : 0;
		for (rest = off; rest < len && is_space(text[rest]); rest++)
			;
		if (rest >= len)
			return fail_at(&c, len, "", "invalid JSON: unexpected end of the text");
		if (text[off] > ' ' && text[off] < 0x7f)
			return fail_at(&c, off, "", "invalid JSON: unexpected '%c'", text[off]);
		return fail_at(&c, off, "", "invalid JSON: unexpected byte 0x%02x",
			       (unsigned char)text[off]);
	}
	off = (size_t)(end - text);
	while (off < len && is_space(text[off]))
		off++;
	if (off < len && text[off] != '\0') {
		rc = fail_at(&c, off, "", "invalid JSON: text after the closing brace");
		goto out;
	}
	if (!cJSON_IsObject(root)) {
		rc = fail_at(&c, 0, "", "expected a JSON object, not %s", kind_name(root));
		goto out;
	}
	c.root = root;
	memset(&m, 0, sizeof(m));
	m.mlp = MLP_GATED;
	m.norm = NORM_RMSNORM;
	if (find_family(&c, &fam) || read_family(&c, fam, &m))
		goto out;
	m.dropout = uses_dropout(&c);
	*out = m;
	rc = 0;
out:
	cJSON_Delete(root);
	return rc;
}

int hf_config_load_file(const char *path, struct model *out, struct gp_error *err)
{
	char *text;
	size_t len;
	int rc;

	memset(out, 0, sizeof(*out));
	if (file_read_all(path, HF_CONFIG_MAX_BYTES, &text, &len, err) != 0)
		return -1;
	rc = hf_config_parse(text, len, path, out, err);
	free(text);
	return rc;
}
