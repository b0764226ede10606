/* svg.h - what the SVG pictures share (svg.c): the fonts, the head
 * colours and border dashes (so a grid slide and a 3D slide colour the
 * same head alike), colour mixing and XML-safe text. */
#ifndef HEADLAB_SVG_H
#define HEADLAB_SVG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

extern const char svg_font_mono[];
extern const char svg_font_sans[];

/* head's colour as 0xrrggbb: blue and teal for heads 0 and 1 as in the
 * lesson, then colours that stay apart on a projector (head < 0: head 0's). */
unsigned svg_head_rgb(int64_t head);

/* head's border dash, a stroke-dasharray ("none" for head 0 and head < 0),
 * so black-and-white print still tells the heads apart. */
const char *svg_head_dash(int64_t head);

/* rgb mixed toward white (amount > 0) or black (amount < 0), as "#rrggbb". */
void svg_mix(char *buf, size_t size, unsigned rgb, double amount);

/* The first n bytes of s as XML character data or an attribute value:
 * markup characters escaped, C0 and C1 control characters and malformed
 * UTF-8 replaced, so the document stays well-formed whatever the input. */
void svg_xmln(FILE *out, const char *s, size_t n);
void svg_xml(FILE *out, const char *s);

#endif
