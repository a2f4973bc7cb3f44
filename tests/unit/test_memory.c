/* test_memory.c - the memory model against published formulas and worked numbers, each
 * copied here with its source (paper and table, documentation, README). */
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

#define GIB 1073741824.0

static struct plan plan_buf;

static void gpu_set(struct scenario *s, const char *id, double bytes)
{
	snprintf(s->hardware.gpu.id, sizeof(s->hardware.gpu.id), "%s", id);
	s->hardware.gpu.memory_bytes = bytes;
	s->hardware.gpu.gpus_per_node = 8;
	s->hardware.gpu.link_domain = 8;
}

static const struct plan *compute(const struct scenario *s)
{
	plan_compute_memory(s, &plan_buf);
	return &plan_buf;
}

static bool has_warning(const struct plan *p, enum plan_warning_code code)
{
	for (int i = 0; i < p->nwarnings; i++)
		if (p->warnings[i].code == code)
			return true;
	return false;
}

static double rel_err(double got, double want)
{
	return fabs(got - want) / fabs(want);
}

/* ---- ZeRO (Rajbhandari et al., SC'20), Table 1 and Figure 1 ---------------------------- */

/* Table 1: per-device model-state memory in GB (1e9 bytes), ZeRO-1 / ZeRO-2 / ZeRO-3, for
 * Psi parameters and Nd data-parallel devices; mixed-precision Adam, K = 12. */
static const struct {
	double psi;
	int nd;
	double gb[3];
} zero_table1[] = {
    {7.5e9, 1, {120, 120, 120}},      {7.5e9, 4, {52.5, 41.3, 30}},
    {7.5e9, 16, {35.6, 21.6, 7.5}},   {7.5e9, 64, {31.4, 16.6, 1.88}},
    {7.5e9, 256, {30.4, 15.4, 0.47}}, {7.5e9, 1024, {30.1, 15.1, 0.12}},
    {128e9, 1, {2048, 2048, 2048}},   {128e9, 4, {896, 704, 512}},
    {128e9, 16, {608, 368, 128}},     {128e9, 64, {536, 284, 32}},
    {128e9, 256, {518, 263, 8}},      {128e9, 1024, {513, 257, 2}},
    {1e12, 1, {16000, 16000, 16000}}, {1e12, 4, {7000, 5500, 4000}},
    {1e12, 16, {4750, 2875, 1000}},   {1e12, 64, {4187, 2218, 250}},
    {1e12, 256, {4046, 2054, 62.5}},  {1e12, 1024, {4011, 2013, 15.6}},
};

static void zero_scenario(struct scenario *s, double psi, int nd, int stage)
{
	scenario_init(s);
	s->model.params = psi;
	s->workload.kind = WL_TRAIN;
	s->workload.precision = DTYPE_BF16;
	s->workload.optimizer = OPT_ADAMW;
	s->workload.grad_dtype = DTYPE_BF16;
	s->hardware.count = nd;
	s->parallel.zero = stage;
	gpu_set(s, "a100-80gb", 80 * GIB);
}

static void test_zero_table1(void **state)
{
	(void)state;
	struct scenario s;
	for (size_t i = 0; i < sizeof(zero_table1) / sizeof(zero_table1[0]); i++) {
		for (int z = 1; z <= 3; z++) {
			zero_scenario(&s, zero_table1[i].psi, zero_table1[i].nd, z);
			const struct plan *p = compute(&s);
			double states = p->mem.weights + p->mem.gradients + p->mem.optimizer;
			double want = zero_table1[i].gb[z - 1] * 1e9;
			/* the formula itself, exactly (ZeRO paper, Section 5) */
			double psi = zero_table1[i].psi, nd = zero_table1[i].nd;
			double exact = z == 1	? 4 * psi + 12 * psi / nd
				       : z == 2 ? 2 * psi + 14 * psi / nd
						: 16 * psi / nd;
			assert_true(rel_err(states, exact) < 1e-9);
			/* the printed cell within 1%, or within half a unit of its last printed
			 * digit: 0.12 stands for 0.1171875 (16 x 7.5e9 / 1024), 2.3% away */
			if (fabs(states - want) > fmax(0.01 * want, 0.005e9))
				fail_msg("psi %g nd %d zero-%d: %g GB, table says %g GB",
					 zero_table1[i].psi, zero_table1[i].nd, z, states / 1e9,
					 want / 1e9);
			assert_int_equal(p->dp, zero_table1[i].nd);
		}
	}
}

/* Figure 1: Psi = 7.5B, Nd = 64: 120 GB, 31.4 GB, 16.6 GB, 1.9 GB; the itemization behind
 * it is 2 Psi weights + 2 Psi gradients + 12 Psi optimizer. */
static void test_zero_figure1(void **state)
{
	(void)state;
	struct scenario s;
	const double want[4] = {120e9, 31.4e9, 16.6e9, 1.875e9};
	for (int z = 0; z <= 3; z++) {
		zero_scenario(&s, 7.5e9, 64, z);
		const struct plan *p = compute(&s);
		assert_true(rel_err(p->mem.weights + p->mem.gradients + p->mem.optimizer, want[z]) <
			    0.005);
	}
	zero_scenario(&s, 7.5e9, 64, 0);
	const struct plan *p = compute(&s);
	assert_true(rel_err(p->mem.weights, 15e9) < 1e-9);
	assert_true(rel_err(p->mem.gradients, 15e9) < 1e-9);
	assert_true(rel_err(p->mem.optimizer, 90e9) < 1e-9);
	assert_true(p->mem.weight_bytes_per_param == 2);
	assert_true(p->mem.grad_bytes_per_param == 2);
	assert_true(p->mem.optimizer_bytes_per_param == 12);
}

/* Section 3: a 1.5B GPT-2 has 3 GB of fp16 weights but needs 24 GB of model states. */
static void test_zero_gpt2_15b(void **state)
{
	(void)state;
	struct scenario s;
	zero_scenario(&s, 1.5e9, 1, 0);
	const struct plan *p = compute(&s);
	assert_true(rel_err(p->mem.weights, 3e9) < 1e-9);
	assert_true(rel_err(p->mem.weights + p->mem.gradients + p->mem.optimizer, 24e9) < 1e-9);
}

/* Other optimizers (EleutherAI, "Transformer Math 101"): 8-bit Adam 6 B/param of state,
 * SGD with momentum 8, pure fp32 AdamW 8 of state + 4 weights + 4 gradients; Megatron's
 * fp32 main_grad makes Adam 18 B/param. */
static void test_optimizer_bytes(void **state)
{
	(void)state;
	struct scenario s;
	const struct plan *p;

	zero_scenario(&s, 1e9, 1, 0);
	s.workload.optimizer = OPT_ADAM8BIT;
	p = compute(&s);
	assert_true(rel_err(p->mem.optimizer, 6e9) < 1e-9);
	s.workload.optimizer = OPT_SGD;
	p = compute(&s);
	assert_true(rel_err(p->mem.optimizer, 8e9) < 1e-9);
	s.workload.optimizer = OPT_NONE;
	p = compute(&s);
	assert_true(p->mem.optimizer == 0);
	s.workload.optimizer = OPT_ADAMW;
	s.workload.precision = DTYPE_FP32;
	p = compute(&s);
	assert_true(rel_err(p->mem.weights, 4e9) < 1e-9);
	assert_true(rel_err(p->mem.gradients, 4e9) < 1e-9);
	assert_true(rel_err(p->mem.optimizer, 8e9) < 1e-9);
	s.workload.precision = DTYPE_BF16;
	s.workload.grad_dtype = DTYPE_FP32;
	p = compute(&s);
	assert_true(rel_err(p->mem.weights + p->mem.gradients + p->mem.optimizer, 18e9) < 1e-9);
}

/* ---- Activations (Korthikanti et al., MLSys 2023, Section 4, Table 2) ------------------- */

/* A GPT-3-style layer: multi-head attention, plain 4h GELU MLP, LayerNorm, dropout, no
 * FlashAttention, 16-bit activations. */
static void gpt3_scenario(struct scenario *s, int layers, int hidden, int heads, int seq, int vocab)
{
	scenario_init(s);
	s->model.layers = layers;
	s->model.hidden = hidden;
	s->model.heads = heads;
	s->model.kv_heads = heads;
	s->model.head_dim = hidden / heads;
	s->model.ffn = 4 * hidden;
	s->model.vocab = vocab;
	s->model.mlp = MLP_PLAIN;
	s->model.norm = NORM_LAYERNORM;
	s->model.attention_bias = true;
	s->model.mlp_bias = true;
	s->model.tied_embeddings = true;
	s->model.position_embeddings = seq;
	s->model.max_context = seq;
	s->model.dropout = true;
	s->workload.kind = WL_TRAIN;
	s->workload.precision = DTYPE_BF16;
	s->workload.seq_len = seq;
	s->workload.micro_batch = 1;
	s->workload.flash_attention = false;
	s->workload.recompute = RECOMPUTE_NONE;
	gpu_set(s, "a100-80gb", 80 * GIB);
}

/* Korthikanti's GPT-3 175B (Table 3): 96 layers, hidden 12288, 96 heads, sequence 2048;
 * and the 22B model: 48 layers, 6144, 64 heads. */
static const struct {
	int layers, hidden, heads, seq, vocab, tp;
} korthikanti_models[] = {
    {96, 12288, 96, 2048, 51200, 8},
    {48, 6144, 64, 2048, 51200, 8},
    {24, 2048, 16, 1024, 50257, 4},
};

static void check_exact(double got, double want, const char *what)
{
	if (rel_err(got, want) > 1e-12)
		fail_msg("%s: got %.17g want %.17g", what, got, want);
}

/* The papers' framework and Megatron-Core's (issue: "Korthikanti's formulas hold with
 * framework: megatron"), whose activations are Korthikanti's. */
static void test_korthikanti_per_layer(void **state)
{
	(void)state;
	struct scenario s;
	for (size_t n = 0; n < 2 * sizeof(korthikanti_models) / sizeof(korthikanti_models[0]);
	     n++) {
		size_t i = n / 2;
		int fw = n % 2 ? FW_MEGATRON : FW_DEFAULT;
		double L = korthikanti_models[i].layers, h = korthikanti_models[i].hidden;
		double a = korthikanti_models[i].heads, sq = korthikanti_models[i].seq;
		double t = korthikanti_models[i].tp;
		for (int b = 1; b <= 4; b *= 2) {
			double sbh = sq * b * h;
			const struct plan *p;

			gpt3_scenario(&s, (int)L, (int)h, (int)a, (int)sq,
				      korthikanti_models[i].vocab);
			s.workload.framework = fw;
			s.workload.micro_batch = b;
			s.hardware.count = (int)t;

			/* no parallelism */
			p = compute(&s);
			check_exact(p->mem.activations_per_layer, sbh * (34 + 5 * a * sq / h),
				    "no parallelism");
			/* tensor parallel */
			s.parallel.tp = (int)t;
			p = compute(&s);
			check_exact(p->mem.activations_per_layer,
				    sbh * (10 + 24 / t + 5 * a * sq / (h * t)), "tensor parallel");
			/* tensor + sequence parallel */
			s.parallel.sequence_parallel = true;
			p = compute(&s);
			check_exact(p->mem.activations_per_layer, sbh / t * (34 + 5 * a * sq / h),
				    "tensor + sequence parallel");
			/* tensor parallel + selective recompute */
			s.parallel.sequence_parallel = false;
			s.workload.recompute = RECOMPUTE_SELECTIVE;
			p = compute(&s);
			check_exact(p->mem.activations_per_layer, sbh * (10 + 24 / t),
				    "tp + selective");
			/* tensor + sequence parallel + selective recompute */
			s.parallel.sequence_parallel = true;
			p = compute(&s);
			check_exact(p->mem.activations_per_layer, 34 * sbh / t,
				    "tp + sp + selective");
			/* full recompute: the layer input only (split across tp under SP) */
			s.parallel.sequence_parallel = false;
			s.workload.recompute = RECOMPUTE_FULL;
			p = compute(&s);
			check_exact(p->mem.activations_per_layer, 2 * sbh, "full recompute");
			s.parallel.sequence_parallel = true;
			p = compute(&s);
			check_exact(p->mem.activations_per_layer, 2 * sbh / t,
				    "full recompute + sp");
			(void)L;
		}
	}
}

/* The whole first stage: L layers' worth with 1F1B (p micro-batches of L/p layers), times
 * 1 + (p - 1)/(p v) interleaved, plus the input embedding dropout s b h p / t; with a
 * single stage also the output layer and loss, 4 s b h / t (1 + V / h). */
static void test_korthikanti_pipeline(void **state)
{
	(void)state;
	struct scenario s;
	const double L = 96, h = 12288, a = 96, sq = 2048, V = 51200, t = 8;
	const double sbh = sq * h;
	const struct plan *p;

	gpt3_scenario(&s, (int)L, (int)h, (int)a, (int)sq, (int)V);
	s.parallel.tp = (int)t;
	s.parallel.sequence_parallel = true;
	s.workload.recompute = RECOMPUTE_SELECTIVE;

	/* one stage: Korthikanti eq. in Section 4.3 with p = 1. The paper counts what is
	 * stored (memory.activations); the peak also holds the one layer whose attention
	 * core the backward recomputes (its scores, softmax and dropout: the 5 a s / h term
	 * of one layer), a transient part of overhead (rebuilt_layer) */
	s.hardware.count = 8;
	p = compute(&s);
	check_exact(p->mem.layers_in_flight, L, "layers in flight, p = 1");
	check_exact(p->mem.activations, 34 * sbh / t * L + sbh / t + 4 * sbh / t * (1 + V / h),
		    "single stage");
	check_exact(p->mem.rebuilt_layer, 5 * a * sq / h * sbh / t, "rebuilt scores");
	check_exact(p->mem.overhead,
		    p->mem.cuda_context + p->mem.fragmentation + p->mem.comm_buffers +
			p->mem.rebuilt_layer,
		    "overhead holds the rebuilt layer");
	check_exact(p->mem.total,
		    p->mem.weights + p->mem.gradients + p->mem.optimizer + p->mem.activations +
			p->mem.kv_cache + p->mem.overhead,
		    "total");
	check_exact(p->mem.activations_embed, sbh / t, "embedding dropout mask");
	check_exact(p->mem.activations_head, 4 * sbh / t * (1 + V / h), "output layer");

	/* full recompute stores each layer's input (2 s b h / t with SP) and rebuilds one
	 * whole layer in the backward: s b h / t (34 + 5 a s / h) less the input it kept */
	s.workload.recompute = RECOMPUTE_FULL;
	p = compute(&s);
	check_exact(p->mem.activations, 2 * sbh / t * L + sbh / t + 4 * sbh / t * (1 + V / h),
		    "full recompute");
	check_exact(p->mem.rebuilt_layer, sbh / t * (34 + 5 * a * sq / h) - 2 * sbh / t,
		    "full recompute, rebuilt layer");
	/* without recomputation nothing is rebuilt; with FlashAttention selective
	 * recomputation stores what no recomputation does, so nothing either */
	s.workload.recompute = RECOMPUTE_NONE;
	p = compute(&s);
	check_exact(p->mem.rebuilt_layer, 0, "no recompute");
	s.workload.recompute = RECOMPUTE_SELECTIVE;
	s.workload.flash_attention = true;
	p = compute(&s);
	check_exact(p->mem.rebuilt_layer, 0, "selective with FlashAttention");

	/* 1F1B over p stages, m >= p micro-batches: first stage */
	for (int pp = 2; pp <= 16; pp *= 2) {
		gpt3_scenario(&s, (int)L, (int)h, (int)a, (int)sq, (int)V);
		s.parallel.tp = (int)t;
		s.parallel.sequence_parallel = true;
		s.workload.recompute = RECOMPUTE_SELECTIVE;
		s.parallel.pp = pp;
		s.hardware.count = (int)t * pp;
		s.workload.global_batch = 4 * pp;
		p = compute(&s);
		assert_int_equal(p->micro_batches, 4 * pp);
		check_exact(p->mem.layers_in_flight, L, "1F1B first stage");
		check_exact(p->mem.activations, 34 * sbh / t * L + sbh * pp / t, "1F1B total");

		for (int v = 2; v <= 3; v++) {
			if ((int)L % (pp * v))
				continue;
			s.parallel.virtual_stages = v;
			p = compute(&s);
			check_exact(p->mem.layers_in_flight, L * (1 + (pp - 1.0) / (pp * v)),
				    "interleaved first stage");
			check_exact(p->mem.activations,
				    34 * sbh / t * L * (1 + (pp - 1.0) / (pp * v)) + sbh * pp / t,
				    "interleaved total");
			s.parallel.virtual_stages = 1;
		}
	}

	/* fewer micro-batches than stages: only m are in flight */
	s.parallel.pp = 8;
	s.hardware.count = 64;
	s.workload.global_batch = 2;
	p = compute(&s);
	check_exact(p->mem.layers_in_flight, 2 * L / 8, "m < p");
}

/* The built-in scenario with Llama-2-7B's shape (config.json of meta-llama/Llama-2-7b-hf):
 * 32 layers, h 4096, 32 heads, f 11008, a 32,000-token vocabulary. */
static void llama2_7b(struct scenario *s)
{
	scenario_init(s);
	s->model.layers = 32;
	s->model.hidden = 4096;
	s->model.heads = 32;
	s->model.ffn = 11008;
	s->model.vocab = 32000;
}

/* Modern layers differ from GPT-3's, tensor by tensor: a gated MLP stores gate, up and the
 * down-projection input (3 f); GQA shrinks K and V; no dropout masks; FlashAttention keeps
 * only an fp32 log-sum-exp per head. Llama-2-7B (h 4096, f 11008, 32 heads): per token
 * 2 norms x 2h + QKV input 2h + Q, K, V 6h + o input 2h + MLP input 2h + 6 f + 4 x 32. */
static void test_activations_llama(void **state)
{
	(void)state;
	struct scenario s;
	const struct plan *p;
	double h = 4096, f = 11008, sq = 4096;

	llama2_7b(&s);
	s.workload.seq_len = (int)sq;
	s.workload.flash_attention = true;
	gpu_set(&s, "h100", 80 * GIB);
	p = compute(&s);
	check_exact(p->mem.activations_per_layer, sq * (16 * h + 6 * f + 4 * 32), "llama flash");
	/* without FlashAttention the softmax output (2 a s per token) is stored, no dropout */
	s.workload.flash_attention = false;
	p = compute(&s);
	check_exact(p->mem.activations_per_layer, sq * (16 * h + 6 * f + 2 * 32 * sq),
		    "llama eager");
	/* GQA with 8 K/V heads: K and V shrink by 4 */
	s.workload.flash_attention = true;
	s.model.kv_heads = 8;
	p = compute(&s);
	check_exact(p->mem.activations_per_layer, sq * (13 * h + 6 * f + 4 * 32), "llama gqa");
	/* whole model, one stage: layers + final norm input + head input + fp32 logits */
	check_exact(p->mem.activations,
		    32 * p->mem.activations_per_layer + sq * (4 * h + 4 * 32000.0), "llama total");
}

/* LoRA: a frozen linear layer keeps no input (PyTorch's mm saves its input only for the
 * weight gradient; bitsandbytes' 4-bit matmul never does), so only adapted matrices keep
 * theirs, plus each adapter's rank-r intermediate; a frozen head keeps no input either.
 * Llama-2-7B, r 16 on q, k, v, o, FlashAttention: per token norm inputs 4h, QKV input 2h,
 * Q K V 6h, attention output 2h (saved by FlashAttention), gate and up 2 x 2f, log-sum-exp
 * 4 x 32, adapters 2 x 16 x 4. */
static void test_activations_lora(void **state)
{
	(void)state;
	struct scenario s;
	const struct plan *p;
	double h = 4096, f = 11008, sq = 2048;

	llama2_7b(&s);
	s.workload.kind = WL_FINETUNE;
	s.workload.seq_len = (int)sq;
	s.workload.finetune.method = FT_LORA;
	s.workload.finetune.rank = 16;
	s.workload.finetune.targets = LORA_Q | LORA_K | LORA_V | LORA_O;
	gpu_set(&s, "rtx-4090", 24 * GIB);
	p = compute(&s);
	check_exact(p->mem.activations_per_layer, sq * (14 * h + 4 * f + 128 + 128), "lora qkvo");
	check_exact(p->mem.activations,
		    32 * p->mem.activations_per_layer + sq * (2 * h + 4 * 32000.0), "lora total");
	/* every matrix adapted: the MLP input and down-projection input are kept too */
	s.workload.finetune.targets =
	    LORA_Q | LORA_K | LORA_V | LORA_O | LORA_GATE | LORA_UP | LORA_DOWN;
	p = compute(&s);
	check_exact(p->mem.activations_per_layer, sq * (16 * h + 6 * f + 128 + 2 * 16 * 7),
		    "lora all");
	/* and never more than full fine-tuning */
	double lora = p->mem.activations;
	s.workload.finetune.method = FT_FULL;
	p = compute(&s);
	assert_true(lora <= p->mem.activations + 2.0 * 16 * 7 * 32 * sq);
}

/* MoE: each token's k expert copies are stored on their way in and out, with the experts'
 * intermediates; the router's fp32 probabilities too. Mixtral-8x7B-like. */
static void test_activations_moe(void **state)
{
	(void)state;
	struct scenario s;
	const struct plan *p;
	double h = 4096, f = 14336, sq = 4096;

	scenario_init(&s);
	s.model.layers = 32;
	s.model.hidden = 4096;
	s.model.heads = 32;
	s.model.kv_heads = 8;
	s.model.ffn = 14336;
	s.model.vocab = 32000;
	s.model.moe.experts = 8;
	s.model.moe.active = 2;
	s.model.moe.expert_ffn = 14336;
	s.workload.seq_len = (int)sq;
	gpu_set(&s, "h100", 80 * GIB);
	p = compute(&s);
	/* norm inputs 2 x 2h, attention input 2h, Q K V o (2h + 0.5h + 0.5h + 2h), 4 x 32
	 * log-sum-exp, MLP input 2h, router 4 x 8, dispatch in and out 2 x 2 x 2h, experts
	 * 2 x 3 x 2 f */
	check_exact(p->mem.activations_per_layer,
		    sq * (4 * h + 2 * h + 5 * h + 4 * 32 + 2 * h + 4 * 8 + 8 * h + 12 * f),
		    "mixtral");
	/* top-1 routing stores less than top-2 */
	double top2 = p->mem.activations;
	s.model.moe.active = 1;
	p = compute(&s);
	assert_true(p->mem.activations < top2);
}

/* ---- KV cache (Kwon et al., SOSP'23, Section 3; DeepSeek-V2 Section 2.1) -------------- */

static void opt13b_scenario(struct scenario *s)
{
	scenario_init(s);
	s->model.layers = 40;
	s->model.hidden = 5120;
	s->model.heads = 40;
	s->model.ffn = 20480;
	s->model.vocab = 50272;
	s->model.mlp = MLP_PLAIN;
	s->model.norm = NORM_LAYERNORM;
	s->model.position_embeddings = 2050;
	s->model.max_context = 2048;
	s->workload.kind = WL_ONLINE;
	s->workload.weights = DTYPE_FP16;
	s->workload.kv_cache = DTYPE_FP16;
	s->workload.precision = DTYPE_FP16;
	s->workload.prompt_tokens = 1024;
	s->workload.output_tokens = 1024;
	s->workload.batch = 1;
	gpu_set(s, "a100-40gb", 40 * GIB);
}

static void test_kv_opt13b(void **state)
{
	(void)state;
	struct scenario s;
	const struct plan *p;

	opt13b_scenario(&s);
	p = compute(&s);
	/* 2 x 5120 x 40 x 2 = 819,200 bytes per token; a 2048-token request ~1.6 GB */
	assert_true(p->mem.kv_bytes_per_token == 819200);
	assert_true(p->mem.kv_cache == 819200.0 * 2048);
	assert_true(p->mem.kv_tokens == 2048);
	assert_true(isnan(p->mem.grad_bytes_per_param));
	assert_true(p->mem.gradients == 0 && p->mem.optimizer == 0);
	/* the paper: on an A100-40GB about 65% of memory holds the 13B weights */
	assert_true(p->mem.weights / p->mem.capacity > 0.55 &&
		    p->mem.weights / p->mem.capacity < 0.70);
	/* tensor parallelism splits the heads */
	s.parallel.tp = 2;
	s.hardware.count = 2;
	p = compute(&s);
	assert_true(p->mem.kv_bytes_per_token == 409600);
}

static void test_kv_gqa_mla(void **state)
{
	(void)state;
	struct scenario s;
	const struct plan *p;

	/* Llama-2-70B: 80 layers x 8 K/V heads x 128 */
	scenario_init(&s);
	s.model.layers = 80;
	s.model.hidden = 8192;
	s.model.heads = 64;
	s.model.kv_heads = 8;
	s.model.ffn = 28672;
	s.model.vocab = 32000;
	s.workload.kind = WL_ONLINE;
	gpu_set(&s, "h100", 80 * GIB);
	s.hardware.count = 16;
	p = compute(&s);
	assert_true(p->mem.kv_bytes_per_token == 2.0 * 80 * 8 * 128 * 2);
	s.parallel.tp = 2;
	p = compute(&s);
	assert_true(p->mem.kv_bytes_per_token == 2.0 * 80 * 4 * 128 * 2);
	/* tp 16 > 8 K/V heads: each rank keeps one head */
	s.parallel.tp = 16;
	p = compute(&s);
	assert_true(p->mem.kv_bytes_per_token == 2.0 * 80 * 1 * 128 * 2);
	/* pp 4: 20 layers per GPU */
	s.parallel.tp = 1;
	s.parallel.pp = 4;
	p = compute(&s);
	assert_true(p->mem.kv_bytes_per_token == 2.0 * 20 * 8 * 128 * 2);
	/* fp8 cache: half */
	s.parallel.pp = 1;
	s.workload.kv_cache = DTYPE_FP8;
	p = compute(&s);
	assert_true(p->mem.kv_bytes_per_token == 2.0 * 80 * 8 * 128);

	/* MLA (DeepSeek-V2: 60 layers, kv_lora_rank 512, rope 64): 576 elements per layer,
	 * the same latent on every tp rank */
	scenario_init(&s);
	s.model.layers = 60;
	s.model.hidden = 5120;
	s.model.heads = 128;
	s.model.head_dim = 128;
	s.model.ffn = 12288;
	s.model.vocab = 102400;
	s.model.mla.q_rank = 1536;
	s.model.mla.kv_rank = 512;
	s.model.mla.rope_dim = 64;
	s.model.mla.nope_dim = 128;
	s.model.mla.v_dim = 128;
	s.model.moe.experts = 160;
	s.model.moe.active = 6;
	s.model.moe.shared = 2;
	s.model.moe.expert_ffn = 1536;
	s.model.moe.dense_layers = 1;
	s.workload.kind = WL_ONLINE;
	gpu_set(&s, "h100", 80 * GIB);
	p = compute(&s);
	assert_true(model_kv_elems_per_token_layer(&p->model) == 576);
	assert_true(p->mem.kv_bytes_per_token == 576.0 * 60 * 2);
	s.parallel.tp = 8;
	s.hardware.count = 8;
	p = compute(&s);
	assert_true(p->mem.kv_bytes_per_token == 576.0 * 60 * 2);
}

/* ---- Quantized inference weights ------------------------------------------------------ */

static void test_quantized_weights(void **state)
{
	(void)state;
	struct scenario s;
	const struct plan *p;
	struct model_params c;
	double norms;

	scenario_init(&s);
	s.model.params = 8e9;
	s.workload.kind = WL_ONLINE;
	gpu_set(&s, "h100", 80 * GIB);
	s.workload.weights = DTYPE_BF16;
	p = compute(&s);
	assert_true(rel_err(p->mem.weights, 16e9) < 1e-9);
	/* the norms of the assumed shape (its layers' and the final one) stay 16-bit
	 * (plan_memory.c, norm_b) */
	model_count_params(&p->model, &c);
	norms = p->model.layers * c.norms + c.final_norm;
	assert_true(norms > 0 && norms < 1e-4 * 8e9);
	/* fp8 throughout (embedding_weights same): a CUDA-graph engine's online fp8 keeps
	 * the embedding and head bf16 under auto (test_framework_conflicts.c) */
	s.workload.weights = DTYPE_FP8;
	s.workload.embedding_weights = EMB_SAME;
	p = compute(&s);
	assert_true(rel_err(p->mem.weights, (8e9 - norms) + 2 * norms) < 1e-9);
	s.workload.embedding_weights = EMB_AUTO;
	/* int4: 4 bits + an fp16 scale and a 4-bit zero point per group of 128 = 4.156 bits */
	s.workload.weights = DTYPE_INT4;
	p = compute(&s);
	assert_true(rel_err(p->mem.weights, (8e9 - norms) * 4.15625 / 8 + 2 * norms) < 1e-9);
	assert_true(p->mem.weight_bytes_per_param > 0.5);
	/* llama.cpp's Q4_0 (4.5 bits) Llama 3 8B file is 4.58 GB: int4 with group-128 scales
	 * is smaller, 4-bit without scales smaller still */
	assert_true(p->mem.weights > 8e9 * 0.5 && p->mem.weights < 4.58e9 * 1.05);
}

/* llama.cpp GGUF file sizes (XiongjieDai/GPU-Benchmarks-on-LLM-Inference README; its "GB"
 * are GiB): F16 files hold the 16-bit weights, so they match the bf16 weights within 1%;
 * Q4_0 files (4.5 bits a weight) are larger than int4 with group-128 scales (4.156 bits),
 * which is larger than 4.0 bits. */
static void test_gguf_sizes(void **state)
{
	(void)state;
	const struct {
		int layers, hidden, heads, kv_heads, ffn, vocab;
		double f16_gib, q4_gib; /* q4: Q4_0 (Llama 2) or Q4_K_M (Llama 3) */
	} rows[] = {
	    {32, 4096, 32, 32, 11008, 32000, 12.63, 3.82},   /* Llama 2 7B */
	    {80, 8192, 64, 8, 28672, 32000, 128.3, 36.37},   /* Llama 2 70B */
	    {32, 4096, 32, 8, 14336, 128256, 14.96, 4.58},   /* Llama 3 8B */
	    {80, 8192, 64, 8, 28672, 128256, 131.42, 39.59}, /* Llama 3 70B */
	};
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct scenario s;
		const struct plan *p;
		scenario_init(&s);
		s.model.layers = rows[i].layers;
		s.model.hidden = rows[i].hidden;
		s.model.heads = rows[i].heads;
		s.model.kv_heads = rows[i].kv_heads;
		s.model.ffn = rows[i].ffn;
		s.model.vocab = rows[i].vocab;
		s.workload.kind = WL_OFFLINE;
		s.workload.weights = DTYPE_BF16;
		gpu_set(&s, "big", 1e12);
		p = compute(&s);
		if (rel_err(p->mem.weights, rows[i].f16_gib * GIB) > 0.01)
			fail_msg("row %zu: bf16 %.2f GiB vs F16 file %.2f GiB", i,
				 p->mem.weights / GIB, rows[i].f16_gib);
		s.workload.weights = DTYPE_INT4;
		p = compute(&s);
		assert_true(p->mem.weights > p->params * 0.5);
		assert_true(p->mem.weights < rows[i].q4_gib * GIB);
	}
}

/* ---- Warnings ------------------------------------------------------------------------- */

static void test_warnings(void **state)
{
	(void)state;
	struct scenario s;
	const struct plan *p;
	char buf[160];

	zero_scenario(&s, 70e9, 1, 0);
	p = compute(&s);
	assert_true(has_warning(p, PW_SHAPE_ASSUMED));
	assert_true(has_warning(p, PW_DOES_NOT_FIT));
	assert_false(p->mem.fits);
	for (int i = 0; i < p->nwarnings; i++) {
		plan_warning_format(&p->warnings[i], buf, sizeof(buf));
		assert_true(strlen(buf) > 10);
		for (char *c = buf; *c; c++)
			assert_false(*c >= 'A' && *c <= 'Z' && c == buf);
	}
	/* a layout that needs more GPUs than there are */
	s.parallel.tp = 8;
	s.hardware.count = 4;
	p = compute(&s);
	assert_true(has_warning(p, PW_LAYOUT_INVALID));
	/* sequence longer than the context */
	gpt3_scenario(&s, 24, 2048, 16, 1024, 50257);
	s.workload.seq_len = 4096;
	p = compute(&s);
	assert_true(has_warning(p, PW_SEQ_OVER_CONTEXT));
	assert_false(has_warning(p, PW_SHAPE_ASSUMED));
	/* layers not divisible by pp */
	s.workload.seq_len = 1024;
	s.parallel.pp = 5;
	s.hardware.count = 5;
	p = compute(&s);
	assert_true(has_warning(p, PW_LAYERS_NOT_DIVISIBLE));
	/* a dp given that leaves GPUs out: they are idle, and paid for */
	s.parallel.pp = 1;
	s.parallel.dp = 3;
	s.hardware.count = 8;
	p = compute(&s);
	assert_true(has_warning(p, PW_IDLE_GPUS));
	assert_false(has_warning(p, PW_LAYOUT_INVALID));
	s.parallel.dp = 8;
	p = compute(&s);
	assert_false(has_warning(p, PW_IDLE_GPUS));
	s.parallel.dp = 0;
	/* every code formats to lowercase text */
	for (int c = 0; c < PW_COUNT; c++) {
		struct plan_warning w = {(enum plan_warning_code)c, 1e9, 2e9, 0};
		plan_warning_format(&w, buf, sizeof(buf));
		assert_true(buf[0] >= 'a' && buf[0] <= 'z');
		assert_null(strstr(buf, "unknown warning"));
	}
	assert_string_equal(bottleneck_name(BN_CAPACITY), "capacity");
	assert_string_equal(bottleneck_name(BN_HBM), "hbm_bandwidth");
	assert_string_equal(bottleneck_name(BN_DATA_IO), "data_io");
}

/* Training figures that do not apply are NAN; inference ones likewise. */
static void test_nan_figures(void **state)
{
	(void)state;
	struct scenario s;
	const struct plan *p;
	zero_scenario(&s, 7e9, 1, 0);
	p = compute(&s);
	assert_true(isnan(p->max_batch));
	assert_true(isnan(p->mem.kv_bytes_per_token));
	assert_true(p->mem.kv_cache == 0);
	assert_true(isfinite(p->mem.total));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_zero_table1),
	    cmocka_unit_test(test_zero_figure1),
	    cmocka_unit_test(test_zero_gpt2_15b),
	    cmocka_unit_test(test_optimizer_bytes),
	    cmocka_unit_test(test_korthikanti_per_layer),
	    cmocka_unit_test(test_korthikanti_pipeline),
	    cmocka_unit_test(test_activations_llama),
	    cmocka_unit_test(test_activations_lora),
	    cmocka_unit_test(test_activations_moe),
	    cmocka_unit_test(test_kv_opt13b),
	    cmocka_unit_test(test_kv_gqa_mla),
	    cmocka_unit_test(test_quantized_weights),
	    cmocka_unit_test(test_gguf_sizes),
	    cmocka_unit_test(test_warnings),
	    cmocka_unit_test(test_nan_figures),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
