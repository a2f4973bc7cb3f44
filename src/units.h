/* units.h - numbers with units, to and from text. The only place text meets quantities,
 * and the one writer of the parallel layout string (units_format_layout).
 *
 * Values are SI base units as double: bytes, bytes/s, seconds, FLOP/s, watts, USD.
 * Forms read (gpuplan-scenario(5), NUMBERS):
 *   counts     7B  2T  1.5M  32k  4096  1e9        (k 1e3, M 1e6, B|G 1e9, T 1e12, P 1e15)
 *   bytes      80GB  80GiB  512MB  1.5TB  4096     (B = byte; SI and binary prefixes)
 *   bandwidth  3.35TB/s  900GB/s  400Gb/s  25GiB/s (b = bit: 400Gb/s is 50e9 bytes/s)
 *   durations  50ms  90s  30m  10h  5d  2w  1y     (m minutes; a plain number is seconds)
 *   FLOP/s     989.4T  989.4TFLOP/s  19.5TFLOPS    (count suffixes)
 *   power      700W  1.2kW
 *   ratio      0.4  40%
 *   USD        2.5  $2.5
 * A value that cannot be read, NaN, an infinity or one that overflows is an error.
 */
#ifndef GPUPLAN_UNITS_H
#define GPUPLAN_UNITS_H

#include <stdbool.h>
#include <stddef.h>

enum unit_kind {
	UNIT_NONE,  /* plain number, no suffix */
	UNIT_COUNT, /* count suffixes */
	UNIT_BYTES,
	UNIT_BYTES_PER_S,
	UNIT_BITS_PER_S, /* same quantity as UNIT_BYTES_PER_S (stored in bytes/s), written in bits
			  */
	UNIT_SECONDS,
	UNIT_FLOPS,
	UNIT_WATTS,
	UNIT_RATIO,
	UNIT_USD,
};

/* Parses text as a quantity of the given kind into *out (SI base units). Leading and
 * trailing blanks are allowed. Returns 0, or -1 with *why (when not NULL) pointing to a
 * static phrase saying what was expected, e.g. "a size like 80GB or 80GiB". */
int units_parse(enum unit_kind kind, const char *text, double *out, const char **why);

/* Writes value in canonical file form: the shortest text with a unit suffix that parses
 * back to exactly the same double ("6.74B", "80GB", "80GiB", "3.35TB/s", "400Gb/s", "5d").
 * Returns the length written (snprintf-style); buf is always terminated. */
int units_format(enum unit_kind kind, double value, char *buf, size_t size);

/* Writes value for people to read, to sig significant digits with a space before the
 * unit: "80 GiB", "3.35 TB/s", "1.76e17", "34.2 d"; USD as units_format_usd writes it
 * whatever sig ("$1.20", "$197k"), so every front end writes money alike. NaN prints as
 * "-". Sizes are binary (B, KiB, MiB, GiB, TiB: what nvidia-smi and torch.cuda's
 * bytes / 2**30 say); bandwidths and FLOP/s decimal, as datasheets give them. */
int units_format_human(enum unit_kind kind, double value, int sig, char *buf, size_t size);

/* The name of a kind in `gpuplan fields` and the docs: "none", "count", "bytes",
 * "bytes/s", "bits/s", "seconds", "flops", "watts", "ratio", "usd"; "?" for another. */
const char *units_kind_name(enum unit_kind kind);

/* The short forms of the front ends' narrow columns. Each returns the length written
 * (snprintf-style); buf is always terminated.
 *
 * Three significant digits without an exponent, zeros kept so a column keeps its width:
 * "1.20", "12.3", "123", "1234", and below 1 still three digits: "0.0762". */
int units_format_num3(double value, char *buf, size_t size);

/* USD for every front end (units_format_human's UNIT_USD is this): three significant
 * digits ("$1.20", "$12.3", "$0.0762", "$0.00189": a cost below a cent keeps its digits),
 * from $10,000 with a count suffix ("$197k", "$1.23M"). NaN or an infinity prints as "-". */
int units_format_usd(double usd, char *buf, size_t size);

/* USD to the cent, as a price list writes it: "$2.69", "$0.35", "$12.30" (the hardware
 * pane's price per GPU-hour). */
int units_format_usd_cents(double usd, char *buf, size_t size);

/* FLOP/s as a whole number of teraFLOP/s, the short unit of the hardware pane's GPU line:
 * "989 TF", "65 TF". */
int units_format_tflops(double flops, char *buf, size_t size);

/* A ratio as a percent: sig significant digits ("4.5%", "50%", "12.5%"), or a whole
 * number of percent ("78%", "145%") when sig is 0. */
int units_format_percent(double ratio, int sig, char *buf, size_t size);

/* A bottleneck's share of the step in five columns: "  78%", " 767%", then times over
 * rather than a percentage that loses its sign off the edge (" 145x", ">1e4x"). NaN,
 * an infinity or a share not above 0 prints as "   0%". */
int units_format_share(double share, char *buf, size_t size);

/* The compact form of the search and scaling views: the human form to three significant
 * digits without spaces ("21.9s", "121d", "1.23M"); bytes with the binary unit's first
 * letter, as ls -h writes them ("63.4G" is 63.4 GiB, "512B"); USD with at most three
 * decimals below $10,000, so it fits six columns ("$0.076", "$1.23", "$123") and with a
 * count suffix from there ("$1.23M"). NaN or an infinity prints as "-", except that
 * bytes print as units_format_human's ("-", "inf"). */
int units_format_compact(enum unit_kind kind, double value, char *buf, size_t size);

/* Energy given in kWh, for every front end (the reports, diff, explain, the results pane):
 * three digits (units_format_num3) from kWh up to TWh: "636 kWh", "61.4 MWh", "1.20 GWh",
 * "151 TWh". NaN or an infinity prints as "-". */
int units_format_energy(double kwh, char *buf, size_t size);

/* How units_format_layout writes a parallel layout: the front ends' separators and details
 * differ, each kept as it reads. */
enum units_layout {
	UNITS_LAYOUT_REPORT, /* the text report: "tp 2, pp 1, dp 4, ep 1", ", cp 2" in training
				when more than 1, ", 2 virtual stages" when more than 1, then for
				training ", ZeRO 3", ", sequence parallel", ", offload optimizer"
				when on */
	UNITS_LAYOUT_SEARCH, /* `gpuplan search`: "tp 2, pp 1, dp 4", ", ep 8" when more than
				1, ", cp 2" and ", v 2" for training when more than 1 */
	UNITS_LAYOUT_PANE,   /* the results pane: "tp 2  pp 1  dp 4  ep 1", "  cp 2" as above */
	UNITS_LAYOUT_BRIEF,  /* a status line: "tp 2, pp 1, dp 4", ", cp 2" as above */
	/* one replica's shape, without dp (capacity_plan.fewest's layouts): */
	UNITS_LAYOUT_TIMES,    /* the reports: "tp 2 x pp 1", " x ep 8" when more than 1 */
	UNITS_LAYOUT_TIMES_EP, /* explain: "tp 2 x pp 1 x ep 1", ep always */
	UNITS_LAYOUT_TERSE,    /* the results pane's narrow suffix: "tp 2 pp 1" */
};

/* Writes the layout par (the values as given: a caller with a plan passes the resolved
 * ones) in style; training says whether ZeRO, sequence parallelism, offload and virtual
 * stages apply where the style leaves them out for inference. The one writer of the
 * `tp pp dp ep` string. Returns the length written (snprintf-style); buf is always
 * terminated. */
struct parallel;
int units_format_layout(const struct parallel *par, enum units_layout style, bool training,
			char *buf, size_t size);

/* What a kind expects, for error messages: "a size like 80GB or 80GiB". */
const char *units_expected(enum unit_kind kind);

#endif
