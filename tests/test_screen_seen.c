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

#include "anim.h"
#include "code.h"
#include "tap.h"
#include "text.h"
#include "lab.h"
#include "screen_fixture.h"
#include "tui.h"

static char lines[100][2048];   /* the screen as text, one UTF-8 line each */

/* A cols x lines headless screen with the lab on w, animation off. */
static void
open_lab(struct tui *t, const struct walk *w, int cols, int nlines)
{
	screen_fixture_open(cols, nlines);
	tui_init(t, w, true, true, NULL);
	t->lab.glide.on = false;
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
	screen_fixture_close();
}

/* Draw and read the screen back into lines[]. */
static void
grab(struct tui *t)
{
	tui_draw(t);
	for (int y = 0; y < LINES && y < 100; y++)
		screen_fixture_line(y, lines[y], sizeof lines[y]);
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

/* ---- moves ---------------------------------------------------------- */

/* Whether every frame in transit of the planned move is free of clutter:
 * each column number (a number on a line no cell stands on) stands over a
 * cell of the frame and no two over the same cell, and each rule is one of
 * both layouts at that place; why says what is wrong. */
static bool
frames_clean(const struct anim *a, char *why, size_t size)
{
	struct scene fr = { 0 };

	for (int f = 1; f < a->frames; f++) {
		bool at_from = true, at_to = true;

		for (size_t m = 0; m < a->n; m++) {
			int y, x;

			anim_at(&a->moves[m], f, a->frames, &y, &x);
			at_from = at_from && y == a->moves[m].y0 && x == a->moves[m].x0;
			at_to = at_to && y == a->moves[m].y1 && x == a->moves[m].x1;
		}
		if (at_from || at_to)
			continue;       /* the old picture or the new one, whole */
		if (!anim_frame(a, f, &fr)) {
			snprintf(why, size, "no frame %d", f);
			return false;
		}
		for (size_t i = 0; i < fr.n; i++) {
			const struct scene_item *h = &fr.items[i];
			bool cells_on_line = false;
			int under = 0;

			if (h->style == SCENE_RULE) {
				bool both = false;

				for (size_t j = 0; j < a->from->n && !both; j++) {
					const struct scene_item *o = &a->from->items[j];

					if (o->style == SCENE_RULE && o->y + a->from_dy == h->y &&
					    o->x + a->from_dx == h->x)
						for (size_t k = 0; k < a->to->n && !both; k++) {
							const struct scene_item *n = &a->to->items[k];

							both = n->style == SCENE_RULE && n->y + a->to_dy == h->y &&
							       n->x + a->to_dx == h->x;
						}
				}
				if (!both) {
					snprintf(why, size, "frame %d: a rule of one layout at (%d,%d)", f, h->y, h->x);
					scene_free(&fr);
					return false;
				}
				continue;
			}
			if (h->style != SCENE_PLAIN)
				continue;
			for (size_t j = 0; j < fr.n; j++)
				if (fr.items[j].style == SCENE_CELL && h->y >= fr.items[j].y &&
				    h->y < fr.items[j].y + fr.items[j].height)
					cells_on_line = true;
			if (cells_on_line)
				continue;       /* a row number */
			for (size_t j = 0; j < fr.n; j++) {
				const struct scene_item *c = &fr.items[j];

				if (c->style == SCENE_CELL && c->y > h->y && c->x < h->x + h->width &&
				    h->x < c->x + c->width) {
					under++;
					for (size_t k = 0; k < fr.n; k++)
						if (k != i && fr.items[k].style == SCENE_PLAIN && fr.items[k].y == h->y &&
						    fr.items[k].x < c->x + c->width && c->x < fr.items[k].x + fr.items[k].width) {
							snprintf(why, size, "frame %d: '%s' and '%s' over one cell (%s)", f,
							         h->text, fr.items[k].text, c->text);
							scene_free(&fr);
							return false;
						}
				}
			}
			if (under == 0) {
				snprintf(why, size, "frame %d: column number '%s' at (%d,%d) over no cell", f,
				         h->text, h->y, h->x);
				scene_free(&fr);
				return false;
			}
		}
	}
	scene_free(&fr);
	return true;
}

/* Both transposes of the lesson, forward and back, at 80x24 (zoom 1), at
 * 120x40 at zoom 4 and at 100x32 (zoom 3): every frame in transit clean. */
static void
test_moves_clean(void)
{
	static const struct { int cols, lines, zoom; } sizes[] = { { 80, 24, 0 }, { 120, 40, 4 },
	                                                           { 100, 32, 0 } };

	for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
		static const int moves[] = { KEY_RIGHT, KEY_RIGHT, KEY_RIGHT, KEY_LEFT, KEY_LEFT, 0 };
		struct tui t;

		open_lesson(&t, 2, sizes[s].cols, sizes[s].lines);
		if (sizes[s].zoom) {
			t.lab.zoom = sizes[s].zoom;
			t.lab.zoom_auto = false;
		}
		t.lab.glide.on = true;
		tui_key(&t, 'a');       /* paused: the move waits for . */
		for (int i = 0; moves[i]; i++) {
			int from = t.lab.step;
			char why[200] = "";
			bool ok;

			tui_key(&t, moves[i]);
			tui_draw(&t);
			ok = t.lab.glide.moving && frames_clean(&t.lab.glide.plan, why, sizeof why);
			tap_ok(ok || (!t.lab.glide.moving && from + 1 == 1),
			       "%dx%d, zoom %d, step %d to %d: every frame's column numbers over their cells, "
			       "no rule of one layout alone%s%s", sizes[s].cols, sizes[s].lines, t.lab.zoom,
			       from + 1, t.lab.step + 1, ok ? "" : ": ", t.lab.glide.moving ? why : "no move");
			lab_finish_anim(&t.lab);
			tui_draw(&t);
		}
		close_lab(&t);
	}
}

/* S slows the glide 2, 4, 8 times, then back to its pace; a frame on the
 * clock is the frame at that pace. */
static void
test_slow_motion(void)
{
	struct tui t;
	double start;

	open_lesson(&t, 2, 80, 24);
	t.lab.glide.on = true;
	tap_eq(t.lab.glide.slow, 1, "the glide starts at its pace");
	keys(&t, "S");
	grab(&t);
	tap_eq(t.lab.glide.slow, 2, "S: twice as slow");
	shows("slow motion: a step glides 2 times as slowly", "S: the status line says so");
	tui_key(&t, KEY_RIGHT);
	tui_draw(&t);
	start = t.lab.glide.start;
	lab_tick(&t.lab, start + 0.2);
	tap_eq(t.lab.glide.frame, 3, "0.2 s into a glide twice as slow: frame 3 (6 at the normal pace)");
	tap_ok(t.lab.glide.moving, "and still on its way");
	lab_tick(&t.lab, start + 0.79);
	tap_ok(t.lab.glide.moving && t.lab.glide.frame == 11, "0.79 s: frame 11 of 12 (%d)", t.lab.glide.frame);
	lab_tick(&t.lab, start + 0.81);
	tap_ok(!t.lab.glide.moving, "0.81 s: arrived");
	keys(&t, "SS");
	tap_eq(t.lab.glide.slow, 8, "S S: eight times as slow");
	keys(&t, "S");
	grab(&t);
	tap_eq(t.lab.glide.slow, 1, "S again: the normal pace");
	shows("the glide at its normal pace", "S again: the status line says so");
	close_lab(&t);
}

/* ---- the quiz's reveal ------------------------------------------------ */

/* --quiz --seed 1: a wrong cell for label 5 marks the right one (5a lit
 * and selected, its lineage shown) and the one chosen (8a, wrong); the
 * question of head 1, position 0 is asked on x with no header naming a
 * head, its reveal on the heads; the shape question's reveal shows the
 * [B,H,T,d] layout. */
static void
test_quiz_reveal(void)
{
	struct tui t;
	int y;

	open_lesson(&t, 2, 80, 24);
	lab_quiz_start(&t.lab, 1, 7);
	keys(&t, "jj\r");
	grab(&t);
	shows("Not quite (answer: [0, 0, 1, 1])", "Q1, 8 for 5: wrong");
	shows("T 1 \u2502  4a\u25c6[5a]\u2502", "Q1: 5a, the answer, lit and selected");
	shows("T 2 \u2502\u2716 8a  9a \u2502", "Q1: 8a, the cell chosen, marked wrong");
	shows("label 5: position 1, head 0", "Q1: the lineage of 5");
	keys(&t, "x");
	grab(&t);
	shows("Which labels sit at head 1, position 0", "Q2");
	shows("step 1/6", "Q2 is asked on x");
	hides("H 1", "Q2: no panel title names head 1");
	{
		int n = 0;

		for (int i = 0; i < LINES; i++)
			n += strstr(lines[i], "head 1") != NULL || strstr(lines[i], "head 0") != NULL;
		tap_eq(n, 1, "Q2: no group title names a head; only the question does");
	}
	keys(&t, " \r");
	grab(&t);
	shows("step 3/6", "Q2's reveal: the heads");
	y = find("T 0 \u2502\u2716[0a] 1a \u2502");
	tap_ok(y > 0 && strstr(lines[y], "\u25c62b \u25c63b") != NULL,
	       "Q2's reveal: 0a, chosen, marked wrong; 2b and 3b, the answer, lit (%s)",
	       y > 0 ? lines[y] : "no T 0 row");
	keys(&t, "x12\r");
	grab(&t);
	shows("What shape does split_heads return with 4 heads?", "Q3");
	shows("step 3/6", "Q3's reveal: the heads layout");
	shows("B 0 \u00b7 H 3", "Q3's reveal: [B,H,T,d], four heads");
	close_lab(&t);
}

/* ---- smaller words --------------------------------------------------- */

/* The display column where needle ends on line y (its last character), or
 * -1: every character of the step bar takes one column. */
static int
end_col(int y, const char *needle, bool last)
{
	const char *p = strstr(lines[y], needle), *q;
	wchar_t w[2048];
	char head[2048];
	size_t n;

	if (p == NULL)
		return -1;
	while (last && (q = strstr(p + 1, needle)) != NULL)
		p = q;
	snprintf(head, sizeof head, "%.*s", (int)(p - lines[y] + (long)strlen(needle)), lines[y]);
	n = mbstowcs(w, head, 2048);
	return n == (size_t)-1 ? -1 : (int)n - 1;
}

/* --heads 4 at 80x24: the heads' numbers have their name and the caption
 * its singular; merge_heads stands over its three steps; the attention
 * pass's merged step names no head letters as values; the help scrolls at
 * 40x12 and says which lines show. */
static void
test_small_words(void)
{
	struct tui t;
	int y;

	open_lesson(&t, 4, 80, 24);
	grab(&t);
	shows("head  0     1     2     3", "--heads 4, step 1: the head numbers named");
	shows("Each run of 1 feature will become one head.", "--heads 4: one feature, singular");
	y = find("merge_heads");
	tap_ok(y >= 0 && end_col(y, "\u2500", true) == end_col(y + 1, "reshape", true) &&
	       end_col(y, "split_heads", false) < end_col(y + 1, "swap", false),
	       "merge_heads's line reaches the last reshape (column %d, %d)", y >= 0 ? end_col(y, "\u2500", true) : -1,
	       y >= 0 ? end_col(y + 1, "reshape", true) : -1);
	close_lab(&t);

	open_lesson(&t, 2, 120, 40);
	tui_key(&t, 'A');
	for (int i = 0; i < 13; i++)    /* step 14 of 15 */
		tui_key(&t, KEY_RIGHT);
	grab(&t);
	shows("merged", "the attention pass at its merged step");
	shows("reshape joins the heads: at each position, head 0's 2 numbers, then head 1's",
	      "its caption counts the numbers");
	hides("[a, b]", "no head letters read as values");
	close_lab(&t);

	open_lesson(&t, 2, 40, 12);
	keys(&t, "?");
	grab(&t);
	shows("lines 1-9 of", "the help at 40x12 says which lines show");
	shows("Left Right PgUp PgDn   previous /", "and wraps what is wider than the screen");
	keys(&t, "j");
	grab(&t);
	shows("lines 2-10 of", "j scrolls it");
	tap_ok(lab_overlay_shown(&t.lab, LAB_OVERLAY_HELP), "and leaves it open");
	keys(&t, "x");
	tap_ok(!lab_overlay_shown(&t.lab, LAB_OVERLAY_HELP), "another key closes it");
	close_lab(&t);
}

/* --lang zh: the bug's name in Chinese in the verdict and the bug lab, and
 * the heads' titles as every other text writes them, 头 0. */
static void
test_zh_words(void)
{
	char why[256] = "";
	struct tui t;

	tap_ok(text_load("zh", NULL, why, sizeof why), "Chinese captions load: %s", why);
	open_lesson(&t, 2, 80, 24);
	grab(&t);
	shows("\u5934 0      \u5934 1", "zh: the heads' titles read 头 0, 头 1");
	keys(&t, "b");
	grab(&t);
	hides("no-transpose", "zh, the bug lab: no English bug name");
	close_lab(&t);
	open_lesson(&t, 2, 80, 24);
	keys(&t, ":x.reshape(B, H, T, d)\r");
	grab(&t);
	shows("\u9519\u8bef\uff08\u672a\u8f6c\u7f6e\u5c31 reshape\uff09",
	      "zh: the verdict names the bug in Chinese");
	hides("no-transpose", "zh, the verdict: no English bug name");
	close_lab(&t);
	text_load("en", NULL, why, sizeof why);
}

/* ---- the 3D view ----------------------------------------------------- */

/* The swap in 3D at 80x24: each row of the front face is named by its
 * axis and index beside the face's left edge ("H 0", as the grid names
 * its rows), the axis's size under them on the line of the bottom edge,
 * never beside the depth edge leaving the face's top corner, where it
 * read as the depth; the rows of the layers behind are numbered too. */
static void
test_3d_axis_names(void)
{
	struct tui t;

	open_lesson(&t, 2, 80, 24);
	keys(&t, "3");
	tui_key(&t, KEY_RIGHT);
	tui_key(&t, KEY_RIGHT);
	grab(&t);
	shows("3D: H down, T in depth, d across", "3D, step 3");
	shows(" H 0 \u2502  0a \u2502  1a \u2502 \u2571 T=3", "3D, step 3: row H 0 named by its axis");
	shows(" H 1 \u2502  2b \u2502  3b \u2502\u2571", "3D, step 3: row H 1 too");
	shows(" H=2 \u2514\u2500", "3D, step 3: H=2 under the rows' names, by the bottom edge");
	hides("H=2  \u2571", "3D, step 3: not beside a depth edge");
	shows("\u2571 T=3", "3D, step 3: T=3 by the depth edge");
	shows(" 0 \u2571\u2502 [4a]\u2502  5a \u2502", "3D, step 3: the rows of layer T 1 numbered, H 0 ...");
	shows(" 1 \u2571 \u2502  6b \u2502  7b \u2502", "3D, step 3: ... and H 1");
	shows(" 0 \u2571\u2502  8a \u2502  9a \u2502", "3D, step 3: layer T 2's too");
	close_lab(&t);
}

/* Columns of line y from x0 up to x1 (excluded) holding anything but
 * spaces: the first in *lo, the last in *hi (both unchanged when none). */
static void
ink_span(int y, int x0, int x1, int *lo, int *hi)
{
	for (int x = x0; x < x1; x++) {
		cchar_t cc;
		wchar_t wch[CCHARW_MAX + 1] = { 0 };
		attr_t a;
		short pair;

		if (mvin_wch(y, x, &cc) == ERR || getcchar(&cc, wch, &a, &pair, NULL) == ERR)
			continue;
		if (wch[0] == L' ' || wch[0] == 0)
			continue;
		if (x < *lo)
			*lo = x;
		if (x > *hi)
			*hi = x;
	}
}

/* The 3D block uses a large terminal's room: at 200x60 its boxes are 17
 * columns and 5 lines, at 120x40 13 and 3, a row's name on its middle
 * line, the rows of the layers behind numbered there too; every step and
 * turn of the walk, taken together, stands in the middle of the room
 * left of the lineage and above the storage ribbon; 3 from the grid at
 * --zoom 6 keeps those boxes.  At 80x24 every step's block fits. */
static void
test_3d_room(void)
{
	static const struct { int cols, lines, box_w, box_h; const char *h0, *back; } cases[] = {
		{ 200, 60, 17, 5, " H 0 \u2502        0a       \u2502        1a       \u2502",
		  " 0 \u2571  \u2502       [4a]      \u2502        5a       \u2502" },
		{ 120, 40, 13, 3, " H 0 \u2502      0a     \u2502      1a     \u2502",
		  " 0 \u2571 \u2502     [4a]    \u2502      5a     \u2502" },
	};
	struct tui t;
	char what[120];

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int cols = cases[i].cols, nl = cases[i].lines, y0, lo = INT_MAX, hi = -1, top = INT_MAX,
		    bottom = -1, lx, ribbon, caption;

		for (int zoom6 = 0; zoom6 < 2; zoom6++) {
			open_lesson(&t, 2, cols, nl);
			if (zoom6) {
				t.lab.zoom = 6;
				t.lab.zoom_auto = false;
			}
			keys(&t, "3");
			tui_key(&t, KEY_RIGHT);
			tui_key(&t, KEY_RIGHT);
			grab(&t);
			snprintf(what, sizeof what, "%dx%d%s, the swap in 3D", cols, nl,
			         zoom6 ? " (3 from --zoom 6)" : "");
			y0 = find("\u250c\u2500T 0");
			if (!tap_ok(y0 > 0 && find(cases[i].h0) == y0 + 1 + (cases[i].box_h - 1) / 2 &&
			            find(" H 1 \u2502") == y0 + 1 + cases[i].box_h + (cases[i].box_h - 1) / 2 &&
			            find(" H=2 \u2514") == y0 + 1 + 2 * cases[i].box_h,
			            "%s: boxes %d wide and %d tall, H 0 and H 1 on their middle lines", what,
			            cases[i].box_w, cases[i].box_h))
				dump();
			shows(cases[i].back, "the rows of the layer behind named on their middle line");
			close_lab(&t);
		}

		/* every step and every turn: where the picture's ink lies */
		open_lesson(&t, 2, cols, nl);
		keys(&t, "3");
		for (int k = 0; k < 6; k++) {
			for (int turn = 0; turn < 3; turn++) {
				grab(&t);
				lx = t.lab.frame.lineage_x;
				caption = t.lab.frame.block_caption_y;
				ribbon = t.lab.frame.ribbon_y;
				for (int y = caption + 1; y < ribbon; y++) {
					int l = INT_MAX, h = -1;

					ink_span(y, 0, lx - 1, &l, &h);
					if (h >= 0) {
						lo = l < lo ? l : lo;
						hi = h > hi ? h : hi;
						top = y < top ? y : top;
						bottom = y > bottom ? y : bottom;
					}
				}
				tui_key(&t, 'r');
			}
			tui_key(&t, KEY_RIGHT);
		}
		lx = t.lab.frame.lineage_x;
		caption = t.lab.frame.block_caption_y;
		ribbon = t.lab.frame.ribbon_y;
		tap_ok(hi >= 0 && lx > hi && ribbon > bottom && abs((lo - 1) - (lx - 2 - hi)) <= 1 &&
		       abs((top - caption - 1) - (ribbon - 1 - bottom)) <= 1,
		       "%dx%d: the blocks of every step and turn stand in the middle of their room: "
		       "columns %d to %d of 1 to %d, lines %d to %d of %d to %d", cols, nl, lo, hi,
		       lx - 2, top, bottom, caption + 1, ribbon - 1);
		close_lab(&t);
	}

	/* 80x24: every step's block whole */
	open_lesson(&t, 2, 80, 24);
	keys(&t, "3");
	{
		int fit = 0;

		for (int k = 0; k < 6; k++, tui_key(&t, KEY_RIGHT)) {
			grab(&t);
			fit += t.lab.frame.block_fits && find("\u250c") > 0;
		}
		tap_eq(fit, 6, "80x24: every step's block drawn whole");
	}
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
	test_moves_clean();
	test_slow_motion();
	test_quiz_reveal();
	test_small_words();
	test_zh_words();
	test_3d_axis_names();
	test_3d_room();
	return tap_done();
}
