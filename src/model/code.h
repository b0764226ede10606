/* code.h - a line of PyTorch, as an engineer pastes it, turned into a walk.
 *
 * The code is a chain of tensor calls on x (arange(B*T*D).reshape(B,T,D)),
 * heads (the lesson's split of x, a view) or context (heads.contiguous(),
 * a fresh [B,H,T,d] tensor), possibly over several statements that assign
 * names.  Every call that makes a tensor becomes one step of the walk, with
 * PyTorch's shape, strides, storage offset, contiguity and copies; where
 * PyTorch would raise, the refusal says why and where, as a byte span of the
 * code.  code_check then says whether the result splits (from x) or merges
 * (from heads or context) the heads right.  Nothing here knows about
 * terminals: the lab and the command line call the same functions. */
#ifndef HEADLAB_CODE_H
#define HEADLAB_CODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "code_types.h"
#include "layout.h"
#include "walk.h"


/* One tensor the code ends with (q, k and v for a packed split). */
struct code_result {
	char name[40];          /* the variable, or "" for the last expression */
	int step;
	enum code_start start;
	bool flash;             /* flash-attention's output: it takes and gives [B, T, H, d] */
};

/* What code_build_walk_ex read besides the walk. */
struct code_reading_out {
	struct code_result results[8];
	int nresults;
	struct code_binding bind[16];
	int nbind;
	bool gqa;               /* the code repeats key/value heads */
	int64_t kv_heads;       /* Hkv it was read with */
	char qkv_order[200];    /* names given another piece of a fused q, k, v projection, or "" */
};

/* Evaluate text on sizes and build its walk: input x, the lesson's split
 * steps (and the copy) when the code starts from heads or context, then one
 * step per call.  start says which tensor the result grew from.  false with
 * err filled when the code is not a chain of calls headlab knows, or when
 * PyTorch would raise; w is then unspecified. */
bool code_build_walk(const char *text, const struct code_sizes *sizes, struct walk *w,
                     enum code_start *start, struct code_error *err);

/* code_build_walk, and the tensors the code ends with and what its names
 * were taken to mean.  The walk need not end at a result. */
bool code_build_walk_ex(const char *text, const struct code_sizes *sizes, struct walk *w,
                        struct code_reading_out *out, struct code_error *err);

/* The lesson letter ("B", "T", "D", "H" or "d", static strings) that an
 * axis name is, or NULL. */
const char *code_letter(const char *name);

/* Print err as three lines: prefix and message; the line of code holding
 * the problem, indented two columns, control characters as spaces; a caret
 * under the problem. */
void code_error_print(FILE *out, const char *prefix, const char *text,
                      const struct code_error *err);

enum code_verdict_kind { CODE_RIGHT, CODE_WRONG, CODE_FAILS };

#define CODE_MAX_LABELS 256    /* labels of a tensor a verdict keeps */
#define CODE_MAX_DIFFS 2        /* differing rows a verdict names */

/* What --check found. */
struct code_verdict {
	enum code_verdict_kind verdict;
	enum code_start start;
	struct code_sizes sizes;        /* the shape the verdict was reached at */
	int tried;                      /* shapes checked, this one included */
	const char *kind;               /* the bug's name, or NULL when unknown */
	char explain[240];              /* the bug in a sentence ("" when right) */
	int ndiffs;
	char diffs[CODE_MAX_DIFFS][400]; /* "heads[0, 0, 1] holds [2, 3], should hold [4, 5]" */
	char fix[240];                  /* the one-line fix ("" when unknown or right) */
	struct code_error error;        /* CODE_FAILS: PyTorch's reason and where */
	/* the same verdict in parts, for a screen that words it in its own
	 * language: the caption keys of explain and fix (NULL when there is
	 * none, or when the fix is code alone), each of diffs as the cell
	 * row, what it holds and what it should hold, or the two shapes */
	const char *explain_key, *fix_key;
	struct code_diff {
		char where[160];        /* "heads[0, 0, 1]" */
		char holds[100], should[100];
	} parts[CODE_MAX_DIFFS];
	bool shape_differs;             /* diffs[0] compares shapes: have, want, axes */
	char have[160], want[160];
	const char *axes;               /* "B,T,D" or "B,H,T,d" */
	/* grouped-query attention (code that repeats key/value heads): Hkv and
	 * n_rep = H / Hkv (0 when the code repeats none), and for a wrong
	 * repeat the first query head that reads another KV head than
	 * h // n_rep, the KV head it reads and the one it should (-1: none) */
	int64_t kv_heads, n_rep;
	int64_t gqa_head, gqa_reads, gqa_should;
	char qkv_order[200];            /* as code_reading_out's */
	char warning[200];              /* axis lengths that coincide at an explicit shape */
	bool explicit_sizes;            /* the shape was given, not chosen */
	/* the warning in parts: 0 none, 1 one head, 2 heads of width 1, 3 the
	 * axes coincide_axes both coincide_len long */
	int coincide;
	const char *coincide_axes[2];
	int64_t coincide_len;
	/* every tensor the code ends with (q, k, v for a packed split), and
	 * what the code's names were taken to mean */
	int ntensors;
	struct code_tensor_verdict {
		char name[40];
		enum code_verdict_kind verdict;
		const char *layout;     /* the layout it was judged right in, or NULL */
		const char *kind;
		/* the tensor as PyTorch holds it: its view and its first labels */
		int rank;
		int64_t shape[8], strides[8], offset;
		bool contiguous;
		int nlabels;            /* at most CODE_MAX_LABELS; fewer than its cells when cut */
		int64_t labels[256];
	} tensors[8];
	int nbind;
	struct code_binding bind[16];
	const char *source;     /* where the sizes came from (--config), or NULL; set by the caller */
};

/* Check text: at sizes when given (sizes->batch 0: not given, only its
 * lets count) (a warning when two axis lengths
 * coincide), else at several shapes where none does, reporting the first
 * that exposes a difference.  Always fills v. */
void code_check(const char *text, const struct code_sizes *sizes, struct code_verdict *v);

/* code_check, and the walk it read the code into at the last shape it
 * tried (at sizes, when given) into walk, unspecified when v fails: the
 * walk and its verdict from one reading of the text. */
void code_check_walk(const char *text, const struct code_sizes *sizes, struct code_verdict *v,
                     struct walk *walk);

/* A verdict and the sizes it was reached at, names bound included: what
 * one reading of the code found, handed on so that the text is not read
 * again at the same sizes. */
struct code_checked {
	struct code_verdict verdict;
	struct code_sizes sizes;
};

/* Whether a and b are one shape with the same names bound (by name and
 * value, in order): code read at either reads the same. */
bool code_sizes_same(const struct code_sizes *a, const struct code_sizes *b);

/* The verdict as one short paragraph, or as the JSON object
 * {"verdict", "kind", "first_differences", "fix", ...}. */
void code_verdict_print_text(FILE *out, const char *text, const struct code_verdict *v);
void code_verdict_print_json(FILE *out, const struct code_verdict *v);

/* Exit status for a verdict: 0 right, 3 wrong, 2 fails. */
int code_verdict_status(const struct code_verdict *v);

#endif
