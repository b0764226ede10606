/* screen_fixture.h - what the headless screen tests share: a curses
 * screen of a given size on /dev/null, and a click as the mouse makes it. */
#ifndef HEADLAB_SCREEN_FIXTURE_H
#define HEADLAB_SCREEN_FIXTURE_H

#include "screen.h"

/* A cols x lines xterm-256color screen writing to /dev/null, made the
 * current one; without that terminfo entry the whole program is skipped
 * (TAP "1..0 # SKIP"). */
void screen_fixture_open(int cols, int lines);

/* Line y of the current screen as UTF-8 text into buf (size bytes),
 * trailing blanks dropped; a wide character is read once. */
void screen_fixture_line(int y, char *buf, size_t size);

/* End and free the screen screen_fixture_open made. */
void screen_fixture_close(void);

/* A click at (y, x) as tui_key hands a decoded one on: on the frame laid
 * out for the screen as it is now. */
void screen_fixture_click(struct tui *t, int y, int x);

#endif
