/* tui.c - the lab on a terminal: colours, glyphs, layout of the screen,
 * keys, mouse, resize and signals.  The only file that includes curses. */
#include "tui.h"

#include <curses.h>
#include <errno.h>
#include <langinfo.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wchar.h>

#include "print.h"
#include "text.h"

enum {
	TUI_PAIR_HEAD = 1,      /* pairs 1..TUI_NHEAD: head colours */
	TUI_NHEAD = 8,
	TUI_PAIR_ACCENT = TUI_PAIR_HEAD + TUI_NHEAD,
	TUI_PAIR_DIM,
};

#define TUI_LINEAGE_W 38

struct tui_glyphs {
	const char *step_sep;   /* between steps in the step bar */
	const char *marker;     /* the current step in the lineage panel */
	const char *arrows;     /* "left/right" in the hint line */
	const char *updown;
	const char *hline;
};

static const struct tui_glyphs tui_utf8_glyphs = { " \u203a ", "\u25b6", "\u2190\u2192", "\u2191\u2193", "\u2500" };
static const struct tui_glyphs tui_ascii_glyphs = { " > ", ">", "<-/->", "up/down", "-" };

static volatile sig_atomic_t tui_signal;
static bool tui_active;

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

/* Bytes of s that fit in cols columns. */
static size_t
tui_fit(const char *s, int cols, int *used)
{
	mbstate_t st;
	size_t len = strlen(s), off = 0;
	int w = 0;

	memset(&st, 0, sizeof st);
	while (off < len) {
		wchar_t wc;
		size_t r = mbrtowc(&wc, s + off, len - off, &st);
		int cw;

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

	if (y < 0 || y >= LINES || x < 0 || x >= COLS)
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
tui_colors(struct tui *t)
{
	/* 256-colour blues and teals as in the lesson, then a palette; the
	 * 8-colour fallback keeps the same order */
	static const short c256[TUI_NHEAD] = { 25, 30, 90, 130, 28, 124, 61, 94 };
	static const short c8[TUI_NHEAD] = {
		COLOR_BLUE, COLOR_CYAN, COLOR_MAGENTA, COLOR_YELLOW,
		COLOR_GREEN, COLOR_RED, COLOR_BLUE, COLOR_CYAN,
	};
	static const short fg8[TUI_NHEAD] = {
		COLOR_WHITE, COLOR_BLACK, COLOR_WHITE, COLOR_BLACK,
		COLOR_BLACK, COLOR_WHITE, COLOR_YELLOW, COLOR_YELLOW,
	};

	if (!t->color || !has_colors() || start_color() == ERR) {
		t->color = false;
		return;
	}
	use_default_colors();
	for (int i = 0; i < TUI_NHEAD; i++) {
		if (COLORS >= 256)
			init_pair((short)(TUI_PAIR_HEAD + i), COLOR_WHITE, c256[i]);
		else
			init_pair((short)(TUI_PAIR_HEAD + i), fg8[i], c8[i]);
	}
	init_pair(TUI_PAIR_ACCENT, COLORS >= 256 ? 33 : COLOR_BLUE, -1);
	init_pair(TUI_PAIR_DIM, COLORS >= 16 ? 8 : COLOR_WHITE, -1);
}

void
tui_init(struct tui *t, const struct walk *w, bool color, bool utf8)
{
	memset(t, 0, sizeof *t);
	t->walk = w;
	t->color = color;
	t->utf8 = utf8;
	lab_init(&t->lab, w);
	tui_colors(t);
}

void
tui_free(struct tui *t)
{
	scene_free(&t->scene);
}

static short
tui_head_pair(const struct tui *t, int64_t head)
{
	return t->color ? (short)(TUI_PAIR_HEAD + head % TUI_NHEAD) : 0;
}

/* The title line: what x is, how it is split, and which step this is. */
static void
tui_draw_title(struct tui *t)
{
	const struct walk *w = t->walk;
	char buf[256], right[64];
	int n;

	snprintf(buf, sizeof buf, " headlab  x[%lld,%lld,%lld] %s %lld head%s of d=%lld%s",
	         (long long)w->batch, (long long)w->positions, (long long)w->width,
	         t->utf8 ? "\u2192" : "->", (long long)w->heads, w->heads == 1 ? "" : "s",
	         (long long)w->head_width, w->kind != WALK_LESSON ? "  BUG: " : "");
	if (w->kind != WALK_LESSON)
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s", w->kind_name);
	snprintf(right, sizeof right, "step %d/%d ", t->lab.step + 1, w->nsteps);
	n = tui_put(0, 0, COLS - (int)strlen(right) - 1, A_BOLD, 0, buf);
	(void)n;
	tui_put(0, COLS - (int)strlen(right), (int)strlen(right), A_BOLD, 0, right);
}

/* The step bar: group names over their steps, the current one reversed. */
static void
tui_draw_steps(struct tui *t, int y)
{
	const struct walk *w = t->walk;
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
			tui_put(y, x + 1, COLS - x - 1, A_BOLD, t->color ? TUI_PAIR_ACCENT : 0, group);
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
tui_wrap(int y, int x, int cols, int maxlines, attr_t attr, const char *s)
{
	int lines = 0;

	while (*s && lines < maxlines && cols > 0) {
		int used;
		size_t n = tui_fit(s, cols, &used);
		char line[1024];

		if (s[n] != '\0') {
			size_t cut = n;

			while (cut > 0 && s[cut] != ' ')
				cut--;
			if (cut > 0)
				n = cut;
		}
		if (n == 0)
			n = 1;
		if (n >= sizeof line)
			n = sizeof line - 1;
		memcpy(line, s, n);
		line[n] = '\0';
		tui_put(y + lines, x, cols, attr, 0, line);
		lines++;
		s += n;
		while (*s == ' ')
			s++;
	}
	return lines;
}

/* Caption, code, shape and strides of the current step. */
static int
tui_draw_caption(struct tui *t, int y)
{
	const struct walk *w = t->walk;
	const struct walk_step *s = &w->steps[t->lab.step];
	char key[64], caption[1024], shape[200], strides[200], line[512];
	int x;

	snprintf(key, sizeof key, "caption.%s.%s", w->kind_name, s->name);
	text_format(caption, sizeof caption, key, "", w);
	if (caption[0])
		y += tui_wrap(y, 1, COLS - 2, 2, A_NORMAL, caption);
	x = 1 + tui_put(y, 1, COLS - 2, A_BOLD, t->color ? TUI_PAIR_ACCENT : 0, s->code);
	tui_put(y, x + 3, COLS - x - 4, A_NORMAL, 0, print_step_effect(w, t->lab.step));
	y++;
	scene_format_shape(s, shape, sizeof shape);
	print_format_strides(strides, sizeof strides, s);
	snprintf(line, sizeof line, "%s  strides %s  %s", shape, strides,
	         layout_is_contiguous(&s->view) ? "contiguous" : "not contiguous");
	tui_put(y, 1, COLS - 2, A_NORMAL, 0, line);
	return y + 1;
}

static attr_t
tui_cell_attr(const struct scene_item *it)
{
	if (it->mark & SCENE_MARK_SELECTED)
		return A_REVERSE | A_BOLD;
	if (it->mark & SCENE_MARK_HEADMATE)
		return A_BOLD | A_UNDERLINE;
	if (it->mark & SCENE_MARK_POSMATE)
		return A_UNDERLINE;
	return A_NORMAL;
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
	if (it->y - top + 1 > t->grid_h)
		top = it->y - t->grid_h + 1;
	if (t->scroll_y > top)
		t->scroll_y = top;
	if (it->y >= t->scroll_y + t->grid_h)
		t->scroll_y = it->y - t->grid_h + 1;
	left = it->panel_x;
	if (it->x + it->width + 1 - left > t->grid_w)
		left = it->x + it->width + 1 - t->grid_w;
	if (t->scroll_x > left)
		t->scroll_x = left;
	if (it->x + it->width + 1 > t->scroll_x + t->grid_w)
		t->scroll_x = it->x + it->width + 1 - t->grid_w;
}

static void
tui_draw_grid(struct tui *t)
{
	for (size_t i = 0; i < t->scene.n; i++) {
		const struct scene_item *it = &t->scene.items[i];
		int y = it->y - t->scroll_y, x = it->x - t->scroll_x;
		attr_t attr = A_NORMAL;
		short pair = 0;

		if (y < 0 || y >= t->grid_h || x < 0 || x + it->width > t->grid_w)
			continue;
		switch (it->style) {
		case SCENE_CELL:
			attr = tui_cell_attr(it);
			pair = tui_head_pair(t, it->head);
			if (!t->color && attr == A_NORMAL && it->head % 2 == 1)
				attr = A_NORMAL;
			break;
		case SCENE_AXIS:
		case SCENE_TITLE:
			attr = A_BOLD;
			break;
		case SCENE_RULE:
		case SCENE_ELLIPSIS:
			pair = t->color ? TUI_PAIR_DIM : 0;
			break;
		case SCENE_PLAIN:
			break;
		}
		tui_put(t->grid_y + y, t->grid_x + x, it->width, attr, pair, it->text);
	}
}

static void
tui_index_text(char *buf, size_t size, const int64_t *index, int rank)
{
	size_t used = 0;

	buf[0] = '\0';
	used += (size_t)snprintf(buf, size, "[");
	for (int i = 0; i < rank && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%lld", i ? "," : "",
		                         (long long)index[i]);
	if (used < size)
		snprintf(buf + used, size - used, "]");
}

/* The selected cell's index at every step, the current one marked. */
static void
tui_draw_lineage(struct tui *t, int y, int x, int w)
{
	const struct walk *wk = t->walk;
	int64_t b, pos, head, index[LAYOUT_MAX_RANK], off;
	char buf[256], idx[128];

	walk_label_origin(wk, t->lab.selected, &b, &pos, &head);
	snprintf(buf, sizeof buf, "label %lld: position %lld, head %lld", (long long)t->lab.selected,
	         (long long)pos, (long long)head);
	if (wk->batch > 1)
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), ", batch %lld", (long long)b);
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
	snprintf(buf, sizeof buf, "here at %s, storage offset %lld", idx, (long long)off);
	tui_put(y + 1, x, w, A_NORMAL, 0, buf);
}

/* The lineage in two lines, for screens where the grid needs the room. */
static void
tui_draw_lineage_compact(struct tui *t, int y, int x, int w)
{
	const struct walk *wk = t->walk;
	int64_t b, pos, head, index[LAYOUT_MAX_RANK], off;
	char buf[256], idx[128];
	int cx = x;

	walk_label_origin(wk, t->lab.selected, &b, &pos, &head);
	walk_find(wk, t->lab.step, t->lab.selected, index, &off);
	tui_index_text(idx, sizeof idx, index, wk->steps[t->lab.step].view.rank);
	snprintf(buf, sizeof buf, "label %lld: position %lld, head %lld", (long long)t->lab.selected,
	         (long long)pos, (long long)head);
	if (wk->batch > 1)
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), ", batch %lld", (long long)b);
	cx += tui_put(y, cx, w, A_BOLD, tui_head_pair(t, head), buf);
	snprintf(buf, sizeof buf, "  here %s, storage offset %lld", idx, (long long)off);
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

static void
tui_build_scene(struct tui *t, int width)
{
	struct scene_opts so;

	scene_opts_default(&so);
	so.utf8 = t->utf8;
	so.width = width;
	so.selected = t->lab.selected;
	so.has_focus = walk_find(t->walk, t->lab.step, t->lab.selected, so.focus, NULL);
	scene_build(&t->scene, t->walk, t->lab.step, &so);
}

static void
tui_draw_body(struct tui *t, int top, int bottom)
{
	int height = bottom - top, lineage_h = t->walk->nsteps + 3;
	int side_w = COLS - TUI_LINEAGE_W - 4;

	t->grid_y = top;
	t->grid_x = 1;
	/* the lineage beside the grid when both fit, under it when the
	 * grid is wide, beside a scrolled grid otherwise */
	tui_build_scene(t, side_w > 20 ? side_w : COLS - 2);
	if (side_w > 20 && t->scene.width <= side_w) {
		t->grid_w = side_w;
		t->grid_h = height;
		tui_draw_lineage(t, top, COLS - TUI_LINEAGE_W - 1, TUI_LINEAGE_W);
	} else {
		tui_build_scene(t, COLS - 2);
		t->grid_w = COLS - 2;
		if (t->scene.height + 1 + lineage_h <= height) {
			t->grid_h = t->scene.height;
			tui_draw_lineage(t, top + t->scene.height + 1, 1, COLS - 2);
		} else if (height - lineage_h - 1 >= 12) {
			t->grid_h = height - lineage_h - 1;
			tui_draw_lineage(t, top + t->grid_h + 1, 1, COLS - 2);
		} else {
			t->grid_h = height - 3;
			tui_draw_lineage_compact(t, top + t->grid_h + 1, 1, COLS - 2);
		}
	}
	tui_follow(t);
	tui_draw_grid(t);
}

static void
tui_draw_status(struct tui *t)
{
	const struct tui_glyphs *g = tui_glyphs(t);
	char buf[256];
	int y = LINES - 1;

	if (t->lab.typed[0]) {
		snprintf(buf, sizeof buf, " jump to label: %s_   Enter jumps, Esc cancels", t->lab.typed);
		tui_put(y, 0, COLS, A_BOLD, 0, buf);
	} else if (t->lab.message[0]) {
		tui_put(y, 1, COLS - 1, A_BOLD, 0, t->lab.message);
	} else if (t->warning[0]) {
		tui_put(y, 1, COLS - 1, A_BOLD, 0, t->warning);
	} else {
		snprintf(buf, sizeof buf, " %s step  hjkl %s move  0-9 Enter jump  Tab next  ? help  q quit",
		         g->arrows, g->updown);
		tui_put(y, 0, COLS, t->color ? A_NORMAL : A_NORMAL, t->color ? TUI_PAIR_DIM : 0, buf);
	}
}

static void
tui_draw_help(struct tui *t)
{
	static const char *const lines[] = {
		"headlab keys",
		"",
		"Left Right PgUp PgDn   previous / next step",
		"Backspace Space p n    previous / next step (clickers)",
		"Home End               first / last step",
		"h j k l, Up Down       move the selected cell",
		"Shift+arrows           move the selected cell",
		"0-9 then Enter         jump to a label (try 4)",
		"Tab Shift+Tab          next / previous label",
		"mouse click            select the cell under it",
		"Ctrl-L                 redraw the screen",
		"? or any key           close this help",
		"q Esc Ctrl-C           quit",
	};
	int n = (int)(sizeof lines / sizeof lines[0]), w = 58, h = n + 2;
	int y0 = (LINES - h) / 2, x0 = (COLS - w) / 2;

	if (y0 < 0)
		y0 = 0;
	if (x0 < 0)
		x0 = 0;
	for (int y = 0; y < h && y0 + y < LINES; y++) {
		move(y0 + y, x0);
		for (int x = 0; x < w && x0 + x < COLS; x++)
			addch(' ' | A_REVERSE);
	}
	for (int i = 0; i < n; i++)
		tui_put(y0 + 1 + i, x0 + 2, w - 4, A_REVERSE | (i == 0 ? A_BOLD : A_NORMAL), 0,
		        lines[i]);
}

static void
tui_draw_small(void)
{
	char buf[96];
	int len;

	snprintf(buf, sizeof buf, "terminal too small: need %dx%d", TUI_MIN_COLS, TUI_MIN_LINES);
	len = (int)strlen(buf);
	if (len > COLS)
		len = COLS;
	tui_put(LINES / 2, (COLS - len) / 2, COLS, A_BOLD, 0, buf);
}

void
tui_draw(struct tui *t)
{
	int y;

	erase();
	if (COLS < TUI_MIN_COLS || LINES < TUI_MIN_LINES) {
		t->grid_w = t->grid_h = 0;
		tui_draw_small();
		wnoutrefresh(stdscr);
		return;
	}
	tui_draw_title(t);
	tui_draw_steps(t, 1);
	y = tui_draw_caption(t, 3);
	tui_draw_body(t, y + 1, LINES - 1);
	tui_draw_status(t);
	if (t->lab.help)
		tui_draw_help(t);
	wnoutrefresh(stdscr);
}

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

void
tui_key(struct tui *t, int ch)
{
	enum lab_action a = LAB_NONE;
	MEVENT ev;

	if (t->lab.help && ch != KEY_RESIZE && ch != KEY_MOUSE && ch != ERR) {
		/* any key closes the help overlay; the quit keys also quit */
		t->lab.help = false;
		if (ch == 'q' || ch == 3)
			t->lab.quit = true;
		return;
	}
	if (ch >= '0' && ch <= '9') {
		lab_digit(&t->lab, ch - '0');
		return;
	}
	t->warning[0] = '\0';
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
	case 27: a = LAB_CANCEL; break;
	case '?': a = LAB_HELP; break;
	case 'q': case 3: a = LAB_QUIT; break;
	case 12: clearok(curscr, TRUE); break;
	case KEY_MOUSE:
		if (getmouse(&ev) == OK && (ev.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)))
			tui_click(t, ev.y, ev.x);
		return;
	default: break;
	}
	lab_act(&t->lab, a, &t->scene);
}

/* After an Esc: true (and the rest swallowed) when more bytes follow at
 * once, which makes it an escape sequence curses did not know rather than
 * the Esc key, so an odd key never quits the lab. */
static bool
tui_unknown_sequence(void)
{
	int ch;

	nodelay(stdscr, TRUE);
	ch = getch();
	if (ch != ERR)
		while (getch() != ERR)
			;
	wtimeout(stdscr, 250);
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

static void
tui_exe_path(char *buf, size_t size)
{
	ssize_t n = readlink("/proc/self/exe", buf, size - 1);

	buf[n > 0 ? n : 0] = '\0';
}

int
tui_run(const struct walk *w, const struct options *o)
{
	struct tui t;
	struct sigaction sa;
	SCREEN *screen;
	char exe[PATH_MAX], why[512];
	const char *term = getenv("TERM");
	bool color, loaded;
	const char *cs;

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "headlab: the lab needs a terminal on stdin and stdout "
		        "(for text use --print or --trace)\n");
		return 2;
	}
	tui_exe_path(exe, sizeof exe);
	loaded = text_load("en", exe, why, sizeof why);

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
	tui_active = true;
	atexit(tui_atexit);
	raw();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	tui_define_keys();
	curs_set(0);
	set_escdelay(25);
	wtimeout(stdscr, 250);
	if (o->mouse) {
		mousemask(BUTTON1_PRESSED | BUTTON1_CLICKED, NULL);
		mouseinterval(0);
	}
	color = o->color == OPTIONS_COLOR_ALWAYS || o->color == OPTIONS_COLOR_AUTO;
	cs = nl_langinfo(CODESET);
	tui_init(&t, w, color, cs && strcmp(cs, "UTF-8") == 0);
	if (!loaded)
		snprintf(t.warning, sizeof t.warning, "no captions: %.180s", why);

	tui_draw(&t);
	doupdate();
	while (!t.lab.quit && !tui_signal) {
		int ch = getch();

		if (tui_signal)
			break;
		if (ch == ERR)
			continue;
		if (ch == 27 && tui_unknown_sequence())
			continue;
		if (ch == 26) {
			/* Ctrl-Z arrives as a key in raw mode: suspend as the
			 * shell would, curses restores the screen on return */
			endwin();
			raise(SIGTSTP);
			refresh();
		} else {
			tui_key(&t, ch);
		}
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
