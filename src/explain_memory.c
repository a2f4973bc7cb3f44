/* explain_memory.c - how each memory figure is derived: weights to headroom. */
#include "explain_int.h"

/* ---- memory ---- */

/* What a part of the model states would take on the GPU: the part itself, or when
 * parallel.offload moved it to host memory (ZeRO-Offload, Ren et al. 2021: the optimizer
 * states, and under ZeRO-2 and up the gradient partitions; ZeRO-Infinity: the parameters
 * under ZeRO-3), the same formula's figure, now held by the host. */
enum held { HELD_WEIGHTS, HELD_GRADIENTS, HELD_OPTIMIZER };

static double gpu_or_host(const struct scenario *s, const struct plan *p, double on_gpu,
			  enum held part)
{
	const struct plan_memory *m = &p->mem;
	double t = p->trainable_params;
	if (on_gpu > 0 || s->parallel.offload == OFFLOAD_NONE || !training(s))
		return on_gpu;
	/* the vision tower's part (model.vision_params) moves with the rest */
	double opt = t * m->optimizer_bytes_per_param / m->optimizer_shard + m->vision_optimizer;
	double grad = t * m->grad_bytes_per_param / m->grad_shard + m->vision_gradients;
	if (part == HELD_OPTIMIZER)
		return opt;
	if (part == HELD_GRADIENTS)
		return p->zero >= 2 ? grad : on_gpu;
	if (s->parallel.offload == OFFLOAD_OPTIMIZER_PARAMS && p->zero >= 3)
		return m->host - opt - grad;
	return on_gpu;
}

/* "12 GiB", or "12 GiB (in host memory)" when offloaded */
static const char *held_str(struct ex *e, double on_gpu, double held)
{
	char *b = e->num[e->nn++ % 16];
	char t[24];
	units_format_human(UNIT_BYTES, held, 3, t, sizeof(t));
	snprintf(b, sizeof(e->num[0]), "%s%s", t,
		 held > 0 && !(on_gpu > 0) ? " (in host memory)" : "");
	return b;
}

static void offload_note(struct ex *e, double on_gpu, double held)
{
	if (held > 0 && !(on_gpu > 0))
		ex_put(e, "\n  offloaded (parallel.offload): that lives in host memory; 0 B on "
			  "the GPU\n");
}

/* The vision tower's part of a memory figure (what: "weights", ...), outside the
 * per-parameter formula above it: model.vision_params held on the first pipeline stage,
 * over tp (and ZeRO as the rest), as src/plan_memory.c stage_memory counts it. */
static void vision_note(struct ex *e, const struct scenario *s, const struct plan *p,
			const char *what, double bytes)
{
	char line[600];
	bool lora = s->workload.kind == WL_FINETUNE && s->workload.finetune.method != FT_FULL;

	if (!(bytes > 0))
		return;
	snprintf(line, sizeof(line),
		 "+ the vision tower's %s: %s (model.vision_params %s / tp%s); %s", what,
		 byt(e, bytes), cnt(e, p->model.vision_params),
		 training(s) && p->zero >= 1 ? ", ZeRO-sharded as the rest" : "",
		 !training(s) ? "16-bit, loaded beside the language model (vLLM "
				"models/siglip.py, QKVParallelLinear)"
		 : lora	      ? "frozen with the LoRA base, 16-bit (PEFT freezes the base; "
				"torchtune llama3_2_vision/11B_lora.yaml)"
			      : "trained with the rest (every parameter requires grad in "
				"transformers' *ForConditionalGeneration; torchtune "
				"llama3_2_vision/11B_full.yaml encoder_trainable: True)");
	ex_wrapped(e, "  ", line);
}

/* KV-cache bytes per token on this GPU, as src/plan_memory.c counts them: K and V of each kv head
 * this GPU holds (a head is not split: tp beyond the kv heads replicates them), or MLA's
 * compressed latent and rotary key (kv_rank + rope_dim, the same on every tp rank); bytes
 * per element, with an fp16 scale and zero point per 32 elements for 8- and 4-bit caches;
 * the layers of the stage. */
static void kv_per_token(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct model *m = &p->model;
	double kv = m->kv_heads > 0 ? m->kv_heads : m->heads;
	double hd = m->head_dim > 0 ? m->head_dim : (m->heads > 0 ? m->hidden / m->heads : 0);
	/* a hybrid's state-space (or mixerless) layers keep no KV cache (model.c) */
	double share = model_attention_share(m);
	double layers = ceil((double)m->layers / (p->pp > 0 ? p->pp : 1)) * share;
	const char *on = share < 1 ? "attention layers on this GPU" : "layers on this GPU";
	double eb = dtype_bytes(s->workload.kv_cache);
	char text[240], sym[160];
	if (s->workload.kv_cache == DTYPE_INT8 || s->workload.kv_cache == DTYPE_INT4 ||
	    s->workload.kv_cache == DTYPE_NF4)
		eb = (s->workload.kv_cache == DTYPE_INT8 ? 1 : 0.5) + (hd > 0 ? 4 / hd : 0);
	ex_put(e, "\n");
	if (m->mla.kv_rank > 0) {
		snprintf(sym, sizeof(sym), "(kv_rank + rope_dim) x bytes per element x %s", on);
		formula(e, "bytes per token", sym);
		snprintf(text, sizeof(text), "(%d + %d) x %s B x %s", m->mla.kv_rank,
			 m->mla.rope_dim, plain(e, eb), plain(e, layers));
	} else if (m->kv_sum > 0 && model_attention_layers(m) > 0) {
		/* per-layer K/V heads (DeciLM): their average over the attention layers, as
		 * plan_memory.c, so that the cache is their sum (model.kv_sum) */
		int n = model_attention_layers(m);
		double avg = (double)m->kv_sum / n;
		snprintf(sym, sizeof(sym),
			 "2 (K, V) x kv_sum / attention layers / tp x head_dim x bytes per "
			 "element x %s",
			 on);
		formula(e, "bytes per token", sym);
		if (avg >= p->tp)
			snprintf(text, sizeof(text), "2 x %d / %d / %d x %s x %s B x %s", m->kv_sum,
				 n, p->tp, plain(e, hd), plain(e, eb), plain(e, layers));
		else /* fewer K/V heads than tp: each rank keeps one */
			snprintf(text, sizeof(text), "2 x 1 x %s x %s B x %s", plain(e, hd),
				 plain(e, eb), plain(e, layers));
		ex_numbers(e, "bytes per token", "%s", text);
		result(e, "bytes per token", byt(e, p->mem.kv_bytes_per_token));
		ex_put(e, "\n");
		ex_wrapped(
		    e, "  ",
		    "kv_sum: the attention layers' own K/V heads summed (DeciLM's per-block "
		    "n_heads_in_group, src/hf_hybrid.c), not kv_heads, their average rounded "
		    "up to a divisor of the heads; vLLM sizes each layer's cache by its own "
		    "(vllm/model_executor/models/nemotron_nas.py DeciLMDecoderLayer)");
		if (avg < p->tp)
			ex_wrapped(e, "  ", "fewer K/V heads than tp: each rank keeps one");
		return;
	} else {
		double local = kv >= p->tp ? kv / p->tp : 1;
		snprintf(sym, sizeof(sym),
			 "2 (K, V) x kv heads on this GPU x head_dim x bytes per element x %s", on);
		formula(e, "bytes per token", sym);
		snprintf(text, sizeof(text), "2 x %s x %s x %s B x %s", plain(e, local),
			 plain(e, hd), plain(e, eb), plain(e, layers));
	}
	ex_numbers(e, "bytes per token", "%s", text);
	result(e, "bytes per token", byt(e, p->mem.kv_bytes_per_token));
	for (int i = 0; i < p->nwarnings; i++)
		if (p->warnings[i].code == PW_TRTLLM_KV_16BIT) {
			ex_put(e, "\n");
			ex_wrapped(e, "  ",
				   "16-bit elements under fp8 weights: TensorRT-LLM keeps the KV "
				   "cache in the model's dtype unless the checkpoint is quantized "
				   "with --kv_cache_dtype fp8 (examples/quantization/quantize.py, "
				   "kv_cache_quant_algo); workload.kv_cache fp8 plans that cache, "
				   "half the bytes per token");
		}
}

/* Layer-micro-batches whose activations the first pipeline stage keeps at once (the
 * most loaded: src/plan_memory.c, layers_in_flight): without a pipeline every layer of
 * the one micro-batch in flight; 1F1B keeps min(m, pp) micro-batches on the first stage
 * (Narayanan et al. 2021, Section 2.2); the interleaved schedule's warm-up runs
 * 2 (pp - 1) + (v - 1) pp chunks of layers / v before its first backward, one more
 * before that backward starts (Megatron-LM's schedules.py). */
static void layers_in_flight(struct ex *e, const struct plan *p)
{
	double L = ceil((double)p->model.layers / (p->pp > 0 ? p->pp : 1));
	int pp = p->pp, v = p->virtual_stages > 0 ? p->virtual_stages : 1, m = p->micro_batches;
	/* the most loaded stage is the first, or the last with the output layer and loss */
	bool last = pp > 1 && p->mem.activations_head > 0;
	ex_put(e, "\n");
	if (pp <= 1 || (v <= 1 && last)) {
		/* no pipeline: the one micro-batch in flight; 1F1B's last stage runs each
		 * micro-batch's backward right after its forward */
		formula(e, "layers in flight",
			pp <= 1 ? "1 micro-batch x layers"
				: "1 micro-batch x layers per stage "
				  "(1F1B, last stage)");
		ex_numbers(e, "layers in flight", "1 x %s", plain(e, L));
	} else if (v <= 1) {
		formula(e, "layers in flight",
			"min(micro-batches, pp) x layers per stage (1F1B, first stage)");
		ex_numbers(e, "layers in flight", "min(%d, %d) x %s", m, pp, plain(e, L));
	} else if (last) {
		formula(e, "layers in flight",
			"min((v - 1) pp + 1, micro-batches x v) x layers per stage / v "
			"(interleaved 1F1B, last stage)");
		ex_numbers(e, "layers in flight", "min((%d - 1) x %d + 1, %d x %d) x %s / %d", v,
			   pp, m, v, plain(e, L), v);
	} else {
		formula(e, "layers in flight",
			"min(2 (pp - 1) + (v - 1) pp + 1, micro-batches x v) x layers per stage "
			"/ v (interleaved 1F1B, first stage)");
		ex_numbers(e, "layers in flight",
			   "min(2 x (%d - 1) + (%d - 1) x %d + 1, %d x %d) x %s / %d", pp, v, pp, m,
			   v, plain(e, L), v);
	}
	result(e, "layers in flight", plain(e, p->mem.layers_in_flight));
}

void explain_weights(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct plan_memory *m = &p->mem;
	double base = p->params * m->weight_bytes_per_param / m->weight_shard;
	bool lora = training(s) && s->workload.kind == WL_FINETUNE &&
		    s->workload.finetune.method != FT_FULL;
	/* offloaded parameters (ZeRO-Infinity) leave the GPU: the formula gives what moved
	 * to host memory */
	double held = gpu_or_host(s, p, m->weights, HELD_WEIGHTS);

	/* the vision tower (model.vision_params) apart: vision_note says what it is */
	double vis = held > 0 && m->vision_weights > 0 ? m->vision_weights : 0;
	if (lora) {
		/* LoRA/QLoRA: the frozen base at its bytes per parameter; the embedding and
		 * head stay 16-bit in a quantized base (bitsandbytes swaps nn.Linear layers
		 * only) and the adapters keep their dtype */
		formula(e, "weights",
			vis > 0 ? "parameters x base bytes per parameter / shards + 16-bit "
				  "embedding and head and the adapters + vision tower"
				: "parameters x base bytes per parameter / shards + 16-bit "
				  "embedding and head and the adapters");
		if (vis > 0)
			ex_numbers(e, "weights", "%s x %s B / %s + %s + %s", cnt(e, p->params),
				   plain(e, m->weight_bytes_per_param), plain(e, m->weight_shard),
				   byt(e, held - base - vis), byt(e, vis));
		else
			ex_numbers(e, "weights", "%s x %s B / %s + %s", cnt(e, p->params),
				   plain(e, m->weight_bytes_per_param), plain(e, m->weight_shard),
				   byt(e, held - base));
	} else if (vis > 0 && training(s)) {
		formula(e, "weights", "parameters x bytes per parameter / shards + vision tower");
		ex_numbers(e, "weights", "%s x %s B / %s + %s", cnt(e, p->params),
			   plain(e, m->weight_bytes_per_param), plain(e, m->weight_shard),
			   byt(e, vis));
	} else if (!training(s) && (p->model.vision_params > 0 || m->draft_weights > 0)) {
		/* serving loads the vision tower 16-bit over tp and the draft model beside
		 * the language model (plan_memory.c) */
		char sym[200], num[200];
		struct text_acc a = text_acc_on(sym, sizeof(sym)),
				b = text_acc_on(num, sizeof(num));
		text_add(&a, "parameters x bytes per parameter / shards");
		text_add(&b, "%s x %s B / %s", cnt(e, p->params),
			 plain(e, m->weight_bytes_per_param), plain(e, m->weight_shard));
		if (p->model.vision_params > 0) {
			text_add(&a, " + vision tower x 2 B / tp");
			text_add(&b, " + %s x 2 B / %d", cnt(e, p->model.vision_params), p->tp);
		}
		if (m->draft_weights > 0) {
			text_add(&a, " + draft model");
			text_add(&b, " + %s", byt(e, m->draft_weights));
		}
		formula(e, "weights", sym);
		ex_numbers(e, "weights", "%s", num);
	} else {
		formula(e, "weights", "parameters x bytes per parameter / shards");
		ex_numbers(e, "weights", "%s x %s B / %s", cnt(e, p->params),
			   plain(e, m->weight_bytes_per_param), plain(e, m->weight_shard));
	}
	result(e, "weights", held_str(e, m->weights, held));
	ex_put(e, "\n  shards = tp x pp%s%s\n", p->zero >= 3 ? " x dp (ZeRO-3)" : "",
	       p->ep > 1 ? "; expert weights also over ep" : "");
	vision_note(e, s, p, "weights", m->vision_weights);
	offload_note(e, m->weights, held);
	source(e, !training(s) && p->model.vision_params > 0
		      ? "ZeRO (Rajbhandari et al. 2020), Section 3; 4-bit formats add "
			"per-group scales; the vision tower tensor-parallel and 16-bit, as vLLM "
			"builds it (models/siglip.py) and quantizers leave it"
		      : "ZeRO (Rajbhandari et al. 2020), Section 3; 4-bit formats add "
			"per-group scales");
}

/* Gradients and optimizer states are training's: false, with the reason, for inference;
 * else true with *held, where part is held (gpu_or_host). */
static bool held_states(struct ex *e, const struct scenario *s, const struct plan *p, double on_gpu,
			enum held part, double *held)
{
	if (!training(s)) {
		not_applicable(e, "inference keeps no gradients or optimizer states");
		return false;
	}
	*held = gpu_or_host(s, p, on_gpu, part);
	return true;
}

/* The per-parameter state of gradients or optimizer (bytes: what one parameter holds), as
 * src/plan_memory.c counts it: trainable parameters x bytes / shards, plus the vision
 * tower's (vision > 0), less what is paged on the host (*paged; NULL for none). */
static void per_param_state(struct ex *e, const char *lhs, const char *bytes, const struct plan *p,
			    double per_param, double shards, double vision, const double *paged)
{
	char sym[160], vis[64] = "", host[64] = "";

	snprintf(sym, sizeof(sym), "trainable parameters x %s / shards%s%s", bytes,
		 vision > 0 ? " + vision tower" : "", paged ? " - paged on the host" : "");
	formula(e, lhs, sym);
	if (vision > 0)
		snprintf(vis, sizeof(vis), " + %s", byt(e, vision));
	if (paged)
		snprintf(host, sizeof(host), " - %s", byt(e, *paged));
	ex_numbers(e, lhs, "%s x %s B / %s%s%s", cnt(e, p->trainable_params), plain(e, per_param),
		   plain(e, shards), vis, host);
}

void explain_gradients(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct plan_memory *m = &p->mem;
	double held;

	if (!held_states(e, s, p, m->gradients, HELD_GRADIENTS, &held))
		return;
	/* a lifetime shorter than the step (workload.grad_lifetime backward or fused) leaves
	 * less than the step's gradients at the peak, a chunked loss's head backward can leave
	 * more (plan_memory.c head_grads): that is the figure, and the first paragraph's
	 * result, so that the headline and the sum agree (issue 14) */
	bool shorter =
	    (m->gradients < m->gradients_full || m->head_grads > 0) && held == m->gradients;
	enum grad_lifetime g = framework_grads(s->workload.framework, s->workload.grad_lifetime);
	if (shorter) {
		if (m->head_grads > 0) {
			formula(
			    e, "gradients",
			    "2 x the head's gradient - 2 x the loss's logit gradients / chunks");
			result(e, "gradients", byt(e, m->gradients));
		} else if (g == GRADS_FUSED) {
			formula(e, "gradients", "the largest one tensor's gradient");
			result(e, "gradients", byt(e, m->gradients));
		} else if (m->grads_transient > 0) {
			/* the whole gradients before their reduce-scatter are the backward's
			 * start's (plan_memory.c grads_transient, in the comm buffers) */
			formula(e, "gradients",
				"max(0, the step's gradients - activations - rebuilt layer - whole "
				"gradients before their reduce-scatter)");
			ex_numbers(e, "gradients", "max(0, %s - %s - %s - %s)",
				   byt(e, m->gradients_full), byt(e, m->activations),
				   byt(e, m->rebuilt_layer), byt(e, m->grads_transient));
			result(e, "gradients", byt(e, m->gradients));
		} else {
			formula(e, "gradients",
				"max(0, the step's gradients - activations - rebuilt layer)");
			ex_numbers(e, "gradients", "max(0, %s - %s - %s)",
				   byt(e, m->gradients_full), byt(e, m->activations),
				   byt(e, m->rebuilt_layer));
			result(e, "gradients", byt(e, m->gradients));
		}
		ex_put(e, "\n");
	}
	per_param_state(e, shorter ? "the step's gradients" : "gradients", "bytes per gradient", p,
			m->grad_bytes_per_param, m->grad_shard, m->vision_gradients, NULL);
	if (shorter)
		result(e, "the step's gradients", byt(e, m->gradients_full));
	else
		result(e, "gradients",
		       held_str(e, m->gradients_full, held > 0 ? held : m->gradients_full));
	bool fsdp_pp = s->workload.framework == FW_FSDP && p->pp > 1 && p->zero >= 3 &&
		       p->micro_batches > 1 && s->parallel.offload == OFFLOAD_NONE;
	ex_put(e, "\n  shards = tp x pp%s%s\n",
	       fsdp_pp	      ? " (unsharded over dp under the pipeline)"
	       : p->zero >= 2 ? " x dp (ZeRO-2 and up)"
			      : "",
	       p->ep > 1 ? "; expert gradients also over ep" : "");
	vision_note(e, s, p, "gradients", m->vision_gradients);
	offload_note(e, m->gradients, held);
	if (fsdp_pp)
		ex_wrapped(
		    e, "  ",
		    "FSDP under a pipeline: every micro-batch's backward but the last runs "
		    "without gradient sync, so the stage's gradients accumulate unsharded in "
		    "the fp32 reduce dtype (torch/distributed/pipelining/stage.py "
		    "backward_maybe_with_nosync; fsdp/_fully_shard/_fsdp_param.py "
		    "to_accumulated_grad_if_needed)");
	if (m->head_grads > 0)
		ex_wrapped(e, "  ",
			   "the head's backward under the chunked loss: autograd runs every "
			   "chunk's loss backward first (the highest sequence_nr first), then "
			   "each chunk's mm backward adds a whole head weight gradient into the "
			   "chunks' sum (torch/csrc/autograd/input_buffer.cpp accumulate): two "
			   "of them beside (chunks - 1) / chunks of the 16-bit logit gradients, "
			   "the part beyond the loss's activations counted here");
	if (m->gradients < m->gradients_full) {
		if (g == GRADS_FUSED)
			ex_wrapped(
			    e, "  ",
			    "grad_lifetime fused: the optimizer steps each parameter in its "
			    "post-accumulate-grad hook and drops its gradient (torchtune "
			    "optimizer_in_bwd, training/memory.py register_optim_in_bwd_hooks)");
		else
			ex_wrapped(
			    e, "  ",
			    "grad_lifetime backward: gradients are allocated in the backward "
			    "as the layers' activations are freed and dropped by "
			    "zero_grad(set_to_none=True) after the step (torchtune's recipes), "
			    "so the peak holds the larger of the two; what is counted is the "
			    "part beyond the activations");
	}
	/* workload.grad_dtype auto is the framework's (framework.c grad_dtype, each row's
	 * comment naming its code); an explicit value is the user's. */
	{
		const struct framework_info *fw = framework_get(s->workload.framework);
		bool autod = s->workload.grad_dtype == GRAD_DTYPE_AUTO;
		enum dtype gd = autod ? fw->grad_dtype : s->workload.grad_dtype;
		char buf[320];
		if (p->precision == DTYPE_FP32 || p->precision == DTYPE_TF32)
			snprintf(buf, sizeof(buf),
				 "ZeRO (Rajbhandari et al. 2020), Section 5; fp32 training keeps "
				 "4-byte gradients whatever grad_dtype says");
		else if (s->workload.framework == FW_MEGATRON && autod)
			snprintf(
			    buf, sizeof(buf),
			    "ZeRO (Rajbhandari et al. 2020), Section 5; grad_dtype auto: "
			    "Megatron-LM's fp32 main_grad (megatron/training/arguments.py "
			    "validate_args forces accumulate_allreduce_grads_in_fp32 under bf16; "
			    "core/distributed/distributed_data_parallel.py grad_dtype)");
		else if (autod)
			snprintf(buf, sizeof(buf),
				 "ZeRO (Rajbhandari et al. 2020), Section 5; grad_dtype auto: %s "
				 "for %s (src/framework.c)",
				 dtype_name(gd), fw->title);
		else
			snprintf(buf, sizeof(buf),
				 "ZeRO (Rajbhandari et al. 2020), Section 5; grad_dtype %s as set "
				 "(auto: %s for %s)",
				 dtype_name(gd), dtype_name(fw->grad_dtype), fw->title);
		source(e, buf);
	}
}

void explain_optimizer(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct plan_memory *m = &p->mem;
	double held;

	if (!held_states(e, s, p, m->optimizer, HELD_OPTIMIZER, &held))
		return;
	if (s->workload.optimizer_states == STATES_PAGED && s->parallel.offload == OFFLOAD_NONE) {
		/* paged states the GPU has no room for are on the host (plan_memory.c) */
		double vis = m->vision_optimizer > 0 ? m->vision_optimizer : 0;
		double all =
		    p->trainable_params * m->optimizer_bytes_per_param / m->optimizer_shard + vis;
		double paged = all - m->optimizer;
		per_param_state(e, "optimizer", "optimizer bytes", p, m->optimizer_bytes_per_param,
				m->optimizer_shard, vis, &paged);
	} else {
		per_param_state(e, "optimizer", "optimizer bytes", p, m->optimizer_bytes_per_param,
				m->optimizer_shard, m->vision_optimizer, NULL);
	}
	result(e, "optimizer", held_str(e, m->optimizer, held));
	switch (s->workload.optimizer) {
	case OPT_ADAMW:
		ex_put(e, "\n  AdamW: %s = %s B per parameter\n",
		       m->optimizer_bytes_per_param > 8
			   ? "fp32 master + momentum + variance"
			   : "momentum + variance (fp32 weights: no master)",
		       plain(e, m->optimizer_bytes_per_param));
		break;
	case OPT_ADAM8BIT:
		ex_put(e, "\n  8-bit Adam: %stwo 1-byte moments%s = %s B per parameter\n",
		       m->optimizer_bytes_per_param >= 4 ? "fp32 master + " : "",
		       s->workload.framework != FW_DEFAULT ? "\n  + an fp32 absmax per 256 values"
							   : "",
		       plain(e, m->optimizer_bytes_per_param));
		break;
	case OPT_SGD:
		ex_put(e, "\n  SGD with momentum: %s = %s B per parameter\n",
		       m->optimizer_bytes_per_param > 4 ? "fp32 master + momentum" : "momentum",
		       plain(e, m->optimizer_bytes_per_param));
		break;
	case OPT_NONE:
		ex_put(e, "\n  no optimizer: no state\n");
		break;
	}
	ex_put(e, "\n  shards = tp x pp%s%s\n", p->zero >= 1 ? " x dp (ZeRO-1 and up)" : "",
	       p->ep > 1 ? "; expert states also over ep" : "");
	vision_note(e, s, p, "optimizer states", m->vision_optimizer);
	offload_note(e, m->optimizer, held);
	if (s->workload.optimizer_states == STATES_PAGED && s->parallel.offload == OFFLOAD_NONE &&
	    !(m->optimizer_paged > 0) && !(m->optimizer_evicted > 0))
		ex_put(
		    e,
		    "\n  paged (workload.optimizer_states): nothing is paged here; bitsandbytes\n"
		    "  pages only tensors of 1e5 values or more (get_state_buffer), so these\n"
		    "  states stay in device memory\n");
	else if (s->workload.optimizer_states == STATES_PAGED &&
		 s->parallel.offload == OFFLOAD_NONE)
		ex_put(e,
		       "\n  paged (workload.optimizer_states): the moments, %s on the GPU, are\n"
		       "  CUDA managed memory the driver evicts to the host when the GPU is full\n"
		       "  (%s there); the caching allocator does not see them: in total, not in\n"
		       "  reserved or allocated\n",
		       byt(e, m->optimizer_paged), byt(e, m->optimizer_evicted));
	source(e, s->workload.optimizer_states == STATES_PAGED
		      ? "bitsandbytes paged optimizers: get_state_buffer, F.get_paged "
			"(bitsandbytes/optim/optimizer.py, functional.py)"
		  : s->workload.optimizer == OPT_ADAM8BIT && s->workload.framework != FW_DEFAULT
		      ? "8-bit Adam's block-wise absmax: bitsandbytes Optimizer2State.init_state, "
			"torchao OptimState8bit (block 256)"
		      : "ZeRO (Rajbhandari et al. 2020), Section 3.1, K = 12; "
			"8-bit Adam: 6 B (Dettmers et al.)");
}

/* Inference: the prefill of one prompt or the decode step's working set. */
static void inference_activations(struct ex *e, const struct plan *p)
{
	const struct plan_memory *m = &p->mem;

	if (isfinite(m->kv_budget)) {
		/* a serving framework's KV rule: the profile run's peak, whatever the batch
		 * (plan_memory.c kv_rule_finish) */
		double per_token = m->profile_tokens > 0
				       ? (m->activations - m->profile_logits) / m->profile_tokens
				       : 0;
		if (m->profile_logits > 0) {
			formula(e, "activations",
				"profile tokens x working set per token + sampled sequences x 4 "
				"B x vocab");
			ex_numbers(e, "activations", "%s x %s + 256 x 4 B x %s",
				   plain(e, m->profile_tokens), byt(e, per_token),
				   plain(e, m->profile_logits / (256 * 4.0)));
		} else {
			formula(e, "activations", "profile tokens x working set per token");
			ex_numbers(e, "activations", "%s x %s", plain(e, m->profile_tokens),
				   byt(e, per_token));
		}
		result(e, "activations", byt(e, m->activations));
		ex_put(e, "\n");
		ex_wrapped(
		    e, "  ",
		    "the framework profiles one forward of max_num_batched_tokens tokens (the "
		    "step's token budget under chunked prefill, else max(prompt + output, "
		    "2048)) before it sizes the KV pool, and its sampler's fp32 logits for 256 "
		    "sequences on the last stage; the peak is kept whatever the batch");
		source(e, "vLLM v1/worker/gpu_worker.py determine_available_memory "
			  "(gpu_model_runner.py profile_run: _dummy_run(max_num_tokens), "
			  "max_num_seqs 256); SGLang and TensorRT-LLM reserve the same way");
		return;
	}
	formula(e, "activations",
		"max(prefill of one prompt, batch x decode working set per sequence)");
	ex_numbers(e, "activations", "max(%s, %s x %s)", byt(e, m->activations_per_layer),
		   plain(e, p->global_batch), byt(e, m->decode_bytes_per_seq));
	result(e, "activations", byt(e, m->activations));
	ex_put(e, "\n  the scheduler prefills prompts through a token budget; the decode step\n"
		  "  keeps the batch's hidden states and fp32 logits\n");
	source(e, "vLLM's scheduler; Korthikanti et al. 2023 for the per-token tensors");
}

static void hybrid_blocks(struct ex *e, const struct plan *p, double per_token);

/* The bytes per layer per micro-batch that the activations multiply: full recomputation
 * keeps the layer's input, e s b h (/ t with sequence parallelism); otherwise the layer's
 * stored tensors per token (src/plan_memory.c lists them) x s x b. */
static void per_layer_activations(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct workload *w = &s->workload;
	/* s: the tokens of a sequence on this GPU, seq_len / cp under context parallelism */
	double cp = p->cp > 1 ? p->cp : 1;
	double sq = (w->seq_len > 0 ? w->seq_len : 1) / cp;
	double b = w->micro_batch > 0 ? w->micro_batch : 1;
	double per_token = p->mem.activations_per_layer / (sq * b);
	/* workload.recompute_layers: R of the stage's layers recompute (plan_memory.c) */
	double Ls = p->pp > 1 ? ceil((double)p->model.layers / p->pp) : p->model.layers;
	bool uniform = w->recompute == RECOMPUTE_FULL && w->recompute_method == RECOMPUTE_UNIFORM &&
		       w->recompute_layers > 1 && Ls > 0;
	bool some = w->recompute != RECOMPUTE_NONE && w->recompute_layers > 0 &&
		    w->recompute_layers < Ls && w->recompute_method != RECOMPUTE_UNIFORM;

	ex_put(e, "\n");
	if (cp > 1)
		ex_put(e, "  s = seq_len / cp = %d / %d = %s tokens a GPU (parallel.cp)\n",
		       w->seq_len, p->cp, plain(e, sq));
	if (uniform) {
		/* Megatron uniform: one layer input a chunk (plan_memory.c) */
		double rt = s->parallel.sequence_parallel && p->tp > 1 ? p->tp : 1;
		double h = p->model.hidden, chunks = ceil(Ls / w->recompute_layers);
		formula(e, "bytes per layer",
			"chunks / layers x e s b h / sp (uniform: each chunk keeps its input)");
		ex_numbers(e, "bytes per layer", "%s / %s x %s B x %s x %s x %s / %s",
			   plain(e, chunks), plain(e, Ls),
			   plain(e, per_token * rt * Ls / (chunks * h)), plain(e, sq), plain(e, b),
			   plain(e, h), plain(e, rt));
	} else if (w->recompute == RECOMPUTE_FULL && !some) {
		double rt = s->parallel.sequence_parallel && p->tp > 1 ? p->tp : 1;
		double h = p->model.hidden;
		formula(e, "bytes per layer",
			"e s b h / sp (full recompute keeps only the layer input)");
		ex_numbers(e, "bytes per layer", "%s B x %s x %s x %s / %s",
			   plain(e, per_token * rt / h), plain(e, sq), plain(e, b), plain(e, h),
			   plain(e, rt));
	} else {
		formula(e, "bytes per layer", "bytes per token of the layer x s x b");
		ex_numbers(e, "bytes per layer", "%s B x %s x %s", plain(e, per_token),
			   plain(e, sq), plain(e, b));
	}
	result(e, "bytes per layer", byt(e, p->mem.activations_per_layer));
	ex_put(e, "\n"); /* the notes are not part of the result */
	if (uniform)
		ex_put(
		    e,
		    "  workload.recompute_method uniform: chunks of %d layers, each checkpointed\n"
		    "  at its input; the backward reruns a chunk's forward whole\n",
		    w->recompute_layers);
	if (some) {
		char t[320];
		snprintf(t, sizeof(t),
			 "workload.recompute_layers: %d of the stage's %s layers recompute, the "
			 "rest store everything, so a layer averages %d x the recomputing "
			 "layer's bytes and %s x a storing one's, over %s (Megatron "
			 "--recompute-method block; torchtitan selective_ac_option N)",
			 w->recompute_layers, plain(e, Ls), w->recompute_layers,
			 plain(e, Ls - w->recompute_layers), plain(e, Ls));
		ex_wrapped(e, "  ", t);
	}
	if (w->recompute == RECOMPUTE_ATTENTION)
		ex_wrapped(e, "  ",
			   "bytes per token: the layer's stored tensors less its attention "
			   "module's (workload.recompute attention: the module keeps only its "
			   "input, the norm's output, and drops Q, K, V, the kernel's output and "
			   "log-sum-exp or the scores, and the attention's LoRA adapters; the norm "
			   "inputs and the MLP's intermediates stay, / tp inside the "
			   "tensor-parallel region)");
	else if (w->recompute == RECOMPUTE_OP)
		ex_wrapped(e, "  ",
			   framework_compiled(w->framework, w->compile)
			       ? "bytes per token: workload.recompute op under torch.compile: "
				 "AOTAutograd's partitioner saves the policy's outputs that the "
				 "backward reads, the block's input, q, v, the attention output "
				 "and log-sum-exp, the gate; a gated MLP's down projection output, "
				 "which eager SAC caches, feeds only the residual add and is not "
				 "saved (e h less a layer)"
			       : "bytes per token: workload.recompute op, eager: SAC caches the "
				 "output of every saved op, q, v, the attention output and "
				 "log-sum-exp, the gate and a gated MLP's down projection, beside "
				 "the block's input (torch.compile drops the down projection's, e "
				 "h)");
	else if (w->recompute != RECOMPUTE_FULL)
		ex_wrapped(
		    e, "  ",
		    "bytes per token: the layer's stored tensors (norm inputs, Q K V, the MLP's "
		    "intermediates, / tp inside the tensor-parallel region), not GPT-3's 34 h");
	if (w->recompute != RECOMPUTE_FULL && w->recompute != RECOMPUTE_OP &&
	    w->kind == WL_FINETUNE && w->finetune.method != FT_FULL && w->finetune.dropout > 0)
		ex_wrapped(e, "  ",
			   "LoRA dropout: each adapter keeps its bool dropout mask, 1 B an input "
			   "element (native_dropout; torchtune/modules/peft/lora.py, PEFT "
			   "lora_dropout)");
	if (w->recompute != RECOMPUTE_FULL && w->recompute != RECOMPUTE_OP &&
	    framework_eager(w->framework, w->compile)) {
		bool frozen = w->kind == WL_FINETUNE && w->finetune.method != FT_FULL;
		ex_wrapped(
		    e, "  ",
		    frozen ? "eager layers (workload.compile off) under a frozen base: each "
			     "RMSNorm keeps its fp32 input ((4 - e) h; the frozen scale saves "
			     "no normed copy), K and V expanded to every query head, the "
			     "attention output twice where the output projection has an "
			     "adapter, and SiLU's output; LoRALinear keeps its input and lora_a's "
			     "output, counted already (torchtune/modules rms_norm.py, "
			     "attention.py, feed_forward.py, peft/lora.py); torch.compile "
			     "recomputes them"
			   : "eager layers (workload.compile off): each RMSNorm keeps its fp32 "
			     "input and normed copy (4 h), K and V expanded to every query head, "
			     "the attention output twice and SiLU's output (torchtune/modules "
			     "rms_norm.py, attention.py, feed_forward.py); torch.compile "
			     "recomputes them");
		if (frozen && w->finetune.dropout > 0)
			ex_wrapped(
			    e, "  ",
			    "LoRA dropout: each adapter's own dropout output, beyond the "
			    "shared input (torchtune/modules/peft/lora.py lora_a(dropout(x)))");
		if (p->model.moe.experts > 0 && p->model.mlp == MLP_GATED)
			ex_wrapped(
			    e, "  ",
			    "MoE layers, eager: the routed and shared experts' SiLU outputs too, "
			    "e (k f_expert + shared f_shared) (torchtitan/models/moe.py "
			    "_run_experts_grouped_mm, transformers' MixtralBlockSparseTop2MLP)");
	}
	if (isfinite(p->mem.act_block[PLAN_BLOCK_INPUT]) &&
	    (w->recompute == RECOMPUTE_NONE || w->recompute == RECOMPUTE_SELECTIVE))
		hybrid_blocks(e, p, per_token);
}

/* A hybrid's layers (model.h) averaged: each attention, state-space, linear, dense MLP and
 * MoE block's bytes per token (plan_memory.c act_hybrid_token, which adds them up so), so
 * that the class can check the layer's figure against its blocks (issue 14). */
static void hybrid_blocks(struct ex *e, const struct plan *p, double per_token)
{
	const struct model *m = &p->model;
	const double *blk = p->mem.act_block;
	int nmoe = model_moe_layers(m);
	const struct {
		int n;
		int block;
		const char *name;
	} t[] = {
	    {model_attention_layers(m), PLAN_BLOCK_ATTENTION, "attention"},
	    {m->ssm.layers, PLAN_BLOCK_SSM, m->ssm.gated_delta ? "Gated DeltaNet" : "state-space"},
	    {m->linear_blocks, PLAN_BLOCK_LINEAR, "linear"},
	    {model_mlp_layers(m) - nmoe, PLAN_BLOCK_MLP, "MLP"},
	    {nmoe, PLAN_BLOCK_MOE, "MoE"},
	};
	char sym[320], num[240];
	struct text_acc n = text_acc_on(sym, sizeof(sym)), k = text_acc_on(num, sizeof(num));
	double sum = 0, L = m->layers > 0 ? m->layers : 1;

	for (unsigned i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		if (t[i].n <= 0)
			continue;
		text_add(&n, "%s%s blocks x bytes of one", n.len ? " + " : "(", t[i].name);
		text_add(&k, "%s%d x %s", k.len ? " + " : "(", t[i].n, byt(e, blk[t[i].block]));
		sum += t[i].n * blk[t[i].block];
	}
	if (!n.len)
		return;
	text_add(&n, ") / layers");
	text_add(&k, ") / %d", m->layers);
	ex_put(e, "\n");
	formula(e, "bytes per token", sym);
	ex_numbers(e, "bytes per token", "%s", num);
	result(e, "bytes per token", byt(e, sum / L));
	ex_put(e, "\n");
	if (fabs(sum / L - per_token) > 1e-6 * per_token)
		ex_wrapped(
		    e, "  ",
		    "the model's average; this pipeline stage holds another mix of dense and "
		    "MoE layers");
	{
		char text[400];
		snprintf(
		    text, sizeof(text),
		    "each block: its own tensors and its input and norm's input, %s a "
		    "token; attention and MLP blocks from the layer's tensors (the "
		    "transformer layer's, src/plan_memory.c act_layer_token), %s",
		    byt(e, blk[PLAN_BLOCK_INPUT]),
		    m->ssm.layers <= 0
			? (m->linear_blocks > 0 ? "a linear block (DeciLM) its input alone"
						: "a DeciLM layer's own widths averaged")
		    : m->ssm.gated_delta
			? "a Gated DeltaNet mixer what flash-linear-attention's "
			  "ChunkGatedDeltaRuleFunction saves (fla/ops/gated_delta_rule/chunk.py)"
		    : m->ssm.heads > 0 ? "a Mamba-2 mixer what mamba_ssm's "
					 "MambaSplitConv1dScanCombinedFn saves "
					 "(mamba_ssm/ops/triton/ssd_combined.py)"
				       : "a Mamba mixer what mamba_ssm's MambaInnerFn saves "
					 "(mamba_ssm/ops/selective_scan_interface.py)");
		ex_wrapped(e, "  ", text);
	}
}

void explain_activations(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct plan_memory *m = &p->mem;
	/* the formula names only the terms this plan has, so the numbers add up */
	char sym[240], num[160];
	struct text_acc n = text_acc_on(sym, sizeof(sym)), k = text_acc_on(num, sizeof(num));
	const struct {
		double v;
		const char *name;
	} extra[] = {{m->activations_embed, "embedding dropout masks"},
		     {m->activations_head, "output layer and loss"}};

	if (!training(s)) {
		inference_activations(e, p);
		return;
	}
	text_add(&n, "bytes per layer per micro-batch x layers in flight");
	text_add(&k, "%s x %s", byt(e, m->activations_per_layer), plain(e, m->layers_in_flight));
	for (unsigned i = 0; i < sizeof(extra) / sizeof(extra[0]); i++) {
		if (!(extra[i].v > 0))
			continue;
		text_add(&n, " + %s", extra[i].name);
		text_add(&k, " + %s", byt(e, extra[i].v));
	}
	if (m->activations_offloaded > 0) {
		text_add(&n, " - offloaded to host");
		text_add(&k, " - %s", byt(e, m->activations_offloaded));
	}
	formula(e, "activations", sym);
	ex_numbers(e, "activations", "%s", num);
	result(e, "activations", byt(e, m->activations));
	per_layer_activations(e, s, p);
	/* without a pipeline the layers in flight are the layers, one micro-batch each (a
	 * paragraph "1 micro-batch x layers" read as a contradiction of micro_batch 4) */
	if (p->pp > 1)
		layers_in_flight(e, p);
	if (m->activations_offloaded > 0)
		ex_put(e,
		       "\n  offloaded to host memory (workload.activation_offload): all but the\n"
		       "  layer in the backward and the one fetched back (torchtune\n"
		       "  training/_activation_offloading.py)\n");
	{
		/* torchtitan's loss parallelism (plan_memory.c loss_bytes_token) */
		const struct framework_info *fw = framework_get(s->workload.framework);
		int loss = s->workload.loss != LOSS_AUTO ? s->workload.loss : fw->loss;
		if (m->activations_head > 0 && fw->loss_parallel && p->tp > 1 && loss == LOSS_FP32)
			ex_put(e,
			       "\n  output layer and loss under loss_parallel (tp > 1): the head "
			       "keeps its\n  all-gathered input, e s b h, and DTensor's "
			       "cross-entropy backward four fp32\n  copies of the "
			       "vocabulary-sharded logits, 16 s b V / t (torchtitan\n  "
			       "parallelize_llama.py apply_tp; torch/distributed/tensor/"
			       "parallel/loss.py)\n");
	}
	if (m->rebuilt_layer > 0)
		ex_put(e,
		       "\n  stored activations; the layer recomputation rebuilds for its "
		       "backward\n  (%s) is transient and counts in overhead\n",
		       byt(e, m->rebuilt_layer));
	if (s->workload.recompute == RECOMPUTE_FULL && p->recompute_layers > 0 &&
	    p->recompute_layers <
		(p->pp > 1 ? ceil((double)p->model.layers / p->pp) : p->model.layers))
		source(e, "Korthikanti et al. 2023, Table 2 (full recomputation: 2 s b h a "
			  "recomputing layer; stored: the layer's tensors); Megatron-LM "
			  "transformer_block.py _checkpointed_forward (method block), torchtitan "
			  "activation_checkpoint.py _apply_layer_sac");
	else if (s->workload.recompute == RECOMPUTE_FULL &&
		 s->workload.recompute_method == RECOMPUTE_UNIFORM &&
		 s->workload.recompute_layers > 1)
		source(e,
		       "Korthikanti et al. 2023, Table 2: full recomputation stores 2 s b h "
		       "a checkpoint (/ t with sequence parallelism); Megatron-Core "
		       "megatron/core/recompute.py (transformer_block.py _checkpointed_forward), "
		       "method uniform: one for each chunk of recompute_layers layers");
	else if (s->workload.recompute == RECOMPUTE_ATTENTION)
		source(e, "OLMo-core olmo_core/nn/transformer/model.py, activation checkpointing "
			  "mode selected_modules over blocks.*.attention (PyTorch "
			  "checkpoint_wrapper: the module's inputs kept, its forward run again); "
			  "the layer's tensors as Korthikanti et al. 2023 count them "
			  "(src/plan_memory.c act_attention_ckpt_token)");
	else if (s->workload.recompute == RECOMPUTE_OP)
		source(e,
		       framework_compiled(s->workload.framework, s->workload.compile)
			   ? "torchtitan parallelize_llama.py _apply_ac_to_transformer_block "
			     "(_save_list, every second mm recomputed) and apply_compile; "
			     "torch/_functorch/partitioners.py solve_min_cut (MUST_SAVE banned "
			     "from recompute, saved only where the backward reads it) "
			     "(src/plan_memory.c act_op_unread_token)"
			   : "torchtitan parallelize_llama.py _apply_ac_to_transformer_block "
			     "(_save_list, every second mm recomputed); torch/utils/checkpoint.py "
			     "_CachingTorchDispatchMode (each MUST_SAVE output stored) "
			     "(src/plan_memory.c act_layer_op_token)");
	else if (s->workload.recompute == RECOMPUTE_FULL)
		source(e, "Korthikanti et al. 2023, Table 2: full recomputation stores 2 s b h per "
			  "layer; FlashAttention drops the 5 a s / h scores of the s b h (34 + 5 a "
			  "s / h) stored without it (/ t with sequence parallelism)");
	else
		source(e, "Korthikanti et al. 2023, Table 2: s b h (34 + 5 a s / h) per layer; "
			  "FlashAttention drops the 5 a s / h scores; that is GPT-3's layer, this "
			  "one's tensors are counted one by one (src/plan_memory.c)");
}

/* The KV budget a serving framework's rule leaves (plan_memory.c, the KV rule): vLLM's
 * fraction x total - peak torch memory - non-torch memory, SGLang's fraction x total -
 * the weights, TensorRT-LLM's fraction of what is free after the engine loads. */
void ex_kv_budget_lines(struct ex *e, const struct framework_info *fw, const struct plan_memory *m,
			double frac)
{
	switch (fw->kv_rule) {
	case KV_RULE_STATIC:
		formula(e, "KV budget", "memory fraction x capacity - weights");
		ex_numbers(e, "KV budget", "%s x %s - %s", plain(e, frac), byt(e, m->capacity),
			   byt(e, m->weights));
		break;
	case KV_RULE_FREE:
		formula(e, "KV budget",
			"memory fraction x (capacity - weights - activations - non-torch memory)");
		ex_numbers(e, "KV budget", "%s x (%s - %s - %s - %s)", plain(e, frac),
			   byt(e, m->capacity), byt(e, m->weights), byt(e, m->activations),
			   byt(e, m->cuda_context));
		break;
	default:
		formula(e, "KV budget",
			"memory fraction x capacity - (weights + activations + workspaces) - "
			"non-torch memory");
		ex_numbers(e, "KV budget", "%s x %s - (%s + %s + %s) - %s", plain(e, frac),
			   byt(e, m->capacity), byt(e, m->weights), byt(e, m->activations),
			   byt(e, m->blas_workspace), byt(e, m->cuda_context));
		break;
	}
	result(e, "KV budget", byt(e, m->kv_budget));
}

/* A serving framework's KV pool (plan_memory.c, the KV rule and kv_rule_finish): the
 * budget its rule leaves, in whole blocks, allocated once whatever the batch; more only
 * when an explicit batch needs more (it does not fit). */
static void kv_pool(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct plan_memory *m = &p->mem;
	const struct framework_info *fw = framework_get(s->workload.framework);
	double blk = fw->kv_block_tokens > 0 ? fw->kv_block_tokens : 1;
	double bb = blk * m->kv_bytes_per_token;
	double per_seq = bb > 0 ? ceil(m->kv_tokens_per_seq / blk) : 0;
	double state = m->kv_seq_bytes - per_seq * bb;
	double frac = s->workload.gpu_memory_utilization > 0
			  ? s->workload.gpu_memory_utilization
			  : framework_mem_fraction(s->workload.framework, p->tp);
	bool need = m->kv_seq_bytes * p->global_batch >= m->kv_cache;

	if (state < 1)
		state = 0;
	if (need || state > 0) {
		/* sequences x one sequence's whole blocks (+ its recurrent state) */
		double seqs = need		    ? p->global_batch
			      : m->kv_seq_bytes > 0 ? m->kv_cache / m->kv_seq_bytes
						    : 0;
		formula(e, "kv_cache",
			state > 0
			    ? "sequences x (blocks a sequence x block tokens x bytes per "
			      "token + recurrent state)"
			    : "sequences x blocks a sequence x block tokens x bytes per token");
		if (state > 0)
			ex_numbers(e, "kv_cache", "%s x (%s x %s x %s + %s)", plain(e, seqs),
				   plain(e, per_seq), plain(e, blk), byt(e, m->kv_bytes_per_token),
				   byt(e, state));
		else
			ex_numbers(e, "kv_cache", "%s x %s x %s x %s", plain(e, seqs),
				   plain(e, per_seq), plain(e, blk), byt(e, m->kv_bytes_per_token));
		result(e, "kv_cache", byt(e, m->kv_cache));
		ex_put(e, "\n");
		ex_wrapped(e, "  ",
			   need ? "the batch asked for needs more than the pool holds: it does not "
				  "fit"
				: "sequences: as many as the pool's whole blocks hold, each with "
				  "its recurrent state slot (vLLM's MambaSpec)");
	} else {
		formula(e, "kv_cache", "blocks x block tokens x bytes per token");
		ex_numbers(e, "kv_cache", "%s x %s x %s", cnt(e, bb > 0 ? m->kv_cache / bb : 0),
			   plain(e, blk), byt(e, m->kv_bytes_per_token));
		result(e, "kv_cache", byt(e, m->kv_cache));
		ex_put(e, "\n");
		formula(e, "blocks", "floor(KV budget / (block tokens x bytes per token))");
		ex_numbers(e, "blocks", "floor(%s / (%s x %s))", byt(e, m->kv_budget),
			   plain(e, blk), byt(e, m->kv_bytes_per_token));
		result(e, "blocks", cnt(e, bb > 0 ? m->kv_cache / bb : 0));
	}
	ex_put(e, "\n");
	ex_kv_budget_lines(e, fw, m, frac);
	ex_put(e, "\n  %s tokens cached (kv_cache / bytes per token)\n", cnt(e, m->kv_tokens));
}

void explain_kv_cache(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct plan_memory *m = &p->mem;

	if (training(s)) {
		not_applicable(e, "training keeps no KV cache");
		return;
	}
	if (p->model.ssm.layers > 0 && !isfinite(m->kv_budget)) {
		/* state-space layers: a fixed state per sequence beside the attention layers'
		 * cache (plan_memory.c, ssm_state_bytes) */
		double tokens = m->kv_bytes_per_token > 0 ? m->kv_tokens : 0;
		double state = m->kv_cache - m->kv_bytes_per_token * tokens;
		formula(
		    e, "kv_cache",
		    "bytes per token x tokens cached + the state-space layers' recurrent state");
		ex_numbers(e, "kv_cache", "%s x %s + %s", byt(e, m->kv_bytes_per_token),
			   cnt(e, tokens), byt(e, state));
		result(e, "kv_cache", byt(e, m->kv_cache));
		ex_put(e, "\n");
		formula(
		    e, "recurrent state",
		    "sequences x state-space layers x ((d_conv - 1) x conv channels + d_inner x "
		    "d_state) x bytes per element / tp (fixed whatever the context)");
		ex_numbers(e, "recurrent state", "%d x %d layers' %s elements x %s B / %d%s",
			   p->global_batch, p->model.ssm.layers,
			   cnt(e, model_ssm_state_elems(&p->model, NULL)),
			   plain(e, dtype_bytes(s->workload.precision) >= 4 ? 4 : 2), p->tp,
			   p->pp > 1 ? " x this stage's share of the layers" : "");
		result(e, "recurrent state", byt(e, state));
	} else if (isfinite(m->kv_budget)) {
		kv_pool(e, s, p);
		kv_per_token(e, s, p);
		source(e, "Kwon et al. 2023 (PagedAttention), Section 3: OPT-13B 800 KB per "
			  "token; DeepSeek-V2 (2024), Section 2.1 for MLA's latent cache");
		return;
	} else {
		formula(e, "kv_cache", "bytes per token x tokens cached");
		ex_numbers(e, "kv_cache", "%s x %s", byt(e, m->kv_bytes_per_token),
			   cnt(e, m->kv_tokens));
		result(e, "kv_cache", byt(e, m->kv_cache));
	}
	ex_put(e, "\n");
	if (p->model.sliding_window > 0 && p->model.global_layers > 0 &&
	    model_local_layers(&p->model) > 0) {
		/* local/global layers (model.c, model_kv_share; plan_memory.c, kv_window) */
		formula(e, "tokens cached",
			"sequences x (global layers x (prompt + output) + windowed layers x "
			"min(prompt + output, window kept)) / layers");
		ex_numbers(e, "tokens cached", "%d x (%d x %d + %d x min(%d, %s)) / %d",
			   p->global_batch, p->model.layers - model_local_layers(&p->model),
			   s->workload.prompt_tokens + s->workload.output_tokens,
			   model_local_layers(&p->model),
			   s->workload.prompt_tokens + s->workload.output_tokens,
			   s->workload.framework == FW_VLLM
			       ? "window - 1 + max_batched_tokens + a block (vLLM)"
			       : plain(e, p->model.sliding_window),
			   p->model.layers);
	} else {
		formula(e, "tokens cached",
			p->model.sliding_window > 0
			    ? "sequences x min(prompt + output, sliding window)"
			    : "sequences x (prompt + output)");
		ex_numbers(e, "tokens cached", "%d x %s", p->global_batch,
			   plain(e, m->kv_tokens_per_seq));
	}
	result(e, "tokens cached", cnt(e, m->kv_tokens));
	if (s->workload.batch <= 0 && p->slo_batch >= 1 && p->slo_batch < p->global_batch)
		ex_put(e,
		       "  (sized for the %d sequences that fit; the SLO's batch runs %s of "
		       "them)\n",
		       p->global_batch, plain(e, p->slo_batch));
	kv_per_token(e, s, p);
	source(e, "Kwon et al. 2023 (PagedAttention), Section 3: OPT-13B 800 KB per "
		  "token; DeepSeek-V2 (2024), Section 2.1 for MLA's latent cache");
}

void explain_overhead(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct plan_memory *m = &p->mem;

	{
		/* the terms this plan has, so that the numbers add up */
		char sym[240], num[160];
		struct text_acc n = text_acc_on(sym, sizeof(sym)),
				k = text_acc_on(num, sizeof(num));
		text_add(&n, "CUDA context + allocator fragmentation + comm buffers");
		text_add(&k, "%s + %s + %s", byt(e, m->cuda_context), byt(e, m->fragmentation),
			 byt(e, m->comm_buffers));
		if (m->rebuilt_layer > 0) {
			text_add(&n, " + the layer recomputation rebuilds for its backward");
			text_add(&k, " + %s", byt(e, m->rebuilt_layer));
		}
		if (m->fp8_weights > 0) {
			text_add(&n, framework_get(s->workload.framework)->fp8_ao
					 ? " + fp8 casts (torchao Float8Linear)"
					 : " + fp8 weight copies (Transformer Engine)");
			text_add(&k, " + %s", byt(e, m->fp8_weights));
		}
		if (m->blas_workspace > 0) {
			text_add(&n, " + cuBLAS workspaces");
			text_add(&k, " + %s", byt(e, m->blas_workspace));
		}
		formula(e, "overhead", sym);
		ex_numbers(e, "overhead", "%s", num);
	}
	result(e, "overhead", byt(e, m->overhead));
	if (m->fp8_weights > 0 || m->blas_workspace > 0)
		ex_put(e, "\n"); /* the notes are not part of the result */
	if (m->fp8_weights > 0 && framework_get(s->workload.framework)->fp8_ao)
		ex_wrapped(e, "  ",
			   "fp8 casts (torchao Float8Linear, tensorwise): the weight's 1-byte "
			   "cast that manual_float8_matmul_with_args_in_float8 saves for the "
			   "backward, of every layer that stores its activations (of the rebuilt "
			   "one under recomputation), and the largest linear's backward casts, "
			   "grad_output's and the input's with the layout copies torch._scaled_mm "
			   "takes and the weight's, 2 T (h + ffn / tp) + h x ffn / tp bytes "
			   "(torchao/float8/float8_linear.py, float8_ops.py preprocess_addmm)");
	else if (m->fp8_weights > 0)
		ex_wrapped(
		    e, "  ",
		    p->zero >= 3
			? "fp8 weight copies: each linear weight's fp8 cast and its "
			  "transpose, 2 B a parameter, of the gathered layers only under "
			  "ZeRO-3 (transformer_engine/pytorch/module/linear.py scatters "
			  "the saved copy over the FSDP group)"
			: "fp8 weight copies: each linear weight's fp8 cast and its "
			  "transpose, 2 B a parameter, kept across the step's micro-batches "
			  "(transformer_engine/pytorch/module/base.py get_weight_workspace)");
	if (m->blas_workspace > 0)
		ex_wrapped(
		    e, "  ",
		    s->workload.framework == FW_LLMC
			? "cuBLAS workspaces: llm.c's one 32 MiB cuBLASLt workspace, cudaMalloc'd "
			  "(llmc/cublas_common.h cublaslt_workspace_size)"
			: "cuBLAS workspaces: one per cuBLAS handle and stream, 32 MiB on Hopper, "
			  "2 x 4 MiB + 8 x 16 KiB elsewhere (128 MiB on MI300-class ROCm), plus "
			  "cuBLASLt's own (1 MiB; 76 MiB hipBLASLt) under fp8 or biased linears; "
			  "training holds two, the forward's and the autograd thread's; from the "
			  "caching allocator, so in allocated and reserved (aten/src/ATen/cuda/"
			  "CublasHandlePool.cpp getChosenWorkspaceSize; torch/csrc/autograd/"
			  "engine.cpp start_device_threads)");
	ex_put(e, "\n");
	if (isfinite(m->kv_budget)) {
		/* a serving framework's KV rule (plan_memory.c kv_rule_finish) */
		ex_wrapped(e, "  ",
			   "fragmentation: none; the serving framework allocates its KV pool once, "
			   "one tensor per layer carved into blocks, beside the profiled "
			   "activations (vLLM kv_cache_utils.py, SGLang memory_pool.py)");
	} else if (s->workload.framework == FW_DEFAULT) {
		formula(e, "fragmentation",
			"5% x (weights + gradients + optimizer + activations + kv_cache)");
		/* the gradients the slack covers: those at the peak, or under grad_lifetime
		 * backward those beyond the activations (plan_memory.c stage_finish) */
		double g = m->fragmentation / PLAN_FRAGMENTATION - m->weights - m->optimizer -
			   m->activations - m->kv_cache;
		ex_numbers(e, "fragmentation", "%s x (%s + %s + %s + %s + %s)",
			   plain(e, PLAN_FRAGMENTATION), byt(e, m->weights), byt(e, g > 0 ? g : 0),
			   byt(e, m->optimizer), byt(e, m->activations), byt(e, m->kv_cache));
	} else {
		/* a named framework's slack covers every allocation of the caching allocator
		 * but the workspaces, allocated once (plan_memory.c stage_finish) */
		double rest = m->comm_buffers - m->nccl_buffers + m->rebuilt_layer + m->fp8_weights;
		double base =
		    m->weights + m->gradients + m->optimizer + m->activations + m->kv_cache + rest;
		formula(e, "fragmentation",
			"slack x (weights + gradients + optimizer + activations + kv_cache + the "
			"allocator's other buffers)");
		ex_numbers(e, "fragmentation", "%s x (%s + %s + %s + %s + %s + %s)",
			   plain(e, base > 0 ? m->fragmentation / base : 0), byt(e, m->weights),
			   byt(e, m->gradients), byt(e, m->optimizer), byt(e, m->activations),
			   byt(e, m->kv_cache), byt(e, rest));
	}
	if (!isfinite(m->kv_budget))
		result(e, "fragmentation", byt(e, m->fragmentation));
	ex_put(e, "\n  comm buffers: NCCL's per-channel buffers for each process group%s\n",
	       p->zero >= 3 && training(s) ? ",\n  and two layers of ZeRO-3's gathered parameters"
					   : "");
	if (m->grads_transient > 0) {
		char line[480];
		snprintf(line, sizeof(line),
			 framework_get(s->workload.framework)->grad_reduce == GRAD_REDUCE_BUCKET
			     ? "and %s of whole gradients before their reduction: DeepSpeed's "
			       "flat bucket of reduce_bucket_size (5e8) 16-bit elements that each "
			       "gradient is copied into (stage_1_and_2.py ipg_buffer, stage3.py "
			       "__ipg_bucket_flat_buffer)"
			     : "and %s of whole gradients before their reduce-scatter, at the "
			       "backward's start: the head's (the root unit's, reduced last; under "
			       "the chunked loss its pair) and one block's, in the parameters' "
			       "dtype (torch/distributed/fsdp/_fully_shard/_fsdp_collectives.py "
			       "foreach_reduce, _fsdp_param_group.py post_backward)",
			 byt(e, m->grads_transient));
		ex_wrapped(e, "  ", line);
	}
	if (p->cp > 1)
		ex_wrapped(
		    e, "  ",
		    s->parallel.cp_comm == CP_COMM_ALL_GATHER
			? "and context parallelism's K/V buffers of one attention layer "
			  "(parallel.cp_comm all_gather): the whole sequence's gathered K/V "
			  "and, in the backward, their gradients, 2 x cp chunks of s / cp "
			  "tokens (Transformer Engine context_parallel.py, "
			  "AttnFuncWithCPAndKVAllGather)"
			: "and context parallelism's K/V buffers of one attention layer "
			  "(parallel.cp_comm p2p): the ring keeps every chunk it received until "
			  "the layer's forward ends and rotates K/V with their gradients in the "
			  "backward, max(cp, 4) chunks of s / cp tokens (Transformer Engine "
			  "context_parallel.py, AttnFuncWithCPAndKVP2P)");
	source(e, m->rebuilt_layer > 0
		      ? "PyTorch CUDA context ~0.5-1 GiB; caching-allocator slack (GMLake, "
			"Guo et al. 2024, Figure 2); NCCL_BUFFSIZE x channels; DeepSpeed's "
			"ZeRO-3 prefetch buckets; recomputation holds one rebuilt segment "
			"(Chen et al. 2016, Section 3)"
		      : "PyTorch CUDA context ~0.5-1 GiB; caching-allocator slack (GMLake, "
			"Guo et al. 2024, Figure 2); NCCL_BUFFSIZE x channels; DeepSpeed's "
			"ZeRO-3 prefetch buckets");
}

void explain_memory_total(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct plan_memory *m = &p->mem;

	(void)s;
	formula(e, "total", "weights + gradients + optimizer + activations + kv_cache + overhead");
	ex_numbers(e, "total", "%s + %s + %s + %s + %s + %s", byt(e, m->weights),
		   byt(e, m->gradients), byt(e, m->optimizer), byt(e, m->activations),
		   byt(e, m->kv_cache), byt(e, m->overhead));
	result(e, "total", byt(e, m->total));
	ex_put(e, "\n  %s of %s: %s\n", byt(e, m->total), byt(e, m->capacity),
	       m->fits ? "fits" : "does not fit");
	source(e, "the sum of the parts above, on the most loaded GPU");
}

void explain_allocated(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct plan_memory *m = &p->mem;

	(void)s;
	if (m->optimizer_paged > 0) {
		formula(e, "allocated",
			"total - CUDA context - NCCL buffers - paged optimizer states - allocator "
			"slack");
		ex_numbers(e, "allocated", "%s - %s - %s - %s - %s", byt(e, m->total),
			   byt(e, m->cuda_context), byt(e, m->nccl_buffers),
			   byt(e, m->optimizer_paged), byt(e, m->fragmentation));
	} else {
		formula(e, "allocated", "total - CUDA context - NCCL buffers - allocator slack");
		ex_numbers(e, "allocated", "%s - %s - %s - %s", byt(e, m->total),
			   byt(e, m->cuda_context), byt(e, m->nccl_buffers),
			   byt(e, m->fragmentation));
	}
	result(e, "allocated", byt(e, m->allocated));
	ex_put(e, "\n  the tensors alive at the peak: what torch.cuda.max_memory_allocated() and\n"
		  "  torchtune's peak active memory report\n");
	if (m->blas_workspace > 0)
		ex_put(e, "  (with the cuBLAS workspaces, %s: the caching allocator holds them)\n",
		       byt(e, m->blas_workspace));
	source(e, "PyTorch CUDA caching allocator (torch.cuda.memory_stats: allocated_bytes "
		  "and active_bytes peaks)");
}

void explain_reserved(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct plan_memory *m = &p->mem;
	const struct framework_info *fw = framework_get(s->workload.framework);

	formula(e, "reserved", "allocated x (1 + slack)");
	ex_numbers(e, "reserved", "%s x (1 + %s)", byt(e, m->allocated),
		   plain(e, m->allocated > 0 ? m->fragmentation / m->allocated : 0));
	result(e, "reserved", byt(e, m->reserved));
	ex_put(e,
	       "\n  what the caching allocator holds from CUDA at the peak:\n"
	       "  torch.cuda.max_memory_reserved() (torchtitan's max_reserved); nvidia-smi\n"
	       "  shows memory.per_gpu.total, which adds the CUDA context (%s) and NCCL's\n"
	       "  own buffers (%s: 4 MiB NCCL_BUFFSIZE x channels x peers a process group)\n",
	       byt(e, m->cuda_context), byt(e, m->nccl_buffers));
	if (m->optimizer_paged > 0)
		ex_put(e,
		       "  and the paged optimizer states resident on the GPU (%s: CUDA managed\n"
		       "  memory, bitsandbytes F.get_paged)\n",
		       byt(e, m->optimizer_paged));
	source(e, s->workload.framework == FW_DEFAULT
		      ? "gpuplan's 5% slack on the model's tensors (GMLake, Guo et al. 2024)"
		  : fw->reserved_slack > 0
		      ? "caching-allocator slack in LLM training, 10-30% (GMLake, Guo et al. "
			"2024, Figure 2); 15% taken (src/framework.c)"
		      : "no caching-allocator slack: the framework allocates its buffers "
			"once (src/framework.c)");
}

/* Megatron-LM's data-parallel path at the plan's ZeRO stage (megatron/training/
 * arguments.py): DDP, the distributed optimizer (megatron/core/optimizer/
 * distrib_optimizer.py), or Megatron-FSDP, Megatron-Core's own FSDP
 * (megatron/core/distributed/fsdp; --use-megatron-fsdp, formerly --use-custom-fsdp) with
 * --data-parallel-sharding-strategy optim_grads (2) or optim_grads_params (3, its
 * default). Under optim_grads_params the weights, the gradients (in the parameters' dtype:
 * --megatron-fsdp-main-grads-dtype auto, param_and_grad_buffer.py
 * _resolve_group_grad_dtype) and the fp32 main parameters and Adam states
 * (MixedPrecisionPolicy main_params_dtype fp32, mixed_precision.py) are sharded over dp,
 * and two FSDP units' parameters are gathered at once (docs/user-guide/features/
 * megatron_fsdp.md, double buffering): the ZeRO-3 rule as counted. */
static void megatron_dp_note(struct ex *e, const struct plan *p)
{
	if (p->zero >= 2)
		ex_wrapped(e, "  data parallel: ",
			   p->zero >= 3
			       ? "Megatron-FSDP (--use-megatron-fsdp, formerly --use-custom-fsdp; "
				 "megatron/core/distributed/fsdp), sharding strategy "
				 "optim_grads_params: the weights, the gradients (in the "
				 "parameters' dtype) and the fp32 main "
				 "parameters and Adam states sharded over dp, two FSDP units "
				 "gathered at once"
			       : "Megatron-FSDP (--use-megatron-fsdp; "
				 "megatron/core/distributed/fsdp), sharding strategy optim_grads: "
				 "gradients and optimizer states sharded over dp");
	else
		ex_wrapped(e, "  data parallel: ",
			   p->zero >= 1 ? "the distributed optimizer (--use-distributed-optimizer, "
					  "megatron/core/optimizer/distrib_optimizer.py)"
					: "DDP (megatron/core/distributed/"
					  "distributed_data_parallel.py)");
}

/* The framework whose rules a memory figure follows, after its explanation. */
void ex_framework_note(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct framework_info *fw = framework_get(s->workload.framework);
	int loss = s->workload.loss != LOSS_AUTO ? s->workload.loss : fw->loss;

	ex_put(e, "\n");
	ex_wrapped(
	    e, "  framework: ",
	    framework_title(s->workload.framework, !training(s), p->engine == ENGINE_CUDA_GRAPHS));
	if (training(s)) {
		ex_put(e, "  rules: optimizer %s B/param, loss %s, allocator slack %s\n",
		       plain(e, p->mem.optimizer_bytes_per_param),
		       scenario_enum_name("workload.loss", loss), plain(e, fw->reserved_slack));
		ex_put(e, "  layers %s, gradients live: %s\n",
		       framework_eager(s->workload.framework, s->workload.compile)
			   ? "eager (compile off)"
			   : "compiled or fused kernels",
		       scenario_enum_name(
			   "workload.grad_lifetime",
			   framework_grads(s->workload.framework, s->workload.grad_lifetime)));
		if (s->workload.framework == FW_MEGATRON)
			megatron_dp_note(e, p);
	} else if (fw->kv_rule == KV_RULE_FIT)
		ex_put(e, "  rules: KV cache for the batch (auto: what fits), allocator slack %s\n",
		       plain(e, s->workload.framework == FW_DEFAULT ? PLAN_FRAGMENTATION
								    : fw->reserved_slack));
	else
		ex_put(e,
		       "  rules: KV budget %s from a memory fraction of %s, in %s-token blocks\n",
		       byt(e, p->mem.kv_budget),
		       plain(e, s->workload.gpu_memory_utilization > 0
				    ? s->workload.gpu_memory_utilization
				    : framework_mem_fraction(s->workload.framework, p->tp)),
		       plain(e, fw->kv_block_tokens));
	if (!training(s) && fw->kv_rule != KV_RULE_FIT)
		ex_put(e,
		       "  pool: the budget in whole blocks, allocated once whatever the batch:\n"
		       "  %s tokens, %s of KV cache\n",
		       cnt(e, p->mem.kv_tokens), byt(e, p->mem.kv_cache));
	ex_wrapped(e,
		   "  framework source: ", framework_source(s->workload.framework, !training(s)));
}

/* Which figure a fit compares against (gpu_capacity_bytes): the catalog's cuda_total, the
 * scenario's hardware.memory, or the memory itself where CUDA's total is not known. */
void explain_capacity(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct gpu *g = &s->hardware.gpu;

	if (g->memory_bytes != g->listed_memory_bytes) {
		formula(e, "capacity", "hardware.memory, taken as what CUDA reports");
		ex_numbers(e, "capacity", "%s (%s)", byt(e, p->mem.capacity), g->id);
		result(e, "capacity", byt(e, p->mem.capacity));
		source(e, "the scenario's hardware.memory (gpuplan-scenario(5))");
	} else if (g->cuda_total_bytes > 0) {
		formula(e, "capacity", "what CUDA reports as total (cuda_total)");
		ex_numbers(e, "capacity", "%s of the %s memory (%s)", byt(e, p->mem.capacity),
			   byt(e, g->memory_bytes), g->id);
		result(e, "capacity", byt(e, p->mem.capacity));
		source(e, "cudaMemGetInfo's total as a run on the GPU printed it (or "
			  "nvidia-smi's, an upper bound, where the entry says so), named in the "
			  "entry's comment (catalog/gpus.yaml, gpuplan-catalog(5))");
	} else {
		formula(e, "capacity", "the GPU's memory (cuda_total not known)");
		ex_numbers(e, "capacity", "%s (%s)", byt(e, p->mem.capacity), g->id);
		result(e, "capacity", byt(e, p->mem.capacity));
		ex_put(e, "\n");
		ex_wrapped(e, "  ",
			   "unverified: no reading of what CUDA reports as total was found for "
			   "this GPU, so the whole memory is taken; CUDA reports a few hundred "
			   "MiB to 1 GiB less (1/16 less on a GDDR part with ECC on), and a plan "
			   "within that of the capacity may not load (set hardware.memory to "
			   "the figure torch.cuda.mem_get_info() prints)");
		source(e, "the vendor's datasheet (catalog/gpus.yaml)");
	}
}

void explain_headroom(struct ex *e, const struct scenario *s, const struct plan *p)
{
	(void)s;
	formula(e, "headroom", "capacity - total");
	ex_numbers(e, "headroom", "%s - %s", byt(e, p->mem.capacity), byt(e, p->mem.total));
	result(e, "headroom", byt(e, p->mem.headroom));
	source(e, "the datasheet's memory less the total above; negative headroom "
		  "means the plan does not fit");
}

void explain_fits(struct ex *e, const struct scenario *s, const struct plan *p)
{
	(void)s;
	formula(e, "fits", "total <= capacity");
	ex_numbers(e, "fits", "%s <= %s", byt(e, p->mem.total), byt(e, p->mem.capacity));
	result(e, "fits", p->mem.fits ? "true" : "false");
	source(e, "capacity is judged first: a plan that does not load does not run");
}
