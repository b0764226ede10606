/* bigfont.h - digits five lines tall, for labels read from the back of a room. */
#ifndef HEADLAB_BIGFONT_H
#define HEADLAB_BIGFONT_H

#define BIGFONT_W 3
#define BIGFONT_H 5

/* Row r (0..BIGFONT_H-1) of character ch as BIGFONT_W chars of '#' and ' ';
 * characters without a glyph are blank. */
const char *bigfont_row(char ch, int r);

#endif
