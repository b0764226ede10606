/* theme.h - the lab's colour themes as data, without curses.  Colours are
 * the terminal's numbers: 0-7 the ANSI colours (the same numbers curses
 * calls COLOR_BLACK .. COLOR_WHITE), 8-255 the xterm 256-colour cube. */
#ifndef HEADLAB_THEME_H
#define HEADLAB_THEME_H

#include <stdbool.h>
#include <stddef.h>

#define THEME_NHEAD 8           /* head colours; head h takes h % THEME_NHEAD */

enum theme_color {
	THEME_BLACK, THEME_RED, THEME_GREEN, THEME_YELLOW,
	THEME_BLUE, THEME_MAGENTA, THEME_CYAN, THEME_WHITE,
};

/* Extra attributes a theme puts on what it draws. */
enum theme_attr {
	THEME_ATTR_NORMAL = 0,
	THEME_ATTR_BOLD = 1,
};

/* A colour theme.  Every theme also keeps the non-colour cues: the head
 * letter after each label and the rules between head groups. */
struct theme {
	const char *name;
	bool color;                     /* false: monochrome whatever the terminal */
	short bg256[THEME_NHEAD], fg256[THEME_NHEAD]; /* cells on 256-colour terminals */
	short bg8[THEME_NHEAD], fg8[THEME_NHEAD];     /* ... on 8 and 16 colours */
	short accent256, accent8;       /* titles, group names, lit markers */
	bool dim;                       /* rules and elisions may be dimmed */
	enum theme_attr rule_attr;      /* extra attribute for rules */
	enum theme_attr cell_attr;      /* extra attribute for every cell */
};

extern const struct theme theme_table[];
extern const size_t theme_count;

/* "default, projector, colorblind, mono", for messages. */
extern const char theme_names[];

/* The index of the theme called name, or -1. */
int theme_find(const char *name);

#endif
