/* plan.c - plan_compute, which runs the memory part (plan_memory.c) and then the time part
 * (plan_time.c). Warnings are in plan_warning.c.
 *
 * Everything here is pure arithmetic on the scenario: no allocation, no I/O, no loops over
 * layers, so a whole plan costs well under a microsecond.
 */
#include "plan.h"

#include <math.h>

void plan_compute(const struct scenario *s, struct plan *p)
{
	p->nwarnings = 0; /* every other field is written by the two parts */
	plan_compute_memory(s, p);
	plan_compute_time(s, p);
	/* GPUs for a training deadline: counts tried as goal seek tries them; where memory
	 * fits at no count, the count for the deadline alone (seed case 6's formula) */
	if ((s->workload.kind == WL_TRAIN || s->workload.kind == WL_FINETUNE) &&
	    s->workload.deadline_s > 0 && s->workload.tokens > 0) {
		double g = plan_deadline_gpus(s, true);
		p->gpus_required = isnan(g) ? plan_deadline_gpus(s, false) : g;
	}
}
