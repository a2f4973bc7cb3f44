/* test_units.c - units: every form that gpuplan-scenario(5), NUMBERS, names, both ways. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "scenario.h"
#include "units.h"

static double parse_ok(enum unit_kind k, const char *text)
{
	double v = -12345;
	const char *why = NULL;
	int rc = units_parse(k, text, &v, &why);
	if (rc != 0)
		fail_msg("'%s' did not parse (%s)", text, why);
	return v;
}

static void parse_bad(enum unit_kind k, const char *text)
{
	double v = 42;
	const char *why = NULL;
	if (units_parse(k, text, &v, &why) == 0)
		fail_msg("'%s' parsed as %g but should be an error", text, v);
	assert_non_null(why);
	assert_true(v == 42); /* an error never writes a value */
}

static void test_counts(void **state)
{
	(void)state;
	assert_true(parse_ok(UNIT_COUNT, "7B") == 7e9);
	assert_true(parse_ok(UNIT_COUNT, "2T") == 2e12);
	assert_true(parse_ok(UNIT_COUNT, "1.5M") == 1.5e6);
	assert_true(parse_ok(UNIT_COUNT, "32k") == 32e3);
	assert_true(parse_ok(UNIT_COUNT, "6.74B") == 6.74e9);
	assert_true(parse_ok(UNIT_COUNT, "4096") == 4096);
	assert_true(parse_ok(UNIT_COUNT, "1e9") == 1e9);
	assert_true(parse_ok(UNIT_COUNT, " 70G ") == 70e9);
	parse_bad(UNIT_COUNT, "7b"); /* lowercase b is bits, not billions */
	parse_bad(UNIT_COUNT, "7m"); /* m is minutes, M is a million */
	parse_bad(UNIT_COUNT, "");
	parse_bad(UNIT_COUNT, "B");
	parse_bad(UNIT_COUNT, "seven");
	parse_bad(UNIT_COUNT, "nan");
	parse_bad(UNIT_COUNT, "inf");
	parse_bad(UNIT_COUNT, "-inf");
	parse_bad(UNIT_COUNT, "0x10");
	parse_bad(UNIT_COUNT, "1e400");
	parse_bad(UNIT_COUNT, "1e300T"); /* overflows after scaling */
	parse_bad(UNIT_COUNT, "7BB");
}

static void test_bytes(void **state)
{
	(void)state;
	assert_true(parse_ok(UNIT_BYTES, "80GB") == 80e9);
	assert_true(parse_ok(UNIT_BYTES, "80GiB") == 80.0 * 1073741824.0);
	assert_true(parse_ok(UNIT_BYTES, "512MB") == 512e6);
	assert_true(parse_ok(UNIT_BYTES, "1.5TB") == 1.5e12);
	assert_true(parse_ok(UNIT_BYTES, "80 GB") == 80e9);
	assert_true(parse_ok(UNIT_BYTES, "4096") == 4096);
	parse_bad(UNIT_BYTES, "80Gb"); /* bits are for links, not sizes */
	parse_bad(UNIT_BYTES, "80G B");
	parse_bad(UNIT_BYTES, "80GBs");
	parse_bad(UNIT_BYTES, "80gb");
}

static void test_bandwidth(void **state)
{
	(void)state;
	assert_true(parse_ok(UNIT_BYTES_PER_S, "3.35TB/s") == 3.35e12);
	assert_true(parse_ok(UNIT_BYTES_PER_S, "900GB/s") == 900e9);
	assert_true(parse_ok(UNIT_BYTES_PER_S, "400Gb/s") == 50e9);
	assert_true(parse_ok(UNIT_BITS_PER_S, "400Gb/s") == 50e9);
	assert_true(parse_ok(UNIT_BYTES_PER_S, "2GB/s") == 2e9);
	assert_true(parse_ok(UNIT_BYTES_PER_S, "25GiB/s") == 25.0 * 1073741824.0);
	parse_bad(UNIT_BYTES_PER_S, "3.35TB");
	parse_bad(UNIT_BYTES_PER_S, "3.35 TBps");
}

static void test_durations(void **state)
{
	(void)state;
	assert_true(parse_ok(UNIT_SECONDS, "50ms") == 0.05);
	assert_true(parse_ok(UNIT_SECONDS, "90s") == 90);
	assert_true(parse_ok(UNIT_SECONDS, "30m") == 1800);
	assert_true(parse_ok(UNIT_SECONDS, "10h") == 36000);
	assert_true(parse_ok(UNIT_SECONDS, "5d") == 432000);
	assert_true(parse_ok(UNIT_SECONDS, "1") == 1);
	parse_bad(UNIT_SECONDS, "5M"); /* a million, not minutes */
	parse_bad(UNIT_SECONDS, "5days");
	parse_bad(UNIT_SECONDS, "d");
}

static void test_other_kinds(void **state)
{
	(void)state;
	assert_true(parse_ok(UNIT_FLOPS, "989.4T") == 989.4e12);
	assert_true(parse_ok(UNIT_FLOPS, "19.5TFLOP/s") == 19.5e12);
	assert_true(parse_ok(UNIT_FLOPS, "312TFLOPS") == 312e12);
	assert_true(parse_ok(UNIT_WATTS, "700W") == 700);
	assert_true(parse_ok(UNIT_WATTS, "1.2kW") == 1200);
	assert_true(parse_ok(UNIT_RATIO, "0.4") == 0.4);
	assert_true(fabs(parse_ok(UNIT_RATIO, "40%") - 0.4) < 1e-15);
	assert_true(parse_ok(UNIT_USD, "2.5") == 2.5);
	assert_true(parse_ok(UNIT_USD, "$2.5") == 2.5);
	parse_bad(UNIT_USD, "2.5EUR");
	parse_bad(UNIT_NONE, "3x");
}

/* Canonical text reads back as exactly the same double, for awkward values too. */
static void roundtrip(enum unit_kind k, double v)
{
	char buf[64];
	double back = -1;
	units_format(k, v, buf, sizeof(buf));
	if (units_parse(k, buf, &back, NULL) != 0 || back != v)
		fail_msg("%.17g formatted as '%s' read back as %.17g", v, buf, back);
}

static void test_format_canonical(void **state)
{
	char buf[64];
	(void)state;
	units_format(UNIT_COUNT, 7e9, buf, sizeof(buf));
	assert_string_equal(buf, "7B");
	units_format(UNIT_COUNT, 6.74e9, buf, sizeof(buf));
	assert_string_equal(buf, "6.74B");
	units_format(UNIT_COUNT, 2e12, buf, sizeof(buf));
	assert_string_equal(buf, "2T");
	units_format(UNIT_COUNT, 4096, buf, sizeof(buf));
	assert_string_equal(buf, "4096");
	units_format(UNIT_BYTES, 80e9, buf, sizeof(buf));
	assert_string_equal(buf, "80GB");
	units_format(UNIT_BYTES, 80.0 * 1073741824.0, buf, sizeof(buf));
	assert_string_equal(buf, "80GiB");
	units_format(UNIT_BYTES_PER_S, 3.35e12, buf, sizeof(buf));
	assert_string_equal(buf, "3.35TB/s");
	units_format(UNIT_BITS_PER_S, 50e9, buf, sizeof(buf));
	assert_string_equal(buf, "400Gb/s");
	units_format(UNIT_SECONDS, 432000, buf, sizeof(buf));
	assert_string_equal(buf, "5d");
	units_format(UNIT_SECONDS, 0.05, buf, sizeof(buf));
	assert_string_equal(buf, "50ms");
	units_format(UNIT_SECONDS, 1800, buf, sizeof(buf));
	assert_string_equal(buf, "30m");
	units_format(UNIT_WATTS, 700, buf, sizeof(buf));
	assert_string_equal(buf, "700W");

	double vals[] = {1,
			 3,
			 0.1,
			 1.0 / 3,
			 6738415616.0,
			 1e-7,
			 123456789.123,
			 2.0e15,
			 7.5e9,
			 1073741824.0 * 1.5,
			 0.7,
			 1e18};
	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		roundtrip(UNIT_COUNT, vals[i]);
		roundtrip(UNIT_BYTES, vals[i]);
		roundtrip(UNIT_BYTES_PER_S, vals[i]);
		roundtrip(UNIT_BITS_PER_S, vals[i]);
		roundtrip(UNIT_SECONDS, vals[i]);
		roundtrip(UNIT_FLOPS, vals[i]);
		roundtrip(UNIT_RATIO, vals[i]);
		roundtrip(UNIT_USD, vals[i]);
	}
}

static void test_format_human(void **state)
{
	char buf[64];
	(void)state;
	/* sizes are binary, as nvidia-smi and torch.cuda's bytes / 2**30 give them: an "80GB"
	 * H100 is 80 GiB; 7B bf16 weights (13.476e9 bytes) are 12.6 GiB; the next unit from
	 * 0.9995 of it (1000 GiB stays GiB, 1024 GiB is 1 TiB) */
	static const struct {
		double bytes;
		const char *text;
	} sizes[] = {{80 * 1073741824.0, "80 GiB"},
		     {140e9, "130 GiB"},
		     {13.476e9, "12.6 GiB"},
		     {0.75e9, "715 MiB"},
		     {1536, "1.5 KiB"},
		     {1023, "1023 B"},
		     {0, "0 B"},
		     {1000 * 1073741824.0, "1000 GiB"},
		     {1024 * 1073741824.0, "1 TiB"},
		     {1.5 * 1099511627776.0, "1.5 TiB"}};
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		units_format_human(UNIT_BYTES, sizes[i].bytes, 3, buf, sizeof(buf));
		assert_string_equal(buf, sizes[i].text);
	}
	/* bandwidths and FLOP/s stay decimal, as datasheets write them */
	units_format_human(UNIT_FLOPS, 989.4e12, 3, buf, sizeof(buf));
	assert_string_equal(buf, "989 TFLOP/s");
	units_format_human(UNIT_BYTES_PER_S, 3.35e12, 3, buf, sizeof(buf));
	assert_string_equal(buf, "3.35 TB/s");
	units_format_human(UNIT_SECONDS, 8.97e9, 3, buf, sizeof(buf));
	assert_string_equal(buf, "284 y");
	/* thousands of years keep three digits: "643k y", not "642585 y" */
	units_format_human(UNIT_SECONDS, 642585 * 31557600.0, 3, buf, sizeof(buf));
	assert_string_equal(buf, "643k y");
	units_format_human(UNIT_SECONDS, 999.4 * 31557600.0, 3, buf, sizeof(buf));
	assert_string_equal(buf, "999 y");
	units_format_human(UNIT_SECONDS, 0.0165, 3, buf, sizeof(buf));
	assert_string_equal(buf, "16.5 ms");
	units_format_human(UNIT_RATIO, 0.4, 3, buf, sizeof(buf));
	assert_string_equal(buf, "40%");
	units_format_human(UNIT_COUNT, 6.74e9, 3, buf, sizeof(buf));
	assert_string_equal(buf, "6.74B");
	units_format_human(UNIT_BYTES, NAN, 3, buf, sizeof(buf));
	assert_string_equal(buf, "-");
}

#define FORMATS(call, want)                                                                        \
	do {                                                                                       \
		char b_[64];                                                                       \
		call;                                                                              \
		assert_string_equal(b_, want);                                                     \
	} while (0)

/* The hardware pane's GPU line: a price to the cent, whole teraFLOP/s. */
static void test_format_gpu_line(void **state)
{
	(void)state;
	FORMATS(units_format_usd_cents(2.69, b_, sizeof(b_)), "$2.69");
	FORMATS(units_format_usd_cents(12.3, b_, sizeof(b_)), "$12.30");
	FORMATS(units_format_usd_cents(0, b_, sizeof(b_)), "$0.00");
	FORMATS(units_format_tflops(989.4e12, b_, sizeof(b_)), "989 TF");
	FORMATS(units_format_tflops(65e12, b_, sizeof(b_)), "65 TF");
}

/* The front ends' short forms: the results pane, the search and scaling views. */
static void test_format_short(void **state)
{
	(void)state;
	FORMATS(units_format_num3(1.2, b_, sizeof(b_)), "1.20");
	FORMATS(units_format_num3(12.34, b_, sizeof(b_)), "12.3");
	FORMATS(units_format_num3(1234.4, b_, sizeof(b_)), "1234");
	FORMATS(units_format_num3(0.07624, b_, sizeof(b_)), "0.0762");
	/* a cost below a cent keeps three significant digits (tests/tui case 24) */
	FORMATS(units_format_usd(0.001894, b_, sizeof(b_)), "$0.00189");
	FORMATS(units_format_usd(0.07624, b_, sizeof(b_)), "$0.0762");
	FORMATS(units_format_usd(1.2, b_, sizeof(b_)), "$1.20");
	FORMATS(units_format_usd(9999, b_, sizeof(b_)), "$9999");
	FORMATS(units_format_usd(1.234e6, b_, sizeof(b_)), "$1.23M");
	FORMATS(units_format_usd(NAN, b_, sizeof(b_)), "-");
	FORMATS(units_format_percent(0.5, 3, b_, sizeof(b_)), "50%");
	FORMATS(units_format_percent(0.125, 4, b_, sizeof(b_)), "12.5%");
	FORMATS(units_format_percent(0.4512, 0, b_, sizeof(b_)), "45%");
	FORMATS(units_format_percent(1.4512, 0, b_, sizeof(b_)), "145%");
	/* a capacity share of 14465% reads 145x, in five columns */
	FORMATS(units_format_share(0.78, b_, sizeof(b_)), "  78%");
	FORMATS(units_format_share(7.67, b_, sizeof(b_)), " 767%");
	FORMATS(units_format_share(144.65, b_, sizeof(b_)), " 145x");
	FORMATS(units_format_share(2e4, b_, sizeof(b_)), ">1e4x");
	FORMATS(units_format_share(NAN, b_, sizeof(b_)), "   0%");
	FORMATS(units_format_compact(UNIT_SECONDS, 21.9, b_, sizeof(b_)), "21.9s");
	FORMATS(units_format_compact(UNIT_SECONDS, 121 * 86400.0, b_, sizeof(b_)), "121d");
	FORMATS(units_format_compact(UNIT_SECONDS, INFINITY, b_, sizeof(b_)), "-");
	FORMATS(units_format_compact(UNIT_COUNT, 58700, b_, sizeof(b_)), "58.7k");
	FORMATS(units_format_compact(UNIT_BYTES, 63.4 * 1073741824.0, b_, sizeof(b_)), "63.4G");
	FORMATS(units_format_compact(UNIT_BYTES, 63.4e9, b_, sizeof(b_)), "59G");
	FORMATS(units_format_compact(UNIT_BYTES, 0.75e9, b_, sizeof(b_)), "715M");
	FORMATS(units_format_compact(UNIT_BYTES, 512, b_, sizeof(b_)), "512B");
	FORMATS(units_format_compact(UNIT_BYTES, INFINITY, b_, sizeof(b_)), "inf");
	FORMATS(units_format_compact(UNIT_USD, 0.07624, b_, sizeof(b_)), "$0.076");
	FORMATS(units_format_compact(UNIT_USD, 1.2, b_, sizeof(b_)), "$1.20");
	FORMATS(units_format_compact(UNIT_USD, 1.234e6, b_, sizeof(b_)), "$1.23M");
	FORMATS(units_format_compact(UNIT_USD, NAN, b_, sizeof(b_)), "-");
}

/* Energy: one form for the reports and the results pane, up to TWh (the pane read 75706
 * GWh, the report "61423 kWh" where the pane read "61.4 MWh", and "1.51e+08 kWh"). */
static void test_format_energy(void **state)
{
	(void)state;
	FORMATS(units_format_energy(636, b_, sizeof(b_)), "636 kWh");
	FORMATS(units_format_energy(0.131, b_, sizeof(b_)), "0.131 kWh");
	FORMATS(units_format_energy(1200, b_, sizeof(b_)), "1.20 MWh");
	FORMATS(units_format_energy(61423, b_, sizeof(b_)), "61.4 MWh");
	FORMATS(units_format_energy(1.2e6, b_, sizeof(b_)), "1.20 GWh");
	/* just under a GWh rounds up into GWh, where %.3g writes 0.9996 as "1" */
	FORMATS(units_format_energy(999.6e3, b_, sizeof(b_)), "1 GWh");
	FORMATS(units_format_energy(75.706e9, b_, sizeof(b_)), "75.7 TWh");
	FORMATS(units_format_energy(1.51e8, b_, sizeof(b_)), "151 GWh");
	FORMATS(units_format_energy(151e9, b_, sizeof(b_)), "151 TWh");
	FORMATS(units_format_energy(NAN, b_, sizeof(b_)), "-");
	FORMATS(units_format_energy(INFINITY, b_, sizeof(b_)), "-");
}

/* Money in the reports (units_format_human) as in the results pane (units_format_usd):
 * the report wrote "$196701" where the pane wrote "$197k", and "$1.2" for "$1.20". */
static void test_format_usd_human(void **state)
{
	static const double v[] = {0.001894, 0.0762, 1.2, 12.3, 1377, 9999, 196701, 1.234e6};
	char a[48];

	(void)state;
	FORMATS(units_format_human(UNIT_USD, 196701, 3, b_, sizeof(b_)), "$197k");
	FORMATS(units_format_human(UNIT_USD, 1.2, 3, b_, sizeof(b_)), "$1.20");
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		units_format_usd(v[i], a, sizeof(a));
		FORMATS(units_format_human(UNIT_USD, v[i], 3, b_, sizeof(b_)), a);
	}
}

static void test_kind_names(void **state)
{
	(void)state;
	assert_string_equal(units_kind_name(UNIT_NONE), "none");
	assert_string_equal(units_kind_name(UNIT_BYTES_PER_S), "bytes/s");
	assert_string_equal(units_kind_name(UNIT_BITS_PER_S), "bits/s");
	assert_string_equal(units_kind_name(UNIT_USD), "usd");
	assert_string_equal(units_kind_name((enum unit_kind)99), "?");
}

/* The one layout writer: each front end's form, as it reads (the report's, the search's,
 * the pane's and a status line's in test_context_parallel.c). */
static void test_format_layout(void **state)
{
	struct parallel par = {.tp = 2, .pp = 1, .dp = 4, .ep = 1, .cp = 1, .virtual_stages = 1};
	char buf[96];
	(void)state;

	assert_int_equal(units_format_layout(&par, UNITS_LAYOUT_TIMES, false, buf, sizeof(buf)),
			 11);
	assert_string_equal(buf, "tp 2 x pp 1");
	units_format_layout(&par, UNITS_LAYOUT_TIMES_EP, false, buf, sizeof(buf));
	assert_string_equal(buf, "tp 2 x pp 1 x ep 1");
	units_format_layout(&par, UNITS_LAYOUT_TERSE, false, buf, sizeof(buf));
	assert_string_equal(buf, "tp 2 pp 1");
	units_format_layout(&par, UNITS_LAYOUT_BRIEF, false, buf, sizeof(buf));
	assert_string_equal(buf, "tp 2, pp 1, dp 4");
	units_format_layout(&par, UNITS_LAYOUT_REPORT, false, buf, sizeof(buf));
	assert_string_equal(buf, "tp 2, pp 1, dp 4, ep 1");
	par.ep = 8;
	units_format_layout(&par, UNITS_LAYOUT_TIMES, false, buf, sizeof(buf));
	assert_string_equal(buf, "tp 2 x pp 1 x ep 8");
	units_format_layout(&par, UNITS_LAYOUT_SEARCH, false, buf, sizeof(buf));
	assert_string_equal(buf, "tp 2, pp 1, dp 4, ep 8");
	/* a short buffer is cut and terminated, and the length says it was cut */
	assert_true(units_format_layout(&par, UNITS_LAYOUT_PANE, false, buf, 8) >= 8);
	assert_string_equal(buf, "tp 2  p");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_counts),	     cmocka_unit_test(test_bytes),
	    cmocka_unit_test(test_bandwidth),	     cmocka_unit_test(test_durations),
	    cmocka_unit_test(test_other_kinds),	     cmocka_unit_test(test_format_canonical),
	    cmocka_unit_test(test_format_human),     cmocka_unit_test(test_format_short),
	    cmocka_unit_test(test_format_gpu_line),  cmocka_unit_test(test_format_energy),
	    cmocka_unit_test(test_format_usd_human), cmocka_unit_test(test_kind_names),
	    cmocka_unit_test(test_format_layout),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
