/* hf_quant.c - quantization_config: the format a checkpoint stores its weights in. */
#include "hf_quant.h"

#include <stdio.h>
#include <string.h>

/* Every method below replaces nn.Linear modules only, never nn.Embedding (transformers'
 * quantizers: replace_with_bnb_linear, replace_with_fp8_linear, replace_with_mxfp4_linear,
 * GPTQ/AWQ quantize the linear layers inside the decoder blocks; compressed-tensors'
 * "ignore" and ModelOpt's "exclude_modules" name lm_head), so the embedding and the head
 * stay 16-bit: embed_16. What they store beside the weights (scales, zeros) is in the
 * bytes a weight costs, dtype_weight_bytes (dtype.c). */

static bool is(const char *s, const char *name)
{
	return s && strcmp(s, name) == 0;
}

static bool is_nocase(const char *s, const char *name)
{
	if (!s)
		return false;
	for (; *s && *name; s++, name++)
		if ((*s | 0x20) != (*name | 0x20))
			return false;
	return *s == *name;
}

/* The linear layers quantized to t, the embedding and head kept 16-bit. */
static void linear(struct model_quant *out, enum dtype t, int group)
{
	out->set = true;
	out->weights = t;
	out->experts = t;
	out->embed_16 = true;
	out->group = group;
}

/* GPTQ (AutoGPTQ qlinear_cuda.py QuantLinear: qweight int32 [in/32*bits, out], qzeros
 * int32 [in/group, out/32*bits], scales fp16 [in/group, out]) and AWQ (AutoAWQ
 * awq/modules/linear/gemm.py WQLinear_GEMM: the same per group, packed along out): bits a
 * weight plus an fp16 scale and a bits-wide zero per group of group_size inputs;
 * group_size -1 is one group per row (desc_act reorders rows, not the storage). */
static void read_gptq(const struct hf_quant_keys *k, const char *method, struct model_quant *out,
		      char *note, size_t nsize)
{
	int bits = k->bits;
	int group = k->group_size;

	if (!bits)
		bits = k->w_bit; /* AutoAWQ's own quant_config.json keys */
	if (!group)
		group = k->q_group_size;
	if (!bits)
		bits = 4;
	if (bits != 4 && bits != 8) {
		snprintf(note, nsize,
			 "quantization_config: %s %d-bit weights have no workload.weights format: "
			 "the config's dtype is assumed",
			 method, bits);
		return;
	}
	linear(out, bits == 4 ? DTYPE_INT4 : DTYPE_INT8, group ? group : 128);
	snprintf(note, nsize,
		 "quantization_config: %s int%d weights, %s, with an fp16 scale and an int%d zero "
		 "a group: workload.weights int%d, weight_group %d; embedding and head bf16%s",
		 method, bits, out->group > 0 ? "grouped" : "one group per row", bits, bits,
		 out->group, k->lm_head ? " (lm_head: true quantizes the head: not modelled)" : "");
}

/* compressed-tensors (llm-compressor; vLLM compressed_tensors.py): config_groups.*.weights
 * {num_bits, type int|float, strategy tensor|channel|group|block|tensor_group, group_size},
 * format float-quantized (fp8), pack-quantized (int4), nvfp4-pack-quantized (E2M1 with an
 * E4M3 scale per 16). The first group's weights stand for all (the checkpoints named in
 * the tests have one). */
static void read_compressed(const struct hf_quant_keys *k, struct model_quant *out, char *note,
			    size_t nsize)
{
	const char *type = k->w_type, *strategy = k->w_strategy;
	const char *format = k->format;
	int bits = k->w_num_bits;
	int group = k->w_group_size;

	if (!k->has_weights) {
		snprintf(note, nsize,
			 "quantization_config: compressed-tensors without config_groups weights: "
			 "the config's dtype is assumed");
		return;
	}
	if (is(type, "float") && bits == 8) {
		linear(out, DTYPE_FP8, 0);
		snprintf(note, nsize,
			 "quantization_config: compressed-tensors fp8 weights, one scale a %s: "
			 "workload.weights fp8; embedding and head bf16",
			 strategy ? strategy : "tensor");
	} else if (is(type, "float") && bits == 4) {
		bool nv = is(format, "nvfp4-pack-quantized") || group == 16;
		linear(out, nv ? DTYPE_NVFP4 : DTYPE_MXFP4, 0);
		snprintf(note, nsize,
			 "quantization_config: compressed-tensors %s weights: workload.weights %s; "
			 "embedding and head bf16",
			 nv ? "nvfp4" : "fp4", nv ? "nvfp4" : "mxfp4");
	} else if (is(type, "int") && (bits == 4 || bits == 8)) {
		/* int weights carry an fp16 scale per group (symmetric: no zero; planned with
		 * the int4 layout's zero, 4 bits a group, 0.4% of a weight at 128) */
		linear(out, bits == 4 ? DTYPE_INT4 : DTYPE_INT8,
		       is(strategy, "group") && group ? group : -1);
		snprintf(note, nsize,
			 "quantization_config: compressed-tensors int%d weights, %s: "
			 "workload.weights int%d, weight_group %d; embedding and head bf16",
			 bits, out->group > 0 ? "grouped" : "one scale a row", bits, out->group);
	} else {
		snprintf(note, nsize,
			 "quantization_config: compressed-tensors %d-bit %s weights have no "
			 "workload.weights format: the config's dtype is assumed",
			 bits, type ? type : "?");
	}
}

/* NVIDIA ModelOpt (TensorRT Model Optimizer, unified HF export: hf_quant_config.json's
 * "quantization" block, copied into config.json as quant_method "modelopt"; vLLM
 * modelopt.py reads quant_algo from either place): FP8 (per-tensor scales), FP8_PB_WO
 * (128x128 blocks), NVFP4 (an E4M3 scale per 16 and an FP32 one per tensor), W4A16_AWQ. */
static void read_modelopt(const struct hf_quant_keys *k, struct model_quant *out, char *note,
			  size_t nsize)
{
	const char *algo = k->quant_algo;
	int group = k->modelopt_group;

	if (is_nocase(algo, "FP8") || is_nocase(algo, "FP8_PB_WO") ||
	    is_nocase(algo, "FP8_PER_CHANNEL_PER_TOKEN")) {
		linear(out, DTYPE_FP8, 0);
	} else if (is_nocase(algo, "NVFP4") || is_nocase(algo, "NVFP4_AWQ")) {
		linear(out, DTYPE_NVFP4, 0);
	} else if (is_nocase(algo, "W4A16_AWQ") || is_nocase(algo, "W4A8_AWQ")) {
		linear(out, DTYPE_INT4, group ? group : 128);
	} else {
		snprintf(note, nsize,
			 "quantization_config: modelopt quant_algo '%.24s' is not one gpuplan "
			 "models: the config's dtype is assumed",
			 algo ? algo : "?");
		return;
	}
	snprintf(note, nsize,
		 "quantization_config: modelopt %.24s weights: workload.weights %s; embedding "
		 "and head bf16",
		 algo, dtype_name(out->weights));
}

int hf_quant_plan(const struct hf_quant_keys *k, bool moe, struct model_quant *out, char *method,
		  size_t msize, char *note, size_t nsize)
{
	const char *m;

	if (!k->present)
		return 0;
	memset(out, 0, sizeof(*out));
	note[0] = '\0';
	m = k->quant_method;
	if (!m) /* bitsandbytes configs written before quant_method existed */
		m = k->load_in_4bit || k->load_in_8bit ? "bitsandbytes" : "?";
	snprintf(method, msize, "%s", m);
	if (is(m, "fp8") || is(m, "fbgemm_fp8")) {
		/* FineGrainedFP8 (transformers finegrained_fp8.py; DeepSeek-V3's checkpoint):
		 * e4m3 with an fp32 scale_inv per weight_block_size block; fbgemm_fp8 (Llama
		 * 3.1 405B FP8) one scale per output row */
		const char *fmt = k->fmt;
		linear(out, DTYPE_FP8, 0);
		if (k->has_block)
			snprintf(note, nsize,
				 "quantization_config: fp8%s%s weights in %gx%g blocks, an fp32 "
				 "scale each: workload.weights fp8; embedding and head bf16",
				 fmt ? " " : "", fmt ? fmt : "", k->block[0], k->block[1]);
		else
			snprintf(note, nsize,
				 "quantization_config: %s weights, one scale a %s: "
				 "workload.weights fp8; embedding and head bf16",
				 m, is(m, "fbgemm_fp8") ? "row" : "tensor");
	} else if (is(m, "mxfp4")) {
		/* OCP Microscaling v1.0: E2M1 elements with an E8M0 scale per 32 (4.25 bits);
		 * transformers' Mxfp4HfQuantizer replaces the MoE experts only, gpt-oss lists
		 * attention, router, embedding and head in modules_to_not_convert (bf16) */
		linear(out, DTYPE_MXFP4, 0);
		if (moe)
			out->weights = DTYPE_BF16;
		snprintf(note, nsize,
			 "quantization_config: mxfp4 %s (4.25 bits with their scales): "
			 "workload.%s mxfp4; %s bf16",
			 moe ? "experts" : "weights", moe ? "expert_weights" : "weights",
			 moe ? "attention, router, embedding and head" : "embedding and head");
	} else if (is(m, "gptq") || is(m, "awq")) {
		read_gptq(k, m, out, note, nsize);
	} else if (is(m, "compressed-tensors")) {
		read_compressed(k, out, note, nsize);
	} else if (is(m, "modelopt")) {
		read_modelopt(k, out, note, nsize);
	} else if (is(m, "bitsandbytes")) {
		const char *type = k->bnb_4bit_quant_type;
		bool dq = k->bnb_4bit_use_double_quant;
		if (k->load_in_4bit) {
			/* bitsandbytes Params4bit: blocks of 64 with an absmax, fp32, or with
			 * double quantization 8-bit with an fp32 scale per 256 (QLoRA,
			 * Dettmers et al. 2023, Section 3); fp4 is stored the same way */
			linear(out, DTYPE_NF4, 0);
			snprintf(note, nsize,
				 "quantization_config: bitsandbytes %s weights in blocks of 64%s: "
				 "workload.weights nf4%s; embedding and head bf16",
				 type ? type : "fp4", dq ? ", double-quantized" : "",
				 dq ? ""
				    : " (4.13 bits; without double quantization they are 4.5)");
		} else if (k->load_in_8bit) {
			/* LLM.int8() (Dettmers et al. 2022): int8 with a scale per row */
			linear(out, DTYPE_INT8, 0);
			snprintf(note, nsize,
				 "quantization_config: bitsandbytes int8 weights (LLM.int8()): "
				 "workload.weights int8; embedding and head bf16");
		} else {
			snprintf(note, nsize,
				 "quantization_config: bitsandbytes without load_in_4bit or "
				 "load_in_8bit: the config's dtype is assumed");
		}
	} else {
		snprintf(note, nsize,
			 "quantization_config: quant_method '%.24s' is not one gpuplan models: the "
			 "config's dtype is assumed",
			 m);
	}
	return 1;
}
