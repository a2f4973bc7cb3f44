/* dtype.h - number formats of weights, activations, gradients and caches. */
#ifndef GPUPLAN_DTYPE_H
#define GPUPLAN_DTYPE_H

enum dtype {
	DTYPE_FP32,
	DTYPE_TF32, /* stored as fp32; tensor-core math at TF32 rate */
	DTYPE_BF16,
	DTYPE_FP16,
	DTYPE_FP8,
	DTYPE_INT8,
	DTYPE_INT4,
	DTYPE_NF4, /* QLoRA's 4-bit NormalFloat (Dettmers et al. 2023) */
	/* Microscaling block formats, each defined with its block scale (dtype_bytes counts it):
	 * NVFP4: E2M1 elements, one FP8 E4M3 scale per 16 and an FP32 scale per tensor
	 * (NVIDIA Blackwell; TensorRT Model Optimizer, "Introducing NVFP4", NVIDIA blog 2025);
	 * MXFP4 / MXFP6: E2M1 / E3M2 (or E2M3) elements, one E8M0 scale per 32 (OCP Microscaling
	 * Formats (MX) Specification v1.0, Section 5). */
	DTYPE_NVFP4,
	DTYPE_MXFP4,
	DTYPE_FP6, /* MXFP6 */
	/* GPTQ's other widths (AutoGPTQ qlinear_cuda.py QuantLinear: bits 2, 3, 4, 8), grouped as
	 * int4 is; HQQ's 3- and 2-bit (hqq/core/bitpack.py) with their own layout
	 * (dtype_weight_bytes) */
	DTYPE_INT3,
	DTYPE_INT2,
	DTYPE_COUNT
};

/* Storage bytes per element: 4, 4, 2, 2, 1, 1, 0.5, 0.5 for fp32 .. nf4, 0.375 and 0.25
 * for int3 and int2, without the group scales of the integer and nf4 checkpoints
 * (dtype_weight_bytes adds those); the microscaling formats
 * with their block scales, as their specifications define the block: nvfp4 (4 + 8/16) / 8 =
 * 0.5625, mxfp4 (4 + 8/32) / 8 = 0.53125, fp6 (6 + 8/32) / 8 = 0.78125. nvfp4's FP32
 * scalars per tensor are left out: a ModelOpt checkpoint holds two a linear layer,
 * weight_scale_2 and input_scale (vLLM modelopt.py, ModelOptNvFp4LinearMethod.
 * create_weights), 8 bytes against megabytes of weights. 0 for an unknown value. */
double dtype_bytes(enum dtype t);

/* Bytes a stored weight of format t costs with what its checkpoint keeps beside it, for a
 * model of width hidden whose grouped integer weights (int2/int3/int4/int8) have groups of
 * `group` inputs (0 = the format's default: 128 for int2/3/4, a scale per row for int8;
 * -1 = one group per row of hidden inputs). elem_bits and group_bits describe a checkpoint
 * whose layout is not GPTQ's (0 = GPTQ's: the weight's width, and an fp16 scale plus a zero
 * as wide as the weight per group): HQQ stores 3-bit weights ten to an int32 (3.2 bits) and
 * an fp16 scale and fp16 zero per group (32 bits). Other formats: dtype_bytes, nf4 with its
 * double-quantized scales. 0 for an unknown value. */
double dtype_weight_bytes(enum dtype t, double hidden, int group, double elem_bits,
			  double group_bits);

/* Lowercase name as in scenario files ("bf16"). */
const char *dtype_name(enum dtype t);

/* Returns 0 and sets *out, or -1 for an unknown name. */
int dtype_parse(const char *name, enum dtype *out);

/* Whether t is a microscaling block format (nvfp4, mxfp4, fp6): tensor cores that have it
 * (Blackwell, CDNA 4) multiply it as stored; other GPUs dequantise it, weight-only. */
int dtype_is_microscaled(enum dtype t);

#endif
