/* app_file.h - saving, opening and the recovery file (app_file.c). */
#ifndef GPUPLAN_UI_APP_FILE_H
#define GPUPLAN_UI_APP_FILE_H

#include "app.h"

/* A file name as typed: a leading ~/ is $HOME/, as a shell would have it. 0, or -1 when
 * it does not fit size (out then holds a name cut short: not to be used). */
int app_expand_path(const char *in, char *out, size_t size);

/* Saves to path (or the current path when NULL; ~/ expanded); 0 or -1 with the status line
 * set. Asks first (PROMPT_OVERWRITE) before replacing a file other than the scenario's own,
 * or the scenario's own file when it holds comments, which the canonical form drops;
 * app_save_force does not ask. */
int app_save_force(struct app *a, const char *path);
int app_save(struct app *a, const char *path);

/* The recovery file for a scenario path: .FILE.recover beside it; for a session without a
 * file (path "") the state folder's recover-PID.yaml, one per session. 0, or -1 with buf ""
 * when it does not fit. */
int app_recover_path(const char *path, char *buf, size_t size);

/* When a recovery file of the scenario's path exists (beside it, or in the state folder),
 * asks (on the status line) what to do with it, as vim asks of a swap file: y restores its
 * edits (the file is kept until they are saved or discarded), d deletes it, n or Esc keep
 * it for later. Only a regular file of this user, not a symbolic link, that reads as a
 * scenario is offered; another is left, and the status line says why. When there are
 * several (one kept for later, then another session lost), the question says how many and
 * asks of the newest; app_offer_next_recovery then asks of the next older one, whatever the
 * answer, so that none is passed over unseen. Returns whether it asked. */
bool app_offer_recovery(struct app *a);

/* After an answer about a->recover_path: asks of the next older recovery file, the status
 * line starting with lead (what became of the one before). Returns whether it asked. */
bool app_offer_next_recovery(struct app *a, const char *lead);

/* Writes unsaved edits to the recovery file, mode 0600, never through a symbolic link
 * planted at its name: the one this session restored, else app_recover_path's when no file
 * is there; where its folder cannot be written, or a lost session's file kept for later is
 * there, to the state folder ($XDG_STATE_HOME/gpuplan/NAME-HASH[-PID].recover). Sets
 * a->recover_path to the file written. 0 or -1. Not for signal handlers. */
int app_write_recovery(struct app *a);

/* The edits restored from a lost session are saved or discarded (a save, :e, quitting
 * without saving): deletes the recovery file they came from (a->recover_own). */
void app_drop_recovery(struct app *a);

/* Notes the identity of the file a->path on disk (device, inode, size, mtime) as read or
 * written, so that :w notices when another program changed it since. */
void app_note_disk(struct app *a);

/* :e FILE: opens another scenario; refuses over unsaved edits unless force. */
unsigned app_open(struct app *a, const char *name, bool force); /* returns the dirty bits */

/* q and :q: quits, asking first (PROMPT_QUIT) over unsaved edits unless force. */
void app_quit(struct app *a, bool force);

/* y at PROMPT_RECOVER: the recovery file's scenario, as one undoable edit. */
unsigned app_restore_recovery(struct app *a); /* returns the dirty bits */

#endif
