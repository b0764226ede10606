/* export_format.h - what an export format implements, and what the format
 * files (export_txt.c, export_md.c, export_svg.c) share: the step they
 * render and the scene read back as panels, rows and columns.  Not for
 * use outside export*.c; the API is export.h.
 *
 * A format is a row of export_formats[] in export.c: its extension and its
 * render function.  Adding one is a new file with that function, a row,
 * and its name in enum export_format. */
#ifndef HEADLAB_EXPORT_FORMAT_H
#define HEADLAB_EXPORT_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "facts.h"
#include "scene.h"
#include "walk.h"

enum export_format {
	EXPORT_TXT,             /* plain UTF-8 text, the grid as --print draws it */
	EXPORT_ANSI,            /* the same with ANSI colours per head */
	EXPORT_MD,              /* Markdown: one table per panel */
	EXPORT_SVG,             /* a standalone SVG 1.1 picture */
	EXPORT_NFORMATS,
};

#define EXPORT_FILES_PER_STEP EXPORT_NFORMATS
#define EXPORT_MANIFEST "headlab-manifest.txt"

struct export_opts {
	bool utf8;              /* box-drawing and ellipsis glyphs in the text files; the
	                         * scene measures them in LC_CTYPE, which must be UTF-8 */
	int width;              /* columns the text grid flows into, as --print's 80 */
	bool captions;          /* add the step's caption from the loaded caption file */
	const char *caption;    /* this caption instead (the lab's current one), or NULL;
	                         * meant for export_step, used for every step rendered */
	int64_t selected;       /* a label to outline (SVG) and embolden (Markdown), or -1 */
	bool view3d;            /* the SVG draws the step's 3D block (export_svg3d.c) */
	/* the whole walk (export_walk): walk.svg and index.html */
	const char *theme;      /* their colours: a theme of theme.c by name; NULL: default */
	double step_seconds;    /* seconds per step, its glide included; 0: 3 */
	const char *lang;       /* the language the caption file holds ("en", "zh"); NULL: en */
	const char *exe;        /* this program, for text_load to find the other language's
	                         * captions for index.html; NULL: the page has one language */
};

#define EXPORT_LEGEND_MAX 16    /* heads named in a legend, at most */

/* One panel of a scene: the box its items fill, in scene coordinates. */
struct export_box {
	int y0, x0;             /* top-left: its title line, or its column header */
	int top;                /* first line of cells; the column header is above */
	int y1, x1;             /* one past the last line and column (the right rule) */
};

/* A scene with its items sorted for lookups and its panels found. */
struct export_grid {
	const struct scene *sc;
	const struct scene_item **order; /* by line, then column */
	struct export_box *boxes;        /* in reading order */
	size_t nbox;
};

/* Everything a format renders one step from. */
struct export_step_ctx {
	FILE *out;
	const struct walk *w;
	int k;                          /* the step */
	const struct scene *sc;         /* its scene, as --print draws it */
	const struct export_grid *g;    /* the scene's panels */
	const struct facts *f;          /* what is said about the step */
	const struct export_opts *o;
};

/* A format: its file extension (no dot) and how it renders a step; the
 * render function returns false when memory ran out. */
struct export_format_row {
	const char *ext;
	bool (*render)(const struct export_step_ctx *c);
};

bool export_txt_render(const struct export_step_ctx *c);
bool export_ansi_render(const struct export_step_ctx *c);
bool export_md_render(const struct export_step_ctx *c);
bool export_svg_render(const struct export_step_ctx *c);

/* Markdown: s as text with Markdown's characters escaped, and as inline
 * code (export_md.c). */
void export_md(FILE *out, const char *s);
void export_md_code(FILE *out, const char *s);

/* Sort sc's items and gather its panels; false when memory ran out. */
bool export_grid_init(struct export_grid *g, const struct scene *sc);
void export_grid_free(struct export_grid *g);

/* Index of the first item at or after (y, x) in reading order. */
size_t export_grid_seek(const struct export_grid *g, int y, int x);

/* The item of style style that starts at (y, x), or NULL. */
const struct scene_item *export_grid_at(const struct export_grid *g, int y, int x,
                                        enum scene_style style);

/* Whether line y holds an item of style style in columns [x0, x1). */
bool export_grid_has(const struct export_grid *g, int y, int x0, int x1, enum scene_style style);

/* Whether (y, x) lies inside one of the grid's panels. */
bool export_box_holds(const struct export_grid *g, int y, int x);

/* The heads the scene's cells come from, sorted, in a new array (NULL
 * when memory runs out); *n is their count. */
int64_t *export_heads(const struct scene *sc, int *n);

/* What a head letter stands for: "head", or "group" for a pattern's. */
const char *export_head_noun(const struct walk *w);

/* Copy s without its leading and trailing spaces. */
void export_trim(char *buf, size_t size, const char *s);

#endif
