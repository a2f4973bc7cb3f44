/* diff.c - what differs between two scenarios and their plans: fields, figures, verdicts. */
#include "diff.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "figure.h"

/* Figures that agree to 1 part in 1e9 are equal: the same scenario computed twice, or one
 * written and read back, must not show rounding noise as a change. */
static bool same(double a, double b)
{
	if (isnan(a) || isnan(b))
		return isnan(a) && isnan(b);
	if (a == b)
		return true;
	return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b));
}
/* A field's value on one line (notes may span lines) in dst: cut, when longer, at a
 * character boundary (never inside a UTF-8 sequence, so the text stays valid) and ended
 * with an ellipsis that says so. For the text and Markdown tables only: diff --json and
 * --csv format the whole value again from the scenarios. */
static void fit_value(char *dst, size_t size, const char *src)
{
	size_t n = strlen(src), cut;

	if (n < size) {
		memcpy(dst, src, n + 1);
	} else {
		cut = size - 4; /* room for "…" (3 bytes) and the NUL */
		while (cut > 0 && ((unsigned char)src[cut] & 0xC0) == 0x80)
			cut--;
		memcpy(dst, src, cut);
		memcpy(dst + cut, "\xE2\x80\xA6", 4);
	}
	for (char *c = dst; *c; c++)
		if (*c == '\n' || *c == '\t')
			*c = ' ';
}

void diff_compute(const struct scenario *a, const struct plan *pa, const struct scenario *b,
		  const struct plan *pb, struct diff *d)
{
	d->ninputs = 0;
	d->nresults = 0;
	for (const struct field *f = scenario_fields; f->key; f++) {
		struct diff_input *in;
		char value[2048];

		if (scenario_field_equal(a, b, f))
			continue;
		/* a field that matters to neither workload is noise (a batch in two training
		 * files that never reads it) */
		if (!scenario_field_applies(a, f) && !scenario_field_applies(b, f))
			continue;
		if (d->ninputs == DIFF_MAX_INPUTS)
			break;
		in = &d->inputs[d->ninputs++];
		in->field = f;
		scenario_field_format(a, f, value, sizeof(value));
		fit_value(in->a, sizeof(in->a), value);
		scenario_field_format(b, f, value, sizeof(value));
		fit_value(in->b, sizeof(in->b), value);
	}
	for (const struct figure *f = figures; f->key; f++) {
		double va, vb;
		struct diff_result *r;

		/* the words (fits, binding) are the verdicts below */
		if (!figure_is_number(f))
			continue;
		va = figure_value(f, pa);
		vb = figure_value(f, pb);
		if (same(va, vb))
			continue;
		if (d->nresults == DIFF_MAX_RESULTS)
			break;
		r = &d->results[d->nresults++];
		r->figure = f;
		r->a = va;
		r->b = vb;
		/* a code (serving.scheduler) changes from one name to another: no difference
		 * of the numbers means anything */
		r->change = (isnan(va) || isnan(vb) || f->name) ? NAN : vb - va;
		r->relative = (isnan(r->change) || va == 0) ? NAN : (vb - va) / fabs(va);
	}
	d->fits_a = pa->mem.fits;
	d->fits_b = pb->mem.fits;
	d->fits_changed = d->fits_a != d->fits_b;
	d->binding_a = pa->binding;
	d->binding_b = pb->binding;
	d->binding_changed = d->binding_a != d->binding_b;
}

bool diff_any(const struct diff *d)
{
	return d->ninputs || d->nresults || d->fits_changed || d->binding_changed;
}

/* "+1.2 GiB (+5.3%)": the change in the figure's unit (without its suffix: the key names
 * it) and relative to a; a ratio's change is in percentage points. */
static void change_text(const struct diff_result *r, char *buf, size_t size)
{
	char abs_text[48], rel[32] = "";

	if (r->figure->name) { /* names, not numbers: "chunked" to "prefill-first" */
		snprintf(buf, size, "%s",
			 isnan(r->a)   ? "now applies"
			 : isnan(r->b) ? "no longer applies"
				       : "changed");
		return;
	}
	if (isnan(r->change)) {
		snprintf(buf, size, "%s", isnan(r->a) ? "now applies" : "no longer applies");
		return;
	}
	units_format_human(r->figure->unit, fabs(r->change), 3, abs_text, sizeof(abs_text));
	if (r->figure->unit == UNIT_RATIO) /* "5%" of a ratio is 5 points */
		abs_text[strcspn(abs_text, "%")] = '\0';
	if (isnan(r->relative))
		rel[0] = '\0';
	else if (fabs(r->relative) >= 10)
		snprintf(rel, sizeof(rel), " (x%.3g)", r->b / r->a);
	else if (fabs(r->relative) >= 1)
		snprintf(rel, sizeof(rel), " (%+.0f%%)", 100 * r->relative);
	else
		snprintf(rel, sizeof(rel), " (%+.1f%%)", 100 * r->relative);
	snprintf(buf, size, "%s%s%s%s", r->change < 0 ? "-" : "+", abs_text,
		 r->figure->unit == UNIT_RATIO ? " pts" : "", rel);
}

/* A value for the text columns: without the suffix, which the key already names; a
 * code's name (figure.name). */
static void value_text(const struct diff_result *r, double v, char *buf, size_t size)
{
	/* NaN is "does not apply" whatever the figure's names: name_scheduler would read it as
	 * "alone" */
	if (isnan(v))
		snprintf(buf, size, "-");
	else if (r->figure->name)
		snprintf(buf, size, "%s", r->figure->name(v));
	else
		units_format_human(r->figure->unit, v, 3, buf, size);
}

static const char *fits_text(bool fits)
{
	return fits ? "fits" : "does not fit";
}

/* One row: key, a, b, note, within 80 columns. Values too wide for their column go on
 * lines of their own (cut at 70 characters: the Markdown and JSON forms keep them whole),
 * and a note that does not fit after the values goes on the next line. */
static void text_row(struct report_buf *out, const char *mark, const char *key, const char *a,
		     const char *b, const char *note)
{
	char row[512], k[64];
	int n;

	snprintf(k, sizeof(k), "%s%s", mark[0] ? "!! " : "  ", key);
	if (!a[0])
		a = "(empty)";
	if (!b[0])
		b = "(empty)";
	if (strlen(a) > 13 || strlen(b) > 13) {
		report_buf_printf(out, "%s%s%s\n", k, note[0] ? "  " : "", note);
		report_buf_printf(out, strlen(a) > 70 ? "       A: %.67s...\n" : "       A: %s\n",
				  a);
		report_buf_printf(out, strlen(b) > 70 ? "       B: %.67s...\n" : "       B: %s\n",
				  b);
		return;
	}
	n = snprintf(row, sizeof(row), "%-35s %-12s %-12s %s", k, a, b, note);
	if (n > 80)
		n = snprintf(row, sizeof(row), "%-35s %-12s %s\n%*s%s", k, a, b, 49, "", note);
	while (n > 0 && row[n - 1] == ' ')
		row[--n] = '\0';
	report_buf_printf(out, "%s\n", row);
}

int diff_text(struct report_buf *out, const struct diff *d, const char *name_a, const char *name_b)
{
	/* key 34 + a 15 + b 15 + change: 80 columns for most rows */
	report_buf_printf(out, "A: %s\nB: %s\n", name_a, name_b);
	if (!diff_any(d)) {
		report_buf_printf(out, "no differences\n");
		return out->failed ? -1 : 0;
	}
	if (d->fits_changed || d->binding_changed) {
		report_buf_printf(out, "\n%-35s %-12s %s\n", "CHANGED VERDICTS", "A", "B");
		if (d->fits_changed)
			text_row(out, "!!", "memory.fits", fits_text(d->fits_a),
				 fits_text(d->fits_b), d->fits_b ? "now fits" : "NO LONGER FITS");
		if (d->binding_changed)
			text_row(out, "!!", "bottleneck.binding", bottleneck_name(d->binding_a),
				 bottleneck_name(d->binding_b), "");
	}
	if (d->ninputs) {
		report_buf_printf(out, "\n%-35s %-12s %s\n", "INPUTS", "A", "B");
		for (int i = 0; i < d->ninputs; i++) {
			const struct diff_input *in = &d->inputs[i];
			text_row(out, "", in->field->key, in->a, in->b, "");
		}
	}
	if (d->nresults) {
		report_buf_printf(out, "\n%-35s %-12s %-12s %s\n", "RESULTS", "A", "B", "CHANGE");
		for (int i = 0; i < d->nresults; i++) {
			const struct diff_result *r = &d->results[i];
			char ta[48], tb[48], tc[128];
			value_text(r, r->a, ta, sizeof(ta));
			value_text(r, r->b, tb, sizeof(tb));
			change_text(r, tc, sizeof(tc));
			text_row(out, "", r->figure->key, ta, tb, tc);
		}
	}
	return out->failed ? -1 : 0;
}

/* A value from a file as Markdown text (report_buf_markdown): it cannot inject markup. */
static void md_text(struct report_buf *out, const char *text)
{
	report_buf_markdown(out, text, strlen(text));
}

int diff_markdown(struct report_buf *out, const struct diff *d, const char *name_a,
		  const char *name_b)
{
	report_buf_printf(out, "# Scenario diff: ");
	report_buf_markdown_code(out, name_a);
	report_buf_printf(out, " vs ");
	report_buf_markdown_code(out, name_b);
	report_buf_printf(out, "\n\n");
	if (!diff_any(d)) {
		report_buf_printf(out, "No differences.\n");
		return out->failed ? -1 : 0;
	}
	if (d->fits_changed || d->binding_changed) {
		report_buf_printf(
		    out, "## Changed verdicts\n\n| verdict | a | b |\n| --- | --- | --- |\n");
		if (d->fits_changed)
			report_buf_printf(out, "| **memory.fits** | %s | **%s** |\n",
					  fits_text(d->fits_a), fits_text(d->fits_b));
		if (d->binding_changed)
			report_buf_printf(out, "| **bottleneck.binding** | %s | **%s** |\n",
					  bottleneck_name(d->binding_a),
					  bottleneck_name(d->binding_b));
		report_buf_printf(out, "\n");
	}
	if (d->ninputs) {
		report_buf_printf(out, "## Inputs\n\n| field | a | b |\n| --- | --- | --- |\n");
		for (int i = 0; i < d->ninputs; i++) {
			report_buf_printf(out, "| `%s` | ", d->inputs[i].field->key);
			md_text(out, d->inputs[i].a);
			report_buf_printf(out, " | ");
			md_text(out, d->inputs[i].b);
			report_buf_printf(out, " |\n");
		}
		report_buf_printf(out, "\n");
	}
	if (d->nresults) {
		report_buf_printf(out, "## Results\n\n| figure | a | b | change |\n"
				       "| --- | ---: | ---: | ---: |\n");
		for (int i = 0; i < d->nresults; i++) {
			const struct diff_result *r = &d->results[i];
			char ta[48], tb[48], tc[128];
			figure_format(r->figure, r->a, ta, sizeof(ta));
			figure_format(r->figure, r->b, tb, sizeof(tb));
			change_text(r, tc, sizeof(tc));
			report_buf_printf(out, "| `%s` | %s | %s | %s |\n", r->figure->key, ta, tb,
					  tc);
		}
	}
	return out->failed ? -1 : 0;
}
