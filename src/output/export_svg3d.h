/* export_svg3d.h - --export --view 3d: a step's block as an SVG picture. */
#ifndef HEADLAB_EXPORT_SVG3D_H
#define HEADLAB_EXPORT_SVG3D_H

#include <stdbool.h>
#include <stdio.h>

#include "export_format.h"
#include "walk.h"

/* Render step k of w as a standalone SVG 1.1 picture of its block
 * (scene3d): the step's title, code and facts, the caption when o asks
 * for one, then every layer as a slab of boxes in its head's colour and
 * fill pattern, the depth edges and the axis names.  false when memory ran
 * out or out reports an error. */
bool export_svg3d_render(FILE *out, const struct walk *w, int k, const struct export_opts *o);

#endif
