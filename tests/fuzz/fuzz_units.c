/* fuzz_units.c - units_parse on arbitrary bytes.
 *
 * The first byte picks the unit kind, the rest is the text. A value read must be finite,
 * and its canonical form (units_format) must read back as exactly the same value.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "units.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	enum unit_kind kind;
	char *text, buf[128];
	const char *why = NULL;
	double v, back;

	if (size < 1 || size > 4096)
		return 0;
	kind = (enum unit_kind)(data[0] % (UNIT_USD + 1));
	text = malloc(size);
	if (!text)
		abort();
	memcpy(text, data + 1, size - 1);
	text[size - 1] = '\0';
	if (units_parse(kind, text, &v, &why) == 0) {
		if (!isfinite(v))
			abort();
		units_format(kind, v, buf, sizeof(buf));
		if (units_parse(kind, buf, &back, NULL) != 0 || back != v)
			abort();
		units_format_human(kind, v, 3, buf, sizeof(buf));
	} else if (!why) {
		abort(); /* a failure must say what was expected */
	}
	free(text);
	return 0;
}
