/* bigfont.h - digits drawn in blocks, for labels read from the back of a
 * room: one font per big zoom (4: 3x5, 5: 5x7, 6: 3x5 at twice the size),
 * and the cell box each zoom gives a label. */
#ifndef HEADLAB_BIGFONT_H
#define HEADLAB_BIGFONT_H

#include <stdbool.h>
#include <stdint.h>

#define BIGFONT_ZOOM_FIRST 4    /* the first zoom that draws big digits */
#define BIGFONT_ZOOM_LAST 6     /* the largest zoom of all */

struct bigfont {
	int w, h;               /* columns and lines of one digit */
	int gap;                /* blank columns between two digits */
	int scale;              /* columns and lines per dot of its glyphs */
	int glyph_h;            /* dots of a glyph down */
	const char *const *glyphs; /* digit n's dot row r at glyphs[n * glyph_h + r] */
};

/* The font zoom draws labels in; NULL below BIGFONT_ZOOM_FIRST and above
 * BIGFONT_ZOOM_LAST (labels are plain text there). */
const struct bigfont *bigfont_at(int zoom);

/* Whether column c (0..w-1) of line r (0..h-1) of ch is inked; characters
 * without a glyph, and places outside it, are blank. */
bool bigfont_ink(const struct bigfont *f, char ch, int r, int c);

/* Columns a label of n digits takes in f, the gaps between them included. */
int bigfont_label_w(const struct bigfont *f, int n);

/* The cell box a zoom gives labels of up to numel - 1: extra columns beside
 * the label's own text (*cell_pad) and lines per box (*cell_h, 1 for one
 * line); a big font's box keeps one column each side of its digits, two
 * before the head letter, and a line under them for the mates' marks. */
void bigfont_cell_box(int zoom, int64_t numel, int *cell_pad, int *cell_h);

/* Lettering for whole lines (presenter mode's code and shape): printable
 * ASCII in BIGFONT_TEXT_W x BIGFONT_TEXT_H dots, one blank column between
 * letters; capitals and digits on dot rows 0 to 4, small letters' bodies
 * on rows 1 to 4, descenders on row 5. */
#define BIGFONT_TEXT_W 3
#define BIGFONT_TEXT_H 6

/* Whether dot (r, c) of ch is inked in the lettering; characters outside
 * printable ASCII have no glyph. */
bool bigfont_text_ink(char ch, int r, int c);

/* Whether every character of s has a glyph in the lettering. */
bool bigfont_text_ok(const char *s);

/* Columns s takes in the lettering. */
int bigfont_text_w(const char *s);

#endif
