/* pane_hardware.c - the Hardware pane: the GPU (a picker showing memory, bandwidth, bf16
 * FLOP/s and price), its key figures, then count, node size, network, storage, price, as
 * the field table orders them. */
#include "app.h"

#include <stdio.h>

enum { INFO_GPU };

void pane_hardware_rows(const struct app *a, struct pane_rows *out)
{
	/* below the GPU picker: the figures it gives */
	pane_rows_picker(a, out, FIELD_PANE_HARDWARE, "", INFO_GPU);
}

/* "80 GiB  3.35 TB/s  989 TF  $2.5/h": the figures a GPU is chosen by. */
void pane_hardware_gpu_summary(const struct gpu *g, char *buf, size_t size)
{
	char mem[24], bw[24], tf[24], price[24];
	const char *named = "";

	units_format_human(UNIT_BYTES, g->memory_bytes, 3, mem, sizeof(mem));
	units_format_human(UNIT_BYTES_PER_S, g->hbm_bytes_per_s, 3, bw, sizeof(bw));
	/* bf16; a GPU without it (T4, V100) shows its fp16 peak, named, never "0 TF" */
	if (g->peak_flops[DTYPE_BF16] > 0) {
		units_format_tflops(g->peak_flops[DTYPE_BF16], tf, sizeof(tf));
	} else if (g->peak_flops[DTYPE_FP16] > 0) {
		units_format_tflops(g->peak_flops[DTYPE_FP16], tf, sizeof(tf));
		named = " fp16";
	} else if (g->peak_flops[DTYPE_FP32] > 0) {
		units_format_tflops(g->peak_flops[DTYPE_FP32], tf, sizeof(tf));
		named = " fp32";
	} else {
		snprintf(tf, sizeof(tf), "- TF");
	}
	units_format_usd_cents(g->price_per_hour, price, sizeof(price));
	snprintf(buf, size, "%s  %s  %s%s  %s/h", mem, bw, tf, named, price);
}

void pane_hardware_info(const struct app *a, WINDOW *w, int y, int x, int width, int info)
{
	char buf[128];

	if (info != INFO_GPU)
		return;
	pane_hardware_gpu_summary(&a->scn.hardware.gpu, buf, sizeof(buf));
	if (text_width(buf) > width + x - 1) {
		/* a narrow pane: one space between the figures, then an ellipsis if need be */
		char *o = buf;
		for (const char *p = buf; *p; p++)
			if (!(p[0] == ' ' && p[1] == ' '))
				*o++ = *p;
		*o = '\0';
	}
	/* the info line has no label: use its room */
	draw_text_clip((struct app *)a, w, y, 1, width + x - 1, ROLE_DIM, buf);
}

const struct view_ops pane_hardware = {
    .name = "hardware",
    .pane = PANE_HARDWARE,
    .title = "Hardware",
    PANE_INPUT_OPS,
    .rows = pane_hardware_rows,
    .info = pane_hardware_info,
};
