/* capacity.c - the fewest-GPU layout for a scenario's load (capacity_plan.fewest). */
#include "capacity.h"

#include <math.h>
#include <string.h>

#include "framework.h"
#include "search.h"

/* Whether tp splits the attention as the engines do: the query heads evenly
 * (scenario_validate), and the kv heads evenly or each replicated over tp / kv_heads
 * ranks (vllm/model_executor/layers/linear.py, QKVParallelLinear: divide(total_num_kv_heads,
 * tp_size) below kv_heads, divide(tp_size, total_num_kv_heads) from it). */
static bool tp_splits(const struct model *m, int tp)
{
	int kv = m->kv_heads > 0 ? m->kv_heads : m->heads;

	if (m->heads && m->heads % tp != 0)
		return false;
	if (kv && kv % tp != 0 && tp % kv != 0)
		return false;
	return true;
}

bool capacity_fewest(const struct scenario *s, const struct plan *p, struct capacity_fewest *out)
{
	const struct model *m = &p->model;
	int node = s->hardware.gpu.gpus_per_node > 0 ? s->hardware.gpu.gpus_per_node : 8;
	int ep = s->parallel.ep > 0 ? s->parallel.ep : 1;
	/* the count to beat: the file's, unless its layout does not fit or meets at none */
	double best = p->mem.fits && isfinite(p->gpus_required) ? p->gpus_required : INFINITY;
	bool found = false;
	struct scenario t;
	struct plan q;

	memset(out, 0, sizeof(*out));
	out->file_gpus = p->mem.fits ? p->gpus_required : NAN;
	if (!search_sized_by_load(s))
		return false;
	for (int tp = 1; tp <= node; tp *= 2) {
		for (int pp = 1; tp * pp <= node; pp *= 2) {
			if ((tp == p->tp && pp == p->pp) || !tp_splits(m, tp) ||
			    (m->layers && pp > m->layers) ||
			    !framework_runs_layout(s->workload.framework, tp, pp, 0, false))
				continue;
			t = *s;
			t.parallel.tp = tp;
			t.parallel.pp = pp;
			t.parallel.dp = 0;
			t.hardware.count = tp * pp * ep; /* one replica: the fleet is its own */
			plan_compute(&t, &q);
			out->tried++;
			/* a plan past PLAN_MAX_GPUS names no count (gpus_required NaN with
			 * PW_FLEET_OVER_MAX: plan_infer.c, plan_serve.c's fleet_max), so a
			 * finite one is within it and fits the int hardware.count below
			 * (test_capacity.c, test_past_the_ceiling) */
			if (!q.mem.fits || !isfinite(q.gpus_required) || !(q.gpus_required < best))
				continue;
			best = q.gpus_required;
			found = true;
			out->tp = tp;
			out->pp = pp;
			out->ep = ep;
			out->gpus_required = q.gpus_required;
			out->replicas = q.replicas;
		}
	}
	if (!found)
		return false;
	/* the fleet it names, planned at its count: the batch it runs at the peak (the mean
	 * running batch under a scheduler) and its latencies at the SLO's percentile */
	t = *s;
	t.parallel.tp = out->tp;
	t.parallel.pp = out->pp;
	t.parallel.dp = 0;
	t.hardware.count = (int)out->gpus_required;
	plan_compute(&t, &q);
	out->scheduler = q.serving.scheduler;
	out->batch = isfinite(q.serving.batch) ? q.serving.batch : plan_batch(&t, &q);
	out->ttft_slo_s = q.serving.ttft_slo_s;
	out->tpot_slo_s = q.serving.tpot_slo_s;
	out->meets = plan_serving_meets(&t, &q);
	return true;
}
