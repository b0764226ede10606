/* theme.h - the lab's colour themes as data, without curses: colour
 * numbers and attributes per role, for 256-colour and for 8/16-colour
 * terminals.  Colours are the terminal's numbers: 0-7 the ANSI colours
 * (the same numbers curses calls COLOR_BLACK .. COLOR_WHITE), 8-255 the
 * xterm 256-colour cube.  The terminal layer turns them into colour pairs;
 * tests/test_theme.c measures every text pair (palette.h). */
#ifndef HEADLAB_THEME_H
#define HEADLAB_THEME_H

#include <stdbool.h>
#include <stddef.h>

#define THEME_NHEAD 8           /* head colours; head h takes h % THEME_NHEAD */
#define THEME_DEFAULT (-1)      /* the terminal's own colour */

enum theme_color {
	THEME_BLACK, THEME_RED, THEME_GREEN, THEME_YELLOW,
	THEME_BLUE, THEME_MAGENTA, THEME_CYAN, THEME_WHITE,
};

/* Extra attributes a theme puts on what it draws. */
enum theme_attr {
	THEME_ATTR_NORMAL = 0,
	THEME_ATTR_BOLD = 1,
};

/* The colours of one palette size. */
struct theme_colors {
	short cell_bg[THEME_NHEAD], cell_fg[THEME_NHEAD]; /* a head's cells */
	short screen_fg, screen_bg;     /* everything else; THEME_DEFAULT: the terminal's */
	short accent;                   /* the code line, split_heads and merge_heads */
	short dim;                      /* rules and elisions; THEME_DEFAULT: as other text */
	short wrong;                    /* the mark of a cell in the wrong place */
	/* the selected cell and the cells an index expression lit: colours
	 * of their own instead of reverse video, whose background (a head's
	 * foreground, often white) vanishes on a light terminal */
	short select_fg, select_bg;
	short lit_fg, lit_bg;
};

/* A colour theme.  Every theme also keeps the non-colour cues: the head
 * letter after each label, the rules between head groups, and brackets
 * around the selected cell. */
struct theme {
	const char *name;
	bool color;                     /* false: monochrome whatever the terminal */
	struct theme_colors c256;       /* 256-colour terminals */
	struct theme_colors c16;        /* 8 and 16 colours: numbers 0 to 7 only */
	enum theme_attr rule_attr;      /* extra attribute for rules */
	enum theme_attr cell_attr;      /* extra attribute for every cell */
};

extern const struct theme theme_table[];
extern const size_t theme_count;

/* "default, projector, colorblind, mono", for messages. */
extern const char theme_names[];

/* The index of the theme called name, or -1. */
int theme_find(const char *name);

/* The colours th uses on a terminal of ncolors colours. */
const struct theme_colors *theme_colors(const struct theme *th, int ncolors);

/* A foreground as drawn: THEME_DEFAULT means the screen's text colour. */
short theme_fg(const struct theme_colors *c, short fg);

/* Whether text in colour fg on bg may be bold and still stand need:1
 * from its background as xterm draws it: bold on one of the 8 basic
 * colours (0 to 7) is drawn in the bright colour (bold black is grey
 * #7f7f7f), other colours keep theirs.  THEME_DEFAULT as bg is judged on a
 * black and on a white terminal. */
bool theme_bold_ok(short fg, short bg, double need);

/* The colour of head's bars (the attention pass's weights) on c's screen:
 * the head's cell colour where it stands 3:1 from the screen's background
 * (a black and a white one when that is the terminal's), else the
 * screen's text colour, so that every bar shows as long as it is. */
short theme_bar(const struct theme_colors *c, int head);

/* The colour pairs a terminal loads for a theme, in this order (curses'
 * pair numbers are these plus 1): the heads' cells, the accent, dim and
 * wrong text, the screen's text, the selected cell and lit cells, all of
 * them carrying text, then the heads' bars, which carry none. */
enum theme_pair_role {
	THEME_PAIR_HEAD = 0,
	THEME_PAIR_ACCENT = THEME_PAIR_HEAD + THEME_NHEAD,
	THEME_PAIR_DIM,
	THEME_PAIR_WRONG,
	THEME_PAIR_TEXT,
	THEME_PAIR_SELECT,
	THEME_PAIR_LIT,
	THEME_PAIR_BAR,
	THEME_NPAIRS = THEME_PAIR_BAR + THEME_NHEAD,
};

/* One foreground on one background. */
struct theme_pair {
	const char *role;       /* "head 3", "accent", "selected", "bar 2", ... */
	short fg, bg;           /* colour numbers of the palette; THEME_DEFAULT the terminal's own */
};

/* Every pair c draws, in enum theme_pair_role's order: what the terminal
 * loads, and what the contrast tests measure. */
void theme_pair_table(const struct theme_colors *c, struct theme_pair out[THEME_NPAIRS]);

#endif
