/* bench.c - the measurements behind tests/bench/run, printed as key=value
 * lines for it to put in a table.  Nothing here judges a number.
 *
 *   bench-headlab trace B,T,D H LOOKUPS
 *       walk_find for LOOKUPS labels spread over x, at every step of the
 *       lesson's walk: nanoseconds per (label, step)
 *   bench-headlab frame B,T,D H COLS LINES
 *       the lab on an xterm-256color screen whose output is a pipe (read
 *       back after every update, so each figure is the bytes curses wrote):
 *       CPU time to step and draw one frame (the median of 200 rounds of
 *       the walk, divided by its steps), bytes per step key with the
 *       animation off, bytes per animation frame, and bytes of a full
 *       repaint (Ctrl-L: clearok(curscr)) of the same screens */
#define _XOPEN_SOURCE_EXTENDED 1
#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tui.h"
#include "walk.h"

static double
bench_now(clockid_t clock)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static bool
bench_shape(const char *arg, int64_t *shape)
{
	long long b, t, d;

	if (sscanf(arg, "%lld,%lld,%lld", &b, &t, &d) != 3)
		return false;
	shape[0] = b;
	shape[1] = t;
	shape[2] = d;
	return true;
}

static int
bench_trace(const struct walk *w, long lookups)
{
	int64_t n = walk_numel(w), index[LAYOUT_MAX_RANK], off, sum = 0;
	double t0, t1;
	long found = 0;

	t0 = bench_now(CLOCK_MONOTONIC);
	for (long i = 0; i < lookups; i++) {
		/* labels spread over x by a multiplicative hash, not in order */
		int64_t label = (int64_t)(((uint64_t)i * 11400714819323198485ull) % (uint64_t)n);

		for (int k = 0; k < w->nsteps; k++) {
			found += walk_find(w, k, label, index, &off);
			sum += off + index[0];
		}
	}
	t1 = bench_now(CLOCK_MONOTONIC);
	printf("cells=%lld\nsteps=%d\nlookups=%ld\nfound=%ld\nchecksum=%lld\n", (long long)n,
	       w->nsteps, lookups, found, (long long)sum);
	printf("ns_per_step=%.1f\n", (t1 - t0) * 1e9 / ((double)lookups * w->nsteps));
	return found == lookups * w->nsteps ? 0 : 1;
}

/* ---- frames and bytes ------------------------------------------------ */

static int bench_pipe[2];

/* Bytes curses has written since the last call (read back from the pipe). */
static long
bench_drain(void)
{
	char buf[65536];
	long total = 0;

	for (;;) {
		ssize_t r = read(bench_pipe[0], buf, sizeof buf);

		if (r > 0)
			total += r;
		else if (r < 0 && errno == EINTR)
			continue;
		else
			break;
	}
	return total;
}

/* Draw and send; the bytes it took. */
static long
bench_update(struct tui *t)
{
	tui_draw(t);
	doupdate();
	return bench_drain();
}

static long
bench_repaint(struct tui *t)
{
	clearok(curscr, TRUE);
	return bench_update(t);
}

static int
bench_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of n values (sorts them). */
static double
bench_median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, bench_cmp);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#define BENCH_ROUNDS 200

static int
bench_frame(const struct walk *w, int cols, int lines)
{
	static struct tui t;
	char buf[16];
	FILE *out;
	SCREEN *screen;
	/* CPU of each round of the walk, whole and its layout part: the
	 * median round stands for the frame, whatever else the machine did */
	static double round_cpu[BENCH_ROUNDS], round_compose[BENCH_ROUNDS];
	double cpu_anim = 0;
	long anim_frames = 0, step_bytes = 0, steps = 0, repaint_bytes = 0, repaints = 0;
	long anim_bytes = 0, anim_first = 0, anim_moves = 0;

	if (pipe(bench_pipe) != 0)
		return 1;
	/* room for the largest repaint, so curses never waits for the reader */
	fcntl(bench_pipe[1], F_SETPIPE_SZ, 1 << 20);
	fcntl(bench_pipe[0], F_SETFL, O_NONBLOCK);
	out = fdopen(bench_pipe[1], "w");
	snprintf(buf, sizeof buf, "%d", cols);
	setenv("COLUMNS", buf, 1);
	snprintf(buf, sizeof buf, "%d", lines);
	setenv("LINES", buf, 1);
	screen = newterm("xterm-256color", out, stdin);
	if (screen == NULL) {
		fprintf(stderr, "bench: no xterm-256color terminfo\n");
		return 1;
	}
	set_term(screen);
	curs_set(0);
	tui_init(&t, w, true, true, NULL);
	t.lab.anim_on = false;
	bench_update(&t);
	bench_drain();

	/* CPU per frame: a step key, compose and send, round the walk */
	for (int round = 0; round < BENCH_ROUNDS; round++) {
		for (int k = 0; k < w->nsteps; k++) {
			double c0 = bench_now(CLOCK_PROCESS_CPUTIME_ID), c1;

			tui_key(&t, k + 1 < w->nsteps ? KEY_RIGHT : KEY_HOME);
			tui_draw(&t);
			c1 = bench_now(CLOCK_PROCESS_CPUTIME_ID);
			doupdate();
			round_cpu[round] += bench_now(CLOCK_PROCESS_CPUTIME_ID) - c0;
			round_compose[round] += c1 - c0;
			bench_drain();
		}
	}

	/* bytes: each step key with the animation off, then a full repaint of
	 * the same screen */
	for (int k = 0; k + 1 < w->nsteps; k++) {
		tui_key(&t, KEY_RIGHT);
		step_bytes += bench_update(&t);
		steps++;
		repaint_bytes += bench_repaint(&t);
		repaints++;
	}

	/* animation frames: Home, then each step key with the animation on;
	 * frames advance on a clock 1/30 s apart, as term_run's timer does */
	tui_key(&t, KEY_HOME);
	bench_update(&t);
	t.lab.anim_on = true;
	t.lab.anim_paused = false;
	for (int k = 0; k + 1 < w->nsteps; k++) {
		double start;

		tui_key(&t, KEY_RIGHT);
		anim_first += bench_update(&t); /* plans the move: its first frame */
		anim_moves++;
		start = t.lab.anim_start;
		for (int f = 1; t.lab.animating && f <= 2 * TUI_ANIM_FRAMES; f++) {
			double c0 = bench_now(CLOCK_PROCESS_CPUTIME_ID);

			if (!tui_tick(&t, start + f / 30.0 + 1e-4))
				continue;
			tui_draw(&t);
			doupdate();
			cpu_anim += bench_now(CLOCK_PROCESS_CPUTIME_ID) - c0;
			anim_bytes += bench_drain();
			anim_frames++;
		}
	}

	printf("cells=%lld\nsize=%dx%d\n", (long long)walk_numel(w), cols, lines);
	printf("frame_us=%.1f\n", bench_median(round_cpu, BENCH_ROUNDS) * 1e6 / w->nsteps);
	/* of which laying out and drawing into curses' window; the rest is
	 * doupdate working out and writing what changed */
	printf("compose_us=%.1f\n", bench_median(round_compose, BENCH_ROUNDS) * 1e6 / w->nsteps);
	printf("anim_frame_us=%.1f\n", anim_frames ? cpu_anim * 1e6 / (double)anim_frames : 0.0);
	printf("step_bytes=%.0f\n", (double)step_bytes / (double)(steps ? steps : 1));
	printf("repaint_bytes=%.0f\n", (double)repaint_bytes / (double)(repaints ? repaints : 1));
	printf("anim_first_bytes=%.0f\n", (double)anim_first / (double)(anim_moves ? anim_moves : 1));
	printf("anim_frame_bytes=%.0f\nanim_frames=%ld\n",
	       (double)anim_bytes / (double)(anim_frames ? anim_frames : 1), anim_frames);
	tui_free(&t);
	endwin();
	delscreen(screen);
	fclose(out);
	close(bench_pipe[0]);
	return 0;
}

int
main(int argc, char **argv)
{
	static struct walk w;
	int64_t shape[3];

	setlocale(LC_ALL, "C.UTF-8");
	if (argc < 4 || !bench_shape(argv[2], shape)) {
		fprintf(stderr, "usage: bench-headlab trace B,T,D H LOOKUPS | frame B,T,D H COLS LINES\n");
		return 2;
	}
	if (walk_build(&w, WALK_LESSON, shape[0], shape[1], shape[2], atoll(argv[3])) != WALK_OK) {
		fprintf(stderr, "bench: cannot build that walk\n");
		return 2;
	}
	if (strcmp(argv[1], "trace") == 0 && argc == 5)
		return bench_trace(&w, atol(argv[4]));
	if (strcmp(argv[1], "frame") == 0 && argc == 6)
		return bench_frame(&w, atoi(argv[4]), atoi(argv[5]));
	fprintf(stderr, "bench: unknown mode\n");
	return 2;
}
