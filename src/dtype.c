/* dtype.c - names and sizes of the number formats (dtype.h). */
#include "dtype.h"

#include <string.h>

static const char *const names[DTYPE_COUNT] = {
    "fp32", "tf32", "bf16", "fp16", "fp8", "int8", "int4", "nf4",
};

/* TF32 is a tensor-core math mode on fp32 storage (NVIDIA A100 whitepaper). */
static const double bytes[DTYPE_COUNT] = {4, 4, 2, 2, 1, 1, 0.5, 0.5};

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
