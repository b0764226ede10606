/* explain.c - one cell of the attention pass, term by term: exactly the
 * cells its formula reads, in the formula's order. */
#include "explain.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "print_attention.h"
#include "utf8.h"

static void
explain_clean(char *s)
{
	utf8_sanitize(s, strlen(s) + 1, s, 0);
}

bool
explain_parse(const struct attention *a, const char *expr, struct explain *e, char *err,
              size_t errsize)
{
	const char *p = expr, *name;
	struct attention_info info;
	int t, n = 0;

	memset(e, 0, sizeof *e);
	while (isspace((unsigned char)*p))
		p++;
	name = p;
	while (isalnum((unsigned char)*p) || *p == '_')
		p++;
	t = attention_lookup(name, (size_t)(p - name));
	if (t < 0) {
		snprintf(err, errsize, "--explain '%.80s': '%.*s' is not a step (steps: input, q, k, v, "
		         "q_heads, k_heads, v_heads, scores, masked, weights, context, swap_back, "
		         "contiguous, merged, output; or q_weight, k_weight, v_weight, out_weight)",
		         expr, (int)(p - name > 40 ? 40 : p - name), name);
		explain_clean(err);
		return false;
	}
	attention_info(a, (enum attention_tensor)t, &info);
	while (isspace((unsigned char)*p))
		p++;
	if (*p++ != '[')
		goto syntax;
	for (;;) {
		char *end;
		long long v;

		while (isspace((unsigned char)*p))
			p++;
		if (!(isdigit((unsigned char)*p) || (*p == '-' && isdigit((unsigned char)p[1]))))
			goto syntax;
		v = strtoll(p, &end, 10);
		p = end;
		/* past the last axis: only counted, to say how many were given */
		if (n >= info.rank) {
			n++;
		} else if (v < -info.shape[n] || v >= info.shape[n]) {
			snprintf(err, errsize, "--explain '%.80s': index %lld is out of range for axis %s of "
			         "%s (size %lld)", expr, v, info.axes[n], info.name, (long long)info.shape[n]);
			explain_clean(err);
			return false;
		} else {
			e->index[n] = v < 0 ? v + info.shape[n] : v;
			n++;
		}
		while (isspace((unsigned char)*p))
			p++;
		if (*p == ',') {
			p++;
			continue;
		}
		if (*p++ != ']')
			goto syntax;
		break;
	}
	while (isspace((unsigned char)*p))
		p++;
	if (n != info.rank) {
		snprintf(err, errsize, "--explain '%.80s': %d ind%s given, but %s has %d axes "
		         "[%s%s%s%s%s%s%s]: give one index per axis", expr, n, n == 1 ? "ex is" : "ices are",
		         info.name, info.rank, info.axes[0], info.rank > 1 ? "," : "",
		         info.rank > 1 ? info.axes[1] : "", info.rank > 2 ? "," : "",
		         info.rank > 2 ? info.axes[2] : "", info.rank > 3 ? "," : "",
		         info.rank > 3 ? info.axes[3] : "");
		explain_clean(err);
		return false;
	}
	if (*p)
		goto syntax;
	e->t = (enum attention_tensor)t;
	e->rank = info.rank;
	return true;
syntax:
	snprintf(err, errsize, "--explain '%.80s': want a step and a full index, such as "
	         "'context[0, 0, 1, 0]'", expr);
	explain_clean(err);
	return false;
}

/* Start a term; its reads follow with explain_read. */
static bool
explain_term(struct explain *e, int cap_terms)
{
	if (e->nterms == cap_terms)
		return false;
	e->terms[e->nterms].first = e->nreads;
	e->terms[e->nterms].nreads = 0;
	e->terms[e->nterms].product = 0;
	e->nterms++;
	return true;
}

static double
explain_read(struct attention *a, struct explain *e, enum attention_tensor t, int64_t i0,
             int64_t i1, int64_t i2, int64_t i3)
{
	struct explain_read *r = &e->reads[e->nreads++];

	r->t = t;
	r->index[0] = i0;
	r->index[1] = i1;
	r->index[2] = i2;
	r->index[3] = i3;
	r->value = attention_value(a, t, r->index);
	e->terms[e->nterms - 1].nreads++;
	return r->value;
}

/* The terms of a cell that is one cell of an earlier step (views, the
 * copy, masked_fill where the mask lets the score through). */
static void
explain_same(struct attention *a, struct explain *e, enum attention_tensor from, int64_t i0,
             int64_t i1, int64_t i2, int64_t i3)
{
	explain_term(e, 1);
	e->terms[0].product = explain_read(a, e, from, i0, i1, i2, i3);
}

bool
explain_cell(struct attention *a, struct explain *e)
{
	int64_t T = a->positions, D = a->width, d = a->head_width, *ix = e->index;
	int64_t n = T > D ? T : D;

	e->terms = calloc((size_t)n, sizeof *e->terms);
	e->reads = calloc((size_t)(2 * n), sizeof *e->reads);
	if (!e->terms || !e->reads) {
		explain_free(e);
		return false;
	}
	e->value = attention_value(a, e->t, ix);
	switch (e->t) {
	case ATTENTION_Q:
	case ATTENTION_K:
	case ATTENTION_V:
	case ATTENTION_OUTPUT: {
		/* x @ W.T: sum over j of W[i, j] * x[b, t, j] */
		enum attention_tensor w = e->t == ATTENTION_OUTPUT ? ATTENTION_OUT_WEIGHT
		                        : (enum attention_tensor)(ATTENTION_Q_WEIGHT + e->t - ATTENTION_Q);
		enum attention_tensor src = e->t == ATTENTION_OUTPUT ? ATTENTION_MERGED : ATTENTION_INPUT;

		for (int64_t j = 0; j < D; j++) {
			explain_term(e, (int)n);
			e->terms[j].product = explain_read(a, e, w, ix[2], j, 0, 0) *
			                      explain_read(a, e, src, ix[0], ix[1], j, 0);
		}
		break;
	}
	case ATTENTION_Q_HEADS:
	case ATTENTION_K_HEADS:
	case ATTENTION_V_HEADS:
		explain_same(a, e, (enum attention_tensor)(e->t - 3), ix[0], ix[2], ix[1] * d + ix[3], 0);
		break;
	case ATTENTION_SCORES:
		e->divisor = a->sqrt_d;
		for (int64_t j = 0; j < d; j++) {
			explain_term(e, (int)n);
			e->terms[j].product = explain_read(a, e, ATTENTION_Q_HEADS, ix[0], ix[1], ix[2], j) *
			                      explain_read(a, e, ATTENTION_K_HEADS, ix[0], ix[1], ix[3], j) /
			                      e->divisor;
		}
		break;
	case ATTENTION_MASKED:
		if (ix[3] > ix[2])
			e->masked = true;   /* masked_fill writes -inf, reading nothing */
		else
			explain_same(a, e, ATTENTION_SCORES, ix[0], ix[1], ix[2], ix[3]);
		break;
	case ATTENTION_WEIGHTS:
		/* softmax reads the whole masked row: exp(m - max) / sum */
		explain_term(e, 1);
		e->row_max = -INFINITY;
		for (int64_t s = 0; s < T; s++) {
			double m = explain_read(a, e, ATTENTION_MASKED, ix[0], ix[1], ix[2], s);

			e->row_max = m > e->row_max ? m : e->row_max;
		}
		for (int64_t s = 0; s < T; s++)
			e->row_sum += exp(e->reads[s].value - e->row_max);
		e->terms[0].product = e->value;
		break;
	case ATTENTION_CONTEXT:
		for (int64_t s = 0; s < T; s++) {
			explain_term(e, (int)n);
			e->terms[s].product = explain_read(a, e, ATTENTION_WEIGHTS, ix[0], ix[1], ix[2], s) *
			                      explain_read(a, e, ATTENTION_V_HEADS, ix[0], ix[1], s, ix[3]);
		}
		break;
	case ATTENTION_SWAP_BACK:
		explain_same(a, e, ATTENTION_CONTEXT, ix[0], ix[2], ix[1], ix[3]);
		break;
	case ATTENTION_CONTIGUOUS:
		explain_same(a, e, ATTENTION_SWAP_BACK, ix[0], ix[1], ix[2], ix[3]);
		break;
	case ATTENTION_MERGED:
		explain_same(a, e, ATTENTION_CONTIGUOUS, ix[0], ix[1], ix[2] / d, ix[2] % d);
		break;
	default:
		e->leaf = true;     /* x and the weights are given, not computed */
		break;
	}
	return true;
}

void
explain_free(struct explain *e)
{
	free(e->terms);
	free(e->reads);
	e->terms = NULL;
	e->reads = NULL;
	e->nterms = e->nreads = 0;
}

/* "context[0, 0, 1, 0]" */
static void
explain_cell_name(char *buf, size_t size, enum attention_tensor t, const int64_t *ix, int rank)
{
	size_t used = (size_t)snprintf(buf, size, "%s[", attention_name(t));

	for (int i = 0; i < rank && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%lld", i ? ", " : "", (long long)ix[i]);
	if (used < size)
		snprintf(buf + used, size - used, "]");
}

static int
explain_rank(const struct attention *a, enum attention_tensor t)
{
	struct attention_info info;

	attention_info(a, t, &info);
	return info.rank;
}

/* The formula of e's step, in the lesson's code. */
static const char *
explain_formula(enum attention_tensor t)
{
	static const char *const f[ATTENTION_NTENSORS] = {
		[ATTENTION_INPUT] = "x = arange(B*T*D): given, not computed",
		[ATTENTION_Q] = "sum over j of q_weight[i, j] * x[b, t, j]",
		[ATTENTION_K] = "sum over j of k_weight[i, j] * x[b, t, j]",
		[ATTENTION_V] = "sum over j of v_weight[i, j] * x[b, t, j]",
		[ATTENTION_Q_HEADS] = "q[b, t, h*d + j]: the split is a view",
		[ATTENTION_K_HEADS] = "k[b, t, h*d + j]: the split is a view",
		[ATTENTION_V_HEADS] = "v[b, t, h*d + j]: the split is a view",
		[ATTENTION_SCORES] = "sum over j of q_heads[b, h, t, j] * k_heads[b, h, s, j] / sqrt(d)",
		[ATTENTION_MASKED] = "scores[b, h, t, s] where s <= t, else -inf",
		[ATTENTION_WEIGHTS] = "exp(masked[b, h, t, s] - max) / sum over u of exp(masked[b, h, t, u] - max)",
		[ATTENTION_CONTEXT] = "sum over s of weights[b, h, t, s] * v_heads[b, h, s, j]",
		[ATTENTION_SWAP_BACK] = "context[b, h, t, j]: the transpose is a view",
		[ATTENTION_CONTIGUOUS] = "swap_back[b, t, h, j], copied into row-major storage",
		[ATTENTION_MERGED] = "contiguous[b, t, i / d, i % d]: the reshape is a view",
		[ATTENTION_OUTPUT] = "sum over k of out_weight[i, k] * merged[b, t, k]",
	};

	return f[t] ? f[t] : "a parameter: drawn by torch.manual_seed, not computed";
}

/* A value for text: 6 significant digits, -inf spelled out. */
static void
explain_num(char *buf, size_t size, double v)
{
	if (isinf(v))
		snprintf(buf, size, "%s", v < 0 ? "-inf" : "inf");
	else
		snprintf(buf, size, "%.6g", v == 0 ? 0.0 : v);
}

static void
explain_text_term(FILE *out, const struct attention *a, const struct explain *e, int k)
{
	const struct explain_term *tm = &e->terms[k];
	char name[96], num[40];

	fputs("  ", out);
	for (int r = 0; r < tm->nreads; r++) {
		const struct explain_read *rd = &e->reads[tm->first + r];

		explain_cell_name(name, sizeof name, rd->t, rd->index, explain_rank(a, rd->t));
		explain_num(num, sizeof num, rd->value);
		fprintf(out, "%s%s %s", r ? " * " : "", name, num);
	}
	if (e->divisor > 0)
		fprintf(out, " / %.6g", e->divisor);
	explain_num(num, sizeof num, tm->product);
	fprintf(out, "  =  %s\n", num);
}

void
explain_print_text(FILE *out, const struct attention *a, const struct explain *e)
{
	char name[96], num[40];
	double sum = 0;

	explain_cell_name(name, sizeof name, e->t, e->index, e->rank);
	explain_num(num, sizeof num, e->value);
	fprintf(out, "%s = %s\n%s\n", name, num, explain_formula(e->t));
	if (e->leaf || e->masked) {
		if (e->masked)
			fputs("  the mask hides position s > t: nothing is read\n", out);
		return;
	}
	if (e->t == ATTENTION_WEIGHTS) {
		char m[40];

		explain_num(m, sizeof m, e->row_max);
		fprintf(out, "  max = %s, sum of exp = %.6g\n", m, e->row_sum);
		for (int s = 0; s < e->nreads; s++) {
			const struct explain_read *rd = &e->reads[s];
			double ex = exp(rd->value - e->row_max);

			explain_cell_name(name, sizeof name, rd->t, rd->index, 4);
			explain_num(num, sizeof num, rd->value);
			fprintf(out, "  %s %s  exp %.6g  weight %.6g%s\n", name, num, ex, ex / e->row_sum,
			        rd->index[3] == e->index[3] ? "  <- this cell" : "");
		}
		return;
	}
	for (int k = 0; k < e->nterms; k++) {
		sum += e->terms[k].product;
		if (e->nterms > 24 && k >= 10 && k < e->nterms - 10) {
			if (k == 10)
				fprintf(out, "  ... %d more terms ...\n", e->nterms - 20);
			continue;
		}
		explain_text_term(out, a, e, k);
	}
	explain_num(num, sizeof num, sum);
	fprintf(out, "  sum of %d term%s = %s\n", e->nterms, e->nterms == 1 ? "" : "s", num);
}

static void
explain_json_index(FILE *out, const int64_t *ix, int rank)
{
	fputc('[', out);
	for (int i = 0; i < rank; i++)
		fprintf(out, "%s%lld", i ? "," : "", (long long)ix[i]);
	fputc(']', out);
}

void
explain_print_json(FILE *out, const struct attention *a, const struct explain *e)
{
	char name[96];

	explain_cell_name(name, sizeof name, e->t, e->index, e->rank);
	fprintf(out, "{\"expr\":\"%s\",\"step\":\"%s\",\"index\":", name, attention_name(e->t));
	explain_json_index(out, e->index, e->rank);
	fputs(",\"value\":", out);
	print_attention_number(out, e->value);
	fprintf(out, ",\"formula\":\"%s\",\"leaf\":%s,\"masked\":%s", explain_formula(e->t),
	        e->leaf ? "true" : "false", e->masked ? "true" : "false");
	if (e->divisor > 0)
		fprintf(out, ",\"divisor\":%.17g", e->divisor);
	if (e->t == ATTENTION_WEIGHTS) {
		fputs(",\"softmax\":{\"max\":", out);
		print_attention_number(out, e->row_max);
		fprintf(out, ",\"sum\":%.17g}", e->row_sum);
	}
	fputs(",\"terms\":[", out);
	for (int k = 0; k < e->nterms; k++) {
		const struct explain_term *tm = &e->terms[k];

		fprintf(out, "%s{\"reads\":[", k ? "," : "");
		for (int r = 0; r < tm->nreads; r++) {
			const struct explain_read *rd = &e->reads[tm->first + r];

			fprintf(out, "%s[\"%s\",", r ? "," : "", attention_name(rd->t));
			explain_json_index(out, rd->index, explain_rank(a, rd->t));
			fputc(']', out);
		}
		fputs("],\"values\":[", out);
		for (int r = 0; r < tm->nreads; r++) {
			if (r)
				fputc(',', out);
			print_attention_number(out, e->reads[tm->first + r].value);
		}
		fputs("],\"product\":", out);
		print_attention_number(out, tm->product);
		fputc('}', out);
	}
	fputs("]}\n", out);
}
