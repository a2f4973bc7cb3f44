/* hf_config.h - a Hugging Face config.json turned into a struct model.
 *
 * Knows the key spellings of Llama 1/2/3/4, Mistral (and Mistral 3's text_config),
 * Mixtral, Qwen2/2.5/3 (dense and MoE), Gemma 2/3, Phi-1/1.5/2 (with the old phi-msft
 * keys), Phi-3 (mini, medium and small), PhiMoE, GPT-2, GPT-J, GPT-NeoX, Falcon (old "RW"
 * keys and new ones), OPT, BLOOM, StableLM, StarCoder2, OLMo 2/3, Granite (dense and
 * MoE), Cohere (Command R, R7B), InternLM2, Baichuan, ChatGLM/GLM-4, EXAONE 4, MiniCPM,
 * DeepSeekMoE, DeepSeek-V2/V3, DBRX and gpt-oss; an unknown model_type with Llama's keys
 * reads as Llama, with a warning.
 * The one reader of JSON (hf_config.c, hf_json.c, hf_family.c, hf_hybrid.c), whose private
 * hf_int.h is, with report_json.c (the writer), the only file that includes cJSON.h:
 * hf_quant.c plans a quantization_config from the keys it copies out.
 */
#ifndef GPUPLAN_HF_CONFIG_H
#define GPUPLAN_HF_CONFIG_H

#include <stdbool.h>
#include <stddef.h>

#include "dtype.h"
#include "error.h"
#include "model.h"

#define HF_CONFIG_MAX_WARNINGS 8

/* What an import found besides the language model. */
struct hf_config_info {
	/* Parameters of a multimodal config's vision tower and projector (vision_config),
	 * counted apart from the language model in *out; 0 when there is none or its shape is
	 * not one gpuplan knows (then a warning says so). */
	double vision_params;
	/* What the import assumed or could not model, as messages in git's style ("read as
	 * Llama: ...", "image tokens are not modelled"); nwarnings of them. */
	int nwarnings;
	char warnings[HF_CONFIG_MAX_WARNINGS][200];
	/* quantization_config's quant_method as written ("fp8", "mxfp4", "gptq", "awq",
	 * "bitsandbytes", ...), "" when the config has none; a warning names it. */
	char quant_method[24];
	/* Whether the format is one gpuplan plans, and the linear layers' format (the model's
	 * quant.weights: fp8 for FP8 block or per-tensor, int4 or int8 for GPTQ/AWQ by their
	 * bits, nf4 or int8 for bitsandbytes, nvfp4 for ModelOpt NVFP4, bf16 for gpt-oss's
	 * mxfp4, whose experts alone are mxfp4: the model's quant.experts). */
	bool has_weights;
	enum dtype weights;
};

/* Parses the JSON text (len bytes) into *out (every field of out is written; preset and
 * hf_config are left ""). file names the input in errors (may be NULL). An unknown
 * architecture or a missing field gets an error naming the field it lacks, with the line
 * and column. Returns 0 or -1. */
int hf_config_parse(const char *text, size_t len, const char *file, struct model *out,
		    struct gp_error *err);

/* Reads and parses the file at path. Returns 0 or -1 (GP_EIO when it cannot be read). */
int hf_config_load_file(const char *path, struct model *out, struct gp_error *err);

/* As hf_config_parse and hf_config_load_file, and fills *info (which may be NULL; it is
 * zeroed first) with the warnings and the vision tower's size. */
int hf_config_parse_info(const char *text, size_t len, const char *file, struct model *out,
			 struct hf_config_info *info, struct gp_error *err);
int hf_config_load_file_info(const char *path, struct model *out, struct hf_config_info *info,
			     struct gp_error *err);

/* The config.json that arg names: arg itself when it is a file, else, when arg has the form
 * of a Hugging Face Hub id (ORG/NAME), the cached snapshot's config.json in the local
 * Hugging Face cache (offline; no download): $HF_HUB_CACHE, else $HF_HOME/hub, else
 * $XDG_CACHE_HOME/huggingface/hub, else ~/.cache/huggingface/hub; in it
 * models--ORG--NAME/snapshots/REV/config.json, REV being the commit refs/main names when
 * that snapshot has one, else the one snapshot with a config.json. Writes the path into
 * path (size bytes). Returns 0, or -1 with GP_EIO naming where it looked, or listing the
 * snapshots when there are several and no refs/main to choose. An arg that is neither is
 * returned as it is (the load then reports it missing). */
int hf_config_resolve_path(const char *arg, char *path, size_t size, struct gp_error *err);

/* The same for a scenario's model.hf_config: value as written, beside the path it names
 * beside the scenario file. beside when it is a file or value is no Hub id, else the
 * cached config.json of the Hub id value. path may be beside. Returns 0 or -1. */
int hf_config_resolve_value(const char *value, const char *beside, char *path, size_t size,
			    struct gp_error *err);

#endif
