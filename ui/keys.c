#include "keys.h"

#include <stdio.h>

struct key_binding {
	int key;
	enum action action;
};

/* The main view's keys (see help.c for the same list as users read it). */
static const struct key_binding bindings[] = {
    {'\t', ACT_NEXT_PANE},
    {KEYF(KEY_BTAB), ACT_PREV_PANE},
    {KEYF(KEY_UP), ACT_UP},
    {'k', ACT_UP},
    {KEYF(KEY_DOWN), ACT_DOWN},
    {'j', ACT_DOWN},
    {KEYF(KEY_PPAGE), ACT_PAGE_UP},
    {KEYF(KEY_NPAGE), ACT_PAGE_DOWN},
    {KEYF(KEY_HOME), ACT_TOP},
    {'g', ACT_TOP},
    {KEYF(KEY_END), ACT_BOTTOM},
    {'G', ACT_BOTTOM},
    {'\n', ACT_EDIT},
    {'\r', ACT_EDIT},
    {KEYF(KEY_ENTER), ACT_EDIT},
    {'+', ACT_INC},
    {'=', ACT_INC},
    {'-', ACT_DEC},
    {'_', ACT_DEC},
    {KEYF(KEY_RIGHT), ACT_NEXT_CHOICE},
    {'l', ACT_NEXT_CHOICE},
    {KEYF(KEY_LEFT), ACT_PREV_CHOICE},
    {'h', ACT_PREV_CHOICE},
    {'u', ACT_UNDO},
    {KEY_CTRL('r'), ACT_REDO},
    {'b', ACT_BASELINE},
    {'e', ACT_EXPLAIN},
    {':', ACT_COMMAND},
    {KEYF(KEY_F(1)), ACT_HELP},
    {'?', ACT_HELP},
    {'q', ACT_QUIT},
    {KEYF(KEY_F(10)), ACT_QUIT},
    {KEY_CTRL('s'), ACT_SAVE},
    {KEYF(KEY_F(2)), ACT_SAVE},
    {KEY_CTRL('l'), ACT_REDRAW},
    {'1', ACT_PANE_1},
    {'2', ACT_PANE_2},
    {'3', ACT_PANE_3},
    {'4', ACT_PANE_4},
    {'s', ACT_SEARCH},
    {'S', ACT_SCALING},
    {'>', ACT_SOLVE_MAX},
    {'<', ACT_SOLVE_MIN},
};

enum action keys_action(int key)
{
	for (size_t i = 0; i < sizeof(bindings) / sizeof(bindings[0]); i++)
		if (bindings[i].key == key)
			return bindings[i].action;
	return ACT_NONE;
}

const char *keys_name(int key, char *buf, int size)
{
	if (key == '\t')
		snprintf(buf, (size_t)size, "Tab");
	else if (key == '\n' || key == '\r' || key == KEYF(KEY_ENTER))
		snprintf(buf, (size_t)size, "Enter");
	else if (key == KEY_ESC)
		snprintf(buf, (size_t)size, "Esc");
	else if (key & KEYF(0)) {
		int k = key & ~KEYF(0);
		if (k >= KEY_F(1) && k <= KEY_F(12))
			snprintf(buf, (size_t)size, "F%d", k - KEY_F0);
		else
			snprintf(buf, (size_t)size, "%s", keyname(k) ? keyname(k) : "?");
	} else if (key < 0x20)
		snprintf(buf, (size_t)size, "^%c", key + '@');
	else if (key < 0x80)
		snprintf(buf, (size_t)size, "%c", key);
	else
		snprintf(buf, (size_t)size, "U+%04X", (unsigned)key);
	return buf;
}
