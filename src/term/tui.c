/* tui.c - the lab on a terminal, in the manner of ncdu's main: one mode,
 * one switch.  A key (decoded here from curses' codes and mouse reports)
 * goes to the topmost overlay that takes keys, else to the mode's screen;
 * a frame is laid out (lab_layout), then the mode's screen, the overlays
 * and the status line paint it in the theme's colour pairs. */
#include "tui.h"

#include <string.h>
#include <unistd.h>

#include "term_guard.h"

/* indexed by enum lab_mode */
#define TUI_MODE_SCREEN(NAME, name) [LAB_MODE_##NAME] = &screen_##name,
static const struct screen *const tui_modes[LAB_MODE_COUNT] = {
	[LAB_MODE_STEP] = &screen_step, LAB_MODES(TUI_MODE_SCREEN)
};
#undef TUI_MODE_SCREEN

/* indexed by enum lab_overlay */
static const struct screen *const tui_overlays[] = {
	&screen_numbers, &screen_prompt, &screen_menu, &screen_note, &screen_help,
};

/* Load the colour pairs of the lab's theme (colour off when the theme or
 * the terminal has none). */
static void
tui_colors(struct tui *t)
{
	const struct theme *th = &theme_table[t->lab.theme];
	const struct theme_colors *c;
	struct theme_pair pairs[THEME_NPAIRS];

	t->colors_for = t->lab.theme;
	bkgd(' ');
	if (!th->color)
		t->color = false;
	if (!t->color || !has_colors() || start_color() == ERR) {
		t->color = false;
		return;
	}
	use_default_colors();
	c = theme_colors(th, COLORS);
	theme_pair_table(c, pairs);
	for (int i = 0; i < THEME_NPAIRS; i++)
		paint_init_pair((short)(1 + i), pairs[i].fg, pairs[i].bg);
	if (c->screen_bg != THEME_DEFAULT)
		bkgd(' ' | COLOR_PAIR(PAINT_PAIR_TEXT)); /* a theme with a screen of its own */
}

/* A mouse report curses only half read (the mouse is off, so getmouse
 * refuses it): drop the rest, "0;14;18M" of SGR or the three bytes of
 * X10, so that none of it is taken for keys. */
static void
tui_swallow_mouse_report(int seq_ms)
{
	int c;

	wtimeout(stdscr, seq_ms);
	c = getch();
	if (c >= '0' && c <= '9') {
		while (c != ERR && c != 'M' && c != 'm')
			c = getch();
	} else if (c != ERR) {
		getch();
		getch();
	}
}

/* What getch() returned as a key of the lab; mouse reports are read (or
 * swallowed, waiting seq_ms for the rest of one) here. */
static struct keys_event
tui_decode(int ch, int seq_ms)
{
	static const struct { int curses, key; } map[] = {
		{ KEY_LEFT, KEYS_LEFT }, { KEY_RIGHT, KEYS_RIGHT }, { KEY_UP, KEYS_UP },
		{ KEY_DOWN, KEYS_DOWN }, { KEY_SLEFT, KEYS_SLEFT }, { KEY_SRIGHT, KEYS_SRIGHT },
		{ KEY_SR, KEYS_SUP }, { KEY_SF, KEYS_SDOWN }, { KEY_HOME, KEYS_HOME },
		{ KEY_END, KEYS_END }, { KEY_DC, KEYS_DELETE }, { KEY_PPAGE, KEYS_PGUP }, { KEY_NPAGE, KEYS_PGDN },
		{ KEY_BACKSPACE, KEYS_BACKSPACE }, { 127, KEYS_BACKSPACE }, { 8, KEYS_BACKSPACE },
		{ KEY_ENTER, KEYS_ENTER }, { '\r', KEYS_ENTER }, { '\n', KEYS_ENTER },
		{ KEY_BTAB, KEYS_BTAB }, { KEY_RESIZE, KEYS_RESIZE }, { ERR, KEYS_NONE },
	};
	struct keys_event ev = { KEYS_OTHER, 0, 0 };
	MEVENT me;

	for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
		if (map[i].curses == ch) {
			ev.key = map[i].key;
			return ev;
		}
	if (ch == KEY_MOUSE) {
		ev.key = KEYS_MOUSE;
		if (getmouse(&me) != OK) {
			tui_swallow_mouse_report(seq_ms);
		} else if (me.bstate & TUI_WHEEL_LEFT) {
			ev.key = KEYS_WHEEL_LEFT;
		} else if (me.bstate & TUI_WHEEL_RIGHT) {
			ev.key = KEYS_WHEEL_RIGHT;
		} else if (me.bstate & BUTTON4_PRESSED) {
			ev.key = (me.bstate & BUTTON_SHIFT) ? KEYS_WHEEL_LEFT : KEYS_WHEEL_UP;
		} else if (me.bstate & TUI_WHEEL_DOWN) {
			ev.key = (me.bstate & BUTTON_SHIFT) ? KEYS_WHEEL_RIGHT : KEYS_WHEEL_DOWN;
		} else if (me.bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)) {
			ev.key = KEYS_CLICK;
			ev.y = me.y;
			ev.x = me.x;
		}
	} else if (ch >= 0 && ch < 128) {
		ev.key = ch;
	}
	return ev;
}

int
tui_getch(struct tui *t)
{
	int ch = getch(), lines, cols, real_lines, real_cols;

	if (!term_guard_resized(STDOUT_FILENO, &lines, &cols, &real_lines, &real_cols))
		return ch;
	resizeterm(lines, cols);
	t->real_lines = real_lines > lines || real_cols > cols ? real_lines : 0;
	t->real_cols = t->real_lines ? real_cols : 0;
	if (ch != ERR && ch != KEY_RESIZE)
		ungetch(ch);    /* read after the resize */
	return KEY_RESIZE;
}

const char *
tui_curses_version(void)
{
	return curses_version();
}

void
tui_init(struct tui *t, const struct walk *w, bool color, bool utf8, const char *theme)
{
	int i = theme ? theme_find(theme) : 0;

	memset(t, 0, sizeof *t);
	t->seq_ms = 30;
	lab_init(&t->lab, w, utf8, i >= 0 ? i : 0);
	t->color = color;
	tui_colors(t);
}

void
tui_free(struct tui *t)
{
	lab_free(&t->lab);
}

/* Lay the frame out for the terminal as it is now. */
static void
tui_layout(struct tui *t)
{
	lab_layout(&t->lab, COLS, LINES);
}

/* Keys and clicks act on the frame every key's redraw laid out; laid out
 * again only when there is none yet for this terminal's size (scenes of
 * large walks are not built twice per key). */
static void
tui_frame_current(struct tui *t)
{
	if (t->lab.frame.cols != COLS || t->lab.frame.lines != LINES)
		tui_layout(t);
}

int
tui_key(struct tui *t, int ch)
{
	struct keys_event ev = tui_decode(ch, t->seq_ms);
	int r = SCREEN_IGNORED;

	if (ev.key == KEYS_RESIZE) {
		lab_resize(&t->lab);
		return SCREEN_HANDLED | SCREEN_REDRAW;
	}
	if (ev.key == KEYS_NONE)
		return SCREEN_IGNORED;
	if (lab_stop_play(&t->lab))
		return SCREEN_HANDLED | SCREEN_REDRAW; /* any key takes the show over */
	tui_frame_current(t);
	/* the overlays from the top, then the mode's screen, until one
	 * takes the key (the numbers panel takes none) */
	for (int i = t->lab.noverlays - 1; i >= 0 && !(r & SCREEN_HANDLED); i--) {
		const struct screen *s = tui_overlays[t->lab.overlays[i]];

		if (s->key)
			r |= s->key(t, &ev);
	}
	if (!(r & SCREEN_HANDLED))
		r |= tui_modes[t->lab.mode]->key(t, &ev);
	if (t->lab.theme != t->colors_for) {
		/* a theme asked for by name shows its colours */
		t->color = true;
		tui_colors(t);
		r |= SCREEN_REDRAW;
	}
	return r;
}

int
tui_paste(struct tui *t, const char *text, size_t len, size_t whole)
{
	lab_stop_play(&t->lab);  /* a paste takes the show over, as a key does */
	tui_frame_current(t);
	lab_paste(&t->lab, text, len, whole);
	return SCREEN_HANDLED | SCREEN_REDRAW;
}

bool
tui_tick(struct tui *t, double now)
{
	return lab_tick(&t->lab, now);
}

void
tui_draw(struct tui *t)
{
	const struct tui *ct = t;

	erase();
	tui_layout(t);
	if (t->lab.frame.small) {
		screen_small_draw();
		curs_set(0);
		wnoutrefresh(stdscr);
		return;
	}
	/* from here on the state is only read */
	if (tui_modes[ct->lab.mode]->chrome)
		tui_modes[ct->lab.mode]->chrome(ct);
	else
		screen_chrome_draw(ct);
	tui_modes[ct->lab.mode]->draw(ct);
	if (lab_overlay_shown(&ct->lab, LAB_OVERLAY_NUMBERS))
		screen_numbers.draw(ct);
	if (tui_modes[ct->lab.mode]->status)
		tui_modes[ct->lab.mode]->status(ct);
	else
		screen_status_draw(ct);
	for (int i = 0; i < ct->lab.noverlays; i++)
		if (ct->lab.overlays[i] != LAB_OVERLAY_NUMBERS)
			tui_overlays[ct->lab.overlays[i]]->draw(ct);
	if (ct->real_lines)
		screen_oversize_draw(ct);
	/* a prompt on top shows the terminal's cursor where typing goes */
	curs_set(lab_overlay_modal(&ct->lab) == LAB_OVERLAY_PROMPT ? 1 : 0);
	wnoutrefresh(stdscr);
}

