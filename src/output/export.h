/* export.h - a walk's steps as files for slides and hand-outs: plain text,
 * ANSI text, a Markdown table and an SVG picture per step.
 *
 * Every format is drawn from the step's scene (scene_build), the same one
 * --print and the lab draw, so an export never disagrees with the screen.
 * Files are written whole or not at all: each goes to a temporary file in
 * the target directory, is synced and then renamed over the old one.
 *
 * headlab writes only into a missing or empty directory or an earlier
 * export's, which it knows by its manifest (EXPORT_MANIFEST, the names of
 * every file exports wrote there); it never replaces a file the manifest
 * does not list.  index.md is written last: a directory with a manifest
 * and no index.md is an export that was interrupted. */
#ifndef HEADLAB_EXPORT_H
#define HEADLAB_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "export_format.h"
#include "walk.h"

/* Defaults: UTF-8, 80 columns, captions on, nothing selected. */
void export_opts_default(struct export_opts *o);

/* File extension of a format, without the dot: "txt", "ansi", "md", "svg". */
const char *export_format_ext(enum export_format f);

/* Base name of step k's file in format f: "step-3-swap.svg".  The step name
 * is kept to letters, digits, '-' and '_' so it is always one path part. */
void export_file_name(char *buf, size_t size, const struct walk *w, int k,
                      enum export_format f);

/* Render step k of w in format f to out; false when memory ran out or out
 * reports an error. */
bool export_render(FILE *out, const struct walk *w, int k, enum export_format f,
                   const struct export_opts *o);

/* Render index.md, the list of every step's files, to out. */
bool export_render_index(FILE *out, const struct walk *w);

/* Write step k's four files into dir, creating dir (one level, mode 0777
 * less the umask) when it is missing, and adding them to its manifest.
 * Returns the number of files written (EXPORT_FILES_PER_STEP, the manifest
 * not counted), or -1 with one line in err such as "cannot write
 * slides/step-1-input.svg: Permission denied", sanitised for a terminal;
 * the file that failed leaves nothing behind, not even its temporary.  A
 * directory that is not empty and not an earlier export is refused.  said
 * holds the refusal in the interface's language (message.h; may be NULL). */
int export_step(const char *dir, const struct walk *w, int k, const struct export_opts *o,
                char *err, size_t errsize, char *said, size_t saidsize);

/* Every step's four files, walk.svg (the walk animated, export_anim.h),
 * index.html (a page that plays it, step by step) and index.md into dir (an old index.md is
 * removed first, the new one written last); the number of files written,
 * or -1 with err as export_step. */
int export_walk(const char *dir, const struct walk *w, const struct export_opts *o,
                char *err, size_t errsize);

/* From now on SIGINT, SIGTERM and SIGHUP remove the temporary file being
 * written, then end the process by the same signal (unless ignored). */
void export_catch_signals(void);

#endif
