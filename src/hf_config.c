/* hf_config.c - a Hugging Face config.json turned into a struct model.
 *
 * Each family reads the keys its transformers configuration class reads, with the same
 * defaults (configuration_llama.py, configuration_gpt2.py, ...), and sets the details that
 * make its parameter count exact, as its modeling file builds the modules. The cJSON tree
 * never leaves this file.
 */
#include "hf_config.h"

#include <cJSON.h>
#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "file.h"
#include "hf_quant.h"

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
	FAM_PHI3_SMALL,
	FAM_GPT2,
	FAM_FALCON,
	FAM_OPT,
	FAM_BLOOM,
	FAM_DEEPSEEK,
	FAM_DEEPSEEK_MOE,
	FAM_OLMO2,
	FAM_OLMO3,
	FAM_PHI,
	FAM_PHIMOE,
	FAM_STARCODER2,
	FAM_GPT_NEOX,
	FAM_GPTJ,
	FAM_STABLELM,
	FAM_GRANITE,
	FAM_GRANITEMOE,
	FAM_COHERE,
	FAM_COHERE2,
	FAM_INTERNLM2,
	FAM_BAICHUAN,
	FAM_CHATGLM,
	FAM_GLM4,
	FAM_EXAONE4,
	FAM_MINICPM,
	FAM_DBRX,
	FAM_MISTRAL3,
	FAM_GEMMA3,
	FAM_GEMMA3_TEXT,
	FAM_LLAMA4,
	FAM_LLAMA4_TEXT,
	FAM_GPT_OSS,
	FAM_MAMBA,
	FAM_FALCON_MAMBA,
	FAM_MAMBA2,
	FAM_NEMOTRON_H,
	FAM_JAMBA,
	FAM_DECILM,
	FAM_QWEN3_NEXT,
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
    /* Ministral 3's text-only configs (transformers' configuration_ministral3.py,
     * Ministral3ForCausalLM): Mistral's keys and modules, as in a Mistral 3 text_config */
    {"ministral3", "Ministral3ForCausalLM", FAM_MISTRAL},
    {"mixtral", "MixtralForCausalLM", FAM_MIXTRAL},
    {"qwen2", "Qwen2ForCausalLM", FAM_QWEN2},
    {"qwen3", "Qwen3ForCausalLM", FAM_QWEN3},
    {"qwen3_moe", "Qwen3MoeForCausalLM", FAM_QWEN3_MOE},
    {"qwen2_moe", "Qwen2MoeForCausalLM", FAM_QWEN2_MOE},
    {"gemma", "GemmaForCausalLM", FAM_GEMMA},
    {"gemma2", "Gemma2ForCausalLM", FAM_GEMMA2},
    {"phi3", "Phi3ForCausalLM", FAM_PHI3},
    {"phi3small", "Phi3SmallForCausalLM", FAM_PHI3_SMALL},
    {"gpt2", "GPT2LMHeadModel", FAM_GPT2},
    {"falcon", "FalconForCausalLM", FAM_FALCON},
    {"RefinedWeb", "RWForCausalLM", FAM_FALCON},
    {"RefinedWebModel", NULL, FAM_FALCON},
    {"opt", "OPTForCausalLM", FAM_OPT},
    {"bloom", "BloomForCausalLM", FAM_BLOOM},
    {NULL, "BloomModel", FAM_BLOOM},
    {"deepseek_v2", "DeepseekV2ForCausalLM", FAM_DEEPSEEK},
    {"deepseek_v3", "DeepseekV3ForCausalLM", FAM_DEEPSEEK},
    {"deepseek", "DeepseekForCausalLM", FAM_DEEPSEEK_MOE},
    {"olmo2", "Olmo2ForCausalLM", FAM_OLMO2},
    {"olmo3", "Olmo3ForCausalLM", FAM_OLMO3},
    {"phi", "PhiForCausalLM", FAM_PHI},
    {"phi-msft", NULL, FAM_PHI},
    {"phimoe", "PhiMoEForCausalLM", FAM_PHIMOE},
    {"starcoder2", "Starcoder2ForCausalLM", FAM_STARCODER2},
    {"gpt_neox", "GPTNeoXForCausalLM", FAM_GPT_NEOX},
    {"gptj", "GPTJForCausalLM", FAM_GPTJ},
    {"stablelm", "StableLmForCausalLM", FAM_STABLELM},
    {"granite", "GraniteForCausalLM", FAM_GRANITE},
    {"granitemoe", "GraniteMoeForCausalLM", FAM_GRANITEMOE},
    {"cohere", "CohereForCausalLM", FAM_COHERE},
    {"cohere2", "Cohere2ForCausalLM", FAM_COHERE2},
    {"internlm2", "InternLM2ForCausalLM", FAM_INTERNLM2},
    {"baichuan", "BaichuanForCausalLM", FAM_BAICHUAN},
    {NULL, "BaiChuanForCausalLM", FAM_BAICHUAN},
    {"chatglm", "ChatGLMModel", FAM_CHATGLM},
    {"glm4", "Glm4ForCausalLM", FAM_GLM4},
    {"exaone4", "Exaone4ForCausalLM", FAM_EXAONE4},
    {"minicpm", "MiniCPMForCausalLM", FAM_MINICPM},
    {"dbrx", "DbrxForCausalLM", FAM_DBRX},
    {"mistral3", "Mistral3ForConditionalGeneration", FAM_MISTRAL3},
    {"gemma3", "Gemma3ForConditionalGeneration", FAM_GEMMA3},
    {"gemma3_text", "Gemma3ForCausalLM", FAM_GEMMA3_TEXT},
    {"llama4", "Llama4ForConditionalGeneration", FAM_LLAMA4},
    {"llama4_text", "Llama4ForCausalLM", FAM_LLAMA4_TEXT},
    {"gpt_oss", "GptOssForCausalLM", FAM_GPT_OSS},
    {"mamba", "MambaForCausalLM", FAM_MAMBA},
    {"falcon_mamba", "FalconMambaForCausalLM", FAM_FALCON_MAMBA},
    {"mamba2", "Mamba2ForCausalLM", FAM_MAMBA2},
    {"nemotron_h", "NemotronHForCausalLM", FAM_NEMOTRON_H},
    {"jamba", "JambaForCausalLM", FAM_JAMBA},
    {"nemotron-nas", "DeciLMForCausalLM", FAM_DECILM},
    {"qwen3_next", "Qwen3NextForCausalLM", FAM_QWEN3_NEXT},
};

#define KNOWN_TYPES                                                                                \
	"llama, llama4, mistral, ministral3, mistral3, mixtral, qwen2, qwen2_moe, qwen3, "         \
	"qwen3_moe, gemma, "                                                                       \
	"gemma2, gemma3, gemma3_text, phi, phi3, phi3small, phimoe, gpt2, gptj, gpt_neox, "        \
	"falcon, opt, "                                                                            \
	"bloom, stablelm, starcoder2, olmo2, olmo3, granite, granitemoe, cohere, cohere2, "        \
	"internlm2, baichuan, chatglm, glm4, exaone4, minicpm, deepseek, deepseek_v2, "            \
	"deepseek_v3, dbrx, gpt_oss, mamba, falcon_mamba, mamba2, nemotron_h, jamba, "             \
	"nemotron-nas, "                                                                           \
	"qwen3_next"

struct hf {
	const cJSON *root;
	const char *text;
	size_t len;
	const char *file;
	struct gp_error *err;
	const char *type;	     /* model_type (or architecture) for messages */
	size_t base;		     /* offset of the object c->root is (0: the top level) */
	const cJSON *top;	     /* the top-level object */
	struct hf_config_info *info; /* warnings and the vision tower; may be NULL */
	int vocab_default;	     /* vocab_size when absent (Gemma 3); 0 = required */
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

/* The byte offset of the value of key in the object whose opening brace is at or after
 * base (the top-level object for base 0; text_config's for a multimodal config), or of
 * that object's opening brace when the key is not there (or is NULL). cJSON keeps no
 * positions, so this rescans the text (already known to be valid JSON). */
static size_t key_offset(const char *t, size_t n, size_t base, const char *key)
{
	size_t klen = key ? strlen(key) : 0, obj = base;
	int depth = 0;

	for (size_t i = base; i < n; i++) {
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
			if (--depth == 0 && base > 0)
				break; /* the end of the nested object */
		}
	}
	return obj;
}

static size_t koff(const struct hf *c, const char *key)
{
	return key_offset(c->text, c->len, c->base, key);
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

static const char *bare_token(const struct hf *c, const char *key);

/* An integer >= min under key: 1 when found (and *out set), 0 when absent or null, -1 on
 * a value that is not such an integer. */
static int get_int(struct hf *c, const char *key, int min, int *out)
{
	const cJSON *it = item(c, key);
	size_t off;
	double v;

	if (!it)
		return 0;
	off = koff(c, key);
	if (cJSON_IsNumber(it) && bare_token(c, key))
		return fail_at(c, off, key, "'%s' must be an integer, not %s", key,
			       bare_token(c, key));
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
		return fail_at(c, koff(c, NULL), key, "missing '%s' (a %s config needs it)", key,
			       c->type);
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
		return fail_at(c, koff(c, key), key, "'%s' must be true or false, not %s", key,
			       kind_name(it));
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
	    (c->vocab_default ? opt_int(c, "vocab_size", 1, c->vocab_default, &m->vocab)
			      : need_int(c, "vocab_size", NULL, 1, &m->vocab)) ||
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

/* Mixtral-style experts (modeling_mixtral.py): the count under key, each an MLP of
 * intermediate_size (read before, into m->ffn), num_experts_per_tok (or alt) of them active
 * per token. */
static int read_ffn_experts(struct hf *c, struct model *m, const char *key, const char *alt)
{
	if (need_int(c, key, NULL, 1, &m->moe.experts) ||
	    need_int(c, "num_experts_per_tok", alt, 1, &m->moe.active))
		return -1;
	m->moe.expert_ffn = m->ffn;
	return 0;
}

static size_t array_elem_offset(const char *t, size_t len, size_t off, int n);

/* The layers a list of layer numbers under key names (Qwen3-MoE's mlp_only_layers, Llama
 * 4's moe_layers), marked in listed (layers + 1 entries or more, cleared here): 0 when
 * absent, else 1. Each entry must be an integer from 0 to layers - 1, listed once; an
 * error at the entry otherwise. One pass over the list, however long. */
static int layer_set(struct hf *c, const char *key, int layers, bool *listed)
{
	const cJSON *list = item(c, key), *e;
	size_t off = koff(c, key);
	int n = 0;

	memset(listed, 0, (size_t)layers * sizeof(*listed));
	if (!list)
		return 0;
	if (!cJSON_IsArray(list))
		return fail_at(c, off, key, "'%s' must be an array of layer numbers, not %s", key,
			       kind_name(list));
	cJSON_ArrayForEach(e, list)
	{
		double v = cJSON_IsNumber(e) ? e->valuedouble : -1;
		if (!cJSON_IsNumber(e) || v != floor(v) || v < 0 || v >= layers)
			return fail_at(c, array_elem_offset(c->text, c->len, off, n), key,
				       "'%s': entry %d must be a layer number from 0 to %d", key, n,
				       layers - 1);
		if (listed[(int)v])
			return fail_at(c, array_elem_offset(c->text, c->len, off, n), key,
				       "'%s': layer %d is listed twice", key, (int)v);
		listed[(int)v] = true;
		n++;
	}
	return 1;
}

/* Qwen3-MoE (modeling_qwen3_moe.py): layer i has the sparse MLP unless it is listed in
 * mlp_only_layers or (i + 1) is not a multiple of decoder_sparse_step; the others have a
 * dense MLP of intermediate_size. No shared experts. */
static int read_qwen3_moe(struct hf *c, struct model *m)
{
	bool only[10001]; /* num_hidden_layers is at most 10000 (key_max) */
	int step, dense = 0;

	if (need_int(c, "num_experts", NULL, 1, &m->moe.experts) ||
	    need_int(c, "num_experts_per_tok", NULL, 1, &m->moe.active) ||
	    need_int(c, "moe_intermediate_size", NULL, 1, &m->moe.expert_ffn) ||
	    opt_int(c, "decoder_sparse_step", 1, 1, &step) ||
	    layer_set(c, "mlp_only_layers", m->layers, only) < 0)
		return -1;
	/* Qwen3MoeDecoderLayer: dense when layer_idx in mlp_only_layers or not
	 * (layer_idx + 1) % decoder_sparse_step == 0 */
	for (int i = 0; i < m->layers; i++)
		if (only[i] || (i + 1) % step != 0)
			dense++;
	m->moe.dense_layers = dense;
	if (dense && !m->ffn)
		return fail_at(
		    c, koff(c, NULL), "intermediate_size",
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
	if (need_int(c, "n_layer", "num_hidden_layers", 1, &m->layers) ||
	    need_int(c, hidden, hidden_alt, 1, &m->hidden) ||
	    need_int(c, "n_head", "num_attention_heads", 1, &m->heads) ||
	    need_int(c, "vocab_size", NULL, 1, &m->vocab))
		return -1;
	return 0;
}

/* GPT-2 (configuration_gpt2.py, modeling_gpt2.py): n_layer, n_embd, n_head, n_inner (null:
 * 4 x n_embd), learned positions wpe of n_positions; LayerNorm with bias, biases on every
 * Conv1D, GELU MLP, lm_head tied to wte. */
static int read_gpt2(struct hf *c, struct model *m)
{
	if (read_gpt2_dims(c, m, "n_embd", "hidden_size") ||
	    opt_int(c, "n_inner", 1, 4 * m->hidden, &m->ffn) ||
	    opt_int(c, "n_positions", 1, 1024, &m->position_embeddings) ||
	    opt_bool(c, "tie_word_embeddings", true, &m->tied_embeddings))
		return -1;
	m->max_context = m->position_embeddings;
	set_layernorm_block(m, true);
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
	set_layernorm_block(m, m->attention_bias);
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
	set_layernorm_block(m, bias);
	return 0;
}

/* BLOOM (configuration_bloom.py, modeling_bloom.py): n_layer, hidden_size (n_embed in the
 * 176B config), n_head (num_attention_heads); ALiBi, so no position parameters;
 * word_embeddings_layernorm; biases on query_key_value, dense and the 4h GELU MLP;
 * LayerNorm; lm_head tied. Trained on 2,048-token sequences (BLOOM paper, Section 3.5). */
static int read_bloom(struct hf *c, struct model *m)
{
	if (read_gpt2_dims(c, m, "hidden_size", "n_embed") ||
	    opt_bool(c, "tie_word_embeddings", true, &m->tied_embeddings) ||
	    read_max_context(c, 2048, &m->max_context))
		return -1;
	m->ffn = 4 * m->hidden;
	m->embedding_norm = true;
	set_layernorm_block(m, true);
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

static void warn(struct hf *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A warning for the caller (hf_config_info), when it asked for them. */
static void warn(struct hf *c, const char *fmt, ...)
{
	va_list ap;

	if (!c->info || c->info->nwarnings >= HF_CONFIG_MAX_WARNINGS)
		return;
	va_start(ap, fmt);
	vsnprintf(c->info->warnings[c->info->nwarnings++], sizeof(c->info->warnings[0]), fmt, ap);
	va_end(ap);
}

/* Reads the keys of the object under key (a multimodal config's text_config) from here on:
 * 1 when it is there, 0 when not, -1 when it is not an object. */
static int enter(struct hf *c, const char *key)
{
	const cJSON *it = item(c, key);

	if (!it)
		return 0;
	if (!cJSON_IsObject(it))
		return fail_at(c, koff(c, key), key, "'%s' must be an object, not %s", key,
			       kind_name(it));
	c->base = koff(c, key);
	c->root = it;
	return 1;
}

/* The byte offset of element n of the JSON array whose '[' is at off (of off itself when
 * the array is shorter), for an error that points at one layer's entry. */
static size_t array_elem_offset(const char *t, size_t len, size_t off, int n)
{
	size_t i = off + 1;
	int depth = 0, k = 0;

	if (off >= len || t[off] != '[')
		return off;
	for (; i < len; i++) {
		if (k == n && !is_space(t[i]))
			return t[i] == ']' ? off : i;
		if (t[i] == '"') {
			for (i++; i < len && t[i] != '"'; i++)
				i += t[i] == '\\';
		} else if (t[i] == '[' || t[i] == '{') {
			depth++;
		} else if (t[i] == ']' || t[i] == '}') {
			if (depth-- == 0)
				return off;
		} else if (t[i] == ',' && depth == 0) {
			k++;
		}
	}
	return off;
}

/* layer_types, one string per layer: 0 when absent, else 1 with *matched the number of
 * entries that are one of match (NULL-terminated); every other entry must be other. Errors
 * at the entry that is neither, naming the accepted values, and at the key when it is not
 * an array of strings or does not list every layer. */
static int layer_types_count(struct hf *c, const struct model *m, const char *const *match,
			     const char *other, int *matched)
{
	const cJSON *types = item(c, "layer_types"), *t;
	size_t off = koff(c, "layer_types");
	int n = 0;

	*matched = 0;
	if (!types)
		return 0;
	if (!cJSON_IsArray(types))
		return fail_at(c, off, "layer_types",
			       "'layer_types' must be an array of strings, not %s",
			       kind_name(types));
	cJSON_ArrayForEach(t, types)
	{
		bool hit = false;
		if (!cJSON_IsString(t))
			return fail_at(c, array_elem_offset(c->text, c->len, off, n), "layer_types",
				       "'layer_types' must hold strings, not %s", kind_name(t));
		for (int i = 0; match[i]; i++)
			hit = hit || strcmp(t->valuestring, match[i]) == 0;
		if (!hit && strcmp(t->valuestring, other) != 0) {
			char names[160];
			size_t k = 0;
			for (int i = 0; match[i] && k < sizeof(names); i++)
				k += (size_t)snprintf(names + k, sizeof(names) - k, "%s\"%s\"",
						      i ? ", " : "", match[i]);
			return fail_at(
			    c, array_elem_offset(c->text, c->len, off, n), "layer_types",
			    "'layer_types': layer %d is \"%.40s\"; expected %s or \"%s\"", n,
			    t->valuestring, k < sizeof(names) ? names : "", other);
		}
		*matched += hit;
		n++;
	}
	if (n != m->layers)
		return fail_at(c, off, "layer_types",
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
static int mixed_window(struct hf *c, struct model *m, int period)
{
	static const char *const windowed[] = {"sliding_attention", NULL};
	const cJSON *pat = item(c, "sliding_window_pattern");
	int sliding = 0, full = 0, window = 0, r;

	if (opt_int(c, "sliding_window", 0, 0, &window))
		return -1;
	m->sliding_window = 0;
	m->global_layers = 0;
	r = layer_types_count(c, m, windowed, "full_attention", &sliding);
	if (r < 0)
		return -1;
	/* sliding layers need a window: 0, or a null one beside a layer_types list that names
	 * sliding layers, contradicts them (a null window with only a pattern means none, as
	 * EXAONE 4.0 1.2B writes it) */
	if (r && sliding > 0 && window <= 0) {
		const cJSON *w = cJSON_GetObjectItemCaseSensitive(c->root, "sliding_window");
		return fail_at(c, koff(c, w ? "sliding_window" : "layer_types"), "sliding_window",
			       "'layer_types' lists %d \"sliding_attention\" layers, but "
			       "'sliding_window' is %s: give the window in tokens (at least 1), or "
			       "make those layers \"full_attention\"",
			       sliding,
			       !w		 ? "not given"
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
		if (pat && get_int(c, "sliding_window_pattern", 1, &every) < 0)
			return -1;
		full = every > 0 ? m->layers / every : 0;
		sliding = m->layers - full;
	}
	if (sliding > 0 && window == 0 && item(c, "sliding_window"))
		return fail_at(c, koff(c, "sliding_window"), "sliding_window",
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
static int read_phi(struct hf *c, struct model *m)
{
	int kv = 0;

	if (need_int(c, "num_hidden_layers", "n_layer", 1, &m->layers) ||
	    need_int(c, "hidden_size", "n_embd", 1, &m->hidden) ||
	    need_int(c, "num_attention_heads", "n_head", 1, &m->heads) ||
	    opt_int(c, "num_key_value_heads", 1, 0, &kv) ||
	    (!kv && opt_int(c, "n_head_kv", 1, 0, &kv)) ||
	    need_int(c, "vocab_size", NULL, 1, &m->vocab) ||
	    opt_bool(c, "tie_word_embeddings", false, &m->tied_embeddings) ||
	    opt_bool(c, "qk_layernorm", false, &m->qk_norm) ||
	    read_max_context(c, 2048, &m->max_context))
		return -1;
	if (opt_int(c, "intermediate_size", 1, 0, &m->ffn) ||
	    (!m->ffn && opt_int(c, "n_inner", 1, 4 * m->hidden, &m->ffn)))
		return -1;
	if (item(c, "num_local_experts"))
		return fail_at(c, koff(c, "num_local_experts"), "num_local_experts",
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
static int read_gptj(struct hf *c, struct model *m)
{
	if (read_gpt2_dims(c, m, "n_embd", "hidden_size") ||
	    opt_int(c, "n_inner", 1, 4 * m->hidden, &m->ffn) ||
	    opt_bool(c, "tie_word_embeddings", false, &m->tied_embeddings) ||
	    read_max_context(c, 2048, &m->max_context))
		return -1;
	set_parallel_block(m);
	return 0;
}

/* GPT-NeoX and Pythia (modeling_gpt_neox.py): query_key_value and dense with biases
 * (attention_bias, default true); dense_h_to_4h/dense_4h_to_h GELU MLP with biases;
 * input_layernorm and post_attention_layernorm (LayerNorm) even with
 * use_parallel_residual; final_layer_norm; embed_in and embed_out untied by default. */
static int read_gpt_neox(struct hf *c, struct model *m)
{
	bool parallel;

	if (read_llama_like(c, m, true, false, 2048) ||
	    opt_bool(c, "attention_bias", true, &m->attention_bias) ||
	    opt_bool(c, "use_parallel_residual", true, &parallel))
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
static int read_stablelm(struct hf *c, struct model *m)
{
	bool parallel, qk;

	if (read_llama_like(c, m, true, false, 4096) ||
	    opt_bool(c, "use_qkv_bias", false, &m->qkv_bias) ||
	    opt_bool(c, "use_parallel_residual", false, &parallel) ||
	    opt_bool(c, "qk_layernorm", false, &qk))
		return -1;
	if (qk)
		return fail_at(c, koff(c, "qk_layernorm"), "qk_layernorm",
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
static int read_starcoder2(struct hf *c, struct model *m)
{
	bool bias;

	if (read_llama_like(c, m, true, true, 4096) || opt_bool(c, "use_bias", true, &bias) ||
	    opt_int(c, "sliding_window", 0, 0, &m->sliding_window))
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
static int read_chatglm(struct hf *c, struct model *m)
{
	bool mqa, qkv_bias, linear_bias, rms, post;

	if (need_int(c, "num_layers", "num_hidden_layers", 1, &m->layers) ||
	    need_int(c, "hidden_size", NULL, 1, &m->hidden) ||
	    need_int(c, "num_attention_heads", NULL, 1, &m->heads) ||
	    need_int(c, "ffn_hidden_size", NULL, 1, &m->ffn) ||
	    need_int(c, "padded_vocab_size", "vocab_size", 1, &m->vocab) ||
	    opt_int(c, "kv_channels", 1, 0, &m->head_dim) ||
	    opt_bool(c, "multi_query_attention", false, &mqa) ||
	    opt_bool(c, "add_qkv_bias", false, &qkv_bias) ||
	    opt_bool(c, "add_bias_linear", false, &linear_bias) ||
	    opt_bool(c, "rmsnorm", true, &rms) || opt_bool(c, "post_layer_norm", true, &post) ||
	    opt_bool(c, "tie_word_embeddings", false, &m->tied_embeddings) ||
	    read_max_context(c, 2048, &m->max_context))
		return -1;
	if (mqa && need_int(c, "multi_query_group_num", NULL, 1, &m->kv_heads))
		return -1;
	if (linear_bias && !qkv_bias)
		return fail_at(c, koff(c, "add_bias_linear"), "add_bias_linear",
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
static int read_dbrx(struct hf *c, struct model *m)
{
	const cJSON *top = c->root;
	size_t top_base = c->base;
	int r;

	if (need_int(c, "n_layers", NULL, 1, &m->layers) ||
	    need_int(c, "d_model", NULL, 1, &m->hidden) ||
	    need_int(c, "n_heads", NULL, 1, &m->heads) ||
	    need_int(c, "vocab_size", NULL, 1, &m->vocab) ||
	    opt_bool(c, "tie_word_embeddings", false, &m->tied_embeddings) ||
	    opt_int(c, "max_seq_len", 1, 2048, &m->max_context))
		return -1;
	if ((r = enter(c, "attn_config")) < 0 ||
	    (r && opt_int(c, "kv_n_heads", 1, 1, &m->kv_heads)))
		return -1;
	c->root = top;
	c->base = top_base;
	if ((r = enter(c, "ffn_config")) < 0)
		return -1;
	if (!r)
		return fail_at(c, koff(c, NULL), "ffn_config",
			       "missing 'ffn_config' (a dbrx config needs it)");
	if (need_int(c, "ffn_hidden_size", NULL, 1, &m->moe.expert_ffn) ||
	    need_int(c, "moe_num_experts", NULL, 1, &m->moe.experts) ||
	    need_int(c, "moe_top_k", NULL, 1, &m->moe.active))
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
	const cJSON *list = item(c, "no_rope_layers"), *e;
	int chunk = 0, interval, global = 0, n = 0;

	if (opt_int(c, "attention_chunk_size", 1, 0, &chunk) ||
	    opt_int(c, "no_rope_layer_interval", 1, 4, &interval))
		return -1;
	if (list && !cJSON_IsArray(list))
		return fail_at(c, koff(c, "no_rope_layers"), "no_rope_layers",
			       "'no_rope_layers' must be an array of 0 and 1, not %s",
			       kind_name(list));
	if (list) {
		cJSON_ArrayForEach(e, list)
		{
			if (!cJSON_IsNumber(e) || (e->valuedouble != 0 && e->valuedouble != 1))
				return fail_at(c, koff(c, "no_rope_layers"), "no_rope_layers",
					       "'no_rope_layers' must hold 0 or 1 per layer");
			global += e->valuedouble == 0;
			n++;
		}
		if (n != m->layers)
			return fail_at(c, koff(c, "no_rope_layers"), "no_rope_layers",
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
static int read_llama4(struct hf *c, struct model *m)
{
	bool listed[10001]; /* num_hidden_layers is at most 10000 (key_max) */
	int step, moe = 0, r;

	if (read_llama_like(c, m, true, false, 131072) ||
	    read_ffn_experts(c, m, "num_local_experts", NULL) ||
	    opt_int(c, "interleave_moe_layer_step", 1, 1, &step))
		return -1;
	m->moe.shared = 1;
	m->moe.shared_ffn = m->ffn;
	if (opt_int(c, "intermediate_size_mlp", 1, m->ffn, &m->ffn) ||
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
static int read_gpt_oss(struct hf *c, struct model *m)
{
	if (read_llama_like(c, m, true, false, 131072) ||
	    read_ffn_experts(c, m, "num_local_experts", "experts_per_token"))
		return -1;
	m->mlp_bias = true;
	m->router_bias = true;
	m->attention_sinks = true;
	/* GptOssConfig: layer_types alternate sliding (128) and full, sliding first */
	return mixed_window(c, m, 2);
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
static int read_phi3_small(struct hf *c, struct model *m)
{
	const cJSON *act = item(c, "hidden_act");
	int mult = 0, dense_every = 2, block = 64, local = 16, stride = 8, sparse;
	bool pad = true;

	if (need_int(c, "num_hidden_layers", NULL, 1, &m->layers) ||
	    need_int(c, "hidden_size", NULL, 1, &m->hidden) ||
	    need_int(c, "num_attention_heads", NULL, 1, &m->heads) ||
	    opt_int(c, "num_key_value_heads", 1, 8, &m->kv_heads) ||
	    need_int(c, "vocab_size", NULL, 1, &m->vocab) ||
	    opt_bool(c, "tie_word_embeddings", true, &m->tied_embeddings) ||
	    read_max_context(c, 8192, &m->max_context) ||
	    opt_int(c, "ff_intermediate_size", 1, 0, &m->ffn) ||
	    opt_int(c, "ff_dim_multiplier", 1, 0, &mult) ||
	    opt_bool(c, "gegelu_pad_to_256", true, &pad) ||
	    opt_int(c, "dense_attention_every_n_layers", 0, 2, &dense_every) ||
	    opt_int(c, "blocksparse_block_size", 1, 64, &block) ||
	    opt_int(c, "blocksparse_num_local_blocks", 1, 16, &local) ||
	    opt_int(c, "blocksparse_vert_stride", 1, 8, &stride))
		return -1;
	if (act && (!cJSON_IsString(act) || strcmp(act->valuestring, "gegelu") != 0))
		return fail_at(c, koff(c, "hidden_act"), "hidden_act",
			       "'hidden_act' must be \"gegelu\" (Phi3SmallMLP supports no other)");
	if (m->ffn && mult)
		return fail_at(c, koff(c, "ff_dim_multiplier"), "ff_dim_multiplier",
			       "give one of 'ff_intermediate_size' and 'ff_dim_multiplier', not "
			       "both");
	if (!m->ffn && !mult)
		return fail_at(
		    c, koff(c, NULL), "ff_intermediate_size",
		    "missing 'ff_intermediate_size' (or 'ff_dim_multiplier'; a %s config "
		    "needs one)",
		    c->type);
	if (!m->ffn) {
		double ffn = (double)mult * (m->hidden / 3) * 2;
		if (pad)
			ffn = ceil(ffn / 256) * 256;
		if (ffn > key_max("ff_intermediate_size"))
			return fail_at(c, koff(c, "ff_dim_multiplier"), "ff_dim_multiplier",
				       "'ff_dim_multiplier' %d makes an intermediate size of %.0f, "
				       "more than %d",
				       mult, ffn, key_max("ff_intermediate_size"));
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
		if ((double)local * block > key_max("blocksparse_num_local_blocks"))
			return fail_at(c, koff(c, "blocksparse_num_local_blocks"),
				       "blocksparse_num_local_blocks",
				       "%d local blocks of %d tokens are more than %d tokens",
				       local, block, key_max("blocksparse_num_local_blocks"));
		m->sparse_layers = sparse;
		m->sparse_local = local * block;
		m->sparse_stride = stride;
	}
	return 0;
}

/* A vision tower of a known shape (vision_config's model_type), counted module by module;
 * 0 when it is not one of them. Reads from the top-level object. */
static double vision_params(struct hf *c, int text_hidden)
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
		warn(c,
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
static int read_deepseek_moe(struct hf *c, struct model *m)
{
	int first_dense, freq, dense = 0;

	if (read_llama_like(c, m, true, false, 4096) ||
	    need_int(c, "n_routed_experts", NULL, 1, &m->moe.experts) ||
	    need_int(c, "num_experts_per_tok", NULL, 1, &m->moe.active) ||
	    need_int(c, "moe_intermediate_size", NULL, 1, &m->moe.expert_ffn) ||
	    opt_int(c, "n_shared_experts", 0, 0, &m->moe.shared) ||
	    opt_int(c, "first_k_dense_replace", 0, 0, &first_dense) ||
	    opt_int(c, "moe_layer_freq", 1, 1, &freq))
		return -1;
	for (int i = 0; i < m->layers; i++)
		if (!(i >= first_dense && i % freq == 0))
			dense++;
	m->moe.dense_layers = dense;
	if (m->moe.shared)
		m->moe.shared_ffn = m->moe.expert_ffn;
	return 0;
}

/* A string member of obj (NULL: absent, not a string, or obj not an object). */
static const char *quant_str(const cJSON *obj, const char *key)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
	return cJSON_IsString(it) ? it->valuestring : NULL;
}

/* A whole number member of obj in [lo, hi], else 0. */
static int quant_int(const cJSON *obj, const char *key, int lo, int hi)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);
	if (!cJSON_IsNumber(it) || it->valuedouble < lo || it->valuedouble > hi ||
	    it->valuedouble != (double)(int)it->valuedouble)
		return 0;
	return (int)it->valuedouble;
}

static bool quant_true(const cJSON *obj, const char *key)
{
	return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(obj, key));
}

/* The config's list of modules it leaves unquantized (hf_quant.h): the first of the keys
 * below that is an array, in q or in ModelOpt's "quantization" object inner; its first
 * HF_QUANT_SKIP_MAX strings (pointers into the parsed config), the rest counted. */
static void read_skip_list(const cJSON *q, const cJSON *inner, struct hf_quant_keys *k)
{
	static const char *const keys[] = {"ignore", "exclude_modules", "modules_to_not_convert",
					   "llm_int8_skip_modules", NULL};
	const cJSON *list = NULL, *it;

	for (int pass = 0; pass < 2 && !list; pass++) {
		const cJSON *o = pass == 0 ? q : inner;
		if (!cJSON_IsObject(o))
			continue;
		for (int i = 0; keys[i] && !list; i++) {
			it = cJSON_GetObjectItemCaseSensitive(o, keys[i]);
			if (cJSON_IsArray(it)) {
				list = it;
				k->skip_key = keys[i];
			}
		}
	}
	if (!list)
		return;
	cJSON_ArrayForEach(it, list)
	{
		if (!cJSON_IsString(it) || !it->valuestring[0])
			continue;
		if (k->nskip < HF_QUANT_SKIP_MAX)
			k->skip[k->nskip++] = it->valuestring;
		else
			k->skip_more++;
	}
}

/* The keys of the quantization_config object q that hf_quant.c plans with (hf_quant.h
 * names each format's): the four formats' nested objects and arrays walked here, so that
 * this file stays the one reader that sees JSON. */
static void read_quant_keys(const cJSON *q, struct hf_quant_keys *k)
{
	const cJSON *block = cJSON_GetObjectItemCaseSensitive(q, "weight_block_size");
	const cJSON *groups = cJSON_GetObjectItemCaseSensitive(q, "config_groups");
	const cJSON *g = cJSON_IsObject(groups) ? groups->child : NULL;
	const cJSON *w = g ? cJSON_GetObjectItemCaseSensitive(g, "weights") : NULL;
	const cJSON *inner = cJSON_GetObjectItemCaseSensitive(q, "quantization");

	memset(k, 0, sizeof(*k));
	k->present = cJSON_IsObject(q);
	if (!k->present)
		return;
	k->quant_method = quant_str(q, "quant_method");
	k->load_in_4bit = quant_true(q, "load_in_4bit");
	k->load_in_8bit = quant_true(q, "load_in_8bit");
	k->bnb_4bit_quant_type = quant_str(q, "bnb_4bit_quant_type");
	k->bnb_4bit_use_double_quant = quant_true(q, "bnb_4bit_use_double_quant");
	k->has_block = cJSON_IsArray(block) && cJSON_GetArraySize(block) == 2 &&
		       cJSON_IsNumber(cJSON_GetArrayItem(block, 0)) &&
		       cJSON_IsNumber(cJSON_GetArrayItem(block, 1));
	if (k->has_block) {
		k->block[0] = cJSON_GetArrayItem(block, 0)->valuedouble;
		k->block[1] = cJSON_GetArrayItem(block, 1)->valuedouble;
	}
	k->fmt = quant_str(q, "fmt");
	k->bits = quant_int(q, "bits", 1, 16);
	k->w_bit = quant_int(q, "w_bit", 1, 16);
	k->group_size = quant_int(q, "group_size", -1, 1 << 20);
	k->q_group_size = quant_int(q, "q_group_size", -1, 1 << 20);
	k->lm_head = quant_true(q, "lm_head");
	k->format = quant_str(q, "format");
	k->has_weights = cJSON_IsObject(w);
	k->w_type = quant_str(w, "type");
	k->w_strategy = quant_str(w, "strategy");
	k->w_num_bits = quant_int(w, "num_bits", 1, 32);
	k->w_group_size = quant_int(w, "group_size", 1, 1 << 20);
	k->quant_algo = quant_str(q, "quant_algo");
	if (!k->quant_algo && cJSON_IsObject(inner))
		k->quant_algo = quant_str(inner, "quant_algo");
	k->modelopt_group = quant_int(cJSON_IsObject(inner) ? inner : q, "group_size", 1, 1 << 20);
	read_skip_list(q, inner, k);
}

/* quantization_config (hf_quant.c): the format the checkpoint stores its weights in, kept
 * in m->quant for the scenario to plan with, and a note saying what was read. Reads the
 * top-level object; never fails (an odd entry is only named). */
static void read_quant(struct hf *c, struct model *m)
{
	static struct hf_quant_keys k; /* 4 kB of pointers: import only */
	char method[24], note[200], skips[4][HF_QUANT_WARN_LEN];
	const cJSON *q = cJSON_GetObjectItemCaseSensitive(c->top, "quantization_config");
	struct model shape;
	struct model_params counts;
	const char *type = c->type;
	int n;

	if (!q) /* a multimodal config keeps it beside text_config */
		q = cJSON_GetObjectItemCaseSensitive(c->root, "quantization_config");
	read_quant_keys(q, &k);
	if (!hf_quant_plan(&k, m->moe.experts > 0, &m->quant, method, sizeof(method), note,
			   sizeof(note)))
		return;
	model_resolve_shape(m, &shape, NULL);
	model_count_params(&shape, &counts);
	/* a multimodal checkpoint names its modules as the outer model does */
	if (c->top != c->root)
		type = strcmp(type, "llama4_text") == 0	  ? "llama4"
		       : strcmp(type, "gemma3_text") == 0 ? "gemma3"
							  : "mistral3";
	n = hf_quant_skip(&k, &(struct hf_quant_model){type, &shape, &counts}, &m->quant, skips, 4);
	if (c->info) {
		snprintf(c->info->quant_method, sizeof(c->info->quant_method), "%s", method);
		c->info->has_weights = m->quant.set;
		c->info->weights = m->quant.weights;
	}
	for (int i = 0; i < n; i++)
		warn(c, "%s", skips[i]);
	warn(c, "%s", note);
}

/* The step projection's rank: an integer, or "auto" for ceil(hidden / 16) (MambaConfig
 * time_step_rank, JambaConfig mamba_dt_rank), left 0 for model.c's default. */
static int read_dt_rank(struct hf *c, const char *key, int *out)
{
	const cJSON *it = item(c, key);

	*out = 0;
	if (cJSON_IsString(it) && strcmp(it->valuestring, "auto") == 0)
		return 0;
	return opt_int(c, key, 1, 0, out);
}

/* A model of state-space layers only: every layer one RMSNorm and one mixer, no MLP, no
 * attention (its heads stand for the mixer's, which tensor parallelism splits). */
static void ssm_only(struct model *m)
{
	m->ssm.layers = m->layers;
	m->mlpless_layers = m->layers; /* and so no MLP norm: one norm a layer */
	m->norms_per_layer = 2;
	m->ffn = 0;
	m->kv_heads = m->heads;
	m->max_context = 0; /* no positions: the state carries any length */
}

/* Mamba and Falcon Mamba (configuration_mamba.py, configuration_falcon_mamba.py,
 * modeling_mamba.py): hidden_size, num_hidden_layers, state_size (16), conv_kernel (4),
 * expand (2), intermediate_size (expand x hidden), time_step_rank ("auto" =
 * ceil(hidden / 16)), use_bias (false), use_conv_bias (true); a MambaRMSNorm a layer and
 * norm_f; lm_head tied to the embedding unless tie_word_embeddings is false. */
static int read_mamba(struct hf *c, struct model *m, bool tied_default)
{
	int inner = 0, expand;
	bool bias, conv_bias;

	if (need_int(c, "num_hidden_layers", "n_layer", 1, &m->layers) ||
	    need_int(c, "hidden_size", "d_model", 1, &m->hidden) ||
	    need_int(c, "vocab_size", NULL, 1, &m->vocab) ||
	    opt_int(c, "state_size", 1, 16, &m->ssm.d_state) ||
	    opt_int(c, "conv_kernel", 1, 4, &m->ssm.d_conv) ||
	    opt_int(c, "expand", 1, 2, &expand) || opt_int(c, "intermediate_size", 1, 0, &inner) ||
	    read_dt_rank(c, "time_step_rank", &m->ssm.dt_rank) ||
	    opt_bool(c, "use_bias", false, &bias) ||
	    opt_bool(c, "use_conv_bias", true, &conv_bias) ||
	    opt_bool(c, "tie_word_embeddings", tied_default, &m->tied_embeddings))
		return -1;
	/* FalconMambaConfig keeps expand 16 beside intermediate_size 8192: the width is
	 * intermediate_size when given (configuration_falcon_mamba.py) */
	m->ssm.d_inner = inner > 0 ? inner : expand * m->hidden;
	m->ssm.proj_bias = bias;
	m->ssm.no_conv_bias = !conv_bias;
	m->heads = 1;
	m->head_dim = m->hidden;
	ssm_only(m);
	return 0;
}

/* Mamba-2 (configuration_mamba2.py, modeling_mamba2.py): num_heads (128) x head_dim (64)
 * must make d_inner = expand x hidden_size; n_groups (1), state_size (128), conv_kernel
 * (4), use_bias, use_conv_bias; untied unless tie_word_embeddings. */
static int read_mamba2(struct hf *c, struct model *m)
{
	int expand, hd;
	bool bias, conv_bias;

	if (need_int(c, "num_hidden_layers", "n_layer", 1, &m->layers) ||
	    need_int(c, "hidden_size", "d_model", 1, &m->hidden) ||
	    need_int(c, "vocab_size", NULL, 1, &m->vocab) ||
	    opt_int(c, "state_size", 1, 128, &m->ssm.d_state) ||
	    opt_int(c, "conv_kernel", 1, 4, &m->ssm.d_conv) ||
	    opt_int(c, "expand", 1, 2, &expand) || opt_int(c, "num_heads", 1, 128, &m->heads) ||
	    opt_int(c, "head_dim", 1, 64, &hd) || opt_int(c, "n_groups", 1, 1, &m->ssm.groups) ||
	    opt_bool(c, "use_bias", false, &bias) ||
	    opt_bool(c, "use_conv_bias", true, &conv_bias) ||
	    opt_bool(c, "tie_word_embeddings", false, &m->tied_embeddings))
		return -1;
	m->ssm.d_inner = expand * m->hidden;
	if ((double)m->heads * hd != m->ssm.d_inner)
		return fail_at(c, koff(c, "num_heads"), "num_heads",
			       "'num_heads': %d heads of head_dim %d do not make expand x "
			       "hidden_size = %d",
			       m->heads, hd, m->ssm.d_inner);
	if (m->heads % m->ssm.groups != 0)
		return fail_at(c, koff(c, "n_groups"), "n_groups",
			       "'n_groups': %d groups do not divide %d heads", m->ssm.groups,
			       m->heads);
	m->ssm.heads = m->heads;
	m->head_dim = hd;
	m->ssm.proj_bias = bias;
	m->ssm.no_conv_bias = !conv_bias;
	ssm_only(m);
	return 0;
}

/* An optional integer under key, else under its other spelling alt, else def. */
static int opt_int2(struct hf *c, const char *key, const char *alt, int min, int def, int *out)
{
	int r = get_int(c, key, min, out);

	if (r == 0)
		r = get_int(c, alt, min, out);
	if (r == 0)
		*out = def;
	return r < 0 ? -1 : 0;
}

static int opt_bool2(struct hf *c, const char *key, const char *alt, bool def, bool *out)
{
	return opt_bool(c, has_key(c, key) ? key : alt, def, out);
}

/* Nemotron-H (NVIDIA's configuration_nemotron_h.py and modeling_nemotron_h.py): one
 * character of hybrid_override_pattern per layer, each layer one RMSNorm and one mixer:
 * 'M' a Mamba-2 mixer of mamba_num_heads x mamba_head_dim (d_inner), n_groups, ssm_state_size,
 * conv_kernel; '*' attention (q, k, v, o of attention_head_dim or head_dim); '-' an MLP of
 * up_proj and down_proj (squared ReLU: 2 matrices) of intermediate_size; 'E' a MoE of
 * n_routed_experts 2-matrix experts of moe_intermediate_size, n_shared_experts of
 * moe_shared_expert_intermediate_size, a bias-free router and its
 * e_score_correction_bias (one per expert). The config writes the Mamba keys as the class
 * stores them (n_groups, conv_kernel, use_bias, use_conv_bias) or as its arguments
 * (mamba_n_groups, mamba_d_conv, mamba_proj_bias, mamba_conv_bias). Defaults are
 * NemotronHConfig's, which are Nemotron-H-8B's. */
static int read_nemotron_h(struct hf *c, struct model *m)
{
	const cJSON *pat = item(c, "hybrid_override_pattern");
	int counts[4] = {0, 0, 0, 0}, n = 0, mh, mhd;
	bool bias, conv_bias;
	const char *kinds = "M*-E";

	if (!pat)
		return fail_at(c, koff(c, NULL), "hybrid_override_pattern",
			       "missing 'hybrid_override_pattern' (a nemotron_h config needs it)");
	if (!cJSON_IsString(pat))
		return fail_at(c, koff(c, "hybrid_override_pattern"), "hybrid_override_pattern",
			       "'hybrid_override_pattern' must be a string, not %s",
			       kind_name(pat));
	for (const char *p = pat->valuestring; *p; p++, n++) {
		const char *k = strchr(kinds, *p);
		if (!k || !*p)
			return fail_at(c, koff(c, "hybrid_override_pattern"),
				       "hybrid_override_pattern",
				       "'hybrid_override_pattern': layer %d is '%c' (expected M "
				       "Mamba-2, * attention, - MLP or E MoE)",
				       n, *p > ' ' && *p < 0x7f ? *p : '?');
		counts[k - kinds]++;
	}
	if (opt_int(c, "num_hidden_layers", 1, n, &m->layers) ||
	    opt_int(c, "hidden_size", 1, 4096, &m->hidden) ||
	    opt_int(c, "vocab_size", 1, 131072, &m->vocab) ||
	    opt_int(c, "num_attention_heads", 1, 32, &m->heads) ||
	    opt_int(c, "num_key_value_heads", 1, 8, &m->kv_heads) ||
	    opt_int2(c, "head_dim", "attention_head_dim", 1, 128, &m->head_dim) ||
	    opt_int(c, "intermediate_size", 1, 21504, &m->ffn) ||
	    opt_int(c, "mamba_num_heads", 1, 128, &mh) ||
	    opt_int(c, "mamba_head_dim", 1, 64, &mhd) ||
	    opt_int(c, "ssm_state_size", 1, 128, &m->ssm.d_state) ||
	    opt_int2(c, "n_groups", "mamba_n_groups", 1, 8, &m->ssm.groups) ||
	    opt_int2(c, "conv_kernel", "mamba_d_conv", 1, 4, &m->ssm.d_conv) ||
	    opt_bool2(c, "use_bias", "mamba_proj_bias", false, &bias) ||
	    opt_bool2(c, "use_conv_bias", "mamba_conv_bias", true, &conv_bias) ||
	    opt_bool(c, "attention_bias", false, &m->attention_bias) ||
	    opt_bool(c, "mlp_bias", false, &m->mlp_bias) ||
	    opt_bool(c, "tie_word_embeddings", false, &m->tied_embeddings) ||
	    read_max_context(c, 4096, &m->max_context))
		return -1;
	if (n != m->layers)
		return fail_at(c, koff(c, "hybrid_override_pattern"), "hybrid_override_pattern",
			       "'hybrid_override_pattern' has %d layers, but num_hidden_layers "
			       "is %d",
			       n, m->layers);
	if (mh % m->ssm.groups != 0)
		return fail_at(c, koff(c, has_key(c, "n_groups") ? "n_groups" : "mamba_n_groups"),
			       "n_groups", "'n_groups': %d groups do not divide %d Mamba heads",
			       m->ssm.groups, mh);
	m->ssm.layers = counts[0];
	m->ssm.heads = mh;
	m->ssm.d_inner = mh * mhd;
	m->ssm.proj_bias = bias;
	m->ssm.no_conv_bias = !conv_bias;
	m->mixerless_layers = counts[2] + counts[3];
	m->mlpless_layers = counts[0] + counts[1];
	m->norms_per_layer = 2; /* less the missing block's: one norm a layer */
	m->mlp = MLP_PLAIN;
	if (counts[3]) {
		if (need_int(c, "n_routed_experts", NULL, 1, &m->moe.experts) ||
		    need_int(c, "num_experts_per_tok", NULL, 1, &m->moe.active) ||
		    need_int(c, "moe_intermediate_size", NULL, 1, &m->moe.expert_ffn) ||
		    opt_int(c, "n_shared_experts", 0, 0, &m->moe.shared) ||
		    opt_int(c, "moe_shared_expert_intermediate_size", 1, m->moe.expert_ffn,
			    &m->moe.shared_ffn))
			return -1;
		if (has_key(c, "moe_latent_size"))
			return fail_at(c, koff(c, "moe_latent_size"), "moe_latent_size",
				       "a nemotron_h config with 'moe_latent_size' (latent MoE) is "
				       "not supported; give model.params and the shape fields "
				       "instead");
		m->moe.dense_layers = counts[2];
		m->router_bias = true; /* gate.e_score_correction_bias */
	}
	return 0;
}

/* Jamba (configuration_jamba.py, modeling_jamba.py): layer i attends when
 * i % attn_layer_period == attn_layer_offset (8 and 4), else it has a Mamba-1 mixer
 * (mamba_d_state, mamba_d_conv, mamba_expand, mamba_dt_rank, mamba_conv_bias,
 * mamba_proj_bias, and RMSNorms on dt, B and C); its MLP is a MoE of num_experts
 * (Mixtral's SwiGLU experts of intermediate_size, a bias-free router) when
 * i % expert_layer_period == expert_layer_offset (2 and 1) and num_experts > 1, else a dense
 * SwiGLU MLP; two RMSNorms a layer. */
static int read_jamba(struct hf *c, struct model *m)
{
	int ap, ao, ep, eo, experts, expand, attn = 0, moe = 0;
	bool conv_bias;

	if (read_llama_like(c, m, true, false, 262144) ||
	    opt_int(c, "attn_layer_period", 1, 8, &ap) ||
	    opt_int(c, "attn_layer_offset", 0, 4, &ao) ||
	    opt_int(c, "expert_layer_period", 1, 2, &ep) ||
	    opt_int(c, "expert_layer_offset", 0, 1, &eo) ||
	    opt_int(c, "num_experts", 1, 16, &experts) ||
	    opt_int(c, "num_experts_per_tok", 1, 2, &m->moe.active) ||
	    opt_int(c, "mamba_d_state", 1, 16, &m->ssm.d_state) ||
	    opt_int(c, "mamba_d_conv", 1, 4, &m->ssm.d_conv) ||
	    opt_int(c, "mamba_expand", 1, 2, &expand) ||
	    read_dt_rank(c, "mamba_dt_rank", &m->ssm.dt_rank) ||
	    opt_bool(c, "mamba_conv_bias", true, &conv_bias) ||
	    opt_bool(c, "mamba_proj_bias", false, &m->ssm.proj_bias))
		return -1;
	if (ao >= ap)
		return fail_at(c, koff(c, "attn_layer_offset"), "attn_layer_offset",
			       "'attn_layer_offset' %d must be below attn_layer_period %d", ao, ap);
	if (eo >= ep)
		return fail_at(c, koff(c, "expert_layer_offset"), "expert_layer_offset",
			       "'expert_layer_offset' %d must be below expert_layer_period %d", eo,
			       ep);
	for (int i = 0; i < m->layers; i++) {
		attn += i % ap == ao;
		moe += experts > 1 && i % ep == eo;
	}
	m->ssm.layers = m->layers - attn;
	m->ssm.d_inner = expand * m->hidden;
	m->ssm.no_conv_bias = !conv_bias;
	m->ssm.dt_norms = true;
	if (moe) {
		m->moe.experts = experts;
		m->moe.expert_ffn = m->ffn;
		m->moe.dense_layers = m->layers - moe;
	} else {
		m->moe.active = 0;
	}
	return 0;
}

/* A boolean member of a block_configs entry: def when absent or null. */
static int block_bool(struct hf *c, const cJSON *obj, const char *key, bool def, bool *out)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);

	*out = def;
	if (!it || cJSON_IsNull(it))
		return 0;
	if (!cJSON_IsBool(it))
		return fail_at(c, koff(c, "block_configs"), "block_configs",
			       "'block_configs': '%s' must be true or false, not %s", key,
			       kind_name(it));
	*out = cJSON_IsTrue(it);
	return 0;
}

/* DeciLM, the Llama-Nemotron NAS models (model_type nemotron-nas; their
 * configuration_decilm.py and modeling_decilm.py): Llama's keys, and one block_configs
 * entry per layer. Its attention: no_op (none, and no input_layernorm),
 * replace_with_linear (one bias-free hidden x hidden linear), else Llama's attention with
 * num_attention_heads / n_heads_in_group K/V heads. Its ffn: no_op (none, and no
 * post_attention_layernorm), replace_with_linear, else a SwiGLU MLP of
 * _ffn_mult_to_intermediate_size(ffn_mult, hidden) = int(2 ffn_mult hidden / 3) rounded up
 * to a multiple of 256. The MLP sizes are summed (model.ffn_sum), and so are the K/V heads
 * when they differ from layer to layer (model.kv_sum). */
static int read_decilm(struct hf *c, struct model *m)
{
	const cJSON *blocks = item(c, "block_configs"), *b;
	int n = 0, kv = 0, dense = 0, i = 0, kv_sum = 0, attn = 0;
	bool mixed_kv = false;
	double sum = 0;

	if (read_llama_like(c, m, false, false, 131072))
		return -1;
	if (!blocks)
		return fail_at(c, koff(c, NULL), "block_configs",
			       "missing 'block_configs' (a nemotron-nas config needs it)");
	if (!cJSON_IsArray(blocks))
		return fail_at(c, koff(c, "block_configs"), "block_configs",
			       "'block_configs' must be an array, not %s", kind_name(blocks));
	n = cJSON_GetArraySize(blocks);
	if (n != m->layers)
		return fail_at(c, koff(c, "block_configs"), "block_configs",
			       "'block_configs' lists %d layers, but num_hidden_layers is %d", n,
			       m->layers);
	cJSON_ArrayForEach(b, blocks)
	{
		const cJSON *a = cJSON_GetObjectItemCaseSensitive(b, "attention");
		const cJSON *f = cJSON_GetObjectItemCaseSensitive(b, "ffn"), *g, *mult;
		bool a_noop, a_lin, f_noop, f_lin;

		if (!cJSON_IsObject(a) || !cJSON_IsObject(f))
			return fail_at(c, koff(c, "block_configs"), "block_configs",
				       "'block_configs': layer %d needs 'attention' and 'ffn' "
				       "objects",
				       i);
		if (block_bool(c, a, "no_op", false, &a_noop) ||
		    block_bool(c, a, "replace_with_linear", false, &a_lin) ||
		    block_bool(c, f, "no_op", false, &f_noop) ||
		    block_bool(c, f, "replace_with_linear", false, &f_lin))
			return -1;
		if (a_noop || a_lin) {
			m->mixerless_layers++;
			m->linear_blocks += !a_noop;
		} else {
			int grp;
			g = cJSON_GetObjectItemCaseSensitive(a, "n_heads_in_group");
			if (!cJSON_IsNumber(g) || g->valuedouble < 1 ||
			    g->valuedouble != floor(g->valuedouble) || g->valuedouble > m->heads ||
			    m->heads % (int)g->valuedouble != 0)
				return fail_at(c, koff(c, "block_configs"), "block_configs",
					       "'block_configs': layer %d's n_heads_in_group must "
					       "divide num_attention_heads %d",
					       i, m->heads);
			grp = m->heads / (int)g->valuedouble;
			mixed_kv = mixed_kv || (kv && grp != kv);
			kv = grp;
			kv_sum += grp;
			attn++;
		}
		if (f_noop || f_lin) {
			m->mlpless_layers++;
			m->linear_blocks += !f_noop;
		} else {
			double size;
			mult = cJSON_GetObjectItemCaseSensitive(f, "ffn_mult");
			if (!cJSON_IsNumber(mult) || !(mult->valuedouble > 0) ||
			    mult->valuedouble > 1e4)
				return fail_at(c, koff(c, "block_configs"), "block_configs",
					       "'block_configs': layer %d's ffn_mult must be a "
					       "positive number",
					       i);
			/* modeling_decilm.py _ffn_mult_to_intermediate_size, _find_multiple */
			size = floor(2 * mult->valuedouble * m->hidden / 3);
			size = ceil(size / 256) * 256;
			sum += size;
			dense++;
		}
		i++;
	}
	m->kv_heads = kv ? kv : m->heads;
	if (mixed_kv) {
		/* Llama-3.1-Nemotron-51B: 8, 4, 2 or 1 K/V heads a layer */
		m->kv_sum = kv_sum;
		m->kv_heads = (kv_sum + attn - 1) / attn;
		while (m->heads % m->kv_heads != 0) /* to a divisor of the heads */
			m->kv_heads++;
		warn(c,
		     "%s: the attention layers' K/V heads differ (%d in all over %d layers); the "
		     "parameter count takes their sum, the KV cache their average rounded up to a "
		     "divisor of the heads, %d",
		     c->type, kv_sum, attn, m->kv_heads);
	}
	m->ffn_sum = dense ? sum : 0;
	m->ffn = dense ? (int)floor(sum / dense + 0.5) : 0;
	return 0;
}

/* Qwen3-Next (configuration_qwen3_next.py, modeling_qwen3_next.py): layer_types, or
 * when absent layer i is full_attention where (i + 1) % full_attention_interval (4) is 0,
 * else linear_attention, a Gated DeltaNet of linear_num_value_heads (32) value heads of
 * linear_value_head_dim (128), linear_num_key_heads (16) key heads of
 * linear_key_head_dim (128) and a bias-free conv1d of linear_conv_kernel_dim (4) taps
 * (model.h, ssm.gated_delta). The full-attention layers are Qwen3's (q_norm and k_norm
 * over head_dim, 256) with the output gate: q_proj 2 x heads x head_dim. Every layer's
 * MLP is Qwen2-MoE's sparse block (num_experts of moe_intermediate_size, top
 * num_experts_per_tok, one shared expert of shared_expert_intermediate_size with its
 * hidden x 1 gate) unless mlp_only_layers or decoder_sparse_step make it a dense MLP of
 * intermediate_size. Two RMSNorms a layer; the checkpoint's mtp.* weights are not loaded
 * (Qwen3NextForCausalLM _keys_to_ignore_on_load_unexpected) and not counted. */
static int read_qwen3_next(struct hf *c, struct model *m)
{
	static const char *const full_names[] = {"full_attention", NULL};
	int period, kh, vh, kd, vd, full = 0, r;

	if (read_llama_like(c, m, false, false, 262144) || read_qwen3_moe(c, m) ||
	    opt_int(c, "shared_expert_intermediate_size", 0, 512, &m->moe.shared_ffn) ||
	    opt_int(c, "full_attention_interval", 1, 4, &period) ||
	    opt_int(c, "linear_num_key_heads", 1, 16, &kh) ||
	    opt_int(c, "linear_num_value_heads", 1, 32, &vh) ||
	    opt_int(c, "linear_key_head_dim", 1, 128, &kd) ||
	    opt_int(c, "linear_value_head_dim", 1, 128, &vd) ||
	    opt_int(c, "linear_conv_kernel_dim", 1, 4, &m->ssm.d_conv))
		return -1;
	if (!m->head_dim)
		m->head_dim = 256; /* Qwen3NextConfig head_dim */
	if (vh % kh != 0)
		return fail_at(c, koff(c, "linear_num_value_heads"), "linear_num_value_heads",
			       "'linear_num_value_heads' %d must be a multiple of "
			       "linear_num_key_heads %d",
			       vh, kh);
	r = layer_types_count(c, m, full_names, "linear_attention", &full);
	if (r < 0)
		return -1;
	if (!r) {
		for (int i = 0; i < m->layers; i++)
			full += (i + 1) % period == 0;
	}
	m->qk_norm = true;
	m->attention_gate = true;
	m->ssm.layers = m->layers - full;
	m->ssm.gated_delta = true;
	m->ssm.heads = vh;
	m->ssm.groups = kh;
	m->ssm.d_state = kd;
	m->ssm.d_inner = vh * vd;
	m->ssm.no_conv_bias = true;
	if (m->moe.shared_ffn > 0) {
		m->moe.shared = 1;
		m->moe.shared_gate = true;
	}
	return 0;
}

static int read_family(struct hf *c, enum family fam, struct model *m);

/* A multimodal config: the language model from text_config (as the family its model_type
 * names: mistral or ministral3 for Mistral 3, gemma3_text, llama4_text), the vision tower
 * counted apart; image tokens are not modelled. tie_word_embeddings may sit at the top
 * level (Llama 4) or in text_config. */
static int read_multimodal(struct hf *c, enum family fam, struct model *m)
{
	enum family text = fam == FAM_GEMMA3   ? FAM_GEMMA3_TEXT
			   : fam == FAM_LLAMA4 ? FAM_LLAMA4_TEXT
					       : FAM_MISTRAL;
	const char *outer = c->type;
	int r = enter(c, "text_config");

	if (r < 0)
		return -1;
	if (r == 0)
		return fail_at(c, koff(c, NULL), "text_config",
			       "missing 'text_config' (a %s config needs it)", outer);
	if (text == FAM_MISTRAL && has_key(c, "model_type") &&
	    cJSON_IsString(item(c, "model_type")) &&
	    strcmp(item(c, "model_type")->valuestring, "mistral") != 0 &&
	    strcmp(item(c, "model_type")->valuestring, "ministral3") != 0 &&
	    strcmp(item(c, "model_type")->valuestring, "ministral") != 0)
		return fail_at(c, koff(c, "model_type"), "model_type",
			       "unknown text_config model_type '%.80s' in a %s config",
			       item(c, "model_type")->valuestring, outer);
	c->type = text == FAM_GEMMA3_TEXT   ? "gemma3_text"
		  : text == FAM_LLAMA4_TEXT ? "llama4_text"
					    : "mistral";
	if (read_family(c, text, m))
		return -1;
	if (!item(c, "tie_word_embeddings")) {
		const cJSON *tie = cJSON_GetObjectItemCaseSensitive(c->top, "tie_word_embeddings");
		if (cJSON_IsBool(tie))
			m->tied_embeddings = cJSON_IsTrue(tie);
	}
	m->vision_params = vision_params(c, m->hidden);
	if (c->info)
		c->info->vision_params = m->vision_params;
	if (m->vision_params > 0)
		warn(c,
		     "%s is multimodal: the language model is read from text_config, its vision "
		     "tower (%.0f) into model.vision_params; image tokens are not modelled "
		     "(count them in the prompt)",
		     outer, m->vision_params);
	else
		warn(c,
		     "%s is multimodal: the language model is read from text_config; image "
		     "tokens are not modelled (count them in the prompt)",
		     outer);
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
		    read_ffn_experts(c, m, "num_local_experts", NULL) ||
		    opt_int(c, "sliding_window", 0, 0, &m->sliding_window))
			return -1;
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
		 * post-feedforward norms: 4 RMSNorms a layer (modeling_gemma2.py) and
		 * alternates sliding-window (4096) and global layers (Gemma2Config's
		 * layer_types: sliding first). */
		if (read_llama_like(c, m, true, true, 8192))
			return -1;
		if (!m->head_dim)
			m->head_dim = 256;
		m->norms_per_layer = fam == FAM_GEMMA2 ? 4 : 2;
		return fam == FAM_GEMMA2 ? mixed_window(c, m, 2) : 0;
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
	case FAM_DEEPSEEK_MOE:
		/* DeepSeekMoE (DeepSeek's modeling_deepseek.py for deepseek-moe-16b): Llama's
		 * attention, and DeepSeek-V2's fine-grained routed and shared experts; no MLA. */
		return read_deepseek_moe(c, m);
	case FAM_OLMO2:
	case FAM_OLMO3:
		/* OLMo 2 (modeling_olmo2.py) and OLMo 3 (modeling_olmo3.py): Llama's keys;
		 * q_norm and k_norm are RMSNorms over the whole q and k projections; the two
		 * block norms sit after attention and MLP (post_attention_layernorm,
		 * post_feedforward_layernorm), as many as Llama's. OLMo 3 adds sliding-window
		 * layers (layer_types). */
		if (read_llama_like(c, m, true, false, 4096))
			return -1;
		m->qk_norm = true;
		m->qk_norm_full = true;
		/* Olmo3Config: every 4th layer full, the others sliding_window 4096 */
		return mixed_window(c, m, fam == FAM_OLMO3 ? 4 : 0);
	case FAM_PHI:
		return read_phi(c, m);
	case FAM_PHIMOE:
		/* PhiMoE (modeling_phimoe.py, Phi-3.5-MoE): Mixtral's experts and router;
		 * LayerNorms with biases; q, k, v, o biases (attention_bias); lm_head with a bias
		 * (lm_head_bias). */
		if (read_llama_like(c, m, true, false, 131072) ||
		    read_ffn_experts(c, m, "num_local_experts", NULL) ||
		    opt_bool(c, "lm_head_bias", false, &m->head_bias) ||
		    opt_int(c, "sliding_window", 0, 0, &m->sliding_window))
			return -1;
		m->norm = NORM_LAYERNORM;
		return 0;
	case FAM_STARCODER2:
		return read_starcoder2(c, m);
	case FAM_GPT_NEOX:
		return read_gpt_neox(c, m);
	case FAM_GPTJ:
		return read_gptj(c, m);
	case FAM_STABLELM:
		return read_stablelm(c, m);
	case FAM_GRANITE:
	case FAM_INTERNLM2:
	case FAM_BAICHUAN:
	case FAM_MINICPM:
		/* Granite (modeling_granite.py): Llama with multipliers, which are not
		 * parameters. InternLM2 (InternLM's modeling_internlm2.py): one packed wqkv of
		 * (heads + 2 x kv_heads) x head_dim rows, biases on wqkv and wo with 'bias'.
		 * Baichuan and Baichuan 2 (their modeling_baichuan.py): a packed W_pack of
		 * 3 x hidden, no biases; the 13B models use ALiBi (no position parameters) and
		 * model_max_length; Baichuan 2's NormHead is an ordinary lm_head's weights.
		 * MiniCPM (its modeling_minicpm.py): Llama with scale_emb and scale_depth, and
		 * lm_head tied to embed_tokens unless the config says otherwise (its
		 * configuration_minicpm.py: tie_word_embeddings=True; the other three classes
		 * default to False). */
		if (read_llama_like(c, m, true, fam == FAM_MINICPM, 4096) ||
		    (fam == FAM_INTERNLM2 && opt_bool(c, "bias", false, &m->attention_bias)))
			return -1;
		if (fam == FAM_BAICHUAN && !item(c, "max_position_embeddings") &&
		    opt_int(c, "model_max_length", 1, 4096, &m->max_context))
			return -1;
		if (fam == FAM_MINICPM && item(c, "num_experts")) {
			/* MiniCPM-MoE-8x2B: every layer's MLP is num_experts experts of
			 * intermediate_size, Mixtral-style. */
			if (read_ffn_experts(c, m, "num_experts", NULL))
				return -1;
		}
		return 0;
	case FAM_GRANITEMOE:
		/* GraniteMoE (modeling_granitemoe.py): ParallelExperts input_linear (2 x
		 * intermediate_size) and output_linear per expert, a bias-free router; every
		 * layer MoE; shared_intermediate_size adds one shared expert
		 * (granitemoeshared). */
		if (read_llama_like(c, m, true, false, 4096) ||
		    read_ffn_experts(c, m, "num_local_experts", NULL) ||
		    opt_int(c, "shared_intermediate_size", 0, 0, &m->moe.shared_ffn))
			return -1;
		m->moe.shared = m->moe.shared_ffn > 0;
		return 0;
	case FAM_COHERE:
	case FAM_COHERE2:
		/* Command R (modeling_cohere.py) and R7B (modeling_cohere2.py): one
		 * input_layernorm feeds attention and MLP in parallel; CohereLayerNorm has a
		 * weight and no bias (so it counts as RMSNorm does); use_qk_norm adds such norms
		 * over all of q and k; embeddings tied by default. */
		if (read_llama_like(c, m, true, true, 8192) ||
		    opt_bool(c, "use_qk_norm", false, &m->qk_norm))
			return -1;
		m->qk_norm_full = m->qk_norm;
		m->parallel_block = true;
		m->norms_per_layer = 1;
		/* Cohere2Config: sliding_window_pattern 4, every 4th layer global */
		return mixed_window(c, m, fam == FAM_COHERE2 ? 4 : 0);
	case FAM_CHATGLM:
		return read_chatglm(c, m);
	case FAM_GLM4:
		/* GLM-4-0414 (modeling_glm4.py): q, k, v biases with attention_bias, o_proj
		 * without; fused gate_up_proj; four RMSNorms a layer (input, post_self_attn,
		 * post_attention, post_mlp). */
		if (read_llama_like(c, m, true, false, 32768))
			return -1;
		m->qkv_bias = m->attention_bias;
		m->attention_bias = false;
		m->norms_per_layer = 4;
		return 0;
	case FAM_EXAONE4:
		/* EXAONE 4.0 (modeling_exaone4.py): q_norm and k_norm over head_dim, as Qwen3;
		 * the block norms after attention and MLP, two a layer; 3:1 sliding-window and
		 * global layers in the 32B model. */
		if (read_llama_like(c, m, true, false, 65536))
			return -1;
		m->qk_norm = true;
		/* Exaone4Config: sliding_window_pattern 4 ("LLLG") */
		return mixed_window(c, m, 4);
	case FAM_DBRX:
		return read_dbrx(c, m);
	case FAM_MISTRAL3:
	case FAM_GEMMA3:
	case FAM_LLAMA4:
		/* Mistral 3, Gemma 3 and Llama 4 (modeling_mistral3.py, modeling_gemma3.py,
		 * modeling_llama4.py) hold the language model in text_config and the image
		 * encoder in vision_config. */
		return read_multimodal(c, fam, m);
	case FAM_GEMMA3_TEXT:
		/* Gemma 3 (modeling_gemma3.py): Gemma 2's four norms, tied embeddings and
		 * head_dim, plus q_norm and k_norm over head_dim; 5 sliding-window layers to a
		 * global one. */
		/* Gemma3TextConfig's defaults fill what the published configs leave out (the
		 * 27B's text_config has no vocab_size and no sliding_window_pattern): vocab
		 * 262208, 5 local layers to 1 global */
		c->vocab_default = 262208;
		if (read_llama_like(c, m, true, true, 131072))
			return -1;
		if (!m->head_dim)
			m->head_dim = 256;
		m->norms_per_layer = 4;
		m->qk_norm = true;
		/* Gemma3TextConfig: sliding_window_pattern 6 */
		return mixed_window(c, m, 6);
	case FAM_LLAMA4_TEXT:
		return read_llama4(c, m);
	case FAM_GPT_OSS:
		return read_gpt_oss(c, m);
	case FAM_PHI3_SMALL:
		return read_phi3_small(c, m);
	case FAM_MAMBA:
		return read_mamba(c, m, true);
	case FAM_FALCON_MAMBA:
		return read_mamba(c, m, false);
	case FAM_MAMBA2:
		return read_mamba2(c, m);
	case FAM_NEMOTRON_H:
		return read_nemotron_h(c, m);
	case FAM_JAMBA:
		return read_jamba(c, m);
	case FAM_DECILM:
		return read_decilm(c, m);
	case FAM_QWEN3_NEXT:
		return read_qwen3_next(c, m);
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
		return fail_at(c, koff(c, "model_type"), "model_type",
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
				/* transformers' AutoConfig goes by model_type (CONFIG_MAPPING),
				 * which would refuse this one: say which of the two was read */
				if (type)
					warn(c,
					     "unknown model_type '%.60s' beside the known "
					     "architecture '%.60s': read as %s by its architecture "
					     "(transformers' AutoConfig would not load it; check "
					     "model_type)",
					     type->valuestring, a->valuestring, families[i].arch);
				return 0;
			}
		}
	}
	if (type) {
		/* Families whose layers are not all attention + MLP, though their configs have
		 * Llama's five keys: read as Llama their count would be wrong, so they are
		 * refused by name (state-space and linear-attention hybrids, DeciLM's per-layer
		 * blocks). */
		static const char *const unsupported[] = {"nemotron-nas",
							  "deci",
							  "zamba",
							  "zamba2",
							  "bamba",
							  "falcon_h1",
							  "granitemoehybrid",
							  "recurrent_gemma",
							  "rwkv",
							  "minimax",
							  "lfm2",
							  NULL};
		for (int i = 0; unsupported[i]; i++)
			if (strcmp(type->valuestring, unsupported[i]) == 0)
				return fail_at(
				    c, koff(c, "model_type"), "model_type",
				    "model_type '%s' is not supported (its layers are not all "
				    "attention and MLP: state-space, linear-attention or per-layer "
				    "blocks); give model.params and the shape fields instead",
				    unsupported[i]);
		/* Many new families copy LlamaConfig's keys: with all five of them, read as
		 * Llama and say so. Otherwise name the first key it lacks. */
		static const char *const llama_keys[] = {"num_hidden_layers", "hidden_size",
							 "num_attention_heads", "intermediate_size",
							 "vocab_size"};
		for (size_t i = 0; i < sizeof(llama_keys) / sizeof(llama_keys[0]); i++)
			if (!cJSON_IsNumber(item(c, llama_keys[i])))
				return fail_at(
				    c, koff(c, "model_type"), "model_type",
				    "unknown model_type '%.60s', and not Llama-shaped: it lacks "
				    "'%s' (give model.params and the shape fields instead; "
				    "known: " KNOWN_TYPES ")",
				    type->valuestring, llama_keys[i]);
		*fam = FAM_LLAMA;
		c->type = type->valuestring;
		warn(c,
		     "unknown model_type '%.60s': read as Llama (attention, SwiGLU MLP and "
		     "RMSNorm as modeling_llama.py builds them); check the parameter count",
		     type->valuestring);
		return 0;
	}
	return fail_at(
	    c, koff(c, NULL), "model_type",
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

/* cJSON reads JSON as RFC 8259 has it, but the Hub's configs are written by Python's
 * json.dumps, which writes the bare tokens Infinity, -Infinity and NaN (Nemotron-H's
 * "time_step_limit": [0.0, Infinity]). A copy of the text has each such token, outside
 * strings and where a value starts, replaced by a number literal of the same length, so
 * every byte offset (and the line:column of an error) stays that of the original text:
 * "Infinity" -> "1e999999" and "-Infinity" -> "-1e999999" (strtod gives +-HUGE_VAL, an
 * infinity), "NaN" -> "0e0". Keeping cJSON (already linked, and report_json.c's parser)
 * costs this one pass; json-c and jansson would read them but add a dependency. A key
 * whose value was such a token is refused by name (bare_token). The copy is NUL-terminated;
 * NULL when out of memory. */
static char *normalise_tokens(const char *t, size_t n)
{
	static const struct {
		const char *tok, *num;
	} subst[] = {{"-Infinity", "-1e999999"}, {"Infinity", "1e999999"}, {"NaN", "0e0"}};
	char *out = malloc(n + 1);
	char prev = 0; /* the last non-space byte outside strings */

	if (!out)
		return NULL;
	memcpy(out, t, n);
	out[n] = '\0';
	for (size_t i = 0; i < n; i++) {
		if (t[i] == '"') {
			for (i++; i < n && t[i] != '"'; i++)
				if (t[i] == '\\')
					i++;
			prev = '"';
			continue;
		}
		if (is_space(t[i]))
			continue;
		if (prev == ':' || prev == '[' || prev == ',') {
			for (size_t k = 0; k < sizeof(subst) / sizeof(subst[0]); k++) {
				size_t l = strlen(subst[k].tok);
				if (i + l <= n && memcmp(t + i, subst[k].tok, l) == 0 &&
				    (i + l == n ||
				     !(isalnum((unsigned char)t[i + l]) || t[i + l] == '_'))) {
					memcpy(out + i, subst[k].num, l);
					i += l - 1;
					break;
				}
			}
		}
		prev = t[i];
	}
	return out;
}

/* Heads that do not divide the width, K/V heads that do not divide the heads, more
 * experts per token than experts: each an error at its key. */
static int check_shape(struct hf *c, const struct model *m)
{
	static const char *const head_keys[] = {"num_attention_heads", "n_head", "n_heads", NULL};
	static const char *const kv_keys[] = {"num_key_value_heads",   "num_kv_heads", "n_head_kv",
					      "multi_query_group_num", "kv_n_heads",   NULL};
	static const char *const top_keys[] = {"num_experts_per_tok", "experts_per_token",
					       "moe_top_k", NULL};
	const char *const *keys = NULL;
	const char *key = "";
	char msg[160] = "";

	if (!m->head_dim && !m->mla.kv_rank && m->heads && m->hidden % m->heads != 0) {
		keys = head_keys;
		snprintf(msg, sizeof(msg),
			 "%d heads do not divide hidden_size %d (and no head_dim is given)",
			 m->heads, m->hidden);
	} else if (m->kv_heads && m->heads % m->kv_heads != 0) {
		keys = kv_keys;
		snprintf(msg, sizeof(msg), "%d key/value heads do not divide %d attention heads",
			 m->kv_heads, m->heads);
	} else if (m->moe.experts && m->moe.active > m->moe.experts) {
		keys = top_keys;
		snprintf(msg, sizeof(msg), "%d experts per token, but only %d experts",
			 m->moe.active, m->moe.experts);
	}
	if (!keys)
		return 0;
	for (int i = 0; keys[i]; i++)
		if (item(c, keys[i])) {
			key = keys[i];
			break;
		}
	if (!*key)
		key = keys[0];
	return fail_at(c, koff(c, key), key, "'%s': %s", key, msg);
}

/* A key whose value in the original text is one of the bare tokens normalise_tokens
 * replaced, or NULL. */
static const char *bare_token(const struct hf *c, const char *key)
{
	size_t off = koff(c, key);
	const char *t = c->text + off;
	size_t rest = c->len - off;

	if (rest >= 3 && memcmp(t, "NaN", 3) == 0)
		return "NaN";
	if (rest >= 8 && memcmp(t, "Infinity", 8) == 0)
		return "Infinity";
	if (rest >= 9 && memcmp(t, "-Infinity", 9) == 0)
		return "-Infinity";
	return NULL;
}

/* ---- repeated member names ------------------------------------------------------------ */

/* transformers reads config.json with Python's json.load (PretrainedConfig's
 * _dict_from_json_file), whose dict keeps the LAST value of a repeated key, while
 * cJSON_GetObjectItemCaseSensitive finds the FIRST: a config with a repeated member would
 * plan another model than the one that runs. So a repeat is refused at every level, at its
 * second occurrence, in the words of the scenario reader for a repeated YAML key
 * (scenario_yaml.c). Names are compared as cJSON decoded them (so "a\u0062" repeats "ab").
 * Each object's names are sorted once, O(n log n) for an object of thousands of members;
 * the names go in a fixed buffer on the stack, or in one allocation kept for the whole
 * scan when an object has more members than that holds. */

#define REPEAT_STACK 256

struct repeat_name {
	const char *name;
	int idx; /* the member's place in its object */
};

struct repeat_scan {
	struct hf *c;
	struct repeat_name stack[REPEAT_STACK];
	struct repeat_name *names; /* stack, or the one allocation */
	int cap;
};

static int cmp_repeat(const void *a, const void *b)
{
	const struct repeat_name *x = a, *y = b;
	int d = strcmp(x->name, y->name);
	return d ? d : (x->idx > y->idx) - (x->idx < y->idx);
}

/* The earliest member of obj whose name an earlier member has (*second), and that earlier
 * member (*first); both -1 when the names are distinct. -1 when out of memory. */
static int find_repeat(struct repeat_scan *s, const cJSON *obj, int *first, int *second)
{
	const cJSON *ch;
	int n = 0;

	*first = *second = -1;
	for (ch = obj->child; ch; ch = ch->next)
		n++;
	if (n < 2)
		return 0;
	if (n > s->cap) {
		struct repeat_name *p = malloc((size_t)n * sizeof(*p));
		if (!p)
			return -1;
		if (s->names != s->stack)
			free(s->names);
		s->names = p;
		s->cap = n;
	}
	n = 0;
	for (ch = obj->child; ch; ch = ch->next, n++) {
		s->names[n].name = ch->string ? ch->string : "";
		s->names[n].idx = n;
	}
	qsort(s->names, (size_t)n, sizeof(s->names[0]), cmp_repeat);
	/* sorted by name, then place: a run's first two entries are a name's first and
	 * second occurrences */
	for (int k = 1, run = 0; k < n; k++) {
		if (strcmp(s->names[k].name, s->names[run].name) != 0) {
			run = k;
			continue;
		}
		if (k == run + 1 && (*second < 0 || s->names[k].idx < *second)) {
			*first = s->names[run].idx;
			*second = s->names[k].idx;
		}
	}
	return 0;
}

/* JSON whitespace as cJSON skips it (every byte up to ' '). */
static size_t skip_blank(const char *t, size_t n, size_t i)
{
	while (i < n && (unsigned char)t[i] <= ' ')
		i++;
	return i;
}

/* The offset after the string whose opening quote is at i. */
static size_t skip_string(const char *t, size_t n, size_t i)
{
	for (i++; i < n && t[i] != '"'; i++)
		if (t[i] == '\\')
			i++;
	return i < n ? i + 1 : n;
}

/* Walks the value node was parsed from, at or after *pos in the text (the members of a
 * cJSON object are in the text's order, so the k-th key read is the k-th child), and
 * moves *pos past it. A repeat is reported at its key, an inner repeat earlier in the
 * text first. 0: none; -1: reported (or out of memory); 1: the text does not follow the
 * tree, which cannot happen for a text cJSON parsed: the scan stops. */
static int repeat_value(struct repeat_scan *s, const cJSON *node, size_t *pos)
{
	const char *t = s->c->text;
	size_t n = s->c->len, i = skip_blank(t, n, *pos), first_at = 0;
	int first = -1, second = -1, k = 0, rc;

	if (i >= n)
		return 1;
	if (t[i] == '"') {
		*pos = skip_string(t, n, i);
		return 0;
	}
	if (t[i] != '{' && t[i] != '[') { /* number, true, false, null, Infinity, NaN */
		while (i < n && (unsigned char)t[i] > ' ' && t[i] != ',' && t[i] != ']' &&
		       t[i] != '}')
			i++;
		*pos = i;
		return 0;
	}
	if (t[i] == '[' ? !cJSON_IsArray(node) : !cJSON_IsObject(node))
		return 1;
	if (t[i] == '{' && find_repeat(s, node, &first, &second) != 0) {
		if (s->c->err)
			gp_error_set(s->c->err, GP_EIO, s->c->file, 0, 0, "out of memory");
		return -1;
	}
	for (const cJSON *ch = node->child; ch; ch = ch->next, k++) {
		i = skip_blank(t, n, i + 1); /* past '{', '[' or ',' */
		if (cJSON_IsObject(node)) {
			int line, col;
			if (i >= n || t[i] != '"')
				return 1;
			if (k == first)
				first_at = i;
			if (k == second) {
				text_position(t, first_at, &line, &col);
				return fail_at(s->c, i, ch->string,
					       "duplicate key '%s' (first given at line %d)",
					       ch->string, line);
			}
			i = skip_blank(t, n, skip_string(t, n, i));
			if (i >= n || t[i] != ':')
				return 1;
			i++;
		}
		if ((rc = repeat_value(s, ch, &i)) != 0)
			return rc;
		i = skip_blank(t, n, i);
		if (i >= n || (t[i] != ',' && t[i] != '}' && t[i] != ']'))
			return 1;
	}
	if (!node->child)
		i = skip_blank(t, n, i + 1);
	*pos = i < n ? i + 1 : n; /* past '}' or ']' */
	return 0;
}

/* Refuses a repeated member name anywhere in the document root was parsed from. */
static int refuse_repeats(struct hf *c, const cJSON *root)
{
	struct repeat_scan s = {.c = c, .cap = REPEAT_STACK};
	size_t pos = 0;
	int rc;

	s.names = s.stack;
	if (c->len >= 3 && memcmp(c->text, "\xEF\xBB\xBF", 3) == 0)
		pos = 3; /* cJSON skips a UTF-8 byte order mark */
	rc = repeat_value(&s, root, &pos);
	if (s.names != s.stack)
		free(s.names);
	return rc < 0 ? -1 : 0;
}

int hf_config_parse(const char *text, size_t len, const char *file, struct model *out,
		    struct gp_error *err)
{
	return hf_config_parse_info(text, len, file, out, NULL, err);
}

int hf_config_parse_info(const char *text, size_t len, const char *file, struct model *out,
			 struct hf_config_info *info, struct gp_error *err)
{
	struct hf c = {.text = text, .len = len, .file = file, .err = err, .type = "?"};
	const char *end = NULL;
	cJSON *root = NULL;
	struct model m;
	enum family fam = FAM_LLAMA;
	int rc = -1;
	size_t off;
	char *norm;

	memset(out, 0, sizeof(*out));
	if (info)
		memset(info, 0, sizeof(*info));
	c.info = info;
	if (!text) {
		c.text = "";
		c.len = 0;
		return fail_at(&c, 0, "", "empty config (expected a JSON object)");
	}
	norm = normalise_tokens(text, len);
	if (!norm) {
		if (err)
			gp_error_set(err, GP_EIO, file, 0, 0, "out of memory");
		return -1;
	}
	root = cJSON_ParseWithLengthOpts(norm, len, &end, false);
	if (!root) {
		size_t rest;
		off = end && end >= norm && end <= norm + len ? (size_t)(end - norm) : 0;
		for (rest = off; rest < len && is_space(text[rest]); rest++)
			;
		if (rest >= len)
			rc = fail_at(&c, len, "", "invalid JSON: unexpected end of the text");
		else if (text[off] > ' ' && text[off] < 0x7f)
			rc = fail_at(&c, off, "", "invalid JSON: unexpected '%c'", text[off]);
		else
			rc = fail_at(&c, off, "", "invalid JSON: unexpected byte 0x%02x",
				     (unsigned char)text[off]);
		goto out;
	}
	off = (size_t)(end - norm);
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
	if (refuse_repeats(&c, root) != 0)
		goto out;
	c.root = root;
	c.top = root;
	memset(&m, 0, sizeof(m));
	m.mlp = MLP_GATED;
	m.norm = NORM_RMSNORM;
	if (find_family(&c, &fam) || read_family(&c, fam, &m) || check_shape(&c, &m))
		goto out;
	read_quant(&c, &m);
	m.dropout = uses_dropout(&c);
	*out = m;
	rc = 0;
out:
	cJSON_Delete(root);
	free(norm);
	return rc;
}

int hf_config_load_file(const char *path, struct model *out, struct gp_error *err)
{
	return hf_config_load_file_info(path, out, NULL, err);
}

int hf_config_load_file_info(const char *path, struct model *out, struct hf_config_info *info,
			     struct gp_error *err)
{
	char *text;
	size_t len;
	int rc;

	memset(out, 0, sizeof(*out));
	if (info)
		memset(info, 0, sizeof(*info));
	if (file_read_all(path, HF_CONFIG_MAX_BYTES, &text, &len, err) != 0)
		return -1;
	rc = hf_config_parse_info(text, len, path, out, info, err);
	free(text);
	return rc;
}

/* ---- the local Hugging Face cache ----------------------------------------------------- */

/* Whether arg reads as a Hub id: ORG/NAME, one slash, each part of [A-Za-z0-9._-] and not
 * starting with a dot (huggingface_hub's repo id rule, validate_repo_id). */
static bool is_hub_id(const char *arg)
{
	const char *slash = strchr(arg, '/');
	size_t n = strlen(arg);

	if (!slash || strchr(slash + 1, '/') || slash == arg || !slash[1] || arg[0] == '.' ||
	    slash[1] == '.' || n > 200)
		return false;
	for (const char *p = arg; *p; p++)
		if (p != slash && !isalnum((unsigned char)*p) && *p != '.' && *p != '_' &&
		    *p != '-')
			return false;
	return true;
}

static bool is_file(const char *path, struct stat *st)
{
	return stat(path, st) == 0 && S_ISREG(st->st_mode);
}

/* The hub folder of the cache, as huggingface_hub's constants.py finds it. */
static void hub_dir(char *buf, size_t size)
{
	const char *hub = getenv("HF_HUB_CACHE"), *home = getenv("HF_HOME");
	const char *xdg = getenv("XDG_CACHE_HOME"), *user = getenv("HOME");

	if (hub && hub[0])
		snprintf(buf, size, "%s", hub);
	else if (home && home[0])
		snprintf(buf, size, "%s/hub", home);
	else if (xdg && xdg[0])
		snprintf(buf, size, "%s/huggingface/hub", xdg);
	else
		snprintf(buf, size, "%s/.cache/huggingface/hub", user && user[0] ? user : ".");
}

/* Sorts snapshot names for a message that does not depend on readdir's order. */
static int cmp_names(const void *a, const void *b)
{
	return strcmp((const char *)a, (const char *)b);
}

/* The cached config.json of the Hub id arg (is_hub_id): refs/main's snapshot, else the one
 * snapshot that has a config.json; several and no refs/main to choose is an error that
 * lists them, as is none. */
static int resolve_hub(const char *arg, char *path, size_t size, struct gp_error *err)
{
	char hub[2048], repo[2400], ref[2600], rev[128] = "", best[2900] = "";
	char names[8][128], list[8 * 130 + 32] = "";
	int found = 0;
	struct stat st;
	DIR *d;
	struct dirent *de;
	FILE *f;

	hub_dir(hub, sizeof(hub));
	snprintf(repo, sizeof(repo), "%s/models--%.*s--%s", hub, (int)(strchr(arg, '/') - arg), arg,
		 strchr(arg, '/') + 1);
	/* refs/main holds the commit the last download of the main branch resolved to */
	snprintf(ref, sizeof(ref), "%s/refs/main", repo);
	f = fopen(ref, "r");
	if (f) {
		if (fgets(rev, sizeof(rev), f))
			rev[strcspn(rev, " \t\r\n")] = '\0';
		fclose(f);
		if (rev[0] && !strchr(rev, '/')) {
			snprintf(best, sizeof(best), "%s/snapshots/%s/config.json", repo, rev);
			if (is_file(best, &st))
				goto out;
			best[0] = '\0';
		}
	}
	snprintf(ref, sizeof(ref), "%s/snapshots", repo);
	d = opendir(ref);
	while (d && (de = readdir(d)) != NULL) {
		char cand[2900];
		if (de->d_name[0] == '.')
			continue;
		snprintf(cand, sizeof(cand), "%s/%s/config.json", ref, de->d_name);
		if (!is_file(cand, &st))
			continue;
		if (found < 8)
			snprintf(names[found], sizeof(names[0]), "%.127s", de->d_name);
		if (found++ == 0)
			snprintf(best, sizeof(best), "%s", cand);
	}
	if (d)
		closedir(d);
	if (found == 0)
		return gp_error_set(err, GP_EIO, arg, 0, 0,
				    "no such file, and no config.json for the Hub id '%s' in the "
				    "Hugging Face cache (looked in %s/snapshots; gpuplan does not "
				    "download: fetch it with 'huggingface-cli download %s "
				    "config.json')",
				    arg, repo, arg);
	if (found > 1) {
		/* no refs/main to say which revision is main: picking one by its date or name
		 * could plan a model other than the one meant */
		int shown = found < 8 ? found : 8;
		size_t n = 0;
		qsort(names, (size_t)shown, sizeof(names[0]), cmp_names);
		for (int i = 0; i < shown; i++)
			n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%s", i ? ", " : "",
					      names[i]);
		if (found > shown)
			snprintf(list + n, sizeof(list) - n, " and %d more", found - shown);
		return gp_error_set(err, GP_EIO, arg, 0, 0,
				    "the Hugging Face cache holds %d snapshots of '%s' with a "
				    "config.json (%s) and no refs/main to say which is main: give "
				    "the path of one, %s/REV/config.json",
				    found, arg, list, ref);
	}
out:
	if (strlen(best) >= size)
		return gp_error_set(err, GP_EIO, arg, 0, 0, "path too long: %s", best);
	snprintf(path, size, "%s", best);
	return 0;
}

int hf_config_resolve_path(const char *arg, char *path, size_t size, struct gp_error *err)
{
	struct stat st;

	if (!arg || is_file(arg, &st) || !is_hub_id(arg)) {
		snprintf(path, size, "%s", arg ? arg : "");
		return 0;
	}
	return resolve_hub(arg, path, size, err);
}

int hf_config_resolve_value(const char *value, const char *beside, char *path, size_t size,
			    struct gp_error *err)
{
	struct stat st;

	if (is_file(beside, &st) || !is_hub_id(value)) {
		if (strlen(beside) >= size)
			return gp_error_set(err, GP_EIO, beside, 0, 0, "path too long");
		if (path != beside)
			snprintf(path, size, "%s", beside);
		return 0;
	}
	return resolve_hub(value, path, size, err);
}
