/* figure.c - the figure table (every output figure once) and its lookups. */
#include "figure.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "explain.h"

static double get_fits(const struct plan *p)
{
	return p->mem.fits ? 1 : 0;
}

static const char *word_fits(const struct plan *p)
{
	return p->mem.fits ? "true" : "false";
}

static double get_overloaded(const struct plan *p)
{
	return p->serving.overloaded ? 1 : 0;
}

static const char *word_overloaded(const struct plan *p)
{
	return p->serving.overloaded ? "true" : "false";
}

/* serving.policy: the scheduler serving.scheduler numbers, by its workload.scheduler name
 * ("alone" where serving.scheduler is null) */
static double get_policy(const struct plan *p)
{
	return p->serving.scheduler;
}

static const char *word_policy(const struct plan *p)
{
	return scheduler_name(isnan(p->serving.scheduler) ? SCHED_ALONE
							  : (int)p->serving.scheduler);
}

/* serving.scheduler's name of a value (NaN: alone, which models no load) */
static const char *name_scheduler(double v)
{
	return scheduler_name(isnan(v) ? SCHED_ALONE : (int)v);
}

static double get_binding(const struct plan *p)
{
	return (double)p->binding;
}

static const char *word_binding(const struct plan *p)
{
	return bottleneck_name(p->binding);
}

#define PO(m)	  offsetof(struct plan, m)
#define TRAINING  APPLIES_TRAINING
#define INFERENCE APPLIES_INFERENCE
#define ALL	  (APPLIES_TRAINING | APPLIES_INFERENCE)
/* A detail (FIGURE_DETAIL) of the figure above it, in its section: key, label, unit, member
 * of struct plan, whether JSON writes it whole, and its parent's explain function (the
 * parent is the first row with that function that is no detail: figure_parent). */
#define DETAIL(k, l, u, m, whole, sec, ex)                                                         \
	{                                                                                          \
		.key = k, .label = l, .unit = u, .offset = PO(m), .integer = whole,                \
		.section = sec, .flags = FIGURE_DETAIL, .explain = ex                              \
	}
/* A part of memory.per_gpu.overhead (FIGURE_OVERHEAD_PART): its key's last part, its label
 * and its member of struct plan_memory; the parts add up to the overhead (plan_memory.c) */
#define OVERHEAD_PART(k, l, m)                                                                     \
	{                                                                                          \
		.key = "memory.per_gpu.overhead_parts." k, .label = l, .unit = UNIT_BYTES,         \
		.offset = PO(mem.m), .integer = true, .section = FIGURE_MEMORY,                    \
		.flags = FIGURE_DETAIL | FIGURE_OVERHEAD_PART, .explain = explain_overhead         \
	}
/* A part of the step (time.parts.*, FIGURE_TIME_PART): in struct plan_time_parts' order
 * (plan_part_get's index), its label for explain and, in at most 12 columns, the pane's */
#define TIME_PART(m, l, pane_label)                                                                \
	{                                                                                          \
		.key = "time.parts." #m, .label = l, .short_label = pane_label,                    \
		.unit = UNIT_SECONDS, .offset = PO(parts.m), .section = FIGURE_TIME,               \
		.flags = FIGURE_DETAIL | FIGURE_TIME_PART, .explain = explain_step                 \
	}

/* In the JSON report's order: memory.fits follows memory.headroom, bottleneck.binding
 * comes before the shares. */
/* clang-format off */
const struct figure figures[] = {
	{.key = "model.params", .label = "parameters", .unit = UNIT_COUNT, .offset = PO(params),
	 .integer = true, .section = FIGURE_MODEL, .explain = explain_params},
	{.key = "model.active_params", .label = "active parameters", .unit = UNIT_COUNT,
	 .offset = PO(active_params), .integer = true, .section = FIGURE_MODEL,
	 .explain = explain_active_params},
	DETAIL("model.trainable_params", "trainable parameters", UNIT_COUNT, trainable_params,
	       true, FIGURE_MODEL, explain_params),
	{.key = "model.vision_params", .label = "vision tower parameters", .unit = UNIT_COUNT,
	 .offset = PO(model.vision_params), .integer = true, .section = FIGURE_MODEL,
	 .explain = explain_vision_params},

	{.key = "memory.per_gpu.weights", .label = "weights", .short_label = "weights",
	 .tiny_label = "wts", .unit = UNIT_BYTES, .format = FIGURE_FMT_BYTES,
	 .offset = PO(mem.weights), .integer = true, .applies = ALL,
	 .section = FIGURE_MEMORY, .flags = FIGURE_PART, .explain = explain_weights},
	{.key = "memory.per_gpu.gradients", .label = "gradients", .short_label = "grads",
	 .tiny_label = "grad", .unit = UNIT_BYTES, .format = FIGURE_FMT_BYTES,
	 .offset = PO(mem.gradients), .integer = true, .applies = TRAINING,
	 .section = FIGURE_MEMORY, .flags = FIGURE_PART, .explain = explain_gradients},
	{.key = "memory.per_gpu.optimizer", .label = "optimizer", .short_label = "optim",
	 .tiny_label = "opt", .unit = UNIT_BYTES, .format = FIGURE_FMT_BYTES,
	 .offset = PO(mem.optimizer), .integer = true, .applies = TRAINING,
	 .section = FIGURE_MEMORY, .flags = FIGURE_PART, .explain = explain_optimizer},
	{.key = "memory.per_gpu.activations", .label = "activations", .short_label = "activ",
	 .tiny_label = "act", .unit = UNIT_BYTES, .format = FIGURE_FMT_BYTES,
	 .offset = PO(mem.activations), .integer = true, .applies = ALL,
	 .section = FIGURE_MEMORY, .flags = FIGURE_PART, .explain = explain_activations},
	{.key = "memory.per_gpu.kv_cache", .label = "KV cache", .short_label = "kv cache",
	 .tiny_label = "kv", .unit = UNIT_BYTES, .format = FIGURE_FMT_BYTES,
	 .offset = PO(mem.kv_cache), .integer = true, .applies = INFERENCE,
	 .section = FIGURE_MEMORY, .flags = FIGURE_PART, .explain = explain_kv_cache},
	{.key = "memory.per_gpu.overhead", .label = "overhead", .short_label = "other",
	 .tiny_label = "other", .unit = UNIT_BYTES, .format = FIGURE_FMT_BYTES,
	 .offset = PO(mem.overhead), .integer = true, .applies = ALL,
	 .section = FIGURE_MEMORY, .flags = FIGURE_PART, .explain = explain_overhead},
	{.key = "memory.per_gpu.total", .label = "total", .short_label = "memory/gpu",
	 .unit = UNIT_BYTES, .format = FIGURE_FMT_BYTES, .offset = PO(mem.total), .integer = true,
	 .better = -1, .section = FIGURE_MEMORY, .csv = 1, .explain = explain_memory_total},
	{.key = "memory.per_gpu.allocated", .label = "allocated", .unit = UNIT_BYTES,
	 .offset = PO(mem.allocated), .integer = true, .section = FIGURE_MEMORY,
	 .explain = explain_allocated},
	{.key = "memory.per_gpu.reserved", .label = "reserved", .unit = UNIT_BYTES,
	 .offset = PO(mem.reserved), .integer = true, .section = FIGURE_MEMORY,
	 .explain = explain_reserved},
	/* the overhead's parts, every one (plan_memory.c sums them into the overhead) */
	OVERHEAD_PART("cuda_context", "CUDA context", cuda_context),
	OVERHEAD_PART("fragmentation", "allocator fragmentation", fragmentation),
	OVERHEAD_PART("comm_buffers", "communication buffers", comm_buffers),
	OVERHEAD_PART("blas_workspace", "cuBLAS workspaces", blas_workspace),
	OVERHEAD_PART("recomputed_layer", "recomputed layer (transient)", rebuilt_layer),
	OVERHEAD_PART("fp8_weights", "fp8 weight copies", fp8_weights),
	DETAIL("memory.per_gpu.optimizer_paged", "paged optimizer states on the GPU", UNIT_BYTES,
	       mem.optimizer_paged, true, FIGURE_MEMORY, explain_optimizer),
	{.key = "memory.capacity", .label = "capacity", .unit = UNIT_BYTES,
	 .offset = PO(mem.capacity), .integer = true, .section = FIGURE_MEMORY,
	 .explain = explain_capacity},
	{.key = "memory.headroom", .label = "headroom", .unit = UNIT_BYTES,
	 .format = FIGURE_FMT_BYTES, .offset = PO(mem.headroom), .integer = true, .better = +1,
	 .section = FIGURE_MEMORY, .explain = explain_headroom},
	{.key = "memory.fits", .label = "fits", .unit = UNIT_NONE, .get = get_fits,
	 .word = word_fits, .section = FIGURE_MEMORY, .flags = FIGURE_BOOL,
	 .explain = explain_fits},
	DETAIL("memory.host", "offloaded to host memory", UNIT_BYTES, mem.host, true,
	       FIGURE_MEMORY, explain_optimizer),

	{.key = "compute.flops_per_token", .label = "FLOPs per token", .unit = UNIT_NONE,
	 .offset = PO(flops_per_token), .section = FIGURE_TIME, .text = {5, 20}, .flags = FIGURE_HEAD_COUNT, .explain = explain_flops_per_token},
	{.key = "compute.flops_total", .label = "FLOPs in total", .unit = UNIT_NONE,
	 .offset = PO(flops_total), .section = FIGURE_TIME, .text = {6, 0},
	 .explain = explain_flops_total},
	{.key = "compute.mfu", .label = "MFU", .unit = UNIT_RATIO, .offset = PO(mfu),
	 .better = +1, .section = FIGURE_TIME, .text = {8, 0},
	 .explain = explain_mfu},
	DETAIL("compute.hfu", "HFU", UNIT_RATIO, hfu, false, FIGURE_TIME, explain_mfu),
	DETAIL("compute.peak_flops", "peak FLOP/s per GPU", UNIT_FLOPS, peak_flops, false,
	       FIGURE_TIME, explain_mfu),
	DETAIL("compute.hw_flops_per_token", "hardware FLOPs per token", UNIT_COUNT,
	       hw_flops_per_token, false, FIGURE_TIME, explain_flops_per_token),
	DETAIL("compute.attention_flops_per_token", "attention FLOPs per token", UNIT_COUNT,
	       attention_flops_per_token, false, FIGURE_TIME, explain_flops_per_token),
	DETAIL("compute.prefill_flops_per_token", "FLOPs per prompt token (prefill)", UNIT_COUNT,
	       prefill_flops_per_token, false, FIGURE_TIME, explain_flops_per_token),
	DETAIL("compute.flops_per_request", "FLOPs per request", UNIT_COUNT, flops_per_request,
	       false, FIGURE_TIME, explain_mfu),
	DETAIL("compute.flops_per_step", "FLOPs per step", UNIT_COUNT, flops_per_step, false,
	       FIGURE_TIME, explain_flops_total),
	{.key = "time.step_s", .label = "step time", .short_label = "step time",
	 .unit = UNIT_SECONDS, .format = FIGURE_FMT_SECONDS, .offset = PO(step_s), .better = -1,
	 .applies = TRAINING, .section = FIGURE_TIME, .text = {1, 0},
	 .pane = 1, .csv = 2, .explain = explain_step},
	{.key = "time.total_s", .label = "total time", .short_label = "total time",
	 .unit = UNIT_SECONDS, .format = FIGURE_FMT_SECONDS, .offset = PO(total_s),
	 .better = -1, .applies = TRAINING | APPLIES_OFFLINE, .section = FIGURE_TIME,
	 .text = {2, 19}, .pane = 4, .csv = 3, .explain = explain_total_time},
	{.key = "time.gpu_hours", .label = "GPU-hours", .unit = UNIT_NONE, .suffix = " GPU-h",
	 .offset = PO(gpu_hours), .section = FIGURE_TIME, .text = {7, 0},
	 .flags = FIGURE_HEAD_BARE, .explain = explain_gpu_hours},
	TIME_PART(matmul_s, "matmuls", "matmul"),
	TIME_PART(attention_s, "attention", "attention"),
	TIME_PART(memory_bound_s, "memory-bound", "memory-bound"),
	TIME_PART(tp_comm_s, "tensor-par. comm", "tp comm"),
	TIME_PART(pp_comm_s, "pipeline p2p", "pp comm"),
	TIME_PART(bubble_s, "pipeline bubble", "pp bubble"),
	TIME_PART(dp_comm_s, "data-par. (exposed)", "dp comm"),
	TIME_PART(zero3_s, "ZeRO-3 gathers", "zero3 gather"),
	TIME_PART(ep_comm_s, "expert all-to-all", "ep comm"),
	TIME_PART(offload_s, "offload (PCIe)", "offload"),
	TIME_PART(optimizer_s, "optimizer step", "optimizer"),
	TIME_PART(data_s, "data loading", "data"),
	TIME_PART(cp_comm_s, "context-par. K/V", "cp comm"),
	TIME_PART(weight_read_s, "weight read (beyond matmuls)", "weight read"),
	TIME_PART(fixed_s, "fixed (launches, host)", "fixed"),
	TIME_PART(prefill_s, "prompts in the loaded step", "prefill"),
	{.key = "throughput.tokens_per_s", .label = "throughput", .short_label = "throughput",
	 .unit = UNIT_COUNT, .suffix = " tokens/s", .format = FIGURE_FMT_TOKENS,
	 .offset = PO(tokens_per_s), .better = +1, .applies = ALL, .section = FIGURE_TIME,
	 .text = {3, 12}, .pane = 5, .flags = FIGURE_HEAD_BARE,
	 .csv = 6, .explain = explain_tokens_per_s},
	{.key = "throughput.tokens_per_s_per_gpu", .label = "per GPU", .unit = UNIT_COUNT,
	 .suffix = " tokens/s", .offset = PO(tokens_per_s_per_gpu), .section = FIGURE_TIME,
	 .text = {4, 13}, .flags = FIGURE_HEAD_BARE,
	 .csv = 7, .explain = explain_tokens_per_s_per_gpu},
	{.key = "latency.ttft_s", .label = "time to first token", .short_label = "ttft",
	 .unit = UNIT_SECONDS, .format = FIGURE_FMT_SECONDS, .offset = PO(ttft_s), .better = -1,
	 .applies = INFERENCE, .section = FIGURE_TIME, .text = {0, 1},
	 .pane = 2, .csv = 4, .explain = explain_ttft},
	{.key = "latency.tpot_s", .label = "time per output token", .short_label = "tpot",
	 .unit = UNIT_SECONDS, .format = FIGURE_FMT_SECONDS, .offset = PO(tpot_s), .better = -1,
	 .applies = INFERENCE, .section = FIGURE_TIME, .text = {0, 2},
	 .pane = 3, .csv = 5, .explain = explain_tpot},
	{.key = "latency.ttft_p50_s", .label = "TTFT, P50", .unit = UNIT_SECONDS,
	 .offset = PO(serving.ttft[0]), .better = -1, .section = FIGURE_TIME, .text = {0, 3}, .explain = explain_ttft_p50},
	{.key = "latency.ttft_p90_s", .label = "TTFT, P90", .unit = UNIT_SECONDS,
	 .offset = PO(serving.ttft[1]), .better = -1, .section = FIGURE_TIME, .text = {0, 5}, .explain = explain_ttft_p90},
	{.key = "latency.ttft_p99_s", .label = "TTFT, P99", .unit = UNIT_SECONDS,
	 .offset = PO(serving.ttft[2]), .better = -1, .section = FIGURE_TIME, .text = {0, 7}, .explain = explain_ttft_p99},
	{.key = "latency.tpot_p50_s", .label = "ITL, P50", .unit = UNIT_SECONDS,
	 .offset = PO(serving.tpot[0]), .better = -1, .section = FIGURE_TIME, .text = {0, 4}, .explain = explain_tpot_p50},
	{.key = "latency.tpot_p90_s", .label = "ITL, P90", .unit = UNIT_SECONDS,
	 .offset = PO(serving.tpot[1]), .better = -1, .section = FIGURE_TIME, .text = {0, 6}, .explain = explain_tpot_p90},
	{.key = "latency.tpot_p99_s", .label = "ITL, P99", .unit = UNIT_SECONDS,
	 .offset = PO(serving.tpot[2]), .better = -1, .section = FIGURE_TIME, .text = {0, 8}, .explain = explain_tpot_p99},
	{.key = "latency.e2e_p50_s", .label = "end-to-end latency, P50", .unit = UNIT_SECONDS,
	 .offset = PO(serving.e2e[0]), .better = -1, .section = FIGURE_TIME, .explain = explain_e2e_p50},
	{.key = "latency.e2e_p90_s", .label = "end-to-end latency, P90", .unit = UNIT_SECONDS,
	 .offset = PO(serving.e2e[1]), .better = -1, .section = FIGURE_TIME, .explain = explain_e2e_p90},
	{.key = "latency.e2e_p99_s", .label = "end-to-end latency, P99", .unit = UNIT_SECONDS,
	 .offset = PO(serving.e2e[2]), .better = -1, .section = FIGURE_TIME, .explain = explain_e2e_p99},
	{.key = "latency.ttft_at_slo_s", .label = "time to first token at the SLO percentile", .unit = UNIT_SECONDS,
	 .offset = PO(serving.ttft_slo_s), .better = -1, .section = FIGURE_TIME, .explain = explain_ttft_at_slo},
	{.key = "latency.tpot_at_slo_s", .label = "TPOT at the SLO", .unit = UNIT_SECONDS,
	 .offset = PO(serving.tpot_slo_s), .better = -1, .section = FIGURE_TIME, .text = {0, 9}, .explain = explain_tpot_at_slo},
	DETAIL("latency.decode_compute_bound_batch", "batch where decode turns compute-bound",
	       UNIT_NONE, decode_compute_bound_batch, false, FIGURE_TIME, explain_tpot),
	{.key = "serving.scheduler", .label = "scheduler (2 prefill-first, 3 chunked, 4 static, 5 disaggregated)", .unit = UNIT_NONE,
	 .offset = PO(serving.scheduler), .name = name_scheduler, .better = 0, .section = FIGURE_TIME, .explain = explain_serving_scheduler},
	{.key = "serving.policy", .label = "serving policy", .unit = UNIT_NONE, .get = get_policy,
	 .word = word_policy, .section = FIGURE_TIME, .explain = explain_serving_scheduler},
	{.key = "serving.step_tokens", .label = "token budget of a step", .unit = UNIT_COUNT, .suffix = " tokens",
	 .offset = PO(serving.budget), .better = 0, .section = FIGURE_TIME, .explain = explain_serving_step_tokens},
	{.key = "serving.max_running", .label = "running-request cap", .unit = UNIT_COUNT, .suffix = " requests",
	 .offset = PO(serving.max_running), .better = 0, .section = FIGURE_TIME, .explain = explain_serving_max_running},
	{.key = "serving.scheduler_steps", .label = "decode steps a scheduling runs", .unit = UNIT_COUNT, .suffix = " steps",
	 .offset = PO(serving.scheduler_steps), .better = 0, .section = FIGURE_TIME, .explain = explain_serving_scheduler_steps},
	{.key = "serving.batch", .label = "sequences a decode step carries", .unit = UNIT_COUNT, .suffix = " sequences",
	 .offset = PO(serving.batch), .better = 0, .section = FIGURE_TIME, .explain = explain_serving_batch},
	{.key = "serving.prefill_tokens_per_step", .label = "prompt tokens joining a step", .unit = UNIT_COUNT, .suffix = " tokens",
	 .offset = PO(serving.prefill_per_step), .better = 0, .section = FIGURE_TIME, .explain = explain_serving_prefill_per_step},
	{.key = "serving.requests_per_s", .label = "requests completed per replica", .unit = UNIT_NONE, .suffix = " requests/s",
	 .offset = PO(serving.requests_per_s), .better = 1, .section = FIGURE_TIME, .explain = explain_serving_requests_per_s},
	{.key = "serving.concurrency", .label = "requests in the engine", .unit = UNIT_NONE, .suffix = " requests",
	 .offset = PO(serving.concurrency), .better = 0, .section = FIGURE_TIME, .explain = explain_serving_concurrency},
	{.key = "serving.utilisation", .label = "utilisation", .unit = UNIT_RATIO, .format = FIGURE_FMT_LOAD,
	 .offset = PO(serving.utilisation), .better = 0, .section = FIGURE_TIME, .text = {0, 10}, .explain = explain_serving_utilisation},
	{.key = "serving.capacity_rate", .label = "most requests/s a replica completes", .unit = UNIT_NONE, .suffix = " requests/s",
	 .offset = PO(serving.capacity_rate), .better = 1, .section = FIGURE_TIME, .explain = explain_serving_capacity_rate},
	{.key = "serving.wait_s", .label = "wait before first pass", .unit = UNIT_SECONDS,
	 .offset = PO(serving.wait_s), .better = -1, .section = FIGURE_TIME, .text = {0, 11}, .explain = explain_serving_wait},
	{.key = "serving.run_s", .label = "a finite run's duration", .unit = UNIT_SECONDS,
	 .offset = PO(serving.run_s), .better = -1, .section = FIGURE_TIME, .explain = explain_serving_run},
	{.key = "serving.overloaded", .label = "arrivals beyond capacity", .unit = UNIT_NONE, .get = get_overloaded,
	 .word = word_overloaded, .section = FIGURE_TIME, .flags = FIGURE_BOOL, .explain = explain_serving_overloaded},
	{.key = "capacity_plan.max_batch", .label = "max batch", .short_label = "max batch",
	 .capped_label = "KV pool holds",
	 .unit = UNIT_COUNT, .suffix = " sequences", .format = FIGURE_FMT_COUNT,
	 .offset = PO(max_batch), .better = +1, .applies = INFERENCE, .section = FIGURE_TIME,
	 .text = {0, 14}, .pane = 6,
	 .flags = FIGURE_HEAD_BARE | FIGURE_HEAD_PLAIN, .explain = explain_max_batch},
	{.key = "capacity_plan.replicas", .label = "replicas", .unit = UNIT_NONE,
	 .offset = PO(replicas), .section = FIGURE_TIME, .text = {0, 15},
	 .csv = 11, .explain = explain_replicas},
	{.key = "capacity_plan.gpus_required", .label = "GPUs required",
	 .short_label = "gpus needed", .unit = UNIT_NONE, .format = FIGURE_FMT_COUNT,
	 .offset = PO(gpus_required), .better = -1, .applies = ALL,
	 .section = FIGURE_TIME, .text = {9, 16}, .pane = 7,
	 .csv = 12, .explain = explain_gpus_required},
	{.key = "capacity_plan.prefill_engines", .label = "prefill engines", .unit = UNIT_NONE,
	 .offset = PO(serving.fleet_prefill), .integer = true, .section = FIGURE_TIME, .text = {0, 17},
	 .explain = explain_prefill_engines},
	{.key = "capacity_plan.decode_engines", .label = "decode engines", .unit = UNIT_NONE,
	 .offset = PO(serving.fleet_decode), .integer = true, .section = FIGURE_TIME, .text = {0, 18},
	 .explain = explain_decode_engines},
	{.key = "capacity_plan.file_split_gpus", .label = "GPUs of the file's split", .unit = UNIT_NONE,
	 .offset = PO(serving.fleet_split_gpus), .integer = true, .section = FIGURE_TIME,
	 .explain = explain_prefill_engines},
	DETAIL("capacity_plan.slo_batch", "largest batch meeting the SLO", UNIT_NONE, slo_batch,
	       false, FIGURE_TIME, explain_max_batch),

	{.key = "cost.usd_total", .label = "cost in total", .short_label = "cost",
	 .unit = UNIT_USD, .format = FIGURE_FMT_USD, .offset = PO(usd_total), .better = -1,
	 .applies = TRAINING | APPLIES_OFFLINE, .section = FIGURE_COST, .text = {11, 22}, .pane = 8, .csv = 9, .explain = explain_usd_total},
	{.key = "cost.usd_per_hour", .label = "cost per hour", .short_label = "cost/hour",
	 .unit = UNIT_USD, .suffix = "/h", .format = FIGURE_FMT_USD, .offset = PO(usd_per_hour),
	 .better = -1, .applies = APPLIES_ONLINE, .section = FIGURE_COST, .text = {10, 21}, .pane = 9, .csv = 8, .explain = explain_usd_per_hour},
	{.key = "cost.usd_per_million_tokens", .label = "per million tokens",
	 .short_label = "$/M tokens", .unit = UNIT_USD, .format = FIGURE_FMT_USD,
	 .offset = PO(usd_per_million_tokens), .better = -1, .applies = ALL,
	 .section = FIGURE_COST, .text = {12, 23}, .pane = 10,
	 .csv = 10, .explain = explain_usd_per_million_tokens},
	{.key = "energy.kwh", .label = "energy", .short_label = "energy", .unit = UNIT_NONE,
	 .format = FIGURE_FMT_KWH, .offset = PO(kwh), .better = -1,
	 .applies = TRAINING | APPLIES_OFFLINE, .section = FIGURE_COST, .text = {13, 24}, .pane = 11, .explain = explain_energy},

	{.key = "reliability.expected_interruptions", .label = "expected interruptions",
	 .unit = UNIT_NONE, .offset = PO(expected_interruptions), .section = FIGURE_RELIABILITY,
	 .text = {14, 0}, .explain = explain_interruptions},
	{.key = "reliability.checkpoint_interval_s", .label = "checkpoint interval",
	 .unit = UNIT_SECONDS, .offset = PO(checkpoint_interval_s),
	 .section = FIGURE_RELIABILITY, .text = {15, 0},
	 .explain = explain_checkpoint_interval},
	{.key = "reliability.goodput", .label = "goodput", .unit = UNIT_RATIO,
	 .offset = PO(goodput), .section = FIGURE_RELIABILITY, .text = {16, 0}, .explain = explain_goodput},
	DETAIL("reliability.checkpoint_write_s", "checkpoint write time", UNIT_SECONDS,
	       checkpoint_write_s, false, FIGURE_RELIABILITY, explain_checkpoint_interval),

	{.key = "bottleneck.binding", .label = "binding bottleneck", .unit = UNIT_NONE,
	 .get = get_binding, .word = word_binding, .section = FIGURE_BOTTLENECK,
	 .explain = explain_binding},
	/* in enum bottleneck's order (figure_bottleneck) */
	{.key = "bottleneck.shares.capacity", .label = "capacity", .short_label = "capacity",
	 .tiny_label = "capacity", .unit = UNIT_RATIO, .format = FIGURE_FMT_SHARE,
	 .offset = PO(shares[BN_CAPACITY]), .section = FIGURE_BOTTLENECK,
	 .explain = explain_share_capacity},
	{.key = "bottleneck.shares.compute", .label = "compute", .short_label = "compute",
	 .tiny_label = "compute", .unit = UNIT_RATIO, .format = FIGURE_FMT_SHARE,
	 .offset = PO(shares[BN_COMPUTE]), .section = FIGURE_BOTTLENECK,
	 .explain = explain_share_compute},
	{.key = "bottleneck.shares.hbm_bandwidth", .label = "HBM bandwidth",
	 .short_label = "hbm bw", .tiny_label = "hbm bw", .unit = UNIT_RATIO,
	 .format = FIGURE_FMT_SHARE, .offset = PO(shares[BN_HBM]), .section = FIGURE_BOTTLENECK,
	 .explain = explain_share_hbm},
	{.key = "bottleneck.shares.interconnect", .label = "interconnect",
	 .short_label = "interconnect", .tiny_label = "network", .unit = UNIT_RATIO,
	 .format = FIGURE_FMT_SHARE, .offset = PO(shares[BN_INTERCONNECT]),
	 .section = FIGURE_BOTTLENECK, .explain = explain_share_interconnect},
	{.key = "bottleneck.shares.data_io", .label = "data I/O", .short_label = "data i/o",
	 .tiny_label = "data io", .unit = UNIT_RATIO, .format = FIGURE_FMT_SHARE,
	 .offset = PO(shares[BN_DATA_IO]), .section = FIGURE_BOTTLENECK,
	 .explain = explain_share_data_io},
	{.key = NULL},
};
/* clang-format on */

const struct figure *figure_find(const char *key)
{
	for (const struct figure *f = figures; f->key; f++)
		if (strcmp(f->key, key) == 0)
			return f;
	return NULL;
}

bool figure_is_number(const struct figure *f)
{
	return f->word == NULL;
}

double figure_value(const struct figure *f, const struct plan *p)
{
	if (f->get)
		return f->get(p);
	return *(const double *)((const char *)p + f->offset);
}

/* An offered load (FIGURE_FMT_LOAD): a share of the capacity up to 1 (a closed loop runs
 * full: 1 and no queue); above 1 the arrivals outrun the replica and its queue has no
 * steady state (plan_serve.c: serving.overloaded), so the load is said as a multiple */
static void format_load(double v, bool pane, char *buf, size_t size)
{
	char n[32];

	if (isfinite(v) && v > 1 + 1e-9) {
		units_format_num3(v, n, sizeof(n));
		snprintf(buf, size, pane ? "load %sx" : "overloaded (offered load %sx)", n);
	} else if (pane) {
		units_format_percent(v, 0, buf, size);
	} else {
		units_format_human(UNIT_RATIO, v, 3, buf, size);
	}
}

char *figure_format(const struct figure *f, double value, char *buf, size_t size)
{
	int n;

	if (f->name) {
		snprintf(buf, size, "%s", f->name(value));
		return buf;
	}
	if (f->format == FIGURE_FMT_LOAD) {
		format_load(value, false, buf, size);
		return buf;
	}
	if (f->format == FIGURE_FMT_KWH) {
		units_format_energy(value, buf, size);
		return buf;
	}
	n = units_format_human(f->unit, value, 3, buf, size);
	if (!isnan(value) && f->suffix && n >= 0 && (size_t)n < size)
		snprintf(buf + n, size - (size_t)n, "%s", f->suffix);
	return buf;
}

/* Whether an engine's running cap holds the batch below f's value: serving.max_running is
 * the framework's cap (vLLM's max_num_seqs, framework.c) already bounded by the KV pool
 * (plan_serve.c), so it is below capacity_plan.max_batch only where the engine's binds */
static bool capped(const struct figure *f, const struct plan *p)
{
	double cap = p->serving.max_running, v = figure_value(f, p);

	return f->capped_label && isfinite(cap) && isfinite(v) && cap < v;
}

const char *figure_label(const struct figure *f, const struct plan *p)
{
	return capped(f, p) ? f->capped_label : f->label;
}

char *figure_format_plan(const struct figure *f, const struct plan *p, char *buf, size_t size)
{
	size_t n;

	figure_format(f, figure_value(f, p), buf, size);
	n = strlen(buf);
	if (capped(f, p) && n < size)
		snprintf(buf + n, size - n, " (engine runs at most %.0f)", p->serving.max_running);
	return buf;
}

char *figure_format_short(const struct figure *f, const struct plan *p, char *buf, size_t size)
{
	double v = figure_value(f, p);
	char n[48];

	buf[0] = '\0';
	if (f->format == FIGURE_FMT_NONE)
		return buf;
	if (capped(f, p)) {
		units_format_human(UNIT_COUNT, v, 3, n, sizeof(n));
		snprintf(buf, size, "%.0f (KV %s)", p->serving.max_running, n);
		return buf;
	}
	/* bytes as units.c writes them, inf included; a share with its binding mark */
	if (f->format == FIGURE_FMT_BYTES) {
		units_format_human(UNIT_BYTES, v, 3, buf, size);
		return buf;
	}
	if (f->format == FIGURE_FMT_SHARE) {
		units_format_percent(v, 0, n, sizeof(n));
		snprintf(buf, size, "%s%s", n,
			 p->binding == figure_bottleneck_of(f) ? " (binding)" : "");
		return buf;
	}
	if (!isfinite(v)) {
		snprintf(buf, size, "-");
		return buf;
	}
	switch (f->format) {
	case FIGURE_FMT_SECONDS:
		units_format_human(UNIT_SECONDS, v, 3, buf, size);
		break;
	case FIGURE_FMT_TOKENS:
		units_format_human(UNIT_COUNT, v, 3, n, sizeof(n));
		snprintf(buf, size, "%s tok/s", n);
		break;
	case FIGURE_FMT_RATIO:
		units_format_num3(v * 100, n, sizeof(n));
		snprintf(buf, size, "%s%%", n);
		break;
	case FIGURE_FMT_USD:
		units_format_usd(v, buf, size);
		break;
	case FIGURE_FMT_KWH:
		units_format_energy(v, buf, size);
		break;
	case FIGURE_FMT_COUNT:
		units_format_human(UNIT_COUNT, v, 3, buf, size);
		break;
	case FIGURE_FMT_LOAD:
		format_load(v, true, buf, size);
		break;
	case FIGURE_FMT_NONE:
	case FIGURE_FMT_BYTES:
	case FIGURE_FMT_SHARE:
		break;
	}
	return buf;
}

static unsigned place_of(const struct figure *f, enum figure_list list, enum workload_kind kind)
{
	bool train = kind == WL_TRAIN || kind == WL_FINETUNE;

	switch (list) {
	case FIGURE_LIST_TEXT:
		return train ? f->text.train : f->text.infer;
	case FIGURE_LIST_PANE:
		return (f->applies & (1u << kind)) ? f->pane : 0;
	case FIGURE_LIST_CSV:
		return f->csv;
	}
	return 0;
}

int figure_list(enum figure_list list, enum workload_kind kind, int section,
		const struct figure **out, int max)
{
	int n = 0;

	/* places are small numbers: take them in turn (a few hundred comparisons) */
	for (unsigned place = 1; place <= 255 && n < max; place++)
		for (const struct figure *f = figures; f->key && n < max; f++)
			if ((section < 0 || (int)f->section == section) &&
			    place_of(f, list, kind) == place)
				out[n++] = f;
	return n;
}

/* The i-th row with flag, or NULL past the last. */
static const struct figure *nth_with(unsigned flag, int i)
{
	for (const struct figure *f = figures; f->key; f++)
		if ((f->flags & flag) && i-- == 0)
			return f;
	return NULL;
}

const struct figure *figure_memory_part(int i)
{
	return nth_with(FIGURE_PART, i);
}

const struct figure *figure_overhead_part(int i)
{
	return nth_with(FIGURE_OVERHEAD_PART, i);
}

const struct figure *figure_time_part(int i)
{
	return nth_with(FIGURE_TIME_PART, i);
}

const struct figure *figure_parent(const struct figure *f)
{
	if (!(f->flags & FIGURE_DETAIL))
		return NULL;
	for (const struct figure *g = figures; g->key; g++)
		if (!(g->flags & FIGURE_DETAIL) && g->explain == f->explain)
			return g;
	return NULL;
}

const struct figure *figure_bottleneck(enum bottleneck b)
{
	if ((unsigned)b >= BN_COUNT)
		return NULL;
	for (const struct figure *f = figures; f->key; f++)
		if (figure_bottleneck_of(f) == b)
			return f;
	return NULL;
}

enum bottleneck figure_bottleneck_of(const struct figure *f)
{
	size_t first = PO(shares[0]);

	if (f->format != FIGURE_FMT_SHARE || f->get || f->offset < first ||
	    f->offset >= first + BN_COUNT * sizeof(double))
		return BN_COUNT;
	return (enum bottleneck)((f->offset - first) / sizeof(double));
}

/* Its share row's key after "bottleneck.shares.": the JSON report's, diff's and explain's
 * name of it (plan.h). */
const char *bottleneck_name(enum bottleneck b)
{
	const struct figure *f = figure_bottleneck(b);
	return f ? strrchr(f->key, '.') + 1 : "?";
}

const char *figure_bottleneck_short(enum bottleneck b)
{
	const struct figure *f = figure_bottleneck(b);
	return f ? f->short_label : "?";
}

const char *figure_bottleneck_tiny(enum bottleneck b)
{
	const struct figure *f = figure_bottleneck(b);
	return f ? f->tiny_label : "?";
}
