/* test_ui_field_edit.c - the field editor: the line editor's keys, typed values applied to a copy
 * (or refused with the scenario untouched), +/- steps, Left/Right cycling. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "field_edit.h"
#include "keys.h"

static void type(struct line_edit *e, const char *s)
{
	for (; *s; s++)
		assert_int_equal(line_edit_key(e, (unsigned char)*s), EDIT_CHANGED);
}

static void test_line_edit(void **state)
{
	struct line_edit e;
	(void)state;
	line_edit_set(&e, "4096");
	assert_int_equal(e.cur, 4);
	type(&e, "0");
	assert_string_equal(e.buf, "40960");
	assert_int_equal(line_edit_key(&e, KEYF(KEY_BACKSPACE)), EDIT_CHANGED);
	assert_int_equal(line_edit_key(&e, 127), EDIT_CHANGED);
	assert_string_equal(e.buf, "409");
	assert_int_equal(line_edit_key(&e, KEYF(KEY_HOME)), EDIT_MOVED);
	type(&e, "1");
	assert_string_equal(e.buf, "1409");
	assert_int_equal(line_edit_key(&e, KEYF(KEY_DC)), EDIT_CHANGED);
	assert_string_equal(e.buf, "109");
	assert_int_equal(line_edit_key(&e, KEY_CTRL('k')), EDIT_CHANGED);
	assert_string_equal(e.buf, "1");
	line_edit_set(&e, "set workload.seq_len");
	assert_int_equal(line_edit_key(&e, KEY_CTRL('w')), EDIT_CHANGED);
	assert_string_equal(e.buf, "set ");
	assert_int_equal(line_edit_key(&e, KEY_CTRL('u')), EDIT_CHANGED);
	assert_string_equal(e.buf, "");
	assert_int_equal(line_edit_key(&e, KEYF(KEY_BACKSPACE)), EDIT_MOVED);
	assert_int_equal(line_edit_key(&e, '\r'), EDIT_ACCEPT);
	assert_int_equal(line_edit_key(&e, KEY_ESC), EDIT_CANCEL);
	assert_int_equal(line_edit_key(&e, KEYF(KEY_F(1))), EDIT_UNHANDLED);
}

static void test_line_edit_utf8(void **state)
{
	struct line_edit e;
	(void)state;
	line_edit_set(&e, "");
	assert_int_equal(line_edit_key(&e, 0xe9), EDIT_CHANGED); /* é */
	assert_int_equal(line_edit_key(&e, 'x'), EDIT_CHANGED);
	assert_string_equal(e.buf, "\xc3\xa9x");
	assert_int_equal(line_edit_cursor_col(&e), 2);
	line_edit_key(&e, KEYF(KEY_LEFT));
	line_edit_key(&e, KEYF(KEY_LEFT));
	assert_int_equal(e.cur, 0);
	line_edit_key(&e, KEYF(KEY_RIGHT));
	assert_int_equal(e.cur, 2); /* over the whole character */
	line_edit_key(&e, KEYF(KEY_BACKSPACE));
	assert_string_equal(e.buf, "x");
}

static void test_line_edit_full(void **state)
{
	struct line_edit e;
	(void)state;
	line_edit_set(&e, "");
	for (int i = 0; i < LINE_EDIT_MAX + 10; i++)
		line_edit_key(&e, 'a');
	assert_int_equal(e.len, LINE_EDIT_MAX - 1);
	assert_int_equal((int)strlen(e.buf), e.len);
}

static void test_apply(void **state)
{
	struct scenario base, out;
	const struct field *f = scenario_field_find("workload.seq_len");
	struct gp_error err;
	(void)state;
	scenario_init(&base);
	out = base;
	assert_int_equal(field_edit_apply(&base, NULL, f, "32k", &out, &err), 0);
	assert_int_equal(out.workload.seq_len, 32000);
	assert_int_equal(base.workload.seq_len, 4096); /* the base is a copy */
	/* a value that does not read leaves out as it was */
	out.workload.seq_len = 777;
	memset(&err, 0, sizeof(err));
	assert_int_equal(field_edit_apply(&base, NULL, f, "32x", &out, &err), -1);
	assert_int_equal(out.workload.seq_len, 777);
	assert_true(strstr(err.message, "32x") != NULL);
	assert_int_equal(field_edit_apply(&base, NULL, f, "  ", &out, &err), -1);
	assert_int_equal(field_edit_apply(&base, NULL, f, "0", &out, &err), -1); /* range */
	f = scenario_field_find("hardware.network");
	assert_int_equal(field_edit_apply(&base, NULL, f, "400Gb/s", &out, &err), 0);
	assert_true(out.hardware.gpu.network_bytes_per_s == 50e9);
}

static void test_step_doubles(void **state)
{
	struct scenario s;
	const struct field *count = scenario_field_find("hardware.count");
	const struct field *layers = scenario_field_find("model.layers");
	const struct field *mb = scenario_field_find("workload.micro_batch");
	struct gp_error err;
	(void)state;
	scenario_init(&s);
	s.hardware.count = 8;
	assert_true(field_step_doubles(count));
	assert_false(field_step_doubles(layers));
	assert_int_equal(field_step(&s, NULL, count, +1, 0, &err), 0);
	assert_int_equal(s.hardware.count, 16);
	assert_int_equal(field_step(&s, NULL, count, -1, 0, &err), 0);
	assert_int_equal(field_step(&s, NULL, count, -1, 0, &err), 0);
	assert_int_equal(s.hardware.count, 4);
	s.hardware.count = 1;
	assert_int_equal(field_step(&s, NULL, count, -1, 0, &err), -1); /* at the minimum */
	assert_int_equal(s.hardware.count, 1);
	s.model.layers = 32;
	assert_int_equal(field_step(&s, NULL, layers, +1, 0, &err), 0);
	assert_int_equal(s.model.layers, 33);
	s.workload.micro_batch = 1;
	assert_int_equal(field_step(&s, NULL, mb, +1, 0, &err), 0);
	assert_int_equal(s.workload.micro_batch, 2);
	/* an odd count halves down to a whole number */
	s.hardware.count = 3;
	assert_int_equal(field_step(&s, NULL, count, -1, 0, &err), 0);
	assert_int_equal(s.hardware.count, 1);
}

static void test_step_auto(void **state)
{
	struct scenario s;
	const struct field *dp = scenario_field_find("parallel.dp");
	const struct field *gb = scenario_field_find("workload.global_batch");
	struct gp_error err;
	(void)state;
	scenario_init(&s);
	assert_int_equal(s.parallel.dp, 0); /* auto */
	/* from auto, + starts at what auto resolved to */
	assert_int_equal(field_step(&s, NULL, dp, +1, 8, &err), 0);
	assert_int_equal(s.parallel.dp, 16);
	s.parallel.dp = 0;
	assert_int_equal(field_step(&s, NULL, dp, -1, 8, &err), -1); /* already auto */
	/* below the minimum of a field that takes auto gives auto */
	s.workload.global_batch = 1;
	assert_int_equal(field_step(&s, NULL, gb, -1, 0, &err), 0);
	assert_int_equal(s.workload.global_batch, 0);
	/* parallel.zero, whose auto is ZERO_AUTO (0 is a stage): 0 - is auto, auto - stays,
	 * auto + leaves auto for a stage, 3 + is at the maximum */
	{
		const struct field *z = scenario_field_find("parallel.zero");
		char buf[16];
		assert_int_equal(s.parallel.zero, ZERO_AUTO);
		assert_int_equal(field_step(&s, NULL, z, -1, 0, &err), -1);
		assert_int_equal(field_step(&s, NULL, z, +1, 0, &err), 0);
		assert_int_equal(s.parallel.zero, 1);
		assert_int_equal(field_step(&s, NULL, z, -1, 0, &err), 0);
		assert_int_equal(s.parallel.zero, 0);
		assert_string_equal(scenario_field_format(&s, z, buf, sizeof(buf)), "0");
		assert_int_equal(field_step(&s, NULL, z, -1, 0, &err), 0);
		assert_int_equal(s.parallel.zero, ZERO_AUTO);
		assert_string_equal(scenario_field_format(&s, z, buf, sizeof(buf)), "auto");
		assert_int_equal(field_step(&s, NULL, z, +1, 3, &err), 0);
		assert_int_equal(s.parallel.zero, 3);
		assert_int_equal(field_step(&s, NULL, z, +1, 3, &err), -1);
	}
}

static void test_step_num(void **state)
{
	struct scenario s;
	const struct field *net = scenario_field_find("hardware.network");
	const struct field *price = scenario_field_find("hardware.price_per_gpu_hour");
	const struct field *mfu = scenario_field_find("efficiency.mfu");
	const struct field *tokens = scenario_field_find("workload.tokens");
	struct gp_error err;
	(void)state;
	scenario_init(&s);
	s.hardware.gpu.network_bytes_per_s = 50e9;
	assert_int_equal(field_step(&s, NULL, net, +1, 0, &err), 0);
	assert_true(s.hardware.gpu.network_bytes_per_s == 100e9);
	s.hardware.gpu.price_per_hour = 2.0;
	assert_int_equal(field_step(&s, NULL, price, +1, 0, &err), 0);
	assert_true(s.hardware.gpu.price_per_hour == 2.2);
	assert_int_equal(field_step(&s, NULL, mfu, +1, 0.4, &err), 0);
	assert_true(s.efficiency.mfu > 0.449 && s.efficiency.mfu < 0.451);
	/* a count that is not set cannot be doubled */
	s.workload.tokens = 0;
	assert_int_equal(field_step(&s, NULL, tokens, +1, 0, &err), -1);
	assert_true(err.message[0] != '\0');
}

static void test_cycle(void **state)
{
	struct scenario s;
	const struct field *kind = scenario_field_find("workload.kind");
	const struct field *prec = scenario_field_find("workload.precision");
	const struct field *fa = scenario_field_find("workload.flash_attention");
	const struct field *seq = scenario_field_find("workload.seq_len");
	(void)state;
	scenario_init(&s);
	assert_true(field_is_choice(kind));
	assert_false(field_is_choice(seq));
	assert_int_equal(field_cycle(&s, NULL, kind, +1), 0);
	assert_int_equal(s.workload.kind, WL_FINETUNE);
	assert_int_equal(field_cycle(&s, NULL, kind, -1), 0);
	assert_int_equal(field_cycle(&s, NULL, kind, -1), 0); /* wraps */
	assert_int_equal(s.workload.kind, WL_OFFLINE);
	/* auto (PRECISION_AUTO) by default: the last choice, so it wraps to the first */
	assert_int_equal(s.workload.precision, PRECISION_AUTO);
	assert_int_equal(field_cycle(&s, NULL, prec, +1), 0);
	assert_int_equal(s.workload.precision, DTYPE_FP32);
	assert_int_equal(field_cycle(&s, NULL, prec, -1), 0);
	assert_int_equal(s.workload.precision, PRECISION_AUTO);
	s.workload.precision = DTYPE_BF16;
	assert_int_equal(field_cycle(&s, NULL, prec, +1), 0);
	assert_int_equal(s.workload.precision, DTYPE_FP16);
	assert_int_equal(field_cycle(&s, NULL, prec, +1), 0);
	assert_int_equal(s.workload.precision, DTYPE_FP8);
	/* then the microscaling formats, then it wraps */
	assert_int_equal(field_cycle(&s, NULL, prec, +1), 0);
	assert_int_equal(s.workload.precision, DTYPE_NVFP4);
	assert_int_equal(field_cycle(&s, NULL, prec, +1), 0);
	assert_int_equal(s.workload.precision, DTYPE_MXFP4);
	assert_int_equal(field_cycle(&s, NULL, prec, +1), 0);
	assert_int_equal(s.workload.precision, DTYPE_FP6);
	assert_int_equal(field_cycle(&s, NULL, prec, +1), 0);
	assert_int_equal(s.workload.precision, PRECISION_AUTO);
	assert_true(s.workload.flash_attention);
	assert_int_equal(field_cycle(&s, NULL, fa, +1), 0);
	assert_false(s.workload.flash_attention);
	assert_int_equal(field_cycle(&s, NULL, seq, +1), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_line_edit),	   cmocka_unit_test(test_line_edit_utf8),
	    cmocka_unit_test(test_line_edit_full), cmocka_unit_test(test_apply),
	    cmocka_unit_test(test_step_doubles),   cmocka_unit_test(test_step_auto),
	    cmocka_unit_test(test_step_num),	   cmocka_unit_test(test_cycle),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
