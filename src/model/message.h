/* message.h - a refusal said twice from one place: in English, as the
 * command line's contract words it, and in the interface's language, from
 * the caption file's format for its key (message.c).
 *
 * Every parser the lab shares with the command line (options, index,
 * patterns, presets, --code, attention, export) makes its refusals here:
 * the call names the key and the English format together, and the same
 * arguments fill both, so nothing ever reads English text back. */
#ifndef HEADLAB_MESSAGE_H
#define HEADLAB_MESSAGE_H

#include <stdarg.h>
#include <stddef.h>

/* Room for a refusal in the interface's language: a CJK character takes
 * three bytes of UTF-8. */
#define MESSAGE_SAID_MAX 480

/* Write the refusal english (a printf format) into en, and key's format
 * from the loaded caption file (text_fmt: only when it asks for the same
 * conversions in the same order) into said, both filled from the same
 * arguments.  said is made one printable line; en is left as written, for
 * each parser to sanitise as it always has.  said may be NULL (the command
 * line only); key NULL says it in English in both. */
void message_say(char *en, size_t ensize, char *said, size_t saidsize, const char *key,
                 const char *english, ...) __attribute__((format(printf, 6, 7)));
void message_vsay(char *en, size_t ensize, char *said, size_t saidsize, const char *key,
                  const char *english, va_list ap) __attribute__((format(printf, 6, 0)));

#endif
