/* plan_warning.c - a plan's warnings: adding one, and its text.
 * A leaf: the memory and time parts call in, it calls out only to units.c and dtype.c. */
#include "plan.h"

#include <math.h>
#include <stdio.h>

#include "dtype.h"
#include "framework.h"
#include "units.h"

void plan_warn(struct plan *p, enum plan_warning_code code, double a, double b)
{
	if (p->nwarnings >= PLAN_MAX_WARNINGS)
		return;
	p->warnings[p->nwarnings].code = code;
	p->warnings[p->nwarnings].a = a;
	p->warnings[p->nwarnings].b = b;
	p->nwarnings++;
}

static const char *dtype_name_d(double d)
{
	int i = (int)d;
	return i >= 0 && i < DTYPE_COUNT ? dtype_name((enum dtype)i) : "?";
}

/* The unit a warning's two figures, a and b, are printed in, for the warnings that quote
 * two quantities of one kind; UNIT_NONE for the rest, which print their own way. */
static const enum unit_kind quantity_unit[PW_COUNT] = {
    [PW_DOES_NOT_FIT] = UNIT_BYTES,	      [PW_KV_NO_ROOM] = UNIT_BYTES,
    [PW_DEADLINE_MISSED] = UNIT_SECONDS,      [PW_SLO_MISSED] = UNIT_SECONDS,
    [PW_DATA_STARVED] = UNIT_BYTES_PER_S,     [PW_OFFLOAD_PCIE_BOUND] = UNIT_SECONDS,
    [PW_SLO_PERCENTILE] = UNIT_SECONDS,	      [PW_SLO_UNREACHABLE_TTFT] = UNIT_SECONDS,
    [PW_SLO_UNREACHABLE_TPOT] = UNIT_SECONDS,
};

char *plan_warning_format(const struct plan_warning *w, char *buf, size_t size)
{
	char a[32] = "", b[32] = "";

	if (!buf || size == 0)
		return buf;
	if ((unsigned)w->code < PW_COUNT && quantity_unit[w->code] != UNIT_NONE) {
		units_format_human(quantity_unit[w->code], w->a, 3, a, sizeof(a));
		units_format_human(quantity_unit[w->code], w->b, 3, b, sizeof(b));
	}
	switch (w->code) {
	case PW_SHAPE_ASSUMED:
		snprintf(buf, size,
			 "model given by parameter count only: a standard llama-style "
			 "shape is assumed for activations and kv cache");
		break;
	case PW_DOES_NOT_FIT:
		snprintf(buf, size, "does not fit: %s per gpu needed, %s available", a, b);
		break;
	case PW_KV_NO_ROOM:
		snprintf(buf, size, "no room for the kv cache of one sequence: %s free, %s needed",
			 a, b);
		break;
	case PW_SEQ_OVER_CONTEXT:
		snprintf(buf, size, "sequence of %.0f tokens exceeds the model's context of %.0f",
			 w->a, w->b);
		break;
	case PW_BATCH_NOT_DIVISIBLE:
		snprintf(
		    buf, size,
		    "global batch %.0f is not a multiple of micro_batch x data replicas (%.0f): "
		    "each step runs %.0f micro-batches, %.0f sequence slots idle",
		    w->a, w->b, ceil(w->a / w->b), ceil(w->a / w->b) * w->b - w->a);
		break;
	case PW_LAYERS_NOT_DIVISIBLE:
		snprintf(buf, size,
			 "layers (%.0f) do not split evenly over pp x virtual_stages (%.0f chunks)",
			 w->a, w->b);
		break;
	case PW_TP_ACROSS_NODES:
		snprintf(
		    buf, size,
		    "tensor parallelism of %.0f spans more than the %.0f gpus of one link domain",
		    w->a, w->b);
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
	case PW_DEADLINE_MISSED:
		snprintf(buf, size, "deadline missed: %s needed, %s available", a, b);
		break;
	case PW_SLO_MISSED:
		snprintf(buf, size, "latency target missed: %s against a target of %s", a, b);
		break;
	case PW_DATA_STARVED:
		snprintf(buf, size, "data loading starves the gpus: %s needed, storage gives %s", a,
			 b);
		break;
	case PW_IDLE_GPUS:
		snprintf(buf, size,
			 "the layout uses %.0f of the %.0f gpus (tp x pp x ep x dp): %.0f sit idle "
			 "and are paid for",
			 w->a, w->b, w->b - w->a);
		break;
	case PW_FRAMEWORK_CONFLICT: {
		static const char *const keys[CONFLICT_COUNT] = {
		    "parallel.zero", "parallel.offload", "workload.gpu_memory_utilization"};
		int c = (int)w->b;
		snprintf(buf, size, "framework %s does not use %s, which is set (ignored)",
			 framework_name((int)w->a), c >= 0 && c < CONFLICT_COUNT ? keys[c] : "?");
		break;
	}
	case PW_LAYOUT_INVALID:
		snprintf(buf, size,
			 "layout needs %.0f gpus (tp x pp x ep x dp) but the hardware has %.0f",
			 w->a, w->b);
		break;
	case PW_OFFLOAD_PCIE_BOUND:
		snprintf(buf, size,
			 "offload traffic over pcie takes %s per step, more than the %s "
			 "of compute it hides behind",
			 a, b);
		break;
	case PW_OVERLOADED:
		snprintf(buf, size,
			 "cannot meet the load: %.4g requests/s per replica arrive, it completes "
			 "at most %.4g (the queue grows without bound; add replicas)",
			 w->a, w->b);
		break;
	case PW_SLO_PERCENTILE:
		snprintf(buf, size,
			 "latency target missed at the slo percentile: %s against a target of %s",
			 a, b);
		break;
	case PW_SLO_UNREACHABLE_TTFT:
	case PW_SLO_UNREACHABLE_TPOT:
		snprintf(buf, size,
			 "cannot meet the %s target at any number of replicas: a lone request's "
			 "%s at the slo percentile is %s against %s (no count up to 1e8 gpus "
			 "meets it)",
			 w->code == PW_SLO_UNREACHABLE_TTFT ? "ttft" : "tpot",
			 w->code == PW_SLO_UNREACHABLE_TTFT ? "ttft" : "tpot", a, b);
		break;
	case PW_FLEET_OVER_MAX:
		snprintf(buf, size,
			 "cannot meet the load (and its slo) with %.4g replicas of %.0f gpus, "
			 "the most planned",
			 w->a, w->b);
		break;
	default:
		snprintf(buf, size, "unknown warning");
		break;
	}
	return buf;
}
