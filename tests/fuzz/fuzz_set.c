/* fuzz_set.c - fuzz target: --set KEY=VALUE assignments (and so every field parser and the unit
 * parser) on arbitrary bytes; a scenario that accepts one must still plan to finite figures. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "plan.h"
#include "scenario.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct scenario s;
	static struct plan p;
	char line[512];
	struct gp_error err;
	size_t start = 0;

	scenario_init(&s);
	/* a small valid model and GPU, so the plan has something to chew on */
	s.model.layers = 4;
	s.model.hidden = 256;
	s.model.heads = 4;
	s.model.ffn = 1024;
	s.model.vocab = 1000;
	strcpy(s.hardware.gpu.id, "fuzz");
	s.hardware.gpu.memory_bytes = 80e9;
	s.hardware.gpu.hbm_bytes_per_s = 2e12;
	s.hardware.gpu.peak_flops[DTYPE_BF16] = 300e12;
	s.hardware.gpu.link_bytes_per_s = 600e9;
	s.hardware.gpu.network_bytes_per_s = 25e9;
	s.hardware.gpu.pcie_bytes_per_s = 32e9;
	s.hardware.gpu.power_w = 400;
	/* one assignment per line */
	for (size_t i = 0; i <= size; i++) {
		if (i < size && data[i] != '\n')
			continue;
		size_t n = i - start;
		if (n >= sizeof(line))
			n = sizeof(line) - 1;
		memcpy(line, data + start, n);
		line[n] = '\0';
		start = i + 1;
		if (memchr(line, '\0', n))
			continue;
		/* presets need a catalog; the fuzzer covers the rest of the table */
		if (!strncmp(line, "model.preset", 12) || !strncmp(line, "hardware.gpu", 12) ||
		    !strncmp(line, "model.hf_config", 15))
			continue;
		scenario_set_assignment(&s, NULL, line, &err);
	}
	struct gp_problems probs;
	gp_problems_init(&probs);
	scenario_validate(&s, NULL, &probs);
	if (probs.count == 0) {
		plan_compute(&s, &p);
		if (isinf(p.mem.total) || isnan(p.mem.total))
			__builtin_trap(); /* a valid scenario always plans to finite memory */
	}
	return 0;
}
