/* yaml_doc.h - YAML documents read strictly into plain structs, and written with libyaml's
 * emitter. The only file that includes yaml.h: no libyaml type appears here.
 *
 * Readers (scenario files, catalog/gpus.yaml) walk the tree that ynode_read builds and
 * free it; writers (scenario files) emit scalars, mappings and lists in the order they
 * want them saved, then take the text.
 */
#ifndef GPUPLAN_YAML_DOC_H
#define GPUPLAN_YAML_DOC_H

#include <stddef.h>

#include "error.h"

/* A YAML document read strictly into plain structs (no libyaml types escape), for every
 * YAML file gpuplan reads. Anchors, aliases and tags are rejected (an alias becomes a
 * YNODE_BAD node), and so is nesting deeper than max_depth. */
enum ynode_kind { YNODE_SCALAR, YNODE_SEQUENCE, YNODE_MAPPING, YNODE_BAD };

struct ynode {
	enum ynode_kind kind;
	int line, column; /* 1-based position of the node */
	int plain;	  /* scalar: written without quotes */
	char *text;	  /* scalar: the value, NUL-terminated */
	size_t len;	  /* scalar: bytes in text */
	size_t n;	  /* sequence: items; mapping: 2 x pairs (key, value, key, ...) */
	struct ynode *items;
};

/* Reads len bytes of YAML (one document) into a malloc'd tree (*root; NULL for an empty
 * file, which is not an error here). Problems that do not stop reading (anchors, aliases,
 * tags) are added to problems (when not NULL) and counted in *nproblems; errors that do
 * (syntax, invalid UTF-8, tabs, depth) return -1 with err filled. The first problem of
 * either kind is in err. Free the tree with ynode_free (which takes NULL). */
int ynode_read(const char *text, size_t len, const char *file, int max_depth, struct ynode **root,
	       struct gp_problems *problems, int *nproblems, struct gp_error *err);
void ynode_free(struct ynode *root);

/* What a node is, for messages: "a mapping", "a list", "a value". */
const char *ynode_kind_name(const struct ynode *n);

/* Where a YAML reader puts its problems, as ynode_read and the scenario walker both do:
 * the first in *err, each in the list, all counted. file, problems and err may be NULL;
 * zero the struct, then set them. */
struct ysink {
	const char *file;
	struct gp_problems *problems;
	struct gp_error *err;
	int count; /* problems reported so far */
};

/* Adds a copy of e. */
void ysink_add(struct ysink *k, const struct gp_error *e);
/* Adds a GP_EINPUT problem at line and column (1-based; 0 when unknown) of k->file, for
 * field (NULL for none). Once the list is full, only counts it. */
void ysink_report(struct ysink *k, int line, int column, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* One YAML document being written: UTF-8, two-space indent, no line folding, "\n" breaks.
 * The emit functions return nothing: after the first failure they do nothing, and
 * yemit_finish reports it. */
struct yemit;

/* How a scalar is written: as libyaml sees fit (plain when it reads back the same, else
 * quoted), or as a literal block ("|"), for text of several lines. */
enum yemit_style { YEMIT_ANY, YEMIT_LITERAL };

/* Starts a document (stream and document start written). Returns NULL with err filled
 * (GP_EIO) when out of memory. */
struct yemit *yemit_new(struct gp_error *err);
void yemit_scalar(struct yemit *e, const char *text, enum yemit_style style);
/* A block mapping; its keys and values are the scalars and collections emitted until
 * yemit_mapping_end. */
void yemit_mapping_start(struct yemit *e);
void yemit_mapping_end(struct yemit *e);
/* A flow list ("[q, k, v]"). */
void yemit_flow_list_start(struct yemit *e);
void yemit_list_end(struct yemit *e);

/* Ends the document and hands over the text: a malloc'd, NUL-terminated buffer (*out,
 * *len; "" when nothing was written) that the caller frees. Frees e (NULL is accepted and
 * returns -1). Returns 0, or -1 with err filled: GP_EINTERNAL when libyaml refused an
 * event, GP_EIO when out of memory. */
int yemit_finish(struct yemit *e, char **out, size_t *len, struct gp_error *err);

#endif
