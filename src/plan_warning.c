/* plan_warning.c - a plan's warnings: adding one, and its text.
 * A leaf: the memory and time parts call in, it calls out only to units.c and dtype.c. */
#include "plan.h"

#include <math.h>
#include <stdio.h>

#include "dtype.h"
#include "framework.h"
#include "units.h"

void plan_warn_at(struct plan *p, enum plan_warning_code code, double a, double b, double c)
{
	if (p->nwarnings >= PLAN_MAX_WARNINGS)
		return;
	p->warnings[p->nwarnings].code = code;
	p->warnings[p->nwarnings].a = a;
	p->warnings[p->nwarnings].b = b;
	p->warnings[p->nwarnings].c = c;
	p->nwarnings++;
}

void plan_warn(struct plan *p, enum plan_warning_code code, double a, double b)
{
	plan_warn_at(p, code, a, b, 0);
}

static const char *dtype_name_d(double d)
{
	int i = (int)d;
	return i >= 0 && i < DTYPE_COUNT ? dtype_name((enum dtype)i) : "?";
}

/* The warnings that print their two figures, a and b, in one format: as two quantities of
 * one unit (unit, "%s" twice) or, with UNIT_NONE, as two numbers ("%.0f" or "%.4g").
 * The rest print their own way in plan_warning_format. */
static const struct {
	enum unit_kind unit;
	const char *format;
} two_figures[PW_COUNT] = {
    [PW_DOES_NOT_FIT] = {UNIT_BYTES, "does not fit: %s per gpu needed, %s available"},
    [PW_KV_NO_ROOM] = {UNIT_BYTES, "no room for the kv cache of one sequence: %s free, %s needed"},
    [PW_SEQ_OVER_CONTEXT] = {UNIT_NONE,
			     "sequence of %.0f tokens exceeds the model's context of %.0f"},
    [PW_LAYERS_NOT_DIVISIBLE] = {UNIT_NONE, "layers (%.0f) do not split evenly over pp x "
					    "virtual_stages (%.0f chunks)"},
    [PW_TP_ACROSS_NODES] = {UNIT_NONE, "tensor parallelism of %.0f spans more than the %.0f "
				       "gpus of one link domain"},
    [PW_DEADLINE_MISSED] = {UNIT_SECONDS, "deadline missed: %s needed, %s available"},
    [PW_SLO_MISSED] = {UNIT_SECONDS, "latency target missed: %s against a target of %s"},
    [PW_DATA_STARVED] = {UNIT_BYTES_PER_S,
			 "data loading starves the gpus: %s needed, storage gives %s"},
    [PW_LAYOUT_INVALID] = {UNIT_NONE,
			   "layout needs %.0f gpus (tp x pp x ep x dp) but the hardware has %.0f"},
    [PW_OFFLOAD_PCIE_BOUND] = {UNIT_SECONDS, "offload traffic over pcie takes %s per step, "
					     "more than the %s of compute it hides behind"},
    [PW_OVERLOADED] = {UNIT_NONE, NULL},
    [PW_SLO_PERCENTILE] = {UNIT_SECONDS, NULL},
    [PW_SLO_PERCENTILE_TPOT] = {UNIT_SECONDS, NULL},
    [PW_FLEET_OVER_MAX] = {UNIT_NONE, "cannot meet the load (and its slo) with %.4g replicas "
				      "of %.0f gpus, the most planned"},
    [PW_RATE_OVERRIDES] = {UNIT_NONE,
			   "workload.requests_per_s %.4g overrides workload.requests_per_day "
			   "(%.4g requests/s at its peak_factor): every figure follows "
			   "requests_per_s (set it to 0 for the daily load)"},
    [PW_DISAGG_FEW_ENGINES] = {UNIT_NONE,
			       "disaggregated pools need %.0f engines (one prefill and one "
			       "decode at the least) but the gpus run %.0f: no throughput at "
			       "this count (capacity_plan.gpus_required sizes the pools)"},
    [PW_MEASURED_OVER_PEAK] = {UNIT_NONE,
			       "workload.measured_tokens_per_s %.4g implies %.0f%% of the gpus' "
			       "peak flop/s: more than they can compute (a run of more gpus, or "
			       "of another model or format?)"},
    [PW_SLO_UNREACHABLE_TTFT] = {UNIT_SECONDS, NULL},
    [PW_PAGED_EVICTED] = {UNIT_BYTES, NULL},
    [PW_SLO_UNREACHABLE_TPOT] = {UNIT_SECONDS, NULL},
    [PW_PROMPT_OVER_BUDGET] = {UNIT_NONE,
			       "a prompt of %.0f tokens exceeds the step budget of %.0f under "
			       "multi-step scheduling: vllm v0 ignores it (\"input prompt is too "
			       "long\", scheduler.py _get_prompt_limit) at any number of replicas; "
			       "raise workload.max_batched_tokens or set scheduler_steps 1"},
};

/* the field each framework conflict (plan.h CONFLICT_*) is about */
static const char *const conflict_keys[CONFLICT_COUNT] = {"parallel.zero", "parallel.offload",
							  "workload.gpu_memory_utilization",
							  "parallel.reshard_after_forward"};

const char *plan_warning_conflict_key(const struct plan_warning *w)
{
	/* both rates given: scenario_ignored_fields places it at requests_per_s as well */
	if (w->code == PW_RATE_OVERRIDES)
		return "workload.requests_per_s";
	/* b is a conflict's index only for PW_FRAMEWORK_CONFLICT: cast it there alone (other
	 * codes' b can be far outside int) */
	if (w->code != PW_FRAMEWORK_CONFLICT || !(w->b >= 0 && w->b < CONFLICT_COUNT))
		return NULL;
	return conflict_keys[(int)w->b];
}

bool plan_warning_field_ignored(const struct plan_warning *w)
{
	/* zero and offload apply to training (a serving framework runs inference only), the
	 * fraction to vllm, sglang and trtllm (scenario.c scenario_fields[] frameworks) */
	return (w->code == PW_FRAMEWORK_CONFLICT &&
		(w->b == CONFLICT_ZERO || w->b == CONFLICT_OFFLOAD ||
		 w->b == CONFLICT_MEM_FRACTION)) ||
	       w->code == PW_RATE_OVERRIDES;
}

char *plan_warning_format(const struct plan_warning *w, char *buf, size_t size)
{
	char a[32] = "", b[32] = "", pct[16] = "99";
	enum unit_kind unit = (unsigned)w->code < PW_COUNT ? two_figures[w->code].unit : UNIT_NONE;
	const char *format = (unsigned)w->code < PW_COUNT ? two_figures[w->code].format : NULL;

	if (!buf || size == 0)
		return buf;
	if (w->c > 0) /* the SLO percentile: 99, 99.9 */
		snprintf(pct, sizeof(pct), "%.4g", w->c);
	if (unit != UNIT_NONE) {
		units_format_human(unit, w->a, 3, a, sizeof(a));
		units_format_human(unit, w->b, 3, b, sizeof(b));
	}
	/* the SLO's latency has no value only where the queue grows without bound
	 * (src/plan_serve.c, serve: overloaded), which "-" would hide */
	if ((w->code == PW_SLO_PERCENTILE || w->code == PW_SLO_PERCENTILE_TPOT) && !isfinite(w->a))
		snprintf(a, sizeof(a), "unbounded (overloaded)");
	if (format && unit != UNIT_NONE) {
		snprintf(buf, size, format, a, b);
		return buf;
	}
	if (format) {
		snprintf(buf, size, format, w->a, w->b);
		return buf;
	}
	switch (w->code) {
	case PW_SHAPE_ASSUMED:
		snprintf(buf, size,
			 "model given by parameter count only: a standard llama-style "
			 "shape is assumed for activations and kv cache");
		break;
	case PW_BATCH_NOT_DIVISIBLE:
		snprintf(
		    buf, size,
		    "global batch %.0f is not a multiple of micro_batch x data replicas (%.0f): "
		    "each step runs %.0f micro-batches, %.0f sequence slots idle",
		    w->a, w->b, ceil(w->a / w->b), ceil(w->a / w->b) * w->b - w->a);
		break;
	case PW_NO_PRECISION_PEAK: /* a = the dtype whose peak is used, -1 for none; b = asked */
		if (w->a < 0)
			snprintf(buf, size,
				 "the gpu has no %s peak nor any other; compute time is a "
				 "placeholder",
				 dtype_name_d(w->b));
		else
			snprintf(buf, size, "the gpu has no %s peak; using its %s peak",
				 dtype_name_d(w->b), dtype_name_d(w->a));
		break;
	case PW_PRECISION_WEIGHT_MISMATCH:
		snprintf(buf, size, "compute precision %s differs from the weight format %s",
			 dtype_name_d(w->a), dtype_name_d(w->b));
		break;
	case PW_IDLE_GPUS:
		snprintf(buf, size,
			 "the layout uses %.0f of the %.0f gpus (tp x pp x ep x dp): %.0f sit idle "
			 "and are paid for",
			 w->a, w->b, w->b - w->a);
		break;
	case PW_FRAMEWORK_CONFLICT: {
		const char *key = plan_warning_conflict_key(w);
		int c = (int)w->b;
		snprintf(buf, size, "framework %s does not use %s%s, which is set (ignored%s)",
			 framework_name((int)w->a), key ? key : "?",
			 c == CONFLICT_RESHARD ? " always" : "",
			 c == CONFLICT_RESHARD
			     ? ": with pp > 1 the pipeline stage keeps its parameters gathered"
			     : "");
		break;
	}
	case PW_PAGED_EVICTED:
		snprintf(buf, size,
			 "paged optimizer states: %s do not fit beside the rest and are evicted "
			 "to host memory; they cross pcie up and back each step "
			 "(time.parts.offload_s)",
			 a);
		break;
	case PW_REQUESTS_IGNORED:
		snprintf(buf, size, "workload.requests is set but not used: %s",
			 w->a == 1   ? "the disaggregated pools are planned at steady state"
			 : w->a == 2 ? "a measured throughput (measured_tokens_per_s) stands"
				     : "no load is modelled (scheduler alone; set "
				       "workload.scheduler, e.g. chunked)");
		break;
	case PW_VISION_NOT_MODELLED:
		units_format_human(UNIT_COUNT, w->a, 3, a, sizeof(a));
		snprintf(buf, size,
			 "the vision tower (%s parameters, model.vision_params) is held in "
			 "memory, but image tokens are not modelled: their activations, kv "
			 "cache and compute are not counted",
			 a);
		break;
	case PW_TRTLLM_KV_16BIT:
		snprintf(buf, size,
			 "framework trt-llm keeps a %s kv cache under fp8 weights: tensorrt-llm "
			 "quantizes the kv cache only when the checkpoint is made with "
			 "--kv_cache_dtype fp8 (examples/quantization/quantize.py); set "
			 "workload.kv_cache fp8 to plan that",
			 dtype_name_d(w->a));
		break;
	case PW_ZERO_FALLBACK:
		snprintf(buf, size,
			 "framework %s runs parallel.zero %.0f as stage 0 (it has zero stage 1 "
			 "only: llmc/zero.cuh set_zero_configs; expected zero 0 or 1)",
			 framework_name((int)w->a), w->b);
		break;
	case PW_OVERLOADED: /* c: 0 a replica, 1 a prefill engine, 2 a decode engine */
		snprintf(buf, size,
			 "cannot meet the load: %.4g requests/s per %s arrive, it completes "
			 "at most %.4g (the queue grows without bound; add %s)",
			 w->a,
			 w->c == 1   ? "prefill engine"
			 : w->c == 2 ? "decode engine"
				     : "replica",
			 w->b,
			 w->c == 1   ? "prefill engines"
			 : w->c == 2 ? "decode engines"
				     : "replicas");
		break;
	case PW_SLO_PERCENTILE:
	case PW_SLO_PERCENTILE_TPOT:
		snprintf(buf, size,
			 "%s target missed at P%s (workload.slo.percentile): %s against a "
			 "target of %s",
			 w->code == PW_SLO_PERCENTILE ? "ttft" : "tpot", pct, a, b);
		break;
	case PW_SLO_UNREACHABLE_TTFT:
	case PW_SLO_UNREACHABLE_TPOT:
		snprintf(buf, size,
			 "cannot meet the %s target at any number of replicas: a lone request's "
			 "%s%s%s is %s against %s (no count up to 1e8 gpus meets it)",
			 w->code == PW_SLO_UNREACHABLE_TTFT ? "ttft" : "tpot",
			 w->code == PW_SLO_UNREACHABLE_TTFT ? "ttft" : "tpot",
			 w->c > 0 ? " at P" : "", w->c > 0 ? pct : "", a, b);
		break;
	default:
		snprintf(buf, size, "unknown warning");
		break;
	}
	return buf;
}
