/* scenario.c - the field table, and setting, formatting, defaults and checks by it. */
#include "scenario.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "text.h"

static const char *const workload_kinds[] = {"train", "finetune", "online", "offline", NULL};
static const char *const optimizers[] = {"adamw", "adam8bit", "sgd", "none", NULL};
static const char *const recomputes[] = {"none", "selective", "full", "op", "attention", NULL};
static const char *const recompute_methods[] = {"block", "uniform", NULL};
static const char *const ft_methods[] = {"full", "lora", "qlora", NULL};
static const char *const offloads[] = {"none", "optimizer", "optimizer+params", NULL};
static const char *const mlps[] = {"gated", "plain", NULL};
static const char *const norms[] = {"rmsnorm", "layernorm", NULL};
/* nvfp4 / mxfp4 / fp6 compute: W4A4 and W6A6 GEMMs on Blackwell and CDNA 4 tensor cores */
/* auto: PRECISION_AUTO, resolved by the plan (scenario.h) */
static const char *const precisions[] = {"fp32",  "tf32",  "bf16", "fp16", "fp8",
					 "nvfp4", "mxfp4", "fp6",  "auto", NULL};
/* auto: GRAD_DTYPE_AUTO, the framework's (scenario.h) */
static const char *const grad_dtypes[] = {"bf16", "fp16", "fp32", "auto", NULL};
static const char *const weight_dtypes[] = {"fp32", "bf16",  "fp16",  "fp8", "int8",
					    "int4", "nvfp4", "mxfp4", "fp6", "nf4",
					    "int3", "int2",  NULL};
/* workload.embedding_weights and attention_weights: EMB_AUTO, EMB_BF16, EMB_SAME */
static const char *const embedding_weight_names[] = {"auto", "bf16", "same", NULL};
/* workload.expert_weights: auto, then the formats of expert_dtypes[] in this order */
static const char *const expert_weight_names[] = {"auto",  "bf16",  "fp16", "fp8",  "int8", "int4",
						  "nvfp4", "mxfp4", "fp6",  "int3", "int2", NULL};
static const enum dtype expert_dtypes[] = {DTYPE_BF16, DTYPE_BF16, DTYPE_FP16,	DTYPE_FP8,
					   DTYPE_INT8, DTYPE_INT4, DTYPE_NVFP4, DTYPE_MXFP4,
					   DTYPE_FP6,  DTYPE_INT3, DTYPE_INT2};
static const char *const base_dtypes[] = {"bf16", "fp16", "fp8", "int8", "int4", "nf4", NULL};
static const char *const adapter_dtypes[] = {"fp32", "bf16", "fp16", NULL};
/* nvfp4: TensorRT-LLM's NVFP4 KV cache on Blackwell (NVIDIA blog, "Optimizing Inference for
 * Long Context and Large Batch Sizes with NVFP4 KV Cache") */
static const char *const kv_dtypes[] = {"fp32", "bf16", "fp16",	 "fp8",
					"int8", "int4", "nvfp4", NULL};
/* in the order of enum engine (scenario.h) */
static const char *const engines[] = {"llama.cpp", "cuda-graphs", "auto", NULL};
static const char *const master_weights[] = {"auto", "fp32", "none", NULL};
static const char *const optimizer_states[] = {"auto", "fp32", "bf16", "paged", NULL};
static const char *const losses[] = {"auto", "paper", "fp32", "chunked", NULL};
/* in the order of enum compile_mode and enum grad_lifetime (framework.h) */
static const char *const compile_modes[] = {"auto", "on", "off", NULL};
static const char *const grad_lifetimes[] = {"auto", "step", "backward", "fused", NULL};
static const char *const fp8_scopes[] = {"auto", "linear", "all", NULL};
static const char *const reshards[] = {"auto", "always", "never", NULL};
static const char *const cp_comms[] = {"p2p", "all_gather", NULL}; /* enum cp_comm */
/* in the order of enum overlap (framework.h; its rows' own values are not choices) */
static const char *const overlaps[] = {"auto", "on", "off", NULL};
/* in the order of enum scheduler (framework.h) */
static const char *const schedulers[] = {
    "alone", "auto", "prefill-first", "chunked", "static", "disaggregated", NULL};
/* in the order of enum spec_method and enum length_dist (scenario.h) */
static const char *const spec_methods[] = {"none", "draft", "mtp", "eagle", "ngram", NULL};
static const char *const length_dists[] = {"fixed", "exponential", "uniform", "lognormal", NULL};
static const char *const lora_targets[] = {"q", "k", "v", "o", "gate", "up", "down", NULL};

#define OFF(member) offsetof(struct scenario, member)
#define BIG	    1e30
/* Each row: key, member, range, applies bits and doc, then designated extras: its label
 * and pane row (PM, PW, PH, or UI_HIDDEN), flags, when it is shown, what auto resolves to. */
#define INT_FIELD(k, m, lo, hi, ap, d, ...)                                                        \
	{                                                                                          \
		.key = k, .type = FIELD_INT, .unit = UNIT_COUNT, .min = lo, .max = hi,             \
		.offset = OFF(m), .size = sizeof(int), .applies = ap, .doc = d, __VA_ARGS__        \
	}
#define INT_AUTO(k, m, lo, hi, ap, d, ...)                                                         \
	{                                                                                          \
		.key = k, .type = FIELD_INT, .unit = UNIT_COUNT, .min = lo, .max = hi,             \
		.auto_ok = true, .offset = OFF(m), .size = sizeof(int), .applies = ap, .doc = d,   \
		__VA_ARGS__                                                                        \
	}
#define NUM_FIELD(k, m, u, lo, hi, ap, d, ...)                                                     \
	{                                                                                          \
		.key = k, .type = FIELD_NUM, .unit = u, .min = lo, .max = hi, .offset = OFF(m),    \
		.size = sizeof(double), .applies = ap, .doc = d, __VA_ARGS__                       \
	}
#define NUM_AUTO(k, m, u, lo, hi, ap, d, ...)                                                      \
	{                                                                                          \
		.key = k, .type = FIELD_NUM, .unit = u, .min = lo, .max = hi, .auto_ok = true,     \
		.offset = OFF(m), .size = sizeof(double), .applies = ap, .doc = d, __VA_ARGS__     \
	}
#define BOOL_FIELD(k, m, ap, d, ...)                                                               \
	{                                                                                          \
		.key = k, .type = FIELD_BOOL, .unit = UNIT_NONE, .min = 0, .max = 1,               \
		.offset = OFF(m), .size = sizeof(bool), .applies = ap, .doc = d, __VA_ARGS__       \
	}
#define ENUM_FIELD(k, m, nm, ap, d, ...)                                                           \
	{                                                                                          \
		.key = k, .type = FIELD_ENUM, .unit = UNIT_NONE, .offset = OFF(m),                 \
		.size = sizeof(int), .names = nm, .applies = ap, .doc = d, __VA_ARGS__             \
	}
#define DTYPE_FIELD(k, m, nm, ap, d, ...)                                                          \
	{                                                                                          \
		.key = k, .type = FIELD_DTYPE, .unit = UNIT_NONE, .offset = OFF(m),                \
		.size = sizeof(enum dtype), .names = nm, .applies = ap, .doc = d, __VA_ARGS__      \
	}
#define STR_FIELD(k, m, ap, d, ...)                                                                \
	{                                                                                          \
		.key = k, .type = FIELD_STR, .unit = UNIT_NONE, .offset = OFF(m),                  \
		.size = sizeof(((struct scenario *)0)->m), .applies = ap, .doc = d, __VA_ARGS__    \
	}
/* the row's label and its place in the Model, Workload or Hardware pane, or no row */
/* a row in that pane of the terminal UI, labelled l: a pane's rows come in table order */
#define PM(l)	     .label = l, .pane = FIELD_PANE_MODEL
#define PW(l)	     .label = l, .pane = FIELD_PANE_WORKLOAD
#define PH(l)	     .label = l, .pane = FIELD_PANE_HARDWARE
#define UI_HIDDEN(l) .label = l
#define DOUBLES	     .flags = FIELD_STEP_DOUBLES
#define RESOLVED_INT(member)                                                                       \
	.resolved_kind = FIELD_RESOLVED_INT, .resolved = offsetof(struct plan, member)
#define RESOLVED_DOUBLE(member)                                                                    \
	.resolved_kind = FIELD_RESOLVED_DOUBLE, .resolved = offsetof(struct plan, member)

/* The order here is the order files are written in. Ranges are what can be physical:
 * anything outside is a typo, not a scenario. */
const struct field scenario_fields[] = {
    INT_FIELD("gpuplan", version, 1, 1, 0, "schema version (1)", UI_HIDDEN("version")),
    STR_FIELD("name", name, 0, "the scenario's title", UI_HIDDEN("name")),
    STR_FIELD("notes", notes, 0, "free text, kept verbatim", UI_HIDDEN("notes")),

    STR_FIELD("model.preset", model.preset, 0, "a catalog model; the fields below override it",
	      PM("preset"), .flags = FIELD_PRESET, .catalog = FIELD_CATALOG_MODELS),
    STR_FIELD("model.hf_config", model.hf_config, 0,
	      "a Hugging Face config.json, relative to the scenario file", PM("hf config"),
	      .flags = FIELD_PRESET | FIELD_FILE | FIELD_PANE_LAST),
    NUM_FIELD("model.params", model.params, UNIT_COUNT, 1e3, 1e15, 0,
	      "total parameters (7B); with shape fields it replaces the computed count",
	      PM("params (size)"), .flags = FIELD_STEP_DOUBLES | FIELD_PANE_LAST),
    INT_FIELD("model.layers", model.layers, 1, 10000, 0, "transformer layers", PM("layers")),
    INT_FIELD("model.hidden", model.hidden, 1, 1048576, 0, "hidden size (d_model)", PM("hidden")),
    INT_FIELD("model.heads", model.heads, 1, 65536, 0, "attention (query) heads", PM("heads")),
    INT_AUTO("model.kv_heads", model.kv_heads, 1, 65536, 0,
	     "key/value heads (GQA, MQA); auto = heads", PM("kv heads"),
	     RESOLVED_INT(model.kv_heads)),
    INT_AUTO("model.head_dim", model.head_dim, 1, 65536, 0, "per-head size; auto = hidden/heads",
	     PM("head dim"), RESOLVED_INT(model.head_dim)),
    INT_FIELD("model.ffn", model.ffn, 1, 16777216, 0, "MLP intermediate size", PM("ffn")),
    INT_FIELD("model.vocab", model.vocab, 1, 16777216, 0, "vocabulary size", PM("vocab")),
    ENUM_FIELD("model.mlp", model.mlp, mlps, 0,
	       "gated (SwiGLU/GeGLU, 3 matrices) | plain (GELU, 2)", PM("mlp")),
    ENUM_FIELD("model.norm", model.norm, norms, 0, "rmsnorm | layernorm", PM("norm")),
    BOOL_FIELD("model.tied_embeddings", model.tied_embeddings, 0,
	       "output head shares the embedding matrix", PM("tied embed")),
    BOOL_FIELD("model.attention_bias", model.attention_bias, 0, "biases on q, k, v and o",
	       UI_HIDDEN("attn bias")),
    INT_FIELD("model.max_context", model.max_context, 1, 1e8, 0, "longest context, tokens",
	      PM("max context"), DOUBLES),
    INT_FIELD("model.moe.experts", model.moe.experts, 0, 65536, 0, "routed experts (0 = dense)",
	      PM("experts"), DOUBLES),
    INT_FIELD("model.moe.active", model.moe.active, 0, 65536, 0, "routed experts per token",
	      PM("active experts"), .shown = FIELD_SHOWN_MOE),
    INT_FIELD("model.moe.shared", model.moe.shared, 0, 65536, 0, "shared experts",
	      PM("shared experts"), .shown = FIELD_SHOWN_MOE),
    INT_FIELD("model.moe.expert_ffn", model.moe.expert_ffn, 0, 16777216, 0,
	      "one expert's intermediate size", PM("expert ffn"), .shown = FIELD_SHOWN_MOE),
    INT_FIELD("model.moe.shared_ffn", model.moe.shared_ffn, 0, 16777216, 0,
	      "one shared expert's intermediate size (0 = expert_ffn)", UI_HIDDEN("shared ffn")),
    INT_FIELD("model.moe.dense_layers", model.moe.dense_layers, 0, 10000, 0,
	      "leading layers with a dense MLP", UI_HIDDEN("dense layers")),
    BOOL_FIELD("model.moe.shared_gate", model.moe.shared_gate, 0,
	       "a sigmoid gate on the shared experts (Qwen2-MoE)", UI_HIDDEN("shared gate")),
    BOOL_FIELD("model.moe.router_bias", model.router_bias, 0,
	       "a bias on the router, one per expert (gpt-oss)", UI_HIDDEN("router bias")),
    INT_FIELD("model.mla.q_rank", model.mla.q_rank, 0, 1048576, 0, "MLA query LoRA rank",
	      PM("mla q rank"), .shown = FIELD_SHOWN_MLA),
    INT_FIELD("model.mla.kv_rank", model.mla.kv_rank, 0, 1048576, 0,
	      "MLA key/value LoRA rank (0 = not MLA)", PM("mla kv rank"), .shown = FIELD_SHOWN_MLA),
    INT_FIELD("model.mla.rope_dim", model.mla.rope_dim, 0, 65536, 0, "MLA rotary head size",
	      UI_HIDDEN("mla rope dim")),
    INT_FIELD("model.mla.nope_dim", model.mla.nope_dim, 0, 65536, 0, "MLA non-rotary head size",
	      UI_HIDDEN("mla nope dim")),
    INT_FIELD("model.mla.v_dim", model.mla.v_dim, 0, 65536, 0, "MLA value head size",
	      UI_HIDDEN("mla v dim")),
    BOOL_FIELD("model.qkv_bias", model.qkv_bias, 0, "biases on q, k and v only (Qwen2)",
	       UI_HIDDEN("qkv bias")),
    BOOL_FIELD("model.mlp_bias", model.mlp_bias, 0, "biases on the MLP matrices",
	       UI_HIDDEN("mlp bias")),
    BOOL_FIELD("model.qk_norm", model.qk_norm, 0, "per-head norms on q and k (Qwen3)",
	       UI_HIDDEN("qk norm")),
    BOOL_FIELD("model.qk_norm_full", model.qk_norm_full, 0,
	       "with qk_norm: the norms span all heads of q and of k (OLMo 2, Cohere)",
	       UI_HIDDEN("qk norm full")),
    BOOL_FIELD("model.attention_gate", model.attention_gate, 0,
	       "a gate on the attention output: q_proj twice as wide (Qwen3-Next)",
	       UI_HIDDEN("attn gate")),
    BOOL_FIELD("model.attention_sinks", model.attention_sinks, 0,
	       "one learned sink logit per head per layer (gpt-oss)", UI_HIDDEN("attn sinks")),
    INT_FIELD("model.norms_per_layer", model.norms_per_layer, 0, 16, 0,
	      "norms in each layer (0 = 2)", UI_HIDDEN("norms/layer")),
    INT_FIELD("model.position_embeddings", model.position_embeddings, 0, 1e8, 0,
	      "learned absolute positions (0 = rotary or none)", UI_HIDDEN("pos embed")),
    BOOL_FIELD("model.embedding_norm", model.embedding_norm, 0, "a norm after the embedding",
	       UI_HIDDEN("embed norm")),
    BOOL_FIELD("model.parallel_block", model.parallel_block, 0,
	       "attention and MLP side by side (GPT-J, Falcon)", UI_HIDDEN("parallel block")),
    INT_FIELD("model.sliding_window", model.sliding_window, 0, 1e8, 0,
	      "tokens one layer attends to (0 = all)", UI_HIDDEN("sliding window")),
    INT_FIELD("model.global_layers", model.global_layers, 0, 10000, 0,
	      "with sliding_window: layers that attend over the whole context (0 = none)",
	      UI_HIDDEN("global layers")),
    BOOL_FIELD("model.chunked_attention", model.chunked_attention, 0,
	       "the windowed layers attend in chunks of sliding_window tokens (Llama 4)",
	       UI_HIDDEN("chunked attn")),
    INT_FIELD("model.sparse_layers", model.sparse_layers, 0, 10000, 0,
	      "layers with block-sparse attention (Phi-3-small; 0 = none)",
	      UI_HIDDEN("sparse layers")),
    INT_FIELD("model.sparse_local", model.sparse_local, 0, 1e8, 0,
	      "with sparse_layers: tokens of the local blocks a query sees",
	      UI_HIDDEN("sparse local")),
    INT_FIELD("model.sparse_stride", model.sparse_stride, 0, 1e8, 0,
	      "with sparse_layers: beyond the local blocks, one block in this many",
	      UI_HIDDEN("sparse stride")),
    INT_FIELD("model.embed_dim", model.embed_dim, 0, 1048576, 0,
	      "embedding width when projected to hidden (OPT-350m; 0 = hidden)",
	      UI_HIDDEN("embed dim")),
    BOOL_FIELD("model.no_final_norm", model.no_final_norm, 0,
	       "no norm after the last layer (OPT-350m)", UI_HIDDEN("no final norm")),
    BOOL_FIELD("model.head_bias", model.head_bias, 0,
	       "a bias on the output head, vocab wide (Phi-2, GPT-J, PhiMoE)",
	       UI_HIDDEN("head bias")),
    BOOL_FIELD("model.dropout", model.dropout, 0,
	       "trains with dropout (1-byte masks stored; GPT-2, GPT-3, OPT)",
	       UI_HIDDEN("dropout")),
    INT_FIELD("model.ssm.layers", model.ssm.layers, 0, 10000, 0,
	      "layers whose mixer is a state-space (Mamba) block, not attention (0 = none)",
	      UI_HIDDEN("ssm layers")),
    INT_FIELD("model.ssm.d_state", model.ssm.d_state, 0, 65536, 0,
	      "state size N per channel (Mamba 16, Mamba-2 128)", UI_HIDDEN("ssm d_state")),
    INT_FIELD("model.ssm.d_conv", model.ssm.d_conv, 0, 1024, 0,
	      "the causal conv1d's kernel (0 = 4)", UI_HIDDEN("ssm d_conv")),
    INT_FIELD("model.ssm.expand", model.ssm.expand, 0, 1024, 0,
	      "inner width = expand x hidden when d_inner is 0 (0 = 2)", UI_HIDDEN("ssm expand")),
    INT_FIELD("model.ssm.d_inner", model.ssm.d_inner, 0, 16777216, 0,
	      "the mixer's inner width (0 = expand x hidden)", UI_HIDDEN("ssm d_inner")),
    INT_FIELD("model.ssm.heads", model.ssm.heads, 0, 65536, 0,
	      "Mamba-2 heads (0 = a Mamba-1 selective scan)", UI_HIDDEN("ssm heads")),
    INT_FIELD("model.ssm.groups", model.ssm.groups, 0, 65536, 0,
	      "Mamba-2 groups of B and C (0 = 1)", UI_HIDDEN("ssm groups")),
    INT_FIELD("model.ssm.dt_rank", model.ssm.dt_rank, 0, 1048576, 0,
	      "Mamba-1 step projection rank (0 = hidden / 16)", UI_HIDDEN("ssm dt rank")),
    BOOL_FIELD("model.ssm.proj_bias", model.ssm.proj_bias, 0,
	       "biases on the mixer's in_proj and out_proj", UI_HIDDEN("ssm proj bias")),
    BOOL_FIELD("model.ssm.no_conv_bias", model.ssm.no_conv_bias, 0, "the conv1d has no bias",
	       UI_HIDDEN("ssm no conv bias")),
    BOOL_FIELD("model.ssm.dt_norms", model.ssm.dt_norms, 0, "RMSNorms on the step, B and C (Jamba)",
	       UI_HIDDEN("ssm dt norms")),
    BOOL_FIELD("model.ssm.gated_delta", model.ssm.gated_delta, 0,
	       "the mixer is a Gated DeltaNet (Qwen3-Next's linear attention)",
	       UI_HIDDEN("ssm gated delta")),
    INT_FIELD("model.mixerless_layers", model.mixerless_layers, 0, 10000, 0,
	      "layers with neither attention nor a state-space mixer (Nemotron-H's MLP layers)",
	      UI_HIDDEN("mixerless layers")),
    INT_FIELD("model.mlpless_layers", model.mlpless_layers, 0, 10000, 0,
	      "layers without an MLP (Mamba's; Nemotron-H's Mamba and attention layers)",
	      UI_HIDDEN("mlpless layers")),
    INT_FIELD("model.linear_blocks", model.linear_blocks, 0, 20000, 0,
	      "of the mixerless and mlpless layers' blocks, those replaced by one hidden x "
	      "hidden linear (DeciLM)",
	      UI_HIDDEN("linear blocks")),
    NUM_FIELD("model.ffn_sum", model.ffn_sum, UNIT_COUNT, 0, 1e12, 0,
	      "the dense MLPs' intermediate sizes summed when they differ per layer (DeciLM; 0 = "
	      "ffn in each)",
	      UI_HIDDEN("ffn sum"), DOUBLES),
    INT_FIELD("model.kv_sum", model.kv_sum, 0, 100000000, 0,
	      "the attention layers' K/V heads summed when they differ per layer (DeciLM; 0 = "
	      "kv_heads in each)",
	      UI_HIDDEN("kv sum")),
    NUM_FIELD("model.vision_params", model.vision_params, UNIT_COUNT, 0, 1e13, 0,
	      "a multimodal model's vision tower and projector, outside params; held in "
	      "weights (16-bit serving and LoRA, trained in full training)",
	      UI_HIDDEN("vision params"), DOUBLES),

    ENUM_FIELD("workload.kind", workload.kind, workload_kinds, 0,
	       "train | finetune | online | offline", PW("kind")),
    ENUM_FIELD("workload.framework", workload.framework, framework_names, 0,
	       "whose memory rules apply: default (the papers) | megatron | fsdp | deepspeed | "
	       "hf | torchtune | llm.c | vllm | sglang | trt-llm | llama.cpp",
	       PW("framework")),
    DTYPE_FIELD("workload.precision", workload.precision, precisions, 0,
		"compute precision: auto (bf16; fp8 for fp8 weights on fp8 tensor cores) | fp32 | "
		"tf32 | bf16 | fp16 | fp8 | nvfp4 | mxfp4 | fp6",
		PW("precision")),
    INT_FIELD("workload.seq_len", workload.seq_len, 1, 1e8, APPLIES_TRAINING,
	      "tokens per training sequence", PW("seq len"), DOUBLES),
    INT_FIELD("workload.micro_batch", workload.micro_batch, 1, 1e6, APPLIES_TRAINING,
	      "sequences per GPU per forward pass", PW("micro batch"), DOUBLES),
    INT_AUTO("workload.global_batch", workload.global_batch, 1, 1e9, APPLIES_TRAINING,
	     "sequences per optimizer step; auto = micro_batch x dp", PW("global batch"), DOUBLES,
	     RESOLVED_INT(global_batch)),
    NUM_FIELD("workload.tokens", workload.tokens, UNIT_COUNT, 0, 1e20,
	      APPLIES_TRAINING | APPLIES_OFFLINE, "tokens to train on or generate (2T)",
	      PW("tokens"), DOUBLES),
    ENUM_FIELD("workload.optimizer", workload.optimizer, optimizers, APPLIES_TRAINING,
	       "adamw | adam8bit | sgd | none", PW("optimizer")),
    DTYPE_FIELD("workload.grad_dtype", workload.grad_dtype, grad_dtypes, APPLIES_TRAINING,
		"gradient buffer: auto (the framework's) | bf16 (16 B/param with Adam) | fp16 | "
		"fp32 (Megatron's main_grad, 18 B/param)",
		PW("grad dtype")),
    ENUM_FIELD("workload.recompute", workload.recompute, recomputes, APPLIES_TRAINING,
	       "activation recomputation: none | selective | full | op (PyTorch per-op) | "
	       "attention (the attention module checkpointed, the MLP stored)",
	       PW("recompute")),
    INT_AUTO("workload.recompute_layers", workload.recompute_layers, 1, 65536, APPLIES_TRAINING,
	     "layers of each pipeline stage that recompute, the rest store everything "
	     "(Megatron --recompute-method block --recompute-num-layers N; torchtitan "
	     "selective_ac_option N: floor(L / N)); auto = every layer",
	     UI_HIDDEN("recompute layers"), RESOLVED_INT(recompute_layers)),
    ENUM_FIELD("workload.recompute_method", workload.recompute_method, recompute_methods,
	       APPLIES_TRAINING,
	       "full recomputation's checkpoints (Megatron --recompute-method): block (the "
	       "first recompute_layers layers, each alone) | uniform (chunks of "
	       "recompute_layers layers, each chunk's input kept)",
	       UI_HIDDEN("recompute method")),
    BOOL_FIELD("workload.flash_attention", workload.flash_attention, 0,
	       "FlashAttention (no stored attention scores)", PW("flash attn")),
    ENUM_FIELD("workload.finetune.method", workload.finetune.method, ft_methods, APPLIES_FINETUNE,
	       "full | lora | qlora", PW("method")),
    INT_FIELD("workload.finetune.rank", workload.finetune.rank, 1, 65536, APPLIES_FINETUNE,
	      "LoRA rank", PW("lora rank"), DOUBLES, .shown = FIELD_SHOWN_LORA),
    {.key = "workload.finetune.targets",
     .type = FIELD_TARGETS,
     .unit = UNIT_NONE,
     .offset = OFF(workload.finetune.targets),
     .size = sizeof(unsigned),
     .names = lora_targets,
     .applies = APPLIES_FINETUNE,
     .doc = "LoRA target matrices: [q, k, v, o, gate, up, down]",
     PW("lora targets"),
     .shown = FIELD_SHOWN_LORA},
    DTYPE_FIELD("workload.finetune.base_weights", workload.finetune.base_weights, base_dtypes,
		APPLIES_FINETUNE, "frozen base weights: bf16 | fp16 | int8 | nf4 (QLoRA)",
		PW("base weights"), .shown = FIELD_SHOWN_LORA),
    DTYPE_FIELD("workload.finetune.adapter_dtype", workload.finetune.adapter_dtype, adapter_dtypes,
		APPLIES_FINETUNE,
		"LoRA adapters: fp32 (PEFT's default) | bf16 | fp16 (qlora.py: bf16)",
		UI_HIDDEN("adapter dtype")),
    NUM_FIELD("workload.finetune.dropout", workload.finetune.dropout, UNIT_RATIO, 0, 0.99,
	      APPLIES_FINETUNE, "LoRA dropout probability before lora_a (lora_dropout); 0 = none",
	      UI_HIDDEN("lora dropout")),
    INT_FIELD("workload.prompt_tokens", workload.prompt_tokens, 0, 1e8, APPLIES_INFERENCE,
	      "prompt tokens per request", PW("prompt tokens"), DOUBLES),
    INT_FIELD("workload.output_tokens", workload.output_tokens, 1, 1e8, APPLIES_INFERENCE,
	      "generated tokens per request", PW("output tokens"), DOUBLES),
    INT_AUTO("workload.batch", workload.batch, 1, 1e8, APPLIES_INFERENCE,
	     "concurrent sequences; auto = the most that fit", PW("batch"), DOUBLES,
	     RESOLVED_DOUBLE(max_batch)),
    DTYPE_FIELD(
	"workload.weights", workload.weights, weight_dtypes, APPLIES_INFERENCE,
	"inference weight format: fp32 | bf16 | fp16 | fp8 | int8 | int4 | nvfp4 | mxfp4 | fp6 | "
	"nf4 | int3 | int2",
	PW("weights")),
    ENUM_FIELD("workload.expert_weights", workload.expert_weights, expert_weight_names,
	       APPLIES_INFERENCE,
	       "routed experts' weight format: auto (as workload.weights) | bf16 | fp16 | fp8 | "
	       "int8 | int4 | nvfp4 | mxfp4 | fp6 | int3 | int2",
	       UI_HIDDEN("expert weights")),
    DTYPE_FIELD("workload.kv_cache", workload.kv_cache, kv_dtypes, APPLIES_INFERENCE,
		"KV cache format", PW("kv cache")),
    ENUM_FIELD("workload.engine", workload.engine, engines, APPLIES_INFERENCE,
	       "inference kernels: auto (the framework's; llama.cpp on consumer cards, else "
	       "cuda-graphs) | llama.cpp | cuda-graphs (vLLM, TensorRT-LLM, SGLang)",
	       PW("engine")),
    ENUM_FIELD("workload.master_weights", workload.master_weights, master_weights, APPLIES_TRAINING,
	       "fp32 master copy: auto (the framework's) | fp32 | none",
	       UI_HIDDEN("master weights")),
    ENUM_FIELD("workload.optimizer_states", workload.optimizer_states, optimizer_states,
	       APPLIES_TRAINING, "optimizer moments: auto (the framework's) | fp32 | bf16 | paged",
	       UI_HIDDEN("optim states")),
    ENUM_FIELD("workload.loss", workload.loss, losses, APPLIES_TRAINING,
	       "logits and loss: auto (the framework's) | paper | fp32 | chunked",
	       UI_HIDDEN("loss")),
    ENUM_FIELD("workload.compile", workload.compile, compile_modes, APPLIES_TRAINING,
	       "torch.compile of the layers: auto (the framework's) | on | off",
	       UI_HIDDEN("compile")),
    ENUM_FIELD("workload.grad_lifetime", workload.grad_lifetime, grad_lifetimes, APPLIES_TRAINING,
	       "gradients live: auto (the framework's) | step | backward | fused",
	       UI_HIDDEN("grad lifetime")),
    BOOL_FIELD("workload.activation_offload", workload.activation_offload, APPLIES_TRAINING,
	       "saved activations offloaded to host memory over PCIe", UI_HIDDEN("act offload")),
    ENUM_FIELD("workload.fp8_scope", workload.fp8_scope, fp8_scopes, APPLIES_TRAINING,
	       "what fp8 training converts: auto (the framework's) | linear | all",
	       UI_HIDDEN("fp8 scope")),
    /* read by the engines that size their KV cache from a fraction (framework.c kv_rule:
     * vLLM gpu_memory_utilization, SGLang mem_fraction_static, TensorRT-LLM
     * free_gpu_memory_fraction); llama.cpp allocates the context it is given */
    NUM_AUTO("workload.gpu_memory_utilization", workload.gpu_memory_utilization, UNIT_RATIO, 0.01,
	     1, APPLIES_INFERENCE,
	     "serving memory fraction for weights, activations and KV; auto = the framework's",
	     UI_HIDDEN("gpu mem util"), RESOLVED_DOUBLE(mem_fraction),
	     .frameworks = 1u << FW_VLLM | 1u << FW_SGLANG | 1u << FW_TRTLLM),
    ENUM_FIELD("workload.scheduler", workload.scheduler, schedulers, APPLIES_INFERENCE,
	       "serving steps: alone (the decode step by itself) | auto (the framework's) | "
	       "prefill-first | chunked | static | disaggregated (prefill and decode pools)",
	       UI_HIDDEN("scheduler")),
    INT_AUTO("workload.prefill_engines", workload.prefill_engines, 1, 1e6, APPLIES_INFERENCE,
	     "disaggregated: prefill engines (tp x pp GPUs each) a unit; auto = the SLO's",
	     UI_HIDDEN("prefill engines"), RESOLVED_DOUBLE(serving.prefill_engines)),
    INT_AUTO("workload.decode_engines", workload.decode_engines, 1, 1e6, APPLIES_INFERENCE,
	     "disaggregated: decode engines a unit; auto = the SLO's", UI_HIDDEN("decode engines"),
	     RESOLVED_DOUBLE(serving.decode_engines)),
    INT_AUTO("workload.max_batched_tokens", workload.max_batched_tokens, 1, 1e9, APPLIES_INFERENCE,
	     "tokens one step may carry; auto = the framework's", UI_HIDDEN("step tokens"),
	     RESOLVED_DOUBLE(serving.budget)),
    INT_AUTO("workload.max_running", workload.max_running, 1, 1e8, APPLIES_INFERENCE,
	     "most requests running at once; auto = the framework's (or what the KV cache holds)",
	     UI_HIDDEN("max running"), RESOLVED_DOUBLE(serving.max_running)),
    INT_AUTO("workload.scheduler_steps", workload.scheduler_steps, 1, 1024, APPLIES_INFERENCE,
	     "decode steps one scheduling runs (vLLM --num-scheduler-steps); auto = the "
	     "framework's (1)",
	     UI_HIDDEN("sched steps"), RESOLVED_DOUBLE(serving.scheduler_steps)),
    NUM_FIELD("workload.requests_per_s", workload.requests_per_s, UNIT_COUNT, 0, 1e9,
	      APPLIES_ONLINE, "arrival rate, requests/s (Poisson; 0 = requests_per_day x peak)",
	      UI_HIDDEN("requests/s")),
    INT_FIELD("workload.concurrency", workload.concurrency, 0, 1e8, APPLIES_INFERENCE,
	      "closed loop: requests kept in flight (0 = open arrivals)", UI_HIDDEN("concurrency")),
    INT_FIELD("workload.requests", workload.requests, 0, 1e9, APPLIES_INFERENCE,
	      "a finite run's requests, as a benchmark's --num-prompts (0 = steady state)",
	      UI_HIDDEN("run requests")),
    NUM_FIELD("workload.prefix_cache_hit", workload.prefix_cache_hit, UNIT_NONE, 0, 0.999,
	      APPLIES_INFERENCE, "share of prompt tokens found in a prefix cache, 0 to 0.999",
	      UI_HIDDEN("prefix hit")),
    NUM_FIELD("workload.prefix_cache_tokens", workload.prefix_cache_tokens, UNIT_COUNT, 0, 1e15,
	      APPLIES_INFERENCE,
	      "distinct prefix tokens the hits are drawn from (0 = the cache holds them all)",
	      UI_HIDDEN("prefix tokens")),
    NUM_FIELD("workload.host_kv_cache", workload.host_kv_cache, UNIT_BYTES, 0, 1e15,
	      APPLIES_INFERENCE,
	      "host memory per GPU for offloaded KV blocks (SGLang hicache, vLLM kv offloading)",
	      UI_HIDDEN("host KV")),
    ENUM_FIELD("workload.speculative.method", workload.speculative.method, spec_methods,
	       APPLIES_INFERENCE,
	       "speculative decoding: none | draft (a small model) | mtp | eagle | ngram",
	       UI_HIDDEN("spec method")),
    INT_FIELD("workload.speculative.tokens", workload.speculative.tokens, 0, 64, APPLIES_INFERENCE,
	      "tokens drafted per step (K; 0 = none)", UI_HIDDEN("spec tokens"),
	      .flags = FIELD_LEAST_ZERO),
    NUM_FIELD("workload.speculative.acceptance", workload.speculative.acceptance, UNIT_NONE, 0, 1,
	      APPLIES_INFERENCE, "chance a drafted token is accepted, [0, 1)",
	      UI_HIDDEN("spec accept"), .flags = FIELD_MAX_OPEN),
    NUM_FIELD("workload.speculative.draft_params", workload.speculative.draft_params, UNIT_COUNT, 0,
	      1e13, APPLIES_INFERENCE,
	      "the draft's parameters (1B); 0 = the method's (mtp, eagle: one layer and the head)",
	      UI_HIDDEN("draft params")),
    INT_FIELD("workload.speculative.draft_layers", workload.speculative.draft_layers, 0, 1000,
	      APPLIES_INFERENCE, "the draft model's layers (method draft)",
	      UI_HIDDEN("draft layers")),
    ENUM_FIELD("workload.prompt_length.dist", workload.prompt_length.dist, length_dists,
	       APPLIES_INFERENCE,
	       "prompt lengths around prompt_tokens: fixed | exponential | uniform | lognormal",
	       UI_HIDDEN("prompt dist")),
    NUM_FIELD("workload.prompt_length.min", workload.prompt_length.min, UNIT_COUNT, 0, 1e8,
	      APPLIES_INFERENCE, "uniform: the shortest prompt", UI_HIDDEN("prompt min")),
    NUM_FIELD("workload.prompt_length.max", workload.prompt_length.max, UNIT_COUNT, 0, 1e8,
	      APPLIES_INFERENCE, "uniform: the longest prompt", UI_HIDDEN("prompt max")),
    NUM_FIELD("workload.prompt_length.sigma", workload.prompt_length.sigma, UNIT_NONE, 0, 10,
	      APPLIES_INFERENCE, "lognormal: the log's standard deviation",
	      UI_HIDDEN("prompt sigma")),
    ENUM_FIELD("workload.output_length.dist", workload.output_length.dist, length_dists,
	       APPLIES_INFERENCE,
	       "output lengths around output_tokens: fixed | exponential | uniform | lognormal",
	       UI_HIDDEN("output dist")),
    NUM_FIELD("workload.output_length.min", workload.output_length.min, UNIT_COUNT, 0, 1e8,
	      APPLIES_INFERENCE, "uniform: the shortest output", UI_HIDDEN("output min")),
    NUM_FIELD("workload.output_length.max", workload.output_length.max, UNIT_COUNT, 0, 1e8,
	      APPLIES_INFERENCE, "uniform: the longest output", UI_HIDDEN("output max")),
    NUM_FIELD("workload.output_length.sigma", workload.output_length.sigma, UNIT_NONE, 0, 10,
	      APPLIES_INFERENCE, "lognormal: the log's standard deviation",
	      UI_HIDDEN("output sigma")),
    NUM_FIELD("workload.requests_per_day", workload.requests_per_day, UNIT_COUNT, 0, 1e15,
	      APPLIES_ONLINE, "requests per day (1M)", PW("requests/day"), DOUBLES),
    NUM_FIELD("workload.peak_factor", workload.peak_factor, UNIT_NONE, 1, 1000, APPLIES_ONLINE,
	      "peak load over the daily average", PW("peak factor")),
    NUM_FIELD("workload.slo.ttft", workload.slo.ttft_s, UNIT_SECONDS, 0, 86400, APPLIES_INFERENCE,
	      "time-to-first-token target (1s; 0 = none)", PW("slo ttft"), DOUBLES),
    NUM_FIELD("workload.slo.tpot", workload.slo.tpot_s, UNIT_SECONDS, 0, 3600, APPLIES_INFERENCE,
	      "time-per-output-token target (50ms; 0 = none)", PW("slo tpot"), DOUBLES),
    NUM_AUTO("workload.slo.percentile", workload.slo.percentile, UNIT_NONE, 1e-3, 99.999,
	     APPLIES_INFERENCE, "the percentile the targets hold at, (0, 100); auto = 99",
	     UI_HIDDEN("slo pctile"), RESOLVED_DOUBLE(serving.slo_percentile)),
    NUM_FIELD("workload.measured_tokens_per_s", workload.measured_tokens_per_s, UNIT_COUNT, 0, 1e12,
	      0, "measured tokens/s per GPU; replaces the modelled throughput",
	      PW("measured tok/s"), DOUBLES),
    NUM_FIELD("workload.deadline", workload.deadline_s, UNIT_SECONDS, 0, 3.2e9, 0,
	      "time available (5d; 0 = none)", PW("deadline"), DOUBLES),

    STR_FIELD("hardware.gpu", hardware.gpu.id, 0, "a catalog GPU; the fields below override it",
	      PH("gpu"), .flags = FIELD_PRESET, .catalog = FIELD_CATALOG_GPUS),
    INT_FIELD("hardware.count", hardware.count, 1, 1e8, 0, "GPUs", PH("count"), DOUBLES),
    INT_FIELD("hardware.gpus_per_node", hardware.gpu.gpus_per_node, 1, 1024, 0, "GPUs per node",
	      PH("gpus per node"), DOUBLES),
    /* at least 1 MB/s: a bare "400" (400 b/s) is a missing unit, not a network */
    NUM_FIELD("hardware.network", hardware.gpu.network_bytes_per_s, UNIT_BITS_PER_S, 1e6, 1e15, 0,
	      "scale-out bandwidth per GPU (400Gb/s)", PH("network"), DOUBLES),
    NUM_FIELD("hardware.storage", hardware.storage_bytes_per_s, UNIT_BYTES_PER_S, 0, 1e15, 0,
	      "data loading bandwidth per node (2GB/s; 0 = not modelled)", PH("storage"), DOUBLES),
    NUM_FIELD("hardware.price_per_gpu_hour", hardware.gpu.price_per_hour, UNIT_USD, 0, 1e6, 0,
	      "USD per GPU-hour", PH("price $/gpu-h")),
    NUM_FIELD("hardware.pue", hardware.pue, UNIT_NONE, 1, 5, 0,
	      "power usage effectiveness of the data centre", PH("pue")),
    NUM_FIELD("hardware.mtbf_gpu_hours", hardware.mtbf_gpu_hours, UNIT_NONE, 1, 1e12, 0,
	      "mean GPU-hours between job interruptions", PH("mtbf gpu-h")),
    NUM_FIELD("hardware.memory", hardware.gpu.memory_bytes, UNIT_BYTES, 1e6, 1e15, 0,
	      "GPU memory (overrides the catalog)", PH("memory"), DOUBLES),
    NUM_FIELD("hardware.hbm_bandwidth", hardware.gpu.hbm_bytes_per_s, UNIT_BYTES_PER_S, 1e6, 1e15,
	      0, "GPU memory bandwidth (overrides the catalog)", PH("hbm bandwidth"), DOUBLES),
    NUM_FIELD("hardware.link_bandwidth", hardware.gpu.link_bytes_per_s, UNIT_BYTES_PER_S, 1e6, 1e15,
	      0, "GPU-to-GPU bandwidth within a node (overrides the catalog)", PH("link bandwidth"),
	      DOUBLES),
    NUM_FIELD("hardware.power", hardware.gpu.power_w, UNIT_WATTS, 1, 1e6, 0,
	      "board power per GPU (overrides the catalog)", PH("power"), DOUBLES),

    INT_FIELD("parallel.tp", parallel.tp, 1, 65536, 0, "tensor-parallel degree", PW("tp"), DOUBLES),
    INT_FIELD("parallel.pp", parallel.pp, 1, 65536, 0, "pipeline-parallel stages", PW("pp"),
	      DOUBLES),
    INT_AUTO("parallel.dp", parallel.dp, 1, 1e8, 0, "data-parallel degree; auto = count/(tp pp)",
	     PW("dp"), DOUBLES, RESOLVED_INT(dp)),
    INT_FIELD("parallel.ep", parallel.ep, 1, 65536, 0, "expert-parallel degree", PW("ep"), DOUBLES),
    INT_FIELD("parallel.cp", parallel.cp, 1, 65536, APPLIES_TRAINING,
	      "context-parallel degree: the sequence split over cp GPUs", PW("cp"), DOUBLES),
    ENUM_FIELD("parallel.cp_comm", parallel.cp_comm, cp_comms, APPLIES_TRAINING,
	       "context parallelism's K/V exchange: p2p (ring) | all_gather", PW("cp comm")),
    BOOL_FIELD("parallel.ep_overlap", parallel.ep_overlap, APPLIES_TRAINING,
	       "expert all-to-alls overlapped with another micro-batch's compute (DualPipe)",
	       PW("ep overlap")),
    INT_FIELD("parallel.virtual_stages", parallel.virtual_stages, 1, 1024, APPLIES_TRAINING,
	      "interleaved pipeline chunks per stage", PW("virtual stages"), DOUBLES),
    INT_AUTO("parallel.zero", parallel.zero, 0, 3, APPLIES_TRAINING,
	     "ZeRO stage 0..3; auto = the framework's (fsdp, torchtune 3 over 2+ ranks; else 0)",
	     PW("zero"), .auto_stored = ZERO_AUTO, RESOLVED_INT(zero), .flags = FIELD_LEAST_ZERO),
    BOOL_FIELD("parallel.sequence_parallel", parallel.sequence_parallel, APPLIES_TRAINING,
	       "Megatron sequence parallelism", PW("seq parallel")),
    ENUM_FIELD("parallel.offload", parallel.offload, offloads, APPLIES_TRAINING,
	       "none | optimizer | optimizer+params", PW("offload")),
    ENUM_FIELD("parallel.reshard_after_forward", parallel.reshard_after_forward, reshards,
	       APPLIES_TRAINING,
	       "ZeRO-3 / FSDP frees gathered parameters after forward: auto | always | never",
	       UI_HIDDEN("reshard")),
    ENUM_FIELD("parallel.tp_comm_overlap", parallel.tp_comm_overlap, overlaps, APPLIES_TRAINING,
	       "TP collectives pipelined with the GEMMs (Megatron --tp-comm-overlap, "
	       "torchtitan AsyncTP): auto (the framework's) | on | off",
	       UI_HIDDEN("tp comm overlap")),
    ENUM_FIELD("parallel.overlap_grad_reduce", parallel.overlap_grad_reduce, overlaps,
	       APPLIES_TRAINING,
	       "gradient reduction behind the backward: auto (the framework's) | on | off",
	       UI_HIDDEN("overlap grad reduce")),
    ENUM_FIELD("parallel.overlap_param_gather", parallel.overlap_param_gather, overlaps,
	       APPLIES_TRAINING,
	       "ZeRO parameter all-gathers behind compute: auto (the framework's) | on | off",
	       UI_HIDDEN("overlap param gather")),

    NUM_AUTO("efficiency.mfu", efficiency.mfu, UNIT_RATIO, 1e-4, 1, 0,
	     "model FLOPs utilization; auto = modelled", PW("mfu"), RESOLVED_DOUBLE(mfu)),
    NUM_AUTO("efficiency.hbm", efficiency.hbm, UNIT_RATIO, 1e-4, 1, 0,
	     "achieved / peak memory bandwidth; auto = modelled", PW("hbm"),
	     RESOLVED_DOUBLE(hbm_efficiency)),
    NUM_AUTO("efficiency.network", efficiency.network, UNIT_RATIO, 1e-4, 1, 0,
	     "achieved / peak link bandwidth; auto = modelled", PW("network"),
	     RESOLVED_DOUBLE(network_efficiency)),
    NUM_AUTO("efficiency.overlap", efficiency.overlap, UNIT_RATIO, 1e-4, 1, APPLIES_TRAINING,
	     "compute speed while overlapped communication runs; auto = the framework's",
	     UI_HIDDEN("overlap speed"), RESOLVED_DOUBLE(overlap.speed)),
    NUM_AUTO("efficiency.gemm", efficiency.gemm, UNIT_RATIO, 1e-4, 1, 0,
	     "fraction of the dense peak a large GEMM reaches (prefill, decode, training "
	     "without efficiency.mfu); auto = modelled from the GPU's ridge point",
	     UI_HIDDEN("gemm"), RESOLVED_DOUBLE(gemm_efficiency)),
    NUM_AUTO("efficiency.memory_overhead", efficiency.memory_overhead, UNIT_RATIO, 1e-4, 1, 0,
	     "allocator slack: memory reserved beyond what is allocated, as a fraction of it; "
	     "auto = the framework's, else 5%",
	     UI_HIDDEN("memory overhead"), RESOLVED_DOUBLE(memory_overhead)),
    ENUM_FIELD("workload.embedding_weights", workload.embedding_weights, embedding_weight_names,
	       APPLIES_INFERENCE,
	       "embedding and head format: auto (bf16 where the checkpoint kept them so, else as "
	       "weights) | bf16 | same (as workload.weights)",
	       UI_HIDDEN("embedding weights")),
    ENUM_FIELD("workload.attention_weights", workload.attention_weights, embedding_weight_names,
	       APPLIES_INFERENCE,
	       "attention projections' format: auto (bf16 where the checkpoint kept them so, "
	       "else as weights) | bf16 | same (as workload.weights)",
	       UI_HIDDEN("attention weights")),
    INT_FIELD("workload.weight_group", workload.weight_group, -1, 1048576, APPLIES_INFERENCE,
	      "int2/3/4/8 weights' group size (GPTQ/AWQ group_size); 0 = 128 for int2/3/4, a "
	      "scale per row for int8; -1 = one group per row",
	      UI_HIDDEN("weight group")),
    {.key = NULL},
};

int scenario_field_count(void)
{
	int n = 0;
	while (scenario_fields[n].key)
		n++;
	return n;
}

enum dtype workload_expert_weights(const struct workload *w)
{
	if (w->expert_weights > 0 &&
	    (size_t)w->expert_weights < sizeof(expert_dtypes) / sizeof(expert_dtypes[0]))
		return expert_dtypes[w->expert_weights];
	return w->weights;
}

/* Whether the scenario's file (or an edit) wrote key. */
static bool written(const struct scenario *s, const char *key)
{
	const struct field *f = scenario_field_find(key);
	ptrdiff_t i = f ? f - scenario_fields : -1;
	return i >= 0 && i < SCENARIO_MAX_FIELDS && (s->written[i / 8] >> (i % 8) & 1);
}

void scenario_apply_checkpoint(struct scenario *s, const struct model_quant *old)
{
	const struct model_quant *q = &s->model.quant;
	struct workload *w = &s->workload;
	int e = 0;

	if (!q->set && !(old && old->set))
		return;
	if (!written(s, "workload.weights"))
		w->weights = q->set ? q->weights : DTYPE_BF16;
	if (!written(s, "workload.expert_weights")) {
		/* auto (as weights) unless the experts have a format of their own */
		if (q->set && q->experts != q->weights)
			for (size_t i = 1; i < sizeof(expert_dtypes) / sizeof(expert_dtypes[0]);
			     i++)
				if (expert_dtypes[i] == q->experts) {
					e = (int)i;
					break;
				}
		w->expert_weights = e;
	}
	if (!written(s, "workload.weight_group"))
		w->weight_group = q->set ? q->group : 0;
}

const struct field *scenario_field_find(const char *key)
{
	for (const struct field *f = scenario_fields; f->key; f++)
		if (strcmp(f->key, key) == 0)
			return f;
	return NULL;
}

const char *scenario_field_suggest(const char *key, const char *prefix)
{
	const char *best = NULL;
	int bestd = 1000;
	size_t plen = prefix ? strlen(prefix) : 0;

	for (const struct field *f = scenario_fields; f->key; f++) {
		int d;
		if (plen && strncmp(f->key, prefix, plen) != 0)
			continue;
		/* the last parts too when the key names no section or the section is given */
		d = text_key_distance(key, f->key, strchr(key, '.') == NULL || plen);
		if (d < bestd) {
			bestd = d;
			best = f->key;
		}
	}
	if (best && text_key_near(key, bestd))
		return best;
	return NULL;
}

bool scenario_field_applies(const struct scenario *s, const struct field *f)
{
	if (!f->applies)
		return true;
	return (f->applies & (1u << s->workload.kind)) != 0;
}

const char *field_choice_name(const struct field *f, int v)
{
	if (f->type == FIELD_BOOL)
		return v == 0 ? "false" : v == 1 ? "true" : NULL;
	if (!f->names || v < 0)
		return NULL;
	for (int i = 0; f->names[i]; i++)
		if (i == v)
			return f->names[i];
	return NULL;
}

const char *scenario_enum_name(const char *key, int v)
{
	const struct field *f = scenario_field_find(key);
	const char *name = f && f->type == FIELD_ENUM ? field_choice_name(f, v) : NULL;

	return name ? name : "?";
}

bool scenario_field_shown(const struct scenario *s, const struct field *f)
{
	if (f->pane == FIELD_PANE_NONE || !scenario_field_applies(s, f))
		return false;
	switch (f->shown) {
	case FIELD_SHOWN_ALWAYS:
		return true;
	case FIELD_SHOWN_MOE:
		return s->model.moe.experts != 0;
	case FIELD_SHOWN_MLA:
		return s->model.mla.kv_rank != 0;
	case FIELD_SHOWN_LORA:
		return s->workload.kind == WL_FINETUNE && s->workload.finetune.method != FT_FULL;
	}
	return false;
}

const struct field *scenario_pane_next(enum field_pane pane, const struct field *after)
{
	int from = after && (after->flags & FIELD_PANE_LAST);

	if (pane == FIELD_PANE_NONE)
		return NULL;
	/* two passes over the table: the fields without FIELD_PANE_LAST, then those with it */
	for (int last = from; last < 2; last++)
		for (const struct field *f = after && last == from ? after + 1 : scenario_fields;
		     f->key; f++)
			if (f->pane == pane && !(f->flags & FIELD_PANE_LAST) == !last)
				return f;
	return NULL;
}

const struct field *scenario_pane_field(enum field_pane pane, int row)
{
	const struct field *f = NULL;

	for (int i = 0; i < row && (f = scenario_pane_next(pane, f)); i++)
		;
	return row > 0 ? f : NULL;
}

double scenario_field_resolved(const struct field *f, const struct plan *p)
{
	const char *at = (const char *)p + f->resolved;

	switch (f->resolved_kind) {
	case FIELD_RESOLVED_INT:
		return *(const int *)at;
	case FIELD_RESOLVED_DOUBLE:
		return *(const double *)at;
	case FIELD_RESOLVED_NONE:
		break;
	}
	return 0;
}

bool scenario_field_is_auto(const struct field *f, double v)
{
	return f->auto_ok && v == f->auto_stored;
}

double scenario_field_least(const struct field *f)
{
	if (f->min > 0)
		return f->min;
	if (f->type == FIELD_INT)
		return (f->flags & FIELD_LEAST_ZERO) && !scenario_field_is_auto(f, f->min) ? f->min
											   : 1;
	return 1e-9;
}

static void *field_ptr(struct scenario *s, const struct field *f)
{
	return (char *)s + f->offset;
}

static const void *field_cptr(const struct scenario *s, const struct field *f)
{
	return (const char *)s + f->offset;
}

static int name_index(const char *const *names, const char *text)
{
	for (int i = 0; names[i]; i++)
		if (strcmp(names[i], text) == 0)
			return i;
	return -1;
}

static void names_list(const char *const *names, char *buf, size_t size)
{
	size_t n = 0;
	buf[0] = '\0';
	for (int i = 0; names[i] && n < size; i++)
		n += snprintf(buf + n, size - n, "%s%s", i ? ", " : "", names[i]);
}

/* Parses "[q, k, v]", "q,k,v" or "q k v" into target bits. */
static int parse_targets(const char *text, unsigned *out, char *bad, size_t badsize)
{
	unsigned bits = 0;
	const char *p = text, *end;
	char word[32];

	/* "q, v", "q v" or one flow list "[q, v]": brackets only around the whole, paired
	 * ("[q, k" or "[[q]]]" do not read as a list) */
	while (*p == ' ' || *p == '\t')
		p++;
	end = p + strlen(p);
	while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	if (*p == '[') {
		if (end - p < 2 || end[-1] != ']') {
			snprintf(bad, badsize, "%s", text);
			return -2;
		}
		p++;
		end--;
	}
	for (const char *q = p; q < end; q++)
		if (*q == '[' || *q == ']') {
			snprintf(bad, badsize, "%s", text);
			return -2;
		}
	while (p < end) {
		size_t n = 0;
		while (p < end && (*p == ' ' || *p == ',' || *p == '\t'))
			p++;
		if (p >= end)
			break;
		while (p < end && *p != ' ' && *p != ',' && *p != '\t' && n < sizeof(word) - 1)
			word[n++] = *p++;
		word[n] = '\0';
		int i = name_index(lora_targets, word);
		if (i < 0) {
			snprintf(bad, badsize, "%s", word);
			return -1;
		}
		bits |= 1u << i;
	}
	if (!bits) {
		snprintf(bad, badsize, "%s", text);
		return -1;
	}
	*out = bits;
	return 0;
}

static bool is_auto(const char *text)
{
	return strcmp(text, "auto") == 0;
}

/* A preset that names no catalog entry: what ("model", "GPU") text is unknown, with the
 * near ids when there are any, else the catalog listing (`gpuplan catalog list`). */
static int unknown_id(struct gp_error *err, const char *what, const char *text, const char *near,
		      const char *list)
{
	if (near[0])
		return gp_error_set(err, GP_EINPUT, NULL, 0, 0,
				    "unknown %s '%s' (did you mean %s?)", what, text, near);
	return gp_error_set(err, GP_EINPUT, NULL, 0, 0,
			    "unknown %s '%s' (expected a catalog id; see 'gpuplan catalog %s')",
			    what, text, list);
}

/* An id whose user catalog entry was skipped at load (catalog_skipped): the reason, so the
 * user learns where the entry is and what is wrong with it, not only that the id is
 * unknown. */
static int skipped_id(struct gp_error *err, const char *what, const char *text, const char *entry,
		      const char *why)
{
	return gp_error_set(err, GP_EINPUT, NULL, 0, 0,
			    "%s '%s' is not in the catalog: the %s was skipped (%s)", what, text,
			    entry, why);
}

/* A preset or a config replaces the whole model; the workload's weight formats follow the
 * new checkpoint's where the file did not write them (scenario_apply_checkpoint). */
static void replace_model(struct scenario *s, const struct model *m)
{
	struct model_quant old = s->model.quant;
	s->model = *m;
	scenario_apply_checkpoint(s, &old);
}

static int set_preset(struct scenario *s, const struct catalog *cat, const struct field *f,
		      const char *text, struct gp_error *err)
{
	if (f->catalog == FIELD_CATALOG_MODELS) {
		const struct catalog_model *cm = cat ? catalog_find_model(cat, text) : NULL;
		const struct catalog_skip *why = !cm ? catalog_skipped(cat, false, text) : NULL;
		if (why)
			return skipped_id(err, "model", text, "user's file for it", why->why);
		if (!cm) {
			char near[160] = "";
			if (cat)
				catalog_suggest_models(cat, text, near, sizeof(near));
			return unknown_id(err, "model", text, near, "models");
		}
		replace_model(s, &cm->model);
		snprintf(s->model.preset, sizeof(s->model.preset), "%s", cm->id);
		return 0;
	}
	if (f->catalog == FIELD_CATALOG_GPUS) {
		const struct gpu *g = cat ? catalog_find_gpu(cat, text) : NULL;
		const struct catalog_skip *why = !g ? catalog_skipped(cat, true, text) : NULL;
		if (why && why->id[0])
			return skipped_id(err, "GPU", text, "user's entry for it", why->why);
		if (!g) {
			char near[160] = "";
			if (cat)
				catalog_suggest_gpus(cat, text, near, sizeof(near));
			/* the user's gpus.yaml did not parse: it may name it, unless the id is
			 * a typo of a known one */
			if (why && near[0])
				return gp_error_set(
				    err, GP_EINPUT, NULL, 0, 0,
				    "unknown GPU '%s' (did you mean %s?; the user's "
				    "gpus.yaml was skipped: %s)",
				    text, near, why->why);
			if (why)
				return skipped_id(err, "GPU", text,
						  "user's gpus.yaml, which may name it,", why->why);
			return unknown_id(err, "GPU", text, near, "gpus");
		}
		s->hardware.gpu = *g;
		return 0;
	}
	/* a FIELD_FILE preset: its model comes read, through scenario_field_set_model */
	return gp_error_set(err, GP_EINTERNAL, NULL, 0, 0,
			    "%s names a file: it is read by scenario_field_load, not set", f->key);
}

int scenario_field_set_model(struct scenario *s, const struct field *f, const char *text,
			     const struct model *m, struct gp_error *err)
{
	size_t len = strlen(text);

	if (len >= f->size) {
		gp_error_set(err, GP_EINPUT, NULL, 0, 0, "%s is too long (%zu bytes; at most %zu)",
			     f->key, len, f->size - 1);
		gp_error_set_field(err, f->key);
		return -1;
	}
	/* the config replaces the model, preset and all: the report must not name a preset
	 * whose numbers it no longer uses */
	replace_model(s, m);
	memcpy(s->model.hf_config, text, len + 1);
	s->model.preset[0] = '\0';
	return 0;
}

int scenario_field_set(struct scenario *s, const struct catalog *cat, const struct field *f,
		       const char *text, struct gp_error *err)
{
	const char *why = NULL;
	double v;
	char list[160];
	int rc = -1;

	switch (f->type) {
	case FIELD_STR:
		if (strlen(text) >= f->size) {
			gp_error_set(err, GP_EINPUT, NULL, 0, 0,
				     "%s is too long (%zu bytes; at most %zu)", f->key,
				     strlen(text), f->size - 1);
			break;
		}
		if (f->flags & FIELD_PRESET) {
			rc = set_preset(s, cat, f, text, err);
			break;
		}
		memcpy(field_ptr(s, f), text, strlen(text) + 1);
		rc = 0;
		break;
	case FIELD_BOOL:
		if (strcmp(text, "true") == 0 || strcmp(text, "false") == 0) {
			*(bool *)field_ptr(s, f) = text[0] == 't';
			rc = 0;
		} else {
			gp_error_set(err, GP_EINPUT, NULL, 0, 0,
				     "%s: '%s' is not a boolean (expected true or false)", f->key,
				     text);
		}
		break;
	case FIELD_ENUM:
	case FIELD_DTYPE: {
		int i = name_index(f->names, text);
		if (i < 0) {
			names_list(f->names, list, sizeof(list));
			gp_error_set(err, GP_EINPUT, NULL, 0, 0,
				     "%s: unknown value '%s' (expected %s)", f->key, text, list);
			break;
		}
		if (f->type == FIELD_ENUM) {
			*(int *)field_ptr(s, f) = i;
		} else {
			enum dtype d = PRECISION_AUTO; /* "auto", the one name not a dtype */
			dtype_parse(f->names[i], &d);
			*(enum dtype *)field_ptr(s, f) = d;
		}
		rc = 0;
		break;
	}
	case FIELD_TARGETS: {
		unsigned bits;
		char bad[64];
		int tw = parse_targets(text, &bits, bad, sizeof(bad));
		if (tw != 0) {
			names_list(f->names, list, sizeof(list));
			if (tw == -2)
				gp_error_set(err, GP_EINPUT, NULL, 0, 0,
					     "%s: cannot read '%s' as a list (expected [q, v] or "
					     "q, v, of %s)",
					     f->key, bad, list);
			else
				gp_error_set(err, GP_EINPUT, NULL, 0, 0,
					     "%s: unknown target '%s' (expected a list of %s)",
					     f->key, bad, list);
			break;
		}
		*(unsigned *)field_ptr(s, f) = bits;
		rc = 0;
		break;
	}
	case FIELD_INT:
	case FIELD_NUM:
		if (f->auto_ok && is_auto(text)) {
			if (f->type == FIELD_INT)
				*(int *)field_ptr(s, f) = f->auto_stored;
			else
				*(double *)field_ptr(s, f) = f->auto_stored;
			rc = 0;
			break;
		}
		if (units_parse(f->unit, text, &v, &why) != 0) {
			gp_error_set(err, GP_EINPUT, NULL, 0, 0,
				     "%s: cannot read '%s' (expected %s%s)", f->key, text, why,
				     f->auto_ok ? " or auto" : "");
			break;
		}
		if (f->type == FIELD_INT && v != floor(v)) {
			gp_error_set(err, GP_EINPUT, NULL, 0, 0,
				     "%s: '%s' is not a whole number (expected a count from %.0f "
				     "to %.0f%s)",
				     f->key, text, f->min, f->max, f->auto_ok ? " or auto" : "");
			break;
		}
		if (v < f->min || v > f->max || ((f->flags & FIELD_MAX_OPEN) && v >= f->max)) {
			char lo[32], hi[32];
			units_format_human(f->unit == UNIT_COUNT ? UNIT_NONE : f->unit, f->min, 6,
					   lo, sizeof(lo));
			units_format_human(f->unit == UNIT_COUNT ? UNIT_NONE : f->unit, f->max, 6,
					   hi, sizeof(hi));
			if (f->unit == UNIT_COUNT || f->unit == UNIT_NONE) {
				snprintf(lo, sizeof(lo), "%.15g", f->min);
				snprintf(hi, sizeof(hi), "%.15g", f->max);
			}
			if (f->flags & FIELD_MAX_OPEN)
				gp_error_set(err, GP_EINPUT, NULL, 0, 0,
					     "%s: %s is out of range (expected [%s, %s))", f->key,
					     text, lo, hi);
			else
				gp_error_set(err, GP_EINPUT, NULL, 0, 0,
					     "%s: %s is out of range (expected %s to %s%s)", f->key,
					     text, lo, hi, f->auto_ok ? " or auto" : "");
			break;
		}
		if (f->type == FIELD_INT)
			*(int *)field_ptr(s, f) = (int)v;
		else
			*(double *)field_ptr(s, f) = v;
		rc = 0;
		break;
	}
	if (rc != 0)
		gp_error_set_field(err, f->key);
	return rc;
}

/* The field key names; an unknown key names the closest known one. */
static const struct field *find_or_suggest(const char *key, struct gp_error *err)
{
	const struct field *f = scenario_field_find(key);
	const char *near;

	if (f)
		return f;
	near = scenario_field_suggest(key, NULL);
	if (near)
		gp_error_set(err, GP_EINPUT, NULL, 0, 0, "unknown key '%s' (did you mean '%s'?)",
			     key, near);
	else
		gp_error_set(err, GP_EINPUT, NULL, 0, 0,
			     "unknown key '%s' (expected a scenario field such as "
			     "workload.seq_len)",
			     key);
	return NULL;
}

int scenario_set(struct scenario *s, const struct catalog *cat, const char *key, const char *text,
		 struct gp_error *err)
{
	const struct field *f = find_or_suggest(key, err);

	return f ? scenario_field_set(s, cat, f, text, err) : -1;
}

int scenario_assignment_split(const char *kv, const struct field **f, const char **value,
			      struct gp_error *err)
{
	const char *eq = strchr(kv, '=');
	char key[128];

	if (!eq || eq == kv)
		return gp_error_set(err, GP_EUSAGE, NULL, 0, 0,
				    "'%s' is not an assignment (expected KEY=VALUE, e.g. "
				    "hardware.count=16)",
				    kv);
	if ((size_t)(eq - kv) >= sizeof(key))
		return gp_error_set(err, GP_EUSAGE, NULL, 0, 0, "key too long in '%s'", kv);
	snprintf(key, sizeof(key), "%.*s", (int)(eq - kv), kv);
	/* tolerate spaces around '=' as typed on the :set line */
	for (size_t n = strlen(key); n && key[n - 1] == ' '; n--)
		key[n - 1] = '\0';
	*value = eq + 1;
	while (**value == ' ')
		(*value)++;
	*f = find_or_suggest(key[0] == ' ' ? key + strspn(key, " ") : key, err);
	return *f ? 0 : -1;
}

char *scenario_field_format(const struct scenario *s, const struct field *f, char *buf, size_t size)
{
	const void *p = field_cptr(s, f);

	switch (f->type) {
	case FIELD_STR:
		snprintf(buf, size, "%s", (const char *)p);
		break;
	case FIELD_BOOL:
		snprintf(buf, size, "%s", *(const bool *)p ? "true" : "false");
		break;
	case FIELD_ENUM: {
		int i = *(const int *)p, n = 0;
		while (f->names[n])
			n++;
		snprintf(buf, size, "%s", i >= 0 && i < n ? f->names[i] : "?");
		break;
	}
	case FIELD_DTYPE: {
		enum dtype d = *(const enum dtype *)p;
		snprintf(buf, size, "%s", d == PRECISION_AUTO ? "auto" : dtype_name(d));
		break;
	}
	case FIELD_TARGETS: {
		unsigned bits = *(const unsigned *)p;
		size_t n = snprintf(buf, size, "[");
		int first = 1;
		for (int i = 0; f->names[i] && n < size; i++) {
			if (!(bits & (1u << i)))
				continue;
			n += snprintf(buf + n, size - n, "%s%s", first ? "" : ", ", f->names[i]);
			first = 0;
		}
		if (n < size)
			snprintf(buf + n, size - n, "]");
		break;
	}
	case FIELD_INT: {
		int v = *(const int *)p;
		if (scenario_field_is_auto(f, v))
			snprintf(buf, size, "auto");
		else
			snprintf(buf, size, "%d", v);
		break;
	}
	case FIELD_NUM: {
		double v = *(const double *)p;
		if (f->auto_ok && v == 0)
			snprintf(buf, size, "auto");
		else
			units_format(f->unit, v, buf, size);
		break;
	}
	}
	return buf;
}

bool scenario_field_equal(const struct scenario *a, const struct scenario *b, const struct field *f)
{
	const void *pa = field_cptr(a, f), *pb = field_cptr(b, f);

	switch (f->type) {
	case FIELD_STR:
		return strcmp((const char *)pa, (const char *)pb) == 0;
	case FIELD_BOOL:
		return *(const bool *)pa == *(const bool *)pb;
	case FIELD_ENUM:
	case FIELD_INT:
		return *(const int *)pa == *(const int *)pb;
	case FIELD_DTYPE:
		return *(const enum dtype *)pa == *(const enum dtype *)pb;
	case FIELD_TARGETS:
		return *(const unsigned *)pa == *(const unsigned *)pb;
	case FIELD_NUM:
		return *(const double *)pa == *(const double *)pb;
	}
	return false;
}

void scenario_init(struct scenario *s)
{
	memset(s, 0, sizeof(*s));
	s->version = SCENARIO_VERSION;
	s->model.mlp = MLP_GATED;
	s->model.norm = NORM_RMSNORM;

	s->workload.kind = WL_TRAIN;
	s->workload.precision = PRECISION_AUTO;
	s->workload.seq_len = 4096;
	s->workload.micro_batch = 1;
	s->workload.global_batch = 0;
	s->workload.optimizer = OPT_ADAMW;
	s->workload.grad_dtype = GRAD_DTYPE_AUTO;
	s->workload.recompute = RECOMPUTE_NONE;
	s->workload.flash_attention = true;
	s->workload.finetune.method = FT_LORA;
	s->workload.finetune.rank = 16;
	s->workload.finetune.targets = LORA_Q | LORA_K | LORA_V | LORA_O;
	s->workload.finetune.base_weights = DTYPE_BF16;
	s->workload.finetune.adapter_dtype = DTYPE_FP32;
	s->workload.prompt_tokens = 512;
	s->workload.output_tokens = 128;
	s->workload.batch = 1;
	s->workload.weights = DTYPE_BF16;
	s->workload.kv_cache = DTYPE_BF16;
	s->workload.peak_factor = 1;
	s->workload.engine = ENGINE_AUTO;
	/* a named serving framework brings its scheduler (vllm, trt-llm, llama.cpp: chunked;
	 * sglang: prefill-first); the default framework has none: the decode step alone */
	s->workload.scheduler = SCHED_AUTO;

	s->hardware.count = 1;
	s->hardware.gpu.gpus_per_node = 8;
	/* A modern cloud data centre: hyperscalers report 1.1-1.2, the Uptime Institute's
	 * industry-wide survey average is about 1.58 (2023). */
	s->hardware.pue = 1.2;
	/* Llama 3 paper, Table 5: 419 unexpected interruptions on 16,384 GPUs in 54 days,
	 * one per ~50,700 GPU-hours. */
	s->hardware.mtbf_gpu_hours = 50000;

	s->parallel.tp = 1;
	s->parallel.pp = 1;
	s->parallel.dp = 0;
	s->parallel.ep = 1;
	s->parallel.cp = 1;
	s->parallel.cp_comm = CP_COMM_P2P; /* Transformer Engine's and Megatron's default */
	s->parallel.ep_overlap = false;	   /* standard Megatron-LM / DeepSpeed-MoE: exposed */
	s->parallel.virtual_stages = 1;
	s->parallel.zero = ZERO_AUTO; /* the framework's: 0 for default (framework_zero) */
	s->parallel.offload = OFFLOAD_NONE;
}

int scenario_init_builtin(struct scenario *s, const struct catalog *cat, struct gp_error *err)
{
	/* a question people bring: continued pre-training of an 8B model on one H100 node,
	 * sharded FSDP-style (ZeRO-3) so that 8k-token sequences fit */
	scenario_init(s);
	snprintf(s->name, sizeof(s->name), "Llama 3.1 8B continued pre-training on 8 x H100");
	if (scenario_set(s, cat, "model.preset", "llama-3.1-8b", err) != 0 ||
	    scenario_set(s, cat, "hardware.gpu", "h100-sxm-80gb", err) != 0)
		return -1;
	s->hardware.count = 8;
	s->workload.seq_len = 8192;
	s->workload.micro_batch = 1;
	s->workload.global_batch = 512;
	s->workload.tokens = 20e9;
	s->workload.recompute = RECOMPUTE_SELECTIVE;
	s->parallel.zero = 3;
	return 0;
}

static void problem(struct gp_problems *out, const struct scenario_source *src, const char *key,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* The position of key in src (or of its section, or of the file's top); 0 without src. */
static void key_place(const struct scenario_source *src, const char *key, int *at_line, int *at_col)
{
	int line = 0, col = 0;

	/* the key itself, else its section ("parallel" for parallel.tp), else the file's top */
	if (src) {
		char k[64];
		snprintf(k, sizeof(k), "%s", key);
		for (;;) {
			for (int i = 0; i < src->nkeys && !line; i++) {
				if (strcmp(src->keys[i].key, k) == 0) {
					line = src->keys[i].line;
					col = src->keys[i].column;
				}
			}
			char *dot = strrchr(k, '.');
			if (line || !dot)
				break;
			*dot = '\0';
		}
		if (!line && src->file[0]) {
			line = 1;
			col = 1;
		}
	}
	*at_line = line;
	*at_col = col;
}

/* Adds a problem at the position of key (or of its section, or of the file). */
static void problem(struct gp_problems *out, const struct scenario_source *src, const char *key,
		    const char *fmt, ...)
{
	struct gp_error e;
	va_list ap;
	int line, col;

	key_place(src, key, &line, &col);
	va_start(ap, fmt);
	gp_error_vset(&e, GP_EINPUT, src ? src->file : NULL, line, col, fmt, ap);
	va_end(ap);
	gp_error_set_field(&e, key);
	gp_problems_add(out, &e);
}

/* " at LINE:COL" where key is written in src, else nothing: the place of the second key a
 * problem names (problem() places it at the first). */
static void key_at(const struct scenario_source *src, const char *key, char *buf, size_t size)
{
	buf[0] = '\0';
	for (int i = 0; src && i < src->nkeys; i++)
		if (strcmp(src->keys[i].key, key) == 0)
			snprintf(buf, size, " at %d:%d", src->keys[i].line, src->keys[i].column);
}

long long scenario_replica_gpus(const struct scenario *s)
{
	const struct parallel *par = &s->parallel;
	bool train = s->workload.kind == WL_TRAIN || s->workload.kind == WL_FINETUNE;
	return (long long)par->tp * par->pp * par->ep * (train && par->cp > 1 ? par->cp : 1);
}

/* The frameworks of the table that train (FW_TRAINS), serve or pipeline, in its order, as
 * "a, b or c": the expected values of a framework that cannot run the workload. */
enum fw_can { FW_TRAINS, FW_SERVES, FW_PIPELINES };
static const char *framework_list(enum fw_can can, char *buf, size_t size)
{
	int idx[FW_COUNT], n = 0;
	size_t len = 0;

	for (int f = 0; f < FW_COUNT; f++) {
		const struct framework_info *fw = framework_get(f);
		/* pp: the frameworks to switch to, so not default (the papers' pipeline) */
		if (can == FW_TRAINS   ? fw->trains
		    : can == FW_SERVES ? fw->serves
				       : fw->trains && fw->pipeline && f != FW_DEFAULT)
			idx[n++] = f;
	}
	buf[0] = '\0';
	for (int i = 0; i < n && len < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s",
					i == 0	     ? ""
					: i == n - 1 ? " or "
						     : ", ",
					framework_name(idx[i]));
	return buf;
}

/* Settings a named framework cannot run with (issue 12, Bad input): each names both
 * settings and what is accepted. What a framework quietly runs otherwise (llm.c's ZeRO-2
 * and -3 run as stage 0) is a plan warning instead (plan_memory.c). */
static void framework_conflicts(const struct scenario *s, const struct scenario_source *src,
				struct gp_problems *out, bool train)
{
	const struct parallel *par = &s->parallel;
	const struct workload *w = &s->workload;
	const char *name = framework_name(w->framework);
	enum fw_kernels k = framework_get(w->framework)->kernels;
	/* dp 0 is worked out by the plan: the ranks are not known yet (framework_zero) */
	int zero = framework_zero(
	    w->framework, par->zero,
	    par->dp > 0 ? par->dp * (par->ep > 1 ? par->ep : 1) * (par->cp > 1 ? par->cp : 1) : 0);

	/* the layouts the framework cannot run: src/framework.c's rule table, which search
	 * keeps to as well (framework_runs_layout) */
	for (int i = 0; train && framework_get(w->framework)->trains; i++) {
		const struct layout_rule *r;
		char set[96], list[160], msg[400];
		i = framework_layout_rule(i, w->framework, par->tp, par->pp, zero,
					  par->offload != OFFLOAD_NONE);
		if (i < 0)
			break;
		r = framework_layout_rule_at(i);
		if (r->kind == LAYOUT_PP)
			snprintf(set, sizeof(set), "pp %d", par->pp);
		else if (r->kind == LAYOUT_TP)
			snprintf(set, sizeof(set), "parallel.tp %d", par->tp);
		else if (r->kind == LAYOUT_OFFLOAD)
			snprintf(set, sizeof(set), "parallel.offload %s",
				 scenario_enum_name("parallel.offload", (int)par->offload));
		else
			snprintf(set, sizeof(set), "parallel.zero %d with parallel.pp %d", zero,
				 par->pp);
		if (!r->expected)
			snprintf(list, sizeof(list), "pp 1, or %s",
				 framework_list(FW_PIPELINES, msg, sizeof(msg)));
		if (r->why)
			snprintf(msg, sizeof(msg), "framework %s %s %s (%s; expected %s)", name,
				 r->head, set, r->why, r->expected ? r->expected : list);
		else
			snprintf(msg, sizeof(msg), "framework %s %s (%s; expected %s)", name,
				 r->head, set, r->expected ? r->expected : list);
		problem(out, src, r->key, "%s", msg);
	}
	/* a serving framework runs its own kernels: vLLM, SGLang and TensorRT-LLM capture
	 * CUDA graphs, llama.cpp launches its own; workload.engine may only agree */
	if (!train && w->engine != ENGINE_AUTO &&
	    ((k == FW_KERNELS_GRAPHS && w->engine != ENGINE_CUDA_GRAPHS) ||
	     (k == FW_KERNELS_LLAMACPP && w->engine != ENGINE_LLAMACPP)))
		problem(out, src, "workload.engine",
			"framework %s does not run workload.engine %s (its kernels are %s; "
			"expected engine auto or %s, or another framework)",
			name, scenario_enum_name("workload.engine", (int)w->engine),
			k == FW_KERNELS_GRAPHS ? "cuda-graphs" : "llama.cpp's",
			k == FW_KERNELS_GRAPHS ? "cuda-graphs" : "llama.cpp");
}

/* Whether the scenario's file (or an edit) wrote the field at index i of the table. */
static bool written_at(const struct scenario *s, ptrdiff_t i)
{
	return i >= 0 && i < SCENARIO_MAX_FIELDS && (s->written[i / 8] >> (i % 8) & 1);
}

/* The values written that the framework has no way to run (framework.c struct value_gap,
 * each with the framework's file that lists its choices): warnings naming the field, its
 * value and the framework, the plan running the value as written. Under the default
 * framework an inference workload on llama.cpp's kernels (plan_engine: workload.engine
 * llama.cpp, or auto on a consumer GPU) has llama.cpp's gaps, named as its engine. */
static void value_gaps(const struct scenario *s, const struct scenario_source *src,
		       struct gp_problems *out)
{
	const struct workload *w = &s->workload;
	bool infer = w->kind == WL_ONLINE || w->kind == WL_OFFLINE;
	int fw = w->framework;
	const char *who = "framework";
	const struct value_gap *g;

	if (fw == FW_DEFAULT && infer && plan_engine(s) == ENGINE_LLAMACPP) {
		fw = FW_LLAMACPP;
		who = "engine";
	}
	for (int i = 0; (g = framework_value_gap(fw, i)) != NULL; i++) {
		const struct field *f = scenario_field_find(g->key);
		char v[64];
		/* a field the workload kind ignores is warned as ignored already */
		if (!f || !written_at(s, f - scenario_fields) || !scenario_field_applies(s, f) ||
		    strcmp(scenario_field_format(s, f, v, sizeof(v)), g->value) != 0)
			continue;
		problem(out, src, g->key, "%s %s %s (%s): %s %s is planned as written", who,
			framework_name(fw), g->lacks, g->source, g->key, g->value);
	}
}

/* The online load's fields that another one overrides: requests_per_s over
 * requests_per_day (the plan's PW_RATE_OVERRIDES, its text), and peak_factor, which
 * scales requests_per_day's daily average to the peak the fleet is sized for: the arrival
 * rate requests_per_s is that peak as given (man/gpuplan-scenario.5, requests_per_s:
 * "default requests_per_day x peak_factor / 86,400"), so the factor is not applied to it. */
static void load_overrides(const struct scenario *s, const struct scenario_source *src,
			   struct gp_problems *out)
{
	const struct workload *w = &s->workload;
	const struct field *pf = scenario_field_find("workload.peak_factor");

	if (w->kind != WL_ONLINE || !(w->requests_per_s > 0))
		return;
	if (w->requests_per_day > 0) {
		struct plan_warning pw = {.code = PW_RATE_OVERRIDES,
					  .a = w->requests_per_s,
					  .b = w->requests_per_day * w->peak_factor / 86400};
		char msg[320];
		problem(out, src, "workload.requests_per_s", "%s",
			plan_warning_format(&pw, msg, sizeof(msg)));
	} else if (pf && written_at(s, pf - scenario_fields) && w->peak_factor != 1) {
		problem(out, src, "workload.peak_factor",
			"workload.peak_factor %.4g is not applied to workload.requests_per_s, "
			"which is set (ignored: requests_per_s is the arrival rate as given, the "
			"peak; peak_factor scales requests_per_day's average)",
			w->peak_factor);
	}
}

void scenario_ignored_fields(const struct scenario *s, const struct scenario_source *src,
			     struct gp_problems *out)
{
	/* a warning is placed and worded as a problem is; out holds warnings only */
	const struct workload *w = &s->workload;
	const char *kind = scenario_enum_name("workload.kind", (int)w->kind);
	const char *fw = framework_name(w->framework);

	for (int i = 0; scenario_fields[i].key; i++) {
		const struct field *f = &scenario_fields[i];
		if (i >= SCENARIO_MAX_FIELDS || !(s->written[i / 8] >> (i % 8) & 1))
			continue;
		if (f->applies && !(f->applies & 1u << w->kind))
			problem(out, src, f->key,
				"workload.kind %s%s%s does not use %s, which is set (ignored: "
				"it applies to %s workloads)",
				kind, w->framework != FW_DEFAULT ? " under framework " : "",
				w->framework != FW_DEFAULT ? fw : "", f->key,
				(f->applies & APPLIES_TRAINING) && !(f->applies & APPLIES_INFERENCE)
				    ? "training"
				: (f->applies & APPLIES_INFERENCE) == APPLIES_INFERENCE
				    ? "inference"
				: f->applies == APPLIES_ONLINE ? "online"
							       : "other");
		else if (f->frameworks && w->framework != FW_DEFAULT &&
			 !(f->frameworks & 1u << w->framework))
			problem(out, src, f->key,
				"framework %s does not use %s, which is set (ignored)", fw, f->key);
	}
	value_gaps(s, src, out);
	load_overrides(s, src, out);
	/* an NVFP4 KV cache stores E2M1 values with a scale per 16 (TensorRT-LLM's NVFP4 KV
	 * cache; vLLM's kv_cache_dtype "nvfp4", vllm/config/cache.py CacheDType; SGLang's
	 * --kv-cache-dtype fp4_e2m1) and reads them through Blackwell's FP4 path: a GPU with
	 * no FP4 tensor cores (no nvfp4 peak in the catalog) runs no such cache */
	if (w->kind == WL_ONLINE || w->kind == WL_OFFLINE) {
		const struct gpu *g = &s->hardware.gpu;
		if (w->kv_cache == DTYPE_NVFP4 && g->id[0] && !(g->peak_flops[DTYPE_NVFP4] > 0) &&
		    w->framework != FW_LLAMACPP)
			problem(out, src, "workload.kv_cache",
				"workload.kv_cache nvfp4 on %s, which has no FP4 tensor cores (no "
				"nvfp4 peak): the engines' NVFP4 KV cache needs Blackwell "
				"(expected kv_cache fp8, or a GPU with an nvfp4 peak)",
				g->id);
	}
}

/* KV-cache formats an engine does not have: llama.cpp's cache types are f32, f16, bf16,
 * q8_0, q4_0, q4_1, iq4_nl, q5_0 and q5_1 (common/arg.cpp kv_cache_types), no FP4 one
 * (its GGML_TYPE_NVFP4, ggml/include/ggml.h, is a weight type). */
static void kv_format_problems(const struct scenario *s, const struct scenario_source *src,
			       struct gp_problems *out)
{
	const struct workload *w = &s->workload;

	if ((w->kind == WL_ONLINE || w->kind == WL_OFFLINE) && w->framework == FW_LLAMACPP &&
	    w->kv_cache == DTYPE_NVFP4)
		problem(out, src, "workload.kv_cache",
			"framework llama.cpp has no nvfp4 kv cache (its cache types, "
			"common/arg.cpp kv_cache_types: f32, f16, bf16, q8_0, q4_0, q4_1, iq4_nl, "
			"q5_0, q5_1; expected kv_cache fp16, bf16, int8 or int4, or framework "
			"vllm, sglang or trtllm)");
}

void scenario_validate(const struct scenario *s, const struct scenario_source *src,
		       struct gp_problems *out)
{
	const struct model *m = &s->model;
	const struct parallel *par = &s->parallel;
	int heads = m->heads, kv = m->kv_heads ? m->kv_heads : m->heads;
	bool shaped = m->layers || m->hidden || m->heads;
	bool train = s->workload.kind == WL_TRAIN || s->workload.kind == WL_FINETUNE;
	long long span = scenario_replica_gpus(s);
	const char *span_name = train && par->cp > 1 ? "tp x pp x ep x cp" : "tp x pp x ep";

	if (!m->preset[0] && !m->hf_config[0] && m->params == 0 && !shaped)
		problem(out, src, "model",
			"no model given (expected model.preset, "
			"model.hf_config, model.params or the shape fields)");
	if (shaped) {
		if (!m->layers || !m->hidden || !heads || !m->vocab)
			problem(out, src,
				m->layers ? (m->hidden ? (heads ? "model.vocab" : "model.heads")
						       : "model.hidden")
					  : "model.layers",
				"incomplete model shape (expected layers, hidden, heads and vocab "
				"together)");
		if (heads && kv > heads)
			problem(out, src, "model.kv_heads",
				"kv_heads %d is above heads %d (expected at most heads)", kv,
				heads);
		if (heads && kv && heads % kv != 0)
			problem(out, src, "model.kv_heads",
				"heads %d are not a multiple of kv_heads %d (each key/value head "
				"serves a whole group of query heads)",
				heads, kv);
		if (heads && m->hidden && !m->head_dim && m->hidden % heads != 0)
			problem(out, src, "model.hidden",
				"hidden %d is not divisible by heads %d (give model.head_dim)",
				m->hidden, heads);
		if (!m->ffn && !m->moe.experts && m->mlpless_layers < m->layers)
			problem(out, src, "model.ffn", "no MLP size (expected model.ffn)");
		if (m->layers && m->ssm.layers + m->mixerless_layers > m->layers)
			problem(out, src, "model.ssm.layers",
				"ssm.layers %d and mixerless_layers %d are more than the %d layers",
				m->ssm.layers, m->mixerless_layers, m->layers);
		if (m->linear_blocks > m->mixerless_layers + m->mlpless_layers)
			problem(out, src, "model.linear_blocks",
				"linear_blocks %d is more than the mixerless and mlpless layers' "
				"%d blocks",
				m->linear_blocks, m->mixerless_layers + m->mlpless_layers);
		if (m->layers && m->mlpless_layers > m->layers)
			problem(out, src, "model.mlpless_layers",
				"mlpless_layers %d is more than the %d layers", m->mlpless_layers,
				m->layers);
		if (m->layers && m->sparse_layers > m->layers)
			problem(out, src, "model.sparse_layers",
				"sparse_layers %d is more than the %d layers", m->sparse_layers,
				m->layers);
		/* model_attention_window plans such layers dense: say so rather than drop them */
		if (m->sparse_layers > 0 && (m->sparse_local <= 0 || m->sparse_stride <= 0))
			problem(out, src, "model.sparse_layers",
				"sparse_layers %d needs sparse_local and sparse_stride above 0 "
				"(%s is 0)",
				m->sparse_layers,
				m->sparse_local <= 0 ? "sparse_local" : "sparse_stride");
		if (m->ssm.layers && !m->ssm.d_state)
			problem(out, src, "model.ssm.d_state",
				"state-space layers without ssm.d_state");
		if (m->ssm.heads && m->ssm.groups && m->ssm.heads % m->ssm.groups != 0)
			problem(out, src, "model.ssm.groups",
				"ssm.groups %d do not divide ssm.heads %d", m->ssm.groups,
				m->ssm.heads);
	}
	if (m->moe.experts) {
		if (m->moe.active < 1 || m->moe.active > m->moe.experts)
			problem(out, src, "model.moe.active",
				"moe.active %d must be from 1 to moe.experts %d", m->moe.active,
				m->moe.experts);
		if (!m->moe.expert_ffn)
			problem(out, src, "model.moe.expert_ffn",
				"MoE model without moe.expert_ffn");
	}
	if (!s->hardware.gpu.id[0])
		problem(out, src, "hardware.gpu",
			"no GPU given (expected hardware.gpu, a catalog id)");
	/* 0 means "not modelled"; a few bytes per second is a missing unit */
	if (s->hardware.storage_bytes_per_s > 0 && s->hardware.storage_bytes_per_s < 1e6)
		problem(out, src, "hardware.storage",
			"hardware.storage: %.6g B/s is below 1 MB/s: a bare number is bytes per "
			"second (expected a "
			"unit, e.g. 2GB/s, or 0 for not modelled)",
			s->hardware.storage_bytes_per_s);
	if (heads && shaped && heads % par->tp != 0)
		problem(
		    out, src, "parallel.tp",
		    "tp %d does not divide the %d attention heads (expected a divisor of heads)",
		    par->tp, heads);
	if (span > s->hardware.count)
		problem(out, src, "parallel.tp",
			"%s = %lld is more than the %d GPUs (expected at most hardware.count)",
			span_name, span, s->hardware.count);
	else if (s->hardware.count % span != 0)
		problem(out, src, "parallel.tp", "%s = %lld does not divide the %d GPUs", span_name,
			span, s->hardware.count);
	if (par->dp && span * par->dp > s->hardware.count)
		problem(out, src, "parallel.dp", "%s x dp = %lld is more than the %d GPUs",
			span_name, span * par->dp, s->hardware.count);
	if (m->layers && par->pp > m->layers)
		problem(out, src, "parallel.pp", "pp %d is more than the %d layers", par->pp,
			m->layers);
	if (par->ep > 1 && (!m->moe.experts || m->moe.experts % par->ep != 0))
		problem(out, src, "parallel.ep",
			"ep %d needs a MoE model whose experts it divides (experts: %d)", par->ep,
			m->moe.experts);
	/* Megatron-Core splits each sequence into 2 x cp chunks, two a rank, for the causal
	 * load balance (megatron/training/utils.py get_batch_on_this_cp_rank) */
	if (train && par->cp > 1 && s->workload.seq_len % (2 * par->cp) != 0)
		problem(out, src, "parallel.cp",
			"cp %d needs seq_len %d to split into 2 x cp = %d equal chunks (expected "
			"a seq_len divisible by %d)",
			par->cp, s->workload.seq_len, 2 * par->cp, 2 * par->cp);
	if (par->virtual_stages > 1 && par->pp < 2)
		problem(out, src, "parallel.virtual_stages",
			"virtual_stages %d needs pipeline parallelism (pp at least 2)",
			par->virtual_stages);
	else if (par->virtual_stages > 1 && m->layers &&
		 (long long)par->pp * par->virtual_stages > m->layers)
		/* each model chunk of the interleaved schedule holds a layer at least
		 * (Narayanan et al. 2021, Section 2.2.2) */
		problem(out, src, "parallel.virtual_stages",
			"pp x virtual_stages = %lld model chunks is more than the %d layers "
			"(expected at most %d virtual stages)",
			(long long)par->pp * par->virtual_stages, m->layers, m->layers / par->pp);
	if (par->sequence_parallel && par->tp < 2)
		problem(out, src, "parallel.sequence_parallel",
			"sequence_parallel needs tensor parallelism (tp at least 2)");
	{
		/* a framework that cannot run the workload (framework.c says what each runs) */
		const struct framework_info *fw = framework_get(s->workload.framework);
		const char *name = framework_name(s->workload.framework);
		char list[160];
		if (train && !fw->trains)
			problem(
			    out, src, "workload.framework",
			    "framework %s cannot run workload.kind %s (it serves only; expected "
			    "%s)",
			    name, scenario_enum_name("workload.kind", s->workload.kind),
			    framework_list(FW_TRAINS, list, sizeof(list)));
		else if (!train && !fw->serves)
			problem(
			    out, src, "workload.framework",
			    "framework %s cannot run workload.kind %s (it trains only; expected "
			    "%s)",
			    name, scenario_enum_name("workload.kind", s->workload.kind),
			    framework_list(FW_SERVES, list, sizeof(list)));
		framework_conflicts(s, src, out, train);
		kv_format_problems(s, src, out);
	}
	{
		/* speculative decoding: K >= 1 drafted tokens accepted each with a in [0, 1)
		 * (Leviathan et al. 2023: the expected tokens a step, (1 - a^(K+1)) / (1 - a),
		 * need a < 1); a separate draft model needs its size and depth */
		const struct speculative *sp = &s->workload.speculative;
		if (sp->method != SPEC_NONE && sp->tokens < 1)
			problem(out, src, "workload.speculative.tokens",
				"speculative.method %s drafts no token (expected "
				"speculative.tokens of at least 1, or method none)",
				scenario_enum_name("workload.speculative.method", (int)sp->method));
		if (!(sp->acceptance < 1))
			problem(out, src, "workload.speculative.acceptance",
				"speculative.acceptance %g is not below 1 (expected a chance in "
				"[0, 1): at 1 every drafted token would be accepted)",
				sp->acceptance);
		if (sp->method == SPEC_NONE && sp->acceptance > 0) {
			/* no draft, nothing to accept: the rate would be read and ignored */
			char at[48] = "";
			key_at(src, "workload.speculative.method", at, sizeof(at));
			problem(out, src, "workload.speculative.acceptance",
				"speculative.acceptance %g without a speculative method "
				"(speculative.method is none%s; expected a method: draft, mtp, "
				"eagle or ngram, or acceptance 0)",
				sp->acceptance, at);
		}
		if (sp->method == SPEC_DRAFT && !(sp->draft_params > 0))
			problem(out, src, "workload.speculative.draft_params",
				"speculative.method draft needs the draft model's size (expected "
				"speculative.draft_params, e.g. 1B)");
		if (sp->method == SPEC_DRAFT && sp->draft_layers < 1)
			problem(out, src, "workload.speculative.draft_layers",
				"speculative.method draft needs the draft model's depth (expected "
				"speculative.draft_layers, e.g. 16)");
	}
	if (s->workload.kind == WL_ONLINE && s->workload.concurrency > 0 &&
	    s->workload.requests_per_s > 0) {
		/* a closed loop's arrivals are its completions (each client sends when the last
		 * request ends), so an open rate beside it is a second, different load */
		char at[48] = "";
		key_at(src, "workload.requests_per_s", at, sizeof(at));
		problem(out, src, "workload.concurrency",
			"workload.concurrency %d (a closed loop) and workload.requests_per_s %g%s "
			"(open arrivals) are two different loads (expected one: concurrency 0 "
			"for the arrival rate, or requests_per_s 0 for the closed loop, whose "
			"fleet then covers requests_per_day)",
			s->workload.concurrency, s->workload.requests_per_s, at);
	}
	if ((s->workload.prefill_engines > 0 || s->workload.decode_engines > 0) &&
	    s->workload.scheduler != SCHED_DISAGG)
		problem(out, src,
			s->workload.prefill_engines > 0 ? "workload.prefill_engines"
							: "workload.decode_engines",
			"prefill_engines and decode_engines split a disaggregated deployment "
			"(expected workload.scheduler disaggregated)");
	if (s->workload.scheduler == SCHED_DISAGG && s->workload.prefill_engines > 0 &&
	    s->workload.decode_engines > 0 &&
	    (double)(s->workload.prefill_engines + s->workload.decode_engines) *
		    (s->parallel.tp > 0 ? s->parallel.tp : 1) *
		    (s->parallel.pp > 0 ? s->parallel.pp : 1) >
		(double)s->hardware.count)
		problem(out, src, "workload.decode_engines",
			"%d prefill + %d decode engines of tp x pp GPUs are more than the %d GPUs "
			"(expected hardware.count of at least their GPUs)",
			s->workload.prefill_engines, s->workload.decode_engines, s->hardware.count);
	if (train && s->workload.recompute_method == RECOMPUTE_UNIFORM &&
	    s->workload.recompute != RECOMPUTE_FULL)
		/* Megatron takes --recompute-method only with --recompute-granularity full */
		problem(out, src, "workload.recompute_method",
			"recompute_method uniform checkpoints whole chunks of layers (expected "
			"workload.recompute full, or recompute_method block)");
	if (s->workload.host_kv_cache > 0 && !(s->workload.prefix_cache_tokens > 0))
		/* what the host tier holds only matters against what there is to hold */
		problem(out, src, "workload.host_kv_cache",
			"host_kv_cache needs the prefix tokens it would hold (expected "
			"workload.prefix_cache_tokens, e.g. 2M: the distinct system prompts and "
			"histories the hits are drawn from)");
	if (s->workload.prefix_cache_tokens > 0 && !(s->workload.prefix_cache_hit > 0))
		problem(
		    out, src, "workload.prefix_cache_tokens",
		    "prefix_cache_tokens without a hit rate (expected workload.prefix_cache_hit "
		    "above 0)");
	for (int i = 0; i < 2; i++) {
		/* a length law needs its parameters, and only those; its mean is the
		 * workload's prompt_tokens or output_tokens */
		const struct length_law *d =
		    i ? &s->workload.output_length : &s->workload.prompt_length;
		const char *base = i ? "workload.output_length" : "workload.prompt_length";
		const char *mean_key = i ? "output_tokens" : "prompt_tokens";
		double mean = i ? s->workload.output_tokens : s->workload.prompt_tokens;
		char k[64];
		bool uni = d->dist == DIST_UNIFORM, logn = d->dist == DIST_LOGNORMAL;
		const char *name = scenario_enum_name(i ? "workload.output_length.dist"
							: "workload.prompt_length.dist",
						      (int)d->dist);
		if (!uni && (d->min > 0 || d->max > 0)) {
			snprintf(k, sizeof(k), "%s.%s", base, d->min > 0 ? "min" : "max");
			problem(out, src, k,
				"%s: dist %s takes no min or max (expected dist uniform for "
				"bounds)",
				base, name);
		}
		if (!logn && d->sigma > 0) {
			snprintf(k, sizeof(k), "%s.sigma", base);
			problem(out, src, k,
				"%s: dist %s takes no sigma (expected dist lognormal for it)", base,
				name);
		}
		if (logn && !(d->sigma > 0)) {
			snprintf(k, sizeof(k), "%s.sigma", base);
			problem(out, src, k,
				"%s: dist lognormal needs sigma above 0 (the log's standard "
				"deviation, e.g. 0.8)",
				base);
		}
		if (uni && !(d->max > d->min && d->min >= 1)) {
			snprintf(k, sizeof(k), "%s.%s", base, d->min >= 1 ? "max" : "min");
			problem(out, src, k,
				"%s: dist uniform needs 1 <= min < max (got min %g, max %g)", base,
				d->min, d->max);
		} else if (uni && fabs((d->min + d->max) / 2 - mean) > 0.5) {
			snprintf(k, sizeof(k), "workload.%s", mean_key);
			problem(out, src, k,
				"%s %g is not the mean of uniform %g to %g (expected %s %g)",
				mean_key, mean, d->min, d->max, mean_key, (d->min + d->max) / 2);
		}
		if (d->dist != DIST_FIXED && !(mean >= 1)) {
			snprintf(k, sizeof(k), "workload.%s", mean_key);
			problem(out, src, k, "%s: dist %s needs a mean %s of at least 1", base,
				name, mean_key);
		}
	}
	if (s->workload.kind == WL_FINETUNE && s->workload.finetune.method == FT_QLORA &&
	    s->workload.finetune.base_weights != DTYPE_NF4 &&
	    s->workload.finetune.base_weights != DTYPE_INT4)
		problem(out, src, "workload.finetune.base_weights",
			"qlora keeps a 4-bit base (expected nf4 or int4, got %s)",
			dtype_name(s->workload.finetune.base_weights));
}
