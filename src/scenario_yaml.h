/* scenario_yaml.h - scenario files: read strictly, write canonically. Read with yaml_doc.h's
 * strict tree reader and written with its emitter.
 *
 * Reading rejects, with FILE:LINE:COL, unknown keys (naming the closest known one),
 * duplicate keys, wrong node kinds, anchors and aliases, tabs, invalid UTF-8, files over
 * SCENARIO_MAX_FILE_BYTES and nesting deeper than SCENARIO_MAX_DEPTH, unreadable numbers
 * and out-of-range values. Presets (model.preset, model.hf_config, hardware.gpu) are
 * applied before the fields that override them, whatever their order in the file.
 *
 * Writing uses libyaml's emitter in the field table's order, with human units, leaving out
 * fields equal to their preset or default unless the file they were read from gave them
 * (struct scenario's written bits: a value the author wrote stays, even one equal to the
 * catalog's), notes kept verbatim; loading a saved file and saving it again gives the same
 * bytes. Comments are not kept: libyaml's parser does not report them.
 */
#ifndef GPUPLAN_SCENARIO_YAML_H
#define GPUPLAN_SCENARIO_YAML_H

#include <stdbool.h>
#include <stddef.h>

#include "catalog.h"
#include "error.h"
#include "scenario.h"

#define SCENARIO_MAX_FILE_BYTES (1 << 20)
#define SCENARIO_MAX_DEPTH	8
/* an unknown key's message lists its section's keys when there are at most this many and
 * the list fits SCENARIO_KEYS_LIST_BYTES (parallel's 12 keys fit) */
#define SCENARIO_KEYS_LISTED	 12
#define SCENARIO_KEYS_LIST_BYTES 200

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

/* Whether the file s was read from gave the field of index idx in scenario_fields[]. */
bool scenario_field_written(const struct scenario *s, int idx);

/* Writes s in canonical form into a malloc'd, NUL-terminated buffer (*out, *len); the
 * caller frees *out. Returns 0 or -1. */
int scenario_format_yaml(const struct scenario *s, const struct catalog *cat, char **out,
			 size_t *len, struct gp_error *err);

/* The text orig (read as s->path's) with only the values of the fields in which s differs
 * from it replaced, each written as the canonical form writes it, every other byte
 * (comments, blank lines, order) kept: 0 with a malloc'd *out, or -1 when some changed field
 * is not a one-line scalar in orig (absent, a list, block text) or the text would not read
 * back as s field for field. */
int scenario_splice_yaml(const struct scenario *s, const struct catalog *cat, const char *orig,
			 size_t olen, char **out, size_t *len);

/* What a save writes: the file s was read from (s->path) with only the changed values
 * replaced when scenario_splice_yaml can (*kept true), else the canonical form, which drops
 * the file's comments (*kept false). Returns 0 or -1. */
int scenario_format_yaml_kept(const struct scenario *s, const struct catalog *cat, char **out,
			      size_t *len, bool *kept, struct gp_error *err);

/* Writes only the model: block (for `gpuplan import`). */
int scenario_format_model_yaml(const struct model *m, char **out, size_t *len,
			       struct gp_error *err);

/* Saves the canonical form (`gpuplan fmt -o`) atomically: a temporary file in the same
 * folder, fsync, rename, fsync of the folder. On failure the old file is left as it was.
 * Returns 0 or -1 (GP_EIO). */
int scenario_save_file(const struct scenario *s, const struct catalog *cat, const char *path,
		       struct gp_error *err);

/* Saves as scenario_save_file what scenario_format_yaml_kept writes: the file s was read
 * from with only the edited values changed where it can (*kept true), else the canonical
 * form. The UI's :w and calibrate --write. */
int scenario_save_file_kept(const struct scenario *s, const struct catalog *cat, const char *path,
			    bool *kept, struct gp_error *err);

#endif
