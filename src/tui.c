/* tui.c - the lab on a terminal: colours, glyphs, layout of the screen,
 * keys, mouse, animation, resize and signals.  The only file that includes
 * curses. */
#include "tui.h"

#include <curses.h>
#include <errno.h>
#include <langinfo.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include "bigfont.h"
#include "export.h"
#include "numbers.h"
#include "print.h"
#include "text.h"
#include "theme.h"
#include "tui_script.h"

/* Interface strings are printf formats from the caption files, vetted by
 * text_fmt(); the compiler cannot see that, hence the pragma. */
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

#define TUI_NHEAD THEME_NHEAD
#define TUI_LINEAGE_W 38

enum {
	TUI_PAIR_HEAD = 1,      /* pairs 1..TUI_NHEAD: head colours */
	TUI_PAIR_ACCENT = TUI_PAIR_HEAD + TUI_NHEAD,
	TUI_PAIR_DIM,
	TUI_PAIR_WRONG,
	TUI_PAIR_TEXT,          /* a theme's own screen colours (theme.c) */
};

const char tui_theme_names[] = "default, projector, colorblind, mono";

struct tui_glyphs {
	const char *step_sep;   /* between steps in the step bar */
	const char *marker;     /* the current step in the lineage panel */
	const char *arrows;     /* "left/right" in the hint line */
	const char *updown;
	const char *block;      /* one pixel of a big digit */
	const char *wrong;      /* beside a cell in the wrong place */
	const char *play;
	const char *lit;        /* beside a cell an index expression picked */
};

static const struct tui_glyphs tui_utf8_glyphs = {
	" \u203a ", "\u25b6", "\u2190\u2192", "\u2191\u2193", "\u2588", "\u2716", "\u25b6",
	"\u25c6",
};
static const struct tui_glyphs tui_ascii_glyphs = {
	" > ", ">", "<-/->", "up/down", "#", "!", ">", "*",
};

static int tui_draw_quiz(struct tui *t, int y);
static int tui_draw_code_shape(struct tui *t, int y);
static void tui_auto_zoom(struct tui *t);
static void tui_quiz_key(struct tui *t, int ch);
static void tui_swallow_mouse_report(void);
static void tui_build_scene(struct tui *t, struct scene *sc, const struct walk *w, int k,
                            int width);

static volatile sig_atomic_t tui_signal;
static bool tui_active;

/* A string for the interface: from the caption file, else English. */
static const char *
tui_text(const char *key, const char *english)
{
	return text_get(key, english);
}

/* A printf format from the caption file, checked against the English one;
 * the checked string is what makes the non-literal format safe. */
static const char *
tui_fmt(const char *key, const char *english)
{
	return text_fmt(key, english);
}

/* What a step did to the data, in the interface's language. */
static const char *
tui_effect(const struct walk *w, int k)
{
	return tui_text(print_step_effect_key(w, k), print_step_effect(w, k));
}

static const struct tui_glyphs *
tui_glyphs(const struct tui *t)
{
	return t->utf8 ? &tui_utf8_glyphs : &tui_ascii_glyphs;
}

const char *
tui_curses_version(void)
{
	return curses_version();
}

bool
tui_theme_known(const char *name)
{
	return theme_find(name) != NULL;
}

/* Bytes of s that fit in cols columns, never splitting a character. */
static size_t
tui_fit(const char *s, int cols, int *used)
{
	mbstate_t st;
	size_t len = strlen(s), off = 0;
	int w = 0;

	memset(&st, 0, sizeof st);
	while (off < len) {
		wchar_t wc;
		size_t r;
		int cw;

		if (s[off] >= 0x20 && s[off] < 0x7f) {
			/* printable ASCII: one column, no decoding (every cell's
			 * label comes through here on every frame) */
			if (w + 1 > cols)
				break;
			w++;
			off++;
			continue;
		}
		r = mbrtowc(&wc, s + off, len - off, &st);
		if (r == (size_t)-1 || r == (size_t)-2) {
			memset(&st, 0, sizeof st);
			r = 1;
			cw = 1;
		} else {
			if (r == 0)
				break;
			cw = wcwidth(wc);
			if (cw < 0)
				cw = 1;
		}
		if (w + cw > cols)
			break;
		w += cw;
		off += r;
	}
	if (used)
		*used = w;
	return off;
}

/* Write s at (y, x), clipped to cols columns and to the screen; returns the
 * columns written. */
static int
tui_put(int y, int x, int cols, attr_t attr, short pair, const char *s)
{
	int used;
	size_t n;

	if (y < 0 || y >= LINES || x < 0 || x >= COLS || cols <= 0)
		return 0;
	if (cols > COLS - x)
		cols = COLS - x;
	n = tui_fit(s, cols, &used);
	attr_set(attr, pair, NULL);
	mvaddnstr(y, x, s, (int)n);
	attr_set(A_NORMAL, 0, NULL);
	return used;
}

static void
tui_fill(int y, int x, int w, int h, attr_t attr, short pair)
{
	for (int j = 0; j < h; j++)
		for (int i = 0; i < w; i++)
			if (y + j >= 0 && y + j < LINES && x + i >= 0 && x + i < COLS)
				mvaddch(y + j, x + i, ' ' | attr | (chtype)COLOR_PAIR(pair));
}

static void
tui_colors(struct tui *t)
{
	const struct theme *th = t->theme;
	const struct theme_colors *c;

	bkgd(' ');
	if (!th->color)
		t->color = false;
	if (!t->color || !has_colors() || start_color() == ERR) {
		t->color = false;
		return;
	}
	use_default_colors();
	c = theme_colors(th, COLORS);
	for (int i = 0; i < TUI_NHEAD; i++)
		init_pair((short)(TUI_PAIR_HEAD + i), c->cell_fg[i], c->cell_bg[i]);
	init_pair(TUI_PAIR_ACCENT, theme_fg(c, c->accent), c->screen_bg);
	init_pair(TUI_PAIR_DIM, theme_fg(c, c->dim), c->screen_bg);
	init_pair(TUI_PAIR_WRONG, theme_fg(c, c->wrong), c->screen_bg);
	init_pair(TUI_PAIR_TEXT, c->screen_fg, c->screen_bg);
	if (c->screen_bg != THEME_DEFAULT)
		bkgd(' ' | COLOR_PAIR(TUI_PAIR_TEXT)); /* a theme with a screen of its own */
}

static short
tui_head_pair(const struct tui *t, int64_t head)
{
	return (short)(t->color && head >= 0 ? TUI_PAIR_HEAD + head % TUI_NHEAD : 0);
}

static short
tui_accent(const struct tui *t)
{
	return t->color ? TUI_PAIR_ACCENT : 0;
}

/* The walk the lab is stepping through: the main one, or the one with a
 * .contiguous() applied by c. */
static const struct walk *
tui_walk(const struct tui *t)
{
	return t->lab.walk;
}

void
tui_init(struct tui *t, const struct walk *w, bool color, bool utf8, const char *theme)
{
	memset(t, 0, sizeof *t);
	t->walk = *w;
	t->applied_from = -1;
	t->color = color;
	t->utf8 = utf8;
	t->zoom = 1;
	t->zoom_auto = true;
	t->zoom_dirty = true;
	t->anim_on = true;
	t->theme = theme_find(theme) ? theme_find(theme) : &theme_table[0];
	lab_init(&t->lab, &t->walk);
	tui_colors(t);
}

void
tui_free(struct tui *t)
{
	scene_free(&t->scene);
	scene_free(&t->other);
	scene_free(&t->ribbon);
	scene_free(&t->anim_from);
	anim_free(&t->anim);
}

/* ---- the parts of the screen ---------------------------------------- */

/* The title line: what x is, how it is split, and which step this is. */
static void
tui_draw_title(struct tui *t)
{
	const struct walk *w = tui_walk(t);
	const struct layout *x = &w->steps[0].view;
	char buf[512], right[64], dims[160];

	walk_format_list(dims, sizeof dims, x->shape, x->rank);
	if (w->kind == WALK_CUSTOM)
		snprintf(buf, sizeof buf, " headlab  x[%s]  %s", dims, w->summary);
	else
		snprintf(buf, sizeof buf, " headlab  x[%s] %s %lld head%s of d=%lld%s%s", dims,
		         t->utf8 ? "\u2192" : "->", (long long)w->heads, w->heads == 1 ? "" : "s",
		         (long long)w->head_width, w->kind != WALK_LESSON ? "  BUG: " : "",
		         w->kind != WALK_LESSON ? w->kind_name : "");
	snprintf(right, sizeof right, "%s%sstep %d/%d ", t->play_secs > 0 ? tui_glyphs(t)->play : "",
	         t->play_secs > 0 ? " " : "", t->lab.step + 1, w->nsteps);
	tui_put(0, 0, COLS - (int)strlen(right) - 1, A_BOLD, 0, buf);
	tui_put(0, COLS - scene_text_width(right), scene_text_width(right), A_BOLD, 0, right);
}

/* The step bar: group names over their steps, the current one reversed. */
static void
tui_draw_steps(struct tui *t, int y)
{
	const struct walk *w = tui_walk(t);
	const struct tui_glyphs *g = tui_glyphs(t);
	int x = 1, total = 1, sepw = scene_text_width(g->step_sep);
	const char *group = NULL;

	for (int k = 0; k < w->nsteps; k++)
		total += (k ? sepw : 0) + scene_text_width(w->steps[k].title) + 2;
	if (total > COLS) {
		/* too narrow for names: numbers, and the current step's name */
		char buf[128];
		const struct walk_step *s = &w->steps[t->lab.step];

		for (int k = 0; k < w->nsteps; k++) {
			snprintf(buf, sizeof buf, "%d", k + 1);
			x += tui_put(y + 1, x, 3, k == t->lab.step ? A_REVERSE | A_BOLD : A_NORMAL,
			             0, buf) + 1;
		}
		snprintf(buf, sizeof buf, "%s %s", s->group ? s->group : "input", s->title);
		tui_put(y, 1, COLS - 2, A_BOLD, 0, buf);
		return;
	}
	for (int k = 0; k < w->nsteps; k++) {
		const struct walk_step *s = &w->steps[k];
		char buf[64];

		if (k)
			x += tui_put(y + 1, x, COLS - x, A_NORMAL, 0, g->step_sep);
		if (s->group && (group == NULL || strcmp(group, s->group) != 0)) {
			group = s->group;
			tui_put(y, x + 1, COLS - x - 1, A_BOLD, tui_accent(t), group);
		}
		snprintf(buf, sizeof buf, " %s ", s->title);
		x += tui_put(y + 1, x, COLS - x, k == t->lab.step ? A_REVERSE | A_BOLD : A_NORMAL,
		             0, buf);
	}
}

/* Word-wrap s into at most maxlines lines of cols columns at (y, x); a
 * word longer than a line (or text without spaces, such as Chinese) is
 * broken between characters, never inside one.  Returns lines used. */
static int
tui_wrap(int y, int x, int cols, int maxlines, attr_t attr, short pair, const char *s)
{
	int lines = 0;

	while (*s && lines < maxlines && cols > 0) {
		mbstate_t st;
		size_t off = 0, len = strlen(s), cut = 0;
		int w = 0, prev_w = 0;
		char line[1024];

		/* the last break that fits: after a space, or on either side
		 * of a wide (CJK) character, which wraps anywhere */
		memset(&st, 0, sizeof st);
		while (off < len) {
			wchar_t wc;
			size_t r = mbrtowc(&wc, s + off, len - off, &st);
			int cw;

			if (r == (size_t)-1 || r == (size_t)-2) {
				memset(&st, 0, sizeof st);
				r = 1;
				cw = 1;
				wc = L'?';
			} else {
				cw = wcwidth(wc);
				if (cw < 0)
					cw = 1;
			}
			/* never start a line with closing punctuation */
			if (off > 0 && (cw == 2 || prev_w == 2) && !wcschr(L"\uff0c\u3002\u3001\uff1a\uff1b\uff01\uff1f\uff09\u300d\u300f\u201d", wc))
				cut = off;
			if (w + cw > cols)
				break;
			w += cw;
			off += r;
			if (wc == L' ')
				cut = off;
			prev_w = cw;
		}
		if (off >= len)
			cut = len;
		if (cut == 0)
			cut = off > 0 ? off : 1;
		if (cut >= sizeof line)
			cut = sizeof line - 1;
		memcpy(line, s, cut);
		line[cut] = '\0';
		tui_put(y + lines, x, cols, attr, pair, line);
		lines++;
		s += cut;
		while (*s == ' ')
			s++;
	}
	return lines;
}

/* The caption of the current step in the current language. */
static void
tui_caption(const struct tui *t, char *buf, size_t size)
{
	const struct walk *w = tui_walk(t);
	const struct walk_step *s = &w->steps[t->lab.step];
	char key[96];

	if (t->applied_from >= 0 && t->lab.step == w->nsteps - 1) {
		text_format(buf, size, s->copied ? "caption.applied.copy" : "caption.applied.noop",
		            s->copied ? "contiguous() had to copy: this layout was not row-major, so "
		                        "the cells were written out in a new storage, in this order."
		                      : "contiguous() changed nothing: this layout is already "
		                        "row-major, so PyTorch returns the same tensor.", w);
		return;
	}
	snprintf(key, sizeof key, "caption.%s.%s", w->kind_name, s->name);
	text_format(buf, size, key, "", w);
}

/* Caption, code, shape and strides of the current step. */
static int
tui_draw_caption(struct tui *t, int y)
{
	char caption[1024];

	tui_caption(t, caption, sizeof caption);
	/* short screens give the caption's room to the grid */
	if (caption[0])
		y += tui_wrap(y, 1, COLS - 2, LINES >= 20 ? 2 : LINES >= 16 ? 1 : 0, A_NORMAL, 0, caption);
	return tui_draw_code_shape(t, y);
}

/* The step's code, then its shape and strides (presenter mode shows
 * these without the caption, which it draws big at the bottom). */
static int
tui_draw_code_shape(struct tui *t, int y)
{
	const struct walk *w = tui_walk(t);
	const struct walk_step *s = &w->steps[t->lab.step];
	char shape[200], strides[200], line[512];
	int x;

	x = 1 + tui_put(y, 1, COLS - 2, A_BOLD, tui_accent(t), s->code);
	tui_put(y, x + 3, COLS - x - 4, s->copied ? A_BOLD : A_NORMAL, 0,
	        tui_effect(w, t->lab.step));
	y++;
	scene_format_shape(s, shape, sizeof shape);
	print_format_strides(strides, sizeof strides, s);
	snprintf(line, sizeof line, "%s  strides %s  %s", shape, strides,
	         layout_is_contiguous(&s->view) ? tui_text("ui.contiguous", "contiguous")
	                                        : tui_text("ui.noncontiguous", "not contiguous"));
	tui_put(y, 1, COLS - 2, A_NORMAL, 0, line);
	return y + 1;
}

static attr_t
tui_cell_attr(const struct tui *t, const struct scene_item *it)
{
	attr_t a = t->theme->cell_attr & THEME_BOLD ? A_BOLD : A_NORMAL;

	if (it->mark & SCENE_MARK_SELECTED)
		return a | A_REVERSE | A_BOLD;
	if (it->mark & SCENE_MARK_LIT)
		return a | A_BOLD | A_UNDERLINE | A_STANDOUT;
	if (it->mark & SCENE_MARK_HEADMATE)
		return a | A_BOLD | A_UNDERLINE;
	if (it->mark & SCENE_MARK_POSMATE)
		return a | A_UNDERLINE;
	return a;
}

/* Draw cell it with its box's top-left at (y, x) on screen, clipped to the
 * grid viewport; zoomed cells fill their box and centre the label, the
 * largest zoom in big digits. */
static void
tui_draw_cell(const struct tui *t, const struct scene_item *it, int y, int x)
{
	attr_t attr = tui_cell_attr(t, it);
	short pair = tui_head_pair(t, it->head);
	int top = t->grid_y, bottom = t->grid_y + t->grid_h;
	int left = t->grid_x, right = t->grid_x + t->grid_w;
	char label[32], tag[16];
	const char *p = it->text;

	if (y < top || y + it->height > bottom || x < left || x + it->width > right)
		return;
	if (it->mark & SCENE_MARK_WRONG)
		tui_put(y + (it->height - 1) / 2, x - 1, 1, A_BOLD, t->color ? TUI_PAIR_WRONG : 0,
		        tui_glyphs(t)->wrong);
	else if (it->mark & SCENE_MARK_LIT)
		tui_put(y + (it->height - 1) / 2, x - 1, 1, A_BOLD, t->color ? TUI_PAIR_ACCENT : 0,
		        tui_glyphs(t)->lit);
	if (it->height == 1 && it->width == scene_text_width(it->text)) {
		tui_put(y, x, it->width, attr, pair, it->text);
		return;
	}
	/* split "12ab" into its label and its head letters */
	while (*p == ' ')
		p++;
	snprintf(label, sizeof label, "%.*s", (int)strspn(p, "0123456789"), p);
	snprintf(tag, sizeof tag, "%s", p + strlen(label));
	if (t->color || (attr & A_REVERSE))
		tui_fill(y, x, it->width, it->height, attr & (A_REVERSE | A_BOLD), pair);
	if (t->zoom >= TUI_ZOOM_MAX && it->height >= BIGFONT_H) {
		int n = (int)strlen(label), bx = x + (it->width - (int)strlen(tag) - n * (BIGFONT_W + 1) + 1) / 2;

		for (int r = 0; r < BIGFONT_H; r++)
			for (int i = 0; i < n; i++) {
				const char *row = bigfont_row(label[i], r);

				for (int c = 0; c < BIGFONT_W; c++)
					tui_put(y + r, bx + i * (BIGFONT_W + 1) + c, 1, attr, pair,
					        row[c] == '#' ? tui_glyphs(t)->block : " ");
			}
		tui_put(y + it->height - 1, x + it->width - (int)strlen(tag), (int)strlen(tag), attr,
		        pair, tag);
		return;
	}
	{
		char text[48];
		int w;

		snprintf(text, sizeof text, "%s%s", label, tag);
		w = (int)strlen(text);
		tui_put(y + (it->height - 1) / 2, x + (it->width - w + 1) / 2, w, attr, pair, text);
	}
}

static void
tui_draw_item(const struct tui *t, const struct scene_item *it, int y, int x)
{
	attr_t attr = A_NORMAL;
	short pair = 0;

	if (y < t->grid_y || y >= t->grid_y + t->grid_h || x < t->grid_x ||
	    x + it->width > t->grid_x + t->grid_w)
		return;
	switch (it->style) {
	case SCENE_CELL:
		tui_draw_cell(t, it, y, x);
		return;
	case SCENE_AXIS:
		attr = A_BOLD;
		break;
	case SCENE_TITLE:
		attr = A_BOLD;
		pair = it->group >= 0 && t->color ? TUI_PAIR_ACCENT : 0;
		break;
	case SCENE_RULE:
		attr = t->theme->rule_attr & THEME_BOLD ? A_BOLD : A_NORMAL;
		pair = t->color ? TUI_PAIR_DIM : 0;
		break;
	case SCENE_ELLIPSIS:
		pair = t->color ? TUI_PAIR_DIM : 0;
		break;
	case SCENE_SCORE:
		attr = A_BOLD;
		pair = tui_head_pair(t, it->head);
		break;
	case SCENE_MASKED:
		pair = t->color ? TUI_PAIR_DIM : 0;
		break;
	case SCENE_PLAIN:
		break;
	}
	tui_put(y, x, it->width, attr, pair, it->text);
}

/* Draw a scene with its origin at screen (y0, x0), cells included unless
 * an animation draws them. */
static void
tui_draw_scene(const struct tui *t, const struct scene *sc, int y0, int x0, bool cells)
{
	for (size_t i = 0; i < sc->n; i++) {
		const struct scene_item *it = &sc->items[i];

		if (it->style == SCENE_CELL && !cells)
			continue;
		tui_draw_item(t, it, y0 + it->y, x0 + it->x);
	}
}

/* Scroll the viewport just enough to show the selected cell. */
static void
tui_follow(struct tui *t)
{
	const struct scene_item *it = scene_find_label(&t->scene, t->lab.selected);
	int top, left;

	if (t->scroll_y > t->scene.height - t->grid_h)
		t->scroll_y = t->scene.height - t->grid_h;
	if (t->scroll_x > t->scene.width - t->grid_w)
		t->scroll_x = t->scene.width - t->grid_w;
	if (t->scroll_y < 0)
		t->scroll_y = 0;
	if (t->scroll_x < 0)
		t->scroll_x = 0;
	if (it == NULL)
		return;
	/* keep the cell in view, and its panel's headers too when they fit */
	top = it->panel_y;
	if (it->y + it->height - top > t->grid_h)
		top = it->y + it->height - t->grid_h;
	if (t->scroll_y > top)
		t->scroll_y = top;
	if (it->y + it->height > t->scroll_y + t->grid_h)
		t->scroll_y = it->y + it->height - t->grid_h;
	left = it->panel_x;
	if (it->x + it->width + 1 - left > t->grid_w)
		left = it->x + it->width + 1 - t->grid_w;
	if (t->scroll_x > left)
		t->scroll_x = left;
	if (it->x + it->width + 1 > t->scroll_x + t->grid_w)
		t->scroll_x = it->x + it->width + 1 - t->grid_w;
}

static void
tui_index_text(char *buf, size_t size, const int64_t *index, int rank)
{
	size_t used = (size_t)snprintf(buf, size, "[");

	for (int i = 0; i < rank && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%lld", i ? "," : "",
		                         (long long)index[i]);
	if (used < size)
		snprintf(buf + used, size - used, "]");
}

static void
tui_label_words(const struct tui *t, char *buf, size_t size)
{
	const struct walk *w = tui_walk(t);
	int64_t b, pos, head;

	walk_label_origin(w, t->lab.selected, &b, &pos, &head);
	snprintf(buf, size, tui_fmt("ui.label", "label %lld: position %lld, head %lld"),
	         (long long)t->lab.selected, (long long)pos, (long long)head);
	if (w->batch > 1)
		snprintf(buf + strlen(buf), size - strlen(buf), tui_fmt("ui.batch", ", batch %lld"),
		         (long long)b);
}

/* The selected cell's index at every step, the current one marked. */
static void
tui_draw_lineage(struct tui *t, int y, int x, int w)
{
	const struct walk *wk = tui_walk(t);
	int64_t head, index[LAYOUT_MAX_RANK], off;
	char buf[256], idx[128];

	walk_label_origin(wk, t->lab.selected, NULL, NULL, &head);
	tui_label_words(t, buf, sizeof buf);
	tui_put(y, x, w, A_BOLD, tui_head_pair(t, head), buf);
	y++;
	for (int k = 0; k < wk->nsteps; k++, y++) {
		bool cur = k == t->lab.step;

		walk_find(wk, k, t->lab.selected, index, &off);
		tui_index_text(idx, sizeof idx, index, wk->steps[k].view.rank);
		snprintf(buf, sizeof buf, "%s %-10s %-14s @%lld", cur ? tui_glyphs(t)->marker : " ",
		         wk->steps[k].title, idx, (long long)off);
		tui_put(y, x, w, cur ? A_BOLD : A_NORMAL, 0, buf);
	}
	walk_find(wk, t->lab.step, t->lab.selected, index, &off);
	tui_index_text(idx, sizeof idx, index, wk->steps[t->lab.step].view.rank);
	snprintf(buf, sizeof buf, tui_fmt("ui.here", "here at %s, storage offset %lld"), idx,
	         (long long)off);
	tui_put(y + 1, x, w, A_NORMAL, 0, buf);
}

/* The lineage in two lines, for screens where the grid needs the room. */
static void
tui_draw_lineage_compact(struct tui *t, int y, int x, int w)
{
	const struct walk *wk = tui_walk(t);
	int64_t head, index[LAYOUT_MAX_RANK], off;
	char buf[256], idx[128];
	int cx = x;

	walk_label_origin(wk, t->lab.selected, NULL, NULL, &head);
	walk_find(wk, t->lab.step, t->lab.selected, index, &off);
	tui_index_text(idx, sizeof idx, index, wk->steps[t->lab.step].view.rank);
	tui_label_words(t, buf, sizeof buf);
	cx += tui_put(y, cx, w, A_BOLD, tui_head_pair(t, head), buf);
	snprintf(buf, sizeof buf, tui_fmt("ui.here", "here at %s, storage offset %lld"), idx,
	         (long long)off);
	cx += 2;
	tui_put(y, cx, w - (cx - x), A_NORMAL, 0, buf);
	cx = x;
	for (int k = 0; k < wk->nsteps && cx < x + w; k++) {
		walk_find(wk, k, t->lab.selected, index, &off);
		tui_index_text(idx, sizeof idx, index, wk->steps[k].view.rank);
		if (k)
			cx += tui_put(y + 1, cx, w - (cx - x), A_NORMAL, 0, tui_glyphs(t)->step_sep);
		cx += tui_put(y + 1, cx, w - (cx - x), k == t->lab.step ? A_REVERSE | A_BOLD : A_NORMAL,
		              0, idx);
	}
}

/* Whether label is one of the cells the index expression picked, in the
 * step it was typed on; cheap enough to ask for every cell drawn. */
static bool
tui_lit(const void *ctx, int64_t label)
{
	const struct tui *t = ctx;
	int64_t index[LAYOUT_MAX_RANK];

	if (t->quizzing) {
		for (int i = 0; i < t->nchosen; i++)
			if (t->chosen[i] == label)
				return true;
		return false;
	}
	return walk_find(t->lit_walk, t->lit_step, label, index, NULL) &&
	       index_selects(&t->lit, index);
}

static void
tui_scene_opts(const struct tui *t, struct scene_opts *so, int width)
{
	scene_opts_default(so);
	so->utf8 = t->utf8;
	so->width = width;
	so->selected = t->lab.selected;
	if (t->lit_on || t->quizzing) {
		so->lit = tui_lit;
		so->lit_ctx = t;
	}
	if (t->quizzing && !t->revealed && !t->quiz_done) {
		const struct quiz_question *qq = &t->quiz.questions[t->qi];

		so->hide_labels = qq->kind == QUIZ_WHERE || qq->kind == QUIZ_WHICH ||
		                  qq->kind == QUIZ_ONE_HEAD;
	}
	switch (t->zoom) {
	case 2:
		so->cell_pad = 2;
		break;
	case 3:
		so->cell_pad = 4;
		so->cell_h = 3;
		break;
	case 4: {
		int numw = 1;

		for (int64_t v = walk_numel(tui_walk(t)) - 1; v >= 10; v /= 10)
			numw++;
		if (numw < 2)
			numw = 2;
		so->cell_pad = numw * BIGFONT_W + 2;
		so->cell_h = BIGFONT_H;
		break;
	}
	default:
		break;
	}
}

static void
tui_build_scene(struct tui *t, struct scene *sc, const struct walk *w, int k, int width)
{
	struct scene_opts so;

	tui_scene_opts(t, &so, width);
	so.has_focus = walk_find(w, k, t->lab.selected, so.focus, NULL);
	scene_build(sc, w, k, &so);
}

/* The storage ribbon under the grid: the slots the step reads, in order. */
static int
tui_draw_ribbon(struct tui *t, int y, int x, int w)
{
	const struct walk *wk = tui_walk(t);
	const struct walk_step *s = &wk->steps[t->lab.step];
	struct scene_opts so;
	char buf[256], strides[200];
	int saved_y = t->grid_y, saved_x = t->grid_x, saved_h = t->grid_h, saved_w = t->grid_w;

	tui_scene_opts(t, &so, w);
	so.cell_pad = 0;
	so.cell_h = 1;
	so.ribbon_title = tui_text("ui.storage", "storage");
	so.ribbon_slot = tui_text("ui.slot", "slot");
	scene_build_ribbon(&t->ribbon, wk, t->lab.step, &so);
	print_format_strides(strides, sizeof strides, s);
	snprintf(buf, sizeof buf, tui_fmt("ui.ribbon", "storage %d%s  strides %s  offset %lld  %s"),
	         s->storage, s->storage ? tui_text("ui.acopy", " (a copy)") : tui_text("ui.xs", " (x's own)"),
	         strides, (long long)s->view.offset, tui_effect(wk, t->lab.step));
	tui_put(y, x, w, s->copied ? A_BOLD : A_NORMAL, 0, buf);
	t->grid_y = y + 1;
	t->grid_x = x;
	t->grid_h = 2;
	t->grid_w = w;
	if (t->animating && s->copied && t->anim_from_walk &&
	    t->anim_from_step < t->anim_from_walk->nsteps) {
		/* a real copy reorders the storage: each label slides from its
		 * slot in the storage of the step before to its slot in the copy */
		struct scene before = { 0 };
		struct anim moves = { 0 };

		scene_build_ribbon(&before, t->anim_from_walk, t->anim_from_step, &so);
		tui_draw_scene(t, &t->ribbon, y + 1, x, false);
		if (anim_plan(&moves, &before, y + 1, x, &t->ribbon, y + 1, x))
			for (size_t i = 0; i < moves.n; i++) {
				int my, mx;

				if (moves.moves[i].appears && t->anim_frame < TUI_ANIM_FRAMES)
					continue;
				anim_at(&moves.moves[i], t->anim_frame, TUI_ANIM_FRAMES, &my, &mx);
				tui_draw_cell(t, moves.moves[i].to, my, mx);
			}
		anim_free(&moves);
		scene_free(&before);
	} else {
		tui_draw_scene(t, &t->ribbon, y + 1, x, true);
	}
	t->grid_y = saved_y;
	t->grid_x = saved_x;
	t->grid_h = saved_h;
	t->grid_w = saved_w;
	return 3;
}

/* Cells travelling between the old step's places and the new ones. */
static void
tui_draw_frames(struct tui *t)
{
	const struct anim_move *selected = NULL;
	int y, x;

	for (size_t i = 0; i < t->anim.n; i++) {
		const struct anim_move *m = &t->anim.moves[i];

		if (m->appears && t->anim_frame < TUI_ANIM_FRAMES)
			continue;
		if (m->to->mark & SCENE_MARK_SELECTED) {
			selected = m;
			continue;
		}
		anim_at(m, t->anim_frame, TUI_ANIM_FRAMES, &y, &x);
		tui_draw_cell(t, m->to, y, x);
	}
	if (selected) {
		/* drawn last: on top of every other cell */
		anim_at(selected, t->anim_frame, TUI_ANIM_FRAMES, &y, &x);
		tui_draw_cell(t, selected->to, y, x);
	}
}

static double
tui_clock(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Start moving cells from the old scene to the one just built. */
static void
tui_start_anim(struct tui *t)
{
	t->anim_pending = false;
	if (!anim_plan(&t->anim, &t->anim_from, t->anim_from_y, t->anim_from_x, &t->scene,
	               t->grid_y - t->scroll_y, t->grid_x - t->scroll_x)) {
		t->animating = false;
		return;
	}
	t->animating = true;
	t->anim_frame = 0;
	t->anim_start = tui_clock();
}

static void
tui_draw_step_view(struct tui *t, int top, int bottom)
{
	int height = bottom - top, lineage_h = tui_walk(t)->nsteps + 3;
	int side_w = COLS - TUI_LINEAGE_W - 4, ribbon_h = 4, used;
	bool lineage_side = false, lineage_below = false, compact = false, ribbon = false;

	t->grid_y = top;
	t->grid_x = 1;
	/* the lineage beside the grid when both fit, under it when the grid
	 * is wide, in two lines when the grid needs the room; the ribbon
	 * under the grid when there is room left */
	tui_build_scene(t, &t->scene, tui_walk(t), t->lab.step, side_w > 20 ? side_w : COLS - 2);
	if (side_w > 20 && t->scene.width <= side_w && t->scene.height <= height) {
		t->grid_w = side_w;
		lineage_side = true;
		t->grid_h = height;
		used = t->scene.height > lineage_h ? t->scene.height : lineage_h;
		if (used + ribbon_h <= height) {
			t->grid_h = t->scene.height;
			ribbon = true;
		}
	} else {
		tui_build_scene(t, &t->scene, tui_walk(t), t->lab.step, COLS - 2);
		t->grid_w = COLS - 2;
		if (t->scene.height + 1 + lineage_h <= height) {
			t->grid_h = t->scene.height;
			lineage_below = true;
			ribbon = t->scene.height + 1 + lineage_h + ribbon_h <= height;
		} else if (height - lineage_h - 1 >= 12) {
			t->grid_h = height - lineage_h - 1;
			lineage_below = true;
		} else if (height - 3 >= 3) {
			t->grid_h = height - 3;
			compact = true;
		} else {
			t->grid_h = height;
		}
	}
	tui_follow(t);
	if (t->anim_pending) {
		tui_start_anim(t);
	} else if (t->animating) {
		/* the scene was just rebuilt (every frame; after a resize or a
		 * zoom with other cells): point the moves at its cells, never
		 * at the ones it replaced */
		if (!anim_plan(&t->anim, &t->anim_from, t->anim_from_y, t->anim_from_x, &t->scene,
		               t->grid_y - t->scroll_y, t->grid_x - t->scroll_x))
			t->animating = false;
	}
	tui_draw_scene(t, &t->scene, t->grid_y - t->scroll_y, t->grid_x - t->scroll_x,
	               !t->animating);
	if (t->animating)
		tui_draw_frames(t);
	if (t->quizzing && !t->revealed) {
		/* the lineage and the ribbon would give the answer away */
		lineage_side = lineage_below = compact = ribbon = false;
	}
	if (lineage_side) {
		/* beside the grid, not at the far edge of a wide terminal */
		int lx = t->grid_x + t->scene.width + 6;

		if (lx > COLS - TUI_LINEAGE_W - 1)
			lx = COLS - TUI_LINEAGE_W - 1;
		tui_draw_lineage(t, top, lx, TUI_LINEAGE_W);
	}
	if (ribbon && lineage_side)
		tui_draw_ribbon(t, top + (t->grid_h > lineage_h ? t->grid_h : lineage_h), 1, COLS - 2);
	else if (ribbon)
		tui_draw_ribbon(t, top + t->grid_h + 1, 1, COLS - 2);
	if (lineage_below)
		tui_draw_lineage(t, top + t->grid_h + 1 + (ribbon ? ribbon_h : 0), 1, COLS - 2);
	if (compact)
		tui_draw_lineage_compact(t, top + t->grid_h + 1, 1, COLS - 2);
}

/* Two scenes side by side (or one above the other when narrow), each
 * under a heading. */
static void
tui_draw_pair(struct tui *t, int top, int bottom, const char *left_title, const char *right_title)
{
	int half = (COLS - 5) / 2, y2 = top, x2 = 1;
	bool across = t->scene.width <= half && t->other.width <= half;

	if (across)
		x2 = 1 + (t->other.width > half ? half : t->other.width) + 4;
	else
		y2 = top + 1 + t->other.height + 1;
	if (across && x2 < half + 3)
		x2 = half + 3;
	tui_put(top, 1, across ? x2 - 2 : COLS - 2, A_BOLD, tui_accent(t), left_title);
	tui_put(y2, x2, COLS - x2 - 1, A_BOLD, tui_accent(t), right_title);
	t->grid_y = top + 1;
	t->grid_x = 1;
	t->grid_w = COLS - 2;
	t->grid_h = bottom - top - 1;
	t->scroll_y = t->scroll_x = 0;
	tui_draw_scene(t, &t->other, top + 1, 1, true);
	tui_draw_scene(t, &t->scene, y2 + 1, x2, true);
	/* the right (or lower) scene is the one the mouse and keys act on */
	t->grid_y = y2 + 1;
	t->grid_x = x2;
	t->grid_w = COLS - x2 - 1;
	t->grid_h = bottom - y2 - 1;
}

static void
tui_draw_compare(struct tui *t, int top, int bottom)
{
	const struct walk *w = tui_walk(t);
	int k = t->lab.step, prev = k > 0 ? k - 1 : 0;
	char left[200], right[200];

	tui_build_scene(t, &t->other, w, prev, (COLS - 5) / 2);
	tui_build_scene(t, &t->scene, w, k, (COLS - 5) / 2);
	snprintf(left, sizeof left, "%s %d: %s", tui_fmt("ui.before", "before, step"), prev + 1,
	         w->steps[prev].code);
	snprintf(right, sizeof right, "%s %d: %s", tui_fmt("ui.after", "after, step"), k + 1,
	         w->steps[k].code);
	tui_draw_pair(t, top, bottom, left, right);
}

static void
tui_draw_bugs(struct tui *t, int top, int bottom)
{
	bool merge = t->bug.kind == WALK_WRONG_MERGE;
	int kr = walk_bug_compare_step(&t->right, t->bug.kind), kb = t->bug.nsteps - 1;
	struct scene_opts so;
	char left[200], right[400], line[400], rs[120], bs[120];
	size_t wrong = 0;
	const struct layout *vr = &t->right.steps[kr].view, *vb = &t->bug.steps[kb].view;
	bool same = vr->rank == vb->rank &&
	            memcmp(vr->shape, vb->shape, sizeof(int64_t) * (size_t)vr->rank) == 0;

	tui_build_scene(t, &t->other, &t->right, kr, (COLS - 5) / 2);
	tui_scene_opts(t, &so, (COLS - 5) / 2);
	so.has_focus = walk_find(&t->bug, kb, t->lab.selected, so.focus, NULL);
	so.compare = &t->right;
	so.compare_step = kr;
	scene_build(&t->scene, &t->bug, kb, &so);
	for (size_t i = 0; i < t->scene.n; i++)
		if (t->scene.items[i].mark & SCENE_MARK_WRONG)
			wrong++;
	snprintf(left, sizeof left, "%s: %s", tui_fmt("ui.right", "right"),
	         merge ? "heads.transpose(1, 2).contiguous().reshape(...)" : "x.reshape(...).transpose(1, 2)");
	snprintf(right, sizeof right, "%s %s: %s", tui_fmt("ui.bug", "bug"), t->bug.kind_name,
	         t->bug.summary);
	walk_format_list(rs, sizeof rs, vr->shape, vr->rank);
	walk_format_list(bs, sizeof bs, vb->shape, vb->rank);
	if (same)
		snprintf(line, sizeof line, tui_fmt("ui.bugline",
		         "No error raised, shapes match ([%s]), yet %zu cells shown sit in the wrong "
		         "place (%s). b: next bug"), rs, wrong, tui_glyphs(t)->wrong);
	else
		snprintf(line, sizeof line, tui_fmt("ui.bugshape",
		         "No error raised, but the shapes differ: [%s] against [%s]. b: next bug"),
		         rs, bs);
	tui_wrap(top, 1, COLS - 2, 2, A_BOLD, 0, line);
	tui_draw_pair(t, top + 3, bottom, left, right);
}

static void
tui_draw_scores(struct tui *t, int top, int bottom)
{
	const struct walk *w = &t->walk;
	struct scene_opts so;
	struct numbers n;
	char buf[400], count[64];

	numbers_compute(&n, w->batch, w->positions, w->width, w->heads);
	numbers_group(count, sizeof count, n.scores);
	snprintf(buf, sizeof buf, tui_fmt("ui.scores",
	         "Scores [B,H,T,T] = [%lld, %lld, %lld, %lld]: each head keeps its own T\u00d7T table, "
	         "%s entries in all. Rows are query positions, columns the positions read: two axes "
	         "of equal length and different meaning. %s marks what the causal mask forbids."),
	         (long long)w->batch, (long long)w->heads, (long long)w->positions,
	         (long long)w->positions, count, t->utf8 ? "\u00d7" : "x");
	top += tui_wrap(top, 1, COLS - 2, 3, A_NORMAL, 0, buf) + 1;
	tui_scene_opts(t, &so, COLS - 2);
	scene_build_scores(&t->other, w, &so);
	t->grid_y = top;
	t->grid_x = 1;
	t->grid_w = COLS - 2;
	t->grid_h = bottom - top;
	t->scroll_y = t->scroll_x = 0;
	tui_draw_scene(t, &t->other, top, 1, true);
	t->grid_w = t->grid_h = 0; /* nothing to click on */
}

static void
tui_box(int h, int w, int *y0, int *x0)
{
	*y0 = (LINES - h) / 2;
	*x0 = (COLS - w) / 2;
	if (*y0 < 0)
		*y0 = 0;
	if (*x0 < 0)
		*x0 = 0;
	tui_fill(*y0, *x0, w, h, A_REVERSE, 0);
}

static void
tui_draw_lines_box(const char *const *lines, int n, int w)
{
	int y0, x0;

	tui_box(n + 2, w, &y0, &x0);
	for (int i = 0; i < n; i++)
		tui_put(y0 + 1 + i, x0 + 2, w - 4, A_REVERSE | (i == 0 ? A_BOLD : A_NORMAL), 0, lines[i]);
}

static void
tui_draw_help(struct tui *t)
{
	static const char *const keys[][2] = {
		{ "help.title", "headlab keys" },
		{ "help.blank", "" },
		{ "help.step", "Left Right PgUp PgDn   previous / next step" },
		{ "help.clicker", "Backspace Space p n    previous / next step (clickers)" },
		{ "help.ends", "Home End               first / last step" },
		{ "help.move", "h j k l, arrows        move the selected cell" },
		{ "help.jump", "0-9 then Enter         jump to a label (try 4)" },
		{ "help.tab", "Tab Shift+Tab          next / previous label" },
		{ "help.mouse", "mouse click            select the cell under it" },
		{ "help.anim", "a   . ,                animation on/paused; frame by frame" },
		{ "help.zoom", "+ - =                  zoom in, out, largest that fits" },
		{ "help.views", "v b s                  before/after, bug lab, score tables" },
		{ "help.numbers", "i  [ ]                 numbers panel; fewer / more heads" },
		{ "help.copy", "c  V                   apply .contiguous(); try .view()" },
		{ "help.prompts", "/ : g                  index expression; pattern, shape or heads; go to" },
		{ "help.more", "m e Q t                presets; export this step; quiz; colour theme" },
		{ "help.quit", "q Esc Ctrl-C           quit (any key closes this help)" },
	};
	const char *lines[sizeof keys / sizeof keys[0]];
	int n = (int)(sizeof keys / sizeof keys[0]), w = 4;

	for (int i = 0; i < n; i++) {
		lines[i] = tui_text(keys[i][0], keys[i][1]);
		if (scene_text_width(lines[i]) + 4 > w)
			w = scene_text_width(lines[i]) + 4;
	}
	(void)t;
	tui_draw_lines_box(lines, n, w);
}

static void
tui_draw_numbers(struct tui *t, int top)
{
	const struct walk *w = &t->walk;
	struct numbers n;
	char lines[8][200], p[64], s[64], b32[32], b16[32], divs[120];
	const char *ptr[8];
	int64_t div[32];
	int nd = numbers_divisors(w->width, div, 32), used = 0, wmax = 0, y0, x0;

	numbers_compute(&n, w->batch, w->positions, w->width, w->heads);
	numbers_group(p, sizeof p, n.params);
	numbers_group(s, sizeof s, n.scores);
	numbers_bytes(b32, sizeof b32, n.bytes_f32);
	numbers_bytes(b16, sizeof b16, n.bytes_bf16);
	divs[0] = '\0';
	for (int i = 0; i < nd && used < (int)sizeof divs - 12; i++)
		used += snprintf(divs + used, sizeof divs - (size_t)used, i ? " %s%lld%s" : "%s%lld%s",
		                 div[i] == w->heads ? "[" : "", (long long)div[i],
		                 div[i] == w->heads ? "]" : "");
	snprintf(lines[0], sizeof lines[0], tui_fmt("ui.num.title", "numbers for D = %lld, H = %lld, d = D/H = %lld"),
	         (long long)w->width, (long long)w->heads, (long long)w->head_width);
	snprintf(lines[1], sizeof lines[1], tui_fmt("ui.num.params", "parameters  4\u00b7D\u00b2 = %s (Q, K, V, O: [D,D], no bias)"),
	         n.params_ok ? p : "overflow");
	snprintf(lines[2], sizeof lines[2], tui_fmt("ui.num.scores", "scores      B\u00b7H\u00b7T\u00b7T = %lld\u00b7%lld\u00b7%lld\u00b7%lld = %s"),
	         (long long)w->batch, (long long)w->heads, (long long)w->positions,
	         (long long)w->positions, n.scores_ok ? s : "overflow");
	snprintf(lines[3], sizeof lines[3], tui_fmt("ui.num.bytes", "memory      %s at float32, %s at bfloat16"),
	         n.bytes_ok ? b32 : "overflow", n.bytes_ok ? b16 : "overflow");
	snprintf(lines[4], sizeof lines[4], tui_fmt("ui.num.scale", "scale       1/\u221ad = 1/\u221a%lld = %.4f   not 1/\u221aD = %.4f (wrong)"),
	         (long long)n.head_width, n.scale, n.wrong_scale);
	snprintf(lines[5], sizeof lines[5], tui_fmt("ui.num.heads", "[ ] heads:  %s"), divs);
	snprintf(lines[6], sizeof lines[6], "%s", tui_fmt("ui.num.note",
	         "More heads: same parameters, more and smaller score tables."));
	for (int i = 0; i < 7; i++) {
		ptr[i] = lines[i];
		if (scene_text_width(lines[i]) + 4 > wmax)
			wmax = scene_text_width(lines[i]) + 4;
	}
	if (wmax > COLS)
		wmax = COLS;
	y0 = LINES - 1 - 9;
	x0 = COLS - wmax;
	if (y0 < top)
		y0 = top;
	tui_fill(y0, x0, wmax, 9, A_REVERSE, 0);
	for (int i = 0; i < 7; i++)
		tui_put(y0 + 1 + i, x0 + 2, wmax - 4, A_REVERSE | (i == 0 ? A_BOLD : A_NORMAL), 0, ptr[i]);
}

/* m: the presets, one a line, the chosen one reversed. */
static void
tui_draw_menu(struct tui *t)
{
	int w = 20, h = preset_count + 4, y0, x0;

	for (int i = 0; i < preset_count; i++) {
		int n = (int)strlen(preset_table[i].name) + 3 + scene_text_width(preset_table[i].description) + 4;

		if (n > w)
			w = n;
	}
	if (w > COLS)
		w = COLS;
	tui_box(h, w, &y0, &x0);
	tui_put(y0 + 1, x0 + 2, w - 4, A_REVERSE | A_BOLD, 0,
	        tui_text("ui.menu", "presets: Enter opens, Esc closes"));
	for (int i = 0; i < preset_count; i++) {
		char line[256];

		snprintf(line, sizeof line, "%-12s %s", preset_table[i].name, preset_table[i].description);
		tui_put(y0 + 3 + i, x0 + 2, w - 4, i == t->menu_sel ? A_BOLD : A_REVERSE, 0, line);
	}
}

static void
tui_draw_note(struct tui *t)
{
	const char *lines[8];
	int n = 0, w = 4;

	for (int i = 0; i < 8 && t->note[i][0]; i++) {
		lines[n++] = t->note[i];
		if (scene_text_width(t->note[i]) + 4 > w)
			w = scene_text_width(t->note[i]) + 4;
	}
	if (w > COLS)
		w = COLS;
	tui_draw_lines_box(lines, n, w);
}

static void
tui_draw_status(struct tui *t)
{
	const struct tui_glyphs *g = tui_glyphs(t);
	char buf[256];
	int y = LINES - 1;

	if (t->quizzing && t->quiz_done) {
		tui_put(y, 1, COLS - 1, A_BOLD, 0, tui_text("ui.quiz.leave", "Enter or Esc: back to the lab"));
		return;
	}
	if (t->quizzing && !t->quiz_done) {
		const struct quiz_question *qq = &t->quiz.questions[t->qi];

		if (t->revealed)
			snprintf(buf, sizeof buf, "%s", tui_text("ui.quiz.next", "any key: next question   Esc: leave the quiz"));
		else if (qq->input == QUIZ_INPUT_TEXT) {
			int x = 1 + tui_put(y, 1, COLS - 1, A_BOLD, 0, tui_text("ui.quiz.answer", "answer: "));

			x += tui_put(y, x, COLS - x, A_NORMAL, 0, t->typed_answer);
			tui_put(y, x, 1, A_REVERSE, 0, " ");
			return;
		} else if (qq->input == QUIZ_INPUT_SELECT)
			snprintf(buf, sizeof buf, tui_fmt("ui.quiz.select", "%d selected   hjkl move  Space select  Enter answer  Esc leave"),
			         t->nchosen);
		else
			snprintf(buf, sizeof buf, "%s", tui_text("ui.quiz.cell", "hjkl or arrows move  Enter answer  Esc leave"));
		tui_put(y, 1, COLS - 1, A_BOLD, 0, buf);
		return;
	}
	if (t->prompt != TUI_PROMPT_NONE) {
		static const char *const sigil[TUI_PROMPT_COUNT] = { "", "/", ":", "g ", "export to " };
		int x = 1 + tui_put(y, 1, COLS - 1, A_BOLD, 0, sigil[t->prompt]);

		x += tui_put(y, x, COLS - x, A_NORMAL, 0, t->input);
		tui_put(y, x, 1, A_REVERSE, 0, " ");
		if (t->prompt_error[0]) {
			int cx = 1 + scene_text_width(sigil[t->prompt]);
			char msg[320];

			if (t->prompt_caret >= 0) {
				char head[TUI_INPUT_MAX];

				snprintf(head, sizeof head, "%.*s", t->prompt_caret, t->input);
				cx += scene_text_width(head);
				tui_put(y - 1, cx, 1, A_BOLD, t->color ? TUI_PAIR_WRONG : 0, "^");
				snprintf(msg, sizeof msg, " %s", t->prompt_error);
				tui_put(y - 1, cx + 1, COLS - cx - 1, A_BOLD, 0, msg);
			} else {
				tui_put(y - 1, 1, COLS - 1, A_BOLD, 0, t->prompt_error);
			}
		}
		return;
	}
	if (t->lab.typed[0]) {
		snprintf(buf, sizeof buf, tui_fmt("ui.typing", "jump to label: %s_   Enter jumps, Esc cancels"),
		         t->lab.typed);
		tui_put(y, 1, COLS - 1, A_BOLD, 0, buf);
	} else if (t->lab.message[0]) {
		tui_put(y, 1, COLS - 1, A_BOLD, 0, t->lab.message);
	} else if (t->warning[0]) {
		tui_put(y, 1, COLS - 1, A_BOLD, 0, t->warning);
	} else if (t->lit_on) {
		tui_put(y, 1, COLS - 1, A_BOLD, 0, t->lit_text);
	} else if (t->play_secs > 0) {
		tui_put(y, 1, COLS - 1, A_BOLD, 0, tui_text("ui.playing", "playing by itself: any key takes over"));
	} else if (t->animating && t->anim_paused) {
		snprintf(buf, sizeof buf, tui_fmt("ui.frames", "frame %d of %d   . next  , back  a resume"),
		         t->anim_frame, TUI_ANIM_FRAMES);
		tui_put(y, 1, COLS - 1, A_BOLD, 0, buf);
	} else {
		snprintf(buf, sizeof buf, tui_fmt("ui.hint", "%s step  hjkl %s move  0-9 Enter jump  Tab next  ? help  q quit"),
		         g->arrows, g->updown);
		tui_put(y, 1, COLS - 1, A_NORMAL, t->color ? TUI_PAIR_DIM : 0, buf);
	}
}

/* Below the minimum size: say so, wrapped to whatever width there is. */
static void
tui_draw_small(void)
{
	char buf[160];
	int lines;

	snprintf(buf, sizeof buf, tui_fmt("ui.small", "terminal too small: need %dx%d"), TUI_MIN_COLS,
	         TUI_MIN_LINES);
	lines = (scene_text_width(buf) + COLS - 1) / (COLS > 0 ? COLS : 1);
	if (lines > LINES)
		lines = LINES;
	if (scene_text_width(buf) <= COLS)
		tui_put(LINES / 2, (COLS - scene_text_width(buf)) / 2, COLS, A_BOLD, 0, buf);
	else
		tui_wrap((LINES - lines) / 2 > 0 ? (LINES - lines) / 2 : 0, 0, COLS, LINES, A_BOLD, 0, buf);
}

/* The caption of presenter mode: large, framed, at the bottom. */
static int
tui_draw_play_caption(struct tui *t, int bottom)
{
	char caption[1024];
	int h = 5, y = bottom - h;

	tui_caption(t, caption, sizeof caption);
	if (caption[0] == '\0' || y < 8)
		return bottom;
	tui_fill(y, 0, COLS, h, A_REVERSE, 0);
	tui_wrap(y + 1, 2, COLS - 4, h - 2, A_REVERSE | A_BOLD, 0, caption);
	return y;
}

void
tui_draw(struct tui *t)
{
	int y, bottom = LINES - 1;

	erase();
	if (COLS < TUI_MIN_COLS || LINES < TUI_MIN_LINES) {
		t->grid_w = t->grid_h = 0;
		tui_draw_small();
		wnoutrefresh(stdscr);
		return;
	}
	if (t->zoom_dirty)
		tui_auto_zoom(t);
	tui_draw_title(t);
	tui_draw_steps(t, 1);
	if (t->play_secs > 0)
		bottom = tui_draw_play_caption(t, bottom);
	switch (t->view) {
	case TUI_VIEW_SCORES:
		tui_draw_scores(t, 3, bottom);
		break;
	case TUI_VIEW_BUGS:
		tui_draw_bugs(t, 3, bottom);
		break;
	case TUI_VIEW_COMPARE:
		y = tui_draw_caption(t, 3);
		tui_draw_compare(t, y + 1, bottom);
		break;
	case TUI_VIEW_STEP:
		if (t->quizzing) {
			y = tui_draw_quiz(t, 3);
			if (!t->quiz_done)
				tui_draw_step_view(t, y + 1, bottom);
			break;
		}
		y = t->play_secs > 0 ? tui_draw_code_shape(t, 3) : tui_draw_caption(t, 3);
		/* the numbers panel takes the bottom lines */
		tui_draw_step_view(t, y + 1, t->numbers && bottom - 9 > y + 6 ? bottom - 9 : bottom);
		break;
	}
	if (t->numbers)
		tui_draw_numbers(t, 3);
	tui_draw_status(t);
	if (t->note[0][0])
		tui_draw_note(t);
	if (t->menu)
		tui_draw_menu(t);
	if (t->lab.help)
		tui_draw_help(t);
	wnoutrefresh(stdscr);
}

/* ---- actions ------------------------------------------------------- */

void
tui_click(struct tui *t, int y, int x)
{
	const struct scene_item *it;

	if (t->grid_w == 0 || y < t->grid_y || y >= t->grid_y + t->grid_h || x < t->grid_x ||
	    x >= t->grid_x + t->grid_w)
		return;
	it = scene_cell_at(&t->scene, y - t->grid_y + t->scroll_y, x - t->grid_x + t->scroll_x);
	if (it)
		lab_select(&t->lab, it->label);
}

static void
tui_finish_anim(struct tui *t)
{
	t->animating = false;
	t->anim_pending = false;
	anim_free(&t->anim);
}

void
tui_finish_anim_for_tests(struct tui *t)
{
	tui_finish_anim(t);
}

/* Leave the walk c made and go back to the main one at its step. */
static void
tui_unapply(struct tui *t)
{
	if (t->applied_from < 0)
		return;
	t->lab.walk = &t->walk;
	t->lab.step = t->applied_from;
	t->applied_from = -1;
}

/* c: the current layout with .contiguous() applied, as one more step. */
static void
tui_apply_contiguous(struct tui *t)
{
	int k;

	tui_unapply(t);
	k = t->lab.step;
	t->applied = t->walk;
	t->applied.nsteps = k + 1;
	if (!walk_contiguous(&t->applied, "contiguous(c)", "contiguous()", "applied with c",
	                     k == 0 ? "x" : "")) {
		t->applied = t->walk;
		return;
	}
	t->applied_from = k;
	t->lab.walk = &t->applied;
	t->lab.step = k + 1;
}

/* V: what .view(x's shape) says about the current layout. */
static void
tui_try_view(struct tui *t)
{
	const struct walk *w = tui_walk(t);
	const struct walk_step *s = &w->steps[t->lab.step];
	const struct layout *x = &w->steps[0].view;
	int64_t strides[LAYOUT_MAX_RANK];
	char shape[160];

	memset(t->note, 0, sizeof t->note);
	walk_format_list(shape, sizeof shape, x->shape, x->rank);
	snprintf(t->note[0], sizeof t->note[0], "%s.view(%s)", s->code[0] == '.' ? "y" : s->code, shape);
	if (layout_view_strides(&s->view, x->rank, x->shape, strides)) {
		snprintf(t->note[1], sizeof t->note[1], "%s", tui_fmt("ui.view.ok1",
		         "works: this layout can be read as x's shape without moving data."));
		snprintf(t->note[2], sizeof t->note[2], "%s", tui_fmt("ui.view.ok2",
		         "view() only changes shape and strides here."));
	} else {
		snprintf(t->note[1], sizeof t->note[1], "%s", "RuntimeError: view size is not compatible with input tensor's");
		snprintf(t->note[2], sizeof t->note[2], "%s", "size and stride (at least one dimension spans across two");
		snprintf(t->note[3], sizeof t->note[3], "%s", "contiguous subspaces). Use .reshape(...) instead.");
		snprintf(t->note[4], sizeof t->note[4], "%s", tui_fmt("ui.view.why1",
		         "The strides cannot describe x's shape over this storage: the"));
		snprintf(t->note[5], sizeof t->note[5], "%s", tui_fmt("ui.view.why2",
		         "data would have to move. That is why merge_heads calls"));
		snprintf(t->note[6], sizeof t->note[6], "%s", tui_fmt("ui.view.why3",
		         ".contiguous() (a copy) before reshaping. Any key closes this."));
	}
}

/* Rebuild the walk with another head count, keeping step and selection. */
static void
tui_set_heads(struct tui *t, int dir)
{
	struct walk w;
	int64_t heads;

	if (t->walk.kind == WALK_CUSTOM)
		return;
	heads = numbers_heads_next(t->walk.width, t->walk.heads, dir);
	if (heads == t->walk.heads ||
	    walk_build(&w, t->walk.kind, t->walk.batch, t->walk.positions, t->walk.width, heads) != WALK_OK)
		return;
	tui_unapply(t);
	t->walk = w;
	if (t->lab.step >= w.nsteps)
		t->lab.step = w.nsteps - 1;
	t->numbers = true;
}

static void
tui_set_bug(struct tui *t, enum walk_kind kind)
{
	const struct walk *w = &t->walk;

	walk_build(&t->bug, kind, w->batch, w->positions, w->width, w->heads);
	walk_build(&t->right, WALK_LESSON, w->batch, w->positions, w->width, w->heads);
	t->view = TUI_VIEW_BUGS;
}

/* b: the bug lab, then the next bug each time, then back. */
static void
tui_next_bug(struct tui *t)
{
	static const enum walk_kind order[] = {
		WALK_WRONG, WALK_WRONG_SWAP_BATCH, WALK_WRONG_D_H, WALK_WRONG_MERGE,
	};
	size_t n = sizeof order / sizeof order[0];

	if (t->walk.kind == WALK_CUSTOM)
		return;
	if (t->view != TUI_VIEW_BUGS) {
		tui_set_bug(t, t->walk.kind != WALK_LESSON ? t->walk.kind : WALK_WRONG);
		return;
	}
	for (size_t i = 0; i < n; i++)
		if (order[i] == t->bug.kind) {
			if (i + 1 < n)
				tui_set_bug(t, order[i + 1]);
			else
				t->view = TUI_VIEW_STEP;
			return;
		}
}

/* The zoom that fits the current step whole, from the largest down. */
static void
tui_zoom_fit(struct tui *t)
{
	for (int z = TUI_ZOOM_MAX; z >= 1; z--) {
		struct scene sc = { 0 };
		int avail = LINES - 9, fits;

		t->zoom = z;
		tui_build_scene(t, &sc, tui_walk(t), t->lab.step, COLS - 2);
		fits = sc.height <= avail && sc.width <= COLS - 2;
		scene_free(&sc);
		if (fits)
			return;
	}
}

/* The zoom a large terminal gets unless one was asked for: 3 (framed
 * cells) when every step of the walk fits beside the lineage with the
 * ribbon under it, else 1.  Worked out again on resize and new walks. */
static void
tui_auto_zoom(struct tui *t)
{
	const struct walk *w = tui_walk(t);
	int lineage_h = w->nsteps + 3, avail = LINES - 9 - 4;
	bool fits = COLS >= 120 && LINES >= 36;

	t->zoom_dirty = false;
	if (!t->zoom_auto)
		return;
	t->zoom = 3;
	for (int k = 0; fits && k < w->nsteps; k++) {
		struct scene sc = { 0 };

		tui_build_scene(t, &sc, w, k, COLS - TUI_LINEAGE_W - 6);
		fits = sc.width + TUI_LINEAGE_W + 6 <= COLS && sc.height <= avail && lineage_h <= avail &&
		       !sc.elided;
		scene_free(&sc);
	}
	t->zoom = fits ? 3 : 1;
}

/* ---- the quiz ------------------------------------------------------ */

/* Show question qi: its walk, its step, a fresh answer. */
static void
tui_quiz_load(struct tui *t)
{
	const struct quiz_question *qq = &t->quiz.questions[t->qi];

	tui_unapply(t);
	tui_finish_anim(t);
	quiz_walk(qq, &t->walk);
	lab_init(&t->lab, &t->walk);
	t->lab.step = qq->step;
	t->lab.selected = 0;
	t->revealed = false;
	t->nchosen = 0;
	t->typed_answer[0] = '\0';
	t->lit_on = false;
	t->view = TUI_VIEW_STEP;
	t->scroll_y = t->scroll_x = 0;
	t->zoom_dirty = true;
}

void
tui_quiz_start(struct tui *t, uint64_t seed, int count)
{
	const struct walk *w = &t->walk;

	t->quiz_saved = t->walk;
	t->quiz_seed = seed;
	t->quiz_count = count;
	quiz_make(&t->quiz, seed, count, w->batch, w->positions, w->width, w->heads);
	t->quizzing = true;
	t->quiz_done = false;
	t->qi = 0;
	t->score = 0;
	memset(t->quiz_right, 0, sizeof t->quiz_right);
	tui_quiz_load(t);
}

static void
tui_quiz_leave(struct tui *t)
{
	t->quizzing = false;
	t->quiz_done = false;
	t->walk = t->quiz_saved;
	lab_init(&t->lab, &t->walk);
	t->scroll_y = t->scroll_x = 0;
}

/* Check the answer, then reveal: labels shown, the cells moving from x to
 * the layout asked about. */
static void
tui_quiz_answer(struct tui *t)
{
	const struct quiz_question *qq = &t->quiz.questions[t->qi];
	bool right = quiz_check(qq, t->lab.selected, t->chosen, t->nchosen, t->typed_answer,
	                        t->quiz_why[t->qi], sizeof t->quiz_why[t->qi]);

	t->quiz_right[t->qi] = right;
	t->score += right;
	t->revealed = true;
	if (t->anim_on && qq->step > 0 && t->scene.n > 0) {
		/* the move from x, planned once the revealed step is laid out */
		scene_free(&t->anim_from);
		tui_build_scene(t, &t->anim_from, &t->walk, 0, t->grid_w > 0 ? t->grid_w : COLS - 2);
		t->anim_from_y = t->grid_y;
		t->anim_from_x = t->grid_x;
		t->anim_pending = true;
	}
}

static void
tui_quiz_toggle(struct tui *t, int64_t label)
{
	for (int i = 0; i < t->nchosen; i++)
		if (t->chosen[i] == label) {
			t->chosen[i] = t->chosen[--t->nchosen];
			return;
		}
	if (t->nchosen < QUIZ_MAX_CELLS)
		t->chosen[t->nchosen++] = label;
}

static void
tui_quiz_key(struct tui *t, int ch)
{
	const struct quiz_question *qq = &t->quiz.questions[t->qi];
	enum lab_action a = LAB_NONE;
	size_t len = strlen(t->typed_answer);
	MEVENT ev;

	if (ch == 27 || (t->quiz_done && (ch == 'q' || ch == '\r' || ch == '\n' || ch == KEY_ENTER))) {
		tui_quiz_leave(t);
		return;
	}
	if (t->quiz_done)
		return;
	if (t->revealed) {
		/* any key goes on, even while the reveal still moves */
		tui_finish_anim(t);
		if (++t->qi >= t->quiz.n) {
			t->quiz_done = true;
			return;
		}
		tui_quiz_load(t);
		return;
	}
	if (qq->input == QUIZ_INPUT_TEXT) {
		if (ch == '\r' || ch == '\n' || ch == KEY_ENTER)
			tui_quiz_answer(t);
		else if ((ch == KEY_BACKSPACE || ch == 127 || ch == 8) && len > 0)
			t->typed_answer[len - 1] = '\0';
		else if (ch >= 32 && ch < 127 && len + 1 < sizeof t->typed_answer) {
			t->typed_answer[len] = (char)ch;
			t->typed_answer[len + 1] = '\0';
		}
		return;
	}
	switch (ch) {
	case 'h': case KEY_LEFT: case KEY_SLEFT: a = LAB_MOVE_LEFT; break;
	case 'l': case KEY_RIGHT: case KEY_SRIGHT: a = LAB_MOVE_RIGHT; break;
	case 'k': case KEY_UP: case KEY_SR: a = LAB_MOVE_UP; break;
	case 'j': case KEY_DOWN: case KEY_SF: a = LAB_MOVE_DOWN; break;
	case 'q': tui_quiz_leave(t); return;
	case ' ':
		if (qq->input == QUIZ_INPUT_SELECT)
			tui_quiz_toggle(t, t->lab.selected);
		return;
	case '\r': case '\n': case KEY_ENTER:
		tui_quiz_answer(t);
		return;
	case KEY_MOUSE:
		if (getmouse(&ev) != OK) {
			tui_swallow_mouse_report();
			return;
		}
		if (ev.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)) {
			tui_click(t, ev.y, ev.x);
			if (qq->input == QUIZ_INPUT_SELECT)
				tui_quiz_toggle(t, t->lab.selected);
		}
		return;
	default:
		return;
	}
	lab_act(&t->lab, a, &t->scene);
}

/* The question, or its reveal, or the summary; returns the next free line. */
static int
tui_draw_quiz(struct tui *t, int y)
{
	char buf[600], answer[256];

	if (t->quiz_done) {
		int wrong = 0;

		snprintf(buf, sizeof buf, tui_fmt("ui.quiz.done", "Quiz over: %d of %d right (seed %llu)."),
		         t->score, t->quiz.n, (unsigned long long)t->quiz_seed);
		tui_put(y++, 1, COLS - 2, A_BOLD, tui_accent(t), buf);
		y++;
		for (int i = 0; i < t->quiz.n && y < LINES - 2; i++) {
			char prompt[400];

			quiz_prompt(&t->quiz.questions[i], prompt, sizeof prompt);
			snprintf(buf, sizeof buf, "%s %d. %s", t->quiz_right[i] ? (t->utf8 ? "\u2713" : "+") :
			         (t->utf8 ? "\u2717" : "-"), i + 1, prompt);
			tui_put(y++, 1, COLS - 2, t->quiz_right[i] ? A_NORMAL : A_BOLD, 0, buf);
			if (!t->quiz_right[i] && y < LINES - 2) {
				y += tui_wrap(y, 6, COLS - 7, 2, A_NORMAL, 0, t->quiz_why[i]);
				wrong++;
			}
		}
		(void)wrong;
		return y;
	}
	snprintf(buf, sizeof buf, tui_fmt("ui.quiz.head", "Quiz: question %d of %d, score %d"),
	         t->qi + 1, t->quiz.n, t->score);
	tui_put(y++, 1, COLS - 2, A_BOLD, tui_accent(t), buf);
	quiz_prompt(&t->quiz.questions[t->qi], buf, sizeof buf);
	y += tui_wrap(y, 1, COLS - 2, 2, A_BOLD, 0, buf);
	if (t->revealed) {
		quiz_answer(&t->quiz.questions[t->qi], answer, sizeof answer);
		if (t->quiz_right[t->qi])
			snprintf(buf, sizeof buf, tui_fmt("ui.quiz.right", "Right: %s."), answer);
		else
			snprintf(buf, sizeof buf, tui_fmt("ui.quiz.wrong", "Not quite (answer: %s). %s"), answer,
			         t->quiz_why[t->qi]);
		y += tui_wrap(y, 1, COLS - 2, 2, A_BOLD, t->color && !t->quiz_right[t->qi] ? TUI_PAIR_WRONG : 0, buf);
	}
	return y;
}

/* A mouse report curses only half read (the mouse is off, so getmouse
 * refuses it): drop the rest, "0;14;18M" of SGR or the three bytes of
 * X10, so that none of it is taken for keys. */
static void
tui_swallow_mouse_report(void)
{
	int c;

	wtimeout(stdscr, 30);
	c = getch();
	if (c >= '0' && c <= '9') {
		while (c != ERR && c != 'M' && c != 'm')
			c = getch();
	} else if (c != ERR) {
		getch();
		getch();
	}
}

/* ---- prompts, the preset menu, index highlights --------------------- */

static void
tui_prompt_open(struct tui *t, enum tui_prompt kind)
{
	t->prompt = kind;
	t->input[0] = '\0';
	t->prompt_error[0] = '\0';
	t->prompt_caret = -1;
	t->hist_pos = -1;
}

static void
tui_prompt_remember(struct tui *t)
{
	int k = t->prompt, n = t->nhistory[k];

	if (t->input[0] == '\0')
		return;
	if (n > 0 && strcmp(t->history[k][n - 1], t->input) == 0)
		return;
	if (n == TUI_HISTORY) {
		memmove(t->history[k][0], t->history[k][1], sizeof t->history[k][0] * (TUI_HISTORY - 1));
		n--;
	}
	snprintf(t->history[k][n], TUI_INPUT_MAX, "%s", t->input);
	t->nhistory[k] = n + 1;
}

/* Put a freshly built walk in place of the current one, keeping the
 * selected label when it still exists. */
static void
tui_replace_walk(struct tui *t, const struct walk *w)
{
	int64_t selected = t->lab.selected;

	tui_unapply(t);
	tui_finish_anim(t);
	t->walk = *w;
	lab_init(&t->lab, &t->walk);
	if (selected < walk_numel(&t->walk))
		t->lab.selected = selected;
	t->lit_on = false;
	t->view = TUI_VIEW_STEP;
	t->scroll_y = t->scroll_x = 0;
	t->zoom_dirty = true;
	scene_free(&t->scene);
}

/* The params that rebuilt the current walk, with a new shape or heads. */
static void
tui_params(const struct tui *t, struct preset_params *p, const char **axis)
{
	const struct layout *x = &t->walk.steps[0].view;

	memset(p, 0, sizeof *p);
	p->rank = x->rank;
	memcpy(p->shape, x->shape, sizeof p->shape);
	p->bug = t->walk.kind == WALK_CUSTOM ? WALK_LESSON : t->walk.kind;
	for (int i = 0; i < t->naxis; i++)
		axis[i] = t->axis_args[i];
	p->axis_args = axis;
	p->naxis = t->naxis;
	if (t->preset && t->preset->heads > 0)
		p->heads = t->walk.heads;
}

static bool
tui_all_digits(const char *s, bool commas)
{
	if (*s == '\0')
		return false;
	for (; *s; s++)
		if (!((*s >= '0' && *s <= '9') || (commas && (*s == ',' || *s == ' '))))
			return false;
	return true;
}

/* Set the prompt's error from a pattern error whose text is the input. */
static void
tui_prompt_fail(struct tui *t, const char *message, const char *text, int pos)
{
	snprintf(t->prompt_error, sizeof t->prompt_error, "%s", message);
	t->prompt_caret = -1;
	if (text && text >= t->input && text < t->input + TUI_INPUT_MAX)
		t->prompt_caret = (int)(text - t->input) + pos;
}

/* ":" — a pattern ("b t (h d) -> b h t d h=2"), a shape ("2,5,8") or a
 * head count ("4"), rebuilding the walk in place. */
static bool
tui_command(struct tui *t)
{
	struct walk w;
	struct preset_params p;
	struct pattern_error err;
	const char *axis[16];
	char *in = t->input;

	tui_params(t, &p, axis);
	if (strstr(in, "->")) {
		/* NAME=SIZE words anywhere are axis sizes; the rest the pattern */
		char pattern[TUI_INPUT_MAX] = "", args[16][64], *save = NULL, copy[TUI_INPUT_MAX];
		const char *argv16[16];
		int nargs = 0;

		snprintf(copy, sizeof copy, "%s", in);
		for (char *tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
			if (strchr(tok, '=') && nargs < 16) {
				snprintf(args[nargs], sizeof args[nargs], "%s", tok);
				argv16[nargs] = args[nargs];
				nargs++;
			} else {
				snprintf(pattern + strlen(pattern), sizeof pattern - strlen(pattern), "%s%s",
				         pattern[0] ? " " : "", tok);
			}
		}
		p.axis_args = argv16;
		p.naxis = nargs;
		p.heads = 0;
		if (!preset_rearrange(&w, pattern, &p, &err)) {
			/* the caret is shown under the typed input when the words
			 * kept their places (no doubled spaces) */
			int pos = -1;

			if (err.text == pattern && strncmp(in, pattern, strlen(pattern)) == 0)
				pos = err.pos;
			tui_prompt_fail(t, err.message, pos >= 0 ? in : NULL, pos);
			return false;
		}
		snprintf(t->pattern, sizeof t->pattern, "%s", pattern);
		for (int i = 0; i < nargs; i++)
			snprintf(t->axis_args[i], sizeof t->axis_args[i], "%.60s", args[i]);
		t->naxis = nargs;
		t->preset = NULL;
		tui_replace_walk(t, &w);
		return true;
	}
	if (tui_all_digits(in, true) && strchr(in, ',')) {
		char copy[TUI_INPUT_MAX], *save = NULL;
		int n = 0;

		snprintf(copy, sizeof copy, "%s", in);
		for (char *tok = strtok_r(copy, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
			char *end;
			long long v = strtoll(tok, &end, 10);

			if (n == LAYOUT_MAX_RANK || v < 1) {
				tui_prompt_fail(t, n == LAYOUT_MAX_RANK ? "at most 8 sizes" : "sizes start at 1",
				                NULL, 0);
				return false;
			}
			p.shape[n++] = v;
		}
		p.rank = n;
	} else if (tui_all_digits(in, false)) {
		long long h = strtoll(in, NULL, 10);

		if (t->walk.kind == WALK_CUSTOM && (t->preset == NULL || t->preset->heads == 0)) {
			tui_prompt_fail(t, tui_text("ui.noheads", "this walk takes no head count"), NULL, 0);
			return false;
		}
		p.heads = h;
	} else {
		tui_prompt_fail(t, tui_text("ui.command",
		                "type a pattern (b t (h d) -> b h t d h=2), a shape (1,3,4) or a head count (2)"),
		                NULL, 0);
		return false;
	}
	if (t->walk.kind != WALK_CUSTOM) {
		int64_t heads = p.heads ? p.heads : t->walk.heads;
		enum walk_error e;
		char msg[200];

		if (p.rank != 3) {
			tui_prompt_fail(t, tui_text("ui.rank3", "the lesson's x needs 3 sizes: B,T,D"), NULL, 0);
			return false;
		}
		e = walk_build(&w, t->walk.kind, p.shape[0], p.shape[1], p.shape[2], heads);
		if (e != WALK_OK) {
			if (e == WALK_ENOTDIVISIBLE)
				snprintf(msg, sizeof msg, tui_fmt("ui.notdiv", "width %lld is not divisible by %lld heads"),
				         (long long)p.shape[2], (long long)heads);
			else
				snprintf(msg, sizeof msg, "%s", tui_text("ui.badshape", "sizes too large or below 1"));
			tui_prompt_fail(t, msg, NULL, 0);
			return false;
		}
	} else if (t->pattern[0]) {
		if (!preset_rearrange(&w, t->pattern, &p, &err)) {
			tui_prompt_fail(t, err.message, NULL, 0);
			return false;
		}
	} else if (!preset_build(t->preset, &w, &p, &err)) {
		tui_prompt_fail(t, err.message, NULL, 0);
		return false;
	}
	tui_replace_walk(t, &w);
	return true;
}

/* "/" — light up the cells an index expression picks on this step. */
static bool
tui_index(struct tui *t)
{
	const struct walk *w = tui_walk(t);
	const struct walk_step *s = &w->steps[t->lab.step];
	const char *axes[LAYOUT_MAX_RANK];
	struct index_error err;
	int64_t n, index[LAYOUT_MAX_RANK] = { 0 }, in_index[LAYOUT_MAX_RANK];
	size_t used;
	char shape[160];

	struct index_result r;

	for (int i = 0; i < s->view.rank; i++)
		axes[i] = s->axes[i];
	/* into a local first: the lit cells stay as they were on an error */
	if (!index_eval(t->input, &s->view, axes, &r, &err)) {
		tui_prompt_fail(t, err.message, t->input, (int)err.pos);
		return false;
	}
	t->lit = r;
	t->lit_on = true;
	t->lit_walk = w;
	t->lit_step = t->lab.step;
	n = index_numel(&t->lit);
	walk_format_list(shape, sizeof shape, t->lit.view.shape, t->lit.view.rank);
	used = (size_t)snprintf(t->lit_text, sizeof t->lit_text, "%s  (%s %d)  [%s]:", t->input,
	                        tui_text("ui.onstep", "on step"), t->lab.step + 1, shape);
	/* the first labels picked, in the result's order */
	for (int64_t c = 0; c < n && c < 16 && used < sizeof t->lit_text; c++) {
		int64_t flat = c;

		for (int a = t->lit.view.rank - 1; a >= 0; a--) {
			index[a] = flat % t->lit.view.shape[a];
			flat /= t->lit.view.shape[a];
		}
		index_source(&t->lit, index, in_index);
		used += (size_t)snprintf(t->lit_text + used, sizeof t->lit_text - used, " %lld",
		                         (long long)walk_label_at(w, t->lab.step, in_index));
	}
	if (n > 16 && used < sizeof t->lit_text)
		snprintf(t->lit_text + used, sizeof t->lit_text - used, " %s (%lld)",
		         t->utf8 ? "\u2026" : "...", (long long)n);
	else if (n == 0 && used < sizeof t->lit_text)
		snprintf(t->lit_text + used, sizeof t->lit_text - used, " %s",
		         tui_text("ui.empty", "nothing (an empty slice)"));
	return true;
}

/* "e" — the current step as text, ANSI text, Markdown and SVG files in the
 * directory typed, with the caption shown and the selected cell marked. */
static bool
tui_export(struct tui *t)
{
	struct export_opts o;
	char err[240], caption[1024], name[256];
	int n;

	export_opts_default(&o);
	o.utf8 = t->utf8;
	o.selected = t->lab.selected;
	tui_caption(t, caption, sizeof caption);
	o.caption = caption;
	n = export_step(t->input, tui_walk(t), t->lab.step, &o, err, sizeof err);
	if (n < 0) {
		tui_prompt_fail(t, err, NULL, 0);
		return false;
	}
	snprintf(t->export_dir, sizeof t->export_dir, "%s", t->input);
	export_file_name(name, sizeof name, tui_walk(t), t->lab.step, EXPORT_SVG);
	snprintf(t->warning, sizeof t->warning, tui_fmt("ui.exported", "wrote %d files: %s/%s and its .txt, .ansi, .md"),
	         n, t->export_dir, name);
	return true;
}

/* "g" — a label, or an index in this step as b,t,d. */
static bool
tui_goto(struct tui *t)
{
	const struct walk *w = tui_walk(t);
	const struct layout *v = &w->steps[t->lab.step].view;
	char copy[TUI_INPUT_MAX], *save = NULL, msg[200];
	int64_t index[LAYOUT_MAX_RANK];
	int n = 0;

	if (tui_all_digits(t->input, false)) {
		long long label = strtoll(t->input, NULL, 10);

		if (label >= walk_numel(w) || strlen(t->input) > 18) {
			snprintf(msg, sizeof msg, tui_fmt("ui.nolabel", "no label %s: labels run 0 to %lld"),
			         t->input, (long long)(walk_numel(w) - 1));
			tui_prompt_fail(t, msg, NULL, 0);
			return false;
		}
		lab_select(&t->lab, label);
		return true;
	}
	snprintf(copy, sizeof copy, "%s", t->input);
	for (char *tok = strtok_r(copy, ", []", &save); tok; tok = strtok_r(NULL, ", []", &save)) {
		char *end;
		long long i = strtoll(tok, &end, 10);

		if (*end != '\0' || n == v->rank || i < 0 || i >= v->shape[n]) {
			snprintf(msg, sizeof msg, tui_fmt("ui.badindex", "not an index of this step's shape (%d numbers)"),
			         v->rank);
			tui_prompt_fail(t, msg, t->input, (int)(tok - copy));
			return false;
		}
		index[n++] = i;
	}
	if (n != v->rank) {
		snprintf(msg, sizeof msg, tui_fmt("ui.badindex", "not an index of this step's shape (%d numbers)"),
		         v->rank);
		tui_prompt_fail(t, msg, NULL, 0);
		return false;
	}
	lab_select(&t->lab, walk_label_at(w, t->lab.step, index));
	return true;
}

static void
tui_prompt_key(struct tui *t, int ch)
{
	int k = t->prompt;
	size_t len = strlen(t->input);

	switch (ch) {
	case 27:
		t->prompt = TUI_PROMPT_NONE;
		return;
	case '\r': case '\n': case KEY_ENTER: {
		bool ok = t->input[0] == '\0' ||
		          (k == TUI_PROMPT_INDEX ? tui_index(t) :
		           k == TUI_PROMPT_COMMAND ? tui_command(t) :
		           k == TUI_PROMPT_EXPORT ? tui_export(t) : tui_goto(t));

		tui_prompt_remember(t);
		if (ok)
			t->prompt = TUI_PROMPT_NONE;
		t->hist_pos = -1;
		return;
	}
	case KEY_BACKSPACE: case 127: case 8:
		if (len > 0)
			t->input[len - 1] = '\0';
		break;
	case 21: /* Ctrl-U */
		t->input[0] = '\0';
		break;
	case KEY_UP: case KEY_DOWN: {
		int n = t->nhistory[k], pos = t->hist_pos + (ch == KEY_UP ? 1 : -1);

		if (pos >= n)
			pos = n - 1;
		if (pos < -1)
			pos = -1;
		t->hist_pos = pos;
		if (pos >= 0)
			snprintf(t->input, sizeof t->input, "%s", t->history[k][n - 1 - pos]);
		else
			t->input[0] = '\0';
		break;
	}
	default:
		if (ch >= 32 && ch < 127 && len + 1 < sizeof t->input) {
			t->input[len] = (char)ch;
			t->input[len + 1] = '\0';
		}
		break;
	}
	t->prompt_error[0] = '\0';
	t->prompt_caret = -1;
}

static void
tui_menu_key(struct tui *t, int ch)
{
	switch (ch) {
	case KEY_UP: case 'k':
		if (t->menu_sel > 0)
			t->menu_sel--;
		break;
	case KEY_DOWN: case 'j':
		if (t->menu_sel + 1 < preset_count)
			t->menu_sel++;
		break;
	case '\r': case '\n': case KEY_ENTER: {
		struct walk w;
		struct preset_params p;
		struct pattern_error err;

		memset(&p, 0, sizeof p);
		t->menu = false;
		if (!preset_build(&preset_table[t->menu_sel], &w, &p, &err)) {
			snprintf(t->warning, sizeof t->warning, "%.190s", err.message);
			return;
		}
		t->preset = &preset_table[t->menu_sel];
		t->pattern[0] = '\0';
		t->naxis = 0;
		tui_replace_walk(t, &w);
		break;
	}
	case 27: case 'q': case 'm':
		t->menu = false;
		break;
	default:
		break;
	}
}

static bool
tui_is_step_key(int ch)
{
	switch (ch) {
	case KEY_LEFT: case KEY_PPAGE: case 'p': case KEY_RIGHT: case KEY_NPAGE: case ' ':
	case 'n': case KEY_HOME: case KEY_END: case KEY_BACKSPACE: case 127: case 8:
		return true;
	default:
		return false;
	}
}

void
tui_key(struct tui *t, int ch)
{
	enum lab_action a = LAB_NONE;
	const struct walk *before_walk = tui_walk(t);
	int before_step = t->lab.step;
	bool skip_anim = false;
	MEVENT ev;

	if (ch == KEY_RESIZE)
		t->zoom_dirty = true;
	if (ch == KEY_RESIZE || ch == ERR)
		return;
	if (t->play_secs > 0) {
		/* any key takes the show over from presenter mode */
		t->play_secs = 0;
		return;
	}
	if (t->quizzing) {
		tui_quiz_key(t, ch);
		return;
	}
	if (t->prompt != TUI_PROMPT_NONE) {
		tui_prompt_key(t, ch);
		return;
	}
	if (t->menu) {
		tui_menu_key(t, ch);
		return;
	}
	if (t->lab.help || t->note[0][0]) {
		/* any key closes an overlay; the quit keys also quit */
		if (ch == KEY_MOUSE)
			return;
		t->lab.help = false;
		t->note[0][0] = '\0';
		if (ch == 'q' || ch == 3)
			t->lab.quit = true;
		return;
	}
	if ((t->animating || t->anim_pending) && !t->anim_paused && tui_is_step_key(ch)) {
		/* a step key during a move finishes it at once, and steps
		 * without a new move: quick presses stay quick */
		tui_finish_anim(t);
		skip_anim = true;
	}
	if (ch >= '0' && ch <= '9') {
		lab_digit(&t->lab, ch - '0');
		return;
	}
	t->warning[0] = '\0';
	if (tui_is_step_key(ch) && t->applied_from >= 0 &&
	    !((ch == KEY_BACKSPACE || ch == 127 || ch == 8) && t->lab.typed[0])) {
		/* stepping leaves the .contiguous() that c applied */
		int k = t->applied_from;

		tui_unapply(t);
		t->lab.step = k;
		if (ch == KEY_LEFT || ch == KEY_PPAGE || ch == 'p' || ch == KEY_BACKSPACE || ch == 127 || ch == 8) {
			tui_finish_anim(t);
			return;
		}
	}
	switch (ch) {
	case KEY_LEFT: case KEY_PPAGE: case 'p': a = LAB_STEP_PREV; break;
	case KEY_RIGHT: case KEY_NPAGE: case ' ': case 'n': a = LAB_STEP_NEXT; break;
	case KEY_HOME: a = LAB_STEP_FIRST; break;
	case KEY_END: a = LAB_STEP_LAST; break;
	case 'h': case KEY_SLEFT: a = LAB_MOVE_LEFT; break;
	case 'l': case KEY_SRIGHT: a = LAB_MOVE_RIGHT; break;
	case 'k': case KEY_UP: case KEY_SR: a = LAB_MOVE_UP; break;
	case 'j': case KEY_DOWN: case KEY_SF: a = LAB_MOVE_DOWN; break;
	case '\t': a = LAB_LABEL_NEXT; break;
	case KEY_BTAB: a = LAB_LABEL_PREV; break;
	case KEY_BACKSPACE: case 127: case 8: a = LAB_ERASE; break;
	case '\n': case '\r': case KEY_ENTER: a = LAB_ENTER; break;
	case 27:
		if (t->view != TUI_VIEW_STEP && !t->lab.typed[0]) {
			t->view = TUI_VIEW_STEP;
			return;
		}
		if (t->lit_on && !t->lab.typed[0]) {
			t->lit_on = false;      /* Esc first clears the lit cells */
			return;
		}
		a = LAB_CANCEL;
		break;
	case '/': tui_prompt_open(t, TUI_PROMPT_INDEX); return;
	case ':': tui_prompt_open(t, TUI_PROMPT_COMMAND); return;
	case 'g': tui_prompt_open(t, TUI_PROMPT_GOTO); return;
	case 'e':
		tui_prompt_open(t, TUI_PROMPT_EXPORT);
		snprintf(t->input, sizeof t->input, "%s", t->export_dir[0] ? t->export_dir : "slides");
		return;
	case 'm': t->menu = true; return;
	case 'Q':
		if (t->walk.kind != WALK_CUSTOM)
			tui_quiz_start(t, (uint64_t)time(NULL), QUIZ_KINDS);
		return;
	case '?': a = LAB_HELP; break;
	case 'q': case 3: a = LAB_QUIT; break;
	case 12: clearok(curscr, TRUE); break;
	case 'a':
		if (t->animating)
			tui_finish_anim(t);
		t->anim_paused = !t->anim_paused;
		snprintf(t->warning, sizeof t->warning, "%s", t->anim_paused
		         ? tui_text("ui.anim.paused", "animation paused: a step waits for . and ,")
		         : tui_text("ui.anim.on", "animation on"));
		return;
	case '.': case ',':
		if (t->animating) {
			t->anim_frame += ch == '.' ? 1 : -1;
			if (t->anim_frame < 0)
				t->anim_frame = 0;
			if (t->anim_frame >= TUI_ANIM_FRAMES)
				tui_finish_anim(t);
		}
		return;
	case '+': t->zoom_auto = false; if (t->zoom < TUI_ZOOM_MAX) t->zoom++; return;
	case '-': t->zoom_auto = false; if (t->zoom > 1) t->zoom--; return;
	case '=': t->zoom_auto = false; tui_zoom_fit(t); return;
	case 'v': t->view = t->view == TUI_VIEW_COMPARE ? TUI_VIEW_STEP : TUI_VIEW_COMPARE; return;
	case 's':
		if (t->walk.kind != WALK_CUSTOM)
			t->view = t->view == TUI_VIEW_SCORES ? TUI_VIEW_STEP : TUI_VIEW_SCORES;
		return;
	case 'b': tui_next_bug(t); return;
	case 'i': if (t->walk.kind != WALK_CUSTOM) t->numbers = !t->numbers; return;
	case '[': tui_set_heads(t, -1); return;
	case ']': tui_set_heads(t, 1); return;
	case 'c': tui_apply_contiguous(t); break;
	case 'V': tui_try_view(t); return;
	case 't': {
		int i = (int)(t->theme - theme_table);

		t->theme = &theme_table[(i + 1) % theme_count];
		t->color = true;
		tui_colors(t);
		snprintf(t->warning, sizeof t->warning, "%s %s", tui_fmt("ui.theme", "theme"), t->theme->name);
		return;
	}
	case KEY_MOUSE:
		if (getmouse(&ev) != OK) {
			tui_swallow_mouse_report();
			return;
		}
		if (ev.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED))
			tui_click(t, ev.y, ev.x);
		return;
	default: break;
	}
	if (t->view == TUI_VIEW_STEP || t->view == TUI_VIEW_COMPARE || a == LAB_QUIT ||
	    a == LAB_CANCEL || a == LAB_HELP || a == LAB_ENTER || a == LAB_ERASE)
		lab_act(&t->lab, a, &t->scene);
	if (t->view == TUI_VIEW_STEP && t->anim_on && !skip_anim && (t->lab.step != before_step ||
	    tui_walk(t) != before_walk) && t->scene.n > 0) {
		/* keep the old scene as it was on screen; the move is planned
		 * once the new one is laid out */
		tui_finish_anim(t);
		scene_free(&t->anim_from);
		t->anim_from = t->scene;
		memset(&t->scene, 0, sizeof t->scene);
		t->anim_from_y = t->grid_y - t->scroll_y;
		t->anim_from_x = t->grid_x - t->scroll_x;
		t->anim_from_walk = before_walk;
		t->anim_from_step = before_step;
		t->anim_pending = true;
	}
}

bool
tui_tick(struct tui *t, double now)
{
	bool redraw = false;

	if (t->animating && !t->anim_paused) {
		int f = (int)((now - t->anim_start) * 30.0 + 1e-6);

		if (f != t->anim_frame) {
			t->anim_frame = f;
			redraw = true;
		}
		if (t->anim_frame >= TUI_ANIM_FRAMES) {
			tui_finish_anim(t);
			redraw = true;
		}
	}
	if (t->play_secs > 0 && now >= t->play_next && !t->animating) {
		const struct walk *before = tui_walk(t);
		int step = t->lab.step;

		t->play_next = now + t->play_secs;
		if (t->lab.step + 1 < tui_walk(t)->nsteps) {
			double secs = t->play_secs;

			t->play_secs = 0;       /* tui_key would take it as a key to stop */
			tui_key(t, KEY_RIGHT);
			t->play_secs = secs;
		} else {
			t->lab.step = 0;        /* loop */
		}
		redraw = redraw || step != t->lab.step || before != tui_walk(t);
	}
	return redraw;
}

/* ---- running on a terminal ----------------------------------------- */

static void
tui_on_signal(int sig)
{
	tui_signal = sig;
}

static void
tui_atexit(void)
{
	if (tui_active) {
		endwin();
		tui_active = false;
	}
}

/* After an Esc: true (and the rest swallowed) when more bytes follow at
 * once, which makes it an escape sequence curses did not know (a mouse
 * report with the mouse off, an odd function key) rather than the Esc key,
 * so that no stray byte of it is taken for a key and nothing quits.  A CSI
 * or SS3 sequence is read up to its final byte. */
static bool
tui_unknown_sequence(void)
{
	int ch;

	wtimeout(stdscr, 30);
	ch = getch();
	if (ch == '[' || ch == 'O') {
		int c;

		/* parameters and intermediates are 0x20-0x3f, the final byte
		 * 0x40-0x7e; the first byte after O is already final */
		do
			c = getch();
		while (ch == '[' && c != ERR && c >= 0x20 && c <= 0x3f);
	} else if (ch != ERR) {
		while (getch() != ERR)
			;
	}
	return ch != ERR;
}

/* Home and End as rxvt, tmux and the Linux console send them, which some
 * terminfo entries (xterm-256color inside tmux) do not list. */
static void
tui_define_keys(void)
{
	static const struct { const char *seq; int key; } extra[] = {
		{ "\033[1~", KEY_HOME }, { "\033[7~", KEY_HOME }, { "\033[H", KEY_HOME },
		{ "\033OH", KEY_HOME }, { "\033[4~", KEY_END }, { "\033[8~", KEY_END },
		{ "\033[F", KEY_END }, { "\033OF", KEY_END }, { "\033[Z", KEY_BTAB },
	};

	for (size_t i = 0; i < sizeof extra / sizeof extra[0]; i++)
		if (key_defined(extra[i].seq) == 0)
			define_key(extra[i].seq, extra[i].key);
}

static void
tui_exe_path(char *buf, size_t size)
{
	ssize_t n = readlink("/proc/self/exe", buf, size - 1);

	buf[n > 0 ? n : 0] = '\0';
}

/* The language from --lang, else the locale's (zh_* gives Chinese). */
static const char *
tui_lang(const struct options *o)
{
	static const char *const vars[] = { "LC_ALL", "LC_MESSAGES", "LANG" };

	if (o->lang && *o->lang)
		return o->lang;
	for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
		const char *v = getenv(vars[i]);

		if (v && *v)
			return strncmp(v, "zh", 2) == 0 ? "zh" : "en";
	}
	return "en";
}

int
tui_run(const struct walk *w, const struct options *o)
{
	static struct tui t;    /* large; and the signal path may exit from here */
	struct sigaction sa;
	SCREEN *screen;
	char exe[PATH_MAX], why[512], why_en[512];
	const char *term = getenv("TERM"), *lang, *cs, *cup;
	bool loaded;
	/* --record, or --keys with no terminal: on a pseudo-terminal (tui_script.c) */
	int relayed = tui_script_relay(o);

	if (relayed >= 0)
		return relayed;
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "headlab: the lab needs a terminal on stdin and stdout "
		        "(for text use --print or --trace)\n");
		return 2;
	}
	tui_exe_path(exe, sizeof exe);
	lang = tui_lang(o);
	loaded = text_load(lang, exe, why, sizeof why);
	if (!loaded && strcmp(lang, "en") != 0)
		text_load("en", exe, why_en, sizeof why_en); /* the warning says why */

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = tui_on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);

	screen = newterm(NULL, stdout, stdin);
	if (screen == NULL) {
		fprintf(stderr, "headlab: cannot drive terminal type '%s' (try TERM=xterm, or --print)\n",
		        term ? term : "");
		return 1;
	}
	cup = tigetstr("cup");
	if (cup == NULL || cup == (char *)-1) {
		/* TERM=dumb and other glass ttys: curses would scroll lines
		 * past instead of drawing a screen */
		endwin();
		delscreen(screen);
		fprintf(stderr, "headlab: terminal type '%s' cannot move the cursor, so the lab cannot "
		        "draw on it (try TERM=xterm, or --print)\n", term ? term : "");
		return 1;
	}
	tui_active = true;
	atexit(tui_atexit);
	raw();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	tui_define_keys();
	curs_set(0);
	set_escdelay(25);
	if (o->mouse) {
		mousemask(BUTTON1_PRESSED | BUTTON1_CLICKED, NULL);
		mouseinterval(0);
	}
	cs = nl_langinfo(CODESET);
	tui_init(&t, w, o->color != OPTIONS_COLOR_NEVER, cs && strcmp(cs, "UTF-8") == 0, o->theme);
	if (o->zoom > 0) {
		t.zoom = o->zoom > TUI_ZOOM_MAX ? TUI_ZOOM_MAX : o->zoom;
		t.zoom_auto = false;
	}
	/* remember where the walk came from, for : and [ ] */
	if (o->pattern)
		snprintf(t.pattern, sizeof t.pattern, "%s", o->pattern);
	if (o->preset && !o->pattern && w->kind == WALK_CUSTOM)
		t.preset = preset_find(o->preset);
	for (int i = 0; i < o->naxis && i < 16; i++)
		snprintf(t.axis_args[i], sizeof t.axis_args[i], "%.60s", o->axis[i]);
	t.naxis = o->naxis < 16 ? o->naxis : 16;
	if (!loaded)
		snprintf(t.warning, sizeof t.warning, "%s %s: %.150s", "no captions for", lang, why);
	if (o->quiz)
		tui_quiz_start(&t, o->seed, o->count ? o->count : QUIZ_KINDS);
	if (o->play > 0) {
		t.play_secs = o->play;
		t.play_next = tui_clock() + o->play;
	}

	tui_draw(&t);
	doupdate();
	if (o->keys)    /* --keys: the script instead of the keyboard (tui_script.c) */
		tui_script_play(&t, o->keys, &tui_signal);
	while (!o->keys && !t.lab.quit && !tui_signal) {
		int ch;
		double now;

		/* wake for the next animation frame or presenter step */
		wtimeout(stdscr, t.animating && !t.anim_paused ? 10 : t.play_secs > 0 ? 100 : 250);
		ch = getch();
		if (tui_signal)
			break;
		now = tui_clock();
		if (ch == ERR) {
			if (tui_tick(&t, now)) {
				tui_draw(&t);
				doupdate();
			}
			continue;
		}
		if (ch == 27 && tui_unknown_sequence())
			continue;
		if (ch == 26) {
			/* Ctrl-Z arrives as a key in raw mode: suspend as the
			 * shell would, curses restores the screen on return */
			endwin();
			raise(SIGTSTP);
			/* raise returns once the shell continues us (fg) */
			/* cppcheck-suppress unreachableCode */
			refresh();
		} else {
			tui_key(&t, ch);
		}
		tui_tick(&t, now);
		tui_draw(&t);
		doupdate();
	}
	endwin();
	tui_active = false;
	delscreen(screen);
	tui_free(&t);
	text_free();
	if (tui_signal) {
		int sig = tui_signal;

		signal(sig, SIG_DFL);
		raise(sig);
		return 128 + sig;
	}
	return 0;
}
