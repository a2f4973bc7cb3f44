/* fuzz_common.h - what the fuzz targets share: the catalog they plan against.
 *
 * fuzz_shipped_catalog() is the repository's catalog/ (the targets run from the top of the
 * tree, in `make fuzz` and in the corpus replay of `make check`), so the shipped scenarios
 * in the corpora resolve their presets; where it cannot be read, a small built-in one with
 * one GPU (h100-sxm-80gb) and one model (llama-2-7b), which fuzz_builtin_catalog() also gives
 * alone, so that no file is read.
 */
#ifndef GPUPLAN_FUZZ_COMMON_H
#define GPUPLAN_FUZZ_COMMON_H

#include <stdlib.h>
#include <string.h>

#include "catalog.h"

static inline struct catalog *fuzz_builtin_catalog(void)
{
	static struct catalog *cat;
	struct gpu *g;
	struct model *m;

	if (cat)
		return cat;
	cat = catalog_new();
	if (!cat)
		abort();
	g = &cat->gpus[cat->ngpus++];
	strcpy(g->id, "h100-sxm-80gb");
	strcpy(g->name, "NVIDIA H100 SXM5 80GB");
	strcpy(g->vendor, "nvidia");
	g->memory_bytes = 80e9;
	g->hbm_bytes_per_s = 3.35e12;
	g->peak_flops[DTYPE_BF16] = 989.4e12;
	g->peak_flops[DTYPE_FP16] = 989.4e12;
	g->peak_flops[DTYPE_FP8] = 1978.9e12;
	g->link_bytes_per_s = 900e9;
	g->link_domain = 8;
	g->power_w = 700;
	g->price_per_hour = 2.69;
	g->gpus_per_node = 8;
	g->network_bytes_per_s = 50e9;
	strcpy(cat->models[0].id, "llama-2-7b");
	m = &cat->models[cat->nmodels++].model;
	m->layers = 32;
	m->hidden = 4096;
	m->heads = 32;
	m->kv_heads = 32;
	m->ffn = 11008;
	m->vocab = 32000;
	m->max_context = 4096;
	return cat;
}

static inline const struct catalog *fuzz_shipped_catalog(void)
{
	static struct catalog *cat;
	struct gp_error err;

	if (cat)
		return cat;
	cat = catalog_new();
	if (!cat)
		abort();
	if (catalog_load_dir(cat, "catalog", 0, &err) != 0) {
		catalog_free(cat);
		cat = fuzz_builtin_catalog();
	}
	return cat;
}

#endif
