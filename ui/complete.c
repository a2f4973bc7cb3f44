/* complete.c - Tab completion on the : line and the save-as prompt, and the line history. */
#include "complete.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>

#include "command.h"

/* The values Tab offers for f: its names, true/false, or the catalog's ids. */
static int value_candidates(const struct app *a, const struct field *f, const char **out, int max)
{
	static const char *const bools[] = {"true", "false", NULL};
	const char *const *names = f->type == FIELD_BOOL ? bools : f->names;
	int n = 0;

	if (f->catalog == FIELD_CATALOG_MODELS) {
		for (int i = 0; i < a->cat->nmodels && n < max; i++)
			out[n++] = a->cat->models[i].id;
	} else if (f->catalog == FIELD_CATALOG_GPUS) {
		for (int i = 0; i < a->cat->ngpus && n < max; i++)
			out[n++] = a->cat->gpus[i].id;
	} else if (names && f->type != FIELD_TARGETS) {
		for (int i = 0; names[i] && n < max; i++)
			out[n++] = names[i];
	}
	return n;
}

static int cmp_str(const void *x, const void *y)
{
	return strcmp(*(const char *const *)x, *(const char *const *)y);
}

/* The lines Tab leaves: lead and what follows it; a->comp remembers the line. */
static void comp_set_line(struct app *a, const char *word, const char *suffix)
{
	char text[LINE_EDIT_MAX * 3];

	snprintf(text, sizeof(text), "%s%s%s", a->comp.lead, word, suffix);
	line_edit_set(&a->line, text);
	snprintf(a->comp.line, sizeof(a->comp.line), "%s", a->line.buf);
}

/* The candidates found (a->comp.cand[0..n), total of them): sorted, listed on the status
 * line (without the text typed: draw.c shows as many as fit), and the line completed to
 * their common prefix; to the whole candidate and suffix when there is one. */
static void comp_offer(struct app *a, const char *lead, const char *suffix)
{
	struct completion *c = &a->comp;
	size_t common = 0, shown = 0;

	qsort(c->cand, (size_t)c->n, sizeof(c->cand[0]), cmp_str);
	a->status[0] = '\0';
	a->status_error = false;
	for (int i = 0; i < c->n; i++) {
		size_t k = 0;
		if (i == 0)
			common = strlen(c->cand[0]);
		while (k < common && c->cand[i][k] == c->cand[0][k])
			k++;
		common = k;
		if (c->n > 1 && shown + strlen(c->cand[i]) + 3 < sizeof(a->status))
			shown += (size_t)snprintf(a->status + shown, sizeof(a->status) - shown,
						  "%s%s", shown ? "  " : "", c->cand[i]);
	}
	snprintf(c->lead, sizeof(c->lead), "%s", lead);
	snprintf(c->stem, sizeof(c->stem), "%.*s", (int)common, c->cand[0]);
	c->sel = -1;
	comp_set_line(a, c->stem, c->total == 1 ? suffix : "");
	if (c->n < 2)
		c->line[0] = '\0'; /* nothing to cycle through */
}

bool complete_cycle(struct app *a, int dir)
{
	struct completion *c = &a->comp;

	if (c->n < 2 || !c->line[0] || strcmp(a->line.buf, c->line) != 0)
		return false;
	/* -1 (the stem) .. n - 1, round */
	c->sel = (c->sel + 1 + dir + c->n + 1) % (c->n + 1) - 1;
	comp_set_line(a, c->sel < 0 ? c->stem : c->cand[c->sel], "");
	return true;
}

const char *complete_hint(const struct app *a, int width, char *buf, size_t size, int *sel_at,
			  int *sel_len)
{
	const struct completion *c = &a->comp;
	char more[32];
	int start = 0, end, sel = c->sel < 0 ? 0 : c->sel;

	*sel_at = *sel_len = 0;
	if (c->n < 2 || !c->line[0] || strcmp(a->line.buf, c->line) != 0)
		return NULL;
	/* pages of candidates, each as many as fit beside the count of the rest; the page
	 * that holds the one on the line */
	for (;;) {
		int cols = 0;
		snprintf(more, sizeof(more), "  +%d more", c->total);
		end = start;
		while (end < c->n) {
			int w = (end > start ? 2 : 0) + text_width(c->cand[end]);
			int room = width - (end + 1 < c->total ? text_width(more) : 0);
			if (cols + w > room && end > start)
				break;
			cols += w;
			end++;
		}
		if (sel < end || end >= c->n)
			break;
		start = end;
	}
	buf[0] = '\0';
	for (int i = start, n = 0; i < end && (size_t)n < size; i++) {
		if (i == c->sel)
			*sel_at = n + (i > start ? 2 : 0);
		n += snprintf(buf + n, size - (size_t)n, "%s%s", i > start ? "  " : "", c->cand[i]);
		if (i == c->sel)
			*sel_len = (int)strlen(c->cand[i]);
	}
	if (c->total - (end - start) > 0) {
		size_t n = strlen(buf);
		snprintf(buf + n, size - n, "  +%d more", c->total - (end - start));
	}
	return buf;
}

/* Tab after :e, :w and the like: the file names that start with what is typed (folders
 * with a slash), completed to their longest common prefix and listed on the status line;
 * dot files only when the name typed starts with a dot. */
void complete_file(struct app *a, const char *cmd, const char *typed)
{
	char dir[LINE_EDIT_MAX], expanded[LINE_EDIT_MAX], lead[LINE_EDIT_MAX * 2];
	const char *slash = strrchr(typed, '/'), *base = slash ? slash + 1 : typed;
	struct completion *c = &a->comp;
	size_t blen = strlen(base), used = 0;
	DIR *d;
	struct dirent *e;

	if (complete_cycle(a, 1))
		return;
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - typed + 1) : 0, typed);
	app_expand_path(dir[0] ? dir : ".", expanded, sizeof(expanded));
	a->status[0] = '\0';
	a->status_error = false;
	c->n = c->total = 0;
	c->line[0] = '\0';
	d = opendir(expanded);
	if (!d) {
		app_status(a, true, "no folder '%s'", dir[0] ? dir : ".");
		return;
	}
	while ((e = readdir(d)) != NULL) {
		char path[LINE_EDIT_MAX * 2 + 2];
		struct stat st;
		bool is_dir;
		size_t len = strlen(e->d_name);
		if (strncmp(e->d_name, base, blen) != 0 || strcmp(e->d_name, ".") == 0 ||
		    strcmp(e->d_name, "..") == 0 || (e->d_name[0] == '.' && base[0] != '.'))
			continue;
		snprintf(path, sizeof(path), "%s/%s", expanded, e->d_name);
		is_dir = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
		c->total++;
		/* folders with their slash, as the line gets them */
		if (c->n < COMPLETE_MAX && used + len + 2 <= sizeof(c->pool)) {
			snprintf(c->pool + used, sizeof(c->pool) - used, "%s%s", e->d_name,
				 is_dir ? "/" : "");
			c->cand[c->n++] = c->pool + used;
			used += len + (is_dir ? 1 : 0) + 1;
		}
	}
	closedir(d);
	if (c->total == 0) {
		app_status(a, true, "no file starts with '%s'", typed);
		return;
	}
	/* after a command (":w dir/na"), or alone at the save-as prompt (cmd "") */
	snprintf(lead, sizeof(lead), "%s%s%s", cmd, cmd[0] ? " " : "", dir);
	comp_offer(a, lead, "");
}

/* Tab after "set " (every key, then after '=' its values) or after "solve max " (numeric
 * keys): lead is the text before the word typed. */
static void complete_key(struct app *a, const char *lead, const char *word, bool assign)
{
	struct completion *c = &a->comp;
	/* every field (scenario_fields[] holds at most SCENARIO_MAX_FIELDS) or a field's
	 * values (at most a catalog's entries) */
	const char *eq,
	    *cands[SCENARIO_MAX_FIELDS > PICK_MAX + 8 ? SCENARIO_MAX_FIELDS : PICK_MAX + 8];
	const int max = (int)(sizeof(cands) / sizeof(cands[0]));
	char key[128], full[LINE_EDIT_MAX + 160];
	size_t plen;
	int ncand = 0;

	while (*word == ' ')
		word++;
	eq = assign ? strchr(word, '=') : NULL;
	if (!assign) {
		for (const struct field *f = scenario_fields; f->key && ncand < max; f++)
			if (f->type == FIELD_INT || f->type == FIELD_NUM)
				cands[ncand++] = f->key;
	} else if (eq) {
		/* a value: the field's choices */
		const struct field *f;
		snprintf(key, sizeof(key), "%.*s", (int)(eq - word), word);
		f = scenario_field_find(key);
		if (!f)
			return;
		ncand = value_candidates(a, f, cands, max);
		word = eq + 1;
	} else {
		for (const struct field *f = scenario_fields; f->key && ncand < max; f++)
			cands[ncand++] = f->key;
	}
	plen = strlen(word);
	c->n = c->total = 0;
	c->line[0] = '\0';
	for (int i = 0; i < ncand; i++) {
		if (strncmp(cands[i], word, plen) != 0)
			continue;
		c->total++;
		if (c->n < COMPLETE_MAX)
			c->cand[c->n++] = cands[i];
	}
	if (c->total == 0) {
		snprintf(a->status, sizeof(a->status), "nothing starts with '%s'", word);
		a->status_error = true;
		return;
	}
	if (eq)
		snprintf(full, sizeof(full), "%s%s=", lead, key);
	else
		snprintf(full, sizeof(full), "%s", lead);
	comp_offer(a, full, !eq && assign ? "=" : "");
}

/* Tab on the first word (or on the word after a command's own words, "solve m"): the
 * words that start with the typed word, completed to their longest common prefix; one
 * alone gets the space its argument follows with. names NULL: the commands' names. */
static void complete_word(struct app *a, const char *lead, const char *word, size_t len,
			  const char *const *names)
{
	struct completion *c = &a->comp;
	const char *only = NULL;
	char suffix[2] = "";

	c->n = c->total = 0;
	c->line[0] = '\0';
	for (int i = 0; names ? names[i] != NULL : command_table[i].name != NULL; i++) {
		const char *w = names ? names[i] : command_table[i].name;
		if (strncmp(w, word, len) != 0)
			continue;
		c->total++;
		if (c->n < COMPLETE_MAX)
			c->cand[c->n++] = w;
		only = names || command_table[i].arg != CMD_ARG_NONE ? " " : "";
	}
	if (c->total == 0) {
		app_status(a, true, "no command starts with '%.*s'", (int)len, word);
		return;
	}
	if (c->total == 1)
		snprintf(suffix, sizeof(suffix), "%s", only);
	comp_offer(a, lead, suffix);
}

void app_complete(struct app *a)
{
	const char *p = a->line.buf, *rest;
	const struct command *c;
	char lead[48];
	size_t cl;

	if (complete_cycle(a, 1))
		return;
	while (*p == ' ')
		p++;
	cl = strcspn(p, " ");
	if (p[cl] != ' ') {
		complete_word(a, "", p, cl, NULL);
		return;
	}
	if ((c = command_find(p, cl)) == NULL)
		return;
	rest = p + cl + 1;
	switch (c->arg) {
	case CMD_ARG_FILE: {
		char cmd[16];
		snprintf(cmd, sizeof(cmd), "%.*s", (int)cl, p);
		complete_file(a, cmd, command_skip_blanks(p + cl));
		return;
	}
	case CMD_ARG_ASSIGN:
		snprintf(lead, sizeof(lead), "%s ", c->name);
		complete_key(a, lead, rest, true);
		return;
	case CMD_ARG_KEY:
		/* the word before the key as typed, one space either side: "solve max " */
		for (int i = 0; c->words && c->words[i]; i++) {
			size_t wl = strlen(c->words[i]);
			if (strncmp(rest, c->words[i], wl) == 0 && rest[wl] == ' ') {
				snprintf(lead, sizeof(lead), "%s %s ", c->name, c->words[i]);
				complete_key(a, lead, rest + wl + 1, false);
				return;
			}
		}
		/* the word itself: "solve m" */
		rest = command_skip_blanks(rest);
		if (c->words && !strchr(rest, ' ')) {
			snprintf(lead, sizeof(lead), "%s ", c->name);
			complete_word(a, lead, rest, strlen(rest), c->words);
		}
		return;
	case CMD_ARG_NONE:
	case CMD_ARG_WORDS:
		return;
	}
}

void complete_history_add(struct app *a, const char *cmd)
{
	int max = (int)(sizeof(a->history) / sizeof(a->history[0]));

	if (!cmd[0] || (a->nhistory && strcmp(a->history[a->nhistory - 1], cmd) == 0))
		return;
	if (a->nhistory == max) {
		memmove(a->history[0], a->history[1], sizeof(a->history[0]) * (size_t)(max - 1));
		a->nhistory--;
	}
	snprintf(a->history[a->nhistory++], sizeof(a->history[0]), "%s", cmd);
}
