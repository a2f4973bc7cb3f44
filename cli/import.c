/* import.c - a config's model: block made into a whole scenario, commented where to edit. */
#include "import.h"

#include <string.h>

/* The scenario's name: the config's file name without .json (its folder's name for a
 * config.json), when it is a plain word a YAML scalar holds unquoted; else none. */
static void import_name(const char *source, char *buf, size_t size)
{
	const char *base = strrchr(source, '/');
	size_t n;

	base = base ? base + 1 : source;
	if (strcmp(base, "config.json") == 0 && base > source) {
		const char *end = base - 1, *start = end;
		while (start > source && start[-1] != '/')
			start--;
		base = start;
		n = (size_t)(end - start);
	} else {
		n = strlen(base);
		if (n > 5 && strcmp(base + n - 5, ".json") == 0)
			n -= 5;
	}
	buf[0] = '\0';
	if (n == 0 || n >= size ||
	    !strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		    "0123456789",
		    base[0]))
		return;
	for (size_t i = 0; i < n; i++)
		if (!strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-",
			    base[i]))
			return;
	memcpy(buf, base, n);
	buf[n] = '\0';
}

void import_scenario(struct report_buf *b, const char *source, const char *model_yaml, size_t len,
		     const struct model_quant *q)
{
	char name[128];
	bool quant = q && q->set;

	import_name(source, name, sizeof(name));
	report_buf_printf(b,
			  "# A scenario made by gpuplan import from %s.\n"
			  "# The model block is the config's; the workload and hardware below are "
			  "defaults:\n"
			  "# edit them to ask the question you have (gpuplan-scenario(5)).\n"
			  "gpuplan: 1\n",
			  source);
	if (name[0])
		report_buf_printf(b, "name: %s\n", name);
	report_buf_printf(b, "%.*s", (int)len, model_yaml);
	/* the required keys of gpuplan-scenario(5) (workload.kind, hardware.gpu) with the serving
	 * defaults of scenario_init: a request of 512 prompt and 128 output tokens, in bf16; a
	 * quantized checkpoint computes as its format does on the GPU, which precision auto
	 * resolves (plan_precision: fp8 weights W8A8 on fp8 tensor cores, as vLLM's
	 * Fp8LinearMethod runs them; weight-only formats dequantise in a 16-bit GEMM) */
	report_buf_printf(
	    b,
	    "# Edit: train, finetune, online or offline, and that workload's fields.\n"
	    "workload:\n"
	    "  kind: online\n"
	    "  precision: %s\n"
	    "  prompt_tokens: 512\n"
	    "  output_tokens: 128\n",
	    quant ? "auto" : "bf16");
	/* the checkpoint's formats (hf_quant.c), written out: the model block above is only
	 * the shape, so they would not follow from it */
	report_buf_printf(b, "  weights: %s\n", quant ? dtype_name(q->weights) : "bf16");
	if (quant && q->experts != q->weights)
		report_buf_printf(b, "  expert_weights: %s\n", dtype_name(q->experts));
	if (quant && q->group)
		report_buf_printf(b, "  weight_group: %d\n", q->group);
	if (quant && q->embed_16)
		report_buf_printf(b, "  embedding_weights: bf16\n");
	if (quant && q->attn_16 && dtype_bytes(q->weights) < 2)
		report_buf_printf(b, "  attention_weights: bf16\n");
	report_buf_printf(
	    b, "  batch: 1\n"
	       "# Edit: the GPU (gpuplan catalog gpus lists them) and how many; gpuplan solve\n"
	       "# FILE --min hardware.count finds the fewest that fit.\n"
	       "hardware:\n"
	       "  gpu: h100-sxm-80gb\n"
	       "  count: 1\n");
}
