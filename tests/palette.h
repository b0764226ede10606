/* palette.h - the colours of xterm's 16- and 256-colour palettes, the
 * WCAG 2.x contrast between two of them, and the text pairs a theme draws:
 * what tests/test_theme.c measures the themes with. */
#ifndef HEADLAB_PALETTE_H
#define HEADLAB_PALETTE_H

struct palette_rgb {
	unsigned char r, g, b;
};

/* xterm's colour number color (0 to 255; out of range gives black):
 * 16 system colours, a 6x6x6 cube, 24 greys. */
struct palette_rgb palette_xterm(int color);

/* WCAG 2.x relative luminance, 0 (black) to 1 (white). */
double palette_luminance(struct palette_rgb c);

/* WCAG 2.x contrast ratio, 1 to 21, whichever is lighter. */
double palette_contrast(struct palette_rgb a, struct palette_rgb b);

/* One foreground on one background that carries text. */
struct palette_pair {
	const char *role;       /* "head 3", "accent", "selected", ... */
	short fg, bg;           /* colour numbers of the palette */
};


/* The text pairs theme name draws on an ncolors terminal whose default
 * background is colour bg (pairs in the terminal's own default colours
 * are left out).  Returns how many were written to out (at most max), or
 * -1 when name is no theme. */
int palette_theme_pairs(const char *name, int ncolors, short bg, struct palette_pair *out, int max);

#endif
