/* code_lex.c - the words of --code: characters, spaces and comments,
 * names, numbers and strings as Python reads them, and the integer
 * arithmetic of sizes with Python's rules and 64-bit refusals. */
#include <stdio.h>
#include <string.h>

#include "code_int.h"

bool
code_is_alpha(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_';
}

bool
code_is_digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

/* Skip blanks, comments and line continuations; newlines too inside
 * brackets, where Python does not end a statement. */
void
code_skip(struct code_ctx *c)
{
	for (;;) {
		char ch = c->text[c->at];

		if (ch == ' ' || ch == '\t' || ch == '\r' || (ch == '\n' && c->depth > 0))
			c->at++;
		else if (ch == '\\' && c->text[c->at + 1] == '\n')
			c->at += 2;
		else if (ch == '#')
			while (c->text[c->at] && c->text[c->at] != '\n')
				c->at++;
		else
			return;
	}
}

char
code_peek(struct code_ctx *c)
{
	code_skip(c);
	return c->text[c->at];
}

/* Consume ch when it comes next. */
bool
code_accept(struct code_ctx *c, char ch)
{
	if (code_peek(c) != ch)
		return false;
	c->at++;
	return true;
}

/* A few words for "found X": the character at the parser, or the end. */
void
code_describe(struct code_ctx *c, char *buf, size_t size)
{
	unsigned char ch = (unsigned char)c->text[c->at];

	if (ch == '\0')
		snprintf(buf, size, "the end of the code");
	else if (ch == '\n')
		snprintf(buf, size, "the end of the line");
	else if (ch < 0x20 || ch >= 0x7f)
		snprintf(buf, size, "a character Python code does not use here");
	else
		snprintf(buf, size, "'%c'", ch);
}

bool
code_expect(struct code_ctx *c, char ch, const char *what)
{
	char found[64];

	if (code_accept(c, ch))
		return true;
	if (c->text[c->at] == '\0')
		return code_fail(c, c->at, c->at + 1, "msg.code.expected.end",
		                 "expected %s, found the end of the code", what);
	if (c->text[c->at] == '\n')
		return code_fail(c, c->at, c->at + 1, "msg.code.expected.line",
		                 "expected %s, found the end of the line", what);
	code_describe(c, found, sizeof found);
	return code_fail(c, c->at, c->at + 1, "msg.code.expected",
	                 "expected %s, found %s", what, found);
}

/* An identifier at the parser: its start and length (0 when none). */
size_t
code_name(struct code_ctx *c, size_t *start)
{
	size_t n = 0;

	code_skip(c);
	*start = c->at;
	if (!code_is_alpha(c->text[c->at]))
		return 0;
	while (code_is_alpha(c->text[c->at + n]) || code_is_digit(c->text[c->at + n]))
		n++;
	c->at += n;
	return n;
}

bool
code_is(const char *s, size_t len, const char *word)
{
	return strlen(word) == len && memcmp(s, word, len) == 0;
}

/* A number literal: decimal digits, with Python's optional underscores. */
bool
code_number(struct code_ctx *c, struct code_value *v)
{
	int64_t n = 0;

	memset(v, 0, sizeof *v);
	v->type = CODE_V_INT;
	v->pos = c->at;
	/* Python 3 refuses leading zeros ("012") but takes "0", "00" and "0_0" */
	if (c->text[c->at] == '0') {
		size_t e = c->at;

		while (c->text[e] == '0' || (c->text[e] == '_' && code_is_digit(c->text[e + 1])))
			e++;
		if (code_is_digit(c->text[e])) {
			while (code_is_digit(c->text[e]) || c->text[e] == '_')
				e++;
			return code_fail(c, c->at, e, "msg.code.zeros",
			                 "leading zeros are not allowed in a number (Python "
			                 "raises a SyntaxError)");
		}
	}
	while (code_is_digit(c->text[c->at]) || (c->text[c->at] == '_' && code_is_digit(c->text[c->at + 1]))) {
		int dg = c->text[c->at] - '0';

		if (c->text[c->at] != '_') {
			if (n > (INT64_MAX - dg) / 10)
				return code_fail(c, v->pos, c->at + 1, "msg.code.toolarge",
				                 "this number is too large");
			n = n * 10 + dg;
		}
		c->at++;
	}
	if (c->text[c->at] == '.' && code_is_digit(c->text[c->at + 1]))
		return code_fail(c, v->pos, c->at + 1, "msg.code.whole",
		                 "sizes and dims are whole numbers, not %s",
		                 "floats");
	v->i = n;
	v->end = c->at;
	return true;
}

/* A string literal in single or double quotes (no escapes needed by a
 * pattern); its contents are the bytes pos+1..end-1. */
bool
code_string(struct code_ctx *c, struct code_value *v)
{
	char q = c->text[c->at];

	memset(v, 0, sizeof *v);
	v->type = CODE_V_STR;
	v->pos = c->at++;
	while (c->text[c->at] && c->text[c->at] != q && c->text[c->at] != '\n')
		c->at++;
	if (c->text[c->at] != q)
		return code_fail(c, v->pos, c->at, "msg.code.string",
		                 "this string has no closing %c", q);
	v->end = ++c->at;
	return true;
}

/* Python's clamping of a slice bound a into 0..n. */
int64_t
code_clamp(int64_t a, int n)
{
	if (a < 0)
		a += n;
	return a < 0 ? 0 : a > n ? n : a;
}

/* Python's floor division and modulo, and overflow checks. */
bool
code_arith(struct code_ctx *c, struct code_value *a, const struct code_value *b, char op)
{
	int64_t x = a->i, y = b->i, r;

	if (op == '+' && a->type == CODE_V_TUPLE && b->type == CODE_V_TUPLE) {
		/* x.size()[:-1] + (H, d) */
		if (a->n + b->n > CODE_MAX_TUPLE)
			return code_fail(c, a->pos, b->end, "msg.code.entries",
			                 "more than %d entries", CODE_MAX_TUPLE);
		memcpy(a->t + a->n, b->t, sizeof(int64_t) * (size_t)b->n);
		memcpy(a->taxis + a->n, b->taxis, sizeof(a->taxis[0]) * (size_t)b->n);
		a->n += b->n;
		a->end = b->end;
		return true;
	}
	if (a->type != CODE_V_INT || b->type != CODE_V_INT)
		return code_fail(c, a->pos, b->end, "msg.code.arith",
		                 "arithmetic works on sizes (whole numbers) only");
	if ((op == '/' || op == '%' || op == 'f') && y == 0)
		return code_fail(c, a->pos, b->end, "msg.code.divzero", "division by zero");
	switch (op) {
	case '+':
		if (__builtin_add_overflow(x, y, &r))
			return code_fail(c, a->pos, b->end, "msg.code.overflow",
			                 "this size overflows");
		break;
	case '-':
		if (__builtin_sub_overflow(x, y, &r))
			return code_fail(c, a->pos, b->end, "msg.code.overflow",
			                 "this size overflows");
		break;
	case '*':
		if (__builtin_mul_overflow(x, y, &r))
			return code_fail(c, a->pos, b->end, "msg.code.overflow",
			                 "this size overflows");
		break;
	case '/':
		if (x == INT64_MIN && y == -1)
			return code_fail(c, a->pos, b->end, "msg.code.overflow",
			                 "this size overflows");
		if (x % y != 0)
			return code_fail(c, a->pos, b->end, "msg.code.division",
			                 "%lld / %lld is not a whole number (Python's / "
			                 "gives a float; sizes need //)", (long long)x, (long long)y);
		r = x / y;
		break;
	case '%':
		/* INT64_MIN % -1 traps in C; Python's answer is 0 */
		r = y == -1 ? 0 : x % y;
		if (r != 0 && (r < 0) != (y < 0))
			r += y;
		break;
	default:        /* 'f': // */
		if (x == INT64_MIN && y == -1)
			return code_fail(c, a->pos, b->end, "msg.code.overflow",
			                 "this size overflows");
		r = x / y;
		if (x % y != 0 && (x < 0) != (y < 0))
			r--;
		break;
	}
	a->i = r;
	/* D // H is d, D // d is H, H * d is D: the names stay known */
	if (a->axis && b->axis && (op == 'f' || op == '/') && strcmp(a->axis, "D") == 0)
		a->axis = strcmp(b->axis, "H") == 0 ? "d" : strcmp(b->axis, "d") == 0 ? "H" : NULL;
	else if (a->axis && b->axis && op == '*' &&
	         ((strcmp(a->axis, "H") == 0 && strcmp(b->axis, "d") == 0) ||
	          (strcmp(a->axis, "d") == 0 && strcmp(b->axis, "H") == 0)))
		a->axis = "D";
	else
		a->axis = NULL;
	a->end = b->end;
	return true;
}
