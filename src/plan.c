/* plan.c - plan_compute, which runs the memory part (plan_memory.c) and then the time part
 * (plan_time.c). Warnings are in plan_warning.c.
 *
 * Everything here is pure arithmetic on the scenario: no allocation, no I/O, no loops over
 * layers, so a whole plan costs well under a microsecond.
 */
#include "plan.h"

void plan_compute(const struct scenario *s, struct plan *p)
{
	p->nwarnings = 0; /* every other field is written by the two parts */
	plan_compute_memory(s, p);
	plan_compute_time(s, p);
}
