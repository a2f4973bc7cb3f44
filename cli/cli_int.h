/* cli_int.h - what cli.c, cli_io.c, cli_report.c, cli_plan.c and cli_info.c share: the
 * command line being run (struct cli), a command's row (struct command) with its OPT_* and
 * CMD_* bits, the messages, output and loading of cli_io.c, and each command's function
 * for cli.c's commands[].
 */
#ifndef GPUPLAN_CLI_INT_H
#define GPUPLAN_CLI_INT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "calibrate.h"
#include "catalog.h"
#include "cli.h"
#include "error.h"
#include "plan.h"
#include "profile.h"
#include "report.h"
#include "scenario.h"
#include "sweep.h"

struct cJSON;

#define EXIT_USAGE 2
#define EXIT_IO	   1

#define MAX_ARGS 8

/* options a command accepts */
enum {
	OPT_SET = 1u << 0,
	OPT_JSON = 1u << 1,
	OPT_MARKDOWN = 1u << 2,
	OPT_OUTPUT = 1u << 3,
	OPT_ASCII = 1u << 4,
	OPT_SEARCH = 1u << 5, /* --top N, --by time|cost, --hardware, --scaling */
	OPT_SOLVE = 1u << 6,  /* --max KEY, --min KEY */
	OPT_CSV = 1u << 7,
	OPT_VERSION = 1u << 9, /* --version: the terminal UI's command line only */
	OPT_SWEEP = 1u << 10,  /* --y FIGURE, --svg FILE */
	OPT_IMPORT = 1u << 11, /* --scenario, --model-only */

	/* --measured KEY=VALUE, --knob KNOB, --write */
	OPT_CALIBRATE = 1u << 12,
	OPT_PROFILE = 1u << 13, /* --profile NAME: the commands that plan, and calibrate */
	/* the terminal UI's command line */
	OPT_UI = OPT_SET | OPT_PROFILE | OPT_ASCII | OPT_VERSION,
};

/* what cli_main does for a command (its flags), before and after it runs */
enum {
	CMD_HIDDEN = 1u << 0,  /* a helper for scripts, left out of --help */
	CMD_CATALOG = 1u << 1, /* the catalog loaded into c->cat */
	/* FILE (args[0]) loaded into s[0] and src[0] as report loads it: --profile, then each
	 * --set, then refused with all its problems printed */
	CMD_FILE = 1u << 2,
	CMD_FILES2 = 1u << 3,	 /* A and B (args[0], args[1]) into s[0] and s[1] so */
	CMD_UNCHECKED = 1u << 4, /* the scenarios loaded, not refused for problems (fmt) */
	CMD_PLAN = 1u << 5,	 /* each scenario loaded planned into p[i] */
};

/* The terminal UI's usage line; "usage: " before it is 7 columns (80 in all). */
#define UI_USAGE "gpuplan [FILE] [--ascii] [--set KEY=VALUE]... [--profile NAME]"

struct cli {
	const char *cmd;   /* "report", or NULL for the terminal UI */
	const char *argv0; /* where the catalog is looked for when /proc is not mounted */
	char exe[PATH_MAX];
	struct catalog *cat;
	int nargs;
	const char *args[MAX_ARGS];
	int nsets;
	const char **sets; /* as many as the command line has: no limit of their own */
	bool json, markdown, csv, ascii, help, version, hardware, scaling;
	const char *output;
	const char *solve_key; /* --max KEY or --min KEY */
	bool solve_max;
	const char *top, *by;
	cli_keys_fn keys; /* the terminal UI's key table, for `gpuplan keys` */
	int nys;
	const char *ys[SWEEP_MAX_FIGURES]; /* sweep --y */
	const char *svg;		   /* sweep --svg */
	bool import_scenario, model_only;  /* import --scenario, --model-only */
	int nmeasured;
	const char **measured; /* calibrate --measured, sized as sets */
	bool write;	       /* calibrate --write */
	int nknobs;
	const char *knobs[CALIBRATE_MAX]; /* calibrate --knob */
	const char *profile;		  /* --profile NAME */
	struct profile *prof;		  /* its knobs, once cli_load has read it */

	/* what the command's row had cli_main prepare (CMD_FILE, CMD_PLAN), freed by it */
	struct scenario *s[2];
	struct scenario_source *src[2];
	struct plan *p[2];
	/* the result, which cli_main writes once the command has returned 0: a JSON document,
	 * or text, escaped for the terminal (cli_write_text) unless out_raw (YAML, KEY=VALUE) */
	struct cJSON *json_out;
	bool json_result; /* json_out is the result: NULL there is out of memory */
	struct report_buf out;
	bool out_raw;
	int status; /* the exit status of a result that is written (check's problems) */
};

struct command {
	const char *name;
	int (*run)(struct cli *c);
	/* the operands and options checked before anything is loaded; NULL when none */
	int (*check)(struct cli *c);
	unsigned opts;	/* the options it accepts (OPT_*) */
	unsigned flags; /* CMD_* */
	int min_args, max_args;
	const char *usage;
	const char *help;
};

/* Messages and output (cli_io.c) */
int cli_usage_error(struct cli *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cli_error(const struct cli *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int cli_no_memory(const struct cli *c);
int cli_print_error(const struct cli *c, const struct gp_error *err, const char *fallback);
void cli_print_problems(const struct cli *c, const struct gp_problems *probs, const char *fallback);
bool cli_output_is_stdout(const char *out);
int cli_output_check(const struct cli *c, const char *out);
int cli_write(const struct cli *c, const char *text, size_t len);
int cli_write_json(const struct cli *c, struct cJSON *j);
int cli_write_buf(const struct cli *c, const struct report_buf *b);
void cli_json_result(struct cli *c, struct cJSON *j);

/* Loading (cli_io.c) */
int cli_load_catalog(struct cli *c);
void cli_blame_sets(const struct cli *c, const struct scenario_source *src,
		    struct gp_problems *probs);
void cli_print_warnings(const struct cli *c, const struct gp_problems *warns, const char *fallback);
int cli_ignored_fields(const struct cli *c, const struct scenario *s,
		       const struct scenario_source *src, struct gp_problems *warns);
int cli_load(struct cli *c, const char *path, struct scenario *s, struct scenario_source *src,
	     bool validate);

/* The command table (cli.c) */
const struct command *cli_command_find(const char *name);

/* The commands, each a row of commands[] (cli.c): a scenario's report and files
 * (cli_report.c), */
int cmd_report(struct cli *c);
int cmd_explain(struct cli *c);
int check_diff(struct cli *c);
int cmd_diff(struct cli *c);
int cmd_import(struct cli *c);
int cmd_check(struct cli *c);
int cmd_fmt(struct cli *c);
/* planning beyond one report (cli_plan.c), */
int check_solve(struct cli *c);
int cmd_solve(struct cli *c);
int cmd_search(struct cli *c);
int cmd_sweep(struct cli *c);
int cmd_calibrate(struct cli *c);
/* and the catalog, the tables for completion and the validation (cli_info.c) */
int check_catalog(struct cli *c);
int cmd_catalog(struct cli *c);
int cmd_fields(struct cli *c);
int cmd_keys(struct cli *c);
int cmd_validate(struct cli *c);
int cmd_figures(struct cli *c);

#endif
