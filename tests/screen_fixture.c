/* screen_fixture.c - a headless curses screen for the tests
 * (screen_fixture.h). */
#include "screen_fixture.h"

#include <stdio.h>
#include <stdlib.h>

static FILE *screen_fixture_out;
static SCREEN *screen_fixture_screen;

void
screen_fixture_open(int cols, int lines)
{
	char buf[16];

	snprintf(buf, sizeof buf, "%d", cols);
	setenv("COLUMNS", buf, 1);
	snprintf(buf, sizeof buf, "%d", lines);
	setenv("LINES", buf, 1);
	screen_fixture_out = fopen("/dev/null", "w");
	screen_fixture_screen = newterm("xterm-256color", screen_fixture_out, stdin);
	if (screen_fixture_screen == NULL) {
		printf("1..0 # SKIP no xterm-256color terminfo\n");
		exit(0);
	}
	set_term(screen_fixture_screen);
}

void
screen_fixture_close(void)
{
	endwin();
	delscreen(screen_fixture_screen);
	fclose(screen_fixture_out);
}

void
screen_fixture_click(struct tui *t, int y, int x)
{
	if (t->lab.frame.cols != COLS || t->lab.frame.lines != LINES)
		lab_layout(&t->lab, COLS, LINES);
	lab_click(&t->lab, y, x);
}
