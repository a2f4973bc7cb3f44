/* field_edit.c - editing a field: the line editor, +/- steps, cycling choices,
 * and the tentative scenario while a value is typed. */
#include "field_edit.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "keys.h"

void line_edit_set(struct line_edit *e, const char *text)
{
	snprintf(e->buf, sizeof(e->buf), "%s", text ? text : "");
	e->len = (int)strlen(e->buf);
	e->cur = e->len;
	e->full = false;
}

static bool is_cont(unsigned char c)
{
	return (c & 0xc0) == 0x80;
}

static int prev_boundary(const struct line_edit *e, int at)
{
	if (at <= 0)
		return 0;
	at--;
	while (at > 0 && is_cont((unsigned char)e->buf[at]))
		at--;
	return at;
}

static int next_boundary(const struct line_edit *e, int at)
{
	if (at >= e->len)
		return e->len;
	at++;
	while (at < e->len && is_cont((unsigned char)e->buf[at]))
		at++;
	return at;
}

static void delete_range(struct line_edit *e, int from, int to)
{
	if (to <= from)
		return;
	memmove(e->buf + from, e->buf + to, (size_t)(e->len - to + 1));
	e->len -= to - from;
	if (e->cur > to)
		e->cur -= to - from;
	else if (e->cur > from)
		e->cur = from;
}

static bool insert_bytes(struct line_edit *e, const char *s, int n)
{
	if (n <= 0)
		return false;
	if (e->len + n >= LINE_EDIT_MAX) {
		e->full = true;
		return false;
	}
	memmove(e->buf + e->cur + n, e->buf + e->cur, (size_t)(e->len - e->cur + 1));
	memcpy(e->buf + e->cur, s, (size_t)n);
	e->len += n;
	e->cur += n;
	return true;
}

/* Encodes a code point as UTF-8 (the editor's text is UTF-8 whatever the locale). */
static int utf8_encode(unsigned cp, char *out)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		if (cp >= 0xd800 && cp < 0xe000)
			return 0;
		out[0] = (char)(0xe0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	if (cp < 0x110000) {
		out[0] = (char)(0xf0 | (cp >> 18));
		out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[3] = (char)(0x80 | (cp & 0x3f));
		return 4;
	}
	return 0;
}

/* The line editor's keys (keys.c's KC_LINE rows): each returns what it did. */
enum edit_result line_edit_accept(struct line_edit *e, int key)
{
	(void)key;
	return e->full ? EDIT_MOVED : EDIT_ACCEPT;
}

enum edit_result line_edit_cancel(struct line_edit *e, int key)
{
	(void)e;
	(void)key;
	return EDIT_CANCEL;
}

enum edit_result line_edit_left(struct line_edit *e, int key)
{
	(void)key;
	e->cur = prev_boundary(e, e->cur);
	return EDIT_MOVED;
}

enum edit_result line_edit_right(struct line_edit *e, int key)
{
	(void)key;
	e->cur = next_boundary(e, e->cur);
	return EDIT_MOVED;
}

enum edit_result line_edit_home(struct line_edit *e, int key)
{
	(void)key;
	e->cur = 0;
	return EDIT_MOVED;
}

enum edit_result line_edit_end(struct line_edit *e, int key)
{
	(void)key;
	e->cur = e->len;
	return EDIT_MOVED;
}

enum edit_result line_edit_backspace(struct line_edit *e, int key)
{
	(void)key;
	if (e->cur == 0)
		return EDIT_MOVED;
	delete_range(e, prev_boundary(e, e->cur), e->cur);
	return EDIT_CHANGED;
}

enum edit_result line_edit_delete(struct line_edit *e, int key)
{
	(void)key;
	if (e->cur == e->len)
		return EDIT_MOVED;
	delete_range(e, e->cur, next_boundary(e, e->cur));
	return EDIT_CHANGED;
}

enum edit_result line_edit_kill_before(struct line_edit *e, int key)
{
	(void)key;
	delete_range(e, 0, e->cur);
	return EDIT_CHANGED;
}

enum edit_result line_edit_kill_after(struct line_edit *e, int key)
{
	(void)key;
	delete_range(e, e->cur, e->len);
	return EDIT_CHANGED;
}

enum edit_result line_edit_kill_word(struct line_edit *e, int key)
{
	int at = e->cur;

	(void)key;
	while (at > 0 && e->buf[at - 1] == ' ')
		at--;
	while (at > 0 && e->buf[at - 1] != ' ')
		at--;
	delete_range(e, at, e->cur);
	return EDIT_CHANGED;
}

enum edit_result line_edit_key(struct line_edit *e, int key)
{
	const struct key_row *r = keys_find(KC_LINE, key);

	if (r && r->edit)
		return r->edit(e, key);
	if (key >= 0x20 && key != 127 && !(key & KEYF(0))) {
		char u[4];
		int n = utf8_encode((unsigned)key, u);
		if (!(key >= 0x80 && key < 0xa0) && insert_bytes(e, u, n))
			return EDIT_CHANGED;
		return EDIT_MOVED;
	}
	return EDIT_UNHANDLED;
}

int line_edit_cursor_col(const struct line_edit *e)
{
	int col = 0;
	for (int i = 0; i < e->cur; i++)
		if (!is_cont((unsigned char)e->buf[i]))
			col++;
	return col;
}

int field_edit_apply(const struct scenario *base, const struct catalog *cat, const struct field *f,
		     const char *text, struct scenario *out, struct gp_error *err)
{
	struct scenario tmp;
	const char *p = text;

	while (*p == ' ')
		p++;
	if (!*p && f->type != FIELD_STR) {
		gp_error_set(err, GP_EINPUT, NULL, 0, 0, "%s: expected a value", f->key);
		gp_error_set_field(err, f->key);
		return -1;
	}
	tmp = *base;
	/* the front end reads a file the field names (model.hf_config); the core never does */
	if (scenario_field_load(&tmp, cat, f, p, err) != 0)
		return -1;
	*out = tmp;
	return 0;
}

bool field_is_choice(const struct field *f)
{
	return f->type == FIELD_ENUM || f->type == FIELD_DTYPE || f->type == FIELD_BOOL ||
	       f->catalog != FIELD_CATALOG_NONE;
}

bool field_step_doubles(const struct field *f)
{
	return (f->flags & FIELD_STEP_DOUBLES) != 0;
}

/* Rounds to 3 significant digits, so repeated 10% steps keep readable values. */
static double round3(double v)
{
	double mag;

	if (v == 0 || !isfinite(v))
		return v;
	mag = pow(10, floor(log10(fabs(v))) - 2);
	return round(v / mag) * mag;
}

static int set_number(struct scenario *s, const struct field *f, double v)
{
	void *p = (char *)s + f->offset;

	if (f->type == FIELD_INT) {
		int old = *(int *)p;
		*(int *)p = (int)v;
		return old == (int)v ? -1 : 0;
	}
	if (*(double *)p == v)
		return -1;
	*(double *)p = v;
	return 0;
}

int field_step(struct scenario *s, const struct catalog *cat, const struct field *f, int dir,
	       double auto_value, struct gp_error *err)
{
	const void *p = (const char *)s + f->offset;
	double v, nv;

	if (field_is_choice(f))
		return field_cycle(s, cat, f, dir);
	if (f->type != FIELD_INT && f->type != FIELD_NUM)
		return gp_error_set(err, GP_EINPUT, NULL, 0, 0,
				    "%s cannot be stepped (press Enter to type it)", f->key);
	v = f->type == FIELD_INT ? *(const int *)p : *(const double *)p;
	if (scenario_field_is_auto(f, v)) {
		if (dir < 0)
			return gp_error_set(err, GP_EINPUT, NULL, 0, 0, "%s is already auto",
					    f->key);
		v = auto_value > 0 ? auto_value : f->min;
	} else if (v == 0 && field_step_doubles(f) && f->min <= 0) {
		return gp_error_set(err, GP_EINPUT, NULL, 0, 0,
				    "%s is not set (press Enter to type a value)", f->key);
	}
	if (field_step_doubles(f))
		nv = dir > 0 ? v * 2 : v / 2;
	else if (f->type == FIELD_INT)
		nv = v + (dir > 0 ? 1 : -1);
	else if (f->unit == UNIT_RATIO)
		nv = round((v + (dir > 0 ? 0.05 : -0.05)) * 100) / 100;
	else
		nv = round3(dir > 0 ? v * 1.1 : v / 1.1);
	if (f->type == FIELD_INT)
		nv = dir > 0 ? ceil(nv) : floor(nv);
	if (nv < f->min)
		nv = f->auto_ok && dir < 0 ? f->auto_stored : f->min;
	if (nv > f->max)
		nv = f->max;
	if (set_number(s, f, nv) != 0)
		return gp_error_set(err, GP_EINPUT, NULL, 0, 0, "%s is at its %s", f->key,
				    dir > 0 ? "maximum" : "minimum");
	return 0;
}

static int names_count(const char *const *names)
{
	int n = 0;
	while (names[n])
		n++;
	return n;
}

static int wrap(int i, int n)
{
	return ((i % n) + n) % n;
}

int field_cycle(struct scenario *s, const struct catalog *cat, const struct field *f, int dir)
{
	void *p = (char *)s + f->offset;
	int n, i = 0;

	dir = dir < 0 ? -1 : 1;
	switch (f->type) {
	case FIELD_BOOL:
		*(bool *)p = !*(bool *)p;
		return 0;
	case FIELD_ENUM:
		n = names_count(f->names);
		*(int *)p = wrap(*(int *)p + dir, n);
		return 0;
	case FIELD_DTYPE: {
		/* workload.precision's "auto" is PRECISION_AUTO, the one name not a dtype */
		enum dtype d = *(enum dtype *)p;
		const char *cur = d == PRECISION_AUTO ? "auto" : dtype_name(d);
		n = names_count(f->names);
		for (i = 0; i < n; i++)
			if (strcmp(f->names[i], cur) == 0)
				break;
		i = i == n ? 0 : wrap(i + dir, n);
		if (strcmp(f->names[i], "auto") == 0)
			d = PRECISION_AUTO;
		else if (dtype_parse(f->names[i], &d) != 0)
			return -1;
		*(enum dtype *)p = d;
		return 0;
	}
	case FIELD_STR:
		if (!cat)
			return -1;
		if (f->catalog == FIELD_CATALOG_MODELS) {
			n = cat->nmodels;
			if (!n)
				return -1;
			for (i = 0; i < n; i++)
				if (strcmp(cat->models[i].id, s->model.preset) == 0)
					break;
			i = i == n ? (dir > 0 ? 0 : n - 1) : wrap(i + dir, n);
			return scenario_field_set(s, cat, f, cat->models[i].id, NULL);
		}
		if (f->catalog == FIELD_CATALOG_GPUS) {
			n = cat->ngpus;
			if (!n)
				return -1;
			for (i = 0; i < n; i++)
				if (strcmp(cat->gpus[i].id, s->hardware.gpu.id) == 0)
					break;
			i = i == n ? (dir > 0 ? 0 : n - 1) : wrap(i + dir, n);
			return scenario_field_set(s, cat, f, cat->gpus[i].id, NULL);
		}
		return -1;
	default:
		return -1;
	}
}
