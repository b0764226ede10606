/* export_html.c - index.html: one self-contained page for a course site
 * that plays the walk (the picture of export_anim.c, inline), with step
 * buttons, the arrow keys, a click on a cell (or Enter on it) that lights
 * its label at every step and says where it is, and the captions in
 * English and Chinese.  No network and no framework: the page's one script only
 * pauses and seeks the picture's own SMIL animations.
 *
 * Without scripts the player stays hidden and every step is shown still,
 * one figure under the other; under prefers-reduced-motion the script
 * steps without gliding and does not start playing by itself.  The file
 * is well-formed XML as well as HTML (the script and style sit in CDATA
 * sections HTML reads as comments), so an XML parser can check it. */
#include "export_anim.h"

#include <stdlib.h>
#include <string.h>

#include "facts.h"
#include "svg.h"
#include "text.h"

#define HTML_LANGS 2

static const char *const html_langs[HTML_LANGS] = { "en", "zh" };

/* The page's own words, in both languages: the page switches between
 * them without reloading. */
static const struct {
	const char *id, *text[HTML_LANGS];
} html_words[] = {
	{ "prev", { "\u2190 previous", "\u2190 \u4e0a\u4e00\u6b65" } },
	{ "next", { "next \u2192", "\u4e0b\u4e00\u6b65 \u2192" } },
	{ "play", { "play / pause", "\u64ad\u653e / \u6682\u505c" } },
	{ "steps", { "Every step", "\u6bcf\u4e00\u6b65" } },
	{ "hint", { "Click a cell to light its label at every step and see its index; "
	            "\u2190 \u2192 step, Home and End go to the first and last step.",
	            "\u70b9\u51fb\u4e00\u4e2a\u683c\u5b50\uff0c\u5b83\u7684\u6807\u7b7e\u5728"
	            "\u6bcf\u4e00\u6b65\u90fd\u4f1a\u4eae\u8d77\uff0c\u5e76\u663e\u793a\u5b83"
	            "\u7684\u7d22\u5f15\uff1b\u2190 \u2192 \u6362\u6b65\uff0cHome \u548c End "
	            "\u5230\u7b2c\u4e00\u6b65\u548c\u6700\u540e\u4e00\u6b65\u3002" } },
	{ "label", { "label", "\u6807\u7b7e" } },
	{ "still", { "Every step of the walk at rest, one under the other.",
	             "\u6bcf\u4e00\u6b65\u9759\u6b62\u7684\u56fe\uff0c\u4ece\u4e0a\u5230\u4e0b"
	             "\u6392\u5217\u3002" } },
};

/* Both languages' version of word id, each in a span the page shows
 * or hides. */
static void
html_word(FILE *out, const char *id)
{
	for (size_t i = 0; i < sizeof html_words / sizeof html_words[0]; i++) {
		if (strcmp(html_words[i].id, id) != 0)
			continue;
		for (int l = 0; l < HTML_LANGS; l++) {
			fprintf(out, "<span class='l' lang='%s'>", html_langs[l]);
			svg_xml(out, html_words[i].text[l]);
			fputs("</span>", out);
		}
	}
}

/* Every slot's caption in language l, into caps[l][s] (NULL when none),
 * and the walk's title in each, into titles[l]. */
static void
html_captions(const struct export_anim *a, char *caps[HTML_LANGS][WALK_MAX_STEPS],
              char titles[HTML_LANGS][256])
{
	const struct export_opts *o = a->o;
	const struct reel_lane *ln = &a->r.lane[a->r.nlanes - 1];
	const char *mine = o->lang ? o->lang : "en";
	struct facts *f = malloc(sizeof *f);
	char why[256];

	for (int l = 0; l < HTML_LANGS; l++)
		facts_walk_summary(titles[l], sizeof titles[0], ln->w);
	if (f == NULL || !o->captions) {
		free(f);
		return;
	}
	for (int l = 0; l < HTML_LANGS; l++) {
		bool loaded = strcmp(html_langs[l], mine) == 0;

		if (!loaded && o->exe)
			loaded = text_load(html_langs[l], o->exe, why, sizeof why);
		if (loaded)
			facts_walk_title(titles[l], sizeof titles[0], ln->w);
		for (int s = 0; loaded && s < a->r.nslots; s++) {
			facts_step(f, ln->w, ln->step[s], o->utf8, NULL, true);
			caps[l][s] = f->caption[0] ? strdup(f->caption) : NULL;
		}
		if (strcmp(html_langs[l], mine) != 0 && o->exe)
			(void)text_load(mine, o->exe, why, sizeof why);
	}
	free(f);
}

static const char html_style[] =
	"body{margin:0;font-family:'DejaVu Sans','Noto Sans CJK SC','PingFang SC',Arial,sans-serif;"
	"line-height:1.45}\n"
	"main{max-width:1100px;margin:0 auto;padding:16px}\n"
	"h1{font-size:1.35em}\n"
	"svg{max-width:100%;height:auto;display:block}\n"
	"[hidden]{display:none !important}\n"
	".js #stills{display:none}\n"
	".lang-en .l[lang=zh],.lang-zh .l[lang=en]{display:none}\n"
	".bar{display:flex;flex-wrap:wrap;gap:6px;align-items:center;margin:8px 0}\n"
	"button{font:inherit;padding:4px 10px;border:2px solid currentColor;border-radius:6px;"
	"background:transparent;color:inherit;cursor:pointer}\n"
	"button[aria-pressed=true]{font-weight:bold;border-width:4px;text-decoration:underline}\n"
	".cell{cursor:pointer}\n"
	".cell:focus{outline:none}\n"
	".cell:focus rect{stroke-width:5px}\n"
	".cell.lit .ring{visibility:visible}\n"
	".cap p{font-size:1.1em;margin:6px 0}\n"
	"#where strong{text-decoration:underline}\n"
	"figure{margin:24px 0}\n"
	"@media (prefers-reduced-motion: reduce){*{transition:none !important;"
	"scroll-behavior:auto !important}}\n";

/* The script: seek and pause the picture's animations; steps, keys,
 * play and pause, clicks on cells, the language. */
static const char html_script_a[] =
	"(function () {\n"
	"  var d = document, player = d.getElementById('player');\n"
	"  var svg = player ? player.querySelector('svg.headlab-walk') : null;\n"
	"  if (!svg || !svg.pauseAnimations) { return; }\n"
	"  d.documentElement.className += ' js';\n"
	"  player.hidden = false;\n"
	"  var n = +svg.getAttribute('data-slots'), P = +svg.getAttribute('data-step-seconds');\n"
	"  var hold = +svg.getAttribute('data-hold-seconds');\n"
	"  var mq = window.matchMedia ? window.matchMedia('(prefers-reduced-motion: reduce)') : null;\n"
	"  var reduce = mq ? mq.matches : false;\n"
	"  var cur = 0, target = -1, playing = false, lit = null;\n"
	"  var buttons = player.querySelectorAll('.stepbtn'), caps = player.querySelectorAll('.cap');\n"
	"  var where = d.getElementById('where');\n"
	"  function rest(s) { return s * P + hold / 2; }\n"
	"  function describe() {\n"
	"    where.textContent = '';\n"
	"    if (lit === null) { return; }\n"
	"    var cells = player.querySelectorAll('.cell[data-label=\"' + lit + '\"]');\n"
	"    for (var c = 0; c !== cells.length; c++) {\n"
	"      var at = cells[c].getAttribute('data-at').split('|'), line = d.createElement('div');\n"
	"      line.appendChild(d.createTextNode(where.getAttribute('data-label') + ' ' + lit + ': '));\n"
	"      for (var s = 0; s !== at.length; s++) {\n"
	"        var part = d.createElement(s === cur ? 'strong' : 'span');\n"
	"        part.textContent = (s ? ' \\u00b7 ' : '') + (s + 1) + ' ' + at[s];\n"
	"        line.appendChild(part);\n"
	"      }\n"
	"      where.appendChild(line);\n"
	"    }\n"
	"  }\n"
	"  function show(s) {\n"
	"    cur = s;\n"
	"    for (var i = 0; i !== buttons.length; i++) {\n"
	"      buttons[i].setAttribute('aria-pressed', i === s ? 'true' : 'false');\n"
	"    }\n"
	"    for (var j = 0; j !== caps.length; j++) { caps[j].hidden = j !== s; }\n"
	"    describe();\n"
	"  }\n"
	"  /* chromium ignores an unpause in the task that seeks: run later */\n"
	"  var run = 0;\n"
	"  function stop() { run++; target = -1; playing = false; svg.pauseAnimations(); }\n"
	"  function resume() {\n"
	"    var mine = run;\n"
	"    setTimeout(function () {\n"
	"      if (mine === run) { svg.unpauseAnimations(); tick(mine); }\n"
	"    }, 0);\n"
	"  }\n"
	"  /* a timer, not animation frames: a hidden tab and a headless\n"
	"   * browser still end the glide where it should */\n"
	"  function tick(mine) {\n"
	"    var t = svg.getCurrentTime();\n"
	"    if (mine !== run) { return; }\n"
	"    if (playing) {\n"
	"      var s = Math.floor((t % (n * P) + P - hold) / P) % n;\n"
	"      if (s !== cur) { show(s); }\n"
	"      setTimeout(tick, 40, mine);\n"
	"    } else if (target >= 0) {\n"
	"      if (t >= target) { stop(); svg.setCurrentTime(rest(cur)); }\n"
	"      else { setTimeout(tick, 15, mine); }\n"
	"    }\n"
	"  }\n"
	"  function go(s, glide) {\n"
	"    s = (s % n + n) % n;\n"
	"    var from = cur;\n"
	"    stop();\n"
	"    if (glide && !reduce && s === (from + 1) % n) {\n"
	"      svg.setCurrentTime(from * P + hold);\n"
	"      target = (from + 1) * P;\n"
	"      show(s);\n"
	"      resume();\n"
	"    } else {\n"
	"      svg.setCurrentTime(rest(s));\n"
	"      show(s);\n"
	"    }\n"
	"  }\n"
	"  function play() {\n"
	"    if (playing) { stop(); svg.setCurrentTime(rest(cur)); return; }\n"
	"    stop();\n"
	"    svg.setCurrentTime(rest(cur));\n"
	"    playing = true;\n"
	"    resume();\n"
	"  }\n"
	;

/* The rest of the script: the controls wired up, the first step shown. */
static const char html_script_b[] =
	"  function light(label) {\n"
	"    var old = d.querySelectorAll('.cell.lit');\n"
	"    for (var i = 0; i !== old.length; i++) { old[i].classList.remove('lit'); }\n"
	"    lit = label === lit ? null : label;\n"
	"    if (lit !== null) {\n"
	"      var all = d.querySelectorAll('.cell[data-label=\"' + lit + '\"]');\n"
	"      for (var j = 0; j !== all.length; j++) { all[j].classList.add('lit'); }\n"
	"    }\n"
	"    describe();\n"
	"  }\n"
	"  for (var b = 0; b !== buttons.length; b++) {\n"
	"    buttons[b].addEventListener('click', function (e) {\n"
	"      go(+e.currentTarget.getAttribute('data-slot'), false);\n"
	"    });\n"
	"  }\n"
	"  d.getElementById('prev').addEventListener('click', function () { go(cur - 1, false); });\n"
	"  d.getElementById('next').addEventListener('click', function () { go(cur + 1, true); });\n"
	"  d.getElementById('play').addEventListener('click', play);\n"
	"  var langs = d.querySelectorAll('[data-lang]');\n"
	"  for (var l = 0; l !== langs.length; l++) {\n"
	"    langs[l].addEventListener('click', function (e) {\n"
	"      var lang = e.currentTarget.getAttribute('data-lang');\n"
	"      d.body.className = 'lang-' + lang;\n"
	"      d.documentElement.setAttribute('lang', lang);\n"
	"      for (var k = 0; k !== langs.length; k++) {\n"
	"        langs[k].setAttribute('aria-pressed', langs[k] === e.currentTarget ? 'true' : 'false');\n"
	"      }\n"
	"    });\n"
	"  }\n"
	"  d.addEventListener('click', function (e) {\n"
	"    var cell = e.target.closest ? e.target.closest('.cell') : null;\n"
	"    if (cell) { light(cell.getAttribute('data-label')); }\n"
	"  });\n"
	"  d.addEventListener('keydown', function (e) {\n"
	"    if (e.altKey || e.ctrlKey || e.metaKey) { return; }\n"
	"    var focus = e.target.closest ? e.target.closest('.cell') : null;\n"
	"    if (focus && (e.key === 'Enter' || e.key === ' ')) {\n"
	"      e.preventDefault();\n"
	"      light(focus.getAttribute('data-label'));\n"
	"      return;\n"
	"    }\n"
	"    var keys = { ArrowRight: 1, ArrowLeft: -1, Home: -2, End: 2 }, k = keys[e.key];\n"
	"    if (!k) { return; }\n"
	"    e.preventDefault();\n"
	"    if (k === 1) { go(cur + 1, true); } else if (k === -1) { go(cur - 1, false); }\n"
	"    else { go(k === 2 ? n - 1 : 0, false); }\n"
	"  });\n"
	"  var sel = svg.querySelector('.cell.sel');\n"
	"  if (sel) { light(sel.getAttribute('data-label')); }\n"
	"  go(0, false);\n"
	"  if (!reduce) { play(); }\n"
	"  window.headlabPage = { go: go, stop: stop, light: light, rest: rest,\n"
	"                         step: function () { return cur; } };\n"
	"})();\n";

/* The name of slot s on its button: its number and the step it shows. */
static void
html_slot_name(FILE *out, const struct export_anim *a, int s)
{
	const struct reel_lane *ln = &a->r.lane[0];

	fprintf(out, "%d ", s + 1);
	svg_xml(out, export_anim_step_name(ln->w, ln->step[s]));
}

bool
export_html_render(FILE *out, const struct walk *w, const struct export_opts *o)
{
	struct export_anim a;
	char *caps[HTML_LANGS][WALK_MAX_STEPS] = { { 0 } };
	char titles[HTML_LANGS][256];
	const char *mine = o->lang && strcmp(o->lang, "zh") == 0 ? "zh" : "en";
	const char *summary = titles[strcmp(mine, "zh") == 0];
	bool two = o->exe != NULL;

	if (!export_anim_begin(&a, w, o, false))
		return false;
	html_captions(&a, caps, titles);
	fprintf(out, "<!DOCTYPE html>\n<html xmlns='http://www.w3.org/1999/xhtml' lang='%s'>\n"
	        "<head>\n<meta charset='utf-8'/>\n"
	        "<meta name='viewport' content='width=device-width, initial-scale=1'/>\n<title>", mine);
	svg_xml(out, summary);
	fprintf(out, "</title>\n<style>/*<![CDATA[*/\nbody{background:%s;color:%s}\n%s/*]]>*/</style>\n"
	        "</head>\n<body class='lang-%s'>\n<main>\n<h1>", a.col.bg, a.col.fg, html_style, mine);
	for (int l = 0; l < HTML_LANGS; l++) {
		fprintf(out, "<span class='l' lang='%s'>", html_langs[l]);
		svg_xml(out, titles[l]);
		fputs("</span>", out);
	}
	fputs("</h1>\n<section id='player' hidden='hidden'>\n<div class='bar' role='toolbar'>"
	      "<button id='prev' type='button'>", out);
	html_word(out, "prev");
	fputs("</button>\n", out);
	for (int s = 0; s < a.r.nslots; s++) {
		fprintf(out, "<button class='stepbtn' type='button' data-slot='%d' aria-pressed='%s'>", s,
		        s == 0 ? "true" : "false");
		html_slot_name(out, &a, s);
		fputs("</button>\n", out);
	}
	fputs("<button id='next' type='button'>", out);
	html_word(out, "next");
	fputs("</button>\n<button id='play' type='button'>", out);
	html_word(out, "play");
	fputs("</button>\n", out);
	if (two)
		fprintf(out, "<button type='button' data-lang='en' lang='en' aria-pressed='%s'>English"
		        "</button><button type='button' data-lang='zh' lang='zh' aria-pressed='%s'>"
		        "\u4e2d\u6587</button>\n", strcmp(mine, "en") == 0 ? "true" : "false",
		        strcmp(mine, "zh") == 0 ? "true" : "false");
	fputs("</div>\n<div class='fig'>\n", out);
	a.focusable = true;
	export_anim_draw(out, &a, -1, true);
	a.focusable = false;
	fputs("</div>\n<div class='caps' aria-live='polite'>\n", out);
	for (int s = 0; s < a.r.nslots; s++) {
		fprintf(out, "<div class='cap' data-slot='%d'%s>", s, s ? " hidden='hidden'" : "");
		for (int l = 0; l < HTML_LANGS; l++)
			if (caps[l][s]) {
				fprintf(out, "<p class='l' lang='%s'>", html_langs[l]);
				svg_xml(out, caps[l][s]);
				fputs("</p>", out);
			}
		fputs("</div>\n", out);
	}
	fputs("</div>\n<div id='where' aria-live='polite' data-label='", out);
	svg_xml(out, text_get("web.label", "label"));
	fputs("'></div>\n<p>", out);
	html_word(out, "hint");
	fputs("</p>\n</section>\n<section id='stills'>\n<h2>", out);
	html_word(out, "steps");
	fputs("</h2>\n<p>", out);
	html_word(out, "still");
	fputs("</p>\n", out);
	for (int s = 0; s < a.r.nslots; s++) {
		fprintf(out, "<figure class='still' id='step-%d' data-slot='%d'>\n", s + 1, s);
		export_anim_draw(out, &a, s, true);
		fputs("<figcaption>", out);
		for (int l = 0; l < HTML_LANGS; l++)
			if (caps[l][s]) {
				fprintf(out, "<p class='l' lang='%s'>", html_langs[l]);
				svg_xml(out, caps[l][s]);
				fputs("</p>", out);
			}
		fputs("</figcaption>\n</figure>\n", out);
	}
	fprintf(out, "</section>\n</main>\n<script>//<![CDATA[\n%s%s//]]></script>\n</body>\n"
	        "</html>\n", html_script_a, html_script_b);
	for (int l = 0; l < HTML_LANGS; l++)
		for (int s = 0; s < WALK_MAX_STEPS; s++)
			free(caps[l][s]);
	export_anim_end(&a);
	return !ferror(out);
}
