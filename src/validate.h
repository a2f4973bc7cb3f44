/* validate.h - the published measurements gpuplan is held to (the YAML files of tests/validation/,
 * the rows the unit tests read), each planned again: the prediction, its signed error, and per
 * group and regime the count, the mean absolute percentage error (MAPE) and the worst
 * error (`gpuplan validate`, gpuplan(1)).
 *
 * A data file is one group: a mapping with group, title, mape_bound and rows. Each row
 * has id, source, tags (framework, gpu, workload, scale), the scenario that reproduces it
 * (scenario: a scenario file, path relative to the working directory, or none for
 * scenario_init()'s defaults; set: KEY: VALUE fields applied over it in order, as --set
 * applies them: model.hf_config reads the config it names, relative to the scenario's
 * folder, or to the working directory without a scenario), the
 * figure (the JSON report's dotted key, or one of the derived figures below), measured and
 * unit (GiB, GB, s, ms, tokens/s, TFLOP/s or 1), and optionally tolerance (the |error| the tests
 * hold it to) and pinned (the honest error the tests pin it at, within VALIDATE_PIN_SLACK).
 */
#ifndef GPUPLAN_VALIDATE_H
#define GPUPLAN_VALIDATE_H

#include <stdbool.h>

#include "catalog.h"
#include "error.h"
#include "plan.h"
#include "report.h"
#include "scenario.h"

enum validate_tag { VTAG_FRAMEWORK, VTAG_GPU, VTAG_WORKLOAD, VTAG_SCALE, VTAG_COUNT };

/* Figures a source states that the report gives in parts, derived in validate.c:
 * derived.decode_rate (1 / latency.tpot_s), derived.batch_latency_s
 * (batch x output tokens / throughput.tokens_per_s), derived.megatron_tflops
 * (Megatron-LM's FLOP count over time.step_s and the GPUs), derived.checkpoint_params
 * (model.params + model.vision_params, the safetensors total). */
#define VALIDATE_DERIVED "derived."

#define VALIDATE_MAX_SETS  48
#define VALIDATE_PIN_SLACK 0.02 /* a pinned error holds within 2 points */

struct validate_row {
	char id[64];
	int group; /* index into validation.groups */
	char source[512];
	char tags[VTAG_COUNT][32];
	char scenario[256]; /* "" for scenario_init()'s defaults */
	int nsets;
	char sets[VALIDATE_MAX_SETS][160]; /* "KEY=VALUE" */
	char figure[96];		   /* the JSON report's key */
	char unit[16];
	double unit_si;	  /* SI units per unit: 1073741824 for GiB */
	double measured;  /* in unit */
	double tolerance; /* NAN: not held to one */
	double pinned;	  /* NAN: not pinned */
	char file[256];	  /* where the row is written */
	int line;
	/* validation_run's results */
	double predicted; /* in unit; NAN when the figure does not apply */
	double error;	  /* (predicted - measured) / measured */
	/* the row's regime for error bands (band.h), from its scenario and figure; band_class
	 * -1 when the figure carries no band */
	int band_class;
	char band_kind[16], band_framework[24], band_load[8], band_generation[16], gpu_id[32];
	double band_error; /* error as a duration or size: 1 / (1 + error) - 1 for a rate */
};

/* Count, MAPE and worst (signed, the largest in magnitude) of a set of rows. */
struct validate_stats {
	int n;
	double mape, worst;
};

struct validate_group {
	char name[64];
	char title[160];
	char file[256];
	double mape_bound;
	struct validate_stats stats;
	bool pass; /* stats.mape <= mape_bound */
};

struct validate_regime {
	enum validate_tag tag;
	char value[32];
	struct validate_stats stats;
};

struct validation {
	struct validate_row *rows;
	int nrows;
	struct validate_group *groups;
	int ngroups;
	struct validate_regime *regimes; /* by tag, then in order of first appearance */
	int nregimes;
	struct validate_stats all; /* the rows of the groups bound above 0 (not exact counts) */
	bool pass;		   /* every group within its bound */
};

/* "framework", "gpu", "workload", "scale". */
const char *validate_tag_name(enum validate_tag t);

/* Zero v; then load files into it. validation_release frees what they allocated. */
void validation_init(struct validation *v);
void validation_release(struct validation *v);

/* Adds the group of one data file. Returns 0, or -1 with err filled (file, line and column
 * of the first problem: unknown key, wrong kind, missing field, bad number or unit). */
int validation_load_file(struct validation *v, const char *path, struct gp_error *err);
/* Adds every *.yaml of dir, in name order. -1 with err filled when dir cannot be read,
 * holds none, or a file does not load. */
int validation_load_dir(struct validation *v, const char *dir, struct gp_error *err);

/* The row with this id; NULL when there is none. */
const struct validate_row *validation_find(const struct validation *v, const char *id);

/* The row's scenario: its file loaded (or scenario_init()), then its sets in order
 * (scenario_load_assignment: a model.hf_config is read). cat
 * resolves presets and GPUs (NULL: none). 0, or -1 with err filled. */
int validate_row_scenario(const struct validate_row *r, const struct catalog *cat,
			  struct scenario *s, struct gp_error *err);

/* The row's figure read from the JSON report of s and p, in the row's unit. NAN when the
 * figure is null or missing; -1 only when out of memory. */
int validate_row_predict(const struct validate_row *r, const struct scenario *s,
			 const struct plan *p, double *value);

/* Plans every row (plan_compute), then fills each row's prediction and error and the
 * statistics. 0, or -1 with err filled (a row whose scenario does not load, names the
 * row's file and line; a figure that does not apply). */
int validation_run(struct validation *v, const struct catalog *cat, struct gp_error *err);

/* The error band table (band.h) of a run validation, as the C source of band_table.c:
 * per regime (in order of first appearance) the rows, the least and greatest residual,
 * the MAPE, and the rows' frameworks and GPUs. */
void validation_band_table(struct report_buf *b, const struct validation *v);

/* The report for an 80-column terminal, and as Markdown (VALIDATION.md). */
void validation_text(struct report_buf *b, const struct validation *v);
void validation_markdown(struct report_buf *b, const struct validation *v);

#endif
