/* test_screen_seen.c - what a person sees, drawn into a headless curses
 * screen and read back as text: a grid too large for its room says which
 * lines show and keeps its headers, --code's verdict speaks of the grid
 * beside it, moves leave no stray headers or rules, the quiz's reveal
 * marks the right cells, and the smaller words of the lesson's screens. */
#define _XOPEN_SOURCE_EXTENDED 1
#include <curses.h>
#include <limits.h>
#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "code.h"
#include "tap.h"
#include "text.h"
#include "tui.h"

static FILE *screen_out;
static SCREEN *screen;
static char lines[100][2048];   /* the screen as text, one UTF-8 line each */

/* A cols x lines headless screen with the lab on w, animation off. */
static void
open_lab(struct tui *t, const struct walk *w, int cols, int nlines)
{
	char buf[16];

	snprintf(buf, sizeof buf, "%d", cols);
	setenv("COLUMNS", buf, 1);
	snprintf(buf, sizeof buf, "%d", nlines);
	setenv("LINES", buf, 1);
	screen_out = fopen("/dev/null", "w");
	screen = newterm("xterm-256color", screen_out, stdin);
	if (screen == NULL) {
		printf("1..0 # SKIP no xterm-256color terminfo\n");
		exit(0);
	}
	set_term(screen);
	tui_init(t, w, true, true, NULL);
	t->lab.anim_on = false;
}

/* open_lab on the lesson's x[1,3,4] with heads heads. */
static void
open_lesson(struct tui *t, int heads, int cols, int nlines)
{
	struct walk w;

	walk_build(&w, WALK_LESSON, 1, 3, 4, heads);
	open_lab(t, &w, cols, nlines);
}

static void
close_lab(struct tui *t)
{
	tui_free(t);
	endwin();
	delscreen(screen);
	fclose(screen_out);
}

/* Draw and read the screen back into lines[]. */
static void
grab(struct tui *t)
{
	tui_draw(t);
	for (int y = 0; y < LINES && y < 100; y++) {
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
			n = wcstombs(mb, wch, sizeof mb);
			if (n == (size_t)-1 || used + n + 1 >= sizeof lines[y])
				continue;
			memcpy(lines[y] + used, mb, n);
			used += n;
		}
		while (used > 0 && lines[y][used - 1] == ' ')
			used--;
		lines[y][used] = '\0';
	}
}

static void
dump(void)
{
	for (int i = 0; i < LINES && i < 100; i++)
		printf("# |%s\n", lines[i]);
}

/* The first line holding text, or -1. */
static int
find(const char *text)
{
	for (int y = 0; y < LINES && y < 100; y++)
		if (strstr(lines[y], text))
			return y;
	return -1;
}

static bool
shows(const char *text, const char *what)
{
	int y = find(text);

	if (!tap_ok(y >= 0, "%s: '%s' is on screen", what, text))
		dump();
	return y >= 0;
}

static bool
hides(const char *text, const char *what)
{
	int y = find(text);

	if (!tap_ok(y < 0, "%s: no '%s' on screen", what, text))
		dump();
	return y < 0;
}

static void
keys(struct tui *t, const char *s)
{
	for (; *s; s++) {
		tui_draw(t);
		tui_key(t, (unsigned char)*s);
	}
}

/* ---- a grid cut by its room ------------------------------------------ */

/* At 40x12 only two rows of the lesson fit: a ⋮ says more lie below and
 * the status line says which lines show; moving down to T 2 keeps the
 * panel's headers on screen, with a ⋮ over the rows that scrolled up. */
static void
test_cut_small(void)
{
	struct tui t;
	int y;

	open_lesson(&t, 2, 40, 12);
	grab(&t);
	y = find("T 1 \u2502");
	tap_ok(y > 0 && strncmp(lines[y], "\u22eeT 1", strlen("\u22eeT 1")) == 0,
	       "40x12: a \u22ee left of T 1, the last row shown (%s)", y > 0 ? lines[y] : "no T 1");
	shows("grid cut: lines 1-5 of 6 shown", "40x12: the status line says what shows");
	keys(&t, "jj");
	grab(&t);
	shows("T 2 \u2502 [8a]", "40x12, j j: T 2 shows with 8 selected");
	shows("head 0    head 1", "40x12, j j: the head headers stay");
	shows("  D    0   1     2   3", "40x12, j j: the D header stays");
	shows("B 0", "40x12, j j: the panel's title stays");
	y = find("T 1 \u2502");
	tap_ok(y > 0 && strncmp(lines[y], "\u22eeT 1", strlen("\u22eeT 1")) == 0,
	       "40x12, j j: a \u22ee left of T 1, rows above it hidden (%s)", y > 0 ? lines[y] : "no T 1");
	shows("grid cut: lines 5-6 of 6 shown", "40x12, j j: the status line says what shows");
	close_lab(&t);
}

/* --zoom 6 at 120x40 cannot show the three rows: it says so, and = picks
 * a zoom that fits; i at 120x40 picks a zoom at which T 2 shows over the
 * numbers panel. */
static void
test_cut_zoom(void)
{
	struct tui t;

	open_lesson(&t, 2, 120, 40);
	t.lab.zoom = 6;
	t.lab.zoom_auto = false;
	grab(&t);
	shows("zoom 6 cuts the grid: lines", "--zoom 6 at 120x40");
	shows("shown; = fits it whole", "--zoom 6 at 120x40: and the way out");
	shows("   D           0                  1", "--zoom 6 at 120x40: the D header stays");
	keys(&t, "=");
	grab(&t);
	shows("T 2 \u2502", "= at zoom 6: T 2 shows");
	hides("cuts the grid", "= at zoom 6: whole");
	close_lab(&t);

	open_lesson(&t, 2, 120, 40);
	grab(&t);
	shows("T 2 \u2502", "120x40: T 2 shows");
	keys(&t, "i");
	grab(&t);
	shows("numbers for D = 4, H = 2", "i at 120x40: the numbers panel");
	shows("T 2 \u2502", "i at 120x40: T 2 still shows");
	hides("grid cut", "i at 120x40: nothing cut");
	close_lab(&t);
}

/* ---- --code's verdict beside its grid -------------------------------- */

/* :x.view(B, H, T, d) at 80x24: the verdict names the cells of the grid
 * drawn (H 0 . T 1 holds 2b 3b) and the sizes it was checked at; a grid
 * whose sizes cannot tell says so and gives the sizes that did; a call
 * PyTorch refuses has its caret on the line under the call. */
static void
test_code_verdict(void)
{
	struct tui t;
	int y;

	open_lesson(&t, 2, 80, 24);
	keys(&t, ":x.view(B, H, T, d)\r");
	grab(&t);
	shows("T 1 \u2502  2b  3b \u2502", ":x.view(B, H, T, d): H 0 at T 1 holds 2b 3b");
	shows("wrong (no-transpose): heads[0, 0, 1] holds [2, 3], should hold [4, 5];",
	      ":x.view(B, H, T, d): the verdict names what the grid holds there");
	shows("(Checked at B=1, T=3, D=4, H=2,", ":x.view(B, H, T, d): at the sizes drawn");
	hides("[12, 13, 14, 15]", ":x.view(B, H, T, d): no cell of a grid not drawn");

	/* one head: (H d) and (d H) cut the width alike */
	keys(&t, ":1\r:x.view(B, T, d, H).permute(0, 3, 1, 2)\r");
	grab(&t);
	shows("This grid (B=1, T=3, D=4, H=1, d=4) cannot show what is wrong: every cell it",
	      "a d-h split on one head: the grid cannot tell");
	shows("Checked at B=2, T=5, D=12, H=3, d=4:", "and the sizes that tell, before the cells");

	close_lab(&t);

	open_lesson(&t, 2, 80, 24);
	keys(&t, ":context.transpose(1, 2).view(B, T, D)\r");
	grab(&t);
	y = find(":context.transpose(1, 2).view(B, T, D)");
	tap_ok(y == LINES - 2 && strcmp(lines[LINES - 1], "                          ^") == 0,
	       "a refused call: the input over the last line, the ^ under the v of view (%d: '%s')", y,
	       lines[LINES - 1]);
	tap_ok(find(".view(B, T, D) cannot be a view") >= 0 && find(".view(B, T, D) cannot be a view") < y,
	       "with the reason over the input");
	close_lab(&t);
}

int
main(void)
{
	char why[256] = "";

	setlocale(LC_ALL, "C.UTF-8");
	tap_ok(text_load("en", NULL, why, sizeof why), "captions load: %s", why);
	test_cut_small();
	test_cut_zoom();
	test_code_verdict();
	return tap_done();
}
