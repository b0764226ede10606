/* fixture.h - what the C tests share without a terminal: a frame shown as
 * text, and checks the program itself has no use for. */
#ifndef HEADLAB_FIXTURE_H
#define HEADLAB_FIXTURE_H

#include <stdbool.h>
#include <stdint.h>

#include "attention.h"
#include "scene.h"

/* The frame as text on stdout, as TAP comments, when ANIM_DEBUG is set:
 * one byte per column, non-ASCII glyphs as '|'. */
void fixture_frame_dump(const struct scene *fr);

/* Whether s is valid UTF-8 with no control character (C0, DEL or C1):
 * what may reach a terminal. */
bool fixture_utf8_safe(const char *s);

/* Whether index names a cell of tensor t of the pass. */
bool fixture_attention_in_range(const struct attention *a, enum attention_tensor t,
                                const int64_t *index);

#endif
