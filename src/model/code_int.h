/* code_int.h - what the files of --code share, from the bottom up:
 * code_lex.c (the words), code_args.c (refusals, a call's arguments and
 * the step it adds), code_ops.c (the tensor calls), code_start.c (the
 * starting tensors, indexing, rearrange), code_read.c (names as authors
 * write them), code.c (expressions), code_prog.c (statements, the walk);
 * not part of the model's interface. */
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
	bool flash;             /* TENSOR: flash-attention's output (code_read_module) */
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
	CODE_READ_KV,           /* [B, Hkv, T, d], grouped key/value heads (fresh) */
	CODE_READ_KV_TIME,      /* [B, T, Hkv, d], the same stored time first (fresh) */
	CODE_READ_COUNT,
};

/* The readings tried in turn when PyTorch refuses the first: all but the
 * key/value heads, which only code that repeats heads is read as. */
#define CODE_READ_RETRIES 4

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
	/* grouped-query attention: the code repeats key/value heads (repeat_kv,
	 * repeat_interleave, n_rep ...), so their names are Hkv and n_rep, not H */
	bool gqa;
	int64_t kv_heads;       /* Hkv; H when the code does not repeat heads */
	int kv_step, kv_time_step; /* the key/value readings' steps, -1 until used */
	bool in_def;            /* inside a pasted def: return ends the code */
	bool returned;          /* a return ran: the statements after it do not */
	bool if_taken;          /* the last if's condition held (its else is skipped) */
};

/* Whether text repeats key/value heads: repeat_kv, repeat_interleave,
 * .repeat, or a repeat count's name (n_rep, num_key_value_groups ...). */
bool code_read_is_gqa(const char *text);

/* Hkv for sizes z: --let on a key/value head count or a repeat count,
 * else z->kv_heads, else one chosen where no two lengths coincide; how
 * says which ("--let", "given", "chosen", or "one" when H has no divisor
 * other than 1 and itself). */
int64_t code_read_kv_heads(const struct code_sizes *z, const char **how);

/* Whether text repeats key/value heads (repeat_kv, repeat_interleave,
 * .repeat, n_rep ...): its key/value heads are then Hkv, not H. */
bool code_repeats_heads(const char *text);

/* The readings' words for the verdict: "[B*H, T, d] (heads folded into the batch)". */
extern const char *const code_reading_words[CODE_READ_COUNT];

/* A size name by convention (n_head, bsz, head_dim, ...) or --let: its value and
 * letter; false when the name is not one.  Records the binding. */
bool code_read_size(struct code_ctx *c, const char *s, size_t len, struct code_value *v);

/* How an unknown tensor called s..s+len is read, from the code after it
 * (c->at) and the assignment it is in. */
enum code_reading code_read_guess(struct code_ctx *c, const char *s, size_t len);

/* Names that say q, k or v (q, key, xv, query_states ...) given the
 * wrong piece of a fused projection that holds q, k and v in that order,
 * in a sentence ("k is c_attn's piece 0, where q sits; ..."), "" if none. */
void code_read_qkv_order(const struct code_ctx *c, char *said, size_t size);

/* The key/value reading an unknown tensor at the parser takes in code
 * that repeats heads, from what follows it; CODE_READ_NONE when none. */
enum code_reading code_read_kv_guess(const struct code_ctx *c);

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

/* Whether s (len bytes) is one of the space-separated words of list. */
bool code_in_list(const char *list, const char *s, size_t len);

/* v made anew as the tensor a name typed at pos..end stands for, grown
 * from root; its step is the caller's to set (0, x's, until then). */
void code_start_value(struct code_value *v, enum code_start root, size_t pos, size_t end);

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

/* Fail at a span with a refusal said from key and its English format
 * (message.h); always false. */
bool code_fail(struct code_ctx *c, size_t pos, size_t end, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/* Fail at a span with a refusal another parser said (an index or a
 * pattern inside the code), in English and in the interface's language. */
bool code_fail_said(struct code_ctx *c, size_t pos, size_t end, const char *message,
                    const char *said);

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

/* ---- a tensor call (code_args.c, code_ops.c) ---- */
struct code_method;
/* What a call does: its arguments a[] bound to m's parameters, its result in out. */
typedef bool (*code_op_fn)(struct code_ctx *c, struct code_call *call,
                           const struct code_method *m, struct code_value **a,
                           struct code_value *out);

/* One tensor call headlab knows: its parameters as PyTorch names them. */
struct code_method {
	const char *name;
	const char *params;     /* space-separated; "*NAME": sizes or dims, *args or a tuple */
	int required;           /* how many of params must be given */
	code_op_fn fn;
	enum walk_op op;
	int variant;            /* the fn's own switch: which of its calls this is */
};

/* Whether call is torch.NAME(t, ...) for a NAME that is a method only. */
bool code_no_function(const struct code_call *call, const struct code_method *m);
/* m's parameters as call names them. */
const char *code_params_of(const struct code_call *call, const struct code_method *m);
/* The view a tensor value stands for. */
const struct layout *code_view_of(struct code_ctx *c, const struct code_value *t);
/* "[1, 3, 4]" */
void code_list(char *buf, size_t size, const int64_t *v, int n);
/* The call as written, on one line, into buf. */
void code_text_of(struct code_ctx *c, const struct code_call *call, char *buf, size_t size);
/* Append the call's step and make out the tensor it gives. */
bool code_emit(struct code_ctx *c, struct code_call *call, const struct code_method *m,
               const struct layout *from, const struct layout *view, bool copy, const char **axes,
               struct code_value *out);
/* Bind the call's arguments to m's parameters: a[i] for parameter i, NULL
 * when not given; for a "*" parameter a tuple is built in *rest. */
bool code_bind(struct code_ctx *c, struct code_call *call, const struct code_method *m,
               struct code_value **a, struct code_value *rest);
/* A whole-number argument. */
bool code_int_arg(struct code_ctx *c, const struct code_value *v, const char *what, int64_t *out);
/* A dim, wrapped as PyTorch wraps it: -rank..rank-1. */
bool code_dim(struct code_ctx *c, const struct code_value *v, int rank, int64_t raw, int *out);
/* A dim argument, wrapped as code_dim does. */
bool code_dim_arg(struct code_ctx *c, const struct code_value *v, int rank, int *out);
/* A dim or a tuple of dims, as lists. */
bool code_dims(struct code_ctx *c, const struct code_value *v, int rank, int *dims, int *n);
/* The sizes of a view or reshape: -1 inferred, the cell count kept. */
bool code_shape(struct code_ctx *c, const struct code_value *t, const struct layout *in,
                int64_t *shape, int *rank);
/* One axis left unnamed ("?", as -1 leaves it) among named ones: the one
 * lesson letter the others miss, when its length fits. */
void code_name_last(struct code_ctx *c, const int64_t *shape, int rank,
                    char names[][WALK_NAME_MAX]);
/* Axis names for a new shape: the size's name where the code typed one, an
 * old axis that lines up with it, several old axes merged as "(T H)", or a
 * lesson size the length matches alone; else "?". */
void code_name_shape(struct code_ctx *c, const struct walk_step *in, const int64_t *shape, int rank,
                     const char *const *typed, char names[][WALK_NAME_MAX], const char **axes);

/* ---- the words (code_lex.c) ---- */
bool code_is_alpha(char ch);
bool code_is_digit(char ch);
/* Skip blanks, comments and line continuations; newlines too inside
 * brackets, where Python does not end a statement. */
void code_skip(struct code_ctx *c);
/* The next character after blanks, not consumed ('\0' at the end). */
char code_peek(struct code_ctx *c);
/* Consume ch when it comes next. */
bool code_accept(struct code_ctx *c, char ch);
/* A few words for "found X": the character at the parser, or the end. */
void code_describe(struct code_ctx *c, char *buf, size_t size);
/* Consume ch, or refuse with "expected WHAT". */
bool code_expect(struct code_ctx *c, char ch, const char *what);
/* An identifier at the parser: its start and length (0 when none). */
size_t code_name(struct code_ctx *c, size_t *start);
/* Whether s (len bytes) is exactly word. */
bool code_is(const char *s, size_t len, const char *word);
/* A number literal: decimal digits, with Python's optional underscores. */
bool code_number(struct code_ctx *c, struct code_value *v);
/* A string literal in single or double quotes. */
bool code_string(struct code_ctx *c, struct code_value *v);
/* Python's clamping of a slice bound a into 0..n. */
int64_t code_clamp(int64_t a, int n);
/* a op b on sizes with Python's floor division and modulo; a 64-bit
 * overflow is refused. */
bool code_arith(struct code_ctx *c, struct code_value *a, const struct code_value *b, char op);

/* ---- the expressions (code.c), for the statements above them ---- */
/* One expression at the parser into v. */
bool code_expr(struct code_ctx *c, struct code_value *v);
/* The variable called s (len bytes), the latest binding first; NULL if none. */
struct code_var *code_var_find(struct code_ctx *c, const char *s, size_t len);
/* Refuse v, a name that is neither a size nor a tensor, saying so. */
bool code_undefined(struct code_ctx *c, const struct code_value *v);
/* v, a tensor, unbound along dim 0 into its pieces (q, k, v = qkv,
 * tuple(qkv)): CODE_V_TENSORS. */
bool code_pieces_all(struct code_ctx *c, struct code_value *v, size_t pos, size_t end);

#endif
