/* pane_model.c - the Model pane: the preset (a picker over the catalog's models), the
 * parameter count, then the architecture fields. */
#include "app.h"

#include <stdio.h>

enum { INFO_PARAMS };

void pane_model_rows(const struct app *a, struct pane_rows *out)
{
	const struct model *m = &a->scn.model;

	out->n = 0;
	pane_rows_add(a, out, "model.preset", "preset");
	pane_rows_other(out, ROW_INFO, "parameters", INFO_PARAMS);
	pane_rows_add(a, out, "model.layers", "layers");
	pane_rows_add(a, out, "model.hidden", "hidden");
	pane_rows_add(a, out, "model.heads", "heads");
	pane_rows_add(a, out, "model.kv_heads", "kv heads");
	pane_rows_add(a, out, "model.head_dim", "head dim");
	pane_rows_add(a, out, "model.ffn", "ffn");
	pane_rows_add(a, out, "model.vocab", "vocab");
	pane_rows_add(a, out, "model.max_context", "max context");
	pane_rows_add(a, out, "model.mlp", "mlp");
	pane_rows_add(a, out, "model.norm", "norm");
	pane_rows_add(a, out, "model.tied_embeddings", "tied embed");
	pane_rows_add(a, out, "model.moe.experts", "experts");
	if (m->moe.experts) {
		pane_rows_add(a, out, "model.moe.active", "active experts");
		pane_rows_add(a, out, "model.moe.shared", "shared experts");
		pane_rows_add(a, out, "model.moe.expert_ffn", "expert ffn");
	}
	if (m->mla.kv_rank) {
		pane_rows_add(a, out, "model.mla.q_rank", "mla q rank");
		pane_rows_add(a, out, "model.mla.kv_rank", "mla kv rank");
	}
	pane_rows_add(a, out, "model.params", "params (size)");
	pane_rows_add(a, out, "model.hf_config", "hf config");
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
