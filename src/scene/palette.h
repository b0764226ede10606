/* palette.h - the colours of xterm's 16- and 256-colour palettes and the
 * WCAG 2.x contrast between two of them.  No curses here. */
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

#endif
