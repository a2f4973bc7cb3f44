/* test_catalog_capacity.c - GPU memory as the hardware has it: the shipped catalog's
 * capacities are binary (an "80GB" H100 has 80 GiB), fits compare against what CUDA reports
 * as total where it is known (catalog/gpus.yaml cuda_total, each with its source there), a
 * scenario's hardware.memory replaces both, and a cuda_total above the memory is refused
 * with FILE:LINE:COL. The figures repeat the catalog on purpose: a change to one of them
 * has to be made twice, against its source. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "explain.h"
#include "plan.h"
#include "scenario.h"
#include "shipped_catalog.h"

#define GIB 1073741824.0
#define MIB 1048576.0

struct want {
	const char *id;
	double memory, cuda_total; /* cuda_total 0: not known */
	const char *source;
};

static const struct want wants[] = {
    /* five 16 GiB HBM3 stacks; PyTorch's OOM message "total capacity of 79.11 GiB"
     * (vllm-project/vllm issue #27508) */
    {"h100-sxm-80gb", 80 * GIB, 79.11 * GIB, "vllm issue #27508"},
    /* nvidia-smi 81920MiB (modal-labs/modal-client PR #2797); PyTorch 79.14 GiB
     * (lianqi1008/Control-GIC issue #6) */
    {"a100-80gb-sxm", 80 * GIB, 79.14 * GIB, "Control-GIC issue #6"},
    /* deviceQuery 42298834944 bytes (bottlerocket-os/bottlerocket PR #3873) */
    {"a100-40gb-sxm", 40 * GIB, 42298834944.0, "bottlerocket PR #3873"},
    /* vLLM's total_gpu_memory=23.58GiB (vllm-project/vllm issue #10517;
       tests/validation/kv-budget.yaml) */
    {"rtx-3090", 24 * GIB, 23.58 * GIB, "vllm issue #10517"},
    /* PyTorch's "23.68 GiB total capacity" (zai-org/CogVideo issue #36) */
    {"rtx-4090", 24 * GIB, 23.68 * GIB, "CogVideo issue #36"},
    /* ECC on: PyTorch's "total capacity of 44.42 GiB" (Step-Video-T2V issue #8) */
    {"l40s", 48 * GIB, 44.42 * GIB, "Step-Video-T2V issue #8"},
    /* torch.cuda.mem_get_info: 178.4 GiB on a B200, 267.7 GiB on a B300
     * (sgl-project/sglang issue #25225) */
    {"b200", 180 * GIB, 178.4 * GIB, "sglang issue #25225"},
    {"b300", 270 * GIB, 267.7 * GIB, "sglang issue #25225"},
    /* PyTorch's "total capacity of 139.81 GiB" on an NVIDIA H200
     * (sungwon-chae/arxiv_confi etu_logging.md) */
    {"h200", 141 * GIB, 139.81 * GIB, "arxiv_confi etu_logging.md"},
    /* rocminfo's GPU pool 201310208 KB = 191.98 GiB (ROCm/rocm-examples issue #187) */
    {"mi300x", 192 * GIB, 201310208 * 1024.0, "rocm-examples issue #187"},
    /* PyTorch's "total capacity" in out-of-memory messages on each part */
    {"a800-80gb-sxm", 80 * GIB, 79.33 * GIB, "PB-LLM issue #3"},
    {"l40", 48 * GIB, 44.40 * GIB, "Qwen3-VL issue #2097"},
    {"l20", 48 * GIB, 44.53 * GIB, "HunyuanCustom issue #36"},
    {"v100-sxm-32gb", 32 * GIB, 31.74 * GIB, "LLaVA issue #812"},
    {"rtx-6000-ada", 48 * GIB, 44.43 * GIB, "MTVCrafter issue #21"},
    {"rtx-5090", 32 * GIB, 31.37 * GIB, "Wan2.1 issue #465"},
    /* ds4's cudaMemGetInfo total on the Workstation Edition (antirez/ds4 issue #431) */
    {"rtx-pro-6000", 96 * GIB, 94.97 * GIB, "ds4 issue #431"},
    /* torch.cuda.get_device_properties' total_memory (MiB, printed as MB) on each part */
    {"h100-pcie-80gb", 80 * GIB, 81008 * MIB, "H100 PCIe device properties"},
    {"a100-40gb-pcie", 40 * GIB, 40326 * MIB, "A100-PCIE-40GB device properties"},
    {"v100-pcie-32gb", 32 * GIB, 32510 * MIB, "V100-PCIE-32GB device properties"},
    {"h20", 96 * GIB, 97285 * MIB, "PainlessInferenceAcceleration seg_la.py"},
    /* the same total_memory as Ultralytics' device banner prints it ("CUDA:0 (NAME, N MiB)") */
    {"a100-80gb-pcie", 80 * GIB, 81154 * MIB, "A100 80GB PCIe Ultralytics banner"},
    {"l4", 24 * GIB, 22563 * MIB, "L4 Ultralytics banner, torch 2.11"},
    {"rtx-4090d", 24 * GIB, 24111 * MIB, "RTX 4090 D Ultralytics banner"},
    /* nvidia-smi -q FB total less reserved on real GB200 / GB300 nodes
     * (NVIDIA/k8s-test-infra testdata/hardware/qx-gb200.xml, qx-gb300.xml) */
    {"gb200", 186 * GIB, (189471 - 742) * MIB, "k8s-test-infra qx-gb200.xml"},
    {"gb300", 279 * GIB, (284208 - 947) * MIB, "k8s-test-infra qx-gb300.xml"},
    /* PyTorch's total on an H200 NVL, "Total: 139.80 GB" (GiB) in an executed notebook
     * (reference notes on jamesnelmore/role-confusion-extension's run) */
    {"h200-nvl", 141 * GIB, 139.80 * GIB, "H200 NVL notebook print"},
    /* "NVIDIA A10, 22.07 GiB total, 21.84 GiB free at start" (a run's run_meta.json) */
    {"a10", 24 * GIB, 22.07 * GIB, "A10 run metadata"},
    /* torch.hpu's dramSize: Gaudi 2 (bytedance/ByteMLPerf backend_hpu.py), Gaudi 3
     * (instructlab/instructlab docs/habana-gaudi.md) */
    {"gaudi2", 96 * GIB, 102106132480.0, "ByteMLPerf backend_hpu.py"},
    {"gaudi3", 128 * GIB, 136465870848.0, "InstructLab habana-gaudi.md"},
    /* torch_npu's "60.96 GiB total capacity" (vllm-project/vllm-ascend issue #1670) */
    {"ascend-910b", 64 * GIB, 60.96 * GIB, "vllm-ascend issue #1670"},
    /* only nvidia-smi's total seen: an upper bound */
    {"h800", 80 * GIB, 81559 * MIB, "nvidia-smi on H800"},
    /* the GPU pool as ROCm / OpenCL report it */
    {"mi325x", 256 * GIB, 268419072 * 1024.0, "ROCm/ROCm issue #6023"},
    {"mi355x", 288 * GIB, 301973504 * 1024.0, "OpenCL-Benchmark on MI355X"},
    /* no figure found: the memory itself */
    {"mi350x", 288 * GIB, 0, "ROCm GPU specifications"},
};

static const struct gpu *find(const char *id)
{
	const struct gpu *g = catalog_find_gpu(cat, id);
	if (!g)
		fail_msg("no GPU '%s' in the shipped catalog", id);
	return g;
}

static void test_capacities_are_as_the_hardware_has_them(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(wants) / sizeof(wants[0]); i++) {
		const struct want *w = &wants[i];
		const struct gpu *g = find(w->id);
		double cap = w->cuda_total > 0 ? w->cuda_total : w->memory;

		if (g->memory_bytes != w->memory)
			fail_msg("%s: memory %.0f, want %.0f (%s)", w->id, g->memory_bytes,
				 w->memory, w->source);
		/* units parse 79.11GiB as 79.11 x 2^30, not rounded */
		if (!(g->cuda_total_bytes > w->cuda_total - 1 &&
		      g->cuda_total_bytes < w->cuda_total + 1))
			fail_msg("%s: cuda_total %.0f, want %.0f (%s)", w->id, g->cuda_total_bytes,
				 w->cuda_total, w->source);
		if (!(gpu_capacity_bytes(g) > cap - 1 && gpu_capacity_bytes(g) < cap + 1))
			fail_msg("%s: capacity %.0f, want %.0f", w->id, gpu_capacity_bytes(g), cap);
	}
}

/* Every shipped cuda_total is what a process sees of the memory: at most all of it, and
 * no less than the 15/16 that ECC leaves on a GDDR part less a GiB the driver keeps. */
static void test_every_cuda_total_is_part_of_its_memory(void **state)
{
	int n = 0;
	(void)state;
	for (int i = 0; i < cat->ngpus; i++) {
		const struct gpu *g = &cat->gpus[i];
		if (g->cuda_total_bytes == 0)
			continue;
		n++;
		if (!(g->cuda_total_bytes <= g->memory_bytes &&
		      g->cuda_total_bytes >= g->memory_bytes * 15 / 16 - GIB))
			fail_msg("%s: cuda_total %.0f of memory %.0f", g->id, g->cuda_total_bytes,
				 g->memory_bytes);
	}
	assert_true(n >= 10);
}

/* The plan's capacity is CUDA's total on the catalog GPU, and the scenario's own
 * hardware.memory when it sets one (taken as what CUDA sees: the vLLM row of
 * tests/validation/ sets 23.58GiB). */
static void test_plan_capacity_follows_cuda_total_and_override(void **state)
{
	struct scenario s;
	struct plan p;
	struct gp_error err;

	(void)state;
	scenario_init(&s);
	assert_int_equal(scenario_set(&s, cat, "model.preset", "llama-2-7b", &err), 0);
	assert_int_equal(scenario_set(&s, cat, "workload.kind", "online", &err), 0);
	assert_int_equal(scenario_set(&s, cat, "hardware.gpu", "rtx-3090", &err), 0);
	plan_compute(&s, &p);
	assert_true(p.mem.capacity > 23.58 * GIB - 1 && p.mem.capacity < 23.58 * GIB + 1);
	assert_int_equal(scenario_set(&s, cat, "hardware.memory", "24GB", &err), 0);
	plan_compute(&s, &p);
	assert_true(p.mem.capacity == 24e9);
	/* a GPU chosen again brings its catalog figures back */
	assert_int_equal(scenario_set(&s, cat, "hardware.gpu", "h100-sxm-80gb", &err), 0);
	plan_compute(&s, &p);
	assert_true(p.mem.capacity > 79.11 * GIB - 1 && p.mem.capacity < 79.11 * GIB + 1);
}

/* explain memory.capacity says which figure the fit compares against: CUDA's total where
 * the catalog has it, the scenario's hardware.memory, or the whole memory marked
 * unverified where no reading of CUDA's total was found (mi350x). */
static void test_explain_names_the_capacity_figure(void **state)
{
	static const struct {
		const char *gpu, *memory, *says;
	} cases[] = {
	    {"h100-sxm-80gb", NULL, "what CUDA reports as total (cuda_total)"},
	    {"l20", NULL, "what CUDA reports as total (cuda_total)"},
	    {"mi350x", NULL, "unverified: no reading of what CUDA reports"},
	    {"mi350x", "78GiB", "hardware.memory, taken as what CUDA reports"},
	};
	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct scenario s;
		struct plan p;
		struct gp_error err;
		char buf[4096];
		scenario_init(&s);
		assert_int_equal(scenario_set(&s, cat, "model.preset", "llama-2-7b", &err), 0);
		assert_int_equal(scenario_set(&s, cat, "workload.kind", "online", &err), 0);
		assert_int_equal(scenario_set(&s, cat, "hardware.gpu", cases[i].gpu, &err), 0);
		if (cases[i].memory)
			assert_int_equal(
			    scenario_set(&s, cat, "hardware.memory", cases[i].memory, &err), 0);
		plan_compute(&s, &p);
		assert_int_equal(explain_key(&s, &p, "memory.capacity", buf, sizeof(buf), &err), 0);
		if (!strstr(buf, cases[i].says))
			fail_msg("%s: explain memory.capacity lacks '%s':\n%s", cases[i].gpu,
				 cases[i].says, buf);
	}
}

static void test_cuda_total_above_memory_is_refused(void **state)
{
	static const char text[] = "gpus:\n"
				   "  - id: x\n"
				   "    name: X\n"
				   "    vendor: nvidia\n"
				   "    memory: 24GiB\n"
				   "    cuda_total: 25GiB\n"
				   "    hbm_bandwidth: 1TB/s\n"
				   "    peak: {bf16: 100T}\n"
				   "    link: pcie\n"
				   "    link_bandwidth: 64GB/s\n"
				   "    link_domain: 1\n"
				   "    pcie: gen4x16\n"
				   "    pcie_bandwidth: 32GB/s\n"
				   "    power: 300W\n"
				   "    price_per_hour: 1\n"
				   "    gpus_per_node: 8\n"
				   "    network: 25Gb/s\n";
	struct catalog *c = catalog_new();
	struct gp_error err;
	char buf[512];

	(void)state;
	assert_non_null(c);
	assert_int_equal(catalog_parse_gpus(c, text, sizeof(text) - 1, "g.yaml", &err), -1);
	gp_error_format(&err, buf, sizeof(buf));
	assert_non_null(strstr(buf, "g.yaml:2:5:"));
	assert_non_null(strstr(buf, "cuda_total is more than memory"));
	catalog_free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_capacities_are_as_the_hardware_has_them),
	    cmocka_unit_test(test_every_cuda_total_is_part_of_its_memory),
	    cmocka_unit_test(test_plan_capacity_follows_cuda_total_and_override),
	    cmocka_unit_test(test_explain_names_the_capacity_figure),
	    cmocka_unit_test(test_cuda_total_above_memory_is_refused),
	};
	return cmocka_run_group_tests(tests, shipped_catalog_setup, shipped_catalog_teardown);
}
