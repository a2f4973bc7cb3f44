/* test_seed_time.c - the time, cost and capacity worked examples of scenarios/README.md
 * (4, 5, 6, 7, 8, 11, 17, 18, 19, 20; 15 is in test_explain.c). Scenarios are built in C
 * with hand-made GPUs (time_rows.h: datasheet figures, sourced in catalog/gpus.yaml). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "time_rows.h"

static bool near(double got, double want, double tol)
{
	return fabs(got - want) <= tol * fabs(want);
}

static bool has_warning(const struct plan *p, enum plan_warning_code code)
{
	for (int i = 0; i < p->nwarnings; i++)
		if (p->warnings[i].code == code)
			return true;
	return false;
}

static void llama2_7b(struct model *m)
{
	memset(m, 0, sizeof(*m));
	m->layers = 32;
	m->hidden = 4096;
	m->heads = 32;
	m->ffn = 11008;
	m->vocab = 32000;
	m->mlp = MLP_GATED;
	m->max_context = 4096;
}

/* 4: FLOPs per step ~ 6 x params x seq x batch; attention shown apart */
static void test_seed4_flops_per_step(void **state)
{
	struct scenario s;
	struct plan p;
	(void)state;
	scenario_init(&s);
	s.model.params = 7e9;
	s.workload.seq_len = 4096;
	s.workload.global_batch = 1024;
	gpu_a100_80gb(&s.hardware.gpu);
	s.hardware.count = 8;
	plan_compute(&s, &p);
	assert_true(near(p.flops_per_step, 6 * 7e9 * 4096 * 1024, 0.005));
	assert_true(near(p.flops_per_step, 1.76e17, 0.005));
	/* attention on the assumed shape, 12 L s d, shown apart from the 6N */
	assert_true(p.shape_assumed);
	assert_true(near(p.attention_flops_per_token,
			 12.0 * p.model.layers * 4096 * p.model.heads * p.model.head_dim, 1e-9));
	assert_true(p.flops_per_token == 6 * p.active_params);
}

/* 5: GPT-3's 1.75e23 FLOPs on one A100 at 19.5 TFLOP/s fp32 = 284 years */
static void test_seed5_one_a100(void **state)
{
	struct scenario s;
	struct plan p;
	(void)state;
	scenario_init(&s);
	s.model.params = 175e9;
	s.workload.tokens = 166.7e9;
	s.workload.precision = DTYPE_FP32;
	s.efficiency.mfu = 1;
	gpu_a100_80gb(&s.hardware.gpu);
	plan_compute(&s, &p);
	assert_true(near(p.flops_total, 1.75e23, 0.005));
	assert_true(near(p.total_s, 8.97e9, 0.005));
	assert_true(near(p.total_s / (365.25 * 86400), 284, 0.01));
	assert_true(p.peak_flops == 19.5e12);
	/* bf16 dense 312 TFLOP/s at 40% MFU: about 44 years, and the report shows the peak */
	s.workload.precision = DTYPE_BF16;
	s.efficiency.mfu = 0.4;
	plan_compute(&s, &p);
	assert_true(p.peak_flops == 312e12);
	assert_true(near(p.total_s / (365.25 * 86400), 44.4, 0.01));
}

/* 6: GPUs for a deadline, rounded up: 6 x 33e9 x 12.5e9 / (19.5e12 x 432,000) = 293.8 */
static void test_seed6_deadline_gpus(void **state)
{
	struct scenario s;
	struct plan p;
	(void)state;
	scenario_init(&s);
	s.model.params = 33e9;
	s.workload.tokens = 12.5e9;
	s.workload.precision = DTYPE_FP32;
	s.workload.deadline_s = 5 * 86400;
	s.efficiency.mfu = 1;
	gpu_a100_80gb(&s.hardware.gpu);
	plan_compute(&s, &p);
	assert_true(p.gpus_required == 294);
}

/* 7: 2M tokens in 10 h at a measured 25 tokens/s per GPU -> 3 GPUs */
static void test_seed7_offline_measured(void **state)
{
	struct scenario s;
	struct plan p;
	(void)state;
	scenario_init(&s);
	llama2_7b(&s.model);
	s.workload.kind = WL_OFFLINE;
	s.workload.tokens = 2e6;
	s.workload.deadline_s = 10 * 3600;
	s.workload.measured_tokens_per_s = 25;
	gpu_a100_80gb(&s.hardware.gpu);
	plan_compute(&s, &p);
	assert_true(p.gpus_required == 3);
}

/* 8: 1M requests/day x 50 tokens x peak 3 at 150 tokens/s per GPU -> 12 GPUs */
static void test_seed8_online_measured(void **state)
{
	struct scenario s;
	struct plan p;
	(void)state;
	scenario_init(&s);
	llama2_7b(&s.model);
	s.workload.kind = WL_ONLINE;
	s.workload.requests_per_day = 1e6;
	s.workload.output_tokens = 50;
	s.workload.peak_factor = 3;
	s.workload.measured_tokens_per_s = 150;
	s.workload.weights = DTYPE_INT4;
	gpu_rtx4090(&s.hardware.gpu);
	plan_compute(&s, &p);
	assert_true(p.gpus_required == 12);
	assert_true(p.replicas == 12);
}

/* 11: Llama-2-7B fp16, batch 1, decodes at 13-20 ms per token on an RTX 4090 and on an
 * A100-80GB (llama.cpp measured 16.5 ms and 13.5 ms): llama.cpp's kernels, named, since
 * workload.engine auto gives the A100 a CUDA-graph engine (seed 21: 9.5 ms) */
static void test_seed11_decode_latency(void **state)
{
	(void)state;
	for (int g = 0; g < 2; g++) {
		struct scenario s;
		struct plan p;
		scenario_init(&s);
		llama2_7b(&s.model);
		s.workload.kind = WL_ONLINE;
		s.workload.precision = DTYPE_FP16;
		s.workload.weights = DTYPE_FP16;
		s.workload.kv_cache = DTYPE_FP16;
		s.workload.batch = 1;
		s.workload.prompt_tokens = 512;
		s.workload.output_tokens = 128;
		s.workload.engine = ENGINE_LLAMACPP;
		if (g)
			gpu_a100_80gb(&s.hardware.gpu);
		else
			gpu_rtx4090(&s.hardware.gpu);
		plan_compute(&s, &p);
		printf("seed 11: %s tpot %.1f ms\n", s.hardware.gpu.id, p.tpot_s * 1e3);
		assert_true(p.tpot_s >= 0.013 && p.tpot_s <= 0.020);
		assert_true(p.binding == BN_HBM);
	}
}

static void train_7b_h100(struct scenario *s)
{
	scenario_init(s);
	llama2_7b(&s->model);
	s->workload.seq_len = 4096;
	s->workload.global_batch = 512;
	s->workload.tokens = 100e9;
	s->workload.recompute = RECOMPUTE_SELECTIVE;
	gpu_h100_sxm(&s->hardware.gpu);
	s->hardware.count = 64;
	s->parallel.zero = 1;
}

/* 17: energy = power x GPUs x hours x PUE; cost per hour and in total */
static void test_seed17_energy_cost(void **state)
{
	struct scenario s;
	struct plan p;
	double hours;
	(void)state;
	train_7b_h100(&s);
	s.hardware.pue = 1.3;
	plan_compute(&s, &p);
	hours = p.total_s / 3600;
	assert_true(hours > 0 && isfinite(hours));
	assert_true(near(p.kwh, 700.0 * 64 * hours * 1.3 / 1000, 1e-9));
	assert_true(near(p.usd_per_hour, 3.0 * 64, 1e-12));
	assert_true(near(p.usd_total, 3.0 * 64 * hours, 1e-9));
	assert_true(near(p.gpu_hours, 64 * hours, 1e-9));
	assert_true(near(p.usd_per_million_tokens, p.usd_per_hour / (p.tokens_per_s * 3600) * 1e6,
			 1e-9));
	/* and it is a sane training run: 30-70% MFU on H100 */
	assert_true(p.mfu > 0.3 && p.mfu < 0.7);
}

/* 18: storage slower than the token rate: data loading binds */
static void test_seed18_data_io(void **state)
{
	struct scenario s;
	struct plan p, fast;
	(void)state;
	train_7b_h100(&s);
	s.hardware.storage_bytes_per_s = 10e9;
	plan_compute(&s, &fast);
	assert_true(fast.binding != BN_DATA_IO);
	assert_true(fast.shares[BN_DATA_IO] < 0.1);
	/* 512 x 4096 tokens x 4 bytes = 8.4 MB per step; at 100 kB/s per node x 8 nodes that
	 * is ~10 s, longer than the step */
	s.hardware.storage_bytes_per_s = 100e3;
	plan_compute(&s, &p);
	assert_true(p.binding == BN_DATA_IO);
	assert_true(p.shares[BN_DATA_IO] > 1);
	assert_true(p.step_s > fast.step_s);
	assert_true(has_warning(&p, PW_DATA_STARVED));
}

/* 19: 16,384 GPUs for 54 days at one interruption per 50,700 GPU-hours: ~419 */
static void test_seed19_interruptions(void **state)
{
	struct scenario s;
	struct plan p;
	double n = 16384, mfu = 0.4, N = 405e9;
	(void)state;
	scenario_init(&s);
	s.model.params = N;
	gpu_h100_sxm(&s.hardware.gpu);
	s.hardware.count = (int)n;
	s.hardware.mtbf_gpu_hours = 50700;
	s.hardware.storage_bytes_per_s = 5e9;
	s.efficiency.mfu = mfu;
	s.parallel.tp = 8;
	s.parallel.pp = 16;
	s.parallel.zero = 1;
	s.workload.seq_len = 8192;
	s.workload.global_batch = 2048;
	/* tokens that take 54 days at this MFU */
	s.workload.tokens = 54 * 86400.0 * n * 989.4e12 * mfu / (6 * N);
	plan_compute(&s, &p);
	assert_true(near(p.total_s, 54 * 86400.0, 1e-6));
	assert_true(near(p.expected_interruptions, 418.8, 0.005));
	assert_true(round(p.expected_interruptions) == 419);
	assert_true(p.checkpoint_write_s > 0 && isfinite(p.checkpoint_write_s));
	/* Young/Daly: sqrt(2 x write x MTBF of the job) */
	assert_true(near(p.checkpoint_interval_s,
			 sqrt(2 * p.checkpoint_write_s * 50700 * 3600 / n), 1e-9));
	assert_true(p.goodput > 0.5 && p.goodput < 1);

	/* the same run from a measured rate (200 tokens/s per GPU) instead of an MFU: the
	 * measured figure replaces the modelled one in training as in inference */
	s.efficiency.mfu = 0;
	s.workload.measured_tokens_per_s = 200;
	s.workload.tokens = 54 * 86400.0 * n * 200;
	plan_compute(&s, &p);
	assert_true(near(p.tokens_per_s_per_gpu, 200, 1e-12));
	assert_true(near(p.total_s, 54 * 86400.0, 1e-9));
	assert_true(near(p.expected_interruptions, 418.8, 0.005));
}

/* 20: dense peaks per precision, never the 2:4 sparse datasheet figures; a precision the
 * GPU lacks falls back with a warning; decode follows the HBM bandwidth order
 * RTX 4090 1,008 < A100-40GB 1,555 < A100-80GB 2,039 < H100 3,350 GB/s */
static void test_seed20_datasheet(void **state)
{
	struct scenario s;
	struct plan p;
	double prev = INFINITY;
	(void)state;
	scenario_init(&s);
	llama2_7b(&s.model);
	s.workload.tokens = 1e9;
	gpu_h100_sxm(&s.hardware.gpu);
	plan_compute(&s, &p);
	assert_true(p.peak_flops == 989.4e12); /* not the sparse 1,979 */
	gpu_a100_80gb(&s.hardware.gpu);
	s.workload.precision = DTYPE_FP32;
	plan_compute(&s, &p);
	assert_true(p.peak_flops == 19.5e12);
	s.workload.precision = DTYPE_TF32;
	plan_compute(&s, &p);
	assert_true(p.peak_flops == 156e12);
	s.workload.precision = DTYPE_FP8; /* A100 has no FP8 */
	plan_compute(&s, &p);
	assert_true(p.peak_flops == 312e12);
	assert_true(has_warning(&p, PW_NO_PRECISION_PEAK));

	for (int g = 0; g < 4; g++) {
		scenario_init(&s);
		llama2_7b(&s.model);
		s.workload.kind = WL_ONLINE;
		s.workload.weights = DTYPE_FP16;
		s.workload.precision = DTYPE_FP16;
		switch (g) {
		case 0: gpu_rtx4090(&s.hardware.gpu); break;
		case 1:
			gpu_a100_80gb(&s.hardware.gpu);
			s.hardware.gpu.memory_bytes = 40e9;
			s.hardware.gpu.hbm_bytes_per_s = 1555e9;
			break;
		case 2: gpu_a100_80gb(&s.hardware.gpu); break;
		default: gpu_h100_sxm(&s.hardware.gpu); break;
		}
		plan_compute(&s, &p);
		assert_true(p.tpot_s < prev);
		prev = p.tpot_s;
	}
}

/* properties: more GPUs never slow a data-parallel step; NAN where nothing applies */
static void test_properties(void **state)
{
	struct scenario s;
	struct plan a, b;
	(void)state;
	train_7b_h100(&s);
	s.hardware.count = 8;
	plan_compute(&s, &a);
	s.hardware.count = 64;
	plan_compute(&s, &b);
	assert_true(b.tokens_per_s > a.tokens_per_s);
	assert_true(isnan(a.ttft_s) && isnan(a.tpot_s));
	assert_true(isnan(a.gpus_required)); /* no deadline */
	/* an SLO: the batch that meets it meets it, one more does not */
	scenario_init(&s);
	llama2_7b(&s.model);
	s.workload.kind = WL_ONLINE;
	s.workload.batch = 0;
	s.workload.requests_per_day = 1e6;
	s.workload.slo.tpot_s = 0.02;
	s.workload.slo.ttft_s = 1;
	s.workload.scheduler = SCHED_ALONE; /* the lone step's closed-form bound */
	gpu_h100_sxm(&s.hardware.gpu);
	plan_compute(&s, &a);
	assert_true(a.slo_batch >= 1 && a.slo_batch <= a.max_batch);
	assert_true(isnan(a.total_s));
	s.workload.batch = (int)a.slo_batch;
	plan_compute(&s, &b);
	assert_true(b.tpot_s <= 0.02 + 1e-12 && b.ttft_s <= 1 + 1e-12);
	assert_false(has_warning(&b, PW_SLO_MISSED));
	if (a.slo_batch < a.max_batch) {
		s.workload.batch = (int)a.slo_batch + 1;
		plan_compute(&s, &b);
		assert_true(b.tpot_s > 0.02 || b.ttft_s > 1);
		assert_true(has_warning(&b, PW_SLO_MISSED));
	}
	assert_true(a.decode_compute_bound_batch > 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_seed4_flops_per_step),
		cmocka_unit_test(test_seed5_one_a100),
		cmocka_unit_test(test_seed6_deadline_gpus),
		cmocka_unit_test(test_seed7_offline_measured),
		cmocka_unit_test(test_seed8_online_measured),
		cmocka_unit_test(test_seed11_decode_latency),
		cmocka_unit_test(test_seed17_energy_cost),
		cmocka_unit_test(test_seed18_data_io),
		cmocka_unit_test(test_seed19_interruptions),
		cmocka_unit_test(test_seed20_datasheet),
		cmocka_unit_test(test_properties),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
