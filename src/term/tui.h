/* tui.h - the lab on a terminal: the entry points main.c, the screen
 * tests, the key fuzzer and the benchmark use.  The state is the
 * controller's (lab.h); this layer adds only what the terminal decides. */
#ifndef HEADLAB_TUI_H
#define HEADLAB_TUI_H

#include <stdbool.h>

#include "lab.h"
#include "options.h"
#include "screen.h"
#include "theme.h"

#define TUI_MIN_COLS LAB_MIN_COLS
#define TUI_MIN_LINES LAB_MIN_LINES
#define TUI_ZOOM_MAX LAB_ZOOM_MAX
#define TUI_ANIM_FRAMES LAB_ANIM_FRAMES

/* Set up t for w; curses must already be running (initscr or newterm).
 * theme is a name from --theme (NULL: default). */
void tui_init(struct tui *t, const struct walk *w, bool color, bool utf8, const char *theme);
void tui_free(struct tui *t);

/* Handle one key as returned by getch(); mouse events are read here too.
 * Returns enum screen_result bits: SCREEN_REDRAW when the screen changed. */
int tui_key(struct tui *t, int ch);

/* A paste: len bytes of text, of a paste whole bytes long (the terminal
 * kept the first len), handed to the lab as one event (lab_paste), never
 * as keys.  Returns SCREEN_HANDLED | SCREEN_REDRAW. */
int tui_paste(struct tui *t, const char *text, size_t len, size_t whole);

/* Advance time-driven things (animation frames, presenter mode) to clock
 * now (seconds); returns true when the screen needs a redraw. */
bool tui_tick(struct tui *t, double now);

/* Lay out and draw the whole lab into stdscr (erase and redraw; refresh
 * sends only what changed). */
void tui_draw(struct tui *t);

/* getch(), but a resize comes first as KEY_RESIZE with curses' screen
 * already set to the tty's size, capped at the largest the lab draws (the
 * tty's own size kept in t when it is larger). */
int tui_getch(struct tui *t);

#define tui_theme_names theme_names

/* "ncurses 6.4.20221231" */
const char *tui_curses_version(void);

#endif
