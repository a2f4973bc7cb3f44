/* scenario_yaml.h - scenario files: read strictly, write canonically. The only file that
 * includes yaml.h.
 *
 * Reading rejects, with FILE:LINE:COL, unknown keys (naming the closest known one),
 * duplicate keys, wrong node kinds, anchors and aliases, tabs, invalid UTF-8, files over
 * SCENARIO_MAX_FILE_BYTES and nesting deeper than SCENARIO_MAX_DEPTH, unreadable numbers
 * and out-of-range values. Presets (model.preset, model.hf_config, hardware.gpu) are
 * applied before the fields that override them, whatever their order in the file.
 *
 * Writing uses libyaml's emitter in the field table's order, with human units, leaving out
 * fields equal to their preset or default, notes kept verbatim; loading a saved file and
 * saving it again gives the same bytes.
 */
#ifndef GPUPLAN_SCENARIO_YAML_H
#define GPUPLAN_SCENARIO_YAML_H

#include <stddef.h>

#include "catalog.h"
#include "error.h"
#include "scenario.h"

#define SCENARIO_MAX_FILE_BYTES (1 << 20)
#define SCENARIO_MAX_DEPTH	8

/* Parses len bytes of YAML into *s (which starts from scenario_init()). name is used in
 * messages and as s->path. Every problem found is added to problems (when not NULL);
 * returns 0 when there were none, -1 otherwise with the first in err. src (may be NULL)
 * receives each key's position for later validation messages. */
int scenario_parse(const char *text, size_t len, const char *name, const struct catalog *cat,
		   struct scenario *s, struct scenario_source *src, struct gp_problems *problems,
		   struct gp_error *err);

/* Reads path ("-" for standard input) and parses it. GP_EIO when it cannot be read. */
int scenario_load_file(const char *path, const struct catalog *cat, struct scenario *s,
		       struct scenario_source *src, struct gp_problems *problems,
		       struct gp_error *err);

/* Writes s in canonical form into a malloc'd, NUL-terminated buffer (*out, *len); the
 * caller frees *out. Returns 0 or -1. */
int scenario_format_yaml(const struct scenario *s, const struct catalog *cat, char **out,
			 size_t *len, struct gp_error *err);

/* Writes only the model: block (for `gpuplan import`). */
int scenario_format_model_yaml(const struct model *m, char **out, size_t *len,
			       struct gp_error *err);

/* Saves atomically: a temporary file in the same folder, fsync, rename, fsync of the
 * folder. On failure the old file is left as it was. Returns 0 or -1 (GP_EIO). */
int scenario_save_file(const struct scenario *s, const struct catalog *cat, const char *path,
		       struct gp_error *err);

/* A YAML document read strictly into plain structs (no libyaml types escape), for the
 * other YAML files gpuplan reads (catalog/gpus.yaml). Anchors, aliases and tags are
 * rejected (an alias becomes a YNODE_BAD node), and so is nesting deeper than max_depth. */
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

#endif
