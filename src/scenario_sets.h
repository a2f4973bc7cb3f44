/* scenario_sets.h - values applied as a scenario file applies them: a file a field names
 * (model.hf_config) is read and its model handed to the core, and presets go before the
 * fields of their section, which override them (gpuplan-scenario(5)).
 *
 * These are the loader's steps, so they may read files; scenario_field_set (scenario.h)
 * never does. Used by the loader, the saver, --set and the terminal UI's :set.
 */
#ifndef GPUPLAN_SCENARIO_SETS_H
#define GPUPLAN_SCENARIO_SETS_H

#include "catalog.h"
#include "error.h"
#include "scenario.h"

/* As scenario_field_set, but a FIELD_FILE field (model.hf_config) reads the Hugging Face
 * config it names, relative to the folder of s->path, and sets the model it gives. A config
 * that cannot be read fails with its own error (GP_EIO, or GP_EINPUT with the config's
 * file, line and column) and err->field set to f's key. Returns 0 or -1 (s unchanged). */
int scenario_field_load(struct scenario *s, const struct catalog *cat, const struct field *f,
			const char *text, struct gp_error *err);

/* scenario_assignment_split + scenario_field_load: "KEY=VALUE". */
int scenario_load_assignment(struct scenario *s, const struct catalog *cat, const char *kv,
			     struct gp_error *err);

/* The scenario a file holding only s's presets (model.preset, model.hf_config,
 * hardware.gpu) and s->path would read as: the defaults with those presets applied. */
void scenario_preset_base(const struct scenario *s, const struct catalog *cat,
			  struct scenario *base);

/* Applies the n assignments sets[] ("KEY=VALUE", as --set gives them) to s as if written
 * in its file: presets first, in the order given; then, in each section a preset replaced
 * (model.* for model.preset and model.hf_config, hardware.* for hardware.gpu), the fields
 * the file itself set, again, with the values they had; then every other assignment in
 * order. The file's fields are the keys src lists (the loader's); when src is NULL, those
 * whose value differs from what s's presets alone give (the fields its saved form holds).
 * Returns 0, or -1 at the first assignment that fails, with err filled and *failed (may be
 * NULL) its index (-1 when none is to blame: out of memory); s then holds the assignments
 * before it. */
int scenario_apply_sets(struct scenario *s, const struct catalog *cat, const char *const *sets,
			int n, const struct scenario_source *src, int *failed,
			struct gp_error *err);

#endif
