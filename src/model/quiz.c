/* quiz.c - questions from a configuration, their answers from the model,
 * and the mistakes wrong answers most likely show. */
#include "quiz.h"

#include <stdlib.h>
#include <string.h>

#include "bugs.h"
#include "numbers.h"
#include "text.h"

/* Question and explanation strings may come from a caption file; text_fmt()
 * keeps only those whose conversions match the English ones, which the
 * compiler cannot see. */
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

static const char *const quiz_kind_names[QUIZ_KINDS] = {
	"where", "which", "shape", "numbers", "diff", "one-head", "no-transpose",
};

/* splitmix64: small, and the same sequence everywhere */
static uint64_t
quiz_next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int64_t
quiz_below(uint64_t *state, int64_t n)
{
	return n <= 1 ? 0 : (int64_t)(quiz_next(state) % (uint64_t)n);
}

static int
quiz_cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static void
quiz_config(struct quiz_question *qq, int64_t b, int64_t t, int64_t d, int64_t h, enum walk_kind k)
{
	qq->batch = b;
	qq->positions = t;
	qq->width = d;
	qq->heads = h;
	qq->walk = k;
}

/* The heads layout: the step split_heads returns. */
static int
quiz_heads_step(const struct walk *w)
{
	int k = walk_step_lookup(w, "swap");

	return k < 0 ? w->nsteps - 1 : k;
}

/* Labels of cells [b, h, t, :] of the heads layout. */
static int
quiz_head_row(const struct walk *w, int k, int64_t b, int64_t h, int64_t t, int64_t *out, int max)
{
	const struct layout *v = &w->steps[k].view;
	int n = 0;

	for (int64_t j = 0; j < v->shape[3] && n < max; j++)
		out[n++] = walk_label_at(w, k, (int64_t[]){ b, h, t, j });
	qsort(out, (size_t)n, sizeof *out, quiz_cmp);
	return n;
}

void
quiz_walk(const struct quiz_question *qq, struct walk *w)
{
	walk_build(w, qq->walk, qq->batch, qq->positions, qq->width, qq->heads);
}

/* The labels of qq's bug walk whose cells differ from the right walk's at
 * the same index, ascending, into qq->set (bugs_diff_labels). */
static void
quiz_diff(struct quiz_question *qq)
{
	static struct walk w;
	static struct bugs_diff d;

	quiz_walk(qq, &w);
	bugs_compare(&w, &d);
	qq->step = d.bug_step;
	qq->nset = bugs_diff_labels(&w, &d, qq->set, QUIZ_MAX_SET, QUIZ_MAX_CELLS);
}

/* Ask which cells differ for one of the bugs that has an answer at these
 * sizes (same shape as the right walk, some cell misplaced); with none,
 * at the lesson's sizes, where every split and merge bug has one. */
static void
quiz_pick_bug(struct quiz_question *qq, uint64_t *rng)
{
	enum walk_kind can[64];
	int n = 0;

	for (int pass = 0; pass < 2 && n == 0; pass++) {
		if (pass == 1)
			quiz_config(qq, 1, 3, 4, 2, WALK_LESSON);
		for (int i = 0; i < bugs_count && n < 64; i++) {
			qq->walk = bugs_kind(i);
			quiz_diff(qq);
			if (qq->nset > 0)
				can[n++] = qq->walk;
		}
	}
	/* the lesson's sizes always have a bug that misplaces cells; the
	 * fallback only keeps the analyzer sure can[] is read where written */
	qq->walk = n > 0 ? can[quiz_below(rng, n)] : WALK_WRONG;
	quiz_diff(qq);
}

static void
quiz_make_one(struct quiz_question *qq, enum quiz_kind kind, uint64_t *rng, int64_t B, int64_t T,
              int64_t D, int64_t H)
{
	struct walk w, right;
	int64_t numel = B * T * D, divs[64];
	int nd;

	memset(qq, 0, sizeof *qq);
	qq->kind = kind;
	/* the current configuration where it fits the question, else the lesson's */
	if ((kind == QUIZ_WHICH && D / H > QUIZ_MAX_SET) || (kind == QUIZ_DIFF && numel > QUIZ_MAX_CELLS))
		B = 1, T = 3, D = 4, H = 2;
	quiz_config(qq, B, T, D, H, WALK_LESSON);
	switch (kind) {
	case QUIZ_WHERE:
		qq->input = QUIZ_INPUT_CELL;
		quiz_walk(qq, &w);
		qq->step = quiz_heads_step(&w);
		qq->label = quiz_below(rng, walk_numel(&w));
		walk_find(&w, qq->step, qq->label, qq->index, NULL);
		break;
	case QUIZ_WHICH:
	case QUIZ_ONE_HEAD:
		qq->input = QUIZ_INPUT_SELECT;
		if (kind == QUIZ_ONE_HEAD)
			quiz_config(qq, 1, 3, 4, 1, WALK_LESSON);
		quiz_walk(qq, &w);
		qq->step = quiz_heads_step(&w);
		qq->at_batch = kind == QUIZ_ONE_HEAD ? 0 : quiz_below(rng, qq->batch);
		qq->at_head = kind == QUIZ_ONE_HEAD ? 0 : quiz_below(rng, qq->heads);
		qq->at_position = kind == QUIZ_ONE_HEAD ? 1 : quiz_below(rng, qq->positions);
		qq->nset = quiz_head_row(&w, qq->step, qq->at_batch, qq->at_head, qq->at_position, qq->set,
		                         QUIZ_MAX_SET);
		break;
	case QUIZ_SHAPE:
		qq->input = QUIZ_INPUT_TEXT;
		nd = numbers_divisors(D, divs, 64);
		qq->q_heads = divs[quiz_below(rng, nd)];
		qq->q_width = D;
		quiz_config(qq, B, T, D, qq->q_heads, WALK_LESSON);
		quiz_walk(qq, &w);
		qq->step = 0;
		{
			const struct layout *v = &w.steps[quiz_heads_step(&w)].view;

			qq->nvalues = v->rank;
			memcpy(qq->values, v->shape, sizeof(int64_t) * (size_t)v->rank);
		}
		break;
	case QUIZ_NUMBERS: {
		static const int64_t widths[] = { 64, 128, 256, 512, 768, 1024, 4096 };
		static const int64_t heads[] = { 1, 2, 4, 8, 12, 16, 32 };
		struct numbers n;

		qq->input = QUIZ_INPUT_TEXT;
		qq->q_width = widths[quiz_below(rng, 7)];
		do
			qq->q_heads = heads[quiz_below(rng, 7)];
		while (qq->q_width % qq->q_heads != 0);
		numbers_compute(&n, 1, 1, qq->q_width, qq->q_heads);
		qq->nvalues = 2;
		qq->values[0] = n.head_width;
		qq->values[1] = n.params;
		qq->step = 0;
		break;
	}
	case QUIZ_DIFF:
		qq->input = QUIZ_INPUT_SELECT;
		quiz_pick_bug(qq, rng);
		break;
	case QUIZ_NO_TRANSPOSE:
		qq->input = QUIZ_INPUT_TEXT;
		quiz_config(qq, 1, 2, 4, 2, WALK_LESSON);
		quiz_walk(qq, &w);
		walk_build(&right, WALK_WRONG, 1, 2, 4, 2);
		qq->step = 0;
		qq->nvalues = 4;
		for (int j = 0; j < 2; j++) {
			qq->values[j] = walk_label_at(&w, quiz_heads_step(&w), (int64_t[]){ 0, 0, 1, j });
			qq->values[2 + j] = walk_label_at(&right, 1, (int64_t[]){ 0, 0, 1, j });
		}
		break;
	case QUIZ_KINDS:
		break;
	}
}

void
quiz_make(struct quiz *q, uint64_t seed, int count, int64_t batch, int64_t positions,
          int64_t width, int64_t heads)
{
	uint64_t rng = seed;

	memset(q, 0, sizeof *q);
	q->seed = seed;
	if (count < 1)
		count = 1;
	if (count > 64)
		count = 64;
	q->count = count;
	/* every kind once, in the lesson's order, then again with new numbers */
	for (int i = 0; i < count; i++)
		quiz_make_one(&q->questions[q->n++], (enum quiz_kind)(i % QUIZ_KINDS), &rng, batch,
		              positions, width, heads);
}

void
quiz_prompt(const struct quiz_question *qq, char *buf, size_t size)
{
	switch (qq->kind) {
	case QUIZ_WHERE:
		snprintf(buf, size, text_fmt("quiz.where",
		         "After split_heads, where is label %lld? Move to its cell and press Enter."),
		         (long long)qq->label);
		break;
	case QUIZ_WHICH:
		snprintf(buf, size, text_fmt("quiz.which",
		         "Which labels sit at head %lld, position %lld (batch %lld)? Space selects, Enter answers."),
		         (long long)qq->at_head, (long long)qq->at_position, (long long)qq->at_batch);
		break;
	case QUIZ_SHAPE:
		snprintf(buf, size, text_fmt("quiz.shape",
		         "x is [%lld, %lld, %lld]. What shape does split_heads return with %lld heads? Type it, e.g. 1,2,3,4."),
		         (long long)qq->batch, (long long)qq->positions, (long long)qq->width,
		         (long long)qq->q_heads);
		break;
	case QUIZ_NUMBERS:
		snprintf(buf, size, text_fmt("quiz.numbers",
		         "D = %lld, H = %lld: type the width of one head, then the parameters of the Q, K, V and output projections (no bias)."),
		         (long long)qq->q_width, (long long)qq->q_heads);
		break;
	case QUIZ_DIFF:
		snprintf(buf, size, text_fmt("quiz.diff",
		         "This is a buggy %s. Which cells differ from the right result at the same index? Space selects, Enter answers."),
		         bugs_get(qq->walk) && strcmp(bugs_get(qq->walk)->part, "merge") == 0
		         ? text_get("quiz.part.merge", "merge") : text_get("quiz.part.split", "split"));
		break;
	case QUIZ_ONE_HEAD:
		snprintf(buf, size, "%s", text_fmt("quiz.onehead",
		         "Check 1: x[1,3,4] with 1 head. Which labels sit at head 0, position 1? Space selects, Enter answers."));
		break;
	case QUIZ_NO_TRANSPOSE:
		snprintf(buf, size, "%s", text_fmt("quiz.notranspose",
		         "Check 2: x = arange(8).reshape(1, 2, 4), 2 heads. Type head 0, position 1 of the right split, then of the split without the transpose: 4 numbers."));
		break;
	case QUIZ_KINDS:
		buf[0] = '\0';
		break;
	}
}

/* The whole numbers in s, in order; returns how many (at most max). */
static int
quiz_numbers(const char *s, int64_t *out, int max)
{
	int n = 0;

	while (*s && n < max) {
		if (*s >= '0' && *s <= '9') {
			int64_t v = 0;

			while (*s >= '0' && *s <= '9') {
				if (v < INT64_MAX / 10)
					v = v * 10 + (*s - '0');
				s++;
			}
			out[n++] = v;
		} else {
			s++;
		}
	}
	return n;
}

static bool
quiz_same_set(const int64_t *a, int na, const int64_t *b, int nb)
{
	int64_t x[QUIZ_MAX_CELLS], y[QUIZ_MAX_CELLS];

	if (na != nb || na > QUIZ_MAX_CELLS)
		return false;
	memcpy(x, a, sizeof(int64_t) * (size_t)na);
	memcpy(y, b, sizeof(int64_t) * (size_t)nb);
	qsort(x, (size_t)na, sizeof *x, quiz_cmp);
	qsort(y, (size_t)nb, sizeof *y, quiz_cmp);
	return memcmp(x, y, sizeof(int64_t) * (size_t)na) == 0;
}

static bool
quiz_check_where(const struct quiz_question *qq, int64_t cell, char *why, size_t size)
{
	struct walk w, wrong;
	int64_t got[LAYOUT_MAX_RANK], b, t, h, d, j;

	if (cell == qq->label)
		return true;
	quiz_walk(qq, &w);
	walk_build(&wrong, WALK_WRONG, qq->batch, qq->positions, qq->width, qq->heads);
	walk_find(&w, qq->step, cell, got, NULL);
	walk_label_origin(&w, qq->label, &b, &t, &h);
	d = w.head_width;
	j = qq->label % qq->width % d;
	if (walk_label_at(&wrong, 1, got) == qq->label)
		snprintf(why, size, text_fmt("quiz.why.notranspose",
		         "That is where %lld lands without the transpose: reshape straight to [B,H,T,d] cuts the storage into heads, not the features."),
		         (long long)qq->label);
	else if (got[1] == t && got[2] == h && t != h)
		snprintf(why, size, text_fmt("quiz.why.swapped",
		         "Head and position swapped: %lld is at position %lld of head %lld."),
		         (long long)qq->label, (long long)t, (long long)h);
	else if (got[1] == h && got[2] == t)
		snprintf(why, size, text_fmt("quiz.why.coord",
		         "Right head and position; within the head %lld is coordinate %lld of %lld."),
		         (long long)qq->label, (long long)j, (long long)d);
	else if (got[1] == h)
		snprintf(why, size, text_fmt("quiz.why.position",
		         "Right head, wrong position: every head keeps all positions, and %lld comes from position %lld."),
		         (long long)qq->label, (long long)t);
	else
		snprintf(why, size, text_fmt("quiz.why.where",
		         "%lld is feature %lld of position %lld: feature %lld / d=%lld gives head %lld, coordinate %lld."),
		         (long long)qq->label, (long long)(qq->label % qq->width), (long long)t,
		         (long long)(qq->label % qq->width), (long long)d, (long long)h, (long long)j);
	return false;
}

bool
quiz_check(const struct quiz_question *qq, int64_t cell, const int64_t *chosen, int nchosen,
           const char *typed, char *why, size_t size)
{
	int64_t got[16];
	int n;

	why[0] = '\0';
	switch (qq->kind) {
	case QUIZ_WHERE:
		return quiz_check_where(qq, cell, why, size);
	case QUIZ_WHICH:
	case QUIZ_ONE_HEAD: {
		struct walk wrong;
		int64_t alt[QUIZ_MAX_SET];
		int nalt;

		if (quiz_same_set(chosen, nchosen, qq->set, qq->nset))
			return true;
		walk_build(&wrong, WALK_WRONG, qq->batch, qq->positions, qq->width, qq->heads);
		nalt = quiz_head_row(&wrong, 1, qq->at_batch, qq->at_head, qq->at_position, alt, QUIZ_MAX_SET);
		if (qq->heads > 1 && quiz_same_set(chosen, nchosen, alt, nalt))
			snprintf(why, size, "%s", text_fmt("quiz.why.setnotranspose",
			         "Those are what the split without the transpose puts there: runs of storage, not one position's features."));
		else if (nchosen != qq->nset)
			snprintf(why, size, text_fmt("quiz.why.count",
			         "A head holds d = %lld features of each position: pick %lld labels, all from position %lld."),
			         (long long)(qq->width / qq->heads), (long long)qq->nset, (long long)qq->at_position);
		else
			snprintf(why, size, text_fmt("quiz.why.set",
			         "Head %lld of position %lld holds that position's features %lld to %lld."),
			         (long long)qq->at_head, (long long)qq->at_position,
			         (long long)qq->at_head * (qq->width / qq->heads),
			         (long long)((qq->at_head + 1) * (qq->width / qq->heads) - 1));
		return false;
	}
	case QUIZ_SHAPE:
		n = quiz_numbers(typed ? typed : "", got, 16);
		if (n == 4 && memcmp(got, qq->values, sizeof(int64_t) * 4) == 0)
			return true;
		if (n == 4 && got[0] == qq->batch && got[1] == qq->positions && got[2] == qq->q_heads)
			snprintf(why, size, "%s", text_fmt("quiz.why.bthd",
			         "That is [B,T,H,d], before the transpose; split_heads returns [B,H,T,d]."));
		else if (n == 4 && got[3] == qq->width)
			snprintf(why, size, "%s", text_fmt("quiz.why.dD",
			         "Each head gets d = D/H features, not all D."));
		else if (n != 4)
			snprintf(why, size, "%s", text_fmt("quiz.why.rank",
			         "The heads layout has 4 axes: [B,H,T,d]."));
		else
			snprintf(why, size, "%s", text_fmt("quiz.why.shape",
			         "Read it as [B,H,T,d]: batch, heads, positions, width of one head."));
		return false;
	case QUIZ_NUMBERS: {
		int64_t D = qq->q_width, H = qq->q_heads;

		n = quiz_numbers(typed ? typed : "", got, 16);
		if (n == 2 && got[0] == qq->values[0] && got[1] == qq->values[1])
			return true;
		if (n >= 2 && got[1] * H == qq->values[1])
			snprintf(why, size, "%s", text_fmt("quiz.why.perhead",
			         "Parameters do not shrink with heads: the four projections stay [D,D] whatever H is."));
		else if (n >= 2 && got[1] == 3 * D * D)
			snprintf(why, size, "%s", text_fmt("quiz.why.output",
			         "Count the output projection too: Q, K, V and O are four [D,D] matrices."));
		else if (n >= 2 && got[1] == 4 * D * D + 4 * D)
			snprintf(why, size, "%s", text_fmt("quiz.why.bias",
			         "These projections have no bias: 4*D*D."));
		else if (n >= 1 && got[0] == D * H)
			snprintf(why, size, "%s", text_fmt("quiz.why.width",
			         "The heads share the width: d = D / H."));
		else {
			char params[32];

			numbers_group(params, sizeof params, qq->values[1]);
			snprintf(why, size, text_fmt("quiz.why.numbers",
			         "d = D/H = %lld; parameters 4*D*D = %s."),
			         (long long)qq->values[0], params);
		}
		return false;
	}
	case QUIZ_DIFF: {
		int missed = 0, extra = 0;

		if (quiz_same_set(chosen, nchosen, qq->set, qq->nset))
			return true;
		for (int i = 0; i < qq->nset; i++) {
			bool found = false;

			for (int k = 0; k < nchosen; k++)
				found = found || chosen[k] == qq->set[i];
			missed += !found;
		}
		for (int k = 0; k < nchosen; k++) {
			bool found = false;

			for (int i = 0; i < qq->nset; i++)
				found = found || chosen[k] == qq->set[i];
			extra += !found;
		}
		snprintf(why, size, text_fmt("quiz.why.diff",
		         "%d cells that moved were missed and %d that stayed were picked: compare each cell with where the right walk puts it."),
		         missed, extra);
		return false;
	}
	case QUIZ_NO_TRANSPOSE:
		n = quiz_numbers(typed ? typed : "", got, 16);
		if (n == 4 && memcmp(got, qq->values, sizeof(int64_t) * 4) == 0)
			return true;
		if (n == 4 && got[0] == qq->values[2] && got[2] == qq->values[0])
			snprintf(why, size, "%s", text_fmt("quiz.why.order",
			         "Swapped: the right split gives 4 5, the one without transpose 2 3."));
		else
			snprintf(why, size, "%s", text_fmt("quiz.why.check2",
			         "Right: position 1's first two features, 4 5. Without transpose: the second run of storage, 2 3."));
		return false;
	case QUIZ_KINDS:
		break;
	}
	return false;
}

void
quiz_answer(const struct quiz_question *qq, char *buf, size_t size)
{
	size_t used = 0;

	buf[0] = '\0';
	if (qq->kind == QUIZ_WHERE) {
		used += (size_t)snprintf(buf, size, "[");
		for (int i = 0; i < 4 && used < size; i++)
			used += (size_t)snprintf(buf + used, size - used, "%s%lld", i ? ", " : "",
			                         (long long)qq->index[i]);
		if (used < size)
			snprintf(buf + used, size - used, "]");
		return;
	}
	if (qq->input == QUIZ_INPUT_SELECT) {
		for (int i = 0; i < qq->nset && used < size; i++)
			used += (size_t)snprintf(buf + used, size - used, "%s%lld", i ? " " : "",
			                         (long long)qq->set[i]);
		return;
	}
	for (int i = 0; i < qq->nvalues && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%lld", i ? ", " : "",
		                         (long long)qq->values[i]);
}

void
quiz_print_json(FILE *out, const struct quiz *q)
{
	fprintf(out, "{\"seed\": %llu, \"count\": %d, \"questions\": [\n",
	        (unsigned long long)q->seed, q->n);
	for (int i = 0; i < q->n; i++) {
		const struct quiz_question *qq = &q->questions[i];
		struct walk w;

		quiz_walk(qq, &w);
		fprintf(out, "  {\"kind\": \"%s\", \"shape\": [%lld,%lld,%lld], \"heads\": %lld, "
		        "\"walk\": \"%s\", \"step\": \"%s\"", quiz_kind_names[qq->kind],
		        (long long)qq->batch, (long long)qq->positions, (long long)qq->width,
		        (long long)qq->heads, w.kind_name, w.steps[qq->step].name);
		if (qq->kind == QUIZ_WHERE)
			fprintf(out, ", \"label\": %lld, \"index\": [%lld,%lld,%lld,%lld]", (long long)qq->label,
			        (long long)qq->index[0], (long long)qq->index[1], (long long)qq->index[2],
			        (long long)qq->index[3]);
		if (qq->kind == QUIZ_WHICH || qq->kind == QUIZ_ONE_HEAD)
			fprintf(out, ", \"at\": {\"batch\": %lld, \"head\": %lld, \"position\": %lld}",
			        (long long)qq->at_batch, (long long)qq->at_head, (long long)qq->at_position);
		if (qq->kind == QUIZ_SHAPE || qq->kind == QUIZ_NUMBERS)
			fprintf(out, ", \"ask\": {\"width\": %lld, \"heads\": %lld}", (long long)qq->q_width,
			        (long long)qq->q_heads);
		if (qq->input == QUIZ_INPUT_SELECT) {
			fputs(", \"set\": [", out);
			for (int k = 0; k < qq->nset; k++)
				fprintf(out, "%s%lld", k ? "," : "", (long long)qq->set[k]);
			fputc(']', out);
		}
		if (qq->input == QUIZ_INPUT_TEXT) {
			fputs(", \"values\": [", out);
			for (int k = 0; k < qq->nvalues; k++)
				fprintf(out, "%s%lld", k ? "," : "", (long long)qq->values[k]);
			fputc(']', out);
		}
		fprintf(out, "}%s\n", i + 1 < q->n ? "," : "");
	}
	fputs("]}\n", out);
}
