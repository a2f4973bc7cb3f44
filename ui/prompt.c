/* prompt.c - the questions asked on the status line: save as, quit, overwrite, recover. */
#include "prompt.h"

#include <stdio.h>
#include <unistd.h>

#include "app_file.h"
#include "complete.h"

/* The save-as prompt: a file name typed on the status line (the line editor). */
static unsigned save_as_key(struct app *a, int key)
{
	if (key == '\t') {
		/* file names, as after :w */
		complete_file(a, "", a->line.buf);
		return DIRTY_DRAW;
	}
	if (key == KEYF(KEY_BTAB)) {
		complete_cycle(a, -1);
		return DIRTY_DRAW;
	}
	switch (line_edit_key(&a->line, key)) {
	case EDIT_ACCEPT:
		a->mode = MODE_NORMAL;
		a->prompt = PROMPT_NONE;
		if (!a->line.buf[0]) {
			a->quit_after_save = false;
			app_status(a, false, "not saved");
			break;
		}
		{
			char file[sizeof(a->line.buf)];
			snprintf(file, sizeof(file), "%s", a->line.buf);
			if (app_save(a, file) == 0 && a->quit_after_save)
				a->quit = true;
		}
		if (a->mode != MODE_PROMPT)
			a->quit_after_save = false;
		break;
	case EDIT_CANCEL:
		a->mode = MODE_NORMAL;
		a->prompt = PROMPT_NONE;
		a->quit_after_save = false;
		app_status(a, false, "not saved");
		break;
	default:
		break;
	}
	return DIRTY_DRAW;
}

/* The question is answered: back to the main view. */
static void answered(struct app *a)
{
	a->mode = MODE_NORMAL;
	a->prompt = PROMPT_NONE;
}

unsigned prompt_key_quit_yes(struct app *a, int key)
{
	(void)key;
	answered(a);
	app_quit(a, true);
	return DIRTY_DRAW;
}

unsigned prompt_key_quit_no(struct app *a, int key)
{
	(void)key;
	answered(a);
	a->status[0] = '\0';
	return DIRTY_DRAW;
}

unsigned prompt_key_quit_save(struct app *a, int key)
{
	/* save, then quit: at once, or once a name is typed when there is none */
	(void)key;
	answered(a);
	if (app_save(a, NULL) == 0)
		a->quit = true;
	else if (a->mode == MODE_PROMPT &&
		 (a->prompt == PROMPT_SAVE_AS || a->prompt == PROMPT_OVERWRITE))
		a->quit_after_save = true;
	return DIRTY_DRAW;
}

unsigned prompt_key_overwrite_yes(struct app *a, int key)
{
	char file[sizeof(a->pending_save)];

	(void)key;
	snprintf(file, sizeof(file), "%s", a->pending_save);
	answered(a);
	if (app_save_force(a, file) == 0 && a->quit_after_save)
		a->quit = true;
	a->quit_after_save = false;
	return DIRTY_DRAW;
}

unsigned prompt_key_overwrite_no(struct app *a, int key)
{
	(void)key;
	answered(a);
	a->quit_after_save = false;
	app_status(a, false, "not saved");
	return DIRTY_DRAW;
}

unsigned prompt_key_recover_yes(struct app *a, int key)
{
	unsigned dirty;

	(void)key;
	answered(a);
	dirty = DIRTY_DRAW | app_restore_recovery(a);
	/* the next older one is asked at once (the restored edits are on screen) */
	app_offer_next_recovery(a, a->status_error ? "that one no longer reads" : "restored");
	return dirty;
}

unsigned prompt_key_recover_discard(struct app *a, int key)
{
	/* the one explicit choice that drops a lost session's edits (vim's (D)elete it) */
	(void)key;
	answered(a);
	unlink(a->recover_path);
	app_status(a, false, "recovery file deleted, its edits discarded: %s", a->recover_path);
	app_offer_next_recovery(a, "deleted, its edits discarded");
	return DIRTY_DRAW;
}

unsigned prompt_key_recover_keep(struct app *a, int key)
{
	/* n is "not now": the file stays for the next start (and a hang-up of this session
	 * writes its own edits elsewhere, app_write_recovery) */
	(void)key;
	answered(a);
	app_status(a, false, "recovery file kept for later: %s", a->recover_path);
	app_offer_next_recovery(a, "kept for later");
	return DIRTY_DRAW;
}

static enum key_ctx prompt_ctx(const struct app *a)
{
	switch (a->prompt) {
	case PROMPT_SAVE_AS:
		return KC_EDIT;
	case PROMPT_QUIT:
		return KC_QUIT;
	case PROMPT_RECOVER:
		return KC_RECOVER;
	default:
		return KC_PROMPT;
	}
}

unsigned prompt_key(struct app *a, int key)
{
	const struct key_row *r;

	if (a->prompt == PROMPT_SAVE_AS)
		return save_as_key(a, key);
	/* a question answered by one key: its rows of the key table; any other key waits */
	r = keys_find(prompt_ctx(a), key);
	return r && r->run ? r->run(a, key) : DIRTY_DRAW;
}

/* Save as is a line typed on the status line; the other questions are answered by a key. */
static const char *prompt_lead(const struct app *a)
{
	return a->prompt == PROMPT_SAVE_AS ? "save as: " : NULL;
}

const struct view_ops prompt_view = {
    .key_ctx = prompt_ctx,
    .key = prompt_key,
    .cursor = draw_line_cursor,
    .line = prompt_lead,
    VIEW_OPS("prompt", KC_PROMPT),
};
