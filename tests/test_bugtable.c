/* test_bugtable.c - the bug table drives everything about bugs: --wrong's
 * names, the walks, the cells --print --json and the lab mark, the quiz's
 * answers and the lab's 'b' order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bugs.h"
#include "options.h"
#include "quiz.h"
#include "scene.h"
#include "tap.h"
#include "walk.h"

/* The labels a scene of bug's last step marks wrong against d, ascending
 * (the scene lists cells row-major; sorting makes sets comparable). */
static int
marked_labels(const struct walk *bug, const struct bugs_diff *d, int64_t *out, int max)
{
	struct scene sc = { 0 };
	struct scene_opts so;
	int n = 0;

	scene_opts_default(&so);
	so.width = 1 << 20;
	so.compare = &d->right;
	so.compare_step = d->right_step;
	scene_build(&sc, bug, d->bug_step, &so);
	for (size_t i = 0; i < sc.n && n < max; i++)
		if (sc.items[i].mark & SCENE_MARK_WRONG)
			out[n++] = sc.items[i].label;
	scene_free(&sc);
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && out[j - 1] > out[j]; j--) {
			int64_t t = out[j];

			out[j] = out[j - 1];
			out[j - 1] = t;
		}
	return n;
}

static void
test_rows(void)
{
	static struct walk w;
	static struct bugs_diff d;
	char names[256];
	int64_t diff[96], marked[96];

	bugs_names(names, sizeof names, ", ");
	tap_ok(strcmp(names, "no-transpose, swap-batch, d-h, merge-no-transpose") == 0,
	       "the names, in the table's order: %s", names);
	for (int i = 0; i < bugs_count; i++) {
		const struct bug *b = &bugs_table[i];
		enum walk_kind k = WALK_LESSON;
		int nd, nm;

		tap_ok(walk_kind_parse(b->name, &k) && k == bugs_kind(i) && bugs_get(k) == b,
		       "--wrong=%s parses to row %d", b->name, i);
		tap_eq(walk_build(&w, k, 1, 3, 4, 2), WALK_OK, "%s builds", b->name);
		tap_ok(strcmp(w.kind_name, b->name) == 0 && strcmp(w.summary, b->summary) == 0,
		       "%s: the walk carries the row's name and summary", b->name);
		bugs_compare(&w, &d);
		tap_ok(strcmp(d.right.steps[d.right_step].name, b->compare) == 0,
		       "%s is held against the right walk's %s", b->name, b->compare);
		tap_eq(walk_bug_compare_step(&d.right, k), d.right_step,
		       "%s: walk_bug_compare_step agrees", b->name);
		nd = bugs_diff_labels(&w, &d, diff, 96, 96);
		nm = marked_labels(&w, &d, marked, 96);
		tap_ok(nd == nm && memcmp(diff, marked, sizeof diff[0] * (size_t)nd) == 0,
		       "%s: the scene marks the %d cells the diff lists", b->name, nd);
		tap_eq(bugs_next(k), i + 1 < bugs_count ? bugs_kind(i + 1) : WALK_LESSON,
		       "'b' after %s", b->name);
	}
	tap_eq(bugs_next(WALK_LESSON), bugs_kind(0), "'b' from the lesson: the first bug");
	tap_ok(!walk_kind_parse("lesson", &(enum walk_kind){ WALK_LESSON }),
	       "the lesson is not a bug");
	tap_ok(bugs_get(WALK_LESSON) == NULL && bugs_get(WALK_CUSTOM) == NULL &&
	       bugs_get(bugs_kind(bugs_count)) == NULL, "only rows are bugs");
}

/* Known answers: no-transpose at the lesson's sizes misplaces 2..9. */
static void
test_known(void)
{
	static struct walk w;
	static struct bugs_diff d;
	int64_t diff[96];

	walk_build(&w, WALK_WRONG, 1, 3, 4, 2);
	bugs_compare(&w, &d);
	tap_eq(bugs_diff_labels(&w, &d, diff, 96, 96), 8, "no-transpose misplaces 8 cells");
	tap_list(diff, (int64_t[]){ 2, 3, 4, 5, 6, 7, 8, 9 }, 8, "2 to 9");
	walk_build(&w, WALK_WRONG_SWAP_BATCH, 1, 3, 4, 2);
	bugs_compare(&w, &d);
	tap_ok(!d.same_shape && bugs_diff_labels(&w, &d, diff, 96, 96) == 0,
	       "swap-batch at 1,3,4: shapes differ, nothing to compare cell by cell");
}

/* The quiz asks about every row that has an answer, with the diff's set. */
static void
test_quiz(void)
{
	static struct quiz q;
	static struct walk w;
	static struct bugs_diff d;
	int seen[64] = { 0 }, agree = 0, asked = 0;
	int64_t diff[96];

	for (uint64_t seed = 1; seed <= 200; seed++) {
		quiz_make(&q, seed, 14, 2, 2, 4, 2);
		for (int j = 0; j < q.n; j++) {
			const struct quiz_question *qq = &q.questions[j];

			if (qq->kind != QUIZ_DIFF)
				continue;
			asked++;
			seen[qq->walk - WALK_BUG]++;
			quiz_walk(qq, &w);
			bugs_compare(&w, &d);
			agree += bugs_diff_labels(&w, &d, diff, 96, 96) == qq->nset &&
			         memcmp(diff, qq->set, sizeof diff[0] * (size_t)qq->nset) == 0;
		}
	}
	tap_eq(agree, asked, "each diff question's answer is the table's diff (%d asked)", asked);
	for (int i = 0; i < bugs_count; i++)
		tap_ok(seen[i] > 0, "at B = T = H = 2 the quiz asks about %s (%d times)",
		       bugs_table[i].name, seen[i]);
}

/* --help and --wrong's error list name every row, in the table's words
 * (options.c should print bugs_usage and bugs_names). */
static void
test_options(void)
{
	struct options o;
	char usage[1024], names[256], err[512];
	char *argv[] = { "headlab", "--wrong=nonsense", NULL };

	char *help = NULL, line[256];
	size_t helplen = 0;
	FILE *out = open_memstream(&help, &helplen);
	int listed = 0;

	options_print_usage(out);
	fclose(out);
	bugs_usage(usage, sizeof usage, 0);
	for (const char *p = usage; *p;) {
		size_t n = strcspn(p, "\n");

		/* each row's words, wherever --help's wrapping puts them */
		snprintf(line, sizeof line, "%.*s", (int)(n > 40 ? 40 : n), p);
		listed += strstr(help, line) != NULL;
		p += n + (p[n] == '\n');
	}
	tap_eq(listed, bugs_count, "--help lists the table's bugs in its words");
	free(help);
	bugs_names(names, sizeof names, ", ");
	tap_eq(options_parse(&o, 2, argv, err, sizeof err), 2, "--wrong=nonsense is refused");
	tap_ok(strstr(err, names) != NULL, "naming the table's bugs: %s", err);
}

int
main(void)
{
	test_options();
	test_rows();
	test_known();
	test_quiz();
	return tap_done();
}
