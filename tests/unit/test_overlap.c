/* test_overlap.c - communication overlapped with compute (parallel.tp_comm_overlap,
 * overlap_grad_reduce, overlap_param_gather, efficiency.overlap): the frameworks'
 * defaults as framework.c reads them from their code, and the properties of the rule
 * (src/plan_train.c, overlap_s): what an overlapped collective shows in the step is
 * max(x - c, x (1 - speed)) of its x seconds behind c seconds of compute, so overlap never
 * makes a step slower than running the collective alone, never hides more than the compute
 * it runs behind, and shows less as the link gets faster. The default framework keeps the
 * papers' idealised overlap, bit for bit. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "explain.h"
#include "framework.h"
#include "plan.h"
#include "scenario.h"
#include "shipped_catalog.h"
#include "measured_rows.h"

/* The measured speed of framework runs, shared with `gpuplan validate`. */
#define SPEED_ROWS "tests/validation/framework-speed.yaml"

static struct validation speed_rows;

static struct plan *pa, *pb;

static int setup(void **state)
{
	pa = malloc(sizeof(*pa));
	pb = malloc(sizeof(*pb));
	if (!pa || !pb)
		return -1;
	if (shipped_catalog_setup(state) != 0)
		return -1;
	return 0;
}

static bool speed_loaded;

/* framework-speed.yaml into speed_rows, once loaded again for each test that reads it */
static void speed_rows_load(void)
{
	if (speed_loaded)
		validation_release(&speed_rows);
	measured_load(&speed_rows, SPEED_ROWS);
	speed_loaded = true;
}

static int teardown(void **state)
{
	free(pa);
	free(pb);
	if (speed_loaded)
		validation_release(&speed_rows);
	return shipped_catalog_teardown(state);
}

static void set(struct scenario *s, const char *key, const char *value)
{
	struct gp_error err;
	if (scenario_set(s, cat, key, value, &err) != 0)
		fail_msg("%s=%s: %s", key, value, err.message);
}

/* Llama 3.1 8B pre-training on n H100s (torchtitan's benchmark shape), tp and ZeRO given. */
static void base(struct scenario *s, const char *framework, const char *tp, const char *zero,
		 const char *count)
{
	scenario_init(s);
	set(s, "model.preset", "llama-3.1-8b");
	set(s, "workload.kind", "train");
	set(s, "workload.framework", framework);
	set(s, "workload.seq_len", "8192");
	set(s, "workload.micro_batch", "1");
	set(s, "workload.global_batch", "64");
	set(s, "workload.recompute", "selective");
	set(s, "hardware.gpu", "h100-sxm-80gb");
	set(s, "hardware.count", count);
	set(s, "parallel.tp", tp);
	set(s, "parallel.zero", zero);
	if (strcmp(tp, "1") != 0)
		set(s, "parallel.sequence_parallel", "true");
}

static const char *const trainers[] = {"default", "megatron",  "fsdp", "deepspeed",
				       "hf",	  "torchtune", "llm.c"};
static const char *const tps[] = {"1", "2", "8"};
static const char *const zeros[] = {"0", "1", "3"};
static const char *const counts[] = {"8", "64"};
static const char *const kinds[] = {"parallel.tp_comm_overlap", "parallel.overlap_grad_reduce",
				    "parallel.overlap_param_gather"};

/* Every framework, layout and collective: on is never slower than off, and what each
 * collective shows lies between what perfect overlap and the contention leave and what it
 * takes alone. */
static void test_overlap_never_slower(void **state)
{
	(void)state;
	struct scenario s;
	int checked = 0, moved = 0;
	for (size_t f = 0; f < sizeof(trainers) / sizeof(trainers[0]); f++)
		for (size_t t = 0; t < sizeof(tps) / sizeof(tps[0]); t++)
			for (size_t z = 0; z < sizeof(zeros) / sizeof(zeros[0]); z++)
				for (size_t n = 0; n < sizeof(counts) / sizeof(counts[0]); n++)
					for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]);
					     k++) {
						base(&s, trainers[f], tps[t], zeros[z], counts[n]);
						set(&s, kinds[k], "off");
						plan_compute(&s, pa);
						set(&s, kinds[k], "on");
						plan_compute(&s, pb);
						if (!(pb->step_s <= pa->step_s))
							fail_msg(
							    "%s tp %s zero %s on %s GPUs: %s on "
							    "%.9g s > off %.9g s",
							    trainers[f], tps[t], zeros[z],
							    counts[n], kinds[k], pb->step_s,
							    pa->step_s);
						moved += pb->step_s < pa->step_s;
						checked++;
						/* off: shown as it is alone */
						assert_true(pa->overlap.tp_exposed_s ==
								pa->overlap.tp_s ||
							    k != 0);
						const struct plan_overlap *o = &pb->overlap;
						double sp = o->speed;
						assert_true(sp > 0 && sp <= 1);
						assert_true(o->tp_exposed_s <=
							    o->tp_s * (1 + 1e-12));
						assert_true(o->grad_exposed_s <=
							    o->grad_s * (1 + 1e-12));
						assert_true(o->param_exposed_s <=
							    o->param_s * (1 + 1e-12));
						/* the contention's share is always paid */
						if (o->tp == OVERLAP_ON)
							assert_true(o->tp_exposed_s >=
								    o->tp_s * (1 - sp) *
									(1 - 1e-12));
						if (o->grad == OVERLAP_ON && pb->zero < 3)
							assert_true(o->grad_exposed_s >=
								    o->grad_s * (1 - sp) *
									(1 - 1e-12));
					}
	assert_int_equal(checked, 7 * 3 * 3 * 2 * 3);
	/* the test would pass with overlap doing nothing: it must do something */
	assert_true(moved > checked / 4);
}

/* The shown part of an overlapped collective, against the rule itself: at speed 1 it is
 * max(0, x - c) with c the compute it hides behind (the last backward for DDP's
 * all-reduce), so comm above the compute shows exactly the excess, and at a speed k below
 * 1 it is max(x - c, x (1 - k)). */
static void test_exposed_is_max_of_excess_and_contention(void **state)
{
	(void)state;
	struct scenario s;
	/* one node, no sharding: 8 x 16 GB of bf16 gradients all-reduced over NVLink */
	base(&s, "fsdp", "1", "0", "8");
	plan_compute(&s, pa);
	double x = pa->overlap.grad_s, k = pa->overlap.speed;
	assert_true(x > 0);
	/* the collective's 16 SMs of the H100's 132 */
	assert_true(fabs(k - 116.0 / 132) < 1e-12);
	/* compute-bound: the 8B model's backward (seconds) hides 80 ms of all-reduce, so
	 * the contention's share is what shows */
	assert_true(fabs(pa->overlap.grad_exposed_s - x * (1 - k)) <= 1e-12 * x);
	assert_true(pa->parts.dp_comm_s == pa->overlap.grad_exposed_s);
	/* with no contention nothing shows */
	set(&s, "efficiency.overlap", "1");
	plan_compute(&s, pb);
	assert_true(pb->overlap.grad_exposed_s == 0);
	assert_true(pb->step_s < pa->step_s);
	/* a slow link (PCIe Gen3 class, 1 GB/s): the all-reduce outlasts the backward, and
	 * what shows is the excess, x - c, the same at any speed */
	set(&s, "hardware.link_bandwidth", "2GB/s");
	set(&s, "efficiency.overlap", "1");
	plan_compute(&s, pa);
	set(&s, "efficiency.overlap", "0.5");
	plan_compute(&s, pb);
	double c = pa->overlap.grad_s - pa->overlap.grad_exposed_s; /* the backward */
	assert_true(c > 0 && pa->overlap.grad_exposed_s > 0);
	/* speed 0.5: max(x - c, x / 2) */
	double want = fmax(pb->overlap.grad_s - c, pb->overlap.grad_s * 0.5);
	assert_true(fabs(pb->overlap.grad_exposed_s - want) <= 1e-9 * want);
}

/* A faster link never makes a step slower or an overlapped collective show more. */
static void test_monotonic_in_bandwidth(void **state)
{
	(void)state;
	static const char *const bws[] = {"50GB/s",  "100GB/s", "200GB/s",
					  "450GB/s", "900GB/s", "1.8TB/s"};
	for (size_t f = 0; f < sizeof(trainers) / sizeof(trainers[0]); f++) {
		struct scenario s;
		double step = INFINITY, tp = INFINITY, grad = INFINITY, param = INFINITY;
		base(&s, trainers[f], "8", "1", "8");
		set(&s, "parallel.tp", "2");
		set(&s, "parallel.tp_comm_overlap", "on");
		set(&s, "parallel.overlap_grad_reduce", "on");
		set(&s, "parallel.overlap_param_gather", "on");
		for (size_t i = 0; i < sizeof(bws) / sizeof(bws[0]); i++) {
			set(&s, "hardware.link_bandwidth", bws[i]);
			plan_compute(&s, pa);
			assert_true(pa->step_s <= step);
			assert_true(pa->overlap.tp_exposed_s <= tp);
			assert_true(pa->overlap.grad_exposed_s <= grad);
			assert_true(pa->overlap.param_exposed_s <= param);
			step = pa->step_s;
			tp = pa->overlap.tp_exposed_s;
			grad = pa->overlap.grad_exposed_s;
			param = pa->overlap.param_exposed_s;
		}
	}
}

/* The frameworks' defaults, as framework.c reads them: Megatron-Core overlaps nothing
 * (model_parallel_config.py, distributed_data_parallel_config.py), FSDP2 prefetches and
 * reduce-scatters on side streams, DeepSpeed's overlap_comm is on at stage 3 only
 * (zero/config.py), llm.c reduces in the backward and all-gathers after the step. */
static void test_framework_defaults(void **state)
{
	(void)state;
	struct scenario s;
	base(&s, "megatron", "2", "1", "64");
	plan_compute(&s, pa);
	assert_int_equal(pa->overlap.tp, OVERLAP_OFF);
	assert_int_equal(pa->overlap.grad, OVERLAP_OFF);
	assert_int_equal(pa->overlap.param, OVERLAP_OFF);
	assert_true(pa->overlap.grad_exposed_s == pa->overlap.grad_s);
	assert_true(pa->overlap.param_exposed_s == pa->overlap.param_s);
	assert_true(pa->parts.tp_comm_s == pa->overlap.tp_s);
	assert_true(pa->parts.dp_comm_s == pa->overlap.grad_s + pa->overlap.param_s);
	/* NeMo's recipe flags: each on moves its own collective only */
	set(&s, "parallel.overlap_grad_reduce", "on");
	plan_compute(&s, pb);
	assert_true(pb->overlap.grad_exposed_s < pa->overlap.grad_exposed_s);
	assert_true(pb->overlap.param_exposed_s == pa->overlap.param_exposed_s);
	assert_true(pb->parts.tp_comm_s == pa->parts.tp_comm_s);
	set(&s, "parallel.tp_comm_overlap", "on");
	plan_compute(&s, pb);
	/* Transformer Engine's 4 chunks: at least the last reduce-scatter chunk shows,
	 * 1 / (2 x 4) of the TP bytes */
	assert_true(pb->parts.tp_comm_s < pa->parts.tp_comm_s);
	assert_true(pb->parts.tp_comm_s >= pa->overlap.tp_s / 8 * (1 - 1e-12));

	static const struct {
		const char *framework, *zero;
		enum overlap grad, param;
	} rows[] = {
	    {"fsdp", "3", OVERLAP_ON, OVERLAP_ON},
	    {"deepspeed", "3", OVERLAP_ON, OVERLAP_ON},
	    {"deepspeed", "2", OVERLAP_OFF, OVERLAP_OFF},
	    {"hf", "0", OVERLAP_ON, OVERLAP_ON},
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		base(&s, rows[i].framework, "1", rows[i].zero, "8");
		plan_compute(&s, pa);
		assert_int_equal(pa->overlap.grad, rows[i].grad);
		assert_int_equal(pa->overlap.param, rows[i].param);
		assert_int_equal(pa->overlap.tp, OVERLAP_OFF);
	}

	base(&s, "llm.c", "1", "1", "8");
	plan_compute(&s, pa);
	assert_int_equal(pa->overlap.grad, OVERLAP_ON);
	assert_int_equal(pa->overlap.param, OVERLAP_OFF);
	assert_true(pa->overlap.param_exposed_s == pa->overlap.param_s);
	assert_true(pa->overlap.param_s > 0);
}

/* The default framework: the papers' idealised overlap (no contention, ZeRO-1/2 as one
 * all-reduce behind the backward), so writing its defaults out changes nothing, bit for
 * bit, while a named framework's contention costs time. */
static void test_default_unchanged(void **state)
{
	(void)state;
	struct scenario s;
	for (size_t t = 0; t < sizeof(tps) / sizeof(tps[0]); t++)
		for (size_t z = 0; z < sizeof(zeros) / sizeof(zeros[0]); z++) {
			base(&s, "default", tps[t], zeros[z], "64");
			plan_compute(&s, pa);
			assert_true(pa->overlap.speed == 1);
			assert_int_equal(pa->overlap.tp, OVERLAP_OFF);
			assert_int_equal(pa->overlap.grad, OVERLAP_ON);
			assert_int_equal(pa->overlap.param,
					 zeros[z][0] == '3' ? OVERLAP_ON : OVERLAP_PAPER);
			set(&s, "parallel.tp_comm_overlap", "off");
			set(&s, "parallel.overlap_grad_reduce", "on");
			set(&s, "efficiency.overlap", "1");
			plan_compute(&s, pb);
			assert_memory_equal(&pa->parts, &pb->parts, sizeof(pa->parts));
			assert_true(pa->step_s == pb->step_s);
		}
	/* the same layout under FSDP2's defaults pays the contention */
	base(&s, "default", "1", "3", "8");
	plan_compute(&s, pa);
	set(&s, "workload.framework", "fsdp");
	set(&s, "workload.loss", "paper"); /* the same memory and loss time as the default */
	set(&s, "efficiency.overlap", "1");
	plan_compute(&s, pb);
	double ideal = pb->parts.zero3_s;
	set(&s, "efficiency.overlap", "auto");
	plan_compute(&s, pb);
	assert_true(pb->parts.zero3_s > ideal);
	assert_true(pa->parts.zero3_s == ideal || pa->parts.zero3_s > 0);
}

/* explain of the step shows each collective, on or off, alone and shown, with the rule. */
static void test_explain_shows_overlap(void **state)
{
	(void)state;
	struct scenario s;
	struct gp_error err;
	static char buf[16384];
	base(&s, "megatron", "2", "1", "64");
	set(&s, "parallel.tp_comm_overlap", "on");
	plan_compute(&s, pa);
	assert_int_equal(explain_key(&s, pa, "time.step_s", buf, sizeof(buf), &err), 0);
	static const char *const lines[] = {
	    "communication behind compute (megatron's defaults",
	    "TP collectives     on",
	    "gradient reduction off",
	    "overlap_param_gather",
	    "max(comm - compute, comm x (1 - speed))",
	    "holds 16 of the GPU's 132 SMs",
	};
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		if (!strstr(buf, lines[i]))
			fail_msg("explain time.step_s lacks '%s':\n%s", lines[i], buf);
	/* the default framework's idealised overlap is the step's formula alone, as before
	 * frameworks; a field set shows the table */
	base(&s, "default", "1", "3", "64");
	plan_compute(&s, pa);
	assert_int_equal(explain_key(&s, pa, "time.step_s", buf, sizeof(buf), &err), 0);
	assert_null(strstr(buf, "communication behind compute"));
	set(&s, "parallel.overlap_grad_reduce", "off");
	plan_compute(&s, pa);
	assert_int_equal(explain_key(&s, pa, "time.step_s", buf, sizeof(buf), &err), 0);
	assert_non_null(strstr(buf, "gradient reduction off"));
	assert_non_null(strstr(buf, "without contention"));
	/* inference has none */
	scenario_init(&s);
	set(&s, "model.preset", "llama-3.1-8b");
	set(&s, "workload.kind", "online");
	set(&s, "hardware.gpu", "h100-sxm-80gb");
	plan_compute(&s, pa);
	assert_true(isnan(pa->overlap.tp_s));
	assert_int_equal(explain_key(&s, pa, "time.step_s", buf, sizeof(buf), &err), 0);
	assert_null(strstr(buf, "communication behind compute"));
}

/* Every measured speed row (tests/validation/framework-speed.yaml, each with its source:
 * the torchtitan, torchtune and llm.c runs, and the torchtune README's later rows as
 * validation): within 15% where claimed, else at its pinned error to 2 points. Nothing was
 * fitted to them but the RTX 4090's GEMM fraction, below. As it came out: torchtitan 8B FSDP2 +5.7%
 * (+9.1% before recompute op ran its matmuls again), torchtune 3B eager +1.2% and compiled -6.6%,
 * the README's later rows -3.0% to -9.2%; on the RTX 4090, whose GEMM fraction (catalog/gpus.yaml
 * gemm_efficiency 0.98) is fitted to its two rows by least squares, LoRA -10.9% (-26.5% before) and
 * QLoRA +9.6% (-9.0% before; -6.1% before its NF4 dequantisation was timed); llm.c's
 * GPT-2 124M -8.7% with its own kernels' elementwise traffic counted from train_gpt2.cu
 * (framework.c elt_h_fwd, elt_h_bwd; -16.2% with the generic ELT_H, -19.4% before its loss
 * was the fused classifier's one pass, plan_time.c loss_traffic). */
static void test_measured_speed_rows(void **state)
{
	(void)state;
	struct scenario s;
	speed_rows_load();
	for (int i = 0; i < speed_rows.nrows; i++) {
		const struct validate_row *r = &speed_rows.rows[i];
		measured_plan(r, &s, pa);
		double got = pa->tokens_per_s_per_gpu / r->unit_si;
		measured_same(r, &s, pa, got);
		double e = got / r->measured - 1;
		printf("  %-30s %+6.1f%%\n", r->id, 100 * e);
		/* a pinned row misses its tolerance (validate marks it '!') and is held at
		 * its honest error; the others within their tolerance */
		if (isnan(r->pinned))
			assert_true(fabs(e) <= r->tolerance);
		else
			assert_true(fabs(e - r->pinned) <= 0.02);
	}
	assert_int_equal(speed_rows.nrows, 11);
}

/* The speed side of workload.compile: torchtune's eager layers run every pointwise op as
 * its own kernel (plan_train.c eager_bytes), torch.compile fuses them. Between the README's
 * "+ Packed Dataset" row (eager, 7,075 tokens/s, a calibration row) and its "+ Compile" row
 * (8,998, validation) only the memory-bound time moves; gpuplan's speed-up is 1.168 against
 * the measured 1.272 (-8.2%). Megatron's kernels are fused either way. */
static void test_compile_removes_eager_traffic(void **state)
{
	(void)state;
	struct scenario s;
	speed_rows_load();
	measured_plan(measured_row(&speed_rows, "torchtune-3b-full-speed"), &s, pa);
	set(&s, "workload.compile", "on");
	plan_compute(&s, pb);
	assert_true(pb->step_s < pa->step_s);
	assert_true(pa->parts.matmul_s == pb->parts.matmul_s);
	assert_true(pa->parts.attention_s == pb->parts.attention_s);
	assert_true(pa->parts.optimizer_s == pb->parts.optimizer_s);
	assert_true(fabs((pa->step_s - pb->step_s) -
			 (pa->parts.memory_bound_s - pb->parts.memory_bound_s)) <=
		    1e-12 * pa->step_s);
	double gp = pb->tokens_per_s_per_gpu / pa->tokens_per_s_per_gpu, want = 8998.0 / 7075.0;
	printf("  compile speed-up: gpuplan %.3f, measured %.3f (%+.1f%%)\n", gp, want,
	       100 * (gp / want - 1));
	assert_true(fabs(gp / want - 1) <= 0.10);
	/* explain says where the eager time went */
	{
		static char buf[16384];
		struct gp_error err;
		set(&s, "workload.compile", "off");
		plan_compute(&s, pa);
		assert_int_equal(explain_key(&s, pa, "time.step_s", buf, sizeof(buf), &err), 0);
		assert_non_null(strstr(buf, "torch.compile fuses"));
	}
	/* fused kernels either way: compile changes nothing */
	set(&s, "workload.framework", "megatron");
	set(&s, "workload.compile", "off");
	plan_compute(&s, pa);
	set(&s, "workload.compile", "on");
	plan_compute(&s, pb);
	assert_true(pa->step_s == pb->step_s);
}

/* The loss's time follows workload.loss (plan_time.c loss_traffic): only the memory-bound
 * part moves, by T x V x (the bytes a logit moves) / HBM bandwidth. torchtune's compiled
 * chunked loss moves 4 e a logit, its eager fp32 upcast 32 + 2 e, compiled 20 + 2 e;
 * llm.c's fused_classifier 2 e, the paper's 12. The README's "+ Chunked Cross Entropy"
 * row is 2.0% faster than "+ Compile" (9,174 against 8,998 tokens/s): gpuplan's gain is
 * positive and below 5%. */
static void test_loss_time(void **state)
{
	(void)state;
	struct scenario s;
	speed_rows_load();
	measured_plan(measured_row(&speed_rows, "torchtune-3b-compile-speed"), &s, pa);
	set(&s, "workload.loss", "chunked");
	plan_compute(&s, pb);
	double T = 2 * 4096, V = 128256,
	       bw = 1 / (pa->hbm_efficiency * s.hardware.gpu.hbm_bytes_per_s);
	assert_true(pa->parts.matmul_s == pb->parts.matmul_s);
	assert_true(fabs((pa->parts.memory_bound_s - pb->parts.memory_bound_s) -
			 T * V * (24 - 8) * bw) <= 1e-9 * pa->step_s);
	double gain = pb->tokens_per_s_per_gpu / pa->tokens_per_s_per_gpu - 1;
	printf("  chunked over fp32 (compiled): gpuplan %+.1f%%, measured %+.1f%%\n", 100 * gain,
	       100 * (9174.0 / 8998 - 1));
	assert_true(gain > 0 && gain < 0.05);
	/* eager: the upcast's pair of kernels more than compiled, 36 against 28 a logit */
	set(&s, "workload.loss", "fp32");
	set(&s, "workload.compile", "off");
	plan_compute(&s, pb);
	set(&s, "workload.loss", "chunked");
	plan_compute(&s, pa);
	assert_true(fabs(pb->parts.memory_bound_s - pa->parts.memory_bound_s) <=
		    1e-12 * pa->step_s); /* eager chunks move what the whole upcast does */
	/* llm.c: the fused classifier's 4 bytes a logit against the paper's 12 */
	measured_plan(measured_row(&speed_rows, "llmc-gpt2-124m-speed"), &s, pa);
	set(&s, "workload.loss", "paper");
	plan_compute(&s, pb);
	assert_true(fabs((pb->parts.memory_bound_s - pa->parts.memory_bound_s) -
			 64 * 1024 * 50257.0 * (12 - 4) /
			     (pa->hbm_efficiency * s.hardware.gpu.hbm_bytes_per_s)) <=
		    1e-9 * pa->step_s);
	assert_true(pa->tokens_per_s_per_gpu > pb->tokens_per_s_per_gpu);
	/* explain says what the loss moves */
	{
		static char buf[16384];
		struct gp_error err;
		set(&s, "workload.loss", "auto");
		plan_compute(&s, pa);
		assert_int_equal(explain_key(&s, pa, "time.step_s", buf, sizeof(buf), &err), 0);
		assert_non_null(strstr(buf, "moves 4 bytes a logit"));
		assert_non_null(strstr(buf, "fused_classifier"));
		assert_non_null(strstr(buf, "move 8 h-sized elements a layer"));
	}
}

/* A quantised frozen base costs its dequantisation in every pass that multiplies by it
 * (plan_train.c dequant_bytes): QLoRA's step over the same run with a bf16 base is the
 * memory-bound time of 2.5 bytes a layer weight (0.5 read, 2 written: torchao's NF4 chain
 * compiled) in the forward, the recomputed forward and the input gradient; eager torchao
 * (compile off) moves 29 a weight, and a bf16 base none. */
static double dequant_diff(struct scenario *s)
{
	set(s, "workload.finetune.method", "qlora");
	set(s, "workload.finetune.base_weights", "nf4");
	plan_compute(s, pa);
	set(s, "workload.finetune.method", "lora");
	set(s, "workload.finetune.base_weights", "bf16");
	plan_compute(s, pb);
	assert_true(pa->parts.matmul_s == pb->parts.matmul_s);
	return pa->parts.memory_bound_s - pb->parts.memory_bound_s;
}

static void test_qlora_dequant_time(void **state)
{
	(void)state;
	struct scenario s;
	speed_rows_load();
	measured_plan(measured_row(&speed_rows, "torchtune-qlora-4090-speed"), &s, pa);
	double lw = pa->active_params - pa->counts.embedding - pa->counts.head;
	double bw = pa->hbm_efficiency * s.hardware.gpu.hbm_bytes_per_s;
	assert_true(fabs(dequant_diff(&s) - lw * 2.5 * 3 / bw) <= 1e-9 * pa->step_s);
	/* eager: torchao's get_original_weight op by op (the layers' own eager traffic is
	 * the same with either base) */
	set(&s, "workload.compile", "off");
	assert_true(fabs(dequant_diff(&s) - lw * 29 * 3 / bw) <= 1e-9 * pa->step_s);
	/* no recomputation: two passes, not three */
	set(&s, "workload.recompute", "none");
	assert_true(fabs(dequant_diff(&s) - lw * 29 * 2 / bw) <= 1e-9 * pa->step_s);
	/* explain gives the dequantisation's share; a bf16 base has none */
	{
		static char buf[16384];
		struct gp_error err;
		set(&s, "workload.finetune.method", "qlora");
		set(&s, "workload.finetune.base_weights", "nf4");
		plan_compute(&s, pa);
		assert_int_equal(explain_key(&s, pa, "time.step_s", buf, sizeof(buf), &err), 0);
		assert_non_null(strstr(buf, "dequantised to 16 bits"));
		set(&s, "workload.finetune.method", "lora");
		set(&s, "workload.finetune.base_weights", "bf16");
		plan_compute(&s, pa);
		assert_int_equal(explain_key(&s, pa, "time.step_s", buf, sizeof(buf), &err), 0);
		assert_null(strstr(buf, "dequantised to 16 bits"));
	}
}

/* workload.recompute_layers: only R of a stage's layers recompute (Megatron
 * --recompute-method block --recompute-num-layers R; torchtitan selective_ac_option N,
 * R = floor(L / N)), the others store everything. On torchtune's 3B run with full
 * recomputation (28 layers, one GPU): R = 28 is the default; the stored activations and
 * the step are linear in R between none (R = 0) and full (R = L), so the activations
 * never rise and the step never falls as R grows; under a pipeline R counts a stage's
 * layers. */
static void test_recompute_layers(void **state)
{
	(void)state;
	struct scenario s;
	static struct plan none, full;
	speed_rows_load();
	measured_plan(measured_row(&speed_rows, "torchtune-3b-ac-speed"), &s, &full);
	assert_int_equal(full.recompute_layers, 28);
	set(&s, "workload.recompute", "none");
	plan_compute(&s, &none);
	assert_int_equal(none.recompute_layers, 0);
	set(&s, "workload.recompute", "full");
	double prev_act = INFINITY, prev_step = 0, prev_hw = 0;
	for (int r = 1; r <= 30; r++) {
		char v[16];
		snprintf(v, sizeof(v), "%d", r);
		set(&s, "workload.recompute_layers", v);
		plan_compute(&s, pa);
		double k = (r < 28 ? r : 28) / 28.0;
		/* linear between none and full: R = 0 is none, R = L full */
		assert_true(
		    fabs(pa->mem.activations_per_layer -
			 (none.mem.activations_per_layer +
			  k * (full.mem.activations_per_layer - none.mem.activations_per_layer))) <=
		    1e-9 * none.mem.activations_per_layer);
		assert_true(
		    fabs(pa->parts.matmul_s -
			 (none.parts.matmul_s + k * (full.parts.matmul_s - none.parts.matmul_s))) <=
		    1e-9 * full.parts.matmul_s);
		assert_true(fabs(pa->hw_flops_per_token -
				 (none.hw_flops_per_token +
				  k * (full.hw_flops_per_token - none.hw_flops_per_token))) <=
			    1e-9 * full.hw_flops_per_token);
		assert_true(pa->mem.activations <= prev_act);
		assert_true(pa->step_s >= prev_step);
		assert_true(pa->hw_flops_per_token >= prev_hw);
		/* the layer rebuilt in the backward stays one layer */
		assert_true(pa->mem.rebuilt_layer == full.mem.rebuilt_layer);
		assert_int_equal(pa->recompute_layers, r < 28 ? r : 28);
		prev_act = pa->mem.activations;
		prev_step = pa->step_s;
		prev_hw = pa->hw_flops_per_token;
	}
	/* R = L is full, exactly */
	set(&s, "workload.recompute_layers", "28");
	plan_compute(&s, pa);
	assert_true(pa->step_s == full.step_s && pa->mem.total == full.mem.total);
	/* explain names the field and the split */
	{
		static char buf[16384];
		struct gp_error err;
		set(&s, "workload.recompute_layers", "7");
		plan_compute(&s, pa);
		assert_int_equal(
		    explain_key(&s, pa, "memory.per_gpu.activations", buf, sizeof(buf), &err), 0);
		assert_non_null(strstr(buf, "workload.recompute_layers: 7 of the stage's 28"));
	}
	/* R of each stage under a pipeline: 14 of a 2-stage 28-layer model is every layer */
	set(&s, "workload.framework", "megatron");
	set(&s, "hardware.count", "2");
	set(&s, "parallel.pp", "2");
	set(&s, "workload.global_batch", "8");
	set(&s, "workload.recompute_layers", "auto");
	plan_compute(&s, pb);
	set(&s, "workload.recompute_layers", "14");
	plan_compute(&s, pa);
	assert_int_equal(pa->recompute_layers, 14);
	assert_true(pa->step_s == pb->step_s && pa->mem.total == pb->mem.total);
	set(&s, "workload.recompute_layers", "7");
	plan_compute(&s, pa);
	assert_true(pa->mem.activations > pb->mem.activations && pa->step_s < pb->step_s);
	/* bad input: 0 layers is recompute: none, not a count this field takes */
	{
		struct gp_error err;
		assert_int_not_equal(scenario_set(&s, cat, "workload.recompute_layers", "0", &err),
				     0);
		assert_non_null(strstr(err.message, "expected 1 to 65536 or auto"));
	}
}

/* torchtitan's per-op checkpointing (workload.recompute op) in the step: the attention
 * kernel's output is saved, so its core runs as without recomputation; wk, wo and w3 run
 * again: (1024 + 4096 + 14336) / (2 x 4096 + 2 x 1024 + 3 x 14336) = 0.365 of Llama 3.1
 * 8B's forward GEMMs, on top of the forward and the backward's two (the output layer, in
 * the matmuls too, is not recomputed), and in the hardware FLOPs 2 x that share of the
 * layers' parameters. */
static void test_recompute_op_time(void **state)
{
	(void)state;
	struct scenario s;
	base(&s, "fsdp", "1", "3", "8");
	set(&s, "workload.recompute", "none");
	plan_compute(&s, pa);
	set(&s, "workload.recompute", "op");
	plan_compute(&s, pb);
	double share = (1024.0 + 4096 + 14336) / (2 * 4096.0 + 2 * 1024 + 3 * 14336);
	assert_true(pb->parts.attention_s == pa->parts.attention_s);
	/* the layers' GEMMs grow by share / 3; the output layer's (about 7% of the matmul
	 * time here) does not */
	double grow = pb->parts.matmul_s / pa->parts.matmul_s - 1;
	assert_true(grow < share / 3 && grow > 0.9 * share / 3);
	double layer_params = pa->params - pa->counts.embedding - pa->counts.head;
	assert_true(fabs(pb->hw_flops_per_token - pa->hw_flops_per_token -
			 2 * layer_params * share) <= 1e-9 * pa->hw_flops_per_token);
	assert_true(pb->parts.memory_bound_s > pa->parts.memory_bound_s);
	assert_true(pb->hw_flops_per_token > pa->hw_flops_per_token);
	assert_true(pb->flops_per_token == pa->flops_per_token);
}

/* The contention follows the GPU's SM count (catalog/gpus.yaml sms, each from its
 * architecture whitepaper): an overlapped collective holds 16 SMs (Transformer Engine's
 * userbuffers num_sm; NCCL's ring search, MAXCHANNELS / 2 channels of one SM), so the
 * GEMMs keep (sms - 16) / sms: 116 / 132 on an H100 SXM, 92 / 108 on an A100; a GPU
 * without a count takes Lee et al.'s measured 1 / 1.189, efficiency.overlap overrides
 * both, the default framework has none, and more SMs never mean a slower step. */
static void test_contention_from_sms(void **state)
{
	(void)state;
	struct scenario s;
	static const struct {
		const char *id;
		int sms;
	} gpus[] = {{"h100-sxm-80gb", 132}, {"h100-pcie-80gb", 114}, {"a100-80gb-sxm", 108},
		    {"h200", 132},	    {"b200", 148},	     {"l40s", 142},
		    {"rtx-4090", 128},	    {"rtx-3090", 82},	     {"mi300x", 304}};
	for (size_t i = 0; i < sizeof(gpus) / sizeof(gpus[0]); i++) {
		const struct gpu *g = catalog_find_gpu(cat, gpus[i].id);
		assert_non_null(g);
		if (g->sms != gpus[i].sms)
			fail_msg("%s: sms %d, want %d", gpus[i].id, g->sms, gpus[i].sms);
		assert_true(fabs(framework_overlap_speed(FW_FSDP, 0, g->sms) -
				 (gpus[i].sms - 16.0) / gpus[i].sms) < 1e-12);
	}
	assert_true(fabs(framework_overlap_speed(FW_MEGATRON, 0, 0) - 1 / 1.189) < 1e-12);
	assert_true(framework_overlap_speed(FW_MEGATRON, 0.5, 132) == 0.5);
	assert_true(framework_overlap_speed(FW_DEFAULT, 0, 132) == 1);
	base(&s, "fsdp", "1", "3", "8");
	plan_compute(&s, pa);
	assert_true(fabs(pa->overlap.speed - 116.0 / 132) < 1e-12);
	s.hardware.gpu.sms = 0; /* a GPU whose count is not known */
	plan_compute(&s, pb);
	assert_true(fabs(pb->overlap.speed - 1 / 1.189) < 1e-12);
	assert_true(pb->step_s >= pa->step_s);
	for (int sms = 20; sms <= 400; sms += 20) {
		s.hardware.gpu.sms = sms;
		plan_compute(&s, pb);
		s.hardware.gpu.sms = sms + 20;
		plan_compute(&s, pa);
		assert_true(pa->step_s <= pb->step_s);
	}
}

/* Attention-only checkpointing (workload.recompute attention) in the step: the attention
 * core runs again, as under selective; the attention's projections, (2 x 4096 + 2 x 1024)
 * / (2 x 4096 + 2 x 1024 + 3 x 14336) = 0.192 of Llama 3.1 8B's forward GEMMs, run again
 * on top of the forward and the backward's two; in the hardware FLOPs 2 x that share of
 * the layers' parameters plus one forward of the attention core; with tp, the module's
 * collective once more. */
static void test_recompute_attention_time(void **state)
{
	(void)state;
	struct scenario s;
	base(&s, "fsdp", "1", "3", "8");
	set(&s, "workload.recompute", "selective");
	plan_compute(&s, pa);
	set(&s, "workload.recompute", "attention");
	plan_compute(&s, pb);
	double share = (2 * 4096.0 + 2 * 1024) / (2 * 4096.0 + 2 * 1024 + 3 * 14336);
	assert_true(fabs(pb->parts.attention_s - pa->parts.attention_s) <=
		    1e-12 * pa->parts.attention_s);
	set(&s, "workload.recompute", "none");
	plan_compute(&s, pa);
	assert_true(pb->parts.attention_s > pa->parts.attention_s);
	double grow = pb->parts.matmul_s / pa->parts.matmul_s - 1;
	assert_true(grow < share / 3 && grow > 0.9 * share / 3);
	double layer_params = pa->params - pa->counts.embedding - pa->counts.head;
	assert_true(pb->hw_flops_per_token - pa->hw_flops_per_token >
		    2 * layer_params * share * (1 - 1e-9));
	assert_true(pb->flops_per_token == pa->flops_per_token);
	/* between none and full in the step */
	set(&s, "workload.recompute", "full");
	plan_compute(&s, pa);
	assert_true(pb->step_s < pa->step_s);
	/* tp 2: the module's all-reduce again, 5 of the layer's collectives where none has 4 */
	base(&s, "megatron", "2", "1", "8");
	set(&s, "workload.recompute", "none");
	plan_compute(&s, pa);
	set(&s, "workload.recompute", "attention");
	plan_compute(&s, pb);
	assert_true(fabs(pb->overlap.tp_s / pa->overlap.tp_s - 5.0 / 4) < 1e-9);
}

/* A value outside the choices is refused with its position and the list. */
static void test_bad_values(void **state)
{
	(void)state;
	struct scenario s;
	struct gp_error err;
	scenario_init(&s);
	assert_int_not_equal(scenario_set(&s, cat, "parallel.tp_comm_overlap", "yes", &err), 0);
	assert_non_null(strstr(err.message, "auto"));
	assert_non_null(strstr(err.message, "off"));
	assert_int_not_equal(scenario_set(&s, cat, "parallel.overlap_param_gather", "paper", &err),
			     0);
	assert_int_not_equal(scenario_set(&s, cat, "efficiency.overlap", "1.5", &err), 0);
	assert_int_not_equal(scenario_set(&s, cat, "efficiency.overlap", "0", &err), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_overlap_never_slower),
	    cmocka_unit_test(test_exposed_is_max_of_excess_and_contention),
	    cmocka_unit_test(test_monotonic_in_bandwidth),
	    cmocka_unit_test(test_framework_defaults),
	    cmocka_unit_test(test_default_unchanged),
	    cmocka_unit_test(test_explain_shows_overlap),
	    cmocka_unit_test(test_measured_speed_rows),
	    cmocka_unit_test(test_compile_removes_eager_traffic),
	    cmocka_unit_test(test_loss_time),
	    cmocka_unit_test(test_qlora_dequant_time),
	    cmocka_unit_test(test_recompute_op_time),
	    cmocka_unit_test(test_recompute_attention_time),
	    cmocka_unit_test(test_contention_from_sms),
	    cmocka_unit_test(test_recompute_layers),
	    cmocka_unit_test(test_bad_values),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
