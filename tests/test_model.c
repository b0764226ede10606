/* test_model.c - the layout model and the walks against the lesson's exact
 * values (PRODUCT.md's table), plus copy/no-copy semantics of PyTorch. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "anim.h"
#include "bugs.h"
#include "layout.h"
#include "numbers.h"
#include "quiz.h"
#include "scene.h"
#include "tap.h"
#include "walk.h"

/* The cells of step k at [b, h-or-t, t-or-h, 0..n) along the last axis. */
static void
row_labels(const struct walk *w, int k, int64_t i0, int64_t i1, int64_t i2, int64_t *out,
           int n)
{
	int64_t index[4] = { i0, i1, i2, 0 };

	for (int j = 0; j < n; j++) {
		index[3] = j;
		out[j] = walk_label_at(w, k, index);
	}
}

static void
test_lesson_table(void)
{
	static const struct {
		const char *name;
		int rank;
		int64_t shape[4], strides[4], index[4];
		bool contiguous, copied;
	} want[6] = {
		{ "input", 3, { 1, 3, 4 }, { 12, 4, 1 }, { 0, 1, 0 }, true, false },
		{ "split", 4, { 1, 3, 2, 2 }, { 12, 4, 2, 1 }, { 0, 1, 0, 0 }, true, false },
		{ "swap", 4, { 1, 2, 3, 2 }, { 12, 2, 4, 1 }, { 0, 0, 1, 0 }, false, false },
		{ "swap-back", 4, { 1, 3, 2, 2 }, { 12, 4, 2, 1 }, { 0, 1, 0, 0 }, true, false },
		{ "contiguous", 4, { 1, 3, 2, 2 }, { 12, 4, 2, 1 }, { 0, 1, 0, 0 }, true, false },
		{ "merge", 3, { 1, 3, 4 }, { 12, 4, 1 }, { 0, 1, 0 }, true, false },
	};
	struct walk w;
	int64_t index[LAYOUT_MAX_RANK], off;

	tap_eq(walk_build(&w, WALK_LESSON, 1, 3, 4, 2), WALK_OK, "lesson walk builds");
	tap_eq(w.nsteps, 6, "lesson walk has 6 steps");
	for (int k = 0; k < 6; k++) {
		const struct walk_step *s = &w.steps[k];

		tap_ok(strcmp(s->name, want[k].name) == 0, "step %d is %s (got %s)", k + 1,
		       want[k].name, s->name);
		tap_eq(s->view.rank, want[k].rank, "%s: rank", want[k].name);
		tap_list(s->view.shape, want[k].shape, want[k].rank, "%s: shape", want[k].name);
		tap_list(s->view.strides, want[k].strides, want[k].rank, "%s: strides", want[k].name);
		tap_eq(layout_is_contiguous(&s->view), want[k].contiguous, "%s: contiguity",
		       want[k].name);
		tap_eq(s->copied, want[k].copied, "%s: copied", want[k].name);
		tap_ok(walk_find(&w, k, 4, index, &off), "%s: label 4 found", want[k].name);
		tap_list(index, want[k].index, want[k].rank, "%s: index of label 4", want[k].name);
		tap_eq(off, 4, "%s: label 4 at storage offset 4", want[k].name);
	}
	tap_ok(strcmp(w.steps[1].code, "x.reshape(1, 3, 2, 2)") == 0, "split code: %s",
	       w.steps[1].code);
	tap_ok(strcmp(w.steps[2].code, ".transpose(1, 2)") == 0, "swap code: %s",
	       w.steps[2].code);
	tap_ok(strcmp(w.steps[4].code, ".contiguous()") == 0, "contiguous code: %s",
	       w.steps[4].code);
	tap_ok(strcmp(w.steps[5].code, ".reshape(1, 3, 4)") == 0, "merge code: %s",
	       w.steps[5].code);
}

static void
test_heads_content(void)
{
	struct walk w;
	int64_t got[4];

	walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
	row_labels(&w, 2, 0, 0, 1, got, 2);
	tap_list(got, (int64_t[]){ 4, 5 }, 2, "heads[0, 0, 1] == [4, 5]");
	row_labels(&w, 2, 0, 1, 1, got, 2);
	tap_list(got, (int64_t[]){ 6, 7 }, 2, "heads[0, 1, 1] == [6, 7]");
	row_labels(&w, 2, 0, 1, 2, got, 2);
	tap_list(got, (int64_t[]){ 10, 11 }, 2, "heads[0, 1, 2] == [10, 11]");

	walk_build(&w, WALK_WRONG, 1, 3, 4, 2);
	tap_eq(w.nsteps, 2, "wrong walk: input and one reshape");
	tap_list(w.steps[1].view.shape, (int64_t[]){ 1, 2, 3, 2 }, 4,
	         "wrong split has the right shape [1,2,3,2]");
	row_labels(&w, 1, 0, 0, 1, got, 2);
	tap_list(got, (int64_t[]){ 2, 3 }, 2, "wrong heads[0, 0, 1] == [2, 3] (T=3)");

	walk_build(&w, WALK_WRONG, 1, 2, 4, 2);
	row_labels(&w, 1, 0, 0, 1, got, 2);
	tap_list(got, (int64_t[]){ 2, 3 }, 2, "wrong heads[0, 0, 1] == [2, 3] (T=2)");
	walk_build(&w, WALK_LESSON, 1, 2, 4, 2);
	row_labels(&w, 2, 0, 0, 1, got, 2);
	tap_list(got, (int64_t[]){ 4, 5 }, 2, "right heads[0, 0, 1] == [4, 5] (T=2)");

	walk_build(&w, WALK_LESSON, 1, 3, 4, 1);
	tap_list(w.steps[2].view.shape, (int64_t[]){ 1, 1, 3, 4 }, 4, "1 head: heads are [1,1,3,4]");
	row_labels(&w, 2, 0, 0, 1, got, 4);
	tap_list(got, (int64_t[]){ 4, 5, 6, 7 }, 4, "1 head: heads[0, 0, 1] == [4, 5, 6, 7]");
}

static void
test_round_trip(void)
{
	static const int64_t shapes[][4] = {
		{ 1, 3, 4, 2 }, { 2, 5, 6, 3 }, { 3, 1, 8, 8 }, { 1, 7, 12, 4 }, { 4, 2, 6, 1 },
	};
	for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
		struct walk w;
		int64_t index[3];
		bool same = true;
		int last;

		walk_build(&w, WALK_LESSON, shapes[i][0], shapes[i][1], shapes[i][2], shapes[i][3]);
		last = w.nsteps - 1;
		for (int64_t l = 0; l < walk_numel(&w); l++) {
			layout_unravel(&w.steps[0].view, l, index);
			if (walk_label_at(&w, last, index) != l)
				same = false;
		}
		tap_ok(same, "merge(split(x)) == x cell by cell for [%lld,%lld,%lld] H=%lld",
		       (long long)shapes[i][0], (long long)shapes[i][1], (long long)shapes[i][2],
		       (long long)shapes[i][3]);
	}
}

static void
test_copies(void)
{
	struct layout x, t, v;
	int64_t strides[LAYOUT_MAX_RANK];
	struct walk w;

	layout_init(&x, 4, (int64_t[]){ 1, 3, 2, 2 });
	layout_transpose(&x, 1, 2, &t);
	tap_ok(!layout_is_contiguous(&t), "[B,H,T,d] heads are not contiguous");
	tap_ok(!layout_view_strides(&t, 3, (int64_t[]){ 1, 2, 6 }, strides),
	       "heads.view(B,H,T*d) needs a copy, as in PyTorch");
	tap_ok(layout_view_strides(&t, 4, (int64_t[]){ 1, 2, 3, 2 }, strides),
	       "viewing the heads with their own shape needs no copy");
	tap_ok(layout_view_strides(&t, 5, (int64_t[]){ 1, 2, 3, 2, 1 }, strides),
	       "adding a unit axis needs no copy");
	tap_ok(layout_view_strides(&t, 3, (int64_t[]){ 2, 3, 2 }, strides),
	       "dropping the unit batch axis needs no copy");
	tap_list(strides, (int64_t[]){ 2, 4, 1 }, 3, "... and keeps the strides (2, 4, 1)");
	layout_transpose(&t, 1, 2, &v);
	tap_ok(layout_is_contiguous(&v), "transposing back is contiguous again");

	/* merge_heads of a per-head output: the contiguous() that really copies */
	walk_build(&w, WALK_LESSON, 2, 3, 4, 2);
	tap_eq(w.steps[4].copied, false, "contiguous() after the swap back is a no-op");
	{
		int64_t shape[4] = { 2, 2, 3, 2 };
		struct layout heads, back;
		int64_t out_strides[LAYOUT_MAX_RANK];

		layout_init(&heads, 4, shape);  /* a fresh [B,H,T,d], as attention returns */
		layout_transpose(&heads, 1, 2, &back);
		tap_ok(!layout_is_contiguous(&back), "a fresh [B,H,T,d] transposed is not contiguous");
		tap_ok(!layout_view_strides(&back, 3, (int64_t[]){ 2, 3, 4 }, out_strides),
		       "so reshape to [B,T,D] must copy");
	}
	/* unit axes do not count against contiguity, as in PyTorch */
	layout_init(&x, 3, (int64_t[]){ 1, 1, 4 });
	x.strides[0] = 99;
	x.strides[1] = 7;
	tap_ok(layout_is_contiguous(&x), "strides of unit axes are ignored by is_contiguous");
}

static void
test_overflow(void)
{
	struct layout l;
	struct walk w;
	int64_t out;

	tap_ok(!layout_mul(INT64_MAX / 2 + 1, 2, &out), "layout_mul catches overflow");
	tap_ok(layout_mul(INT64_MAX / 2, 2, &out) && out == INT64_MAX - 1, "layout_mul at the edge");
	tap_ok(!layout_init(&l, 3, (int64_t[]){ 1LL << 31, 1LL << 31, 1LL << 2 }),
	       "2^64 cells are refused");
	tap_ok(!layout_init(&l, 0, (int64_t[]){ 1 }), "rank 0 refused");
	tap_ok(!layout_init(&l, 9, (int64_t[]){ 1, 1, 1, 1, 1, 1, 1, 1, 1 }), "rank 9 refused");
	tap_ok(layout_init(&l, 8, (int64_t[]){ 1, 2, 1, 2, 1, 2, 1, 2 }), "rank 8 accepted");
	tap_ok(!layout_init(&l, 2, (int64_t[]){ 3, 0 }), "a zero size refused");
	tap_eq(walk_build(&w, WALK_LESSON, 1, 3, 5, 2), WALK_ENOTDIVISIBLE,
	       "D=5 with 2 heads is an error, not a dropped coordinate");
	tap_eq(walk_build(&w, WALK_LESSON, 0, 3, 4, 2), WALK_EBADSIZE, "B=0 refused");
	tap_eq(walk_build(&w, WALK_LESSON, 1LL << 40, 1LL << 20, 1LL << 4, 2), WALK_EOVERFLOW,
	       "B*T*D overflow refused");
}

/* walk_same and layout_same: member by member, whatever the bytes
 * between them hold (each walk here built over different garbage). */
static void
test_same(void)
{
	struct walk *a = malloc(sizeof *a), *b = malloc(sizeof *b);
	struct layout l, m;

	memset(a, 0xa5, sizeof *a);
	memset(b, 0x5a, sizeof *b);
	walk_build(a, WALK_LESSON, 1, 3, 4, 2);
	walk_build(b, WALK_LESSON, 1, 3, 4, 2);
	tap_ok(walk_same(a, b) && walk_same(b, a), "the lesson built twice is the same walk");
	walk_build(b, WALK_LESSON, 1, 3, 8, 2);
	tap_ok(!walk_same(a, b), "D=8 is another walk");
	walk_build(b, WALK_WRONG, 1, 3, 4, 2);
	tap_ok(!walk_same(a, b), "the no-transpose bug is another walk");
	walk_build(b, WALK_LESSON, 1, 3, 4, 2);
	b->steps[2].view.strides[1]--;
	tap_ok(!walk_same(a, b), "one stride of one step differs");
	walk_build(b, WALK_LESSON, 1, 3, 4, 2);
	b->steps[1].axes[3][0] = 'e';
	tap_ok(!walk_same(a, b), "one axis name differs");
	walk_build(b, WALK_LESSON, 1, 3, 4, 2);
	b->nsteps--;
	tap_ok(!walk_same(a, b), "one step fewer");
	walk_build(b, WALK_LESSON, 1, 3, 4, 2);
	b->storage[b->nstorage - 1].from.offset = 1;
	tap_ok(!walk_same(a, b), "a copy read from elsewhere");
	layout_init(&l, 2, (int64_t[]){ 3, 4 });
	m = l;
	m.strides[3] = 77;     /* beyond the rank: not part of the view */
	tap_ok(layout_same(&l, &m), "strides past the rank do not count");
	m.offset = 2;
	tap_ok(!layout_same(&l, &m), "the offset counts");
	free(a);
	free(b);
}

static void
test_large(void)
{
	struct walk w;
	int64_t index[LAYOUT_MAX_RANK], off, last = 8LL * 4096 * 12288 - 1;

	tap_eq(walk_build(&w, WALK_LESSON, 8, 4096, 12288, 96), WALK_OK, "402M-cell walk builds");
	tap_eq(walk_numel(&w), 402653184, "402653184 cells");
	tap_ok(walk_find(&w, 2, last, index, &off), "last label found in the heads");
	tap_list(index, (int64_t[]){ 7, 95, 4095, 127 }, 4, "last label at [7, 95, 4095, 127]");
	tap_eq(off, last, "... at storage offset %lld", (long long)last);
	tap_eq(walk_label_at(&w, 2, index), last, "and reads back as itself");
	walk_find(&w, 2, 123456789, index, &off);
	tap_eq(walk_label_at(&w, 2, index), 123456789, "label 123456789 round-trips in the heads");
}

static void
test_scene(void)
{
	struct walk w;
	struct scene sc = { 0 };
	struct scene_opts so;
	const struct scene_item *it, *n;
	int64_t pick[32];
	char tag[16];

	scene_head_tag(0, tag, sizeof tag);
	tap_ok(strcmp(tag, "a") == 0, "head 0 tag a");
	scene_head_tag(25, tag, sizeof tag);
	tap_ok(strcmp(tag, "z") == 0, "head 25 tag z");
	scene_head_tag(26, tag, sizeof tag);
	tap_ok(strcmp(tag, "aa") == 0, "head 26 tag aa");
	scene_head_tag(95, tag, sizeof tag);
	tap_ok(strcmp(tag, "cr") == 0, "head 95 tag cr (got %s)", tag);

	tap_eq(scene_axis_pick(5, 3, true, -1, pick), 5, "short axes are not elided");
	tap_eq(scene_axis_pick(100, 3, true, -1, pick), 7, "100 -> 0 1 2 ... 97 98 99");
	tap_list(pick, (int64_t[]){ 0, 1, 2, -1, 97, 98, 99 }, 7, "elided indices");
	tap_eq(scene_axis_pick(100, 3, true, 50, pick), 11, "focus 50 stays in view");
	tap_list(pick, (int64_t[]){ 0, 1, 2, -1, 49, 50, 51, -1, 97, 98, 99 }, 11, "focus window");

	walk_build(&w, WALK_LESSON, 1, 3, 4, 2);
	scene_opts_default(&so);
	so.selected = 4;
	scene_build(&sc, &w, 2, &so);
	it = scene_find_label(&sc, 4);
	tap_ok(it && (it->mark & SCENE_MARK_SELECTED), "label 4 is drawn selected in the heads");
	tap_ok(scene_find_label(&sc, 5)->mark == SCENE_MARK_HEADMATE, "5 is its head mate");
	tap_ok(scene_find_label(&sc, 6)->mark == SCENE_MARK_POSMATE, "6 is its position mate");
	tap_ok(scene_find_label(&sc, 0)->mark == 0, "0 is unmarked");
	tap_eq(scene_find_label(&sc, 6)->head, 1, "6 belongs to head 1");
	n = scene_neighbour(&sc, it, 0, 1);
	tap_eq(n ? n->label : -1, 5, "right of 4 is 5");
	n = scene_neighbour(&sc, n, 0, 1);
	tap_eq(n ? n->label : -1, 6, "right of 5 is 6, in the next head's panel");
	n = scene_neighbour(&sc, it, 1, 0);
	tap_eq(n ? n->label : -1, 8, "below 4 is 8");
	tap_ok(scene_cell_at(&sc, it->y, it->x) == it, "cell_at finds 4 where it is drawn");
	tap_ok(!sc.elided, "the lesson is not elided");

	walk_build(&w, WALK_LESSON, 8, 4096, 12288, 96);
	so.selected = 402653183;
	scene_build(&sc, &w, 2, &so);
	tap_ok(sc.elided, "402M cells are elided");
	tap_ok(sc.n < 20000, "and drawn with few items (%zu)", sc.n);
	tap_ok(scene_find_label(&sc, 402653183) != NULL, "the last label is shown");
	scene_free(&sc);
}


/* Every cell's path starts where the old scene drew it and ends where the
 * new one does; frame 0 and the last frame are exactly those places. */
static void
test_anim_paths(void)
{
	static const struct { enum walk_kind kind; int64_t b, t, d, h; } cases[] = {
		{ WALK_LESSON, 1, 3, 4, 2 }, { WALK_WRONG, 1, 3, 4, 2 }, { WALK_LESSON, 1, 3, 10, 5 },
		{ WALK_WRONG_MERGE, 2, 3, 10, 5 },
	};
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		struct walk w;
		struct scene_opts so;

		walk_build(&w, cases[c].kind, cases[c].b, cases[c].t, cases[c].d, cases[c].h);
		scene_opts_default(&so);
		for (int k = 0; k + 1 < w.nsteps; k++) {
			struct scene a = { 0 }, b = { 0 };
			struct anim an = { 0 };
			bool ok = true;
			int y, x;

			scene_build(&a, &w, k, &so);
			scene_build(&b, &w, k + 1, &so);
			anim_plan(&an, &a, 3, 5, &b, 7, 11, 12);
			if (an.n != (size_t)walk_numel(&w))
				ok = false;
			for (size_t i = 0; i < an.n; i++) {
				const struct anim_move *m = &an.moves[i];
				const struct scene_item *from = scene_find_label(&a, m->to->label);

				if (from == NULL || m->y0 != from->y + 3 || m->x0 != from->x + 5 ||
				    m->y1 != m->to->y + 7 || m->x1 != m->to->x + 11)
					ok = false;
				anim_at(m, 0, 12, &y, &x);
				if (y != m->y0 || x != m->x0)
					ok = false;
				anim_at(m, 12, 12, &y, &x);
				if (y != m->y1 || x != m->x1)
					ok = false;
				anim_at(m, 6, 12, &y, &x);
				/* a detour changes lines in column xm, maybe outside x0..x1 */
				if ((y - m->y0) * (y - m->y1) > 0 ||
				    ((x - m->x0) * (x - m->x1) > 0 && m->path != ANIM_PATH_DETOUR))
					ok = false;
			}
			tap_ok(ok, "%s [%lld,%lld,%lld] H=%lld, step %d to %d: %zu paths from old place to new",
			       w.kind_name, (long long)cases[c].b, (long long)cases[c].t,
			       (long long)cases[c].d, (long long)cases[c].h, k + 1, k + 2, an.n);
			anim_free(&an);
			scene_free(&a);
			scene_free(&b);
		}
	}
}

static void
test_numbers(void)
{
	struct numbers n;
	int64_t div[16];

	numbers_compute(&n, 1, 3, 64, 2);
	tap_eq(n.head_width, 32, "D=64, H=2: d = 32");
	tap_eq(n.params, 16384, "4*D^2 = 16384 parameters");
	numbers_compute(&n, 1, 3, 64, 4);
	tap_eq(n.params, 16384, "with 4 heads: still 16384");
	tap_eq(n.scores, 36, "B*H*T*T = 1*4*3*3 = 36 score entries");
	numbers_compute(&n, 1, 3, 4, 2);
	tap_eq(n.scores, 18, "the lesson: [1,2,3,3] = 18 score entries");
	tap_eq(n.bytes_f32, 72, "72 bytes at float32");
	tap_eq(n.bytes_bf16, 36, "36 bytes at bfloat16");
	tap_ok(n.scale > 0.7071 && n.scale < 0.7072, "scale 1/sqrt(2) = %.5f", n.scale);
	tap_ok(n.wrong_scale == 0.5, "the wrong 1/sqrt(D) = 0.5");
	numbers_compute(&n, 8, 4096, 12288, 96);
	tap_eq(n.params, 4LL * 12288 * 12288, "GPT-3 width: 4*12288^2 parameters");
	tap_eq(n.scores, 8LL * 96 * 4096 * 4096, "and 8*96*4096*4096 score entries");
	numbers_compute(&n, 1, 1LL << 40, 4, 2);
	tap_ok(!n.scores_ok, "score entries that overflow are flagged");
	tap_eq(numbers_divisors(12, div, 16), 6, "12 has 6 divisors");
	tap_list(div, (int64_t[]){ 1, 2, 3, 4, 6, 12 }, 6, "1 2 3 4 6 12");
	tap_eq(numbers_heads_next(12, 4, 1), 6, "next head count after 4 for D=12: 6");
	tap_eq(numbers_heads_next(12, 4, -1), 3, "previous: 3");
	tap_eq(numbers_heads_next(12, 12, 1), 12, "12 is the most");
}

/* A question of the given kind from the lesson's configuration. */
static struct quiz_question
quiz_of(enum quiz_kind kind)
{
	struct quiz q;

	for (uint64_t seed = 1;; seed++) {
		quiz_make(&q, seed, QUIZ_KINDS, 1, 3, 4, 2);
		if (q.questions[kind].kind == kind)
			return q.questions[kind];
	}
}

static void
test_quiz(void)
{
	struct quiz q;
	struct quiz_question qq;
	char why[320], answer[256];
	int right = 0, total = 0;

	/* every generated answer is accepted as right */
	for (uint64_t seed = 1; seed <= 30; seed++) {
		quiz_make(&q, seed, 14, 2, 3, 6, 3);
		for (int i = 0; i < q.n; i++) {
			const struct quiz_question *p = &q.questions[i];

			quiz_answer(p, answer, sizeof answer);
			total++;
			right += quiz_check(p, p->label, p->set, p->nset, answer, why, sizeof why);
		}
	}
	tap_eq(right, total, "the answer each question reveals is accepted (%d questions)", total);
	quiz_make(&q, 7, 7, 1, 3, 4, 2);
	{
		struct quiz again;

		quiz_make(&again, 7, 7, 1, 3, 4, 2);
		tap_ok(memcmp(&q, &again, sizeof q) == 0, "the same seed makes the same quiz");
	}

	qq = quiz_of(QUIZ_WHERE);
	qq.label = 4;
	tap_ok(quiz_check(&qq, 4, NULL, 0, NULL, why, sizeof why), "where is 4: its cell is right");
	tap_ok(!quiz_check(&qq, 8, NULL, 0, NULL, why, sizeof why) && strstr(why, "without the transpose"),
	       "the cell where 4 lands without the transpose: %s", why);
	tap_ok(!quiz_check(&qq, 2, NULL, 0, NULL, why, sizeof why) && strstr(why, "swapped"),
	       "head and position swapped: %s", why);
	tap_ok(!quiz_check(&qq, 5, NULL, 0, NULL, why, sizeof why) && strstr(why, "coordinate"),
	       "right head and position, wrong coordinate: %s", why);

	qq = quiz_of(QUIZ_WHICH);
	qq.at_head = 0;
	qq.at_position = 1;
	qq.nset = 2;
	qq.set[0] = 4;
	qq.set[1] = 5;
	tap_ok(quiz_check(&qq, -1, (int64_t[]){ 5, 4 }, 2, NULL, why, sizeof why),
	       "head 0, position 1: 5 and 4 in any order");
	tap_ok(!quiz_check(&qq, -1, (int64_t[]){ 2, 3 }, 2, NULL, why, sizeof why) &&
	       strstr(why, "without the transpose"), "2 3 is the split without transpose: %s", why);
	tap_ok(!quiz_check(&qq, -1, (int64_t[]){ 4 }, 1, NULL, why, sizeof why) && strstr(why, "pick 2"),
	       "one label is too few: %s", why);

	qq = quiz_of(QUIZ_SHAPE);
	qq.q_heads = 2;
	qq.heads = 2;
	qq.values[0] = 1, qq.values[1] = 2, qq.values[2] = 3, qq.values[3] = 2;
	tap_ok(quiz_check(&qq, -1, NULL, 0, "[1, 2, 3, 2]", why, sizeof why), "shape [1, 2, 3, 2] is right");
	tap_ok(!quiz_check(&qq, -1, NULL, 0, "1,3,2,2", why, sizeof why) && strstr(why, "[B,T,H,d]"),
	       "1,3,2,2 is before the transpose: %s", why);

	qq = quiz_of(QUIZ_NUMBERS);
	qq.q_width = 64;
	qq.q_heads = 2;
	qq.values[0] = 32;
	qq.values[1] = 16384;
	tap_ok(quiz_check(&qq, -1, NULL, 0, "32 16384", why, sizeof why), "D=64, H=2: 32 and 16384");
	tap_ok(!quiz_check(&qq, -1, NULL, 0, "32 8192", why, sizeof why) && strstr(why, "do not shrink"),
	       "8192 divides by the heads: %s", why);
	tap_ok(!quiz_check(&qq, -1, NULL, 0, "32, 12288", why, sizeof why) && strstr(why, "output"),
	       "12288 forgets the output projection: %s", why);
	tap_ok(!quiz_check(&qq, -1, NULL, 0, "32 16640", why, sizeof why) && strstr(why, "no bias"),
	       "16640 counts a bias: %s", why);

	qq = quiz_of(QUIZ_NO_TRANSPOSE);
	tap_list(qq.values, (int64_t[]){ 4, 5, 2, 3 }, 4, "check 2: right 4 5, without transpose 2 3");
	tap_ok(!quiz_check(&qq, -1, NULL, 0, "2 3 4 5", why, sizeof why) && strstr(why, "Swapped"),
	       "2 3 4 5 swaps them: %s", why);
	qq = quiz_of(QUIZ_ONE_HEAD);
	tap_eq(qq.nset, 4, "check 1: one head holds 4 labels at position 1");
	tap_list(qq.set, (int64_t[]){ 4, 5, 6, 7 }, 4, "4 5 6 7");
}

int
main(void)
{
	test_lesson_table();
	test_heads_content();
	test_round_trip();
	test_copies();
	test_overflow();
	test_same();
	test_large();
	test_scene();
	test_anim_paths();
	test_numbers();
	test_quiz();
	return tap_done();
}
