/* lab_messages.c - the refusals the lab shows from the parsers it shares
 * with the command line (index expressions, patterns, shapes, head
 * counts, code), in the interface's language.
 *
 * The parsers word their refusals in English, as the command line's
 * contract has them.  The lab reads such a message back against the
 * English formats below; where one matches, the message is said again
 * with the caption file's format for its key, each conversion filled with
 * the text the English one held (text_fmt vouches that both ask for the
 * same conversions in the same order).  A message that matches none stays
 * as it is. */
#include "lab_messages.h"

#include <stdbool.h>

#include <stdio.h>
#include <string.h>

#include "text.h"

/* An English message format and the key of its words elsewhere; or_list:
 * the last conversion is a list such as "1, 2 or 4", whose "or" is said
 * with ui.or. */
static const struct lab_message {
	const char *key, *english;
	bool or_list;
} lab_messages[] = {
	/* head counts and shapes at the : prompt (options.c) */
	{ "msg.heads.min", "--heads '%s' must be at least 1 (want a head count such as 2)", false },
	{ "msg.heads.notdiv", "width %lld is not divisible by %lld heads (try %s)", true },
	{ "msg.shape.big", "--shape '%s' has more cells than a 64-bit count holds "
	  "(B*T*D must stay below 2^63)", false },
	{ "msg.shape.big.any", "--shape '%s' has more cells than a 64-bit count holds "
	  "(their product must stay below 2^63)", false },
	{ "msg.heads.large", "--heads '%s' is too large (want a head count such as 2)", false },
	{ "msg.heads.empty", "--heads '%s' is empty (want a head count such as 2)", false },
	{ "msg.shape.more3", "--shape '%s' has more than 3 sizes (want B,T,D such as 1,3,4)", false },
	{ "msg.shape.more", "--shape '%s' has more than %d sizes (headlab handles rank 1 to %d)", false },
	{ "msg.shape.count1", "--shape '%s' has %d size, want 3: B,T,D such as 1,3,4", false },
	{ "msg.shape.count", "--shape '%s' has %d sizes, want 3: B,T,D such as 1,3,4", false },
	{ "msg.shape.min3", "--shape '%s': size %s must be at least 1 (want B,T,D such as 1,3,4)", false },
	{ "msg.shape.large3", "--shape '%s': size %s is too large (want B,T,D such as 1,3,4)", false },
	{ "msg.shape.empty3", "--shape '%s': size %s is empty (want B,T,D such as 1,3,4)", false },
	{ "msg.shape.min", "--shape '%s': size %s must be at least 1 (want sizes such as 2,3,4)", false },
	{ "msg.shape.large", "--shape '%s': size %s is too large (want sizes such as 2,3,4)", false },
	{ "msg.shape.empty", "--shape '%s': size %s is empty (want sizes such as 2,3,4)", false },
	/* index expressions at the / prompt (index.c, index_step.c) */
	{ "msg.index.range", "index %lld is out of range for axis %s of size %lld (valid: %lld to %lld)", false },
	{ "msg.index.range0", "index %lld is out of range for axis %s of size 0", false },
	{ "msg.index.advanced", "'%c' starts a list or tuple of indices (advanced indexing); "
	  "headlab does basic indexing: numbers, slices, ... and None", false },
	{ "msg.index.unknown", "unknown tensor '%.*s' (this walk has: %s)", false },
	/* the attention pass (attention.c), as A reaches it; its other refusal
	 * is msg.preset.notdiv's */
	{ "msg.attn.big", "--attention computes every number: D at most %d, T at most %d and B*T*D at "
	  "most %lld (GPT-2's 1,1024,768 fits)", false },
	/* the e prompt's directory (export_files.c) */
	{ "msg.export.notdir", "cannot export to %s: it is not a directory", false },
	{ "msg.export.full", "cannot export to %s: it is not empty and not an earlier headlab export "
	  "(it holds %s); choose a new or empty directory", false },
	{ "msg.export.foreign", "cannot export to %s: %s is not from an earlier headlab export; move it "
	  "away or choose another directory", false },
	/* code (code.c, code_ops.c); the more particular first */
	{ "msg.code.expected.end",
	  "expected %s, found the end of the code", false },
	{ "msg.code.expected.line",
	  "expected %s, found the end of the line", false },
	{ "msg.code.expected",
	  "expected %s, found %s", false },
	{ "msg.code.steps",
	  "the code makes more than %d steps (headlab shows at most %d)", false },
	{ "msg.code.toolarge",
	  "this number is too large", false },
	{ "msg.code.whole",
	  "sizes and dims are whole numbers, not %s", false },
	{ "msg.code.string",
	  "this string has no closing %c", false },
	{ "msg.code.tuple",
	  "a tuple here holds whole numbers (sizes or dims) or tensors", false },
	{ "msg.code.entries",
	  "more than %d entries", false },
	{ "msg.code.tensorfirst",
	  "%.*s() takes the tensor first, as in %s", false },
	{ "msg.code.torch",
	  "torch.%s is not a call headlab knows (see headlab(1) for the list)", false },
	{ "msg.code.call",
	  "%.*s is not a call headlab knows", false },
	{ "msg.code.int",
	  "int() of something that is not a number", false },
	{ "msg.code.undefined",
	  "'%.*s' is not defined: start from x, heads or context, or any tensor name followed by a "
	  "call; sizes are B, T, D (C, n_embd), H (n_head), d (head_dim), or --let NAME=SIZE", false },
	{ "msg.code.unsolved",
	  "'%.*s' is not defined: give it with --let NAME=SIZE", false },
	{ "msg.code.operand.end",
	  "expected a tensor, a size or a number, found the end of the code", false },
	{ "msg.code.operand",
	  "expected a tensor, a size or a number, found %s", false },
	{ "msg.code.args",
	  "more than %d arguments", false },
	{ "msg.code.unpack",
	  "* unpacks a tuple of sizes or dims here", false },
	{ "msg.code.piece",
	  "pick a piece by number, as in [0]", false },
	{ "msg.code.attrname",
	  "a method or attribute name must follow '.'", false },
	{ "msg.code.attr",
	  "'.%s' is not an attribute headlab knows (.mT, .T, .shape, .ndim, or a call)", false },
	{ "msg.code.unknown",
	  ".%s is not a call headlab knows (see headlab(1) for the list)", false },
	{ "msg.code.slicebound",
	  "a slice bound is a whole number", false },
	{ "msg.code.bracket",
	  "this '[' has no closing ']'", false },
	{ "msg.code.tuplerange1",
	  "index out of range: the tuple has 1 entry", false },
	{ "msg.code.tuplerange",
	  "index out of range: the tuple has %d entries", false },
	{ "msg.code.signs",
	  "too many signs in a row", false },
	{ "msg.code.sign",
	  "'%c' goes before a number", false },
	{ "msg.code.arith",
	  "arithmetic works on sizes (whole numbers) only", false },
	{ "msg.code.divzero",
	  "division by zero", false },
	{ "msg.code.overflow",
	  "this size overflows", false },
	{ "msg.code.division",
	  "%lld / %lld is not a whole number (Python's / gives a float; sizes need //)", false },
	{ "msg.code.power",
	  "'**' is not a size operation headlab knows", false },
	{ "msg.code.nest",
	  "the code nests deeper than %d levels", false },
	{ "msg.code.names",
	  "too many names, or this one is too long", false },
	{ "msg.code.unpackn",
	  "%d names on the left need a tuple of %d on the right, such as B, T, C = "
	  "x.shape", false },
	{ "msg.code.split",
	  "the sizes B=%lld, T=%lld, D=%lld, H=%lld do not make a split (D must be "
	  "divisible by H)", false },
	{ "msg.code.long",
	  "the code is longer than %d bytes", false },
	{ "msg.code.stmtend.end",
	  "expected the end of the statement, found the end of the code", false },
	{ "msg.code.stmtend",
	  "expected the end of the statement, found %s", false },
	{ "msg.code.empty",
	  "the code is empty (try x.view(B, T, H, d).transpose(1, 2))", false },
	{ "msg.code.lastnottensor",
	  "the last statement gives %s, not a tensor", false },
	{ "msg.code.notensor",
	  "the code ends with no tensor to check", false },
	{ "msg.code.scalar",
	  "this leaves a single number (no axes): headlab draws tensors of 1 to %d axes", false },
	{ "msg.code.noarg",
	  "%s() has no argument '%.*s' (it takes %s)", false },
	{ "msg.code.twice",
	  "%s() got '%s' twice", false },
	{ "msg.code.wholehere",
	  "%s() takes whole numbers here", false },
	{ "msg.code.star",
	  "* goes with view, reshape, permute and expand here", false },
	{ "msg.code.atmost1",
	  "%s() takes at most %d argument (%s)", false },
	{ "msg.code.atmost",
	  "%s() takes at most %d arguments (%s)", false },
	{ "msg.code.needsarg",
	  "%s() needs its argument '%s'", false },
	{ "msg.code.needs",
	  "%s() needs the %s", false },
	{ "msg.code.mustwhole",
	  "%s must be a whole number", false },
	{ "msg.code.dim1",
	  "dim %lld is out of range for a tensor of %d axis (PyTorch takes %d to %d)", false },
	{ "msg.code.dim",
	  "dim %lld is out of range for a tensor of %d axes (PyTorch takes %d to %d)", false },
	{ "msg.code.rank",
	  "headlab draws tensors of 1 to %d axes, this asks for %d", false },
	{ "msg.code.infer",
	  "only one size can be -1 (inferred)", false },
	{ "msg.code.zero",
	  "a size of 0 leaves no cells to show", false },
	{ "msg.code.badsize",
	  "size %lld is invalid: sizes are at least 1, or -1 to infer one", false },
	{ "msg.code.fit",
	  "shape %s does not fit: the tensor %s has %lld cells", false },
	{ "msg.code.view",
	  "%s cannot be a view: the tensor is %s with strides (%s), so %s would need to "
	  "span two non-adjacent runs of memory (PyTorch raises here); use .reshape, "
	  "which copies, or .contiguous() first", false },
	{ "msg.code.mT",
	  ".mT needs at least 2 axes; this tensor has 1", false },
	{ "msg.code.permute",
	  "permute needs one dim per axis: the tensor has %d, this gives %d", false },
	{ "msg.code.permuterep",
	  "dim %d is repeated in permute", false },
	{ "msg.code.dims",
	  "want a dim or a tuple of dims", false },
	{ "msg.code.dimrep",
	  "dim %d is repeated", false },
	{ "msg.code.movedim",
	  "movedim: source and destination need as many dims (%d and %d)", false },
	{ "msg.code.flatten",
	  "flatten: start_dim %d comes after end_dim %d", false },
	{ "msg.code.unflattentuple",
	  "unflatten's sizes are a tuple, such as (H, d)", false },
	{ "msg.code.maxrank",
	  "headlab draws tensors of at most %d axes", false },
	{ "msg.code.unflattensizes",
	  "unflatten's sizes are at least 1, with one -1 at most", false },
	{ "msg.code.unflattenfit",
	  "unflatten: these sizes do not multiply to %lld, the size of dim %d", false },
	{ "msg.code.expandn",
	  "expand%s gives %d sizes for a tensor of %d axes (at least as many, at most %d)", false },
	{ "msg.code.expandlead",
	  "expand%s: a new leading axis needs a size of 1 or more, not %lld", false },
	{ "msg.code.expandsize",
	  "expand%s: size %lld is invalid", false },
	{ "msg.code.expandstretch",
	  "expand%s cannot stretch dim %d: it has size %lld, and only an axis of size 1 "
	  "can expand (the tensor is %s)", false },
	{ "msg.code.expandbig",
	  "expand%s has more cells than a 64-bit count holds", false },
	{ "msg.code.indexrange",
	  "index %lld is out of range for dim %d of size %lld", false },
	{ "msg.code.startrange",
	  "start %lld is out of range for dim %d of size %lld", false },
	{ "msg.code.tupleof",
	  "%s gives a tuple of tensors: pick one with [i], such as .%s[0]", false },
	{ "msg.code.splitmin",
	  "split sizes must be at least 1", false },
	{ "msg.code.splitsum",
	  "split sizes add up to %lld, but dim %d has size %lld", false },
	{ "msg.code.atleast1",
	  "%s must be at least 1", false },
	{ "msg.code.piece1",
	  "piece [%lld] does not exist: %s gives %lld piece here", false },
	{ "msg.code.pieces",
	  "piece [%lld] does not exist: %s gives %lld pieces here", false },
	{ "msg.code.nocells",
	  "this index picks no cells", false },
	{ "msg.code.rearrangeargs",
	  "rearrange takes the tensor, the pattern, and axis sizes such as h=H", false },
	{ "msg.code.rearrangepattern",
	  "rearrange needs a pattern, such as 'b t (h d) -> b h t d'", false },
	/* index expressions (index.c) */
	{ "msg.index.followed",
	  "'%c' must be followed by a number, not %s", false },
	{ "msg.index.64",
	  "%s%.*s does not fit in 64 bits", false },
	{ "msg.index.whole",
	  "%s%.*s is not a whole number (indices are integers)", false },
	{ "msg.index.malformed",
	  "malformed number '%s%.*s'", false },
	{ "msg.index.mask",
	  "%.*s indexes with a mask (advanced indexing); headlab does basic indexing: "
	  "numbers, slices, ... and None", false },
	{ "msg.index.none",
	  "unknown name '%.*s' (did you mean None?)", false },
	{ "msg.index.name",
	  "unknown name '%.*s' (an index is a number, a slice a:b:c, ... or None)", false },
	{ "msg.index.step0",
	  "slice step cannot be zero", false },
	{ "msg.index.stepneg",
	  "slice step %lld is negative; PyTorch refuses negative steps (use a positive "
	  "step, or .flip() on the result)", false },
	{ "msg.index.parts",
	  "a slice has at most three parts, start:stop:step", false },
	{ "msg.index.many",
	  "too many indices (more than %d)", false },
	{ "msg.index.int",
	  "%.*s is not a whole number (indices are integers)", false },
	{ "msg.index.dots",
	  "malformed ellipsis: write exactly three dots, ...", false },
	{ "msg.index.ellipsis",
	  "an index can only have a single ellipsis ('...')", false },
	{ "msg.index.expected",
	  "expected an index (a number, a slice a:b:c, ... or None), found %s", false },
	{ "msg.index.close",
	  "']' without a '[' before it", false },
	{ "msg.index.comma",
	  "expected ',' between indices, found %s", false },
	{ "msg.index.empty",
	  "empty index (try [0, 0, 1], or ... for the whole tensor)", false },
	{ "msg.index.missing",
	  "missing ']' at the end", false },
	{ "msg.index.chained",
	  "chained indexing is not supported: write x[0, 1], not x[0][1]", false },
	{ "msg.index.after",
	  "unexpected %s after ']'", false },
	{ "msg.index.toomany1",
	  "too many indices: the tensor has %d axis [%s]", false },
	{ "msg.index.toomany",
	  "too many indices: the tensor has %d axes [%s]", false },
	{ "msg.index.axes",
	  "too many axes: the result would have %d, at most %d", false },
	/* patterns (pattern.c) */
	{ "msg.pattern.notdots",
	  "'%.*s' is not '...'", false },
	{ "msg.pattern.dotstwice",
	  "'...' appears twice on the %s side (once per side at most)", false },
	{ "msg.pattern.dotsgroup",
	  "'...' cannot be inside a group on the left side (einops allows '(...)' only "
	  "on the right)", false },
	{ "msg.pattern.groupmax",
	  "a group holds at most %d axes", false },
	{ "msg.pattern.number",
	  "'%.*s': the only number a rearrange pattern takes is 1 (no repeats or "
	  "reductions; give sizes with --axis NAME=SIZE)", false },
	{ "msg.pattern.noopen",
	  "')' has no matching '('", false },
	{ "msg.pattern.nest",
	  "groups do not nest: close the group opened at column %d first", false },
	{ "msg.pattern.dash",
	  "unexpected '-' (a pattern is 'left -> right')", false },
	{ "msg.pattern.arrowtwice",
	  "'->' appears twice (a pattern is 'left -> right')", false },
	{ "msg.pattern.open",
	  "'(' is never closed", false },
	{ "msg.pattern.rightempty",
	  "the right side has no axes (the result needs rank 1 to %d; write 1 for a "
	  "single cell)", false },
	{ "msg.pattern.size1",
	  "'%s' is an axis of size 1, but axis %d of x has size %lld", false },
	{ "msg.pattern.result",
	  "the result would have more than %d axes (headlab handles rank 1 to %d)", false },
	{ "msg.pattern.ungrouped",
	  "ungrouped, x would have more than %d axes (headlab handles rank 1 to %d)", false },
	{ "msg.pattern.arrow",
	  "'->' is missing (a pattern is 'left -> right', such as 'b t (h d) -> b h t d')", false },
	{ "msg.pattern.bigx",
	  "x of this shape has more cells than a 64-bit count holds", false },
	/* presets (preset.c), as the : prompt reaches them */
	{ "msg.preset.notdiv1",
	  "width %lld is not divisible by %lld head", false },
	{ "msg.preset.notdiv",
	  "width %lld is not divisible by %lld heads", false },
	{ "msg.preset.big",
	  "B*T*D has more cells than a 64-bit count holds", false },
	{ "msg.preset.min",
	  "every size and the head count must be at least 1", false },
	{ "msg.preset.packed",
	  "--preset qkv: the packed width %lld is not 3*D (q, k and v side by side): it "
	  "must be divisible by 3", false },
	{ "msg.preset.qkvdiv1",
	  "--preset qkv: D = %lld is not divisible by %lld head", false },
	{ "msg.preset.qkvdiv",
	  "--preset qkv: D = %lld is not divisible by %lld heads", false },
	{ "msg.preset.big3",
	  "B*T*3D has more cells than a 64-bit count holds", false },
	{ "msg.preset.bigh",
	  "B*H*T*d has more cells than a 64-bit count holds", false },
	{ "msg.preset.gqa1",
	  "--preset gqa: %lld query heads cannot share %lld key/value head evenly "
	  "(--heads must be a multiple of Hkv, the second size of --shape)", false },
	{ "msg.preset.gqa",
	  "--preset gqa: %lld query heads cannot share %lld key/value heads evenly "
	  "(--heads must be a multiple of Hkv, the second size of --shape)", false },
	{ "msg.preset.shape1",
	  "--preset %s takes --shape %s (%d sizes), not %d size", false },
	{ "msg.preset.shape",
	  "--preset %s takes --shape %s (%d sizes), not %d sizes", false },
	{ "msg.preset.noheads",
	  "--preset %s takes no --heads (its --shape is %s)", false },
	{ "msg.preset.sizemin",
	  "every size of --shape must be at least 1", false },
	{ "msg.preset.headsmin",
	  "--heads must be at least 1", false },
	{ "msg.preset.pattern",
	  "--heads does not go with --rearrange: size the head axis with --axis, such as "
	  "--axis h=%lld", false },
};

#define LAB_MESSAGE_CAPS 8

/* The conversion at f ("%lld", "%.*s", ...): its length, and its letter
 * in *conv. */
static size_t
lab_message_spec(const char *f, char *conv)
{
	size_t n = 1 + strspn(f + 1, "-+ #0123456789.*");

	n += strspn(f + n, "hlLqjzt");
	*conv = f[n];
	return f[n] ? n + 1 : n;
}

/* Whether s reads as format f, each conversion's text in caps (start and
 * length); numbers take digits, %c one character, %s any run, the
 * shortest that lets the rest match. */
static bool
lab_message_match(const char *f, const char *s, const char **cap, size_t *len, int i)
{
	char conv;
	size_t n, most;

	if (*f == '\0')
		return *s == '\0';
	if (f[0] == '%' && f[1] == '%')
		return *s == '%' && lab_message_match(f + 2, s + 1, cap, len, i);
	if (*f != '%')
		return *s == *f && lab_message_match(f + 1, s + 1, cap, len, i);
	if (i >= LAB_MESSAGE_CAPS)
		return false;
	n = lab_message_spec(f, &conv);
	if (conv == 'c')
		most = *s ? 1 : 0;
	else if (conv == 's')
		most = strlen(s);
	else
		most = (*s == '-') + strspn(s + (*s == '-'), "0123456789");
	for (size_t k = conv == 's' ? 0 : most; k <= most && (conv == 's' || k > 0); k++) {
		cap[i] = s;
		len[i] = k;
		if (lab_message_match(f + n, s + k, cap, len, i + 1))
			return true;
		if (conv != 's')
			break;
	}
	return false;
}

/* Append s (n bytes) to buf at *used, with " or " said as ui.or when or. */
static void
lab_message_put(char *buf, size_t size, size_t *used, const char *s, size_t n, bool or)
{
	const char *word = or ? strstr(s, " or ") : NULL;

	if (word && (size_t)(word - s) < n) {
		size_t head = (size_t)(word - s);

		lab_message_put(buf, size, used, s, head, false);
		if (*used < size)
			*used += (size_t)snprintf(buf + *used, size - *used, " %s ", text_get("ui.or", "or"));
		lab_message_put(buf, size, used, word + 4, n - head - 4, false);
		return;
	}
	if (*used < size)
		*used += (size_t)snprintf(buf + *used, size - *used, "%.*s", (int)n, s);
}

void
lab_message_words(char *buf, size_t size, const char *english)
{
	const char *cap[LAB_MESSAGE_CAPS];
	size_t len[LAB_MESSAGE_CAPS], used = 0;
	int i = 0, ncaps = 0;

	for (size_t m = 0; m < sizeof lab_messages / sizeof lab_messages[0]; m++) {
		const struct lab_message *lm = &lab_messages[m];
		const char *f;

		if (!lab_message_match(lm->english, english, cap, len, 0))
			continue;
		for (f = lm->english; *f; f++)
			if (*f == '%' && f[1] != '%')
				ncaps++;
			else if (*f == '%')
				f++;
		buf[0] = '\0';
		for (f = text_fmt(lm->key, lm->english); *f && used < size; f++) {
			char conv;

			if (f[0] == '%' && f[1] == '%') {
				lab_message_put(buf, size, &used, "%", 1, false);
				f++;
			} else if (*f == '%') {
				f += lab_message_spec(f, &conv) - 1;
				if (i < ncaps) {
					lab_message_put(buf, size, &used, cap[i], len[i], lm->or_list && i == ncaps - 1);
					i++;
				}
			} else {
				lab_message_put(buf, size, &used, f, 1, false);
			}
		}
		return;
	}
	snprintf(buf, size, "%s", english);
}
