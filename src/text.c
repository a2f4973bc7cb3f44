/* text.c - appending to a fixed buffer, edit distance, UTF-8 validity and the escaping of
 * file text for terminals and Markdown (text.h). */
#include "text.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

struct text_acc text_acc_on(char *buf, size_t size)
{
	struct text_acc t = {buf, size, 0, size == 0};
	if (size > 0)
		buf[0] = '\0';
	return t;
}

void text_add(struct text_acc *t, const char *fmt, ...)
{
	va_list ap;
	int w;

	if (t->size == 0) {
		t->cut = true;
		return;
	}
	va_start(ap, fmt);
	w = vsnprintf(t->buf + t->len, t->size - t->len, fmt, ap);
	va_end(ap);
	if (w < 0) { /* an encoding error: keep what was there */
		t->buf[t->len] = '\0';
		t->cut = true;
	} else if ((size_t)w >= t->size - t->len) {
		t->len = t->size - 1;
		t->cut = true;
	} else {
		t->len += (size_t)w;
	}
}

int text_edit_distance(const char *a, const char *b)
{
	int la = (int)strlen(a), lb = (int)strlen(b);
	int row[128];

	if (la > 127 || lb > 127)
		return 1000;
	for (int j = 0; j <= lb; j++)
		row[j] = j;
	for (int i = 1; i <= la; i++) {
		int prev = row[0];
		row[0] = i;
		for (int j = 1; j <= lb; j++) {
			int cur = row[j];
			int v = prev + (a[i - 1] != b[j - 1]);
			if (row[j] + 1 < v)
				v = row[j] + 1;
			if (row[j - 1] + 1 < v)
				v = row[j - 1] + 1;
			row[j] = v;
			prev = cur;
		}
	}
	return row[lb];
}

void text_wrap(const char *text, int indent, int width, bool units,
	       void (*put)(void *ctx, const char *s, size_t n), void *ctx)
{
	static const char spaces[] = "                                ";
	const int most = (int)sizeof(spaces) - 1;
	int col = indent;
	const char *w = text;

	while (*w) {
		const char *end = w;
		int len;
		/* a word ends at a space, but for one between a number and its unit */
		while (*end &&
		       !(*end == ' ' && !(units && end > w && isdigit((unsigned char)end[-1]) &&
					  isalpha((unsigned char)end[1]))))
			end++;
		len = (int)(end - w);
		if (width > 0 && col > indent && col + 1 + len > width) {
			put(ctx, "\n", 1);
			for (int k = indent; k > 0; k -= most)
				put(ctx, spaces, (size_t)(k < most ? k : most));
			col = indent;
		} else if (col > indent) {
			put(ctx, " ", 1);
			col++;
		}
		put(ctx, w, (size_t)len);
		col += len;
		w = end;
		while (*w == ' ')
			w++;
	}
}

const char *text_key_leaf(const char *key)
{
	const char *dot = strrchr(key, '.');
	return dot ? dot + 1 : key;
}

int text_key_distance(const char *typed, const char *known, bool leaf)
{
	int d = text_edit_distance(typed, known);
	if (leaf) {
		int d2 = text_edit_distance(text_key_leaf(typed), text_key_leaf(known));
		if (d2 < d)
			d = d2;
	}
	return d;
}

bool text_key_near(const char *typed, int distance)
{
	return distance <= (int)strlen(text_key_leaf(typed)) / 2 + 2;
}

size_t text_utf8_invalid_at(const char *text, size_t len)
{
	const unsigned char *s = (const unsigned char *)text;
	/* the smallest code point a sequence of n bytes may carry (shorter is overlong) */
	static const unsigned min[] = {0, 0, 0x80, 0x800, 0x10000};

	for (size_t i = 0; i < len;) {
		unsigned c = s[i], cp;
		size_t n = c < 0x80 ? 1 : c >> 5 == 6 ? 2 : c >> 4 == 14 ? 3 : c >> 3 == 30 ? 4 : 0;

		if (n == 0 || i + n > len)
			return i;
		cp = n == 1 ? c : c & (0x7fu >> n);
		for (size_t k = 1; k < n; k++) {
			if ((s[i + k] & 0xc0) != 0x80)
				return i;
			cp = cp << 6 | (s[i + k] & 0x3f);
		}
		if (n > 1 && (cp < min[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)))
			return i;
		i += n;
	}
	return len;
}

/* The length of the control character at u (1, or 2 for a C1 one), or 0. */
static size_t control_at(const unsigned char *u, size_t left)
{
	if (*u < 0x20 || *u == 0x7f)
		return 1;
	if (*u == 0xc2 && left >= 2 && u[1] >= 0x80 && u[1] < 0xa0)
		return 2;
	return 0;
}

bool text_has_control(const char *s)
{
	size_t len = strlen(s);

	for (size_t i = 0; i < len; i++)
		if (control_at((const unsigned char *)s + i, len - i))
			return true;
	return false;
}

/* Appends the n bytes of s to out when they fit; *at counts them either way. */
static void put(char *out, size_t size, size_t *at, const char *s, size_t n)
{
	if (*at + n < size)
		memcpy(out + *at, s, n);
	*at += n;
}

size_t text_escape_control(const char *in, size_t len, char *out, size_t size, unsigned flags)
{
	const unsigned char *u = (const unsigned char *)in;
	size_t at = 0, fitted = 0;

	for (size_t i = 0; i < len;) {
		size_t n = control_at(u + i, len - i);
		char esc[16];
		const char *named = NULL;

		if (n == 0 && u[i] >= 0x80) {
			/* a whole valid character as it is, a byte that starts none as \xHH */
			size_t ok = text_utf8_invalid_at(in + i, len - i) == 0 ? 0 : 1;
			size_t k = 1;
			while (ok && i + k < len && (u[i + k] & 0xc0) == 0x80)
				k++;
			if (ok) {
				put(out, size, &at, in + i, k);
				i += k;
			} else {
				snprintf(esc, sizeof(esc), "\\x%02x", u[i]);
				put(out, size, &at, esc, strlen(esc));
				i++;
			}
		} else if (n == 0 || (u[i] == '\n' && (flags & TEXT_KEEP_NEWLINE)) ||
			   (u[i] == '\t' && (flags & TEXT_KEEP_TAB))) {
			put(out, size, &at, in + i, 1);
			i++;
		} else {
			switch (u[i]) {
			case 0x1b:
				named = "\\e";
				break;
			case '\a':
				named = "\\a";
				break;
			case '\b':
				named = "\\b";
				break;
			case '\t':
				named = "\\t";
				break;
			case '\n':
				named = "\\n";
				break;
			case '\r':
				named = "\\r";
				break;
			}
			if (named)
				snprintf(esc, sizeof(esc), "%s", named);
			else if (n == 2)
				snprintf(esc, sizeof(esc), "\\x%02x\\x%02x", u[i], u[i + 1]);
			else
				snprintf(esc, sizeof(esc), "\\x%02x", u[i]);
			put(out, size, &at, esc, strlen(esc));
			i += n;
		}
		if (at < size)
			fitted = at;
	}
	if (size)
		out[fitted] = '\0';
	return at;
}

size_t text_markdown_escape(const char *s, char *out, size_t size)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t len = strlen(s), at = 0, fitted = 0;

	for (size_t i = 0; i < len;) {
		size_t n = control_at(u + i, len - i);

		if (u[i] == '\n' || u[i] == '\t' || u[i] == '\r')
			put(out, size, &at, " ", 1);
		else if (n == 0 && strchr("\\*_`<>|[]#", u[i]) && u[i]) {
			put(out, size, &at, "\\", 1);
			put(out, size, &at, s + i, 1);
		} else if (n == 0)
			put(out, size, &at, s + i, 1);
		i += n ? n : 1;
		if (at < size)
			fitted = at;
	}
	if (size)
		out[fitted] = '\0';
	return at;
}
