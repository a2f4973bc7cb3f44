/* theme.c - colour or monochrome attributes per role, and the UTF-8 or ASCII glyphs. */
#include "theme.h"

#include <langinfo.h>
#include <stdlib.h>
#include <string.h>

struct role_style {
	short fg, bg; /* -1 = the terminal's default */
	attr_t color_attr;
	attr_t mono_attr; /* without colour (NO_COLOR, TERM=vt100) */
};

/* ncdu-style: one table, a colour column and a monochrome column. */
static const struct role_style styles[ROLE_COUNT] = {
    [ROLE_NORMAL] = {-1, -1, A_NORMAL, A_NORMAL},
    [ROLE_TITLE] = {COLOR_BLACK, COLOR_CYAN, A_NORMAL, A_REVERSE},
    [ROLE_TITLE_MARK] = {COLOR_RED, COLOR_CYAN, A_BOLD, A_REVERSE | A_BOLD},
    [ROLE_HEADER] = {COLOR_CYAN, -1, A_BOLD, A_BOLD | A_UNDERLINE},
    [ROLE_HEADER_FOCUS] = {COLOR_BLACK, COLOR_GREEN, A_BOLD, A_REVERSE | A_BOLD},
    [ROLE_LABEL] = {-1, -1, A_NORMAL, A_NORMAL},
    [ROLE_VALUE] = {-1, -1, A_BOLD, A_BOLD},
    [ROLE_CHANGED] = {COLOR_YELLOW, -1, A_BOLD, A_BOLD | A_UNDERLINE},
    [ROLE_SELECTED] = {COLOR_BLACK, COLOR_CYAN, A_NORMAL, A_REVERSE},
    [ROLE_EDIT] = {COLOR_BLACK, COLOR_YELLOW, A_NORMAL, A_UNDERLINE | A_BOLD},
    [ROLE_ERROR] = {COLOR_WHITE, COLOR_RED, A_BOLD, A_REVERSE | A_BOLD},
    [ROLE_WARN] = {COLOR_YELLOW, -1, A_NORMAL, A_BOLD},
    [ROLE_GOOD] = {COLOR_GREEN, -1, A_BOLD, A_BOLD},
    [ROLE_BAD] = {COLOR_RED, -1, A_BOLD, A_BOLD | A_UNDERLINE},
    [ROLE_DIM] = {-1, -1, A_DIM, A_DIM},
    [ROLE_KEY] = {-1, -1, A_BOLD, A_BOLD},
    [ROLE_KEY_TEXT] = {COLOR_BLACK, COLOR_CYAN, A_NORMAL, A_REVERSE},
    [ROLE_MEM_WEIGHTS] = {COLOR_BLUE, -1, A_NORMAL, A_NORMAL},
    [ROLE_MEM_GRADIENTS] = {COLOR_MAGENTA, -1, A_NORMAL, A_NORMAL},
    [ROLE_MEM_OPTIMIZER] = {COLOR_YELLOW, -1, A_NORMAL, A_NORMAL},
    [ROLE_MEM_ACTIVATIONS] = {COLOR_GREEN, -1, A_NORMAL, A_NORMAL},
    [ROLE_MEM_KV_CACHE] = {COLOR_CYAN, -1, A_NORMAL, A_NORMAL},
    [ROLE_MEM_OVERHEAD] = {COLOR_WHITE, -1, A_NORMAL, A_NORMAL},
    [ROLE_MEM_FREE] = {-1, -1, A_DIM, A_DIM},
    [ROLE_BAR] = {COLOR_CYAN, -1, A_NORMAL, A_NORMAL},
    [ROLE_BINDING] = {COLOR_RED, -1, A_BOLD, A_BOLD},
    [ROLE_POPUP] = {-1, -1, A_NORMAL, A_NORMAL},
};

/* The marks both UTF-8 sets share: all but the memory fills. */
#define UTF8_MARKS                                                                                 \
	.over = "\u2503", .bar_full = "\u2588",                                                    \
	.bar_eighth = {"", "\u258f", "\u258e", "\u258d", "\u258c", "\u258b", "\u258a", "\u2589"},  \
	.bar_empty = " ", .up = "\u25b2", .down = "\u25bc", .binding = "\u25c0", .sep = "\u2502",  \
	.ok = "\u2714", .bad = "\u2718", .unsaved = "\u25cf", .ellipsis = "\u2026",                \
	.more_up = "\u25b4", .more_down = "\u25be", .plusminus = "\u00b1"

/* In colour every part is a solid block in its own colour; without colour the parts need
 * distinct fills (shades in UTF-8, letters in ASCII). */
static const struct glyphs glyphs_utf8_color = {
    .mem_part = {"\u2588", "\u2588", "\u2588", "\u2588", "\u2588", "\u2588"},
    .mem_free = "\u2591",
    UTF8_MARKS,
};

const struct glyphs theme_glyphs_utf8 = {
    .mem_part = {"\u2588", "\u2593", "\u2592", "\u2591", "\u259a", "\u2580"},
    .mem_free = "\u00b7",
    UTF8_MARKS,
};

const struct glyphs theme_glyphs_ascii = {
    .mem_part = {"W", "G", "O", "A", "K", "+"},
    .mem_free = ".",
    .over = "|",
    .bar_full = "#",
    .bar_eighth = {"", "", "", "", "=", "=", "=", "="},
    .bar_empty = " ",
    .up = "^",
    .down = "v",
    .binding = "<",
    .sep = "|",
    .ok = "ok",
    .bad = "!!",
    .unsaved = "*",
    .ellipsis = "~",
    .more_up = "^",
    .more_down = "v",
    .plusminus = "+-",
};

bool theme_env_no_color(void)
{
	const char *v = getenv("NO_COLOR");
	return v && v[0];
}

bool theme_locale_utf8(void)
{
	const char *cs = nl_langinfo(CODESET);
	return cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
}

void theme_init(struct theme *t, bool utf8, bool no_color, bool ascii)
{
	memset(t, 0, sizeof(*t));
	t->utf8 = utf8 && !ascii;
	t->color = !no_color && has_colors();
	if (t->color) {
		start_color();
		use_default_colors();
		if (COLORS < 8 || COLOR_PAIRS < ROLE_COUNT)
			t->color = false;
	}
	for (int r = 0; r < ROLE_COUNT; r++) {
		if (t->color) {
			init_pair((short)(r + 1), styles[r].fg, styles[r].bg);
			t->attr[r] = COLOR_PAIR(r + 1) | styles[r].color_attr;
		} else {
			t->attr[r] = styles[r].mono_attr;
		}
	}
	if (!t->utf8)
		t->g = &theme_glyphs_ascii;
	else
		t->g = t->color ? &glyphs_utf8_color : &theme_glyphs_utf8;
}
