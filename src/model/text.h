/* text.h - captions and interface strings, read from assets/lang/<lang>.txt.
 *
 * The file is "key = value" lines; '#' starts a comment line.  Values may
 * name the walk's numbers as {B} {T} {D} {H} {d} {N}, filled in by
 * text_format. */
#ifndef HEADLAB_TEXT_H
#define HEADLAB_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "walk.h"

/* Load the strings for lang from the first data directory that has them:
 * $HEADLAB_DATADIR, the assets beside the binary (a build directory), then
 * the installed data directory.  false (with a reason in why) when none
 * could be read; text_get then returns its fallbacks. */
bool text_load(const char *lang, const char *exe_path, char *why, size_t whysize);

/* Load strings from one file; used by text_load and by tests. */
bool text_load_file(const char *path, char *why, size_t whysize);

/* The string for key, or fallback when the loaded file lacks it. */
const char *text_get(const char *key, const char *fallback);

/* A printf format for key: the loaded file's, but only when it asks for
 * the same conversions in the same order as english (so a broken caption
 * file can never crash a printf); english otherwise. */
const char *text_fmt(const char *key, const char *english);

/* key's string with {B} {T} {D} {H} {d} {N} filled in from w. */
void text_format(char *buf, size_t size, const char *key, const char *fallback,
                 const struct walk *w);

void text_free(void);

#endif
