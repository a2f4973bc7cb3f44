/* explain_int.h - what explain.c, explain_memory.c, explain_time.c and explain_serving.c
 * share: the explanation being written (struct ex), its writers and the ex_ functions
 * between the files. */
#ifndef GPUPLAN_EXPLAIN_INT_H
#define GPUPLAN_EXPLAIN_INT_H

#include "explain.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "band.h"
#include "figure.h"
#include "framework.h"
#include "text.h"
#include "units.h"

/* The plan's scheduler as its enum, 0 (alone) when the plan has none (NaN): a NaN cast to
 * int is undefined. */
static inline int sched_of(double scheduler)
{
	return isnan(scheduler) ? 0 : (int)scheduler;
}

/* An explanation being written: the text so far and scratch space for numbers. */
struct ex {
	char *buf;
	size_t size, len;
	int width; /* columns to wrap at; 0 = one line a paragraph (the reader wraps) */
	char num[16][48];
	int nn;
	struct explain_parts *parts; /* explain --json: the lines by kind, or NULL */
};

void ex_put(struct ex *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ex_wrapped(struct ex *e, const char *prefix, const char *text);

void ex_part(struct ex *e, char *dst, size_t size, const char *lhs, const char *text);

void ex_numbers(struct ex *e, const char *lhs, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A number for people, 3 significant digits, with its unit ("130 GiB", "3.35 TB/s"). */
static inline const char *h(struct ex *e, enum unit_kind k, double v)
{
	char *b = e->num[e->nn++ % 16];
	units_format_human(k, v, 3, b, sizeof(e->num[0]));
	return b;
}

/* h, and a unit text after it: "$21.5/h", "636 kWh" */
static inline const char *h_unit(struct ex *e, enum unit_kind k, double v, const char *unit)
{
	char *b = e->num[e->nn++ % 16];
	size_t n;
	units_format_human(k, v, 3, b, sizeof(e->num[0]));
	n = strlen(b);
	snprintf(b + n, sizeof(e->num[0]) - n, "%s", unit);
	return b;
}

static inline const char *cnt(struct ex *e, double v)
{
	return h(e, UNIT_COUNT, v);
}

static inline const char *sec(struct ex *e, double v)
{
	return h(e, UNIT_SECONDS, v);
}

static inline const char *byt(struct ex *e, double v)
{
	return h(e, UNIT_BYTES, v);
}

static inline const char *pct(struct ex *e, double v)
{
	return h(e, UNIT_RATIO, v);
}

static inline const char *plain(struct ex *e, double v)
{
	return h(e, UNIT_NONE, v);
}

/* GPUs of one replica (tp x pp), in double: extreme layouts overflow an int */
static inline double replica_gpus(const struct plan *p)
{
	double r = (double)p->tp * p->pp;
	return r > 0 ? r : 1;
}

static inline bool training(const struct scenario *s)
{
	return s->workload.kind == WL_TRAIN || s->workload.kind == WL_FINETUNE;
}

/* Inference: replicas deployed on the GPUs given (at least one). */
static inline double deployed(const struct scenario *s, const struct plan *p)
{
	return fmax(1, floor((s->hardware.count > 0 ? s->hardware.count : 1) / replica_gpus(p)));
}

static inline double prompt_tokens(const struct scenario *s)
{
	return s->workload.prompt_tokens > 0 ? s->workload.prompt_tokens : 1;
}

static inline double output_tokens(const struct scenario *s)
{
	return s->workload.output_tokens > 0 ? s->workload.output_tokens : 1;
}

/* A decode step's communication: TP all-reduces, EP all-to-alls, pipeline hand-offs (the
 * time model keeps the step's terms in struct plan_decode, adding up to tpot). */
static inline double decode_comm(const struct plan_decode *d)
{
	return d->tp_comm_s + d->ep_comm_s + d->pp_comm_s;
}

/* The three parts every explanation has. */
static inline void formula(struct ex *e, const char *lhs, const char *sym)
{
	char prefix[64];
	snprintf(prefix, sizeof(prefix), "  %s = ", lhs);
	ex_wrapped(e, prefix, sym);
	if (e->parts)
		ex_part(e, e->parts->formula, sizeof(e->parts->formula), lhs, sym);
}

static inline void result(struct ex *e, const char *lhs, const char *value)
{
	ex_put(e, "  %*s = %s\n", (int)strlen(lhs), "", value);
	if (e->parts)
		ex_part(e, e->parts->result, sizeof(e->parts->result), NULL, value);
}

static inline void source(struct ex *e, const char *text)
{
	ex_put(e, "\n");
	ex_wrapped(e, "  source: ", text);
	if (e->parts)
		ex_part(e, e->parts->source, sizeof(e->parts->source), NULL, text);
}

/* A figure the model leaves out for this scenario: the same part of --json as
 * not_applicable. */
static inline void not_modelled(struct ex *e, const char *why)
{
	ex_put(e, "  not modelled: %s\n", why);
	if (e->parts)
		ex_part(e, e->parts->not_applicable, sizeof(e->parts->not_applicable), NULL, why);
}

static inline void not_applicable(struct ex *e, const char *why)
{
	ex_put(e, "  not applicable: %s\n", why);
	if (e->parts)
		ex_part(e, e->parts->not_applicable, sizeof(e->parts->not_applicable), NULL, why);
}

/* ---- between the files (explain_memory.c, explain_time.c, explain_serving.c) ---- */

void ex_kv_budget_lines(struct ex *e, const struct framework_info *fw, const struct plan_memory *m,
			double frac);
void ex_framework_note(struct ex *e, const struct scenario *s, const struct plan *p);
void ex_peak_note(struct ex *e, const struct scenario *s, const struct plan *p);

#endif
