/* test_properties.c - properties the memory model must keep over a grid of scenarios:
 * - a larger micro-batch never needs less memory;
 * - a higher ZeRO stage never needs more;
 * - under ZeRO-3, more GPUs never need more per GPU;
 * - full recompute <= selective <= none;
 * - per framework: the peak never falls as the batch or sequence grows, nor rises as more is
 *   recomputed, for every setting of its behaviours' fields; total >= reserved >= allocated;
 *   pure bf16 keeps a third of mixed precision's optimizer states;
 * plus, for inference, more concurrent sequences never need less and max_batch fits.
 * The grid covers dense (MHA, GQA), GPT-3-style (dropout, no FlashAttention), MoE and MLA
 * models, full training, LoRA and QLoRA, fp32 and bf16, tp, pp (1F1B and interleaved),
 * sequence parallelism and offload. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "plan.h"
#include "scenario.h"

#define GIB	1073741824.0
#define NMODELS 5

static long checks;

static void model_make(struct model *m, int which)
{
	memset(m, 0, sizeof(*m));
	m->mlp = MLP_GATED;
	m->norm = NORM_RMSNORM;
	m->max_context = 1 << 20;
	switch (which) {
	case 0: /* Llama-2-7B */
		m->layers = 32, m->hidden = 4096, m->heads = 32, m->ffn = 11008, m->vocab = 32000;
		break;
	case 1: /* GPT-3 2.7B style: dropout, LayerNorm, plain MLP */
		m->layers = 32, m->hidden = 2560, m->heads = 32, m->ffn = 10240, m->vocab = 50257;
		m->mlp = MLP_PLAIN, m->norm = NORM_LAYERNORM, m->dropout = true;
		m->attention_bias = true, m->mlp_bias = true, m->tied_embeddings = true;
		m->position_embeddings = 2048;
		break;
	case 2: /* Mixtral-8x7B style MoE with GQA */
		m->layers = 32, m->hidden = 4096, m->heads = 32, m->kv_heads = 8, m->ffn = 14336;
		m->vocab = 32000;
		m->moe.experts = 8, m->moe.active = 2, m->moe.expert_ffn = 14336;
		break;
	case 3: /* DeepSeek-V2-Lite style: MLA, shared experts, a dense first layer */
		m->layers = 28, m->hidden = 2048, m->heads = 16, m->head_dim = 128;
		m->ffn = 10944, m->vocab = 102400;
		m->mla.kv_rank = 512, m->mla.rope_dim = 64, m->mla.nope_dim = 128;
		m->mla.v_dim = 128;
		m->moe.experts = 64, m->moe.active = 6, m->moe.shared = 2;
		m->moe.expert_ffn = 1408, m->moe.dense_layers = 1;
		break;
	default: /* given by size only */
		m->params = 13e9;
		break;
	}
}

static void train_base(struct scenario *s, int model, int kind)
{
	scenario_init(s);
	model_make(&s->model, model);
	s->hardware.gpu.memory_bytes = 80 * GIB;
	s->hardware.gpu.gpus_per_node = 8;
	s->hardware.gpu.link_domain = 8;
	s->workload.seq_len = 2048;
	switch (kind) {
	case 0:
		s->workload.kind = WL_TRAIN;
		break;
	case 1:
		s->workload.kind = WL_TRAIN;
		s->workload.precision = DTYPE_FP32;
		s->workload.optimizer = OPT_ADAM8BIT;
		break;
	case 2:
		s->workload.kind = WL_FINETUNE;
		s->workload.finetune.method = FT_LORA;
		s->workload.finetune.targets = LORA_Q | LORA_V | LORA_UP | LORA_DOWN;
		s->workload.finetune.dropout = 0.05; /* QLoRA leaves it at 0 */
		break;
	default:
		s->workload.kind = WL_FINETUNE;
		s->workload.finetune.method = FT_QLORA;
		s->workload.finetune.base_weights = DTYPE_NF4;
		break;
	}
}

static const struct plan *compute(const struct scenario *s, struct plan *p)
{
	plan_compute_memory(s, p);
	checks++;
	return p;
}

/* A layout from an index: tp, pp, sp, interleaving, flash, offload. */
static bool layout_apply(struct scenario *s, int i)
{
	static const int tps[] = {1, 2, 4};
	static const int pps[] = {1, 2, 4};
	int tp = tps[i % 3], pp = pps[(i / 3) % 3];
	bool sp = (i / 9) % 2, flash = (i / 18) % 2, inter = (i / 36) % 2;
	int off = (i / 72) % 3;
	if (i >= 216)
		return false;
	s->parallel.tp = tp;
	s->parallel.pp = pp;
	s->parallel.sequence_parallel = sp;
	s->parallel.virtual_stages = inter && pp > 1 ? 2 : 1;
	s->parallel.offload = (enum offload)off;
	s->workload.flash_attention = flash;
	s->parallel.ep = s->model.moe.experts > 0 && tp == 1 ? 2 : 1;
	s->hardware.count = tp * pp * s->parallel.ep * 4;
	return true;
}

#define EPS 1e-9

static void check_le(double a, double b, const char *what, const struct scenario *s)
{
	if (!(a <= b * (1 + EPS) + 1e-6))
		fail_msg("%s: %.6g > %.6g (kind %d tp %d pp %d zero %d mb %d rc %d flash %d)", what,
			 a, b, s->workload.kind, s->parallel.tp, s->parallel.pp, s->parallel.zero,
			 s->workload.micro_batch, s->workload.recompute,
			 s->workload.flash_attention);
}

static void test_micro_batch_monotone(void **state)
{
	(void)state;
	struct scenario s;
	struct plan a, b;
	for (int model = 0; model < NMODELS; model++)
		for (int kind = 0; kind < 4; kind++)
			for (int li = 0;; li++) {
				train_base(&s, model, kind);
				if (!layout_apply(&s, li))
					break;
				for (int gb = 0; gb <= 1; gb++) {
					/* global batch auto, or fixed and divisible by every
					 * micro-batch tried */
					s.workload.global_batch = gb ? 64 * s.hardware.count : 0;
					for (int mb = 1; mb <= 8; mb *= 2) {
						s.workload.micro_batch = mb;
						compute(&s, &a);
						s.workload.micro_batch = 2 * mb;
						compute(&s, &b);
						check_le(a.mem.total, b.mem.total, "micro-batch",
							 &s);
						check_le(a.mem.activations, b.mem.activations,
							 "micro-batch activations", &s);
					}
				}
			}
}

static void test_zero_monotone(void **state)
{
	(void)state;
	struct scenario s;
	struct plan a, b;
	for (int model = 0; model < NMODELS; model++)
		for (int kind = 0; kind < 4; kind++)
			for (int li = 0;; li++) {
				train_base(&s, model, kind);
				if (!layout_apply(&s, li))
					break;
				for (int z = 0; z < 3; z++) {
					s.parallel.zero = z;
					compute(&s, &a);
					s.parallel.zero = z + 1;
					compute(&s, &b);
					check_le(b.mem.total, a.mem.total, "zero stage", &s);
					check_le(b.mem.weights + b.mem.gradients + b.mem.optimizer,
						 a.mem.weights + a.mem.gradients + a.mem.optimizer,
						 "zero stage model states", &s);
				}
			}
}

static void test_zero3_more_gpus(void **state)
{
	(void)state;
	struct scenario s;
	struct plan a, b;
	for (int model = 0; model < NMODELS; model++)
		for (int kind = 0; kind < 4; kind++)
			for (int li = 0;; li++) {
				train_base(&s, model, kind);
				if (!layout_apply(&s, li))
					break;
				s.parallel.zero = 3;
				int cell = s.parallel.tp * s.parallel.pp * s.parallel.ep;
				for (int dp = 1; dp <= 512; dp *= 2) {
					s.hardware.count = cell * dp;
					compute(&s, &a);
					s.hardware.count = cell * dp * 2;
					compute(&s, &b);
					assert_int_equal(b.dp, 2 * a.dp);
					/* Going from one data-parallel rank to two creates the
					 * data-parallel NCCL communicator and its buffers (2 peers
					 * x 16 channels x 4 MiB); with everything offloaded, or a
					 * few hundred MB of states per GPU (QLoRA on tp x pp 16),
					 * there is too little resident to shard against them.
					 * Past that first step, more GPUs never cost more. */
					double comm =
					    a.dp == 1 && a.ep == 1 ? 2 * 16 * 4194304.0 : 0;
					check_le(b.mem.total, a.mem.total + comm,
						 "zero-3 more gpus", &s);
					check_le(b.mem.weights + b.mem.gradients + b.mem.optimizer,
						 a.mem.weights + a.mem.gradients + a.mem.optimizer,
						 "zero-3 more gpus, model states", &s);
				}
			}
}

static void test_recompute_order(void **state)
{
	(void)state;
	struct scenario s;
	struct plan none, sel, full;
	for (int model = 0; model < NMODELS; model++)
		for (int kind = 0; kind < 4; kind++)
			for (int li = 0;; li++) {
				train_base(&s, model, kind);
				if (!layout_apply(&s, li))
					break;
				for (int mb = 1; mb <= 4; mb *= 2) {
					s.workload.micro_batch = mb;
					s.workload.recompute = RECOMPUTE_NONE;
					compute(&s, &none);
					s.workload.recompute = RECOMPUTE_SELECTIVE;
					compute(&s, &sel);
					s.workload.recompute = RECOMPUTE_FULL;
					compute(&s, &full);
					check_le(full.mem.activations, sel.mem.activations,
						 "full <= selective", &s);
					check_le(sel.mem.activations, none.mem.activations,
						 "selective <= none", &s);
					check_le(full.mem.total, sel.mem.total, "full <= selective",
						 &s);
					check_le(sel.mem.total, none.mem.total, "selective <= none",
						 &s);
					/* without FlashAttention selective recompute really saves
					 */
					if (!s.workload.flash_attention &&
					    !(sel.mem.activations < none.mem.activations))
						fail_msg("selective saves nothing without flash");
				}
			}
}

/* Inference: more sequences never need less; max_batch fits and one more does not;
 * more tensor parallelism never needs more per GPU for the same batch. */
static void test_inference(void **state)
{
	(void)state;
	struct scenario s;
	struct plan a, b;
	for (int model = 0; model < NMODELS; model++)
		for (int w = 0; w < 3; w++)
			for (int tp = 1; tp <= 8; tp *= 2) {
				static const enum dtype wt[] = {DTYPE_BF16, DTYPE_FP8, DTYPE_INT4};
				scenario_init(&s);
				model_make(&s.model, model);
				s.workload.kind = w == 1 ? WL_OFFLINE : WL_ONLINE;
				s.workload.weights = wt[w];
				s.workload.prompt_tokens = 1000;
				s.workload.output_tokens = 300;
				s.hardware.gpu.memory_bytes = 80 * GIB;
				s.hardware.count = tp;
				s.parallel.tp = tp;
				for (int batch = 1; batch <= 256; batch *= 2) {
					s.workload.batch = batch;
					compute(&s, &a);
					s.workload.batch = batch * 2;
					compute(&s, &b);
					check_le(a.mem.total, b.mem.total, "inference batch", &s);
					if (tp > 1) {
						struct plan c;
						s.parallel.tp = tp / 2;
						s.hardware.count = tp / 2;
						compute(&s, &c);
						check_le(b.mem.total, c.mem.total, "inference tp",
							 &s);
						s.parallel.tp = tp;
						s.hardware.count = tp;
					}
				}
				s.workload.batch = 0;
				compute(&s, &a);
				assert_false(isnan(a.max_batch));
				if (a.max_batch >= 1) {
					assert_true(a.mem.fits);
					s.workload.batch = (int)a.max_batch + 1;
					compute(&s, &b);
					assert_false(b.mem.fits);
				} else {
					assert_false(a.mem.fits);
				}
			}
}

/* Every figure is finite (or NAN where it does not apply) for odd scenarios too. */
static void test_degenerate(void **state)
{
	(void)state;
	struct scenario s;
	struct plan p;
	scenario_init(&s);
	compute(&s, &p); /* no model, no GPU */
	assert_true(isfinite(p.mem.total));
	assert_false(p.mem.fits);
	s.workload.kind = WL_ONLINE;
	s.workload.batch = 0;
	compute(&s, &p);
	assert_true(isfinite(p.mem.total));
	assert_true(isfinite(p.max_batch));
	scenario_init(&s);
	model_make(&s.model, 0);
	s.parallel.pp = 64; /* more stages than layers */
	s.parallel.tp = 64;
	s.hardware.count = 3;
	compute(&s, &p);
	assert_true(isfinite(p.mem.total) && p.mem.total > 0);
}

static void test_count(void **state)
{
	(void)state;
	/* the grid really ran */
	assert_true(checks > 10000);
}

/* workload.framework: for every training framework, over the grid (every fifth layout),
 * the peak (allocated, reserved and total) never falls as the micro-batch or the sequence
 * grows, and never rises as more is recomputed (none, selective, op, full); reserved is
 * never below allocated; pure bf16 (torchtune) keeps a third of mixed precision's
 * optimizer states. */
static const enum framework trainers[] = {FW_DEFAULT, FW_MEGATRON,  FW_FSDP, FW_DEEPSPEED,
					  FW_HF,      FW_TORCHTUNE, FW_LLMC};
#define NTRAINERS ((int)(sizeof(trainers) / sizeof(trainers[0])))

/* What nvidia-smi shows holds what the allocator reserves, which holds what is allocated,
 * which holds the cuBLAS workspaces. */
static void check_layers(const struct plan *a, const struct scenario *s)
{
	check_le(a->mem.blas_workspace, a->mem.allocated, "workspaces <= allocated", s);
	check_le(a->mem.allocated, a->mem.reserved, "allocated <= reserved", s);
	check_le(a->mem.reserved, a->mem.total, "reserved <= total", s);
}

static void check_peaks_le(const struct plan *a, const struct plan *b, const char *what,
			   const struct scenario *s)
{
	check_le(a->mem.allocated, b->mem.allocated, what, s);
	check_le(a->mem.reserved, b->mem.reserved, what, s);
	check_le(a->mem.total, b->mem.total, what, s);
	check_layers(a, s);
	check_layers(b, s);
}

static void test_framework_monotone(void **state)
{
	(void)state;
	struct scenario s;
	struct plan lo, hi;
	/* two chains of more recomputation: torchtitan's per-op policy and the attention-only
	 * checkpoint each lie between selective and full, not ordered with each other */
	static const enum recompute orders[2][4] = {
	    {RECOMPUTE_NONE, RECOMPUTE_SELECTIVE, RECOMPUTE_OP, RECOMPUTE_FULL},
	    {RECOMPUTE_NONE, RECOMPUTE_SELECTIVE, RECOMPUTE_ATTENTION, RECOMPUTE_FULL}};
	for (int chain = 0; chain < 2; chain++)
		for (int fw = 0; fw < NTRAINERS; fw++)
			for (int model = 0; model < NMODELS; model++)
				for (int kind = 0; kind < 4; kind++)
					for (int li = 0;; li += 5) {
						const enum recompute *order = orders[chain];
						train_base(&s, model, kind);
						if (!layout_apply(&s, li))
							break;
						s.workload.framework = trainers[fw];
						for (int r = 2 * chain; r < 4; r++) {
							s.workload.recompute = order[r];
							for (int mb = 1; mb < 4; mb *= 2) {
								s.workload.micro_batch = mb;
								compute(&s, &lo);
								s.workload.micro_batch = mb * 2;
								compute(&s, &hi);
								check_peaks_le(&lo, &hi,
									       "more batch", &s);
							}
							s.workload.micro_batch = 1;
							compute(&s, &lo);
							s.workload.seq_len = 4096;
							compute(&s, &hi);
							check_peaks_le(&lo, &hi, "longer sequence",
								       &s);
							s.workload.seq_len = 2048;
							if (r > 0) {
								s.workload.recompute = order[r - 1];
								compute(&s, &hi);
								s.workload.recompute = order[r];
								check_peaks_le(
								    &lo, &hi, "more recompute", &s);
							}
						}
					}
}

/* The framework behaviours' fields, for every training framework over the grid (every
 * seventh layout): eager layers (workload.compile off) never need less than compiled
 * ones; gradients allocated in the backward, or freed by the fused optimizer step, never
 * need more than a step-long buffer; activation offloading never needs more GPU memory;
 * and under each of them the peak never falls as the micro-batch or the sequence grows.
 * Micro-batch 1 with the global batch auto, so that each replica runs one micro-batch
 * (what the backward and fused lifetimes assume). */
static void test_framework_fields(void **state)
{
	(void)state;
	struct scenario s;
	struct plan lo, hi;
	static const enum grad_lifetime lives[] = {GRADS_AUTO, GRADS_STEP, GRADS_BACKWARD,
						   GRADS_FUSED};
	for (int fw = 0; fw < NTRAINERS; fw++)
		for (int model = 0; model < NMODELS; model++)
			for (int kind = 0; kind < 4; kind++)
				for (int li = 0;; li += 7) {
					train_base(&s, model, kind);
					if (!layout_apply(&s, li))
						break;
					s.workload.framework = trainers[fw];
					s.workload.recompute = (enum recompute)(li % 4);
					/* eager >= compiled */
					s.workload.compile = COMPILE_ON;
					compute(&s, &lo);
					s.workload.compile = COMPILE_OFF;
					compute(&s, &hi);
					check_peaks_le(&lo, &hi, "compile off", &s);
					/* backward and fused lifetimes <= a step-long buffer */
					s.workload.grad_lifetime = GRADS_STEP;
					compute(&s, &hi);
					for (int g = 2; g < 4; g++) {
						s.workload.grad_lifetime = lives[g];
						compute(&s, &lo);
						check_peaks_le(&lo, &hi, "grad lifetime", &s);
						check_le(lo.mem.gradients, lo.mem.gradients_full,
							 "gradients at the peak <= all of them",
							 &s);
					}
					/* offloaded activations leave less on the GPU */
					s.workload.grad_lifetime = GRADS_AUTO;
					compute(&s, &hi);
					s.workload.activation_offload = true;
					compute(&s, &lo);
					check_peaks_le(&lo, &hi, "activation offload", &s);
					/* and under each: more batch, longer sequences */
					for (int g = 0; g < 4; g++) {
						s.workload.grad_lifetime = lives[g];
						s.workload.activation_offload = g == 3;
						s.workload.compile =
						    g % 2 ? COMPILE_ON : COMPILE_OFF;
						s.workload.micro_batch = 1;
						compute(&s, &lo);
						s.workload.micro_batch = 2;
						compute(&s, &hi);
						check_peaks_le(&lo, &hi, "more batch, each field",
							       &s);
						s.workload.micro_batch = 1;
						s.workload.seq_len = 4096;
						compute(&s, &hi);
						check_peaks_le(&lo, &hi,
							       "longer sequence, each field", &s);
						s.workload.seq_len = 2048;
					}
				}
}

static void test_pure_bf16_third(void **state)
{
	(void)state;
	struct scenario s;
	struct plan mixed, pure;
	for (int model = 0; model < NMODELS; model++) {
		train_base(&s, model, 0);
		s.hardware.count = 1;
		s.workload.framework = FW_FSDP;
		compute(&s, &mixed);
		s.workload.framework = FW_TORCHTUNE;
		compute(&s, &pure);
		assert_true(mixed.mem.optimizer_bytes_per_param == 12);
		assert_true(pure.mem.optimizer_bytes_per_param == 4);
		assert_true(fabs(pure.mem.optimizer * 3 - mixed.mem.optimizer) <=
			    1e-9 * mixed.mem.optimizer);
		/* the explicit field says the same as the framework's default */
		s.workload.framework = FW_DEFAULT;
		s.workload.master_weights = MASTER_NONE;
		s.workload.optimizer_states = STATES_BF16;
		compute(&s, &mixed);
		assert_true(mixed.mem.optimizer == pure.mem.optimizer);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_micro_batch_monotone),
	    cmocka_unit_test(test_zero_monotone),
	    cmocka_unit_test(test_zero3_more_gpus),
	    cmocka_unit_test(test_recompute_order),
	    cmocka_unit_test(test_inference),
	    cmocka_unit_test(test_degenerate),
	    cmocka_unit_test(test_count),
	    cmocka_unit_test(test_framework_monotone),
	    cmocka_unit_test(test_framework_fields),
	    cmocka_unit_test(test_pure_bf16_third),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
