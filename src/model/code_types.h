/* code_types.h - what the --code parser (code.c), its tensor calls
 * (code_ops.c) and their users share: where a result starts from, the
 * sizes the code's names stand for, and a refusal with its span. */
#ifndef HEADLAB_CODE_TYPES_H
#define HEADLAB_CODE_TYPES_H

#include <stddef.h>
#include <stdint.h>

#define CODE_MAX_TEXT 4096      /* bytes of code taken */

/* Where the code's result comes from: what --check holds it against. */
enum code_start {
	CODE_START_X,           /* must produce the split [B,H,T,d] */
	CODE_START_HEADS,       /* must produce x back, [B,T,D] */
	CODE_START_CONTEXT,     /* likewise, from a fresh (copied) [B,H,T,d] */
};

/* Why the code was refused, and where. */
struct code_error {
	char message[320];      /* one line, no trailing newline, printable */
	size_t pos;             /* byte offset of the failing call in the code */
	size_t len;             /* bytes it spans, at least 1 */
};

/* The lesson's sizes the code's names stand for. */
struct code_sizes {
	int64_t batch, positions, width, heads; /* B, T, D, H; d = D / H */
};

#endif
