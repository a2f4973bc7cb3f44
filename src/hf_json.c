/* hf_json.c - the config.json reader's cJSON-facing helpers: a member's line and column in
 * the text, typed getters that refuse a wrong kind or range at its key, the bare tokens
 * (Infinity, NaN) and the refusal of a repeated member name.
 */
#include "hf_int.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool hf_is_space(char ch)
{
	return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

/* 1-based line and column (in characters, as libyaml counts them) of a byte offset. */
static void text_position(const char *t, size_t off, int *line, int *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < off; i++) {
		if (t[i] == '\n') {
			++*line;
			*col = 1;
		} else if (((unsigned char)t[i] & 0xC0) != 0x80) {
			++*col;
		}
	}
}

/* The byte offset of the value of key in the object whose opening brace is at or after
 * base (the top-level object for base 0; text_config's for a multimodal config), or of
 * that object's opening brace when the key is not there (or is NULL). cJSON keeps no
 * positions, so this rescans the text (already known to be valid JSON). */
static size_t key_offset(const char *t, size_t n, size_t base, const char *key)
{
	size_t klen = key ? strlen(key) : 0, obj = base;
	int depth = 0;

	for (size_t i = base; i < n; i++) {
		char ch = t[i];
		if (ch == '"') {
			size_t s = i + 1, j = s;
			while (j < n && t[j] != '"')
				j += t[j] == '\\' ? 2 : 1;
			if (key && depth == 1 && j - s == klen && memcmp(t + s, key, klen) == 0) {
				size_t k = j + 1;
				while (k < n && hf_is_space(t[k]))
					k++;
				if (k < n && t[k] == ':') {
					for (k++; k < n && hf_is_space(t[k]); k++)
						;
					return k;
				}
			}
			i = j;
		} else if (ch == '{' || ch == '[') {
			if (depth == 0)
				obj = i;
			depth++;
		} else if (ch == '}' || ch == ']') {
			if (--depth == 0 && base > 0)
				break; /* the end of the nested object */
		}
	}
	return obj;
}

size_t hf_koff(const struct hf *c, const char *key)
{
	return key_offset(c->text, c->len, c->base, key);
}

int hf_fail_at(struct hf *c, size_t off, const char *field, const char *fmt, ...)
{
	char msg[sizeof(c->err->message)];
	int line, col;
	va_list ap;

	if (!c->err)
		return -1;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	text_position(c->text, off, &line, &col);
	gp_error_set(c->err, GP_EINPUT, c->file, line, col, "%s", msg);
	gp_error_set_field(c->err, field);
	return -1;
}

const cJSON *hf_item(const struct hf *c, const char *key)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(c->root, key);
	return cJSON_IsNull(it) ? NULL : it; /* null means "not given" in these configs */
}

const char *hf_kind_name(const cJSON *it)
{
	if (cJSON_IsBool(it))
		return "a boolean";
	if (cJSON_IsString(it))
		return "a string";
	if (cJSON_IsArray(it))
		return "an array";
	if (cJSON_IsObject(it))
		return "an object";
	return "a number";
}

/* The largest value a key may hold: the ranges of the scenario's model fields (so an
 * imported model is a valid scenario, and no loop over layers runs for ever). */
int hf_key_max(const char *key)
{
	if (strcmp(key, "num_hidden_layers") == 0 || strcmp(key, "n_layer") == 0)
		return 10000;
	if (strcmp(key, "max_position_embeddings") == 0 || strcmp(key, "n_positions") == 0 ||
	    strcmp(key, "seq_length") == 0 || strcmp(key, "max_sequence_length") == 0 ||
	    strcmp(key, "sliding_window") == 0)
		return 100000000;
	return 16777216;
}

static const char *bare_token(const struct hf *c, const char *key);

/* An integer >= min under key: 1 when found (and *out set), 0 when absent or null, -1 on
 * a value that is not such an integer. */
int hf_get_int(struct hf *c, const char *key, int min, int *out)
{
	const cJSON *it = hf_item(c, key);
	size_t off;
	double v;

	if (!it)
		return 0;
	off = hf_koff(c, key);
	if (cJSON_IsNumber(it) && bare_token(c, key))
		return hf_fail_at(c, off, key, "'%s' must be an integer, not %s", key,
				  bare_token(c, key));
	if (!cJSON_IsNumber(it))
		return hf_fail_at(c, off, key, "'%s' must be an integer, not %s", key,
				  hf_kind_name(it));
	v = it->valuedouble;
	if (v != floor(v))
		return hf_fail_at(c, off, key, "'%s' must be an integer (got %.17g)", key, v);
	if (v < min)
		return hf_fail_at(c, off, key, "'%s' must be at least %d (got %.17g)", key, min, v);
	if (v > hf_key_max(key))
		return hf_fail_at(c, off, key, "'%s' must be at most %d (got %.17g)", key,
				  hf_key_max(key), v);
	*out = (int)v;
	return 1;
}

/* A required integer, under key or (when alt is not NULL) its older spelling alt. */
int hf_need_int(struct hf *c, const char *key, const char *alt, int min, int *out)
{
	int r = hf_get_int(c, key, min, out);

	if (r == 0 && alt)
		r = hf_get_int(c, alt, min, out);
	if (r == 0)
		return hf_fail_at(c, hf_koff(c, NULL), key, "missing '%s' (a %s config needs it)",
				  key, c->type);
	return r < 0 ? -1 : 0;
}

/* An optional integer: def when absent. */
int hf_opt_int(struct hf *c, const char *key, int min, int def, int *out)
{
	int r = hf_get_int(c, key, min, out);

	if (r == 0)
		*out = def;
	return r < 0 ? -1 : 0;
}

int hf_opt_bool(struct hf *c, const char *key, bool def, bool *out)
{
	const cJSON *it = hf_item(c, key);

	if (!it) {
		*out = def;
		return 0;
	}
	if (!cJSON_IsBool(it))
		return hf_fail_at(c, hf_koff(c, key), key, "'%s' must be true or false, not %s",
				  key, hf_kind_name(it));
	*out = cJSON_IsTrue(it);
	return 0;
}

bool hf_has_key(const struct hf *c, const char *key)
{
	return hf_item(c, key) != NULL;
}

/* A warning for the caller (hf_config_info), when it asked for them. */
void hf_warn(struct hf *c, const char *fmt, ...)
{
	va_list ap;

	if (!c->info || c->info->nwarnings >= HF_CONFIG_MAX_WARNINGS)
		return;
	va_start(ap, fmt);
	vsnprintf(c->info->warnings[c->info->nwarnings++], sizeof(c->info->warnings[0]), fmt, ap);
	va_end(ap);
}

/* Reads the keys of the object under key (a multimodal config's text_config) from here on:
 * 1 when it is there, 0 when not, -1 when it is not an object. */
int hf_enter(struct hf *c, const char *key)
{
	const cJSON *it = hf_item(c, key);

	if (!it)
		return 0;
	if (!cJSON_IsObject(it))
		return hf_fail_at(c, hf_koff(c, key), key, "'%s' must be an object, not %s", key,
				  hf_kind_name(it));
	c->base = hf_koff(c, key);
	c->root = it;
	return 1;
}

/* The byte offset of element n of the JSON array whose '[' is at off (of off itself when
 * the array is shorter), for an error that points at one layer's entry. */
size_t hf_array_elem_offset(const char *t, size_t len, size_t off, int n)
{
	size_t i = off + 1;
	int depth = 0, k = 0;

	if (off >= len || t[off] != '[')
		return off;
	for (; i < len; i++) {
		if (k == n && !hf_is_space(t[i]))
			return t[i] == ']' ? off : i;
		if (t[i] == '"') {
			for (i++; i < len && t[i] != '"'; i++)
				i += t[i] == '\\';
		} else if (t[i] == '[' || t[i] == '{') {
			depth++;
		} else if (t[i] == ']' || t[i] == '}') {
			if (depth-- == 0)
				return off;
		} else if (t[i] == ',' && depth == 0) {
			k++;
		}
	}
	return off;
}

/* An optional integer under key, else under its other spelling alt, else def. */
int hf_opt_int2(struct hf *c, const char *key, const char *alt, int min, int def, int *out)
{
	int r = hf_get_int(c, key, min, out);

	if (r == 0)
		r = hf_get_int(c, alt, min, out);
	if (r == 0)
		*out = def;
	return r < 0 ? -1 : 0;
}

int hf_opt_bool2(struct hf *c, const char *key, const char *alt, bool def, bool *out)
{
	return hf_opt_bool(c, hf_has_key(c, key) ? key : alt, def, out);
}

/* A boolean member of a block_configs entry: def when absent or null. */
int hf_block_bool(struct hf *c, const cJSON *obj, const char *key, bool def, bool *out)
{
	const cJSON *it = cJSON_GetObjectItemCaseSensitive(obj, key);

	*out = def;
	if (!it || cJSON_IsNull(it))
		return 0;
	if (!cJSON_IsBool(it))
		return hf_fail_at(c, hf_koff(c, "block_configs"), "block_configs",
				  "'block_configs': '%s' must be true or false, not %s", key,
				  hf_kind_name(it));
	*out = cJSON_IsTrue(it);
	return 0;
}

/* cJSON reads JSON as RFC 8259 has it, but the Hub's configs are written by Python's
 * json.dumps, which writes the bare tokens Infinity, -Infinity and NaN (Nemotron-H's
 * "time_step_limit": [0.0, Infinity]). A copy of the text has each such token, outside
 * strings and where a value starts, replaced by a number literal of the same length, so
 * every byte offset (and the line:column of an error) stays that of the original text:
 * "Infinity" -> "1e999999" and "-Infinity" -> "-1e999999" (strtod gives +-HUGE_VAL, an
 * infinity), "NaN" -> "0e0". Keeping cJSON (already linked, and report_json.c's parser)
 * costs this one pass; json-c and jansson would read them but add a dependency. A key
 * whose value was such a token is refused by name (bare_token). The copy is NUL-terminated;
 * NULL when out of memory. */
char *hf_normalise_tokens(const char *t, size_t n)
{
	static const struct {
		const char *tok, *num;
	} subst[] = {{"-Infinity", "-1e999999"}, {"Infinity", "1e999999"}, {"NaN", "0e0"}};
	char *out = malloc(n + 1);
	char prev = 0; /* the last non-space byte outside strings */

	if (!out)
		return NULL;
	memcpy(out, t, n);
	out[n] = '\0';
	for (size_t i = 0; i < n; i++) {
		if (t[i] == '"') {
			for (i++; i < n && t[i] != '"'; i++)
				if (t[i] == '\\')
					i++;
			prev = '"';
			continue;
		}
		if (hf_is_space(t[i]))
			continue;
		if (prev == ':' || prev == '[' || prev == ',') {
			for (size_t k = 0; k < sizeof(subst) / sizeof(subst[0]); k++) {
				size_t l = strlen(subst[k].tok);
				if (i + l <= n && memcmp(t + i, subst[k].tok, l) == 0 &&
				    (i + l == n ||
				     !(isalnum((unsigned char)t[i + l]) || t[i + l] == '_'))) {
					memcpy(out + i, subst[k].num, l);
					i += l - 1;
					break;
				}
			}
		}
		prev = t[i];
	}
	return out;
}

/* A key whose value in the original text is one of the bare tokens hf_normalise_tokens
 * replaced, or NULL. */
static const char *bare_token(const struct hf *c, const char *key)
{
	size_t off = hf_koff(c, key);
	const char *t = c->text + off;
	size_t rest = c->len - off;

	if (rest >= 3 && memcmp(t, "NaN", 3) == 0)
		return "NaN";
	if (rest >= 8 && memcmp(t, "Infinity", 8) == 0)
		return "Infinity";
	if (rest >= 9 && memcmp(t, "-Infinity", 9) == 0)
		return "-Infinity";
	return NULL;
}

/* ---- repeated member names ------------------------------------------------------------ */

/* transformers reads config.json with Python's json.load (PretrainedConfig's
 * _dict_from_json_file), whose dict keeps the LAST value of a repeated key, while
 * cJSON_GetObjectItemCaseSensitive finds the FIRST: a config with a repeated member would
 * plan another model than the one that runs. So a repeat is refused at every level, at its
 * second occurrence, in the words of the scenario reader for a repeated YAML key
 * (scenario_yaml.c). Names are compared as cJSON decoded them (so "a\u0062" repeats "ab").
 * Each object's names are sorted once, O(n log n) for an object of thousands of members;
 * the names go in a fixed buffer on the stack, or in one allocation kept for the whole
 * scan when an object has more members than that holds. */

#define REPEAT_STACK 256

struct repeat_name {
	const char *name;
	int idx; /* the member's place in its object */
};

struct repeat_scan {
	struct hf *c;
	struct repeat_name stack[REPEAT_STACK];
	struct repeat_name *names; /* stack, or the one allocation */
	int cap;
};

static int cmp_repeat(const void *a, const void *b)
{
	const struct repeat_name *x = a, *y = b;
	int d = strcmp(x->name, y->name);
	return d ? d : (x->idx > y->idx) - (x->idx < y->idx);
}

/* The earliest member of obj whose name an earlier member has (*second), and that earlier
 * member (*first); both -1 when the names are distinct. -1 when out of memory. */
static int find_repeat(struct repeat_scan *s, const cJSON *obj, int *first, int *second)
{
	const cJSON *ch;
	int n = 0;

	*first = *second = -1;
	for (ch = obj->child; ch; ch = ch->next)
		n++;
	if (n < 2)
		return 0;
	if (n > s->cap) {
		struct repeat_name *p = malloc((size_t)n * sizeof(*p));
		if (!p)
			return -1;
		if (s->names != s->stack)
			free(s->names);
		s->names = p;
		s->cap = n;
	}
	n = 0;
	for (ch = obj->child; ch; ch = ch->next, n++) {
		s->names[n].name = ch->string ? ch->string : "";
		s->names[n].idx = n;
	}
	qsort(s->names, (size_t)n, sizeof(s->names[0]), cmp_repeat);
	/* sorted by name, then place: a run's first two entries are a name's first and
	 * second occurrences */
	for (int k = 1, run = 0; k < n; k++) {
		if (strcmp(s->names[k].name, s->names[run].name) != 0) {
			run = k;
			continue;
		}
		if (k == run + 1 && (*second < 0 || s->names[k].idx < *second)) {
			*first = s->names[run].idx;
			*second = s->names[k].idx;
		}
	}
	return 0;
}

/* JSON whitespace as cJSON skips it (every byte up to ' '). */
static size_t skip_blank(const char *t, size_t n, size_t i)
{
	while (i < n && (unsigned char)t[i] <= ' ')
		i++;
	return i;
}

/* The offset after the string whose opening quote is at i. */
static size_t skip_string(const char *t, size_t n, size_t i)
{
	for (i++; i < n && t[i] != '"'; i++)
		if (t[i] == '\\')
			i++;
	return i < n ? i + 1 : n;
}

/* Walks the value node was parsed from, at or after *pos in the text (the members of a
 * cJSON object are in the text's order, so the k-th key read is the k-th child), and
 * moves *pos past it. A repeat is reported at its key, an inner repeat earlier in the
 * text first. 0: none; -1: reported (or out of memory); 1: the text does not follow the
 * tree, which cannot happen for a text cJSON parsed: the scan stops. */
static int repeat_value(struct repeat_scan *s, const cJSON *node, size_t *pos)
{
	const char *t = s->c->text;
	size_t n = s->c->len, i = skip_blank(t, n, *pos), first_at = 0;
	int first = -1, second = -1, k = 0, rc;

	if (i >= n)
		return 1;
	if (t[i] == '"') {
		*pos = skip_string(t, n, i);
		return 0;
	}
	if (t[i] != '{' && t[i] != '[') { /* number, true, false, null, Infinity, NaN */
		while (i < n && (unsigned char)t[i] > ' ' && t[i] != ',' && t[i] != ']' &&
		       t[i] != '}')
			i++;
		*pos = i;
		return 0;
	}
	if (t[i] == '[' ? !cJSON_IsArray(node) : !cJSON_IsObject(node))
		return 1;
	if (t[i] == '{' && find_repeat(s, node, &first, &second) != 0) {
		if (s->c->err)
			gp_error_set(s->c->err, GP_EIO, s->c->file, 0, 0, "out of memory");
		return -1;
	}
	for (const cJSON *ch = node->child; ch; ch = ch->next, k++) {
		i = skip_blank(t, n, i + 1); /* past '{', '[' or ',' */
		if (cJSON_IsObject(node)) {
			int line, col;
			if (i >= n || t[i] != '"')
				return 1;
			if (k == first)
				first_at = i;
			if (k == second) {
				text_position(t, first_at, &line, &col);
				return hf_fail_at(s->c, i, ch->string,
						  "duplicate key '%s' (first given at line %d)",
						  ch->string, line);
			}
			i = skip_blank(t, n, skip_string(t, n, i));
			if (i >= n || t[i] != ':')
				return 1;
			i++;
		}
		if ((rc = repeat_value(s, ch, &i)) != 0)
			return rc;
		i = skip_blank(t, n, i);
		if (i >= n || (t[i] != ',' && t[i] != '}' && t[i] != ']'))
			return 1;
	}
	if (!node->child)
		i = skip_blank(t, n, i + 1);
	*pos = i < n ? i + 1 : n; /* past '}' or ']' */
	return 0;
}

/* Refuses a repeated member name anywhere in the document root was parsed from. */
int hf_refuse_repeats(struct hf *c, const cJSON *root)
{
	struct repeat_scan s = {.c = c, .cap = REPEAT_STACK};
	size_t pos = 0;
	int rc;

	s.names = s.stack;
	if (c->len >= 3 && memcmp(c->text, "\xEF\xBB\xBF", 3) == 0)
		pos = 3; /* cJSON skips a UTF-8 byte order mark */
	rc = repeat_value(&s, root, &pos);
	if (s.names != s.stack)
		free(s.names);
	return rc < 0 ? -1 : 0;
}
