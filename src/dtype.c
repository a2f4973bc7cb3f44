/* dtype.c - names and sizes of the number formats (dtype.h). */
#include "dtype.h"

#include <string.h>

static const char *const names[DTYPE_COUNT] = {
    "fp32", "tf32", "bf16", "fp16", "fp8", "int8", "int4", "nf4", "nvfp4", "mxfp4", "fp6",
};

/* TF32 is a tensor-core math mode on fp32 storage (NVIDIA A100 whitepaper). The block
 * formats carry one 8-bit scale per block: nvfp4 an E4M3 per 16 elements (NVIDIA, "Introducing
 * NVFP4 for Efficient and Accurate Low-Precision Inference", 2025), mxfp4 and mxfp6 an E8M0
 * per 32 (OCP MX v1.0, Table 1: block size 32, scale E8M0). */
static const double bytes[DTYPE_COUNT] = {
    4, 4, 2, 2, 1, 1, 0.5, 0.5, (4 + 8.0 / 16) / 8, (4 + 8.0 / 32) / 8, (6 + 8.0 / 32) / 8,
};

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
