/* test_compile_memory.c - what torch.compile changes in the activations that PyTorch's
 * per-op selective checkpointing (workload.recompute op, torchtitan's `op` policy) keeps:
 * AOTAutograd's partitioner saves only the policy's outputs that the backward reads, so
 * the down projection's output, which eager SAC caches, is not kept (src/plan_memory.c
 * act_op_unread_token). Checked tensor by tensor on Llama 3.1 8B as torchtitan's
 * benchmark ran it (tests/validation/heldout-train-memory.yaml tt-8b-compile-mem, whose
 * measured value is held out and not used here). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "framework.h"
#include "plan.h"
#include "scenario.h"

#define GIB 1073741824.0
#define SEQ 8192.0
#define MB  2.0

static struct plan plan_buf;

/* Llama 3.1 8B (meta-llama/Llama-3.1-8B config.json: 32 layers, hidden 4096, 32 heads, 8
 * key/value heads of 128, intermediate 14336, vocab 128256) trained as torchtitan's
 * benchmark (pytorch/torchtitan benchmarks/llama3_h100_202412_torchtitan.md, Table 1):
 * FSDP2 over 8 H100s, local batch 2 x 8192, bf16, recompute op. */
static void torchtitan_8b(struct scenario *s, enum framework fw, enum compile_mode c)
{
	struct model *m = &s->model;
	scenario_init(s);
	m->layers = 32, m->hidden = 4096, m->heads = 32, m->kv_heads = 8, m->head_dim = 128;
	m->ffn = 14336, m->vocab = 128256, m->mlp = MLP_GATED, m->norm = NORM_RMSNORM;
	snprintf(s->hardware.gpu.id, sizeof(s->hardware.gpu.id), "%s", "h100");
	/* 96 GB of HBM2e a GPU, 8 a host (the benchmark's Hardware section) */
	s->hardware.gpu.memory_bytes = 96e9, s->hardware.count = 8;
	s->hardware.gpu.gpus_per_node = s->hardware.gpu.link_domain = 8;
	s->workload.kind = WL_TRAIN;
	s->workload.framework = fw;
	s->workload.seq_len = (int)SEQ;
	s->workload.micro_batch = (int)MB;
	s->workload.global_batch = 16;
	s->workload.recompute = RECOMPUTE_OP;
	s->workload.compile = c;
	s->parallel.zero = 3;
}

static const struct plan *compute(const struct scenario *s)
{
	plan_compute_memory(s, &plan_buf);
	return &plan_buf;
}

/* bytes per token of one layer */
static double per_token(const struct scenario *s)
{
	return compute(s)->mem.activations_per_layer / (SEQ * MB);
}

/* Eager, the op policy (torchtitan parallelize_llama.py _apply_ac_to_transformer_block:
 * _save_list's outputs but every second mm) caches q, v, gate and down, the flash
 * kernel's output and fp32 log-sum-exp, beside the block's input (torch/utils/
 * checkpoint.py _CachingTorchDispatchMode), in bf16 (e = 2):
 *   input 2 x 4096, q 2 x 4096, v 2 x 1024, attention output 2 x 4096, lse 4 x 32,
 *   gate 2 x 14336, down 2 x 4096 = 63616 B.
 * Compiled, the down projection's output is read by no backward node (it feeds only the
 * residual add) and the partitioner does not save it: 63616 - 8192 = 55424 B, 4 GiB less
 * over 32 layers of 16384 tokens. */
static void test_op_policy_compiled(void **state)
{
	(void)state;
	struct scenario s;
	double eager, compiled, act_eager, act_compiled;

	torchtitan_8b(&s, FW_FSDP, COMPILE_OFF);
	eager = per_token(&s);
	act_eager = compute(&s)->mem.activations;
	torchtitan_8b(&s, FW_FSDP, COMPILE_ON);
	compiled = per_token(&s);
	act_compiled = compute(&s)->mem.activations;
	assert_true(eager == 2.0 * (4096 + 4096 + 1024 + 4096 + 14336 + 4096) + 4.0 * 32);
	assert_true(eager == 63616);
	assert_true(compiled == 55424);
	/* the layers' saved sets alone move: the output layer and loss are not compiled
	 * (torchtitan compiles the blocks; train.py leaves loss_fn eager) */
	assert_true(fabs((act_eager - act_compiled) - 32 * 8192 * SEQ * MB) < 1.0);
	assert_true(fabs((act_eager - act_compiled) - 4 * GIB) < 1.0);
	/* auto is torchtitan's default, training.compile false: the eager count */
	torchtitan_8b(&s, FW_FSDP, COMPILE_AUTO);
	assert_false(framework_compiled(FW_FSDP, COMPILE_AUTO));
	assert_true(per_token(&s) == eager);
}

/* The peak moves with the stored activations, the allocator's slack with it; the
 * recomputed layer (transient, under the loss's buffers) does not add it back. */
static void test_op_policy_peak(void **state)
{
	(void)state;
	struct scenario s;
	struct plan a, b;
	torchtitan_8b(&s, FW_FSDP, COMPILE_OFF);
	plan_compute_memory(&s, &a);
	torchtitan_8b(&s, FW_FSDP, COMPILE_ON);
	plan_compute_memory(&s, &b);
	assert_true(b.mem.allocated < a.mem.allocated);
	assert_true(fabs((a.mem.allocated - b.mem.allocated) - 4 * GIB) < 1e3);
	assert_true(b.mem.reserved >= b.mem.allocated);
	assert_true(b.mem.reserved < a.mem.reserved);
}

/* Only the op policy's outputs move: full recomputation keeps the block's input compiled
 * or not (every node PREFER_RECOMPUTE, the partitioner's must_recompute), a plain MLP's
 * fc2 is the 6th matmul and never saved, and without recomputation fsdp counts the
 * fused-kernel layer either way. */
static void test_other_policies_unmoved(void **state)
{
	(void)state;
	struct scenario s;
	static const enum recompute rc[] = {RECOMPUTE_FULL, RECOMPUTE_NONE, RECOMPUTE_SELECTIVE};
	for (size_t i = 0; i < sizeof(rc) / sizeof(rc[0]); i++) {
		double off;
		torchtitan_8b(&s, FW_FSDP, COMPILE_OFF);
		s.workload.recompute = rc[i];
		off = per_token(&s);
		s.workload.compile = COMPILE_ON;
		assert_true(per_token(&s) == off);
	}
	torchtitan_8b(&s, FW_FSDP, COMPILE_OFF);
	s.model.mlp = MLP_PLAIN;
	s.model.norm = NORM_LAYERNORM;
	double plain = per_token(&s);
	s.workload.compile = COMPILE_ON;
	assert_true(per_token(&s) == plain);
}

/* The same PyTorch SAC under torchtune's compile (its layers are compiled as torchtitan's
 * blocks are, recipes' compile: True); and a MoE layer: its shared experts' down outputs
 * are summed unweighted and dropped, its routed ones stay (the gradient of the scores
 * that weight them reads them). */
static void test_torchtune_and_moe(void **state)
{
	(void)state;
	struct scenario s;
	double off;

	torchtitan_8b(&s, FW_TORCHTUNE, COMPILE_OFF);
	s.workload.kind = WL_FINETUNE;
	s.workload.finetune.method = FT_FULL;
	s.hardware.count = 1;
	s.parallel.zero = 0;
	s.workload.global_batch = 2;
	off = per_token(&s);
	s.workload.compile = COMPILE_ON;
	assert_true(off - per_token(&s) == 2 * 4096);

	torchtitan_8b(&s, FW_FSDP, COMPILE_OFF);
	s.model.moe.experts = 8;
	s.model.moe.active = 2;
	s.model.moe.shared = 1;
	s.model.moe.expert_ffn = 2048;
	off = per_token(&s);
	s.workload.compile = COMPILE_ON;
	assert_true(off - per_token(&s) == 2 * 4096);
	s.model.moe.shared = 0;
	off = per_token(&s);
	s.workload.compile = COMPILE_OFF;
	assert_true(per_token(&s) == off);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_op_policy_compiled),
	    cmocka_unit_test(test_op_policy_peak),
	    cmocka_unit_test(test_other_policies_unmoved),
	    cmocka_unit_test(test_torchtune_and_moe),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
