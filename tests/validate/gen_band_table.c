/* gen_band_table.c - writes src/band_table.c (band.h's residuals per regime) from the rows
 * of tests/validation/ as `gpuplan validate` plans them: `make band-table`. Run from the
 * source tree; the table goes to standard output. */
#include <stdio.h>

#include "catalog.h"
#include "report.h"
#include "validate.h"

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "tests/validation";
	struct catalog *cat = catalog_new();
	struct validation v;
	struct report_buf b = {0};
	struct gp_error err;
	char msg[512];
	int rc = 1;

	validation_init(&v);
	if (!cat || catalog_load_dir(cat, "catalog", 0, &err) != 0 ||
	    validation_load_dir(&v, dir, &err) != 0 || validation_run(&v, cat, &err) != 0) {
		fprintf(stderr, "gen_band_table: %s\n", gp_error_format(&err, msg, sizeof(msg)));
		goto out;
	}
	validation_band_table(&b, &v);
	if (!b.failed && fwrite(b.data, 1, b.len, stdout) == b.len && fflush(stdout) == 0)
		rc = 0;
out:
	report_buf_release(&b);
	validation_release(&v);
	catalog_free(cat);
	return rc;
}
