/* message.c - a refusal said in English and in the interface's language
 * from one call.
 *
 * Both are rendered when the refusal is made: the caption file is loaded
 * before any parser runs and never changes while headlab runs, so keeping
 * the arguments to render later would buy nothing but a type per
 * conversion to store. */
#include "message.h"

#include <stdio.h>

#include "text.h"
#include "utf8.h"

/* The caption file's format is vetted by text_fmt(); the compiler cannot
 * see that, hence the pragma. */
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

void
message_vsay(char *en, size_t ensize, char *said, size_t saidsize, const char *key,
             const char *english, va_list ap)
{
	va_list again;

	va_copy(again, ap);
	vsnprintf(en, ensize, english, ap);
	if (said && saidsize > 0) {
		vsnprintf(said, saidsize, key ? text_fmt(key, english) : english, again);
		utf8_sanitize(said, saidsize, said, 0);
	}
	va_end(again);
}

void
message_say(char *en, size_t ensize, char *said, size_t saidsize, const char *key,
            const char *english, ...)
{
	va_list ap;

	va_start(ap, english);
	message_vsay(en, ensize, said, saidsize, key, english, ap);
	va_end(ap);
}
