/* export_anim.h - the whole walk as one SVG picture that plays by itself
 * (walk.svg), and the same picture still at one step, for the course page
 * (export_html.c).
 *
 * The motion is the lab's: a reel (reel.h) of every step at rest and of
 * the frames anim_plan and anim_frame (or anim3d_frame) give each glide,
 * turned into SMIL animations that need no script, so the picture plays in
 * an <img> tag and inline alike: every cell a group that travels through
 * its frame positions, every piece of chrome shown at the frames that draw
 * it, each step's code, shape and caption as text.  A renderer without
 * SMIL (rsvg-convert, print) shows the first step at rest. */
#ifndef HEADLAB_EXPORT_ANIM_H
#define HEADLAB_EXPORT_ANIM_H

#include <stdbool.h>
#include <stdio.h>

#include "export.h"
#include "reel.h"
#include "theme.h"

#define EXPORT_ANIM_SECONDS 3.0 /* a step and its glide, unless --play says */

/* The colours of a theme on a page: "#rrggbb" each. */
struct export_anim_colors {
	char bg[8], fg[8], muted[8], dim[8], accent[8], wrong[8], code_bg[8];
	char sel_fg[8], sel_bg[8];
	char head_bg[THEME_NHEAD][8], head_fg[THEME_NHEAD][8], head_edge[THEME_NHEAD][8];
	bool dark;              /* a dark page (the projector's black screen) */
	bool bold;              /* the theme draws cells bold */
};

/* A walk's picture, laid out: the reel and where everything goes. */
struct export_anim {
	struct reel r;
	const struct walk *w;
	const struct export_opts *o;
	struct export_anim_colors col;
	double step_s, hold_s;  /* seconds per step, of which the cells rest */
	double cw, lh;          /* px per column and per line of the reel */
	int font;               /* px, the cells' text */
	double width, height;   /* px */
	double grid_x, grid_y;  /* px: where column r.x0 and line r.y0 are drawn */
	double head_h;          /* px the step's header takes */
	int caption_cols;       /* columns a caption wraps at */
	bool captions;          /* the header holds the caption (a page shows its own) */
	bool focusable;         /* cells take the keyboard focus (the page's player) */
};

/* Lay out w's picture with o (its selection, theme, pace, view, and the
 * captions of the loaded caption file when captions and o->captions);
 * false when memory ran out. */
bool export_anim_begin(struct export_anim *a, const struct walk *w, const struct export_opts *o,
                       bool captions);
void export_anim_end(struct export_anim *a);

/* Draw the picture to out: animated and looping when still < 0, else slot
 * still at rest with no animation.  inline_svg leaves out the XML
 * declaration, for a page. */
void export_anim_draw(FILE *out, const struct export_anim *a, int still, bool inline_svg);

/* What step k is called on a button and in a header, in the loaded
 * language: "input", "reshape", "swap", ... */
const char *export_anim_step_name(const struct walk *w, int k);

/* walk.svg: w's picture, animated. */
bool export_anim_render(FILE *out, const struct walk *w, const struct export_opts *o);

/* index.html (export_html.c). */
bool export_html_render(FILE *out, const struct walk *w, const struct export_opts *o);

#endif
