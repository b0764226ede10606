/* bigfont.c - block digits for the big zooms: a 3x5 and a 5x7 font, the
 * first also at twice its size, and the cell box each zoom gives; and a
 * 3x6 lettering of printable ASCII for presenter mode's code and shape. */
#include "bigfont.h"

#include <stddef.h>
#include <string.h>

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

/* The lettering, ' ' to '~': six dot rows per glyph, each a digit whose
 * bits 4, 2 and 1 are its left, middle and right dots; capitals and digits
 * on rows 0 to 4, small letters' bodies on rows 1 to 4. */
static const char *const bigfont_text[95] = {
	"000000", "222020", "550000", "575750", "362360", "512450", "252530", "220000",
	"122210", "422240", "052500", "027200", "000224", "007000", "000020", "112440",
	"755570", "262270", "717470", "713170", "557110", "747170", "747570", "711220",
	"757570", "757170", "020200", "020240", "124210", "070700", "421240", "713020",
	"257430", "257550", "656560", "344430", "655560", "747470", "747440", "345530",
	"557550", "722270", "111520", "556550", "444470", "577550", "577750", "255520",
	"656440", "255730", "656550", "342160", "722220", "555570", "555220", "557750",
	"552550", "552220", "712470", "644460", "442110", "311130", "250000", "000070",
	"420000", "035530", "465560", "034430", "135530", "037430", "127220", "035316",
	"465550", "206270", "101116", "456650", "622270", "077550", "065550", "025520",
	"065564", "035531", "034440", "034160", "272210", "055530", "055520", "055770",
	"052250", "055316", "073470", "324230", "222220", "621260", "017400",
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

bool
bigfont_text_ink(char ch, int r, int c)
{
	unsigned char u = (unsigned char)ch;

	if (u < ' ' || u > '~' || r < 0 || r >= BIGFONT_TEXT_H || c < 0 || c >= BIGFONT_TEXT_W)
		return false;
	return (bigfont_text[u - ' '][r] - '0') & (4 >> c);
}

bool
bigfont_text_ok(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < ' ' || (unsigned char)*s > '~')
			return false;
	return true;
}

int
bigfont_text_w(const char *s)
{
	size_t n = strlen(s);

	return n ? (int)n * (BIGFONT_TEXT_W + 1) - 1 : 0;
}
