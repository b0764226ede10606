/* bigfont.c - block digits for the big zooms: a 3x5 and a 5x7 font, the
 * first also at twice its size, and the cell box each zoom gives. */
#include "bigfont.h"

#include <stddef.h>

static const char *const bigfont_3x5[10 * 5] = {
	"###", "# #", "# #", "# #", "###",
	" # ", "## ", " # ", " # ", "###",
	"###", "  #", "###", "#  ", "###",
	"###", "  #", " ##", "  #", "###",
	"# #", "# #", "###", "  #", "  #",
	"###", "#  ", "###", "  #", "###",
	"###", "#  ", "###", "# #", "###",
	"###", "  #", "  #", " # ", " # ",
	"###", "# #", "###", "# #", "###",
	"###", "# #", "###", "  #", "###",
};

static const char *const bigfont_5x7[10 * 7] = {
	" ### ", "#   #", "#   #", "#   #", "#   #", "#   #", " ### ",
	"  #  ", " ##  ", "  #  ", "  #  ", "  #  ", "  #  ", " ### ",
	" ### ", "#   #", "    #", "   # ", "  #  ", " #   ", "#####",
	" ### ", "#   #", "    #", "  ## ", "    #", "#   #", " ### ",
	"   # ", "  ## ", " # # ", "#  # ", "#####", "   # ", "   # ",
	"#####", "#    ", "#### ", "    #", "    #", "#   #", " ### ",
	" ### ", "#    ", "#    ", "#### ", "#   #", "#   #", " ### ",
	"#####", "    #", "   # ", "  #  ", "  #  ", "  #  ", "  #  ",
	" ### ", "#   #", "#   #", " ### ", "#   #", "#   #", " ### ",
	" ### ", "#   #", "#   #", " ####", "    #", "    #", " ### ",
};

/* zoom 4, 5 and 6 */
static const struct bigfont bigfont_fonts[BIGFONT_ZOOM_LAST - BIGFONT_ZOOM_FIRST + 1] = {
	{ 3, 5, 1, 1, 5, bigfont_3x5 },
	{ 5, 7, 1, 1, 7, bigfont_5x7 },
	{ 6, 10, 2, 2, 5, bigfont_3x5 },
};

const struct bigfont *
bigfont_at(int zoom)
{
	if (zoom < BIGFONT_ZOOM_FIRST || zoom > BIGFONT_ZOOM_LAST)
		return NULL;
	return &bigfont_fonts[zoom - BIGFONT_ZOOM_FIRST];
}

bool
bigfont_ink(const struct bigfont *f, char ch, int r, int c)
{
	if (ch < '0' || ch > '9' || r < 0 || r >= f->h || c < 0 || c >= f->w)
		return false;
	return f->glyphs[(ch - '0') * f->glyph_h + r / f->scale][c / f->scale] == '#';
}

int
bigfont_label_w(const struct bigfont *f, int n)
{
	return n > 0 ? n * (f->w + f->gap) - f->gap : 0;
}

void
bigfont_cell_box(int zoom, int64_t numel, int *cell_pad, int *cell_h)
{
	const struct bigfont *f = bigfont_at(zoom);
	int numw = 1;

	*cell_pad = 0;
	*cell_h = 1;
	if (zoom == 2) {
		*cell_pad = 2;
	} else if (zoom == 3) {
		*cell_pad = 4;
		*cell_h = 3;
	} else if (f) {
		for (int64_t v = numel - 1; v >= 10; v /= 10)
			numw++;
		if (numw < 2)
			numw = 2;       /* as the scene: labels take two columns or more */
		/* the box holds numw + its head letter + the pad: one column
		 * before the digits, two after them */
		*cell_pad = bigfont_label_w(f, numw) + 3 - numw;
		*cell_h = f->h + 1;     /* the last line holds the mate marks */
	}
}
