/* lab_layout.h - where each part of the lab's screen goes at a given
 * terminal size, worked out before anything is painted and without a
 * terminal: regions, the scenes they show, the zoom that fits, the scroll
 * that keeps the selection in view, and the cells' moves.  Painting then
 * only reads the frame; clicks are tested against it. */
#ifndef HEADLAB_LAB_LAYOUT_H
#define HEADLAB_LAB_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>

#include "lab_frame.h"

struct lab;

/* Lay out the whole screen for cols x lines: builds the scenes, picks the
 * zoom when it is automatic, scrolls to the selection and plans moves. */
void lab_layout(struct lab *lab, int cols, int lines);

/* The zoom that fits the current step whole at cols x lines, from the
 * largest down (the = key). */
void lab_layout_zoom_fit(struct lab *lab, int cols, int lines);

/* For the 3D step view (lab_3d.c): scroll the viewport (frame.grid) just
 * enough to show the selected cell; the storage ribbon, its header line at
 * y and its slots under it, w columns wide. */
void lab_layout_follow(struct lab *lab);
void lab_layout_ribbon(struct lab *lab, int y, int x, int w);

/* Bytes of s that go on the first line when it is wrapped at cols
 * columns: after a space, or beside a wide (CJK) character, never before
 * closing punctuation nor inside a character; at least one character. */
size_t lab_layout_wrap_cut(const char *s, int cols);

/* Lines s takes when wrapped at cols columns, at most maxlines. */
int lab_layout_wrap_lines(const char *s, int cols, int maxlines);

#endif
