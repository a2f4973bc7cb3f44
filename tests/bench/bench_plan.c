/* bench_plan.c - how long plan_compute takes, and proof that it allocates nothing.
 *
 * Times plan_compute (memory + time) and plan_compute_time alone over many iterations of
 * a few scenarios and prints nanoseconds per plan. malloc, calloc, realloc and free are
 * interposed (forwarding to glibc's __libc_* entry points) to count calls made while a
 * plan is computed; any call fails the benchmark. The goal (issue 2) is < 200 ns of CPU
 * time per whole plan (thread CPU clock). Each scenario runs in rounds and the best round
 * counts: other processes on the machine (a CI runner, a parallel make) evict caches and
 * share the core, which only ever adds time; the median is printed beside it.
 *
 * Each plan follows an edit of one workload field, as the terminal UI replans after a
 * keystroke (edit_one below): consecutive plans alternate that field between two values,
 * so a memo of the part of the scenario an edit leaves alone (the model, the GPU) counts,
 * and none of the whole scenario could.
 *
 * `bench_plan CASE PLANS` runs one case untimed, for an instruction count (bench_count).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "plan.h"
#include "scenario.h"

extern void *__libc_malloc(size_t n);
extern void *__libc_calloc(size_t n, size_t m);
extern void *__libc_realloc(void *p, size_t n);
extern void __libc_free(void *p);

static volatile long allocations;

void *malloc(size_t n)
{
	allocations++;
	return __libc_malloc(n);
}

void *calloc(size_t n, size_t m)
{
	allocations++;
	return __libc_calloc(n, m);
}

void *realloc(void *p, size_t n)
{
	allocations++;
	return __libc_realloc(p, n);
}

void free(void *p)
{
	__libc_free(p);
}

static void gpu_h100(struct gpu *g)
{
	memset(g, 0, sizeof(*g));
	snprintf(g->id, sizeof(g->id), "h100-sxm-80gb");
	g->memory_bytes = 80e9;
	g->hbm_bytes_per_s = 3.35e12;
	g->peak_flops[DTYPE_FP32] = 67e12;
	g->peak_flops[DTYPE_BF16] = 989.4e12;
	g->peak_flops[DTYPE_FP16] = 989.4e12;
	g->peak_flops[DTYPE_FP8] = 1978.9e12;
	g->link_bytes_per_s = 900e9;
	g->link_domain = 8;
	g->pcie_bytes_per_s = 64e9;
	g->power_w = 700;
	g->price_per_hour = 3;
	g->gpus_per_node = 8;
	g->network_bytes_per_s = 50e9;
}

static void llama(struct model *m, int layers, int hidden, int heads, int ffn)
{
	memset(m, 0, sizeof(*m));
	m->layers = layers;
	m->hidden = hidden;
	m->heads = heads;
	m->kv_heads = 8;
	m->ffn = ffn;
	m->vocab = 128256;
	m->mlp = MLP_GATED;
	m->max_context = 8192;
}

/* The one field plan k edits: alternately its value and another, plan by plan.
 * Training: the sequence length (activations, attention, the loss); online serving: the
 * daily load (the queue, the fleet); offline: the output length (decode, KV cache). */
static void edit_one(struct scenario *s, int k)
{
	switch (s->workload.kind) {
	case WL_ONLINE:
		if (s->workload.requests_per_s > 0)
			s->workload.requests_per_s = k & 1 ? 48 : 40;
		else
			s->workload.requests_per_day = k & 1 ? 2e6 : 1e6;
		break;
	case WL_OFFLINE:
		s->workload.output_tokens = k & 1 ? 256 : 128;
		break;
	default:
		s->workload.seq_len = k & 1 ? 4096 : 8192;
		break;
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); /* CPU time: a busy machine does not count */
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

enum { NCASES = 5, NQUEUE = 2 };

static const char *const names[NCASES] = {"train 8B, 64 GPUs, ZeRO-1", "train 70B, tp8 pp4 vpp2",
					  "online 8B, SLO", "offline 8B fp8, batch auto",
					  "train 8B, fsdp (torchtitan)"};
static const char *const qn[NQUEUE] = {"online 8B chunked, 40 req/s",
				       "+ eagle, exponential lengths"};

/* The scenarios: sc the plain cases, q the serving-with-queueing ones (issue 13). */
static void bench_setup(struct scenario sc[NCASES], struct scenario q[NQUEUE])
{
	for (int i = 0; i < NCASES; i++) {
		struct scenario *s = &sc[i];
		scenario_init(s);
		gpu_h100(&s->hardware.gpu);
		llama(&s->model, 32, 4096, 32, 14336);
		s->workload.tokens = 1e12;
		s->workload.seq_len = 8192;
		s->workload.global_batch = 512;
		s->hardware.count = 64;
		s->parallel.zero = 1;
	}
	llama(&sc[1].model, 80, 8192, 64, 28672);
	sc[1].hardware.count = 1024;
	sc[1].parallel.tp = 8;
	sc[1].parallel.pp = 4;
	sc[1].parallel.virtual_stages = 2;
	sc[1].workload.recompute = RECOMPUTE_FULL;
	sc[2].workload.kind = WL_ONLINE;
	/* the lone step's plan; the loaded engine (the default's) has its own cases below */
	sc[2].workload.scheduler = SCHED_ALONE;
	sc[2].workload.requests_per_day = 1e6;
	sc[2].workload.slo.tpot_s = 0.05;
	sc[2].workload.slo.ttft_s = 1;
	sc[2].hardware.count = 8;
	sc[3].workload.kind = WL_OFFLINE;
	sc[3].workload.batch = 0;
	sc[3].workload.weights = DTYPE_FP8;
	sc[3].workload.precision = DTYPE_FP8;
	sc[3].workload.deadline_s = 86400;
	sc[3].hardware.count = 1;
	/* a named framework (issue 12: "under 200 ns with a framework set"): FSDP2's
	 * overlapped collectives, caching-allocator slack and BLAS workspaces */
	sc[4].workload.framework = FW_FSDP;
	sc[4].parallel.zero = 3;

	for (int i = 0; i < NQUEUE; i++) {
		q[i] = sc[2];
		q[i].workload.scheduler = SCHED_CHUNKED;
		q[i].workload.requests_per_day = 0;
		q[i].workload.requests_per_s = 40;
		q[i].workload.slo.percentile = 99;
	}
	q[1].workload.speculative.method = SPEC_EAGLE;
	q[1].workload.speculative.tokens = 3;
	q[1].workload.speculative.acceptance = 0.7;
	q[1].workload.prompt_length.dist = DIST_EXPONENTIAL;
	q[1].workload.output_length.dist = DIST_EXPONENTIAL;
}

/* `bench_plan CASE PLANS`: only PLANS plans of case CASE (0-4 the plain cases, 5-6 the
 * queueing ones), untimed, for an instruction count that a noisy machine cannot move:
 * valgrind --tool=callgrind --toggle-collect=plan_compute build/bench/bench_plan 5 1000 */
static int bench_count(int c, long plans)
{
	struct scenario sc[NCASES], q[NQUEUE], *s;
	struct plan p;
	double sink = 0;

	bench_setup(sc, q);
	if (c < 0 || c >= NCASES + NQUEUE || plans < 1) {
		fprintf(stderr, "usage: bench_plan [CASE(0-%d) PLANS]\n", NCASES + NQUEUE - 1);
		return 2;
	}
	s = c < NCASES ? &sc[c] : &q[c - NCASES];
	printf("%s: %ld plans\n", c < NCASES ? names[c] : qn[c - NCASES], plans);
	for (long k = 0; k < plans; k++) {
		edit_one(s, (int)k);
		plan_compute(s, &p);
		sink += p.step_s;
	}
	return !isfinite(sink);
}

int main(int argc, char **argv)
{
	struct scenario sc[NCASES], q[NQUEUE];
	const int iters = 20000, rounds = 15;
	double worst = 0;
	int failed = 0;
	double sink = 0;

	if (argc == 3)
		return bench_count(atoi(argv[1]), atol(argv[2]));
	bench_setup(sc, q);
	printf("plan_compute: the best of %d rounds of %d plans per scenario (other processes only "
	       "add time)\n",
	       rounds, iters);
	for (int i = 0; i < NCASES; i++) {
		struct plan p;
		long before;
		double t_all = INFINITY, t_time = INFINITY, t_all_med;
		double all[16];

		plan_compute(&sc[i], &p); /* warm up */
		before = allocations;
		for (int r = 0; r < rounds; r++) {
			double t0 = now_s(), t;
			for (int k = 0; k < iters; k++) {
				edit_one(&sc[i], k);
				plan_compute(&sc[i], &p);
				sink += p.step_s;
			}
			all[r] = (now_s() - t0) / iters;
			if (all[r] < t_all)
				t_all = all[r];
			t0 = now_s();
			for (int k = 0; k < iters; k++) {
				plan_compute_time(&sc[i], &p);
				sink += p.step_s;
			}
			t = (now_s() - t0) / iters;
			if (t < t_time)
				t_time = t;
		}
		qsort(all, rounds, sizeof(all[0]), cmp_double);
		t_all_med = all[rounds / 2];
		printf("  %-28s  whole plan %4.0f ns (median %4.0f)   time part %4.0f ns   "
		       "allocations %ld\n",
		       names[i], t_all * 1e9, t_all_med * 1e9, t_time * 1e9, allocations - before);
		if (allocations != before) {
			printf("  FAIL: plan_compute allocated\n");
			failed = 1;
		}
		if (t_all > worst)
			worst = t_all;
		/* CI machines are noisy and differ, so only a gross regression (5x the goal)
		 * fails */
		if (t_all > 1000e-9) {
			printf("  FAIL: a whole plan above 1 us\n");
			failed = 1;
		}
		if (!isfinite(p.step_s)) {
			printf("  FAIL: step time is not finite\n");
			failed = 1;
		}
	}
	printf("plan_compute, slowest scenario: %.0f ns (goal < 200 ns: %s)\n", worst * 1e9,
	       worst < 200e-9 ? "met" : "NOT met");

	/* serving with queueing (issue 13): the loaded engine, Little's law solved for the
	 * running batch, the percentiles, and the capacity walk over the fleet; the goal is
	 * < 2 us a plan (a gross regression, 5x, fails) */
	{
		double qworst = 0;
		for (int i = 0; i < NQUEUE; i++) {
			struct plan p;
			long before;
			double best = INFINITY;
			plan_compute(&q[i], &p);
			before = allocations;
			for (int r = 0; r < rounds; r++) {
				double t0 = now_s(), t;
				for (int k = 0; k < iters / 10; k++) {
					edit_one(&q[i], k);
					plan_compute(&q[i], &p);
					sink += p.tpot_s;
				}
				t = (now_s() - t0) / (iters / 10);
				if (t < best)
					best = t;
			}
			printf("  %-28s  whole plan %4.0f ns (%g evaluations of the loaded "
			       "engine)   allocations %ld\n",
			       qn[i], best * 1e9, p.serving.fleet_evals, allocations - before);
			if (allocations != before) {
				printf("  FAIL: plan_compute allocated\n");
				failed = 1;
			}
			if (!isfinite(p.gpus_required) || !isfinite(p.serving.ttft[2])) {
				printf("  FAIL: no capacity plan under load\n");
				failed = 1;
			}
			if (best > qworst)
				qworst = best;
			if (best > 10e-6) {
				printf("  FAIL: a serving plan with queueing above 10 us\n");
				failed = 1;
			}
		}
		printf("plan_compute, serving with queueing: %.0f ns (goal < 2 us: %s)\n",
		       qworst * 1e9, qworst < 2e-6 ? "met" : "NOT met");
	}
	if (sink == 42)
		printf("\n");
	return failed;
}
