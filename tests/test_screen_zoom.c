/* test_screen_zoom.c - the big zooms (4: 3x5 digits, 5: 5x7, 6: 6x10)
 * drawn into a headless curses screen and read back cell by cell: every
 * label of the lesson in its zoom's digits where its box stands, nothing
 * cut at 200x60 and 160x50 at the zoom the lab picks (row T 2, the shape
 * line), every frame of the transposes' moves true there, and the mates'
 * marks on the line under the digits, never across them: an underline
 * would cross their strokes. */
#define _XOPEN_SOURCE_EXTENDED 1
#include <curses.h>
#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "anim.h"
#include "bigfont.h"
#include "screen_fixture.h"
#include "tap.h"
#include "text.h"
#include "tui.h"

/* A cols x lines headless screen with the lab on the lesson, animation
 * off, at zoom (0: the one the lab picks). */
static void
open_lab(struct tui *t, int cols, int lines, bool color, bool utf8, int zoom)
{
	struct walk w;

	screen_fixture_open(cols, lines);
	walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
	tui_init(t, &w, color, utf8, color ? NULL : "mono");
	t->lab.glide.on = false;
	if (zoom > 0) {
		t->lab.zoom = zoom;
		t->lab.zoom_auto = false;
	}
	tui_draw(t);
}

static void
close_lab(struct tui *t)
{
	tui_free(t);
	screen_fixture_close();
}

/* The character at (y, x) and its attributes. */
static wchar_t
at(int y, int x, attr_t *attr)
{
	cchar_t cc;
	wchar_t wch[CCHARW_MAX + 1];
	short pair;

	mvin_wch(y, x, &cc);
	getcchar(&cc, wch, attr, &pair, NULL);
	return wch[0];
}

/* Whether line y holds s (ASCII, or one wide character per column). */
static bool
line_has(int y, const wchar_t *s)
{
	wchar_t line[512];
	attr_t a;
	int n = 0;

	for (int x = 0; x < COLS && n + 1 < 512; x++)
		line[n++] = at(y, x, &a);
	line[n] = L'\0';
	return wcsstr(line, s) != NULL;
}

static bool
screen_has(const wchar_t *s)
{
	for (int y = 0; y < LINES; y++)
		if (line_has(y, s))
			return true;
	return false;
}

/* Where label's box stands on the screen; false when it is not drawn. */
static bool
box_of(const struct tui *t, int64_t label, int *y, int *x, int *w, int *h)
{
	const struct scene_item *it = scene_find_label(&t->lab.scene, label);

	if (it == NULL)
		return false;
	*y = t->lab.frame.main.y + it->y;
	*x = t->lab.frame.main.x + it->x;
	*w = it->width;
	*h = it->height;
	return true;
}

/* Whether cell it's digits are drawn in f in its box at (y, x): every dot
 * of every digit a block where the font inks it and blank where not, the
 * digits centred before the head letter, which stands on their last line
 * at the box's right edge; why says what is wrong. */
static bool
digits_at(const struct tui *t, const struct bigfont *f, const struct scene_item *it, int y, int x,
          char *why, size_t size)
{
	wchar_t block = t->lab.utf8 ? L'\u2588' : L'#', tag = it->label % 4 < 2 ? L'a' : L'b';
	char text[24];
	int w = it->width, n, bx;
	attr_t a;

	n = snprintf(text, sizeof text, "%lld", (long long)it->label);
	bx = x + (w - 1 - bigfont_label_w(f, n)) / 2;
	if (it->height != f->h + 1 || at(y + f->h - 1, x + w - 1, &a) != tag) {
		snprintf(why, size, "%lld at (%d,%d): box %d lines (want %d), no head letter",
		         (long long)it->label, y, x, it->height, f->h + 1);
		return false;
	}
	for (int r = 0; r < f->h; r++)
		for (int i = 0; i < n; i++)
			for (int c = 0; c < f->w; c++) {
				bool ink = bigfont_ink(f, text[i], r, c);

				if ((at(y + r, bx + i * (f->w + f->gap) + c, &a) == block) != ink) {
					snprintf(why, size, "%lld at (%d,%d): digit %c line %d column %d %s",
					         (long long)it->label, y, x, text[i], r, c, ink ? "blank" : "inked");
					return false;
				}
			}
	return true;
}

/* digits_at for label in the step's scene, where the frame placed it. */
static bool
digits_drawn(const struct tui *t, const struct bigfont *f, int64_t label, char *why, size_t size)
{
	const struct scene_item *it = scene_find_label(&t->lab.scene, label);

	if (it == NULL) {
		snprintf(why, size, "%lld not drawn", (long long)label);
		return false;
	}
	return digits_at(t, f, it, t->lab.frame.main.y + it->y, t->lab.frame.main.x + it->x, why,
	                 size);
}

/* Every zoom's font has the size it promises. */
static void
test_fonts(void)
{
	static const int want[][2] = { { 3, 5 }, { 5, 7 }, { 6, 10 } };

	tap_ok(bigfont_at(3) == NULL && bigfont_at(7) == NULL, "no big digits below zoom 4 or above 6");
	for (int z = 4; z <= 6; z++) {
		const struct bigfont *f = bigfont_at(z);
		int pad, h;

		bigfont_cell_box(z, 12, &pad, &h);
		tap_ok(f && f->w == want[z - 4][0] && f->h == want[z - 4][1] && h == f->h + 1 &&
		       2 + 1 + pad == bigfont_label_w(f, 2) + 1 + 3,
		       "zoom %d: %dx%d digits in a box of %d lines, two digits and the head letter "
		       "with a column before them and two after", z, f ? f->w : 0, f ? f->h : 0, h);
	}
	{
		/* a 5x7 eight: rounded, its waist on the fourth line */
		const struct bigfont *f = bigfont_at(5);
		static const char *const eight[] = { " ### ", "#   #", "#   #", " ### ", "#   #", "#   #",
		                                     " ### " };
		bool same = true;

		for (int r = 0; r < 7; r++)
			for (int c = 0; c < 5; c++)
				same = same && bigfont_ink(f, '8', r, c) == (eight[r][c] == '#');
		tap_ok(same, "zoom 5 draws 8 as the 5x7 eight");
		/* zoom 6: the 3x5 glyphs at twice their size */
		f = bigfont_at(6);
		same = true;
		for (char ch = '0'; ch <= '9'; ch++)
			for (int r = 0; r < 10; r++)
				for (int c = 0; c < 6; c++)
					same = same && bigfont_ink(f, ch, r, c) == bigfont_ink(bigfont_at(4), ch, r / 2, c / 2);
		tap_ok(same, "zoom 6 draws zoom 4's digits at twice the size");
	}
}

/* On the swap at every big zoom, UTF-8 and ASCII, colour and mono: 5 (same
 * position and head as the selected 4), 6 and 7 (same position, other
 * head) carry their marks on the line under their digits, the whole width of
 * the digits; no line of any digit is underlined; cells that are not mates
 * have a blank mark line; the legend shows the same marks. */
static void
test_marks(void)
{
	for (int zoom = 4; zoom <= 6; zoom++)
		for (int utf8 = 1; utf8 >= 0; utf8--)
			for (int color = 1; color >= 0; color--) {
				const struct bigfont *f = bigfont_at(zoom);
				wchar_t head = utf8 ? L'\u2501' : L'=', pos = utf8 ? L'\u2500' : L'-';
				static const int64_t labels[] = { 4, 5, 6, 7, 8 };
				char why[160] = "";
				bool ok = true;
				struct tui t;

				open_lab(&t, 200, 60, color, utf8, zoom);
				tui_key(&t, KEY_RIGHT);
				tui_key(&t, KEY_RIGHT);
				tui_draw(&t);
				for (size_t i = 0; ok && i < sizeof labels / sizeof labels[0]; i++) {
					int64_t l = labels[i];
					int y = 0, x = 0, w = 0, h = 0, n = l >= 10 ? 2 : 1;
					int bx, lw = bigfont_label_w(f, n);
					wchar_t want = l == 5 ? head : l == 6 || l == 7 ? pos : L' ';
					attr_t a;

					ok = digits_drawn(&t, f, l, why, sizeof why) && box_of(&t, l, &y, &x, &w, &h);
					bx = x + (w - 1 - lw) / 2;
					for (int r = 0; ok && r < f->h; r++)
						for (int c = 0; ok && c < w; c++) {
							at(y + r, x + c, &a);
							if (a & A_UNDERLINE) {
								snprintf(why, sizeof why, "%lld: line %d of its digits underlined",
								         (long long)l, r);
								ok = false;
							}
						}
					for (int c = 0; ok && c < w; c++) {
						wchar_t ch = at(y + f->h, x + c, &a);
						bool under = c >= bx - x && c < bx - x + lw;

						if (ch != (under ? want : L' ') || (a & A_UNDERLINE)) {
							snprintf(why, sizeof why, "%lld: mark line column %d is '%lc'",
							         (long long)l, c, (wint_t)ch);
							ok = false;
						}
					}
				}
				tap_ok(ok, "zoom %d, %s, %s: 4 to 8 in big digits, 5, 6 and 7 marked under "
				       "them, no digit crossed%s%s", zoom, utf8 ? "UTF-8" : "ASCII",
				       color ? "colour" : "mono", ok ? "" : ": ", why);
				tap_ok(screen_has(utf8 ? L"5a \u2501\u2501 " : L"5a == ") &&
				       screen_has(utf8 ? L"6b \u2500\u2500 " : L"6b -- "),
				       "zoom %d, %s, %s: the legend shows both marks", zoom,
				       utf8 ? "UTF-8" : "ASCII", color ? "colour" : "mono");
				close_lab(&t);
			}
}

/* The lesson at the zoom the lab picks: at 200x60 zoom 6, at 160x50 zoom
 * 5; at every step all twelve labels in the zoom's digits, row T 2 and the
 * step's shape line on the screen. */
static void
test_lesson_whole(void)
{
	static const struct { int cols, lines, zoom; } sizes[] = { { 200, 60, 6 }, { 160, 50, 5 } };
	static const wchar_t *const shapes[] = {
		L"[B,T,D] = [1, 3, 4]", L"[B,T,H,d] = [1, 3, 2, 2]", L"[B,H,T,d] = [1, 2, 3, 2]",
		L"[B,T,H,d] = [1, 3, 2, 2]", L"[B,T,H,d] = [1, 3, 2, 2]", L"[B,T,D] = [1, 3, 4]",
	};

	for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
		struct tui t;

		open_lab(&t, sizes[s].cols, sizes[s].lines, true, true, 0);
		tap_eq(t.lab.zoom, sizes[s].zoom, "%dx%d: the lab picks zoom %d", sizes[s].cols,
		       sizes[s].lines, sizes[s].zoom);
		for (int k = 0; k < 6; k++) {
			char why[160] = "";
			bool ok = true;

			if (k > 0) {
				tui_key(&t, KEY_RIGHT);
				tui_draw(&t);
			}
			for (int64_t l = 0; ok && l < 12; l++)
				ok = digits_drawn(&t, bigfont_at(t.lab.zoom), l, why, sizeof why);
			tap_ok(ok && t.lab.zoom == sizes[s].zoom && screen_has(L"T 2 \u2502") &&
			       screen_has(shapes[k]) && screen_has(L"storage \u2502"),
			       "%dx%d, step %d: 0 to 11 in big digits, row T 2, the shape line and the "
			       "storage strip on the screen%s%s", sizes[s].cols, sizes[s].lines, k + 1,
			       ok ? "" : ": ", why);
		}
		close_lab(&t);
	}
}

/* Whether the move's frame on the screen is true at big digits: every
 * label once, in its digits where the frame puts it, on a line whose row
 * header reads "T p" with p = label // 4, its position. */
static bool
frame_on_screen(const struct tui *t, char *why, size_t size)
{
	const struct bigfont *f = bigfont_at(t->lab.zoom);
	struct scene fr = { 0 };
	int seen[12] = { 0 };
	bool ok = anim_frame(&t->lab.glide.plan, t->lab.glide.frame, &fr);

	if (!ok)
		snprintf(why, size, "no frame %d", t->lab.glide.frame);
	for (size_t i = 0; ok && i < fr.n; i++) {
		const struct scene_item *it = &fr.items[i];
		int mid = it->y + (it->height - 1) / 2;
		attr_t a;

		if (it->style != SCENE_CELL)
			continue;
		ok = it->label >= 0 && it->label < 12 && digits_at(t, f, it, it->y, it->x, why, size);
		if (ok && (at(mid, 1, &a) != L'T' || at(mid, 3, &a) != L'0' + (wchar_t)(it->label / 4))) {
			snprintf(why, size, "%lld at (%d,%d): not in row T %lld", (long long)it->label, it->y,
			         it->x, (long long)(it->label / 4));
			ok = false;
		}
		if (ok)
			seen[it->label]++;
	}
	for (int l = 0; ok && l < 12; l++)
		if (seen[l] != 1) {
			snprintf(why, size, "label %d drawn %d times", l, seen[l]);
			ok = false;
		}
	scene_free(&fr);
	return ok;
}

/* Paused, frame by frame through both transposes, forward and back, at the
 * zoom the lab picks at 200x60 (6) and 160x50 (5): every frame on the
 * screen is true, in big digits. */
static void
test_frames(void)
{
	static const int sizes[][2] = { { 200, 60 }, { 160, 50 } };
	static const int moves[] = { KEY_RIGHT, KEY_RIGHT, KEY_LEFT, KEY_LEFT, 0 };

	for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
		struct tui t;

		open_lab(&t, sizes[s][0], sizes[s][1], true, true, 0);
		t.lab.glide.on = true;
		tui_key(&t, 'a');
		tui_key(&t, KEY_RIGHT);
		tui_draw(&t);
		lab_finish_anim(&t.lab);
		tui_draw(&t);
		for (int i = 0; moves[i]; i++) {
			int from = t.lab.step, frames = 0;
			char why[200] = "";
			bool ok = true;

			tui_key(&t, moves[i]);
			tui_draw(&t);
			while (ok && t.lab.glide.moving && frames <= TUI_ANIM_FRAMES) {
				ok = frame_on_screen(&t, why, sizeof why);
				frames++;
				tui_key(&t, '.');
				tui_draw(&t);
			}
			tap_ok(ok && frames == TUI_ANIM_FRAMES,
			       "%dx%d, zoom %d, step %d to %d: %d frames, each label once in big digits in "
			       "its row T (label // 4)%s%s", sizes[s][0], sizes[s][1], t.lab.zoom, from + 1,
			       t.lab.step + 1, frames, ok ? "" : ": ", why);
		}
		close_lab(&t);
	}
}

int
main(void)
{
	char why[256] = "";

	setlocale(LC_ALL, "C.UTF-8");
	tap_ok(text_load("en", NULL, why, sizeof why), "captions load: %s", why);
	test_fonts();
	test_marks();
	test_lesson_whole();
	test_frames();
	return tap_done();
}
