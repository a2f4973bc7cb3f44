/* hf_quant.h - a Hugging Face config's quantization_config read into a struct model_quant.
 *
 * Included by hf_config.c alone: it takes the cJSON object hf_config.c has parsed (cJSON.h
 * stays out of headers).
 */
#ifndef GPUPLAN_HF_QUANT_H
#define GPUPLAN_HF_QUANT_H

#include <stdbool.h>
#include <stddef.h>

#include "model.h"

struct cJSON;

/* Reads q (the quantization_config object; NULL or not an object: nothing is written)
 * into *out, for a model with routed experts when moe. Writes quant_method as the config
 * spells it into method (msize bytes) and one sentence for the person importing into note
 * (nsize bytes): what was read and how it is planned, or why it is not modelled. Returns
 * 1 when q was read, 0 when there was none. Never fails. */
int hf_quant_read(const struct cJSON *q, bool moe, struct model_quant *out, char *method,
		  size_t msize, char *note, size_t nsize);

#endif
