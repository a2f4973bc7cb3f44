/* calibrate.h - the efficiency knobs of a scenario fitted to figures measured on the user's
 * own run (`gpuplan calibrate`, gpuplan(1)): measure, then plan.
 *
 * A measurement is one figure of the JSON report (time.step_s, throughput.tokens_per_s,
 * throughput.tokens_per_s_per_gpu, compute.mfu, latency.tpot_s, latency.ttft_s,
 * memory.per_gpu.reserved, .allocated or .total, or a short alias: step_s, tokens_per_s,
 * tokens_per_s_per_gpu, mfu, tpot_s, ttft_s, peak_memory, allocated, memory) and the value
 * measured. Each speed measurement is explained by one knob of the scenario's efficiency
 * section, found by bisection over the knob's range in the field table (1e-4 to 1) on the
 * figure the knob governs; the knob is chosen by the plan's own bottleneck shares:
 *
 *   training, fine-tuning   the knob of the step's largest share, then the others in
 *                           the order of theirs: efficiency.gemm (the ceiling of the
 *                           GEMMs and the attention core) when compute is, efficiency.hbm
 *                           when memory-bound kernels are, efficiency.network when the
 *                           exposed collectives are. Each scales what the model computes
 *                           for its part, so the model's dependence on sequence length,
 *                           recomputation, layout and model size stays and the knob
 *                           carries to the cluster's other runs. efficiency.mfu (one
 *                           absolute figure in place of the model's) only when asked
 *                           for (calibrate_fit_knobs). A step faster than every GPU at
 *                           its datasheet peak (efficiency.mfu 1) is impossible.
 *   decode (tpot_s, tokens/s) efficiency.hbm (the weight and KV reads) when bandwidth
 *                           is the largest share, efficiency.network when tensor-parallel
 *                           all-reduces are, efficiency.gemm (the GEMMs' fraction of the
 *                           dense peak) when compute is.
 *   prefill (ttft_s)        efficiency.gemm (a prefill's GEMMs are compute-bound), then
 *                           efficiency.hbm, then efficiency.network.
 *   memory (reserved,       efficiency.memory_overhead, the caching allocator's slack over
 *   allocated, total)       the allocated tensors. A measurement below the weights per GPU
 *                           is impossible; one that no slack moves (a serving framework's
 *                           preallocated KV pool) is compared, not fitted.
 *
 * Several measurements are fitted together, each on its own knob (a knob already taken
 * by an earlier measurement is skipped), in passes until every one holds (Gauss-Seidel).
 * A measurement that no knob in range reaches (faster than the datasheet's peak, slower
 * than the least efficiency) is impossible: its limit is named and the scenario is left
 * as it was.
 *
 * Pure: no I/O, no allocation; the caller gives the scratch plan.
 */
#ifndef GPUPLAN_CALIBRATE_H
#define GPUPLAN_CALIBRATE_H

#include <stdbool.h>

#include "error.h"
#include "figure.h"
#include "plan.h"
#include "scenario.h"

#define CALIBRATE_MAX 8 /* measurements in one calibration */

enum calibrate_knob {
	CAL_KNOB_MFU,
	CAL_KNOB_HBM,
	CAL_KNOB_NETWORK,
	CAL_KNOB_GEMM,	 /* efficiency.gemm: every GEMM's ceiling (training, prefill, decode) */
	CAL_KNOB_MEMORY, /* efficiency.memory_overhead: the allocator's slack (peak memory) */
	CAL_KNOB_COUNT
};

enum calibrate_status {
	CAL_FITTED,	    /* a knob explains it */
	CAL_COMPARED,	    /* no knob governs it (memory): compared only */
	CAL_IMPOSSIBLE,	    /* no knob in range explains it: limit says why */
	CAL_NOT_APPLICABLE, /* the figure does not apply to the workload (tpot_s of training) */
};

struct calibrate_measure {
	const struct figure *fig; /* the figure measured */
	double value;		  /* measured, in SI units (a ratio for compute.mfu) */
	/* calibrate_fit's results */
	enum calibrate_status status;
	int knob;	      /* enum calibrate_knob, -1 when none */
	double before, after; /* the figure as planned before and after */
	char why[512];	      /* which knob and why, or why none */
	char limit[640];      /* CAL_IMPOSSIBLE: the limit it passes */
};

/* The knobs' field keys: "efficiency.mfu", "efficiency.hbm", "efficiency.network",
 * "efficiency.gemm", "efficiency.memory_overhead". */
const char *calibrate_knob_key(enum calibrate_knob k);

/* The figure a measurement's key names (a figure key or a short alias); NULL when none. */
const struct figure *calibrate_figure(const char *key);

/* The keys calibrate accepts, as "time.step_s (step_s), ...", for messages. */
const char *calibrate_keys_help(void);

/* Parses "KEY=VALUE" (VALUE in the figure's unit: 4.2, 4.2s, 350ms; 6.7k; 40% or 0.4;
 * a size with its unit, 71.2GiB) into *m. -1 with err (GP_EINPUT) naming what was
 * expected. */
int calibrate_parse(const char *kv, struct calibrate_measure *m, struct gp_error *err);

/* Fits s's efficiency knobs to the n measurements (see above), using *p as scratch; on
 * return *p is the plan of s. Returns 0 when every measurement was fitted or compared (s
 * holds the fitted knobs), -1 when one is impossible or does not apply (s is left as it
 * was; each measurement's status and limit say which). */
int calibrate_fit(struct scenario *s, struct calibrate_measure *m, int n, struct plan *p);

/* calibrate_fit with the knobs a speed measurement may fit given (`--knob`, in the order
 * tried; nknobs 0: chosen from the shares as above): efficiency.mfu is fitted only so. */
int calibrate_fit_knobs(struct scenario *s, struct calibrate_measure *m, int n, const int *knobs,
			int nknobs, struct plan *p);

/* The knob a name gives ("efficiency.gemm" or "gemm"; mfu, hbm, network, gemm), -1 when
 * none (efficiency.memory_overhead is memory's, never asked for). */
int calibrate_knob_parse(const char *name);

#endif
