/* theme.h - colours by role, with a monochrome column, and the glyph tables (UTF-8 and their
 * ASCII twins).
 *
 * Colour is used when the terminal has it and NO_COLOR is unset or empty (no-color.org);
 * otherwise each role falls back to attributes (bold, reverse, underline, dim). Glyphs are
 * UTF-8 only when the locale's character set is UTF-8 and --ascii was not given.
 */
#ifndef GPUPLAN_UI_THEME_H
#define GPUPLAN_UI_THEME_H

#include <stdbool.h>

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#include <curses.h>

enum role {
	ROLE_NORMAL,
	ROLE_TITLE,	 /* the title line */
	ROLE_TITLE_MARK, /* the unsaved-edits mark */
	ROLE_HEADER,	 /* a pane's header line */
	ROLE_HEADER_FOCUS,
	ROLE_LABEL,
	ROLE_VALUE,
	ROLE_CHANGED,  /* a value that differs from the saved scenario */
	ROLE_SELECTED, /* the selected row */
	ROLE_EDIT,     /* a field being typed */
	ROLE_ERROR,    /* a field that does not read; an error message */
	ROLE_WARN,
	ROLE_GOOD,	  /* fits; better than the baseline */
	ROLE_BAD,	  /* does not fit; worse than the baseline */
	ROLE_DIM,	  /* secondary text */
	ROLE_KEY,	  /* a key in the legend */
	ROLE_KEY_TEXT,	  /* its meaning */
	ROLE_MEM_WEIGHTS, /* the memory bar's parts, in this order */
	ROLE_MEM_GRADIENTS,
	ROLE_MEM_OPTIMIZER,
	ROLE_MEM_ACTIVATIONS,
	ROLE_MEM_KV_CACHE,
	ROLE_MEM_OVERHEAD,
	ROLE_MEM_FREE,
	ROLE_BAR,     /* a bottleneck bar */
	ROLE_BINDING, /* the binding bottleneck */
	ROLE_POPUP,   /* help, picker and explanation windows */
	ROLE_COUNT
};

#define MEM_PARTS 6

struct glyphs {
	const char *mem_part[MEM_PARTS]; /* the fill of each memory part */
	const char *mem_free;		 /* capacity not used */
	const char *over;		 /* the capacity mark on an over-full bar */
	const char *bar_full;
	const char *bar_eighth[8]; /* [0] unused; 1..7 eighths of a cell */
	const char *bar_empty;
	const char *up, *down; /* change against the baseline */
	const char *binding;   /* marks the binding bottleneck */
	const char *sep;       /* the column separator */
	const char *ok, *bad;  /* fit verdict */
	const char *unsaved;   /* the title's unsaved-edits mark */
	const char *ellipsis;
	const char *more_up, *more_down; /* a pane has rows above/below */
	const char *plusminus;		 /* before a figure's error band: "±5%" */
};

struct theme {
	bool color;
	bool utf8;
	attr_t attr[ROLE_COUNT];
	const struct glyphs *g;
};

/* Decides colour and glyphs; call after initscr (colour needs the terminal). no_color is
 * whether NO_COLOR asked for none; ascii forces the ASCII twins. */
void theme_init(struct theme *t, bool utf8, bool no_color, bool ascii);

/* Whether NO_COLOR is set to a non-empty value. */
bool theme_env_no_color(void);

/* Whether the LC_CTYPE locale's character set is UTF-8 (call after setlocale). */
bool theme_locale_utf8(void);

/* The glyph tables themselves (for tests). */
extern const struct glyphs theme_glyphs_utf8, theme_glyphs_ascii;

#endif
