/* hf_quant.h - a Hugging Face config's quantization_config read into a struct model_quant.
 *
 * hf_config.c, of the one reader (its hf_int.h includes cJSON.h), copies the keys below
 * out of the quantization_config object into a struct hf_quant_keys; hf_quant.c decides
 * from them what the checkpoint stores and never sees a JSON tree.
 */
#ifndef GPUPLAN_HF_QUANT_H
#define GPUPLAN_HF_QUANT_H

#include <stdbool.h>
#include <stddef.h>

#include "model.h"

#define HF_QUANT_SKIP_MAX 512 /* module patterns read from one list */
#define HF_QUANT_WARN_LEN 200 /* a warning's bytes, with its NUL */

/* The keys of a quantization_config that hf_quant_plan reads. A string is NULL when the
 * key is absent or not a string (it points into the parsed config and lives as long as
 * it); a whole number is 0 when absent, not a whole number or outside its range (given
 * beside it); a flag is true only for the JSON value true. */
struct hf_quant_keys {
	bool present;			 /* quantization_config is an object */
	const char *quant_method;	 /* every format */
	bool load_in_4bit, load_in_8bit; /* bitsandbytes (also without quant_method) */
	const char *bnb_4bit_quant_type; /* bitsandbytes */
	bool bnb_4bit_use_double_quant;	 /* bitsandbytes */
	bool has_block;			 /* fp8: weight_block_size is two numbers */
	double block[2];		 /* fp8: weight_block_size */
	const char *fmt;		 /* fp8 */
	int bits;			 /* gptq/awq: bits, [1, 16] */
	int w_bit;			 /* AutoAWQ's own bits, [1, 16] */
	int group_size;			 /* gptq/awq: group_size, [-1, 2^20] */
	int q_group_size;		 /* AutoAWQ's own group_size, [-1, 2^20] */
	bool lm_head;			 /* gptq: lm_head quantized too */
	const char *format;		 /* compressed-tensors */
	bool has_weights;		 /* config_groups' first group has weights */
	const char *w_type, *w_strategy; /* those weights' type and strategy */
	int w_num_bits;			 /* their num_bits, [1, 32] */
	int w_group_size;		 /* their group_size, [1, 2^20] */
	const char *quant_algo;		 /* modelopt: quant_algo, or quantization's */
	int modelopt_group;		 /* modelopt: group_size of quantization (when an
					    object) or of the config, [1, 2^20] */
	/* hqq: quant_config.weight_quant_params' nbits [1, 8] and group_size [1, 2^20]
	 * (transformers HqqConfig.to_dict writes quant_config, hqq's BaseQuantizeConfig),
	 * hqq_axis0 its axis is 0 (1, the default, when absent);
	 * quant_config.scale_quant_params / zero_quant_params non-null (old hqq's
	 * quant_scale / quant_zero) and offload_meta true; hqq_dynamic: quant_config has no
	 * weight_quant_params but one config a layer name (dynamic_config) */
	int hqq_nbits, hqq_group;
	const char *hqq_bad; /* the weight_quant_params key whose value HqqConfig refuses */
	bool hqq_axis0, hqq_quant_scale, hqq_quant_zero, hqq_offload_meta, hqq_dynamic;
	/* The config's own list of modules left unquantized, the first HF_QUANT_SKIP_MAX of
	 * its strings (skip_more counts the rest): compressed-tensors "ignore", ModelOpt
	 * "exclude_modules" (or "ignore"), transformers' "modules_to_not_convert",
	 * bitsandbytes "llm_int8_skip_modules", HQQ "skip_modules"; skip_key names the key
	 * read. */
	const char *skip_key;
	const char *skip[HF_QUANT_SKIP_MAX];
	int nskip, skip_more;
};

/* The model a list of unconverted modules is matched against: its model_type (which
 * names its modules, hf_quant.c) and its resolved shape and counts. */
struct hf_quant_model {
	const char *model_type;
	const struct model *m;
	const struct model_params *c;
};

/* Decides from k (k->present false: nothing is written) the format *out of a model with
 * routed experts when moe. Writes quant_method as the config spells it into method (msize
 * bytes) and one sentence for the person importing into note (nsize bytes): what was read
 * and how it is planned, or why it is not modelled. Returns 1 when k was present, 0 when
 * not. Never fails. */
int hf_quant_plan(const struct hf_quant_keys *k, bool moe, struct model_quant *out, char *method,
		  size_t msize, char *note, size_t nsize);

/* Applies k's list of unconverted modules (k->nskip patterns) to *q, which hf_quant_plan
 * filled: each pattern is matched, as the method's loader matches it, against the module
 * names of mdl's family, layer by layer; what covers every layer's attention, routed
 * experts or the rest is applied (q->attn_16, q->experts, q->weights bf16); what the plan
 * cannot express (some layers, some projections, a name no module has) is written as a
 * warning into warn (up to maxwarn of them), each naming the pattern and the parameters
 * it may miscount. Returns the warnings written. Never fails. */
int hf_quant_skip(const struct hf_quant_keys *k, const struct hf_quant_model *mdl,
		  struct model_quant *q, char (*warn)[HF_QUANT_WARN_LEN], int maxwarn);

#endif
