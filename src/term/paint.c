/* paint.c - the terminal layer's drawing primitives: clipped text, boxes,
 * wrapped paragraphs, and scenes cell by cell in the theme's colours. */
#include "screen.h"
#include "utf8.h"

#include <stdio.h>
#include <string.h>

#include "bigfont.h"
#include "utf8.h"

static const struct paint_glyphs paint_utf8_glyphs = {
	" \u203a ", "\u25b6", "\u2190\u2192", "\u2191\u2193", "\u2588", "\u2716", "\u25b6",
	"\u25c6", "\u2501", "\u2500", "[", "]", "\u22ee",
};
static const struct paint_glyphs paint_ascii_glyphs = {
	" > ", ">", "<-/->", "up/down", "#", "!", ">", "*", "=", "-", "[", "]", ":",
};

/* pairs on which A_BOLD would draw text too faint (paint_init_pair) */
static bool paint_no_bold[PAINT_PAIR_COUNT];

void
paint_init_pair(short pair, short fg, short bg)
{
	init_pair(pair, fg, bg);
	if (pair > 0 && pair < PAINT_PAIR_COUNT)
		paint_no_bold[pair] = !theme_bold_ok(fg, bg, 4.5);
}

/* attr as drawn on pair: without bold where bold would fade the text. */
static attr_t
paint_attr(attr_t attr, short pair)
{
	if (pair > 0 && pair < PAINT_PAIR_COUNT && paint_no_bold[pair])
		return attr & ~A_BOLD;
	return attr;
}

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

int
paint_put(int y, int x, int cols, attr_t attr, short pair, const char *s)
{
	int used;
	size_t n;

	if (y < 0 || y >= LINES || x < 0 || x >= COLS || cols <= 0)
		return 0;
	if (cols > COLS - x)
		cols = COLS - x;
	n = utf8_fit(s, cols, &used);
	attr_set(paint_attr(attr, pair), pair, NULL);
	mvaddnstr(y, x, s, (int)n);
	attr_set(A_NORMAL, 0, NULL);
	return used;
}

int
paint_text(int y, int x, int cols, attr_t attr, short pair, const char *s)
{
	char buf[4096];

	if (cols > COLS - x)
		cols = COLS - x;
	if (cols <= 0 || utf8_width(s) <= cols)
		return paint_put(y, x, cols, attr, pair, s);
	utf8_fit_ellipsis(buf, sizeof buf, s, cols, !utf8_locale());
	return paint_put(y, x, cols, attr, pair, buf);
}

void
paint_fill(int y, int x, int w, int h, attr_t attr, short pair)
{
	for (int j = 0; j < h; j++)
		for (int i = 0; i < w; i++)
			if (y + j >= 0 && y + j < LINES && x + i >= 0 && x + i < COLS)
				mvaddch(y + j, x + i, ' ' | paint_attr(attr, pair) | (chtype)COLOR_PAIR(pair));
}

int
paint_lettering(const struct tui *t, int y, int x, int cols, short pair, const char *s)
{
	return paint_lettering_attr(t, y, x, cols, A_NORMAL, pair, s);
}

int
paint_lettering_attr(const struct tui *t, int y, int x, int cols, attr_t attr, short pair, const char *s)
{
	static const char *const half[4] = { " ", "\u2584", "\u2580", "\u2588" };
	bool utf8 = t->lab.utf8;
	int per = utf8 ? 2 : 1, lines = BIGFONT_TEXT_H / per;
	size_t n = strlen(s);

	for (int l = 0; l < lines; l++) {
		char buf[4096];
		size_t used = 0;

		/* a letter is 4 columns of at most 3 bytes each */
		for (size_t i = 0; i < n && used + 16 < sizeof buf; i++) {
			for (int c = 0; c <= BIGFONT_TEXT_W; c++) {
				bool top = c < BIGFONT_TEXT_W && bigfont_text_ink(s[i], l * per, c);
				bool low = utf8 && c < BIGFONT_TEXT_W && bigfont_text_ink(s[i], l * per + 1, c);
				const char *g = utf8 ? half[top * 2 + low] : top ? "#" : " ";
				size_t gl = strlen(g);

				memcpy(buf + used, g, gl);
				used += gl;
			}
		}
		buf[used] = '\0';
		paint_put(y + l, x, cols, attr, pair, buf);
	}
	return lines;
}

int
paint_wrap(int y, int x, int cols, int maxlines, attr_t attr, short pair, const char *s)
{
	int lines = 0;

	while (*s && lines < maxlines && cols > 0) {
		const char *next;
		size_t cut;
		char line[1024];

		/* the line with the spaces at its break, as the layout counts it */
		utf8_wrap(s, cols, &next);
		cut = (size_t)(next - s);

		if (cut >= sizeof line)
			cut = sizeof line - 1;
		const char *rest = next;

		while (*rest == ' ')
			rest++;
		memcpy(line, s, cut);
		line[cut] = '\0';
		if (lines == maxlines - 1 && *rest) /* out of lines: say so, never cut silently */
			utf8_fit_ellipsis(line, sizeof line, s, cols, !utf8_locale());
		paint_put(y + lines, x, cols, attr, pair, line);
		lines++;
		s = next;
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

/* A cell's attributes.  The selected cell and lit cells carry more than
 * colour: bold and underlined, and brackets or a glyph beside them
 * (paint_cell); in colour they take the theme's own pairs rather than
 * reverse video, which turns a coloured cell into a hole on a light
 * terminal. */
static attr_t
paint_cell_attr(const struct tui *t, const struct scene_item *it)
{
	attr_t a = paint_theme_attr(paint_theme(t)->cell_attr);

	if (it->mark & SCENE_MARK_SELECTED)
		return a | A_BOLD | A_UNDERLINE | (t->color ? A_NORMAL : A_REVERSE);
	if (it->mark & SCENE_MARK_LIT)
		return a | A_BOLD | A_UNDERLINE | (t->color ? A_NORMAL : A_STANDOUT);
	if (it->mark & SCENE_MARK_HEADMATE)
		return a | A_BOLD | A_UNDERLINE;
	if (it->mark & SCENE_MARK_POSMATE)
		return a | A_UNDERLINE;
	return a;
}

/* A cell's colour pair: the selection's or the lit cells' own, else its
 * head's. */
static short
paint_cell_pair(const struct tui *t, const struct scene_item *it)
{
	if (t->color && (it->mark & SCENE_MARK_SELECTED))
		return PAINT_PAIR_SELECT;
	if (t->color && (it->mark & SCENE_MARK_LIT))
		return PAINT_PAIR_LIT;
	return paint_head_pair(t, it->head);
}

/* The font a zoomed cell's label is drawn in: the zoom's big digits when
 * its box is tall enough for them, else none. */
static const struct bigfont *
paint_cell_font(const struct tui *t, const struct scene_item *it)
{
	const struct bigfont *f = bigfont_at(t->lab.zoom);

	if (lab_3d_shown(&t->lab))
		return NULL;    /* the block's boxes are sized for plain labels */
	return f && it->height >= f->h ? f : NULL;
}

/* A label's big digits from (y, bx), the head letters on their last line
 * at the box's right edge, and the mate mark on the line under them, never
 * on them: an underline would cross the digits' strokes. */
static void
paint_big_label(const struct tui *t, const struct bigfont *f, const struct scene_item *it, int y,
                int x, const char *label, const char *tag, attr_t attr, short pair)
{
	int n = (int)strlen(label), lw = bigfont_label_w(f, n), tw = (int)strlen(tag);
	int bx = x + (it->width - tw - lw) / 2;

	for (int r = 0; r < f->h; r++)
		for (int i = 0; i < n; i++)
			for (int c = 0; c < f->w; c++)
				paint_put(y + r, bx + i * (f->w + f->gap) + c, 1, attr & ~A_UNDERLINE, pair,
				          bigfont_ink(f, label[i], r, c) ? paint_glyphs(t)->block : " ");
	paint_put(y + f->h - 1, x + it->width - tw, tw, attr & ~A_UNDERLINE, pair, tag);
	if (it->height > f->h && (it->mark & (SCENE_MARK_HEADMATE | SCENE_MARK_POSMATE)))
		for (int c = 0; c < lw; c++)
			paint_put(y + f->h, bx + c, 1, attr & A_BOLD, pair,
			          it->mark & SCENE_MARK_HEADMATE ? paint_glyphs(t)->mark_head
			                                         : paint_glyphs(t)->mark_pos);
}

/* A zoomed cell's label: in its zoom's big digits (paint_big_label) when
 * the box holds them, else centred in its box. */
static void
paint_cell_label(const struct tui *t, const struct scene_item *it, int y, int x, attr_t attr,
                 short pair)
{
	const struct bigfont *f = paint_cell_font(t, it);
	char label[32], tag[16], text[48];
	const char *p = it->text;
	int w;

	/* split "12ab" into its label and its head letters */
	while (*p == ' ')
		p++;
	snprintf(label, sizeof label, "%.*s", (int)strspn(p, "0123456789"), p);
	snprintf(tag, sizeof tag, "%s", p + strlen(label));
	tag[strcspn(tag, " ")] = '\0';   /* a 3D box's text is padded to its width */
	if (t->color || (attr & A_REVERSE))
		paint_fill(y, x, it->width, it->height, attr & (A_REVERSE | A_BOLD), pair);
	if (f) {
		paint_big_label(t, f, it, y, x, label, tag, attr, pair);
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
	short pair = paint_cell_pair(t, it);
	const struct paint_glyphs *g = paint_glyphs(t);
	bool line = it->height == 1 && it->width == scene_text_width(it->text);
	int mid = y + (it->height - 1) / 2;
	int lead = (int)strspn(it->text, " "), w = scene_text_width(it->text + lead);
	size_t end = strlen(it->text);
	bool big = paint_cell_font(t, it) != NULL;
	/* the selection's brackets hug the label (" 4a" gives " [4a]", a
	 * box's centred label the same); big digits' stand beside the box */
	int open, close;

	while (end > (size_t)lead && it->text[end - 1] == ' ')
		end--;          /* a quiz's hidden " ? " ends at its "?" */
	w -= (int)(strlen(it->text) - end);
	/* a box's label is centred without its padding (paint_cell_label) */
	open = big ? x - 1 : line ? x + lead - 1 : x + (it->width - w + 1) / 2 - 1;
	close = big ? x + it->width : open + 1 + w;

	if (y < clip->y || y + it->height > clip->y + clip->h || x < clip->x ||
	    x + it->width > clip->x + clip->w)
		return;
	/* the column left of a cell is a gap between cells: the wrong mark,
	 * else the lit glyph, else the selection's bracket; a lit label's
	 * own padding takes its glyph when the selection does not need it,
	 * so that a selected neighbour's bracket leaves it alone */
	if (it->mark & SCENE_MARK_WRONG)
		paint_put(mid, x - 1, 1, A_BOLD, paint_pair(t, PAINT_PAIR_WRONG), g->wrong);
	else if ((it->mark & SCENE_MARK_LIT) && (!line || lead == 0 || (it->mark & SCENE_MARK_SELECTED)))
		paint_put(mid, x - 1, 1, A_BOLD, paint_pair(t, PAINT_PAIR_ACCENT), g->lit);
	if (line) {
		paint_put(y, x, it->width, attr, pair, it->text);
		if ((it->mark & SCENE_MARK_LIT) && !(it->mark & SCENE_MARK_SELECTED) && lead > 0)
			paint_put(y, x + lead - 1, 1, A_BOLD, paint_pair(t, PAINT_PAIR_ACCENT), g->lit);
	} else {
		paint_cell_label(t, it, y, x, attr, pair);
	}
	if (it->mark & SCENE_MARK_SELECTED) {
		if (open >= x || !(it->mark & (SCENE_MARK_WRONG | SCENE_MARK_LIT)))
			paint_put(mid, open, 1, A_BOLD, pair, g->select_open);
		if (close < clip->x + clip->w) {
			short close_pair = pair;

			if (close >= x + it->width)
				close_pair = 0;
			paint_put(mid, close, 1, A_BOLD, close_pair, g->select_close);
		}
	}
}

int
paint_mark_swatch(const struct tui *t, const struct scene_item *it, int y, int x)
{
	attr_t attr = paint_cell_attr(t, it);
	short pair = paint_head_pair(t, it->head);
	const char *p = it->text;
	int w;

	while (*p == ' ')
		p++;
	w = (int)strlen(p);
	if (bigfont_at(t->lab.zoom) == NULL) {
		paint_put(y, x, w, attr, pair, p);
		return w;
	}
	paint_put(y, x, w, attr & ~A_UNDERLINE, pair, p);
	for (int c = 0; c < 2; c++)
		paint_put(y, x + w + 1 + c, 1, attr & A_BOLD, pair,
		          it->mark & SCENE_MARK_HEADMATE ? paint_glyphs(t)->mark_head
		                                         : paint_glyphs(t)->mark_pos);
	return w + 3;
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
	case SCENE_BAR:
		/* solid glyphs in a colour that shows on the screen, the
		 * partial eighth's rest the screen itself */
		pair = (short)(t->color && it->head >= 0 ? PAINT_PAIR_BAR + it->head % THEME_NHEAD : 0);
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
paint_moves(const struct tui *t, const struct anim *a, const struct lab_rect *clip)
{
	struct scene frame = { 0 };
	struct lab_place at = { 0, 0, *clip };

	/* the frame is a whole picture, cells and chrome, in screen coordinates */
	if (anim_frame(a, t->lab.glide.frame, &frame))
		paint_scene(t, &frame, &at, true);
	scene_free(&frame);
}
