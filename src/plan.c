/* plan.c - plan_compute, which runs the memory part (plan_memory.c) and then the time part
 * (plan_time.c), and the accessors of a plan's time parts. Warnings are in plan_warning.c.
 *
 * Everything here is pure arithmetic on the scenario: no allocation, no I/O, no loops over
 * layers, so a whole plan costs well under a microsecond.
 */
#include "plan.h"

#include <stddef.h>

/* Each part's place in the struct: indexing a member's address past it is not C. */
static const size_t part_at[PLAN_PARTS] = {
    offsetof(struct plan_time_parts, matmul_s),	      offsetof(struct plan_time_parts, attention_s),
    offsetof(struct plan_time_parts, memory_bound_s), offsetof(struct plan_time_parts, tp_comm_s),
    offsetof(struct plan_time_parts, pp_comm_s),      offsetof(struct plan_time_parts, bubble_s),
    offsetof(struct plan_time_parts, dp_comm_s),      offsetof(struct plan_time_parts, zero3_s),
    offsetof(struct plan_time_parts, ep_comm_s),      offsetof(struct plan_time_parts, offload_s),
    offsetof(struct plan_time_parts, optimizer_s),    offsetof(struct plan_time_parts, data_s),
};
_Static_assert(sizeof(struct plan_time_parts) == PLAN_PARTS * sizeof(double),
	       "PLAN_PARTS counts every part");

double *plan_part(struct plan_time_parts *t, unsigned i)
{
	return (double *)((char *)t + part_at[i < PLAN_PARTS ? i : 0]);
}

double plan_part_get(const struct plan_time_parts *t, unsigned i)
{
	return *(const double *)((const char *)t + part_at[i < PLAN_PARTS ? i : 0]);
}

void plan_compute(const struct scenario *s, struct plan *p)
{
	p->nwarnings = 0; /* every other field is written by the two parts */
	plan_compute_memory(s, p);
	plan_compute_time(s, p);
}
