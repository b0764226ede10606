/* preset.c - the table of named walks and the checks every one shares. */
#include "preset.h"

#include "bugs.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#if defined(__GNUC__)
static bool preset_fail(struct pattern_error *err, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#endif

static bool
preset_fail(struct pattern_error *err, const char *key, const char *fmt, ...)
{
	va_list ap;

	memset(err, 0, sizeof *err);
	err->echo = "";
	err->len = 1;
	va_start(ap, fmt);
	message_vsay(err->message, sizeof err->message, err->said, sizeof err->said, key, fmt, ap);
	va_end(ap);
	return false;
}

/* Parse the --axis strings of p into sizes (at most PATTERN_MAX_SIZES). */
static bool
preset_sizes(const struct preset_params *p, struct pattern_size *sizes, int *nsizes,
             struct pattern_error *err)
{
	if (p->naxis > PATTERN_MAX_SIZES)
		return preset_fail(err, "msg.preset.axismany",
		                   "too many --axis options (%d; at most %d)", p->naxis,
		                   PATTERN_MAX_SIZES);
	for (int i = 0; i < p->naxis; i++)
		if (!pattern_parse_size(p->axis_args[i], &sizes[i], err))
			return false;
	*nsizes = p->naxis;
	return true;
}

static bool
preset_lesson(struct walk *w, const struct preset_params *p, struct pattern_error *err)
{
	switch (walk_build(w, p->bug, p->shape[0], p->shape[1], p->shape[2], p->heads)) {
	case WALK_OK:
		return true;
	case WALK_ENOTDIVISIBLE:
		if (p->heads == 1)
			return preset_fail(err, "msg.preset.notdiv1",
			                   "width %lld is not divisible by %lld head",
			                   (long long)p->shape[2], (long long)p->heads);
		return preset_fail(err, "msg.preset.notdiv",
		                   "width %lld is not divisible by %lld heads",
		                   (long long)p->shape[2], (long long)p->heads);
	case WALK_EOVERFLOW:
		return preset_fail(err, "msg.preset.big",
		                   "B*T*D has more cells than a 64-bit count holds");
	case WALK_EBADSIZE:
		break;
	}
	return preset_fail(err, "msg.preset.min",
	                   "every size and the head count must be at least 1");
}

/* Colour a custom walk's cells by x's axis, read as (index / div) % mod. */
static void
preset_colour(struct walk *w, int axis, int64_t div, int64_t mod, int64_t groups)
{
	w->color_axis = axis;
	w->color_div = div;
	w->color_mod = mod;
	w->heads = groups;
}

/* Packed QKV: one projection gives [B,T,3D]; split it into q, k and v,
 * each [B,H,T,d], with one reshape and one permute. */
static bool
preset_qkv(struct walk *w, const struct preset_params *p, struct pattern_error *err)
{
	static const char *const in_axes[] = { "B", "T", "3D" };
	static const char *const split_axes[] = { "B", "T", "qkv", "H", "d" };
	int64_t b = p->shape[0], t = p->shape[1], packed = p->shape[2], h = p->heads, d;

	if (packed % 3 != 0)
		return preset_fail(err, "msg.preset.packed",
		                   "--preset qkv: the packed width %lld is not 3*D (q, k and v "
		                   "side by side): it must be divisible by 3", (long long)packed);
	if ((packed / 3) % h != 0)
		return h == 1
		       ? preset_fail(err, "msg.preset.qkvdiv1",
		                     "--preset qkv: D = %lld is not divisible "
		                     "by %lld head", (long long)(packed / 3), (long long)h)
		       : preset_fail(err, "msg.preset.qkvdiv",
		                     "--preset qkv: D = %lld is not divisible "
		                     "by %lld heads", (long long)(packed / 3), (long long)h);
	d = packed / 3 / h;
	if (!walk_begin(w, 3, p->shape, in_axes))
		return preset_fail(err, "msg.preset.big3",
		                   "B*T*3D has more cells than a 64-bit count holds");
	w->kind_name = "qkv";
	snprintf(w->summary, sizeof w->summary, "packed qkv [B,T,3D] to q, k and v, each [B,H,T,d]");
	if (!walk_reshape(w, "split", "reshape", "split_qkv", "x", 5,
	                  (const int64_t[]){ b, t, 3, h, d }, split_axes) ||
	    !walk_permute(w, "permute", "permute", "split_qkv", "",
	                  (const int[]){ 2, 0, 3, 1, 4 }, NULL))
		return preset_fail(err, NULL, "--preset qkv: cannot build the walk");
	/* colour by head: the same head of q, k and v shares a colour */
	preset_colour(w, 2, d, h, h);
	w->batch_axis = 0;
	w->row_axis = 1;
	w->batch = b;
	w->positions = t;
	w->width = packed / 3;
	w->head_width = d;
	return true;
}

/* Heads folded into the batch for one batched matmul, and back. */
static bool
preset_batch_heads(struct walk *w, const struct preset_params *p, struct pattern_error *err)
{
	static const char *const bhtd[] = { "B", "H", "T", "d" };
	static const char *const flat[] = { "(B H)", "T", "d" };
	int64_t bh;

	if (!walk_begin(w, 4, p->shape, bhtd) || !layout_mul(p->shape[0], p->shape[1], &bh))
		return preset_fail(err, "msg.preset.bigh",
		                   "B*H*T*d has more cells than a 64-bit count holds");
	w->kind_name = "batch-heads";
	snprintf(w->summary, sizeof w->summary,
	         "heads folded into the batch, [B,H,T,d] to [B*H,T,d], and back");
	if (!walk_reshape(w, "flatten", "reshape", "bmm", "x", 3,
	                  (const int64_t[]){ bh, p->shape[2], p->shape[3] }, flat) ||
	    !walk_reshape(w, "unflatten", "reshape", "bmm", "", 4, p->shape, bhtd))
		return preset_fail(err, NULL, "--preset batch-heads: cannot build the walk");
	preset_colour(w, 1, 1, 0, p->shape[1]);
	w->batch_axis = 0;
	w->row_axis = 2;
	w->batch = p->shape[0];
	w->positions = p->shape[2];
	w->width = p->shape[1] * p->shape[3];
	w->head_width = p->shape[3];
	return true;
}

/* Grouped-query attention: each key/value head serves G query heads;
 * repeat_kv expands it (a stride-0 view) and reshape copies. */
static bool
preset_gqa(struct walk *w, const struct preset_params *p, struct pattern_error *err)
{
	static const char *const in_axes[] = { "B", "Hkv", "T", "d" };
	static const char *const g_axes[] = { "B", "Hkv", "G", "T", "d" };
	static const char *const out_axes[] = { "B", "H", "T", "d" };
	int64_t b = p->shape[0], hkv = p->shape[1], t = p->shape[2], d = p->shape[3];
	int64_t hq = p->heads, g, cells;

	if (hq % hkv != 0)
		return hkv == 1
		       ? preset_fail(err, "msg.preset.gqa1",
		                     "--preset gqa: %lld query heads cannot share "
		                     "%lld key/value head evenly (--heads must be a multiple of Hkv, the "
		                     "second size of --shape)", (long long)hq, (long long)hkv)
		       : preset_fail(err, "msg.preset.gqa",
		                     "--preset gqa: %lld query heads cannot share "
		                     "%lld key/value heads evenly (--heads must be a multiple of Hkv, the "
		                     "second size of --shape)", (long long)hq, (long long)hkv);
	g = hq / hkv;
	/* the repeated view has G times the cells of k */
	if (!walk_begin(w, 4, p->shape, in_axes) || !layout_mul(walk_numel(w), g, &cells))
		return preset_fail(err, "msg.preset.bigh",
		                   "B*H*T*d has more cells than a 64-bit count holds");
	w->kind_name = "gqa";
	snprintf(w->summary, sizeof w->summary,
	         "grouped-query attention: %lld key/value heads repeated for %lld query heads",
	         (long long)hkv, (long long)hq);
	snprintf(w->steps[0].code, sizeof w->steps[0].code, "k");
	if (!walk_reshape(w, "unsqueeze", "unsqueeze", "repeat_kv", "k", 5,
	                  (const int64_t[]){ b, hkv, 1, t, d }, g_axes) ||
	    !walk_expand(w, "expand", "expand", "repeat_kv", "",
	                 (const int64_t[]){ b, hkv, g, t, d }, NULL) ||
	    !walk_reshape(w, "repeat", "reshape", "repeat_kv", "", 4,
	                  (const int64_t[]){ b, hq, t, d }, out_axes))
		return preset_fail(err, NULL, "--preset gqa: cannot build the walk");
	snprintf(w->steps[1].code, sizeof w->steps[1].code, "k[:, :, None]");
	preset_colour(w, 1, 1, 0, hkv);
	w->batch_axis = 0;
	w->row_axis = 2;
	w->batch = b;
	w->positions = t;
	w->width = hkv * d;
	w->head_width = d;
	return true;
}

/* ViT patches through the pattern machinery, p1 = p2 = 2 unless given. */
static bool
preset_vit(struct walk *w, const struct preset_params *p, struct pattern_error *err)
{
	static const char pattern[] = "b c (h p1) (w p2) -> b (h w) (p1 p2 c)";
	struct pattern_size sizes[PATTERN_MAX_SIZES + 2];
	int n;
	bool row = false, col = false;

	if (!preset_sizes(p, sizes, &n, err))
		return false;
	for (int i = 0; i < n; i++) {
		row = row || strcmp(sizes[i].name, "h") == 0 || strcmp(sizes[i].name, "p1") == 0;
		col = col || strcmp(sizes[i].name, "w") == 0 || strcmp(sizes[i].name, "p2") == 0;
	}
	/* a patch side of 2 for whichever side the user left open */
	if (!row)
		sizes[n++] = (struct pattern_size){ .name = "p1", .size = 2 };
	if (!col)
		sizes[n++] = (struct pattern_size){ .name = "p2", .size = 2 };
	if (!pattern_walk(w, pattern, 4, p->shape, sizes, n, err)) {
		/* the pattern is fixed: say which --shape or --axis to change */
		if (err->text == pattern) {
			char msg[sizeof err->message], said[sizeof err->said];

			snprintf(msg, sizeof msg, "%s", err->message);
			snprintf(said, sizeof said, "%s", err->said);
			message_say(err->message, sizeof err->message, NULL, 0, NULL,
			            "--preset vit (%s): %.200s", pattern, msg);
			message_say(msg, sizeof msg, err->said, sizeof err->said, NULL,
			            "--preset vit (%s): %.400s", pattern, said);
			err->text = NULL;
		}
		return false;
	}
	w->kind_name = "vit";
	snprintf(w->summary, sizeof w->summary, "ViT patches: %s", pattern);
	return true;
}

const struct preset preset_table[] = {
	{ "lesson", "split_heads then merge_heads, as in the lesson", "B,T,D", 3,
	  { 1, 3, 4 }, 2, "heads", false, preset_lesson },
	{ "qkv", "packed QKV [B,T,3D] split into q, k, v, each [B,H,T,d]", "B,T,3D", 3,
	  { 1, 3, 12 }, 2, "heads", false, preset_qkv },
	{ "batch-heads", "heads folded into the batch (B*H) for a batched matmul, and back",
	  "B,H,T,d", 4, { 2, 2, 3, 2 }, 0, NULL, false, preset_batch_heads },
	{ "gqa", "grouped-query attention: key/value heads repeated for the query heads",
	  "B,Hkv,T,d", 4, { 1, 2, 3, 2 }, 4, "query heads", false, preset_gqa },
	{ "vit", "ViT patches: b c (h p1) (w p2) -> b (h w) (p1 p2 c)", "B,C,H,W", 4,
	  { 1, 3, 4, 4 }, 0, NULL, true, preset_vit },
};

const int preset_count = (int)(sizeof preset_table / sizeof preset_table[0]);

const struct preset *
preset_find(const char *name)
{
	for (int i = 0; i < preset_count; i++)
		if (strcmp(preset_table[i].name, name) == 0)
			return &preset_table[i];
	return NULL;
}

void
preset_names(char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < preset_count && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%s",
		                         i == 0 ? "" : i + 1 == preset_count ? " or " : ", ",
		                         preset_table[i].name);
}

bool
preset_build(const struct preset *pr, struct walk *w, const struct preset_params *p,
             struct pattern_error *err)
{
	struct preset_params full;

	/* preset_find's NULL, or a walk that came from no preset */
	if (pr == NULL)
		return preset_fail(err, NULL, "this walk has no preset to rebuild it from");
	full = *p;
	if (p->rank != 0 && p->rank != pr->rank)
		return p->rank == 1
		       ? preset_fail(err, "msg.preset.shape1",
		                     "--preset %s takes --shape %s (%d sizes), "
		                     "not %d size", pr->name, pr->shape_names, pr->rank, p->rank)
		       : preset_fail(err, "msg.preset.shape",
		                     "--preset %s takes --shape %s (%d sizes), "
		                     "not %d sizes", pr->name, pr->shape_names, pr->rank, p->rank);
	if (p->rank == 0) {
		full.rank = pr->rank;
		memcpy(full.shape, pr->shape, sizeof full.shape);
	}
	if (p->heads != 0 && pr->heads == 0)
		return preset_fail(err, "msg.preset.noheads",
		                   "--preset %s takes no --heads (its --shape is %s)", pr->name,
		                   pr->shape_names);
	if (p->heads == 0)
		full.heads = pr->heads;
	if (p->naxis > 0 && !pr->takes_sizes)
		return preset_fail(err, "msg.preset.noaxis",
		                   "--preset %s takes no --axis (--axis sizes the axes of a "
		                   "pattern: --rearrange or --preset vit)", pr->name);
	if (pr->build != preset_lesson && p->bug != WALK_LESSON)
		return preset_fail(err, NULL, "--wrong goes with the lesson's walk, not --preset %s",
		                   pr->name);
	for (int i = 0; i < full.rank; i++)
		if (full.shape[i] < 1)
			return preset_fail(err, "msg.preset.sizemin",
			                   "every size of --shape must be at least 1");
	if (full.heads < 0 || (pr->heads != 0 && full.heads < 1))
		return preset_fail(err, "msg.preset.headsmin", "--heads must be at least 1");
	return pr->build(w, &full, err);
}

bool
preset_rearrange(struct walk *w, const char *pattern, const struct preset_params *p,
                 struct pattern_error *err)
{
	static const int64_t lesson_shape[3] = { 1, 3, 4 };
	struct pattern_size sizes[PATTERN_MAX_SIZES];
	int n = 0;

	if (p->heads != 0)
		return preset_fail(err, "msg.preset.pattern",
		                   "--heads does not go with --rearrange: size the head axis "
		                   "with --axis, such as --axis h=%lld", (long long)p->heads);
	if (p->bug != WALK_LESSON)
		return preset_fail(err, NULL, "--wrong goes with the lesson's walk, not --rearrange");
	if (!preset_sizes(p, sizes, &n, err))
		return false;
	if (p->rank == 0)
		return pattern_walk(w, pattern, 3, lesson_shape, sizes, n, err);
	return pattern_walk(w, pattern, p->rank, p->shape, sizes, n, err);
}
