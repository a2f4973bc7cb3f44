/* plan_train.c - training step time: the micro-batch, the step, checkpoints, goodput. */
#include "plan_time_int.h"

/* ---- training ---- */

struct train_mb { /* one micro-batch on the most loaded (last) pipeline stage, seconds */
	double matmul, attention, membound, tp, ep, pp, cp, bwd;
	double tp_alone; /* the TP collectives before any overlap */
	double scan;	 /* the state-space scans, part of attention */
};

/* Context parallelism's K/V exchange of one attention layer, seconds, and what of it shows
 * beside that layer's attention (att, its passes: forward, recomputed forward, backward).
 * Each rank holds T tokens of each sequence (two of the 2 cp chunks,
 * megatron/training/utils.py get_batch_on_this_cp_rank) and kvd_local = K/V heads x
 * head_dim on its tp rank; the cp group's ranks are tp apart (Megatron's order
 * tp-cp-ep-dp-pp, megatron/core/parallel_state.py), so it spans tp x cp GPUs.
 * Transformer Engine (transformer_engine/pytorch/attention/dot_product_attention/
 * context_parallel.py):
 * - p2p (AttnFuncWithCPAndKVP2P, the ring): cp - 1 steps a forward pass, each sending the
 *   K/V chunk on while attention runs on the one received (the two on separate streams),
 *   and cp - 1 a backward, sending K/V with their gradients (twice the bytes); so only
 *   the exchange beyond the attention it overlaps shows: max(0, comm - att);
 * - all_gather (AttnFuncWithCPAndKVAllGather; Llama 3, Dubey et al. 2024, Section 3.3.2):
 *   an all-gather of K/V before each forward pass and, in the backward, the all-gather
 *   again and a reduce-scatter of dK/dV, not overlapped with the attention. */
static double cp_exchange_s(const struct tctx *c, const struct scenario *s, double cp, double t,
			    double T, double kvd_local, double fwd, double att)
{
	double chunk = 2 * T * kvd_local * c->act; /* this rank's K and V, bytes */
	double bw = fabric_bw(c, t * cp), lat = fabric_lat(c, t * cp);

	if (cp <= 1)
		return 0;
	if (s->parallel.cp_comm == CP_COMM_ALL_GATHER)
		return (fwd + 2) * gather_s(chunk * cp, cp, bw, lat);
	return dmax(0, (cp - 1) * (fwd * (chunk / bw + lat) + 2 * chunk / bw + lat) - att);
}

/* Communication x on a side stream behind compute c (CUDA streams; NCCL or copy-engine
 * collectives), where the compute runs at speed k (0 < k <= 1, framework_overlap_speed)
 * while the communication does, since both share the SMs and HBM: the pair takes
 * max(x, c + x (1 - k)) (the compute finishes under the communication, or the
 * communication slows x (1 - k) of it), so what shows beyond c is
 * max(x - c, x (1 - k)). It never exceeds x (no overlap), never falls below
 * max(0, x - c) (perfect overlap, k = 1), and does not fall as x grows or rise as c does. */
static double overlap_s(double x, double c, double k)
{
	if (!(x > 0))
		return 0;
	return dmax(x - c, x * (1 - k));
}

/* One layer's forward GEMMs for T tokens: seconds; accumulates FLOPs into c. */
static double layer_gemm_fwd(struct tctx *c, const struct shape *sh, double T, double ep, bool moe)
{
	double w = c->act, g = 0, it = c->it;

	/* a hybrid's layers: attention, state-space mixer and MLP GEMMs each weighted by the
	 * share of the layers that have them (gemm_s's count is a multiplier) */
	g += pt_gemm_s(c, T, (sh->qd + sh->qgate + 2 * sh->kvd) * it, sh->h, sh->attn, w);
	g += pt_gemm_s(c, T, sh->h, sh->qd * it, sh->attn, w);
	if (sh->ssm > 0) {
		g += pt_gemm_s(c, T, sh->ssm_in * it, sh->h, sh->ssm, w);
		g += pt_gemm_s(c, T, sh->h, sh->ssm_di * it, sh->ssm, w);
	}
	if (!moe) {
		g += pt_gemm_s(c, T, sh->ffn * it, sh->h, (sh->mats - 1) * sh->mlp_dense, w);
		g += pt_gemm_s(c, T, sh->h, sh->ffn * it, sh->mlp_dense, w);
	} else {
		/* each GPU holds experts/ep experts and receives T x active x ep / experts
		 * tokens for each (balanced routing) */
		double local = sh->experts / ep;
		double te = T * sh->active * ep / sh->experts;
		g += pt_gemm_s(c, te, sh->expert_ffn * it, sh->h, (sh->mats - 1) * local, w);
		g += pt_gemm_s(c, te, sh->h, sh->expert_ffn * it, local, w);
		if (sh->shared_ffn_total > 0) {
			g += pt_gemm_s(c, T, sh->shared_ffn_total * it, sh->h, sh->mats - 1, w);
			g += pt_gemm_s(c, T, sh->h, sh->shared_ffn_total * it, 1, w);
		}
		g += pt_gemm_s(c, T, sh->experts, sh->h, 1, w); /* router */
	}
	return g;
}

/* The HBM bytes eager layer code moves per token per layer in the forward beyond the fused
 * count of ELT_H / ELT_FFN_*, read off the modules' kernels (e = bytes an activation
 * element, it = 1 / tp, f = the MLP width a token passes):
 * - RMSNorm (torchtune/modules/rms_norm.py; transformers' LlamaRMSNorm alike): x.float()
 *   (e read, 4 written), pow (4, 4), mean (4), the multiply by rsqrt (4, 4), type_as (4,
 *   e), the scale (e, e): 28 + 4 e bytes an element where a fused norm moves 2 e; two a
 *   layer;
 * - rotary (torchtune/modules/position_embeddings.py, RotaryPositionalEmbeddings): x.float()
 *   (e, 4), four half-width products (2 + 2 each), their sum and difference (4 + 2 each),
 *   torch.stack (4, 4), type_as (4, e): 44 + 2 e, 44 more than a fused pass, on q and k;
 *   transformers' apply_rotary_pos_emb stays in the activations' dtype (rotate_half's cat,
 *   two products, a sum: 9 e, 7 e more);
 * - GQA: k and v expanded to every query head by a copy (torchtune attention.py
 *   expand(...).flatten(1, 2); transformers repeat_kv), kv_dim read, q_dim written each;
 * - the attention output's transpose(1, 2).contiguous(): q_dim read and written;
 * - a gated MLP, w2(silu(w1(x)) * w3(x)): SiLU (f, f) and the product (2 f, f) as two
 *   kernels, 5 e f where the fused SwiGLU moves 3 e f.
 * The backward runs each op's autograd kernels, counted as the fused work's twice. Not
 * fitted: tests/unit/test_overlap.c checks it against torchtune's README, compiled and
 * not. */
static double eager_bytes(const struct shape *sh, double f, double e, double it, int fw)
{
	double q = sh->qd * it, kv = sh->kvd * it;
	double rope = fw == FW_HF ? 7 * e : 44;
	double b = 2 * (28 + 2 * e) * sh->h + rope * (q + kv) + 2 * e * q;
	if (sh->kvd < sh->qd)
		b += 2 * e * (kv + q);
	if (sh->mats == 3)
		b += 2 * e * f * it;
	return b;
}

/* The share of a layer's forward GEMM FLOPs that torchtitan's per-op selective
 * checkpointing (workload.recompute op) runs again in the backward: its policy saves the
 * outputs of the save-list ops except every second mm, counted afresh in each layer's
 * checkpoint context (torchtitan/distributed/activation_checkpoint.py,
 * _get_custom_policy: "Save all compute/comm ops, except every second mm/linear"). A
 * Llama layer runs wq, wk, wv, wo, then w1, w3, w2 (torchtitan/models/common/
 * feed_forward.py: w2(silu(w1(x)) * w3(x))): wk, wo and w3 are recomputed; a plain MLP's
 * sixth is w2, as wide. */
static double op_recompute_share(const struct shape *sh)
{
	double all = 2 * sh->qd + 2 * sh->kvd + sh->mats * sh->ffn;
	return all > 0 ? (sh->kvd + sh->qd + sh->ffn) / all : 0;
}

/* The share of a layer's forward GEMMs that attention-only checkpointing (workload.recompute
 * attention: OLMo-core's selected_modules over the blocks' attention, PyTorch's
 * checkpoint_wrapper; plan_memory.c act_attention_ckpt_token) runs again in the backward:
 * the attention module's q, k, v and output projections, in the layers that attend. */
static double attn_recompute_share(const struct shape *sh)
{
	double all = 2 * sh->qd + 2 * sh->kvd + sh->mats * sh->ffn;
	return all > 0 ? (2 * sh->qd + 2 * sh->kvd) * sh->attn / all : 0;
}

/* The share of the forward GEMMs a recomputation policy runs again beyond whole forwards
 * (full recomputation's are counted as forward passes): per-op's every second matmul,
 * attention-only's projections; rl of the layers recompute. */
static double gemm_again(const struct workload *w, const struct shape *sh, double rl)
{
	if (w->recompute == RECOMPUTE_OP)
		return rl * op_recompute_share(sh);
	if (w->recompute == RECOMPUTE_ATTENTION)
		return rl * attn_recompute_share(sh);
	return 0;
}

/* HBM bytes per logit that the loss (forward and backward, after the output GEMM) moves,
 * by workload.loss (else the framework's), e = bytes of a 16-bit logit:
 * - paper: the fp32 softmax read and written about three times, 12 (Korthikanti et al.
 *   2023 keep the logits in fp32; today's results, so the seed cases hold);
 * - fp32, eager (transformers LlamaForCausalLM `logits.float()`, torchtune
 *   TransformerDecoder `self.output(h).float()`, then F.cross_entropy): the upcast
 *   (e read, 4 written), log_softmax (4, 4), nll_loss_backward's zero-filled fp32
 *   gradient (4), log_softmax_backward (4 + 4 read, 4 written) and the upcast's backward
 *   (4, e): 32 + 2 e; compiled layers leave the upcast an eager op on each side (e + 4,
 *   4 + e) and Inductor fuses the cross-entropy (4 read forward; 4 read, 4 written
 *   backward): 20 + 2 e;
 * - chunked with chunks (torchtune CEWithChunkedOutputLoss, num_output_chunks 8,
 *   torchtune/modules/loss/ce_chunked_output_loss.py: each chunk's `.float()` and
 *   cross_entropy inside the loss that the recipe compiles, training.compile_loss):
 *   compiled, the forward reduces the 16-bit chunk (e read, twice: max, then the sum
 *   of exponentials) and the backward reads it once and writes its 16-bit gradient:
 *   4 e; eager, each chunk moves what the fp32 path does, 32 + 2 e;
 * - chunked without chunks (llm.c fused_classifier, llmc/fused_classifier.cuh
 *   fused_classifier_kernel5): one kernel reads each bf16 row for its softmax
 *   statistics, reads it again ("hopefully still in cache", taken as from L2) and
 *   writes the gradient over it in place: 2 e.
 * - fp32 under torchtitan's loss parallelism (framework loss_parallel, tp > 1; the
 *   vocabulary-sharded logits, per local logit): DTensor's handlers in
 *   torch/distributed/tensor/parallel/loss.py run the decomposed ops one kernel each,
 *   whether or not the layers are compiled (torchtitan compiles the blocks, the loss
 *   runs at DTensor dispatch outside them): forward `.float()` (e read, 4 written),
 *   _log_softmax's amax (4), x - x_max (4, 4), exp (4, 4), sum (4), shifted - logsumexp
 *   (4, 4): 36 + e; nll's gather reads one logit a token; backward
 *   _nll_loss_and_log_softmax_backward's zeros_like (4 written), the scatter of -1 (one
 *   a token), exp(x) (4, 4), grad_input + exp (8, 4), * grad_output (4, 4), the
 *   log_softmax backward handler's .to(fp32) a no-op, then the upcast's backward (4, e):
 *   36 + e; 72 + 2 e in all. The three all-reduces over tp (max and sum of
 *   exponentials in _log_softmax, _MaskPartial's of the target logit) carry 4 bytes a
 *   token, 1 / vocab of this traffic, and are not charged. */
double plan_loss_traffic(const struct workload *w, double tp, double e)
{
	const struct framework_info *fw = framework_get(w->framework);
	enum loss l = w->loss != LOSS_AUTO ? w->loss : fw->loss;
	bool eager = framework_eager(w->framework, w->compile);

	switch (l) {
	case LOSS_FP32:
		if (fw->loss_parallel && tp > 1)
			return 72 + 2 * e;
		return eager ? 32 + 2 * e : 20 + 2 * e;
	case LOSS_CHUNKED:
		if (fw->loss_chunks <= 0)
			return 2 * e;
		return eager ? 32 + 2 * e : 4 * e;
	default:
		return 12;
	}
}

/* HBM bytes per frozen base weight that a quantised base (QLoRA's NF4, an int8 or int4
 * base) moves each time a GEMM uses it in training, on top of the 16-bit weight the GEMM
 * then reads (gemm_s): the weights are dequantised to the activations' dtype before the
 * matmul, in the forward, a recomputed forward and the backward's input gradient
 * (torchao/dtypes/nf4tensor.py linear_nf4: F.linear(input, weight.to(input.dtype)),
 * LinearNF4.backward the same; bitsandbytes MatMul4Bit, dequantize_4bit). One fused
 * kernel (bitsandbytes' kDequantizeBlockwise; torchao's chain under torch.compile) reads
 * the packed weight and writes it in e bytes: q + e. torchao's NF4Tensor in eager
 * PyTorch (torchtune with compile off) runs get_original_weight op by op, per weight:
 * the nibble shift and mask (0.5 read, 0.5 written, each) and their .to(torch.long)
 * (0.5, 4, each), the two nf4[...] look-ups (4, 1, each), the two products with the
 * block scales (1, 1, each) and torch.stack (2, 2): 29 bytes. 16-bit bases: none. */
static double dequant_bytes(const struct workload *w, double e)
{
	enum dtype base = w->finetune.base_weights;
	double q;

	if (w->kind != WL_FINETUNE || w->finetune.method == FT_FULL)
		return 0;
	if (w->finetune.method == FT_QLORA &&
	    (base == DTYPE_BF16 || base == DTYPE_FP16 || base == DTYPE_FP32))
		base = DTYPE_NF4; /* QLoRA is defined by its 4-bit base (as plan_memory.c) */
	q = dtype_bytes(base);
	if (!(q > 0 && q < e))
		return 0;
	if (base == DTYPE_NF4 && w->framework == FW_TORCHTUNE &&
	    framework_eager(w->framework, w->compile))
		return 29;
	return q + e;
}

/* The share of a stage's Ls layers that workload.recompute applies to: R of them under
 * workload.recompute_layers (Megatron --recompute-method block --recompute-num-layers R,
 * the first R of each stage; torchtitan selective_ac_option N, every N-th block: R =
 * floor(L / N)), the others running as without recomputation; all by default, and under
 * --recompute-method uniform, whose chunks of R layers each run their forward again once
 * (megatron/core/recompute.py: every chunk under tensor_parallel.checkpoint). */
static double recompute_share(const struct workload *w, double Ls)
{
	if (w->recompute_layers <= 0 || !(Ls > 0) || w->recompute_layers >= Ls ||
	    w->recompute_method == RECOMPUTE_UNIFORM)
		return 1;
	return w->recompute_layers / Ls;
}

static void train_microbatch(struct tctx *c, const struct shape *sh, struct train_mb *mb,
			     double *fwd_passes_out)
{
	const struct scenario *s = c->s;
	const struct plan *p = c->p;
	const struct workload *w = &s->workload;
	double t = p->tp, pp = p->pp, ep = p->ep > 0 ? p->ep : 1, cp = p->cp > 0 ? p->cp : 1;
	double b = w->micro_batch > 0 ? w->micro_batch : 1, sq = w->seq_len > 0 ? w->seq_len : 1;
	/* tokens of the micro-batch on this GPU: context parallelism splits each sequence
	 * over cp ranks (every GEMM, elementwise and communication term takes T), while
	 * attention still runs each query over the whole sequence's keys: with the causal
	 * load balance (2 cp chunks, two a rank) each rank does 1 / cp of the attention */
	double sql = sq / cp, T = b * sql;
	bool lora = w->kind == WL_FINETUNE && w->finetune.method != FT_FULL;
	/* the share of the stage's layers that recompute (workload.recompute_layers) */
	double rl = recompute_share(w, pp > 1 ? ceil(sh->layers / pp) : sh->layers);
	/* forward passes per micro-batch: full recomputation runs the layers' forward again
	 * in the backward (Chen et al. 2016; Megatron --recompute-granularity full) */
	double fwd = w->recompute == RECOMPUTE_FULL ? 1 + rl : 1;
	/* backward = 2 x forward: input gradients and weight gradients; LoRA freezes the
	 * base weights, so only the input gradients (Hu et al. 2021) */
	double bwd = lora ? 1 : 2;
	/* torchtitan's per-op policy (workload.recompute op) saves the attention kernel's
	 * output (op_sac_save_list): its core is not run again; selective, full and
	 * attention-only run it again */
	double attn_fwd_passes =
	    w->recompute == RECOMPUTE_NONE || w->recompute == RECOMPUTE_OP ? 1 : 1 + rl;
	/* ... and recomputes every second matmul of a layer and its pointwise ops: the
	 * share of the forward GEMMs run again (op_recompute_share) and one more pass of the
	 * elementwise work; attention-only reruns the attention's projections (the
	 * module's own pointwise work, rotary, is not counted again) */
	double op = w->recompute == RECOMPUTE_OP ? rl : 0;
	double again = gemm_again(w, sh, rl);
	/* attention-only reruns the module's tensor-parallel collective (its output
	 * projection's all-reduce, or under sequence parallelism the all-gather before
	 * QKV and the reduce-scatter after the projection, one all-reduce's bytes) */
	double tp_again = w->recompute == RECOMPUTE_ATTENTION ? rl : 0;
	double tp_bw = fabric_bw(c, t), tp_lat = fabric_lat(c, t);
	double dense_layers = sh->layers - sh->moe_layers;
	double gd, gm = 0, att, mem, flops_hd, ffn_eff;
	double per_layer_mm, per_layer_att, per_layer_mem, per_layer_tp, per_layer_ep;
	/* the pipeline runs at the pace of its slowest stage, which holds ceil(L / pp)
	 * layers when they do not split evenly (as the memory part's stage_init takes it) */
	double Ls = pp > 1 ? ceil(sh->layers / pp) : sh->layers;

	*fwd_passes_out = fwd;
	gd = layer_gemm_fwd(c, sh, T, ep, false);
	if (sh->moe_layers > 0)
		gm = layer_gemm_fwd(c, sh, T, ep, true);
	per_layer_mm = (dense_layers * gd + sh->moe_layers * gm) / sh->layers * (fwd + bwd + again);

	/* attention core: QK^T and AV, 2 x 2 x s x keys x head_dim per head per token */
	if (!(sh->attn > 0)) {
		att = 0; /* no layer attends (a pure state-space model) */
	} else if (w->flash_attention) {
		double keys = keys_causal(sh, sq);
		/* at FLASH_EFF of a GEMM of the same shape: emax sat(s) sat(keys) sat(hd) */
		double shape = (sql + GEMM_DIM_HALF) * (keys + GEMM_DIM_HALF) *
			       (sh->hd + GEMM_DIM_HALF) / (sql * keys * sh->hd);
		flops_hd = 4 * T * keys * sh->qd * c->it;
		att = flops_hd * c->inv_peak_emax * (1 / FLASH_EFF) * shape *
		      (attn_fwd_passes + FLASH_BWD_FLOPS) * c->bf16_k;
	} else {
		double keys = keys_full(sh, sq);
		double heads_local = sh->heads * c->it;
		double bmm = 2 * pt_gemm_s(c, sql, keys, sh->hd, b * heads_local, c->act);
		double scores = b * heads_local * sql * keys * SCORE_BYTES_FWD * c->inv_hbm;
		att = (bmm * c->bf16_k + scores) * (attn_fwd_passes + 2);
	}
	per_layer_att = att;

	/* memory-bound elementwise work; sequence parallelism shards the h-sized tensors */
	ffn_eff =
	    sh->moe_layers > 0 ? (sh->active * sh->expert_ffn + sh->shared_ffn_total) : sh->ffn;
	mem = T * c->act *
	      (ELT_H * sh->h * (s->parallel.sequence_parallel ? c->it : 1) +
	       (sh->mats == 3 ? ELT_FFN_GATED : ELT_FFN_PLAIN) * ffn_eff * c->it) *
	      c->inv_hbm;
	/* a framework whose own kernels' h-sized traffic is counted (framework_info
	 * elt_h_fwd, elt_h_bwd: llm.c) moves that in place of ELT_H's forward and twice it
	 * backward: what differs is added once for the whole step, below */
	const struct framework_info *fwi = framework_get(w->framework);
	double elt_fix = 0;
	if (fwi->elt_h_fwd > 0)
		elt_fix = T * c->act * sh->h * (s->parallel.sequence_parallel ? c->it : 1) *
			  c->inv_hbm *
			  (fwi->elt_h_fwd * (fwd + op) + fwi->elt_h_bwd - ELT_H * (fwd + 2 + op));
	/* eager PyTorch layers (workload.compile off where the framework's layers are plain
	 * modules: torchtune, transformers) run every pointwise op as its own kernel, each
	 * reading and writing HBM, where fused kernels (Megatron's, llm.c's) and
	 * torch.compile's Inductor (one Triton kernel per fused group) make one pass: what
	 * compile removes from the step is this traffic (eager_bytes) */
	if (framework_eager(w->framework, w->compile))
		mem += T * eager_bytes(sh, ffn_eff, c->act, c->it, w->framework) * c->inv_hbm;
	per_layer_mem = mem * (fwd + 2 + op) + elt_fix;
	/* a quantised frozen base: each layer's weights dequantised for every pass that
	 * multiplies by them (dequant_bytes): the forward passes, the share per-op
	 * checkpointing runs again and the input gradient; MoE layers count their active
	 * experts (a token's path) */
	{
		double dq = dequant_bytes(w, c->act);
		if (dq > 0) {
			double lw =
			    (p->active_params - p->counts.embedding - p->counts.head) / sh->layers;
			per_layer_mem += lw * c->it * dq * (fwd + 1 + again) * c->inv_hbm;
		}
	}

	/* tensor parallelism: 2 all-reduces per layer forward (after attention and after the
	 * MLP), 2 backward, again in a recomputed forward (Megatron-LM, Shoeybi et al. 2019,
	 * Section 3); sequence parallelism turns each into reduce-scatter + all-gather, the
	 * same bytes (Korthikanti et al. 2023) */
	per_layer_tp = 0;
	if (t > 1)
		per_layer_tp =
		    (2 * fwd + 2 + tp_again) * allreduce_s(T * sh->h * c->act, t, tp_bw, tp_lat);
	mb->tp_alone = Ls * per_layer_tp;
	/* overlapped (parallel.tp_comm_overlap: Megatron --tp-comm-overlap with Transformer
	 * Engine's userbuffers, torchtitan AsyncTP), each all-gather is pipelined with the
	 * GEMM that consumes it and each reduce-scatter with the GEMM that produces it, split
	 * into n chunks (framework tp_overlap_chunks; n = t: one per rank): the chunks of a
	 * GEMM hide the transfers of the others, and the reduce-scatter of the last chunk
	 * comes after its GEMM, 1 / (2 n) of the pair's bytes left exposed; the rest hides
	 * behind the layer's GEMMs (forward, backward and any recomputed forward, not the
	 * attention core) at the contention of overlap_s */
	if (per_layer_tp > 0 && p->overlap.tp == OVERLAP_ON) {
		int chunks = framework_get(w->framework)->tp_overlap_chunks;
		double tail = per_layer_tp / (2 * (chunks > 0 ? chunks : t));
		per_layer_tp =
		    tail + overlap_s(per_layer_tp - tail, per_layer_mm, p->overlap.speed);
	}

	/* expert parallelism: dispatch and combine all-to-all per MoE layer, forward and
	 * backward (GShard, Lepikhin et al. 2020) */
	per_layer_ep = 0;
	if (sh->moe_layers > 0 && ep > 1) {
		/* the ep group's ranks are tp x cp apart (order tp-cp-ep-dp-pp) */
		double bw = fabric_bw(c, ep * t * cp);
		double vol = T * sh->active * sh->h * c->act * (ep - 1) / ep;
		per_layer_ep = 2 * (fwd + 1) * (vol / bw + (ep - 1) * fabric_lat(c, ep * t * cp));
		per_layer_ep *= sh->moe_layers / sh->layers;
	}

	mb->matmul = Ls * per_layer_mm;
	mb->attention = Ls * per_layer_att;
	mb->membound = Ls * per_layer_mem;
	mb->tp = Ls * per_layer_tp;
	mb->ep = Ls * per_layer_ep;
	{
		/* K/V heads on this tp rank (replicated when tp exceeds them, as the memory
		 * part's local_heads), in the attention layers' share of the stage */
		double kvh = sh->kvd / sh->hd;
		double kvd_local = (kvh >= t ? kvh / t : 1) * sh->hd;
		/* one exchange each time the attention's forward runs: again under
		 * selective or full recomputation */
		mb->cp = sh->attn > 0 ? Ls * sh->attn *
					    cp_exchange_s(c, s, cp, t, T, kvd_local,
							  attn_fwd_passes, per_layer_att / sh->attn)
				      : 0;
	}
	/* the state-space layers' scans, in the stage's share of the layers: forward, again
	 * where the layers recompute (full; per-op, whose save list holds no scan kernel:
	 * torchtitan op_sac_save_list), and backward, twice the forward (mamba_ssm's
	 * selective_scan_bwd and _mamba_chunk_scan_combined_bwd run the forward's chunk
	 * states again and the gradients of x, dt, B and C: 3 x the forward FLOPs, as
	 * flops_per_token counts them); they join the attention core as the sequence
	 * mixers' part of the step */
	mb->scan = 0;
	if (p->model.ssm.layers > 0) {
		bool scan_again = w->recompute == RECOMPUTE_FULL || w->recompute == RECOMPUTE_OP;
		mb->scan = Ls / sh->layers * pt_ssm_scan_s(c, &p->model, T) *
			   (1 + (scan_again ? rl : 0) + 2);
		mb->attention += mb->scan;
	}
	/* the output layer on the last stage: forward + backward, never recomputed; the
	 * logits' loss is memory-bound, its bytes per logit as the framework runs it
	 * (plan_loss_traffic) */
	if (sh->vocab > 0) {
		mb->matmul +=
		    pt_gemm_s(c, T, sh->vocab * c->it, sh->h, 1, c->act) * (1 + bwd) * c->bf16_k;
		mb->membound +=
		    T * sh->vocab * c->it * plan_loss_traffic(w, t, c->act) * c->inv_hbm;
	}
	/* pipeline point-to-point: activations forward, their gradients backward, once per
	 * virtual stage; Megatron's scatter/gather sends 1/t of it per GPU */
	mb->pp = 0;
	if (pp > 1) {
		double v = p->virtual_stages > 0 ? p->virtual_stages : 1;
		/* stages are tp x dp x ep ranks apart (Megatron's rank order: the data
		 * replicas, expert-parallel ones included, sit between pipeline stages) */
		double bw = fabric_bw(c, t * cp * p->dp * ep * pp);
		double lat = fabric_lat(c, t * cp * p->dp * ep * pp);
		mb->pp = 2 * v * (T * sh->h * c->act * c->it / bw + lat);
	}
	/* the backward of this micro-batch (for overlapping the gradient reduction) */
	mb->bwd = (mb->matmul + mb->attention + mb->membound) * bwd / (fwd + bwd);
	/* overlapped expert all-to-alls (parallel.ep_overlap): each runs while another
	 * micro-batch computes (DeepSeek-V3 report, arXiv 2412.19437, Section 3.2.1: DualPipe
	 * pairs a forward and a backward chunk so that dispatch and combine of one hide
	 * behind attention and MLP of the other; Megatron-Core --overlap-moe-expert-parallel-
	 * comm), so per micro-batch only the all-to-all time beyond its compute is exposed:
	 * max(ep - (matmul + attention + membound), 0). The hidden part still takes SMs
	 * from the compute (DeepSeek gives 20 of 132 to communication); not modelled. */
	if (s->parallel.ep_overlap)
		mb->ep = dmax(mb->ep - (mb->matmul + mb->attention + mb->membound), 0);
}

/* A data-parallel collective of the non-expert part (ne bytes over the dp x ep data
 * replicas) and of the routed experts (ex bytes over dp), one after the other; one
 * collective when there is no expert parallelism. */
static double dp_collective(double (*f)(double, double, double, double), double ne, double ex,
			    double dp, double ep, double bw, double lat)
{
	if (ep <= 1)
		return f(ne + ex, dp, bw, lat);
	return f(ne, dp * ep, bw, lat) + f(ex, dp, bw, lat);
}

void pt_time_train(struct tctx *c)
{
	const struct scenario *s = c->s;
	struct plan *p = c->p;
	const struct workload *w = &s->workload;
	struct shape sh;
	struct train_mb mb;
	double fwd_passes;
	double t = p->tp, pp = p->pp, dp = p->dp, v = p->virtual_stages > 0 ? p->virtual_stages : 1;
	double n = s->hardware.count > 0 ? s->hardware.count : 1, inv_n = 1 / n;
	double gpn = gpus_per_node(s);
	double nodes = ceil(n / gpn);
	double m = p->micro_batches > 0 ? p->micro_batches : 1;
	double sq = w->seq_len > 0 ? w->seq_len : 1;
	double gb = p->global_batch > 0 ? p->global_batch : w->micro_batch * dp;
	double tokens_step = gb * sq;
	double N = p->active_params;
	double layer_params = N - p->counts.embedding - p->counts.head;
	bool lora = w->kind == WL_FINETUNE && w->finetune.method != FT_FULL;
	double trainable = lora ? p->trainable_params : p->params;
	double wbytes = p->mem.weight_bytes_per_param > 0 ? p->mem.weight_bytes_per_param : c->act;
	double gbytes = p->mem.grad_bytes_per_param > 0 ? p->mem.grad_bytes_per_param : 2;
	double t_mb, pipeline, dp_s = 0, dp_exposed = 0, z3 = 0, opt = 0, off = 0, data = 0;
	double step_compute, step, inv_step, t_data = 0, attn_model;
	double ep = p->ep > 0 ? p->ep : 1;
	/* the gradient reduce and ZeRO's shards span the data-parallel ranks and the cp ranks
	 * of each (Megatron's data-parallel group with context parallelism,
	 * megatron/core/distributed/distributed_data_parallel.py; src/plan_memory.c) */
	double cp = p->cp > 0 ? p->cp : 1, dpc = dp * cp;
	double p_ne, p_ex = 0, t_ne, t_ex; /* parameters per GPU: non-expert, routed experts */

	pt_shape_get(p, &sh);
	if (layer_params < 0)
		layer_params = N;

	/* FLOPs per token. Model FLOPs: 6N (forward 2N, backward 4N; Kaplan et al. 2020)
	 * with active parameters for MoE, plus attention 12 L s d (Megatron-LM, Narayanan
	 * et al. 2021, eq. 3; MosaicML's convention: L x 2 x 2 x d x s per token, x3).
	 * LoRA: forward 2N + input gradients 2N (frozen weights get no weight gradients);
	 * the attention core has no weights, so its backward (dQ, dK, dV) is unchanged. */
	attn_model = 12 * sh.layers * keys_full(&sh, sq) * sh.qd;
	p->attention_flops_per_token = attn_model;
	p->flops_per_token = (lora ? 4 : 6) * N;
	/* a model given only by its size: the published 6N convention, attention shown
	 * apart (tests/unit/test_seed_time.c, test_seed4 to test_seed6) */
	if (!p->shape_assumed)
		p->flops_per_token += attn_model;
	/* state-space layers: their scans forward and backward, 3 x the forward as the
	 * attention core's 12 = 3 x 4 (model_ssm_flops_per_token) */
	p->flops_per_token += 3 * model_ssm_flops_per_token(&p->model, false);
	/* hardware FLOPs add what recomputation executes again: full = one more forward of
	 * the layers (8N; the output layer is not recomputed), selective = the attention
	 * scores (Korthikanti et al. 2023, Section 5) */
	p->hw_flops_per_token = p->flops_per_token;
	{
		/* only the recomputing layers' share (workload.recompute_layers) */
		double rl = recompute_share(w, pp > 1 ? ceil(sh.layers / pp) : sh.layers);
		/* the scans' forward again under full and per-op recomputation (as
		 * train_microbatch runs them) */
		double scans = model_ssm_flops_per_token(&p->model, false);
		if (w->recompute == RECOMPUTE_FULL)
			p->hw_flops_per_token += rl * (2 * layer_params + attn_model / 3 + scans);
		else if (w->recompute == RECOMPUTE_SELECTIVE)
			p->hw_flops_per_token += rl * attn_model / 3;
		else if (w->recompute == RECOMPUTE_OP) /* the matmuls again, their 2 N share */
			p->hw_flops_per_token +=
			    rl * (2 * layer_params * op_recompute_share(&sh) + scans);
		else if (w->recompute == RECOMPUTE_ATTENTION) /* projections and the core */
			p->hw_flops_per_token +=
			    rl * (2 * layer_params * attn_recompute_share(&sh) + attn_model / 3);
	}
	p->flops_per_step = p->flops_per_token * tokens_step;
	p->flops_total = w->tokens > 0 ? p->flops_per_token * w->tokens : NAN;

	/* which collectives run behind compute, and the compute's speed while they do */
	{
		enum overlap o[3];
		framework_overlaps(w->framework, s->parallel.tp_comm_overlap,
				   s->parallel.overlap_grad_reduce,
				   s->parallel.overlap_param_gather, p->zero, s->efficiency.overlap,
				   s->hardware.gpu.sms, o, &p->overlap.speed);
		p->overlap.tp = o[0];
		p->overlap.grad = o[1];
		p->overlap.param = o[2];
	}
	train_microbatch(c, &sh, &mb, &fwd_passes);
	t_mb = mb.matmul + mb.attention + mb.membound + mb.tp + mb.ep + mb.pp + mb.cp;
	/* 1F1B with v interleaved chunks: bubble (p-1)/(v m) of the ideal time (Narayanan
	 * et al. 2021, Section 2.2) */
	pipeline = (m + (pp - 1) / v) * t_mb;

	/* Parameters one GPU holds before ZeRO: the non-expert part, replicated over the
	 * dp x ep data replicas, and the routed experts, split over ep and replicated over
	 * dp (Megatron-Core's expert-data-parallel groups; the memory part's layout) */
	if (sh.moe_layers > 0 && sh.experts > 0)
		p_ex = sh.moe_layers * sh.experts * p->counts.expert / (t * pp * ep);
	p_ne = p->params / (t * pp) - p_ex * ep;
	if (p_ne < 0)
		p_ne = 0;
	/* trainable: LoRA adapters (few; taken as non-expert), else every parameter */
	t_ne = lora ? trainable / (t * pp) : p_ne;
	t_ex = lora ? 0 : p_ex;

	/* data-parallel gradient reduction over the slowest link the group spans: its
	 * members are tp apart, so it leaves the node once tp x dp x ep > GPUs per node.
	 * Which collectives run behind compute is the framework's (parallel.
	 * overlap_grad_reduce, overlap_param_gather; framework.c), at the compute speed k
	 * of overlap_s (efficiency.overlap) */
	{
		double span = t * cp * dp * ep;
		double bw = fabric_bw(c, span), lat = fabric_lat(c, span);
		int f = w->framework;
		struct plan_overlap *ov = &p->overlap;
		double k = ov->speed;
		/* one micro-batch's compute, and its first forward pass */
		double compute = mb.matmul + mb.attention + mb.membound;
		double fwd1 = compute / (fwd_passes + (lora ? 1 : 2));
		ov->tp_s = m * mb.tp_alone;
		ov->tp_exposed_s = m * mb.tp;
		ov->grad_s = ov->grad_exposed_s = ov->param_s = ov->param_exposed_s = 0;
		if (p->zero >= 3) {
			/* ZeRO-3 / FSDP FULL_SHARD: all-gather the parameters for the forward and
			 * again for the backward, reduce-scatter the gradients, every
			 * micro-batch; prefetching overlaps them with the micro-batch's compute
			 * (Rajbhandari et al. 2020, Section 7; PyTorch FSDP paper, 2023) */
			/* Parameters kept gathered from the forward to the backward
			 * (parallel.reshard_after_forward never; FSDP under a pipeline) need
			 * one all-gather, not two. FSDP under a pipeline also skips the
			 * gradient sync until the last micro-batch (torch/distributed/
			 * pipelining/stage.py backward_maybe_with_nosync): the stage is
			 * gathered once a step and its fp32 gradients reduce-scattered once,
			 * which is why torchtitan does not reshard under PP
			 * (torchtitan/distributed/fsdp.py: "avoid per-microbatch
			 * all-gathers"). */
			bool once = p->zero >= 3 && framework_nosync_pipeline(f, (int)pp);
			double gathers =
			    framework_keeps_gathered(f, (int)pp, s->parallel.reshard_after_forward)
				? 1
				: 2;
			double acc_b = once ? 4 : gbytes; /* fp32 reduce dtype, unsharded */
			double ag = gathers * dp_collective(gather_s, p_ne * wbytes, p_ex * wbytes,
							    dp, ep, bw, lat);
			double rs =
			    dp_collective(gather_s, t_ne * acc_b, t_ex * acc_b, dpc, ep, bw, lat);
			double Ls = pp > 1 ? ceil(sh.layers / pp) : sh.layers;
			double times = once ? 1 : m;
			/* the prefetched all-gathers (overlap_param_gather) and the reduce-scatters
			 * on their own stream (overlap_grad_reduce) hide behind the micro-batch's
			 * compute together; the others run between the layers' kernels */
			double ag_on = ov->param == OVERLAP_ON ? ag : 0;
			double rs_on = ov->grad == OVERLAP_ON ? rs : 0;
			double hid = overlap_s(ag_on + rs_on, compute, k);
			double share = ag_on + rs_on > 0 ? hid / (ag_on + rs_on) : 0;
			z3 = times * (hid + (ag - ag_on) + (rs - rs_on) + Z3_LAYER_S * Ls) +
			     dp_collective(gather_s, p_ne * wbytes / Ls, p_ex * wbytes / Ls, dpc,
					   ep, bw, lat);
			dp_s = (ag + rs) * times;
			ov->param_s = ag * times;
			ov->grad_s = rs * times;
			ov->param_exposed_s = times * (ag_on * share + ag - ag_on);
			ov->grad_exposed_s = times * (rs_on * share + rs - rs_on);
		} else if (p->zero >= 1 && ov->param != OVERLAP_PAPER) {
			/* ZeRO-1/2 as the frameworks run it: the gradients reduce-scattered in the
			 * last micro-batch's backward (overlap_grad_reduce) or after it, and the
			 * updated 16-bit parameters all-gathered after the step, behind the next
			 * step's first forward (Megatron overlap_param_gather) or not (DeepSpeed
			 * all_gather_dp_groups, llm.c) */
			double rs =
			    dp_collective(gather_s, t_ne * gbytes, t_ex * gbytes, dpc, ep, bw, lat);
			double ag =
			    dp_collective(gather_s, t_ne * wbytes, t_ex * wbytes, dpc, ep, bw, lat);
			ov->grad_s = rs;
			ov->param_s = ag;
			ov->grad_exposed_s =
			    ov->grad == OVERLAP_ON ? overlap_s(rs, DP_OVERLAP * mb.bwd, k) : rs;
			ov->param_exposed_s = ov->param == OVERLAP_ON ? overlap_s(ag, fwd1, k) : ag;
			dp_s = rs + ag;
			dp_exposed = ov->grad_exposed_s + ov->param_exposed_s;
		} else {
			/* all-reduce (or, under ZeRO-1/2 in the papers' accounting, reduce-scatter
			 * + all-gather: the same bytes), bucketed and overlapped with the last
			 * micro-batch's backward (PyTorch DDP, Li et al. 2020; Megatron
			 * --overlap-grad-reduce), or after it */
			dp_s = dp_collective(allreduce_s, t_ne * gbytes, t_ex * gbytes, dpc, ep, bw,
					     lat);
			dp_exposed =
			    ov->grad == OVERLAP_ON ? overlap_s(dp_s, DP_OVERLAP * mb.bwd, k) : dp_s;
			ov->grad_s = dp_s;
			ov->grad_exposed_s = dp_exposed;
		}
	}

	/* optimizer step: memory-bound over the states of this GPU's shard: AdamW reads
	 * master, m, v, gradient and writes master, m, v, weight */
	{
		double local = p->zero >= 1 ? t_ne / (dpc * ep) + t_ex / dpc : t_ne + t_ex;
		double bpp = 0;
		switch (w->optimizer) {
		case OPT_ADAMW:
			bpp = 24 + gbytes + wbytes;
			break;
		case OPT_ADAM8BIT:
			bpp = 12 + gbytes + wbytes;
			break;
		case OPT_SGD:
			bpp = 16 + gbytes + wbytes;
			break;
		case OPT_NONE:
			bpp = 0;
			break;
		}
		if (s->parallel.offload != OFFLOAD_NONE) {
			/* ZeRO-Offload: gradients down and weights up over PCIe, CPU Adam
			 * (Ren et al. 2021) */
			double pcie = s->hardware.gpu.pcie_bytes_per_s > 0
					  ? s->hardware.gpu.pcie_bytes_per_s
					  : 16e9;
			off = local * (gbytes + wbytes) / pcie + local * bpp / HOST_OPT_BYTES_PER_S;
			/* ZeRO-Infinity parameter offload (stage 3 only, as the memory part
			 * has it): each rank brings its own 1/dp partition up over its PCIe
			 * link for the forward and again for the backward, then all-gathers
			 * it over the GPU fabric (Rajbhandari et al. 2021, Section 6.1,
			 * bandwidth-centric partitioning) */
			if (s->parallel.offload == OFFLOAD_OPTIMIZER_PARAMS && p->zero >= 3)
				off += m * 2 * (p_ne / (dpc * ep) + p_ex / dpc) * wbytes / pcie;
			if (off > pipeline)
				plan_warn(p, PW_OFFLOAD_PCIE_BOUND, off, pipeline);
		} else {
			opt = local * bpp * c->inv_hbm;
		}
		/* Paged states the driver evicted to the host (workload.optimizer_states paged,
		 * plan_memory.c optimizer_evicted) come back for the update: bitsandbytes'
		 * Optimizer8bit.step (bitsandbytes/optim/optimizer.py) runs, per parameter,
		 * prefetch_state (F.prefetch_tensor, cudaMemPrefetchAsync of state1 and
		 * state2 to the GPU), then update_step, one fused kernel
		 * (optimizer_update_32bit, optimizer_update_8bit_blockwise) that reads and
		 * writes each state once, one pass, then sync_gpu: the pages cross PCIe up
		 * once, and are evicted down again once the forward's activations need the
		 * room (unified memory: cudaMallocManaged, F.get_paged). 2 x the spilled bytes
		 * a step, not overlapped: the step waits for them, and a page not yet there
		 * faults and stalls the kernel (CUDA C Programming Guide, Unified Memory,
		 * page migration on demand). */
		if (w->optimizer_states == STATES_PAGED && p->mem.optimizer_evicted > 0) {
			double pcie = s->hardware.gpu.pcie_bytes_per_s > 0
					  ? s->hardware.gpu.pcie_bytes_per_s
					  : 16e9;
			off += 2 * p->mem.optimizer_evicted / pcie;
		}
	}

	/* activation offloading (workload.activation_offload): the offloaded activations go
	 * down to host memory in the forward and back up for the backward, on a side stream
	 * that overlaps the compute (torchtune OffloadActivations, use_streams True); only
	 * what the PCIe link takes beyond the micro-batch's compute shows */
	if (p->mem.activations_offloaded > 0) {
		double pcie =
		    s->hardware.gpu.pcie_bytes_per_s > 0 ? s->hardware.gpu.pcie_bytes_per_s : 16e9;
		/* one micro-batch's share: the stage's layers of the layers in flight */
		double lif = p->mem.layers_in_flight,
		       Ls = pp > 1 ? ceil(sh.layers / pp) : sh.layers;
		double per_mb = p->mem.activations_offloaded * (lif > Ls ? Ls / lif : 1);
		off += m * dmax(0, 2 * per_mb / pcie - t_mb);
	}

	step_compute = pipeline + dp_exposed + z3 + opt + off;
	/* data loading: prefetching hides it unless storage is slower than the GPUs */
	if (s->hardware.storage_bytes_per_s > 0) {
		t_data =
		    tokens_step * DATA_BYTES_PER_TOKEN / (s->hardware.storage_bytes_per_s * nodes);
		data = dmax(t_data - step_compute, 0);
		if (data > 0) /* bytes/s the GPUs consume vs what storage gives */
			plan_warn(p, PW_DATA_STARVED,
				  tokens_step * DATA_BYTES_PER_TOKEN / step_compute,
				  s->hardware.storage_bytes_per_s * nodes);
	}
	step = step_compute + data;

	p->parts.matmul_s = m * mb.matmul;
	p->parts.attention_s = m * mb.attention;
	p->ssm_scan_s = m * mb.scan;
	p->parts.memory_bound_s = m * mb.membound;
	p->parts.tp_comm_s = m * mb.tp;
	p->parts.ep_comm_s = m * mb.ep;
	p->parts.pp_comm_s = m * mb.pp;
	p->parts.bubble_s = (pp - 1) / v * t_mb;
	p->parts.dp_comm_s = dp_exposed;
	p->parts.zero3_s = z3;
	p->parts.offload_s = off;
	p->parts.optimizer_s = opt;
	p->parts.data_s = data;
	p->parts.cp_comm_s = m * mb.cp;
	p->matmul_efficiency = c->gemm_time > 0 ? c->gemm_flops / (c->gemm_time * c->peak) : NAN;

	/* a measured rate (tokens/s per GPU) or MFU replaces the model: the same parts,
	 * scaled to the measured step time; a measured rate wins over an MFU */
	if (w->measured_tokens_per_s > 0 || s->efficiency.mfu > 0) {
		double want = w->measured_tokens_per_s > 0
				  ? tokens_step / (w->measured_tokens_per_s * n)
				  : p->flops_per_step / (n * c->peak * s->efficiency.mfu);
		double k = want / step;
		for (unsigned i = 0; i < PLAN_PARTS; i++)
			*plan_part(&p->parts, i) *= k;
		p->ssm_scan_s *= k; /* its share of parts.attention_s */
		step_compute *= k;
		step = want;
	}

	inv_step = 1 / step;
	p->step_s = step;
	p->tokens_per_s = tokens_step * inv_step;
	p->tokens_per_s_per_gpu = p->tokens_per_s * inv_n;
	{
		double of_peak = p->tokens_per_s * inv_n / c->peak; /* tokens/s per peak FLOP/s */
		p->mfu = p->flops_per_token * of_peak;
		p->hfu = p->hw_flops_per_token * of_peak;
	}
	p->total_s = w->tokens > 0 ? w->tokens / tokens_step * step : NAN;

	/* GPUs for a deadline: a count planned as this one is, so plan_compute finds it
	 * (plan_deadline_gpus, below); the time part alone leaves it NAN */
	if (w->deadline_s > 0 && w->tokens > 0 && p->total_s > w->deadline_s)
		plan_warn(p, PW_DEADLINE_MISSED, p->total_s, w->deadline_s);

	/* shares of the step (seconds of each kind over the step) */
	p->shares[BN_COMPUTE] = (p->parts.matmul_s + p->parts.attention_s) * inv_step;
	p->shares[BN_HBM] = (p->parts.memory_bound_s + p->parts.optimizer_s) * inv_step;
	p->shares[BN_INTERCONNECT] =
	    (p->parts.tp_comm_s + p->parts.pp_comm_s + p->parts.dp_comm_s + p->parts.zero3_s +
	     p->parts.ep_comm_s + p->parts.offload_s + p->parts.cp_comm_s) *
	    inv_step;
	p->shares[BN_DATA_IO] = t_data > 0 ? t_data / step_compute : 0;

	/* reliability: interruptions = GPU-hours / MTBF per GPU (Llama 3 paper, Table 5);
	 * checkpoint = weights + optimizer states; Young (1974) / Daly (2006) interval
	 * sqrt(2 x write time x MTBF of the job) */
	if (!isnan(p->total_s) && s->hardware.mtbf_gpu_hours > 0) {
		double mtbf_job = s->hardware.mtbf_gpu_hours * 3600 * inv_n;
		double per_mtbf = 1 / mtbf_job; /* interruptions per second of the job */
		double obpp = p->mem.optimizer_bytes_per_param;
		double ckpt = p->params * wbytes + trainable * obpp;
		double bw = (s->hardware.storage_bytes_per_s > 0 ? s->hardware.storage_bytes_per_s
								 : CKPT_BYTES_PER_S_PER_NODE) *
			    nodes;
		double lost;
		p->expected_interruptions = p->total_s * per_mtbf; /* n x hours / MTBF */
		p->checkpoint_write_s = ckpt / bw;
		p->checkpoint_interval_s = sqrt(2 * p->checkpoint_write_s * mtbf_job);
		/* per interval: the write; per failure: half an interval redone + restart */
		lost = p->checkpoint_write_s / p->checkpoint_interval_s +
		       (p->checkpoint_interval_s / 2 + RESTART_S) * per_mtbf;
		p->goodput = lost < 1 ? 1 - lost : 0;
	}
}
