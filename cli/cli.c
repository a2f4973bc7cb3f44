/* cli.c - gpuplan's command line: parse arguments, load, call the core, print.
 *
 * Every command builds its whole output in memory and writes it only once nothing can
 * fail any more, so an error leaves standard output empty (gpuplan(1), EXIT STATUS: a
 * message on stderr, nothing on stdout, exit 2 for bad usage or input, 1 for I/O).
 */
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "calibrate.h"
#include "calibrate_cli.h"
#include "catalog.h"
#include "diff.h"
#include "error.h"
#include "explain.h"
#include "figure.h"
#include "file.h"
#include "hf_config.h"
#include "import.h"
#include "plan.h"
#include "profile.h"
#include "report.h"
#include "report_json.h"
#include "scenario.h"
#include "scenario_sets.h"
#include "scenario_yaml.h"
#include "search.h"
#include "sweep.h"
#include "text.h"
#include "units.h"

#ifndef GPUPLAN_VERSION
#define GPUPLAN_VERSION "unknown"
#endif

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

static int cli_usage_error(struct cli *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void cli_error(const struct cli *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static const struct command *command_find(const char *name);

/* Messages ----------------------------------------------------------------------------- */

/* Every message on standard error goes through here, one line each. A problem at a place
 * (placed: "FILE:LINE:COL: ..." or "--set KEY=VALUE: ...", the form editors jump to) is
 * written as it is; any other starts with "gpuplan: " or "gpuplan COMMAND: " (gpuplan(1),
 * DIAGNOSTICS). A control character or a byte that is not UTF-8, which only a file or an
 * argument can have put there, is written escaped (text_escape_control): a scenario cannot
 * retitle or clear the terminal through a message. The text is kept whole, however long. */
static void cli_vsay(const struct cli *c, bool placed, const char *fmt, va_list ap)
{
	char stack[1024], *text = stack, *heap = NULL, *out;
	size_t need;
	va_list aq;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(stack, sizeof(stack), fmt, aq);
	va_end(aq);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(stack) && (text = heap = malloc((size_t)n + 1)) != NULL)
		vsnprintf(text, (size_t)n + 1, fmt, ap);
	if (!text) {
		fputs("gpuplan: out of memory\n", stderr);
		return;
	}
	need = text_escape_control(text, (size_t)n, NULL, 0, 0);
	out = malloc(need + 1);
	if (out)
		text_escape_control(text, (size_t)n, out, need + 1, 0);
	if (!placed)
		fprintf(stderr, "gpuplan%s%s: ", c && c->cmd ? " " : "", c && c->cmd ? c->cmd : "");
	fprintf(stderr, "%s\n", out ? out : "out of memory");
	free(out);
	free(heap);
}

/* A message that names no place: "gpuplan[ COMMAND]: ...". */
static void cli_error(const struct cli *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cli_vsay(c, false, fmt, ap);
	va_end(ap);
}

static void cli_placed(const struct cli *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void cli_placed(const struct cli *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cli_vsay(c, true, fmt, ap);
	va_end(ap);
}

/* Out of memory: exit status 1. */
static int cli_no_memory(const struct cli *c)
{
	cli_error(c, "out of memory");
	return EXIT_IO;
}

static int cli_usage_error(struct cli *c, const char *fmt, ...)
{
	va_list ap;
	const struct command *cmd = c->cmd ? command_find(c->cmd) : NULL;

	va_start(ap, fmt);
	cli_vsay(c, false, fmt, ap);
	va_end(ap);
	if (cmd)
		fprintf(stderr, "usage: %s\n", cmd->usage);
	else
		fprintf(stderr,
			"usage: " UI_USAGE ", or gpuplan COMMAND ...; see gpuplan --help\n");
	return EXIT_USAGE;
}

/* Prints an error: "FILE:LINE[:COL]: message" when it has a line, "--set KEY=VALUE:
 * message" for a --set, else "gpuplan: FILE: message" (fallback as the file when it names
 * none) or "gpuplan COMMAND: message". gp_error keeps a file name in a fixed field: when
 * that is fallback cut short, fallback is written whole, never the name of another file.
 * Returns the error's exit status. */
static int cli_print_error(const struct cli *c, const struct gp_error *err, const char *fallback)
{
	const char *file = err->file[0] ? err->file : fallback ? fallback : "";
	char pos[32] = "";

	if (fallback && strlen(err->file) == sizeof(err->file) - 1 &&
	    strncmp(fallback, err->file, sizeof(err->file) - 1) == 0)
		file = fallback;
	if (err->line > 0 && err->column > 0)
		snprintf(pos, sizeof(pos), ":%d:%d", err->line, err->column);
	else if (err->line > 0)
		snprintf(pos, sizeof(pos), ":%d", err->line);
	if (!file[0])
		cli_error(c, "%s", err->message);
	else if (pos[0] || strncmp(file, "--set ", 6) == 0)
		cli_placed(c, "%s%s: %s", file, pos, err->message);
	else
		cli_error(c, "%s: %s", file, err->message);
	return gp_error_exit_status(err);
}

static void cli_print_problems(const struct cli *c, const struct gp_problems *probs,
			       const char *fallback)
{
	for (int i = 0; i < probs->count; i++)
		cli_print_error(c, &probs->items[i], fallback);
	if (probs->dropped)
		cli_error(c, "%s: %d more problems not shown", fallback ? fallback : "scenario",
			  probs->dropped);
}

/* -o - and -o /dev/stdout: standard output, written as without -o (no temporary file
 * beside a pipe or a terminal). */
static bool cli_output_is_stdout(const char *out)
{
	return strcmp(out, "-") == 0 || strcmp(out, "/dev/stdout") == 0;
}

/* Before a save to out: a FIFO, a device or a link loop is refused (as file_write_atomic
 * refuses it), and so is a read-only file (the command line has no :w!). 0, or the exit
 * status with a message; warns when other hard links will keep the old text. */
static int cli_output_check(const struct cli *c, const char *out)
{
	struct gp_error err = {0};
	struct file_target t;

	if (file_check_target(out, &t, &err) != 0)
		return cli_print_error(c, &err, out);
	if (t.exists && !t.writable) {
		cli_error(c, "%s: cannot save: the file is read-only", out);
		return EXIT_IO;
	}
	if (t.links > 1)
		cli_error(c, "warning: %s has %lu other hard links, which keep the old text", out,
			  t.links - 1);
	return 0;
}

/* Writes text to standard output; 0, or EXIT_IO with a message. */
static int cli_write(const struct cli *c, const char *text, size_t len)
{
	if ((len && fwrite(text, 1, len, stdout) != len) || fflush(stdout) != 0) {
		cli_error(c, "writing standard output: %s", strerror(errno));
		return EXIT_IO;
	}
	return 0;
}

/* Prints a JSON document built by report_json_*, then frees it; NULL means out of memory.
 * cJSON writes a C0 control character as \u00XX but a C1 one (U+0080 to U+009F, which a
 * terminal may read as CSI) raw: it is written \u00XX here, the same string to a JSON
 * reader (RFC 8259 section 7). */
static int cli_write_json(const struct cli *c, struct cJSON *j)
{
	char *text = j ? report_json_print(j) : NULL, *out;
	size_t len, n = 0, c1 = 0;
	int rc;

	report_json_free(j);
	if (!text)
		return cli_no_memory(c);
	len = strlen(text);
	for (size_t i = 0; i + 1 < len; i++)
		c1 += (unsigned char)text[i] == 0xc2 && ((unsigned char)text[i + 1] & 0xe0) == 0x80;
	if (!c1) {
		rc = cli_write(c, text, len);
		free(text);
		return rc;
	}
	if (!(out = malloc(len + 4 * c1 + 1))) {
		free(text);
		return cli_no_memory(c);
	}
	for (size_t i = 0; i < len; i++) {
		unsigned char u = (unsigned char)text[i], v = (unsigned char)text[i + 1];
		if (u == 0xc2 && (v & 0xe0) == 0x80) {
			n += (size_t)sprintf(out + n, "\\u00%02x", v);
			i++;
		} else {
			out[n++] = text[i];
		}
	}
	rc = cli_write(c, out, n);
	free(out);
	free(text);
	return rc;
}

/* Writes a text, Markdown or CSV result for a person's terminal: its lines and tabs as they
 * are, any other control character that a name, a note or a value from a file brought in
 * escaped (text_escape_control), as in messages. */
static int cli_write_text(const struct cli *c, const char *text, size_t len)
{
	const unsigned flags = TEXT_KEEP_NEWLINE | TEXT_KEEP_TAB;
	size_t need = text_escape_control(text, len, NULL, 0, flags);
	char *out;
	int rc;

	if (need == len)
		return cli_write(c, text, len);
	if (!(out = malloc(need + 1)))
		return cli_no_memory(c);
	text_escape_control(text, len, out, need + 1, flags);
	rc = cli_write(c, out, need);
	free(out);
	return rc;
}

static int cli_write_buf(const struct cli *c, const struct report_buf *b)
{
	if (b->failed)
		return cli_no_memory(c);
	return cli_write_text(c, b->data ? b->data : "", b->len);
}

/* Loading ------------------------------------------------------------------------------ */

static int cli_load_catalog(struct cli *c)
{
	struct gp_error err = {0};
	ssize_t n;

	if (c->cat)
		return 0;
	/* the catalog lives beside the executable: resolve it even when run through $PATH */
	n = readlink("/proc/self/exe", c->exe, sizeof(c->exe) - 1);
	c->exe[n > 0 ? n : 0] = '\0';
	c->cat = catalog_new();
	if (!c->cat)
		return cli_no_memory(c);
	if (catalog_load_default(c->cat, c->exe[0] ? c->exe : c->argv0, &err) != 0)
		return cli_print_error(c, &err, "catalog");
	for (int i = 0; i < c->cat->nwarnings; i++)
		cli_error(c, "warning: %s", c->cat->warnings[i]);
	if (c->cat->nwarnings_dropped)
		cli_error(c, "warning: %d more user catalog files or entries skipped",
			  c->cat->nwarnings_dropped);
	return 0;
}

/* Whether the file src wrote key. */
static bool cli_src_has(const struct scenario_source *src, const char *key)
{
	for (int i = 0; src && i < src->nkeys; i++)
		if (strcmp(src->keys[i].key, key) == 0)
			return true;
	return false;
}

/* A problem with a field that a --set changed points at that --set, not at the file; so
 * does one with a field the file does not write (placed at its section or the file's
 * top) whose section a --set changed: --set workload.prompt_length.dist=lognormal makes
 * the missing prompt_length.sigma a problem of that --set. */
static void cli_blame_sets(const struct cli *c, const struct scenario_source *src,
			   struct gp_problems *probs)
{
	for (int i = 0; i < probs->count; i++) {
		struct gp_error *e = &probs->items[i];
		size_t n = strlen(e->field);
		const char *dot = strrchr(e->field, '.');
		size_t sec = dot && !cli_src_has(src, e->field) ? (size_t)(dot - e->field) + 1 : 0;
		int at = -1;

		for (int k = c->nsets - 1; n && k >= 0 && at < 0; k--)
			if (strncmp(c->sets[k], e->field, n) == 0 && c->sets[k][n] == '=')
				at = k;
		for (int k = c->nsets - 1; sec && k >= 0 && at < 0; k--)
			if (strncmp(c->sets[k], e->field, sec) == 0 &&
			    !strchr(c->sets[k] + sec, '.'))
				at = k;
		if (at >= 0) {
			snprintf(e->file, sizeof(e->file), "--set %s", c->sets[at]);
			e->line = e->column = 0;
		}
	}
}

/* Each of warns (scenario_ignored_fields) as "FILE:LINE:COL: warning: message"; none for
 * --json, whose result carries them. */
static void cli_print_warnings(const struct cli *c, const struct gp_problems *warns,
			       const char *fallback)
{
	for (int i = 0; !c->json && i < warns->count; i++) {
		const struct gp_error *e = &warns->items[i];
		if (e->line > 0)
			cli_error(c, "%s:%d:%d: warning: %s", e->file, e->line, e->column,
				  e->message);
		else
			cli_error(c, "%s: warning: %s", e->file[0] ? e->file : fallback,
				  e->message);
	}
}

/* The fields s's workload kind or framework ignores (scenario_ignored_fields) into warns,
 * each --set counted as written in the file and placed at that --set (cli_blame_sets), as
 * check and report give them. s is left as it was. Returns 0, or the exit status of no
 * memory. */
static int cli_ignored_fields(const struct cli *c, const struct scenario *s,
			      const struct scenario_source *src, struct gp_problems *warns)
{
	struct scenario *w = malloc(sizeof(*w));

	gp_problems_init(warns);
	if (!w)
		return cli_no_memory(c);
	*w = *s;
	for (int i = 0; i < c->nsets; i++) {
		const struct field *f;
		const char *value;
		ptrdiff_t idx;
		if (scenario_assignment_split(c->sets[i], &f, &value, NULL) != 0)
			continue;
		idx = f - scenario_fields;
		if (idx >= 0 && idx < SCENARIO_MAX_FIELDS)
			w->written[idx / 8] |= (unsigned char)(1u << (idx % 8));
	}
	scenario_ignored_fields(w, src, warns);
	cli_blame_sets(c, src, warns);
	free(w);
	return 0;
}

/* Reads --profile NAME once (into c->prof) and applies it to s. Returns 0 or the exit
 * status, the problem printed: a bad name is a usage error, a bad file bad input at its
 * FILE:LINE:COL, a missing one (except for calibrate, which makes it) an I/O failure. */
static int cli_load_profile(struct cli *c, struct scenario *s)
{
	struct gp_error err = {0};
	bool missing = false;

	if (!c->prof) {
		if (!(c->prof = malloc(sizeof(*c->prof))))
			return cli_no_memory(c);
		if (profile_load(c->profile, c->cat, c->prof, &missing, &err) != 0) {
			if (!missing || !c->cmd || strcmp(c->cmd, "calibrate") != 0) {
				if (missing)
					cli_error(
					    c,
					    "no calibration profile '%s' (%s): gpuplan "
					    "calibrate FILE --measured KEY=VALUE --profile %s "
					    "makes it",
					    c->profile, c->prof->path, c->profile);
				else
					cli_print_error(c, &err, c->profile);
				free(c->prof);
				c->prof = NULL;
				return err.code == GP_EUSAGE || err.code == GP_EINPUT ? EXIT_USAGE
										      : EXIT_IO;
			}
		}
	}
	profile_apply(c->prof, s);
	return 0;
}

/* Loads path (or, when path is NULL, the built-in scenario), applies every --set, and,
 * when validate is true, refuses a scenario with problems, printing all of them. Returns
 * 0 or the exit status. */
static int cli_load(struct cli *c, const char *path, struct scenario *s,
		    struct scenario_source *src, bool validate)
{
	struct gp_problems *probs;
	struct scenario_source *own_src = NULL;
	struct gp_error err = {0};
	int rc;

	if ((rc = cli_load_catalog(c)) != 0)
		return rc;
	probs = malloc(sizeof(*probs));
	if (!probs)
		return cli_no_memory(c);
	gp_problems_init(probs);
	if (!src && path && c->nsets) {
		/* the file's keys, for --set presets (scenario_apply_sets) */
		src = own_src = malloc(sizeof(*own_src));
		if (!src) {
			free(probs);
			return cli_no_memory(c);
		}
	}
	if (src)
		memset(src, 0, sizeof(*src));
	if (path) {
		if (scenario_load_file(path, c->cat, s, src, probs, &err) != 0) {
			if (probs->count)
				cli_print_problems(c, probs, path);
			else
				cli_print_error(c, &err, path);
			/* an unreadable file is an I/O failure (1), anything in it bad input (2) */
			rc = err.code == GP_OK ? EXIT_USAGE : gp_error_exit_status(&err);
			goto out;
		}
	} else if (scenario_init_builtin(s, c->cat, &err) != 0) {
		rc = cli_print_error(c, &err, "built-in scenario");
		goto out;
	}
	/* --profile NAME: its knobs replace the file's, and every --set comes after them;
	 * calibrate may name a profile that it is about to make */
	if (c->profile && (rc = cli_load_profile(c, s)) != 0)
		goto out;
	/* --set works as if written in the file (scenario_apply_sets): presets first, then the
	 * file's own fields of that section again over them, then every other --set in order */
	{
		int bad;
		if (scenario_apply_sets(s, c->cat, c->sets, c->nsets, src, &bad, &err) != 0) {
			if (bad < 0) {
				rc = cli_no_memory(c);
				goto out;
			}
			cli_placed(c, "--set %s: %s", c->sets[bad], err.message);
			rc = EXIT_USAGE;
			goto out;
		}
	}
	if (validate) {
		gp_problems_init(probs);
		scenario_validate(s, src, probs);
		cli_blame_sets(c, src, probs);
		if (probs->count) {
			cli_print_problems(c, probs, path ? path : "built-in scenario");
			rc = EXIT_USAGE;
			goto out;
		}
	}
	rc = 0;
out:
	free(probs);
	free(own_src);
	return rc;
}

/* Commands -----------------------------------------------------------------------------
 *
 * Each command is a row of commands[] below: its options (OPT_*), and what cli_main does
 * for it before and after it runs (CMD_*), as git's run_builtin does for its builtins'
 * RUN_SETUP: the catalog, FILE (and B) loaded as report loads them and planned, and one
 * exit path that writes the result the command left in c->out or c->json_out and frees
 * what was prepared. A command computes and formats; it returns 0 or the exit status of
 * a problem it printed. */

/* j, a document report_json_* built (NULL when out of memory), is the command's result. */
static void cli_json_result(struct cli *c, struct cJSON *j)
{
	c->json_out = j;
	c->json_result = true;
}

static int cmd_report(struct cli *c)
{
	struct gp_problems *warns = malloc(sizeof(*warns));
	int rc;

	if (!warns)
		return cli_no_memory(c);
	/* the fields the workload kind or framework ignores, as check gives them (issue 12):
	 * on standard error at their FILE:LINE:COL, or in the JSON's warnings; the report's
	 * exit status stays its own */
	rc = cli_ignored_fields(c, c->s[0], c->src[0], warns);
	if (rc == 0 && c->json)
		cli_json_result(c, report_json_build_warned(c->s[0], c->p[0], warns));
	else if (rc == 0) {
		cli_print_warnings(c, warns, c->args[0]);
		if (c->markdown)
			report_markdown(&c->out, c->s[0], c->p[0]);
		else
			report_text(&c->out, c->s[0], c->p[0]);
	}
	free(warns);
	return rc;
}

static int cmd_explain(struct cli *c)
{
	struct explain_parts *parts;
	size_t size = 1 << 16;
	char *buf;
	struct gp_error err = {0};
	int rc = 0;

	if (c->nargs < 2) {
		/* without KEY: the keys it explains, one a line on standard output (gpuplan(1)):
		 * the figure table's, numbers first, then the word rows (memory.fits) */
		if (c->json) {
			cli_json_result(c, report_json_explain_keys(explain_keys()));
			return 0;
		}
		for (const char *const *k = explain_keys(); *k; k++)
			report_buf_printf(&c->out, "%s\n", *k);
		c->out_raw = true;
		return 0;
	}
	parts = malloc(sizeof(*parts));
	buf = malloc(size);
	if (!parts || !buf) {
		rc = cli_no_memory(c);
		goto out;
	}
	buf[0] = '\0';
	if (explain_key_parts(c->s[0], c->p[0], c->args[1], 80, buf, size, parts, &err) != 0)
		rc = cli_print_error(c, &err, NULL);
	else if (c->json)
		cli_json_result(c,
				report_json_explain(figure_find(c->args[1]), c->p[0], parts, buf));
	else
		report_buf_printf(&c->out, "%s", buf);
out:
	free(parts);
	free(buf);
	return rc;
}

static int check_diff(struct cli *c)
{
	if (strcmp(c->args[0], "-") == 0 && strcmp(c->args[1], "-") == 0)
		return cli_usage_error(c, "standard input ('-') can be only one of A and B");
	return 0;
}

static int cmd_diff(struct cli *c)
{
	struct diff *d = malloc(sizeof(*d));

	if (!d)
		return cli_no_memory(c);
	diff_compute(c->s[0], c->p[0], c->s[1], c->p[1], d);
	if (c->json)
		cli_json_result(c, report_json_diff(d, c->s[0], c->p[0], c->s[1], c->p[1]));
	else if (c->csv)
		report_diff_csv(&c->out, d, c->s[0], c->s[1]);
	else if (c->markdown)
		diff_markdown(&c->out, d, c->args[0], c->args[1]);
	else
		diff_text(&c->out, d, c->args[0], c->args[1]);
	free(d);
	return 0;
}

/* `search --scaling` (report_scaling_csv): the best layout by time at each GPU count. */
static int search_scaling_csv(struct cli *c, const struct scenario *s,
			      const struct search_options *opt)
{
	int counts[21], n = report_scaling_counts(s, counts, 21);
	struct search_result *out = calloc((size_t)n, sizeof(*out));

	if (!out)
		return cli_no_memory(c);
	search_scaling(s, opt, counts, n, out);
	report_scaling_csv(&c->out, s, c->cat, counts, out, n);
	free(out);
	return 0;
}

/* Why no hardware.count meets, where the plan knows a reason no count changes (a lone
 * request's latency above the SLO, a load past the most GPUs planned: the warnings
 * report's GPUs required row quotes): appended to err's message. */
static void solve_count_reason(const struct scenario *s, struct gp_error *err)
{
	struct plan *p = malloc(sizeof(*p));
	size_t n = strlen(err->message);
	char why[320];

	if (!p)
		return;
	plan_compute(s, p);
	if (report_fleet_reason(p, why, sizeof(why)))
		snprintf(err->message + n, sizeof(err->message) - n, ": %s", why);
	free(p);
}

static int check_solve(struct cli *c)
{
	if (!c->solve_key)
		return cli_usage_error(c, "missing --max KEY or --min KEY");
	return 0;
}

static int cmd_solve(struct cli *c)
{
	struct scenario *s = c->s[0];
	struct gp_error err = {0};
	const struct field *f;
	double value;
	char text[160];

	if (search_solve(s, c->solve_key, c->solve_max, &value, &err) != 0) {
		if (err.code == GP_EINPUT && strcmp(c->solve_key, "hardware.count") == 0)
			solve_count_reason(s, &err);
		return cli_print_error(c, &err, NULL);
	}
	/* write the value back through the field table, so it prints as a file would */
	f = scenario_field_find(c->solve_key);
	if (f->type == FIELD_INT)
		snprintf(text, sizeof(text), "%.0f", value);
	else
		units_format(f->unit, value, text, sizeof(text));
	if (scenario_field_set(s, c->cat, f, text, NULL) == 0)
		scenario_field_format(s, f, text, sizeof(text));
	if (c->json) {
		cli_json_result(c, report_json_solve(f->key, c->solve_max, value, text));
		return 0;
	}
	/* a bisected real ("5087242.126464844 requests a day") to 3 digits as units.c writes
	 * them ("5.08M"), rounded toward the side that still fits: down for --max, up for
	 * --min, so --set with it meets what the exact value meets; --json keeps it whole */
	if (f->type != FIELD_INT && isfinite(value) && value > 0) {
		double step = pow(10, floor(log10(value)) - 2);
		double r = (c->solve_max ? floor(value / step) : ceil(value / step)) * step;
		units_format(f->unit, r, text, sizeof(text));
	}
	/* standard output is KEY=VALUE alone, ready for --set "$(gpuplan solve ...)";
	 * what the value is goes to standard error, for the person reading */
	cli_error(c, "the %s value that fits%s", c->solve_max ? "largest" : "smallest",
		  search_has_target(s) ? " and meets the deadline or SLO" : "");
	report_buf_printf(&c->out, "%s=%s\n", f->key, text);
	c->out_raw = true;
	return 0;
}

static int cmd_search(struct cli *c)
{
	struct search_options opt = {0};
	struct search_stats stats = {0};
	struct search_result *res;
	struct timespec t0, t1;
	double seconds;
	int n;

	opt.top = c->top ? atoi(c->top) : 10;
	opt.by = c->by && strcmp(c->by, "cost") == 0 ? SEARCH_BY_COST : SEARCH_BY_TIME;
	opt.hardware = c->hardware;
	opt.cat = c->cat;
	if (c->scaling)
		return search_scaling_csv(c, c->s[0], &opt);
	if (!(res = calloc((size_t)opt.top, sizeof(*res))))
		return cli_no_memory(c);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	n = search_run(c->s[0], &opt, res, &stats);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
	if (c->json)
		cli_json_result(
		    c, report_json_search(c->s[0], c->cat, res, n, stats.evaluated, seconds));
	else if (c->csv)
		report_search_csv(&c->out, c->s[0], c->cat, res, n);
	else
		report_search_text(&c->out, c->s[0], c->cat, &opt, res, n, &stats, seconds,
				   c->args[0]);
	free(res);
	return 0;
}

/* gpuplan sweep (cli/sweep.c): the scenario loaded as report loads it, then swept. */
static int cmd_sweep(struct cli *c)
{
	/* the loaded scenario, its source for a swept preset, and the ranges after FILE */
	struct sweep_request r = {.cat = c->cat,
				  .s = c->s[0],
				  .file = c->args[0],
				  .src = c->src[0],
				  .nsets = c->nsets,
				  .sets = (const char *const *)c->sets,
				  .nranges = c->nargs - 1,
				  .ranges = c->args + 1,
				  .nys = c->nys,
				  .ys = c->ys,
				  .svg = c->svg,
				  .json = c->json,
				  .csv = c->csv,
				  .ascii = c->ascii};

	return sweep_run(&r);
}

static int cmd_import(struct cli *c)
{
	struct model m;
	struct hf_config_info info;
	struct gp_error err = {0};
	char *text = NULL, path[4096];
	size_t len = 0;
	int rc;

	/* CONFIG.json, or a Hub id found in the local Hugging Face cache */
	if (hf_config_resolve_path(c->args[0], path, sizeof(path), &err) != 0 ||
	    hf_config_load_file_info(path, &m, &info, &err) != 0)
		return cli_print_error(c, &err, c->args[0]);
	for (int i = 0; i < info.nwarnings; i++)
		cli_error(c, "%s: warning: %s", path, info.warnings[i]);
	if (c->import_scenario && c->model_only)
		return cli_usage_error(c, "give one of --scenario and --model-only");
	if (scenario_format_model_yaml(&m, &text, &len, &err) != 0)
		return cli_print_error(c, &err, c->args[0]);
	if (c->model_only)
		report_buf_printf(&c->out, "%.*s", (int)len, text);
	else /* the model block in a whole scenario (cli/import.c), unless --model-only */
		import_scenario(&c->out, c->args[0], text, len, &m.quant);
	free(text);
	if (c->out.failed)
		return cli_no_memory(c);
	c->out_raw = true;
	if (c->output && !cli_output_is_stdout(c->output)) {
		rc = cli_output_check(c, c->output);
		if (rc == 0 && file_write_atomic(c->output, c->out.data, c->out.len, &err) != 0)
			rc = cli_print_error(c, &err, c->output);
		report_buf_release(&c->out); /* written to the file, not to standard output */
		return rc;
	}
	return 0;
}

static int cmd_check(struct cli *c)
{
	struct scenario *s = malloc(sizeof(*s));
	struct scenario_source *src = malloc(sizeof(*src));
	struct gp_problems *probs = malloc(sizeof(*probs)), *vp = malloc(sizeof(*vp));
	struct plan *p = malloc(sizeof(*p));
	struct gp_error err = {0};
	const char *path = c->args[0];
	int rc = 0, load_rc, nread;

	if (!s || !src || !probs || !vp || !p) {
		rc = cli_no_memory(c);
		goto out;
	}
	gp_problems_init(probs);
	gp_problems_init(vp);
	p->nwarnings = 0;
	memset(src, 0, sizeof(*src));
	load_rc = scenario_load_file(path, c->cat, s, src, probs, &err);
	if (load_rc != 0 && (!probs->count || err.code == GP_EIO)) {
		/* nothing was read (a missing file): nothing to validate either. For --json, a
		 * file that is there but is bad input is one problem; one that cannot be read
		 * stays an error, with standard output empty */
		if (c->json && err.code != GP_EIO && err.code != GP_EINTERNAL) {
			gp_problems_add(probs, &err);
			goto print;
		}
		rc = cli_print_error(c, &err, path);
		goto out;
	}
	for (int i = 0; i < c->nsets; i++) {
		struct gp_error e = {0};
		if (scenario_load_assignment(s, c->cat, c->sets[i], &e) != 0) {
			snprintf(e.file, sizeof(e.file), "--set %s", c->sets[i]);
			gp_problems_add(probs, &e);
		}
	}
	/* A file that did not read as a scenario (invalid YAML or UTF-8, a tab, a second
	 * document, too deep, too large: problems that name no field) has no fields to
	 * validate; "no model given" would only repeat that it was not read. */
	for (int i = 0; i < probs->count; i++)
		if (!probs->items[i].field[0] && strncmp(probs->items[i].file, "--set", 5) != 0)
			goto print;
	scenario_validate(s, src, vp);
	cli_blame_sets(c, src, vp);
	/* A value the loader rejected is still unset; leave out the validation problems that
	 * only repeat it. */
	nread = probs->count;
	for (int i = 0; i < vp->count; i++) {
		bool repeat = false;
		for (int j = 0; j < nread && vp->items[i].field[0]; j++) {
			const char *f = probs->items[j].field;
			size_t n = strlen(vp->items[i].field);
			if (f[0] && strncmp(f, vp->items[i].field, n) == 0 &&
			    (f[n] == '\0' || f[n] == '.'))
				repeat = true;
		}
		if (!repeat)
			gp_problems_add(probs, &vp->items[i]);
	}
	/* a valid scenario is planned for the fields its framework ignores (the plan's
	 * framework-conflict warnings, as report gives them): warnings, not problems */
	if (!probs->count && !probs->dropped) {
		if ((rc = cli_ignored_fields(c, s, src, vp)) != 0)
			goto out;
		cli_print_warnings(c, vp, path);
		plan_compute(s, p);
		for (int i = 0; !c->json && i < p->nwarnings; i++) {
			char msg[256];
			if (p->warnings[i].code == PW_FRAMEWORK_CONFLICT &&
			    !plan_warning_field_ignored(&p->warnings[i]))
				cli_error(c, "%s: warning: %s", path,
					  plan_warning_format(&p->warnings[i], msg, sizeof(msg)));
		}
	} else {
		gp_problems_init(vp);
	}
print:
	if (c->json) {
		/* the problems are the result: on standard output, exit status as without */
		cli_json_result(c, report_json_check(path, probs, path, p, vp));
		if (probs->count || probs->dropped)
			c->status = EXIT_USAGE;
	} else if (probs->count || probs->dropped) {
		cli_print_problems(c, probs, path);
		cli_error(c, "%s: %d problem%s", path, probs->count + probs->dropped,
			  probs->count + probs->dropped == 1 ? "" : "s");
		rc = EXIT_USAGE;
	} else {
		report_buf_printf(&c->out, "%s: ok\n", path);
		c->out_raw = true;
	}
out:
	free(s);
	free(src);
	free(probs);
	free(vp);
	free(p);
	return rc;
}

static int cmd_fmt(struct cli *c)
{
	struct gp_error err = {0};
	char *text = NULL;
	size_t len = 0;

	if (c->output && !cli_output_is_stdout(c->output)) {
		/* through scenario_save_file: a relative hf_config follows the new file */
		int rc = cli_output_check(c, c->output);
		if (rc == 0 && scenario_save_file(c->s[0], c->cat, c->output, &err) != 0)
			rc = cli_print_error(c, &err, c->output);
		return rc;
	}
	if (scenario_format_yaml(c->s[0], c->cat, &text, &len, &err) != 0)
		return cli_print_error(c, &err, c->args[0]);
	report_buf_printf(&c->out, "%.*s", (int)len, text);
	c->out_raw = true;
	free(text);
	return 0;
}

static int check_catalog(struct cli *c)
{
	const char *what = c->nargs ? c->args[0] : "all";

	if (strcmp(what, "all") && strcmp(what, "gpus") && strcmp(what, "models"))
		return cli_usage_error(c, "unknown catalog '%s' (expected gpus or models)", what);
	if (c->csv && strcmp(what, "all") == 0)
		return cli_usage_error(c, "--csv writes one table: give gpus or models");
	return 0;
}

static int cmd_catalog(struct cli *c)
{
	const char *what = c->nargs ? c->args[0] : "all";
	bool gpus = strcmp(what, "models") != 0, models = strcmp(what, "gpus") != 0;

	if (c->json)
		cli_json_result(c, report_json_catalog(c->cat, gpus, models));
	else if (c->csv)
		report_catalog_csv(&c->out, c->cat, !models);
	else
		report_catalog(&c->out, c->cat, gpus, models);
	return 0;
}

/* `gpuplan fields`: the field table as TSV, one field a line in file order: key, type,
 * unit, choices (names joined by ',', "catalog:models" or "catalog:gpus" for a preset id,
 * "file" for a file name, the whole numbers of a short range), flags ("auto", "preset",
 * "file", "step-doubles", "ui-hidden"); "-" for an empty column. For shell completion and
 * the man page checks, as git's --git-completion-helper. */
static bool field_auto(const struct field *f)
{
	return f->auto_ok;
}
static bool field_preset(const struct field *f)
{
	return f->flags & FIELD_PRESET;
}
static bool field_file(const struct field *f)
{
	return f->flags & FIELD_FILE;
}
static bool field_doubles(const struct field *f)
{
	return f->flags & FIELD_STEP_DOUBLES;
}
static bool field_hidden(const struct field *f)
{
	return f->pane == FIELD_PANE_NONE;
}

static int cmd_fields(struct cli *c)
{
	static const struct {
		const char *name;
		bool (*on)(const struct field *f);
	} flags[] = {
	    {"auto", field_auto},	 {"preset", field_preset},
	    {"file", field_file},	 {"step-doubles", field_doubles},
	    {"ui-hidden", field_hidden},
	};
	static const char *const types[] = {"int",   "num", "bool",   "enum",
					    "dtype", "str", "targets"};
	struct report_buf *b = &c->out;

	for (const struct field *f = scenario_fields; f->key; f++) {
		const char *name;
		size_t at;
		bool any = false;

		report_buf_printf(b, "%s\t%s\t%s\t", f->key, types[f->type],
				  units_kind_name(f->unit));
		at = b->len;
		if (f->catalog != FIELD_CATALOG_NONE)
			report_buf_printf(b, "catalog:%s",
					  f->catalog == FIELD_CATALOG_MODELS ? "models" : "gpus");
		else if (f->flags & FIELD_FILE)
			report_buf_printf(b, "file");
		else if (f->type == FIELD_BOOL)
			report_buf_printf(b, "true,false");
		else if (f->type == FIELD_INT && f->max > f->min && f->max - f->min < 10)
			for (int v = (int)f->min; v <= (int)f->max; v++)
				report_buf_printf(b, "%s%d", v > f->min ? "," : "", v);
		else
			for (int i = 0; (name = field_choice_name(f, i)); i++)
				report_buf_printf(b, "%s%s", i ? "," : "", name);
		if (b->len == at)
			report_buf_printf(b, "-");
		report_buf_printf(b, "\t");
		for (size_t k = 0; k < sizeof(flags) / sizeof(flags[0]); k++) {
			if (!flags[k].on(f))
				continue;
			report_buf_printf(b, "%s%s", any ? "," : "", flags[k].name);
			any = true;
		}
		report_buf_printf(b, "%s\n", any ? "" : "-");
	}
	return 0;
}

/* gpuplan keys (hidden): the terminal UI's keys and : commands as TSV, for the man page's
 * check (tests/man/run-man.sh). */
static int cmd_keys(struct cli *c)
{
	if (!c->keys)
		return cli_usage_error(c, "this build has no terminal UI");
	return c->keys() ? EXIT_IO : 0;
}

/* `gpuplan validate [DIR]`: the measured rows of DIR (tests/validation) planned again.
 * Exit 0 when every group's MAPE is within its bound, 1 when one is not. */
static int cmd_validate(struct cli *c)
{
	struct validation v;
	struct gp_error err = {0};
	const char *dir = c->nargs ? c->args[0] : "tests/validation";
	int rc = 0;

	validation_init(&v);
	if (validation_load_dir(&v, dir, &err) != 0 || validation_run(&v, c->cat, &err) != 0)
		rc = cli_print_error(c, &err, dir);
	else if (c->json)
		cli_json_result(c, report_json_validation(&v));
	else if (c->csv)
		report_validation_csv(&c->out, &v);
	else if (c->markdown)
		validation_markdown(&c->out, &v);
	else
		validation_text(&c->out, &v);
	if (rc == 0 && !v.pass)
		c->status = EXIT_FAILURE;
	validation_release(&v);
	return rc;
}

/* gpuplan calibrate (cli/calibrate.c): the scenario loaded as report loads it, then fitted. */
static int cmd_calibrate(struct cli *c)
{
	struct calibrate_request r = {.cat = c->cat,
				      .s = c->s[0],
				      .file = c->args[0],
				      .nmeasured = c->nmeasured,
				      .measured = c->measured,
				      .nknobs = c->nknobs,
				      .knobs = c->knobs,
				      .output = c->output,
				      .write = c->write,
				      .json = c->json,
				      .profile = c->prof};

	return calibrate_run(&r);
}

static int cmd_commands(struct cli *c);
static int check_commands(struct cli *c);
static int cmd_figures(struct cli *c);

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

static const struct command *command_find(const char *name)
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
		if (*end || n < 1 || n > 100000)
			return cli_usage_error(c, "--top '%s' is not a count (expected 1 or more)",
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

/* `gpuplan figures`: the figures --y may name, for completion (cli/sweep.c). */
static int cmd_figures(struct cli *c)
{
	sweep_figures(&c->out);
	return 0;
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
		size_t n = 0;

		/* up to the end of its first phrase: ": ", ". " or the line's end */
		while (cmd->help[n] && cmd->help[n] != '\n' &&
		       !(strchr(":.", cmd->help[n]) && strchr(" \n", cmd->help[n + 1])))
			n++;

		if (!(cmd->flags & CMD_HIDDEN) != !hidden)
			continue;
		report_buf_printf(b, "%s\t", cmd->name);
		usage_operands(b, cmd->usage);
		report_buf_printf(b, "\t");
		usage_options(b, cmd->opts);
		report_buf_printf(b, "\t%.*s\n", (int)n, cmd->help);
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
	} else if (argc >= 2 && (cmd = command_find(argv[1])) != NULL) {
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
