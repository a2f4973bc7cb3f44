/* test_catalog_gpus.c - the GPUs added to the shipped catalog for this year's hardware
 * (Blackwell Ultra, RTX PRO 6000 and RTX 5090, MI355X/MI350X, the China parts H800,
 * A800, L20, RTX 4090 D, Huawei's Ascend 910B) hold the datasheet figures written here
 * with their sources, keep their dense peaks at half their 2:4 sparse figures where the
 * vendor prints them, and share no id with another entry.
 *
 * The figures repeat catalog/gpus.yaml on purpose: a change to one of them has to be made
 * twice, against its source, not by accident. Each is the vendor's printed figure or the
 * dense half of it; "unverified" marks those the catalog itself marks so. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "shipped_catalog.h"

#define GB    1e9
#define GIB   1073741824.0 /* memory is binary: an "80GB" part has 80 GiB (catalog/gpus.yaml) */
#define TB_S  1e12
#define GB_S  1e9
#define TFLOP 1e12

struct want {
	const char *id;
	double memory_bytes, hbm_bytes_per_s;
	double bf16, fp8; /* dense; fp8 0 where the part has none */
	const char *source;
};

static const struct want wants[] = {
    /* HGX B300 table per 8 GPUs: BF16 36 PF*, FP8 72 PF* (fibermall.com transcription);
     * Verda's per-GPU table: 270 GB, 7.7 TB/s, 2.25 / 4.5 PF dense */
    {"b300", 270 * GIB, 7.7 * TB_S, 2250 * TFLOP, 4500 * TFLOP, "HGX B300 table; verda.com"},
    /* GB300 NVL72 per GPU (verda.com): 279 GB, 8 TB/s, 2.5 / 5 PF dense; 576 TB/s / 72 */
    {"gb300", 279 * GIB, 8 * TB_S, 2500 * TFLOP, 5000 * TFLOP, "verda.com GB300 table"},
    /* H100 SXM silicon with NVLink cut to 400 GB/s (philisun.com; DeepSeek-V3 cluster) */
    {"h800", 80 * GIB, 3.35 * TB_S, 989.4 * TFLOP, 1978.9 * TFLOP, "as H100 SXM datasheet"},
    /* 96 GB HBM3, 4.0 TB/s, FP16 148 dense, INT8 296 (zangshuxian.com; willitrunai.com);
     * fp8 = the INT8 rate (unverified) */
    {"h20", 96 * GIB, 4 * TB_S, 148 * TFLOP, 296 * TFLOP, "H20 figures as published"},
    /* A100 80GB SXM with NVLink cut to 400 GB/s, compute and memory unchanged (aiwiki.ai) */
    {"a800-80gb-sxm", 80 * GIB, 2039 * GB_S, 312 * TFLOP, 0, "as A100 80GB SXM datasheet"},
    /* 48 GB GDDR6, 864 GB/s (topcpu.net); 119.5 / 239 dense unverified (product brief as
     * commonly quoted, not seen) */
    {"l20", 48 * GIB, 864 * GB_S, 119.5 * TFLOP, 239 * TFLOP, "L20 brief (unverified)"},
    /* 96 GB GDDR7, 1,792 GB/s; FP4 4,000 AI TOPS* -> BF16 500, FP8 1,000 dense (derived) */
    {"rtx-pro-6000", 96 * GIB, 1792 * GB_S, 500 * TFLOP, 1000 * TFLOP, "NVIDIA 4,000 AI TOPS"},
    /* 32 GB GDDR7, 1,792 GB/s; BF16 209.5 dense with FP32 accumulate (codesota.com);
     * FP8 419.2 with FP32 accumulate (derived, unverified) */
    {"rtx-5090", 32 * GIB, 1792 * GB_S, 209.5 * TFLOP, 419.2 * TFLOP, "RTX 5090 spec tables"},
    /* 24 GB GDDR6X, 1,008 GB/s; 147.1 / 294.2 with FP32 accumulate (hmc-tech.com) */
    {"rtx-4090d", 24 * GIB, 1008 * GB_S, 147.1 * TFLOP, 294.2 * TFLOP, "hmc-tech.com"},
    /* 288 GB HBM3E, 8 TB/s (tomshardware.com); FP8 5 PF (ISSCC 2026), BF16 half of it */
    {"mi355x", 288 * GIB, 8 * TB_S, 2516.6 * TFLOP, 5033.2 * TFLOP, "AMD MI355X figures"},
    /* 288 GB, 8 TB/s (tomshardware.com); 256 CU x 2.2 GHz rates (derived, unverified) */
    {"mi350x", 288 * GIB, 8 * TB_S, 2306.9 * TFLOP, 4613.7 * TFLOP, "AMD MI350X (derived)"},
};

#define NWANTS (sizeof(wants) / sizeof(wants[0]))

/* Catalog figures are parsed from text like "989.4T": equal to the written figure within
 * a rounding error of the conversion, never a tolerance that would hide a wrong digit. */
static int near(double got, double want)
{
	double d = got - want;
	if (d < 0)
		d = -d;
	return d <= 1e-9 * want;
}

static const struct gpu *find(const char *id)
{
	const struct gpu *g = catalog_find_gpu(cat, id);
	if (!g)
		fail_msg("GPU %s missing from catalog/gpus.yaml", id);
	return g;
}

static void test_new_gpus_match_their_datasheets(void **state)
{
	(void)state;
	for (size_t i = 0; i < NWANTS; i++) {
		const struct want *w = &wants[i];
		const struct gpu *g = find(w->id);

		if (!near(g->memory_bytes, w->memory_bytes))
			fail_msg("%s: memory %g, want %g (%s)", w->id, g->memory_bytes,
				 w->memory_bytes, w->source);
		if (!near(g->hbm_bytes_per_s, w->hbm_bytes_per_s))
			fail_msg("%s: memory bandwidth %g, want %g (%s)", w->id, g->hbm_bytes_per_s,
				 w->hbm_bytes_per_s, w->source);
		if (!near(g->peak_flops[DTYPE_BF16], w->bf16))
			fail_msg("%s: bf16 dense %g, want %g (%s)", w->id,
				 g->peak_flops[DTYPE_BF16], w->bf16, w->source);
		if (w->fp8 > 0 ? !near(g->peak_flops[DTYPE_FP8], w->fp8)
			       : g->peak_flops[DTYPE_FP8] != 0)
			fail_msg("%s: fp8 dense %g, want %g (%s)", w->id, g->peak_flops[DTYPE_FP8],
				 w->fp8, w->source);
		if (!(g->power_w > 0 && g->price_per_hour > 0 && g->gpus_per_node > 0 &&
		      g->link_domain > 0 && g->link_bytes_per_s > 0 && g->pcie_bytes_per_s > 0 &&
		      g->network_bytes_per_s > 0))
			fail_msg("%s lacks a figure", w->id);
	}
}

/* Datasheets print 2:4 sparse tensor figures; the catalog's dense peak is exactly half,
 * to the digits the datasheets print (4,500 of 9,000; 419.2 of 838.4; 147.1 of 294.2). */
static void test_new_gpus_dense_is_half_sparse(void **state)
{
	(void)state;
	for (size_t i = 0; i < NWANTS; i++) {
		const struct gpu *g = find(wants[i].id);
		int pairs = 0;

		for (int d = 0; d < DTYPE_COUNT; d++) {
			double dense = g->peak_flops[d], sparse = g->sparse_flops[d];
			if (dense <= 0 || sparse <= 0)
				continue;
			pairs++;
			/* datasheets round each figure to 4 significant digits on its own
			 * (L20 TF32 59.8 | 119.5*), so the halves agree within 0.1% */
			if (!(sparse / 2 >= dense * (1 - 1e-3) && sparse / 2 <= dense * (1 + 1e-3)))
				fail_msg("%s: precision %d dense %g is not half its sparse %g",
					 wants[i].id, d, dense, sparse);
		}
		if (pairs == 0)
			fail_msg("%s: no sparse figures recorded", wants[i].id);
	}
}

/* Every id in the shipped catalog once: catalog_add_gpu replaces an entry whose id is
 * already there, so a duplicated id would silently drop the first card. Counted in the
 * file text, since the loaded catalog has already merged duplicates. */
static void test_shipped_gpu_ids_are_unique(void **state)
{
	FILE *f = fopen("catalog/gpus.yaml", "r");
	char line[1024], ids[CATALOG_MAX_GPUS * 2][32];
	int n = 0;

	(void)state;
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		char id[32];
		if (sscanf(line, "  - id: %31s", id) != 1)
			continue;
		for (int i = 0; i < n; i++)
			if (strcmp(ids[i], id) == 0)
				fail_msg("GPU id %s appears twice in catalog/gpus.yaml", id);
		if (n == (int)(sizeof(ids) / sizeof(ids[0])))
			fail_msg("more GPU entries than this test expects");
		memcpy(ids[n++], id, sizeof(id));
	}
	fclose(f);
	assert_int_equal(n, cat->ngpus);
	assert_true(cat->ngpus <= CATALOG_MAX_GPUS);
	for (size_t i = 0; i < NWANTS; i++)
		for (size_t j = i + 1; j < NWANTS; j++)
			assert_string_not_equal(wants[i].id, wants[j].id);
}

/* The Ascend 910B (910B2, as Atlas 800T A2 servers carry it) from Huawei's CANN: 64 GB HBM2e
 * and 1.6 TB/s (the CANN cross-platform migration guide's Atlas A2 column); the Cube's dense
 * FP16/BF16 rate from CANN's platform configuration, 24 AI Cores x 1,800 MHz x 16^3 MACs x 2
 * = 353.9T, INT8 at twice it (K = 32 against 16), no FP8 and no sparse figure printed. The
 * 910C is not listed (catalog/gpus.yaml says why). */
static void test_ascend_910b_from_cann(void **state)
{
	const struct gpu *g = find("ascend-910b");
	double cube = 24 * 1.8e9 * 16 * 16 * 16 * 2;
	(void)state;
	assert_string_equal(g->vendor, "huawei");
	assert_string_equal(g->link, "hccs");
	assert_true(near(g->memory_bytes, 64 * GIB));
	assert_true(near(g->hbm_bytes_per_s, 1.6 * TB_S));
	assert_true(near(g->peak_flops[DTYPE_BF16], 353.9 * TFLOP));
	assert_true(g->peak_flops[DTYPE_FP16] == g->peak_flops[DTYPE_BF16]);
	/* the printed figure is the derivation to the digits printed */
	assert_true(g->peak_flops[DTYPE_BF16] / cube > 0.9999 &&
		    g->peak_flops[DTYPE_BF16] / cube < 1.0002);
	assert_true(near(g->peak_flops[DTYPE_INT8], 707.8 * TFLOP));
	assert_true(g->peak_flops[DTYPE_FP8] == 0);
	for (int d = 0; d < DTYPE_COUNT; d++)
		assert_true(g->sparse_flops[d] == 0);
	assert_int_equal(g->link_domain, 8);
	assert_int_equal(g->gpus_per_node, 8);
	assert_true(g->power_w > 0 && g->price_per_hour > 0 && g->network_bytes_per_s > 0);
	/* torch_npu's "60.96 GiB total capacity" (vllm-project/vllm-ascend issue #1670) */
	assert_true(near(g->cuda_total_bytes, 60.96 * 1073741824.0));
	assert_true(g->sms == 0);
	assert_null(catalog_find_gpu(cat, "ascend-910c"));
}

/* The optional sms and gemm_efficiency: every SM count a whole count, every fitted GEMM
 * fraction a share of the peak naming the rows it was fitted to; a user entry with an SM
 * count of 0 or a fraction above 1 is refused with FILE:LINE:COL. */
static void test_sms_and_gemm_efficiency(void **state)
{
	static const char head[] =
	    "gpus:\n  - {id: x, name: X, vendor: nvidia, memory: 24GiB, hbm_bandwidth: 1TB/s, "
	    "peak: {bf16: 100T}, link: pcie, link_bandwidth: 64GB/s, link_domain: 1, pcie: "
	    "gen4x16, pcie_bandwidth: 32GB/s, power: 300W, price_per_hour: 1, gpus_per_node: 8, "
	    "network: 25Gb/s, ";
	static const struct {
		const char *tail, *want;
	} bad[] = {{"sms: 0}\n", "not a count"}, {"gemm_efficiency: 1.5}\n", "not a fraction"}};
	int with_sms = 0;
	(void)state;
	for (int i = 0; i < cat->ngpus; i++) {
		const struct gpu *g = &cat->gpus[i];
		with_sms += g->sms > 0;
		assert_true(g->gemm_efficiency >= 0 && g->gemm_efficiency <= 1);
	}
	assert_true(with_sms >= 34);
	assert_true(catalog_find_gpu(cat, "rtx-4090")->gemm_efficiency == 0.98);
	/* Blackwell as deployed and the H20, from device queries and benchmark reports (sources
	 * in catalog/gpus.yaml); Gaudi has MMEs and TPCs, no SMs, and records none */
	assert_int_equal(catalog_find_gpu(cat, "gb200")->sms, 152);
	assert_int_equal(catalog_find_gpu(cat, "b300")->sms, 148);
	assert_int_equal(catalog_find_gpu(cat, "gb300")->sms, 152);
	assert_int_equal(catalog_find_gpu(cat, "h20")->sms, 78);
	assert_int_equal(catalog_find_gpu(cat, "gaudi2")->sms, 0);
	assert_int_equal(catalog_find_gpu(cat, "gaudi3")->sms, 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char text[600], buf[512];
		struct catalog *c = catalog_new();
		struct gp_error err;
		assert_non_null(c);
		snprintf(text, sizeof(text), "%s%s", head, bad[i].tail);
		assert_int_equal(catalog_parse_gpus(c, text, strlen(text), "g.yaml", &err), -1);
		gp_error_format(&err, buf, sizeof(buf));
		if (!strstr(buf, "g.yaml:2:") || !strstr(buf, bad[i].want))
			fail_msg("%s: %s", bad[i].tail, buf);
		catalog_free(c);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_new_gpus_match_their_datasheets),
	    cmocka_unit_test(test_new_gpus_dense_is_half_sparse),
	    cmocka_unit_test(test_shipped_gpu_ids_are_unique),
	    cmocka_unit_test(test_sms_and_gemm_efficiency),
	    cmocka_unit_test(test_ascend_910b_from_cann),
	};
	return cmocka_run_group_tests(tests, shipped_catalog_setup, shipped_catalog_teardown);
}
