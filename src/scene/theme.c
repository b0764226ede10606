/* theme.c - the lab's colour themes, one row each.  Every text pair is
 * measured by tests/test_theme.c: 7:1 or more in the projector theme,
 * 4.5:1 in the others, on a black and on a white terminal where the
 * terminal's own background shows through; the selected cell's
 * background also stands 3:1 apart from the screen's. */
#include "theme.h"

#include <string.h>

#include "palette.h"

const struct theme theme_table[] = {
	{
		/* the lesson's blue and teal, then a palette; the accent and
		 * the dim grey are the few colours readable on black and on
		 * white; 8 colours have none, so those stay the terminal's.
		 * The selection is black on orange, lit cells white on
		 * purple: mid-tones that show on a black and a white screen */
		"default", true,
		{ { 25, 30, 90, 130, 28, 124, 61, 94 },
		  { 231, 16, 231, 231, 231, 231, 231, 231 },
		  THEME_DEFAULT, THEME_DEFAULT, 63, 243, 131, 16, 202, 231, 128 },
		{ { THEME_BLUE, THEME_CYAN, THEME_WHITE, THEME_YELLOW, THEME_GREEN, THEME_RED,
		    THEME_BLUE, THEME_BLACK },
		  { THEME_WHITE, THEME_BLACK, THEME_BLUE, THEME_BLACK, THEME_BLACK, THEME_WHITE,
		    THEME_YELLOW, THEME_YELLOW },
		  THEME_DEFAULT, THEME_DEFAULT, THEME_DEFAULT, THEME_DEFAULT, THEME_DEFAULT,
		  THEME_WHITE, THEME_RED, THEME_WHITE, THEME_BLUE },
		THEME_ATTR_NORMAL, THEME_ATTR_NORMAL,
	},
	{
		/* a black screen of its own, dark cells with white text and
		 * light ones with black, all 7:1 or more; bold, nothing dim:
		 * survives a washed-out projector.  The selection is a white
		 * block, lit cells pink (cyan on 8 colours) */
		"projector", true,
		{ { 19, 44, 90, 214, 22, 124, 54, 226 },
		  { 231, 16, 231, 16, 231, 231, 231, 16 },
		  231, 16, 45, THEME_DEFAULT, 210, 16, 231, 16, 218 },
		{ { THEME_BLUE, THEME_CYAN, THEME_WHITE, THEME_YELLOW, THEME_GREEN, THEME_BLACK,
		    THEME_BLACK, THEME_BLACK },
		  { THEME_WHITE, THEME_BLACK, THEME_BLUE, THEME_BLACK, THEME_BLACK, THEME_YELLOW,
		    THEME_CYAN, THEME_GREEN },
		  THEME_WHITE, THEME_BLACK, THEME_CYAN, THEME_DEFAULT, THEME_YELLOW,
		  THEME_BLACK, THEME_WHITE, THEME_BLACK, THEME_CYAN },
		THEME_ATTR_BOLD, THEME_ATTR_BOLD,
	},
	{
		/* Okabe and Ito's palette: distinct under deuteranopia and
		 * protanopia (blue, orange, bluish green, vermillion, sky blue,
		 * reddish purple, yellow, grey) */
		"colorblind", true,
		{ { 25, 214, 36, 166, 74, 175, 227, 244 },
		  { 231, 16, 16, 16, 16, 16, 16, 16 },
		  THEME_DEFAULT, THEME_DEFAULT, 63, 243, 131, 16, 202, 231, 128 },
		{ { THEME_BLUE, THEME_YELLOW, THEME_GREEN, THEME_RED, THEME_CYAN, THEME_BLUE,
		    THEME_WHITE, THEME_BLACK },
		  { THEME_WHITE, THEME_BLACK, THEME_BLACK, THEME_WHITE, THEME_BLACK, THEME_YELLOW,
		    THEME_BLACK, THEME_WHITE },
		  THEME_DEFAULT, THEME_DEFAULT, THEME_DEFAULT, THEME_DEFAULT, THEME_DEFAULT,
		  THEME_WHITE, THEME_RED, THEME_WHITE, THEME_BLUE },
		THEME_ATTR_NORMAL, THEME_ATTR_NORMAL,
	},
	{
		"mono", false,
		{ { 0 }, { 0 }, THEME_DEFAULT, THEME_DEFAULT, THEME_DEFAULT, THEME_DEFAULT,
		  THEME_DEFAULT, THEME_DEFAULT, THEME_DEFAULT, THEME_DEFAULT, THEME_DEFAULT },
		{ { 0 }, { 0 }, THEME_DEFAULT, THEME_DEFAULT, THEME_DEFAULT, THEME_DEFAULT,
		  THEME_DEFAULT, THEME_DEFAULT, THEME_DEFAULT, THEME_DEFAULT, THEME_DEFAULT },
		THEME_ATTR_NORMAL, THEME_ATTR_NORMAL,
	},
};

const size_t theme_count = sizeof theme_table / sizeof theme_table[0];

const char theme_names[] = "default, projector, colorblind, mono";

int
theme_find(const char *name)
{
	for (size_t i = 0; name && i < theme_count; i++)
		if (strcmp(theme_table[i].name, name) == 0)
			return (int)i;
	return -1;
}

const struct theme_colors *
theme_colors(const struct theme *th, int ncolors)
{
	return ncolors >= 256 ? &th->c256 : &th->c16;
}

short
theme_fg(const struct theme_colors *c, short fg)
{
	if (fg == THEME_DEFAULT)
		return c->screen_fg;
	return fg;
}

/* How far colour a stands from bg, the worse of a black and a white
 * terminal when bg is the terminal's own. */
static double
theme_contrast(short a, short bg)
{
	struct palette_rgb c = palette_xterm(a);

	if (bg != THEME_DEFAULT)
		return palette_contrast(c, palette_xterm(bg));
	double on_black = palette_contrast(c, palette_xterm(THEME_BLACK));
	double on_white = palette_contrast(c, palette_xterm(15));

	return on_black < on_white ? on_black : on_white;
}

bool
theme_bold_ok(short fg, short bg, double need)
{
	if (fg < 0 || fg >= 8)
		return true;
	return theme_contrast((short)(fg + 8), bg) >= need;
}

short
theme_bar(const struct theme_colors *c, int head)
{
	short own = c->cell_bg[head % THEME_NHEAD];

	if (own >= 0 && theme_contrast(own, c->screen_bg) >= 3.0)
		return own;
	return c->screen_fg;
}

void
theme_pair_table(const struct theme_colors *c, struct theme_pair out[THEME_NPAIRS])
{
	static const char *const heads[THEME_NHEAD] = {
		"head 0", "head 1", "head 2", "head 3", "head 4", "head 5", "head 6", "head 7",
	};
	static const char *const bars[THEME_NHEAD] = {
		"bar 0", "bar 1", "bar 2", "bar 3", "bar 4", "bar 5", "bar 6", "bar 7",
	};

	for (int h = 0; h < THEME_NHEAD; h++) {
		out[THEME_PAIR_HEAD + h] = (struct theme_pair){ heads[h], c->cell_fg[h], c->cell_bg[h] };
		out[THEME_PAIR_BAR + h] = (struct theme_pair){ bars[h], theme_bar(c, h), c->screen_bg };
	}
	out[THEME_PAIR_ACCENT] = (struct theme_pair){ "accent", theme_fg(c, c->accent), c->screen_bg };
	out[THEME_PAIR_DIM] = (struct theme_pair){ "dim", theme_fg(c, c->dim), c->screen_bg };
	out[THEME_PAIR_WRONG] = (struct theme_pair){ "wrong", theme_fg(c, c->wrong), c->screen_bg };
	out[THEME_PAIR_TEXT] = (struct theme_pair){ "text", c->screen_fg, c->screen_bg };
	out[THEME_PAIR_SELECT] = (struct theme_pair){ "selected", c->select_fg, c->select_bg };
	out[THEME_PAIR_LIT] = (struct theme_pair){ "lit", c->lit_fg, c->lit_bg };
}
