/* view.c - which pane and view instance (view.h's struct view_ops) the state selects. */
#include "view.h"

static const struct view_ops *const panes[PANE_COUNT] = {
    [PANE_MODEL] = &pane_model,
    [PANE_WORKLOAD] = &pane_workload,
    [PANE_HARDWARE] = &pane_hardware,
    [PANE_RESULTS] = &pane_results,
};

/* The view each mode puts on top; MODE_NORMAL's is the view over the body or the pane. */
static const struct view_ops *const mode_views[] = {
    [MODE_NORMAL] = NULL,	    [MODE_EDIT] = &edit_view,	    [MODE_PICK] = &picker_view,
    [MODE_COMMAND] = &command_view, [MODE_PROMPT] = &prompt_view,   [MODE_HELP] = &help_view,
    [MODE_NOTES] = &notes_view,	    [MODE_EXPLAIN] = &explain_view,
};

static const struct view_ops *const body_views[] = {
    [VIEW_NONE] = NULL,
    [VIEW_SEARCH] = &search_view_ops,
    [VIEW_SCALING] = &scaling_view_ops,
    [VIEW_CHART] = &chart_view_ops,
};

const struct view_ops *app_pane(const struct app *a, int p)
{
	(void)a;
	return panes[p];
}

const struct view_ops *app_body_view(const struct app *a)
{
	return body_views[a->view];
}

const struct view_ops *app_view(const struct app *a)
{
	const struct view_ops *v = mode_views[a->mode];

	if (!v)
		v = app_body_view(a);
	return v ? v : app_pane(a, a->focus);
}

bool app_selection_shown(const struct app *a)
{
	return !(app_view(a)->flags & VIEW_HIDES_SELECTION);
}

void view_place_text(struct app *a, struct rect body, int max_w,
		     int (*text_lines)(struct app *a, int width), struct rect *r)
{
	int w = body.w < max_w ? body.w : max_w;
	int h = text_lines(a, w - 4) + 2;

	if (h > body.h)
		h = body.h;
	*r = (struct rect){.y = body.y, .x = (body.w - w) / 2, .h = h, .w = w};
}
