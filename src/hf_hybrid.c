/* hf_hybrid.c - the config.json readers of the state-space and hybrid stacks (Mamba,
 * Mamba-2, Nemotron-H, Jamba, Qwen3-Next) and of DeciLM's per-layer blocks (nemotron-nas).
 */
#include "hf_int.h"

#include <math.h>
#include <string.h>

/* The step projection's rank: an integer, or "auto" for ceil(hidden / 16) (MambaConfig
 * time_step_rank, JambaConfig mamba_dt_rank), left 0 for model.c's default. */
static int read_dt_rank(struct hf *c, const char *key, int *out)
{
	const cJSON *it = hf_item(c, key);

	*out = 0;
	if (cJSON_IsString(it) && strcmp(it->valuestring, "auto") == 0)
		return 0;
	return hf_opt_int(c, key, 1, 0, out);
}

/* A model of state-space layers only: every layer one RMSNorm and one mixer, no MLP, no
 * attention (its heads stand for the mixer's, which tensor parallelism splits). */
static void ssm_only(struct model *m)
{
	m->ssm.layers = m->layers;
	m->mlpless_layers = m->layers; /* and so no MLP norm: one norm a layer */
	m->norms_per_layer = 2;
	m->ffn = 0;
	m->kv_heads = m->heads;
	m->max_context = 0; /* no positions: the state carries any length */
}

/* Mamba and Falcon Mamba (configuration_mamba.py, configuration_falcon_mamba.py,
 * modeling_mamba.py): hidden_size, num_hidden_layers, state_size (16), conv_kernel (4),
 * expand (2), intermediate_size (expand x hidden), time_step_rank ("auto" =
 * ceil(hidden / 16)), use_bias (false), use_conv_bias (true); a MambaRMSNorm a layer and
 * norm_f; lm_head tied to the embedding unless tie_word_embeddings is false. */
int hf_read_mamba(struct hf *c, struct model *m, bool tied_default)
{
	int inner = 0, expand;
	bool bias, conv_bias;

	if (hf_need_int(c, "num_hidden_layers", "n_layer", 1, &m->layers) ||
	    hf_need_int(c, "hidden_size", "d_model", 1, &m->hidden) ||
	    hf_need_int(c, "vocab_size", NULL, 1, &m->vocab) ||
	    hf_opt_int(c, "state_size", 1, 16, &m->ssm.d_state) ||
	    hf_opt_int(c, "conv_kernel", 1, 4, &m->ssm.d_conv) ||
	    hf_opt_int(c, "expand", 1, 2, &expand) ||
	    hf_opt_int(c, "intermediate_size", 1, 0, &inner) ||
	    read_dt_rank(c, "time_step_rank", &m->ssm.dt_rank) ||
	    hf_opt_bool(c, "use_bias", false, &bias) ||
	    hf_opt_bool(c, "use_conv_bias", true, &conv_bias) ||
	    hf_opt_bool(c, "tie_word_embeddings", tied_default, &m->tied_embeddings))
		return -1;
	/* FalconMambaConfig keeps expand 16 beside intermediate_size 8192: the width is
	 * intermediate_size when given (configuration_falcon_mamba.py) */
	m->ssm.d_inner = inner > 0 ? inner : expand * m->hidden;
	m->ssm.proj_bias = bias;
	m->ssm.no_conv_bias = !conv_bias;
	m->heads = 1;
	m->head_dim = m->hidden;
	ssm_only(m);
	return 0;
}

/* Mamba-2 (configuration_mamba2.py, modeling_mamba2.py): num_heads (128) x head_dim (64)
 * must make d_inner = expand x hidden_size; n_groups (1), state_size (128), conv_kernel
 * (4), use_bias, use_conv_bias; untied unless tie_word_embeddings. */
int hf_read_mamba2(struct hf *c, struct model *m)
{
	int expand, hd;
	bool bias, conv_bias;

	if (hf_need_int(c, "num_hidden_layers", "n_layer", 1, &m->layers) ||
	    hf_need_int(c, "hidden_size", "d_model", 1, &m->hidden) ||
	    hf_need_int(c, "vocab_size", NULL, 1, &m->vocab) ||
	    hf_opt_int(c, "state_size", 1, 128, &m->ssm.d_state) ||
	    hf_opt_int(c, "conv_kernel", 1, 4, &m->ssm.d_conv) ||
	    hf_opt_int(c, "expand", 1, 2, &expand) ||
	    hf_opt_int(c, "num_heads", 1, 128, &m->heads) ||
	    hf_opt_int(c, "head_dim", 1, 64, &hd) ||
	    hf_opt_int(c, "n_groups", 1, 1, &m->ssm.groups) ||
	    hf_opt_bool(c, "use_bias", false, &bias) ||
	    hf_opt_bool(c, "use_conv_bias", true, &conv_bias) ||
	    hf_opt_bool(c, "tie_word_embeddings", false, &m->tied_embeddings))
		return -1;
	m->ssm.d_inner = expand * m->hidden;
	if ((double)m->heads * hd != m->ssm.d_inner)
		return hf_fail_at(c, hf_koff(c, "num_heads"), "num_heads",
				  "'num_heads': %d heads of head_dim %d do not make expand x "
				  "hidden_size = %d",
				  m->heads, hd, m->ssm.d_inner);
	if (m->heads % m->ssm.groups != 0)
		return hf_fail_at(c, hf_koff(c, "n_groups"), "n_groups",
				  "'n_groups': %d groups do not divide %d heads", m->ssm.groups,
				  m->heads);
	m->ssm.heads = m->heads;
	m->head_dim = hd;
	m->ssm.proj_bias = bias;
	m->ssm.no_conv_bias = !conv_bias;
	ssm_only(m);
	return 0;
}

/* Nemotron-H (NVIDIA's configuration_nemotron_h.py and modeling_nemotron_h.py): one
 * character of hybrid_override_pattern per layer, each layer one RMSNorm and one mixer:
 * 'M' a Mamba-2 mixer of mamba_num_heads x mamba_head_dim (d_inner), n_groups, ssm_state_size,
 * conv_kernel; '*' attention (q, k, v, o of attention_head_dim or head_dim); '-' an MLP of
 * up_proj and down_proj (squared ReLU: 2 matrices) of intermediate_size; 'E' a MoE of
 * n_routed_experts 2-matrix experts of moe_intermediate_size, n_shared_experts of
 * moe_shared_expert_intermediate_size, a bias-free router and its
 * e_score_correction_bias (one per expert). The config writes the Mamba keys as the class
 * stores them (n_groups, conv_kernel, use_bias, use_conv_bias) or as its arguments
 * (mamba_n_groups, mamba_d_conv, mamba_proj_bias, mamba_conv_bias). Defaults are
 * NemotronHConfig's, which are Nemotron-H-8B's. */
int hf_read_nemotron_h(struct hf *c, struct model *m)
{
	const cJSON *pat = hf_item(c, "hybrid_override_pattern");
	int counts[4] = {0, 0, 0, 0}, n = 0, mh, mhd;
	bool bias, conv_bias;
	const char *kinds = "M*-E";

	if (!pat)
		return hf_fail_at(
		    c, hf_koff(c, NULL), "hybrid_override_pattern",
		    "missing 'hybrid_override_pattern' (a nemotron_h config needs it)");
	if (!cJSON_IsString(pat))
		return hf_fail_at(
		    c, hf_koff(c, "hybrid_override_pattern"), "hybrid_override_pattern",
		    "'hybrid_override_pattern' must be a string, not %s", hf_kind_name(pat));
	for (const char *p = pat->valuestring; *p; p++, n++) {
		const char *k = strchr(kinds, *p);
		if (!k || !*p)
			return hf_fail_at(c, hf_koff(c, "hybrid_override_pattern"),
					  "hybrid_override_pattern",
					  "'hybrid_override_pattern': layer %d is '%c' (expected M "
					  "Mamba-2, * attention, - MLP or E MoE)",
					  n, *p > ' ' && *p < 0x7f ? *p : '?');
		counts[k - kinds]++;
	}
	if (hf_opt_int(c, "num_hidden_layers", 1, n, &m->layers) ||
	    hf_opt_int(c, "hidden_size", 1, 4096, &m->hidden) ||
	    hf_opt_int(c, "vocab_size", 1, 131072, &m->vocab) ||
	    hf_opt_int(c, "num_attention_heads", 1, 32, &m->heads) ||
	    hf_opt_int(c, "num_key_value_heads", 1, 8, &m->kv_heads) ||
	    hf_opt_int2(c, "head_dim", "attention_head_dim", 1, 128, &m->head_dim) ||
	    hf_opt_int(c, "intermediate_size", 1, 21504, &m->ffn) ||
	    hf_opt_int(c, "mamba_num_heads", 1, 128, &mh) ||
	    hf_opt_int(c, "mamba_head_dim", 1, 64, &mhd) ||
	    hf_opt_int(c, "ssm_state_size", 1, 128, &m->ssm.d_state) ||
	    hf_opt_int2(c, "n_groups", "mamba_n_groups", 1, 8, &m->ssm.groups) ||
	    hf_opt_int2(c, "conv_kernel", "mamba_d_conv", 1, 4, &m->ssm.d_conv) ||
	    hf_opt_bool2(c, "use_bias", "mamba_proj_bias", false, &bias) ||
	    hf_opt_bool2(c, "use_conv_bias", "mamba_conv_bias", true, &conv_bias) ||
	    hf_opt_bool(c, "attention_bias", false, &m->attention_bias) ||
	    hf_opt_bool(c, "mlp_bias", false, &m->mlp_bias) ||
	    hf_opt_bool(c, "tie_word_embeddings", false, &m->tied_embeddings) ||
	    hf_read_max_context(c, 4096, &m->max_context))
		return -1;
	if (n != m->layers)
		return hf_fail_at(c, hf_koff(c, "hybrid_override_pattern"),
				  "hybrid_override_pattern",
				  "'hybrid_override_pattern' has %d layers, but num_hidden_layers "
				  "is %d",
				  n, m->layers);
	if (mh % m->ssm.groups != 0)
		return hf_fail_at(
		    c, hf_koff(c, hf_has_key(c, "n_groups") ? "n_groups" : "mamba_n_groups"),
		    "n_groups", "'n_groups': %d groups do not divide %d Mamba heads", m->ssm.groups,
		    mh);
	m->ssm.layers = counts[0];
	m->ssm.heads = mh;
	m->ssm.d_inner = mh * mhd;
	m->ssm.proj_bias = bias;
	m->ssm.no_conv_bias = !conv_bias;
	m->mixerless_layers = counts[2] + counts[3];
	m->mlpless_layers = counts[0] + counts[1];
	m->norms_per_layer = 2; /* less the missing block's: one norm a layer */
	m->mlp = MLP_PLAIN;
	if (counts[3]) {
		if (hf_need_int(c, "n_routed_experts", NULL, 1, &m->moe.experts) ||
		    hf_need_int(c, "num_experts_per_tok", NULL, 1, &m->moe.active) ||
		    hf_need_int(c, "moe_intermediate_size", NULL, 1, &m->moe.expert_ffn) ||
		    hf_opt_int(c, "n_shared_experts", 0, 0, &m->moe.shared) ||
		    hf_opt_int(c, "moe_shared_expert_intermediate_size", 1, m->moe.expert_ffn,
			       &m->moe.shared_ffn))
			return -1;
		if (hf_has_key(c, "moe_latent_size"))
			return hf_fail_at(
			    c, hf_koff(c, "moe_latent_size"), "moe_latent_size",
			    "a nemotron_h config with 'moe_latent_size' (latent MoE) is "
			    "not supported; give model.params and the shape fields "
			    "instead");
		m->moe.dense_layers = counts[2];
		m->router_bias = true; /* gate.e_score_correction_bias */
	}
	return 0;
}

/* Jamba (configuration_jamba.py, modeling_jamba.py): layer i attends when
 * i % attn_layer_period == attn_layer_offset (8 and 4), else it has a Mamba-1 mixer
 * (mamba_d_state, mamba_d_conv, mamba_expand, mamba_dt_rank, mamba_conv_bias,
 * mamba_proj_bias, and RMSNorms on dt, B and C); its MLP is a MoE of num_experts
 * (Mixtral's SwiGLU experts of intermediate_size, a bias-free router) when
 * i % expert_layer_period == expert_layer_offset (2 and 1) and num_experts > 1, else a dense
 * SwiGLU MLP; two RMSNorms a layer. */
int hf_read_jamba(struct hf *c, struct model *m)
{
	int ap, ao, ep, eo, experts, expand, attn = 0, moe = 0;
	bool conv_bias;

	if (hf_read_llama_like(c, m, true, false, 262144) ||
	    hf_opt_int(c, "attn_layer_period", 1, 8, &ap) ||
	    hf_opt_int(c, "attn_layer_offset", 0, 4, &ao) ||
	    hf_opt_int(c, "expert_layer_period", 1, 2, &ep) ||
	    hf_opt_int(c, "expert_layer_offset", 0, 1, &eo) ||
	    hf_opt_int(c, "num_experts", 1, 16, &experts) ||
	    hf_opt_int(c, "num_experts_per_tok", 1, 2, &m->moe.active) ||
	    hf_opt_int(c, "mamba_d_state", 1, 16, &m->ssm.d_state) ||
	    hf_opt_int(c, "mamba_d_conv", 1, 4, &m->ssm.d_conv) ||
	    hf_opt_int(c, "mamba_expand", 1, 2, &expand) ||
	    read_dt_rank(c, "mamba_dt_rank", &m->ssm.dt_rank) ||
	    hf_opt_bool(c, "mamba_conv_bias", true, &conv_bias) ||
	    hf_opt_bool(c, "mamba_proj_bias", false, &m->ssm.proj_bias))
		return -1;
	if (ao >= ap)
		return hf_fail_at(c, hf_koff(c, "attn_layer_offset"), "attn_layer_offset",
				  "'attn_layer_offset' %d must be below attn_layer_period %d", ao,
				  ap);
	if (eo >= ep)
		return hf_fail_at(c, hf_koff(c, "expert_layer_offset"), "expert_layer_offset",
				  "'expert_layer_offset' %d must be below expert_layer_period %d",
				  eo, ep);
	for (int i = 0; i < m->layers; i++) {
		attn += i % ap == ao;
		moe += experts > 1 && i % ep == eo;
	}
	m->ssm.layers = m->layers - attn;
	m->ssm.d_inner = expand * m->hidden;
	m->ssm.no_conv_bias = !conv_bias;
	m->ssm.dt_norms = true;
	if (moe) {
		m->moe.experts = experts;
		m->moe.expert_ffn = m->ffn;
		m->moe.dense_layers = m->layers - moe;
	} else {
		m->moe.active = 0;
	}
	return 0;
}

/* DeciLM, the Llama-Nemotron NAS models (model_type nemotron-nas; their
 * configuration_decilm.py and modeling_decilm.py): Llama's keys, and one block_configs
 * entry per layer. Its attention: no_op (none, and no input_layernorm),
 * replace_with_linear (one bias-free hidden x hidden linear), else Llama's attention with
 * num_attention_heads / n_heads_in_group K/V heads. Its ffn: no_op (none, and no
 * post_attention_layernorm), replace_with_linear, else a SwiGLU MLP of
 * _ffn_mult_to_intermediate_size(ffn_mult, hidden) = int(2 ffn_mult hidden / 3) rounded up
 * to a multiple of 256. The MLP sizes are summed (model.ffn_sum), and so are the K/V heads
 * when they differ from layer to layer (model.kv_sum). */
int hf_read_decilm(struct hf *c, struct model *m)
{
	const cJSON *blocks = hf_item(c, "block_configs"), *b;
	int n = 0, kv = 0, dense = 0, i = 0, kv_sum = 0, attn = 0;
	bool mixed_kv = false;
	double sum = 0;

	if (hf_read_llama_like(c, m, false, false, 131072))
		return -1;
	if (!blocks)
		return hf_fail_at(c, hf_koff(c, NULL), "block_configs",
				  "missing 'block_configs' (a nemotron-nas config needs it)");
	if (!cJSON_IsArray(blocks))
		return hf_fail_at(c, hf_koff(c, "block_configs"), "block_configs",
				  "'block_configs' must be an array, not %s", hf_kind_name(blocks));
	n = cJSON_GetArraySize(blocks);
	if (n != m->layers)
		return hf_fail_at(c, hf_koff(c, "block_configs"), "block_configs",
				  "'block_configs' lists %d layers, but num_hidden_layers is %d", n,
				  m->layers);
	cJSON_ArrayForEach(b, blocks)
	{
		const cJSON *a = cJSON_GetObjectItemCaseSensitive(b, "attention");
		const cJSON *f = cJSON_GetObjectItemCaseSensitive(b, "ffn"), *g, *mult;
		bool a_noop, a_lin, f_noop, f_lin;

		if (!cJSON_IsObject(a) || !cJSON_IsObject(f))
			return hf_fail_at(c, hf_koff(c, "block_configs"), "block_configs",
					  "'block_configs': layer %d needs 'attention' and 'ffn' "
					  "objects",
					  i);
		if (hf_block_bool(c, a, "no_op", false, &a_noop) ||
		    hf_block_bool(c, a, "replace_with_linear", false, &a_lin) ||
		    hf_block_bool(c, f, "no_op", false, &f_noop) ||
		    hf_block_bool(c, f, "replace_with_linear", false, &f_lin))
			return -1;
		if (a_noop || a_lin) {
			m->mixerless_layers++;
			m->linear_blocks += !a_noop;
		} else {
			int grp;
			g = cJSON_GetObjectItemCaseSensitive(a, "n_heads_in_group");
			if (!cJSON_IsNumber(g) || g->valuedouble < 1 ||
			    g->valuedouble != floor(g->valuedouble) || g->valuedouble > m->heads ||
			    m->heads % (int)g->valuedouble != 0)
				return hf_fail_at(
				    c, hf_koff(c, "block_configs"), "block_configs",
				    "'block_configs': layer %d's n_heads_in_group must "
				    "divide num_attention_heads %d",
				    i, m->heads);
			grp = m->heads / (int)g->valuedouble;
			mixed_kv = mixed_kv || (kv && grp != kv);
			kv = grp;
			kv_sum += grp;
			attn++;
		}
		if (f_noop || f_lin) {
			m->mlpless_layers++;
			m->linear_blocks += !f_noop;
		} else {
			double size;
			mult = cJSON_GetObjectItemCaseSensitive(f, "ffn_mult");
			if (!cJSON_IsNumber(mult) || !(mult->valuedouble > 0) ||
			    mult->valuedouble > 1e4)
				return hf_fail_at(c, hf_koff(c, "block_configs"), "block_configs",
						  "'block_configs': layer %d's ffn_mult must be a "
						  "positive number",
						  i);
			/* modeling_decilm.py _ffn_mult_to_intermediate_size, _find_multiple */
			size = floor(2 * mult->valuedouble * m->hidden / 3);
			size = ceil(size / 256) * 256;
			sum += size;
			dense++;
		}
		i++;
	}
	m->kv_heads = kv ? kv : m->heads;
	if (mixed_kv) {
		/* Llama-3.1-Nemotron-51B: 8, 4, 2 or 1 K/V heads a layer */
		m->kv_sum = kv_sum;
		m->kv_heads = (kv_sum + attn - 1) / attn;
		while (m->heads % m->kv_heads != 0) /* to a divisor of the heads */
			m->kv_heads++;
		hf_warn(
		    c,
		    "%s: the attention layers' K/V heads differ (%d in all over %d layers); the "
		    "parameter count takes their sum, the KV cache their average rounded up to a "
		    "divisor of the heads, %d",
		    c->type, kv_sum, attn, m->kv_heads);
	}
	m->ffn_sum = dense ? sum : 0;
	m->ffn = dense ? (int)floor(sum / dense + 0.5) : 0;
	return 0;
}

/* Qwen3-Next (configuration_qwen3_next.py, modeling_qwen3_next.py): layer_types, or
 * when absent layer i is full_attention where (i + 1) % full_attention_interval (4) is 0,
 * else linear_attention, a Gated DeltaNet of linear_num_value_heads (32) value heads of
 * linear_value_head_dim (128), linear_num_key_heads (16) key heads of
 * linear_key_head_dim (128) and a bias-free conv1d of linear_conv_kernel_dim (4) taps
 * (model.h, ssm.gated_delta). The full-attention layers are Qwen3's (q_norm and k_norm
 * over head_dim, 256) with the output gate: q_proj 2 x heads x head_dim. Every layer's
 * MLP is Qwen2-MoE's sparse block (num_experts of moe_intermediate_size, top
 * num_experts_per_tok, one shared expert of shared_expert_intermediate_size with its
 * hidden x 1 gate) unless mlp_only_layers or decoder_sparse_step make it a dense MLP of
 * intermediate_size. Two RMSNorms a layer; the checkpoint's mtp.* weights are not loaded
 * (Qwen3NextForCausalLM _keys_to_ignore_on_load_unexpected) and not counted. */
int hf_read_qwen3_next(struct hf *c, struct model *m)
{
	static const char *const full_names[] = {"full_attention", NULL};
	int period, kh, vh, kd, vd, full = 0, r;

	if (hf_read_llama_like(c, m, false, false, 262144) || hf_read_qwen3_moe(c, m) ||
	    hf_opt_int(c, "shared_expert_intermediate_size", 0, 512, &m->moe.shared_ffn) ||
	    hf_opt_int(c, "full_attention_interval", 1, 4, &period) ||
	    hf_opt_int(c, "linear_num_key_heads", 1, 16, &kh) ||
	    hf_opt_int(c, "linear_num_value_heads", 1, 32, &vh) ||
	    hf_opt_int(c, "linear_key_head_dim", 1, 128, &kd) ||
	    hf_opt_int(c, "linear_value_head_dim", 1, 128, &vd) ||
	    hf_opt_int(c, "linear_conv_kernel_dim", 1, 4, &m->ssm.d_conv))
		return -1;
	if (!m->head_dim)
		m->head_dim = 256; /* Qwen3NextConfig head_dim */
	if (vh % kh != 0)
		return hf_fail_at(c, hf_koff(c, "linear_num_value_heads"), "linear_num_value_heads",
				  "'linear_num_value_heads' %d must be a multiple of "
				  "linear_num_key_heads %d",
				  vh, kh);
	r = hf_layer_types_count(c, m, full_names, "linear_attention", &full);
	if (r < 0)
		return -1;
	if (!r) {
		for (int i = 0; i < m->layers; i++)
			full += (i + 1) % period == 0;
	}
	m->qk_norm = true;
	m->attention_gate = true;
	m->ssm.layers = m->layers - full;
	m->ssm.gated_delta = true;
	m->ssm.heads = vh;
	m->ssm.groups = kh;
	m->ssm.d_state = kd;
	m->ssm.d_inner = vh * vd;
	m->ssm.no_conv_bias = true;
	if (m->moe.shared_ffn > 0) {
		m->moe.shared = 1;
		m->moe.shared_gate = true;
	}
	return 0;
}
