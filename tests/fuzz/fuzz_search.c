/* fuzz_search.c - the layout search on random valid scenarios: by time or cost, with or
 * without the catalog's hardware (the input's first byte chooses), and goal seek on the GPU
 * count. The best result, applied to the scenario, must fit and plan to the memory the search
 * reported; results come best first. Input: a scenario file after that one byte.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "plan.h"
#include "scenario.h"
#include "scenario_yaml.h"
#include "search.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct catalog *cat = fuzz_shipped_catalog();
	struct scenario *s = malloc(sizeof(*s)), *t = malloc(sizeof(*t));
	struct scenario_source *src = malloc(sizeof(*src));
	struct gp_problems *probs = malloc(sizeof(*probs));
	struct search_result *res = malloc(4 * sizeof(*res));
	struct plan *p = malloc(sizeof(*p));
	struct search_options opt = {0};
	struct search_stats stats;
	struct gp_error err;
	int n;

	if (!s || !t || !src || !probs || !res || !p)
		abort();
	if (size < 1)
		goto out;
	gp_problems_init(probs);
	memset(src, 0, sizeof(*src));
	if (scenario_parse((const char *)data + 1, size - 1, "fuzz.yaml", cat, s, src, probs,
			   &err) != 0)
		goto out;
	gp_problems_init(probs);
	scenario_validate(s, src, probs);
	if (probs->count)
		goto out;
	opt.top = 4;
	opt.by = data[0] & 1 ? SEARCH_BY_COST : SEARCH_BY_TIME;
	opt.hardware = data[0] & 2;
	opt.cross_node_tp = data[0] & 4;
	opt.max_gpus = 64; /* a bounded space per input */
	opt.cat = cat;
	n = search_run(s, &opt, res, &stats);
	if (n < 0 || n > opt.top)
		abort();
	for (int i = 1; i < n; i++)
		if (res[i].meets_target == res[i - 1].meets_target &&
		    res[i].score < res[i - 1].score)
			abort(); /* best first */
	if (n > 0) {
		*t = *s;
		search_apply(t, cat, &res[0]);
		plan_compute(t, p);
		if (!p->mem.fits || !res[0].plan.mem.fits ||
		    fabs(p->mem.total - res[0].plan.mem.total) > 1e-6 * p->mem.total + 1)
			abort(); /* the result applied is the result found */
	}
	if (data[0] & 8) {
		double v;
		if (search_solve(s, "hardware.count", false, &v, &err) == 0 && !(v >= 1))
			abort();
	}
out:
	free(s);
	free(t);
	free(src);
	free(probs);
	free(res);
	free(p);
	return 0;
}
