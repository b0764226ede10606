/* theme.c - the lab's colour themes, one row each. */
#include "theme.h"

#include <string.h>

const struct theme theme_table[] = {
	{
		/* the lesson's blue and teal, then a palette */
		"default", true,
		{ 25, 30, 90, 130, 28, 124, 61, 94 },
		{ 231, 231, 231, 231, 231, 231, 231, 231 },
		{ THEME_BLUE, THEME_CYAN, THEME_MAGENTA, THEME_YELLOW, THEME_GREEN, THEME_RED,
		  THEME_BLUE, THEME_CYAN },
		{ THEME_WHITE, THEME_BLACK, THEME_WHITE, THEME_BLACK, THEME_BLACK, THEME_WHITE,
		  THEME_YELLOW, THEME_YELLOW },
		33, THEME_BLUE, true, THEME_ATTR_NORMAL, THEME_ATTR_NORMAL,
	},
	{
		/* saturated, bold, nothing dim: survives a washed-out projector */
		"projector", true,
		{ 21, 30, 127, 166, 28, 160, 54, 136 },
		{ 231, 231, 231, 231, 231, 231, 231, 16 },
		{ THEME_BLUE, THEME_CYAN, THEME_MAGENTA, THEME_YELLOW, THEME_GREEN, THEME_RED,
		  THEME_BLUE, THEME_CYAN },
		{ THEME_WHITE, THEME_BLACK, THEME_WHITE, THEME_BLACK, THEME_BLACK, THEME_WHITE,
		  THEME_YELLOW, THEME_YELLOW },
		21, THEME_BLUE, false, THEME_ATTR_BOLD, THEME_ATTR_BOLD,
	},
	{
		/* Okabe and Ito's palette: distinct under deuteranopia and
		 * protanopia (blue, orange, bluish green, vermillion, sky blue,
		 * reddish purple, yellow, grey) */
		"colorblind", true,
		{ 25, 214, 36, 166, 74, 175, 227, 244 },
		{ 231, 16, 16, 16, 16, 16, 16, 16 },
		{ THEME_BLUE, THEME_YELLOW, THEME_GREEN, THEME_RED, THEME_CYAN, THEME_MAGENTA,
		  THEME_WHITE, THEME_BLACK },
		{ THEME_WHITE, THEME_BLACK, THEME_BLACK, THEME_WHITE, THEME_BLACK, THEME_WHITE,
		  THEME_BLACK, THEME_WHITE },
		25, THEME_BLUE, true, THEME_ATTR_NORMAL, THEME_ATTR_NORMAL,
	},
	{
		"mono", false,
		{ 0 }, { 0 }, { 0 }, { 0 }, 0, 0, false, THEME_ATTR_NORMAL, THEME_ATTR_NORMAL,
	},
};

const size_t theme_count = sizeof theme_table / sizeof theme_table[0];

const char theme_names[] = "default, projector, colorblind, mono";

int
theme_find(const char *name)
{
	for (size_t i = 0; name && i < theme_count; i++)
		if (strcmp(theme_table[i].name, name) == 0)
			return (int)i;
	return -1;
}
