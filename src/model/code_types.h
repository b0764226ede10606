/* code_types.h - what the --code parser (code.c), its tensor calls
 * (code_ops.c) and their users share: where a result starts from, the
 * sizes the code's names stand for, and a refusal with its span. */
#ifndef HEADLAB_CODE_TYPES_H
#define HEADLAB_CODE_TYPES_H

#include <stddef.h>
#include <stdint.h>

#include "message.h"

#define CODE_MAX_TEXT 4096      /* bytes of code taken */

/* Where the code's result comes from: what --check holds it against. */
enum code_start {
	CODE_START_X,           /* must produce the split [B,H,T,d] */
	CODE_START_HEADS,       /* must produce x back, [B,T,D] */
	CODE_START_CONTEXT,     /* likewise, from a fresh (copied) [B,H,T,d] */
	CODE_START_TIME,        /* like x, stored time first [T,B,D] */
	CODE_START_FOLD,        /* like context, heads folded into the batch [B*H,T,d] */
	CODE_START_KV,          /* grouped key/value heads [B,Hkv,T,d]: must give [B,H,T,d], query
	                         * head h holding KV head h // n_rep */
	CODE_START_KV_TIME,     /* the same stored [B,T,Hkv,d] (Meta's llama): must give [B,T,H,d] */
};

/* Why the code was refused, and where. */
struct code_error {
	char message[320];      /* one line, no trailing newline, printable: the command line's English */
	char said[MESSAGE_SAID_MAX]; /* the same in the interface's language (message.h) */
	size_t pos;             /* byte offset of the failing call in the code */
	size_t len;             /* bytes it spans, at least 1 */
};

/* A size name given on the command line: --let NAME=SIZE. */
struct code_let {
	char name[40];
	char value[24];         /* a number, or B, T, D, H, d */
};

#define CODE_MAX_LETS 16

/* The lesson's sizes the code's names stand for. */
struct code_sizes {
	int64_t batch, positions, width, heads; /* B, T, D, H; d = D / H */
	const struct code_let *lets;            /* names the user bound, or NULL */
	int nlets;
	int64_t kv_heads;       /* Hkv, grouped key/value heads (--config, a check's shape); 0: not given */
};


/* What a name in the code was taken to mean, in a sentence. */
struct code_binding {
	char text[200];
};

#endif
