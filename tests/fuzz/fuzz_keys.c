/* fuzz_keys.c - the lab's key input, headless: one curses screen on
 * /dev/null (xterm-256color, 80x24) reading its input from a pipe, a walk
 * picked by the first byte, then every following byte is an event for
 * tui_key (and a redraw when the lab says the screen changed):
 *
 *   0x00-0x7f  that character as a key (control characters included)
 *   0x80-0x9f  a curses key: arrows, Home, End, PgUp, Enter, mouse, ...
 *   0xa0-0xaf  a resize: the next two bytes give lines 1..80 and columns
 *              1..260 (resizeterm, then KEY_RESIZE as getch returns it)
 *   0xb0-0xbf  time passes: (low nibble) * 33 ms, then tui_tick
 *   0xc0-0xcf  a mouse click at the screen position of the next two bytes
 *   0xd0-0xdf  bytes from the terminal: the next 2 * (low nibble + 1) go
 *              down the pipe and through the lab's own decoding (escape
 *              sequences, unknown ones dropped) one turn at a time
 *   0xe0-0xff  a redraw only
 *
 * The first byte: its low three bits pick a walk, bit 0x08 from the huge
 * ones (a prime width near 2^63, storage near 2^63, patterns and bugs at
 * those sizes); 0x10 no colour, 0x20 ASCII, 0x40 the mono theme.
 *
 * The lab stops taking keys once it quits, as term_run does.  The export
 * prompt (e) writes: before every event its path is kept to one name inside
 * a scratch directory of the fuzzer's (made in the working directory,
 * emptied after every input, removed at exit): no '/' after the
 * directory's, no leading '.', so nothing is written anywhere else. */
#define _XOPEN_SOURCE_EXTENDED 1
#include <curses.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"
#include "pattern.h"
#include "screen.h"
#include "screen_fixture.h"
#include "term.h"
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

/* The huge walks (bit 0x08 of the first byte): what issue 13 found
 * stalls and overflows at. */
static void
fuzz_huge_walk(struct walk *w, uint8_t b)
{
	static const int64_t pair[2] = { 3037000499, 3037000499 };
	static const int64_t qkv[3] = { 1, 1, 9223372036854775806 };
	struct pattern_size size;
	struct pattern_error err;

	memset(&size, 0, sizeof size);
	switch (b % 8) {
	case 0: walk_build(w, WALK_LESSON, 1, 1, 9223372036854775783, 1); break; /* prime */
	case 1: walk_build(w, WALK_LESSON, 1, 1, 461168601842738790, 1); break;
	case 2: walk_build(w, WALK_LESSON, 1, 2, 4611686018427387902, 2); break;
	case 3: walk_build(w, WALK_WRONG, 1, 1, 9223372036854775806, 2); break;
	case 4: walk_build(w, WALK_WRONG_MERGE, 3, 3, 1024819115206086200, 4); break;
	case 5:
		if (!pattern_parse_size("b=2", &size, &err) ||
		    !pattern_walk(w, "(a b) -> b a", 1, qkv + 2, &size, 1, &err))
			abort();
		break;
	case 6:
		if (!pattern_walk(w, "a b -> b a", 2, pair, &size, 0, &err))
			abort();
		break;
	default:
		if (!pattern_walk(w, "b t (h d) -> b h t d", 3, qkv, &size, 0, &err))
			walk_build(w, WALK_LESSON, 1, 1, 9223372036854775806, 2);
		break;
	}
}

/* The walk the first byte names: the lesson, its bugs, a large layout, a
 * pattern; with bit 0x08 a huge one. */
static void
fuzz_walk(struct walk *w, uint8_t b)
{
	static const char *const axis = "h=4";
	struct pattern_size size;
	struct pattern_error err;
	static const int64_t shape[4] = { 2, 3, 4, 8 };

	if (b & 0x08) {
		fuzz_huge_walk(w, b);
		return;
	}
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
static int fuzz_pipe = -1;      /* the write end of the screen's input */
static char fuzz_dir[64];        /* the scratch directory, in the working directory */

/* Remove one entry of the scratch directory's tree (nftw, depth first). */
static int
fuzz_remove(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	if (ftw->level > 0)
		remove(path);
	return 0;
}

/* Empty the scratch directory. */
static void
fuzz_clear(void)
{
	nftw(fuzz_dir, fuzz_remove, 16, FTW_DEPTH | FTW_PHYS);
}

/* The screen lives as long as the process; closed at exit so that a
 * leak checker sees only what the lab itself lost; the scratch directory
 * goes too. */
static void
fuzz_close(void)
{
	endwin();
	delscreen(fuzz_screen);
	fclose(fuzz_out);
	fclose(fuzz_in);
	close(fuzz_pipe);
	fuzz_clear();
	rmdir(fuzz_dir);
}

static void
fuzz_open(void)
{
	int fds[2];

	/* in the working directory: tests/fuzz/run's scratch one, which it
	 * removes even when libFuzzer ends without atexit */
	snprintf(fuzz_dir, sizeof fuzz_dir, "headlab-fuzz-keys.XXXXXX");
	if (mkdtemp(fuzz_dir) == NULL || pipe(fds) != 0)
		abort();
	fcntl(fds[0], F_SETFL, O_NONBLOCK);
	fcntl(fds[1], F_SETFL, O_NONBLOCK);
	fuzz_pipe = fds[1];
	fuzz_out = fopen("/dev/null", "w");
	fuzz_in = fdopen(fds[0], "r");
	setenv("COLUMNS", "80", 1);
	setenv("LINES", "24", 1);
	fuzz_screen = newterm("xterm-256color", fuzz_out, fuzz_in);
	if (fuzz_screen == NULL)
		abort();
	set_term(fuzz_screen);
	keypad(stdscr, TRUE);
	set_escdelay(0);
	atexit(fuzz_close);
}

/* The export prompt's path kept to one name in the scratch directory:
 * the directory's name and '/' in front, no other '/', no leading '.'. */
static void
fuzz_confine(struct lab *lab)
{
	size_t n = strlen(fuzz_dir) + 1;
	char name[LAB_INPUT_MAX];

	if (lab->prompt.kind != LAB_PROMPT_EXPORT)
		return;
	if (strncmp(lab->prompt.input, fuzz_dir, n - 1) != 0 || lab->prompt.input[n - 1] != '/') {
		snprintf(name, sizeof name, "%.*s", (int)sizeof name - 1, lab->prompt.input);
		snprintf(lab->prompt.input, sizeof lab->prompt.input, "%s/%.*s", fuzz_dir,
		         (int)(sizeof lab->prompt.input - n - 1), name);
	}
	for (char *c = lab->prompt.input + n; *c; c++)
		if (*c == '/' || (c == lab->prompt.input + n && *c == '.'))
			*c = '_';
}

/* Bytes the terminal sends: down the pipe, then through the lab's own
 * decoding one turn at a time until none is left; the redraw flags. */
static int
fuzz_bytes(struct tui *t, const uint8_t *bytes, size_t n)
{
	int r = 0, turn;

	if (write(fuzz_pipe, bytes, n) != (ssize_t)n)
		return 0;
	do {
		fuzz_confine(&t->lab);
		turn = t->lab.quit ? 0 : term_feed(t, 0);
		r |= turn;
	} while (turn);
	return r;
}

/* Whatever the last input left unread (it quit before) is dropped. */
static void
fuzz_drain(void)
{
	char buf[512];

	while (read(fileno(fuzz_in), buf, sizeof buf) > 0)
		;
	flushinp();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct tui t;
	static struct walk w;
	double now;

	if (fuzz_screen == NULL)
		fuzz_open();
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
		int r = SCREEN_REDRAW;

		fuzz_confine(&t.lab);
		if (b < 0x80) {
			r = tui_key(&t, b);
		} else if (b < 0xa0) {
			r = tui_key(&t, fuzz_keys[b - 0x80]);
		} else if (b < 0xb0) {
			int lines = 1 + (i + 1 < size ? data[i + 1] % 80 : 0);
			int cols = 1 + (i + 2 < size ? data[i + 2] % 260 : 0);

			i += 2;
			resizeterm(lines, cols);
			tui_key(&t, KEY_RESIZE);
		} else if (b < 0xc0) {
			now += (b & 0x0f) * 0.033;
			r = tui_tick(&t, now) ? SCREEN_REDRAW : 0;
		} else if (b < 0xd0) {
			int y = i + 1 < size ? data[i + 1] : 0;
			int x = i + 2 < size ? data[i + 2] : 0;

			i += 2;
			screen_fixture_click(&t, y % (LINES > 0 ? LINES : 1), x % (COLS > 0 ? COLS : 1));
		} else if (b < 0xe0) {
			size_t n = 2 * (size_t)((b & 0x0f) + 1);

			if (n > size - i - 1)
				n = size - i - 1;
			r = fuzz_bytes(&t, data + i + 1, n);
			i += n;
		}
		if (r & SCREEN_REDRAW) {
			tui_draw(&t);
			doupdate();
		}
	}
	fuzz_drain();
	fuzz_clear();
	tui_free(&t);
	return 0;
}
