/* plan.h - from a scenario to every figure gpuplan reports.
 *
 * plan_compute() is pure and allocation-free: no I/O, no malloc, no printing; it runs on
 * every keystroke of the terminal UI. It never fails: a scenario that cannot run still
 * gets finite figures and warnings (scenario_validate() says what is wrong with it).
 *
 * Units: bytes, seconds, FLOPs, FLOP/s, USD, kWh. A figure that does not apply to the
 * workload is NAN (reported as null).
 */
#ifndef GPUPLAN_PLAN_H
#define GPUPLAN_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "model.h"
#include "scenario.h"

enum bottleneck { BN_CAPACITY, BN_COMPUTE, BN_HBM, BN_INTERCONNECT, BN_DATA_IO, BN_COUNT };

/* "capacity", "compute", "hbm_bandwidth", "interconnect", "data_io": the last part of the
 * bottleneck's share row in the figure table (figure.c, the one place they are written);
 * "?" for an unknown one. */
const char *bottleneck_name(enum bottleneck b);

enum plan_warning_code {
	PW_SHAPE_ASSUMED,	 /* model given by params only: standard shape assumed */
	PW_DOES_NOT_FIT,	 /* a = total bytes, b = capacity */
	PW_KV_NO_ROOM,		 /* inference: no room left for even one sequence's KV cache */
	PW_SEQ_OVER_CONTEXT,	 /* a = seq_len, b = max_context */
	PW_BATCH_NOT_DIVISIBLE,	 /* global batch not a multiple of micro_batch x dp */
	PW_LAYERS_NOT_DIVISIBLE, /* layers not a multiple of pp x virtual_stages */
	PW_TP_ACROSS_NODES,	 /* tp larger than the GPUs of one link domain */
	PW_NO_PRECISION_PEAK,	 /* the GPU has no peak for the precision; a = fallback used */
	PW_PRECISION_WEIGHT_MISMATCH,
	PW_DEADLINE_MISSED, /* a = total_s, b = deadline_s */
	PW_SLO_MISSED,
	PW_DATA_STARVED,   /* storage slower than the GPUs consume tokens */
	PW_LAYOUT_INVALID, /* tp x pp x ep does not divide the GPU count */
	PW_OFFLOAD_PCIE_BOUND,
	PW_IDLE_GPUS,	       /* a = GPUs the layout uses (a dp given), b = the count */
	PW_FRAMEWORK_CONFLICT, /* a = enum framework, b = enum plan_conflict: a field it ignores */
	PW_OVERLOADED,	       /* a arrive, b the most served, per c: 0 replica, 1 or 2 pool */
	PW_SLO_PERCENTILE,     /* a = the TTFT at the SLO percentile (c), b = its target */
	/* cannot meet at any replica count: a = a lone request's TTFT (TPOT) at the SLO
	 * percentile (c, 0 under scheduler alone: its mean), the floor no count goes below,
	 * b = the target */
	PW_SLO_UNREACHABLE_TTFT,
	PW_SLO_UNREACHABLE_TPOT,
	PW_FLEET_OVER_MAX,	/* a = the most replicas tried (PLAN_MAX_GPUS), b = GPUs of one */
	PW_PAGED_EVICTED,	/* a = paged optimizer bytes evicted to the host */
	PW_REQUESTS_IGNORED,	/* workload.requests set but unused: a = 0 no load modelled,
				 * 1 disaggregated, 2 a measured throughput */
	PW_VISION_NOT_MODELLED, /* a = model.vision_params: held, but no image tokens */
	PW_ZERO_FALLBACK,	/* a = enum framework, b = parallel.zero it runs as stage 0 */
	/* workload.requests_per_s (a) sets the load where requests_per_day x peak_factor /
	 * 86,400 s (b) would have: every figure follows a */
	PW_RATE_OVERRIDES,
	PW_SLO_PERCENTILE_TPOT, /* a = the TPOT at the SLO percentile (c), b = its target */
	/* disaggregated pools need a = engines (one prefill, one decode at the least) but the
	 * deployment runs b */
	PW_DISAGG_FEW_ENGINES,
	/* a = workload.measured_tokens_per_s, b = the MFU it implies, in percent (over 100) */
	PW_MEASURED_OVER_PEAK,
	/* framework trt-llm, fp8 weights, a 16-bit workload.kv_cache (a = its enum dtype):
	 * TensorRT-LLM keeps the KV cache in the model dtype unless quantized with
	 * --kv_cache_dtype fp8 */
	PW_TRTLLM_KV_16BIT,
	/* multi-step chunked scheduling (scheduler_steps > 1): a = the prompt's tokens, b = the
	 * step budget it exceeds; vLLM V0 ignores such a prompt (_get_prompt_limit) */
	PW_PROMPT_OVER_BUDGET,
	PW_COUNT
};

/* The fields PW_FRAMEWORK_CONFLICT names (plan_warning.c has their keys). */
enum plan_conflict {
	CONFLICT_ZERO,
	CONFLICT_OFFLOAD,
	CONFLICT_MEM_FRACTION,
	CONFLICT_RESHARD, /* reshard_after_forward always under FSDP with a pipeline */
	CONFLICT_COUNT
};

struct plan_warning {
	enum plan_warning_code code;
	double a, b; /* figures the message quotes; see each code */
	double c;    /* the SLO percentile the latencies are at (plan_warn_at), else 0 */
};

/* The message for a warning, lowercase: "does not fit: 1.12 TB per GPU needs ...". */
char *plan_warning_format(const struct plan_warning *w, char *buf, size_t size);

/* Whether w is a framework conflict that scenario_ignored_fields reports too, at the
 * field's place (a training field under a serving framework, a memory fraction under one
 * that reads none), or PW_RATE_OVERRIDES, which it places at workload.requests_per_s:
 * callers that print both print it once. */
bool plan_warning_field_ignored(const struct plan_warning *w);

/* The field a framework conflict warning (or PW_RATE_OVERRIDES) is about
 * ("parallel.zero"), NULL for any other. */
const char *plan_warning_conflict_key(const struct plan_warning *w);

#define PLAN_MAX_WARNINGS 16

/* plan_memory.act_block's blocks */
enum {
	PLAN_BLOCK_ATTENTION,
	PLAN_BLOCK_SSM,	   /* a state-space (Mamba) or Gated DeltaNet mixer */
	PLAN_BLOCK_LINEAR, /* DeciLM's attention replaced by a linear: its input */
	PLAN_BLOCK_MLP,
	PLAN_BLOCK_MOE,
	PLAN_BLOCK_INPUT,
	PLAN_BLOCKS
};

struct plan_memory { /* bytes on the most loaded GPU */
	double weights;
	double gradients;
	double optimizer;
	/* of optimizer: the states in CUDA managed memory resident on the GPU
	 * (workload.optimizer_states paged): in total, not in reserved or allocated */
	double optimizer_paged;
	double optimizer_evicted; /* of host: the paged states the driver evicted to it */
	double activations;
	double kv_cache;
	double overhead; /* cuda_context + fragmentation + comm_buffers (+ the parts below:
			  * rebuilt_layer, fp8_weights, blas_workspace) */
	double total;
	/* the parts of overhead */
	double cuda_context;  /* CUDA context and kernels (~0.5-1 GB measured by PyTorch) */
	double fragmentation; /* caching-allocator slack, a fraction of the rest */
	double comm_buffers;  /* NCCL buffers, ZeRO-3 gathered-parameter buckets */
	double nccl_buffers;  /* the NCCL part of comm_buffers: cudaMalloc'd by NCCL, outside
			       * PyTorch's caching allocator (in total, not in reserved) */
	double host;	      /* bytes offloaded to host memory (per GPU) */
	double capacity;      /* the GPU's memory */
	double headroom;      /* capacity - total (negative when it does not fit) */
	/* what PyTorch's allocator reports at the peak: tensors alive (max_memory_allocated)
	 * and what the allocator holds from CUDA (max_memory_reserved); total adds the CUDA
	 * context and libraries outside it, as nvidia-smi shows */
	double allocated; /* total - cuda_context - nccl_buffers - optimizer_paged - slack */
	double reserved;  /* allocated + fragmentation */
	double kv_budget; /* serving frameworks' KV rule: the budget before whole blocks;
			   * NaN under gpuplan's own fit rule and in training */
	/* the KV rule's other terms, for its explanation (NaN without one): one sequence's
	 * whole blocks (and recurrent state), the profile run's tokens and, on the last
	 * stage, its sampler's fp32 logits (0 on a first stage) */
	double kv_seq_bytes;
	/* a hybrid's (model.h) blocks in training without full recomputation, bytes per
	 * token of one block, each with its input and its norm's (act_hybrid_token in
	 * plan_memory.c): their counts' sum over the layers is the layer's average; NaN
	 * otherwise. The last is that input alone, the part every block carries. */
	double act_block[PLAN_BLOCKS];
	double profile_tokens;
	double profile_logits;
	bool fits;
	/* the part of `gradients` that is the head's backward under a chunked loss (its two
	 * gradients less the logit gradients freed), when that is the peak's; else 0 */
	double head_grads;
	/* the part of `comm_buffers` that is whole gradients before their reduce-scatter under
	 * ZeRO 2/3 (FSDP2's unit and head, DeepSpeed's bucket: plan_memory.c); else 0 */
	double grads_transient;
	/* terms the explanation quotes */
	double weight_bytes_per_param;
	double grad_bytes_per_param;
	double optimizer_bytes_per_param;
	double weight_shard; /* divisor applied to the weights: tp x pp (x dp under ZeRO-3) */
	double grad_shard;
	double optimizer_shard;
	double gradients_full;	      /* the gradients this GPU holds whole; `gradients` is the part
				       * alive at the peak (workload.grad_lifetime); NaN in inference */
	double activations_per_layer; /* bytes of one layer's stored activations, one micro-batch */
	double layers_in_flight;      /* layer-micro-batches held on the most loaded stage */
	/* activations besides activations_per_layer x layers_in_flight (training) */
	double activations_embed; /* first stage: embedding dropout masks */
	double activations_head;  /* last stage: output layer input and fp32 loss */
	double fp8_weights;	  /* Transformer Engine fp8 training: the linear weights' fp8 casts
				   * and transposes (2 B a parameter), part of overhead */
	/* model.vision_params: the vision tower's part of weights, gradients and optimizer
	 * (plan_memory.c, stage_memory), outside the per-parameter figures */
	double vision_weights, vision_gradients, vision_optimizer;
	double activations_offloaded; /* workload.activation_offload: the layers' stored
				       * activations held in host memory (in `host`) */
	double rebuilt_layer;	      /* recomputation: the tensors one layer rebuilds for its
				       * backward on top of what is stored; transient, so a part
				       * of overhead, not of the (stored) activations */
	double kv_bytes_per_token;    /* all layers, this GPU's share */
	double kv_tokens;	      /* tokens cached per GPU */
	double kv_tokens_per_seq;     /* inference: tokens cached per sequence (NaN training) */
	double decode_bytes_per_seq;  /* inference: decode working set per sequence */
	/* speculative decoding (workload.speculative): the draft's parts of weights and
	 * kv_bytes_per_token (0 without one; NaN in training) */
	double draft_weights;
	double draft_kv_bytes_per_token;
	double blas_workspace; /* cuBLAS/cuBLASLt workspaces a named PyTorch framework keeps
				* (framework_blas_workspace): from its caching allocator, so in
				* allocated and reserved; part of overhead */
};

/* Inference: one decode step at the batch it runs (a micro-batch of B / pp once the batch
 * fills a pipeline), seconds by term, so that tpot = max(gemm, weight_read) + attention +
 * elementwise + tp_comm + ep_comm + pp_comm + fixed. NaN for training. */
struct plan_decode {
	double batch;		  /* sequences this step decodes */
	double step_s;		  /* the step the terms below add up to */
	double gemm_s;		  /* the GEMMs' compute: tensor or CUDA cores, the faster */
	double weight_read_s;	  /* the weights read from HBM */
	double attention_s;	  /* the slower of the next two */
	double attention_flops_s; /* attention's FLOPs over the cached context */
	double kv_read_s;	  /* the KV cache read */
	double elementwise_s;	  /* norms, activations, residuals at HBM bandwidth */
	double tp_comm_s;	  /* tensor-parallel all-reduces */
	double ep_comm_s;	  /* expert-parallel all-to-alls */
	double pp_comm_s;	  /* pipeline hand-offs */
	double fixed_s;		  /* launches, the host's part, dequantisation */
	/* speculative decoding (NaN without): the gemm_s ... fixed_s terms are then those of
	 * the verify pass of K + 1 tokens a sequence, and tpot = (verify_s + draft_s) /
	 * tokens_per_step (Leviathan et al. 2023) */
	double spec_tokens_per_step; /* expected tokens a sequence gains a step */
	double verify_s;	     /* the target's pass over K + 1 tokens a sequence */
	double draft_s;		     /* the K sequential draft steps */
	/* a batch above the engine's CUDA-graph cap runs eagerly: the host's launches outlast
	 * the GPU's work by this much (0 under the cap, or when the GPU is slower) */
	double eager_s;
};

/* Serving under load (workload.scheduler other than alone): the engine's steady-state step
 * at the running batch the load keeps, the queue in front of it, and the percentiles.
 * Every figure NaN under scheduler alone and in training. Percentiles are of the
 * requests' TTFT and end-to-end latency and of the gaps between output tokens (TPOT/ITL);
 * index 0, 1, 2 = P50, P90, P99. */
struct plan_serving {
	double scheduler;	 /* the enum scheduler applied (auto resolved) */
	double budget;		 /* tokens one step may carry (INFINITY: unlimited) */
	double max_running;	 /* the running cap: the framework's, and the KV cache's */
	double scheduler_steps;	 /* decode steps one scheduling runs (multi-step) */
	double rate;		 /* arrivals, requests/s per replica (NaN: closed loop) */
	double concurrency;	 /* requests in the engine (Little's law: rate x e2e) */
	double batch;		 /* sequences each decode step carries */
	double prefill_per_step; /* prompt tokens that join a decode step, on average */
	double utilisation;	 /* rate / the most the replica completes at its cap */
	double capacity_rate;	 /* requests/s per replica at the cap */
	double ttft_service_s;	 /* a prompt's own passes, without the wait */
	double wait_s;		 /* mean wait before the prompt's first pass */
	double ttft[3], tpot[3], e2e[3];
	double ttft_mean_s, tpot_mean_s, e2e_mean_s;
	double slo_percentile; /* the percentile checked (auto: 99) */
	double ttft_slo_s;     /* TTFT at the SLO percentile */
	double tpot_slo_s;     /* TPOT at the SLO percentile */
	double requests_per_s; /* completed per replica */
	double run_s;	       /* a finite run's duration (workload.requests); NaN: none */
	bool overloaded;       /* the rate exceeds capacity_rate: no steady state */
	/* capacity_plan.replicas and gpus_required from the loaded engine: the rule and the
	 * numbers it used (src/plan_serve.c, serve_fleet). A replica is tp x pp x ep GPUs,
	 * ep engines of tp x pp, each taking the peak rate / (replicas x ep). */
	double fleet_rule;	  /* enum fleet_rule */
	double fleet_rate;	  /* the peak it sizes for: requests/s over all replicas */
	double fleet_engines;	  /* engines per replica (ep) */
	double fleet_stable;	  /* open loop: the fewest replicas with utilisation < 1 */
	double fleet_lone_ttft_s; /* under an SLO: TTFT and TPOT at its percentile as the */
	double fleet_lone_tpot_s; /* rate per engine tends to 0, the floor of any count */
	double fleet_ttft_s[2];	  /* at the SLO percentile, at the answer and one fewer */
	double fleet_tpot_s[2];
	double fleet_util[2];
	double fleet_evals; /* evaluations of the loaded model the walk made */
	/* the terms src/explain_time.c and explain_serving.c add up to the figures above (NaN
	 * where none) */
	double step_decode_s; /* a step of the running batch's decodes alone */
	double step_joined_s; /* a step that carries prompts */
	double step_frac;     /* the share of steps that carry prompts, 1 - e^-n x chunks */
	double e2e_run_s;     /* ttft_service_s + (output - 1) tpot_mean_s: no wait */
	double e2e_cap_s;     /* the same at the running cap */
	double wait_res_s;    /* the step in flight an arrival finds */
	double ttft_ahead_s;  /* in ttft_service_s: the step an overlap scheduler has
			       * launched ahead of a prompt's first pass (SGLang) */
	double wait_queue_s;  /* the mean wait at the prompt budget (or for a slot) */
	double room;	      /* prompt tokens a step (or a prefill pass) may carry */
	/* a closed loop's wait at the prompt budget, in wait_queue_s (closed_wait): the
	 * budget's utilisation by the others' prompts and the wait; and a prompt's hold on
	 * the budget, s (prompt_svc; open loops too: rate x s >= 1 overloads it) */
	double closed_rho, closed_wait_s, prompt_svc_s;
	/* per level (P50, P90, P99, the SLO's): a prompt's own passes, its wait, the prompts
	 * joining the step, what they add to the gap, the output length */
	double lv_own_s[4], lv_wait_s[4], lv_k[4], lv_add_s[4], lv_out[4];
	double slo_gaps;  /* the SLO's TPOT: the gaps a request's mean is taken over */
	double slo_share; /* the share of them that carry prompts */
	double slo_gap_s; /* the gap of those steps */
	/* disaggregated (src/plan_serve.c, serve_disagg): the engines of each pool, the
	 * prefill pool's utilisation, a prompt's prefill and its KV's transfer, s */
	double prefill_engines, decode_engines, prefill_util, prefill_s, kv_transfer_s;
	double fleet_prefill, fleet_decode; /* the capacity plan's pools, engines */
	/* the fewest GPUs at the file's own split (workload.prefill_engines and
	 * decode_engines: both set, their ratio in whole multiples; one set, that pool
	 * pinned), NaN where the file sets none or no count meets with it */
	double fleet_split_gpus;
	/* an overload's figures, from one server (overloaded): the requests/s arriving at
	 * it and the most it completes, per engine of over_pool (0 a replica, 1 a prefill
	 * engine, 2 a decode engine); the warning and the text report quote them */
	double over_rate, over_most, over_pool;
	/* measured_tokens_per_s: the time scale the queue's service times were multiplied
	 * by, for the measured capacity (1: none, NaN: no measurement under a rate) */
	double measured_scale;
};

/* How the loaded engine sized the fleet (plan_serving.fleet_rule). */
enum fleet_rule {
	FLEET_STABLE,	  /* open loop, no SLO: the fewest replicas with utilisation < 1 */
	FLEET_SLO,	  /* open loop: the fewest that also meet the SLO at its percentile */
	FLEET_THROUGHPUT, /* closed loop or offline: completions cover the peak / deadline */
	FLEET_CANNOT	  /* no count up to PLAN_MAX_GPUS meets: replicas NaN, a warning */
};

/* Step time (training) or phase time (inference) by part, seconds. */
struct plan_time_parts {
	double matmul_s;
	double attention_s;
	double memory_bound_s; /* norms, activations, softmax, elementwise at HBM bandwidth */
	double tp_comm_s;
	double pp_comm_s;
	double bubble_s;
	double dp_comm_s; /* exposed (not overlapped) part */
	double zero3_s;
	double ep_comm_s;
	double offload_s;
	double optimizer_s;
	double data_s;	  /* data loading, when it is not hidden */
	double cp_comm_s; /* context-parallel K/V exchange, its exposed part */
	/* inference (0 in training): with the parts above they add up to step_s (tpot) */
	double weight_read_s; /* the weights' HBM read beyond the GEMMs' compute:
			       * max(gemm, read) - gemm (struct plan_decode) */
	double fixed_s;	      /* launches, the host's part, dequantisation, eager launches */
	double prefill_s;     /* under load: the mean tpot beyond the running batch's decode
			       * step alone, the prompts its steps carry */
};

/* Training: the collectives that can run behind compute (parallel.tp_comm_overlap,
 * overlap_grad_reduce, overlap_param_gather), per step, seconds: what each takes alone
 * and what of it the step shows (its part of tp_comm_s, dp_comm_s or zero3_s), with
 * the overlaps applied (enum overlap, resolved: OVERLAP_ON, OVERLAP_OFF, OVERLAP_PAPER)
 * and the compute speed while they run (efficiency.overlap). NaN in inference. */
struct plan_overlap {
	int tp, grad, param;
	double speed;
	double tp_s, tp_exposed_s;	 /* tensor-parallel collectives, every micro-batch */
	double grad_s, grad_exposed_s;	 /* gradient all-reduce / reduce-scatter */
	double param_s, param_exposed_s; /* ZeRO parameter all-gathers */
};

/* The parts by index, in the order above (0 .. PLAN_PARTS - 1): for loops over them. */
#define PLAN_PARTS 16
double *plan_part(struct plan_time_parts *t, unsigned i);
double plan_part_get(const struct plan_time_parts *t, unsigned i);

struct plan {
	/* the architecture used, after presets and an assumed shape (preset and hf_config are
	 * left empty: the scenario has them) */
	struct model model;
	bool shape_assumed;
	struct model_params counts;
	double params; /* total parameters */
	double active_params;
	double trainable_params; /* LoRA: adapter parameters; full training: params */
	/* the layout used, with auto values resolved */
	int tp, pp, dp, ep, cp, virtual_stages, zero;
	/* workload.precision and workload.engine as the plan ran them (auto resolved:
	 * plan_precision, plan_engine) */
	enum dtype precision;
	/* the precision whose dense peak the GEMMs run at: precision, or the one
	 * plan_time.c falls back to when the GPU has no peak for it (PW_NO_PRECISION_PEAK) */
	enum dtype peak_precision;
	enum engine engine;
	int micro_batches; /* gradient-accumulation steps per optimizer step, per pipeline */
	int global_batch;
	int recompute_layers; /* layers of the loaded stage that recompute (0: none) */

	struct plan_memory mem;

	/* compute */
	double flops_per_token;	   /* model FLOPs per token (6N + attention for training) */
	double hw_flops_per_token; /* including recomputation */
	double attention_flops_per_token;
	/* inference: model FLOPs per computed prompt token, the prefill's causal attention
	 * over half the prompt's keys (flops_per_token is a decode token's) */
	double prefill_flops_per_token;
	/* inference: one request's model FLOPs, its computed prompt tokens' prefill and its
	 * output tokens' decode */
	double flops_per_request;
	/* inference under a loaded scheduler: the bottleneck shares weigh a request's
	 * prefill and its decode by their time (plan_infer.c pt_weigh_prefill_shares);
	 * prefill_s 0 where they are the decode step's alone */
	struct plan_share_weigh {
		double prefill_s; /* a request's prompt pass */
		double decode_s;  /* its share of the decode steps: O x step / batch */
		double part_s[3]; /* of prefill_s: compute, hbm_bandwidth, interconnect */
		double decode[3]; /* the decode step's own shares, in that order */
	} share_weigh;
	/* training: the state-space layers' scans (Mamba, Mamba-2, Gated DeltaNet), forward and
	 * backward, per step, seconds; part of parts.attention_s, the sequence mixers' cores.
	 * Inference: the scans of one prompt's prefill (its computed tokens), part of TTFT */
	double ssm_scan_s;
	double flops_per_step;
	double flops_total;
	double peak_flops; /* the dense peak used, per GPU */
	double mfu;
	double hfu;
	double matmul_efficiency; /* achieved / peak for the model's GEMMs */
	double hbm_efficiency;
	double network_efficiency;
	double gemm_efficiency; /* the fraction of the dense peak a large GEMM reaches (emax) */
	double memory_overhead; /* the allocator slack over allocated bytes at the peak */

	/* time and throughput */
	struct plan_time_parts parts;
	struct plan_decode decode; /* inference: the decode step's terms */
	struct plan_serving serving;
	double step_s;
	double total_s;
	double gpu_hours;
	double tokens_per_s;
	double tokens_per_s_per_gpu;
	double ttft_s;
	double tpot_s;
	double decode_compute_bound_batch; /* batch where decode turns compute-bound */

	/* capacity plan */
	double max_batch;    /* inference: most concurrent sequences whose KV cache fits */
	double mem_fraction; /* a serving framework's KV budget fraction; NaN when none */
	double slo_batch;    /* the largest batch meeting the SLO; NAN when none is given */
	/* the prefix cache under workload.prefix_cache_tokens (src/plan_infer.c, prefix_tiers):
	 * the hit rate its device and host tiers keep, the share of hits from the host, and
	 * the load of a prompt's host-held prefix over the host link, s (NaN: none given) */
	double prefix_hit, prefix_host_share, host_kv_load_s;
	double host_kv_copy_s; /* the copy itself; host_kv_load_s is what TTFT waits for */
	double replicas;
	double gpus_required;

	/* cost and energy */
	double usd_total;
	double usd_per_hour;
	double usd_per_million_tokens;
	double kwh;

	/* reliability */
	double expected_interruptions;
	double checkpoint_interval_s;
	double checkpoint_write_s;
	double goodput;

	/* bottlenecks */
	double shares[BN_COUNT];
	enum bottleneck binding;

	int nwarnings;
	struct plan_warning warnings[PLAN_MAX_WARNINGS];

	struct plan_overlap overlap; /* training: communication behind compute */
};

/* Allocator fragmentation, a fraction of what is allocated (src/plan_memory.c says where from);
 * the explanation of max_batch quotes it. */
#define PLAN_FRAGMENTATION 0.05

/* Assumptions of the time model that the explanations quote (src/plan_time_int.h). */
#define PLAN_DATA_BYTES_PER_TOKEN      4.0   /* pre-tokenised uint32 token ids */
#define PLAN_CKPT_BYTES_PER_S_PER_NODE 2e9   /* checkpoint writes when hardware.storage is 0 */
#define PLAN_RESTART_S		       600.0 /* detect, reschedule, reload after a failure */

/* Computes every figure of s into p. Pure: no allocation, no I/O. With a training
 * deadline it plans other GPU counts too (capacity_plan.gpus_required), a few dozen
 * plans. */
void plan_compute(const struct scenario *s, struct plan *p);

/* The inference kernels s runs: workload.engine, or under auto the framework's
 * (vllm, sglang, trt-llm: cuda-graphs; llama.cpp: llama.cpp), else llama.cpp on a GPU of
 * catalog class consumer and cuda-graphs elsewhere (src/plan_memory.c says why). */
enum engine plan_engine(const struct scenario *s);

/* The compute precision s runs at: workload.precision, or under auto bf16 (fp16 where the
 * GPU has no bf16 peak; fp16 for fp16 inference weights), and fp8 for fp8 inference weights
 * on a GPU with an fp8 peak under the CUDA-graph engine (W8A8). */
enum dtype plan_precision(const struct scenario *s);

/* The memory part alone (plan_compute calls it first). */
void plan_compute_memory(const struct scenario *s, struct plan *p);

/* The time, throughput, cost, energy, reliability and bottleneck part; needs the memory
 * part to have run on the same p. */
void plan_compute_time(const struct scenario *s, struct plan *p);

/* Speculative decoding's draft (workload.speculative) on a model m with counts c: its own
 * parameters (held in memory: the head of mtp and eagle is the target's), the parameters
 * a draft step reads (own + the shared head), and in *kv_layers the layers it caches KV
 * for at the target's width. All 0 without speculation or for ngram (no model). */
double plan_draft_params(const struct workload *w, const struct model *m,
			 const struct model_params *c, double *step_params, double *kv_layers);

/* The range of hardware.count (src/scenario.c's row; test_deadline_gpus.c checks). */
#define PLAN_MAX_GPUS 1e8

/* The smallest GPU count at which s meets its deadline (workload.deadline, with
 * workload.tokens; training and fine-tuning), planned as plan_compute plans it: a whole
 * number of replicas of tp x pp x ep (dp = count / that), memory fitting when fit is set.
 * It walks as goal seek does (search_solve --min hardware.count, which calls it): up from
 * s's count by doubling to the first count that meets, then bisecting. NAN when no count
 * up to PLAN_MAX_GPUS meets, or s has no deadline. Allocation-free; a few dozen plans. */
double plan_deadline_gpus(const struct scenario *s, bool fit);

/* Whether an inference plan meets what its scenario asks of serving: the SLO (at its
 * percentile under a scheduler, with the queue stable at this count's share of the rate;
 * the lone request's latencies under workload.scheduler alone) and, under a load, the
 * fleet it needs (capacity_plan.gpus_required) within hardware.count. The one test that
 * search's ranking, goal seek and serve_fleet's walk share (src/plan_serve.c). True for a
 * training plan and for a target that is not set. */
bool plan_serving_meets(const struct scenario *s, const struct plan *p);

/* The squared coefficient of variation of a length law of mean mean (0 fixed). */
struct length_law;
double plan_length_cv2(const struct length_law *d, double mean);

/* Inference: the batch the plan of s runs (what workload.batch auto resolves to):
 * workload.batch, or under auto the most sequences that fit (at least 1), or under an SLO
 * the most that meet it. p is plan_compute's result for s. */
double plan_batch(const struct scenario *s, const struct plan *p);

/* Training: the HBM bytes the loss moves per logit after the output GEMM (workload.loss,
 * else the framework's; tp = the tensor-parallel degree, which turns on a framework's
 * loss_parallel ops; e = bytes of a 16-bit logit), as the step time counts them. */
double plan_loss_traffic(const struct workload *w, double tp, double e);

/* Adds a warning (drops it when the list is full). */
void plan_warn(struct plan *p, enum plan_warning_code code, double a, double b);
/* plan_warn with a third figure c: the SLO percentile of an SLO warning. */
void plan_warn_at(struct plan *p, enum plan_warning_code code, double a, double b, double c);

#endif
