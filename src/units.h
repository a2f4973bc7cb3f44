/* units.h - numbers with units, to and from text. The only place text meets quantities.
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
 * back to exactly the same double ("6.74B", "80GB", "3.35TB/s", "400Gb/s", "5d").
 * Returns the length written (snprintf-style); buf is always terminated. */
int units_format(enum unit_kind kind, double value, char *buf, size_t size);

/* Writes value for people to read, to sig significant digits with a space before the
 * unit: "140 GB", "3.35 TB/s", "1.76e17", "34.2 d", "$1,234". NaN prints as "-". */
int units_format_human(enum unit_kind kind, double value, int sig, char *buf, size_t size);

/* What a kind expects, for error messages: "a size like 80GB or 80GiB". */
const char *units_expected(enum unit_kind kind);

#endif
