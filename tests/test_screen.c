/* test_screen.c - the lab drawn into a headless curses screen (newterm on
 * /dev/null with a fixed size), keys fed in, the screen read back cell by
 * cell and held against golden text in tests/golden/screen-*.txt.
 *
 * A golden holds the text, then the attributes of every cell (R reverse,
 * S standout, M bold+underline, U underline, B bold, . plain; C the
 * terminal's own cursor where it is shown), then for colour screens the
 * colour pair of every cell.  GENERATE=1 rewrites the goldens. */
#define _XOPEN_SOURCE_EXTENDED 1
#include <curses.h>
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wchar.h>
#include <wctype.h>
#include <stdbool.h>

#include "keyscript.h"
#include "lab_attention.h"
#include "quiz.h"
#include "tap.h"
#include "text.h"
#include "screen.h"

#include "lab_bugs.h"
#include "screen_fixture.h"
#include "tui.h"
#include "tui_script.h"

/* The lab on w, on the current screen, with animation off (it has its
 * own tests): every test starts from here. */
static void
lab_start(struct tui *t, const struct walk *w, bool color, bool utf8, const char *theme)
{
	tui_init(t, w, color, utf8, theme);
	t->lab.glide.on = false;
}

/* A fresh cols x lines screen with the lab on it. */
static void
lab_open(struct tui *t, const struct walk *w, int cols, int lines, bool color, bool utf8,
         const char *theme)
{
	screen_fixture_open(cols, lines);
	lab_start(t, w, color, utf8, theme);
}

static void
lab_close(struct tui *t)
{
	tui_free(t);
	screen_fixture_close();
}

/* Read the whole screen back as text, attribute map and pair map. */
static char *
screen_dump(bool pairs)
{
	size_t cap = (size_t)(LINES * (COLS * 8 + 2)) * 3 + 64, used = 0;
	char *out = malloc(cap);
	int cy, cx, shown = curs_set(1);  /* (curs_set answers what was) */

	curs_set(shown);
	getyx(stdscr, cy, cx);  /* before mvin_wch moves it */

	for (int pass = 0; pass < (pairs ? 3 : 2); pass++) {
		if (pass == 1)
			used += (size_t)sprintf(out + used, "--- attributes\n");
		if (pass == 2)
			used += (size_t)sprintf(out + used, "--- colour pairs\n");
		for (int y = 0; y < LINES; y++) {
			size_t line_start = used;
			bool skip = false;

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

					if (wch[0] == L'\0' || skip) {
						skip = false;
						continue; /* right half of a wide character */
					}
					skip = wcwidth(wch[0]) == 2;
					n = wcstombs(mb, wch, sizeof mb);
					if (n == (size_t)-1)
						n = (size_t)sprintf(mb, "?");
					memcpy(out + used, mb, n);
					used += n;
				} else if (pass == 1) {
					char c = '.';

					if (shown > 0 && y == cy && x == cx)
						c = 'C';        /* the terminal's own cursor */
					else if (attr & A_REVERSE)
						c = 'R';
					else if (attr & A_STANDOUT)
						c = 'S';
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
	lab_open(&t, &w, 80, 24, true, true, NULL);
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
		const struct scene_item *it = scene_find_label(&t.lab.scene, 10);

		tap_ok(it != NULL, "10 is on screen");
		if (it)
			screen_fixture_click(&t, t.lab.frame.main.y + it->y, t.lab.frame.main.x + it->x + 1);
		tap_eq(t.lab.selected, 10, "clicking it selects 10");
	}
	keys(&t, (int[]){ '4', '\r', 0 });

	keys(&t, (int[]){ '?', 0 });
	golden(&t, "help-80x24", false);
	keys(&t, (int[]){ 'x', 0 });
	tap_ok(!lab_overlay_shown(&t.lab, LAB_OVERLAY_HELP), "any key closes the help");
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
	lab_close(&t);
}

static void
test_variants(void)
{
	struct walk w;
	struct tui t;

	walk_build(&w, WALK_WRONG, 1, 3, 4, 2);
	lab_open(&t, &w, 80, 24, true, true, NULL);
	tui_key(&t, KEY_RIGHT);
	golden(&t, "wrong-80x24", true);
	lab_close(&t);

	walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
	lab_open(&t, &w, 80, 24, false, true, NULL);
	keys(&t, (int[]){ KEY_RIGHT, KEY_RIGHT, 0 });
	golden(&t, "mono-80x24", false);
	lab_close(&t);

	lab_open(&t, &w, 80, 24, false, false, NULL);
	keys(&t, (int[]){ KEY_RIGHT, KEY_RIGHT, 0 });
	golden(&t, "ascii-80x24", false);
	lab_close(&t);

	lab_open(&t, &w, 200, 60, true, true, NULL);
	keys(&t, (int[]){ KEY_RIGHT, KEY_RIGHT, 0 });
	golden(&t, "step3-200x60", true);
	lab_close(&t);

	walk_build(&w, WALK_LESSON, 2, 64, 96, 4);
	lab_open(&t, &w, 80, 24, true, true, NULL);
	keys(&t, (int[]){ '6', '0', '0', '0', '\r', KEY_RIGHT, KEY_RIGHT, 0 });
	tap_eq(t.lab.selected, 6000, "a large layout: jump to 6000");
	golden(&t, "large-80x24", false);
	tui_draw(&t);
	tap_ok(scene_find_label(&t.lab.scene, 6000) != NULL, "the selected cell is drawn");
	lab_close(&t);
}


/* Columns of the first screen line holding needle, read back cell by cell:
 * the characters of that line, one per screen column (wide characters
 * followed by their continuation). */
static int
screen_find_line(const char *needle)
{
	for (int y = 0; y < LINES; y++) {
		char line[2048];
		size_t used = 0;
		bool skip = false;

		for (int x = 0; x < COLS && used + 8 < sizeof line; x++) {
			cchar_t cc;
			wchar_t wch[CCHARW_MAX + 1];
			attr_t attr;
			short pair;

			mvin_wch(y, x, &cc);
			getcchar(&cc, wch, &attr, &pair, NULL);
			if (skip) {
				skip = false;
				continue;
			}
			if (wch[0] != L'\0') {
				size_t n = wcstombs(line + used, wch, sizeof line - used);

				if (n != (size_t)-1)
					used += n;
				skip = wcwidth(wch[0]) == 2;
			}
		}
		line[used] = '\0';
		if (strstr(line, needle))
			return y;
	}
	return -1;
}

/* The wide characters of screen line y, one per column (0 for the right
 * half of a wide character). */
static void
screen_line_chars(int y, wchar_t *out)
{
	for (int x = 0; x < COLS; x++) {
		if (x > 0 && out[x - 1] != 0 && wcwidth(out[x - 1]) == 2) {
			out[x] = 0; /* right half of a wide character */
			continue;
		}
		cchar_t cc;
		wchar_t wch[CCHARW_MAX + 1];
		attr_t attr;
		short pair;

		mvin_wch(y, x, &cc);
		getcchar(&cc, wch, &attr, &pair, NULL);
		out[x] = wch[0];
	}
}

/* Whether the lesson's grid on screen is a true picture: above the storage
 * ribbon and left of column right (the lineage), every label 0..11 once, each
 * on a line whose row header reads "T t" with t = label // 4 (its position),
 * none on a header line.  why says what is wrong. */
static bool
screen_lesson_true(int right, char *why, size_t size)
{
	int count[12] = { 0 }, ribbon = screen_find_line("storage \u2502");

	for (int y = 0; y < (ribbon > 0 ? ribbon : LINES); y++) {
		wchar_t line[512];
		int row = -1;

		screen_line_chars(y, line);
		if (line[1] == L'T' && line[2] == L' ' && line[3] >= L'0' && line[3] <= L'9')
			row = line[3] - L'0';
		for (int x = 0; x < right; x++) {
			int label = 0, end = x;

			if (line[x] < L'0' || line[x] > L'9' || (x > 0 && iswalnum((wint_t)line[x - 1])))
				continue;
			while (end < right && line[end] >= L'0' && line[end] <= L'9')
				label = label * 10 + (int)(line[end++] - L'0');
			if (line[end] != L'a' && line[end] != L'b') {
				x = end;
				continue;
			}
			if (label >= 12 || row < 0 || label / 4 != row) {
				snprintf(why, size, "%d%lc on line %d, row header %d", label, (wint_t)line[end],
				         y, row);
				return false;
			}
			count[label]++;
			x = end;
		}
	}
	for (int l = 0; l < 12; l++)
		if (count[l] != 1) {
			snprintf(why, size, "label %d shown %d times", l, count[l]);
			return false;
		}
	return true;
}

/* Paused, frame by frame through both transposes, forward and back: every
 * frame on the screen is true (issue 14's first report), at 80x24 and at
 * 120x40 in framed cells (zoom 3; big digits, zoom 4, are read as labels
 * only by test_anim). */
static void
test_animation_truth(int cols, int lines, int zoom)
{
	struct walk w;
	struct tui t;
	static const int moves[] = { KEY_RIGHT, KEY_RIGHT, KEY_LEFT, KEY_RIGHT, KEY_RIGHT, 0 };

	walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
	lab_open(&t, &w, cols, lines, true, true, NULL);
	tui_draw(&t);
	while (t.lab.zoom > zoom)
		keys(&t, (int[]){ '-', 0 });
	t.lab.glide.on = true;
	keys(&t, (int[]){ 'a', KEY_RIGHT, 0 });
	tui_draw(&t);
	lab_finish_anim(&t.lab);
	tui_draw(&t);
	for (int i = 0; moves[i]; i++) {
		int from = t.lab.step, frames = 0;
		bool ok = true;
		char why[200] = "";

		tui_key(&t, moves[i]);
		tui_draw(&t);
		while (ok && t.lab.glide.moving && frames <= TUI_ANIM_FRAMES) {
			ok = screen_lesson_true(t.lab.frame.lineage_x, why, sizeof why);
			frames++;
			tui_key(&t, '.');
			tui_draw(&t);
		}
		ok = ok && screen_lesson_true(t.lab.frame.lineage_x, why, sizeof why);
		tap_ok(ok && frames == TUI_ANIM_FRAMES, "paused, step %d to %d at %dx%d, zoom %d: %d "
		       "frames on screen, every label once in its row T (label // 4)%s%s", from + 1,
		       t.lab.step + 1, cols, lines, t.lab.zoom, frames, ok ? "" : ": ", why);
	}
	lab_close(&t);
}

static void
test_animation(void)
{
	struct walk w;
	struct tui t;

	walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
	lab_open(&t, &w, 80, 24, true, true, NULL);
	tui_key(&t, KEY_RIGHT);
	tui_draw(&t);
	t.lab.glide.on = true;
	tui_key(&t, KEY_RIGHT);
	tui_draw(&t);
	tap_ok(t.lab.glide.moving, "a step starts an animation");
	tap_eq(t.lab.glide.frame, 0, "at frame 0");
	t.lab.glide.frame = TUI_ANIM_FRAMES / 2;
	golden(&t, "anim-mid-80x24", true);
	{
		/* mid-way, 6 is between its place in [B,T,H,d] and in [B,H,T,d] */
		size_t i;
		int y, x;

		for (i = 0; i < t.lab.glide.plan.n && t.lab.glide.plan.moves[i].to->label != 6; i++)
			;
		tap_ok(i < t.lab.glide.plan.n, "label 6 moves");
		if (i < t.lab.glide.plan.n) {
			const struct anim_move *m = &t.lab.glide.plan.moves[i];

			anim_at(m, TUI_ANIM_FRAMES / 2, TUI_ANIM_FRAMES, &y, &x);
			tap_ok(m->y0 != m->y1 || m->x0 != m->x1, "6 changes place: (%d,%d) to (%d,%d)",
			       m->y0, m->x0, m->y1, m->x1);
			tap_ok((y - m->y0) * (y - m->y1) <= 0 && (x - m->x0) * (x - m->x1) <= 0,
			       "and at mid-frame it is between the two (%d,%d)", y, x);
		}
	}
	tui_key(&t, KEY_RIGHT);
	tui_draw(&t);
	tap_ok(!t.lab.glide.moving, "a step key during the move finishes it at once");
	tap_eq(t.lab.step, 3, "and steps on without a new move");
	tui_key(&t, KEY_LEFT);
	lab_finish_anim(&t.lab);

	tui_key(&t, 'a');
	tap_ok(t.lab.glide.paused, "a pauses animation");
	tui_draw(&t);
	tui_key(&t, KEY_RIGHT);
	tui_draw(&t);
	tap_ok(t.lab.glide.moving && t.lab.glide.frame == 0, "paused: a step waits at frame 0");
	keys(&t, (int[]){ '.', '.', '.', ',', 0 });
	tap_eq(t.lab.glide.frame, 2, ". three times and , once: frame 2");
	golden(&t, "anim-paused-80x24", false);
	for (int i = 0; i < TUI_ANIM_FRAMES; i++)
		tui_key(&t, '.');
	tap_ok(!t.lab.glide.moving, "stepping frames to the end finishes the move");
	tap_eq(t.lab.step, 3, "on step 4");

	/* the clock drives frames when not paused */
	tui_key(&t, 'a');
	tui_draw(&t);
	tui_key(&t, KEY_LEFT);
	tui_draw(&t);
	tap_ok(t.lab.glide.moving, "Left animates too");
	tui_tick(&t, t.lab.glide.start + 0.2);
	tap_eq(t.lab.glide.frame, 6, "0.2 s later: frame 6 (30 frames a second)");
	tui_tick(&t, t.lab.glide.start + 0.5);
	tap_ok(!t.lab.glide.moving, "after 0.4 s the move is over");

	/* presenter mode steps by itself and loops; a key stops it */
	tui_key(&t, KEY_END);
	lab_finish_anim(&t.lab);
	t.lab.play_secs = 2;
	t.lab.play_next = 100;
	tui_tick(&t, 100.0);
	lab_finish_anim(&t.lab);
	tap_eq(t.lab.step, 0, "presenter mode loops from the last step to the first");
	tui_tick(&t, 102.0);
	tap_eq(t.lab.step, 1, "and steps again 2 s later");
	golden(&t, "play-80x24", false);
	/* from 100x40 up the code and the shape in block lettering, three
	 * lines each, the grid under them */
	resizeterm(40, 120);
	keys(&t, (int[]){ KEY_RESIZE, 0 });
	tap_ok(t.lab.play_secs > 0 && t.lab.frame.play_big, "presenter mode at 120x40 draws its code and "
	       "shape big");
	golden(&t, "play-120x40", false);
	tap_ok(!t.lab.frame.play_title, "at 120x40 the label's title stays the lineage's: the grid needs "
	       "the lines");
	tap_eq(t.lab.frame.play_caption_big, 0, "at 120x40 the caption stays text: in lettering it "
	       "would take more than a third of the screen");
	/* at 200x60 the caption too, in three lines of lettering */
	resizeterm(60, 200);
	keys(&t, (int[]){ KEY_RESIZE, 0 });
	tui_draw(&t);
	tap_eq(t.lab.frame.play_caption_big, 3, "at 200x60 the caption in 3 lines of lettering");
	tap_eq(t.lab.frame.play.h, 17, "in a box of 17 lines, the most a caption may take (a third of the screen)");
	golden(&t, "play-200x60", false);
	/* and the selected label's title lettered under the code and shape,
	 * in its head's colours, as the lineage heads it */
	{
		int y = t.lab.frame.caption_y + LAB_PLAY_BIG_LINES;
		char line[1024];
		bool lettered = true;
		cchar_t cc;
		wchar_t wch[CCHARW_MAX + 1];
		attr_t attr;
		short pair = -1;

		/* "label 4..." starts with l: its stem down the first column */
		for (int r = 0; r < 3; r++) {
			static const char *const stem[3] = { " \u2580\u2588 ", "  \u2588 ", " \u2580\u2580\u2580 " };

			screen_fixture_line(y + r, line, sizeof line);
			lettered &= strncmp(line, stem[r], strlen(stem[r])) == 0;
		}
		mvin_wch(y, 2, &cc);
		getcchar(&cc, wch, &attr, &pair, NULL);
		tap_ok(t.lab.frame.play_title && lettered && pair == PAINT_PAIR_HEAD &&
		       screen_find_line("label 4: position 1, head 0") > y + 3,
		       "at 200x60 the label's title lettered on lines %d to %d in head 0's colours "
		       "(pair %d), the lineage's own title under it", y, y + 2, pair);
	}
	resizeterm(40, 120);
	keys(&t, (int[]){ KEY_RESIZE, 0 });
	golden(&t, "play-120x40", false);
	resizeterm(39, 120);
	keys(&t, (int[]){ KEY_RESIZE, 0 });
	tui_draw(&t);
	tap_ok(!t.lab.frame.play_big, "at 120x39 in text");
	tap_ok(screen_find_line("label 4: position 1, head 0") > 0, "... the label's title whole in text");
	resizeterm(24, 80);
	keys(&t, (int[]){ KEY_RESIZE, 0 });
	tui_key(&t, 'x');
	tap_ok(t.lab.play_secs == 0, "any key hands control back");
	lab_close(&t);
}

static void
test_themes_zoom(void)
{
	static const char *const themes[] = { "default", "projector", "colorblind", "mono" };
	struct walk w;
	struct tui t;
	char name[64];

	walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
	for (size_t i = 0; i < sizeof themes / sizeof themes[0]; i++) {
		lab_open(&t, &w, 80, 24, true, true, themes[i]);
		keys(&t, (int[]){ KEY_RIGHT, KEY_RIGHT, 0 });
		snprintf(name, sizeof name, "theme-%s-80x24", themes[i]);
		golden(&t, name, true);
		lab_close(&t);
	}

	lab_open(&t, &w, 120, 50, true, true, "projector");
	keys(&t, (int[]){ KEY_RIGHT, KEY_RIGHT, '+', '+', '+', '+', '+', '+', 0 });
	tap_eq(t.lab.zoom, 6, "+ six times: zoom 6 (the largest)");
	keys(&t, (int[]){ '-', '-', 0 });
	tap_eq(t.lab.zoom, 4, "- twice: zoom 4, the smallest big digits");
	golden(&t, "zoom4-120x50", false);
	keys(&t, (int[]){ '-', 0 });
	tap_eq(t.lab.zoom, 3, "- zooms out");
	resizeterm(24, 100);
	keys(&t, (int[]){ '=', 0 });
	/* zoom 3 would leave no room for the ribbon (test_lab checks it) */
	tap_eq(t.lab.zoom, 2, "= picks the largest zoom that shows the whole lesson at 100x24: 2");
	resizeterm(50, 120);
	keys(&t, (int[]){ KEY_RESIZE, 0 });
	tui_draw(&t);
	tap_eq(t.lab.zoom, 2, "a chosen zoom survives a resize");
	keys(&t, (int[]){ '-', '-', KEY_RESIZE, 0 });
	resizeterm(60, 200);
	tui_draw(&t);
	tap_eq(t.lab.zoom, 1, "even zoom 1 on a terminal large enough for more");
	lab_close(&t);

	lab_open(&t, &w, 80, 24, true, true, NULL);
	keys(&t, (int[]){ KEY_RIGHT, KEY_RIGHT, 'v', 0 });
	tap_eq(t.lab.mode, LAB_MODE_COMPARE, "v shows before and after");
	golden(&t, "compare-80x24", false);
	lab_close(&t);
}

static void
test_chinese(void)
{
	struct walk w;
	struct tui t;
	char why[256] = "";
	int sizes[][2] = { { 80, 24 }, { 120, 30 } };

	walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
	for (int i = 0; i < 2; i++) {
		wchar_t en[3][256], zh[3][256];
		int rows[3], bad = 0, cols = sizes[i][0];
		char name[64];

		screen_fixture_open(sizes[i][0], sizes[i][1]);
		text_load("en", NULL, why, sizeof why);
		lab_start(&t, &w, true, true, NULL);
		keys(&t, (int[]){ KEY_RIGHT, 0 });
		tui_draw(&t);
		rows[0] = screen_find_line("T 0");
		rows[1] = screen_find_line("T 2");
		rows[2] = screen_find_line("slot");
		for (int r = 0; r < 3; r++)
			if (rows[r] >= 0)
				screen_line_chars(rows[r], en[r]);
		tap_ok(text_load("zh", NULL, why, sizeof why), "Chinese captions load: %s", why);
		tui_draw(&t);
		snprintf(name, sizeof name, "zh-step2-%dx%d", sizes[i][0], sizes[i][1]);
		golden(&t, name, false);
		tap_ok(screen_find_line("reshape 把每个位置的") >= 0, "the Chinese caption is shown");
		for (int r = 0; r < 2; r++) {
			if (rows[r] < 0)
				continue;
			screen_line_chars(rows[r], zh[r]);
			/* the grid is language-neutral: the same glyph in every
			 * column up to where the lineage panel starts */
			for (int x = 0; x < cols - TUI_MIN_COLS && x < t.lab.frame.lineage_x; x++)
				if (en[r][x] != zh[r][x])
					bad++;
		}
		tap_eq(bad, 0, "%dx%d: the grid's columns line up under Chinese captions", sizes[i][0],
		       sizes[i][1]);
		{
			/* nothing runs past the right edge: every line's last
			 * column holds a whole character or a blank */
			int split = 0;

			for (int y = 0; y < LINES; y++) {
				wchar_t line[256];

				screen_line_chars(y, line);
				for (int x = 0; x < COLS; x++)
					if (line[x] != 0 && wcwidth(line[x]) == 2 && x == COLS - 1)
						split++;
			}
			tap_eq(split, 0, "%dx%d: no wide character is cut at the edge", sizes[i][0], sizes[i][1]);
		}
		lab_close(&t);
	}
	text_load("en", NULL, why, sizeof why);
}

static void
test_engineer(void)
{
	static const char *const kinds[] = { "no-transpose", "swap-batch", "d-h", "merge-no-transpose" };
	struct walk w;
	struct tui t;
	char name[64];

	walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
	lab_open(&t, &w, 80, 24, true, true, NULL);
	keys(&t, (int[]){ KEY_RIGHT, KEY_RIGHT, 0 });
	golden(&t, "ribbon-view-80x24", false);
	keys(&t, (int[]){ 'c', 0 });
	tap_ok(lab_walk(&t.lab)->steps[t.lab.step].copied, "c on the heads copies");
	tap_eq(lab_walk(&t.lab)->steps[t.lab.step].storage, 1, "into storage 1");
	golden(&t, "ribbon-copy-80x24", false);
	keys(&t, (int[]){ KEY_RIGHT, 'c', 0 });
	tap_eq(t.lab.step, 4, "stepping on from c goes to the next step of the walk, then c again");
	tap_ok(!lab_walk(&t.lab)->steps[t.lab.step].copied, "c on the swapped-back layout does not copy");
	golden(&t, "ribbon-noop-80x24", false);
	keys(&t, (int[]){ KEY_LEFT, KEY_LEFT, 'V', 0 });
	tap_eq(t.lab.step, 2, "back on the heads");
	tap_ok(strstr(t.lab.note[1], "RuntimeError") != NULL, "V there shows PyTorch's error");
	golden(&t, "view-error-80x24", false);
	keys(&t, (int[]){ 'x', 'i', 0 });
	tap_ok(lab_overlay_shown(&t.lab, LAB_OVERLAY_NUMBERS), "i opens the numbers panel");
	golden(&t, "numbers-80x24", false);
	keys(&t, (int[]){ ']', 0 });
	tap_eq(t.lab.walk.heads, 4, "] goes to 4 heads");
	tap_eq(t.lab.walk.head_width, 1, "of width 1");
	keys(&t, (int[]){ ']', 0 });
	tap_eq(t.lab.walk.heads, 4, "4 is the most heads a width of 4 allows");
	keys(&t, (int[]){ '[', '[', '[', 0 });
	tap_eq(t.lab.walk.heads, 1, "[ goes down to 1 head");
	keys(&t, (int[]){ ']', 'i', 's', 0 });
	tap_eq(t.lab.mode, LAB_MODE_SCORES, "s shows the score tables");
	golden(&t, "scores-80x24", false);
	keys(&t, (int[]){ 's', 0 });
	lab_close(&t);

	lab_open(&t, &w, 100, 30, true, true, NULL);
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		keys(&t, (int[]){ 'b', 0 });
		tap_ok(t.lab.mode == LAB_MODE_BUGS && strcmp(t.lab.bugs->walk.kind_name, kinds[i]) == 0,
		       "b shows bug %s", kinds[i]);
		snprintf(name, sizeof name, "bug-%s-100x30", kinds[i]);
		golden(&t, name, false);
	}
	keys(&t, (int[]){ 'b', 0 });
	tap_eq(t.lab.mode, LAB_MODE_STEP, "b after the last bug goes back");
	lab_close(&t);
}

static void
type(struct tui *t, const char *s)
{
	for (; *s; s++)
		tui_key(t, (unsigned char)*s);
}

static void
test_prompts(void)
{
	struct walk w;
	struct tui t;

	walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
	lab_open(&t, &w, 80, 24, true, true, NULL);
	keys(&t, (int[]){ KEY_RIGHT, KEY_RIGHT, '/', 0 });
	tap_eq(t.lab.prompt.kind, LAB_PROMPT_INDEX, "/ opens the index prompt");
	type(&t, "heads[0, 0, 1]");
	golden(&t, "index-typing-80x24", false);
	keys(&t, (int[]){ '\r', 0 });
	tap_ok(t.lab.lit.on && t.lab.prompt.kind == LAB_PROMPT_NONE, "Enter lights up the cells");
	tui_draw(&t);
	tap_ok(scene_find_label(&t.lab.scene, 4)->mark & SCENE_MARK_LIT, "4 is lit");
	tap_ok(scene_find_label(&t.lab.scene, 5)->mark & SCENE_MARK_LIT, "5 is lit");
	tap_ok(!(scene_find_label(&t.lab.scene, 6)->mark & SCENE_MARK_LIT), "6 is not");
	tap_ok(strstr(t.lab.lit.text, ": 4 5") != NULL, "the status line gives the result: %s", t.lab.lit.text);
	golden(&t, "index-lit-80x24", false);
	keys(&t, (int[]){ KEY_HOME, 0 });
	tui_draw(&t);
	tap_ok((scene_find_label(&t.lab.scene, 4)->mark & SCENE_MARK_LIT) &&
	       (scene_find_label(&t.lab.scene, 5)->mark & SCENE_MARK_LIT) &&
	       !(scene_find_label(&t.lab.scene, 2)->mark & SCENE_MARK_LIT),
	       "stepping back to x: 4 and 5 stay lit where they are there");
	golden(&t, "index-lit-input-80x24", false);
	keys(&t, (int[]){ '/', 0 });
	type(&t, "[0, 5]");
	keys(&t, (int[]){ '\r', 0 });
	tap_eq(t.lab.prompt.kind, LAB_PROMPT_INDEX, "an out-of-range index keeps the prompt open");
	tap_eq(t.lab.prompt.caret, 4, "with the caret under the 5");
	tap_ok(strstr(t.lab.prompt.error, "axis T of size 3") != NULL, "naming the axis: %s", t.lab.prompt.error);
	tap_ok(t.lab.lit.on && (scene_find_label(&t.lab.scene, 4)->mark & SCENE_MARK_LIT),
	       "and the cells lit before stay lit");
	golden(&t, "index-error-80x24", false);
	keys(&t, (int[]){ KEY_UP, 0 });
	tap_ok(strcmp(t.lab.prompt.input, "[0, 5]") == 0, "Up recalls the last expression: %s", t.lab.prompt.input);
	keys(&t, (int[]){ KEY_UP, 0 });
	tap_ok(strcmp(t.lab.prompt.input, "heads[0, 0, 1]") == 0, "Up again, the one before: %s", t.lab.prompt.input);
	keys(&t, (int[]){ 27, 27, 0 });
	tap_ok(t.lab.prompt.kind == LAB_PROMPT_NONE && !t.lab.lit.on && !t.lab.quit,
	       "Esc closes the prompt, Esc again clears the lit cells");

	/* the wrong split: [0, 0, 1] picks 2 and 3 */
	tui_free(&t);
	walk_build(&w, WALK_WRONG, 1, 3, 4, 2);
	lab_start(&t, &w, true, true, NULL);
	keys(&t, (int[]){ KEY_END, '/', 0 });
	type(&t, "[0, 0, 1]\r");
	tap_ok(strstr(t.lab.lit.text, ": 2 3") != NULL, "wrong split: [0, 0, 1] picks 2 3 (%s)", t.lab.lit.text);
	tui_free(&t);

	/* g: a label or an index */
	walk_build(&w, WALK_LESSON, 2, 64, 96, 4);
	lab_start(&t, &w, true, true, NULL);
	keys(&t, (int[]){ 'g', 0 });
	type(&t, "12287\r");
	tap_eq(t.lab.selected, 12287, "g 12287 jumps to the last label");
	keys(&t, (int[]){ KEY_RIGHT, KEY_RIGHT, 'g', 0 });
	type(&t, "1,3,63,23\r");
	tap_eq(t.lab.selected, 12287, "g 1,3,63,23 in the heads layout is the same cell");
	golden(&t, "goto-80x24", false);
	keys(&t, (int[]){ 'g', 0 });
	type(&t, "1,4,0,0\r");
	tap_eq(t.lab.prompt.kind, LAB_PROMPT_GOTO, "an index out of the shape is refused");
	keys(&t, (int[]){ 27, 0 });

	/* : a pattern, a shape, a head count */
	keys(&t, (int[]){ ':', 0 });
	type(&t, "4\r");
	tap_eq(t.lab.walk.heads, 4, ":4 keeps 4 heads");
	keys(&t, (int[]){ ':', 0 });
	type(&t, "1,3,4\r");
	tap_eq(walk_numel(&t.lab.walk), 12, ":1,3,4 rebuilds the lesson's x");
	tap_eq(t.lab.walk.heads, 4, "with the head count kept");
	keys(&t, (int[]){ ':', 0 });
	type(&t, "b t (d h) -> b h t d h=2\r");
	tap_ok(strcmp(t.lab.walk.kind_name, "rearrange") == 0 && t.lab.prompt.kind == LAB_PROMPT_NONE,
	       ":pattern h=2 rebuilds the walk from the pattern");
	keys(&t, (int[]){ KEY_END, 0 });
	golden(&t, "pattern-dh-80x24", false);
	keys(&t, (int[]){ ':', 0 });
	type(&t, "b t (h d -> b h t d\r");
	tap_ok(t.lab.prompt.kind == LAB_PROMPT_COMMAND && t.lab.prompt.caret >= 0,
	       "an unbalanced pattern is refused with a caret (%d: %s)", t.lab.prompt.caret, t.lab.prompt.error);
	golden(&t, "pattern-error-80x24", false);
	keys(&t, (int[]){ 27, 0 });
	{
		/* e: the current step as files, in the directory typed */
		char dir[] = "/tmp/headlab-screen-XXXXXX", path[512];
		FILE *f;

		tap_ok(mkdtemp(dir) != NULL, "a scratch directory");
		keys(&t, (int[]){ 'e', 0 });
		tap_ok(t.lab.prompt.kind == LAB_PROMPT_EXPORT && strcmp(t.lab.prompt.input, "slides") == 0,
		       "e offers to export to slides");
		t.lab.prompt.input[0] = '\0';
		type(&t, dir);
		keys(&t, (int[]){ '\r', 0 });
		snprintf(path, sizeof path, "%s/step-3-permute.svg", dir);
		f = fopen(path, "r");
		tap_ok(f != NULL && t.lab.prompt.kind == LAB_PROMPT_NONE, "Enter writes %s", path);
		if (f)
			fclose(f);
		tap_ok(strstr(t.lab.warning, "wrote 4 files") != NULL, "and says so: %s", t.lab.warning);
		keys(&t, (int[]){ 'e', 0 });
		t.lab.prompt.input[0] = '\0';
		type(&t, "/proc/self/no/such\r");
		tap_ok(t.lab.prompt.kind == LAB_PROMPT_EXPORT && t.lab.prompt.error[0], "an unwritable place is refused: %s",
		       t.lab.prompt.error);
		keys(&t, (int[]){ 27, 0 });
		for (const char *ext = "txt\0ansi\0md\0svg\0"; *ext; ext += strlen(ext) + 1) {
			snprintf(path, sizeof path, "%s/step-3-permute.%s", dir, ext);
			remove(path);
		}
		rmdir(dir);
	}
	keys(&t, (int[]){ 'm', 0 });
	tap_ok(lab_overlay_shown(&t.lab, LAB_OVERLAY_MENU), "m opens the preset menu");
	golden(&t, "menu-80x24", false);
	keys(&t, (int[]){ KEY_DOWN, '\r', 0 });
	tap_ok(strcmp(t.lab.walk.kind_name, "qkv") == 0, "the second entry is qkv: %s", t.lab.walk.kind_name);
	lab_close(&t);
}

static void
test_quiz_screens(void)
{
	struct walk w;
	struct tui t;

	walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
	lab_open(&t, &w, 80, 24, true, true, NULL);
	lab_quiz_start(&t.lab, 3, 7);
	tap_ok(t.lab.mode == LAB_MODE_QUIZ && t.lab.quiz->set.questions[0].kind == QUIZ_WHERE, "the quiz opens on a where question");
	golden(&t, "quiz-where-80x24", false);
	tui_draw(&t);
	tap_ok(strstr(t.lab.scene.items[0].text, "9") == NULL, "labels are hidden while the question is open");
	keys(&t, (int[]){ 'j', 'j', 'l', '\r', 0 });
	tap_ok(t.lab.quiz->revealed && t.lab.quiz->right[0], "moving to 9's cell and Enter is right");
	tap_eq(t.lab.quiz->score, 1, "score 1");
	golden(&t, "quiz-right-80x24", false);
	keys(&t, (int[]){ ' ', 0 });
	tap_eq(t.lab.quiz->asked, 1, "any key: the next question");
	keys(&t, (int[]){ 'l', 'l', ' ', 'l', ' ', 0 });
	tap_eq(t.lab.quiz->nchosen, 2, "Space selects two cells");
	golden(&t, "quiz-select-80x24", false);
	keys(&t, (int[]){ '\r', 0 });
	tap_ok(t.lab.quiz->right[1], "2 and 3 sit at head 1, position 0");
	keys(&t, (int[]){ ' ', 0 });
	type(&t, "1,3,4,1\r");
	tap_ok(!t.lab.quiz->right[2] && strstr(t.lab.quiz->why[2], "[B,T,H,d]"), "1,3,4,1 is before the transpose: %s",
	       t.lab.quiz->why[2]);
	golden(&t, "quiz-wrong-80x24", false);
	for (int i = 3; i < 7; i++)
		keys(&t, (int[]){ ' ', '\r', 0 });
	keys(&t, (int[]){ ' ', 0 });
	tap_ok(t.lab.quiz->done, "after the last question, the summary");
	golden(&t, "quiz-summary-80x24", false);
	keys(&t, (int[]){ 27, 0 });
	tap_ok(t.lab.mode != LAB_MODE_QUIZ && t.lab.walk.kind == WALK_LESSON && walk_numel(&t.lab.walk) == 12,
	       "Esc goes back to the lab and its walk");
	lab_close(&t);
}

/* Lit cells, then another head count: the status line names the cells
 * the grid lights (the expression is worked out again on the new walk). */
static void
test_lit_new_walk(void)
{
	struct walk w;
	struct tui t;

	walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
	lab_open(&t, &w, 80, 24, true, true, NULL);
	keys(&t, (int[]){ KEY_RIGHT, KEY_RIGHT, '/', 0 });
	type(&t, "[0, 1]\r");
	tap_ok(strstr(t.lab.lit.text, ": 2 3 6 7 10 11") != NULL, "[0, 1]: head 1 of 2 (%s)",
	       t.lab.lit.text);
	keys(&t, (int[]){ ']', 0 });
	tui_draw(&t);
	tap_ok(strstr(t.lab.lit.text, ": 1 5 9") != NULL, "] then names head 1 of 4: %s", t.lab.lit.text);
	tap_ok((scene_find_label(&t.lab.scene, 1)->mark & SCENE_MARK_LIT) &&
	       (scene_find_label(&t.lab.scene, 9)->mark & SCENE_MARK_LIT) &&
	       !(scene_find_label(&t.lab.scene, 2)->mark & SCENE_MARK_LIT),
	       "and the grid lights 1 5 9, not 2");
	golden(&t, "index-heads-80x24", false);
	lab_close(&t);
}

/* A copy reorders the storage: the ribbon's labels slide to their slots. */
static void
test_ribbon_move(void)
{
	struct walk w;
	struct tui t;
	wchar_t before[256], mid[256], after[256];
	int row;

	walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
	lab_open(&t, &w, 80, 24, true, true, NULL);
	keys(&t, (int[]){ KEY_RIGHT, KEY_RIGHT, 0 });
	tui_draw(&t);
	row = screen_find_line("storage │");
	tap_ok(row > 0, "the ribbon is on screen (line %d)", row);
	screen_line_chars(row, before);
	t.lab.glide.on = true;
	keys(&t, (int[]){ 'c', 0 });
	tui_draw(&t);
	tap_ok(t.lab.glide.moving, "c on the heads starts a move");
	row = screen_find_line("storage │");
	screen_line_chars(row, mid);
	tap_ok(wcsncmp(before, mid, 80) == 0, "at frame 0 the ribbon is still in the old order");
	t.lab.glide.frame = TUI_ANIM_FRAMES / 2;
	tui_draw(&t);
	screen_line_chars(row, mid);
	lab_finish_anim(&t.lab);
	tui_draw(&t);
	screen_line_chars(row, after);
	tap_ok(wcsncmp(before, after, 80) != 0, "the copy's ribbon has another order");
	/* labels sliding along one line would cross each other: the copy cuts
	 * from the old order to the new one half-way, a true picture each time */
	tap_ok(wcsncmp(mid, after, 80) == 0,
	       "half-way, the ribbon has cut to the new order, no label over another");
	lab_close(&t);
}

/* Row y as ASCII ('?' for any other character, one per column). */
static void
screen_row(int y, char *buf, size_t size)
{
	int n = 0;

	for (int x = 0; x < COLS && (size_t)n + 1 < size; x++) {
		cchar_t cc;
		wchar_t wch[CCHARW_MAX + 1];
		attr_t attr;
		short pair;

		mvin_wch(y, x, &cc);
		getcchar(&cc, wch, &attr, &pair, NULL);
		buf[n++] = wch[0] > 0 && wch[0] < 0x7f ? (char)wch[0] : '?';
	}
	buf[n] = '\0';
}

/* How many times s is on the screen; the attributes and pair of the
 * character at offset at of the last one. */
static int
screen_find(const char *s, int at, attr_t *attr, short *pair)
{
	char row[512];
	int found = 0;

	for (int y = 0; y < LINES; y++) {
		screen_row(y, row, sizeof row);
		for (const char *p = strstr(row, s); p; p = strstr(p + 1, s)) {
			cchar_t cc;
			wchar_t wch[CCHARW_MAX + 1];

			mvin_wch(y, (int)(p - row) + at, &cc);
			getcchar(&cc, wch, attr, pair, NULL);
			found++;
		}
	}
	return found;
}

/* Issue 14: the selected cell and lit cells carry marks that are not
 * colour (brackets or a glyph, bold and underline), in every theme, at
 * every zoom, in UTF-8 and ASCII; in colour they take the theme's own
 * pairs, never reverse video (a hole on a light terminal). */
static void
test_selection_mark(void)
{
	static const char *const themes[] = { "default", "mono" };
	struct walk w;
	struct tui t;

	walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
	for (int u = 0; u < 2; u++) {
		for (size_t th = 0; th < sizeof themes / sizeof themes[0]; th++) {
			bool color = th == 0;

			for (int zoom = 1; zoom <= LAB_ZOOM_MAX; zoom++) {
				attr_t a = 0;
				short pair = -1;
				int n;

				/* the larger digits' grid leaves the storage strip room at 200x60 */
				if (zoom <= 4)
					lab_open(&t, &w, 120, 50, color, u == 0, themes[th]);
				else
					lab_open(&t, &w, 200, 60, color, u == 0, themes[th]);
				t.lab.zoom = zoom;
				t.lab.zoom_auto = false;
				keys(&t, (int[]){ KEY_RIGHT, KEY_RIGHT, 0 });
				tui_draw(&t);
				n = screen_find("[4a]", 1, &a, &pair);
				/* the storage strip's always, the grid's too below big
				 * digits, which stand between brackets in the gaps */
				tap_ok(n == (zoom < 4 ? 2 : 1) &&
				       (zoom < 4 || screen_find(u == 0 ? "T 1 ?[" : "T 1 |[", 5, &a, &pair) == 1),
				       "%s, %s, zoom %d: the selection is bracketed, [4a] %d times",
				       u == 0 ? "UTF-8" : "ASCII", themes[th], zoom, n);
				screen_find("[4a]", 1, &a, &pair);
				tap_ok((a & A_BOLD) && (a & A_UNDERLINE) &&
				       (color ? !(a & A_REVERSE) && pair == PAINT_PAIR_SELECT : (a & A_REVERSE) != 0),
				       "%s, %s, zoom %d: and bold, underlined, %s", u == 0 ? "UTF-8" : "ASCII",
				       themes[th], zoom, color ? "in the selection's colours" : "reversed");
				if (zoom == 1) {
					keys(&t, (int[]){ '/', 0 });
					type(&t, "heads[0, 0, 1]\r");
					tui_draw(&t);
					n = screen_find(u == 0 ? "?[4a]?5a" : "*[4a]*5a", 6, &a, &pair);
					tap_ok(n == 2 && (a & A_BOLD) && (a & A_UNDERLINE) &&
					       (color ? pair == PAINT_PAIR_LIT : (a & A_STANDOUT) != 0),
					       "%s, %s: lit cells (grid and storage strip) have their glyph, bold and "
					       "underline and %s", u == 0 ? "UTF-8" : "ASCII", themes[th],
					       color ? "the lit colours" : "standout");
				}
				lab_close(&t);
			}
		}
	}
}

/* A, --attention: the reading panel at context[0, 0, 1, 0], the
 * concatenation at merged, head ablation and the opening question at
 * 80x24; a click selects; too small and back keeps the place. */
static void
test_attention_screens(void)
{
	struct walk w;
	struct tui t;
	int y, y1;

	walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
	lab_open(&t, &w, 80, 24, true, true, NULL);
	keys(&t, (int[]){ 'A', 0 });
	tap_ok(t.lab.mode == LAB_MODE_ATTENTION, "A shows the attention pass");
	for (int i = 0; i < 10; i++)
		keys(&t, (int[]){ KEY_RIGHT, 0 });
	golden(&t, "attention-reading-80x24", true);
	y = screen_find_line("head 0  s 0 ");
	y1 = screen_find_line("head 1  s 0 ");
	tap_ok(y > 0 && screen_find_line("s 1 ") == y + 1 && y1 == y + 3,
	       "the reading panel lists both heads' rows at position 1");
	tap_ok(screen_find_line("0.002978") == y && screen_find_line("0.997022") == y + 1 &&
	       screen_find_line("0.999998") == y1 && screen_find_line("<1e-4") == y1 + 1 &&
	       screen_find_line("s 2 \u254c\u254c") == y + 2,
	       "head 0 reads [0.002978, 0.997022, masked], head 1 [0.999998, <1e-4, masked]");
	tap_ok(screen_find_line("context[0,0,1,0] = 3.14148 (3 terms)") > 0 &&
	       screen_find_line("sum = 3.14148") > 0, "the terms panel sums to the value");

	/* a click on context[0, 0, 2, 0] (row-major label 4) */
	tui_draw(&t);
	{
		const struct scene_item *it = scene_find_label(&t.lab.attn->grid, 4);

		tap_ok(it != NULL, "context[0, 0, 2, 0] is on screen");
		if (it)
			screen_fixture_click(&t, t.lab.attn->grid_at.y + it->y, t.lab.attn->grid_at.x + it->x + 1);
		tap_ok(t.lab.attn->sel[2] == 2 && t.lab.attn->sel[1] == 0, "clicking it selects it");
	}
	keys(&t, (int[]){ 'k', KEY_RIGHT, KEY_RIGHT, KEY_RIGHT, 0 });
	golden(&t, "attention-merged-80x24", true);
	tap_ok(screen_find_line("concatenated, not added") > 0, "at merged the heads land side by side");
	keys(&t, (int[]){ KEY_RIGHT, 'x', 0 });
	golden(&t, "attention-ablation-80x24", true);
	tap_ok(screen_find_line("zeroing head 0 changes output[0] by") > 0 && screen_find_line("\u25b8 1 \u2502") > 0,
	       "x zeroes head 0: the map of the change, position 1 marked");
	keys(&t, (int[]){ 'o', 0 });
	golden(&t, "attention-opening-80x24", false);

	resizeterm(10, 30);
	tui_draw(&t);
	tap_ok(screen_find_line("too small") >= 0, "below the minimum: the notice");
	resizeterm(1, 1);
	tui_draw(&t);
	resizeterm(24, 80);
	tui_draw(&t);
	tap_ok(t.lab.mode == LAB_MODE_ATTENTION && t.lab.attn->step == ATTENTION_OUTPUT &&
	       t.lab.attn->t == 1, "and back: the same step and position");
	keys(&t, (int[]){ 27, 27, 'A', 0 });
	tap_ok(t.lab.mode == LAB_MODE_ATTENTION, "Esc, Esc leaves the pass, A comes back");
	lab_close(&t);

	/* 200x60: the reading picture across the screen's middle, the heads
	 * side by side; the weights a heat map with its legend */
	walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
	lab_open(&t, &w, 200, 60, true, true, NULL);
	keys(&t, (int[]){ 'A', 0 });
	for (int i = 0; i < 10; i++)
		keys(&t, (int[]){ KEY_RIGHT, 0 });
	golden(&t, "attention-reading-200x60", true);
	y = screen_find_line("where position 1 reads (batch 0)");
	tap_ok(y > 12 && y < 40 && t.lab.attn->side_box.w > 140,
	       "at 200x60 the reading picture is under the grids, across the screen (line %d)", y);
	tap_ok(screen_find_line("head 0") == y + 1 && screen_find_line("head 1") == y + 1,
	       "the heads stand side by side");
	{
		char big[128];

		lab_attention_big(&t.lab, 198, big, sizeof big);
		tap_ok(strcmp(big, "context[0,0,1,0] = 3.14148") == 0 && t.lab.attn->big_y > 10 &&
		       t.lab.attn->big_y + 3 < y, "over the picture, the selected cell and its value in "
		       "block lettering: %s", big);
		lab_attention_big(&t.lab, 60, big, sizeof big);
		tap_ok(strcmp(big, "3.14148") == 0, "... the value alone where the whole would not fit");
	}
	keys(&t, (int[]){ 'j', 0 });
	tui_draw(&t);
	tap_ok(screen_find_line("where position 2 reads (batch 0)") == y && t.lab.attn->t == 2,
	       "j moves the query, and the picture with it (line %d, t %lld)",
	       screen_find_line("where position 2 reads (batch 0)"), (long long)t.lab.attn->t);
	keys(&t, (int[]){ KEY_LEFT, 0 });
	golden(&t, "attention-weights-200x60", true);
	tap_ok(screen_find_line("shade = weight: \u2591 \u00bc  \u2592 \u00bd  \u2593 \u00be  \u2588 1") > 0,
	       "the weights' legend says what each shade means");
	lab_close(&t);
	lab_open(&t, &w, 80, 24, true, true, NULL);
	keys(&t, (int[]){ 'A', 0 });
	for (int i = 0; i < 9; i++)
		keys(&t, (int[]){ KEY_RIGHT, 0 });
	golden(&t, "attention-weights-80x24", true);
	keys(&t, (int[]){ 'A', 0 });
	tap_ok(t.lab.mode == LAB_MODE_STEP && !t.lab.quit, "A again: the layout walk");
	lab_close(&t);
}

/* The pass on a screen too short for its grid: the lines that fit, the
 * selection's among them, and a line saying how many are shown. */
static void
test_attention_short(void)
{
	struct tui t;
	struct walk w;
	char row[64];
	int y;

	walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
	lab_open(&t, &w, 50, 16, true, true, NULL);
	keys(&t, (int[]){ 'A', 0 });
	tui_draw(&t);
	y = screen_find_line("\u22ee input: 3 of 5 lines, h j k l show the rest");
	tap_ok(y > 0 && t.lab.attn->grid_hidden == 2, "50x16: the input grid's cut lines are said (line %d)", y);
	tap_ok(screen_find_line("T 1 \u2502 [4] 5  6  7 \u2502") == y - 1, "the selected row T 1 is shown above that line");
	screen_row(y - 4, row, sizeof row);
	tap_ok(strncmp(row, " input ", 7) == 0 && strspn(row + 7, " ") == strlen(row + 7),
	       "the grid's name stays on its own line: '%s'", row);
	keys(&t, (int[]){ 'j', 0 });
	tui_draw(&t);
	tap_ok(screen_find_line("T 2 \u2502 [8] 9 10 11 \u2502") == y - 1 && screen_find_line("T 0 ") == y - 3,
	       "j selects row T 2: the grid shows it, rows T 0 and T 1 above it");
	lab_close(&t);
}


/* The lesson in 3D: 3 from the grid, then every step as a block, the
 * selected 4 lit in each; at 80x24 and 120x40 (and 200x60 at the swap);
 * monochrome and ASCII. */
static void
test_view3d(void)
{
	static const int sizes[][2] = { { 80, 24 }, { 120, 40 }, { 200, 60 } };
	struct walk w;
	struct tui t;
	char name[48];

	walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
	for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
		int cols = sizes[s][0], lines = sizes[s][1];

		lab_open(&t, &w, cols, lines, true, true, NULL);
		keys(&t, (int[]){ '3', 0 });
		tap_ok(t.lab.view3d, "%dx%d: 3 opens the 3D view", cols, lines);
		for (int k = 0; k < 6; k++) {
			const struct scene_item *it;

			snprintf(name, sizeof name, "3d-step%d-%dx%d", k + 1, cols, lines);
			if (cols < 200 || k == 2)   /* the largest screen at the key step */
				golden(&t, name, true);
			else
				tui_draw(&t);
			it = scene_find_label(&t.lab.scene, 4);
			/* the selection's own colours (not only reverse video) */
			tap_ok(it && (it->mark & SCENE_MARK_SELECTED) &&
			       PAIR_NUMBER(mvinch(t.lab.frame.main.y + it->y, t.lab.frame.main.x + it->x + 2) &
			                   A_COLOR) == PAINT_PAIR_SELECT,
			       "%s: 4 is drawn lit", name);
			tui_key(&t, KEY_RIGHT);
		}
		lab_close(&t);
	}

	lab_open(&t, &w, 80, 24, true, true, NULL);
	keys(&t, (int[]){ '1', '3', 0 });
	tap_ok(!t.lab.view3d && strcmp(t.lab.typed, "13") == 0, "after a digit, 3 is typed: 13");
	keys(&t, (int[]){ 27, '0', '3', '\r', 0 });
	tap_ok(!t.lab.view3d && t.lab.selected == 3, "0 3 Enter selects 3 without leaving the grid");
	keys(&t, (int[]){ '3', KEY_RIGHT, KEY_RIGHT, 'r', 0 });
	tap_ok(t.lab.view3d && t.lab.turn3d == 1, "3 then r: the swap's block turned");
	golden(&t, "3d-turn-80x24", false);
	keys(&t, (int[]){ '3', 0 });
	tap_ok(!t.lab.view3d && t.lab.step == 2 && t.lab.selected == 3,
	       "3 again: the grid, at the same step and selection");
	lab_close(&t);

	/* NO_COLOR (no colour) and an ASCII locale */
	lab_open(&t, &w, 80, 24, false, true, NULL);
	keys(&t, (int[]){ '3', KEY_RIGHT, 0 });
	golden(&t, "3d-nocolor-80x24", false);
	lab_close(&t);
	lab_open(&t, &w, 80, 24, true, false, NULL);
	keys(&t, (int[]){ '3', KEY_RIGHT, KEY_RIGHT, 0 });
	golden(&t, "3d-ascii-80x24", false);
	lab_close(&t);

	/* in Chinese: the 3D line too, the block where it was in English */
	{
		char why[256] = "";
		int row_en, row_zh;

		lab_open(&t, &w, 80, 24, true, true, NULL);
		keys(&t, (int[]){ '3', KEY_RIGHT, KEY_RIGHT, 0 });
		tui_draw(&t);
		row_en = screen_find_line("┌─T 0─┬");
		text_load("zh", NULL, why, sizeof why);
		golden(&t, "3d-zh-80x24", false);
		row_zh = screen_find_line("┌─T 0─┬");
		tap_ok(screen_find_line("3D: H 向下，T 向里，d 横向；B=1 不画") >= 0 && row_en == row_zh && row_en > 0,
		       "zh: the 3D line in Chinese, the front layer on line %d as in English", row_zh);
		text_load("en", NULL, why, sizeof why);
		lab_close(&t);
	}

	/* a block that cannot fit says so */
	walk_build(&w, WALK_LESSON, 2, 3, 4, 2);
	lab_open(&t, &w, 60, 20, true, true, NULL);
	keys(&t, (int[]){ '3', 0 });
	golden(&t, "3d-nofit-60x20", false);
	lab_close(&t);
}

/* The lineage drawn on the screen: the steps it lists (lines ending in
 * "@offset"), the current one among them, and the counts its "earlier"
 * and "later" lines give; the last line it takes. */
static void
lineage_read(int *listed, bool *current, int *earlier, int *later, int *last)
{
	char line[1024];

	*listed = *earlier = *later = 0;
	*current = false;
	*last = -1;
	for (int y = 0; y < LINES; y++) {
		const char *at, *more;
		int n;

		screen_fixture_line(y, line, sizeof line);
		at = strrchr(line, '@');
		more = strstr(line, "\u22ee ");
		if (at && at > line + 30 && at[1] >= '0' && at[1] <= '9') {
			(*listed)++;
			*current |= strstr(line, "\u25b6 ") != NULL;
			*last = y;
		} else if (strstr(line, "same position") || strstr(line, "here at [")) {
			*last = y;      /* the marks' legend, the index at this step */
		} else if (strncmp(line, " [", 2) == 0 && strstr(line, "] \u203a [")) {
			/* the lineage in two lines: every step's index in one */
			for (const char *p = line; (p = strstr(p, "\u203a")) != NULL; p++)
				(*listed)++;
			(*listed)++;
			*current = true;        /* shown in reverse, not as text */
			*last = y;
		} else if (more && sscanf(more + strlen("\u22ee "), "%d", &n) == 1 &&
		           (strstr(more, "earlier") || strstr(more, "later"))) {
			*(strstr(more, "earlier") ? earlier : later) += n;
			*last = y;
		}
	}
}

/* A lineage with fewer lines than the walk has steps lists the steps
 * around the current one and says how many it leaves out at each end:
 * every step counted once, the current one listed, nothing under the
 * hint line (a 7-step block of code at 80x24 drew its last lines there). */
static void
test_lineage_short(void)
{
	static const char block[] = "        B, T, C = x.size()\n"
		"        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)\n"
		"        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)\n";
	struct walk w;
	struct tui t;
	struct code_error err;
	int listed, earlier, later, last;
	bool current;
	char hint[512];

	walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
	lab_open(&t, &w, 80, 24, true, true, NULL);
	keys(&t, (int[]){ 'i', 0 });
	for (int s = 0; s < 6; s++) {
		tui_draw(&t);
		lineage_read(&listed, &current, &earlier, &later, &last);
		tap_ok(listed + earlier + later == 6 && listed >= 1 && current && last < LINES - 1,
		       "numbers panel at 80x24, step %d: the lineage lists %d steps with the current "
		       "one, says %d earlier and %d later", s + 1, listed, earlier, later);
		keys(&t, (int[]){ KEY_RIGHT, 0 });
	}
	lab_close(&t);

	lab_open(&t, &w, 80, 24, true, true, NULL);
	tap_ok(lab_code_command(&t.lab, block, &err), "a 7-step block of code at the : prompt");
	for (int s = 0; s < 7; s++) {
		tui_draw(&t);
		lineage_read(&listed, &current, &earlier, &later, &last);
		screen_fixture_line(LINES - 1, hint, sizeof hint);
		tap_ok(listed + earlier + later == 7 && current && last < LINES - 1 &&
		       strlen(hint) > 6 && strcmp(hint + strlen(hint) - 6, "q quit") == 0,
		       "code block at 80x24, step %d: %d steps listed, %d earlier, %d later, all above "
		       "the hint line (last at %d), which nothing overwrites", t.lab.step + 1, listed, earlier, later, last);
		keys(&t, (int[]){ KEY_LEFT, 0 });
	}
	lab_close(&t);
}

/* A prompt's error too long for the line beside its caret is shown whole,
 * wrapped above the prompt (never cut at the edge). */
static void
test_prompt_error_whole(void)
{
	static const char *const inputs[] = { "b t (h d) -> b h t d", "b t (h d) -> b h t d x" };
	struct walk w;
	struct tui t;

	walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
	for (int i = 0; i < 2; i++) {
		char *text, *flat;
		size_t n = 0;

		lab_open(&t, &w, 80, 24, true, true, NULL);
		keys(&t, (int[]){ ':', 0 });
		for (const char *c = inputs[i]; *c; c++)
			keys(&t, (int[]){ (unsigned char)*c, 0 });
		keys(&t, (int[]){ '\n', 0 });
		tui_draw(&t);
		text = screen_dump(false);
		*strstr(text, "--- attributes") = '\0';
		/* the screen's words in one line, to find a wrapped message */
		flat = malloc(strlen(text) + 1);
		for (char *c = text; *c; c++)
			if (*c != '\n' && !(*c == ' ' && n > 0 && flat[n - 1] == ' '))
				flat[n++] = *c == '\n' ? ' ' : *c;
			else if (*c == '\n' && n > 0 && flat[n - 1] != ' ')
				flat[n++] = ' ';
		flat[n] = '\0';
		tap_ok(t.lab.prompt.error[0] && strstr(flat, t.lab.prompt.error) != NULL,
		       ":%s: the whole error is on screen: %s", inputs[i], t.lab.prompt.error);
		free(flat);
		free(text);
		lab_close(&t);
	}
}

/* The words a Chinese screen may keep in Latin letters (PyTorch's and
 * Python's names, tensors, the lab's identifiers, keys, units, axis and
 * head letters) and the phrases quoted whole, from
 * tests/data/zh-allowed.txt; NULL-terminated. */
static char *zh_allowed[512], *zh_quoted[16];

/* Read tests/data/zh-allowed.txt (beside GOLDEN_DIR) into zh_allowed and
 * zh_quoted; false when it cannot be read. */
static bool
zh_load_allowed(void)
{
	const char *golden = getenv("GOLDEN_DIR");
	char path[4096], line[512];
	int nw = 0, nq = 0;
	FILE *f;

	snprintf(path, sizeof path, "%s/../data/zh-allowed.txt", golden ? golden : "tests/golden");
	f = fopen(path, "r");
	if (f == NULL)
		return false;
	while (fgets(line, sizeof line, f)) {
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "= ", 2) == 0 && nq + 1 < (int)(sizeof zh_quoted / sizeof zh_quoted[0])) {
			zh_quoted[nq++] = strdup(line + 2);
			continue;
		}
		if (line[0] == '#')
			continue;
		for (char *w = strtok(line, " "); w && nw + 1 < (int)(sizeof zh_allowed / sizeof zh_allowed[0]);
		     w = strtok(NULL, " "))
			zh_allowed[nw++] = strdup(w);
	}
	fclose(f);
	return nw > 0;
}

/* Whether p, in the screen's text, is at the right edge of its line (the
 * last column, or the one before it that the chrome leaves blank). */
static bool
zh_at_edge(const char *text, const char *p)
{
	const char *line = p;
	wchar_t wide[1024];
	size_t n;
	char *copy;

	while (line > text && line[-1] != '\n')
		line--;
	copy = strndup(line, (size_t)(p - line));
	n = mbstowcs(wide, copy, sizeof wide / sizeof wide[0] - 1);
	free(copy);
	return n != (size_t)-1 && wcswidth(wide, n) >= COLS - 1;
}

/* The Latin words on the screen that zh_allowed does not list, space
 * separated, in buf. */
static void
zh_english_words(char *buf, size_t size)
{
	char *text = screen_dump(false), *end = strstr(text, "--- attributes");
	size_t used = 0;

	if (end)
		*end = '\0';
	for (int i = 0; zh_quoted[i]; i++)
		for (char *q = strstr(text, zh_quoted[i]); q; q = strstr(q, zh_quoted[i]))
			memset(q, ' ', strlen(zh_quoted[i]));
	buf[0] = '\0';
	for (char *p = text; *p;) {
		char word[64];
		size_t n = 0;
		bool known = false;

		if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z'))) {
			p++;
			continue;
		}
		while (((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
		        *p == '_' || *p == '-') && n + 1 < sizeof word)
			word[n++] = *p++;
		word[n] = '\0';
		while (n > 1 && word[n - 1] == '-')
			word[--n] = '\0';
		/* the exponent of a number: 1.5e-05 */
		known = p - n > text && p[-(ptrdiff_t)n - 1] >= '0' && p[-(ptrdiff_t)n - 1] <= '9' &&
		        word[0] == 'e' && strspn(word + 1, "+-0123456789") == n - 1 && n > 1;
		for (int i = 0; zh_allowed[i] && !known; i++)
			/* a word cut by an ellipsis, or by the screen's right edge,
			 * counts as the word it starts; so does a cut identifier
			 * (k_hea), which no English word is */
			known = strcmp(word, zh_allowed[i]) == 0 ||
			        ((strncmp(p, "\u2026", 3) == 0 || zh_at_edge(text, p) || strchr(word, '_')) &&
			         strncmp(word, zh_allowed[i], n) == 0);
		if (!known && used + n + 2 < size)
			used += (size_t)snprintf(buf + used, size - used, "%s ", word);
	}
	free(text);
}

/* A shot of the Chinese sweep: how the lab is opened, then a script of
 * keys as --keys spells them, where a segment between '|' marks is typed
 * as text ("m|Down Enter" is m, Down, Enter; ":|4|Enter" types 4 at the
 * : prompt).  With every_step, each step of the walk reached from there
 * with Right is a shot of its own, and after each Right the keys of
 * per_step are played first (V, say). */
struct zh_shot {
	const char *name;
	const char *open;       /* NULL, "code:TEXT" as --code, "wrong", "3d", "attention", "play" */
	const char *script;
	bool every_step;
	const char *per_step;
};

/* Play script on the lab as zh_shot describes it. */
static void
zh_play(struct tui *t, const char *script)
{
	char buf[512], err[256];
	bool text = false;

	snprintf(buf, sizeof buf, "%s", script ? script : "");
	for (char *seg = buf, *bar; seg; seg = bar ? bar + 1 : NULL, text = !text) {
		struct keyscript ks;

		bar = strchr(seg, '|');
		if (bar)
			*bar = '\0';
		if (text) {
			tui_draw(t);
			type(t, seg);
			continue;
		}
		if (keyscript_parse(&ks, seg, err, sizeof err) != 0) {
			tap_ok(false, "key script %s: %s", seg, err);
			continue;
		}
		for (int i = 0; i < ks.n; i++) {
			tui_draw(t);
			if (ks.ev[i].kind == KEYSCRIPT_PASTE)
				tui_paste(t, ks.ev[i].text, ks.ev[i].len, ks.ev[i].len);
			else if (ks.ev[i].kind == KEYSCRIPT_NAMED)
				tui_key(t, tui_script_keycode(ks.ev[i].key));
			else
				for (const char *b = ks.ev[i].bytes; *b; b++)
					tui_key(t, (unsigned char)*b);
		}
		keyscript_free(&ks);
	}
}

/* The lab opened on w as shot says (the options term.c would set). */
static void
zh_open(struct tui *t, const struct zh_shot *shot, int cols, int lines)
{
	struct walk w;

	walk_build(&w, shot->open && strcmp(shot->open, "wrong") == 0 ? WALK_WRONG : WALK_LESSON,
	           1, 3, 4, 2);
	lab_open(t, &w, cols, lines, true, true, NULL);
	if (shot->open && strncmp(shot->open, "code:", 5) == 0)
		lab_code_attach(&t->lab, shot->open + 5, false, NULL);
	else if (shot->open && strcmp(shot->open, "3d") == 0)
		t->lab.view3d = true;
	else if (shot->open && strcmp(shot->open, "attention") == 0)
		lab_act(&t->lab, LAB_ATTENTION);
	else if (shot->open && strcmp(shot->open, "play") == 0)
		t->lab.play_secs = 2;
}

/* Check the screen of one shot at one size. */
static void
zh_check(struct tui *t, const char *name, int step, int cols, int lines)
{
	char words[1024], where[32] = "";

	tui_draw(t);
	zh_english_words(words, sizeof words);
	if (step > 0)
		snprintf(where, sizeof where, ", step %d", step);
	if (!tap_ok(words[0] == '\0', "--lang zh %dx%d, %s%s: no English words (%s)", cols, lines, name,
	            where, words)) {
		char *text = screen_dump(false), *end = strstr(text, "--- attributes");

		if (end)
			*end = '\0';
		for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
			printf("# |%s\n", line);
		free(text);
	}
}

/* The shots of the Chinese sweep: every step of every walk (the lesson,
 * the bugs, the presets, code, attention, 3D), every overlay and view,
 * the prompts with their errors, and the status lines keys leave. */
static const struct zh_shot zh_shots[] = {
	{ "the lesson", NULL, "", true, NULL },
	{ "the lesson, V on each step", NULL, "", true, "V" },
	{ "before/after", NULL, "v", true, NULL },
	{ "numbers panel", NULL, "i", true, NULL },
	{ "numbers panel, 4 heads", NULL, "i ]", true, NULL },
	{ "numbers panel, 1 head", NULL, "i [", false, NULL },
	{ "c on step 3", NULL, "Right Right c", true, NULL },
	{ "c then V", NULL, "Right Right c V", false, NULL },
	{ "c on step 4, V", NULL, "Right Right Right c V", false, NULL },
	{ "3D", "3d", "", true, NULL },
	{ "3D turned", "3d", "r", true, NULL },
	{ "3 then r", NULL, "3 r r", false, NULL },
	{ "r on the grid", NULL, "r", false, NULL },
	{ "help", NULL, "?", false, NULL },
	{ "help in the bug lab", NULL, "b ?", false, NULL },
	{ "bug no-transpose", NULL, "b", true, NULL },
	{ "bug swap-batch", NULL, "b b", true, NULL },
	{ "bug d-h", NULL, "b b b", true, NULL },
	{ "bug merge-no-transpose", NULL, "b b b b", true, NULL },
	{ "--wrong", "wrong", "", true, NULL },
	{ "scores", NULL, "s", false, NULL },
	{ "presets", NULL, "m", false, NULL },
	{ "presets, the last", NULL, "m Down Down Down Down", false, NULL },
	{ "preset qkv", NULL, "m Down Enter", true, NULL },
	{ "preset batch-heads", NULL, "m Down Down Enter", true, NULL },
	{ "preset gqa", NULL, "m Down Down Down Enter", true, NULL },
	{ "preset vit", NULL, "m Down Down Down Down Enter", true, NULL },
	{ "preset qkv, numbers", NULL, "m Down Enter i", true, NULL },
	{ "quiz", NULL, "Q", false, NULL },
	{ "quiz, an answer", NULL, "Q Enter", false, NULL },
	{ "quiz, a space", NULL, "Q Space", false, NULL },
	{ "quiz, help", NULL, "Q ?", false, NULL },
	{ "attention", "attention", "", true, NULL },
	{ "attention, a head zeroed", "attention", "x", true, NULL },
	{ "attention, one head or two", "attention", "o", false, NULL },
	{ "attention, numbers", "attention", "i", true, NULL },
	{ "attention, help", "attention", "?", false, NULL },
	{ "--play", "play", "", true, NULL },
	{ "code right", "code:x.view(B, T, H, d).transpose(1, 2)", "Home", true, NULL },
	{ "code no-transpose", "code:x.reshape(B, H, T, d)", "Home", true, NULL },
	{ "code swap-batch", "code:x.view(B, T, H, d).transpose(0, 1)", "", false, NULL },
	{ "code missing-transpose", "code:x.view(B, T, H, d)", "", false, NULL },
	{ "code d-h", "code:x.view(B, T, d, H).transpose(2, 3).transpose(1, 2)", "", false, NULL },
	{ "code wrong-axes", "code:x.view(B, T, H, d).permute(0, 2, 3, 1)", "", false, NULL },
	{ "code merge right", "code:heads.transpose(1, 2).contiguous().view(B, T, D)", "Home", true, NULL },
	{ "code merge-no-transpose", "code:context.reshape(B, T, D)", "", false, NULL },
	{ "code no-merge", "code:heads.transpose(1, 2)", "", false, NULL },
	{ "code merge d-h", "code:heads.permute(0, 2, 3, 1).reshape(B, T, D)", "", false, NULL },
	{ "code at numbers", "code:x.view(1, 3, 2, 2).transpose(1, 2)", "", false, NULL },
	{ "code, one head", "code:x.view(B, T, H, d).transpose(1, 2)", "[", false, NULL },
	{ "code, V", "code:x.view(B, T, H, d).transpose(1, 2)", "V", false, NULL },
	{ "code, numbers", "code:heads.transpose(1, 2).view(B, T, D)", "i", false, NULL },
	{ ": code", NULL, ":|x.view(B, T, H, d).transpose(1, 2)|Enter", false, NULL },
	{ ": code that fails", NULL, ":|heads.view(B, T, D)|Enter", false, NULL },
	{ ": code unknown", NULL, ":|x.repeat_kv(1)|Enter", false, NULL },
	{ ": typing", NULL, ":|b t (h d|", false, NULL },
	{ ": pattern", NULL, ":|b t (h d) -> b h t d h=2|Enter", true, NULL },
	{ ": bad pattern", NULL, ":|b t (h d -> b h t d|Enter", false, NULL },
	{ ": shape", NULL, ":|2,3,4|Enter", false, NULL },
	{ ": big shape", NULL, ":|2,64,96|Enter", true, NULL },
	{ ": heads 4", NULL, ":|4|Enter", false, NULL },
	{ ": heads 3", NULL, ":|3|Enter", false, NULL },
	{ ": heads 0", NULL, ":|0|Enter", false, NULL },
	{ ": garbage", NULL, ":|?!|Enter", false, NULL },
	{ ": shape too big", NULL, ":|9999999,9999999,9999999|Enter", false, NULL },
	{ ": two sizes", NULL, ":|1,3|Enter", false, NULL },
	{ ": four sizes", NULL, ":|1,3,4,5|Enter", false, NULL },
	{ ": a size 0", NULL, ":|1,0,4|Enter", false, NULL },
	{ ": a size too large", NULL, ":|1,3,99999999999999999999|Enter", false, NULL },
	{ ": heads too large", NULL, ":|99999999999999999999|Enter", false, NULL },
	{ ": heads +", NULL, ":|+|Enter", false, NULL },
	{ "pattern, : a size 0", NULL, ":|b t (h d) -> b h t d h=2|Enter :|1,0,4|Enter", false, NULL },
	{ "pattern, : nine sizes", NULL, ":|b t (h d) -> b h t d h=2|Enter :|1,1,1,1,1,1,1,1,1|Enter",
	  false, NULL },
	{ "/ typing", NULL, "Right Right /|heads[0, 0, 1]|", false, NULL },
	{ "/ lit", NULL, "Right Right /|heads[0, 0, 1]|Enter", true, NULL },
	{ "/ out of range", NULL, "/|[0, 5]|Enter", false, NULL },
	{ "/ bad", NULL, "/|x[[|Enter", false, NULL },
	{ "/ empty slice", NULL, "/|x[0, 2:1]|Enter", false, NULL },
	{ "/ unknown name", NULL, "/|y[0]|Enter", false, NULL },
	{ "g label", NULL, "g|7|Enter", false, NULL },
	{ "g bad", NULL, "g|0,5,3|Enter", false, NULL },
	{ "g too far", NULL, "g|99|Enter", false, NULL },
	{ "g words", NULL, "g|#|Enter", false, NULL },
	{ "e prompt", NULL, "e", false, NULL },
	{ "e refused", NULL, "e C-u|0451|Enter", false, NULL },
	{ "label jump", NULL, "7 Enter", false, NULL },
	{ "label too far", NULL, "9 9 Enter", false, NULL },
	{ "label typing", NULL, "1", false, NULL },
	{ "theme", NULL, "t", false, NULL },
	{ "theme twice", NULL, "t t t", false, NULL },
	{ "animation paused", NULL, "a", false, NULL },
	{ "animation on", NULL, "a a", false, NULL },
	{ "frame keys", NULL, "a Right .", false, NULL },
	{ "zoom", NULL, "+ + -", false, NULL },
	{ "zoom fit", NULL, "=", false, NULL },
	{ "heads", NULL, "]", false, NULL },
	{ "heads fewer", NULL, "[ [", false, NULL },
	{ "x outside attention", NULL, "x", false, NULL },
	{ "o outside attention", NULL, "o", false, NULL },
	{ "Tab", NULL, "Tab Tab", false, NULL },
	{ "c on each step", NULL, "", true, "c" },
	{ "--wrong, V on each step", "wrong", "", true, "V" },
	{ "preset gqa, V on each step", NULL, "m Down Down Down Enter", true, "V" },
	{ "preset qkv, before/after", NULL, "m Down Enter v", true, NULL },
	{ "code merge, V on each step", "code:heads.transpose(1, 2).contiguous().view(B, T, D)", "Home",
	  true, "V" },
	{ "code, before/after", "code:x.view(B, T, H, d).transpose(1, 2)", "Home v", true, NULL },
	{ "code, 3D", "code:x.view(B, T, H, d).transpose(1, 2)", "Home 3", true, NULL },
	{ "attention, keys of the grid", "attention", "3 s v b V c t", false, NULL },
	{ "bug lab, V and c", NULL, "b V c", false, NULL },
	{ "--play, the bug lab", "play", "b", false, NULL },
	{ "lit, cleared by a new shape", NULL, "/|x[0, 2]|Enter :|1,2,4|Enter", false, NULL },
	{ "attention, too large", NULL, ":|1,2,4096|Enter A", false, NULL },
	{ ": code undefined", NULL, ":|q_proj.view(1)|Enter", false, NULL },
	{ "e not a directory", NULL, "e C-u|0451/0|Enter", false, NULL },
	{ "e writes", NULL, "e C-u|0452|Enter Enter", false, NULL },
	{ "preset, big shape", NULL, "m Down Enter :|9999999,9999999,9999999,9|Enter", false, NULL },
	{ "preset, : shape", NULL, "m Down Enter :|2,3,4|Enter", false, NULL },
	{ "preset, : heads", NULL, "m Down Enter :|3|Enter", false, NULL },
	{ "pattern, : heads", NULL, ":|b t (h d) -> b h t d h=2|Enter :|3|Enter", false, NULL },
	{ "code that slices", "code:x[:, :2].reshape(1, 2, 2, 2)", "Home", true, NULL },
	{ "code that slices, label 11", "code:x[:, :2].reshape(1, 2, 2, 2)", "1 1 Enter Home", true, NULL },
	{ "code that copies", "code:heads.transpose(1, 2).contiguous().view(B, T, D)", "Home 7 Enter", true, NULL },
	{ "code expand", "code:x.unsqueeze(1).expand(1, 2, 3, 4)", "Home", true, NULL },
	{ "code, : shape", "code:x.view(B, T, H, d).transpose(1, 2)", ":|2,3,8|Enter", true, NULL },
	{ "code, : heads", "code:x.view(B, T, H, d).transpose(1, 2)", ":|3|Enter", false, NULL },
	{ "lit, then a new walk", NULL, "/|x[0, 1]|Enter :|2,3,4|Enter", false, NULL },
	{ "3D, bug lab", "3d", "b", true, NULL },
	{ "3D, numbers", "3d", "i", false, NULL },
	{ "3D, big shape", NULL, ":|2,64,96|Enter 3", true, NULL },
	{ "Esc once", NULL, "/ Esc", false, NULL },
};

/* One shot at one size: its screen, then with every_step each step that
 * Right reaches. */
static void
zh_sweep(const struct zh_shot *shot, int cols, int lines)
{
	struct tui t;

	zh_open(&t, shot, cols, lines);
	zh_play(&t, shot->script);
	if (shot->per_step)
		zh_play(&t, shot->per_step);
	zh_check(&t, shot->name, shot->every_step ? 1 : 0, cols, lines);
	for (int k = 2; shot->every_step && k <= 16; k++) {
		char *before = screen_dump(false), *after;
		bool moved;

		zh_play(&t, "Right");
		if (shot->per_step)
			zh_play(&t, shot->per_step);
		tui_draw(&t);
		after = screen_dump(false);
		moved = strcmp(before, after) != 0;
		free(before);
		free(after);
		if (!moved)
			break;
		zh_check(&t, shot->name, k, cols, lines);
	}
	lab_close(&t);
}

/* A scratch directory to work in, holding 0451 (a directory e refuses:
 * it holds a file 0), named so that no path typed at e is a word; the
 * directory worked in before is kept in cwd. */
static bool
zh_scratch_open(char *cwd, size_t size, char *dir)
{
	FILE *f;

	if (getcwd(cwd, size) == NULL || mkdtemp(dir) == NULL || chdir(dir) != 0)
		return false;
	f = mkdir("0451", 0700) == 0 ? fopen("0451/0", "w") : NULL;
	if (f)
		fclose(f);
	return f != NULL;
}

/* Back to cwd, the scratch directory and what e wrote there removed. */
static void
zh_scratch_close(const char *cwd, const char *dir)
{
	remove("0451/0");
	rmdir("0451");
	for (const char *ext = "txt\0ansi\0md\0svg\0"; *ext; ext += strlen(ext) + 1) {
		char path[64];

		snprintf(path, sizeof path, "0452/step-1-input.%s", ext);
		remove(path);
	}
	remove("0452/headlab-manifest.txt");
	rmdir("0452");
	if (chdir(cwd) == 0)
		rmdir(dir);
}

/* Every screen of the lab under --lang zh carries no English word but
 * PyTorch's names, identifiers and axis letters (zh_shots, then the quiz
 * question by question). */
static void
test_chinese_everywhere(void)
{
	struct tui t;
	char why[256] = "", cwd[4096], dir[] = "/tmp/headlab-zh-XXXXXX";
	int sizes[][2] = { { 80, 24 }, { 120, 40 }, { 50, 16 }, { 200, 60 } };

	tap_ok(text_load("zh", NULL, why, sizeof why), "Chinese captions load: %s", why);
	tap_ok(zh_load_allowed(), "the words a Chinese screen may keep: tests/data/zh-allowed.txt");
	tap_ok(zh_scratch_open(cwd, sizeof cwd, dir), "a scratch directory %s holding 0451/0", dir);
	/* a sample: every shot at 80x24 */
	for (int z = 0; z < (tap_sample() ? 1 : (int)(sizeof sizes / sizeof sizes[0])); z++)
		for (size_t i = 0; i < sizeof zh_shots / sizeof zh_shots[0]; i++)
			zh_sweep(&zh_shots[i], sizes[z][0], sizes[z][1]);
	zh_scratch_close(cwd, dir);
	for (int z = 0; z < (int)(sizeof sizes / sizeof sizes[0]); z++) {
		/* every question of the quiz, its answer, then the summary */
		struct walk w;
		int asked = 0;

		walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
		lab_open(&t, &w, sizes[z][0], sizes[z][1], true, true, NULL);
		lab_quiz_start(&t.lab, 3, QUIZ_KINDS);
		for (; asked < 40 && !t.lab.quiz->done; asked++) {
			zh_check(&t, "quiz, a question", asked + 1, sizes[z][0], sizes[z][1]);
			keys(&t, (int[]){ '\r', 0 });
			zh_check(&t, "quiz, its answer", asked + 1, sizes[z][0], sizes[z][1]);
			keys(&t, (int[]){ ' ', 0 });
		}
		tap_ok(t.lab.quiz->done, "the quiz ends after %d questions", asked);
		zh_check(&t, "quiz summary", 0, sizes[z][0], sizes[z][1]);
		lab_close(&t);
	}
	text_load("en", NULL, why, sizeof why);
}

int
main(void)
{
	char why[256] = "";

	setlocale(LC_ALL, "C.UTF-8");
	/* captions from the source tree's assets (HEADLAB_DATADIR) */
	tap_ok(text_load("en", NULL, why, sizeof why), "captions load: %s", why);
	test_lesson_80x24();
	test_variants();
	test_animation();
	test_animation_truth(80, 24, 1);
	test_animation_truth(120, 40, 3);
	test_themes_zoom();
	test_chinese();
	test_chinese_everywhere();
	test_prompt_error_whole();
	test_lineage_short();
	test_engineer();
	test_prompts();
	test_quiz_screens();
	test_ribbon_move();
	test_lit_new_walk();
	test_selection_mark();
	test_attention_screens();
	test_attention_short();
	test_view3d();
	return tap_done();
}
