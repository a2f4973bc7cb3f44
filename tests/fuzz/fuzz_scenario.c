/* fuzz_scenario.c - the scenario loader on arbitrary bytes.
 *
 * Parses the bytes as a scenario file against a small built-in catalog (no files read),
 * and where that succeeds checks the saving contract: the saved form loads back to the same
 * fields and saves to the same bytes. Anything else than a clean error is a crash.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "catalog.h"
#include "fuzz_common.h"
#include "scenario.h"
#include "scenario_yaml.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct catalog *cat = fuzz_builtin_catalog();
	struct scenario *s = malloc(sizeof(*s)), *back = malloc(sizeof(*back));
	struct scenario_source *src = malloc(sizeof(*src));
	struct gp_problems *p = malloc(sizeof(*p));
	struct gp_error err;
	char *one = NULL, *two = NULL;
	size_t n1, n2;

	if (!s || !back || !src || !p)
		abort();
	gp_problems_init(p);
	if (scenario_parse((const char *)data, size, "fuzz.yaml", cat, s, src, p, &err) != 0) {
		if (p->count == 0)
			abort(); /* a failure must say why */
	} else if (!s->model.hf_config[0]) {
		/* (a model read from a config file would need that file to save and reload) */
		if (p->count != 0)
			abort();
		scenario_validate(s, src, p);
		if (scenario_format_yaml(s, cat, &one, &n1, &err) != 0)
			abort();
		if (scenario_parse(one, n1, "fuzz.yaml", cat, back, NULL, NULL, &err) != 0)
			abort();
		for (const struct field *f = scenario_fields; f->key; f++)
			if (!scenario_field_equal(s, back, f))
				abort();
		if (scenario_format_yaml(back, cat, &two, &n2, &err) != 0)
			abort();
		if (n1 != n2 || memcmp(one, two, n1) != 0)
			abort();
	}
	free(one);
	free(two);
	free(s);
	free(back);
	free(src);
	free(p);
	return 0;
}
