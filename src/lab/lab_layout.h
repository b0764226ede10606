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

/* ---- for the parts' layouts (lab_compare.c, lab_bugs.c, lab_quiz.c) ---- */

struct scene;
struct walk;

/* A rectangle of the screen. */
struct lab_rect lab_rect(int y, int x, int h, int w);

/* Step k of w as a scene for width columns, with the lab's scene options
 * and the selected cell in focus. */
void lab_build_scene(const struct lab *lab, struct scene *sc, const struct walk *w, int k, int width);

/* The caption, code line and shape line from line y; returns the line
 * after them. */
int lab_layout_caption(struct lab *lab, int y);

/* The step view between lines top and bottom: the grid, with the lineage
 * and the ribbon where they fit and the marks' legend under the lineage
 * unless it would push the ribbon out; bare: the grid alone. */
void lab_layout_step_view(struct lab *lab, int top, int bottom, bool bare);

/* lab->other and lab->scene (built already) side by side, or one above
 * the other when narrow, each under a heading, between lines top and
 * bottom; the right (or lower) one is main, the one the mouse and keys
 * act on. */
void lab_layout_pair(struct lab *lab, int top, int bottom);

/* The largest zoom at which layout (a part's) shows its pair of scenes,
 * other step kl of wl and main step kr of wr, side by side, whole and
 * unwrapped at cols x lines; lays them out for a trial at each zoom. */
int lab_layout_pair_zoom(struct lab *lab, int cols, int lines,
                         void (*layout)(struct lab *lab, int cols, int top, int bottom),
                         const struct walk *wl, int kl, const struct walk *wr, int kr);

/* Bytes of s that go on the first line when it is wrapped at cols
 * columns: after a space, or beside a wide (CJK) character, never before
 * closing punctuation nor inside a character; at least one character. */
size_t lab_layout_wrap_cut(const char *s, int cols);

/* Lines s takes when wrapped at cols columns, at most maxlines. */
int lab_layout_wrap_lines(const char *s, int cols, int maxlines);

#endif
