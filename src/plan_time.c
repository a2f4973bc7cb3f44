/* plan_time.c - step time, throughput, latency, cost, energy, reliability and bottlenecks.
 *
 * Efficiency is an output here, not an input: every time is built from the work a part
 * does (FLOPs, bytes, messages) and the GPU's datasheet figures (dense peak, HBM bandwidth,
 * link and network bandwidth, CUDA-core FP32 rate), through ONE set of global constants
 * (below). Nothing depends on the model's name, the GPU's name or a benchmark row.
 * `efficiency.*` in the scenario overrides the modelled figures for users who measured.
 *
 * Training step (per micro-batch, on the last pipeline stage, then per step):
 *   GEMMs of each layer at the shape's efficiency (roofline with their operand bytes),
 *   attention core (FlashAttention or materialised scores), elementwise work at HBM speed,
 *   TP all-reduces per layer, EP all-to-alls, PP point-to-point; times m micro-batches
 *   plus the bubble (p-1)/v micro-batches; plus the DP reduction not hidden by the last
 *   backward, ZeRO-3 gathers not hidden by compute, the optimizer step (HBM-bound) or
 *   its offload (PCIe + CPU), and data loading slower than the step.
 * Inference: prefill = GEMMs at M = prompt tokens + causal attention; a decode step =
 *   max(GEMM compute, weight read) + max(attention FLOPs, KV read) + fixed per-step costs;
 *   every term is a line in the batch B, so the SLO batch and the compute-bound batch are
 *   closed-form. Throughput at B = B x out / (prefill of B prompts + out x step).
 *
 * Calibration. The constants marked "calibrated" were fitted once, together, to every row
 * of tests/unit/test_time.c (Megatron-LM Table 1, 10 rows on A100; MosaicML llm-foundry,
 * 7 rows on H100; llama.cpp tg512, 6 rows on RTX 3090/4090; TensorRT-LLM Llama 3.1 8B FP8,
 * 5 columns on H100) and the seed case of tests/unit/test_seed_time.c
 * (test_seed11_decode_latency): a random search (6 restarts x 150,000 steps) over
 * the constants within physically plausible ranges (stated with each constant), minimising
 * the largest of (row error / its tolerance) and (mean error / its tolerance) plus half the
 * average (row error / tolerance), so that no family of rows is left with a bias; then
 * rounded. Every row ends within 0.8 of its tolerance (the per-row errors are printed by
 * the test). The others are datasheet-like figures or documented assumptions. To redo
 * it, compile this file with -DNAME=expression for each constant (every constant is
 * #ifndef-guarded) against a driver that varies them and scores the rows.
 *
 * Engines. Those rows decode with llama.cpp's kernels (workload.engine: llama.cpp, the
 * default). workload.engine: cuda-graphs swaps in the decode kernels of CUDA-graph
 * serving engines (see the GRAPH_* constants); only its own three constants were fitted,
 * to the 41 rows of tests/unit/engine_rows.h, and nothing above changed with them.
 */
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
 * and the host's, which the batch does not change (plan_time.c, eager_wait). Fitted to
 * the one row that runs above the cap, SGLang at 8 req/s of shared/reference/measured.md
 * (Llama 3.3 70B, TP 4, H200): its concurrency of 360 (Little's law from the file), which
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

static double sat(double x)
{
	return x > 0 ? x / (x + GEMM_DIM_HALF) : 0;
}

/* One GEMM (m x k) . (k x n), count times: the slower of its compute at the shape's
 * efficiency and its operand traffic at HBM bandwidth (roofline, Williams et al. 2009).
 * At the efficiency emax sat(m) sat(n) sat(k), the compute time 2 m n k count /
 * (peak emax sat(m) sat(n) sat(k)) is 2 count (m + D)(n + D)(k + D) / (peak emax): the same
 * figure without a division (this runs a dozen times per plan). */
static double gemm_s(struct tctx *c, double m, double n, double k, double count, double wbytes)
{
	double t_c, t_m, t;

	if (!(m > 0 && n > 0 && k > 0 && count > 0))
		return 0;
	t_c = 2 * count * (m + GEMM_DIM_HALF) * (n + GEMM_DIM_HALF) * (k + GEMM_DIM_HALF) *
	      c->inv_peak_emax;
	t_m = count * ((m * k + m * n) * c->act + k * n * wbytes) * c->inv_hbm;
	t = t_c > t_m ? t_c : t_m;
	c->gemm_flops += 2 * m * n * k * count;
	c->gemm_time += t;
	return t;
}

/* Latency of a collective: NCCL switches to tree (or NVLS) algorithms when messages are
 * small, so the latency grows with log2 of the group, not with the ring's n - 1 hops
 * (NCCL docs; Sanders et al. 2009 on double binary trees). */
static double hops(double n)
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
static double allreduce_s(double bytes, double n, double bw, double lat)
{
	if (n <= 1 || bytes <= 0)
		return 0;
	return 2 * (n - 1) * bytes / (n * bw) + 2 * hops(n) * lat;
}

/* Reduce-scatter or all-gather: (n-1)/n of the (whole) message. */
static double gather_s(double bytes, double n, double bw, double lat)
{
	if (n <= 1 || bytes <= 0)
		return 0;
	return (n - 1) * bytes / (n * bw) + hops(n) * lat;
}

static double dmax(double a, double b)
{
	return a > b ? a : b;
}

/* fmin and fmax as C99 defines them (a NaN argument loses to a number), inline: the
 * library calls cost more than the comparisons */
static double min_num(double a, double b)
{
	return isnan(a) ? b : isnan(b) ? a : a < b ? a : b;
}

static double max_num(double a, double b)
{
	return isnan(a) ? b : isnan(b) ? a : a > b ? a : b;
}

static double gpus_per_node(const struct scenario *s)
{
	int g = s->hardware.gpu.gpus_per_node;
	return g > 0 ? g : 8;
}

/* The fabric a group of `span` consecutive GPUs talks over: the GPU-to-GPU link inside
 * one link domain (an HGX board's NVSwitch; a GB200 NVL72 rack joins 72 GPUs across 18
 * trays of 4), PCIe peer-to-peer between the link domains of one node (NVLink-bridged
 * pairs of PCIe cards), the scale-out network beyond the node. */
static double fabric_bw(const struct tctx *c, double span)
{
	if (span <= c->domain)
		return c->link;
	if (span <= c->gpn)
		return c->pcie < c->link ? c->pcie : c->link;
	return c->net;
}

static double fabric_lat(const struct tctx *c, double span)
{
	return span <= c->domain || span <= c->gpn ? LINK_LAT_S : NET_LAT_S;
}

/* Adds a warning unless the memory part already gave the same one. */
static void warn_once(struct plan *p, enum plan_warning_code code, double a, double b)
{
	for (int i = 0; i < p->nwarnings; i++)
		if (p->warnings[i].code == code)
			return;
	plan_warn(p, code, a, b);
}

/* The dense peak at the compute precision, or the nearest precision the GPU has; *used
 * gets the precision whose GEMMs then run. */
static double peak_for(const struct scenario *s, struct plan *p, enum dtype prec, enum dtype *used)
{
	static const enum dtype order[] = {DTYPE_BF16, DTYPE_FP16, DTYPE_TF32, DTYPE_FP32};
	const struct gpu *g = &s->hardware.gpu;

	*used = prec;
	if ((unsigned)prec < DTYPE_COUNT && g->peak_flops[prec] > 0)
		return g->peak_flops[prec];
	for (unsigned i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
		if (g->peak_flops[order[i]] > 0) {
			warn_once(p, PW_NO_PRECISION_PEAK, (double)order[i], (double)prec);
			*used = order[i];
			return g->peak_flops[order[i]];
		}
	}
	warn_once(p, PW_NO_PRECISION_PEAK, -1, (double)prec);
	return 1e12; /* a GPU without any figure: 1 TFLOP/s keeps the figures finite */
}

static double elem_bytes(enum dtype t)
{
	double b = dtype_bytes(t);
	return b > 0 ? b : 2;
}

static void ctx_init(struct tctx *c, const struct scenario *s, struct plan *p)
{
	const struct gpu *g = &s->hardware.gpu;
	double e_hbm = s->efficiency.hbm > 0 ? s->efficiency.hbm : HBM_EFF;
	double e_link = s->efficiency.network > 0 ? s->efficiency.network : LINK_EFF;
	double e_net = s->efficiency.network > 0 ? s->efficiency.network : NET_EFF;
	double link = g->link_bytes_per_s > 0 ? g->link_bytes_per_s / 2 : g->pcie_bytes_per_s;
	double hbm_peak;
	enum dtype used;

	c->s = s;
	c->p = p;
	c->peak = peak_for(s, p, p->precision, &used);
	p->peak_precision = used; /* what the report's peak names (report.c) */
	c->fp32 = g->peak_flops[DTYPE_FP32];
	hbm_peak = g->hbm_bytes_per_s > 0 ? g->hbm_bytes_per_s : 1e12;
	c->hbm = hbm_peak * e_hbm;
	if (link <= 0)
		link = 16e9; /* PCIe Gen3 x16 when nothing is known */
	c->link = link * e_link;
	c->pcie = (g->pcie_bytes_per_s > 0 ? g->pcie_bytes_per_s : 16e9) * e_link;
	c->net = (g->network_bytes_per_s > 0 ? g->network_bytes_per_s : 12.5e9) * e_net;
	if (c->net > c->link)
		c->net = c->link;
	c->gpn = gpus_per_node(s);
	c->domain = g->link_domain > 0 ? g->link_domain : c->gpn;
	/* activations: 4 bytes under fp32/tf32, else 16-bit (fp8 GEMMs keep bf16 activations
	 * between them, Transformer Engine) */
	c->act = dtype_bytes(p->precision) >= 4 ? 4 : 2;
	c->gemm_flops = c->gemm_time = 0;
	/* the ridge point per element (FLOP x operand bytes per byte of bandwidth): FP8
	 * doubles the FLOPs and halves the operand bytes, so it feeds like bf16; a GPU
	 * without the precision runs its GEMMs in the fallback's (fp8 on an A100: bf16) */
	c->emax = GEMM_EFF_MAX *
		  sqrt(GEMM_RIDGE_REF * hbm_peak / (c->peak * elem_bytes(used))); /* exponent 1/2 */
	if (c->emax > GEMM_EFF_CAP)
		c->emax = GEMM_EFF_CAP;
	/* efficiency.gemm: a measured GEMM efficiency (calibrate fits it to a prefill or a
	 * compute-bound decode) replaces the ridge-point model */
	if (s->efficiency.gemm > 0)
		c->emax = s->efficiency.gemm;
	p->gemm_efficiency = c->emax;
	c->inv_peak_emax = 1 / (c->peak * c->emax);
	c->inv_hbm = 1 / c->hbm;
	c->it = p->tp > 0 ? 1.0 / p->tp : 1;
	/* tensor parallelism beyond the link domain runs its all-reduces over the network */
	{
		int domain = g->link_domain > 0 ? g->link_domain : g->gpus_per_node;
		if (domain > 0 && p->tp > domain)
			warn_once(p, PW_TP_ACROSS_NODES, p->tp, domain);
	}
	p->hbm_efficiency = e_hbm;
	p->network_efficiency = e_net;
	p->peak_flops = c->peak;
	/* fp8 training of the linear layers only (workload.fp8_scope; Transformer Engine's
	 * fp8_autocast converts its Linear modules, torchao's convert_to_float8_training
	 * nn.Linear, torchtitan's filter leaves the output layer out; DeepSeek-V3 report,
	 * arXiv 2412.19437, Section 3.3.1: the embedding, output head, normalisation and
	 * attention keep bf16): the attention core and the output layer run at the bf16
	 * peak */
	c->bf16_k = 1;
	if (used == DTYPE_FP8 &&
	    (s->workload.kind == WL_TRAIN || s->workload.kind == WL_FINETUNE) &&
	    framework_fp8_scope(s->workload.framework, s->workload.fp8_scope) == FP8_LINEAR) {
		double b16 = g->peak_flops[DTYPE_BF16] > 0 ? g->peak_flops[DTYPE_BF16]
							   : g->peak_flops[DTYPE_FP16];
		if (b16 > 0)
			c->bf16_k = c->peak / b16;
	}
}

static const struct plan_time_parts no_parts;
static const struct plan_decode no_decode = {NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN,
					     NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN};

static void serving_nan(struct plan_serving *v);
static const struct plan_overlap no_overlap = {OVERLAP_OFF, OVERLAP_OFF, OVERLAP_OFF, NAN, NAN,
					       NAN,	    NAN,	 NAN,	      NAN, NAN};

static void set_nan(struct plan *p)
{
	p->flops_per_token = p->hw_flops_per_token = p->attention_flops_per_token = NAN;
	p->flops_per_step = p->flops_total = NAN;
	p->mfu = p->hfu = p->matmul_efficiency = NAN;
	p->step_s = p->total_s = p->gpu_hours = NAN;
	p->tokens_per_s = p->tokens_per_s_per_gpu = NAN;
	p->ttft_s = p->tpot_s = p->decode_compute_bound_batch = NAN;
	p->slo_batch = p->replicas = p->gpus_required = NAN;
	p->prefix_hit = p->prefix_host_share = p->host_kv_load_s = p->host_kv_copy_s = NAN;
	p->usd_total = p->usd_per_hour = p->usd_per_million_tokens = p->kwh = NAN;
	p->expected_interruptions = p->checkpoint_interval_s = p->checkpoint_write_s = NAN;
	p->goodput = NAN;
	p->hbm_efficiency = p->network_efficiency = p->gemm_efficiency = p->peak_flops = NAN;
	p->parts = no_parts; /* a copy, not a zero-fill: rep stos is slow to start */
	p->decode = no_decode;
	p->overlap = no_overlap;
	serving_nan(&p->serving);
	for (int i = 0; i < BN_COUNT; i++)
		p->shares[i] = 0;
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

static void shape_get(const struct plan *p, struct shape *sh)
{
	const struct model *m = &p->model;

	sh->h = m->hidden > 0 ? m->hidden : 1;
	sh->heads = m->heads > 0 ? m->heads : 1;
	sh->hd = m->head_dim > 0 ? m->head_dim : sh->h / sh->heads;
	sh->qd = sh->heads * sh->hd;
	sh->kvd = (m->kv_heads > 0 ? m->kv_heads : sh->heads) * sh->hd;
	/* per-layer K/V heads (DeciLM's n_heads_in_group, model.kv_sum): the attention
	 * layers' K and V projections are as wide as their own heads, on average the sum over
	 * those layers, not kv_heads (their rounded-up mean) */
	if (m->kv_sum > 0 && model_attention_layers(m) > 0)
		sh->kvd = (double)m->kv_sum / model_attention_layers(m) * sh->hd;
	sh->qgate = m->attention_gate ? sh->qd : 0;
	sh->layers = m->layers > 0 ? m->layers : 1;
	sh->vocab = m->vocab;
	sh->ffn = m->ffn;
	sh->mats = m->mlp == MLP_GATED ? 3 : 2;
	sh->experts = m->moe.experts;
	sh->moe_layers = 0;
	sh->active = sh->expert_ffn = sh->shared_ffn_total = 0;
	if (m->moe.experts > 0) {
		sh->moe_layers = sh->layers - m->moe.dense_layers;
		if (sh->moe_layers < 0)
			sh->moe_layers = 0;
		sh->active = m->moe.active;
		sh->expert_ffn = m->moe.expert_ffn;
		sh->shared_ffn_total = (double)m->moe.shared *
				       (m->moe.shared_ffn ? m->moe.shared_ffn : m->moe.expert_ffn);
	}
	sh->attn = model_attention_share(m);
	/* hybrids (model.h): the layers' GEMMs in proportion to the layers that have them */
	sh->ssm = sh->ssm_in = sh->ssm_di = 0;
	sh->mlp_dense = 1;
	if (m->ssm.layers > 0 && m->layers > 0) {
		sh->ssm = (double)m->ssm.layers / m->layers;
		sh->ssm_di = model_ssm_inner(m);
		/* in_proj and out_proj carry the mixer's FLOPs (model_ssm_in_width) */
		sh->ssm_in = model_ssm_in_width(m);
	}
	if (m->mlpless_layers > 0 && m->layers > model_moe_layers(m))
		sh->mlp_dense = (double)(model_mlp_layers(m) - model_moe_layers(m)) /
				(m->layers - model_moe_layers(m));
	sh->window = m->sliding_window;
	sh->global = m->layers > 0 && m->sliding_window > 0
			 ? 1 - (double)model_local_layers(m) / m->layers
			 : 0;
}

/* Keys k of a full-attention layer, averaged over the layers when some attend over a
 * window (Gemma 3, gpt-oss, Llama 4's chunks: model.global_layers of them see all k). */
static double keys_mixed(double window, double global, double k)
{
	if (window <= 0 || window >= k)
		return k;
	return global * k + (1 - global) * window;
}

/* Keys one query attends to on average: causal masking halves a full sequence; a sliding
 * window caps it. */
static double keys_causal(const struct shape *sh, double s)
{
	return keys_mixed(sh->window, sh->global, s / 2) * sh->attn;
}

/* Keys per query as the FLOP conventions count them (Megatron, MosaicML: the full s). */
static double keys_full(const struct shape *sh, double s)
{
	return keys_mixed(sh->window, sh->global, s) * sh->attn;
}

/* ---- training ---- */

struct train_mb { /* one micro-batch on the most loaded (last) pipeline stage, seconds */
	double matmul, attention, membound, tp, ep, pp, cp, bwd;
	double tp_alone; /* the TP collectives before any overlap */
};

/* Context parallelism's K/V exchange of one attention layer, seconds, and what of it shows
 * beside that layer's attention (att, its passes: forward, recomputed forward, backward).
 * Each rank holds T tokens of each sequence (two of the 2 cp chunks,
 * megatron/training/utils.py get_batch_on_this_cp_rank) and kvd_local = K/V heads x
 * head_dim on its tp rank; the cp group's ranks are tp apart (Megatron's order
 * tp-cp-ep-dp-pp, megatron/core/parallel_state.py), so it spans tp x cp GPUs.
 * Transformer Engine (transformer_engine/pytorch/attention/dot_product_attention/
 * context_parallel.py):
 * - p2p (AttnFuncWithCPAndKVP2P, the ring): cp - 1 steps a forward pass, each sending the
 *   K/V chunk on while attention runs on the one received (the two on separate streams),
 *   and cp - 1 a backward, sending K/V with their gradients (twice the bytes); so only
 *   the exchange beyond the attention it overlaps shows: max(0, comm - att);
 * - all_gather (AttnFuncWithCPAndKVAllGather; Llama 3, Dubey et al. 2024, Section 3.3.2):
 *   an all-gather of K/V before each forward pass and, in the backward, the all-gather
 *   again and a reduce-scatter of dK/dV, not overlapped with the attention. */
static double cp_exchange_s(const struct tctx *c, const struct scenario *s, double cp, double t,
			    double T, double kvd_local, double fwd, double att)
{
	double chunk = 2 * T * kvd_local * c->act; /* this rank's K and V, bytes */
	double bw = fabric_bw(c, t * cp), lat = fabric_lat(c, t * cp);

	if (cp <= 1)
		return 0;
	if (s->parallel.cp_comm == CP_COMM_ALL_GATHER)
		return (fwd + 2) * gather_s(chunk * cp, cp, bw, lat);
	return dmax(0, (cp - 1) * (fwd * (chunk / bw + lat) + 2 * chunk / bw + lat) - att);
}

/* Communication x on a side stream behind compute c (CUDA streams; NCCL or copy-engine
 * collectives), where the compute runs at speed k (0 < k <= 1, framework_overlap_speed)
 * while the communication does, since both share the SMs and HBM: the pair takes
 * max(x, c + x (1 - k)) (the compute finishes under the communication, or the
 * communication slows x (1 - k) of it), so what shows beyond c is
 * max(x - c, x (1 - k)). It never exceeds x (no overlap), never falls below
 * max(0, x - c) (perfect overlap, k = 1), and does not fall as x grows or rise as c does. */
static double overlap_s(double x, double c, double k)
{
	if (!(x > 0))
		return 0;
	return dmax(x - c, x * (1 - k));
}

/* One layer's forward GEMMs for T tokens: seconds; accumulates FLOPs into c. */
static double layer_gemm_fwd(struct tctx *c, const struct shape *sh, double T, double ep, bool moe)
{
	double w = c->act, g = 0, it = c->it;

	/* a hybrid's layers: attention, state-space mixer and MLP GEMMs each weighted by the
	 * share of the layers that have them (gemm_s's count is a multiplier) */
	g += gemm_s(c, T, (sh->qd + sh->qgate + 2 * sh->kvd) * it, sh->h, sh->attn, w);
	g += gemm_s(c, T, sh->h, sh->qd * it, sh->attn, w);
	if (sh->ssm > 0) {
		g += gemm_s(c, T, sh->ssm_in * it, sh->h, sh->ssm, w);
		g += gemm_s(c, T, sh->h, sh->ssm_di * it, sh->ssm, w);
	}
	if (!moe) {
		g += gemm_s(c, T, sh->ffn * it, sh->h, (sh->mats - 1) * sh->mlp_dense, w);
		g += gemm_s(c, T, sh->h, sh->ffn * it, sh->mlp_dense, w);
	} else {
		/* each GPU holds experts/ep experts and receives T x active x ep / experts
		 * tokens for each (balanced routing) */
		double local = sh->experts / ep;
		double te = T * sh->active * ep / sh->experts;
		g += gemm_s(c, te, sh->expert_ffn * it, sh->h, (sh->mats - 1) * local, w);
		g += gemm_s(c, te, sh->h, sh->expert_ffn * it, local, w);
		if (sh->shared_ffn_total > 0) {
			g += gemm_s(c, T, sh->shared_ffn_total * it, sh->h, sh->mats - 1, w);
			g += gemm_s(c, T, sh->h, sh->shared_ffn_total * it, 1, w);
		}
		g += gemm_s(c, T, sh->experts, sh->h, 1, w); /* router */
	}
	return g;
}

/* The HBM bytes eager layer code moves per token per layer in the forward beyond the fused
 * count of ELT_H / ELT_FFN_*, read off the modules' kernels (e = bytes an activation
 * element, it = 1 / tp, f = the MLP width a token passes):
 * - RMSNorm (torchtune/modules/rms_norm.py; transformers' LlamaRMSNorm alike): x.float()
 *   (e read, 4 written), pow (4, 4), mean (4), the multiply by rsqrt (4, 4), type_as (4,
 *   e), the scale (e, e): 28 + 4 e bytes an element where a fused norm moves 2 e; two a
 *   layer;
 * - rotary (torchtune/modules/position_embeddings.py, RotaryPositionalEmbeddings): x.float()
 *   (e, 4), four half-width products (2 + 2 each), their sum and difference (4 + 2 each),
 *   torch.stack (4, 4), type_as (4, e): 44 + 2 e, 44 more than a fused pass, on q and k;
 *   transformers' apply_rotary_pos_emb stays in the activations' dtype (rotate_half's cat,
 *   two products, a sum: 9 e, 7 e more);
 * - GQA: k and v expanded to every query head by a copy (torchtune attention.py
 *   expand(...).flatten(1, 2); transformers repeat_kv), kv_dim read, q_dim written each;
 * - the attention output's transpose(1, 2).contiguous(): q_dim read and written;
 * - a gated MLP, w2(silu(w1(x)) * w3(x)): SiLU (f, f) and the product (2 f, f) as two
 *   kernels, 5 e f where the fused SwiGLU moves 3 e f.
 * The backward runs each op's autograd kernels, counted as the fused work's twice. Not
 * fitted: tests/unit/test_overlap.c checks it against torchtune's README, compiled and
 * not. */
static double eager_bytes(const struct shape *sh, double f, double e, double it, int fw)
{
	double q = sh->qd * it, kv = sh->kvd * it;
	double rope = fw == FW_HF ? 7 * e : 44;
	double b = 2 * (28 + 2 * e) * sh->h + rope * (q + kv) + 2 * e * q;
	if (sh->kvd < sh->qd)
		b += 2 * e * (kv + q);
	if (sh->mats == 3)
		b += 2 * e * f * it;
	return b;
}

/* The share of a layer's forward GEMM FLOPs that torchtitan's per-op selective
 * checkpointing (workload.recompute op) runs again in the backward: its policy saves the
 * outputs of the save-list ops except every second mm, counted afresh in each layer's
 * checkpoint context (torchtitan/distributed/activation_checkpoint.py,
 * _get_custom_policy: "Save all compute/comm ops, except every second mm/linear"). A
 * Llama layer runs wq, wk, wv, wo, then w1, w3, w2 (torchtitan/models/common/
 * feed_forward.py: w2(silu(w1(x)) * w3(x))): wk, wo and w3 are recomputed; a plain MLP's
 * sixth is w2, as wide. */
static double op_recompute_share(const struct shape *sh)
{
	double all = 2 * sh->qd + 2 * sh->kvd + sh->mats * sh->ffn;
	return all > 0 ? (sh->kvd + sh->qd + sh->ffn) / all : 0;
}

/* HBM bytes per logit that the loss (forward and backward, after the output GEMM) moves,
 * by workload.loss (else the framework's), e = bytes of a 16-bit logit:
 * - paper: the fp32 softmax read and written about three times, 12 (Korthikanti et al.
 *   2023 keep the logits in fp32; today's results, so the seed cases hold);
 * - fp32, eager (transformers LlamaForCausalLM `logits.float()`, torchtune
 *   TransformerDecoder `self.output(h).float()`, then F.cross_entropy): the upcast
 *   (e read, 4 written), log_softmax (4, 4), nll_loss_backward's zero-filled fp32
 *   gradient (4), log_softmax_backward (4 + 4 read, 4 written) and the upcast's backward
 *   (4, e): 32 + 2 e; compiled layers leave the upcast an eager op on each side (e + 4,
 *   4 + e) and Inductor fuses the cross-entropy (4 read forward; 4 read, 4 written
 *   backward): 20 + 2 e;
 * - chunked with chunks (torchtune CEWithChunkedOutputLoss, num_output_chunks 8,
 *   torchtune/modules/loss/ce_chunked_output_loss.py: each chunk's `.float()` and
 *   cross_entropy inside the loss that the recipe compiles, training.compile_loss):
 *   compiled, the forward reduces the 16-bit chunk (e read, twice: max, then the sum
 *   of exponentials) and the backward reads it once and writes its 16-bit gradient:
 *   4 e; eager, each chunk moves what the fp32 path does, 32 + 2 e;
 * - chunked without chunks (llm.c fused_classifier, llmc/fused_classifier.cuh
 *   fused_classifier_kernel5): one kernel reads each bf16 row for its softmax
 *   statistics, reads it again ("hopefully still in cache", taken as from L2) and
 *   writes the gradient over it in place: 2 e. */
double plan_loss_traffic(const struct workload *w, double e)
{
	const struct framework_info *fw = framework_get(w->framework);
	enum loss l = w->loss != LOSS_AUTO ? w->loss : fw->loss;
	bool eager = framework_eager(w->framework, w->compile);

	switch (l) {
	case LOSS_FP32:
		return eager ? 32 + 2 * e : 20 + 2 * e;
	case LOSS_CHUNKED:
		if (fw->loss_chunks <= 0)
			return 2 * e;
		return eager ? 32 + 2 * e : 4 * e;
	default:
		return 12;
	}
}

/* HBM bytes per frozen base weight that a quantised base (QLoRA's NF4, an int8 or int4
 * base) moves each time a GEMM uses it in training, on top of the 16-bit weight the GEMM
 * then reads (gemm_s): the weights are dequantised to the activations' dtype before the
 * matmul, in the forward, a recomputed forward and the backward's input gradient
 * (torchao/dtypes/nf4tensor.py linear_nf4: F.linear(input, weight.to(input.dtype)),
 * LinearNF4.backward the same; bitsandbytes MatMul4Bit, dequantize_4bit). One fused
 * kernel (bitsandbytes' kDequantizeBlockwise; torchao's chain under torch.compile) reads
 * the packed weight and writes it in e bytes: q + e. torchao's NF4Tensor in eager
 * PyTorch (torchtune with compile off) runs get_original_weight op by op, per weight:
 * the nibble shift and mask (0.5 read, 0.5 written, each) and their .to(torch.long)
 * (0.5, 4, each), the two nf4[...] look-ups (4, 1, each), the two products with the
 * block scales (1, 1, each) and torch.stack (2, 2): 29 bytes. 16-bit bases: none. */
static double dequant_bytes(const struct workload *w, double e)
{
	enum dtype base = w->finetune.base_weights;
	double q;

	if (w->kind != WL_FINETUNE || w->finetune.method == FT_FULL)
		return 0;
	if (w->finetune.method == FT_QLORA &&
	    (base == DTYPE_BF16 || base == DTYPE_FP16 || base == DTYPE_FP32))
		base = DTYPE_NF4; /* QLoRA is defined by its 4-bit base (as plan_memory.c) */
	q = dtype_bytes(base);
	if (!(q > 0 && q < e))
		return 0;
	if (base == DTYPE_NF4 && w->framework == FW_TORCHTUNE &&
	    framework_eager(w->framework, w->compile))
		return 29;
	return q + e;
}

/* The share of a stage's Ls layers that workload.recompute applies to: R of them under
 * workload.recompute_layers (Megatron --recompute-method block --recompute-num-layers R,
 * the first R of each stage; torchtitan selective_ac_option N, every N-th block: R =
 * floor(L / N)), the others running as without recomputation; all by default, and under
 * --recompute-method uniform, whose chunks of R layers each run their forward again once
 * (megatron/core/recompute.py: every chunk under tensor_parallel.checkpoint). */
static double recompute_share(const struct workload *w, double Ls)
{
	if (w->recompute_layers <= 0 || !(Ls > 0) || w->recompute_layers >= Ls ||
	    w->recompute_method == RECOMPUTE_UNIFORM)
		return 1;
	return w->recompute_layers / Ls;
}

static void train_microbatch(struct tctx *c, const struct shape *sh, struct train_mb *mb,
			     double *fwd_passes_out)
{
	const struct scenario *s = c->s;
	const struct plan *p = c->p;
	const struct workload *w = &s->workload;
	double t = p->tp, pp = p->pp, ep = p->ep > 0 ? p->ep : 1, cp = p->cp > 0 ? p->cp : 1;
	double b = w->micro_batch > 0 ? w->micro_batch : 1, sq = w->seq_len > 0 ? w->seq_len : 1;
	/* tokens of the micro-batch on this GPU: context parallelism splits each sequence
	 * over cp ranks (every GEMM, elementwise and communication term takes T), while
	 * attention still runs each query over the whole sequence's keys: with the causal
	 * load balance (2 cp chunks, two a rank) each rank does 1 / cp of the attention */
	double sql = sq / cp, T = b * sql;
	bool lora = w->kind == WL_FINETUNE && w->finetune.method != FT_FULL;
	/* the share of the stage's layers that recompute (workload.recompute_layers) */
	double rl = recompute_share(w, pp > 1 ? ceil(sh->layers / pp) : sh->layers);
	/* forward passes per micro-batch: full recomputation runs the layers' forward again
	 * in the backward (Chen et al. 2016; Megatron --recompute-granularity full) */
	double fwd = w->recompute == RECOMPUTE_FULL ? 1 + rl : 1;
	/* backward = 2 x forward: input gradients and weight gradients; LoRA freezes the
	 * base weights, so only the input gradients (Hu et al. 2021) */
	double bwd = lora ? 1 : 2;
	/* torchtitan's per-op policy (workload.recompute op) saves the attention kernel's
	 * output (op_sac_save_list): its core is not run again */
	double attn_fwd_passes =
	    w->recompute == RECOMPUTE_NONE || w->recompute == RECOMPUTE_OP ? 1 : 1 + rl;
	/* ... and recomputes every second matmul of a layer and its pointwise ops: the
	 * share of the forward GEMMs run again (op_recompute_share) and one more pass of the
	 * elementwise work */
	double op = w->recompute == RECOMPUTE_OP ? rl : 0;
	double tp_bw = fabric_bw(c, t), tp_lat = fabric_lat(c, t);
	double dense_layers = sh->layers - sh->moe_layers;
	double gd, gm = 0, att, mem, flops_hd, ffn_eff;
	double per_layer_mm, per_layer_att, per_layer_mem, per_layer_tp, per_layer_ep;
	/* the pipeline runs at the pace of its slowest stage, which holds ceil(L / pp)
	 * layers when they do not split evenly (as the memory part's stage_init takes it) */
	double Ls = pp > 1 ? ceil(sh->layers / pp) : sh->layers;

	*fwd_passes_out = fwd;
	gd = layer_gemm_fwd(c, sh, T, ep, false);
	if (sh->moe_layers > 0)
		gm = layer_gemm_fwd(c, sh, T, ep, true);
	per_layer_mm = (dense_layers * gd + sh->moe_layers * gm) / sh->layers *
		       (fwd + bwd + op * op_recompute_share(sh));

	/* attention core: QK^T and AV, 2 x 2 x s x keys x head_dim per head per token */
	if (!(sh->attn > 0)) {
		att = 0; /* no layer attends (a pure state-space model) */
	} else if (w->flash_attention) {
		double keys = keys_causal(sh, sq);
		/* at FLASH_EFF of a GEMM of the same shape: emax sat(s) sat(keys) sat(hd) */
		double shape = (sql + GEMM_DIM_HALF) * (keys + GEMM_DIM_HALF) *
			       (sh->hd + GEMM_DIM_HALF) / (sql * keys * sh->hd);
		flops_hd = 4 * T * keys * sh->qd * c->it;
		att = flops_hd * c->inv_peak_emax * (1 / FLASH_EFF) * shape *
		      (attn_fwd_passes + FLASH_BWD_FLOPS) * c->bf16_k;
	} else {
		double keys = keys_full(sh, sq);
		double heads_local = sh->heads * c->it;
		double bmm = 2 * gemm_s(c, sql, keys, sh->hd, b * heads_local, c->act);
		double scores = b * heads_local * sql * keys * SCORE_BYTES_FWD * c->inv_hbm;
		att = (bmm * c->bf16_k + scores) * (attn_fwd_passes + 2);
	}
	per_layer_att = att;

	/* memory-bound elementwise work; sequence parallelism shards the h-sized tensors */
	ffn_eff =
	    sh->moe_layers > 0 ? (sh->active * sh->expert_ffn + sh->shared_ffn_total) : sh->ffn;
	mem = T * c->act *
	      (ELT_H * sh->h * (s->parallel.sequence_parallel ? c->it : 1) +
	       (sh->mats == 3 ? ELT_FFN_GATED : ELT_FFN_PLAIN) * ffn_eff * c->it) *
	      c->inv_hbm;
	/* eager PyTorch layers (workload.compile off where the framework's layers are plain
	 * modules: torchtune, transformers) run every pointwise op as its own kernel, each
	 * reading and writing HBM, where fused kernels (Megatron's, llm.c's) and
	 * torch.compile's Inductor (one Triton kernel per fused group) make one pass: what
	 * compile removes from the step is this traffic (eager_bytes) */
	if (framework_eager(w->framework, w->compile))
		mem += T * eager_bytes(sh, ffn_eff, c->act, c->it, w->framework) * c->inv_hbm;
	per_layer_mem = mem * (fwd + 2 + op);
	/* a quantised frozen base: each layer's weights dequantised for every pass that
	 * multiplies by them (dequant_bytes): the forward passes, the share per-op
	 * checkpointing runs again and the input gradient; MoE layers count their active
	 * experts (a token's path) */
	{
		double dq = dequant_bytes(w, c->act);
		if (dq > 0) {
			double lw =
			    (p->active_params - p->counts.embedding - p->counts.head) / sh->layers;
			per_layer_mem +=
			    lw * c->it * dq * (fwd + 1 + op * op_recompute_share(sh)) * c->inv_hbm;
		}
	}

	/* tensor parallelism: 2 all-reduces per layer forward (after attention and after the
	 * MLP), 2 backward, again in a recomputed forward (Megatron-LM, Shoeybi et al. 2019,
	 * Section 3); sequence parallelism turns each into reduce-scatter + all-gather, the
	 * same bytes (Korthikanti et al. 2023) */
	per_layer_tp = 0;
	if (t > 1)
		per_layer_tp = (2 * fwd + 2) * allreduce_s(T * sh->h * c->act, t, tp_bw, tp_lat);
	mb->tp_alone = Ls * per_layer_tp;
	/* overlapped (parallel.tp_comm_overlap: Megatron --tp-comm-overlap with Transformer
	 * Engine's userbuffers, torchtitan AsyncTP), each all-gather is pipelined with the
	 * GEMM that consumes it and each reduce-scatter with the GEMM that produces it, split
	 * into n chunks (framework tp_overlap_chunks; n = t: one per rank): the chunks of a
	 * GEMM hide the transfers of the others, and the reduce-scatter of the last chunk
	 * comes after its GEMM, 1 / (2 n) of the pair's bytes left exposed; the rest hides
	 * behind the layer's GEMMs (forward, backward and any recomputed forward, not the
	 * attention core) at the contention of overlap_s */
	if (per_layer_tp > 0 && p->overlap.tp == OVERLAP_ON) {
		int chunks = framework_get(w->framework)->tp_overlap_chunks;
		double tail = per_layer_tp / (2 * (chunks > 0 ? chunks : t));
		per_layer_tp =
		    tail + overlap_s(per_layer_tp - tail, per_layer_mm, p->overlap.speed);
	}

	/* expert parallelism: dispatch and combine all-to-all per MoE layer, forward and
	 * backward (GShard, Lepikhin et al. 2020) */
	per_layer_ep = 0;
	if (sh->moe_layers > 0 && ep > 1) {
		/* the ep group's ranks are tp x cp apart (order tp-cp-ep-dp-pp) */
		double bw = fabric_bw(c, ep * t * cp);
		double vol = T * sh->active * sh->h * c->act * (ep - 1) / ep;
		per_layer_ep = 2 * (fwd + 1) * (vol / bw + (ep - 1) * fabric_lat(c, ep * t * cp));
		per_layer_ep *= sh->moe_layers / sh->layers;
	}

	mb->matmul = Ls * per_layer_mm;
	mb->attention = Ls * per_layer_att;
	mb->membound = Ls * per_layer_mem;
	mb->tp = Ls * per_layer_tp;
	mb->ep = Ls * per_layer_ep;
	{
		/* K/V heads on this tp rank (replicated when tp exceeds them, as the memory
		 * part's local_heads), in the attention layers' share of the stage */
		double kvh = sh->kvd / sh->hd;
		double kvd_local = (kvh >= t ? kvh / t : 1) * sh->hd;
		/* one exchange each time the attention's forward runs: again under
		 * selective or full recomputation */
		mb->cp = sh->attn > 0 ? Ls * sh->attn *
					    cp_exchange_s(c, s, cp, t, T, kvd_local,
							  attn_fwd_passes, per_layer_att / sh->attn)
				      : 0;
	}
	/* the output layer on the last stage: forward + backward, never recomputed; the
	 * logits' loss is memory-bound, its bytes per logit as the framework runs it
	 * (plan_loss_traffic) */
	if (sh->vocab > 0) {
		mb->matmul +=
		    gemm_s(c, T, sh->vocab * c->it, sh->h, 1, c->act) * (1 + bwd) * c->bf16_k;
		mb->membound += T * sh->vocab * c->it * plan_loss_traffic(w, c->act) * c->inv_hbm;
	}
	/* pipeline point-to-point: activations forward, their gradients backward, once per
	 * virtual stage; Megatron's scatter/gather sends 1/t of it per GPU */
	mb->pp = 0;
	if (pp > 1) {
		double v = p->virtual_stages > 0 ? p->virtual_stages : 1;
		/* stages are tp x dp x ep ranks apart (Megatron's rank order: the data
		 * replicas, expert-parallel ones included, sit between pipeline stages) */
		double bw = fabric_bw(c, t * cp * p->dp * ep * pp);
		double lat = fabric_lat(c, t * cp * p->dp * ep * pp);
		mb->pp = 2 * v * (T * sh->h * c->act * c->it / bw + lat);
	}
	/* the backward of this micro-batch (for overlapping the gradient reduction) */
	mb->bwd = (mb->matmul + mb->attention + mb->membound) * bwd / (fwd + bwd);
	/* overlapped expert all-to-alls (parallel.ep_overlap): each runs while another
	 * micro-batch computes (DeepSeek-V3 report, arXiv 2412.19437, Section 3.2.1: DualPipe
	 * pairs a forward and a backward chunk so that dispatch and combine of one hide
	 * behind attention and MLP of the other; Megatron-Core --overlap-moe-expert-parallel-
	 * comm), so per micro-batch only the all-to-all time beyond its compute is exposed:
	 * max(ep - (matmul + attention + membound), 0). The hidden part still takes SMs
	 * from the compute (DeepSeek gives 20 of 132 to communication); not modelled. */
	if (s->parallel.ep_overlap)
		mb->ep = dmax(mb->ep - (mb->matmul + mb->attention + mb->membound), 0);
}

/* A data-parallel collective of the non-expert part (ne bytes over the dp x ep data
 * replicas) and of the routed experts (ex bytes over dp), one after the other; one
 * collective when there is no expert parallelism. */
static double dp_collective(double (*f)(double, double, double, double), double ne, double ex,
			    double dp, double ep, double bw, double lat)
{
	if (ep <= 1)
		return f(ne + ex, dp, bw, lat);
	return f(ne, dp * ep, bw, lat) + f(ex, dp, bw, lat);
}

static void time_train(struct tctx *c)
{
	const struct scenario *s = c->s;
	struct plan *p = c->p;
	const struct workload *w = &s->workload;
	struct shape sh;
	struct train_mb mb;
	double fwd_passes;
	double t = p->tp, pp = p->pp, dp = p->dp, v = p->virtual_stages > 0 ? p->virtual_stages : 1;
	double n = s->hardware.count > 0 ? s->hardware.count : 1, inv_n = 1 / n;
	double gpn = gpus_per_node(s);
	double nodes = ceil(n / gpn);
	double m = p->micro_batches > 0 ? p->micro_batches : 1;
	double sq = w->seq_len > 0 ? w->seq_len : 1;
	double gb = p->global_batch > 0 ? p->global_batch : w->micro_batch * dp;
	double tokens_step = gb * sq;
	double N = p->active_params;
	double layer_params = N - p->counts.embedding - p->counts.head;
	bool lora = w->kind == WL_FINETUNE && w->finetune.method != FT_FULL;
	double trainable = lora ? p->trainable_params : p->params;
	double wbytes = p->mem.weight_bytes_per_param > 0 ? p->mem.weight_bytes_per_param : c->act;
	double gbytes = p->mem.grad_bytes_per_param > 0 ? p->mem.grad_bytes_per_param : 2;
	double t_mb, pipeline, dp_s = 0, dp_exposed = 0, z3 = 0, opt = 0, off = 0, data = 0;
	double step_compute, step, inv_step, t_data = 0, attn_model;
	double ep = p->ep > 0 ? p->ep : 1;
	/* the gradient reduce and ZeRO's shards span the data-parallel ranks and the cp ranks
	 * of each (Megatron's data-parallel group with context parallelism,
	 * megatron/core/distributed/distributed_data_parallel.py; src/plan_memory.c) */
	double cp = p->cp > 0 ? p->cp : 1, dpc = dp * cp;
	double p_ne, p_ex = 0, t_ne, t_ex; /* parameters per GPU: non-expert, routed experts */

	shape_get(p, &sh);
	if (layer_params < 0)
		layer_params = N;

	/* FLOPs per token. Model FLOPs: 6N (forward 2N, backward 4N; Kaplan et al. 2020)
	 * with active parameters for MoE, plus attention 12 L s d (Megatron-LM, Narayanan
	 * et al. 2021, eq. 3; MosaicML's convention: L x 2 x 2 x d x s per token, x3).
	 * LoRA: forward 2N + input gradients 2N (frozen weights get no weight gradients);
	 * the attention core has no weights, so its backward (dQ, dK, dV) is unchanged. */
	attn_model = 12 * sh.layers * keys_full(&sh, sq) * sh.qd;
	p->attention_flops_per_token = attn_model;
	p->flops_per_token = (lora ? 4 : 6) * N;
	/* a model given only by its size: the published 6N convention, attention shown
	 * apart (tests/unit/test_seed_time.c, test_seed4 to test_seed6) */
	if (!p->shape_assumed)
		p->flops_per_token += attn_model;
	/* state-space layers: their scans forward and backward, 3 x the forward as the
	 * attention core's 12 = 3 x 4 (model_ssm_flops_per_token) */
	p->flops_per_token += 3 * model_ssm_flops_per_token(&p->model, false);
	/* hardware FLOPs add what recomputation executes again: full = one more forward of
	 * the layers (8N; the output layer is not recomputed), selective = the attention
	 * scores (Korthikanti et al. 2023, Section 5) */
	p->hw_flops_per_token = p->flops_per_token;
	{
		/* only the recomputing layers' share (workload.recompute_layers) */
		double rl = recompute_share(w, pp > 1 ? ceil(sh.layers / pp) : sh.layers);
		if (w->recompute == RECOMPUTE_FULL)
			p->hw_flops_per_token += rl * (2 * layer_params + attn_model / 3);
		else if (w->recompute == RECOMPUTE_SELECTIVE)
			p->hw_flops_per_token += rl * attn_model / 3;
		else if (w->recompute == RECOMPUTE_OP) /* the matmuls again, their 2 N share */
			p->hw_flops_per_token += rl * 2 * layer_params * op_recompute_share(&sh);
	}
	p->flops_per_step = p->flops_per_token * tokens_step;
	p->flops_total = w->tokens > 0 ? p->flops_per_token * w->tokens : NAN;

	/* which collectives run behind compute, and the compute's speed while they do */
	{
		enum overlap o[3];
		framework_overlaps(w->framework, s->parallel.tp_comm_overlap,
				   s->parallel.overlap_grad_reduce,
				   s->parallel.overlap_param_gather, p->zero, s->efficiency.overlap,
				   o, &p->overlap.speed);
		p->overlap.tp = o[0];
		p->overlap.grad = o[1];
		p->overlap.param = o[2];
	}
	train_microbatch(c, &sh, &mb, &fwd_passes);
	t_mb = mb.matmul + mb.attention + mb.membound + mb.tp + mb.ep + mb.pp + mb.cp;
	/* 1F1B with v interleaved chunks: bubble (p-1)/(v m) of the ideal time (Narayanan
	 * et al. 2021, Section 2.2) */
	pipeline = (m + (pp - 1) / v) * t_mb;

	/* Parameters one GPU holds before ZeRO: the non-expert part, replicated over the
	 * dp x ep data replicas, and the routed experts, split over ep and replicated over
	 * dp (Megatron-Core's expert-data-parallel groups; the memory part's layout) */
	if (sh.moe_layers > 0 && sh.experts > 0)
		p_ex = sh.moe_layers * sh.experts * p->counts.expert / (t * pp * ep);
	p_ne = p->params / (t * pp) - p_ex * ep;
	if (p_ne < 0)
		p_ne = 0;
	/* trainable: LoRA adapters (few; taken as non-expert), else every parameter */
	t_ne = lora ? trainable / (t * pp) : p_ne;
	t_ex = lora ? 0 : p_ex;

	/* data-parallel gradient reduction over the slowest link the group spans: its
	 * members are tp apart, so it leaves the node once tp x dp x ep > GPUs per node.
	 * Which collectives run behind compute is the framework's (parallel.
	 * overlap_grad_reduce, overlap_param_gather; framework.c), at the compute speed k
	 * of overlap_s (efficiency.overlap) */
	{
		double span = t * cp * dp * ep;
		double bw = fabric_bw(c, span), lat = fabric_lat(c, span);
		int f = w->framework;
		struct plan_overlap *ov = &p->overlap;
		double k = ov->speed;
		/* one micro-batch's compute, and its first forward pass */
		double compute = mb.matmul + mb.attention + mb.membound;
		double fwd1 = compute / (fwd_passes + (lora ? 1 : 2));
		ov->tp_s = m * mb.tp_alone;
		ov->tp_exposed_s = m * mb.tp;
		ov->grad_s = ov->grad_exposed_s = ov->param_s = ov->param_exposed_s = 0;
		if (p->zero >= 3) {
			/* ZeRO-3 / FSDP FULL_SHARD: all-gather the parameters for the forward and
			 * again for the backward, reduce-scatter the gradients, every
			 * micro-batch; prefetching overlaps them with the micro-batch's compute
			 * (Rajbhandari et al. 2020, Section 7; PyTorch FSDP paper, 2023) */
			/* Parameters kept gathered from the forward to the backward
			 * (parallel.reshard_after_forward never; FSDP under a pipeline) need
			 * one all-gather, not two. FSDP under a pipeline also skips the
			 * gradient sync until the last micro-batch (torch/distributed/
			 * pipelining/stage.py backward_maybe_with_nosync): the stage is
			 * gathered once a step and its fp32 gradients reduce-scattered once,
			 * which is why torchtitan does not reshard under PP
			 * (torchtitan/distributed/fsdp.py: "avoid per-microbatch
			 * all-gathers"). */
			bool once = p->zero >= 3 && framework_nosync_pipeline(f, (int)pp);
			double gathers =
			    framework_keeps_gathered(f, (int)pp, s->parallel.reshard_after_forward)
				? 1
				: 2;
			double acc_b = once ? 4 : gbytes; /* fp32 reduce dtype, unsharded */
			double ag = gathers * dp_collective(gather_s, p_ne * wbytes, p_ex * wbytes,
							    dp, ep, bw, lat);
			double rs =
			    dp_collective(gather_s, t_ne * acc_b, t_ex * acc_b, dpc, ep, bw, lat);
			double Ls = pp > 1 ? ceil(sh.layers / pp) : sh.layers;
			double times = once ? 1 : m;
			/* the prefetched all-gathers (overlap_param_gather) and the reduce-scatters
			 * on their own stream (overlap_grad_reduce) hide behind the micro-batch's
			 * compute together; the others run between the layers' kernels */
			double ag_on = ov->param == OVERLAP_ON ? ag : 0;
			double rs_on = ov->grad == OVERLAP_ON ? rs : 0;
			double hid = overlap_s(ag_on + rs_on, compute, k);
			double share = ag_on + rs_on > 0 ? hid / (ag_on + rs_on) : 0;
			z3 = times * (hid + (ag - ag_on) + (rs - rs_on) + Z3_LAYER_S * Ls) +
			     dp_collective(gather_s, p_ne * wbytes / Ls, p_ex * wbytes / Ls, dpc,
					   ep, bw, lat);
			dp_s = (ag + rs) * times;
			ov->param_s = ag * times;
			ov->grad_s = rs * times;
			ov->param_exposed_s = times * (ag_on * share + ag - ag_on);
			ov->grad_exposed_s = times * (rs_on * share + rs - rs_on);
		} else if (p->zero >= 1 && ov->param != OVERLAP_PAPER) {
			/* ZeRO-1/2 as the frameworks run it: the gradients reduce-scattered in the
			 * last micro-batch's backward (overlap_grad_reduce) or after it, and the
			 * updated 16-bit parameters all-gathered after the step, behind the next
			 * step's first forward (Megatron overlap_param_gather) or not (DeepSpeed
			 * all_gather_dp_groups, llm.c) */
			double rs =
			    dp_collective(gather_s, t_ne * gbytes, t_ex * gbytes, dpc, ep, bw, lat);
			double ag =
			    dp_collective(gather_s, t_ne * wbytes, t_ex * wbytes, dpc, ep, bw, lat);
			ov->grad_s = rs;
			ov->param_s = ag;
			ov->grad_exposed_s =
			    ov->grad == OVERLAP_ON ? overlap_s(rs, DP_OVERLAP * mb.bwd, k) : rs;
			ov->param_exposed_s = ov->param == OVERLAP_ON ? overlap_s(ag, fwd1, k) : ag;
			dp_s = rs + ag;
			dp_exposed = ov->grad_exposed_s + ov->param_exposed_s;
		} else {
			/* all-reduce (or, under ZeRO-1/2 in the papers' accounting, reduce-scatter
			 * + all-gather: the same bytes), bucketed and overlapped with the last
			 * micro-batch's backward (PyTorch DDP, Li et al. 2020; Megatron
			 * --overlap-grad-reduce), or after it */
			dp_s = dp_collective(allreduce_s, t_ne * gbytes, t_ex * gbytes, dpc, ep, bw,
					     lat);
			dp_exposed =
			    ov->grad == OVERLAP_ON ? overlap_s(dp_s, DP_OVERLAP * mb.bwd, k) : dp_s;
			ov->grad_s = dp_s;
			ov->grad_exposed_s = dp_exposed;
		}
	}

	/* optimizer step: memory-bound over the states of this GPU's shard: AdamW reads
	 * master, m, v, gradient and writes master, m, v, weight */
	{
		double local = p->zero >= 1 ? t_ne / (dpc * ep) + t_ex / dpc : t_ne + t_ex;
		double bpp = 0;
		switch (w->optimizer) {
		case OPT_ADAMW:
			bpp = 24 + gbytes + wbytes;
			break;
		case OPT_ADAM8BIT:
			bpp = 12 + gbytes + wbytes;
			break;
		case OPT_SGD:
			bpp = 16 + gbytes + wbytes;
			break;
		case OPT_NONE:
			bpp = 0;
			break;
		}
		if (s->parallel.offload != OFFLOAD_NONE) {
			/* ZeRO-Offload: gradients down and weights up over PCIe, CPU Adam
			 * (Ren et al. 2021) */
			double pcie = s->hardware.gpu.pcie_bytes_per_s > 0
					  ? s->hardware.gpu.pcie_bytes_per_s
					  : 16e9;
			off = local * (gbytes + wbytes) / pcie + local * bpp / HOST_OPT_BYTES_PER_S;
			/* ZeRO-Infinity parameter offload (stage 3 only, as the memory part
			 * has it): each rank brings its own 1/dp partition up over its PCIe
			 * link for the forward and again for the backward, then all-gathers
			 * it over the GPU fabric (Rajbhandari et al. 2021, Section 6.1,
			 * bandwidth-centric partitioning) */
			if (s->parallel.offload == OFFLOAD_OPTIMIZER_PARAMS && p->zero >= 3)
				off += m * 2 * (p_ne / (dpc * ep) + p_ex / dpc) * wbytes / pcie;
			if (off > pipeline)
				plan_warn(p, PW_OFFLOAD_PCIE_BOUND, off, pipeline);
		} else {
			opt = local * bpp * c->inv_hbm;
		}
	}

	/* activation offloading (workload.activation_offload): the offloaded activations go
	 * down to host memory in the forward and back up for the backward, on a side stream
	 * that overlaps the compute (torchtune OffloadActivations, use_streams True); only
	 * what the PCIe link takes beyond the micro-batch's compute shows */
	if (p->mem.activations_offloaded > 0) {
		double pcie =
		    s->hardware.gpu.pcie_bytes_per_s > 0 ? s->hardware.gpu.pcie_bytes_per_s : 16e9;
		/* one micro-batch's share: the stage's layers of the layers in flight */
		double lif = p->mem.layers_in_flight,
		       Ls = pp > 1 ? ceil(sh.layers / pp) : sh.layers;
		double per_mb = p->mem.activations_offloaded * (lif > Ls ? Ls / lif : 1);
		off += m * dmax(0, 2 * per_mb / pcie - t_mb);
	}

	step_compute = pipeline + dp_exposed + z3 + opt + off;
	/* data loading: prefetching hides it unless storage is slower than the GPUs */
	if (s->hardware.storage_bytes_per_s > 0) {
		t_data =
		    tokens_step * DATA_BYTES_PER_TOKEN / (s->hardware.storage_bytes_per_s * nodes);
		data = dmax(t_data - step_compute, 0);
		if (data > 0) /* bytes/s the GPUs consume vs what storage gives */
			plan_warn(p, PW_DATA_STARVED,
				  tokens_step * DATA_BYTES_PER_TOKEN / step_compute,
				  s->hardware.storage_bytes_per_s * nodes);
	}
	step = step_compute + data;

	p->parts.matmul_s = m * mb.matmul;
	p->parts.attention_s = m * mb.attention;
	p->parts.memory_bound_s = m * mb.membound;
	p->parts.tp_comm_s = m * mb.tp;
	p->parts.ep_comm_s = m * mb.ep;
	p->parts.pp_comm_s = m * mb.pp;
	p->parts.bubble_s = (pp - 1) / v * t_mb;
	p->parts.dp_comm_s = dp_exposed;
	p->parts.zero3_s = z3;
	p->parts.offload_s = off;
	p->parts.optimizer_s = opt;
	p->parts.data_s = data;
	p->parts.cp_comm_s = m * mb.cp;
	p->matmul_efficiency = c->gemm_time > 0 ? c->gemm_flops / (c->gemm_time * c->peak) : NAN;

	/* a measured rate (tokens/s per GPU) or MFU replaces the model: the same parts,
	 * scaled to the measured step time; a measured rate wins over an MFU */
	if (w->measured_tokens_per_s > 0 || s->efficiency.mfu > 0) {
		double want = w->measured_tokens_per_s > 0
				  ? tokens_step / (w->measured_tokens_per_s * n)
				  : p->flops_per_step / (n * c->peak * s->efficiency.mfu);
		double k = want / step;
		for (unsigned i = 0; i < PLAN_PARTS; i++)
			*plan_part(&p->parts, i) *= k;
		step_compute *= k;
		step = want;
	}

	inv_step = 1 / step;
	p->step_s = step;
	p->tokens_per_s = tokens_step * inv_step;
	p->tokens_per_s_per_gpu = p->tokens_per_s * inv_n;
	{
		double of_peak = p->tokens_per_s * inv_n / c->peak; /* tokens/s per peak FLOP/s */
		p->mfu = p->flops_per_token * of_peak;
		p->hfu = p->hw_flops_per_token * of_peak;
	}
	p->total_s = w->tokens > 0 ? w->tokens / tokens_step * step : NAN;

	/* GPUs for a deadline: a count planned as this one is, so plan_compute finds it
	 * (plan_deadline_gpus, below); the time part alone leaves it NAN */
	if (w->deadline_s > 0 && w->tokens > 0 && p->total_s > w->deadline_s)
		plan_warn(p, PW_DEADLINE_MISSED, p->total_s, w->deadline_s);

	/* shares of the step (seconds of each kind over the step) */
	p->shares[BN_COMPUTE] = (p->parts.matmul_s + p->parts.attention_s) * inv_step;
	p->shares[BN_HBM] = (p->parts.memory_bound_s + p->parts.optimizer_s) * inv_step;
	p->shares[BN_INTERCONNECT] =
	    (p->parts.tp_comm_s + p->parts.pp_comm_s + p->parts.dp_comm_s + p->parts.zero3_s +
	     p->parts.ep_comm_s + p->parts.offload_s + p->parts.cp_comm_s) *
	    inv_step;
	p->shares[BN_DATA_IO] = t_data > 0 ? t_data / step_compute : 0;

	/* reliability: interruptions = GPU-hours / MTBF per GPU (Llama 3 paper, Table 5);
	 * checkpoint = weights + optimizer states; Young (1974) / Daly (2006) interval
	 * sqrt(2 x write time x MTBF of the job) */
	if (!isnan(p->total_s) && s->hardware.mtbf_gpu_hours > 0) {
		double mtbf_job = s->hardware.mtbf_gpu_hours * 3600 * inv_n;
		double per_mtbf = 1 / mtbf_job; /* interruptions per second of the job */
		double obpp = p->mem.optimizer_bytes_per_param;
		double ckpt = p->params * wbytes + trainable * obpp;
		double bw = (s->hardware.storage_bytes_per_s > 0 ? s->hardware.storage_bytes_per_s
								 : CKPT_BYTES_PER_S_PER_NODE) *
			    nodes;
		double lost;
		p->expected_interruptions = p->total_s * per_mtbf; /* n x hours / MTBF */
		p->checkpoint_write_s = ckpt / bw;
		p->checkpoint_interval_s = sqrt(2 * p->checkpoint_write_s * mtbf_job);
		/* per interval: the write; per failure: half an interval redone + restart */
		lost = p->checkpoint_write_s / p->checkpoint_interval_s +
		       (p->checkpoint_interval_s / 2 + RESTART_S) * per_mtbf;
		p->goodput = lost < 1 ? 1 - lost : 0;
	}
}

/* ---- inference ---- */

struct lines {
	double tc0, tc1; /* GEMMs on tensor cores */
	double cc1;	 /* GEMMs on CUDA cores (through the origin) */
	double m0;	 /* the weight read */
	double a1;	 /* attention per sequence: max(FLOPs, KV read) */
	double c_att1;	 /* its FLOP part alone */
	double kv1;	 /* its KV read alone */
};

struct infer {
	double F;	   /* matmul FLOPs per token on the token's path (all stages), /tp */
	double W;	   /* weight bytes read per decode step on the path */
	double sNK;	   /* FLOP-weighted sat(N) sat(K) of the model's GEMMs */
	double kvb;	   /* KV-cache bytes per token of context, this GPU's share x stages */
	double state_b;	   /* recurrent state bytes per sequence, this GPU's share x stages */
	double attn_tok;   /* attention FLOPs per token per context token (4 L qd / tp) */
	double fixed;	   /* per step: launches, dequantisation, TP latency */
	double tp_per_tok; /* per step, per sequence: TP all-reduce and EP all-to-all bytes */
	double tp_fixed, ep_fixed, pp_fixed; /* the latencies in fixed, by kind */
	double ep_per_tok, tp_only_per_tok;  /* tp_per_tok's EP and TP parts */
	double base_fixed;		     /* fixed less the latencies: launches, host, dequant */
	double elt_per_tok;		     /* per token: elementwise traffic time */
	double prefill_P;		     /* prompt tokens */
	double hit;			     /* the prefix cache's hit rate (prefix_tiers) */
	double host_load;		     /* a prompt's host-held prefix loaded, s */
	double key_half; /* keys per computed prompt token / its computed tokens (1/2 uncached) */
	double ctx;	 /* average context of a decode step */
	double pp;	 /* pipeline stages of a replica */
	double window;	 /* sliding window: the most keys a token attends to (0 = all) */
	double global;	 /* the share of layers outside the window (shape.global) */
	double attn;	 /* the share of layers with attention (shape.attn) */
	double dim0;	 /* rows a small-batch decode GEMM pads to (the tile floor) */
	/* seconds, worked out once from the above (so that a step is divisions-free) */
	double tc_row;	 /* tensor-core GEMMs per row of the batch: F / (peak emax sNK) */
	double cc_row;	 /* CUDA-core GEMMs per row: F / (FP32 rate x GEMM_EFF_MAX) */
	double att_key;	 /* attention per token per key: attn_tok / (peak emax FLASH_EFF) */
	double w_read;	 /* the weight read: W / hbm */
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
	double graph_bs;   /* the largest graphed decode batch (INFINITY: all) */
	bool ahead;	   /* an overlap scheduler launches a step ahead (serve_at) */
	double eager_host; /* an eager step's host time, layers x EAGER_LAYER_S, s */
	double steps;	   /* decode steps one scheduling runs (workload.scheduler_steps) */
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
static double window_keys(const struct infer *in, double ctx)
{
	return keys_mixed(in->window, in->global, ctx) * in->attn;
}

static void decode_lines(const struct tctx *c, const struct infer *in, double ctx, struct lines *l)
{
	/* kvb holds the attention layers' cache only: its read takes the keys unshared */
	double keys = keys_mixed(in->window, in->global, ctx);
	l->tc1 = in->tc_row;
	l->tc0 = l->tc1 * in->dim0;
	l->cc1 = in->cc_row;
	l->m0 = in->w_read;
	l->c_att1 = keys * in->attn * in->att_key;
	/* a state-space layer reads and writes its sequence's state once a step */
	l->kv1 = (keys * in->kvb + 2 * in->state_b) * c->inv_hbm;
	l->a1 = dmax(l->c_att1, l->kv1);
}

static double gemm_compute_s(const struct lines *l, double B)
{
	return min_num(l->tc0 + l->tc1 * B, l->cc1 * B);
}

/* ---- speculative decoding (workload.speculative) ----
 *
 * A proposer drafts K tokens a sequence, one at a time; one pass of the target then scores
 * all K + 1 positions and keeps the longest accepted prefix plus one token of its own
 * (Leviathan et al. 2023, arXiv 2211.17192, Algorithm 1; vLLM's
 * vllm/v1/spec_decode/eagle.py EagleProposer.propose and
 * vllm/v1/sample/rejection_sampler.py; SGLang's EAGLEWorker.forward_batch_speculative_generation
 * in python/sglang/srt/speculative/eagle_worker.py). With each drafted token accepted
 * with chance a, independently, a step gains (1 - a^(K+1)) / (1 - a) tokens (Leviathan
 * et al., Equation 1). The verify pass is a decode step of B (K + 1) rows: its GEMMs carry
 * K + 1 times the rows over the same weight read, and its attention K + 1 queries over
 * the same cached keys. At a small batch the step is the weight read and the K + 1 rows
 * are nearly free; as the batch grows the GEMMs turn compute-bound at a batch K + 1
 * times smaller, and the gain shrinks and turns into a loss. The draft's K steps are
 * decode steps of the draft (method draft: a small model; mtp, eagle: one layer and the
 * target's head, EAGLE, Li et al. 2024, arXiv 2401.15077, Section 4; DeepSeek-V3,
 * arXiv 2412.19437, Section 2.2); ngram looks the draft up in the prompt on the host
 * (vllm/v1/spec_decode/ngram_proposer.py), at no GPU time. The draft also prefills each
 * prompt. A linear, not tree, draft is modelled. */

/* One draft step over B sequences: the slower of its GEMMs and its weight read, its KV
 * read, its launches. */
static double draft_step_s(const struct infer *in, double B)
{
	return dmax((B + in->dim0) * in->d_row, in->d_w) + B * in->d_kv + in->d_fixed;
}

/* One speculative step's time per token gained: the verify pass of B sequences of K + 1
 * rows (plus M prompt rows fused in, each attending to att_m of its keys) and K draft
 * steps, over the expected tokens a step gains. */
static double spec_step_s(const struct tctx *c, const struct infer *in, const struct lines *l,
			  double B, double M, double att_m)
{
	double k1 = in->sk + 1, rows = B * k1 + M;
	double gemm = M > 0 ? (rows + GEMM_DIM_HALF) * in->tc_row : gemm_compute_s(l, rows);
	double verify = dmax(gemm, l->m0) + B * dmax(l->c_att1 * k1, l->kv1) + M * att_m +
			in->fixed + rows * (in->tp_per_tok + in->elt_per_tok);
	(void)c;
	return (verify + in->sk * draft_step_s(in, B)) / in->sE;
}

/* A decode step whose GPU work takes gpu: a batch above the CUDA-graph cap waits for the
 * host to launch its layers one by one when that is slower (EAGER_LAYER_S). */
static double eager_wait(const struct infer *in, double B, double gpu)
{
	return B > in->graph_bs ? dmax(gpu, in->eager_host) : gpu;
}

/* A pass that carries prompt tokens (SGLang's extend forward): an engine with a graph cap
 * captures decode batches only (model_executor/cuda_graph_runner.py; ModelRunner
 * forward_extend runs eagerly), so its prefills wait for the host the same way. */
static double eager_extend(const struct infer *in, double gpu)
{
	return isfinite(in->graph_bs) ? dmax(gpu, in->eager_host) : gpu;
}

static double decode_step_s(const struct tctx *c, const struct infer *in, double B, double ctx)
{
	struct lines tmp;
	const struct lines *l = in->l;
	if (!l || ctx != in->ctx) {
		decode_lines(c, in, ctx, &tmp);
		l = &tmp;
	}
	if (in->sk > 0)
		return spec_step_s(c, in, l, B, 0, 0);
	return eager_wait(in, B,
			  dmax(gemm_compute_s(l, B), l->m0) + l->a1 * B + in->fixed +
			      B * (in->tp_per_tok + in->elt_per_tok));
}

/* Prefill of M prompt tokens (one chunk): compute-bound GEMMs, causal attention over the
 * prompt, the weights read once. */
static double prefill_s(const struct infer *in, double M, double P)
{
	double mm = (M + GEMM_DIM_HALF) * in->tc_row;
	double att = M * window_keys(in, P * in->key_half) * in->att_key;
	if (in->sk > 0) /* the draft prefills the prompt too */
		att += M * in->d_pf_tok;
	return eager_extend(in, dmax(mm, in->w_read) + att + in->fixed +
				    M * (in->tp_per_tok + in->elt_per_tok));
}

/* Pipeline stages work on different micro-batches at once once the batch can fill them:
 * B sequences travel as pp micro-batches of B / pp, so a step costs what a step of B / pp
 * costs through all stages (batch 1, llama.cpp's layer split: no overlap). */
static double micro(const struct infer *in, double B)
{
	return in->pp > 1 && B >= in->pp ? B / in->pp : B;
}

static double replica_tps(const struct tctx *c, const struct infer *in, double B, double P,
			  double O)
{
	/* the prefill gives each sequence its first token, then O - 1 decode steps:
	 * end-to-end = TTFT + TPOT x (output - 1) (vLLM's
	 * benchmarks/benchmark_latency.py; gpuplan(1), JSON REPORT: latency.*) */
	double t = prefill_s(in, micro(in, B) * P, P) +
		   (O > 1 ? O - 1 : 0) * decode_step_s(c, in, micro(in, B), in->ctx);
	return B * O / t;
}

static double ttft_s(const struct tctx *c, const struct infer *in, double B, double P, double O)
{
	/* a new request's prompt, plus the decode step of the others it waits behind */
	(void)O;
	return in->host_load + prefill_s(in, P, P) +
	       (B > 1 ? decode_step_s(c, in, micro(in, B), in->ctx) : 0);
}

/* The largest B >= 1 with a + b B <= target, given inv_b = 1 / b (the slopes are shared
 * by both targets, so their reciprocals are taken once); 0 when even B = 1 misses. */
static double largest_b(double a, double inv_b, double target)
{
	double x;
	if (!(inv_b > 0 && inv_b < INFINITY)) /* b <= 0: flat (or no) slope */
		return a <= target ? INFINITY : 0;
	x = floor((target - a) * inv_b);
	return x >= 1 ? x : 0;
}

static double sh_ep(const struct plan *p)
{
	return p->model.moe.experts > 0 && p->ep > 1 ? p->ep : 1;
}

/* ---- serving under load (workload.scheduler) ----
 *
 * At steady state a continuous-batching engine runs decode steps of B sequences, and the
 * prompts of the requests that replace finished ones join it: each of the B - 1 others
 * finishes once per O steps, so (B - 1) / O prompts, (B - 1) P / O tokens, arrive per step
 * (the request one follows does not interrupt its own decode, which keeps concurrency 1 at
 * today's TPOT). How they join is the scheduler's rule:
 *  - prefill-first: waiting prompts run as a pass of their own before the next decode
 *    step (vLLM v0's default scheduler; SGLang's get_next_batch_to_run), so a gap between
 *    two tokens is a decode step, or a decode step plus a prefill pass;
 *  - chunked: prompt tokens ride in the decode step under a token budget (Sarathi-Serve,
 *    Agrawal et al., OSDI 2024, Section 4; vLLM V1, TensorRT-LLM's in-flight batching):
 *    one pass of B decode rows and the prompt rows, the weights read once;
 *  - static: all requests start together and none joins until all finish, so each waits
 *    for the prefill of every prompt of the batch (LMDeploy's static benchmark).
 * Arrivals are Poisson; prompts per step are Poisson too, which gives the per-token gap's
 * percentiles. The wait before a prompt's first pass is the step in flight (uniform
 * residual) plus an M/D/1 queue at the prompt budget (Pollaczek-Khinchine mean, with the
 * exponential tail of the waiting time, Kleinrock, Queueing Systems I, 1975, Section 5.7),
 * whose service is a prompt's hold on the budget, its share of full passes (prompt_svc):
 * at rate x s >= 1 the passes cannot take the prompts and the queue has no bound, which
 * is an overload (no wait, no TTFT), never a clamped utilisation.
 * The running batch under an arrival rate is Little's law, B = rate x e2e(B) (Little,
 * 1961), solved by regula falsi; closed form everywhere else. */

static const double serve_q[3] = {0.50, 0.90, 0.99};

/* One pass with D decode rows and M prompt rows, each prompt row attending to P / 2 of its
 * prompt's keys: the decode step (M = 0), the prefill pass (D = 0), or the fused step. */
static double pass_s(const struct tctx *c, const struct infer *in, double D, double M, double P)
{
	const struct lines *l = in->l;
	if (M <= 0)
		return decode_step_s(c, in, D > 1 ? D : 1, in->ctx);
	if (D <= 0)
		return prefill_s(in, M, P);
	if (in->sk > 0) /* the prompt rows ride in the verify pass; the draft prefills them */
		return spec_step_s(c, in, l, D, M * in->sE,
				   window_keys(in, P * in->key_half) * in->att_key + in->d_pf_tok);
	return eager_extend(in, dmax((D + M + GEMM_DIM_HALF) * in->tc_row, l->m0) + l->a1 * D +
				    M * window_keys(in, P * in->key_half) * in->att_key +
				    in->fixed + (D + M) * (in->tp_per_tok + in->elt_per_tok));
}

/* The smallest k with P(Poisson(n) <= k) >= q, for each of the nq ascending levels in q:
 * a sum of the mass function, or the normal approximation with a continuity correction
 * once the mean is large (Abramowitz and Stegun 26.2.23 for the normal quantile). */
/* The standard normal quantile at q in (0, 1): Abramowitz and Stegun 26.2.23 (|error| <
 * 4.5e-4). */
static double normal_quantile(double q)
{
	double pq = q < 0.5 ? q : 1 - q, t = sqrt(-2 * log(pq));
	double z = t - (2.515517 + 0.802853 * t + 0.010328 * t * t) /
			   (1 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t * t * t);
	return q < 0.5 ? -z : z;
}

/* ---- request lengths (workload.prompt_length, output_length) ----
 * A length is its mean (prompt_tokens, output_tokens) or a law around it: exponential
 * (squared coefficient of variation 1), uniform on [min, max] ((max - min)^2 / 12 over
 * the mean squared), lognormal of log-deviation sigma (e^(sigma^2) - 1; the mean fixes
 * mu = ln mean - sigma^2 / 2). The variance enters the queue at the prompt budget, whose
 * service is a prompt's tokens: M/G/1 with the Pollaczek-Khinchine mean wait
 * rho E[S] (1 + cv^2) / (2 (1 - rho)) (Kleinrock 1975, Section 5.6, Equation 5.72).
 * A level's TTFT is the wait's level plus the passes of a prompt at the length's level,
 * and its end-to-end the TTFT plus the output length's level of steps: a sum of levels,
 * which bounds the level of the sum from above (the two are taken as if comonotone). */
static double law_cv2(const struct length_law *d, double mean)
{
	switch (d->dist) {
	case DIST_EXPONENTIAL:
		return 1;
	case DIST_UNIFORM:
		return mean > 0 ? (d->max - d->min) * (d->max - d->min) / (12 * mean * mean) : 0;
	case DIST_LOGNORMAL:
		return exp(d->sigma * d->sigma) - 1;
	default:
		return 0;
	}
}

/* The length at level q of a law of mean mean (the mean itself when fixed). */
static double law_quantile(const struct length_law *d, double mean, double q)
{
	switch (d->dist) {
	case DIST_EXPONENTIAL:
		return -mean * log(1 - q);
	case DIST_UNIFORM:
		return d->min + q * (d->max - d->min);
	case DIST_LOGNORMAL:
		return exp(log(mean) - d->sigma * d->sigma / 2 + d->sigma * normal_quantile(q));
	default:
		return mean;
	}
}

static void poisson_quantiles(double n, const double *q, int nq, double *k)
{
	if (!(n > 0)) {
		for (int i = 0; i < nq; i++)
			k[i] = 0;
		return;
	}
	if (n > 40) {
		for (int i = 0; i < nq; i++)
			k[i] = max_num(0, ceil(n + normal_quantile(q[i]) * sqrt(n) - 0.5));
		return;
	}
	{
		double pmf = exp(-n), cdf = pmf, kk = 0;
		int i = 0;
		double at = nq > 0 ? q[0] - 1e-12 : 0; /* the next level's threshold */
		while (i < nq && kk < 400) {
			while (i < nq && cdf >= at) {
				k[i++] = kk;
				if (i < nq)
					at = q[i] - 1e-12;
			}
			kk += 1;
			pmf *= n / kk;
			cdf += pmf;
		}
		for (; i < nq; i++)
			k[i] = kk;
	}
}

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

/* A prompt of P computed tokens' own passes under chunked or prefill-first: in chunks of
 * what the others' decodes leave of the budget T, or in prefill passes of at most T. */
static double own_ttft(const struct tctx *c, const struct infer *in, enum scheduler sched, double T,
		       double others, double P)
{
	if (sched == SCHED_CHUNKED) {
		double room = T - others;
		double k = room >= P ? 1 : room >= 1 ? ceil(P / room) : P;
		return in->host_load + k * pass_s(c, in, others, P / k, P);
	}
	{
		double kp = P > T ? ceil(P / T) : 1;
		return in->host_load + kp * prefill_s(in, P / kp, P);
	}
}

/* The engine at a running batch B (B <= 1: one request, alone). */
static void serve_at(const struct tctx *c, const struct infer *in, enum scheduler sched, double T,
		     double P, double O, double B, double n, struct serve_point *o)
{
	double Bd = B > 1 ? micro(in, B) : 1, others = B > 1 ? micro(in, B - 1) : 0;
	o->B = B;
	o->starved = false;
	o->ahead = 0;
	o->joined = n * P;
	if (sched == SCHED_STATIC) {
		/* every prompt of the batch in passes of at most T tokens, then the decodes */
		double all = (B > 1 ? B : 1) * P, passes = T < all ? ceil(all / T) : 1;
		o->ttft = (B > 1 ? B : 1) * in->host_load + passes * prefill_s(in, all / passes, P);
		o->step = o->decode = decode_step_s(c, in, Bd, in->ctx);
		o->fused = NAN;
		o->frac = 0;
		o->joined = 0;
		o->room = T;
	} else if (sched == SCHED_CHUNKED) {
		double room = T - Bd;
		if (room < 1) {
			room = 1;
			o->starved = true;
		}
		if (o->joined > room) {
			o->joined = room;
			o->starved = true;
		}
		o->room = room;
		/* as prefill-first's: prompts ride in a fraction 1 - e^-n of the steps, n / that
		 * of them in each; the rest are plain decode steps. The mean gap is the mean over
		 * both, not the fused pass at a fractional prompt (its fixed part would be charged
		 * to every step, putting the mean above the P90 gap at light load). */
		o->frac = 1 - exp(-n);
		o->decode = pass_s(c, in, Bd, 0, P);
		o->fused =
		    o->frac > 0 ? pass_s(c, in, Bd, min_num(o->joined / o->frac, room), P) : NAN;
		o->step = o->frac > 0 ? (1 - o->frac) * o->decode + o->frac * o->fused : o->decode;
		o->ttft = own_ttft(c, in, sched, T, others, P);
	} else { /* SCHED_PREFILL_FIRST */
		/* a pass runs in a fraction 1 - e^-n of the steps (at least one prompt waits),
		 * carrying n / that prompts, in passes of at most T tokens */
		double d = decode_step_s(c, in, Bd, in->ctx), frac = 1 - exp(-n);
		double per = frac > 0 ? o->joined / frac : 0;
		double passes = per > T ? ceil(per / T) : 1;
		double one = frac > 0 ? prefill_s(in, per / passes, P) : 0;
		o->step = d + (frac > 0 ? frac * passes * one : 0);
		o->decode = d;
		o->fused = frac > 0 ? d + passes * one : NAN;
		o->frac = frac;
		/* SGLang's overlap scheduler (event_loop_overlap, managers/scheduler.py) has
		 * launched the next step before it receives the request: the prompt's pass
		 * waits for the step in flight (serve_levels' residual) and that one */
		o->ahead = in->ahead && others > 0 ? o->step : 0;
		o->ttft = own_ttft(c, in, sched, T, others, P) + o->ahead;
		o->room = T;
		if (o->joined > T)
			o->starved = true;
	}
	o->e2e = o->ttft + (O > 1 ? O - 1 : 0) * o->step;
}

static void serving_nan(struct plan_serving *v)
{
	v->scheduler = v->budget = v->max_running = v->rate = v->concurrency = NAN;
	v->batch = v->prefill_per_step = v->utilisation = v->capacity_rate = NAN;
	v->ttft_service_s = v->wait_s = NAN;
	for (int i = 0; i < 3; i++)
		v->ttft[i] = v->tpot[i] = v->e2e[i] = NAN;
	v->ttft_mean_s = v->tpot_mean_s = v->e2e_mean_s = NAN;
	v->slo_percentile = v->ttft_slo_s = v->tpot_slo_s = v->requests_per_s = NAN;
	v->overloaded = false;
	v->fleet_rule = v->fleet_rate = v->fleet_engines = v->fleet_stable = NAN;
	v->fleet_lone_ttft_s = v->fleet_lone_tpot_s = v->fleet_evals = NAN;
	for (int i = 0; i < 2; i++)
		v->fleet_ttft_s[i] = v->fleet_tpot_s[i] = v->fleet_util[i] = NAN;
	v->step_decode_s = v->step_joined_s = v->step_frac = v->e2e_run_s = v->e2e_cap_s = NAN;
	v->run_s = NAN;
	v->wait_res_s = v->wait_queue_s = v->room = v->ttft_ahead_s = NAN;
	v->closed_rho = v->prompt_svc_s = v->closed_wait_s = NAN;
	v->scheduler_steps = NAN;
	for (int i = 0; i < 4; i++)
		v->lv_own_s[i] = v->lv_wait_s[i] = v->lv_k[i] = v->lv_add_s[i] = v->lv_out[i] = NAN;
	v->slo_gaps = v->slo_share = v->slo_gap_s = NAN;
	v->prefill_engines = v->decode_engines = v->prefill_util = v->prefill_s = NAN;
	v->kv_transfer_s = v->fleet_prefill = v->fleet_decode = NAN;
}

/* The gap between tokens at a level's count k of prompts joining a step. */
static double serve_gap(const struct tctx *c, const struct infer *in, enum scheduler sched,
			const struct serve_point *pt, double B, double k, double P)
{
	double Bd = B > 1 ? micro(in, B) : 1;
	if (sched == SCHED_STATIC)
		return pt->step;
	if (k <= 0 && B == pt->B) /* no prompt joins: serve_at's decodes alone */
		return pt->decode;
	if (sched == SCHED_CHUNKED)
		return pass_s(c, in, Bd, min_num(k * P, pt->room), P);
	if (k <= 0)
		return decode_step_s(c, in, Bd, in->ctx);
	{
		double tok = k * P, passes = tok > pt->room ? ceil(tok / pt->room) : 1;
		return decode_step_s(c, in, Bd, in->ctx) + passes * prefill_s(in, tok / passes, P);
	}
}

/* What serve fixes before the load: the policy, the budget, the running cap. */
struct serve_cfg {
	enum scheduler sched;
	double T;   /* tokens a step may carry (INFINITY: unlimited) */
	double cap; /* the running cap */
	double P, O;
	double B;    /* the batch time_infer chose: a closed loop's concurrency by default */
	double gaps; /* the gaps a request's TPOT is the mean of (request_gaps) */
	struct serve_memo *memo; /* serve_at's points that no rate changes (serve_at_memo) */
};

/* The engine at the points the capacity walk asks for at every rate (the running cap,
 * an empty engine, either side of the CUDA-graph cap), each worked out once a plan:
 * serve_at is a function of its B and n alone once serve_cfg is fixed. */
#define SERVE_MEMO 4
struct serve_memo {
	int n;
	double B[SERVE_MEMO], k[SERVE_MEMO];
	struct serve_point pt[SERVE_MEMO];
	/* serve_levels' lengths at a level q[i] (law_quantile of the prompt and the output
	 * laws at their means), where known[i] */
	bool known[4];
	double q[4], prompt[4], output[4];
};

static void serve_at_memo(const struct tctx *c, const struct infer *in, const struct serve_cfg *g,
			  double B, double n, struct serve_point *o)
{
	struct serve_memo *m = g->memo;
	for (int i = 0; i < m->n; i++) {
		if (m->B[i] == B && m->k[i] == n) {
			*o = m->pt[i];
			return;
		}
	}
	serve_at(c, in, g->sched, g->T, g->P, g->O, B, n, o);
	if (m->n < SERVE_MEMO) {
		m->B[m->n] = B;
		m->k[m->n] = n;
		m->pt[m->n++] = *o;
	}
}

/* ---- a request's TPOT under an output-length law ----
 * A request's TPOT is the mean of its own gaps, (e2e - ttft) / (output - 1) (vLLM's
 * benchmarks/serve.py calculate_metrics, formerly benchmarks/benchmark_serving.py; a
 * request of one token has none and is left out there); DistServe (Zhong et al., OSDI
 * 2024, Section 2) states its SLO per request the same way. Over its G = O - 1 gaps the
 * steps that prompts join are Poisson(n G), so the share of its gaps that carry prompts
 * has mean n whatever G, and variance n / G. Requests of different lengths mix those
 * shares: the mixture keeps the mean n and has variance n E[1 / G], the short requests
 * spreading it most. The approximation: the TPOT percentile of the mixture is that of one
 * request of the harmonic-mean gap count 1 / E[1 / G], whose share has the mixture's
 * mean and variance (for a fixed length, G = O - 1 exactly). E[1 / G] is a 32-point
 * midpoint rule over the law's quantiles, each length rounded to whole tokens, requests
 * of one token left out as vLLM does. */
/* At the 32 midpoints q = (i + 1/2) / 32: -ln(1 - q), the exponential law's quantile over
 * its mean, and normal_quantile(q), so that the rule takes no logarithm (the values
 * law_quantile gives, worked out once). */
static const double mid_exp[32] = {
    0.015748356968139168, 0.048009219186360606, 0.081345639453952401, 0.1158318155251217,
    0.15154989812720093,  0.18859116980755003,	0.22705745063534608,  0.26706278524904525,
    0.30873548164961329,  0.35222059358935209,	0.39768296766610944,  0.44531101665536404,
    0.49532143723002542,  0.54796517071544737,	0.6035350218702582,   0.6623755218931916,
    0.72489587887452556,  0.7915872533731978,	0.86304621735534282,  0.94000725849147115,
    1.0233888674305223,	  1.1143606456362489,	1.2144441041932315,   1.3256697393034558,
    1.4508328822574619,	  1.5939337258981352,	1.7609878105613013,   1.9616585060234524,
    2.2129729343043585,	  2.5494451709255714,	3.0602707946915624,   4.1588830833596715};
static const double mid_z[32] = {
    -2.1543180193877882,  -1.6763080235445083,	-1.4180547114617594,  -1.2300016204069952,
    -1.0775462990621125,  -0.94670609036489928, -0.83033697246725502, -0.72425281263464025,
    -0.62576305288530221, -0.53301581177093671, -0.44466497528545701, -0.35968563739963488,
    -0.27726418865104185, -0.19672870188773084, -0.11750220147012613, -0.039069319814168724,
    0.039069319814168724, 0.11750220147012613,	0.19672870188773084,  0.27726418865104185,
    0.35968563739963488,  0.44466497528545701,	0.53301581177093671,  0.62576305288530221,
    0.72425281263464025,  0.83033697246725502,	0.94670609036489928,  1.0775462990621125,
    1.2300016204069952,	  1.4180547114617594,	1.6763080235445083,   2.1543180193877882};

/* Whether a and b are the same double, bit for bit (a memo's key). */
static bool same_bits(double a, double b)
{
	return memcmp(&a, &b, sizeof(a)) == 0;
}

static double request_gaps(const struct length_law *d, double O)
{
	/* the last law's answer on this thread: a function of d and O alone, and the same at
	 * every count search and goal seek plan */
	static _Thread_local struct {
		bool valid;
		struct length_law d;
		double O, gaps;
	} last;
	double inv = 0, n = 0;
	if (d->dist == DIST_FIXED)
		return O - 1;
	if (last.valid && last.d.dist == d->dist && same_bits(last.d.min, d->min) &&
	    same_bits(last.d.max, d->max) && same_bits(last.d.sigma, d->sigma) &&
	    same_bits(last.O, O))
		return last.gaps;
	for (int i = 0; i < 32; i++) {
		double x = d->dist == DIST_EXPONENTIAL ? O * mid_exp[i]
			   : d->dist == DIST_LOGNORMAL
			       ? exp(log(O) - d->sigma * d->sigma / 2 + d->sigma * mid_z[i])
			       : law_quantile(d, O, (i + 0.5) / 32);
		double g = floor(x + 0.5) - 1;
		if (g >= 1) {
			inv += 1 / g;
			n += 1;
		}
	}
	last.d = *d;
	last.O = O;
	last.gaps = n > 0 ? n / inv : O - 1;
	last.valid = true;
	return last.gaps;
}

static void serve_levels(const struct tctx *c, const struct infer *in, const struct serve_cfg *g,
			 const struct serve_point *pt, double run, double rate, double wq_closed,
			 bool all, struct plan_serving *v);

/* The running batch that replays the largest CUDA graph (framework_graph_max_bs), in
 * sequences of the replica (pp micro-batches of it); INFINITY: every batch is graphed. */
static double graph_batch(const struct infer *in)
{
	return in->pp > 1 ? in->graph_bs * in->pp : in->graph_bs;
}

/* The root of f(B) = rate e2e(B) - B in [lo, hi], f(lo) = flo > 0 > fhi = f(hi), by
 * regula falsi (Illinois); pt is serve_at's point there. */
static double little_root(const struct tctx *c, const struct infer *in, const struct serve_cfg *g,
			  double rate, double lo, double hi, double flo, double fhi,
			  struct serve_point *pt)
{
	double run = lo;
	for (int it = 0, side = 0; it < 40; it++) {
		double x = (lo * fhi - hi * flo) / (fhi - flo), fx;
		serve_at(c, in, g->sched, g->T, g->P, g->O, x, max_num(x - 1, 0) / g->O, pt);
		fx = rate * pt->e2e - x;
		run = x;
		if (fabs(fx) < 1e-6 * (1 + x))
			break;
		if (fx > 0) {
			lo = x, flo = fx;
			if (side == 1)
				fhi *= 0.5;
			side = 1;
		} else {
			hi = x, fhi = fx;
			if (side == -1)
				flo *= 0.5;
			side = -1;
		}
	}
	return run;
}

/* Little's law's root on the right side of the CUDA-graph cap. A step above the cap is
 * slower (eager_wait), so f(B) = rate e2e(B) - B jumps up there and may have a root on
 * either side: a graphed batch below and an eager one above. Both hold a steady state;
 * which one the engine keeps is decided by the running count's fluctuation: with Poisson
 * arrivals the requests in service are Poisson with the mean (an M/G/infinity system,
 * Takacs 1962), and once a burst takes them past the cap the slower eager steps keep
 * more of them running, so the count does not come back. The eager root is taken when
 * the graphed root's P99.9 count passes the cap (the SGLang run at 8 req/s of
 * shared/reference/measured.md keeps some 360 requests running, over the cap of 160;
 * at 4 req/s some 50, under it). */
static double graph_root(const struct tctx *c, const struct infer *in, const struct serve_cfg *g,
			 double rate, double lo, double hi, double flo, double fhi,
			 struct serve_point *pt)
{
	double gb = graph_batch(in), x, fx, fg, run, k;
	static const double tip = 0.999;
	if (!(gb >= 1 && gb < hi))
		return little_root(c, in, g, rate, lo, hi, flo, fhi, pt);
	x = gb * (1 + 1e-9); /* just over the cap: eager */
	serve_at_memo(c, in, g, x, (x - 1) / g->O, pt);
	fx = rate * pt->e2e - x;
	if (fx <= 0) /* only a graphed root */
		return little_root(c, in, g, rate, lo, x, flo, fx, pt);
	serve_at_memo(c, in, g, gb, (gb - 1) / g->O, pt);
	fg = rate * pt->e2e - gb;
	if (fg > 0) /* only an eager root */
		return little_root(c, in, g, rate, x, hi, fx, fhi, pt);
	run = little_root(c, in, g, rate, lo, gb, flo, fg, pt);
	poisson_quantiles(run, &tip, 1, &k);
	if (k <= gb)
		return run;
	return little_root(c, in, g, rate, x, hi, fx, fhi, pt);
}

/* A prompt's hold on the budget, s = P / F x a pass of F tokens, at running batch run
 * (closed_wait's comment): the prompt server's service time, in the open loop's queue
 * (serve_levels) too, whose utilisation rate x s must stay below 1. */
static double prompt_svc(const struct tctx *c, const struct infer *in, const struct serve_cfg *g,
			 double run)
{
	double others = run > 1 ? micro(in, run - 1) : 0, P = g->P, F;
	if (g->sched == SCHED_CHUNKED) {
		F = isfinite(g->T) ? max_num(g->T - others, 1) : P;
		return P / F * pass_s(c, in, others, F, P);
	}
	F = isfinite(g->T) ? g->T : P;
	return P / F * prefill_s(in, F, P);
}

/* ---- a closed loop's wait at the prompt budget ----
 * A closed loop of N clients (workload.concurrency; AIPerf's and genai-perf's
 * --concurrency) sends a client's next request as its previous one ends, and TTFT runs
 * from the send to the first response (AIPerf, aiperf/metrics/types/ttft_metric.py
 * TTFTMetric: first response minus request start), so it holds every wait in the engine:
 *  - the step in flight: the engine launched its next step as the last token left (the
 *    others' decodes keep it busy), and a request joins only at an iteration's start
 *    (TensorRT-LLM docs/source/executor.md, the execution loop): a decode step, unless a
 *    prompt rides it, which the queue below counts (share rho);
 *  - the others' prompts: the budget takes prompt tokens first come first served, room of
 *    them a step beside the decodes (TensorRT-LLM's MicroBatchScheduler,
 *    cpp/tensorrt_llm/batch_manager/microBatchScheduler.cpp: the generation requests
 *    first, then the contexts up to max_num_tokens, chunked to what is left, or left whole
 *    to the next step without chunking; vLLM V1's and SGLang's budgets the same way). A
 *    prompt of P tokens holds the budget P / F of a pass of F = room tokens: s = P / F x
 *    pass(F), a fused step under chunked prefill, a prefill pass under prefill-first. At
 *    concurrency 50 of 5,000-token prompts and 500-token outputs the budget is busy most
 *    of the time (measured.md's NIM row: 1.6 requests/s x ~0.4 s).
 * The prompts of N clients whose cycle e2e is long against s arrive nearly as a Poisson
 * stream (the finite-source queue, Kleinrock, Queueing Systems I, 1975, Section 3.10):
 * an M/D/1 queue at the budget, W = rho s / (2 (1 - rho)) (Pollaczek-Khinchine). An
 * arrival finds the load of the N - 1 others (the arrival theorem of closed networks,
 * Reiser and Lavenberg, J. ACM 27(2), 1980), whose throughput is (N - 1) / (e2e + W), so
 * rho = X s solves (s - 2 e2e) rho^2 + 2 (e2e + m) rho - 2 m = 0 with m = (N - 1) s:
 * rho = 2 m / (e2e + m + sqrt((e2e - m)^2 + 2 m s)), always below 1 (a closed loop does
 * not overrun). At N = 1 nothing waits: the engine is idle when the lone client's request
 * comes. A static batch's requests wait for its prompts in their own passes (serve_at).
 * Under multi-step scheduling (workload.scheduler_steps n) a request joins only at an
 * n-step boundary (the prompts are scheduled with a block's first step, vLLM's
 * multi_step_model_runner.py StatefulModelInput: "the scheduled prompts are fully
 * processed in the first-step"): a client whose request ended at step j of a block waits
 * its n - 1 - j steps, or the whole next block, already launched, when j is the last,
 * (n + 1) / 2 steps on average over j, (n - 1) / 2 more than one step in flight.
 * Fills v->closed_*; returns the wait. */
static double closed_wait(const struct tctx *c, const struct infer *in, const struct serve_cfg *g,
			  double run, const struct serve_point *pt, struct plan_serving *v)
{
	double n = run - 1, e = pt->e2e, s, m, rho, W;
	v->closed_rho = v->prompt_svc_s = v->closed_wait_s = 0;
	if (!(n > 0) || g->sched == SCHED_STATIC)
		return 0;
	s = prompt_svc(c, in, g, run);
	m = n * s;
	rho = 2 * m / (e + m + sqrt((e - m) * (e - m) + 2 * m * s));
	W = rho * s / (2 * (1 - rho)) + (1 - rho) * pt->decode + (in->steps - 1) / 2 * pt->step;
	v->closed_rho = rho;
	v->prompt_svc_s = s;
	v->closed_wait_s = W;
	return W;
}

/* The engine under a load: an arrival rate per replica (rate > 0), or else the closed loop
 * of workload.concurrency or the batch. Fills every figure of v but the policy's (set
 * before) from the closed-form model, the levels all or the SLO's alone (serve_levels);
 * no warning, no figure of the plan. */
static void serve_load(const struct tctx *c, const struct infer *in, const struct serve_cfg *g,
		       double rate, bool all, struct plan_serving *v)
{
	const struct workload *w = &c->s->workload;
	enum scheduler sched = g->sched;
	double T = g->T, cap = g->cap, P = g->P, O = g->O;
	double wq = 0, run;
	struct serve_point pt;

	v->overloaded = false;
	v->rate = v->concurrency = NAN;
	if (rate > 0) {
		struct serve_point top;
		double lo = 0, hi = cap, flo, fhi;
		v->rate = rate;
		serve_at_memo(c, in, g, cap, (cap - 1) / O, &top);
		v->capacity_rate = cap / top.e2e;
		v->e2e_cap_s = top.e2e;
		v->utilisation = rate / v->capacity_rate;
		if (rate >= v->capacity_rate * (1 - 1e-9)) {
			v->overloaded = true;
			run = cap;
			pt = top;
		} else {
			/* Little's law: B = rate x e2e(B); f(B) = rate e2e(B) - B falls from
			 * f(0) > 0 to f(cap) < 0; regula falsi (Illinois) */
			serve_at_memo(c, in, g, 0, 0, &pt);
			flo = rate * pt.e2e;
			fhi = rate * top.e2e - cap;
			run = graph_root(c, in, g, rate, lo, hi, flo, fhi, &pt);
		}
	} else {
		double C = w->concurrency > 0 ? w->concurrency : g->B;
		run = min_num(C, cap);
		if (w->kind == WL_OFFLINE && w->concurrency <= 0)
			run = w->batch > 0 ? min_num(w->batch, cap) : cap;
		serve_at(c, in, sched, T, P, O, run, max_num(run - 1, 0) / O, &pt);
		v->concurrency = C;
		wq = closed_wait(c, in, g, run, &pt, v);
		if (C > run) /* the rest wait for a slot: Little's law on the queue */
			wq += (C - run) * (pt.e2e + wq) / run;
		v->capacity_rate = run / (pt.e2e + v->closed_wait_s);
		v->e2e_cap_s = pt.e2e;
		v->utilisation = 1;
	}
	serve_levels(c, in, g, &pt, run, rate, wq, all, v);
}

/* The queue and the percentiles of the engine at running batch run (pt, serve_at's point
 * there) under an arrival rate per replica (rate > 0: the open loop), or a closed loop
 * whose requests beyond the running ones wait wq_closed. Every level when all is set,
 * else the SLO's alone (the capacity walk's test). */
static void serve_levels(const struct tctx *c, const struct infer *in, const struct serve_cfg *g,
			 const struct serve_point *pt, double run, double rate, double wq_closed,
			 bool all, struct plan_serving *v)
{
	double P = g->P, O = g->O, q[4], k[4], res = 0, wq = wq_closed, rho_p = 0;
	enum scheduler sched = g->sched;
	const struct workload *w = &c->s->workload;
	bool lengths = w->prompt_length.dist != DIST_FIXED || w->output_length.dist != DIST_FIXED;
	int lv;

	if (rate > 0) {
		/* the arrival finds a step in flight, then waits at the prompt budget */
		res = pt->step * in->steps; /* multi-step: the block of steps in flight */
		wq = 0;
		if (isfinite(pt->room) && pt->room > 0) {
			double svc = prompt_svc(c, in, g, run); /* its share of full passes */
			v->prompt_svc_s = svc;
			rho_p = rate * svc;
			if (!(rho_p < 1)) { /* the passes cannot take the prompts: no bound */
				v->overloaded = true;
				v->utilisation = max_num(v->utilisation, rho_p);
				rho_p = 0;
			}
			wq = rho_p * svc / (2 * (1 - rho_p));
			if (w->prompt_length.dist !=
			    DIST_FIXED) /* M/G/1: E[S^2] = E[S]^2 (1 + cv^2) */
				wq *= 1 + law_cv2(&w->prompt_length, w->prompt_tokens);
		}
	}
	v->batch = run;
	v->prefill_per_step = pt->joined;
	v->step_decode_s = pt->decode;
	v->step_joined_s = pt->fused;
	v->step_frac = pt->frac;
	v->e2e_run_s = pt->e2e;
	v->wait_res_s = res;
	v->ttft_ahead_s = pt->ahead;
	v->wait_queue_s = wq;
	v->room = pt->room;
	v->ttft_service_s = pt->ttft;
	v->wait_s = res / 2 + wq;
	if (v->overloaded) /* no steady state: the wait has no bound (serving.wait_s null) */
		v->wait_s = v->wait_queue_s = NAN;
	v->requests_per_s = v->overloaded ? v->capacity_rate : rate > 0 ? rate : v->capacity_rate;
	if (rate > 0)
		v->concurrency = v->requests_per_s * (pt->e2e + v->wait_s);
	v->ttft_mean_s = pt->ttft + v->wait_s;
	v->tpot_mean_s = pt->step;
	v->e2e_mean_s = v->ttft_mean_s + (O > 1 ? O - 1 : 0) * pt->step;

	/* the levels: P50, P90, P99 and the SLO's */
	q[0] = serve_q[0], q[1] = serve_q[1], q[2] = serve_q[2];
	q[3] = v->slo_percentile / 100;
	if (!all) {
		poisson_quantiles(sched == SCHED_STATIC ? 0 : pt->joined / P, &q[3], 1, &k[3]);
	} else {
		double n = sched == SCHED_STATIC ? 0 : pt->joined / P, sq[4], sk[4];
		int order[4] = {0, 1, 2, 3};
		/* ascending, the SLO's level among the three */
		for (int i = 3; i > 0 && q[order[i]] < q[order[i - 1]]; i--) {
			int t = order[i];
			order[i] = order[i - 1];
			order[i - 1] = t;
		}
		for (int i = 0; i < 4; i++)
			sq[i] = q[order[i]];
		poisson_quantiles(n, sq, 4, sk);
		for (int i = 0; i < 4; i++)
			k[order[i]] = sk[i];
	}
	for (lv = all ? 0 : 3; lv < 4; lv++) {
		double ql = q[lv], wait = ql * res, gap, ttft, e2e;
		if (rho_p > 0 && ql > 1 - rho_p)
			wait += wq / rho_p * log(rho_p / (1 - ql));
		else if (rate <= 0)
			wait += wq;
		gap = serve_gap(c, in, sched, pt, run, k[lv], P);
		/* The SLO's level is a request's TPOT, the mean of its O - 1 gaps, as serving
		 * SLOs state it (DistServe, Zhong et al., OSDI 2024, Section 2: per-request TPOT;
		 * vLLM's benchmark_serving reports it apart from the per-token ITL): the prompts
		 * that join over its G = O - 1 gaps (under an output-length law the harmonic
		 * mean, request_gaps) are Poisson(G n), at most one step each
		 * while there are fewer than steps: K of its steps carry prompts, the others are
		 * plain decode steps. The P50/P90/P99 levels stay the per-token gap, the ITL
		 * engines' benchmarks print. */
		if (lv == 3 && g->gaps > 1 && sched != SCHED_STATIC) {
			double G = g->gaps, K, n = pt->joined / P * G, f;
			poisson_quantiles(n, &q[3], 1, &K);
			f = min_num(K, G) / G;
			v->slo_gaps = G;
			v->slo_share = f;
			v->slo_gap_s =
			    f > 0 ? serve_gap(c, in, sched, pt, run, K / (f * G), P) : pt->decode;
			gap = f > 0 ? (1 - f) * serve_gap(c, in, sched, pt, run, 0, P) +
					  f * v->slo_gap_s
				    : serve_gap(c, in, sched, pt, run, 0, P);
		}
		ttft = pt->ttft + wait;
		e2e = ttft + (O > 1 ? O - 1 : 0) * pt->step;
		v->lv_own_s[lv] = pt->ttft;
		v->lv_wait_s[lv] = wait;
		v->lv_k[lv] = k[lv];
		v->lv_add_s[lv] = gap - pt->decode;
		v->lv_out[lv] = O;
		if (lengths && sched != SCHED_STATIC) {
			/* the prompt and the output at the level's lengths (a static batch's
			 * requests wait for all its prompts: the mean's) */
			struct serve_memo *m = g->memo;
			double Pq, Oq;
			if (!m->known[lv] || m->q[lv] != ql) {
				m->prompt[lv] =
				    law_quantile(&w->prompt_length, w->prompt_tokens, ql);
				m->output[lv] = law_quantile(&w->output_length, O, ql);
				m->q[lv] = ql;
				m->known[lv] = true;
			}
			Pq = P * m->prompt[lv] / (w->prompt_tokens > 0 ? w->prompt_tokens : 1);
			Oq = m->output[lv];
			double others = run > 1 ? micro(in, run - 1) : 0;
			v->lv_own_s[lv] =
			    own_ttft(c, in, sched, g->T, others, max_num(Pq, 1)) + pt->ahead;
			v->lv_out[lv] = Oq;
			ttft = v->lv_own_s[lv] + wait;
			e2e = ttft + (Oq > 1 ? Oq - 1 : 0) * pt->step;
		}
		if (v->overloaded)
			ttft = e2e = NAN;
		if (lv < 3) {
			v->ttft[lv] = ttft;
			v->tpot[lv] = gap;
			v->e2e[lv] = e2e;
		} else {
			v->ttft_slo_s = ttft;
			v->tpot_slo_s = gap;
		}
	}
}

/* Whether the engine under a load keeps its queue stable and meets the SLO at the
 * percentile (the test PW_SLO_PERCENTILE warns on; an unset target always holds). */
static bool serve_meets(const struct workload *w, const struct plan_serving *v)
{
	if (v->overloaded)
		return false;
	if (w->slo.ttft_s > 0 && !(v->ttft_slo_s <= w->slo.ttft_s * (1 + 1e-9)))
		return false;
	return !(w->slo.tpot_s > 0 && !(v->tpot_slo_s <= w->slo.tpot_s * (1 + 1e-9)));
}

bool plan_serving_meets(const struct scenario *s, const struct plan *p)
{
	const struct workload *w = &s->workload;
	const struct plan_serving *v = &p->serving;
	bool load = w->requests_per_day > 0 || w->requests_per_s > 0;

	if (w->kind != WL_ONLINE && w->kind != WL_OFFLINE)
		return true;
	if (!isnan(v->scheduler)) {
		/* the loaded engine at this count's share of the rate: the test fleet_try
		 * makes at each count it plans, so a count meets iff it is not below the
		 * walk's answer */
		if (!serve_meets(w, v))
			return false;
	} else {
		if (w->slo.ttft_s > 0 && !(p->ttft_s <= w->slo.ttft_s * (1 + 1e-9)))
			return false;
		if (w->slo.tpot_s > 0 && !(p->tpot_s <= w->slo.tpot_s * (1 + 1e-9)))
			return false;
	}
	/* the fleet the load needs: NaN when no count meets (FLEET_CANNOT) */
	if (w->kind == WL_ONLINE && load &&
	    (isfinite(p->gpus_required) || v->fleet_rule == FLEET_CANNOT) &&
	    !(p->gpus_required <= s->hardware.count))
		return false;
	return true;
}

/* The most replicas the walk tries: PLAN_MAX_GPUS GPUs. */
static double fleet_max(double span)
{
	return floor(PLAN_MAX_GPUS / span);
}

/* The capacity walk in progress: the SLO's latencies and the utilisation where the last
 * count that met (i = 0) and the last that did not (i = 1) were planned. */
struct fleet_walk {
	const struct tctx *c;
	const struct infer *in;
	const struct serve_cfg *g;
	struct plan_serving t; /* scratch */
	double rate, engines;
	double evals; /* one-point evaluations + planned counts */
	double at[2][3];
};

/* The engine at x replicas, as plan_compute plans it at hardware.count = x tp pp ep. */
static bool fleet_try(struct fleet_walk *f, double x)
{
	const struct workload *w = &f->c->s->workload;
	bool ok;
	/* the SLO's level alone: the walk reads no other (serve_levels) */
	serve_load(f->c, f->in, f->g, f->rate / (x * f->engines), false, &f->t);
	f->evals++;
	ok = serve_meets(w, &f->t);
	f->at[!ok][0] = f->t.ttft_slo_s;
	f->at[!ok][1] = f->t.tpot_slo_s;
	f->at[!ok][2] = f->t.utilisation;
	return ok;
}

/* The engine at running batch B without the root-finding: the rate that keeps it is
 * B / e2e(B) (Little's law read backwards), so a batch costs one serve_at. */
static bool fleet_batch(struct fleet_walk *f, double B, double *rate)
{
	struct serve_point pt;
	const struct serve_cfg *g = f->g;
	serve_at_memo(f->c, f->in, g, B, max_num(B - 1, 0) / g->O, &pt);
	*rate = B / pt.e2e;
	f->evals++;
	f->t.overloaded = false;
	serve_levels(f->c, f->in, g, &pt, B, *rate, 0, false, &f->t);
	return serve_meets(&f->c->s->workload, &f->t);
}

/* The fewest replicas that meet, above bad (which misses): good when it is known to meet,
 * else the first of bad x 2, x 4, ... up to top that does (NaN: none); then bisected. */
static double fleet_least(struct fleet_walk *f, double bad, double good, double top)
{
	for (double x = max_num(bad * 2, 1); isnan(good) && bad < top; x *= 2) {
		x = min_num(x, top);
		if (fleet_try(f, x))
			good = x;
		else
			bad = x;
	}
	while (!isnan(good) && good - bad > 1) {
		double mid = floor((good + bad) / 2);
		if (fleet_try(f, mid))
			good = mid;
		else
			bad = mid;
	}
	return good;
}

/* capacity_plan under load, for an open-loop peak rate: the fewest replicas R (tp x pp x ep
 * GPUs each, that is ep engines of tp x pp, each taking rate / (R ep) as plan_compute at
 * hardware.count = R tp pp ep gives it) whose engine keeps utilisation below 1 and, under
 * an SLO, meets it at the percentile.
 *  - Stability alone is closed-form: an engine completes at most capacity_rate requests/s
 *    at its running cap, whatever its arrival rate, so R > rate / (ep capacity_rate).
 *  - The latencies at the percentile fall as the rate per engine falls (a smaller running
 *    batch, fewer prompts joining a step, a shorter queue), towards those of a lone
 *    request, which no number of replicas goes below: a target under the lone request's
 *    latency cannot be met, and is said so at once.
 *  - Otherwise the count is found on the running batch, where the model needs no root:
 *    bisect B between 0 (meets) and the running cap (misses, or the stable count meets) until the
 *    rates B / e2e(B) on either side name adjacent counts; then plan the count and one
 *    fewer as plan_compute does (the answer meets, one fewer misses, both planned). Where
 *    those two disagree with the batch's verdict (the root's tolerance; or under pp > 1,
 *    where the batch crossing the pipeline depth makes the latencies step down) it walks
 *    the counts themselves: doubling up, then bisecting.
 * About 15 one-point evaluations and 2 planned counts; one without an SLO (the stable count
 * planned: its prompt budget must keep up too, serve_levels). */
static void serve_fleet(const struct tctx *c, const struct infer *in, const struct serve_cfg *g,
			double rate, double engines, double span)
{
	const struct workload *w = &c->s->workload;
	struct plan *p = c->p;
	struct plan_serving *v = &p->serving;
	struct fleet_walk f;
	bool slo = w->slo.ttft_s > 0 || w->slo.tpot_s > 0;
	double top = fleet_max(span), good = NAN, bad, r, cr = v->capacity_rate, lam;

	f.c = c, f.in = in, f.g = g, f.t = *v;
	f.rate = rate, f.engines = engines, f.evals = 0;
	for (int i = 0; i < 2; i++)
		f.at[i][0] = f.at[i][1] = f.at[i][2] = NAN;
	v->fleet_rate = rate;
	v->fleet_engines = engines;
	/* capacity_rate does not depend on the rate: the engine at its cap */
	r = ceil(rate / (engines * cr * (1 - 1e-9)));
	if (!(r >= 1))
		r = 1;
	if (rate / (r * engines) >= cr * (1 - 1e-9))
		r += 1; /* rounding: serve_load's own test decides */
	v->fleet_stable = bad = r;
	if (slo) {
		/* the floor: a batch so small that nothing queues or joins */
		fleet_batch(&f, 1e-9, &lam);
		v->fleet_lone_ttft_s = f.t.ttft_slo_s;
		v->fleet_lone_tpot_s = f.t.tpot_slo_s;
	}
	if (r > top) {
		good = NAN;
	} else if (!slo) {
		/* stable at the cap, unless the prompts outrun the budget's passes there */
		good = fleet_try(&f, r) ? r : fleet_least(&f, r, NAN, top);
	} else if (!serve_meets(w, &f.t)) {
		good = NAN;
	} else {
		/* on the batch: lo meets (0: the lone floor), hi misses (the cap, which fewer
		 * than r replicas overrun); rg and rb are the counts their rates name */
		double lo = 0, hi = g->cap, rg = INFINITY, rb = r - 1;
		if (fleet_batch(&f, hi, &lam))
			rg = r;
		for (int it = 0; it < 64 && !(rg - rb <= 1) && hi - lo > 1e-12 * hi; it++) {
			double mid = 0.5 * (lo + hi);
			if (fleet_batch(&f, mid, &lam)) {
				lo = mid;
				rg = ceil(rate / (engines * lam));
			} else {
				hi = mid;
				rb = max_num(rb, floor(rate / (engines * lam)));
			}
		}
		/* the counts themselves, planned: rg, then one fewer (below r: overloaded) */
		bad = r - 1;
		good = min_num(max_num(rg, r), top);
		if (!fleet_try(&f, good)) {
			bad = good;
			good = NAN;
		} else if (good - 1 > bad && fleet_try(&f, good - 1)) {
			good -= 1;
		} else if (good - 1 > bad) {
			bad = good - 1;
		}
		good = fleet_least(&f, bad, good, top);
	}
	v->fleet_evals = f.evals;
	if (isnan(good)) {
		/* no count meets: say which target and why, report no count */
		v->fleet_rule = FLEET_CANNOT;
		p->replicas = p->gpus_required = NAN;
		if (slo && w->slo.ttft_s > 0 &&
		    !(v->fleet_lone_ttft_s <= w->slo.ttft_s * (1 + 1e-9)))
			plan_warn(p, PW_SLO_UNREACHABLE_TTFT, v->fleet_lone_ttft_s, w->slo.ttft_s);
		else if (slo && w->slo.tpot_s > 0 &&
			 !(v->fleet_lone_tpot_s <= w->slo.tpot_s * (1 + 1e-9)))
			plan_warn(p, PW_SLO_UNREACHABLE_TPOT, v->fleet_lone_tpot_s, w->slo.tpot_s);
		else /* met, if at all, only past PLAN_MAX_GPUS */
			plan_warn(p, PW_FLEET_OVER_MAX, top, span);
		return;
	}
	v->fleet_rule = slo ? FLEET_SLO : FLEET_STABLE;
	p->replicas = good;
	p->gpus_required = good * span;
	/* the answer and one fewer, as the explanation quotes them: one fewer than the stable
	 * count is overloaded (no latency) */
	if (good == r) {
		f.at[1][0] = f.at[1][1] = NAN;
		f.at[1][2] = r > 1 ? rate / ((r - 1) * engines * cr) : NAN;
	}
	if (!slo) {
		f.at[0][0] = f.at[0][1] = NAN;
		f.at[0][2] = rate / (r * engines * cr);
	}
	for (int i = 0; i < 2; i++) {
		v->fleet_ttft_s[i] = f.at[i][0];
		v->fleet_tpot_s[i] = f.at[i][1];
		v->fleet_util[i] = f.at[i][2];
	}
}

/* The terms of a decode step of Bm sequences (a micro-batch), which add up to step, the
 * time they give; and the bottleneck shares of that step. */
static void decode_terms(const struct tctx *c, const struct infer *in, double Bm, double step)
{
	struct plan *p = c->p;
	const struct lines *l = in->l;
	struct plan_decode *d = &p->decode;
	double inv_tpot = 1 / step;
	d->batch = Bm;
	d->step_s = step;
	d->gemm_s = gemm_compute_s(l, Bm);
	d->weight_read_s = l->m0;
	d->attention_s = l->a1 * Bm;
	d->attention_flops_s = l->c_att1 * Bm;
	d->kv_read_s = l->kv1 * Bm;
	d->elementwise_s = Bm * in->elt_per_tok;
	d->tp_comm_s = in->tp_fixed + Bm * in->tp_only_per_tok;
	d->ep_comm_s = in->ep_fixed + Bm * in->ep_per_tok;
	d->pp_comm_s = in->pp_fixed;
	d->fixed_s = in->base_fixed;
	d->eager_s = 0;
	if (in->sk <= 0 && Bm > in->graph_bs) {
		double gpu = dmax(d->gemm_s, d->weight_read_s) + d->attention_s + d->elementwise_s +
			     d->tp_comm_s + d->ep_comm_s + d->pp_comm_s + d->fixed_s;
		d->eager_s = max_num(in->eager_host - gpu, 0);
	}
	d->spec_tokens_per_step = d->verify_s = d->draft_s = NAN;
	if (in->sk > 0) {
		/* the verify pass's terms: K + 1 rows a sequence */
		double k1 = in->sk + 1;
		d->gemm_s = gemm_compute_s(l, Bm * k1);
		d->attention_flops_s = l->c_att1 * k1 * Bm;
		d->attention_s = dmax(l->c_att1 * k1, l->kv1) * Bm;
		d->elementwise_s = Bm * k1 * in->elt_per_tok;
		d->tp_comm_s = in->tp_fixed + Bm * k1 * in->tp_only_per_tok;
		d->ep_comm_s = in->ep_fixed + Bm * k1 * in->ep_per_tok;
		d->spec_tokens_per_step = in->sE;
		d->draft_s = in->sk * draft_step_s(in, Bm);
		d->verify_s = step * in->sE - d->draft_s;
		inv_tpot = 1 / (d->verify_s + d->draft_s);
	}
	p->parts.matmul_s = d->gemm_s;
	p->parts.attention_s = d->attention_s;
	p->parts.memory_bound_s = d->elementwise_s;
	p->parts.tp_comm_s = d->tp_comm_s;
	p->parts.ep_comm_s = d->ep_comm_s;
	p->parts.pp_comm_s = d->pp_comm_s;
	p->shares[BN_COMPUTE] = (d->gemm_s + d->attention_flops_s) * inv_tpot;
	p->shares[BN_HBM] = (d->weight_read_s + d->kv_read_s + d->elementwise_s) * inv_tpot;
	p->shares[BN_INTERCONNECT] = (d->tp_comm_s + d->ep_comm_s + d->pp_comm_s) * inv_tpot;
}

/* MFU of an inference plan: tokens/s counts generated tokens, each carrying its share of
 * the prompt's prefill, (prompt + output) / output tokens' worth of FLOPs (PaLM,
 * Chowdhery et al. 2022, Appendix B) */
static void infer_mfu(const struct tctx *c)
{
	const struct workload *w = &c->s->workload;
	struct plan *p = c->p;
	double P = w->prompt_tokens > 0 ? w->prompt_tokens : 1;
	double O = w->output_tokens > 0 ? w->output_tokens : 1;
	p->mfu = p->flops_per_token * p->tokens_per_s_per_gpu * (P + O) / (O * c->peak);
	p->hfu = p->mfu;
}

/* ---- disaggregated prefill and decode (workload.scheduler disaggregated) ----
 * Prefill engines run prompts and send each prompt's KV cache to a decode engine, which
 * only decodes (DistServe, Zhong et al., OSDI 2024; Splitwise, Patel et al., ISCA 2024;
 * NVIDIA Dynamo; SGLang --disaggregation-mode prefill|decode). The pools do not interfere,
 * so each is sized for its own target:
 *  - a prefill engine is an M/D/1 queue of prompts with service D, a prompt's prefill
 *    (DistServe, Section 3.1, Equation 1: mean TTFT = D + R D^2 / (2 (1 - R D))), with the
 *    waiting time's exponential tail at a level as serve_levels takes it; then the
 *    prompt's KV, prompt x KV bytes a token for each GPU's share, crosses to the decode
 *    engine at the fabric's bandwidth (NVLink within a node, the network across; the
 *    bulk-transfer path of SGLang's disaggregation/mooncake and Dynamo's NIXL), which the
 *    first token waits for;
 *  - a decode engine runs decode steps alone: B = rate x (O - 1) x step(B) (Little's law
 *    over its O - 1 steps), every gap the same step;
 *  - a prefill engine batches the prompts waiting into one pass of up to the token budget
 *    (DistServe, Section 3.1: batching prompts pays until the pass is compute-bound;
 *    SGLang's prefill server runs its waiting queue as one extend batch of up to
 *    chunked_prefill_size tokens, disaggregation/prefill.py event_loop_normal_disagg_prefill
 *    with get_new_batch_prefill): when busy it serves a prompt in S = P / F x pass(F), F
 *    the budget (or the prompt when longer), which saves the weight read and the fixed
 *    costs a pass of one short prompt pays; the load is rate x S, the pass in service
 *    still D, so the wait is rho D / (2 (1 - rho)) with rho = rate S / engines.
 * The capacity plan chooses the split: the fewest prefill engines whose TTFT meets the SLO
 * at its percentile, and the fewest decode engines whose batch at the SLO's TPOT carries
 * the rate. */

/* A decode engine's step at running batch B. */
static double disagg_step(const struct tctx *c, const struct infer *in, double B)
{
	return decode_step_s(c, in, B > 1 ? micro(in, B) : 1, in->ctx);
}

/* The running batch of a decode engine at r requests/s (B = r (O - 1) step(B)), by
 * bisection; cap + 1 when the cap overruns. */
static double disagg_batch(const struct tctx *c, const struct infer *in, double r, double O,
			   double cap)
{
	double lo = 0, hi = cap, steps = O > 1 ? O - 1 : 1;
	if (r * steps * disagg_step(c, in, cap) >= cap * (1 - 1e-9))
		return cap + 1;
	for (int it = 0; it < 60 && hi - lo > 1e-9 * (1 + hi); it++) {
		double mid = 0.5 * (lo + hi);
		if (r * steps * disagg_step(c, in, mid) > mid)
			lo = mid;
		else
			hi = mid;
	}
	return hi;
}

/* The prefill pool's wait at level q (and its mean, q < 0) at utilisation rho. */
static double disagg_wait(double D, double rho, double q)
{
	double wq = rho * D / (2 * (1 - rho));
	if (q < 0)
		return wq;
	return rho > 0 && q > 1 - rho ? wq / rho * log(rho / (1 - q)) : 0;
}

/* The pools under a peak rate: fills v as serve_load does (rate, batch, levels) for the
 * given split, and the capacity plan. */
static void serve_disagg(const struct tctx *c, const struct infer *in, const struct serve_cfg *g,
			 double rate, double engines_deployed, double span)
{
	const struct scenario *s = c->s;
	const struct workload *w = &s->workload;
	struct plan *p = c->p;
	struct plan_serving *v = &p->serving;
	double O = g->O, steps = O > 1 ? O - 1 : 1, cap = g->cap;
	double D = in->host_load + prefill_s(in, g->P, g->P);
	/* a prompt's share of a full batched pass: the pool's service, rate x S its load */
	double Fb = isfinite(g->T) ? max_num(g->T, g->P) : g->P;
	double S = in->host_load + g->P / Fb * prefill_s(in, Fb, g->P);
	double X = w->prompt_tokens * p->mem.kv_bytes_per_token / fabric_bw(c, 2 * span);
	double own = D + X, q = v->slo_percentile / 100, top = fleet_max(span);
	double np, nd, rho, r, B, st, lvq[4] = {serve_q[0], serve_q[1], serve_q[2], q};
	bool slo = w->slo.ttft_s > 0 || w->slo.tpot_s > 0;

	v->prefill_s = D;
	v->prompt_svc_s = S;
	v->kv_transfer_s = X;
	v->ttft_service_s = own;
	/* the capacity plan: each pool on its own (engines cover the whole peak) */
	if (rate > 0) {
		double bt = cap, fp, fd;
		/* decode: the largest batch meeting the TPOT target, its rate per engine */
		if (w->slo.tpot_s > 0) {
			double lo = 0, hi = cap;
			if (disagg_step(c, in, 1) > w->slo.tpot_s * (1 + 1e-9))
				hi = 0;
			for (int it = 0; it < 60 && hi - lo > 1e-6; it++) {
				double mid = 0.5 * (lo + hi);
				if (disagg_step(c, in, mid) <= w->slo.tpot_s)
					lo = mid;
				else
					hi = mid;
			}
			bt = hi > 0 ? lo : 0;
		}
		fd = bt > 0 ? floor(rate * steps * disagg_step(c, in, bt) / bt * (1 - 1e-9)) + 1
			    : NAN;
		/* prefill: stable, then the TTFT at the percentile */
		fp = floor(rate * S * (1 - 1e-9)) + 1;
		if (w->slo.ttft_s > 0) {
			if (own > w->slo.ttft_s)
				fp = NAN;
			else
				while (fp <= top && own + disagg_wait(D, rate * S / fp, q) >
							w->slo.ttft_s * (1 + 1e-9))
					fp = fp < 64 ? fp + 1 : ceil(fp * 1.01);
		}
		v->fleet_prefill = fp;
		v->fleet_decode = fd;
		/* the floor and the answer, as the explanation quotes them */
		v->fleet_lone_ttft_s = own;
		v->fleet_lone_tpot_s = disagg_step(c, in, 1);
		if (isfinite(fp) && isfinite(fd)) {
			double bd = disagg_batch(c, in, rate / fd, O, cap);
			v->fleet_ttft_s[0] = own + disagg_wait(D, rate * S / fp, q);
			v->fleet_tpot_s[0] = disagg_step(c, in, min_num(bd, cap));
			v->fleet_util[0] = max_num(
			    rate * S / fp, rate / fd * steps * disagg_step(c, in, cap) / cap);
		}
		v->fleet_rate = rate;
		v->fleet_engines = 1;
		v->capacity_rate = bt > 0 ? cap / (steps * disagg_step(c, in, cap)) : NAN;
		v->fleet_stable = ceil(rate / v->capacity_rate * (1 - 1e-9));
		if (isnan(fp) || isnan(fd) || fp + fd > top) {
			v->fleet_rule = FLEET_CANNOT;
			p->replicas = p->gpus_required = NAN;
			if (isnan(fp) && w->slo.ttft_s > 0)
				plan_warn(p, PW_SLO_UNREACHABLE_TTFT, own, w->slo.ttft_s);
			else if (isnan(fd))
				plan_warn(p, PW_SLO_UNREACHABLE_TPOT, disagg_step(c, in, 1),
					  w->slo.tpot_s);
			else
				plan_warn(p, PW_FLEET_OVER_MAX, top, span);
		} else {
			v->fleet_rule = slo ? FLEET_SLO : FLEET_STABLE;
			p->replicas = fp + fd;
			p->gpus_required = p->replicas * span;
		}
	}
	/* the split of the scenario's engines: as given, else the capacity plan's ratio */
	np = w->prefill_engines, nd = w->decode_engines;
	if (np <= 0 && nd <= 0) {
		double f = isfinite(v->fleet_prefill) && isfinite(v->fleet_decode)
			       ? v->fleet_prefill / (v->fleet_prefill + v->fleet_decode)
			       : 0.5;
		np = max_num(1, floor(engines_deployed * f + 0.5));
		nd = engines_deployed - np;
	} else if (np <= 0) {
		np = engines_deployed - nd;
	} else if (nd <= 0) {
		nd = engines_deployed - np;
	}
	np = max_num(np, 1), nd = max_num(nd, 1);
	v->prefill_engines = np;
	v->decode_engines = nd;
	/* the pools at that split: an arrival rate, or a closed loop of decodes */
	rho = rate > 0 ? rate * S / np : 0;
	r = rate > 0 ? rate / nd : 0;
	v->prefill_util = rho;
	if (rate > 0) {
		B = disagg_batch(c, in, r, O, cap);
	} else {
		double C = w->concurrency > 0 ? w->concurrency : g->B;
		B = min_num(C, cap);
		if (w->kind == WL_OFFLINE && w->concurrency <= 0)
			B = w->batch > 0 ? min_num(w->batch, cap) : cap;
		v->concurrency = C;
	}
	v->overloaded = rho >= 1 - 1e-9 || B > cap;
	if (B > cap)
		B = cap;
	st = disagg_step(c, in, B);
	if (rate > 0 || isnan(v->capacity_rate)) {
		v->capacity_rate = cap / (steps * disagg_step(c, in, cap));
		v->e2e_cap_s = steps * disagg_step(c, in, cap);
	}
	if (rate <= 0) { /* a closed loop runs full */
		v->capacity_rate = B / (steps * st);
		v->e2e_cap_s = steps * st;
	}
	v->rate = rate > 0 ? r : NAN;
	v->batch = B;
	v->prefill_per_step = 0;
	v->utilisation = rate > 0 ? r / v->capacity_rate : 1;
	/* completed per decode engine: the arrivals, or what the slower pool completes
	 * when they outrun it */
	v->requests_per_s = rate > 0 ? min_num(rate, min_num(np / S, nd * v->capacity_rate)) / nd
				     : B / (steps * st);
	v->step_decode_s = st;
	v->step_frac = 0;
	v->e2e_run_s = steps * st;
	v->wait_res_s = 0;
	v->wait_queue_s = rho > 0 && rho < 1 ? disagg_wait(D, rho, -1) : 0;
	v->wait_s = v->wait_queue_s;
	v->room = NAN;
	if (v->overloaded) /* no steady state: no wait, no concurrency (null) */
		v->wait_queue_s = v->wait_s = NAN;
	if (rate > 0)
		v->concurrency = v->requests_per_s * (v->e2e_run_s + v->wait_s);
	v->ttft_mean_s = v->overloaded ? NAN : own + v->wait_s;
	v->tpot_mean_s = st;
	v->e2e_mean_s = v->ttft_mean_s + steps * st;
	for (int lv = 0; lv < 4; lv++) {
		double wait = rho > 0 && rho < 1 ? disagg_wait(D, rho, lvq[lv]) : 0;
		double ttft = v->overloaded ? NAN : own + wait;
		v->lv_own_s[lv] = own;
		v->lv_wait_s[lv] = wait;
		v->lv_k[lv] = 0;
		v->lv_add_s[lv] = 0;
		v->lv_out[lv] = O;
		if (lv < 3) {
			v->ttft[lv] = ttft;
			v->tpot[lv] = st;
			v->e2e[lv] = ttft + steps * st;
		} else {
			v->ttft_slo_s = ttft;
			v->tpot_slo_s = st;
		}
	}
}

/* Serving under load at the batch B time_infer chose (the cap when no load is given):
 * fills p->serving and, for a scheduler other than alone, replaces TTFT, TPOT, the
 * throughput and the capacity plan by the loaded engine's. */
/* ---- a finite run (workload.requests) ----
 * A benchmark reports output tokens / its duration: SGLang's bench_serving
 * (python/sglang/bench_serving.py, benchmark: benchmark_duration from the first request
 * sent to the last one done; calculate_metrics: output_throughput = sum(output_lens) /
 * dur_s), vLLM's benchmark_serving the same, LMDeploy's profile_generation.py
 * (profile_throughput: out_token_throughput = the tokens / the time from the first
 * thread's start to the last one's end). A run of N requests per replica lasts:
 *  - open arrivals at rate r: get_request sends the i-th after i - 1 exponential gaps, so
 *    the last one leaves at (N - 1) / r on average and the run ends when it is done, its
 *    e2e later (the lengths are fixed, so the last sent is the last done);
 *  - all at once (offline, request_rate inf; a closed loop or a static batch, each of B
 *    clients sending its next when the last ends): fixed lengths keep the B running
 *    requests in step, so the run is floor(N / B) waves of the running batch's e2e and
 *    one of the N mod B left over, at that batch (its steps carry fewer sequences over
 *    the same weight read, the drain of the run).
 * A saturated open loop is the waves too, never shorter than its arrivals. */
static double finite_run(const struct tctx *c, const struct infer *in, const struct serve_cfg *g,
			 const struct plan_serving *v, double N)
{
	double run = v->batch > 1 ? v->batch : 1, full = floor(N / run + 1e-9),
	       rem = N - full * run;
	/* each wave's next request also waits for the others' prompts at the token budget,
	 * as the steady state's closed loop does (closed_wait), so whole waves give exactly
	 * the steady state's throughput */
	double wait = isfinite(v->closed_wait_s) ? v->closed_wait_s : 0;
	double waves = full * (v->e2e_run_s + wait);
	if (rem > 1e-9) {
		struct serve_point tail;
		serve_at(c, in, g->sched, g->T, g->P, g->O, rem, max_num(rem - 1, 0) / g->O, &tail);
		waves += tail.e2e;
	}
	if (!(v->rate > 0))
		return waves;
	if (v->overloaded)
		return max_num(waves, max_num(N - 1, 0) / v->rate + v->e2e_cap_s);
	return max_num(N - 1, 0) / v->rate + v->e2e_mean_s;
}

/* The loaded engine's configuration (serve's, and loaded_slo_batch's): the scheduler,
 * the lengths a prefill and a decode see, the step's token budget and the running cap. */
static void serve_config(const struct tctx *c, const struct infer *in, double B, double maxb,
			 struct serve_cfg *o)
{
	const struct scenario *s = c->s;
	const struct workload *w = &s->workload;
	const struct framework_info *fw = framework_get(w->framework);
	struct serve_cfg g;

	g.sched = framework_scheduler(w->framework, w->scheduler);
	g.memo = NULL; /* the caller's (serve_memo) */
	/* the prompt tokens a prefill computes: those a prefix cache does not hold */
	g.P = (w->prompt_tokens > 0 ? w->prompt_tokens : 1) * (1 - in->hit);
	g.O = w->output_tokens > 0 ? w->output_tokens : 1;
	g.gaps = request_gaps(&w->output_length, g.O);
	g.B = B;
	g.T = w->max_batched_tokens > 0
		  ? w->max_batched_tokens
		  : framework_max_batched_tokens(w->framework, s->hardware.gpu.memory_bytes);
	if (!(g.T > 0))
		g.T = INFINITY;
	g.cap = w->max_running > 0 ? w->max_running : fw->max_running > 0 ? fw->max_running : maxb;
	g.cap = min_num(g.cap, maxb);
	if (g.cap < 1)
		g.cap = 1;
	if (g.sched == SCHED_CHUNKED && isfinite(g.T)) {
		/* the budget bounds the batch it can refill: (B - 1) P / O = T - B */
		double bt = floor((g.T + g.P / g.O) / (1 + g.P / g.O));
		if (bt >= 1)
			g.cap = min_num(g.cap, bt);
	}
	*o = g;
}

/* The engine held at running batch B by its own rate B / e2e (Little's law): its excess
 * over the SLO at the percentile, the larger of latency / target - 1 over the targets set
 * (<= 0 meets, as serve_meets tests), for loaded_slo_batch's root. */
static double slo_excess(const struct tctx *c, const struct infer *in, const struct serve_cfg *g,
			 double B, struct plan_serving *t)
{
	const struct slo *slo = &c->s->workload.slo;
	struct serve_point pt;
	double x = -1;
	serve_at(c, in, g->sched, g->T, g->P, g->O, B, max_num(B - 1, 0) / g->O, &pt);
	t->overloaded = false;
	serve_levels(c, in, g, &pt, B, B / pt.e2e, 0, false, t);
	if (slo->ttft_s > 0)
		x = max_num(x, t->ttft_slo_s / (slo->ttft_s * (1 + 1e-9)) - 1);
	if (slo->tpot_s > 0)
		x = max_num(x, t->tpot_slo_s / (slo->tpot_s * (1 + 1e-9)) - 1);
	return isnan(x) ? INFINITY : x;
}

/* capacity_plan.slo_batch under a loaded scheduler (prefill-first, chunked): the largest
 * running batch B whose engine in steady state meets the SLO at its percentile, each step
 * its decodes plus the (B - 1) P / O prompt tokens that join it at B's own rate B / e2e
 * (Little's law), as serving.* reports the engine at that batch. The lone decode step's
 * bound (time_infer) is the upper end, as no joining prompt shortens a step. 0 where even
 * a batch of one misses. The excess grows nearly linearly in B (the step is linear in the
 * batch and the prompts joining it): regula falsi on whole batches (Illinois), about four
 * one-point evaluations. */
static double loaded_slo_batch(const struct tctx *c, const struct infer *in, double B, double maxb,
			       double lone)
{
	struct serve_cfg g;
	struct serve_memo memo; /* serve_at's points at this configuration */
	struct plan_serving t;
	double lo = 1, hi, flo, fhi;
	int side = 0;

	serve_config(c, in, B, maxb, &g);
	memo.n = 0;
	for (int i = 0; i < 4; i++)
		memo.known[i] = false;
	g.memo = &memo;
	if ((g.sched != SCHED_CHUNKED && g.sched != SCHED_PREFILL_FIRST) || !(lone >= 1))
		return lone;
	hi = floor(min_num(g.cap, lone));
	serving_nan(&t);
	t.slo_percentile = c->s->workload.slo.percentile > 0 ? c->s->workload.slo.percentile : 99;
	if ((fhi = slo_excess(c, in, &g, hi, &t)) <= 0)
		return hi;
	if (hi <= 1 || (flo = slo_excess(c, in, &g, 1, &t)) > 0)
		return 0;
	/* lo meets (flo <= 0), hi misses (fhi > 0) */
	while (hi - lo > 1) {
		double mid = floor(lo + (hi - lo) * (-flo) / (fhi - flo)), f;
		mid = min_num(max_num(mid, lo + 1), hi - 1);
		f = slo_excess(c, in, &g, mid, &t);
		if (f <= 0) {
			lo = mid, flo = f;
			if (side == -1)
				fhi /= 2;
			side = -1;
		} else {
			hi = mid, fhi = f;
			if (side == 1)
				flo /= 2;
			side = 1;
		}
	}
	return lo;
}

/* The fleet's lone-request warnings (serve_fleet, serve_disagg) quote latencies at the
 * SLO percentile: it goes with them, for the message to name it. */
static void lone_warnings_at(struct plan *p, double percentile)
{
	for (int i = 0; i < p->nwarnings; i++)
		if ((p->warnings[i].code == PW_SLO_UNREACHABLE_TTFT ||
		     p->warnings[i].code == PW_SLO_UNREACHABLE_TPOT) &&
		    !(p->warnings[i].c > 0))
			p->warnings[i].c = percentile;
}

/* The peak arrival rate over all replicas: workload.requests_per_s where given, which
 * takes precedence (time_infer warns when it overrides a requests_per_day), else
 * requests_per_day x peak_factor / 86,400 s. Every figure of the load follows it. */
static double peak_rate(const struct workload *w)
{
	return w->requests_per_s > 0 ? w->requests_per_s
				     : w->requests_per_day * w->peak_factor * (1.0 / 86400);
}

static void serve(const struct tctx *c, const struct infer *in, double B, double maxb,
		  double deployed, double tps_plan)
{
	const struct scenario *s = c->s;
	struct plan *p = c->p;
	const struct workload *w = &s->workload;
	struct plan_serving *v = &p->serving;
	struct serve_cfg g;
	struct serve_memo memo;
	double rate = 0, peak, engines = p->ep > 1 ? p->ep : 1;
	double span = (double)p->tp * p->pp * engines;

	serving_nan(v);
	g.sched = framework_scheduler(w->framework, w->scheduler);
	peak = peak_rate(w);
	if (g.sched == SCHED_ALONE || (unsigned)g.sched >= SCHED_COUNT) {
		/* alone: the lone step's latencies stand (no queue is modelled), but a peak
		 * above what the scenario's replicas complete at the planned batch (the
		 * measured throughput when one is given) is said: its queue has no bound */
		double cap = tps_plan / (w->output_tokens > 0 ? w->output_tokens : 1);
		if (w->requests > 0)
			plan_warn(p, PW_REQUESTS_IGNORED, 0, 0);
		if (w->kind == WL_ONLINE && peak > 0 && peak / deployed >= cap * (1 - 1e-9)) {
			v->overloaded = true;
			plan_warn(p, PW_OVERLOADED, peak / deployed, cap);
		}
		return;
	}
	serve_config(c, in, B, maxb, &g);
	memo.n = 0;
	for (int i = 0; i < 4; i++)
		memo.known[i] = false;
	g.memo = &memo;
	v->scheduler_steps = in->steps;
	if (g.sched == SCHED_DISAGG) {
		if (w->requests > 0)
			plan_warn(p, PW_REQUESTS_IGNORED, 1, 0);
		v->scheduler = g.sched;
		v->budget = isfinite(g.T) ? g.T : NAN;
		v->max_running = g.cap;
		v->slo_percentile = w->slo.percentile > 0 ? w->slo.percentile : 99;
		serve_disagg(c, in, &g, w->kind == WL_ONLINE && w->concurrency <= 0 ? peak : 0,
			     deployed, span);
		lone_warnings_at(p, v->slo_percentile);
		if (v->overloaded)
			plan_warn(p, PW_OVERLOADED, peak / deployed, v->capacity_rate);
		p->ttft_s = v->ttft_mean_s;
		p->tpot_s = p->step_s = v->tpot_mean_s;
		decode_terms(c, in, v->batch > 1 ? micro(in, v->batch) : 1, v->step_decode_s);
		if (w->measured_tokens_per_s > 0)
			return;
		p->tokens_per_s = v->requests_per_s * g.O * v->decode_engines;
		p->tokens_per_s_per_gpu =
		    p->tokens_per_s / (s->hardware.count > 0 ? s->hardware.count : 1);
		if (w->kind == WL_OFFLINE && w->tokens > 0)
			p->total_s = w->tokens / p->tokens_per_s;
		infer_mfu(c);
		return;
	}
	v->scheduler = g.sched;
	v->budget = isfinite(g.T) ? g.T : NAN; /* NaN: unlimited */
	v->max_running = g.cap;
	v->slo_percentile = w->slo.percentile > 0 ? w->slo.percentile : 99;

	/* the load: an arrival rate (split over the replicas), a closed loop, or the batch */
	if (w->kind == WL_ONLINE && w->concurrency <= 0)
		rate = peak;
	serve_load(c, in, &g, rate > 0 ? rate / deployed : 0, true, v);
	if (w->measured_tokens_per_s > 0 && rate > 0) {
		/* a measured throughput is the most a replica completes: it, not the model's
		 * cap, says whether the arrivals outrun the replica (the queue's figures stay
		 * the model's while they do not) */
		double cap = tps_plan / g.O;
		v->capacity_rate = cap;
		v->utilisation = rate / deployed / cap;
		if (!v->overloaded && rate / deployed >= cap * (1 - 1e-9)) {
			v->overloaded = true;
			v->requests_per_s = cap;
			v->concurrency = v->wait_s = NAN;
			v->ttft_mean_s = v->e2e_mean_s = v->ttft_slo_s = NAN;
			for (int i = 0; i < 3; i++)
				v->ttft[i] = v->e2e[i] = NAN;
		}
	}
	if (v->overloaded) /* the most it completes: at its cap, or what the budget takes */
		plan_warn(p, PW_OVERLOADED, v->rate,
			  v->prompt_svc_s > 0 ? min_num(v->capacity_rate, 1 / v->prompt_svc_s)
					      : v->capacity_rate);
	if (w->slo.ttft_s > 0 && !(v->ttft_slo_s <= w->slo.ttft_s * (1 + 1e-9)))
		plan_warn_at(p, PW_SLO_PERCENTILE, v->ttft_slo_s, w->slo.ttft_s, v->slo_percentile);
	if (w->slo.tpot_s > 0 && !(v->tpot_slo_s <= w->slo.tpot_s * (1 + 1e-9)))
		plan_warn_at(p, PW_SLO_PERCENTILE_TPOT, v->tpot_slo_s, w->slo.tpot_s,
			     v->slo_percentile);

	/* the loaded engine's figures replace the step alone's */
	p->ttft_s = v->overloaded ? NAN : v->ttft_mean_s;
	p->tpot_s = v->tpot_mean_s;
	p->step_s = p->tpot_s;
	/* the decode step's terms and the shares: of the running batch's decode step */
	decode_terms(c, in, v->batch > 1 ? micro(in, v->batch) : 1, v->step_decode_s);
	if (w->measured_tokens_per_s > 0) {
		if (w->requests > 0)
			plan_warn(p, PW_REQUESTS_IGNORED, 2, 0);
		return; /* a measured throughput sizes the fleet as it does alone */
	}
	p->tokens_per_s = v->requests_per_s * g.O * deployed;
	/* an offline job of workload.tokens runs at the steady state, as the capacity plan
	 * below does; a finite run (workload.requests) is a benchmark's throughput */
	if (w->kind == WL_OFFLINE && w->tokens > 0)
		p->total_s = w->tokens / p->tokens_per_s;
	if (w->requests > 0) { /* a finite run's: its tokens over its duration */
		/* the slowest replica runs the most requests: ceil of the even split */
		double N = ceil(w->requests / deployed - 1e-9);
		v->run_s = finite_run(c, in, &g, v, N);
		p->tokens_per_s = w->requests * g.O / v->run_s;
	}
	p->tokens_per_s_per_gpu = p->tokens_per_s / (s->hardware.count > 0 ? s->hardware.count : 1);
	infer_mfu(c); /* of the loaded throughput */

	/* the capacity plan from the loaded engine */
	if (rate > 0) {
		serve_fleet(c, in, &g, rate, engines, span);
		lone_warnings_at(p, v->slo_percentile);
	} else if ((w->kind == WL_ONLINE && peak > 0) ||
		   (w->kind == WL_OFFLINE && w->tokens > 0 && w->deadline_s > 0)) {
		/* a closed loop (or an offline batch) completes a fixed rate per engine: the
		 * fewest replicas whose completions cover the peak, or the tokens by the
		 * deadline; its latencies do not change with the count */
		double per = v->requests_per_s * engines; /* requests/s per replica */
		double need = w->kind == WL_ONLINE ? peak : w->tokens / (g.O * w->deadline_s);
		v->fleet_rule = FLEET_THROUGHPUT;
		v->fleet_rate = need;
		v->fleet_engines = engines;
		p->replicas = ceil(need / per - 1e-9);
		p->gpus_required = p->replicas * span;
	}
}

double plan_draft_params(const struct workload *w, const struct model *m,
			 const struct model_params *c, double *step_params, double *kv_layers)
{
	const struct speculative *sp = &w->speculative;
	double own = 0, head = 0;
	*step_params = *kv_layers = 0;
	if (sp->tokens < 1 || sp->method == SPEC_NONE || sp->method == SPEC_NGRAM ||
	    (unsigned)sp->method >= SPEC_COUNT)
		return 0;
	if (sp->method == SPEC_DRAFT) {
		/* a small model of its own (vLLM's draft_model method, SGLang's standalone):
		 * every weight read each step; its layers cache KV at the target's width (an
		 * upper bound: Llama 3.2 1B caches 8 x 64 a layer to the 70B's 8 x 128) */
		own = sp->draft_params;
		*kv_layers = sp->draft_layers;
	} else {
		/* mtp, eagle: one decoder layer (the target's shape; a MoE layer holds all its
		 * experts, its token reads the routed ones) and the 2h -> h projection of the
		 * token's embedding and the target's hidden state, reusing the target's
		 * embedding and head (EAGLE, Section 4; DeepSeek-V3, Section 2.2, the MTP
		 * module) */
		double hid = m->hidden, all, active;
		double moe = m->moe.experts > 0 && c->mlp <= 0;
		all = c->attention + c->norms +
		      (moe ? c->router + c->shared + m->moe.experts * c->expert : c->mlp);
		active = c->attention + c->norms +
			 (moe ? c->router + c->shared + m->moe.active * c->expert : c->mlp);
		own = sp->draft_params > 0 ? sp->draft_params : all + 2 * hid * hid;
		head = (sp->draft_params > 0 ? own : active + 2 * hid * hid) +
		       (c->head > 0 ? c->head : c->embedding);
		*kv_layers = 1;
		*step_params = head;
		return own;
	}
	*step_params = own;
	return own;
}

/* ---- the prefix cache's tiers (workload.prefix_cache_tokens, host_kv_cache) ----
 * The hit rate h is what a cache holding every prefix would give; W distinct prefix
 * tokens are drawn from. The device keeps cached prefixes in the KV blocks the running
 * batch leaves free ((max_batch - B) sequences' tokens; none under batch auto, which
 * packs the cache with running sequences), and an engine with a host tier keeps the
 * blocks it evicts in host memory: SGLang's HiRadixCache
 * (python/sglang/srt/mem_cache/hiradix_cache.py: eviction writes the block back to the
 * host pool, write_backup; a match reports host_hit_length and init_load_back / load_back
 * copy it to the device before the prefill; the host pool is --hicache-size GB a rank,
 * memory_pool_host.py HostKVCache), vLLM's OffloadingConnector (--kv-offloading-size GiB
 * over all ranks; the request waits for its blocks, WAITING_FOR_REMOTE_KVS), and
 * TensorRT-LLM's KvCacheConfig host_cache_size (secondary blocks, bytes a rank). With
 * uniform popularity over the W tokens, hits fall in the held ones: h x held / W, and a
 * share host / held of them is loaded over the host link, each GPU its layers' share of
 * the KV (PCIe per direction, hardware.gpu's pcie_bandwidth), ahead of the prefill
 * (vLLM's connector), or layer by layer under it where the framework does so (SGLang:
 * time_infer takes the part the prefill's layers do not hide, host_exposed). Without W:
 * every hit held on the device, no load (the plan of before). */
static double prefix_tiers(const struct tctx *c, double hit, double B, double *load)
{
	const struct workload *w = &c->s->workload;
	struct plan *p = c->p;
	double W = w->prefix_cache_tokens, kvb = p->mem.kv_bytes_per_token;
	double seq = p->mem.kv_tokens_per_seq, dev, host = 0, held, bw;
	*load = 0;
	if (!(W > 0) || !(hit > 0) || !(kvb > 0))
		return hit;
	dev = p->max_batch > B && seq > 0 ? min_num(W, (p->max_batch - B) * seq) : 0;
	if (w->host_kv_cache > 0)
		host = min_num(W - dev, w->host_kv_cache / kvb);
	held = dev + host;
	p->prefix_hit = hit * held / W;
	p->prefix_host_share = held > 0 ? host / held : 0;
	bw = c->s->hardware.gpu.pcie_bytes_per_s;
	*load = bw > 0 ? p->prefix_hit * p->prefix_host_share * w->prompt_tokens * kvb / bw : 0;
	p->host_kv_load_s = p->host_kv_copy_s = *load;
	return p->prefix_hit;
}

/* A load of ld seconds copied layer by layer under a prefill of pf over L layers, each
 * layer's compute waiting for its own layer's copy: the pipeline ends at
 * max(ld, pf) (L - 1) / L + (ld + pf) / L; what TTFT waits beyond the prefill is that
 * less pf (ld / L when the copy is the shorter, the first layer's copy). */
static double host_exposed(double ld, double pf, double L)
{
	if (!(L >= 1))
		return ld;
	return max_num(0, max_num(ld, pf) * (L - 1) / L + (ld + pf) / L - pf);
}

static void time_infer(struct tctx *c)
{
	const struct scenario *s = c->s;
	struct plan *p = c->p;
	const struct workload *w = &s->workload;
	const struct gpu *g = &s->hardware.gpu;
	struct shape sh;
	struct infer in;
	struct lines lines_ctx;
	double t = p->tp, pp = p->pp;
	double n = s->hardware.count > 0 ? s->hardware.count : 1;
	double per_replica = t * pp;
	double deployed = floor(n / per_replica);
	double P = w->prompt_tokens > 0 ? w->prompt_tokens : 1;
	double O = w->output_tokens > 0 ? w->output_tokens : 1;
	double ctx = P + O / 2;
	/* prefix caching: a share h of each prompt's tokens is found in the KV cache (vLLM's
	 * automatic prefix caching, vllm/v1/core/kv_cache_manager.py get_computed_blocks;
	 * SGLang's RadixAttention, python/sglang/srt/mem_cache/radix_cache.py match_prefix)
	 * and not recomputed: prefill computes Pc = (1 - h) P tokens, the prompt's suffix,
	 * each attending to the cached h P keys and half its own, h P + Pc / 2. Decode
	 * still reads the whole context. */
	double hit = w->prefix_cache_hit > 0 && w->prefix_cache_hit < 1 ? w->prefix_cache_hit : 0;
	double Pc;
	double N = p->active_params;
	double wbpp = p->mem.weight_bytes_per_param > 0 ? p->mem.weight_bytes_per_param
							: dtype_bytes(w->weights);
	double gpn = gpus_per_node(s);
	double bw = fabric_bw(c, t), lat = fabric_lat(c, t);
	/* expert parallelism: each of ep ranks holds experts / ep of every MoE layer and
	 * runs its own batch through the rest of the model (the memory part keeps `batch`
	 * sequences' cache on every GPU); the routed tokens of all ep ranks meet at the
	 * experts (DeepSpeed-MoE inference, Rajbhandari et al. 2022, Section 5; vLLM's
	 * data-parallel attention with expert parallelism) */
	double ep = sh_ep(p);
	double B, Bplan, maxb, dq, tps, tps_plan;
	double nonemb;

	shape_get(p, &sh);
	if (deployed < 1)
		deployed = 1;

	/* the memory part always solves max_batch for inference; 0 means not even one
	 * sequence fits (it warned): time one sequence anyway, and report the 0 */
	maxb = p->max_batch >= 1 ? p->max_batch : 1;
	B = w->batch > 0 ? w->batch : maxb;
	in.host_load = 0;
	hit = prefix_tiers(c, hit, min_num(B, maxb), &in.host_load);
	in.hit = hit;
	Pc = (1 - hit) * P;

	/* every matmul weight except the input embedding (a lookup) is read per step */
	nonemb = N - p->counts.embedding;
	if (p->model.tied_embeddings)
		nonemb = N; /* the tied embedding is the output layer's weight */
	if (nonemb <= 0)
		nonemb = N;
	in.F = 2 * nonemb * c->it;
	in.W = nonemb * wbpp * c->it;
	if (sh.moe_layers > 0 && sh.experts > sh.active && p->counts.expert > 0) {
		/* a decode step reads every expert some token routed to: of E experts with
		 * top-k routing, E (1 - (1 - k/E)^B) are touched per layer (uniform routing);
		 * the active count already holds k of them. With ep ranks each GPU holds E / ep
		 * of them and sees the tokens of all ep x B sequences. */
		double touched = sh.experts / ep * (1 - pow(1 - sh.active / sh.experts, B * ep));
		in.W += sh.moe_layers * (touched - sh.active) * p->counts.expert * wbpp * c->it;
	}
	{
		/* FLOP-weighted shape factor of one layer's GEMMs at this tp: every GEMM has
		 * K or N = h, so sat(h) is common */
		double qkv = (sh.qd + sh.qgate + 2 * sh.kvd) * c->it, q = sh.qd * c->it;
		double f =
		    sh.moe_layers > 0 ? sh.active * sh.expert_ffn + sh.shared_ffn_total : sh.ffn;
		double ft = f * c->it;
		double a_in = sh.h * qkv, a_out = q * sh.h;
		double mlp = sh.h * ft * sh.mats; /* up (and gate) and down */
		double sum = a_in + a_out + mlp;
		in.sNK = sum > 0
			     ? (a_in * sat(qkv) + a_out * sat(q) + mlp * sat(ft)) * sat(sh.h) / sum
			     : 1;
	}
	in.kvb = p->mem.kv_bytes_per_token >= 0 ? p->mem.kv_bytes_per_token * pp : 0;
	if (p->mem.draft_kv_bytes_per_token > 0) /* the draft's cache is read by its steps */
		in.kvb -= p->mem.draft_kv_bytes_per_token * pp;
	/* the whole model's state over tp, as plan_memory.c's ssm_state_bytes */
	in.state_b =
	    p->model.ssm.layers > 0 ? model_ssm_state_elems(&p->model, NULL) * c->act * c->it : 0;
	in.attn_tok = 4 * sh.layers * sh.qd * c->it;
	/* dequantising or converting each weight on the CUDA cores, once per step; a
	 * CUDA-graph engine has no such pass (its fused kernels cost GRAPH_DEQUANT_S) */
	switch (p->engine == ENGINE_CUDA_GRAPHS ? DTYPE_COUNT : w->weights) {
	case DTYPE_INT4:
	case DTYPE_NF4:
		dq = DEQUANT_OPS_4BIT;
		break;
	case DTYPE_INT8:
		dq = DEQUANT_OPS_8BIT;
		break;
	case DTYPE_FP8:
		dq = g->peak_flops[DTYPE_FP8] > 0 ? 0 : DEQUANT_OPS_8BIT;
		break;
	case DTYPE_NVFP4:
	case DTYPE_MXFP4:
	case DTYPE_FP6:
		/* block formats: multiplied as stored where the tensor cores have them, else
		 * dequantised as int4 is (dtype.h) */
		dq = g->peak_flops[w->weights] > 0 ? 0 : DEQUANT_OPS_4BIT;
		break;
	case DTYPE_BF16:
	case DTYPE_FP16:
		dq = DEQUANT_OPS_16BIT;
		break;
	default:
		dq = 0;
		break;
	}
	/* Multi-step scheduling (vLLM --num-scheduler-steps N, vllm/worker/
	 * multi_step_model_runner.py MultiStepModelRunner: one scheduling and input
	 * preparation, then N forward passes whose inputs advance on the GPU, advance_step,
	 * their outputs pythonized asynchronously) pays the host's per-step share once per N
	 * steps; the per-layer launch costs stay per step. New requests join only at an N-step
	 * boundary (serve_levels, closed_wait). */
	in.steps = framework_scheduler_steps(w->framework, w->scheduler_steps);
	if (p->engine == ENGINE_CUDA_GRAPHS) {
		in.fixed = GRAPH_TOKEN_S / in.steps + sh.layers * GRAPH_LAYER_S;
		in.dim0 = GRAPH_DIM_HALF;
		/* weights stored narrower than the GEMM's inputs: int4/int8, and fp8 under
		 * 16-bit activations or on a GPU without FP8 tensor cores */
		if (w->weights == DTYPE_INT4 || w->weights == DTYPE_NF4 ||
		    w->weights == DTYPE_INT8 ||
		    ((w->weights == DTYPE_FP8 || dtype_is_microscaled(w->weights)) &&
		     (p->precision != w->weights || !(g->peak_flops[w->weights] > 0))))
			in.fixed += nonemb * c->it * GRAPH_DEQUANT_S;
	} else {
		in.fixed = DECODE_TOKEN_S / in.steps + sh.layers * DECODE_LAYER_S;
		in.dim0 = GEMM_DIM_HALF;
	}
	if (dq > 0 && c->fp32 > 0)
		in.fixed += nonemb * c->it * dq / c->fp32;
	/* tensor parallelism: 2 all-reduces per layer of B x h activations; pipeline stages
	 * hand the token on (pp - 1) times */
	in.tp_per_tok = in.ep_per_tok = 0;
	in.tp_fixed = in.ep_fixed = in.pp_fixed = 0;
	if (t > 1) {
		in.tp_fixed = 2 * sh.layers * 2 * hops(t) * lat;
		in.tp_per_tok = 2 * sh.layers * 2 * (t - 1) * c->it * sh.h * c->act / bw;
	}
	if (pp > 1)
		in.pp_fixed = (pp - 1) * (gpn >= per_replica ? LINK_LAT_S : NET_LAT_S) * 4;
	/* expert parallelism: dispatch and combine all-to-all per MoE layer, k copies of
	 * each token's h-vector of which (ep - 1) / ep leave the GPU (GShard) */
	if (ep > 1 && sh.moe_layers > 0) {
		in.ep_fixed = 2 * sh.moe_layers * (ep - 1) * fabric_lat(c, ep * t);
		in.ep_per_tok = 2 * sh.moe_layers * sh.active * (ep - 1) / ep * sh.h * c->act *
				c->it / fabric_bw(c, ep * t);
	}
	in.base_fixed = in.fixed;
	in.fixed += in.tp_fixed + in.pp_fixed + in.ep_fixed;
	in.tp_only_per_tok = in.tp_per_tok;
	in.tp_per_tok += in.ep_per_tok;
	in.elt_per_tok =
	    sh.layers * c->act *
	    (ELT_H * sh.h + (sh.mats == 3 ? ELT_FFN_GATED : ELT_FFN_PLAIN) * sh.ffn * c->it) *
	    c->inv_hbm;
	in.prefill_P = P;
	in.key_half = hit > 0 ? (1 + hit) / (2 * (1 - hit)) : 0.5;
	in.ctx = ctx;
	in.window = sh.window;
	in.global = sh.global;
	in.attn = sh.attn;
	in.pp = pp;
	in.tc_row = in.F * c->inv_peak_emax / in.sNK;
	in.cc_row = c->fp32 > 0 ? in.F / (c->fp32 * GEMM_EFF_MAX) : INFINITY;
	in.att_key = in.attn_tok * c->inv_peak_emax * (1 / FLASH_EFF);
	in.w_read = in.W * c->inv_hbm;
	in.l = NULL;
	decode_lines(c, &in, ctx, &lines_ctx);
	in.l = &lines_ctx;
	in.sk = in.sE = in.d_row = in.d_w = in.d_kv = in.d_fixed = in.d_pf_tok = 0;
	{
		/* the engine's CUDA-graph cap: a larger decode batch runs eagerly */
		int gbs = p->engine == ENGINE_CUDA_GRAPHS
			      ? framework_graph_max_bs(w->framework, g->memory_bytes)
			      : 0;
		in.graph_bs = gbs > 0 ? gbs : INFINITY;
		in.ahead = framework_get(w->framework)->overlap_schedule;
		in.eager_host = sh.layers * EAGER_LAYER_S;
	}
	{
		/* speculative decoding: the draft's step, from its parameters as the target's
		 * step is from the target's (one GEMM line, the weight read, the KV read of its
		 * cached layers, its launches and TP latencies per layer) */
		const struct speculative *sp = &w->speculative;
		double step_params, kvl;
		plan_draft_params(w, &p->model, &p->counts, &step_params, &kvl);
		if (sp->method != SPEC_NONE && sp->tokens >= 1 &&
		    (unsigned)sp->method < SPEC_COUNT) {
			double a = sp->acceptance > 0 && sp->acceptance < 1 ? sp->acceptance : 0;
			double K = sp->tokens, dl = sp->method == SPEC_DRAFT ? kvl : 1;
			double kv_tok = p->mem.draft_kv_bytes_per_token > 0
					    ? p->mem.draft_kv_bytes_per_token
					    : 0;
			in.sk = K;
			in.sE = a > 0 ? (1 - pow(a, K + 1)) / (1 - a) : 1;
			if (step_params > 0) {
				in.d_row = 2 * step_params * c->it * c->inv_peak_emax / in.sNK;
				in.d_w = step_params * wbpp * c->it * c->inv_hbm;
				in.d_kv = window_keys(&in, ctx) * kv_tok * c->inv_hbm;
				in.d_fixed = (w->engine == ENGINE_CUDA_GRAPHS
						  ? GRAPH_TOKEN_S + dl * GRAPH_LAYER_S
						  : DECODE_TOKEN_S + dl * DECODE_LAYER_S) +
					     (t > 1 ? 2 * dl * 2 * hops(t) * lat : 0);
				in.d_pf_tok = in.d_row;
			}
		}
	}

	/* a host-held prefix loaded under the prefill's layers (prefix_tiers) */
	if (in.host_load > 0 && framework_get(w->framework)->kv_load_layerwise) {
		in.host_load = host_exposed(in.host_load, prefill_s(&in, Pc, Pc), sh.layers);
		p->host_kv_load_s = in.host_load;
	}

	/* FLOPs: 2N per token plus attention over the average context (Kaplan et al. 2020) */
	p->attention_flops_per_token = 4 * sh.layers * window_keys(&in, ctx) * sh.qd;
	/* state-space layers add their scans' recurrent step (model_ssm_flops_per_token) */
	p->flops_per_token =
	    2 * N + p->attention_flops_per_token + model_ssm_flops_per_token(&p->model, true);
	p->hw_flops_per_token = p->flops_per_token;
	p->flops_total = w->tokens > 0 ? p->flops_per_token * w->tokens * (P + O) / O : NAN;

	/* batch where decode turns compute-bound: compute(B) = memory(B) */
	{
		const struct lines l = lines_ctx;
		double f0 = in.fixed, f1 = in.tp_per_tok + in.elt_per_tok;
		double bt, bc;
		/* the batch where the GEMMs turn compute-bound: both paths above the weight read */
		bt = (l.m0 - l.tc0) / l.tc1;
		bc = l.m0 / l.cc1;
		p->decode_compute_bound_batch = max_num(1, ceil(max_num(bt, bc)));

		/* the largest batch meeting the SLO: each term is linear in B, so each bound is
		 * closed-form (max(compute, memory) + f0 + f1 B <= target) */
		if (w->slo.tpot_s > 0 || w->slo.ttft_s > 0) {
			double lim = maxb;
			double pf = in.host_load + prefill_s(&in, Pc, Pc);
			/* 1 / slope of the tensor-core, CUDA-core and memory-bound step in B */
			double i_tc = 1 / (l.tc1 + l.a1 + f1), i_cc = 1 / (l.cc1 + l.a1 + f1);
			double i_mem = 1 / (l.a1 + f1);
			double targets[2] = {w->slo.tpot_s,
					     w->slo.ttft_s > 0 ? w->slo.ttft_s - pf : 0};
			for (int k = 0; k < 2; k++) {
				double x = targets[k], bcomp, bmem;
				if ((k == 0 && w->slo.tpot_s <= 0) ||
				    (k == 1 && w->slo.ttft_s <= 0))
					continue;
				bcomp =
				    max_num(largest_b(l.tc0 + f0, i_tc, x), largest_b(f0, i_cc, x));
				bmem = largest_b(l.m0 + f0, i_mem, x);
				if (k == 0) {
					lim = min_num(lim, min_num(bcomp, bmem));
				} else if (x < 0) {
					lim = 0; /* the prompt alone takes longer than the target */
				} else {
					/* one request alone waits for no decode step */
					lim = min_num(lim, max_num(1, min_num(bcomp, bmem)));
				}
			}
			/* above the CUDA-graph cap a step lasts at least the eager host's
			 * launches (eager_wait): the lines hold there only if that meets */
			if (lim > in.graph_bs &&
			    ((w->slo.tpot_s > 0 && in.eager_host > w->slo.tpot_s) ||
			     (w->slo.ttft_s > 0 && pf + in.eager_host > w->slo.ttft_s)))
				lim = in.graph_bs;
			/* the bounds are in micro-batches of B / pp */
			if (pp > 1 && lim >= 1)
				lim = min_num(maxb, lim * pp);
			if (in.sk > 0 && lim >= 1) {
				/* a speculative step is no line in B (its GEMMs turn compute-bound
				 * K + 1 times sooner): the largest B meeting both targets, by
				 * bisection on the step, which grows with B */
				double lo = 0, hi = min_num(maxb, 1e9);
				while (hi - lo > 0.5) {
					double mid = floor((lo + hi + 1) / 2);
					double st = decode_step_s(c, &in, micro(&in, mid), ctx);
					bool ok = (w->slo.tpot_s <= 0 || st <= w->slo.tpot_s) &&
						  (w->slo.ttft_s <= 0 || mid <= 1 ||
						   pf + st <= w->slo.ttft_s);
					if (ok)
						lo = mid;
					else
						hi = mid - 1;
				}
				lim = w->slo.ttft_s > 0 && pf > w->slo.ttft_s ? 0 : lo;
			}
			p->slo_batch = lim >= 1 ? lim : 0;
			/* a loaded scheduler's steps carry the prompts that join: its bound */
			if (w->kind == WL_ONLINE || w->kind == WL_OFFLINE)
				p->slo_batch = loaded_slo_batch(c, &in, B, maxb, p->slo_batch);
		}
	}

	/* batch: auto is the most sequences that fit and, under an SLO, meet it */
	if (w->batch <= 0 && p->slo_batch >= 1)
		B = p->slo_batch;
	p->flops_per_step = p->flops_per_token * B;
	p->tpot_s = decode_step_s(c, &in, micro(&in, B), ctx);
	p->ttft_s = ttft_s(c, &in, B, Pc, O);
	p->step_s = p->tpot_s;
	/* the latency achieved against the target it misses (under a scheduler, at the
	 * SLO's percentile: serve) */
	if (framework_scheduler(w->framework, w->scheduler) == SCHED_ALONE && w->slo.tpot_s > 0 &&
	    p->tpot_s > w->slo.tpot_s * (1 + 1e-9))
		plan_warn(p, PW_SLO_MISSED, p->tpot_s, w->slo.tpot_s);
	if (framework_scheduler(w->framework, w->scheduler) == SCHED_ALONE && w->slo.ttft_s > 0 &&
	    p->ttft_s > w->slo.ttft_s * (1 + 1e-9))
		plan_warn(p, PW_SLO_MISSED, p->ttft_s, w->slo.ttft_s);

	/* throughput: per replica (tp x pp GPUs) at a batch; a measured figure per GPU
	 * replaces the model */
	Bplan = B;
	if (!isnan(p->slo_batch) && p->slo_batch >= 1)
		Bplan = min_num(B, p->slo_batch);
	if (w->measured_tokens_per_s > 0) {
		tps = w->measured_tokens_per_s * per_replica;
		tps_plan = tps;
	} else {
		tps = replica_tps(c, &in, B, Pc, O);
		tps_plan = Bplan == B ? tps : replica_tps(c, &in, Bplan, Pc, O);
	}
	p->tokens_per_s = tps * deployed;
	p->tokens_per_s_per_gpu = p->tokens_per_s / n;
	infer_mfu(c);
	p->matmul_efficiency = c->emax * sat(B) * in.sNK;

	if (w->kind == WL_ONLINE) {
		/* the peak rate (requests_per_s, else requests per day x peak factor / 86,400
		 * s) x output tokens */
		double need = peak_rate(w) * O;
		/* a target a lone request misses (its prompt alone, or a decode step of one)
		 * no number of replicas meets: no count, and the warning says which */
		bool lone = need > 0 &&
			    framework_scheduler(w->framework, w->scheduler) == SCHED_ALONE &&
			    p->slo_batch < 1;
		double lone_ttft = lone ? in.host_load + prefill_s(&in, Pc, Pc) : 0;
		double lone_tpot = lone ? decode_step_s(c, &in, 1, ctx) : 0;
		bool ttft_out = w->slo.ttft_s > 0 && lone_ttft > w->slo.ttft_s * (1 + 1e-9);
		bool tpot_out = w->slo.tpot_s > 0 && lone_tpot > w->slo.tpot_s * (1 + 1e-9);
		if (w->requests_per_s > 0 && w->requests_per_day > 0)
			plan_warn(p, PW_RATE_OVERRIDES, w->requests_per_s,
				  w->requests_per_day * w->peak_factor / 86400);
		if (need > 0 && framework_scheduler(w->framework, w->scheduler) == SCHED_ALONE &&
		    (ttft_out || tpot_out)) {
			if (ttft_out)
				plan_warn(p, PW_SLO_UNREACHABLE_TTFT, lone_ttft, w->slo.ttft_s);
			else
				plan_warn(p, PW_SLO_UNREACHABLE_TPOT, lone_tpot, w->slo.tpot_s);
		} else if (need > 0) {
			p->replicas = ceil(need / tps_plan - 1e-9);
			p->gpus_required = p->replicas * per_replica;
		}
	} else {
		if (w->tokens > 0) {
			p->total_s = w->tokens / p->tokens_per_s;
			if (w->deadline_s > 0) {
				p->replicas = ceil(w->tokens / (tps_plan * w->deadline_s) - 1e-9);
				p->gpus_required = p->replicas * per_replica;
				if (p->total_s > w->deadline_s)
					plan_warn(p, PW_DEADLINE_MISSED, p->total_s, w->deadline_s);
			}
		}
	}

	/* the decode step's terms at the batch a step runs (tpot's), which add up to tpot */
	decode_terms(c, &in, micro(&in, B), p->tpot_s);
	serve(c, &in, B, maxb, deployed, tps_plan);
}

/* ---- everything after the time ---- */

static void finish(const struct tctx *c)
{
	const struct scenario *s = c->s;
	struct plan *p = c->p;
	const struct gpu *g = &s->hardware.gpu;
	double n = s->hardware.count > 0 ? s->hardware.count : 1;
	double best = -1;

	p->usd_per_hour = g->price_per_hour > 0 ? g->price_per_hour * n : NAN;
	if (!isnan(p->total_s)) {
		double hours = p->total_s * (1.0 / 3600); /* a constant: no division */
		p->gpu_hours = hours * n;
		p->usd_total = p->usd_per_hour * hours;
		/* board power at load x time x PUE; training and saturated serving keep GPUs
		 * near their board power, so no utilisation scaling */
		if (g->power_w > 0)
			p->kwh = g->power_w * p->gpu_hours *
				 (s->hardware.pue > 0 ? s->hardware.pue : 1) * 1e-3;
	}
	if (p->tokens_per_s > 0)
		p->usd_per_million_tokens = p->usd_per_hour / p->tokens_per_s * (1e6 / 3600);

	p->shares[BN_CAPACITY] = p->mem.capacity > 0 ? p->mem.total / p->mem.capacity : 0;
	/* the binding constraint: capacity when it does not fit, else the largest share of
	 * the time (capacity is a share of memory, not of time: a plan that fits runs at
	 * the speed its time shares allow) */
	if (!p->mem.fits) {
		p->binding = BN_CAPACITY;
		return;
	}
	p->binding = BN_COMPUTE;
	for (int i = BN_COMPUTE; i < BN_COUNT; i++) {
		if (p->shares[i] > best) {
			best = p->shares[i];
			p->binding = (enum bottleneck)i;
		}
	}
}

void plan_compute_time(const struct scenario *s, struct plan *p)
{
	struct tctx c;

	set_nan(p);
	ctx_init(&c, s, p);
	if (s->workload.kind == WL_TRAIN || s->workload.kind == WL_FINETUNE)
		time_train(&c);
	else
		time_infer(&c);
	finish(&c);
}

/* ---- GPUs for a deadline ---- */

/* Whether s at count GPUs (dp from the count, as goal seek sets it) meets its deadline,
 * and fits when fit is set: search.c's meets_target for a training plan. */
static bool deadline_met(const struct scenario *base, double count, bool fit)
{
	struct scenario s = *base;
	struct plan p;

	s.hardware.count = (int)count;
	s.parallel.dp = 0;
	p.nwarnings = 0;
	plan_compute_memory(&s, &p);
	plan_compute_time(&s, &p);
	if (fit && !p.mem.fits)
		return false;
	return !(isfinite(p.total_s) && p.total_s > s.workload.deadline_s);
}

/* A count rounded up to whole replicas of tp x pp x ep (x cp), so that the layout divides. */
static double whole_replicas(const struct scenario *s, double count)
{
	double span = (double)scenario_replica_gpus(s);
	return span > 1 ? ceil(count / span) * span : count;
}

static bool met_at(const struct scenario *s, double v, bool fit)
{
	return deadline_met(s, whole_replicas(s, v), fit);
}

/* The batch time_infer runs: workload.batch, or under auto the most sequences that fit
 * (at least one is timed), or under an SLO the most that meet it. */
double plan_batch(const struct scenario *s, const struct plan *p)
{
	if (s->workload.batch > 0)
		return s->workload.batch;
	if (p->slo_batch >= 1)
		return p->slo_batch;
	return p->max_batch >= 1 ? p->max_batch : 1;
}

/* The walk goal seek makes (search.c, search_solve --min), on the count alone: from the
 * scenario's count double up to the first that meets (or down: the smallest is tried
 * first), then bisect. The planned time is not a smooth function of the count (a step
 * runs whole micro-batches, ceil(global / (micro x dp)), and the nodes change the fabric),
 * so no closed form gives the count: FLOPs / (peak x MFU x deadline) at this count's MFU
 * is only where the walk could start (lesson 8: 119 GPUs by that formula run 11.7 days,
 * 128 meet the 10). */
double plan_deadline_gpus(const struct scenario *s, bool fit)
{
	double lo = 1, hi = PLAN_MAX_GPUS, good, bad;
	double cur = s->hardware.count > 0 ? s->hardware.count : lo;

	if (!(s->workload.deadline_s > 0 && s->workload.tokens > 0))
		return NAN;
	if (!met_at(s, cur, fit)) {
		double v = cur * 2;
		/* goal seek tries the top last; trying it first finds the same count, and
		 * none at once where memory fits at no count */
		if (!met_at(s, hi, fit))
			return NAN;
		bad = cur;
		while (v <= hi && !met_at(s, v, fit)) {
			bad = v;
			v *= 2;
		}
		good = v <= hi ? v : hi;
	} else {
		good = cur;
		bad = lo;
		if (met_at(s, lo, fit))
			return whole_replicas(s, lo);
	}
	while (fabs(good - bad) > 1) {
		double mid = floor((good + bad) / 2);
		if (met_at(s, mid, fit))
			good = mid;
		else
			bad = mid;
	}
	return whole_replicas(s, good);
}

/* ---- the parts by index ---- */

/* Each part's place in the struct: indexing a member's address past it is not C. */
static const size_t part_at[PLAN_PARTS] = {
    offsetof(struct plan_time_parts, matmul_s),	      offsetof(struct plan_time_parts, attention_s),
    offsetof(struct plan_time_parts, memory_bound_s), offsetof(struct plan_time_parts, tp_comm_s),
    offsetof(struct plan_time_parts, pp_comm_s),      offsetof(struct plan_time_parts, bubble_s),
    offsetof(struct plan_time_parts, dp_comm_s),      offsetof(struct plan_time_parts, zero3_s),
    offsetof(struct plan_time_parts, ep_comm_s),      offsetof(struct plan_time_parts, offload_s),
    offsetof(struct plan_time_parts, optimizer_s),    offsetof(struct plan_time_parts, data_s),
    offsetof(struct plan_time_parts, cp_comm_s),
};
_Static_assert(sizeof(struct plan_time_parts) == PLAN_PARTS * sizeof(double),
	       "PLAN_PARTS counts every part");

double *plan_part(struct plan_time_parts *t, unsigned i)
{
	return (double *)((char *)t + part_at[i < PLAN_PARTS ? i : 0]);
}

double plan_part_get(const struct plan_time_parts *t, unsigned i)
{
	return *(const double *)((const char *)t + part_at[i < PLAN_PARTS ? i : 0]);
}
