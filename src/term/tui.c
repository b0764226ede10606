/* tui.c - the lab's main loop on a terminal, in the manner of ncdu's: one
 * mode, one switch.  A key goes to the topmost overlay that takes keys,
 * else to the mode's screen; a frame is laid out (lab_layout), then the
 * mode's screen, the overlays and the status line paint it. */
#include "screen.h"

#include <string.h>

/* indexed by enum lab_mode */
static const struct screen *const tui_modes[LAB_MODE_COUNT] = {
	&screen_step, &screen_compare, &screen_bugs, &screen_scores, &screen_quiz,
	&screen_attention,
};

/* indexed by enum lab_overlay */
static const struct screen *const tui_overlays[] = {
	&screen_numbers, &screen_prompt, &screen_menu, &screen_note, &screen_help,
};

const char *
tui_curses_version(void)
{
	return curses_version();
}

bool
tui_theme_known(const char *name)
{
	return theme_find(name) >= 0;
}

void
tui_init(struct tui *t, const struct walk *w, bool color, bool utf8, const char *theme)
{
	int i = theme ? theme_find(theme) : 0;

	memset(t, 0, sizeof *t);
	lab_init(&t->lab, w, utf8, i >= 0 ? i : 0);
	t->color = color;
	term_colors(t);
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
	struct keys_event ev = term_decode(ch);
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
		term_colors(t);
		r |= SCREEN_REDRAW;
	}
	return r;
}

void
tui_click(struct tui *t, int y, int x)
{
	tui_frame_current(t);
	lab_click(&t->lab, y, x);
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
	screen_chrome_draw(ct);
	tui_modes[ct->lab.mode]->draw(ct);
	if (lab_overlay_shown(&ct->lab, LAB_OVERLAY_NUMBERS))
		screen_numbers.draw(ct);
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

void
tui_quiz_start(struct tui *t, uint64_t seed, int count)
{
	lab_quiz_start(&t->lab, seed, count);
}

void
tui_finish_anim_for_tests(struct tui *t)
{
	lab_finish_anim(&t->lab);
}
