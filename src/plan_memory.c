/* plan_memory.c - the memory model: what the most loaded GPU holds, itemized.
 *
 * Everything here is pure arithmetic on the scenario: no allocation, no I/O, no loops over
 * layers.
 *
 * Conventions
 * - Bytes per GPU, for the most loaded GPU: with pipeline parallelism the first stage
 *   (input embedding, most micro-batches in flight) or the last (output head and loss),
 *   whichever holds more.
 * - Layout: GPUs = tp x pp x ep x dp (gpuplan-scenario(5),
 *   parallel.dp: auto = count / (tp x pp x ep)). Expert
 *   parallelism is carved out of the data-parallel ranks as in Megatron-Core: the tp x pp
 *   slot's dp x ep GPUs all hold the same non-expert weights and read different data, so
 *   the data replicas are dp x ep; each routed expert lives on one of ep ranks and is
 *   replicated dp times. ZeRO shards non-expert states over dp x ep and expert states
 *   over dp.
 * - Context parallelism (training, parallel.cp) multiplies the GPUs: tp x pp x ep x cp x dp
 *   (Megatron-Core's world, megatron/core/parallel_state.py initialize_model_parallel,
 *   order tp-cp-ep-dp-pp). The cp ranks of a replica split each sequence and read the same
 *   sequences, so they add no data replica, but they hold the same weights and
 *   all-reduce their gradients with the data-parallel ranks: Megatron's gradient buffers
 *   and distributed optimizer use the data-parallel group with context parallelism
 *   (parallel_state.get_data_parallel_group(with_context_parallel=True) in
 *   megatron/core/distributed/distributed_data_parallel.py and optimizer/__init__.py), so
 *   ZeRO shards over dp x ep x cp (non-expert) and dp x cp (experts).
 */
#include "plan.h"

#include <math.h>
#include <string.h>

#include "dtype.h"
#include "framework.h"

/* CUDA context, cuBLAS/cuDNN workspaces and kernel images resident on each GPU. PyTorch
 * issue 20532 and the CUDA lazy-loading notes (CUDA 11.7+) measure 0.3-1 GB after the first
 * matmul depending on the CUDA version and libraries; we take the middle of that range. */
#define CUDA_CONTEXT_BYTES 0.75e9

/* PyTorch's caching allocator rounds blocks up (512 B, 2 MiB segments for large blocks) and
 * cannot always reuse freed blocks of another size. Measured slack between reserved and
 * allocated memory ranges from a few percent (static inference: vLLM's PagedAttention
 * paper, Section 6, reports under 4% KV waste) to 10-30% in training with recomputation or
 * offload (GMLake, Guo et al., ASPLOS 2024, Figure 2). A planning figure: 5% of what is
 * allocated. */
#define FRAGMENTATION PLAN_FRAGMENTATION

/* NCCL keeps per-peer, per-channel receive buffers for each communicator: NCCL_BUFFSIZE
 * (default 4 MiB, Simple protocol; NCCL environment variable docs) x channels (up to 16 on
 * NVLink systems by default) x 2 ring peers. One such set per process group with more than
 * one rank (tp, pp, data-parallel, ep). LL/LL128 buffers come on top; this is the bulk. */
#define NCCL_BUFFSIZE 4194304.0
#define NCCL_CHANNELS 16.0
#define NCCL_PEERS    2.0

/* GPUs joined by PCIe alone get far fewer channels: NCCL rates a PCIe link at width x
 * speed / 80 GB/s, 24 for Gen4 x16 and 48 for Gen5 (src/graph/topo.cc, kvDictPciGen), and
 * its ring search (src/graph/search.cc ncclTopoCompute, speedArrayIntra) fits 2 channels
 * of 12 GB/s into Gen4's 24, not duplicated below 25 GB/s a channel (ncclTopoDupChannels),
 * then doubled once for the communicator (src/graph/connect.cc ncclTopoPostset): 4. */
#define NCCL_CHANNELS_PCIE 4.0

/* ZeRO-3 gathers each layer's parameters before use and prefetches the next one: DeepSpeed's
 * estimator (estimate_zero3_model_states_mem_needs) counts 4 bytes x the largest layer's
 * parameters, i.e. two layers' worth of 16-bit weights live at once. */
#define ZERO3_LIVE_LAYERS 2.0

/* DeepSpeed's reduce_bucket_size default, elements (deepspeed/runtime/zero/config.py
 * DeepSpeedZeroConfig.reduce_bucket_size = 5e8). */
#define DS_REDUCE_BUCKET 5e8

/* vLLM's profile run batches max_num_seqs = 256 dummy sequences (vllm/config.py
 * SchedulerConfig); the sampler keeps fp32 logits for the last token of each. */
#define PROFILE_SEQS 256.0

/* Activation offloading keeps this many layers' stored activations on the GPU: the layer
 * in the backward and the next one prefetched (torchtune OffloadActivations, use_streams:
 * the backward's hook brings the next layer's tensors back on a side stream). */
#define ACT_OFFLOAD_LAYERS 2.0

/* Quantized formats' bytes a weight, with their scales: dtype_weight_bytes (dtype.c). */

static double dmin(double a, double b)
{
	return a < b ? a : b;
}

static double dmax(double a, double b)
{
	return a > b ? a : b;
}

static int imax(int a, int b)
{
	return a > b ? a : b;
}

/* Bytes per element of a stored activation. fp8 training (Transformer Engine) casts GEMM
 * inputs to fp8 on the fly but keeps the residual stream, norms and most saved tensors in
 * bf16, so fp8 counts as 2 bytes here. */
static double act_bytes(enum dtype t)
{
	return (t == DTYPE_FP32 || t == DTYPE_TF32) ? 4 : 2;
}

/* Bytes per weight of a stored format, with its scales (dtype_weight_bytes); the
 * checkpoint's own layout (HQQ's, hf_quant.c) where t is the checkpoint's format. */
static double weight_bytes(enum dtype t, const struct model *m, int group)
{
	const struct model_quant *q = &m->quant;
	bool own = q->set && (t == q->weights || t == q->experts);

	return dtype_weight_bytes(t, m->hidden, group, own ? q->elem_bits : 0,
				  own ? q->group_bits : 0);
}

/* KV-cache bytes per element: int8/int4 caches carry an fp16 scale and zero point per
 * head vector (LMDeploy's per-head, per-token KV quantization); fp8 a per-tensor scale. */
static double kv_elem_bytes(enum dtype t, double head_dim)
{
	double extra = head_dim > 0 ? 32.0 / head_dim / 8.0 : 0;
	if (t == DTYPE_INT8)
		return 1.0 + extra;
	if (t == DTYPE_INT4 || t == DTYPE_NF4)
		return 0.5 + extra;
	return dtype_bytes(t);
}

/* Optimizer-state bytes per trainable parameter. With 16-bit weights the optimizer keeps
 * an fp32 master copy (ZeRO paper, Section 5: K = 12 for Adam: master, momentum,
 * variance); with fp32 weights there is no separate master (EleutherAI, "Transformer Math
 * 101"): AdamW 8, 8-bit Adam 2 (two one-byte moments; Dettmers et al. 2022), SGD with
 * momentum 4. The master copy and the moments' dtype are resolved (a framework's defaults
 * or the explicit fields): master 4 B or none; AdamW's two moments, SGD's one, in fp32
 * (4 B) or bf16 (2 B: torchtune keeps torch AdamW's states in the bf16 parameters' dtype);
 * 8-bit Adam's two one-byte moments whatever the dtype. Mixed-precision AdamW is 12 B,
 * pure bf16 AdamW 4 B (a third). */
static double optimizer_bytes_fw(enum optimizer o, bool fp32_weights, enum master_weights mw,
				 enum optimizer_states st)
{
	double master = fp32_weights || mw == MASTER_NONE ? 0 : 4;
	double moment = st == STATES_BF16 ? 2 : 4;
	switch (o) {
	case OPT_ADAMW:
		return master + 2 * moment;
	case OPT_ADAM8BIT:
		return master + 2;
	case OPT_SGD:
		return master + moment;
	default:
		return 0;
	}
}

/* The frameworks' 8-bit Adam quantises each moment block-wise with one fp32 absmax per
 * 256 values: bitsandbytes Optimizer2State.init_state (bitsandbytes/optim/optimizer.py,
 * 0.44: blocks = n // 256, absmax1 and absmax2 in fp32) and torchao's AdamW8bit
 * (torchao/prototype/low_bit_optim/adam.py block_size=256, OptimState8bit.zeros: one fp32
 * scale a block). 2 x 4 / 256 B a parameter beside the two one-byte moments; the papers'
 * 2 B (Dettmers et al. 2022 count the moments only) stays under the default framework. */
#define ADAM8BIT_SCALE_BYTES (2 * 4.0 / 256)

/* The bytes per parameter of the moments an optimizer keeps in CUDA managed memory under
 * workload.optimizer_states paged: bitsandbytes' paged optimizers allocate each state of
 * a tensor of 1e5 values or more with F.get_paged (cudaMallocManaged) instead of on the
 * device (Optimizer8bit.get_state_buffer, bitsandbytes/optim/optimizer.py): the two
 * one-byte moments of PagedAdamW8bit, the two fp32 ones of PagedAdamW (32-bit states:
 * get_state_buffer(p, dtype=torch.float32)). Its absmax blocks and the master copy stay
 * on the device. bitsandbytes has no paged SGD: its momentum is counted as paged alike. */
static double optimizer_paged_bytes(enum optimizer o)
{
	switch (o) {
	case OPT_ADAMW:
		return 8;
	case OPT_ADAM8BIT:
		return 2;
	case OPT_SGD:
		return 4;
	default:
		return 0;
	}
}

/* Heads held by one tensor-parallel rank; K/V heads are replicated when tp exceeds them
 * (Megatron-LM and vLLM keep at least one K/V head per rank). */
static double local_heads(double heads, double t)
{
	return heads >= t ? heads / t : (heads > 0 ? 1 : 0);
}

/* The same with it = 1 / t, for the hot path. */
static double local_heads_r(double heads, double t, double it)
{
	return heads >= t ? heads * it : (heads > 0 ? 1 : 0);
}

struct act_in {
	double e;      /* bytes per stored activation element */
	double mask;   /* bytes per dropout-mask element: 1, or 0 without dropout */
	double s;      /* sequence length */
	double t;      /* tensor-parallel size */
	double it;     /* 1 / t */
	double rt;     /* divisor of the tensors Megatron replicates across tp: t with SP, else 1 */
	double inv_rt; /* 1 / rt */
	bool flash;
	enum recompute rc;
	double lora_attn; /* LoRA: rank x adapted attention matrices */
	double lora_mlp;  /* LoRA: rank x adapted MLP matrices (per expert in MoE layers) */
	bool frozen;	  /* LoRA/QLoRA: base weights take no gradient */
	unsigned targets; /* LoRA target bits (enum lora_target) */
	bool eager;	  /* eager PyTorch layer code (act_eager_token) */
	bool compiled;	  /* torch.compile'd layers (act_op_unread_token) */
	bool lora_drop;	  /* LoRA dropout before lora_a (act_lora_dropout_token) */
	bool fp8_te;	  /* fp8 through Transformer Engine: linear inputs saved in fp8 */
	bool fp8_attn;	  /* and its attention core too (workload.fp8_scope all) */
	bool fp8_ao;	  /* fp8 through torchao's Float8Linear (tensorwise) */
};

/* Whether a linear layer's input is kept for backward: only to compute its weight's
 * gradient (dX = dY W needs W, not X). PyTorch's mm/addmm save their input only when the
 * weight requires grad (pytorch/pytorch#42371, fixed by #45777), bitsandbytes' 4-bit matmul
 * never saves it, so frozen layers keep it only for their LoRA adapter's A matrix. */
static bool keeps_input(const struct act_in *a, unsigned targets)
{
	return !a->frozen || (a->targets & targets) != 0;
}

/* Stored activations of one transformer layer, bytes per token (multiply by s x b),
 * derived tensor by tensor as Korthikanti et al. ("Reducing Activation Recomputation in
 * Large Transformer Models", MLSys 2023, Section 4.1) do for a GPT-3 layer, from which this
 * reduces exactly to their s b h (34 + 5 a s / h) and its tensor/sequence-parallel and
 * selective-recompute variants (Table 2):
 *   each norm's input                          e h        (x2: 4 s b h)
 *   attention: QKV input (norm output)         e h        (2)
 *              Q, K (for Q K^T)                e (q + k)  (4)
 *              V                               e v        (2)
 *              softmax output                  e a s      (2 a s)
 *              dropout mask, dropout output    (1 + e) a s (3 a s), with dropout only
 *              output-projection input         e q        (2)
 *              dropout mask                    1 h        (1)
 *   MLP:       first linear input              e h        (2)
 *              plain: activation in and out    2 e f      (16 with f = 4h)
 *              gated: gate and up (the fused fc1 output) and the down-projection input:
 *                     3 e f (Megatron's fused SwiGLU recomputes the SiLU in backward)
 *              dropout mask                    1 h        (1)
 * Tensors inside the tensor-parallel region (Q, K, V, scores, projections' inner sides, the
 * MLP intermediate) are split across tp; the rest are replicated unless sequence
 * parallelism splits them too. FlashAttention stores no score matrices, only its fp32
 * log-sum-exp per head (Dao et al. 2022, Algorithm 2). Selective recompute drops the score
 * terms (Korthikanti Section 4.2); full recompute keeps only the layer input. GQA shrinks
 * K and V; MLA stores its latents and per-head Q/K/V; a MoE layer stores its router
 * probabilities (fp32), each token's k dispatched copies before and after its experts and
 * the experts' intermediates (dropless routing, balanced over ep ranks). With a frozen base
 * (LoRA, QLoRA) the inputs of linear layers without an adapter are not kept
 * (keeps_input); each adapter adds its rank-r intermediate. */
/* Attention scores without FlashAttention, bytes per token of one layer: the softmax
 * output e a s, and with dropout its mask and output (1 + e) a s (Korthikanti: 5 a s / h
 * of the 34 + 5 a s / h); heads_l = this rank's heads. */
static double act_scores_token(double heads_l, const struct act_in *a)
{
	return heads_l * a->s * (a->e + (a->mask > 0 ? a->mask + a->e : 0));
}

/* PyTorch per-op selective checkpointing, torchtitan's `op` policy
 * (torchtitan/parallelisms/parallelize_llama.py, _apply_ac_to_transformer_block): each
 * block is checkpointed with a policy that saves the outputs of the ops in _save_list
 * (aten.mm, the flash/efficient SDPA kernels, reduce_scatter, max) except every second
 * aten.mm (mm_count % 2 == 0, the count kept per block), and recomputes norms, rotary,
 * activations and elementwise ops. A layer's matmuls run q, k, v, o, then gate, up, down
 * (plain MLP: fc1, fc2), so the 1st, 3rd, 5th and 7th are saved: q, v, gate (fc1) and
 * down; plus the block's input, the attention kernel's output and its fp32 log-sum-exp.
 * Bytes per token; MLA takes its per-head q and v widths, a MoE layer its k routed and
 * shared experts' gate and down outputs. */
/* What the `op` policy keeps eagerly and a compiled layer does not, bytes per token of one
 * layer (subtracted from act_layer_op_token's count when a->compiled). Eager, SAC's
 * _CachingTorchDispatchMode stores the output of every op its policy calls MUST_SAVE,
 * whether or not the backward reads it ("if policy in (MUST_SAVE, PREFER_SAVE) or
 * is_compiling: self.storage[func].append(...)", torch/utils/checkpoint.py), until the
 * layer's recomputation pops it. Under torch.compile (torchtitan's apply_compile compiles
 * each checkpoint-wrapped TransformerBlock, parallelize_llama.py) the same policy only
 * tags the traced nodes (fx_traceback.current_meta["recompute"]), and AOTAutograd's
 * partitioner saves the nodes its min cut crosses between the forward and the nodes the
 * backward needs (torch/_functorch/partitioners.py solve_min_cut: MUST_SAVE bans a
 * node's recomputation, should_ban_recomputation; PREFER_RECOMPUTE forces it,
 * must_recompute): a MUST_SAVE output that no backward node reads is on no path to the
 * sink and is not saved. Of the saved matmuls (q, v, gate, down) only the last one's
 * output, the MLP's down projection, feeds nothing but the residual add, whose backward
 * reads no input: e h (sequence-parallel, / rt). A MoE layer's shared experts' down
 * outputs are likewise summed unweighted; the routed ones stay, read by the gradient of
 * the scores that weight them. A plain MLP's fc2 is the 6th matmul, not saved at all.
 * What is left is what the backward reads (the block's input, q, v, the attention
 * kernel's output and log-sum-exp, the gate): the pointwise ops between (the norms, the
 * rotary embedding, SiLU, the product) are recomputed in fused kernels either way. */
static double act_op_unread_token(const struct model *m, const struct act_in *a, bool moe)
{
	double h = m->hidden;
	if (moe && m->moe.experts > 0)
		return a->e * m->moe.shared * h * a->inv_rt;
	return m->mlp == MLP_GATED ? a->e * h * a->inv_rt : 0;
}

static double act_layer_op_token(const struct model *m, const struct act_in *a, bool moe)
{
	double e = a->e, h = m->hidden;
	double heads_l = local_heads_r(m->heads, a->t, a->it);
	double q, v, ffn_saved, down;

	if (m->mla.kv_rank > 0) {
		q = heads_l * (m->mla.nope_dim + m->mla.rope_dim);
		v = heads_l * m->mla.v_dim;
	} else {
		q = heads_l * m->head_dim;
		v = local_heads_r(m->kv_heads, a->t, a->it) * m->head_dim;
	}
	if (moe && m->moe.experts > 0) {
		double k = m->moe.active + m->moe.shared;
		double f = m->moe.expert_ffn;
		ffn_saved = k * f * a->it;
		down = k * h; /* each routed copy's down output, before the weighted sum */
	} else {
		ffn_saved = (double)m->ffn * a->it;
		down = m->mlp == MLP_GATED ? h : 0; /* plain MLP: fc2 is the 6th matmul */
	}
	return e * h * a->inv_rt		      /* the block's input */
	       + e * (q + v + q) + 4 * heads_l	      /* q, v, the attention output, its lse */
	       + e * ffn_saved + e * down * a->inv_rt /* gate (fc1) and down outputs */
	       + e * (a->lora_attn * a->inv_rt + a->lora_mlp) -
	       (a->compiled ? act_op_unread_token(m, a, moe) : 0);
}

/* What eager PyTorch layer code keeps beyond the fused-kernel count of act_layer_token,
 * bytes per token of one layer, read off torchtune's modules (torchtune/modules/
 * rms_norm.py, attention.py, feed_forward.py; transformers' modeling_llama.py is alike):
 * - each RMSNorm upcasts its input, x.float(), and pow and mul save that fp32 copy, then
 *   `x_normed * self.scale` saves the normed tensor before the scale: (4 - e) h more for
 *   the input and e h for the normed copy, 4 h a norm whatever e. Under a frozen base
 *   (LoRA, QLoRA) the scale takes no gradient, so mul saves only the scale: (4 - e) h;
 * - GQA: K and V are expanded to every query head, k.unsqueeze(2).expand(...).flatten(1,
 *   2), a copy, which the attention kernel saves: 2 e d (heads - kv_heads), frozen or not;
 * - the kernel saves its output and `output.transpose(1, 2).contiguous()` is a second
 *   copy, the output projection's input, kept when that projection's weight or its LoRA
 *   adapter trains (keeps_input): e d heads (FlashAttention-style kernels);
 * - a gated MLP, w2(silu(w1(x)) * w3(x)): SiLU saves its input and the product saves
 *   SiLU's output and the up projection, then w2 saves the product: one e f more than the
 *   fused SwiGLU (Megatron's bias_swiglu recomputes the SiLU), frozen or not (the product
 *   needs both factors for the input's gradient). A MoE layer's experts run the same
 *   SwiGLU on their routed copies (torchtitan/models/moe.py _run_experts_grouped_mm and
 *   FeedForward for the shared experts; torchtune/modules/moe/experts.py GroupedExperts;
 *   transformers' MixtralBlockSparseTop2MLP): e (k f_expert + shared f_shared). The
 *   router's fp32 softmax and the dispatched copies are in the compiled count already
 *   (transformers scores the expert outputs in bf16, torchtune the gathered inputs: no
 *   copy beyond the count);
 * - LoRALinear (torchtune/modules/peft/lora.py forward): lora_a(dropout(x)) saves x, the
 *   base layer's input, already counted (keeps_input), and lora_b saves lora_a's rank-r
 *   output (lora_attn, lora_mlp in the count); dropout is nn.Identity at the configs'
 *   lora_dropout 0.0, so it keeps nothing, and the scaling and the sum save nothing.
 * torch.compile's partitioner recomputes these pointwise ops instead (the compiled count
 * is act_layer_token's). Standard attention (MLA keeps its own shapes). */
static double act_eager_token(const struct model *m, const struct act_in *a, bool moe)
{
	double norms = m->norms_per_layer > 0 ? m->norms_per_layer : 2;
	double heads_l = local_heads_r(m->heads, a->t, a->it), extra;
	extra = (a->frozen ? 4.0 - a->e : 4.0) * norms * m->hidden * a->inv_rt;
	if (m->mla.kv_rank <= 0) {
		double kv_l = local_heads_r(m->kv_heads, a->t, a->it);
		extra += 2 * a->e * m->head_dim * dmax(0, heads_l - kv_l);
		if (a->flash && keeps_input(a, LORA_O))
			extra += a->e * m->head_dim * heads_l;
	}
	if (m->mlp != MLP_GATED)
		return extra;
	if (moe && m->moe.experts > 0) {
		double sffn = m->moe.shared_ffn > 0 ? m->moe.shared_ffn : m->moe.expert_ffn;
		extra += a->e * (m->moe.active * m->moe.expert_ffn + m->moe.shared * sffn) * a->it;
	} else {
		extra += a->e * m->ffn * a->it;
	}
	return extra;
}

/* LoRA dropout (workload.finetune.dropout > 0), bytes per token of one layer: LoRALinear
 * computes lora_a(self.dropout(x)) with an nn.Dropout of its own (torchtune/modules/peft/
 * lora.py; LoRAGroupedExperts' _lora_tc_layer_forward for MoE experts; PEFT's
 * lora_dropout alike), so each adapted matrix keeps
 * - its dropout mask, native_dropout's bool mask, 1 B per input element, compiled or not
 *   (the partitioner cannot recompute a random mask: functorch's functionalize_rng_ops
 *   is off by default);
 * - eager, its own dropout output, which lora_a saves in place of the shared input x (the
 *   frozen base's F.linear saves nothing of x): e per input element, beyond the one copy
 *   per distinct input that the count holds (keeps_input); compiled, the outputs are
 *   recomputed from x and the masks.
 * Inputs: q, k, v and the MLP's gate and up read the norm's output (h; MLA's q reads its
 * q latent, k and v the kv latent), o the attention output, down the intermediate (split
 * by tp); a MoE layer's routed experts see k dispatched copies, its shared experts one. */
static double act_lora_dropout_token(const struct model *m, const struct act_in *a, bool moe)
{
	unsigned tg = a->targets;
	double h = m->hidden, heads_l = local_heads_r(m->heads, a->t, a->it);
	double repl = 0, repl_one = 0, split = 0; /* summed inputs; distinct replicated ones */
	double n_gu = ((tg & LORA_GATE) && m->mlp == MLP_GATED) + ((tg & LORA_UP) != 0);
	double down = (tg & LORA_DOWN) != 0;

	if (m->mla.kv_rank > 0) {
		double q_in = m->mla.q_rank > 0 ? m->mla.q_rank : h;
		double n_kv = ((tg & LORA_K) != 0) + ((tg & LORA_V) != 0);
		repl += ((tg & LORA_Q) != 0) * q_in + n_kv * m->mla.kv_rank;
		repl_one += ((tg & LORA_Q) != 0) * q_in + (n_kv > 0) * m->mla.kv_rank;
		if (tg & LORA_O)
			split += heads_l * m->mla.v_dim;
	} else {
		double n_qkv = ((tg & LORA_Q) != 0) + ((tg & LORA_K) != 0) + ((tg & LORA_V) != 0);
		repl += n_qkv * h;
		repl_one += (n_qkv > 0) * h;
		if (tg & LORA_O)
			split += heads_l * m->head_dim;
	}
	/* the o and down inputs are one adapter's each: the mask, and eager nothing more */
	double split_masks = split;
	if (moe && m->moe.experts > 0) {
		double k = m->moe.active;
		double sffn = m->moe.shared_ffn > 0 ? m->moe.shared_ffn : m->moe.expert_ffn;
		repl += (k + m->moe.shared) * n_gu * h;
		repl_one += (k + m->moe.shared) * (n_gu > 0) * h;
		split_masks += down * (k * m->moe.expert_ffn + m->moe.shared * sffn) * a->it;
	} else {
		repl += n_gu * h;
		repl_one += (n_gu > 0) * h;
		split_masks += down * m->ffn * a->it;
	}
	return (repl + (a->eager ? a->e * (repl - repl_one) : 0)) * a->inv_rt + split_masks;
}

static double act_layer_token(const struct model *m, const struct act_in *a, enum recompute rc,
			      bool moe);

/* Attention-only checkpointing (workload.recompute attention): OLMo-core's
 * TransformerActivationCheckpointingMode.selected_modules with modules
 * ["blocks.*.attention"] (olmo_core/nn/transformer/model.py apply_activation_checkpointing)
 * wraps each block's attention module, called on the norm's output (h = x +
 * attention(attention_norm(x))), in PyTorch's checkpoint_wrapper
 * (torch/distributed/algorithms/_checkpoint/checkpoint_wrapper.py): the module keeps only
 * its input, the norm's output, and runs its forward again in the backward. So the layer
 * stores what it does without recomputation less everything inside the attention module:
 * Q, K, V (and their norms), the kernel's output and log-sum-exp or the scores, the output
 * projection's input, eager code's GQA copies, the LoRA adapters of q, k, v and o with
 * their dropout masks; the norms' inputs, the residual dropout masks and the MLP stay.
 * Megatron-Core's recompute_modules "core_attn" (megatron/core/transformer/
 * transformer_config.py) is Korthikanti's selective (workload.recompute selective), not
 * this. The norm's output is kept in the activation dtype, also under Transformer
 * Engine's fp8 (the cast is inside the checkpointed module). A layer without attention
 * stores as without recomputation (its attention adapters, which it cannot have, left
 * out, so that a hybrid's parts in act_hybrid_token stay apart). */
static double act_attention_ckpt_token(const struct model *m, const struct act_in *a, bool moe)
{
	struct model na;
	struct act_in b = *a;
	bool shared_in, in_qkv;
	double kept;

	b.targets &= ~(unsigned)(LORA_Q | LORA_K | LORA_V | LORA_O);
	b.lora_attn = 0;
	if (!(m->heads > 0) && !(m->mla.kv_rank > 0))
		return act_layer_token(m, &b, RECOMPUTE_NONE, moe);
	na = *m;
	na.heads = na.kv_heads = 0;
	na.mla.kv_rank = 0;
	na.qk_norm = false;
	kept = act_layer_token(&na, &b, RECOMPUTE_NONE, moe);
	shared_in = m->parallel_block && m->norms_per_layer == 1;
	in_qkv = keeps_input(&b, LORA_Q | LORA_K | LORA_V);
	if (in_qkv && b.fp8_te && !moe)
		kept += (a->e - 1) * m->hidden * a->inv_rt; /* bf16, not TE's fp8 copy */
	if (!in_qkv &&
	    !(shared_in && keeps_input(&b, m->mlp == MLP_GATED ? LORA_GATE | LORA_UP : LORA_UP)))
		kept += a->e * m->hidden * a->inv_rt; /* the checkpoint's input */
	return kept;
}

static double act_layer_token(const struct model *m, const struct act_in *a, enum recompute rc,
			      bool moe)
{
	double h = m->hidden, e = a->e, t = a->t;
	double repl = 0, split = 0;
	double norms = m->norms_per_layer > 0 ? m->norms_per_layer : 2;
	double heads_l = local_heads_r(m->heads, t, a->it);
	double nm;

	if (rc == RECOMPUTE_FULL)
		return e * h * a->inv_rt;
	if (rc == RECOMPUTE_OP)
		return act_layer_op_token(m, a, moe);
	if (rc == RECOMPUTE_ATTENTION)
		return act_attention_ckpt_token(m, a, moe);

	bool shared_in = m->parallel_block && norms == 1; /* attention and MLP share it */
	bool in_qkv = keeps_input(a, LORA_Q | LORA_K | LORA_V);
	bool in_o = a->flash || keeps_input(a, LORA_O); /* FlashAttention saves its output */
	bool in_up = keeps_input(a, m->mlp == MLP_GATED ? LORA_GATE | LORA_UP : LORA_UP);
	bool in_down = keeps_input(a, LORA_DOWN);

	repl += norms * e * h; /* norm inputs */
	if (in_qkv || (shared_in && in_up))
		repl += e * h; /* attention input (norm output) */
	if (m->mla.kv_rank > 0) {
		double qk = m->mla.nope_dim + m->mla.rope_dim;
		if (m->mla.q_rank > 0) /* q latent: norm input, and norm output for q_b */
			repl += e * m->mla.q_rank * (1 + keeps_input(a, LORA_Q));
		/* kv latent and rotary key (norm input), normed latent (kv_b input) */
		repl += e * (m->mla.kv_rank + m->mla.rope_dim) +
			e * m->mla.kv_rank * keeps_input(a, LORA_K | LORA_V);
		split += e * heads_l * (2 * qk + m->mla.v_dim); /* Q, K, V */
		split += e * heads_l * m->mla.v_dim * in_o;	/* o input */
	} else {
		double kv_l = local_heads_r(m->kv_heads, t, a->it);
		split += e * m->head_dim * (heads_l + 2 * kv_l); /* Q, K, V */
		split += e * m->head_dim * heads_l * in_o;	 /* o input */
		if (m->qk_norm)
			split += e * m->head_dim * (heads_l + kv_l);
	}
	if (a->flash)
		split += 4 * heads_l;
	else if (rc != RECOMPUTE_SELECTIVE)
		split += act_scores_token(heads_l, a);
	repl += a->mask * h; /* attention output dropout */
	if (!shared_in && in_up)
		repl += e * h; /* MLP input (norm output) */
	/* MLP intermediates per unit of ffn: gate and up (or the activation input), plus the
	 * down-projection input when its weight or adapter trains */
	nm = (m->mlp == MLP_GATED ? 2 : 1) + in_down;
	if (moe && m->moe.experts > 0) {
		double k = m->moe.active;
		double sffn = m->moe.shared_ffn > 0 ? m->moe.shared_ffn : m->moe.expert_ffn;
		repl += 4.0 * m->moe.experts;	 /* router probabilities, fp32 */
		repl += k * e * h * (1 + in_up); /* dispatched copies out of (and into) experts */
		split += k * nm * e * m->moe.expert_ffn * a->it;
		split += m->moe.shared * nm * e * sffn * a->it;
		split += e * (k + m->moe.shared) * a->lora_mlp;
	} else {
		split += nm * e * m->ffn * a->it;
		split += e * a->lora_mlp;
	}
	repl += a->mask * h; /* MLP output dropout */
	repl += e * a->lora_attn;
	if (a->eager)
		split += act_eager_token(m, a, moe);
	if (a->lora_drop)
		split += act_lora_dropout_token(m, a, moe);
	/* fp8 linears save their GEMM inputs' 1-byte casts for the backward, not the 16-bit
	 * inputs. Dense layers, what a layer stores without recomputation (and what a rebuilt
	 * one holds); MoE experts (grouped GEMMs) as counted.
	 * - Transformer Engine (megatron/core/extensions/transformer_engine.py):
	 *   LayerNormLinear and LayerNormMLP save their inputs as fp8
	 *   (transformer_engine/pytorch/module/layernorm_linear.py ln_out, layernorm_mlp.py
	 *   the activation's output): the fused QKV's and fc1's inputs take 1 byte instead
	 *   of e.
	 * - torchao's Float8Linear under the tensorwise recipe
	 *   (torchao/float8/float8_linear.py Float8Linear.forward): each linear casts its own
	 *   input and manual_float8_matmul_with_args_in_float8 saves that cast (and the
	 *   weight's, stage_memory). torchtitan's and torchtune's q, k and v are three
	 *   linears (wq, wk, wv; q_proj, k_proj, v_proj), so the attention norm's 16-bit
	 *   output gives way to three 1-byte casts; the MLP norm's to the gate's and up's
	 *   two (fc1's one).
	 * Under both the down projection's input, saved by nothing else, takes 1 byte, and
	 * the output projection saves its own cast beside the attention kernel's 16-bit
	 * output, which the kernel saves itself. */
	if ((a->fp8_te || a->fp8_ao) && !moe && m->mla.kv_rank <= 0) {
		if (a->fp8_te) {
			repl -= (e - 1) * h * (in_qkv + (!shared_in && in_up));
		} else {
			double n_up = m->mlp == MLP_GATED ? 2 : 1;
			repl += ((3 - e) * in_qkv * (m->heads > 0) + (n_up - e) * in_up) * h *
				!shared_in;
		}
		split -= (e - 1) * m->ffn * a->it * in_down;
		split += m->head_dim * heads_l * in_o;
	}
	/* The attention core in fp8 too (workload.fp8_scope all: Megatron's
	 * --fp8-dot-product-attention, the recipe's fp8_dpa): Transformer Engine's FusedAttnFunc
	 * (transformer_engine/pytorch/attention/dot_product_attention/backends.py, forward)
	 * saves fp8_tensors = (q_fp8, k_fp8, v_fp8, out_fp8) for the backward when it runs
	 * in fp8 and no 16-bit q, k, v, out: Q, K, V and the kernel's output take 1 byte,
	 * in every layer with attention (cuDNN's fused kernel: no scores, as flash). So
	 * `all` stores less than `linear` under Megatron; the linears are as above. */
	if (a->fp8_te && a->fp8_attn && a->flash && m->heads > 0 && m->mla.kv_rank <= 0) {
		double kv_l = local_heads_r(m->kv_heads, t, a->it);
		split -= (e - 1) * m->head_dim * (heads_l + 2 * kv_l + heads_l * in_o);
	}
	return repl * a->inv_rt + split;
}

/* What one state-space mixer saves for its backward beyond its input (the in_proj input,
 * counted with the block's norm), bytes per token; every tensor lies inside the
 * tensor-parallel region (the mixer's heads and inner width are split over tp).
 * - Mamba-1, mamba_ssm's MambaInnerFn (ops/selective_scan_interface.py; checkpoint_lvl 1
 *   recomputes conv1d_out and delta): xz, the in_proj output (2 d_inner), x_dbl (dt_rank +
 *   2 N), the contiguous B and C copies (2 N), the scan output `out` (d_inner), and the
 *   selective scan's fp32 scan_intermediates, d_inner x 2 N floats per chunk of 2048 tokens
 *   (csrc/selective_scan, kChunkSize); out_z, the out_proj input, is recomputed.
 * - Mamba-2, MambaSplitConv1dScanCombinedFn (ops/triton/ssd_combined.py): zxbcdt, the
 *   in_proj output (2 d_inner + 2 G N + H), out_x, the scan output (d_inner), and the gated
 *   norm's fp32 rstd per group; the chunk states and the out_proj input are recomputed.
 * - Gated DeltaNet (Qwen3-Next's PyTorch module around flash-linear-attention's
 *   ChunkGatedDeltaRuleFunction, fla/ops/gated_delta_rule/chunk.py): the in_proj outputs
 *   (2 G N + 2 d_inner + 2 H), the conv's q, k and v (2 G N + d_inner), the kernel's A, one
 *   64-wide row per head and token, g in fp32 and beta, the output o (the gated norm's
 *   input) and the norm's output (out_proj's input), d_inner each. */
static double act_ssm_token(const struct model *m, const struct act_in *a)
{
	double e = a->e, di = model_ssm_inner(m), N = m->ssm.d_state, H = m->ssm.heads;
	double G = m->ssm.groups > 0 ? m->ssm.groups : 1, k;

	if (m->ssm.heads <= 0) {
		double R = m->ssm.dt_rank > 0 ? m->ssm.dt_rank : ceil(m->hidden / 16.0);
		k = e * (3 * di + R + 4 * N) + 8 * di * N / 2048;
	} else if (m->ssm.gated_delta) {
		k = e * (2 * di + 2 * G * N + 2 * H) + e * (2 * G * N + di) + e * H * 64 +
		    (4 + e) * H + 2 * e * di;
	} else {
		k = e * (3 * di + 2 * G * N + H) + 4 * G;
	}
	return k * a->it;
}

/* Stored activations per token of a hybrid's layers (state-space mixers, layers without
 * attention or without an MLP: model.h), from act_layer_token's parts, which add up: with
 * T a whole attention + MLP layer, the attention part is T less the layer without heads,
 * the MLP part T less the layer without an MLP, and what is left without both, the norms'
 * inputs, the blocks' inputs and their dropout masks, is two blocks' worth, one block B.
 * Each attention, state-space and MLP block then counts its part and one B (a DeciLM
 * linear block, its B alone: its input); the mixers are spread evenly over the layers, so
 * *dense and *moe are the averages that make Ld x dense + Lm x moe exact. Full
 * recomputation keeps each layer's input whatever it holds, and torchtitan's per-op policy
 * is counted as for a transformer layer. */
static void act_hybrid_token(const struct model *m, const struct act_in *a, enum recompute rc,
			     double *dense, double *moe, double *blocks)
{
	struct model no_attn = *m, no_mlp = *m, none;
	double t_d = act_layer_token(m, a, rc, false), t_m = act_layer_token(m, a, rc, true);
	double attn, mlp_d, mlp_m, blk, mixer;
	int L = m->layers, na = model_attention_layers(m), nm = model_mlp_layers(m);
	int nmoe = model_moe_layers(m), ld = L - nmoe;

	no_attn.heads = no_attn.kv_heads = 0;
	no_attn.mla.kv_rank = 0;
	no_attn.qk_norm = false;
	no_mlp.ffn = 0;
	no_mlp.moe.experts = 0;
	none = no_attn;
	none.ffn = 0;
	none.moe.experts = 0;
	blk = act_layer_token(&none, a, rc, false) / 2;
	attn = t_d - act_layer_token(&no_attn, a, rc, false);
	mlp_d = t_d - act_layer_token(&no_mlp, a, rc, false);
	mlp_m = t_m - act_layer_token(&no_mlp, a, rc, true);
	mixer = (na * (attn + blk) + m->ssm.layers * (act_ssm_token(m, a) + blk) +
		 (m->linear_blocks > 0 ? m->linear_blocks : 0) * blk) /
		L;
	*moe = mixer + mlp_m + blk;
	*dense = mixer + (ld > 0 ? (double)(nm - nmoe) / ld * (mlp_d + blk) : 0);
	if (blocks) { /* each block's bytes per token, for the explanation (plan.h) */
		blocks[PLAN_BLOCK_ATTENTION] = attn + blk;
		blocks[PLAN_BLOCK_SSM] = act_ssm_token(m, a) + blk;
		blocks[PLAN_BLOCK_LINEAR] = blk;
		blocks[PLAN_BLOCK_MLP] = mlp_d + blk;
		blocks[PLAN_BLOCK_MOE] = mlp_m + blk;
		blocks[PLAN_BLOCK_INPUT] = blk;
	}
}

/* One layer's stored activations per token, dense (*dense) and MoE (*moe), each pointer
 * NULL when not wanted: a transformer layer's (act_layer_token) or, for a hybrid under no
 * or selective recomputation, its layers' average (act_hybrid_token). */
static void act_layers_token(const struct model *m, const struct act_in *a, enum recompute rc,
			     double *dense, double *moe, double *blocks)
{
	bool hybrid = m->ssm.layers > 0 || m->mixerless_layers > 0 || m->mlpless_layers > 0;
	double d, mo;

	if (hybrid && m->layers > 0 &&
	    (rc == RECOMPUTE_NONE || rc == RECOMPUTE_SELECTIVE || rc == RECOMPUTE_ATTENTION)) {
		act_hybrid_token(m, a, rc, &d, &mo, blocks);
		if (dense)
			*dense = d;
		if (moe)
			*moe = mo;
		return;
	}
	if (dense)
		*dense = act_layer_token(m, a, rc, false);
	if (moe)
		*moe = act_layer_token(m, a, rc, true);
}

/* Working set of one layer's forward pass during inference, bytes per token: the residual
 * stream and norm output plus the larger of the attention and MLP intermediates (nothing
 * is kept for a backward pass). ctx is the number of keys each query sees (score matrices
 * without FlashAttention). */
static double act_infer_token(const struct model *m, double e, double t, double ctx, bool flash)
{
	double heads_l = local_heads(m->heads, t);
	double nm = m->mlp == MLP_GATED ? 3 : 2;
	double attn, mlp;

	if (m->mla.kv_rank > 0)
		attn =
		    e * heads_l * (2.0 * (m->mla.nope_dim + m->mla.rope_dim) + 2.0 * m->mla.v_dim);
	else
		attn = e * m->head_dim * (2 * heads_l + 2 * local_heads(m->kv_heads, t));
	if (!flash)
		attn += e * heads_l * ctx;
	mlp = e * nm * m->ffn / t;
	if (m->moe.experts > 0) {
		double sffn = m->moe.shared_ffn > 0 ? m->moe.shared_ffn : m->moe.expert_ffn;
		mlp = dmax(mlp,
			   e * nm *
			       (m->moe.active * (double)m->moe.expert_ffn + m->moe.shared * sffn) /
			       t);
	}
	return 2 * e * m->hidden + dmax(attn, mlp);
}

struct stage {
	bool first, last;
	double layers, dense, moe; /* layers on the stage, of which dense and MoE */
};

/* Everything the per-stage computation needs, resolved once. */
struct mctx {
	const struct scenario *s;
	enum dtype precision; /* plan.precision: workload.precision with auto resolved */
	const struct model *m;
	const struct model_params *c;
	int tp, pp, dp, ep, cp, vs, zero;
	double replicas; /* data replicas: dp x ep (cp ranks read the same sequences) */
	/* reciprocals of tp, of the ZeRO divisors (replicas for the non-expert part, dp for
	 * the routed experts): divisions are most of this hot path's time */
	double inv_tp, inv_rne, inv_rex;
	bool training, lora, sp;
	double L, Ld, Lm;	/* layers: all, dense, MoE */
	double stage_layers;	/* layers on the loaded stage: ceil(L / pp) */
	double shared_layer;	/* shared-expert parameters of one MoE layer */
	double other;		/* final norm and anything else outside the layers */
	double tied_copy;	/* tied embeddings with pp > 1: the last stage's copy */
	double w_b, g_b, o_b;	/* bytes per param: weights; trainable grads and optimizer */
	double we_b;		/* inference: the routed experts' weight bytes per param */
	double emb_b;		/* inference: the embedding and head's */
	double attn_b;		/* inference: the attention projections' */
	double attn_share;	/* inference: of `attention`, the attention layers' own */
	double norm_b;		/* the norms' (16-bit when the linears are quantized) */
	double base_b, embed_b; /* LoRA/QLoRA: frozen base; its embedding and head */
	double ad_b;		/* LoRA/QLoRA: bytes per adapter parameter */
	double ad_o_b;		/* LoRA/QLoRA: optimizer bytes per adapter parameter */
	double o_paged_b;	/* of o_b: the moments in CUDA managed memory (paged) */
	double ad_layer_dense, ad_layer_moe_ne, ad_layer_expert; /* adapter params per layer */
	double micro_batches;
	struct act_in act;
	double b; /* micro-batch */
	double kv_elem_b;
	double trainable;	   /* trainable parameters, whole model */
	double per_dense, per_moe; /* training: one layer's activations, one micro-batch */
	double rebuilt; /* training: a recomputed layer's extra tensors, one micro-batch */
	const struct framework_info *fw; /* workload.framework's row */
	bool fw_set;			 /* a framework other than the papers' default */
	enum loss loss;			 /* resolved: the explicit field or the framework's */
	enum grad_lifetime grads;	 /* resolved: when the gradients exist */
	double slack;			 /* allocator slack over allocated bytes */
	double profile;			 /* serving KV rules: the profiled forward's activations */
	double profile_tokens;		 /* the tokens of that forward */
	double prefill;			 /* inference: working set of one prompt's prefill */
	double decode_seq[2]; /* inference: decode working set per sequence: [last stage] */
	double seq_tokens;    /* inference: tokens cached per sequence */
};

/* The recurrent state of one sequence on a stage's GPU: the conv state and the SSM state
 * of its state-space layers (model_ssm_state_elems), split over tp (the mixer's heads and
 * channels are, Megatron-Core's MambaMixer), in the activations' dtype: vLLM's Mamba cache
 * takes the model's dtype unless mamba_ssm_cache_dtype says otherwise
 * (vllm/model_executor/layers/mamba/mamba_utils.py, MambaStateDtypeCalculator), and
 * transformers' MambaCache and Mamba2Cache the model's. It replaces the KV cache in those
 * layers and does not grow with the context (Mamba paper, Section 3.4). */
static double ssm_state_bytes(const struct mctx *x, const struct stage *st)
{
	const struct model *m = x->m;
	double per_layer;

	if (m->ssm.layers <= 0 || x->L <= 0)
		return 0;
	per_layer = model_ssm_state_elems(m, NULL) / m->ssm.layers;
	/* the stage's share of the state-space layers, as it holds its share of the layers */
	return per_layer * m->ssm.layers * (st->layers / x->L) *
	       act_bytes(x->s->workload.precision) * x->inv_tp;
}

/* Working set of one sequence's decode step (inference): one token through the widest
 * layer part; on the last stage also its fp32 logits, gathered in full on the first tp
 * rank (vLLM's logits processor). */
static double decode_seq_bytes(const struct mctx *x, bool last)
{
	const struct workload *wl = &x->s->workload;
	double ctx = (double)wl->prompt_tokens + wl->output_tokens;
	return act_infer_token(x->m, act_bytes(x->precision), x->tp, ctx, wl->flash_attention) +
	       (last ? 4.0 * x->m->vocab : 0);
}

/* The tokens of KV cache a sequence of x->seq_tokens tokens holds, as whole-model tokens
 * (bytes per token x these = the sequence's cache), when layers attend over a window (or
 * chunk) of sliding_window tokens: each such layer keeps the window, the global ones
 * (model.global_layers) the whole sequence (model_kv_share). With every layer windowed this
 * is min(tokens, window), as Mistral 7B's rolling buffer (Jiang et al. 2023, Section 2).
 * vLLM V1's hybrid allocator gives each kind of layer its own block table and reserves per
 * request, for a sliding layer, min(window - 1 + max_num_batched_tokens, max_model_len)
 * tokens and one more block (the window need not start on a block), for a chunked layer
 * min(chunk + max_num_batched_tokens, max_model_len) (vllm/v1/kv_cache_interface.py,
 * SlidingWindowSpec and ChunkedLocalAttentionSpec max_admission_blocks_per_request, which
 * size both the pool's concurrency and admission); SGLang and TensorRT-LLM keep the window
 * (TensorRT-LLM's per-window block pools, kvCacheManager.cpp BlocksPerWindow). */
static void kv_window(struct mctx *x, const struct model *m)
{
	const struct workload *wl = &x->s->workload;
	double keep = m->sliding_window;

	if (model_local_layers(m) <= 0)
		return;
	if (wl->framework == FW_VLLM) {
		int T, seqs;
		double B;
		framework_vllm_batch(wl->kind == WL_OFFLINE, x->s->hardware.gpu.memory_bytes,
				     x->s->hardware.gpu.id, &T, &seqs);
		B = wl->max_batched_tokens > 0 ? wl->max_batched_tokens : T;
		keep = m->chunked_attention ? keep + B : keep - 1 + B + x->fw->kv_block_tokens;
	}
	x->seq_tokens *= model_kv_share(m, x->seq_tokens, keep);
}

/* The loss's bytes per token on the last stage, before the tp split (vocabulary-parallel):
 * - paper: Korthikanti et al. Section 4.3, the fp32 softmax over the logits, 4 V;
 * - fp32: the 16-bit logits upcast whole and cross_entropy's log_softmax (eager PyTorch,
 *   torchtitan's and transformers' losses): the backward begins holding the saved fp32
 *   log-probabilities, nll's fp32 gradient and log_softmax's fp32 gradient, 12 V (the
 *   forward's 16-bit logits, fp32 copy and log-probabilities, 10 V, are fewer);
 * - chunked: the 16-bit logits stay (the model returns them, e V) and one chunk at a time
 *   is upcast and reduced, fused by torch.compile into the chunk's 16-bit gradient:
 *   e V (1 + 1 / chunks) (torchtune CEWithChunkedOutputLoss, 8 chunks); llm.c's
 *   fused_classifier overwrites the logits with their gradient in place: e V.
 * - fp32 under torchtitan's loss parallelism (tp > 1, framework loss_parallel): the logits
 *   stay a vocabulary-sharded DTensor and cross_entropy runs DTensor's decomposed ops
 *   (torch/distributed/tensor/parallel/loss.py), not the fused kernels: the forward's
 *   _log_softmax holds the 16-bit logits (train.py deletes pred only after the loss),
 *   their fp32 copy, shifted = x - x_max and torch.exp(shifted), 14 V; the backward's
 *   _nll_loss_and_log_softmax_backward holds the saved fp32 log-probabilities x,
 *   grad_input = zeros_like(x), torch.exp(x) and their sum before "* grad_output", four
 *   fp32 tensors of the sharded logits, 16 V (the same return line in every version of
 *   the file read, 2024 on). */
static double loss_bytes_token(const struct mctx *x)
{
	double V = x->m->vocab;
	switch (x->loss) {
	case LOSS_FP32:
		return (x->fw->loss_parallel && x->tp > 1 ? 16.0 : 12.0) * V;
	case LOSS_CHUNKED:
		return x->act.e * V * (1 + (x->fw->loss_chunks > 0 ? 1.0 / x->fw->loss_chunks : 0));
	default:
		return 4.0 * V;
	}
}

/* Stage layout: the loaded stage holds ceil(L / pp) layers; the first stage gets the
 * leading dense layers of a MoE model (DeepSeek-V3), the last the trailing ones. */
static void stage_init(const struct mctx *x, bool first, bool last, struct stage *st)
{
	double per = x->stage_layers;
	st->first = first;
	st->last = last;
	st->layers = per;
	if (x->pp == 1)
		st->dense = x->Ld;
	else if (first)
		st->dense = dmin(x->Ld, per);
	else
		st->dense = dmax(0, dmin(per, x->Ld - (x->L - per)));
	st->moe = st->layers - st->dense;
}

/* Parameters on one GPU of a stage, before ZeRO: non-expert (replicated over dp x ep) and
 * routed experts (over dp). Attention and MLP matrices are split over tp (Megatron column
 * and row parallel), the embedding and head over tp (vocabulary parallel); norms and the
 * router are replicated. embed_out receives the embedding/head part of nonexp, norm_out
 * its norms' (the layers' and, on the last stage, the final norm, counted in x->other). */
static void stage_params(const struct mctx *x, const struct stage *st, double *nonexp,
			 double *expert, double *embed_out, double *norm_out)
{
	const struct model_params *c = x->c;
	double embed = (st->first ? c->embedding : 0) + (st->last ? c->head + x->tied_copy : 0);
	/* what tp splits, then what every rank holds whole */
	double split = embed + (st->last ? x->other : 0) + st->layers * c->attention +
		       st->dense * c->mlp + st->moe * x->shared_layer;

	*embed_out = embed * x->inv_tp;
	*norm_out =
	    st->layers * c->norms + (st->last ? dmin(c->final_norm, x->other) : 0) * x->inv_tp;
	*nonexp = split * x->inv_tp + st->layers * c->norms + st->moe * c->router;
	*expert =
	    x->m->moe.experts > 0 ? st->moe * x->m->moe.experts * c->expert * x->inv_tp / x->ep : 0;
}

/* Layer-micro-batches of activations held by a stage with the 1F1B schedule (Narayanan et
 * al. 2021; Korthikanti Section 4.2.3): stage i holds min(m, pp - i) micro-batches of its
 * L/pp layers, so the first holds L layers' worth and the last one micro-batch of L/pp.
 * Interleaved (v chunks of L/(pp v) layers per stage): the first stage has pp v + pp - 1
 * chunk forwards in flight, i.e. L (1 + (pp - 1)/(pp v)) layers' worth (Korthikanti
 * Section 4.2.3), the last (v - 1) pp + 1. */
static double layers_in_flight(const struct mctx *x, const struct stage *st)
{
	double p = x->pp, v = x->vs, m = x->micro_batches;
	double chunks;

	if (p <= 1)
		return st->layers;
	if (v <= 1) {
		double in_flight = st->first ? dmin(m, p) : 1;
		return in_flight * st->layers;
	}
	/* Megatron's interleaved schedule: rank r runs (p - r - 1) x 2 + (v - 1) x p warm-up
	 * forwards and then one more before its first backward. */
	if (st->first)
		chunks = 2 * (p - 1) + (v - 1) * p + 1;
	else
		chunks = (v - 1) * p + 1;
	chunks = dmin(chunks, m * v);
	return chunks * st->layers / v;
}

/* Fills mem for one stage; for inference without any sequence (stage_finish adds them). */
static void stage_memory(const struct mctx *x, const struct stage *st, struct plan_memory *mem)
{
	const struct scenario *s = x->s;
	const struct model *m = x->m;
	double nonexp, expert, embed, norms;
	double z1 = x->zero >= 1, z2 = x->zero >= 2, z3 = x->zero >= 3;
	double irne = x->inv_rne, irex = x->inv_rex; /* ZeRO: 1 / divisor */

	/* every field is written below or here: no memset on this hot path */
	mem->gradients = mem->optimizer = mem->kv_cache = mem->host = mem->comm_buffers = 0;
	mem->optimizer_paged = mem->optimizer_evicted = 0;
	mem->nccl_buffers = 0;
	mem->fp8_weights = mem->head_grads = mem->grads_transient = 0;
	stage_params(x, st, &nonexp, &expert, &embed, &norms);

	if (x->training) {
		double wne = z3 ? nonexp * irne : nonexp, wex = z3 ? expert * irex : expert;
		double tne, tex; /* trainable params on this GPU */
		double weights_full;

		if (x->lora) {
			/* frozen base (embedding and head stay 16-bit in quantized bases:
			 * bitsandbytes replaces nn.Linear layers only and skips lm_head) plus
			 * adapters in their dtype (fp32 by PEFT's default) */
			double ad_ne = (st->layers * x->ad_layer_moe_ne +
					st->dense * (x->ad_layer_dense - x->ad_layer_moe_ne)) *
				       x->inv_tp;
			double ad_ex = st->moe * x->ad_layer_expert * x->inv_tp / x->ep;
			double e16 = embed + norms; /* left 16-bit: embedding, head, norms */
			double base = x->base_b * (wne + wex - (z3 ? e16 * irne : e16)) +
				      x->embed_b * (z3 ? e16 * irne : e16);
			double ad_w = z3 ? ad_ne * irne + ad_ex * irex : ad_ne + ad_ex;
			mem->weights = base + x->ad_b * ad_w;
			weights_full = x->base_b * (nonexp + expert - e16) + x->embed_b * e16 +
				       x->ad_b * (ad_ne + ad_ex);
			tne = ad_ne;
			tex = ad_ex;
			mem->weight_bytes_per_param = x->base_b;
		} else {
			mem->weights = x->w_b * (wne + wex);
			weights_full = x->w_b * (nonexp + expert);
			tne = nonexp;
			tex = expert;
			mem->weight_bytes_per_param = x->w_b;
		}
		{
			/* trainable parameters whose gradients (optimizer states) this GPU
			 * holds: its ZeRO shard from stage 2 (1) on */
			double whole = tne + tex, shard = tne * irne + tex * irex;
			double g = z2 ? shard : whole, o = z1 ? shard : whole;
			mem->gradients = x->g_b * g;
			mem->optimizer = x->o_b * o;
			mem->optimizer_paged = x->o_paged_b * o;
			/* effective divisors: whole-model count over what this GPU holds */
			mem->weight_shard = wne + wex > 0 ? x->c->total / (wne + wex) : NAN;
			mem->grad_shard = g > 0 ? x->trainable / g : NAN;
			mem->optimizer_shard = o == g  ? mem->grad_shard
					       : o > 0 ? x->trainable / o
						       : NAN;
		}
		mem->grad_bytes_per_param = x->g_b;
		mem->optimizer_bytes_per_param = x->o_b;
		/* model.vision_params: a multimodal model trains with its vision tower and
		 * projector loaded (transformers' *ForConditionalGeneration; Megatron-Core's
		 * LLaVA builds it on the first pipeline stage, models/multimodal/
		 * llava_model.py add_encoder), split over tp as the language model's
		 * linears. Full training and fine-tuning train it (every parameter requires
		 * grad; torchtune llama3_2_vision/11B_full.yaml encoder_trainable: True):
		 * weights, gradients and states at the model's bytes, sharded by ZeRO as the
		 * rest. LoRA/QLoRA freeze it with the base (PEFT marks the base
		 * requires_grad False; torchtune's lora configs leave the encoder's base
		 * frozen), kept 16-bit as the embedding (its adapters, a few million
		 * parameters, are not counted) */
		mem->vision_weights = mem->vision_gradients = mem->vision_optimizer = 0;
		if (st->first && m->vision_params > 0) {
			double v = m->vision_params * x->inv_tp, vz = v * irne;
			mem->vision_weights = (x->lora ? x->embed_b : x->w_b) * (z3 ? vz : v);
			weights_full += (x->lora ? x->embed_b : x->w_b) * v;
			if (!x->lora) {
				mem->vision_gradients = x->g_b * (z2 ? vz : v);
				mem->vision_optimizer = x->o_b * (z1 ? vz : v);
			}
			mem->weights += mem->vision_weights;
			mem->gradients += mem->vision_gradients;
			mem->optimizer += mem->vision_optimizer;
		}
		/* Transformer Engine's fp8 weight workspaces: each linear weight's fp8 cast and
		 * its transpose, 2 B a parameter, kept across the step's micro-batches
		 * (transformer_engine/pytorch/module/base.py, get_weight_workspace); the
		 * embedding and output layer stay bf16. These are copies of the weights
		 * the rank holds: its tp/pp share. With the parameters sharded (ZeRO-3 /
		 * FSDP) a layer's weights exist whole only while it is gathered, and so
		 * does its cast: TE scatters the fp8 copy it saves for the backward over
		 * the FSDP group (transformer_engine/pytorch/module/linear.py, _Linear
		 * forward, _fsdp_scatter_tensors(fsdp_group, ..., weightmat)), torchao
		 * casts each FSDP2 shard before the all-gather (torchao/float8/
		 * fsdp_utils.py, WeightWithDynamicFloat8CastTensor.fsdp_pre_all_gather,
		 * enable_fsdp_float8_all_gather) and Megatron-FSDP gathers fp8 parameters
		 * (megatron/core/distributed/fsdp, fp8_param_gather): the gathered
		 * layers' casts (ZERO3_LIVE_LAYERS decoder layers, the unit FSDP wraps),
		 * the whole stage's where the framework keeps it gathered */
		if (x->act.fp8_te && !x->lora) {
			double dense_l = (x->c->attention + x->c->mlp) * x->inv_tp;
			double moe_l = (x->c->attention + x->shared_layer) * x->inv_tp +
				       (st->moe > 0 ? expert / st->moe : 0);
			double layer = dmax(st->dense > 0 ? dense_l : 0, st->moe > 0 ? moe_l : 0);
			mem->fp8_weights =
			    2 * ((st->layers * x->c->attention + st->dense * x->c->mlp +
				  st->moe * x->shared_layer) *
				     x->inv_tp +
				 expert);
			if (z3 && !framework_keeps_gathered(s->workload.framework, x->pp,
							    s->parallel.reshard_after_forward))
				mem->fp8_weights =
				    dmin(mem->fp8_weights, 2 * ZERO3_LIVE_LAYERS * layer);
		}
		/* torchao's Float8Linear, tensorwise (torchao/float8/float8_linear.py): the
		 * forward casts the weight, cast_weight_to_float8_t, and
		 * manual_float8_matmul_with_args_in_float8 saves that cast, a new 1-byte
		 * tensor of the gathered weight that FSDP2's reshard does not free
		 * (force_recompute_fp8_weight_in_bwd defaults to False; torchtitan's
		 * enable_fsdp_float8_all_gather to off, so FSDP gathers bf16 as counted): 1 B
		 * a linear parameter of every layer that stores its activations, of the one
		 * rebuilt layer where the layers recompute (the cast is redone inside the
		 * checkpoint: torchtitan's op policy saves mm's outputs, not the casts). The
		 * backward of one linear then holds, beside the 16-bit tensors it has
		 * without fp8, the casts backward makes (.backward: grad_output's e5m2 cast
		 * from NoopFwToFloat8E5M2BwDynamic, the saved input and weight casts) and the
		 * layout copies torch._scaled_mm needs (torchao/float8/float8_ops.py
		 * preprocess_addmm: a row-major, b column-major), largest at grad_weight =
		 * grad_output.t() @ input: grad_output's cast and its row-major copy, the
		 * input's cast and its column-major copy, the weight's cast: 2 T (in + out) +
		 * in x out bytes for the largest linear, the MLP's (h in, ffn / tp out, or
		 * its transpose, the down projection). Dense layers (torchao's MoE path is a
		 * prototype). */
		if (x->act.fp8_ao && !x->lora) {
			double lin_l =
			    (x->c->attention + (st->dense > 0 ? x->c->mlp : x->shared_layer)) *
			    x->inv_tp;
			double stage_lin = (st->layers * x->c->attention + st->dense * x->c->mlp +
					    st->moe * x->shared_layer) *
					   x->inv_tp;
			int rl = s->workload.recompute_layers;
			double saving = 1; /* layers whose casts are saved */
			if (x->act.rc == RECOMPUTE_NONE)
				saving = st->layers;
			else if (rl > 0 && rl < st->layers &&
				 s->workload.recompute_method != RECOMPUTE_UNIFORM)
				saving = st->layers - rl + 1;
			double T = x->act.s * x->b, in = m->hidden;
			double out = (m->ffn > 0 ? m->ffn : m->moe.expert_ffn) * x->inv_tp;
			mem->fp8_weights = dmin(stage_lin, saving * lin_l) +
					   (st->layers > 0 ? 2 * T * (in + out) + in * out : 0);
		}

		/* Offload (ZeRO-Offload, Ren et al. 2021; ZeRO-Infinity): the optimizer states
		 * move to host memory; under ZeRO-2/3 so do the gradient partitions (DeepSpeed
		 * copies each reduced partition to the CPU optimizer). Parameters move only
		 * under ZeRO-3 (DeepSpeed's offload_param needs stage 3). */
		if (s->parallel.offload != OFFLOAD_NONE) {
			mem->host += mem->optimizer;
			mem->optimizer = mem->optimizer_paged = 0;
			if (x->zero >= 2) {
				mem->host += mem->gradients;
				mem->gradients = 0;
			}
			if (s->parallel.offload == OFFLOAD_OPTIMIZER_PARAMS && x->zero >= 3) {
				mem->host += mem->weights;
				mem->weights = 0;
			}
		}

		/* ZeRO-3 gathered parameters: two layers' worth of the tp shard, never more
		 * than what this GPU does not already hold. Kept gathered from the forward to
		 * the backward instead (parallel.reshard_after_forward never; torchtitan's
		 * default under pipeline parallelism, torchtitan/distributed/fsdp.py
		 * get_fsdp_reshard_after_forward_policy: "do not reshard after forward to
		 * avoid per-microbatch all-gathers"), or under FSDP with a pipeline whatever
		 * the policy: the pipeline stage runs every micro-batch's backward but the last
		 * with set_reshard_after_backward(False) and set_requires_gradient_sync(False)
		 * (torch/distributed/pipelining/stage.py, backward_maybe_with_nosync), so the
		 * stage's parameters stay gathered through the step, whole. */
		if (x->zero >= 3) {
			bool fsdp_pp = framework_nosync_pipeline(s->workload.framework, x->pp);
			double missing = dmax(0, weights_full - mem->weights);
			mem->comm_buffers +=
			    framework_keeps_gathered(s->workload.framework, x->pp,
						     s->parallel.reshard_after_forward)
				? missing
				: dmin(ZERO3_LIVE_LAYERS * (x->lora ? x->base_b : x->w_b) *
					   x->c->largest_layer * x->inv_tp,
				       missing);
			/* and the same no-sync backwards accumulate the stage's gradients
			 * unsharded, upcast to the reduce dtype (fp32 in torchtitan's
			 * mixed_precision_reduce) until the last micro-batch reduce-scatters
			 * them (torch/distributed/fsdp/_fully_shard/_fsdp_param.py,
			 * to_accumulated_grad_if_needed): 4 B for every trainable parameter
			 * of the stage */
			if (fsdp_pp && x->micro_batches > 1 &&
			    s->parallel.offload == OFFLOAD_NONE && tne + tex > 0) {
				double tv =
				    mem->vision_gradients > 0 ? m->vision_params * x->inv_tp : 0;
				mem->vision_gradients = 4 * tv;
				mem->gradients = 4 * (tne + tex + tv);
				mem->grad_bytes_per_param = 4;
				mem->grad_shard = x->trainable / (tne + tex);
			}
		}

		/* context parallelism's K/V buffers, transient in one attention layer at a
		 * time (Transformer Engine, transformer_engine/pytorch/attention/
		 * dot_product_attention/context_parallel.py): the ring
		 * (AttnFuncWithCPAndKVP2P) concatenates the local K and V and receives each
		 * other rank's chunk into a new buffer, all cp kept in p2p_comm_buffers
		 * until the layer's forward ends, and its backward rotates K/V with their
		 * gradients in two such pairs (4 chunks); the all-gather
		 * (AttnFuncWithCPAndKVAllGather) holds the gathered K/V of the whole
		 * sequence and, in the backward, their gradients of the same size */
		if (x->cp > 1 && model_attention_share(m) > 0) {
			double kvh = m->kv_heads > 0 ? m->kv_heads : m->heads;
			double hd = m->head_dim > 0
					? m->head_dim
					: (m->heads > 0 ? (double)m->hidden / m->heads : 0);
			double chunk =
			    2 * x->act.s * x->b * local_heads(kvh, x->tp) * hd * x->act.e;
			double n = s->parallel.cp_comm == CP_COMM_ALL_GATHER ? 2.0 * x->cp
									     : dmax(x->cp, 4);
			mem->comm_buffers += n * chunk;
		}

		/* activations */
		{
			double b = x->b, s_len = x->act.s;
			double per =
			    st->layers > 0
				? (st->dense * x->per_dense + st->moe * x->per_moe) / st->layers
				: 0;
			double lif = layers_in_flight(x, st);
			double embed_act = 0, head_act = 0;

			/* input embedding dropout mask, one per micro-batch in flight
			 * (Korthikanti Section 4.3: s b h p / t) */
			if (st->first && m->dropout)
				embed_act = x->act.mask * s_len * b * m->hidden * x->act.inv_rt *
					    (x->pp > 1 ? dmin(x->micro_batches, x->pp) : 1);
			/* output layer and loss on the last stage: final norm input and head
			 * input (e s b h each; a frozen head keeps no input) and the fp32
			 * softmax over the vocabulary-parallel logits (Korthikanti:
			 * 4 s b h / t (1 + V / h)) */
			double loss_act = 0;
			if (st->last) {
				loss_act = s_len * b * loss_bytes_token(x) * x->inv_tp;
				/* eager: the final RMSNorm's fp32 input and normed copy, 4 h;
				 * under a frozen base its fp32 input alone, (4 - e) h
				 * (act_eager_token) */
				double eager_norm = !x->act.eager ? 0
						    : x->lora	  ? 4.0 - x->act.e
								  : 4.0;
				/* the head's input: a frozen head keeps none; torchtitan's
				 * ColwiseParallel head (framework loss_parallel, tp > 1)
				 * all-gathers the sequence-parallel norm output to Replicate
				 * before F.linear (parallelize_llama.py apply_tp, "output":
				 * input_layouts=Shard(1)), so the linear saves the whole
				 * sequence's, e h, where Megatron's saves its s / t shard and
				 * gathers again in the backward (Korthikanti Section 4.2.2) */
				double head_in = x->lora			     ? 0
						 : x->fw->loss_parallel && x->tp > 1 ? x->act.rt
										     : 1;
				head_act = s_len * b * ((1 + head_in) * x->act.e + eager_norm) *
					       m->hidden * x->act.inv_rt +
					   loss_act;
			}
			mem->activations_embed = embed_act;
			mem->activations_head = head_act;
			mem->rebuilt_layer = st->layers > 0 ? x->rebuilt : 0;
			/* The loss's buffers are freed before the last layer's backward rebuilds
			 * it (PyTorch frees the loss's saved tensors once its backward ran), so
			 * the rebuilt layer reuses them: only what it needs beyond them counts.
			 * The papers' default sums the two, as before. */
			if (x->fw_set && x->fw->loss_apart)
				mem->rebuilt_layer = dmax(0, mem->rebuilt_layer - loss_act);
			/* Activation offloading (torchtune enable_activation_offloading,
			 * training/_activation_offloading.py OffloadActivations): a
			 * saved-tensors hook copies each saved tensor of 1 KiB or more to
			 * pinned host memory on a side stream and brings it back for the
			 * backward, one layer ahead; the output layer is left on the GPU
			 * (get_act_offloading_ctx_manager's NoOpManager around
			 * model.output) and the loss runs outside the context. The GPU keeps
			 * the layer whose backward runs and the one being fetched:
			 * ACT_OFFLOAD_LAYERS; the rest is host memory. */
			mem->activations_offloaded = 0;
			if (s->workload.activation_offload && lif > ACT_OFFLOAD_LAYERS) {
				mem->activations_offloaded = (lif - ACT_OFFLOAD_LAYERS) * per;
				mem->host += mem->activations_offloaded;
			}
			mem->activations =
			    lif * per - mem->activations_offloaded + embed_act + head_act;
			mem->activations_per_layer = per;
			mem->layers_in_flight = lif;
		}
		/* When the gradients exist (workload.grad_lifetime). A step-long buffer sits
		 * beside the activations. Gradients allocated in the backward (PyTorch's
		 * zero_grad(set_to_none=True)) grow as the layers' activations are freed, so
		 * the peak is the larger of the activations with the loss's backward (its
		 * start) and the whole gradients (its end; the optimizer step) and the
		 * gradients count only beyond the activations; with gradient accumulation the
		 * first micro-batch's gradients persist through the next ones' forwards.
		 * Fused into the backward (torchtune optimizer_in_bwd,
		 * training/memory.py register_optim_in_bwd_hooks: each parameter's
		 * post-accumulate-grad hook steps it and drops its gradient) one tensor's
		 * gradient lives at a time, the largest: the embedding or head. */
		mem->gradients_full = mem->gradients;
		double hid = m->embed_dim > 0 ? m->embed_dim : m->hidden;
		/* The head's backward under a chunked loss (torchtune CEWithChunkedOutputLoss
		 * on TransformerDecoder.chunked_output: one F.linear a chunk, one weight):
		 * autograd's ready queue takes the highest sequence_nr first and the loss's
		 * nodes were made after the head's, so every chunk's loss backward runs
		 * first, leaving the chunks' 16-bit logit gradients; then each chunk's mm
		 * backward makes a whole V x h weight gradient, which the AccumulateGrad
		 * node's input buffer adds in place into the chunks' sum so far
		 * (torch/csrc/autograd/input_buffer.cpp, accumulate). From the second chunk
		 * on: two of the head's gradients beside (chunks - 1) / chunks of the logit
		 * gradients, which is, beyond the loss's e V (1 + 1 / chunks) a token
		 * (loss_bytes_token), 2 g V h - 2 e V s b / chunks. */
		double head2 = 0;
		if (st->last && x->loss == LOSS_CHUNKED && x->fw->loss_chunks > 1 && !x->lora &&
		    m->vocab > 0 && x->micro_batches <= 1)
			head2 = 2 * m->vocab * x->inv_tp *
				(x->g_b * hid - x->act.e * x->act.s * x->b / x->fw->loss_chunks);
		/* Under ZeRO 2 or 3 the step's buffer is a shard, but each gradient is made
		 * whole first and lives until its reduce-scatter: transient, whatever the
		 * lifetime (so beside the buffer, in comm_buffers), at the backward's peak:
		 * - FSDP2 (GRAD_REDUCE_UNIT): autograd writes a fully_shard unit's gradients
		 *   whole into its unsharded parameters, in the parameters' dtype (bf16
		 *   under torchtitan's param_dtype), and the unit's post_backward
		 *   (_fsdp_param_group.py) hands them to foreach_reduce
		 *   (_fsdp_collectives.py), which copies them into a reduce_scatter_input
		 *   in the reduce dtype (fp32 in torchtitan's mixed_precision_reduce: the
		 *   sharded gradient's), frees them and allocates the reduce_scatter_output,
		 *   a shard; the input is kept until the next unit's post_backward waits on
		 *   it (comm_ctx.reduce_scatter_state). The root unit (the embedding, final
		 *   norm and head) reduces last, in the final callback, so the head's whole
		 *   gradient lives through the backward; under the chunked loss its pair
		 *   (head2, in the parameters' dtype). The peak is the backward's start:
		 *   the head's gradient(s) and the first block's gradients forming beside
		 *   every layer's activations and the rebuilt layer. The block's
		 *   reduce-scatter input and output come in its post_backward, once its
		 *   stored and rebuilt tensors are freed, which hold more (Llama 3.1 8B
		 *   at 2 x 8192 tokens, op policy: 1.6 GiB a layer stored against 0.8 GiB
		 *   of fp32 input), so they are not at the peak; counting them there
		 *   would also let a larger batch lower the peak.
		 * - DeepSpeed (GRAD_REDUCE_BUCKET): the flat bucket of DS_REDUCE_BUCKET
		 *   16-bit elements that every gradient is copied into, allocated whole
		 *   (stage_1_and_2.py ipg_buffer, two with overlap_comm; stage3.py
		 *   __ipg_bucket_flat_buffer, one).
		 * Not under FSDP2 with a pipeline's no-sync backwards, whose gradients are
		 * whole already (above), nor under the papers' default. */
		bool whole_first = x->zero >= 2 && x->fw->grad_reduce != GRAD_REDUCE_PAPER &&
				   x->trainable > 0 &&
				   !(framework_nosync_pipeline(s->workload.framework, x->pp) &&
				     x->micro_batches > 1);
		mem->grads_transient = 0;
		if (whole_first && x->fw->grad_reduce == GRAD_REDUCE_BUCKET) {
			bool two =
			    x->zero == 2 && framework_overlap(s->workload.framework, OVERLAP_GRAD,
							      s->parallel.overlap_grad_reduce,
							      x->zero) == OVERLAP_ON;
			mem->grads_transient = (two ? 2 : 1) * DS_REDUCE_BUCKET * 2;
		} else if (whole_first) {
			double p_b = x->lora ? x->ad_b : x->w_b; /* the unsharded dtype */
			double unit =
			    x->lora ? dmax(x->ad_layer_dense,
					   x->ad_layer_moe_ne + x->ad_layer_expert / x->ep) *
					  x->inv_tp
				    : dmax(st->dense > 0 ? (x->c->attention + x->c->mlp) * x->inv_tp
							 : 0,
					   st->moe > 0
					       ? (x->c->attention + x->shared_layer) * x->inv_tp +
						     expert / st->moe
					       : 0);
			double head = st->last && !x->lora && m->vocab > 0
					  ? p_b * m->vocab * hid * x->inv_tp
					  : 0;
			if (head2 > 0)
				head = dmax(head, head2 * p_b / x->g_b);
			mem->grads_transient = head + p_b * unit;
		}
		if (x->grads == GRADS_FUSED && x->micro_batches <= 1) {
			double one = m->vocab > 0 ? (double)m->vocab * hid * x->inv_tp
						  : x->c->largest_layer * x->inv_tp;
			mem->gradients = dmin(mem->gradients, x->g_b * one);
		} else if (x->grads == GRADS_BACKWARD && x->micro_batches <= 1) {
			/* the transient is the backward's start's, not its end's */
			mem->gradients = dmax(0, mem->gradients - mem->activations -
						     mem->rebuilt_layer - mem->grads_transient);
		}
		mem->comm_buffers += mem->grads_transient;
		/* not past the step-long buffer: under ZeRO 2 or 3 that buffer is a shard, and
		 * the head's whole gradients are the transient's, above */
		if ((x->grads == GRADS_FUSED || x->grads == GRADS_BACKWARD) && !whole_first &&
		    head2 > mem->gradients && head2 <= mem->gradients_full)
			mem->gradients = mem->head_grads = head2;
		mem->kv_bytes_per_token = NAN;
		mem->kv_tokens = mem->kv_tokens_per_seq = mem->decode_bytes_per_seq = NAN;
		mem->draft_weights = mem->draft_kv_bytes_per_token = NAN;
	} else {
		/* K/V heads per attention layer: with per-layer counts (DeciLM's
		 * n_heads_in_group, model.kv_sum) their average, so that the cache is the sum
		 * of the layers' own heads (vLLM builds each layer's attention, and so its
		 * cache, with heads / n_heads_in_group K/V heads:
		 * vllm/model_executor/models/nemotron_nas.py DeciLMDecoderLayer), not
		 * kv_heads, the average rounded up to a divisor of the heads. Under tp the
		 * average is sharded as one count (layers with fewer heads than tp replicate
		 * theirs: the average understates those by at most one head a layer). */
		double kv_l = m->kv_heads;
		int attn_l = m->kv_sum > 0 ? model_attention_layers(m) : 0;
		if (attn_l > 0)
			kv_l = (double)m->kv_sum / attn_l;
		double heads_kv = m->mla.kv_rank > 0 ? m->mla.kv_rank + m->mla.rope_dim
						     : 2 * local_heads(kv_l, x->tp) * m->head_dim;
		/* workload.expert_weights: gpt-oss stores its experts in mxfp4, the rest bf16 */
		double keep16 = norms + st->moe * x->c->router; /* norms and routers */
		/* workload.attention_weights: checkpoints that keep self_attn 16-bit (0 when
		 * as the weights: the sum as it was, to the last bit) */
		double attn = x->attn_b != x->w_b
				  ? st->layers * x->c->attention * x->attn_share * x->inv_tp
				  : 0;
		mem->weights = x->w_b * (nonexp - embed - keep16 - attn) + x->emb_b * embed +
			       x->norm_b * keep16 + x->we_b * expert + x->attn_b * attn;
		mem->weight_bytes_per_param =
		    nonexp + expert > 0 ? mem->weights / (nonexp + expert) : x->w_b;
		mem->weight_shard = nonexp + expert > 0 ? x->c->total / (nonexp + expert) : NAN;
		/* model.vision_params: a serving engine loads the vision tower and projector
		 * beside the language model (vLLM builds them in every rank's model, their
		 * linears tensor-parallel: models/siglip.py, QKVParallelLinear), left 16-bit
		 * as quantizers leave them (llm-compressor examples/multimodal_vision/README.md:
		 * ignore vision_tower and multi_modal_projector); not read per decoded token, so
		 * outside the bytes per parameter */
		mem->vision_weights = 2 * m->vision_params * x->inv_tp;
		mem->vision_gradients = mem->vision_optimizer = 0;
		mem->weights += mem->vision_weights;
		mem->grad_bytes_per_param = NAN;
		mem->optimizer_bytes_per_param = NAN;
		mem->grad_shard = NAN;
		mem->gradients_full = NAN;
		mem->activations_offloaded = 0;
		mem->optimizer_shard = NAN;

		/* KV cache (Kwon et al. 2023, Section 3): 2 (K, V) x kv heads x head_dim per
		 * layer and token; MLA caches kv_rank + rope_dim per layer (DeepSeek-V2,
		 * Section 2.1.2), the same on every tp rank. A sliding window caps the tokens
		 * each layer keeps. */
		mem->kv_bytes_per_token =
		    heads_kv * x->kv_elem_b * st->layers * model_attention_share(m);
		{
			/* speculative decoding: the draft's weights (sharded by tp as the
			 * target's: vLLM runs its drafter under the target's parallel config)
			 * and its KV cache (plan_infer.c, plan_draft_params) */
			double step, kvl,
			    dp = plan_draft_params(&s->workload, m, x->c, &step, &kvl);
			mem->draft_weights = x->w_b * dp * x->inv_tp;
			mem->draft_kv_bytes_per_token = heads_kv * x->kv_elem_b * kvl;
			mem->weights += mem->draft_weights;
			mem->kv_bytes_per_token += mem->draft_kv_bytes_per_token;
		}
		mem->kv_tokens = 0;
		mem->kv_cache = 0;
		mem->kv_tokens_per_seq = x->seq_tokens;
		mem->decode_bytes_per_seq = x->decode_seq[st->last];
		mem->activations = x->prefill;
		mem->activations_per_layer = x->prefill;
		mem->layers_in_flight = NAN;
		mem->activations_embed = mem->activations_head = mem->rebuilt_layer = 0;
	}

	/* overhead */
	mem->cuda_context = x->fw_set ? x->fw->non_torch_bytes : CUDA_CONTEXT_BYTES;
	/* the BLAS workspaces the framework allocates once (framework_blas_workspace; the
	 * papers' default keeps them inside its CUDA context figure, as before): cuBLASLt's
	 * own under fp8 (scaled_mm) or with biased linear layers (addmm's epilogue) */
	mem->blas_workspace = framework_blas_workspace(
	    s->workload.framework, s->hardware.gpu.id, s->hardware.gpu.vendor, x->training,
	    x->precision == DTYPE_FP8 || m->qkv_bias || m->mlp_bias);
	{
		double groups = (x->tp > 1) + (x->pp > 1) + (x->ep > 1) + (x->cp > 1);
		if (x->training && x->replicas * x->cp > 1)
			groups += 1;
		/* a serving framework's measured non-torch memory already holds NCCL's */
		if (!x->training && x->fw->kv_rule != KV_RULE_FIT)
			groups = 0;
		/* NCCL allocates them itself, with cudaMalloc or cuMem (NVIDIA/nccl
		 * src/transport/p2p.cc, net.cc; ncclCudaCalloc in src/include/alloc.h), not
		 * through PyTorch's caching allocator: max_memory_reserved does not see
		 * them, so they are outside allocated and reserved and inside total, as
		 * nvidia-smi shows the process */
		mem->nccl_buffers = groups * NCCL_BUFFSIZE * NCCL_PEERS *
				    (strcmp(s->hardware.gpu.link, "pcie") == 0 ? NCCL_CHANNELS_PCIE
									       : NCCL_CHANNELS);
		mem->comm_buffers += mem->nccl_buffers;
	}
	mem->capacity =
	    gpu_capacity_bytes(&s->hardware.gpu); /* catalog.h: CUDA's total when known */
}

/* Inference: adds `batch` sequences' KV cache and the working set, which is the prefill of
 * one prompt (vLLM schedules prompts through a token budget) or the decode step of the
 * whole batch, whichever is larger. Then the totals, for every workload. */
static void stage_finish(const struct mctx *x, const struct stage *st, double batch,
			 struct plan_memory *mem)
{
	if (!x->training) {
		mem->kv_tokens = batch * x->seq_tokens;
		mem->kv_cache =
		    mem->kv_bytes_per_token * mem->kv_tokens + batch * ssm_state_bytes(x, st);
		mem->activations = dmax(x->prefill, batch * x->decode_seq[st->last]);
	}
	mem->kv_budget = mem->kv_seq_bytes = mem->profile_tokens = mem->profile_logits = NAN;
	if (x->fw_set)
		/* the framework's allocator slack on every allocation at the peak */
		mem->fragmentation =
		    x->slack *
		    (mem->weights + mem->gradients + mem->optimizer - mem->optimizer_paged +
		     mem->activations + mem->kv_cache + mem->comm_buffers - mem->nccl_buffers +
		     mem->rebuilt_layer + mem->fp8_weights);
	else {
		/* the papers' 5% on the model's tensors. Gradients allocated in the backward
		 * (workload.grad_lifetime backward) count at the peak only beyond the
		 * activations and the rebuilt layer (stage_memory); the slack, which leaves
		 * the rebuilt layer out, takes them beyond the activations alone, so that a
		 * larger batch never shrinks it */
		double g = mem->gradients;
		if (x->training && x->grads == GRADS_BACKWARD && x->micro_batches <= 1)
			g = dmax(dmax(0, mem->gradients_full - mem->activations), mem->head_grads);
		mem->fragmentation =
		    x->slack * (mem->weights + g + mem->optimizer - mem->optimizer_paged +
				mem->activations + mem->kv_cache);
	}
	mem->overhead = mem->cuda_context + mem->fragmentation + mem->comm_buffers +
			mem->rebuilt_layer + mem->fp8_weights + mem->blas_workspace;
	mem->total = mem->weights + mem->gradients + mem->optimizer + mem->activations +
		     mem->kv_cache + mem->overhead;
	/* Paged optimizer states (workload.optimizer_states paged) are CUDA managed memory:
	 * the driver migrates their pages to the GPU while it has room (bitsandbytes
	 * prefetch_state before each update) and evicts them to the host when it has not
	 * ("paged optimizers ... automatically evict to CPU RAM when the GPU runs out of
	 * memory": bitsandbytes' docs, optimizers; torchtune's memory_optimizations.rst), so
	 * what does not fit beside the rest is on the host and the fit is the rest's. The
	 * caching allocator never sees them (F.get_paged, cudaMallocManaged): outside
	 * reserved and allocated, as NCCL's buffers; in total, as nvidia-smi shows the
	 * resident pages. */
	if (mem->optimizer_paged > 0) {
		double rest = mem->total - mem->optimizer_paged;
		double room =
		    mem->capacity > 0 ? dmax(0, mem->capacity - rest) : mem->optimizer_paged;
		double away = dmax(0, mem->optimizer_paged - room);
		mem->optimizer -= away;
		mem->optimizer_paged -= away;
		mem->host += away;
		mem->optimizer_evicted = away;
		mem->total -= away;
	}
	mem->reserved = mem->total - mem->cuda_context - mem->nccl_buffers - mem->optimizer_paged;
	mem->allocated = mem->reserved - mem->fragmentation;
	mem->headroom = mem->capacity - mem->total;
	mem->fits = mem->capacity > 0 && mem->total - mem->optimizer_paged <= mem->capacity;
}

/* A serving framework's pool replaces the KV cache: allocated once whatever the batch
 * (more only when an explicit batch needs more than the pool: it does not fit), with the
 * profiled forward's activations beside it and no allocator slack (vLLM's pool is one
 * tensor per layer, carved into blocks). */
static void kv_rule_finish(struct plan_memory *mem, double pool, double seq_bytes, double batch,
			   double budget, double tokens, double prof, double logits)
{
	double need = seq_bytes * batch;
	mem->kv_seq_bytes = seq_bytes;
	mem->profile_tokens = tokens;
	mem->profile_logits = logits;
	mem->kv_cache = dmax(pool, need);
	mem->kv_tokens = mem->kv_bytes_per_token > 0 ? mem->kv_cache / mem->kv_bytes_per_token : 0;
	mem->activations = prof + logits;
	mem->kv_budget = budget;
	mem->fragmentation = 0;
	mem->overhead =
	    mem->cuda_context + mem->comm_buffers + mem->rebuilt_layer + mem->blas_workspace;
	mem->total = mem->weights + mem->gradients + mem->optimizer + mem->activations +
		     mem->kv_cache + mem->overhead;
	mem->reserved = mem->total - mem->cuda_context - mem->nccl_buffers;
	mem->allocated = mem->reserved;
	mem->headroom = mem->capacity - mem->total;
	mem->fits = mem->capacity > 0 && mem->total <= mem->capacity;
}

/* LoRA adapter parameters (Hu et al. 2021: rank x (in + out) per adapted matrix) of one
 * layer: dense layer, MoE layer without its routed experts, one MoE layer's routed
 * experts; and rank x matrices per token for the adapters' intermediate activations. */
static void lora_counts(const struct model *m, const struct finetune *ft, double *dense,
			double *moe_ne, double *experts, double *r_attn, double *r_mlp)
{
	double r = ft->rank, h = m->hidden;
	unsigned tg = ft->targets;
	double q_out, kv_in, k_out, v_out, o_in, attn = 0, na = 0, nmlp = 0;
	double sffn = m->moe.shared_ffn > 0 ? m->moe.shared_ffn : m->moe.expert_ffn;
	double per_ffn_unit = 0; /* rank x (in + out) summed over targeted MLP matrices / ffn */

	if (m->mla.kv_rank > 0) {
		q_out = (double)m->heads * (m->mla.nope_dim + m->mla.rope_dim);
		kv_in = m->mla.kv_rank;
		k_out = (double)m->heads * m->mla.nope_dim;
		v_out = (double)m->heads * m->mla.v_dim;
		o_in = v_out;
	} else {
		q_out = (double)m->heads * m->head_dim;
		kv_in = h;
		k_out = v_out = (double)m->kv_heads * m->head_dim;
		o_in = q_out;
	}
	if (tg & LORA_Q)
		attn += r * (h + q_out), na++;
	if (tg & LORA_K)
		attn += r * (kv_in + k_out), na++;
	if (tg & LORA_V)
		attn += r * (kv_in + v_out), na++;
	if (tg & LORA_O)
		attn += r * (o_in + h), na++;
	if ((tg & LORA_GATE) && m->mlp == MLP_GATED)
		per_ffn_unit += 1, nmlp++;
	if (tg & LORA_UP)
		per_ffn_unit += 1, nmlp++;
	if (tg & LORA_DOWN)
		per_ffn_unit += 1, nmlp++;
	/* each adapted MLP matrix joins h and the intermediate size: r (h + f) */
	*dense = attn + per_ffn_unit * r * (h + m->ffn);
	*moe_ne = attn + m->moe.shared * per_ffn_unit * r * (h + sffn);
	*experts = m->moe.experts * per_ffn_unit * r * (h + m->moe.expert_ffn);
	*r_attn = r * na;
	*r_mlp = r * nmlp;
}

enum engine plan_engine(const struct scenario *s)
{
	const struct workload *w = &s->workload;

	if (w->engine == ENGINE_LLAMACPP || w->engine == ENGINE_CUDA_GRAPHS)
		return w->engine;
	switch (framework_get(w->framework)->kernels) {
	case FW_KERNELS_LLAMACPP:
		return ENGINE_LLAMACPP;
	case FW_KERNELS_GRAPHS:
		return ENGINE_CUDA_GRAPHS;
	case FW_KERNELS_GPU:
		break;
	}
	/* the engine most users of the GPU run: on a GeForce card (catalog class consumer)
	 * local inference is llama.cpp and its front ends (Ollama, LM Studio); datacenter
	 * GPUs serve through vLLM, SGLang or TensorRT-LLM, all CUDA-graph engines
	 * (catalog/gpus.yaml says where the class comes from) */
	return s->hardware.gpu.gpu_class[0] == 'c' && /* the library call only for a "c..." */
		       strcmp(s->hardware.gpu.gpu_class, "consumer") == 0
		   ? ENGINE_LLAMACPP
		   : ENGINE_CUDA_GRAPHS;
}

enum dtype plan_precision(const struct scenario *s)
{
	const struct workload *w = &s->workload;
	const struct gpu *g = &s->hardware.gpu;
	bool infer = w->kind == WL_ONLINE || w->kind == WL_OFFLINE;

	if (w->precision != PRECISION_AUTO)
		return w->precision;
	/* fp8 checkpoints compute W8A8 on fp8 tensor cores: vLLM's Fp8LinearMethod quantises
	 * the activations and calls cutlass_scaled_mm on compute capability 8.9 and up
	 * (vllm/model_executor/layers/quantization/fp8.py, apply; Marlin W8A16 below it),
	 * TensorRT-LLM's FP8 recipe runs FP8 GEMMs on Ada, Hopper and Blackwell
	 * (docs/source/reference/precision.md); llama.cpp has no fp8 GEMM */
	if (infer && w->weights == DTYPE_FP8 && g->peak_flops[DTYPE_FP8] > 0 &&
	    plan_engine(s) == ENGINE_CUDA_GRAPHS)
		return DTYPE_FP8;
	/* NVFP4 checkpoints compute W4A4 on FP4 tensor cores the same way: vLLM's
	 * ModelOptNvFp4LinearMethod quantises the activations to fp4 with the checkpoint's
	 * input_scale (scaled_fp4_quant) and calls cutlass_scaled_fp4_mm on compute
	 * capability 10.0 and up (vllm/model_executor/layers/quantization/modelopt.py,
	 * apply), TensorRT-LLM's NVFP4 recipe runs FP4 GEMMs on Blackwell
	 * (docs/source/reference/precision.md). MXFP4 (gpt-oss) stays weight-only: vLLM's
	 * default Blackwell MoE backend is SM100_FI_MXFP4_BF16, bf16 activations; its
	 * MXFP8-activation kernels are opt-in (mxfp4.py get_mxfp4_backend,
	 * VLLM_USE_FLASHINFER_MOE_MXFP4_MXFP8) */
	if (infer && w->weights == DTYPE_NVFP4 && g->peak_flops[DTYPE_NVFP4] > 0 &&
	    plan_engine(s) == ENGINE_CUDA_GRAPHS)
		return DTYPE_NVFP4;
	/* int4/int8/mxfp4 weights dequantise inside 16-bit GEMMs (weight-only) */
	if (infer && w->weights == DTYPE_FP16)
		return DTYPE_FP16;
	/* V100 and T4 have no bf16 tensor cores: mixed precision runs fp16 there */
	if (!(g->peak_flops[DTYPE_BF16] > 0) && g->peak_flops[DTYPE_FP16] > 0)
		return DTYPE_FP16;
	return DTYPE_BF16;
}

/* The architecture the plan uses and its parameter counts (model_resolve_shape,
 * model_count_params), remembered for the last model this thread planned: search, goal
 * seek and the UI's layout keys plan one model many times. The key is the whole
 * architecture, every byte of struct model from params on (what both functions read; it
 * holds no pointer), so an edited field is a new key and never a stale count. */
struct counted {
	bool valid;
	bool assumed;
	struct model in, out;
	struct model_params counts;
};

static void resolve_counted(const struct model *in, struct plan *p)
{
	static _Thread_local struct counted last;
	const size_t at = offsetof(struct model, params), n = sizeof(*in) - at;

	if (last.valid && memcmp((const char *)in + at, (const char *)&last.in + at, n) == 0) {
		memcpy((char *)&p->model + at, (const char *)&last.out + at, n);
		p->shape_assumed = last.assumed;
		p->counts = last.counts;
		return;
	}
	model_resolve_shape(in, &p->model, &p->shape_assumed);
	model_count_params(&p->model, &p->counts);
	memcpy((char *)&last.in + at, (const char *)in + at, n);
	memcpy((char *)&last.out + at, (const char *)&p->model + at, n);
	last.assumed = p->shape_assumed;
	last.counts = p->counts;
	last.valid = true;
}

void plan_compute_memory(const struct scenario *s, struct plan *p)
{
	const struct workload *wl = &s->workload;
	const struct parallel *par = &s->parallel;
	struct mctx x;
	const struct model *m;
	const struct model_params *c;
	int count = imax(1, s->hardware.count);
	double cells;
	bool fp32;

	/* a hybrid's blocks, bytes per token (plan.h); NaN but for a hybrid in training */
	double hblocks[PLAN_BLOCKS] = {NAN, NAN, NAN, NAN, NAN, NAN};

	/* fields that not every path sets (no memset of the whole context: hot path) */
	x.tied_copy = x.base_b = x.embed_b = x.g_b = x.o_b = x.ad_b = x.o_paged_b = 0;
	x.ad_layer_dense = x.ad_layer_moe_ne = x.ad_layer_expert = 0;
	x.act.lora_attn = x.act.lora_mlp = 0;
	x.micro_batches = x.b = x.kv_elem_b = 0;
	x.per_dense = x.per_moe = x.prefill = x.seq_tokens = x.rebuilt = 0;
	x.decode_seq[0] = x.decode_seq[1] = 0;
	x.profile = x.profile_tokens = 0;
	x.fw = framework_get(wl->framework);
	x.fw_set = wl->framework != FW_DEFAULT;
	x.loss = wl->loss != LOSS_AUTO ? wl->loss : x.fw->loss;
	x.grads = framework_grads(wl->framework, wl->grad_lifetime);
	x.act.eager = x.act.fp8_te = x.act.fp8_ao = x.act.fp8_attn = x.act.lora_drop = false;
	x.slack = x.fw_set ? x.fw->reserved_slack : FRAGMENTATION;
	/* efficiency.memory_overhead: the slack measured on the run (max_memory_reserved over
	 * max_memory_allocated, less 1: torch.cuda memory statistics) replaces it */
	if (s->efficiency.memory_overhead > 0)
		x.slack = s->efficiency.memory_overhead;
	p->memory_overhead = x.slack;
	p->nwarnings = 0;
	p->engine = plan_engine(s);
	p->precision = x.precision = plan_precision(s);
	p->peak_precision = p->precision; /* plan_time.c: the fallback when there is no peak */
	resolve_counted(&s->model, p);
	p->model.preset[0] = p->model.hf_config[0] = '\0'; /* names: see the scenario */
	m = &p->model;
	c = &p->counts;
	x.s = s;
	x.m = m;
	x.c = c;
	p->params = c->total;
	p->active_params = c->active;
	if (p->shape_assumed)
		plan_warn(p, PW_SHAPE_ASSUMED, 0, 0);
	/* a vision tower is held (stage_memory), but no image is: its tokens, activations
	 * and compute are not in the plan (hf_config.c says so at import; the report must) */
	if (m->vision_params > 0)
		plan_warn(p, PW_VISION_NOT_MODELLED, m->vision_params, 0);

	x.training = wl->kind == WL_TRAIN || wl->kind == WL_FINETUNE;
	x.lora = wl->kind == WL_FINETUNE && wl->finetune.method != FT_FULL;

	/* layout */
	x.tp = imax(1, par->tp);
	x.pp = imax(1, par->pp);
	x.ep = m->moe.experts > 0 ? imax(1, par->ep) : 1;
	x.cp = x.training ? imax(1, par->cp) : 1; /* training only (gpuplan-scenario(5)) */
	x.vs = x.training ? imax(1, par->virtual_stages) : 1;
	x.sp = x.training && par->sequence_parallel && x.tp > 1;
	cells = (double)x.tp * x.pp * x.ep * x.cp; /* up to 65536^4: kept in double */
	{
		/* whole numbers: the quotient (at most count, an int) truncates to its floor
		 * and its product is exact, so the remainder test needs no fmod */
		double q = (int)(count / cells);
		x.dp = par->dp > 0 ? par->dp : (int)dmax(1, q);
		if (cells * x.dp > count || (par->dp <= 0 && q * cells != count))
			plan_warn(p, PW_LAYOUT_INVALID, cells * x.dp, count);
		else if (cells * x.dp < count)
			plan_warn(p, PW_IDLE_GPUS, cells * x.dp, count);
	}
	x.zero = x.training ? framework_zero(wl->framework, par->zero, x.dp * x.ep * x.cp) : 0;
	/* llm.c runs ZeRO-2 and -3 as stage 0: set_zero_configs prints "Disabling Zero
	 * Optimization, Zero Stage2 and Stage3 are not yet supported" and sets zero_stage 0
	 * (karpathy/llm.c llmc/zero.cuh) */
	if (wl->framework == FW_LLMC && x.zero >= 2) {
		plan_warn(p, PW_ZERO_FALLBACK, wl->framework, x.zero);
		x.zero = 0;
	}
	x.replicas = (double)x.dp * x.ep;
	x.inv_tp = 1.0 / x.tp;
	x.inv_rne = 1 / (x.replicas * x.cp);
	x.inv_rex = 1.0 / ((double)x.dp * x.cp);
	p->tp = x.tp;
	p->pp = x.pp;
	p->dp = x.dp;
	p->ep = x.ep;
	p->cp = x.cp;
	p->virtual_stages = x.vs;
	p->zero = x.zero;

	/* fields the framework ignores: ZeRO and offload belong to training frameworks, a
	 * memory fraction to the serving engines that size their KV cache from one */
	if (x.fw_set) {
		if (!x.fw->trains &&
		    framework_zero(wl->framework, par->zero, x.dp * x.ep * x.cp) > 0)
			plan_warn(p, PW_FRAMEWORK_CONFLICT, wl->framework, CONFLICT_ZERO);
		if (!x.fw->trains && par->offload != OFFLOAD_NONE)
			plan_warn(p, PW_FRAMEWORK_CONFLICT, wl->framework, CONFLICT_OFFLOAD);
		if (x.fw->kv_rule == KV_RULE_FIT && wl->gpu_memory_utilization > 0)
			plan_warn(p, PW_FRAMEWORK_CONFLICT, wl->framework, CONFLICT_MEM_FRACTION);
		/* FSDP under a pipeline keeps the stage gathered whatever the policy
		 * (framework_keeps_gathered: torch/distributed/pipelining/stage.py,
		 * backward_maybe_with_nosync; torchtitan forces reshard_after_forward False) */
		if (x.fw->trains && par->reshard_after_forward == RESHARD_ALWAYS &&
		    framework_nosync_pipeline(wl->framework, x.pp))
			plan_warn(p, PW_FRAMEWORK_CONFLICT, wl->framework, CONFLICT_RESHARD);
	}

	/* layers */
	x.L = m->layers > 0 ? m->layers : 0;
	x.Lm = dmin(model_moe_layers(m), x.L);
	x.Ld = x.L - x.Lm;
	x.stage_layers = x.pp > 1 ? ceil(x.L / x.pp) : x.L;
	/* the loaded stage's layers that recompute (workload.recompute_layers; all by default) */
	p->recompute_layers = 0;
	if (x.training && wl->recompute != RECOMPUTE_NONE)
		p->recompute_layers = wl->recompute_layers > 0 &&
					      wl->recompute_layers < x.stage_layers &&
					      wl->recompute_method != RECOMPUTE_UNIFORM
					  ? wl->recompute_layers
					  : (int)x.stage_layers;
	if (x.L > 0 && (m->layers % (x.pp * x.vs)) != 0)
		plan_warn(p, PW_LAYERS_NOT_DIVISIBLE, m->layers, (double)x.pp * x.vs);
	{
		double E = x.Lm > 0 ? m->moe.experts : 0;
		x.shared_layer = x.Lm > 0 ? c->shared : 0;
		/* the final norm (and anything outside the layers, embedding and head), kept
		 * as the remainder so that the parts add up to the total exactly */
		x.other = c->total - c->embedding - c->head - x.L * (c->attention + c->norms) -
			  x.Ld * c->mlp - x.Lm * (c->router + E * c->expert + x.shared_layer);
		/* Megatron keeps a copy of tied embeddings on the last stage for the output
		 * layer and all-reduces their gradients with the first. */
		if (m->tied_embeddings && x.pp > 1 && x.L > 0)
			x.tied_copy =
			    (double)m->vocab * (m->embed_dim > 0 ? m->embed_dim : m->hidden);
	}

	/* bytes per parameter */
	fp32 = p->precision == DTYPE_FP32 || p->precision == DTYPE_TF32;
	if (x.training) {
		/* mixed precision (Micikevicius et al. 2018; ZeRO paper Section 5): 16-bit
		 * weights and gradients, or a gradient buffer in grad_dtype, auto the
		 * framework's (framework.c grad_dtype: Megatron's fp32 main_grad, 18 B/param
		 * with Adam); pure fp32 keeps 4-byte gradients. fp8 training keeps bf16
		 * weights (Transformer Engine casts per GEMM). */
		x.w_b = fp32 ? 4 : 2;
		x.g_b = fp32 ? 4
			     : dtype_bytes(wl->grad_dtype != GRAD_DTYPE_AUTO ? wl->grad_dtype
									     : x.fw->grad_dtype);
		{
			enum master_weights mw =
			    wl->master_weights != MASTER_AUTO ? wl->master_weights : x.fw->master;
			enum optimizer_states os = wl->optimizer_states != STATES_AUTO
						       ? wl->optimizer_states
						       : x.fw->states;
			double scales =
			    x.fw_set && wl->optimizer == OPT_ADAM8BIT ? ADAM8BIT_SCALE_BYTES : 0;
			x.o_b = optimizer_bytes_fw(wl->optimizer, fp32, mw, os) + scales;
			/* adapters train in their own dtype: no master copy, the moments in
			 * the resolved dtype */
			x.ad_o_b =
			    optimizer_bytes_fw(wl->optimizer, true, MASTER_NONE, os) + scales;
			x.o_paged_b = os == STATES_PAGED ? optimizer_paged_bytes(wl->optimizer) : 0;
		}
		if (x.lora) {
			enum dtype base = wl->finetune.base_weights;
			if (wl->finetune.method == FT_QLORA &&
			    (base == DTYPE_BF16 || base == DTYPE_FP16 || base == DTYPE_FP32))
				base = DTYPE_NF4; /* QLoRA is defined by its 4-bit base */
			x.base_b = weight_bytes(base, m, 0);
			x.embed_b = x.base_b < 2 ? 2 : x.base_b;
			/* adapters train in their own dtype with no master copy: fp32 (PEFT's
			 * autocast_adapter_dtype default) or 16-bit (qlora.py casts LoRA layers
			 * to bf16); the optimizer's moments stay fp32 either way
			 * (paged_adamw_32bit) */
			x.ad_b = dtype_bytes(wl->finetune.adapter_dtype);
			x.g_b = x.ad_b;
			x.o_b = x.ad_o_b;
			/* bitsandbytes pages only the states of tensors of 1e5 values or more
			 * (get_state_buffer): an adapter matrix has rank x (in or out), its
			 * largest rank x ffn with an MLP target, else rank x hidden; all
			 * adapters are taken as paged or not by the largest */
			if ((double)wl->finetune.rank *
				(wl->finetune.targets & (LORA_GATE | LORA_UP | LORA_DOWN)
				     ? dmax(m->hidden, m->ffn)
				     : m->hidden) <
			    1e5)
				x.o_paged_b = 0;
		}
		x.b = imax(1, wl->micro_batch);
		p->global_batch =
		    wl->global_batch > 0 ? wl->global_batch : (int)dmin(x.b * x.replicas, 2e9);
		{
			/* A global batch that does not divide over micro_batch x replicas (Megatron
			 * and DeepSpeed refuse it): the replica with the most sequences runs
			 * ceil(global / (micro_batch x replicas)) micro-batches and the step waits
			 * for it, while the step still trains the global batch's tokens, so
			 * the idle slots cost time and never add throughput. */
			double per_step = x.b * x.replicas;
			double q =
			    (int)(p->global_batch / per_step); /* floor: a non-negative int */
			if (q * per_step != p->global_batch) {
				q += 1;
				plan_warn(p, PW_BATCH_NOT_DIVISIBLE, p->global_batch, per_step);
			}
			x.micro_batches = dmax(1, q);
		}
		p->micro_batches = (int)x.micro_batches;
		x.act.e = act_bytes(p->precision);
		x.act.mask = m->dropout ? 1 : 0;
		/* context parallelism: each GPU holds seq_len / cp tokens of every sequence
		 * (two of the 2 cp chunks, megatron/training/utils.py
		 * get_batch_on_this_cp_rank), so every stored activation, the head's and the
		 * loss's included, is of s / cp tokens; the attention scores of a ring step
		 * are (s / cp) x (s / cp), a / cp of the layer's */
		x.act.s = (double)wl->seq_len / x.cp;
		x.act.t = x.tp;
		x.act.it = x.inv_tp;
		x.act.rt = x.sp ? x.tp : 1;
		x.act.inv_rt = 1 / x.act.rt;
		x.act.flash = wl->flash_attention;
		x.act.rc = wl->recompute;
		x.act.frozen = x.lora;
		x.act.targets = wl->finetune.targets;
		x.act.eager = framework_eager(wl->framework, wl->compile);
		x.act.compiled = framework_compiled(wl->framework, wl->compile);
		x.act.lora_drop = x.lora && wl->finetune.dropout > 0;
		bool fp8 = p->precision == DTYPE_FP8 && s->hardware.gpu.peak_flops[DTYPE_FP8] > 0;
		x.act.fp8_te = x.fw->fp8_te && fp8;
		x.act.fp8_ao = x.fw->fp8_ao && fp8;
		x.act.fp8_attn =
		    x.act.fp8_te && framework_fp8_scope(wl->framework, wl->fp8_scope) == FP8_ALL;
		if (m->max_context > 0 && wl->seq_len > m->max_context)
			plan_warn(p, PW_SEQ_OVER_CONTEXT, wl->seq_len, m->max_context);
	} else {
		x.w_b = weight_bytes(wl->weights, m, wl->weight_group);
		x.we_b = weight_bytes(workload_expert_weights(wl), m, wl->weight_group);
		/* workload.embedding_weights: auto keeps them bf16 as the checkpoint did, and
		 * as a CUDA-graph engine's online fp8 quantization of a 16-bit checkpoint
		 * does (no quantization_config): vLLM's Fp8Config.get_quant_method returns a
		 * method for LinearBase, FusedMoE and Attention only, and
		 * VocabParallelEmbedding / ParallelLMHead take UnquantizedEmbeddingMethod
		 * when it returns none (vllm/model_executor/layers/quantization/fp8.py,
		 * vocab_parallel_embedding.py); SGLang's Fp8Config returns one for
		 * LinearBase and FusedMoE only (python/sglang/srt/layers/quantization/
		 * __init__.py fp8_get_quant_method, v0.4); ModelOpt, which makes
		 * TensorRT-LLM's fp8 engines, quantizes linear layers and disables
		 * "*lm_head*" (modelopt/torch/quantization/config.py
		 * _default_disabled_quantizer_cfg) */
		x.emb_b =
		    wl->embedding_weights == EMB_BF16 ||
			    (wl->embedding_weights == EMB_AUTO &&
			     (m->quant.embed_16 || (!m->quant.set && wl->weights == DTYPE_FP8 &&
						    plan_engine(s) == ENGINE_CUDA_GRAPHS)))
			? 2
			: x.w_b;
		/* workload.attention_weights: auto keeps them bf16 where the checkpoint's
		 * quantization_config lists them unconverted (hf_quant.c); the SSM mixers
		 * that `attention` averages in are not attention */
		x.attn_b = wl->attention_weights == EMB_BF16 ||
				   (wl->attention_weights == EMB_AUTO && m->quant.attn_16)
			       ? 2
			       : x.w_b;
		x.attn_share =
		    c->attention > 0 && m->layers > 0
			? model_attention_layers(m) * c->attention_one / (m->layers * c->attention)
			: 0;
		/* Norm weights stay 16-bit in a quantized checkpoint: every quantizer replaces
		 * linear layers only (hf_quant.c), and vLLM builds RMSNorm/LayerNorm with no
		 * quant_config (vllm/model_executor/layers/layernorm.py RMSNorm), so they load
		 * in the model dtype; ModelOpt's NVFP4 export keeps them bf16 (the tensor
		 * count in tests/unit/test_dtype_quant.c). So do MoE routers: ModelOpt disables
		 * "*router*", "*mlp.gate.*" and "*block_sparse_moe.gate*"
		 * (modelopt/torch/quantization/config.py _default_disabled_quantizer_cfg),
		 * gpt-oss lists mlp.router in modules_to_not_convert, DeepSeek-V3's fp8
		 * checkpoint stores mlp.gate in bf16, and vLLM builds the gate with
		 * quant_config=None (models/mixtral.py MixtralMoE, deepseek_v2.py
		 * DeepseekV2MoE). fp32 weights keep fp32 norms. */
		x.norm_b = x.w_b < 2 ? 2 : x.w_b;
		x.kv_elem_b = kv_elem_bytes(wl->kv_cache, m->head_dim);
		/* TensorRT-LLM's fp8 checkpoints (examples/quantization/quantize.py --qformat
		 * fp8) keep the KV cache in the model's dtype: kv_cache_quant_algo is set only
		 * by --kv_cache_dtype fp8 (or int8); the plan keeps the 16-bit cache it was
		 * given and says so */
		if (wl->framework == FW_TRTLLM && wl->weights == DTYPE_FP8 &&
		    (wl->kv_cache == DTYPE_BF16 || wl->kv_cache == DTYPE_FP16 ||
		     wl->kv_cache == DTYPE_FP32))
			plan_warn(p, PW_TRTLLM_KV_16BIT, wl->kv_cache, 0);
		p->micro_batches = 1;
		if (m->max_context > 0 &&
		    (double)wl->prompt_tokens + wl->output_tokens > m->max_context)
			plan_warn(p, PW_SEQ_OVER_CONTEXT,
				  (double)wl->prompt_tokens + wl->output_tokens, m->max_context);
	}

	if (x.lora) {
		double moe_ne, per_expert_layer;
		lora_counts(m, &wl->finetune, &x.ad_layer_dense, &moe_ne, &per_expert_layer,
			    &x.act.lora_attn, &x.act.lora_mlp);
		x.ad_layer_moe_ne = moe_ne;
		x.ad_layer_expert = per_expert_layer;
		/* ad_layer_dense holds a dense layer's adapters; stage_memory takes
		 * layers x moe_ne + dense x (dense - moe_ne) */
		p->trainable_params = x.Ld * x.ad_layer_dense + x.Lm * (moe_ne + per_expert_layer);
	} else {
		p->trainable_params = x.training ? c->total : NAN;
	}
	x.trainable = p->trainable_params;

	/* activations that do not depend on the stage */
	if (x.training) {
		double sb = x.act.s * x.b;
		enum recompute rc = x.act.rc;
		double ad = 0, am = 0; /* a dense and a MoE layer's, per token */
		act_layers_token(m, &x.act, rc, x.Ld > 0 ? &ad : NULL, x.Lm > 0 ? &am : NULL,
				 hblocks);
		x.per_dense = ad * sb;
		x.per_moe = am * sb;
		double kept_d = x.per_dense, kept_m = x.per_moe; /* a recomputing layer's */
		/* workload.recompute_layers: only R of the stage's layers recompute, the
		 * others store everything as without recomputation (Megatron
		 * --recompute-method block: "the first N layers of each pipeline stage",
		 * megatron/core/transformer/transformer_block.py _checkpointed_forward;
		 * torchtitan selective_ac_option "N": every N-th block wrapped, its count
		 * from 1, floor(L / N) of them,
		 * torchtitan/distributed/activation_checkpoint.py _apply_layer_sac): the
		 * stage's layers average R x the recomputed layer's and (Ls - R) x the
		 * stored one's. The layer rebuilt in the backward stays one layer. */
		/* Megatron --recompute-method uniform --recompute-num-layers N (recompute full):
		 * the stage's layers run in chunks of N, each under one
		 * tensor_parallel.checkpoint that saves only the chunk's input
		 * (megatron/core/transformer/transformer_block.py _checkpointed_forward, or
		 * megatron/core/recompute.py, "checkpoint the input activation of each divided
		 * chunk"; the last chunk holds what is left): ceil(Ls / N) layer inputs over
		 * the stage's Ls layers. The backward reruns a whole chunk's forward, so the
		 * rebuilt part below is N layers' stored tensors. */
		double chunk = 1;
		if (wl->recompute_method == RECOMPUTE_UNIFORM && rc == RECOMPUTE_FULL &&
		    wl->recompute_layers > 1 && x.stage_layers > 0) {
			chunk = dmin(wl->recompute_layers, x.stage_layers);
			double f = ceil(x.stage_layers / wl->recompute_layers) / x.stage_layers;
			x.per_dense *= f;
			x.per_moe *= f;
		} else if (wl->recompute_layers > 0 && rc != RECOMPUTE_NONE &&
			   wl->recompute_method != RECOMPUTE_UNIFORM &&
			   wl->recompute_layers < x.stage_layers) {
			double f = wl->recompute_layers / x.stage_layers, nd = 0, nm = 0;
			act_layers_token(m, &x.act, RECOMPUTE_NONE, x.Ld > 0 ? &nd : NULL,
					 x.Lm > 0 ? &nm : NULL, NULL);
			x.per_dense = (f * ad + (1 - f) * nd) * sb;
			x.per_moe = (f * am + (1 - f) * nm) * sb;
		}
		/* Recomputation rebuilds one layer (Megatron's checkpointed chunk of one layer,
		 * PyTorch's checkpoint) at a time in the backward: its forward runs again with
		 * autograd on, so for that layer's backward the GPU holds what the layer
		 * stores without recomputation on top of what it kept (full: its input;
		 * selective: everything but the scores). Chen et al. 2016, Section 3 (the
		 * peak is the checkpoints plus one segment). Korthikanti's formulas count the
		 * stored part, which stays memory.activations; the rebuilt layer is transient
		 * and joins the overhead (like the communication buffers). With
		 * FlashAttention selective recompute keeps everything already (the kernel
		 * recomputes its scores itself): nothing rebuilt. */
		if (x.act.rc == RECOMPUTE_FULL || x.act.rc == RECOMPUTE_OP ||
		    x.act.rc == RECOMPUTE_ATTENTION) {
			/* (the stored part above was one multiplication) */
			double d = 0, e = 0;
			act_layers_token(m, &x.act, RECOMPUTE_NONE, x.Ld > 0 ? &ad : NULL,
					 x.Lm > 0 ? &am : NULL, NULL);
			if (x.Ld > 0)
				d = chunk * ad * sb - kept_d;
			if (x.Lm > 0)
				e = chunk * am * sb - kept_m;
			x.rebuilt = dmax(0, dmax(d, e));
		} else if (x.act.rc == RECOMPUTE_SELECTIVE && !x.act.flash) {
			x.rebuilt = act_scores_token(local_heads(m->heads, x.tp), &x.act) * sb;
		}
	} else {
		double e = act_bytes(p->precision);
		x.seq_tokens = (double)wl->prompt_tokens + wl->output_tokens;
		kv_window(&x, m);
		x.prefill = wl->prompt_tokens *
			    act_infer_token(m, e, x.tp, wl->prompt_tokens, wl->flash_attention);
		/* vLLM's profile run is one forward of max_num_batched_tokens tokens
		 * (vllm/v1/worker/gpu_model_runner.py profile_run: _dummy_run(
		 * self.max_num_tokens, is_profile=True), max_num_tokens = scheduler_config.
		 * max_num_batched_tokens), whose torch peak gpu_worker.py
		 * determine_available_memory takes from the KV cache's share. Under chunked
		 * prefill that is the step's token budget (workload.max_batched_tokens, else
		 * the framework's, as the serving model's serve_config takes it); without,
		 * max(max_model_len, 2048) (vllm/config.py SchedulerConfig; gpuplan's sequence
		 * length stands for max_model_len). The sampler's fp32 logits of its
		 * PROFILE_SEQS sequences are added on the last stage. */
		if (x.fw->kv_rule != KV_RULE_FIT) {
			double T = dmax((double)wl->prompt_tokens + wl->output_tokens, 2048);
			struct serving_engine eng;
			double budget;
			framework_serving(wl->framework, wl->scheduler,
					  plan_engine(s) == ENGINE_CUDA_GRAPHS,
					  wl->kind == WL_OFFLINE, s->hardware.gpu.memory_bytes,
					  s->hardware.gpu.id, &eng);
			budget = wl->max_batched_tokens > 0 ? wl->max_batched_tokens
							    : eng.max_batched_tokens;
			if (eng.sched == SCHED_CHUNKED && budget > 0)
				T = budget;
			x.profile_tokens = T;
			x.profile = T * act_infer_token(m, e, x.tp, T, wl->flash_attention);
		}
		x.decode_seq[0] = decode_seq_bytes(&x, false);
		x.decode_seq[1] = decode_seq_bytes(&x, true);
	}

	/* the most loaded GPU: first or last pipeline stage */
	{
		struct stage first, last;
		struct plan_memory spare;
		double batch = 1;
		int nst = x.pp > 1 ? 2 : 1;
		/* the stages are written where they likely end up (a copy of a just-written
		 * struct stalls this hot path): one stage straight into p->mem; of two, the
		 * one usually more loaded there (training: the first, which holds the most
		 * micro-batches' activations; inference: the last, with the logits) */
		struct plan_memory *a = nst == 2 && !x.training ? &spare : &p->mem;
		struct plan_memory *b = a == &spare ? &p->mem : &spare;
		/* a serving framework's KV rule, per stage: its budget, pool in whole blocks,
		 * one sequence's blocks and the profiled activations */
		bool kv_rule = !x.training && x.fw->kv_rule != KV_RULE_FIT;
		double budget[2] = {0, 0}, pool[2] = {0, 0}, seq_bytes[2] = {0, 0};
		double profiled[2] = {0, 0}, logits[2] = {0, 0}, ptokens = 0;

		stage_init(&x, true, x.pp == 1, &first);
		stage_init(&x, x.pp == 1, true, &last);
		stage_memory(&x, &first, a);
		if (nst == 2)
			stage_memory(&x, &last, b);
		p->max_batch = NAN;
		p->mem_fraction = NAN;
		if (!x.training) {
			/* max_batch: the most sequences whose KV cache (and decode working set)
			 * fits beside everything else, on the tighter stage:
			 * (1 + f)(W + max(P, B d) + B k) + fixed <= capacity */
			double best = INFINITY, free_b = 0, per_seq = 0;
			double frac = wl->gpu_memory_utilization > 0
					  ? wl->gpu_memory_utilization
					  : framework_mem_fraction(wl->framework, x.tp);
			if (kv_rule)
				p->mem_fraction = frac;
			for (int i = 0; i < nst; i++) {
				const struct plan_memory *z = i ? b : a;
				double X, k, d = x.decode_seq[i ? last.last : first.last];
				double P = x.prefill, mb;
				double state = ssm_state_bytes(&x, i ? &last : &first);
				k = z->kv_bytes_per_token * x.seq_tokens + state;
				X = (z->capacity - z->cuda_context - z->comm_buffers -
				     z->blas_workspace) /
					(1 + x.slack) -
				    z->weights;
				mb = k + d > 0 ? dmin(k > 0 ? (X - P) / k : INFINITY, X / (k + d))
					       : INFINITY;
				mb = floor(dmax(0, mb));
				if (kv_rule) {
					/* the serving framework's rule replaces the fit */
					double blk =
					    x.fw->kv_block_tokens > 0 ? x.fw->kv_block_tokens : 1;
					double bb = blk * z->kv_bytes_per_token;
					double lg = (i ? last.last : first.last) * PROFILE_SEQS *
						    4.0 * m->vocab;
					double prof = x.profile + lg;
					double nt = z->cuda_context, cap = z->capacity,
					       W = z->weights;
					double blocks;
					if (x.fw->kv_rule == KV_RULE_STATIC)
						budget[i] = frac * cap - W;
					else if (x.fw->kv_rule == KV_RULE_FREE)
						budget[i] = frac * (cap - W - prof - nt);
					else /* vLLM's peak torch memory holds the workspaces */
						budget[i] = frac * cap -
							    (W + prof + z->blas_workspace) - nt;
					blocks = bb > 0 ? floor(dmax(0, budget[i]) / bb) : 0;
					pool[i] = blocks * bb;
					profiled[i] = x.profile;
					logits[i] = lg;
					ptokens = x.profile_tokens;
					seq_bytes[i] = ceil(x.seq_tokens / blk) * bb;
					mb = seq_bytes[i] > 0
						 ? floor(blocks / ceil(x.seq_tokens / blk))
						 : INFINITY;
					if (state > 0) {
						/* the recurrent state beside the blocks: one
						 * slot per sequence (vLLM's MambaSpec) */
						double kb =
						    bb > 0 ? blocks * bb : dmax(0, budget[i]);
						seq_bytes[i] += state;
						mb = floor(kb / seq_bytes[i]);
						pool[i] = mb * seq_bytes[i];
					}
					X = budget[i];
					P = 0;
					k = seq_bytes[i];
				}
				if (mb < best) {
					best = mb;
					free_b = X - P;
					per_seq = k;
				}
			}
			if (!isfinite(best))
				best = 1e9; /* nothing to cache (a shapeless model): no limit */
			p->max_batch = best;
			if (best < 1)
				plan_warn(p, PW_KV_NO_ROOM, dmax(0, free_b * (1 + FRAGMENTATION)),
					  per_seq * (1 + FRAGMENTATION));
			batch = wl->batch > 0 ? wl->batch : dmin(dmax(1, best), 1e9);
			p->global_batch = (int)batch;
		}
		stage_finish(&x, &first, batch, a);
		if (kv_rule)
			kv_rule_finish(a, pool[0], seq_bytes[0], batch, budget[0], ptokens,
				       profiled[0], logits[0]);
		if (nst == 2) {
			stage_finish(&x, &last, batch, b);
			if (kv_rule)
				kv_rule_finish(b, pool[1], seq_bytes[1], batch, budget[1], ptokens,
					       profiled[1], logits[1]);
			/* the more loaded stage; the first on a tie */
			const struct plan_memory *more = b->total > a->total ? b : a;
			if (more != &p->mem)
				p->mem = *more;
		}
	}
	memcpy(p->mem.act_block, hblocks, sizeof(hblocks));
	if (!p->mem.fits)
		plan_warn(p, PW_DOES_NOT_FIT, p->mem.total, p->mem.capacity);
	else if (p->mem.optimizer_evicted > 0)
		plan_warn(p, PW_PAGED_EVICTED, p->mem.optimizer_evicted, 0);
}
