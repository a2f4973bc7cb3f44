/* explain_serving.c - how serving under load, capacity, cost and bottlenecks are derived. */
#include "explain_int.h"

#include "capacity.h"

/* ---- serving under load (src/plan_serve.c, serve) ---- */

static const char *sched_name(const struct plan *p)
{
	int v = isnan(p->serving.scheduler) ? 0 : (int)p->serving.scheduler;
	return scheduler_name(v);
}

/* Not applicable under scheduler alone; true when it is not. */
static bool serving_applies(struct ex *e, const struct scenario *s, const struct plan *p)
{
	if (training(s)) {
		not_applicable(e, "training serves no requests");
		return false;
	}
	if (isnan(p->serving.scheduler)) {
		not_applicable(e, "no load modelled (scheduler alone, or default's auto)");
		return false;
	}
	return true;
}

/* The scheduler's rule, in one paragraph. */
static void serving_rule(struct ex *e, const struct plan *p)
{
	const struct plan_serving *v = &p->serving;
	char text[400];
	switch (sched_of(v->scheduler)) {
	case SCHED_PREFILL_FIRST:
		snprintf(text, sizeof(text),
			 "prefill-first: waiting prompts run as a pass of their own (at most %s "
			 "tokens) before the next decode step, which waits for it;",
			 isnan(v->budget) ? "unlimited" : plain(e, v->budget));
		break;
	case SCHED_CHUNKED:
		snprintf(text, sizeof(text),
			 "chunked: prompt tokens ride in the decode step, at most %s tokens a step "
			 "with the %s decodes;",
			 isnan(v->budget) ? "unlimited" : plain(e, v->budget), plain(e, v->batch));
		break;
	case SCHED_DISAGG:
		if (isnan(v->prefill_engines)) { /* serve_disagg: fewer engines than pools */
			snprintf(text, sizeof(text),
				 "disaggregated: this deployment's engines cannot hold one prefill "
				 "and one decode engine (a prompt's prefill %s, its KV sent in %s; "
				 "DistServe, Splitwise, Dynamo, SGLang PD);",
				 sec(e, v->prefill_s), sec(e, v->kv_transfer_s));
			break;
		}
		snprintf(text, sizeof(text),
			 "disaggregated: %s prefill engines (utilisation %s; a prompt's prefill "
			 "%s, its KV sent in %s) and %s decode engines that only decode "
			 "(DistServe, Splitwise, Dynamo, SGLang PD);",
			 plain(e, v->prefill_engines), pct(e, v->prefill_util),
			 sec(e, v->prefill_s), sec(e, v->kv_transfer_s),
			 plain(e, v->decode_engines));
		break;
	default:
		snprintf(text, sizeof(text),
			 "static: the %s requests start together and each waits for the prefill "
			 "of all their prompts;",
			 plain(e, v->batch));
		break;
	}
	ex_wrapped(e, "  ", text);
	snprintf(text, sizeof(text),
		 "running batch %s (cap %s), %s prompt tokens join a step on average, "
		 "utilisation %s;",
		 plain(e, v->batch), plain(e, v->max_running), plain(e, v->prefill_per_step),
		 pct(e, v->utilisation));
	ex_wrapped(e, "  ", text);
}

static void serving_source(struct ex *e)
{
	source(e, "Little's law (Little 1961); M/D/1 wait (Pollaczek-Khinchine) with its "
		  "exponential tail (Kleinrock, Queueing Systems I, 5.7); chunked prefill: "
		  "Sarathi-Serve (Agrawal et al., OSDI 2024); prefill-first: vLLM v0 and "
		  "SGLang's scheduler; src/plan_serve.c, pt_serve");
}

static void explain_latency_level(struct ex *e, const struct scenario *s, const struct plan *p,
				  const char *what, int lv, double pctl)
{
	const struct plan_serving *v = &p->serving;
	char lhs[32];
	if (!serving_applies(e, s, p))
		return;
	snprintf(lhs, sizeof(lhs), "%s P%g", what, pctl);
	if (v->overloaded && strcmp(what, "tpot") != 0) {
		formula(e, lhs,
			strcmp(what, "ttft") == 0
			    ? "a prompt's own passes + its wait at the percentile"
			    : "ttft at the percentile + (output - 1) x mean tpot");
		result(e, lhs, "unbounded");
		ex_put(e, "\n");
		ex_wrapped(
		    e, "  ",
		    "not itemized: the load exceeds what the replica completes, so the queue "
		    "grows without bound and latency has no steady state (null);");
	} else if (strcmp(what, "ttft") == 0) {
		formula(e, lhs,
			"a prompt's own passes + its wait at the percentile: the step in flight "
			"and the queue at the budget");
		ex_numbers(e, lhs, "%s + %s", sec(e, v->lv_own_s[lv]), sec(e, v->lv_wait_s[lv]));
		result(e, lhs, sec(e, lv < 3 ? v->ttft[lv] : v->ttft_slo_s));
		ex_put(e, "\n");
		ex_wrapped(
		    e, "  ",
		    isfinite(v->measured_scale) /* serve_measured */
			? "measured_tokens_per_s: the prompt's passes are the model's "
			  "scaled to the measured rate, and the wait at level q past the "
			  "empty share 1 - rho the exponential tail of the M/G/1 wait at the "
			  "measured capacity (Kleinrock, Queueing Systems I, 5.7);"
			: !isnan(v->rate) /* an open loop */
			      ? "the wait at level q: q of the step in flight (uniform), and past "
				"the queue's empty share 1 - rho the exponential tail of the wait "
				"at the prompt budget (Kleinrock, Queueing Systems I, 5.7);"
			      : "the wait at level q, a closed loop's: the step in flight (and "
				"any wait for a slot) as its mean, and past the budget's empty "
				"share 1 - rho the exponential tail of the M/D/1 part's mean rho "
				"s / (2 (1 - rho)) (Kleinrock, Queueing Systems I, 5.7), at most "
				"the N - 1 other clients' prompts all ahead, (N - 1) s (a finite "
				"source, 3.10);");
	} else if (strcmp(what, "tpot") == 0 && lv == 3 && !isnan(v->slo_share)) {
		formula(e, lhs,
			"a request's tpot, the mean of its gaps: (1 - f) x decode step + f x "
			"gap with prompts, f the share of its gaps that the percentile's count "
			"of prompts (Poisson) joins");
		ex_numbers(e, lhs, "(1 - %s) x %s + %s x %s", plain(e, v->slo_share),
			   sec(e, v->step_decode_s), plain(e, v->slo_share), sec(e, v->slo_gap_s));
		result(e, lhs, sec(e, v->tpot_slo_s));
		ex_put(e, "\n");
		ex_put(
		    e,
		    "  over %s gaps a request (output - 1, vLLM benchmarks/serve.py's TPOT;\n"
		    "  under an output-length law the harmonic mean: short requests spread it)\n",
		    plain(e, v->slo_gaps));
	} else if (strcmp(what, "tpot") == 0) {
		formula(e, lhs,
			"the gap between tokens (ITL): the decode step + what the percentile's "
			"count of prompts joining the step (Poisson) adds");
		ex_numbers(e, lhs, "%s + %s", sec(e, v->step_decode_s), sec(e, v->lv_add_s[lv]));
		result(e, lhs, sec(e, lv < 3 ? v->tpot[lv] : v->tpot_slo_s));
		ex_put(e, "\n");
		ex_put(e, "  %s prompts join the step at P%g\n", plain(e, v->lv_k[lv]), pctl);
	} else {
		double o = v->lv_out[lv];
		formula(e, lhs, "ttft at the percentile + (output at it - 1) x mean tpot");
		ex_numbers(e, lhs, "%s + %s x %s", sec(e, v->ttft[lv]), plain(e, o > 1 ? o - 1 : 0),
			   sec(e, v->tpot_mean_s));
		result(e, lhs, sec(e, v->e2e[lv]));
		ex_put(e, "\n");
	}
	serving_rule(e, p);
	serving_source(e);
}

#define LEVEL_FN(name, what, lv, pc)                                                               \
	void name(struct ex *e, const struct scenario *s, const struct plan *p)                    \
	{                                                                                          \
		explain_latency_level(e, s, p, what, lv, pc);                                      \
	}
LEVEL_FN(explain_ttft_p50, "ttft", 0, 50)
LEVEL_FN(explain_ttft_p90, "ttft", 1, 90)
LEVEL_FN(explain_ttft_p99, "ttft", 2, 99)
LEVEL_FN(explain_tpot_p50, "tpot", 0, 50)
LEVEL_FN(explain_tpot_p90, "tpot", 1, 90)
LEVEL_FN(explain_tpot_p99, "tpot", 2, 99)
LEVEL_FN(explain_e2e_p50, "e2e", 0, 50)
LEVEL_FN(explain_e2e_p90, "e2e", 1, 90)
LEVEL_FN(explain_e2e_p99, "e2e", 2, 99)

void explain_ttft_at_slo(struct ex *e, const struct scenario *s, const struct plan *p)
{
	explain_latency_level(e, s, p, "ttft", 3, p->serving.slo_percentile);
}

void explain_tpot_at_slo(struct ex *e, const struct scenario *s, const struct plan *p)
{
	explain_latency_level(e, s, p, "tpot", 3, p->serving.slo_percentile);
}

/* A serving figure: its formula, its numbers (NULL or "!why": not itemized, and why),
 * the rule. */
static void serving_plain(struct ex *e, const struct scenario *s, const struct plan *p,
			  const char *lhs, const char *sym, const char *nums, const char *value)
{
	if (!serving_applies(e, s, p))
		return;
	formula(e, lhs, sym);
	if (nums && nums[0] != '!')
		ex_numbers(e, lhs, "%s", nums);
	result(e, lhs, value);
	ex_put(e, "\n");
	if (!nums || nums[0] == '!') {
		char text[300];
		snprintf(text, sizeof(text), "not itemized: %s;", nums ? nums + 1 : "a setting");
		ex_wrapped(e, "  ", text);
	}
	serving_rule(e, p);
	serving_source(e);
}

/* The open loop: an arrival rate per replica (src/plan_serve.c, serve). */
static bool open_loop(const struct plan *p)
{
	return !isnan(p->serving.rate);
}

/* Prompt tokens a prefill computes: those a prefix cache does not hold (serve's g.P). */
static double computed_prompt(const struct scenario *s, const struct plan *p)
{
	double h = isnan(p->prefix_hit) ? s->workload.prefix_cache_hit : p->prefix_hit;
	return prompt_tokens(s) * (h > 0 && h < 1 ? 1 - h : 1);
}

void explain_serving_scheduler(struct ex *e, const struct scenario *s, const struct plan *p)
{
	serving_plain(e, s, p, "scheduler",
		      "workload.scheduler, auto resolved to the framework's (vllm, trt-llm, "
		      "llama.cpp: chunked; sglang: prefill-first; no framework named: vLLM V1's "
		      "chunked on a CUDA-graph engine, alone under llama.cpp kernels)",
		      "!a setting, or the framework's default (src/framework.c)", sched_name(p));
}

void explain_serving_step_tokens(struct ex *e, const struct scenario *s, const struct plan *p)
{
	serving_plain(e, s, p, "budget",
		      "workload.max_batched_tokens, or the framework's (vLLM "
		      "max_num_batched_tokens 2048 online, 8192 offline, 8192 and 16384 on GPUs of "
		      "70 GiB or more but the A100; SGLang chunked_prefill_size 2048/8192/16384 "
		      "by GPU memory, TensorRT-LLM max_num_tokens 8192); null: unlimited",
		      "!a setting, or the framework's default (src/framework.c)",
		      isnan(p->serving.budget) ? "unlimited" : plain(e, p->serving.budget));
}

/* The running cap the engine applies: workload.max_running, or the engine's
 * (framework_serving: vLLM's by GPU and usage context); 0: what the KV cache holds. */
static double engine_cap(const struct scenario *s, const struct plan *p)
{
	const struct workload *w = &s->workload;
	struct serving_engine eng;
	framework_serving(w->framework, w->scheduler, p->engine == ENGINE_CUDA_GRAPHS,
			  w->kind == WL_OFFLINE, s->hardware.gpu.memory_bytes, s->hardware.gpu.id,
			  &eng);
	return w->max_running > 0 ? w->max_running : eng.max_running;
}

void explain_serving_max_running(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct plan_serving *v = &p->serving;
	double maxb = p->max_batch >= 1 ? p->max_batch : 1;
	double set = engine_cap(s, p) > 0 ? engine_cap(s, p) : maxb;
	double r = computed_prompt(s, p) / output_tokens(s);
	char nums[160];
	struct text_acc n = text_acc_on(nums, sizeof(nums));
	text_add(&n, "min(%s, %s", plain(e, set), plain(e, maxb));
	if (sched_of(v->scheduler) == SCHED_CHUNKED && !isnan(v->budget) &&
	    floor((v->budget + r) / (1 + r)) >= 1)
		text_add(&n, ", %s", plain(e, floor((v->budget + r) / (1 + r))));
	text_add(&n, ")");
	serving_plain(e, s, p, "cap",
		      "min(workload.max_running or the framework's (vLLM max_num_seqs 256, 1024 "
		      "on GPUs of 70 GiB or more but the A100; SGLang 4096, TensorRT-LLM "
		      "max_batch_size 2048), the sequences whose KV "
		      "cache fits, and under chunked the batch the budget can refill: "
		      "(T + P/O) / (1 + P/O))",
		      v->max_running > 1 ? nums : "!one sequence at the least",
		      plain(e, v->max_running));
}

void explain_serving_scheduler_steps(struct ex *e, const struct scenario *s, const struct plan *p)
{
	serving_plain(e, s, p, "steps",
		      "workload.scheduler_steps, or the framework's: 1 (vLLM v0 "
		      "--num-scheduler-steps, SGLang --num-continuous-decode-steps); the host's "
		      "per-step share is paid once a block, and a request joins only at a "
		      "block's first step, (steps - 1) / 2 steps later on average",
		      "!a setting", plain(e, p->serving.scheduler_steps));
}

void explain_serving_batch(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct plan_serving *v = &p->serving;
	const struct workload *w = &s->workload;
	char nums[160];
	if (sched_of(v->scheduler) == SCHED_DISAGG && isnan(v->prefill_engines))
		snprintf(nums, sizeof(nums), "!no pools on these engines (the warning): %s",
			 plain(e, v->batch));
	else if (open_loop(p) && v->overloaded)
		snprintf(nums, sizeof(nums), "!the arrivals outrun the replica: its cap, %s",
			 plain(e, v->max_running));
	else if (open_loop(p))
		snprintf(nums, sizeof(nums), "%s x %s", plain(e, v->rate), sec(e, v->e2e_run_s));
	else
		snprintf(nums, sizeof(nums), "min(%s, %s)",
			 plain(e, w->kind == WL_OFFLINE && w->concurrency <= 0
				      ? (w->batch > 0 ? w->batch : v->max_running)
				      : v->concurrency),
			 plain(e, v->max_running));
	serving_plain(e, s, p, "batch",
		      "under an arrival rate B = rate x e2e(B) (Little's law, solved); in a closed "
		      "loop min(concurrency, cap); offline the cap",
		      nums, plain(e, v->batch));
}

void explain_serving_prefill_per_step(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct plan_serving *v = &p->serving;
	char nums[160];
	double B = v->batch;
	if (sched_of(v->scheduler) == SCHED_STATIC)
		snprintf(nums, sizeof(nums), "!a static batch takes no prompt while it runs");
	else if (sched_of(v->scheduler) == SCHED_DISAGG)
		snprintf(nums, sizeof(nums), "!a decode engine takes no prompt (disaggregated)");
	else if (B <= 1)
		snprintf(nums, sizeof(nums), "!one request: no other finishes");
	else if (sched_of(v->scheduler) == SCHED_CHUNKED && isfinite(v->room))
		snprintf(nums, sizeof(nums), "min((%s - 1) x %s / %s, %s)", plain(e, B),
			 plain(e, computed_prompt(s, p)), plain(e, output_tokens(s)),
			 plain(e, v->room));
	else
		snprintf(nums, sizeof(nums), "(%s - 1) x %s / %s", plain(e, B),
			 plain(e, computed_prompt(s, p)), plain(e, output_tokens(s)));
	serving_plain(e, s, p, "tokens",
		      "(B - 1) x prompt / output: each of the others finishes once per output "
		      "steps and its successor's prompt joins",
		      nums, plain(e, v->prefill_per_step));
}

void explain_serving_requests_per_s(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct plan_serving *v = &p->serving;
	char nums[160];
	if (v->overloaded)
		snprintf(nums, sizeof(nums), "!the arrivals outrun it: its capacity_rate");
	else if (open_loop(p))
		snprintf(nums, sizeof(nums), "!the arrivals per replica, serving.rate");
	else if (v->closed_wait_s > 0)
		snprintf(nums, sizeof(nums), "%s / (%s + %s)", plain(e, v->batch),
			 sec(e, v->e2e_run_s), sec(e, v->closed_wait_s));
	else
		snprintf(nums, sizeof(nums), "%s / %s", plain(e, v->batch), sec(e, v->e2e_run_s));
	serving_plain(e, s, p, "requests/s",
		      "the arrival rate per replica when it is served; in a closed loop batch / "
		      "(e2e + the wait at the prompt budget) (Little's law)",
		      nums, plain(e, v->requests_per_s));
}

void explain_serving_concurrency(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct plan_serving *v = &p->serving;
	char nums[160];
	if (open_loop(p) && !v->overloaded)
		snprintf(nums, sizeof(nums), "%s x (%s + %s)", plain(e, v->requests_per_s),
			 sec(e, v->e2e_run_s), sec(e, v->wait_s));
	else
		snprintf(nums, sizeof(nums), "!%s",
			 v->overloaded ? "the queue grows without bound"
				       : "the closed loop's (workload.concurrency, or the batch)");
	serving_plain(e, s, p, "concurrency",
		      "requests/s x (e2e + wait) (Little's law), or the closed loop's", nums,
		      isnan(v->concurrency) && v->overloaded ? "unbounded"
							     : plain(e, v->concurrency));
}

void explain_serving_utilisation(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct plan_serving *v = &p->serving;
	char nums[160];
	if (sched_of(v->scheduler) == SCHED_DISAGG && open_loop(p))
		/* the busier pool's (src/plan_serve.c, serve_disagg) */
		snprintf(nums, sizeof(nums), "!the busier pool's: prefill %s, decode %s / %s",
			 pct(e, v->prefill_util), plain(e, v->rate), plain(e, v->capacity_rate));
	else if (open_loop(p) && v->prompt_svc_s > 0 &&
		 v->utilisation > v->rate / v->capacity_rate * (1 + 1e-9))
		/* the prompt budget binds first (src/plan_serve.c, serve_levels) */
		snprintf(nums, sizeof(nums), "%s x %s", plain(e, v->rate), sec(e, v->prompt_svc_s));
	else if (open_loop(p))
		snprintf(nums, sizeof(nums), "%s / %s", plain(e, v->rate),
			 plain(e, v->capacity_rate));
	else /* a closed loop: the running slots its clients hold (plan_serve.c serve_load) */
		snprintf(nums, sizeof(nums), "%s / %s", plain(e, v->batch),
			 plain(e, v->max_running));
	serving_plain(e, s, p, "utilisation",
		      "rate per replica / the most it completes at the cap, or rate x s "
		      "(s a prompt's hold on the token budget) when that is more; 1 or more: "
		      "it cannot meet the load; a closed loop (no rate): running batch / "
		      "running cap",
		      nums, pct(e, v->utilisation));
}

void explain_serving_capacity_rate(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct plan_serving *v = &p->serving;
	const struct workload *w = &s->workload;
	char nums[160];
	bool measured = w->measured_tokens_per_s > 0 && sched_of(v->scheduler) != SCHED_DISAGG;
	if (measured && open_loop(p))
		snprintf(nums, sizeof(nums), "%s x %s / %s", plain(e, w->measured_tokens_per_s),
			 plain(e, replica_gpus(p)), plain(e, output_tokens(s)));
	else if (open_loop(p))
		snprintf(nums, sizeof(nums), "%s / %s", plain(e, v->max_running),
			 sec(e, v->e2e_cap_s));
	else if (v->closed_wait_s > 0)
		snprintf(nums, sizeof(nums), "%s / (%s + %s)", plain(e, v->batch),
			 sec(e, v->e2e_cap_s), sec(e, v->closed_wait_s));
	else
		snprintf(nums, sizeof(nums), "%s / %s", plain(e, v->batch), sec(e, v->e2e_cap_s));
	serving_plain(e, s, p, "capacity",
		      measured && open_loop(p)
			  ? "measured tokens/s per GPU x GPUs a replica / output tokens"
			  : "cap / e2e(cap): the replica's requests/s when full",
		      nums, plain(e, v->capacity_rate));
}

void explain_serving_wait(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct plan_serving *v = &p->serving;
	char nums[160];
	if (v->overloaded) {
		/* no steady state: serving.wait_s is null (src/plan_serve.c, serve_levels) */
		serving_plain(e, s, p, "wait",
			      "the step in flight + the wait at the prompt budget, which needs "
			      "rate x s < 1 (s a prompt's hold on the budget) and the rate under "
			      "the replica's capacity",
			      "!the arrivals outrun the replica or its prompt budget, so the queue "
			      "grows without bound (Kleinrock, Queueing Systems I, 1975, 5.5)",
			      "unbounded");
		return;
	}
	if (isfinite(v->measured_scale)) {
		/* src/plan_serve.c serve_measured: the queue at the measured capacity */
		snprintf(nums, sizeof(nums), "%s x (1 + %s) / (2 x %s x (1 - %s))",
			 plain(e, v->utilisation),
			 plain(e, plan_length_cv2(&s->workload.output_length,
						  s->workload.output_tokens)),
			 plain(e, v->capacity_rate), plain(e, v->utilisation));
		serving_plain(e, s, p, "wait",
			      "measured_tokens_per_s: the M/G/1 wait at the measured capacity mu "
			      "(GPUs x measured / output requests/s a replica), rho (1 + cv^2) / "
			      "(2 mu (1 - rho)) (Pollaczek-Khinchine; rho = rate / mu, cv^2 the "
			      "output length law's, 0 fixed); the model's service times scaled to "
			      "the measured rate",
			      nums, sec(e, v->wait_s));
		snprintf(nums, sizeof(nums),
			 "service times x %s: the model's engine at the batch completes %s "
			 "requests/s, the measurement %s;",
			 plain(e, v->measured_scale),
			 plain(e, v->capacity_rate * v->measured_scale),
			 plain(e, v->capacity_rate));
		ex_wrapped(e, "  ", nums);
		return;
	}
	if (!open_loop(p) && v->closed_wait_s > 0) {
		/* src/plan_serve.c closed_wait, then the requests beyond the cap (serve_load) */
		const char *w = sec(e, v->closed_wait_s);
		if (v->concurrency > v->batch)
			snprintf(nums, sizeof(nums), "%s + (%s - %s) x (%s + %s) / %s", w,
				 plain(e, v->concurrency), plain(e, v->batch), sec(e, v->e2e_run_s),
				 w, plain(e, v->batch));
		else if (v->scheduler_steps > 1)
			snprintf(nums, sizeof(nums),
				 "%s x %s / (2 x (1 - %s)) + (1 - %s) x %s + (%s - 1) / 2 x %s",
				 plain(e, v->closed_rho), sec(e, v->prompt_svc_s),
				 plain(e, v->closed_rho), plain(e, v->closed_rho),
				 sec(e, v->step_decode_s), plain(e, v->scheduler_steps),
				 sec(e, v->tpot_mean_s));
		else
			snprintf(nums, sizeof(nums), "%s x %s / (2 x (1 - %s)) + (1 - %s) x %s",
				 plain(e, v->closed_rho), sec(e, v->prompt_svc_s),
				 plain(e, v->closed_rho), plain(e, v->closed_rho),
				 sec(e, v->step_decode_s));
		serving_plain(
		    e, s, p, "wait",
		    "closed loop: the step in flight, a decode step unless a prompt "
		    "rides it, (1 - rho) x decode + the M/D/1 wait behind the others' "
		    "prompts at the budget, rho s / (2 (1 - rho)) (Pollaczek-Khinchine; "
		    "s = P / F x a pass of F = the room tokens, under multi-step chunked "
		    "a block over the k = floor(F / P) whole prompts it takes (vLLM does "
		    "not chunk them: _chunk_new_tokens_to_schedule), the pass and steps "
		    "- 1 decode steps; rho = s x the N - 1 "
		    "others' requests/s, the arrival theorem), + under multi-step the "
		    "wait for a block's first step, (steps - 1) / 2 steps, + the requests "
		    "beyond the cap, (C - B) (e2e + W) / B",
		    nums, sec(e, v->wait_s));
		return;
	}
	snprintf(nums, sizeof(nums), "%s / 2 + %s", sec(e, v->wait_res_s), sec(e, v->wait_queue_s));
	serving_plain(e, s, p, "wait",
		      s->workload.prompt_length.dist != DIST_FIXED
			  ? "half the step in flight (the block of scheduler_steps steps) + the "
			    "M/G/1 wait at the prompt budget, rho s "
			    "(1 + cv^2) / (2 (1 - rho)) (Pollaczek-Khinchine; cv^2 the prompt "
			    "length law's, workload.prompt_length); closed loop: the requests "
			    "beyond the cap, (C - B) e2e / B"
			  : "half the step in flight (the block of scheduler_steps steps) + the "
			    "M/D/1 wait at the prompt budget, rho s / "
			    "(2 (1 - rho)) (Pollaczek-Khinchine); closed loop: the requests beyond "
			    "the cap, (C - B) e2e / B",
		      nums, sec(e, v->wait_s));
}

/* serving.run_s: a finite run of workload.requests (src/plan_serve.c, finite_run). */
void explain_serving_run(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct plan_serving *v = &p->serving;
	/* the slowest replica's share, as serve's finite run takes it */
	double N = ceil(s->workload.requests / deployed(s, p) - 1e-9),
	       B = v->batch > 1 ? v->batch : 1;
	double full = floor(N / B + 1e-9);
	double wait = isfinite(v->closed_wait_s) ? v->closed_wait_s : 0;
	char nums[200];
	if (!serving_applies(e, s, p))
		return;
	if (isnan(v->run_s)) {
		not_applicable(e, !(s->workload.requests > 0)
				      ? "workload.requests is 0: the figures are the steady state's"
				  : sched_of(v->scheduler) == SCHED_DISAGG
				      ? "requests unused: disaggregated pools run at steady state"
				      : "requests unused: measured_tokens_per_s stands");
		return;
	}
	if (open_loop(p) && !v->overloaded) {
		snprintf(nums, sizeof(nums), "(%s - 1) / %s + %s", plain(e, N), plain(e, v->rate),
			 sec(e, v->e2e_mean_s));
		serving_plain(e, s, p, "run",
			      "(requests per replica - 1) / rate + e2e: the last request sent, "
			      "then its own latency (bench_serving get_request, benchmark)",
			      nums, sec(e, v->run_s));
		return;
	}
	if (open_loop(p)) {
		/* overloaded: the larger of the waves and the arrivals' span + e2e at the cap */
		double span = (N > 1 ? N - 1 : 0) / v->rate + v->e2e_cap_s;
		char n2[160];
		if (fabs(v->run_s - span) <= 1e-9 * v->run_s)
			snprintf(n2, sizeof(n2), "(%s - 1) / %s + %s", plain(e, N),
				 plain(e, v->rate), sec(e, v->e2e_cap_s));
		else /* the waves, as below */
			snprintf(n2, sizeof(n2), "%s x (%s + %s) + %s", plain(e, full),
				 sec(e, v->e2e_run_s), sec(e, wait),
				 sec(e, v->run_s - full * (v->e2e_run_s + wait)));
		serving_plain(e, s, p, "run",
			      "the arrivals outrun the engine: the larger of its waves (floor(N / "
			      "B) x e2e + the N mod B left) and (N - 1) / rate + e2e at the cap",
			      n2, sec(e, v->run_s));
		return;
	}
	if (wait > 0)
		snprintf(nums, sizeof(nums), "%s x (%s + %s) + %s", plain(e, full),
			 sec(e, v->e2e_run_s), sec(e, wait),
			 sec(e, v->run_s - full * (v->e2e_run_s + wait)));
	else
		snprintf(nums, sizeof(nums), "%s x %s + %s", plain(e, full), sec(e, v->e2e_run_s),
			 sec(e, v->run_s - full * v->e2e_run_s));
	serving_plain(e, s, p, "run",
		      wait > 0
			  ? "floor(N / B) waves of (the running batch's e2e + the wait for the "
			    "others' prompts at the budget) + the e2e of the N mod B left (N "
			    "requests per replica, all sent at once or by B clients)"
			  : "floor(N / B) waves of the running batch's e2e + the e2e of the N "
			    "mod B left (N requests per replica, all sent at once or by B "
			    "clients)",
		      nums, sec(e, v->run_s));
}

/* serving.overloaded: the arrivals per replica against the most it completes, under any
 * scheduler (alone: the planned batch's throughput; a measured throughput when given). */
void explain_serving_overloaded(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct workload *w = &s->workload;
	const struct plan_serving *v = &p->serving;
	double peak = w->requests_per_s > 0 ? w->requests_per_s
					    : w->requests_per_day * w->peak_factor / 86400;
	double span = (double)p->tp * p->pp, n = s->hardware.count > 0 ? s->hardware.count : 1;
	double deployed = floor(n / span) >= 1 ? floor(n / span) : 1;
	double O = w->output_tokens > 0 ? w->output_tokens : 1, cap;

	if (training(s)) {
		not_applicable(e, "training");
		return;
	}
	if (!(w->kind == WL_ONLINE && peak > 0 && w->concurrency <= 0)) {
		not_applicable(e, "no arrival rate (requests_per_day, requests_per_s)");
		return;
	}
	cap = !isnan(v->capacity_rate) ? v->capacity_rate : p->tokens_per_s / deployed / O;
	formula(e, "overloaded", "peak requests/s / replicas >= the most a replica completes");
	ex_numbers(e, "overloaded", "%s / %s >= %s", plain(e, peak), plain(e, deployed),
		   plain(e, cap));
	result(e, "overloaded", v->overloaded ? "true" : "false");
	ex_put(e, "\n");
	ex_wrapped(e, "  ", "not itemized: a comparison of two rates");
	if (w->measured_tokens_per_s > 0)
		ex_wrapped(e, "  ",
			   "the most a replica completes is the measured throughput: "
			   "workload.measured_tokens_per_s x tp x pp / output tokens");
	else if (isnan(v->scheduler))
		ex_wrapped(
		    e, "  ",
		    "scheduler alone: the replica's throughput at the planned batch / output "
		    "tokens; its TTFT and TPOT stay a lone request's, which no queue delays");
	else
		ex_wrapped(e, "  ", "the loaded engine at its running cap (serving.capacity_rate)");
	if (v->overloaded && !isnan(v->scheduler))
		ex_wrapped(
		    e, "  ",
		    "arrivals faster than completions grow the queue without bound: the time "
		    "to first token has no steady state (null in the JSON report, unbounded in "
		    "the text); capacity_plan.gpus_required gives the fleet that keeps up");
	else if (v->overloaded)
		ex_wrapped(e, "  ",
			   "arrivals faster than completions grow the queue without bound; "
			   "capacity_plan.gpus_required gives the fleet that keeps up");
	source(e, "queueing stability: an M/G/1 queue has a steady state only at utilisation "
		  "below 1 (Kleinrock, Queueing Systems I, 1975, Section 5.5)");
}

/* ---- capacity plan, cost, energy, reliability ---- */

/* The memory at B = max_batch and at one more sequence, so that the class sees the
 * answer is the last B that fits. */
static void max_batch_check(struct ex *e, const struct plan *p)
{
	const struct plan_memory *m = &p->mem;
	double kv = m->kv_bytes_per_token * m->kv_tokens_per_seq;
	for (int i = 0; i < 2; i++) {
		double B = p->max_batch + i;
		double used = (1 + PLAN_FRAGMENTATION) *
				  (m->weights + B * kv +
				   fmax(m->activations_per_layer, B * m->decode_bytes_per_seq)) +
			      m->cuda_context + m->comm_buffers;
		char lhs[40], fits[80], text[300];
		if (B < 1)
			continue;
		snprintf(lhs, sizeof(lhs), "memory with %s %s", plain(e, B),
			 B == 1 ? "sequence" : "sequences");
		snprintf(text, sizeof(text), "%s x (%s + %s x %s + max(%s, %s x %s)) + %s + %s",
			 plain(e, 1 + PLAN_FRAGMENTATION), byt(e, m->weights), plain(e, B),
			 byt(e, kv), byt(e, m->activations_per_layer), plain(e, B),
			 byt(e, m->decode_bytes_per_seq), byt(e, m->cuda_context),
			 byt(e, m->comm_buffers));
		ex_put(e, "\n");
		formula(e, lhs, text);
		snprintf(fits, sizeof(fits), "%s (%s %s)", byt(e, used),
			 used <= m->capacity ? "fits in" : "over", byt(e, m->capacity));
		result(e, lhs, fits);
	}
}

/* max_batch under a serving framework's KV rule (plan_memory.c: the rule replaces the fit):
 * the sequences whose whole blocks the pool holds, the pool the budget in whole blocks.
 * max_batch stays that KV bound: the prefix cache keeps prefixes in the blocks the running
 * batch leaves free ((max_batch - B) sequences, plan_infer.c prefix_tiers) and
 * serving.max_running applies the engine's running cap; the cap is shown beside it. */
static void max_batch_kv_rule(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct plan_memory *m = &p->mem;
	const struct framework_info *fw = framework_get(s->workload.framework);
	double blk = fw->kv_block_tokens > 0 ? fw->kv_block_tokens : 1;
	double bb = blk * m->kv_bytes_per_token;
	double per_seq = ceil(m->kv_tokens_per_seq / blk);
	double blocks = bb > 0 ? floor(fmax(0, m->kv_budget) / bb) : 0;
	double state = m->kv_seq_bytes - per_seq * bb, B = p->max_batch;
	double frac = s->workload.gpu_memory_utilization > 0
			  ? s->workload.gpu_memory_utilization
			  : framework_mem_fraction(s->workload.framework, p->tp);
	double cap = engine_cap(s, p);
	const char *cap_name = fw->kv_rule == KV_RULE_STATIC ? "max_running_requests"
			       : fw->kv_rule == KV_RULE_FREE ? "max_batch_size"
							     : "max_num_seqs";
	char a[32], b[32], lhs[48];

	if (state < 1)
		state = 0;
	snprintf(a, sizeof(a), "%.0f", blocks);
	if (state > 0) {
		/* each sequence its blocks and a recurrent state slot (vLLM's MambaSpec) */
		formula(e, "max_batch",
			"floor(pool / (blocks a sequence x block tokens x bytes per token + "
			"recurrent state))");
		ex_numbers(e, "max_batch", "floor(%s / (%s x %s x %s + %s))", byt(e, blocks * bb),
			   plain(e, per_seq), plain(e, blk), byt(e, m->kv_bytes_per_token),
			   byt(e, state));
	} else {
		formula(e, "max_batch", "floor(blocks / blocks a sequence)");
		ex_numbers(e, "max_batch", "floor(%s / %s)", a, plain(e, per_seq));
	}
	result(e, "max_batch", plain(e, B));
	ex_put(e, "\n");
	ex_wrapped(e, "  ",
		   "the most sequences the KV pool holds under the framework's own rule (no "
		   "allocator slack: the pool is allocated once, in blocks)");
	ex_put(e, "\n");
	formula(e, "blocks a sequence", "ceil(tokens a sequence / block tokens)");
	ex_numbers(e, "blocks a sequence", "ceil(%s / %s)", plain(e, m->kv_tokens_per_seq),
		   plain(e, blk));
	result(e, "blocks a sequence", plain(e, per_seq));
	ex_put(e, "\n");
	if (m->kv_budget > 0) {
		formula(e, "blocks", "floor(KV budget / (block tokens x bytes per token))");
		ex_numbers(e, "blocks", "floor(%s / (%s x %s))", byt(e, m->kv_budget),
			   plain(e, blk), byt(e, m->kv_bytes_per_token));
		result(e, "blocks", a);
	} else
		ex_put(e,
		       "  blocks = 0: the KV budget leaves no room; not even one sequence fits\n");
	ex_put(e, "\n");
	ex_kv_budget_lines(e, fw, m, frac);
	if (state == 0 && per_seq > 0 && B < 1e8 && p->pp == 1) {
		/* the last B whose blocks the pool holds, and one more */
		ex_put(e, "\n");
		for (int i = 0; i < 2; i++) {
			if (B + i < 1)
				continue;
			snprintf(lhs, sizeof(lhs), "%.0f %s x %s blocks", B + i,
				 B + i == 1 ? "sequence" : "sequences", plain(e, per_seq));
			snprintf(b, sizeof(b), "%.0f", (B + i) * per_seq);
			ex_put(e, "  %s = %s blocks (%s %s)\n", lhs, b,
			       (B + i) * per_seq <= blocks ? "fits in" : "over", a);
		}
	}
	if (p->pp > 1)
		ex_put(e, "  (on the tighter of the first and the last pipeline stage;\n"
			  "  the numbers are the more loaded one's)\n");
	if (cap > 0) {
		char text[300];
		snprintf(text, sizeof(text),
			 "running cap: %s %s (%s); min(cap, max_batch) = %s: the %s binds. "
			 "max_batch stays the KV pool's bound (the prefix cache's free blocks "
			 "are counted from it); serving.max_running is the running batch",
			 s->workload.max_running > 0 ? "workload.max_running" : fw->title,
			 plain(e, cap), s->workload.max_running > 0 ? "set" : cap_name,
			 plain(e, fmin(cap, B)), B < cap ? "KV pool" : "running cap");
		ex_put(e, "\n");
		ex_wrapped(e, "  ", text);
	}
	if (!isnan(p->slo_batch))
		ex_put(e, "\n  the SLO allows at most %s\n", plain(e, p->slo_batch));
	ex_put(e, "\n");
	ex_wrapped(e, "  framework: ",
		   framework_title(s->workload.framework, true, p->engine == ENGINE_CUDA_GRAPHS));
	source(e, fw->kv_rule == KV_RULE_STATIC
		      ? "SGLang python/sglang/srt/model_executor/model_runner.py "
			"profile_max_num_token (rest = free after load - total x (1 - "
			"mem_fraction_static)); server_args.py mem_fraction_static"
		  : fw->kv_rule == KV_RULE_FREE
		      ? "TensorRT-LLM tensorrt_llm/llmapi/llm_args.py KvCacheConfig "
			"free_gpu_memory_fraction; tokens_per_block in "
			"tensorrt_llm/_torch/pyexecutor/resource_manager.py"
		      : "vLLM vllm/worker/worker.py determine_num_available_blocks (budget = "
			"gpu_memory_utilization x total - peak torch - non-torch, in blocks of "
			"block_size); vllm/config.py CacheConfig");
}

enum capacity_figure { CP_MAX_BATCH, CP_REPLICAS, CP_GPUS_REQUIRED };

/* The total time of s at count GPUs (dp from the count, as plan_deadline_gpus plans it):
 * "at 128 GPUs: total = tokens / tokens per second = 1T / 1.22M tok/s = 9.46 d". */
static void deadline_try(struct ex *e, const struct scenario *s0, double count)
{
	struct scenario s = *s0;
	struct plan q;
	char lhs[48];

	s.hardware.count = (int)count;
	s.parallel.dp = 0;
	plan_compute(&s, &q);
	snprintf(lhs, sizeof(lhs), "total at %s GPUs", plain(e, count));
	ex_put(e, "\n");
	formula(e, lhs, "tokens / tokens per second");
	ex_numbers(e, lhs, "%s / %s tok/s", cnt(e, s.workload.tokens), cnt(e, q.tokens_per_s));
	ex_put(e, "  %*s = %s (%s the %s deadline%s)\n", (int)strlen(lhs), "", sec(e, q.total_s),
	       q.total_s <= s.workload.deadline_s ? "meets" : "misses",
	       sec(e, s.workload.deadline_s), q.mem.fits ? "" : "; does not fit");
}

/* capacity_plan.gpus_required for training: the count plan_deadline_gpus finds, shown at
 * that count and one replica fewer, and where the FLOPs formula at this plan's MFU starts */
static void deadline_gpus(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct workload *w = &s->workload;
	double span = (double)scenario_replica_gpus(s);
	bool fits_somewhere = !isnan(plan_deadline_gpus(s, true));

	if (p->cp > 1) {
		formula(e, "gpus", "replicas x tp x pp x ep x cp");
		ex_numbers(e, "gpus", "%s x %d x %d x %d x %d", plain(e, p->gpus_required / span),
			   s->parallel.tp, s->parallel.pp, s->parallel.ep, s->parallel.cp);
	} else {
		formula(e, "gpus", "replicas x tp x pp x ep");
		ex_numbers(e, "gpus", "%s x %d x %d x %d", plain(e, p->gpus_required / span),
			   s->parallel.tp, s->parallel.pp, s->parallel.ep);
	}
	result(e, "gpus", plain(e, p->gpus_required));
	ex_put(e, "\n");
	ex_wrapped(e, "  ",
		   fits_somewhere
		       ? "replicas: the fewest at which the plan, dp from the count and whole "
			 "micro-batches a step, fits and meets the deadline (as goal seek, solve "
			 "--min hardware.count, finds)"
		       : "replicas: the fewest at which the plan, dp from the count and whole "
			 "micro-batches a step, meets the deadline; memory fits at no count, so "
			 "goal seek finds none");
	deadline_try(e, s, p->gpus_required);
	if (p->gpus_required > span)
		deadline_try(e, s, p->gpus_required - span);
	ex_put(e, "\n");
	formula(e, "FLOPs alone", "ceil(FLOPs / (peak x MFU x deadline))");
	ex_numbers(e, "FLOPs alone", "ceil(%s / (%s x %s x %s))", h(e, UNIT_NONE, p->flops_total),
		   h(e, UNIT_FLOPS, p->peak_flops), pct(e, p->mfu), sec(e, w->deadline_s));
	result(e, "FLOPs alone",
	       plain(e, ceil(p->flops_total / (p->peak_flops * p->mfu * w->deadline_s) - 1e-9)));
	ex_wrapped(
	    e, "  ",
	    "at this plan's MFU, on its GPU count; the MFU changes with the count, and a "
	    "step runs whole micro-batches, so the count that meets the deadline can differ");
	ex_peak_note(e, s, p);
	source(e,
	       "seed_cases.md, case 6: FLOPs / (GPU FLOP/s x efficiency x seconds), tried at whole "
	       "replicas with the time model; the article's printed 4.25 A100s for "
	       "LLaMA-33B does not follow from its own formula");
}

/* One planned count of the loaded fleet, as serve_fleet quotes it (i = 0: the answer,
 * 1: one fewer). */
static void fleet_point(struct ex *e, const struct plan *p, double count, int i)
{
	const struct plan_serving *v = &p->serving;
	if (!(count >= 1) || (isnan(v->fleet_ttft_s[i]) && isnan(v->fleet_util[i])))
		return;
	if (isnan(v->fleet_ttft_s[i]) && isnan(v->fleet_tpot_s[i])) {
		ex_put(e, "  at %s replicas: utilisation %s%s\n", plain(e, count),
		       pct(e, v->fleet_util[i]), v->fleet_util[i] >= 1 ? " (the queue grows)" : "");
		return;
	}
	ex_put(e, "  at %s replicas: TTFT %s, TPOT %s at P%s, utilisation %s (%s)\n",
	       plain(e, count), sec(e, v->fleet_ttft_s[i]), sec(e, v->fleet_tpot_s[i]),
	       plain(e, v->slo_percentile), pct(e, v->fleet_util[i]), i == 0 ? "meets" : "misses");
}

/* capacity_plan.slo_batch, below max_batch: under prefill-first and chunked the loaded
 * step's bound (src/plan_serve.c, loaded_slo_batch), else the lone decode step's. */
static void slo_batch_line(struct ex *e, const struct plan *p)
{
	int sched = sched_of(p->serving.scheduler);
	if (isnan(p->slo_batch))
		return;
	ex_put(e, "\n  the SLO allows at most %s\n", plain(e, p->slo_batch));
	if (sched == SCHED_CHUNKED || sched == SCHED_PREFILL_FIRST)
		ex_wrapped(
		    e, "  ",
		    "under load: the largest running batch B whose steps, its decodes plus the "
		    "(B - 1) x prompt / output tokens that join them at B's own rate B / e2e "
		    "(Little's law), meet the SLO at its percentile, as serving.* reports the "
		    "engine at that batch");
	else
		ex_wrapped(e, "  ", "from the decode step alone (no prompt joins it)");
}

/* capacity_plan.fewest under capacity_plan.gpus_required and replicas: the layout of one
 * node that meets the load with the fewest GPUs, when not the file's (src/capacity.c). */
static void fewest_layout(struct ex *e, const struct scenario *s, const struct plan *p)
{
	struct capacity_fewest f;
	struct parallel lay, file = {.tp = p->tp, .pp = p->pp, .ep = 1}; /* ep 1: not written */
	char text[400], at[160] = "", lays[48], files[48];

	if (!capacity_fewest(s, p, &f))
		return;
	lay = (struct parallel){.tp = f.tp, .pp = f.pp, .ep = f.ep};
	units_format_layout(&lay, UNITS_LAYOUT_TIMES_EP, false, lays, sizeof(lays));
	units_format_layout(&file, UNITS_LAYOUT_TIMES, false, files, sizeof(files));
	if (!isnan(f.ttft_slo_s) || !isnan(f.tpot_slo_s))
		snprintf(at, sizeof(at), "; there TTFT %s and TPOT %s at P%s, %s",
			 isnan(f.ttft_slo_s) ? "-" : sec(e, f.ttft_slo_s),
			 isnan(f.tpot_slo_s) ? "-" : sec(e, f.tpot_slo_s),
			 plain(e, p->serving.slo_percentile),
			 f.meets ? "meeting the target" : "missing the target");
	snprintf(text, sizeof(text),
		 "fewer GPUs (capacity_plan.fewest): %s meets the load with "
		 "%s GPUs (%s replicas) at batch %s under %s, against %s at the file's %s%s",
		 lays, plain(e, f.gpus_required), plain(e, f.replicas), plain(e, round(f.batch)),
		 isnan(f.scheduler) ? "the decode step alone" : scheduler_name((int)f.scheduler),
		 isfinite(f.file_gpus) ? plain(e, f.file_gpus)
		 : p->mem.fits	       ? "none"
				       : "none (it does not fit)",
		 files, at);
	ex_put(e, "\n");
	ex_wrapped(e, "  ", text);
	ex_put(e, "\n");
	snprintf(text, sizeof(text),
		 "planned over the %d other tp x pp layouts of one node the framework runs (tp "
		 "dividing the heads and kv heads), each sized for the same load and SLO; "
		 "gpus_required stays at the file's layout",
		 f.tried);
	ex_wrapped(e, "  ", text);
}

/* capacity_plan.replicas and gpus_required under a scheduler other than alone: the rule
 * serve_fleet (src/plan_serve.c) applied, with its numbers. */
static void fleet_capacity(struct ex *e, const struct scenario *s, const struct plan *p,
			   enum capacity_figure what)
{
	const struct plan_serving *v = &p->serving;
	const struct workload *w = &s->workload;
	double ep = v->fleet_engines, span = replica_gpus(p) * ep;
	int rule = (int)v->fleet_rule;
	char text[400];

	/* the fixed rate's fleet past gpuplan's ceiling is none (plan_serve.c pt_serve) */
	bool over = rule == FLEET_THROUGHPUT && isnan(p->replicas);

	if (what == CP_GPUS_REQUIRED && rule != FLEET_CANNOT && !over) {
		formula(e, "gpus", "replicas x tp x pp x ep");
		ex_numbers(e, "gpus", "%s x %d x %d x %s", plain(e, p->replicas), p->tp, p->pp,
			   plain(e, ep));
		result(e, "gpus", plain(e, p->gpus_required));
		ex_put(e, "\n");
	}
	if (rule == FLEET_THROUGHPUT) {
		const char *r = over ? "needed" : "replicas";
		formula(e, r, "ceil(requests/s needed / (requests/s per engine x ep))");
		ex_numbers(e, r, "ceil(%s / (%s x %s))", plain(e, v->fleet_rate),
			   plain(e, v->requests_per_s), plain(e, ep));
		if (over) {
			result(e, r,
			       plain(e, ceil(v->fleet_rate / (v->requests_per_s * ep) - 1e-9)));
			snprintf(
			    text, sizeof(text),
			    "replicas: none (cannot meet), past the most gpuplan plans, %s GPUs "
			    "(src/plan.h)",
			    cnt(e, PLAN_MAX_GPUS));
			ex_put(e, "\n");
			ex_wrapped(e, "  ", text);
		} else {
			result(e, r, plain(e, p->replicas));
		}
		ex_put(e, "\n");
		ex_wrapped(
		    e, "  ",
		    "a closed loop (workload.concurrency) or an offline batch completes a fixed "
		    "rate per engine under the loaded step; its latencies do not change with the "
		    "count");
		source(e, "Little's law (Little 1961): completions = concurrency / e2e");
		return;
	}
	if (rule == FLEET_STABLE) {
		formula(e, "replicas", "the fewest R with peak rate / (R x ep) < capacity_rate");
		ex_numbers(e, "replicas", "the fewest R with %s / (R x %s) < %s requests/s",
			   plain(e, v->fleet_rate), plain(e, ep), plain(e, v->capacity_rate));
	} else {
		formula(
		    e, "replicas",
		    "the fewest R with utilisation < 1, TTFT <= slo.ttft and TPOT <= slo.tpot "
		    "at the SLO percentile, each of R x ep engines taking peak rate / (R x ep)");
		snprintf(text, sizeof(text),
			 "%s requests/s over R x %s engines, TTFT <= %s, TPOT <= %s at P%s",
			 plain(e, v->fleet_rate), plain(e, ep),
			 w->slo.ttft_s > 0 ? sec(e, w->slo.ttft_s) : "any",
			 w->slo.tpot_s > 0 ? sec(e, w->slo.tpot_s) : "any",
			 plain(e, v->slo_percentile));
		ex_numbers(e, "replicas", "%s", text);
	}
	if (rule == FLEET_CANNOT) {
		result(e, "replicas", "none (cannot meet)");
		if (!isnan(v->fleet_lone_ttft_s)) {
			snprintf(text, sizeof(text),
				 "a lone request, the floor no count goes below: TTFT %s, TPOT %s "
				 "at P%s",
				 sec(e, v->fleet_lone_ttft_s), sec(e, v->fleet_lone_tpot_s),
				 plain(e, v->slo_percentile));
			ex_put(e, "\n");
			ex_wrapped(e, "  ", text);
		}
		ex_put(e, "  the most planned is %s GPUs\n", cnt(e, PLAN_MAX_GPUS));
	} else {
		result(e, "replicas", plain(e, p->replicas));
		ex_put(e, "\n");
		fleet_point(e, p, p->replicas, 0);
		fleet_point(e, p, p->replicas - 1, 1);
		if (rule == FLEET_SLO)
			ex_put(e, "  a lone request, the floor: TTFT %s, TPOT %s at P%s\n",
			       sec(e, v->fleet_lone_ttft_s), sec(e, v->fleet_lone_tpot_s),
			       plain(e, v->slo_percentile));
	}
	if (rule == FLEET_SLO || rule == FLEET_STABLE)
		ex_wrapped(
		    e, "  ",
		    "search and solve --min hardware.count apply the same test at the "
		    "scenario's count (plan_serving_meets): a layout meets when its queue is "
		    "stable, the SLO holds at the percentile and the GPUs required are no more "
		    "than hardware.count; under a load search ranks layouts by these GPUs (by "
		    "cost: their USD per hour)");
	if (rule != FLEET_CANNOT && sched_of(v->scheduler) == SCHED_DISAGG) {
		/* src/plan_serve.c, serve_disagg: each pool sized for its own target */
		ex_put(e, "\n");
		formula(e, "engines",
			"prefill engines (the fewest whose M/D/1 TTFT meets slo.ttft at the "
			"percentile) + decode engines (the fewest whose batch at slo.tpot carries "
			"the rate)");
		ex_numbers(e, "engines", "%s + %s", plain(e, v->fleet_prefill),
			   plain(e, v->fleet_decode));
		result(e, "engines", plain(e, p->replicas));
	}
	if (rule != FLEET_CANNOT || (isfinite(v->fleet_stable) && isfinite(v->capacity_rate))) {
		/* the stable count, serve_fleet's lower bound: each engine at its cap
		 * completes capacity_rate requests/s (where no count meets the SLO, the count
		 * the search started from) */
		ex_put(e, "\n");
		formula(e, "stable",
			"ceil(peak rate / (ep x capacity_rate)): the fewest replicas whose engines "
			"at their cap complete the peak");
		ex_numbers(e, "stable", "ceil(%s / (%s x %s))", plain(e, v->fleet_rate),
			   plain(e, ep), plain(e, v->capacity_rate));
		result(e, "stable", plain(e, v->fleet_stable));
	}
	if (what != CP_GPUS_REQUIRED && rule != FLEET_CANNOT)
		ex_put(e, "\n  GPUs required = replicas x tp x pp x ep = %s x %s = %s\n",
		       plain(e, p->replicas), plain(e, span), plain(e, p->gpus_required));
	snprintf(text, sizeof(text),
		 "the %s scheduler's loaded step and its M/D/1 queue (see latency.ttft_at_slo_s), "
		 "planned at whole replicas as plan_compute plans hardware.count = replicas x tp "
		 "x pp x ep; %s model evaluation%s",
		 sched_name(p), plain(e, v->fleet_evals), v->fleet_evals == 1 ? "" : "s");
	fewest_layout(e, s, p);
	source(e, text);
}

static void ex_capacity_plan(struct ex *e, const struct scenario *s, const struct plan *p,
			     enum capacity_figure what)
{
	const struct workload *w = &s->workload;
	double B, tps;
	bool at_slo;
	if (what == CP_MAX_BATCH) {
		if (training(s) || isnan(p->max_batch)) {
			not_applicable(e, "training: the batch is given");
			return;
		}
		if (framework_get(w->framework)->kv_rule != KV_RULE_FIT) {
			max_batch_kv_rule(e, s, p);
			return;
		}
		/* the inequality src/plan_memory.c solves, with this plan's numbers: the answer
		 * is the largest B that keeps it true */
		formula(e, "max_batch",
			"the most sequences B with (1 + fragmentation) (weights + B x KV per "
			"sequence + max(prefill, B x decode working set)) + CUDA context + comm "
			"buffers <= capacity");
		ex_numbers(e, "max_batch",
			   "the most B with %s (%s + B x %s + max(%s, B x %s)) + %s + %s <= %s",
			   plain(e, 1 + PLAN_FRAGMENTATION), byt(e, p->mem.weights),
			   byt(e, p->mem.kv_bytes_per_token * p->mem.kv_tokens_per_seq),
			   byt(e, p->mem.activations_per_layer),
			   byt(e, p->mem.decode_bytes_per_seq), byt(e, p->mem.cuda_context),
			   byt(e, p->mem.comm_buffers), byt(e, p->mem.capacity));
		result(e, "max_batch", plain(e, p->max_batch));
		if (p->max_batch < 1)
			ex_put(e, "\n  not even one sequence fits (below)\n");
		ex_put(e, "\n  KV per sequence = %s per token x %s tokens\n",
		       byt(e, p->mem.kv_bytes_per_token), plain(e, p->mem.kv_tokens_per_seq));
		if (p->pp == 1 && p->max_batch < 1e8)
			max_batch_check(e, p);
		else if (p->pp > 1)
			ex_put(e, "  (on the tighter of the first and the last pipeline stage;\n"
				  "  the numbers are the last's)\n");
		slo_batch_line(e, p);
		source(e,
		       "seed_cases.md, case 16: KV cache = context x sequences x bytes per token");
		return;
	}
	if (training(s) && what == CP_REPLICAS) {
		not_applicable(e, "training: see capacity_plan.gpus_required");
		return;
	}
	if (!training(s) && !isnan(p->serving.fleet_rule)) {
		fleet_capacity(e, s, p, what);
		return;
	}
	if (isnan(p->gpus_required) && !training(s)) {
		/* alone: a target the lone request misses sizes no fleet (src/plan_serve.c) */
		for (int i = 0; i < p->nwarnings; i++) {
			const struct plan_warning *pw = &p->warnings[i];
			bool ttft = pw->code == PW_SLO_UNREACHABLE_TTFT;
			if (pw->code == PW_FLEET_OVER_MAX) {
				/* plan_infer.c: the count past PLAN_MAX_GPUS is no fleet; the most
				 * replicas planned, and that the load needs more */
				formula(e, "most", "floor(PLAN_MAX_GPUS / GPUs a replica)");
				ex_numbers(e, "most", "floor(%s / %s)", cnt(e, PLAN_MAX_GPUS),
					   plain(e, pw->b));
				result(e, "most", plain(e, pw->a));
				ex_put(e, "\n");
				ex_wrapped(
				    e, "  ",
				    "replicas: none (cannot meet): the load needs more than the "
				    "most replicas gpuplan plans");
				/* what gave a replica's tokens/s: a measurement, or the lone step
				 */
				source(e, s->workload.measured_tokens_per_s > 0
					      ? "a replica's tokens/s from "
						"workload.measured_tokens_per_s "
						"(a measurement); gpuplan's ceiling of 1e8 GPUs "
						"(src/plan.h)"
					      : "the decode step alone (workload.scheduler alone); "
						"gpuplan's ceiling of 1e8 GPUs (src/plan.h)");
				return;
			}
			if (!ttft && pw->code != PW_SLO_UNREACHABLE_TPOT)
				continue;
			formula(e, "replicas",
				ttft ? "none when prefill(prompt) > slo.ttft"
				     : "none when decode step(batch 1) > slo.tpot");
			ex_numbers(e, "replicas", "none: %s > %s", sec(e, pw->a), sec(e, pw->b));
			result(e, "replicas", "none (cannot meet)");
			ex_wrapped(
			    e, "  ",
			    "a lone request's latency is the floor no number of replicas goes "
			    "below; loosen the target, or change the layout (tp, the weights' "
			    "format) or the GPU");
			source(e, "the decode step alone (workload.scheduler alone)");
			return;
		}
	}
	if (isnan(p->gpus_required)) {
		not_applicable(e, training(s)
				      ? "no deadline (workload.deadline) is given"
				      : "no load (requests_per_day, requests_per_s) or deadline "
					"given");
		return;
	}
	if (training(s)) {
		deadline_gpus(e, s, p);
		return;
	}
	/* the throughput of one replica at the batch the plan sizes for: the measured rate,
	 * or the modelled one at the scenario's batch; when an explicit batch misses the
	 * SLO the plan sizes at the SLO's batch, whose throughput the plan does not keep */
	if (what == CP_GPUS_REQUIRED) {
		formula(e, "gpus", "replicas x tp x pp");
		ex_numbers(e, "gpus", "%s x %d x %d", plain(e, p->replicas), p->tp, p->pp);
		result(e, "gpus", plain(e, p->gpus_required));
		ex_put(e, "\n");
	}
	B = plan_batch(s, p);
	at_slo = !isnan(p->slo_batch) && p->slo_batch >= 1 && p->slo_batch < B &&
		 !(w->measured_tokens_per_s > 0);
	tps = w->measured_tokens_per_s > 0 ? w->measured_tokens_per_s * replica_gpus(p)
					   : p->tokens_per_s / deployed(s, p);
	if (w->kind == WL_ONLINE && w->requests_per_s > 0) /* it takes precedence */
		formula(e, "replicas", "ceil(requests/s x output / tokens/s per replica)");
	else if (w->kind == WL_ONLINE)
		formula(e, "replicas",
			"ceil(requests/day x peak x output / 86400 / tokens/s per replica)");
	else
		formula(e, "replicas", "ceil(tokens / (deadline x tokens/s per replica))");
	if (!at_slo && w->kind == WL_ONLINE && w->requests_per_s > 0)
		ex_numbers(e, "replicas", "ceil(%s x %s / %s)", plain(e, w->requests_per_s),
			   plain(e, output_tokens(s)), plain(e, tps));
	else if (!at_slo && w->kind == WL_ONLINE)
		ex_numbers(e, "replicas", "ceil(%s x %s x %s / 86400 / %s)",
			   cnt(e, w->requests_per_day), plain(e, w->peak_factor),
			   plain(e, output_tokens(s)), plain(e, tps));
	else if (!at_slo)
		ex_numbers(e, "replicas", "ceil(%s / (%s x %s))", cnt(e, w->tokens),
			   sec(e, w->deadline_s), plain(e, tps));
	result(e, "replicas", plain(e, p->replicas));
	if (at_slo) {
		char text[200];
		snprintf(text, sizeof(text),
			 "not itemized: the plan sizes replicas at the SLO's batch of %s, not "
			 "the %s set, and does not report that batch's tokens/s",
			 plain(e, p->slo_batch), plain(e, B));
		ex_wrapped(e, "  ", text);
	}
	ex_put(e, "\n");
	if (w->kind == WL_ONLINE && w->requests_per_s > 0) {
		formula(e, "tokens/s needed", "requests/s x output");
		ex_numbers(e, "tokens/s needed", "%s x %s", plain(e, w->requests_per_s),
			   plain(e, output_tokens(s)));
		result(e, "tokens/s needed", cnt(e, w->requests_per_s * output_tokens(s)));
	} else if (w->kind == WL_ONLINE) {
		formula(e, "tokens/s needed", "requests/day x peak x output / 86400");
		ex_numbers(e, "tokens/s needed", "%s x %s x %s / 86400",
			   cnt(e, w->requests_per_day), plain(e, w->peak_factor),
			   plain(e, output_tokens(s)));
		result(e, "tokens/s needed",
		       cnt(e, w->requests_per_day * w->peak_factor * output_tokens(s) / 86400));
	} else {
		formula(e, "tokens/s needed", "tokens / deadline");
		ex_numbers(e, "tokens/s needed", "%s / %s", cnt(e, w->tokens),
			   sec(e, w->deadline_s));
		result(e, "tokens/s needed", cnt(e, w->tokens / w->deadline_s));
	}
	if (what != CP_GPUS_REQUIRED)
		ex_put(e, "\n  GPUs required = replicas x tp x pp = %s x %s = %s\n",
		       plain(e, p->replicas), plain(e, replica_gpus(p)),
		       plain(e, p->gpus_required));
	if (w->measured_tokens_per_s > 0)
		ex_put(e, "  throughput is the measured %s tokens/s per GPU\n",
		       plain(e, w->measured_tokens_per_s));
	fewest_layout(e, s, p);
	source(e, "seed_cases.md, cases 7 and 8, rounded up");
}

void explain_max_batch(struct ex *e, const struct scenario *s, const struct plan *p)
{
	ex_capacity_plan(e, s, p, CP_MAX_BATCH);
}

void explain_replicas(struct ex *e, const struct scenario *s, const struct plan *p)
{
	ex_capacity_plan(e, s, p, CP_REPLICAS);
}

void explain_gpus_required(struct ex *e, const struct scenario *s, const struct plan *p)
{
	ex_capacity_plan(e, s, p, CP_GPUS_REQUIRED);
}

/* capacity_plan.prefill_engines and decode_engines: one pool of the disaggregated capacity
 * plan (src/plan_serve.c, serve_disagg: each pool sized for its own target, the TTFT's
 * and the TPOT's), then the pools' sum, the replicas. */
static void disagg_pool(struct ex *e, const struct scenario *s, const struct plan *p, bool prefill)
{
	const struct plan_serving *v = &p->serving;
	const struct slo *slo = &s->workload.slo;
	double n = prefill ? v->fleet_prefill : v->fleet_decode;
	char text[240];

	if (sched_of(v->scheduler) != SCHED_DISAGG) {
		not_applicable(e, "one engine runs both phases (not disaggregated)");
		return;
	}
	if (isnan(n)) {
		/* serve_disagg sizes a pool only under an arrival rate, and not where a lone
		 * request misses the pool's target */
		not_applicable(e, isnan(v->fleet_rate)
				      ? "no arrival rate to size the pool for"
				      : "no count meets this pool's target (see gpus_required)");
		return;
	}
	if (prefill) {
		formula(e, "prefill engines",
			slo->ttft_s > 0 ? "the fewest N whose M/D/1 queue of prompts, each taking "
					  "peak rate / N, keeps TTFT <= slo.ttft at the percentile"
					: "the fewest N whose queue of prompts, each taking peak "
					  "rate / N, is stable (no slo.ttft)");
		snprintf(text, sizeof(text), "%s requests/s over N engines, TTFT <= %s at P%s",
			 plain(e, v->fleet_rate), slo->ttft_s > 0 ? sec(e, slo->ttft_s) : "any",
			 plain(e, v->slo_percentile));
	} else {
		formula(e, "decode engines",
			slo->tpot_s > 0 ? "the fewest N whose running batch at slo.tpot carries "
					  "peak rate / N each"
					: "the fewest N whose running cap carries peak rate / N "
					  "each (no slo.tpot)");
		snprintf(text, sizeof(text), "%s requests/s over N engines, TPOT <= %s",
			 plain(e, v->fleet_rate), slo->tpot_s > 0 ? sec(e, slo->tpot_s) : "any");
	}
	ex_numbers(e, prefill ? "prefill engines" : "decode engines", "%s", text);
	result(e, prefill ? "prefill engines" : "decode engines", plain(e, n));
	ex_put(e, "\n");
	if (isfinite(v->fleet_ttft_s[0]))
		ex_put(e, "  at %s + %s engines: TTFT %s, TPOT %s at P%s\n",
		       plain(e, v->fleet_prefill), plain(e, v->fleet_decode),
		       sec(e, v->fleet_ttft_s[0]), sec(e, v->fleet_tpot_s[0]),
		       plain(e, v->slo_percentile));
	if (isfinite(p->replicas)) {
		ex_put(e, "\n");
		formula(e, "replicas", "prefill engines + decode engines");
		ex_numbers(e, "replicas", "%s + %s", plain(e, v->fleet_prefill),
			   plain(e, v->fleet_decode));
		result(e, "replicas", plain(e, p->replicas));
		ex_put(e, "\n  each engine is tp x pp = %d GPUs; see capacity_plan.gpus_required\n",
		       p->tp * p->pp);
	}
	/* the split is the plan's; this count runs the file's (or the plan's ratio) */
	if (isnan(v->prefill_engines)) /* serve_disagg: fewer engines than the two pools */
		ex_put(e, "  this count's engines cannot hold one prefill and one decode\n"
			  "  engine: disaggregation does not run here (no throughput)\n");
	else
		ex_put(e, "  this count runs %s + %s engines (%s)\n", plain(e, v->prefill_engines),
		       plain(e, v->decode_engines),
		       s->workload.prefill_engines > 0 || s->workload.decode_engines > 0
			   ? "the file's split"
			   : "the plan's ratio");
	if (isfinite(v->fleet_split_gpus))
		ex_put(e, "  the file's split meets from %s GPUs (whole multiples of it)\n",
		       plain(e, v->fleet_split_gpus));
	else if (s->workload.prefill_engines > 0 || s->workload.decode_engines > 0)
		ex_put(e,
		       "  the file's split meets at no count (a pinned pool below its fewest)\n");
	source(e, "DistServe (Zhong et al. 2024, Section 3): each pool sized for its own "
		  "latency target");
}

void explain_prefill_engines(struct ex *e, const struct scenario *s, const struct plan *p)
{
	disagg_pool(e, s, p, true);
}

void explain_decode_engines(struct ex *e, const struct scenario *s, const struct plan *p)
{
	disagg_pool(e, s, p, false);
}

static void cost_source(struct ex *e)
{
	source(e, "hardware.price_per_gpu_hour (indicative catalog prices)");
}

void explain_usd_per_hour(struct ex *e, const struct scenario *s, const struct plan *p)
{
	formula(e, "usd/hour", "price per GPU-hour x GPUs");
	ex_numbers(e, "usd/hour", "%s/h x %d", h(e, UNIT_USD, s->hardware.gpu.price_per_hour),
		   s->hardware.count);
	result(e, "usd/hour", h_unit(e, UNIT_USD, p->usd_per_hour, "/h"));
	cost_source(e);
}

void explain_usd_total(struct ex *e, const struct scenario *s, const struct plan *p)
{
	if (isnan(p->usd_total)) {
		not_applicable(e, "no total time");
		return;
	}
	formula(e, "usd", "price per GPU-hour x GPUs x total time");
	ex_numbers(e, "usd", "%s/h x %d x %s", h(e, UNIT_USD, s->hardware.gpu.price_per_hour),
		   s->hardware.count, sec(e, p->total_s));
	result(e, "usd", h(e, UNIT_USD, p->usd_total));
	cost_source(e);
}

void explain_usd_per_million_tokens(struct ex *e, const struct scenario *s, const struct plan *p)
{
	(void)s;
	formula(e, "usd/Mtok", "usd per hour / (tokens per second x 3600 s per hour) x 1M");
	ex_numbers(e, "usd/Mtok", "%s / (%s x 3600) x 1M", h(e, UNIT_USD, p->usd_per_hour),
		   plain(e, p->tokens_per_s));
	result(e, "usd/Mtok", h(e, UNIT_USD, p->usd_per_million_tokens));
	cost_source(e);
}

void explain_energy(struct ex *e, const struct scenario *s, const struct plan *p)
{
	if (isnan(p->kwh)) {
		not_applicable(e, "no total time, or no power figure");
		return;
	}
	formula(e, "kwh", "board power x GPUs x total time x PUE");
	ex_numbers(e, "kwh", "%s x %d x %s x %s", h(e, UNIT_WATTS, s->hardware.gpu.power_w),
		   s->hardware.count, sec(e, p->total_s),
		   plain(e, s->hardware.pue > 0 ? s->hardware.pue : 1));
	units_format_energy(p->kwh, e->num[e->nn % 16], sizeof(e->num[0]));
	result(e, "kwh", e->num[e->nn++ % 16]);
	ex_put(e, "\n  board power at load, unscaled: busy GPUs run near it\n");
	source(e, "seed_cases.md, case 17; PUE from hardware.pue (The Green Grid)");
}

/* The two terms of the checkpoint interval (src/plan_train.c): a checkpoint holds the
 * weights and the optimizer states, written by every node at the storage bandwidth (or
 * PLAN_CKPT_BYTES_PER_S_PER_NODE when hardware.storage is not given); the job fails as
 * often as any of its GPUs. */
static void checkpoint_terms(struct ex *e, const struct scenario *s, const struct plan *p,
			     double mtbf_job)
{
	double wb = p->mem.weight_bytes_per_param > 0 ? p->mem.weight_bytes_per_param
						      : (dtype_bytes(p->precision) >= 4 ? 4 : 2);
	double gpn = s->hardware.gpu.gpus_per_node > 0 ? s->hardware.gpu.gpus_per_node : 8;
	double nodes = ceil((s->hardware.count > 0 ? s->hardware.count : 1) / gpn);
	double bw = s->hardware.storage_bytes_per_s > 0 ? s->hardware.storage_bytes_per_s
							: PLAN_CKPT_BYTES_PER_S_PER_NODE;
	ex_put(e, "\n");
	formula(e, "write time",
		"(parameters x weight bytes + trainable x optimizer bytes) / (storage "
		"bandwidth x nodes)");
	ex_numbers(e, "write time", "(%s x %s B + %s x %s B) / (%s x %s)", cnt(e, p->params),
		   plain(e, wb), cnt(e, p->trainable_params),
		   plain(e, p->mem.optimizer_bytes_per_param), h(e, UNIT_BYTES_PER_S, bw),
		   plain(e, nodes));
	result(e, "write time", sec(e, p->checkpoint_write_s));
	if (!(s->hardware.storage_bytes_per_s > 0))
		ex_put(e, "  (hardware.storage not given: %s per node assumed)\n",
		       h(e, UNIT_BYTES_PER_S, PLAN_CKPT_BYTES_PER_S_PER_NODE));
	ex_put(e, "\n");
	formula(e, "MTBF of the job", "MTBF per GPU / GPUs");
	ex_numbers(e, "MTBF of the job", "%s h / %d", plain(e, s->hardware.mtbf_gpu_hours),
		   s->hardware.count);
	result(e, "MTBF of the job", sec(e, mtbf_job));
}

/* Whether the plan models reliability; says why not when it does not. */
static bool reliability_applies(struct ex *e, const struct plan *p)
{
	if (!isnan(p->expected_interruptions))
		return true;
	not_applicable(e, "reliability is modelled for training runs with a token count");
	return false;
}

/* The job's mean time between failures, in seconds: any of its GPUs failing stops it. */
static double mtbf_job_s(const struct scenario *s)
{
	return s->hardware.mtbf_gpu_hours * 3600 / s->hardware.count;
}

void explain_interruptions(struct ex *e, const struct scenario *s, const struct plan *p)
{
	if (!reliability_applies(e, p))
		return;
	formula(e, "interruptions", "GPUs x total time / MTBF per GPU");
	ex_numbers(e, "interruptions", "%d x %s / %s h", s->hardware.count, sec(e, p->total_s),
		   plain(e, s->hardware.mtbf_gpu_hours));
	result(e, "interruptions", plain(e, p->expected_interruptions));
	source(e, "Llama 3 paper, Table 5: 419 unexpected interruptions, 16,384 GPUs, "
		  "54 days");
}

void explain_checkpoint_interval(struct ex *e, const struct scenario *s, const struct plan *p)
{
	double mtbf_job = mtbf_job_s(s);

	if (!reliability_applies(e, p))
		return;
	formula(e, "interval", "sqrt(2 x checkpoint write time x MTBF of the job)");
	ex_numbers(e, "interval", "sqrt(2 x %s x %s)", sec(e, p->checkpoint_write_s),
		   sec(e, mtbf_job));
	result(e, "interval", sec(e, p->checkpoint_interval_s));
	checkpoint_terms(e, s, p, mtbf_job);
	source(e, "Young 1974; Daly 2006; the Llama 3 paper for the MTBF per GPU");
}

void explain_goodput(struct ex *e, const struct scenario *s, const struct plan *p)
{
	double mtbf_job = mtbf_job_s(s);

	if (!reliability_applies(e, p))
		return;
	formula(e, "goodput", "1 - write / interval - (interval / 2 + restart) / MTBF");
	ex_numbers(e, "goodput", "1 - %s / %s - (%s / 2 + %s) / %s", sec(e, p->checkpoint_write_s),
		   sec(e, p->checkpoint_interval_s), sec(e, p->checkpoint_interval_s),
		   sec(e, PLAN_RESTART_S), sec(e, mtbf_job));
	result(e, "goodput", pct(e, p->goodput));
	source(e, "Young/Daly; Llama 3 reports more than 90% effective training time");
}

/* ---- bottlenecks ---- */

/* A measured rate (workload.measured_tokens_per_s) or MFU (efficiency.mfu) pins the time,
 * not how it divides: say whose step the shares are of. Training scales every part by the
 * measured step over the model's (src/plan_train.c), so the shares are the model's; an
 * inference plan keeps the model's own step and scales only the throughput and the time. */
static void share_measured(struct ex *e, const struct scenario *s, const struct plan *p)
{
	const struct workload *w = &s->workload;
	struct scenario m = *s;
	struct plan q;
	char text[400];

	if (!(w->measured_tokens_per_s > 0) && !(training(s) && s->efficiency.mfu > 0))
		return;
	m.workload.measured_tokens_per_s = 0;
	m.efficiency.mfu = 0;
	plan_compute(&m, &q);
	if (training(s))
		snprintf(text, sizeof(text),
			 "%s pins the step at %s; the model alone gives %s, and its parts are "
			 "scaled by %s to add up to the measured step, so these are the model's "
			 "shares, not measured ones",
			 w->measured_tokens_per_s > 0 ? "workload.measured_tokens_per_s"
						      : "efficiency.mfu",
			 sec(e, p->step_s), sec(e, q.step_s), plain(e, p->step_s / q.step_s));
	else
		snprintf(text, sizeof(text),
			 "workload.measured_tokens_per_s pins the throughput (%s tokens/s per GPU "
			 "measured, %s modelled) and the time, not the step: these are shares of "
			 "the model's own step, not measured ones",
			 plain(e, w->measured_tokens_per_s), plain(e, q.tokens_per_s_per_gpu));
	ex_put(e, "\n");
	ex_wrapped(e, "  ", text);
}

static void ex_share(struct ex *e, const struct scenario *s, const struct plan *p,
		     enum bottleneck b)
{
	const struct plan_time_parts *t = &p->parts;
	const struct plan_decode *d = &p->decode;
	const struct plan_share_weigh *wg = &p->share_weigh;
	/* a loaded engine's shares weigh the prefill in (plan_infer.c
	 * pt_weigh_prefill_shares): the decode step's share first, under its own name */
	bool weigh = !training(s) && wg->prefill_s > 0 && b >= BN_COMPUTE && b <= BN_INTERCONNECT;
	const char *dn = weigh ? "decode share" : NULL;
	if (weigh) {
		const char *nm = bottleneck_name(b);
		int k = b - BN_COMPUTE;
		char f[96];
		snprintf(f, sizeof(f),
			 "(decode share x decode + prefill's %s) / (decode + prefill)",
			 b == BN_COMPUTE ? "FLOP time"
			 : b == BN_HBM	 ? "traffic"
					 : "comm");
		formula(e, nm, f);
		ex_numbers(e, nm, "(%s x %s + %s) / (%s + %s)", pct(e, wg->decode[k]),
			   sec(e, wg->decode_s), sec(e, wg->part_s[k]), sec(e, wg->decode_s),
			   sec(e, wg->prefill_s));
		result(e, nm, pct(e, p->shares[b]));
		if (isfinite(p->serving.scheduler) && (int)p->serving.scheduler == SCHED_DISAGG)
			/* plan_serve.c pt_serve: the fleet's shares, both pools */
			ex_put(e,
			       "\n  per request: its prompt's share of a prefill engine's batched\n"
			       "  pass and its share 1 / batch of a decode engine's steps; the\n"
			       "  pools' engines are alike (tp x pp GPUs), so each pool weighs in\n"
			       "  by its GPUs x busy time: the fleet's shares, not one pool's\n\n");
		else
			ex_put(e,
			       "\n  per request: its prompt's prefill pass and its share 1 / batch "
			       "of\n"
			       "  the decode steps of its output tokens, as the loaded engine runs "
			       "them\n\n");
	}
	switch (b) {
	case BN_CAPACITY:
		formula(e, "capacity", "memory used / memory of the GPU");
		ex_numbers(e, "capacity", "%s / %s", byt(e, p->mem.total), byt(e, p->mem.capacity));
		break;
	case BN_COMPUTE:
		if (training(s)) {
			formula(e, "compute", "(matmuls + attention) / step");
			ex_numbers(e, "compute", "(%s + %s) / %s", sec(e, t->matmul_s),
				   sec(e, t->attention_s), sec(e, p->step_s));
		} else {
			/* the FLOP time of a decode step: attention counts by its FLOPs here,
			 * by its KV read under hbm_bandwidth */
			formula(e, dn ? dn : "compute",
				"(GEMM FLOP time + attention FLOP time) / decode step");
			ex_numbers(e, dn ? dn : "compute", "(%s + %s) / %s", sec(e, d->gemm_s),
				   sec(e, d->attention_flops_s), sec(e, d->step_s));
		}
		break;
	case BN_HBM:
		if (training(s)) {
			formula(e, "hbm_bandwidth", "(memory-bound ops + optimizer) / step");
			ex_numbers(e, "hbm_bandwidth", "(%s + %s) / %s", sec(e, t->memory_bound_s),
				   sec(e, t->optimizer_s), sec(e, p->step_s));
		} else {
			formula(e, dn ? dn : "hbm_bandwidth",
				"(weight read + KV cache read + elementwise) / decode step");
			ex_numbers(e, dn ? dn : "hbm_bandwidth", "(%s + %s + %s) / %s",
				   sec(e, d->weight_read_s), sec(e, d->kv_read_s),
				   sec(e, d->elementwise_s), sec(e, d->step_s));
		}
		break;
	case BN_INTERCONNECT:
		if (training(s)) {
			formula(e, "interconnect",
				"(TP + PP + exposed DP + ZeRO-3 + EP + offload) / step");
			ex_numbers(e, "interconnect", "(%s + %s + %s + %s + %s + %s) / %s",
				   sec(e, t->tp_comm_s), sec(e, t->pp_comm_s), sec(e, t->dp_comm_s),
				   sec(e, t->zero3_s), sec(e, t->ep_comm_s), sec(e, t->offload_s),
				   sec(e, p->step_s));
		} else {
			formula(
			    e, dn ? dn : "interconnect",
			    "(TP all-reduces + EP all-to-alls + pipeline hand-offs) / decode step");
			ex_numbers(e, dn ? dn : "interconnect", "(%s + %s + %s) / %s",
				   sec(e, t->tp_comm_s), sec(e, t->ep_comm_s), sec(e, t->pp_comm_s),
				   sec(e, d->step_s));
		}
		break;
	default:
		if (!training(s)) {
			not_modelled(e, "serving reads prompts from the network, not a training\n"
					"  corpus from storage");
			return;
		}
		if (s->hardware.storage_bytes_per_s <= 0) {
			formula(e, "data_io",
				"token bytes per step / storage bandwidth, over the step");
			not_modelled(e, "hardware.storage is not given");
			return;
		}
		formula(e, "data_io", "tokens x bytes per token / (storage x nodes) / step");
		ex_numbers(
		    e, "data_io", "%d x %d x %s B / (%s x %s) / %s", p->global_batch,
		    s->workload.seq_len, plain(e, PLAN_DATA_BYTES_PER_TOKEN),
		    h(e, UNIT_BYTES_PER_S, s->hardware.storage_bytes_per_s),
		    plain(e, ceil(s->hardware.count / (double)(s->hardware.gpu.gpus_per_node > 0
								   ? s->hardware.gpu.gpus_per_node
								   : 8))),
		    sec(e, p->step_s - p->parts.data_s));
		break;
	}
	if (weigh)
		result(e, dn, pct(e, wg->decode[b - BN_COMPUTE]));
	else
		result(e, bottleneck_name((enum bottleneck)b), pct(e, p->shares[b]));
	if (b == BN_CAPACITY) {
		ex_put(
		    e,
		    "\n  binding: %s\n  (capacity when it does not fit, else the largest share of "
		    "the time)\n",
		    bottleneck_name(p->binding));
		source(e, "memory used over the GPU's memory: the first verdict (seed_cases.md, "
			  "case 15)");
		return;
	}
	if (b == BN_DATA_IO && p->shares[b] > 1)
		ex_put(e, "\n  above 100%%: the GPUs wait for data (the step is %s)\n",
		       sec(e, p->step_s));
	share_measured(e, s, p);
	ex_put(e,
	       "\n  binding: %s\n  (capacity when it does not fit, else the largest share of the "
	       "time)\n",
	       bottleneck_name(p->binding));
	source(e, weigh ? "shares of a request's time, its prefill and its decode steps "
			  "(loaded inference)"
			: "shares of the step time (training) or of a decode step (inference)");
}

void explain_share_capacity(struct ex *e, const struct scenario *s, const struct plan *p)
{
	ex_share(e, s, p, BN_CAPACITY);
}

void explain_share_compute(struct ex *e, const struct scenario *s, const struct plan *p)
{
	ex_share(e, s, p, BN_COMPUTE);
}

void explain_share_hbm(struct ex *e, const struct scenario *s, const struct plan *p)
{
	ex_share(e, s, p, BN_HBM);
}

void explain_share_interconnect(struct ex *e, const struct scenario *s, const struct plan *p)
{
	ex_share(e, s, p, BN_INTERCONNECT);
}

void explain_share_data_io(struct ex *e, const struct scenario *s, const struct plan *p)
{
	ex_share(e, s, p, BN_DATA_IO);
}

void explain_binding(struct ex *e, const struct scenario *s, const struct plan *p)
{
	(void)s;
	formula(e, "binding", "capacity if it does not fit, else the largest time share");
	result(e, "binding", bottleneck_name(p->binding));
	ex_put(e, "\n  shares of the time:\n");
	for (int i = BN_COMPUTE; i < BN_COUNT; i++)
		ex_put(e, "    %-14s %s\n", bottleneck_name((enum bottleneck)i),
		       pct(e, p->shares[i]));
	ex_put(e, "  capacity (of memory, binding only when it does not fit): %s\n",
	       pct(e, p->shares[BN_CAPACITY]));
	source(e,
	       "seed_cases.md, case 15: capacity, then bandwidth and interconnect, then compute");
}
