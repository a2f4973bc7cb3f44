/* framework.c - the framework table: one row per framework, each default with its source. */
#include "framework.h"

#include <string.h>

/* PyTorch's caching allocator in training: reserved over allocated at the peak. GMLake (Guo
 * et al., ASPLOS 2024, Figure 2) measures 10-30% fragmentation in LLM training with
 * recomputation and sharding; 0.15 is taken from inside that range. The one training row
 * that reports reserved bytes (torchtitan Llama 3.1 8B FSDP2, 82.4 GiB max_reserved:
 * pytorch/torchtitan benchmarks/llama3_h100_202412_torchtitan.md, row torchtitan-8b-fsdp2
 * of tests/validation/framework-memory.yaml; tests/unit/test_framework.c) implied 0.148
 * with bf16 gradients and implies 0.119 now that FSDP2's sharded gradients are counted in
 * their fp32 parameters' dtype: both inside GMLake's range, so 0.15 stays, not refitted;
 * refit by setting this to reserved / (gpuplan's memory.per_gpu.allocated) - 1 for such
 * measured rows. */
#define TORCH_TRAIN_SLACK 0.15

/* CUDA context and kernel images outside the allocator: plan_memory.c's CUDA_CONTEXT_BYTES
 * (PyTorch issue 20532: 0.3-1 GB). PyTorch's cuBLAS workspaces come from its caching
 * allocator (framework_blas_workspace), so they are not in this figure. */
#define TORCH_CONTEXT 0.75e9

/* vLLM's start-up profile on an RTX 3090 (vllm-project/vllm issue #10517, a user's start-up
 * log; row vllm-3090-kv of tests/validation/kv-budget.yaml):
 * non_torch_memory = 0.35 GiB (CUDA context, NCCL, cuBLAS outside PyTorch). */
#define VLLM_NON_TORCH (0.35 * 1073741824.0)

/* Compute while overlapped collectives run. The collective's kernels hold SMs the GEMMs
 * beside it then lack: Transformer Engine's userbuffers run their pipelined and bulk
 * overlaps (Megatron --tp-comm-overlap) on num_sm = 16 SMs and launch the GEMM on the
 * others (transformer_engine/pytorch/module/base.py, initialize_ub get_default_config,
 * set_sm_margin); NCCL runs one CTA, one SM, a channel, and its ring search stops at
 * MAXCHANNELS / 2 = 16 (src/init.cc, ringGraph->maxChannels; NCCL_MAX_NCHANNELS lowers
 * it, and PCIe topologies find fewer rings). So a GEMM keeps (sms - 16) / sms of the GPU
 * (framework.h OVERLAP_COMM_SMS, sms from catalog/gpus.yaml): 0.879 on an H100 SXM's 132
 * SMs, 0.852 on an A100's 108. Lee et al., "Characterizing Compute-Communication Overlap
 * in GPU-Accelerated Distributed Deep Learning: Performance and Power Implications"
 * (arXiv 2507.03114, 2025) measure an average computational slowdown of 18.9% (at most
 * 40%) for GPT and Llama layers overlapped with their collectives on 4 x A100, H100, MI250
 * and MI210: speed 1 / 1.189, which the SM share (a GEMM 14% slower on an H100, 17% on an
 * A100) nearly accounts for, the rest being HBM shared with the collective; it stands for
 * a GPU whose SM count is not known. Published figures, not fitted; efficiency.overlap
 * overrides both. */
#define OVERLAP_SPEED (1 / 1.189)

/* As scenario files write them: workload.framework's choices (src/scenario.c). */
const char *const framework_names[FW_COUNT + 1] = {
    [FW_DEFAULT] = "default",
    [FW_MEGATRON] = "megatron",
    [FW_FSDP] = "fsdp",
    [FW_DEEPSPEED] = "deepspeed",
    [FW_HF] = "hf",
    [FW_TORCHTUNE] = "torchtune",
    [FW_LLMC] = "llm.c",
    [FW_VLLM] = "vllm",
    [FW_SGLANG] = "sglang",
    [FW_TRTLLM] = "trt-llm",
    [FW_LLAMACPP] = "llama.cpp",
    [FW_COUNT] = NULL,
};

/* The field values each framework has no way to run (struct value_gap), each with the file
 * of the framework's repository that lists its choices. A value not listed is taken as one
 * the framework runs; only what its code shows it lacks is here. */

/* NVIDIA/Megatron-LM (read at d98e8a64dd):
 * - megatron/training/arguments.py --optimizer: choices adam, sgd (and muon, lion, soap in
 *   later versions), no bitsandbytes 8-bit AdamW; optimizer states in lower precision only
 *   through --use-precision-aware-optimizer (--exp-avg-dtype / --exp-avg-sq-dtype fp32,
 *   fp16, bf16, fp8) and no paged (CUDA managed memory) states: --optimizer-cpu-offload
 *   offloads them (parallel.offload); the main params are fp32 or fp16
 *   (--main-params-dtype), never dropped;
 * - megatron/core/transformer/transformer_config.py recompute_granularity: full |
 *   selective (recompute_modules, default core_attn): no PyTorch per-op policy;
 * - megatron/core/models/common/language_module/language_module.py
 *   compute_language_model_loss: vocab_parallel_cross_entropy, or the fused native / TE
 *   kernel, over the whole logits: no chunked loss.
 * Its --torch-fsdp2-no-reshard-after-forward (arguments.py) runs
 * parallel.reshard_after_forward never, so that is no gap. */
static const struct value_gap megatron_gaps[] = {
    {"workload.optimizer", "adam8bit", "has no 8-bit AdamW",
     "megatron/training/arguments.py --optimizer: adam, sgd"},
    {"workload.optimizer_states", "paged", "has no paged optimizer states",
     "megatron/training/arguments.py: --use-precision-aware-optimizer --exp-avg-dtype "
     "fp32|fp16|bf16|fp8, --optimizer-cpu-offload"},
    {"workload.master_weights", "none", "always keeps main params",
     "megatron/training/arguments.py --main-params-dtype: fp32, fp16"},
    {"workload.recompute", "op", "has no per-op selective checkpointing",
     "megatron/core/transformer/transformer_config.py recompute_granularity: full, "
     "selective"},
    {"workload.loss", "chunked", "has no chunked cross-entropy",
     "megatron/core/models/common/language_module/language_module.py "
     "compute_language_model_loss: vocab_parallel_cross_entropy over the whole logits"},
    {NULL, NULL, NULL, NULL},
};

/* DeepSpeed's ZeRO-3 releases each gathered parameter after its module's forward and
 * regathers it for the backward (deepspeed/runtime/zero/partitioned_param_coordinator.py
 * release_sub_module); its config (deepspeed/runtime/zero/config.py DeepSpeedZeroConfig)
 * has no reshard_after_forward: only parameters under stage3_param_persistence_threshold
 * elements stay gathered. */
static const struct value_gap deepspeed_gaps[] = {
    {"parallel.reshard_after_forward", "never", "has no reshard_after_forward",
     "deepspeed/runtime/zero/config.py: ZeRO-3 releases gathered parameters after use; "
     "only those under stage3_param_persistence_threshold stay"},
    {NULL, NULL, NULL, NULL},
};

/* karpathy/llm.c: train_gpt2.cu's flags (its usage text): -r recompute 0|1|2 = none,
 * gelu, gelu+ln (gpuplan's selective), -w keeps the fp32 master copy or not; gpt2_update
 * runs AdamW only (llmc/adamw.cuh adamw_update) with m and v as float buffers
 * (GPT2.m_memory, v_memory), cudaMalloc'd on the GPU. */
static const struct value_gap llmc_gaps[] = {
    {"workload.optimizer", "adam8bit", "has no 8-bit AdamW",
     "train_gpt2.cu gpt2_update: AdamW, llmc/adamw.cuh"},
    {"workload.optimizer", "sgd", "has no SGD", "train_gpt2.cu gpt2_update: AdamW, llmc/adamw.cuh"},
    {"workload.optimizer_states", "bf16", "has no bf16 optimizer states",
     "train_gpt2.cu: AdamW m_memory, v_memory are float"},
    {"workload.optimizer_states", "paged", "has no paged optimizer states",
     "train_gpt2.cu: AdamW m_memory, v_memory cudaMalloc'd on the GPU"},
    {"workload.recompute", "full", "has no full recomputation",
     "train_gpt2.cu -r: 0|1|2 = none, gelu, gelu+ln"},
    {"workload.recompute", "op", "has no per-op selective checkpointing",
     "train_gpt2.cu -r: 0|1|2 = none, gelu, gelu+ln"},
    {"workload.recompute", "attention", "has no attention checkpointing",
     "train_gpt2.cu -r: 0|1|2 = none, gelu, gelu+ln"},
    {NULL, NULL, NULL, NULL},
};

/* llama.cpp's weights are GGUF tensors of ggml's types (ggml/include/ggml.h enum
 * ggml_type: F32, F16, BF16, Q4_0 ... Q8_0, the K- and IQ-quants, MXFP4, NVFP4): no FP8
 * type; Q8_0 (int8 with an fp16 scale a block of 32, 8.5 bits a weight) is the nearest. */
static const struct value_gap llamacpp_gaps[] = {
    {"workload.weights", "fp8", "has no fp8 weights",
     "ggml/include/ggml.h enum ggml_type: no FP8 type, Q8_0 is the nearest"},
    {NULL, NULL, NULL, NULL},
};

/* The default framework's serving title on a GPU without CUDA graphs (framework_serving:
 * one llama-server slot). */
#define DEFAULT_SERVE_LLAMACPP                                                                     \
	"gpuplan's engine: llama.cpp kernels, one llama-server slot, weights + KV with 5% "        \
	"slack (scenarios/seed_cases.md case 16)"

static const struct framework_info table[FW_COUNT] = {
    [FW_DEFAULT] = {.title = "the papers' mixed precision (Megatron-LM / DeepSpeed; gpuplan's "
			     "inference engine)",
		    /* serving: the engine most users of a CUDA-graph GPU run
		     * (framework_serving), the KV cache of every sequence that fits with the
		     * allocator's slack (seed case 16's rule) */
		    .serve_title = "gpuplan's engine: vLLM V1's scheduler, weights + KV with 5% "
				   "slack (scenarios/seed_cases.md case 16); workload.framework "
				   "vllm for vLLM's block rule",
		    .trains = true,
		    .serves = true,
		    .pipeline = true,
		    .zero = true,
		    .master = MASTER_FP32,
		    .states = STATES_FP32,
		    /* ZeRO Section 5's 16-bit gradients, 2 bytes a parameter */
		    .grad_dtype = DTYPE_BF16,
		    .loss = LOSS_PAPER,
		    .reserved_slack = 0.05, /* PLAN_FRAGMENTATION */
		    .non_torch_bytes = TORCH_CONTEXT,
		    .kv_rule = KV_RULE_FIT,
		    .source = "ZeRO (Rajbhandari et al. 2020) Section 5; Korthikanti et al. 2023",
		    /* serving: the KV cache of every sequence that fits beside the weights
		     * (kv_rule FIT), with the caching allocator's slack */
		    .serve_source = "KV cache per token 2 x layers x kv_heads x head_dim x bytes "
				    "(Pope et al. 2022, Efficiently Scaling Transformer Inference, "
				    "Section 2); the batch is what the "
				    "cache leaves room for (Kwon et al. 2023, PagedAttention, "
				    "Section 4); allocator slack: PyTorch CUDACachingAllocator",
		    /* the papers' idealised overlap, as plan_time_int.h's constants were calibrated
		     * on (Megatron-LM Table 1, MosaicML): TP all-reduces between the GEMMs,
		     * the gradient reduction hidden behind the last backward (DP_OVERLAP),
		     * ZeRO-3's gathers prefetched, no contention */
		    .tp_overlap = OVERLAP_OFF,
		    .grad_overlap = OVERLAP_ON,
		    .param_overlap = OVERLAP_PAPER},
    /* Megatron-LM: fp32 main params and Adam states in the (distributed) optimizer,
     * megatron/core/optimizer/distrib_optimizer.py; the loss is
     * vocab_parallel_cross_entropy in fp32 on the tp-split logits,
     * megatron/core/tensor_parallel/cross_entropy.py (Korthikanti's 4 s b V / t). */
    [FW_MEGATRON] = {.title = "Megatron-LM / NeMo / Megatron-Core",
		     .gaps = megatron_gaps,
		     .trains = true,
		     .pipeline = true,
		     .zero = true,
		     .master = MASTER_FP32,
		     .states = STATES_FP32,
		     /* fp32 main_grad: validate_args forces accumulate_allreduce_grads_in_fp32
		      * under bf16 (megatron/training/arguments.py), and DDP's buffer has
		      * grad_dtype = torch.float if grad_reduce_in_fp32 (megatron/core/
		      * distributed/distributed_data_parallel.py; param_and_grad_buffer.py holds
		      * it for every local parameter, reduce-scattered in place under the
		      * distributed optimizer); Megatron-FSDP takes main_grads_dtype fp32 when
		      * grad_reduce_in_fp32 (megatron/core/distributed/fsdp,
		      * build_fully_shard_mixed_precision_policy) */
		     .grad_dtype = DTYPE_FP32,
		     .loss = LOSS_PAPER,
		     .loss_apart = true,
		     .reserved_slack = TORCH_TRAIN_SLACK,
		     .non_torch_bytes = TORCH_CONTEXT,
		     /* fp8 through Transformer Engine (megatron/core/extensions/
		      * transformer_engine.py): TE's modules keep each weight's fp8 cast and
		      * its transpose across the micro-batches of a step (transformer_engine/
		      * pytorch/module/base.py, get_weight_workspace with is_first_microbatch)
		      * and save their GEMM inputs in fp8 for the backward (layernorm_linear.py
		      * saves ln_out, layernorm_mlp.py the activation's output, as fp8) */
		     .fp8_te = true,
		     .source = "megatron/core/optimizer/distrib_optimizer.py; "
			       "megatron/core/tensor_parallel/cross_entropy.py",
		     .blas = BLAS_WS_TORCH,
		     /* Megatron-Core's defaults: tp_comm_overlap = False
		      * (megatron/core/model_parallel_config.py; with it Transformer Engine's
		      * userbuffers pipeline the sequence-parallel all-gathers and
		      * reduce-scatters with the linear layers' GEMMs, 4 splits for the
		      * pipelined reduce-scatters: transformer_engine/pytorch/module/base.py
		      * get_default_config num_splits), overlap_grad_reduce = False and
		      * overlap_param_gather = False (megatron/core/distributed/
		      * distributed_data_parallel_config.py; megatron/training/arguments.py
		      * --overlap-grad-reduce, --overlap-param-gather): the reduction runs
		      * after the backward (finalize_model_grads), the distributed optimizer's
		      * all-gather after its step. NeMo's recipes set them: the fields do. */
		     .tp_overlap = OVERLAP_OFF,
		     .grad_overlap = OVERLAP_OFF,
		     .param_overlap = OVERLAP_OFF,
		     .tp_overlap_chunks = 4,
		     .overlap_speed = OVERLAP_SPEED},
    /* torchtitan: FSDP2 MixedPrecisionPolicy(param_dtype=bf16, reduce_dtype=fp32) keeps the
     * sharded parameters (the master) and AdamW states in fp32
     * (torchtitan/parallelisms/parallelize_llama.py, apply_fsdp; train_configs/
     * llama3_8b.toml mixed_precision_param = "bfloat16"); the loss upcasts the whole
     * logits, cross_entropy(pred.flatten(0, 1).float(), labels) (torchtitan/train.py). */
    [FW_FSDP] = {.title = "PyTorch FSDP2 (torchtitan)",
		 .trains = true,
		 .pipeline = true,
		 .zero = true,
		 .master = MASTER_FP32,
		 .states = STATES_FP32,
		 /* FSDP2 reduces in reduce_dtype fp32 and keeps the sharded gradient in the
		  * sharded parameter's dtype, fp32 (torch/distributed/fsdp/_fully_shard/
		  * _fsdp_collectives.py foreach_reduce) */
		 .grad_dtype = DTYPE_FP32,
		 .loss = LOSS_FP32,
		 .loss_apart = true,
		 /* with tp > 1: parallel_dims.py loss_parallel_enabled (tp > 1 and not
		  * training.disable_loss_parallel, default False); apply_tp makes the
		  * output ColwiseParallel(input_layouts=Shard(1), output_layouts=Shard(-1),
		  * use_local_output=False), train.py runs the loss under loss_parallel() */
		 .loss_parallel = true,
		 .reserved_slack = TORCH_TRAIN_SLACK,
		 .non_torch_bytes = TORCH_CONTEXT,
		 /* fp8: torchtitan's float8 converter swaps nn.Linear for torchao's
		  * Float8Linear, tensorwise dynamic scaling (torchtitan/float8.py
		  * Float8Handler; torchao/float8/float8_linear.py) */
		 .fp8_ao = true,
		 /* each fully_shard unit (a transformer block; the root holds the
		  * embedding, final norm and head) reduce-scatters its own gradients in its
		  * post-backward (torch/distributed/fsdp/_fully_shard/_fsdp_param_group.py
		  * post_backward, _fsdp_collectives.py foreach_reduce) */
		 .grad_reduce = GRAD_REDUCE_UNIT,
		 .source = "torchtitan/parallelisms/parallelize_llama.py; torchtitan/train.py",
		 .blas = BLAS_WS_TORCH,
		 /* FSDP2 all-gathers on its own stream "overlapping next all-gather with
		  * current forward compute" and reduce-scatters on another in the post-backward
		  * (torch/distributed/fsdp/_fully_shard/_fsdp_param_group.py, FSDPCommContext
		  * lazy_init; DDP, data_parallel_replicate, overlaps its buckets too);
		  * AsyncTP is off: CompileConfig enable_async_tensor_parallel = False
		  * (torchtitan/config/configs.py); on, Inductor's micro-pipeline pass splits each
		  * TP matmul into one chunk per rank (torchtitan/distributed/compile.py
		  * _maybe_enable_async_tp, torch._inductor.config._micro_pipeline_tp) */
		 .tp_overlap = OVERLAP_OFF,
		 .grad_overlap = OVERLAP_ON,
		 .param_overlap = OVERLAP_ON,
		 .overlap_speed = OVERLAP_SPEED},
    /* DeepSpeed: fp32 partitions of the parameters and Adam states
     * (deepspeed/runtime/zero/stage_1_and_2.py, single_partition_of_fp32_groups); the
     * model is usually a transformers one, whose loss upcasts the logits. */
    [FW_DEEPSPEED] = {.title = "DeepSpeed",
		      .gaps = deepspeed_gaps,
		      .trains = true,
		      .pipeline = true,
		      .zero = true,
		      .master = MASTER_FP32,
		      .states = STATES_FP32,
		      /* ZeRO-1/2/3 under bf16 keep their gradient partitions in the model's
		       * 16-bit dtype (stage_1_and_2.py averaged_gradients; data_types.
		       * grad_accum_dtype unset), as the ZeRO paper counts them; BF16_Optimizer's
		       * fp32 partitions (bf16_optimizer.py) are the field's fp32 */
		      .grad_dtype = DTYPE_BF16,
		      .loss = LOSS_FP32,
		      .loss_apart = true,
		      .reserved_slack = TORCH_TRAIN_SLACK,
		      .non_torch_bytes = TORCH_CONTEXT,
		      /* ZeRO-2/3 copy each gradient into a flat bucket of reduce_bucket_size
		       * (5e8) elements under contiguous_gradients (default True): stage 2's
		       * ipg_buffer, a second one with overlap_comm (stage_1_and_2.py), stage
		       * 3's __ipg_bucket_flat_buffer (stage3.py) */
		      .grad_reduce = GRAD_REDUCE_BUCKET,
		      .source = "deepspeed/runtime/zero/stage_1_and_2.py",
		      .blas = BLAS_WS_TORCH,
		      /* overlap_comm: None, resolved to stage == 3 (deepspeed/runtime/zero/
		       * config.py, overlap_comm_valid): ZeRO-1/2 reduce their buckets on the
		       * compute stream, stage 0 all-reduces after the backward; ZeRO-1/2
		       * all-gather the updated partitions after the step (stage_1_and_2.py step,
		       * all_gather_dp_groups); ZeRO-3 prefetches stage3_prefetch_bucket_size
		       * = 5e7 parameters ahead (config.py); no TP overlap */
		      .tp_overlap = OVERLAP_OFF,
		      .grad_overlap = OVERLAP_ZERO3,
		      .param_overlap = OVERLAP_ZERO3,
		      .overlap_speed = OVERLAP_SPEED},
    /* Hugging Face Trainer: torch AdamW on fp32 parameters under autocast, and
     * LlamaForCausalLM's logits.float() before CrossEntropyLoss
     * (transformers/models/llama/modeling_llama.py). */
    [FW_HF] = {.title = "Hugging Face Trainer / accelerate",
	       .trains = true,
	       .zero = true,
	       .master = MASTER_FP32,
	       .states = STATES_FP32,
	       /* autocast over fp32 parameters: param.grad in the parameters' dtype,
		* fp32 (transformers Trainer, accelerate mixed_precision bf16) */
	       .grad_dtype = DTYPE_FP32,
	       .loss = LOSS_FP32,
	       .loss_apart = true,
	       .reserved_slack = TORCH_TRAIN_SLACK,
	       .non_torch_bytes = TORCH_CONTEXT,
	       /* LlamaRMSNorm upcasts to fp32, repeat_kv expands K and V for sdpa, LlamaMLP
		* is down(act(gate(x)) * up(x)) (modeling_llama.py); TrainingArguments
		* torch_compile defaults to False. Gradients: the Trainer's model.zero_grad()
		* is not asserted here, so they count as a buffer (GRADS_STEP). */
	       .eager_layers = true,
	       .compile = COMPILE_OFF,
	       .source = "transformers/models/llama/modeling_llama.py; transformers Trainer",
	       .blas = BLAS_WS_TORCH,
	       /* the Trainer wraps the model in torch DDP (buckets all-reduced as the
		* backward fills them, torch/nn/parallel/distributed.py) or accelerate's FSDP
		* (backward_prefetch BACKWARD_PRE) */
	       .tp_overlap = OVERLAP_OFF,
	       .grad_overlap = OVERLAP_ON,
	       .param_overlap = OVERLAP_ON,
	       .overlap_speed = OVERLAP_SPEED},
    /* torchtune: the model is built in cfg.dtype (bf16) and torch AdamW keeps its states
     * in the parameters' dtype, with no fp32 copy (recipes/full_finetune_single_device.py,
     * recipes/lora_finetune_single_device.py); the configs' loss is
     * torchtune.modules.loss.CEWithChunkedOutputLoss, num_output_chunks = 8
     * (torchtune/modules/loss/ce_chunked_output_loss.py; the recipe compiles it with the
     * model under compile: True, training.compile_loss), taken as each chunk's upcast and
     * softmax fused so that only the bf16 logits stay. A run with torch.nn.CrossEntropyLoss
     * gets TransformerDecoder's `self.output(h).float()` logits whole (loss: fp32,
     * torchtune/modules/transformer.py). No pipeline parallelism. */
    [FW_TORCHTUNE] = {.title = "torchtune",
		      .trains = true,
		      .zero = true,
		      .master = MASTER_NONE,
		      .states = STATES_BF16,
		      /* pure bf16: the gradients in the bf16 parameters' dtype */
		      .grad_dtype = DTYPE_BF16,
		      .loss = LOSS_CHUNKED,
		      .loss_apart = true,
		      .reserved_slack = TORCH_TRAIN_SLACK,
		      .non_torch_bytes = TORCH_CONTEXT,
		      .loss_chunks = 8,
		      /* torchtune.modules (rms_norm.py, feed_forward.py, attention.py) are
		       * plain modules; the configs ship `compile: False` (e.g. recipes/configs/
		       * llama3_2/3B_full_single_device.yaml); the train loop calls
		       * optimizer.zero_grad(set_to_none=True) after each step, so gradients
		       * are allocated in the backward (recipes/full_finetune_single_device.py,
		       * train) */
		      .eager_layers = true,
		      .compile = COMPILE_OFF,
		      .grad_lifetime = GRADS_BACKWARD,
		      /* fp8: torchao's Float8Linear too (recipes' enable_fp8_training,
		       * torchtune/training/quantization.py convert_to_float8_training) */
		      .fp8_ao = true,
		      /* the distributed recipes' FSDP2 (training.shard_model: fully_shard per
		       * decoder layer, then the root) */
		      .grad_reduce = GRAD_REDUCE_UNIT,
		      .source = "recipes/full_finetune_single_device.py; "
				"torchtune/modules/loss/ce_chunked_output_loss.py",
		      .blas = BLAS_WS_TORCH,
		      /* the distributed recipes shard with FSDP2 (fully_shard, as fsdp above) */
		      .tp_overlap = OVERLAP_OFF,
		      .grad_overlap = OVERLAP_ON,
		      .param_overlap = OVERLAP_ON,
		      .overlap_speed = OVERLAP_SPEED},
    /* llm.c: fp32 master weights (use_master_weights = 1) and fp32 AdamW m, v
     * (train_gpt2.cu); fused_classifier writes the loss gradient over the bf16 logits in
     * place, so the loss is the logits alone; cudaMalloc'd buffers, no caching allocator. */
    [FW_LLMC] = {.title = "llm.c",
		 .gaps = llmc_gaps,
		 .trains = true,
		 .zero = true,
		 .master = MASTER_FP32,
		 .states = STATES_FP32,
		 /* grads_memory in floatX, bf16 (train_gpt2.cu gpt2_allocate_state) */
		 .grad_dtype = DTYPE_BF16,
		 .loss = LOSS_CHUNKED,
		 .loss_apart = true,
		 .reserved_slack = 0,
		 .non_torch_bytes = TORCH_CONTEXT,
		 .loss_chunks = 0,
		 .source = "train_gpt2.cu (karpathy/llm.c)",
		 .blas = BLAS_WS_LLMC,
		 /* gpt2_backward_and_reduce calls multi_gpu_async_reduce_gradient per layer on
		  * the NCCL stream in the last micro-step (llmc/zero.cuh: all-reduce, or
		  * ZeRO-1's reduce-scatter); gpt2_update all-gathers the updated shards after
		  * the step */
		 .tp_overlap = OVERLAP_OFF,
		 .grad_overlap = OVERLAP_ON,
		 .param_overlap = OVERLAP_OFF,
		 .overlap_speed = OVERLAP_SPEED,
		 /* its own kernels' h-sized traffic a layer and token (train_gpt2.cu
		  * gpt2_forward, gpt2_backward; biases in the cuBLASLt epilogue, cuDNN
		  * attention on the fused qkvr layout, no permutes): forward, two
		  * fused_residual_forward5 (read residual and branch, write residual and
		  * norm: 4 each) = 8; backward, two layernorm_backward (read dout and input,
		  * accumulate dresidual: 4 each) and the bias gradients of fcproj, attproj
		  * and qkv (matmul_backward reads dout: 1 + 1 + 3) = 13. The MLP's GELU
		  * (gelu_fusion 0: gelu_forward, gelu_backward_inplace) and fc's bias
		  * gradient are ffn-sized, 2 ffn forward and 4 backward, as ELT_FFN_PLAIN
		  * counts them */
		 .elt_h_fwd = 8,
		 .elt_h_bwd = 13},
    /* vLLM: KV budget = total x gpu_memory_utilization (0.9, vllm/config.py CacheConfig) -
     * peak torch memory of the profile run - non-torch memory, in blocks of 16 tokens
     * (block_size), allocated once (vllm/worker/worker.py, determine_num_available_blocks). */
    [FW_VLLM] = {.title = "vLLM",
		 .serves = true,
		 .pipeline = true,
		 .reserved_slack = 0,
		 .non_torch_bytes = VLLM_NON_TORCH,
		 .kv_rule = KV_RULE_FRACTION,
		 .mem_fraction = 0.9,
		 .kv_block_tokens = 16,
		 /* V1 always chunks prefills into the decode step (vllm/engine/arg_utils.py,
		  * _set_default_args_v1: enable_chunked_prefill = True); the API server's
		  * max_num_batched_tokens 2048 and max_num_seqs 256 on GPUs under 70 GiB and
		  * the A100, the rest by GPU and usage context (framework_vllm_batch) */
		 .scheduler = SCHED_CHUNKED,
		 .max_batched_tokens = 2048,
		 .max_running = 256,
		 /* the decode batch sizes are captured as CUDA graphs unless enforce_eager
		  * (vllm/config.py ModelConfig enforce_eager = False; vllm/worker/
		  * model_runner.py capture_model) */
		 .kernels = FW_KERNELS_GRAPHS,
		 .source = "vllm/worker/worker.py determine_num_available_blocks; vllm/config.py",
		 .blas = BLAS_WS_TORCH},
    /* SGLang: mem_fraction_static of the total holds the weights and the KV pool; 0.88 on
     * one GPU (python/sglang/srt/server_args.py __post_init__: 0.88 at tp 1, 0.87 at tp 2,
     * 0.85 at tp 4, 0.81 at tp 8; later versions derive it from a fixed reserve);
     * token-granular pages (page_size 1). */
    [FW_SGLANG] = {.title = "SGLang",
		   .serves = true,
		   .pipeline = true,
		   .reserved_slack = 0,
		   .non_torch_bytes = TORCH_CONTEXT,
		   .kv_rule = KV_RULE_STATIC,
		   .mem_fraction = 0.88,
		   .kv_block_tokens = 1,
		   /* the scheduler runs a new prefill batch before the next decode batch
		    * (python/sglang/srt/managers/scheduler.py get_next_batch_to_run; mixing
		    * them needs --enable-mixed-chunk); prompts are cut at chunked_prefill_size
		    * (framework_max_batched_tokens); max_running_requests =
		    * min(max_total_num_tokens / 2, req_to_token_pool.size), the pool at most
		    * 4096 requests (managers/tp_worker.py, model_executor/model_runner.py) */
		   .scheduler = SCHED_PREFILL_FIRST,
		   .max_batched_tokens = 8192,
		   .max_running = 4096,
		   /* disable_overlap_schedule = False (server_args.py, v0.4): the scheduler's
		    * event_loop_overlap (managers/scheduler.py) runs the next batch before it
		    * processes the last one's results, so a request received while a step
		    * runs joins after the step already launched behind it */
		   .overlap_schedule = true,
		   /* HiCache's load_back copies a host-held prefix on a load stream layer by
		    * layer, and each layer's attention waits for its own layer only
		    * (mem_cache/memory_pool.py get_key_buffer:
		    * layer_transfer_counter.wait_until(layer_id); LayerDoneCounter,
		    * managers/cache_controller.py) */
		   .kv_load_layerwise = true,
		   /* disable_cuda_graph = False (python/sglang/srt/server_args.py): decode
		    * batches up to cuda_graph_max_bs replay captured graphs
		    * (model_executor/cuda_graph_runner.py) */
		   .kernels = FW_KERNELS_GRAPHS,
		   .source = "python/sglang/srt/server_args.py mem_fraction_static",
		   .blas = BLAS_WS_TORCH},
    /* TensorRT-LLM: KvCacheConfig.free_gpu_memory_fraction = 0.9 of the memory free after
     * the engine and its activation workspace load (tensorrt_llm/llmapi/llm_args.py),
     * blocks of tokens_per_block = 32 (the default of the KV cache manager,
     * tensorrt_llm/_torch/pyexecutor/resource_manager.py; docs/source/examples/
     * kvcacheconfig.md gives the 0.9). */
    [FW_TRTLLM] = {.title = "TensorRT-LLM",
		   .serves = true,
		   .pipeline = true,
		   .reserved_slack = 0,
		   .non_torch_bytes = TORCH_CONTEXT,
		   .kv_rule = KV_RULE_FREE,
		   .mem_fraction = 0.9,
		   .kv_block_tokens = 32,
		   /* in-flight batching: context and generation requests share an iteration
		    * under max_num_tokens 8192, max_batch_size 2048 (tensorrt_llm/llmapi/
		    * llm_args.py, BuildConfig in tensorrt_llm/builder.py) */
		   .scheduler = SCHED_CHUNKED,
		   .max_batched_tokens = 8192,
		   .max_running = 2048,
		   /* a TensorRT engine of fused kernels, or the PyTorch backend's decode
		    * steps replayed as CUDA graphs (tensorrt_llm/llmapi/llm_args.py
		    * cuda_graph_config; examples/llm-api/llm_runtime.py); the NIM decode rows
		    * of tests/unit/engine_rows.h are TensorRT-LLM's */
		   .kernels = FW_KERNELS_GRAPHS,
		   .source = "tensorrt_llm/llmapi/llm_args.py KvCacheConfig"},
    /* llama.cpp: ggml allocates the KV cache for the context up front and the compute
     * buffer once (ggml-alloc), no caching allocator; inference only. */
    [FW_LLAMACPP] = {.title = "llama.cpp",
		     .gaps = llamacpp_gaps,
		     .serves = true,
		     .reserved_slack = 0,
		     .non_torch_bytes = TORCH_CONTEXT,
		     .kv_rule = KV_RULE_FIT,
		     /* llama-server: the slots' next tokens and prompt tokens share one
		      * llama_decode batch of n_batch 2048 (common/common.h) */
		     .scheduler = SCHED_CHUNKED,
		     .max_batched_tokens = 2048,
		     .kernels = FW_KERNELS_LLAMACPP,
		     .source = "ggml/src/ggml-alloc.c; src/llama-kv-cache.cpp"},
};

const struct framework_info *framework_get(int f)
{
	return f >= 0 && f < FW_COUNT ? &table[f] : &table[FW_DEFAULT];
}

const char *framework_title(int f, bool serving, bool graphs)
{
	const struct framework_info *fw = framework_get(f);
	if (!serving || !fw->serve_title)
		return fw->title;
	return fw == &table[FW_DEFAULT] && !graphs ? DEFAULT_SERVE_LLAMACPP : fw->serve_title;
}

/* Megatron-LM names a different data-parallel implementation for each ZeRO stage
 * (megatron/training/arguments.py --use-distributed-optimizer, --use-megatron-fsdp,
 * --data-parallel-sharding-strategy no_shard | optim | optim_grads | optim_grads_params;
 * megatron/core/distributed/distributed_data_parallel_config.py): stage 0 is DDP, 1 the
 * distributed optimizer (megatron/core/optimizer/distrib_optimizer.py), 2 and 3 Megatron-FSDP
 * (megatron/core/distributed/fsdp) sharding gradients, then parameters too. */
const char *framework_dp_title(int f, int zero)
{
	static const char *const megatron[] = {
	    "DDP", "distributed optimizer (--use-distributed-optimizer)",
	    "Megatron-FSDP (--use-megatron-fsdp, sharding strategy optim_grads)",
	    "Megatron-FSDP (--use-megatron-fsdp, sharding strategy optim_grads_params)"};
	if (f != FW_MEGATRON || zero < 0)
		return NULL;
	return megatron[zero > 3 ? 3 : zero];
}

const struct value_gap *framework_value_gap(int f, int i)
{
	const struct value_gap *g = framework_get(f)->gaps;
	for (int k = 0; g && g[k].key; k++)
		if (k == i)
			return &g[k];
	return NULL;
}

const char *framework_source(int f, bool serving)
{
	const struct framework_info *fw = framework_get(f);
	return serving && fw->serve_source ? fw->serve_source : fw->source;
}

int framework_max_batched_tokens(int f, double hbm_bytes)
{
	/* python/sglang/srt/server_args.py: chunked_prefill_size 2048 under 35 GiB (A10, L40,
	 * 4090), 8192 under 160 GiB (A100, H100, H200, H20), 16384 above (B200, MI300) */
	if (f == FW_SGLANG && hbm_bytes > 0) {
		double gib = hbm_bytes / 1073741824.0;
		return gib < 35 ? 2048 : gib < 160 ? 8192 : 16384;
	}
	return framework_get(f)->max_batched_tokens;
}

int framework_graph_max_bs(int f, double hbm_bytes)
{
	/* python/sglang/srt/server_args.py __post_init__ (v0.4, December 2024, the build of
	 * the serving rows in tests/validation/serving.yaml): cuda_graph_max_bs 8 on GPUs
	 * under 25,000 MiB, else 160; model_executor/cuda_graph_runner.py captures batch
	 * sizes 1, 2, 4, 8, ..., 160 up to it, and CudaGraphRunner.can_run sends a larger
	 * decode batch to the eager forward (ModelRunner.forward_decode). Later versions
	 * raise it on large GPUs (512 at tp >= 4 on H100 and H200). */
	if (f == FW_SGLANG && hbm_bytes > 0)
		return hbm_bytes / 1048576.0 < 25000 ? 8 : 160;
	return 0;
}

bool framework_eager(int f, enum compile_mode c)
{
	const struct framework_info *fw = framework_get(f);
	return fw->eager_layers && (c != COMPILE_AUTO ? c : fw->compile) == COMPILE_OFF;
}

bool framework_compiled(int f, enum compile_mode c)
{
	return (c != COMPILE_AUTO ? c : framework_get(f)->compile) == COMPILE_ON;
}

enum grad_lifetime framework_grads(int f, enum grad_lifetime g)
{
	enum grad_lifetime r = g != GRADS_AUTO ? g : framework_get(f)->grad_lifetime;
	return r != GRADS_AUTO ? r : GRADS_STEP;
}

int framework_zero(int f, int zero, int ranks)
{
	if (zero >= 0)
		return zero > 3 ? 3 : zero;
	/* fsdp: torchtitan shards over every data-parallel rank by default
	 * (torchtitan/config/job_config.py Parallelism.data_parallel_shard_degree = -1;
	 * torchtitan/models/llama3/infra/parallelize.py apply_fsdp: fully_shard per block
	 * and the root, parameters, gradients and optimizer states: ZeRO-3).
	 * torchtune: its distributed recipes shard the same way (recipes/
	 * full_finetune_distributed.py and lora_finetune_distributed.py, training.
	 * shard_model: fully_shard). ranks: the GPUs a stage-3 shard spreads over, dp x ep x cp
	 * (the data-parallel, expert and context ranks, as plan_memory.c shards), 0 when not
	 * known yet. Over one such rank neither shards: torchtitan applies fully_shard when
	 * fsdp_enabled, dp_shard > 1 or cp > 1 (torchtitan/distributed/parallel_dims.py; its
	 * parallelize files apply it under ep too), and torchtune's single-device recipes
	 * (full_finetune_single_device.py, lora_finetune_single_device.py) wrap nothing, so
	 * auto is stage 0 there.
	 * The others keep stage 0: default (the papers' Megatron-LM / DeepSpeed baseline),
	 * megatron (DDP unless --use-distributed-optimizer, megatron/training/arguments.py),
	 * deepspeed (deepspeed/runtime/zero/config.py DeepSpeedZeroConfig.stage = 0), hf
	 * (transformers Trainer wraps the model in DDP, trainer.py _wrap_model), llm.c
	 * (train_gpt2.cu zero_stage = 0) and the serving engines (no training). */
	return (f == FW_FSDP || f == FW_TORCHTUNE) && ranks != 1 ? 3 : 0;
}

enum fp8_scope framework_fp8_scope(int f, enum fp8_scope g)
{
	if (g != FP8_AUTO)
		return g;
	return f == FW_DEFAULT || f < 0 || f >= FW_COUNT ? FP8_ALL : FP8_LINEAR;
}

double framework_mem_fraction(int f, int tp)
{
	/* python/sglang/srt/server_args.py __post_init__ (v0.4, December 2024):
	 * mem_fraction_static 0.79 at tp >= 16, 0.81 at >= 8, 0.85 at >= 4, 0.87 at >= 2,
	 * else 0.88 (the other GPUs' share of NCCL and CUDA-graph buffers grows with tp) */
	if (f == FW_SGLANG)
		return tp >= 16 ? 0.79 : tp >= 8 ? 0.81 : tp >= 4 ? 0.85 : tp >= 2 ? 0.87 : 0.88;
	return framework_get(f)->mem_fraction;
}

bool framework_nosync_pipeline(int f, int pp)
{
	return f == FW_FSDP && pp > 1;
}

/* What the training frameworks cannot run (issue 12, Bad input), one rule a row, each with
 * its source. */
static const struct layout_rule layout_rules[] = {
    /* a framework without pipeline parallelism (framework_info.pipeline) */
    {FW_COUNT, LAYOUT_PP, "parallel.pp", "has no pipeline parallelism", NULL, NULL},
    /* train_gpt2.cu parallelises over data only (multi_gpu_config: one process a GPU,
     * NCCL all-reduce or ZeRO-1 reduce-scatter, llmc/zero.cuh) and keeps every buffer on
     * the GPU: no tensor parallelism, no offload option */
    {FW_LLMC, LAYOUT_TP, "parallel.tp", "has no tensor parallelism", NULL,
     "tp 1, or framework megatron, fsdp or deepspeed"},
    {FW_LLMC, LAYOUT_OFFLOAD, "parallel.offload", "has no offload", NULL,
     "offload none, or framework deepspeed or fsdp"},
    /* DeepSpeed's PipelineEngine asserts zero_optimization_stage() < 2: "ZeRO-2 and ZeRO-3
     * are incompatible with pipeline parallelism" (deepspeed/runtime/pipe/engine.py,
     * PipelineEngine.__init__) */
    {FW_DEEPSPEED, LAYOUT_ZERO_PP, "parallel.zero", "cannot run",
     "its pipeline engine asserts ZeRO-2 and ZeRO-3 are incompatible with pipeline "
     "parallelism",
     "zero 0 or 1 with pp above 1, or pp 1"},
};
#define NLAYOUT_RULES ((int)(sizeof(layout_rules) / sizeof(layout_rules[0])))

static bool layout_breaks(const struct layout_rule *r, int f, int tp, int pp, int zero,
			  bool offload)
{
	if (r->framework == FW_COUNT ? framework_get(f)->pipeline : r->framework != f)
		return false;
	switch (r->kind) {
	case LAYOUT_PP:
		return pp > 1;
	case LAYOUT_TP:
		return tp > 1;
	case LAYOUT_OFFLOAD:
		return offload;
	case LAYOUT_ZERO_PP:
		return pp > 1 && zero >= 2;
	}
	return false;
}

int framework_layout_rule(int from, int f, int tp, int pp, int zero, bool offload)
{
	for (int i = from > 0 ? from : 0; i < NLAYOUT_RULES; i++)
		if (layout_breaks(&layout_rules[i], f, tp, pp, zero, offload))
			return i;
	return -1;
}

const struct layout_rule *framework_layout_rule_at(int i)
{
	return i >= 0 && i < NLAYOUT_RULES ? &layout_rules[i] : NULL;
}

bool framework_runs_layout(int f, int tp, int pp, int zero, bool offload)
{
	return framework_layout_rule(0, f, tp, pp, zero, offload) < 0;
}

bool framework_keeps_gathered(int f, int pp, enum reshard r)
{
	/* torchtitan/distributed/fsdp.py get_fsdp_reshard_after_forward_policy: "default"
	 * is not pp_enabled */
	return r == RESHARD_NEVER || framework_nosync_pipeline(f, pp);
}

/* PyTorch's cuBLAS workspaces (aten/src/ATen/cuda/CublasHandlePool.cpp, pytorch/pytorch
 * 26a3905: getChosenWorkspaceSize, setWorkspaceForHandle, getCUDABlasLtWorkspace):
 * - cuBLAS: one workspace per (handle, stream) pair, allocated through
 *   CUDACachingAllocator (getNewWorkspace) and kept for the process, so it counts in
 *   memory_allocated and max_memory_allocated: ":4096:2:16:8" by default, 2 x 4 MiB +
 *   8 x 16 KiB, and 32 MiB on compute capability 9.0 (Hopper: H100, H200, H800, H20); on
 *   ROCm 32 MiB, 128 MiB on gfx94x/gfx95x (MI300X, MI325X, MI350X, MI355X);
 * - cuBLASLt: its own workspace per pair, 1 MiB (CUBLASLT_WORKSPACE_SIZE's default, at
 *   most cuBLAS's; shared with cuBLAS's only under TORCH_CUBLASLT_UNIFIED_WORKSPACE=1),
 *   76 MiB for hipBLASLt, allocated on the first cuBLASLt GEMM: plain bf16 matmuls take
 *   cublasGemmEx, bias epilogues and fp8's scaled_mm take cuBLASLt;
 * - handles come from a pool, one per thread (thread_local PoolWindow): the autograd
 *   engine runs the CUDA backward on its own device thread (torch/csrc/autograd/
 *   engine.cpp, Engine::start_device_threads), so training holds two pairs on the one
 *   compute stream, inference one.
 * llm.c: one cuBLASLt workspace of 32 MiB, cudaMalloc'd at start-up (llmc/cublas_common.h
 * cublaslt_workspace_size, "only Hopper needs 32"). */
#define MIB 1048576.0

static bool has_prefix(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

double framework_blas_workspace(int f, const char *gpu_id, const char *vendor, bool training,
				bool lt)
{
	double blas, blaslt;
	switch (framework_get(f)->blas) {
	case BLAS_WS_LLMC:
		return 32 * MIB;
	case BLAS_WS_TORCH:
		break;
	default:
		return 0;
	}
	/* a GPU given without a vendor is taken as CUDA's, the common case */
	if (vendor[0] == '\0' || strcmp(vendor, "nvidia") == 0) {
		bool sm90 = has_prefix(gpu_id, "h100") || has_prefix(gpu_id, "h200") ||
			    has_prefix(gpu_id, "h800") || strcmp(gpu_id, "h20") == 0 ||
			    has_prefix(gpu_id, "gh200");
		blas = sm90 ? 32 * MIB : 2 * 4 * MIB + 8 * 16 * 1024.0;
		blaslt = blas < MIB ? blas : MIB;
	} else if (strcmp(vendor, "amd") == 0) {
		blas = has_prefix(gpu_id, "mi3") ? 128 * MIB : 32 * MIB;
		blaslt = 76 * MIB;
	} else {
		return 0; /* Gaudi and others: not PyTorch's CUDA/ROCm handle pool */
	}
	return (training ? 2 : 1) * (blas + (lt ? blaslt : 0));
}

enum overlap framework_overlap(int f, enum overlap_kind k, enum overlap o, int zero)
{
	const struct framework_info *fw = framework_get(f);
	enum overlap r = o;
	if (r == OVERLAP_AUTO)
		r = k == OVERLAP_TP	? fw->tp_overlap
		    : k == OVERLAP_GRAD ? fw->grad_overlap
					: fw->param_overlap;
	if (r == OVERLAP_ZERO3)
		r = zero >= 3 ? OVERLAP_ON : OVERLAP_OFF;
	/* the papers' accounting is of ZeRO-1/2's all-gather; ZeRO-3 prefetches */
	if (r == OVERLAP_PAPER && (k != OVERLAP_PARAM || zero >= 3))
		r = OVERLAP_ON;
	/* a serving row has no training defaults: off */
	return r == OVERLAP_AUTO ? OVERLAP_OFF : r;
}

double framework_overlap_speed(int f, double e, int sms)
{
	double v = e > 0 ? e : framework_get(f)->overlap_speed;
	/* a framework with contention on a GPU whose SMs are known: their share */
	if (!(e > 0) && v > 0 && v < 1 && sms > OVERLAP_COMM_SMS)
		v = (double)(sms - OVERLAP_COMM_SMS) / sms;
	return v > 0 && v <= 1 ? v : 1;
}

void framework_overlaps(int f, enum overlap tp, enum overlap grad, enum overlap param, int zero,
			double e, int sms, enum overlap out[3], double *speed)
{
	out[0] = framework_overlap(f, OVERLAP_TP, tp, zero);
	out[1] = framework_overlap(f, OVERLAP_GRAD, grad, zero);
	out[2] = framework_overlap(f, OVERLAP_PARAM, param, zero);
	*speed = framework_overlap_speed(f, e, sms);
}

const char *framework_name(int f)
{
	return framework_names[f >= 0 && f < FW_COUNT ? f : FW_DEFAULT];
}

/* in the order of enum scheduler; the names are workload.scheduler's choices
 * (src/scenario.c schedulers[]) */
static const struct {
	const char *name, *policy;
} schedulers[SCHED_COUNT] = {
    {"alone", "the decode step alone (no load modelled)"},
    {"auto", "the framework's scheduler"},
    {"prefill-first", "prefill-first: prompts stall the decodes (vLLM v0, SGLang)"},
    {"chunked", "chunked prefill (Sarathi-Serve; vLLM V1, TensorRT-LLM)"},
    {"static", "a static batch: all start together, none joins until all finish"},
    {"disaggregated", "disaggregated prefill and decode pools (DistServe, Dynamo)"},
};

void framework_vllm_batch(bool offline, double hbm_bytes, const char *gpu_id, int *tokens,
			  int *seqs)
{
	/* vllm/engine/arg_utils.py EngineArgs._set_default_args (get_batch_defaults in
	 * some versions): "if device_memory >= 70 * GiB_bytes and "a100" not in
	 * device_name" (H100, H200, MI300X, B200) max_num_batched_tokens 16384 for the
	 * LLM class (offline) and 8192 for the OpenAI API server, max_num_seqs 1024 for
	 * both; else (the A100 by vLLM PR #17885, which measured the larger budget's
	 * throughput loss there) 8192 and 2048, max_num_seqs 256; max_num_seqs is then
	 * min(that, max_num_batched_tokens). The catalog ids of the A100s start "a100". */
	bool big = hbm_bytes >= 70 * 1073741824.0 && strncmp(gpu_id, "a100", 4) != 0;
	*tokens = big ? (offline ? 16384 : 8192) : (offline ? 8192 : 2048);
	*seqs = big ? 1024 : 256;
	if (*seqs > *tokens)
		*seqs = *tokens;
}

void framework_serving(int f, enum scheduler set, bool graphs, bool offline, double hbm_bytes,
		       const char *gpu_id, struct serving_engine *o)
{
	const struct framework_info *fw = framework_get(f);
	o->sched = fw->scheduler;
	o->max_batched_tokens = framework_max_batched_tokens(f, hbm_bytes);
	o->max_running = fw->max_running;
	if (f == FW_DEFAULT || f < 0 || f >= FW_COUNT) {
		/* The engine most users of the GPU run (plan_engine picks its kernels): on a
		 * CUDA-graph GPU vLLM V1, whose scheduler chunks the prompts into the decode
		 * steps (vLLM's, below); under llama.cpp kernels a llama-server of one slot,
		 * n_parallel = 1 (common/common.h common_params), serving one request at a
		 * time: the decode step alone. workload.scheduler alone is one value away. */
		o->sched = graphs ? SCHED_CHUNKED : SCHED_ALONE;
		o->max_batched_tokens = o->max_running = 0;
		if (graphs)
			framework_vllm_batch(offline, hbm_bytes, gpu_id, &o->max_batched_tokens,
					     &o->max_running);
	} else if (f == FW_VLLM) {
		framework_vllm_batch(offline, hbm_bytes, gpu_id, &o->max_batched_tokens,
				     &o->max_running);
	}
	if (set != SCHED_AUTO)
		o->sched = set;
}

/* Every framework schedules once a decode step by default: vLLM v0's EngineArgs
 * num_scheduler_steps = 1 (vllm/engine/arg_utils.py; --num-scheduler-steps N runs N steps
 * a scheduling, vllm/worker/multi_step_model_runner.py, and V1 dropped it), SGLang's
 * num_continuous_decode_steps = 1 (python/sglang/srt/server_args.py), TensorRT-LLM's and
 * llama.cpp's loops one step an iteration. So auto is 1 whatever f. */
int framework_scheduler_steps(int f, int set)
{
	(void)f;
	return set > 0 ? set : 1;
}

const char *scheduler_name(int sched)
{
	return sched >= 0 && sched < SCHED_COUNT ? schedulers[sched].name : "?";
}

const char *scheduler_policy(int sched)
{
	return sched >= 0 && sched < SCHED_COUNT ? schedulers[sched].policy : "?";
}
