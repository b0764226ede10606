/* theme.h - the lab's colour themes as data: colour numbers and
 * attributes per role, for 256-colour and for 8/16-colour terminals.  No
 * curses here: the terminal layer turns them into colour pairs, and the
 * contrast test measures them (palette.h). */
#ifndef HEADLAB_THEME_H
#define HEADLAB_THEME_H

#include <stdbool.h>

#define THEME_NHEAD 8           /* head colours; head h uses h % THEME_NHEAD */
#define THEME_DEFAULT (-1)      /* the terminal's own colour */

/* The eight colours every colour terminal has (curses' COLOR_* numbers). */
enum {
	THEME_BLACK, THEME_RED, THEME_GREEN, THEME_YELLOW, THEME_BLUE, THEME_MAGENTA,
	THEME_CYAN, THEME_WHITE,
};

enum { THEME_PLAIN = 0, THEME_BOLD = 1 };       /* attributes */

/* The colours of one palette size. */
struct theme_colors {
	short cell_bg[THEME_NHEAD], cell_fg[THEME_NHEAD]; /* a head's cells */
	short screen_fg, screen_bg;     /* everything else; THEME_DEFAULT: the terminal's */
	short accent;                   /* the code line, split_heads and merge_heads */
	short dim;                      /* rules and elisions; THEME_DEFAULT: as other text */
	short wrong;                    /* the mark of a cell in the wrong place */
};

struct theme {
	const char *name;
	bool color;                     /* false: monochrome whatever the terminal */
	struct theme_colors c256;       /* 256-colour terminals */
	struct theme_colors c16;        /* 8 and 16 colours: numbers 0 to 7 only */
	int rule_attr;                  /* extra attribute for rules (THEME_BOLD) */
	int cell_attr;                  /* extra attribute for every cell */
};

extern const struct theme theme_table[];
extern const int theme_count;

/* The theme called name, or NULL. */
const struct theme *theme_find(const char *name);

/* The colours th uses on a terminal of ncolors colours. */
const struct theme_colors *theme_colors(const struct theme *th, int ncolors);

/* A foreground as drawn: THEME_DEFAULT means the screen's text colour. */
short theme_fg(const struct theme_colors *c, short fg);

/* One foreground on one background that carries text. */
struct theme_pair {
	const char *role;       /* "head 3", "accent", ... */
	short fg, bg;           /* colour numbers of the palette */
};

/* The text pairs theme name draws on an ncolors terminal whose default
 * background is colour bg (pairs in the terminal's own default colours
 * are left out).  Returns how many were written to out (at most max), or
 * -1 when name is no theme. */
int theme_pairs(const char *name, int ncolors, short bg, struct theme_pair *out, int max);

#endif
