/* calibrate.c - efficiency knobs fitted to measured figures by bisection (calibrate.h). */
#include "calibrate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dtype.h"
#include "text.h"
#include "units.h"

/* The figures a run can be measured by, with their short aliases. */
static const struct {
	const char *key, *alias, *alias2;
} measurable[] = {
    {"time.step_s", "step_s", NULL},
    {"throughput.tokens_per_s", "tokens_per_s", NULL},
    {"throughput.tokens_per_s_per_gpu", "tokens_per_s_per_gpu", NULL},
    {"compute.mfu", "mfu", NULL},
    {"latency.tpot_s", "tpot_s", "tpot"},
    {"latency.ttft_s", "ttft_s", "ttft"},
    /* torch.cuda.max_memory_reserved, max_memory_allocated, and nvidia-smi's used memory */
    {"memory.per_gpu.reserved", "peak_memory", "reserved"},
    {"memory.per_gpu.allocated", "allocated", NULL},
    {"memory.per_gpu.total", "memory", NULL},
};
#define NMEASURABLE (sizeof(measurable) / sizeof(measurable[0]))

static const char *const knob_keys[CAL_KNOB_COUNT] = {"efficiency.mfu", "efficiency.hbm",
						      "efficiency.network", "efficiency.gemm",
						      "efficiency.memory_overhead"};

/* What each knob stands for, in a limit's message. */
static const char *const knob_peak[CAL_KNOB_COUNT] = {
    "every GPU at its datasheet peak", "HBM at its datasheet bandwidth",
    "every link at its datasheet bandwidth", "every GEMM at the datasheet peak",
    "the allocator holding as much again as it allocates"};

const char *calibrate_knob_key(enum calibrate_knob k)
{
	return k >= 0 && k < CAL_KNOB_COUNT ? knob_keys[k] : "none";
}

int calibrate_knob_parse(const char *name)
{
	for (int k = 0; k < CAL_KNOB_COUNT; k++)
		if (k != CAL_KNOB_MEMORY &&
		    (strcmp(name, knob_keys[k]) == 0 || strcmp(name, knob_keys[k] + 11) == 0))
			return k;
	return -1;
}

const struct figure *calibrate_figure(const char *key)
{
	for (size_t i = 0; i < NMEASURABLE; i++)
		if (strcmp(key, measurable[i].key) == 0 || strcmp(key, measurable[i].alias) == 0 ||
		    (measurable[i].alias2 && strcmp(key, measurable[i].alias2) == 0))
			return figure_find(measurable[i].key);
	return NULL;
}

const char *calibrate_keys_help(void)
{
	return "time.step_s (step_s), throughput.tokens_per_s (tokens_per_s), "
	       "throughput.tokens_per_s_per_gpu, compute.mfu (mfu), latency.tpot_s (tpot_s), "
	       "latency.ttft_s (ttft_s), memory.per_gpu.reserved (peak_memory), "
	       "memory.per_gpu.allocated (allocated), memory.per_gpu.total (memory)";
}

static bool is_memory(const struct figure *f)
{
	return f->unit == UNIT_BYTES;
}

/* Higher is faster: tokens/s and MFU. */
static bool is_rate(const struct figure *f)
{
	return f->unit == UNIT_COUNT || f->unit == UNIT_RATIO;
}

int calibrate_parse(const char *kv, struct calibrate_measure *m, struct gp_error *err)
{
	const char *eq = strchr(kv, '=');
	char key[96];
	const char *why = NULL;
	size_t n;

	memset(m, 0, sizeof(*m));
	m->knob = -1;
	if (!eq)
		return gp_error_set(err, GP_EINPUT, NULL, 0, 0,
				    "--measured '%s': expected KEY=VALUE, KEY one of %s", kv,
				    calibrate_keys_help());
	n = (size_t)(eq - kv);
	while (n && kv[n - 1] == ' ')
		n--;
	snprintf(key, sizeof(key), "%.*s", (int)n, kv);
	if (!(m->fig = calibrate_figure(key)))
		return gp_error_set(err, GP_EINPUT, NULL, 0, 0,
				    "--measured '%s': unknown figure '%s' (expected one of %s)", kv,
				    key, calibrate_keys_help());
	if (units_parse(m->fig->unit, eq + 1, &m->value, &why) != 0)
		return gp_error_set(err, GP_EINPUT, NULL, 0, 0, "--measured '%s': expected %s", kv,
				    why ? why : "a number");
	/* a size without its unit would read as bytes: 71 is never 71 GB of a GPU */
	if (is_memory(m->fig) && !strpbrk(eq + 1, "BbKkMmGgTtPp"))
		return gp_error_set(err, GP_EINPUT, NULL, 0, 0,
				    "--measured '%s': expected a size with its unit, like 71.2GiB",
				    kv);
	if (!(m->value > 0) || !isfinite(m->value))
		return gp_error_set(err, GP_EINPUT, NULL, 0, 0,
				    "--measured '%s': expected a value above 0", kv);
	return 0;
}

/* The knob's value in s, through the field table's offset. */
static double *knob_ptr(struct scenario *s, int k)
{
	return (double *)((char *)s + scenario_field_find(knob_keys[k])->offset);
}

/* The field table's range of every knob (1e-4 to 1). */
static void knob_range(int k, double *lo, double *hi)
{
	const struct field *f = scenario_field_find(knob_keys[k]);
	*lo = f ? f->min : 1e-4;
	*hi = f ? f->max : 1;
}

static double eval(struct scenario *s, int k, double x, const struct figure *f, struct plan *p)
{
	*knob_ptr(s, k) = x;
	plan_compute(s, p);
	return figure_value(f, p);
}

/* Bisection in log x over the knob's range for figure f = target, the other knobs as s
 * has them. Returns true with *x the root when the range brackets the target (s's knob is
 * left at the root); false with s's knob as it was otherwise. Deterministic: a fixed
 * number of halvings, no tolerance that depends on the figure. */
static bool root(struct scenario *s, int k, const struct figure *f, double target, struct plan *p,
		 double *x)
{
	double was = *knob_ptr(s, k), lo, hi, glo, ghi;

	knob_range(k, &lo, &hi);
	glo = eval(s, k, lo, f, p) - target;
	ghi = eval(s, k, hi, f, p) - target;
	if (!isfinite(glo) || !isfinite(ghi) || (glo > 0) == (ghi > 0) || glo == ghi) {
		if (ghi == 0) {
			*x = hi;
			return true;
		}
		*knob_ptr(s, k) = was;
		return false;
	}
	for (int i = 0; i < 80 && hi / lo > 1 + 1e-12; i++) {
		double mid = sqrt(lo * hi), g = eval(s, k, mid, f, p) - target;
		if ((g > 0) == (glo > 0)) {
			lo = mid;
			glo = g;
		} else {
			hi = mid;
		}
	}
	*x = sqrt(lo * hi);
	*knob_ptr(s, k) = *x;
	return true;
}

/* Four significant digits: a knob a person can read in the file, within 0.05% of the root. */
static double round4(double x)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%.4g", x);
	return strtod(buf, NULL); /* the double nearest 0.3358, which saves as "0.3358" */
}

static void share_text(const struct plan *p, char *buf, size_t size)
{
	snprintf(buf, size, "compute %.0f%%, HBM %.0f%%, interconnect %.0f%%",
		 100 * p->shares[BN_COMPUTE], 100 * p->shares[BN_HBM],
		 100 * p->shares[BN_INTERCONNECT]);
}

static bool is_training(const struct scenario *s)
{
	return s->workload.kind == WL_TRAIN || s->workload.kind == WL_FINETUNE;
}

/* The knobs that may explain m, most likely first, from the plan's shares; the caller's
 * (--knob) in their order when it names any. */
static int candidates(const struct scenario *s, const struct plan *p,
		      const struct calibrate_measure *m, const int *knobs, int nknobs,
		      int out[CAL_KNOB_COUNT])
{
	double c = p->shares[BN_COMPUTE], h = p->shares[BN_HBM], i = p->shares[BN_INTERCONNECT];
	int n = 0;

	if (nknobs > 0) {
		for (int k = 0; k < nknobs && n < CAL_KNOB_COUNT; k++)
			out[n++] = knobs[k];
		return n;
	}
	if (is_training(s)) {
		/* the knob of each share scales what the model computes for it, in order of
		 * the share: efficiency.gemm the GEMMs and the attention core (their ceiling,
		 * plan_time.c's emax), efficiency.hbm the memory-bound kernels and the
		 * optimizer, efficiency.network the exposed collectives. The model's own
		 * dependence on sequence length, recomputation, layout and model size stays,
		 * so the knob carries to the cluster's other runs; efficiency.mfu, which would
		 * replace it with one absolute figure, is fitted only when asked (--knob) */
		double share[3] = {c, h, i};
		int kn[3] = {CAL_KNOB_GEMM, CAL_KNOB_HBM, CAL_KNOB_NETWORK};
		for (int a = 0; a < 3; a++) {
			int best = -1;
			for (int b = 0; b < 3; b++)
				if (kn[b] >= 0 && (best < 0 || share[b] > share[best]))
					best = b;
			out[n++] = kn[best];
			kn[best] = -1;
		}
		return n;
	}
	/* inference: a prefill is GEMMs over the whole prompt (compute-bound), a decode is
	 * bound by the largest of its shares */
	if (strcmp(m->fig->key, "latency.ttft_s") == 0 || (c > h && c > i)) {
		out[n++] = CAL_KNOB_GEMM;
		out[n++] = CAL_KNOB_HBM;
		out[n++] = CAL_KNOB_NETWORK;
	} else if (i > h) {
		out[n++] = CAL_KNOB_NETWORK;
		out[n++] = CAL_KNOB_HBM;
		out[n++] = CAL_KNOB_GEMM;
	} else {
		out[n++] = CAL_KNOB_HBM;
		out[n++] = CAL_KNOB_NETWORK;
		out[n++] = CAL_KNOB_GEMM;
	}
	return n;
}

static void explain_choice(const struct scenario *s, const struct plan *p,
			   struct calibrate_measure *m, int k, bool first, bool asked)
{
	bool training = is_training(s);
	bool ttft = strcmp(m->fig->key, "latency.ttft_s") == 0;
	char sh[96];
	const char *bound = p->shares[BN_INTERCONNECT] > p->shares[BN_COMPUTE] &&
				    p->shares[BN_INTERCONNECT] >= p->shares[BN_HBM]
				? "interconnect-bound"
			    : p->shares[BN_HBM] > p->shares[BN_COMPUTE] ? "bandwidth-bound"
									: "compute-bound";
	const char *alone =
	    asked || first ? "" : "; the knob of its largest share does not reach it alone";
	const char *named = asked ? ", the knob asked for (--knob)," : "";

	/* what each knob does to a training step */
	static const char *const step_why[CAL_KNOB_COUNT] = {
	    [CAL_KNOB_MFU] = "sets the step, FLOPs / (GPUs x peak x MFU), its parts scaled in "
			     "proportion; one figure in place of the model's, which moves with "
			     "sequence length, recomputation and model size",
	    [CAL_KNOB_GEMM] = "scales its GEMMs and attention core (the fraction of the dense "
			      "peak a large GEMM reaches), the model's scaling with sequence "
			      "length, recomputation and model size kept",
	    [CAL_KNOB_NETWORK] = "scales the links' achieved bandwidth",
	};

	share_text(p, sh, sizeof(sh));
	if (training)
		snprintf(m->why, sizeof(m->why), "the step is %s (%s of it)%s: %s%s %s", bound, sh,
			 alone, knob_keys[k], named,
			 step_why[k] ? step_why[k] : "scales the memory-bound kernels' bandwidth");
	else if (asked && !(ttft && k == CAL_KNOB_GEMM))
		snprintf(m->why, sizeof(m->why),
			 "%s, the knob asked for (--knob), explains it: the %s is %s (%s of the "
			 "step)",
			 knob_keys[k], ttft ? "prefill" : "decode", bound, sh);
	else if (ttft && k == CAL_KNOB_GEMM)
		snprintf(m->why, sizeof(m->why),
			 "prefill runs GEMMs over the whole prompt: efficiency.gemm%s sets the "
			 "fraction of the dense peak they reach%s",
			 named, alone);
	else if (ttft)
		snprintf(m->why, sizeof(m->why),
			 "prefill: efficiency.gemm alone does not reach it, so %s absorbs the "
			 "difference",
			 knob_keys[k]);
	else if (k == CAL_KNOB_GEMM)
		snprintf(m->why, sizeof(m->why),
			 "decode is %s (%s of the step): efficiency.gemm sets the fraction of the "
			 "dense peak its GEMMs reach",
			 bound, sh);
	else if (!strcmp(bound, "compute-bound"))
		snprintf(m->why, sizeof(m->why),
			 "decode is compute-bound (%s of the step) but efficiency.gemm alone does "
			 "not reach it: %s absorbs the difference",
			 sh, knob_keys[k]);
	else
		snprintf(m->why, sizeof(m->why), "decode is %s (%s of the step): %s scales the %s",
			 bound, sh, knob_keys[k],
			 k == CAL_KNOB_HBM ? "weight and KV-cache reads"
					   : "tensor-parallel all-reduces");
}

/* "FIG VALUE is faster than the hardware allows": at efficiency.mfu 1, every GPU at its
 * datasheet peak, the plan of s gives at_peak (p that plan's, for its peak). */
static void peak_limit(struct calibrate_measure *m, const struct scenario *s, const struct plan *p,
		       double at_peak)
{
	char meas[48], lim[48], peak[48];

	figure_format(m->fig, m->value, meas, sizeof(meas));
	figure_format(m->fig, at_peak, lim, sizeof(lim));
	units_format_human(UNIT_FLOPS, p->peak_flops, 3, peak, sizeof(peak));
	snprintf(m->limit, sizeof(m->limit),
		 "%s %s is faster than the hardware allows: with efficiency.mfu at 1 (%s, %s "
		 "%s dense) the plan gives %s",
		 m->fig->key, meas, knob_peak[CAL_KNOB_MFU], peak,
		 dtype_name(s->workload.precision), lim);
}

/* A training step faster than every GPU at its datasheet peak (efficiency.mfu 1, the
 * model's FLOPs over GPUs x peak): no knob explains it; true with m's limit set. */
static bool training_past_peak(const struct scenario *s, struct calibrate_measure *m,
			       struct plan *p)
{
	struct scenario t = *s;
	double at_peak;
	bool past;

	t.efficiency.mfu = 1;
	t.workload.measured_tokens_per_s = 0;
	plan_compute(&t, p);
	at_peak = figure_value(m->fig, p);
	past = is_rate(m->fig) ? m->value > at_peak : m->value < at_peak;
	if (past)
		peak_limit(m, s, p, at_peak);
	plan_compute(s, p);
	return past;
}

/* Every candidate knob at the end of its range that makes the figure fastest (or slowest),
 * for an impossible measurement's message. Faster than every knob at 1 is faster than the
 * hardware allows where the knob at 1 is the datasheet itself: efficiency.mfu in training
 * (FLOPs at the peak), or a decode step below the weight and KV reads at the datasheet's
 * bandwidth. Otherwise it is faster than gpuplan's model reaches: the parts no knob of
 * schema 1 moves (launch and host overheads; GEMMs at the modelled efficiency where
 * efficiency.gemm is not among the knobs; in training, small GEMM shapes, latencies and
 * the pipeline bubble, where --knob efficiency.mfu is the way out). A figure that no
 * candidate moves (a training step that a given efficiency.mfu sets) says why. */
static void explain_limit(struct scenario *s, struct calibrate_measure *m, const int *cand, int nc,
			  struct plan *p)
{
	const struct scenario keep = *s;
	char meas[48], lim[48], names[96] = "", peak[48], fl[48], given[48];
	double lo, hi, at_best, at_worst, floor_s = NAN;
	bool faster, mfu = false, gemm = false;
	struct text_acc used = text_acc_on(names, sizeof(names));

	for (int i = 0; i < nc; i++) {
		knob_range(cand[i], &lo, &hi);
		*knob_ptr(s, cand[i]) = hi;
		mfu |= cand[i] == CAL_KNOB_MFU;
		gemm |= cand[i] == CAL_KNOB_GEMM;
		text_add(&used, "%s%s", i ? " and " : "", knob_keys[cand[i]]);
	}
	plan_compute(s, p);
	at_best = figure_value(m->fig, p);
	if (!mfu && strcmp(m->fig->key, "latency.tpot_s") == 0 && *knob_ptr(s, CAL_KNOB_HBM) >= 1)
		floor_s = p->decode.weight_read_s + p->decode.kv_read_s;
	for (int i = 0; i < nc; i++) {
		knob_range(cand[i], &lo, &hi);
		*knob_ptr(s, cand[i]) = lo;
	}
	plan_compute(s, p);
	at_worst = figure_value(m->fig, p);
	*s = keep;
	plan_compute(s, p);
	faster = is_rate(m->fig) ? m->value > at_best : m->value < at_best;
	figure_format(m->fig, m->value, meas, sizeof(meas));
	if (!(fabs(at_best - at_worst) > 1e-9 * fabs(at_best))) {
		bool set_mfu = is_training(&keep) && !mfu && keep.efficiency.mfu > 0;
		if (set_mfu || (is_training(&keep) && keep.workload.measured_tokens_per_s > 0)) {
			if (set_mfu)
				units_format_percent(keep.efficiency.mfu, 3, given, sizeof(given));
			snprintf(m->limit, sizeof(m->limit),
				 "%s: %s sets the training step%s%s, and %s move%s nothing then; "
				 "--set %s=%s lets the model's parts fit%s",
				 m->fig->key,
				 set_mfu ? "efficiency.mfu" : "workload.measured_tokens_per_s",
				 set_mfu ? " at " : "", set_mfu ? given : "", names,
				 nc > 1 ? "" : "s",
				 set_mfu ? "efficiency.mfu" : "workload.measured_tokens_per_s",
				 set_mfu ? "auto" : "0",
				 set_mfu ? ", --knob efficiency.mfu refits it" : "");
		} else {
			snprintf(m->limit, sizeof(m->limit),
				 "%s: %s do%s not move it in this scenario", m->fig->key, names,
				 nc > 1 ? "" : "es");
		}
	} else if (faster && mfu) {
		peak_limit(m, &keep, p, at_best);
	} else if (faster && m->value < floor_s) {
		units_format_human(UNIT_BYTES_PER_S, keep.hardware.gpu.hbm_bytes_per_s, 3, peak,
				   sizeof(peak));
		figure_format(m->fig, floor_s, fl, sizeof(fl));
		snprintf(m->limit, sizeof(m->limit),
			 "%s %s is faster than the hardware allows: reading the weights and KV "
			 "cache at the datasheet's %s takes %s a token",
			 m->fig->key, meas, peak, fl);
	} else if (faster && is_training(&keep)) {
		figure_format(m->fig, at_best, lim, sizeof(lim));
		snprintf(m->limit, sizeof(m->limit),
			 "%s %s is faster than gpuplan's model reaches: with %s at 1 (%s) the plan "
			 "gives %s; the rest (GEMM shapes below the largest, latencies, the "
			 "pipeline bubble) no knob moves: --knob efficiency.mfu fits one MFU "
			 "in place of the model's",
			 m->fig->key, meas, names, knob_peak[cand[0]], lim);
	} else if (faster) {
		figure_format(m->fig, at_best, lim, sizeof(lim));
		snprintf(m->limit, sizeof(m->limit),
			 "%s %s is faster than gpuplan's model reaches: with %s at 1 (%s) the plan "
			 "gives %s; the rest (launch and host overheads%s) no knob of schema 1 "
			 "moves",
			 m->fig->key, meas, names, knob_peak[cand[0]], lim,
			 gemm ? "" : ", GEMMs at the modelled efficiency");
	} else {
		figure_format(m->fig, at_worst, lim, sizeof(lim));
		snprintf(m->limit, sizeof(m->limit),
			 "%s %s is slower than any efficiency in range explains: with %s at "
			 "1e-4 the plan gives %s",
			 m->fig->key, meas, names, lim);
	}
}

static double rel(double a, double b)
{
	return a / b - 1;
}

/* A memory measurement on efficiency.memory_overhead, the caching allocator's slack over
 * what is allocated (reserved and total move with it; allocated does not, and neither does
 * a serving framework's preallocated KV pool): fitted, compared when the slack does not
 * move the figure, impossible when no slack in range reaches it. */
static void memory_fit(struct scenario *s, struct calibrate_measure *m, struct plan *p)
{
	const int k = CAL_KNOB_MEMORY;
	const double was = *knob_ptr(s, k);
	double lo, hi, at_lo, at_hi, x;
	char a[48], b[48], got[48];

	knob_range(k, &lo, &hi);
	at_lo = eval(s, k, lo, m->fig, p);
	at_hi = eval(s, k, hi, m->fig, p);
	*knob_ptr(s, k) = was;
	if (!(fabs(at_hi - at_lo) > 1e-9 * at_hi)) {
		m->status = CAL_COMPARED;
		snprintf(m->why, sizeof(m->why),
			 "compared, not fitted: no knob moves %s here (the allocator's slack "
			 "is outside allocated memory, and a serving framework's KV pool fills "
			 "what its memory fraction leaves)",
			 m->fig->key);
		return;
	}
	if (root(s, k, m->fig, m->value, p, &x)) {
		m->status = CAL_FITTED;
		m->knob = k;
		snprintf(m->why, sizeof(m->why),
			 "the tensors the plan counts leave the rest to the caching allocator: "
			 "efficiency.memory_overhead is its slack over what is allocated "
			 "(max_memory_reserved / max_memory_allocated - 1)");
		return;
	}
	m->status = CAL_IMPOSSIBLE;
	figure_format(m->fig, m->value, got, sizeof(got));
	figure_format(m->fig, at_lo, a, sizeof(a));
	figure_format(m->fig, at_hi, b, sizeof(b));
	if (m->value < at_lo)
		snprintf(
		    m->limit, sizeof(m->limit),
		    "%s %s is below the tensors the plan counts: with "
		    "efficiency.memory_overhead at 1e-4 (no allocator slack) the plan gives %s",
		    m->fig->key, got, a);
	else
		snprintf(m->limit, sizeof(m->limit),
			 "%s %s is above what any allocator slack explains: with "
			 "efficiency.memory_overhead at 1 (%s) the plan gives %s",
			 m->fig->key, got, knob_peak[k], b);
}

int calibrate_fit(struct scenario *s, struct calibrate_measure *m, int n, struct plan *p)
{
	return calibrate_fit_knobs(s, m, n, NULL, 0, p);
}

int calibrate_fit_knobs(struct scenario *s, struct calibrate_measure *m, int n, const int *knobs,
			int nknobs, struct plan *p)
{
	const struct scenario keep = *s;
	bool taken[CAL_KNOB_COUNT] = {false};
	bool bad = false;

	plan_compute(s, p);
	for (int i = 0; i < n; i++) {
		m[i].before = figure_value(m[i].fig, p);
		m[i].after = m[i].before;
		m[i].knob = -1;
		m[i].why[0] = m[i].limit[0] = '\0';
	}
	/* each measurement on its own knob, in order */
	for (int i = 0; i < n; i++) {
		int cand[CAL_KNOB_COUNT], nc, free_c[CAL_KNOB_COUNT], nf = 0;
		struct plan *q = p;
		double x;

		plan_compute(s, q);
		if (isnan(figure_value(m[i].fig, q))) {
			m[i].status = CAL_NOT_APPLICABLE;
			snprintf(m[i].limit, sizeof(m[i].limit),
				 "%s does not apply to this scenario's workload (%s)",
				 m[i].fig->key,
				 scenario_enum_name("workload.kind", (int)s->workload.kind));
			bad = true;
			continue;
		}
		if (is_memory(m[i].fig)) {
			char w[48], got[48];
			m[i].status = CAL_COMPARED;
			if (m[i].value < q->mem.weights) {
				figure_format(m[i].fig, m[i].value, got, sizeof(got));
				units_format_human(UNIT_BYTES, q->mem.weights, 3, w, sizeof(w));
				snprintf(m[i].limit, sizeof(m[i].limit),
					 "%s %s is below the weights alone: %s per GPU at this "
					 "precision and layout",
					 m[i].fig->key, got, w);
				m[i].status = CAL_IMPOSSIBLE;
				bad = true;
			} else if (!taken[CAL_KNOB_MEMORY]) {
				memory_fit(s, &m[i], q);
				if (m[i].status == CAL_FITTED) {
					plan_compute(&keep, q);
					taken[CAL_KNOB_MEMORY] = true;
				}
				bad |= m[i].status == CAL_IMPOSSIBLE;
			} else {
				snprintf(
				    m[i].why, sizeof(m[i].why),
				    "compared, not fitted: efficiency.memory_overhead is already "
				    "fitted to an earlier measurement");
			}
			continue;
		}
		if (is_training(s) && training_past_peak(s, &m[i], q)) {
			m[i].status = CAL_IMPOSSIBLE;
			bad = true;
			continue;
		}
		nc = candidates(s, q, &m[i], knobs, nknobs, cand);
		for (int k = 0; k < nc; k++)
			if (!taken[cand[k]])
				free_c[nf++] = cand[k];
		m[i].status = CAL_IMPOSSIBLE;
		for (int k = 0; k < nf; k++) {
			if (root(s, free_c[k], m[i].fig, m[i].value, q, &x)) {
				plan_compute(&keep, q); /* the shares of the plan before */
				explain_choice(&keep, q, &m[i], free_c[k], k == 0, nknobs > 0);
				m[i].knob = free_c[k];
				m[i].status = CAL_FITTED;
				taken[free_c[k]] = true;
				break;
			}
		}
		/* no knob alone: the first with the others at their limit (1) */
		if (m[i].status == CAL_IMPOSSIBLE && nf > 1) {
			const struct scenario was = *s;
			double lo, hi;
			for (int k = 1; k < nf; k++) {
				knob_range(free_c[k], &lo, &hi);
				*knob_ptr(s, free_c[k]) = hi;
			}
			if (root(s, free_c[0], m[i].fig, m[i].value, q, &x)) {
				char note[96];
				plan_compute(&keep, q);
				explain_choice(&keep, q, &m[i], free_c[0], true, nknobs > 0);
				snprintf(note, sizeof(note), "; it needs %s at its limit, 1, too",
					 knob_keys[free_c[1]]);
				snprintf(m[i].why + strlen(m[i].why),
					 sizeof(m[i].why) - strlen(m[i].why), "%s", note);
				m[i].knob = free_c[0];
				m[i].status = CAL_FITTED;
				for (int k = 0; k < nf; k++)
					taken[free_c[k]] = true;
			} else {
				*s = was;
			}
		}
		if (m[i].status == CAL_IMPOSSIBLE) {
			if (nf)
				explain_limit(s, &m[i], free_c, nf, q);
			else
				snprintf(m[i].limit, sizeof(m[i].limit),
					 "%s: every knob that moves it is already fitted to an "
					 "earlier measurement",
					 m[i].fig->key);
			bad = true;
		}
	}
	/* the knobs together: refit each on its own figure until all hold (Gauss-Seidel) */
	for (int pass = 0; !bad && pass < 30; pass++) {
		double worst = 0, x;
		for (int i = 0; i < n; i++) {
			if (m[i].status != CAL_FITTED)
				continue;
			if (!root(s, m[i].knob, m[i].fig, m[i].value, p, &x)) {
				m[i].status = CAL_IMPOSSIBLE;
				snprintf(m[i].limit, sizeof(m[i].limit),
					 "%s cannot be reached by %s together with the other "
					 "measurements",
					 m[i].fig->key, knob_keys[m[i].knob]);
				bad = true;
				break;
			}
		}
		if (bad)
			break;
		plan_compute(s, p);
		for (int i = 0; i < n; i++)
			if (m[i].status == CAL_FITTED)
				worst =
				    fmax(worst, fabs(rel(figure_value(m[i].fig, p), m[i].value)));
		if (worst < 1e-6)
			break;
	}
	if (!bad) {
		for (int k = 0; k < CAL_KNOB_COUNT; k++)
			if (taken[k])
				*knob_ptr(s, k) = round4(*knob_ptr(s, k));
		plan_compute(s, p);
		for (int i = 0; i < n; i++) {
			m[i].after = figure_value(m[i].fig, p);
			if (m[i].status == CAL_FITTED && fabs(rel(m[i].after, m[i].value)) > 0.01) {
				m[i].status = CAL_IMPOSSIBLE;
				snprintf(m[i].limit, sizeof(m[i].limit),
					 "%s: the knobs fitted together leave it %.1f%% off",
					 m[i].fig->key, 100 * rel(m[i].after, m[i].value));
				bad = true;
			}
		}
	}
	if (bad) {
		*s = keep;
		plan_compute(s, p);
		for (int i = 0; i < n; i++)
			m[i].after = m[i].before;
		return -1;
	}
	return 0;
}
