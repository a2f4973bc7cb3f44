/* plan_time.c - step time, throughput, latency, cost, energy, reliability and bottlenecks.
 *
 * This file holds the context of one plan (ctx_init), plan_compute_time, what follows the
 * time (finish), the deadline and batch solvers and the parts by index; the step itself is
 * in plan_train.c (training), plan_infer.c (the inference step) and plan_serve.c (serving
 * under load), and what they share in plan_time_int.h.
 *
 * Efficiency is an output here, not an input: every time is built from the work a part
 * does (FLOPs, bytes, messages) and the GPU's datasheet figures (dense peak, HBM bandwidth,
 * link and network bandwidth, CUDA-core FP32 rate), through ONE set of global constants
 * (plan_time_int.h). Nothing depends on the model's name, the GPU's name or a benchmark row.
 * `efficiency.*` in the scenario overrides the modelled figures for users who measured.
 *
 * Training step (per micro-batch, on the last pipeline stage, then per step):
 *   GEMMs of each layer at the shape's efficiency (roofline with their operand bytes),
 *   attention core (FlashAttention or materialised scores), elementwise work at HBM speed,
 *   TP all-reduces per layer, EP all-to-alls, PP point-to-point; times m micro-batches
 *   plus the bubble (p-1)/v micro-batches; plus the DP reduction not hidden by the last
 *   backward, ZeRO-3 gathers not hidden by compute, the optimizer step (HBM-bound) or
 *   its offload (PCIe + CPU), and data loading slower than the step.
 * Inference: prefill = GEMMs at M = prompt tokens + causal attention; a decode step =
 *   max(GEMM compute, weight read) + max(attention FLOPs, KV read) + fixed per-step costs;
 *   every term is a line in the batch B, so the SLO batch and the compute-bound batch are
 *   closed-form. Throughput at B = B x out / (prefill of B prompts + out x step).
 *
 * Calibration. The constants marked "calibrated" were fitted once, together, to every row
 * of tests/unit/test_time.c (Megatron-LM Table 1, 10 rows on A100; MosaicML llm-foundry,
 * 7 rows on H100; llama.cpp tg512, 6 rows on RTX 3090/4090; TensorRT-LLM Llama 3.1 8B FP8,
 * 5 columns on H100) and the seed case of tests/unit/test_seed_time.c
 * (test_seed11_decode_latency): a random search (6 restarts x 150,000 steps) over
 * the constants within physically plausible ranges (stated with each constant), minimising
 * the largest of (row error / its tolerance) and (mean error / its tolerance) plus half the
 * average (row error / tolerance), so that no family of rows is left with a bias; then
 * rounded. Every row ends within 0.8 of its tolerance (the per-row errors are printed by
 * the test). The others are datasheet-like figures or documented assumptions. To redo
 * it, compile plan_time.c, plan_train.c, plan_infer.c and plan_serve.c with
 * -DNAME=expression for each constant (every constant is #ifndef-guarded) against a
 * driver that varies them and scores the rows.
 *
 * Engines. Those rows decode with llama.cpp's kernels (workload.engine: llama.cpp, the
 * default). workload.engine: cuda-graphs swaps in the decode kernels of CUDA-graph
 * serving engines (see the GRAPH_* constants); only its own three constants were fitted,
 * to the 41 rows of tests/unit/engine_rows.h, and nothing above changed with them.
 */
#include "plan_time_int.h"

/* One GEMM (m x k) . (k x n), count times: the slower of its compute at the shape's
 * efficiency and its operand traffic at HBM bandwidth (roofline, Williams et al. 2009).
 * At the efficiency emax sat(m) sat(n) sat(k), the compute time 2 m n k count /
 * (peak emax sat(m) sat(n) sat(k)) is 2 count (m + D)(n + D)(k + D) / (peak emax): the same
 * figure without a division (this runs a dozen times per plan). */
double pt_gemm_s(struct tctx *c, double m, double n, double k, double count, double wbytes)
{
	double t_c, t_m, t;

	if (!(m > 0 && n > 0 && k > 0 && count > 0))
		return 0;
	t_c = 2 * count * (m + GEMM_DIM_HALF) * (n + GEMM_DIM_HALF) * (k + GEMM_DIM_HALF) *
	      c->inv_peak_emax;
	t_m = count * ((m * k + m * n) * c->act + k * n * wbytes) * c->inv_hbm;
	t = t_c > t_m ? t_c : t_m;
	c->gemm_flops += 2 * m * n * k * count;
	c->gemm_time += t;
	return t;
}

/* Adds a warning unless the memory part already gave the same one. */
static void warn_once(struct plan *p, enum plan_warning_code code, double a, double b)
{
	for (int i = 0; i < p->nwarnings; i++)
		if (p->warnings[i].code == code)
			return;
	plan_warn(p, code, a, b);
}

/* The dense peak at the compute precision, or the nearest precision the GPU has; *used
 * gets the precision whose GEMMs then run. */
static double peak_for(const struct scenario *s, struct plan *p, enum dtype prec, enum dtype *used)
{
	static const enum dtype order[] = {DTYPE_BF16, DTYPE_FP16, DTYPE_TF32, DTYPE_FP32};
	const struct gpu *g = &s->hardware.gpu;

	*used = prec;
	if ((unsigned)prec < DTYPE_COUNT && g->peak_flops[prec] > 0)
		return g->peak_flops[prec];
	for (unsigned i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		if (g->peak_flops[order[i]] > 0) {
			warn_once(p, PW_NO_PRECISION_PEAK, (double)order[i], (double)prec);
			*used = order[i];
			return g->peak_flops[order[i]];
		}
	}
	warn_once(p, PW_NO_PRECISION_PEAK, -1, (double)prec);
	return 1e12; /* a GPU without any figure: 1 TFLOP/s keeps the figures finite */
}

static double elem_bytes(enum dtype t)
{
	double b = dtype_bytes(t);
	return b > 0 ? b : 2;
}

static void ctx_init(struct tctx *c, const struct scenario *s, struct plan *p)
{
	const struct gpu *g = &s->hardware.gpu;
	double e_hbm = s->efficiency.hbm > 0 ? s->efficiency.hbm : HBM_EFF;
	double e_link = s->efficiency.network > 0 ? s->efficiency.network : LINK_EFF;
	double e_net = s->efficiency.network > 0 ? s->efficiency.network : NET_EFF;
	double link = g->link_bytes_per_s > 0 ? g->link_bytes_per_s / 2 : g->pcie_bytes_per_s;
	double hbm_peak;
	enum dtype used;

	c->s = s;
	c->p = p;
	c->peak = peak_for(s, p, p->precision, &used);
	p->peak_precision = used; /* what the report's peak names (report.c) */
	c->fp32 = g->peak_flops[DTYPE_FP32];
	hbm_peak = g->hbm_bytes_per_s > 0 ? g->hbm_bytes_per_s : 1e12;
	c->hbm = hbm_peak * e_hbm;
	if (link <= 0)
		link = 16e9; /* PCIe Gen3 x16 when nothing is known */
	c->link = link * e_link;
	c->pcie = (g->pcie_bytes_per_s > 0 ? g->pcie_bytes_per_s : 16e9) * e_link;
	c->net = (g->network_bytes_per_s > 0 ? g->network_bytes_per_s : 12.5e9) * e_net;
	if (c->net > c->link)
		c->net = c->link;
	c->gpn = gpus_per_node(s);
	c->domain = g->link_domain > 0 ? g->link_domain : c->gpn;
	/* activations: 4 bytes under fp32/tf32, else 16-bit (fp8 GEMMs keep bf16 activations
	 * between them, Transformer Engine) */
	c->act = dtype_bytes(p->precision) >= 4 ? 4 : 2;
	c->gemm_flops = c->gemm_time = 0;
	/* the ridge point per element (FLOP x operand bytes per byte of bandwidth): FP8
	 * doubles the FLOPs and halves the operand bytes, so it feeds like bf16; a GPU
	 * without the precision runs its GEMMs in the fallback's (fp8 on an A100: bf16) */
	c->emax = GEMM_EFF_MAX *
		  sqrt(GEMM_RIDGE_REF * hbm_peak / (c->peak * elem_bytes(used))); /* exponent 1/2 */
	if (c->emax > GEMM_EFF_CAP)
		c->emax = GEMM_EFF_CAP;
	/* a GPU whose 16-bit GEMM fraction was fitted to measured runs (catalog/gpus.yaml
	 * gemm_efficiency, its rows named there) takes it for its bf16 and fp16 GEMMs */
	if (g->gemm_efficiency > 0 && (used == DTYPE_BF16 || used == DTYPE_FP16))
		c->emax = g->gemm_efficiency;
	/* efficiency.gemm: a measured GEMM efficiency (calibrate fits it to a prefill or a
	 * compute-bound decode) replaces the ridge-point model */
	if (s->efficiency.gemm > 0)
		c->emax = s->efficiency.gemm;
	p->gemm_efficiency = c->emax;
	c->inv_peak_emax = 1 / (c->peak * c->emax);
	c->inv_hbm = 1 / c->hbm;
	c->it = p->tp > 0 ? 1.0 / p->tp : 1;
	/* tensor parallelism beyond the link domain runs its all-reduces over the network */
	{
		int domain = g->link_domain > 0 ? g->link_domain : g->gpus_per_node;
		if (domain > 0 && p->tp > domain)
			warn_once(p, PW_TP_ACROSS_NODES, p->tp, domain);
	}
	p->hbm_efficiency = e_hbm;
	p->network_efficiency = e_net;
	p->peak_flops = c->peak;
	/* fp8 training of the linear layers only (workload.fp8_scope; Transformer Engine's
	 * fp8_autocast converts its Linear modules, torchao's convert_to_float8_training
	 * nn.Linear, torchtitan's filter leaves the output layer out; DeepSeek-V3 report,
	 * arXiv 2412.19437, Section 3.3.1: the embedding, output head, normalisation and
	 * attention keep bf16): the attention core and the output layer run at the bf16
	 * peak */
	c->bf16_k = 1;
	if (used == DTYPE_FP8 &&
	    (s->workload.kind == WL_TRAIN || s->workload.kind == WL_FINETUNE) &&
	    framework_fp8_scope(s->workload.framework, s->workload.fp8_scope) == FP8_LINEAR) {
		double b16 = g->peak_flops[DTYPE_BF16] > 0 ? g->peak_flops[DTYPE_BF16]
							   : g->peak_flops[DTYPE_FP16];
		if (b16 > 0)
			c->bf16_k = c->peak / b16;
	}
}

static const struct plan_time_parts no_parts;
static const struct plan_decode no_decode = {NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN,
					     NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN};
static const struct plan_overlap no_overlap = {OVERLAP_OFF, OVERLAP_OFF, OVERLAP_OFF, NAN, NAN,
					       NAN,	    NAN,	 NAN,	      NAN, NAN};

static void set_nan(struct plan *p)
{
	p->flops_per_token = p->hw_flops_per_token = p->attention_flops_per_token = NAN;
	p->prefill_flops_per_token = p->flops_per_request = NAN;
	memset(&p->share_weigh, 0, sizeof(p->share_weigh));
	p->ssm_scan_s = 0;
	p->flops_per_step = p->flops_total = NAN;
	p->mfu = p->hfu = p->matmul_efficiency = NAN;
	p->step_s = p->total_s = p->gpu_hours = NAN;
	p->tokens_per_s = p->tokens_per_s_per_gpu = NAN;
	p->ttft_s = p->tpot_s = p->decode_compute_bound_batch = NAN;
	p->slo_batch = p->replicas = p->gpus_required = NAN;
	p->prefix_hit = p->prefix_host_share = p->host_kv_load_s = p->host_kv_copy_s = NAN;
	p->usd_total = p->usd_per_hour = p->usd_per_million_tokens = p->kwh = NAN;
	p->expected_interruptions = p->checkpoint_interval_s = p->checkpoint_write_s = NAN;
	p->goodput = NAN;
	p->hbm_efficiency = p->network_efficiency = p->gemm_efficiency = p->peak_flops = NAN;
	p->parts = no_parts; /* a copy, not a zero-fill: rep stos is slow to start */
	p->decode = no_decode;
	p->overlap = no_overlap;
	pt_serving_nan(&p->serving);
	for (int i = 0; i < BN_COUNT; i++)
		p->shares[i] = 0;
}

void pt_shape_get(const struct plan *p, struct shape *sh)
{
	const struct model *m = &p->model;

	sh->h = m->hidden > 0 ? m->hidden : 1;
	sh->heads = m->heads > 0 ? m->heads : 1;
	sh->hd = m->head_dim > 0 ? m->head_dim : sh->h / sh->heads;
	sh->qd = sh->heads * sh->hd;
	sh->kvd = (m->kv_heads > 0 ? m->kv_heads : sh->heads) * sh->hd;
	/* per-layer K/V heads (DeciLM's n_heads_in_group, model.kv_sum): the attention
	 * layers' K and V projections are as wide as their own heads, on average the sum over
	 * those layers, not kv_heads (their rounded-up mean) */
	if (m->kv_sum > 0 && model_attention_layers(m) > 0)
		sh->kvd = (double)m->kv_sum / model_attention_layers(m) * sh->hd;
	sh->qgate = m->attention_gate ? sh->qd : 0;
	sh->layers = m->layers > 0 ? m->layers : 1;
	sh->vocab = m->vocab;
	sh->ffn = m->ffn;
	sh->mats = m->mlp == MLP_GATED ? 3 : 2;
	sh->experts = m->moe.experts;
	sh->moe_layers = 0;
	sh->active = sh->expert_ffn = sh->shared_ffn_total = 0;
	if (m->moe.experts > 0) {
		sh->moe_layers = sh->layers - m->moe.dense_layers;
		if (sh->moe_layers < 0)
			sh->moe_layers = 0;
		sh->active = m->moe.active;
		sh->expert_ffn = m->moe.expert_ffn;
		sh->shared_ffn_total = (double)m->moe.shared *
				       (m->moe.shared_ffn ? m->moe.shared_ffn : m->moe.expert_ffn);
	}
	sh->attn = model_attention_share(m);
	/* hybrids (model.h): the layers' GEMMs in proportion to the layers that have them */
	sh->ssm = sh->ssm_in = sh->ssm_di = 0;
	sh->mlp_dense = 1;
	if (m->ssm.layers > 0 && m->layers > 0) {
		sh->ssm = (double)m->ssm.layers / m->layers;
		sh->ssm_di = model_ssm_inner(m);
		/* in_proj and out_proj carry the mixer's FLOPs (model_ssm_in_width) */
		sh->ssm_in = model_ssm_in_width(m);
	}
	if (m->mlpless_layers > 0 && m->layers > model_moe_layers(m))
		sh->mlp_dense = (double)(model_mlp_layers(m) - model_moe_layers(m)) /
				(m->layers - model_moe_layers(m));
	/* sliding windows and chunks, or block-sparse layers (model_attention_window) */
	model_attention_window(m, &sh->window, &sh->global);
}

/* ---- everything after the time ---- */

static void finish(const struct tctx *c)
{
	const struct scenario *s = c->s;
	struct plan *p = c->p;
	const struct gpu *g = &s->hardware.gpu;
	double n = s->hardware.count > 0 ? s->hardware.count : 1;
	double best = -1;

	p->usd_per_hour = g->price_per_hour > 0 ? g->price_per_hour * n : NAN;
	if (!isnan(p->total_s)) {
		double hours = p->total_s * (1.0 / 3600); /* a constant: no division */
		p->gpu_hours = hours * n;
		p->usd_total = p->usd_per_hour * hours;
		/* board power at load x time x PUE; training and saturated serving keep GPUs
		 * near their board power, so no utilisation scaling */
		if (g->power_w > 0)
			p->kwh = g->power_w * p->gpu_hours *
				 (s->hardware.pue > 0 ? s->hardware.pue : 1) * 1e-3;
	}
	if (p->tokens_per_s > 0)
		p->usd_per_million_tokens = p->usd_per_hour / p->tokens_per_s * (1e6 / 3600);

	p->shares[BN_CAPACITY] = p->mem.capacity > 0 ? p->mem.total / p->mem.capacity : 0;
	/* the binding constraint: capacity when it does not fit, else the largest share of
	 * the time (capacity is a share of memory, not of time: a plan that fits runs at
	 * the speed its time shares allow) */
	if (!p->mem.fits) {
		p->binding = BN_CAPACITY;
		return;
	}
	p->binding = BN_COMPUTE;
	for (int i = BN_COMPUTE; i < BN_COUNT; i++) {
		if (p->shares[i] > best) {
			best = p->shares[i];
			p->binding = (enum bottleneck)i;
		}
	}
}

void plan_compute_time(const struct scenario *s, struct plan *p)
{
	struct tctx c;

	set_nan(p);
	ctx_init(&c, s, p);
	if (s->workload.kind == WL_TRAIN || s->workload.kind == WL_FINETUNE)
		pt_time_train(&c);
	else
		pt_time_infer(&c);
	finish(&c);
}

/* ---- GPUs for a deadline ---- */

/* Whether s at count GPUs (dp from the count, as goal seek sets it) meets its deadline,
 * and fits when fit is set: search.c's meets_target for a training plan. */
static bool deadline_met(const struct scenario *base, double count, bool fit)
{
	struct scenario s = *base;
	struct plan p;

	s.hardware.count = (int)count;
	s.parallel.dp = 0;
	p.nwarnings = 0;
	plan_compute_memory(&s, &p);
	plan_compute_time(&s, &p);
	if (fit && !p.mem.fits)
		return false;
	return !(isfinite(p.total_s) && p.total_s > s.workload.deadline_s);
}

/* A count rounded up to whole replicas of tp x pp x ep (x cp), so that the layout divides. */
static double whole_replicas(const struct scenario *s, double count)
{
	double span = (double)scenario_replica_gpus(s);
	return span > 1 ? ceil(count / span) * span : count;
}

static bool met_at(const struct scenario *s, double v, bool fit)
{
	return deadline_met(s, whole_replicas(s, v), fit);
}

/* The batch time_infer runs: workload.batch, or under auto the most sequences that fit
 * (at least one is timed), or under an SLO the most that meet it. */
double plan_batch(const struct scenario *s, const struct plan *p)
{
	if (s->workload.batch > 0)
		return s->workload.batch;
	if (p->slo_batch >= 1)
		return p->slo_batch;
	return p->max_batch >= 1 ? p->max_batch : 1;
}

/* The walk goal seek makes (search.c, search_solve --min), on the count alone: from the
 * scenario's count double up to the first that meets (or down: the smallest is tried
 * first), then bisect. The planned time is not a smooth function of the count (a step
 * runs whole micro-batches, ceil(global / (micro x dp)), and the nodes change the fabric),
 * so no closed form gives the count: FLOPs / (peak x MFU x deadline) at this count's MFU
 * is only where the walk could start (lesson 8: 119 GPUs by that formula run 11.7 days,
 * 128 meet the 10). */
double plan_deadline_gpus(const struct scenario *s, bool fit)
{
	double lo = 1, hi = PLAN_MAX_GPUS, good, bad;
	double cur = s->hardware.count > 0 ? s->hardware.count : lo;

	if (!(s->workload.deadline_s > 0 && s->workload.tokens > 0))
		return NAN;
	if (!met_at(s, cur, fit)) {
		double v = cur * 2;
		/* goal seek tries the top last; trying it first finds the same count, and
		 * none at once where memory fits at no count */
		if (!met_at(s, hi, fit))
			return NAN;
		bad = cur;
		while (v <= hi && !met_at(s, v, fit)) {
			bad = v;
			v *= 2;
		}
		good = v <= hi ? v : hi;
	} else {
		good = cur;
		bad = lo;
		if (met_at(s, lo, fit))
			return whole_replicas(s, lo);
	}
	while (fabs(good - bad) > 1) {
		double mid = floor((good + bad) / 2);
		if (met_at(s, mid, fit))
			good = mid;
		else
			bad = mid;
	}
	return whole_replicas(s, good);
}

/* ---- the parts by index ---- */

/* Each part's place in the struct: indexing a member's address past it is not C. */
static const size_t part_at[PLAN_PARTS] = {
    offsetof(struct plan_time_parts, matmul_s),
    offsetof(struct plan_time_parts, attention_s),
    offsetof(struct plan_time_parts, memory_bound_s),
    offsetof(struct plan_time_parts, tp_comm_s),
    offsetof(struct plan_time_parts, pp_comm_s),
    offsetof(struct plan_time_parts, bubble_s),
    offsetof(struct plan_time_parts, dp_comm_s),
    offsetof(struct plan_time_parts, zero3_s),
    offsetof(struct plan_time_parts, ep_comm_s),
    offsetof(struct plan_time_parts, offload_s),
    offsetof(struct plan_time_parts, optimizer_s),
    offsetof(struct plan_time_parts, data_s),
    offsetof(struct plan_time_parts, cp_comm_s),
    offsetof(struct plan_time_parts, weight_read_s),
    offsetof(struct plan_time_parts, fixed_s),
    offsetof(struct plan_time_parts, prefill_s),
};
_Static_assert(sizeof(struct plan_time_parts) == PLAN_PARTS * sizeof(double),
	       "PLAN_PARTS counts every part");

double *plan_part(struct plan_time_parts *t, unsigned i)
{
	return (double *)((char *)t + part_at[i < PLAN_PARTS ? i : 0]);
}

double plan_part_get(const struct plan_time_parts *t, unsigned i)
{
	return *(const double *)((const char *)t + part_at[i < PLAN_PARTS ? i : 0]);
}
