/* hf_int.h - what hf_config.c, hf_json.c, hf_family.c and hf_hybrid.c share: the config
 * being read (struct hf, its cJSON tree), the families, and the hf_ functions between the
 * files. The reader's one include of cJSON.h: the tree never leaves these four files.
 */
#ifndef GPUPLAN_HF_INT_H
#define GPUPLAN_HF_INT_H

#include "hf_config.h"

#include <cJSON.h>
#include <stdbool.h>
#include <stddef.h>

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

/* hf_json.c: positions, typed getters, bare tokens, repeated members */
bool hf_is_space(char ch);
size_t hf_koff(const struct hf *c, const char *key);
int hf_fail_at(struct hf *c, size_t off, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
const cJSON *hf_item(const struct hf *c, const char *key);
const char *hf_kind_name(const cJSON *it);
int hf_key_max(const char *key);
int hf_get_int(struct hf *c, const char *key, int min, int *out);
int hf_need_int(struct hf *c, const char *key, const char *alt, int min, int *out);
int hf_opt_int(struct hf *c, const char *key, int min, int def, int *out);
int hf_opt_bool(struct hf *c, const char *key, bool def, bool *out);
bool hf_has_key(const struct hf *c, const char *key);
void hf_warn(struct hf *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int hf_enter(struct hf *c, const char *key);
size_t hf_array_elem_offset(const char *t, size_t len, size_t off, int n);
int hf_opt_int2(struct hf *c, const char *key, const char *alt, int min, int def, int *out);
int hf_opt_bool2(struct hf *c, const char *key, const char *alt, bool def, bool *out);
int hf_block_bool(struct hf *c, const cJSON *obj, const char *key, bool def, bool *out);
char *hf_normalise_tokens(const char *t, size_t n);
int hf_refuse_repeats(struct hf *c, const cJSON *root);

/* hf_family.c: the dense and MoE families, the vision tower */
int hf_read_max_context(struct hf *c, int def, int *out);
int hf_read_llama_like(struct hf *c, struct model *m, bool need_ffn, bool tied_default,
		       int context_default);
int hf_read_qwen_window(struct hf *c, struct model *m);
int hf_read_ffn_experts(struct hf *c, struct model *m, const char *key, const char *alt);
int hf_read_qwen3_moe(struct hf *c, struct model *m);
int hf_read_gpt2(struct hf *c, struct model *m);
int hf_read_falcon(struct hf *c, struct model *m);
int hf_read_opt(struct hf *c, struct model *m);
int hf_read_bloom(struct hf *c, struct model *m);
int hf_read_deepseek(struct hf *c, struct model *m);
int hf_layer_types_count(struct hf *c, const struct model *m, const char *const *match,
			 const char *other, int *matched);
int hf_mixed_window(struct hf *c, struct model *m, int period);
int hf_read_phi(struct hf *c, struct model *m);
int hf_read_gptj(struct hf *c, struct model *m);
int hf_read_gpt_neox(struct hf *c, struct model *m);
int hf_read_stablelm(struct hf *c, struct model *m);
int hf_read_starcoder2(struct hf *c, struct model *m);
int hf_read_chatglm(struct hf *c, struct model *m);
int hf_read_dbrx(struct hf *c, struct model *m);
int hf_read_llama4(struct hf *c, struct model *m);
int hf_read_gpt_oss(struct hf *c, struct model *m);
int hf_read_phi3_small(struct hf *c, struct model *m);
double hf_vision_params(struct hf *c, int text_hidden);
int hf_read_deepseek_moe(struct hf *c, struct model *m);

/* hf_hybrid.c: the state-space and hybrid stacks, DeciLM */
int hf_read_mamba(struct hf *c, struct model *m, bool tied_default);
int hf_read_mamba2(struct hf *c, struct model *m);
int hf_read_nemotron_h(struct hf *c, struct model *m);
int hf_read_jamba(struct hf *c, struct model *m);
int hf_read_decilm(struct hf *c, struct model *m);
int hf_read_qwen3_next(struct hf *c, struct model *m);

#endif
