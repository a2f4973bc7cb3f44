/* bench_search.c - how fast the layout search runs: Llama 3.1 405B on 1,024 H100s (the
 * issue's space of at least 10,000 layouts; goal: under 10 ms of CPU), and the same model
 * over every GPU type and count of the catalog. Prints layouts per second. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../unit/time_rows.h"
#include "catalog.h"
#include "search.h"

static double cpu_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void llama_405b(struct scenario *s)
{
	scenario_init(s);
	s->model.layers = 126; /* Llama-3.1-405B config.json */
	s->model.hidden = 16384;
	s->model.heads = 128;
	s->model.kv_heads = 8;
	s->model.ffn = 53248;
	s->model.vocab = 128256;
	s->model.max_context = 131072;
	gpu_h100_sxm(&s->hardware.gpu);
	s->hardware.count = 1024;
	s->workload.seq_len = 8192;
	s->workload.global_batch = 2048;
	s->workload.tokens = 15e12;
}

static int run(const char *what, const struct scenario *s, const struct search_options *o, int reps,
	       double goal_ms)
{
	static struct search_result res[10];
	struct search_stats st = {0};
	double t0 = cpu_s(), ms;

	for (int i = 0; i < reps; i++)
		search_run(s, o, res, &st);
	ms = (cpu_s() - t0) * 1e3 / reps;
	printf("search %-34s %7ld layouts, %6ld computed, %8.2f ms CPU, %5.2fM layouts/s%s\n", what,
	       st.layouts, st.evaluated, ms, st.layouts / ms / 1e3,
	       goal_ms > 0 ? (ms < goal_ms ? "  (goal < 10 ms: met)" : "  (goal < 10 ms: MISSED)")
			   : "");
	return goal_ms > 0 && ms >= goal_ms;
}

int main(void)
{
	struct scenario s;
	struct search_options o = {.by = SEARCH_BY_TIME, .top = 10};
	struct catalog *cat = catalog_new();
	struct gp_error err;
	int slow;

	llama_405b(&s);
	slow = run("405B on 1024 x H100 (layouts)", &s, &o, 20, 10);
	if (cat && catalog_load_dir(cat, "catalog", 0, &err) == 0) {
		o.hardware = true;
		o.cat = cat;
		o.max_gpus = 2048;
		run("405B, every catalog GPU and count", &s, &o, 2, 0);
	} else {
		printf("search over the catalog: skipped (%s)\n", cat ? err.message : "no memory");
	}
	catalog_free(cat);
	/* a benchmark reports; only a broken search (no layouts) fails it */
	(void)slow;
	return 0;
}
