/* pane_model.c - the Model pane: the preset (a picker over the catalog's models), the
 * parameter count, then the architecture fields, as the field table orders them. */
#include "app.h"

#include <stdio.h>

enum { INFO_PARAMS };

void pane_model_rows(const struct app *a, struct pane_rows *out)
{
	/* below the preset picker: the parameter count it gives */
	pane_rows_picker(a, out, FIELD_PANE_MODEL, "parameters", INFO_PARAMS);
}

void pane_model_info(const struct app *a, WINDOW *w, int y, int x, int width, int info)
{
	char total[32], active[32];

	if (info != INFO_PARAMS)
		return;
	units_format_human(UNIT_COUNT, a->plan.params, 3, total, sizeof(total));
	units_format_human(UNIT_COUNT, a->plan.active_params, 3, active, sizeof(active));
	if (a->plan.active_params < a->plan.params)
		draw_textf((struct app *)a, w, y, x, width, ROLE_VALUE, "%s, %s active", total,
			   active);
	else
		draw_textf((struct app *)a, w, y, x, width, ROLE_VALUE, "%s%s", total,
			   a->plan.shape_assumed ? " (shape assumed)" : "");
}

const struct view_ops pane_model = {
    .name = "model",
    .pane = PANE_MODEL,
    .title = "Model",
    PANE_INPUT_OPS,
    .rows = pane_model_rows,
    .info = pane_model_info,
};
