/* test_catalog_man.c - gpuplan-catalog(5) and the GPU entry parser agree: every key the
 * parser takes (catalog_gpu_key) and every precision a peak takes (catalog_peak_name) has
 * its own entry (".TP" then ".B key") in man/gpuplan-catalog.5, and the page has no entry
 * for a key the parser refuses; the documented links between keys (link_bandwidth both
 * directions, pcie_bandwidth per direction) hold for every shipped entry. Run from the
 * source root. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "shipped_catalog.h"

#define PAGE "man/gpuplan-catalog.5"

static char *page;

static int setup(void **state)
{
	FILE *f = fopen(PAGE, "rb");
	long n;
	if (!f)
		return -1;
	if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0 ||
	    !(page = calloc(1, (size_t)n + 1)) || fread(page, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		return -1;
	}
	fclose(f);
	return shipped_catalog_setup(state);
}

static int teardown(void **state)
{
	free(page);
	return shipped_catalog_teardown(state);
}

/* The page's section from ".SH title" (or ".SS title") to the next heading of that level. */
static const char *section(const char *heading, const char **end)
{
	const char *s = strstr(page, heading), *e;
	if (!s)
		return NULL;
	e = strstr(s + strlen(heading), heading[2] == 'H' ? "\n.SH " : "\n.S");
	*end = e ? e : s + strlen(s);
	return s;
}

/* Whether [s, e) has the entry ".TP\n.B key\n". */
static bool has_entry(const char *s, const char *e, const char *key)
{
	char want[96];
	const char *p;
	snprintf(want, sizeof(want), ".TP\n.B %s\n", key);
	p = strstr(s, want);
	return p && p < e;
}

static bool is_key(const char *name, const char *(*list)(int))
{
	for (int i = 0; list(i); i++)
		if (strcmp(list(i), name) == 0)
			return true;
	return false;
}

/* Every ".TP\n.B word" in [s, e) names an entry of list. */
static void entries_are(const char *s, const char *e, const char *(*list)(int), const char *what)
{
	int n = 0;
	for (const char *p = strstr(s, ".TP\n.B "); p && p < e; p = strstr(p + 1, ".TP\n.B ")) {
		char name[64];
		size_t len = strcspn(p + 7, "\n");
		if (len >= sizeof(name))
			fail_msg("%s: an entry's name is too long", PAGE);
		memcpy(name, p + 7, len);
		name[len] = '\0';
		if (!is_key(name, list))
			fail_msg("%s: entry '%s' under %s, which the parser does not take", PAGE,
				 name, what);
		n++;
	}
	assert_true(n > 0);
}

static void test_every_gpu_key_has_an_entry(void **state)
{
	const char *e, *s = section("\n.SH KEYS", &e), *ss;
	int n = 0;
	(void)state;
	assert_non_null(s);
	/* the precisions sit in their own subsection, after the keys */
	ss = strstr(s, "\n.SS ");
	if (ss && ss < e)
		e = ss;
	for (int i = 0; catalog_gpu_key(i); i++, n++)
		if (!has_entry(s, e, catalog_gpu_key(i)))
			fail_msg("%s: no entry for the GPU key '%s' under KEYS (expected "
				 "'.TP' then '.B %s')",
				 PAGE, catalog_gpu_key(i), catalog_gpu_key(i));
	assert_true(n >= 17);
	entries_are(s, e, catalog_gpu_key, "KEYS");
}

static void test_every_precision_has_an_entry(void **state)
{
	const char *e, *s = section("\n.SS Precisions", &e);
	int n = 0;
	(void)state;
	assert_non_null(s);
	for (int i = 0; catalog_peak_name(i); i++, n++)
		if (!has_entry(s, e, catalog_peak_name(i)))
			fail_msg("%s: no entry for the precision '%s'", PAGE, catalog_peak_name(i));
	assert_int_equal(n, 10);
	entries_are(s, e, catalog_peak_name, "Precisions");
}

/* A key the page documents is one the parser takes: a user entry with every key of the
 * list reads, and one more key ("bandwidth") is refused with FILE:LINE:COL. */
static void test_the_listed_keys_are_the_parsed_ones(void **state)
{
	static const char *const values[][2] = {
	    {"id", "x"},	     {"name", "X 8GB"},		{"vendor", "other"},
	    {"class", "consumer"},   {"memory", "8GiB"},	{"cuda_total", "7.5GiB"},
	    {"hbm_bandwidth", "1TB/s"}, {"peak", "{bf16: 100T}"},	{"sparse", "{bf16: 200T}"},
	    {"link", "pcie"},	     {"link_bandwidth", "64GB/s"}, {"link_domain", "8"},
	    {"pcie", "gen4x16"},     {"pcie_bandwidth", "32GB/s"}, {"power", "300W"},
	    {"price_per_hour", "1"}, {"gpus_per_node", "8"},	{"sms", "64"},
	    {"gemm_efficiency", "0.8"}, {"network", "100Gb/s"},
	};
	char text[2048];
	size_t len;
	struct catalog *c;
	struct gp_error err;
	int n = 0;
	(void)state;
	len = (size_t)snprintf(text, sizeof(text), "gpus:\n");
	for (int i = 0; catalog_gpu_key(i); i++, n++) {
		size_t j;
		for (j = 0; j < sizeof(values) / sizeof(values[0]); j++)
			if (strcmp(values[j][0], catalog_gpu_key(i)) == 0)
				break;
		if (j == sizeof(values) / sizeof(values[0]))
			fail_msg("no test value for the key '%s'", catalog_gpu_key(i));
		len += (size_t)snprintf(text + len, sizeof(text) - len, "%s%s: %s\n",
					i ? "    " : "  - ", values[j][0], values[j][1]);
	}
	assert_int_equal(n, sizeof(values) / sizeof(values[0]));
	c = catalog_new();
	assert_non_null(c);
	assert_int_equal(catalog_parse_gpus(c, text, len, "user.yaml", &err), 0);
	assert_int_equal(c->ngpus, 1);
	catalog_free(c);

	len += (size_t)snprintf(text + len, sizeof(text) - len, "    bandwidth: 1TB/s\n");
	c = catalog_new();
	assert_non_null(c);
	assert_int_not_equal(catalog_parse_gpus(c, text, len, "user.yaml", &err), 0);
	assert_int_equal(err.line, n + 2);
	assert_int_equal(err.column, 5);
	catalog_free(c);
}

/* What the page says of link_bandwidth and pcie_bandwidth: a pcie link's bandwidth is the
 * both-directions sum, twice pcie_bandwidth; a GPU link's is never below that. */
static void test_the_shipped_entries_follow_the_directions(void **state)
{
	(void)state;
	for (int i = 0; i < cat->ngpus; i++) {
		const struct gpu *g = &cat->gpus[i];
		if (strcmp(g->link, "pcie") == 0 && g->link_bytes_per_s != 2 * g->pcie_bytes_per_s)
			fail_msg("%s: link_bandwidth %g is not 2 x pcie_bandwidth %g", g->id,
				 g->link_bytes_per_s, g->pcie_bytes_per_s);
		if (g->link_bytes_per_s < 2 * g->pcie_bytes_per_s)
			fail_msg("%s: link_bandwidth %g (both directions) below PCIe's %g", g->id,
				 g->link_bytes_per_s, 2 * g->pcie_bytes_per_s);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_every_gpu_key_has_an_entry),
	    cmocka_unit_test(test_every_precision_has_an_entry),
	    cmocka_unit_test(test_the_listed_keys_are_the_parsed_ones),
	    cmocka_unit_test(test_the_shipped_entries_follow_the_directions),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
