/* units.c - numbers with units read from and written to text: the one place text meets
 * quantities (units.h lists the forms). */
#include "units.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scenario.h"

struct suffix {
	const char *text;
	double scale;
};

/* Counts: k, M, B|G, T, P. "m" is not a count (it is minutes), so counts are case-sensitive. */
static const struct suffix count_suffixes[] = {
    {"", 1},	{"k", 1e3},  {"K", 1e3},  {"M", 1e6}, {"B", 1e9},
    {"G", 1e9}, {"T", 1e12}, {"P", 1e15}, {NULL, 0},
};

static const struct suffix byte_suffixes[] = {
    {"", 1},
    {"B", 1},
    {"kB", 1e3},
    {"KB", 1e3},
    {"MB", 1e6},
    {"GB", 1e9},
    {"TB", 1e12},
    {"PB", 1e15},
    {"KiB", 1024.0},
    {"MiB", 1048576.0},
    {"GiB", 1073741824.0},
    {"TiB", 1099511627776.0},
    {"PiB", 1125899906842624.0},
    {NULL, 0},
};

/* Bandwidths: bytes per second, or bits per second with a lowercase b. */
static const struct suffix bandwidth_suffixes[] = {
    {"", 1},
    {"B/s", 1},
    {"kB/s", 1e3},
    {"KB/s", 1e3},
    {"MB/s", 1e6},
    {"GB/s", 1e9},
    {"TB/s", 1e12},
    {"KiB/s", 1024.0},
    {"MiB/s", 1048576.0},
    {"GiB/s", 1073741824.0},
    {"TiB/s", 1099511627776.0},
    {"b/s", 1 / 8.0},
    {"kb/s", 1e3 / 8},
    {"Kb/s", 1e3 / 8},
    {"Mb/s", 1e6 / 8},
    {"Gb/s", 1e9 / 8},
    {"Tb/s", 1e12 / 8},
    {"bps", 1 / 8.0},
    {"Gbps", 1e9 / 8},
    {"Mbps", 1e6 / 8},
    {"Tbps", 1e12 / 8},
    {NULL, 0},
};

static const struct suffix duration_suffixes[] = {
    {"", 1},	 {"ns", 1e-9}, {"us", 1e-6}, {"ms", 1e-3},  {"s", 1},	     {"m", 60},
    {"min", 60}, {"h", 3600},  {"d", 86400}, {"w", 604800}, {"y", 31557600}, /* a Julian year,
										365.25 d */
    {NULL, 0},
};

static const struct suffix flops_suffixes[] = {
    {"", 1},	    {"k", 1e3},	     {"M", 1e6},       {"G", 1e9},	  {"T", 1e12},
    {"P", 1e15},    {"FLOP/s", 1},   {"GFLOP/s", 1e9}, {"TFLOP/s", 1e12}, {"PFLOP/s", 1e15},
    {"FLOPS", 1},   {"GFLOPS", 1e9}, {"TFLOPS", 1e12}, {"PFLOPS", 1e15},  {"TOPS", 1e12},
    {"POPS", 1e15}, {NULL, 0},
};

static const struct suffix watt_suffixes[] = {
    {"", 1}, {"W", 1}, {"kW", 1e3}, {"MW", 1e6}, {NULL, 0},
};

static const struct suffix ratio_suffixes[] = {
    {"", 1},
    {"%", 0.01},
    {NULL, 0},
};

static const struct suffix plain_suffixes[] = {
    {"", 1},
    {NULL, 0},
};

static const struct suffix *suffixes_of(enum unit_kind kind)
{
	switch (kind) {
	case UNIT_COUNT:
		return count_suffixes;
	case UNIT_BYTES:
		return byte_suffixes;
	case UNIT_BYTES_PER_S:
	case UNIT_BITS_PER_S:
		return bandwidth_suffixes;
	case UNIT_SECONDS:
		return duration_suffixes;
	case UNIT_FLOPS:
		return flops_suffixes;
	case UNIT_WATTS:
		return watt_suffixes;
	case UNIT_RATIO:
		return ratio_suffixes;
	case UNIT_NONE:
	case UNIT_USD:
		break;
	}
	return plain_suffixes;
}

const char *units_expected(enum unit_kind kind)
{
	switch (kind) {
	case UNIT_NONE:
		return "a number";
	case UNIT_COUNT:
		return "a count like 4096, 7B, 2T or 1.5M";
	case UNIT_BYTES:
		return "a size like 80GB or 80GiB";
	case UNIT_BYTES_PER_S:
	case UNIT_BITS_PER_S:
		return "a bandwidth like 3.35TB/s, 900GB/s or 400Gb/s";
	case UNIT_SECONDS:
		return "a duration like 50ms, 90s, 30m, 10h or 5d";
	case UNIT_FLOPS:
		return "a rate like 989.4T or 19.5TFLOP/s";
	case UNIT_WATTS:
		return "a power like 700W or 1.2kW";
	case UNIT_RATIO:
		return "a fraction like 0.4 or 40%";
	case UNIT_USD:
		return "an amount in USD like 2.5";
	}
	return "a number";
}

int units_parse(enum unit_kind kind, const char *text, double *out, const char **why)
{
	const struct suffix *s;
	const char *p = text, *q;
	char *end;
	double v;
	size_t len;

	if (why)
		*why = units_expected(kind);
	if (!text)
		return -1;
	while (*p == ' ' || *p == '\t')
		p++;
	if (kind == UNIT_USD && *p == '$')
		p++;
	/* strtod also reads "nan", "inf" and hexadecimal; accept only decimal forms. */
	q = p;
	if (*q == '+' || *q == '-')
		q++;
	if (!isdigit((unsigned char)*q) && !(*q == '.' && isdigit((unsigned char)q[1])))
		return -1;
	for (const char *c = q; *c && !isspace((unsigned char)*c); c++)
		if (*c == 'x' || *c == 'X')
			return -1;
	errno = 0;
	v = strtod(p, &end);
	if (end == p || errno == ERANGE || !isfinite(v))
		return -1;
	while (*end == ' ')
		end++;
	len = strlen(end);
	while (len && (end[len - 1] == ' ' || end[len - 1] == '\t' || end[len - 1] == '\n' ||
		       end[len - 1] == '\r'))
		len--;
	for (s = suffixes_of(kind); s->text; s++) {
		if (strlen(s->text) == len && strncmp(s->text, end, len) == 0) {
			v *= s->scale;
			if (!isfinite(v))
				return -1;
			*out = v;
			return 0;
		}
	}
	return -1;
}

/* The canonical suffixes for writing, largest first; the empty one last. */
struct writer {
	const char *text;
	double scale;
};

static const struct writer count_writers[] = {{"T", 1e12}, {"B", 1e9}, {"M", 1e6},
					      {"k", 1e3},  {"", 1},    {NULL, 0}};
static const struct writer byte_writers[] = {{"TB", 1e12}, {"GB", 1e9}, {"MB", 1e6},
					     {"kB", 1e3},  {"B", 1},	{NULL, 0}};
/* binary sizes: the file form's alternative, and the human form's only units */
static const struct writer byte_bin_writers[] = {{"TiB", 1099511627776.0},
						 {"GiB", 1073741824.0},
						 {"MiB", 1048576.0},
						 {"KiB", 1024.0},
						 {"B", 1},
						 {NULL, 0}};
static const struct writer bw_writers[] = {{"TB/s", 1e12}, {"GB/s", 1e9}, {"MB/s", 1e6},
					   {"kB/s", 1e3},  {"B/s", 1},	  {NULL, 0}};
static const struct writer bits_writers[] = {{"Tb/s", 1e12 / 8}, {"Gb/s", 1e9 / 8},
					     {"Mb/s", 1e6 / 8},	 {"kb/s", 1e3 / 8},
					     {"b/s", 1 / 8.0},	 {NULL, 0}};
static const struct writer duration_writers[] = {{"d", 86400}, {"h", 3600},  {"m", 60}, {"s", 1},
						 {"ms", 1e-3}, {"us", 1e-6}, {NULL, 0}};
static const struct writer flops_writers[] = {{"P", 1e15}, {"T", 1e12}, {"G", 1e9},
					      {"M", 1e6},  {"", 1},	{NULL, 0}};
static const struct writer watt_writers[] = {{"kW", 1e3}, {"W", 1}, {NULL, 0}};
static const struct writer plain_writers[] = {{"", 1}, {NULL, 0}};

/* Shortest %g text of x that reads back as exactly x. */
static int shortest(double x, char *buf, size_t size)
{
	int n = 0;

	/* %g writes 80 as "8e+01" at one digit: prefer a form without an exponent */
	for (int prec = 1; prec <= 17; prec++) {
		n = snprintf(buf, size, "%.*g", prec, x);
		if (!strchr(buf, 'e') && strtod(buf, NULL) == x)
			return n;
	}
	for (int prec = 1; prec <= 17; prec++) {
		n = snprintf(buf, size, "%.*g", prec, x);
		if (strtod(buf, NULL) == x)
			return n;
	}
	return n;
}

/* Writes v with the first suffix (largest first) that leaves a value >= 1 and reads back
 * exactly; durations also want a whole number where a smaller unit gives one ("90m" not
 * "1.5h" is not required: both read back, the shorter text wins). */
static int format_with(const struct writer *w, enum unit_kind kind, double v, char *buf,
		       size_t size)
{
	char best[64] = "", tmp[64], num[40];
	size_t bestlen = (size_t)-1;

	if (v == 0)
		return snprintf(buf, size, "0%s", kind == UNIT_BITS_PER_S ? "b/s" : "");
	for (; w->text; w++) {
		double x = v / w->scale, back;
		if (fabs(x) < 1 && w[1].text)
			continue;
		shortest(x, num, sizeof(num));
		if (strchr(num, 'e')) /* keep exponents out of files when a suffix can do it */
			continue;
		snprintf(tmp, sizeof(tmp), "%s%s", num, w->text);
		if (units_parse(kind, tmp, &back, NULL) != 0 || back != v)
			continue;
		if (strlen(tmp) < bestlen) {
			bestlen = strlen(tmp);
			memcpy(best, tmp, sizeof(best));
		}
	}
	if (!best[0]) { /* fall back to the base unit in full precision */
		shortest(v, num, sizeof(num));
		return snprintf(buf, size, "%s", num);
	}
	return snprintf(buf, size, "%s", best);
}

int units_format(enum unit_kind kind, double value, char *buf, size_t size)
{
	char a[64], b[64];

	switch (kind) {
	case UNIT_COUNT:
		return format_with(count_writers, kind, value, buf, size);
	case UNIT_BYTES:
		format_with(byte_writers, kind, value, a, sizeof(a));
		format_with(byte_bin_writers, kind, value, b, sizeof(b));
		/* 80GiB reads better than 85.89934592GB; take the shorter that round-trips */
		if (value != 0 && strlen(b) < strlen(a) && strchr(b, 'i'))
			return snprintf(buf, size, "%s", b);
		return snprintf(buf, size, "%s", a);
	case UNIT_BYTES_PER_S:
		return format_with(bw_writers, kind, value, buf, size);
	case UNIT_BITS_PER_S:
		return format_with(bits_writers, kind, value, buf, size);
	case UNIT_SECONDS:
		return format_with(duration_writers, kind, value, buf, size);
	case UNIT_FLOPS:
		return format_with(flops_writers, kind, value, buf, size);
	case UNIT_WATTS:
		return format_with(watt_writers, kind, value, buf, size);
	case UNIT_NONE:
	case UNIT_RATIO:
	case UNIT_USD:
		break;
	}
	return format_with(plain_writers, kind, value, buf, size);
}

/* Human form: sig significant digits, trailing zeros trimmed. */
static int human_num(double x, int sig, char *buf, size_t size)
{
	char *dot, *e;
	int n;

	if (fabs(x) >= 1e6 || (x != 0 && fabs(x) < 1e-3))
		return snprintf(buf, size, "%.*g", sig, x);
	n = snprintf(buf, size, "%.*g", sig, x);
	if (strchr(buf, 'e')) { /* %g chose an exponent for e.g. 123456 at sig 3: print whole */
		n = snprintf(buf, size, "%.0f", x);
		return n;
	}
	dot = strchr(buf, '.');
	if (dot) {
		e = buf + strlen(buf) - 1;
		while (e > dot && *e == '0')
			*e-- = '\0';
		if (e == dot)
			*e = '\0';
		n = (int)strlen(buf);
	}
	return n;
}

static int human_scaled(const struct writer *w, double v, int sig, const char *sep, char *buf,
			size_t size)
{
	char num[48];

	for (; w->text; w++)
		if (fabs(v) >= w->scale * 0.9995 || !w[1].text)
			break;
	if (!w->text)
		w--;
	human_num(v / w->scale, sig, num, sizeof(num));
	return snprintf(buf, size, "%s%s%s", num, w->text[0] ? sep : "", w->text);
}

int units_format_human(enum unit_kind kind, double value, int sig, char *buf, size_t size)
{
	static const struct writer human_durations[] = {{"y", 31557600}, {"d", 86400}, {"h", 3600},
							{"min", 60},	 {"s", 1},     {"ms", 1e-3},
							{"us", 1e-6},	 {NULL, 0}};
	static const struct writer human_counts[] = {{"T", 1e12}, {"B", 1e9}, {"M", 1e6},
						     {"k", 1e3},  {"", 1},    {NULL, 0}};
	static const struct writer human_bw[] = {{"TB/s", 1e12}, {"GB/s", 1e9}, {"MB/s", 1e6},
						 {"kB/s", 1e3},	 {"B/s", 1},	{NULL, 0}};
	static const struct writer human_flops[] = {
	    {"PFLOP/s", 1e15}, {"TFLOP/s", 1e12}, {"GFLOP/s", 1e9}, {"FLOP/s", 1}, {NULL, 0}};
	static const struct writer human_watts[] = {{"kW", 1e3}, {"W", 1}, {NULL, 0}};
	char num[48];

	if (isnan(value))
		return snprintf(buf, size, "-");
	if (isinf(value))
		return snprintf(buf, size, value > 0 ? "inf" : "-inf");
	switch (kind) {
	case UNIT_COUNT:
		if (value != 0 && fabs(value) < 1)
			break;
		return human_scaled(human_counts, value, sig, "", buf, size);
	case UNIT_BYTES:
		if (value == 0)
			return snprintf(buf, size, "0 B");
		/* binary, as the hardware has it and as nvidia-smi (MiB) and torch.cuda's
		 * bytes / 2**30 give it: an "80GB" H100 is "80 GiB" (issue 14) */
		return human_scaled(byte_bin_writers, value, sig, " ", buf, size);
	case UNIT_BYTES_PER_S:
		return human_scaled(human_bw, value, sig, " ", buf, size);
	case UNIT_BITS_PER_S: {
		static const struct writer hb[] = {{"Tb/s", 1e12 / 8},
						   {"Gb/s", 1e9 / 8},
						   {"Mb/s", 1e6 / 8},
						   {"b/s", 1 / 8.0},
						   {NULL, 0}};
		return human_scaled(hb, value, sig, " ", buf, size);
	}
	case UNIT_SECONDS:
		if (value == 0)
			return snprintf(buf, size, "0 s");
		if (fabs(value) >= 999.5 * 31557600) { /* thousands of years: "643k y" */
			human_scaled(human_counts, value / 31557600, sig, "", num, sizeof(num));
			return snprintf(buf, size, "%s y", num);
		}
		return human_scaled(human_durations, value, sig, " ", buf, size);
	case UNIT_FLOPS:
		return human_scaled(human_flops, value, sig, " ", buf, size);
	case UNIT_WATTS:
		return human_scaled(human_watts, value, sig, " ", buf, size);
	case UNIT_RATIO:
		human_num(value * 100, sig, num, sizeof(num));
		return snprintf(buf, size, "%s%%", num);
	case UNIT_USD:
		/* money is written one way, in the reports as in the results pane */
		return units_format_usd(value, buf, size);
	case UNIT_NONE:
		break;
	}
	human_num(value, sig, num, sizeof(num));
	return snprintf(buf, size, "%s", num);
}

const char *units_kind_name(enum unit_kind kind)
{
	static const char *const names[] = {
	    [UNIT_NONE] = "none",	  [UNIT_COUNT] = "count",
	    [UNIT_BYTES] = "bytes",	  [UNIT_BYTES_PER_S] = "bytes/s",
	    [UNIT_BITS_PER_S] = "bits/s", [UNIT_SECONDS] = "seconds",
	    [UNIT_FLOPS] = "flops",	  [UNIT_WATTS] = "watts",
	    [UNIT_RATIO] = "ratio",	  [UNIT_USD] = "usd",
	};

	if ((unsigned)kind >= sizeof(names) / sizeof(names[0]) || !names[kind])
		return "?";
	return names[kind];
}

int units_format_num3(double value, char *buf, size_t size)
{
	double m = fabs(value);

	/* %.3g below 1: $0.0762 per million tokens is not $0.08 */
	return snprintf(buf, size,
			m >= 100  ? "%.0f"
			: m >= 10 ? "%.1f"
			: m >= 1  ? "%.2f"
				  : "%.3g",
			value);
}

int units_format_usd(double usd, char *buf, size_t size)
{
	char n[48];

	if (!isfinite(usd))
		return snprintf(buf, size, "-");
	if (fabs(usd) >= 1e4)
		units_format_human(UNIT_COUNT, usd, 3, n, sizeof(n));
	else
		units_format_num3(usd, n, sizeof(n));
	return snprintf(buf, size, "$%s", n);
}

int units_format_usd_cents(double usd, char *buf, size_t size)
{
	return snprintf(buf, size, "$%.2f", usd);
}

int units_format_tflops(double flops, char *buf, size_t size)
{
	return snprintf(buf, size, "%.0f TF", flops / 1e12);
}

int units_format_percent(double ratio, int sig, char *buf, size_t size)
{
	if (sig <= 0)
		return snprintf(buf, size, "%.0f%%", ratio * 100);
	return snprintf(buf, size, "%.*g%%", sig, ratio * 100);
}

int units_format_share(double share, char *buf, size_t size)
{
	double pct = isfinite(share) && share > 0 ? share * 100 : 0;

	if (pct < 999.5)
		return snprintf(buf, size, "%4.0f%%", pct);
	if (share < 9999.5)
		return snprintf(buf, size, "%4.0fx", share);
	return snprintf(buf, size, ">1e4x");
}

/* Takes the spaces out of buf; returns its new length. */
static int squeeze(char *buf)
{
	char *d = buf;

	for (const char *s = buf; *s; s++)
		if (*s != ' ')
			*d++ = *s;
	*d = '\0';
	return (int)(d - buf);
}

int units_format_compact(enum unit_kind kind, double value, char *buf, size_t size)
{
	char t[64];
	double m = fabs(value);
	int n;

	if (!isfinite(value) && kind != UNIT_BYTES)
		return snprintf(buf, size, "-");
	if (kind == UNIT_USD) {
		if (m >= 1e4) {
			units_format_compact(UNIT_COUNT, value, t, sizeof(t));
			return snprintf(buf, size, "$%s", t);
		}
		/* %.3f below $1, not three significant digits: "$0.076" keeps six columns */
		return snprintf(buf, size,
				m >= 100  ? "$%.0f"
				: m >= 10 ? "$%.1f"
				: m >= 1  ? "$%.2f"
					  : "$%.3f",
				value);
	}
	units_format_human(kind, value, 3, t, sizeof(t));
	n = squeeze(t);
	/* "63.4GiB" to "63.4G" (binary, as ls -h and free -h write it); "512B" keeps its B */
	if (kind == UNIT_BYTES && n > 2 && t[n - 1] == 'B' && t[n - 2] == 'i') {
		n -= 2;
		t[n] = '\0';
	}
	return snprintf(buf, size, "%s", t);
}

int units_format_energy(double kwh, char *buf, size_t size)
{
	/* from kWh up to TWh, so "151 TWh" is not "151000000 kWh" nor "1.51e+08 kWh" */
	static const struct {
		double at, div;
		const char *unit;
	} scale[] = {{999.5e6, 1e9, "TWh"}, {999.5e3, 1e6, "GWh"}, {999.5, 1e3, "MWh"}};
	char n[48];
	double div = 1;
	const char *unit = "kWh";

	if (!isfinite(kwh))
		return snprintf(buf, size, "-");
	for (size_t i = 0; i < sizeof(scale) / sizeof(scale[0]); i++) {
		if (kwh >= scale[i].at) {
			div = scale[i].div;
			unit = scale[i].unit;
			break;
		}
	}
	units_format_num3(kwh / div, n, sizeof(n));
	return snprintf(buf, size, "%s %s", n, unit);
}

int units_format_layout(const struct parallel *par, enum units_layout style, bool training,
			char *buf, size_t size)
{
	const char *sep = style == UNITS_LAYOUT_PANE ? "  " : ", ";
	int n;

#define MORE(...)                                                                                  \
	do {                                                                                       \
		if (n >= 0 && (size_t)n < size)                                                    \
			n += snprintf(buf + n, size - (size_t)n, __VA_ARGS__);                     \
	} while (0)
	/* the replica's shape alone: tp x pp (x ep), without the replicas (dp) */
	switch (style) {
	case UNITS_LAYOUT_TIMES:
	case UNITS_LAYOUT_TIMES_EP:
		n = snprintf(buf, size, "tp %d x pp %d", par->tp, par->pp);
		if (style == UNITS_LAYOUT_TIMES_EP || par->ep > 1)
			MORE(" x ep %d", par->ep);
		return n;
	case UNITS_LAYOUT_TERSE:
		return snprintf(buf, size, "tp %d pp %d", par->tp, par->pp);
	default:
		break;
	}
	n = snprintf(buf, size, "tp %d%spp %d%sdp %d", par->tp, sep, par->pp, sep, par->dp);
	switch (style) {
	case UNITS_LAYOUT_BRIEF:
		/* context parallelism multiplies the GPUs: shown wherever it is on */
		if (training && par->cp > 1)
			MORE(", cp %d", par->cp);
		break;
	case UNITS_LAYOUT_PANE:
		MORE("%sep %d", sep, par->ep);
		if (training && par->cp > 1)
			MORE("%scp %d", sep, par->cp);
		break;
	case UNITS_LAYOUT_SEARCH:
		if (par->ep > 1)
			MORE(", ep %d", par->ep);
		if (training && par->cp > 1)
			MORE(", cp %d", par->cp);
		if (training && par->virtual_stages > 1)
			MORE(", v %d", par->virtual_stages);
		break;
	case UNITS_LAYOUT_REPORT:
		MORE(", ep %d", par->ep);
		if (training && par->cp > 1)
			MORE(", cp %d", par->cp);
		if (par->virtual_stages > 1)
			MORE(", %d virtual stages", par->virtual_stages);
		if (!training)
			break;
		MORE(", ZeRO %d", par->zero);
		if (par->sequence_parallel)
			MORE(", sequence parallel");
		if (par->offload != OFFLOAD_NONE)
			MORE(", offload %s",
			     scenario_enum_name("parallel.offload", (int)par->offload));
		break;
	case UNITS_LAYOUT_TIMES:
	case UNITS_LAYOUT_TIMES_EP:
	case UNITS_LAYOUT_TERSE:
		break;
	}
#undef MORE
	return n;
}
