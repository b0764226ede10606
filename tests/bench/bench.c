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
 *       repaint (Ctrl-L: clearok(curscr)) of the same screens
 *   bench-headlab attention B,T,D H COLS LINES [fused]
 *       the attention pass in the lab: every key it takes (A, the steps,
 *       moves, x through every head, o, + - =, Esc, t, Home, End) pressed
 *       on every step, CPU time of each (key, draw, doupdate): per key its
 *       presses, the slowest and the mean in ms; and the peak RSS
 *       (BENCH_SLOW=MS: each press slower than MS named on stderr) */
/* ncursesw declares its wide-character calls under this name */
#define _XOPEN_SOURCE_EXTENDED 1 /* NOLINT(bugprone-reserved-identifier,cert-dcl37-c,cert-dcl51-cpp) */
#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "lab_attention.h"
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

	/* tests/bench/run writes the shape; a count other than 3 refuses it */
	if (sscanf(arg, "%lld,%lld,%lld", &b, &t, &d) != 3) /* NOLINT(cert-err34-c) */
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

/* Press key, draw and send, and read back what curses wrote: the CPU it
 * took in all, and in *compose (unless NULL) the part before doupdate,
 * laying out and drawing into curses' window. */
static double
bench_timed_key(struct tui *t, int key, double *compose)
{
	double c0 = bench_now(CLOCK_PROCESS_CPUTIME_ID), c1 = c0, dt;

	tui_key(t, key);
	tui_draw(t);
	if (compose)
		c1 = bench_now(CLOCK_PROCESS_CPUTIME_ID);
	doupdate();
	dt = bench_now(CLOCK_PROCESS_CPUTIME_ID) - c0;
	bench_drain();
	if (compose)
		*compose = c1 - c0;
	return dt;
}

/* The lab for w on an xterm-256color screen of cols x lines whose output
 * is the pipe bench_drain() reads, the animation off; NULL when there is
 * no pipe or no such terminal (said on stderr). */
static SCREEN *
bench_open(struct tui *t, const struct walk *w, int cols, int lines, FILE **out)
{
	char buf[16];
	SCREEN *screen;

	if (pipe(bench_pipe) != 0)
		return NULL;
	/* room for the largest repaint, so curses never waits for the reader */
	fcntl(bench_pipe[1], F_SETPIPE_SZ, 1 << 20);
	fcntl(bench_pipe[0], F_SETFL, O_NONBLOCK);
	*out = fdopen(bench_pipe[1], "w");
	snprintf(buf, sizeof buf, "%d", cols);
	setenv("COLUMNS", buf, 1);
	snprintf(buf, sizeof buf, "%d", lines);
	setenv("LINES", buf, 1);
	screen = newterm("xterm-256color", *out, stdin);
	if (screen == NULL) {
		fprintf(stderr, "bench: no xterm-256color terminfo\n");
		return NULL;
	}
	set_term(screen);
	curs_set(0);
	tui_init(t, w, true, true, NULL);
	t->lab.glide.on = false;
	return screen;
}

/* The lab, its screen and the pipe closed. */
static void
bench_close(struct tui *t, SCREEN *screen, FILE *out)
{
	tui_free(t);
	endwin();
	delscreen(screen);
	fclose(out);
	close(bench_pipe[0]);
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
	FILE *out;
	SCREEN *screen;
	/* CPU of each round of the walk, whole and its layout part: the
	 * median round stands for the frame, whatever else the machine did */
	static double round_cpu[BENCH_ROUNDS], round_compose[BENCH_ROUNDS];
	double cpu_anim = 0;
	long anim_frames = 0, step_bytes = 0, steps = 0, repaint_bytes = 0, repaints = 0;
	long anim_bytes = 0, anim_first = 0, anim_moves = 0;

	screen = bench_open(&t, w, cols, lines, &out);
	if (screen == NULL)
		return 1;
	bench_update(&t);
	bench_drain();

	/* CPU per frame: a step key, compose and send, round the walk */
	for (int round = 0; round < BENCH_ROUNDS; round++) {
		for (int k = 0; k < w->nsteps; k++) {
			double compose;

			round_cpu[round] += bench_timed_key(&t, k + 1 < w->nsteps ? KEY_RIGHT : KEY_HOME,
			                                    &compose);
			round_compose[round] += compose;
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
	t.lab.glide.on = true;
	t.lab.glide.paused = false;
	for (int k = 0; k + 1 < w->nsteps; k++) {
		double start;

		tui_key(&t, KEY_RIGHT);
		anim_first += bench_update(&t); /* plans the move: its first frame */
		anim_moves++;
		start = t.lab.glide.start;
		for (int f = 1; t.lab.glide.moving && f <= 2 * TUI_ANIM_FRAMES; f++) {
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
	bench_close(&t, screen, out);
	return 0;
}

/* ---- the attention pass's keys ---------------------------------------- */

/* One key of the pass: its name, its code, the most and the total CPU it
 * took (tui_key + tui_draw + doupdate) and how often it was pressed. */
struct bench_key {
	const char *name;
	int key;
	double max, total;
	int n;
};

static struct bench_key bench_keys[] = {
	{ "A (enter)", 'A', 0, 0, 0 }, { "Right", KEY_RIGHT, 0, 0, 0 }, { "Left", KEY_LEFT, 0, 0, 0 },
	{ "h", 'h', 0, 0, 0 }, { "l", 'l', 0, 0, 0 }, { "j", 'j', 0, 0, 0 }, { "k", 'k', 0, 0, 0 },
	{ "Up", KEY_UP, 0, 0, 0 }, { "Down", KEY_DOWN, 0, 0, 0 }, { "Home", KEY_HOME, 0, 0, 0 },
	{ "End", KEY_END, 0, 0, 0 }, { "x", 'x', 0, 0, 0 }, { "o", 'o', 0, 0, 0 },
	{ "+", '+', 0, 0, 0 }, { "-", '-', 0, 0, 0 }, { "=", '=', 0, 0, 0 }, { "Esc", 27, 0, 0, 0 },
	{ "t", 't', 0, 0, 0 }, { "A (leave)", 'A', 0, 0, 0 }, { "A (again)", 'A', 0, 0, 0 },
};

/* Press bench_keys[k] and time it. */
static void
bench_press(struct tui *t, int k)
{
	double dt = bench_timed_key(t, bench_keys[k].key, NULL);
	const char *slow = getenv("BENCH_SLOW");

	if (slow && dt > strtod(slow, NULL) / 1e3)
		fprintf(stderr, "slow: %s at step %d: %.1f ms (zoom %d)\n", bench_keys[k].name,
		        t->lab.attn ? t->lab.attn->step : -1, dt * 1e3, t->lab.attn ? t->lab.attn->zoom : -1);
	bench_keys[k].total += dt;
	bench_keys[k].n++;
	if (dt > bench_keys[k].max)
		bench_keys[k].max = dt;
}

static int
bench_key_index(const char *name)
{
	for (size_t i = 0; i < sizeof bench_keys / sizeof bench_keys[0]; i++)
		if (strcmp(bench_keys[i].name, name) == 0)
			return (int)i;
	return 0;
}

/* Every key of the attention pass on every step: moves, x through every
 * head and back, o, the zoom keys, Esc, t, Home, End, leaving and coming
 * back; the slowest and the mean of each, and the process's peak RSS. */
static int
bench_attention(const struct walk *w, int cols, int lines, bool fused)
{
	static struct tui t;
	static const char *const moves[] = { "h", "l", "j", "k", "Up", "Down", "+", "-", "=", "o", "o", "t" };
	FILE *out;
	SCREEN *screen;
	struct rusage ru;

	screen = bench_open(&t, w, cols, lines, &out);
	if (screen == NULL)
		return 1;
	t.lab.attn_fused = fused;
	bench_update(&t);
	bench_press(&t, bench_key_index("A (enter)"));
	if (t.lab.attn == NULL) {
		fprintf(stderr, "bench: the pass did not start\n");
		return 1;
	}
	for (int step = 0; step < ATTENTION_NSTEPS; step++) {
		for (size_t m = 0; m < sizeof moves / sizeof moves[0]; m++)
			bench_press(&t, bench_key_index(moves[m]));
		/* x through every head and back to the reading picture, Esc */
		for (int64_t h = 0; h <= t.lab.attn->a.heads; h++)
			bench_press(&t, bench_key_index("x"));
		bench_press(&t, bench_key_index("x"));
		bench_press(&t, bench_key_index("Esc"));
		bench_press(&t, bench_key_index(step + 1 < ATTENTION_NSTEPS ? "Right" : "Home"));
	}
	bench_press(&t, bench_key_index("End"));
	for (int step = 0; step < ATTENTION_NSTEPS - 1; step++)
		bench_press(&t, bench_key_index("Left"));
	bench_press(&t, bench_key_index("A (leave)"));
	bench_press(&t, bench_key_index("A (again)"));
	getrusage(RUSAGE_SELF, &ru);
	printf("size=%dx%d\nfused=%d\n", cols, lines, fused);
	for (size_t i = 0; i < sizeof bench_keys / sizeof bench_keys[0]; i++)
		if (bench_keys[i].n > 0)
			printf("key=%s\t%d\t%.2f\t%.2f\n", bench_keys[i].name, bench_keys[i].n,
			       bench_keys[i].max * 1e3, bench_keys[i].total * 1e3 / bench_keys[i].n);
	printf("maxrss_kb=%ld\n", ru.ru_maxrss);
	bench_close(&t, screen, out);
	return 0;
}

/* A size on the command line, as atoi() reads it. */
static int
bench_int(const char *arg)
{
	return (int)strtol(arg, NULL, 10);
}

int
main(int argc, char **argv)
{
	static struct walk w;
	int64_t shape[3];

	setlocale(LC_ALL, "C.UTF-8");
	if (argc < 4 || !bench_shape(argv[2], shape)) {
		fprintf(stderr, "usage: bench-headlab trace B,T,D H LOOKUPS | frame B,T,D H COLS LINES | "
		        "attention B,T,D H COLS LINES [fused]\n");
		return 2;
	}
	if (walk_build(&w, WALK_LESSON, shape[0], shape[1], shape[2], strtoll(argv[3], NULL, 10)) != WALK_OK) {
		fprintf(stderr, "bench: cannot build that walk\n");
		return 2;
	}
	if (strcmp(argv[1], "trace") == 0 && argc == 5)
		return bench_trace(&w, strtol(argv[4], NULL, 10));
	if (strcmp(argv[1], "frame") == 0 && argc == 6)
		return bench_frame(&w, bench_int(argv[4]), bench_int(argv[5]));
	if (strcmp(argv[1], "attention") == 0 && (argc == 6 || argc == 7))
		return bench_attention(&w, bench_int(argv[4]), bench_int(argv[5]), argc == 7 && strcmp(argv[6], "fused") == 0);
	fprintf(stderr, "bench: unknown mode\n");
	return 2;
}
