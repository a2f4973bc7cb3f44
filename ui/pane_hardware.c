/* pane_hardware.c - the Hardware pane: the GPU (a picker showing memory, bandwidth, bf16
 * FLOP/s and price), its key figures (the peak at the plan's precision), then count, node
 * size, network, storage, price, as the field table orders them. */
#include "app.h"

#include <stdio.h>

#include "dtype.h"

enum { INFO_GPU };

void pane_hardware_rows(const struct app *a, struct pane_rows *out)
{
	/* below the GPU picker: the figures it gives */
	pane_rows_picker(a, out, FIELD_PANE_HARDWARE, "", INFO_GPU);
}

/* "80 GiB  3.35 TB/s  989 TF  $2.5/h": g's memory, bandwidth and price, with a peak of
 * peak FLOP/s, its precision named after it when not bf16 ("" for bf16). */
static void gpu_line(const struct gpu *g, double peak, const char *named, char *buf, size_t size)
{
	char mem[24], bw[24], tf[24], price[24];

	units_format_human(UNIT_BYTES, g->memory_bytes, 3, mem, sizeof(mem));
	units_format_human(UNIT_BYTES_PER_S, g->hbm_bytes_per_s, 3, bw, sizeof(bw));
	if (peak > 0)
		units_format_tflops(peak, tf, sizeof(tf));
	else
		snprintf(tf, sizeof(tf), "- TF");
	units_format_usd_cents(g->price_per_hour, price, sizeof(price));
	snprintf(buf, size, "%s  %s  %s%s%s  %s/h", mem, bw, tf, named[0] ? " " : "", named, price);
}

/* The figures a GPU is chosen by: bf16; a GPU without it (T4, V100) shows its fp16 peak,
 * named, never "0 TF". */
void pane_hardware_gpu_summary(const struct gpu *g, char *buf, size_t size)
{
	if (g->peak_flops[DTYPE_BF16] > 0)
		gpu_line(g, g->peak_flops[DTYPE_BF16], "", buf, size);
	else if (g->peak_flops[DTYPE_FP16] > 0)
		gpu_line(g, g->peak_flops[DTYPE_FP16], "fp16", buf, size);
	else
		gpu_line(g, g->peak_flops[DTYPE_FP32], g->peak_flops[DTYPE_FP32] > 0 ? "fp32" : "",
			 buf, size);
}

void pane_hardware_info(const struct app *a, WINDOW *w, int y, int x, int width, int info)
{
	char buf[128];
	enum dtype t = a->plan.peak_precision;

	if (info != INFO_GPU)
		return;
	/* the peak the plan runs at, as the report's hardware line and the MFU verdict give it
	 * ("733 TF fp8" on an L40S under fp8, not its bf16 366); the GPU's own without a plan */
	if (!a->problems.count && a->plan.peak_flops > 0)
		gpu_line(&a->scn.hardware.gpu, a->plan.peak_flops,
			 t == DTYPE_BF16 ? "" : dtype_name(t), buf, sizeof(buf));
	else
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
