/* complete.c - Tab completion on the : line and the save-as prompt, and the line history. */
#include "complete.h"

#include <stdio.h>
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

/* Tab after :e, :w and the like: the file names that start with what is typed (folders
 * with a slash), completed to their longest common prefix and listed on the status line;
 * dot files only when the name typed starts with a dot. */
void complete_file(struct app *a, const char *cmd, const char *typed)
{
	char dir[LINE_EDIT_MAX], expanded[LINE_EDIT_MAX], common[LINE_EDIT_MAX] = "";
	char text[LINE_EDIT_MAX * 2 + 8];
	const char *slash = strrchr(typed, '/'), *base = slash ? slash + 1 : typed;
	size_t blen = strlen(base), shown = 0;
	int n = 0;
	bool only_dir = false;
	DIR *d;
	struct dirent *e;

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - typed + 1) : 0, typed);
	app_expand_path(dir[0] ? dir : ".", expanded, sizeof(expanded));
	a->status[0] = '\0';
	a->status_error = false;
	d = opendir(expanded);
	if (!d) {
		app_status(a, true, "no folder '%s'", dir[0] ? dir : ".");
		return;
	}
	while ((e = readdir(d)) != NULL) {
		char path[LINE_EDIT_MAX * 2 + 2];
		struct stat st;
		bool is_dir;
		size_t c = 0;
		if (strncmp(e->d_name, base, blen) != 0 || strcmp(e->d_name, ".") == 0 ||
		    strcmp(e->d_name, "..") == 0 || (e->d_name[0] == '.' && base[0] != '.'))
			continue;
		snprintf(path, sizeof(path), "%s/%s", expanded, e->d_name);
		is_dir = stat(path, &st) == 0 && S_ISDIR(st.st_mode);
		if (n == 0) {
			snprintf(common, sizeof(common), "%s", e->d_name);
			only_dir = is_dir;
		} else {
			while (common[c] && common[c] == e->d_name[c])
				c++;
			common[c] = '\0';
		}
		n++;
		if (shown + strlen(e->d_name) + 3 < sizeof(a->status) / 2)
			shown +=
			    (size_t)snprintf(a->status + shown, sizeof(a->status) - shown, "%s%s%s",
					     shown ? "  " : "", e->d_name, is_dir ? "/" : "");
	}
	closedir(d);
	if (n == 0) {
		app_status(a, true, "no file starts with '%s'", typed);
		return;
	}
	if (n == 1)
		a->status[0] = '\0';
	/* after a command (":w dir/na"), or alone at the save-as prompt (cmd "") */
	snprintf(text, sizeof(text), "%s%s%s%s%s", cmd, cmd[0] ? " " : "", dir, common,
		 n == 1 && only_dir ? "/" : "");
	line_edit_set(&a->line, text);
}

/* Tab after "set " (every key, then after '=' its values) or after "solve max " (numeric
 * keys): lead is the text before the word typed. */
static void complete_key(struct app *a, const char *lead, const char *word, bool assign)
{
	const char *eq, *cands[PICK_MAX + 8];
	const char *first = NULL;
	char key[128], text[LINE_EDIT_MAX];
	size_t plen, common = 0, shown = 0;
	int ncand = 0, n = 0;

	while (*word == ' ')
		word++;
	eq = assign ? strchr(word, '=') : NULL;
	if (!assign) {
		for (const struct field *f = scenario_fields; f->key; f++)
			if (f->type == FIELD_INT || f->type == FIELD_NUM)
				cands[ncand++] = f->key;
	} else if (eq) {
		/* a value: the field's choices */
		const struct field *f;
		snprintf(key, sizeof(key), "%.*s", (int)(eq - word), word);
		f = scenario_field_find(key);
		if (!f)
			return;
		ncand = value_candidates(a, f, cands, (int)(sizeof(cands) / sizeof(cands[0])));
		word = eq + 1;
	} else {
		for (const struct field *f = scenario_fields; f->key; f++)
			cands[ncand++] = f->key;
	}
	plen = strlen(word);
	a->status[0] = '\0';
	a->status_error = false;
	for (int i = 0; i < ncand; i++) {
		size_t c = 0;
		if (strncmp(cands[i], word, plen) != 0)
			continue;
		if (!first) {
			first = cands[i];
			common = strlen(first);
		}
		while (c < common && cands[i][c] == first[c])
			c++;
		common = c;
		n++;
		/* the candidates, after the text typed, as many as fit */
		if (shown + strlen(cands[i]) + 2 < sizeof(a->status) / 2)
			shown += (size_t)snprintf(a->status + shown, sizeof(a->status) - shown,
						  "%s%s", shown ? "  " : "", cands[i]);
	}
	if (n == 0) {
		snprintf(a->status, sizeof(a->status), "nothing starts with '%s'", word);
		a->status_error = true;
		return;
	}
	if (n == 1)
		a->status[0] = '\0';
	if (eq)
		snprintf(text, sizeof(text), "%s%s=%.*s", lead, key, (int)common, first);
	else
		snprintf(text, sizeof(text), "%s%.*s%s", lead, (int)common, first,
			 n == 1 && assign ? "=" : "");
	line_edit_set(&a->line, text);
}

void app_complete(struct app *a)
{
	const char *p = a->line.buf, *rest;
	const struct command *c;
	char lead[48];
	size_t cl;

	while (*p == ' ')
		p++;
	cl = strcspn(p, " ");
	if (p[cl] != ' ' || (c = command_find(p, cl)) == NULL)
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
