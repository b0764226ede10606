/* attention.h - the lesson's attention pass on x = arange(B*T*D), with
 * PyTorch's seeded weights, computed lazily cell by cell.
 *
 * Steps are PyTorch's tensors: input, q, k, v ([B,T,D]), q_heads, k_heads,
 * v_heads ([B,H,T,d]), scores, masked, weights ([B,H,T,T]), context
 * ([B,H,T,d]), swap_back and contiguous ([B,T,H,d]), merged and output
 * ([B,T,D]).  The four weight matrices ([D,D], [out, in]) are tensors too,
 * so a cell's reads can name them.  Values are computed in double from the
 * float32 weights and inputs (PyTorch's float32 results agree to about 1e-7
 * of each step's largest magnitude) and only when asked: a [B,H,T,T] step
 * is never held whole, only a few of its rows. */
#ifndef HEADLAB_ATTENTION_H
#define HEADLAB_ATTENTION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum attention_tensor {
	ATTENTION_INPUT,
	ATTENTION_Q,
	ATTENTION_K,
	ATTENTION_V,
	ATTENTION_Q_HEADS,
	ATTENTION_K_HEADS,
	ATTENTION_V_HEADS,
	ATTENTION_SCORES,
	ATTENTION_MASKED,
	ATTENTION_WEIGHTS,
	ATTENTION_CONTEXT,
	ATTENTION_SWAP_BACK,    /* context.transpose(1, 2): a view, [B,T,H,d] */
	ATTENTION_CONTIGUOUS,   /* .contiguous(): the copy merge_heads makes */
	ATTENTION_MERGED,
	ATTENTION_OUTPUT,
	ATTENTION_NSTEPS,
	/* the parameters, [out, in]: read by the steps, not steps themselves */
	ATTENTION_Q_WEIGHT = ATTENTION_NSTEPS,
	ATTENTION_K_WEIGHT,
	ATTENTION_V_WEIGHT,
	ATTENTION_OUT_WEIGHT,
	ATTENTION_NTENSORS,
};

/* Largest pass headlab computes: GPT-2 size (1,1024,768) fits well. */
#define ATTENTION_MAX_WIDTH 2048
#define ATTENTION_MAX_POSITIONS 16384
#define ATTENTION_MAX_CELLS (INT64_C(1) << 22)    /* B*T*D */
#define ATTENTION_ROWS 16       /* score/weight rows kept */

/* What a step is, as PyTorch would report it. */
struct attention_info {
	const char *name;       /* "q_heads" */
	const char *op;         /* "split_heads" */
	char code[112];         /* "q.reshape(1, 3, 2, 2).transpose(1, 2)" */
	int rank;
	const char *axes[4];    /* "B", "H", "T", "d"; scores read along "S" */
	int64_t shape[4];
	int64_t strides[4];     /* torch.Tensor.stride() */
	bool contiguous;        /* torch.Tensor.is_contiguous() */
	bool copied;            /* the step really copied data (.contiguous()) */
	bool view;              /* no new data: a view of the previous step */
	bool width_of_heads;    /* [.., D] whose runs of d columns are the heads' (q, k, v,
	                         * merged); not x, nor output, which mixes every head */
};

/* One row of the score table of (b, h, t): scores and weights over s. */
struct attention_row {
	int64_t b, h, t;        /* -1 in b: slot unused */
	double *scores;         /* [T], unmasked q.k/sqrt(d) */
	double *weights;        /* [T], softmax of the masked row */
	uint64_t used;          /* when last used, for eviction */
};

struct attention {
	int64_t batch, positions, width, heads, head_width;
	uint32_t seed;
	float *weight[4];       /* q, k, v, out: [out, in] row-major, PyTorch's bits */
	float *weight_block;    /* the one allocation the four lie in */
	bool fused;             /* drawn as GPT-2's c_attn [3D, D] and c_proj
	                         * (attention_fuse): the same bits, other names */
	/* x's row (b, t) is n0 + j with n0 = (b*T + t)*D, so a projection's
	 * cell i is n0 * rowsum[i] + rowdot[i]: any cell of q, k, v in O(1) */
	double *rowsum[3], *rowdot[3];
	double sqrt_d;          /* the scores' divisor, sqrt(d) */
	double *context;        /* [B,H,T,d], filled per (b, h, t) on demand */
	uint8_t *context_done;  /* [B,H,T] */
	double *output;         /* [B,T,D], filled per (b, t) on demand */
	uint8_t *output_done;   /* [B,T] */
	struct attention_row rows[ATTENTION_ROWS];
	uint64_t clock;
	int64_t rows_computed;  /* row fills so far (a test reads the laziness) */
};

/* The weight rows that produced a cell of q, k, v or their heads: the
 * matrix by PyTorch's name ("q_proj.weight", or "c_attn.weight" when
 * fused), the head's rows first .. first+count-1 (head h takes h*d ..
 * (h+1)*d - 1 of its projection, offset by 0, D or 2D in c_attn for q, k
 * and v) and the cell's own row among them. */
struct attention_rows {
	const char *matrix;     /* "q_proj.weight", or with --fused "c_attn.weight" */
	int matrix_index;       /* 0 q, 1 k, 2 v: which projection */
	int64_t head, first, count, row; /* the head; its rows first..first+count-1 of
	                                  * the matrix; the cell's own row */
};

/* The rows behind cell ix of tensor t; false when t is no projection or
 * its heads (the other steps read no weight rows directly). */
bool attention_weight_rows(const struct attention *a, enum attention_tensor t, const int64_t *ix,
                           struct attention_rows *out);

/* Draw the weights again as GPT-2 and nanoGPT write the projection:
 * torch.manual_seed(seed), c_attn = nn.Linear(D, 3*D, bias=False) in one
 * draw of 3D*D, then c_proj = nn.Linear(D, D, bias=False); q, k, v =
 * c_attn(x).split(D, dim=2).  Returns 0, or 1 out of memory (nothing
 * changed). */
int attention_fuse(struct attention *a);

/* Seed PyTorch's generator with seed, draw the four [D,D] matrices and get
 * ready to compute.  Returns 0, or 2 with a one-line reason in err (sizes
 * over the limits above, D % H != 0), or 1 when memory runs out; said
 * holds the same in the interface's language (message.h; may be NULL). */
int attention_init(struct attention *a, int64_t batch, int64_t positions, int64_t width,
                   int64_t heads, uint32_t seed, char *err, size_t errsize, char *said,
                   size_t saidsize);

/* attention_init with the weights drawn once, as attention_fuse draws
 * them (GPT-2's c_attn and c_proj), not drawn twice. */
int attention_init_fused(struct attention *a, int64_t batch, int64_t positions, int64_t width,
                         int64_t heads, uint32_t seed, char *err, size_t errsize, char *said,
                         size_t saidsize);

void attention_free(struct attention *a);

/* "q_heads"; NULL out of range. */
const char *attention_name(enum attention_tensor t);

/* The tensor called name (len bytes), or -1. */
int attention_lookup(const char *name, size_t len);

/* Shape, strides, code and what tensor t is. */
void attention_info(const struct attention *a, enum attention_tensor t,
                    struct attention_info *info);

/* Cells of tensor t (the product of its shape). */
int64_t attention_numel(const struct attention *a, enum attention_tensor t);

/* The value of one cell of t (index in range); -INFINITY for a masked
 * score.  Computes and caches only what the cell needs. */
double attention_value(struct attention *a, enum attention_tensor t, const int64_t *index);

/* The weights row of query position t in head h of batch b (T values,
 * zero past t): where that head reads.  Valid until ATTENTION_ROWS other
 * rows have been asked for. */
const double *attention_weights_row(struct attention *a, int64_t b, int64_t h, int64_t t);

/* Head ablation: output[b, t, i] with head's context zeroed, which is
 * output minus that head's d terms of out_proj.  *change (if not NULL)
 * gets ablated - output. */
double attention_ablate(struct attention *a, int64_t head, int64_t b, int64_t t, int64_t i,
                        double *change);

/* The cell of tensor to that holds the same number as from[from_ix]
 * because one is a view or a copy of the other (q and q_heads; context,
 * swap_back, contiguous and merged; a tensor and itself): true with its
 * index in to_ix, false when to shows no such cell.  The lab lights a
 * read in every visible step this way. */
bool attention_alias(const struct attention *a, enum attention_tensor from, const int64_t *from_ix,
                     enum attention_tensor to, int64_t *to_ix);

/* The lesson's opening question, for its plot.  Values V = [[1, 0],
 * [0, 2]]; one row of weights [a, 1 - a] (0 <= a <= 1) reaches only
 * [a, 2(1 - a)], a segment; two heads, head 0 reading coordinate 0 with
 * w0 and head 1 coordinate 1 with w1, reach [w0 . V[:,0], w1 . V[:,1]],
 * so [0.8, 0.2] and [0.2, 0.8] give the target [0.8, 1.6] exactly. */
void attention_opening_one(double a, double out[2]);
void attention_opening_two(const double w0[2], const double w1[2], double out[2]);

/* The a in [0, 1] whose single-row output comes nearest target; returns
 * that distance (for [0.8, 1.6]: a = 0.32, about 0.537: never reached). */
double attention_opening_nearest(const double target[2], double *a);

#endif
