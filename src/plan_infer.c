/* plan_infer.c - inference step time: decode, prefill, speculative steps, time_infer. */
#include "plan_time_int.h"

/* ---- inference ---- */

static void decode_lines(const struct tctx *c, const struct infer *in, double ctx, struct lines *l)
{
	/* kvb holds the attention layers' cache only: its read takes the keys unshared, the
	 * cached tokens read as read_keys counts them */
	double keys = keys_mixed(in->window, in->global, ctx);
	double read = keys_mixed(in->window, in->rglobal, ctx);
	l->tc1 = in->tc_row;
	l->tc0 = l->tc1 * in->dim0;
	l->cc1 = in->cc_row;
	l->m0 = in->w_read;
	/* a state-space layer reads and writes its sequence's state once a step, and
	 * updates it on the CUDA cores (state_up) */
	l->c_att1 = keys * in->attn * in->att_key + in->state_up;
	l->kv1 = (read * in->kvb + 2 * in->state_b) * c->inv_hbm;
	l->a1 = dmax(l->c_att1, l->kv1);
}

/* ---- speculative decoding (workload.speculative) ----
 *
 * A proposer drafts K tokens a sequence, one at a time; one pass of the target then scores
 * all K + 1 positions and keeps the longest accepted prefix plus one token of its own
 * (Leviathan et al. 2023, arXiv 2211.17192, Algorithm 1; vLLM's
 * vllm/v1/spec_decode/eagle.py EagleProposer.propose and
 * vllm/v1/sample/rejection_sampler.py; SGLang's EAGLEWorker.forward_batch_speculative_generation
 * in python/sglang/srt/speculative/eagle_worker.py). With each drafted token accepted
 * with chance a, independently, a step gains (1 - a^(K+1)) / (1 - a) tokens (Leviathan
 * et al., Equation 1). The verify pass is a decode step of B (K + 1) rows: its GEMMs carry
 * K + 1 times the rows over the same weight read, and its attention K + 1 queries over
 * the same cached keys. At a small batch the step is the weight read and the K + 1 rows
 * are nearly free; as the batch grows the GEMMs turn compute-bound at a batch K + 1
 * times smaller, and the gain shrinks and turns into a loss. The draft's K steps are
 * decode steps of the draft (method draft: a small model; mtp, eagle: one layer and the
 * target's head, EAGLE, Li et al. 2024, arXiv 2401.15077, Section 4; DeepSeek-V3,
 * arXiv 2412.19437, Section 2.2); ngram looks the draft up in the prompt on the host
 * (vllm/v1/spec_decode/ngram_proposer.py), at no GPU time. The draft also prefills each
 * prompt. A linear, not tree, draft is modelled. */

/* One draft step over B sequences: the slower of its GEMMs and its weight read, its KV
 * read, its launches. */
double pt_draft_step_s(const struct infer *in, double B)
{
	return dmax((B + in->dim0) * in->d_row, in->d_w) + B * in->d_kv + in->d_fixed;
}

/* One speculative step's time per token gained: the verify pass of B sequences of K + 1
 * rows (plus M prompt rows fused in, each attending to att_m of its keys) and K draft
 * steps, over the expected tokens a step gains. */
double pt_spec_step_s(const struct tctx *c, const struct infer *in, const struct lines *l, double B,
		      double M, double att_m)
{
	double k1 = in->sk + 1, rows = B * k1 + M;
	double gemm = M > 0 ? (rows + GEMM_DIM_HALF) * in->tc_row : gemm_compute_s(l, rows);
	double verify = dmax(gemm, l->m0) + B * l->a_spec + M * att_m + in->fixed + rows * in->tpe;
	(void)c;
	return (verify + in->sk * pt_draft_step_s(in, B)) / in->sE;
}

/* A decode step whose GPU work takes gpu: a batch above the CUDA-graph cap waits for the
 * host to launch its layers one by one when that is slower (EAGER_LAYER_S). */
static double eager_wait(const struct infer *in, double B, double gpu)
{
	return B > in->graph_bs ? dmax(gpu, in->eager_host) : gpu;
}

double pt_decode_step_s(const struct tctx *c, const struct infer *in, double B, double ctx)
{
	struct lines tmp;
	const struct lines *l = in->l;
	if (!l || ctx != in->ctx) {
		decode_lines(c, in, ctx, &tmp);
		tmp.a_spec = dmax(tmp.c_att1 * (in->sk + 1), tmp.kv1);
		l = &tmp;
	}
	if (in->sk > 0)
		return pt_spec_step_s(c, in, l, B, 0, 0);
	return eager_wait(in, B,
			  dmax(gemm_compute_s(l, B), l->m0) + l->a1 * B + in->fixed + B * in->tpe);
}

/* Prefill of M prompt tokens (one chunk): compute-bound GEMMs, causal attention over the
 * prompt, the state-space layers' scans over its tokens (scan_tok), the weights read
 * once. */
double pt_prefill_s(const struct infer *in, double M, double P)
{
	double mm = (M + GEMM_DIM_HALF) * in->tc_row;
	double att = M * prompt_key_s(in, P);
	if (in->sk > 0) /* the draft prefills the prompt too */
		att += M * in->d_pf_tok;
	return eager_extend(in, dmax(mm, in->w_read) + att + in->fixed + M * in->tpe);
}

/* The bottleneck shares of a loaded engine's time (plan_serve.c pt_serve, after
 * pt_decode_terms set the decode step's): each request's GPU time is its prompt's prefill,
 * pt_prefill_s of its computed tokens, compute-bound at a long prompt, and its O decode
 * tokens, a share 1 / batch of each decode step of the running batch, bandwidth-bound at
 * a small batch; the shares are the decode step's and the prefill pass's, each weighted by
 * its time per request. pass: the tokens of the pass a prompt rides in (<= 0 or below the
 * prompt: its own pass), the prompt taking its share prompt / pass of that pass's time and
 * terms (a disaggregated prefill engine batches the waiting prompts into one pass of up
 * to the budget: plan_serve.c serve_disagg's S). */
void pt_weigh_prefill_shares(const struct tctx *c, const struct infer *in, double batch,
			     double decode_step, double pass)
{
	struct plan *p = c->p;
	double O = c->s->workload.output_tokens > 0 ? c->s->workload.output_tokens : 1;
	double Pc = (1 - in->hit) * in->prefill_P;
	double M, f, pf, dec, mm, comp, hbm, net, tot;
	if (!(Pc > 0) || !(decode_step > 0))
		return;
	M = pass > Pc ? pass : Pc;
	f = Pc / M;			  /* the prompt's share of its pass */
	pf = f * pt_prefill_s(in, M, Pc); /* as time_infer times a prompt's */
	dec = O * decode_step / (batch > 1 ? batch : 1);
	/* pt_prefill_s's terms: the GEMMs or the weight read, the attention (and scans, the
	 * draft's prefill), the elementwise traffic, the collectives, the launches */
	mm = (M + GEMM_DIM_HALF) * in->tc_row;
	comp = f * ((mm >= in->w_read ? mm : 0) +
		    M * (prompt_key_s(in, Pc) + (in->sk > 0 ? in->d_pf_tok : 0)));
	hbm = f * ((mm < in->w_read ? in->w_read : 0) + M * in->elt_per_tok);
	net = f * (in->tp_fixed + in->pp_fixed + in->ep_fixed + M * in->tp_per_tok);
	tot = pf + dec;
	if (!(pf > 0) || !(tot > 0))
		return;
	p->share_weigh.prefill_s = pf;
	p->share_weigh.decode_s = dec;
	p->share_weigh.part_s[0] = comp;
	p->share_weigh.part_s[1] = hbm;
	p->share_weigh.part_s[2] = net;
	p->share_weigh.decode[0] = p->shares[BN_COMPUTE];
	p->share_weigh.decode[1] = p->shares[BN_HBM];
	p->share_weigh.decode[2] = p->shares[BN_INTERCONNECT];
	p->shares[BN_COMPUTE] = (p->shares[BN_COMPUTE] * dec + comp) / tot;
	p->shares[BN_HBM] = (p->shares[BN_HBM] * dec + hbm) / tot;
	p->shares[BN_INTERCONNECT] = (p->shares[BN_INTERCONNECT] * dec + net) / tot;
}

/* step: the decode step of micro(B) sequences at the average context (the caller's
 * tpot, worked out once) */
static double replica_tps(const struct infer *in, double B, double P, double O, double step)
{
	/* the prefill gives each sequence its first token, then O - 1 decode steps:
	 * end-to-end = TTFT + TPOT x (output - 1) (vLLM's
	 * benchmarks/benchmark_latency.py; gpuplan(1), JSON REPORT: latency.*) */
	double t = pt_prefill_s(in, micro(in, B) * P, P) + (O > 1 ? O - 1 : 0) * step;
	return B * O / t;
}

static double ttft_s(const struct infer *in, double B, double P, double step)
{
	/* a new request's prompt, plus the decode step of the others it waits behind */
	return in->host_load + pt_prefill_s(in, P, P) + (B > 1 ? step : 0);
}

/* The largest B >= 1 with a + b B <= target, given inv_b = 1 / b (the slopes are shared
 * by both targets, so their reciprocals are taken once); 0 when even B = 1 misses. */
static double largest_b(double a, double inv_b, double target)
{
	double x;
	if (!(inv_b > 0 && inv_b < INFINITY)) /* b <= 0: flat (or no) slope */
		return a <= target ? INFINITY : 0;
	x = floor((target - a) * inv_b);
	return x >= 1 ? x : 0;
}

static double sh_ep(const struct plan *p)
{
	return p->model.moe.experts > 0 && p->ep > 1 ? p->ep : 1;
}

double plan_draft_params(const struct workload *w, const struct model *m,
			 const struct model_params *c, double *step_params, double *kv_layers)
{
	const struct speculative *sp = &w->speculative;
	double own = 0, head = 0;
	*step_params = *kv_layers = 0;
	if (sp->tokens < 1 || sp->method == SPEC_NONE || sp->method == SPEC_NGRAM ||
	    (unsigned)sp->method >= SPEC_COUNT)
		return 0;
	if (sp->method == SPEC_DRAFT) {
		/* a small model of its own (vLLM's draft_model method, SGLang's standalone):
		 * every weight read each step; its layers cache KV at the target's width (an
		 * upper bound: Llama 3.2 1B caches 8 x 64 a layer to the 70B's 8 x 128) */
		own = sp->draft_params;
		*kv_layers = sp->draft_layers;
	} else {
		/* mtp, eagle: one decoder layer (the target's shape; a MoE layer holds all its
		 * experts, its token reads the routed ones) and the 2h -> h projection of the
		 * token's embedding and the target's hidden state, reusing the target's
		 * embedding and head (EAGLE, Section 4; DeepSeek-V3, Section 2.2, the MTP
		 * module) */
		double hid = m->hidden, all, active;
		double moe = m->moe.experts > 0 && c->mlp <= 0;
		all = c->attention + c->norms +
		      (moe ? c->router + c->shared + m->moe.experts * c->expert : c->mlp);
		active = c->attention + c->norms +
			 (moe ? c->router + c->shared + m->moe.active * c->expert : c->mlp);
		own = sp->draft_params > 0 ? sp->draft_params : all + 2 * hid * hid;
		head = (sp->draft_params > 0 ? own : active + 2 * hid * hid) +
		       (c->head > 0 ? c->head : c->embedding);
		*kv_layers = 1;
		*step_params = head;
		return own;
	}
	*step_params = own;
	return own;
}

/* ---- the prefix cache's tiers (workload.prefix_cache_tokens, host_kv_cache) ----
 * The hit rate h is what a cache holding every prefix would give; W distinct prefix
 * tokens are drawn from. The device keeps cached prefixes in the KV blocks the running
 * batch leaves free ((max_batch - B) sequences' tokens; none under batch auto, which
 * packs the cache with running sequences), and an engine with a host tier keeps the
 * blocks it evicts in host memory: SGLang's HiRadixCache
 * (python/sglang/srt/mem_cache/hiradix_cache.py: eviction writes the block back to the
 * host pool, write_backup; a match reports host_hit_length and init_load_back / load_back
 * copy it to the device before the prefill; the host pool is --hicache-size GB a rank,
 * memory_pool_host.py HostKVCache), vLLM's OffloadingConnector (--kv-offloading-size GiB
 * over all ranks; the request waits for its blocks, WAITING_FOR_REMOTE_KVS), and
 * TensorRT-LLM's KvCacheConfig host_cache_size (secondary blocks, bytes a rank). With
 * uniform popularity over the W tokens, hits fall in the held ones: h x held / W, and a
 * share host / held of them is loaded over the host link, each GPU its layers' share of
 * the KV (PCIe per direction, hardware.gpu's pcie_bandwidth), ahead of the prefill
 * (vLLM's connector), or layer by layer under it where the framework does so (SGLang:
 * time_infer takes the part the prefill's layers do not hide, host_exposed). Without W:
 * every hit held on the device, no load (the plan of before). */
static double prefix_tiers(const struct tctx *c, double hit, double B, double *load)
{
	const struct workload *w = &c->s->workload;
	struct plan *p = c->p;
	double W = w->prefix_cache_tokens, kvb = p->mem.kv_bytes_per_token;
	double seq = p->mem.kv_tokens_per_seq, dev, host = 0, held, bw;
	*load = 0;
	if (!(W > 0) || !(hit > 0) || !(kvb > 0))
		return hit;
	dev = p->max_batch > B && seq > 0 ? min_num(W, (p->max_batch - B) * seq) : 0;
	if (w->host_kv_cache > 0)
		host = min_num(W - dev, w->host_kv_cache / kvb);
	held = dev + host;
	p->prefix_hit = hit * held / W;
	p->prefix_host_share = held > 0 ? host / held : 0;
	bw = c->s->hardware.gpu.pcie_bytes_per_s;
	*load = bw > 0 ? p->prefix_hit * p->prefix_host_share * w->prompt_tokens * kvb / bw : 0;
	p->host_kv_load_s = p->host_kv_copy_s = *load;
	return p->prefix_hit;
}

/* A load of ld seconds copied layer by layer under a prefill of pf over L layers, each
 * layer's compute waiting for its own layer's copy: the pipeline ends at
 * max(ld, pf) (L - 1) / L + (ld + pf) / L; what TTFT waits beyond the prefill is that
 * less pf (ld / L when the copy is the shorter, the first layer's copy). */
static double host_exposed(double ld, double pf, double L)
{
	if (!(L >= 1))
		return ld;
	return max_num(0, max_num(ld, pf) * (L - 1) / L + (ld + pf) / L - pf);
}

void pt_time_infer(struct tctx *c)
{
	const struct scenario *s = c->s;
	struct plan *p = c->p;
	const struct workload *w = &s->workload;
	const struct gpu *g = &s->hardware.gpu;
	struct shape sh;
	struct infer in;
	struct lines lines_ctx;
	struct serve_memo memo;
	double t = p->tp, pp = p->pp;
	double n = s->hardware.count > 0 ? s->hardware.count : 1;
	double per_replica = t * pp;
	double deployed = floor(n / per_replica);
	double P = w->prompt_tokens > 0 ? w->prompt_tokens : 1;
	double O = w->output_tokens > 0 ? w->output_tokens : 1;
	double ctx = P + O / 2;
	/* prefix caching: a share h of each prompt's tokens is found in the KV cache (vLLM's
	 * automatic prefix caching, vllm/v1/core/kv_cache_manager.py get_computed_blocks;
	 * SGLang's RadixAttention, python/sglang/srt/mem_cache/radix_cache.py match_prefix)
	 * and not recomputed: prefill computes Pc = (1 - h) P tokens, the prompt's suffix,
	 * each attending to the cached h P keys and half its own, h P + Pc / 2. Decode
	 * still reads the whole context. */
	double hit = w->prefix_cache_hit > 0 && w->prefix_cache_hit < 1 ? w->prefix_cache_hit : 0;
	double Pc;
	double N = p->active_params;
	double wbpp = p->mem.weight_bytes_per_param > 0 ? p->mem.weight_bytes_per_param
							: dtype_bytes(w->weights);
	double gpn = gpus_per_node(s);
	double bw = fabric_bw(c, t), lat = fabric_lat(c, t);
	/* expert parallelism: each of ep ranks holds experts / ep of every MoE layer and
	 * runs its own batch through the rest of the model (the memory part keeps `batch`
	 * sequences' cache on every GPU); the routed tokens of all ep ranks meet at the
	 * experts (DeepSpeed-MoE inference, Rajbhandari et al. 2022, Section 5; vLLM's
	 * data-parallel attention with expert parallelism) */
	double ep = sh_ep(p);
	double B, Bplan, maxb, dq, tps, tps_plan;
	double nonemb;
	bool loaded; /* a scheduler under load: pt_serve's figures replace the step's */

	pt_shape_get(p, &sh);
	if (deployed < 1)
		deployed = 1;

	/* the memory part always solves max_batch for inference; 0 means not even one
	 * sequence fits (it warned): time one sequence anyway, and report the 0 */
	maxb = p->max_batch >= 1 ? p->max_batch : 1;
	B = w->batch > 0 ? w->batch : maxb;
	in.host_load = 0;
	hit = prefix_tiers(c, hit, min_num(B, maxb), &in.host_load);
	in.hit = hit;
	Pc = (1 - hit) * P;

	/* every matmul weight except the input embedding (a lookup) is read per step */
	nonemb = N - p->counts.embedding;
	if (p->model.tied_embeddings)
		nonemb = N; /* the tied embedding is the output layer's weight */
	if (nonemb <= 0)
		nonemb = N;
	in.F = 2 * nonemb * c->it;
	in.W = nonemb * wbpp * c->it;
	if (sh.moe_layers > 0 && sh.experts > sh.active && p->counts.expert > 0) {
		/* a decode step reads every expert some token routed to: of E experts with
		 * top-k routing, E (1 - (1 - k/E)^B) are touched per layer (uniform routing);
		 * the active count already holds k of them. With ep ranks each GPU holds E / ep
		 * of them and sees the tokens of all ep x B sequences. */
		double touched = sh.experts / ep * (1 - pow(1 - sh.active / sh.experts, B * ep));
		in.W += sh.moe_layers * (touched - sh.active) * p->counts.expert * wbpp * c->it;
	}
	{
		/* FLOP-weighted shape factor of one layer's GEMMs at this tp: every GEMM has
		 * K or N = h, so sat(h) is common */
		double qkv = (sh.qd + sh.qgate + 2 * sh.kvd) * c->it, q = sh.qd * c->it;
		double f =
		    sh.moe_layers > 0 ? sh.active * sh.expert_ffn + sh.shared_ffn_total : sh.ffn;
		double ft = f * c->it;
		double a_in = sh.h * qkv, a_out = q * sh.h;
		double mlp = sh.h * ft * sh.mats; /* up (and gate) and down */
		double sum = a_in + a_out + mlp;
		in.sNK = sum > 0
			     ? (a_in * sat(qkv) + a_out * sat(q) + mlp * sat(ft)) * sat(sh.h) / sum
			     : 1;
	}
	in.kvb = p->mem.kv_bytes_per_token >= 0 ? p->mem.kv_bytes_per_token * pp : 0;
	if (p->mem.draft_kv_bytes_per_token > 0) /* the draft's cache is read by its steps */
		in.kvb -= p->mem.draft_kv_bytes_per_token * pp;
	/* the whole model's state over tp, as plan_memory.c's ssm_state_bytes */
	in.state_b =
	    p->model.ssm.layers > 0 ? model_ssm_state_elems(&p->model, NULL) * c->act * c->it : 0;
	/* The state's update a decode step, model_ssm_flops_per_token's recurrent step, over
	 * tp on the FP32 CUDA cores: an elementwise kernel, no tensor-core matmul (mamba_ssm
	 * ops/triton/selective_state_update.py _selective_scan_update_kernel, as vLLM's
	 * mamba_mixer2.py calls it: state = state x dA + dB x, out = sum(state x C), in fp32;
	 * fla ops/gated_delta_rule/fused_recurrent.py). Prompt tokens run the chunked
	 * scans instead (pt_ssm_scan_s): vLLM's MambaMixer2 takes
	 * mamba_chunk_scan_combined_varlen for its prefills, selective_state_update for its
	 * decodes. */
	in.state_up = 0;
	if (p->model.ssm.layers > 0)
		in.state_up = model_ssm_flops_per_token(&p->model, true) * c->it /
			      (c->fp32 > 0 ? c->fp32 : c->peak);
	in.scan_tok = pt_ssm_scan_s(c, &p->model, 1);
	in.attn_tok = 4 * sh.layers * sh.qd * c->it;
	/* dequantising or converting each weight on the CUDA cores, once per step; a
	 * CUDA-graph engine has no such pass (its fused kernels cost GRAPH_DEQUANT_S) */
	switch (p->engine == ENGINE_CUDA_GRAPHS ? DTYPE_COUNT : w->weights) {
	/* 3- and 2-bit GPTQ run vLLM's gptq_gemm kernel (quantization/gptq.py GPTQConfig:
	 * weight_bits 2/3/4/8; gptq_marlin takes 4 and 8 only), which dequantises as the
	 * 4-bit path does: int4's cost, not measured for 3 or 2 bits */
	case DTYPE_INT2:
	case DTYPE_INT3:
	case DTYPE_INT4:
	case DTYPE_NF4:
		dq = DEQUANT_OPS_4BIT;
		break;
	case DTYPE_INT8:
		dq = DEQUANT_OPS_8BIT;
		break;
	case DTYPE_FP8:
		dq = g->peak_flops[DTYPE_FP8] > 0 ? 0 : DEQUANT_OPS_8BIT;
		break;
	case DTYPE_NVFP4:
	case DTYPE_MXFP4:
	case DTYPE_FP6:
		/* block formats: multiplied as stored where the tensor cores have them, else
		 * dequantised as int4 is (dtype.h) */
		dq = g->peak_flops[w->weights] > 0 ? 0 : DEQUANT_OPS_4BIT;
		break;
	case DTYPE_BF16:
	case DTYPE_FP16:
		dq = DEQUANT_OPS_16BIT;
		break;
	default:
		dq = 0;
		break;
	}
	/* Multi-step scheduling (vLLM --num-scheduler-steps N, vllm/worker/
	 * multi_step_model_runner.py MultiStepModelRunner: one scheduling and input
	 * preparation, then N forward passes whose inputs advance on the GPU, advance_step,
	 * their outputs pythonized asynchronously) pays the host's per-step share once per N
	 * steps; the per-layer launch costs stay per step. New requests join only at an N-step
	 * boundary (serve_levels, closed_wait). */
	in.steps = framework_scheduler_steps(w->framework, w->scheduler_steps);
	framework_serving(w->framework, w->scheduler, p->engine == ENGINE_CUDA_GRAPHS,
			  w->kind == WL_OFFLINE, g->memory_bytes, g->id, &in.eng);
	loaded = in.eng.sched != SCHED_ALONE && (unsigned)in.eng.sched < SCHED_COUNT;
	if (p->engine == ENGINE_CUDA_GRAPHS) {
		in.fixed = GRAPH_TOKEN_S / in.steps + sh.layers * GRAPH_LAYER_S;
		in.host_step = GRAPH_TOKEN_S;
		in.dim0 = GRAPH_DIM_HALF;
		/* weights stored narrower than the GEMM's inputs: int4/int8, and fp8 under
		 * 16-bit activations or on a GPU without FP8 tensor cores */
		if (w->weights == DTYPE_INT4 || w->weights == DTYPE_NF4 ||
		    w->weights == DTYPE_INT8 || w->weights == DTYPE_INT3 ||
		    w->weights == DTYPE_INT2 ||
		    ((w->weights == DTYPE_FP8 || dtype_is_microscaled(w->weights)) &&
		     (p->precision != w->weights || !(g->peak_flops[w->weights] > 0))))
			in.fixed += nonemb * c->it * GRAPH_DEQUANT_S;
	} else {
		in.fixed = DECODE_TOKEN_S / in.steps + sh.layers * DECODE_LAYER_S;
		in.host_step = DECODE_TOKEN_S;
		in.dim0 = GEMM_DIM_HALF;
	}
	if (dq > 0 && c->fp32 > 0)
		in.fixed += nonemb * c->it * dq / c->fp32;
	/* tensor parallelism: 2 all-reduces per layer of B x h activations; pipeline stages
	 * hand the token on (pp - 1) times */
	in.tp_per_tok = in.ep_per_tok = 0;
	in.tp_fixed = in.ep_fixed = in.pp_fixed = 0;
	if (t > 1) {
		in.tp_fixed = 2 * sh.layers * 2 * hops(t) * lat;
		in.tp_per_tok = 2 * sh.layers * 2 * (t - 1) * c->it * sh.h * c->act / bw;
	}
	if (pp > 1)
		in.pp_fixed = (pp - 1) * (gpn >= per_replica ? LINK_LAT_S : NET_LAT_S) * 4;
	/* expert parallelism: dispatch and combine all-to-all per MoE layer, k copies of
	 * each token's h-vector of which (ep - 1) / ep leave the GPU (GShard) */
	if (ep > 1 && sh.moe_layers > 0) {
		in.ep_fixed = 2 * sh.moe_layers * (ep - 1) * fabric_lat(c, ep * t);
		in.ep_per_tok = 2 * sh.moe_layers * sh.active * (ep - 1) / ep * sh.h * c->act *
				c->it / fabric_bw(c, ep * t);
	}
	in.base_fixed = in.fixed;
	in.fixed += in.tp_fixed + in.pp_fixed + in.ep_fixed;
	in.tp_only_per_tok = in.tp_per_tok;
	in.tp_per_tok += in.ep_per_tok;
	in.elt_per_tok =
	    sh.layers * c->act *
	    (ELT_H * sh.h + (sh.mats == 3 ? ELT_FFN_GATED : ELT_FFN_PLAIN) * sh.ffn * c->it) *
	    c->inv_hbm;
	in.tpe = in.tp_per_tok + in.elt_per_tok;
	in.prefill_P = P;
	in.key_half = hit > 0 ? (1 + hit) / (2 * (1 - hit)) : 0.5;
	in.ctx = ctx;
	in.window = sh.window;
	in.global = sh.global;
	{
		double w_unused;
		model_kv_read_window(&p->model, &w_unused, &in.rglobal);
	}
	in.attn = sh.attn;
	in.pp = pp;
	in.tc_row = in.F * c->inv_peak_emax / in.sNK;
	in.cc_row = c->fp32 > 0 ? in.F / (c->fp32 * GEMM_EFF_MAX) : INFINITY;
	in.att_key = in.attn_tok * c->inv_peak_emax * (1 / FLASH_EFF);
	in.key_P = NAN;
	in.key_s = prompt_key_s(&in, Pc);
	in.key_P = Pc;
	in.w_read = in.W * c->inv_hbm;
	in.l = NULL;
	pt_serve_memo_init(&memo);
	in.memo = &memo;
	decode_lines(c, &in, ctx, &lines_ctx);
	in.l = &lines_ctx;
	in.sk = in.sE = in.d_row = in.d_w = in.d_kv = in.d_fixed = in.d_pf_tok = 0;
	{
		/* the engine's CUDA-graph cap: a larger decode batch runs eagerly */
		int gbs = p->engine == ENGINE_CUDA_GRAPHS
			      ? framework_graph_max_bs(w->framework, g->memory_bytes)
			      : 0;
		in.graph_bs = gbs > 0 ? gbs : INFINITY;
		in.ahead = framework_get(w->framework)->overlap_schedule;
		in.eager_host = sh.layers * EAGER_LAYER_S;
	}
	{
		/* speculative decoding: the draft's step, from its parameters as the target's
		 * step is from the target's (one GEMM line, the weight read, the KV read of its
		 * cached layers, its launches and TP latencies per layer) */
		const struct speculative *sp = &w->speculative;
		double step_params, kvl;
		plan_draft_params(w, &p->model, &p->counts, &step_params, &kvl);
		if (sp->method != SPEC_NONE && sp->tokens >= 1 &&
		    (unsigned)sp->method < SPEC_COUNT) {
			double a = sp->acceptance > 0 && sp->acceptance < 1 ? sp->acceptance : 0;
			double K = sp->tokens, dl = sp->method == SPEC_DRAFT ? kvl : 1;
			double kv_tok = p->mem.draft_kv_bytes_per_token > 0
					    ? p->mem.draft_kv_bytes_per_token
					    : 0;
			in.sk = K;
			in.sE = a > 0 ? (1 - pow(a, K + 1)) / (1 - a) : 1;
			if (step_params > 0) {
				in.d_row = 2 * step_params * c->it * c->inv_peak_emax / in.sNK;
				in.d_w = step_params * wbpp * c->it * c->inv_hbm;
				in.d_kv = read_keys(&in, ctx) * kv_tok * c->inv_hbm;
				in.d_fixed = (w->engine == ENGINE_CUDA_GRAPHS
						  ? GRAPH_TOKEN_S + dl * GRAPH_LAYER_S
						  : DECODE_TOKEN_S + dl * DECODE_LAYER_S) +
					     (t > 1 ? 2 * dl * 2 * hops(t) * lat : 0);
				in.d_pf_tok = in.d_row;
			}
		}
	}

	/* a verify pass's attention per sequence, K + 1 queries of each cached key */
	lines_ctx.a_spec = dmax(lines_ctx.c_att1 * (in.sk + 1), lines_ctx.kv1);

	/* a host-held prefix loaded under the prefill's layers (prefix_tiers) */
	if (in.host_load > 0 && framework_get(w->framework)->kv_load_layerwise) {
		in.host_load = host_exposed(in.host_load, pt_prefill_s(&in, Pc, Pc), sh.layers);
		p->host_kv_load_s = in.host_load;
	}

	/* FLOPs of a decode token: 2N (Kaplan et al. 2020, Table 1) plus attention over the
	 * average context P + O / 2: the QK^T and AV products, 2 d_attn each a key, 4 L
	 * d_attn a key as FlashAttention's flops() counts them; window_keys caps a windowed
	 * layer */
	p->attention_flops_per_token = 4 * sh.layers * window_keys(&in, ctx) * sh.qd;
	/* state-space layers add their scans' recurrent step (model_ssm_flops_per_token) */
	p->flops_per_token =
	    2 * N + p->attention_flops_per_token + model_ssm_flops_per_token(&p->model, true);
	p->hw_flops_per_token = p->flops_per_token;
	/* a computed prompt token: causal, it attends to the cached prefix and on average
	 * half the prompt's own keys, Pc key_half = P (h + (1 - h) / 2), as pt_prefill_s
	 * times it, and runs the chunked scans. FlashAttention counts a causal pass's
	 * FLOPs as 4 seqlen^2 heads headdim / 2 (benchmarks/benchmark_flash_attention.py,
	 * flops(..., causal)); PaLM's MFU (Chowdhery et al. 2022, Appendix B) counts the
	 * full T for training, a convention the training path keeps (plan_train.c) */
	p->prefill_flops_per_token = 2 * N +
				     4 * sh.layers * window_keys(&in, Pc * in.key_half) * sh.qd +
				     model_ssm_flops_per_token(&p->model, false);
	p->flops_per_request = Pc * p->prefill_flops_per_token + O * p->flops_per_token;
	p->flops_total = w->tokens > 0 ? p->flops_per_request * w->tokens / O : NAN;

	/* batch where decode turns compute-bound: compute(B) = memory(B) */
	{
		const struct lines l = lines_ctx;
		double f0 = in.fixed, f1 = in.tpe;
		double bt, bc;
		/* the batch where the GEMMs turn compute-bound: both paths above the weight read */
		bt = (l.m0 - l.tc0) / l.tc1;
		bc = l.m0 / l.cc1;
		p->decode_compute_bound_batch = max_num(1, ceil(max_num(bt, bc)));

		/* the largest batch meeting the SLO: each term is linear in B, so each bound is
		 * closed-form (max(compute, memory) + f0 + f1 B <= target) */
		if (w->slo.tpot_s > 0 || w->slo.ttft_s > 0) {
			double lim = maxb;
			double pf = in.host_load + pt_prefill_s(&in, Pc, Pc);
			/* 1 / slope of the tensor-core, CUDA-core and memory-bound step in B */
			double i_tc = 1 / (l.tc1 + l.a1 + f1), i_cc = 1 / (l.cc1 + l.a1 + f1);
			double i_mem = 1 / (l.a1 + f1);
			double targets[2] = {w->slo.tpot_s,
					     w->slo.ttft_s > 0 ? w->slo.ttft_s - pf : 0};
			for (int k = 0; k < 2; k++) {
				double x = targets[k], bcomp, bmem;
				if ((k == 0 && w->slo.tpot_s <= 0) ||
				    (k == 1 && w->slo.ttft_s <= 0))
					continue;
				bcomp =
				    max_num(largest_b(l.tc0 + f0, i_tc, x), largest_b(f0, i_cc, x));
				bmem = largest_b(l.m0 + f0, i_mem, x);
				if (k == 0) {
					lim = min_num(lim, min_num(bcomp, bmem));
				} else if (x < 0) {
					lim = 0; /* the prompt alone takes longer than the target */
				} else {
					/* one request alone waits for no decode step */
					lim = min_num(lim, max_num(1, min_num(bcomp, bmem)));
				}
			}
			/* above the CUDA-graph cap a step lasts at least the eager host's
			 * launches (eager_wait): the lines hold there only if that meets */
			if (lim > in.graph_bs &&
			    ((w->slo.tpot_s > 0 && in.eager_host > w->slo.tpot_s) ||
			     (w->slo.ttft_s > 0 && pf + in.eager_host > w->slo.ttft_s)))
				lim = in.graph_bs;
			/* the bounds are in micro-batches of B / pp */
			if (pp > 1 && lim >= 1)
				lim = min_num(maxb, lim * pp);
			if (in.sk > 0 && lim >= 1) {
				/* a speculative step is no line in B (its GEMMs turn compute-bound
				 * K + 1 times sooner): the largest B meeting both targets, by
				 * bisection on the step, which grows with B */
				double lo = 0, hi = min_num(maxb, 1e9);
				while (hi - lo > 0.5) {
					double mid = floor((lo + hi + 1) / 2);
					double st = pt_decode_step_s(c, &in, micro(&in, mid), ctx);
					bool ok = (w->slo.tpot_s <= 0 || st <= w->slo.tpot_s) &&
						  (w->slo.ttft_s <= 0 || mid <= 1 ||
						   pf + st <= w->slo.ttft_s);
					if (ok)
						lo = mid;
					else
						hi = mid - 1;
				}
				lim = w->slo.ttft_s > 0 && pf > w->slo.ttft_s ? 0 : lo;
			}
			p->slo_batch = lim >= 1 ? lim : 0;
			/* a loaded scheduler's steps carry the prompts that join: its bound */
			if (w->kind == WL_ONLINE || w->kind == WL_OFFLINE)
				p->slo_batch = pt_loaded_slo_batch(c, &in, B, maxb, p->slo_batch);
		}
	}

	/* batch: auto is the most sequences that fit and, under an SLO, meet it */
	if (w->batch <= 0 && p->slo_batch >= 1)
		B = p->slo_batch;
	p->flops_per_step = p->flops_per_token * B;
	p->tpot_s = pt_decode_step_s(c, &in, micro(&in, B), ctx);
	/* a loaded scheduler's TTFT is its engine's (pt_serve sets it, whatever the load) */
	p->ttft_s = loaded ? NAN : ttft_s(&in, B, Pc, p->tpot_s);
	p->ssm_scan_s = Pc * in.scan_tok; /* the scans in that prompt's prefill */
	p->step_s = p->tpot_s;
	/* the latency achieved against the target it misses (under a scheduler, at the
	 * SLO's percentile: serve) */
	if (in.eng.sched == SCHED_ALONE && w->slo.tpot_s > 0 &&
	    p->tpot_s > w->slo.tpot_s * (1 + 1e-9))
		plan_warn(p, PW_SLO_MISSED, p->tpot_s, w->slo.tpot_s);
	if (in.eng.sched == SCHED_ALONE && w->slo.ttft_s > 0 &&
	    p->ttft_s > w->slo.ttft_s * (1 + 1e-9))
		plan_warn(p, PW_SLO_MISSED, p->ttft_s, w->slo.ttft_s);

	/* throughput: per replica (tp x pp GPUs) at a batch; a measured figure per GPU
	 * replaces the model */
	Bplan = B;
	if (!isnan(p->slo_batch) && p->slo_batch >= 1)
		Bplan = min_num(B, p->slo_batch);
	if (w->measured_tokens_per_s > 0) {
		tps = w->measured_tokens_per_s * per_replica;
		tps_plan = tps;
	} else {
		tps = replica_tps(&in, B, Pc, O, p->tpot_s);
		tps_plan = Bplan == B
			       ? tps
			       : replica_tps(&in, Bplan, Pc, O,
					     pt_decode_step_s(c, &in, micro(&in, Bplan), ctx));
	}
	p->tokens_per_s = tps * deployed;
	p->tokens_per_s_per_gpu = p->tokens_per_s / n;
	/* and so is its MFU, of the loaded throughput, but under a measured rate (which it
	 * keeps, as its tokens/s) */
	if (!loaded || w->measured_tokens_per_s > 0)
		pt_infer_mfu(c);
	p->matmul_efficiency = c->emax * sat(B) * in.sNK;

	if (w->kind == WL_ONLINE) {
		/* the peak rate (requests_per_s, else requests per day x peak factor / 86,400
		 * s) x output tokens */
		double need = peak_rate(w) * O;
		/* a target a lone request misses (its prompt alone, or a decode step of one)
		 * no number of replicas meets: no count, and the warning says which */
		bool lone = need > 0 && in.eng.sched == SCHED_ALONE && p->slo_batch < 1;
		double lone_ttft = lone ? in.host_load + pt_prefill_s(&in, Pc, Pc) : 0;
		double lone_tpot = lone ? pt_decode_step_s(c, &in, 1, ctx) : 0;
		bool ttft_out = w->slo.ttft_s > 0 && lone_ttft > w->slo.ttft_s * (1 + 1e-9);
		bool tpot_out = w->slo.tpot_s > 0 && lone_tpot > w->slo.tpot_s * (1 + 1e-9);
		if (w->requests_per_s > 0 && w->requests_per_day > 0)
			plan_warn(p, PW_RATE_OVERRIDES, w->requests_per_s,
				  w->requests_per_day * w->peak_factor / 86400);
		if (need > 0 && in.eng.sched == SCHED_ALONE && (ttft_out || tpot_out)) {
			if (ttft_out)
				plan_warn(p, PW_SLO_UNREACHABLE_TTFT, lone_ttft, w->slo.ttft_s);
			else
				plan_warn(p, PW_SLO_UNREACHABLE_TPOT, lone_tpot, w->slo.tpot_s);
		} else if (need > 0) {
			p->replicas = ceil(need / tps_plan - 1e-9);
			p->gpus_required = p->replicas * per_replica;
			if (p->gpus_required > PLAN_MAX_GPUS) {
				/* as the loaded schedulers' fleet walk stops (plan_serve.c) */
				plan_warn(p, PW_FLEET_OVER_MAX, floor(PLAN_MAX_GPUS / per_replica),
					  per_replica);
				p->replicas = p->gpus_required = NAN;
			}
		}
	} else {
		if (w->tokens > 0) {
			p->total_s = w->tokens / p->tokens_per_s;
			if (w->deadline_s > 0) {
				p->replicas = ceil(w->tokens / (tps_plan * w->deadline_s) - 1e-9);
				p->gpus_required = p->replicas * per_replica;
				if (p->total_s > w->deadline_s)
					plan_warn(p, PW_DEADLINE_MISSED, p->total_s, w->deadline_s);
				/* past the ceiling no count is planned, as online above */
				if (p->gpus_required > PLAN_MAX_GPUS) {
					plan_warn(p, PW_FLEET_OVER_MAX,
						  floor(PLAN_MAX_GPUS / per_replica), per_replica);
					p->replicas = p->gpus_required = NAN;
				}
			}
		}
	}

	/* the decode step's terms at the batch a step runs (tpot's), which add up to tpot; a
	 * loaded scheduler's (pt_serve) replace every one of them by its running batch's */
	if (!loaded) {
		pt_decode_terms(c, &in, micro(&in, B), p->tpot_s);
		/* as a loaded engine's: the shares of a request's prefill and decode */
		pt_weigh_prefill_shares(c, &in, B, p->tpot_s, 0);
	}
	pt_serve(c, &in, B, maxb, deployed, tps_plan);
}
