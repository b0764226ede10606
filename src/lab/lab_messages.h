/* lab_messages.h - the parsers' refusals in the interface's language
 * (lab_messages.c). */
#ifndef HEADLAB_LAB_MESSAGES_H
#define HEADLAB_LAB_MESSAGES_H

#include <stddef.h>

/* A refusal from a parser the lab shares with the command line (English,
 * as the command line words it), in the interface's language, into buf. */
void lab_message_words(char *buf, size_t size, const char *english);

#endif
