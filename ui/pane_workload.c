/* pane_workload.c - the Workload pane: the kind, then only the fields that apply to it
 * (the field table's applies bits), LoRA fields, the parallel layout and the efficiency
 * overrides, as the field table orders and labels them. */
#include "app.h"

#include <string.h>

/* The heading over the rows of a section after the first. */
static const struct {
	const char *section, *heading;
} headings[] = {
    {"parallel.", "parallel layout"},
    {"efficiency.", "efficiency"},
};

void pane_workload_rows(const struct app *a, struct pane_rows *out)
{
	const struct field *prev = NULL;

	out->n = 0;
	for (const struct field *f = NULL; (f = scenario_pane_next(FIELD_PANE_WORKLOAD, f));
	     prev = f) {
		for (size_t i = 0; i < sizeof(headings) / sizeof(headings[0]); i++) {
			size_t n = strlen(headings[i].section);
			if (strncmp(f->key, headings[i].section, n) == 0 &&
			    (!prev || strncmp(prev->key, headings[i].section, n) != 0))
				pane_rows_other(out, ROW_HEADING, headings[i].heading, 0);
		}
		if (scenario_field_shown(&a->scn, f))
			pane_rows_add(a, out, f->key, f->label);
	}
}

const struct view_ops pane_workload = {
    .name = "workload",
    .pane = PANE_WORKLOAD,
    .title = "Workload",
    PANE_INPUT_OPS,
    .rows = pane_workload_rows,
};
