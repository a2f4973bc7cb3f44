/* search.c - the parallel layouts (and GPU types and counts) that fit, each through
 * plan_compute, ranked by time or cost; allocation-free (search.h). */
#include "search.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Layout rules follow Megatron-LM's (Narayanan et al. 2021, Section 3): tensor parallelism
 * inside a node (its all-reduces need NVLink), pipeline stages across nodes, data
 * parallelism over what is left; tp must divide the attention heads. */

#define MAX_DIV 64

static int divisors(int n, int *out, int max)
{
	int k = 0;
	for (int d = 1; d <= n && k < max; d++)
		if (n % d == 0)
			out[k++] = d;
	return k;
}

/* Pipeline depths worth trying: divisors of the layer count and powers of two (stages may
 * hold uneven layer counts, as Llama 3 405B's 126 layers on 16 stages do). */
static int pipeline_depths(int layers, int *out, int max)
{
	int k = 0;
	for (int d = 1; d <= layers && k < max; d++) {
		bool pow2 = (d & (d - 1)) == 0;
		if (layers % d == 0 || pow2)
			out[k++] = d;
	}
	return k;
}

/* Whether a planned scenario meets what it asks for: the deadline, and for inference the
 * test capacity_plan.gpus_required is sized by (plan_serving_meets: the SLO at its
 * percentile under the loaded engine, the fleet within the count). */
static bool meets_target(const struct scenario *s, const struct plan *p)
{
	const struct workload *w = &s->workload;

	if (!p->mem.fits)
		return false;
	if (w->deadline_s > 0 && isfinite(p->total_s) && p->total_s > w->deadline_s)
		return false;
	return plan_serving_meets(s, p);
}

/* Whether the plan's serving capacity is sized by a load (capacity_plan.gpus_required is
 * the fleet it needs): then layouts rank by that fleet, not by the tokens/s the scenario's
 * count happens to give (under a load every layout that keeps up serves the same rate). */
static bool sized_by_load(const struct scenario *s)
{
	const struct workload *w = &s->workload;
	return w->kind == WL_ONLINE && (w->requests_per_day > 0 || w->requests_per_s > 0);
}

bool search_has_target(const struct scenario *s)
{
	const struct workload *w = &s->workload;
	return w->deadline_s > 0 || w->slo.ttft_s > 0 || w->slo.tpot_s > 0;
}

bool search_sized_by_load(const struct scenario *s)
{
	return sized_by_load(s);
}

/* Lower is better: seconds per token processed, or USD per token. */
static double score_of(const struct scenario *s, const struct plan *p, enum search_by by)
{
	double tps = p->tokens_per_s;

	if (sized_by_load(s) && isfinite(p->gpus_required)) {
		/* GPUs the load needs, or their USD per hour */
		if (by == SEARCH_BY_COST)
			return p->gpus_required * s->hardware.gpu.price_per_hour;
		return p->gpus_required;
	}
	if (sized_by_load(s)) /* no count meets: after every layout that has one */
		return (by == SEARCH_BY_COST ? s->hardware.gpu.price_per_hour : 1) * PLAN_MAX_GPUS *
		       10;

	if (!isfinite(tps) || tps <= 0)
		return INFINITY;
	if (by == SEARCH_BY_COST)
		return s->hardware.count * s->hardware.gpu.price_per_hour / 3600.0 / tps;
	return 1.0 / tps;
}

struct ranking {
	struct search_result *out;
	int n, cap;
	struct search_stats *stats;
	enum search_by by;
};

static bool better(const struct search_result *a, const struct search_result *b)
{
	if (a->meets_target != b->meets_target)
		return a->meets_target;
	if (a->score != b->score)
		return a->score < b->score;
	return a->tiebreak < b->tiebreak;
}

/* How much machinery a layout needs: sharding stages, offload, interleaving, sequence
 * parallelism. Between layouts that run equally fast, the simpler one is shown. */
static int complexity(const struct search_result *a)
{
	return a->plan.zero + 2 * (int)a->parallel.offload + (a->parallel.virtual_stages > 1) +
	       a->parallel.sequence_parallel + (a->parallel.cp > 1);
}

static bool same_time(const struct search_result *a, const struct search_result *b)
{
	return fabs(a->score - b->score) <= 1e-3 * fmin(a->score, b->score);
}

/* Layouts that differ only in machinery that does not change the time are one result. */
static bool variant_of(const struct search_result *a, const struct search_result *b)
{
	return a->count == b->count && strcmp(a->gpu, b->gpu) == 0 &&
	       a->parallel.tp == b->parallel.tp && a->parallel.pp == b->parallel.pp &&
	       a->parallel.ep == b->parallel.ep && a->parallel.cp == b->parallel.cp &&
	       a->micro_batch == b->micro_batch && a->recompute == b->recompute &&
	       a->weights == b->weights && a->kv_cache == b->kv_cache &&
	       a->meets_target == b->meets_target && same_time(a, b);
}

/* Inserts the candidate in s / p if it ranks among the best. */
static void consider(struct ranking *r, const struct scenario *s, const struct plan *p)
{
	struct search_result c;
	int i;

	memset(&c, 0, sizeof(c));
	c.meets_target = meets_target(s, p);
	c.score = score_of(s, p, r->by);
	if (sized_by_load(s)) {
		/* equal fleets: the smaller deployment, then the lower latency at the SLO's
		 * percentile (its end-to-end, folded into [0, 1)) */
		const struct plan_serving *v = &p->serving;
		double e = isnan(v->scheduler) ? p->ttft_s : v->ttft_slo_s;
		double O = s->workload.output_tokens > 1 ? s->workload.output_tokens - 1 : 0;
		e += O * (isnan(v->scheduler) ? p->tpot_s : v->tpot_slo_s);
		c.tiebreak = s->hardware.count + (e >= 0 && isfinite(e) ? e / (1 + e) : 0.999999);
	}
	if (!isfinite(c.score))
		return;
	if (r->n == r->cap && !better(&c, &r->out[r->n - 1]))
		return;
	snprintf(c.gpu, sizeof(c.gpu), "%s", s->hardware.gpu.id);
	c.count = s->hardware.count;
	c.parallel = s->parallel;
	c.parallel.dp = p->dp;
	c.micro_batch = s->workload.micro_batch;
	c.recompute = s->workload.recompute;
	c.batch = s->workload.batch;
	c.weights = s->workload.weights;
	c.kv_cache = s->workload.kv_cache;
	c.plan = *p;
	for (i = 0; i < r->n; i++) {
		if (!variant_of(&c, &r->out[i]))
			continue;
		if (complexity(&c) >= complexity(&r->out[i]))
			return;
		/* the simpler variant takes the place of the one it replaces */
		for (; i + 1 < r->n; i++)
			r->out[i] = r->out[i + 1];
		r->n--;
		break;
	}
	i = r->n < r->cap ? r->n++ : r->cap - 1;
	while (i > 0 && better(&c, &r->out[i - 1])) {
		r->out[i] = r->out[i - 1];
		i--;
	}
	r->out[i] = c;
}

/* Computes memory, and time only for what fits. Returns whether it fit. */
static bool evaluate(struct ranking *r, const struct scenario *s, struct plan *p)
{
	r->stats->evaluated++;
	plan_compute_memory(s, p);
	if (!p->mem.fits)
		return false;
	r->stats->fitting++;
	r->stats->timed++;
	plan_compute_time(s, p);
	consider(r, s, p);
	return true;
}

struct space {
	bool full; /* every option; false: the reduced set used across hardware */
	bool cross_node_tp;
};

/* Micro-batch sizes: the divisors of the sequences each replica takes per step (so the
 * global batch splits evenly), up to 256; without a global batch, powers of two to 64. */
static int micro_batches(int gb, int dp, int *out, int max)
{
	int k = 0;
	if (gb <= 0) {
		for (int mb = 1; mb <= 64 && k < max; mb *= 2)
			out[k++] = mb;
		return k;
	}
	if (gb % dp)
		return 0;
	for (int mb = 1; mb <= 256 && mb <= gb / dp && k < max; mb++)
		if ((gb / dp) % mb == 0)
			out[k++] = mb;
	return k;
}

/* For one tp x pp x ep x interleaving, the machinery that trades memory for time: ZeRO
 * stage, offload, sequence parallelism, recomputation and micro-batch size. */
static void search_machinery(struct ranking *r, struct scenario *s, const struct space *sp,
			     struct plan *p, const int *mbs, int nmb)
{
	static const enum recompute rcs[] = {RECOMPUTE_NONE, RECOMPUTE_SELECTIVE, RECOMPUTE_FULL};
	int tp = s->parallel.tp;

	for (int z = 0; z <= 3; z++) {
		if (!sp->full && z != 1 && z != 3)
			continue;
		s->parallel.zero = z;
		for (int o = 0; o < 3; o++) {
			if (o && (!sp->full || z == 0))
				continue;
			if (o == OFFLOAD_OPTIMIZER_PARAMS && z != 3)
				continue;
			/* only what the framework runs (scenario_validate refuses the rest) */
			if (!framework_runs_layout(s->workload.framework, tp, s->parallel.pp, z,
						   o != OFFLOAD_NONE))
				continue;
			s->parallel.offload = (enum offload)o;
			for (int q = 0; q < (tp > 1 ? 2 : 1); q++) {
				if (!sp->full && q == 0 && tp > 1)
					continue;
				s->parallel.sequence_parallel = q;
				for (int k = 0; k < 3; k++) {
					if (!sp->full && k == 0)
						continue;
					s->workload.recompute = rcs[k];
					r->stats->layouts += nmb;
					/* a larger micro-batch never needs less memory: stop at
					 * the first that fails */
					for (int i = 0; i < nmb; i++) {
						s->workload.micro_batch = mbs[i];
						if (!evaluate(r, s, p))
							break;
					}
				}
			}
		}
	}
}

/* The tensor-parallel degrees to try, in increasing order: the divisors of the head count
 * (after plan_compute_memory has resolved the shape) that the GPU count holds, within a
 * node unless the space crosses nodes. Returns how many. */
static int tp_degrees(const struct scenario *s, const struct space *sp, const struct plan *p,
		      int *tps)
{
	int all[MAX_DIV], n = 0, count = s->hardware.count;
	int node = s->hardware.gpu.gpus_per_node > 0 ? s->hardware.gpu.gpus_per_node : 1;
	int nall = divisors(p->model.heads > 0 ? p->model.heads : 1, all, MAX_DIV);

	for (int i = 0; i < nall; i++)
		if (all[i] <= count && (sp->cross_node_tp || all[i] <= node))
			tps[n++] = all[i];
	return n;
}

/* Context-parallel degrees to try: 1, and the powers of two that split the sequence into
 * 2 cp equal chunks (Megatron's causal load balance, megatron/training/utils.py
 * get_batch_on_this_cp_rank) of at least CP_MIN_TOKENS / 2 tokens, so a rank holds
 * CP_MIN_TOKENS or more: the long-context runs published split 8k over cp 2 (NeMo's
 * long-context recipes) and 128k over cp 16 (Llama 3, Dubey et al. 2024, Table 4),
 * 4,096 and 8,192 tokens a rank. A bound of the search space, not of the physics. */
#define CP_MIN_TOKENS 4096

static int cp_degrees(int seq_len, int *out, int max)
{
	int n = 0;
	out[n++] = 1;
	for (int cp = 2; n < max && seq_len / cp >= CP_MIN_TOKENS && cp <= 64; cp *= 2)
		if (seq_len % (2 * cp) == 0)
			out[n++] = cp;
	return n;
}

static void search_training(struct ranking *r, struct scenario *s, const struct space *sp,
			    struct plan *p)
{
	int tps[MAX_DIV], pps[MAX_DIV], eps[MAX_DIV], mbs[MAX_DIV], cps[8];
	int layers, count = s->hardware.count;
	int ntp, npp, nep = 1, gb = s->workload.global_batch;
	int ncp = cp_degrees(s->workload.seq_len, cps, 8);
	/* interleaved chunks per stage; stages may hold uneven layer counts (Megatron-LM's
	 * --decoder-first/last-pipeline-num-layers; Llama 3 405B: 126 layers on 16 stages) */
	static const int vstages[] = {1, 2, 3, 4, 6, 8};
	const struct model *m;

	plan_compute_memory(s, p); /* resolves the shape (an assumed one, too) */
	m = &p->model;
	layers = m->layers > 0 ? m->layers : 1;
	ntp = tp_degrees(s, sp, p, tps);
	npp = pipeline_depths(layers, pps, MAX_DIV);
	if (m->moe.experts > 0)
		nep = divisors(m->moe.experts, eps, MAX_DIV);
	else
		eps[0] = 1;

	for (int a = 0; a < ntp; a++) {
		int tp = tps[a];
		for (int b = 0; b < npp; b++) {
			int pp = pps[b];
			if ((long)tp * pp > count)
				break;
			for (int c = 0; c < nep * ncp; c++) {
				int ep = eps[c / ncp], cp = cps[c % ncp];
				long span = (long)tp * pp * ep * cp;
				if (span > count || count % span)
					continue;
				int dp = (int)(count / span);
				/* data replicas are dp x ep (experts shard inside them); the cp
				 * ranks of a replica read the same sequences */
				int nmb = micro_batches(gb, dp * ep, mbs, MAX_DIV);
				s->parallel.tp = tp;
				s->parallel.pp = pp;
				s->parallel.ep = ep;
				s->parallel.cp = cp;
				s->parallel.dp = dp;
				for (int v = 0; v < (sp->full ? 6 : 1); v++) {
					int vs = vstages[v];
					if (vs > 1 && (pp < 2 || pp * vs > layers))
						continue;
					s->parallel.virtual_stages = vs;
					search_machinery(r, s, sp, p, mbs, nmb);
				}
			}
		}
	}
}

static void search_inference(struct ranking *r, struct scenario *s, const struct space *sp,
			     struct plan *p)
{
	int tps[MAX_DIV];
	int count = s->hardware.count, ntp;
	enum dtype weights0 = s->workload.weights, kv0 = s->workload.kv_cache;
	enum dtype wopts[4] = {weights0, DTYPE_FP8, DTYPE_INT8, DTYPE_INT4};
	enum dtype kopts[2] = {kv0, DTYPE_FP8};

	plan_compute_memory(s, p);
	ntp = tp_degrees(s, sp, p, tps);
	for (int a = 0; a < ntp; a++) {
		int tp = tps[a];
		for (int pp = 1; (long)pp * tp <= count && pp <= 64; pp *= 2) {
			if (count % (tp * pp))
				continue;
			s->parallel.tp = tp;
			s->parallel.pp = pp;
			s->parallel.ep = 1;
			s->parallel.cp = 1; /* training only */
			s->parallel.dp = count / (tp * pp);
			for (int w = 0; w < 4; w++) {
				if (w && wopts[w] == weights0)
					continue;
				if (w && !sp->full)
					break;
				s->workload.weights = wopts[w];
				for (int k = 0; k < 2; k++) {
					if (k && (kopts[k] == kv0 || !sp->full))
						continue;
					s->workload.kv_cache = kopts[k];
					r->stats->layouts++;
					evaluate(r, s, p);
				}
			}
		}
	}
	s->workload.weights = weights0;
	s->workload.kv_cache = kv0;
}

static void search_layouts(struct ranking *r, struct scenario *s, const struct space *sp,
			   struct plan *p)
{
	if (s->workload.kind == WL_ONLINE || s->workload.kind == WL_OFFLINE)
		search_inference(r, s, sp, p);
	else
		search_training(r, s, sp, p);
}

int search_run(const struct scenario *s0, const struct search_options *opt,
	       struct search_result *out, struct search_stats *stats)
{
	struct scenario s = *s0;
	struct plan p;
	struct search_stats dummy;
	struct ranking r;
	struct space sp = {.full = !opt->hardware, .cross_node_tp = opt->cross_node_tp};

	if (!stats)
		stats = &dummy;
	memset(stats, 0, sizeof(*stats));
	r.out = out;
	r.n = 0;
	r.cap = opt->top > 0 ? opt->top : 1;
	r.stats = stats;
	r.by = opt->by;

	if (!opt->hardware || !opt->cat) {
		search_layouts(&r, &s, &sp, &p);
		return r.n;
	}
	int max = opt->max_gpus > 0 ? opt->max_gpus : 4096;
	for (int g = 0; g < opt->cat->ngpus; g++) {
		const struct gpu *gpu = &opt->cat->gpus[g];
		/* a precision the GPU lacks (auto resolves to one it has: plan_precision) */
		if (s0->workload.precision != PRECISION_AUTO &&
		    gpu->peak_flops[s0->workload.precision] <= 0)
			continue;
		s = *s0;
		s.hardware.gpu = *gpu;
		int node = gpu->gpus_per_node > 0 ? gpu->gpus_per_node : 1;
		/* powers of two within a node, then whole nodes doubling */
		for (int count = 1; count <= max;
		     count = count < node && count * 2 > node ? node : count * 2) {
			s.hardware.count = count;
			search_layouts(&r, &s, &sp, &p);
		}
	}
	return r.n;
}

void search_apply(struct scenario *s, const struct catalog *cat, const struct search_result *r)
{
	if (strcmp(s->hardware.gpu.id, r->gpu) != 0 && cat) {
		const struct gpu *g = catalog_find_gpu(cat, r->gpu);
		if (g)
			s->hardware.gpu = *g;
	}
	s->hardware.count = r->count;
	s->parallel = r->parallel;
	s->workload.micro_batch = r->micro_batch;
	s->workload.recompute = r->recompute;
	s->workload.batch = r->batch;
	s->workload.weights = r->weights;
	s->workload.kv_cache = r->kv_cache;
}

/* Sets a numeric field through the field table (its text form reads back exactly). */
static int set_number(struct scenario *s, const struct field *f, double v)
{
	char buf[64];
	if (f->type == FIELD_INT)
		snprintf(buf, sizeof(buf), "%.0f", v);
	else
		units_format(f->unit, v, buf, sizeof(buf));
	return scenario_field_set(s, NULL, f, buf, NULL);
}

/* GPUs come in multiples of one model replica's tp x pp x ep (x cp in training). */
static double whole_replicas(const struct scenario *s, double count)
{
	double span = (double)scenario_replica_gpus(s);
	return span > 1 ? ceil(count / span) * span : count;
}

static bool works(const struct scenario *base, const struct field *f, double v)
{
	struct scenario s = *base;
	struct plan p;

	if (strcmp(f->key, "hardware.count") == 0)
		v = whole_replicas(base, v);

	if (set_number(&s, f, v) != 0)
		return false;
	if (strcmp(f->key, "hardware.count") == 0)
		s.parallel.dp = 0; /* more GPUs go to data parallelism */
	plan_compute(&s, &p);
	return meets_target(&s, &p);
}

bool search_works(const struct scenario *s, const char *key, double v)
{
	const struct field *f = scenario_field_find(key);
	return f && (f->type == FIELD_INT || f->type == FIELD_NUM) && works(s, f, v);
}

/* Walks up from start, where works() gives answer, doubling to the first value where it
 * does not: returns 0 with *last the last value that gave answer and *first the first that
 * did not (hi at most), or -1 when works() gives answer all the way to hi. */
static int bracket_up(const struct scenario *s, const struct field *f, double start, double hi,
		      bool answer, double *last, double *first)
{
	double v = start > 0 ? start * 2 : 1; /* from 0 (ZeRO stage 0), 1 is the next */

	*last = start;
	while (v <= hi && works(s, f, v) == answer) {
		*last = v;
		v *= 2;
	}
	if (v > hi) {
		if (works(s, f, hi) == answer)
			return -1;
		v = hi;
	}
	*first = v;
	return 0;
}

int search_solve(const struct scenario *s, const char *key, bool maximize, double *value,
		 struct gp_error *err)
{
	const struct field *f = scenario_field_find(key);
	double good, bad, lo, hi;
	bool integral;

	if (!f) {
		const char *near = scenario_field_suggest(key, NULL);
		return gp_error_set(err, GP_EUSAGE, NULL, 0, 0, "unknown key '%s'%s%s%s", key,
				    near ? " (did you mean '" : "", near ? near : "",
				    near ? "'?)" : "");
	}
	if (f->type != FIELD_INT && f->type != FIELD_NUM)
		return gp_error_set(err, GP_EUSAGE, NULL, 0, 0,
				    "%s is not a number (goal seek needs a numeric field)", key);
	/* GPUs for a training deadline: the one rule capacity_plan.gpus_required follows
	 * (plan_deadline_gpus walks the counts as below, with meets_target's test) */
	if (!maximize && strcmp(key, "hardware.count") == 0 &&
	    (s->workload.kind == WL_TRAIN || s->workload.kind == WL_FINETUNE) &&
	    s->workload.deadline_s > 0 && s->workload.tokens > 0) {
		double g = plan_deadline_gpus(s, true);
		if (isnan(g)) {
			char buf[64];
			units_format(f->unit, f->max, buf, sizeof(buf));
			return gp_error_set(err, GP_EINPUT, NULL, 0, 0,
					    "no %s up to %s fits and meets the target", key, buf);
		}
		*value = g;
		return 0;
	}
	integral = f->type == FIELD_INT;
	lo = scenario_field_least(f);
	hi = f->max;
	/* the current value is the natural start; walk outward by doubling */
	{
		char buf[64];
		double cur;
		scenario_field_format(s, f, buf, sizeof(buf));
		if (units_parse(f->unit, buf, &cur, NULL) != 0 || cur < lo)
			cur = lo;
		if (maximize) {
			if (!works(s, f, cur) && works(s, f, lo)) {
				good = lo;
				bad = cur;
			} else {
				/* what works need not start at the minimum: a batch too small
				 * for the day's requests on these GPUs fails as one too large
				 * for memory does. From the current value, or else the first
				 * that works in steps of 25% up from the minimum, go up. */
				if (!works(s, f, cur)) {
					double v = lo;
					cur = 0;
					while (v <= hi) {
						double nv = v * 1.25;
						if (works(s, f, v)) {
							cur = v;
							break;
						}
						if (integral)
							nv = ceil(nv);
						v = nv > v ? nv : v + 1;
					}
					if (cur == 0) {
						units_format(f->unit, lo, buf, sizeof(buf));
						return gp_error_set(err, GP_EINPUT, NULL, 0, 0,
								    "no %s fits and meets the "
								    "target, from %s up",
								    key, buf);
					}
				}
				if (bracket_up(s, f, cur, hi, true, &good, &bad) != 0) {
					*value = hi;
					return 0;
				}
			}
		} else {
			if (!works(s, f, cur)) {
				if (bracket_up(s, f, cur, hi, false, &bad, &good) != 0) {
					units_format(f->unit, hi, buf, sizeof(buf));
					return gp_error_set(err, GP_EINPUT, NULL, 0, 0,
							    "no %s up to %s fits and meets the "
							    "target",
							    key, buf);
				}
			} else {
				good = cur;
				bad = lo;
				if (works(s, f, lo)) {
					*value = lo;
					return 0;
				}
			}
		}
	}
	/* bisect between a value that works and one that does not */
	for (int i = 0; i < 200; i++) {
		double mid = integral ? floor((good + bad) / 2) : (good + bad) / 2;
		if (integral ? fabs(good - bad) <= 1 : fabs(good - bad) <= 1e-6 * fabs(good))
			break;
		if (works(s, f, mid))
			good = mid;
		else
			bad = mid;
	}
	*value = strcmp(key, "hardware.count") == 0 ? whole_replicas(s, good) : good;
	return 0;
}

void search_scaling(const struct scenario *s, const struct search_options *opt, const int *counts,
		    int n, struct search_result *out)
{
	struct search_options o = *opt;
	o.top = 1;
	o.hardware = false;
	o.by = SEARCH_BY_TIME;
	for (int i = 0; i < n; i++) {
		struct scenario t = *s;
		t.hardware.count = counts[i];
		t.parallel.dp = 0;
		memset(&out[i], 0, sizeof(out[i]));
		if (search_run(&t, &o, &out[i], NULL) < 1 || !out[i].plan.mem.fits)
			out[i].count = 0;
	}
}
