/* fuzz_setsave.c - --set, then save and reload (issue 16, D6): assignments on arbitrary
 * bytes applied to the built-in scenario as `gpuplan --set` applies them (presets against
 * the shipped catalog first, scenario_apply_sets). When the result validates, it must be
 * saveable: its YAML loads back to the same fields and saves to the same bytes, and its JSON
 * report is valid UTF-8. An accepted value that cannot be saved is a crash.
 *
 * One assignment a line; model.hf_config is left out (it would read files).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "plan.h"
#include "report_json.h"
#include "scenario.h"
#include "scenario_sets.h"
#include "scenario_yaml.h"
#include "text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_LINES 32

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct catalog *cat = fuzz_shipped_catalog();
	struct scenario *s = malloc(sizeof(*s)), *back = malloc(sizeof(*back));
	struct plan *p = malloc(sizeof(*p));
	struct gp_problems *probs = malloc(sizeof(*probs));
	static char lines[MAX_LINES][512];
	const char *sets[MAX_LINES];
	struct gp_error err;
	char *one = NULL, *two = NULL, *json = NULL;
	size_t n1, n2, start = 0;
	int n = 0, bad;

	if (!s || !back || !p || !probs)
		abort();
	if (scenario_init_builtin(s, cat, &err) != 0)
		abort();
	for (size_t i = 0; i <= size && n < MAX_LINES; i++) {
		size_t len;
		if (i < size && data[i] != '\n')
			continue;
		len = i - start < sizeof(lines[0]) ? i - start : sizeof(lines[0]) - 1;
		memcpy(lines[n], data + start, len);
		lines[n][len] = '\0';
		start = i + 1;
		if (strlen(lines[n]) != len || strncmp(lines[n], "model.hf_config", 15) == 0)
			continue;
		sets[n] = lines[n];
		n++;
	}
	gp_problems_init(probs);
	if (scenario_apply_sets(s, cat, sets, n, NULL, &bad, &err) == 0) {
		scenario_validate(s, NULL, probs);
		if (probs->count == 0) {
			struct cJSON *j = NULL;
			if (scenario_format_yaml(s, cat, &one, &n1, &err) != 0)
				abort(); /* accepted, so saveable */
			if (scenario_parse(one, n1, "fuzz.yaml", cat, back, NULL, NULL, &err) != 0)
				abort();
			for (const struct field *f = scenario_fields; f->key; f++)
				if (!scenario_field_equal(s, back, f))
					abort();
			if (scenario_format_yaml(back, cat, &two, &n2, &err) != 0 || n1 != n2 ||
			    memcmp(one, two, n1) != 0)
				abort();
			plan_compute(s, p);
			j = report_json_build(s, p);
			json = j ? report_json_print(j) : NULL;
			report_json_free(j);
			if (!json || text_utf8_invalid_at(json, strlen(json)) != strlen(json))
				abort();
		}
	}
	free(one);
	free(two);
	free(json);
	free(s);
	free(back);
	free(p);
	free(probs);
	return 0;
}
