/* test_text.c - src/text.c: appending to a fixed buffer (text_add), the one UTF-8 check (RFC 3629 cases), the escaping of control
 * characters for a terminal, and of Markdown and HTML markup for a review page. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "text.h"

static size_t bad_at(const char *s)
{
	return text_utf8_invalid_at(s, strlen(s));
}

struct sink {
	char buf[256];
	size_t len;
};

static void sink_put(void *ctx, const char *s, size_t n)
{
	struct sink *k = ctx;
	assert_true(k->len + n < sizeof(k->buf));
	memcpy(k->buf + k->len, s, n);
	k->len += n;
	k->buf[k->len] = '\0';
}

static const char *wrapped(const char *text, int indent, int width, bool units)
{
	static struct sink k;
	k.len = 0;
	k.buf[0] = '\0';
	text_wrap(text, indent, width, units, sink_put, &k);
	return k.buf;
}

/* The one word wrap of the text reports and explain: a break before the word past the
 * width, indented continuation lines, runs of spaces as one, a number with its unit. */
static void test_wrap(void **state)
{
	(void)state;
	assert_string_equal(wrapped("aaa bbb  ccc", 2, 10, false), "aaa bbb\n  ccc");
	assert_string_equal(wrapped("aaa bbb ccc", 2, 0, false), "aaa bbb ccc");
	assert_string_equal(wrapped("x is 615 kB", 0, 9, true), "x is\n615 kB");
	assert_string_equal(wrapped("x is 615 kB", 0, 9, false), "x is 615\nkB");
	/* a word longer than the width stays whole, on a line of its own */
	assert_string_equal(wrapped("a abcdefghijkl b", 1, 6, false), "a\n abcdefghijkl\n b");
	/* an indent wider than the function's run of spaces */
	assert_string_equal(wrapped("a b", 40, 42, false),
			    "a\n                                        b");
	assert_string_equal(wrapped("", 3, 10, true), "");
}

static void test_utf8(void **state)
{
	(void)state;
	assert_int_equal(bad_at(""), 0);
	assert_int_equal(bad_at("plain"), 5);
	assert_int_equal(bad_at("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80"), 14);
	assert_int_equal(bad_at("caf\xe9"), 3);			  /* Latin-1 */
	assert_int_equal(bad_at("ab\xc3"), 2);			  /* cut by the end */
	assert_int_equal(bad_at("a\x80"), 1);			  /* a stray continuation byte */
	assert_int_equal(bad_at("x\xc0\xaf"), 1);		  /* overlong '/' */
	assert_int_equal(bad_at("x\xe0\x80\xaf"), 1);		  /* overlong, three bytes */
	assert_int_equal(bad_at("xy\xed\xa0\x80"), 2);		  /* a surrogate, U+D800 */
	assert_int_equal(bad_at("\xf4\x90\x80\x80"), 0);	  /* above U+10FFFF */
	assert_int_equal(bad_at("\xf5\x80\x80\x80"), 0);	  /* no such lead byte */
	assert_int_equal(bad_at("\xf4\x8f\xbf\xbf!"), 5);	  /* U+10FFFF itself */
	assert_int_equal(text_utf8_invalid_at("a\0b", 3), 3);	  /* NUL is a character */
	assert_int_equal(text_utf8_invalid_at("\xc3\xa9", 1), 0); /* len cuts it */
}

static void test_has_control(void **state)
{
	(void)state;
	assert_false(text_has_control("caf\xc3\xa9 \xc2\xa0ok"));
	assert_true(text_has_control("a\x1b]0;x\a"));
	assert_true(text_has_control("tab\there"));
	assert_true(text_has_control("del\x7f"));
	assert_true(text_has_control("csi \xc2\x9b"
				     "2J")); /* C1 CSI */
}

static void test_escape_control(void **state)
{
	char out[64];
	const char *osc = "n\x1b]0;pwned\a\x1b[2J";

	(void)state;
	assert_int_equal(text_escape_control(osc, strlen(osc), out, sizeof(out), 0),
			 strlen("n\\e]0;pwned\\a\\e[2J"));
	assert_string_equal(out, "n\\e]0;pwned\\a\\e[2J");
	text_escape_control("a\nb\tc\x01\x7f\xc2\x9b", 9, out, sizeof(out), 0);
	assert_string_equal(out, "a\\nb\\tc\\x01\\x7f\\xc2\\x9b");
	text_escape_control("a\nb\tc", 5, out, sizeof(out), TEXT_KEEP_NEWLINE | TEXT_KEEP_TAB);
	assert_string_equal(out, "a\nb\tc");
	/* too small: says how much it needs and never ends inside an escape */
	assert_int_equal(text_escape_control("ab\x1b", 3, out, 4, 0), 4);
	assert_string_equal(out, "ab");
	assert_int_equal(text_escape_control("\xc3\xa9", 2, out, sizeof(out), 0), 2);
	assert_string_equal(out, "\xc3\xa9");
	text_escape_control("caf\xe9 \xe2\x82\xac\xe2\x82", 10, out, sizeof(out), 0);
	assert_string_equal(out, "caf\\xe9 \xe2\x82\xac\\xe2\\x82");
}

static void test_markdown_escape(void **state)
{
	char out[128];
	const char *evil = "**x** _y_ `z` <img src=x> | [a](b) # \\";
	size_t n = text_markdown_escape(evil, out, sizeof(out));

	(void)state;
	assert_int_equal(n, strlen(out));
	assert_string_equal(out, "\\*\\*x\\*\\* \\_y\\_ \\`z\\` \\<img src=x\\> \\| "
				 "\\[a\\](b) \\# \\\\");
	text_markdown_escape("two\nlines\x1b[2J", out, sizeof(out));
	assert_string_equal(out, "two lines\\[2J");
	text_markdown_escape("llama-2-7b 8.5 GB", out, sizeof(out));
	assert_string_equal(out, "llama-2-7b 8.5 GB");
	assert_int_equal(text_markdown_escape("a*", out, 3), 3);
	assert_string_equal(out, "a");
}

/* A piece cut short leaves len on the last byte: the next pieces write nothing past the
 * buffer (the old "n += snprintf(buf + n, size - n, ...)" ran n past it and the next size - n
 * wrapped round to a huge size_t, writing over the guard; ASan reports it). */
static void test_add(void **state)
{
	struct {
		char b[8];
		char guard[24];
	} m;
	struct text_acc t;
	(void)state;

	memset(&m, 'G', sizeof(m));
	t = text_acc_on(m.b, sizeof(m.b));
	assert_string_equal(m.b, "");
	text_add(&t, "%s", "ab");
	text_add(&t, " + %d", 7);
	assert_string_equal(m.b, "ab + 7");
	assert_int_equal(t.len, 6);
	assert_false(t.cut);
	text_add(&t, " + %s", "a term too long for it"); /* cut: "ab + 7 " */
	assert_true(t.cut);
	assert_int_equal(t.len, 7);
	assert_string_equal(m.b, "ab + 7 ");
	for (int i = 0; i < 4; i++) /* full: more pieces neither move len nor write */
		text_add(&t, " + %s", "another");
	assert_int_equal(t.len, 7);
	assert_string_equal(m.b, "ab + 7 ");
	for (size_t i = 0; i < sizeof(m.guard); i++)
		assert_int_equal(m.guard[i], 'G');

	/* an empty piece into a full buffer is no cut; a buffer of one byte holds only '\0' */
	t = text_acc_on(m.b, 1);
	text_add(&t, "%s", "");
	assert_false(t.cut);
	text_add(&t, "x");
	assert_true(t.cut);
	assert_int_equal(t.len, 0);
	assert_string_equal(m.b, "");
	/* no buffer at all: nothing written, cut from the start */
	t = text_acc_on(NULL, 0);
	assert_true(t.cut);
	text_add(&t, "x");
	assert_int_equal(t.len, 0);
	assert_int_equal(m.b[1], 'b'); /* untouched since the first text */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_add),
	    cmocka_unit_test(test_wrap),
	    cmocka_unit_test(test_utf8),
	    cmocka_unit_test(test_has_control),
	    cmocka_unit_test(test_escape_control),
	    cmocka_unit_test(test_markdown_escape),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
