/* test_lab.c - the lab's controller without a terminal: actions driven
 * one by one and the state they leave, the walk-dependent state rebuilt
 * when the walk changes (the status line always names the cells the grid
 * lights), the key table, and the layout at several terminal sizes. */
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "keys.h"
#include "lab.h"
#include "lab_bugs.h"
#include "lab_attention.h"
#include "preset.h"
#include "tap.h"
#include "text.h"
#include "theme.h"

/* Whether two rectangles of the frame share a cell (empty ones share none). */
static bool
lab_rect_overlap(const struct lab_rect *a, const struct lab_rect *b)
{
	if (a->h <= 0 || a->w <= 0 || b->h <= 0 || b->w <= 0)
		return false;
	return a->y < b->y + b->h && b->y < a->y + a->h && a->x < b->x + b->w && b->x < a->x + a->w;
}

static struct lab lab;

static void
setup(int64_t batch, int64_t positions, int64_t width, int64_t heads)
{
	struct walk w;

	lab_free(&lab);
	walk_build(&w, WALK_LESSON, batch, positions, width, heads);
	lab_init(&lab, &w, true, 0);
	lab.glide.on = false;
	lab_layout(&lab, 80, 24);
}

static void
type(const char *s)
{
	for (; *s; s++)
		lab_prompt_type(&lab, (unsigned char)*s);
}

/* / expr Enter, as the keys do it. */
static void
highlight(const char *expr)
{
	lab_act(&lab, LAB_PROMPT_INDEX_OPEN);
	type(expr);
	lab_prompt_submit(&lab);
}

/* The labels the status line names after the colon, as text. */
static void
status_labels(char *buf, size_t size)
{
	const char *p = strstr(lab.lit.text, "]:");

	snprintf(buf, size, "%s", p ? p + 3 : "");
}

/* The labels lit in a scene of the step the expression was typed on,
 * ascending, as text: what the grid shows. */
static void
grid_labels(char *buf, size_t size)
{
	struct scene sc = { 0 };
	struct scene_opts so;
	size_t used = 0;
	int64_t n = walk_numel(lab.lit.walk);
	bool *lit = calloc((size_t)n, 1);

	buf[0] = '\0';
	lab_scene_opts(&lab, &so, 200);
	so.elide_over = INT64_MAX;
	scene_build(&sc, lab.lit.walk, lab.lit.step, &so);
	for (size_t i = 0; i < sc.n; i++)
		if (sc.items[i].style == SCENE_CELL && (sc.items[i].mark & SCENE_MARK_LIT))
			lit[sc.items[i].label] = true;
	for (int64_t l = 0; l < n && used < size; l++)
		if (lit[l])
			used += (size_t)snprintf(buf + used, size - used, "%s%lld", used ? " " : "", (long long)l);
	scene_free(&sc);
	free(lit);
}

/* The status line and the grid name the same cells (in another order
 * when the expression permutes them: compare as sets). */
static bool
agree(const char *what)
{
	char s[400], g[400], sorted[400] = "";
	int64_t v[64];
	int n = 0;
	size_t used = 0;

	status_labels(s, sizeof s);
	grid_labels(g, sizeof g);
	for (char *tok = strtok(s, " "); tok && n < 64; tok = strtok(NULL, " "))
		v[n++] = strtoll(tok, NULL, 10);
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
			int64_t tmp = v[j];

			v[j] = v[j - 1];
			v[j - 1] = tmp;
		}
	for (int i = 0; i < n; i++)
		used += (size_t)snprintf(sorted + used, sizeof sorted - used, "%s%lld", i ? " " : "",
		                         (long long)v[i]);
	return tap_ok(strcmp(sorted, g) == 0, "%s: the status names %s, the grid lights %s", what,
	              sorted, g);
}

static void
test_stale_highlight(void)
{
	struct walk w;

	/* the reproduction: lab, Right Right, /[0, 1] Enter, ] */
	setup(1, 3, 4, 2);
	lab_act(&lab, LAB_STEP_NEXT);
	lab_act(&lab, LAB_STEP_NEXT);
	highlight("[0, 1]");
	tap_ok(lab.lit.on && strstr(lab.lit.text, ": 2 3 6 7 10 11") != NULL,
	       "[0, 1] on the heads picks head 1: %s", lab.lit.text);
	agree("2 heads");
	lab_act(&lab, LAB_HEADS_MORE);
	tap_eq(lab.walk.heads, 4, "] gives 4 heads");
	tap_ok(lab.lit.on && strstr(lab.lit.text, ": 1 5 9") != NULL,
	       "the expression is worked out again: head 1 of 4 is 1 5 9 (%s)", lab.lit.text);
	tap_eq(lab_status(&lab), LAB_STATUS_LIT, "and the status line shows it");
	agree("4 heads");

	/* fewer heads than the index asks for: cleared, with a note */
	lab_act(&lab, LAB_HEADS_FEWER);
	lab_act(&lab, LAB_HEADS_FEWER);
	tap_eq(lab.walk.heads, 1, "[ [ gives 1 head");
	tap_ok(!lab.lit.on, "[0, 1] no longer fits one head: the lit cells are cleared");
	tap_ok(strstr(lab.warning, "highlight [0, 1] cleared") != NULL, "with a note: %s", lab.warning);
	tap_eq(lab_status(&lab), LAB_STATUS_WARNING, "shown in the status line");

	/* a new shape from the command prompt */
	setup(1, 3, 4, 2);
	lab_act(&lab, LAB_STEP_NEXT);
	lab_act(&lab, LAB_STEP_NEXT);
	highlight("[0, 1]");
	lab_act(&lab, LAB_PROMPT_COMMAND_OPEN);
	type("2,3,4");
	lab_prompt_submit(&lab);
	tap_eq(walk_numel(&lab.walk), 24, ":2,3,4 gives 24 cells");
	tap_ok(lab.lit.on && strstr(lab.lit.text, ": 2 3 6 7 10 11") != NULL,
	       "[0, 1] is batch 0's head 1 again: %s", lab.lit.text);
	agree("shape 2,3,4");

	/* a pattern: another walk altogether */
	lab_act(&lab, LAB_PROMPT_COMMAND_OPEN);
	type("b t (h d) -> b h t d h=2");
	lab_prompt_submit(&lab);
	tap_ok(strcmp(lab.walk.kind_name, "rearrange") == 0, "a pattern rebuilds the walk");
	if (lab.lit.on)
		agree("pattern");
	else
		tap_ok(lab.warning[0] != '\0', "pattern: cleared with a note: %s", lab.warning);

	/* a bug kind: the walk of another kind, and the bug lab's walks */
	setup(1, 3, 4, 2);
	lab_act(&lab, LAB_STEP_NEXT);
	lab_act(&lab, LAB_STEP_NEXT);
	highlight("[0, 1]");
	walk_build(&w, WALK_WRONG, 1, 3, 4, 2);
	lab_set_walk(&lab, &w, lab.step);
	tap_ok(lab.lit.on && lab.lit.walk == &lab.walk, "a bug's walk: the expression is kept");
	agree("no-transpose");
	tap_ok(strstr(lab.lit.text, ": 6 7 8 9 10 11") != NULL,
	       "x.reshape(B, H, T, d) without the transpose: head 1 is the second half, %s",
	       lab.lit.text);
	lab_act(&lab, LAB_VIEW_BUGS);
	tap_eq(lab.mode, LAB_MODE_BUGS, "b opens the bug lab");
	lab_act(&lab, LAB_HEADS_MORE);
	tap_ok(lab.bugs->walk.heads == 4 && lab.bugs->right.heads == 4,
	       "] in the bug lab rebuilds its walks with 4 heads (%lld, %lld)",
	       (long long)lab.bugs->walk.heads, (long long)lab.bugs->right.heads);
	tap_ok(strstr(lab.lit.text, ": 3 4 5") != NULL, "of 4 heads, the second quarter: %s",
	       lab.lit.text);
	agree("bug lab, 4 heads");

	/* a walk change drops what was derived from the old one */
	setup(2, 64, 96, 4);
	lab_select(&lab, 12287);
	lab_layout(&lab, 80, 24);
	tap_ok(lab.scroll_y > 0, "a large layout scrolls to the last label (%d)", lab.scroll_y);
	lab_act(&lab, LAB_HEADS_MORE);
	tap_ok(lab.scene.n == 0 && lab.scroll_y == 0 && lab.scroll_x == 0 && lab.zoom_dirty,
	       "] drops the scene and the scroll, and picks the zoom again");
	tap_eq(lab.selected, 12287, "the selected label is kept");
}

static void
test_actions(void)
{
	setup(1, 3, 4, 2);
	tap_eq(lab.selected, 4, "the lab starts on label 4");
	lab_act(&lab, LAB_STEP_LAST);
	tap_eq(lab.step, 5, "End: the last step");
	lab_act(&lab, LAB_STEP_NEXT);
	tap_eq(lab.step, 5, "and no further");
	lab_act(&lab, LAB_STEP_FIRST);
	lab_act(&lab, LAB_STEP_NEXT);
	lab_act(&lab, LAB_STEP_NEXT);
	lab_layout(&lab, 80, 24);
	lab_act(&lab, LAB_MOVE_RIGHT);
	tap_eq(lab.selected, 5, "moving right in the heads layout: 5");
	lab_act(&lab, LAB_MOVE_RIGHT);
	tap_eq(lab.selected, 6, "then across into head 1: 6");
	lab_digit(&lab, 1);
	lab_digit(&lab, 1);
	tap_eq(lab_status(&lab), LAB_STATUS_TYPING, "typed digits show in the status line");
	lab_act(&lab, LAB_ENTER);
	tap_eq(lab.selected, 11, "11 Enter selects 11");
	lab_digit(&lab, 4);
	lab_digit(&lab, 2);
	lab_act(&lab, LAB_ENTER);
	tap_ok(lab.selected == 11 && strstr(lab.message, "no label 42"), "42 is refused: %s", lab.message);

	lab_act(&lab, LAB_CONTIGUOUS);
	tap_ok(lab.applied_from == 2 && lab.step == 3 && lab_walk(&lab)->steps[3].copied,
	       "c applies .contiguous() as one more step, a copy");
	lab_act(&lab, LAB_STEP_PREV);
	tap_ok(lab.applied_from < 0 && lab.step == 2, "stepping back leaves it");

	lab_act(&lab, LAB_ZOOM_IN);
	lab_act(&lab, LAB_ZOOM_IN);
	tap_ok(lab.zoom == 3 && !lab.zoom_auto, "+ + zooms to 3 and keeps it");
	lab_act(&lab, LAB_THEME);
	tap_ok(lab.theme == 1 && strstr(lab.warning, theme_table[1].name), "t: the next theme, %s",
	       lab.warning);

	lab_act(&lab, LAB_VIEW_COMPARE);
	tap_eq(lab.mode, LAB_MODE_COMPARE, "v: before and after");
	lab_act(&lab, LAB_CANCEL);
	tap_eq(lab.mode, LAB_MODE_STEP, "Esc goes back to the step view");
	tap_ok(!lab.quit, "without quitting");

	lab_act(&lab, LAB_NUMBERS);
	lab_act(&lab, LAB_HELP);
	tap_ok(lab_overlay_shown(&lab, LAB_OVERLAY_NUMBERS) &&
	       lab_overlay_modal(&lab) == LAB_OVERLAY_HELP,
	       "the numbers panel under the help; the help takes the keys");
	lab_overlay_close(&lab, LAB_OVERLAY_HELP);
	tap_eq(lab_overlay_modal(&lab), -1, "the numbers panel takes none");
	lab_act(&lab, LAB_TRY_VIEW);
	tap_ok(lab_overlay_modal(&lab) == LAB_OVERLAY_NOTE && strstr(lab.note[1], "RuntimeError"),
	       "V on the heads: PyTorch's error in a note");

	lab_quiz_start(&lab, 3, 7);
	tap_ok(lab.mode == LAB_MODE_QUIZ && lab.quiz->asked == 0 && !lab.lit.on, "a quiz takes the screen");
	lab_quiz_leave(&lab);
	tap_ok(lab.mode == LAB_MODE_STEP && lab.walk.kind == WALK_LESSON && walk_numel(&lab.walk) == 12,
	       "and gives the lab its walk back");
	lab_act(&lab, LAB_QUIT);
	tap_ok(lab.quit, "q quits");
}

static void
test_keys(void)
{
	static const unsigned screens[] = { KEYS_LAB, KEYS_QUIZ, KEYS_MENU };
	const char *lines[40];
	int n = keys_help(lines, 40), clashes = 0, lines_bound = 0;

	tap_eq(n, 20, "the help overlay has its 20 lines");
	{
		/* the hint line is the table's hint rows, each bound to its action */
		char hint[256];
		int pieces = 0, bound = 0;

		keys_hint_line(hint, sizeof hint, "<>", "^v");
		tap_ok(strcmp(hint, "<> step  hjkl ^v move  0-9 Enter jump  Tab next  ? help  q quit") == 0,
		       "the hint line comes from the key table: '%s'", hint);
		for (int i = 0; i < keys_count; i++)
			if (keys_table[i].hint.key) {
				pieces++;
				bound += keys_action(keys_table[i].where, keys_table[i].keys[0]) ==
				         keys_table[i].action;
			}
		tap_ok(pieces == 6 && bound == pieces, "each of its %d pieces names a key bound to its "
		       "row's action (%d)", pieces, bound);
	}
	tap_eq(keys_action(KEYS_LAB, KEYS_LEFT), LAB_STEP_PREV, "Left steps in the lab");
	tap_eq(keys_action(KEYS_QUIZ, KEYS_LEFT), LAB_MOVE_LEFT, "and moves in a quiz");
	tap_eq(keys_action(KEYS_LAB, 'h'), LAB_MOVE_LEFT, "h moves");
	tap_eq(keys_action(KEYS_QUIZ, 3), LAB_NONE, "Ctrl-C does not leave a quiz");
	/* no key means two things on one screen */
	for (size_t s = 0; s < sizeof screens / sizeof screens[0]; s++)
		for (int i = 0; i < keys_count; i++)
			for (int k = 0; k < KEYS_PER_ROW && keys_table[i].keys[k]; k++)
				if ((keys_table[i].where & screens[s]) &&
				    keys_action(screens[s], keys_table[i].keys[k]) != keys_table[i].action)
					clashes++;
	tap_eq(clashes, 0, "no key is bound twice on a screen");
	for (int i = 0; i < keys_count; i++)
		if (keys_table[i].help.key && keys_table[i].keys[0])
			lines_bound++;
	tap_eq(lines_bound, n - 2, "every help line starts a row of bindings");
}

static bool
inside(const struct lab_rect *r, int cols, int lines)
{
	return r->h <= 0 || r->w <= 0 ||
	       (r->y >= 0 && r->x >= 0 && r->y + r->h <= lines && r->x + r->w <= cols);
}

/* The regions of the frame, as rectangles; returns how many. */
static struct lab_rect
clip(int y, int x, int h, int w, const struct lab_rect *c)
{
	int y1 = y + h < c->y + c->h ? y + h : c->y + c->h;
	int x1 = x + w < c->x + c->w ? x + w : c->x + c->w;
	struct lab_rect r;

	r.y = y > c->y ? y : c->y;
	r.x = x > c->x ? x : c->x;
	r.h = y1 - r.y;
	r.w = x1 - r.x;
	return r;
}

static int
regions(const struct lab_frame *f, const struct walk *w, const struct scene *sc,
        struct lab_rect *r, const char **name)
{
	int n = 0;

	r[n] = (struct lab_rect){ 0, 0, 3, f->cols };
	name[n++] = "title and steps";
	r[n] = (struct lab_rect){ f->lines - 1, 0, 1, f->cols };
	name[n++] = "status";
	if (f->caption_y >= 0) {
		r[n] = (struct lab_rect){ f->caption_y, 0, f->caption_lines + 2, f->cols };
		name[n++] = "caption";
	}
	if (f->draw_main) {
		/* what is painted: the scene, cut to its viewport */
		r[n] = clip(f->main.y, f->main.x, sc->height, sc->width, &f->main.clip);
		name[n++] = "grid";
	}
	if (f->draw_other && !(f->draw_main && f->other.clip.y == f->main.clip.y)) {
		r[n] = f->other.clip;
		name[n++] = "other";
	}
	if (f->lineage_w > 0) {
		r[n] = (struct lab_rect){ f->lineage_y, f->lineage_x,
		                          f->lineage_compact ? 2 : w->nsteps + 3 + (f->legend_w ? LAB_LEGEND_H : 0),
		                          f->lineage_w };
		name[n++] = "lineage";
	}
	if (f->ribbon_w > 0) {
		r[n] = (struct lab_rect){ f->ribbon_y, f->ribbon_x, 3, f->ribbon_w };
		name[n++] = "ribbon";
	}
	if (f->play.h > 0) {
		r[n] = f->play;
		name[n++] = "presenter caption";
	}
	return n;
}

static void
test_layout(void)
{
	static const int sizes[][2] = { { 40, 12 }, { 80, 24 }, { 120, 40 }, { 200, 60 } };
	static const enum lab_mode modes[] = { LAB_MODE_STEP, LAB_MODE_COMPARE, LAB_MODE_BUGS,
	                                       LAB_MODE_SCORES, LAB_MODE_QUIZ };

	for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
		for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
			int cols = sizes[s][0], lines = sizes[s][1], bad = 0, overlaps = 0, n;
			struct lab_rect r[12];
			const char *name[12], *which = "";

			setup(1, 3, 4, 2);
			lab_act(&lab, LAB_STEP_NEXT);
			lab_act(&lab, LAB_STEP_NEXT);
			if (modes[m] == LAB_MODE_QUIZ)
				lab_quiz_start(&lab, 3, 7);
			else if (modes[m] == LAB_MODE_BUGS)
				lab_act(&lab, LAB_VIEW_BUGS);
			else
				lab.mode = modes[m];
			lab_layout(&lab, cols, lines);
			n = regions(&lab.frame, lab_walk(&lab), &lab.scene, r, name);
			for (int i = 0; i < n; i++) {
				bad += !inside(&r[i], cols, lines);
				for (int j = i + 1; j < n; j++)
					if (lab_rect_overlap(&r[i], &r[j])) {
						overlaps++;
						which = name[j];
					}
			}
			tap_ok(bad == 0 && overlaps == 0 && !lab.frame.small,
			       "%dx%d, mode %d: %d regions inside the screen, none overlapping %s", cols,
			       lines, (int)modes[m], n, which);
			tap_ok(inside(&lab.frame.grid, cols, lines) &&
			       (modes[m] != LAB_MODE_STEP || (lab.frame.grid.w > 0 && lab.frame.grid.h > 0)),
			       "%dx%d, mode %d: the grid to click on is on the screen", cols, lines,
			       (int)modes[m]);
		}
	setup(1, 3, 4, 2);
	lab_layout(&lab, 39, 24);
	tap_ok(lab.frame.small && lab.frame.grid.w == 0, "39 columns: too small, nothing to click");
	lab_resize(&lab);
	lab_layout(&lab, 200, 60);
	tap_eq(lab.zoom, 6, "200x60 picks zoom 6 (the largest digits) by itself");
	tap_ok(lab.frame.lineage_w == LAB_LINEAGE_W && lab.frame.ribbon_w > 0,
	       "with the lineage beside the grid and the ribbon under it");
	{
		/* a click lands on the cell the frame put there */
		const struct scene_item *it = scene_find_label(&lab.scene, 7);

		lab_click(&lab, lab.frame.main.y + it->y, lab.frame.main.x + it->x + 1);
		tap_eq(lab.selected, 7, "a click on 7's place selects 7");
		lab_click(&lab, 0, 0);
		tap_eq(lab.selected, 7, "a click on the title selects nothing");
	}
}

/* Whether step k of the lesson, laid out at cols x lines at the current
 * zoom, shows whole: every label once, each cell inside the grid's
 * viewport, the lineage with the marks' legend and the storage ribbon on
 * the screen.  why says what is missing. */
static bool
lesson_step_whole(int k, int cols, int lines, char *why, size_t size)
{
	const struct lab_frame *f = &lab.frame;
	const struct lab_rect *g = &f->grid;
	int seen[12] = { 0 };

	lab.step = k;
	lab_layout(&lab, cols, lines);
	for (size_t i = 0; i < lab.scene.n; i++) {
		const struct scene_item *it = &lab.scene.items[i];
		int y = f->main.y + it->y, x = f->main.x + it->x;

		if (it->style != SCENE_CELL)
			continue;
		if (y < g->y || y + it->height > g->y + g->h || x < g->x || x + it->width > g->x + g->w) {
			snprintf(why, size, "step %d: cell %s at (%d,%d) outside the grid", k + 1, it->text,
			         y, x);
			return false;
		}
		if (it->label >= 0 && it->label < 12)
			seen[it->label]++;
	}
	for (int l = 0; l < 12; l++)
		if (seen[l] != 1) {
			snprintf(why, size, "step %d: label %d shown %d times", k + 1, l, seen[l]);
			return false;
		}
	if (f->lineage_w == 0 || f->lineage_compact || f->legend_w == 0 || f->ribbon_w == 0 ||
	    f->legend_y + LAB_LEGEND_H > f->bottom || f->ribbon_y + 3 > f->bottom) {
		snprintf(why, size, "step %d: lineage %d, legend %d, ribbon %d", k + 1, f->lineage_w,
		         f->legend_w, f->ribbon_w);
		return false;
	}
	return true;
}

/* The lesson's block at 200x60 (its widest step, the swap: both heads'
 * panels with their headers) at the zoom the lab picks, against zoom 4,
 * the largest before the bigger digits: 93x38 of the screen's 200x60
 * (29%) where zoom 4 took 65x23 (12%). */
static void
test_fill_screen_share(void)
{
	int w4, h4, w, h;

	setup(1, 3, 4, 2);
	lab.step = 2;
	lab.zoom_auto = false;
	lab.zoom = 4;
	lab_layout(&lab, 200, 60);
	w4 = lab.scene.width;
	h4 = lab.scene.height;
	lab.zoom_auto = true;
	lab_resize(&lab);
	lab_layout(&lab, 200, 60);
	w = lab.scene.width;
	h = lab.scene.height;
	tap_ok(lab.zoom == 6 && w == 93 && h == 38 && w4 == 65 && h4 == 23,
	       "200x60, step 3: the block is %dx%d at zoom %d, %dx%d at zoom 4", w, h, lab.zoom, w4, h4);
	tap_ok(w * h * 4 >= 200 * 60 && w * h >= 2 * w4 * h4 && h * 10 >= 60 * 6,
	       "it takes %d%% of the screen (zoom 4: %d%%) and %d%% of its lines", w * h * 100 / (200 * 60),
	       w4 * h4 * 100 / (200 * 60), h * 100 / 60);
}

/* Issue 14, "fill the screen": the zoom the lab picks (and = picks) is the
 * largest at which every step of the lesson shows whole; one more zoom
 * would cut a row, a column or the lineage and ribbon.  Big digits from
 * zoom 4: 3x5 at 120x40, 5x7 at 160x50, 6x10 at 200x60. */
static void
test_fill_screen(void)
{
	static const int sizes[][3] = {
		{ 80, 24, 1 }, { 100, 32, 3 }, { 120, 40, 4 }, { 160, 50, 5 }, { 200, 60, 6 },
	};

	for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
		int cols = sizes[s][0], lines = sizes[s][1], zoom, k = 0;
		char why[200] = "";
		bool whole = true, cut = false;

		setup(1, 3, 4, 2);
		lab_resize(&lab);
		lab_layout(&lab, cols, lines);
		zoom = lab.zoom;
		for (k = 0; whole && k < lab.walk.nsteps; k++)
			whole = lesson_step_whole(k, cols, lines, why, sizeof why);
		tap_ok(whole && zoom == sizes[s][2], "%dx%d: zoom %d (want %d), every step whole%s%s",
		       cols, lines, zoom, sizes[s][2], whole ? "" : ": ", why);
		if (zoom < LAB_ZOOM_MAX) {
			lab.zoom_auto = false;
			lab.zoom = zoom + 1;
			for (k = 0; !cut && k < lab.walk.nsteps; k++)
				cut = !lesson_step_whole(k, cols, lines, why, sizeof why);
			tap_ok(cut, "%dx%d: zoom %d would not show it whole (%s)", cols, lines, zoom + 1,
			       why);
		}
		lab.step = 2;
		lab.zoom = 1;
		lab_act(&lab, LAB_ZOOM_FIT);
		tap_eq(lab.zoom, zoom, "%dx%d on step 3: = picks the same zoom", cols, lines);
	}
	test_fill_screen_share();
}

static void
test_themes(void)
{
	char names[200] = "";
	size_t used = 0;

	for (size_t i = 0; i < theme_count; i++)
		used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", i ? ", " : "",
		                         theme_table[i].name);
	tap_ok(strcmp(names, theme_names) == 0, "the theme names for messages are the table's: %s", names);
	tap_eq(theme_find("mono"), 3, "mono is the fourth theme");
	tap_ok(!theme_table[theme_find("mono")].color, "and has no colour");
	tap_eq(theme_find("sepia"), -1, "an unknown theme is not found");
	setup(1, 3, 4, 2);
	for (size_t i = 0; i < theme_count; i++)
		lab_act(&lab, LAB_THEME);
	tap_eq(lab.theme, 0, "t cycles through every theme and back");
}

/* The numbers panel keeps the bottom lines: the grid ends above it (the
 * lineage beside a short grid may still run one line under the panel). */
static void
test_numbers_room(void)
{
	const struct lab_frame *f = &lab.frame;
	int top = 24 - 1 - LAB_NUMBERS_H;

	setup(1, 3, 4, 2);
	lab_act(&lab, LAB_NUMBERS);
	lab_layout(&lab, 80, 24);
	tap_ok(f->grid.h > 0 && f->grid.y + f->grid.h <= top,
	       "80x24 with the numbers panel: the grid ends above line %d", top);
}

static void
test_wrap(void)
{
	tap_eq(lab_layout_wrap_lines("one two three four", 9, 5), 3, "wrapped at spaces: 3 lines");
	tap_eq((int64_t)lab_layout_wrap_cut("one two three", 7), 4, "the first line ends after 'one '");
	tap_eq(lab_layout_wrap_lines("reshape 把每个位置的", 10, 5), 2, "a wide character wraps beside a word: 2 lines");
	tap_eq((int64_t)lab_layout_wrap_cut("把每个位置的", 5), 6, "and between two wide characters (2 of them, 6 bytes)");
	tap_eq(lab_layout_wrap_lines("abc", 0, 5), 0, "no columns, no lines");
}

/* A string of the side panel's scene, items in order. */
static void
attention_side_text(char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < lab.attn->side_scene.n && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s|", lab.attn->side_scene.items[i].text);
}

/* --fused in the lab: q_heads' terms end with the head's rows of
 * c_attn.weight, and the step's code is nanoGPT's split and view. */
static void
test_attention_fused(void)
{
	char line[300], last[300] = "", heading[400];
	const int64_t cell[4] = { 0, 1, 2, 1 };

	setup(1, 3, 4, 2);
	lab.attn_fused = true;
	lab_act(&lab, LAB_ATTENTION);
	tap_ok(lab.attn && lab.attn->a.fused, "--fused: the pass's weights are drawn as one c_attn");
	lab_attention_select(&lab, ATTENTION_Q_HEADS, cell);
	for (int i = 0; lab_attention_term_line(&lab, i, 80, line, sizeof line); i++)
		snprintf(last, sizeof last, "%s", line);
	tap_ok(strcmp(last, "  head 1's rows of c_attn.weight: 2 to 3, this cell's 3") == 0,
	       "q_heads[0,1,2,1]: head 1's rows of c_attn.weight, 2 to 3 (%s)", last);
	lab_attention_select(&lab, ATTENTION_V_HEADS, cell);
	for (int i = 0; lab_attention_term_line(&lab, i, 80, line, sizeof line); i++)
		snprintf(last, sizeof last, "%s", line);
	tap_ok(strcmp(last, "  head 1's rows of c_attn.weight: 10 to 11, this cell's 11") == 0,
	       "v_heads[0,1,2,1]: 2D + 2 to 2D + 3 (%s)", last);
	lab_attention_heading(&lab, heading, sizeof heading);
	tap_ok(strncmp(heading, "v.view(1, 3, 2, 2).transpose(1, 2)  [B,H,T,d]=[1,2,3,2] strides (36,2,12,1) "
	               "not contiguous", 80) == 0, "its heading: %s", heading);
	/* drawn beside the grids at 200x60: c_attn.weight, rows 2D + 2..3 lit */
	lab_layout(&lab, 200, 60);
	{
		const struct lab_attention *la = lab.attn;
		int k = la->nsrc - 1, lit = 0, wrong = 0;

		for (size_t i = 0; k >= 0 && i < la->src[k].n; i++) {
			const struct scene_item *it = &la->src[k].items[i];
			int64_t row = it->label / 4;

			if (it->label < 0)
				continue;
			lit += (it->mark & SCENE_MARK_LIT) != 0;
			wrong += (row == 10 || row == 11) != ((it->mark & SCENE_MARK_LIT) != 0);
		}
		lab_attention_source_title(&lab, k, line, sizeof line);
		tap_ok(k >= 0 && la->src_t[k] == ATTENTION_V_WEIGHT && lit == 8 && wrong == 0 &&
		       strcmp(line, "c_attn.weight rows 10..11: head 1") == 0,
		       "c_attn.weight drawn beside the grids, exactly rows 10 and 11 lit (%d lit, %d wrong): %s",
		       lit, wrong, line);
	}
	lab.attn_fused = false;
	lab_act(&lab, LAB_ATTENTION);
	lab_act(&lab, LAB_ATTENTION);
	lab_attention_select(&lab, ATTENTION_Q_HEADS, cell);
	for (int i = 0; lab_attention_term_line(&lab, i, 80, line, sizeof line); i++)
		snprintf(last, sizeof last, "%s", line);
	tap_ok(lab.attn && !lab.attn->a.fused && strcmp(last, "  head 1's rows of q_proj.weight: 2 to 3, this cell's 3") == 0,
	       "without --fused: q_proj.weight's rows (%s)", last);
}

/* The pass's numeric grids grow into a large screen (a zoom, as the
 * layout grids have, picked to fit, + and - by hand, = back), and at 80x24
 * what does not fit says so: a grid cut at its foot has its line, a grid
 * the selection reads that found no room has the line under the grids. */
static void
test_attention_zoom(void)
{
	static const struct { int cols, lines, least; } sizes[] = { { 80, 24, 0 }, { 120, 40, 1 }, { 200, 60, 2 } };

	setup(1, 3, 4, 2);
	lab_act(&lab, LAB_ATTENTION);
	for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
		int said = 0, silent = 0, small = 0, cut = 0;

		lab_act(&lab, LAB_STEP_FIRST);
		for (int step = 0; step < ATTENTION_NSTEPS; step++, lab_act(&lab, LAB_STEP_NEXT)) {
			const struct lab_attention *la = lab.attn;

			lab_layout(&lab, sizes[k].cols, sizes[k].lines);
			int used = 1 + la->grid.width;

			for (int i = 0; i < la->nsrc; i++)
				if (la->src_at[i].x + la->src[i].width > used)
					used = la->src_at[i].x + la->src[i].width;
			/* zoomed, or the room already taken by the grids it reads */
			if (la->zoom < sizes[k].least && used < sizes[k].cols * 3 / 4) {
				small++;
				printf("# %dx%d step %d at zoom %d: grid %dx%d, %d sources\n", sizes[k].cols, sizes[k].lines,
				     step, la->zoom, la->grid.width, la->grid.height, la->nsrc);
			}
			cut += la->grid_hidden > 0;
			if ((la->src_dropped > 0 && la->dropped_y < 0) ||
			    (la->grid_hidden > 0 && la->grid_at.clip.y + la->grid_at.clip.h >= lab.frame.bottom)) {
				silent++;
				printf("# %dx%d step %d: %d grids dropped (said at line %d), %d lines hidden, "
				       "clip %d+%d, bottom %d\n", sizes[k].cols, sizes[k].lines, step,
				       la->src_dropped, la->dropped_y, la->grid_hidden, la->grid_at.clip.y,
				       la->grid_at.clip.h, lab.frame.bottom);
			}
			said += la->src_dropped > 0;
		}
		tap_ok(silent == 0 && small == 0 && (sizes[k].least == 0 || cut == 0),
		       "%dx%d: every step's grids at zoom %d or more or across 3/4 of the screen (%d not), "
		       "whole (%d cut), and "
		       "what finds no room said (%d steps say so, %d silent)", sizes[k].cols, sizes[k].lines,
		       sizes[k].least, small, cut, said, silent);
	}
	lab_layout(&lab, 200, 60);
	{
		int z = lab.attn->zoom;

		lab_act(&lab, LAB_ZOOM_OUT);
		lab_layout(&lab, 200, 60);
		tap_ok(lab.attn->zoom == z - 1, "- makes the numbers smaller: zoom %d to %d", z, lab.attn->zoom);
		lab_act(&lab, LAB_ZOOM_OUT);
		lab_act(&lab, LAB_ZOOM_OUT);
		lab_act(&lab, LAB_ZOOM_OUT);
		lab_layout(&lab, 200, 60);
		tap_ok(lab.attn->zoom == 0, "... down to 0");
		lab_act(&lab, LAB_ZOOM_IN);
		lab_layout(&lab, 200, 60);
		tap_ok(lab.attn->zoom == 1, "+ larger again: 1");
		lab_act(&lab, LAB_ZOOM_FIT);
		lab_layout(&lab, 200, 60);
		tap_ok(lab.attn->zoom == z, "= back to the largest that fits, %d", z);
	}
}

/* CPU milliseconds of one action and the layout that follows it. */
static double
attention_timed(enum lab_action a)
{
	clock_t c0 = clock();

	lab_act(&lab, a);
	lab_layout(&lab, 200, 60);
	return (double)(clock() - c0) * 1000.0 / CLOCKS_PER_SEC;
}

/* A, stepping, the selection and its reads, the reading panel, the
 * concatenation at merged, head ablation and the opening question, with
 * the lesson's numbers; GPT-2 size within 50 ms of CPU a key. */
static void
test_attention(void)
{
	const int64_t ctx[4] = { 0, 0, 1, 0 };
	char buf[2000], want[200], line[300];
	bool all = true;
	double worst = 0;
	int lines = 0;

	setup(1, 3, 4, 2);
	lab_act(&lab, LAB_ATTENTION);
	tap_ok(lab.mode == LAB_MODE_ATTENTION && lab.attn && lab.attn->step == ATTENTION_INPUT,
	       "A turns the attention pass on, at its input");
	tap_ok(lab.attn->sel[0] == 0 && lab.attn->sel[1] == 1 && lab.attn->sel[2] == 0,
	       "on x[0, 1, 0], the cell of the selected label 4");
	for (int i = 0; i < 10; i++)
		lab_act(&lab, LAB_STEP_NEXT);
	lab_layout(&lab, 80, 24);
	tap_ok(lab.attn->step == ATTENTION_CONTEXT && memcmp(lab.attn->sel, ctx, sizeof ctx) == 0,
	       "ten steps on: context[0, 0, 1, 0], the same position, head and feature");
	tap_ok(lab.attn->have_e && lab.attn->e.nterms == 3 && lab.attn->e.nreads == 6,
	       "its terms: 3 products of a weight and a value");
	tap_ok(fabs(lab.attn->e.value - 3.14148) < 5e-6, "its value is the lesson's 3.14148 (%.6g)",
	       lab.attn->e.value);
	tap_ok(lab.attn->nlit >= 3, "the cells it reads are lit in the grids shown (%lld)",
	       (long long)lab.attn->nlit);
	attention_side_text(buf, sizeof buf);
	tap_ok(strstr(buf, "head 0|s 0|") && strstr(buf, "0.002978|") && strstr(buf, "0.997022|") &&
	       strstr(buf, "0.999998|") && strstr(buf, "<1e-4|"),
	       "the reading panel shows position 1's rows: head 0 [0.002978, 0.997022, masked], head 1 "
	       "[0.999998, <1e-4, masked]");
	for (int i = 0; lab_attention_term_line(&lab, i, 80, line, sizeof line); i++)
		lines++;
	tap_eq(lines, 5, "the terms panel at 80 columns: title, 3 terms, the sum");
	lab_attention_term_line(&lab, 2, 80, line, sizeof line);
	tap_ok(strstr(line, "weights[0,0,1,1] 0.997") && strstr(line, "v_heads[0,0,1,0] 3.149") &&
	       strstr(line, "= 3.139"), "a term names its two cells and its product: %s", line);
	{
		/* the grid beside context is v_heads: a click there goes to it */
		const struct scene_item *it = NULL;

		for (size_t i = 0; lab.attn->nsrc > 0 && i < lab.attn->src[0].n && !it; i++)
			if (lab.attn->src[0].items[i].mark & SCENE_MARK_LIT)
				it = &lab.attn->src[0].items[i];
		tap_ok(lab.attn->nsrc == 1 && lab.attn->src_t[0] == ATTENTION_V_HEADS && it,
		       "at 80x24 the v_heads grid it reads is shown, its cells lit");
		if (it) {
			lab_click(&lab, lab.attn->src_at[0].y + it->y, lab.attn->src_at[0].x + it->x);
			tap_ok(lab.attn->step == ATTENTION_V_HEADS && lab.attn->sel[2] == 0,
			       "clicking a lit cell there goes to v_heads[0, 0, 0, 0]");
			lab_attention_select(&lab, ATTENTION_CONTEXT, ctx);
			lab_layout(&lab, 80, 24);
		}
	}
	lab_act(&lab, LAB_MOVE_DOWN);
	tap_ok(lab.attn->sel[2] == 2 && lab.attn->t == 2, "j moves to position 2");
	lab_act(&lab, LAB_MOVE_UP);

	/* merged: the heads side by side */
	for (int i = 0; i < 3; i++)
		lab_act(&lab, LAB_STEP_NEXT);
	lab_layout(&lab, 80, 24);
	tap_ok(lab.attn->step == ATTENTION_MERGED && lab.attn->sel[2] == 0, "merged[0, 1, 0]");
	{
		int64_t c[4] = { 0, 0, 1, 0 };
		double v[4];

		for (int h = 0; h < 2; h++)
			for (int k = 0; k < 2; k++) {
				c[1] = h;
				c[3] = k;
				v[h * 2 + k] = attention_value(&lab.attn->a, ATTENTION_CONTEXT, c);
			}
		lab_attention_concat(&lab, 0, line, sizeof line);
		snprintf(want, sizeof want, "head 0 [%.4g, %.4g]  head 1 [%.4g, %.4g]", v[0], v[1], v[2], v[3]);
		tap_ok(strcmp(line, want) == 0, "at merged, each head's context row: %s", line);
		lab_attention_concat(&lab, 1, line, sizeof line);
		snprintf(want, sizeof want, "\u2192 merged[0, 1] = [%.4g, %.4g, %.4g, %.4g]: "
		         "concatenated, not added", v[0], v[1], v[2], v[3]);
		tap_ok(strcmp(line, want) == 0, "lands side by side in merged's row: %s", line);
	}
	tap_ok(lab.attn->concat_y > lab.attn->grid_at.y, "the concatenation line is under the grid");

	/* head ablation: x, x, x */
	lab_act(&lab, LAB_STEP_NEXT);
	lab_act(&lab, LAB_ATTENTION_ABLATE);
	lab_layout(&lab, 80, 24);
	tap_ok(lab.attn->side == LAB_ATTENTION_SIDE_ABLATION && lab.attn->ablate == 0, "x zeroes head 0");
	/* at 120x40 the map holds every position and feature: each cell the
	 * output's change, at 4 digits */
	lab_layout(&lab, 120, 40);
	for (int64_t k = 0; k < 12; k++) {
		double change;
		bool found = false;

		attention_ablate(&lab.attn->a, 0, 0, k / 4, k % 4, &change);
		snprintf(want, sizeof want, "%.4g", change);
		for (size_t i = 0; i < lab.attn->side_scene.n; i++)
			found = found || (lab.attn->side_scene.items[i].label == k &&
			                  strstr(lab.attn->side_scene.items[i].text, want) != NULL);
		all = all && found;
	}
	tap_ok(all && lab.attn->side_box.h > 0, "the map shows how zeroing head 0 changes the output at every "
	       "position and feature");
	lab_layout(&lab, 80, 24);
	attention_side_text(buf, sizeof buf);
	{
		int cells = 0;

		for (size_t i = 0; i < lab.attn->side_scene.n; i++)
			cells += lab.attn->side_scene.items[i].label >= 0;
		tap_ok(strstr(buf, "zeroing head 0 changes output[0] by|") && !strstr(buf, "\u2026|") &&
		       cells == 12 && lab.attn->side_box.x + lab.attn->side_box.w <= 80 &&
		       lab.attn->side_box.w >= lab.attn->side_scene.width,
		       "at 80x24 the map fits whole beside the terms: %d cells", cells);
	}
	lab_act(&lab, LAB_ATTENTION_ABLATE);
	tap_ok(lab.attn->side == LAB_ATTENTION_SIDE_ABLATION && lab.attn->ablate == 1, "x again: head 1");
	lab_act(&lab, LAB_ATTENTION_ABLATE);
	tap_ok(lab.attn->side == LAB_ATTENTION_SIDE_READING, "and once more back to the reading panel");

	/* the opening question */
	lab_act(&lab, LAB_ATTENTION_OPENING);
	buf[0] = '\0';
	for (int i = 0; lab_attention_opening_line(i, true, line, sizeof line); i++)
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s\n", line);
	tap_ok(lab.attn->side == LAB_ATTENTION_SIDE_OPENING &&
	       strstr(buf, "closest a = 0.32 misses T=[0.8,1.6] by 0.537") && strstr(buf, ": [0.8, 1.6] = T"),
	       "o: one set of weights misses [0.8, 1.6] by 0.537 at best; two heads reach it");
	tap_ok(strstr(buf, "1.5 \u2502  \u00b7\u00b7\u00b7\u00b7\u00b7        T") != NULL,
	       "the plot puts T off the segment, at a = 0.8");
	lab_act(&lab, LAB_CANCEL);
	tap_ok(lab.mode == LAB_MODE_ATTENTION && lab.attn->side == LAB_ATTENTION_SIDE_READING,
	       "Esc closes the panel first");
	lab_act(&lab, LAB_HELP);
	tap_ok(lab_overlay_shown(&lab, LAB_OVERLAY_HELP), "? opens the help over the pass");
	lab_overlay_close(&lab, LAB_OVERLAY_HELP);
	lab_act(&lab, LAB_THEME);
	tap_eq(lab.theme, 1, "t picks the next theme");
	lab_act(&lab, LAB_CANCEL);
	tap_ok(lab.mode == LAB_MODE_STEP && !lab.quit, "then leaves the pass, without quitting");
	lab_act(&lab, LAB_ATTENTION);
	tap_ok(lab.mode == LAB_MODE_ATTENTION && lab.attn->step == ATTENTION_OUTPUT,
	       "A again comes back where it was");

	/* leave, change the heads, come back: the pass follows; so does the seed */
	lab_act(&lab, LAB_ATTENTION);
	lab_act(&lab, LAB_HEADS_FEWER);
	lab.attn_seed = 7;
	lab_act(&lab, LAB_ATTENTION);
	tap_ok(lab.mode == LAB_MODE_ATTENTION && lab.attn->a.heads == 1 && lab.attn->a.seed == 7 &&
	       lab.attn->step == ATTENTION_INPUT, "after [ and with seed 7, A builds the pass anew: 1 head, seed 7");
	{
		struct attention ref;
		char err[128];

		attention_init(&ref, 1, 3, 4, 1, 7, err, sizeof err, NULL, 0);
		tap_ok(memcmp(ref.weight[3], lab.attn->a.weight[3], 16 * sizeof(float)) == 0,
		       "its weights are torch.manual_seed(7)'s");
		attention_free(&ref);
	}
	lab_act(&lab, LAB_HEADS_MORE);
	tap_ok(lab.mode == LAB_MODE_ATTENTION && lab.attn->a.heads == 1 && lab.message[0] != '\0',
	       "] inside the pass changes nothing and says so");
	lab_act(&lab, LAB_ATTENTION);
	lab_act(&lab, LAB_HEADS_MORE);
	lab.attn_seed = 42;
	lab_act(&lab, LAB_ATTENTION);
	lab_act(&lab, LAB_STEP_LAST);

	/* every size lays out inside the screen */
	all = true;
	for (int cols = 40; cols <= 200; cols += 23)
		for (int rows = 12; rows <= 60; rows += 7)
			for (int k = 0; k < ATTENTION_NSTEPS; k++) {
				lab_act(&lab, k == 0 ? LAB_STEP_FIRST : LAB_STEP_NEXT);
				lab_layout(&lab, cols, rows);
				all = all && lab.attn->terms.y + lab.attn->terms.h <= rows - 1 &&
				      lab.attn->side_box.x + lab.attn->side_box.w <= cols &&
				      lab.attn->grid_at.clip.y + lab.attn->grid_at.clip.h <= rows - 1;
			}
	tap_ok(all, "every step at 40x12 to 200x60 keeps its panels on the screen");

	/* a pattern has no heads to read with */
	lab_act(&lab, LAB_ATTENTION);
	lab_highlight(&lab, "x");
	lab.walk.kind = WALK_CUSTOM;
	lab_act(&lab, LAB_ATTENTION);
	tap_ok(lab.mode == LAB_MODE_STEP && lab.message[0] != '\0', "on a pattern's walk A says why not");
	lab.walk.kind = WALK_LESSON;

	/* GPT-2 size: every key within 50 ms of CPU */
	setup(1, 1024, 768, 12);
	worst = attention_timed(LAB_ATTENTION);
	for (int k = 0; k < ATTENTION_NSTEPS - 1; k++) {
		double ms = attention_timed(LAB_STEP_NEXT);

		worst = ms > worst ? ms : worst;
		ms = attention_timed(LAB_MOVE_RIGHT);
		worst = ms > worst ? ms : worst;
		ms = attention_timed(LAB_MOVE_DOWN);
		worst = ms > worst ? ms : worst;
	}
	for (int k = 0; k < 3; k++) {
		double ms = attention_timed(k == 2 ? LAB_ATTENTION_OPENING : LAB_ATTENTION_ABLATE);

		worst = ms > worst ? ms : worst;
	}
	/* the time is a measurement, not a bound: a slow or instrumented
	 * build must not fail here (tests/bench times it) */
	tap_ok(lab.mode == LAB_MODE_ATTENTION && lab.attn && lab.attn->step == ATTENTION_NSTEPS - 1,
	       "at [1,1024,768] with 12 heads every step, move and panel answers "
	       "(slowest: %.1f ms of CPU on this build)", worst);
	{
		const int64_t c5[4] = { 0, 0, 5, 0 };
		bool listed = lab_attention_select(&lab, ATTENTION_CONTEXT, c5) && lab.attn->e.nterms == 1024 &&
		              lab.attn->nlisted == LAB_ATTENTION_TERMS;

		for (int i = 0; i < 6 && listed; i++)
			listed = lab.attn->listed[i] == i;  /* positions 0..5 read, in order */
		buf[0] = '\0';
		for (int i = 0; lab_attention_term_line(&lab, i, 100, line, sizeof line); i++)
			if (strstr(line, "smaller terms"))
				snprintf(buf, sizeof buf, "%s", line);
		tap_ok(listed && strstr(buf, "... 1016 smaller terms"),
		       "context[0,0,5,0] of 1024 terms lists the 8 largest, positions 0 to 5 among them: %s", buf);
	}
	lab_act(&lab, LAB_STEP_FIRST);
	lab_act(&lab, LAB_STEP_PREV);
	tap_ok(lab.attn->step == 0, "and it stays within its steps");
	lab_act(&lab, LAB_QUIT);
	tap_ok(lab.quit, "q quits from the pass");
}

/* ---- the 3D view ----------------------------------------------------- */

/* Whether every cell of the lab's scene is on screen inside the grid's
 * rectangle, no two overlapping, the selected one marked. */
static bool
cells_sound(int *selected_marked)
{
	const struct lab_frame *f = &lab.frame;
	bool ok = true;

	*selected_marked = 0;
	for (size_t i = 0; i < lab.scene.n; i++) {
		const struct scene_item *a = &lab.scene.items[i];
		struct lab_rect ra = { f->main.y + a->y, f->main.x + a->x, a->height, a->width };

		if (a->style != SCENE_CELL)
			continue;
		ok &= ra.y >= f->grid.y && ra.y + ra.h <= f->grid.y + f->grid.h && ra.x >= f->grid.x &&
		      ra.x + ra.w <= f->grid.x + f->grid.w;
		*selected_marked += a->label == lab.selected && (a->mark & SCENE_MARK_SELECTED);
		for (size_t j = i + 1; j < lab.scene.n; j++) {
			const struct scene_item *b = &lab.scene.items[j];
			struct lab_rect rb = { f->main.y + b->y, f->main.x + b->x, b->height, b->width };

			ok &= !lab_rect_overlap(&ra, &rb);
		}
	}
	return ok;
}

/* The selected cell's screen position, or (-1, -1). */
static void
selected_at(int *y, int *x)
{
	const struct scene_item *it = scene_find_label(&lab.scene, lab.selected);

	*y = it ? lab.frame.main.y + it->y : -1;
	*x = it ? lab.frame.main.x + it->x : -1;
}

static void
test_3d_steps(void)
{
	static const int sizes[][2] = { { 80, 24 }, { 120, 40 }, { 200, 60 } };

	for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
		int cols = sizes[s][0], lines = sizes[s][1], y0 = 0, x0 = 0, moved = 0, lost = 0;
		int unsound = 0, overlaps = 0, drawn = 0;

		setup(1, 3, 4, 2);
		lab_act(&lab, LAB_VIEW_3D);
		tap_ok(lab.view3d && lab_3d_shown(&lab), "%dx%d: 3 turns the 3D view on", cols, lines);
		for (int k = 0; k < 6; k++) {
			struct lab_rect r[12];
			const char *name[12];
			int marked, y, x, n;

			lab_layout(&lab, cols, lines);
			drawn += lab.frame.block && lab.frame.block_fits;
			unsound += !cells_sound(&marked);
			lost += marked != 1;
			selected_at(&y, &x);
			if (k == 0) {
				y0 = y;
				x0 = x;
			} else if (k == 1 || k == 5) {
				/* x, the split and the merge keep 4 in its place */
				moved += y != y0 || x != x0;
			}
			n = regions(&lab.frame, lab_walk(&lab), &lab.scene, r, name);
			r[n++] = (struct lab_rect){ lab.frame.block_caption_y, 0, 1, cols };
			for (int i = 0; i < n; i++)
				for (int j = i + 1; j < n; j++)
					overlaps += lab_rect_overlap(&r[i], &r[j]);
			lab_act(&lab, LAB_STEP_NEXT);
		}
		tap_eq(drawn, 6, "%dx%d: every step of the lesson drawn as a whole block", cols, lines);
		tap_ok(unsound == 0, "%dx%d: every cell inside the block's room, none over another", cols,
		       lines);
		tap_eq(lost, 0, "%dx%d: 4 is drawn once and lit at every step", cols, lines);
		tap_eq(moved, 0, "%dx%d: 4 stands on the same line and column in x, the split and the merge",
		       cols, lines);
		tap_eq(overlaps, 0, "%dx%d: block, 3D line, lineage, ribbon and caption apart", cols, lines);
	}
	setup(1, 3, 4, 2);
	lab_act(&lab, LAB_VIEW_3D);
	lab_layout(&lab, 80, 24);
	tap_ok(lab.frame.lineage_w == LAB_LINEAGE_W && !lab.frame.lineage_compact,
	       "80x24: the lineage beside the block");
	tap_ok(strstr(lab.v3->block.caption, "T down, D across") != NULL,
	       "the 3D line says what the block shows: %s", lab.v3->block.caption);
	lab_layout(&lab, 120, 40);
	tap_ok(lab.frame.ribbon_w > 0 && lab.frame.lineage_w > 0,
	       "120x40: the lineage and the storage ribbon stay");
}

static void
test_3d_keys(void)
{
	const struct scene_item *it;
	int before;

	setup(1, 3, 4, 2);
	lab_act(&lab, LAB_VIEW_3D);
	lab_layout(&lab, 80, 24);
	lab_act(&lab, LAB_MOVE_RIGHT);
	tap_eq(lab.selected, 5, "in the block, l moves from 4 to 5");
	lab_act(&lab, LAB_MOVE_DOWN);
	tap_eq(lab.selected, 9, "j from 5 to 9");
	lab_act(&lab, LAB_MOVE_LEFT);
	lab_act(&lab, LAB_MOVE_UP);
	tap_eq(lab.selected, 4, "h and k back to 4");
	it = scene_find_label(&lab.scene, 10);
	tap_ok(it != NULL, "10 is in the block");
	if (it)
		lab_click(&lab, lab.frame.main.y + it->y, lab.frame.main.x + it->x + 2);
	tap_eq(lab.selected, 10, "a click on 10's box selects 10");
	lab_click(&lab, lab.frame.block_caption_y, 3);
	tap_eq(lab.selected, 10, "a click on the 3D line selects nothing");
	lab_select(&lab, 4);

	lab_act(&lab, LAB_STEP_NEXT);
	lab_layout(&lab, 80, 24);
	tap_ok(lab.v3->block.axis[SCENE3D_DEPTH] == 2, "the split: H in depth at the first turn");
	lab_act(&lab, LAB_TURN);
	lab_layout(&lab, 80, 24);
	tap_ok(lab.turn3d == 1 && lab.v3->block.axis[SCENE3D_DEPTH] == 3 &&
	       lab.v3->block.axis[SCENE3D_ACROSS] == 2, "r turns the block: d recedes, H across");
	tap_ok(scene_find_label(&lab.scene, 4) != NULL, "4 is still drawn after the turn");
	lab_act(&lab, LAB_TURN);
	lab_act(&lab, LAB_TURN);
	tap_eq(lab.turn3d, 0, "three turns come back to the first");

	lab_act(&lab, LAB_VIEW_3D);
	lab_layout(&lab, 80, 24);
	tap_ok(!lab.view3d && !lab.frame.block, "3 again: the grid");
	before = lab.turn3d;
	lab_act(&lab, LAB_TURN);
	tap_ok(lab.turn3d == before && strstr(lab.warning, "press 3") != NULL,
	       "r in the grid turns nothing and says so: %s", lab.warning);
	lab_act(&lab, LAB_VIEW_COMPARE);
	lab_act(&lab, LAB_VIEW_3D);
	tap_ok(lab.mode == LAB_MODE_STEP && lab.view3d, "3 from the before/after view: the block");

	/* zoom widens the boxes; = picks the largest that fits */
	lab.zoom_auto = false;
	lab.zoom = 1;
	lab_layout(&lab, 120, 40);
	it = scene_find_label(&lab.scene, 4);
	before = it ? it->width : 0;
	lab_act(&lab, LAB_ZOOM_IN);
	lab_layout(&lab, 120, 40);
	it = scene_find_label(&lab.scene, 4);
	tap_ok(it && it->width == before + 2 && strncmp(it->text, "   4a", 5) == 0,
	       "+ widens each box by 2 columns, the label in the middle: '%s'", it ? it->text : "");
	lab.frame.cols = 120;
	lab.frame.lines = 40;
	lab_act(&lab, LAB_ZOOM_FIT);
	lab_layout(&lab, 120, 40);
	tap_ok(lab.zoom > 1 && lab.frame.block_fits, "= at 120x40: zoom %d, the block whole", lab.zoom);
	lab_layout(&lab, 80, 24);
	tap_ok(!lab.frame.block_fits || lab.scene.width <= lab.frame.grid.w,
	       "80x24 at that zoom: drawn whole or not at all");
}

static void
test_3d_nofit(void)
{
	/* the lesson, and a block lower than the lineage is long */
	static const int sizes[][3] = { { 40, 12, 3 }, { 40, 14, 3 }, { 50, 16, 3 }, { 60, 20, 3 },
	                                { 80, 16, 3 }, { 80, 16, 1 }, { 80, 14, 1 } };
	int64_t selected;

	for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
		int cols = sizes[s][0], lines = sizes[s][1], bad = 0, overlaps = 0, n, marked, nofit = 0;
		struct lab_rect r[12];
		const char *name[12];

		setup(1, sizes[s][2], 4, 2);
		lab_act(&lab, LAB_VIEW_3D);
		for (int k = 0; k < 6; k++, lab_act(&lab, LAB_STEP_NEXT)) {
			lab_layout(&lab, cols, lines);
			n = regions(&lab.frame, lab_walk(&lab), &lab.scene, r, name);
			r[n++] = (struct lab_rect){ lab.frame.block_caption_y, 0, 1, cols };
			for (int i = 0; i < n; i++) {
				bad += !inside(&r[i], cols, lines);
				for (int j = i + 1; j < n; j++)
					overlaps += lab_rect_overlap(&r[i], &r[j]);
			}
			bad += !cells_sound(&marked);
			bad += lab.frame.block_fits ? marked != 1 : lab.scene.n != 0;
			if (!lab.frame.block_fits) {
				char notice[400];

				/* the notice is never cut: all its lines fit */
				lab_3d_notice(&lab, notice, sizeof notice);
				bad += lab_layout_wrap_lines(notice, lab.frame.grid.w, 99) > lab.frame.grid.h;
				nofit++;
			}
		}
		tap_ok(bad == 0 && overlaps == 0, "%dx%d in 3D, T=%d: every step's block whole or not "
		       "drawn (%d not), all parts on screen and apart (%d, %d)", cols, lines, sizes[s][2],
		       nofit, bad, overlaps);
	}

	/* two batches side by side do not fit in 40 columns */
	setup(2, 3, 4, 2);
	lab_act(&lab, LAB_VIEW_3D);
	lab_layout(&lab, 40, 16);
	tap_ok(lab.frame.block && !lab.frame.block_fits && lab.scene.n == 0,
	       "2,3,4 at 40x16: the block does not fit and nothing of it is drawn");
	tap_ok(lab.frame.block_need_w > 38, "the notice knows the columns it needs: %d",
	       lab.frame.block_need_w);
	selected = lab.selected;
	lab_click(&lab, lab.frame.grid.y, lab.frame.grid.x + 2);
	lab_act(&lab, LAB_MOVE_RIGHT);
	tap_eq(lab.selected, selected, "clicks and moves find no cell there");
	lab_layout(&lab, 120, 40);
	tap_ok(lab.frame.block_fits, "at 120x40 the two batches fit");

	/* a rank the block cannot draw: the ViT preset's patches */
	{
		struct preset_params pp = { 0 };
		struct pattern_error err;
		struct walk w;
		char buf[400];

		tap_ok(preset_build(preset_find("vit"), &w, &pp, &err), "the vit preset builds");
		lab_set_walk(&lab, &w, 1);
		lab_layout(&lab, 120, 40);
		lab_3d_caption(&lab, buf, sizeof buf);
		tap_ok(strcmp(buf, lab.v3->block.caption) == 0 && lab.v3->block.unsupported,
		       "its rank-6 step: %s", buf);
		lab_3d_notice(&lab, buf, sizeof buf);
		tap_ok(!lab.frame.block_fits && lab.scene.n == 0 && strstr(buf, "press 3 for the grid"),
		       "is not drawn, and the notice says: %s", buf);
		lab_act(&lab, LAB_STEP_LAST);
		lab_layout(&lab, 120, 40);
		tap_ok(lab.frame.block_fits && scene_find_label(&lab.scene, lab.selected),
		       "its last step, rank 3, is a block again");
	}
}

/* The block's room as a layout found it. */
static void
room3d(char *buf, size_t size)
{
	const struct lab_frame *f = &lab.frame;

	snprintf(buf, size, "grid %d,%d %dx%d zoom %d fits %d needs %dx%d lineage %d,%d scene %dx%d",
	         f->grid.y, f->grid.x, f->grid.w, f->grid.h, f->block_zoom, f->block_fits,
	         f->block_need_w, f->block_need_h, f->lineage_y, f->lineage_x, lab.scene.width,
	         lab.scene.height);
}

/* The 3D view keeps the room each zoom's largest block takes while the
 * walk and the scene's options stay the same: after every change, the
 * layout must be the one the view lays out with nothing kept. */
static void
test_3d_extent_kept(void)
{
	static const struct {
		const char *what;
		enum lab_action act;
		int64_t select;
		int cols, lines;
	} moves[] = {
		{ "at 120x40", LAB_NONE, -1, 120, 40 },
		{ "label 600 selected", LAB_NONE, 600, 120, 40 },
		{ "the next step", LAB_STEP_NEXT, -1, 120, 40 },
		{ "label 1023", LAB_NONE, 1023, 120, 40 },
		{ "zoom in", LAB_ZOOM_IN, -1, 120, 40 },
		{ "at 200x60", LAB_NONE, -1, 200, 60 },
		{ "label 70", LAB_NONE, 70, 200, 60 },
		{ "turned", LAB_TURN, -1, 200, 60 },
		{ "zoom out", LAB_ZOOM_OUT, -1, 200, 60 },
		{ "at 80x24", LAB_NONE, -1, 80, 24 },
		{ "label 520", LAB_NONE, 520, 80, 24 },
		{ "the last step", LAB_STEP_LAST, -1, 120, 40 },
		{ ".contiguous() applied", LAB_CONTIGUOUS, -1, 120, 40 },
		{ "one more head", LAB_HEADS_MORE, -1, 120, 40 },
		{ "label 300", LAB_NONE, 300, 120, 40 },
	};
	char kept[200], fresh[200];

	setup(1, 16, 64, 4);    /* 1024 cells: every block elided around the selection */
	lab_act(&lab, LAB_VIEW_3D);
	for (size_t i = 0; i < sizeof moves / sizeof moves[0]; i++) {
		if (moves[i].act != LAB_NONE)
			lab_act(&lab, moves[i].act);
		if (moves[i].select >= 0)
			lab_select(&lab, moves[i].select);
		lab_layout(&lab, moves[i].cols, moves[i].lines);
		room3d(kept, sizeof kept);
		lab_3d_free(&lab);
		lab_layout(&lab, moves[i].cols, moves[i].lines);
		room3d(fresh, sizeof fresh);
		if (!tap_ok(strcmp(kept, fresh) == 0, "3D, %s: %s", moves[i].what, kept))
			printf("# with nothing kept: %s\n", fresh);
	}
}

static void
test_3d_glide(void)
{
	struct scene before = { 0 }, after = { 0 }, mid = { 0 };
	int false_chrome = 0, twice = 0, cells = 0;

	setup(1, 3, 4, 2);
	lab.glide.on = true;
	lab_act(&lab, LAB_VIEW_3D);
	lab_layout(&lab, 80, 24);
	lab_finish_anim(&lab);
	lab_3d_frame(&lab, &before);
	lab_act(&lab, LAB_STEP_NEXT);   /* x to the split: head 1 goes behind head 0 */
	lab_layout(&lab, 80, 24);
	tap_ok(lab.glide.moving && lab.glide.plan.n == 12 && lab.glide.plan.path != ANIM_PATH_CUT,
	       "a step in 3D glides the 12 cells (%zu moves)", lab.glide.plan.n);
	for (size_t i = 0; i < lab.glide.plan.n; i++)
		for (size_t j = i + 1; j < lab.glide.plan.n; j++)
			twice += lab.glide.plan.moves[i].to->label == lab.glide.plan.moves[j].to->label;
	tap_eq(twice, 0, "each label glides once");
	lab.glide.frame = LAB_ANIM_FRAMES / 2;
	lab_3d_frame(&lab, &mid);
	lab_finish_anim(&lab);
	lab_layout(&lab, 80, 24);
	lab_3d_frame(&lab, &after);
	/* mid-glide, each piece of chrome is one both blocks draw there
	 * (an edge may be cut into glyphs) */
	for (size_t i = 0; i < mid.n; i++) {
		const struct scene_item *a = &mid.items[i];
		bool in[2] = { false, false };

		if (a->style == SCENE_CELL) {
			cells++;
			continue;
		}
		for (int s = 0; s < 2; s++) {
			const struct scene *sc = s ? &after : &before;

			for (size_t j = 0; j < sc->n && !in[s]; j++) {
				const struct scene_item *b = &sc->items[j];

				in[s] = b->y == a->y && b->x <= a->x && a->x + a->width <= b->x + b->width &&
				        b->style == a->style &&
				        (a->style == SCENE_RULE || strcmp(b->text, a->text) == 0);
			}
		}
		false_chrome += !in[0] || !in[1];
		false_chrome += strstr(a->text, "H 1") != NULL;
	}
	tap_ok(cells == 12 && mid.n > 12 && false_chrome == 0,
	       "mid-glide: the 12 cells and only chrome both blocks draw there, no layer title "
	       "(H 1 of the split)");
	scene_free(&before);
	scene_free(&after);
	scene_free(&mid);

	/* switching views is a cut: the new picture at once */
	lab_act(&lab, LAB_VIEW_3D);
	lab_layout(&lab, 80, 24);
	tap_ok(!lab.glide.moving && !lab.frame.block, "3 back to the grid: at once");
	lab_act(&lab, LAB_VIEW_3D);
	lab_layout(&lab, 80, 24);
	tap_ok(!lab.glide.moving && lab.frame.block, "3 from the grid: the block at once, no grid cell "
	       "on its way into it");
	lab_act(&lab, LAB_VIEW_3D);
	lab_layout(&lab, 80, 24);
	lab.glide.on = false;
	lab_act(&lab, LAB_VIEW_3D);
	lab.glide.on = true;
	lab_act(&lab, LAB_STEP_PREV);
	lab_layout(&lab, 80, 24);
	tap_ok(!lab.glide.moving && lab.frame.block,
	       "a step just after the grid was on screen: the block at once, no glide from the grid");
}

/* Whether the step's SVG in dir draws depth edges (the 3D block's): 1,
 * 0 when it does not, -1 when there is no such file. */
static int
svg_is_3d(const char *dir, const char *name)
{
	char path[512], buf[65536];
	FILE *f;
	size_t n;

	snprintf(path, sizeof path, "%s/%s", dir, name);
	if ((f = fopen(path, "r")) == NULL)
		return -1;
	n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	return strstr(buf, "stroke-dasharray='6 4'") != NULL;
}

static void
test_3d_export(void)
{
	char dir[] = "/tmp/headlab-lab3d-XXXXXX", path[600];
	bool made = mkdtemp(dir) != NULL;

	tap_ok(made, "a scratch directory");
	setup(1, 3, 4, 2);
	lab_act(&lab, LAB_STEP_NEXT);
	lab_act(&lab, LAB_STEP_NEXT);
	lab_act(&lab, LAB_PROMPT_EXPORT_OPEN);
	lab.prompt.input[0] = '\0';
	type(dir);
	lab_prompt_submit(&lab);
	tap_ok(made && svg_is_3d(dir, "step-3-swap.svg") == 0, "e in the grid view: the grid's SVG");
	lab_act(&lab, LAB_VIEW_3D);
	lab_act(&lab, LAB_PROMPT_EXPORT_OPEN);
	lab_prompt_submit(&lab);
	tap_ok(made && svg_is_3d(dir, "step-3-swap.svg") == 1, "e in the 3D view: the block's SVG");
	for (const char *ext = "txt\0ansi\0md\0svg\0"; made && *ext; ext += strlen(ext) + 1) {
		snprintf(path, sizeof path, "%s/step-3-swap.%s", dir, ext);
		remove(path);
	}
	snprintf(path, sizeof path, "%s/headlab-manifest.txt", dir);
	remove(path);
	if (made)
		rmdir(dir);
}

static void
test_3d_caption(void)
{
	static const int64_t shapes[][4] = { { 1, 3, 4, 2 }, { 2, 3, 4, 2 }, { 2, 64, 32, 4 } };
	char buf[320], why[256];
	int differ = 0, checked = 0;

	for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
		setup(shapes[i][0], shapes[i][1], shapes[i][2], shapes[i][3]);
		lab_act(&lab, LAB_VIEW_3D);
		for (int turn = 0; turn < SCENE3D_TURNS; turn++) {
			lab.turn3d = turn;
			for (lab.step = 0; lab.step < lab.walk.nsteps; lab.step++) {
				lab_layout(&lab, 200, 60);
				lab_3d_caption(&lab, buf, sizeof buf);
				differ += strcmp(buf, lab.v3->block.caption) != 0;
				checked++;
			}
		}
	}
	tap_ok(differ == 0 && checked == 54,
	       "in English the lab's 3D line is scene3d's caption (%d of %d steps, turns, shapes)",
	       checked - differ, checked);
	tap_ok(strstr(lab.v3->block.caption, "; shown:") != NULL, "the last one elides: %s",
	       lab.v3->block.caption);
	setup(1, 3, 4, 2);
	lab_act(&lab, LAB_VIEW_3D);
	lab.step = 2;
	lab_layout(&lab, 80, 24);
	text_load("zh", NULL, why, sizeof why);
	lab_3d_caption(&lab, buf, sizeof buf);
	tap_ok(strcmp(buf, "H 向下，T 向里，d 横向；B=1 不画") == 0,
	       "in Chinese the swap's block says where H, T and d go: %s", buf);
	setup(2, 64, 32, 4);
	lab_act(&lab, LAB_VIEW_3D);
	lab_layout(&lab, 200, 60);
	lab_3d_caption(&lab, buf, sizeof buf);
	tap_ok(strcmp(buf, "B 并排，T 向下，D 横向；显示：T 6/64，D 9/32") == 0,
	       "and which indices of elided axes are shown: %s", buf);
	text_load("en", NULL, why, sizeof why);
}

/* The parts' rows, slot by slot, as a user meets them: the bug lab and the
 * score tables hold still; the tables close on a walk without heads; the
 * quiz takes a paste and a click as its own, and its grid scrolls. */
static void
test_parts(void)
{
	struct walk w;
	int step, k = -1;

	setup(1, 3, 4, 2);
	lab_act(&lab, LAB_STEP_NEXT);
	step = lab.step;
	lab_act(&lab, LAB_VIEW_SCORES);
	lab_act(&lab, LAB_STEP_NEXT);
	tap_ok(lab.mode == LAB_MODE_SCORES && lab.step == step, "the score tables hold still: Right steps nothing");
	lab_act(&lab, LAB_VIEW_BUGS);
	lab_act(&lab, LAB_STEP_NEXT);
	tap_ok(lab.mode == LAB_MODE_BUGS && lab.step == step, "so does the bug lab");
	lab_act(&lab, LAB_VIEW_COMPARE);
	lab_act(&lab, LAB_STEP_NEXT);
	tap_ok(lab.mode == LAB_MODE_COMPARE && lab.step == step + 1, "the before/after view steps");

	lab_act(&lab, LAB_VIEW_SCORES);
	w = lab.walk;
	w.kind = WALK_CUSTOM;
	lab_set_walk(&lab, &w, 0);
	tap_eq(lab.mode, LAB_MODE_STEP, "the score tables close on a walk without the lesson's heads");

	setup(1, 3, 4, 2);
	lab_quiz_start(&lab, 1, QUIZ_KINDS);
	lab_layout(&lab, 80, 24);
	lab_paste(&lab, "12", 2, 2);
	tap_ok(lab.mode == LAB_MODE_QUIZ && lab.prompt.kind == LAB_PROMPT_NONE &&
	       strstr(lab.warning, "answered on the grid") != NULL,
	       "a paste on a question answered on the grid opens no prompt and says so: %s", lab.warning);
	step = lab.step;
	for (int x = 0; x < 80 && k < 0; x++)
		if (lab_hit_step_bar(&lab, 80, x) >= 0 && lab_hit_step_bar(&lab, 80, x) != step)
			k = x;
	lab_click(&lab, 2, k);        /* the step bar's names (lab_hit.c) */
	tap_ok(k >= 0 && lab.step == step && lab.mode == LAB_MODE_QUIZ,
	       "a click on the step bar does not step away from the question");

	setup(2, 8, 8, 2);
	lab_quiz_start(&lab, 1, QUIZ_KINDS);
	lab_layout(&lab, 80, 16);
	tap_ok(lab.scene.height > lab.frame.grid.h && lab_scroll(&lab, 1, 0),
	       "a question's grid taller than its room scrolls (%d lines in %d)", lab.scene.height,
	       lab.frame.grid.h);
	lab_quiz_leave(&lab);
}

int
main(void)
{
	char why[256] = "";

	setlocale(LC_ALL, "C.UTF-8");
	text_load("en", NULL, why, sizeof why);
	test_stale_highlight();
	test_actions();
	test_keys();
	test_layout();
	test_fill_screen();
	test_themes();
	test_numbers_room();
	test_wrap();
	test_attention();
	test_attention_fused();
	test_attention_zoom();
	test_3d_steps();
	test_3d_keys();
	test_3d_nofit();
	test_3d_extent_kept();
	test_3d_glide();
	test_3d_caption();
	test_3d_export();
	test_parts();
	lab_free(&lab);
	text_free();
	return tap_done();
}
