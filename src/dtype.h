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
	DTYPE_COUNT
};

/* Storage bytes per element, without block scales: 4, 4, 2, 2, 1, 1, 0.5, 0.5. */
double dtype_bytes(enum dtype t);

/* Lowercase name as in scenario files ("bf16"). */
const char *dtype_name(enum dtype t);

/* Returns 0 and sets *out, or -1 for an unknown name. */
int dtype_parse(const char *name, enum dtype *out);

#endif
