/* keys.h - the lab's keys as data: one table binds keys to actions, per
 * screen, and carries the help text, so the help overlay and the bindings
 * come from the same rows.  No curses here: the terminal decodes its keys
 * into the codes below (term.c). */
#ifndef HEADLAB_KEYS_H
#define HEADLAB_KEYS_H

#include <stdbool.h>

#include <stddef.h>

#include "lab.h"

/* 0..127 are the characters as typed, control characters included;
 * Backspace (^H, DEL) and Enter (^M, ^J) arrive as KEYS_BACKSPACE and
 * KEYS_ENTER whatever the terminal sends. */
enum keys_code {
	KEYS_NONE = -1,
	KEYS_ESC = 27,
	KEYS_LEFT = 0x100,
	KEYS_RIGHT,
	KEYS_UP,
	KEYS_DOWN,
	KEYS_SLEFT,             /* shifted arrows */
	KEYS_SRIGHT,
	KEYS_SUP,
	KEYS_SDOWN,
	KEYS_HOME,
	KEYS_END,
	KEYS_DELETE,
	KEYS_PGUP,
	KEYS_PGDN,
	KEYS_BACKSPACE,
	KEYS_ENTER,
	KEYS_BTAB,              /* Shift-Tab */
	KEYS_CLICK,             /* the first button, at the event's position */
	KEYS_MOUSE,             /* any other mouse report */
	KEYS_RESIZE,
	KEYS_OTHER,             /* a key the lab does not bind (F1, Insert, ...) */
	KEYS_WHEEL_UP,          /* the mouse wheel: the grid scrolls, the selection stays */
	KEYS_WHEEL_DOWN,
	KEYS_WHEEL_LEFT,        /* Shift and the wheel (or its buttons 6 and 7) */
	KEYS_WHEEL_RIGHT,
};

/* One key as the screens receive it. */
struct keys_event {
	int key;                /* enum keys_code, or a character */
	int y, x;               /* KEYS_CLICK: the screen position */
};

/* Which screens a row binds on. */
enum keys_where {
	KEYS_LAB = 1,           /* step, compare, bug and score views */
	KEYS_QUIZ = 2,          /* a quiz question that is answered on the grid */
	KEYS_MENU = 4,          /* the preset menu */
};

#define KEYS_PER_ROW 6

struct keys_row {
	unsigned where;         /* enum keys_where bits */
	enum lab_action action;
	int keys[KEYS_PER_ROW]; /* 0-terminated */
	struct {
		const char *key;        /* the help overlay's line this row starts, or NULL */
		const char *english;    /* ... when the caption file lacks it */
	} help;
	struct {
		const char *key;        /* this row's words on the hint line, or NULL */
		const char *english;    /* ... ({arrows}, {updown}: the glyphs) */
	} hint;
};

extern const struct keys_row keys_table[];
extern const int keys_count;

/* The action key is bound to on screen where, or LAB_NONE. */
enum lab_action keys_action(unsigned where, int key);

/* The help overlay's lines, title first: n filled, at most max. */
int keys_help(const char **lines, int max);

/* The hint line under every lab screen, from the rows that carry hint
 * words, in table order: the bindings and the hint cannot disagree.
 * arrows and updown are the terminal's glyphs for {arrows}, {updown}. */
void keys_hint_line(char *buf, size_t size, const char *arrows, const char *updown);

#endif
