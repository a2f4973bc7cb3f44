/* plan_time_int.h - what plan_time.c, plan_train.c, plan_infer.c and plan_serve.c share:
 * the calibration constants, the context of one plan, the small helpers (static inline,
 * so that they still inline into the hot path) and the pt_ functions between the files. */
#ifndef GPUPLAN_PLAN_TIME_INT_H
#define GPUPLAN_PLAN_TIME_INT_H

#include "plan.h"
#include "framework.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* ---- calibration constants (one set for every row; see the header comment) ---- */

/* Calibrated (0.7-0.92). Fraction of the dense peak a large GEMM reaches on a GPU whose
 * ridge point per element (dense peak x operand bytes / HBM bandwidth) is GEMM_RIDGE_REF
 * (A100 bf16: 312T x 2 / 2.039T = 306). GEMM kernels stream operand tiles from HBM through
 * L2 and shared memory; the more FLOPs a GPU has per operand byte it can fetch, the larger
 * the tiles must be and the harder the tensor cores are to keep fed, so the sustained
 * fraction falls as the inverse square root of the ridge (H100 bf16 and fp8: 591, so
 * 0.72 x the A100 fraction: cuBLAS reaches ~85% of peak on A100, ~60-70% on H100 without
 * Hopper-specific kernels). FP8 halves the operand bytes as it doubles the FLOPs, so it
 * feeds like bf16. Capped at GEMM_EFF_CAP for GPUs with a low ridge (V100, fp32 math). */
#ifndef GEMM_EFF_MAX
#define GEMM_EFF_MAX 0.82
#endif
#ifndef GEMM_RIDGE_REF
#define GEMM_RIDGE_REF 306.0
#endif
#ifndef GEMM_EFF_CAP
#define GEMM_EFF_CAP 0.90
#endif
/* Calibrated (32-128). Each GEMM dimension x (after tensor-parallel sharding) costs a
 * factor x / (x + D): tiles that do not fill the SMs, wave quantisation, prologue and
 * epilogue. It is what makes TP-sharded layers of small models slower per FLOP. */
#ifndef GEMM_DIM_HALF
#define GEMM_DIM_HALF 96.0
#endif
/* Calibrated (0.4-0.8). FlashAttention (Dao et al. 2022/2023) relative to a GEMM of the
 * same shape: softmax, online rescaling and causal masking cost tensor-core time; FA2
 * reaches ~50-70% of peak forward on A100. Causal masking halves the executed FLOPs. */
#ifndef FLASH_EFF
#define FLASH_EFF 0.77
#endif
/* FlashAttention backward executes 2.5x the forward FLOPs (5 matmuls vs 2: S and P are
 * recomputed; FlashAttention-2 paper, Section 3.2). */
#ifndef FLASH_BWD_FLOPS
#define FLASH_BWD_FLOPS 2.5
#endif
/* Calibrated (0.8-0.92). Achieved / peak HBM bandwidth of streaming kernels (STREAM-like
 * kernels reach 85-92%; Azure measured 7.35 TB/s, 92%, on GB200: "Unpacking NVIDIA GB200
 * GPU performance on Azure virtual machines", Azure HPC blog, 2025; decode kernels a
 * little less). */
#ifndef HBM_EFF
#define HBM_EFF 0.91
#endif
/* Calibrated (0.7-0.85) for NVLink/NVSwitch: achieved / peak bandwidth of NCCL
 * collectives (A100 busbw ~230 of 300 GB/s per direction); the network's is assumed
 * (InfiniBand/RoCE reach ~85-90% of the NIC). */
#ifndef LINK_EFF
#define LINK_EFF 0.70
#endif
#ifndef NET_EFF
#define NET_EFF 0.85
#endif
/* Calibrated (0.3-1). Fraction of the last micro-batch's backward that the data-parallel
 * gradient reduction hides behind (bucketed overlap: PyTorch DDP, Megatron
 * --overlap-grad-reduce). */
#ifndef DP_OVERLAP
#define DP_OVERLAP 1.0
#endif
/* Calibrated (0-2 ms, at its bound). ZeRO-3 / FSDP: host-side time per layer per
 * micro-batch (forward and backward hooks that issue and wait for each layer's all-gather
 * and reduce-scatter) that the GPU cannot hide. Small micro-batches pay it most (MosaicML's
 * 13b row at micro-batch 2). */
#ifndef Z3_LAYER_S
#define Z3_LAYER_S 2e-3
#endif
/* Per ring step latency of a collective (NCCL: a few microseconds per hop). */
#ifndef LINK_LAT_S
#define LINK_LAT_S 2e-6
#endif
#ifndef NET_LAT_S
#define NET_LAT_S 6e-6
#endif
/* Calibrated (12-32) for ELT_H. Elementwise traffic per token per layer, forward, counted
 * in elements: layer norms (read + write, twice), bias + dropout + residual (twice),
 * q/k/v reshapes: ~16-20 h-sized tensors; the MLP activation reads and writes its input
 * (plain: 2 ffn; gated: 3 ffn). The backward moves twice as much. Korthikanti et al. 2023,
 * Section 4.1 list the same tensors. */
#ifndef ELT_H
#define ELT_H 22.0
#endif
#ifndef ELT_FFN_PLAIN
#define ELT_FFN_PLAIN 2.0
#endif
#ifndef ELT_FFN_GATED
#define ELT_FFN_GATED 3.0
#endif
/* Calibrated (4-14). Without FlashAttention the s x s scores are materialised: bytes per
 * score element in the forward (QK^T write 2, softmax read 2 + write 2, dropout mask 1 +
 * write 2, read by AV 2 = 11); the backward moves twice that. */
#ifndef SCORE_BYTES_FWD
#define SCORE_BYTES_FWD 8.6
#endif
/* Calibrated (0-100 us). Per layer per decode step or prefill: kernel launches and
 * synchronisation (about a dozen kernels of a few microseconds; CUDA graphs shorten it). */
#ifndef DECODE_LAYER_S
#define DECODE_LAYER_S 60e-6
#endif
/* Calibrated (0-1 ms). Per decode step: sampling over the vocabulary, the host round
 * trip for the next token. */
#ifndef DECODE_TOKEN_S
#define DECODE_TOKEN_S 0.3e-3
#endif
/* Calibrated (0-20). CUDA-core operations per weight per decode step, spent converting or
 * dequantising weights next to the multiply. 16-bit weights are converted to fp32 and
 * multiplied on the CUDA cores by matrix-vector kernels (llama.cpp dmmv, GEMV at batch 1);
 * 4- and 8-bit formats use integer dot products on int8-quantised activations (llama.cpp
 * mmvq, dp4a: 4 MACs per instruction), fewer per weight; fp8 on GPUs with FP8 tensor cores
 * needs none. This is what makes GPUs with a low FP32 rate (A100: 19.5 TFLOP/s) decode
 * slower than their bandwidth says (tests/unit/test_seed_time.c,
 * test_seed11_decode_latency: 13.5 ms on an A100 vs 16.5 on a 4090). */
#ifndef DEQUANT_OPS_16BIT
#define DEQUANT_OPS_16BIT 11.5
#endif
#ifndef DEQUANT_OPS_8BIT
#define DEQUANT_OPS_8BIT 14.0
#endif
#ifndef DEQUANT_OPS_4BIT
#define DEQUANT_OPS_4BIT 8.7
#endif

/* ---- CUDA-graph serving engines (workload.engine: cuda-graphs) ----
 * The constants above describe llama.cpp's kernels, which the batch-1 rows were measured
 * with. vLLM, TensorRT-LLM, SGLang and torch.compile (gpt-fast) decode differently:
 *  - the decode step is captured once and replayed as one CUDA graph, so the host no
 *    longer launches each kernel (vLLM PR #1926; TensorRT-LLM and SGLang --cuda-graph);
 *  - quantised weights are dequantised in registers inside the GEMM, overlapped with the
 *    asynchronous loads of the next tiles (Marlin, Frantar et al. 2024, Sections 3-4;
 *    TensorRT-LLM's weight-only GEMMs; torchao's tinygemm), leaving a small cost per
 *    weight (GRAPH_DEQUANT_S) instead of llama.cpp's separate CUDA-core work, and 16-bit
 *    weights go to the tensor cores or an FMA GEMV without a conversion pass;
 *  - a small batch pads to one tensor-core tile of 16 rows (mma.sync m16n8k16: Marlin
 *    reaches close to the ideal 4x int4 speedup up to batches of 16-32), not to the
 *    GEMM_DIM_HALF rows of a general-purpose GEMM.
 * Only the three constants marked "Fitted" were fitted, together, to the 41 rows of
 * tests/unit/engine_rows.h (a grid over the stated ranges minimising the worst plus the
 * mean |error|, then rounded: mean 5.8%, worst 16.0%; test_engine prints each row); the
 * tile floor is the kernels' documented behaviour. */

/* Fitted (0-100 us): 55 us. Per layer per decode step under a CUDA graph. The graph
 * removes the host's launch gaps, but each of a layer's dozen kernels (norms, rotary, QKV,
 * attention, output, MLP, residual adds, the TP all-reduce) still lasts a few
 * microseconds at least (its launch inside the graph, the ramp to full bandwidth, the
 * tail of its last wave), and small-batch GEMVs stream their weights a little below
 * STREAM bandwidth; this term carries both. The rows put it at 50-60 us, near llama.cpp's
 * DECODE_LAYER_S, not at the few microseconds of the launch gap alone: what a CUDA-graph
 * engine saves at batch 1 is mostly the conversion work on the CUDA cores. The fit is
 * flat over 50-60 us. */
#ifndef GRAPH_LAYER_S
#define GRAPH_LAYER_S 55e-6
#endif
/* Fitted (0-1 ms): 0.15 ms. Per decode step: the host's share between two graph replays
 * (scheduling, sampling, the input copies). The fit is flat over 0-0.3 ms. */
#ifndef GRAPH_TOKEN_S
#define GRAPH_TOKEN_S 0.15e-3
#endif
/* Fitted (0-0.3 ps): 0.15 ps. Per weight per decode step, what a fused dequantising GEMM
 * (Marlin's int4 and int8 in vLLM, torchao's tinygemm, torch.compile's int8 and fp8 GEMVs)
 * adds to the weight read: it dequantises in registers, but the few integer and FMA
 * instructions per weight are not all hidden behind the stream (Marlin targets Ampere's
 * mma.sync and "is not yet optimized for Hopper", its README says). vLLM's Marlin rows on
 * an H100 put it at 0.15 ps for int4 and int8 alike, torchao's at 0.13-0.18 on the A100
 * and the H100: about the same time per weight on both (some 7e12 weights/s), not the
 * same share of their FP32 rates (which differ 3.4x), so it is a time per weight here;
 * on other GPUs it is an extrapolation. fp8 weights on FP8 tensor cores need none. */
#ifndef GRAPH_DEQUANT_S
#define GRAPH_DEQUANT_S 0.15e-12
#endif
/* Rows a small-batch decode GEMM pads to: one m16 tensor-core tile (see above). */
#ifndef GRAPH_DIM_HALF
#define GRAPH_DIM_HALF 16.0
#endif
/* Fitted (0.2-1.5 ms): 0.7 ms. Per layer, the host's time to run one decoder layer's
 * forward eagerly: a decode batch above the engine's CUDA-graph cap
 * (framework_graph_max_bs), and every prefill of such an engine (SGLang's
 * ModelRunner.forward_decode without CudaGraphRunner.replay, and forward_extend): Python
 * module calls, each kernel's launch, the attention wrapper's and the all-reduce's host
 * work. The kernels are queued asynchronously, so a pass is the slower of the GPU's work
 * and the host's, which the batch does not change (plan_infer.c, eager_wait). Fitted to
 * the one row that runs above the cap, SGLang at 8 req/s (Llama 3.3 70B, TP 4, H200;
 * datacrunch-research/h200-benchmarks sglang/outputs, row sglang-8rps-tokens of
 * tests/validation/serving.yaml): its concurrency of 360 (Little's law from the file), which
 * the eager step sets through Little's law (0.7 ms gives 369, 0.8 ms 420, 0.85 ms 445);
 * the median ITL then comes out 21% under the measured 70.8 ms. */
#ifndef EAGER_LAYER_S
#define EAGER_LAYER_S 0.7e-3
#endif

/* ---- documented assumptions (not calibrated) ---- */

/* Pre-tokenised data read as uint32 token ids (Megatron's .bin files use uint16 when the
 * vocabulary allows; 4 is the conservative choice). */
#define DATA_BYTES_PER_TOKEN PLAN_DATA_BYTES_PER_TOKEN
/* Checkpoint write bandwidth per node when hardware.storage is not given: a share of a
 * parallel file system (Lustre/GPFS deliver 1-10 GB/s per client). */
#define CKPT_BYTES_PER_S_PER_NODE PLAN_CKPT_BYTES_PER_S_PER_NODE
/* Time to restart after an interruption: detect, reschedule, load the checkpoint. */
#define RESTART_S PLAN_RESTART_S
/* CPU Adam (ZeRO-Offload) streams the optimizer states through host memory at about this
 * rate per GPU it serves. */
#ifndef HOST_OPT_BYTES_PER_S
#define HOST_OPT_BYTES_PER_S 25e9
#endif

struct tctx {
	const struct scenario *s;
	struct plan *p;
	double peak;		      /* FLOP/s, dense, at the compute precision */
	double fp32;		      /* CUDA-core FP32 FLOP/s (0 = unknown) */
	double hbm;		      /* bytes/s achieved */
	double link;		      /* bytes/s per direction achieved, inside a node */
	double net;		      /* bytes/s per direction achieved, between nodes */
	double pcie;		      /* bytes/s per direction achieved, PCIe peer-to-peer */
	double domain;		      /* GPUs one link domain joins (NVL72: 72) */
	double gpn;		      /* GPUs per node */
	double act;		      /* bytes per activation element */
	double emax;		      /* fraction of peak a large GEMM reaches on this GPU */
	double inv_peak_emax;	      /* 1 / (peak x emax): seconds per FLOP of a large GEMM */
	double inv_hbm;		      /* 1 / hbm: seconds per byte */
	double it;		      /* 1 / tp (divisions are most of this part's time) */
	double gemm_flops, gemm_time; /* for matmul_efficiency */
	double bf16_k; /* training under fp8_scope linear: the attention core's and output
			* layer's time over what the fp8 peak gives (fp8 peak / bf16 peak) */
};

static inline double sat(double x)
{
	return x > 0 ? x / (x + GEMM_DIM_HALF) : 0;
}

/* Latency of a collective: NCCL switches to tree (or NVLS) algorithms when messages are
 * small, so the latency grows with log2 of the group, not with the ring's n - 1 hops
 * (NCCL docs; Sanders et al. 2009 on double binary trees). */
static inline double hops(double n)
{
	/* ceil(log2(n)), exactly, without libm or a loop: the doublings of 1 until n is
	 * reached are n's binary exponent, one more when n is no power of two (n > 1 is
	 * normal or infinite: 1024, as the doublings overflow to infinity) */
	uint64_t b;
	int e;
	if (!(n > 1))
		return 0;
	memcpy(&b, &n, sizeof(b));
	e = (int)((b >> 52) & 0x7ff) - 1023;
	return (b & 0xfffffffffffffULL) ? e + 1 : e;
}

/* All-reduce: a ring moves 2 (n-1)/n of the message through each GPU's link (Patarasuk
 * and Yuan 2009; NCCL docs), plus a latency per hop of a reduce and a broadcast tree. */
static inline double allreduce_s(double bytes, double n, double bw, double lat)
{
	if (n <= 1 || bytes <= 0)
		return 0;
	return 2 * (n - 1) * bytes / (n * bw) + 2 * hops(n) * lat;
}

/* Reduce-scatter or all-gather: (n-1)/n of the (whole) message. */
static inline double gather_s(double bytes, double n, double bw, double lat)
{
	if (n <= 1 || bytes <= 0)
		return 0;
	return (n - 1) * bytes / (n * bw) + hops(n) * lat;
}

static inline double dmax(double a, double b)
{
	return a > b ? a : b;
}

/* fmin and fmax as C99 defines them (a NaN argument loses to a number), inline: the
 * library calls cost more than the comparisons */
static inline double min_num(double a, double b)
{
	return isnan(a) ? b : isnan(b) ? a : a < b ? a : b;
}

static inline double max_num(double a, double b)
{
	return isnan(a) ? b : isnan(b) ? a : a > b ? a : b;
}

static inline double gpus_per_node(const struct scenario *s)
{
	int g = s->hardware.gpu.gpus_per_node;
	return g > 0 ? g : 8;
}

/* The fabric a group of `span` consecutive GPUs talks over: the GPU-to-GPU link inside
 * one link domain (an HGX board's NVSwitch; a GB200 NVL72 rack joins 72 GPUs across 18
 * trays of 4), PCIe peer-to-peer between the link domains of one node (NVLink-bridged
 * pairs of PCIe cards), the scale-out network beyond the node. */
static inline double fabric_bw(const struct tctx *c, double span)
{
	if (span <= c->domain)
		return c->link;
	if (span <= c->gpn)
		return c->pcie < c->link ? c->pcie : c->link;
	return c->net;
}

static inline double fabric_lat(const struct tctx *c, double span)
{
	return span <= c->domain || span <= c->gpn ? LINK_LAT_S : NET_LAT_S;
}

/* ---- the shape of one layer ---- */

struct shape {
	double h, qd, kvd, hd, heads, layers, vocab;
	double qgate;	   /* q_proj's extra output for an attention output gate (Qwen3-Next) */
	double ffn;	   /* dense MLP width */
	double mats;	   /* MLP matrices: 3 gated, 2 plain */
	double moe_layers; /* layers with routed experts */
	double experts, active, expert_ffn, shared_ffn_total;
	double window;	  /* tokens one layer attends to (0 = all) */
	double global;	  /* with a window: the share of layers that attend to everything */
	double attn;	  /* the share of layers with attention (model_attention_share) */
	double ssm;	  /* the share of layers with a state-space mixer */
	double ssm_in;	  /* its in_proj's output width (Mamba-2: 2 d_inner + 2 G N + H) */
	double ssm_di;	  /* its d_inner, out_proj's input */
	double mlp_dense; /* the share of the non-MoE layers that have a dense MLP */
};

/* One forward pass of the state-space layers' scans over T tokens on this GPU, all of the
 * model's SSM layers, seconds: the slower of their FLOPs (model_ssm_flops_per_token, the
 * chunked form) and their HBM traffic (model_ssm_scan_bytes_per_token), both split over tp
 * (Megatron-Core's MambaMixer shards d_inner and the heads, megatron/core/ssm/
 * mamba_mixer.py). Mamba-2's SSD and Gated DeltaNet run their chunks as tensor-core
 * matmuls (mamba_ssm ops/triton/ssd_combined.py _mamba_chunk_scan_combined_fwd; fla
 * ops/gated_delta_rule/chunk.py), taken at the attention core's FLASH_EFF of a large GEMM
 * (the Mamba-2 paper, Dao and Gu 2024, Section 9.3, times SSD level with FlashAttention-2
 * at 2K tokens and faster beyond); Mamba-1's selective scan (mamba_ssm csrc/selective_scan
 * selective_scan_fwd_kernel.cuh) runs on the FP32 CUDA cores. The training step
 * (plan_train.c) and the prefill (plan_infer.c, pt_prefill_s) run it. */
static inline double pt_ssm_scan_s(const struct tctx *c, const struct model *m, double T)
{
	double f, b, t_c;

	if (m->ssm.layers <= 0)
		return 0;
	f = T * model_ssm_flops_per_token(m, false) * c->it;
	b = T * model_ssm_scan_bytes_per_token(m, c->act) * c->it;
	if (m->ssm.heads > 0)
		t_c = f * c->inv_peak_emax * (1 / FLASH_EFF) * c->bf16_k;
	else
		t_c = f / (c->fp32 > 0 ? c->fp32 : c->peak);
	return dmax(t_c, b * c->inv_hbm);
}

/* Keys k of a full-attention layer, averaged over the layers when some attend over a
 * window (Gemma 3, gpt-oss, Llama 4's chunks: model.global_layers of them see all k). */
static inline double keys_mixed(double window, double global, double k)
{
	if (window <= 0 || window >= k)
		return k;
	return global * k + (1 - global) * window;
}

/* Keys one query attends to on average: causal masking halves a full sequence; a sliding
 * window caps it. */
static inline double keys_causal(const struct shape *sh, double s)
{
	return keys_mixed(sh->window, sh->global, s / 2) * sh->attn;
}

/* Keys per query as the FLOP conventions count them (Megatron, MosaicML: the full s). */
static inline double keys_full(const struct shape *sh, double s)
{
	return keys_mixed(sh->window, sh->global, s) * sh->attn;
}
/* ---- the loaded engine's evaluations, shared by a plan's searches (plan_serve.c) ---- */

/* The engine at a running batch (plan_serve.c, serve_at). */
struct serve_point {
	double step;   /* the mean gap between a sequence's tokens */
	double ttft;   /* a prompt's own passes */
	double e2e;    /* ttft + (O - 1) step */
	double joined; /* prompt tokens per decode step */
	double room;   /* prompt tokens a step (or a prefill pass) may carry */
	double decode; /* a step of the decodes alone */
	double fused;  /* a step that carries prompts (NaN: none do) */
	double frac;   /* the share of steps that carry prompts */
	double ahead;  /* in ttft: the step launched ahead of the prompt's first pass */
	bool starved;  /* the prompts arrive faster than the budget takes them */
	double B;      /* the running batch it is the engine at */
};

/* What a plan works out once about its loaded engine and reuses: serve_at's points (the
 * running cap, an empty engine or a lone request, either side of the CUDA-graph cap), the
 * engine held at a batch by its own rate (the SLO batch search's first two, its ends: the
 * capacity walk asks for it at the running cap too) and the lengths at each level. serve_at is a
 * function of its B and n alone once the serve configuration is fixed, and the SLO batch
 * search (pt_loaded_slo_batch) and the serving figures (pt_serve) fix the same one. */
#define SERVE_MEMO 5
#define SERVE_HELD 2
struct serve_memo {
	int n;
	double B[SERVE_MEMO], k[SERVE_MEMO];
	struct serve_point pt[SERVE_MEMO];
	/* the engine held at hB[i] by its own rate h_rate[i]: the SLO level's latencies and
	 * whether its prompts overran the budget (plan_serve.c, held_at) */
	int nh;
	double hB[SERVE_HELD], h_rate[SERVE_HELD], h_ttft[SERVE_HELD], h_tpot[SERVE_HELD];
	bool h_over[SERVE_HELD];
	/* serve_levels' lengths at a level q[i] (law_quantile of the prompt and the output
	 * laws at their means), where known[i] */
	bool known[4];
	double q[4], prompt[4], output[4];
};

struct lines {
	double tc0, tc1; /* GEMMs on tensor cores */
	double cc1;	 /* GEMMs on CUDA cores (through the origin) */
	double m0;	 /* the weight read */
	double a1;	 /* attention per sequence: max(FLOPs, KV read) */
	double c_att1;	 /* its FLOP part alone */
	double kv1;	 /* its KV read alone */
	double a_spec;	 /* a verify pass's: max(c_att1 (K + 1), kv1), K + 1 queries a key */
};

struct infer {
	double F;	   /* matmul FLOPs per token on the token's path (all stages), /tp */
	double W;	   /* weight bytes read per decode step on the path */
	double sNK;	   /* FLOP-weighted sat(N) sat(K) of the model's GEMMs */
	double kvb;	   /* KV-cache bytes per token of context, this GPU's share x stages */
	double state_b;	   /* recurrent state bytes per sequence, this GPU's share x stages */
	double state_up;   /* its recurrent update's FLOPs per sequence a step, s (CUDA cores) */
	double scan_tok;   /* a prompt token's state-space scans, s (pt_ssm_scan_s) */
	double attn_tok;   /* attention FLOPs per token per context token (4 L qd / tp) */
	double fixed;	   /* per step: launches, dequantisation, TP latency */
	double tp_per_tok; /* per step, per sequence: TP all-reduce and EP all-to-all bytes */
	double tp_fixed, ep_fixed, pp_fixed; /* the latencies in fixed, by kind */
	double ep_per_tok, tp_only_per_tok;  /* tp_per_tok's EP and TP parts */
	double base_fixed;		     /* fixed less the latencies: launches, host, dequant */
	double elt_per_tok;		     /* per token: elementwise traffic time */
	double tpe;			     /* a row's traffic: tp_per_tok + elt_per_tok */
	double prefill_P;		     /* prompt tokens */
	double hit;			     /* the prefix cache's hit rate (prefix_tiers) */
	double host_load;		     /* a prompt's host-held prefix loaded, s */
	double key_half; /* keys per computed prompt token / its computed tokens (1/2 uncached) */
	double ctx;	 /* average context of a decode step */
	double pp;	 /* pipeline stages of a replica */
	double window;	 /* sliding window: the most keys a token attends to (0 = all) */
	double global;	 /* the share of layers outside the window (shape.global) */
	double rglobal;	 /* the same for the KV bytes read (model_kv_read_window) */
	double attn;	 /* the share of layers with attention (shape.attn) */
	double dim0;	 /* rows a small-batch decode GEMM pads to (the tile floor) */
	/* seconds, worked out once from the above (so that a step is divisions-free) */
	double tc_row;	 /* tensor-core GEMMs per row of the batch: F / (peak emax sNK) */
	double cc_row;	 /* CUDA-core GEMMs per row: F / (FP32 rate x GEMM_EFF_MAX) */
	double att_key;	 /* attention per token per key: attn_tok / (peak emax FLASH_EFF) */
	double w_read;	 /* the weight read: W / hbm */
	double key_P;	 /* the computed prompt's tokens, */
	double key_s;	 /* and prompt_key_s there */
	struct lines *l; /* the decode lines at ctx, computed once */
	/* speculative decoding (workload.speculative; sk = 0: none) */
	double sk;	 /* K, tokens drafted a step */
	double sE;	 /* expected tokens a sequence gains a step, (1 - a^(K+1)) / (1 - a) */
	double d_row;	 /* a draft step's GEMMs per row of the batch, s */
	double d_w;	 /* a draft step's weight read, s */
	double d_kv;	 /* a draft step's KV read per sequence at ctx, s */
	double d_fixed;	 /* a draft step's launches and TP latency, s */
	double d_pf_tok; /* the draft's prefill per prompt token, s */
	/* a batch above the CUDA-graph cap runs eagerly (framework_graph_max_bs) */
	double graph_bs;	   /* the largest graphed decode batch (INFINITY: all) */
	bool ahead;		   /* an overlap scheduler launches a step ahead (serve_at) */
	double eager_host;	   /* an eager step's host time, layers x EAGER_LAYER_S, s */
	double steps;		   /* decode steps one scheduling runs (workload.scheduler_steps) */
	struct serving_engine eng; /* the engine under load (framework_serving) */
	double host_step; /* the host's share of a step, paid once a scheduling (multi-step) */
	struct serve_memo *memo; /* the loaded engine's evaluations this plan (plan_serve.c) */
};

/* A decode step at batch B is two kinds of kernels that run one after the other:
 *  - the GEMMs over the weights: the slower of their compute and the weight read. The
 *    tensor-core path pads the B rows to a tile (sat(B) = B / (B + D): time
 *    F (B + D) / (peak emax sNK)); a matrix-vector kernel on the CUDA cores costs
 *    F B / FP32 rate; kernels take the faster (cuBLAS GEMV vs GEMM, llama.cpp's mmvq);
 *  - attention over each sequence's cached context: the slower of its FLOPs and the KV
 *    read, both proportional to B (FlashDecoding / paged attention are memory-bound).
 * Every term is a line in B, which keeps the SLO batch closed-form. */

/* Keys a new token attends to (and cached tokens it reads) at a context of ctx: a sliding
 * window caps both (Mistral 7B, Jiang et al. 2023, Section 2; the memory part caps the
 * cache the same way). */
static inline double window_keys(const struct infer *in, double ctx)
{
	return keys_mixed(in->window, in->global, ctx) * in->attn;
}

/* A computed token of a prompt of P computed tokens: its attention over the cached prefix
 * and half its own keys (key_half), and its state-space scans, s; the plan's own prompt
 * is the one every pass asks for (the same value, worked out once). */
static inline double prompt_key_s(const struct infer *in, double P)
{
	return P == in->key_P ? in->key_s
			      : window_keys(in, P * in->key_half) * in->att_key + in->scan_tok;
}

/* Cached tokens a decode step reads a sequence at a context of ctx: window_keys, but with
 * a block-sparse layer's KV heads read for all of their query heads' blocks
 * (model_kv_read_window). */
static inline double read_keys(const struct infer *in, double ctx)
{
	return keys_mixed(in->window, in->rglobal, ctx) * in->attn;
}

static inline double gemm_compute_s(const struct lines *l, double B)
{
	return min_num(l->tc0 + l->tc1 * B, l->cc1 * B);
}

/* A pass that carries prompt tokens (SGLang's extend forward): an engine with a graph cap
 * captures decode batches only (model_executor/cuda_graph_runner.py; ModelRunner
 * forward_extend runs eagerly), so its prefills wait for the host the same way. */
static inline double eager_extend(const struct infer *in, double gpu)
{
	return isfinite(in->graph_bs) ? dmax(gpu, in->eager_host) : gpu;
}

/* Pipeline stages work on different micro-batches at once once the batch can fill them:
 * B sequences travel as pp micro-batches of B / pp, so a step costs what a step of B / pp
 * costs through all stages (batch 1, llama.cpp's layer split: no overlap). */
static inline double micro(const struct infer *in, double B)
{
	return in->pp > 1 && B >= in->pp ? B / in->pp : B;
}

/* The peak arrival rate over all replicas: workload.requests_per_s where given, which
 * takes precedence (time_infer warns when it overrides a requests_per_day), else
 * requests_per_day x peak_factor / 86,400 s. Every figure of the load follows it. */
static inline double peak_rate(const struct workload *w)
{
	return w->requests_per_s > 0 ? w->requests_per_s
				     : w->requests_per_day * w->peak_factor * (1.0 / 86400);
}

/* ---- between the files (plan_time.c, plan_train.c, plan_infer.c, plan_serve.c) ---- */

double pt_gemm_s(struct tctx *c, double m, double n, double k, double count, double wbytes);
void pt_shape_get(const struct plan *p, struct shape *sh);
void pt_time_train(struct tctx *c);
void pt_time_infer(struct tctx *c);
double pt_decode_step_s(const struct tctx *c, const struct infer *in, double B, double ctx);
double pt_prefill_s(const struct infer *in, double M, double P);
double pt_spec_step_s(const struct tctx *c, const struct infer *in, const struct lines *l, double B,
		      double M, double att_m);
double pt_draft_step_s(const struct infer *in, double B);
void pt_serve(const struct tctx *c, const struct infer *in, double B, double maxb, double deployed,
	      double tps_plan);
double pt_loaded_slo_batch(const struct tctx *c, const struct infer *in, double B, double maxb,
			   double lone);
void pt_serving_nan(struct plan_serving *v);
void pt_serve_memo_init(struct serve_memo *m);
void pt_decode_terms(const struct tctx *c, const struct infer *in, double Bm, double step);
void pt_infer_mfu(const struct tctx *c);
void pt_weigh_prefill_shares(const struct tctx *c, const struct infer *in, double batch,
			     double decode_step, double pass);

/* What an overloaded engine completes, requests/s: its cap's rate, or fewer when the
 * prompt budget's passes are what cannot keep up, 1 / a prompt's service there (the
 * bound PW_OVERLOADED reports; plan_serve.c serve_levels) */
static inline double overloaded_rate(const struct plan_serving *v)
{
	return v->prompt_svc_s > 0 ? min_num(v->capacity_rate, 1 / v->prompt_svc_s)
				   : v->capacity_rate;
}

#endif
