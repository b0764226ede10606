/* svg.c - what the grid and 3D SVG pictures share. */
#include "svg.h"

#include <string.h>

#include "utf8.h"

const char svg_font_mono[] =
	"'DejaVu Sans Mono', Menlo, Consolas, 'Liberation Mono', monospace";
const char svg_font_sans[] =
	"'DejaVu Sans', 'Helvetica Neue', Arial, 'Noto Sans CJK SC', 'PingFang SC', "
	"'Microsoft YaHei', sans-serif";

static const unsigned svg_colors[] = {
	0x1f77b4, 0x12968f, 0x9467bd, 0xe8710a, 0x2ca02c, 0xd62728,
	0x8c564b, 0xd1449a, 0x6b6b6b, 0xa6a21c, 0x17a8c4, 0x393b79,
};

static const char *const svg_dashes[] = { "none", "7 4", "2.5 3", "11 3 2.5 3", "4.5 2.5", "1.5 4.5" };

#define SVG_N(a) (sizeof (a) / sizeof (a)[0])

unsigned
svg_head_rgb(int64_t head)
{
	return svg_colors[head < 0 ? 0 : (size_t)(head % (int64_t)SVG_N(svg_colors))];
}

const char *
svg_head_dash(int64_t head)
{
	return svg_dashes[head < 0 ? 0 : (size_t)(head % (int64_t)SVG_N(svg_dashes))];
}

void
svg_mix(char *buf, size_t size, unsigned rgb, double amount)
{
	unsigned c[3] = { rgb >> 16 & 0xff, rgb >> 8 & 0xff, rgb & 0xff };

	for (int i = 0; i < 3; i++) {
		double v = c[i];

		v = amount >= 0 ? v + (255 - v) * amount : v * (1 + amount);
		c[i] = (unsigned)(v + 0.5);
	}
	snprintf(buf, size, "#%02x%02x%02x", c[0], c[1], c[2]);
}

void
svg_xmln(FILE *out, const char *s, size_t n)
{
	const char *end = s + n;

	while (s < end) {
		uint32_t c;
		size_t len = utf8_decode(s, (size_t)(end - s), &c);

		switch (c) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&apos;", out); break;
		default:
			if (c == 0xfffd && !(len == 3 && (unsigned char)s[0] == 0xef))
				fputs("\xef\xbf\xbd", out);
			else if ((c < 0x20 && c != '\t') || (c >= 0x7f && c <= 0x9f))
				fputc(' ', out);
			else
				fwrite(s, 1, len, out);
			break;
		}
		s += len;
	}
}

void
svg_xml(FILE *out, const char *s)
{
	svg_xmln(out, s, strlen(s));
}
