/* term.h - the lab's run on a terminal (term.c): what main.c starts, and
 * one turn of its input for the key fuzzer. */
#ifndef HEADLAB_TERM_H
#define HEADLAB_TERM_H

#include "code.h"
#include "options.h"
#include "tui.h"
#include "walk.h"

/* The interactive lab from start to finish on walk w; returns the exit
 * status.  code, when not NULL, is the check of --code's reading that
 * built w, so that the lab need not read it again at w's sizes. */
int term_run(const struct walk *w, const struct options *o, const struct code_checked *code);

/* One turn of the lab's input from the terminal, as the run loop takes it
 * (for the key fuzzer): a key, or an escape sequence that is not a key
 * dropped (at most a bounded chunk of it), waiting seq_ms for the rest of
 * a sequence; Ctrl-Z is ignored.  0 when no input was waiting, else
 * SCREEN_HANDLED with SCREEN_REDRAW when the screen changed. */
int term_feed(struct tui *t, int seq_ms);

#endif
