/* keys.c - the key table: every binding of the lab with its help line. */
#include "keys.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "text.h"

const struct keys_row keys_table[] = {
	{ KEYS_LAB, LAB_STEP_PREV, { KEYS_LEFT, KEYS_PGUP },
	  { "help.step", "Left Right PgUp PgDn   previous / next step" },
	  { "hint.step", "{arrows} step" } },
	{ KEYS_LAB, LAB_STEP_NEXT, { KEYS_RIGHT, KEYS_PGDN }, { NULL, NULL }, { NULL, NULL } },
	{ KEYS_LAB, LAB_ERASE, { KEYS_BACKSPACE },
	  { "help.clicker", "Backspace Space p n    previous / next step (clickers)" }, { NULL, NULL } },
	{ KEYS_LAB, LAB_STEP_PREV, { 'p' }, { NULL, NULL }, { NULL, NULL } },
	{ KEYS_LAB, LAB_STEP_NEXT, { ' ', 'n' }, { NULL, NULL }, { NULL, NULL } },
	{ KEYS_LAB, LAB_STEP_FIRST, { KEYS_HOME },
	  { "help.ends", "Home End               first / last step" }, { NULL, NULL } },
	{ KEYS_LAB, LAB_STEP_LAST, { KEYS_END }, { NULL, NULL }, { NULL, NULL } },
	/* hjkl and the up/down arrows move everywhere; left/right arrows
	 * step in the lab and move in a quiz */
	{ KEYS_LAB | KEYS_QUIZ, LAB_MOVE_LEFT, { 'h', KEYS_SLEFT },
	  { "help.move", "h j k l, arrows        move the selected cell" },
	  { "hint.move", "hjkl {updown} move" } },
	{ KEYS_LAB | KEYS_QUIZ, LAB_MOVE_DOWN, { 'j', KEYS_DOWN, KEYS_SDOWN }, { NULL, NULL }, { NULL, NULL } },
	{ KEYS_LAB | KEYS_QUIZ, LAB_MOVE_UP, { 'k', KEYS_UP, KEYS_SUP }, { NULL, NULL }, { NULL, NULL } },
	{ KEYS_LAB | KEYS_QUIZ, LAB_MOVE_RIGHT, { 'l', KEYS_SRIGHT }, { NULL, NULL }, { NULL, NULL } },
	{ KEYS_QUIZ, LAB_MOVE_LEFT, { KEYS_LEFT }, { NULL, NULL }, { NULL, NULL } },
	{ KEYS_QUIZ, LAB_MOVE_RIGHT, { KEYS_RIGHT }, { NULL, NULL }, { NULL, NULL } },
	{ KEYS_LAB | KEYS_QUIZ, LAB_ENTER, { KEYS_ENTER },
	  { "help.jump", "0-9 then Enter         jump to a label (try 4)" },
	  { "hint.jump", "0-9 Enter jump" } },
	{ KEYS_LAB, LAB_LABEL_NEXT, { '\t' },
	  { "help.tab", "Tab Shift+Tab          next / previous label" },
	  { "hint.tab", "Tab next" } },
	{ KEYS_LAB, LAB_LABEL_PREV, { KEYS_BTAB }, { NULL, NULL }, { NULL, NULL } },
	{ KEYS_LAB | KEYS_QUIZ, LAB_CLICK, { KEYS_CLICK },
	  { "help.mouse", "mouse click, wheel     select a cell, step or slot; scroll" }, { NULL, NULL } },
	{ KEYS_LAB, LAB_ANIM_PAUSE, { 'a' },
	  { "help.anim", "a   . ,  S             animation on/paused; frame by frame; slow motion" },
	  { NULL, NULL } },
	{ KEYS_LAB, LAB_ANIM_SLOW, { 'S' }, { NULL, NULL }, { NULL, NULL } },
	{ KEYS_LAB, LAB_FRAME_NEXT, { '.' }, { NULL, NULL }, { NULL, NULL } },
	{ KEYS_LAB, LAB_FRAME_PREV, { ',' }, { NULL, NULL }, { NULL, NULL } },
	{ KEYS_LAB, LAB_ZOOM_IN, { '+' },
	  { "help.zoom", "+ - =                  zoom in, out, largest that fits" }, { NULL, NULL } },
	{ KEYS_LAB, LAB_ZOOM_OUT, { '-' }, { NULL, NULL }, { NULL, NULL } },
	{ KEYS_LAB, LAB_ZOOM_FIT, { '=' }, { NULL, NULL }, { NULL, NULL } },
	{ KEYS_LAB, LAB_VIEW_COMPARE, { 'v' },
	  { "help.views", "v b s                  before/after, bug lab, score tables" }, { NULL, NULL } },
	{ KEYS_LAB, LAB_VIEW_BUGS, { 'b' }, { NULL, NULL }, { NULL, NULL } },
	{ KEYS_LAB, LAB_VIEW_SCORES, { 's' }, { NULL, NULL }, { NULL, NULL } },
	/* 3 is a digit too: it toggles only when no label is being typed */
	{ KEYS_LAB, LAB_VIEW_3D, { '3' },
	  { "help.view3d", "3  r                   3D block or grid (label 3: 03 Enter); turn it" }, { NULL, NULL } },
	{ KEYS_LAB, LAB_TURN, { 'r' }, { NULL, NULL }, { NULL, NULL } },
	{ KEYS_LAB, LAB_NUMBERS, { 'i' },
	  { "help.numbers", "i  [ ]                 numbers panel; fewer / more heads" }, { NULL, NULL } },
	{ KEYS_LAB, LAB_HEADS_FEWER, { '[' }, { NULL, NULL }, { NULL, NULL } },
	{ KEYS_LAB, LAB_HEADS_MORE, { ']' }, { NULL, NULL }, { NULL, NULL } },
	{ KEYS_LAB, LAB_CONTIGUOUS, { 'c' },
	  { "help.copy", "c  V                   apply .contiguous(); try .view()" }, { NULL, NULL } },
	{ KEYS_LAB, LAB_TRY_VIEW, { 'V' }, { NULL, NULL }, { NULL, NULL } },
	{ KEYS_LAB, LAB_PROMPT_INDEX_OPEN, { '/' },
	  { "help.prompts", "/ : g                  index expr; pattern, shape, heads or code; go to" }, { NULL, NULL } },
	{ KEYS_LAB, LAB_PROMPT_COMMAND_OPEN, { ':' },
	  { "help.paste", "paste  :let NAME=SIZE  a paste goes to : whole; bind a size name" },
	  { NULL, NULL } },
	{ KEYS_LAB, LAB_PROMPT_GOTO_OPEN, { 'g' }, { NULL, NULL }, { NULL, NULL } },
	{ KEYS_LAB, LAB_MENU, { 'm' },
	  { "help.more", "m e Q t                presets; export this step; quiz; colour theme" }, { NULL, NULL } },
	{ KEYS_LAB, LAB_PROMPT_EXPORT_OPEN, { 'e' }, { NULL, NULL }, { NULL, NULL } },
	{ KEYS_LAB, LAB_QUIZ, { 'Q' }, { NULL, NULL }, { NULL, NULL } },
	{ KEYS_LAB, LAB_THEME, { 't' }, { NULL, NULL }, { NULL, NULL } },
	{ KEYS_LAB, LAB_ATTENTION, { 'A' },
	  { "help.attention", "A  x o                 attention pass; zero a head; one head or two?" }, { NULL, NULL } },
	{ KEYS_LAB, LAB_ATTENTION_ABLATE, { 'x' }, { NULL, NULL }, { NULL, NULL } },
	{ KEYS_LAB, LAB_ATTENTION_OPENING, { 'o' }, { NULL, NULL }, { NULL, NULL } },
	{ KEYS_LAB, LAB_HELP, { '?' }, { NULL, NULL },
	  { "hint.help", "? help" } },
	{ KEYS_LAB | KEYS_QUIZ, LAB_QUIT, { 'q' },
	  { "help.quit", "q Esc Ctrl-C           quit (any key closes this help)" },
	  { "hint.quit", "q quit" } },
	{ KEYS_LAB | KEYS_QUIZ, LAB_CANCEL, { KEYS_ESC }, { NULL, NULL }, { NULL, NULL } },
	{ KEYS_LAB, LAB_QUIT, { 3 }, { NULL, NULL }, { NULL, NULL } },         /* Ctrl-C; a quiz ignores it */
	{ KEYS_LAB, LAB_REDRAW, { 12 }, { NULL, NULL }, { NULL, NULL } },
	{ KEYS_QUIZ, LAB_SELECT_TOGGLE, { ' ' }, { NULL, NULL }, { NULL, NULL } },
	/* the preset menu */
	{ KEYS_MENU, LAB_MOVE_UP, { KEYS_UP, 'k' }, { NULL, NULL }, { NULL, NULL } },
	{ KEYS_MENU, LAB_MOVE_DOWN, { KEYS_DOWN, 'j' }, { NULL, NULL }, { NULL, NULL } },
	/* the wheel scrolls the grid and leaves the selection; in the menu
	 * it moves the choice */
	{ KEYS_LAB | KEYS_QUIZ, LAB_SCROLL_UP, { KEYS_WHEEL_UP }, { NULL, NULL }, { NULL, NULL } },
	{ KEYS_LAB | KEYS_QUIZ, LAB_SCROLL_DOWN, { KEYS_WHEEL_DOWN }, { NULL, NULL }, { NULL, NULL } },
	{ KEYS_LAB | KEYS_QUIZ, LAB_SCROLL_LEFT, { KEYS_WHEEL_LEFT }, { NULL, NULL }, { NULL, NULL } },
	{ KEYS_LAB | KEYS_QUIZ, LAB_SCROLL_RIGHT, { KEYS_WHEEL_RIGHT }, { NULL, NULL }, { NULL, NULL } },
	{ KEYS_MENU, LAB_MOVE_UP, { KEYS_WHEEL_UP }, { NULL, NULL }, { NULL, NULL } },
	{ KEYS_MENU, LAB_MOVE_DOWN, { KEYS_WHEEL_DOWN }, { NULL, NULL }, { NULL, NULL } },
	{ KEYS_MENU, LAB_ENTER, { KEYS_ENTER }, { NULL, NULL }, { NULL, NULL } },
	{ KEYS_MENU, LAB_CANCEL, { KEYS_ESC, 'q', 'm' }, { NULL, NULL }, { NULL, NULL } },
};

const int keys_count = (int)(sizeof keys_table / sizeof keys_table[0]);

enum lab_action
keys_action(unsigned where, int key)
{
	for (int i = 0; i < keys_count; i++) {
		if (!(keys_table[i].where & where))
			continue;
		for (int j = 0; j < KEYS_PER_ROW && keys_table[i].keys[j]; j++)
			if (keys_table[i].keys[j] == key)
				return keys_table[i].action;
	}
	return LAB_NONE;
}

int
keys_help(const char **lines, int max)
{
	int n = 0;

	if (max < 2)
		return 0;
	lines[n++] = text_get("help.title", "headlab keys");
	lines[n++] = text_get("help.blank", "");
	for (int i = 0; i < keys_count && n < max; i++)
		if (keys_table[i].help.key)
			lines[n++] = text_get(keys_table[i].help.key, keys_table[i].help.english);
	return n;
}

void
keys_hint_line(char *buf, size_t size, const char *arrows, const char *updown)
{
	size_t used = 0;

	if (size == 0)
		return;
	buf[0] = '\0';
	for (int i = 0; i < keys_count && used + 1 < size; i++) {
		const char *p = keys_table[i].hint.key ?
			text_get(keys_table[i].hint.key, keys_table[i].hint.english) : NULL;

		if (p == NULL)
			continue;
		if (used > 0)
			used += (size_t)snprintf(buf + used, size - used, "  ");
		/* the words as the caption file has them, {arrows} and {updown}
		 * standing for the glyphs of this terminal */
		while (*p && used + 1 < size) {
			const char *glyph = strncmp(p, "{arrows}", 8) == 0 ? arrows
			                  : strncmp(p, "{updown}", 8) == 0 ? updown : NULL;
			int n;

			if (glyph) {
				n = snprintf(buf + used, size - used, "%s", glyph);
				p += 8;
			} else {
				n = snprintf(buf + used, size - used, "%c", *p++);
			}
			used += n > 0 ? (size_t)n : 0;
		}
	}
	buf[used < size ? used : size - 1] = '\0';
}
