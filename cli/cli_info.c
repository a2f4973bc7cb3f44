/* cli_info.c - the commands about gpuplan itself: catalog, validate, and the hidden tables
 * for completion and the man page checks: fields, keys and figures (gpuplan(1), COMMANDS).
 */
#include "cli_int.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_json.h"
#include "units.h"
#include "validate.h"

int check_catalog(struct cli *c)
{
	const char *what = c->nargs ? c->args[0] : "all";

	if (strcmp(what, "all") && strcmp(what, "gpus") && strcmp(what, "models"))
		return cli_usage_error(c, "unknown catalog '%s' (expected gpus or models)", what);
	if (c->csv && strcmp(what, "all") == 0)
		return cli_usage_error(c, "--csv writes one table: give gpus or models");
	return 0;
}

int cmd_catalog(struct cli *c)
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

int cmd_fields(struct cli *c)
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
int cmd_keys(struct cli *c)
{
	if (!c->keys)
		return cli_usage_error(c, "this build has no terminal UI");
	return c->keys() ? EXIT_IO : 0;
}

/* `gpuplan validate [DIR]`: the measured rows of DIR (tests/validation) planned again.
 * Exit 0 when every group's MAPE is within its bound, 1 when one is not. */
int cmd_validate(struct cli *c)
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

/* `gpuplan figures`: the figures --y may name, for completion (cli/sweep.c). */
int cmd_figures(struct cli *c)
{
	sweep_figures(&c->out);
	return 0;
}
