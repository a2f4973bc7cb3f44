/* hf_config.c - a Hugging Face config.json turned into a struct model.
 *
 * Each family reads the keys its transformers configuration class reads, with the same
 * defaults (configuration_llama.py, configuration_gpt2.py, ...), and sets the details that
 * make its parameter count exact, as its modeling file builds the modules. This file holds
 * the entry points, the family table and its dispatch (read_family), the quantization_config
 * keys and the local Hub cache; the readers are in hf_family.c and hf_hybrid.c, the
 * cJSON-facing helpers in hf_json.c. The cJSON tree never leaves these files (hf_int.h).
 */
#include "hf_int.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "file.h"
#include "hf_quant.h"

#define HF_CONFIG_MAX_BYTES (4u << 20) /* config.json files are a few kilobytes */

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
	/* skip_modules: transformers HqqConfig (to_dict writes it beside quant_config) */
	static const char *const keys[] = {"ignore",
					   "exclude_modules",
					   "modules_to_not_convert",
					   "llm_int8_skip_modules",
					   "skip_modules",
					   NULL};
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

/* HQQ's quant_config (hf_quant.h): transformers' HqqConfig.to_dict
 * (src/transformers/utils/quantization_config.py) writes {"quant_config", "quant_method",
 * "skip_modules"}, quant_config being hqq's BaseQuantizeConfig (hqq/core/quantize.py):
 * weight_quant_params {nbits, channel_wise, group_size, optimize, round_zero, axis,
 * view_as_float}, scale_quant_params / zero_quant_params (null unless quant_scale /
 * quant_zero, old hqq) and offload_meta; with dynamic_config, one such config a layer
 * name and no weight_quant_params. A key present with a value HqqConfig refuses (nbits
 * not 8/4/3/2/1 is left to hf_quant.c) is named in hqq_bad. */
static void read_hqq_keys(const cJSON *q, struct hf_quant_keys *k)
{
	const cJSON *qc = cJSON_GetObjectItemCaseSensitive(q, "quant_config");
	const cJSON *wq = cJSON_GetObjectItemCaseSensitive(qc, "weight_quant_params");
	const cJSON *it;

	if (!cJSON_IsObject(qc))
		return;
	if (!cJSON_IsObject(wq)) {
		k->hqq_dynamic = qc->child && cJSON_IsObject(qc->child);
		return;
	}
	it = cJSON_GetObjectItemCaseSensitive(wq, "nbits");
	if (it && !(k->hqq_nbits = quant_int(wq, "nbits", 1, 8)))
		k->hqq_bad = "nbits";
	/* group_size null: one group the whole axis (hqq Quantizer.quantize), not modelled */
	it = cJSON_GetObjectItemCaseSensitive(wq, "group_size");
	if (it && !(k->hqq_group = quant_int(wq, "group_size", 1, 1 << 20)) && !k->hqq_bad)
		k->hqq_bad = "group_size";
	it = cJSON_GetObjectItemCaseSensitive(wq, "axis");
	if (it && !cJSON_IsNull(it)) { /* HqqConfig: None is 1; 0 and 1 allowed */
		k->hqq_axis0 = cJSON_IsNumber(it) && it->valuedouble == 0;
		if (!k->hqq_axis0 && !(cJSON_IsNumber(it) && it->valuedouble == 1) && !k->hqq_bad)
			k->hqq_bad = "axis";
	}
	it = cJSON_GetObjectItemCaseSensitive(qc, "scale_quant_params");
	k->hqq_quant_scale = it && !cJSON_IsNull(it);
	it = cJSON_GetObjectItemCaseSensitive(qc, "zero_quant_params");
	k->hqq_quant_zero = it && !cJSON_IsNull(it);
	k->hqq_offload_meta = quant_true(qc, "offload_meta");
}

/* The keys of the quantization_config object q that hf_quant.c plans with (hf_quant.h
 * names each format's): the four formats' nested objects and arrays walked here, so that
 * the reader behind hf_int.h stays the one that sees JSON. */
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
	read_hqq_keys(q, k);
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
		hf_warn(c, "%s", skips[i]);
	hf_warn(c, "%s", note);
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
	int r = hf_enter(c, "text_config");

	if (r < 0)
		return -1;
	if (r == 0)
		return hf_fail_at(c, hf_koff(c, NULL), "text_config",
				  "missing 'text_config' (a %s config needs it)", outer);
	if (text == FAM_MISTRAL && hf_has_key(c, "model_type") &&
	    cJSON_IsString(hf_item(c, "model_type")) &&
	    strcmp(hf_item(c, "model_type")->valuestring, "mistral") != 0 &&
	    strcmp(hf_item(c, "model_type")->valuestring, "ministral3") != 0 &&
	    strcmp(hf_item(c, "model_type")->valuestring, "ministral") != 0)
		return hf_fail_at(c, hf_koff(c, "model_type"), "model_type",
				  "unknown text_config model_type '%.80s' in a %s config",
				  hf_item(c, "model_type")->valuestring, outer);
	c->type = text == FAM_GEMMA3_TEXT   ? "gemma3_text"
		  : text == FAM_LLAMA4_TEXT ? "llama4_text"
					    : "mistral";
	if (read_family(c, text, m))
		return -1;
	if (!hf_item(c, "tie_word_embeddings")) {
		const cJSON *tie = cJSON_GetObjectItemCaseSensitive(c->top, "tie_word_embeddings");
		if (cJSON_IsBool(tie))
			m->tied_embeddings = cJSON_IsTrue(tie);
	}
	m->vision_params = hf_vision_params(c, m->hidden);
	if (c->info)
		c->info->vision_params = m->vision_params;
	if (m->vision_params > 0)
		hf_warn(c,
			"%s is multimodal: the language model is read from text_config, its vision "
			"tower (%.0f) into model.vision_params; image tokens are not modelled "
			"(count them in the prompt)",
			outer, m->vision_params);
	else
		hf_warn(c,
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
		if (hf_read_llama_like(c, m, true, false, 2048))
			return -1;
		/* Phi-3-mini attends over a sliding window of sliding_window tokens. */
		return fam == FAM_PHI3 ? hf_opt_int(c, "sliding_window", 0, 0, &m->sliding_window)
				       : 0;
	case FAM_MISTRAL: /* MistralConfig and MixtralConfig default to 4096 x 32 tokens */
		if (hf_read_llama_like(c, m, true, false, 131072))
			return -1;
		return hf_opt_int(c, "sliding_window", 0, 0, &m->sliding_window);
	case FAM_MIXTRAL:
		/* Each of num_local_experts experts is an MLP of intermediate_size
		 * (modeling_mixtral.py); every layer is MoE. */
		if (hf_read_llama_like(c, m, true, false, 131072) ||
		    hf_read_ffn_experts(c, m, "num_local_experts", NULL) ||
		    hf_opt_int(c, "sliding_window", 0, 0, &m->sliding_window))
			return -1;
		return 0;
	case FAM_QWEN2:
		/* Qwen2Attention: q_proj, k_proj, v_proj with bias, o_proj without. */
		if (hf_read_llama_like(c, m, true, false, 32768))
			return -1;
		m->qkv_bias = true;
		m->attention_bias = false;
		return hf_read_qwen_window(c, m);
	case FAM_QWEN2_MOE:
		/* Qwen2-MoE (modeling_qwen2_moe.py, Qwen1.5-MoE and Qwen2-57B-A14B): Qwen2's
		 * attention (q, k, v biases); a sparse block of num_experts routed experts of
		 * moe_intermediate_size, a router gate, one shared expert of
		 * shared_expert_intermediate_size and its hidden x 1 sigmoid gate; which layers
		 * are sparse as in Qwen3-MoE (decoder_sparse_step, mlp_only_layers). */
		if (hf_read_llama_like(c, m, false, false, 32768) || hf_read_qwen_window(c, m) ||
		    hf_read_qwen3_moe(c, m) ||
		    hf_opt_int(c, "shared_expert_intermediate_size", 0, 0, &m->moe.shared_ffn))
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
		if (hf_read_llama_like(c, m, fam == FAM_QWEN3, false, 32768) ||
		    hf_read_qwen_window(c, m))
			return -1;
		m->qk_norm = true;
		return fam == FAM_QWEN3_MOE ? hf_read_qwen3_moe(c, m) : 0;
	case FAM_GEMMA:
	case FAM_GEMMA2:
		/* GeGLU MLP (gate, up, down: gated whatever hidden_activation says); head_dim
		 * default 256; embeddings tied by default. Gemma 2 adds post-attention and
		 * post-feedforward norms: 4 RMSNorms a layer (modeling_gemma2.py) and
		 * alternates sliding-window (4096) and global layers (Gemma2Config's
		 * layer_types: sliding first). */
		if (hf_read_llama_like(c, m, true, true, 8192))
			return -1;
		if (!m->head_dim)
			m->head_dim = 256;
		m->norms_per_layer = fam == FAM_GEMMA2 ? 4 : 2;
		return fam == FAM_GEMMA2 ? hf_mixed_window(c, m, 2) : 0;
	case FAM_GPT2:
		return hf_read_gpt2(c, m);
	case FAM_FALCON:
		return hf_read_falcon(c, m);
	case FAM_OPT:
		return hf_read_opt(c, m);
	case FAM_BLOOM:
		return hf_read_bloom(c, m);
	case FAM_DEEPSEEK:
		return hf_read_deepseek(c, m);
	case FAM_DEEPSEEK_MOE:
		/* DeepSeekMoE (DeepSeek's modeling_deepseek.py for deepseek-moe-16b): Llama's
		 * attention, and DeepSeek-V2's fine-grained routed and shared experts; no MLA. */
		return hf_read_deepseek_moe(c, m);
	case FAM_OLMO2:
	case FAM_OLMO3:
		/* OLMo 2 (modeling_olmo2.py) and OLMo 3 (modeling_olmo3.py): Llama's keys;
		 * q_norm and k_norm are RMSNorms over the whole q and k projections; the two
		 * block norms sit after attention and MLP (post_attention_layernorm,
		 * post_feedforward_layernorm), as many as Llama's. OLMo 3 adds sliding-window
		 * layers (layer_types). */
		if (hf_read_llama_like(c, m, true, false, 4096))
			return -1;
		m->qk_norm = true;
		m->qk_norm_full = true;
		/* Olmo3Config: every 4th layer full, the others sliding_window 4096 */
		return hf_mixed_window(c, m, fam == FAM_OLMO3 ? 4 : 0);
	case FAM_PHI:
		return hf_read_phi(c, m);
	case FAM_PHIMOE:
		/* PhiMoE (modeling_phimoe.py, Phi-3.5-MoE): Mixtral's experts and router;
		 * LayerNorms with biases; q, k, v, o biases (attention_bias); lm_head with a bias
		 * (lm_head_bias). */
		if (hf_read_llama_like(c, m, true, false, 131072) ||
		    hf_read_ffn_experts(c, m, "num_local_experts", NULL) ||
		    hf_opt_bool(c, "lm_head_bias", false, &m->head_bias) ||
		    hf_opt_int(c, "sliding_window", 0, 0, &m->sliding_window))
			return -1;
		m->norm = NORM_LAYERNORM;
		return 0;
	case FAM_STARCODER2:
		return hf_read_starcoder2(c, m);
	case FAM_GPT_NEOX:
		return hf_read_gpt_neox(c, m);
	case FAM_GPTJ:
		return hf_read_gptj(c, m);
	case FAM_STABLELM:
		return hf_read_stablelm(c, m);
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
		if (hf_read_llama_like(c, m, true, fam == FAM_MINICPM, 4096) ||
		    (fam == FAM_INTERNLM2 && hf_opt_bool(c, "bias", false, &m->attention_bias)))
			return -1;
		if (fam == FAM_BAICHUAN && !hf_item(c, "max_position_embeddings") &&
		    hf_opt_int(c, "model_max_length", 1, 4096, &m->max_context))
			return -1;
		if (fam == FAM_MINICPM && hf_item(c, "num_experts")) {
			/* MiniCPM-MoE-8x2B: every layer's MLP is num_experts experts of
			 * intermediate_size, Mixtral-style. */
			if (hf_read_ffn_experts(c, m, "num_experts", NULL))
				return -1;
		}
		return 0;
	case FAM_GRANITEMOE:
		/* GraniteMoE (modeling_granitemoe.py): ParallelExperts input_linear (2 x
		 * intermediate_size) and output_linear per expert, a bias-free router; every
		 * layer MoE; shared_intermediate_size adds one shared expert
		 * (granitemoeshared). */
		if (hf_read_llama_like(c, m, true, false, 4096) ||
		    hf_read_ffn_experts(c, m, "num_local_experts", NULL) ||
		    hf_opt_int(c, "shared_intermediate_size", 0, 0, &m->moe.shared_ffn))
			return -1;
		m->moe.shared = m->moe.shared_ffn > 0;
		return 0;
	case FAM_COHERE:
	case FAM_COHERE2:
		/* Command R (modeling_cohere.py) and R7B (modeling_cohere2.py): one
		 * input_layernorm feeds attention and MLP in parallel; CohereLayerNorm has a
		 * weight and no bias (so it counts as RMSNorm does); use_qk_norm adds such norms
		 * over all of q and k; embeddings tied by default. */
		if (hf_read_llama_like(c, m, true, true, 8192) ||
		    hf_opt_bool(c, "use_qk_norm", false, &m->qk_norm))
			return -1;
		m->qk_norm_full = m->qk_norm;
		m->parallel_block = true;
		m->norms_per_layer = 1;
		/* Cohere2Config: sliding_window_pattern 4, every 4th layer global */
		return hf_mixed_window(c, m, fam == FAM_COHERE2 ? 4 : 0);
	case FAM_CHATGLM:
		return hf_read_chatglm(c, m);
	case FAM_GLM4:
		/* GLM-4-0414 (modeling_glm4.py): q, k, v biases with attention_bias, o_proj
		 * without; fused gate_up_proj; four RMSNorms a layer (input, post_self_attn,
		 * post_attention, post_mlp). */
		if (hf_read_llama_like(c, m, true, false, 32768))
			return -1;
		m->qkv_bias = m->attention_bias;
		m->attention_bias = false;
		m->norms_per_layer = 4;
		return 0;
	case FAM_EXAONE4:
		/* EXAONE 4.0 (modeling_exaone4.py): q_norm and k_norm over head_dim, as Qwen3;
		 * the block norms after attention and MLP, two a layer; 3:1 sliding-window and
		 * global layers in the 32B model. */
		if (hf_read_llama_like(c, m, true, false, 65536))
			return -1;
		m->qk_norm = true;
		/* Exaone4Config: sliding_window_pattern 4 ("LLLG") */
		return hf_mixed_window(c, m, 4);
	case FAM_DBRX:
		return hf_read_dbrx(c, m);
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
		if (hf_read_llama_like(c, m, true, true, 131072))
			return -1;
		if (!m->head_dim)
			m->head_dim = 256;
		m->norms_per_layer = 4;
		m->qk_norm = true;
		/* Gemma3TextConfig: sliding_window_pattern 6 */
		return hf_mixed_window(c, m, 6);
	case FAM_LLAMA4_TEXT:
		return hf_read_llama4(c, m);
	case FAM_GPT_OSS:
		return hf_read_gpt_oss(c, m);
	case FAM_PHI3_SMALL:
		return hf_read_phi3_small(c, m);
	case FAM_MAMBA:
		return hf_read_mamba(c, m, true);
	case FAM_FALCON_MAMBA:
		return hf_read_mamba(c, m, false);
	case FAM_MAMBA2:
		return hf_read_mamba2(c, m);
	case FAM_NEMOTRON_H:
		return hf_read_nemotron_h(c, m);
	case FAM_JAMBA:
		return hf_read_jamba(c, m);
	case FAM_DECILM:
		return hf_read_decilm(c, m);
	case FAM_QWEN3_NEXT:
		return hf_read_qwen3_next(c, m);
	}
	return -1;
}

/* The family from model_type, else from the first known name in architectures. */
static int find_family(struct hf *c, enum family *fam)
{
	const cJSON *type = hf_item(c, "model_type"), *archs = hf_item(c, "architectures"), *a;

	if (!cJSON_IsArray(archs))
		archs = NULL;

	if (type && !cJSON_IsString(type))
		return hf_fail_at(c, hf_koff(c, "model_type"), "model_type",
				  "'model_type' must be a string, not %s", hf_kind_name(type));
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
					hf_warn(
					    c,
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
				return hf_fail_at(
				    c, hf_koff(c, "model_type"), "model_type",
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
			if (!cJSON_IsNumber(hf_item(c, llama_keys[i])))
				return hf_fail_at(
				    c, hf_koff(c, "model_type"), "model_type",
				    "unknown model_type '%.60s', and not Llama-shaped: it lacks "
				    "'%s' (give model.params and the shape fields instead; the "
				    "families gpuplan reads are in gpuplan(1), import)",
				    type->valuestring, llama_keys[i]);
		*fam = FAM_LLAMA;
		c->type = type->valuestring;
		hf_warn(c,
			"unknown model_type '%.60s': read as Llama (attention, SwiGLU MLP and "
			"RMSNorm as modeling_llama.py builds them); check the parameter count",
			type->valuestring);
		return 0;
	}
	return hf_fail_at(
	    c, hf_koff(c, NULL), "model_type",
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
		const cJSON *it = hf_item(c, keys[i]);
		if (cJSON_IsNumber(it) && it->valuedouble > 0)
			return true;
		given |= cJSON_IsNumber(it);
	}
	/* transformers' GPT2Config defaults resid/embd/attn_pdrop to 0.1 when absent */
	return !given && strcmp(c->type, "gpt2") == 0;
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
		if (hf_item(c, keys[i])) {
			key = keys[i];
			break;
		}
	if (!*key)
		key = keys[0];
	return hf_fail_at(c, hf_koff(c, key), key, "'%s': %s", key, msg);
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
		return hf_fail_at(&c, 0, "", "empty config (expected a JSON object)");
	}
	norm = hf_normalise_tokens(text, len);
	if (!norm) {
		if (err)
			gp_error_set(err, GP_EIO, file, 0, 0, "out of memory");
		return -1;
	}
	root = cJSON_ParseWithLengthOpts(norm, len, &end, false);
	if (!root) {
		size_t rest;
		off = end && end >= norm && end <= norm + len ? (size_t)(end - norm) : 0;
		for (rest = off; rest < len && hf_is_space(text[rest]); rest++)
			;
		if (rest >= len)
			rc = hf_fail_at(&c, len, "", "invalid JSON: unexpected end of the text");
		else if (text[off] > ' ' && text[off] < 0x7f)
			rc = hf_fail_at(&c, off, "", "invalid JSON: unexpected '%c'", text[off]);
		else
			rc = hf_fail_at(&c, off, "", "invalid JSON: unexpected byte 0x%02x",
					(unsigned char)text[off]);
		goto out;
	}
	off = (size_t)(end - norm);
	while (off < len && hf_is_space(text[off]))
		off++;
	if (off < len && text[off] != '\0') {
		rc = hf_fail_at(&c, off, "", "invalid JSON: text after the closing brace");
		goto out;
	}
	if (!cJSON_IsObject(root)) {
		rc = hf_fail_at(&c, 0, "", "expected a JSON object, not %s", hf_kind_name(root));
		goto out;
	}
	if (hf_refuse_repeats(&c, root) != 0)
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
