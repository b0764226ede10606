/* bigfont.c - a 3x5 digit font. */
#include "bigfont.h"

static const char *const bigfont_digits[10][BIGFONT_H] = {
	{ "###", "# #", "# #", "# #", "###" },
	{ " # ", "## ", " # ", " # ", "###" },
	{ "###", "  #", "###", "#  ", "###" },
	{ "###", "  #", " ##", "  #", "###" },
	{ "# #", "# #", "###", "  #", "  #" },
	{ "###", "#  ", "###", "  #", "###" },
	{ "###", "#  ", "###", "# #", "###" },
	{ "###", "  #", "  #", " # ", " # " },
	{ "###", "# #", "###", "# #", "###" },
	{ "###", "# #", "###", "  #", "###" },
};

const char *
bigfont_row(char ch, int r)
{
	if (ch < '0' || ch > '9' || r < 0 || r >= BIGFONT_H)
		return "   ";
	return bigfont_digits[ch - '0'][r];
}
