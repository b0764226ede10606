/* json.h - JSON strings, spelled one way by every writer of headlab's JSON
 * (--print --json, --trace --json, --check --json, asciicast recordings). */
#ifndef HEADLAB_JSON_H
#define HEADLAB_JSON_H

#include <stddef.h>
#include <stdio.h>

/* JSON-escape n bytes of UTF-8 text into out (quotes not included): '"'
 * and '\' escaped, every control character (C0 with NUL, DEL and C1) as
 * \u00XX, and a byte that starts no well-formed character as \ufffd, so
 * that out is always valid UTF-8.  Stops before an incomplete character
 * at the end and returns how many bytes of in it used (a stream sends the
 * rest with its next bytes); out needs 6 * n + 1 bytes. */
size_t json_escape(const unsigned char *in, size_t n, char *out, size_t *outlen);

/* Write s as a JSON string, quotes included (an incomplete character at
 * its end as \ufffd); NULL as null. */
void json_string(FILE *out, const char *s);

#endif
