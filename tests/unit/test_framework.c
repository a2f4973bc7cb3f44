/* test_framework.c - workload.framework: the measured framework runs that gpuplan models
 * (the rows of tests/validation/framework-memory.yaml, each with its public source), each
 * within 10% on memory (issue 12's target), and the framework's bad-input rules.
 *
 * Shapes are given by hand from the models' published config.json files; GPUs by hand
 * with the capacity the run's source states. Each row's source is at its test. A row whose
 * prediction is outside 10% is not claimed: its error is recorded in the comment and only
 * what the mechanism fixes exactly is asserted. */
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
#include "figure.h"
#include "framework.h"
#include "plan.h"
#include "scenario.h"
#include "shipped_catalog.h"
#include "validate.h"

#define GIB 1073741824.0

/* The measured rows, their scenarios and tolerances: one copy, shared with `gpuplan
 * validate` (tests/validation/framework-memory.yaml, and the vLLM KV budget of
 * kv-budget.yaml, both loaded into rows). */
#define ROWS	"tests/validation/framework-memory.yaml"
#define KV_ROWS "tests/validation/kv-budget.yaml"

static struct validation rows;

static struct plan plan_buf;

static const struct plan *compute(const struct scenario *s)
{
	plan_compute_memory(s, &plan_buf);
	return &plan_buf;
}

static double rel_err(double got, double want)
{
	return (got - want) / want;
}

static bool has_warning(const struct plan *p, enum plan_warning_code code)
{
	for (int i = 0; i < p->nwarnings; i++)
		if (p->warnings[i].code == code)
			return true;
	return false;
}

/* The row with this id, its scenario in *s; then a check that `gpuplan validate` reads
 * the figure this test asserts (got, in the row's unit). */
static const struct validate_row *row_scenario(const char *id, struct scenario *s)
{
	struct gp_error err;
	const struct validate_row *r = validation_find(&rows, id);
	if (!r)
		fail_msg("%s: no row '%s'", ROWS, id);
	if (validate_row_scenario(r, cat, s, &err) != 0)
		fail_msg("%s: %s", ROWS, err.message);
	return r;
}

static void same_as_validate(const struct validate_row *r, const struct scenario *s, double got)
{
	struct plan *p = malloc(sizeof(*p));
	double v;
	assert_non_null(p);
	plan_compute(s, p);
	assert_int_equal(validate_row_predict(r, s, p, &v), 0);
	free(p);
	/* the JSON report that validate reads prints byte figures as whole bytes */
	if (!(fabs(v - got) <= 1e-12 * fabs(got) + 0.5 / r->unit_si))
		fail_msg("%s: validate reads %.9g, the test %.9g", r->id, v, got);
}

static void gpu_set(struct scenario *s, const char *id, double bytes, int count)
{
	snprintf(s->hardware.gpu.id, sizeof(s->hardware.gpu.id), "%s", id);
	s->hardware.gpu.memory_bytes = bytes;
	s->hardware.gpu.gpus_per_node = 8;
	s->hardware.gpu.link_domain = 8;
	s->hardware.count = count;
}

/* meta-llama/Llama-3.1-8B config.json: 32 layers, hidden 4096, 32 heads, 8 key/value
 * heads, intermediate 14336, vocab 128256, untied embeddings, 131072 positions. */
static void llama31_8b(struct model *m)
{
	memset(m, 0, sizeof(*m));
	m->mlp = MLP_GATED;
	m->norm = NORM_RMSNORM;
	m->layers = 32, m->hidden = 4096, m->heads = 32, m->kv_heads = 8, m->ffn = 14336;
	m->vocab = 128256, m->max_context = 131072;
}

/* Llama 3.1 8B pretraining on gpus H100s (80 GiB), micro-batch 1 of seq tokens, global
 * batch global. */
static void train_8b(struct scenario *s, int gpus, int seq, int global)
{
	scenario_init(s);
	llama31_8b(&s->model);
	gpu_set(s, "h100", 80 * GIB, gpus);
	s->workload.kind = WL_TRAIN;
	s->workload.seq_len = seq;
	s->workload.micro_batch = 1;
	s->workload.global_batch = global;
}

/* torchtitan, Llama 3.1 8B, FSDP2 over 8 x H100 96 GB (pytorch/torchtitan
 * benchmarks/llama3_h100_202412_torchtitan.md; setup from train_configs/llama3_8b.toml):
 * bf16 mixed precision, local batch 2 x 8192, selective AC with the `op` policy. The
 * figure is torch.cuda max_reserved: 82.4 GiB. gpuplan: 86.27 GiB (+4.7%; 84.68 GiB, +2.8%,
 * before the whole head and block gradients that wait for their reduce-scatter, 1.38 GiB);
 * allocated 75.03 GiB, with the workspaces' 64 MiB (NCCL's 128 MiB of buffers are outside
 * both). The allocator slack (0.15, src/framework.c) is from GMLake's 10-30%; this row
 * alone would now imply 0.098. */
static void test_torchtitan_8b_fsdp2(void **state)
{
	(void)state;
	struct scenario s;
	/* FSDP2 fully sharded: parallel.zero 3 */
	const struct validate_row *r = row_scenario("torchtitan-8b-fsdp2", &s);
	const struct plan *p = compute(&s);
	same_as_validate(r, &s, p->mem.reserved / r->unit_si);
	assert_true(fabs(rel_err(p->mem.reserved / r->unit_si, r->measured)) < r->tolerance);
	assert_true(p->mem.reserved >= p->mem.allocated);
	assert_true(p->mem.optimizer_bytes_per_param == 12);
}

/* torchtune README (pytorch/torchtune): one RTX 4090, batch 2, packed to 2048 tokens,
 * torch.compile, bf16 everywhere (adapters and their AdamW states bf16), activation
 * checkpointing; peak active (allocated) memory.
 * LoRA rank 8 on q and v (recipe config lora_attn_modules ['q_proj', 'v_proj']): 16.2 GiB.
 * gpuplan: 17.13 GiB (+5.7%; +5.6% before the cuBLAS workspaces). */
static void test_torchtune_lora_4090(void **state)
{
	(void)state;
	struct scenario s;
	const struct validate_row *r = row_scenario("torchtune-lora-4090", &s);
	const struct plan *p = compute(&s);
	same_as_validate(r, &s, p->mem.allocated / r->unit_si);
	assert_true(fabs(rel_err(p->mem.allocated / r->unit_si, r->measured)) < r->tolerance);
	/* bf16 adapters: AdamW's two bf16 moments, no master copy */
	assert_true(p->mem.optimizer_bytes_per_param == 4);
}

/* The same README, QLoRA: NF4 base, rank 8 on q, k, v, o and the MLP: 7.4 GiB.
 * gpuplan: 7.58 GiB (+2.4%, +2.2% before the cuBLAS workspaces; +2.7% while its adapters'
 * gradients counted beside the activations). */
static void test_torchtune_qlora_4090(void **state)
{
	(void)state;
	struct scenario s;
	const struct validate_row *r = row_scenario("torchtune-qlora-4090", &s);
	const struct plan *p = compute(&s);
	same_as_validate(r, &s, p->mem.allocated / r->unit_si);
	assert_true(fabs(rel_err(p->mem.allocated / r->unit_si, r->measured)) < r->tolerance);
}

/* The same README's "Optimization flags" table (commit 1814feb17, #2003), Llama 3.2 3B,
 * recipe full_finetune_single_device, one A100 80GB, batch 2 x 4096, bf16, each technique
 * on top of the row before. The calibration row (tests/validation/framework-memory.yaml) is "+
 * Packed Dataset": 60.0 GiB peak active. Its setup is the table's, not the README's other note:
 * eager (compile is the next row), torch.nn.CrossEntropyLoss on the model's `.float()` logits (the
 * chunked loss comes two rows later), no activation checkpointing, torch AdamW on the bf16
 * parameters (bf16 moments, no master), gradients set to None after each step. gpuplan: 60.98 GiB
 * (+1.6%): weights 6.43 GB, bf16 AdamW 12.85 GB, the eager layers' activations 33.4 GB, the fp32
 * loss's backward 12.6 GB, and no gradients at the peak (the loss's backward, before any layer's
 * gradient exists; 6.43 GB of them at the end of the backward is less). Before the
 * mechanisms: 45.50 GiB, -24.2% (compiled, chunked loss, gradients beside the activations). */
static void test_torchtune_3b_full_pure_bf16(void **state)
{
	(void)state;
	struct scenario s;
	struct plan eager, compiled;
	const struct validate_row *r = row_scenario("torchtune-3b-full", &s);
	const struct plan *p = compute(&s);
	same_as_validate(r, &s, p->mem.allocated / r->unit_si);
	assert_true(fabs(rel_err(p->mem.allocated / r->unit_si, r->measured)) < r->tolerance);
	assert_true(p->mem.weight_bytes_per_param == 2);
	assert_true(p->mem.grad_bytes_per_param == 2);
	assert_true(p->mem.optimizer_bytes_per_param == 4);
	assert_true(fabs(p->mem.optimizer - 4 * p->params) < 1);
	/* gradients allocated in the backward: none at the peak, 2 B/param at the end */
	assert_true(p->mem.gradients == 0);
	assert_true(fabs(p->mem.gradients_full - 2 * p->params) < 1);
	eager = *p;
	/* eager PyTorch keeps, per token and layer: 4 h a norm (2 norms), K and V expanded
	 * from 8 to 24 heads (2 x 2 x 128 x 16), the attention output's second copy (2 x
	 * 3072) and SiLU's output (2 x 8192): 55296 B; and 4 h for the final norm */
	s.workload.compile = COMPILE_ON;
	plan_compute_memory(&s, &compiled);
	double tokens = 2 * 4096.0;
	double want = tokens * (28 * 55296.0 + 4 * 3072.0);
	assert_true(fabs(eager.mem.activations - compiled.mem.activations - want) < 1);
	/* the explicit field over the framework's default */
	s.workload.grad_lifetime = GRADS_STEP;
	p = compute(&s);
	assert_true(p->mem.gradients == p->mem.gradients_full);
	s.workload.grad_lifetime = GRADS_FUSED;
	p = compute(&s);
	/* the largest gradient, the tied embedding's 128256 x 3072 in bf16 */
	assert_true(p->mem.gradients == 2.0 * 128256 * 3072);
	/* with gradient accumulation the gradients persist beside the next activations */
	s.workload.grad_lifetime = GRADS_BACKWARD;
	s.workload.global_batch = 4;
	p = compute(&s);
	assert_true(p->micro_batches == 2);
	assert_true(p->mem.gradients == p->mem.gradients_full);
	/* activation offloading: all but two layers' stored activations go to host memory,
	 * the transfer hidden behind the compute on the A100's PCIe */
	{
		struct plan *q = malloc(sizeof(*q)), *o = malloc(sizeof(*o));
		assert_non_null(q);
		assert_non_null(o);
		s.workload.recompute = RECOMPUTE_FULL;
		plan_compute(&s, q);
		s.workload.activation_offload = true;
		plan_compute(&s, o);
		assert_true(fabs(o->mem.activations_offloaded - 26 * q->mem.activations_per_layer) <
			    1);
		assert_true(fabs(q->mem.activations - o->mem.activations -
				 o->mem.activations_offloaded) < 1);
		assert_true(o->mem.host >= o->mem.activations_offloaded);
		assert_true(o->step_s == q->step_s);
		/* a slow link shows what it cannot hide */
		s.hardware.gpu.pcie_bytes_per_s = 1e6;
		plan_compute(&s, o);
		assert_true(o->step_s > q->step_s);
		assert_true(o->parts.offload_s > 0);
		free(q);
		free(o);
		s.workload.activation_offload = false;
		s.workload.recompute = RECOMPUTE_NONE;
	}
	/* a compiled (fused) framework: no eager extras whatever workload.compile says */
	s.workload.global_batch = 0;
	s.workload.framework = FW_MEGATRON;
	s.workload.compile = COMPILE_OFF;
	plan_compute_memory(&s, &eager);
	s.workload.compile = COMPILE_ON;
	plan_compute_memory(&s, &compiled);
	assert_true(eager.mem.activations == compiled.mem.activations);
}

/* What workload.compile off adds to s's plan over compile on: activations, and in *rebuilt
 * the recomputed layer's part (s keeps compile on). */
static double eager_extra(struct scenario *s, double *rebuilt)
{
	struct plan q[2]; /* eager, compiled */
	for (int i = 0; i < 2; i++) {
		s->workload.compile = i ? COMPILE_ON : COMPILE_OFF;
		plan_compute_memory(s, &q[i]);
	}
	if (rebuilt)
		*rebuilt = q[0].mem.rebuilt_layer - q[1].mem.rebuilt_layer;
	return q[0].mem.activations - q[1].mem.activations;
}

/* Uncompiled LoRA layers (workload.compile off, torchtune's configs' default): the frozen
 * base's eager ops keep, per token and layer, each RMSNorm's fp32 input in place of its
 * bf16 one ((4 - 2) x 4096 x 2 norms; the frozen scale saves no normed copy), K and V
 * expanded from 8 to 32 heads (2 x 2 x 128 x 24) and SiLU's output (2 x 14336): 57344 B;
 * the final norm's fp32 input (2 x 4096). The attention output's second copy is kept only
 * when the output projection has an adapter (2 x 128 x 32 more). LoRALinear itself keeps
 * what the compiled count has (lora_dropout 0.0 is nn.Identity). The measured LoRA row is
 * compiled: unchanged. */
static void test_lora_eager(void **state)
{
	(void)state;
	struct scenario s;
	const struct plan *p;
	const struct validate_row *r = row_scenario("torchtune-lora-4090", &s);
	double tokens = 2 * 2048.0, rebuilt;
	p = compute(&s);
	same_as_validate(r, &s, p->mem.allocated / r->unit_si);
	assert_true(eager_extra(&s, NULL) > 0);
	/* without recomputation the layers' stored tensors show the terms */
	s.workload.recompute = RECOMPUTE_NONE;
	assert_true(fabs(eager_extra(&s, NULL) - tokens * (32 * 57344.0 + 2 * 4096.0)) < 1);
	s.workload.finetune.targets |= LORA_O;
	assert_true(fabs(eager_extra(&s, NULL) - tokens * (32 * (57344.0 + 8192.0) + 2 * 4096.0)) <
		    1);
	/* LoRA dropout: each adapter's bool mask (1 B an input element) compiled or not, and
	 * eager each adapter's own dropout output beyond the one shared input the count
	 * has: q, k, v, gate and up read h, o reads 4096, down 14336: masks 38912 B, eager
	 * outputs 2 x (3 - 1 + 2 - 1) x 4096 = 24576 B */
	{
		struct plan drop, none;
		s.workload.finetune.targets =
		    LORA_Q | LORA_K | LORA_V | LORA_O | LORA_GATE | LORA_UP | LORA_DOWN;
		double base = eager_extra(&s, NULL);
		s.workload.compile = COMPILE_ON;
		plan_compute_memory(&s, &none);
		s.workload.finetune.dropout = 0.1;
		plan_compute_memory(&s, &drop);
		assert_true(
		    fabs(drop.mem.activations - none.mem.activations - tokens * 32 * 38912.0) < 1);
		assert_true(fabs(eager_extra(&s, NULL) - base - tokens * 32 * 24576.0) < 1);
		/* q and v alone: two masks of h, one more copy of h eager (base: with dropout) */
		s.workload.finetune.targets = LORA_Q | LORA_V;
		base = eager_extra(&s, NULL);
		plan_compute_memory(&s, &drop);
		s.workload.finetune.dropout = 0;
		plan_compute_memory(&s, &none);
		assert_true(
		    fabs(drop.mem.activations - none.mem.activations - tokens * 32 * 8192.0) < 1);
		assert_true(fabs(base - eager_extra(&s, NULL) - tokens * 32 * 8192.0) < 1);
		s.workload.finetune.targets |= LORA_O;
	}
	/* under full recompute the rebuilt layer carries them, not the stored inputs (a
	 * small vocabulary, so that the loss's freed buffers do not hold the rebuilt layer) */
	s.workload.recompute = RECOMPUTE_FULL;
	s.model.vocab = 1000;
	assert_true(fabs(eager_extra(&s, &rebuilt) - tokens * 2 * 4096.0) < 1);
	assert_true(compute(&s)->mem.rebuilt_layer > 0);
	assert_true(fabs(rebuilt - tokens * (57344.0 + 8192.0)) < 1);
}

/* Uncompiled MoE layers: a Mixtral-8x7B-shaped model (8 experts, top 2, expert
 * intermediate 14336) fully fine-tuned under transformers (eager by default). Each MoE
 * layer keeps, per token, what a dense eager layer does on the attention side (4 x 4096 x
 * 2 norms, K and V expanded 2 x 2 x 128 x 24, the attention output's copy 2 x 128 x 32)
 * and the routed experts' SiLU outputs, 2 x 2 x 14336 (torchtitan/models/moe.py
 * _run_experts_grouped_mm, transformers' MixtralBlockSparseTop2MLP): 110592 B; a shared
 * expert adds its own (2 x 14336). */
static void test_moe_eager(void **state)
{
	(void)state;
	struct scenario s;
	double tokens = 4096.0;
	scenario_init(&s);
	llama31_8b(&s.model);
	s.model.vocab = 32000;
	s.model.moe.experts = 8;
	s.model.moe.active = 2;
	s.model.moe.expert_ffn = 14336;
	gpu_set(&s, "h100", 80 * GIB, 8);
	s.workload.kind = WL_TRAIN;
	s.workload.framework = FW_HF;
	s.workload.seq_len = 4096;
	s.workload.micro_batch = 1;
	s.workload.recompute = RECOMPUTE_NONE;
	s.workload.loss = LOSS_CHUNKED;
	assert_true(fabs(eager_extra(&s, NULL) - tokens * (32 * 110592.0 + 4 * 4096.0)) < 1);
	s.model.moe.shared = 1;
	assert_true(fabs(eager_extra(&s, NULL) -
			 tokens * (32 * (110592.0 + 2 * 14336.0) + 4 * 4096.0)) < 1);
	/* split over tensor parallelism as the experts' intermediates are */
	s.parallel.tp = 2;
	assert_true(
	    fabs(eager_extra(&s, NULL) - tokens * (32 * (4 * 4096.0 * 2 + 2 * 2 * 128 * 12 +
							 2 * 128 * 16 + 2 * 3 * 14336 / 2.0) +
						   4 * 4096.0)) < 1);
	/* a fused framework keeps none of it */
	s.workload.framework = FW_MEGATRON;
	assert_true(eager_extra(&s, NULL) == 0);
}

/* The cuBLAS workspaces (aten/src/ATen/cuda/CublasHandlePool.cpp): one per handle and
 * stream from the caching allocator, 32 MiB on Hopper and 2 x 4 MiB + 8 x 16 KiB
 * elsewhere, two in training (the autograd engine's backward thread has its own handle),
 * cuBLASLt's 1 MiB more under fp8; inside allocated and reserved, not in the CUDA context.
 * On the measured rows: torchtitan's H100 row +66 MiB (82.47 -> 82.53 GiB), the A100 and
 * RTX 4090 rows +16.25 MiB, vLLM's KV pool 8.125 MiB smaller (3.885 -> 3.875 GiB). */
static void test_blas_workspace(void **state)
{
	(void)state;
	struct scenario s;
	const struct plan *p;
	const double mib = 1048576.0, other = 2 * 4 * mib + 8 * 16 * 1024.0;
	row_scenario("torchtitan-8b-fsdp2", &s);
	p = compute(&s);
	assert_true(p->mem.blas_workspace == 2 * 32 * mib);
	/* allocated is every allocation of the caching allocator at the peak */
	assert_true(
	    fabs(p->mem.allocated -
		 (p->mem.weights + p->mem.gradients + p->mem.optimizer + p->mem.activations +
		  p->mem.kv_cache + p->mem.comm_buffers - p->mem.nccl_buffers +
		  p->mem.rebuilt_layer + p->mem.fp8_weights + p->mem.blas_workspace)) < 1);
	assert_true(fabs(p->mem.reserved - p->mem.allocated - p->mem.fragmentation) < 1);
	/* fp8 GEMMs run on cuBLASLt, with its own workspace */
	s.workload.precision = DTYPE_FP8;
	assert_true(compute(&s)->mem.blas_workspace == 2 * 33 * mib);
	/* ROCm: 128 MiB on MI300-class GPUs, hipBLASLt's 76 MiB */
	snprintf(s.hardware.gpu.vendor, sizeof(s.hardware.gpu.vendor), "amd");
	snprintf(s.hardware.gpu.id, sizeof(s.hardware.gpu.id), "mi300x");
	assert_true(compute(&s)->mem.blas_workspace == 2 * (128 + 76) * mib);
	/* llm.c's one cudaMalloc'd 32 MiB; the papers' default keeps it in its context */
	s.workload.framework = FW_LLMC;
	assert_true(compute(&s)->mem.blas_workspace == 32 * mib);
	s.workload.framework = FW_DEFAULT;
	assert_true(compute(&s)->mem.blas_workspace == 0);
	row_scenario("torchtune-3b-full", &s);
	assert_true(compute(&s)->mem.blas_workspace == 2 * other);
	/* serving: one handle; vLLM's profile counts it in the peak torch memory, so the
	 * KV budget is that much smaller */
	row_scenario("vllm-3090-kv", &s);
	p = compute(&s);
	assert_true(p->mem.blas_workspace == other);
	assert_true(
	    fabs(p->mem.kv_budget - (0.9 * p->mem.capacity - p->mem.weights - p->mem.activations -
				     p->mem.blas_workspace - p->mem.cuda_context)) < 1);
}

/* The head's backward under torchtune's chunked loss (CEWithChunkedOutputLoss, 8 chunks of
 * TransformerDecoder.chunked_output): autograd runs the 8 chunks' loss backwards first (its
 * ready queue takes the highest sequence_nr; the loss's nodes were made after the head's),
 * then each chunk's mm backward adds a whole 128256 x 3072 bf16 weight gradient into the
 * AccumulateGrad input buffer's sum (torch/csrc/autograd/input_buffer.cpp accumulate): from
 * the second chunk, two of them beside 7 of the 8 chunks' bf16 logit gradients. Beyond the
 * loss's 2 V (1 + 1/8) B a token, by hand for Llama 3.2 3B at 2 x 4096 tokens:
 * 2 V (2 x 3072 - 2 x 8192 / 8) = 2 V 4096 B, 1.0 GB, in place of the one gradient
 * (optimizer_in_bwd) or of none (gradients kept to the step, whose end is lower here). */
static void test_chunked_head_backward(void **state)
{
	(void)state;
	struct scenario s;
	const double V = 128256, head2 = 2 * V * 4096;
	const struct plan *p;

	row_scenario("torchtune-3b-opt-in-bwd", &s);
	p = compute(&s);
	assert_true(p->mem.gradients == head2 && p->mem.head_grads == head2);
	{
		static char buf[8192];
		struct gp_error err;
		assert_int_equal(explain_key_wrapped(&s, p, "memory.per_gpu.gradients", 1000, buf,
						     sizeof(buf), &err),
				 0);
		assert_non_null(strstr(buf, "2 x the head's gradient"));
		assert_non_null(strstr(buf, "input_buffer.cpp"));
	}
	row_scenario("torchtune-3b-chunked-ce", &s);
	p = compute(&s);
	assert_true(p->mem.gradients == head2);
	/* the whole logits upcast in one loss: one weight gradient, made once */
	row_scenario("torchtune-3b-opt-in-bwd", &s);
	s.workload.loss = LOSS_FP32;
	p = compute(&s);
	assert_true(p->mem.gradients == 2 * V * 3072 && p->mem.head_grads == 0);
	/* four times the tokens: the chunks' logit gradients outweigh the second gradient */
	row_scenario("torchtune-3b-opt-in-bwd", &s);
	s.workload.seq_len = 16384;
	p = compute(&s);
	assert_true(p->mem.gradients == 2 * V * 3072);
	/* a frozen head (LoRA) has no weight gradient */
	row_scenario("torchtune-lora-4090", &s);
	p = compute(&s);
	assert_true(p->mem.gradients < 2 * V * 4096 / 100);
}

/* Every row of the file: within its tolerance where it is claimed, else at its pinned
 * error to 2 points. The later rows of the torchtune 3B table are validation, not fitted
 * to (compile 51.0 GiB: -3.8%; chunked loss 42.9: -5.6%; activation checkpointing 24.9:
 * -3.8%; optimizer_in_bwd 23.1: -2.4%; activation offloading 21.8: -2.1%; the chunked rows
 * -7.8%, -3.4% and -3.2% before the head's two gradients in the loss's backward,
 * test_chunked_head_backward). The 8-bit AdamW row (17.6 GiB) is pinned at -12.2%
 * (-13.6% before the head's gradients): not claimed. */
static void test_every_row(void **state)
{
	(void)state;
	int n = 0;
	for (int i = 0; i < rows.nrows; i++) {
		const struct validate_row *r = &rows.rows[i];
		struct scenario s;
		struct plan *p = malloc(sizeof(*p));
		struct gp_error err;
		double v;
		assert_non_null(p);
		if (validate_row_scenario(r, cat, &s, &err) != 0)
			fail_msg("%s: %s", ROWS, err.message);
		plan_compute(&s, p);
		assert_int_equal(validate_row_predict(r, &s, p, &v), 0);
		free(p);
		double e = rel_err(v, r->measured);
		printf("  %-24s %+6.1f%%\n", r->id, 100 * e);
		/* a pinned row misses its tolerance (validate marks it '!') and is held at
		 * its honest error; the others within their tolerance */
		if (isnan(r->pinned))
			assert_true(fabs(e) <= r->tolerance);
		else
			assert_true(fabs(e - r->pinned) <= 0.02);
		n++;
	}
	assert_int_equal(n, 12);
}

/* torchtune README's "+ 8-bit AdamW" row (Llama 3.2 3B, 17.6 GiB) and its full finetune of
 * Llama 3.1 8B on one RTX 4090 (18.9 GiB), both validation, not fitted to.
 * 8-bit AdamW under a named framework: two one-byte moments and an fp32 absmax per 256
 * values (bitsandbytes 0.44 Optimizer2State.init_state; torchao OptimState8bit.zeros,
 * block_size 256): 2 + 8 / 256 B a parameter; the papers' 2 B under the default framework.
 * The 3B row is not claimed: -12.2% (-13.6% before the head's two gradients in the
 * chunked loss's backward, -14.2% before the absmax). The README names
 * "`AdamW8bit`", not the config's default PagedAdamW8bit: paged states would leave about
 * 9.9 GiB (the row before, 21.8 GiB, less its 12 GiB of bf16 states). The measured step
 * down is 4.2 GiB where the states shrink by 5.9 GiB; neither library's code shows the other
 * 1.7 GiB (bitsandbytes steps in place, Optimizer2State.update_step: one
 * optimizer_update_8bit_blockwise kernel a parameter) and the table does not say what else
 * changed. torchao's AdamW8bit (the other
 * choice the README's link, memory_optimizations.rst "Lower Precision Optimizers", names;
 * torchao/prototype/low_bit_optim/adam.py of November 2024) steps each parameter in a
 * compiled single_param_adam that upcasts p, the gradient and both states to fp32 and keeps
 * exp_avg_f32 and exp_avg_sq_f32 past the states' requantisation for the update. Only the
 * tied 394M-value embedding, stepped last under optimizer_in_bwd, matters: each fp32 copy
 * of it is 1.47 GiB, and beside the weights, the 8-bit states and its 0.73 GiB gradient
 * (12.8 GiB) three of them would make 17.2 GiB (-2.3%), four 18.7 GiB (+6.0%); the
 * measured 17.6 GiB wants 3.3. Whether Inductor writes them to memory is its fusion's
 * choice, not in the code read (the input mutations are copied back at the graph's end,
 * torch/_inductor/graph.py; each could fuse into its producer), so it is not modelled.
 * The torchao README (low_bit_optim/README.md, November 2024: 39.1 GB against bnb's in-place
 * kernel's 39.3 GB for Llama 2 7B in torchtune) does not settle it: its run's setup is not
 * stated, and with the step after the backward the copies of a 131M-value embedding
 * (0.49 GiB each) hide under the backward's end. The 3B config's own default at 1814feb17
 * (recipes/configs/llama3_2/3B_full_single_device.yaml) is bnb PagedAdamW8bit with
 * optimizer_in_bwd: True; paged, gpuplan gives 9.5 GiB (-46%), so the row's states were
 * on the device.
 * The 8B run (recipes/configs/llama3_1/8B_full_single_device.yaml: PagedAdamW8bit,
 * optimizer_in_bwd) has 16 GB of 8-bit states beside 15 GiB of weights on a 24 GiB card:
 * paged (F.get_paged: cudaMallocManaged), evicted to the host where the GPU has no room,
 * never in the caching allocator's count. gpuplan: 19.08 GiB (+1.0%; 18.35 GiB, -2.9%,
 * before the head's two gradients in the chunked loss's backward). */
static void test_paged_optimizer(void **state)
{
	(void)state;
	struct scenario s;
	struct plan dev, paged;
	const struct validate_row *r = row_scenario("torchtune-8b-full-paged-4090", &s);
	const struct plan *p = compute(&s);
	double P = p->trainable_params, cap = p->mem.capacity;
	same_as_validate(r, &s, p->mem.allocated / r->unit_si);
	assert_true(fabs(rel_err(p->mem.allocated / r->unit_si, r->measured)) < r->tolerance);
	assert_true(p->mem.optimizer_bytes_per_param == 2 + 8.0 / 256);
	/* the GPU is full: what does not fit beside the rest is on the host, the fit is the
	 * rest's; the resident pages are in total, outside reserved and allocated */
	assert_true(p->mem.fits);
	assert_true(fabs(p->mem.total - cap) < 1);
	assert_true(fabs(p->mem.optimizer_paged + p->mem.host - 2 * P) < 1);
	/* what went to the host is said: its paging time is not in the step */
	assert_true(p->mem.optimizer_evicted > 0 && p->mem.optimizer_evicted == p->mem.host);
	assert_true(has_warning(p, PW_PAGED_EVICTED));
	assert_true(fabs(p->mem.optimizer - p->mem.optimizer_paged - 8.0 / 256 * P) < 1);
	assert_true(fabs(p->mem.reserved - (p->mem.total - p->mem.cuda_context -
					    p->mem.nccl_buffers - p->mem.optimizer_paged)) < 1);
	/* the same states on the device do not fit */
	s.workload.optimizer_states = STATES_AUTO;
	p = compute(&s);
	assert_false(p->mem.fits);
	assert_true(p->mem.optimizer_paged == 0 && p->mem.host == 0);
	/* on an 80 GiB GPU every page is resident: total loses only the allocator's slack on
	 * the states, allocated and reserved lose the states (and their slack) */
	s.hardware.gpu.memory_bytes = 80 * GIB;
	plan_compute_memory(&s, &dev);
	s.workload.optimizer_states = STATES_PAGED;
	plan_compute_memory(&s, &paged);
	double slack = framework_get(FW_TORCHTUNE)->reserved_slack;
	assert_true(fabs(paged.mem.optimizer_paged - 2 * P) < 1 && paged.mem.host == 0);
	assert_true(fabs(paged.mem.optimizer - dev.mem.optimizer) < 1);
	assert_true(fabs(dev.mem.total - paged.mem.total - slack * 2 * P) < 1);
	assert_true(fabs(dev.mem.allocated - paged.mem.allocated - 2 * P) < 1);
	assert_true(fabs(dev.mem.reserved - paged.mem.reserved - (1 + slack) * 2 * P) < 1);
	/* paged AdamW (bitsandbytes PagedAdamW, 32-bit states): 8 B a parameter paged */
	s.workload.optimizer = OPT_ADAMW;
	p = compute(&s);
	assert_true(fabs(p->mem.optimizer_paged + p->mem.host - 8 * P) < 1);
	/* LoRA rank 8 on q and v (8 x 4096 < 1e5 values a matrix): states stay on the
	 * device; on the MLP too, down_proj's lora_a is 8 x 14336 >= 1e5: paged */
	s.workload.finetune.method = FT_LORA;
	s.workload.finetune.rank = 8;
	s.workload.finetune.targets = LORA_Q | LORA_V;
	p = compute(&s);
	assert_true(p->mem.optimizer_paged == 0);
	s.workload.finetune.targets |= LORA_DOWN;
	p = compute(&s);
	assert_true(p->mem.optimizer_paged > 0);
	/* the papers' 8-bit Adam, 2 B of moments, under the default framework */
	s.workload.finetune.method = FT_FULL;
	s.workload.optimizer = OPT_ADAM8BIT;
	s.workload.optimizer_states = STATES_AUTO;
	s.workload.framework = FW_DEFAULT;
	p = compute(&s);
	assert_true(p->mem.optimizer_bytes_per_param == 4 + 2);
	/* explain names the mechanism and its source */
	{
		static char buf[8192];
		struct gp_error err;
		row_scenario("torchtune-8b-full-paged-4090", &s);
		p = compute(&s);
		assert_int_equal(explain_key_wrapped(&s, p, "memory.per_gpu.optimizer", 1000, buf,
						     sizeof(buf), &err),
				 0);
		assert_non_null(strstr(buf, "F.get_paged"));
		assert_non_null(strstr(buf, "on the host"));
		assert_int_equal(explain_key_wrapped(&s, p, "memory.per_gpu.allocated", 1000, buf,
						     sizeof(buf), &err),
				 0);
		assert_non_null(strstr(buf, "paged optimizer states"));
	}
}

/* Megatron --recompute-granularity full --recompute-method uniform --recompute-num-layers
 * N (megatron/core/recompute.py, transformer_block.py _checkpointed_forward): the stage's
 * layers run in chunks of N under one tensor_parallel.checkpoint each, which saves only the
 * chunk's input. By hand, Llama 3.1 8B (32 layers, h 4096) at tp 2 with sequence
 * parallelism, s 4096, b 1, bf16: a layer input is 2 s b h / 2 = 16 MiB; N = 5 makes
 * ceil(32 / 5) = 7 chunks, 7 x 16 MiB over 32 layers = 3.5 MiB a layer (3,670,016 B);
 * N >= 32 one chunk, 0.5 MiB a layer. The backward reruns a chunk's forward: N layers'
 * stored tensors less the input kept (under the papers' default, which does not reuse the
 * loss's buffers). Every layer's forward runs again once, as under block with every layer:
 * the same step and hardware FLOPs. */
static bool problem_names(const struct gp_problems *pr, const char *a, const char *b);

static void test_recompute_uniform(void **state)
{
	(void)state;
	struct scenario s;
	struct gp_problems pr;
	static struct plan none, full, uni;
	const double kept = 2 * 4096.0 * 4096 / 2;
	train_8b(&s, 8, 4096, 64);
	s.parallel.tp = 2;
	s.parallel.sequence_parallel = true;
	s.workload.recompute = RECOMPUTE_NONE;
	plan_compute(&s, &none);
	s.workload.recompute = RECOMPUTE_FULL;
	plan_compute(&s, &full);
	assert_true(fabs(full.mem.activations_per_layer - kept) < 1);
	s.workload.recompute_method = RECOMPUTE_UNIFORM;
	s.workload.recompute_layers = 1; /* N = 1 is every layer on its own: full */
	plan_compute(&s, &uni);
	assert_true(uni.mem.total == full.mem.total && uni.step_s == full.step_s);
	s.workload.recompute_layers = 5;
	plan_compute(&s, &uni);
	assert_true(fabs(uni.mem.activations_per_layer - 3670016) < 1);
	assert_true(fabs(uni.mem.rebuilt_layer - (5 * none.mem.activations_per_layer - kept)) < 1);
	assert_true(uni.step_s == full.step_s && uni.hw_flops_per_token == full.hw_flops_per_token);
	assert_int_equal(uni.recompute_layers, 32);
	s.workload.recompute_layers = 40;
	plan_compute(&s, &uni);
	assert_true(fabs(uni.mem.activations_per_layer - kept / 32) < 1);
	assert_true(fabs(uni.mem.rebuilt_layer - (32 * none.mem.activations_per_layer - kept)) < 1);
	/* larger chunks keep fewer inputs and rebuild more */
	double prev_act = INFINITY, prev_rebuilt = 0;
	for (int n = 1; n <= 32; n++) {
		s.workload.recompute_layers = n;
		plan_compute(&s, &uni);
		assert_true(uni.mem.activations <= prev_act &&
			    uni.mem.rebuilt_layer >= prev_rebuilt);
		prev_act = uni.mem.activations;
		prev_rebuilt = uni.mem.rebuilt_layer;
	}
	/* explain names the method and its source */
	{
		static char buf[8192];
		struct gp_error err;
		s.workload.recompute_layers = 5;
		plan_compute(&s, &uni);
		assert_int_equal(explain_key_wrapped(&s, &uni, "memory.per_gpu.activations", 1000,
						     buf, sizeof(buf), &err),
				 0);
		assert_non_null(strstr(buf, "chunks of 5 layers"));
		assert_non_null(strstr(buf, "megatron/core/recompute.py"));
	}
	/* uniform is a way of full recomputation only */
	s.workload.recompute = RECOMPUTE_SELECTIVE;
	gp_problems_init(&pr);
	scenario_validate(&s, NULL, &pr);
	assert_true(problem_names(&pr, "recompute_method uniform", "expected workload.recompute"));
	/* serving recomputes nothing: the field does not apply, so it is no problem there */
	s.workload.kind = WL_ONLINE;
	gp_problems_init(&pr);
	scenario_validate(&s, NULL, &pr);
	assert_false(problem_names(&pr, "recompute_method uniform", "expected workload.recompute"));
}

/* vLLM, Llama 3.1 8B Instruct on one RTX 3090 (vllm-project/vllm issue #10517, a user's
 * start-up log): total_gpu_memory 23.58 GiB, gpu_memory_utilization 0.90, weights 14.99
 * GiB, peak_torch_memory 17.06 GiB, non_torch_memory 0.35 GiB, kv_cache_size 3.81 GiB
 * for max_model_len 20000 (1.56 x concurrency). gpuplan's sequence (prompt + output)
 * stands for max_model_len. gpuplan: KV 3.875 GiB (+1.7%; +2.0% before the cuBLAS workspace),
 * weights 14.96 GiB (-0.2%), weights + profiled activations 16.99 GiB (-0.4%), 1.59 x concurrency
 * (+2%). The non-torch 0.35 GiB is taken from this row (src/framework.c). */
static void test_vllm_3090_kv_budget(void **state)
{
	(void)state;
	struct scenario s;
	const struct validate_row *r = row_scenario("vllm-3090-kv", &s);
	const struct plan *p = compute(&s);
	same_as_validate(r, &s, p->mem.kv_cache / r->unit_si);
	assert_true(fabs(rel_err(p->mem.kv_cache / r->unit_si, r->measured)) < r->tolerance);
	assert_true(fabs(rel_err((p->mem.weights + p->mem.activations) / GIB, 17.06)) < 0.10);
	assert_true(fabs(rel_err(p->mem.kv_tokens / 20000, 1.56)) < 0.10);
	/* whole 16-token blocks of 2 x 8 x 128 x 2 B x 32 layers */
	assert_true(fmod(p->mem.kv_cache, 16 * 131072.0) == 0);
	assert_true(p->max_batch == 1);
	assert_true(p->mem.fragmentation == 0);
	/* the budget is the fraction's: 0.9 x 23.58 GiB all told */
	assert_true(fabs(p->mem.total - 0.9 * 23.58 * GIB) < 16 * 131072.0 + 1);
	/* a smaller fraction leaves a smaller pool */
	double kv = p->mem.kv_cache;
	s.workload.gpu_memory_utilization = 0.85;
	p = compute(&s);
	assert_true(p->mem.kv_cache < kv);
}

/* vLLM profiles one forward of max_num_batched_tokens (gpu_model_runner.py profile_run):
 * under chunked prefill the step's budget, not the prompt, sizes the activations. */
static void test_vllm_profile_budget(void **state)
{
	(void)state;
	struct scenario s;
	double chunked, budget, whole;
	scenario_init(&s);
	llama31_8b(&s.model);
	s.workload.kind = WL_ONLINE;
	s.workload.framework = FW_VLLM;
	s.workload.prompt_tokens = 100000;
	s.workload.output_tokens = 256;
	s.model.max_context = 131072;
	gpu_set(&s, "h200", 141 * GIB, 1);
	/* the framework's budget: vLLM's API-server default on a GPU of 70 GiB or more,
	 * 8192 tokens a step (framework_vllm_batch, arg_utils.py _set_default_args), the
	 * budget the serving model's engine runs too */
	assert_true(compute(&s)->mem.profile_tokens == 8192);
	chunked = compute(&s)->mem.activations;
	s.workload.max_batched_tokens = 16384;
	assert_true(compute(&s)->mem.profile_tokens == 16384);
	budget = compute(&s)->mem.activations;
	s.workload.scheduler = SCHED_PREFILL_FIRST;
	assert_true(compute(&s)->mem.profile_tokens == 100256);
	whole = compute(&s)->mem.activations;
	assert_true(chunked < budget && budget < whole);
	/* the KV pool gets what the smaller profile leaves */
	s.workload.scheduler = SCHED_AUTO;
	s.workload.max_batched_tokens = 0;
	chunked = compute(&s)->mem.kv_cache;
	s.workload.scheduler = SCHED_PREFILL_FIRST;
	assert_true(compute(&s)->mem.kv_cache < chunked);
}

/* Without a framework nothing moves; every framework default gives way to its field. */
static void test_default_and_overrides(void **state)
{
	(void)state;
	struct scenario s;
	struct plan a, b;
	scenario_init(&s);
	llama31_8b(&s.model);
	s.workload.kind = WL_TRAIN;
	gpu_set(&s, "h100", 80 * GIB, 8);
	plan_compute_memory(&s, &a);
	/* the default's reserved and allocated are the old total's parts, less NCCL's own
	 * buffers (outside the caching allocator: 2 x 16 x 4 MiB for the one data-parallel
	 * group of 8 GPUs) */
	assert_true(a.mem.nccl_buffers == 2 * 16 * 4194304.0);
	assert_true(a.mem.reserved == a.mem.total - a.mem.cuda_context - a.mem.nccl_buffers);
	assert_true(a.mem.allocated == a.mem.reserved - a.mem.fragmentation);
	assert_true(a.mem.optimizer_bytes_per_param == 12);
	/* torchtune's pure bf16, then its fields set back to mixed precision */
	s.workload.framework = FW_TORCHTUNE;
	plan_compute_memory(&s, &b);
	assert_true(b.mem.optimizer_bytes_per_param == 4);
	s.workload.master_weights = MASTER_FP32;
	s.workload.optimizer_states = STATES_FP32;
	plan_compute_memory(&s, &b);
	assert_true(b.mem.optimizer_bytes_per_param == 12);
	/* the loss: torchtune's chunked is smaller than fsdp's fp32 logits */
	s.workload.loss = LOSS_FP32;
	plan_compute_memory(&s, &a);
	s.workload.loss = LOSS_CHUNKED;
	plan_compute_memory(&s, &b);
	assert_true(b.mem.activations_head < a.mem.activations_head);
	assert_string_equal(framework_name(FW_TRTLLM), "trt-llm");
	assert_string_equal(scenario_enum_name("workload.framework", FW_LLMC), "llm.c");
	assert_string_equal(scenario_enum_name("workload.recompute", RECOMPUTE_OP), "op");
}

/* workload.grad_dtype auto is the framework's (src/framework.c grad_dtype): Megatron-LM
 * under bf16 keeps an fp32 main_grad for every local parameter (megatron/training/
 * arguments.py validate_args; core/distributed/distributed_data_parallel.py), the full
 * buffer under the distributed optimizer (zero 1) too; an explicit bf16 keeps 2 bytes; the
 * default framework's bf16 leaves the ZeRO paper's 16 bytes a parameter. Llama 3.1 8B on
 * 8 H100s, AdamW, bf16. */
static void test_grad_dtype_auto(void **state)
{
	(void)state;
	static const struct {
		enum framework fw;
		enum dtype want;
	} rows_fw[] = {{FW_DEFAULT, DTYPE_BF16}, {FW_MEGATRON, DTYPE_FP32},
		       {FW_FSDP, DTYPE_FP32},	 {FW_DEEPSPEED, DTYPE_BF16},
		       {FW_HF, DTYPE_FP32},	 {FW_TORCHTUNE, DTYPE_BF16},
		       {FW_LLMC, DTYPE_BF16}};
	struct scenario s;
	struct plan a;
	int ntrain = 0;
	for (int f = 0; f < FW_COUNT; f++)
		ntrain += framework_get(f)->trains;
	assert_int_equal(ntrain, (int)(sizeof(rows_fw) / sizeof(rows_fw[0])));
	scenario_init(&s);
	assert_int_equal(s.workload.grad_dtype, GRAD_DTYPE_AUTO);
	llama31_8b(&s.model);
	s.workload.kind = WL_TRAIN;
	s.workload.precision = DTYPE_BF16;
	gpu_set(&s, "h100", 80 * GIB, 8);
	for (size_t i = 0; i < sizeof(rows_fw) / sizeof(rows_fw[0]); i++) {
		assert_true(framework_get(rows_fw[i].fw)->trains);
		assert_int_equal(framework_get(rows_fw[i].fw)->grad_dtype, rows_fw[i].want);
		s.workload.framework = rows_fw[i].fw;
		s.workload.grad_dtype = GRAD_DTYPE_AUTO;
		plan_compute_memory(&s, &a);
		assert_true(a.mem.grad_bytes_per_param == dtype_bytes(rows_fw[i].want));
		/* an explicit value is the user's under every framework */
		s.workload.grad_dtype = DTYPE_BF16;
		plan_compute_memory(&s, &a);
		assert_true(a.mem.grad_bytes_per_param == 2);
		s.workload.grad_dtype = DTYPE_FP32;
		plan_compute_memory(&s, &a);
		assert_true(a.mem.grad_bytes_per_param == 4);
	}
	/* megatron's distributed optimizer: the fp32 buffer is whole, 4 bytes for every local
	 * parameter, while the optimizer's 12 are sharded over the 8 ranks */
	s.workload.framework = FW_MEGATRON;
	s.workload.grad_dtype = GRAD_DTYPE_AUTO;
	s.parallel.zero = 1;
	plan_compute_memory(&s, &a);
	assert_true(fabs(rel_err(a.mem.gradients, 4 * a.params)) < 1e-9);
	assert_true(fabs(rel_err(a.mem.optimizer, 12 * a.params / 8)) < 1e-9);
	s.workload.grad_dtype = DTYPE_BF16;
	plan_compute_memory(&s, &a);
	assert_true(fabs(rel_err(a.mem.gradients, 2 * a.params)) < 1e-9);
	/* the default framework: 2 + 2 + 12 bytes a parameter, auto as bf16 */
	s.workload.framework = FW_DEFAULT;
	s.workload.grad_dtype = GRAD_DTYPE_AUTO;
	s.parallel.zero = 0;
	plan_compute_memory(&s, &a);
	assert_true(
	    fabs(rel_err(a.mem.weights + a.mem.gradients + a.mem.optimizer, 16 * a.params)) < 1e-9);
	/* the scenario text: auto reads back, explicit values keep their meaning */
	assert_int_equal(scenario_set(&s, NULL, "workload.grad_dtype", "fp32", NULL), 0);
	assert_int_equal(s.workload.grad_dtype, DTYPE_FP32);
	assert_int_equal(scenario_set(&s, NULL, "workload.grad_dtype", "auto", NULL), 0);
	assert_int_equal(s.workload.grad_dtype, GRAD_DTYPE_AUTO);
}

/* parallel.zero auto (issue 12): fsdp (torchtitan's data_parallel_shard_degree -1,
 * apply_fsdp) and torchtune's distributed recipes shard fully, ZeRO-3; the others run
 * stage 0; an explicit stage wins under every framework. On 8 GPUs fsdp's weights,
 * gradients and optimizer states per GPU are an eighth of the unsharded ones. */
static void test_zero_auto(void **state)
{
	(void)state;
	static const struct {
		enum framework fw;
		int want;
	} rows_fw[] = {{FW_DEFAULT, 0}, {FW_MEGATRON, 0},  {FW_FSDP, 3}, {FW_DEEPSPEED, 0},
		       {FW_HF, 0},	{FW_TORCHTUNE, 3}, {FW_LLMC, 0}};
	struct scenario s;
	struct plan a, b;
	int ntrain = 0;
	for (int f = 0; f < FW_COUNT; f++)
		ntrain += framework_get(f)->trains;
	assert_int_equal(ntrain, (int)(sizeof(rows_fw) / sizeof(rows_fw[0])));
	train_8b(&s, 8, 4096, 64);
	assert_int_equal(s.parallel.zero, ZERO_AUTO);
	for (size_t i = 0; i < sizeof(rows_fw) / sizeof(rows_fw[0]); i++) {
		s.workload.framework = rows_fw[i].fw;
		s.parallel.zero = ZERO_AUTO;
		assert_int_equal(framework_zero(rows_fw[i].fw, ZERO_AUTO, 8), rows_fw[i].want);
		plan_compute_memory(&s, &a);
		assert_int_equal(a.zero, rows_fw[i].want);
		for (int z = 0; z <= 1; z++) { /* llm.c runs 2 and 3 as 0 */
			s.parallel.zero = z;
			plan_compute_memory(&s, &a);
			assert_int_equal(a.zero, z);
		}
	}
	/* over one data-parallel rank nothing shards: torchtitan's fsdp_enabled needs
	 * dp_shard > 1, torchtune's single-device recipes wrap nothing */
	for (int f = 0; f < FW_COUNT; f++)
		assert_int_equal(framework_zero(f, ZERO_AUTO, 1), 0);
	assert_int_equal(framework_zero(FW_FSDP, 2, 1), 2);
	s.workload.framework = FW_TORCHTUNE;
	s.parallel.zero = ZERO_AUTO;
	s.hardware.count = 1;
	plan_compute_memory(&s, &a);
	assert_int_equal(a.zero, 0);
	s.hardware.count = 8;
	/* one data-parallel rank but 8 context ranks: torchtitan's fsdp_enabled is dp_shard > 1
	 * or cp > 1, and a stage-3 shard spreads over dp x ep x cp (plan_memory.c) */
	s.workload.framework = FW_FSDP;
	s.parallel.cp = 8;
	plan_compute_memory(&s, &a);
	assert_int_equal(a.dp, 1);
	assert_int_equal(a.zero, 3);
	assert_int_equal(framework_zero(FW_FSDP, ZERO_AUTO, 1 * 1 * 8), 3);
	s.parallel.cp = 1;
	/* serving: no stage, auto or not */
	for (int f = 0; f < FW_COUNT; f++)
		if (!framework_get(f)->trains)
			assert_int_equal(framework_zero(f, ZERO_AUTO, 8), 0);
	s.workload.framework = FW_FSDP;
	s.parallel.zero = ZERO_AUTO;
	plan_compute_memory(&s, &a);
	s.parallel.zero = 0;
	plan_compute_memory(&s, &b);
	assert_true(fabs(rel_err(a.mem.weights, b.mem.weights / 8)) < 1e-9);
	assert_true(fabs(rel_err(a.mem.gradients, b.mem.gradients / 8)) < 1e-9);
	assert_true(fabs(rel_err(a.mem.optimizer, b.mem.optimizer / 8)) < 1e-9);
	/* the scenario text: auto reads back and is written as auto */
	{
		char buf[32];
		const struct field *f = scenario_field_find("parallel.zero");
		assert_int_equal(scenario_set(&s, NULL, "parallel.zero", "2", NULL), 0);
		assert_int_equal(s.parallel.zero, 2);
		assert_string_equal(scenario_field_format(&s, f, buf, sizeof(buf)), "2");
		assert_int_equal(scenario_set(&s, NULL, "parallel.zero", "0", NULL), 0);
		assert_string_equal(scenario_field_format(&s, f, buf, sizeof(buf)), "0");
		assert_int_equal(scenario_set(&s, NULL, "parallel.zero", "auto", NULL), 0);
		assert_int_equal(s.parallel.zero, ZERO_AUTO);
		assert_string_equal(scenario_field_format(&s, f, buf, sizeof(buf)), "auto");
		assert_int_not_equal(scenario_set(&s, NULL, "parallel.zero", "4", NULL), 0);
	}
}

/* torchtitan's loss parallelism (framework fsdp, tp > 1; torchtitan/parallelisms/
 * parallelize_llama.py apply_tp, torch/distributed/tensor/parallel/loss.py): Llama 3.1 8B,
 * 8 GPUs, tp 8 with sequence parallelism, full recomputation, micro-batch 2 x 8192, bf16.
 * The output layer and loss hold the final norm's sequence shard (e h / t), the head's
 * all-gathered input (e h, the whole sequence) and DTensor's decomposed cross-entropy
 * backward, four fp32 tensors of the vocabulary-sharded logits (16 V / t); without tp, or
 * in transformers (hf, no loss_parallel), the fused kernels' 12 V / t and a head input of
 * e h / t. */
static void test_fsdp_loss_parallel(void **state)
{
	(void)state;
	struct scenario s;
	const double e = 2, h = 4096, V = 128256, sb = 2.0 * 8192, t = 8;
	train_8b(&s, 8, 8192, 16);
	s.workload.micro_batch = 2;
	s.workload.precision = DTYPE_BF16;
	s.workload.recompute = RECOMPUTE_FULL;
	s.workload.compile = COMPILE_ON;
	s.workload.framework = FW_FSDP;
	s.parallel.zero = 3;
	s.parallel.tp = 8;
	s.parallel.sequence_parallel = true;
	const double tt = compute(&s)->mem.activations_head;
	assert_true(fabs(tt - sb * (e * h * (1 / t + 1) + 16 * V / t)) <= 1e-9 * tt);
	s.workload.framework = FW_HF;
	const double hf = compute(&s)->mem.activations_head;
	assert_true(fabs(hf - sb * (e * h * 2 / t + 12 * V / t)) <= 1e-9 * hf);
	/* without tp the logits are a plain tensor: the fused kernels, as before */
	s.workload.framework = FW_FSDP;
	s.parallel.tp = 1;
	s.parallel.sequence_parallel = false;
	const double one = compute(&s)->mem.activations_head;
	assert_true(fabs(one - sb * (e * h * 2 + 12 * V)) <= 1e-9 * one);
}

/* Attention-only checkpointing (workload.recompute attention: OLMo-core's selected_modules
 * over the blocks' attention, PyTorch's checkpoint_wrapper): Llama 3.1 8B in bf16 with
 * FlashAttention (head_dim 128), the papers' framework, one GPU, micro-batch 1 x 2048. A
 * layer stores what it does without recomputation less Q (4096), K and V (1024 each), the
 * kernel's output (4096; the output projection's input) and its fp32 log-sum-exp (32 heads
 * x 4 B): 2 x 10240 + 128 B a token; the attention's input, the norm's output, stays as
 * the QKV input it was. The backward rebuilds that difference for one layer. With a frozen
 * base and LoRA on q and v (the QKV input kept only for the adapters) the checkpoint still
 * keeps the norm's output, and the adapters' rank-8 outputs go with the module. */
static void test_recompute_attention(void **state)
{
	(void)state;
	struct scenario s;
	struct plan a, n;
	double tok = 2048, inside = 2 * (4096 + 2 * 1024 + 4096) + 4 * 32.0;
	train_8b(&s, 1, 2048, 1);
	s.workload.flash_attention = true;
	s.workload.recompute = RECOMPUTE_NONE;
	plan_compute_memory(&s, &n);
	s.workload.recompute = RECOMPUTE_ATTENTION;
	plan_compute_memory(&s, &a);
	assert_true(fabs(n.mem.activations_per_layer - a.mem.activations_per_layer - tok * inside) <
		    1e-3);
	assert_true(fabs(a.mem.rebuilt_layer - tok * inside) < 1e-3);
	assert_true(a.mem.total < n.mem.total);
	assert_string_equal(scenario_enum_name("workload.recompute", RECOMPUTE_ATTENTION),
			    "attention");
	/* LoRA q, v at rank 8: the adapters' outputs (2 x 8 values) leave with the module */
	s.workload.kind = WL_FINETUNE;
	s.workload.finetune.method = FT_LORA;
	s.workload.finetune.rank = 8;
	s.workload.finetune.targets = LORA_Q | LORA_V;
	s.workload.recompute = RECOMPUTE_NONE;
	plan_compute_memory(&s, &n);
	s.workload.recompute = RECOMPUTE_ATTENTION;
	plan_compute_memory(&s, &a);
	assert_true(fabs(n.mem.activations_per_layer - a.mem.activations_per_layer -
			 tok * (inside + 2 * 16)) < 1e-3);
}

/* FP8 training converts the linear layers only (workload.fp8_scope linear, every named
 * framework's default): on an H100 (989.4 TFLOP/s bf16, 1978.9 fp8) the attention core runs
 * at the bf16 peak, twice the time of the papers' all-fp8. Megatron's Transformer Engine
 * keeps each linear weight's fp8 cast and transpose (2 B a parameter) and saves the QKV,
 * fc1 and fc2 inputs in fp8 (one byte less each), the output projection's fp8 cast beside
 * the attention output, and with fp8_scope all its attention core's Q, K, V and output in
 * fp8; torchao (fsdp) saves its own casts (below). The default stays as it was. */
static void test_fp8_linear_only(void **state)
{
	(void)state;
	struct scenario s;
	struct plan *lin = malloc(sizeof(*lin)), *all = malloc(sizeof(*all));
	struct plan *b16 = malloc(sizeof(*b16));
	const struct gpu *h100 = catalog_find_gpu(cat, "h100-sxm-80gb");
	assert_non_null(lin);
	assert_non_null(all);
	assert_non_null(b16);
	assert_non_null(h100);
	scenario_init(&s);
	llama31_8b(&s.model);
	s.hardware.gpu = *h100;
	s.hardware.count = 8;
	s.workload.kind = WL_TRAIN;
	s.workload.seq_len = 8192;
	s.workload.micro_batch = 1;
	s.workload.global_batch = 64;
	s.workload.recompute = RECOMPUTE_SELECTIVE;
	s.workload.precision = DTYPE_FP8;
	s.workload.framework = FW_MEGATRON;
	plan_compute(&s, lin);
	s.workload.fp8_scope = FP8_ALL;
	plan_compute(&s, all);
	assert_true(fabs(lin->parts.attention_s / all->parts.attention_s - 1978.9 / 989.4) < 1e-9);
	assert_true(lin->parts.matmul_s > all->parts.matmul_s); /* the output layer in bf16 */
	assert_true(lin->step_s > all->step_s);
	/* TE's fp8 weight copies: 2 B for each linear parameter (32 layers of attention
	 * 4096 x (4096 + 2 x 1024 + 4096) and MLP 3 x 4096 x 14336) */
	double linear = 32 * (4096.0 * (4096 + 2 * 1024 + 4096) + 3 * 4096.0 * 14336);
	assert_true(fabs(lin->mem.fp8_weights - 2 * linear) < 1);
	/* saved inputs in fp8: per token and layer -(h + h) - ffn + q = -18432 B */
	s.workload.precision = DTYPE_BF16;
	plan_compute(&s, b16);
	assert_true(b16->mem.fp8_weights == 0);
	assert_true(fabs(b16->mem.activations - lin->mem.activations - 8192.0 * (32 * 18432.0)) <
		    1);
	/* ZeRO-3: the copies are the two gathered decoder layers' casts at 2 B, not the
	 * whole model's 32 layers; ZeRO-1 keeps them whole */
	s.workload.precision = DTYPE_FP8;
	s.parallel.zero = 3;
	plan_compute(&s, all);
	assert_true(fabs(all->mem.fp8_weights - 2 * 2 * linear / 32) < 1);
	s.parallel.zero = 1;
	plan_compute(&s, all);
	assert_true(fabs(all->mem.fp8_weights - 2 * linear) < 1);
	s.parallel.zero = 0;
	/* fp8_scope all under TE: the attention core saves Q, K, V and its output in fp8
	 * too (FusedAttnFunc's fp8_tensors): 128 x (32 + 2 x 8 + 32) = 10240 B less a token
	 * and layer than linear */
	s.workload.fp8_scope = FP8_AUTO;
	plan_compute(&s, lin);
	s.workload.fp8_scope = FP8_ALL;
	plan_compute(&s, all);
	assert_true(fabs(lin->mem.activations - all->mem.activations - 8192.0 * 32 * 10240) < 1);
	assert_true(lin->mem.fp8_weights == all->mem.fp8_weights);
	/* torchao under FSDP2 (tensorwise Float8Linear): with the `op` policy the stored
	 * activations are bf16's; the rebuilt layer's weight casts (1 B a linear parameter of
	 * one layer) and the largest linear's backward casts, 2 T (h + ffn) + h x ffn, are
	 * counted */
	s.workload.framework = FW_FSDP;
	s.workload.fp8_scope = FP8_AUTO;
	s.workload.recompute = RECOMPUTE_OP;
	s.workload.precision = DTYPE_BF16;
	plan_compute(&s, b16);
	s.workload.precision = DTYPE_FP8;
	plan_compute(&s, lin);
	double work = 2 * 8192.0 * (4096 + 14336) + 4096.0 * 14336;
	assert_true(b16->mem.fp8_weights == 0);
	assert_true(fabs(lin->mem.fp8_weights - (linear / 32 + work)) < 1);
	assert_true(lin->mem.activations == b16->mem.activations);
	/* without recomputation every layer's casts are saved, and each layer's saved inputs
	 * change by + h (three casts of the attention norm's output for its two bytes) - ffn
	 * (the down projection's) + q (the output projection's beside the kernel's) =
	 * -6144 B a token */
	s.workload.recompute = RECOMPUTE_NONE;
	s.workload.precision = DTYPE_BF16;
	plan_compute(&s, b16);
	s.workload.precision = DTYPE_FP8;
	plan_compute(&s, lin);
	assert_true(fabs(lin->mem.fp8_weights - (linear + work)) < 1);
	assert_true(fabs(b16->mem.activations - lin->mem.activations - 8192.0 * 32 * 6144) < 1);
	s.workload.recompute = RECOMPUTE_SELECTIVE;
	/* the papers' default: all fp8, nothing else, as before frameworks */
	s.workload.framework = FW_DEFAULT;
	plan_compute(&s, lin);
	s.workload.fp8_scope = FP8_ALL;
	plan_compute(&s, all);
	assert_true(lin->step_s == all->step_s);
	assert_true(lin->mem.total == all->mem.total);
	assert_true(lin->mem.fp8_weights == 0);
	free(lin);
	free(all);
	free(b16);
}

/* ZeRO 2/3's whole gradients before their reduce-scatter, at the backward's peak. FSDP2
 * (fsdp, torchtune): the root unit's head gradient lives whole through the backward, 2 B x
 * 128256 x 4096 in bf16 (param_dtype), and the first block's, 2 B x (41.9 M + 176.2 M),
 * forms beside it (torch/distributed/fsdp/_fully_shard/_fsdp_collectives.py
 * foreach_reduce; _fsdp_param_group.py post_backward). DeepSpeed copies each gradient into
 * its flat bucket of reduce_bucket_size = 5e8 16-bit elements (stage3.py
 * __ipg_bucket_flat_buffer; stage_1_and_2.py ipg_buffer). ZeRO-1 and the papers' default
 * count none. The transient is in the comm buffers and the total, whatever the gradients'
 * lifetime. */
static void test_zero_whole_grads(void **state)
{
	(void)state;
	struct scenario s;
	struct plan *p = malloc(sizeof(*p)), *q = malloc(sizeof(*q));
	double layer = 4096.0 * (4096 + 2 * 1024 + 4096) + 3 * 4096.0 * 14336;
	assert_non_null(p);
	assert_non_null(q);
	train_8b(&s, 8, 8192, 64);
	s.workload.framework = FW_FSDP;
	s.workload.recompute = RECOMPUTE_OP;
	s.parallel.zero = 3;
	plan_compute_memory(&s, p);
	assert_true(fabs(p->mem.grads_transient - 2 * (128256.0 * 4096 + layer)) < 1);
	assert_true(p->mem.comm_buffers > p->mem.grads_transient);
	s.parallel.zero = 1;
	plan_compute_memory(&s, q);
	assert_true(q->mem.grads_transient == 0);
	/* torchtune's chunked head under ZeRO-3: the pair of whole head gradients, less the
	 * logits' gradient chunk freed, 2 x 128256 x (2 x 4096 - 2 x 8192 / 8), one
	 * micro-batch a step */
	s.workload.framework = FW_TORCHTUNE;
	s.workload.global_batch = 8;
	s.parallel.zero = 3;
	plan_compute_memory(&s, p);
	assert_true(fabs(p->mem.grads_transient -
			 (2 * 128256.0 * (2 * 4096 - 2 * 8192.0 / 8) + 2 * layer)) < 1);
	/* DeepSpeed: the bucket, 1e9 B, at stage 3 and 2 */
	s.workload.framework = FW_DEEPSPEED;
	plan_compute_memory(&s, p);
	assert_true(fabs(p->mem.grads_transient - 1e9) < 1);
	s.parallel.zero = 2;
	plan_compute_memory(&s, p);
	assert_true(fabs(p->mem.grads_transient - 1e9) < 1);
	s.parallel.zero = 1;
	plan_compute_memory(&s, p);
	assert_true(p->mem.grads_transient == 0);
	/* the papers' default: the ZeRO paper's partitions, nothing more */
	s.workload.framework = FW_DEFAULT;
	s.parallel.zero = 3;
	plan_compute_memory(&s, p);
	assert_true(p->mem.grads_transient == 0);
	free(p);
	free(q);
}

/* FSDP2 under a pipeline (torchtitan): the stage's parameters stay gathered through the
 * step (reshard_after_forward False by default with PP, torchtitan/distributed/fsdp.py;
 * reshard_after_backward False on every micro-batch's backward but the last,
 * torch/distributed/pipelining/stage.py) and its gradients accumulate unsharded in fp32.
 * Megatron's distributed optimizer at the same layout keeps two layers gathered. */
static void test_fsdp_under_pp(void **state)
{
	(void)state;
	struct scenario s;
	struct plan *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	assert_non_null(a);
	assert_non_null(b);
	scenario_init(&s);
	llama31_8b(&s.model);
	gpu_set(&s, "h100", 80 * GIB, 8);
	s.workload.kind = WL_TRAIN;
	s.workload.seq_len = 4096;
	s.workload.micro_batch = 1;
	s.workload.global_batch = 32;
	s.workload.recompute = RECOMPUTE_FULL;
	s.parallel.pp = 2;
	s.parallel.zero = 3;
	s.workload.framework = FW_FSDP;
	plan_compute_memory(&s, a);
	s.workload.framework = FW_MEGATRON;
	plan_compute_memory(&s, b);
	/* the same NCCL buffers on both: the difference is the gathered stage, whole
	 * (dp 4 holds a quarter) against two of the largest layers */
	double stage_w = a->mem.weights * 4; /* bf16 weights of the stage, unsharded */
	double two_layers = 2 * 2.0 * a->counts.largest_layer;
	assert_true(fabs((a->mem.comm_buffers - b->mem.comm_buffers) -
			 ((stage_w - a->mem.weights) - two_layers)) < 1e3);
	assert_true(fabs(a->mem.gradients - 4 * stage_w / 2) < 1e3);
	assert_true(a->mem.grad_bytes_per_param == 4);
	assert_true(b->mem.gradients < a->mem.gradients);
	/* without a pipeline FSDP reshards; `never` keeps the model gathered (dp 8) */
	s.workload.framework = FW_FSDP;
	s.parallel.pp = 1;
	plan_compute_memory(&s, a);
	s.parallel.reshard_after_forward = RESHARD_NEVER;
	plan_compute_memory(&s, b);
	assert_true(b->mem.comm_buffers > a->mem.comm_buffers);
	assert_true(fabs(b->mem.comm_buffers - a->mem.comm_buffers -
			 (7 * a->mem.weights - 2 * 2.0 * a->counts.largest_layer)) < 1e3);
	assert_true(a->mem.gradients == b->mem.gradients);
	/* time: under the pipeline FSDP gathers the stage once a step and reduce-scatters
	 * its fp32 gradients once, not every micro-batch (8 here) */
	s.parallel.reshard_after_forward = RESHARD_AUTO;
	s.parallel.pp = 2;
	s.workload.framework = FW_FSDP;
	plan_compute(&s, a);
	s.workload.framework = FW_MEGATRON;
	plan_compute(&s, b);
	assert_true(a->micro_batches == 8);
	assert_true(a->parts.zero3_s < b->parts.zero3_s);
	assert_true(a->parts.dp_comm_s == b->parts.dp_comm_s);
	free(a);
	free(b);
}

/* SGLang's mem_fraction_static falls with tp (python/sglang/srt/server_args.py): 0.88 at
 * tp 1, 0.87, 0.85, 0.81, 0.79 at 16; the explicit field wins. */
static void test_sglang_fraction_by_tp(void **state)
{
	(void)state;
	static const int tps[] = {1, 2, 4, 8, 16};
	static const double want[] = {0.88, 0.87, 0.85, 0.81, 0.79};
	struct scenario s;
	for (int i = 0; i < 5; i++)
		assert_true(framework_mem_fraction(FW_SGLANG, tps[i]) == want[i]);
	assert_true(framework_mem_fraction(FW_VLLM, 8) == 0.9);
	scenario_init(&s);
	llama31_8b(&s.model);
	gpu_set(&s, "h100", 80 * GIB, 4);
	s.workload.kind = WL_ONLINE;
	s.workload.framework = FW_SGLANG;
	s.parallel.tp = 4;
	const struct plan *p = compute(&s);
	assert_true(p->mem_fraction == 0.85);
	s.workload.gpu_memory_utilization = 0.7;
	p = compute(&s);
	assert_true(p->mem_fraction == 0.7);
}

static bool problem_names(const struct gp_problems *pr, const char *a, const char *b)
{
	for (int i = 0; i < pr->count; i++)
		if (strstr(pr->items[i].message, a) && strstr(pr->items[i].message, b))
			return true;
	return false;
}

/* One rule table for what a training framework cannot run (framework.c layout_rules): over
 * a grid of layouts, scenario_validate names a "framework NAME ..." problem exactly where
 * framework_runs_layout (search's filter) says no, one for each rule broken, and the
 * search of test_search.c keeps to the same function. */
static void test_layout_rules_one_table(void **state)
{
	(void)state;
	static const enum framework fws[] = {FW_MEGATRON,  FW_FSDP, FW_DEEPSPEED,
					     FW_TORCHTUNE, FW_LLMC, FW_HF};
	int refused = 0;
	for (size_t f = 0; f < sizeof(fws) / sizeof(fws[0]); f++)
		for (int tp = 1; tp <= 2; tp++)
			for (int pp = 1; pp <= 2; pp++)
				for (int z = 0; z <= 3; z++)
					for (int o = 0; o <= 1; o++) {
						struct scenario s;
						struct gp_problems pr;
						char lead[48];
						int want = 0, got = 0;
						train_8b(&s, 8, 2048, 64);
						s.workload.framework = fws[f];
						s.parallel.tp = tp;
						s.parallel.pp = pp;
						s.parallel.zero = z;
						s.parallel.offload =
						    o ? OFFLOAD_OPTIMIZER : OFFLOAD_NONE;
						for (int i = 0; (i = framework_layout_rule(
								     i, fws[f], tp, pp, z, o)) >= 0;
						     i++)
							want++;
						assert_true(
						    (want == 0) ==
						    framework_runs_layout(fws[f], tp, pp, z, o));
						gp_problems_init(&pr);
						scenario_validate(&s, NULL, &pr);
						snprintf(lead, sizeof(lead), "framework %s ",
							 framework_name(fws[f]));
						for (int i = 0; i < pr.count; i++)
							got += strstr(pr.items[i].message, lead) !=
								   NULL &&
							       strstr(pr.items[i].message,
								      "expected") != NULL;
						assert_int_equal(got, want);
						refused += want > 0;
					}
	assert_true(refused > 0);
	/* a rule names the field its error points at; no rule past the table */
	assert_string_equal(
	    framework_layout_rule_at(framework_layout_rule(0, FW_LLMC, 2, 1, 0, false))->key,
	    "parallel.tp");
	assert_null(framework_layout_rule_at(-1));
}

/* Bad input: an unknown name lists the accepted ones; a framework that cannot run the
 * workload is a problem naming both; a field it ignores is a warning naming both. */
/* SGLang's cuda_graph_max_bs (python/sglang/srt/server_args.py, December 2024): 8 under
 * 25,000 MiB, else 160; the other rows graph every decode batch (0). */
static void test_graph_cap(void **state)
{
	(void)state;
	assert_int_equal(framework_graph_max_bs(FW_SGLANG, 24.0 * 1073741824.0), 8);
	assert_int_equal(framework_graph_max_bs(FW_SGLANG, 25000.0 * 1048576.0), 160);
	assert_int_equal(framework_graph_max_bs(FW_SGLANG, 141e9), 160);
	assert_int_equal(framework_graph_max_bs(FW_VLLM, 141e9), 0);
	assert_int_equal(framework_graph_max_bs(FW_TRTLLM, 80e9), 0);
	assert_int_equal(framework_graph_max_bs(FW_SGLANG, 0), 0);
}

static void test_bad_input(void **state)
{
	(void)state;
	struct scenario s;
	struct gp_error err;
	struct gp_problems pr;
	char buf[1024];

	scenario_init(&s);
	assert_int_equal(scenario_set(&s, NULL, "workload.framework", "pytorch", &err), -1);
	gp_error_format(&err, buf, sizeof(buf));
	assert_non_null(strstr(buf, "'pytorch'"));
	assert_non_null(strstr(buf, "torchtune"));
	assert_non_null(strstr(buf, "llama.cpp"));

	llama31_8b(&s.model);
	gpu_set(&s, "h100", 80 * GIB, 8);
	s.workload.kind = WL_TRAIN;
	s.workload.framework = FW_VLLM;
	gp_problems_init(&pr);
	scenario_validate(&s, NULL, &pr);
	assert_true(problem_names(&pr, "vllm", "train"));
	/* the expected frameworks are the table's trainers, in its order */
	assert_true(problem_names(&pr,
				  "expected default, megatron, fsdp, deepspeed, hf, "
				  "torchtune or llm.c)",
				  "serves only"));

	s.workload.kind = WL_FINETUNE;
	s.workload.framework = FW_LLAMACPP;
	gp_problems_init(&pr);
	scenario_validate(&s, NULL, &pr);
	assert_true(problem_names(&pr, "llama.cpp", "finetune"));

	s.workload.framework = FW_TORCHTUNE;
	s.parallel.pp = 2;
	gp_problems_init(&pr);
	scenario_validate(&s, NULL, &pr);
	assert_true(problem_names(&pr, "torchtune", "pp 2"));
	assert_true(problem_names(&pr, "pp 2", "expected pp 1, or megatron, fsdp or deepspeed)"));
	s.parallel.pp = 1;
	s.workload.kind = WL_ONLINE;
	gp_problems_init(&pr);
	scenario_validate(&s, NULL, &pr);
	assert_true(problem_names(&pr, "expected default, vllm, sglang, trt-llm or llama.cpp)",
				  "trains only"));
	s.workload.kind = WL_FINETUNE;

	/* ZeRO on vLLM: a warning naming both */
	s.workload.kind = WL_ONLINE;
	s.workload.framework = FW_VLLM;
	s.parallel.zero = 1;
	const struct plan *p = compute(&s);
	assert_true(has_warning(p, PW_FRAMEWORK_CONFLICT));
	for (int i = 0; i < p->nwarnings; i++)
		if (p->warnings[i].code == PW_FRAMEWORK_CONFLICT) {
			plan_warning_format(&p->warnings[i], buf, sizeof(buf));
			assert_non_null(strstr(buf, "vllm"));
			assert_non_null(strstr(buf, "parallel.zero"));
		}
	/* the papers' default warns of nothing */
	s.workload.framework = FW_DEFAULT;
	p = compute(&s);
	assert_false(has_warning(p, PW_FRAMEWORK_CONFLICT));

	/* reshard_after_forward always under FSDP with a pipeline: the stage stays gathered
	 * (framework_keeps_gathered), so the field is ignored and the plan says so; without a
	 * pipeline it is used, and Megatron's pipeline has no such rule */
	s.workload.kind = WL_TRAIN;
	s.parallel.zero = 3;
	s.parallel.pp = 2;
	s.parallel.reshard_after_forward = RESHARD_ALWAYS;
	s.workload.framework = FW_FSDP;
	p = compute(&s);
	assert_true(has_warning(p, PW_FRAMEWORK_CONFLICT));
	for (int i = 0; i < p->nwarnings; i++)
		if (p->warnings[i].code == PW_FRAMEWORK_CONFLICT) {
			assert_int_equal((int)p->warnings[i].b, CONFLICT_RESHARD);
			plan_warning_format(&p->warnings[i], buf, sizeof(buf));
			assert_non_null(strstr(buf, "fsdp"));
			assert_non_null(strstr(buf, "parallel.reshard_after_forward always"));
			assert_non_null(strstr(buf, "pp > 1"));
		}
	s.parallel.reshard_after_forward = RESHARD_NEVER;
	assert_false(has_warning(compute(&s), PW_FRAMEWORK_CONFLICT));
	s.parallel.reshard_after_forward = RESHARD_ALWAYS;
	s.parallel.pp = 1;
	assert_false(has_warning(compute(&s), PW_FRAMEWORK_CONFLICT));
	s.parallel.pp = 2;
	s.workload.framework = FW_MEGATRON;
	assert_false(has_warning(compute(&s), PW_FRAMEWORK_CONFLICT));
}

static int setup(void **state)
{
	struct gp_error err;
	if (shipped_catalog_setup(state) != 0)
		return -1;
	validation_init(&rows);
	if (validation_load_file(&rows, ROWS, &err) != 0 ||
	    validation_load_file(&rows, KV_ROWS, &err) != 0) {
		fprintf(stderr, "%s: %s\n", err.file, err.message);
		return -1;
	}
	return 0;
}

static int teardown(void **state)
{
	validation_release(&rows);
	return shipped_catalog_teardown(state);
}

/* Serving frameworks: the peak (allocated, reserved, total) never falls as the batch or
 * the prompt grows, and reserved is never below allocated, for every serving row of the
 * table (the training rows are test_properties.c's). */
static void test_serving_monotone(void **state)
{
	(void)state;
	for (int f = 0; f < FW_COUNT; f++) {
		struct scenario s;
		double last[3] = {0, 0, 0};
		if (!framework_get(f)->serves)
			continue;
		scenario_init(&s);
		llama31_8b(&s.model);
		s.workload.kind = WL_ONLINE;
		s.workload.framework = f;
		gpu_set(&s, "h100", 80 * GIB, 1);
		for (int b = 1; b <= 512; b *= 2) {
			s.workload.batch = b;
			const struct plan *p = compute(&s);
			double now[3] = {p->mem.allocated, p->mem.reserved, p->mem.total};
			assert_true(p->mem.reserved >= p->mem.allocated);
			assert_true(p->mem.total >= p->mem.reserved);
			assert_true(p->mem.allocated >= p->mem.blas_workspace);
			for (int k = 0; k < 3; k++) {
				if (now[k] < last[k])
					fail_msg("%s: memory falls at batch %d", framework_name(f),
						 b);
				last[k] = now[k];
			}
		}
		s.workload.batch = 8;
		last[0] = last[1] = last[2] = 0;
		for (int P = 128; P <= 32768; P *= 2) {
			s.workload.prompt_tokens = P;
			const struct plan *p = compute(&s);
			double now[3] = {p->mem.allocated, p->mem.reserved, p->mem.total};
			for (int k = 0; k < 3; k++) {
				if (now[k] < last[k])
					fail_msg("%s: memory falls at prompt %d", framework_name(f),
						 P);
				last[k] = now[k];
			}
		}
	}
}

/* explain of every memory figure names the framework (its title), its rules and its
 * source, for every framework of the table, on a workload it runs. */
static void test_explain_names_framework(void **state)
{
	(void)state;
	static char buf[16384];
	for (int f = 0; f < FW_COUNT; f++) {
		const struct framework_info *fw = framework_get(f);
		for (int train = 0; train < 2; train++) {
			struct scenario s;
			struct gp_error err;
			if (train ? !fw->trains : !fw->serves)
				continue;
			scenario_init(&s);
			llama31_8b(&s.model);
			s.workload.kind = train ? WL_TRAIN : WL_ONLINE;
			s.workload.framework = f;
			gpu_set(&s, "h100", 80 * GIB, 8);
			const struct plan *p = compute(&s);
			plan_compute_time(&s, &plan_buf);
			int n = 0;
			for (const struct figure *g = figures; g->key; g++) {
				if (g->section != FIGURE_MEMORY)
					continue;
				if (explain_key_wrapped(&s, p, g->key, 1000, buf, sizeof(buf),
							&err) != 0)
					fail_msg("%s: %s", g->key, err.message);
				if (!strstr(buf, framework_title(
						     f, !train, p->engine == ENGINE_CUDA_GRAPHS)) ||
				    !strstr(buf, "  rules: ") ||
				    !strstr(buf, framework_source(f, !train)) ||
				    !strstr(buf, "source: "))
					fail_msg(
					    "explain %s under %s (%s) does not name the framework, "
					    "its rules and source:\n%s",
					    g->key, framework_name(f), train ? "train" : "online",
					    buf);
				n++;
			}
			assert_true(n >= 10);
		}
	}
}

/* NCCL's buffers follow its channel count: a ring over PCIe alone gets 4 channels
 * (src/graph/search.cc: 2 of 12 GB/s in a Gen4 x16 link NCCL rates at 24 GB/s, doubled
 * once in connect.cc ncclTopoPostset), an NVLink one 16; 4 MiB x 2 peers a channel */
static void test_nccl_pcie_channels(void **state)
{
	struct scenario s;
	struct plan a, b;
	(void)state;
	scenario_init(&s);
	llama31_8b(&s.model);
	s.workload.kind = WL_TRAIN;
	gpu_set(&s, "rtx-4090", 24 * GIB, 8);
	snprintf(s.hardware.gpu.link, sizeof(s.hardware.gpu.link), "pcie");
	plan_compute_memory(&s, &a);
	assert_true(a.mem.nccl_buffers == 2 * 4 * 4194304.0);
	snprintf(s.hardware.gpu.link, sizeof(s.hardware.gpu.link), "nvlink4");
	plan_compute_memory(&s, &b);
	assert_true(b.mem.nccl_buffers == 2 * 16 * 4194304.0);
	/* in total, outside reserved: the rest of the plan is the same */
	assert_true(fabs((b.mem.total - a.mem.total) - 2 * 12 * 4194304.0) < 1);
	assert_true(a.mem.reserved == b.mem.reserved);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_torchtitan_8b_fsdp2),
	    cmocka_unit_test(test_zero_auto),
	    cmocka_unit_test(test_torchtune_lora_4090),
	    cmocka_unit_test(test_torchtune_qlora_4090),
	    cmocka_unit_test(test_torchtune_3b_full_pure_bf16),
	    cmocka_unit_test(test_vllm_3090_kv_budget),
	    cmocka_unit_test(test_vllm_profile_budget),
	    cmocka_unit_test(test_chunked_head_backward),
	    cmocka_unit_test(test_every_row),
	    cmocka_unit_test(test_paged_optimizer),
	    cmocka_unit_test(test_recompute_uniform),
	    cmocka_unit_test(test_lora_eager),
	    cmocka_unit_test(test_moe_eager),
	    cmocka_unit_test(test_blas_workspace),
	    cmocka_unit_test(test_recompute_attention),
	    cmocka_unit_test(test_layout_rules_one_table),
	    cmocka_unit_test(test_fp8_linear_only),
	    cmocka_unit_test(test_zero_whole_grads),
	    cmocka_unit_test(test_fsdp_under_pp),
	    cmocka_unit_test(test_sglang_fraction_by_tp),
	    cmocka_unit_test(test_default_and_overrides),
	    cmocka_unit_test(test_grad_dtype_auto),
	    cmocka_unit_test(test_fsdp_loss_parallel),
	    cmocka_unit_test(test_serving_monotone),
	    cmocka_unit_test(test_explain_names_framework),
	    cmocka_unit_test(test_graph_cap),
	    cmocka_unit_test(test_bad_input),
	    cmocka_unit_test(test_nccl_pcie_channels),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
