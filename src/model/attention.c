/* attention.c - the lesson's attention pass, lazily: a cell costs what its
 * own formula costs, and the [B,H,T,T] steps live as a few cached rows. */
#include "attention.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "layout.h"
#include "message.h"
#include "mt19937.h"

static const char *const attention_names[ATTENTION_NTENSORS] = {
	"input", "q", "k", "v", "q_heads", "k_heads", "v_heads", "scores", "masked",
	"weights", "context", "swap_back", "contiguous", "merged", "output",
	"q_weight", "k_weight", "v_weight", "out_weight",
};

const char *
attention_name(enum attention_tensor t)
{
	return (int)t >= 0 && t < ATTENTION_NTENSORS ? attention_names[t] : NULL;
}

int
attention_lookup(const char *name, size_t len)
{
	for (int i = 0; i < ATTENTION_NTENSORS; i++)
		if (strlen(attention_names[i]) == len && memcmp(attention_names[i], name, len) == 0)
			return i;
	return -1;
}

/* The limits of attention.h, checked in an order that names the real
 * problem first. */
static int
attention_check(int64_t batch, int64_t positions, int64_t width, int64_t heads, char *err,
                size_t errsize, char *said, size_t saidsize)
{
	int64_t cells;

	if (batch < 1 || positions < 1 || width < 1 || heads < 1) {
		message_say(err, errsize, said, saidsize, "msg.attn.min", "--attention needs sizes of at least 1");
		return 2;
	}
	if (width % heads != 0) {
		/* the preset's words: 1 head divides every width, so "heads" */
		message_say(err, errsize, said, saidsize, "msg.preset.notdiv",
		            "width %lld is not divisible by %lld heads", (long long)width, (long long)heads);
		return 2;
	}
	if (width > ATTENTION_MAX_WIDTH || positions > ATTENTION_MAX_POSITIONS ||
	    !layout_mul(batch, positions, &cells) || !layout_mul(cells, width, &cells) ||
	    cells > ATTENTION_MAX_CELLS) {
		message_say(err, errsize, said, saidsize, "msg.attn.big", "--attention computes every "
		            "number: D at most %d, T at most %d and B*T*D at most %lld (GPT-2's "
		            "1,1024,768 fits)", ATTENTION_MAX_WIDTH, ATTENTION_MAX_POSITIONS,
		            (long long)ATTENTION_MAX_CELLS);
		return 2;
	}
	return 0;
}

/* Per-row sums that make a projection of x's arange rows O(1) per cell. */
static void
attention_prepare(struct attention *a)
{
	int64_t D = a->width;

	for (int m = 0; m < 3; m++)
		for (int64_t i = 0; i < D; i++) {
			const float *w = a->weight[m] + i * D;
			double sum = 0, dot = 0;

			for (int64_t j = 0; j < D; j++) {
				sum += (double)w[j];
				dot += (double)w[j] * (double)j;
			}
			a->rowsum[m][i] = sum;
			a->rowdot[m][i] = dot;
		}
}

/* Room for the four matrices in one block, on 2 MB boundaries and marked
 * for huge pages where the system has them: at GPT-2 size (9 MB) drawing
 * the weights then takes a handful of page faults, not 2300, which on a
 * virtual machine is most of the time the A key takes. */
static float *
attention_weights_alloc(size_t bytes)
{
	void *p = NULL;

#ifdef MADV_HUGEPAGE
	if (bytes >= (size_t)2 << 20) {
		size_t huge = (size_t)2 << 20;

		if (posix_memalign(&p, huge, (bytes + huge - 1) / huge * huge) != 0)
			return NULL;
		madvise(p, (bytes + huge - 1) / huge * huge, MADV_HUGEPAGE);
		return p;
	}
#endif
	p = malloc(bytes);
	return p;
}

/* attention_init, or with fused attention_init_fused: the weights drawn
 * once, as the four nn.Linear or as c_attn and c_proj. */
static int
attention_init_as(struct attention *a, int64_t batch, int64_t positions, int64_t width,
                  int64_t heads, uint32_t seed, bool fused, char *err, size_t errsize,
                  char *said, size_t saidsize)
{
	struct mt19937 mt;
	int rc = attention_check(batch, positions, width, heads, err, errsize, said, saidsize);
	size_t cells, dd;

	memset(a, 0, sizeof *a);
	if (rc)
		return rc;
	a->batch = batch;
	a->positions = positions;
	a->width = width;
	a->heads = heads;
	a->head_width = width / heads;
	a->seed = seed;
	a->sqrt_d = sqrt((double)a->head_width);
	cells = (size_t)(batch * positions * width);
	dd = (size_t)(width * width);
	a->weight_block = attention_weights_alloc(4 * dd * sizeof(float));
	for (int m = 0; m < 4 && a->weight_block; m++)
		a->weight[m] = a->weight_block + (size_t)m * dd;
	for (int m = 0; m < 3; m++) {
		a->rowsum[m] = malloc((size_t)width * sizeof(double));
		a->rowdot[m] = malloc((size_t)width * sizeof(double));
	}
	a->context = malloc(cells * sizeof(double));
	a->context_done = calloc((size_t)(batch * heads * positions), 1);
	a->output = malloc(cells * sizeof(double));
	a->output_done = calloc((size_t)(batch * positions), 1);
	for (int r = 0; r < ATTENTION_ROWS; r++) {
		a->rows[r].b = -1;
		a->rows[r].scores = malloc((size_t)positions * sizeof(double));
		a->rows[r].weights = malloc((size_t)positions * sizeof(double));
	}
	for (int m = 0; m < 3; m++)
		if (!a->rowsum[m] || !a->rowdot[m])
			goto oom;
	for (int r = 0; r < ATTENTION_ROWS; r++)
		if (!a->rows[r].scores || !a->rows[r].weights)
			goto oom;
	if (!a->weight[0] || !a->weight[1] || !a->weight[2] || !a->weight[3] || !a->context ||
	    !a->context_done || !a->output || !a->output_done)
		goto oom;
	if (fused) {
		/* c_attn and c_proj, drawn once */
		if (attention_fuse(a) != 0)
			goto oom;
		return 0;
	}
	/* torch.manual_seed(seed), then q_proj, k_proj, v_proj, out_proj */
	mt19937_seed(&mt, seed);
	for (int m = 0; m < 4; m++)
		mt19937_linear_init(&mt, width, a->weight[m]);
	attention_prepare(a);
	return 0;
oom:
	attention_free(a);
	message_say(err, errsize, said, saidsize, "attn.oom", "out of memory for the attention pass");
	return 1;
}

int
attention_init(struct attention *a, int64_t batch, int64_t positions, int64_t width,
               int64_t heads, uint32_t seed, char *err, size_t errsize, char *said,
               size_t saidsize)
{
	return attention_init_as(a, batch, positions, width, heads, seed, false, err, errsize, said,
	                         saidsize);
}

int
attention_init_fused(struct attention *a, int64_t batch, int64_t positions, int64_t width,
                     int64_t heads, uint32_t seed, char *err, size_t errsize, char *said,
                     size_t saidsize)
{
	return attention_init_as(a, batch, positions, width, heads, seed, true, err, errsize, said,
	                         saidsize);
}

int
attention_fuse(struct attention *a)
{
	int64_t D = a->width;
	struct mt19937 mt;

	mt19937_seed(&mt, a->seed);
	/* c_attn [3D, D], drawn row-major with fan_in D: its rows 0..D-1
	 * (q's in split(D, dim=2)) straight into q's matrix, D..2D-1 into k's,
	 * 2D.. into v's; the same numbers in the same order as one draw of
	 * 3D*D into one buffer, with no copy */
	for (int m = 0; m < 3; m++)
		mt19937_linear_init_rect(&mt, D, D, a->weight[m]);
	mt19937_linear_init_rect(&mt, D, D, a->weight[3]);
	a->fused = true;
	attention_prepare(a);
	return 0;
}

bool
attention_weight_rows(const struct attention *a, enum attention_tensor t, const int64_t *ix,
                      struct attention_rows *out)
{
	static const char *const proj[3] = { "q_proj.weight", "k_proj.weight", "v_proj.weight" };
	int64_t D = a->width, d = a->head_width;
	int m;

	memset(out, 0, sizeof *out);
	if (t >= ATTENTION_Q && t <= ATTENTION_V) {
		/* q[b, t, i]: row i; its head is i / d */
		m = (int)(t - ATTENTION_Q);
		out->head = ix[2] / d;
		out->row = ix[2];
	} else if (t >= ATTENTION_Q_HEADS && t <= ATTENTION_V_HEADS) {
		/* q_heads[b, h, t, j] is q[b, t, h*d + j] */
		m = (int)(t - ATTENTION_Q_HEADS);
		out->head = ix[1];
		out->row = ix[1] * d + ix[3];
	} else {
		return false;
	}
	out->first = out->head * d;
	out->count = d;
	out->matrix = proj[m];
	out->matrix_index = m;
	if (a->fused) {
		out->matrix = "c_attn.weight";
		out->first += m * D;
		out->row += m * D;
	}
	return true;
}

void
attention_free(struct attention *a)
{
	free(a->weight_block);
	for (int m = 0; m < 3; m++) {
		free(a->rowsum[m]);
		free(a->rowdot[m]);
	}
	free(a->context);
	free(a->context_done);
	free(a->output);
	free(a->output_done);
	for (int r = 0; r < ATTENTION_ROWS; r++) {
		free(a->rows[r].scores);
		free(a->rows[r].weights);
	}
	memset(a, 0, sizeof *a);
}

/* Fill info's shape and contiguous strides. */
static void
attention_shape(struct attention_info *info, int rank, const char *const *axes,
                const int64_t *shape)
{
	int64_t stride = 1;

	info->rank = rank;
	for (int i = rank - 1; i >= 0; i--) {
		info->axes[i] = axes[i];
		info->shape[i] = shape[i];
		info->strides[i] = stride;
		stride *= shape[i];
	}
}

/* The layouts the pass's tensors take. */
enum attention_form {
	ATTENTION_FORM_BTD,     /* x, q, k, v, merged, output */
	ATTENTION_FORM_BHTD,    /* the heads, context */
	ATTENTION_FORM_BHTS,    /* scores, masked, weights */
	ATTENTION_FORM_BTHD,    /* context swapped back */
	ATTENTION_FORM_DD,      /* a projection's weight */
};

/* info's axes, shape and contiguous strides in layout f. */
static void
attention_form(const struct attention *a, enum attention_form f, struct attention_info *info)
{
	static const char *const axes[][4] = {
		{ "B", "T", "D" }, { "B", "H", "T", "d" }, { "B", "H", "T", "S" }, { "B", "T", "H", "d" },
		{ "out", "in" },
	};
	static const int rank[] = { 3, 4, 4, 4, 2 };
	int64_t B = a->batch, T = a->positions, D = a->width, H = a->heads, d = a->head_width;
	const int64_t shape[][4] = {
		{ B, T, D }, { B, H, T, d }, { B, H, T, T }, { B, T, H, d }, { D, D },
	};

	attention_shape(info, rank[f], axes[f], shape[f]);
}

/* q, k, v and output: a projection's result, or with --fused a third of
 * c_attn(x), a view whose rows stand 3D apart. */
static void
attention_info_linear(const struct attention *a, enum attention_tensor t,
                      struct attention_info *info)
{
	static const char *const proj[] = { "q_proj", "k_proj", "v_proj", "out_proj" };
	int64_t T = a->positions, D = a->width;

	info->op = "linear";
	snprintf(info->code, sizeof info->code, "%s = %s(%s)", info->name,
	         proj[t == ATTENTION_OUTPUT ? 3 : t - ATTENTION_Q], t == ATTENTION_OUTPUT ? "merged" : "x");
	attention_form(a, ATTENTION_FORM_BTD, info);
	if (a->fused && t == ATTENTION_OUTPUT) {
		snprintf(info->code, sizeof info->code, "output = c_proj(merged)");
	} else if (a->fused) {
		snprintf(info->code, sizeof info->code, "q, k, v = c_attn(x).split(%lld, dim=2)",
		         (long long)D);
		info->strides[0] = T * 3 * D;
		info->strides[1] = 3 * D;
		info->view = true;
	}
}

/* q_heads, k_heads, v_heads: the split, a view of q, k or v. */
static void
attention_info_heads(const struct attention *a, enum attention_tensor t,
                     struct attention_info *info)
{
	int64_t B = a->batch, T = a->positions, D = a->width, H = a->heads, d = a->head_width;
	/* nanoGPT's view of the fused split: c_attn's rows 3D apart */
	int64_t row = a->fused ? 3 * D : D;

	info->op = "split_heads";
	info->view = true;
	snprintf(info->code, sizeof info->code, "%s.%s(%lld, %lld, %lld, %lld).transpose(1, 2)",
	         attention_names[t - 3], a->fused ? "view" : "reshape", (long long)B, (long long)T,
	         (long long)H, (long long)d);
	attention_form(a, ATTENTION_FORM_BHTD, info);
	info->strides[0] = T * row;
	info->strides[1] = d;
	info->strides[2] = row;
	info->strides[3] = 1;
}

/* A projection's weight: its own, or with --fused its rows of c_attn. */
static void
attention_info_weight(const struct attention *a, enum attention_tensor t,
                      struct attention_info *info)
{
	static const char *const proj[] = { "q_proj", "k_proj", "v_proj", "out_proj" };
	long long D = (long long)a->width, k = (long long)(t - ATTENTION_Q_WEIGHT);

	info->op = "parameter";
	if (!a->fused)
		snprintf(info->code, sizeof info->code, "%s.weight", proj[k]);
	else if (t == ATTENTION_OUT_WEIGHT)
		snprintf(info->code, sizeof info->code, "c_proj.weight");
	else
		snprintf(info->code, sizeof info->code, "c_attn.weight[%lld:%lld]", k * D, (k + 1) * D);
	attention_form(a, ATTENTION_FORM_DD, info);
}

/* info's op and code, and its layout f. */
static void
attention_info_set(const struct attention *a, struct attention_info *info, const char *op,
                   const char *code, enum attention_form f)
{
	info->op = op;
	snprintf(info->code, sizeof info->code, "%s", code);
	attention_form(a, f, info);
}

void
attention_info(const struct attention *a, enum attention_tensor t, struct attention_info *info)
{
	int64_t B = a->batch, T = a->positions, D = a->width, H = a->heads, d = a->head_width;
	struct layout l;

	memset(info, 0, sizeof *info);
	info->name = attention_names[t];
	info->width_of_heads = a->heads > 1 && (t == ATTENTION_Q || t == ATTENTION_K ||
	                                        t == ATTENTION_V || t == ATTENTION_MERGED);
	switch (t) {
	case ATTENTION_INPUT:
		attention_info_set(a, info, "input", "", ATTENTION_FORM_BTD);
		snprintf(info->code, sizeof info->code, "x = torch.arange(%lld.).reshape(%lld, %lld, %lld)",
		         (long long)B * T * D, (long long)B, (long long)T, (long long)D);
		break;
	case ATTENTION_Q: case ATTENTION_K: case ATTENTION_V: case ATTENTION_OUTPUT:
		attention_info_linear(a, t, info);
		break;
	case ATTENTION_Q_HEADS: case ATTENTION_K_HEADS: case ATTENTION_V_HEADS:
		attention_info_heads(a, t, info);
		break;
	case ATTENTION_SCORES:
		attention_info_set(a, info, "matmul", "", ATTENTION_FORM_BHTS);
		snprintf(info->code, sizeof info->code, "q_heads @ k_heads.transpose(-2, -1) / math.sqrt(%lld)",
		         (long long)d);
		break;
	case ATTENTION_MASKED:
		attention_info_set(a, info, "masked_fill", "scores.masked_fill(~visible, float('-inf'))",
		                   ATTENTION_FORM_BHTS);
		break;
	case ATTENTION_WEIGHTS:
		attention_info_set(a, info, "softmax", "torch.softmax(masked, dim=-1)", ATTENTION_FORM_BHTS);
		break;
	case ATTENTION_CONTEXT:
		attention_info_set(a, info, "matmul", "context = weights @ v_heads", ATTENTION_FORM_BHTD);
		break;
	case ATTENTION_SWAP_BACK:
		attention_info_set(a, info, "transpose", "context.transpose(1, 2)", ATTENTION_FORM_BTHD);
		info->view = true;
		info->strides[0] = H * T * d;
		info->strides[1] = d;
		info->strides[2] = T * d;
		info->strides[3] = 1;
		break;
	case ATTENTION_CONTIGUOUS:
		attention_info_set(a, info, "contiguous", ".contiguous()", ATTENTION_FORM_BTHD);
		break;
	case ATTENTION_MERGED:
		attention_info_set(a, info, "reshape", "", ATTENTION_FORM_BTD);
		info->view = true;
		snprintf(info->code, sizeof info->code, ".reshape(%lld, %lld, %lld)", (long long)B,
		         (long long)T, (long long)D);
		break;
	default:
		attention_info_weight(a, t, info);
		break;
	}
	l.rank = info->rank;
	l.offset = 0;
	memcpy(l.shape, info->shape, sizeof info->shape);
	memcpy(l.strides, info->strides, sizeof info->strides);
	info->contiguous = layout_is_contiguous(&l);
	if (t == ATTENTION_CONTIGUOUS) {
		/* a copy exactly when the transposed view was not contiguous */
		struct attention_info back;

		attention_info(a, ATTENTION_SWAP_BACK, &back);
		info->copied = !back.contiguous;
		info->view = back.contiguous;
		/* already contiguous (one head, or T = 1): PyTorch returns the
		 * view itself, strides and all */
		if (back.contiguous)
			memcpy(info->strides, back.strides, sizeof info->strides);
	}
}

int64_t
attention_numel(const struct attention *a, enum attention_tensor t)
{
	struct attention_info info;
	int64_t n = 1;

	attention_info(a, t, &info);
	for (int i = 0; i < info.rank; i++)
		n *= info.shape[i];
	return n;
}

/* Cell i of projection m (0 q, 1 k, 2 v) at batch b, position t. */
static double
attention_proj(const struct attention *a, int m, int64_t b, int64_t t, int64_t i)
{
	double n0 = (double)((b * a->positions + t) * a->width);

	return n0 * a->rowsum[m][i] + a->rowdot[m][i];
}

/* The cached row of (b, h, t), computed on a miss into the least recently
 * used slot: every score q.k/sqrt(d), then the softmax of the masked row. */
static struct attention_row *
attention_row(struct attention *a, int64_t b, int64_t h, int64_t t)
{
	int64_t T = a->positions, d = a->head_width, off = h * d;
	struct attention_row *r = &a->rows[0];
	double qrow[ATTENTION_MAX_WIDTH], max = -INFINITY, sum = 0;

	for (int i = 0; i < ATTENTION_ROWS; i++) {
		struct attention_row *c = &a->rows[i];

		if (c->b == b && c->h == h && c->t == t) {
			c->used = ++a->clock;
			return c;
		}
		if (c->used < r->used)
			r = c;
	}
	r->b = b;
	r->h = h;
	r->t = t;
	r->used = ++a->clock;
	a->rows_computed++;
	for (int64_t j = 0; j < d; j++)
		qrow[j] = attention_proj(a, 0, b, t, off + j);
	for (int64_t s = 0; s < T; s++) {
		double n0 = (double)((b * T + s) * a->width), acc = 0;

		for (int64_t j = 0; j < d; j++)
			acc += qrow[j] * (n0 * a->rowsum[1][off + j] + a->rowdot[1][off + j]);
		r->scores[s] = acc / a->sqrt_d;
		if (s <= t && r->scores[s] > max)
			max = r->scores[s];
	}
	for (int64_t s = 0; s < T; s++) {
		r->weights[s] = s <= t ? exp(r->scores[s] - max) : 0.0;
		sum += r->weights[s];
	}
	for (int64_t s = 0; s <= t; s++)
		r->weights[s] /= sum;
	return r;
}

const double *
attention_weights_row(struct attention *a, int64_t b, int64_t h, int64_t t)
{
	return attention_row(a, b, h, t)->weights;
}

/* context[b, h, t, :], the d values of one head at one position. */
static const double *
attention_context(struct attention *a, int64_t b, int64_t h, int64_t t)
{
	int64_t T = a->positions, d = a->head_width, key = (b * a->heads + h) * T + t;
	double *out = a->context + key * d;

	if (!a->context_done[key]) {
		const double *w = attention_weights_row(a, b, h, t);

		for (int64_t j = 0; j < d; j++)
			out[j] = 0;
		/* weights @ v_heads reads every s; past t the weight is 0 */
		for (int64_t s = 0; s < T; s++)
			for (int64_t j = 0; j < d; j++)
				out[j] += w[s] * attention_proj(a, 2, b, s, h * d + j);
		a->context_done[key] = 1;
	}
	return out;
}

/* output[b, t, :], D values. */
static const double *
attention_output(struct attention *a, int64_t b, int64_t t)
{
	int64_t D = a->width, d = a->head_width, key = b * a->positions + t;
	double *out = a->output + key * D;

	if (!a->output_done[key]) {
		for (int64_t i = 0; i < D; i++)
			out[i] = 0;
		for (int64_t h = 0; h < a->heads; h++) {
			const double *ctx = attention_context(a, b, h, t);

			for (int64_t i = 0; i < D; i++) {
				const float *w = a->weight[3] + i * D + h * d;
				double acc = out[i];

				for (int64_t j = 0; j < d; j++)
					acc += (double)w[j] * ctx[j];
				out[i] = acc;
			}
		}
		a->output_done[key] = 1;
	}
	return out;
}

double
attention_value(struct attention *a, enum attention_tensor t, const int64_t *ix)
{
	int64_t d = a->head_width;

	switch (t) {
	case ATTENTION_INPUT:
		/* torch.arange in float32: exact below 2^24, as every size here is */
		return (double)(float)((ix[0] * a->positions + ix[1]) * a->width + ix[2]);
	case ATTENTION_Q:
	case ATTENTION_K:
	case ATTENTION_V:
		return attention_proj(a, (int)t - (int)ATTENTION_Q, ix[0], ix[1], ix[2]);
	case ATTENTION_Q_HEADS:
	case ATTENTION_K_HEADS:
	case ATTENTION_V_HEADS:
		return attention_proj(a, (int)t - (int)ATTENTION_Q_HEADS, ix[0], ix[2], ix[1] * d + ix[3]);
	case ATTENTION_SCORES:
		return attention_row(a, ix[0], ix[1], ix[2])->scores[ix[3]];
	case ATTENTION_MASKED:
		return ix[3] > ix[2] ? -INFINITY : attention_row(a, ix[0], ix[1], ix[2])->scores[ix[3]];
	case ATTENTION_WEIGHTS:
		return attention_row(a, ix[0], ix[1], ix[2])->weights[ix[3]];
	case ATTENTION_CONTEXT:
		return attention_context(a, ix[0], ix[1], ix[2])[ix[3]];
	case ATTENTION_SWAP_BACK:
	case ATTENTION_CONTIGUOUS:
		return attention_context(a, ix[0], ix[2], ix[1])[ix[3]];
	case ATTENTION_MERGED:
		return attention_context(a, ix[0], ix[2] / d, ix[1])[ix[2] % d];
	case ATTENTION_OUTPUT:
		return attention_output(a, ix[0], ix[1])[ix[2]];
	case ATTENTION_Q_WEIGHT:
	case ATTENTION_K_WEIGHT:
	case ATTENTION_V_WEIGHT:
	case ATTENTION_OUT_WEIGHT:
		return (double)a->weight[t - ATTENTION_Q_WEIGHT][ix[0] * a->width + ix[1]];
	default:
		return NAN;
	}
}

double
attention_ablate(struct attention *a, int64_t head, int64_t b, int64_t t, int64_t i,
                 double *change)
{
	int64_t d = a->head_width;
	const double *ctx = attention_context(a, b, head, t);
	const float *w = a->weight[3] + i * a->width + head * d;
	double full = attention_output(a, b, t)[i], part = 0;

	for (int64_t j = 0; j < d; j++)
		part += (double)w[j] * ctx[j];
	if (change)
		*change = -part;
	return full - part;
}

void
attention_opening_one(double a, double out[2])
{
	out[0] = a * 1 + (1 - a) * 0;
	out[1] = a * 0 + (1 - a) * 2;
}

void
attention_opening_two(const double w0[2], const double w1[2], double out[2])
{
	out[0] = w0[0] * 1 + w0[1] * 0;
	out[1] = w1[0] * 0 + w1[1] * 2;
}

/* The distance from target to [a, 2 - 2a] is least where its derivative
 * in a vanishes, a = (x + 4 - 2y) / 5, held to [0, 1]. */
double
attention_opening_nearest(const double target[2], double *a)
{
	double best = (target[0] + 4 - 2 * target[1]) / 5, p[2];

	best = best < 0 ? 0 : best > 1 ? 1 : best;
	attention_opening_one(best, p);
	if (a)
		*a = best;
	return hypot(p[0] - target[0], p[1] - target[1]);
}

/* A cell as (family, four coordinates): q, k, v and their heads as
 * (projection, b, t, feature); context and its merge as (b, h, t, j);
 * anything else as itself.  Two cells alias when these agree. */
static int
attention_canonical(const struct attention *a, enum attention_tensor t, const int64_t *ix,
                    int64_t *c)
{
	int64_t d = a->head_width;

	memset(c, 0, 4 * sizeof *c);
	switch (t) {
	case ATTENTION_Q:
	case ATTENTION_K:
	case ATTENTION_V:
		c[0] = ix[0], c[1] = ix[1], c[2] = ix[2];
		return 100 + (int)(t - ATTENTION_Q);
	case ATTENTION_Q_HEADS:
	case ATTENTION_K_HEADS:
	case ATTENTION_V_HEADS:
		c[0] = ix[0], c[1] = ix[2], c[2] = ix[1] * d + ix[3];
		return 100 + (int)(t - ATTENTION_Q_HEADS);
	case ATTENTION_CONTEXT:
		memcpy(c, ix, 4 * sizeof *c);
		return 200;
	case ATTENTION_SWAP_BACK:
	case ATTENTION_CONTIGUOUS:
		c[0] = ix[0], c[1] = ix[2], c[2] = ix[1], c[3] = ix[3];
		return 200;
	case ATTENTION_MERGED:
		c[0] = ix[0], c[1] = ix[2] / d, c[2] = ix[1], c[3] = ix[2] % d;
		return 200;
	default:
		memcpy(c, ix, 4 * sizeof *c);
		return (int)t;
	}
}

bool
attention_alias(const struct attention *a, enum attention_tensor from, const int64_t *from_ix,
                enum attention_tensor to, int64_t *to_ix)
{
	int64_t c[4], probe[4];
	int fam = attention_canonical(a, from, from_ix, c);
	int64_t d = a->head_width;

	memset(to_ix, 0, 4 * sizeof *to_ix);
	if (fam >= 100 && fam < 200) {
		if (to == (enum attention_tensor)(ATTENTION_Q + fam - 100)) {
			memcpy(to_ix, c, 3 * sizeof *c);
		} else if (to == (enum attention_tensor)(ATTENTION_Q_HEADS + fam - 100)) {
			to_ix[0] = c[0], to_ix[1] = c[2] / d, to_ix[2] = c[1], to_ix[3] = c[2] % d;
		} else {
			return false;
		}
	} else if (fam == 200) {
		if (to == ATTENTION_CONTEXT)
			memcpy(to_ix, c, 4 * sizeof *c);
		else if (to == ATTENTION_SWAP_BACK || to == ATTENTION_CONTIGUOUS)
			to_ix[0] = c[0], to_ix[1] = c[2], to_ix[2] = c[1], to_ix[3] = c[3];
		else if (to == ATTENTION_MERGED)
			to_ix[0] = c[0], to_ix[1] = c[2], to_ix[2] = c[1] * d + c[3];
		else
			return false;
	} else if (to == from) {
		memcpy(to_ix, c, 4 * sizeof *c);
	} else {
		return false;
	}
	/* the round trip names the same cell */
	return attention_canonical(a, to, to_ix, probe) == fam && memcmp(probe, c, sizeof probe) == 0;
}
