/* import.h - `gpuplan import --scenario`: a Hugging Face config's model: block wrapped into
 * a whole scenario that `gpuplan check` accepts (gpuplan(1), import).
 */
#ifndef GPUPLAN_IMPORT_H
#define GPUPLAN_IMPORT_H

#include <stddef.h>

#include "model.h"
#include "report.h"

/* Appends to b the scenario: a comment naming source (the config read), the model block
 * model_yaml (len bytes, as scenario_format_model_yaml writes it), then a default workload
 * and hardware, each under a comment saying to edit it; the workload's weight formats are
 * the checkpoint's, q (from its quantization_config; NULL or unset: bf16). */
void import_scenario(struct report_buf *b, const char *source, const char *model_yaml, size_t len,
		     const struct model_quant *q);

#endif
