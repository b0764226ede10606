/* tui_script.h - --keys, --size and --record in the lab: a key script
 * played as if typed, and the lab on a pseudo-terminal for recordings and
 * for running with no terminal. */
#ifndef HEADLAB_TUI_SCRIPT_H
#define HEADLAB_TUI_SCRIPT_H

#include <signal.h>

#include "options.h"
#include "tui.h"

/* The curses key code of a keyscript_key. */
int tui_script_keycode(int key);

/* For --record, or --keys with no terminal attached: put the lab on a
 * pseudo-terminal.  Returns -1 when the caller goes on to run the lab here
 * (nothing to do, or this is the child on the pseudo-terminal), else the
 * exit status to return (the lab's, or 1 with a message on stderr). */
int tui_script_relay(const struct options *o);

/* Play the key script keys (checked by options_parse) in the running lab:
 * each key as if typed, then the lab's clock runs until the move it
 * started has ended and 0.2 s more, so every step's end state is seen;
 * wait:S lets the clock run S seconds.  Returns at the script's end, or
 * when the lab quits or a signal flag is raised (*stop non-zero). */
void tui_script_play(struct tui *t, const char *keys, volatile const sig_atomic_t *stop);

#endif
