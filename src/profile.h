/* profile.h - calibration profiles: the efficiency knobs `gpuplan calibrate --profile NAME`
 * fitted on one measured run, kept under the user's configuration folder and applied to
 * every scenario planned with --profile NAME (gpuplan(1), FILES), so that
 * one measured run of a cluster calibrates every plan of that cluster.
 *
 * A profile is a file in scenario syntax, read by the same strict reader (scenario_yaml.h:
 * unknown keys, out-of-range values and wrong nodes are FILE:LINE:COL errors), that holds
 * only efficiency.* knobs besides gpuplan, name and notes:
 *
 *   gpuplan: 1
 *   name: dgx-a
 *   notes: fitted by gpuplan calibrate on run.yaml (time.step_s = 5.2 s)
 *   efficiency:
 *     mfu: 0.4123
 *
 * It lives at $XDG_CONFIG_HOME/gpuplan/profiles/NAME.yaml, or ~/.config/... when
 * XDG_CONFIG_HOME is unset, empty or relative (the XDG Base Directory Specification 0.8:
 * "If $XDG_CONFIG_HOME is either not set or empty, a default equal to $HOME/.config should
 * be used"; relative paths are invalid and ignored).
 */
#ifndef GPUPLAN_PROFILE_H
#define GPUPLAN_PROFILE_H

#include <stdbool.h>

#include "catalog.h"
#include "error.h"
#include "scenario.h"

#define PROFILE_NAME_MAX 64 /* a name's bytes, with its NUL */

struct profile {
	char name[PROFILE_NAME_MAX];
	char path[GP_PATH_MAX];
	struct efficiency knobs; /* each knob the profile gives; 0 = not given (auto) */
	char notes[4096]; /* where the knobs came from: the file's notes (as scenario.notes) */
};

/* Whether name may name a profile: 1 to 63 of [A-Za-z0-9._-], starting with a letter or
 * a digit (no folder, no hidden file). */
bool profile_name_ok(const char *name);

/* The file of profile name (see above) in buf. -1 with err: GP_EUSAGE for a bad name,
 * GP_EIO when neither XDG_CONFIG_HOME nor HOME gives a folder or the path is too long. */
int profile_path(const char *name, char *buf, size_t size, struct gp_error *err);

/* Reads profile name into *pr (its path filled). -1 with err: GP_EIO naming the path when
 * the file cannot be read (*missing set when it does not exist; missing may be NULL),
 * GP_EINPUT with FILE:LINE:COL for a bad file, a key that is not an efficiency knob, or a
 * profile without any knob. */
int profile_load(const char *name, const struct catalog *cat, struct profile *pr, bool *missing,
		 struct gp_error *err);

/* Sets each knob pr gives in s (the file's value replaced); the knobs pr leaves out keep
 * s's. */
void profile_apply(const struct profile *pr, struct scenario *s);

/* What of s is its file's, for a save: each knob pr gave (s->profile_knobs) that still
 * holds the profile's value gets back the value it replaced (s->profile_under), and is no
 * longer written when that was none, so that a profile (the cluster's, inherited) is not
 * saved into the scenario; a knob changed since keeps its value. */
void profile_unapply(struct scenario *s);

/* Takes every knob of s into pr, replacing pr's: those s sets, and auto (0, left out of
 * the saved profile) for those it does not. s was planned with pr applied, so a knob pr
 * gave stays unless a --set after it changed it. */
void profile_take(struct profile *pr, const struct scenario *s);

/* The profile that from was planned with (from->profile, its knobs in from->profile_knobs)
 * applied to to, as profile_apply would: a file opened later in the same session (the
 * terminal UI's :e) is planned with the profile the session started with. Nothing when
 * from has none. */
void profile_carry(const struct scenario *from, struct scenario *to);

/* Saves pr at pr->path: its folders made (0700, as XDG asks), then written atomically
 * (file_write_own: a temporary file renamed onto the path, mode 0600, so a symbolic link
 * there is replaced, never written through); a FIFO, a device or a directory at the path
 * (or at the end of a link there) is refused and nothing is written. -1 with err (GP_EIO)
 * naming the path. */
int profile_save(const struct profile *pr, struct gp_error *err);

#endif
