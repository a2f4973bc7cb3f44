/* yaml_doc.c - libyaml's event parser and emitter behind plain structs: the one file that
 * includes yaml.h. The reader never uses libyaml's document loader, which expands aliases;
 * no libyaml structure outlives a call. */
#include "yaml_doc.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "text.h"

/* ---- problems ------------------------------------------------------------------------ */

void ysink_add(struct ysink *k, const struct gp_error *e)
{
	if (k->count == 0 && k->err)
		*k->err = *e;
	if (k->problems)
		gp_problems_add(k->problems, e);
	k->count++;
}

void ysink_report(struct ysink *k, int line, int column, const char *field, const char *fmt, ...)
{
	struct gp_error e;
	va_list ap;

	if (k->count > 0 && k->problems && k->problems->count >= GP_MAX_PROBLEMS) {
		/* the list is full and the first error kept: count it only */
		k->problems->dropped++;
		k->count++;
		return;
	}
	va_start(ap, fmt);
	gp_error_vset(&e, GP_EINPUT, k->file, line, column, fmt, ap);
	va_end(ap);
	gp_error_set_field(&e, field);
	ysink_add(k, &e);
}

/* ---- positions ----------------------------------------------------------------------- */

/* Line and column (1-based, columns in characters) of byte offset off in text. */
static void offset_position(const char *text, size_t len, size_t off, int *line, int *column)
{
	int l = 1, c = 1;

	if (off > len)
		off = len;
	for (size_t i = 0; i < off; i++) {
		unsigned char ch = (unsigned char)text[i];
		if (ch == '\n') {
			l++;
			c = 1;
		} else if ((ch & 0xc0) != 0x80) {
			c++;
		}
	}
	*line = l;
	*column = c;
}

/* Byte offset of a libyaml mark (0-based line and character column); len when beyond. */
static size_t mark_offset(const char *text, size_t len, size_t line, size_t column)
{
	size_t i = 0;

	while (line > 0 && i < len) {
		if (text[i] == '\n')
			line--;
		else if (text[i] == '\r' && (i + 1 >= len || text[i + 1] != '\n'))
			line--;
		i++;
	}
	while (column > 0 && i < len) {
		i++;
		while (i < len && ((unsigned char)text[i] & 0xc0) == 0x80)
			i++;
		column--;
	}
	return i;
}

/* ---- the tree reader ----------------------------------------------------------------- */

struct reader {
	yaml_parser_t parser;
	const char *text;
	size_t len;
	int max_depth;
	struct ysink sink;
	bool anchor_seen, alias_seen, tag_seen;
};

const char *ynode_kind_name(const struct ynode *n)
{
	switch (n->kind) {
	case YNODE_SCALAR:
		return "a value";
	case YNODE_SEQUENCE:
		return "a list";
	case YNODE_MAPPING:
		return "a mapping";
	case YNODE_BAD:
		break;
	}
	return "an alias";
}

static void ynode_release(struct ynode *n)
{
	for (size_t i = 0; i < n->n; i++)
		ynode_release(&n->items[i]);
	free(n->items);
	free(n->text);
}

void ynode_free(struct ynode *root)
{
	if (!root)
		return;
	ynode_release(root);
	free(root);
}

/* Reports libyaml's own error in our words; always fatal. */
static void reader_report_parser(struct reader *r)
{
	yaml_parser_t *p = &r->parser;
	int line, column;

	if (p->error == YAML_MEMORY_ERROR) {
		struct gp_error e;
		gp_error_set(&e, GP_EIO, r->sink.file, 0, 0, "out of memory reading YAML");
		ysink_add(&r->sink, &e);
		return;
	}
	if (p->error == YAML_READER_ERROR) {
		unsigned v = (unsigned)p->problem_value;
		offset_position(r->text, r->len, p->problem_offset, &line, &column);
		if (p->problem && strstr(p->problem, "control characters"))
			ysink_report(
			    &r->sink, line, column, NULL,
			    "not a text file: control character 0x%02X (expected UTF-8 YAML text)",
			    v);
		else if (p->problem && (strstr(p->problem, "UTF-8") || strstr(p->problem, "octet")))
			ysink_report(&r->sink, line, column, NULL,
				     "invalid UTF-8: %s (byte 0x%02X; expected UTF-8 YAML text)",
				     p->problem, v & 0xff);
		else
			ysink_report(&r->sink, line, column, NULL, "cannot read the text: %s",
				     p->problem ? p->problem : "unknown reader error");
		return;
	}
	{
		size_t ml = p->problem_mark.line, mc = p->problem_mark.column;
		size_t off = mark_offset(r->text, r->len, ml, mc);
		size_t ls = off;
		bool tab = off < r->len && r->text[off] == '\t';

		/* a tab anywhere in the indentation of the line the error is on */
		while (ls > 0 && r->text[ls - 1] != '\n' && r->text[ls - 1] != '\r')
			ls--;
		for (size_t i = ls; !tab && i < r->len && (r->text[i] == ' ' || r->text[i] == '\t');
		     i++) {
			if (r->text[i] == '\t') {
				tab = true;
				off = i;
			}
		}
		if (tab) {
			offset_position(r->text, r->len, off, &line, &column);
			ysink_report(
			    &r->sink, line, column, NULL,
			    "tab character in indentation (YAML indents with spaces only)");
			return;
		}
		line = (int)ml + 1;
		column = (int)mc + 1;
		if (p->context)
			ysink_report(&r->sink, line, column, NULL, "invalid YAML: %s %s",
				     p->context, p->problem ? p->problem : "");
		else
			ysink_report(&r->sink, line, column, NULL, "invalid YAML: %s",
				     p->problem ? p->problem : "syntax error");
	}
}

static int reader_next(struct reader *r, yaml_event_t *ev)
{
	if (!yaml_parser_parse(&r->parser, ev)) {
		reader_report_parser(r);
		return -1;
	}
	return 0;
}

static void reader_check_props(struct reader *r, const yaml_event_t *ev, const yaml_char_t *anchor,
			       const yaml_char_t *tag, int implicit)
{
	int line = (int)ev->start_mark.line + 1, column = (int)ev->start_mark.column + 1;

	if (anchor && !r->anchor_seen) {
		r->anchor_seen = true;
		ysink_report(
		    &r->sink, line, column, NULL,
		    "anchor '&%s' is not allowed (anchors and aliases are not supported; write "
		    "the value out)",
		    (const char *)anchor);
	}
	if (tag && !implicit && !r->tag_seen) {
		r->tag_seen = true;
		ysink_report(&r->sink, line, column, NULL,
			     "tag '%s' is not allowed (expected plain values)", (const char *)tag);
	}
}

/* Reads the node that ev starts into n (zeroed by the caller). depth counts the
 * collections n is inside. Returns 0 or -1 (fatal; n holds what was read so far). */
static int reader_node(struct reader *r, const yaml_event_t *ev, struct ynode *n, int depth)
{
	yaml_event_type_t end;

	n->line = (int)ev->start_mark.line + 1;
	n->column = (int)ev->start_mark.column + 1;
	switch (ev->type) {
	case YAML_ALIAS_EVENT:
		n->kind = YNODE_BAD;
		if (!r->alias_seen) {
			r->alias_seen = true;
			ysink_report(
			    &r->sink, n->line, n->column, NULL,
			    "alias '*%s' is not allowed (anchors and aliases are not supported; "
			    "write the value out)",
			    (const char *)ev->data.alias.anchor);
		}
		return 0;
	case YAML_SCALAR_EVENT:
		reader_check_props(r, ev, ev->data.scalar.anchor, ev->data.scalar.tag,
				   ev->data.scalar.plain_implicit ||
				       ev->data.scalar.quoted_implicit);
		n->kind = YNODE_SCALAR;
		n->plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
		n->len = ev->data.scalar.length;
		n->text = malloc(n->len + 1);
		if (!n->text) {
			struct gp_error e;
			gp_error_set(&e, GP_EIO, r->sink.file, 0, 0, "out of memory reading YAML");
			ysink_add(&r->sink, &e);
			return -1;
		}
		memcpy(n->text, ev->data.scalar.value, n->len);
		n->text[n->len] = '\0';
		return 0;
	case YAML_SEQUENCE_START_EVENT:
		reader_check_props(r, ev, ev->data.sequence_start.anchor,
				   ev->data.sequence_start.tag, ev->data.sequence_start.implicit);
		n->kind = YNODE_SEQUENCE;
		end = YAML_SEQUENCE_END_EVENT;
		break;
	case YAML_MAPPING_START_EVENT:
		reader_check_props(r, ev, ev->data.mapping_start.anchor, ev->data.mapping_start.tag,
				   ev->data.mapping_start.implicit);
		n->kind = YNODE_MAPPING;
		end = YAML_MAPPING_END_EVENT;
		break;
	default:
		ysink_report(&r->sink, n->line, n->column, NULL, "invalid YAML: unexpected event");
		return -1;
	}
	if (depth + 1 > r->max_depth) {
		ysink_report(&r->sink, n->line, n->column, NULL,
			     "nesting deeper than %d levels (expected a few levels of keys)",
			     r->max_depth);
		return -1;
	}
	for (size_t cap = 0;;) {
		yaml_event_t child;
		int rc;

		if (reader_next(r, &child) != 0)
			return -1;
		if (child.type == end) {
			yaml_event_delete(&child);
			return 0;
		}
		if (n->n == cap) {
			size_t ncap = cap ? cap * 2 : 8;
			struct ynode *items = realloc(n->items, ncap * sizeof(*items));
			if (!items) {
				struct gp_error e;
				yaml_event_delete(&child);
				gp_error_set(&e, GP_EIO, r->sink.file, 0, 0,
					     "out of memory reading YAML");
				ysink_add(&r->sink, &e);
				return -1;
			}
			n->items = items;
			cap = ncap;
		}
		memset(&n->items[n->n], 0, sizeof(n->items[0]));
		n->n++;
		rc = reader_node(r, &child, &n->items[n->n - 1], depth + 1);
		yaml_event_delete(&child);
		if (rc != 0)
			return -1;
	}
}

int ynode_read(const char *text, size_t len, const char *file, int max_depth, struct ynode **root,
	       struct gp_problems *problems, int *nproblems, struct gp_error *err)
{
	struct reader r;
	yaml_event_t ev;
	struct ynode *tree = NULL;
	int rc = -1, have_event = 0;

	/* a UTF-8 byte order mark (editors on Windows write one): YAML 1.2 allows it at the
	 * start, but libyaml keeps it as text once the encoding is set, so it is skipped
	 * here; it takes no column */
	if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
		text += 3;
		len -= 3;
	}
	memset(&r, 0, sizeof(r));
	r.text = text;
	r.len = len;
	r.max_depth = max_depth;
	r.sink.file = file;
	r.sink.problems = problems;
	r.sink.err = err;
	*root = NULL;
	{
		size_t bad = text_utf8_invalid_at(text, len);
		if (bad < len) {
			int line, column;
			offset_position(text, len, bad, &line, &column);
			ysink_report(&r.sink, line, column, NULL,
				     "invalid UTF-8: byte 0x%02X does not start a valid character "
				     "(expected UTF-8 text)",
				     (unsigned char)text[bad]);
			if (nproblems)
				*nproblems = 1;
			return -1;
		}
	}
	if (!yaml_parser_initialize(&r.parser)) {
		gp_error_set(err, GP_EIO, file, 0, 0, "out of memory reading YAML");
		if (nproblems)
			*nproblems = 1;
		return -1;
	}
	yaml_parser_set_input_string(&r.parser, (const unsigned char *)text, len);
	yaml_parser_set_encoding(&r.parser, YAML_UTF8_ENCODING);

	/* STREAM-START, then DOCUMENT-START or STREAM-END (an empty file) */
	if (reader_next(&r, &ev) != 0)
		goto out;
	yaml_event_delete(&ev);
	if (reader_next(&r, &ev) != 0)
		goto out;
	if (ev.type == YAML_STREAM_END_EVENT) {
		yaml_event_delete(&ev);
		rc = 0;
		goto out;
	}
	yaml_event_delete(&ev);
	if (reader_next(&r, &ev) != 0)
		goto out;
	have_event = 1;
	tree = calloc(1, sizeof(*tree));
	if (!tree) {
		struct gp_error e;
		gp_error_set(&e, GP_EIO, file, 0, 0, "out of memory reading YAML");
		ysink_add(&r.sink, &e);
		goto out;
	}
	if (reader_node(&r, &ev, tree, 0) != 0)
		goto out;
	yaml_event_delete(&ev);
	have_event = 0;
	/* DOCUMENT-END, then STREAM-END: one document per file */
	if (reader_next(&r, &ev) != 0)
		goto out;
	yaml_event_delete(&ev);
	if (reader_next(&r, &ev) != 0)
		goto out;
	if (ev.type != YAML_STREAM_END_EVENT) {
		ysink_report(&r.sink, (int)ev.start_mark.line + 1, (int)ev.start_mark.column + 1,
			     NULL, "a second YAML document (expected one per file)");
		yaml_event_delete(&ev);
		goto out;
	}
	yaml_event_delete(&ev);
	rc = 0;
out:
	if (have_event)
		yaml_event_delete(&ev);
	yaml_parser_delete(&r.parser);
	if (nproblems)
		*nproblems = r.sink.count;
	if (rc != 0) {
		ynode_free(tree);
		return -1;
	}
	*root = tree;
	return r.sink.count ? -1 : 0;
}

/* ---- the emitter --------------------------------------------------------------------- */

struct outbuf {
	char *data;
	size_t len, cap;
};

static int outbuf_write(void *data, unsigned char *buffer, size_t size)
{
	struct outbuf *o = data;

	if (o->len + size + 1 > o->cap) {
		size_t ncap = o->cap ? o->cap : 1024;
		char *nd;
		while (o->len + size + 1 > ncap)
			ncap *= 2;
		nd = realloc(o->data, ncap);
		if (!nd)
			return 0;
		o->data = nd;
		o->cap = ncap;
	}
	memcpy(o->data + o->len, buffer, size);
	o->len += size;
	o->data[o->len] = '\0';
	return 1;
}

struct yemit {
	yaml_emitter_t emitter;
	struct outbuf out;
	int failed;
};

/* Emits ev, which its initializer built when ok; the first failure stops the rest. An
 * event not emitted is freed here (a scalar's holds a copy of its text); libyaml frees
 * the ones it is given, even when it refuses them. */
static void yemit_event(struct yemit *e, yaml_event_t *ev, int ok)
{
	if (e->failed) {
		if (ok)
			yaml_event_delete(ev);
		return;
	}
	if (!ok) {
		e->failed = 1;
		return;
	}
	if (!yaml_emitter_emit(&e->emitter, ev))
		e->failed = 1;
}

struct yemit *yemit_new(struct gp_error *err)
{
	struct yemit *e = calloc(1, sizeof(*e));
	yaml_event_t ev;
	int ok;

	if (!e || !yaml_emitter_initialize(&e->emitter)) {
		free(e);
		gp_error_set(err, GP_EIO, NULL, 0, 0, "out of memory writing YAML");
		return NULL;
	}
	yaml_emitter_set_output(&e->emitter, outbuf_write, &e->out);
	yaml_emitter_set_unicode(&e->emitter, 1);
	yaml_emitter_set_indent(&e->emitter, 2);
	yaml_emitter_set_width(&e->emitter, -1);
	yaml_emitter_set_break(&e->emitter, YAML_LN_BREAK);

	ok = yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
	yemit_event(e, &ev, ok);
	ok = yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1);
	yemit_event(e, &ev, ok);
	return e;
}

void yemit_scalar(struct yemit *e, const char *text, enum yemit_style style)
{
	yaml_event_t ev;
	int ok = yaml_scalar_event_initialize(
	    &ev, NULL, NULL, (const yaml_char_t *)text, (int)strlen(text), 1, 1,
	    style == YEMIT_LITERAL ? YAML_LITERAL_SCALAR_STYLE : YAML_ANY_SCALAR_STYLE);
	yemit_event(e, &ev, ok);
}

/* The start or end of a collection, in the only styles the writers use: block mappings
 * and flow lists. */
static void yemit_collection(struct yemit *e, yaml_event_type_t type)
{
	yaml_event_t ev;
	int ok;

	if (type == YAML_MAPPING_START_EVENT)
		ok = yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
							 YAML_BLOCK_MAPPING_STYLE);
	else if (type == YAML_SEQUENCE_START_EVENT)
		ok = yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
							  YAML_FLOW_SEQUENCE_STYLE);
	else if (type == YAML_MAPPING_END_EVENT)
		ok = yaml_mapping_end_event_initialize(&ev);
	else
		ok = yaml_sequence_end_event_initialize(&ev);
	yemit_event(e, &ev, ok);
}

void yemit_mapping_start(struct yemit *e)
{
	yemit_collection(e, YAML_MAPPING_START_EVENT);
}

void yemit_mapping_end(struct yemit *e)
{
	yemit_collection(e, YAML_MAPPING_END_EVENT);
}

void yemit_flow_list_start(struct yemit *e)
{
	yemit_collection(e, YAML_SEQUENCE_START_EVENT);
}

void yemit_list_end(struct yemit *e)
{
	yemit_collection(e, YAML_SEQUENCE_END_EVENT);
}

int yemit_finish(struct yemit *e, char **out, size_t *len, struct gp_error *err)
{
	struct outbuf o;
	yaml_event_t ev;
	int ok;

	if (!e)
		return -1;
	ok = yaml_document_end_event_initialize(&ev, 1);
	yemit_event(e, &ev, ok);
	ok = yaml_stream_end_event_initialize(&ev);
	yemit_event(e, &ev, ok);
	if (!e->failed && !yaml_emitter_flush(&e->emitter))
		e->failed = 1;
	o = e->out;
	if (e->failed) {
		gp_error_set(err, GP_EINTERNAL, NULL, 0, 0, "cannot write YAML: %s",
			     e->emitter.problem ? e->emitter.problem : "out of memory");
		yaml_emitter_delete(&e->emitter);
		free(e);
		free(o.data);
		return -1;
	}
	yaml_emitter_delete(&e->emitter);
	free(e);
	if (!o.data) {
		o.data = calloc(1, 1);
		if (!o.data)
			return gp_error_set(err, GP_EIO, NULL, 0, 0, "out of memory");
	}
	*out = o.data;
	*len = o.len;
	return 0;
}
