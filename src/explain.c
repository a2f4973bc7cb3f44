/* explain.c - how each figure is derived: one function per figure of the table in
 * figure.c, each with its formula, its numbers, the result and the source. */
#include "explain.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "band.h"
#include "figure.h"
#include "framework.h"
#include "text.h"
#include "units.h"

/* The plan's scheduler as its enum, 0 (alone) when the plan has none (NaN): a NaN cast to
 * int is undefined. */
static int sched_of(double scheduler)
{
	return isnan(scheduler) ? 0 : (int)scheduler;
}

/* An explanation being written: the text so far and scratch space for numbers. */
struct ex {
	char *buf;
	size_t size, len;
	int width; /* columns to wrap at; 0 = one line a paragraph (the reader wraps) */
	char num[16][48];
	int nn;
	struct explain_parts *parts; /* explain --json: the lines by kind, or NULL */
};

static void put(struct ex *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(struct ex *e, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (e->len + 1 >= e->size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(e->buf + e->len, e->size - e->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		e->len += (size_t)n < e->size - e->len ? (size_t)n : e->size - e->len - 1;
}

/* A number for people, 3 significant digits, with its unit ("130 GiB", "3.35 TB/s"). */
static const char *h(struct ex *e, enum unit_kind k, double v)
{
	char *b = e->num[e->nn++ % 16];
	units_format_human(k, v, 3, b, sizeof(e->num[0]));
	return b;
}

/* h, and a unit text after it: "$21.5/h", "636 kWh" */
static const char *h_unit(struct ex *e, enum unit_kind k, double v, const char *unit)
{
	char *b = e->num[e->nn++ % 16];
	size_t n;
	units_format_human(k, v, 3, b, sizeof(e->num[0]));
	n = strlen(b);
	snprintf(b + n, sizeof(e->num[0]) - n, "%s", unit);
	return b;
}

static const char *cnt(struct ex *e, double v)
{
	return h(e, UNIT_COUNT, v);
}

static const char *sec(struct ex *e, double v)
{
	return h(e, UNIT_SECONDS, v);
}

static const char *byt(struct ex *e, double v)
{
	return h(e, UNIT_BYTES, v);
}

static const char *pct(struct ex *e, double v)
{
	return h(e, UNIT_RATIO, v);
}

static const char *plain(struct ex *e, double v)
{
	return h(e, UNIT_NONE, v);
}

/* GPUs of one replica (tp x pp), in double: extreme layouts overflow an int */
static double replica_gpus(const struct plan *p)
{
	double r = (double)p->tp * p->pp;
	return r > 0 ? r : 1;
}

static bool training(const struct scenario *s)
{
	return s->workload.kind == WL_TRAIN || s->workload.kind == WL_FINETUNE;
}

/* Inference: replicas deployed on the GPUs given (at least one). */
static double deployed(const struct scenario *s, const struct plan *p)
{
	return fmax(1, floor((s->hardware.count > 0 ? s->hardware.count : 1) / replica_gpus(p)));
}

static double prompt_tokens(const struct scenario *s)
{
	return s->workload.prompt_tokens > 0 ? s->workload.prompt_tokens : 1;
}

static double output_tokens(const struct scenario *s)
{
	return s->workload.output_tokens > 0 ? s->workload.output_tokens : 1;
}

/* A decode step's communication: TP all-reduces, EP all-to-alls, pipeline hand-offs (the
 * time model keeps the step's terms in struct plan_decode, adding up to tpot). */
static double decode_comm(const struct plan_decode *d)
{
	return d->tp_comm_s + d->ep_comm_s + d->pp_comm_s;
}

/* Writes text after prefix, wrapped at 80 columns with continuation lines indented to
 * the prefix's width; a number keeps its unit on its line ("615 kB"). */
static void wrapped(struct ex *e, const char *prefix, const char *text)
{
	int indent = (int)strlen(prefix), col = indent;
	const char *w = text;

	put(e, "%s", prefix);
	while (*w) {
		const char *end = w;
		int len;
		while (*end && !(*end == ' ' && !(end > w && isdigit((unsigned char)end[-1]) &&
						  isalpha((unsigned char)end[1]))))
			end++;
		len = (int)(end - w);
		if (e->width > 0 && col > indent && col + 1 + len > e->width) {
			put(e, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			put(e, " ");
			col++;
		}
		put(e, "%.*s", len, w);
		col += len;
		w = end;
		while (*w == ' ')
			w++;
	}
	put(e, "\n");
}

/* Appends text (after "lhs = " when lhs is given) to a part of e->parts, a newline
 * between two; nothing without parts. */
static void part(struct ex *e, char *dst, size_t size, const char *lhs, const char *text)
{
	size_t n;

	if (!e->parts)
		return;
	n = strlen(dst);
	snprintf(dst + n, size - n, "%s%s%s", n ? "\n" : "", lhs ? lhs : "", lhs ? " = " : "");
	/* a line break the text carries for the terminal, and its indent, is one space */
	for (n = strlen(dst); *text && n + 1 < size; text++) {
		if (*text == '\n') {
			while (text[1] == ' ')
				text++;
			dst[n++] = ' ';
		} else {
			dst[n++] = *text;
		}
	}
	dst[n] = '\0';
}

/* The three parts every explanation has. */
static void formula(struct ex *e, const char *lhs, const char *sym)
{
	char prefix[64];
	snprintf(prefix, sizeof(prefix), "  %s = ", lhs);
	wrapped(e, prefix, sym);
	if (e->parts)
		part(e, e->parts->formula, sizeof(e->parts->formula), lhs, sym);
}

static void numbers(struct ex *e, const char *lhs, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void numbers(struct ex *e, const char *lhs, const char *fmt, ...)
{
	char line[400], prefix[64];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	snprintf(prefix, sizeof(prefix), "  %*s = ", (int)strlen(lhs), "");
	wrapped(e, prefix, line);
	if (e->parts)
		part(e, e->parts->terms, sizeof(e->parts->terms), NULL, line);
}

static void result(struct ex *e, const char *lhs, const char *value)
{
	put(e, "  %*s = %s\n", (int)strlen(lhs), "", value);
	if (e->parts)
		part(e, e->parts->result, sizeof(e->parts->result), NULL, value);
}

static void source(struct ex *e, const char *text)
{
	put(e, "\n");
	wrapped(e, "  source: ", text);
	if (e->parts)
		part(e, e->parts->source, sizeof(e->parts->source), NULL, text);
}

/* A figure the model leaves out for this scenario: the same part of --json as
 * not_applicable. */
static void not_modelled(struct ex *e, const char *why)
{
	put(e, "  not modelled: %s\n", why);
	if (e->parts)
		part(e, e->parts->not_applicable, sizeof(e->parts->not_applicable), NULL, why);
}

static void not_applicable(struct ex *e, const char *why)
{
	put(e, "  not applicable: %s\n", why);
	if (e->parts)
		part(e, e->parts->not_applicable, sizeof(e->parts->not_applicable), NULL, why);
}

/* ---- model ---- */

static void ex_params(struct ex *e, const struct scenario *s, const struct plan *p, bool active)
{
	const struct model_params *c = &p->counts;
	double L = p->model.layers;
	double moe = model_moe_layers(&p->model), dense = L - moe;
	(void)s;
	if (!active) {
		if (moe > 0) {
			/* an MoE layer's MLP is its experts, router and shared experts; the
			 * model's first layers may keep a dense MLP (DeepSeek-V3: 3) */
			char sym[240], num[240];
			int k;
			snprintf(sym, sizeof(sym),
				 "embedding + head + final norm + layers x (attention + "
				 "norms)%s + MoE layers x (experts x expert + router%s)",
				 dense > 0 ? " + dense layers x MLP" : "",
				 c->shared > 0 ? " + shared" : "");
			k = snprintf(num, sizeof(num), "%s + %s + %s + %s x (%s + %s)",
				     cnt(e, c->embedding), cnt(e, c->head), cnt(e, c->final_norm),
				     plain(e, L), cnt(e, c->attention), cnt(e, c->norms));
			if (dense > 0)
				k += snprintf(num + k, sizeof(num) - (size_t)k, " + %s x %s",
					      plain(e, dense), cnt(e, c->mlp));
			k += snprintf(num + k, sizeof(num) - (size_t)k, " + %s x (%d x %s + %s",
				      plain(e, moe), p->model.moe.experts, cnt(e, c->expert),
				      cnt(e, c->router));
			if (c->shared > 0)
				k += snprintf(num + k, sizeof(num) - (size_t)k, " + %s",
					      cnt(e, c->shared));
			snprintf(num + k, sizeof(num) - (size_t)k, ")");
			formula(e, "params", sym);
			numbers(e, "params", "%s", num);
		} else {
			formula(e, "params",
				"embedding + head + final norm + layers x (attention + MLP + "
				"norms)");
			numbers(e, "params", "%s + %s + %s + %s x (%s + %s + %s)",
				cnt(e, c->embedding), cnt(e, c->head), cnt(e, c->final_norm),
				plain(e, L), cnt(e, c->attention), cnt(e, c->mlp),
				cnt(e, c->norms));
		}
		result(e, "params", cnt(e, p->params));
		if (p->model.tied_embeddings)
			put(e, "\n  head = 0: the output layer reuses the embedding (tied)\n");
		if (p->shape_assumed)
			put(e, "\n  the model was given by its size only: a standard shape was "
			       "assumed\n");
		source(e, "the architecture's matrices, counted one by one (model.c); "
			  "Mixtral (Jiang et al. 2024) and DeepSeek-V3 for the experts");
		return;
	}
	formula(e, "active", "params - MoE layers x (experts - active) x expert");
	if (moe > 0) {
		numbers(e, "active", "%s - %s x (%d - %d) x %s", cnt(e, p->params), plain(e, moe),
			p->model.moe.experts, p->model.moe.active, cnt(e, c->expert));
		result(e, "active", cnt(e, p->active_params));
	} else {
		numbers(e, "active", "%s - 0", cnt(e, p->params));
		result(e, "active", cnt(e, p->active_params));
		put(e, "\n  a dense model: no MoE layers, every parameter is active\n");
	}
	source(e, "Switch Transformer (Fedus et al. 2022) / Mixtral: each token runs its "
		  "top-k routed experts");
}

void explain_params(struct ex *e, const struct scenario *s, const struct plan *p)
{
	ex_params(e, s, p, false);
}

void explain_active_params(struct ex *e, const struct scenario *s, const struct plan *p)
{
	ex_params(e, s, p, true);
}

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
		put(e, "\n  offloaded (parallel.offload): that lives in host memory; 0 B on "
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
	wrapped(e, "  ", line);
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
	put(e, "\n");
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
		numbers(e, "bytes per token", "%s", text);
		result(e, "bytes per token", byt(e, p->mem.kv_bytes_per_token));
		put(e, "\n");
		wrapped(e, "  ",
			"kv_sum: the attention layers' own K/V heads summed (DeciLM's per-block "
			"n_heads_in_group, src/hf_config.c), not kv_heads, their average rounded "
			"up to a divisor of the heads; vLLM sizes each layer's cache by its own "
			"(vllm/model_executor/models/nemotron_nas.py DeciLMDecoderLayer)");
		if (avg < p->tp)
			wrapped(e, "  ", "fewer K/V heads than tp: each rank keeps one");
		return;
	} else {
		double local = kv >= p->tp ? kv / p->tp : 1;
		snprintf(sym, sizeof(sym),
			 "2 (K, V) x kv heads on this GPU x head_dim x bytes per element x %s", on);
		formula(e, "bytes per token", sym);
		snprintf(text, sizeof(text), "2 x %s x %s x %s B x %s", plain(e, local),
			 plain(e, hd), plain(e, eb), plain(e, layers));
	}
	numbers(e, "bytes per token", "%s", text);
	result(e, "bytes per token", byt(e, p->mem.kv_bytes_per_token));
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
	put(e, "\n");
	if (pp <= 1 || (v <= 1 && last)) {
		/* no pipeline: the one micro-batch in flight; 1F1B's last stage runs each
		 * micro-batch's backward right after its forward */
		formula(e, "layers in flight",
			pp <= 1 ? "1 micro-batch x layers"
				: "1 micro-batch x layers per stage "
				  "(1F1B, last stage)");
		numbers(e, "layers in flight", "1 x %s", plain(e, L));
	} else if (v <= 1) {
		formula(e, "layers in flight",
			"min(micro-batches, pp) x layers per stage (1F1B, first stage)");
		numbers(e, "layers in flight", "min(%d, %d) x %s", m, pp, plain(e, L));
	} else if (last) {
		formula(e, "layers in flight",
			"min((v - 1) pp + 1, micro-batches x v) x layers per stage / v "
			"(interleaved 1F1B, last stage)");
		numbers(e, "layers in flight", "min((%d - 1) x %d + 1, %d x %d) x %s / %d", v, pp,
			m, v, plain(e, L), v);
	} else {
		formula(e, "layers in flight",
			"min(2 (pp - 1) + (v - 1) pp + 1, micro-batches x v) x layers per stage "
			"/ v (interleaved 1F1B, first stage)");
		numbers(e, "layers in flight",
			"min(2 x (%d - 1) + (%d - 1) x %d + 1, %d x %d) x %s / %d", pp, v, pp, m, v,
			plain(e, L), v);
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
			numbers(e, "weights", "%s x %s B / %s + %s + %s", cnt(e, p->params),
				plain(e, m->weight_bytes_per_param), plain(e, m->weight_shard),
				byt(e, held - base - vis), byt(e, vis));
		else
			numbers(e, "weights", "%s x %s B / %s + %s", cnt(e, p->params),
				plain(e, m->weight_bytes_per_param), plain(e, m->weight_shard),
				byt(e, held - base));
	} else if (vis > 0 && training(s)) {
		formula(e, "weights", "parameters x bytes per parameter / shards + vision tower");
		numbers(e, "weights", "%s x %s B / %s + %s", cnt(e, p->params),
			plain(e, m->weight_bytes_per_param), plain(e, m->weight_shard),
			byt(e, vis));
	} else if (!training(s) && (p->model.vision_params > 0 || m->draft_weights > 0)) {
		/* serving loads the vision tower 16-bit over tp and the draft model beside
		 * the language model (plan_memory.c) */
		char sym[200], num[200];
		size_t a, b;
		a = (size_t)snprintf(sym, sizeof(sym), "parameters x bytes per parameter / shards");
		b = (size_t)snprintf(num, sizeof(num), "%s x %s B / %s", cnt(e, p->params),
				     plain(e, m->weight_bytes_per_param),
				     plain(e, m->weight_shard));
		if (p->model.vision_params > 0) {
			a += (size_t)snprintf(sym + a, sizeof(sym) - a,
					      " + vision tower x 2 B / tp");
			b += (size_t)snprintf(num + b, sizeof(num) - b, " + %s x 2 B / %d",
					      cnt(e, p->model.vision_params), p->tp);
		}
		if (m->draft_weights > 0 && a < sizeof(sym) && b < sizeof(num)) {
			snprintf(sym + a, sizeof(sym) - a, " + draft model");
			snprintf(num + b, sizeof(num) - b, " + %s", byt(e, m->draft_weights));
		}
		formula(e, "weights", sym);
		numbers(e, "weights", "%s", num);
	} else {
		formula(e, "weights", "parameters x bytes per parameter / shards");
		numbers(e, "weights", "%s x %s B / %s", cnt(e, p->params),
			plain(e, m->weight_bytes_per_param), plain(e, m->weight_shard));
	}
	result(e, "weights", held_str(e, m->weights, held));
	put(e, "\n  shards = tp x pp%s%s\n", p->zero >= 3 ? " x dp (ZeRO-3)" : "",
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

void explain_gradients(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct plan_memory *m = &p->mem;
	double held;

	if (!training(s)) {
		not_applicable(e, "inference keeps no gradients or optimizer states");
		return;
	}
	held = gpu_or_host(s, p, m->gradients, HELD_GRADIENTS);
	/* a lifetime shorter than the step (workload.grad_lifetime backward or fused) leaves
	 * less than the step's gradients at the peak: that is the figure, and the first
	 * paragraph's result, so that the headline and the sum agree (issue 14) */
	bool shorter = m->gradients < m->gradients_full && held == m->gradients;
	enum grad_lifetime g = framework_grads(s->workload.framework, s->workload.grad_lifetime);
	if (shorter) {
		if (g == GRADS_FUSED) {
			formula(e, "gradients", "the largest one tensor's gradient");
			result(e, "gradients", byt(e, m->gradients));
		} else {
			formula(e, "gradients",
				"max(0, the step's gradients - activations - rebuilt layer)");
			numbers(e, "gradients", "max(0, %s - %s - %s)", byt(e, m->gradients_full),
				byt(e, m->activations), byt(e, m->rebuilt_layer));
			result(e, "gradients", byt(e, m->gradients));
		}
		put(e, "\n");
	}
	formula(e, shorter ? "the step's gradients" : "gradients",
		m->vision_gradients > 0
		    ? "trainable parameters x bytes per gradient / shards + vision tower"
		    : "trainable parameters x bytes per gradient / shards");
	if (m->vision_gradients > 0)
		numbers(e, shorter ? "the step's gradients" : "gradients", "%s x %s B / %s + %s",
			cnt(e, p->trainable_params), plain(e, m->grad_bytes_per_param),
			plain(e, m->grad_shard), byt(e, m->vision_gradients));
	else
		numbers(e, shorter ? "the step's gradients" : "gradients", "%s x %s B / %s",
			cnt(e, p->trainable_params), plain(e, m->grad_bytes_per_param),
			plain(e, m->grad_shard));
	if (shorter)
		result(e, "the step's gradients", byt(e, m->gradients_full));
	else
		result(e, "gradients",
		       held_str(e, m->gradients_full, held > 0 ? held : m->gradients_full));
	bool fsdp_pp = s->workload.framework == FW_FSDP && p->pp > 1 && p->zero >= 3 &&
		       p->micro_batches > 1 && s->parallel.offload == OFFLOAD_NONE;
	put(e, "\n  shards = tp x pp%s%s\n",
	    fsdp_pp	   ? " (unsharded over dp under the pipeline)"
	    : p->zero >= 2 ? " x dp (ZeRO-2 and up)"
			   : "",
	    p->ep > 1 ? "; expert gradients also over ep" : "");
	vision_note(e, s, p, "gradients", m->vision_gradients);
	offload_note(e, m->gradients, held);
	if (fsdp_pp)
		wrapped(e, "  ",
			"FSDP under a pipeline: every micro-batch's backward but the last runs "
			"without gradient sync, so the stage's gradients accumulate unsharded in "
			"the fp32 reduce dtype (torch/distributed/pipelining/stage.py "
			"backward_maybe_with_nosync; fsdp/_fully_shard/_fsdp_param.py "
			"to_accumulated_grad_if_needed)");
	if (m->gradients < m->gradients_full) {
		if (g == GRADS_FUSED)
			wrapped(
			    e, "  ",
			    "grad_lifetime fused: the optimizer steps each parameter in its "
			    "post-accumulate-grad hook and drops its gradient (torchtune "
			    "optimizer_in_bwd, training/memory.py register_optim_in_bwd_hooks)");
		else
			wrapped(e, "  ",
				"grad_lifetime backward: gradients are allocated in the backward "
				"as the layers' activations are freed and dropped by "
				"zero_grad(set_to_none=True) after the step (torchtune's recipes), "
				"so the peak holds the larger of the two; what is counted is the "
				"part beyond the activations");
	}
	source(e, "ZeRO (Rajbhandari et al. 2020), Section 5; Megatron keeps fp32 "
		  "main_grad (4 B)");
}

void explain_optimizer(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct plan_memory *m = &p->mem;
	double held;

	if (!training(s)) {
		not_applicable(e, "inference keeps no gradients or optimizer states");
		return;
	}
	held = gpu_or_host(s, p, m->optimizer, HELD_OPTIMIZER);
	if (s->workload.optimizer_states == STATES_PAGED && s->parallel.offload == OFFLOAD_NONE) {
		/* paged states the GPU has no room for are on the host (plan_memory.c) */
		double vis = m->vision_optimizer > 0 ? m->vision_optimizer : 0;
		double all =
		    p->trainable_params * m->optimizer_bytes_per_param / m->optimizer_shard + vis;
		formula(
		    e, "optimizer",
		    vis > 0
			? "trainable parameters x optimizer bytes / shards + vision tower - "
			  "paged on the host"
			: "trainable parameters x optimizer bytes / shards - paged on the host");
		if (vis > 0)
			numbers(e, "optimizer", "%s x %s B / %s + %s - %s",
				cnt(e, p->trainable_params), plain(e, m->optimizer_bytes_per_param),
				plain(e, m->optimizer_shard), byt(e, vis),
				byt(e, all - m->optimizer));
		else
			numbers(e, "optimizer", "%s x %s B / %s - %s", cnt(e, p->trainable_params),
				plain(e, m->optimizer_bytes_per_param),
				plain(e, m->optimizer_shard), byt(e, all - m->optimizer));
	} else if (m->vision_optimizer > 0) {
		formula(e, "optimizer",
			"trainable parameters x optimizer bytes / shards + vision tower");
		numbers(e, "optimizer", "%s x %s B / %s + %s", cnt(e, p->trainable_params),
			plain(e, m->optimizer_bytes_per_param), plain(e, m->optimizer_shard),
			byt(e, m->vision_optimizer));
	} else {
		formula(e, "optimizer", "trainable parameters x optimizer bytes / shards");
		numbers(e, "optimizer", "%s x %s B / %s", cnt(e, p->trainable_params),
			plain(e, m->optimizer_bytes_per_param), plain(e, m->optimizer_shard));
	}
	result(e, "optimizer", held_str(e, m->optimizer, held));
	switch (s->workload.optimizer) {
	case OPT_ADAMW:
		put(e, "\n  AdamW: %s = %s B per parameter\n",
		    m->optimizer_bytes_per_param > 8
			? "fp32 master + momentum + variance"
			: "momentum + variance (fp32 weights: no master)",
		    plain(e, m->optimizer_bytes_per_param));
		break;
	case OPT_ADAM8BIT:
		put(e, "\n  8-bit Adam: %stwo 1-byte moments%s = %s B per parameter\n",
		    m->optimizer_bytes_per_param >= 4 ? "fp32 master + " : "",
		    s->workload.framework != FW_DEFAULT ? "\n  + an fp32 absmax per 256 values"
							: "",
		    plain(e, m->optimizer_bytes_per_param));
		break;
	case OPT_SGD:
		put(e, "\n  SGD with momentum: %s = %s B per parameter\n",
		    m->optimizer_bytes_per_param > 4 ? "fp32 master + momentum" : "momentum",
		    plain(e, m->optimizer_bytes_per_param));
		break;
	case OPT_NONE:
		put(e, "\n  no optimizer: no state\n");
		break;
	}
	put(e, "\n  shards = tp x pp%s%s\n", p->zero >= 1 ? " x dp (ZeRO-1 and up)" : "",
	    p->ep > 1 ? "; expert states also over ep" : "");
	vision_note(e, s, p, "optimizer states", m->vision_optimizer);
	offload_note(e, m->optimizer, held);
	if (s->workload.optimizer_states == STATES_PAGED && s->parallel.offload == OFFLOAD_NONE &&
	    !(m->optimizer_paged > 0) && !(m->optimizer_evicted > 0))
		put(e,
		    "\n  paged (workload.optimizer_states): nothing is paged here; bitsandbytes\n"
		    "  pages only tensors of 1e5 values or more (get_state_buffer), so these\n"
		    "  states stay in device memory\n");
	else if (s->workload.optimizer_states == STATES_PAGED &&
		 s->parallel.offload == OFFLOAD_NONE)
		put(e,
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
			numbers(e, "activations", "%s x %s + 256 x 4 B x %s",
				plain(e, m->profile_tokens), byt(e, per_token),
				plain(e, m->profile_logits / (256 * 4.0)));
		} else {
			formula(e, "activations", "profile tokens x working set per token");
			numbers(e, "activations", "%s x %s", plain(e, m->profile_tokens),
				byt(e, per_token));
		}
		result(e, "activations", byt(e, m->activations));
		put(e, "\n");
		wrapped(e, "  ",
			"the framework profiles one forward of max(prompt + output, 2048) tokens "
			"before it sizes the KV pool, and its sampler's fp32 logits for 256 "
			"sequences on the last stage; the peak is kept whatever the batch");
		source(e, "vLLM gpu_worker.py determine_available_memory (profile_run, "
			  "max_num_seqs 256); SGLang and TensorRT-LLM reserve the same way");
		return;
	}
	formula(e, "activations",
		"max(prefill of one prompt, batch x decode working set per sequence)");
	numbers(e, "activations", "max(%s, %s x %s)", byt(e, m->activations_per_layer),
		plain(e, p->global_batch), byt(e, m->decode_bytes_per_seq));
	result(e, "activations", byt(e, m->activations));
	put(e, "\n  the scheduler prefills prompts through a token budget; the decode step\n"
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

	put(e, "\n");
	if (cp > 1)
		put(e, "  s = seq_len / cp = %d / %d = %s tokens a GPU (parallel.cp)\n", w->seq_len,
		    p->cp, plain(e, sq));
	if (uniform) {
		/* Megatron uniform: one layer input a chunk (plan_memory.c) */
		double rt = s->parallel.sequence_parallel && p->tp > 1 ? p->tp : 1;
		double h = p->model.hidden, chunks = ceil(Ls / w->recompute_layers);
		formula(e, "bytes per layer",
			"chunks / layers x e s b h / sp (uniform: each chunk keeps its input)");
		numbers(e, "bytes per layer", "%s / %s x %s B x %s x %s x %s / %s",
			plain(e, chunks), plain(e, Ls),
			plain(e, per_token * rt * Ls / (chunks * h)), plain(e, sq), plain(e, b),
			plain(e, h), plain(e, rt));
	} else if (w->recompute == RECOMPUTE_FULL && !some) {
		double rt = s->parallel.sequence_parallel && p->tp > 1 ? p->tp : 1;
		double h = p->model.hidden;
		formula(e, "bytes per layer",
			"e s b h / sp (full recompute keeps only the layer input)");
		numbers(e, "bytes per layer", "%s B x %s x %s x %s / %s",
			plain(e, per_token * rt / h), plain(e, sq), plain(e, b), plain(e, h),
			plain(e, rt));
	} else {
		formula(e, "bytes per layer", "bytes per token of the layer x s x b");
		numbers(e, "bytes per layer", "%s B x %s x %s", plain(e, per_token), plain(e, sq),
			plain(e, b));
	}
	result(e, "bytes per layer", byt(e, p->mem.activations_per_layer));
	put(e, "\n"); /* the notes are not part of the result */
	if (uniform)
		put(e,
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
		wrapped(e, "  ", t);
	}
	if (w->recompute != RECOMPUTE_FULL)
		wrapped(
		    e, "  ",
		    "bytes per token: the layer's stored tensors (norm inputs, Q K V, the MLP's "
		    "intermediates, / tp inside the tensor-parallel region), not GPT-3's 34 h");
	if (w->recompute != RECOMPUTE_FULL && w->recompute != RECOMPUTE_OP &&
	    w->kind == WL_FINETUNE && w->finetune.method != FT_FULL && w->finetune.dropout > 0)
		wrapped(e, "  ",
			"LoRA dropout: each adapter keeps its bool dropout mask, 1 B an input "
			"element (native_dropout; torchtune/modules/peft/lora.py, PEFT "
			"lora_dropout)");
	if (w->recompute != RECOMPUTE_FULL && w->recompute != RECOMPUTE_OP &&
	    framework_eager(w->framework, w->compile)) {
		bool frozen = w->kind == WL_FINETUNE && w->finetune.method != FT_FULL;
		wrapped(e, "  ",
			frozen
			    ? "eager layers (workload.compile off) under a frozen base: each "
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
			wrapped(e, "  ",
				"LoRA dropout: each adapter's own dropout output, beyond the "
				"shared input (torchtune/modules/peft/lora.py lora_a(dropout(x)))");
		if (p->model.moe.experts > 0 && p->model.mlp == MLP_GATED)
			wrapped(
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
	int n = 0, k = 0;
	double sum = 0, L = m->layers > 0 ? m->layers : 1;

	for (unsigned i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		if (t[i].n <= 0)
			continue;
		n += snprintf(sym + n, sizeof(sym) - (size_t)n, "%s%s blocks x bytes of one",
			      n ? " + " : "(", t[i].name);
		k += snprintf(num + k, sizeof(num) - (size_t)k, "%s%d x %s", k ? " + " : "(",
			      t[i].n, byt(e, blk[t[i].block]));
		sum += t[i].n * blk[t[i].block];
	}
	if (!n)
		return;
	snprintf(sym + n, sizeof(sym) - (size_t)n, ") / layers");
	snprintf(num + k, sizeof(num) - (size_t)k, ") / %d", m->layers);
	put(e, "\n");
	formula(e, "bytes per token", sym);
	numbers(e, "bytes per token", "%s", num);
	result(e, "bytes per token", byt(e, sum / L));
	put(e, "\n");
	if (fabs(sum / L - per_token) > 1e-6 * per_token)
		wrapped(e, "  ",
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
		wrapped(e, "  ", text);
	}
}

void explain_activations(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct plan_memory *m = &p->mem;
	/* the formula names only the terms this plan has, so the numbers add up */
	char sym[240], num[160];
	int n, k;
	const struct {
		double v;
		const char *name;
	} extra[] = {{m->activations_embed, "embedding dropout masks"},
		     {m->activations_head, "output layer and loss"}};

	if (!training(s)) {
		inference_activations(e, p);
		return;
	}
	n = snprintf(sym, sizeof(sym), "bytes per layer per micro-batch x layers in flight");
	k = snprintf(num, sizeof(num), "%s x %s", byt(e, m->activations_per_layer),
		     plain(e, m->layers_in_flight));
	for (unsigned i = 0; i < sizeof(extra) / sizeof(extra[0]); i++) {
		if (!(extra[i].v > 0))
			continue;
		n += snprintf(sym + n, sizeof(sym) - (size_t)n, " + %s", extra[i].name);
		k += snprintf(num + k, sizeof(num) - (size_t)k, " + %s", byt(e, extra[i].v));
	}
	if (m->activations_offloaded > 0) {
		snprintf(sym + n, sizeof(sym) - (size_t)n, " - offloaded to host");
		snprintf(num + k, sizeof(num) - (size_t)k, " - %s",
			 byt(e, m->activations_offloaded));
	}
	formula(e, "activations", sym);
	numbers(e, "activations", "%s", num);
	result(e, "activations", byt(e, m->activations));
	per_layer_activations(e, s, p);
	/* without a pipeline the layers in flight are the layers, one micro-batch each (a
	 * paragraph "1 micro-batch x layers" read as a contradiction of micro_batch 4) */
	if (p->pp > 1)
		layers_in_flight(e, p);
	if (m->activations_offloaded > 0)
		put(e, "\n  offloaded to host memory (workload.activation_offload): all but the\n"
		       "  layer in the backward and the one fetched back (torchtune\n"
		       "  training/_activation_offloading.py)\n");
	if (m->rebuilt_layer > 0)
		put(e,
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
static void kv_budget_lines(struct ex *e, const struct framework_info *fw,
			    const struct plan_memory *m, double frac)
{
	switch (fw->kv_rule) {
	case KV_RULE_STATIC:
		formula(e, "KV budget", "memory fraction x capacity - weights");
		numbers(e, "KV budget", "%s x %s - %s", plain(e, frac), byt(e, m->capacity),
			byt(e, m->weights));
		break;
	case KV_RULE_FREE:
		formula(e, "KV budget",
			"memory fraction x (capacity - weights - activations - non-torch memory)");
		numbers(e, "KV budget", "%s x (%s - %s - %s - %s)", plain(e, frac),
			byt(e, m->capacity), byt(e, m->weights), byt(e, m->activations),
			byt(e, m->cuda_context));
		break;
	default:
		formula(e, "KV budget",
			"memory fraction x capacity - (weights + activations + workspaces) - "
			"non-torch memory");
		numbers(e, "KV budget", "%s x %s - (%s + %s + %s) - %s", plain(e, frac),
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
			numbers(e, "kv_cache", "%s x (%s x %s x %s + %s)", plain(e, seqs),
				plain(e, per_seq), plain(e, blk), byt(e, m->kv_bytes_per_token),
				byt(e, state));
		else
			numbers(e, "kv_cache", "%s x %s x %s x %s", plain(e, seqs),
				plain(e, per_seq), plain(e, blk), byt(e, m->kv_bytes_per_token));
		result(e, "kv_cache", byt(e, m->kv_cache));
		put(e, "\n");
		wrapped(e, "  ",
			need ? "the batch asked for needs more than the pool holds: it does not "
			       "fit"
			     : "sequences: as many as the pool's whole blocks hold, each with "
			       "its recurrent state slot (vLLM's MambaSpec)");
	} else {
		formula(e, "kv_cache", "blocks x block tokens x bytes per token");
		numbers(e, "kv_cache", "%s x %s x %s", cnt(e, bb > 0 ? m->kv_cache / bb : 0),
			plain(e, blk), byt(e, m->kv_bytes_per_token));
		result(e, "kv_cache", byt(e, m->kv_cache));
		put(e, "\n");
		formula(e, "blocks", "floor(KV budget / (block tokens x bytes per token))");
		numbers(e, "blocks", "floor(%s / (%s x %s))", byt(e, m->kv_budget), plain(e, blk),
			byt(e, m->kv_bytes_per_token));
		result(e, "blocks", cnt(e, bb > 0 ? m->kv_cache / bb : 0));
	}
	put(e, "\n");
	kv_budget_lines(e, fw, m, frac);
	put(e, "\n  %s tokens cached (kv_cache / bytes per token)\n", cnt(e, m->kv_tokens));
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
		numbers(e, "kv_cache", "%s x %s + %s", byt(e, m->kv_bytes_per_token),
			cnt(e, tokens), byt(e, state));
		result(e, "kv_cache", byt(e, m->kv_cache));
		put(e, "\n");
		formula(
		    e, "recurrent state",
		    "sequences x state-space layers x ((d_conv - 1) x conv channels + d_inner x "
		    "d_state) x bytes per element / tp (fixed whatever the context)");
		numbers(e, "recurrent state", "%d x %d layers' %s elements x %s B / %d%s",
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
		numbers(e, "kv_cache", "%s x %s", byt(e, m->kv_bytes_per_token),
			cnt(e, m->kv_tokens));
		result(e, "kv_cache", byt(e, m->kv_cache));
	}
	put(e, "\n");
	if (p->model.sliding_window > 0 && p->model.global_layers > 0 &&
	    model_local_layers(&p->model) > 0) {
		/* local/global layers (model.c, model_kv_share; plan_memory.c, kv_window) */
		formula(e, "tokens cached",
			"sequences x (global layers x (prompt + output) + windowed layers x "
			"min(prompt + output, window kept)) / layers");
		numbers(e, "tokens cached", "%d x (%d x %d + %d x min(%d, %s)) / %d",
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
		numbers(e, "tokens cached", "%d x %s", p->global_batch,
			plain(e, m->kv_tokens_per_seq));
	}
	result(e, "tokens cached", cnt(e, m->kv_tokens));
	if (s->workload.batch <= 0 && p->slo_batch >= 1 && p->slo_batch < p->global_batch)
		put(e,
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
		int n = snprintf(sym, sizeof(sym),
				 "CUDA context + allocator fragmentation + comm buffers");
		int k = snprintf(num, sizeof(num), "%s + %s + %s", byt(e, m->cuda_context),
				 byt(e, m->fragmentation), byt(e, m->comm_buffers));
		if (m->rebuilt_layer > 0) {
			n += snprintf(sym + n, sizeof(sym) - (size_t)n,
				      " + the layer recomputation rebuilds for its backward");
			k += snprintf(num + k, sizeof(num) - (size_t)k, " + %s",
				      byt(e, m->rebuilt_layer));
		}
		if (m->fp8_weights > 0) {
			n += snprintf(sym + n, sizeof(sym) - (size_t)n,
				      " + fp8 weight copies (Transformer Engine)");
			k += snprintf(num + k, sizeof(num) - (size_t)k, " + %s",
				      byt(e, m->fp8_weights));
		}
		if (m->blas_workspace > 0) {
			snprintf(sym + n, sizeof(sym) - (size_t)n, " + cuBLAS workspaces");
			snprintf(num + k, sizeof(num) - (size_t)k, " + %s",
				 byt(e, m->blas_workspace));
		}
		formula(e, "overhead", sym);
		numbers(e, "overhead", "%s", num);
	}
	result(e, "overhead", byt(e, m->overhead));
	if (m->fp8_weights > 0 || m->blas_workspace > 0)
		put(e, "\n"); /* the notes are not part of the result */
	if (m->fp8_weights > 0)
		wrapped(e, "  ",
			"fp8 weight copies: each linear weight's fp8 cast and its transpose, 2 B "
			"a parameter, kept across the step's micro-batches (transformer_engine/"
			"pytorch/module/base.py get_weight_workspace)");
	if (m->blas_workspace > 0)
		wrapped(
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
	put(e, "\n");
	if (isfinite(m->kv_budget)) {
		/* a serving framework's KV rule (plan_memory.c kv_rule_finish) */
		wrapped(e, "  ",
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
		numbers(e, "fragmentation", "%s x (%s + %s + %s + %s + %s)",
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
		numbers(e, "fragmentation", "%s x (%s + %s + %s + %s + %s + %s)",
			plain(e, base > 0 ? m->fragmentation / base : 0), byt(e, m->weights),
			byt(e, m->gradients), byt(e, m->optimizer), byt(e, m->activations),
			byt(e, m->kv_cache), byt(e, rest));
	}
	if (!isfinite(m->kv_budget))
		result(e, "fragmentation", byt(e, m->fragmentation));
	put(e, "\n  comm buffers: NCCL's per-channel buffers for each process group%s\n",
	    p->zero >= 3 && training(s) ? ",\n  and two layers of ZeRO-3's gathered parameters"
					: "");
	if (p->cp > 1)
		wrapped(
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
	numbers(e, "total", "%s + %s + %s + %s + %s + %s", byt(e, m->weights), byt(e, m->gradients),
		byt(e, m->optimizer), byt(e, m->activations), byt(e, m->kv_cache),
		byt(e, m->overhead));
	result(e, "total", byt(e, m->total));
	put(e, "\n  %s of %s: %s\n", byt(e, m->total), byt(e, m->capacity),
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
		numbers(e, "allocated", "%s - %s - %s - %s - %s", byt(e, m->total),
			byt(e, m->cuda_context), byt(e, m->nccl_buffers),
			byt(e, m->optimizer_paged), byt(e, m->fragmentation));
	} else {
		formula(e, "allocated", "total - CUDA context - NCCL buffers - allocator slack");
		numbers(e, "allocated", "%s - %s - %s - %s", byt(e, m->total),
			byt(e, m->cuda_context), byt(e, m->nccl_buffers), byt(e, m->fragmentation));
	}
	result(e, "allocated", byt(e, m->allocated));
	put(e, "\n  the tensors alive at the peak: what torch.cuda.max_memory_allocated() and\n"
	       "  torchtune's peak active memory report\n");
	if (m->blas_workspace > 0)
		put(e, "  (with the cuBLAS workspaces, %s: the caching allocator holds them)\n",
		    byt(e, m->blas_workspace));
	source(e, "PyTorch CUDA caching allocator (torch.cuda.memory_stats: allocated_bytes "
		  "and active_bytes peaks)");
}

void explain_reserved(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct plan_memory *m = &p->mem;
	const struct framework_info *fw = framework_get(s->workload.framework);

	formula(e, "reserved", "allocated x (1 + slack)");
	numbers(e, "reserved", "%s x (1 + %s)", byt(e, m->allocated),
		plain(e, m->allocated > 0 ? m->fragmentation / m->allocated : 0));
	result(e, "reserved", byt(e, m->reserved));
	put(e,
	    "\n  what the caching allocator holds from CUDA at the peak:\n"
	    "  torch.cuda.max_memory_reserved() (torchtitan's max_reserved); nvidia-smi\n"
	    "  shows memory.per_gpu.total, which adds the CUDA context (%s) and NCCL's\n"
	    "  own buffers (%s: 4 MiB NCCL_BUFFSIZE x channels x peers a process group)\n",
	    byt(e, m->cuda_context), byt(e, m->nccl_buffers));
	if (m->optimizer_paged > 0)
		put(e,
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

/* The framework whose rules a memory figure follows, after its explanation. */
static void framework_note(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct framework_info *fw = framework_get(s->workload.framework);
	int loss = s->workload.loss != LOSS_AUTO ? s->workload.loss : fw->loss;

	put(e, "\n");
	wrapped(e, "  framework: ", fw->title);
	if (training(s)) {
		put(e, "  rules: optimizer %s B/param, loss %s, allocator slack %s\n",
		    plain(e, p->mem.optimizer_bytes_per_param),
		    scenario_enum_name("workload.loss", loss), plain(e, fw->reserved_slack));
		put(e, "  layers %s, gradients live: %s\n",
		    framework_eager(s->workload.framework, s->workload.compile)
			? "eager (compile off)"
			: "compiled or fused kernels",
		    scenario_enum_name(
			"workload.grad_lifetime",
			framework_grads(s->workload.framework, s->workload.grad_lifetime)));
	} else if (fw->kv_rule == KV_RULE_FIT)
		put(e, "  rules: KV cache for the batch (auto: what fits), allocator slack %s\n",
		    plain(e, s->workload.framework == FW_DEFAULT ? PLAN_FRAGMENTATION
								 : fw->reserved_slack));
	else
		put(e, "  rules: KV budget %s from a memory fraction of %s, in %s-token blocks\n",
		    byt(e, p->mem.kv_budget),
		    plain(e, s->workload.gpu_memory_utilization > 0
				 ? s->workload.gpu_memory_utilization
				 : framework_mem_fraction(s->workload.framework, p->tp)),
		    plain(e, fw->kv_block_tokens));
	if (!training(s) && fw->kv_rule != KV_RULE_FIT)
		put(e,
		    "  pool: the budget in whole blocks, allocated once whatever the batch:\n"
		    "  %s tokens, %s of KV cache\n",
		    cnt(e, p->mem.kv_tokens), byt(e, p->mem.kv_cache));
	wrapped(e, "  framework source: ", fw->source);
}

void explain_capacity(struct ex *e, const struct scenario *s, const struct plan *p)
{
	formula(e, "capacity", "the GPU's memory");
	numbers(e, "capacity", "%s (%s)", byt(e, p->mem.capacity), s->hardware.gpu.id);
	result(e, "capacity", byt(e, p->mem.capacity));
	source(e, "the vendor's datasheet (catalog/gpus.yaml), or hardware.memory");
}

void explain_headroom(struct ex *e, const struct scenario *s, const struct plan *p)
{
	(void)s;
	formula(e, "headroom", "capacity - total");
	numbers(e, "headroom", "%s - %s", byt(e, p->mem.capacity), byt(e, p->mem.total));
	result(e, "headroom", byt(e, p->mem.headroom));
	source(e, "the datasheet's memory less the total above; negative headroom "
		  "means the plan does not fit");
}

void explain_fits(struct ex *e, const struct scenario *s, const struct plan *p)
{
	(void)s;
	formula(e, "fits", "total <= capacity");
	numbers(e, "fits", "%s <= %s", byt(e, p->mem.total), byt(e, p->mem.capacity));
	result(e, "fits", p->mem.fits ? "true" : "false");
	source(e, "capacity is judged first: a plan that does not load does not run");
}

/* ---- compute ---- */

/* Attention's score and value matmuls per token, which 6N (2N) leaves out: QK^T and AV
 * are 2 x 2 x keys x heads x head_dim FLOPs per layer forward; training counts forward and
 * backward (x3) over the full sequence as Megatron-LM and MosaicML do (Narayanan et al.
 * 2021, eq. 3); a sliding window caps the keys. */
static void attention_flops(struct ex *e, const struct scenario *s, const struct plan *p, int k,
			    double keys)
{
	const struct model *m = &p->model;
	double heads = m->heads > 0 ? m->heads : 1;
	double hd = m->head_dim > 0 ? m->head_dim : (m->hidden > 0 ? m->hidden : 1) / heads;
	double L = m->layers > 0 ? m->layers : 1;
	/* a hybrid's attention layers alone (plan_time.c: keys x model_attention_share) */
	double La = L * model_attention_share(m);
	const char *layers = La < L ? "attention layers" : "layers";
	bool window = m->sliding_window > 0 && m->sliding_window < keys;
	char sym[160];
	if (window && m->global_layers > 0 && model_local_layers(m) > 0) {
		/* global layers see every key, the windowed ones the window (plan_time.c) */
		double g = (double)(m->layers - model_local_layers(m)) / L;
		keys = g * keys + (1 - g) * m->sliding_window;
		snprintf(sym, sizeof(sym),
			 "%d x %s x keys (%d global layers of %s x all, the others the "
			 "window) x heads x head_dim",
			 k, layers, m->layers - model_local_layers(m), plain(e, L));
		put(e, "\n");
		formula(e, "attention", sym);
		numbers(e, "attention", "%d x %s x %s x %s x %s", k, plain(e, La), plain(e, keys),
			plain(e, heads), plain(e, hd));
		result(e, "attention", cnt(e, p->attention_flops_per_token));
		return;
	}
	if (window)
		keys = m->sliding_window;
	snprintf(sym, sizeof(sym), "%d x %s x %s x heads x head_dim", k, layers,
		 window	       ? "the sliding window"
		 : training(s) ? "seq"
			       : "context");
	put(e, "\n");
	formula(e, "attention", sym);
	numbers(e, "attention", "%d x %s x %s x %s x %s", k, plain(e, La), plain(e, keys),
		plain(e, heads), plain(e, hd));
	result(e, "attention", cnt(e, p->attention_flops_per_token));
}

/* A state-space model's scans per token (model_ssm_flops_per_token in src/model.c):
 * training counts forward and backward, 3 x the chunked forward, as the attention core's
 * 12 = 3 x 4; serving one recurrent step a token. k is 3 or 1. */
static void scan_flops(struct ex *e, const struct plan *p, int k)
{
	const struct model *m = &p->model;
	double per = model_ssm_flops_per_token(m, k == 1) / m->ssm.layers;

	put(e, "\n");
	formula(e, "scans",
		k == 1 ? "state-space layers x a recurrent step's FLOPs"
		       : "3 x state-space layers x a chunked scan's forward FLOPs");
	if (k == 1)
		numbers(e, "scans", "%d x %s", m->ssm.layers, cnt(e, per));
	else
		numbers(e, "scans", "3 x %d x %s", m->ssm.layers, cnt(e, per));
	result(e, "scans", cnt(e, k * model_ssm_flops_per_token(m, k == 1)));
}

/* "6 N", "6 N + attention", "6 N + attention + scans" as the model has them; the numbers
 * the same way. attn: the attention term is part of the sum. */
static void flops_sum(struct ex *e, const struct plan *p, int n, bool attn, int k, const char *note)
{
	char sym[160], num[160];
	size_t a, b;
	bool scans = p->model.ssm.layers > 0;

	a = (size_t)snprintf(sym, sizeof(sym), "%d N", n);
	b = (size_t)snprintf(num, sizeof(num), "%d x %s", n, cnt(e, p->active_params));
	if (attn && model_attention_layers(&p->model) > 0) {
		a += (size_t)snprintf(sym + a, sizeof(sym) - a, " + attention");
		b += (size_t)snprintf(num + b, sizeof(num) - b, " + %s",
				      cnt(e, p->attention_flops_per_token));
	}
	if (scans && a < sizeof(sym) && b < sizeof(num)) {
		double v = k * model_ssm_flops_per_token(&p->model, k == 1);
		a += (size_t)snprintf(sym + a, sizeof(sym) - a, " + scans");
		b += (size_t)snprintf(num + b, sizeof(num) - b, " + %s", cnt(e, v));
	}
	if (note && a < sizeof(sym))
		snprintf(sym + a, sizeof(sym) - a, " %s", note);
	formula(e, "flops/token", sym);
	numbers(e, "flops/token", "%s", num);
	result(e, "flops/token", cnt(e, p->flops_per_token));
}

void explain_flops_per_token(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct workload *w = &s->workload;
	bool attn = model_attention_layers(&p->model) > 0;
	bool scans = p->model.ssm.layers > 0;

	if (training(s)) {
		bool lora = w->kind == WL_FINETUNE && w->finetune.method != FT_FULL;
		if (p->shape_assumed) {
			/* a model given by its size: 6N alone, as the seed cases count it */
			flops_sum(e, p, lora ? 4 : 6, false, 3,
				  lora ? "(LoRA: no weight gradients)" : NULL);
			put(e,
			    "\n  the model is given by its size: attention (%s per token) is "
			    "kept apart\n",
			    cnt(e, p->attention_flops_per_token));
		} else {
			flops_sum(e, p, lora ? 4 : 6, true, 3,
				  lora ? "(LoRA: no weight gradients)" : NULL);
			if (attn)
				attention_flops(e, s, p, 12, s->workload.seq_len);
		}
		if (scans)
			scan_flops(e, p, 3);
		put(e,
		    "\n  with recomputation the hardware runs %s per token (HFU counts "
		    "those)\n",
		    cnt(e, p->hw_flops_per_token));
		if (s->workload.recompute != RECOMPUTE_NONE && s->workload.recompute_layers > 0 &&
		    s->workload.recompute_method != RECOMPUTE_UNIFORM)
			put(e,
			    "  of which the recomputed part is that of %d layers of each stage\n"
			    "  (workload.recompute_layers)\n",
			    p->recompute_layers);
		source(e, lora ? "Kaplan et al. 2020 (6N); LoRA (Hu et al. 2021): frozen weights "
				 "skip their weight gradients, 2N of the 4N backward; "
				 "Narayanan et al. 2021, eq. 3 (attention, recomputation)"
			  : scans ? "Kaplan et al. 2020 (6N); Narayanan et al. 2021, eq. 3 "
				    "(attention, recomputation); scans: Mamba-2's SSD chunks "
				    "(Dao and Gu 2024), Mamba's selective scan (Gu and Dao "
				    "2023), fla's Gated DeltaNet chunk.py, as "
				    "model_ssm_flops_per_token (src/model.c) counts them"
				  : "Kaplan et al. 2020 (6N); Narayanan et al. 2021, eq. 3 "
				    "(attention, recomputation)");
	} else {
		flops_sum(e, p, 2, true, 1, NULL);
		if (attn) {
			attention_flops(e, s, p, 4, prompt_tokens(s) + output_tokens(s) / 2);
			put(e, "  context = prompt + output / 2, the average a token attends to\n");
		}
		if (scans)
			scan_flops(e, p, 1);
		source(e, scans ? "Kaplan et al. 2020, Table 1 (forward pass = 2N per token); "
				  "scans: one recurrent step a token (mamba_ssm's "
				  "selective_state_update; fla's fused_recurrent.py), as "
				  "model_ssm_flops_per_token (src/model.c) counts it"
				: "Kaplan et al. 2020, Table 1 (forward pass = 2N per token)");
	}
}

void explain_flops_total(struct ex *e, const struct scenario *s, const struct plan *p)
{
	if (isnan(p->flops_total)) {
		not_applicable(e, "no token count (workload.tokens) is given");
		return;
	}
	if (training(s)) {
		formula(e, "flops", "flops per token x tokens");
		numbers(e, "flops", "%s x %s", cnt(e, p->flops_per_token),
			cnt(e, s->workload.tokens));
	} else {
		formula(e, "flops", "flops per token x tokens x (prompt + output) / output");
		numbers(e, "flops", "%s x %s x %d / %d", cnt(e, p->flops_per_token),
			cnt(e, s->workload.tokens),
			s->workload.prompt_tokens + s->workload.output_tokens,
			s->workload.output_tokens);
	}
	result(e, "flops", h(e, UNIT_NONE, p->flops_total));
	source(e, "the work of the whole run, in model FLOPs");
}

void explain_mfu(struct ex *e, const struct scenario *s, const struct plan *p)
{
	if (training(s)) {
		formula(e, "mfu", "flops per token x tokens/s / (GPUs x peak)");
		numbers(e, "mfu", "%s x %s tok/s / (%d x %s)", cnt(e, p->flops_per_token),
			plain(e, p->tokens_per_s), s->hardware.count,
			h(e, UNIT_FLOPS, p->peak_flops));
	} else {
		/* tokens/s counts generated tokens; each also carries its share of the
		 * prompt's prefill, (prompt + output) / output tokens' worth of FLOPs */
		formula(e, "mfu",
			"flops per token x tokens/s x (prompt + output) / output / (GPUs x "
			"peak)");
		numbers(e, "mfu", "%s x %s tok/s x (%s + %s) / %s / (%d x %s)",
			cnt(e, p->flops_per_token), plain(e, p->tokens_per_s),
			plain(e, prompt_tokens(s)), plain(e, output_tokens(s)),
			plain(e, output_tokens(s)), s->hardware.count,
			h(e, UNIT_FLOPS, p->peak_flops));
	}
	result(e, "mfu", pct(e, p->mfu));
	if (s->workload.measured_tokens_per_s > 0)
		put(e,
		    "\n  from the measured %s tokens/s per GPU (workload.measured_tokens_per_s),\n"
		    "  not modelled\n",
		    plain(e, s->workload.measured_tokens_per_s));
	else if (s->efficiency.mfu > 0)
		put(e, "\n  set by efficiency.mfu (a measurement), not modelled\n");
	else
		put(e, "\n  an output of the time model: GEMMs at %s of peak, HFU %s\n",
		    pct(e, p->matmul_efficiency), pct(e, p->hfu));
	source(e, "PaLM (Chowdhery et al. 2022), Appendix B: MFU against the dense peak");
}

/* ---- time ---- */

/* Where the engine and the compute precision an inference time assumes come from:
 * workload.engine and workload.precision, or what auto resolved them to (plan_engine,
 * plan_precision in src/plan_memory.c). */
static void engine_note(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct workload *w = &s->workload;
	char text[400];
	const char *why = "as set by workload.engine";

	if (w->engine == ENGINE_AUTO)
		why =
		    framework_get(w->framework)->kernels != FW_KERNELS_GPU
			? "workload.engine auto: the framework's kernels"
		    : p->engine == ENGINE_LLAMACPP
			? "workload.engine auto: llama.cpp on a consumer card (catalog class "
			  "consumer)"
			: "workload.engine auto: a CUDA-graph serving engine (vLLM, TensorRT-LLM, "
			  "SGLang) on a data-centre GPU";
	snprintf(text, sizeof(text), "engine %s (%s); compute precision %s (%s)",
		 scenario_enum_name("workload.engine", (int)p->engine), why,
		 dtype_name(p->precision),
		 w->precision != PRECISION_AUTO ? "as set by workload.precision"
		 : p->precision == DTYPE_FP8
		     ? "workload.precision auto: fp8 weights on fp8 tensor cores compute W8A8, "
		       "vLLM Fp8LinearMethod, TensorRT-LLM FP8"
		 : p->precision == DTYPE_NVFP4
		     ? "workload.precision auto: nvfp4 weights on fp4 tensor cores compute "
		       "W4A4, vLLM ModelOptNvFp4LinearMethod (cutlass_scaled_fp4_mm), "
		       "TensorRT-LLM NVFP4"
		     : "workload.precision auto: 16-bit activations, weight-only formats "
		       "dequantised in the GEMM");
	wrapped(e, "  ", text);
}

/* One decode step, term by term (tpot; the step of an inference plan). */
static void decode_step(struct ex *e, const char *lhs, const struct plan *p)
{
	const struct plan_decode *d = &p->decode;
	if (d->spec_tokens_per_step > 0) {
		/* speculative decoding: the verify pass and the drafts over the tokens gained */
		formula(e, lhs, "(verify pass + K draft steps) / tokens gained a step");
		numbers(e, lhs, "(%s + %s) / %s", sec(e, d->verify_s), sec(e, d->draft_s),
			plain(e, d->spec_tokens_per_step));
		result(e, lhs, sec(e, d->step_s));
		formula(e, "verify pass",
			"max(GEMMs, weight read) + attention + elementwise + communication + "
			"fixed, over K + 1 rows a sequence");
		numbers(e, "verify pass", "max(%s, %s) + %s + %s + %s + %s", sec(e, d->gemm_s),
			sec(e, d->weight_read_s), sec(e, d->attention_s), sec(e, d->elementwise_s),
			sec(e, decode_comm(d)), sec(e, d->fixed_s));
		result(e, "verify pass", sec(e, d->verify_s));
		return;
	}
	if (d->eager_s > 0) {
		/* above the CUDA-graph cap: the host's eager launches outlast the GPU */
		formula(e, lhs,
			"max(GEMMs, weight read) + attention + elementwise + communication + "
			"fixed + eager host wait");
		numbers(e, lhs, "max(%s, %s) + %s + %s + %s + %s + %s", sec(e, d->gemm_s),
			sec(e, d->weight_read_s), sec(e, d->attention_s), sec(e, d->elementwise_s),
			sec(e, decode_comm(d)), sec(e, d->fixed_s), sec(e, d->eager_s));
		result(e, lhs, sec(e, d->step_s));
		return;
	}
	formula(e, lhs,
		"max(GEMMs, weight read) + attention + elementwise + communication + fixed");
	numbers(e, lhs, "max(%s, %s) + %s + %s + %s + %s", sec(e, d->gemm_s),
		sec(e, d->weight_read_s), sec(e, d->attention_s), sec(e, d->elementwise_s),
		sec(e, decode_comm(d)), sec(e, d->fixed_s));
	result(e, lhs, sec(e, d->step_s));
}

/* Under a loaded scheduler (src/plan_serve.c, serve_at) the mean gap between a sequence's
 * tokens: plain decode steps, and the share 1 - e^-n of steps that carry prompts (n the
 * prompts joining a step, Poisson); then the decode step of the running batch, term by
 * term. Returns false under scheduler alone (the step alone is the figure). */
static bool loaded_step(struct ex *e, const char *lhs, const struct plan *p)
{
	const struct plan_serving *v = &p->serving;
	if (isnan(v->scheduler))
		return false;
	if (v->step_frac > 0) {
		formula(e, lhs,
			"(1 - f) x decode step + f x step with prompts, f = 1 - e^-n the share "
			"of steps prompts join (n a step, Poisson)");
		numbers(e, lhs, "(1 - %s) x %s + %s x %s", plain(e, v->step_frac),
			sec(e, v->step_decode_s), plain(e, v->step_frac), sec(e, v->step_joined_s));
	} else {
		formula(e, lhs, "decode step of the running batch (no prompt joins it)");
		numbers(e, lhs, "%s", sec(e, v->step_decode_s));
	}
	result(e, lhs, sec(e, p->tpot_s));
	put(e, "\n");
	decode_step(e, "decode step", p);
	put(e, "\n");
	if (v->step_frac > 0 && sched_of(v->scheduler) == SCHED_CHUNKED)
		wrapped(e, "  ",
			"a step with prompts: one pass of the decodes and the prompt rows under "
			"the budget, the weights read once (Sarathi-Serve);");
	else if (v->step_frac > 0)
		wrapped(e, "  ",
			"a step with prompts: the decode step after a prefill pass of the waiting "
			"prompts, which it waits for (prefill-first);");
	return true;
}

static void ex_parts(struct ex *e, const struct plan *p)
{
	const struct figure *f;

	put(e, "\n  where the time goes:\n");
	for (int i = 0; (f = figure_time_part(i)) != NULL; i++) {
		double v = figure_value(f, p);
		if (!(v > 0))
			continue;
		put(e, "    %-20s %10s  %5s\n", f->label, sec(e, v), pct(e, v / p->step_s));
	}
}

/* An overlap as resolved: a choice of the parallel.*overlap* fields by its name there; the
 * framework rows' own values (src/framework.h): the papers' idealised overlap, or ZeRO-3's
 * prefetch, which runs behind compute. */
static const char *overlap_state(int v)
{
	return v == OVERLAP_PAPER   ? "paper"
	       : v == OVERLAP_ZERO3 ? "on"
				    : scenario_enum_name("parallel.tp_comm_overlap", v);
}

/* The collectives that can run behind compute: whether each does (the framework's default
 * or its field), what it takes alone and what of it the step shows (src/plan_time.c,
 * overlap_s). */
static void ex_overlap(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct plan_overlap *o = &p->overlap;
	const struct {
		const char *name, *field;
		int on;
		double alone, shown;
	} rows[] = {
	    {"TP collectives", "tp_comm_overlap", o->tp, o->tp_s, o->tp_exposed_s},
	    {"gradient reduction", "overlap_grad_reduce", o->grad, o->grad_s, o->grad_exposed_s},
	    {"param all-gathers", "overlap_param_gather", o->param, o->param_s, o->param_exposed_s},
	};
	char text[400];
	bool any = false;
	const struct parallel *par = &s->parallel;

	/* the papers' idealised overlap, as set by nothing, is the step's formula above
	 * (exposed DP and ZeRO-3 are what the last backward and the micro-batch's compute
	 * do not hide): the explanation stays as it was before frameworks */
	if (s->workload.framework == FW_DEFAULT && o->speed == 1 && o->tp != OVERLAP_ON &&
	    par->tp_comm_overlap == OVERLAP_AUTO && par->overlap_grad_reduce == OVERLAP_AUTO &&
	    par->overlap_param_gather == OVERLAP_AUTO && s->efficiency.overlap == 0)
		return;
	for (unsigned i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		if (!(rows[i].alone > 0))
			continue;
		if (!any) {
			bool paper = s->workload.framework == FW_DEFAULT;
			put(e,
			    "\n  communication behind compute (%s%s defaults unless set; "
			    "parallel.*):\n",
			    paper ? "the papers'" : framework_name(s->workload.framework),
			    paper ? "" : "'s");
			any = true;
		}
		put(e, "    %-18s %-5s %8s alone %8s shown  %s\n", rows[i].name,
		    overlap_state(rows[i].on), sec(e, rows[i].alone), sec(e, rows[i].shown),
		    rows[i].field);
	}
	if (!any)
		return;
	if (o->speed < 1)
		snprintf(text, sizeof(text),
			 "overlapped: shown = max(comm - compute, comm x (1 - speed)), the compute "
			 "running at %s of its speed alone while the communication does "
			 "(efficiency.overlap; Lee et al. 2025, arXiv 2507.03114: 18.9%% slower on "
			 "average)%s",
			 pct(e, o->speed),
			 o->tp == OVERLAP_ON ? "; a TP GEMM split in chunks leaves its last "
					       "reduce-scatter chunk out"
					     : "");
	else
		snprintf(text, sizeof(text),
			 "overlapped: shown = max(comm - compute, 0), without contention: the "
			 "papers' idealised overlap the time model was calibrated with "
			 "(efficiency.overlap sets a speed)%s",
			 o->param == OVERLAP_PAPER && p->zero >= 1
			     ? "; ZeRO-1/2's reduce-scatter and all-gather count as one "
			       "all-reduce behind the backward (the papers' accounting)"
			     : "");
	wrapped(e, "  ", text);
}

/* Training: what the loss moves per logit (plan_loss_traffic) and, under a quantised
 * frozen base, the dequantisation's share of the memory-bound time, as the same plan with
 * a bf16 base shows (src/plan_train.c, dequant_bytes). */
static void ex_loss_dequant(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct workload *w = &s->workload;
	double act = dtype_bytes(p->precision) >= 4 ? 4 : 2;
	char text[400];

	const struct framework_info *fw = framework_get(w->framework);
	enum loss l = w->loss != LOSS_AUTO ? w->loss : fw->loss;

	/* the papers' loss (12 bytes, the time model as calibrated) needs no note */
	if (p->model.vocab > 0 && l != LOSS_PAPER) {
		snprintf(text, sizeof(text),
			 "the loss (workload.loss %s, %s) moves %s bytes a logit through HBM "
			 "after the output GEMM, forward and backward: %s",
			 l == LOSS_FP32 ? "fp32" : "chunked", framework_name(w->framework),
			 plain(e, plan_loss_traffic(w, act)),
			 l == LOSS_FP32		? "the upcast and cross_entropy's kernels"
			 : fw->loss_chunks <= 0 ? "one fused pass (llm.c's fused_classifier)"
						: "each chunk upcast and reduced");
		put(e, "\n");
		wrapped(e, "  ", text);
	}
	if (w->kind == WL_FINETUNE && w->finetune.method != FT_FULL) {
		struct scenario c = *s;
		struct plan q;
		c.workload.finetune.method = FT_LORA;
		c.workload.finetune.base_weights = DTYPE_BF16;
		plan_compute(&c, &q);
		if (p->parts.memory_bound_s > q.parts.memory_bound_s) {
			snprintf(text, sizeof(text),
				 "the quantised base is dequantised to 16 bits before each GEMM "
				 "that uses it (forward, recomputed forward, input gradient): %s "
				 "of the memory-bound time (torchao NF4Tensor, bitsandbytes "
				 "dequantize_4bit)",
				 sec(e, p->parts.memory_bound_s - q.parts.memory_bound_s));
			wrapped(e, "  ", text);
		}
	}
}

/* Eager PyTorch layers (workload.compile off under torchtune or transformers): the
 * memory-bound time every unfused pointwise kernel adds, as the same plan compiled shows
 * (src/plan_train.c, eager_bytes). */
static void ex_eager(struct ex *e, const struct scenario *s, const struct plan *p)
{
	struct scenario c = *s;
	struct plan q;
	char text[400];

	if (!framework_eager(s->workload.framework, s->workload.compile))
		return;
	c.workload.compile = COMPILE_ON;
	plan_compute(&c, &q);
	snprintf(text, sizeof(text),
		 "eager layers (%s, workload.compile off): each norm, rotary, SiLU and copy is "
		 "its own kernel through HBM, %s of the memory-bound time; torch.compile fuses "
		 "them (a step of %s)",
		 framework_name(s->workload.framework),
		 sec(e, p->parts.memory_bound_s - q.parts.memory_bound_s), sec(e, q.step_s));
	put(e, "\n");
	wrapped(e, "  ", text);
}

/* A training step pinned by a measurement (workload.measured_tokens_per_s, or
 * efficiency.mfu): the step it gives, first, and how the model's parts were scaled to it
 * (src/plan_time.c scales every part by measured step / modelled step). */
static void measured_step(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct workload *w = &s->workload;
	struct scenario m = *s;
	struct plan q;
	char text[300];

	if (w->measured_tokens_per_s > 0) {
		formula(e, "step", "global batch x seq / (measured tokens/s per GPU x GPUs)");
		numbers(e, "step", "%d x %d / (%s x %d)", p->global_batch, w->seq_len,
			plain(e, w->measured_tokens_per_s), s->hardware.count);
	} else {
		formula(e, "step", "flops per step / (GPUs x peak x MFU)");
		numbers(e, "step", "%s / (%d x %s x %s)", cnt(e, p->flops_per_step),
			s->hardware.count, h(e, UNIT_FLOPS, p->peak_flops),
			pct(e, s->efficiency.mfu));
	}
	result(e, "step", sec(e, p->step_s));
	m.workload.measured_tokens_per_s = 0;
	m.efficiency.mfu = 0;
	plan_compute(&m, &q);
	snprintf(text, sizeof(text),
		 "%s pins the step; the model alone gives %s, so its parts below are scaled by "
		 "%s to add up to the measured step",
		 w->measured_tokens_per_s > 0 ? "workload.measured_tokens_per_s (a measurement)"
					      : "efficiency.mfu (a measurement)",
		 sec(e, q.step_s), plain(e, p->step_s / q.step_s));
	put(e, "\n");
	wrapped(e, "  ", text);
	put(e, "\n");
}

void explain_step(struct ex *e, const struct scenario *s, const struct plan *p)
{
	if (training(s)) {
		/* offload and data loading join the sum only when they take time, so that
		 * the numbers shown always add up to the step */
		bool extra = p->parts.offload_s > 0 || p->parts.data_s > 0;
		bool pinned = s->workload.measured_tokens_per_s > 0 || s->efficiency.mfu > 0;
		if (pinned)
			measured_step(e, s, p);
		formula(e, "step",
			extra ? "m x micro-batch + bubble + exposed DP + ZeRO-3 + optimizer + "
				"offload + data"
			      : "m x micro-batch + bubble + exposed DP + ZeRO-3 + optimizer");
		put(e, "  %4s   micro-batch = matmuls + attention + memory-bound + comm\n", "");
		numbers(e, "step", "%d x %s + %s + %s + %s + %s%s%s%s%s", p->micro_batches,
			sec(e, (p->parts.matmul_s + p->parts.attention_s + p->parts.memory_bound_s +
				p->parts.tp_comm_s + p->parts.pp_comm_s + p->parts.ep_comm_s +
				p->parts.cp_comm_s) /
				   (p->micro_batches > 0 ? p->micro_batches : 1)),
			sec(e, p->parts.bubble_s), sec(e, p->parts.dp_comm_s),
			sec(e, p->parts.zero3_s), sec(e, p->parts.optimizer_s), extra ? " + " : "",
			extra ? sec(e, p->parts.offload_s) : "", extra ? " + " : "",
			extra ? sec(e, p->parts.data_s) : "");
		result(e, "step", sec(e, p->step_s));
		if (p->cp > 1) {
			put(e, "\n");
			wrapped(
			    e, "  ",
			    s->parallel.cp_comm == CP_COMM_ALL_GATHER
				? "context parallelism (parallel.cp, all_gather): each GPU runs "
				  "seq_len / cp tokens of every sequence and 1 / cp of its "
				  "attention; K/V are all-gathered before each attention forward "
				  "and gathered again with dK/dV reduce-scattered in the backward, "
				  "over tp x cp GPUs, not overlapped (Llama 3, Section 3.3.2)"
				: "context parallelism (parallel.cp, p2p ring): each GPU runs "
				  "seq_len / cp tokens of every sequence and 1 / cp of its "
				  "attention; the K/V chunk goes round the cp - 1 other ranks in "
				  "every attention pass (with dK/dV in the backward) over tp x cp "
				  "GPUs, and only what exceeds the layer's attention shows "
				  "(Transformer Engine, AttnFuncWithCPAndKVP2P)");
		}
		if (s->parallel.ep_overlap && p->ep > 1) {
			put(e, "\n");
			wrapped(e, "  ",
				"expert all-to-alls overlapped with another micro-batch's compute "
				"(parallel.ep_overlap; DeepSeek-V3's DualPipe): a micro-batch's "
				"comm counts only the all-to-all time beyond its matmuls, "
				"attention and memory-bound work");
		}
		ex_parts(e, p);
		ex_eager(e, s, p);
		ex_loss_dequant(e, s, p);
		ex_overlap(e, s, p);
		put(e, "  GEMMs at %s of the %s peak (shape and GPU%s)\n",
		    pct(e, p->matmul_efficiency), h(e, UNIT_FLOPS, p->peak_flops),
		    pinned ? ", in the model" : "");
		if (p->precision == DTYPE_FP8 && s->hardware.gpu.peak_flops[DTYPE_FP8] > 0 &&
		    framework_fp8_scope(s->workload.framework, s->workload.fp8_scope) == FP8_LINEAR)
			wrapped(e, "  ",
				"fp8 in the linear layers only (workload.fp8_scope linear: "
				"Transformer Engine, torchao Float8Linear): the attention core and "
				"the output layer run at the bf16 peak");
		source(e, "Narayanan et al. 2021 (bubble (p-1)/(v m)); Megatron-LM collectives; "
			  "calibrated on Megatron-LM Table 1 and MosaicML H100 runs");
	} else {
		if (!loaded_step(e, "step", p))
			decode_step(e, "step", p);
		source(e, "see latency.tpot_s: roofline (Williams et al. 2009) per decode step");
	}
}

/* Which peak and efficiency a time rests on (seed case 5: the report says which). */
static void peak_note(struct ex *e, const struct scenario *s, const struct plan *p)
{
	char text[400];
	snprintf(text, sizeof(text),
		 "peak: %s, the dense %s figure (2:4 sparse datasheet figures are never used); "
		 "MFU %s, %s",
		 h(e, UNIT_FLOPS, p->peak_flops), dtype_name(p->precision), pct(e, p->mfu),
		 s->efficiency.mfu > 0 ? "as set by efficiency.mfu" : "modelled");
	put(e, "\n");
	wrapped(e, "  ", text);
	if (s->efficiency.mfu >= 0.99)
		wrapped(e, "  ",
			"an MFU of 100% is the datasheet ceiling, not a plan: real "
			"training reaches 30-55% (Megatron-LM 44-52% on A100, MosaicML "
			"37-46% on H100)");
}

void explain_total_time(struct ex *e, const struct scenario *s, const struct plan *p)
{
	if (isnan(p->total_s)) {
		not_applicable(e, s->workload.kind == WL_ONLINE
				      ? "online serving runs as long as it is needed"
				      : "no token count (workload.tokens) is given");
		return;
	}
	formula(e, "total", "tokens / tokens per second");
	numbers(e, "total", "%s / %s", cnt(e, s->workload.tokens), cnt(e, p->tokens_per_s));
	result(e, "total", sec(e, p->total_s));
	if (training(s)) {
		numbers(e, "total", "flops/token x tokens / (GPUs x peak x MFU)");
		numbers(e, "total", "%s x %s / (%d x %s x %s)", cnt(e, p->flops_per_token),
			cnt(e, s->workload.tokens), s->hardware.count,
			h(e, UNIT_FLOPS, p->peak_flops), pct(e, p->mfu));
		result(e, "total", sec(e, p->total_s));
		peak_note(e, s, p);
	}
	source(e, training(s) ? "Narayanan et al. 2021, Section 5.1: time ~ 8 T P / (n X)"
			      : "the throughput above, over the tokens to generate");
}

void explain_gpu_hours(struct ex *e, const struct scenario *s, const struct plan *p)
{
	if (isnan(p->gpu_hours)) {
		not_applicable(e, "no total time");
		return;
	}
	formula(e, "gpu_hours", "GPUs x total time / 1 h");
	numbers(e, "gpu_hours", "%d x %s / 1 h", s->hardware.count, sec(e, p->total_s));
	result(e, "gpu_hours", plain(e, p->gpu_hours));
	source(e, "definition: GPU-hours are what clouds bill");
}

static void ex_tokens(struct ex *e, const struct scenario *s, const struct plan *p, bool per_gpu)
{
	const struct workload *w = &s->workload;
	int n = s->hardware.count;
	if (per_gpu) {
		formula(e, "per GPU", "tokens/s / GPUs");
		numbers(e, "per GPU", "%s / %d", cnt(e, p->tokens_per_s), n);
		result(e, "per GPU", cnt(e, p->tokens_per_s_per_gpu));
		put(e, "\n");
	}
	if (training(s) && w->measured_tokens_per_s > 0) {
		formula(e, "tokens/s", "measured per GPU x GPUs (workload.measured_tokens_per_s)");
		numbers(e, "tokens/s", "%s x %d", plain(e, w->measured_tokens_per_s), n);
	} else if (training(s)) {
		formula(e, "tokens/s", "global batch x seq / step");
		numbers(e, "tokens/s", "%d x %d / %s", p->global_batch, w->seq_len,
			sec(e, p->step_s));
	} else if (w->measured_tokens_per_s > 0) {
		formula(e, "tokens/s", "measured per GPU x GPUs");
		numbers(e, "tokens/s", "%s x %d", plain(e, w->measured_tokens_per_s), n);
	} else if (!isnan(p->serving.run_s)) {
		/* a finite run: its tokens over its duration (src/plan_serve.c, finite_run) */
		formula(e, "tokens/s", "workload.requests x output / the run's duration");
		numbers(e, "tokens/s", "%s x %s / %s", plain(e, w->requests),
			plain(e, output_tokens(s)), sec(e, p->serving.run_s));
	} else if (!isnan(p->serving.scheduler)) {
		/* the loaded engine: each replica completes requests_per_s (src/plan_time.c,
		 * serve), each of output tokens */
		bool pd = sched_of(p->serving.scheduler) == SCHED_DISAGG;
		formula(e, "tokens/s",
			pd ? "decode engines x requests/s completed per decode engine x output"
			   : "replicas x requests/s completed per replica x output");
		numbers(e, "tokens/s", "%s x %s x %s",
			plain(e, pd ? p->serving.decode_engines : deployed(s, p)),
			plain(e, p->serving.requests_per_s), plain(e, output_tokens(s)));
	} else {
		/* a replica serves B sequences: their prompts' prefill, which gives each its
		 * first token, then output - 1 decode steps (src/plan_infer.c, replica_tps);
		 * the prefill of the batch is what the rest of that time is */
		double B = plan_batch(s, p), O = output_tokens(s), R = deployed(s, p);
		double steps = O > 1 ? O - 1 : 0;
		double prefill = R * B * O / p->tokens_per_s - steps * p->tpot_s;
		formula(e, "tokens/s",
			"replicas x B x output / (prefill of B prompts + (output - 1) x tpot)");
		numbers(e, "tokens/s", "%s x %s x %s / (%s + %s x %s)", plain(e, R), plain(e, B),
			plain(e, O), sec(e, prefill), plain(e, steps), sec(e, p->tpot_s));
	}
	result(e, "tokens/s", cnt(e, p->tokens_per_s));
	source(e, w->measured_tokens_per_s > 0
		      ? "workload.measured_tokens_per_s, a measured rate per GPU"
		  : training(s) ? "global batch x sequence length tokens a step (time.step_s)"
				: "continuous batching: B sequences decode together (Orca, vLLM)");
}

void explain_tokens_per_s(struct ex *e, const struct scenario *s, const struct plan *p)
{
	ex_tokens(e, s, p, false);
}

void explain_tokens_per_s_per_gpu(struct ex *e, const struct scenario *s, const struct plan *p)
{
	ex_tokens(e, s, p, true);
}

void explain_tpot(struct ex *e, const struct scenario *s, const struct plan *p)
{
	if (training(s)) {
		not_applicable(e, "training has no decode");
		return;
	}
	const struct plan_decode *d = &p->decode;
	double batch = isnan(p->serving.scheduler) ? plan_batch(s, p) : p->serving.batch;
	if (!loaded_step(e, "tpot", p))
		decode_step(e, "tpot", p);
	{
		char text[600];
		put(e, "\n");
		if (d->batch != batch)
			snprintf(text, sizeof(text),
				 "a step decodes a micro-batch of %s of the %s sequences through "
				 "the %d stages;",
				 plain(e, d->batch), plain(e, batch), p->pp);
		else
			snprintf(text, sizeof(text), "batch %s;", plain(e, d->batch));
		wrapped(e, "  ", text);
		snprintf(text, sizeof(text),
			 "weights (less the embedding, a lookup) read at %s x %s;",
			 h(e, UNIT_BYTES_PER_S, s->hardware.gpu.hbm_bytes_per_s),
			 pct(e, p->hbm_efficiency));
		wrapped(e, "  ", text);
		snprintf(text, sizeof(text),
			 "attention: the slower of its FLOPs (%s) and its KV read (%s);",
			 sec(e, d->attention_flops_s), sec(e, d->kv_read_s));
		wrapped(e, "  ", text);
		if (decode_comm(d) > 0) {
			snprintf(text, sizeof(text),
				 "communication: TP all-reduces %s, EP all-to-alls %s, pipeline "
				 "hand-offs %s;",
				 sec(e, d->tp_comm_s), sec(e, d->ep_comm_s), sec(e, d->pp_comm_s));
			wrapped(e, "  ", text);
		}
		wrapped(e, "  ", "fixed: per-step launches, the host's part, dequantisation;");
		if (d->eager_s > 0) {
			snprintf(text, sizeof(text),
				 "eager host wait: batch %s is above the engine's CUDA-graph cap "
				 "(SGLang cuda_graph_max_bs, python/sglang/srt/server_args.py; "
				 "model_executor/cuda_graph_runner.py can_run), so its layers are "
				 "launched eagerly from the host, %s a step, which the GPU's work "
				 "does not cover;",
				 plain(e, d->batch), sec(e, d->step_s));
			wrapped(e, "  ", text);
		}
	}
	if (d->spec_tokens_per_step > 0) {
		const struct speculative *sp = &s->workload.speculative;
		char text[600];
		snprintf(text, sizeof(text),
			 "speculative decoding (%s): %d tokens drafted a step, each accepted "
			 "with chance %s, gain (1 - a^(K+1)) / (1 - a) = %s tokens a step "
			 "(Leviathan et al. 2023, arXiv 2211.17192, Equation 1); the target "
			 "verifies all K + 1 in one pass (vLLM vllm/v1/spec_decode, SGLang "
			 "speculative/eagle_worker.py). The verify pass carries K + 1 times the "
			 "rows over one weight read: nearly free while decode is memory-bound, "
			 "but its GEMMs turn compute-bound K + 1 times sooner, so the gain "
			 "shrinks as the batch grows;",
			 scenario_enum_name("workload.speculative.method", (int)sp->method),
			 sp->tokens, plain(e, sp->acceptance), plain(e, d->spec_tokens_per_step));
		wrapped(e, "  ", text);
	}
	put(e, "  decode turns compute-bound at batch %s\n",
	    plain(e, p->decode_compute_bound_batch));
	wrapped(e, "  ",
		p->engine == ENGINE_CUDA_GRAPHS
		    ? "kernels: cuda-graphs (one CUDA graph per step, dequantisation inside the "
		      "GEMMs)"
		    : "kernels: llama.cpp (weights converted on the CUDA cores, per-layer "
		      "launches)");
	engine_note(e, s, p);
	source(e,
	       p->engine == ENGINE_CUDA_GRAPHS
		   ? "roofline (Williams et al. 2009) per decode step; CUDA-graph engines "
		     "fitted on torchao, gpt-fast, NVIDIA NIM and vLLM (tests/unit/engine_rows.h)"
		   : "roofline (Williams et al. 2009) per decode step; calibrated on llama.cpp "
		     "and TensorRT-LLM");
}

void explain_ttft(struct ex *e, const struct scenario *s, const struct plan *p)
{
	if (training(s)) {
		not_applicable(e, "training has no prefill");
		return;
	}
	if (!isnan(p->serving.scheduler) && !p->serving.overloaded) {
		/* the loaded engine's mean: src/plan_serve.c, serve_levels */
		formula(e, "ttft", "a prompt's own passes + the mean wait before the first");
		numbers(e, "ttft", "%s + %s", sec(e, p->serving.ttft_service_s),
			sec(e, p->serving.wait_s));
	} else if (!isnan(p->serving.scheduler)) {
		formula(e, "ttft", "a prompt's own passes + the wait before the first");
		result(e, "ttft", "unbounded");
		put(e, "\n");
		wrapped(e, "  ",
			"not itemized: the arrivals outrun the replica (serving.overloaded), so "
			"the queue and the wait grow without bound");
		source(e, "queueing stability (Kleinrock, Queueing Systems I, 1975, 5.5)");
		return;
	} else if (p->host_kv_load_s > 0) {
		/* the host-held prefix first (src/plan_infer.c, prefix_tiers) */
		double step = plan_batch(s, p) > 1 ? p->tpot_s : 0;
		formula(e, "ttft",
			"host-held prefix loaded + prefill of the prompt + one decode step of the "
			"running batch");
		numbers(e, "ttft", "%s + %s + %s", sec(e, p->host_kv_load_s),
			sec(e, p->ttft_s - step - p->host_kv_load_s), sec(e, step));
	} else {
		/* a new request's prompt, then the decode step of the batch it joins (none
		 * when it runs alone): src/plan_infer.c, ttft_s */
		double step = plan_batch(s, p) > 1 ? p->tpot_s : 0;
		formula(e, "ttft", "prefill of the prompt + one decode step of the running batch");
		numbers(e, "ttft", "%s + %s", sec(e, p->ttft_s - step), sec(e, step));
	}
	result(e, "ttft", sec(e, p->ttft_s));
	if (!isnan(p->serving.scheduler) && p->serving.ttft_ahead_s > 0) {
		char text[400];
		snprintf(text, sizeof(text),
			 "a prompt's own passes include the step launched ahead of it, %s: "
			 "SGLang's overlap scheduler runs the next batch before it takes the "
			 "last one's results (disable_overlap_schedule = False, server_args.py; "
			 "event_loop_overlap, managers/scheduler.py), so a request received "
			 "while a step runs waits for that step and the one behind it",
			 sec(e, p->serving.ttft_ahead_s));
		put(e, "\n");
		wrapped(e, "  ", text);
	}
	if (p->engine == ENGINE_CUDA_GRAPHS &&
	    framework_graph_max_bs(s->workload.framework, s->hardware.gpu.memory_bytes) > 0) {
		put(e, "\n");
		wrapped(e, "  ",
			"prefill passes run eagerly (SGLang captures decode batches only: "
			"model_executor/cuda_graph_runner.py; ModelRunner.forward_extend), so a "
			"pass lasts at least the host's launches of its layers (EAGER_LAYER_S, "
			"src/plan_time.c), which a short prompt's GPU work does not cover");
	}
	if (!isnan(p->prefix_hit)) {
		char text[400];
		snprintf(text, sizeof(text),
			 "prefix cache tiers: of %s prefix tokens (workload.prefix_cache_tokens) "
			 "the device and host tiers keep a hit rate of %s (of %s), %s of it from "
			 "the host (workload.host_kv_cache: SGLang HiRadixCache load_back, vLLM "
			 "OffloadingConnector), loaded over %s PCIe in %s%s%s%s",
			 cnt(e, s->workload.prefix_cache_tokens), pct(e, p->prefix_hit),
			 pct(e, s->workload.prefix_cache_hit), pct(e, p->prefix_host_share),
			 h(e, UNIT_BYTES_PER_S, s->hardware.gpu.pcie_bytes_per_s),
			 sec(e, p->host_kv_copy_s),
			 p->host_kv_load_s < p->host_kv_copy_s ? ", layer by layer under the "
								 "prefill (SGLang), "
							       : "",
			 p->host_kv_load_s < p->host_kv_copy_s ? sec(e, p->host_kv_load_s) : "",
			 p->host_kv_load_s < p->host_kv_copy_s ? " of it not hidden" : "");
		put(e, "\n");
		wrapped(e, "  ", text);
	}
	if (s->workload.prefix_cache_hit > 0) {
		char text[300];
		double hit = isnan(p->prefix_hit) ? s->workload.prefix_cache_hit : p->prefix_hit;
		snprintf(text, sizeof(text),
			 "prefill: %s of %d tokens (prefix cache hit %s: vLLM automatic prefix "
			 "caching, SGLang RadixAttention), each attending to the cached keys and "
			 "half its own, x %s FLOPs at the GEMM efficiency of the shape",
			 plain(e, (1 - hit) * s->workload.prompt_tokens), s->workload.prompt_tokens,
			 pct(e, hit), cnt(e, p->flops_per_token));
		put(e, "\n");
		wrapped(e, "  ", text);
	} else
		put(e, "\n  prefill: %d tokens x %s FLOPs at the GEMM efficiency of the shape\n",
		    s->workload.prompt_tokens, cnt(e, p->flops_per_token));
	source(e, !isnan(p->serving.scheduler)
		      ? "TTFT = queueing + prefill, as vLLM's serving benchmark measures it; "
			"the queue: see serving.wait_s"
		      : "TTFT = queueing + prefill, as vLLM's serving benchmark measures it; "
			"queueing is not modelled");
}

/* ---- serving under load (src/plan_serve.c, serve) ---- */

static const char *sched_name(const struct plan *p)
{
	int v = isnan(p->serving.scheduler) ? 0 : (int)p->serving.scheduler;
	return scheduler_name(v);
}

/* Not applicable under scheduler alone; true when it is not. */
static bool serving_applies(struct ex *e, const struct scenario *s, const struct plan *p)
{
	if (training(s)) {
		not_applicable(e, "training serves no requests");
		return false;
	}
	if (isnan(p->serving.scheduler)) {
		not_applicable(e, "no load modelled (scheduler alone, or default's auto)");
		return false;
	}
	return true;
}

/* The scheduler's rule, in one paragraph. */
static void serving_rule(struct ex *e, const struct plan *p)
{
	const struct plan_serving *v = &p->serving;
	char text[400];
	switch (sched_of(v->scheduler)) {
	case SCHED_PREFILL_FIRST:
		snprintf(text, sizeof(text),
			 "prefill-first: waiting prompts run as a pass of their own (at most %s "
			 "tokens) before the next decode step, which waits for it;",
			 isnan(v->budget) ? "unlimited" : plain(e, v->budget));
		break;
	case SCHED_CHUNKED:
		snprintf(text, sizeof(text),
			 "chunked: prompt tokens ride in the decode step, at most %s tokens a step "
			 "with the %s decodes;",
			 isnan(v->budget) ? "unlimited" : plain(e, v->budget), plain(e, v->batch));
		break;
	case SCHED_DISAGG:
		snprintf(text, sizeof(text),
			 "disaggregated: %s prefill engines (utilisation %s; a prompt's prefill "
			 "%s, its KV sent in %s) and %s decode engines that only decode "
			 "(DistServe, Splitwise, Dynamo, SGLang PD);",
			 plain(e, v->prefill_engines), pct(e, v->prefill_util),
			 sec(e, v->prefill_s), sec(e, v->kv_transfer_s),
			 plain(e, v->decode_engines));
		break;
	default:
		snprintf(text, sizeof(text),
			 "static: the %s requests start together and each waits for the prefill "
			 "of all their prompts;",
			 plain(e, v->batch));
		break;
	}
	wrapped(e, "  ", text);
	snprintf(text, sizeof(text),
		 "running batch %s (cap %s), %s prompt tokens join a step on average, "
		 "utilisation %s;",
		 plain(e, v->batch), plain(e, v->max_running), plain(e, v->prefill_per_step),
		 pct(e, v->utilisation));
	wrapped(e, "  ", text);
}

static void serving_source(struct ex *e)
{
	source(e, "Little's law (Little 1961); M/D/1 wait (Pollaczek-Khinchine) with its "
		  "exponential tail (Kleinrock, Queueing Systems I, 5.7); chunked prefill: "
		  "Sarathi-Serve (Agrawal et al., OSDI 2024); prefill-first: vLLM v0 and "
		  "SGLang's scheduler; src/plan_time.c, serve");
}

static void explain_latency_level(struct ex *e, const struct scenario *s, const struct plan *p,
				  const char *what, int lv, double pctl)
{
	const struct plan_serving *v = &p->serving;
	char lhs[32];
	if (!serving_applies(e, s, p))
		return;
	snprintf(lhs, sizeof(lhs), "%s P%g", what, pctl);
	if (v->overloaded && strcmp(what, "tpot") != 0) {
		formula(e, lhs,
			strcmp(what, "ttft") == 0
			    ? "a prompt's own passes + its wait at the percentile"
			    : "ttft at the percentile + (output - 1) x mean tpot");
		result(e, lhs, "unbounded");
		put(e, "\n");
		wrapped(e, "  ",
			"not itemized: the load exceeds what the replica completes, so the queue "
			"grows without bound and latency has no steady state (null);");
	} else if (strcmp(what, "ttft") == 0) {
		formula(e, lhs,
			"a prompt's own passes + its wait at the percentile: the step in flight "
			"and the queue at the budget");
		numbers(e, lhs, "%s + %s", sec(e, v->lv_own_s[lv]), sec(e, v->lv_wait_s[lv]));
		result(e, lhs, sec(e, lv < 3 ? v->ttft[lv] : v->ttft_slo_s));
		put(e, "\n");
		wrapped(e, "  ",
			"the wait at level q: q of the step in flight (uniform), and past the "
			"queue's empty share 1 - rho the exponential tail of the wait at the "
			"prompt budget (Kleinrock, Queueing Systems I, 5.7);");
	} else if (strcmp(what, "tpot") == 0 && lv == 3 && !isnan(v->slo_share)) {
		formula(e, lhs,
			"a request's tpot, the mean of its gaps: (1 - f) x decode step + f x "
			"gap with prompts, f the share of its gaps that the percentile's count "
			"of prompts (Poisson) joins");
		numbers(e, lhs, "(1 - %s) x %s + %s x %s", plain(e, v->slo_share),
			sec(e, v->step_decode_s), plain(e, v->slo_share), sec(e, v->slo_gap_s));
		result(e, lhs, sec(e, v->tpot_slo_s));
		put(e, "\n");
		put(e,
		    "  over %s gaps a request (output - 1, vLLM benchmarks/serve.py's TPOT;\n"
		    "  under an output-length law the harmonic mean: short requests spread it)\n",
		    plain(e, v->slo_gaps));
	} else if (strcmp(what, "tpot") == 0) {
		formula(e, lhs,
			"the gap between tokens (ITL): the decode step + what the percentile's "
			"count of prompts joining the step (Poisson) adds");
		numbers(e, lhs, "%s + %s", sec(e, v->step_decode_s), sec(e, v->lv_add_s[lv]));
		result(e, lhs, sec(e, lv < 3 ? v->tpot[lv] : v->tpot_slo_s));
		put(e, "\n");
		put(e, "  %s prompts join the step at P%g\n", plain(e, v->lv_k[lv]), pctl);
	} else {
		double o = v->lv_out[lv];
		formula(e, lhs, "ttft at the percentile + (output at it - 1) x mean tpot");
		numbers(e, lhs, "%s + %s x %s", sec(e, v->ttft[lv]), plain(e, o > 1 ? o - 1 : 0),
			sec(e, v->tpot_mean_s));
		result(e, lhs, sec(e, v->e2e[lv]));
		put(e, "\n");
	}
	serving_rule(e, p);
	serving_source(e);
}

#define LEVEL_FN(name, what, lv, pc)                                                               \
	void name(struct ex *e, const struct scenario *s, const struct plan *p)                    \
	{                                                                                          \
		explain_latency_level(e, s, p, what, lv, pc);                                      \
	}
LEVEL_FN(explain_ttft_p50, "ttft", 0, 50)
LEVEL_FN(explain_ttft_p90, "ttft", 1, 90)
LEVEL_FN(explain_ttft_p99, "ttft", 2, 99)
LEVEL_FN(explain_tpot_p50, "tpot", 0, 50)
LEVEL_FN(explain_tpot_p90, "tpot", 1, 90)
LEVEL_FN(explain_tpot_p99, "tpot", 2, 99)
LEVEL_FN(explain_e2e_p50, "e2e", 0, 50)
LEVEL_FN(explain_e2e_p90, "e2e", 1, 90)
LEVEL_FN(explain_e2e_p99, "e2e", 2, 99)

void explain_ttft_at_slo(struct ex *e, const struct scenario *s, const struct plan *p)
{
	explain_latency_level(e, s, p, "ttft", 3, p->serving.slo_percentile);
}

void explain_tpot_at_slo(struct ex *e, const struct scenario *s, const struct plan *p)
{
	explain_latency_level(e, s, p, "tpot", 3, p->serving.slo_percentile);
}

/* A serving figure: its formula, its numbers (NULL or "!why": not itemized, and why),
 * the rule. */
static void serving_plain(struct ex *e, const struct scenario *s, const struct plan *p,
			  const char *lhs, const char *sym, const char *nums, const char *value)
{
	if (!serving_applies(e, s, p))
		return;
	formula(e, lhs, sym);
	if (nums && nums[0] != '!')
		numbers(e, lhs, "%s", nums);
	result(e, lhs, value);
	put(e, "\n");
	if (!nums || nums[0] == '!') {
		char text[300];
		snprintf(text, sizeof(text), "not itemized: %s;", nums ? nums + 1 : "a setting");
		wrapped(e, "  ", text);
	}
	serving_rule(e, p);
	serving_source(e);
}

/* The open loop: an arrival rate per replica (src/plan_serve.c, serve). */
static bool open_loop(const struct plan *p)
{
	return !isnan(p->serving.rate);
}

/* Prompt tokens a prefill computes: those a prefix cache does not hold (serve's g.P). */
static double computed_prompt(const struct scenario *s, const struct plan *p)
{
	double h = isnan(p->prefix_hit) ? s->workload.prefix_cache_hit : p->prefix_hit;
	return prompt_tokens(s) * (h > 0 && h < 1 ? 1 - h : 1);
}

void explain_serving_scheduler(struct ex *e, const struct scenario *s, const struct plan *p)
{
	serving_plain(e, s, p, "scheduler",
		      "workload.scheduler, auto resolved to the framework's (vllm, trt-llm, "
		      "llama.cpp: chunked; sglang: prefill-first)",
		      "!a setting, or the framework's default (src/framework.c)", sched_name(p));
}

void explain_serving_step_tokens(struct ex *e, const struct scenario *s, const struct plan *p)
{
	serving_plain(e, s, p, "budget",
		      "workload.max_batched_tokens, or the framework's (vLLM "
		      "max_num_batched_tokens 2048, SGLang chunked_prefill_size 2048/8192/16384 "
		      "by GPU memory, TensorRT-LLM max_num_tokens 8192); null: unlimited",
		      "!a setting, or the framework's default (src/framework.c)",
		      isnan(p->serving.budget) ? "unlimited" : plain(e, p->serving.budget));
}

void explain_serving_max_running(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct workload *w = &s->workload;
	const struct framework_info *fw = framework_get(w->framework);
	const struct plan_serving *v = &p->serving;
	double maxb = p->max_batch >= 1 ? p->max_batch : 1;
	double set = w->max_running > 0	   ? w->max_running
		     : fw->max_running > 0 ? fw->max_running
					   : maxb;
	double r = computed_prompt(s, p) / output_tokens(s);
	char nums[160];
	int n = snprintf(nums, sizeof(nums), "min(%s, %s", plain(e, set), plain(e, maxb));
	if (sched_of(v->scheduler) == SCHED_CHUNKED && !isnan(v->budget) &&
	    floor((v->budget + r) / (1 + r)) >= 1)
		n += snprintf(nums + n, sizeof(nums) - (size_t)n, ", %s",
			      plain(e, floor((v->budget + r) / (1 + r))));
	snprintf(nums + n, sizeof(nums) - (size_t)n, ")");
	serving_plain(e, s, p, "cap",
		      "min(workload.max_running or the framework's (vLLM max_num_seqs 256, "
		      "SGLang 4096, TensorRT-LLM max_batch_size 2048), the sequences whose KV "
		      "cache fits, and under chunked the batch the budget can refill: "
		      "(T + P/O) / (1 + P/O))",
		      v->max_running > 1 ? nums : "!one sequence at the least",
		      plain(e, v->max_running));
}

void explain_serving_scheduler_steps(struct ex *e, const struct scenario *s, const struct plan *p)
{
	serving_plain(e, s, p, "steps",
		      "workload.scheduler_steps, or the framework's: 1 (vLLM v0 "
		      "--num-scheduler-steps, SGLang --num-continuous-decode-steps); the host's "
		      "per-step share is paid once a block, and a request joins only at a "
		      "block's first step, (steps - 1) / 2 steps later on average",
		      "!a setting", plain(e, p->serving.scheduler_steps));
}

void explain_serving_batch(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct plan_serving *v = &p->serving;
	const struct workload *w = &s->workload;
	char nums[160];
	if (open_loop(p) && v->overloaded)
		snprintf(nums, sizeof(nums), "!the arrivals outrun the replica: its cap, %s",
			 plain(e, v->max_running));
	else if (open_loop(p))
		snprintf(nums, sizeof(nums), "%s x %s", plain(e, v->rate), sec(e, v->e2e_run_s));
	else
		snprintf(nums, sizeof(nums), "min(%s, %s)",
			 plain(e, w->kind == WL_OFFLINE && w->concurrency <= 0
				      ? (w->batch > 0 ? w->batch : v->max_running)
				      : v->concurrency),
			 plain(e, v->max_running));
	serving_plain(e, s, p, "batch",
		      "under an arrival rate B = rate x e2e(B) (Little's law, solved); in a closed "
		      "loop min(concurrency, cap); offline the cap",
		      nums, plain(e, v->batch));
}

void explain_serving_prefill_per_step(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct plan_serving *v = &p->serving;
	char nums[160];
	double B = v->batch;
	if (sched_of(v->scheduler) == SCHED_STATIC)
		snprintf(nums, sizeof(nums), "!a static batch takes no prompt while it runs");
	else if (sched_of(v->scheduler) == SCHED_DISAGG)
		snprintf(nums, sizeof(nums), "!a decode engine takes no prompt (disaggregated)");
	else if (B <= 1)
		snprintf(nums, sizeof(nums), "!one request: no other finishes");
	else if (sched_of(v->scheduler) == SCHED_CHUNKED && isfinite(v->room))
		snprintf(nums, sizeof(nums), "min((%s - 1) x %s / %s, %s)", plain(e, B),
			 plain(e, computed_prompt(s, p)), plain(e, output_tokens(s)),
			 plain(e, v->room));
	else
		snprintf(nums, sizeof(nums), "(%s - 1) x %s / %s", plain(e, B),
			 plain(e, computed_prompt(s, p)), plain(e, output_tokens(s)));
	serving_plain(e, s, p, "tokens",
		      "(B - 1) x prompt / output: each of the others finishes once per output "
		      "steps and its successor's prompt joins",
		      nums, plain(e, v->prefill_per_step));
}

void explain_serving_requests_per_s(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct plan_serving *v = &p->serving;
	char nums[160];
	if (v->overloaded)
		snprintf(nums, sizeof(nums), "!the arrivals outrun it: its capacity_rate");
	else if (open_loop(p))
		snprintf(nums, sizeof(nums), "!the arrivals per replica, serving.rate");
	else if (v->closed_wait_s > 0)
		snprintf(nums, sizeof(nums), "%s / (%s + %s)", plain(e, v->batch),
			 sec(e, v->e2e_run_s), sec(e, v->closed_wait_s));
	else
		snprintf(nums, sizeof(nums), "%s / %s", plain(e, v->batch), sec(e, v->e2e_run_s));
	serving_plain(e, s, p, "requests/s",
		      "the arrival rate per replica when it is served; in a closed loop batch / "
		      "(e2e + the wait at the prompt budget) (Little's law)",
		      nums, plain(e, v->requests_per_s));
}

void explain_serving_concurrency(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct plan_serving *v = &p->serving;
	char nums[160];
	if (open_loop(p) && !v->overloaded)
		snprintf(nums, sizeof(nums), "%s x (%s + %s)", plain(e, v->requests_per_s),
			 sec(e, v->e2e_run_s), sec(e, v->wait_s));
	else
		snprintf(nums, sizeof(nums), "!%s",
			 v->overloaded ? "the queue grows without bound"
				       : "the closed loop's (workload.concurrency, or the batch)");
	serving_plain(e, s, p, "concurrency",
		      "requests/s x (e2e + wait) (Little's law), or the closed loop's", nums,
		      isnan(v->concurrency) && v->overloaded ? "unbounded"
							     : plain(e, v->concurrency));
}

void explain_serving_utilisation(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct plan_serving *v = &p->serving;
	char nums[160];
	if (open_loop(p) && v->prompt_svc_s > 0 &&
	    v->utilisation > v->rate / v->capacity_rate * (1 + 1e-9))
		/* the prompt budget binds first (src/plan_serve.c, serve_levels) */
		snprintf(nums, sizeof(nums), "%s x %s", plain(e, v->rate), sec(e, v->prompt_svc_s));
	else if (open_loop(p))
		snprintf(nums, sizeof(nums), "%s / %s", plain(e, v->rate),
			 plain(e, v->capacity_rate));
	else
		snprintf(nums, sizeof(nums), "!a closed loop keeps the engine full");
	serving_plain(e, s, p, "utilisation",
		      "rate per replica / the most it completes at the cap, or rate x s "
		      "(s a prompt's hold on the token budget) when that is more; 1 or more: "
		      "it cannot meet the load",
		      nums, pct(e, v->utilisation));
}

void explain_serving_capacity_rate(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct plan_serving *v = &p->serving;
	const struct workload *w = &s->workload;
	char nums[160];
	bool measured = w->measured_tokens_per_s > 0 && sched_of(v->scheduler) != SCHED_DISAGG;
	if (measured && open_loop(p))
		snprintf(nums, sizeof(nums), "%s x %s / %s", plain(e, w->measured_tokens_per_s),
			 plain(e, replica_gpus(p)), plain(e, output_tokens(s)));
	else if (open_loop(p))
		snprintf(nums, sizeof(nums), "%s / %s", plain(e, v->max_running),
			 sec(e, v->e2e_cap_s));
	else if (v->closed_wait_s > 0)
		snprintf(nums, sizeof(nums), "%s / (%s + %s)", plain(e, v->batch),
			 sec(e, v->e2e_cap_s), sec(e, v->closed_wait_s));
	else
		snprintf(nums, sizeof(nums), "%s / %s", plain(e, v->batch), sec(e, v->e2e_cap_s));
	serving_plain(e, s, p, "capacity",
		      measured && open_loop(p)
			  ? "measured tokens/s per GPU x GPUs a replica / output tokens"
			  : "cap / e2e(cap): the replica's requests/s when full",
		      nums, plain(e, v->capacity_rate));
}

void explain_serving_wait(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct plan_serving *v = &p->serving;
	char nums[160];
	if (v->overloaded) {
		/* no steady state: serving.wait_s is null (src/plan_serve.c, serve_levels) */
		serving_plain(e, s, p, "wait",
			      "the step in flight + the wait at the prompt budget, which needs "
			      "rate x s < 1 (s a prompt's hold on the budget) and the rate under "
			      "the replica's capacity",
			      "!the arrivals outrun the replica or its prompt budget, so the queue "
			      "grows without bound (Kleinrock, Queueing Systems I, 1975, 5.5)",
			      "unbounded");
		return;
	}
	if (!open_loop(p) && v->closed_wait_s > 0) {
		/* src/plan_serve.c closed_wait, then the requests beyond the cap (serve_load) */
		const char *w = sec(e, v->closed_wait_s);
		if (v->concurrency > v->batch)
			snprintf(nums, sizeof(nums), "%s + (%s - %s) x (%s + %s) / %s", w,
				 plain(e, v->concurrency), plain(e, v->batch), sec(e, v->e2e_run_s),
				 w, plain(e, v->batch));
		else if (v->scheduler_steps > 1)
			snprintf(nums, sizeof(nums),
				 "%s x %s / (2 x (1 - %s)) + (1 - %s) x %s + (%s - 1) / 2 x %s",
				 plain(e, v->closed_rho), sec(e, v->prompt_svc_s),
				 plain(e, v->closed_rho), plain(e, v->closed_rho),
				 sec(e, v->step_decode_s), plain(e, v->scheduler_steps),
				 sec(e, v->tpot_mean_s));
		else
			snprintf(nums, sizeof(nums), "%s x %s / (2 x (1 - %s)) + (1 - %s) x %s",
				 plain(e, v->closed_rho), sec(e, v->prompt_svc_s),
				 plain(e, v->closed_rho), plain(e, v->closed_rho),
				 sec(e, v->step_decode_s));
		serving_plain(
		    e, s, p, "wait",
		    "closed loop: the step in flight, a decode step unless a prompt "
		    "rides it, (1 - rho) x decode + the M/D/1 wait behind the others' "
		    "prompts at the budget, rho s / (2 (1 - rho)) (Pollaczek-Khinchine; "
		    "s = P / F x a pass of F = the room tokens; rho = s x the N - 1 "
		    "others' requests/s, the arrival theorem), + under multi-step the "
		    "wait for a block's first step, (steps - 1) / 2 steps, + the requests "
		    "beyond the cap, (C - B) (e2e + W) / B",
		    nums, sec(e, v->wait_s));
		return;
	}
	snprintf(nums, sizeof(nums), "%s / 2 + %s", sec(e, v->wait_res_s), sec(e, v->wait_queue_s));
	serving_plain(e, s, p, "wait",
		      s->workload.prompt_length.dist != DIST_FIXED
			  ? "half the step in flight (the block of scheduler_steps steps) + the "
			    "M/G/1 wait at the prompt budget, rho s "
			    "(1 + cv^2) / (2 (1 - rho)) (Pollaczek-Khinchine; cv^2 the prompt "
			    "length law's, workload.prompt_length); closed loop: the requests "
			    "beyond the cap, (C - B) e2e / B"
			  : "half the step in flight (the block of scheduler_steps steps) + the "
			    "M/D/1 wait at the prompt budget, rho s / "
			    "(2 (1 - rho)) (Pollaczek-Khinchine); closed loop: the requests beyond "
			    "the cap, (C - B) e2e / B",
		      nums, sec(e, v->wait_s));
}

/* serving.run_s: a finite run of workload.requests (src/plan_serve.c, finite_run). */
void explain_serving_run(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct plan_serving *v = &p->serving;
	/* the slowest replica's share, as serve's finite run takes it */
	double N = ceil(s->workload.requests / deployed(s, p) - 1e-9),
	       B = v->batch > 1 ? v->batch : 1;
	double full = floor(N / B + 1e-9);
	double wait = isfinite(v->closed_wait_s) ? v->closed_wait_s : 0;
	char nums[200];
	if (!serving_applies(e, s, p))
		return;
	if (isnan(v->run_s)) {
		not_applicable(e, !(s->workload.requests > 0)
				      ? "workload.requests is 0: the figures are the steady state's"
				  : sched_of(v->scheduler) == SCHED_DISAGG
				      ? "requests unused: disaggregated pools run at steady state"
				      : "requests unused: measured_tokens_per_s stands");
		return;
	}
	if (open_loop(p) && !v->overloaded) {
		snprintf(nums, sizeof(nums), "(%s - 1) / %s + %s", plain(e, N), plain(e, v->rate),
			 sec(e, v->e2e_mean_s));
		serving_plain(e, s, p, "run",
			      "(requests per replica - 1) / rate + e2e: the last request sent, "
			      "then its own latency (bench_serving get_request, benchmark)",
			      nums, sec(e, v->run_s));
		return;
	}
	if (open_loop(p)) {
		/* overloaded: the larger of the waves and the arrivals' span + e2e at the cap */
		double span = (N > 1 ? N - 1 : 0) / v->rate + v->e2e_cap_s;
		char n2[160];
		if (fabs(v->run_s - span) <= 1e-9 * v->run_s)
			snprintf(n2, sizeof(n2), "(%s - 1) / %s + %s", plain(e, N),
				 plain(e, v->rate), sec(e, v->e2e_cap_s));
		else /* the waves, as below */
			snprintf(n2, sizeof(n2), "%s x (%s + %s) + %s", plain(e, full),
				 sec(e, v->e2e_run_s), sec(e, wait),
				 sec(e, v->run_s - full * (v->e2e_run_s + wait)));
		serving_plain(e, s, p, "run",
			      "the arrivals outrun the engine: the larger of its waves (floor(N / "
			      "B) x e2e + the N mod B left) and (N - 1) / rate + e2e at the cap",
			      n2, sec(e, v->run_s));
		return;
	}
	if (wait > 0)
		snprintf(nums, sizeof(nums), "%s x (%s + %s) + %s", plain(e, full),
			 sec(e, v->e2e_run_s), sec(e, wait),
			 sec(e, v->run_s - full * (v->e2e_run_s + wait)));
	else
		snprintf(nums, sizeof(nums), "%s x %s + %s", plain(e, full), sec(e, v->e2e_run_s),
			 sec(e, v->run_s - full * v->e2e_run_s));
	serving_plain(e, s, p, "run",
		      wait > 0
			  ? "floor(N / B) waves of (the running batch's e2e + the wait for the "
			    "others' prompts at the budget) + the e2e of the N mod B left (N "
			    "requests per replica, all sent at once or by B clients)"
			  : "floor(N / B) waves of the running batch's e2e + the e2e of the N "
			    "mod B left (N requests per replica, all sent at once or by B "
			    "clients)",
		      nums, sec(e, v->run_s));
}

/* serving.overloaded: the arrivals per replica against the most it completes, under any
 * scheduler (alone: the planned batch's throughput; a measured throughput when given). */
void explain_serving_overloaded(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct workload *w = &s->workload;
	const struct plan_serving *v = &p->serving;
	double peak = w->requests_per_s > 0 ? w->requests_per_s
					    : w->requests_per_day * w->peak_factor / 86400;
	double span = (double)p->tp * p->pp, n = s->hardware.count > 0 ? s->hardware.count : 1;
	double deployed = floor(n / span) >= 1 ? floor(n / span) : 1;
	double O = w->output_tokens > 0 ? w->output_tokens : 1, cap;

	if (training(s)) {
		not_applicable(e, "training");
		return;
	}
	if (!(w->kind == WL_ONLINE && peak > 0 && w->concurrency <= 0)) {
		not_applicable(e, "no arrival rate (requests_per_day, requests_per_s)");
		return;
	}
	cap = !isnan(v->capacity_rate) ? v->capacity_rate : p->tokens_per_s / deployed / O;
	formula(e, "overloaded", "peak requests/s / replicas >= the most a replica completes");
	numbers(e, "overloaded", "%s / %s >= %s", plain(e, peak), plain(e, deployed),
		plain(e, cap));
	result(e, "overloaded", v->overloaded ? "true" : "false");
	put(e, "\n");
	wrapped(e, "  ", "not itemized: a comparison of two rates");
	if (w->measured_tokens_per_s > 0)
		wrapped(e, "  ",
			"the most a replica completes is the measured throughput: "
			"workload.measured_tokens_per_s x tp x pp / output tokens");
	else if (isnan(v->scheduler))
		wrapped(e, "  ",
			"scheduler alone: the replica's throughput at the planned batch / output "
			"tokens; its TTFT and TPOT stay a lone request's, which no queue delays");
	else
		wrapped(e, "  ", "the loaded engine at its running cap (serving.capacity_rate)");
	if (v->overloaded && !isnan(v->scheduler))
		wrapped(e, "  ",
			"arrivals faster than completions grow the queue without bound: the time "
			"to first token has no steady state (null in the JSON report, unbounded in "
			"the text); capacity_plan.gpus_required gives the fleet that keeps up");
	else if (v->overloaded)
		wrapped(e, "  ",
			"arrivals faster than completions grow the queue without bound; "
			"capacity_plan.gpus_required gives the fleet that keeps up");
	source(e, "queueing stability: an M/G/1 queue has a steady state only at utilisation "
		  "below 1 (Kleinrock, Queueing Systems I, 1975, Section 5.5)");
}

/* ---- capacity plan, cost, energy, reliability ---- */

/* The memory at B = max_batch and at one more sequence, so that the class sees the
 * answer is the last B that fits. */
static void max_batch_check(struct ex *e, const struct plan *p)
{
	const struct plan_memory *m = &p->mem;
	double kv = m->kv_bytes_per_token * m->kv_tokens_per_seq;
	for (int i = 0; i < 2; i++) {
		double B = p->max_batch + i;
		double used = (1 + PLAN_FRAGMENTATION) *
				  (m->weights + B * kv +
				   fmax(m->activations_per_layer, B * m->decode_bytes_per_seq)) +
			      m->cuda_context + m->comm_buffers;
		char lhs[40], fits[80], text[300];
		if (B < 1)
			continue;
		snprintf(lhs, sizeof(lhs), "memory with %s %s", plain(e, B),
			 B == 1 ? "sequence" : "sequences");
		snprintf(text, sizeof(text), "%s x (%s + %s x %s + max(%s, %s x %s)) + %s + %s",
			 plain(e, 1 + PLAN_FRAGMENTATION), byt(e, m->weights), plain(e, B),
			 byt(e, kv), byt(e, m->activations_per_layer), plain(e, B),
			 byt(e, m->decode_bytes_per_seq), byt(e, m->cuda_context),
			 byt(e, m->comm_buffers));
		put(e, "\n");
		formula(e, lhs, text);
		snprintf(fits, sizeof(fits), "%s (%s %s)", byt(e, used),
			 used <= m->capacity ? "fits in" : "over", byt(e, m->capacity));
		result(e, lhs, fits);
	}
}

/* max_batch under a serving framework's KV rule (plan_memory.c: the rule replaces the fit):
 * the sequences whose whole blocks the pool holds, the pool the budget in whole blocks.
 * max_batch stays that KV bound: the prefix cache keeps prefixes in the blocks the running
 * batch leaves free ((max_batch - B) sequences, plan_infer.c prefix_tiers) and
 * serving.max_running applies the engine's running cap; the cap is shown beside it. */
static void max_batch_kv_rule(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct plan_memory *m = &p->mem;
	const struct framework_info *fw = framework_get(s->workload.framework);
	double blk = fw->kv_block_tokens > 0 ? fw->kv_block_tokens : 1;
	double bb = blk * m->kv_bytes_per_token;
	double per_seq = ceil(m->kv_tokens_per_seq / blk);
	double blocks = bb > 0 ? floor(fmax(0, m->kv_budget) / bb) : 0;
	double state = m->kv_seq_bytes - per_seq * bb, B = p->max_batch;
	double frac = s->workload.gpu_memory_utilization > 0
			  ? s->workload.gpu_memory_utilization
			  : framework_mem_fraction(s->workload.framework, p->tp);
	double cap = s->workload.max_running > 0 ? s->workload.max_running : fw->max_running;
	const char *cap_name = fw->kv_rule == KV_RULE_STATIC ? "max_running_requests"
			       : fw->kv_rule == KV_RULE_FREE ? "max_batch_size"
							     : "max_num_seqs";
	char a[32], b[32], lhs[48];

	if (state < 1)
		state = 0;
	snprintf(a, sizeof(a), "%.0f", blocks);
	if (state > 0) {
		/* each sequence its blocks and a recurrent state slot (vLLM's MambaSpec) */
		formula(e, "max_batch",
			"floor(pool / (blocks a sequence x block tokens x bytes per token + "
			"recurrent state))");
		numbers(e, "max_batch", "floor(%s / (%s x %s x %s + %s))", byt(e, blocks * bb),
			plain(e, per_seq), plain(e, blk), byt(e, m->kv_bytes_per_token),
			byt(e, state));
	} else {
		formula(e, "max_batch", "floor(blocks / blocks a sequence)");
		numbers(e, "max_batch", "floor(%s / %s)", a, plain(e, per_seq));
	}
	result(e, "max_batch", plain(e, B));
	put(e, "\n");
	wrapped(e, "  ",
		"the most sequences the KV pool holds under the framework's own rule (no "
		"allocator slack: the pool is allocated once, in blocks)");
	put(e, "\n");
	formula(e, "blocks a sequence", "ceil(tokens a sequence / block tokens)");
	numbers(e, "blocks a sequence", "ceil(%s / %s)", plain(e, m->kv_tokens_per_seq),
		plain(e, blk));
	result(e, "blocks a sequence", plain(e, per_seq));
	put(e, "\n");
	if (m->kv_budget > 0) {
		formula(e, "blocks", "floor(KV budget / (block tokens x bytes per token))");
		numbers(e, "blocks", "floor(%s / (%s x %s))", byt(e, m->kv_budget), plain(e, blk),
			byt(e, m->kv_bytes_per_token));
		result(e, "blocks", a);
	} else
		put(e, "  blocks = 0: the KV budget leaves no room; not even one sequence fits\n");
	put(e, "\n");
	kv_budget_lines(e, fw, m, frac);
	if (state == 0 && per_seq > 0 && B < 1e8 && p->pp == 1) {
		/* the last B whose blocks the pool holds, and one more */
		put(e, "\n");
		for (int i = 0; i < 2; i++) {
			if (B + i < 1)
				continue;
			snprintf(lhs, sizeof(lhs), "%.0f %s x %s blocks", B + i,
				 B + i == 1 ? "sequence" : "sequences", plain(e, per_seq));
			snprintf(b, sizeof(b), "%.0f", (B + i) * per_seq);
			put(e, "  %s = %s blocks (%s %s)\n", lhs, b,
			    (B + i) * per_seq <= blocks ? "fits in" : "over", a);
		}
	}
	if (p->pp > 1)
		put(e, "  (on the tighter of the first and the last pipeline stage;\n"
		       "  the numbers are the more loaded one's)\n");
	if (cap > 0) {
		char text[300];
		snprintf(text, sizeof(text),
			 "running cap: %s %s (%s); min(cap, max_batch) = %s: the %s binds. "
			 "max_batch stays the KV pool's bound (the prefix cache's free blocks "
			 "are counted from it); serving.max_running is the running batch",
			 s->workload.max_running > 0 ? "workload.max_running" : fw->title,
			 plain(e, cap), s->workload.max_running > 0 ? "set" : cap_name,
			 plain(e, fmin(cap, B)), B < cap ? "KV pool" : "running cap");
		put(e, "\n");
		wrapped(e, "  ", text);
	}
	if (!isnan(p->slo_batch))
		put(e, "\n  the SLO allows at most %s\n", plain(e, p->slo_batch));
	put(e, "\n");
	wrapped(e, "  framework: ", fw->title);
	source(e, fw->kv_rule == KV_RULE_STATIC
		      ? "SGLang python/sglang/srt/model_executor/model_runner.py "
			"profile_max_num_token (rest = free after load - total x (1 - "
			"mem_fraction_static)); server_args.py mem_fraction_static"
		  : fw->kv_rule == KV_RULE_FREE
		      ? "TensorRT-LLM tensorrt_llm/llmapi/llm_args.py KvCacheConfig "
			"free_gpu_memory_fraction; tokens_per_block in "
			"tensorrt_llm/_torch/pyexecutor/resource_manager.py"
		      : "vLLM vllm/worker/worker.py determine_num_available_blocks (budget = "
			"gpu_memory_utilization x total - peak torch - non-torch, in blocks of "
			"block_size); vllm/config.py CacheConfig");
}

enum capacity_figure { CP_MAX_BATCH, CP_REPLICAS, CP_GPUS_REQUIRED };

/* The total time of s at count GPUs (dp from the count, as plan_deadline_gpus plans it):
 * "at 128 GPUs: total = tokens / tokens per second = 1T / 1.22M tok/s = 9.46 d". */
static void deadline_try(struct ex *e, const struct scenario *s0, double count)
{
	struct scenario s = *s0;
	struct plan q;
	char lhs[48];

	s.hardware.count = (int)count;
	s.parallel.dp = 0;
	plan_compute(&s, &q);
	snprintf(lhs, sizeof(lhs), "total at %s GPUs", plain(e, count));
	put(e, "\n");
	formula(e, lhs, "tokens / tokens per second");
	numbers(e, lhs, "%s / %s tok/s", cnt(e, s.workload.tokens), cnt(e, q.tokens_per_s));
	put(e, "  %*s = %s (%s the %s deadline%s)\n", (int)strlen(lhs), "", sec(e, q.total_s),
	    q.total_s <= s.workload.deadline_s ? "meets" : "misses", sec(e, s.workload.deadline_s),
	    q.mem.fits ? "" : "; does not fit");
}

/* capacity_plan.gpus_required for training: the count plan_deadline_gpus finds, shown at
 * that count and one replica fewer, and where the FLOPs formula at this plan's MFU starts */
static void deadline_gpus(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct workload *w = &s->workload;
	double span = (double)scenario_replica_gpus(s);
	bool fits_somewhere = !isnan(plan_deadline_gpus(s, true));

	if (p->cp > 1) {
		formula(e, "gpus", "replicas x tp x pp x ep x cp");
		numbers(e, "gpus", "%s x %d x %d x %d x %d", plain(e, p->gpus_required / span),
			s->parallel.tp, s->parallel.pp, s->parallel.ep, s->parallel.cp);
	} else {
		formula(e, "gpus", "replicas x tp x pp x ep");
		numbers(e, "gpus", "%s x %d x %d x %d", plain(e, p->gpus_required / span),
			s->parallel.tp, s->parallel.pp, s->parallel.ep);
	}
	result(e, "gpus", plain(e, p->gpus_required));
	put(e, "\n");
	wrapped(e, "  ",
		fits_somewhere
		    ? "replicas: the fewest at which the plan, dp from the count and whole "
		      "micro-batches a step, fits and meets the deadline (as goal seek, solve "
		      "--min hardware.count, finds)"
		    : "replicas: the fewest at which the plan, dp from the count and whole "
		      "micro-batches a step, meets the deadline; memory fits at no count, so "
		      "goal seek finds none");
	deadline_try(e, s, p->gpus_required);
	if (p->gpus_required > span)
		deadline_try(e, s, p->gpus_required - span);
	put(e, "\n");
	formula(e, "FLOPs alone", "ceil(FLOPs / (peak x MFU x deadline))");
	numbers(e, "FLOPs alone", "ceil(%s / (%s x %s x %s))", h(e, UNIT_NONE, p->flops_total),
		h(e, UNIT_FLOPS, p->peak_flops), pct(e, p->mfu), sec(e, w->deadline_s));
	result(e, "FLOPs alone",
	       plain(e, ceil(p->flops_total / (p->peak_flops * p->mfu * w->deadline_s) - 1e-9)));
	wrapped(e, "  ",
		"at this plan's MFU, on its GPU count; the MFU changes with the count, and a "
		"step runs whole micro-batches, so the count that meets the deadline can differ");
	peak_note(e, s, p);
	source(e, "seed case 6: FLOPs / (GPU FLOP/s x efficiency x seconds), tried at whole "
		  "replicas with the time model; the article's printed 4.25 A100s for "
		  "LLaMA-33B does not follow from its own formula");
}

/* One planned count of the loaded fleet, as serve_fleet quotes it (i = 0: the answer,
 * 1: one fewer). */
static void fleet_point(struct ex *e, const struct plan *p, double count, int i)
{
	const struct plan_serving *v = &p->serving;
	if (!(count >= 1) || (isnan(v->fleet_ttft_s[i]) && isnan(v->fleet_util[i])))
		return;
	if (isnan(v->fleet_ttft_s[i]) && isnan(v->fleet_tpot_s[i])) {
		put(e, "  at %s replicas: utilisation %s%s\n", plain(e, count),
		    pct(e, v->fleet_util[i]), v->fleet_util[i] >= 1 ? " (the queue grows)" : "");
		return;
	}
	put(e, "  at %s replicas: TTFT %s, TPOT %s at P%s, utilisation %s (%s)\n", plain(e, count),
	    sec(e, v->fleet_ttft_s[i]), sec(e, v->fleet_tpot_s[i]), plain(e, v->slo_percentile),
	    pct(e, v->fleet_util[i]), i == 0 ? "meets" : "misses");
}

/* capacity_plan.slo_batch, below max_batch: under prefill-first and chunked the loaded
 * step's bound (src/plan_serve.c, loaded_slo_batch), else the lone decode step's. */
static void slo_batch_line(struct ex *e, const struct plan *p)
{
	int sched = sched_of(p->serving.scheduler);
	if (isnan(p->slo_batch))
		return;
	put(e, "\n  the SLO allows at most %s\n", plain(e, p->slo_batch));
	if (sched == SCHED_CHUNKED || sched == SCHED_PREFILL_FIRST)
		wrapped(e, "  ",
			"under load: the largest running batch B whose steps, its decodes plus the "
			"(B - 1) x prompt / output tokens that join them at B's own rate B / e2e "
			"(Little's law), meet the SLO at its percentile, as serving.* reports the "
			"engine at that batch");
	else
		wrapped(e, "  ", "from the decode step alone (no prompt joins it)");
}

/* capacity_plan.replicas and gpus_required under a scheduler other than alone: the rule
 * serve_fleet (src/plan_time.c) applied, with its numbers. */
static void fleet_capacity(struct ex *e, const struct scenario *s, const struct plan *p,
			   enum capacity_figure what)
{
	const struct plan_serving *v = &p->serving;
	const struct workload *w = &s->workload;
	double ep = v->fleet_engines, span = replica_gpus(p) * ep;
	int rule = (int)v->fleet_rule;
	char text[400];

	if (what == CP_GPUS_REQUIRED && rule != FLEET_CANNOT) {
		formula(e, "gpus", "replicas x tp x pp x ep");
		numbers(e, "gpus", "%s x %d x %d x %s", plain(e, p->replicas), p->tp, p->pp,
			plain(e, ep));
		result(e, "gpus", plain(e, p->gpus_required));
		put(e, "\n");
	}
	if (rule == FLEET_THROUGHPUT) {
		formula(e, "replicas", "ceil(requests/s needed / (requests/s per engine x ep))");
		numbers(e, "replicas", "ceil(%s / (%s x %s))", plain(e, v->fleet_rate),
			plain(e, v->requests_per_s), plain(e, ep));
		result(e, "replicas", plain(e, p->replicas));
		put(e, "\n");
		wrapped(
		    e, "  ",
		    "a closed loop (workload.concurrency) or an offline batch completes a fixed "
		    "rate per engine under the loaded step; its latencies do not change with the "
		    "count");
		source(e, "Little's law (Little 1961): completions = concurrency / e2e");
		return;
	}
	if (rule == FLEET_STABLE) {
		formula(e, "replicas", "the fewest R with peak rate / (R x ep) < capacity_rate");
		numbers(e, "replicas", "the fewest R with %s / (R x %s) < %s requests/s",
			plain(e, v->fleet_rate), plain(e, ep), plain(e, v->capacity_rate));
	} else {
		formula(
		    e, "replicas",
		    "the fewest R with utilisation < 1, TTFT <= slo.ttft and TPOT <= slo.tpot "
		    "at the SLO percentile, each of R x ep engines taking peak rate / (R x ep)");
		snprintf(text, sizeof(text),
			 "%s requests/s over R x %s engines, TTFT <= %s, TPOT <= %s at P%s",
			 plain(e, v->fleet_rate), plain(e, ep),
			 w->slo.ttft_s > 0 ? sec(e, w->slo.ttft_s) : "any",
			 w->slo.tpot_s > 0 ? sec(e, w->slo.tpot_s) : "any",
			 plain(e, v->slo_percentile));
		numbers(e, "replicas", "%s", text);
	}
	if (rule == FLEET_CANNOT) {
		result(e, "replicas", "none (cannot meet)");
		if (!isnan(v->fleet_lone_ttft_s))
			put(e,
			    "\n  a lone request, the floor no count goes below: TTFT %s, TPOT %s "
			    "at "
			    "P%s\n",
			    sec(e, v->fleet_lone_ttft_s), sec(e, v->fleet_lone_tpot_s),
			    plain(e, v->slo_percentile));
		put(e, "  stable from %s replicas; the most planned is %s GPUs\n",
		    plain(e, v->fleet_stable), cnt(e, PLAN_MAX_GPUS));
	} else {
		result(e, "replicas", plain(e, p->replicas));
		put(e, "\n");
		fleet_point(e, p, p->replicas, 0);
		fleet_point(e, p, p->replicas - 1, 1);
		if (rule == FLEET_SLO)
			put(e, "  a lone request, the floor: TTFT %s, TPOT %s at P%s\n",
			    sec(e, v->fleet_lone_ttft_s), sec(e, v->fleet_lone_tpot_s),
			    plain(e, v->slo_percentile));
	}
	if (rule == FLEET_SLO || rule == FLEET_STABLE)
		wrapped(e, "  ",
			"search and solve --min hardware.count apply the same test at the "
			"scenario's count (plan_serving_meets): a layout meets when its queue is "
			"stable, the SLO holds at the percentile and the GPUs required are no more "
			"than hardware.count; under a load search ranks layouts by these GPUs (by "
			"cost: their USD per hour)");
	if (rule != FLEET_CANNOT && sched_of(v->scheduler) == SCHED_DISAGG) {
		/* src/plan_serve.c, serve_disagg: each pool sized for its own target */
		put(e, "\n");
		formula(e, "engines",
			"prefill engines (the fewest whose M/D/1 TTFT meets slo.ttft at the "
			"percentile) + decode engines (the fewest whose batch at slo.tpot carries "
			"the rate)");
		numbers(e, "engines", "%s + %s", plain(e, v->fleet_prefill),
			plain(e, v->fleet_decode));
		result(e, "engines", plain(e, p->replicas));
	}
	if (rule != FLEET_CANNOT) {
		/* the stable count, serve_fleet's lower bound: each engine at its cap
		 * completes capacity_rate requests/s */
		put(e, "\n");
		formula(e, "stable",
			"ceil(peak rate / (ep x capacity_rate)): the fewest replicas whose engines "
			"at their cap complete the peak");
		numbers(e, "stable", "ceil(%s / (%s x %s))", plain(e, v->fleet_rate), plain(e, ep),
			plain(e, v->capacity_rate));
		result(e, "stable", plain(e, v->fleet_stable));
	}
	if (what != CP_GPUS_REQUIRED && rule != FLEET_CANNOT)
		put(e, "\n  GPUs required = replicas x tp x pp x ep = %s x %s = %s\n",
		    plain(e, p->replicas), plain(e, span), plain(e, p->gpus_required));
	snprintf(text, sizeof(text),
		 "the %s scheduler's loaded step and its M/D/1 queue (see latency.ttft_at_slo_s), "
		 "planned at whole replicas as plan_compute plans hardware.count = replicas x tp "
		 "x pp x ep; %s model evaluations",
		 sched_name(p), plain(e, v->fleet_evals));
	source(e, text);
}

static void ex_capacity_plan(struct ex *e, const struct scenario *s, const struct plan *p,
			     enum capacity_figure what)
{
	const struct workload *w = &s->workload;
	double B, tps;
	bool at_slo;
	if (what == CP_MAX_BATCH) {
		if (training(s) || isnan(p->max_batch)) {
			not_applicable(e, "training: the batch is given");
			return;
		}
		if (framework_get(w->framework)->kv_rule != KV_RULE_FIT) {
			max_batch_kv_rule(e, s, p);
			return;
		}
		/* the inequality src/plan_memory.c solves, with this plan's numbers: the answer
		 * is the largest B that keeps it true */
		formula(e, "max_batch",
			"the most sequences B with (1 + fragmentation) (weights + B x KV per "
			"sequence + max(prefill, B x decode working set)) + CUDA context + comm "
			"buffers <= capacity");
		numbers(e, "max_batch",
			"the most B with %s (%s + B x %s + max(%s, B x %s)) + %s + %s <= %s",
			plain(e, 1 + PLAN_FRAGMENTATION), byt(e, p->mem.weights),
			byt(e, p->mem.kv_bytes_per_token * p->mem.kv_tokens_per_seq),
			byt(e, p->mem.activations_per_layer), byt(e, p->mem.decode_bytes_per_seq),
			byt(e, p->mem.cuda_context), byt(e, p->mem.comm_buffers),
			byt(e, p->mem.capacity));
		result(e, "max_batch", plain(e, p->max_batch));
		if (p->max_batch < 1)
			put(e, "\n  not even one sequence fits (below)\n");
		put(e, "\n  KV per sequence = %s per token x %s tokens\n",
		    byt(e, p->mem.kv_bytes_per_token), plain(e, p->mem.kv_tokens_per_seq));
		if (p->pp == 1 && p->max_batch < 1e8)
			max_batch_check(e, p);
		else if (p->pp > 1)
			put(e, "  (on the tighter of the first and the last pipeline stage;\n"
			       "  the numbers are the last's)\n");
		slo_batch_line(e, p);
		source(e, "seed case 16: KV cache = context x sequences x bytes per token");
		return;
	}
	if (training(s) && what == CP_REPLICAS) {
		not_applicable(e, "training: see capacity_plan.gpus_required");
		return;
	}
	if (!training(s) && !isnan(p->serving.fleet_rule)) {
		fleet_capacity(e, s, p, what);
		return;
	}
	if (isnan(p->gpus_required) && !training(s)) {
		/* alone: a target the lone request misses sizes no fleet (src/plan_time.c) */
		for (int i = 0; i < p->nwarnings; i++) {
			const struct plan_warning *pw = &p->warnings[i];
			bool ttft = pw->code == PW_SLO_UNREACHABLE_TTFT;
			if (!ttft && pw->code != PW_SLO_UNREACHABLE_TPOT)
				continue;
			formula(e, "replicas",
				ttft ? "none when prefill(prompt) > slo.ttft"
				     : "none when decode step(batch 1) > slo.tpot");
			numbers(e, "replicas", "none: %s > %s", sec(e, pw->a), sec(e, pw->b));
			result(e, "replicas", "none (cannot meet)");
			wrapped(e, "  ",
				"a lone request's latency is the floor no number of replicas goes "
				"below; loosen the target, or change the layout (tp, the weights' "
				"format) or the GPU");
			source(e, "the decode step alone (workload.scheduler alone)");
			return;
		}
	}
	if (isnan(p->gpus_required)) {
		not_applicable(e, training(s)
				      ? "no deadline (workload.deadline) is given"
				      : "no load (requests_per_day, requests_per_s) or deadline "
					"given");
		return;
	}
	if (training(s)) {
		deadline_gpus(e, s, p);
		return;
	}
	/* the throughput of one replica at the batch the plan sizes for: the measured rate,
	 * or the modelled one at the scenario's batch; when an explicit batch misses the
	 * SLO the plan sizes at the SLO's batch, whose throughput the plan does not keep */
	if (what == CP_GPUS_REQUIRED) {
		formula(e, "gpus", "replicas x tp x pp");
		numbers(e, "gpus", "%s x %d x %d", plain(e, p->replicas), p->tp, p->pp);
		result(e, "gpus", plain(e, p->gpus_required));
		put(e, "\n");
	}
	B = plan_batch(s, p);
	at_slo = !isnan(p->slo_batch) && p->slo_batch >= 1 && p->slo_batch < B &&
		 !(w->measured_tokens_per_s > 0);
	tps = w->measured_tokens_per_s > 0 ? w->measured_tokens_per_s * replica_gpus(p)
					   : p->tokens_per_s / deployed(s, p);
	if (w->kind == WL_ONLINE && w->requests_per_s > 0) /* it takes precedence */
		formula(e, "replicas", "ceil(requests/s x output / tokens/s per replica)");
	else if (w->kind == WL_ONLINE)
		formula(e, "replicas",
			"ceil(requests/day x peak x output / 86400 / tokens/s per replica)");
	else
		formula(e, "replicas", "ceil(tokens / (deadline x tokens/s per replica))");
	if (!at_slo && w->kind == WL_ONLINE && w->requests_per_s > 0)
		numbers(e, "replicas", "ceil(%s x %s / %s)", plain(e, w->requests_per_s),
			plain(e, output_tokens(s)), plain(e, tps));
	else if (!at_slo && w->kind == WL_ONLINE)
		numbers(e, "replicas", "ceil(%s x %s x %s / 86400 / %s)",
			cnt(e, w->requests_per_day), plain(e, w->peak_factor),
			plain(e, output_tokens(s)), plain(e, tps));
	else if (!at_slo)
		numbers(e, "replicas", "ceil(%s / (%s x %s))", cnt(e, w->tokens),
			sec(e, w->deadline_s), plain(e, tps));
	result(e, "replicas", plain(e, p->replicas));
	if (at_slo) {
		char text[200];
		snprintf(text, sizeof(text),
			 "not itemized: the plan sizes replicas at the SLO's batch of %s, not "
			 "the %s set, and does not report that batch's tokens/s",
			 plain(e, p->slo_batch), plain(e, B));
		wrapped(e, "  ", text);
	}
	put(e, "\n");
	if (w->kind == WL_ONLINE && w->requests_per_s > 0) {
		formula(e, "tokens/s needed", "requests/s x output");
		numbers(e, "tokens/s needed", "%s x %s", plain(e, w->requests_per_s),
			plain(e, output_tokens(s)));
		result(e, "tokens/s needed", cnt(e, w->requests_per_s * output_tokens(s)));
	} else if (w->kind == WL_ONLINE) {
		formula(e, "tokens/s needed", "requests/day x peak x output / 86400");
		numbers(e, "tokens/s needed", "%s x %s x %s / 86400", cnt(e, w->requests_per_day),
			plain(e, w->peak_factor), plain(e, output_tokens(s)));
		result(e, "tokens/s needed",
		       cnt(e, w->requests_per_day * w->peak_factor * output_tokens(s) / 86400));
	} else {
		formula(e, "tokens/s needed", "tokens / deadline");
		numbers(e, "tokens/s needed", "%s / %s", cnt(e, w->tokens), sec(e, w->deadline_s));
		result(e, "tokens/s needed", cnt(e, w->tokens / w->deadline_s));
	}
	if (what != CP_GPUS_REQUIRED)
		put(e, "\n  GPUs required = replicas x tp x pp = %s x %s = %s\n",
		    plain(e, p->replicas), plain(e, replica_gpus(p)), plain(e, p->gpus_required));
	if (w->measured_tokens_per_s > 0)
		put(e, "  throughput is the measured %s tokens/s per GPU\n",
		    plain(e, w->measured_tokens_per_s));
	source(e, "seed cases 7 and 8, rounded up");
}

void explain_max_batch(struct ex *e, const struct scenario *s, const struct plan *p)
{
	ex_capacity_plan(e, s, p, CP_MAX_BATCH);
}

void explain_replicas(struct ex *e, const struct scenario *s, const struct plan *p)
{
	ex_capacity_plan(e, s, p, CP_REPLICAS);
}

void explain_gpus_required(struct ex *e, const struct scenario *s, const struct plan *p)
{
	ex_capacity_plan(e, s, p, CP_GPUS_REQUIRED);
}

/* capacity_plan.prefill_engines and decode_engines: one pool of the disaggregated capacity
 * plan (src/plan_serve.c, serve_disagg: each pool sized for its own target, the TTFT's
 * and the TPOT's), then the pools' sum, the replicas. */
static void disagg_pool(struct ex *e, const struct scenario *s, const struct plan *p, bool prefill)
{
	const struct plan_serving *v = &p->serving;
	const struct slo *slo = &s->workload.slo;
	double n = prefill ? v->fleet_prefill : v->fleet_decode;
	char text[240];

	if (sched_of(v->scheduler) != SCHED_DISAGG) {
		not_applicable(e, "one engine runs both phases (not disaggregated)");
		return;
	}
	if (isnan(n)) {
		/* serve_disagg sizes a pool only under an arrival rate, and not where a lone
		 * request misses the pool's target */
		not_applicable(e, isnan(v->fleet_rate)
				      ? "no arrival rate to size the pool for"
				      : "no count meets this pool's target (see gpus_required)");
		return;
	}
	if (prefill) {
		formula(e, "prefill engines",
			slo->ttft_s > 0 ? "the fewest N whose M/D/1 queue of prompts, each taking "
					  "peak rate / N, keeps TTFT <= slo.ttft at the percentile"
					: "the fewest N whose queue of prompts, each taking peak "
					  "rate / N, is stable (no slo.ttft)");
		snprintf(text, sizeof(text), "%s requests/s over N engines, TTFT <= %s at P%s",
			 plain(e, v->fleet_rate), slo->ttft_s > 0 ? sec(e, slo->ttft_s) : "any",
			 plain(e, v->slo_percentile));
	} else {
		formula(e, "decode engines",
			slo->tpot_s > 0 ? "the fewest N whose running batch at slo.tpot carries "
					  "peak rate / N each"
					: "the fewest N whose running cap carries peak rate / N "
					  "each (no slo.tpot)");
		snprintf(text, sizeof(text), "%s requests/s over N engines, TPOT <= %s",
			 plain(e, v->fleet_rate), slo->tpot_s > 0 ? sec(e, slo->tpot_s) : "any");
	}
	numbers(e, prefill ? "prefill engines" : "decode engines", "%s", text);
	result(e, prefill ? "prefill engines" : "decode engines", plain(e, n));
	put(e, "\n");
	if (isfinite(v->fleet_ttft_s[0]))
		put(e, "  at %s + %s engines: TTFT %s, TPOT %s at P%s\n",
		    plain(e, v->fleet_prefill), plain(e, v->fleet_decode),
		    sec(e, v->fleet_ttft_s[0]), sec(e, v->fleet_tpot_s[0]),
		    plain(e, v->slo_percentile));
	if (isfinite(p->replicas)) {
		put(e, "\n");
		formula(e, "replicas", "prefill engines + decode engines");
		numbers(e, "replicas", "%s + %s", plain(e, v->fleet_prefill),
			plain(e, v->fleet_decode));
		result(e, "replicas", plain(e, p->replicas));
		put(e, "\n  each engine is tp x pp = %d GPUs; see capacity_plan.gpus_required\n",
		    p->tp * p->pp);
	}
	source(e, "DistServe (Zhong et al. 2024, Section 3): each pool sized for its own "
		  "latency target");
}

void explain_prefill_engines(struct ex *e, const struct scenario *s, const struct plan *p)
{
	disagg_pool(e, s, p, true);
}

void explain_decode_engines(struct ex *e, const struct scenario *s, const struct plan *p)
{
	disagg_pool(e, s, p, false);
}

static void cost_source(struct ex *e)
{
	source(e, "hardware.price_per_gpu_hour (indicative catalog prices)");
}

void explain_usd_per_hour(struct ex *e, const struct scenario *s, const struct plan *p)
{
	formula(e, "usd/hour", "price per GPU-hour x GPUs");
	numbers(e, "usd/hour", "%s/h x %d", h(e, UNIT_USD, s->hardware.gpu.price_per_hour),
		s->hardware.count);
	result(e, "usd/hour", h_unit(e, UNIT_USD, p->usd_per_hour, "/h"));
	cost_source(e);
}

void explain_usd_total(struct ex *e, const struct scenario *s, const struct plan *p)
{
	if (isnan(p->usd_total)) {
		not_applicable(e, "no total time");
		return;
	}
	formula(e, "usd", "price per GPU-hour x GPUs x total time");
	numbers(e, "usd", "%s/h x %d x %s", h(e, UNIT_USD, s->hardware.gpu.price_per_hour),
		s->hardware.count, sec(e, p->total_s));
	result(e, "usd", h(e, UNIT_USD, p->usd_total));
	cost_source(e);
}

void explain_usd_per_million_tokens(struct ex *e, const struct scenario *s, const struct plan *p)
{
	(void)s;
	formula(e, "usd/Mtok", "usd per hour / (tokens per second x 3600 s per hour) x 1M");
	numbers(e, "usd/Mtok", "%s / (%s x 3600) x 1M", h(e, UNIT_USD, p->usd_per_hour),
		plain(e, p->tokens_per_s));
	result(e, "usd/Mtok", h(e, UNIT_USD, p->usd_per_million_tokens));
	cost_source(e);
}

void explain_energy(struct ex *e, const struct scenario *s, const struct plan *p)
{
	if (isnan(p->kwh)) {
		not_applicable(e, "no total time, or no power figure");
		return;
	}
	formula(e, "kwh", "board power x GPUs x total time x PUE");
	numbers(e, "kwh", "%s x %d x %s x %s", h(e, UNIT_WATTS, s->hardware.gpu.power_w),
		s->hardware.count, sec(e, p->total_s),
		plain(e, s->hardware.pue > 0 ? s->hardware.pue : 1));
	result(e, "kwh", h_unit(e, UNIT_NONE, p->kwh, " kWh"));
	put(e, "\n  board power at load, unscaled: busy GPUs run near it\n");
	source(e, "seed case 17; PUE from hardware.pue (The Green Grid)");
}

/* The two terms of the checkpoint interval (src/plan_time.c): a checkpoint holds the
 * weights and the optimizer states, written by every node at the storage bandwidth (or
 * PLAN_CKPT_BYTES_PER_S_PER_NODE when hardware.storage is not given); the job fails as
 * often as any of its GPUs. */
static void checkpoint_terms(struct ex *e, const struct scenario *s, const struct plan *p,
			     double mtbf_job)
{
	double wb = p->mem.weight_bytes_per_param > 0 ? p->mem.weight_bytes_per_param
						      : (dtype_bytes(p->precision) >= 4 ? 4 : 2);
	double gpn = s->hardware.gpu.gpus_per_node > 0 ? s->hardware.gpu.gpus_per_node : 8;
	double nodes = ceil((s->hardware.count > 0 ? s->hardware.count : 1) / gpn);
	double bw = s->hardware.storage_bytes_per_s > 0 ? s->hardware.storage_bytes_per_s
							: PLAN_CKPT_BYTES_PER_S_PER_NODE;
	put(e, "\n");
	formula(e, "write time",
		"(parameters x weight bytes + trainable x optimizer bytes) / (storage "
		"bandwidth x nodes)");
	numbers(e, "write time", "(%s x %s B + %s x %s B) / (%s x %s)", cnt(e, p->params),
		plain(e, wb), cnt(e, p->trainable_params),
		plain(e, p->mem.optimizer_bytes_per_param), h(e, UNIT_BYTES_PER_S, bw),
		plain(e, nodes));
	result(e, "write time", sec(e, p->checkpoint_write_s));
	if (!(s->hardware.storage_bytes_per_s > 0))
		put(e, "  (hardware.storage not given: %s per node assumed)\n",
		    h(e, UNIT_BYTES_PER_S, PLAN_CKPT_BYTES_PER_S_PER_NODE));
	put(e, "\n");
	formula(e, "MTBF of the job", "MTBF per GPU / GPUs");
	numbers(e, "MTBF of the job", "%s h / %d", plain(e, s->hardware.mtbf_gpu_hours),
		s->hardware.count);
	result(e, "MTBF of the job", sec(e, mtbf_job));
}

/* Whether the plan models reliability; says why not when it does not. */
static bool reliability_applies(struct ex *e, const struct plan *p)
{
	if (!isnan(p->expected_interruptions))
		return true;
	not_applicable(e, "reliability is modelled for training runs with a token count");
	return false;
}

/* The job's mean time between failures, in seconds: any of its GPUs failing stops it. */
static double mtbf_job_s(const struct scenario *s)
{
	return s->hardware.mtbf_gpu_hours * 3600 / s->hardware.count;
}

void explain_interruptions(struct ex *e, const struct scenario *s, const struct plan *p)
{
	if (!reliability_applies(e, p))
		return;
	formula(e, "interruptions", "GPUs x total time / MTBF per GPU");
	numbers(e, "interruptions", "%d x %s / %s h", s->hardware.count, sec(e, p->total_s),
		plain(e, s->hardware.mtbf_gpu_hours));
	result(e, "interruptions", plain(e, p->expected_interruptions));
	source(e, "Llama 3 paper, Table 5: 419 unexpected interruptions, 16,384 GPUs, "
		  "54 days");
}

void explain_checkpoint_interval(struct ex *e, const struct scenario *s, const struct plan *p)
{
	double mtbf_job = mtbf_job_s(s);

	if (!reliability_applies(e, p))
		return;
	formula(e, "interval", "sqrt(2 x checkpoint write time x MTBF of the job)");
	numbers(e, "interval", "sqrt(2 x %s x %s)", sec(e, p->checkpoint_write_s),
		sec(e, mtbf_job));
	result(e, "interval", sec(e, p->checkpoint_interval_s));
	checkpoint_terms(e, s, p, mtbf_job);
	source(e, "Young 1974; Daly 2006; the Llama 3 paper for the MTBF per GPU");
}

void explain_goodput(struct ex *e, const struct scenario *s, const struct plan *p)
{
	double mtbf_job = mtbf_job_s(s);

	if (!reliability_applies(e, p))
		return;
	formula(e, "goodput", "1 - write / interval - (interval / 2 + restart) / MTBF");
	numbers(e, "goodput", "1 - %s / %s - (%s / 2 + %s) / %s", sec(e, p->checkpoint_write_s),
		sec(e, p->checkpoint_interval_s), sec(e, p->checkpoint_interval_s),
		sec(e, PLAN_RESTART_S), sec(e, mtbf_job));
	result(e, "goodput", pct(e, p->goodput));
	source(e, "Young/Daly; Llama 3 reports more than 90% effective training time");
}

/* ---- bottlenecks ---- */

static void ex_share(struct ex *e, const struct scenario *s, const struct plan *p,
		     enum bottleneck b)
{
	const struct plan_time_parts *t = &p->parts;
	const struct plan_decode *d = &p->decode;
	switch (b) {
	case BN_CAPACITY:
		formula(e, "capacity", "memory used / memory of the GPU");
		numbers(e, "capacity", "%s / %s", byt(e, p->mem.total), byt(e, p->mem.capacity));
		break;
	case BN_COMPUTE:
		if (training(s)) {
			formula(e, "compute", "(matmuls + attention) / step");
			numbers(e, "compute", "(%s + %s) / %s", sec(e, t->matmul_s),
				sec(e, t->attention_s), sec(e, p->step_s));
		} else {
			/* the FLOP time of a decode step: attention counts by its FLOPs here,
			 * by its KV read under hbm_bandwidth */
			formula(e, "compute",
				"(GEMM FLOP time + attention FLOP time) / decode step");
			numbers(e, "compute", "(%s + %s) / %s", sec(e, d->gemm_s),
				sec(e, d->attention_flops_s), sec(e, d->step_s));
		}
		break;
	case BN_HBM:
		if (training(s)) {
			formula(e, "hbm_bandwidth", "(memory-bound ops + optimizer) / step");
			numbers(e, "hbm_bandwidth", "(%s + %s) / %s", sec(e, t->memory_bound_s),
				sec(e, t->optimizer_s), sec(e, p->step_s));
		} else {
			formula(e, "hbm_bandwidth",
				"(weight read + KV cache read + elementwise) / decode step");
			numbers(e, "hbm_bandwidth", "(%s + %s + %s) / %s", sec(e, d->weight_read_s),
				sec(e, d->kv_read_s), sec(e, d->elementwise_s), sec(e, d->step_s));
		}
		break;
	case BN_INTERCONNECT:
		if (training(s)) {
			formula(e, "interconnect",
				"(TP + PP + exposed DP + ZeRO-3 + EP + offload) / step");
			numbers(e, "interconnect", "(%s + %s + %s + %s + %s + %s) / %s",
				sec(e, t->tp_comm_s), sec(e, t->pp_comm_s), sec(e, t->dp_comm_s),
				sec(e, t->zero3_s), sec(e, t->ep_comm_s), sec(e, t->offload_s),
				sec(e, p->step_s));
		} else {
			formula(
			    e, "interconnect",
			    "(TP all-reduces + EP all-to-alls + pipeline hand-offs) / decode step");
			numbers(e, "interconnect", "(%s + %s + %s) / %s", sec(e, t->tp_comm_s),
				sec(e, t->ep_comm_s), sec(e, t->pp_comm_s), sec(e, d->step_s));
		}
		break;
	default:
		if (!training(s)) {
			not_modelled(e, "serving reads prompts from the network, not a training\n"
					"  corpus from storage");
			return;
		}
		if (s->hardware.storage_bytes_per_s <= 0) {
			formula(e, "data_io",
				"token bytes per step / storage bandwidth, over the step");
			not_modelled(e, "hardware.storage is not given");
			return;
		}
		formula(e, "data_io", "tokens x bytes per token / (storage x nodes) / step");
		numbers(
		    e, "data_io", "%d x %d x %s B / (%s x %s) / %s", p->global_batch,
		    s->workload.seq_len, plain(e, PLAN_DATA_BYTES_PER_TOKEN),
		    h(e, UNIT_BYTES_PER_S, s->hardware.storage_bytes_per_s),
		    plain(e, ceil(s->hardware.count / (double)(s->hardware.gpu.gpus_per_node > 0
								   ? s->hardware.gpu.gpus_per_node
								   : 8))),
		    sec(e, p->step_s - p->parts.data_s));
		break;
	}
	result(e, bottleneck_name((enum bottleneck)b), pct(e, p->shares[b]));
	if (b == BN_CAPACITY) {
		put(e,
		    "\n  binding: %s\n  (capacity when it does not fit, else the largest share of "
		    "the time)\n",
		    bottleneck_name(p->binding));
		source(e, "memory used over the GPU's memory: the first verdict (seed case 15)");
		return;
	}
	if (b == BN_DATA_IO && p->shares[b] > 1)
		put(e, "\n  above 100%%: the GPUs wait for data (the step is %s)\n",
		    sec(e, p->step_s));
	put(e,
	    "\n  binding: %s\n  (capacity when it does not fit, else the largest share of the "
	    "time)\n",
	    bottleneck_name(p->binding));
	source(e, "shares of the step time (training) or of a decode step (inference)");
}

void explain_share_capacity(struct ex *e, const struct scenario *s, const struct plan *p)
{
	ex_share(e, s, p, BN_CAPACITY);
}

void explain_share_compute(struct ex *e, const struct scenario *s, const struct plan *p)
{
	ex_share(e, s, p, BN_COMPUTE);
}

void explain_share_hbm(struct ex *e, const struct scenario *s, const struct plan *p)
{
	ex_share(e, s, p, BN_HBM);
}

void explain_share_interconnect(struct ex *e, const struct scenario *s, const struct plan *p)
{
	ex_share(e, s, p, BN_INTERCONNECT);
}

void explain_share_data_io(struct ex *e, const struct scenario *s, const struct plan *p)
{
	ex_share(e, s, p, BN_DATA_IO);
}

void explain_binding(struct ex *e, const struct scenario *s, const struct plan *p)
{
	(void)s;
	formula(e, "binding", "capacity if it does not fit, else the largest time share");
	result(e, "binding", bottleneck_name(p->binding));
	put(e, "\n  shares of the time:\n");
	for (int i = BN_COMPUTE; i < BN_COUNT; i++)
		put(e, "    %-14s %s\n", bottleneck_name((enum bottleneck)i), pct(e, p->shares[i]));
	put(e, "  capacity (of memory, binding only when it does not fit): %s\n",
	    pct(e, p->shares[BN_CAPACITY]));
	source(e, "seed case 15: capacity, then bandwidth and interconnect, then compute");
}

/* ---- dispatch through the figure table ---- */

const char *const *explain_keys(void)
{
	/* the table's keys, numbers first: filled once, the same every time */
	static const char *keys[FIGURE_MAX + 1];

	if (!keys[0]) {
		int n = 0;
		for (int words = 0; words < 2; words++)
			for (const struct figure *f = figures; f->key; f++)
				if (figure_is_number(f) == !words && n < FIGURE_MAX)
					keys[n++] = f->key;
		keys[n] = NULL;
	}
	return keys;
}

static const char *last_part(const char *k)
{
	const char *d = strrchr(k, '.');
	return d ? d + 1 : k;
}

const char *explain_suggest(const char *key)
{
	const char *const *keys = explain_keys();
	const char *best = NULL;
	int bestd = 1000;
	for (int i = 0; keys[i]; i++) {
		int d = text_edit_distance(key, keys[i]);
		int d2 = text_edit_distance(last_part(key), last_part(keys[i]));
		if (d2 < d)
			d = d2;
		if (d < bestd) {
			bestd = d;
			best = keys[i];
		}
	}
	return bestd <= (int)strlen(last_part(key)) / 2 + 2 ? best : NULL;
}

/* "key = value" and a blank line: the value as the reports write it, or in the unit or
 * without the suffix the row's FIGURE_HEAD_* flags ask for. */
static void headline(struct ex *e, const struct figure *f, const struct plan *p)
{
	double v = figure_value(f, p);
	enum unit_kind u = f->flags & FIGURE_HEAD_COUNT	  ? UNIT_COUNT
			   : f->flags & FIGURE_HEAD_PLAIN ? UNIT_NONE
							  : f->unit;
	const char *value;

	if (f->word)
		value = f->word(p);
	else if (f->flags & (FIGURE_HEAD_BARE | FIGURE_HEAD_COUNT | FIGURE_HEAD_PLAIN))
		value = h(e, u, v);
	else
		value = figure_format(f, v, e->num[e->nn++ % 16], sizeof(e->num[0]));
	put(e, "%s = %s\n\n", f->key, value);
}

/* Where the figure's error band comes from (band.h): its regime, the measured runs of
 * tests/validation/ in it and their residuals, or that none is. */
static void band_note(struct ex *e, const struct figure *f, const struct scenario *s,
		      const struct plan *p)
{
	struct band b;
	char why[256], text[512];
	double v = figure_value(f, p);

	if (!isfinite(v) || !band_lookup(s, f->key, v, &b))
		return;
	band_describe(&b, why, sizeof(why));
	put(e, "\n");
	wrapped(e, "  band: ", why);
	if (b.validated)
		snprintf(text, sizeof(text),
			 "%s; over its %d rows gpuplan was %+.1f%% to %+.1f%% off as a duration "
			 "or size (MAPE %.1f%%); rows and sources: gpuplan validate, VALIDATION.md",
			 b.regime, b.entry->n, 100 * b.entry->emin, 100 * b.entry->emax,
			 100 * b.entry->mape);
	else
		snprintf(text, sizeof(text),
			 "%s; the measured runs gpuplan is held to are listed by gpuplan validate "
			 "(VALIDATION.md)",
			 b.regime);
	wrapped(e, "  regime: ", text);
}

/* A detail (figure.h): its value, what it is a part of, then its parent's explanation. Its
 * own formula and result go to --json's parts, its parent's source too. */
static void detail(struct ex *e, const struct figure *f, const struct scenario *s,
		   const struct plan *p)
{
	const struct figure *up = figure_parent(f);
	struct explain_parts *parts = e->parts;
	double v = figure_value(f, p);
	char text[200];

	if (!isfinite(v)) {
		not_applicable(e, "none in this plan (the explanation below says why)");
	} else {
		snprintf(text, sizeof(text), "%s (a detail of %s)", f->label, up->key);
		formula(e, last_part(f->key), text);
		result(e, last_part(f->key),
		       figure_format(f, v, e->num[e->nn++ % 16], sizeof(e->num[0])));
		put(e, "\n");
		snprintf(text, sizeof(text),
			 "not itemized: the explanation of %s, below, derives it;", up->key);
		wrapped(e, "  ", text);
	}
	put(e, "\n");
	headline(e, up, p);
	if (parts) {
		/* the parent's formula and result are its own, not this figure's */
		struct explain_parts scratch;
		memset(&scratch, 0, sizeof(scratch));
		e->parts = &scratch;
		up->explain(e, s, p);
		e->parts = parts;
		memcpy(parts->source, scratch.source, sizeof(parts->source));
	} else {
		up->explain(e, s, p);
	}
}

int explain_key(const struct scenario *s, const struct plan *p, const char *key, char *buf,
		size_t size, struct gp_error *err)
{
	return explain_key_wrapped(s, p, key, 80, buf, size, err);
}

int explain_key_wrapped(const struct scenario *s, const struct plan *p, const char *key, int width,
			char *buf, size_t size, struct gp_error *err)
{
	return explain_key_parts(s, p, key, width, buf, size, NULL, err);
}

int explain_key_parts(const struct scenario *s, const struct plan *p, const char *key, int width,
		      char *buf, size_t size, struct explain_parts *parts, struct gp_error *err)
{
	const struct figure *f = figure_find(key);
	struct ex e;

	if (!f) {
		const char *near = explain_suggest(key);
		if (size)
			buf[0] = '\0';
		if (near)
			return gp_error_set(err, GP_EUSAGE, NULL, 0, 0,
					    "unknown key '%s' (did you mean '%s'?)", key, near);
		return gp_error_set(err, GP_EUSAGE, NULL, 0, 0,
				    "unknown key '%s' (expected a key of the JSON report, "
				    "e.g. 'time.total_s')",
				    key);
	}
	memset(&e, 0, sizeof(e));
	e.buf = buf;
	e.size = size;
	e.width = width > 0 ? width : 0;
	e.parts = parts;
	if (parts)
		memset(parts, 0, sizeof(*parts));
	if (size)
		buf[0] = '\0';
	headline(&e, f, p);
	if (f->flags & FIGURE_DETAIL)
		detail(&e, f, s, p);
	else
		f->explain(&e, s, p);
	if (f->section == FIGURE_MEMORY)
		framework_note(&e, s, p);
	band_note(&e, f, s, p);
	return 0;
}

void explain_verdicts(const struct plan *p, struct explain_verdict out[EXPLAIN_VERDICTS])
{
	char a[48], b[48];
	double bw = p->shares[BN_HBM] > p->shares[BN_INTERCONNECT] ? p->shares[BN_HBM]
								   : p->shares[BN_INTERCONNECT];

	out[0].topic = "capacity";
	out[0].key = "memory.headroom";
	units_format_human(UNIT_BYTES, p->mem.total, 3, a, sizeof(a));
	units_format_human(UNIT_BYTES, p->mem.capacity, 3, b, sizeof(b));
	out[0].state = !p->mem.fits		      ? VERDICT_FAIL
		       : p->shares[BN_CAPACITY] > 0.9 ? VERDICT_WARN
						      : VERDICT_OK;
	snprintf(out[0].text, sizeof(out[0].text), "%s: %s of %s per GPU (%.0f%%)",
		 p->mem.fits ? "fits" : "does not fit", a, b, 100 * p->shares[BN_CAPACITY]);

	out[1].topic = "bandwidth and interconnect";
	out[1].key = "bottleneck.binding";
	out[1].state = p->shares[BN_DATA_IO] > 1 || bw > 0.5 ? VERDICT_WARN : VERDICT_OK;
	snprintf(out[1].text, sizeof(out[1].text),
		 "memory bandwidth %.0f%%, interconnect %.0f%%, data loading %.0f%% of the time%s",
		 100 * p->shares[BN_HBM], 100 * p->shares[BN_INTERCONNECT],
		 100 * p->shares[BN_DATA_IO], p->shares[BN_DATA_IO] > 1 ? " (starved)" : "");

	out[2].topic = "compute";
	out[2].key = "compute.mfu";
	out[2].state = !(p->mfu > 0.2) ? VERDICT_WARN : VERDICT_OK;
	units_format_human(UNIT_FLOPS, p->peak_flops, 4, a, sizeof(a));
	snprintf(out[2].text, sizeof(out[2].text),
		 "MFU %.1f%% of %s dense, compute %.0f%% of the time", 100 * p->mfu, a,
		 100 * p->shares[BN_COMPUTE]);
}
