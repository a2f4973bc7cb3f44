/* model.c - a transformer's architecture and its exact parameter count.
 *
 * The counts follow the modules of the Hugging Face implementations, matrix by matrix
 * (modeling_llama.py, modeling_mistral.py, modeling_mixtral.py, modeling_qwen2.py,
 * modeling_qwen3.py, modeling_qwen3_moe.py, modeling_gemma2.py, modeling_phi3.py,
 * modeling_gpt2.py, modeling_falcon.py, modeling_opt.py, modeling_bloom.py and DeepSeek's
 * modeling_deepseek.py). A fused projection (Phi-3's qkv_proj and gate_up_proj, GPT-2's
 * c_attn, Falcon's and BLOOM's query_key_value) holds the same parameters as the separate
 * ones, so it is counted as if separate.
 */
#include "model.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

/* The standard shape for a model given only by its size: a Llama-style decoder as in
 * Touvron et al. 2023 (LLaMA, Table 2; Llama 2, Table 1) and Meta's modeling_llama.py:
 * - SwiGLU MLP (3 matrices), RMSNorm (2 per layer + a final one), rotary positions, no
 *   biases, untied input and output embeddings, the 32000-token Llama vocabulary;
 * - head_dim 128, heads = hidden / 128, kv_heads = heads (no GQA);
 * - ffn = 8/3 x hidden rounded up to a multiple of 256 (Llama's multiple_of = 256: 4096 ->
 *   11008, 5120 -> 13824, 8192 -> 22016);
 * - hidden a multiple of 128 and layers such that hidden / layers lies between 96 and 136,
 *   the span of the Llama family (7B 4096/32 = 128, 13B 5120/40 = 128, 33B 6656/60 = 111,
 *   65B and Llama 2 70B 8192/80 = 102, Llama 3.1 405B 16384/126 = 130).
 * Among those shapes the one whose exact count is closest to params is taken; a tie goes
 * to the aspect nearest 128, then to the narrower model. Given 6,738,415,616 (Llama 2 7B)
 * it returns Llama 2 7B's shape exactly. */
#define STD_VOCAB	 32000
#define STD_HEAD_DIM	 128
#define STD_FFN_MULTIPLE 256
#define STD_ASPECT	 128.0
#define STD_ASPECT_MIN	 96
#define STD_ASPECT_MAX	 136
#define STD_MAX_HIDDEN_K 1024 /* hidden up to 131072 */

static int std_ffn(int hidden)
{
	int ffn = (8 * hidden + 2) / 3; /* ceil(8/3 x hidden) */
	return (ffn + STD_FFN_MULTIPLE - 1) / STD_FFN_MULTIPLE * STD_FFN_MULTIPLE;
}

static void std_shape(double params, struct model *out)
{
	double best_err = INFINITY, best_pen = INFINITY;
	int best_h = STD_HEAD_DIM, best_l = 1;

	for (int k = 1; k <= STD_MAX_HIDDEN_K; k++) {
		double h = (double)k * STD_HEAD_DIM;
		double ffn = std_ffn(k * STD_HEAD_DIM);
		/* Per layer: q, k, v, o (4 h^2), gate/up/down (3 h ffn), two RMSNorm weights. */
		double per_layer = 4 * h * h + 3 * h * ffn + 2 * h;
		/* Embedding and untied head (2 V h) and the final norm (h). */
		double fixed = 2.0 * STD_VOCAB * h + h;
		int lo = (int)ceil(h / STD_ASPECT_MAX), hi = (int)floor(h / STD_ASPECT_MIN);
		double exact;
		int cand[2];

		if (fixed + lo * per_layer - params > best_err)
			break; /* wider models only count more from here on */
		if (lo < 1)
			lo = 1;
		if (hi < lo)
			hi = lo;
		exact = (params - fixed) / per_layer;
		cand[0] = exact < lo ? lo : exact > hi ? hi : (int)floor(exact);
		cand[1] = cand[0] < hi ? cand[0] + 1 : cand[0];
		for (int i = 0; i < 2; i++) {
			double err = fabs(fixed + cand[i] * per_layer - params);
			double pen = fabs(log(h / cand[i] / STD_ASPECT));
			if (err < best_err || (err == best_err && pen < best_pen)) {
				best_err = err;
				best_pen = pen;
				best_h = k * STD_HEAD_DIM;
				best_l = cand[i];
			}
		}
	}
	out->layers = best_l;
	out->hidden = best_h;
	out->heads = best_h / STD_HEAD_DIM;
	out->kv_heads = out->heads;
	out->head_dim = STD_HEAD_DIM;
	out->ffn = std_ffn(best_h);
	out->vocab = STD_VOCAB;
	out->mlp = MLP_GATED;
	out->norm = NORM_RMSNORM;
	out->tied_embeddings = false;
	out->attention_bias = false;
	out->qkv_bias = false;
	out->mlp_bias = false;
	out->qk_norm = false;
	out->norms_per_layer = 2;
	out->position_embeddings = 0;
	out->embedding_norm = false;
	out->parallel_block = false;
	out->embed_dim = 0;
	out->no_final_norm = false;
	out->head_bias = false;
	out->qk_norm_full = false;
	out->attention_sinks = false;
	out->sparse_layers = out->sparse_local = out->sparse_stride = 0;
	out->router_bias = false;
	out->attention_gate = false;
	out->moe = (struct moe_shape){0};
	out->mla = (struct mla_shape){0};
	out->ssm = (struct ssm_shape){0};
	out->mixerless_layers = 0;
	out->mlpless_layers = 0;
	out->linear_blocks = 0;
	out->ffn_sum = 0;
	out->kv_sum = 0;
}

/* The defaults of the shape fields: kv_heads = heads; head_dim = hidden / heads, or for
 * MLA the query/key head size nope + rope (modeling_deepseek.py's q_head_dim); two norms a
 * layer (pre-attention and pre-MLP), one for a parallel block (GPT-J, Falcon-7B's single
 * input_layernorm); a shared expert as wide as a routed one. */
static void fill_defaults(struct model *m)
{
	if (!m->kv_heads)
		m->kv_heads = m->heads;
	if (!m->head_dim) {
		if (m->mla.kv_rank)
			m->head_dim = m->mla.nope_dim + m->mla.rope_dim;
		else if (m->heads)
			m->head_dim = m->hidden / m->heads;
	}
	if (!m->norms_per_layer)
		m->norms_per_layer = m->parallel_block ? 1 : 2;
	if (m->moe.shared && !m->moe.shared_ffn)
		m->moe.shared_ffn = m->moe.expert_ffn;
}

static void resolve_in_place(struct model *m, bool *assumed)
{
	bool std = m->params > 0 && (m->layers <= 0 || m->hidden <= 0);

	if (std)
		std_shape(m->params, m);
	fill_defaults(m);
	if (assumed)
		*assumed = std;
}

void model_resolve(const struct model *in, struct model *out, bool *assumed)
{
	*out = *in;
	resolve_in_place(out, assumed);
}

/* The names lead the struct; everything from params on is the architecture. */
_Static_assert(offsetof(struct model, hf_config) < offsetof(struct model, params) &&
		   offsetof(struct model, preset) < offsetof(struct model, params),
	       "struct model: the names must come before the architecture");

void model_resolve_shape(const struct model *in, struct model *out, bool *assumed)
{
	size_t at = offsetof(struct model, params);

	if (in != out)
		memcpy((char *)out + at, (const char *)in + at, sizeof(*in) - at);
	resolve_in_place(out, assumed);
}

static double max2(double a, double b)
{
	return a > b ? a : b;
}

int model_mlp_layers(const struct model *m)
{
	int n = m->layers - (m->mlpless_layers > 0 ? m->mlpless_layers : 0);
	return m->layers > 0 && n > 0 ? n : 0;
}

int model_moe_layers(const struct model *m)
{
	int n;

	if (m->moe.experts <= 0 || m->layers <= 0)
		return 0;
	n = model_mlp_layers(m) - (m->moe.dense_layers > 0 ? m->moe.dense_layers : 0);
	return n > 0 ? n : 0;
}

int model_attention_layers(const struct model *m)
{
	int n = m->layers - (m->ssm.layers > 0 ? m->ssm.layers : 0) -
		(m->mixerless_layers > 0 ? m->mixerless_layers : 0);
	return m->layers > 0 && n > 0 ? n : 0;
}

double model_attention_share(const struct model *m)
{
	if (m->layers <= 0 || (m->ssm.layers <= 0 && m->mixerless_layers <= 0))
		return 1;
	return (double)model_attention_layers(m) / m->layers;
}

double model_ssm_inner(const struct model *m)
{
	if (m->ssm.layers <= 0)
		return 0;
	if (m->ssm.d_inner > 0)
		return m->ssm.d_inner;
	return (double)(m->ssm.expand > 0 ? m->ssm.expand : 2) * m->hidden;
}

/* Mamba-2's conv1d runs over x, B and C together: d_inner + 2 x groups x d_state channels
 * (modeling_mamba2.py, conv_dim); Mamba-1's over x alone. */
static double ssm_conv_dim(const struct model *m)
{
	double di = model_ssm_inner(m);
	if (m->ssm.heads > 0)
		return di + 2.0 * (m->ssm.groups > 0 ? m->ssm.groups : 1) * m->ssm.d_state;
	return di;
}

double model_ssm_in_width(const struct model *m)
{
	double di = model_ssm_inner(m), GN, H = m->ssm.heads;

	if (m->ssm.layers <= 0)
		return 0;
	if (m->ssm.heads <= 0)
		return 2 * di;
	GN = (double)(m->ssm.groups > 0 ? m->ssm.groups : 1) * m->ssm.d_state;
	return 2 * di + 2 * GN + (m->ssm.gated_delta ? 2 * H : H);
}

static int ssm_kernel(const struct model *m)
{
	return m->ssm.d_conv > 0 ? m->ssm.d_conv : 4;
}

double model_ssm_state_elems(const struct model *m, double *conv_out)
{
	double conv, ssm;

	if (m->ssm.layers <= 0) {
		if (conv_out)
			*conv_out = 0;
		return 0;
	}
	conv = (double)(ssm_kernel(m) - 1) * ssm_conv_dim(m);
	ssm = model_ssm_inner(m) * m->ssm.d_state;
	if (conv_out)
		*conv_out = m->ssm.layers * conv;
	return m->ssm.layers * (conv + ssm);
}

#define SSD_CHUNK 256 /* Mamba2Config.chunk_size, NemotronHConfig mamba_chunk_size */
#define GDN_CHUNK 64  /* chunk_gated_delta_rule_fwd's chunk_size (fla chunk.py) */

double model_ssm_flops_per_token(const struct model *m, bool recurrent)
{
	double di = model_ssm_inner(m), N = m->ssm.d_state, per;

	if (m->ssm.layers <= 0)
		return 0;
	if (m->ssm.heads <= 0) {
		per = 9 * di * N + di;
	} else if (m->ssm.gated_delta) {
		/* Gated DeltaNet, per value head of a dk x dv state (dk = N, dv = d_inner / H;
		 * q and k are repeated to the value heads, modeling_qwen3_next.py). Recurrent
		 * (flash-linear-attention fla/ops/gated_delta_rule/fused_recurrent.py): the decay S
		 * *= exp(g), the prediction S^T k, the update S += k (beta (v - S^T k))^T and the
		 * read-out S^T q, 7 dk dv. Chunked (fla/ops/gated_delta_rule/chunk.py
		 * chunk_gated_delta_rule_fwd, chunks of C = 64):
		 * within a chunk K K^T and Q K^T, the WY factors w = T K and u = T V, 2 C dk
		 * each of the first three and 2 C dv, and the masked Q K^T times the new
		 * values, 2 C dv; across chunks W S, Q S and the state update K^T V, 2 dk dv
		 * each. */
		double H = m->ssm.heads, dv = di / H;
		if (recurrent)
			per = 7 * di * N;
		else
			per = H * (6.0 * GDN_CHUNK * N + 4.0 * GDN_CHUNK * dv + 6 * N * dv);
	} else if (recurrent) {
		per = 5 * di * N;
	} else {
		double H = m->ssm.heads, P = di / H, G = m->ssm.groups > 0 ? m->ssm.groups : 1;
		per = 2.0 * SSD_CHUNK * N * G + H * (2.0 * SSD_CHUNK * P + 4 * N * P);
	}
	return m->ssm.layers * per;
}

double model_ssm_scan_bytes_per_token(const struct model *m, double act)
{
	double di = model_ssm_inner(m), N = m->ssm.d_state, per;

	if (m->ssm.layers <= 0)
		return 0;
	if (m->ssm.heads <= 0) {
		per = act * (4 * di + 2 * N);
	} else {
		double H = m->ssm.heads, GN = (m->ssm.groups > 0 ? m->ssm.groups : 1) * N;
		double chunk = m->ssm.gated_delta ? GDN_CHUNK : SSD_CHUNK;
		/* Gated DeltaNet's g and beta per head, Mamba-2's dt */
		double heads = m->ssm.gated_delta ? 2 * H : H;
		per = act * (2 * di + 2 * GN + heads) + 3 * 4 * di * N / chunk;
	}
	return m->ssm.layers * per;
}

/* One state-space mixer; *largest gets its largest single matrix (in_proj).
 * - Mamba-1 (modeling_mamba.py MambaMixer; Mamba paper Algorithm 2): in_proj h -> 2 d_inner
 *   (x and the gate z), a depthwise conv1d of d_conv taps with a bias, x_proj d_inner ->
 *   dt_rank + 2 N (the input-dependent step, B and C), dt_proj dt_rank -> d_inner with a
 *   bias, A_log d_inner x N, D d_inner, out_proj d_inner -> h. Jamba adds RMSNorms with
 *   weights on dt, B and C (modeling_jamba.py dt_layernorm, b_layernorm, c_layernorm);
 *   Falcon Mamba's norms there have none (modeling_falcon_mamba.py rms_forward).
 * - Mamba-2 (modeling_mamba2.py Mamba2Mixer; Mamba-2 paper Section 7.1, the parallel
 *   projections): in_proj h -> 2 d_inner + 2 G N + H (z, x, B, C and dt at once), conv1d
 *   over d_inner + 2 G N channels with a bias, dt_bias, A_log and D per head, the gated
 *   RMSNorm over d_inner, out_proj d_inner -> h. */
static double ssm_params(const struct model *m, double *largest)
{
	const struct ssm_shape *a = &m->ssm;
	double h = m->hidden, di = model_ssm_inner(m), N = a->d_state, k = ssm_kernel(m);
	double conv = ssm_conv_dim(m), in, p;

	if (a->gated_delta) {
		/* Qwen3NextGatedDeltaNet: in_proj_qkvz h -> 2 key_dim + 2 value_dim (key_dim
		 * = G N, value_dim = d_inner), in_proj_ba h -> 2 H, a bias-free conv1d over
		 * q, k and v, dt_bias and A_log per value head, the gated RMSNorm over one
		 * head's head_v_dim (shared by the heads), out_proj d_inner -> h. */
		double G = a->groups > 0 ? a->groups : 1, H = a->heads;
		in = h * (2 * di + 2 * G * N) + (a->proj_bias ? 2 * di + 2 * G * N : 0);
		p = in + h * 2 * H + conv * k + (a->no_conv_bias ? 0 : conv) + 2 * H + di / H;
	} else if (a->heads > 0) {
		double G = a->groups > 0 ? a->groups : 1, H = a->heads;
		in = h * (2 * di + 2 * G * N + H) + (a->proj_bias ? 2 * di + 2 * G * N + H : 0);
		p = in + conv * k + (a->no_conv_bias ? 0 : conv) + 3 * H + di;
	} else {
		double R = a->dt_rank > 0 ? a->dt_rank : ceil(h / 16);
		in = h * 2 * di + (a->proj_bias ? 2 * di : 0);
		p = in + di * k + (a->no_conv_bias ? 0 : di) + di * (R + 2 * N) + R * di + di +
		    di * N + di + (a->dt_norms ? R + 2 * N : 0);
	}
	p += di * h + (a->proj_bias ? h : 0);
	*largest = max2(in, di * h);
	return p;
}

/* A norm over width features: RMSNorm has a weight, LayerNorm a weight and a bias. */
static double norm_params(const struct model *m, double width)
{
	return m->norm == NORM_LAYERNORM ? 2 * width : width;
}

/* One MLP of intermediate size ffn: gate, up and down (SwiGLU, Shazeer 2020) or up and
 * down (GELU); biases, where present, on each matrix's output. */
static double mlp_params(const struct model *m, double ffn)
{
	double h = m->hidden;

	if (m->mlp == MLP_GATED)
		return 3 * h * ffn + (m->mlp_bias ? 2 * ffn + h : 0);
	return 2 * h * ffn + (m->mlp_bias ? ffn + h : 0);
}

/* The largest single matrix of one layer's MLP of size ffn, with its bias. */
static double mlp_largest(const struct model *m, double ffn)
{
	return m->hidden * ffn + (m->mlp_bias ? ffn : 0);
}

/* One layer's attention; *largest gets its largest single matrix. */
static double attention_params(const struct model *m, double *largest)
{
	double h = m->hidden, heads = m->heads;

	if (m->mla.kv_rank) {
		/* Multi-head latent attention, DeepSeek-V2 paper Section 2.1 and
		 * modeling_deepseek.py DeepseekV3Attention: queries through a low-rank
		 * q_a_proj, q_a_layernorm, q_b_proj (or one q_proj when q_lora_rank is
		 * null); keys and values through kv_a_proj_with_mqa (the latent plus the
		 * shared rotary key), kv_a_layernorm and kv_b_proj; then o_proj. Biases
		 * (attention_bias) sit on q_a_proj, kv_a_proj_with_mqa and o_proj only. */
		const struct mla_shape *a = &m->mla;
		double qk = a->nope_dim + a->rope_dim;
		double q, kv_a, kv_b, o, n = 0;

		if (a->q_rank) {
			double q_a = h * a->q_rank, q_b = (double)a->q_rank * heads * qk;
			q = q_a + norm_params(m, a->q_rank) + q_b;
			if (m->attention_bias)
				q += a->q_rank;
			n = max2(q_a, q_b);
		} else {
			q = h * heads * qk;
			n = q;
		}
		kv_a = h * (a->kv_rank + a->rope_dim) +
		       (m->attention_bias ? a->kv_rank + a->rope_dim : 0);
		kv_b = (double)a->kv_rank * heads * (a->nope_dim + a->v_dim);
		o = heads * a->v_dim * h + (m->attention_bias ? h : 0);
		*largest = max2(max2(n, kv_a), max2(kv_b, o));
		return q + kv_a + norm_params(m, a->kv_rank) + kv_b + o;
	}

	/* q, k, v and o with grouped-query attention (Ainslie et al. 2023): k and v have
	 * kv_heads heads. head_dim may differ from hidden / heads (Gemma 2: 3584 / 16 heads
	 * with head_dim 256; Qwen3). */
	double qd = heads * m->head_dim, kvd = (double)m->kv_heads * m->head_dim;
	int n = m->kv_sum > 0 ? model_attention_layers(m) : 0;
	if (n > 0) /* per-layer K/V heads (DeciLM): their average makes the sum exact */
		kvd = (double)m->kv_sum / n * m->head_dim;
	double qo = m->attention_gate ? 2 * qd : qd; /* q_proj's width, with the gate's half */
	double p = h * qo + 2 * h * kvd + qd * h;

	if (m->attention_bias) /* Llama's attention_bias, GPT-2, OPT, BLOOM: q, k, v, o */
		p += qo + 2 * kvd + h;
	else if (m->qkv_bias) /* Qwen2: q, k and v only (modeling_qwen2.py) */
		p += qo + 2 * kvd;
	if (m->qk_norm && m->qk_norm_full) /* OLMo 2: RMSNorm over all of q and of k */
		p += norm_params(m, qd) + norm_params(m, kvd);
	else if (m->qk_norm) /* Qwen3 q_norm and k_norm: one RMSNorm over head_dim each */
		p += 2 * norm_params(m, m->head_dim);
	if (m->attention_sinks) /* gpt-oss: self_attn.sinks, one logit per head */
		p += heads;
	*largest = max2(h * qo + (m->attention_bias || m->qkv_bias ? qo : 0),
			qd * h + (m->attention_bias ? h : 0));
	return p;
}

/* Whether fill_defaults would change m (a model from model_resolve never needs it). */
static bool needs_defaults(const struct model *m)
{
	return (!m->kv_heads && m->heads) || (!m->head_dim && (m->mla.kv_rank || m->heads)) ||
	       !m->norms_per_layer || (m->moe.shared && !m->moe.shared_ffn);
}

static const struct model_params no_params;

void model_count_params(const struct model *in, struct model_params *out)
{
	struct model mm;
	const struct model *m = in;
	double h, e, attn_largest = 0, ssm_largest = 0, largest;
	int moe_layers, dense_layers, experts, active, attn_layers, ssm_layers, mlp_dense;
	bool hybrid;

	if (needs_defaults(in)) { /* a resolved model is counted in place, uncopied */
		mm = *in;
		fill_defaults(&mm);
		m = &mm;
	}
	*out = no_params; /* a copy, not a zero-fill: rep stos is slow to start */
	h = m->hidden;
	e = m->embed_dim > 0 ? m->embed_dim : h;
	moe_layers = model_moe_layers(m);
	dense_layers = (m->layers > 0 ? m->layers : 0) - moe_layers;
	experts = moe_layers ? m->moe.experts : 0;
	active = m->moe.active < experts ? m->moe.active : experts;
	if (active < 0)
		active = 0;

	/* Token embedding (vocab x embed width), learned absolute positions (GPT-2 wpe,
	 * OPT embed_positions, always hidden wide), BLOOM's word_embeddings_layernorm and
	 * OPT's project_in when the embedding is narrower than hidden. */
	out->embedding = (double)m->vocab * e + (double)m->position_embeddings * h;
	if (m->embedding_norm)
		out->embedding += norm_params(m, h);
	if (e != h)
		out->embedding += e * h;
	out->head = (m->tied_embeddings ? 0 : (double)m->vocab * e) +
		    (m->head_bias ? m->vocab : 0); /* lm_head.bias (modeling_phi.py) */
	out->final_norm = (m->no_final_norm ? 0 : norm_params(m, h)) + (e != h ? h * e : 0);

	/* a plain transformer (the hot path) skips the hybrids' layer kinds */
	hybrid = m->ssm.layers > 0 || m->mixerless_layers > 0 || m->mlpless_layers > 0;
	attn_layers = hybrid ? model_attention_layers(m) : (m->layers > 0 ? m->layers : 0);
	ssm_layers = hybrid && m->ssm.layers > 0 ? m->ssm.layers : 0;
	mlp_dense = (hybrid ? model_mlp_layers(m) : attn_layers) - moe_layers; /* dense MLPs */
	out->attention_one = attn_layers > 0 ? attention_params(m, &attn_largest) : 0;
	out->ssm = ssm_layers > 0 ? ssm_params(m, &ssm_largest) : 0;
	out->norms = m->norms_per_layer * norm_params(m, h);
	if (hybrid) {
		/* a missing block's norm is missing too (model.h, linear_blocks) */
		int missing = (m->mixerless_layers > 0 ? m->mixerless_layers : 0) +
			      (m->mlpless_layers > 0 ? m->mlpless_layers : 0) -
			      (m->linear_blocks > 0 ? m->linear_blocks : 0);
		if (missing > 0 && m->layers > 0)
			out->norms *= 1 - missing * 0.5 / m->layers;
	}
	out->mlp_one = mlp_dense > 0 ? mlp_params(m, m->ffn) : 0;
	if (mlp_dense > 0 && m->ffn_sum > 0) /* per-layer sizes: their sum, averaged */
		out->mlp_one =
		    (mlp_params(m, m->ffn_sum) + (m->mlp_bias ? (mlp_dense - 1) * h : 0)) /
		    mlp_dense;
	/* A hybrid's layers differ; the plan sums layers x attention and (layers - MoE
	 * layers) x mlp, so these two are the averages that make those sums exact. */
	out->attention = out->attention_one;
	out->mlp = out->mlp_one;
	if (m->layers > 0 && (ssm_layers > 0 || attn_layers != m->layers))
		out->attention = (attn_layers * out->attention_one + ssm_layers * out->ssm +
				  (m->linear_blocks > 0 ? m->linear_blocks * h * h : 0)) /
				 m->layers;
	if (dense_layers > 0 && mlp_dense != dense_layers)
		out->mlp = mlp_dense * out->mlp_one / dense_layers;
	if (experts) {
		/* Each routed expert is an MLP of expert_ffn (Mixtral's w1/w2/w3, DeepSeek's
		 * DeepseekV3MLP); the router is a bias-free hidden x experts linear gate. Shared
		 * experts (DeepSeek-V2 Section 2.2) are counted per expert: DeepSeek builds
		 * them as one MLP of n_shared x moe_intermediate_size, the same count.
		 * Qwen2-MoE gates its shared expert with one more hidden x 1 linear
		 * (modeling_qwen2_moe.py, shared_expert_gate), counted with the router. */
		out->expert = mlp_params(m, m->moe.expert_ffn);
		out->router = h * experts + (m->moe.shared_gate ? h : 0) +
			      (m->router_bias ? experts : 0); /* gpt-oss router.bias */
		out->shared =
		    m->moe.shared > 0 ? m->moe.shared * mlp_params(m, m->moe.shared_ffn) : 0;
	}

	out->total = out->embedding + out->head + out->final_norm +
		     (m->layers > 0 ? m->layers : 0) * (out->attention + out->norms) +
		     dense_layers * out->mlp +
		     moe_layers * (experts * out->expert + out->router + out->shared);
	/* Active per token: everything but the routed experts a token does not visit
	 * (Mixtral paper Section 2: 13B of 47B; DeepSeek-V3 report: 37B of 671B). */
	out->active = out->total - (double)moe_layers * (experts - active) * out->expert;

	/* DeepSpeed's estimate_zero3_model_states_mem_needs_all_live takes the largest
	 * sum of one module's own parameters (p.numel() over m.parameters(recurse=False)):
	 * an embedding, the head, or one linear layer. */
	largest = max2((double)m->vocab * e, (double)m->position_embeddings * h);
	largest = max2(largest, max2(attn_largest, ssm_largest));
	if (mlp_dense > 0)
		largest = max2(largest, mlp_largest(m, m->ffn));
	if (experts) {
		largest = max2(largest, mlp_largest(m, m->moe.expert_ffn));
		largest = max2(largest, out->router);
		if (m->moe.shared > 0)
			largest = max2(largest,
				       mlp_largest(m, (double)m->moe.shared * m->moe.shared_ffn));
	}
	out->largest_layer = largest;

	/* A size given with the shape wins; the parts keep their proportions. */
	if (m->params > 0 && out->total > 0) {
		double f = m->params / out->total;
		out->total = m->params;
		out->active *= f;
		out->embedding *= f;
		out->head *= f;
		out->attention *= f;
		out->mlp *= f;
		out->expert *= f;
		out->router *= f;
		out->shared *= f;
		out->norms *= f;
		out->ssm *= f;
		out->attention_one *= f;
		out->mlp_one *= f;
		out->final_norm *= f;
		out->largest_layer *= f;
	}
}

double model_kv_elems_per_token_layer(const struct model *m)
{
	int kv = m->kv_heads ? m->kv_heads : m->heads;
	int hd = m->head_dim ? m->head_dim : (m->heads ? m->hidden / m->heads : 0);

	/* MLA caches the compressed latent c_KV (kv_rank) and the shared rotary key
	 * (rope_dim) per token (DeepSeek-V2 paper Section 2.1.2, Table 1). */
	if (m->mla.kv_rank)
		return ((double)m->mla.kv_rank + m->mla.rope_dim) * model_attention_share(m);
	/* One key and one value vector per KV head, in the layers that attend (a Mamba layer
	 * keeps its fixed state instead: model_ssm_state_elems). */
	if (m->kv_sum > 0 && m->layers > 0) /* per-layer K/V heads: their sum */
		return 2.0 * m->kv_sum * hd / m->layers;
	return 2.0 * kv * hd * model_attention_share(m);
}

int model_local_layers(const struct model *m)
{
	int local;

	if (m->sliding_window <= 0 || m->layers <= 0)
		return 0;
	local = m->layers - (m->global_layers > 0 ? m->global_layers : 0);
	return local > 0 ? local : 0;
}

/* A block-sparse layer's query at position t sees its local blocks and every stride-th
 * block before them (Phi3SmallSelfAttention's blocksparse pattern; vLLM
 * attention/ops/blocksparse_attention/utils.py get_sparse_attn_mask: local blocks, then
 * the blocks with (block + 1 + head offset) % vert_stride == 0): min(t, W) +
 * max(0, t - W) / stride keys for W = sparse_local, that is 1 / stride of a global layer's
 * t plus (1 - 1 / stride) of a W-windowed layer's min(t, W). So the layers mix as
 * sliding windows do, with the sparse ones counted 1 / stride global. */
void model_attention_window(const struct model *m, double *window, double *global)
{
	*window = *global = 0;
	if (m->layers <= 0)
		return;
	if (m->sliding_window > 0) {
		*window = m->sliding_window;
		*global = 1 - (double)model_local_layers(m) / m->layers;
	} else if (m->sparse_layers > 0 && m->sparse_local > 0 && m->sparse_stride > 0) {
		int sparse = m->sparse_layers < m->layers ? m->sparse_layers : m->layers;
		*window = m->sparse_local;
		*global = 1 - (double)sparse / m->layers * (1 - 1.0 / m->sparse_stride);
	}
}

static long long gcd_ll(long long a, long long b)
{
	while (b > 0) {
		long long r = a % b;
		a = b;
		b = r;
	}
	return a;
}

/* The KV bytes a decode step reads, as model_attention_window's window and global share.
 * A block-sparse layer's query heads rotate their stride offset (vLLM
 * attention/ops/blocksparse_attention/utils.py: get_head_sliding_step gives step =
 * max(1, int(vert_stride / n_heads)); get_sparse_attn_mask keeps block b for head h when
 * (b + h step + 1) % vert_stride == 0), and the r = heads / kv_heads query heads of one
 * KV head read it together (interface.py varlen_attn: q[:, i r:(i + 1) r] goes with
 * k[:, i]). Their r consecutive offsets h step take min(r, stride / gcd(step, stride))
 * residues of the stride, so that KV head's remote blocks are read at that many / stride,
 * not the 1 / stride each head's FLOPs see (Phi-3-small: 32 heads on 8, stride 8: step 1,
 * 4 / 8). Without block-sparse layers this is model_attention_window. */
void model_kv_read_window(const struct model *m, double *window, double *global)
{
	model_attention_window(m, window, global);
	if (m->sliding_window <= 0 && *window > 0 && m->heads > 0) {
		long long stride = m->sparse_stride, heads = m->heads;
		long long kv = m->kv_heads > 0 && m->kv_heads <= m->heads ? m->kv_heads : heads;
		long long step = stride / heads > 1 ? stride / heads : 1, r = heads / kv;
		long long period = stride / gcd_ll(step % stride, stride);
		double share = (double)(r < period ? r : period) / (double)stride;
		int sparse = m->sparse_layers < m->layers ? m->sparse_layers : m->layers;
		*global = 1 - (double)sparse / m->layers * (1 - share);
	}
}

/* A windowed layer keeps the last window tokens' keys and values (Mistral 7B, Jiang et al.
 * 2023, Section 2: a rolling buffer of W); a chunked one at most one chunk's (Llama 4,
 * modeling_llama4.py chunked_attention_mask). Gemma 3 (report, Section 2: 5 local layers
 * of 1024 tokens to 1 global) and gpt-oss (model card: alternating 128-token banded and
 * dense layers) keep the whole context only in their global layers. */
double model_kv_share(const struct model *m, double seq, double local_tokens)
{
	int local = model_local_layers(m);
	double kept;

	if (local == 0 || seq <= 0 || !(local_tokens < seq))
		return 1;
	kept = (double)(m->layers - local) * seq + (double)local * local_tokens;
	return kept / ((double)m->layers * seq);
}
