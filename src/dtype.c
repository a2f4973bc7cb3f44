/* dtype.c - names and sizes of the number formats (dtype.h). */
#include "dtype.h"

#include <string.h>

static const char *const names[DTYPE_COUNT] = {
    "fp32", "tf32",  "bf16",  "fp16", "fp8",  "int8", "int4",
    "nf4",  "nvfp4", "mxfp4", "fp6",  "int3", "int2",
};

/* TF32 is a tensor-core math mode on fp32 storage (NVIDIA A100 whitepaper). The block
 * formats carry one 8-bit scale per block: nvfp4 an E4M3 per 16 elements (NVIDIA, "Introducing
 * NVFP4 for Efficient and Accurate Low-Precision Inference", 2025), mxfp4 and mxfp6 an E8M0
 * per 32 (OCP MX v1.0, Table 1: block size 32, scale E8M0). */
static const double bytes[DTYPE_COUNT] = {
    4,
    4,
    2,
    2,
    1,
    1,
    0.5,
    0.5,
    (4 + 8.0 / 16) / 8,
    (4 + 8.0 / 32) / 8,
    (6 + 8.0 / 32) / 8,
    3.0 / 8,
    2.0 / 8,
};

/* Quantized formats, bits per weight including what the checkpoint stores beside them:
 * - int2/int3/int4/int8 (GPTQ, AWQ): AutoGPTQ's QuantLinear (auto_gptq/nn_modules/qlinear/
 *   qlinear_cuda.py, __init__) registers qweight int32 [in / 32 x bits, out] (bits a weight:
 *   3-bit packs 32 weights into three int32, pack()), qzeros int32 [in / group, out / 32 x
 *   bits] (a bits-wide zero a group and output), scales fp16 [in / group, out] and g_idx
 *   int32 [in]; group_size -1 is one group of all `in` inputs. So bits + (16 + bits) /
 *   group; g_idx, 32 bits an input channel (0.2% of a 3-bit 5120-wide layer), is left out.
 *   AutoAWQ's WQLinear_GEMM stores the same per group (awq/modules/linear/gemm.py). int4's
 *   default group 128: 4 + 20/128 = 4.156 bits. The embedding and head are taken in the
 *   same format, as llama.cpp's 4-bit files store them (GPTQ/AWQ keep them 16-bit:
 *   model.quant.embed_16).
 * - HQQ (hqq/core/quantize.py Quantizer.quantize: meta scale and zero a group, cast to fp16
 *   by to_inplace; bitpack.py: 8/4/2-bit in uint8, 3-bit pack_3bit_32 ten values an int32,
 *   2 bits unused): elem_bits and group_bits from hf_quant.c.
 * - nf4: QLoRA (Dettmers et al. 2023, Section 3, "Double Quantization"): blocks of 64 with
 *   an 8-bit absmax, whose fp32 scales are themselves grouped by 256: 4 + 8/64 +
 *   32/(64 x 256) = 4.127 bits.
 * - int8 without a group: one fp16 scale per output channel (LLM.int8(), SmoothQuant
 *   W8A8): 16 bits per row of `hidden` inputs, taken as 16/hidden bits per weight.
 * - fp8: per-tensor scales, negligible. */
#define INT_GROUP 128.0
#define NF4_BITS  (4.0 + 8.0 / 64.0 + 32.0 / (64.0 * 256.0))

double dtype_weight_bytes(enum dtype t, double hidden, int group, double elem_bits,
			  double group_bits)
{
	double g = group > 0 ? group : group < 0 ? hidden : 0;
	double b;

	switch (t) {
	case DTYPE_INT2:
	case DTYPE_INT3:
	case DTYPE_INT4:
	case DTYPE_INT8:
		b = dtype_bytes(t) * 8;
		if (t == DTYPE_INT8 && !(g > 0) && !(group_bits > 0))
			return 1.0 + (hidden > 0 ? 2.0 / hidden : 0);
		if (!(g > 0))
			g = INT_GROUP;
		return ((elem_bits > 0 ? elem_bits : b) +
			(group_bits > 0 ? group_bits : 16.0 + b) / g) /
		       8.0;
	case DTYPE_NF4:
		return NF4_BITS / 8.0;
	default:
		return dtype_bytes(t);
	}
}

double dtype_bytes(enum dtype t)
{
	return (unsigned)t < DTYPE_COUNT ? bytes[t] : 0;
}

const char *dtype_name(enum dtype t)
{
	return (unsigned)t < DTYPE_COUNT ? names[t] : "?";
}

int dtype_parse(const char *name, enum dtype *out)
{
	for (int i = 0; i < DTYPE_COUNT; i++) {
		if (strcmp(name, names[i]) == 0) {
			*out = (enum dtype)i;
			return 0;
		}
	}
	return -1;
}

int dtype_is_microscaled(enum dtype t)
{
	return t == DTYPE_NVFP4 || t == DTYPE_MXFP4 || t == DTYPE_FP6;
}
