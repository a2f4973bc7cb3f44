/* capacity.h - the fewest GPUs that serve a scenario's load (issue 13): the tp x pp
 * layouts of one node that the framework runs, each planned as plan_compute plans it,
 * and the one whose capacity_plan.gpus_required is smallest. Not on the hot path: the
 * report, explain and the UI call it on demand, a few dozen plans. */
#ifndef GPUPLAN_CAPACITY_H
#define GPUPLAN_CAPACITY_H

#include <stdbool.h>

#include "plan.h"
#include "scenario.h"

/* The layout that meets the load with the fewest GPUs, with what it plans. */
struct capacity_fewest {
	int tp, pp, ep;	      /* the layout (ep as the file gives it) */
	double gpus_required; /* its capacity_plan.gpus_required */
	double replicas;      /* its capacity_plan.replicas */
	double batch;	      /* the batch it runs at that count: serving.batch (the mean
				 running batch) under a scheduler, else plan_batch */
	double scheduler;     /* its serving.scheduler (NaN: alone) */
	double ttft_slo_s;    /* at that count: TTFT and TPOT at the SLO's percentile */
	double tpot_slo_s;    /* (serving.ttft_slo_s, tpot_slo_s; NaN: not modelled) */
	bool meets;	      /* plan_serving_meets at that count */
	double file_gpus;     /* the file's layout's gpus_required (NaN: cannot meet or
				 does not fit) */
	int tried;	      /* layouts planned */
};

/* Under a load (search_sized_by_load: an online arrival rate), plans every tp x pp with
 * tp x pp within one node (hardware.gpu.gpus_per_node, 8 when unknown), powers of two,
 * tp dividing the attention heads (scenario_validate's rule) and the kv heads or a
 * multiple of them (vLLM QKVParallelLinear: divide(kv_heads, tp) or divide(tp,
 * kv_heads)), pp at most the layers, that the framework runs (framework_runs_layout), at
 * one replica (hardware.count = tp x pp x ep, dp auto: the fleet is its own). p is
 * plan_compute's result for s. Returns true and fills out when a layout other than s's
 * fits in memory and needs fewer GPUs than s's (or s's does not fit or cannot meet the
 * load, and it can); ties keep s's layout, then the smaller tp. False when s's layout is
 * already the fewest or no load is given. The batch, policy and latencies come from a
 * plan at hardware.count = its gpus_required. Allocation-free. */
bool capacity_fewest(const struct scenario *s, const struct plan *p, struct capacity_fewest *out);

#endif
