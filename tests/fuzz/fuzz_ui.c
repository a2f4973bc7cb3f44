/* fuzz_ui.c - the terminal UI's key handling with drawing (issue 16): arbitrary bytes as
 * keys to the app's dispatcher (app_handle_key, as tui.c's loop passes them), each followed
 * by the live loop's layout, compute and draw into an off-screen curses terminal (newterm
 * on a temporary file) of a size the input chooses and changes. A crash, a sanitizer report
 * or a hang is the failure.
 *
 * Input: three bytes of set-up (rows, columns; ASCII glyphs, NO_COLOR and the scenario),
 * then one key a byte: 0x00-0x7f the character (Enter, Esc, Tab, ^R and ^S are control
 * bytes), 0x80-0x9f a function key or a wide character (keys[] below; 0x8f takes the next
 * two bytes as a new size), 0xa0-0xff that Latin-1 code point.
 *
 * Files: whatever the keys write (:w NAME, ^S, save-as, a recovery file) stays in a
 * temporary folder. The process works in it while an input runs, HOME and XDG_STATE_HOME
 * point into it, and a '/' or '~' on the line being typed becomes '_' after each key, so
 * no name typed, pasted or completed can reach another folder or /dev. The folder is
 * emptied after each input and removed at exit.
 */
#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700 /* nftw */
#endif
#include <fcntl.h>
#include <ftw.h>
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app.h"
#include "cli.h"
#include "fuzz_common.h"
#include "scenario_yaml.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An input stops after MAX_KEYS keys, or once its searches have evaluated MAX_LAYOUTS
 * layouts: a search over the catalog's GPUs is about 124,000 (45 ms; under the sanitizers
 * and coverage of `make fuzz` nearly 2 s, so tests/fuzz/run.sh gives this target a longer
 * timeout), one on the scenario's hardware a few thousand, and the scaling view's eight
 * counts are taken as SCALING_LAYOUTS. */
enum { MAX_KEYS = 400, MAX_LAYOUTS = 130000, SCALING_LAYOUTS = 40000 };

/* 0x80-0x9f: function keys and characters wider than a byte; 0x8f is a resize. */
static const int keys[32] = {
    KEYF(KEY_UP),
    KEYF(KEY_DOWN),
    KEYF(KEY_LEFT),
    KEYF(KEY_RIGHT),
    KEYF(KEY_NPAGE),
    KEYF(KEY_PPAGE),
    KEYF(KEY_HOME),
    KEYF(KEY_END),
    KEYF(KEY_BACKSPACE),
    KEYF(KEY_DC),
    KEYF(KEY_ENTER),
    KEYF(KEY_BTAB),
    KEYF(KEY_F(1)),
    KEYF(KEY_F(2)),
    KEYF(KEY_F(10)),
    0 /* resize */,
    0x7f,
    0xe9 /* é */,
    0x4e2d /* 中 */,
    0x1f600 /* emoji */,
    0x300 /* a combining accent */,
    0x200b /* zero width space */,
    0xfeff,
    0x10ffff,
    0xd800 /* a lone surrogate */,
    0x110000 /* past Unicode */,
    KEYF(KEY_F(3)),
    KEYF(KEY_IC),
    KEYF(KEY_SLEFT),
    KEYF(KEY_SRIGHT),
    KEYF(KEY_MOUSE),
    KEYF(KEY_RESIZE),
};

static const char *const shipped[] = {
    NULL, /* the built-in scenario, no file */
    "scenarios/default.yaml",
    "scenarios/team-serve-70b-5m-requests.yaml",
    "scenarios/team-lora-70b-8xa100.yaml",
    "scenarios/workshop/07-mixture-of-experts.yaml",
    "scenarios/seed-12-70b-full-training-8xh100.yaml",
    "scenarios/team-offline-scoring.yaml",
    "scenarios/workshop/04-kv-cache-and-batch.yaml",
};
#define NSHIPPED (sizeof(shipped) / sizeof(shipped[0]))

static struct app app;
static const struct catalog *cat;
static struct scenario *scenarios[NSHIPPED];
static char folder[256];
static int top_fd = -1;

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	if (ftw->level > 0 || !folder[0] || strcmp(path, folder) != 0)
		remove(path);
	return 0;
}

/* Everything below the folder (the folder itself stays). */
static void empty_folder(void)
{
	nftw(folder, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void remove_folder(void)
{
	empty_folder();
	rmdir(folder);
}

static void setup_once(void)
{
	const char *tmp = getenv("TMPDIR");
	char state[sizeof(folder) + 16];
	struct gp_error err;
	FILE *out, *in;
	SCREEN *scr;
	static const char *const terms[] = {"xterm-256color", "xterm", "vt100"};

	setlocale(LC_CTYPE, "C.UTF-8");
	cat = fuzz_shipped_catalog();
	/* the scenarios are read now, from the top of the tree (the folder is the input's) */
	for (size_t i = 0; i < NSHIPPED; i++) {
		scenarios[i] = malloc(sizeof(*scenarios[i]));
		if (!scenarios[i])
			abort();
		if (shipped[i] ? scenario_load_file(shipped[i], cat, scenarios[i], NULL, NULL, &err)
			       : scenario_init_builtin(scenarios[i], cat, &err))
			scenario_init_builtin(scenarios[i], cat, &err); /* no tree: the built-in */
	}
	snprintf(folder, sizeof(folder), "%s/gpuplan-fuzz-ui-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
	if (!mkdtemp(folder))
		abort();
	atexit(remove_folder);
	snprintf(state, sizeof(state), "%s/state", folder);
	setenv("HOME", folder, 1);
	setenv("XDG_STATE_HOME", state, 1);
	top_fd = open(".", O_RDONLY | O_DIRECTORY);
	if (top_fd < 0)
		abort();
	/* the screen: a temporary file, never a terminal or a device */
	out = tmpfile();
	in = tmpfile();
	if (!out || !in)
		abort();
	scr = NULL;
	for (size_t i = 0; !scr && i < sizeof(terms) / sizeof(terms[0]); i++)
		scr = newterm(terms[i], out, in);
	if (!scr) {
		fprintf(stderr, "fuzz_ui: no terminfo entry for xterm-256color, xterm or vt100\n");
		abort();
	}
}

/* A '/' or '~' on the line being typed becomes '_': every name stays in the folder. */
static void keep_names_here(void)
{
	char *buf = app.line.buf;

	if (!strpbrk(buf, "/~"))
		return;
	for (char *c = buf; *c; c++)
		if (*c == '/' || *c == '~')
			*c = '_';
}

static void resize(int rows, int cols)
{
	resizeterm(rows, cols);
	app.dirty |= DIRTY_LAYOUT | DIRTY_DRAW;
}

/* The live loop after a key (tui.c): the layout when the size changed, the compute, the
 * draw. */
static void settle(void)
{
	if (app.dirty & DIRTY_LAYOUT)
		app_screen_layout(&app);
	app_compute(&app);
	if (app.dirty & DIRTY_DRAW)
		app_draw(&app);
}

/* The layouts the searches run since the last call have evaluated (search_view.c runs one
 * at most per compute). */
static long searched(unsigned long *runs)
{
	long n = 0;

	if (app.sv.runs != *runs)
		n = app.view == VIEW_SCALING ? SCALING_LAYOUTS : app.sv.stats.evaluated;
	*runs = app.sv.runs;
	return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct scenario *s;
	struct gp_error err;
	unsigned flags;
	unsigned long runs = 0;
	long layouts = 0;
	size_t i, n = 0;

	if (!cat)
		setup_once();
	if (size < 3)
		return 0;
	if (chdir(folder) != 0)
		abort();
	s = scenarios[(data[2] >> 2) % NSHIPPED];
	flags = data[2] & 1 ? CLI_UI_ASCII : 0;
	if (data[2] & 2)
		setenv("NO_COLOR", "1", 1);
	else
		unsetenv("NO_COLOR");
	/* a scenario from a file is this folder's fuzz.yaml: :w, :e and :next work on it */
	if (s != scenarios[0] && scenario_save_file(s, cat, "fuzz.yaml", &err) != 0)
		abort();
	app_init(&app, cat, s, s != scenarios[0] ? "fuzz.yaml" : NULL, flags);
	resizeterm(4 + data[0] % 64, 8 + data[1] % 200);
	app_screen_start(&app);
	settle();
	for (i = 3; i < size && n < MAX_KEYS && !app.quit && layouts < MAX_LAYOUTS; i++, n++) {
		uint8_t b = data[i];
		int key = b < 0x80 ? b : b >= 0xa0 ? b : keys[b - 0x80];

		if (b == 0x8f) {
			if (i + 2 >= size)
				break;
			resize(1 + data[i + 1] % 80, 1 + data[i + 2] % 240);
			i += 2;
		} else if (key == KEYF(KEY_RESIZE)) {
			app.dirty |= DIRTY_LAYOUT | DIRTY_DRAW;
		} else if (!app.lay.too_small || draw_question_asked(&app) ||
			   (key == 'q' && app.mode == MODE_NORMAL)) {
			/* as tui.c's handle: on the too-small screen only q and its question */
			app_handle_key(&app, key);
			keep_names_here();
		}
		settle();
		layouts += searched(&runs);
	}
	app_screen_stop(&app);
	empty_folder();
	if (fchdir(top_fd) != 0)
		abort();
	return 0;
}
