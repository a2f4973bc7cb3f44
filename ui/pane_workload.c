/* pane_workload.c - the Workload pane: the kind, then only the fields that apply to it
 * (the field table's applies bits), LoRA fields, the parallel layout and the efficiency
 * overrides. */
#include "app.h"

void pane_workload_rows(const struct app *a, struct pane_rows *out)
{
	const struct workload *wl = &a->scn.workload;

	out->n = 0;
	pane_rows_add(a, out, "workload.kind", "kind");
	pane_rows_add(a, out, "workload.precision", "precision");
	/* training and fine-tuning */
	pane_rows_add(a, out, "workload.seq_len", "seq len");
	pane_rows_add(a, out, "workload.micro_batch", "micro batch");
	pane_rows_add(a, out, "workload.global_batch", "global batch");
	pane_rows_add(a, out, "workload.finetune.method", "method");
	if (wl->kind == WL_FINETUNE && wl->finetune.method != FT_FULL) {
		pane_rows_add(a, out, "workload.finetune.rank", "lora rank");
		pane_rows_add(a, out, "workload.finetune.targets", "lora targets");
		pane_rows_add(a, out, "workload.finetune.base_weights", "base weights");
	}
	pane_rows_add(a, out, "workload.optimizer", "optimizer");
	pane_rows_add(a, out, "workload.grad_dtype", "grad dtype");
	pane_rows_add(a, out, "workload.recompute", "recompute");
	/* inference */
	pane_rows_add(a, out, "workload.prompt_tokens", "prompt tokens");
	pane_rows_add(a, out, "workload.output_tokens", "output tokens");
	pane_rows_add(a, out, "workload.batch", "batch");
	pane_rows_add(a, out, "workload.weights", "weights");
	pane_rows_add(a, out, "workload.kv_cache", "kv cache");
	pane_rows_add(a, out, "workload.engine", "engine");
	pane_rows_add(a, out, "workload.requests_per_day", "requests/day");
	pane_rows_add(a, out, "workload.peak_factor", "peak factor");
	pane_rows_add(a, out, "workload.slo.ttft", "slo ttft");
	pane_rows_add(a, out, "workload.slo.tpot", "slo tpot");
	/* both */
	pane_rows_add(a, out, "workload.tokens", "tokens");
	pane_rows_add(a, out, "workload.deadline", "deadline");
	pane_rows_add(a, out, "workload.flash_attention", "flash attn");
	pane_rows_add(a, out, "workload.measured_tokens_per_s", "measured tok/s");

	pane_rows_other(out, ROW_HEADING, "parallel layout", 0);
	pane_rows_add(a, out, "parallel.tp", "tp");
	pane_rows_add(a, out, "parallel.pp", "pp");
	pane_rows_add(a, out, "parallel.dp", "dp");
	pane_rows_add(a, out, "parallel.ep", "ep");
	pane_rows_add(a, out, "parallel.ep_overlap", "ep overlap");
	pane_rows_add(a, out, "parallel.zero", "zero");
	pane_rows_add(a, out, "parallel.sequence_parallel", "seq parallel");
	pane_rows_add(a, out, "parallel.virtual_stages", "virtual stages");
	pane_rows_add(a, out, "parallel.offload", "offload");

	pane_rows_other(out, ROW_HEADING, "efficiency", 0);
	pane_rows_add(a, out, "efficiency.mfu", "mfu");
	pane_rows_add(a, out, "efficiency.hbm", "hbm");
	pane_rows_add(a, out, "efficiency.network", "network");
}
