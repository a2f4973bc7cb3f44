/* fuzz_catalog.c - the catalog's gpus.yaml reader on arbitrary bytes.
 *
 * A catalog that loads must hold only entries with an id, memory and memory bandwidth, and
 * finite, non-negative figures; one that does not must say where.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "catalog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct catalog *cat = catalog_new();
	struct gp_error err;

	if (!cat)
		abort();
	err.message[0] = '\0';
	if (catalog_parse_gpus(cat, (const char *)data, size, "gpus.yaml", &err) == 0) {
		for (int i = 0; i < cat->ngpus; i++) {
			const struct gpu *g = &cat->gpus[i];
			if (!g->id[0] || !(g->memory_bytes > 0) || !(g->hbm_bytes_per_s > 0))
				abort();
			for (int d = 0; d < DTYPE_COUNT; d++)
				if (!isfinite(g->peak_flops[d]) || g->peak_flops[d] < 0)
					abort();
			if (catalog_find_gpu(cat, g->id) != g)
				abort();
		}
	} else if (!err.message[0] || err.code != GP_EINPUT) {
		abort();
	}
	catalog_free(cat);
	return 0;
}
