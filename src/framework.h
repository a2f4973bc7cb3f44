/* framework.h - the training and serving frameworks as bundles of memory defaults.
 *
 * One row per framework (src/framework.c): what it can run, and the defaults it applies
 * where a scenario leaves a behaviour on auto (master weights, optimizer-state dtype, the
 * loss, the allocator's slack, the serving engine's memory fraction), each default with
 * the framework code or documentation it comes from. Every default is overridden by the
 * scenario's explicit field. FRAMEWORK_DEFAULT is the papers' framework (Megatron-LM /
 * DeepSpeed mixed precision for training, gpuplan's engine for inference): it leaves
 * every result as it was before frameworks existed.
 *
 * Pure: static tables and lookups, no allocation, no I/O.
 */
#ifndef GPUPLAN_FRAMEWORK_H
#define GPUPLAN_FRAMEWORK_H

#include <stdbool.h>

#include "dtype.h"

/* In the order of scenario.c's names for workload.framework. */
enum framework {
	FW_DEFAULT,
	FW_MEGATRON,
	FW_FSDP,
	FW_DEEPSPEED,
	FW_HF,
	FW_TORCHTUNE,
	FW_LLMC,
	FW_VLLM,
	FW_SGLANG,
	FW_TRTLLM,
	FW_LLAMACPP,
	FW_COUNT
};

/* The names of enum framework as scenario files write them ("fsdp"), NULL-terminated. */
extern const char *const framework_names[FW_COUNT + 1];

/* workload.master_weights: the fp32 copy the optimizer updates. */
enum master_weights { MASTER_AUTO, MASTER_FP32, MASTER_NONE };

/* workload.optimizer_states: the dtype of the optimizer's moments (AdamW, SGD), or
 * STATES_PAGED: bitsandbytes' paged optimizers, the moments (fp32, or 8-bit Adam's one-byte
 * ones) in CUDA managed memory (plan_memory.c optimizer_paged_bytes). */
enum optimizer_states { STATES_AUTO, STATES_FP32, STATES_BF16, STATES_PAGED };

/* workload.loss: how the output layer's logits and cross-entropy are held. */
enum loss {
	LOSS_AUTO,
	LOSS_PAPER,   /* Korthikanti et al.: one fp32 softmax over the logits, 4 V bytes/token */
	LOSS_FP32,    /* the whole logits upcast to fp32 then cross_entropy (eager PyTorch) */
	LOSS_CHUNKED, /* chunked cross-entropy: the 16-bit logits plus one chunk's work */
};

/* workload.compile: torch.compile of the model's layers. Compiled (Inductor's min-cut
 * partitioner recomputes pointwise ops in the backward) the layer keeps what gpuplan's
 * fused-kernel count says; eager PyTorch layer code keeps more (act_eager_token in
 * plan_memory.c). Only frameworks whose layers are plain PyTorch modules (eager_layers)
 * are affected; Megatron's and llm.c's kernels are fused either way. */
enum compile_mode { COMPILE_AUTO, COMPILE_ON, COMPILE_OFF };

/* workload.grad_lifetime: when the gradients exist. */
enum grad_lifetime {
	GRADS_AUTO,
	GRADS_STEP,	/* a buffer that lives through the step (Megatron's main_grad buffer,
			 * DeepSpeed's partitions): counted beside the activations */
	GRADS_BACKWARD, /* allocated in the backward as the activations are freed, dropped by
			 * zero_grad(set_to_none=True) after the step: the peak is the larger of
			 * the two (without gradient accumulation) */
	GRADS_FUSED,	/* optimizer step fused into the backward (torchtune optimizer_in_bwd):
			 * each gradient is freed by its parameter's hook, one tensor at a time */
};

/* workload.fp8_scope: what fp8 training (workload.precision fp8) runs in fp8. */
enum fp8_scope {
	FP8_AUTO,
	FP8_LINEAR, /* the linear layers only: Transformer Engine's fp8_autocast over its
		     * Linear/LayerNormLinear/LayerNormMLP modules, torchao's Float8Linear;
		     * attention, norms, the embedding and the output layer stay bf16 */
	FP8_ALL,    /* every GEMM and the attention core at the fp8 peak (the papers'
		     * default, gpuplan's behaviour before frameworks) */
};

/* parallel.reshard_after_forward: whether a fully sharded (ZeRO-3, FSDP) model frees its
 * gathered parameters after each layer's forward (torchtitan fsdp_reshard_after_forward:
 * default | always | never). */
enum reshard { RESHARD_AUTO, RESHARD_ALWAYS, RESHARD_NEVER };

/* parallel.tp_comm_overlap, overlap_grad_reduce, overlap_param_gather: whether a
 * collective runs on a side stream behind compute (on) or between the kernels that need it
 * (off). OVERLAP_PAPER and OVERLAP_ZERO3 are only framework rows' values: the papers'
 * accounting (ZeRO-1/2's reduce-scatter and all-gather counted as one all-reduce behind the
 * last backward, Rajbhandari et al. 2020 Section 7) and "on at ZeRO stage 3 only"
 * (DeepSpeed's overlap_comm). */
enum overlap { OVERLAP_AUTO, OVERLAP_ON, OVERLAP_OFF, OVERLAP_PAPER, OVERLAP_ZERO3 };

/* The collectives framework_overlap resolves. */
enum overlap_kind {
	OVERLAP_TP,    /* tensor-parallel all-gathers and reduce-scatters with the GEMMs */
	OVERLAP_GRAD,  /* the data-parallel gradient all-reduce / reduce-scatter */
	OVERLAP_PARAM, /* ZeRO-1/2's parameter all-gather after the step; ZeRO-3's prefetch */
};

/* How a serving framework sizes its KV cache. */
enum kv_rule {
	KV_RULE_FIT,	  /* gpuplan's: as many sequences as fit, with allocator slack */
	KV_RULE_FRACTION, /* vLLM: fraction x total - peak torch memory - non-torch memory */
	KV_RULE_STATIC,	  /* SGLang: fraction x total holds the weights and the pool */
	KV_RULE_FREE,	  /* TensorRT-LLM: fraction of what is free after the engine loads */
};

/* workload.scheduler: how a serving engine puts prompts and decodes into its steps. */
enum scheduler {
	SCHED_ALONE,	     /* gpuplan's decode step of the batch alone (no prompts join) */
	SCHED_AUTO,	     /* the framework's (framework_serving) */
	SCHED_PREFILL_FIRST, /* prompts run as their own passes, stalling the decodes (vLLM v0,
			      * SGLang's default scheduler) */
	SCHED_CHUNKED,	     /* prompts join the decode step in chunks under a token budget
			      * (Sarathi-Serve; vLLM V1, TensorRT-LLM in-flight batching) */
	SCHED_STATIC,	     /* a static batch: all requests start together, none joins until
			      * all finish (LMDeploy's benchmark, HF generate) */
	SCHED_DISAGG,	     /* prefill and decode on separate engines, the prompt's KV sent
			      * between them (DistServe, Splitwise, Dynamo, SGLang PD) */
	SCHED_COUNT
};

/* The decode kernels a serving framework runs (workload.engine auto resolves to them). */
enum fw_kernels {
	FW_KERNELS_GPU,	     /* none of its own: the GPU's common engine (plan_engine) */
	FW_KERNELS_LLAMACPP, /* llama.cpp's matrix-vector kernels, launched per layer */
	FW_KERNELS_GRAPHS,   /* a captured CUDA graph per decode step, fused dequantising GEMMs */
};

/* How a framework reduces gradients under ZeRO 2 or 3, and so which whole (unsharded)
 * gradients exist before their reduce-scatter (plan_memory.c). */
enum grad_reduce {
	GRAD_REDUCE_PAPER,  /* none counted (the ZeRO paper's partitioned gradients) */
	GRAD_REDUCE_UNIT,   /* per fully_shard unit (FSDP2's foreach_reduce): a block's */
	GRAD_REDUCE_BUCKET, /* into a flat bucket of reduce_bucket_size (DeepSpeed) */
};

/* Whose BLAS workspaces a framework keeps on the GPU (framework_blas_workspace). */
enum blas_workspace {
	BLAS_WS_NONE,  /* none counted (the papers' default: in its CUDA context figure) */
	BLAS_WS_TORCH, /* PyTorch's per-handle, per-stream cuBLAS workspaces, from the
			* caching allocator */
	BLAS_WS_LLMC,  /* one 32 MiB cuBLASLt workspace, cudaMalloc'd */
};

/* A field value a framework has no way to run: its code or docs offer no such choice (issue
 * 12, Bad input: "a field that contradicts the framework is a warning that names both").
 * scenario_ignored_fields warns at the field, naming the field, its value and the
 * framework: "framework NAME LACKS (SOURCE): KEY VALUE is planned as written". Where the
 * framework cannot run the workload at all it is an error instead (framework_conflicts,
 * the layout rules). */
struct value_gap {
	const char *key;    /* the field, "workload.optimizer"; NULL ends a row's list */
	const char *value;  /* its value as scenario files write it, "adam8bit" */
	const char *lacks;  /* what the framework lacks, "has no 8-bit AdamW" */
	const char *source; /* where its choices are: a file of its repository and the option */
};

struct framework_info {
	const char *title;	 /* for people: "PyTorch FSDP2 (torchtitan)" */
	const char *serve_title; /* the same for online and offline workloads; NULL: title */
	/* the enum-field values it has no way to run, NULL-key terminated; NULL: none */
	const struct value_gap *gaps;
	bool trains;   /* runs train and finetune workloads */
	bool serves;   /* runs online and offline workloads */
	bool pipeline; /* has pipeline parallelism */
	bool zero;     /* shards optimizer states / gradients / parameters (ZeRO, FSDP) */
	enum master_weights master;
	enum optimizer_states states;
	/* workload.grad_dtype auto: the dtype its gradients are accumulated, reduced and
	 * held in under bf16 training (the scenario's explicit value overrides it) */
	enum dtype grad_dtype;
	enum loss loss;
	bool loss_apart;	/* the loss's buffers are freed before the first layer's backward
				 * rebuilds it (true of every framework; the paper default sums them) */
	bool loss_parallel;	/* under tp the head is a DTensor ColwiseParallel with
				 * vocabulary-sharded logits and loss_parallel cross-entropy
				 * (torchtitan; plan_memory.c loss_bytes_token) */
	double reserved_slack;	/* caching allocator: reserved / allocated - 1 at the peak */
	double non_torch_bytes; /* CUDA context, NCCL, libraries: outside the allocator */
	enum kv_rule kv_rule;
	double mem_fraction; /* KV_RULE_FRACTION: of total memory */
	double kv_block_tokens;
	int loss_chunks;   /* LOSS_CHUNKED: chunks of the sequence */
	bool eager_layers; /* the layers are plain PyTorch modules (torchtune, transformers):
			    * without compile they keep the eager extras */
	enum compile_mode compile;	  /* its configs' default */
	enum grad_lifetime grad_lifetime; /* GRADS_AUTO is GRADS_STEP */
	bool fp8_te; /* fp8 training through Transformer Engine: cached fp8 weight copies and
		      * linear inputs saved in fp8 (plan_memory.c) */
	enum grad_reduce grad_reduce; /* under ZeRO 2/3 (plan_memory.c) */
	bool fp8_ao; /* fp8 training through torchao's Float8Linear, tensorwise: each linear's
		      * input and weight casts saved, the casts of one backward (plan_memory.c) */
	/* serving under load (workload.scheduler auto, max_batched_tokens, max_running) */
	enum scheduler scheduler; /* SCHED_ALONE where the framework does not serve (the
				   * default framework's: framework_serving) */
	int max_batched_tokens;	  /* tokens one step may carry; 0 = unlimited */
	int max_running;	  /* most running requests; 0 = as many as the KV cache holds */
	enum fw_kernels kernels;  /* its decode kernels (workload.engine auto) */
	bool kv_load_layerwise;	  /* a host-held prefix loads layer by layer under the
				   * prefill (SGLang HiCache), not before it */
	bool overlap_schedule;	  /* the scheduler launches the next batch before it
				   * takes the last one's results (SGLang) */
	const char *source;	  /* where the defaults come from, one line */
	const char *serve_source; /* the same for online and offline workloads; NULL: source */
	/* the BLAS workspaces it keeps on the GPU (framework_blas_workspace) */
	enum blas_workspace blas;
	/* communication overlapped with compute (plan_train.c, overlap_s), each overridden by
	 * its field (parallel.tp_comm_overlap, overlap_grad_reduce, overlap_param_gather,
	 * efficiency.overlap) */
	enum overlap tp_overlap;    /* TP collectives pipelined with the GEMMs */
	enum overlap grad_overlap;  /* gradient reduction behind the backward */
	enum overlap param_overlap; /* parameter all-gathers prefetched behind compute */
	int tp_overlap_chunks;	    /* chunks an overlapped TP GEMM is split into; 0 = tp */
	double overlap_speed;	    /* compute speed while overlapped comm runs, of alone;
				     * 0 = 1 (no contention) */
	/* h-sized elements a layer's elementwise kernels read and write per token, a forward
	 * pass and the backward (plan_train.c); 0 = the model's ELT_H and twice it */
	double elt_h_fwd, elt_h_bwd;
};

/* The row of f; the default row for an out-of-range value. */
const struct framework_info *framework_get(int f);

/* The title of f for the workload, as the report's header and explain give it: its
 * serve_title when serving is true and it has one. The default framework serves as the
 * engine most users of the GPU run (framework_serving), so its serving title names that
 * engine: vLLM V1's scheduler where graphs (a CUDA-graph engine), else one llama.cpp slot. */
const char *framework_title(int f, bool serving, bool graphs);

/* The data-parallel implementation f runs at ZeRO stage zero (0 to 3, above 3 as 3), where
 * the stage names one (Megatron-LM's: DDP, the distributed optimizer, Megatron-FSDP); NULL
 * for the other frameworks and for zero < 0. A static string. */
const char *framework_dp_title(int f, int zero);

/* The i-th value f has no way to run (struct value_gap), NULL past the last. */
const struct value_gap *framework_value_gap(int f, int i);

/* Where f's defaults for the workload come from (its serve_source when serving is true and
 * it has one, else its source). */
const char *framework_source(int f, bool serving);

/* The token budget of one step under f's defaults on a GPU of hbm_bytes: SGLang sizes its
 * chunked_prefill_size by the GPU's memory; the others are the row's. */
int framework_max_batched_tokens(int f, double hbm_bytes);

/* The largest decode batch f replays as a captured CUDA graph on a GPU of hbm_bytes; a
 * larger one runs eagerly, its kernels launched one by one from Python (SGLang's
 * cuda_graph_max_bs). 0: every batch (the others' rows). */
int framework_graph_max_bs(int f, double hbm_bytes);

/* Whether f's layers run as eager PyTorch code under workload.compile c (COMPILE_AUTO:
 * the framework's configs). */
bool framework_eager(int f, enum compile_mode c);

/* Whether f's layers are torch.compile'd under workload.compile c: on, or auto where f's
 * configs turn it on (torchtitan's training.compile is false by default, so auto is off
 * for every framework that sets no default). Under compile AOTAutograd's partitioner,
 * not eager PyTorch, decides what a checkpointed layer saves (plan_memory.c
 * act_op_unread_token). */
bool framework_compiled(int f, enum compile_mode c);

/* When the gradients exist under f with workload.grad_lifetime g (GRADS_AUTO: the
 * framework's; GRADS_STEP where it has none). */
enum grad_lifetime framework_grads(int f, enum grad_lifetime g);

/* The ZeRO stage f trains at under parallel.zero zero (ZERO_AUTO: the framework's; an
 * explicit 0..3 wins) over dp data-parallel ranks (0: not known yet, as above 1). Every
 * reader of parallel.zero goes through it. */
int framework_zero(int f, int zero, int ranks);

/* What fp8 training converts under f with workload.fp8_scope g (FP8_AUTO: the linear
 * layers for a named framework, everything for FW_DEFAULT, as before frameworks). */
enum fp8_scope framework_fp8_scope(int f, enum fp8_scope g);

/* The memory fraction f's KV rule takes at tensor-parallel size tp: SGLang's
 * mem_fraction_static falls with tp; the others' are the row's. */
double framework_mem_fraction(int f, int tp);

/* Whether f, fully sharded over pp pipeline stages, keeps the stage's gathered parameters
 * from the forward to the backward (parallel.reshard_after_forward r: never, or auto under
 * FSDP with a pipeline), and whether its pipeline backwards run without gradient sync
 * until the last micro-batch (FSDP under a pipeline: torch/distributed/pipelining/
 * stage.py backward_maybe_with_nosync). */
bool framework_keeps_gathered(int f, int pp, enum reshard r);
bool framework_nosync_pipeline(int f, int pp);

/* A layout a training framework cannot run, one rule of the table framework_layout_rule
 * reads: search proposes only layouts that break none (framework_runs_layout), and
 * scenario_validate refuses each that a scenario breaks, at key, with the message
 * "framework NAME HEAD SETTINGS-or-(SETTINGS; ...)" that scenario.c's framework_conflicts
 * writes from these parts. */
enum layout_break {
	LAYOUT_PP,	/* pp > 1 */
	LAYOUT_TP,	/* tp > 1 */
	LAYOUT_OFFLOAD, /* an offload */
	LAYOUT_ZERO_PP	/* ZeRO-2 or -3 with pp > 1 */
};
struct layout_rule {
	int framework;		/* FW_*; FW_COUNT: every framework without a pipeline */
	enum layout_break kind; /* what breaks it */
	const char *key;	/* the field the error points at */
	const char *head;	/* what the framework lacks ("has no tensor parallelism") */
	const char *why;	/* the reason, after the settings; NULL: none */
	const char *expected;	/* what is accepted; NULL: pp 1, or a pipelining framework */
};

/* The first rule at index from or later that framework f breaks with a layout of tp, pp,
 * ZeRO stage zero and an offload (offload: any but none), its index; -1 when none. */
int framework_layout_rule(int from, int f, int tp, int pp, int zero, bool offload);
const struct layout_rule *framework_layout_rule_at(int i);

/* Whether training framework f runs such a layout: it breaks no rule. */
bool framework_runs_layout(int f, int tp, int pp, int zero, bool offload);

/* The bytes of BLAS workspace f keeps on a GPU of this catalog id and vendor: training
 * runs its backward on a second cuBLAS handle; lt: cuBLASLt GEMMs run (fp8 scaled_mm,
 * bias epilogues), with their own workspace. */
double framework_blas_workspace(int f, const char *gpu_id, const char *vendor, bool training,
				bool lt);
/* Whether f overlaps collective k at ZeRO stage zero, under the field's value o
 * (OVERLAP_AUTO: the framework's): OVERLAP_ON, OVERLAP_OFF, or for OVERLAP_PARAM of the
 * default framework at ZeRO-1/2, OVERLAP_PAPER. */
enum overlap framework_overlap(int f, enum overlap_kind k, enum overlap o, int zero);

/* SMs an overlapped collective holds from the GEMMs beside it (framework.c). */
#define OVERLAP_COMM_SMS 16

/* Compute speed, of alone, while overlapped communication runs under f (efficiency.overlap
 * e; 0 = the framework's) on a GPU of sms streaming multiprocessors (0 = not known): a
 * framework with contention keeps (sms - OVERLAP_COMM_SMS) / sms of the SMs for its GEMMs,
 * or the measured average where the count is not known. */
double framework_overlap_speed(int f, double e, int sms);

/* All four at once, for the hot path: the TP, gradient and parameter overlaps under the
 * fields tp, grad and param at ZeRO stage zero, and the speed under e on sms SMs. */
void framework_overlaps(int f, enum overlap tp, enum overlap grad, enum overlap param, int zero,
			double e, int sms, enum overlap out[3], double *speed);

/* The framework's name ("fsdp"); "default" for FW_DEFAULT. */
const char *framework_name(int f);

/* A scheduler's name as workload.scheduler takes it ("chunked"), and the policy it stands
 * for as the reports write it ("chunked prefill (Sarathi-Serve; vLLM V1)"); "?" for a
 * value outside enum scheduler. Static strings. */
const char *scheduler_name(int sched);
/* The serving engine a plan runs under load (serve_config in the serving code): its
 * scheduler, the tokens one step may carry (0: unlimited) and the most running requests (0:
 * as many as the KV cache holds). */
struct serving_engine {
	enum scheduler sched;
	int max_batched_tokens;
	int max_running;
};
/* The engine framework f runs under workload.scheduler set, for an offline job (offline) or
 * an online service, with kernels of a CUDA-graph engine (graphs) on a GPU of hbm_bytes and
 * catalog id gpu_id. The default framework serves as the engine most users of the GPU run:
 * vLLM V1 on a CUDA-graph (datacenter) GPU, a lone llama.cpp slot on the others; vllm takes
 * its budget and cap from vLLM's defaults for the GPU and the usage context
 * (framework_vllm_batch). The fields (workload.max_batched_tokens, max_running) override
 * them in the caller. */
void framework_serving(int f, enum scheduler set, bool graphs, bool offline, double hbm_bytes,
		       const char *gpu_id, struct serving_engine *o);
/* vLLM's default max_num_batched_tokens and max_num_seqs on a GPU of hbm_bytes and catalog
 * id gpu_id, for the offline LLM class (offline) or the OpenAI API server. */
void framework_vllm_batch(bool offline, double hbm_bytes, const char *gpu_id, int *tokens,
			  int *seqs);
/* workload.scheduler_steps as the plan applies it: the decode steps one scheduling runs
 * (set > 0: itself; auto: framework f's, 1 for every framework). */
int framework_scheduler_steps(int f, int set);
const char *scheduler_policy(int sched);

#endif
