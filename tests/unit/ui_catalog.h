/* ui_catalog.h - a small hand-made catalog for the terminal UI's unit tests (no files):
 * GPUs with round datasheet-like figures and Llama-shaped models. Include once per test
 * program, after catalog.h. */
#ifndef GPUPLAN_TEST_UI_CATALOG_H
#define GPUPLAN_TEST_UI_CATALOG_H

#include <stdio.h>

#include "catalog.h"

/* A GPU: mem bytes, flops dense bf16 FLOP/s, price USD per hour; 3 TB/s, 8 to a node. */
static void ui_cat_add_gpu(struct catalog *cat, const char *id, double mem, double flops,
			   double price)
{
	struct gpu *g = &cat->gpus[cat->ngpus++];
	snprintf(g->id, sizeof(g->id), "%s", id);
	snprintf(g->name, sizeof(g->name), "test %s", id);
	g->memory_bytes = mem;
	g->hbm_bytes_per_s = 3e12;
	g->peak_flops[DTYPE_BF16] = flops;
	g->price_per_hour = price;
	g->gpus_per_node = 8;
	g->network_bytes_per_s = 50e9;
	g->link_bytes_per_s = 900e9;
	g->power_w = 700;
}

/* A Llama-shaped model: the Llama 3 vocabulary and a 128k context. */
static void ui_cat_add_model(struct catalog *cat, const char *id, int layers, int hidden,
			     int heads, int kv, int ffn)
{
	struct catalog_model *m = &cat->models[cat->nmodels++];
	snprintf(m->id, sizeof(m->id), "%s", id);
	m->model.layers = layers;
	m->model.hidden = hidden;
	m->model.heads = heads;
	m->model.kv_heads = kv;
	m->model.ffn = ffn;
	m->model.vocab = 128256;
	m->model.max_context = 131072;
}

#endif
