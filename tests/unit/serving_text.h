/* serving_text.h - a scenario written to a temporary file and loaded as the command line
 * loads it: the file, then the checks across fields (cli_io.c); the first problem in *err.
 * For the serving tests' bad-input cases (refused_at); needs cmocka and shipped_catalog.h
 * first. */
#ifndef GPUPLAN_TEST_SERVING_TEXT_H
#define GPUPLAN_TEST_SERVING_TEXT_H

static int load_text(const char *text, struct gp_error *err)
{
	static struct scenario_source src;
	static struct gp_problems probs;
	struct scenario s;
	FILE *f;
	char dir[] = "/tmp/gpuplan-serving-XXXXXX", path[64];
	int rc;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/s.yaml", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	/* as the CLI does: the file, then the checks across fields (cli_io.c) */
	rc = scenario_load_file(path, cat, &s, &src, NULL, err);
	if (rc == 0) {
		gp_problems_init(&probs);
		scenario_validate(&s, &src, &probs);
		if (probs.count > 0) {
			*err = probs.items[0];
			rc = -1;
		}
	}
	remove(path);
	rmdir(dir);
	return rc;
}

/* yaml, with an A100 as the hardware, is refused at line, at a column, with word in the
 * message. */
static inline void refused_at(const char *yaml, int line, const char *word)
{
	struct gp_error err;
	char text[512];
	snprintf(text, sizeof(text), "%shardware:\n  gpu: a100-80gb-sxm\n", yaml);
	memset(&err, 0, sizeof(err));
	assert_int_not_equal(load_text(text, &err), 0);
	printf("%d:%d: %s\n", err.line, err.column, err.message);
	assert_int_equal(err.line, line);
	assert_true(err.column > 0);
	assert_non_null(strstr(err.message, word));
}

#endif
