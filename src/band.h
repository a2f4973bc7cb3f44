/* band.h - how far to trust a figure: the error band of its regime, from the residuals of
 * the measured runs of tests/validation/ (`gpuplan validate`), or "unvalidated" where no
 * measured run shares the regime.
 *
 * A regime is (class of figure, workload kind, framework, load, GPU generation): the class
 * is memory, speed (step and total time, throughput, time per output token, end-to-end
 * latency) or ttft (time to first token: prefill and queueing); the framework is
 * workload.framework in training and for an inference memory figure of a named
 * framework, otherwise for inference the engine (llama.cpp, cuda-graphs: the kernels
 * vLLM, SGLang and TensorRT-LLM run alike); the load, for online serving, alone (one
 * batch's decode step, workload.scheduler alone) or loaded (an engine's scheduler under
 * arrivals or a closed loop), so loaded figures take their band from runs measured under
 * load (an offline batch keeps the engine full either way: no load there); the generation is the
 * GPU's architecture read from its catalog id (ampere, hopper, ada, ...). Each measured row falls
 * in the regime its own scenario and figure give, by the same functions.
 *
 * A residual e is (predicted - measured) / measured, turned so that it describes a size
 * or a duration (a rate r's is 1 / (1 + e_r) - 1). Over a regime's rows [emin, emax]: a
 * duration or size v was measured within [v / (1 + emax), v / (1 + emin)], a rate within
 * [v (1 + emin), v (1 + emax)]. The table (band_table.c) is generated from validate's
 * results (`make band-table`); a test fails when it differs from them.
 *
 * A regime of fewer than BAND_MIN_ROWS rows says where those runs landed, not how far
 * runs spread: its band is indicative, and [emin, emax] is widened to hold [-s, +s], s
 * the spread of its class (band_class_spread: the mean |residual| of every measured row
 * of that class, whatever the regime), so that one row that happened to land at +0.1%
 * does not promise +-0.1%.
 *
 * Pure: static tables, no allocation, no I/O.
 */
#ifndef GPUPLAN_BAND_H
#define GPUPLAN_BAND_H

#include <stdbool.h>
#include <stddef.h>

#include "scenario.h"

enum band_class { BAND_MEMORY, BAND_SPEED, BAND_TTFT, BAND_CLASS_COUNT };

#define BAND_MIN_ROWS 3 /* rows under which a regime's band is indicative (see above) */

/* One regime's residuals (band_table.c). */
struct band_regime {
	enum band_class cls;
	const char *kind;	/* "train", "finetune", "online", "offline" */
	const char *framework;	/* band_framework() */
	const char *load;	/* band_load(): "alone", "loaded", "" outside online serving */
	const char *generation; /* band_generation() */
	int n;			/* measured rows */
	double emin, emax;	/* signed residuals, as a duration or size */
	double mape;		/* mean |residual| */
	const char *runs;	/* the rows' frameworks as their sources name them: "megatron" */
	const char *gpus;	/* the rows' GPUs: "a100-80gb-sxm" */
};

extern const struct band_regime band_table[];
extern const int band_table_n;

/* A figure's band. validated false: outside every regime (lo, hi, pct NAN). */
struct band {
	bool validated;
	double lo, hi;	  /* where a measured run would have put the figure */
	double pct;	  /* the widest relative distance from the figure to lo or hi */
	bool indicative;  /* the regime has fewer than BAND_MIN_ROWS rows: widened (above) */
	double floor;	  /* indicative: the class spread it was widened to hold, else NAN */
	char regime[112]; /* "speed of online, cuda-graphs, loaded, on hopper" */
	const struct band_regime *entry; /* NULL when not validated */
};

/* The spread of a class: the mean |residual| of every row of band_table of that class
 * (each regime's MAPE weighted by its rows); NAN when the class has none. */
double band_class_spread(enum band_class c);

/* "memory", "speed", "ttft". */
const char *band_class_name(enum band_class c);

/* The class of the figure at this JSON report's key, and whether it is a rate (higher
 * is faster). -1 when the figure carries no band. */
int band_class_of(const char *key, bool *rate);

/* The GPU generation of a catalog id ("h100-sxm-80gb": "hopper"); "unknown". */
const char *band_generation(const char *gpu_id);

/* The scenario's framework in its regime of class c (see above). */
const char *band_framework(const struct scenario *s, enum band_class c);

/* The scenario's load in its regime (see above): "alone" or "loaded" online, else "". */
const char *band_load(const struct scenario *s);

/* The band of value, the figure at key of scenario s. Returns false when the figure
 * carries no band (then *out is untouched); true with out->validated false when no
 * regime matches. */
bool band_lookup(const struct scenario *s, const char *key, double value, struct band *out);

/* "+-9%: 18 measured megatron/llm-foundry runs on a100-80gb-sxm", "+-5%: 1 measured
 * torchtitan run on h100-sxm-80gb (indicative: fewer than 3 rows, widened to the +-5% of
 * memory figures)" or "unvalidated: outside every validated regime (no measured run of
 * memory of train, default, on hopper)". */
void band_describe(const struct band *b, char *buf, size_t size);

#endif
