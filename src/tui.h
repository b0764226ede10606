/* tui.h - the terminal layer: the only code that calls curses. */
#ifndef HEADLAB_TUI_H
#define HEADLAB_TUI_H

#include <stdbool.h>

#include "lab.h"
#include "options.h"
#include "scene.h"
#include "walk.h"

#define TUI_MIN_COLS 40
#define TUI_MIN_LINES 12

struct tui {
	struct lab lab;
	const struct walk *walk;
	struct scene scene;     /* the current step as last drawn */
	bool color;             /* colours wanted and available */
	bool utf8;              /* UTF-8 glyphs; ASCII otherwise */
	int grid_y, grid_x;     /* where the grid viewport starts on screen */
	int grid_h, grid_w;     /* its size; 0 when nothing is drawn */
	int scroll_y, scroll_x; /* scene coordinates shown at the viewport's corner */
	char warning[200];      /* shown once in the status line */
};

/* Set up t for w; curses must already be running (initscr or newterm). */
void tui_init(struct tui *t, const struct walk *w, bool color, bool utf8);
void tui_free(struct tui *t);

/* Handle one key as returned by getch(); mouse events are read here too. */
void tui_key(struct tui *t, int ch);

/* Select the cell at screen position (y, x), as a mouse click does. */
void tui_click(struct tui *t, int y, int x);

/* Draw the whole lab into stdscr (erase and redraw; refresh sends only
 * what changed). */
void tui_draw(struct tui *t);

/* The interactive lab from start to finish; returns the exit status. */
int tui_run(const struct walk *w, const struct options *o);

/* "ncurses 6.4.20221231" */
const char *tui_curses_version(void);

#endif
