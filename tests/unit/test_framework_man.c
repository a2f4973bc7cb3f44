/* test_framework_man.c - gpuplan-scenario(5)'s FRAMEWORKS section against src/framework.c.
 *
 * Issue 12: each framework is a documented bundle of defaults, each with its source, in a
 * comment and in the man page. Every row of the framework table has an entry (".TP" then
 * ".B NAME") in the section, and that entry holds the row's title, each part of its source
 * (framework_info.source, split at "; "), the numbers it sets (slack, memory outside the
 * allocator, memory fraction, KV block, loss chunks, TP overlap chunks, elementwise
 * traffic) and, for a serving framework, its engine and the schedulers, token budgets and
 * running caps it serves with on the GPUs and in the contexts of framework_serving; no
 * entry names a framework the table lacks. So a row added, dropped or changed in the table
 * fails here until the page says so. */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cmocka.h>

#include "framework.h"
#include "scenario.h"

#define MAN "man/gpuplan-scenario.5"

static char *page;	/* the whole man page */
static const char *sec; /* its FRAMEWORKS section, up to end */
static const char *end;

static int setup(void **state)
{
	FILE *f = fopen(MAN, "rb");
	long n;
	(void)state;
	if (!f)
		return -1;
	if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0 ||
	    !(page = malloc((size_t)n + 1)) || fread(page, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		return -1;
	}
	fclose(f);
	page[n] = '\0';
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	free(page);
	return 0;
}

/* The section from its ".SH FRAMEWORKS" line to the next ".SH". */
static void find_section(void)
{
	sec = strstr(page, "\n.SH FRAMEWORKS\n");
	if (!sec)
		fail_msg("%s: no .SH FRAMEWORKS section", MAN);
	sec += strlen("\n.SH FRAMEWORKS\n");
	end = strstr(sec, "\n.SH ");
	if (!end)
		end = sec + strlen(sec);
}

/* The text of roff source [s, e) as a reader sees it, near enough to search: comment lines
 * dropped, a request's name dropped (".BR a b" reads "a b"), quotes and font changes
 * removed, \- and \(en as '-', \& as nothing, every run of white space one blank. */
static char *plain_text(const char *s, const char *e)
{
	char *out = malloc((size_t)(e - s) + 2), *o = out;
	assert_non_null(out);
	while (s < e) {
		const char *nl = memchr(s, '\n', (size_t)(e - s));
		const char *le = nl ? nl : e;
		if (le - s >= 3 && strncmp(s, ".\\\"", 3) == 0) {
			s = le + 1;
			continue;
		}
		if (*s == '.') {
			while (s < le && !isspace((unsigned char)*s))
				s++;
		}
		for (; s < le; s++) {
			if (*s == '"')
				continue;
			if (*s == '\\' && s + 1 < le) {
				if (s[1] == '-') {
					*o++ = '-';
					s++;
				} else if (s[1] == '&') {
					s++;
				} else if (s[1] == 'f' && s + 2 < le) {
					s += 2;
				} else if (s[1] == '(' && s + 3 < le) {
					*o++ = s[2] == 'e' && s[3] == 'n' ? '-' : '?';
					s += 3;
				} else {
					*o++ = *s;
				}
				continue;
			}
			if (isspace((unsigned char)*s)) {
				if (o > out && o[-1] != ' ')
					*o++ = ' ';
			} else {
				*o++ = *s;
			}
		}
		if (o > out && o[-1] != ' ')
			*o++ = ' ';
		s = le + 1;
	}
	*o = '\0';
	return out;
}

/* The name an entry's tag line [tag, tag_end) gives, as plain text (free it). */
static char *tag_name(const char *tag, const char *tag_end)
{
	char *got = plain_text(tag, tag_end);
	size_t n = strlen(got);
	if (n > 0 && got[n - 1] == ' ')
		got[n - 1] = '\0';
	return got;
}

/* The entry of framework name: the lines after ".TP" and ".B NAME" up to the next ".TP" or
 * the section's end, as plain text (free it); NULL when there is none. */
static char *entry_of(const char *name)
{
	for (const char *p = strstr(sec, "\n.TP\n.B "); p && p < end;
	     p = strstr(p + 1, "\n.TP\n.B ")) {
		const char *tag = p + 8, *tag_end = strchr(tag, '\n'), *next;
		char *got;
		bool match;
		if (!tag_end || tag_end > end)
			break;
		got = tag_name(tag, tag_end);
		match = strcmp(got, name) == 0;
		free(got);
		if (!match)
			continue;
		next = strstr(tag_end, "\n.TP\n");
		return plain_text(tag_end + 1, next && next < end ? next : end);
	}
	return NULL;
}

/* Whether text holds the number as a word: no digit or '.' before it, no digit after it
 * (a '.' after it only as a full stop). */
static bool has_number(const char *text, const char *num)
{
	size_t n = strlen(num);
	for (const char *p = strstr(text, num); p; p = strstr(p + 1, num)) {
		char before = p > text ? p[-1] : ' ', after = p[n];
		if (isdigit((unsigned char)before) || before == '.')
			continue;
		if (isdigit((unsigned char)after) ||
		    (after == '.' && isdigit((unsigned char)p[n + 1])))
			continue;
		return true;
	}
	return false;
}

static void need_number(const char *fw, const char *entry, const char *what, const char *fmt,
			double v)
{
	char num[32];
	snprintf(num, sizeof(num), fmt, v);
	if (!has_number(entry, num))
		fail_msg("%s FRAMEWORKS, %s: %s %s missing", MAN, fw, what, num);
}

/* Whether text holds s, ignoring case (a title starts a sentence). */
static bool has_text(const char *text, const char *s)
{
	size_t n = strlen(s);
	for (; *text; text++)
		if (strncasecmp(text, s, n) == 0)
			return true;
	return false;
}

static void need_text(const char *fw, const char *entry, const char *what, const char *text)
{
	if (!has_text(entry, text))
		fail_msg("%s FRAMEWORKS, %s: %s '%s' missing", MAN, fw, what, text);
}

/* Under load, the scheduler, token budget and running cap framework f serves with
 * (framework_serving, workload.scheduler auto) on a 24 GiB card, an 80 GiB A100 and H100
 * and a 192 GiB B200, online and offline, with CUDA-graph or llama.cpp kernels: each
 * scheduler's name ("scheduler chunked") and each count the entry must give. */
static void need_serving(const char *name, int f, const char *entry)
{
	static const struct {
		double gib;
		const char *id;
	} gpus[] = {{24, "rtx-4090"}, {80, "a100-sxm-80gb"}, {80, "h100-sxm-80gb"}, {192, "b200"}};
	for (size_t g = 0; g < sizeof(gpus) / sizeof(gpus[0]); g++)
		for (int mode = 0; mode < 4; mode++) {
			struct serving_engine o;
			char sched[64];
			framework_serving(f, SCHED_AUTO, mode & 1, mode & 2,
					  gpus[g].gib * 1073741824.0, gpus[g].id, &o);
			snprintf(sched, sizeof(sched), "scheduler %s", scheduler_name(o.sched));
			need_text(name, entry, "scheduler", sched);
			if (o.max_batched_tokens > 0)
				need_number(name, entry, "token budget", "%g",
					    o.max_batched_tokens);
			if (o.max_running > 0)
				need_number(name, entry, "running cap", "%g", o.max_running);
		}
}

static void test_every_framework_documented(void **state)
{
	(void)state;
	find_section();
	for (int f = 0; f < FW_COUNT; f++) {
		const struct framework_info *fw = framework_get(f);
		const char *name = framework_names[f];
		char *entry = entry_of(name);
		char part[256];
		if (!entry)
			fail_msg("%s FRAMEWORKS: no entry for framework %s (a line '.B %s' after "
				 ".TP)",
				 MAN, name, name);
		need_text(name, entry, "title", fw->title);
		/* workload.grad_dtype auto: "gradients fp32" */
		if (fw->trains) {
			snprintf(part, sizeof(part), "gradients %s", dtype_name(fw->grad_dtype));
			need_text(name, entry, "gradient dtype", part);
			/* parallel.zero auto: "ZeRO stage 3 by default" */
			snprintf(part, sizeof(part), "ZeRO stage %d by default",
				 framework_zero(f, ZERO_AUTO, 8));
			need_text(name, entry, "ZeRO stage", part);
		}
		/* each part of the source, as the table gives it */
		for (const char *s = fw->source; *s;) {
			const char *semi = strstr(s, "; ");
			size_t n = semi ? (size_t)(semi - s) : strlen(s);
			assert_true(n < sizeof(part));
			memcpy(part, s, n);
			part[n] = '\0';
			if (!strstr(entry, part))
				fail_msg("%s FRAMEWORKS, %s: source '%s' missing", MAN, name, part);
			s += n + (semi ? 2 : 0);
		}
		if (fw->reserved_slack > 0)
			need_number(name, entry, "reserved slack", "%g%%",
				    fw->reserved_slack * 100);
		else if (!strstr(entry, "no slack") && !strstr(entry, "no allocator slack"))
			fail_msg("%s FRAMEWORKS, %s: 'no slack' missing", MAN, name);
		if (fw->non_torch_bytes == 0.75e9)
			need_text(name, entry, "memory outside the allocator", "0.75 GB");
		else
			need_number(name, entry, "non-torch memory (GiB)", "%g",
				    fw->non_torch_bytes / 1073741824.0);
		/* the counts and fractions the row sets (0: none, nothing to say) */
		const struct {
			const char *what;
			double v;
		} nums[] = {
		    {"memory fraction", fw->mem_fraction},
		    {"KV block tokens", fw->kv_block_tokens},
		    {"loss chunks", fw->loss_chunks},
		    {"TP overlap chunks", fw->tp_overlap_chunks},
		    {"h-sized elementwise elements, forward", fw->elt_h_fwd},
		    {"h-sized elementwise elements, backward", fw->elt_h_bwd},
		};
		for (size_t i = 0; i < sizeof(nums) / sizeof(nums[0]); i++)
			if (nums[i].v > 0)
				need_number(name, entry, nums[i].what, "%g", nums[i].v);
		if (fw->serves) {
			need_serving(name, f, entry);
			need_text(name, entry, "engine",
				  fw->kernels == FW_KERNELS_GRAPHS ? "engine cuda-graphs"
				  : fw->kernels == FW_KERNELS_LLAMACPP
				      ? "engine llama.cpp"
				      : "engine by the GPU's class");
		}
		free(entry);
	}
}

/* No entry names a framework the table lacks, and the section has one entry a row. */
static void test_no_other_entries(void **state)
{
	int entries = 0;
	(void)state;
	find_section();
	for (const char *p = strstr(sec, "\n.TP\n.B "); p && p < end;
	     p = strstr(p + 1, "\n.TP\n.B ")) {
		const char *tag = p + 8, *tag_end = strchr(tag, '\n');
		char *got = tag_name(tag, tag_end ? tag_end : end);
		bool known = false;
		for (int f = 0; f < FW_COUNT; f++)
			known |= strcmp(got, framework_names[f]) == 0;
		if (!known)
			fail_msg("%s FRAMEWORKS: entry '%s' is not a framework of src/framework.c",
				 MAN, got);
		free(got);
		entries++;
	}
	assert_int_equal(entries, FW_COUNT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_every_framework_documented),
	    cmocka_unit_test(test_no_other_entries),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
