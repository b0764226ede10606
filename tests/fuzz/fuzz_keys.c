/* fuzz_keys.c - the lab's key input, headless: one curses screen on
 * /dev/null (xterm-256color, 80x24), a walk picked by the first byte, then
 * every following byte is an event for tui_key and a redraw:
 *
 *   0x00-0x7f  that character as a key (control characters included)
 *   0x80-0x9f  a curses key: arrows, Home, End, PgUp, Enter, mouse, ...
 *   0xa0-0xaf  a resize: the next two bytes give lines 1..80 and columns
 *              1..260 (resizeterm, then KEY_RESIZE as getch returns it)
 *   0xb0-0xbf  time passes: (low nibble) * 33 ms, then tui_tick
 *   0xc0-0xcf  a mouse click at the screen position of the next two bytes
 *   0xd0-0xff  a redraw only
 *
 * The lab stops taking keys once it quits, as tui_run does.  The export
 * prompt (e) is closed as soon as it opens: its Enter writes files to
 * whatever directory was typed, and a fuzzer types anything. */
#define _XOPEN_SOURCE_EXTENDED 1
#include <curses.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fuzz.h"
#include "pattern.h"
#include "tui.h"
#include "walk.h"

static const int fuzz_keys[32] = {
	KEY_LEFT, KEY_RIGHT, KEY_UP, KEY_DOWN, KEY_HOME, KEY_END, KEY_PPAGE, KEY_NPAGE,
	KEY_BACKSPACE, KEY_ENTER, KEY_BTAB, KEY_SLEFT, KEY_SRIGHT, KEY_SR, KEY_SF, KEY_MOUSE,
	KEY_RESIZE, KEY_DC, KEY_IC, KEY_F(1), KEY_F(10), KEY_A1, KEY_B2, KEY_C3,
	KEY_SHOME, KEY_SEND, KEY_SUSPEND, KEY_MAX, ERR, 0x7f, 0x1b, 0x1a,
};

static double
fuzz_clock(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The walk the first byte names: the lesson, its bugs, a large layout, a
 * pattern. */
static void
fuzz_walk(struct walk *w, uint8_t b)
{
	static const char *const axis = "h=4";
	struct pattern_size size;
	struct pattern_error err;
	static const int64_t shape[4] = { 2, 3, 4, 8 };

	switch (b % 8) {
	case 0: walk_build(w, WALK_LESSON, 1, 3, 4, 2); break;
	case 1: walk_build(w, WALK_WRONG, 1, 3, 4, 2); break;
	case 2: walk_build(w, WALK_WRONG_D_H, 2, 3, 8, 4); break;
	case 3: walk_build(w, WALK_WRONG_MERGE, 1, 4, 6, 3); break;
	case 4: walk_build(w, WALK_LESSON, 2, 64, 96, 4); break;
	case 5: walk_build(w, WALK_LESSON, 8, 4096, 12288, 96); break;
	case 6: walk_build(w, WALK_LESSON, 1, 1, 1, 1); break;
	default:
		if (!pattern_parse_size(axis, &size, &err) ||
		    !pattern_walk(w, "b c t (h d) -> b h (c t) d", 4, shape, &size, 1, &err))
			abort();
		break;
	}
}

static SCREEN *fuzz_screen;
static FILE *fuzz_out, *fuzz_in;

/* The screen lives as long as the process; closed at exit so that a
 * leak checker sees only what the lab itself lost. */
static void
fuzz_close(void)
{
	endwin();
	delscreen(fuzz_screen);
	fclose(fuzz_out);
	fclose(fuzz_in);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct tui t;
	static struct walk w;
	double now;

	if (fuzz_screen == NULL) {
		fuzz_out = fopen("/dev/null", "w");
		fuzz_in = fopen("/dev/null", "r");
		setenv("COLUMNS", "80", 1);
		setenv("LINES", "24", 1);
		fuzz_screen = newterm("xterm-256color", fuzz_out, fuzz_in);
		if (fuzz_screen == NULL)
			abort();
		set_term(fuzz_screen);
		atexit(fuzz_close);
	}
	if (size < 1 || size > 4096)
		return 0;
	resizeterm(24, 80);
	fuzz_walk(&w, data[0]);
	tui_init(&t, &w, (data[0] & 0x10) == 0, (data[0] & 0x20) == 0,
	         (data[0] & 0x40) ? "mono" : NULL);
	now = fuzz_clock();
	tui_draw(&t);
	for (size_t i = 1; i < size && !t.lab.quit; i++) {
		uint8_t b = data[i];

		if (b < 0x80) {
			tui_key(&t, b);
		} else if (b < 0xa0) {
			tui_key(&t, fuzz_keys[b - 0x80]);
		} else if (b < 0xb0) {
			int lines = 1 + (i + 1 < size ? data[i + 1] % 80 : 0);
			int cols = 1 + (i + 2 < size ? data[i + 2] % 260 : 0);

			i += 2;
			resizeterm(lines, cols);
			tui_key(&t, KEY_RESIZE);
		} else if (b < 0xc0) {
			now += (b & 0x0f) * 0.033;
			tui_tick(&t, now);
		} else if (b < 0xd0) {
			int y = i + 1 < size ? data[i + 1] : 0;
			int x = i + 2 < size ? data[i + 2] : 0;

			i += 2;
			tui_click(&t, y % (LINES > 0 ? LINES : 1), x % (COLS > 0 ? COLS : 1));
		}
		if (t.lab.prompt == LAB_PROMPT_EXPORT)
			lab_prompt_close(&t.lab);
		tui_draw(&t);
		doupdate();
	}
	tui_free(&t);
	return 0;
}
