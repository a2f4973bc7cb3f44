/* cli_io.c - the command line's messages, output and loading: every message on standard
 * error (one line, escaped), the result written once nothing can fail, and FILE and the
 * catalog loaded as every command loads them (--profile, then each --set).
 */
#include "cli_int.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "file.h"
#include "report_json.h"
#include "scenario_sets.h"
#include "scenario_yaml.h"
#include "text.h"

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
void cli_error(const struct cli *c, const char *fmt, ...)
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
int cli_no_memory(const struct cli *c)
{
	cli_error(c, "out of memory");
	return EXIT_IO;
}

int cli_usage_error(struct cli *c, const char *fmt, ...)
{
	va_list ap;
	const struct command *cmd = c->cmd ? cli_command_find(c->cmd) : NULL;

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
int cli_print_error(const struct cli *c, const struct gp_error *err, const char *fallback)
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

void cli_print_problems(const struct cli *c, const struct gp_problems *probs, const char *fallback)
{
	for (int i = 0; i < probs->count; i++)
		cli_print_error(c, &probs->items[i], fallback);
	if (probs->dropped)
		cli_error(c, "%s: %d more problems not shown", fallback ? fallback : "scenario",
			  probs->dropped);
}

/* -o - and -o /dev/stdout: standard output, written as without -o (no temporary file
 * beside a pipe or a terminal). */
bool cli_output_is_stdout(const char *out)
{
	return strcmp(out, "-") == 0 || strcmp(out, "/dev/stdout") == 0;
}

/* Before a save to out: a FIFO, a device or a link loop is refused (as file_write_atomic
 * refuses it), and so is a read-only file (the command line has no :w!). 0, or the exit
 * status with a message; warns when other hard links will keep the old text. */
int cli_output_check(const struct cli *c, const char *out)
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
int cli_write(const struct cli *c, const char *text, size_t len)
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
int cli_write_json(const struct cli *c, struct cJSON *j)
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

int cli_write_buf(const struct cli *c, const struct report_buf *b)
{
	if (b->failed)
		return cli_no_memory(c);
	return cli_write_text(c, b->data ? b->data : "", b->len);
}

/* Loading ------------------------------------------------------------------------------ */

int cli_load_catalog(struct cli *c)
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
void cli_blame_sets(const struct cli *c, const struct scenario_source *src,
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
void cli_print_warnings(const struct cli *c, const struct gp_problems *warns, const char *fallback)
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
int cli_ignored_fields(const struct cli *c, const struct scenario *s,
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
int cli_load(struct cli *c, const char *path, struct scenario *s, struct scenario_source *src,
	     bool validate)
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

/* j, a document report_json_* built (NULL when out of memory), is the command's result. */
void cli_json_result(struct cli *c, struct cJSON *j)
{
	c->json_out = j;
	c->json_result = true;
}
