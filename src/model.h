/* model.h - a transformer's architecture and its exact parameter count.
 *
 * A struct model holds the architecture as the scenario file gives it (after any preset or
 * Hugging Face config has filled it in). All fields are plain values, so a copy is an
 * assignment. A zero shape field means "not given".
 */
#ifndef GPUPLAN_MODEL_H
#define GPUPLAN_MODEL_H

#include <stdbool.h>

#include "dtype.h"

enum mlp_kind { MLP_GATED, MLP_PLAIN };		 /* SwiGLU/GeGLU (3 matrices) | GELU (2 matrices) */
enum norm_kind { NORM_RMSNORM, NORM_LAYERNORM }; /* weight only | weight and bias */

struct moe_shape {
	int experts;	  /* routed experts per MoE layer; 0 = dense model */
	int active;	  /* routed experts per token (top-k) */
	int shared;	  /* shared experts, always active (DeepSeek, Qwen2-MoE) */
	int expert_ffn;	  /* intermediate size of one routed expert */
	int shared_ffn;	  /* intermediate size of one shared expert; 0 = expert_ffn */
	int dense_layers; /* leading layers with a dense MLP of size ffn (DeepSeek-V3: 3) */
	bool shared_gate; /* a sigmoid gate on the shared experts' output, a bias-free
			   * hidden x 1 linear (Qwen2-MoE's shared_expert_gate) */
};

struct mla_shape {    /* multi-head latent attention (DeepSeek-V2/V3); kv_rank 0 = not MLA */
	int q_rank;   /* q_lora_rank; 0 = queries projected directly */
	int kv_rank;  /* kv_lora_rank */
	int rope_dim; /* qk_rope_head_dim */
	int nope_dim; /* qk_nope_head_dim */
	int v_dim;    /* v_head_dim */
};

/* The format a checkpoint stores its weights in, as its quantization_config says
 * (hf_quant.c); set is false for a 16-bit checkpoint. A scenario that uses the model starts
 * its workload.weights, expert_weights and weight_group from it (scenario.c), and keeps
 * the embedding and head bf16 where embed_16 says so (workload.embedding_weights: auto). */
struct model_quant {
	bool set;
	enum dtype weights; /* the quantized linear layers (or bf16 when only experts are) */
	enum dtype experts; /* the routed experts (gpt-oss: mxfp4 with weights bf16) */
	bool embed_16;	    /* embedding and lm_head left 16-bit (modules_to_not_convert, ignore,
			     * exclude_modules; Hugging Face quantizers replace nn.Linear only) */
	bool attn_16;	    /* the attention projections left 16-bit (the config's list of
			     * unconverted modules names self_attn: hf_quant.c) */
	int group;	    /* GPTQ/AWQ/compressed-tensors group_size; -1 per output channel;
			     * 0 = none given */
	/* A layout other than GPTQ's (dtype_weight_bytes), applied to the checkpoint's own
	 * format: bits a weight is stored in (HQQ 3-bit: 3.2) and bits a group stores beside
	 * its weights (HQQ: an fp16 scale and an fp16 zero, 32); 0 = GPTQ's */
	double elem_bits, group_bits;
};

/* State-space mixers (Mamba, Gu and Dao 2023, arXiv 2312.00752; Mamba-2, Dao and Gu 2024,
 * arXiv 2405.21060) in place of attention in `layers` of the layers; layers 0 = none. The
 * modules are those of transformers' modeling_mamba.py, modeling_falcon_mamba.py,
 * modeling_mamba2.py, modeling_jamba.py and NVIDIA's modeling_nemotron_h.py. */
struct ssm_shape {
	int layers;	/* layers whose mixer is a state-space block */
	int d_state;	/* N, the state size per channel (16 Mamba, 128 Mamba-2) */
	int d_conv;	/* the causal conv1d's kernel (4); 0 = 4 */
	int expand;	/* d_inner = expand x hidden when d_inner is 0; 0 = 2 */
	int d_inner;	/* the mixer's inner width (Nemotron-H: heads x head_dim); 0 = expand x h */
	int heads;	/* Mamba-2 heads (head_dim = d_inner / heads); 0 = Mamba-1 */
	int groups;	/* Mamba-2 groups of B and C (n_groups); 0 = 1 */
	int dt_rank;	/* Mamba-1 rank of the step projection; 0 = ceil(hidden / 16) */
	bool proj_bias; /* biases on in_proj and out_proj (use_bias) */
	bool no_conv_bias; /* the conv1d without its bias (use_conv_bias false) */
	bool dt_norms;	   /* RMSNorms with weights on the step, B and C (Jamba) */
	/* The mixer is a Gated DeltaNet (Yang, Kautz and Hatamizadeh 2024, arXiv 2412.06464;
	 * Qwen3-Next's linear_attn, modeling_qwen3_next.py Qwen3NextGatedDeltaNet), not a
	 * Mamba block: heads = linear_num_value_heads, groups = linear_num_key_heads,
	 * d_state = linear_key_head_dim, d_inner = value heads x linear_value_head_dim. Its
	 * state per layer is then value heads x key dim x value dim = d_inner x d_state and
	 * its conv runs over q, k and v, d_inner + 2 x groups x d_state channels, as
	 * Mamba-2's over x, B and C. */
	bool gated_delta;
};

struct model {
	char preset[48];     /* catalog id the fields came from, or "" */
	char hf_config[256]; /* config.json path as written in the scenario, or "" */
	double params;	     /* total parameters when given by size; 0 = count from the shape */
	int layers;
	int hidden;
	int heads;
	int kv_heads; /* GQA/MQA; 0 = heads */
	int head_dim; /* 0 = hidden / heads */
	int ffn;      /* MLP intermediate size (dense layers) */
	int vocab;
	enum mlp_kind mlp;
	enum norm_kind norm;
	bool tied_embeddings;
	bool attention_bias; /* biases on q, k, v and o */
	int max_context;
	struct moe_shape moe;
	struct mla_shape mla;
	/* Details that make counts exact; Hugging Face import fills them. */
	bool qkv_bias;		 /* biases on q, k, v only (Qwen2) */
	bool mlp_bias;		 /* biases on the MLP matrices (GPT-2, OPT, BLOOM, Falcon-RW) */
	bool qk_norm;		 /* per-head norm on q and k (Qwen3) */
	int norms_per_layer;	 /* 0 = 2 (pre-attention, pre-MLP); Gemma 2 has 4 */
	int position_embeddings; /* learned absolute positions (GPT-2 1024, OPT 2050); 0 = none */
	bool embedding_norm;	 /* a norm right after the embedding (BLOOM) */
	bool parallel_block;	 /* attention and MLP read the same input (GPT-J, Falcon) */
	int sliding_window;	 /* tokens one layer attends to; 0 = all */
	/* With sliding_window: how many layers attend over the whole context all the same
	 * (Gemma 3: 1 in 6, gpt-oss: 1 in 2, Llama 4 and Cohere 2: 1 in 4); the others keep
	 * only sliding_window tokens. 0 = every layer is windowed (Mistral 7B). */
	int global_layers;
	/* The windowed layers attend within fixed chunks of sliding_window tokens (Llama 4's
	 * attention_chunk_size), not over the last sliding_window tokens. */
	bool chunked_attention;
	/* Block-sparse attention (Phi-3-small; Phi-3 report, arXiv 2404.14219, Section 2):
	 * sparse_layers of the layers let a query see the sparse_local tokens of its local
	 * blocks and, beyond them, one block in every sparse_stride; the others are dense.
	 * Their K/V cache keeps every token (the heads pick different blocks). 0 = none. */
	int sparse_layers;
	int sparse_local;
	int sparse_stride;
	/* Dropout during training (GPT-2/GPT-3/OPT style: attention, residual and embedding
	 * dropout with 1-byte masks kept for backward, Korthikanti et al. 2023 Section 4).
	 * false for modern Llama-style models, which train without dropout. */
	bool dropout;
	int embed_dim;	      /* token embedding width when it differs from hidden, with a
			       * project_in/project_out pair (OPT-350m word_embed_proj_dim);
			       * 0 = hidden */
	bool no_final_norm;   /* no norm after the last layer (OPT-350m, post-LN) */
	bool head_bias;	      /* a bias on the output head, vocab wide (Phi-1/1.5/2, GPT-J,
			       * PhiMoE) */
	bool qk_norm_full;    /* with qk_norm: the q and k norms span the whole projection,
			       * heads x head_dim and kv_heads x head_dim (OLMo 2, Cohere),
			       * not one head */
	bool attention_sinks; /* one learned sink logit per head per layer (gpt-oss) */
	bool router_bias;     /* a bias on the MoE router, one per expert (gpt-oss) */
	bool attention_gate;  /* a sigmoid gate on the attention output, as wide as q: q_proj
			       * projects to 2 x heads x head_dim (Qwen3-Next attn_output_gate,
			       * modeling_qwen3_next.py Qwen3NextAttention) */

	/* The checkpoint's stored format (quantization_config). */
	struct model_quant quant;
	struct ssm_shape ssm;
	/* Layers that are not attention + MLP (hybrids): of the `layers`, how many have no
	 * mixer at all (Nemotron-H's MLP-only '-' layers; DeciLM's no_op attention) and how
	 * many no MLP (every Mamba layer; Nemotron-H's 'M' and '*' layers). The attention
	 * layers are layers - ssm.layers - mixerless_layers; the MLP layers layers -
	 * mlpless_layers, of which moe.dense_layers are dense when there are experts. */
	int mixerless_layers;
	int mlpless_layers;
	/* DeciLM (Llama-Nemotron NAS): of those, the blocks replaced by one bias-free hidden x
	 * hidden linear (replace_with_linear), attention or MLP. A layer without a block has
	 * no norm for it: norms_per_layer / 2 fewer (modeling_decilm.py, DeciLMDecoderLayer;
	 * Nemotron-H's and Mamba's one norm a layer is the same rule). */
	int linear_blocks;
	/* The sum of the dense MLPs' intermediate sizes when they differ from layer to layer
	 * (DeciLM's per-block ffn_mult); 0 = ffn in each. ffn is then their average. */
	double ffn_sum;
	/* The sum of the attention layers' K/V heads when they differ from layer to layer
	 * (DeciLM's per-block n_heads_in_group: Llama-3.1-Nemotron-51B has 8, 4, 2 and 1);
	 * 0 = kv_heads in each. kv_heads is then their average rounded up to a divisor of
	 * the heads, which the layers' shapes use; the parameter count and the plan's KV
	 * cache (plan_memory.c) take the sum. */
	int kv_sum;
	/* A multimodal checkpoint's vision tower and projector (hf_family.c counts them from
	 * vision_config): outside every count above and outside params, but loaded beside the
	 * language model by a serving engine, so a serving plan holds them (plan_memory.c).
	 * 0 = none. */
	double vision_params;
};

/* Parameter counts in parameters (not bytes). */
struct model_params {
	double total;	  /* every parameter, embeddings and output head included */
	double active;	  /* used per token: non-expert + top-k routed + shared experts */
	double embedding; /* input embedding (+ learned positions) */
	double head;	  /* output projection; 0 when tied */
	double attention; /* one layer's attention matrices, biases and q/k norms */
	double mlp;	  /* one dense layer's MLP; 0 when every layer is MoE */
	double expert;	  /* one routed expert */
	double router;	  /* one MoE layer's router */
	double shared;	  /* one MoE layer's shared experts, all of them */
	double norms;	  /* one layer's norms */
	double ssm;	  /* one state-space mixer (in_proj, conv1d, dt, A, D, norm, out_proj) */
	double attention_one; /* one attention layer's own; `attention` is the mixers' average
			       * over the layers when some are state-space or have none */
	double mlp_one;	      /* one dense MLP; `mlp` is the average over the non-MoE layers */
	double final_norm;    /* outside the layers besides embedding and head: the final norm
			       * (and OPT-350m's project_out) */
	double largest_layer; /* the largest single module's own parameters, as DeepSpeed's
			       * ZeRO-3 estimator counts it (largest_layer_params: usually the
			       * embedding or a single projection matrix) */
};

/* Fills out with the architecture the plan uses: the shape fields as given, or, for a
 * model given only by `params` (params > 0 with layers or hidden missing), the standard
 * shape documented in model.c (a Llama-style decoder whose count matches params; params is
 * kept, so the reported total is exactly params). *assumed (when not NULL) says whether
 * the shape was assumed. kv_heads, head_dim, norms_per_layer and moe.shared_ffn are filled
 * in from their defaults. in and out may be the same. Never fails. */
void model_resolve(const struct model *in, struct model *out, bool *assumed);

/* As model_resolve, but only the architecture: out->preset and out->hf_config are left as
 * they are (the plan keeps the shape; the names stay in the scenario). Saves copying the
 * 300 bytes of names on every plan. */
void model_resolve_shape(const struct model *in, struct model *out, bool *assumed);

/* Exact parameter counts of a resolved model (defaults are applied here too, but a model
 * given only by params counts nothing until model_resolve gives it a shape). When
 * m->params is set and the shape was given too, total is m->params and the other figures
 * are scaled to match. Pure arithmetic: no allocation, no loop over layers. */
void model_count_params(const struct model *m, struct model_params *out);

/* How many layers have a mixture-of-experts MLP (0 for a dense model); the others have a
 * dense MLP of size ffn. */
int model_moe_layers(const struct model *m);

/* KV-cache elements per token per layer: 2 x kv_heads x head_dim, or for MLA
 * kv_rank + rope_dim (DeepSeek-V2 paper, Section 2.1); for a hybrid averaged over the
 * layers, the layers without attention keeping none. */
double model_kv_elems_per_token_layer(const struct model *m);

/* Layers with attention: layers - ssm.layers - mixerless_layers (at least 0). */
int model_attention_layers(const struct model *m);

/* The share of the layers that attend: attention layers / layers (1 without hybrids). */
double model_attention_share(const struct model *m);

/* Layers with an MLP (dense or MoE): layers - mlpless_layers. */
int model_mlp_layers(const struct model *m);

/* The recurrent state one sequence holds over all state-space layers, in elements; it does
 * not grow with the context. Per layer the conv state (d_conv - 1) x conv_dim, conv_dim
 * being d_inner + 2 x groups x d_state for Mamba-2 (modeling_mamba2.py, Mamba2Cache
 * conv_states) and d_inner for Mamba-1, and the SSM state heads x head_dim x d_state =
 * d_inner x d_state for either (Mamba-2 paper Section 3: the state h of N per channel;
 * Mamba paper Algorithm 2: (B, D, N)). *conv_out (may be NULL) gets the conv part. */
double model_ssm_state_elems(const struct model *m, double *conv_out);

/* Forward FLOPs per token of the state-space layers' scans, all of them, beyond their
 * projections (which 2 x params counts). Mamba-1: the selective scan, 9 d_inner N + d_inner
 * (state-spaces/mamba issue #110, as VMamba's flops_selective_scan_fn counts it). Mamba-2:
 * with recurrent (decode), the state update and read-out, 5 d_inner N (Mamba-2 paper
 * Section 3, h = a h + B x, y = C h); else the chunked SSD algorithm of chunks of Q = 256
 * tokens (Mamba2Config chunk_size; paper Section 6): C B^T per group, 2 Q N G, its product
 * with X, 2 Q P per head, and the chunk states in and out, 4 N P per head. Gated DeltaNet
 * (ssm.gated_delta): 7 dk dv per value head recurrent, else flash-linear-attention's chunked
 * form in chunks of 64 (model.c). */
double model_ssm_flops_per_token(const struct model *m, bool recurrent);

/* The bytes the state-space layers' scans move through HBM per token, forward, all of them,
 * act bytes an activation (the fused kernels keep the running state on chip). Mamba-1
 * (mamba_ssm csrc/selective_scan/selective_scan_fwd_kernel.cuh): u, delta and z in, d_inner
 * each, B and C, N each, and out, d_inner. Mamba-2 (mamba_ssm ops/triton/ssd_combined.py
 * _mamba_chunk_scan_combined_fwd) and Gated DeltaNet (fla chunk_gated_delta_rule_fwd): x, B,
 * C and dt in (q, k, v, g and beta), y out, and the chunk states, d_inner N / chunk fp32 a
 * token, written by chunk_state and read back by state_passing and chunk_scan. Its tensor
 * core FLOPs (Mamba-2, Gated DeltaNet) or CUDA core FLOPs (Mamba-1) are
 * model_ssm_flops_per_token's. 0 without SSM layers. */
double model_ssm_scan_bytes_per_token(const struct model *m, double act);

/* The state-space mixer's inner width d_inner (0 without SSM layers). */
double model_ssm_inner(const struct model *m);

/* The output width of the state-space mixer's input projections, the GEMM that carries
 * most of its FLOPs: Mamba-1 2 d_inner (x and z; its small x_proj and dt_proj left out),
 * Mamba-2 2 d_inner + 2 G N + H (z, x, B, C, dt), Gated DeltaNet 2 d_inner + 2 G N + 2 H
 * (in_proj_qkvz and in_proj_ba); 0 without SSM layers. */
double model_ssm_in_width(const struct model *m);

/* How many layers attend over a sliding window (or chunk) of sliding_window tokens: 0
 * without a window, else layers - global_layers (at least 0). */
int model_local_layers(const struct model *m);

/* The attention FLOPs' keys as a window and the share of layers that see the whole
 * context: keys(k) = k when window <= 0 or k <= window, else global k + (1 - global)
 * window. Sliding windows and chunks: window = sliding_window, global = the layers outside
 * model_local_layers. Block-sparse layers count as 1 / sparse_stride of a global layer
 * and the rest windowed at sparse_local (model.c). */
void model_attention_window(const struct model *m, double *window, double *global);

/* The same for the KV cache a decode step reads: a block-sparse layer's query heads that
 * share a KV head pick different blocks of it, so it is read at min(r, stride /
 * gcd(step, stride)) / stride of its remote blocks for r query heads a KV head and step
 * = max(1, stride / heads) (vLLM's blocksparse pattern; model.c). */
void model_kv_read_window(const struct model *m, double *window, double *global);

/* The share of a seq-token sequence that the KV cache holds, averaged over the layers:
 * (global x seq + local x min(seq, local_tokens)) / (layers x seq), local_tokens being
 * what one windowed layer keeps (the window; an engine may keep more, see
 * plan_memory.c). 1 without a window or when seq <= local_tokens. The KV cache of a
 * sequence is then layers x share x seq tokens' worth. */
double model_kv_share(const struct model *m, double seq, double local_tokens);

#endif
