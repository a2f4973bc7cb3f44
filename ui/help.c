/* help.c - the help screen (F1, ?, :help). */
#include "app.h"

static const char *const help_text[] = {
    "gpuplan: what a model, a workload and a cluster need, live as you type",
    "",
    "Moving",
    "  Tab / Shift-Tab     next / previous pane (1-4 jump to one)",
    "  Up/Down, j/k        previous / next field;  PgUp/PgDn, g/G",
    "Editing",
    "  Enter               type a value (units as in files: 80GB, 400Gb/s, 7B, 5d);",
    "                      results follow while it reads; Enter applies, Esc cancels",
    "  Enter on a preset   the picker: type to filter, Up/Down, Enter takes, Esc cancels",
    "  + / -               step: doubles or halves counts and batches",
    "  Left/Right, h/l     cycle a choice (kind, precision, gpu, model); step a number",
    "  u / Ctrl-R          undo / redo",
    "  b                   pin the baseline: results show their change against it",
    "  e (Enter on Results) explain the selected figure or field",
    "Commands",
    "  :set KEY=VALUE      set a field by its path, e.g. :set hardware.count=16",
    "  :w [FILE]           save (asks for a name when there is none); F2 saves too",
    "  :e FILE             open another scenario (:e! drops unsaved edits)",
    "  :q  :q!  :wq        quit (asks when there are unsaved edits), quit anyway, save+quit",
    "  :help               this screen;  Tab completes a key after :set, Up/Down recall",
    "Screen",
    "  Ctrl-L redraws;  q or F10 quits;  the title's mark says there are unsaved edits.",
    "  NO_COLOR=1 for no colour, --ascii (or a non-UTF-8 locale) for ASCII drawing.",
    "  A dropped connection (SIGHUP) saves unsaved edits to a recovery file that the",
    "  next start offers to restore.",
    NULL,
};

int help_lines(void)
{
	int n = 0;
	while (help_text[n])
		n++;
	return n;
}

void help_draw(struct app *a, WINDOW *w)
{
	int height = getmaxy(w), width = getmaxx(w), n = help_lines();

	draw_frame(a, w, "Help (any key closes)");
	for (int i = 0; i + 2 < height && a->help_top + i < n; i++) {
		const char *line = help_text[a->help_top + i];
		bool heading = line[0] && line[0] != ' ';
		draw_text(a, w, i + 1, 2, width - 4, heading ? ROLE_HEADER : ROLE_NORMAL, line);
	}
	wnoutrefresh(w);
}
