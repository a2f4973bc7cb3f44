/* prompt.c - the questions asked on the status line: save as, quit, overwrite, recover. */
#include "prompt.h"

#include <stdio.h>
#include <unistd.h>

#include "app_file.h"
#include "complete.h"

unsigned prompt_key(struct app *a, int key)
{
	enum prompt_kind kind = a->prompt;

	if (kind == PROMPT_SAVE_AS) {
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
	if (kind == PROMPT_QUIT && (key == 'w' || key == 'W')) {
		/* save, then quit: at once, or once a name is typed when there is none */
		a->mode = MODE_NORMAL;
		a->prompt = PROMPT_NONE;
		if (app_save(a, NULL) == 0)
			a->quit = true;
		else if (a->mode == MODE_PROMPT &&
			 (a->prompt == PROMPT_SAVE_AS || a->prompt == PROMPT_OVERWRITE))
			a->quit_after_save = true;
		return DIRTY_DRAW;
	}
	if (kind == PROMPT_OVERWRITE) {
		if (key == 'y' || key == 'Y') {
			char file[sizeof(a->pending_save)];
			snprintf(file, sizeof(file), "%s", a->pending_save);
			a->mode = MODE_NORMAL;
			a->prompt = PROMPT_NONE;
			if (app_save_force(a, file) == 0 && a->quit_after_save)
				a->quit = true;
			a->quit_after_save = false;
		} else if (key == 'n' || key == 'N' || key == KEY_ESC || key == 'q') {
			a->mode = MODE_NORMAL;
			a->prompt = PROMPT_NONE;
			a->quit_after_save = false;
			app_status(a, false, "not saved");
		}
		return DIRTY_DRAW;
	}
	if (key == 'y' || key == 'Y') {
		a->mode = MODE_NORMAL;
		a->prompt = PROMPT_NONE;
		if (kind == PROMPT_QUIT)
			a->quit = true;
		else if (kind == PROMPT_RECOVER)
			return DIRTY_DRAW | app_restore_recovery(a);
	} else if (key == 'n' || key == 'N' || key == KEY_ESC || key == 'q') {
		a->mode = MODE_NORMAL;
		a->prompt = PROMPT_NONE;
		if (kind == PROMPT_RECOVER && (key == 'n' || key == 'N')) {
			/* the question said so; the status names what went */
			unlink(a->recover_path);
			app_status(a, false, "recovery file deleted, its edits dropped: %s",
				   a->recover_path);
		} else if (kind == PROMPT_RECOVER) {
			/* only a plain no drops the edits; Esc keeps them for the next start */
			app_status(a, false, "recovery file kept: %s", a->recover_path);
		} else {
			a->status[0] = '\0';
		}
	}
	return DIRTY_DRAW;
}

static enum key_ctx prompt_ctx(const struct app *a)
{
	return a->prompt == PROMPT_SAVE_AS ? KC_EDIT
	       : a->prompt == PROMPT_QUIT  ? KC_QUIT
					   : KC_PROMPT;
}

/* Save as is a line typed on the status line; the other questions are answered by a key. */
static const char *prompt_lead(const struct app *a)
{
	return a->prompt == PROMPT_SAVE_AS ? "save as: " : NULL;
}

const struct view_ops prompt_view = {
    .name = "prompt",
    .pane = -1,
    .ctx = KC_PROMPT,
    .key_ctx = prompt_ctx,
    .key = prompt_key,
    .cursor = draw_line_cursor,
    .line = prompt_lead,
};
