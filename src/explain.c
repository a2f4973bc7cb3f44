/* explain.c - how each figure is derived: one function per figure of the table in
 * figure.c, each with its formula, its numbers, the result and the source.
 *
 * This file holds the writers, the model's figures and the dispatch through the figure
 * table; the memory figures are in explain_memory.c, compute and time in explain_time.c,
 * serving under load, capacity, cost, energy, reliability and bottlenecks in
 * explain_serving.c, and what they share in explain_int.h. */
#include "explain_int.h"

void ex_put(struct ex *e, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (e->len + 1 >= e->size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(e->buf + e->len, e->size - e->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		e->len += (size_t)n < e->size - e->len ? (size_t)n : e->size - e->len - 1;
}

static void ex_piece(void *e, const char *s, size_t n)
{
	ex_put(e, "%.*s", (int)n, s);
}

/* Writes text after prefix, wrapped at 80 columns with continuation lines indented to
 * the prefix's width; a number keeps its unit on its line ("615 kB"). */
void ex_wrapped(struct ex *e, const char *prefix, const char *text)
{
	ex_put(e, "%s", prefix);
	text_wrap(text, (int)strlen(prefix), e->width, true, ex_piece, e);
	ex_put(e, "\n");
}

/* Appends text (after "lhs = " when lhs is given) to a part of e->parts, a newline
 * between two; nothing without parts. */
void ex_part(struct ex *e, char *dst, size_t size, const char *lhs, const char *text)
{
	size_t n;

	if (!e->parts)
		return;
	n = strlen(dst);
	snprintf(dst + n, size - n, "%s%s%s", n ? "\n" : "", lhs ? lhs : "", lhs ? " = " : "");
	/* a line break the text carries for the terminal, and its indent, is one space */
	for (n = strlen(dst); *text && n + 1 < size; text++) {
		if (*text == '\n') {
			while (text[1] == ' ')
				text++;
			dst[n++] = ' ';
		} else {
			dst[n++] = *text;
		}
	}
	dst[n] = '\0';
}

void ex_numbers(struct ex *e, const char *lhs, const char *fmt, ...)
{
	char line[400], prefix[64];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	snprintf(prefix, sizeof(prefix), "  %*s = ", (int)strlen(lhs), "");
	ex_wrapped(e, prefix, line);
	if (e->parts)
		ex_part(e, e->parts->terms, sizeof(e->parts->terms), NULL, line);
}

/* ---- model ---- */

static void ex_params(struct ex *e, const struct scenario *s, const struct plan *p, bool active)
{
	const struct model_params *c = &p->counts;
	double L = p->model.layers;
	double moe = model_moe_layers(&p->model), dense = L - moe;
	(void)s;
	if (!active) {
		if (moe > 0) {
			/* an MoE layer's MLP is its experts, router and shared experts; the
			 * model's first layers may keep a dense MLP (DeepSeek-V3: 3) */
			char sym[240], num[240];
			struct text_acc k = text_acc_on(num, sizeof(num));
			snprintf(sym, sizeof(sym),
				 "embedding + head + final norm + layers x (attention + "
				 "norms)%s + MoE layers x (experts x expert + router%s)",
				 dense > 0 ? " + dense layers x MLP" : "",
				 c->shared > 0 ? " + shared" : "");
			text_add(&k, "%s + %s + %s + %s x (%s + %s)", cnt(e, c->embedding),
				 cnt(e, c->head), cnt(e, c->final_norm), plain(e, L),
				 cnt(e, c->attention), cnt(e, c->norms));
			if (dense > 0)
				text_add(&k, " + %s x %s", plain(e, dense), cnt(e, c->mlp));
			text_add(&k, " + %s x (%d x %s + %s", plain(e, moe), p->model.moe.experts,
				 cnt(e, c->expert), cnt(e, c->router));
			if (c->shared > 0)
				text_add(&k, " + %s", cnt(e, c->shared));
			text_add(&k, ")");
			formula(e, "params", sym);
			ex_numbers(e, "params", "%s", num);
		} else {
			formula(e, "params",
				"embedding + head + final norm + layers x (attention + MLP + "
				"norms)");
			ex_numbers(e, "params", "%s + %s + %s + %s x (%s + %s + %s)",
				   cnt(e, c->embedding), cnt(e, c->head), cnt(e, c->final_norm),
				   plain(e, L), cnt(e, c->attention), cnt(e, c->mlp),
				   cnt(e, c->norms));
		}
		result(e, "params", cnt(e, p->params));
		if (p->model.tied_embeddings)
			ex_put(e, "\n  head = 0: the output layer reuses the embedding (tied)\n");
		if (p->shape_assumed)
			ex_put(e, "\n  the model was given by its size only: a standard shape was "
				  "assumed\n");
		source(e, "the architecture's matrices, counted one by one (model.c); "
			  "Mixtral (Jiang et al. 2024) and DeepSeek-V3 for the experts");
		return;
	}
	formula(e, "active", "params - MoE layers x (experts - active) x expert");
	if (moe > 0) {
		ex_numbers(e, "active", "%s - %s x (%d - %d) x %s", cnt(e, p->params),
			   plain(e, moe), p->model.moe.experts, p->model.moe.active,
			   cnt(e, c->expert));
		result(e, "active", cnt(e, p->active_params));
	} else {
		ex_numbers(e, "active", "%s - 0", cnt(e, p->params));
		result(e, "active", cnt(e, p->active_params));
		ex_put(e, "\n  a dense model: no MoE layers, every parameter is active\n");
	}
	source(e, "Switch Transformer (Fedus et al. 2022) / Mixtral: each token runs its "
		  "top-k routed experts");
}

void explain_params(struct ex *e, const struct scenario *s, const struct plan *p)
{
	ex_params(e, s, p, false);
}

void explain_active_params(struct ex *e, const struct scenario *s, const struct plan *p)
{
	ex_params(e, s, p, true);
}

/* model.vision_params: the vision tower and projector, counted from the config's
 * vision_config (hf_family.c, hf_vision_params) or given; held in memory, not computed. */
void explain_vision_params(struct ex *e, const struct scenario *s, const struct plan *p)
{
	double v = p->model.vision_params;

	if (!(v > 0)) {
		not_applicable(e, "a text-only model: no vision tower (model.vision_params 0)");
		source(e, "hf_family.c hf_vision_params: a config's vision_config");
		return;
	}
	formula(e, "vision", "the vision tower's and projector's matrices, counted one by one");
	ex_numbers(e, "vision", "%s", cnt(e, v));
	result(e, "vision", cnt(e, v));
	ex_put(e, "\n  model.vision_params%s\n",
	       s->model.hf_config[0] ? ", from the config's vision_config" : "");
	{
		char text[240];
		snprintf(text, sizeof(text),
			 "in memory: %s a GPU%s, outside model.params; image tokens are not "
			 "modelled (no activations, KV cache or compute for them)",
			 byt(e, p->mem.vision_weights), p->pp > 1 ? " of the first stage" : "");
		ex_put(e, "\n");
		ex_wrapped(e, "  ", text);
	}
	source(e, "hf_family.c hf_vision_params (SigLIP, Llama 4 and Pixtral towers module by "
		  "module); held as vLLM holds it (models/siglip.py, every rank), 16-bit");
}

/* ---- dispatch through the figure table ---- */

const char *const *explain_keys(void)
{
	/* the table's keys, numbers first: filled once, the same every time */
	static const char *keys[FIGURE_MAX + 1];

	if (!keys[0]) {
		int n = 0;
		for (int words = 0; words < 2; words++)
			for (const struct figure *f = figures; f->key; f++)
				if (figure_is_number(f) == !words && n < FIGURE_MAX)
					keys[n++] = f->key;
		keys[n] = NULL;
	}
	return keys;
}

const char *explain_suggest(const char *key)
{
	const char *const *keys = explain_keys();
	const char *best = NULL;
	int bestd = 1000;
	for (int i = 0; keys[i]; i++) {
		int d = text_key_distance(key, keys[i], true);
		if (d < bestd) {
			bestd = d;
			best = keys[i];
		}
	}
	return text_key_near(key, bestd) ? best : NULL;
}

/* "key = value" and a blank line: the value as the reports write it, or in the unit or
 * without the suffix the row's FIGURE_HEAD_* flags ask for. */
static void headline(struct ex *e, const struct figure *f, const struct plan *p)
{
	double v = figure_value(f, p);
	enum unit_kind u = f->flags & FIGURE_HEAD_COUNT	  ? UNIT_COUNT
			   : f->flags & FIGURE_HEAD_PLAIN ? UNIT_NONE
							  : f->unit;
	const char *value;

	if (f->word)
		value = f->word(p);
	else if (isnan(v) && p->serving.overloaded &&
		 (strncmp(f->key, "latency.ttft", 12) == 0 ||
		  strncmp(f->key, "latency.e2e", 11) == 0 || strcmp(f->key, "serving.wait_s") == 0))
		/* the queue grows without bound (plan_serve.c): the word the reports write */
		value = "unbounded";
	else if (f->flags & (FIGURE_HEAD_BARE | FIGURE_HEAD_COUNT | FIGURE_HEAD_PLAIN))
		value = h(e, u, v);
	else
		value = figure_format(f, v, e->num[e->nn++ % 16], sizeof(e->num[0]));
	ex_put(e, "%s = %s\n\n", f->key, value);
}

/* Where the figure's error band comes from (band.h): its regime, the measured runs of
 * tests/validation/ in it and their residuals, or that none is. */
static void band_note(struct ex *e, const struct figure *f, const struct scenario *s,
		      const struct plan *p)
{
	struct band b;
	char why[256], text[512];
	double v = figure_value(f, p);

	if (!isfinite(v) || !band_lookup(s, f->key, v, &b))
		return;
	band_describe(&b, why, sizeof(why));
	ex_put(e, "\n");
	ex_wrapped(e, "  band: ", why);
	if (b.validated)
		snprintf(text, sizeof(text),
			 "%s; over its %d rows gpuplan was %+.1f%% to %+.1f%% off as a duration "
			 "or size (MAPE %.1f%%); rows and sources: gpuplan validate, VALIDATION.md",
			 b.regime, b.entry->n, 100 * b.entry->emin, 100 * b.entry->emax,
			 100 * b.entry->mape);
	else
		snprintf(text, sizeof(text),
			 "%s; the measured runs gpuplan is held to are listed by gpuplan validate "
			 "(VALIDATION.md)",
			 b.regime);
	ex_wrapped(e, "  regime: ", text);
}

/* A detail (figure.h): its value, what it is a part of, then its parent's explanation. Its
 * own formula and result go to --json's parts, its parent's source too. */
static void detail(struct ex *e, const struct figure *f, const struct scenario *s,
		   const struct plan *p)
{
	const struct figure *up = figure_parent(f);
	struct explain_parts *parts = e->parts;
	double v = figure_value(f, p);
	char text[200];

	if (!isfinite(v)) {
		not_applicable(e, "none in this plan (the explanation below says why)");
	} else {
		snprintf(text, sizeof(text), "%s (a detail of %s)", f->label, up->key);
		formula(e, text_key_leaf(f->key), text);
		result(e, text_key_leaf(f->key),
		       figure_format(f, v, e->num[e->nn++ % 16], sizeof(e->num[0])));
		ex_put(e, "\n");
		snprintf(text, sizeof(text),
			 "not itemized: the explanation of %s, below, derives it;", up->key);
		ex_wrapped(e, "  ", text);
	}
	ex_put(e, "\n");
	headline(e, up, p);
	if (parts) {
		/* the parent's formula and result are its own, not this figure's */
		struct explain_parts scratch;
		memset(&scratch, 0, sizeof(scratch));
		e->parts = &scratch;
		up->explain(e, s, p);
		e->parts = parts;
		memcpy(parts->source, scratch.source, sizeof(parts->source));
	} else {
		up->explain(e, s, p);
	}
}

int explain_key(const struct scenario *s, const struct plan *p, const char *key, char *buf,
		size_t size, struct gp_error *err)
{
	return explain_key_wrapped(s, p, key, 80, buf, size, err);
}

int explain_key_wrapped(const struct scenario *s, const struct plan *p, const char *key, int width,
			char *buf, size_t size, struct gp_error *err)
{
	return explain_key_parts(s, p, key, width, buf, size, NULL, err);
}

/* Disaggregated pools that the deployment's engines cannot hold (PW_DISAGG_FEW_ENGINES):
 * their figures are null. */
static bool disagg_few(const struct plan *p)
{
	for (int i = 0; i < p->nwarnings; i++)
		if (p->warnings[i].code == PW_DISAGG_FEW_ENGINES)
			return true;
	return false;
}

int explain_key_parts(const struct scenario *s, const struct plan *p, const char *key, int width,
		      char *buf, size_t size, struct explain_parts *parts, struct gp_error *err)
{
	const struct figure *f = figure_find(key);
	struct ex e;

	if (!f) {
		const char *near = explain_suggest(key);
		if (size)
			buf[0] = '\0';
		if (near)
			return gp_error_set(err, GP_EUSAGE, NULL, 0, 0,
					    "unknown key '%s' (did you mean '%s'?)", key, near);
		return gp_error_set(err, GP_EUSAGE, NULL, 0, 0,
				    "unknown key '%s' (expected a key of the JSON report, "
				    "e.g. 'time.total_s')",
				    key);
	}
	memset(&e, 0, sizeof(e));
	e.buf = buf;
	e.size = size;
	e.width = width > 0 ? width : 0;
	e.parts = parts;
	if (parts)
		memset(parts, 0, sizeof(*parts));
	if (size)
		buf[0] = '\0';
	headline(&e, f, p);
	if (disagg_few(p) && figure_is_number(f) && isnan(figure_value(f, p))) {
		/* plan_serve.c serve_disagg: no pools on these GPUs, so nothing to explain */
		ex_put(&e, "\n  not applicable: disaggregated pools need one prefill and one\n"
			   "  decode engine at the least, and this deployment's engines hold\n"
			   "  fewer (see the warning); capacity_plan.gpus_required sizes the\n"
			   "  pools\n\n  source: DistServe (Zhong et al. 2024): the pools run on\n"
			   "          separate GPUs\n");
		return 0;
	}
	if (f->flags & FIGURE_DETAIL)
		detail(&e, f, s, p);
	else
		f->explain(&e, s, p);
	if (f->section == FIGURE_MEMORY)
		ex_framework_note(&e, s, p);
	band_note(&e, f, s, p);
	return 0;
}

void explain_verdicts(const struct plan *p, struct explain_verdict out[EXPLAIN_VERDICTS])
{
	char a[48], b[48];
	double bw = p->shares[BN_HBM] > p->shares[BN_INTERCONNECT] ? p->shares[BN_HBM]
								   : p->shares[BN_INTERCONNECT];

	out[0].topic = "capacity";
	out[0].key = "memory.headroom";
	units_format_human(UNIT_BYTES, p->mem.total, 3, a, sizeof(a));
	units_format_human(UNIT_BYTES, p->mem.capacity, 3, b, sizeof(b));
	out[0].state = !p->mem.fits		      ? VERDICT_FAIL
		       : p->shares[BN_CAPACITY] > 0.9 ? VERDICT_WARN
						      : VERDICT_OK;
	snprintf(out[0].text, sizeof(out[0].text), "%s: %s of %s per GPU (%.0f%%)",
		 p->mem.fits ? "fits" : "does not fit", a, b, 100 * p->shares[BN_CAPACITY]);

	out[1].topic = "bandwidth and interconnect";
	out[1].key = "bottleneck.binding";
	out[1].state = p->shares[BN_DATA_IO] > 1 || bw > 0.5 ? VERDICT_WARN : VERDICT_OK;
	snprintf(out[1].text, sizeof(out[1].text),
		 "memory bandwidth %.0f%%, interconnect %.0f%%, data loading %.0f%% of the time%s",
		 100 * p->shares[BN_HBM], 100 * p->shares[BN_INTERCONNECT],
		 100 * p->shares[BN_DATA_IO], p->shares[BN_DATA_IO] > 1 ? " (starved)" : "");

	out[2].topic = "compute";
	out[2].key = "compute.mfu";
	out[2].state = !(p->mfu > 0.2) ? VERDICT_WARN : VERDICT_OK;
	units_format_human(UNIT_FLOPS, p->peak_flops, 4, a, sizeof(a));
	if (isnan(p->mfu)) /* no throughput (disaggregated pools that do not fit): no MFU */
		snprintf(out[2].text, sizeof(out[2].text),
			 "MFU null (no throughput) of %s dense, compute %.0f%% of the time", a,
			 100 * p->shares[BN_COMPUTE]);
	else
		snprintf(out[2].text, sizeof(out[2].text),
			 "MFU %.1f%% of %s dense, compute %.0f%% of the time", 100 * p->mfu, a,
			 100 * p->shares[BN_COMPUTE]);
}
