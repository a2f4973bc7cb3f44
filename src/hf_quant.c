/* hf_quant.c - quantization_config: the format a checkpoint stores its weights in. */
#include "hf_quant.h"

#include <fnmatch.h>
#include <regex.h>
#include <stdio.h>
#include <string.h>

/* Every method below replaces nn.Linear modules only, never nn.Embedding (transformers'
 * quantizers: replace_with_bnb_linear, replace_with_fp8_linear, replace_with_mxfp4_linear,
 * GPTQ/AWQ quantize the linear layers inside the decoder blocks; compressed-tensors'
 * "ignore" and ModelOpt's "exclude_modules" name lm_head), so the embedding and the head
 * stay 16-bit: embed_16. What they store beside the weights (scales, zeros) is in the
 * bytes a weight costs, dtype_weight_bytes (dtype.c); a layout other than GPTQ's (HQQ's)
 * in model_quant's elem_bits and group_bits. */

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

/* The grouped integer format of `bits` (GPTQ's 2, 3, 4, 8), or DTYPE_COUNT for none. */
static enum dtype int_format(int bits)
{
	switch (bits) {
	case 2:
		return DTYPE_INT2;
	case 3:
		return DTYPE_INT3;
	case 4:
		return DTYPE_INT4;
	case 8:
		return DTYPE_INT8;
	default:
		return DTYPE_COUNT;
	}
}

/* GPTQ (AutoGPTQ auto_gptq/nn_modules/qlinear/qlinear_cuda.py QuantLinear.__init__, bits
 * 2/3/4/8 only: qweight int32 [in / 32 x bits, out], qzeros int32 [in / group, out / 32 x
 * bits], scales fp16 [in / group, out], g_idx int32 [in]; GPTQModel's v1 checkpoints the
 * same) and AWQ (AutoAWQ awq/modules/linear/gemm.py WQLinear_GEMM: the same per group,
 * packed along out): bits a weight plus an fp16 scale and a bits-wide zero per group of
 * group_size inputs; group_size -1 is one group per row. desc_act reorders the rows through
 * g_idx, which AutoGPTQ stores with or without it, and sym stores qzeros all the same
 * (pack()): neither changes the bytes. dtype_weight_bytes has the sum. */
static void read_gptq(const struct hf_quant_keys *k, const char *method, struct model_quant *out,
		      char *note, size_t nsize)
{
	int bits = k->bits;
	int group = k->group_size;
	enum dtype t;

	if (!bits)
		bits = k->w_bit; /* AutoAWQ's own quant_config.json keys */
	if (!group)
		group = k->q_group_size;
	if (!bits)
		bits = 4;
	t = int_format(bits);
	/* AWQ's 2/3-bit are left out: AutoAWQ's GEMM layout was read for 4 bits only */
	if (t == DTYPE_COUNT || (is(method, "awq") && bits != 4 && bits != 8)) {
		snprintf(note, nsize,
			 "quantization_config: %s %d-bit weights have no workload.weights format "
			 "(%s): the config's dtype is assumed",
			 method, bits,
			 is(method, "awq") ? "AWQ: 4 and 8" : "GPTQ has 2, 3, 4 and 8");
		return;
	}
	linear(out, t, group ? group : 128);
	snprintf(note, nsize,
		 "quantization_config: %s int%d weights, %s, with an fp16 scale and an int%d zero "
		 "a group: workload.weights int%d, weight_group %d; embedding and head bf16%s",
		 method, bits, out->group > 0 ? "grouped" : "one group per row", bits, bits,
		 out->group, k->lm_head ? " (lm_head: true quantizes the head: not modelled)" : "");
}

/* HQQ (transformers HqqConfig: nbits 8/4/3/2/1, group_size 64, axis 1 by default; its
 * quant_config is hqq's BaseQuantizeConfig, weight_quant_params {nbits, group_size, axis},
 * older ones with scale/zero_quant_params and offload_meta). hqq/core/quantize.py
 * Quantizer.quantize keeps a scale and a zero a group (fp16 once on the GPU, to_inplace);
 * bitpack.py packs 8, 4 and 2 bits in uint8 and 3 bits ten to an int32 (pack_3bit_32: 3.2
 * bits, 2 of every 32 unused). quant_zero / quant_scale (old hqq: quantize the zero or
 * scale to 8 bits, meta_zero/meta_scale) make that part of a group 8 bits, their own
 * per-tensor meta left out; offload_meta keeps scale and zero in host memory (not modelled: counted
 * on the GPU). */
static void read_hqq(const struct hf_quant_keys *k, struct model_quant *out, char *note,
		     size_t nsize)
{
	int bits = k->hqq_nbits, group = k->hqq_group;
	bool assumed = !bits;
	enum dtype t;

	if (!bits) /* the keys were not read: HqqConfig's defaults */
		bits = 4;
	if (!group)
		group = 64;
	t = bits == 1 ? DTYPE_COUNT : int_format(bits);
	if (k->hqq_dynamic) {
		snprintf(note, nsize,
			 "quantization_config: hqq per-layer configs (dynamic_config) have no "
			 "workload.weights format: the config's dtype is assumed");
		return;
	}
	if (k->hqq_bad) { /* HqqConfig / BaseQuantizeConfig would refuse it */
		snprintf(note, nsize,
			 "quantization_config: hqq weight_quant_params.%s is not one HqqConfig "
			 "takes (nbits 8/4/3/2/1, group_size > 0, axis 0 or 1): the config's "
			 "dtype is assumed",
			 k->hqq_bad);
		return;
	}
	if (t == DTYPE_COUNT) {
		snprintf(note, nsize,
			 "quantization_config: hqq %d-bit weights have no workload.weights format "
			 "(%s): the config's dtype is assumed",
			 bits, bits == 1 ? "1-bit is not modelled" : "HqqConfig has 8, 4, 3, 2, 1");
		return;
	}
	linear(out, t, group);
	/* 3-bit: axis 1 groups rows of group_size (W.reshape([-1, group_size])), packed ten
	 * rows to an int32 row, the row count padded to ten: 3.2 bits; axis 0 packs the
	 * group_size values of each column, padded to ceil(group_size / 10) int32s */
	if (bits == 3)
		out->elem_bits = k->hqq_axis0 ? 32.0 * ((group + 9) / 10) / group : 3.2;
	out->group_bits = (k->hqq_quant_scale ? 8 : 16) + (k->hqq_quant_zero ? 8 : 16);
	snprintf(note, nsize,
		 "quantization_config: hqq int%d weights%s, groups of %d with a %g-bit scale "
		 "and zero: workload.weights int%d, weight_group %d; embedding and head bf16%s",
		 bits, bits == 3 ? " ten to an int32" : "", group, out->group_bits, bits, group,
		 k->hqq_offload_meta ? " (offload_meta's host copy not modelled: on the GPU)" : "");
	if (assumed) {
		size_t n = strlen(note);
		snprintf(note + n, nsize - n,
			 " (nbits and group_size not read: HqqConfig's 4 and 64 assumed)");
	}
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
	} else if (is(m, "hqq")) {
		read_hqq(k, out, note, nsize);
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

/* ---- the config's list of modules left unquantized ---- */

/* How a family names its modules, as transformers' modeling files (and the checkpoints
 * they load) spell them: modeling_llama.py (LlamaAttention q_proj/k_proj/v_proj/o_proj,
 * LlamaMLP gate_proj/up_proj/down_proj, model.embed_tokens, lm_head), modeling_mixtral.py
 * and modeling_phimoe.py (block_sparse_moe.gate, block_sparse_moe.experts.N.w1/w2/w3),
 * modeling_qwen2_moe.py (mlp.gate, mlp.experts.N.*_proj, mlp.shared_expert.*_proj,
 * mlp.shared_expert_gate), modeling_qwen3_moe.py, modeling_deepseek_v3.py (MLA q_a_proj,
 * q_b_proj, kv_a_proj_with_mqa, kv_b_proj, o_proj; mlp.gate the router; mlp.experts.N;
 * mlp.shared_experts), modeling_gpt_oss.py (mlp.router; mlp.experts, one module holding
 * gate_up_proj and down_proj), modeling_llama4.py (feed_forward.router,
 * feed_forward.experts fused, feed_forward.shared_expert; the multimodal checkpoint under
 * language_model.model.layers, as are mistral3's and gemma3's), modeling_phi3.py
 * (qkv_proj, gate_up_proj), modeling_glm4.py (gate_up_proj), modeling_starcoder2.py
 * (mlp.c_fc/c_proj), modeling_phi.py (dense, fc1/fc2), modeling_gpt2.py (attn.c_attn,
 * attn.c_proj, mlp.c_fc, mlp.c_proj, transformer.wte), modeling_falcon.py and
 * modeling_bloom.py (self_attention.query_key_value/dense, mlp.dense_h_to_4h/dense_4h_to_h),
 * modeling_gpt_neox.py (gpt_neox.layers, attention.query_key_value, embed_in, embed_out),
 * modeling_gptj.py (attn.out_proj, mlp.fc_in/fc_out), modeling_opt.py (model.decoder,
 * fc1/fc2), modeling_dbrx.py (transformer.blocks, norm_attn_norm.attn.Wqkv, ffn.experts.mlp,
 * ffn.router.layer), modeling_granitemoe.py (block_sparse_moe.input_linear/output_linear,
 * router.layer); remote code: InternLM2 (attention.wqkv/wo, feed_forward.w1/w2/w3,
 * tok_embeddings, output), Baichuan (self_attn.W_pack), ChatGLM
 * (transformer.encoder.layers, transformer.output_layer). Lists are space-separated module
 * names after the layer prefix ("%d" the layer); "#" in an expert's name is its index. A
 * family not below (the SSM hybrids among them) is matched with the Llama names, and a
 * pattern that then matches nothing is said so. */
struct family_names {
	const char *types; /* model_type values, space-separated, between spaces */
	const char *layer, *attn, *mlp, *expert, *shared, *router, *embed, *head;
};

#define LLAMA_ATTN  "self_attn.q_proj self_attn.k_proj self_attn.v_proj self_attn.o_proj"
#define LLAMA_MLP   "mlp.gate_proj mlp.up_proj mlp.down_proj"
#define QWEN_EXPERT "mlp.experts.#.gate_proj mlp.experts.#.up_proj mlp.experts.#.down_proj"
#define LLAMA_LAYER "model.layers.%d."
#define MM_LAYER    "language_model.model.layers.%d."
#define HF_EMBED    "model.embed_tokens"
#define FALCON_ATTN "self_attention.query_key_value self_attention.dense"
#define FALCON_MLP  "mlp.dense_h_to_4h mlp.dense_4h_to_h"
#define MIXTRAL_EXP                                                                                \
	"block_sparse_moe.experts.#.w1 block_sparse_moe.experts.#.w2 "                             \
	"block_sparse_moe.experts.#.w3"

static const struct family_names families[] = {
    {" qwen2_moe qwen3_moe qwen3_next ", LLAMA_LAYER, LLAMA_ATTN, LLAMA_MLP, QWEN_EXPERT,
     "mlp.shared_expert.gate_proj mlp.shared_expert.up_proj mlp.shared_expert.down_proj",
     "mlp.gate mlp.shared_expert_gate", HF_EMBED, "lm_head"},
    {" deepseek_v2 deepseek_v3 ", LLAMA_LAYER,
     "self_attn.q_a_proj self_attn.q_b_proj self_attn.kv_a_proj_with_mqa self_attn.kv_b_proj "
     "self_attn.o_proj",
     LLAMA_MLP, QWEN_EXPERT,
     "mlp.shared_experts.gate_proj mlp.shared_experts.up_proj mlp.shared_experts.down_proj",
     "mlp.gate", HF_EMBED, "lm_head"},
    {" deepseek ", LLAMA_LAYER, LLAMA_ATTN, LLAMA_MLP, QWEN_EXPERT,
     "mlp.shared_experts.gate_proj mlp.shared_experts.up_proj mlp.shared_experts.down_proj",
     "mlp.gate", HF_EMBED, "lm_head"},
    {" mixtral phimoe ", LLAMA_LAYER, LLAMA_ATTN, LLAMA_MLP, MIXTRAL_EXP, "",
     "block_sparse_moe.gate", HF_EMBED, "lm_head"},
    {" gpt_oss ", LLAMA_LAYER, LLAMA_ATTN, LLAMA_MLP, "mlp.experts", "", "mlp.router", HF_EMBED,
     "lm_head"},
    {" llama4 ", MM_LAYER, LLAMA_ATTN,
     "feed_forward.gate_proj feed_forward.up_proj feed_forward.down_proj", "feed_forward.experts",
     "feed_forward.shared_expert.gate_proj feed_forward.shared_expert.up_proj "
     "feed_forward.shared_expert.down_proj",
     "feed_forward.router", "language_model.model.embed_tokens", "language_model.lm_head"},
    {" llama4_text ", LLAMA_LAYER, LLAMA_ATTN,
     "feed_forward.gate_proj feed_forward.up_proj feed_forward.down_proj", "feed_forward.experts",
     "feed_forward.shared_expert.gate_proj feed_forward.shared_expert.up_proj "
     "feed_forward.shared_expert.down_proj",
     "feed_forward.router", HF_EMBED, "lm_head"},
    {" mistral3 gemma3 ", MM_LAYER, LLAMA_ATTN, LLAMA_MLP, "", "", "",
     "language_model.model.embed_tokens", "language_model.lm_head"},
    {" phi3 ", LLAMA_LAYER, "self_attn.qkv_proj self_attn.o_proj", "mlp.gate_up_proj mlp.down_proj",
     "", "", "", HF_EMBED, "lm_head"},
    {" glm4 ", LLAMA_LAYER, LLAMA_ATTN, "mlp.gate_up_proj mlp.down_proj", "", "", "", HF_EMBED,
     "lm_head"},
    {" starcoder2 ", LLAMA_LAYER, LLAMA_ATTN, "mlp.c_fc mlp.c_proj", "", "", "", HF_EMBED,
     "lm_head"},
    {" baichuan ", LLAMA_LAYER, "self_attn.W_pack self_attn.o_proj", LLAMA_MLP, "", "", "",
     HF_EMBED, "lm_head"},
    {" phi phi-msft ", LLAMA_LAYER,
     "self_attn.q_proj self_attn.k_proj self_attn.v_proj "
     "self_attn.dense",
     "mlp.fc1 mlp.fc2", "", "", "", HF_EMBED, "lm_head"},
    {" internlm2 ", LLAMA_LAYER, "attention.wqkv attention.wo",
     "feed_forward.w1 feed_forward.w3 feed_forward.w2", "", "", "", "model.tok_embeddings",
     "output"},
    {" gpt2 ", "transformer.h.%d.", "attn.c_attn attn.c_proj", "mlp.c_fc mlp.c_proj", "", "", "",
     "transformer.wte", "lm_head"},
    {" falcon RefinedWeb RefinedWebModel bloom ", "transformer.h.%d.", FALCON_ATTN, FALCON_MLP, "",
     "", "", "transformer.word_embeddings", "lm_head"},
    {" gpt_neox ", "gpt_neox.layers.%d.", "attention.query_key_value attention.dense", FALCON_MLP,
     "", "", "", "gpt_neox.embed_in", "embed_out"},
    {" gptj ", "transformer.h.%d.", "attn.q_proj attn.k_proj attn.v_proj attn.out_proj",
     "mlp.fc_in mlp.fc_out", "", "", "", "transformer.wte", "lm_head"},
    {" chatglm ", "transformer.encoder.layers.%d.", FALCON_ATTN, FALCON_MLP, "", "", "",
     "transformer.embedding.word_embeddings", "transformer.output_layer"},
    {" opt ", "model.decoder.layers.%d.",
     "self_attn.q_proj self_attn.k_proj self_attn.v_proj self_attn.out_proj", "fc1 fc2", "", "", "",
     "model.decoder.embed_tokens", "lm_head"},
    {" dbrx ", "transformer.blocks.%d.", "norm_attn_norm.attn.Wqkv norm_attn_norm.attn.out_proj",
     "", "ffn.experts.mlp", "", "ffn.router.layer", "transformer.wte", "lm_head"},
    {" granitemoe ", LLAMA_LAYER, LLAMA_ATTN, LLAMA_MLP,
     "block_sparse_moe.input_linear block_sparse_moe.output_linear", "",
     "block_sparse_moe.router.layer", HF_EMBED, "lm_head"},
    /* the Llama names: llama, mistral, qwen2/3, gemma, olmo, granite, cohere, ... */
    {NULL, LLAMA_LAYER, LLAMA_ATTN, LLAMA_MLP, QWEN_EXPERT,
     "mlp.shared_expert.gate_proj mlp.shared_expert.up_proj mlp.shared_expert.down_proj",
     "mlp.gate", HF_EMBED, "lm_head"},
};

/* Vision towers and projectors (llm-compressor's examples ignore vision_tower,
 * vision_model, multi_modal_projector, visual): planned 16-bit already (plan_memory.c). */
static const char *const vision_probes[] = {
    "vision_tower.vision_model.encoder.layers.0.self_attn.q_proj",
    "vision_model.model.layers.0.self_attn.q_proj",
    "model.vision_tower.transformer.layers.0.attention.q_proj",
    "multi_modal_projector.linear_1",
    "model.multi_modal_projector.linear_1",
    "visual.blocks.0.attn.qkv",
    "model.visual.blocks.0.attn.qkv",
};

enum { C_ATTN, C_MLP, C_EXPERT, C_SHARED, C_ROUTER, C_NCAT };
static const char *const cat_names[C_NCAT] = {"attention projections", "dense MLPs",
					      "routed experts", "shared experts", "routers"};

#define MAX_PROBES 8
#define MAX_LAYERS 512

/* How the method's loader matches a pattern against a module's name. */
enum matcher {
	M_TRANSFORMERS, /* quantizers_utils.py should_convert_module: re.match(p) from the
			   start, or the name ends with p */
	M_COMPRESSED,	/* compressed-tensors match_named_modules (vLLM
			   compressed_tensors/utils.py _is_equal_or_regex_match): p equal
			   to the name, or "re:" and re.match of the rest */
	M_MODELOPT	/* vLLM modelopt.py is_layer_excluded: p a glob ('*' any text, dots
			   included) matching the whole name, or (without '*') within it */
};

struct pattern {
	const char *text;
	enum matcher how;
	bool is_re, compiled;
	regex_t re;
};

/* Python's re syntax as POSIX ERE, anchored at the start as re.match is: (?: groups as
 * groups, \d as [0-9]. False when it does not compile (then it is reported unread). */
static bool compile(struct pattern *p, const char *src)
{
	char buf[600];
	size_t o = 0;

	if (strlen(src) > sizeof(buf) / 2 - 8)
		return false; /* longer than any module name: not read */
	buf[o++] = '^';
	buf[o++] = '(';
	for (const char *s = src; *s && o < sizeof(buf) - 8; s++) {
		if (s[0] == '(' && s[1] == '?' && s[2] == ':') {
			buf[o++] = '(';
			s += 2;
		} else if (s[0] == '\\' && s[1] == 'd') {
			memcpy(buf + o, "[0-9]", 5);
			o += 5;
			s++;
		} else if (s[0] == '\\' && s[1] >= '1' && s[1] <= '9') {
			return false; /* a back-reference: not in ERE, and slow to match */
		} else if (s[0] == '\\' && s[1]) {
			buf[o++] = s[0];
			buf[o++] = s[1];
			s++;
		} else {
			buf[o++] = *s;
		}
	}
	buf[o++] = ')';
	buf[o] = '\0';
	p->compiled = regcomp(&p->re, buf, REG_EXTENDED | REG_NOSUB) == 0;
	return p->compiled;
}

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);
	return t <= n && strcmp(s + n - t, tail) == 0;
}

static bool matches(const struct pattern *p, const char *name)
{
	switch (p->how) {
	case M_TRANSFORMERS:
		return (p->compiled && regexec(&p->re, name, 0, NULL, 0) == 0) ||
		       ends_with(name, p->text);
	case M_COMPRESSED:
		if (p->is_re)
			return p->compiled && regexec(&p->re, name, 0, NULL, 0) == 0;
		return strcmp(p->text, name) == 0;
	case M_MODELOPT:
		return fnmatch(p->text, name, 0) == 0 ||
		       (!strchr(p->text, '*') && strstr(name, p->text) != NULL);
	}
	return false;
}

/* The i-th space-separated word of list into out (false past the last). */
static bool word(const char *list, int i, char *out, size_t n)
{
	const char *s = list;
	for (;;) {
		while (*s == ' ')
			s++;
		if (!*s)
			return false;
		size_t len = strcspn(s, " ");
		if (i-- == 0) {
			snprintf(out, n, "%.*s", (int)len, s);
			return true;
		}
		s += len;
	}
}

static int words(const char *list)
{
	char w[80];
	int n = 0;
	while (n < MAX_PROBES && word(list, n, w, sizeof(w)))
		n++;
	return n;
}

/* The full name of module `mod` of layer l (expert e for "#"). */
static void probe_name(const struct family_names *f, int l, const char *mod, int e, char *out,
		       size_t n)
{
	char pre[64], m2[96];
	const char *h = strchr(mod, '#');

	snprintf(pre, sizeof(pre), f->layer, l);
	if (h)
		snprintf(m2, sizeof(m2), "%.*s%d%s", (int)(h - mod), mod, e, h + 1);
	else
		snprintf(m2, sizeof(m2), "%s", mod);
	snprintf(out, n, "%s%s", pre, m2);
}

static const struct family_names *names_for(const char *type)
{
	size_t i;
	char key[48];

	snprintf(key, sizeof(key), " %.40s ", type ? type : "");
	for (i = 0; families[i].types; i++)
		if (strstr(families[i].types, key))
			break;
	return &families[i];
}

static bool has_digit(const char *s)
{
	for (; *s; s++)
		if (*s >= '0' && *s <= '9')
			return true;
	return false;
}

/* What the lists keep 16-bit: per category and layer, a bit per module matched. */
struct cover {
	const char *lists[C_NCAT];
	int nprobe[C_NCAT];
	unsigned mask[C_NCAT][MAX_LAYERS];
	bool embed, head;
	const char *first[C_NCAT]; /* the first pattern matching each */
};

/* The one layer a pattern names literally ("model.layers.12." in it: the per-module
 * entries compressed-tensors and ModelOpt write), or -1. */
static int literal_layer(const char *text, const struct family_names *f, int L)
{
	char pre[64];
	const char *d = strstr(f->layer, "%d"), *at;
	long n = 0;

	snprintf(pre, sizeof(pre), "%.*s", (int)(d - f->layer), f->layer);
	at = strstr(text, pre);
	if (!at || strchr(text, '|')) /* an alternation may name more layers */
		return -1;
	at += strlen(pre);
	if (*at < '0' || *at > '9')
		return -1;
	while (*at >= '0' && *at <= '9' && n < 1000000)
		n = n * 10 + (*at++ - '0');
	return *at == '.' && n < L ? (int)n : -1;
}

/* Matches pattern p against every module of f in layers [0, L) (only layer 0 when p has
 * no digit, or the work budget *budget is spent: then every layer matches alike; only
 * the layer it names literally when it does); returns whether it matched any module. */
static bool match_one(const struct pattern *p, const struct family_names *f, int L, int experts,
		      struct cover *cv, long *budget)
{
	char name[200], mod[80];
	bool any = false;
	int lit = literal_layer(p->text, f, L);
	int first = lit >= 0 ? lit : 0;
	int last = lit >= 0 ? lit + 1 : has_digit(p->text) && *budget > 0 ? L : 1;

	*budget -= (long)(last - first) * 40;
	for (int c = 0; c < C_NCAT; c++) {
		for (int l = first; l < last; l++) {
			unsigned bits = 0;
			for (int j = 0;
			     j < cv->nprobe[c] && word(cv->lists[c], j, mod, sizeof(mod)); j++) {
				bool hit;
				probe_name(f, l, mod, 0, name, sizeof(name));
				hit = matches(p, name);
				if (hit && strchr(mod, '#') && experts > 1) {
					probe_name(f, l, mod, experts - 1, name, sizeof(name));
					hit = matches(p, name);
				}
				if (hit)
					bits |= 1u << j;
			}
			if (!bits)
				continue;
			any = true;
			if (!cv->first[c])
				cv->first[c] = p->text;
			if (lit < 0 && last == 1)
				for (int k = 0; k < L; k++)
					cv->mask[c][k] |= bits;
			else
				cv->mask[c][l] |= bits;
		}
	}
	if (f->embed[0] && matches(p, f->embed))
		any = cv->embed = true;
	if (f->head[0] && matches(p, f->head))
		any = cv->head = true;
	for (size_t v = 0; v < sizeof(vision_probes) / sizeof(vision_probes[0]); v++)
		if (matches(p, vision_probes[v]))
			any = true;
	return any;
}

static double gb(double params, enum dtype t)
{
	return params * (2 - dtype_bytes(t)) / 1e9;
}

int hf_quant_skip(const struct hf_quant_keys *k, const struct hf_quant_model *mdl,
		  struct model_quant *q, char (*warn)[HF_QUANT_WARN_LEN], int maxwarn)
{
	static struct cover cv; /* 10 kB: import only, one config at a time */
	const struct model *m = mdl->m;
	const struct model_params *c = mdl->c;
	const struct family_names *f = names_for(mdl->model_type);
	const char *key = k->skip_key ? k->skip_key : "modules";
	const char *meth = k->quant_method ? k->quant_method : "";
	enum matcher how = is(meth, "compressed-tensors") ? M_COMPRESSED
			   : is(meth, "modelopt")	  ? M_MODELOPT
							  : M_TRANSFORMERS;
	int L = m->layers < MAX_LAYERS ? m->layers : MAX_LAYERS;
	bool moe = m->moe.experts > 0;
	int D = moe ? m->moe.dense_layers : L; /* the dense layers: the first D (DeepSeek) */
	int nw = 0, unknown = 0;
	const char *unk[3] = {0};
	double attn_p = model_attention_layers(m) * c->attention_one;
	double per[C_NCAT], kept[C_NCAT];
	int state[C_NCAT], full[C_NCAT], span[C_NCAT]; /* state: 0 none, 1 some, 2 all */
	char fmt[16];
	long budget = 4000000; /* module matches for the layer-by-layer patterns */

	if (!k->skip_key || !q->set || L <= 0)
		return 0;
	if (D > L)
		D = L;
	memset(&cv, 0, sizeof(cv));
	/* DeepSeek-V2-Lite's MLA projects its queries directly (q_lora_rank null: q_proj) */
	cv.lists[C_ATTN] = m->mla.kv_rank > 0 && m->mla.q_rank == 0 && strstr(f->attn, "q_a_proj")
			       ? "self_attn.q_proj self_attn.kv_a_proj_with_mqa "
				 "self_attn.kv_b_proj self_attn.o_proj"
			       : f->attn;
	cv.lists[C_MLP] = f->mlp;
	cv.lists[C_EXPERT] = moe ? f->expert : "";
	cv.lists[C_SHARED] = moe && c->shared > 0 ? f->shared : "";
	cv.lists[C_ROUTER] = moe ? f->router : "";
	for (int i = 0; i < C_NCAT; i++)
		cv.nprobe[i] = words(cv.lists[i]);
	for (int i = 0; i < k->nskip; i++) {
		struct pattern p = {.text = k->skip[i], .how = how};
		const char *src = p.text;
		if (how == M_COMPRESSED && strncmp(src, "re:", 3) == 0) {
			p.is_re = true;
			src += 3;
		}
		if (how == M_TRANSFORMERS || p.is_re)
			compile(&p, src);
		if (!match_one(&p, f, L, m->moe.experts, &cv, &budget)) {
			if (unknown < 3)
				unk[unknown] = p.text;
			unknown++;
		}
		if (p.compiled)
			regfree(&p.re);
	}

	/* each category's layers: the dense MLPs in the first D, the experts' in the rest
	 * (DeepSeek's first_k_dense_replace; interleaved layers, Llama 4's, are counted as
	 * many but not in their places) */
	per[C_ATTN] = L > 0 ? attn_p / L : 0;
	per[C_MLP] = c->mlp_one;
	per[C_EXPERT] = m->moe.experts * c->expert;
	per[C_SHARED] = c->shared;
	per[C_ROUTER] = c->router;
	for (int i = 0; i < C_NCAT; i++) {
		int lo = i == C_ATTN || i == C_MLP ? 0 : D, hi = i == C_MLP ? D : L, bits = 0;
		unsigned all = (1u << cv.nprobe[i]) - 1;
		full[i] = 0;
		span[i] = hi - lo;
		for (int l = lo; l < hi; l++) {
			full[i] += cv.mask[i][l] == all;
			bits += __builtin_popcount(cv.mask[i][l]);
		}
		state[i] = cv.nprobe[i] == 0 || per[i] <= 0 || hi <= lo || bits == 0 ? 0
			   : full[i] == hi - lo					     ? 2
										     : 1;
		/* the parameters of the modules kept 16-bit: bits of nprobe a layer */
		kept[i] = per[i] * (cv.nprobe[i] > 0 ? (double)bits / cv.nprobe[i] : 0);
	}

	bool wq = dtype_bytes(q->weights) < 2;
	enum dtype qt = wq ? q->weights : q->experts; /* the config's quantized format */
	/* the rest of the linears: the dense MLPs and the shared experts, where there are */
	bool has_mlp = D > 0 && cv.nprobe[C_MLP] > 0 && per[C_MLP] > 0;
	bool has_shared = cv.nprobe[C_SHARED] > 0 && per[C_SHARED] > 0 && L > D;
	bool rest_all = (has_mlp || has_shared) && (!has_mlp || state[C_MLP] == 2) &&
			(!has_shared || state[C_SHARED] == 2);
	bool attn_all = state[C_ATTN] == 2;
	bool only_experts = false;
	if (attn_all && wq)
		q->attn_16 = true;
	if (state[C_EXPERT] == 2 && moe && dtype_bytes(q->experts) < 2) {
		q->experts = DTYPE_BF16;
		if (nw < maxwarn)
			snprintf(warn[nw++], HF_QUANT_WARN_LEN,
				 "quantization_config %s: the routed experts kept bf16 as the "
				 "checkpoint stores them (workload.expert_weights bf16)",
				 key);
	}
	if (rest_all && attn_all && wq && moe && dtype_bytes(q->experts) < 2) {
		/* every linear but the routed experts kept 16-bit (gpt-oss's layout) */
		q->experts = q->weights;
		q->weights = DTYPE_BF16;
		q->attn_16 = false; /* bf16 with the weights */
		only_experts = true;
	}
	if (nw < maxwarn && only_experts && !is(meth, "mxfp4"))
		snprintf(warn[nw++], HF_QUANT_WARN_LEN,
			 "quantization_config %s: every linear but the routed experts kept bf16 "
			 "as the checkpoint stores them (workload.weights bf16, expert_weights %s)",
			 key, dtype_name(q->experts));
	else if (nw < maxwarn && q->attn_16 && !is(meth, "mxfp4"))
		snprintf(warn[nw++], HF_QUANT_WARN_LEN,
			 "quantization_config %s: attention projections kept bf16 as the "
			 "checkpoint stores them (workload.attention_weights auto)",
			 key);
	for (int i = 0; i < C_NCAT && nw < maxwarn; i++) {
		enum dtype t = i == C_EXPERT ? q->experts : q->weights;
		bool applied = (i == C_ATTN && (q->attn_16 || only_experts)) ||
			       (i == C_EXPERT && state[i] == 2) ||
			       ((i == C_MLP || i == C_SHARED) && only_experts);
		if (i == C_ROUTER || state[i] == 0 || applied || dtype_bytes(t) >= 2)
			continue;
		snprintf(warn[nw++], HF_QUANT_WARN_LEN,
			 "quantization_config %s: '%.40s' keeps %s 16-bit (all of them in %d of "
			 "%d layers), planned %s: about %.3g parameters (%.2f GB) miscounted",
			 key, cv.first[i], cat_names[i], full[i], span[i], dtype_name(t), kept[i],
			 gb(kept[i], t));
	}
	snprintf(fmt, sizeof(fmt), "%s", dtype_name(qt));
	if (nw < maxwarn && !cv.head && c->head > 0 && (how == M_COMPRESSED || how == M_MODELOPT) &&
	    wq)
		snprintf(warn[nw++], HF_QUANT_WARN_LEN,
			 "quantization_config %s does not list lm_head: the checkpoint quantizes "
			 "the head, planned bf16: about %.3g parameters (%.2f GB) miscounted",
			 key, c->head, gb(c->head, qt));
	if (nw < maxwarn && (unknown || k->skip_more))
		snprintf(warn[nw++], HF_QUANT_WARN_LEN,
			 "quantization_config %s: %s%.40s%s%s%.40s%s%s (%d of its %d%s) %s no "
			 "module gpuplan models: what they keep 16-bit is counted %s (parameters "
			 "unknown)",
			 key, unknown ? "'" : "", unk[0] ? unk[0] : "", unknown ? "'" : "",
			 unk[1] ? ", '" : "", unk[1] ? unk[1] : "", unk[1] ? "'" : "",
			 unknown > 2 ? ", ..." : "", unknown + k->skip_more,
			 k->nskip + k->skip_more, k->skip_more ? ", those past 512 unread" : "",
			 unknown + k->skip_more > 1 ? "match" : "matches", fmt);
	return nw;
}
