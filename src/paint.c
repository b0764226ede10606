/* paint.c - the terminal layer's drawing primitives: clipped text, boxes,
 * wrapped paragraphs, and scenes cell by cell in the theme's colours. */
#include "screen.h"
#include "utf8.h"

#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "bigfont.h"

static const struct paint_glyphs paint_utf8_glyphs = {
	" \u203a ", "\u25b6", "\u2190\u2192", "\u2191\u2193", "\u2588", "\u2716", "\u25b6",
	"\u25c6",
};
static const struct paint_glyphs paint_ascii_glyphs = {
	" > ", ">", "<-/->", "up/down", "#", "!", ">", "*",
};

const struct paint_glyphs *
paint_glyphs(const struct tui *t)
{
	return t->lab.utf8 ? &paint_utf8_glyphs : &paint_ascii_glyphs;
}

const struct theme *
paint_theme(const struct tui *t)
{
	return &theme_table[t->lab.theme];
}

static attr_t
paint_theme_attr(enum theme_attr a)
{
	return a == THEME_ATTR_BOLD ? A_BOLD : A_NORMAL;
}

/* Bytes of s that fit in cols columns, never splitting a character. */
static size_t
paint_fit(const char *s, int cols, int *used)
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

int
paint_put(int y, int x, int cols, attr_t attr, short pair, const char *s)
{
	int used;
	size_t n;

	if (y < 0 || y >= LINES || x < 0 || x >= COLS || cols <= 0)
		return 0;
	if (cols > COLS - x)
		cols = COLS - x;
	n = paint_fit(s, cols, &used);
	attr_set(attr, pair, NULL);
	mvaddnstr(y, x, s, (int)n);
	attr_set(A_NORMAL, 0, NULL);
	return used;
}

void
paint_fill(int y, int x, int w, int h, attr_t attr, short pair)
{
	for (int j = 0; j < h; j++)
		for (int i = 0; i < w; i++)
			if (y + j >= 0 && y + j < LINES && x + i >= 0 && x + i < COLS)
				mvaddch(y + j, x + i, ' ' | attr | (chtype)COLOR_PAIR(pair));
}

int
paint_wrap(int y, int x, int cols, int maxlines, attr_t attr, short pair, const char *s)
{
	int lines = 0;

	while (*s && lines < maxlines && cols > 0) {
		size_t cut = lab_layout_wrap_cut(s, cols);
		char line[1024];

		const char *rest = s + cut;

		while (*rest == ' ')
			rest++;
		memcpy(line, s, cut);
		line[cut] = '\0';
		if (lines == maxlines - 1 && *rest) /* out of lines: say so, never cut silently */
			utf8_fit_ellipsis(line, sizeof line, s, cols, !utf8_locale());
		paint_put(y + lines, x, cols, attr, pair, line);
		lines++;
		s += cut;
		while (*s == ' ')
			s++;
	}
	return lines;
}

void
paint_box(int h, int w, int *y0, int *x0)
{
	*y0 = (LINES - h) / 2;
	*x0 = (COLS - w) / 2;
	if (*y0 < 0)
		*y0 = 0;
	if (*x0 < 0)
		*x0 = 0;
	paint_fill(*y0, *x0, w, h, A_REVERSE, 0);
}

void
paint_lines_box(const char *const *lines, int n, int w)
{
	int y0, x0;

	paint_box(n + 2, w, &y0, &x0);
	for (int i = 0; i < n; i++)
		paint_put(y0 + 1 + i, x0 + 2, w - 4, A_REVERSE | (i == 0 ? A_BOLD : A_NORMAL), 0, lines[i]);
}

short
paint_head_pair(const struct tui *t, int64_t head)
{
	return (short)(t->color && head >= 0 ? PAINT_PAIR_HEAD + head % THEME_NHEAD : 0);
}

short
paint_accent(const struct tui *t)
{
	return t->color ? PAINT_PAIR_ACCENT : 0;
}

short
paint_pair(const struct tui *t, short pair)
{
	return (short)(t->color ? pair : 0);
}

static attr_t
paint_cell_attr(const struct tui *t, const struct scene_item *it)
{
	attr_t a = paint_theme_attr(paint_theme(t)->cell_attr);

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

/* A zoomed cell's label: in big digits at the largest zoom, else centred
 * in its box. */
static void
paint_cell_label(const struct tui *t, const struct scene_item *it, int y, int x, attr_t attr,
                 short pair)
{
	char label[32], tag[16], text[48];
	const char *p = it->text;
	int w;

	/* split "12ab" into its label and its head letters */
	while (*p == ' ')
		p++;
	snprintf(label, sizeof label, "%.*s", (int)strspn(p, "0123456789"), p);
	snprintf(tag, sizeof tag, "%s", p + strlen(label));
	if (t->color || (attr & A_REVERSE))
		paint_fill(y, x, it->width, it->height, attr & (A_REVERSE | A_BOLD), pair);
	if (t->lab.zoom >= LAB_ZOOM_MAX && it->height >= BIGFONT_H) {
		int n = (int)strlen(label), bx = x + (it->width - (int)strlen(tag) - n * (BIGFONT_W + 1) + 1) / 2;

		for (int r = 0; r < BIGFONT_H; r++)
			for (int i = 0; i < n; i++) {
				const char *row = bigfont_row(label[i], r);

				for (int c = 0; c < BIGFONT_W; c++)
					paint_put(y + r, bx + i * (BIGFONT_W + 1) + c, 1, attr, pair,
					          row[c] == '#' ? paint_glyphs(t)->block : " ");
			}
		paint_put(y + it->height - 1, x + it->width - (int)strlen(tag), (int)strlen(tag), attr,
		          pair, tag);
		return;
	}
	snprintf(text, sizeof text, "%s%s", label, tag);
	w = (int)strlen(text);
	paint_put(y + (it->height - 1) / 2, x + (it->width - w + 1) / 2, w, attr, pair, text);
}

void
paint_cell(const struct tui *t, const struct lab_rect *clip, const struct scene_item *it, int y,
           int x)
{
	attr_t attr = paint_cell_attr(t, it);
	short pair = paint_head_pair(t, it->head);

	if (y < clip->y || y + it->height > clip->y + clip->h || x < clip->x ||
	    x + it->width > clip->x + clip->w)
		return;
	if (it->mark & SCENE_MARK_WRONG)
		paint_put(y + (it->height - 1) / 2, x - 1, 1, A_BOLD, paint_pair(t, PAINT_PAIR_WRONG),
		          paint_glyphs(t)->wrong);
	else if (it->mark & SCENE_MARK_LIT)
		paint_put(y + (it->height - 1) / 2, x - 1, 1, A_BOLD, paint_pair(t, PAINT_PAIR_ACCENT),
		          paint_glyphs(t)->lit);
	if (it->height == 1 && it->width == scene_text_width(it->text)) {
		paint_put(y, x, it->width, attr, pair, it->text);
		return;
	}
	paint_cell_label(t, it, y, x, attr, pair);
}

static void
paint_item(const struct tui *t, const struct lab_rect *clip, const struct scene_item *it, int y,
           int x)
{
	attr_t attr = A_NORMAL;
	short pair = 0;

	if (y < clip->y || y >= clip->y + clip->h || x < clip->x || x + it->width > clip->x + clip->w)
		return;
	switch (it->style) {
	case SCENE_CELL:
		paint_cell(t, clip, it, y, x);
		return;
	case SCENE_AXIS:
		attr = A_BOLD;
		break;
	case SCENE_TITLE:
		attr = A_BOLD;
		pair = (short)(it->group >= 0 ? paint_pair(t, PAINT_PAIR_ACCENT) : 0);
		break;
	case SCENE_RULE:
		attr = paint_theme_attr(paint_theme(t)->rule_attr);
		pair = paint_pair(t, PAINT_PAIR_DIM);
		break;
	case SCENE_ELLIPSIS:
	case SCENE_MASKED:
		pair = paint_pair(t, PAINT_PAIR_DIM);
		break;
	case SCENE_SCORE:
		attr = A_BOLD;
		pair = paint_head_pair(t, it->head);
		break;
	case SCENE_PLAIN:
		break;
	}
	paint_put(y, x, it->width, attr, pair, it->text);
}

void
paint_scene(const struct tui *t, const struct scene *sc, const struct lab_place *at, bool cells)
{
	for (size_t i = 0; i < sc->n; i++) {
		const struct scene_item *it = &sc->items[i];

		if (it->style == SCENE_CELL && !cells)
			continue;
		paint_item(t, &at->clip, it, at->y + it->y, at->x + it->x);
	}
}

void
paint_moves(const struct tui *t, const struct anim *a, const struct lab_rect *clip,
            bool selected_last)
{
	const struct anim_move *selected = NULL;
	int frame = t->lab.anim_frame, y, x;

	for (size_t i = 0; i < a->n; i++) {
		const struct anim_move *m = &a->moves[i];

		if (m->appears && frame < LAB_ANIM_FRAMES)
			continue;
		if (selected_last && (m->to->mark & SCENE_MARK_SELECTED)) {
			selected = m;
			continue;
		}
		anim_at(m, frame, LAB_ANIM_FRAMES, &y, &x);
		paint_cell(t, clip, m->to, y, x);
	}
	if (selected) {
		/* drawn last: on top of every other cell */
		anim_at(selected, frame, LAB_ANIM_FRAMES, &y, &x);
		paint_cell(t, clip, selected->to, y, x);
	}
}
