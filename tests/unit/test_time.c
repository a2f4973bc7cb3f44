/* test_time.c - the time model against published runs, each row in a data file of
 * tests/validation/ with its source (paper and table, benchmark README), read here and by
 * `gpuplan validate`. One set of constants in
 * src/plan_time.c serves every row; nothing here is tuned per row. Each test prints its
 * per-row errors (see build/test.log). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "explain.h"
#include "time_rows.h"
/* after cmocka.h */
#include "shipped_catalog.h"
#include "measured_rows.h"

static double rel_err(double got, double want)
{
	return (got - want) / want;
}

/* ---- Megatron-LM weak scaling: Narayanan et al. (SC'21), Table 1 ----
 * The rows, their sources and scenarios: tests/validation/megatron-table1.yaml (one copy,
 * shared with `gpuplan validate`). TFLOP/s per GPU counts recomputation with the paper's
 * own formula F = 96 B s l h^2 (1 + s/(6h) + V/(16 l h)) per iteration, applied to
 * gpuplan's step time; written here again from the scenario, so that validate's
 * derivation (derived.megatron_tflops) is checked against it. */
#define MEGATRON "tests/validation/megatron-table1.yaml"

static double megatron_flops(const struct scenario *s)
{
	double B = s->workload.global_batch, sl = s->workload.seq_len, l = s->model.layers;
	double h = s->model.hidden, V = s->model.vocab;
	return 96 * B * sl * l * h * h * (1 + sl / (6 * h) + V / (16 * l * h));
}

static void test_megatron_table1(void **state)
{
	struct validation v;
	double sum = 0, worst = 0;
	(void)state;
	measured_load(&v, MEGATRON);
	printf("Megatron-LM Table 1 (A100): TFLOP/s per GPU, hardware FLOPs\n");
	for (int i = 0; i < v.nrows; i++) {
		const struct validate_row *r = &v.rows[i];
		struct scenario s;
		struct plan p;
		double got, e;
		measured_plan(r, &s, &p);
		got = megatron_flops(&s) / (p.step_s * s.hardware.count) / 1e12;
		measured_same(r, &s, &p, got);
		/* gpuplan's own hardware FLOPs agree with the paper's formula */
		assert_true(fabs(rel_err(p.hw_flops_per_token * s.workload.global_batch *
					     s.workload.seq_len,
					 megatron_flops(&s))) < 0.03);
		e = rel_err(got, r->measured);
		printf("  %-16s tp%d pp%-2d  paper %5.1f  gpuplan %6.1f  %+6.1f%%\n", r->id,
		       s.parallel.tp, s.parallel.pp, r->measured, got, 100 * e);
		/* every row is held to the test's 15%, not to a looser figure in the file */
		assert_true(r->tolerance == 0.15);
		sum += fabs(e);
		if (fabs(e) > worst)
			worst = fabs(e);
	}
	printf("  mean |error| %.1f%%, worst %.1f%%\n", 100 * sum / v.nrows, 100 * worst);
	assert_int_equal(v.nrows, 10);
	assert_true(worst <= 0.15);
	assert_true(sum / v.nrows <= 0.07);
	assert_true(v.groups[0].mape_bound <= 0.07);
	validation_release(&v);
}

/* ---- MosaicML llm-foundry on H100 (scripts/train/benchmarking/README.md) ----
 * MPT: 4h GELU MLP, MHA, LayerNorm without biases, tied embeddings, vocab 50,432 (the
 * GPT-NeoX tokenizer padded), FSDP FULL_SHARD (= ZeRO-3), bf16, FlashAttention, activation
 * checkpointing = full recomputation; parameter counts from the table. The rows:
 * tests/validation/mosaicml-h100.yaml. */
#define MOSAIC "tests/validation/mosaicml-h100.yaml"

/* A global batch that does not divide over micro_batch x data replicas: the step runs
 * ceil(B / (b x dp)) micro-batches for the same B sequences. So n GPUs train, per GPU, at
 * most B / (n ceil(B / n)) of what 32 do with every slot filled (more GPUs only add
 * all-reduce time), and no count below 64 takes a shorter step than 64.
 * (Megatron's 1.7B row, batch 512, on 32 to 64 GPUs.) */
static void test_uneven_global_batch(void **state)
{
	struct scenario s;
	struct plan p;
	double ref_tok_gpu, even_step;
	struct validation v;
	(void)state;
	measured_load(&v, MEGATRON);
	measured_plan(measured_row(&v, "megatron-1.7b"), &s, &p);
	validation_release(&v);
	s.hardware.count = 64;
	plan_compute(&s, &p);
	assert_int_equal(p.micro_batches, 8);
	even_step = p.step_s;
	s.hardware.count = 32;
	plan_compute(&s, &p);
	assert_int_equal(p.micro_batches, 16);
	ref_tok_gpu = p.tokens_per_s_per_gpu;
	for (int n = 32; n <= 64; n++) {
		s.hardware.count = n;
		plan_compute(&s, &p);
		assert_int_equal(p.dp, n);
		assert_int_equal(p.micro_batches, (512 + n - 1) / n);
		assert_true(p.step_s >= even_step * (1 - 1e-9));
		assert_true(p.tokens_per_s_per_gpu <=
			    ref_tok_gpu * 512 / (n * p.micro_batches) * (1 + 1e-9));
		/* the step trains the global batch's tokens, not more */
		assert_true(fabs(p.tokens_per_s * p.step_s - 512.0 * 2048) < 1e-3 * 512 * 2048);
	}
	/* 63 GPUs: 9 micro-batches where 64 need 8, for the same 512 sequences */
	s.hardware.count = 63;
	plan_compute(&s, &p);
	assert_int_equal(p.micro_batches, 9);
	assert_true(p.step_s > 1.1 * even_step);
}

static void test_mosaicml_h100(void **state)
{
	struct validation v;
	double sum = 0, worst = 0;
	(void)state;
	measured_load(&v, MOSAIC);
	printf("MosaicML llm-foundry (H100, FSDP): tokens/s per GPU\n");
	for (int i = 0; i < v.nrows; i++) {
		const struct validate_row *r = &v.rows[i];
		struct scenario s;
		struct plan p;
		double e;
		measured_plan(r, &s, &p);
		measured_same(r, &s, &p, p.tokens_per_s_per_gpu);
		e = rel_err(p.tokens_per_s_per_gpu, r->measured);
		printf("  %-11s  measured %6.0f  gpuplan %7.0f  %+6.1f%%  (MFU %.1f%%)\n", r->id,
		       r->measured, p.tokens_per_s_per_gpu, 100 * e, 100 * p.mfu);
		assert_true(r->tolerance == 0.15);
		sum += fabs(e);
		if (fabs(e) > worst)
			worst = fabs(e);
	}
	printf("  mean |error| %.1f%%, worst %.1f%%\n", 100 * sum / v.nrows, 100 * worst);
	assert_int_equal(v.nrows, 7);
	assert_true(worst <= 0.15);
	assert_true(sum / v.nrows <= 0.07);
	assert_true(v.groups[0].mape_bound <= 0.07);
	validation_release(&v);
}

/* ---- Megatron-LM's end-to-end estimate: time ~ 8 T P / (n X) ----
 * GPT-3 175B, 300B tokens, 1024 A100 at X = 140 TFLOP/s: about 34 days; 1T parameters,
 * 450B tokens, 3072 A100 at 163 TFLOP/s: about 84 days. X counts hardware FLOPs (8N with
 * full recomputation); efficiency.mfu is in model FLOPs (6N), so X given means
 * mfu = X (6/8) / peak. The model is given by its size, so FLOPs are the 6N convention. */
static void estimate_days(double params, double tokens, int gpus, double x, double days)
{
	struct scenario s;
	struct plan p;
	double got;

	scenario_init(&s);
	s.model.params = params;
	s.workload.tokens = tokens;
	s.workload.seq_len = 2048;
	s.workload.recompute = RECOMPUTE_FULL;
	gpu_a100_80gb(&s.hardware.gpu);
	s.hardware.count = gpus;
	s.efficiency.mfu = x * 6 / 8 / 312e12;
	plan_compute(&s, &p);
	got = p.total_s / 86400;
	printf("  %.0fB params, %.0fB tokens, %d GPUs, X %.0fT: paper %.0f d, gpuplan %.1f d "
	       "(%+.1f%%); 8TP/(nX) = %.1f d\n",
	       params / 1e9, tokens / 1e9, gpus, x / 1e12, days, got, 100 * rel_err(got, days),
	       8 * tokens * params / (gpus * x) / 86400);
	assert_true(fabs(rel_err(got, days)) <= 0.05);
	/* the formula path itself */
	assert_true(fabs(rel_err(8 * tokens * params / (gpus * x) / 86400, days)) <= 0.05);
	/* hardware FLOPs per token are 8N in this case */
	assert_true(fabs(rel_err(p.hw_flops_per_token, 8 * p.params)) < 0.02);
}

static void test_megatron_days(void **state)
{
	(void)state;
	printf("Megatron-LM end-to-end estimates\n");
	estimate_days(175e9, 300e9, 1024, 140e12, 34);
	estimate_days(1e12, 450e9, 3072, 163e12, 84);
}

/* ---- llama.cpp batch-1 decode (XiongjieDai/GPU-Benchmarks-on-LLM-Inference) ----
 * tg 512: tokens/s generating 512 tokens at batch 1 from an empty prompt. Q4_K_M averages
 * ~4.85 bits per weight (some tensors, e.g. the output layer, in Q6_K); gpuplan has no
 * Q4_K_M format and uses its int4 path instead: 4-bit values with an fp16 scale per group
 * of 128 (the memory model's 4.125 bits), so for Q4 rows it reads ~15% fewer bytes than
 * llama.cpp does. Two GPUs split the layers (pipeline), so pp = 2. The rows:
 * tests/validation/decode-llamacpp.yaml. */
#define LLAMACPP "tests/validation/decode-llamacpp.yaml"

/* One sequence (batch 1) takes TTFT + TPOT x (output - 1) end to end (TPOT is the time
 * between output tokens after the first, as serving benchmarks define it): the
 * prefill gives the first token, so one output token costs the prefill alone. */
static void test_end_to_end_latency(void **state)
{
	struct scenario s;
	struct plan p;
	(void)state;
	scenario_init(&s);
	model_llama3(&s.model, false);
	s.workload.kind = WL_ONLINE;
	s.workload.weights = DTYPE_BF16;
	s.workload.batch = 1;
	s.workload.prompt_tokens = 512;
	gpu_rtx4090(&s.hardware.gpu);
	for (int out = 1; out <= 256; out *= 4) {
		s.workload.output_tokens = out;
		plan_compute(&s, &p);
		assert_true(rel_err(out / p.tokens_per_s, p.ttft_s + (out - 1) * p.tpot_s) < 1e-9);
	}
}

static void test_llamacpp_decode(void **state)
{
	struct validation v;
	double worst = 0;
	(void)state;
	measured_load(&v, LLAMACPP);
	printf("llama.cpp tg 512 (batch-1 decode), tokens/s\n");
	for (int i = 0; i < v.nrows; i++) {
		const struct validate_row *r = &v.rows[i];
		struct scenario s;
		struct plan p;
		double got, e;
		measured_plan(r, &s, &p);
		got = 1 / p.tpot_s;
		measured_same(r, &s, &p, got);
		e = rel_err(got, r->measured);
		printf("  %-22s  measured %6.2f  gpuplan %6.2f  %+6.1f%%\n", r->id, r->measured,
		       got, 100 * e);
		assert_true(r->tolerance == 0.20);
		if (fabs(e) > worst)
			worst = fabs(e);
	}
	printf("  worst |error| %.1f%%\n", 100 * worst);
	assert_int_equal(v.nrows, 6);
	assert_true(worst <= 0.20);
	validation_release(&v);
}

/* ---- TensorRT-LLM, Llama 3.1 8B FP8 on one H100 SXM (perf-overview.md) ----
 * trtllm-bench throughput, in-flight batching at maximum load, total output tokens/s.
 * The FP8 checkpoint quantises the KV cache to FP8 too; the batch is the most sequences
 * whose KV cache fits (batch: auto). All eight columns are in
 * tests/validation/throughput-trtllm.yaml; the five the issue names are held to 25%, the
 * others pinned at their honest error (to VALIDATE_PIN_SLACK). The rows leave workload.engine
 * on auto, which plans an H100 with the CUDA-graph engine (TensorRT-LLM is one); the main
 * constants were calibrated with these rows under llama.cpp's kernels, and that fit is
 * held too: the five columns within 25% under workload.engine llama.cpp. */
#define TRTLLM "tests/validation/throughput-trtllm.yaml"

static void test_trtllm_h100(void **state)
{
	struct validation v;
	double worst = 0, worst_cpp = 0;
	int held = 0;
	(void)state;
	measured_load(&v, TRTLLM);
	printf("TensorRT-LLM Llama 3.1 8B FP8, 1 x H100: output tokens/s\n");
	for (int i = 0; i < v.nrows; i++) {
		const struct validate_row *r = &v.rows[i];
		struct scenario s;
		struct plan p;
		double e;
		measured_plan(r, &s, &p);
		measured_same(r, &s, &p, p.tokens_per_s);
		e = rel_err(p.tokens_per_s, r->measured);
		printf("  %-22s  measured %6.0f  gpuplan %6.0f  %+6.1f%%  batch %.0f%s\n", r->id,
		       r->measured, p.tokens_per_s, 100 * e, p.max_batch,
		       isnan(r->tolerance) ? "  (not held: pinned)" : "");
		assert_int_equal(p.engine, ENGINE_CUDA_GRAPHS);
		assert_int_equal(p.precision, DTYPE_FP8);
		if (isnan(r->tolerance)) {
			assert_false(isnan(r->pinned));
			assert_true(fabs(e - r->pinned) <= VALIDATE_PIN_SLACK);
			continue;
		}
		assert_true(r->tolerance == 0.25);
		held++;
		if (fabs(e) > worst)
			worst = fabs(e);
		/* the calibration's own path */
		s.workload.engine = ENGINE_LLAMACPP;
		plan_compute(&s, &p);
		e = rel_err(p.tokens_per_s, r->measured);
		printf("  %-22s  under llama.cpp's kernels %6.0f  %+6.1f%%\n", "", p.tokens_per_s,
		       100 * e);
		if (fabs(e) > worst_cpp)
			worst_cpp = fabs(e);
	}
	printf("  worst held |error| %.1f%%, under llama.cpp's kernels %.1f%%\n", 100 * worst,
	       100 * worst_cpp);
	assert_true(worst_cpp <= 0.25);
	assert_int_equal(v.nrows, 8);
	assert_int_equal(held, 5);
	assert_true(worst <= 0.25);
	validation_release(&v);
}

/* ---- each part answers to its knob (physics, not calibration) ---- */
static void base_train(struct scenario *s)
{
	scenario_init(s);
	model_llama3(&s->model, true);
	s->workload.seq_len = 4096;
	s->workload.global_batch = 1024;
	s->workload.tokens = 1e12;
	s->workload.recompute = RECOMPUTE_SELECTIVE;
	gpu_h100_sxm(&s->hardware.gpu);
	s->hardware.count = 256;
	s->parallel.tp = 8;
	s->parallel.pp = 4;
	s->parallel.zero = 1;
}

/* ---- torchtitan's loss_parallel: the unfused fp32 ops' bytes (src/plan_train.c,
 * plan_loss_traffic: 72 + 2 e a local logit under framework fsdp at tp > 1, from
 * torch/distributed/tensor/parallel/loss.py) charged at HBM bandwidth in the step's
 * memory-bound phase; at tp 1 the framework's fused or eager cross-entropy stays ---- */
static void loss_base(struct scenario *s, int tp)
{
	base_train(s);
	s->workload.framework = FW_FSDP;
	s->workload.compile = COMPILE_ON;
	s->workload.global_batch = 64;
	s->parallel.tp = tp;
	s->parallel.pp = 1;
	s->parallel.zero = 0;
	s->hardware.count = tp; /* dp 1: no gradient reduction to overlap */
	s->efficiency.hbm = 0.8;
}

static void loss_step_delta(int tp, double bytes)
{
	struct scenario s;
	struct plan a, b;
	double V, T, want;

	loss_base(&s, tp);
	plan_compute(&s, &a);
	s.workload.loss = LOSS_PAPER; /* 12 bytes a logit, the reference */
	plan_compute(&s, &b);
	assert_int_equal(a.dp, 1);
	V = s.model.vocab / (double)tp;
	T = (double)s.workload.global_batch * s.workload.seq_len;
	want = T * V * (bytes - 12) / (s.hardware.gpu.hbm_bytes_per_s * 0.8);
	printf("  loss_parallel tp %d: step %.4f s vs %.4f s, +%.4f s (formula %.4f s)\n", tp,
	       a.step_s, b.step_s, a.step_s - b.step_s, want);
	assert_true(fabs((a.parts.memory_bound_s - b.parts.memory_bound_s) - want) <= 1e-9 * want);
	assert_true(fabs((a.step_s - b.step_s) - want) <= 1e-9 * want);
}

static void test_loss_parallel_time(void **state)
{
	struct scenario s;
	struct workload *w = &s.workload;
	(void)state;

	static char buf[32768];
	struct plan p;

	loss_step_delta(8, 72 + 2 * 2);
	loss_step_delta(1, 20 + 2 * 2); /* tp 1: compiled cross-entropy, unchanged */
	/* explain names the ops and their seconds under loss_parallel only */
	loss_base(&s, 8);
	plan_compute(&s, &p);
	assert_int_equal(explain_key(&s, &p, "time.step_s", buf, sizeof(buf), NULL), 0);
	assert_non_null(strstr(buf, "loss_parallel's unfused fp32 ops"));
	assert_non_null(strstr(buf, "loss_parallel's loss:"));
	loss_base(&s, 1);
	plan_compute(&s, &p);
	assert_int_equal(explain_key(&s, &p, "time.step_s", buf, sizeof(buf), NULL), 0);
	assert_null(strstr(buf, "loss_parallel"));
	/* the same loss under transformers (no loss_parallel) at tp 8: no change */
	scenario_init(&s);
	w->framework = FW_FSDP;
	w->compile = COMPILE_ON;
	assert_true(plan_loss_traffic(w, 8, 2) == 76);
	assert_true(plan_loss_traffic(w, 1, 2) == 24);
	w->framework = FW_HF;
	assert_true(plan_loss_traffic(w, 8, 2) == plan_loss_traffic(w, 1, 2));
}

static void test_parts_respond(void **state)
{
	struct scenario s;
	struct plan a, b;
	(void)state;

	/* interleaving shrinks the bubble (p-1)/(v m) */
	base_train(&s);
	plan_compute(&s, &a);
	assert_true(a.parts.bubble_s > 0);
	s.parallel.virtual_stages = 4;
	plan_compute(&s, &b);
	assert_true(fabs(b.parts.bubble_s / b.step_s - a.parts.bubble_s / a.step_s / 4) <
		    0.02 * a.parts.bubble_s / a.step_s + 1e-3);
	assert_true(b.parts.pp_comm_s > a.parts.pp_comm_s);

	/* full recomputation: 8N hardware FLOPs, slower steps, lower MFU, HFU above MFU */
	base_train(&s);
	plan_compute(&s, &a);
	s.workload.recompute = RECOMPUTE_FULL;
	plan_compute(&s, &b);
	assert_true(b.step_s > a.step_s);
	assert_true(b.hfu > b.mfu);
	assert_true(b.hw_flops_per_token > 7.5 * b.active_params);

	/* FlashAttention beats materialised scores at long sequences */
	base_train(&s);
	s.workload.seq_len = 16384;
	plan_compute(&s, &a);
	s.workload.flash_attention = false;
	plan_compute(&s, &b);
	assert_true(b.parts.attention_s > 1.5 * a.parts.attention_s);

	/* sequence parallelism shards the elementwise work across tp */
	base_train(&s);
	plan_compute(&s, &a);
	s.parallel.sequence_parallel = true;
	plan_compute(&s, &b);
	assert_true(b.parts.memory_bound_s < a.parts.memory_bound_s);

	/* tensor parallelism across nodes goes over the slower network */
	base_train(&s);
	s.parallel.tp = 16;
	s.parallel.pp = 2;
	plan_compute(&s, &a);
	s.parallel.tp = 8;
	s.parallel.pp = 4;
	plan_compute(&s, &b);
	assert_true(a.parts.tp_comm_s > 2 * b.parts.tp_comm_s);
	{
		bool warned = false;
		for (int i = 0; i < a.nwarnings; i++)
			warned |= a.warnings[i].code == PW_TP_ACROSS_NODES;
		assert_true(warned);
	}

	/* ZeRO-3 gathers cost something, and a slow network exposes them */
	base_train(&s);
	s.parallel.tp = 1;
	s.parallel.pp = 1;
	s.parallel.zero = 3;
	s.workload.recompute = RECOMPUTE_FULL;
	plan_compute(&s, &a);
	s.hardware.gpu.network_bytes_per_s = 1e9;
	plan_compute(&s, &b);
	assert_true(b.parts.zero3_s > a.parts.zero3_s);
	assert_true(b.binding == BN_INTERCONNECT);

	/* the data-parallel reduction hides behind the backward until the network is slow */
	base_train(&s);
	s.model.layers = 8;
	plan_compute(&s, &a);
	s.hardware.gpu.network_bytes_per_s = 0.5e9;
	plan_compute(&s, &b);
	assert_true(b.parts.dp_comm_s > a.parts.dp_comm_s);

	/* optimizer offload: no GPU optimizer step, PCIe traffic instead */
	base_train(&s);
	plan_compute(&s, &a);
	s.parallel.offload = OFFLOAD_OPTIMIZER;
	plan_compute(&s, &b);
	assert_true(a.parts.optimizer_s > 0 && b.parts.optimizer_s == 0);
	assert_true(b.parts.offload_s > 0);

	/* MoE: active parameters set the FLOPs; expert parallelism across nodes costs
	 * all-to-all time */
	base_train(&s);
	s.model.moe.experts = 8;
	s.model.moe.active = 2;
	s.model.moe.expert_ffn = 14336;
	s.model.layers = 32;
	s.model.hidden = 4096;
	s.model.heads = 32;
	s.parallel.tp = 1;
	s.parallel.pp = 1;
	s.parallel.ep = 8;
	plan_compute(&s, &a);
	assert_true(a.active_params < 0.5 * a.params);
	assert_true(fabs(a.flops_per_token - 6 * a.active_params - a.attention_flops_per_token) <
		    1e-6 * a.flops_per_token);
	assert_true(a.parts.ep_comm_s > 0);
	s.parallel.ep = 1;
	plan_compute(&s, &b);
	assert_true(b.parts.ep_comm_s == 0);

	/* LoRA: no weight gradients, so 4N and a faster step than full fine-tuning */
	base_train(&s);
	s.workload.kind = WL_FINETUNE;
	s.workload.finetune.method = FT_FULL;
	plan_compute(&s, &a);
	s.workload.finetune.method = FT_LORA;
	plan_compute(&s, &b);
	assert_true(b.step_s < a.step_s);
	assert_true(b.flops_per_token < a.flops_per_token);

	/* inference: a bigger batch decodes more tokens per second, each a little later; the
	 * memory-bound share falls as the batch grows */
	scenario_init(&s);
	model_llama3(&s.model, false);
	s.workload.kind = WL_ONLINE;
	s.workload.batch = 1;
	gpu_h100_sxm(&s.hardware.gpu);
	plan_compute(&s, &a);
	s.workload.batch = 64;
	plan_compute(&s, &b);
	assert_true(b.tokens_per_s > 20 * a.tokens_per_s);
	assert_true(b.tpot_s > a.tpot_s);
	assert_true(a.binding == BN_HBM);
	assert_true(b.shares[BN_COMPUTE] > a.shares[BN_COMPUTE]);

	/* tensor parallelism splits the weight read: tpot drops, all-reduces appear; the
	 * per-layer launch and sampling costs do not shrink, so 4 GPUs give less than 4x */
	s.workload.batch = 1;
	s.hardware.count = 4;
	s.parallel.tp = 4;
	plan_compute(&s, &b);
	assert_true(b.tpot_s < 0.6 * a.tpot_s);
	assert_true(b.tpot_s > a.tpot_s / 4);
	assert_true(b.parts.tp_comm_s > 0);

	/* MoE decode: batch 1 reads the active experts, a large batch nearly all of them
	 * (Mixtral 8x7B: 12.9B active of 46.7B) */
	{
		struct scenario m;
		struct plan one, many;
		scenario_init(&m);
		model_llama3(&m.model, false);
		m.model.vocab = 32000;
		m.model.moe.experts = 8;
		m.model.moe.active = 2;
		m.model.moe.expert_ffn = 14336;
		m.workload.kind = WL_ONLINE;
		m.workload.batch = 1;
		gpu_h100_sxm(&m.hardware.gpu);
		m.hardware.gpu.memory_bytes = 141e9; /* room for 93 GB of bf16 weights */
		plan_compute(&m, &one);
		m.workload.batch = 64;
		plan_compute(&m, &many);
		assert_true(one.tpot_s < 0.5 * one.params * 2 / 3.35e12);
		assert_true(one.tpot_s > one.active_params * 2 / 3.35e12);
		assert_true(many.tpot_s > one.params * 2 / 3.35e12);
	}

	/* efficiency.hbm overrides the modelled bandwidth efficiency */
	s.hardware.count = 1;
	s.parallel.tp = 1;
	s.efficiency.hbm = 0.4;
	plan_compute(&s, &b);
	assert_true(b.tpot_s > 1.5 * a.tpot_s);
	assert_true(b.hbm_efficiency == 0.4);
}

/* ---- any valid-looking scenario plans to finite figures, and explains itself ---- */
static double r01(unsigned *seed)
{
	*seed = *seed * 1103515245u + 12345u;
	return (double)((*seed >> 8) & 0xffffff) / 0xffffff;
}

static int ri(unsigned *seed, int lo, int hi)
{
	return lo + (int)(r01(seed) * (hi - lo) + 0.5);
}

static void test_random_scenarios_finite(void **state)
{
	static char buf[1 << 16];
	unsigned seed = 12345;
	(void)state;
	for (int it = 0; it < 3000; it++) {
		struct scenario s;
		struct plan p;
		struct explain_verdict v[EXPLAIN_VERDICTS];
		scenario_init(&s);
		if (r01(&seed) < 0.25) {
			s.model.params = pow(10, 6 + 7 * r01(&seed));
		} else {
			s.model.layers = ri(&seed, 1, 200);
			s.model.heads = ri(&seed, 1, 128);
			s.model.hidden = s.model.heads * ri(&seed, 1, 256);
			s.model.ffn = ri(&seed, 1, 100000);
			s.model.vocab = ri(&seed, 1, 260000);
			s.model.mlp = r01(&seed) < 0.5 ? MLP_GATED : MLP_PLAIN;
			if (r01(&seed) < 0.25) {
				s.model.moe.experts = ri(&seed, 2, 256);
				s.model.moe.active = ri(&seed, 1, s.model.moe.experts);
				s.model.moe.expert_ffn = ri(&seed, 1, 20000);
			}
			if (r01(&seed) < 0.1)
				s.model.sliding_window = ri(&seed, 1, 100000);
		}
		s.workload.kind = (enum workload_kind)ri(&seed, 0, 3);
		s.workload.precision = (enum dtype)ri(&seed, 0, 4);
		s.workload.seq_len = ri(&seed, 1, 200000);
		s.workload.micro_batch = ri(&seed, 1, 64);
		s.workload.global_batch = r01(&seed) < 0.5 ? 0 : ri(&seed, 1, 10000);
		s.workload.tokens = r01(&seed) < 0.5 ? pow(10, 15 * r01(&seed)) : 0;
		s.workload.recompute = (enum recompute)ri(&seed, 0, 2);
		s.workload.flash_attention = r01(&seed) < 0.5;
		s.workload.finetune.method = (enum ft_method)ri(&seed, 0, 2);
		s.workload.prompt_tokens = ri(&seed, 0, 100000);
		s.workload.output_tokens = ri(&seed, 1, 10000);
		s.workload.batch = r01(&seed) < 0.5 ? 0 : ri(&seed, 1, 4096);
		s.workload.weights = (enum dtype)ri(&seed, 0, 6);
		s.workload.requests_per_day = r01(&seed) < 0.5 ? pow(10, 9 * r01(&seed)) : 0;
		s.workload.slo.tpot_s = r01(&seed) < 0.5 ? r01(&seed) : 0;
		s.workload.slo.ttft_s = r01(&seed) < 0.5 ? 5 * r01(&seed) : 0;
		s.workload.measured_tokens_per_s = r01(&seed) < 0.2 ? 1000 * r01(&seed) : 0;
		s.workload.deadline_s = r01(&seed) < 0.5 ? 1e7 * r01(&seed) : 0;
		switch (ri(&seed, 0, 3)) {
		case 0:
			gpu_a100_80gb(&s.hardware.gpu);
			break;
		case 1:
			gpu_h100_sxm(&s.hardware.gpu);
			break;
		case 2:
			gpu_rtx4090(&s.hardware.gpu);
			break;
		default:
			gpu_rtx3090(&s.hardware.gpu);
			break;
		}
		s.hardware.count = ri(&seed, 1, 20000);
		s.hardware.storage_bytes_per_s = r01(&seed) < 0.5 ? 1e10 * r01(&seed) : 0;
		s.parallel.tp = ri(&seed, 1, 16);
		s.parallel.pp = ri(&seed, 1, 16);
		s.parallel.ep = ri(&seed, 1, 8);
		s.parallel.virtual_stages = ri(&seed, 1, 4);
		s.parallel.zero = ri(&seed, 0, 3);
		s.parallel.sequence_parallel = r01(&seed) < 0.5;
		s.parallel.offload = (enum offload)ri(&seed, 0, 2);
		plan_compute(&s, &p);
		assert_true(isfinite(p.step_s) && p.step_s > 0);
		assert_true(isfinite(p.tokens_per_s) && p.tokens_per_s > 0);
		for (int b = 0; b < BN_COUNT; b++) {
			if (!(isfinite(p.shares[b]) && p.shares[b] >= 0))
				printf("it %d kind %d share %d = %g (capacity %g total %g)\n", it,
				       s.workload.kind, b, p.shares[b], p.mem.capacity,
				       p.mem.total);
			assert_true(isfinite(p.shares[b]) && p.shares[b] >= 0);
		}
		assert_true(p.binding >= 0 && p.binding < BN_COUNT);
		for (const char *const *k = explain_keys(); *k; k++)
			assert_int_equal(explain_key(&s, &p, *k, buf, sizeof(buf), NULL), 0);
		explain_verdicts(&p, v);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_megatron_table1),
	    cmocka_unit_test(test_uneven_global_batch),
	    cmocka_unit_test(test_end_to_end_latency),
	    cmocka_unit_test(test_mosaicml_h100),
	    cmocka_unit_test(test_megatron_days),
	    cmocka_unit_test(test_llamacpp_decode),
	    cmocka_unit_test(test_trtllm_h100),
	    cmocka_unit_test(test_parts_respond),
	    cmocka_unit_test(test_loss_parallel_time),
	    cmocka_unit_test(test_random_scenarios_finite),
	};
	return cmocka_run_group_tests(tests, shipped_catalog_setup, shipped_catalog_teardown);
}
