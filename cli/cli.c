/* cli.c - gpuplan's command line: parse arguments, load, call the core, print.
 *
 * Every command builds its whole output in memory and writes it only once nothing can
 * fail any more, so an error leaves standard output empty (gpuplan(1), EXIT STATUS: a
 * message on stderr, nothing on stdout, exit 2 for bad usage or input, 1 for I/O).
 *
 * Here: the command table, the options, --help and cli_main, which runs a command's row.
 * The commands are in cli_report.c, cli_plan.c and cli_info.c; the messages, the output
 * and the loading they share in cli_io.c (cli_int.h).
 */
#include "cli_int.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report_json.h"
#include "text.h"

#ifndef GPUPLAN_VERSION
#define GPUPLAN_VERSION "unknown"
#endif

/* Commands -----------------------------------------------------------------------------
 *
 * Each command is a row of commands[] below: its options (OPT_*), and what cli_main does
 * for it before and after it runs (CMD_*), as git's run_builtin does for its builtins'
 * RUN_SETUP: the catalog, FILE (and B) loaded as report loads them and planned, and one
 * exit path that writes the result the command left in c->out or c->json_out and frees
 * what was prepared. A command computes and formats; it returns 0 or the exit status of
 * a problem it printed. */

static int cmd_commands(struct cli *c);
static int check_commands(struct cli *c);

/* clang-format off */
static const struct command commands[] = {
	{"report", cmd_report, NULL, OPT_SET | OPT_PROFILE | OPT_JSON | OPT_MARKDOWN,
	 CMD_FILE | CMD_PLAN, 1, 1,
	 "gpuplan report FILE [--json | --markdown] [--set KEY=VALUE]...\n"
	 "              [--profile NAME]",
	 "The full plan of one scenario: memory per GPU, time, throughput, latency, cost, energy,\n"
	 "reliability, the verdicts and the binding bottleneck. Text for an 80-column terminal by\n"
	 "default; --json for scripts (schema gpuplan.report/1); --markdown for a review.\n"},
	{"explain", cmd_explain, NULL, OPT_SET | OPT_PROFILE | OPT_JSON, CMD_FILE | CMD_PLAN, 1, 2,
	 "gpuplan explain FILE [KEY] [--json] [--set KEY=VALUE]... [--profile NAME]",
	 "How one result is derived: the formula, the same formula with the scenario's numbers,\n"
	 "then the result and its source. KEY as in the JSON report, e.g.\n"
	 "memory.per_gpu.optimizer. Without KEY, lists the keys it explains. --json: the parts\n"
	 "as JSON (schema gpuplan.explain/1).\n"},
	{"diff", cmd_diff, check_diff, OPT_SET | OPT_PROFILE | OPT_JSON | OPT_MARKDOWN | OPT_CSV,
	 CMD_FILES2 | CMD_PLAN, 2, 2,
	 "gpuplan diff A B [--json | --markdown | --csv] [--set KEY=VALUE]...\n"
	 "              [--profile NAME]",
	 "Two scenarios side by side: every input that differs, every result that differs with\n"
	 "its absolute and relative change, and changed verdicts (fits, binding bottleneck)\n"
	 "marked with '!!'. --set applies to both. --csv: a row per verdict, input and result.\n"},
	{"search", cmd_search, NULL, OPT_SET | OPT_PROFILE | OPT_JSON | OPT_CSV | OPT_SEARCH, CMD_FILE, 1, 1,
	 "gpuplan search FILE [--top N] [--by time|cost] [--hardware]\n"
	 "              [--json | --csv | --scaling] [--set KEY=VALUE]... [--profile NAME]",
	 "The best parallel layouts for the scenario that fit, ranked by time (default) or cost:\n"
	 "tp, pp, dp, ep, ZeRO, micro-batch, recompute, sequence parallel, offload, interleaving\n"
	 "for training; tp, pp, batch, weight and KV formats for inference. --hardware searches\n"
	 "the catalog's GPU types and counts too. --top N (default 10) results. --scaling:\n"
	 "the best layout at each power-of-two GPU count, as CSV. --csv: the ranked list as\n"
	 "CSV.\n"},
	{"solve", cmd_solve, check_solve, OPT_SET | OPT_PROFILE | OPT_JSON | OPT_SOLVE, CMD_FILE, 1, 1,
	 "gpuplan solve FILE (--max KEY | --min KEY) [--json] [--set KEY=VALUE]...\n"
	 "              [--profile NAME]",
	 "Goal seek: the largest (--max) or smallest (--min) value of a numeric field for which\n"
	 "the scenario still fits and meets its deadline or SLO, e.g. --max workload.seq_len or\n"
	 "--min hardware.count. Prints KEY=VALUE, ready for --set; --json (schema\n"
	 "gpuplan.solve/1).\n"},
	{"sweep", cmd_sweep, NULL, OPT_SET | OPT_PROFILE | OPT_JSON | OPT_CSV | OPT_ASCII | OPT_SWEEP,
	 CMD_FILE, 2, MAX_ARGS,
	 "gpuplan sweep FILE KEY=FROM..TO[:STEP|*FACTOR]|KEY=A,B,... [--y FIGURE]...\n"
	 "              [--json | --csv] [--svg FILE] [--ascii] [--set KEY=VALUE]...\n"
	 "              [--profile NAME]",
	 "The scenario planned at each value of an input, its figures charted against it: a\n"
	 "chart an 80-column terminal shows (braille, or ASCII with --ascii or outside a UTF-8\n"
	 "locale), --csv, --json (schema gpuplan.sweep/1), --svg FILE for a review. KEY is a\n"
	 "numeric field; STEP adds, FACTOR multiplies (at most 256 points). KEY=A,B,... lists\n"
	 "the values instead, words too (hardware.gpu=h100-sxm-80gb,h200). Each further range\n"
	 "or list gives a curve per value (at most 8). --y (repeatable) names the figures, as\n"
	 "in the JSON report; the GPU memory and the SLO are drawn as lines.\n"},
	{"import", cmd_import, NULL, OPT_OUTPUT | OPT_IMPORT, 0, 1, 1,
	 "gpuplan import CONFIG.json|ORG/NAME [--scenario | --model-only] [-o FILE]",
	 "A Hugging Face config.json turned into a whole scenario that check accepts: the\n"
	 "config's model block with a default workload and hardware, commented to edit, on\n"
	 "standard output or written atomically to FILE. --model-only: the model block alone\n"
	 "(--scenario, the default, is accepted as before). ORG/NAME reads the Hub model's\n"
	 "config.json from the local Hugging Face cache ($HF_HUB_CACHE, $HF_HOME/hub or\n"
	 "~/.cache/huggingface/hub), offline. What the import assumed, and the weights'\n"
	 "quantization, go to stderr.\n"},
	{"catalog", cmd_catalog, check_catalog, OPT_JSON | OPT_CSV, CMD_CATALOG, 0, 1,
	 "gpuplan catalog [gpus | models] [--json | --csv]",
	 "The presets gpuplan knows, with their key figures and the file each came from.\n"
	 "Sparse (2:4) figures are shown as such and never used as peaks.\n"
	 "--json (schema gpuplan.catalog/1) in SI units; --csv (with gpus or models): the table\n"
	 "as CSV.\n"},
	{"check", cmd_check, NULL, OPT_SET | OPT_JSON, CMD_CATALOG, 1, 1,
	 "gpuplan check FILE [--json] [--set KEY=VALUE]...",
	 "Validates a scenario and prints every problem as FILE:LINE:COL: message. Exit status 2\n"
	 "when there is any, 0 (and 'FILE: ok') when there is none. --json: the problems as\n"
	 "JSON on standard output (schema gpuplan.check/1), with the same exit status.\n"},
	{"fmt", cmd_fmt, NULL, OPT_SET | OPT_OUTPUT, CMD_FILE | CMD_UNCHECKED, 1, 1,
	 "gpuplan fmt FILE [-o OUT] [--set KEY=VALUE]...",
	 "Reads a scenario and writes it back in canonical form (key order, units), to standard\n"
	 "output or atomically to OUT.\n"},
	{"validate", cmd_validate, NULL, OPT_JSON | OPT_MARKDOWN | OPT_CSV, CMD_CATALOG, 0, 1,
	 "gpuplan validate [DIR] [--json | --markdown | --csv]",
	 "The published measurements the tests hold gpuplan to (the data files of DIR, by default\n"
	 "tests/validation), each planned again: the prediction and its signed error, and per\n"
	 "group and regime the count, MAPE and worst error. Exit status 1 when a group's MAPE\n"
	 "is past the bound its file states.\n"},
	{"calibrate", cmd_calibrate, NULL, OPT_SET | OPT_PROFILE | OPT_JSON | OPT_OUTPUT | OPT_CALIBRATE,
	 CMD_FILE, 1, 1,
	 "gpuplan calibrate FILE --measured KEY=VALUE... [--knob KNOB]...\n"
	 "              [-o FILE | --write] [--profile NAME] [--json] [--set KEY=VALUE]...",
	 "Measure, then plan: fits the scenario's efficiency knobs (efficiency.gemm, hbm,\n"
	 "network, memory_overhead) to figures measured on your run, by bisection on the\n"
	 "figure each governs, chosen by the plan's bottleneck shares (efficiency.mfu only\n"
	 "with --knob mfu); shows before and after, and why. KEY:\n"
	 "time.step_s (step_s), throughput.tokens_per_s (tokens_per_s), compute.mfu (mfu),\n"
	 "latency.tpot_s (tpot_s), latency.ttft_s (ttft_s), memory.per_gpu.reserved\n"
	 "(peak_memory; on efficiency.memory_overhead). The calibrated scenario goes to\n"
	 "standard output, or with -o FILE or --write is saved atomically, every field the\n"
	 "file gave kept. --profile NAME saves the knobs as calibration profile NAME (under\n"
	 "$XDG_CONFIG_HOME/gpuplan/profiles), which every planning command reads with\n"
	 "--profile NAME. A measurement no knob in range explains names its limit, exits 1\n"
	 "and writes nothing.\n"},
	{"fields", cmd_fields, NULL, 0, CMD_HIDDEN, 0, 0, "gpuplan fields",
	 "The scenario field table as TSV (key, type, unit, choices, flags), for completion.\n"},
	{"keys", cmd_keys, NULL, 0, CMD_HIDDEN, 0, 0, "gpuplan keys",
	 "The terminal UI's keys and : commands as TSV (mode, key, action, help).\n"},
	{"figures", cmd_figures, NULL, 0, CMD_HIDDEN, 0, 0, "gpuplan figures",
	 "The figure table as TSV (key, number or word, unit, label), for completion of --y.\n"},
	{"commands", cmd_commands, check_commands, 0, CMD_HIDDEN, 0, 1, "gpuplan commands [hidden]",
	 "The command table as TSV (name, operands, options, summary), for completion;\n"
	 "with hidden, the hidden commands instead (the man page check).\n"},
	{NULL, NULL, NULL, 0, 0, 0, 0, NULL, NULL},
};
/* clang-format on */

const struct command *cli_command_find(const char *name)
{
	for (const struct command *cmd = commands; cmd->name; cmd++)
		if (strcmp(cmd->name, name) == 0)
			return cmd;
	return NULL;
}

/* The options: one row each (long name, short letter or an id above 255, argument, the
 * commands that take it by their OPT_* bit, 0 for all, and its line of --help). cli_parse
 * hands getopt_long the rows a command accepts, so `--top=2`, `-jn2`, `--`, `--mark` for
 * --markdown and `-o FILE` read as in any GNU tool; `gpuplan commands` lists them for the
 * shell completions and --help's options block is written from them, as gpuplan(1)'s
 * OPTIONS (tests/cli/run-cli.sh checks that the two agree). */
enum {
	OPTV_ASCII = 256,
	OPTV_CSV,
	OPTV_BY,
	OPTV_HARDWARE,
	OPTV_SCALING,
	OPTV_MAX,
	OPTV_MIN,
	OPTV_VERSION,
	OPTV_Y,
	OPTV_SVG,
	OPTV_SCENARIO,
	OPTV_MODEL_ONLY,
	OPTV_MEASURED,
	OPTV_WRITE,
	OPTV_PROFILE,
	OPTV_KNOB,
};

static const struct cli_option {
	const char *name;
	int val;
	int has_arg;
	unsigned opts;
	const char *arg;  /* its argument, for `gpuplan commands`: KEY=VALUE, FILE, N, KEY, a|b */
	const char *help; /* for --help: what it does, lowercase, no final period */
} cli_options[] = {
    {"help", 'h', no_argument, 0, NULL, "print this help; COMMAND --help says more about one"},
    {"version", OPTV_VERSION, no_argument, OPT_VERSION, NULL, "print the version"},
    {"set", 's', required_argument, OPT_SET, "KEY=VALUE",
     "override a field after the file is read, KEY as in the file; repeatable"},
    {"json", 'j', no_argument, OPT_JSON, NULL, "JSON output"},
    {"markdown", 'm', no_argument, OPT_MARKDOWN, NULL, "Markdown output"},
    {"csv", OPTV_CSV, no_argument, OPT_CSV, NULL, "CSV output (RFC 4180)"},
    {"output", 'o', required_argument, OPT_OUTPUT, "FILE",
     "write to FILE atomically instead of standard output"},
    {"ascii", OPTV_ASCII, no_argument, OPT_ASCII, NULL, "draw with ASCII characters only"},
    {"top", 'n', required_argument, OPT_SEARCH, "N", "list the N best layouts (default 10)"},
    {"by", OPTV_BY, required_argument, OPT_SEARCH, "time|cost",
     "rank by time (the default) or by cost"},
    {"hardware", OPTV_HARDWARE, no_argument, OPT_SEARCH, NULL,
     "vary the GPU type and count over the catalog too"},
    {"scaling", OPTV_SCALING, no_argument, OPT_SEARCH, NULL,
     "the best layout at each power-of-two GPU count, as CSV"},
    {"max", OPTV_MAX, required_argument, OPT_SOLVE, "KEY", "the largest value of KEY that fits"},
    {"min", OPTV_MIN, required_argument, OPT_SOLVE, "KEY", "the smallest value of KEY that fits"},
    {"y", OPTV_Y, required_argument, OPT_SWEEP, "FIGURE",
     "sweep: a figure to chart (repeatable, or comma-separated)"},
    {"svg", OPTV_SVG, required_argument, OPT_SWEEP, "FILE",
     "sweep: also write the chart as SVG to FILE (- for standard output)"},
    {"scenario", OPTV_SCENARIO, no_argument, OPT_IMPORT, NULL,
     "import: write a whole scenario that check accepts (the default)"},
    {"model-only", OPTV_MODEL_ONLY, no_argument, OPT_IMPORT, NULL,
     "import: write the model: block alone"},
    {"measured", OPTV_MEASURED, required_argument, OPT_CALIBRATE, "KEY=V",
     "calibrate: a figure measured on the run, e.g. time.step_s=5.2s; repeatable"},
    {"knob", OPTV_KNOB, required_argument, OPT_CALIBRATE, "KNOB",
     "calibrate: fit this knob (gemm, hbm, network, mfu) in place of the one the shares "
     "pick; repeatable"},
    {"write", OPTV_WRITE, no_argument, OPT_CALIBRATE, NULL,
     "calibrate: save the fitted knobs back into FILE"},
    {"profile", OPTV_PROFILE, required_argument, OPT_PROFILE, "NAME",
     "plan with calibration profile NAME's knobs (calibrate: save them there)"},
};
#define NOPTIONS (sizeof(cli_options) / sizeof(cli_options[0]))

static bool cli_option_ok(const struct cli_option *o, unsigned opts)
{
	return !o->opts || (o->opts & opts);
}

static const struct cli_option *cli_option_by_val(int val)
{
	for (size_t i = 0; i < NOPTIONS; i++)
		if (cli_options[i].val == val)
			return &cli_options[i];
	return NULL;
}

/* The commands that take an option with these OPT_* bits, for --help: "report, diff". */
static void help_option_commands(struct report_buf *b, unsigned opts)
{
	bool any = false;

	if (opts & OPT_UI) {
		report_buf_printf(b, "the terminal UI");
		any = true;
	}
	for (const struct command *cmd = commands; cmd->name; cmd++)
		if (!(cmd->flags & CMD_HIDDEN) && (cmd->opts & opts)) {
			report_buf_printf(b, "%s%s", any ? ", " : "", cmd->name);
			any = true;
		}
}

/* Appends words to b at column at (of a line that starts at column indent), wrapped before
 * column 80. */
static void help_wrap(struct report_buf *b, const char *words, size_t *at, size_t indent)
{
	while (*words) {
		size_t n = strcspn(words, " ");

		if (*at > indent && *at + 1 + n >= 80) {
			report_buf_printf(b, "\n%*s", (int)indent, "");
			*at = indent;
		} else if (*at > indent) {
			report_buf_printf(b, " ");
			(*at)++;
		}
		report_buf_printf(b, "%.*s", (int)n, words);
		*at += n;
		words += n + strspn(words + n, " ");
	}
}

/* --help's options block, one option a row of cli_options[]: "  -s, --set=KEY=VALUE",
 * its help and the commands that take it; for one command's --help (one, with cmd_opts its
 * OPT_* bits: 0 for a hidden command, which takes only --help), the options it takes alone,
 * without the commands. */
static void help_options(struct report_buf *b, bool one, unsigned cmd_opts)
{
	enum { COL = 24 };

	report_buf_printf(b, "\noptions:\n");
	for (size_t i = 0; i < NOPTIONS; i++) {
		const struct cli_option *o = &cli_options[i];
		struct report_buf cmds = {0};
		size_t start = b->len, at;

		if (one && !cli_option_ok(o, cmd_opts))
			continue;
		if (o->val < 256)
			report_buf_printf(b, "  -%c, --%s", o->val, o->name);
		else
			report_buf_printf(b, "      --%s", o->name);
		if (o->arg)
			report_buf_printf(b, "=%s", o->arg);
		at = b->len - start;
		if (at + 2 > COL) {
			report_buf_printf(b, "\n");
			at = 0;
		}
		report_buf_printf(b, "%*s", (int)(COL - at), "");
		at = COL;
		help_wrap(b, o->help, &at, COL);
		if (o->opts && !one) {
			report_buf_printf(&cmds, "(");
			help_option_commands(&cmds, o->opts);
			report_buf_printf(&cmds, ")");
			help_wrap(b, cmds.failed ? "" : cmds.data, &at, COL);
		}
		report_buf_release(&cmds);
		report_buf_printf(b, "\n");
	}
}

/* COMMAND --help: its usage, what it does and the options it takes (from cli_options[], so
 * that an option the command takes is never left out of its help). */
static int cli_print_command_help(const struct cli *c, const struct command *cmd)
{
	struct report_buf b = {0};
	int rc;

	report_buf_printf(&b, "usage: %s\n\n%s", cmd->usage, cmd->help);
	help_options(&b, true, cmd->opts);
	rc = cli_write_buf(c, &b);
	report_buf_release(&b);
	return rc;
}

static int cli_print_help(const struct cli *c)
{
	struct report_buf b = {0};
	int rc;

	report_buf_printf(&b,
			  "gpuplan %s - GPU capacity planner for LLM training and inference\n\n"
			  "usage: " UI_USAGE "   the UI\n",
			  GPUPLAN_VERSION);
	for (const struct command *cmd = commands; cmd->name; cmd++)
		if (!(cmd->flags & CMD_HIDDEN))
			report_buf_printf(&b, "       %s\n", cmd->usage);
	help_options(&b, false, 0);
	report_buf_printf(
	    &b,
	    "\nFILE may be '-' for standard input; '--' ends the options. A long option may be\n"
	    "shortened to a prefix that names only one; short options bundle (-jn2).\n\n"
	    "Exit status: 0 success (a plan that does not fit is a result), 2 bad usage or\n"
	    "input, 1 an I/O or internal failure. See gpuplan(1), gpuplan-scenario(5).\n");
	rc = cli_write_buf(c, &b);
	report_buf_release(&b);
	return rc;
}

/* The option as typed, for a message: "-o" for a short one (alone or in a bundle), else
 * "--output" (a long one's full name, whatever prefix was typed). */
static void cli_option_typed(const char *arg, const struct cli_option *o, char *buf, size_t size)
{
	if (strncmp(arg, "--", 2) != 0 && o->val < 256)
		snprintf(buf, size, "-%c", o->val);
	else
		snprintf(buf, size, "--%s", o->name);
}

/* A long option getopt_long refused (arg, as typed): not one of this command's, a prefix of
 * several, or given a value it does not take. */
static int cli_bad_long_option(struct cli *c, const char *arg, unsigned opts)
{
	const char *name = arg + 2;
	size_t n = strcspn(name, "=");
	const struct cli_option *hit = NULL;
	char many[256] = "";
	int count = 0;

	for (size_t i = 0; i < NOPTIONS; i++) {
		const struct cli_option *o = &cli_options[i];
		size_t used = strlen(many);

		if (!cli_option_ok(o, opts) || strncmp(o->name, name, n) != 0)
			continue;
		if (strlen(o->name) == n) { /* exact */
			hit = o;
			count = 1;
			break;
		}
		hit = o;
		count++;
		snprintf(many + used, sizeof(many) - used, "%s--%s", used ? ", " : "", o->name);
	}
	if (count > 1)
		return cli_usage_error(c, "option '%.*s' is ambiguous (%s)", (int)n + 2, arg, many);
	if (count == 1 && name[n] == '=' && hit->has_arg == no_argument)
		return cli_usage_error(c, "option '--%s' takes no value", hit->name);
	return cli_usage_error(c, "unknown option '%s'", arg);
}

/* Parses argv[first..] into c for a command that accepts opts; returns 0 or the exit
 * status of a usage error. */
static int cli_parse(struct cli *c, int argc, char **argv, int first, unsigned opts)
{
	/* "-": operands come back in order as 1 (POSIXLY_CORRECT or not); ":": a missing
	 * argument is ':', so that the message is ours */
	char shorts[2 * NOPTIONS + 3] = "-:";
	struct option longs[NOPTIONS + 1];
	size_t nlong = 0, ns = 2;
	int gargc = argc - first + 1, ch;
	char **gargv = argv + first - 1;

	memset(longs, 0, sizeof(longs));
	for (size_t i = 0; i < NOPTIONS; i++) {
		const struct cli_option *o = &cli_options[i];
		if (!cli_option_ok(o, opts))
			continue;
		longs[nlong++] = (struct option){o->name, o->has_arg, NULL, o->val};
		if (o->val < 256) {
			shorts[ns++] = (char)o->val;
			if (o->has_arg == required_argument)
				shorts[ns++] = ':';
		}
	}
	shorts[ns] = '\0';
	opterr = 0;
	optind = 0; /* glibc: start afresh */
	while ((ch = getopt_long(gargc, gargv, shorts, longs, NULL)) != -1) {
		const struct cli_option *o = cli_option_by_val(ch == ':' ? optopt : ch);
		const char *at = gargv[optind - 1]; /* the argument being read */
		char typed[64];

		if (ch == 1) {
			if (c->nargs == MAX_ARGS)
				return cli_usage_error(c, "too many arguments");
			c->args[c->nargs++] = optarg;
			continue;
		}
		if (ch == '?') {
			/* a long option: unknown, ambiguous or given a value; else a short one */
			if (!optopt || cli_option_by_val(optopt))
				return cli_bad_long_option(c, at, opts);
			return cli_usage_error(c, "unknown option '-%c'", optopt);
		}
		cli_option_typed(at, o, typed, sizeof(typed));
		if (ch == ':') {
			switch (o->val) {
			case 's':
				return cli_usage_error(
				    c, "--set needs KEY=VALUE (e.g. --set hardware.count=16)");
			case 'o':
				return cli_usage_error(c, "%s needs a file name", typed);
			case OPTV_MAX:
			case OPTV_MIN:
				return cli_usage_error(c, "%s needs a KEY (e.g. %s hardware.count)",
						       typed, typed);
			default:
				return cli_usage_error(c, "%s needs a value", typed);
			}
		}
		switch (ch) {
		case 'h':
			c->help = true;
			break;
		case 's':
			c->sets[c->nsets++] = optarg; /* fewer than argc: cli_main sizes it */
			break;
		case 'j':
			c->json = true;
			break;
		case 'm':
			c->markdown = true;
			break;
		case 'o':
			if (!optarg[0])
				return cli_usage_error(c, "%s needs a file name", typed);
			c->output = optarg;
			break;
		case OPTV_CSV:
			c->csv = true;
			break;
		case OPTV_ASCII:
			c->ascii = true;
			break;
		case OPTV_VERSION:
			c->version = true;
			break;
		case 'n':
			c->top = optarg;
			break;
		case OPTV_BY:
			c->by = optarg;
			break;
		case OPTV_HARDWARE:
			c->hardware = true;
			break;
		case OPTV_SCALING:
			c->scaling = true;
			break;
		case OPTV_MAX:
		case OPTV_MIN:
			if (c->solve_key)
				return cli_usage_error(c, "give one of --max KEY or --min KEY");
			c->solve_key = optarg;
			c->solve_max = ch == OPTV_MAX;
			break;
		case OPTV_Y:
			if (c->nys == SWEEP_MAX_FIGURES)
				return cli_usage_error(c, "more than %d --y options",
						       SWEEP_MAX_FIGURES);
			c->ys[c->nys++] = optarg;
			break;
		case OPTV_SVG:
			c->svg = optarg;
			break;
		case OPTV_SCENARIO:
			c->import_scenario = true;
			break;
		case OPTV_MODEL_ONLY:
			c->model_only = true;
			break;
		case OPTV_MEASURED:
			c->measured[c->nmeasured++] = optarg;
			break;
		case OPTV_KNOB:
			if (c->nknobs == CALIBRATE_MAX)
				return cli_usage_error(c, "too many --knob options");
			c->knobs[c->nknobs++] = optarg;
			break;
		case OPTV_WRITE:
			c->write = true;
			break;
		case OPTV_PROFILE:
			c->profile = optarg;
			break;
		}
	}
	/* after "--", every argument is an operand */
	for (; optind < gargc; optind++) {
		if (c->nargs == MAX_ARGS)
			return cli_usage_error(c, "too many arguments");
		c->args[c->nargs++] = gargv[optind];
	}
	if (c->json && c->markdown)
		return cli_usage_error(c, "--json and --markdown cannot be used together");
	if (c->csv && (c->json || c->markdown))
		return cli_usage_error(c, "--csv and --%s cannot be used together",
				       c->json ? "json" : "markdown");
	if (c->json && c->scaling)
		return cli_usage_error(c, "--scaling writes CSV; leave out --json");
	if (c->top) {
		char *end;
		long n = strtol(c->top, &end, 10);
		if (end == c->top || *end)
			return cli_usage_error(
			    c, "--top '%s' is not a count (expected 1 to 100000)", c->top);
		if (n < 1 || n > 100000)
			return cli_usage_error(c, "--top %s is out of range (expected 1 to 100000)",
					       c->top);
	}
	if (c->by && strcmp(c->by, "time") && strcmp(c->by, "cost"))
		return cli_usage_error(c, "--by '%s' (expected time or cost)", c->by);
	return 0;
}

/* The operands of a usage line, space-separated: its words outside brackets ("FILE KEY",
 * "A B", "CONFIG.json|ORG/NAME"), one optional operand in its brackets ("[KEY]"), and a
 * bracketed list of words that are not options as its choices ("[gpus | models]" is
 * "gpus|models"); an option's argument is none of them. */
static void usage_operands(struct report_buf *b, const char *usage)
{
	const char *p = strchr(usage, ' ');
	int depth = 0, choices = 0;
	bool any = false;

	p = p ? strchr(p + 1, ' ') : NULL; /* after "gpuplan NAME" */
	while (p && *(p += strspn(p, " \n"))) {
		size_t n = strcspn(p, " \n"), at = 0, end = n;
		int was = depth;

		/* an option's argument ("--measured KEY=VALUE...") is not an operand */
		if (was == 0 && p[0] == '-' && p[n] == ' ' && !strchr("-[(", p[n + 1])) {
			p += n + 1;
			p += strcspn(p, " \n");
			continue;
		}

		for (size_t k = 0; k < n; k++)
			depth += (p[k] == '[' || p[k] == '(') - (p[k] == ']' || p[k] == ')');
		if (was == 0 && p[0] == '[' && p[1] != '-')
			choices = 1;
		while (at < end && strchr("[(", p[at]))
			at++;
		while (end > at && strchr("])", p[end - 1]))
			end--;
		if (was == 0 && p[0] != '[' && p[0] != '(' && p[0] != '-') {
			report_buf_printf(b, "%s%.*s", any ? " " : "", (int)(end - at), p + at);
			any = true;
		} else if (choices == 1 && at == 1 && end + 1 == n && p[0] == '[' &&
			   p[end] == ']' && depth == 0) {
			/* one optional operand: explain FILE [KEY] */
			report_buf_printf(b, "%s%.*s", any ? " " : "", (int)n, p);
			any = true;
		} else if (choices && end > at && p[at] != '|') {
			report_buf_printf(b, "%s%.*s", choices == 1 ? (any ? " " : "") : "|",
					  (int)(end - at), p + at);
			choices = 2;
			any = true;
		}
		if (depth == 0)
			choices = 0;
		p += n;
	}
	report_buf_printf(b, "%s", any ? "" : "-");
}

/* The options that opts admits: "-j/--json", "-s/--set=KEY=VALUE", "--by=time|cost". */
static void usage_options(struct report_buf *b, unsigned opts)
{
	bool any = false;

	for (size_t i = 0; i < NOPTIONS; i++) {
		const struct cli_option *o = &cli_options[i];
		if (!cli_option_ok(o, opts))
			continue;
		report_buf_printf(b, "%s", any ? " " : "");
		if (o->val < 256)
			report_buf_printf(b, "-%c/", o->val);
		report_buf_printf(b, "--%s%s%s", o->name, o->arg ? "=" : "", o->arg ? o->arg : "");
		any = true;
	}
}

/* gpuplan commands (hidden): one line per command as TSV: name, operands, options and the
 * first phrase of its help; first a line "-" for the terminal UI (with --version). The
 * bash, zsh and fish completions read it, as git's --git-completion-helper. With the
 * operand hidden, the hidden rows instead, for the man page's check of its entries. */

static int check_commands(struct cli *c)
{
	if (c->nargs && strcmp(c->args[0], "hidden") != 0)
		return cli_usage_error(c, "unknown operand '%s' (expected hidden)", c->args[0]);
	return 0;
}

static int cmd_commands(struct cli *c)
{
	struct report_buf *b = &c->out;
	bool hidden = c->nargs > 0;

	if (!hidden) {
		report_buf_printf(b, "-\tFILE\t");
		usage_options(b, OPT_UI);
		report_buf_printf(b, "\tthe terminal UI\n");
	}
	for (const struct command *cmd = commands; cmd->name; cmd++) {
		if (!(cmd->flags & CMD_HIDDEN) != !hidden)
			continue;
		report_buf_printf(b, "%s\t", cmd->name);
		usage_operands(b, cmd->usage);
		report_buf_printf(b, "\t");
		usage_options(b, cmd->opts);
		report_buf_printf(b, "\t");
		/* its first phrase, up to a word's ": " or ". " or the text's end (a ':' alone,
		 * as in "and : commands", is a word); a phrase may run over the help's line
		 * breaks, which read as spaces */
		for (const char *h = cmd->help; *h; h++) {
			if (strchr(":.", *h) && h > cmd->help && h[-1] != ' ' &&
			    (!h[1] || strchr(" \n", h[1])))
				break;
			report_buf_printf(b, "%c", *h == '\n' ? ' ' : *h);
		}
		report_buf_printf(b, "\n");
	}
	return 0;
}

/* Whether path names a file that is not there yet in a folder that is: the terminal UI opens
 * the built-in scenario bound to it, as an editor opens a new file, and its :w creates it.
 * Anything else (a missing folder, a file that cannot be read) stays an error. */
static bool cli_is_new_file(const char *path)
{
	const char *slash = strrchr(path, '/');
	char dir[4096];
	struct stat st;

	if (strcmp(path, "-") == 0 || lstat(path, &st) == 0 || errno != ENOENT)
		return false;
	if (!slash)
		return true;
	snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path), path);
	return stat(dir, &st) == 0 && S_ISDIR(st.st_mode);
}

static int cli_run_ui(struct cli *c, int argc, char **argv, cli_ui_fn ui)
{
	struct scenario *s;
	const char *path;
	int rc;

	if ((rc = cli_parse(c, argc, argv, 1, OPT_UI)) != 0)
		return rc;
	if (c->help)
		return cli_print_help(c);
	if (c->version) {
		printf("gpuplan %s\n", GPUPLAN_VERSION);
		return fflush(stdout) ? EXIT_IO : 0;
	}
	if (c->nargs > 1)
		return cli_usage_error(c, "too many arguments");
	/* the UI keeps its file's name in a fixed field (struct app's path[GP_PATH_MAX],
	 * ui/app.h): a longer one is refused whole, never cut into the name of another file
	 * that :w would then write */
	if (c->nargs && strlen(c->args[0]) >= CLI_UI_PATH_MAX) {
		cli_error(c, "file name too long for the terminal UI (%zu bytes; at most %d)",
			  strlen(c->args[0]), CLI_UI_PATH_MAX - 1);
		return EXIT_IO;
	}
	path = c->nargs ? c->args[0] : NULL;
	if (path && strcmp(path, "-") && access(path, F_OK) != 0 && !strchr(path, '/') &&
	    !strchr(path, '.')) {
		for (const struct command *cmd = commands; cmd->name; cmd++)
			if (!(cmd->flags & CMD_HIDDEN) && text_edit_distance(path, cmd->name) <= 2)
				return cli_usage_error(
				    c,
				    "'%s' is neither a command nor a file (did you "
				    "mean '%s'?)",
				    path, cmd->name);
	}
	if (!ui)
		return cli_usage_error(c, "this build has no terminal UI");
	s = malloc(sizeof(*s));
	if (!s)
		return cli_no_memory(c);
	/* the UI shows validation problems beside the fields: only unreadable files stop it */
	rc = cli_load(c, path && cli_is_new_file(path) ? NULL : path, s, NULL, false);
	if (rc == 0)
		rc = ui(c->cat, s, path, c->ascii ? CLI_UI_ASCII : 0);
	free(s);
	return rc;
}

/* A command as its row of commands[] says: its checks, the catalog, FILE (and B) loaded
 * and planned, the command, then its result written and everything freed, on every path.
 * Returns the exit status. */
static int cli_run_command(struct cli *c, const struct command *cmd)
{
	int n = cmd->flags & CMD_FILES2 ? 2 : cmd->flags & CMD_FILE ? 1 : 0, rc = 0;

	if (cmd->check)
		rc = cmd->check(c);
	if (rc == 0 && (cmd->flags & CMD_CATALOG))
		rc = cli_load_catalog(c);
	for (int i = 0; rc == 0 && i < n; i++)
		if (!(c->s[i] = malloc(sizeof(*c->s[i]))) ||
		    !(c->src[i] = malloc(sizeof(*c->src[i]))) ||
		    ((cmd->flags & CMD_PLAN) && !(c->p[i] = malloc(sizeof(*c->p[i])))))
			rc = cli_no_memory(c);
	for (int i = 0; rc == 0 && i < n; i++)
		rc = cli_load(c, c->args[i], c->s[i], c->src[i], !(cmd->flags & CMD_UNCHECKED));
	for (int i = 0; rc == 0 && (cmd->flags & CMD_PLAN) && i < n; i++)
		plan_compute(c->s[i], c->p[i]);
	if (rc == 0) {
		/* ulimit -f: write(2) fails with EFBIG and the save removes its temporary file,
		 * where the default action would kill it first */
		signal(SIGXFSZ, SIG_IGN);
		rc = cmd->run(c);
	}
	/* the result, only once nothing can fail any more: standard output stays empty on an
	 * error */
	if (rc == 0 && c->json_result) {
		rc = cli_write_json(c, c->json_out); /* frees it; NULL: out of memory */
		c->json_out = NULL;
	} else if (rc == 0 && c->out_raw) {
		rc = c->out.failed ? cli_no_memory(c) : cli_write(c, c->out.data, c->out.len);
	} else if (rc == 0 && (c->out.len || c->out.failed)) {
		rc = cli_write_buf(c, &c->out);
	}
	if (rc == 0)
		rc = c->status;
	report_json_free(c->json_out);
	report_buf_release(&c->out);
	for (int i = 0; i < 2; i++) {
		free(c->s[i]);
		free(c->src[i]);
		free(c->p[i]);
	}
	return rc;
}

int cli_main(int argc, char **argv, cli_ui_fn ui, cli_keys_fn keys)
{
	struct cli *c = calloc(1, sizeof(*c));
	const struct command *cmd;
	int rc;

	if (!c)
		return cli_no_memory(c);
	/* every --set is one argument at least, so argc of them is room for all */
	c->sets = calloc(argc > 0 ? (size_t)argc : 1, sizeof(*c->sets));
	c->measured = calloc(argc > 0 ? (size_t)argc : 1, sizeof(*c->measured));
	if (!c->sets || !c->measured) {
		free(c->sets);
		free(c->measured);
		free(c);
		return cli_no_memory(NULL);
	}
	c->argv0 = argc > 0 ? argv[0] : NULL;
	c->keys = keys;
	if (argc >= 2 && strcmp(argv[1], "--version") == 0) {
		printf("gpuplan %s\n", GPUPLAN_VERSION);
		rc = fflush(stdout) ? EXIT_IO : 0;
	} else if (argc >= 2 && (cmd = cli_command_find(argv[1])) != NULL) {
		c->cmd = cmd->name;
		rc = cli_parse(c, argc, argv, 2, cmd->opts);
		if (rc == 0 && c->help) {
			rc = cli_print_command_help(c, cmd);
		} else if (rc == 0 && c->nargs < cmd->min_args) {
			rc = cli_usage_error(c, "missing %s", c->nargs ? "argument" : "FILE");
		} else if (rc == 0 && c->nargs > cmd->max_args) {
			rc =
			    cli_usage_error(c, "too many arguments ('%s')", c->args[cmd->max_args]);
		} else if (rc == 0) {
			rc = cli_run_command(c, cmd);
		}
	} else {
		rc = cli_run_ui(c, argc, argv, ui);
	}
	catalog_free(c->cat);
	free(c->prof);
	free(c->sets);
	free(c->measured);
	free(c);
	return rc;
}
