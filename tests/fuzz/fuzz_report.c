/* fuzz_report.c - every output on random valid scenarios: the text, Markdown and JSON
 * reports, every explanation (wrapped, unwrapped, its --json parts, and into a 1- and a
 * 7-byte buffer), and diff (text, Markdown, CSV, JSON) against a second scenario.
 *
 * The input is a scenario file, optionally a NUL and a second one; each that parses and
 * validates against the shipped catalog (fuzz_common.h) is planned. The outputs must hold no
 * NUL before their end, and a wrapped explanation ends in a newline; anything else than a
 * clean result is a crash. Where only one scenario is valid, it is diffed with itself.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"
#include "explain.h"
#include "fuzz_common.h"
#include "plan.h"
#include "report.h"
#include "report_json.h"
#include "scenario.h"
#include "scenario_yaml.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Loads text as a scenario; true when it is valid (then plans it into p). */
static bool load(const char *text, size_t len, const struct catalog *cat, struct scenario *s,
		 struct plan *p)
{
	struct scenario_source *src = malloc(sizeof(*src));
	struct gp_problems *probs = malloc(sizeof(*probs));
	struct gp_error err;
	bool ok;

	if (!src || !probs)
		abort();
	gp_problems_init(probs);
	memset(src, 0, sizeof(*src));
	ok = scenario_parse(text, len, "fuzz.yaml", cat, s, src, probs, &err) == 0;
	if (ok) {
		gp_problems_init(probs);
		scenario_validate(s, src, probs);
		ok = probs->count == 0 && probs->dropped == 0;
	}
	if (ok)
		plan_compute(s, p);
	free(src);
	free(probs);
	return ok;
}

/* The buffer's text has no NUL before its length. */
static void whole(const struct report_buf *b)
{
	if (b->failed || (b->data && strlen(b->data) != b->len))
		abort();
}

static void json(struct cJSON *j)
{
	char *text = j ? report_json_print(j) : NULL;

	if (!text || text[0] != '{')
		abort();
	free(text);
	report_json_free(j);
}

static void explain_all(const struct scenario *s, const struct plan *p)
{
	static char buf[1 << 16];
	static struct explain_parts parts;
	char tiny[7];
	struct gp_error err;

	for (const char *const *k = explain_keys(); *k; k++) {
		size_t n;

		if (explain_key_parts(s, p, *k, 80, buf, sizeof(buf), &parts, &err) != 0)
			abort(); /* every listed key explains */
		n = strlen(buf);
		if (n == 0 || buf[n - 1] != '\n')
			abort();
		if (explain_key_wrapped(s, p, *k, 0, buf, sizeof(buf), &err) != 0 ||
		    explain_key(s, p, *k, tiny, sizeof(tiny), &err) != 0 ||
		    explain_key(s, p, *k, tiny, 1, &err) != 0 || tiny[0] != '\0')
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct catalog *cat = fuzz_shipped_catalog();
	struct scenario *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));
	struct plan *pa = malloc(sizeof(*pa)), *pb = malloc(sizeof(*pb));
	struct diff *d = malloc(sizeof(*d));
	const char *text = (const char *)data, *nul = memchr(data, '\0', size);
	size_t la = nul ? (size_t)(nul - text) : size;
	bool va, vb = false;
	struct report_buf out = {0};

	if (!a || !b || !pa || !pb || !d)
		abort();
	va = load(text, la, cat, a, pa);
	if (nul)
		vb = load(nul + 1, size - la - 1, cat, b, pb);
	if (!va && vb) {
		*a = *b;
		*pa = *pb;
		va = true;
	}
	if (va) {
		if (!vb) {
			*b = *a;
			*pb = *pa;
		}
		report_text(&out, a, pa);
		whole(&out);
		out.len = 0;
		report_markdown(&out, a, pa);
		whole(&out);
		out.len = 0;
		json(report_json_build(a, pa));
		explain_all(a, pa);
		diff_compute(a, pa, b, pb, d);
		diff_text(&out, d, "a.yaml", "b.yaml");
		whole(&out);
		out.len = 0;
		diff_markdown(&out, d, "a.yaml", "b`b.yaml");
		whole(&out);
		out.len = 0;
		report_diff_csv(&out, d, a, b);
		whole(&out);
		json(report_json_diff(d, a, pa, b, pb));
	}
	report_buf_release(&out);
	free(a);
	free(b);
	free(pa);
	free(pb);
	free(d);
	return 0;
}
