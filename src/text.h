/* text.h - small string helpers shared by the core's messages and the front ends: edit
 * distance, UTF-8 validity, and the escaping of text that came from a file before it reaches
 * a terminal or a Markdown page. */
#ifndef GPUPLAN_TEXT_H
#define GPUPLAN_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* Text built piece by piece into a fixed buffer. snprintf returns the length it would have
 * written, so "n += snprintf(buf + n, size - n, ...)" runs n past the buffer when a piece is
 * cut short and the next size - n wraps round (an out-of-bounds write); text_add clamps len
 * at the last byte instead and remembers that something was cut. */
struct text_acc {
	char *buf;
	size_t size, len; /* len < size while size > 0; buf[len] is the '\0' */
	bool cut;	  /* a piece did not fit (buf holds what did, terminated) */
};

/* An empty text in buf[size] (buf[0] set to '\0' when size > 0). */
struct text_acc text_acc_on(char *buf, size_t size);

/* Appends printf(fmt, ...) as far as it fits; never writes past buf[size - 1]. */
void text_add(struct text_acc *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Levenshtein distance between a and b (insertions, deletions, substitutions), for "did
 * you mean"; strings of 128 bytes or more count as 1000 (never a suggestion). */
int text_edit_distance(const char *a, const char *b);

/* For "did you mean" on dotted keys (scenario fields, explain's figures): the last part of
 * a key ("workload.seq_len": "seq_len"); the distance from a typed key to a known one, the
 * whole keys' or, with leaf, their last parts' when less (so "batchsize" finds "batch" in
 * any section); and whether a distance is near enough to suggest: closer than a rewrite of
 * the typed key's last part. */
const char *text_key_leaf(const char *key);
int text_key_distance(const char *typed, const char *known, bool leaf);
bool text_key_near(const char *typed, int distance);

/* Word-wraps text at width columns (0: never), the first line from column indent (what
 * leads it is the caller's) and the others indented by indent spaces; put gets each piece
 * to write, in order. With units a space between a digit and a letter does not break, so
 * a number keeps its unit on its line ("615 kB"). The text reports and explain share it. */
void text_wrap(const char *text, int indent, int width, bool units,
	       void (*put)(void *ctx, const char *s, size_t n), void *ctx);

/* Byte offset of the first invalid UTF-8 sequence in the len bytes of text, or len when
 * they are all valid (RFC 3629 section 3: no overlong forms, no surrogates, nothing above
 * U+10FFFF; a sequence cut by the end is invalid). The one check behind the YAML reader
 * (yaml_doc.c) and the values typed or given with --set (scenario_sets.c). */
size_t text_utf8_invalid_at(const char *text, size_t len);

/* Whether s holds a control character: C0 (tab and newline included), DEL, or C1 (U+0080
 * to U+009F, written in UTF-8 as 0xC2 0x80..0x9F). A terminal acts on them (ESC starts the
 * sequences that retitle, clear or set the clipboard), so text from a file never reaches
 * one with them raw. */
bool text_has_control(const char *s);

/* How text_escape_control() writes: with TEXT_KEEP_NEWLINE a newline stays (a report's
 * lines), with TEXT_KEEP_TAB a tab stays (a table); every other control character is
 * escaped. */
#define TEXT_KEEP_NEWLINE 1u
#define TEXT_KEEP_TAB	  2u

/* Copies the len bytes of in to out (size bytes, NUL-terminated) with each control
 * character written visibly, as C writes it: "\e" for ESC, "\a", "\b", "\t", "\n", "\r",
 * else "\xHH" (a C1 character is its two bytes, "\xc2\x9b"), and a backslash as itself;
 * a byte that starts no valid UTF-8 character is "\xHH" too, so no raw byte of a file that
 * is not text reaches the terminal.
 * Returns the length the whole text needs (without the NUL), as snprintf does: when that
 * is size or more, out holds only the part that fitted and the caller must not use it as
 * the whole. */
size_t text_escape_control(const char *in, size_t len, char *out, size_t size, unsigned flags);

/* Copies s to out (size bytes, NUL-terminated) with every character that Markdown or HTML
 * would read as markup escaped by a backslash (CommonMark 0.31, "Backslash escapes": any
 * ASCII punctuation may be): the backslash itself, '*', '_', '`', '<', '>', '|' (a GFM table
 * cell), '[', ']' (a link or an image) and '#' (a heading); a newline or tab becomes a space,
 * so a value stays on its table row, and any other control character is left out. Returns the
 * length the whole needs, as text_escape_control. */
size_t text_markdown_escape(const char *s, char *out, size_t size);

#endif
