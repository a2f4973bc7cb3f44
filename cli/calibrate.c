/* calibrate.c - `gpuplan calibrate`: the knobs fitted (src/calibrate.c), shown and saved. */
#include "calibrate_cli.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate.h"
#include "file.h"
#include "figure.h"
#include "plan.h"
#include "report.h"
#include "report_json.h"
#include "scenario_yaml.h"
#include "text.h"
#include "units.h"

#define EXIT_USAGE 2
#define EXIT_IO	   1

/* Writes text to stream with every control character but newlines escaped, as cli_io.c's
 * messages: a scenario's name cannot retitle the terminal. 0, or EXIT_IO. */
static int put(FILE *stream, const struct report_buf *b)
{
	size_t need;
	char *out;
	int rc = 0;

	if (b->failed) {
		fputs("gpuplan calibrate: out of memory\n", stderr);
		return EXIT_IO;
	}
	if (!b->len)
		return 0;
	need = text_escape_control(b->data, b->len, NULL, 0, TEXT_KEEP_NEWLINE);
	if (!(out = malloc(need + 1))) {
		fputs("gpuplan calibrate: out of memory\n", stderr);
		return EXIT_IO;
	}
	text_escape_control(b->data, b->len, out, need + 1, TEXT_KEEP_NEWLINE);
	if (fwrite(out, 1, need, stream) != need || fflush(stream) != 0) {
		fprintf(stderr, "gpuplan calibrate: writing: %s\n", strerror(errno));
		rc = EXIT_IO;
	}
	free(out);
	return rc;
}

static int fail(int rc, const char *fmt, const char *a, const char *b)
{
	struct report_buf m = {0};

	report_buf_printf(&m, "gpuplan calibrate: ");
	report_buf_printf(&m, fmt, a, b);
	report_buf_printf(&m, "\n");
	put(stderr, &m);
	report_buf_release(&m);
	return rc;
}

static const char *status_name(enum calibrate_status st)
{
	static const char *const names[] = {"fitted", "compared", "impossible", "not_applicable"};
	return st >= 0 && st <= CAL_NOT_APPLICABLE ? names[st] : "?";
}

/* A knob's value as the file writes it ("auto", "0.355") and what the plan used. */
static void knob_text(const struct scenario *s, const struct plan *p, int k, char *buf, size_t size)
{
	const struct field *f = scenario_field_find(calibrate_knob_key(k));
	char v[32], r[32];

	scenario_field_format(s, f, v, sizeof(v));
	units_format_percent(scenario_field_resolved(f, p), 3, r, sizeof(r));
	if (strcmp(v, "auto") == 0)
		snprintf(buf, size, "auto (%s)", r);
	else
		snprintf(buf, size, "%s", r);
}

/* The report's figures whose value moved by more than 0.01%: the time and throughput the
 * knobs change, and what follows from them (cost, energy, GPUs needed); not the details
 * (figure.h), which move with their parents. */
static bool moved(const struct figure *f, const struct plan *a, const struct plan *b)
{
	double x = figure_value(f, a), y = figure_value(f, b);

	if (!figure_is_number(f) || f->section == FIGURE_BOTTLENECK || (f->flags & FIGURE_DETAIL) ||
	    !isfinite(x) || !isfinite(y))
		return false;
	return fabs(x - y) > 1e-4 * fmax(fabs(x), fabs(y));
}

/* Appends "    label: words", wrapped before column 80 under the words' first column. */
static void wrapped(struct report_buf *b, const char *label, const char *words)
{
	size_t indent = 4 + strlen(label) + 2, at = indent;

	report_buf_printf(b, "    %s:", label);
	while (*words) {
		size_t n = strcspn(words, " ");
		if (at > indent && at + 1 + n >= 80) {
			report_buf_printf(b, "\n%*s", (int)indent, "");
			at = indent;
		} else {
			report_buf_printf(b, " ");
			at++;
		}
		report_buf_printf(b, "%.*s", (int)n, words);
		at += n;
		words += n + strspn(words + n, " ");
	}
	report_buf_printf(b, "\n");
}

static void summary_text(struct report_buf *b, const struct calibrate_request *r,
			 const struct scenario *before_s, const struct plan *before,
			 const struct plan *after, const struct calibrate_measure *m, int n)
{
	char v[48], w[48], kb[48], ka[48];

	report_buf_printf(b, "calibrate %s: %d measurement%s\n", r->file, n, n == 1 ? "" : "s");
	for (int i = 0; i < n; i++) {
		figure_format(m[i].fig, m[i].value, v, sizeof(v));
		figure_format(m[i].fig, m[i].before, w, sizeof(w));
		report_buf_printf(b, "  %s\n    measured: %s; planned %s, %+.1f%% off\n",
				  m[i].fig->key, v, w, 100 * (m[i].before / m[i].value - 1));
		if (m[i].status == CAL_FITTED) {
			knob_text(before_s, before, m[i].knob, kb, sizeof(kb));
			knob_text(r->s, after, m[i].knob, ka, sizeof(ka));
			figure_format(m[i].fig, m[i].after, w, sizeof(w));
			report_buf_printf(b, "    %s: %s -> %s\n", calibrate_knob_key(m[i].knob),
					  kb, ka);
			wrapped(b, "why", m[i].why);
			report_buf_printf(b, "    now: %s, %+.2f%% off\n", w,
					  100 * (m[i].after / m[i].value - 1));
		} else if (m[i].status == CAL_COMPARED) {
			wrapped(b, "note", m[i].why);
		} else {
			wrapped(b, "limit", m[i].limit);
		}
	}
	{
		bool any = false;
		for (const struct figure *f = figures; f->key; f++) {
			if (!moved(f, before, after))
				continue;
			if (!any)
				report_buf_printf(b, "\nwhat changed%28s  %-16s %s\n", "", "before",
						  "after");
			any = true;
			figure_format(f, figure_value(f, before), v, sizeof(v));
			figure_format(f, figure_value(f, after), w, sizeof(w));
			report_buf_printf(b, "  %-36s  %-16s %s\n", f->key, v, w);
		}
		if (!any)
			report_buf_printf(b, "\nno figure changed\n");
	}
}

static struct cJSON *jnum(double v)
{
	return report_json_number(v, false);
}

static struct cJSON *summary_json(const struct calibrate_request *r,
				  const struct scenario *before_s, const struct plan *before,
				  const struct plan *after, const struct calibrate_measure *m,
				  int n, bool ok, const char *saved)
{
	struct cJSON *root = report_json_object(), *arr, *o, *knobs, *changed;
	bool good = root != NULL;

	good = good && report_json_add(root, "schema", report_json_string("gpuplan.calibrate/1"));
	good = good && report_json_add(root, "file", report_json_string(r->file));
	good = good && report_json_add(root, "ok", report_json_bool(ok));
	good = good && report_json_add(root, "measurements", arr = report_json_array());
	for (int i = 0; good && i < n; i++) {
		good = report_json_push(arr, o = report_json_object());
		if (!good)
			break;
		good =
		    report_json_add(o, "key", report_json_string(m[i].fig->key)) &&
		    report_json_add(o, "measured", jnum(m[i].value)) &&
		    report_json_add(o, "before", jnum(m[i].before)) &&
		    report_json_add(o, "after", jnum(m[i].after)) &&
		    report_json_add(o, "error_before", jnum(m[i].before / m[i].value - 1)) &&
		    report_json_add(o, "error_after", jnum(m[i].after / m[i].value - 1)) &&
		    report_json_add(o, "status", report_json_string(status_name(m[i].status))) &&
		    report_json_add(o, "knob",
				    report_json_string(
					m[i].knob >= 0 ? calibrate_knob_key(m[i].knob) : NULL)) &&
		    report_json_add(o, "why", report_json_string(m[i].why)) &&
		    report_json_add(o, "limit",
				    report_json_string(m[i].limit[0] ? m[i].limit : NULL));
	}
	/* every knob: the file's value (0 = auto) and what the plan used, before and after */
	good = good && report_json_add(root, "knobs", knobs = report_json_object());
	for (int k = 0; good && k < CAL_KNOB_COUNT; k++) {
		const struct field *f = scenario_field_find(calibrate_knob_key(k));
		const double *vb = (const double *)((const char *)before_s + f->offset);
		const double *va = (const double *)((const char *)r->s + f->offset);
		good =
		    report_json_add(knobs, f->key, o = report_json_object()) &&
		    report_json_add(o, "before", jnum(*vb > 0 ? *vb : NAN)) &&
		    report_json_add(o, "after", jnum(*va > 0 ? *va : NAN)) &&
		    report_json_add(o, "resolved_before",
				    jnum(scenario_field_resolved(f, before))) &&
		    report_json_add(o, "resolved_after", jnum(scenario_field_resolved(f, after)));
	}
	good = good && report_json_add(root, "changed", changed = report_json_array());
	for (const struct figure *f = figures; good && f->key; f++) {
		if (!moved(f, before, after))
			continue;
		good = report_json_push(changed, o = report_json_object());
		if (!good)
			break;
		good = report_json_add(o, "key", report_json_string(f->key)) &&
		       report_json_add(o, "before", jnum(figure_value(f, before))) &&
		       report_json_add(o, "after", jnum(figure_value(f, after)));
	}
	good = good && report_json_add(root, "written", report_json_string(saved));
	good =
	    good && report_json_add(root, "profile",
				    report_json_string(ok && r->profile ? r->profile->path : NULL));
	if (!good) {
		report_json_free(root);
		return NULL;
	}
	return root;
}

/* cJSON escapes C0 controls; a C1 one (U+0080 to U+009F, which a terminal may read as
 * CSI) is written \u00XX here, as cli_io.c's cli_write_json does (RFC 8259 section 7). */
static int write_json(struct cJSON *j)
{
	char *text = j ? report_json_print(j) : NULL;
	struct report_buf b = {0};
	int rc = 0;

	report_json_free(j);
	if (!text) {
		fputs("gpuplan calibrate: out of memory\n", stderr);
		return EXIT_IO;
	}
	for (size_t i = 0; text[i]; i++) {
		unsigned char u = (unsigned char)text[i], v = (unsigned char)text[i + 1];
		if (u == 0xc2 && (v & 0xe0) == 0x80) {
			report_buf_printf(&b, "\\u00%02x", v);
			i++;
		} else {
			report_buf_printf(&b, "%c", text[i]);
		}
	}
	free(text);
	if (b.failed) {
		fputs("gpuplan calibrate: out of memory\n", stderr);
		rc = EXIT_IO;
	} else if ((b.len && fwrite(b.data, 1, b.len, stdout) != b.len) || fflush(stdout) != 0) {
		fprintf(stderr, "gpuplan calibrate: writing standard output: %s\n",
			strerror(errno));
		rc = EXIT_IO;
	}
	report_buf_release(&b);
	return rc;
}

/* The save: refused, as fmt -o refuses it, for a FIFO, a device, a link loop or a
 * read-only file; through scenario_save_file_kept (atomic, every field the file gave kept,
 * and its comments where only one-line values change). */
static int save(const struct calibrate_request *r, const char *path)
{
	struct gp_error err = {0};
	struct file_target t;
	char msg[1024];
	bool kept;

	if (file_check_target(path, &t, &err) == 0 && t.exists && !t.writable)
		return fail(EXIT_IO, "%s: cannot save: the file is read-only%s", path, "");
	if (err.code == GP_OK && scenario_save_file_kept(r->s, r->cat, path, &kept, &err) == 0)
		return 0;
	if (!err.file[0])
		snprintf(err.file, sizeof(err.file), "%s", path);
	return fail(gp_error_exit_status(&err), "%s%s", gp_error_format(&err, msg, sizeof(msg)),
		    "");
}

/* --profile NAME: the calibrated scenario's knobs (those it gave and those fitted) saved
 * as the profile, with what they were fitted on as its notes. */
static int save_profile(const struct calibrate_request *r, const struct calibrate_measure *m, int n)
{
	struct gp_error err = {0};
	struct report_buf b = {0};
	char v[48], msg[1024];
	int rc = 0;

	profile_take(r->profile, r->s);
	report_buf_printf(&b, "fitted by gpuplan calibrate on %s:", r->file);
	for (int i = 0; i < n; i++) {
		figure_format(m[i].fig, m[i].value, v, sizeof(v));
		report_buf_printf(&b, "%s %s measured %s", i ? ";" : "", m[i].fig->key, v);
	}
	if (b.failed)
		rc = fail(EXIT_IO, "out of memory%s%s", "", "");
	else {
		snprintf(r->profile->notes, sizeof(r->profile->notes), "%s", b.data);
		if (profile_save(r->profile, &err) != 0)
			rc = fail(gp_error_exit_status(&err), "%s%s",
				  gp_error_format(&err, msg, sizeof(msg)), "");
	}
	report_buf_release(&b);
	return rc;
}

int calibrate_run(const struct calibrate_request *r)
{
	struct calibrate_measure m[CALIBRATE_MAX];
	int knobs[CALIBRATE_MAX];
	struct scenario *before_s = malloc(sizeof(*before_s));
	struct plan *before = malloc(sizeof(*before)), *after = malloc(sizeof(*after));
	struct report_buf b = {0};
	const char *target = r->write ? r->file : r->output;
	bool to_stdout = !target || strcmp(target, "-") == 0 || strcmp(target, "/dev/stdout") == 0;
	/* a profile is what is kept: the scenario goes to standard output only when asked */
	bool dump = to_stdout && (!r->profile || target);
	int rc = 0, fit;

	if (!before_s || !before || !after) {
		rc = fail(EXIT_IO, "out of memory%s%s", "", "");
		goto out;
	}
	if (r->nmeasured == 0) {
		rc = fail(EXIT_USAGE, "give at least one --measured KEY=VALUE (KEY one of %s)%s",
			  calibrate_keys_help(), "");
		goto out;
	}
	if (r->nmeasured > CALIBRATE_MAX) {
		rc = fail(EXIT_USAGE, "at most %s measurements%s", "8", "");
		goto out;
	}
	if (r->write && r->output) {
		rc = fail(EXIT_USAGE, "give one of --write and -o FILE%s%s", "", "");
		goto out;
	}
	if (r->write && strcmp(r->file, "-") == 0) {
		rc = fail(EXIT_USAGE, "--write needs a file, not standard input; use -o FILE%s%s",
			  "", "");
		goto out;
	}
	for (int i = 0; i < r->nmeasured; i++) {
		struct gp_error err = {0};
		if (calibrate_parse(r->measured[i], &m[i], &err) != 0) {
			rc = fail(EXIT_USAGE, "%s%s", err.message, "");
			goto out;
		}
		for (int k = 0; k < i; k++)
			if (m[k].fig == m[i].fig) {
				rc = fail(EXIT_USAGE, "%s measured twice%s", m[i].fig->key, "");
				goto out;
			}
	}
	for (int i = 0; i < r->nknobs; i++) {
		if ((knobs[i] = calibrate_knob_parse(r->knobs[i])) < 0) {
			rc = fail(EXIT_USAGE,
				  "--knob '%s': expected efficiency.gemm, efficiency.hbm, "
				  "efficiency.network or efficiency.mfu (or gemm, hbm, network, "
				  "mfu)%s",
				  r->knobs[i], "");
			goto out;
		}
		for (int k = 0; k < i; k++)
			if (knobs[k] == knobs[i]) {
				rc = fail(EXIT_USAGE, "--knob %s given twice%s",
					  calibrate_knob_key(knobs[i]), "");
				goto out;
			}
	}
	*before_s = *r->s;
	plan_compute(before_s, before);
	fit = calibrate_fit_knobs(r->s, m, r->nmeasured, knobs, r->nknobs, after);
	if (fit != 0) {
		bool usage = false;
		for (int i = 0; i < r->nmeasured; i++) {
			usage |= m[i].status == CAL_NOT_APPLICABLE;
			if (m[i].status == CAL_IMPOSSIBLE || m[i].status == CAL_NOT_APPLICABLE)
				fail(EXIT_USAGE, "%s: %s", r->file, m[i].limit);
		}
		if (!usage)
			fail(EXIT_IO,
			     "%s: no knob in range explains the measurement%s; nothing written",
			     r->file, r->nmeasured > 1 ? "s" : "");
		if (r->json && !usage)
			write_json(
			    summary_json(r, before_s, before, after, m, r->nmeasured, false, NULL));
		rc = usage ? EXIT_USAGE : EXIT_IO;
		goto out;
	}
	if (!to_stdout && (rc = save(r, target)) != 0)
		goto out;
	if (r->profile && (rc = save_profile(r, m, r->nmeasured)) != 0)
		goto out;
	if (r->json) {
		rc = write_json(summary_json(r, before_s, before, after, m, r->nmeasured, true,
					     to_stdout ? NULL : target));
		goto out;
	}
	summary_text(&b, r, before_s, before, after, m, r->nmeasured);
	if (!dump) {
		if (!to_stdout)
			report_buf_printf(&b, "\nsaved %s\n", target);
		if (r->profile)
			report_buf_printf(&b, "%ssaved profile %s (%s)\n", to_stdout ? "\n" : "",
					  r->profile->name, r->profile->path);
		rc = put(stdout, &b);
	} else {
		/* the scenario is the result; the summary is for the person reading */
		struct gp_error err = {0};
		char *text = NULL;
		size_t len = 0;
		if (r->profile)
			report_buf_printf(&b, "\nsaved profile %s (%s)", r->profile->name,
					  r->profile->path);
		report_buf_printf(&b,
				  "\nthe calibrated scenario follows on standard output (-o FILE "
				  "or --write saves it)\n");
		if (scenario_format_yaml(r->s, r->cat, &text, &len, &err) != 0) {
			rc = fail(EXIT_IO, "%s: %s", r->file, err.message);
			goto out;
		}
		put(stderr, &b);
		if ((len && fwrite(text, 1, len, stdout) != len) || fflush(stdout) != 0) {
			rc = fail(EXIT_IO, "writing standard output: %s%s", strerror(errno), "");
		}
		free(text);
	}
out:
	report_buf_release(&b);
	free(before_s);
	free(before);
	free(after);
	return rc;
}
