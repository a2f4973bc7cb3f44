/* hf_config.h - a Hugging Face config.json turned into a struct model.
 *
 * Knows the key spellings of Llama 1/2/3, Mistral, Mixtral, Qwen2/2.5/3 (dense and MoE),
 * Gemma 2, Phi-3, GPT-2, Falcon (old "RW" keys and new ones), OPT, BLOOM and
 * DeepSeek-V2/V3. The only file besides report_json.c that includes cJSON.h.
 */
#ifndef GPUPLAN_HF_CONFIG_H
#define GPUPLAN_HF_CONFIG_H

#include <stddef.h>

#include "error.h"
#include "model.h"

/* Parses the JSON text (len bytes) into *out (every field of out is written; preset and
 * hf_config are left ""). file names the input in errors (may be NULL). An unknown
 * architecture or a missing field gets an error naming the field it lacks, with the line
 * and column. Returns 0 or -1. */
int hf_config_parse(const char *text, size_t len, const char *file, struct model *out,
		    struct gp_error *err);

/* Reads and parses the file at path. Returns 0 or -1 (GP_EIO when it cannot be read). */
int hf_config_load_file(const char *path, struct model *out, struct gp_error *err);

#endif
