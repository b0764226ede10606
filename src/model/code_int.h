/* code_int.h - what code.c (the parser) and code_ops.c (the tensor calls,
 * below it) share; not part of the model's interface. */
#ifndef HEADLAB_CODE_INT_H
#define HEADLAB_CODE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "code_types.h"
#include "layout.h"
#include "walk.h"

#define CODE_MAX_VARS 32
#define CODE_MAX_TUPLE 16
#define CODE_MAX_ARGS 12

enum code_vtype {
	CODE_V_NONE,            /* Python's None */
	CODE_V_TENSOR,
	CODE_V_INT,
	CODE_V_TUPLE,           /* of ints: a shape, dims, sections */
	CODE_V_STR,
	CODE_V_TENSORS,         /* several tensors (split pieces, q, k, v): steps in t[], n of them */
	CODE_V_OPAQUE,          /* a name headlab does not know yet: a tensor, a module or scores,
	                         * decided by what the code does with it */
};

struct code_value {
	enum code_vtype type;
	size_t pos, end;        /* byte span in the code */
	int step;               /* TENSOR: the walk step holding it */
	enum code_start root;   /* TENSOR: the starting tensor it grew from */
	bool named;             /* TENSOR: a bare name, not the result of a call */
	bool raw;               /* TENSOR: a start, a module's output or a piece, not reshaped yet */
	int64_t i;              /* INT */
	bool unknown;           /* INT: i times a size name nothing defines (solved by a view) */
	size_t upos, uend;      /* INT, unknown: where that name is */
	const char *axis;       /* INT: "B", "T", "D", "H" or "d" when typed as that
	                         * size's name alone; else NULL */
	int n;                  /* TUPLE */
	int64_t t[CODE_MAX_TUPLE];
	const char *taxis[CODE_MAX_TUPLE]; /* as axis, per entry */
};

/* One argument of a call: positional (kw NULL) or keyword. */
struct code_arg {
	const char *kw;         /* points into the code; kwlen bytes */
	size_t kwlen;
	bool star;              /* *tuple: its entries are positional arguments */
	struct code_value v;
};

struct code_var {
	char name[40];
	struct code_value v;
	bool used;              /* read since it was last assigned */
	int order;              /* when it was last assigned */
};

#define CODE_MAX_BIND 16
#define CODE_MAX_RESULTS 8

/* How an unknown tensor name is read: what the tensor holds. */
enum code_reading {
	CODE_READ_NONE = -1,
	CODE_READ_X,            /* [B, T, D], the input */
	CODE_READ_TIME,         /* [T, B, D], time first */
	CODE_READ_CONTEXT,      /* [B, H, T, d], attention's output (fresh) */
	CODE_READ_FOLD,         /* [B*H, T, d], heads folded into the batch (fresh) */
	CODE_READ_COUNT,
};

struct code_ctx {
	const char *text;
	size_t at;              /* the parser's position */
	int depth;              /* open brackets: newlines inside do not end a statement */
	int nest;               /* expressions being parsed inside each other */
	const struct code_sizes *sizes;
	int64_t head_width;
	struct walk *w;
	struct code_error *err;
	struct code_var vars[CODE_MAX_VARS];
	int nvars;
	int heads_step, context_step; /* -1 until the code uses them */
	struct walk scratch;    /* rearrange: the walk einops would run, replayed */
	/* what the code's names were taken to mean, said in the verdict */
	struct code_binding bind[CODE_MAX_BIND];
	int nbind;
	int fold_step, time_step; /* the folded and time-first readings' steps, -1 until used */
	int reading_try;        /* 0: each unknown tensor read as its use suggests; n: the first
	                         * one read as the n-th other reading */
	int unknowns;           /* unknown tensor names met */
	int order;              /* assignments so far */
	bool want_tensors;      /* split, chunk, unbind may give all their pieces */
	const size_t *lhs_pos, *lhs_len; /* the names an assignment binds, while its right side runs */
	int nlhs;
	bool last_expr;         /* the last statement was an expression, not an assignment */
};

/* The readings' words for the verdict: "[B*H, T, d] (heads folded into the batch)". */
extern const char *const code_reading_words[CODE_READ_COUNT];

/* A size name by convention (n_head, bsz, head_dim, ...) or --let: its value and
 * letter; false when the name is not one.  Records the binding. */
bool code_read_size(struct code_ctx *c, const char *s, size_t len, struct code_value *v);

/* How an unknown tensor called s..s+len is read, from the code after it
 * (c->at) and the assignment it is in. */
enum code_reading code_read_guess(struct code_ctx *c, const char *s, size_t len);

/* The tensor an unknown name holds under reading r, made on first use. */
bool code_read_tensor(struct code_ctx *c, enum code_reading r, size_t pos, size_t end,
                      struct code_value *v);

/* Attention's output for the operand b (a @ b, matmul, scaled_dot_product_attention):
 * fresh, in b's layout, holding what the right split holds. */
bool code_read_attend(struct code_ctx *c, const struct code_value *b, size_t pos, size_t end,
                      struct code_value *v);

/* A module called on tensor t (self.q_proj(t), self.c_attn(x)): a fresh
 * tensor, three times as wide for a fused q, k, v projection. */
bool code_read_module(struct code_ctx *c, const char *name, size_t len, const struct code_value *t,
                      size_t pos, size_t end, struct code_value *v);

/* Record a binding: "n_head = H = 3 (by its name)". */
void code_read_bind(struct code_ctx *c, const char *name, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* A tensor value for one of the starting names (x, heads, context): the
 * steps that make heads and context are added to the walk on first use. */
bool code_start_tensor(struct code_ctx *c, enum code_start start, size_t pos, size_t end,
                       struct code_value *v);

/* The step that holds the lesson's context, made on first use. */
bool code_context_step(struct code_ctx *c, size_t pos, size_t end, int *step);

/* A call being applied: receiver, method, its arguments and its span. */
struct code_call {
	const char *name;       /* the method, as in the table */
	const struct code_value *recv;
	struct code_arg *args;
	int nargs;
	size_t pos, end;        /* the call as written, for the caret */
	size_t code_pos;        /* where the step's code starts (the receiver's name or '.') */
	int64_t pick;           /* split/chunk/unbind: the i of the [i] after the call */
	bool has_pick;          /* there was one */
	size_t pick_pos, pick_end;
	bool function;          /* written torch.NAME(t, ...), not t.NAME(...) */
};

/* The lesson's axis letters, and their lengths in that order. */
extern const char *const code_letters[5];
void code_lengths(const struct code_ctx *c, int64_t *lengths);

/* The lesson letter ("B", "T", "D", "H" or "d", static strings) that an
 * axis name is, or NULL. */
const char *code_letter(const char *name);

/* Fail at a span with a formatted message; always false. */
bool code_fail(struct code_ctx *c, size_t pos, size_t end, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* code_fail as an expression that is false where the caller can see it
 * (static analysis does not look into code_ops.c). */
#define CODE_FAIL(...) (code_fail(__VA_ARGS__), false)

/* Apply the tensor method call->name; false with the error set.  Unknown
 * methods are refused here too. */
bool code_ops_call(struct code_ctx *c, struct code_call *call, struct code_value *out);

/* Apply an indexing expression (the bytes pos..end of the code, brackets
 * included) to a tensor. */
bool code_ops_index(struct code_ctx *c, const struct code_value *recv, size_t pos, size_t end,
                    size_t code_pos, struct code_value *out);

/* rearrange(t, pattern, **sizes) as einops runs it, as one step. */
bool code_ops_rearrange(struct code_ctx *c, struct code_call *call, struct code_value *out);

/* Whether name is a method code_ops_call knows. */
bool code_ops_known(const char *name, size_t len);

#endif
