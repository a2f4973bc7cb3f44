/* golden_cmp.c - checks one golden expectation against what gpuplan reports.
 *
 *   golden_cmp [-g GPUPLAN] EXPECTED.json      run the scenario, compare, exit 1 on a mismatch
 *   golden_cmp [-g GPUPLAN] -p FILE KEY...     print the keys' values as checks, for pinning
 *   golden_cmp -s A.json B.json                the two reports are the same, but for
 *                                              scenario.file (for `gpuplan fmt`)
 *
 * An expectation file (tests/golden/expected/<scenario path>.json) is one object:
 *
 *   scenario   the scenario file, relative to the top of the tree
 *   source     where the expectations come from (default for checks without their own)
 *   checks     the checks on `gpuplan report FILE --json` (run 0)
 *   runs       more runs, numbered from 1: each {set: ["KEY=VALUE", ...], checks: [...]}
 *              and optionally command: ["catalog", "gpus"] (replaces "report FILE") and
 *              text: true (compare the text output instead of the JSON)
 *
 * A check on the JSON report names a key as in the JSON report (gpuplan(1)) ("memory.per_gpu.weights") and one of:
 *   value: N, rel: R, abs: A   |got - N| <= max(R |N|, A); without rel/abs it is exact.
 *                              N may be an expression string: "8 * 700 * time.total_s / 3.6e6"
 *   min: N, max: N             a range (either may be an expression)
 *   value: true|false|"s"|null exact
 *   one_of: [...]              the value is one of these strings
 *   has: "s"                   an array of strings with an element containing s
 * Expressions: numbers, keys, + - * / ( ); "@N:key" is the key in run N.
 * A check on text output is {contains: "s"}, {not_contains: "s"}, {order: ["a", "b", ...]}
 * (each found after the previous one), with line: "s" to look only at lines containing s.
 * Every check has a source (its own or the file's): where the figure and its tolerance
 * come from.
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cJSON.h>

#define MAX_RUNS 16

struct run {
	cJSON *json; /* parsed report, or NULL for a text run */
	char *text;  /* the command's standard output */
};

static const char *gpuplan = "./gpuplan";
static const char *exp_path;
static int failures;

static void fail(int run, const char *what, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void fail(int run, const char *what, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "FAIL %s: run %d: %s: ", exp_path, run, what);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	failures++;
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f)
		return NULL;
	do {
		if (len + 4096 + 1 > cap) {
			cap = cap ? cap * 2 : 8192;
			char *nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, 4096, f);
		len += n;
	} while (n > 0);
	fclose(f);
	buf[len] = '\0';
	return buf;
}

/* Appends text to a shell command, single-quoted. */
static void append_quoted(char *cmd, size_t size, const char *text)
{
	size_t n = strlen(cmd);

	if (n + 4 >= size)
		return;
	cmd[n++] = ' ';
	cmd[n++] = '\'';
	for (const char *p = text; *p && n + 6 < size; p++) {
		if (*p == '\'') {
			memcpy(cmd + n, "'\\''", 4);
			n += 4;
		} else {
			cmd[n++] = *p;
		}
	}
	cmd[n++] = '\'';
	cmd[n] = '\0';
}

/* Runs the command, returns its standard output (malloc'd) and sets *status. */
static char *run_command(const char *cmd, int *status)
{
	FILE *p = popen(cmd, "r");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	*status = -1;
	if (!p)
		return NULL;
	do {
		if (len + 4096 + 1 > cap) {
			cap = cap ? cap * 2 : 65536;
			char *nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				pclose(p);
				return NULL;
			}
			buf = nb;
		}
		n = fread(buf + len, 1, 4096, p);
		len += n;
	} while (n > 0);
	buf[len] = '\0';
	int st = pclose(p);
	*status = WIFEXITED(st) ? WEXITSTATUS(st) : 128;
	return buf;
}

/* The value at a dotted path; a flat key holding the rest of the path also matches. */
static const cJSON *lookup(const cJSON *obj, const char *path)
{
	char head[256];
	const char *dot;

	if (!obj)
		return NULL;
	const cJSON *flat = cJSON_GetObjectItemCaseSensitive(obj, path);
	if (flat)
		return flat;
	dot = strchr(path, '.');
	if (!dot || (size_t)(dot - path) >= sizeof(head))
		return NULL;
	memcpy(head, path, (size_t)(dot - path));
	head[dot - path] = '\0';
	return lookup(cJSON_GetObjectItemCaseSensitive(obj, head), dot + 1);
}

/* A small expression evaluator over the runs' reports. */
struct expr {
	const char *p;
	struct run *runs;
	int nruns, cur;
	char err[400];
};

static double expr_sum(struct expr *e);

static void skip_space(struct expr *e)
{
	while (isspace((unsigned char)*e->p))
		e->p++;
}

static double expr_atom(struct expr *e)
{
	skip_space(e);
	if (*e->p == '(') {
		e->p++;
		double v = expr_sum(e);
		skip_space(e);
		if (*e->p != ')') {
			snprintf(e->err, sizeof(e->err), "missing ')'");
			return NAN;
		}
		e->p++;
		return v;
	}
	if (*e->p == '-') {
		e->p++;
		return -expr_atom(e);
	}
	if (isdigit((unsigned char)*e->p) || *e->p == '.') {
		char *end;
		double v = strtod(e->p, &end);
		e->p = end;
		return v;
	}
	if (*e->p == '@' || isalpha((unsigned char)*e->p) || *e->p == '_') {
		char name[160];
		size_t n = 0;
		int run = e->cur;
		while ((isalnum((unsigned char)*e->p) || strchr("_.@:", *e->p)) && *e->p &&
		       n < sizeof(name) - 1)
			name[n++] = *e->p++;
		name[n] = '\0';
		const char *key = name;
		if (name[0] == '@') {
			run = atoi(name + 1);
			const char *colon = strchr(name, ':');
			key = colon ? colon + 1 : "";
		}
		if (run < 0 || run >= e->nruns || !e->runs[run].json) {
			snprintf(e->err, sizeof(e->err), "'%s': no JSON run %d", name, run);
			return NAN;
		}
		const cJSON *v = lookup(e->runs[run].json, key);
		if (cJSON_IsNumber(v))
			return v->valuedouble;
		if (cJSON_IsBool(v))
			return cJSON_IsTrue(v) ? 1 : 0;
		snprintf(e->err, sizeof(e->err), "'%s' is %s", name,
			 !v		   ? "missing"
			 : cJSON_IsNull(v) ? "null"
					   : "not a number");
		return NAN;
	}
	snprintf(e->err, sizeof(e->err), "unexpected '%s'", e->p);
	return NAN;
}

static double expr_product(struct expr *e)
{
	double v = expr_atom(e);
	for (;;) {
		skip_space(e);
		if (*e->p == '*') {
			e->p++;
			v *= expr_atom(e);
		} else if (*e->p == '/') {
			e->p++;
			v /= expr_atom(e);
		} else {
			return v;
		}
	}
}

static double expr_sum(struct expr *e)
{
	double v = expr_product(e);
	for (;;) {
		skip_space(e);
		if (*e->p == '+') {
			e->p++;
			v += expr_product(e);
		} else if (*e->p == '-') {
			e->p++;
			v -= expr_product(e);
		} else {
			return v;
		}
	}
}

/* A number or an expression string; NAN with *why set on error. */
static double number_of(const cJSON *item, struct run *runs, int nruns, int cur, char *why,
			size_t size)
{
	if (cJSON_IsNumber(item))
		return item->valuedouble;
	if (cJSON_IsString(item)) {
		struct expr e = {item->valuestring, runs, nruns, cur, ""};
		double v = expr_sum(&e);
		skip_space(&e);
		if (!e.err[0] && *e.p)
			snprintf(e.err, sizeof(e.err), "trailing '%s'", e.p);
		if (e.err[0]) {
			snprintf(why, size, "expression \"%s\": %s", item->valuestring, e.err);
			return NAN;
		}
		return v;
	}
	snprintf(why, size, "expected a number or an expression");
	return NAN;
}

static void describe(const cJSON *v, char *buf, size_t size)
{
	if (!v)
		snprintf(buf, size, "missing");
	else if (cJSON_IsNumber(v))
		snprintf(buf, size, "%.10g", v->valuedouble);
	else if (cJSON_IsString(v))
		snprintf(buf, size, "\"%s\"", v->valuestring);
	else if (cJSON_IsBool(v))
		snprintf(buf, size, "%s", cJSON_IsTrue(v) ? "true" : "false");
	else if (cJSON_IsNull(v))
		snprintf(buf, size, "null");
	else
		snprintf(buf, size, "%s", cJSON_IsArray(v) ? "an array" : "an object");
}

static double opt_number(const cJSON *check, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(check, name);
	return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

static void check_json(const cJSON *check, struct run *runs, int nruns, int cur)
{
	const cJSON *jkey = cJSON_GetObjectItemCaseSensitive(check, "key");
	const cJSON *want = cJSON_GetObjectItemCaseSensitive(check, "value");
	const cJSON *lo = cJSON_GetObjectItemCaseSensitive(check, "min");
	const cJSON *hi = cJSON_GetObjectItemCaseSensitive(check, "max");
	const cJSON *one_of = cJSON_GetObjectItemCaseSensitive(check, "one_of");
	const cJSON *has = cJSON_GetObjectItemCaseSensitive(check, "has");
	const cJSON *src = cJSON_GetObjectItemCaseSensitive(check, "source");
	char got_s[128], why[512] = "";
	const char *key;
	const cJSON *got;

	if (!cJSON_IsString(jkey)) {
		fail(cur, "?", "a check without a key");
		return;
	}
	key = jkey->valuestring;
	got = lookup(runs[cur].json, key);
	describe(got, got_s, sizeof(got_s));
	(void)src;

	if (has) {
		int found = 0;
		const cJSON *el;
		if (!cJSON_IsArray(got) || !cJSON_IsString(has)) {
			fail(cur, key, "got %s, expected an array of strings", got_s);
			return;
		}
		cJSON_ArrayForEach(el, got)
		{
			if (cJSON_IsString(el) && strstr(el->valuestring, has->valuestring))
				found = 1;
		}
		if (!found)
			fail(cur, key, "no element contains \"%s\"", has->valuestring);
		return;
	}
	if (one_of) {
		const cJSON *el;
		cJSON_ArrayForEach(el, one_of)
		{
			if (cJSON_IsString(el) && cJSON_IsString(got) &&
			    strcmp(el->valuestring, got->valuestring) == 0)
				return;
		}
		char *list = cJSON_PrintUnformatted(one_of);
		fail(cur, key, "got %s, expected one of %s", got_s, list ? list : "?");
		free(list);
		return;
	}
	if (lo || hi) {
		double g, a = -INFINITY, b = INFINITY;
		if (!cJSON_IsNumber(got)) {
			fail(cur, key, "got %s, expected a number", got_s);
			return;
		}
		g = got->valuedouble;
		if (lo)
			a = number_of(lo, runs, nruns, cur, why, sizeof(why));
		if (hi && !why[0])
			b = number_of(hi, runs, nruns, cur, why, sizeof(why));
		if (why[0]) {
			fail(cur, key, "%s", why);
			return;
		}
		if (!(g >= a && g <= b))
			fail(cur, key, "got %.10g, expected from %.10g to %.10g", g, a, b);
		return;
	}
	if (!want) {
		fail(cur, key, "the check has no value, min/max, one_of or has");
		return;
	}
	if (cJSON_IsNumber(want) || cJSON_IsString(want)) {
		if (cJSON_IsString(want) && cJSON_IsString(got)) {
			if (strcmp(want->valuestring, got->valuestring) != 0)
				fail(cur, key, "got %s, expected \"%s\"", got_s, want->valuestring);
			return;
		}
		double w = number_of(want, runs, nruns, cur, why, sizeof(why));
		double rel = opt_number(check, "rel"), abs_tol = opt_number(check, "abs");
		double tol = fmax(rel * fabs(w), abs_tol);
		if (why[0]) {
			fail(cur, key, "%s", why);
			return;
		}
		if (!cJSON_IsNumber(got)) {
			fail(cur, key, "got %s, expected %.10g", got_s, w);
			return;
		}
		if (!(fabs(got->valuedouble - w) <= tol))
			fail(cur, key, "got %.10g, expected %.10g within %.4g (off by %.3g%%)",
			     got->valuedouble, w, tol,
			     w != 0 ? 100 * (got->valuedouble - w) / fabs(w) : INFINITY);
		return;
	}
	if (cJSON_IsBool(want)) {
		if (!cJSON_IsBool(got) || cJSON_IsTrue(want) != cJSON_IsTrue(got))
			fail(cur, key, "got %s, expected %s", got_s,
			     cJSON_IsTrue(want) ? "true" : "false");
		return;
	}
	if (cJSON_IsNull(want)) {
		if (!cJSON_IsNull(got))
			fail(cur, key, "got %s, expected null", got_s);
		return;
	}
	fail(cur, key, "unsupported expected value");
}

/* The text to search: all of it, or only the lines containing `line`. */
static char *text_scope(const char *text, const char *line)
{
	char *out = malloc(strlen(text) + 1), *o = out;
	const char *p = text;

	if (!out)
		return NULL;
	if (!line) {
		strcpy(out, text);
		return out;
	}
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		char *l = strndup(p, n);
		if (l && strstr(l, line)) {
			memcpy(o, p, n);
			o += n;
			*o++ = '\n';
		}
		free(l);
		p += n + (nl ? 1 : 0);
	}
	*o = '\0';
	return out;
}

static void check_text(const cJSON *check, const char *text, int cur)
{
	const cJSON *line = cJSON_GetObjectItemCaseSensitive(check, "line");
	const cJSON *contains = cJSON_GetObjectItemCaseSensitive(check, "contains");
	const cJSON *not_contains = cJSON_GetObjectItemCaseSensitive(check, "not_contains");
	const cJSON *order = cJSON_GetObjectItemCaseSensitive(check, "order");
	const char *what = cJSON_IsString(line) ? line->valuestring : "text";
	char *scope = text_scope(text, cJSON_IsString(line) ? line->valuestring : NULL);

	if (!scope)
		return;
	if (cJSON_IsString(line) && !scope[0])
		fail(cur, what, "no line contains \"%s\"", line->valuestring);
	else if (cJSON_IsString(contains) && !strstr(scope, contains->valuestring))
		fail(cur, what, "\"%s\" not found", contains->valuestring);
	else if (cJSON_IsString(not_contains) && strstr(scope, not_contains->valuestring))
		fail(cur, what, "\"%s\" found, expected it absent", not_contains->valuestring);
	else if (cJSON_IsArray(order)) {
		const char *p = scope;
		const cJSON *el;
		cJSON_ArrayForEach(el, order)
		{
			const char *q = cJSON_IsString(el) ? strstr(p, el->valuestring) : NULL;
			if (!q) {
				char *list = cJSON_PrintUnformatted(order);
				fail(cur, what, "\"%s\" not found after the earlier items of %s",
				     cJSON_IsString(el) ? el->valuestring : "?", list ? list : "?");
				free(list);
				break;
			}
			p = q + strlen(el->valuestring);
		}
	} else if (!cJSON_IsString(contains) && !cJSON_IsString(not_contains)) {
		fail(cur, what, "a text check needs contains, not_contains or order");
	}
	free(scope);
}

/* Builds and runs one run's command; fills r. Returns 0 or -1. */
static int do_run(const char *scenario, const cJSON *spec, int idx, struct run *r)
{
	char cmd[8192];
	const cJSON *command = cJSON_GetObjectItemCaseSensitive(spec, "command");
	const cJSON *set = cJSON_GetObjectItemCaseSensitive(spec, "set");
	int text = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(spec, "text"));
	const cJSON *el;
	int status;

	snprintf(cmd, sizeof(cmd), "%s", gpuplan);
	if (cJSON_IsArray(command)) {
		cJSON_ArrayForEach(el, command)
		{
			if (cJSON_IsString(el))
				append_quoted(cmd, sizeof(cmd), el->valuestring);
		}
	} else {
		append_quoted(cmd, sizeof(cmd), "report");
		append_quoted(cmd, sizeof(cmd), scenario);
		if (!text)
			append_quoted(cmd, sizeof(cmd), "--json");
	}
	cJSON_ArrayForEach(el, set)
	{
		if (cJSON_IsString(el)) {
			append_quoted(cmd, sizeof(cmd), "--set");
			append_quoted(cmd, sizeof(cmd), el->valuestring);
		}
	}
	r->text = run_command(cmd, &status);
	if (!r->text || status != 0) {
		fail(idx, "command", "`%s` exited with %d", cmd, status);
		free(r->text);
		r->text = NULL; /* its checks are not run */
		return -1;
	}
	if (!text && !cJSON_IsArray(command)) {
		r->json = cJSON_Parse(r->text);
		if (!r->json) {
			fail(idx, "command", "`%s` did not print JSON", cmd);
			free(r->text);
			r->text = NULL;
			return -1;
		}
	}
	return 0;
}

static int check_file(const char *path)
{
	char *buf = read_file(path);
	cJSON *doc, *checks, *runs, *el;
	const cJSON *scenario, *source;
	struct run r[MAX_RUNS];
	const cJSON *specs[MAX_RUNS];
	int n = 0;

	exp_path = path;
	memset(r, 0, sizeof(r));
	if (!buf) {
		fail(0, "file", "cannot read");
		return 1;
	}
	doc = cJSON_Parse(buf);
	free(buf);
	if (!doc) {
		fail(0, "file", "not valid JSON");
		return 1;
	}
	scenario = cJSON_GetObjectItemCaseSensitive(doc, "scenario");
	source = cJSON_GetObjectItemCaseSensitive(doc, "source");
	checks = cJSON_GetObjectItemCaseSensitive(doc, "checks");
	runs = cJSON_GetObjectItemCaseSensitive(doc, "runs");
	if (!cJSON_IsString(scenario)) {
		fail(0, "file", "no \"scenario\"");
		goto out;
	}
	specs[n++] = doc;
	cJSON_ArrayForEach(el, runs)
	{
		if (n < MAX_RUNS)
			specs[n++] = el;
	}
	for (int i = 0; i < n; i++)
		do_run(scenario->valuestring, specs[i], i, &r[i]);
	if (!cJSON_IsArray(checks) || cJSON_GetArraySize(checks) == 0)
		fail(0, "file", "no checks on the scenario's report");
	for (int i = 0; i < n; i++) {
		const cJSON *cs =
		    i == 0 ? checks : cJSON_GetObjectItemCaseSensitive(specs[i], "checks");
		if (!r[i].text)
			continue;
		cJSON_ArrayForEach(el, cs)
		{
			const cJSON *src = cJSON_GetObjectItemCaseSensitive(el, "source");
			if (!cJSON_IsString(src) && !cJSON_IsString(source))
				fail(i, "source",
				     "a check without a source (say where the figure and "
				     "its tolerance come from)");
			if (r[i].json)
				check_json(el, r, n, i);
			else
				check_text(el, r[i].text, i);
		}
	}
out:
	for (int i = 0; i < n; i++) {
		cJSON_Delete(r[i].json);
		free(r[i].text);
	}
	cJSON_Delete(doc);
	return failures ? 1 : 0;
}

/* Prints checks pinning the current values of keys, for a regression guard. */
static int pin(const char *scenario, char **keys, int nkeys)
{
	struct run r;
	cJSON *spec = cJSON_CreateObject();

	exp_path = scenario;
	memset(&r, 0, sizeof(r));
	if (do_run(scenario, spec, 0, &r) != 0)
		return 1;
	for (int i = 0; i < nkeys; i++) {
		const cJSON *v = lookup(r.json, keys[i]);
		char s[128];
		describe(v, s, sizeof(s));
		if (cJSON_IsNumber(v))
			printf("    {\"key\": \"%s\", \"value\": %.6g, \"rel\": 0.02, \"source\": "
			       "\"regression guard: the value gpuplan gave on DATE; 2%%\"},\n",
			       keys[i], v->valuedouble);
		else
			printf(
			    "    {\"key\": \"%s\", \"value\": %s, \"source\": \"regression guard: "
			    "the value gpuplan gave on DATE\"},\n",
			    keys[i], s);
	}
	cJSON_Delete(r.json);
	free(r.text);
	cJSON_Delete(spec);
	return 0;
}

/* Whether two JSON values are the same; prints the first difference under path. */
static int same_json(const cJSON *a, const cJSON *b, const char *path)
{
	char sub[512], sa[128], sb[128];
	const cJSON *el;

	if (cJSON_IsObject(a) && cJSON_IsObject(b)) {
		int na = cJSON_GetArraySize(a), nb = cJSON_GetArraySize(b);
		cJSON_ArrayForEach(el, a)
		{
			snprintf(sub, sizeof(sub), "%s%s%s", path, path[0] ? "." : "", el->string);
			if (strcmp(sub, "scenario.file") == 0)
				continue;
			if (!same_json(el, cJSON_GetObjectItemCaseSensitive(b, el->string), sub))
				return 0;
		}
		if (na != nb) {
			fprintf(stderr, "%s: %d keys vs %d\n", path[0] ? path : "(top)", na, nb);
			return 0;
		}
		return 1;
	}
	if (cJSON_IsArray(a) && cJSON_IsArray(b)) {
		int n = cJSON_GetArraySize(a);
		if (n != cJSON_GetArraySize(b)) {
			fprintf(stderr, "%s: %d elements vs %d\n", path, n, cJSON_GetArraySize(b));
			return 0;
		}
		for (int i = 0; i < n; i++) {
			snprintf(sub, sizeof(sub), "%s[%d]", path, i);
			if (!same_json(cJSON_GetArrayItem(a, i), cJSON_GetArrayItem(b, i), sub))
				return 0;
		}
		return 1;
	}
	if ((cJSON_IsNumber(a) && cJSON_IsNumber(b) && a->valuedouble == b->valuedouble) ||
	    (cJSON_IsString(a) && cJSON_IsString(b) &&
	     strcmp(a->valuestring, b->valuestring) == 0) ||
	    (cJSON_IsBool(a) && cJSON_IsBool(b) && cJSON_IsTrue(a) == cJSON_IsTrue(b)) ||
	    (cJSON_IsNull(a) && cJSON_IsNull(b)))
		return 1;
	describe(a, sa, sizeof(sa));
	describe(b, sb, sizeof(sb));
	fprintf(stderr, "%s: %s vs %s\n", path, sa, sb);
	return 0;
}

static int same_files(const char *pa, const char *pb)
{
	char *ta = read_file(pa), *tb = read_file(pb);
	cJSON *a = ta ? cJSON_Parse(ta) : NULL, *b = tb ? cJSON_Parse(tb) : NULL;
	int ok = a && b && same_json(a, b, "");

	if (!a || !b)
		fprintf(stderr, "%s: not JSON\n", !a ? pa : pb);
	cJSON_Delete(a);
	cJSON_Delete(b);
	free(ta);
	free(tb);
	return ok ? 0 : 1;
}

int main(int argc, char **argv)
{
	int i = 1;

	if (i + 1 < argc && strcmp(argv[i], "-g") == 0) {
		gpuplan = argv[i + 1];
		i += 2;
	}
	if (argc == 4 && strcmp(argv[1], "-s") == 0)
		return same_files(argv[2], argv[3]);
	if (i + 1 < argc && strcmp(argv[i], "-p") == 0)
		return pin(argv[i + 1], argv + i + 2, argc - i - 2);
	if (i + 1 != argc) {
		fprintf(stderr, "usage: golden_cmp [-g GPUPLAN] EXPECTED.json\n"
				"       golden_cmp [-g GPUPLAN] -p SCENARIO KEY...\n"
				"       golden_cmp -s A.json B.json\n");
		return 2;
	}
	return check_file(argv[i]);
}
