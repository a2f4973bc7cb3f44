/* plan_serve.c - serving under load: queueing, fleet, disaggregated pools, finite runs. */
#include "plan_time_int.h"

/* ---- serving under load (workload.scheduler) ----
 *
 * At steady state a continuous-batching engine runs decode steps of B sequences, and the
 * prompts of the requests that replace finished ones join it: each of the B - 1 others
 * finishes once per O steps, so (B - 1) / O prompts, (B - 1) P / O tokens, arrive per step
 * (the request one follows does not interrupt its own decode, which keeps concurrency 1 at
 * today's TPOT). How they join is the scheduler's rule:
 *  - prefill-first: waiting prompts run as a pass of their own before the next decode
 *    step (vLLM v0's default scheduler; SGLang's get_next_batch_to_run), so a gap between
 *    two tokens is a decode step, or a decode step plus a prefill pass;
 *  - chunked: prompt tokens ride in the decode step under a token budget (Sarathi-Serve,
 *    Agrawal et al., OSDI 2024, Section 4; vLLM V1, TensorRT-LLM's in-flight batching):
 *    one pass of B decode rows and the prompt rows, the weights read once;
 *  - static: all requests start together and none joins until all finish, so each waits
 *    for the prefill of every prompt of the batch (LMDeploy's static benchmark).
 * Arrivals are Poisson; prompts per step are Poisson too, which gives the per-token gap's
 * percentiles. The wait before a prompt's first pass is the step in flight (uniform
 * residual) plus an M/D/1 queue at the prompt budget (Pollaczek-Khinchine mean, with the
 * exponential tail of the waiting time, Kleinrock, Queueing Systems I, 1975, Section 5.7),
 * whose service is a prompt's hold on the budget, its share of full passes (prompt_svc):
 * at rate x s >= 1 the passes cannot take the prompts and the queue has no bound, which
 * is an overload (no wait, no TTFT), never a clamped utilisation.
 * The running batch under an arrival rate is Little's law, B = rate x e2e(B) (Little,
 * 1961), solved by regula falsi; closed form everywhere else. */

static const double serve_q[3] = {0.50, 0.90, 0.99};

/* One pass with D decode rows and M prompt rows, each prompt row attending to P / 2 of its
 * prompt's keys: the decode step (M = 0), the prefill pass (D = 0), or the fused step. */
static double pass_s(const struct tctx *c, const struct infer *in, double D, double M, double P)
{
	const struct lines *l = in->l;
	if (M <= 0)
		return pt_decode_step_s(c, in, D > 1 ? D : 1, in->ctx);
	if (D <= 0)
		return pt_prefill_s(in, M, P);
	if (in->sk > 0) /* the prompt rows ride in the verify pass; the draft prefills them */
		return pt_spec_step_s(c, in, l, D, M * in->sE, prompt_key_s(in, P) + in->d_pf_tok);
	/* the prompt rows run attention and the state-space scans as pt_prefill_s does */
	return eager_extend(in, dmax((D + M + GEMM_DIM_HALF) * in->tc_row, l->m0) + l->a1 * D +
				    M * prompt_key_s(in, P) + in->fixed + (D + M) * in->tpe);
}

/* The smallest k with P(Poisson(n) <= k) >= q, for each of the nq ascending levels in q:
 * a sum of the mass function, or the normal approximation with a continuity correction
 * once the mean is large (Abramowitz and Stegun 26.2.23 for the normal quantile). */
/* The standard normal quantile at q in (0, 1): Abramowitz and Stegun 26.2.23 (|error| <
 * 4.5e-4). */
static double normal_quantile_of(double q)
{
	double pq = q < 0.5 ? q : 1 - q, t = sqrt(-2 * log(pq));
	double z = t - (2.515517 + 0.802853 * t + 0.010328 * t * t) /
			   (1 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t * t * t);
	return q < 0.5 ? -z : z;
}

/* normal_quantile_of and ln(1 - q) (the exponential law's quantile over its mean),
 * remembered for the last few levels on this thread: a plan asks for the same few (P50,
 * P90, P99, the SLO's) at every one-point evaluation of the engine, and plan after plan,
 * and a logarithm and a square root cost more than the look-up */
enum { LEVEL_MEMO = 4 };
static _Thread_local struct {
	int n, next;
	double q[LEVEL_MEMO], z[LEVEL_MEMO], log_1m[LEVEL_MEMO];
} level_memo;

static int level_find(double q)
{
	int i;
	for (i = 0; i < level_memo.n; i++)
		if (level_memo.q[i] == q)
			return i;
	i = level_memo.next;
	level_memo.q[i] = q;
	level_memo.z[i] = normal_quantile_of(q);
	level_memo.log_1m[i] = log(1 - q);
	level_memo.next = (i + 1) % LEVEL_MEMO;
	if (level_memo.n < LEVEL_MEMO)
		level_memo.n++;
	return i;
}

static double normal_quantile(double q)
{
	int i = level_find(q);
	return level_memo.z[i];
}

static double log_1m(double q)
{
	int i = level_find(q);
	return level_memo.log_1m[i];
}

/* ---- request lengths (workload.prompt_length, output_length) ----
 * A length is its mean (prompt_tokens, output_tokens) or a law around it: exponential
 * (squared coefficient of variation 1), uniform on [min, max] ((max - min)^2 / 12 over
 * the mean squared), lognormal of log-deviation sigma (e^(sigma^2) - 1; the mean fixes
 * mu = ln mean - sigma^2 / 2). The variance enters the queue at the prompt budget, whose
 * service is a prompt's tokens: M/G/1 with the Pollaczek-Khinchine mean wait
 * rho E[S] (1 + cv^2) / (2 (1 - rho)) (Kleinrock 1975, Section 5.6, Equation 5.72).
 * A level's TTFT is the wait's level plus the passes of a prompt at the length's level,
 * and its end-to-end the TTFT plus the output length's level of steps: a sum of levels,
 * which bounds the level of the sum from above (the two are taken as if comonotone). */
static double law_cv2(const struct length_law *d, double mean)
{
	switch (d->dist) {
	case DIST_EXPONENTIAL:
		return 1;
	case DIST_UNIFORM:
		return mean > 0 ? (d->max - d->min) * (d->max - d->min) / (12 * mean * mean) : 0;
	case DIST_LOGNORMAL:
		return exp(d->sigma * d->sigma) - 1;
	default:
		return 0;
	}
}

double plan_length_cv2(const struct length_law *d, double mean)
{
	return law_cv2(d, mean);
}

/* The length at level q of a law of mean mean (the mean itself when fixed). */
static double law_quantile(const struct length_law *d, double mean, double q)
{
	switch (d->dist) {
	case DIST_EXPONENTIAL:
		return -mean * log_1m(q);
	case DIST_UNIFORM:
		return d->min + q * (d->max - d->min);
	case DIST_LOGNORMAL:
		return exp(log(mean) - d->sigma * d->sigma / 2 + d->sigma * normal_quantile(q));
	default:
		return mean;
	}
}

static void poisson_quantiles(double n, const double *q, int nq, double *k)
{
	if (!(n > 0)) {
		for (int i = 0; i < nq; i++)
			k[i] = 0;
		return;
	}
	if (n > 40) {
		for (int i = 0; i < nq; i++)
			k[i] = max_num(0, ceil(n + normal_quantile(q[i]) * sqrt(n) - 0.5));
		return;
	}
	{
		/* each level's k is the first where the sum reaches its threshold (a NaN one,
		 * never: the cap of 400, which the later levels then share). The ratios n / k
		 * are worked out RATIOS at a time ahead of the sum, independent divisions the
		 * compiler may pair, so that the sum's chain does not wait for the divider (the
		 * same quotients: k is whole); the sum is tested against the level it has not
		 * yet reached alone, and 400 is a whole number of blocks */
		enum { RATIOS = 4 };
		double pmf = exp(-n), cdf = pmf, at = 0;
		int i = 0, kk = 0;
		while (i < nq && cdf >= (at = q[i] - 1e-12))
			k[i++] = 0;
		while (i < nq && kk < 400) {
			double r[RATIOS];
			for (int j = 0; j < RATIOS; j++)
				r[j] = n / (kk + (j + 1));
			for (int j = 0; j < RATIOS; j++) {
				kk += 1;
				pmf *= r[j];
				cdf += pmf;
				if (cdf >= at) {
					do
						k[i++] = kk;
					while (i < nq && cdf >= (at = q[i] - 1e-12));
					if (i == nq)
						return;
				}
			}
		}
		for (; i < nq; i++)
			k[i] = kk;
	}
}

/* A prompt of P computed tokens' own passes under chunked or prefill-first: in chunks of
 * what the others' decodes leave of the budget T, or in prefill passes of at most T. */
static double own_ttft(const struct tctx *c, const struct infer *in, enum scheduler sched, double T,
		       double others, double P)
{
	if (sched == SCHED_CHUNKED) {
		double room = T - others;
		double k = room >= P ? 1 : room >= 1 ? ceil(P / room) : P;
		return in->host_load + k * pass_s(c, in, others, P / k, P);
	}
	{
		double kp = P > T ? ceil(P / T) : 1;
		return in->host_load + kp * pt_prefill_s(in, P / kp, P);
	}
}

/* The engine at a running batch B (B <= 1: one request, alone). */
static void serve_at(const struct tctx *c, const struct infer *in, enum scheduler sched, double T,
		     double P, double O, double B, double n, struct serve_point *o)
{
	double Bd = B > 1 ? micro(in, B) : 1, others = B > 1 ? micro(in, B - 1) : 0;
	o->B = B;
	o->starved = false;
	o->ahead = 0;
	o->joined = n * P;
	if (sched == SCHED_STATIC) {
		/* every prompt of the batch in passes of at most T tokens, then the decodes */
		double all = (B > 1 ? B : 1) * P, passes = T < all ? ceil(all / T) : 1;
		o->ttft =
		    (B > 1 ? B : 1) * in->host_load + passes * pt_prefill_s(in, all / passes, P);
		o->step = o->decode = pt_decode_step_s(c, in, Bd, in->ctx);
		o->fused = NAN;
		o->frac = 0;
		o->joined = 0;
		o->room = T;
	} else if (sched == SCHED_CHUNKED) {
		double room = T - Bd;
		if (room < 1) {
			room = 1;
			o->starved = true;
		}
		if (o->joined > room) {
			o->joined = room;
			o->starved = true;
		}
		o->room = room;
		/* as prefill-first's: prompts ride in a fraction 1 - e^-n of the steps, n / that
		 * of them in each; the rest are plain decode steps. The mean gap is the mean over
		 * both, not the fused pass at a fractional prompt (its fixed part would be charged
		 * to every step, putting the mean above the P90 gap at light load). */
		o->frac = 1 - exp(-n);
		o->decode = pass_s(c, in, Bd, 0, P);
		/* prompts of more tokens than the room ride in ceil(per / room) steps each
		 * (the budget cuts them into chunks: Sarathi-Serve, Section 4.2; TensorRT-LLM's
		 * MicroBatchScheduler chunks a context to what max_num_tokens leaves), so that
		 * share of the steps carries them, every prompt token counted once */
		if (o->frac > 0 && o->joined / o->frac > room)
			o->frac = min_num(1, o->frac * ceil(o->joined / o->frac / room));
		o->fused =
		    o->frac > 0 ? pass_s(c, in, Bd, min_num(o->joined / o->frac, room), P) : NAN;
		o->step = o->frac > 0 ? (1 - o->frac) * o->decode + o->frac * o->fused : o->decode;
		o->ttft = own_ttft(c, in, sched, T, others, P);
	} else { /* SCHED_PREFILL_FIRST */
		/* a pass runs in a fraction 1 - e^-n of the steps (at least one prompt waits),
		 * carrying n / that prompts, in passes of at most T tokens */
		double d = pt_decode_step_s(c, in, Bd, in->ctx), frac = 1 - exp(-n);
		double per = frac > 0 ? o->joined / frac : 0;
		double passes = per > T ? ceil(per / T) : 1;
		double one = frac > 0 ? pt_prefill_s(in, per / passes, P) : 0;
		o->step = d + (frac > 0 ? frac * passes * one : 0);
		o->decode = d;
		o->fused = frac > 0 ? d + passes * one : NAN;
		o->frac = frac;
		/* SGLang's overlap scheduler (event_loop_overlap, managers/scheduler.py) has
		 * launched the next step before it receives the request: the prompt's pass
		 * waits for the step in flight (serve_levels' residual) and that one */
		o->ahead = in->ahead && others > 0 ? o->step : 0;
		o->ttft = own_ttft(c, in, sched, T, others, P) + o->ahead;
		o->room = T;
		if (o->joined > T)
			o->starved = true;
	}
	o->e2e = o->ttft + (O > 1 ? O - 1 : 0) * o->step;
}

void pt_serving_nan(struct plan_serving *v)
{
	v->scheduler = v->budget = v->max_running = v->rate = v->concurrency = NAN;
	v->batch = v->prefill_per_step = v->utilisation = v->capacity_rate = NAN;
	v->ttft_service_s = v->wait_s = NAN;
	for (int i = 0; i < 3; i++)
		v->ttft[i] = v->tpot[i] = v->e2e[i] = NAN;
	v->ttft_mean_s = v->tpot_mean_s = v->e2e_mean_s = NAN;
	v->slo_percentile = v->ttft_slo_s = v->tpot_slo_s = v->requests_per_s = NAN;
	v->overloaded = false;
	v->fleet_rule = v->fleet_rate = v->fleet_engines = v->fleet_stable = NAN;
	v->fleet_lone_ttft_s = v->fleet_lone_tpot_s = v->fleet_evals = NAN;
	for (int i = 0; i < 2; i++)
		v->fleet_ttft_s[i] = v->fleet_tpot_s[i] = v->fleet_util[i] = NAN;
	v->step_decode_s = v->step_joined_s = v->step_frac = v->e2e_run_s = v->e2e_cap_s = NAN;
	v->run_s = NAN;
	v->wait_res_s = v->wait_queue_s = v->room = v->ttft_ahead_s = NAN;
	v->closed_rho = v->prompt_svc_s = v->closed_wait_s = NAN;
	v->scheduler_steps = NAN;
	for (int i = 0; i < 4; i++)
		v->lv_own_s[i] = v->lv_wait_s[i] = v->lv_k[i] = v->lv_add_s[i] = v->lv_out[i] = NAN;
	v->slo_gaps = v->slo_share = v->slo_gap_s = NAN;
	v->prefill_engines = v->decode_engines = v->prefill_util = v->prefill_s = NAN;
	v->kv_transfer_s = v->fleet_prefill = v->fleet_decode = NAN;
	v->fleet_split_gpus = v->over_rate = v->over_most = v->over_pool = NAN;
	v->measured_scale = NAN;
}

/* The gap between tokens at a level's count k of prompts joining a step. */
static double serve_gap(const struct tctx *c, const struct infer *in, enum scheduler sched,
			const struct serve_point *pt, double B, double k, double P)
{
	double Bd = B > 1 ? micro(in, B) : 1;
	if (sched == SCHED_STATIC)
		return pt->step;
	if (k <= 0 && B == pt->B) /* no prompt joins: serve_at's decodes alone */
		return pt->decode;
	if (sched == SCHED_CHUNKED)
		return pass_s(c, in, Bd, min_num(k * P, pt->room), P);
	if (k <= 0)
		return pt_decode_step_s(c, in, Bd, in->ctx);
	{
		double tok = k * P, passes = tok > pt->room ? ceil(tok / pt->room) : 1;
		return pt_decode_step_s(c, in, Bd, in->ctx) +
		       passes * pt_prefill_s(in, tok / passes, P);
	}
}

/* What serve fixes before the load: the policy, the budget, the running cap. */
struct serve_cfg {
	enum scheduler sched;
	double T;   /* tokens a step may carry (INFINITY: unlimited) */
	double cap; /* the running cap */
	double P, O;
	double B;    /* the batch time_infer chose: a closed loop's concurrency by default */
	double gaps; /* the gaps a request's TPOT is the mean of (request_gaps) */
	struct serve_memo *memo; /* serve_at's points that no rate changes (serve_at_memo) */
};

/* serve_at through the plan's memo. An engine of at most one request with no prompt
 * joining (B <= 1, n = 0: the empty engine, the lone request the SLO batch search and the
 * capacity walk's floor ask for) is one point whatever its B: serve_at reads B there only
 * through B > 1, and keeps it in o->B. */
static void serve_at_memo(const struct tctx *c, const struct infer *in, const struct serve_cfg *g,
			  double B, double n, struct serve_point *o)
{
	struct serve_memo *m = g->memo;
	bool lone = B <= 1 && n == 0;
	for (int i = 0; i < m->n; i++) {
		if (m->k[i] == n && (m->B[i] == B || (lone && m->B[i] <= 1))) {
			*o = m->pt[i];
			o->B = B;
			return;
		}
	}
	serve_at(c, in, g->sched, g->T, g->P, g->O, B, n, o);
	if (m->n < SERVE_MEMO) {
		m->B[m->n] = B;
		m->k[m->n] = n;
		m->pt[m->n++] = *o;
	}
}

void pt_serve_memo_init(struct serve_memo *m)
{
	m->n = m->nh = 0;
	for (int i = 0; i < 4; i++)
		m->known[i] = false;
}

static void serve_levels(const struct tctx *c, const struct infer *in, const struct serve_cfg *g,
			 const struct serve_point *pt, double run, double rate, double wq_closed,
			 bool all, struct plan_serving *v);

/* The engine held at running batch B by its own rate B / e2e (Little's law read
 * backwards), the SLO's level alone: sets t's overloaded, ttft_slo_s and tpot_slo_s, the
 * figures the SLO batch search (slo_excess) and the capacity walk (fleet_batch) read, and
 * returns the rate. Both ask for it at the running cap, worked out once a plan. */
static double held_at(const struct tctx *c, const struct infer *in, const struct serve_cfg *g,
		      double B, struct plan_serving *t)
{
	struct serve_memo *m = g->memo;
	struct serve_point pt;
	double rate;
	for (int i = 0; i < m->nh; i++) {
		if (m->hB[i] == B) {
			t->overloaded = m->h_over[i];
			t->ttft_slo_s = m->h_ttft[i];
			t->tpot_slo_s = m->h_tpot[i];
			return m->h_rate[i];
		}
	}
	/* the running cap is a point serve_load asks for at every rate, and a lone request
	 * the empty engine's (serve_at_memo); others are asked for once */
	if (B == g->cap || B <= 1)
		serve_at_memo(c, in, g, B, max_num(B - 1, 0) / g->O, &pt);
	else
		serve_at(c, in, g->sched, g->T, g->P, g->O, B, max_num(B - 1, 0) / g->O, &pt);
	rate = B / pt.e2e;
	t->overloaded = false;
	serve_levels(c, in, g, &pt, B, rate, 0, false, t);
	if (m->nh < SERVE_HELD) {
		m->hB[m->nh] = B;
		m->h_rate[m->nh] = rate;
		m->h_over[m->nh] = t->overloaded;
		m->h_ttft[m->nh] = t->ttft_slo_s;
		m->h_tpot[m->nh++] = t->tpot_slo_s;
	}
	return rate;
}

/* ---- a request's TPOT under an output-length law ----
 * A request's TPOT is the mean of its own gaps, (e2e - ttft) / (output - 1) (vLLM's
 * benchmarks/serve.py calculate_metrics, formerly benchmarks/benchmark_serving.py; a
 * request of one token has none and is left out there); DistServe (Zhong et al., OSDI
 * 2024, Section 2) states its SLO per request the same way. Over its G = O - 1 gaps the
 * steps that prompts join are Poisson(n G), so the share of its gaps that carry prompts
 * has mean n whatever G, and variance n / G. Requests of different lengths mix those
 * shares: the mixture keeps the mean n and has variance n E[1 / G], the short requests
 * spreading it most. The approximation: the TPOT percentile of the mixture is that of one
 * request of the harmonic-mean gap count 1 / E[1 / G], whose share has the mixture's
 * mean and variance (for a fixed length, G = O - 1 exactly). E[1 / G] is a 32-point
 * midpoint rule over the law's quantiles, each length rounded to whole tokens, requests
 * of one token left out as vLLM does. */
/* At the 32 midpoints q = (i + 1/2) / 32: -ln(1 - q), the exponential law's quantile over
 * its mean, and normal_quantile(q), so that the rule takes no logarithm (the values
 * law_quantile gives, worked out once). */
static const double mid_exp[32] = {
    0.015748356968139168, 0.048009219186360606, 0.081345639453952401, 0.1158318155251217,
    0.15154989812720093,  0.18859116980755003,	0.22705745063534608,  0.26706278524904525,
    0.30873548164961329,  0.35222059358935209,	0.39768296766610944,  0.44531101665536404,
    0.49532143723002542,  0.54796517071544737,	0.6035350218702582,   0.6623755218931916,
    0.72489587887452556,  0.7915872533731978,	0.86304621735534282,  0.94000725849147115,
    1.0233888674305223,	  1.1143606456362489,	1.2144441041932315,   1.3256697393034558,
    1.4508328822574619,	  1.5939337258981352,	1.7609878105613013,   1.9616585060234524,
    2.2129729343043585,	  2.5494451709255714,	3.0602707946915624,   4.1588830833596715};
static const double mid_z[32] = {
    -2.1543180193877882,  -1.6763080235445083,	-1.4180547114617594,  -1.2300016204069952,
    -1.0775462990621125,  -0.94670609036489928, -0.83033697246725502, -0.72425281263464025,
    -0.62576305288530221, -0.53301581177093671, -0.44466497528545701, -0.35968563739963488,
    -0.27726418865104185, -0.19672870188773084, -0.11750220147012613, -0.039069319814168724,
    0.039069319814168724, 0.11750220147012613,	0.19672870188773084,  0.27726418865104185,
    0.35968563739963488,  0.44466497528545701,	0.53301581177093671,  0.62576305288530221,
    0.72425281263464025,  0.83033697246725502,	0.94670609036489928,  1.0775462990621125,
    1.2300016204069952,	  1.4180547114617594,	1.6763080235445083,   2.1543180193877882};

/* Whether a and b are the same double, bit for bit (a memo's key). */
static bool same_bits(double a, double b)
{
	return memcmp(&a, &b, sizeof(a)) == 0;
}

static double request_gaps(const struct length_law *d, double O)
{
	/* the last law's answer on this thread: a function of d and O alone, and the same at
	 * every count search and goal seek plan */
	static _Thread_local struct {
		bool valid;
		struct length_law d;
		double O, gaps;
	} last;
	double inv = 0, n = 0;
	if (d->dist == DIST_FIXED)
		return O - 1;
	if (last.valid && last.d.dist == d->dist && same_bits(last.d.min, d->min) &&
	    same_bits(last.d.max, d->max) && same_bits(last.d.sigma, d->sigma) &&
	    same_bits(last.O, O))
		return last.gaps;
	for (int i = 0; i < 32; i++) {
		double x = d->dist == DIST_EXPONENTIAL ? O * mid_exp[i]
			   : d->dist == DIST_LOGNORMAL
			       ? exp(log(O) - d->sigma * d->sigma / 2 + d->sigma * mid_z[i])
			       : law_quantile(d, O, (i + 0.5) / 32);
		double g = floor(x + 0.5) - 1;
		if (g >= 1) {
			inv += 1 / g;
			n += 1;
		}
	}
	last.d = *d;
	last.O = O;
	last.gaps = n > 0 ? n / inv : O - 1;
	last.valid = true;
	return last.gaps;
}

/* The running batch that replays the largest CUDA graph (framework_graph_max_bs), in
 * sequences of the replica (pp micro-batches of it); INFINITY: every batch is graphed. */
static double graph_batch(const struct infer *in)
{
	return in->pp > 1 ? in->graph_bs * in->pp : in->graph_bs;
}

/* The root of f(B) = rate e2e(B) - B in [lo, hi], f(lo) = flo > 0 > fhi = f(hi), by
 * regula falsi (Illinois); pt is serve_at's point there. */
static double little_root(const struct tctx *c, const struct infer *in, const struct serve_cfg *g,
			  double rate, double lo, double hi, double flo, double fhi,
			  struct serve_point *pt)
{
	double run = lo;
	for (int it = 0, side = 0; it < 40; it++) {
		double x = (lo * fhi - hi * flo) / (fhi - flo), fx;
		serve_at(c, in, g->sched, g->T, g->P, g->O, x, max_num(x - 1, 0) / g->O, pt);
		fx = rate * pt->e2e - x;
		run = x;
		if (fabs(fx) < 1e-6 * (1 + x))
			break;
		if (fx > 0) {
			lo = x, flo = fx;
			if (side == 1)
				fhi *= 0.5;
			side = 1;
		} else {
			hi = x, fhi = fx;
			if (side == -1)
				flo *= 0.5;
			side = -1;
		}
	}
	return run;
}

/* Little's law's root on the right side of the CUDA-graph cap. A step above the cap is
 * slower (eager_wait), so f(B) = rate e2e(B) - B jumps up there and may have a root on
 * either side: a graphed batch below and an eager one above. Both hold a steady state;
 * which one the engine keeps is decided by the running count's fluctuation: with Poisson
 * arrivals the requests in service are Poisson with the mean (an M/G/infinity system,
 * Takacs 1962), and once a burst takes them past the cap the slower eager steps keep
 * more of them running, so the count does not come back. The eager root is taken when
 * the graphed root's P99.9 count passes the cap (the SGLang run at 8 req/s of
 * datacrunch-research/h200-benchmarks, tests/validation/serving.yaml, keeps some 360
 * requests running, over the cap of 160;
 * at 4 req/s some 50, under it). */
static double graph_root(const struct tctx *c, const struct infer *in, const struct serve_cfg *g,
			 double rate, double lo, double hi, double flo, double fhi,
			 struct serve_point *pt)
{
	double gb = graph_batch(in), x, fx, fg, run, k;
	static const double tip = 0.999;
	if (!(gb >= 1 && gb < hi))
		return little_root(c, in, g, rate, lo, hi, flo, fhi, pt);
	x = gb * (1 + 1e-9); /* just over the cap: eager */
	serve_at_memo(c, in, g, x, (x - 1) / g->O, pt);
	fx = rate * pt->e2e - x;
	if (fx <= 0) /* only a graphed root */
		return little_root(c, in, g, rate, lo, x, flo, fx, pt);
	serve_at_memo(c, in, g, gb, (gb - 1) / g->O, pt);
	fg = rate * pt->e2e - gb;
	if (fg > 0) /* only an eager root */
		return little_root(c, in, g, rate, x, hi, fx, fhi, pt);
	run = little_root(c, in, g, rate, lo, gb, flo, fg, pt);
	poisson_quantiles(run, &tip, 1, &k);
	if (k <= gb)
		return run;
	return little_root(c, in, g, rate, x, hi, fx, fhi, pt);
}

/* A prompt's hold on the budget, s = P / F x a pass of F tokens, at running batch run
 * (closed_wait's comment): the prompt server's service time, in the open loop's queue
 * (serve_levels) too, whose utilisation rate x s must stay below 1. Under multi-step
 * chunked scheduling (workload.scheduler_steps n > 1) the budget is offered once a block,
 * and vLLM v0 does not chunk a prompt there (vllm/core/scheduler.py,
 * _chunk_new_tokens_to_schedule under is_multi_step: a prompt over the budget's remaining
 * tokens gets 0 and _schedule_prefills stops at it, postponed to a later scheduling; one
 * over the whole budget passes _get_prompt_limit, min(max_model_len,
 * max_num_batched_tokens) under multi-step, and is ignored, "Input prompt ... is too
 * long"), so a block's first step takes k = floor(F / P) whole prompts beside the decodes
 * and a prompt holds 1 / k of a block: that step with k P prompt rows and the n - 1 decode
 * steps after it. At k = 0 the budget takes none: no bound on the service, an overload. */
static double prompt_svc(const struct tctx *c, const struct infer *in, const struct serve_cfg *g,
			 double run)
{
	double others = run > 1 ? micro(in, run - 1) : 0, P = g->P, F;
	if (g->sched == SCHED_CHUNKED) {
		F = isfinite(g->T) ? max_num(g->T - others, 1) : P;
		if (in->steps > 1 && isfinite(g->T)) {
			/* whole prompts, k = floor(F / P) of them a block (at the mean length);
			 * none while the decodes leave less than a prompt, and never one longer
			 * than the budget (vLLM ignores it: _get_prompt_limit) */
			double k = floor(F / P + 1e-9);
			if (!(k >= 1))
				return INFINITY;
			return (pass_s(c, in, others, k * P, P) +
				(in->steps - 1) * pass_s(c, in, others, 0, P)) /
			       k;
		}
		return P / F *
		       (pass_s(c, in, others, F, P) +
			(in->steps > 1 ? (in->steps - 1) * pass_s(c, in, others, 0, P) : 0));
	}
	F = isfinite(g->T) ? g->T : P;
	return P / F * pt_prefill_s(in, F, P);
}

/* ---- a closed loop's wait at the prompt budget ----
 * A closed loop of N clients (workload.concurrency; AIPerf's and genai-perf's
 * --concurrency) sends a client's next request as its previous one ends, and TTFT runs
 * from the send to the first response (AIPerf, aiperf/metrics/types/ttft_metric.py
 * TTFTMetric: first response minus request start), so it holds every wait in the engine:
 *  - the step in flight: the engine launched its next step as the last token left (the
 *    others' decodes keep it busy), and a request joins only at an iteration's start
 *    (TensorRT-LLM docs/source/executor.md, the execution loop): a decode step, unless a
 *    prompt rides it, which the queue below counts (share rho);
 *  - the others' prompts: the budget takes prompt tokens first come first served, room of
 *    them a step beside the decodes (TensorRT-LLM's MicroBatchScheduler,
 *    cpp/tensorrt_llm/batch_manager/microBatchScheduler.cpp: the generation requests
 *    first, then the contexts up to max_num_tokens, chunked to what is left, or left whole
 *    to the next step without chunking; vLLM V1's and SGLang's budgets the same way). A
 *    prompt of P tokens holds the budget P / F of a pass of F = room tokens: s = P / F x
 *    pass(F), a fused step under chunked prefill, a prefill pass under prefill-first. At
 *    concurrency 50 of 5,000-token prompts and 500-token outputs the budget is busy most
 *    of the time (the NIM row of tests/validation/serving.yaml,
 *    docs.nvidia.com NIM LLM benchmarking: 1.6 requests/s x ~0.4 s).
 * The prompts of N clients whose cycle e2e is long against s arrive nearly as a Poisson
 * stream (the finite-source queue, Kleinrock, Queueing Systems I, 1975, Section 3.10):
 * an M/D/1 queue at the budget, W = rho s / (2 (1 - rho)) (Pollaczek-Khinchine). An
 * arrival finds the load of the N - 1 others (the arrival theorem of closed networks,
 * Reiser and Lavenberg, J. ACM 27(2), 1980), whose throughput is (N - 1) / (e2e + W), so
 * rho = X s solves (s - 2 e2e) rho^2 + 2 (e2e + m) rho - 2 m = 0 with m = (N - 1) s:
 * rho = 2 m / (e2e + m + sqrt((e2e - m)^2 + 2 m s)), always below 1 (a closed loop does
 * not overrun). At N = 1 nothing waits: the engine is idle when the lone client's request
 * comes. A static batch's requests wait for its prompts in their own passes (serve_at).
 * Under multi-step scheduling (workload.scheduler_steps n) a request joins only at an
 * n-step boundary (the prompts are scheduled with a block's first step, vLLM's
 * multi_step_model_runner.py StatefulModelInput: "the scheduled prompts are fully
 * processed in the first-step"): a client whose request ended at step j of a block waits
 * its n - 1 - j steps, or the whole next block, already launched, when j is the last,
 * (n + 1) / 2 steps on average over j, (n - 1) / 2 more than one step in flight.
 * Fills v->closed_*; returns the wait. */
static double closed_wait(const struct tctx *c, const struct infer *in, const struct serve_cfg *g,
			  double run, const struct serve_point *pt, struct plan_serving *v)
{
	double n = run - 1, e = pt->e2e, s, m, rho, W;
	v->closed_rho = v->prompt_svc_s = v->closed_wait_s = 0;
	if (!(n > 0) || g->sched == SCHED_STATIC)
		return 0;
	s = prompt_svc(c, in, g, run);
	if (!isfinite(s)) { /* the budget takes no prompt (prompt_svc): the loop stalls */
		v->overloaded = true;
		v->prompt_svc_s = s;
		v->closed_rho = 1;
		v->closed_wait_s = INFINITY;
		return INFINITY;
	}
	m = n * s;
	rho = 2 * m / (e + m + sqrt((e - m) * (e - m) + 2 * m * s));
	W = rho * s / (2 * (1 - rho)) + (1 - rho) * pt->decode + (in->steps - 1) / 2 * pt->step;
	v->closed_rho = rho;
	v->prompt_svc_s = s;
	v->closed_wait_s = W;
	return W;
}

/* The gap between tokens at level q under multi-step scheduling (workload.scheduler_steps
 * n > 1): vLLM's MultiStepModelRunner schedules once a block of n steps, the prompts
 * scheduled with the block's first step ("the scheduled prompts are fully processed in the
 * first-step", vllm/worker/multi_step_model_runner.py StatefulModelInput) and the host's
 * scheduling and input preparation paid there, while each step's token streams as it comes
 * (SchedulerConfig multi_step_stream_outputs = True, vllm/config.py). So a share 1 - 1/n of
 * the gaps are plain decode steps without the host's share, and the first step of a block,
 * a share 1/n, carries it whole and the prompts of n steps' arrivals, Poisson(n x the
 * prompts a step), at the level within those steps; the mean gap stays the step's. Sets *k
 * to the prompts of the level's step. */
static double block_gap(const struct tctx *c, const struct infer *in, const struct serve_cfg *g,
			const struct serve_point *pt, double run, double q, double *k)
{
	double n = in->steps, qb = 1 - n * (1 - q);
	if (qb <= 0) {
		*k = 0;
		return pt->decode - in->host_step / n;
	}
	poisson_quantiles(n * pt->joined / g->P, &qb, 1, k);
	return serve_gap(c, in, g->sched, pt, run, *k, g->P) + in->host_step * (1 - 1 / n);
}

/* A closed loop's wait at level q, of mean wq (closed_wait's, and the slot's wait beyond
 * the cap): its M/D/1 part, rho s / (2 (1 - rho)) at the load rho the arrival theorem gives,
 * spread as the open loop's queue is, none in the empty share 1 - rho and past it the
 * exponential tail of that mean (Kleinrock, Queueing Systems I, 1975, Section 5.7), so the
 * mean stays wq; the tail never past the N - 1 others' prompts all ahead, (N - 1) s, as a
 * finite source bounds it (Section 3.10); the rest (the step in flight, a multi-step block,
 * the slot) as its mean. */
static double closed_level(const struct plan_serving *v, double run, double wq, double q)
{
	double rho = v->closed_rho, s = v->prompt_svc_s, md1, tail = 0;
	if (!(rho > 0 && rho < 1 && s > 0))
		return wq;
	md1 = rho * s / (2 * (1 - rho));
	if (q > 1 - rho)
		tail = min_num(md1 / rho * log(rho / (1 - q)), max_num(run - 1, 0) * s);
	return wq - md1 + tail;
}

/* The engine under a load: an arrival rate per replica (rate > 0), or else the closed loop
 * of workload.concurrency or the batch. Fills every figure of v but the policy's (set
 * before) from the closed-form model, the levels all or the SLO's alone (serve_levels);
 * no warning, no figure of the plan. */
static void serve_load(const struct tctx *c, const struct infer *in, const struct serve_cfg *g,
		       double rate, bool all, struct plan_serving *v)
{
	const struct workload *w = &c->s->workload;
	enum scheduler sched = g->sched;
	double T = g->T, cap = g->cap, P = g->P, O = g->O;
	double wq = 0, run;
	struct serve_point pt;

	v->overloaded = false;
	v->rate = v->concurrency = NAN;
	if (rate > 0) {
		struct serve_point top;
		double lo = 0, hi = cap, flo, fhi;
		v->rate = rate;
		serve_at_memo(c, in, g, cap, (cap - 1) / O, &top);
		v->capacity_rate = cap / top.e2e;
		v->e2e_cap_s = top.e2e;
		v->utilisation = rate / v->capacity_rate;
		if (rate >= v->capacity_rate * (1 - 1e-9)) {
			v->overloaded = true;
			run = cap;
			pt = top;
		} else {
			/* Little's law: B = rate x e2e(B); f(B) = rate e2e(B) - B falls from
			 * f(0) > 0 to f(cap) < 0; regula falsi (Illinois) */
			serve_at_memo(c, in, g, 0, 0, &pt);
			flo = rate * pt.e2e;
			fhi = rate * top.e2e - cap;
			run = graph_root(c, in, g, rate, lo, hi, flo, fhi, &pt);
		}
	} else {
		/* batch auto runs the engine full: as many as it runs, none queued past its
		 * cap (an explicit batch or concurrency beyond it waits for a slot) */
		double C = w->concurrency > 0 ? w->concurrency
			   : w->batch > 0     ? g->B
					      : min_num(g->B, cap);
		run = min_num(C, cap);
		if (w->kind == WL_OFFLINE && w->concurrency <= 0) {
			run = w->batch > 0 ? min_num(w->batch, cap) : cap;
			C = run;
		}
		serve_at(c, in, sched, T, P, O, run, max_num(run - 1, 0) / O, &pt);
		v->concurrency = C;
		wq = closed_wait(c, in, g, run, &pt, v);
		if (C > run) /* the rest wait for a slot: Little's law on the queue */
			wq += (C - run) * (pt.e2e + wq) / run;
		v->capacity_rate = run / (pt.e2e + v->closed_wait_s);
		v->e2e_cap_s = pt.e2e;
		/* a closed loop offers no rate to set against a capacity: its clients hold
		 * the running slots, so the share in use is the running batch over the cap
		 * (1: full, as an offline batch auto runs; one client of a cap of 256:
		 * 0.4%), documented as serving.utilisation in gpuplan(1) */
		v->utilisation = run / cap;
	}
	serve_levels(c, in, g, &pt, run, rate, wq, all, v);
}

/* The queue and the percentiles of the engine at running batch run (pt, serve_at's point
 * there) under an arrival rate per replica (rate > 0: the open loop), or a closed loop
 * whose requests beyond the running ones wait wq_closed. Every level when all is set,
 * else the SLO's alone (the capacity walk's test). */
static void serve_levels(const struct tctx *c, const struct infer *in, const struct serve_cfg *g,
			 const struct serve_point *pt, double run, double rate, double wq_closed,
			 bool all, struct plan_serving *v)
{
	double P = g->P, O = g->O, q[4], k[4], res = 0, wq = wq_closed, rho_p = 0;
	enum scheduler sched = g->sched;
	const struct workload *w = &c->s->workload;
	bool lengths = w->prompt_length.dist != DIST_FIXED || w->output_length.dist != DIST_FIXED;
	bool slo_mean;
	int lv;

	if (rate > 0) {
		/* the arrival finds a step in flight, then waits at the prompt budget */
		res = pt->step * in->steps; /* multi-step: the block of steps in flight */
		wq = 0;
		if (isfinite(pt->room) && pt->room > 0) {
			double svc = prompt_svc(c, in, g, run); /* its share of full passes */
			v->prompt_svc_s = svc;
			rho_p = rate * svc;
			if (!(rho_p < 1)) { /* the passes cannot take the prompts: no bound */
				v->overloaded = true;
				v->utilisation = max_num(v->utilisation, rho_p);
				rho_p = 0;
			}
			wq = rho_p * svc / (2 * (1 - rho_p));
			if (w->prompt_length.dist !=
			    DIST_FIXED) /* M/G/1: E[S^2] = E[S]^2 (1 + cv^2) */
				wq *= 1 + law_cv2(&w->prompt_length, w->prompt_tokens);
		}
	}
	if (all) { /* the walk's test (all unset) reads the SLO's level alone: no means */
		v->batch = run;
		v->prefill_per_step = pt->joined;
		v->step_decode_s = pt->decode;
		v->step_joined_s = pt->fused;
		v->step_frac = pt->frac;
		v->e2e_run_s = pt->e2e;
		v->wait_res_s = res;
		v->ttft_ahead_s = pt->ahead;
		v->wait_queue_s = wq;
		v->room = pt->room;
		v->ttft_service_s = pt->ttft;
		v->wait_s = res / 2 + wq;
		/* no steady state: the wait has no bound (serving.wait_s null) */
		if (v->overloaded)
			v->wait_s = v->wait_queue_s = NAN;
		v->requests_per_s = v->overloaded ? overloaded_rate(v)
				    : rate > 0	  ? rate
						  : v->capacity_rate;
		if (rate > 0)
			v->concurrency = v->requests_per_s * (pt->e2e + v->wait_s);
		v->ttft_mean_s = pt->ttft + v->wait_s;
		v->tpot_mean_s = pt->step;
		v->e2e_mean_s = v->ttft_mean_s + (O > 1 ? O - 1 : 0) * pt->step;
	}

	/* the levels: P50, P90, P99 and the SLO's */
	q[0] = serve_q[0], q[1] = serve_q[1], q[2] = serve_q[2];
	q[3] = v->slo_percentile / 100;
	/* the SLO's level is a request's TPOT (below) where it has gaps to mean over: its
	 * per-token count k[3] is then only the full report's (lv_k), not the walk's */
	slo_mean = g->gaps > 1 && sched != SCHED_STATIC;
	if (!all) {
		k[3] = NAN;
		if (!slo_mean)
			poisson_quantiles(sched == SCHED_STATIC ? 0 : pt->joined / P, &q[3], 1,
					  &k[3]);
	} else {
		double n = sched == SCHED_STATIC ? 0 : pt->joined / P, sq[4], sk[4];
		int order[4] = {0, 1, 2, 3};
		/* ascending, the SLO's level among the three */
		for (int i = 3; i > 0 && q[order[i]] < q[order[i - 1]]; i--) {
			int t = order[i];
			order[i] = order[i - 1];
			order[i - 1] = t;
		}
		for (int i = 0; i < 4; i++)
			sq[i] = q[order[i]];
		poisson_quantiles(n, sq, 4, sk);
		for (int i = 0; i < 4; i++)
			k[order[i]] = sk[i];
	}
	for (lv = all ? 0 : 3; lv < 4; lv++) {
		double ql = q[lv], wait = ql * res, gap = NAN, ttft, e2e;
		/* the SLO's level at P99's (the default) waits as P99 does: the same terms */
		bool as_p99 = all && lv == 3 && ql == q[2];
		if (as_p99)
			wait = v->lv_wait_s[2];
		else if (rho_p > 0 && ql > 1 - rho_p)
			wait += wq / rho_p * log(rho_p / (1 - ql));
		else if (rate <= 0)
			wait += closed_level(v, run, wq, ql);
		if (lv < 3 && in->steps > 1 && sched != SCHED_STATIC)
			gap = block_gap(c, in, g, pt, run, ql, &k[lv]);
		else if (!(lv == 3 && slo_mean))
			gap = serve_gap(c, in, sched, pt, run, k[lv], P);
		/* The SLO's level is a request's TPOT, the mean of its O - 1 gaps, as serving
		 * SLOs state it (DistServe, Zhong et al., OSDI 2024, Section 2: per-request TPOT;
		 * vLLM's benchmark_serving reports it apart from the per-token ITL): the prompts
		 * that join over its G = O - 1 gaps (under an output-length law the harmonic
		 * mean, request_gaps) are Poisson(G n), at most one step each
		 * while there are fewer than steps: K of its steps carry prompts, the others are
		 * plain decode steps. The P50/P90/P99 levels stay the per-token gap, the ITL
		 * engines' benchmarks print. */
		if (lv == 3 && slo_mean) {
			double G = g->gaps, K, n = pt->joined / P * G, f;
			poisson_quantiles(n, &q[3], 1, &K);
			f = min_num(K, G) / G;
			v->slo_gaps = G;
			v->slo_share = f;
			v->slo_gap_s =
			    f > 0 ? serve_gap(c, in, sched, pt, run, K / (f * G), P) : pt->decode;
			gap = f > 0 ? (1 - f) * serve_gap(c, in, sched, pt, run, 0, P) +
					  f * v->slo_gap_s
				    : serve_gap(c, in, sched, pt, run, 0, P);
		}
		ttft = pt->ttft + wait;
		e2e = ttft + (O > 1 ? O - 1 : 0) * pt->step;
		v->lv_own_s[lv] = pt->ttft;
		v->lv_wait_s[lv] = wait;
		v->lv_k[lv] = k[lv];
		v->lv_add_s[lv] = gap - pt->decode;
		v->lv_out[lv] = O;
		if (lengths && sched != SCHED_STATIC) {
			/* the prompt and the output at the level's lengths (a static batch's
			 * requests wait for all its prompts: the mean's) */
			struct serve_memo *m = g->memo;
			double Pq, Oq;
			if (!m->known[lv] || m->q[lv] != ql) {
				m->prompt[lv] =
				    law_quantile(&w->prompt_length, w->prompt_tokens, ql);
				m->output[lv] = law_quantile(&w->output_length, O, ql);
				m->q[lv] = ql;
				m->known[lv] = true;
			}
			Pq = P * m->prompt[lv] / (w->prompt_tokens > 0 ? w->prompt_tokens : 1);
			Oq = m->output[lv];
			double others = run > 1 ? micro(in, run - 1) : 0;
			v->lv_own_s[lv] =
			    as_p99
				? v->lv_own_s[2]
				: own_ttft(c, in, sched, g->T, others, max_num(Pq, 1)) + pt->ahead;
			v->lv_out[lv] = Oq;
			ttft = v->lv_own_s[lv] + wait;
			e2e = ttft + (Oq > 1 ? Oq - 1 : 0) * pt->step;
		}
		if (v->overloaded)
			ttft = e2e = NAN;
		if (lv < 3) {
			v->ttft[lv] = ttft;
			v->tpot[lv] = gap;
			v->e2e[lv] = e2e;
		} else {
			v->ttft_slo_s = ttft;
			v->tpot_slo_s = gap;
		}
	}
}

/* Whether the engine under a load keeps its queue stable and meets the SLO at the
 * percentile (the test PW_SLO_PERCENTILE warns on; an unset target always holds). */
static bool serve_meets(const struct workload *w, const struct plan_serving *v)
{
	if (v->overloaded)
		return false;
	if (w->slo.ttft_s > 0 && !(v->ttft_slo_s <= w->slo.ttft_s * (1 + 1e-9)))
		return false;
	return !(w->slo.tpot_s > 0 && !(v->tpot_slo_s <= w->slo.tpot_s * (1 + 1e-9)));
}

bool plan_serving_meets(const struct scenario *s, const struct plan *p)
{
	const struct workload *w = &s->workload;
	const struct plan_serving *v = &p->serving;
	bool load = w->requests_per_day > 0 || w->requests_per_s > 0;

	if (w->kind != WL_ONLINE && w->kind != WL_OFFLINE)
		return true;
	if (!isnan(v->scheduler)) {
		/* the loaded engine at this count's share of the rate: the test fleet_try
		 * makes at each count it plans, so a count meets iff it is not below the
		 * walk's answer */
		if (!serve_meets(w, v))
			return false;
	} else {
		if (w->slo.ttft_s > 0 && !(p->ttft_s <= w->slo.ttft_s * (1 + 1e-9)))
			return false;
		if (w->slo.tpot_s > 0 && !(p->tpot_s <= w->slo.tpot_s * (1 + 1e-9)))
			return false;
	}
	/* the fleet the load needs: NaN when no count meets (FLEET_CANNOT) */
	if (w->kind == WL_ONLINE && load &&
	    (isfinite(p->gpus_required) || v->fleet_rule == FLEET_CANNOT) &&
	    !(p->gpus_required <= s->hardware.count))
		return false;
	return true;
}

/* The most replicas the walk tries: PLAN_MAX_GPUS GPUs. */
static double fleet_max(double span)
{
	return floor(PLAN_MAX_GPUS / span);
}

/* The capacity walk in progress: the SLO's latencies and the utilisation where the last
 * count that met (i = 0) and the last that did not (i = 1) were planned. */
struct fleet_walk {
	const struct tctx *c;
	const struct infer *in;
	const struct serve_cfg *g;
	struct plan_serving t; /* scratch */
	double rate, engines;
	double evals; /* one-point evaluations + planned counts */
	double at[2][3];
};

/* The engine at x replicas, as plan_compute plans it at hardware.count = x tp pp ep. */
static bool fleet_try(struct fleet_walk *f, double x)
{
	const struct workload *w = &f->c->s->workload;
	bool ok;
	/* the SLO's level alone: the walk reads no other (serve_levels) */
	serve_load(f->c, f->in, f->g, f->rate / (x * f->engines), false, &f->t);
	f->evals++;
	ok = serve_meets(w, &f->t);
	f->at[!ok][0] = f->t.ttft_slo_s;
	f->at[!ok][1] = f->t.tpot_slo_s;
	f->at[!ok][2] = f->t.utilisation;
	return ok;
}

/* The engine at running batch B without the root-finding: the rate that keeps it is
 * B / e2e(B) (Little's law read backwards), so a batch costs one serve_at. */
static bool fleet_batch(struct fleet_walk *f, double B, double *rate)
{
	*rate = held_at(f->c, f->in, f->g, B, &f->t);
	f->evals++;
	return serve_meets(&f->c->s->workload, &f->t);
}

/* The fewest replicas that meet, above bad (which misses): good when it is known to meet,
 * else the first of bad x 2, x 4, ... up to top that does (NaN: none); then bisected. */
static double fleet_least(struct fleet_walk *f, double bad, double good, double top)
{
	for (double x = max_num(bad * 2, 1); isnan(good) && bad < top; x *= 2) {
		x = min_num(x, top);
		if (fleet_try(f, x))
			good = x;
		else
			bad = x;
	}
	while (!isnan(good) && good - bad > 1) {
		double mid = floor((good + bad) / 2);
		if (fleet_try(f, mid))
			good = mid;
		else
			bad = mid;
	}
	return good;
}

/* capacity_plan under load, for an open-loop peak rate: the fewest replicas R (tp x pp x ep
 * GPUs each, that is ep engines of tp x pp, each taking rate / (R ep) as plan_compute at
 * hardware.count = R tp pp ep gives it) whose engine keeps utilisation below 1 and, under
 * an SLO, meets it at the percentile.
 *  - Stability alone is closed-form: an engine completes at most capacity_rate requests/s
 *    at its running cap, whatever its arrival rate, so R > rate / (ep capacity_rate).
 *  - The latencies at the percentile fall as the rate per engine falls (a smaller running
 *    batch, fewer prompts joining a step, a shorter queue), towards those of a lone
 *    request, which no number of replicas goes below: a target under the lone request's
 *    latency cannot be met, and is said so at once.
 *  - Otherwise the count is found on the running batch, where the model needs no root:
 *    bisect B between 0 (meets) and the running cap (misses, or the stable count meets) until the
 *    rates B / e2e(B) on either side name adjacent counts; then plan the count and one
 *    fewer as plan_compute does (the answer meets, one fewer misses, both planned). Where
 *    those two disagree with the batch's verdict (the root's tolerance; or under pp > 1,
 *    where the batch crossing the pipeline depth makes the latencies step down) it walks
 *    the counts themselves: doubling up, then bisecting.
 * About 15 one-point evaluations and 2 planned counts; one without an SLO (the stable count
 * planned: its prompt budget must keep up too, serve_levels). */
static void serve_fleet(const struct tctx *c, const struct infer *in, const struct serve_cfg *g,
			double rate, double engines, double span)
{
	const struct workload *w = &c->s->workload;
	struct plan *p = c->p;
	struct plan_serving *v = &p->serving;
	struct fleet_walk f;
	bool slo = w->slo.ttft_s > 0 || w->slo.tpot_s > 0;
	double top = fleet_max(span), good = NAN, bad, r, cr = v->capacity_rate, lam;

	f.c = c, f.in = in, f.g = g, f.t = *v;
	f.rate = rate, f.engines = engines, f.evals = 0;
	for (int i = 0; i < 2; i++)
		f.at[i][0] = f.at[i][1] = f.at[i][2] = NAN;
	v->fleet_rate = rate;
	v->fleet_engines = engines;
	/* capacity_rate does not depend on the rate: the engine at its cap */
	r = ceil(rate / (engines * cr * (1 - 1e-9)));
	if (!(r >= 1))
		r = 1;
	if (rate / (r * engines) >= cr * (1 - 1e-9))
		r += 1; /* rounding: serve_load's own test decides */
	v->fleet_stable = bad = r;
	if (slo) {
		/* the floor: a batch so small that nothing queues or joins */
		fleet_batch(&f, 1e-9, &lam);
		v->fleet_lone_ttft_s = f.t.ttft_slo_s;
		v->fleet_lone_tpot_s = f.t.tpot_slo_s;
	}
	if (r > top) {
		good = NAN;
	} else if (!slo) {
		/* stable at the cap, unless the prompts outrun the budget's passes there */
		good = fleet_try(&f, r) ? r : fleet_least(&f, r, NAN, top);
	} else if (!serve_meets(w, &f.t)) {
		good = NAN;
	} else {
		/* on the batch: lo meets (0: the lone floor), hi misses (the cap, which fewer
		 * than r replicas overrun); rg and rb are the counts their rates name */
		double lo = 0, hi = g->cap, rg = INFINITY, rb = r - 1;
		if (fleet_batch(&f, hi, &lam))
			rg = r;
		for (int it = 0; it < 64 && !(rg - rb <= 1) && hi - lo > 1e-12 * hi; it++) {
			double mid = 0.5 * (lo + hi);
			if (fleet_batch(&f, mid, &lam)) {
				lo = mid;
				rg = ceil(rate / (engines * lam));
			} else {
				hi = mid;
				rb = max_num(rb, floor(rate / (engines * lam)));
			}
		}
		/* the counts themselves, planned: rg, then one fewer (below r: overloaded) */
		bad = r - 1;
		good = min_num(max_num(rg, r), top);
		if (!fleet_try(&f, good)) {
			bad = good;
			good = NAN;
		} else if (good - 1 > bad && fleet_try(&f, good - 1)) {
			good -= 1;
		} else if (good - 1 > bad) {
			bad = good - 1;
		}
		good = fleet_least(&f, bad, good, top);
	}
	v->fleet_evals = f.evals;
	if (isnan(good)) {
		/* no count meets: say which target and why, report no count */
		v->fleet_rule = FLEET_CANNOT;
		p->replicas = p->gpus_required = NAN;
		if (slo && w->slo.ttft_s > 0 &&
		    !(v->fleet_lone_ttft_s <= w->slo.ttft_s * (1 + 1e-9)))
			plan_warn(p, PW_SLO_UNREACHABLE_TTFT, v->fleet_lone_ttft_s, w->slo.ttft_s);
		else if (slo && w->slo.tpot_s > 0 &&
			 !(v->fleet_lone_tpot_s <= w->slo.tpot_s * (1 + 1e-9)))
			plan_warn(p, PW_SLO_UNREACHABLE_TPOT, v->fleet_lone_tpot_s, w->slo.tpot_s);
		else /* met, if at all, only past PLAN_MAX_GPUS */
			plan_warn(p, PW_FLEET_OVER_MAX, top, span);
		return;
	}
	v->fleet_rule = slo ? FLEET_SLO : FLEET_STABLE;
	p->replicas = good;
	p->gpus_required = good * span;
	/* the answer and one fewer, as the explanation quotes them: one fewer than the stable
	 * count is overloaded (no latency) */
	if (good == r) {
		f.at[1][0] = f.at[1][1] = NAN;
		f.at[1][2] = r > 1 ? rate / ((r - 1) * engines * cr) : NAN;
	}
	if (!slo) {
		f.at[0][0] = f.at[0][1] = NAN;
		f.at[0][2] = rate / (r * engines * cr);
	}
	for (int i = 0; i < 2; i++) {
		v->fleet_ttft_s[i] = f.at[i][0];
		v->fleet_tpot_s[i] = f.at[i][1];
		v->fleet_util[i] = f.at[i][2];
	}
}

/* The terms of a decode step of Bm sequences (a micro-batch), which add up to step, the
 * time they give; and the bottleneck shares of that step. */
void pt_decode_terms(const struct tctx *c, const struct infer *in, double Bm, double step)
{
	struct plan *p = c->p;
	const struct lines *l = in->l;
	struct plan_decode *d = &p->decode;
	double inv_tpot = 1 / step;
	d->batch = Bm;
	d->step_s = step;
	d->gemm_s = gemm_compute_s(l, Bm);
	d->weight_read_s = l->m0;
	d->attention_s = l->a1 * Bm;
	d->attention_flops_s = l->c_att1 * Bm;
	d->kv_read_s = l->kv1 * Bm;
	d->elementwise_s = Bm * in->elt_per_tok;
	d->tp_comm_s = in->tp_fixed + Bm * in->tp_only_per_tok;
	d->ep_comm_s = in->ep_fixed + Bm * in->ep_per_tok;
	d->pp_comm_s = in->pp_fixed;
	d->fixed_s = in->base_fixed;
	d->eager_s = 0;
	if (in->sk <= 0 && Bm > in->graph_bs) {
		double gpu = dmax(d->gemm_s, d->weight_read_s) + d->attention_s + d->elementwise_s +
			     d->tp_comm_s + d->ep_comm_s + d->pp_comm_s + d->fixed_s;
		d->eager_s = max_num(in->eager_host - gpu, 0);
	}
	d->spec_tokens_per_step = d->verify_s = d->draft_s = NAN;
	if (in->sk > 0) {
		/* the verify pass's terms: K + 1 rows a sequence */
		double k1 = in->sk + 1;
		d->gemm_s = gemm_compute_s(l, Bm * k1);
		d->attention_flops_s = l->c_att1 * k1 * Bm;
		d->attention_s = dmax(l->c_att1 * k1, l->kv1) * Bm;
		d->elementwise_s = Bm * k1 * in->elt_per_tok;
		d->tp_comm_s = in->tp_fixed + Bm * k1 * in->tp_only_per_tok;
		d->ep_comm_s = in->ep_fixed + Bm * k1 * in->ep_per_tok;
		d->spec_tokens_per_step = in->sE;
		d->draft_s = in->sk * pt_draft_step_s(in, Bm);
		d->verify_s = step * in->sE - d->draft_s;
		inv_tpot = 1 / (d->verify_s + d->draft_s);
	}
	p->parts.matmul_s = d->gemm_s;
	p->parts.attention_s = d->attention_s;
	p->parts.memory_bound_s = d->elementwise_s;
	p->parts.tp_comm_s = d->tp_comm_s;
	p->parts.ep_comm_s = d->ep_comm_s;
	p->parts.pp_comm_s = d->pp_comm_s;
	/* the rest of the step, so that the parts add up to it (max(gemm, read) + ...) */
	p->parts.weight_read_s = max_num(d->weight_read_s - d->gemm_s, 0);
	p->parts.fixed_s = d->fixed_s + d->eager_s;
	p->parts.prefill_s = 0;
	p->shares[BN_COMPUTE] = (d->gemm_s + d->attention_flops_s) * inv_tpot;
	p->shares[BN_HBM] = (d->weight_read_s + d->kv_read_s + d->elementwise_s) * inv_tpot;
	p->shares[BN_INTERCONNECT] = (d->tp_comm_s + d->ep_comm_s + d->pp_comm_s) * inv_tpot;
}

/* MFU of an inference plan: tokens/s counts generated tokens, each carrying 1 / output of
 * its request's FLOPs, the causal prefill and the decode (flops_per_request, time_infer;
 * PaLM, Chowdhery et al. 2022, Appendix B) */
void pt_infer_mfu(const struct tctx *c)
{
	const struct workload *w = &c->s->workload;
	struct plan *p = c->p;
	double O = w->output_tokens > 0 ? w->output_tokens : 1;
	p->mfu = p->flops_per_request * p->tokens_per_s_per_gpu / (O * c->peak);
	p->hfu = p->mfu;
	/* a measured rate the GPUs' peak cannot compute is a measurement of another setup.
	 * It warns once a plan: time_infer's call is the one with a measured rate, as
	 * pt_serve returns before its own calls (the loaded throughput) when there is one. */
	if (w->measured_tokens_per_s > 0 && p->mfu > 1)
		plan_warn(p, PW_MEASURED_OVER_PEAK, w->measured_tokens_per_s, 100 * p->mfu);
}

/* ---- disaggregated prefill and decode (workload.scheduler disaggregated) ----
 * Prefill engines run prompts and send each prompt's KV cache to a decode engine, which
 * only decodes (DistServe, Zhong et al., OSDI 2024; Splitwise, Patel et al., ISCA 2024;
 * NVIDIA Dynamo; SGLang --disaggregation-mode prefill|decode). The pools do not interfere,
 * so each is sized for its own target:
 *  - a prefill engine is an M/D/1 queue of prompts with service D, a prompt's prefill
 *    (DistServe, Section 3.1, Equation 1: mean TTFT = D + R D^2 / (2 (1 - R D))), with the
 *    waiting time's exponential tail at a level as serve_levels takes it; then the
 *    prompt's KV, prompt x KV bytes a token for each GPU's share, crosses to the decode
 *    engine at the fabric's bandwidth (NVLink within a node, the network across; the
 *    bulk-transfer path of SGLang's disaggregation/mooncake and Dynamo's NIXL), which the
 *    first token waits for;
 *  - a decode engine runs decode steps alone: B = rate x (O - 1) x step(B) (Little's law
 *    over its O - 1 steps), every gap the same step;
 *  - a prefill engine batches the prompts waiting into one pass of up to the token budget
 *    (DistServe, Section 3.1: batching prompts pays until the pass is compute-bound;
 *    SGLang's prefill server runs its waiting queue as one extend batch of up to
 *    chunked_prefill_size tokens, disaggregation/prefill.py event_loop_normal_disagg_prefill
 *    with get_new_batch_prefill): when busy it serves a prompt in S = P / F x pass(F), F
 *    the budget (or the prompt when longer), which saves the weight read and the fixed
 *    costs a pass of one short prompt pays; the load is rate x S, the pass in service
 *    still D, so the wait is rho D / (2 (1 - rho)) with rho = rate S / engines.
 * The capacity plan chooses the split: the fewest prefill engines whose TTFT meets the SLO
 * at its percentile, and the fewest decode engines whose batch at the SLO's TPOT carries
 * the rate. */

/* A decode engine's step at running batch B. */
static double disagg_step(const struct tctx *c, const struct infer *in, double B)
{
	return pt_decode_step_s(c, in, B > 1 ? micro(in, B) : 1, in->ctx);
}

/* The running batch of a decode engine at r requests/s (B = r (O - 1) step(B)), by
 * bisection; cap + 1 when the cap overruns. */
static double disagg_batch(const struct tctx *c, const struct infer *in, double r, double O,
			   double cap)
{
	double lo = 0, hi = cap, steps = O > 1 ? O - 1 : 1;
	if (r * steps * disagg_step(c, in, cap) >= cap * (1 - 1e-9))
		return cap + 1;
	for (int it = 0; it < 60 && hi - lo > 1e-9 * (1 + hi); it++) {
		double mid = 0.5 * (lo + hi);
		if (r * steps * disagg_step(c, in, mid) > mid)
			lo = mid;
		else
			hi = mid;
	}
	return hi;
}

/* The largest running batch in [0, cap] whose decode engine's step meets tpot (0: not even
 * one sequence), by bisection: a decode engine only decodes, so every gap is its step. */
static double disagg_tpot_batch(const struct tctx *c, const struct infer *in, double cap,
				double tpot)
{
	double lo = 0, hi = cap;
	if (disagg_step(c, in, 1) > tpot * (1 + 1e-9))
		return 0;
	if (disagg_step(c, in, cap) <= tpot)
		return cap;
	for (int it = 0; it < 60 && hi - lo > 1e-6; it++) {
		double mid = 0.5 * (lo + hi);
		if (disagg_step(c, in, mid) <= tpot)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

/* The prefill pool's wait at level q (and its mean, q < 0) at utilisation rho. */
static double disagg_wait(double D, double rho, double q)
{
	double wq = rho * D / (2 * (1 - rho));
	if (q < 0)
		return wq;
	return rho > 0 && q > 1 - rho ? wq / rho * log(rho / (1 - q)) : 0;
}

/* The pools under a peak rate: fills v as serve_load does (rate, batch, levels) for the
 * given split, and the capacity plan. */
static void serve_disagg(const struct tctx *c, const struct infer *in, const struct serve_cfg *g,
			 double rate, double engines_deployed, double span)
{
	const struct scenario *s = c->s;
	const struct workload *w = &s->workload;
	struct plan *p = c->p;
	struct plan_serving *v = &p->serving;
	double O = g->O, steps = O > 1 ? O - 1 : 1, cap = g->cap;
	double D = in->host_load + pt_prefill_s(in, g->P, g->P);
	/* a prompt's share of a full batched pass: the pool's service, rate x S its load */
	double Fb = isfinite(g->T) ? max_num(g->T, g->P) : g->P;
	double S = in->host_load + g->P / Fb * pt_prefill_s(in, Fb, g->P);
	double X = w->prompt_tokens * p->mem.kv_bytes_per_token / fabric_bw(c, 2 * span);
	double own = D + X, q = v->slo_percentile / 100, top = fleet_max(span);
	double np, nd, rho, r, B, st, lvq[4] = {serve_q[0], serve_q[1], serve_q[2], q};
	bool few, slo = w->slo.ttft_s > 0 || w->slo.tpot_s > 0;

	v->prefill_s = D;
	v->prompt_svc_s = S;
	v->kv_transfer_s = X;
	v->ttft_service_s = own;
	/* the capacity plan: each pool on its own (engines cover the whole peak) */
	if (rate > 0) {
		double bt = cap, fp, fd;
		/* decode: the largest batch meeting the TPOT target, its rate per engine */
		if (w->slo.tpot_s > 0)
			bt = disagg_tpot_batch(c, in, cap, w->slo.tpot_s);
		fd = bt > 0 ? floor(rate * steps * disagg_step(c, in, bt) / bt * (1 - 1e-9)) + 1
			    : NAN;
		/* prefill: stable, then the TTFT at the percentile */
		fp = floor(rate * S * (1 - 1e-9)) + 1;
		if (w->slo.ttft_s > 0) {
			if (own > w->slo.ttft_s)
				fp = NAN;
			else
				while (fp <= top && own + disagg_wait(D, rate * S / fp, q) >
							w->slo.ttft_s * (1 + 1e-9))
					fp = fp < 64 ? fp + 1 : ceil(fp * 1.01);
		}
		v->fleet_prefill = fp;
		v->fleet_decode = fd;
		/* the floor and the answer, as the explanation quotes them */
		v->fleet_lone_ttft_s = own;
		v->fleet_lone_tpot_s = disagg_step(c, in, 1);
		if (isfinite(fp) && isfinite(fd)) {
			double bd = disagg_batch(c, in, rate / fd, O, cap);
			v->fleet_ttft_s[0] = own + disagg_wait(D, rate * S / fp, q);
			v->fleet_tpot_s[0] = disagg_step(c, in, min_num(bd, cap));
			v->fleet_util[0] = max_num(
			    rate * S / fp, rate / fd * steps * disagg_step(c, in, cap) / cap);
		}
		v->fleet_rate = rate;
		v->fleet_engines = 1;
		v->capacity_rate = bt > 0 ? cap / (steps * disagg_step(c, in, cap)) : NAN;
		v->fleet_stable = ceil(rate / v->capacity_rate * (1 - 1e-9));
		if (isnan(fp) || isnan(fd) || fp + fd > top) {
			v->fleet_rule = FLEET_CANNOT;
			p->replicas = p->gpus_required = NAN;
			if (isnan(fp) && w->slo.ttft_s > 0)
				plan_warn(p, PW_SLO_UNREACHABLE_TTFT, own, w->slo.ttft_s);
			else if (isnan(fd))
				plan_warn(p, PW_SLO_UNREACHABLE_TPOT, disagg_step(c, in, 1),
					  w->slo.tpot_s);
			else
				plan_warn(p, PW_FLEET_OVER_MAX, top, span);
		} else {
			v->fleet_rule = slo ? FLEET_SLO : FLEET_STABLE;
			p->replicas = fp + fd;
			p->gpus_required = p->replicas * span;
		}
		/* the file's own split: the pools are independent and each meets from its
		 * fewest engines up (fp, fd), so a ratio a:b meets from k = max(ceil(fp / a),
		 * ceil(fd / b)) whole multiples, and a pinned pool only where it has its
		 * fewest; the other pool then the plan's */
		if (isfinite(fp) && isfinite(fd) &&
		    (w->prefill_engines > 0 || w->decode_engines > 0)) {
			double a = w->prefill_engines, b = w->decode_engines, e = NAN;
			if (a > 0 && b > 0)
				e = max_num(ceil(fp / a - 1e-9), ceil(fd / b - 1e-9)) * (a + b);
			else if (a > 0)
				e = a >= fp ? a + fd : NAN;
			else
				e = b >= fd ? fp + b : NAN;
			v->fleet_split_gpus = e <= top ? e * span : NAN;
		}
	}
	/* the split of the scenario's engines: as given, else the capacity plan's ratio */
	np = w->prefill_engines, nd = w->decode_engines;
	if (np <= 0 && nd <= 0) {
		/* N engines split in the plan's ratio, at least one of each within N */
		double f = isfinite(v->fleet_prefill) && isfinite(v->fleet_decode)
			       ? v->fleet_prefill / (v->fleet_prefill + v->fleet_decode)
			       : 0.5;
		np = min_num(max_num(1, floor(engines_deployed * f + 0.5)), engines_deployed - 1);
		nd = engines_deployed - np;
	} else if (np <= 0) {
		np = engines_deployed - nd;
	} else if (nd <= 0) {
		nd = engines_deployed - np;
	}
	/* fewer than one engine of each pool within the deployment (one engine, or the
	 * file's one pool takes them all): the pools cannot run on these GPUs, so the
	 * figures below are one prefill + one decode engine's and the throughput is null */
	few = np < 1 || nd < 1;
	np = max_num(np, 1), nd = max_num(nd, 1);
	if (few)
		plan_warn(p, PW_DISAGG_FEW_ENGINES, max_num(np + nd, 2), engines_deployed);
	v->prefill_engines = few ? NAN : np;
	v->decode_engines = few ? NAN : nd;
	/* the pools at that split: an arrival rate, or a closed loop of decodes */
	rho = rate > 0 ? rate * S / np : 0;
	r = rate > 0 ? rate / nd : 0;
	v->prefill_util = rho;
	if (rate > 0) {
		B = disagg_batch(c, in, r, O, cap);
	} else {
		double C = w->concurrency > 0 ? w->concurrency : g->B;
		B = min_num(C, cap);
		if (w->kind == WL_OFFLINE && w->concurrency <= 0)
			B = w->batch > 0 ? min_num(w->batch, cap) : cap;
		v->concurrency = C;
	}
	v->overloaded = rho >= 1 - 1e-9 || B > cap;
	if (B > cap)
		B = cap;
	st = disagg_step(c, in, B);
	if (rate > 0 || isnan(v->capacity_rate)) {
		v->capacity_rate = cap / (steps * disagg_step(c, in, cap));
		v->e2e_cap_s = steps * disagg_step(c, in, cap);
	}
	if (rate <= 0) { /* a closed loop runs full */
		v->capacity_rate = B / (steps * st);
		v->e2e_cap_s = steps * st;
	}
	v->rate = rate > 0 ? r : NAN;
	v->batch = B;
	v->prefill_per_step = 0;
	/* the busier pool's: the prefill engines' rho, or the decode engines' arrivals over
	 * the most one completes at the cap; a closed loop's, its running batch over the cap
	 * (explain_serving_utilisation) */
	v->utilisation = rate > 0 ? max_num(rho, r / v->capacity_rate) : B / cap;
	if (v->overloaded) {
		/* the arrivals and the most one engine completes, of the pool that overruns
		 * (the busier when both do): never one pool's arrivals against the other's */
		bool pre = rho >= 1 - 1e-9 && !(r / v->capacity_rate > rho);
		v->over_pool = pre ? 1 : 2;
		v->over_rate = pre ? rate / np : r;
		v->over_most = pre ? 1 / S : v->capacity_rate;
	}
	/* completed per decode engine: the arrivals, or what the slower pool completes
	 * when they outrun it */
	v->requests_per_s = rate > 0 ? min_num(rate, min_num(np / S, nd * v->capacity_rate)) / nd
				     : B / (steps * st);
	if (few) { /* no pools on these GPUs: nothing completes, no queue to overrun */
		v->requests_per_s = v->prefill_util = v->utilisation = NAN;
		v->overloaded = false;
		v->over_rate = v->over_most = v->over_pool = NAN;
	}
	v->step_decode_s = st;
	v->step_frac = 0;
	v->e2e_run_s = steps * st;
	v->wait_res_s = 0;
	v->wait_queue_s = rho > 0 && rho < 1 ? disagg_wait(D, rho, -1) : 0;
	v->wait_s = v->wait_queue_s;
	v->room = NAN;
	if (v->overloaded || few) /* no steady state: no wait, no concurrency (null) */
		v->wait_queue_s = v->wait_s = NAN;
	if (rate > 0)
		v->concurrency = v->requests_per_s * (v->e2e_run_s + v->wait_s);
	v->ttft_mean_s = v->overloaded || few ? NAN : own + v->wait_s;
	v->tpot_mean_s = st;
	v->e2e_mean_s = v->ttft_mean_s + steps * st;
	for (int lv = 0; lv < 4; lv++) {
		double wait = rho > 0 && rho < 1 ? disagg_wait(D, rho, lvq[lv]) : 0;
		double ttft = v->overloaded || few ? NAN : own + wait;
		v->lv_own_s[lv] = own;
		v->lv_wait_s[lv] = wait;
		v->lv_k[lv] = 0;
		v->lv_add_s[lv] = 0;
		v->lv_out[lv] = O;
		if (lv < 3) {
			v->ttft[lv] = ttft;
			v->tpot[lv] = st;
			v->e2e[lv] = ttft + steps * st;
		} else {
			v->ttft_slo_s = ttft;
			v->tpot_slo_s = st;
		}
	}
}

/* Serving under load at the batch B time_infer chose (the cap when no load is given):
 * fills p->serving and, for a scheduler other than alone, replaces TTFT, TPOT, the
 * throughput and the capacity plan by the loaded engine's. */
/* ---- a finite run (workload.requests) ----
 * A benchmark reports output tokens / its duration: SGLang's bench_serving
 * (python/sglang/bench_serving.py, benchmark: benchmark_duration from the first request
 * sent to the last one done; calculate_metrics: output_throughput = sum(output_lens) /
 * dur_s), vLLM's benchmark_serving the same, LMDeploy's profile_generation.py
 * (profile_throughput: out_token_throughput = the tokens / the time from the first
 * thread's start to the last one's end). A run of N requests per replica lasts:
 *  - open arrivals at rate r: get_request sends the i-th after i - 1 exponential gaps, so
 *    the last one leaves at (N - 1) / r on average and the run ends when it is done, its
 *    e2e later (the lengths are fixed, so the last sent is the last done);
 *  - all at once (offline, request_rate inf; a closed loop or a static batch, each of B
 *    clients sending its next when the last ends): fixed lengths keep the B running
 *    requests in step, so the run is floor(N / B) waves of the running batch's e2e and
 *    one of the N mod B left over, at that batch (its steps carry fewer sequences over
 *    the same weight read, the drain of the run).
 * A saturated open loop is the waves too, never shorter than its arrivals. */
static double finite_run(const struct tctx *c, const struct infer *in, const struct serve_cfg *g,
			 const struct plan_serving *v, double N)
{
	double run = v->batch > 1 ? v->batch : 1, full = floor(N / run + 1e-9),
	       rem = N - full * run;
	/* each wave's next request also waits for the others' prompts at the token budget,
	 * as the steady state's closed loop does (closed_wait), so whole waves give exactly
	 * the steady state's throughput */
	double wait = isfinite(v->closed_wait_s) ? v->closed_wait_s : 0;
	double waves = full * (v->e2e_run_s + wait);
	if (rem > 1e-9) {
		struct serve_point tail;
		serve_at(c, in, g->sched, g->T, g->P, g->O, rem, max_num(rem - 1, 0) / g->O, &tail);
		waves += tail.e2e;
	}
	if (!(v->rate > 0))
		return waves;
	if (v->overloaded)
		return max_num(waves, max_num(N - 1, 0) / v->rate + v->e2e_cap_s);
	return max_num(N - 1, 0) / v->rate + v->e2e_mean_s;
}

/* The loaded engine's configuration (serve's, and loaded_slo_batch's): the scheduler,
 * the lengths a prefill and a decode see, the step's token budget and the running cap. */
static void serve_config(const struct tctx *c, const struct infer *in, double B, double maxb,
			 struct serve_cfg *o)
{
	const struct scenario *s = c->s;
	const struct workload *w = &s->workload;
	struct serve_cfg g;

	g.sched = in->eng.sched;
	g.memo = NULL; /* the caller's (serve_memo) */
	/* the prompt tokens a prefill computes: those a prefix cache does not hold */
	g.P = (w->prompt_tokens > 0 ? w->prompt_tokens : 1) * (1 - in->hit);
	g.O = w->output_tokens > 0 ? w->output_tokens : 1;
	g.gaps = request_gaps(&w->output_length, g.O);
	g.B = B;
	g.T = w->max_batched_tokens > 0 ? w->max_batched_tokens : in->eng.max_batched_tokens;
	if (!(g.T > 0))
		g.T = INFINITY;
	g.cap = w->max_running > 0	  ? w->max_running
		: in->eng.max_running > 0 ? in->eng.max_running
					  : maxb;
	g.cap = min_num(g.cap, maxb);
	if (g.cap < 1)
		g.cap = 1;
	if (g.sched == SCHED_CHUNKED && isfinite(g.T)) {
		/* the budget bounds the batch it can refill: (B - 1) P / O = T - B */
		double bt = floor((g.T + g.P / g.O) / (1 + g.P / g.O));
		if (bt >= 1)
			g.cap = min_num(g.cap, bt);
		/* multi-step: a prompt joins whole only while the decodes leave it room,
		 * micro(B - 1) <= T - P (prompt_svc; vllm/core/scheduler.py
		 * _chunk_new_tokens_to_schedule), so the batch grows to no more */
		if (in->steps > 1 && g.T >= g.P)
			g.cap = min_num(g.cap, floor((g.T - g.P) * (in->pp > 1 ? in->pp : 1)) + 1);
	}
	*o = g;
}

/* The engine held at running batch B by its own rate B / e2e (Little's law): its excess
 * over the SLO at the percentile, the larger of latency / target - 1 over the targets set
 * (<= 0 meets, as serve_meets tests), for loaded_slo_batch's root. */
static double slo_excess(const struct tctx *c, const struct infer *in, const struct serve_cfg *g,
			 double B, struct plan_serving *t)
{
	const struct slo *slo = &c->s->workload.slo;
	double x = -1;
	held_at(c, in, g, B, t);
	if (t->overloaded) /* the budget cannot take B's prompts: B is not held */
		return INFINITY;
	if (slo->ttft_s > 0)
		x = max_num(x, t->ttft_slo_s / (slo->ttft_s * (1 + 1e-9)) - 1);
	if (slo->tpot_s > 0)
		x = max_num(x, t->tpot_slo_s / (slo->tpot_s * (1 + 1e-9)) - 1);
	return isnan(x) ? INFINITY : x;
}

/* capacity_plan.slo_batch under disaggregated serving: a decode engine's batch, the largest
 * whose step meets the TPOT target (serve_disagg's decode pool), at most the running cap; its
 * first token comes from a prefill engine, so no decode step is in the TTFT, which holds
 * for some batch only where a lone prompt's prefill and KV transfer meet the target (the
 * prefill pool's queue is sized by its engines, serve_disagg). 0 where none does. */
static double disagg_slo_batch(const struct tctx *c, const struct infer *in,
			       const struct serve_cfg *g)
{
	const struct workload *w = &c->s->workload;
	const struct plan *p = c->p;
	double span = (double)p->tp * p->pp * (p->ep > 1 ? p->ep : 1);
	double own = in->host_load + pt_prefill_s(in, g->P, g->P) +
		     w->prompt_tokens * p->mem.kv_bytes_per_token / fabric_bw(c, 2 * span);
	double B = w->slo.tpot_s > 0 ? disagg_tpot_batch(c, in, g->cap, w->slo.tpot_s) : g->cap;
	if (w->slo.ttft_s > 0 && own > w->slo.ttft_s * (1 + 1e-9))
		return 0;
	B = floor(B + 1e-9);
	return B >= 1 ? B : 0;
}

/* capacity_plan.slo_batch under a loaded scheduler (prefill-first, chunked): the largest
 * running batch B whose engine in steady state meets the SLO at its percentile, each step
 * its decodes plus the (B - 1) P / O prompt tokens that join it at B's own rate B / e2e
 * (Little's law), as serving.* reports the engine at that batch. The lone decode step's
 * bound (time_infer) is the upper end, as no joining prompt shortens a step. 0 where even
 * a batch of one misses. The excess grows nearly linearly in B (the step is linear in the
 * batch and the prompts joining it): regula falsi on whole batches (Illinois), about four
 * one-point evaluations. */
double pt_loaded_slo_batch(const struct tctx *c, const struct infer *in, double B, double maxb,
			   double lone)
{
	struct serve_cfg g;
	struct plan_serving t;
	double lo = 1, hi, flo, fhi;
	int side = 0;

	/* serve_config's scheduler is the engine's: no configuration without a loaded one */
	if (in->eng.sched != SCHED_DISAGG &&
	    ((in->eng.sched != SCHED_CHUNKED && in->eng.sched != SCHED_PREFILL_FIRST) ||
	     !(lone >= 1)))
		return lone;
	serve_config(c, in, B, maxb, &g);
	g.memo = in->memo; /* shared with pt_serve, which fixes the same configuration */
	if (g.sched == SCHED_DISAGG)
		return disagg_slo_batch(c, in, &g);
	hi = floor(min_num(g.cap, lone));
	pt_serving_nan(&t);
	t.slo_percentile = c->s->workload.slo.percentile > 0 ? c->s->workload.slo.percentile : 99;
	if ((fhi = slo_excess(c, in, &g, hi, &t)) <= 0)
		return hi;
	if (hi <= 1 || (flo = slo_excess(c, in, &g, 1, &t)) > 0)
		return 0;
	/* lo meets (flo <= 0), hi misses (fhi > 0) */
	while (hi - lo > 1) {
		double mid = floor(lo + (hi - lo) * (-flo) / (fhi - flo)), f;
		mid = min_num(max_num(mid, lo + 1), hi - 1);
		f = slo_excess(c, in, &g, mid, &t);
		if (f <= 0) {
			lo = mid, flo = f;
			if (side == -1)
				fhi /= 2;
			side = -1;
		} else {
			hi = mid, fhi = f;
			if (side == 1)
				flo /= 2;
			side = 1;
		}
	}
	return lo;
}

/* ---- a measured throughput under an arrival rate (workload.measured_tokens_per_s) ----
 * The measurement is what a replica completes at the planned batch B: mu requests/s, so
 * a request holds the replica 1 / mu, and B of them run at once for B / mu each. The
 * model's engine at that batch (the closed loop of B, serve_load) completes mu_m; every
 * service time of it (a prompt's passes, the steps, the gaps) is scaled by f = mu_m / mu,
 * the one factor that makes its completions the measured ones (a uniformly slower or
 * faster engine: the same steps, each f times as long). The arrivals then queue at the
 * measured capacity: an M/D/1 queue of service 1 / mu at rho = rate / mu (M/G/1 with the
 * output length law's cv^2, the request's hold growing with its output), mean wait
 * rho (1 + cv^2) / (2 mu (1 - rho)) (Pollaczek-Khinchine, Kleinrock, Queueing Systems I,
 * 1975, 5.6), its levels the exponential tail past the empty share 1 - rho (5.7), as
 * serve_levels takes the prompt budget's. Without this, utilisation was the measured
 * capacity's and the queue the model's: 96.5% busy with a 10 ms wait. */
static void serve_measured(const struct tctx *c, const struct infer *in, const struct serve_cfg *g,
			   double rate, double mu, struct plan_serving *v)
{
	const struct workload *w = &c->s->workload;
	double f, rho, wq, O = g->O, cv2 = law_cv2(&w->output_length, O);
	double q[4] = {serve_q[0], serve_q[1], serve_q[2], v->slo_percentile / 100};
	/* the model's engine at the batch the measurement is at: a closed loop of B */
	serve_load(c, in, g, 0, true, v);
	f = v->capacity_rate / mu;
	v->measured_scale = f;
	v->rate = rate;
	v->capacity_rate = mu;
	v->utilisation = rho = rate / mu;
	v->overloaded = !(rho < 1 - 1e-9);
	wq = v->overloaded ? NAN : rho * (1 + cv2) / (2 * mu * (1 - rho));
	/* the service figures, f times the model's */
	v->ttft_service_s *= f;
	v->ttft_ahead_s *= f;
	v->step_decode_s *= f;
	v->step_joined_s *= f;
	v->e2e_run_s *= f;
	v->e2e_cap_s *= f;
	v->prompt_svc_s *= f;
	v->slo_gap_s *= f;
	v->tpot_mean_s *= f;
	v->tpot_slo_s *= f;
	/* no closed loop's wait: the queue at the measured capacity replaces it */
	v->closed_rho = v->closed_wait_s = 0;
	v->wait_res_s = 0;
	v->wait_queue_s = v->wait_s = wq;
	v->ttft_mean_s = v->ttft_service_s + wq;
	v->e2e_mean_s = v->ttft_mean_s + (O > 1 ? O - 1 : 0) * v->tpot_mean_s;
	/* overloaded: the most it completes, no steady state (null) */
	v->requests_per_s = v->overloaded ? mu : rate;
	v->concurrency = v->overloaded ? NAN : rate * (v->e2e_run_s + wq);
	for (int lv = 0; lv < 4; lv++) {
		double wl = wq > 0 && q[lv] > 1 - rho ? wq / rho * log(rho / (1 - q[lv])) : 0;
		double own = v->lv_own_s[lv] * f, out = v->lv_out[lv], ttft;
		v->lv_own_s[lv] = own;
		v->lv_wait_s[lv] = v->overloaded ? NAN : wl;
		v->lv_add_s[lv] *= f;
		ttft = v->overloaded ? NAN : own + wl;
		if (lv < 3) {
			v->tpot[lv] *= f;
			v->ttft[lv] = ttft;
			v->e2e[lv] = ttft + (out > 1 ? out - 1 : 0) * v->tpot_mean_s;
		} else {
			v->ttft_slo_s = ttft;
		}
	}
}

/* The fleet's lone-request warnings (serve_fleet, serve_disagg) quote latencies at the
 * SLO percentile: it goes with them, for the message to name it. */
static void lone_warnings_at(struct plan *p, double percentile)
{
	for (int i = 0; i < p->nwarnings; i++)
		if ((p->warnings[i].code == PW_SLO_UNREACHABLE_TTFT ||
		     p->warnings[i].code == PW_SLO_UNREACHABLE_TPOT) &&
		    !(p->warnings[i].c > 0))
			p->warnings[i].c = percentile;
}

void pt_serve(const struct tctx *c, const struct infer *in, double B, double maxb, double deployed,
	      double tps_plan)
{
	const struct scenario *s = c->s;
	struct plan *p = c->p;
	const struct workload *w = &s->workload;
	struct plan_serving *v = &p->serving;
	struct serve_cfg g;
	double rate = 0, peak, engines = p->ep > 1 ? p->ep : 1;
	double span = (double)p->tp * p->pp * engines;

	/* v is all NaN: plan_compute_time's set_nan, and nothing since */
	g.sched = in->eng.sched;
	peak = peak_rate(w);
	if (g.sched == SCHED_ALONE || (unsigned)g.sched >= SCHED_COUNT) {
		/* alone: the lone step's latencies stand (no queue is modelled), but a peak
		 * above what the scenario's replicas complete at the planned batch (the
		 * measured throughput when one is given) is said: its queue has no bound */
		double cap = tps_plan / (w->output_tokens > 0 ? w->output_tokens : 1);
		if (w->requests > 0)
			plan_warn(p, PW_REQUESTS_IGNORED, 0, 0);
		if (w->kind == WL_ONLINE && peak > 0 && peak / deployed >= cap * (1 - 1e-9)) {
			v->overloaded = true;
			plan_warn(p, PW_OVERLOADED, peak / deployed, cap);
		}
		return;
	}
	serve_config(c, in, B, maxb, &g);
	g.memo = in->memo; /* with what pt_loaded_slo_batch worked out */
	v->scheduler_steps = in->steps;
	if (g.sched == SCHED_DISAGG) {
		if (w->requests > 0)
			plan_warn(p, PW_REQUESTS_IGNORED, 1, 0);
		v->scheduler = g.sched;
		v->budget = isfinite(g.T) ? g.T : NAN;
		v->max_running = g.cap;
		v->slo_percentile = w->slo.percentile > 0 ? w->slo.percentile : 99;
		serve_disagg(c, in, &g, w->kind == WL_ONLINE && w->concurrency <= 0 ? peak : 0,
			     deployed, span);
		/* no pools on these engines and no capacity plan of the pools (no arrival
		 * rate): an offline deadline's count (plan_infer.c, a replica's throughput)
		 * would name a single engine, which cannot disaggregate */
		if (isnan(v->prefill_engines) && isnan(v->fleet_rate))
			p->replicas = p->gpus_required = NAN;
		lone_warnings_at(p, v->slo_percentile);
		if (v->overloaded)
			plan_warn_at(p, PW_OVERLOADED, v->over_rate, v->over_most, v->over_pool);
		p->ttft_s = v->ttft_mean_s;
		p->tpot_s = p->step_s = v->tpot_mean_s;
		pt_decode_terms(c, in, v->batch > 1 ? micro(in, v->batch) : 1, v->step_decode_s);
		/* the fleet's shares, not the decode pool's alone: the pools' engines are alike
		 * (tp x pp GPUs each), so a request's time on each, its prompt's share of a
		 * batched prefill pass and its O - 1 decode steps' share 1 / batch, weighs each
		 * pool by its GPUs x busy time (explain bottleneck.binding) */
		pt_weigh_prefill_shares(c, in, v->batch,
					v->step_decode_s * (g.O > 1 ? g.O - 1 : 1) / g.O,
					isfinite(g.T) ? g.T : 0);
		p->parts.prefill_s = max_num(p->step_s - v->step_decode_s, 0);
		if (w->measured_tokens_per_s > 0)
			return;
		p->tokens_per_s = v->requests_per_s * g.O * v->decode_engines;
		p->tokens_per_s_per_gpu =
		    p->tokens_per_s / (s->hardware.count > 0 ? s->hardware.count : 1);
		if (w->kind == WL_OFFLINE && w->tokens > 0)
			p->total_s = w->tokens / p->tokens_per_s;
		pt_infer_mfu(c);
		return;
	}
	v->scheduler = g.sched;
	v->budget = isfinite(g.T) ? g.T : NAN; /* NaN: unlimited */
	v->max_running = g.cap;
	v->slo_percentile = w->slo.percentile > 0 ? w->slo.percentile : 99;

	/* the load: an arrival rate (split over the replicas), a closed loop, or the batch */
	if (w->kind == WL_ONLINE && w->concurrency <= 0)
		rate = peak;
	if (w->measured_tokens_per_s > 0 && rate > 0)
		serve_measured(c, in, &g, rate / deployed, tps_plan / g.O, v);
	else
		serve_load(c, in, &g, rate > 0 ? rate / deployed : 0, true, v);
	if (w->measured_tokens_per_s > 0 && rate > 0) {
		/* a measured throughput is the most a replica completes: it, not the model's
		 * cap, says whether the arrivals outrun the replica (serve_measured runs the
		 * queue at it) */
		double cap = tps_plan / g.O;
		v->capacity_rate = cap;
		v->utilisation = rate / deployed / cap;
		if (!v->overloaded && rate / deployed >= cap * (1 - 1e-9)) {
			v->overloaded = true;
			v->requests_per_s = cap;
			v->concurrency = v->wait_s = NAN;
			v->ttft_mean_s = v->e2e_mean_s = v->ttft_slo_s = NAN;
			for (int i = 0; i < 3; i++)
				v->ttft[i] = v->e2e[i] = NAN;
		}
	}
	if (v->overloaded) { /* the most it completes: at its cap, or what the budget takes */
		v->over_pool = 0;
		/* a closed loop's N clients, cycling at the running e2e, offer N / e2e */
		v->over_rate = v->rate > 0 ? v->rate : v->concurrency / v->e2e_cap_s;
		v->over_most = v->prompt_svc_s > 0 ? min_num(v->capacity_rate, 1 / v->prompt_svc_s)
						   : v->capacity_rate;
		/* a prompt over the whole multi-step budget is never served (prompt_svc): more
		 * replicas would not help, so the warning says what would */
		if (g.sched == SCHED_CHUNKED && in->steps > 1 && isfinite(g.T) && g.P > g.T)
			plan_warn(p, PW_PROMPT_OVER_BUDGET, g.P, g.T);
		else
			plan_warn(p, PW_OVERLOADED, v->over_rate, v->over_most);
	}
	if (w->slo.ttft_s > 0 && !(v->ttft_slo_s <= w->slo.ttft_s * (1 + 1e-9)))
		plan_warn_at(p, PW_SLO_PERCENTILE, v->ttft_slo_s, w->slo.ttft_s, v->slo_percentile);
	if (w->slo.tpot_s > 0 && !(v->tpot_slo_s <= w->slo.tpot_s * (1 + 1e-9)))
		plan_warn_at(p, PW_SLO_PERCENTILE_TPOT, v->tpot_slo_s, w->slo.tpot_s,
			     v->slo_percentile);

	/* the loaded engine's figures replace the step alone's */
	p->ttft_s = v->overloaded ? NAN : v->ttft_mean_s;
	p->tpot_s = v->tpot_mean_s;
	p->step_s = p->tpot_s;
	/* the decode step's terms and the shares: of the running batch's decode step; the
	 * mean tpot's rest is the prompts' share of the loaded steps */
	if (isfinite(v->measured_scale) && v->measured_scale > 0) {
		/* serve_measured: the model's terms and shares at its own step, each part then
		 * f times as long, so that they add up to the measured engine's step */
		double f = v->measured_scale;
		struct plan_time_parts *t = &p->parts;
		pt_decode_terms(c, in, v->batch > 1 ? micro(in, v->batch) : 1,
				v->step_decode_s / f);
		t->matmul_s *= f, t->attention_s *= f, t->memory_bound_s *= f;
		t->tp_comm_s *= f, t->ep_comm_s *= f, t->pp_comm_s *= f;
		t->weight_read_s *= f, t->fixed_s *= f;
	} else {
		pt_decode_terms(c, in, v->batch > 1 ? micro(in, v->batch) : 1, v->step_decode_s);
	}
	/* the shares weigh the prompts' time against the decode steps' at the model's own
	 * step (serve_measured scales both alike) */
	pt_weigh_prefill_shares(c, in, v->batch,
				isfinite(v->measured_scale) && v->measured_scale > 0
				    ? v->step_decode_s / v->measured_scale
				    : v->step_decode_s,
				0);
	p->parts.prefill_s = max_num(p->step_s - v->step_decode_s, 0);
	if (w->measured_tokens_per_s > 0) {
		if (w->requests > 0)
			plan_warn(p, PW_REQUESTS_IGNORED, 2, 0);
		return; /* a measured throughput sizes the fleet as it does alone */
	}
	p->tokens_per_s = v->requests_per_s * g.O * deployed;
	/* an offline job of workload.tokens runs at the steady state, as the capacity plan
	 * below does; a finite run (workload.requests) is a benchmark's throughput */
	if (w->kind == WL_OFFLINE && w->tokens > 0)
		p->total_s = w->tokens / p->tokens_per_s;
	if (w->requests > 0) { /* a finite run's: its tokens over its duration */
		/* the slowest replica runs the most requests: ceil of the even split */
		double N = ceil(w->requests / deployed - 1e-9);
		v->run_s = finite_run(c, in, &g, v, N);
		p->tokens_per_s = w->requests * g.O / v->run_s;
	}
	p->tokens_per_s_per_gpu = p->tokens_per_s / (s->hardware.count > 0 ? s->hardware.count : 1);
	pt_infer_mfu(c); /* of the loaded throughput */

	/* the capacity plan from the loaded engine */
	if (rate > 0) {
		serve_fleet(c, in, &g, rate, engines, span);
		lone_warnings_at(p, v->slo_percentile);
	} else if ((w->kind == WL_ONLINE && peak > 0) ||
		   (w->kind == WL_OFFLINE && w->tokens > 0 && w->deadline_s > 0)) {
		/* a closed loop (or an offline batch) completes a fixed rate per engine: the
		 * fewest replicas whose completions cover the peak, or the tokens by the
		 * deadline; its latencies do not change with the count */
		double per = v->requests_per_s * engines; /* requests/s per replica */
		double need = w->kind == WL_ONLINE ? peak : w->tokens / (g.O * w->deadline_s);
		v->fleet_rule = FLEET_THROUGHPUT;
		v->fleet_rate = need;
		v->fleet_engines = engines;
		p->replicas = ceil(need / per - 1e-9);
		p->gpus_required = p->replicas * span;
		/* past the ceiling no count is planned, as the walk (serve_fleet) stops */
		if (p->gpus_required > PLAN_MAX_GPUS) {
			plan_warn(p, PW_FLEET_OVER_MAX, floor(PLAN_MAX_GPUS / span), span);
			p->replicas = p->gpus_required = NAN;
		}
	}
}
