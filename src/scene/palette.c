/* palette.c - xterm colours and WCAG contrast ratios. */
#include "palette.h"

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
