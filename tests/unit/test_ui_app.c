/* test_ui_app.c - the UI's state machine without a terminal: keys change the scenario through the
 * field editor, the picker and the : line; undo, redo, baseline, save and open, quitting. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <locale.h>

#define UI_APP_TWO_OF_EACH
#include "ui_app_fixture.h"

static void key(int k)
{
	app_handle_key(&app, k);
	app_compute(&app);
}

static const char *selected(void)
{
	const struct field *f = app_selected_field(&app);
	return f ? f->key : "";
}

/* Focuses input pane (keys "1" to "3") and moves down to the row of key, as a person would:
 * the check counts no rows, so a field added to the pane moves nothing here. */
static void select_key(const char *pane, const char *key)
{
	keys(pane);
	for (int i = 0; i < 60 && strcmp(selected(), key) != 0; i++)
		keys("j");
}

static void test_start(void **state)
{
	(void)state;
	assert_int_equal(app.computes, 1);
	assert_false(app_unsaved(&app));
	assert_int_equal(app.focus, PANE_MODEL);
	assert_string_equal(selected(), "model.preset");
	assert_int_equal(app.mode, MODE_NORMAL);
	assert_true(app.nresult_items > 5);
}

static void test_step_undo_redo(void **state)
{
	unsigned long computes = app.computes;
	(void)state;
	keys("3j");
	assert_string_equal(selected(), "hardware.count"); /* the info line is skipped */
	assert_int_equal(app.computes, computes);           /* moving does not recompute */
	keys("+");
	assert_int_equal(app.scn.hardware.count, 16);
	assert_int_equal(app.computes, computes + 1);
	assert_true(app_unsaved(&app));
	keys("-");
	keys("-");
	assert_int_equal(app.scn.hardware.count, 4);
	keys("u");
	assert_int_equal(app.scn.hardware.count, 8);
	assert_false(app_unsaved(&app));
	keys("u");
	assert_int_equal(app.scn.hardware.count, 16);
	keys("u");
	assert_int_equal(app.scn.hardware.count, 8);
	key(KEY_CTRL('r'));
	assert_int_equal(app.scn.hardware.count, 16);
	/* a new edit drops the redo stack */
	keys("+");
	assert_int_equal(app.scn.hardware.count, 32);
	key(KEY_CTRL('r'));
	assert_int_equal(app.scn.hardware.count, 32);
}

static void test_typing(void **state)
{
	int nundo;
	double step_before;
	(void)state;
	select_key("2", "workload.seq_len");
	assert_string_equal(selected(), "workload.seq_len");
	step_before = app.plan.step_s;
	nundo = app.nundo;
	key('\r');
	assert_int_equal(app.mode, MODE_EDIT);
	assert_string_equal(app.line.buf, "8192");
	key(KEY_CTRL('u'));
	keys("2048");
	/* results follow while typing, before Enter */
	assert_int_equal(app.scn.workload.seq_len, 2048);
	assert_false(app.edit_error);
	assert_true(app.plan.step_s != step_before);
	/* a value that does not read: drawn as an error, the last good value stays */
	keys("x");
	assert_true(app.edit_error);
	assert_true(app.status_error);
	assert_int_equal(app.scn.workload.seq_len, 2048);
	key('\r'); /* Enter on an error stays in the editor */
	assert_int_equal(app.mode, MODE_EDIT);
	/* and says why the text does not read, not only that it does not */
	assert_non_null(strstr(app.status, "2048x"));
	assert_null(strstr(app.status, "does not read"));
	key(KEY_ESC);
	assert_int_equal(app.mode, MODE_NORMAL);
	assert_int_equal(app.scn.workload.seq_len, 8192);
	assert_int_equal(app.nundo, nundo);
	assert_true(app.plan.step_s == step_before);
	/* Enter commits, once, undoably */
	key('\r');
	key(KEY_CTRL('u'));
	keys("16k\r");
	assert_int_equal(app.mode, MODE_NORMAL);
	assert_int_equal(app.scn.workload.seq_len, 16000);
	assert_int_equal(app.nundo, nundo + 1);
	keys("u");
	assert_int_equal(app.scn.workload.seq_len, 8192);
}

/* A file a field names (model.hf_config) is read on Enter, not at each key of its name:
 * a half-typed path is no error, and the results keep the model they had until Enter. */
static void test_hf_config_read_on_enter(void **state)
{
	int layers;
	(void)state;
	keys("1");
	for (int i = 0; i < 40 && strcmp(selected(), "model.hf_config") != 0; i++)
		key('j');
	assert_string_equal(selected(), "model.hf_config");
	layers = app.scn.model.layers;
	key('\r');
	assert_int_equal(app.mode, MODE_EDIT);
	key(KEY_CTRL('u'));
	keys("tests/data/configs/Llama-2-70b-hf.jso");
	assert_false(app.edit_error);
	assert_false(app.status_error);
	assert_int_equal(app.scn.model.layers, layers);
	keys("n");
	assert_false(app.status_error);
	assert_int_equal(app.scn.model.layers, layers);
	key('\r');
	assert_int_equal(app.mode, MODE_NORMAL);
	assert_string_equal(app.scn.model.hf_config, "tests/data/configs/Llama-2-70b-hf.json");
	assert_int_equal(app.scn.model.layers, 80);
	/* one that does not read says why on Enter, and the editor stays */
	key('\r');
	key(KEY_CTRL('u'));
	keys("tests/data/configs/none.json");
	assert_false(app.status_error);
	key('\r');
	assert_int_equal(app.mode, MODE_EDIT);
	assert_true(app.edit_error);
	assert_true(app.status_error);
	assert_non_null(strstr(app.status, "none.json"));
	key(KEY_ESC);
	assert_int_equal(app.scn.model.layers, 80);
}

static void test_kind_shows_fields_that_apply(void **state)
{
	const struct pane_rows *r = &app.rows[PANE_WORKLOAD];
	bool seq = false, prompt = false;
	(void)state;
	keys("2");
	assert_string_equal(selected(), "workload.kind");
	key(KEYF(KEY_RIGHT));
	key(KEYF(KEY_RIGHT));
	assert_int_equal(app.scn.workload.kind, WL_ONLINE);
	for (int i = 0; i < r->n; i++) {
		if (r->r[i].f && strcmp(r->r[i].f->key, "workload.seq_len") == 0)
			seq = true;
		if (r->r[i].f && strcmp(r->r[i].f->key, "workload.prompt_tokens") == 0)
			prompt = true;
	}
	assert_false(seq);
	assert_true(prompt);
	assert_string_equal(selected(), "workload.kind"); /* the selection stays */
	/* finetune with LoRA shows the LoRA fields, full fine-tuning does not */
	app_command(&app, "set workload.kind=finetune");
	app_compute(&app);
	app_command(&app, "set workload.finetune.method=lora");
	app_compute(&app);
	seq = false;
	for (int i = 0; i < r->n; i++)
		if (r->r[i].f && strcmp(r->r[i].f->key, "workload.finetune.rank") == 0)
			seq = true;
	assert_true(seq);
	app_command(&app, "set workload.finetune.method=full");
	app_compute(&app);
	for (int i = 0; i < r->n; i++)
		assert_false(r->r[i].f && strcmp(r->r[i].f->key, "workload.finetune.rank") == 0);
}

static void test_command_line(void **state)
{
	(void)state;
	keys(":set hardware.count=16\r");
	assert_int_equal(app.mode, MODE_NORMAL);
	assert_int_equal(app.scn.hardware.count, 16);
	assert_false(app.status_error);
	keys(":set hardware.count=many\r");
	assert_true(app.status_error);
	assert_int_equal(app.scn.hardware.count, 16);
	keys(":bogus\r");
	assert_true(app.status_error);
	assert_non_null(strstr(app.status, "bogus"));
	keys(":set hardware.count=2");
	key(KEY_ESC); /* cancelled: nothing runs */
	assert_int_equal(app.scn.hardware.count, 16);
	keys(":help\r");
	assert_int_equal(app.mode, MODE_HELP);
	keys("x");
	assert_int_equal(app.mode, MODE_NORMAL);
}

static void test_problems_beside_fields(void **state)
{
	const struct field *tp = scenario_field_find("parallel.tp");
	(void)state;
	assert_null(app_field_problem(&app, tp));
	/* tp 3 divides neither the 32 heads nor the 8 GPUs */
	keys(":set parallel.tp=3\r");
	assert_non_null(app_field_problem(&app, tp));
	assert_non_null(strstr(app_field_problem(&app, tp)->message, "tp 3"));
	keys("u");
	assert_null(app_field_problem(&app, tp));
}

static void test_completion_history(void **state)
{
	(void)state;
	keys(":set workload.seq");
	key('\t');
	assert_string_equal(app.line.buf, "set workload.seq_len=");
	keys("1024\r");
	assert_int_equal(app.scn.workload.seq_len, 1024);
	/* several candidates: the common prefix, and the candidates listed */
	keys(":set hardware.p");
	key('\t');
	assert_string_equal(app.line.buf, "set hardware.p");
	assert_non_null(strstr(app.status, "hardware.price_per_gpu_hour"));
	assert_non_null(strstr(app.status, "hardware.power"));
	key('r');
	key('\t');
	assert_string_equal(app.line.buf, "set hardware.price_per_gpu_hour=");
	key(KEY_ESC);
	keys(":set nosuch");
	key('\t');
	assert_true(app.status_error);
	assert_string_equal(app.line.buf, "set nosuch");
	key(KEY_ESC);
	/* values: a field's choices, catalog ids */
	keys(":set workload.kind=on");
	key('\t');
	assert_string_equal(app.line.buf, "set workload.kind=online");
	key(KEY_ESC);
	keys(":set model.preset=llama-3.1-");
	key('\t');
	assert_non_null(strstr(app.status, "llama-3.1-70b"));
	keys("7");
	key('\t');
	assert_string_equal(app.line.buf, "set model.preset=llama-3.1-70b");
	key(KEY_ESC);
	/* Up recalls the commands run, newest first */
	keys(":set hardware.count=4\r");
	keys(":");
	key(KEYF(KEY_UP));
	assert_string_equal(app.line.buf, "set hardware.count=4");
	key(KEYF(KEY_UP));
	assert_string_equal(app.line.buf, "set workload.seq_len=1024");
	key(KEYF(KEY_DOWN));
	key(KEYF(KEY_DOWN));
	assert_string_equal(app.line.buf, "");
	key(KEY_ESC);
}

static void test_baseline(void **state)
{
	(void)state;
	keys("b");
	assert_true(app.has_baseline);
	assert_int_equal(app.base_scn.hardware.count, 8);
	keys(":set hardware.count=16\r");
	assert_int_equal(app.base_scn.hardware.count, 8);
	assert_true(app.base_plan.mem.total == app.base_plan.mem.total);
	keys("b"); /* re-pinned to the current scenario, and it says so */
	assert_int_equal(app.base_scn.hardware.count, 16);
	assert_non_null(strstr(app.status, "baseline moved"));
	keys("b"); /* the same scenario again: cleared */
	assert_false(app.has_baseline);
}

static void test_picker(void **state)
{
	(void)state;
	keys("1g");
	assert_string_equal(selected(), "model.preset");
	key('\r');
	assert_int_equal(app.mode, MODE_PICK);
	assert_int_equal(app.pick.n, 2);
	keys("70");
	assert_int_equal(app.pick.n, 1);
	/* the choice is previewed: results follow it */
	assert_string_equal(app.scn.model.preset, "llama-3.1-70b");
	assert_int_equal(app.scn.model.layers, 80);
	key(KEY_ESC);
	assert_string_equal(app.scn.model.preset, "llama-3.1-8b");
	key('\r');
	keys("70\r");
	assert_int_equal(app.mode, MODE_NORMAL);
	assert_string_equal(app.scn.model.preset, "llama-3.1-70b");
	keys("u");
	assert_string_equal(app.scn.model.preset, "llama-3.1-8b");
	/* Left/Right cycles the GPU preset */
	keys("3g");
	key(KEYF(KEY_RIGHT));
	assert_string_equal(app.scn.hardware.gpu.id, "a100-80gb-sxm");
}

static void test_save_open_quit(void **state)
{
	char dir[] = "/tmp/gpuplan-test-ui-XXXXXX", file[256], cmd[300];
	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(file, sizeof(file), "%s/s.yaml", dir);
	/* no file yet: :w asks for a name */
	keys(":w\r");
	assert_int_equal(app.mode, MODE_PROMPT);
	assert_int_equal(app.prompt, PROMPT_SAVE_AS);
	keys(file);
	keys("\r");
	assert_int_equal(app.mode, MODE_NORMAL);
	assert_false(app.status_error);
	assert_string_equal(app.path, file);
	assert_int_equal(access(file, R_OK), 0);
	assert_false(app_unsaved(&app));
	/* an edit, then :e refuses to drop it */
	keys(":set hardware.count=64\r");
	snprintf(cmd, sizeof(cmd), ":e %s\r", file);
	keys(cmd);
	assert_true(app.status_error);
	assert_int_equal(app.scn.hardware.count, 64);
	/* a file that is not there: the error shows, the scenario stays */
	keys(":e! /nonexistent/x.yaml\r");
	assert_true(app.status_error);
	assert_int_equal(app.scn.hardware.count, 64);
	snprintf(cmd, sizeof(cmd), ":e! %s\r", file);
	keys(cmd);
	assert_false(app.status_error);
	assert_int_equal(app.scn.hardware.count, 8);
	assert_false(app_unsaved(&app));
	/* q with unsaved edits asks */
	keys(":set hardware.count=64\r");
	keys("q");
	assert_int_equal(app.mode, MODE_PROMPT);
	assert_int_equal(app.prompt, PROMPT_QUIT);
	keys("n");
	assert_false(app.quit);
	keys(":q!\r");
	assert_true(app.quit);
	unlink(file);
	rmdir(dir);
}

/* PgDn and PgUp scroll an input pane's rows with the selection, which keeps its place */
static void test_page_keys_scroll(void **state)
{
	int visible = app.lay.pane[PANE_WORKLOAD].h - 1, row;
	(void)state;
	keys("2");
	assert_int_equal(app.sel[PANE_WORKLOAD], 0);
	assert_int_equal(app.top[PANE_WORKLOAD], 0);
	assert_true(app.rows[PANE_WORKLOAD].n > 2 * visible);
	key(KEYF(KEY_NPAGE));
	assert_true(app.top[PANE_WORKLOAD] > 0); /* the rows moved */
	row = app.sel[PANE_WORKLOAD] - app.top[PANE_WORKLOAD];
	assert_true(row >= 0 && row < visible);
	assert_true(app.sel[PANE_WORKLOAD] >= visible - 1);
	key(KEYF(KEY_PPAGE));
	assert_int_equal(app.top[PANE_WORKLOAD], 0);
	assert_int_equal(app.sel[PANE_WORKLOAD], 0);
	/* to the end and back: the last page, then the first */
	for (int i = 0; i < 10; i++)
		key(KEYF(KEY_NPAGE));
	assert_int_equal(app.top[PANE_WORKLOAD], app.rows[PANE_WORKLOAD].n - visible);
	for (int i = 0; i < 10; i++)
		key(KEYF(KEY_PPAGE));
	assert_int_equal(app.top[PANE_WORKLOAD], 0);
}

/* :wq on a scenario without a file asks for a name, writes it, then quits */
static void test_wq_without_file(void **state)
{
	char dir[] = "/tmp/gpuplan-test-ui-XXXXXX", file[256];
	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(file, sizeof(file), "%s/wq.yaml", dir);
	keys(":set hardware.count=64\r");
	keys(":wq\r");
	assert_int_equal(app.mode, MODE_PROMPT);
	assert_int_equal(app.prompt, PROMPT_SAVE_AS);
	assert_false(app.quit);
	keys(file);
	keys("\r");
	assert_int_equal(access(file, R_OK), 0);
	assert_true(app.quit);
	/* Esc at the name keeps the session, and a later :w does not quit */
	app.quit = false;
	keys(":set hardware.count=32\r:x\r");
	assert_int_equal(app.mode, MODE_NORMAL); /* it has a file now: written at once */
	assert_true(app.quit);
	unlink(file);
	rmdir(dir);
}

/* w at the quit prompt saves, then quits; with no file, once a name is given */
static void test_quit_prompt_saves(void **state)
{
	char dir[] = "/tmp/gpuplan-test-ui-XXXXXX", file[256];
	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(file, sizeof(file), "%s/q.yaml", dir);
	keys(":set hardware.count=64\rq");
	assert_int_equal(app.prompt, PROMPT_QUIT);
	keys("w");
	assert_int_equal(app.prompt, PROMPT_SAVE_AS);
	assert_false(app.quit);
	keys(file);
	keys("\r");
	assert_int_equal(access(file, R_OK), 0);
	assert_true(app.quit);
	/* with a file: w writes it and quits at once */
	app.quit = false;
	keys(":set hardware.count=32\rqw");
	assert_true(app.quit);
	assert_false(app_unsaved(&app));
	unlink(file);
	rmdir(dir);
}

static void test_wq_cancelled(void **state)
{
	(void)state;
	keys(":set hardware.count=64\r:wq\r");
	assert_int_equal(app.prompt, PROMPT_SAVE_AS);
	key(KEY_ESC);
	assert_false(app.quit);
	assert_int_equal(app.mode, MODE_NORMAL);
	/* the next save-as (^S) does not quit after writing */
	key(KEY_CTRL('s'));
	assert_int_equal(app.prompt, PROMPT_SAVE_AS);
	assert_false(app.quit_after_save);
}

/* Tab after :e and :w completes file names, as a shell would */
static void test_complete_file(void **state)
{
	char dir[] = "/tmp/gpuplan-test-ui-XXXXXX", f[300], want[300];
	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(f, sizeof(f), "%s/alpha.yaml", dir);
	fclose(fopen(f, "w"));
	snprintf(f, sizeof(f), "%s/alpine.yaml", dir);
	fclose(fopen(f, "w"));
	snprintf(f, sizeof(f), "%s/sub", dir);
	assert_int_equal(mkdir(f, 0700), 0);
	/* two candidates: their common prefix, both listed */
	snprintf(f, sizeof(f), ":e %s/a", dir);
	keys(f);
	key('\t');
	snprintf(want, sizeof(want), "e %s/alp", dir);
	assert_string_equal(app.line.buf, want);
	assert_non_null(strstr(app.status, "alpha.yaml"));
	assert_non_null(strstr(app.status, "alpine.yaml"));
	/* one: the whole name */
	keys("h");
	key('\t');
	snprintf(want, sizeof(want), "e %s/alpha.yaml", dir);
	assert_string_equal(app.line.buf, want);
	key(KEY_ESC);
	/* a folder gets its slash; :w completes too */
	snprintf(f, sizeof(f), ":w %s/s", dir);
	keys(f);
	key('\t');
	snprintf(want, sizeof(want), "w %s/sub/", dir);
	assert_string_equal(app.line.buf, want);
	key(KEY_ESC);
	/* nothing: said, the line kept */
	snprintf(f, sizeof(f), ":e %s/zz", dir);
	keys(f);
	key('\t');
	assert_true(app.status_error);
	snprintf(want, sizeof(want), "e %s/zz", dir);
	assert_string_equal(app.line.buf, want);
	key(KEY_ESC);
	snprintf(f, sizeof(f), "%s/alpha.yaml", dir);
	unlink(f);
	snprintf(f, sizeof(f), "%s/alpine.yaml", dir);
	unlink(f);
	snprintf(f, sizeof(f), "%s/sub", dir);
	rmdir(f);
	rmdir(dir);
}

/* :w never replaces another file, nor drops the scenario's own file's comments, without a
 * yes */
static void test_save_asks_before_replacing(void **state)
{
	char dir[] = "/tmp/gpuplan-test-ui-XXXXXX", other[256], own[256], cmd[300];
	FILE *f;
	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(other, sizeof(other), "%s/other.yaml", dir);
	snprintf(own, sizeof(own), "%s/own.yaml", dir);
	f = fopen(other, "w");
	fputs("not a scenario, and not to be lost\n", f);
	fclose(f);
	/* another file that exists: asked; n keeps it */
	snprintf(cmd, sizeof(cmd), ":w %s\r", other);
	keys(cmd);
	assert_int_equal(app.mode, MODE_PROMPT);
	assert_int_equal(app.prompt, PROMPT_OVERWRITE);
	assert_non_null(strstr(app.status, "exists"));
	keys("n");
	assert_int_equal(app.mode, MODE_NORMAL);
	f = fopen(other, "r");
	{
		char line[64] = "";
		assert_non_null(fgets(line, sizeof(line), f));
		assert_string_equal(line, "not a scenario, and not to be lost\n");
	}
	fclose(f);
	assert_string_equal(app.path, ""); /* not taken on */
	/* y replaces it */
	keys(cmd);
	keys("y");
	assert_false(app.status_error);
	assert_string_equal(app.path, other);
	assert_false(app_unsaved(&app));
	/* its own file, without comments: written at once */
	keys(":set hardware.count=16\r:w\r");
	assert_int_equal(app.mode, MODE_NORMAL);
	assert_false(app_unsaved(&app));
	/* its own file with a comment: asked; :w! does not ask */
	f = fopen(own, "w");
	fputs("# my notes on this plan\ngpuplan: 1\nmodel:\n  preset: llama-3.1-8b\n"
	      "workload:\n  kind: train\nhardware:\n  gpu: h100-sxm-80gb\n  count: 4  # for now\n",
	      f);
	fclose(f);
	snprintf(cmd, sizeof(cmd), ":e! %s\r", own);
	keys(cmd);
	assert_false(app.status_error);
	/* an edit of a value the file gives on one line keeps the comments: written at once */
	keys(":set hardware.count=8\r:w\r");
	assert_int_equal(app.mode, MODE_NORMAL);
	assert_false(app.status_error);
	assert_false(app_unsaved(&app));
	f = fopen(own, "r");
	{
		char text[512] = "";
		size_t n = fread(text, 1, sizeof(text) - 1, f);
		text[n] = '\0';
		assert_string_equal(text, "# my notes on this plan\ngpuplan: 1\nmodel:\n  preset: "
					  "llama-3.1-8b\nworkload:\n  kind: train\nhardware:\n  "
					  "gpu: h100-sxm-80gb\n  count: 8  # for now\n");
	}
	fclose(f);
	/* a field the file does not give: the canonical form, which drops them: asked */
	keys(":set hardware.pue=1.37\r:w\r");
	assert_int_equal(app.prompt, PROMPT_OVERWRITE);
	assert_non_null(strstr(app.status, "comments"));
	key(KEY_ESC);
	assert_true(app_unsaved(&app));
	keys(":wq\r");
	assert_int_equal(app.prompt, PROMPT_OVERWRITE);
	keys("y"); /* :wq quits once the yes has it written */
	assert_true(app.quit);
	assert_false(app_unsaved(&app));
	app.quit = false;
	keys(":set hardware.count=4\r:w! \r");
	assert_int_equal(app.mode, MODE_NORMAL);
	assert_false(app_unsaved(&app));
	unlink(other);
	unlink(own);
	rmdir(dir);
}

/* ~/ in :w and :e is the home folder */
static void test_tilde_path(void **state)
{
	char dir[] = "/tmp/gpuplan-test-ui-XXXXXX", file[300], *old = getenv("HOME");
	char saved_home[256] = "";
	(void)state;
	if (old)
		snprintf(saved_home, sizeof(saved_home), "%s", old);
	assert_non_null(mkdtemp(dir));
	setenv("HOME", dir, 1);
	keys(":set hardware.count=64\r:w ~/t.yaml\r");
	snprintf(file, sizeof(file), "%s/t.yaml", dir);
	assert_false(app.status_error);
	assert_int_equal(access(file, R_OK), 0);
	assert_string_equal(app.path, file);
	keys(":set hardware.count=4\r:e! ~/t.yaml\r");
	assert_false(app.status_error);
	assert_int_equal(app.scn.hardware.count, 64);
	if (saved_home[0])
		setenv("HOME", saved_home, 1);
	else
		unsetenv("HOME");
	unlink(file);
	rmdir(dir);
}

/* The warnings are one Results item: the status line and Enter give each of them whole,
 * whatever the pane has room for */
static void test_warnings_item(void **state)
{
	char v[1024];
	(void)state;
	assert_string_not_equal(app.result_keys[app.nresult_items - 1], "warnings");
	assert_null(pane_results_verdict(&app, "warnings", v, sizeof(v)));
	/* 70B on one GPU with a deadline it misses: two warnings */
	keys(":set model.preset=llama-3.1-70b\r:set hardware.count=1\r");
	keys(":set workload.deadline=1d\r");
	assert_true(app.plan.nwarnings >= 2);
	assert_string_equal(app.result_keys[app.nresult_items - 1], "warnings");
	assert_non_null(pane_results_verdict(&app, "warnings", v, sizeof(v)));
	assert_non_null(strstr(v, "does not fit: "));
	assert_non_null(strstr(v, "deadline missed: "));
	keys("4G");
	assert_string_equal(app.result_keys[app.sel[PANE_RESULTS]], "warnings");
	key('\r');
	assert_int_equal(app.mode, MODE_EXPLAIN);
	assert_string_equal(app.explain_key, "warnings");
	assert_non_null(strstr(app.explain_text, "! does not fit: "));
	assert_non_null(strstr(app.explain_text, "! deadline missed: "));
}

static void test_recover_path(void **state)
{
	char buf[256];
	(void)state;
	app_recover_path("dir/sub/x.yaml", buf, sizeof(buf));
	assert_string_equal(buf, "dir/sub/.x.yaml.recover");
	app_recover_path("x.yaml", buf, sizeof(buf));
	assert_string_equal(buf, ".x.yaml.recover");
	setenv("XDG_STATE_HOME", "/state", 1);
	/* a session without a file has a name of its own (issue 16: distinct recovery files,
	 * where all such sessions once shared recover.yaml) */
	{
		char want[128];
		snprintf(want, sizeof(want), "/state/gpuplan/recover-%ld.yaml", (long)getpid());
		app_recover_path("", buf, sizeof(buf));
		assert_string_equal(buf, want);
		unsetenv("XDG_STATE_HOME");
		setenv("HOME", "/home/u", 1);
		snprintf(want, sizeof(want), "/home/u/.local/state/gpuplan/recover-%ld.yaml",
			 (long)getpid());
		app_recover_path(NULL, buf, sizeof(buf));
		assert_string_equal(buf, want);
	}
}

static void test_recovery(void **state)
{
	char dir[] = "/tmp/gpuplan-test-rec-XXXXXX", file[256], rec[300];
	struct scenario s = app.scn;
	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(file, sizeof(file), "%s/r.yaml", dir);
	app_save(&app, file);
	/* nothing unsaved: no recovery file */
	assert_int_equal(app_write_recovery(&app), 0);
	app_recover_path(file, rec, sizeof(rec));
	assert_int_not_equal(access(rec, F_OK), 0);
	keys(":set hardware.count=32\r");
	assert_int_equal(app_write_recovery(&app), 0);
	assert_int_equal(access(rec, R_OK), 0);
	/* the next start on the file asks; Esc keeps the file */
	app_init(&app, &cat, &s, file, 0);
	assert_true(app_offer_recovery(&app));
	key(KEY_ESC);
	assert_int_equal(app.mode, MODE_NORMAL);
	assert_int_equal(access(rec, R_OK), 0);
	/* y restores the edits, unsaved, and keeps the file until they are saved (issue 15:
	 * a crash after restoring once lost them; this asserted the file gone at y) */
	app_init(&app, &cat, &s, file, 0);
	assert_true(app_offer_recovery(&app));
	keys("y");
	assert_int_equal(app.scn.hardware.count, 32);
	assert_true(app_unsaved(&app));
	assert_string_equal(app.path, file);
	assert_int_equal(access(rec, R_OK), 0);
	/* the save takes it */
	app_save_force(&app, NULL);
	assert_false(app_unsaved(&app));
	assert_int_not_equal(access(rec, F_OK), 0);
	assert_false(app_offer_recovery(&app));
	/* n keeps it for later without restoring (issue 15: this asserted it deleted) */
	keys(":set hardware.count=16\r");
	assert_int_equal(app_write_recovery(&app), 0);
	app_init(&app, &cat, &s, file, 0);
	assert_true(app_offer_recovery(&app));
	keys("n");
	assert_int_equal(app.mode, MODE_NORMAL);
	assert_int_equal(app.scn.hardware.count, s.hardware.count);
	assert_int_equal(access(rec, R_OK), 0);
	/* d deletes it */
	app_init(&app, &cat, &s, file, 0);
	assert_true(app_offer_recovery(&app));
	keys("d");
	assert_int_equal(app.scn.hardware.count, s.hardware.count);
	assert_int_not_equal(access(rec, F_OK), 0);
	unlink(file);
	rmdir(dir);
}

/* Random keys (a fixed seed) never leave the state inconsistent. ':' and the save keys are
 * left out so that nothing is written. */
static void test_random_keys(void **state)
{
	static const int pool[] = {
	    '\t',	    KEYF(KEY_BTAB), KEYF(KEY_UP),    KEYF(KEY_DOWN),  'j',   'k',
	    KEYF(KEY_NPAGE), KEYF(KEY_PPAGE), 'g',		     'G',	      '\r',  '+',
	    '-',	    KEYF(KEY_LEFT), KEYF(KEY_RIGHT), 'u',	      KEY_CTRL('r'), 'b',
	    'e',	    '?',	    KEY_ESC,	     KEY_CTRL('u'), '1',   '2',
	    '3',	    '4',	    '0',	     '7',	      'x',   'B',
	    '.',	    KEYF(KEY_BACKSPACE), 'n',	     'y',	      KEYF(KEY_F(1)), 'a',
	    's',	    '>',	    '<',	     'c',	      't',
	};
	unsigned seed = 12345;
	int modes[MODE_EXPLAIN + 1] = {0}, changes = 0, views = 0, charts = 0;
	(void)state;
	for (int i = 0; i < 20000; i++) {
		unsigned long before = app.computes;
		int k;
		seed = seed * 1103515245u + 12345u;
		k = pool[(seed >> 16) % (sizeof(pool) / sizeof(pool[0]))];
		key(k);
		assert_true(app.focus >= 0 && app.focus < PANE_COUNT);
		assert_true(app.mode >= MODE_NORMAL && app.mode <= MODE_EXPLAIN);
		assert_true(app.mode != MODE_COMMAND);
		for (int p = 0; p < PANE_RESULTS; p++) {
			assert_true(app.sel[p] >= 0 && app.sel[p] < app.rows[p].n);
			assert_int_equal(app.rows[p].r[app.sel[p]].kind, ROW_FIELD);
			assert_true(app.top[p] >= 0 && app.top[p] <= app.sel[p]);
		}
		assert_true(app.sel[PANE_RESULTS] >= 0 &&
			    app.sel[PANE_RESULTS] < app.nresult_items);
		assert_false(app.dirty & DIRTY_CALC);
		/* an open search view is never stale after a compute, its selection in range */
		/* ... and so is an open chart view ('c' opens it since issue 18), its values
		 * within its arrays */
		assert_true(app.view == VIEW_NONE || app.view == VIEW_SEARCH ||
			    app.view == VIEW_CHART);
		assert_true(app.view != VIEW_SEARCH || !app.sv.stale);
		assert_true(app.view != VIEW_CHART ||
			    (!app.cv.stale && app.cv.n >= 2 && app.cv.n <= CHART_VIEW_MAX));
		assert_true(app.sv.sel >= 0 && (app.sv.sel < app.sv.n || app.sv.sel == 0));
		views += app.view == VIEW_SEARCH;
		charts += app.view == VIEW_CHART;
		modes[app.mode]++;
		changes += app.computes != before;
		if (app.quit)
			setup(NULL);
	}
	/* the walk went through the editor, the picker, help and explanations */
	for (int m = MODE_NORMAL; m <= MODE_EXPLAIN; m++)
		if (m != MODE_COMMAND && m != MODE_PROMPT)
			assert_true(modes[m] > 0);
	assert_true(changes > 1000);
	assert_true(views > 100); /* the walk went through the search view too */
	assert_true(charts > 0);  /* and the chart view */
}

static void test_text_width(void **state)
{
	(void)state;
	assert_int_equal(text_width("memory/gpu"), 10);
	if (setlocale(LC_CTYPE, "C.UTF-8") == NULL)
		skip();
	assert_int_equal(text_width("\u2588x\u25b2"), 3);	   /* bars and marks: one each */
	assert_int_equal(text_width("\u65e5\u672c 7B"), 7); /* CJK: two columns each */
	setlocale(LC_CTYPE, "C");
}

static void test_help_fits(void **state)
{
	(void)state;
	/* the help window's inside at 80x24 is 76 columns */
	assert_true(help_lines() > 10);
	for (int i = 0; i < help_lines(); i++)
		assert_true(text_width(help_line(i)) <= 76);
	assert_null(help_line(help_lines()));
}

static void test_explain(void **state)
{
	(void)state;
	keys("4");
	assert_int_equal(app.focus, PANE_RESULTS);
	key('\r');
	assert_int_equal(app.mode, MODE_EXPLAIN);
	assert_string_equal(app.explain_key, "memory.per_gpu.total");
	/* the core's explanation: formula, numbers and source */
	assert_non_null(strstr(app.explain_text, "source"));
	assert_non_null(strstr(app.explain_text, "weights"));
	keys("x");
	assert_int_equal(app.mode, MODE_NORMAL);
	/* the memory parts follow the total, in the legend's order */
	keys("je");
	assert_string_equal(app.explain_key, "memory.per_gpu.weights");
	keys("x");
	/* then the three verdicts, in judging order, each whole for the status line */
	{
		char v[256];
		int i = 0;
		while (i < app.nresult_items && strcmp(app.result_keys[i], "memory.headroom") != 0)
			i++;
		assert_true(i + 2 < app.nresult_items);
		assert_string_equal(app.result_keys[i + 1], "bottleneck.binding");
		assert_string_equal(app.result_keys[i + 2], "compute.mfu");
		assert_non_null(pane_results_verdict(&app, "memory.headroom", v, sizeof(v)));
		assert_true(strncmp(v, "capacity: ", 10) == 0);
		assert_non_null(pane_results_verdict(&app, "compute.mfu", v, sizeof(v)));
		assert_true(strncmp(v, "compute: ", 9) == 0);
		assert_null(pane_results_verdict(&app, "time.step_s", v, sizeof(v)));
	}
	keys("1e");
	assert_int_equal(app.mode, MODE_EXPLAIN);
	assert_string_equal(app.explain_key, "model.preset");
	keys("x");
	/* an input says what it takes and what + and - do, and what auto is now */
	explain_open(&app, "workload.seq_len");
	assert_non_null(strstr(app.explain_text, "takes: 1 to "));
	assert_non_null(strstr(app.explain_text, "double and halve"));
	explain_open(&app, "efficiency.mfu");
	assert_non_null(strstr(app.explain_text, "takes: 0.01% to 100%, or auto"));
	assert_non_null(strstr(app.explain_text, "auto: "));
	explain_open(&app, "workload.precision");
	assert_non_null(strstr(app.explain_text, "Left and Right"));
	explain_open(&app, "hardware.gpu");
	assert_non_null(strstr(app.explain_text, "picker"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_start, setup),
		cmocka_unit_test_setup(test_step_undo_redo, setup),
		cmocka_unit_test_setup(test_typing, setup),
		cmocka_unit_test_setup(test_hf_config_read_on_enter, setup),
		cmocka_unit_test_setup(test_kind_shows_fields_that_apply, setup),
		cmocka_unit_test_setup(test_command_line, setup),
		cmocka_unit_test_setup(test_problems_beside_fields, setup),
		cmocka_unit_test_setup(test_completion_history, setup),
		cmocka_unit_test_setup(test_baseline, setup),
		cmocka_unit_test_setup(test_picker, setup),
		cmocka_unit_test_setup(test_save_open_quit, setup),
		cmocka_unit_test_setup(test_page_keys_scroll, setup),
		cmocka_unit_test_setup(test_wq_without_file, setup),
		cmocka_unit_test_setup(test_quit_prompt_saves, setup),
		cmocka_unit_test_setup(test_wq_cancelled, setup),
		cmocka_unit_test_setup(test_tilde_path, setup),
		cmocka_unit_test_setup(test_save_asks_before_replacing, setup),
		cmocka_unit_test_setup(test_complete_file, setup),
		cmocka_unit_test_setup(test_warnings_item, setup),
		cmocka_unit_test_setup(test_recover_path, setup),
		cmocka_unit_test_setup(test_recovery, setup),
		cmocka_unit_test_setup(test_explain, setup),
		cmocka_unit_test_setup(test_help_fits, setup),
		cmocka_unit_test_setup(test_text_width, setup),
		cmocka_unit_test_setup(test_random_keys, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
