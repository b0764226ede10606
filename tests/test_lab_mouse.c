/* test_lab_mouse.c - the mouse without a terminal.  The wheel scrolls the step
 * view's grid by whole rows (and sideways by whole cells), clamped to the
 * grid, and never moves the selection; the layout keeps the viewport until
 * a key moves the selection, the step or the zoom changes; the marks of
 * left-out cells scroll with their cells; the status line says what is
 * shown and where the selection went; a click after a scroll lands on the
 * cell under it.  Clicks beyond the ones test_lab_words.c tries: the
 * compact lineage's indices go to their steps, a click beside the preset
 * menu closes it. */
#include <locale.h>
#include <stdio.h>
#include <string.h>

#include "lab.h"
#include "lab_layout.h"
#include "tap.h"
#include "text.h"

static struct lab lab;

/* The lesson's walk on [1, T, D] with heads, laid out at cols x lines on
 * step k (0-based), with no animation. */
static void
setup(int64_t t, int64_t d, int64_t heads, int k, int cols, int lines)
{
	struct walk w;

	lab_free(&lab);
	walk_build(&w, WALK_LESSON, 1, t, d, heads);
	lab_init(&lab, &w, true, 0);
	lab.glide.on = false;
	lab_layout(&lab, cols, lines);
	while (lab.step < k)
		lab_act(&lab, LAB_STEP_NEXT);
	lab_layout(&lab, cols, lines);
}

static const struct scene_item *
cell(int64_t label)
{
	return scene_find_label(&lab.scene, label);
}

/* Whether label's cell is wholly inside the grid's viewport. */
static bool
in_view(int64_t label)
{
	const struct scene_item *it = cell(label);
	const struct lab_rect *g = &lab.frame.grid;
	int y = lab.frame.main.y + (it ? it->y : 0), x = lab.frame.main.x + (it ? it->x : 0);

	return it && y >= g->y && y + it->height <= g->y + g->h && x >= g->x && x + it->width <= g->x + g->w;
}

/* --shape 1,1024,768 --heads 12 on the heads step at 100x30: 65 lines of
 * panels (each head's T x d, elided) under a viewport of 18 lines (the
 * lesson's captions, in 3 lines) or 20 (the short built-in ones). */
static void
test_rows(void)
{
	char buf[300], want[300];
	int most, h, ellipsis_y = -1, ellipsis_x = -1;
	size_t n;

	setup(1024, 768, 12, 2, 100, 30);
	h = lab.frame.grid.h;   /* 18 or 20: the caption wraps in 2 or 3 lines */
	tap_ok(lab.scene.height == 65 && (h == 18 || h == 20) && lab.scroll_y == 0 && lab.selected == 4,
	       "1,1024,768 with 12 heads: 65 lines of heads in an 18- or 20-line grid, label 4 at the top "
	       "(%d lines, grid %d, scroll %d)", lab.scene.height, h, lab.scroll_y);
	tap_eq(lab_status(&lab), LAB_STATUS_HINT, "before the wheel the status line shows the keys");
	for (size_t i = 0; i < lab.scene.n; i++)
		if (lab.scene.items[i].style == SCENE_ELLIPSIS && lab.scene.items[i].y > 20) {
			ellipsis_y = lab.frame.main.y + lab.scene.items[i].y;
			ellipsis_x = lab.frame.main.x + lab.scene.items[i].x;
			break;
		}
	n = lab.scene.n;
	lab_act(&lab, LAB_SCROLL_DOWN);
	tap_ok(lab.scroll_y == 3 && lab.selected == 4 && lab.hold.on,
	       "a turn of the wheel down scrolls 3 lines and leaves label 4 selected (scroll %d, label %lld)",
	       lab.scroll_y, (long long)lab.selected);
	tap_eq(lab.frame.main.y, lab.frame.grid.y - 3, "the frame moves with it at once, for a click");
	lab_act(&lab, LAB_SCROLL_DOWN);
	lab_layout(&lab, 100, 30);
	tap_ok(lab.scroll_y == 6 && lab.selected == 4 && !in_view(4),
	       "two turns: the layout keeps the viewport at line 6, label 4 out of view above (%d)",
	       lab.scroll_y);
	for (size_t i = 0; i < lab.scene.n; i++)
		if (lab.scene.items[i].style == SCENE_ELLIPSIS && lab.scene.items[i].y > 20) {
			tap_ok(lab.scene.n == n && lab.frame.main.y + lab.scene.items[i].y == ellipsis_y - 6 &&
			       lab.frame.main.x + lab.scene.items[i].x == ellipsis_x,
			       "the same scene: its marks of left-out rows and heads scroll with their cells");
			break;
		}
	tap_eq(lab_status(&lab), LAB_STATUS_SCROLLED, "the status line tells about the scroll");
	snprintf(want, sizeof want, "label 4 above, a move key shows it; lines 7-%d of 65", 6 + h);
	tap_ok(lab_scroll_words(&lab, buf, sizeof buf) && strcmp(buf, want) == 0,
	       "it says what is shown and how to get the selection back: %s", buf);
	lab_act(&lab, LAB_THEME);
	lab_layout(&lab, 100, 30);
	tap_eq(lab.scroll_y, 6, "a key that moves nothing (t) keeps the viewport");
	lab_resize(&lab);
	lab_layout(&lab, 100, 30);
	tap_eq(lab.scroll_y, 6, "so does a resize to the same zoom");
	lab_layout(&lab, 100, 90);     /* the zoom as it was: lab_resize() not called */
	tap_ok(lab.scroll_y == 0 && lab.hold.on && !lab_scroll_words(&lab, buf, sizeof buf),
	       "a terminal tall enough for the whole grid shows it all, and no scroll words");
	lab_layout(&lab, 100, 30);
	most = lab.scene.height - lab.frame.grid.h;
	for (int i = 0; i < 40; i++)
		lab_act(&lab, LAB_SCROLL_DOWN);
	lab_layout(&lab, 100, 30);
	tap_ok(most == 65 - h && lab.scroll_y == most && lab.selected == 4,
	       "the wheel stops at the grid's last line: line %d + %d = 65 (%d)", most, h, lab.scroll_y);
	tap_ok(!lab_scroll(&lab, 1, 0), "at the bottom a turn down moves nothing");
	tap_ok(!lab_scroll(&lab, 0, 1), "a grid as narrow as its viewport does not scroll sideways");
	lab_act(&lab, LAB_MOVE_DOWN);
	lab_layout(&lab, 100, 30);
	tap_ok(lab.selected == 772 && in_view(772) && !lab.hold.on && lab_status(&lab) == LAB_STATUS_HINT,
	       "j moves the selection to 772 and brings it back into view (scroll %d)", lab.scroll_y);
	for (int i = 0; i < 4; i++)
		lab_act(&lab, LAB_SCROLL_DOWN);
	lab_act(&lab, LAB_MOVE_UP);
	lab_act(&lab, LAB_MOVE_UP);
	lab_layout(&lab, 100, 30);
	tap_ok(lab.selected == 4 && in_view(4) && !lab.hold.on,
	       "k k after the wheel: label 4 again, in view (scroll %d)", lab.scroll_y);
	for (int i = 0; i < 4; i++)
		lab_act(&lab, LAB_SCROLL_DOWN);
	lab_act(&lab, LAB_MOVE_UP);
	lab_layout(&lab, 100, 30);
	tap_ok(lab.selected == 4 && in_view(4),
	       "k on the top row moves nothing, yet shows the selection again (scroll %d)", lab.scroll_y);
	for (int i = 0; i < 4; i++)
		lab_act(&lab, LAB_SCROLL_DOWN);
	for (int i = 0; i < 40; i++)
		lab_act(&lab, LAB_SCROLL_UP);
	tap_ok(lab.scroll_y == 0 && lab.selected == 4, "the wheel up stops at the top line (%d)", lab.scroll_y);
	lab_act(&lab, LAB_SCROLL_DOWN);
	lab_act(&lab, LAB_STEP_NEXT);
	lab_layout(&lab, 100, 30);
	tap_ok(lab.step == 3 && !lab.hold.on && in_view(4), "a step shows the selection on the new step");
	lab_act(&lab, LAB_STEP_PREV);
	lab_layout(&lab, 100, 30);
	lab_act(&lab, LAB_SCROLL_DOWN);
	lab_act(&lab, LAB_SCROLL_DOWN);
	lab_act(&lab, LAB_ZOOM_IN);
	lab_layout(&lab, 100, 30);
	tap_ok(!lab.hold.on && in_view(4), "a new zoom shows the selection");
}

/* A click after the wheel lands on the cell now under the pointer. */
static void
test_click(void)
{
	const struct scene_item *it;

	setup(1024, 768, 12, 2, 100, 30);
	for (int i = 0; i < 4; i++)
		lab_act(&lab, LAB_SCROLL_DOWN);
	it = cell(64);  /* head 1's first cell, at position 0 */
	tap_ok(it && in_view(64) && !in_view(4), "after 4 turns head 1's label 64 shows, label 4 does not");
	lab_click(&lab, lab.frame.main.y + it->y, lab.frame.main.x + it->x + 2);
	tap_eq(lab.selected, 64, "a click on 64 selects 64");
	lab_layout(&lab, 100, 30);
	tap_ok(in_view(64) && !lab.hold.on, "and the layout follows the selection again");
}

/* --shape 1,4,64 at 80x24: x's 64 columns are 329 columns wide; Shift
 * and the wheel scroll them 3 cells (15 columns) at a time. */
static void
test_sideways(void)
{
	char buf[300];

	setup(4, 64, 2, 0, 80, 24);
	tap_ok(lab.scene.width == 329 && lab.frame.grid.w == 78 && lab.scroll_x == 0,
	       "x[1,4,64]: 329 columns in a 78-column grid (%d, %d)", lab.scene.width, lab.frame.grid.w);
	lab_act(&lab, LAB_SCROLL_RIGHT);
	lab_act(&lab, LAB_SCROLL_RIGHT);
	lab_layout(&lab, 80, 24);
	tap_ok(lab.scroll_x == 30 && lab.scroll_y == 0 && lab.selected == 4 && !in_view(4),
	       "two turns right scroll 30 columns, label 4 stays selected out of view (%d)", lab.scroll_x);
	tap_ok(lab_scroll_words(&lab, buf, sizeof buf) &&
	       strcmp(buf, "label 4 to the left, a move key shows it; columns 31-108 of 329") == 0,
	       "the status line: %s", buf);
	lab_act(&lab, LAB_SCROLL_DOWN);
	tap_eq(lab.scroll_y, 0, "the wheel down scrolls nothing where every line shows");
	for (int i = 0; i < 40; i++)
		lab_act(&lab, LAB_SCROLL_RIGHT);
	tap_eq(lab.scroll_x, 329 - 78, "the wheel right stops at the last column");
	lab_act(&lab, LAB_SCROLL_LEFT);
	tap_eq(lab.scroll_x, 329 - 78 - 15, "a turn left goes back 15 columns");
	lab_act(&lab, LAB_MOVE_RIGHT);
	lab_layout(&lab, 80, 24);
	tap_ok(lab.selected == 5 && in_view(5), "l selects 5 and brings it into view");
}

/* Where nothing is larger than its viewport, or the view does not scroll,
 * the wheel does nothing at all. */
static void
test_nothing(void)
{
	setup(3, 4, 2, 0, 80, 24);
	lab_act(&lab, LAB_SCROLL_DOWN);
	lab_act(&lab, LAB_SCROLL_RIGHT);
	tap_ok(lab.scroll_y == 0 && lab.scroll_x == 0 && !lab.hold.on && lab.selected == 4,
	       "the lesson's 3x4 fits: the wheel neither scrolls nor selects");
	setup(1024, 768, 12, 2, 100, 30);
	lab_act(&lab, LAB_VIEW_COMPARE);
	lab_layout(&lab, 100, 30);
	lab_act(&lab, LAB_SCROLL_DOWN);
	tap_ok(!lab.hold.on && lab.scroll_y == 0 && lab.selected == 4,
	       "the compare view does not scroll: the wheel leaves it as it was");
	lab_act(&lab, LAB_VIEW_COMPARE);
	lab_act(&lab, LAB_ATTENTION);
	tap_ok(lab_act(&lab, LAB_SCROLL_DOWN) && lab.message[0] == '\0',
	       "in the attention pass the wheel says nothing is amiss (%s)", lab.message);
}

/* At 100x24 the large grid leaves the lineage two lines: "label 4: ..."
 * and "[0,0,4] › [0,0,0,4] › [0,0,0,4] › ..." from column 1; a click on
 * an index goes to its step, one on a separator goes nowhere. */
static void
test_compact_lineage(void)
{
	int y, x;

	setup(1024, 768, 12, 0, 100, 24);
	y = lab.frame.lineage_y + 1;
	x = lab.frame.lineage_x;
	tap_ok(lab.frame.lineage_compact && x == 1, "1,1024,768 at 100x24: the lineage is compact");
	lab_click(&lab, y, x + 10);
	tap_eq(lab.step, 1, "a click on the second index [0,0,0,4] (columns 11-19) goes to step 2");
	lab_layout(&lab, 100, 24);
	lab_click(&lab, y, x + 48);
	tap_eq(lab.step, 4, "a click on the fifth (columns 47-55) goes to step 5");
	lab_layout(&lab, 100, 24);
	lab_click(&lab, y, x + 8);
	tap_eq(lab.step, 4, "a click on the separator after the first goes nowhere");
	lab_click(&lab, y, x + 1);
	tap_eq(lab.step, 0, "a click on the first index goes back to step 1");
	lab_layout(&lab, 100, 24);
	lab_click(&lab, y - 1, x + 3);
	tap_ok(lab.step == 0 && lab.selected == 4, "a click on the label line above does nothing");
}

/* The preset menu at 80x24: a click beside it closes it, as Esc does. */
static void
test_menu_outside(void)
{
	struct lab_rect box;
	bool narrow;

	setup(3, 4, 2, 0, 80, 24);
	lab_act(&lab, LAB_MENU);
	lab_menu_place(&lab, 80, 24, &box, &narrow);
	tap_ok(!lab_hit_menu(&lab, box.y + 1, box.x + 3) && lab_overlay_shown(&lab, LAB_OVERLAY_MENU),
	       "a click on the menu's heading keeps it open");
	tap_ok(box.y + box.h < 24 && !lab_hit_menu(&lab, box.y + box.h, 3) &&
	       !lab_overlay_shown(&lab, LAB_OVERLAY_MENU) && lab.preset == NULL,
	       "a click under the menu (line %d) closes it and opens no preset", box.y + box.h);
}

int
main(void)
{
	char why[256] = "";

	setlocale(LC_ALL, "C.UTF-8");
	text_load("en", NULL, why, sizeof why);
	test_rows();
	test_click();
	test_sideways();
	test_nothing();
	test_compact_lineage();
	test_menu_outside();
	lab_free(&lab);
	text_free();
	return tap_done();
}
