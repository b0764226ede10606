/* test_attention.c - the attention pass against the lesson's numbers and
 * against PyTorch's own results (tests/data/torch-*.txt, made by
 * tests/data/torch_reference.py): the seeded weights bit for bit, every
 * step of three forward passes within 1e-12 of float64 PyTorch and 1e-6 of
 * float32 PyTorch, both relative to the step's largest magnitude. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>

#include "attention.h"
#include "explain.h"
#include "fixture.h"
#include "mt19937.h"
#include "print.h"
#include "print_attention.h"
#include "reading.h"
#include "tap.h"

static double
test_cpu_ms(void)
{
	return (double)clock() * 1000.0 / CLOCKS_PER_SEC;
}

static uint32_t
test_bits(float f)
{
	uint32_t u;

	memcpy(&u, &f, sizeof u);
	return u;
}

static uint64_t
test_fnv1a64(const float *w, int64_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (int64_t i = 0; i < n; i++) {
		uint32_t u = test_bits(w[i]);

		for (int k = 0; k < 4; k++) {
			h ^= (u >> (8 * k)) & 0xFFU;
			h *= 0x100000001b3ULL;
		}
	}
	return h;
}

/* Read a whole file into a NUL-terminated buffer. */
static char *
test_slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (f == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	if (buf)
		buf[n] = '\0';
	fclose(f);
	return buf;
}

/* Every "weights SEED D" block: each matrix whole, or its listed rows and
 * the FNV-1a hash of all of it.  fused: the weights drawn as GPT-2's
 * c_attn [3D, D] in one draw and c_proj (attention_fuse), held against the
 * same recorded four nn.Linear(D, D): by PyTorch's init (fan_in D for
 * both, one 32-bit draw per element in order) c_attn.weight is q_proj's
 * rows, k_proj's, v_proj's (torch-fused.txt records c_attn itself). */
static void
test_weights_file(char *text, bool fused)
{
	const char *how = fused ? " (fused c_attn, c_proj)" : "";
	struct attention a;
	char err[256], *save = NULL;
	bool have = false;

	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[32];
		long long seed, width, row;
		unsigned long long hash;
		int m, used;

		if (sscanf(line, "weights %lld %lld", &seed, &width) == 2) {
			if (have)
				attention_free(&a);
			have = attention_init(&a, 1, 1, width, 1, (uint32_t)seed, err, sizeof err, NULL, 0) == 0 &&
			       (!fused || attention_fuse(&a) == 0);
			tap_ok(have, "seed %lld width %lld: weights drawn%s", seed, width, how);
			continue;
		}
		if (!have || line[0] == '#' || sscanf(line, "%31s%n", name, &used) != 1)
			continue;
		m = attention_lookup(name, strlen(name)) - ATTENTION_Q_WEIGHT;
		if (m < 0 || m > 3)
			continue;
		if (sscanf(line + used, " fnv1a64 %llx", &hash) == 1) {
			tap_ok(test_fnv1a64(a.weight[m], a.width * a.width) == hash,
			       "seed %u width %lld: %s hashes as PyTorch's%s", a.seed, (long long)a.width, name, how);
		} else {
			const char *p = line + used;
			int64_t first = 0, n = a.width * a.width, bad = -1;
			int k;

			if (sscanf(p, " row %lld%n", &row, &k) == 1) {
				first = row * a.width;
				n = a.width;
				p += k;
			}
			for (int64_t i = 0; i < n; i++) {
				unsigned want;

				if (sscanf(p, " %x%n", &want, &k) != 1 || test_bits(a.weight[m][first + i]) != want) {
					bad = i;
					break;
				}
				p += k;
			}
			tap_ok(bad < 0, "seed %u width %lld: %s%s bit for bit as PyTorch's%s (first wrong: %lld)",
			       a.seed, (long long)a.width, name, n == a.width ? " row" : "", how, (long long)bad);
		}
	}
	if (have)
		attention_free(&a);
}

/* Every "fused SEED D" block of torch-fused.txt, recorded from PyTorch:
 * attention_fuse's c_attn.weight (q, k, v weights one after the other)
 * and c_proj.weight bit for bit, whole or by their FNV-1a hashes, and the
 * strides of the split headlab reports for q. */
static void
test_fused_file(char *text)
{
	struct attention a;
	float *c_attn = NULL;
	char err[256], *save = NULL;
	bool have = false;

	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		long long seed, width, s0, s1, s2;
		unsigned long long hash;
		int contiguous, used;
		char name[32];

		if (sscanf(line, "fused %lld %lld", &seed, &width) == 2) {
			if (have)
				attention_free(&a);
			free(c_attn);
			have = attention_init(&a, 1, 2, width, 1, (uint32_t)seed, err, sizeof err, NULL, 0) == 0 &&
			       attention_fuse(&a) == 0;
			c_attn = malloc((size_t)(3 * width * width) * sizeof *c_attn);
			have = have && c_attn;
			for (int m = 0; have && m < 3; m++)
				memcpy(c_attn + m * width * width, a.weight[m], (size_t)(width * width) * sizeof *c_attn);
			tap_ok(have, "seed %lld width %lld: c_attn and c_proj drawn", seed, width);
			continue;
		}
		if (!have || line[0] == '#')
			continue;
		if (sscanf(line, "split strides %lld,%lld,%lld contiguous %d", &s0, &s1, &s2, &contiguous) == 4) {
			struct attention_info in;

			attention_info(&a, ATTENTION_Q, &in);
			tap_ok(in.strides[0] == s0 && in.strides[1] == s1 && in.strides[2] == s2 &&
			       in.contiguous == (contiguous != 0), "seed %u width %lld: q's strides (%lld,%lld,%lld) "
			       "as PyTorch's split", a.seed, (long long)a.width, s0, s1, s2);
			continue;
		}
		if (sscanf(line, "%31s%n", name, &used) != 1)
			continue;
		{
			bool attn = strcmp(name, "c_attn_weight") == 0;
			const float *w = attn ? c_attn : a.weight[3];
			int64_t n = (attn ? 3 : 1) * a.width * a.width, bad = -1;
			const char *p = line + used;
			int k;

			if (!attn && strcmp(name, "c_proj_weight") != 0)
				continue;
			if (sscanf(p, " fnv1a64 %llx", &hash) == 1) {
				tap_ok(test_fnv1a64(w, n) == hash, "seed %u width %lld: fused %s hashes as PyTorch's",
				       a.seed, (long long)a.width, name);
				continue;
			}
			for (int64_t i = 0; i < n; i++) {
				unsigned want;

				if (sscanf(p, " %x%n", &want, &k) != 1 || test_bits(w[i]) != want) {
					bad = i;
					break;
				}
				p += k;
			}
			tap_ok(bad < 0, "seed %u width %lld: fused %s bit for bit as PyTorch's (first wrong: %lld)",
			       a.seed, (long long)a.width, name, (long long)bad);
		}
	}
	if (have)
		attention_free(&a);
	free(c_attn);
}

/* One "f32 NAME SHAPE values..." line against the pass: the largest
 * difference relative to the step's largest magnitude. */
static double
test_step_error(struct attention *a, const char *name, char *values, int64_t *count)
{
	int t = attention_lookup(name, strlen(name));
	struct attention_info info;
	double worst = 0, scale = 0, *want;
	int64_t n = 1, ix[4];
	char *p = values, *end;

	if (t < 0)
		return INFINITY;
	attention_info(a, (enum attention_tensor)t, &info);
	for (int i = 0; i < info.rank; i++)
		n *= info.shape[i];
	want = malloc((size_t)n * sizeof *want);
	for (int64_t k = 0; k < n; k++) {
		want[k] = strtod(p, &end);
		if (end == p) {
			free(want);
			return INFINITY;
		}
		p = end;
		if (isfinite(want[k]) && fabs(want[k]) > scale)
			scale = fabs(want[k]);
	}
	for (int64_t k = 0; k < n; k++) {
		int64_t r = k;
		double got;

		for (int i = info.rank - 1; i >= 0; i--) {
			ix[i] = r % info.shape[i];
			r /= info.shape[i];
		}
		got = attention_value(a, (enum attention_tensor)t, ix);
		if (isinf(want[k]) || isinf(got)) {
			if (got != want[k])
				worst = INFINITY;
			continue;
		}
		if (fabs(got - want[k]) / (scale > 0 ? scale : 1) > worst)
			worst = fabs(got - want[k]) / (scale > 0 ? scale : 1);
	}
	free(want);
	*count = n;
	return worst;
}

static void
test_forward_file(char *text)
{
	struct attention a;
	char err[256], *save = NULL;
	bool have = false;

	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		long long seed, b, t, d, h;
		char dtype[8], name[32], shape[64];
		int used;
		int64_t n = 0;
		double err_rel, tol;

		if (sscanf(line, "forward %lld %lld %lld %lld %lld", &seed, &b, &t, &d, &h) == 5) {
			if (have)
				attention_free(&a);
			have = attention_init(&a, b, t, d, h, (uint32_t)seed, err, sizeof err, NULL, 0) == 0;
			tap_ok(have, "forward pass seed %lld shape %lld,%lld,%lld heads %lld", seed, b, t, d, h);
			continue;
		}
		if (!have || sscanf(line, "%7s %31s %63s%n", dtype, name, shape, &used) != 3)
			continue;
		tol = strcmp(dtype, "f64") == 0 ? 1e-12 : 1e-6;
		err_rel = test_step_error(&a, name, line + used, &n);
		tap_ok(err_rel <= tol, "seed %u %s [%s]: within %g of PyTorch %s (off by %.3g of the "
		       "largest, %lld cells)", a.seed, name, shape, tol, dtype, err_rel, (long long)n);
	}
	if (have)
		attention_free(&a);
}

static void
test_lesson(void)
{
	struct attention a;
	struct attention_info info;
	char err[256];
	static const double head0[] = { 0.002978, 0.997022, 0 }, head1[] = { 0.999998, 0.000002, 0 };
	const double *row;
	bool near0 = true, near1 = true;

	tap_eq(attention_init(&a, 1, 3, 4, 2, 42, err, sizeof err, NULL, 0), 0, "the lesson's pass builds");
	attention_info(&a, ATTENTION_SCORES, &info);
	tap_list(info.shape, (const int64_t[]){ 1, 2, 3, 3 }, 4, "the combined score table is [1,2,3,3]");
	attention_info(&a, ATTENTION_CONTEXT, &info);
	tap_list(info.shape, (const int64_t[]){ 1, 2, 3, 2 }, 4, "context is [1,2,3,2]");
	attention_info(&a, ATTENTION_OUTPUT, &info);
	tap_list(info.shape, (const int64_t[]){ 1, 3, 4 }, 3, "output is [1,3,4]");
	for (int t = 0; t < ATTENTION_NSTEPS; t++) {
		bool want = t == ATTENTION_Q || t == ATTENTION_K || t == ATTENTION_V || t == ATTENTION_MERGED;

		attention_info(&a, (enum attention_tensor)t, &info);
		tap_ok(info.width_of_heads == want, "%s: its width %s the heads' (drawn in head groups "
		       "only then)", info.name, want ? "is" : "is not");
	}
	tap_ok(fabs(a.sqrt_d - sqrt(2.0)) < 1e-15, "scores are divided by sqrt(d) = sqrt(2), not sqrt(4)");
	row = attention_weights_row(&a, 0, 0, 1);
	for (int s = 0; s < 3; s++)
		near0 = near0 && fabs(row[s] - head0[s]) < 5e-7;
	tap_ok(near0, "position 1, head 0 reads [0.002978, 0.997022, 0] (got %.6f %.6f %.6f)", row[0],
	       row[1], row[2]);
	row = attention_weights_row(&a, 0, 1, 1);
	for (int s = 0; s < 3; s++)
		near1 = near1 && fabs(row[s] - head1[s]) < 5e-7;
	tap_ok(near1, "position 1, head 1 reads [0.999998, 0.000002, 0] (got %.6f %.6f %.6f)", row[0],
	       row[1], row[2]);
	tap_ok(row[2] == 0 && isinf(attention_value(&a, ATTENTION_MASKED, (const int64_t[]){ 0, 1, 1, 2 })),
	       "the future is -inf before the softmax and 0 after it");
	{
		struct explain e;
		char why[256] = "";

		tap_ok(explain_parse(&a, " context[0, 0, 1, -2] ", &e, why, sizeof why) &&
		       e.t == ATTENTION_CONTEXT && e.index[3] == 0, "explain parses 'context[0, 0, 1, -2]' "
		       "as context[0, 0, 1, 0]");
		explain_cell(&a, &e);
		tap_ok(e.nterms == 3 && e.reads[2].t == ATTENTION_WEIGHTS && e.reads[3].t == ATTENTION_V_HEADS &&
		       e.reads[3].index[2] == 1 && fabs(e.terms[0].product + e.terms[1].product +
		       e.terms[2].product - e.value) < 1e-15 && e.terms[2].product == 0,
		       "context[0,0,1,0] is 3 terms weights[0,0,1,s] * v_heads[0,0,s,0], the masked one 0");
		explain_free(&e);
		tap_ok(!explain_parse(&a, "context[0,0,3,0]", &e, why, sizeof why) && strstr(why, "out of range"),
		       "explain refuses an index out of range: %s", why);
	}
	attention_info(&a, ATTENTION_Q_HEADS, &info);
	tap_list(info.strides, (const int64_t[]){ 12, 2, 4, 1 }, 4, "q_heads is the split's view: strides (12, 2, 4, 1)");
	tap_ok(!info.contiguous, "q_heads is not contiguous");
	attention_info(&a, ATTENTION_SWAP_BACK, &info);
	tap_list(info.strides, (const int64_t[]){ 12, 2, 6, 1 }, 4, "context.transpose(1, 2) has strides (12, 2, 6, 1)");
	tap_ok(!info.contiguous, "... and is not contiguous (context is fresh)");
	attention_info(&a, ATTENTION_CONTIGUOUS, &info);
	tap_ok(info.copied && info.contiguous, ".contiguous() really copies here");
	attention_free(&a);
	/* one head: the transposed view is already contiguous, no copy */
	tap_eq(attention_init(&a, 1, 3, 4, 1, 42, err, sizeof err, NULL, 0), 0, "one head builds");
	attention_info(&a, ATTENTION_CONTIGUOUS, &info);
	tap_ok(!info.copied, "with one head .contiguous() copies nothing");
	attention_free(&a);
}

/* Each head on its own, with dense loops in this file: the same context
 * as the batched pass, the same outputs, and ablation as a sum without
 * that head's terms. */
static void
test_heads_one_at_a_time(int64_t B, int64_t T, int64_t D, int64_t H, uint32_t seed)
{
	struct attention a;
	char err[256];
	int64_t d = D / H;
	double worst = 0, worst_out = 0, worst_ablate = 0;
	double *q = malloc((size_t)(3 * B * T * D) * sizeof *q), *k = q + B * T * D, *v = k + B * T * D;
	double *ctx = calloc((size_t)(B * T * D), sizeof *ctx); /* merged layout [B,T,D] */

	attention_init(&a, B, T, D, H, seed, err, sizeof err, NULL, 0);
	for (int64_t r = 0; r < B * T; r++)
		for (int64_t i = 0; i < D; i++) {
			double sq = 0, sk = 0, sv = 0;

			for (int64_t j = 0; j < D; j++) {
				double x = (double)(r * D + j);

				sq += (double)a.weight[0][i * D + j] * x;
				sk += (double)a.weight[1][i * D + j] * x;
				sv += (double)a.weight[2][i * D + j] * x;
			}
			q[r * D + i] = sq;
			k[r * D + i] = sk;
			v[r * D + i] = sv;
		}
	for (int64_t h = 0; h < H; h++)
		for (int64_t b = 0; b < B; b++)
			for (int64_t t = 0; t < T; t++) {
				double sc[64], max = -INFINITY, sum = 0;

				for (int64_t s = 0; s <= t; s++) {
					double acc = 0;

					for (int64_t j = 0; j < d; j++)
						acc += q[(b * T + t) * D + h * d + j] * k[(b * T + s) * D + h * d + j];
					sc[s] = acc / sqrt((double)d);
					max = sc[s] > max ? sc[s] : max;
				}
				for (int64_t s = 0; s <= t; s++)
					sum += (sc[s] = exp(sc[s] - max));
				for (int64_t j = 0; j < d; j++) {
					double acc = 0, got;

					for (int64_t s = 0; s <= t; s++)
						acc += sc[s] / sum * v[(b * T + s) * D + h * d + j];
					ctx[(b * T + t) * D + h * d + j] = acc;
					got = attention_value(&a, ATTENTION_CONTEXT, (const int64_t[]){ b, h, t, j });
					worst = fmax(worst, fabs(got - acc) / fmax(1, fabs(acc)));
				}
			}
	for (int64_t r = 0; r < B * T; r++)
		for (int64_t i = 0; i < D; i++) {
			double acc = 0, got = attention_value(&a, ATTENTION_OUTPUT,
			                                      (const int64_t[]){ r / T, r % T, i });

			for (int64_t j = 0; j < D; j++)
				acc += (double)a.weight[3][i * D + j] * ctx[r * D + j];
			worst_out = fmax(worst_out, fabs(got - acc) / fmax(1, fabs(acc)));
			for (int64_t h = 0; h < H; h++) {
				double without = 0, change, ablated = attention_ablate(&a, h, r / T, r % T, i, &change);

				for (int64_t j = 0; j < D; j++)
					if (j / d != h)
						without += (double)a.weight[3][i * D + j] * ctx[r * D + j];
				worst_ablate = fmax(worst_ablate, fabs(ablated - without) / fmax(1, fabs(without)));
				worst_ablate = fmax(worst_ablate, fabs(ablated - got - change));
			}
		}
	tap_ok(worst < 1e-12, "shape %lld,%lld,%lld, %lld heads: heads one at a time give the batched "
	       "context (off by %.3g)", (long long)B, (long long)T, (long long)D, (long long)H, worst);
	tap_ok(worst_out < 1e-12, "... and the same output (off by %.3g)", worst_out);
	tap_ok(worst_ablate < 1e-12, "... and zeroing one head's context drops exactly its terms "
	       "(off by %.3g)", worst_ablate);
	attention_free(&a);
	free(q);
	free(ctx);
}

/* GPT-2 size: cells cost what their formulas cost (counted in weight rows
 * computed, not timed: the CPU times are reported, never bounded, so a
 * slow or instrumented build fails nothing; tests/bench times them), and
 * memory stays small. */
static void
test_gpt2_size(void)
{
	struct attention a;
	char err[256];
	double t0, ms, v;
	struct rusage ru;
	int64_t before;

	t0 = test_cpu_ms();
	tap_eq(attention_init(&a, 1, 1024, 768, 12, 42, err, sizeof err, NULL, 0), 0, "GPT-2 size builds");
	ms = test_cpu_ms() - t0;
	tap_ok(a.rows_computed == 0, "drawing the four 768x768 matrices computes no row yet (%.1f ms of CPU)", ms);
	t0 = test_cpu_ms();
	v = attention_value(&a, ATTENTION_OUTPUT, (const int64_t[]){ 0, 1023, 767 });
	ms = test_cpu_ms() - t0;
	tap_ok(isfinite(v), "output[0,1023,767], which reads every position of every "
	       "head, is a number (%.1f ms of CPU)", ms);
	tap_eq(a.rows_computed, 12, "... and computes 12 weight rows, one per head");
	before = a.rows_computed;
	t0 = test_cpu_ms();
	for (int64_t i = 0; i < 768; i++)
		v += attention_value(&a, ATTENTION_OUTPUT, (const int64_t[]){ 0, 1023, i });
	v += attention_value(&a, ATTENTION_CONTEXT, (const int64_t[]){ 0, 11, 1023, 63 });
	ms = test_cpu_ms() - t0;
	tap_ok(a.rows_computed == before, "the rest of that row comes from the cache "
	       "(%.2f ms, %lld new rows)", ms, (long long)(a.rows_computed - before));
	t0 = test_cpu_ms();
	v += attention_value(&a, ATTENTION_WEIGHTS, (const int64_t[]){ 0, 5, 700, 3 });
	ms = test_cpu_ms() - t0;
	tap_ok(isfinite(v), "a weight cell is a number (%.2f ms)", ms);
	{
		struct explain e = { .t = ATTENTION_OUTPUT, .index = { 0, 1023, 767 }, .rank = 3 };
		double sum = 0, mag = 0;

		t0 = test_cpu_ms();
		explain_cell(&a, &e);
		ms = test_cpu_ms() - t0;
		for (int k = 0; k < e.nterms; k++) {
			sum += e.terms[k].product;
			mag += fabs(e.terms[k].product);
		}
		tap_ok(e.nterms == 768 && fabs(sum - e.value) <= 1e-12 * mag,
		       "explaining output[0,1023,767]: 768 terms that sum to it (%.2f ms)", ms);
		explain_free(&e);
		e = (struct explain){ .t = ATTENTION_CONTEXT, .index = { 0, 7, 1023, 5 }, .rank = 4 };
		t0 = test_cpu_ms();
		explain_cell(&a, &e);
		ms = test_cpu_ms() - t0;
		tap_ok(e.nterms == 1024 && e.nreads == 2048,
		       "explaining context[0,7,1023,5]: 1024 terms, 2048 cells lit (%.2f ms)", ms);
		explain_free(&e);
	}
	getrusage(RUSAGE_SELF, &ru);
	tap_ok(ru.ru_maxrss < 256 * 1024, "peak memory %ld kB (under 256 MB)", ru.ru_maxrss);
	attention_free(&a);
}

/* The lesson's opening question: one row of weights misses [0.8, 1.6],
 * two heads reach it. */
static void
test_opening(void)
{
	double out[2], a, dist, target[2] = { 0.8, 1.6 }, worst = INFINITY;

	attention_opening_one(0.8, out);
	tap_ok(fabs(out[0] - 0.8) < 1e-15 && fabs(out[1] - 0.4) < 1e-15,
	       "one row [0.8, 0.2] gives [0.8, 0.4]: the first coordinate only");
	attention_opening_one(0.2, out);
	tap_ok(fabs(out[0] - 0.2) < 1e-15 && fabs(out[1] - 1.6) < 1e-15,
	       "one row [0.2, 0.8] gives [0.2, 1.6]: the second only");
	dist = attention_opening_nearest(target, &a);
	for (int i = 0; i <= 100000; i++) {
		attention_opening_one(i / 100000.0, out);
		worst = fmin(worst, hypot(out[0] - 0.8, out[1] - 1.6));
	}
	tap_ok(fabs(a - 0.32) < 1e-12 && fabs(dist - worst) < 1e-9 && dist > 0.5,
	       "the nearest one row gets is a = %.2f, %.4f away (a sweep finds %.4f)", a, dist, worst);
	attention_opening_two((const double[]){ 0.8, 0.2 }, (const double[]){ 0.2, 0.8 }, out);
	tap_ok(fabs(out[0] - 0.8) < 1e-15 && fabs(out[1] - 1.6) < 1e-15,
	       "two heads, [0.8, 0.2] and [0.2, 0.8], reach [0.8, 1.6] exactly");
}

/* Views and copies name the same number: every alias's value is equal,
 * and the lesson's label-4 cells line up (v[0,1,0] is v_heads[0,0,1,0]). */
static void
test_alias(void)
{
	struct attention a;
	char err[256];
	int64_t to[4], n = 0, bad = 0;

	attention_init(&a, 2, 3, 6, 3, 5, err, sizeof err, NULL, 0);
	for (int f = 0; f < ATTENTION_NTENSORS; f++) {
		struct attention_info info;

		attention_info(&a, (enum attention_tensor)f, &info);
		for (int64_t k = 0; k < attention_numel(&a, (enum attention_tensor)f); k++) {
			int64_t ix[4] = { 0, 0, 0, 0 }, r = k;

			for (int i = info.rank - 1; i >= 0; i--) {
				ix[i] = r % info.shape[i];
				r /= info.shape[i];
			}
			for (int t = 0; t < ATTENTION_NTENSORS; t++)
				if (attention_alias(&a, (enum attention_tensor)f, ix, (enum attention_tensor)t, to)) {
					n++;
					bad += !fixture_attention_in_range(&a, (enum attention_tensor)t, to) ||
					       attention_value(&a, (enum attention_tensor)t, to) !=
					       attention_value(&a, (enum attention_tensor)f, ix);
				}
		}
	}
	tap_ok(n > 0 && bad == 0, "%lld aliases between views and copies, all in range and equal "
	       "(%lld wrong)", (long long)n, (long long)bad);
	tap_ok(attention_alias(&a, ATTENTION_V, (const int64_t[]){ 0, 1, 2, 0 }, ATTENTION_V_HEADS, to) &&
	       to[1] == 1 && to[2] == 1 && to[3] == 0 &&
	       attention_alias(&a, ATTENTION_MERGED, (const int64_t[]){ 1, 2, 5, 0 }, ATTENTION_CONTEXT, to) &&
	       to[0] == 1 && to[1] == 2 && to[2] == 2 && to[3] == 1 &&
	       !attention_alias(&a, ATTENTION_V, (const int64_t[]){ 0, 1, 2, 0 }, ATTENTION_Q, to),
	       "v[0,1,2] is v_heads[0,1,1,0]; merged[1,2,5] is context[1,2,2,1]; v is never q");
	attention_free(&a);
}

/* Text as TAP diagnostics, one "# " line each (a failing case shows it). */
static void
test_diag(const char *text)
{
	for (const char *p = text; *p; ) {
		const char *nl = strchr(p, '\n');
		int n = nl ? (int)(nl - p) : (int)strlen(p);

		printf("# %.*s\n", n, p);
		p += n + (nl != NULL);
	}
}

/* A scene as the text print_scene draws, in a malloc'd string. */
static char *
test_scene_text(const struct scene *sc)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	print_scene(f, sc, 0, false);
	fclose(f);
	return buf;
}

/* The reading panel shows the lesson's two rows; ablation's changes are
 * attention_ablate's; a long row stays a few lines. */
static void
test_reading(void)
{
	static const char want[] =
		"where position 1 reads (batch 0)\n"
		"head 0  s 0 .                    0.002978\n"
		"        s 1 #################### 0.997022\n"
		"        s 2 -------------------- masked\n"
		"head 1  s 0 #################### 0.999998\n"
		"        s 1 .                    <1e-4\n"
		"        s 2 -------------------- masked\n";
	/* the heads side by side, each position two lines: its bar and a gap,
	 * the last one's gap too, so that the picture's height stays */
	static const char want_across[] =
		"where position 1 reads (batch 0)\n"
		"head 0                    head 1\n"
		"s 0 .          0.002978   s 0 ########## 0.999998\n"
		"\n"
		"s 1 ########## 0.997022   s 1 .          <1e-4\n"
		"\n"
		"s 2 ---------- masked     s 2 ---------- masked\n"
		"\n";
	/* zeroing head 1: its context is position 0's at every position, so
	 * each row changes alike; the largest change 0.925195 (feature 0) is
	 * the full shade */
	static const char want_ablation[] =
		"zeroing head 1 changes output[0] by\n"
		"   i        0         1         2         3 \n"
		" t 0 | 0.9252# :-0.3638  :-0.4129  .-0.1425 |\n"
		" > 1 | 0.9252# :-0.3638  :-0.4129  .-0.1425 |\n"
		" t 2 | 0.9252# :-0.3638  :-0.4129  .-0.1425 |\n"
		"      -0.9252 #*:. 0 .:*# 0.9252\n";
	struct attention a;
	struct reading_opts o;
	struct scene sc;
	char err[256], *text;
	int lines = 0;

	attention_init(&a, 1, 3, 4, 2, 42, err, sizeof err, NULL, 0);
	reading_opts_default(&o);
	reading_build(&sc, &a, 0, 1, &o);
	text = test_scene_text(&sc);
	if (!tap_ok(strcmp(text, want) == 0, "the reading panel at position 1 shows the lesson's rows"))
		test_diag(text);
	free(text);
	scene_free(&sc);
	o.across = 2;
	o.thick = 2;
	o.bar_width = 10;
	reading_build(&sc, &a, 0, 1, &o);
	text = test_scene_text(&sc);
	if (!tap_ok(strcmp(text, want_across) == 0, "side by side, each head's bars under its name, the mask dashed"))
		test_diag(text);
	free(text);
	scene_free(&sc);
	reading_opts_default(&o);
	reading_build_ablation(&sc, &a, 1, 0, 1, &o);
	text = test_scene_text(&sc);
	if (!tap_ok(strcmp(text, want_ablation) == 0,
	            "zeroing head 1: the change at every position and feature as a heat map, "
	            "the query's row marked, the scale under it"))
		test_diag(text);
	free(text);
	scene_free(&sc);
	attention_free(&a);
	attention_init(&a, 1, 1024, 768, 12, 42, err, sizeof err, NULL, 0);
	reading_build(&sc, &a, 0, 1023, &o);
	text = test_scene_text(&sc);
	for (const char *p = text; *p; p++)
		lines += *p == '\n';
	tap_eq(lines, 1 + 12 * 8, "at GPT-2 size the panel lists 7 positions and a count per head");
	free(text);
	scene_free(&sc);
	o.across = 7;
	o.bar_width = 9;
	reading_build(&sc, &a, 0, 2, &o);
	{
		int block = reading_across_width(&a, &o), over = 0;

		for (size_t i = 0; i < sc.n; i++)
			over += sc.items[i].y > 0 && sc.items[i].x % block + scene_text_width(sc.items[i].text) > block - 3;
		/* under the title, every item within its head's column */
		tap_ok(block == 28 && over == 0, "side by side at GPT-2 size, each head keeps to its %d "
		       "columns, its count too (%d items over)", block, over);
	}
	scene_free(&sc);
	reading_opts_default(&o);
	reading_build_ablation(&sc, &a, 11, 0, 1023, &o);
	tap_ok(sc.n > 0 && !sc.oom && sc.width <= o.width && sc.height <= 8 + 3,
	       "... and ablation's map elides to its %d columns and 8 rows or fewer (%dx%d)", o.width, sc.width,
	       sc.height);
	scene_free(&sc);
	attention_free(&a);
}

/* The heat maps' shades: a weight's level is round(4 w), a score's
 * round(4 |s| / max); -inf has the cross; small weights and scores print
 * at display precision, as the lab's weights grid shows them. */
static void
test_heat(void)
{
	static const struct { double v, max; int level; } cases[] = {
		{ 0.0, 1, 0 }, { 1.146e-09, 1, 0 }, { 0.12, 1, 0 }, { 0.13, 1, 1 }, { 0.002978, 1, 0 },
		{ 0.5, 1, 2 }, { 0.7, 1, 3 }, { 0.997022, 1, 4 }, { 1.0, 1, 4 },
		{ -54.93, 54.93, 4 }, { -31.86, 54.93, 2 }, { 0.1739, 54.93, 0 }, { 20.82, 54.93, 2 },
	};
	struct attention a;
	struct scene sc;
	char err[256], buf[32];
	int lit = 0;

	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		tap_eq(reading_shade(cases[i].v, cases[i].max), cases[i].level,
		       "%g of %g is shade %d", cases[i].v, cases[i].max, cases[i].level);
	tap_ok(strcmp(reading_shade_glyph(-1, true), "\u2573") == 0 &&
	       strcmp(reading_shade_glyph(0, true), " ") == 0 &&
	       strcmp(reading_shade_glyph(4, true), "\u2588") == 0 &&
	       strcmp(reading_shade_glyph(2, false), ":") == 0, "the shades' glyphs, UTF-8 and ASCII");
	tap_ok(strcmp(reading_value(buf, sizeof buf, 2.449e-06), "<1e-4") == 0 &&
	       strcmp(reading_value(buf, sizeof buf, 0.0001), "0.000100") == 0 &&
	       strcmp(reading_value(buf, sizeof buf, 0.0), "0.000000") == 0,
	       "a weight under 1e-4 reads <1e-4, from 1e-4 up its six decimals");
	/* the weights grid as the lab draws it */
	attention_init(&a, 1, 3, 4, 2, 42, err, sizeof err, NULL, 0);
	print_attention_scene(&sc, &a, ATTENTION_WEIGHTS, true, 200, NULL, false, 0);
	for (size_t i = 0; i < sc.n; i++)
		lit += strstr(sc.items[i].text, "<1e-4") != NULL;
	/* head 0: 1.146e-09, 3.385e-05; head 1: 2.449e-06, 9.522e-11, 9.066e-21 */
	tap_eq(lit, 5, "the lesson's weights grid shows its five weights under 1e-4 as <1e-4");
	scene_free(&sc);
	print_attention_scene(&sc, &a, ATTENTION_MASKED, false, 200, NULL, false, 0);
	lit = 0;
	for (size_t i = 0; i < sc.n; i++)
		lit += strcmp(sc.items[i].text, "x   -infx") == 0 && sc.items[i].style == SCENE_MASKED;
	tap_eq(lit, 6, "the masked scores' six -inf cells stand between two crosses");
	scene_free(&sc);
	/* the diverging scale: |s| / 54.932 in quarters, a negative's shade
	 * left of it, a positive's right of it, none near 0; in the
	 * terminal's own colour (head -1) so that shades compare */
	print_attention_scene(&sc, &a, ATTENTION_MASKED, true, 200, NULL, false, 0);
	{
		static const char *const want[18] = {
			"  0.1739 ", "\u2573   -inf\u2573", "\u2573   -inf\u2573", "  0.2021 ", "   6.016 ",
			"\u2573   -inf\u2573", "  0.2303 ", "   10.52\u2591", "   20.82\u2592", " -0.9902 ",
			"\u2573   -inf\u2573", "\u2573   -inf\u2573", "  -4.886 ", "\u2591 -17.81 ",
			"\u2573   -inf\u2573", "\u2591 -8.782 ", "\u2592 -31.86 ", "\u2588 -54.93 ",
		};
		int right = 0, cells = 0;

		for (size_t i = 0; i < sc.n; i++) {
			const struct scene_item *it = &sc.items[i];

			if (it->label < 0 || it->label >= 18 || (it->style != SCENE_CELL && it->style != SCENE_MASKED))
				continue;
			cells++;
			right += strcmp(it->text, want[it->label]) == 0 &&
			         (it->style == SCENE_MASKED || it->head == -1);
		}
		tap_ok(cells == 18 && right == 18 && fabs(sc.scale - 54.932) < 1e-3,
		       "the masked scores on the diverging scale: %d of %d cells as expected, full shade %g",
		       right, cells, sc.scale);
	}
	scene_free(&sc);
	attention_free(&a);
}

/* Selecting a cell of q, k, v or their heads lights the head's rows of
 * its weight: h*d .. (h+1)*d - 1 of q_proj.weight, and of c_attn.weight
 * at 0, D and 2D for q, k and v when fused; the fused pass computes the
 * same numbers, its q a view of c_attn(x) with rows 3D apart. */
/* Which rows of the drawn weight matrix are lit: true when every cell
 * of rows first..first+count-1 that is shown is lit, no other cell is,
 * and the block's first and last rows and the cell's own row are shown. */
static bool
test_lit_rows(struct attention *a, enum attention_tensor t, const int64_t *ix, int room, int64_t first,
              int64_t count, const char *what)
{
	struct attention_rows r;
	struct scene sc;
	int64_t D = a->width;
	int wrong = 0, lit = 0;
	bool seen_first = false, seen_last = false, seen_row = false;

	if (!attention_weight_rows(a, t, ix, &r))
		return tap_ok(false, "%s: no weight rows", what);
	reading_build_weight(&sc, a, &r, room, 200, true);
	for (size_t i = 0; i < sc.n; i++) {
		const struct scene_item *it = &sc.items[i];
		int64_t row;
		bool in;

		if (it->label < 0)
			continue;
		row = it->label / D;
		in = row >= first && row < first + count;
		wrong += in != ((it->mark & SCENE_MARK_LIT) != 0);
		wrong += in && (it->style != SCENE_CELL || it->head != r.head);
		lit += in;
		seen_first = seen_first || row == first;
		seen_last = seen_last || row == first + count - 1;
		seen_row = seen_row || row == r.row;
	}
	scene_free(&sc);
	return tap_ok(wrong == 0 && lit > 0 && seen_first && seen_last && seen_row && sc.height <= room,
	              "%s: exactly rows %lld..%lld of %s lit (%d cells lit, %d wrong)", what,
	              (long long)first, (long long)(first + count - 1), r.matrix, lit, wrong);
}

static void
test_weight_rows(void)
{
	struct attention a, f;
	struct attention_rows r;
	struct attention_info in;
	char err[256];
	bool same = true;

	attention_init(&a, 1, 3, 4, 2, 42, err, sizeof err, NULL, 0);
	tap_ok(attention_weight_rows(&a, ATTENTION_Q_HEADS, (const int64_t[]){ 0, 1, 2, 1 }, &r) &&
	       strcmp(r.matrix, "q_proj.weight") == 0 && r.head == 1 && r.first == 2 && r.count == 2 &&
	       r.row == 3, "q_heads[0,1,2,1]: q_proj.weight rows 2..3, its own row 3");
	tap_ok(attention_weight_rows(&a, ATTENTION_V, (const int64_t[]){ 0, 2, 1 }, &r) &&
	       strcmp(r.matrix, "v_proj.weight") == 0 && r.head == 0 && r.first == 0 && r.row == 1,
	       "v[0,2,1]: v_proj.weight rows 0..1 (head 0), its own row 1");
	tap_ok(!attention_weight_rows(&a, ATTENTION_SCORES, (const int64_t[]){ 0, 0, 0, 0 }, &r),
	       "scores read no weight rows directly");
	attention_init(&f, 1, 3, 4, 2, 42, err, sizeof err, NULL, 0);
	attention_fuse(&f);
	tap_ok(attention_weight_rows(&f, ATTENTION_Q_HEADS, (const int64_t[]){ 0, 1, 0, 0 }, &r) &&
	       strcmp(r.matrix, "c_attn.weight") == 0 && r.first == 2 && r.count == 2 && r.row == 2,
	       "fused: q_heads of head 1 lights c_attn.weight rows 2..3");
	tap_ok(attention_weight_rows(&f, ATTENTION_K_HEADS, (const int64_t[]){ 0, 1, 0, 1 }, &r) &&
	       r.first == 4 + 2 && r.row == 4 + 3, "fused: k_heads of head 1, rows D + 2..3");
	tap_ok(attention_weight_rows(&f, ATTENTION_V_HEADS, (const int64_t[]){ 0, 0, 2, 1 }, &r) &&
	       r.first == 8 && r.count == 2 && r.row == 9, "fused: v_heads of head 0, rows 2D + 0..1");
	for (int t = 0; t < ATTENTION_NSTEPS; t++) {
		struct attention_info ai;

		attention_info(&a, (enum attention_tensor)t, &ai);
		for (int64_t k = 0; k < attention_numel(&a, (enum attention_tensor)t); k++) {
			int64_t ix[4] = { 0, 0, 0, 0 }, rest = k;

			for (int j = ai.rank - 1; j >= 0; j--) {
				ix[j] = rest % ai.shape[j];
				rest /= ai.shape[j];
			}
			double x = attention_value(&a, (enum attention_tensor)t, ix);
			double y = attention_value(&f, (enum attention_tensor)t, ix);

			same = same && (x == y || (isinf(x) && isinf(y)));
		}
	}
	tap_ok(same, "the fused pass gives every step's every number as the four nn.Linear do");
	/* the drawn matrix: head h's rows h*d..(h+1)*d-1; fused: q's at h*d,
	 * k's at D + h*d, v's at 2D + h*d */
	test_lit_rows(&a, ATTENTION_Q_HEADS, (const int64_t[]){ 0, 1, 2, 1 }, 8, 2, 2, "q_heads[0,1,2,1]");
	test_lit_rows(&a, ATTENTION_K, (const int64_t[]){ 0, 2, 1 }, 8, 0, 2, "k[0,2,1]");
	test_lit_rows(&f, ATTENTION_Q_HEADS, (const int64_t[]){ 0, 1, 0, 0 }, 16, 2, 2, "fused q_heads[0,1,0,0]");
	test_lit_rows(&f, ATTENTION_K_HEADS, (const int64_t[]){ 0, 1, 0, 1 }, 16, 4 + 2, 2, "fused k_heads[0,1,0,1]");
	test_lit_rows(&f, ATTENTION_V_HEADS, (const int64_t[]){ 0, 0, 2, 1 }, 6, 8, 2,
	              "fused v_heads[0,0,2,1], 6 lines");
	attention_info(&f, ATTENTION_Q, &in);
	tap_ok(strcmp(in.code, "q, k, v = c_attn(x).split(4, dim=2)") == 0 && !in.contiguous &&
	       in.strides[0] == 36 && in.strides[1] == 12 && in.strides[2] == 1,
	       "fused q is a view of c_attn(x): strides (36,12,1), not contiguous");
	attention_info(&f, ATTENTION_Q_HEADS, &in);
	tap_ok(in.strides[0] == 36 && in.strides[1] == 2 && in.strides[2] == 12 && in.strides[3] == 1,
	       "fused q_heads: strides (36,2,12,1)");
	attention_free(&f);
	attention_free(&a);
	/* GPT-2 size, fused: head 11 of v is rows 2*768 + 704 .. 2*768 + 767 */
	attention_init(&f, 1, 1024, 768, 12, 42, err, sizeof err, NULL, 0);
	attention_fuse(&f);
	test_lit_rows(&f, ATTENTION_V_HEADS, (const int64_t[]){ 0, 11, 5, 7 }, 20, 1536 + 704, 64,
	              "GPT-2 fused v_heads[0,11,5,7], 20 lines");
	test_lit_rows(&f, ATTENTION_Q, (const int64_t[]){ 0, 3, 100 }, 40, 64, 64, "GPT-2 fused q[0,3,100]");
	attention_free(&f);
}

/* Head ablation against PyTorch (tests/data/torch-ablate.txt: output with
 * head h's context zeroed minus output, float64): attention_ablate's
 * change at every position and feature within 1e-12, and the lab's map
 * (reading_build_ablation) showing each of them, at 4 significant digits,
 * in its cell, its shade on its sign's side. */
static void
test_ablate_file(char *text)
{
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		long long seed, B, T, D, H, head;
		int used = 0, cells = 0, right = 0;
		double worst = 0, *want;
		struct attention a;
		struct reading_opts o;
		struct scene sc;
		char err[256], *p;

		if (sscanf(line, "ablate %lld %lld %lld %lld %lld %lld%n", &seed, &B, &T, &D, &H, &head, &used) != 6)
			continue;
		want = malloc((size_t)(B * T * D) * sizeof *want);
		p = line + used;
		for (long long k = 0; k < B * T * D; k++)
			want[k] = strtod(p, &p);
		attention_init(&a, B, T, D, H, (uint32_t)seed, err, sizeof err, NULL, 0);
		for (long long b = 0; b < B; b++)
			for (long long t = 0; t < T; t++)
				for (long long i = 0; i < D; i++) {
					double change, v = want[(b * T + t) * D + i];

					attention_ablate(&a, head, b, t, i, &change);
					worst = fmax(worst, fabs(change - v) / fmax(1, fabs(v)));
				}
		tap_ok(worst < 1e-12, "seed %lld [%lld,%lld,%lld] H %lld: zeroing head %lld changes every "
		       "output as PyTorch's (off by %.3g)", seed, B, T, D, H, head, worst);
		reading_opts_default(&o);
		o.utf8 = true;
		o.width = 400;
		o.max_rows = 64;
		for (long long b = 0; b < B; b++) {
			reading_build_ablation(&sc, &a, head, b, 1, &o);
			for (size_t k = 0; k < sc.n; k++) {
				const struct scene_item *it = &sc.items[k];
				char num[32], shown[48];
				const char *q = it->text;
				double v;
				bool left, rgt;

				if (it->label < 0)
					continue;
				v = want[b * T * D + it->label];
				cells++;
				/* the number between its two shade columns */
				left = strncmp(q, " ", 1) != 0;
				q += left ? strlen("\u2591") : 1;
				snprintf(shown, sizeof shown, "%s", q);
				rgt = shown[strlen(shown) - 1] != ' ';
				shown[strlen(shown) - (rgt ? strlen("\u2591") : 1)] = '\0';
				if (fabs(v) < 1e-4 && v != 0)
					snprintf(num, sizeof num, "\u22480");
				else
					snprintf(num, sizeof num, "%.4g", v == 0 ? 0.0 : v);
				right += strcmp(shown + strspn(shown, " "), num) == 0 && !(left && v > 0) && !(rgt && v < 0);
			}
			scene_free(&sc);
		}
		tap_ok(cells == B * T * D && right == cells, "... and the map shows them all: %d of %d cells "
		       "PyTorch's to 4 digits, each shade on its sign's side", right, cells);
		attention_free(&a);
		free(want);
	}
}

static void
test_limits(void)
{
	struct attention a;
	char err[256];

	tap_eq(attention_init(&a, 1, 3, 4, 3, 42, err, sizeof err, NULL, 0), 2, "width 4 with 3 heads is refused");
	tap_eq(attention_init(&a, 8, 4096, 12288, 96, 42, err, sizeof err, NULL, 0), 2,
	       "a pass too large to compute is refused: %s", err);
}

int
main(int argc, char **argv)
{
	struct mt19937 mt;
	char *text;

	mt19937_seed(&mt, 5489);
	tap_eq(mt19937_next(&mt), 3499211612LL, "mt19937 seeded 5489 starts with 3499211612");
	for (int i = 1; i < 9999; i++)
		mt19937_next(&mt);
	tap_eq(mt19937_next(&mt), 4123659995LL, "... and its 10000th output is 4123659995");
	for (int i = 1; i < argc; i++) {
		text = test_slurp(argv[i]);
		if (!tap_ok(text != NULL, "read %s", argv[i]))
			continue;
		if (strstr(argv[i], "fused")) {
			test_fused_file(text);
		} else if (strstr(argv[i], "ablate")) {
			test_ablate_file(text);
		} else if (strstr(argv[i], "weights")) {
			char *again = strdup(text);

			test_weights_file(text, false);
			if (again)
				test_weights_file(again, true);
			free(again);
		} else
			test_forward_file(text);
		free(text);
	}
	test_lesson();
	test_heads_one_at_a_time(1, 3, 4, 2, 42);
	test_heads_one_at_a_time(2, 7, 12, 3, 99);
	test_heads_one_at_a_time(1, 5, 8, 8, 4000000000U);
	test_gpt2_size();
	test_opening();
	test_alias();
	test_reading();
	test_heat();
	test_weight_rows();
	test_limits();
	return tap_done();
}
