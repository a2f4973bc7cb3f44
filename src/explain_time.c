/* explain_time.c - how each compute and time figure is derived: FLOPs to TTFT. */
#include "explain_int.h"

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
	double w, g;
	char sym[160];
	model_attention_window(m, &w, &g);
	if (window && m->global_layers > 0 && model_local_layers(m) > 0) {
		/* global layers see every key, the windowed ones the window (plan_time.c) */
		g = (double)(m->layers - model_local_layers(m)) / L;
		keys = g * keys + (1 - g) * m->sliding_window;
		snprintf(sym, sizeof(sym),
			 "%d x %s x keys (%d global layers of %s x all, the others the "
			 "window) x heads x head_dim",
			 k, layers, m->layers - model_local_layers(m), plain(e, L));
	} else if (m->sliding_window <= 0 && m->sparse_layers > 0 && w > 0 && w < keys) {
		/* block-sparse layers: 1 / stride of every key plus the local blocks
		 * (model_attention_window, plan_time.c) */
		keys = g * keys + (1 - g) * w;
		snprintf(sym, sizeof(sym),
			 "%d x %s x keys (%s block-sparse layers: 1/%d of all plus the %s local, "
			 "the others all) x heads x head_dim",
			 k, layers, plain(e, m->sparse_layers < L ? m->sparse_layers : L),
			 m->sparse_stride, plain(e, w));
	} else {
		if (window)
			keys = m->sliding_window;
		snprintf(sym, sizeof(sym), "%d x %s x %s x heads x head_dim", k, layers,
			 window	       ? "the sliding window"
			 : training(s) ? "seq"
				       : "context");
	}
	ex_put(e, "\n");
	formula(e, "attention", sym);
	ex_numbers(e, "attention", "%d x %s x %s x %s x %s", k, plain(e, La), plain(e, keys),
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

	ex_put(e, "\n");
	formula(e, "scans",
		k == 1 ? "state-space layers x a recurrent step's FLOPs"
		       : "3 x state-space layers x a chunked scan's forward FLOPs");
	if (k == 1)
		ex_numbers(e, "scans", "%d x %s", m->ssm.layers, cnt(e, per));
	else
		ex_numbers(e, "scans", "3 x %d x %s", m->ssm.layers, cnt(e, per));
	result(e, "scans", cnt(e, k * model_ssm_flops_per_token(m, k == 1)));
}

/* "6 N", "6 N + attention", "6 N + attention + scans" as the model has them; the numbers
 * the same way. attn: the attention term is part of the sum. */
static void flops_sum(struct ex *e, const struct plan *p, int n, bool attn, int k, const char *note)
{
	char sym[160], num[160];
	struct text_acc a = text_acc_on(sym, sizeof(sym)), b = text_acc_on(num, sizeof(num));
	bool scans = p->model.ssm.layers > 0;

	text_add(&a, "%d N", n);
	text_add(&b, "%d x %s", n, cnt(e, p->active_params));
	if (attn && model_attention_layers(&p->model) > 0) {
		text_add(&a, " + attention");
		text_add(&b, " + %s", cnt(e, p->attention_flops_per_token));
	}
	if (scans) {
		double v = k * model_ssm_flops_per_token(&p->model, k == 1);
		text_add(&a, " + scans");
		text_add(&b, " + %s", cnt(e, v));
	}
	if (note)
		text_add(&a, " %s", note);
	formula(e, "flops/token", sym);
	ex_numbers(e, "flops/token", "%s", num);
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
			ex_put(e,
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
		ex_put(e,
		       "\n  with recomputation the hardware runs %s per token (HFU counts "
		       "those)\n",
		       cnt(e, p->hw_flops_per_token));
		if (s->workload.recompute == RECOMPUTE_ATTENTION) {
			/* plan_train.c attn_recompute_share */
			const struct model *m = &p->model;
			double hd = m->head_dim > 0 ? m->head_dim : (double)m->hidden / m->heads;
			double qd = m->heads * hd,
			       kvd = (m->kv_heads > 0 ? m->kv_heads : m->heads) * hd;
			double all =
			    2 * qd + 2 * kvd + (m->mlp == MLP_GATED ? 3 : 2) * (double)m->ffn;
			char t[400];
			snprintf(
			    t, sizeof(t),
			    "workload.recompute attention: the attention module's forward runs "
			    "again in the backward, its q, k, v and output projections (%s of a "
			    "layer's forward GEMMs) and the attention core; the MLP's tensors "
			    "were stored (OLMo-core selected_modules over blocks.*.attention, "
			    "PyTorch checkpoint_wrapper)",
			    pct(e, all > 0 ? (2 * qd + 2 * kvd) / all : 0));
			ex_wrapped(e, "  ", t);
		}
		if (s->workload.recompute != RECOMPUTE_NONE && s->workload.recompute_layers > 0 &&
		    s->workload.recompute_method != RECOMPUTE_UNIFORM)
			ex_put(e,
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
			ex_put(e,
			       "  context = prompt + output / 2, the average a token attends to\n");
		}
		if (scans)
			scan_flops(e, p, 1);
		/* pt_time_infer's prefill_flops_per_token */
		ex_put(e,
		       "\n  that is a decode token's; a prompt token of the prefill attends\n"
		       "  causally, to half its prompt's keys on average (P / 2, after the\n"
		       "  cached prefix), windows capping them: %s per prompt token\n",
		       cnt(e, p->prefill_flops_per_token));
		source(e, scans ? "Kaplan et al. 2020, Table 1 (forward pass = 2N per token); "
				  "scans: one recurrent step a token (mamba_ssm's "
				  "selective_state_update; fla's fused_recurrent.py), as "
				  "model_ssm_flops_per_token (src/model.c) counts it"
				: "Kaplan et al. 2020, Table 1 (forward pass = 2N per token)");
	}
}

/* An inference request's FLOPs (pt_time_infer's flops_per_request): its computed prompt
 * tokens at the prefill's causal count, its output tokens at the decode's. */
static void request_flops(struct ex *e, const struct scenario *s, const struct plan *p)
{
	double P = prompt_tokens(s), O = output_tokens(s);
	double Pc =
	    p->prefill_flops_per_token > 0
		? (p->flops_per_request - O * p->flops_per_token) / p->prefill_flops_per_token
		: 0;
	ex_put(e, "\n");
	formula(e, "per request", "prompt tokens x prefill flops/token + output x flops/token");
	ex_numbers(e, "per request", "%s x %s + %s x %s", plain(e, Pc),
		   cnt(e, p->prefill_flops_per_token), plain(e, O), cnt(e, p->flops_per_token));
	result(e, "per request", cnt(e, p->flops_per_request));
	if (Pc < P * (1 - 1e-9))
		ex_put(e, "  (the prompt's computed tokens: the cached prefix is not run)\n");
	ex_put(e, "  a prompt token attends causally to P / 2 keys on average, a decode\n"
		  "  token to prompt + output / 2 (compute.flops_per_token)\n");
}

void explain_flops_total(struct ex *e, const struct scenario *s, const struct plan *p)
{
	if (isnan(p->flops_total)) {
		not_applicable(e, "no token count (workload.tokens) is given");
		return;
	}
	if (training(s)) {
		formula(e, "flops", "flops per token x tokens");
		ex_numbers(e, "flops", "%s x %s", cnt(e, p->flops_per_token),
			   cnt(e, s->workload.tokens));
	} else {
		formula(e, "flops", "flops per request x tokens / output");
		ex_numbers(e, "flops", "%s x %s / %s", cnt(e, p->flops_per_request),
			   cnt(e, s->workload.tokens), plain(e, output_tokens(s)));
	}
	result(e, "flops", h(e, UNIT_NONE, p->flops_total));
	if (!training(s))
		request_flops(e, s, p);
	source(e, "the work of the whole run, in model FLOPs");
}

void explain_mfu(struct ex *e, const struct scenario *s, const struct plan *p)
{
	if (training(s)) {
		formula(e, "mfu", "flops per token x tokens/s / (GPUs x peak)");
		ex_numbers(e, "mfu", "%s x %s tok/s / (%d x %s)", cnt(e, p->flops_per_token),
			   plain(e, p->tokens_per_s), s->hardware.count,
			   h(e, UNIT_FLOPS, p->peak_flops));
	} else if (isnan(p->tokens_per_s)) {
		/* no throughput (disaggregated pools the engines cannot hold: the warning) */
		ex_put(e, "  mfu: null, no throughput on this deployment (see the warning)\n");
	} else {
		/* tokens/s counts generated tokens; each carries 1 / output of its request's
		 * FLOPs, the causal prefill and the decode (pt_infer_mfu) */
		formula(e, "mfu", "flops per request x tokens/s / output / (GPUs x peak)");
		ex_numbers(e, "mfu", "%s x %s tok/s / %s / (%d x %s)", cnt(e, p->flops_per_request),
			   plain(e, p->tokens_per_s), plain(e, output_tokens(s)), s->hardware.count,
			   h(e, UNIT_FLOPS, p->peak_flops));
	}
	if (training(s) || !isnan(p->tokens_per_s))
		result(e, "mfu", pct(e, p->mfu));
	if (!training(s))
		request_flops(e, s, p);
	if (s->workload.measured_tokens_per_s > 0)
		ex_put(
		    e,
		    "\n  from the measured %s tokens/s per GPU (workload.measured_tokens_per_s),\n"
		    "  not modelled\n",
		    plain(e, s->workload.measured_tokens_per_s));
	else if (s->efficiency.mfu > 0)
		ex_put(e, "\n  set by efficiency.mfu (a measurement), not modelled\n");
	else
		ex_put(e, "\n  an output of the time model: GEMMs at %s of peak, HFU %s\n",
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
	ex_wrapped(e, "  ", text);
}

/* A decode step's terms as the time model adds them (struct plan_decode): the GEMMs or the
 * weight read, whichever is longer, then attention, elementwise, communication and the fixed
 * cost; eager adds the host's wait above the CUDA-graph cap; rows ends the formula. */
static void step_terms(struct ex *e, const char *lhs, const struct plan_decode *d, bool eager,
		       const char *rows)
{
	char sym[200], wait[64] = "";

	snprintf(sym, sizeof(sym),
		 "max(GEMMs, weight read) + attention + elementwise + communication + fixed%s%s",
		 eager ? " + eager host wait" : "", rows);
	formula(e, lhs, sym);
	if (eager)
		snprintf(wait, sizeof(wait), " + %s", sec(e, d->eager_s));
	ex_numbers(e, lhs, "max(%s, %s) + %s + %s + %s + %s%s", sec(e, d->gemm_s),
		   sec(e, d->weight_read_s), sec(e, d->attention_s), sec(e, d->elementwise_s),
		   sec(e, decode_comm(d)), sec(e, d->fixed_s), wait);
}

/* One decode step, term by term (tpot; the step of an inference plan). */
static void decode_step(struct ex *e, const char *lhs, const struct plan *p)
{
	const struct plan_decode *d = &p->decode;
	if (d->spec_tokens_per_step > 0) {
		/* speculative decoding: the verify pass and the drafts over the tokens gained */
		formula(e, lhs, "(verify pass + K draft steps) / tokens gained a step");
		ex_numbers(e, lhs, "(%s + %s) / %s", sec(e, d->verify_s), sec(e, d->draft_s),
			   plain(e, d->spec_tokens_per_step));
		result(e, lhs, sec(e, d->step_s));
		step_terms(e, "verify pass", d, false, ", over K + 1 rows a sequence");
		result(e, "verify pass", sec(e, d->verify_s));
		return;
	}
	/* above the CUDA-graph cap: the host's eager launches outlast the GPU */
	step_terms(e, lhs, d, d->eager_s > 0, "");
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
			"of steps prompts join (n a step, Poisson), times a prompt's chunks "
			"where it is longer than the budget's room");
		ex_numbers(e, lhs, "(1 - %s) x %s + %s x %s", plain(e, v->step_frac),
			   sec(e, v->step_decode_s), plain(e, v->step_frac),
			   sec(e, v->step_joined_s));
	} else {
		formula(e, lhs, "decode step of the running batch (no prompt joins it)");
		ex_numbers(e, lhs, "%s", sec(e, v->step_decode_s));
	}
	result(e, lhs, sec(e, p->tpot_s));
	ex_put(e, "\n");
	decode_step(e, "decode step", p);
	ex_put(e, "\n");
	if (v->step_frac > 0 && sched_of(v->scheduler) == SCHED_CHUNKED)
		ex_wrapped(e, "  ",
			   "a step with prompts: one pass of the decodes and the prompt rows under "
			   "the budget, the weights read once (Sarathi-Serve);");
	else if (v->step_frac > 0)
		ex_wrapped(
		    e, "  ",
		    "a step with prompts: the decode step after a prefill pass of the waiting "
		    "prompts, which it waits for (prefill-first);");
	return true;
}

static void ex_parts(struct ex *e, const struct plan *p)
{
	const struct figure *f;

	ex_put(e, "\n  where the time goes:\n");
	for (int i = 0; (f = figure_time_part(i)) != NULL; i++) {
		double v = figure_value(f, p);
		if (!(v > 0))
			continue;
		ex_put(e, "    %-20s %10s  %5s\n", f->label, sec(e, v), pct(e, v / p->step_s));
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
 * or its field), what it takes alone and what of it the step shows (src/plan_train.c,
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
	char text[600];
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
			ex_put(e,
			       "\n  communication behind compute (%s%s defaults unless set; "
			       "parallel.*):\n",
			       paper ? "the papers'" : framework_name(s->workload.framework),
			       paper ? "" : "'s");
			any = true;
		}
		ex_put(e, "    %-18s %-5s %8s alone %8s shown  %s\n", rows[i].name,
		       overlap_state(rows[i].on), sec(e, rows[i].alone), sec(e, rows[i].shown),
		       rows[i].field);
	}
	if (!any)
		return;
	if (o->speed < 1) {
		const struct gpu *g = &s->hardware.gpu;
		char why[200];
		if (s->efficiency.overlap > 0)
			snprintf(why, sizeof(why), "efficiency.overlap");
		else if (g->sms > OVERLAP_COMM_SMS)
			snprintf(
			    why, sizeof(why),
			    "the collective holds %d of the GPU's %d SMs: (%d - %d) / %d, "
			    "Transformer Engine's userbuffers num_sm and NCCL's ring channels, "
			    "MAXCHANNELS / 2; efficiency.overlap sets a speed",
			    OVERLAP_COMM_SMS, g->sms, g->sms, OVERLAP_COMM_SMS, g->sms);
		else
			snprintf(why, sizeof(why),
				 "the GPU's SM count not known: Lee et al. 2025, arXiv 2507.03114, "
				 "18.9%% slower on average; efficiency.overlap sets a speed");
		snprintf(text, sizeof(text),
			 "overlapped: shown = max(comm - compute, comm x (1 - speed)), the compute "
			 "running at %s of its speed alone while the communication does (%s)%s",
			 pct(e, o->speed), why,
			 o->tp == OVERLAP_ON ? "; a TP GEMM split in chunks leaves its last "
					       "reduce-scatter chunk out"
					     : "");
	} else
		snprintf(text, sizeof(text),
			 "overlapped: shown = max(comm - compute, 0), without contention: the "
			 "papers' idealised overlap the time model was calibrated with "
			 "(efficiency.overlap sets a speed)%s",
			 o->param == OVERLAP_PAPER && p->zero >= 1
			     ? "; ZeRO-1/2's reduce-scatter and all-gather count as one "
			       "all-reduce behind the backward (the papers' accounting)"
			     : "");
	ex_wrapped(e, "  ", text);
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
			 plain(e, plan_loss_traffic(w, p->tp, act)),
			 l == LOSS_FP32 && fw->loss_parallel && p->tp > 1
			     ? "loss_parallel's unfused fp32 ops on the tp-sharded logits "
			       "(torch/distributed/tensor/parallel/loss.py: upcast, max, sub, "
			       "exp, sum, sub; zeros, exp, add, mul, downcast), in the step's "
			       "memory-bound phase at HBM bandwidth"
			 : l == LOSS_FP32	? "the upcast and cross_entropy's kernels"
			 : fw->loss_chunks <= 0 ? "one fused pass (llm.c's fused_classifier)"
						: "each chunk upcast and reduced");
		ex_put(e, "\n");
		ex_wrapped(e, "  ", text);
		/* its seconds as plan_train.c charges them: the last stage's tokens a step
		 * (micro-batches x micro_batch x seq_len / cp) x vocab / tp logits */
		if (l == LOSS_FP32 && fw->loss_parallel && p->tp > 1) {
			double hbm = s->hardware.gpu.hbm_bytes_per_s > 0
					 ? s->hardware.gpu.hbm_bytes_per_s
					 : 1e12;
			double tok = (double)p->micro_batches *
				     (w->micro_batch > 0 ? w->micro_batch : 1) *
				     (w->seq_len > 0 ? w->seq_len : 1) / (p->cp > 0 ? p->cp : 1);
			snprintf(
			    text, sizeof(text),
			    "loss_parallel's loss: %s a step (%s logits a GPU x %s bytes at "
			    "%s of HBM bandwidth); the three all-reduces over tp (max, sum of "
			    "exponentials, target logit) carry 4 bytes a token, not charged",
			    sec(e, tok * p->model.vocab / p->tp * plan_loss_traffic(w, p->tp, act) /
				       (hbm * p->hbm_efficiency)),
			    cnt(e, tok * p->model.vocab / p->tp),
			    plain(e, plan_loss_traffic(w, p->tp, act)), pct(e, p->hbm_efficiency));
			ex_wrapped(e, "  ", text);
		}
	}
	if (fw->elt_h_fwd > 0) {
		snprintf(
		    text, sizeof(text),
		    "elementwise: %s's own kernels move %s h-sized elements a layer and token "
		    "forward and %s backward (fused residual and norm kernels, bias gradients; "
		    "%s), not the generic 22 and 44",
		    framework_name(w->framework), plain(e, fw->elt_h_fwd), plain(e, fw->elt_h_bwd),
		    fw->source);
		ex_wrapped(e, "  ", text);
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
			ex_wrapped(e, "  ", text);
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
	ex_put(e, "\n");
	ex_wrapped(e, "  ", text);
}

/* A training step pinned by a measurement (workload.measured_tokens_per_s, or
 * efficiency.mfu): the step it gives, first, and how the model's parts were scaled to it
 * (src/plan_train.c scales every part by measured step / modelled step). */
static void measured_step(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct workload *w = &s->workload;
	struct scenario m = *s;
	struct plan q;
	char text[300];

	if (w->measured_tokens_per_s > 0) {
		formula(e, "step", "global batch x seq / (measured tokens/s per GPU x GPUs)");
		ex_numbers(e, "step", "%d x %d / (%s x %d)", p->global_batch, w->seq_len,
			   plain(e, w->measured_tokens_per_s), s->hardware.count);
	} else {
		formula(e, "step", "flops per step / (GPUs x peak x MFU)");
		ex_numbers(e, "step", "%s / (%d x %s x %s)", cnt(e, p->flops_per_step),
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
	ex_put(e, "\n");
	ex_wrapped(e, "  ", text);
	ex_put(e, "\n");
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
		ex_put(e, "  %4s   micro-batch = matmuls + attention + memory-bound + comm\n", "");
		ex_numbers(e, "step", "%d x %s + %s + %s + %s + %s%s%s%s%s", p->micro_batches,
			   sec(e, (p->parts.matmul_s + p->parts.attention_s +
				   p->parts.memory_bound_s + p->parts.tp_comm_s +
				   p->parts.pp_comm_s + p->parts.ep_comm_s + p->parts.cp_comm_s) /
				      (p->micro_batches > 0 ? p->micro_batches : 1)),
			   sec(e, p->parts.bubble_s), sec(e, p->parts.dp_comm_s),
			   sec(e, p->parts.zero3_s), sec(e, p->parts.optimizer_s),
			   extra ? " + " : "", extra ? sec(e, p->parts.offload_s) : "",
			   extra ? " + " : "", extra ? sec(e, p->parts.data_s) : "");
		result(e, "step", sec(e, p->step_s));
		if (s->workload.optimizer_states == STATES_PAGED && p->mem.optimizer_evicted > 0) {
			/* plan_train.c: the paged states on the host, up and down a step */
			double bw = s->hardware.gpu.pcie_bytes_per_s > 0
					? s->hardware.gpu.pcie_bytes_per_s
					: 16e9;
			ex_put(e, "\n");
			formula(e, "paged", "2 x paged states on the host / PCIe");
			ex_numbers(e, "paged", "2 x %s / %s", byt(e, p->mem.optimizer_evicted),
				   h(e, UNIT_BYTES_PER_S, bw));
			result(e, "paged", sec(e, 2 * p->mem.optimizer_evicted / bw));
			ex_put(e, "\n");
			ex_wrapped(e, "  ",
				   "part of offload: bitsandbytes' paged optimizer prefetches "
				   "each state to the GPU before its update (prefetch_state), "
				   "one fused kernel reads and writes it once, and the driver "
				   "evicts it to the host again when the forward needs the "
				   "room; the step waits for the copies (bitsandbytes "
				   "optim/optimizer.py, Optimizer8bit.step)");
		}
		if (p->ssm_scan_s > 0) {
			/* the state-space scans inside the attention part (plan_train.c
			 * pt_ssm_scan_s) */
			double m = p->micro_batches > 0 ? p->micro_batches : 1;
			ex_put(e, "\n");
			formula(e, "attention", "attention cores + state-space scans");
			ex_numbers(e, "attention", "%s + %d x %s",
				   sec(e, p->parts.attention_s - p->ssm_scan_s), (int)m,
				   sec(e, p->ssm_scan_s / m));
			result(e, "attention", sec(e, p->parts.attention_s));
			ex_put(e, "\n");
			ex_wrapped(e, "  ",
				   "the scans of a micro-batch: the slower of their FLOPs (tensor "
				   "cores for Mamba-2's SSD and Gated DeltaNet, at the attention "
				   "kernels' efficiency; FP32 CUDA cores for Mamba's selective "
				   "scan) and their HBM traffic, once forward, again where layers "
				   "recompute, and twice backward (mamba_ssm ssd_combined.py, "
				   "selective_scan; fla chunk_gated_delta_rule)");
		}
		if (p->cp > 1) {
			ex_put(e, "\n");
			ex_wrapped(
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
			ex_put(e, "\n");
			ex_wrapped(
			    e, "  ",
			    "expert all-to-alls overlapped with another micro-batch's compute "
			    "(parallel.ep_overlap; DeepSeek-V3's DualPipe): a micro-batch's "
			    "comm counts only the all-to-all time beyond its matmuls, "
			    "attention and memory-bound work");
		}
		ex_parts(e, p);
		ex_eager(e, s, p);
		ex_loss_dequant(e, s, p);
		ex_overlap(e, s, p);
		ex_put(e, "  GEMMs at %s of the %s peak (shape and GPU%s)\n",
		       pct(e, p->matmul_efficiency), h(e, UNIT_FLOPS, p->peak_flops),
		       pinned ? ", in the model" : "");
		if (p->precision == DTYPE_FP8 && s->hardware.gpu.peak_flops[DTYPE_FP8] > 0 &&
		    framework_fp8_scope(s->workload.framework, s->workload.fp8_scope) == FP8_LINEAR)
			ex_wrapped(
			    e, "  ",
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
void ex_peak_note(struct ex *e, const struct scenario *s, const struct plan *p)
{
	char text[400];
	snprintf(text, sizeof(text),
		 "peak: %s, the dense %s figure (2:4 sparse datasheet figures are never used); "
		 "MFU %s, %s",
		 h(e, UNIT_FLOPS, p->peak_flops), dtype_name(p->precision), pct(e, p->mfu),
		 s->efficiency.mfu > 0 ? "as set by efficiency.mfu" : "modelled");
	ex_put(e, "\n");
	ex_wrapped(e, "  ", text);
	if (s->efficiency.mfu >= 0.99)
		ex_wrapped(e, "  ",
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
	ex_numbers(e, "total", "%s / %s", cnt(e, s->workload.tokens), cnt(e, p->tokens_per_s));
	result(e, "total", sec(e, p->total_s));
	if (training(s)) {
		ex_numbers(e, "total", "flops/token x tokens / (GPUs x peak x MFU)");
		ex_numbers(e, "total", "%s x %s / (%d x %s x %s)", cnt(e, p->flops_per_token),
			   cnt(e, s->workload.tokens), s->hardware.count,
			   h(e, UNIT_FLOPS, p->peak_flops), pct(e, p->mfu));
		result(e, "total", sec(e, p->total_s));
		ex_peak_note(e, s, p);
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
	ex_numbers(e, "gpu_hours", "%d x %s / 1 h", s->hardware.count, sec(e, p->total_s));
	result(e, "gpu_hours", plain(e, p->gpu_hours));
	source(e, "definition: GPU-hours are what clouds bill");
}

static void ex_tokens(struct ex *e, const struct scenario *s, const struct plan *p, bool per_gpu)
{
	const struct workload *w = &s->workload;
	int n = s->hardware.count;
	if (per_gpu) {
		formula(e, "per GPU", "tokens/s / GPUs");
		ex_numbers(e, "per GPU", "%s / %d", cnt(e, p->tokens_per_s), n);
		result(e, "per GPU", cnt(e, p->tokens_per_s_per_gpu));
		ex_put(e, "\n");
	}
	if (training(s) && w->measured_tokens_per_s > 0) {
		formula(e, "tokens/s", "measured per GPU x GPUs (workload.measured_tokens_per_s)");
		ex_numbers(e, "tokens/s", "%s x %d", plain(e, w->measured_tokens_per_s), n);
	} else if (training(s)) {
		formula(e, "tokens/s", "global batch x seq / step");
		ex_numbers(e, "tokens/s", "%d x %d / %s", p->global_batch, w->seq_len,
			   sec(e, p->step_s));
	} else if (w->measured_tokens_per_s > 0) {
		formula(e, "tokens/s", "measured per GPU x GPUs");
		ex_numbers(e, "tokens/s", "%s x %d", plain(e, w->measured_tokens_per_s), n);
	} else if (!isnan(p->serving.run_s)) {
		/* a finite run: its tokens over its duration (src/plan_serve.c, finite_run) */
		formula(e, "tokens/s", "workload.requests x output / the run's duration");
		ex_numbers(e, "tokens/s", "%s x %s / %s", plain(e, w->requests),
			   plain(e, output_tokens(s)), sec(e, p->serving.run_s));
	} else if (!isnan(p->serving.scheduler)) {
		/* the loaded engine: each replica completes requests_per_s (src/plan_serve.c,
		 * pt_serve), each of output tokens */
		bool pd = sched_of(p->serving.scheduler) == SCHED_DISAGG;
		formula(e, "tokens/s",
			pd ? "decode engines x requests/s completed per decode engine x output"
			   : "replicas x requests/s completed per replica x output");
		ex_numbers(e, "tokens/s", "%s x %s x %s",
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
		ex_numbers(e, "tokens/s", "%s x %s x %s / (%s + %s x %s)", plain(e, R), plain(e, B),
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
		ex_put(e, "\n");
		if (d->batch != batch)
			snprintf(text, sizeof(text),
				 "a step decodes a micro-batch of %s of the %s sequences through "
				 "the %d stages;",
				 plain(e, d->batch), plain(e, batch), p->pp);
		else
			snprintf(text, sizeof(text), "batch %s;", plain(e, d->batch));
		ex_wrapped(e, "  ", text);
		snprintf(text, sizeof(text),
			 "weights (less the embedding, a lookup) read at %s x %s;",
			 h(e, UNIT_BYTES_PER_S, s->hardware.gpu.hbm_bytes_per_s),
			 pct(e, p->hbm_efficiency));
		ex_wrapped(e, "  ", text);
		/* a state-space layer's state joins the KV read (plan_infer.c,
		 * decode_lines) */
		snprintf(text, sizeof(text),
			 p->model.ssm.layers > 0
			     ? "attention and the recurrent state: the slower of their FLOPs "
			       "(%s, the state's update on the CUDA cores) and their reads (%s: "
			       "the KV cache, each sequence's state read and written);"
			     : "attention: the slower of its FLOPs (%s) and its KV read (%s);",
			 sec(e, d->attention_flops_s), sec(e, d->kv_read_s));
		ex_wrapped(e, "  ", text);
		if (decode_comm(d) > 0) {
			snprintf(text, sizeof(text),
				 "communication: TP all-reduces %s, EP all-to-alls %s, pipeline "
				 "hand-offs %s;",
				 sec(e, d->tp_comm_s), sec(e, d->ep_comm_s), sec(e, d->pp_comm_s));
			ex_wrapped(e, "  ", text);
		}
		ex_wrapped(e, "  ", "fixed: per-step launches, the host's part, dequantisation;");
		if (d->eager_s > 0) {
			snprintf(text, sizeof(text),
				 "eager host wait: batch %s is above the engine's CUDA-graph cap "
				 "(SGLang cuda_graph_max_bs, python/sglang/srt/server_args.py; "
				 "model_executor/cuda_graph_runner.py can_run), so its layers are "
				 "launched eagerly from the host, %s a step, which the GPU's work "
				 "does not cover;",
				 plain(e, d->batch), sec(e, d->step_s));
			ex_wrapped(e, "  ", text);
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
		ex_wrapped(e, "  ", text);
	}
	ex_put(e, "  decode turns compute-bound at batch %s\n",
	       plain(e, p->decode_compute_bound_batch));
	ex_wrapped(e, "  ",
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
		ex_numbers(e, "ttft", "%s + %s", sec(e, p->serving.ttft_service_s),
			   sec(e, p->serving.wait_s));
	} else if (!isnan(p->serving.scheduler)) {
		formula(e, "ttft", "a prompt's own passes + the wait before the first");
		result(e, "ttft", "unbounded");
		ex_put(e, "\n");
		ex_wrapped(e, "  ",
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
		ex_numbers(e, "ttft", "%s + %s + %s", sec(e, p->host_kv_load_s),
			   sec(e, p->ttft_s - step - p->host_kv_load_s), sec(e, step));
	} else {
		/* a new request's prompt, then the decode step of the batch it joins (none
		 * when it runs alone): src/plan_infer.c, ttft_s */
		double step = plan_batch(s, p) > 1 ? p->tpot_s : 0;
		formula(e, "ttft", "prefill of the prompt + one decode step of the running batch");
		ex_numbers(e, "ttft", "%s + %s", sec(e, p->ttft_s - step), sec(e, step));
	}
	result(e, "ttft", sec(e, p->ttft_s));
	if (p->ssm_scan_s > 0) {
		/* the state-space scans inside the prompt's prefill (plan_infer.c,
		 * pt_prefill_s and pt_ssm_scan_s) */
		const struct workload *w = &s->workload;
		double hit = isnan(p->prefix_hit) ? w->prefix_cache_hit : p->prefix_hit;
		double Pc = (hit > 0 && hit < 1 ? 1 - hit : 1) *
			    (w->prompt_tokens > 0 ? w->prompt_tokens : 1);
		ex_put(e, "\n");
		formula(e, "scans", "prompt tokens computed x a token's state-space scans");
		ex_numbers(e, "scans", "%s x %s", plain(e, Pc), sec(e, p->ssm_scan_s / Pc));
		result(e, "scans", sec(e, p->ssm_scan_s));
		ex_put(e, "\n");
		ex_wrapped(e, "  ",
			   "of the prefill: the slower of the scans' FLOPs (tensor cores for "
			   "Mamba-2's SSD and Gated DeltaNet, at the attention kernels' "
			   "efficiency; FP32 CUDA cores for Mamba's selective scan) and their HBM "
			   "traffic, over tp (mamba_ssm _mamba_chunk_scan_combined_fwd, "
			   "selective_scan_fwd; fla chunk_gated_delta_rule). A decode step reads "
			   "and writes each sequence's recurrent state and updates it on the CUDA "
			   "cores (selective_state_update), whatever the context");
	}
	if (!isnan(p->serving.scheduler) && p->serving.ttft_ahead_s > 0) {
		char text[400];
		snprintf(text, sizeof(text),
			 "a prompt's own passes include the step launched ahead of it, %s: "
			 "SGLang's overlap scheduler runs the next batch before it takes the "
			 "last one's results (disable_overlap_schedule = False, server_args.py; "
			 "event_loop_overlap, managers/scheduler.py), so a request received "
			 "while a step runs waits for that step and the one behind it",
			 sec(e, p->serving.ttft_ahead_s));
		ex_put(e, "\n");
		ex_wrapped(e, "  ", text);
	}
	if (p->engine == ENGINE_CUDA_GRAPHS &&
	    framework_graph_max_bs(s->workload.framework, s->hardware.gpu.memory_bytes) > 0) {
		ex_put(e, "\n");
		ex_wrapped(e, "  ",
			   "prefill passes run eagerly (SGLang captures decode batches only: "
			   "model_executor/cuda_graph_runner.py; ModelRunner.forward_extend), so a "
			   "pass lasts at least the host's launches of its layers (EAGER_LAYER_S, "
			   "src/plan_time_int.h), which a short prompt's GPU work does not cover");
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
		ex_put(e, "\n");
		ex_wrapped(e, "  ", text);
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
		ex_put(e, "\n");
		ex_wrapped(e, "  ", text);
	} else
		ex_put(e, "\n  prefill: %d tokens x %s FLOPs at the GEMM efficiency of the shape\n",
		       s->workload.prompt_tokens, cnt(e, p->flops_per_token));
	source(e, !isnan(p->serving.scheduler)
		      ? "TTFT = queueing + prefill, as vLLM's serving benchmark measures it; "
			"the queue: see serving.wait_s"
		      : "TTFT = queueing + prefill, as vLLM's serving benchmark measures it; "
			"no queue in front (workload.scheduler alone)");
}
