/* cli_plan.c - the commands that plan a scenario many times: search, solve, and the
 * front ends of sweep (cli/sweep.c) and calibrate (cli/calibrate.c) (gpuplan(1), COMMANDS).
 */
#include "cli_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "calibrate_cli.h"
#include "report_json.h"
#include "search.h"
#include "units.h"

/* `search --scaling` (report_scaling_csv): the best layout by time at each GPU count. */
static int search_scaling_csv(struct cli *c, const struct scenario *s,
			      const struct search_options *opt)
{
	int counts[21], n = report_scaling_counts(s, counts, 21);
	struct search_result *out = calloc((size_t)n, sizeof(*out));

	if (!out)
		return cli_no_memory(c);
	search_scaling(s, opt, counts, n, out);
	report_scaling_csv(&c->out, s, c->cat, counts, out, n);
	free(out);
	return 0;
}

/* Why no hardware.count meets, where the plan knows a reason no count changes (a lone
 * request's latency above the SLO, a load past the most GPUs planned: the warnings
 * report's GPUs required row quotes): appended to err's message. */
static void solve_count_reason(const struct scenario *s, struct gp_error *err)
{
	struct plan *p = malloc(sizeof(*p));
	size_t n = strlen(err->message);
	char why[320];

	if (!p)
		return;
	plan_compute(s, p);
	if (report_fleet_reason(p, why, sizeof(why)))
		snprintf(err->message + n, sizeof(err->message) - n, ": %s", why);
	free(p);
}

int check_solve(struct cli *c)
{
	if (!c->solve_key)
		return cli_usage_error(c, "missing --max KEY or --min KEY");
	return 0;
}

int cmd_solve(struct cli *c)
{
	struct scenario *s = c->s[0];
	struct gp_error err = {0};
	const struct field *f;
	double value;
	char text[160];

	if (search_solve(s, c->solve_key, c->solve_max, &value, &err) != 0) {
		if (err.code == GP_EINPUT && strcmp(c->solve_key, "hardware.count") == 0)
			solve_count_reason(s, &err);
		return cli_print_error(c, &err, NULL);
	}
	/* write the value back through the field table, so it prints as a file would */
	f = scenario_field_find(c->solve_key);
	if (f->type == FIELD_INT)
		snprintf(text, sizeof(text), "%.0f", value);
	else
		units_format(f->unit, value, text, sizeof(text));
	if (scenario_field_set(s, c->cat, f, text, NULL) == 0)
		scenario_field_format(s, f, text, sizeof(text));
	if (c->json) {
		cli_json_result(c, report_json_solve(f->key, c->solve_max, value, text));
		return 0;
	}
	/* a bisected real ("5087242.126464844 requests a day") to 3 digits as units.c writes
	 * them ("5.08M"), rounded toward the side that still fits: down for --max, up for
	 * --min, so --set with it meets what the exact value meets; --json keeps it whole */
	if (f->type != FIELD_INT && isfinite(value) && value > 0) {
		double step = pow(10, floor(log10(value)) - 2);
		double r = (c->solve_max ? floor(value / step) : ceil(value / step)) * step;
		units_format(f->unit, r, text, sizeof(text));
	}
	/* standard output is KEY=VALUE alone, ready for --set "$(gpuplan solve ...)";
	 * what the value is goes to standard error, for the person reading */
	cli_error(c, "the %s value that fits%s", c->solve_max ? "largest" : "smallest",
		  search_has_target(s) ? " and meets the deadline or SLO" : "");
	report_buf_printf(&c->out, "%s=%s\n", f->key, text);
	c->out_raw = true;
	return 0;
}

int cmd_search(struct cli *c)
{
	struct search_options opt = {0};
	struct search_stats stats = {0};
	struct search_result *res;
	struct timespec t0, t1;
	double seconds;
	int n;

	opt.top = c->top ? atoi(c->top) : 10;
	opt.by = c->by && strcmp(c->by, "cost") == 0 ? SEARCH_BY_COST : SEARCH_BY_TIME;
	opt.hardware = c->hardware;
	opt.cat = c->cat;
	if (c->scaling)
		return search_scaling_csv(c, c->s[0], &opt);
	if (!(res = calloc((size_t)opt.top, sizeof(*res))))
		return cli_no_memory(c);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	n = search_run(c->s[0], &opt, res, &stats);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
	if (c->json)
		cli_json_result(
		    c, report_json_search(c->s[0], c->cat, res, n, stats.evaluated, seconds));
	else if (c->csv)
		report_search_csv(&c->out, c->s[0], c->cat, res, n);
	else
		report_search_text(&c->out, c->s[0], c->cat, &opt, res, n, &stats, seconds,
				   c->args[0]);
	free(res);
	return 0;
}

/* gpuplan sweep (cli/sweep.c): the scenario loaded as report loads it, then swept. */
int cmd_sweep(struct cli *c)
{
	/* the loaded scenario, its source for a swept preset, and the ranges after FILE */
	struct sweep_request r = {.cat = c->cat,
				  .s = c->s[0],
				  .file = c->args[0],
				  .src = c->src[0],
				  .nsets = c->nsets,
				  .sets = (const char *const *)c->sets,
				  .nranges = c->nargs - 1,
				  .ranges = c->args + 1,
				  .nys = c->nys,
				  .ys = c->ys,
				  .svg = c->svg,
				  .json = c->json,
				  .csv = c->csv,
				  .ascii = c->ascii};

	return sweep_run(&r);
}

/* gpuplan calibrate (cli/calibrate.c): the scenario loaded as report loads it, then fitted. */
int cmd_calibrate(struct cli *c)
{
	struct calibrate_request r = {.cat = c->cat,
				      .s = c->s[0],
				      .file = c->args[0],
				      .nmeasured = c->nmeasured,
				      .measured = c->measured,
				      .nknobs = c->nknobs,
				      .knobs = c->knobs,
				      .output = c->output,
				      .write = c->write,
				      .json = c->json,
				      .profile = c->prof};

	return calibrate_run(&r);
}
