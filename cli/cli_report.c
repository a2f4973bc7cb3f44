/* cli_report.c - the commands over one scenario's report and file: report, explain, diff,
 * import, check and fmt (gpuplan(1), COMMANDS).
 */
#include "cli_int.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "explain.h"
#include "figure.h"
#include "file.h"
#include "hf_config.h"
#include "import.h"
#include "report_json.h"
#include "scenario_sets.h"
#include "scenario_yaml.h"

int cmd_report(struct cli *c)
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

int cmd_explain(struct cli *c)
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

int check_diff(struct cli *c)
{
	if (strcmp(c->args[0], "-") == 0 && strcmp(c->args[1], "-") == 0)
		return cli_usage_error(c, "standard input ('-') can be only one of A and B");
	return 0;
}

int cmd_diff(struct cli *c)
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

int cmd_import(struct cli *c)
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

int cmd_check(struct cli *c)
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

int cmd_fmt(struct cli *c)
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
