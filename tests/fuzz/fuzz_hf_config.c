/* fuzz_hf_config.c - fuzz target: the Hugging Face config importer on arbitrary bytes. */
#include <stddef.h>
#include <stdint.h>

#include "hf_config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct model m;
	struct model_params c;
	struct gp_error err;
	struct hf_config_info info;

	if (hf_config_parse_info((const char *)data, size, "fuzz.json", &m, &info, &err) == 0) {
		struct model r;
		bool assumed;
		model_resolve(&m, &r, &assumed);
		model_count_params(&r, &c);
	}
	return 0;
}
