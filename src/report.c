/* report.c - a plan as text for people: the text report, the Markdown review document,
 * and the search, scaling and catalog listings of the command line. */
#include "report.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "band.h"
#include "capacity.h"
#include "diff.h"
#include "dtype.h"
#include "model.h"
#include "search.h"
#include "text.h"
#include "validate.h"
/* The judged verdicts come from explain.c, so the text report and the terminal UI's
 * results pane say the same thing in the same order. */
#include "explain.h"

/* The plan's scheduler as its enum, 0 (alone) when the plan has none (NaN): a NaN cast to
 * int is undefined. */
static int sched_of(double scheduler)
{
	return isnan(scheduler) ? 0 : (int)scheduler;
}

void report_buf_printf(struct report_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->failed)
		return;
	for (;;) {
		size_t room = b->cap - b->len;
		va_start(ap, fmt);
		n = b->data ? vsnprintf(b->data + b->len, room, fmt, ap) : -2;
		va_end(ap);
		if (n == -1) {
			b->failed = true;
			return;
		}
		if (n >= 0 && (size_t)n < room) {
			b->len += (size_t)n;
			return;
		}
		size_t want = b->len + (n > 0 ? (size_t)n : 0) + 1;
		size_t cap = b->cap ? b->cap : 4096;
		while (cap < want)
			cap *= 2;
		char *nd = realloc(b->data, cap);
		if (!nd) {
			b->failed = true;
			return;
		}
		b->data = nd;
		b->cap = cap;
	}
}

void report_buf_release(struct report_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
	b->failed = false;
}

/* A knob the calibration profile gave (--profile) and nothing set again since. */
static bool from_profile(const struct scenario *s, double v, double profiled)
{
	return s->profile[0] && v > 0 && v == profiled;
}

const char *report_source_mfu(const struct scenario *s)
{
	if (from_profile(s, s->efficiency.mfu, s->profile_knobs.mfu))
		return "from the calibration profile (--profile: efficiency.mfu)";
	if (s->efficiency.mfu > 0)
		return "given in the scenario (efficiency.mfu)";
	/* efficiency.gemm is the ceiling the modelled GEMM shapes reach a share of */
	if (from_profile(s, s->efficiency.gemm, s->profile_knobs.gemm))
		return "from the calibration profile (--profile: efficiency.gemm, the ceiling of "
		       "the modelled GEMM shapes)";
	return s->efficiency.gemm > 0
		   ? "modelled from the GEMM shapes, at efficiency.gemm given in the scenario"
		   : "modelled from the GEMM shapes and the GPU (plan_time.c)";
}

const char *report_source_hbm(const struct scenario *s)
{
	if (from_profile(s, s->efficiency.hbm, s->profile_knobs.hbm))
		return "from the calibration profile (--profile: efficiency.hbm)";
	return s->efficiency.hbm > 0 ? "given in the scenario (efficiency.hbm)"
				     : "modelled (achievable fraction of the datasheet bandwidth)";
}

const char *report_source_network(const struct scenario *s)
{
	if (from_profile(s, s->efficiency.network, s->profile_knobs.network))
		return "from the calibration profile (--profile: efficiency.network)";
	return s->efficiency.network > 0
		   ? "given in the scenario (efficiency.network)"
		   : "modelled (achievable fraction of the link bandwidth, NCCL)";
}

const char *report_workload_name(enum workload_kind k)
{
	return scenario_enum_name("workload.kind", (int)k);
}

static char *human(enum unit_kind u, double v, char *buf, size_t size)
{
	units_format_human(u, v, 3, buf, size);
	return buf;
}

static bool is_training(const struct scenario *s)
{
	return s->workload.kind == WL_TRAIN || s->workload.kind == WL_FINETUNE;
}

/* "llama-2-7b (6.74B parameters)", or the shape when there is no preset. */
static void describe_model(struct report_buf *b, const struct scenario *s, const struct plan *p)
{
	char tot[32], act[32];
	const struct model *m = &p->model;

	human(UNIT_COUNT, p->params, tot, sizeof(tot));
	human(UNIT_COUNT, p->active_params, act, sizeof(act));
	report_buf_printf(b, "%s, %s parameters",
			  s->model.preset[0]	  ? s->model.preset
			  : s->model.hf_config[0] ? s->model.hf_config
						  : "custom",
			  tot);
	/* active counts the input embedding, as the FLOPs per token do not; model cards
	 * (gpt-oss's 3.61B of 4.19B) leave it out: both, each named. A tied embedding is
	 * also the output head, which every token runs: the figure without it drops the
	 * head too, and says so. */
	if (p->active_params != p->params && !isnan(p->active_params)) {
		char bare[32];
		human(UNIT_COUNT, p->active_params - p->counts.embedding, bare, sizeof(bare));
		report_buf_printf(
		    b,
		    m->tied_embeddings
			? " (%s active with the tied embedding and head, %s without them)"
			: " (%s active with the input embedding, %s without)",
		    act, bare);
	}
	if (m->vision_params > 0)
		report_buf_printf(b, " + %s vision",
				  human(UNIT_COUNT, m->vision_params, tot, sizeof(tot)));
	if (m->layers)
		report_buf_printf(b, ", %d layers x %d, %d/%d heads", m->layers, m->hidden,
				  m->heads, m->kv_heads ? m->kv_heads : m->heads);
	if (m->moe.experts)
		report_buf_printf(b, ", MoE %d experts top-%d", m->moe.experts, m->moe.active);
	if (p->shape_assumed)
		report_buf_printf(b, " (shape assumed)");
}

static void describe_workload(struct report_buf *b, const struct scenario *s, const struct plan *p)
{
	const struct workload *w = &s->workload;
	char t[32];

	report_buf_printf(b, "%s, %s", report_workload_name(w->kind),
			  dtype_name(p->peak_precision));
	if (is_training(s)) {
		report_buf_printf(b, ", seq %d, micro-batch %d, global batch %d", w->seq_len,
				  w->micro_batch,
				  p->global_batch ? p->global_batch : w->global_batch);
		if (w->tokens > 0)
			report_buf_printf(b, ", %s tokens",
					  human(UNIT_COUNT, w->tokens, t, sizeof(t)));
		report_buf_printf(b, ", %s, recompute %s",
				  scenario_enum_name("workload.optimizer", (int)w->optimizer),
				  scenario_enum_name("workload.recompute", (int)w->recompute));
		if (w->kind == WL_FINETUNE) {
			report_buf_printf(b, ", %s",
					  scenario_enum_name("workload.finetune.method",
							     (int)w->finetune.method));
			if (w->finetune.method != FT_FULL)
				report_buf_printf(b, " rank %d on %s base", w->finetune.rank,
						  dtype_name(w->finetune.base_weights));
		}
	} else {
		/* the resolved engine (workload.engine auto: plan_engine) */
		report_buf_printf(b, ", engine %s",
				  scenario_enum_name("workload.engine", (int)p->engine));
		report_buf_printf(b, ", weights %s", dtype_name(w->weights));
		/* the routed experts' own format (workload.expert_weights, an import's
		 * quantization_config), when it differs */
		if (p->model.moe.experts && workload_expert_weights(w) != w->weights)
			report_buf_printf(b, ", experts %s",
					  dtype_name(workload_expert_weights(w)));
		report_buf_printf(b, ", KV %s, prompt %d, output %d, batch ",
				  dtype_name(w->kv_cache), w->prompt_tokens, w->output_tokens);
		if (w->batch)
			report_buf_printf(b, "%d", w->batch);
		else
			report_buf_printf(b, "auto");
		if (w->kind == WL_ONLINE && w->requests_per_s > 0)
			/* the rate every figure follows (src/plan_time_int.h, peak_rate) */
			report_buf_printf(b, ", %s requests/s",
					  human(UNIT_COUNT, w->requests_per_s, t, sizeof(t)));
		else if (w->kind == WL_ONLINE && w->requests_per_day > 0)
			report_buf_printf(b, ", %s requests/day",
					  human(UNIT_COUNT, w->requests_per_day, t, sizeof(t)));
		if (w->kind == WL_OFFLINE && w->tokens > 0)
			report_buf_printf(b, ", %s tokens",
					  human(UNIT_COUNT, w->tokens, t, sizeof(t)));
	}
	if (w->deadline_s > 0)
		report_buf_printf(b, ", deadline %s",
				  human(UNIT_SECONDS, w->deadline_s, t, sizeof(t)));
}

static void describe_hardware(struct report_buf *b, const struct scenario *s, const struct plan *p)
{
	const struct gpu *g = &s->hardware.gpu;
	char mem[32], bw[32], pk[32];

	report_buf_printf(
	    b, "%d x %s (%s, %s, %s %s)", s->hardware.count, g->id[0] ? g->id : "no GPU",
	    human(UNIT_BYTES, g->memory_bytes, mem, sizeof(mem)),
	    human(UNIT_BYTES_PER_S, g->hbm_bytes_per_s, bw, sizeof(bw)),
	    human(UNIT_FLOPS, p->peak_flops, pk, sizeof(pk)), dtype_name(p->peak_precision));
	if (s->hardware.count > g->gpus_per_node && g->gpus_per_node > 0)
		report_buf_printf(b, ", %d per node", g->gpus_per_node);
}

static void describe_layout(struct report_buf *b, const struct scenario *s, const struct plan *p)
{
	/* the layout the plan resolved, with the scenario's sequence parallelism and offload */
	struct parallel par = s->parallel;
	char t[256];

	par.tp = p->tp;
	par.pp = p->pp;
	par.dp = p->dp;
	par.ep = p->ep;
	par.cp = p->cp;
	par.virtual_stages = p->virtual_stages;
	par.zero = p->zero;
	units_format_layout(&par, UNITS_LAYOUT_REPORT, is_training(s), t, sizeof(t));
	report_buf_printf(b, "%s", t);
}

/* The framework whose behaviour the figures follow, named even when none is given
 * (man/gpuplan-scenario.5, workload.framework): "default: the papers' mixed precision ..." */
static void describe_framework(struct report_buf *b, const struct scenario *s, const struct plan *p)
{
	const char *dp = is_training(s) ? framework_dp_title(s->workload.framework, p->zero) : NULL;

	report_buf_printf(b, "%s: %s", framework_name(s->workload.framework),
			  framework_title(s->workload.framework, !is_training(s),
					  p->engine == ENGINE_CUDA_GRAPHS));
	/* the stage's implementation where the framework has one per stage (Megatron's
	 * ZeRO-3 is Megatron-FSDP), at the stage the plan runs */
	if (dp)
		report_buf_printf(b, "; data parallel: %s", dp);
}

static void report_piece(void *b, const char *s, size_t n)
{
	report_buf_printf(b, "%.*s", (int)n, s);
}

/* Prints "label  text" wrapping text at 80 columns under a hanging indent. */
void report_wrap(struct report_buf *b, int indent, const char *label, const char *text)
{
	report_buf_printf(b, "%-*s", indent, label);
	text_wrap(text, indent, 80, false, report_piece, b);
	report_buf_printf(b, "\n");
}

/* What fn writes, after label: wrapped at column 11 in text, "- **Label:** ..." in
 * Markdown (md). */
static void header_line(struct report_buf *b, bool md, const char *label,
			void (*fn)(struct report_buf *, const struct scenario *,
				   const struct plan *),
			const struct scenario *s, const struct plan *p)
{
	struct report_buf t = {0};

	fn(&t, s, p);
	if (t.failed) {
		b->failed = true;
	} else if (md) {
		report_buf_printf(b, "- **%s:** ", label);
		report_buf_markdown(b, t.data ? t.data : "", t.len);
		report_buf_printf(b, "\n");
	} else {
		report_wrap(b, 11, label, t.data ? t.data : "");
	}
	report_buf_release(&t);
}

#define BAR_WIDTH 36

static void bar(struct report_buf *b, double part, double capacity)
{
	int n = 0;
	bool over = false;

	if (capacity > 0 && part > 0) {
		double f = part / capacity;
		if (f > 1) {
			over = true;
			f = 1;
		}
		n = (int)lround(f * BAR_WIDTH);
		if (n == 0)
			n = 1; /* a part that exists is never drawn as nothing */
	}
	report_buf_printf(b, "|");
	for (int i = 0; i < BAR_WIDTH; i++)
		report_buf_printf(b, "%c", i < n ? '#' : ' ');
	report_buf_printf(b, "%c", over ? '>' : '|');
}

static void mem_row(struct report_buf *b, const char *label, double v, double capacity)
{
	char t[32], pct[16];

	human(UNIT_BYTES, v, t, sizeof(t));
	if (capacity > 0 && !isnan(v))
		human(UNIT_RATIO, v / capacity, pct, sizeof(pct));
	else
		snprintf(pct, sizeof(pct), "-");
	report_buf_printf(b, "  %-13s %10s  ", label, t);
	bar(b, v, capacity);
	report_buf_printf(b, " %7s\n", pct);
}

/* Whether memory part f (FIGURE_PART) is listed for the workload: the figure table says
 * which workloads have it (gradients and optimizer states train, a KV cache serves). */
static bool part_listed(const struct figure *f, const struct scenario *s)
{
	return (f->applies & (1u << s->workload.kind)) != 0;
}

/* The i-th of the overhead's parts that hold bytes, from the figure table's one list of
 * them (figure_overhead_part), with its value in *v; NULL past the last. The text and
 * Markdown reports list these, which add up to the overhead (tests/unit/test_report_figures.c,
 * overhead_parts_sum). */
static const struct figure *overhead_part_held(const struct plan *p, int i, double *v)
{
	const struct figure *f;

	for (int k = 0; (f = figure_overhead_part(k)) != NULL; k++) {
		*v = figure_value(f, p);
		if (*v > 0 && i-- == 0)
			return f;
	}
	return NULL;
}

/* What the allocator's and the driver's counters would show of the total, in words: the
 * figures memory.per_gpu.allocated and .reserved (explain_allocated, explain_reserved).
 * False when the plan has neither. */
static bool measured_text(const struct plan *p, char *buf, size_t size)
{
	const struct plan_memory *m = &p->mem;
	char a[32], r[32];

	if (!(m->allocated > 0) || !(m->reserved > 0))
		return false;
	snprintf(buf, size,
		 "allocated %s (as torch.cuda.max_memory_allocated), reserved %s (as "
		 "torch.cuda.max_memory_reserved); the total is what nvidia-smi shows",
		 human(UNIT_BYTES, m->allocated, a, sizeof(a)),
		 human(UNIT_BYTES, m->reserved, r, sizeof(r)));
	return true;
}

/* The overhead's parts in the text report: "(a, b, c)" under the overhead, a new line
 * (under the parenthesis) before a part that would pass 80 columns. */
static void text_overhead_parts(struct report_buf *b, const struct plan *p)
{
	const struct figure *f;
	double v;
	int col = 5, i;

	for (i = 0; (f = overhead_part_held(p, i, &v)) != NULL; i++) {
		char t[32], item[96];
		int w = snprintf(item, sizeof(item), "%s %s", f->label,
				 human(UNIT_BYTES, v, t, sizeof(t))) +
			1; /* and its comma or parenthesis */
		if (i == 0)
			report_buf_printf(b, "    (");
		else if (col + 1 + w > 80) {
			report_buf_printf(b, ",\n     ");
			col = 5;
		} else {
			report_buf_printf(b, ", ");
			col++;
		}
		report_buf_printf(b, "%s", item);
		col += w;
	}
	if (i)
		report_buf_printf(b, ")\n");
}

static void text_memory(struct report_buf *b, const struct scenario *s, const struct plan *p)
{
	const struct plan_memory *m = &p->mem;
	const struct figure *f;
	char cap[32], t1[32], t2[32], line[320];

	report_buf_printf(b, "\nMEMORY PER GPU (the most loaded)%*s\n", 42, "share of capacity");
	for (int i = 0; (f = figure_memory_part(i)) != NULL; i++) {
		if (!part_listed(f, s))
			continue;
		mem_row(b, f->label, figure_value(f, p), m->capacity);
		if (f->offset == offsetof(struct plan, mem.overhead))
			text_overhead_parts(b, p);
	}
	mem_row(b, "total", m->total, m->capacity);
	human(UNIT_BYTES, m->capacity, cap, sizeof(cap));
	human(UNIT_BYTES, fabs(m->headroom), t1, sizeof(t1));
	if (m->fits)
		report_buf_printf(b, "  FITS: %s of %s, headroom %s\n",
				  human(UNIT_BYTES, m->total, t2, sizeof(t2)), cap, t1);
	else
		report_buf_printf(b, "  DOES NOT FIT: %s needed, %s available, %s short\n",
				  human(UNIT_BYTES, m->total, t2, sizeof(t2)), cap, t1);
	if (measured_text(p, line, sizeof(line)))
		report_wrap(b, 2, "", line);
	if (m->host > 0)
		report_buf_printf(b, "  offloaded to host memory: %s per GPU\n",
				  human(UNIT_BYTES, m->host, t1, sizeof(t1)));
}

/* The figures of a section of the text report that apply (not NAN), in the table's order
 * for the workload, two side by side per line. */
static void figure_rows(struct report_buf *b, const char *title, const struct scenario *s,
			const struct plan *p, enum figure_section section)
{
	const struct figure *list[64];
	int nlist = figure_list(FIGURE_LIST_TEXT, s->workload.kind, (int)section, list, 64);
	int col = 0, width = 0, shown = 0;

	for (int i = 0; i < nlist; i++) {
		const struct figure *f = list[i];
		const char *label = figure_label(f, p);
		char t[80];
		double v;
		int n;

		v = figure_value(f, p);
		if (isnan(v))
			continue;
		if (!shown++)
			report_buf_printf(b, "\n%s\n", title);
		figure_format_plan(f, p, t, sizeof(t));
		n = (int)strlen(label) > 22 ? (int)strlen(label) : 22;
		if (col == 1 && width + 1 + n + 1 + (int)strlen(t) > 80) {
			while (!b->failed && b->len && b->data[b->len - 1] == ' ')
				b->data[--b->len] = '\0';
			report_buf_printf(b, "\n");
			col = 0;
		}
		if (col) {
			report_buf_printf(b, " %-22s %s\n", label, t);
			col = 0;
			continue;
		}
		/* the first column: pad it so the second lines up, trimmed if none follows; at
		 * least two spaces before the second label, so "58.7k tokens/s" and "per GPU"
		 * do not read as one phrase */
		report_buf_printf(b, "  %-22s %-14s ", label, t);
		width = 2 + n + 1 + ((int)strlen(t) > 14 ? (int)strlen(t) : 14) + 1;
		col = 1;
	}
	if (col) {
		while (!b->failed && b->len && b->data[b->len - 1] == ' ')
			b->data[--b->len] = '\0';
		report_buf_printf(b, "\n");
	}
}

/* The serving policy the plan assumed, in words (serving.policy and its step's limits):
 * "chunked prefill (...), 2048 tokens a step, at most 256 running". False under scheduler
 * alone, which models no load. */
static bool policy_text(const struct plan *p, char *buf, size_t size)
{
	const struct plan_serving *v = &p->serving;
	char lim[96] = "";
	int n = 0;

	if (isnan(v->scheduler))
		return false;
	if (sched_of(v->scheduler) == SCHED_CHUNKED)
		n = isfinite(v->budget)
			? snprintf(lim, sizeof(lim), ", %.0f tokens a step", v->budget)
			: snprintf(lim, sizeof(lim), ", no token budget");
	if (isfinite(v->max_running) && n >= 0 && (size_t)n < sizeof(lim))
		snprintf(lim + n, sizeof(lim) - (size_t)n, ", at most %.0f running",
			 v->max_running);
	snprintf(buf, size, "%s%s", scheduler_policy(sched_of(v->scheduler)), lim);
	return true;
}

bool report_fleet_reason(const struct plan *p, char *buf, size_t size)
{
	for (int i = 0; i < p->nwarnings && i < PLAN_MAX_WARNINGS; i++) {
		enum plan_warning_code k = p->warnings[i].code;
		if (k == PW_SLO_UNREACHABLE_TTFT || k == PW_SLO_UNREACHABLE_TPOT ||
		    k == PW_FLEET_OVER_MAX) {
			plan_warning_format(&p->warnings[i], buf, size);
			return true;
		}
	}
	return false;
}

/* The fewest-GPU layout in words (capacity_fewest, src/capacity.c): "tp 2 x pp 1: 66
 * GPUs (33 replicas) at batch 256 under chunked prefill, against 76 at the file's tp 4 x
 * pp 1". False when the file's layout is already the fewest or no load is given. */
bool report_fewest_text(const struct scenario *s, const struct plan *p, char *text, size_t size)
{
	struct capacity_fewest f;
	struct parallel file = {.tp = p->tp, .pp = p->pp, .ep = 1}; /* ep 1: not written */
	struct parallel fewest;
	char against[96], at[48], lay[48];

	if (!capacity_fewest(s, p, &f))
		return false;
	fewest = (struct parallel){.tp = f.tp, .pp = f.pp, .ep = f.ep};
	units_format_layout(&file, UNITS_LAYOUT_TIMES, false, at, sizeof(at));
	units_format_layout(&fewest, UNITS_LAYOUT_TIMES, false, lay, sizeof(lay));
	if (isfinite(f.file_gpus))
		snprintf(against, sizeof(against), "against %.0f at the file's %s", f.file_gpus,
			 at);
	else
		snprintf(against, sizeof(against), "the file's %s %s", at,
			 p->mem.fits ? "cannot meet it" : "does not fit");
	snprintf(text, size, "%s: %.0f GPUs (%.0f replicas) at batch %.0f under %s, %s", lay,
		 f.gpus_required, f.replicas, f.batch,
		 isnan(f.scheduler) ? "the decode step alone"
				    : scheduler_policy(sched_of(f.scheduler)),
		 against);
	return true;
}

/* A row of the time section that the figure table's numbers cannot give: a policy in words,
 * why a figure has no value, a detail shown only with an SLO. The text and Markdown reports
 * print the same rows after the table's (time_notes). */
struct note {
	const char *label, *key;
	char text[340];
};
#define MAX_NOTES 7

/* Under disaggregated pools with a capacity plan: the split gpus_required names (the
 * plan's, src/plan_serve.c serve_disagg) against the one this count runs (the file's, or
 * the plan's ratio), and what the file's own split needs. */
static bool disagg_split_text(const struct scenario *s, const struct plan *p, char *text,
			      size_t size)
{
	const struct plan_serving *v = &p->serving;
	const struct workload *w = &s->workload;
	int a = w->prefill_engines, b = w->decode_engines;
	char file[96];
	if (isnan(v->scheduler) || (int)v->scheduler != SCHED_DISAGG || !isfinite(p->gpus_required))
		return false;
	if (isnan(v->prefill_engines)) { /* the pools do not fit in the deployment's engines */
		snprintf(text, size,
			 "GPUs required runs the plan's %.0f prefill + %.0f decode engines; this "
			 "count's engines cannot hold one of each pool (no throughput)",
			 v->fleet_prefill, v->fleet_decode);
		return true;
	}
	if (a <= 0 && b <= 0) {
		snprintf(text, size,
			 "GPUs required runs the plan's %.0f prefill + %.0f decode engines; this "
			 "count runs %.0f + %.0f, split in that ratio",
			 v->fleet_prefill, v->fleet_decode, v->prefill_engines, v->decode_engines);
		return true;
	}
	if (a > 0 && b > 0)
		snprintf(file, sizeof(file), "the file's %d prefill + %d decode engines (%d:%d)", a,
			 b, a, b);
	else if (a > 0)
		snprintf(file, sizeof(file), "the file's %d prefill engines", a);
	else
		snprintf(file, sizeof(file), "the file's %d decode engines", b);
	if (isfinite(v->fleet_split_gpus))
		snprintf(text, size,
			 "GPUs required meets with the plan's %.0f prefill + %.0f decode engines; "
			 "%s need %.0f GPUs",
			 v->fleet_prefill, v->fleet_decode, file, v->fleet_split_gpus);
	else
		snprintf(text, size,
			 "GPUs required meets with the plan's %.0f prefill + %.0f decode engines; "
			 "%s cannot meet at any count",
			 v->fleet_prefill, v->fleet_decode, file);
	return true;
}

/* The rows of an inference plan after its figures, in order. Returns how many. */
static int time_notes(const struct scenario *s, const struct plan *p, struct note *out)
{
	int n = 0;

	if (is_training(s))
		return 0;
	if (policy_text(p, out[n].text, sizeof(out[n].text))) {
		out[n].label = "serving policy";
		out[n++].key = "serving.policy";
	}
	if (report_fewest_text(s, p, out[n].text, sizeof(out[n].text))) {
		out[n].label = "fewest GPUs";
		out[n++].key = "capacity_plan.gpus_required";
	}
	if (disagg_split_text(s, p, out[n].text, sizeof(out[n].text))) {
		out[n].label = "pools";
		out[n++].key = "capacity_plan.prefill_engines";
	}
	if (p->serving.overloaded && isnan(p->ttft_s)) {
		/* no steady state: the row says why instead of vanishing, with the figures of
		 * the one server that overruns (the warning's: src/plan_serve.c) */
		double pool = p->serving.over_pool;
		snprintf(out[n].text, sizeof(out[n].text),
			 "unbounded: %.4g requests/s per %s arrive, it completes at most %.4g "
			 "(see capacity_plan.gpus_required)",
			 p->serving.over_rate,
			 pool == 1   ? "prefill engine"
			 : pool == 2 ? "decode engine"
				     : "replica",
			 p->serving.over_most);
		out[n].label = "time to first token";
		out[n++].key = "latency.ttft_s";
		snprintf(out[n].text, sizeof(out[n].text),
			 "unbounded (overloaded: the queue grows without bound)");
		out[n].label = "wait before first pass";
		out[n++].key = "serving.wait_s";
	}
	if (isnan(p->gpus_required)) {
		/* a load that no count meets: the row says so, with the reason */
		char why[320];
		if (report_fleet_reason(p, why, sizeof(why))) {
			snprintf(out[n].text, sizeof(out[n].text), "none: %s", why);
			out[n].label = "GPUs required";
			out[n++].key = "capacity_plan.gpus_required";
		}
	}
	if ((s->workload.slo.ttft_s > 0 || s->workload.slo.tpot_s > 0) && !isnan(p->slo_batch)) {
		snprintf(out[n].text, sizeof(out[n].text), "%.0f", p->slo_batch);
		out[n].label = "largest batch meeting the SLO";
		out[n++].key = "capacity_plan.slo_batch";
	}
	return n;
}

static void text_time(struct report_buf *b, const struct scenario *s, const struct plan *p)
{
	char pk[32], t[32];
	struct note notes[MAX_NOTES];
	int nnotes = time_notes(s, p, notes);

	figure_rows(b, is_training(s) ? "TIME AND THROUGHPUT" : "LATENCY AND THROUGHPUT", s, p,
		    FIGURE_TIME);
	for (int i = 0; i < nnotes; i++) {
		char label[48];
		if (strlen(notes[i].label) > 22) { /* too long for the column: "label: text" */
			report_buf_printf(b, "  %s: %s\n", notes[i].label, notes[i].text);
			continue;
		}
		snprintf(label, sizeof(label), "  %s", notes[i].label);
		report_wrap(b, 25, label, notes[i].text);
	}
	report_buf_printf(b, "  (peak %s %s dense per GPU",
			  human(UNIT_FLOPS, p->peak_flops, pk, sizeof(pk)),
			  dtype_name(p->peak_precision));
	if (!isnan(p->hfu))
		report_buf_printf(b, ", HFU %s", human(UNIT_RATIO, p->hfu, t, sizeof(t)));
	report_buf_printf(b, ")\n");
	figure_rows(b, "COST AND ENERGY", s, p, FIGURE_COST);
	/* an inference plan lists no reliability figure */
	figure_rows(b, "RELIABILITY", s, p, FIGURE_RELIABILITY);
}

/* The figures of the reports that carry an error band (band.h): memory per GPU, then the
 * time section's, in the text report's order. Returns how many are in list. */
static int band_figures(const struct scenario *s, const struct figure **list, int max)
{
	int n =
	    figure_list(FIGURE_LIST_TEXT, s->workload.kind, (int)FIGURE_TIME, list + 1, max - 1);
	list[0] = figure_find("memory.per_gpu.total");
	return n + 1;
}

/* Figure i of band_figures: its band (false when it has none or no value), its value, and
 * the range a measured run of its regime would have put it in, as the reports write them,
 * and where the band comes from. */
static bool band_text(const struct figure *f, const struct scenario *s, const struct plan *p,
		      struct band *band, char *v, char *range, size_t size, char *why, size_t wsize)
{
	double x = f ? figure_value(f, p) : NAN;
	char lo[48], hi[48];

	if (!isfinite(x) || !band_lookup(s, f->key, x, band))
		return false;
	figure_format(f, x, v, 48);
	band_describe(band, why, wsize);
	if (band->validated)
		snprintf(range, size, "%s to %s", figure_format(f, band->lo, lo, sizeof(lo)),
			 figure_format(f, band->hi, hi, sizeof(hi)));
	else
		snprintf(range, size, "-");
	return true;
}

static void text_bands(struct report_buf *b, const struct scenario *s, const struct plan *p)
{
	const struct figure *list[64];
	int nlist = band_figures(s, list, 64), shown = 0;

	for (int i = 0; i < nlist; i++) {
		struct band band;
		char v[48], range[100], why[256], text[512], label[40];
		if (!band_text(list[i], s, p, &band, v, range, sizeof(range), why, sizeof(why)))
			continue;
		if (!shown++)
			report_buf_printf(b, "\nHOW FAR TO TRUST THESE (measured runs of the "
					     "regime: gpuplan validate)\n");
		if (band.validated)
			snprintf(text, sizeof(text), "%s, %s, %s", v, range, why);
		else
			snprintf(text, sizeof(text), "%s, %s", v, why);
		snprintf(label, sizeof(label), "  %s", i == 0 ? "memory per GPU" : list[i]->label);
		report_wrap(b, 24, label, text);
	}
}

static void text_verdicts(struct report_buf *b, const struct scenario *s, const struct plan *p)
{
	struct explain_verdict v[EXPLAIN_VERDICTS];

	(void)s;
	report_buf_printf(b,
			  "\nVERDICTS (capacity, then bandwidth and interconnect, then compute)\n");
	explain_verdicts(p, v);
	for (int i = 0; i < EXPLAIN_VERDICTS; i++) {
		struct report_buf line = {0};
		char num[16];
		static const char *const states[] = {"ok", "WARNING", "FAIL"};

		snprintf(num, sizeof(num), "  %d.", i + 1);
		report_buf_printf(&line, "%s (%s): %s", v[i].topic,
				  states[v[i].state <= VERDICT_FAIL ? v[i].state : VERDICT_FAIL],
				  v[i].text);
		if (line.failed)
			b->failed = true;
		report_wrap(b, 5, num, line.data ? line.data : "");
		report_buf_release(&line);
	}
	report_buf_printf(b, "  binding bottleneck: %s\n", bottleneck_name(p->binding));
}

static void text_warnings(struct report_buf *b, const struct plan *p)
{
	char msg[320];

	if (!p->nwarnings)
		return;
	report_buf_printf(b, "\nWARNINGS\n");
	for (int i = 0; i < p->nwarnings && i < PLAN_MAX_WARNINGS; i++) {
		plan_warning_format(&p->warnings[i], msg, sizeof(msg));
		report_wrap(b, 4, "  -", msg);
	}
}

int report_text(struct report_buf *b, const struct scenario *s, const struct plan *p)
{
	/* the name, wrapped at 80 columns like the rest of the report */
	report_wrap(b, 0, "", s->name[0] ? s->name : "(unnamed scenario)");
	if (s->path[0])
		report_buf_printf(b, "(%s)\n", strcmp(s->path, "-") ? s->path : "standard input");
	report_buf_printf(b, "\n");
	header_line(b, false, "model", describe_model, s, p);
	header_line(b, false, "workload", describe_workload, s, p);
	header_line(b, false, "hardware", describe_hardware, s, p);
	header_line(b, false, "layout", describe_layout, s, p);
	header_line(b, false, "framework", describe_framework, s, p);
	text_memory(b, s, p);
	text_time(b, s, p);
	text_bands(b, s, p);
	text_verdicts(b, s, p);
	text_warnings(b, p);
	return b->failed ? -1 : 0;
}

/* Markdown ------------------------------------------------------------------------------ */

/* Text from a file (a name, a note, a catalog name) as Markdown text: every character that
 * Markdown or HTML would read as markup escaped (text_markdown_escape), a line break a
 * space, so a scenario cannot put a link, an image, HTML or a table row of its own into a
 * review page. */
void report_buf_markdown(struct report_buf *b, const char *text, size_t len)
{
	char stack[512], *in = len < sizeof(stack) ? stack : malloc(len + 1), *out;
	size_t need;

	if (!in) {
		b->failed = true;
		return;
	}
	memcpy(in, text, len);
	in[len] = '\0';
	need = text_markdown_escape(in, NULL, 0);
	out = malloc(need + 1);
	if (out) {
		text_markdown_escape(in, out, need + 1);
		report_buf_printf(b, "%s", out);
	} else {
		b->failed = true;
	}
	free(out);
	if (in != stack)
		free(in);
}

static void md_text(struct report_buf *b, const char *text)
{
	report_buf_markdown(b, text, strlen(text));
}

/* Text from a file as a code span: the fence one backtick longer than the longest run of
 * backticks in it, padded with a space when it starts or ends with one (CommonMark 0.31,
 * "Code spans"); inside, nothing is markup. A line break is a space. */
void report_buf_markdown_code(struct report_buf *b, const char *text)
{
	size_t run = 0, longest = 0, n = strlen(text);
	bool pad = n && (text[0] == '`' || text[n - 1] == '`');

	for (const char *c = text; *c; c++) {
		run = *c == '`' ? run + 1 : 0;
		longest = run > longest ? run : longest;
	}
	for (size_t i = 0; i <= longest; i++)
		report_buf_printf(b, "`");
	report_buf_printf(b, "%s", pad ? " " : "");
	for (const char *c = text; *c; c++)
		report_buf_printf(b, "%c", *c == '\n' || *c == '\r' ? ' ' : *c);
	report_buf_printf(b, "%s", pad ? " " : "");
	for (size_t i = 0; i <= longest; i++)
		report_buf_printf(b, "`");
}

/* The Markdown document's figures for the workload: the text report's list (the figure
 * table's order for it), then the same rows in words (time_notes). */
/* The rows of a section of the text report's list that have a value, as table rows. */
static void md_figure_rows(struct report_buf *b, const struct scenario *s, const struct plan *p,
			   enum figure_section section)
{
	const struct figure *list[64];
	int n = figure_list(FIGURE_LIST_TEXT, s->workload.kind, (int)section, list, 64);

	for (int i = 0; i < n; i++) {
		char t[80];
		double v = figure_value(list[i], p);

		if (isnan(v))
			continue;
		report_buf_printf(b, "| %s | %s | `%s` |\n", figure_label(list[i], p),
				  figure_format_plan(list[i], p, t, sizeof(t)), list[i]->key);
	}
}

static void md_figure_table(struct report_buf *b, const struct scenario *s, const struct plan *p)
{
	struct note notes[MAX_NOTES];
	int nnotes = time_notes(s, p, notes);

	report_buf_printf(b, "| figure | value | key |\n| --- | ---: | --- |\n");
	md_figure_rows(b, s, p, FIGURE_TIME);
	for (int i = 0; i < nnotes; i++) {
		report_buf_printf(b, "| %s | ", notes[i].label);
		md_text(b, notes[i].text);
		report_buf_printf(b, " | `%s` |\n", notes[i].key);
	}
	md_figure_rows(b, s, p, FIGURE_COST);
	md_figure_rows(b, s, p, FIGURE_RELIABILITY);
}

static void md_bands(struct report_buf *b, const struct scenario *s, const struct plan *p)
{
	const struct figure *list[64];
	int nlist = band_figures(s, list, 64), shown = 0;

	for (int i = 0; i < nlist; i++) {
		struct band band;
		char v[48], range[100], why[256];
		if (!band_text(list[i], s, p, &band, v, range, sizeof(range), why, sizeof(why)))
			continue;
		if (!shown++)
			report_buf_printf(
			    b, "\n## How far to trust these\n\nEach figure against the "
			       "measured runs of its regime (`gpuplan validate`, "
			       "VALIDATION.md).\n\n| figure | value | measured runs "
			       "would put it at | from |\n| --- | ---: | ---: | --- |\n");
		report_buf_printf(b, "| %s | %s | %s | ",
				  i == 0 ? "memory per GPU" : list[i]->label, v, range);
		md_text(b, why);
		report_buf_printf(b, " |\n");
	}
}

static void md_row(struct report_buf *b, const char *label, double v, double capacity)
{
	char t[32], c[32];

	report_buf_printf(b, "| %s | %s | %s |\n", label, human(UNIT_BYTES, v, t, sizeof(t)),
			  human(UNIT_RATIO, capacity > 0 ? v / capacity : NAN, c, sizeof(c)));
}

static void md_memory(struct report_buf *b, const struct scenario *s, const struct plan *p)
{
	const struct plan_memory *m = &p->mem;
	const struct figure *f, *g;
	char t[32], c[32], line[320];
	double v;

	report_buf_printf(b,
			  "\n## Memory per GPU\n\nThe most loaded GPU, against %s of capacity.\n\n",
			  human(UNIT_BYTES, m->capacity, c, sizeof(c)));
	report_buf_printf(b, "| part | bytes | share of capacity |\n| --- | ---: | ---: |\n");
	bool overhead = false;

	for (int i = 0; (f = figure_memory_part(i)) != NULL; i++) {
		if (!part_listed(f, s))
			continue;
		md_row(b, f->label, figure_value(f, p), m->capacity);
		overhead |= f->offset == offsetof(struct plan, mem.overhead);
	}
	report_buf_printf(
	    b, "| **total** | **%s** | **%s** |\n", human(UNIT_BYTES, m->total, t, sizeof(t)),
	    human(UNIT_RATIO, m->capacity > 0 ? m->total / m->capacity : NAN, c, sizeof(c)));
	/* the overhead's parts in a table of their own: in the parts' column they would count
	 * the overhead twice */
	for (int k = 0; overhead && (g = overhead_part_held(p, k, &v)) != NULL; k++) {
		if (k == 0)
			report_buf_printf(b,
					  "\nThe overhead, of which:\n\n| overhead part | bytes | "
					  "share of capacity |\n| --- | ---: | ---: |\n");
		md_row(b, g->label, v, m->capacity);
	}
	human(UNIT_BYTES, fabs(m->headroom), t, sizeof(t));
	if (m->fits)
		report_buf_printf(b, "\n**Fits**, with %s of headroom.\n", t);
	else
		report_buf_printf(b, "\n**Does not fit**: %s short.\n", t);
	if (measured_text(p, line, sizeof(line))) {
		line[0] = (char)(line[0] - 'a' + 'A');
		report_buf_printf(b, "%s.\n", line);
	}
	if (m->host > 0)
		report_buf_printf(b, "Offloaded to host memory: %s per GPU.\n",
				  human(UNIT_BYTES, m->host, t, sizeof(t)));
}

int report_markdown(struct report_buf *b, const struct scenario *s, const struct plan *p)
{
	char v1[32], v2[32], v3[32];

	report_buf_printf(b, "# ");
	md_text(b, s->name[0] ? s->name : "Unnamed scenario");
	report_buf_printf(b, "\n\n");
	if (s->path[0] && strcmp(s->path, "-")) {
		report_buf_printf(b, "Scenario file: ");
		report_buf_markdown_code(b, s->path);
		report_buf_printf(b, "\n\n");
	}

	report_buf_printf(b, "## Summary\n\n");
	report_buf_printf(b, "- **Verdict:** %s; binding bottleneck **%s**\n",
			  p->mem.fits ? "fits in memory" : "**does not fit in memory**",
			  bottleneck_name(p->binding));
	header_line(b, true, "Model", describe_model, s, p);
	header_line(b, true, "Workload", describe_workload, s, p);
	header_line(b, true, "Hardware", describe_hardware, s, p);
	header_line(b, true, "Layout", describe_layout, s, p);
	header_line(b, true, "Framework", describe_framework, s, p);
	if (is_training(s)) {
		report_buf_printf(b, "- **Time:** %s in total at %s per step; **cost** %s",
				  human(UNIT_SECONDS, p->total_s, v1, sizeof(v1)),
				  human(UNIT_SECONDS, p->step_s, v2, sizeof(v2)),
				  human(UNIT_USD, p->usd_total, v3, sizeof(v3)));
		if (s->workload.deadline_s > 0 && !isnan(p->total_s))
			report_buf_printf(
			    b, "; deadline %s %s",
			    human(UNIT_SECONDS, s->workload.deadline_s, v1, sizeof(v1)),
			    p->total_s <= s->workload.deadline_s ? "met" : "**missed**");
		report_buf_printf(b, "\n");
	} else {
		report_buf_printf(b, "- **Latency:** first token %s, then %s per token\n",
				  human(UNIT_SECONDS, p->ttft_s, v1, sizeof(v1)),
				  human(UNIT_SECONDS, p->tpot_s, v2, sizeof(v2)));
	}
	if (s->notes[0]) {
		report_buf_printf(b, "\n> ");
		for (const char *c = s->notes; *c;) {
			size_t n = strcspn(c, "\n");
			report_buf_markdown(b, c, n); /* each line of the note, escaped */
			c += n;
			if (!*c)
				break;
			if (c[1] == '\n')
				report_buf_printf(b, "\n>"); /* a blank line inside the quote */
			else if (c[1])
				report_buf_printf(b, "\n> ");
			c++;
		}
		report_buf_printf(b, "\n");
	}

	md_memory(b, s, p);

	report_buf_printf(b, "\n## %s\n\n",
			  is_training(s) ? "Time and cost" : "Latency, throughput and cost");
	md_figure_table(b, s, p);
	md_bands(b, s, p);

	report_buf_printf(b, "\n## Bottlenecks\n\nJudged in order: capacity (does it load), then "
			     "bandwidth and interconnect (does it run well), then compute.\n\n");
	report_buf_printf(b, "| resource | share | |\n| --- | ---: | --- |\n");
	{
		static const enum bottleneck order[] = {BN_CAPACITY, BN_HBM, BN_INTERCONNECT,
							BN_DATA_IO, BN_COMPUTE};
		for (size_t i = 0; i < sizeof(order) / sizeof(order[0]); i++)
			report_buf_printf(b, "| %s | %s | %s |\n", bottleneck_name(order[i]),
					  human(UNIT_RATIO, p->shares[order[i]], v1, sizeof(v1)),
					  p->binding == order[i] ? "**binding**" : "");
	}

	report_buf_printf(b, "\n## Warnings\n\n");
	if (!p->nwarnings)
		report_buf_printf(b, "None.\n");
	for (int i = 0; i < p->nwarnings && i < PLAN_MAX_WARNINGS; i++) {
		char msg[320];
		report_buf_printf(b, "- %s\n",
				  plan_warning_format(&p->warnings[i], msg, sizeof(msg)));
	}

	report_buf_printf(
	    b, "\n## Assumptions\n\n| assumption | value | source |\n| --- | ---: | --- |\n");
	report_buf_printf(
	    b, "| dense peak per GPU (%s) | %s | catalog: ", dtype_name(p->peak_precision),
	    human(UNIT_FLOPS, p->peak_flops, v1, sizeof(v1)));
	md_text(b, s->hardware.gpu.id);
	report_buf_printf(b, " |\n");
	report_buf_printf(b, "| matrix-multiply efficiency | %s | %s |\n",
			  human(UNIT_RATIO, p->matmul_efficiency, v1, sizeof(v1)),
			  report_source_mfu(s));
	report_buf_printf(b, "| HBM efficiency | %s | %s |\n",
			  human(UNIT_RATIO, p->hbm_efficiency, v1, sizeof(v1)),
			  report_source_hbm(s));
	report_buf_printf(b, "| network efficiency | %s | %s |\n",
			  human(UNIT_RATIO, p->network_efficiency, v1, sizeof(v1)),
			  report_source_network(s));
	report_buf_printf(b, "| memory bandwidth | %s | catalog: ",
			  human(UNIT_BYTES_PER_S, s->hardware.gpu.hbm_bytes_per_s, v1, sizeof(v1)));
	md_text(b, s->hardware.gpu.id);
	report_buf_printf(b, " |\n");
	report_buf_printf(b, "| price per GPU-hour | %s | catalog or scenario (indicative) |\n",
			  human(UNIT_USD, s->hardware.gpu.price_per_hour, v1, sizeof(v1)));
	report_buf_printf(b, "| PUE | %.2f | scenario (default 1.2: hyperscaler reports) |\n",
			  s->hardware.pue);
	report_buf_printf(b,
			  "| MTBF per GPU | %.0f GPU-h | scenario (default: Llama 3 paper, "
			  "Table 5) |\n",
			  s->hardware.mtbf_gpu_hours);
	if (p->shape_assumed)
		report_buf_printf(b, "| model shape | assumed | standard shape for the given "
				     "parameter count (model.c) |\n");
	return b->failed ? -1 : 0;
}

/* Search and catalog text ------------------------------------------------------------- */

/* One ranked layout in two lines of at most 80 columns: what to run, then what it gives. */
static void search_text_result(struct report_buf *b, int rank, const struct scenario *s0,
			       const struct catalog *cat, const struct search_result *r)
{
	static const char *const offl[] = {"", ", offload opt", ", offload opt+params"};
	const struct plan *p = &r->plan;
	struct scenario s = *s0;
	struct report_buf l = {0};
	struct parallel par = r->parallel;
	char t1[32], t2[128], t3[32];
	bool infer = s0->workload.kind == WL_ONLINE || s0->workload.kind == WL_OFFLINE;

	search_apply(&s, cat, r);
	snprintf(t1, sizeof(t1), "%3d.", rank);
	par.dp = p->dp; /* the resolved data parallelism */
	units_format_layout(&par, UNITS_LAYOUT_SEARCH, !infer, t2, sizeof(t2));
	report_buf_printf(&l, "%d x %s: %s", r->count, r->gpu, t2);
	if (infer) {
		report_buf_printf(&l, ", batch ");
		report_buf_printf(&l, r->batch ? "%d" : "auto", r->batch);
		report_buf_printf(&l, ", weights %s, KV %s", dtype_name(r->weights),
				  dtype_name(r->kv_cache));
	} else {
		report_buf_printf(
		    &l, ", ZeRO %d, mb %d, recompute %s%s%s", r->plan.zero, r->micro_batch,
		    scenario_enum_name("workload.recompute", (int)r->recompute),
		    r->parallel.sequence_parallel ? ", sp" : "", offl[r->parallel.offload % 3]);
	}
	report_wrap(b, 5, t1, l.data ? l.data : "");
	if (l.failed)
		b->failed = true;
	l.len = 0;
	units_format_human(UNIT_BYTES, p->mem.total, 3, t1, sizeof(t1));
	report_buf_printf(&l, "%s/GPU", t1);
	if (search_sized_by_load(s0)) {
		/* the fleet the load needs, which the list ranks by */
		if (isfinite(p->gpus_required))
			report_buf_printf(&l, ", needs %.0f GPUs (%.0f replicas)", p->gpus_required,
					  p->replicas);
		else
			report_buf_printf(&l, ", needs: none meets");
	}
	if (infer) {
		if (isnan(p->ttft_s) && p->serving.overloaded)
			snprintf(t2, sizeof(t2), "unbounded");
		else
			units_format_human(UNIT_SECONDS, p->ttft_s, 3, t2, sizeof(t2));
		units_format_human(UNIT_SECONDS, p->tpot_s, 3, t3, sizeof(t3));
		report_buf_printf(&l, ", TTFT %s, TPOT %s", t2, t3);
	} else {
		units_format_human(UNIT_SECONDS, p->step_s, 3, t2, sizeof(t2));
		units_format_human(UNIT_SECONDS, p->total_s, 3, t3, sizeof(t3));
		report_buf_printf(&l, ", step %s, total %s", t2, t3);
	}
	units_format_human(UNIT_COUNT, p->tokens_per_s_per_gpu, 3, t1, sizeof(t1));
	units_format_human(UNIT_USD, p->usd_per_million_tokens, 3, t2, sizeof(t2));
	report_buf_printf(&l, ", %s tok/s/GPU, %s/M tok, %s%s", t1, t2, bottleneck_name(p->binding),
			  r->meets_target ? "" : " (misses target");
	/* under a load the target is missed at the count run, not at the fleet above */
	if (!r->meets_target)
		report_buf_printf(&l, search_sized_by_load(s0) ? " at %d GPUs)" : ")", r->count);
	report_wrap(b, 5, "", l.data ? l.data : "");
	if (l.failed)
		b->failed = true;
	report_buf_release(&l);
}

void report_search_text(struct report_buf *b, const struct scenario *s, const struct catalog *cat,
			const struct search_options *opt, const struct search_result *res, int n,
			const struct search_stats *stats, double seconds, const char *name)
{
	struct report_buf h = {0};
	char dt[32];

	units_format_human(UNIT_SECONDS, seconds, 2, dt, sizeof(dt));
	/* the name and the count wrapped at 80 columns, as the text report's lines */
	report_buf_printf(&h, "%s", s->name[0] ? s->name : name);
	report_wrap(b, 0, "", h.data ? h.data : "");
	h.len = 0;
	report_buf_printf(&h, "%ld layouts evaluated in %s, %ld fit; best %d by %s%s",
			  stats->evaluated, dt, stats->fitting, n,
			  opt->by == SEARCH_BY_COST ? "cost"
			  : search_sized_by_load(s) ? "GPUs required (the load's fleet)"
						    : "time",
			  opt->hardware ? " over the catalog's GPUs" : "");
	report_wrap(b, 0, "", h.data ? h.data : "");
	report_buf_printf(b, "\n");
	if (h.failed)
		b->failed = true;
	report_buf_release(&h);
	if (n == 0)
		report_buf_printf(b, "no layout fits%s\n",
				  opt->hardware ? "" : " (try --hardware for more or other GPUs)");
	for (int i = 0; i < n; i++)
		search_text_result(b, i + 1, s, cat, &res[i]);
}

/* CSV ------------------------------------------------------------------------------- */

static void csv_sep(struct report_csv *w)
{
	if (w->col++)
		report_buf_printf(w->b, ",");
}

void report_csv_str(struct report_csv *w, const char *text)
{
	csv_sep(w);
	if (!text)
		return;
	/* RFC 4180, 2.6 and 2.7: quote a field with a comma, quote or line break in it, and
	 * double its quotes */
	if (!text[strcspn(text, ",\"\r\n")]) {
		report_buf_printf(w->b, "%s", text);
		return;
	}
	report_buf_printf(w->b, "\"");
	for (const char *c = text; *c; c++)
		report_buf_printf(w->b, *c == '"' ? "\"\"" : "%c", *c);
	report_buf_printf(w->b, "\"");
}

void report_csv_num(struct report_csv *w, double v, bool integer)
{
	csv_sep(w);
	if (!isfinite(v))
		return;
	if (integer || (v == floor(v) && fabs(v) < 1e15))
		report_buf_printf(w->b, "%.0f", v);
	else
		report_buf_printf(w->b, "%.10g", v);
}

void report_csv_bool(struct report_csv *w, bool v)
{
	report_csv_str(w, v ? "true" : "false");
}

void report_csv_end(struct report_csv *w)
{
	report_buf_printf(w->b, "\n");
	w->col = 0;
}

/* The layout columns of search --csv: scenario keys, written as a file writes them. */
static const char *const search_csv_inputs[] = {
    "hardware.gpu",	  "hardware.count",
    "parallel.tp",	  "parallel.pp",
    "parallel.dp",	  "parallel.ep",
    "parallel.cp",	  "parallel.virtual_stages",
    "parallel.zero",	  "parallel.sequence_parallel",
    "parallel.offload",	  "workload.micro_batch",
    "workload.recompute", "workload.batch",
    "workload.weights",	  "workload.kv_cache",
};

/* ... and its figures: the figure table's rows with a place in the CSV (figure.csv), at
 * their JSON keys. Returns how many it wrote to out. */
static int search_csv_figures(const struct figure **out, int max)
{
	return figure_list(FIGURE_LIST_CSV, WL_TRAIN, -1, out, max);
}

#define NELEMS(a) (sizeof(a) / sizeof((a)[0]))

/* A result's layout columns (search_csv_inputs), s the scenario with it applied. */
static void search_csv_layout(struct report_csv *w, const struct scenario *s,
			      const struct search_result *r)
{
	for (size_t k = 0; k < NELEMS(search_csv_inputs); k++) {
		const struct field *f = scenario_field_find(search_csv_inputs[k]);
		char text[256];

		if (!f || !scenario_field_applies(s, f))
			report_csv_str(w, NULL);
		else if (strcmp(f->key, "parallel.dp") == 0) /* as resolved */
			report_csv_num(w, r->plan.dp, true);
		else
			report_csv_str(w, scenario_field_format(s, f, text, sizeof(text)));
	}
}

/* A result's figures (search_csv_figures). */
static void search_csv_figures_of(struct report_csv *w, const struct plan *p)
{
	const struct figure *list[FIGURE_MAX];
	int n = search_csv_figures(list, FIGURE_MAX);

	for (int k = 0; k < n; k++)
		report_csv_num(w, figure_value(list[k], p), list[k]->integer);
}

/* The headings of the layout columns, memory.fits and the figures. */
static void search_csv_heading(struct report_csv *w)
{
	const struct figure *list[FIGURE_MAX];
	int n = search_csv_figures(list, FIGURE_MAX);

	for (size_t k = 0; k < NELEMS(search_csv_inputs); k++)
		report_csv_str(w, search_csv_inputs[k]);
	report_csv_str(w, "memory.fits");
	for (int k = 0; k < n; k++)
		report_csv_str(w, list[k]->key);
}

/* One result's layout (s with r applied), its fit and its figures: the columns search --csv
 * and --scaling share. */
static void search_csv_result(struct report_csv *w, struct scenario *s, const struct catalog *cat,
			      const struct search_result *r)
{
	search_apply(s, cat, r);
	search_csv_layout(w, s, r);
	report_csv_bool(w, r->plan.mem.fits);
	search_csv_figures_of(w, &r->plan);
}

void report_search_csv(struct report_buf *b, const struct scenario *s0, const struct catalog *cat,
		       const struct search_result *res, int n)
{
	struct report_csv w = {b, 0};

	report_csv_str(&w, "rank");
	search_csv_heading(&w);
	report_csv_str(&w, "bottleneck.binding");
	report_csv_str(&w, "meets_target");
	report_csv_str(&w, "score");
	report_csv_end(&w);
	for (int i = 0; i < n; i++) {
		const struct search_result *r = &res[i];
		struct scenario s = *s0;

		report_csv_num(&w, i + 1, true);
		search_csv_result(&w, &s, cat, r);
		report_csv_str(&w, bottleneck_name(r->plan.binding));
		report_csv_bool(&w, r->meets_target);
		report_csv_num(&w, r->score, false);
		report_csv_end(&w);
	}
}

void report_scaling_csv(struct report_buf *b, const struct scenario *s0, const struct catalog *cat,
			const int *counts, const struct search_result *res, int n)
{
	struct report_csv w = {b, 0};
	const struct figure *list[FIGURE_MAX];
	int nfig = search_csv_figures(list, FIGURE_MAX);
	double base = NAN;

	/* search --csv's columns (the scenario file's keys, the JSON report's), then MFU and
	 * the efficiency, the table's own */
	search_csv_heading(&w);
	report_csv_str(&w, "compute.mfu");
	report_csv_str(&w, "bottleneck.binding");
	report_csv_str(&w, "efficiency");
	report_csv_end(&w);
	for (int i = 0; i < n; i++) {
		const struct search_result *r = &res[i];
		const struct plan *p = &r->plan;
		struct scenario s = *s0;

		if (!r->count) { /* nothing fits at this count: the count alone */
			for (size_t k = 0; k < NELEMS(search_csv_inputs); k++)
				if (strcmp(search_csv_inputs[k], "hardware.count") == 0)
					report_csv_num(&w, counts[i], true);
				else
					report_csv_str(&w, NULL);
			report_csv_bool(&w, false);
			for (int k = 0; k < nfig + 3; k++)
				report_csv_str(&w, NULL);
			report_csv_end(&w);
			continue;
		}
		if (isnan(base) && p->tokens_per_s_per_gpu > 0)
			base = p->tokens_per_s_per_gpu;
		search_csv_result(&w, &s, cat, r);
		report_csv_num(&w, p->mfu, false);
		report_csv_str(&w, bottleneck_name(p->binding));
		report_csv_num(&w, base > 0 ? p->tokens_per_s_per_gpu / base : NAN, false);
		report_csv_end(&w);
	}
}

void report_catalog_csv(struct report_buf *b, const struct catalog *cat, bool gpus)
{
	struct report_csv w = {b, 0};
	char name[48];

	if (gpus) {
		static const char *const head[] = {"id", "name", "vendor", "memory_bytes",
						   "hbm_bytes_per_s"};
		static const char *const tail[] = {
		    "link",	      "link_bytes_per_s", "link_domain",
		    "pcie",	      "pcie_bytes_per_s", "power_w",
		    "price_per_hour", "gpus_per_node",	  "network_bytes_per_s",
		    "file",	      "cuda_total_bytes"};

		for (size_t k = 0; k < NELEMS(head); k++)
			report_csv_str(&w, head[k]);
		for (int sparse = 0; sparse < 2; sparse++)
			for (int t = 0; t < DTYPE_COUNT; t++) {
				snprintf(name, sizeof(name), "%s.%s",
					 sparse ? "sparse_flops" : "peak_flops", dtype_name(t));
				report_csv_str(&w, name);
			}
		for (size_t k = 0; k < NELEMS(tail); k++)
			report_csv_str(&w, tail[k]);
		report_csv_end(&w);
		for (int i = 0; i < cat->ngpus; i++) {
			const struct gpu *g = &cat->gpus[i];

			report_csv_str(&w, g->id);
			report_csv_str(&w, g->name);
			report_csv_str(&w, g->vendor);
			report_csv_num(&w, g->memory_bytes, true);
			report_csv_num(&w, g->hbm_bytes_per_s, true);
			for (int t = 0; t < DTYPE_COUNT; t++)
				report_csv_num(&w, g->peak_flops[t] > 0 ? g->peak_flops[t] : NAN,
					       true);
			for (int t = 0; t < DTYPE_COUNT; t++)
				report_csv_num(
				    &w, g->sparse_flops[t] > 0 ? g->sparse_flops[t] : NAN, true);
			report_csv_str(&w, g->link);
			report_csv_num(&w, g->link_bytes_per_s, true);
			report_csv_num(&w, g->link_domain, true);
			report_csv_str(&w, g->pcie);
			report_csv_num(&w, g->pcie_bytes_per_s, true);
			report_csv_num(&w, g->power_w, false);
			report_csv_num(&w, g->price_per_hour, false);
			report_csv_num(&w, g->gpus_per_node, true);
			report_csv_num(&w, g->network_bytes_per_s, true);
			report_csv_str(&w, cat->gpu_origin[i]);
			report_csv_num(&w, g->cuda_total_bytes > 0 ? g->cuda_total_bytes : NAN,
				       true);
			report_csv_end(&w);
		}
		return;
	}
	report_buf_printf(b, "id,params,active_params,layers,hidden,heads,kv_heads,max_context,"
			     "file\n");
	for (int i = 0; i < cat->nmodels; i++) {
		struct model m;
		struct model_params np;

		model_resolve(&cat->models[i].model, &m, NULL);
		model_count_params(&m, &np);
		report_csv_str(&w, cat->models[i].id);
		report_csv_num(&w, np.total, true);
		report_csv_num(&w, np.active, true);
		report_csv_num(&w, m.layers, true);
		report_csv_num(&w, m.hidden, true);
		report_csv_num(&w, m.heads, true);
		report_csv_num(&w, m.kv_heads ? m.kv_heads : m.heads, true);
		report_csv_num(&w, m.max_context, true);
		report_csv_str(&w, cat->model_origin[i]);
		report_csv_end(&w);
	}
}

void report_diff_csv(struct report_buf *b, const struct diff *d, const struct scenario *sa,
		     const struct scenario *sb)
{
	struct report_csv w = {b, 0};
	/* a field's whole value: notes may be as long as the scenario holds */
	char *text = malloc(2 * sizeof(sa->notes) + 64);

	if (!text) {
		b->failed = true;
		return;
	}
	report_buf_printf(b, "section,key,a,b,change,relative\n");
	if (d->fits_changed) {
		report_csv_str(&w, "verdict");
		report_csv_str(&w, "memory.fits");
		report_csv_str(&w, d->fits_a ? "fits" : "does not fit");
		report_csv_str(&w, d->fits_b ? "fits" : "does not fit");
		report_csv_str(&w, NULL);
		report_csv_str(&w, NULL);
		report_csv_end(&w);
	}
	if (d->binding_changed) {
		report_csv_str(&w, "verdict");
		report_csv_str(&w, "bottleneck.binding");
		report_csv_str(&w, bottleneck_name(d->binding_a));
		report_csv_str(&w, bottleneck_name(d->binding_b));
		report_csv_str(&w, NULL);
		report_csv_str(&w, NULL);
		report_csv_end(&w);
	}
	for (int i = 0; i < d->ninputs; i++) {
		const struct field *f = d->inputs[i].field;
		size_t size = 2 * sizeof(sa->notes) + 64;

		report_csv_str(&w, "input");
		report_csv_str(&w, f->key);
		report_csv_str(&w, scenario_field_format(sa, f, text, size));
		report_csv_str(&w, scenario_field_format(sb, f, text, size));
		report_csv_str(&w, NULL);
		report_csv_str(&w, NULL);
		report_csv_end(&w);
	}
	for (int i = 0; i < d->nresults; i++) {
		const struct diff_result *r = &d->results[i];

		report_csv_str(&w, "result");
		report_csv_str(&w, r->figure->key);
		report_csv_num(&w, r->a, r->figure->integer);
		report_csv_num(&w, r->b, r->figure->integer);
		report_csv_num(&w, r->change, r->figure->integer);
		report_csv_num(&w, r->relative, false);
		report_csv_end(&w);
	}
	free(text);
}

void report_validation_csv(struct report_buf *b, const struct validation *v)
{
	struct report_csv w = {b, 0};

	report_buf_printf(b, "id,group,source");
	for (int t = 0; t < VTAG_COUNT; t++)
		report_buf_printf(b, ",%s", validate_tag_name(t));
	report_buf_printf(b, ",scenario,set,figure,unit,measured,predicted,error,tolerance,"
			     "pinned\n");
	for (int i = 0; i < v->nrows; i++) {
		const struct validate_row *r = &v->rows[i];
		struct report_buf sets = {0};

		for (int k = 0; k < r->nsets; k++)
			report_buf_printf(&sets, "%s%s", k ? ";" : "", r->sets[k]);
		if (sets.failed)
			b->failed = true;
		report_csv_str(&w, r->id);
		report_csv_str(&w, v->groups[r->group].name);
		report_csv_str(&w, r->source);
		for (int t = 0; t < VTAG_COUNT; t++)
			report_csv_str(&w, r->tags[t]);
		report_csv_str(&w, r->scenario);
		report_csv_str(&w, sets.data);
		report_csv_str(&w, r->figure);
		report_csv_str(&w, r->unit);
		report_csv_num(&w, r->measured, false);
		report_csv_num(&w, r->predicted, false);
		report_csv_num(&w, r->error, false);
		report_csv_num(&w, r->tolerance, false);
		report_csv_num(&w, r->pinned, false);
		report_csv_end(&w);
		report_buf_release(&sets);
	}
}

int report_scaling_counts(const struct scenario *s, int *counts, int max)
{
	int n = 0, top = s->hardware.count * 4 > 1024 ? s->hardware.count * 4 : 1024;

	for (int k = 1; k <= top && k <= (1 << 20) && n < max; k *= 2)
		counts[n++] = k;
	return n;
}

/* The folder part of a path ("" when none) and its last part. */
static void split_path(const char *path, char *dir, size_t size, const char **base)
{
	const char *slash = strrchr(path, '/');

	snprintf(dir, size, "%.*s", slash ? (int)(slash - path) : 0, path);
	*base = slash ? slash + 1 : path;
}

/* A peak in TFLOP/s in a 6-column field: four significant digits, and whole numbers from
 * 10,000 on (MI355X's sparse 10,066), where %g would switch to an exponent and overflow. */
static void tflops_column(struct report_buf *b, double flops)
{
	double t = flops / 1e12;
	report_buf_printf(b, t < 1e4 ? " %6.4g" : " %6.0f", t);
}

static void catalog_gpus(struct report_buf *b, const struct catalog *cat)
{
	static const enum dtype shown[] = {DTYPE_FP32, DTYPE_TF32, DTYPE_BF16,
					   DTYPE_FP16, DTYPE_FP8,  DTYPE_INT8};
	const char *origin = "";

	report_buf_printf(b, "GPUs: dense peak TFLOP/s per precision ('-' not supported); the "
			     "2:4 sparse\nfigures of datasheets are shown below them and never "
			     "used as peaks\n\n");
	report_buf_printf(b, "%-16s %7s %10s %6s %6s %6s %6s %6s %6s\n", "ID", "MEMORY", "HBM BW",
			  "FP32", "TF32", "BF16", "FP16", "FP8", "INT8");
	for (int i = 0; i < cat->ngpus; i++) {
		const struct gpu *g = &cat->gpus[i];
		char mem[32], bw[32], link[32], pcie[32], price[32], power[32];
		bool any_sparse = false;

		if (strcmp(origin, cat->gpu_origin[i]) != 0) {
			origin = cat->gpu_origin[i];
			report_buf_printf(b, "(from %s)\n", origin);
		}
		units_format_human(UNIT_BYTES, g->memory_bytes, 3, mem, sizeof(mem));
		units_format_human(UNIT_BYTES_PER_S, g->hbm_bytes_per_s, 3, bw, sizeof(bw));
		report_buf_printf(b, "%-16s %7s %10s", g->id, mem, bw);
		for (size_t k = 0; k < sizeof(shown) / sizeof(shown[0]); k++) {
			double v = g->peak_flops[shown[k]];
			if (v > 0)
				tflops_column(b, v);
			else
				report_buf_printf(b, " %6s", "-");
			if (g->sparse_flops[shown[k]] > 0)
				any_sparse = true;
		}
		report_buf_printf(b, "\n");
		if (any_sparse) {
			report_buf_printf(b, "%-35s", "  sparse 2:4 (not a peak)");
			for (size_t k = 0; k < sizeof(shown) / sizeof(shown[0]); k++) {
				double v = g->sparse_flops[shown[k]];
				if (v > 0)
					tflops_column(b, v);
				else
					report_buf_printf(b, " %6s", "");
			}
			while (!b->failed && b->data[b->len - 1] == ' ')
				b->data[--b->len] = '\0';
			report_buf_printf(b, "\n");
		}
		/* the microscaling formats' dense peaks on a line of their own: a seventh column
		 * would not fit 80 columns, and few GPUs have them (gpuplan(1), catalog) */
		{
			static const enum dtype mx[] = {DTYPE_NVFP4, DTYPE_MXFP4, DTYPE_FP6};
			const char *sep = "  microscaled dense:";
			for (size_t k = 0; k < sizeof(mx) / sizeof(mx[0]); k++) {
				if (!(g->peak_flops[mx[k]] > 0))
					continue;
				double t = g->peak_flops[mx[k]] / 1e12;
				report_buf_printf(b, t < 1e4 ? "%s %s %.4g" : "%s %s %.0f", sep,
						  dtype_name(mx[k]), t);
				sep = ",";
			}
			if (sep[0] == ',')
				report_buf_printf(b, " TFLOP/s\n");
		}
		units_format_human(UNIT_BYTES_PER_S, g->link_bytes_per_s, 3, link, sizeof(link));
		units_format_human(UNIT_BYTES_PER_S, g->pcie_bytes_per_s, 3, pcie, sizeof(pcie));
		units_format_human(UNIT_WATTS, g->power_w, 3, power, sizeof(power));
		units_format_human(UNIT_USD, g->price_per_hour, 3, price, sizeof(price));
		report_buf_printf(b, "  %s, %s, %s/h\n", g->name[0] ? g->name : g->id, power,
				  price);
		/* link_bandwidth adds both directions, pcie_bandwidth is one (gpuplan-catalog(5))
		 */
		report_buf_printf(b, "  link %s %s both ways, PCIe %s %s each way\n",
				  g->link[0] ? g->link : "-", link, g->pcie[0] ? g->pcie : "-",
				  pcie);
	}
}

static void catalog_models(struct report_buf *b, const struct catalog *cat)
{
	char last[256] = "\x01";

	report_buf_printf(b, "Models: parameters counted from each config\n\n");
	report_buf_printf(b, "%-16s %7s %7s %6s %6s %8s %7s\n", "ID", "PARAMS", "ACTIVE", "LAYERS",
			  "HIDDEN", "HEADS/KV", "CONTEXT");
	for (int i = 0; i < cat->nmodels; i++) {
		struct model m;
		struct model_params n;
		char tot[32], act[32], hk[32], dir[256];
		const char *base;

		split_path(cat->model_origin[i], dir, sizeof(dir), &base);
		if (strcmp(dir, last) != 0) {
			snprintf(last, sizeof(last), "%s", dir);
			report_buf_printf(b, "(from %s/)\n", dir[0] ? dir : ".");
		}
		model_resolve(&cat->models[i].model, &m, NULL);
		model_count_params(&m, &n);
		units_format_human(UNIT_COUNT, n.total, 3, tot, sizeof(tot));
		units_format_human(UNIT_COUNT, n.active, 3, act, sizeof(act));
		snprintf(hk, sizeof(hk), "%d/%d", m.heads, m.kv_heads ? m.kv_heads : m.heads);
		/* the folder heading says where it came from; name the file when it is not ID.json
		 */
		snprintf(dir, sizeof(dir), "%s.json", cat->models[i].id);
		report_buf_printf(b, "%-16s %7s %7s %6d %6d %8s %7d%s%s\n", cat->models[i].id, tot,
				  act, m.layers, m.hidden, hk, m.max_context,
				  strcmp(base, dir) ? "  " : "", strcmp(base, dir) ? base : "");
	}
}

void report_catalog(struct report_buf *b, const struct catalog *cat, bool gpus, bool models)
{
	if (gpus)
		catalog_gpus(b, cat);
	if (gpus && models)
		report_buf_printf(b, "\n");
	if (models)
		catalog_models(b, cat);
}
