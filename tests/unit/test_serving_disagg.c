/* test_serving_disagg.c - disaggregated prefill and decode pools (workload.scheduler
 * disaggregated; src/plan_serve.c serve_disagg): a prefill engine is DistServe's M/D/1
 * queue (Equation 1), the prompt's KV crosses the fabric before the first token, a decode
 * engine only decodes (Little's law over its output - 1 steps, every gap the same), and the
 * capacity plan sizes each pool for its own target; the split is refused where it does
 * not apply. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plan.h"
#include "report.h"
#include "report_json.h"
#include "scenario.h"
#include "scenario_yaml.h"
#include "shipped_catalog.h"
#include "serving_text.h"

#define TEAM "scenarios/team-serve-70b-5m-requests.yaml"

/* team-serve, disaggregated, with the --set assignments in kv up to a NULL */
static void pd(struct scenario *s, const char *const *kv)
{
	struct gp_error err;
	if (scenario_load_file(TEAM, cat, s, NULL, NULL, &err) != 0)
		fail_msg("%s: %s", TEAM, err.message);
	if (scenario_set_assignment(s, cat, "workload.scheduler=disaggregated", &err) != 0)
		fail_msg("%s", err.message);
	for (; kv && *kv; kv++)
		if (scenario_set_assignment(s, cat, *kv, &err) != 0)
			fail_msg("--set %s: %s", *kv, err.message);
}

/* DistServe Equation 1 for the mean TTFT of a prefill engine, plus the KV's transfer;
 * Little's law on a decode engine; every gap the same step */
static void test_pools(void **state)
{
	static const char *const kv[] = {"hardware.count=96", "workload.prefill_engines=18",
					 "workload.decode_engines=6", NULL};
	struct scenario s;
	struct plan p;
	const struct plan_serving *v = &p.serving;
	double lam = 5e6 * 2.5 / 86400, D, rho, O = 300;
	(void)state;
	pd(&s, kv);
	plan_compute(&s, &p);
	assert_false(v->overloaded);
	assert_true(v->prefill_engines == 18 && v->decode_engines == 6);
	D = v->prefill_s;
	/* the pool batches the waiting prompts into passes of up to the budget: its load is
	 * a prompt's share of a full pass, no more than the prompt's own pass */
	assert_true(v->prompt_svc_s > 0 && v->prompt_svc_s <= D);
	rho = lam * v->prompt_svc_s / 18;
	assert_true(fabs(v->prefill_util - rho) < 1e-12);
	assert_true(fabs(v->ttft_mean_s - (D + v->kv_transfer_s + rho * D / (2 * (1 - rho)))) <
		    1e-12);
	/* the KV of 1500 prompt tokens, each GPU its share, over NVLink within the node (its
	 * datasheet rate at most) */
	{
		double bw = 1500 * p.mem.kv_bytes_per_token / v->kv_transfer_s;
		assert_true(bw <= s.hardware.gpu.link_bytes_per_s * (1 + 1e-9));
		assert_true(bw >= 0.3 * s.hardware.gpu.link_bytes_per_s);
	}
	/* Little's law on a decode engine over its output - 1 steps */
	assert_true(fabs(v->batch - lam / 6 * (O - 1) * v->tpot_mean_s) < 1e-6 * v->batch);
	/* no prompt joins a decode step: every level is the same gap */
	for (int k = 0; k < 3; k++)
		assert_true(v->tpot[k] == v->tpot_mean_s);
	assert_true(v->tpot_slo_s == v->tpot_mean_s);
	assert_true(v->ttft[0] <= v->ttft[1] && v->ttft[1] <= v->ttft[2]);
	/* the decode step is independent of the prompt: a longer prompt moves TTFT only */
	{
		struct scenario z = s;
		struct plan q;
		struct gp_error err;
		assert_int_equal(
		    scenario_set_assignment(&z, cat, "workload.prompt_tokens=3000", &err), 0);
		plan_compute(&z, &q);
		assert_true(fabs(q.serving.kv_transfer_s / v->kv_transfer_s - 2) < 1e-9);
		assert_true(q.serving.prefill_s > 1.9 * v->prefill_s);
	}
	printf("18 prefill + 6 decode: TTFT mean %.4g s (prefill %.4g, KV %.4g ms, rho %.3g), "
	       "TPOT %.4g ms at batch %.4g\n",
	       v->ttft_mean_s, D, 1e3 * v->kv_transfer_s, rho, 1e3 * v->tpot_mean_s, v->batch);
}

/* the capacity plan: each pool the fewest engines meeting its own target; one prefill
 * engine fewer misses TTFT (or overloads), one decode engine fewer misses TPOT */
static void test_fleet(void **state)
{
	struct scenario s, z;
	struct plan p, q;
	char kv[3][64];
	const char *set[4] = {kv[0], kv[1], kv[2], NULL};
	double fp, fd;
	(void)state;
	pd(&s, NULL);
	plan_compute(&s, &p);
	fp = p.serving.fleet_prefill, fd = p.serving.fleet_decode;
	printf("fleet: %g prefill + %g decode engines, %g GPUs (chunked: 76)\n", fp, fd,
	       p.gpus_required);
	assert_true(fp >= 1 && fd >= 1);
	assert_true(p.gpus_required == (fp + fd) * 4);
	snprintf(kv[0], sizeof(kv[0]), "hardware.count=%g", p.gpus_required);
	snprintf(kv[1], sizeof(kv[1]), "workload.prefill_engines=%g", fp);
	snprintf(kv[2], sizeof(kv[2]), "workload.decode_engines=%g", fd);
	pd(&z, set);
	plan_compute(&z, &q);
	assert_true(plan_serving_meets(&z, &q));
	assert_true(q.serving.ttft_slo_s <= 1 && q.serving.tpot_slo_s <= 0.05);
	snprintf(kv[1], sizeof(kv[1]), "workload.prefill_engines=%g", fp - 1);
	pd(&z, set);
	plan_compute(&z, &q);
	assert_true(q.serving.overloaded || q.serving.ttft_slo_s > 1);
	if (fd > 1) {
		snprintf(kv[1], sizeof(kv[1]), "workload.prefill_engines=%g", fp);
		snprintf(kv[2], sizeof(kv[2]), "workload.decode_engines=%g", fd - 1);
		pd(&z, set);
		plan_compute(&z, &q);
		assert_true(q.serving.overloaded || q.serving.tpot_slo_s > 0.05);
	}
	/* a TPOT below a lone decode step's: no count */
	pd(&z, NULL);
	{
		struct gp_error err;
		assert_int_equal(scenario_set_assignment(&z, cat, "workload.slo.tpot=1ms", &err),
				 0);
	}
	plan_compute(&z, &q);
	assert_true(isnan(q.gpus_required));
}

/* The audit of issue 13: a file's split of 1 prefill + 3 decode engines at 88 GPUs. The
 * capacity plan names its own split (17 + 5 engines at 88 GPUs), which at that count
 * meets; the file's split overloads there, and the warning quotes the arrivals and the
 * capacity of one pool (the one that overruns), so its arrivals exceed what it completes;
 * the file's 1:3 needs its own count (fleet_split_gpus), which meets at 1:3 and one
 * multiple fewer does not. */
static const struct plan_warning *warning_of(const struct plan *p, enum plan_warning_code code)
{
	for (int i = 0; i < p->nwarnings; i++)
		if (p->warnings[i].code == code)
			return &p->warnings[i];
	return NULL;
}

static void test_file_split(void **state)
{
	static const char *const file[] = {"workload.prefill_engines=1",
					   "workload.decode_engines=3", "hardware.count=88", NULL};
	struct scenario s, z;
	struct plan p, q;
	const struct plan_warning *ow;
	char kv[3][64];
	const char *set[4] = {kv[0], kv[1], kv[2], NULL};
	double fp, fd, k;
	(void)state;
	pd(&s, file);
	plan_compute(&s, &p);
	fp = p.serving.fleet_prefill, fd = p.serving.fleet_decode;
	printf("file 1:3 at 88: plan %g GPUs = %g + %g engines; the file's split needs %g GPUs; "
	       "utilisation %.3g\n",
	       p.gpus_required, fp, fd, p.serving.fleet_split_gpus, p.serving.utilisation);
	assert_true(p.gpus_required == (fp + fd) * 4);
	/* the file's split at this count overloads: the warning's pool arrives faster than
	 * it completes, and the utilisation is that pool's (over 1) */
	assert_true(p.serving.overloaded);
	ow = warning_of(&p, PW_OVERLOADED);
	assert_non_null(ow);
	assert_true(ow->a > ow->b);
	assert_true(ow->c == 1 || ow->c == 2);
	assert_true(p.serving.utilisation >= 1);
	assert_true(fabs(p.serving.utilisation * ow->b - ow->a) < 1e-9 * ow->a);
	/* at gpus_required with the split it names: not overloaded, meets */
	snprintf(kv[0], sizeof(kv[0]), "hardware.count=%g", p.gpus_required);
	snprintf(kv[1], sizeof(kv[1]), "workload.prefill_engines=%g", fp);
	snprintf(kv[2], sizeof(kv[2]), "workload.decode_engines=%g", fd);
	pd(&z, set);
	plan_compute(&z, &q);
	assert_false(q.serving.overloaded);
	assert_null(warning_of(&q, PW_OVERLOADED));
	assert_true(plan_serving_meets(&z, &q));
	assert_true(q.gpus_required == p.gpus_required);
	/* the file's 1:3 in whole multiples k: meets at its count, not at k - 1 */
	k = p.serving.fleet_split_gpus / (4 * 4);
	assert_true(k == fmax(ceil(fp / 1), ceil(fd / 3)));
	snprintf(kv[0], sizeof(kv[0]), "hardware.count=%g", p.serving.fleet_split_gpus);
	snprintf(kv[1], sizeof(kv[1]), "workload.prefill_engines=%g", k);
	snprintf(kv[2], sizeof(kv[2]), "workload.decode_engines=%g", 3 * k);
	pd(&z, set);
	plan_compute(&z, &q);
	assert_false(q.serving.overloaded);
	assert_true(q.serving.ttft_slo_s <= 1 && q.serving.tpot_slo_s <= 0.05);
	snprintf(kv[1], sizeof(kv[1]), "workload.prefill_engines=%g", k - 1);
	snprintf(kv[2], sizeof(kv[2]), "workload.decode_engines=%g", 3 * (k - 1));
	pd(&z, set);
	plan_compute(&z, &q);
	assert_true(q.serving.overloaded || q.serving.ttft_slo_s > 1 ||
		    q.serving.tpot_slo_s > 0.05);
	/* the auto split at gpus_required is the plan's */
	{
		static const char *const at[] = {"hardware.count=88", NULL};
		pd(&z, at);
		plan_compute(&z, &q);
		assert_true(q.serving.prefill_engines == q.serving.fleet_prefill &&
			    q.serving.decode_engines == q.serving.fleet_decode);
		assert_false(q.serving.overloaded);
		assert_true(isnan(q.serving.fleet_split_gpus));
	}
	/* a decode pool that overruns: its own arrivals and capacity */
	{
		static const char *const dec[] = {"workload.prefill_engines=20",
						  "workload.decode_engines=2", "hardware.count=88",
						  NULL};
		pd(&z, dec);
		plan_compute(&z, &q);
		ow = warning_of(&q, PW_OVERLOADED);
		assert_non_null(ow);
		assert_true(ow->c == 2 && ow->a > ow->b);
		assert_true(fabs(ow->a - q.serving.rate) < 1e-9 * ow->a &&
			    fabs(ow->b - q.serving.capacity_rate) < 1e-9 * ow->b);
	}
}

/* the split applies to a disaggregated deployment, and must fit the count */
/* A prefill engine batches waiting prompts into passes of up to the token budget: short
 * prompts share a pass's weight read and fixed costs, so each loads the pool far less than
 * its own pass (and the pool needs fewer engines); a prompt as long as the budget gains
 * nothing; an unlimited budget is the unbatched pool of before (S = D). */
static void test_batched_prefill(void **state)
{
	static const char *const kv[] = {"workload.prompt_tokens=100", NULL};
	struct scenario s, t;
	struct plan p, q;
	(void)state;
	pd(&s, kv);
	plan_compute(&s, &p);
	printf("100-token prompts: a pass %.3g ms, a share of a full pass %.3g ms; %g prefill "
	       "engines\n",
	       1e3 * p.serving.prefill_s, 1e3 * p.serving.prompt_svc_s, p.serving.fleet_prefill);
	assert_true(p.serving.prompt_svc_s < 0.5 * p.serving.prefill_s);
	struct gp_error err;
	t = s;
	assert_int_equal(scenario_set_assignment(&t, cat, "workload.max_batched_tokens=100", &err),
			 0);
	plan_compute(&t, &q);
	assert_true(fabs(q.serving.prompt_svc_s - q.serving.prefill_s) < 1e-12);
	assert_true(p.serving.fleet_prefill <= q.serving.fleet_prefill);
	assert_true(p.gpus_required <= q.gpus_required);
	/* at the same split, the batched pool keeps up where the unbatched overloads */
	{
		static const char *const split[] = {"hardware.count=96",
						    "workload.prefill_engines=1",
						    "workload.decode_engines=23"};
		for (int i = 0; i < 3; i++)
			assert_int_equal(scenario_set_assignment(&s, cat, split[i], &err) |
					     scenario_set_assignment(&t, cat, split[i], &err),
					 0);
		plan_compute(&s, &p);
		plan_compute(&t, &q);
		/* one engine takes the peak's 145 prompts/s batched (0.84 busy), not one a pass
		 * (2.0: overloaded) */
		assert_true(p.serving.prefill_util < 1 && q.serving.prefill_util >= 1);
		assert_false(p.serving.overloaded);
		assert_true(q.serving.overloaded && isnan(q.serving.ttft_mean_s));
		assert_true(isfinite(p.serving.ttft_mean_s));
	}
}

static void test_bad(void **state)
{
	struct gp_error err;
	(void)state;
	assert_int_not_equal(load_text("gpuplan: 1\nmodel:\n  preset: llama-2-7b\nhardware:\n"
				       "  gpu: a100-80gb-sxm\n  count: 8\nworkload:\n"
				       "  kind: online\n  prompt_tokens: 500\n  output_tokens: "
				       "100\n  prefill_engines: 2\n",
				       &err),
			     0);
	printf("%d:%d: %s\n", err.line, err.column, err.message);
	assert_int_equal(err.line, 11);
	assert_non_null(strstr(err.message, "disaggregated"));
	assert_int_not_equal(load_text("gpuplan: 1\nmodel:\n  preset: llama-2-7b\nhardware:\n"
				       "  gpu: a100-80gb-sxm\n  count: 8\nworkload:\n"
				       "  kind: online\n  prompt_tokens: 500\n  output_tokens: "
				       "100\n  scheduler: disaggregated\n  prefill_engines: 4\n"
				       "  decode_engines: 6\n",
				       &err),
			     0);
	printf("%d:%d: %s\n", err.line, err.column, err.message);
	assert_non_null(strstr(err.message, "more than the 8 GPUs"));
}

/* capacity_plan.slo_batch is a decode engine's (disagg_slo_batch): the largest batch whose
 * step meets the TPOT target, at most the running cap, and one more misses; no decode step
 * is in the TTFT, so the lone step's TTFT bound does not cut it; a TTFT below a lone
 * prompt's prefill and transfer leaves none. */
static void test_slo_batch_from_decode_pool(void **state)
{
	static const char *const tight[] = {"hardware.count=96", "workload.slo.tpot=20ms", NULL};
	static const char *const loose[] = {"hardware.count=96", NULL};
	static const char *const ttft[] = {"hardware.count=96", "workload.slo.ttft=10ms", NULL};
	struct scenario s;
	struct plan p, q;
	(void)state;
	pd(&s, tight);
	plan_compute(&s, &p);
	printf("disaggregated, TPOT 20 ms: slo_batch %g (running cap %g)\n", p.slo_batch,
	       p.serving.max_running);
	assert_true(p.slo_batch >= 1 && p.slo_batch < p.serving.max_running);
	/* the engine at that batch meets it, one more does not */
	s.workload.batch = (int)p.slo_batch;
	s.workload.concurrency = (int)p.slo_batch;
	s.workload.requests_per_day = 0;
	plan_compute(&s, &q);
	assert_true(q.serving.tpot_slo_s <= 0.020);
	s.workload.batch = s.workload.concurrency = (int)p.slo_batch + 1;
	plan_compute(&s, &q);
	assert_true(q.serving.tpot_slo_s > 0.020);
	/* at 50 ms every running request meets it: the cap */
	pd(&s, loose);
	plan_compute(&s, &p);
	assert_true(p.slo_batch == p.serving.max_running);
	pd(&s, ttft);
	plan_compute(&s, &p);
	assert_true(p.slo_batch == 0);
}

/* The text report's pools row (report.c disagg_split_text), its wrapped lines joined:
 * from its label to the next row's. Free it. */
static char *pools_row(const struct scenario *s, const struct plan *p)
{
	struct report_buf b = {0};
	char *at, *row = NULL, *o;
	assert_int_equal(report_text(&b, s, p), 0);
	assert_null(strstr(b.data, "nan"));
	at = strstr(b.data, "\n  pools ");
	if (at) {
		row = o = calloc(1, strlen(at) + 1);
		assert_non_null(row);
		for (at += 1; *at && !(at[0] == '\n' && at[1] == ' ' && at[2] == ' ' &&
				      at[3] != ' '); at++)
			if (!(isspace((unsigned char)*at) && o > row && o[-1] == ' '))
				*o++ = isspace((unsigned char)*at) ? ' ' : *at;
	}
	report_buf_release(&b);
	return row;
}

/* A deployment of N engines splits into pools within N: one engine cannot hold a pool of
 * each (a warning, no throughput, never a second engine's GPUs); 2 run 1 + 1; 3 run a
 * split of 3, one of each at the least. */
static void test_engines_within_count(void **state)
{
	struct scenario s;
	struct plan p;
	const struct plan_warning *w;
	char *row;
	(void)state;
	/* team-serve's 4 GPUs at tp 4: one engine */
	pd(&s, NULL);
	assert_int_equal(s.hardware.count, 4);
	plan_compute(&s, &p);
	w = warning_of(&p, PW_DISAGG_FEW_ENGINES);
	assert_non_null(w);
	assert_true(w->a == 2 && w->b == 1);
	assert_true(isnan(p.serving.prefill_engines) && isnan(p.serving.decode_engines));
	assert_true(isnan(p.tokens_per_s) && isnan(p.serving.requests_per_s));
	/* the capacity plan still sizes the pools */
	assert_true(p.gpus_required == (p.serving.fleet_prefill + p.serving.fleet_decode) * 4);
	row = pools_row(&s, &p);
	assert_non_null(row);
	assert_non_null(strstr(row, "cannot hold one of each pool (no throughput)"));
	free(row);
	for (int n = 2; n <= 3; n++) {
		char kv[32];
		const char *set[] = {kv, NULL};
		snprintf(kv, sizeof(kv), "hardware.count=%d", 4 * n);
		pd(&s, set);
		plan_compute(&s, &p);
		assert_null(warning_of(&p, PW_DISAGG_FEW_ENGINES));
		assert_true(p.serving.prefill_engines >= 1 && p.serving.decode_engines >= 1);
		assert_true(p.serving.prefill_engines + p.serving.decode_engines == n);
		assert_true(isfinite(p.tokens_per_s));
		row = pools_row(&s, &p);
		assert_non_null(row);
		{
			char want[64];
			snprintf(want, sizeof(want), "this count runs %.0f + %.0f",
				 p.serving.prefill_engines, p.serving.decode_engines);
			assert_non_null(strstr(row, want));
		}
		free(row);
		printf("%d engines: %g prefill + %g decode; plan %g + %g\n", n,
		       p.serving.prefill_engines, p.serving.decode_engines,
		       p.serving.fleet_prefill, p.serving.fleet_decode);
	}
	/* the file's one pool takes every engine: none left for the other */
	{
		static const char *const one[] = {"hardware.count=8", "workload.prefill_engines=2",
						  NULL};
		pd(&s, one);
		plan_compute(&s, &p);
		w = warning_of(&p, PW_DISAGG_FEW_ENGINES);
		assert_non_null(w);
		assert_true(w->a == 3 && w->b == 2);
		assert_true(isnan(p.tokens_per_s));
	}
}

/* capacity_plan.file_split_gpus: the file's split's GPUs in JSON, null without one */
static void test_file_split_json(void **state)
{
	static const char *const file[] = {"workload.prefill_engines=1",
					   "workload.decode_engines=3", "hardware.count=88", NULL};
	static const char *const none[] = {"hardware.count=88", NULL};
	struct scenario s;
	struct plan p;
	struct cJSON *j;
	double x = -1;
	(void)state;
	pd(&s, file);
	plan_compute(&s, &p);
	assert_true(isfinite(p.serving.fleet_split_gpus));
	j = report_json_build(&s, &p);
	assert_int_equal(report_json_get(j, "capacity_plan.file_split_gpus", &x, NULL),
			 REPORT_JSON_NUMBER);
	assert_true(x == p.serving.fleet_split_gpus && x != p.gpus_required);
	report_json_free(j);
	pd(&s, none);
	plan_compute(&s, &p);
	j = report_json_build(&s, &p);
	assert_int_equal(report_json_get(j, "capacity_plan.file_split_gpus", NULL, NULL),
			 REPORT_JSON_NULL);
	report_json_free(j);
}

/* The fleet's bottleneck shares under disaggregated pools weigh both pools (plan_serve.c
 * pt_serve, plan_infer.c pt_weigh_prefill_shares): a request's decode time is its O - 1
 * steps' share 1 / batch of a decode engine's step, its prefill time its share of a
 * batched pass (no more than the pool's service S), and each share is the two weighted by
 * those times; a longer prompt moves the fleet toward compute. */
static void test_fleet_shares(void **state)
{
	static const char *const at[] = {"hardware.count=88", NULL};
	static const char *const longp[] = {"hardware.count=88", "workload.prompt_tokens=6000",
					    NULL};
	struct scenario s;
	struct plan p, q;
	const struct plan_share_weigh *wg = &p.share_weigh;
	double O = 300, dec, pf, sum = 0;
	(void)state;
	pd(&s, at);
	plan_compute(&s, &p);
	dec = (O - 1) * p.serving.step_decode_s / p.serving.batch;
	assert_true(fabs(wg->decode_s - dec) < 1e-9 * dec);
	pf = wg->prefill_s;
	assert_true(pf > 0 && pf <= p.serving.prompt_svc_s * (1 + 1e-9));
	assert_true(pf >= 0.8 * p.serving.prompt_svc_s); /* S less the host's load */
	assert_true(fabs(p.shares[BN_COMPUTE] - (wg->decode[0] * dec + wg->part_s[0]) /
						    (dec + pf)) < 1e-12);
	assert_true(fabs(p.shares[BN_HBM] - (wg->decode[1] * dec + wg->part_s[1]) / (dec + pf)) <
		    1e-12);
	/* the prefill pool's terms add up to no more than its time */
	for (int k = 0; k < 3; k++)
		sum += wg->part_s[k];
	assert_true(sum <= pf * (1 + 1e-9));
	/* the prefill pool busy for longer per request than the decode pool here (17 prefill
	 * engines to 5): the fleet's compute share is above the decode pool's */
	assert_true(pf > dec && p.shares[BN_COMPUTE] > wg->decode[0]);
	printf("fleet shares: compute %.3g (decode pool %.3g), hbm %.3g (%.3g); prefill %.3g "
	       "ms, decode %.3g ms a request\n",
	       p.shares[BN_COMPUTE], wg->decode[0], p.shares[BN_HBM], wg->decode[1], 1e3 * pf,
	       1e3 * dec);
	pd(&s, longp);
	plan_compute(&s, &q);
	assert_true(q.shares[BN_COMPUTE] > p.shares[BN_COMPUTE]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_pools),
	    cmocka_unit_test(test_fleet),
	    cmocka_unit_test(test_file_split),
	    cmocka_unit_test(test_batched_prefill),
	    cmocka_unit_test(test_bad),
	    cmocka_unit_test(test_slo_batch_from_decode_pool),
	    cmocka_unit_test(test_engines_within_count),
	    cmocka_unit_test(test_file_split_json),
	    cmocka_unit_test(test_fleet_shares),
	};
	return cmocka_run_group_tests(tests, shipped_catalog_setup, shipped_catalog_teardown);
}
