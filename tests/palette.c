/* palette.c - xterm colours and WCAG contrast ratios. */
#include "palette.h"

#include "theme.h"

#include <math.h>

struct palette_rgb
palette_xterm(int color)
{
	/* xterm's defaults for the system colours (XTerm-col.ad) */
	static const struct palette_rgb sys[16] = {
		{ 0x00, 0x00, 0x00 }, { 0xcd, 0x00, 0x00 }, { 0x00, 0xcd, 0x00 }, { 0xcd, 0xcd, 0x00 },
		{ 0x00, 0x00, 0xee }, { 0xcd, 0x00, 0xcd }, { 0x00, 0xcd, 0xcd }, { 0xe5, 0xe5, 0xe5 },
		{ 0x7f, 0x7f, 0x7f }, { 0xff, 0x00, 0x00 }, { 0x00, 0xff, 0x00 }, { 0xff, 0xff, 0x00 },
		{ 0x5c, 0x5c, 0xff }, { 0xff, 0x00, 0xff }, { 0x00, 0xff, 0xff }, { 0xff, 0xff, 0xff },
	};
	static const unsigned char level[6] = { 0, 95, 135, 175, 215, 255 };
	struct palette_rgb c = { 0, 0, 0 };

	if (color >= 0 && color < 16) {
		c = sys[color];
	} else if (color >= 16 && color < 232) {
		int i = color - 16;

		c.r = level[i / 36];
		c.g = level[i / 6 % 6];
		c.b = level[i % 6];
	} else if (color >= 232 && color < 256) {
		c.r = c.g = c.b = (unsigned char)(8 + 10 * (color - 232));
	}
	return c;
}

/* One sRGB channel, linearised as WCAG 2.x says. */
static double
palette_linear(unsigned char v)
{
	double s = v / 255.0;

	return s <= 0.03928 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4);
}

double
palette_luminance(struct palette_rgb c)
{
	return 0.2126 * palette_linear(c.r) + 0.7152 * palette_linear(c.g) +
	       0.0722 * palette_linear(c.b);
}

double
palette_contrast(struct palette_rgb a, struct palette_rgb b)
{
	double la = palette_luminance(a), lb = palette_luminance(b);

	return la > lb ? (la + 0.05) / (lb + 0.05) : (lb + 0.05) / (la + 0.05);
}

int
palette_theme_pairs(const char *name, int ncolors, short bg, struct palette_pair *out, int max)
{
	static const char *const heads[THEME_NHEAD] = {
		"head 0", "head 1", "head 2", "head 3", "head 4", "head 5", "head 6", "head 7",
	};
	int i = theme_find(name);
	const struct theme_colors *c;
	struct palette_pair all[THEME_NHEAD + 6];
	short screen;
	int n = 0, kept = 0;

	if (i < 0)
		return -1;
	if (!theme_table[i].color)
		return 0;
	c = theme_colors(&theme_table[i], ncolors);
	screen = c->screen_bg;
	if (screen == THEME_DEFAULT)
		screen = bg;
	for (int h = 0; h < THEME_NHEAD; h++)
		all[n++] = (struct palette_pair){ heads[h], c->cell_fg[h], c->cell_bg[h] };
	all[n++] = (struct palette_pair){ "text", c->screen_fg, screen };
	all[n++] = (struct palette_pair){ "accent", theme_fg(c, c->accent), screen };
	all[n++] = (struct palette_pair){ "dim", theme_fg(c, c->dim), screen };
	all[n++] = (struct palette_pair){ "wrong", theme_fg(c, c->wrong), screen };
	all[n++] = (struct palette_pair){ "selected", c->select_fg, c->select_bg };
	all[n++] = (struct palette_pair){ "lit", c->lit_fg, c->lit_bg };
	for (int k = 0; k < n; k++)
		if (all[k].fg != THEME_DEFAULT && all[k].bg != THEME_DEFAULT && kept < max)
			out[kept++] = all[k];
	return kept;
}
