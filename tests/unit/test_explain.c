/* test_explain.c - `gpuplan explain`: every key explains itself within 80 columns, with a
 * formula, the numbers and the result; unknown keys name the closest one; the verdicts
 * come in the order of seed case 15. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "explain.h"
#include "framework.h"
#include "time_rows.h"

static void train_scenario(struct scenario *s)
{
	scenario_init(s);
	model_llama3(&s->model, false);
	s->workload.seq_len = 8192;
	s->workload.global_batch = 512;
	s->workload.tokens = 1e12;
	s->workload.recompute = RECOMPUTE_SELECTIVE;
	s->workload.deadline_s = 30 * 86400;
	gpu_h100_sxm(&s->hardware.gpu);
	s->hardware.count = 64;
	s->hardware.storage_bytes_per_s = 2e9;
	s->parallel.zero = 1;
}

static void online_scenario(struct scenario *s)
{
	scenario_init(s);
	model_llama3(&s->model, false);
	s->workload.kind = WL_ONLINE;
	s->workload.batch = 0;
	s->workload.requests_per_day = 1e6;
	s->workload.peak_factor = 3;
	s->workload.slo.tpot_s = 0.05;
	gpu_h100_sxm(&s->hardware.gpu);
	s->hardware.count = 8;
}

static void check_all_keys(const struct scenario *s)
{
	struct plan p;
	char buf[4096];
	const char *const *keys = explain_keys();
	int n = 0;

	plan_compute(s, &p);
	for (int i = 0; keys[i]; i++, n++) {
		struct gp_error err;
		const char *line;
		assert_int_equal(explain_key(s, &p, keys[i], buf, sizeof(buf), &err), 0);
		/* the headline names the key */
		assert_true(strncmp(buf, keys[i], strlen(keys[i])) == 0);
		/* every line fits a projector's 80 columns */
		line = buf;
		while (*line) {
			const char *nl = strchr(line, '\n');
			size_t len = nl ? (size_t)(nl - line) : strlen(line);
			if (len > 80)
				printf("too wide (%zu): %.*s\n", len, (int)len, line);
			assert_true(len <= 80);
			line = nl ? nl + 1 : line + len;
		}
		/* applicable keys give the formula, the numbers and a source */
		if (!strstr(buf, "not applicable") && !strstr(buf, "not modelled")) {
			assert_non_null(strstr(buf, "source: "));
			assert_non_null(strstr(buf, " = "));
		}
	}
	assert_true(n >= 36);
}

static void test_every_key_training(void **state)
{
	struct scenario s;
	struct plan p;
	char buf[4096];
	(void)state;
	train_scenario(&s);
	check_all_keys(&s);
	plan_compute(&s, &p);
	assert_int_equal(explain_key(&s, &p, "time.step_s", buf, sizeof(buf), NULL), 0);
	printf("%s\n", buf);
	assert_non_null(strstr(buf, "where the time goes"));
	assert_int_equal(explain_key(&s, &p, "memory.per_gpu.optimizer", buf, sizeof(buf), NULL),
			 0);
	printf("%s\n", buf);
	assert_non_null(strstr(buf, "12 B per parameter"));
	assert_non_null(strstr(buf, "framework source: ZeRO"));
	assert_int_equal(
	    explain_key(&s, &p, "reliability.checkpoint_interval_s", buf, sizeof(buf), NULL), 0);
	assert_non_null(strstr(buf, "sqrt(2 x"));
	assert_int_equal(explain_key(&s, &p, "capacity_plan.gpus_required", buf, sizeof(buf), NULL),
			 0);
	printf("%s\n", buf);
	assert_non_null(strstr(buf, "ceil("));
}

static void test_every_key_online(void **state)
{
	struct scenario s;
	struct plan p;
	char buf[4096];
	(void)state;
	online_scenario(&s);
	check_all_keys(&s);
	plan_compute(&s, &p);
	assert_int_equal(explain_key(&s, &p, "latency.tpot_s", buf, sizeof(buf), NULL), 0);
	printf("%s\n", buf);
	assert_int_equal(explain_key(&s, &p, "time.total_s", buf, sizeof(buf), NULL), 0);
	assert_non_null(strstr(buf, "not applicable"));
	/* the default engine on an H100 is vLLM V1's loaded one: its fleet walk at the peak */
	assert_int_equal(explain_key(&s, &p, "capacity_plan.replicas", buf, sizeof(buf), NULL), 0);
	printf("%s\n", buf);
	assert_non_null(strstr(buf, "peak rate"));
	assert_non_null(strstr(buf, "SLO percentile"));
	/* alone: the tokens the peak needs over a replica's */
	s.workload.scheduler = SCHED_ALONE;
	plan_compute(&s, &p);
	assert_int_equal(explain_key(&s, &p, "capacity_plan.replicas", buf, sizeof(buf), NULL), 0);
	printf("%s\n", buf);
	assert_non_null(strstr(buf, "86400"));
	/* serving under the default framework cites serving sources, not training papers */
	assert_int_equal(explain_key(&s, &p, "memory.per_gpu.kv_cache", buf, sizeof(buf), NULL),
			 0);
	assert_non_null(strstr(buf, "framework source: KV cache per token"));
	assert_null(strstr(buf, "ZeRO"));
	assert_null(strstr(buf, "Korthikanti"));
	/* model.vision_params explains itself (it was an unknown key) */
	s.model.vision_params = 4e8;
	plan_compute(&s, &p);
	assert_int_equal(explain_key(&s, &p, "model.vision_params", buf, sizeof(buf), NULL), 0);
	printf("%s\n", buf);
	assert_non_null(strstr(buf, "model.vision_params = 400M"));
	assert_non_null(strstr(buf, "image tokens are not"));
}

static void test_unknown_key(void **state)
{
	struct scenario s;
	struct plan p;
	struct gp_error err;
	char buf[256];
	(void)state;
	train_scenario(&s);
	plan_compute(&s, &p);
	assert_int_equal(explain_key(&s, &p, "time.totl_s", buf, sizeof(buf), &err), -1);
	assert_int_equal(err.code, GP_EUSAGE);
	assert_string_equal(err.message,
			    "unknown key 'time.totl_s' (did you mean 'time.total_s'?)");
	assert_int_equal(explain_key(&s, &p, "zzzzzzzzzzzzzzzzzz", buf, sizeof(buf), &err), -1);
	assert_null(strstr(err.message, "did you mean"));
	/* a tiny buffer is truncated, never overrun */
	memset(buf, 'x', sizeof(buf));
	assert_int_equal(explain_key(&s, &p, "time.step_s", buf, 16, NULL), 0);
	assert_int_equal(buf[15], '\0');
	assert_int_equal(buf[16], 'x');
}

/* seed 5: the explanation says which peak and efficiency the time rests on */
static void test_seed5_names_peak(void **state)
{
	struct scenario s;
	struct plan p;
	char buf[4096];
	(void)state;
	scenario_init(&s);
	s.model.params = 175e9;
	s.workload.tokens = 166.7e9;
	s.workload.precision = DTYPE_FP32;
	s.efficiency.mfu = 1;
	gpu_a100_80gb(&s.hardware.gpu);
	plan_compute(&s, &p);
	assert_int_equal(explain_key(&s, &p, "time.total_s", buf, sizeof(buf), NULL), 0);
	printf("%s\n", buf);
	assert_non_null(strstr(buf, "19.5 TFLOP/s"));
	assert_non_null(strstr(buf, "fp32"));
	assert_non_null(strstr(buf, "datasheet ceiling"));
	assert_non_null(strstr(buf, "284 y"));
}

/* seed 15: capacity first, then bandwidth and interconnect, then compute */
static void test_seed15_verdict_order(void **state)
{
	struct scenario s;
	struct plan p;
	struct explain_verdict v[EXPLAIN_VERDICTS];
	(void)state;
	train_scenario(&s);
	plan_compute(&s, &p);
	explain_verdicts(&p, v);
	assert_string_equal(v[0].topic, "capacity");
	assert_string_equal(v[1].topic, "bandwidth and interconnect");
	assert_string_equal(v[2].topic, "compute");
	for (int i = 0; i < EXPLAIN_VERDICTS; i++) {
		printf("%-28s %s\n", v[i].topic, v[i].text);
		assert_true(strlen(v[i].text) > 10);
	}
	/* a plan that does not load fails on capacity, whatever else */
	s.hardware.gpu.memory_bytes = 1e9;
	plan_compute(&s, &p);
	explain_verdicts(&p, v);
	assert_int_equal(v[0].state, VERDICT_FAIL);
	assert_int_equal(p.binding, BN_CAPACITY);
}

/* buf with every run of spaces and newlines as one space (wrapped text) */
static void squash(char *buf)
{
	char *w = buf;
	for (const char *r = buf; *r; r++)
		if (!((*r == ' ' || *r == '\n') && w > buf && w[-1] == ' '))
			*w++ = *r == '\n' ? ' ' : *r;
	*w = 0;
}

/* Under a serving framework's KV rule, max_batch's explanation is the engine's own rule
 * (issue 12 audit: it printed the default 1.05 inequality and never named the engine):
 * blocks = floor(budget / block bytes), max_batch = floor(blocks / blocks a sequence),
 * with the numbers the plan used, the framework named, and the running cap beside it. */
static void test_max_batch_kv_rule(void **state)
{
	static const struct {
		int fw;
		const char *name, *cites;
	} rows[] = {{FW_VLLM, "framework: vLLM", "determine_num_available_blocks"},
		    {FW_SGLANG, "framework: SGLang", "profile_max_num_token"},
		    {FW_TRTLLM, "framework: TensorRT-LLM", "free_gpu_memory_fraction"}};
	(void)state;
	for (size_t r = 0; r < sizeof(rows) / sizeof(rows[0]); r++) {
		struct scenario s;
		struct plan p;
		char buf[4096], want[64];
		const struct framework_info *fw = framework_get(rows[r].fw);
		double blk, blocks, per;
		online_scenario(&s);
		s.workload.framework = rows[r].fw;
		plan_compute(&s, &p);
		blk = fw->kv_block_tokens;
		blocks = floor(p.mem.kv_budget / (blk * p.mem.kv_bytes_per_token));
		per = ceil(p.mem.kv_tokens_per_seq / blk);
		/* the rule the plan solved: whole blocks of whole sequences */
		assert_true(p.max_batch >= 1);
		assert_true(p.max_batch == floor(blocks / per));
		assert_int_equal(
		    explain_key(&s, &p, "capacity_plan.max_batch", buf, sizeof(buf), NULL), 0);
		snprintf(want, sizeof(want), "floor(%.0f / %.0f)", blocks, per);
		assert_non_null(strstr(buf, want));
		snprintf(want, sizeof(want), " = %.0f\n", blocks);
		assert_non_null(strstr(buf, want));
		assert_non_null(strstr(buf, rows[r].name));
		assert_non_null(strstr(buf, rows[r].cites));
		assert_non_null(strstr(buf, "KV budget = memory fraction"));
		assert_null(strstr(buf, "fragmentation"));
		assert_null(strstr(buf, "memory with"));
		assert_non_null(strstr(buf, "blocks (fits in "));
		assert_non_null(strstr(buf, "blocks (over "));
		squash(buf);
		{
			/* the engine's own cap on this GPU (vLLM's: 1024 on an H100) */
			struct serving_engine eng;
			framework_serving(rows[r].fw, s.workload.scheduler, true, false,
					  s.hardware.gpu.memory_bytes, s.hardware.gpu.id, &eng);
			assert_non_null(strstr(buf, p.max_batch < eng.max_running
							? "the KV pool binds"
							: "the running cap binds"));
		}
		/* a running cap above the pool's sequences: the pool binds; one below it
		 * binds instead, and max_batch stays the KV bound */
		for (int c = 0; c < 2; c++) {
			s.workload.max_running = c ? 4 : 10000000;
			plan_compute(&s, &p);
			assert_int_equal(
			    explain_key(&s, &p, "capacity_plan.max_batch", buf, sizeof(buf), NULL),
			    0);
			squash(buf);
			assert_non_null(strstr(buf, c ? "min(cap, max_batch) = 4: the running "
							"cap binds"
						      : "the KV pool binds"));
			assert_true(p.max_batch > 4);
		}
	}
}

/* framework megatron names its data-parallel path by ZeRO stage: Megatron-FSDP at 2 and 3
 * (megatron/core/distributed/fsdp; --data-parallel-sharding-strategy optim_grads_params),
 * whose ZeRO-3 rule is the one counted: 2 + 4 + 12 B a parameter over dp, the gradients
 * fp32 (grad_dtype auto: bf16 forces grad_reduce_in_fp32, and Megatron-FSDP's
 * build_fully_shard_mixed_precision_policy then takes main_grads_dtype fp32), 2 + 2 + 12
 * with grad_dtype bf16 */
static void test_megatron_fsdp(void **state)
{
	static const char *const path[] = {"DDP", "distributed optimizer", "optim_grads",
					   "optim_grads_params"};
	struct scenario s;
	struct plan p;
	char buf[4096];
	(void)state;
	for (int z = 0; z <= 3; z++) {
		train_scenario(&s);
		s.workload.framework = FW_MEGATRON;
		s.parallel.zero = z;
		check_all_keys(&s);
		plan_compute(&s, &p);
		assert_int_equal(p.zero, z);
		assert_int_equal(
		    explain_key(&s, &p, "memory.per_gpu.weights", buf, sizeof(buf), NULL), 0);
		squash(buf);
		assert_non_null(strstr(buf, path[z]));
		if (z >= 2)
			assert_non_null(strstr(buf, "Megatron-FSDP (--use-megatron-fsdp"));
		else
			assert_null(strstr(buf, "Megatron-FSDP"));
		if (z == 3) {
			double per = p.trainable_params / (p.tp * p.pp * p.dp);
			assert_true(fabs(p.mem.weights - 2 * per) < 1e-6 * p.mem.weights);
			assert_true(fabs(p.mem.gradients - 4 * per) < 1e-6 * p.mem.gradients);
			assert_true(fabs(p.mem.optimizer - 12 * per) < 1e-6 * p.mem.optimizer);
			s.workload.grad_dtype = DTYPE_BF16;
			plan_compute(&s, &p);
			assert_true(fabs(p.mem.gradients - 2 * per) < 1e-6 * p.mem.gradients);
		}
	}
	/* another framework's ZeRO-3 is not Megatron-FSDP */
	s.workload.framework = FW_FSDP;
	plan_compute(&s, &p);
	assert_int_equal(explain_key(&s, &p, "memory.per_gpu.weights", buf, sizeof(buf), NULL), 0);
	assert_null(strstr(buf, "Megatron-FSDP"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_every_key_training),	 cmocka_unit_test(test_every_key_online),
	    cmocka_unit_test(test_unknown_key),		 cmocka_unit_test(test_seed5_names_peak),
	    cmocka_unit_test(test_seed15_verdict_order), cmocka_unit_test(test_max_batch_kv_rule),
	    cmocka_unit_test(test_megatron_fsdp),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
