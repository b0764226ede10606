/* screen_fixture.c - a headless curses screen for the tests
 * (screen_fixture.h). */
#include "screen_fixture.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

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
screen_fixture_line(int y, char *buf, size_t size)
{
	size_t used = 0;

	for (int x = 0; x < COLS; x++) {
		cchar_t cc;
		wchar_t wch[CCHARW_MAX + 1];
		attr_t attr;
		short pair;
		char mb[MB_LEN_MAX * (CCHARW_MAX + 1)];
		size_t n;

		mvin_wch(y, x, &cc);
		getcchar(&cc, wch, &attr, &pair, NULL);
		if (wch[0] == L'\0')
			continue;       /* right half of a wide character */
		if (wcwidth(wch[0]) == 2)
			x++;            /* its right half reads the same */
		n = wcstombs(mb, wch, sizeof mb);
		if (n == (size_t)-1 || used + n + 1 >= size)
			continue;
		memcpy(buf + used, mb, n);
		used += n;
	}
	while (used > 0 && buf[used - 1] == ' ')
		used--;
	buf[used] = '\0';
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
