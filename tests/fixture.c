/* fixture.c - what the C tests share without a terminal (fixture.h). */
#include "fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "utf8.h"

void
fixture_frame_dump(const struct scene *fr)
{
	char lines[64][220];

	if (getenv("ANIM_DEBUG") == NULL)
		return;
	memset(lines, ' ', sizeof lines);
	for (size_t i = 0; i < fr->n; i++) {
		const struct scene_item *it = &fr->items[i];
		const char *p = it->text;

		for (int x = it->x; *p && it->y >= 0 && it->y < 64 && x >= 0 && x < 219; x++) {
			/* one byte per column: non-ASCII glyphs as '|' */
			lines[it->y][x] = (unsigned char)*p < 0x80 ? *p : '|';
			p++;
			while ((*p & 0xc0) == 0x80)
				p++;
		}
	}
	for (int y = 0; y < fr->height && y < 64; y++)
		printf("# %.200s\n", lines[y]);
}

bool
fixture_utf8_safe(const char *s)
{
	size_t n = strlen(s);

	while (n > 0) {
		uint32_t cp;
		size_t len = utf8_decode(s, n, &cp);

		/* a control, C0 (tab and newline too), DEL or C1, or a byte
		 * that starts no character */
		if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f) || (cp == 0xfffd && len == 1))
			return false;
		s += len;
		n -= len;
	}
	return true;
}

bool
fixture_attention_in_range(const struct attention *a, enum attention_tensor t, const int64_t *index)
{
	struct attention_info info;

	if ((int)t < 0 || t >= ATTENTION_NTENSORS)
		return false;
	attention_info(a, t, &info);
	for (int i = 0; i < info.rank; i++)
		if (index[i] < 0 || index[i] >= info.shape[i])
			return false;
	return true;
}
