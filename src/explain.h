/* explain.h - how each figure of the report is derived, in words fit for a projector.
 *
 * `gpuplan explain FILE KEY` prints, for one key of the JSON report: the formula in
 * symbols, the same formula with this scenario's numbers, the result, and where the
 * formula comes from. Lines stay within 80 columns. Pure: no allocation, no I/O.
 */
#ifndef GPUPLAN_EXPLAIN_H
#define GPUPLAN_EXPLAIN_H

#include <stddef.h>

#include "error.h"
#include "plan.h"
#include "scenario.h"

/* Writes the explanation of key (as in the JSON report, e.g. "memory.per_gpu.optimizer")
 * for s and its plan p (from plan_compute) into buf, always terminated, truncated at size.
 * Returns 0, or -1 with err saying "unknown key 'x' (did you mean 'y'?)" (GP_EUSAGE). */
int explain_key(const struct scenario *s, const struct plan *p, const char *key, char *buf,
		size_t size, struct gp_error *err);

/* The same, wrapped at width columns (explain_key: 80), or with width 0 one line a
 * paragraph, for a reader that wraps to its own width (the terminal UI). */
int explain_key_wrapped(const struct scenario *s, const struct plan *p, const char *key, int width,
			char *buf, size_t size, struct gp_error *err);

/* The parts of one explanation, for `gpuplan explain --json` (gpuplan(1), EXPLAIN JSON):
 * each the text of its kind of line, several joined by newlines, "" when the explanation has
 * none. formula: "optimizer = trainable parameters x optimizer bytes / shards"; terms: the
 * same with this scenario's numbers, "6.74B x 12 B / 64"; result: "1.18 GiB"; source: where
 * the formula comes from; not_applicable: why the figure does not apply to this scenario. */
struct explain_parts {
	char formula[2048];
	char terms[2048];
	char result[512];
	char source[2048];
	char not_applicable[512];
};

/* explain_key_wrapped, also filling parts (when not NULL) from the same explanation. */
int explain_key_parts(const struct scenario *s, const struct plan *p, const char *key, int width,
		      char *buf, size_t size, struct explain_parts *parts, struct gp_error *err);

/* Every key explain_key knows, NULL-terminated: the figure table's numbers in its order,
 * then its words (memory.fits, bottleneck.binding). Static storage, filled from the table
 * (figure.h) on the first call. */
const char *const *explain_keys(void);

/* The known key closest to key, or NULL when none is close. */
const char *explain_suggest(const char *key);

/* The three verdicts the text report and the results pane give, in the order people should
 * judge a plan (seed case 15): capacity (does it load), then bandwidth and interconnect
 * (does it run well), then compute. */
enum verdict_state { VERDICT_OK, VERDICT_WARN, VERDICT_FAIL };

struct explain_verdict {
	const char *topic; /* "capacity", "bandwidth and interconnect", "compute" */
	const char *key;   /* the figure it stands for: the headroom, the binding, the MFU */
	enum verdict_state state;
	char text[160]; /* one line: "fits: 57 GiB of 80 GiB (71%)" */
};

#define EXPLAIN_VERDICTS 3

/* Fills out[0..2] in that order. */
void explain_verdicts(const struct plan *p, struct explain_verdict out[EXPLAIN_VERDICTS]);

/* One explanation per figure, for the figure table (figure.c): each writes, after the
 * headline "key = value", the formula, its numbers, the result and the source. */
struct ex;

void explain_params(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_vision_params(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_active_params(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_weights(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_gradients(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_optimizer(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_activations(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_kv_cache(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_overhead(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_memory_total(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_allocated(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_reserved(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_capacity(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_headroom(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_fits(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_flops_per_token(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_flops_total(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_mfu(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_step(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_total_time(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_gpu_hours(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_tokens_per_s(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_tokens_per_s_per_gpu(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_ttft(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_tpot(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_ttft_p50(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_ttft_p90(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_ttft_p99(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_tpot_p50(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_tpot_p90(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_tpot_p99(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_e2e_p50(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_e2e_p90(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_e2e_p99(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_ttft_at_slo(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_tpot_at_slo(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_serving_scheduler(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_serving_step_tokens(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_serving_max_running(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_serving_run(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_serving_scheduler_steps(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_serving_batch(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_serving_prefill_per_step(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_serving_requests_per_s(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_serving_concurrency(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_serving_utilisation(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_serving_capacity_rate(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_serving_wait(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_serving_overloaded(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_max_batch(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_replicas(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_gpus_required(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_prefill_engines(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_decode_engines(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_usd_total(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_usd_per_hour(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_usd_per_million_tokens(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_energy(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_interruptions(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_checkpoint_interval(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_goodput(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_binding(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_share_capacity(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_share_compute(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_share_hbm(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_share_interconnect(struct ex *e, const struct scenario *s, const struct plan *p);
void explain_share_data_io(struct ex *e, const struct scenario *s, const struct plan *p);

#endif
