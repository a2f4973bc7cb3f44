/* band.c - a figure's error band from the residuals of its regime (band.h). */
#include "band.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "framework.h"
#include "plan.h"

static const char *const class_names[BAND_CLASS_COUNT] = {"memory", "speed", "ttft"};

const char *band_class_name(enum band_class c)
{
	return c >= 0 && c < BAND_CLASS_COUNT ? class_names[c] : "?";
}

/* The figures that carry a band, and validate's derived figures (validate.h), each with
 * its class and whether it is a rate. */
static const struct {
	const char *key;
	enum band_class cls;
	bool rate;
} banded[] = {
    {"memory.per_gpu.total", BAND_MEMORY, false},
    {"memory.per_gpu.allocated", BAND_MEMORY, false},
    {"memory.per_gpu.reserved", BAND_MEMORY, false},
    {"memory.per_gpu.kv_cache", BAND_MEMORY, false},
    {"time.step_s", BAND_SPEED, false},
    {"time.total_s", BAND_SPEED, false},
    {"throughput.tokens_per_s", BAND_SPEED, true},
    {"throughput.tokens_per_s_per_gpu", BAND_SPEED, true},
    {"latency.tpot_s", BAND_SPEED, false},
    {"latency.tpot_p50_s", BAND_SPEED, false},
    {"latency.tpot_p90_s", BAND_SPEED, false},
    {"latency.tpot_p99_s", BAND_SPEED, false},
    {"latency.e2e_p50_s", BAND_SPEED, false},
    {"latency.e2e_p90_s", BAND_SPEED, false},
    {"latency.e2e_p99_s", BAND_SPEED, false},
    {"latency.ttft_s", BAND_TTFT, false},
    {"latency.ttft_p50_s", BAND_TTFT, false},
    {"latency.ttft_p90_s", BAND_TTFT, false},
    {"latency.ttft_p99_s", BAND_TTFT, false},
    {"derived.decode_rate", BAND_SPEED, true},
    {"derived.batch_latency_s", BAND_SPEED, false},
    {"derived.megatron_tflops", BAND_SPEED, true},
};

int band_class_of(const char *key, bool *rate)
{
	for (size_t i = 0; i < sizeof(banded) / sizeof(banded[0]); i++)
		if (strcmp(banded[i].key, key) == 0) {
			if (rate)
				*rate = banded[i].rate;
			return (int)banded[i].cls;
		}
	return -1;
}

/* Catalog id prefixes and the architecture each names (catalog/gpus.yaml's names and
 * sources), first match wins: "h200" before "h20", "a100" before "a10". */
static const struct {
	const char *prefix, *generation;
} generations[] = {
    {"h100", "hopper"},
    {"h200", "hopper"},
    {"h800", "hopper"},
    {"gh200", "hopper"},
    {"h20", "hopper"},
    {"a100", "ampere"},
    {"a800", "ampere"},
    {"a10", "ampere"},
    {"a30", "ampere"},
    {"a40", "ampere"},
    {"rtx-30", "ampere"},
    {"rtx-a", "ampere"},
    {"rtx-40", "ada"},
    {"rtx-6000-ada", "ada"},
    {"l40", "ada"},
    {"l4", "ada"},
    {"l20", "ada"},
    {"b200", "blackwell"},
    {"gb200", "blackwell"},
    {"b300", "blackwell"},
    {"gb300", "blackwell"},
    {"rtx-50", "blackwell"},
    {"rtx-pro-6000", "blackwell"},
    {"v100", "volta"},
    {"t4", "turing"},
    {"mi3", "cdna3"},
    {"mi2", "cdna2"},
    {"gaudi", "gaudi"},
};

const char *band_generation(const char *gpu_id)
{
	for (size_t i = 0; i < sizeof(generations) / sizeof(generations[0]); i++)
		if (strncmp(gpu_id, generations[i].prefix, strlen(generations[i].prefix)) == 0)
			return generations[i].generation;
	return "unknown";
}

static bool inference(const struct scenario *s)
{
	return s->workload.kind == WL_ONLINE || s->workload.kind == WL_OFFLINE;
}

const char *band_framework(const struct scenario *s, enum band_class c)
{
	/* inference speed follows the engine's kernels, whichever framework runs them
	 * (plan_engine: vLLM, SGLang and TensorRT-LLM are CUDA-graph engines), so a run
	 * measured under the default framework stands for a named one and the reverse;
	 * memory follows the framework's own rules (its KV pool) */
	if (!inference(s) || (c == BAND_MEMORY && s->workload.framework != FW_DEFAULT))
		return framework_name(s->workload.framework);
	return scenario_enum_name("workload.engine", (int)plan_engine(s));
}

const char *band_load(const struct scenario *s)
{
	/* an offline batch keeps the engine full whichever model plans it: no arrivals, no
	 * queue, so its runs stand for both */
	if (s->workload.kind != WL_ONLINE)
		return "";
	/* the scheduler the plan applies (framework_serving, as plan_infer.c calls it: the
	 * default framework's depends on the engine's kernels, not on the GPU's memory) */
	struct serving_engine e;
	framework_serving(s->workload.framework, s->workload.scheduler,
			  plan_engine(s) == ENGINE_CUDA_GRAPHS, false, 0, "", &e);
	if (e.sched == SCHED_ALONE)
		return "alone";
	/* one stream (a batch of 1, no arrival rate, no clients beside it) is the lone
	 * decode step under any scheduler (the identity at concurrency 1): a run measured
	 * so, as the single-stream decode rows are, is not under load */
	/* and so is a static batch with no arrivals (vLLM's benchmark_latency.py: one batch
	 * of B prompts prefilled, then decoded together, the decode steps alone) */
	const struct workload *w = &s->workload;
	bool open = w->requests_per_s > 0 || w->requests_per_day > 0 || w->concurrency > 1;
	if (!open && (w->batch == 1 || e.sched == SCHED_STATIC))
		return "alone";
	return "loaded";
}

double band_class_spread(enum band_class c)
{
	double sum = 0;
	int n = 0;

	for (int i = 0; i < band_table_n; i++)
		if (band_table[i].cls == c) {
			sum += band_table[i].n * band_table[i].mape;
			n += band_table[i].n;
		}
	return n ? sum / n : NAN;
}

bool band_lookup(const struct scenario *s, const char *key, double value, struct band *out)
{
	bool rate;
	int cls = band_class_of(key, &rate);
	const char *kind, *fw, *gen, *load;

	if (cls < 0)
		return false;
	kind = scenario_enum_name("workload.kind", (int)s->workload.kind);
	fw = band_framework(s, (enum band_class)cls);
	gen = band_generation(s->hardware.gpu.id);
	load = band_load(s);
	memset(out, 0, sizeof(*out));
	out->lo = out->hi = out->pct = out->floor = NAN;
	snprintf(out->regime, sizeof(out->regime), "%s of %s, %s%s%s, on %s",
		 band_class_name((enum band_class)cls), kind, fw, load[0] ? ", " : "", load, gen);
	for (int i = 0; i < band_table_n; i++) {
		const struct band_regime *r = &band_table[i];
		double a, b, emin = r->emin, emax = r->emax;
		if ((int)r->cls != cls || strcmp(r->kind, kind) || strcmp(r->framework, fw) ||
		    strcmp(r->load, load) || strcmp(r->generation, gen))
			continue;
		/* too few rows to show a spread: at least the spread of the class (band.h) */
		if (r->n < BAND_MIN_ROWS) {
			out->indicative = true;
			out->floor = band_class_spread((enum band_class)cls);
			emin = fmin(emin, -out->floor);
			emax = fmax(emax, out->floor);
		}
		if (rate) {
			a = value * (1 + emin);
			b = value * (1 + emax);
		} else {
			a = value / (1 + emax);
			b = value / (1 + emin);
		}
		/* the figure itself inside its band, though every residual has one sign */
		out->validated = true;
		out->entry = r;
		out->lo = fmin(a, value);
		out->hi = fmax(b, value);
		out->pct =
		    value != 0 ? fmax(fabs(out->lo / value - 1), fabs(out->hi / value - 1)) : NAN;
		return true;
	}
	return true;
}

void band_describe(const struct band *b, char *buf, size_t size)
{
	if (!b->validated) {
		snprintf(buf, size,
			 "unvalidated: outside every validated regime (no measured run of %s)",
			 b->regime);
		return;
	}
	if (!isfinite(b->pct)) {
		/* a zero figure (training's KV cache) has no relative band: no "+-nan%" */
		snprintf(buf, size,
			 "no relative band around a zero figure; %d measured %s run%s on %s",
			 b->entry->n, b->entry->runs, b->entry->n == 1 ? "" : "s", b->entry->gpus);
		return;
	}
	snprintf(buf, size, "+-%.0f%%: %d measured %s run%s on %s%s", 100 * b->pct, b->entry->n,
		 b->entry->runs, b->entry->n == 1 ? "" : "s", b->entry->gpus,
		 b->indicative ? " (indicative: too few rows for a spread)" : "");
}
