/* test_screen.c - the lab drawn into a headless curses screen (newterm on
 * /dev/null with a fixed size), keys fed in, the screen read back cell by
 * cell and held against golden text in tests/golden/screen-*.txt.
 *
 * A golden holds the text, then the attributes of every cell (R reverse,
 * M bold+underline, U underline, B bold, . plain), then for colour screens
 * the colour pair of every cell.  GENERATE=1 rewrites the goldens. */
#define _XOPEN_SOURCE_EXTENDED 1
#include <curses.h>
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "tap.h"
#include "text.h"
#include "tui.h"

static FILE *screen_out;
static SCREEN *screen;

static void
screen_open(int cols, int lines)
{
	char buf[16];

	snprintf(buf, sizeof buf, "%d", cols);
	setenv("COLUMNS", buf, 1);
	snprintf(buf, sizeof buf, "%d", lines);
	setenv("LINES", buf, 1);
	screen_out = fopen("/dev/null", "w");
	screen = newterm("xterm-256color", screen_out, stdin);
	if (screen == NULL) {
		printf("1..0 # SKIP no xterm-256color terminfo\n");
		exit(0);
	}
	set_term(screen);
}

static void
screen_close(void)
{
	endwin();
	delscreen(screen);
	fclose(screen_out);
}

/* Read the whole screen back as text, attribute map and pair map. */
static char *
screen_dump(bool pairs)
{
	size_t cap = (size_t)(LINES * (COLS * 8 + 2)) * 3 + 64, used = 0;
	char *out = malloc(cap);

	for (int pass = 0; pass < (pairs ? 3 : 2); pass++) {
		if (pass == 1)
			used += (size_t)sprintf(out + used, "--- attributes\n");
		if (pass == 2)
			used += (size_t)sprintf(out + used, "--- colour pairs\n");
		for (int y = 0; y < LINES; y++) {
			size_t line_start = used;

			for (int x = 0; x < COLS; x++) {
				cchar_t cc;
				wchar_t wch[CCHARW_MAX + 1];
				attr_t attr;
				short pair;

				mvin_wch(y, x, &cc);
				getcchar(&cc, wch, &attr, &pair, NULL);
				if (pass == 0) {
					char mb[MB_LEN_MAX * (CCHARW_MAX + 1)];
					size_t n;

					if (wch[0] == L'\0')
						continue; /* right half of a wide character */
					n = wcstombs(mb, wch, sizeof mb);
					if (n == (size_t)-1)
						n = (size_t)sprintf(mb, "?");
					memcpy(out + used, mb, n);
					used += n;
				} else if (pass == 1) {
					char c = '.';

					if (attr & A_REVERSE)
						c = 'R';
					else if ((attr & A_BOLD) && (attr & A_UNDERLINE))
						c = 'M';
					else if (attr & A_UNDERLINE)
						c = 'U';
					else if (attr & A_BOLD)
						c = 'B';
					out[used++] = c;
				} else {
					out[used++] = pair == 0 ? '.' : pair < 10 ? (char)('0' + pair)
					              : (char)('a' + (pair - 10) % 26);
				}
			}
			/* trailing blanks and plain attributes carry no information */
			while (used > line_start && out[used - 1] == ' ')
				used--;
			while (pass > 0 && used > line_start && out[used - 1] == '.')
				used--;
			out[used++] = '\n';
		}
	}
	out[used] = '\0';
	return out;
}

static char *
slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (f == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	buf[fread(buf, 1, (size_t)n, f)] = '\0';
	fclose(f);
	return buf;
}

/* Compare the current screen with golden/screen-NAME.txt (or write it). */
static void
golden(struct tui *t, const char *name, bool pairs)
{
	const char *dir = getenv("GOLDEN_DIR");
	char path[4096];
	char *got, *want;

	tui_draw(t);
	got = screen_dump(pairs);
	snprintf(path, sizeof path, "%s/screen-%s.txt", dir ? dir : "tests/golden", name);
	if (getenv("GENERATE") && *getenv("GENERATE")) {
		FILE *f = fopen(path, "w");

		tap_ok(f && fputs(got, f) >= 0 && fclose(f) == 0, "screen %s written (GENERATE=1)",
		       name);
		free(got);
		return;
	}
	want = slurp(path);
	if (!tap_ok(want && strcmp(got, want) == 0, "screen %s matches %s", name, path)) {
		printf("# got:\n");
		for (char *line = strtok(got, "\n"); line; line = strtok(NULL, "\n"))
			printf("# |%s\n", line);
	}
	free(got);
	free(want);
}

static void
keys(struct tui *t, const int *k)
{
	for (; *k; k++) {
		tui_draw(t); /* the lab acts on the screen as drawn */
		tui_key(t, *k);
	}
}

static void
test_lesson_80x24(void)
{
	struct walk w;
	struct tui t;
	char name[32];

	walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
	screen_open(80, 24);
	tui_init(&t, &w, true, true, NULL);
	t.anim_on = false; /* animation has its own test */
	tap_eq(t.lab.selected, 4, "the lab starts on label 4");
	golden(&t, "start-80x24", true);
	for (int k = 1; k < 6; k++) {
		tui_key(&t, KEY_RIGHT);
		snprintf(name, sizeof name, "step%d-80x24", k + 1);
		golden(&t, name, true);
	}
	tap_eq(t.lab.step, 5, "Right five times reaches the last step");
	tui_key(&t, KEY_RIGHT);
	tap_eq(t.lab.step, 5, "and stops there");
	tui_key(&t, KEY_HOME);
	tap_eq(t.lab.step, 0, "Home goes to the first step");
	tui_key(&t, KEY_END);
	tap_eq(t.lab.step, 5, "End to the last");
	keys(&t, (int[]){ 'p', KEY_PPAGE, KEY_BACKSPACE, 0 });
	tap_eq(t.lab.step, 2, "p, PgUp and Backspace step back");
	keys(&t, (int[]){ 'n', ' ', KEY_NPAGE, KEY_LEFT, 0 });
	tap_eq(t.lab.step, 4, "n, Space, PgDn step forward, Left back");

	tui_key(&t, KEY_HOME);
	keys(&t, (int[]){ KEY_RIGHT, KEY_RIGHT, 'l', 0 });
	tap_eq(t.lab.selected, 5, "l moves from 4 to 5 in the heads layout");
	keys(&t, (int[]){ 'l', 0 });
	tap_eq(t.lab.selected, 6, "l again crosses into head 1's panel: 6");
	keys(&t, (int[]){ 'j', KEY_DOWN, 0 });
	tap_eq(t.lab.selected, 10, "j and Down go to position 2: 10");
	keys(&t, (int[]){ 'k', 'h', 0 });
	tap_eq(t.lab.selected, 5, "k and h come back to 5");
	keys(&t, (int[]){ KEY_SRIGHT, 0 });
	tap_eq(t.lab.selected, 6, "shifted Right moves the selection");
	keys(&t, (int[]){ '\t', '\t', 0 });
	tap_eq(t.lab.selected, 8, "Tab twice: 8");
	keys(&t, (int[]){ KEY_BTAB, 0 });
	tap_eq(t.lab.selected, 7, "Shift-Tab: 7");
	keys(&t, (int[]){ '1', '1', '\r', 0 });
	tap_eq(t.lab.selected, 11, "typing 11 Enter selects 11");
	keys(&t, (int[]){ '4', '2', 0 });
	golden(&t, "typing-80x24", false);
	keys(&t, (int[]){ '\r', 0 });
	tap_eq(t.lab.selected, 11, "42 is out of range: selection kept");
	tap_ok(strstr(t.lab.message, "no label 42") != NULL, "and the status line says why: %s",
	       t.lab.message);
	golden(&t, "out-of-range-80x24", false);
	keys(&t, (int[]){ '4', '\r', 0 });
	tap_eq(t.lab.selected, 4, "4 Enter selects 4 again");
	keys(&t, (int[]){ '9', 27, 0 });
	tap_eq(t.lab.selected, 4, "Esc drops typed digits");
	tap_ok(!t.lab.quit, "without quitting");

	/* a mouse click on the cell showing 10 */
	tui_draw(&t);
	{
		const struct scene_item *it = scene_find_label(&t.scene, 10);

		tap_ok(it != NULL, "10 is on screen");
		if (it)
			tui_click(&t, t.grid_y + it->y - t.scroll_y, t.grid_x + it->x - t.scroll_x + 1);
		tap_eq(t.lab.selected, 10, "clicking it selects 10");
	}
	keys(&t, (int[]){ '4', '\r', 0 });

	keys(&t, (int[]){ '?', 0 });
	golden(&t, "help-80x24", false);
	keys(&t, (int[]){ 'x', 0 });
	tap_ok(!t.lab.help, "any key closes the help");
	tap_ok(!t.lab.quit, "without quitting");

	/* resize below the minimum and back: state kept */
	resizeterm(4, 10);
	golden(&t, "too-small-10x4", false);
	resizeterm(10, 30);
	golden(&t, "too-small-30x10", false);
	resizeterm(24, 80);
	tap_eq(t.lab.step, 2, "resizing keeps the step");
	tap_eq(t.lab.selected, 4, "and the selection");
	resizeterm(1, 1);
	tui_draw(&t);
	tap_ok(true, "a 1x1 screen draws without crashing");
	resizeterm(24, 80);

	keys(&t, (int[]){ 'q', 0 });
	tap_ok(t.lab.quit, "q quits");
	tui_free(&t);
	screen_close();
}

static void
test_variants(void)
{
	struct walk w;
	struct tui t;

	walk_build(&w, WALK_WRONG, 1, 3, 4, 2);
	screen_open(80, 24);
	tui_init(&t, &w, true, true, NULL);
	t.anim_on = false; /* animation has its own test */
	tui_key(&t, KEY_RIGHT);
	golden(&t, "wrong-80x24", true);
	tui_free(&t);
	screen_close();

	walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
	screen_open(80, 24);
	tui_init(&t, &w, false, true, NULL);
	t.anim_on = false; /* animation has its own test */
	keys(&t, (int[]){ KEY_RIGHT, KEY_RIGHT, 0 });
	golden(&t, "mono-80x24", false);
	tui_free(&t);
	screen_close();

	screen_open(80, 24);
	tui_init(&t, &w, false, false, NULL);
	t.anim_on = false; /* animation has its own test */
	keys(&t, (int[]){ KEY_RIGHT, KEY_RIGHT, 0 });
	golden(&t, "ascii-80x24", false);
	tui_free(&t);
	screen_close();

	screen_open(200, 60);
	tui_init(&t, &w, true, true, NULL);
	t.anim_on = false; /* animation has its own test */
	keys(&t, (int[]){ KEY_RIGHT, KEY_RIGHT, 0 });
	golden(&t, "step3-200x60", true);
	tui_free(&t);
	screen_close();

	walk_build(&w, WALK_LESSON, 2, 64, 96, 4);
	screen_open(80, 24);
	tui_init(&t, &w, true, true, NULL);
	t.anim_on = false; /* animation has its own test */
	keys(&t, (int[]){ '6', '0', '0', '0', '\r', KEY_RIGHT, KEY_RIGHT, 0 });
	tap_eq(t.lab.selected, 6000, "a large layout: jump to 6000");
	golden(&t, "large-80x24", false);
	tui_draw(&t);
	tap_ok(scene_find_label(&t.scene, 6000) != NULL, "the selected cell is drawn");
	tui_free(&t);
	screen_close();
}

int
main(void)
{
	char why[256];

	setlocale(LC_ALL, "C.UTF-8");
	/* captions from the source tree's assets (HEADLAB_DATADIR) */
	tap_ok(text_load("en", NULL, why, sizeof why), "captions load: %s", why);
	test_lesson_80x24();
	test_variants();
	return tap_done();
}
