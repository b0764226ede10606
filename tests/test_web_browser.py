#!/usr/bin/env python3
"""walk.svg and index.html in a real browser: Debian's chromium, headless.

  - walk.svg (the lesson with --select 4, the 3D view, and --wrong beside
    the right walk) inlined in a page that pauses its SMIL animations and
    seeks them (SVGSVGElement.setCurrentTime) to each step's rest point:
    the boxes chromium lays out, read with getBoundingClientRect, hold
    every label of the step once, at the line and column --print draws it
    in (relative to the other labels), the header shows that step's code,
    the selected label is marked at every step and the bug's misplaced
    cells are marked at the end; at every frame time of every glide (and
    half-way between two frames) no two boxes of a lane overlap;
  - index.html of --select 4: label 4 lit when it opens; then, with a
    script injected that clicks label 7 and each step button: label 7 lit
    (its ring shown) at every step, in its place, its index at that step
    said under the figure, the step's caption shown and its button pressed;
    the arrow keys, Enter on a focused cell, a glide, play and the language
    button;
  - index.html without its script (chromium's --dump-dom and --screenshot
    need scripts, so the page's own is left out and a probe reads the
    result): the player not drawn, every step a still figure with its
    labels in place; for a reader who prefers reduced motion (the media
    query answered so) the page does not start playing.  All in one run of
    chromium, each probe page in a frame of one page.

Exit 77 (skip) when chromium is not installed.  Prints TAP-style lines;
the exit status is the verdict.  Environment (set by meson): HEADLAB,
HEADLAB_DATADIR.  Standard library only.
"""
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import webcheck  # noqa: E402

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--allow-file-access-from-files"]
failures = 0
count = 0


def ok(cond, desc, why=None):
    global failures, count
    count += 1
    print("%s %d - %s" % ("ok" if cond else "not ok", count, desc))
    if not cond:
        failures += 1
        for line in str(why or "").splitlines()[:30]:
            print("# " + line)
    sys.stdout.flush()
    return cond


def chromium(url, extra=(), budget=5000, tmp=None):
    """The DOM after budget ms of virtual time, as chromium serialises it."""
    profile = tempfile.mkdtemp(prefix="chromium-", dir=tmp)
    r = subprocess.run([CHROMIUM] + FLAGS + ["--user-data-dir=" + profile,
                        "--virtual-time-budget=%d" % budget, "--dump-dom"] + list(extra) + [url],
                       capture_output=True, text=True, timeout=120)
    shutil.rmtree(profile, ignore_errors=True)
    return r.stdout


PARENT = """<!DOCTYPE html><html><head><meta charset="utf-8"/>
<style>iframe{position:absolute;left:0;top:0;width:1600px;height:1200px;border:0}</style>
</head><body>%s<pre id="out"></pre><script>
function poll() {
  var got = [], all = true;
  document.querySelectorAll('iframe').forEach(function (f) {
    var o = f.contentDocument ? f.contentDocument.getElementById('out') : null;
    var t = o ? o.textContent : '';
    if (!t) { all = false; }
    got.push(t);
  });
  if (all) { document.getElementById('out').textContent = JSON.stringify(got); }
  else { setTimeout(poll, 50); }
}
window.addEventListener('load', poll);
</script></body></html>
"""


def browse(pages, extra=(), budget=20000, tmp=None):
    """Load every probe page at once, each in a frame of one page, in one
    chromium (its start is most of a run's time): the result each page
    writes to its <pre id="out">, parsed (None when it wrote nothing)."""
    parent = os.path.join(tmp, "parent-%d.html" % len(os.listdir(tmp)))
    with open(parent, "w", encoding="utf-8") as f:
        f.write(PARENT % "".join('<iframe src="file://%s"></iframe>' % html.escape(p) for p in pages))
    got = result(chromium("file://" + parent, extra, budget, tmp))
    if not isinstance(got, list) or len(got) != len(pages):
        return [None] * len(pages)
    out = []
    for text in got:
        try:
            out.append(json.loads(text))
        except ValueError:
            out.append(None)
    return out


def result(dom):
    m = re.search(r'<pre id="out">(.*?)</pre>', dom, re.S)
    if not m:
        return None
    try:
        return json.loads(html.unescape(m.group(1)))
    except ValueError:
        return {"error": m.group(1)[:2000]}


# What the page reads off a picture: its geometry, its cells' boxes, and
# the step headers it shows.
PROBE = r"""
function geo(svg) {
  var g = {};
  ['cw', 'lh', 'grid-x', 'grid-y', 'x0', 'y0', 'slots', 'step-seconds', 'hold-seconds']
    .forEach(function (k) { g[k.replace('-', '_').replace('-', '_')] = +svg.getAttribute('data-' + k); });
  return g;
}
function probe(svg) {
  var r0 = svg.getBoundingClientRect(), cells = [], heads = [];
  svg.querySelectorAll('.cell').forEach(function (g) {
    if (getComputedStyle(g).visibility !== 'visible') { return; }
    var box = g.querySelector('rect:not(.ring)').getBoundingClientRect();
    var ring = g.querySelector('.ring'), wrong = g.querySelector('.wrong');
    cells.push({label: +g.getAttribute('data-label'), lane: +g.getAttribute('data-lane'),
                x: box.left - r0.left, y: box.top - r0.top, w: box.width, h: box.height,
                text: g.querySelector('text').textContent, sel: g.classList.contains('sel'),
                lit: getComputedStyle(ring).visibility === 'visible',
                wrong: wrong ? getComputedStyle(wrong).visibility === 'visible' : false});
  });
  svg.querySelectorAll('.step').forEach(function (g) {
    if (getComputedStyle(g).visibility === 'visible') { heads.push(g.textContent); }
  });
  return {cells: cells, heads: heads};
}
function overlaps(svg) {
  var cells = probe(svg).cells, bad = [];
  for (var i = 0; i < cells.length; i++) {
    for (var j = i + 1; j < cells.length; j++) {
      var a = cells[i], b = cells[j];
      if (a.lane !== b.lane) { continue; }
      /* the boxes without the 3 px each side they are drawn wider */
      var dx = Math.min(a.x + a.w - 3, b.x + b.w - 3) - Math.max(a.x + 3, b.x + 3);
      var dy = Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y);
      if (dx > 0.5 && dy > 0.5) { bad.push([a.label, b.label]); }
    }
  }
  return bad;
}
"""

WALK_PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8"/>
<style>body{margin:0}</style></head><body>
%s
<pre id="out"></pre>
<script>
%s
var svgs = document.querySelectorAll('svg.headlab-walk'), all = [], times = [];
svgs.forEach(function (svg, v) {
  svg.pauseAnimations();
  var g = geo(svg), P = g.step_seconds, hold = g.hold_seconds, n = g.slots, F = 12;
  all.push({geo: g, rests: [], overlaps: []});
  for (var s = 0; s < n; s++) { times.push([v, 'rest', s * P + hold / 2]); }
  for (var s = 0; s < n; s++) {
    for (var f = 0; f < 2 * F; f++) { times.push([v, 'glide', s * P + hold + f * (P - hold) / (2 * F)]); }
  }
});
/* seek, then let a task go by: chromium applies the animated values
 * when it next renders (and only once the document has loaded) */
function next(i) {
  if (i === times.length) {
    document.getElementById('out').textContent = JSON.stringify(all);
    return;
  }
  var svg = svgs[times[i][0]], out = all[times[i][0]];
  svg.setCurrentTime(times[i][2]);
  setTimeout(function () {
    if (times[i][1] === 'rest') { out.rests.push(probe(svg)); }
    else {
      var bad = overlaps(svg);
      if (bad.length) { out.overlaps.push([times[i][2], bad.slice(0, 4)]); }
    }
    next(i + 1);
  }, 0);
}
window.addEventListener('load', function () { next(0); });
</script></body></html>
"""


def walks_page(tmp, walks):
    """The probe page of walk.svg for each (what, args, lanes, selected) of
    walks (lanes: [(print args, steps per slot)] for each lane); its path
    and what check_walks needs."""
    svgs, todo = [], []
    for what, args, lanes, selected in walks:
        d, r = webcheck.export(args, tmp)
        if ok(r.returncode == 0, "%s: headlab --export %s" % (what, " ".join(args)), r.stderr):
            with open(os.path.join(d, "walk.svg"), encoding="utf-8") as f:
                svgs.append("<div>%s</div>" % re.sub(r"^<\?xml[^>]*>\s*", "", f.read()))
            todo.append((what, lanes, selected))
    page = os.path.join(tmp, "walks.html")
    with open(page, "w", encoding="utf-8") as f:
        f.write(WALK_PAGE % ("\n".join(svgs), PROBE))
    return page, todo


def check_walks(todo, res):
    """walk.svg against --print's grids, from the probe's result."""
    if not ok(isinstance(res, list) and len(res) == len(todo), "chromium runs the probe on walk.svg",
              json.dumps(res)[:2000] if res else "no result in the DOM"):
        return
    for (what, lanes, selected), one in zip(todo, res):
        check_walk(what, lanes, selected, one)


def check_walk(what, lanes, selected, res):
    """One walk.svg's probe against the lab."""
    geo = res["geo"]
    grids = [(webcheck.print_grids(pargs), steps) for pargs, steps in lanes]
    codes = [[s["code"] for s in json.loads(webcheck.run(
        ["--print", "--json"] + [a for a in pargs if a not in ("--view", "3d")]).stdout)["steps"]]
        for pargs, _ in lanes]
    ok(len(res["rests"]) == len(lanes[0][1]), "%s: %d steps" % (what, len(lanes[0][1])),
       "the picture has %d" % len(res["rests"]))
    for s, rest in enumerate(res["rests"]):
        problems = []
        for l, (grid, steps) in enumerate(grids):
            cells = [c for c in rest["cells"] if c["lane"] == l]
            problems += ["lane %d: %s" % (l, p)
                         for p in webcheck.compare_places(cells, grid[steps[s]], geo)]
            code = codes[l][steps[s]]
            if len(rest["heads"]) != 1 or code not in rest["heads"][0]:
                problems.append("lane %d: header %r does not show the code %r" % (l, rest["heads"], code))
        if selected is not None:
            sel = [c["label"] for c in rest["cells"] if c["sel"]]
            if sel != [selected] * len(lanes):
                problems.append("selected cells %r, want %d" % (sel, selected))
        if len(lanes) > 1:
            marked = sorted(c["label"] for c in rest["cells"] if c["wrong"])
            want = sorted(l for l in grids[1][0][lanes[1][1][s]]
                          if s == len(res["rests"]) - 1
                          and grids[1][0][lanes[1][1][s]][l] != grids[0][0][lanes[0][1][s]].get(l))
            if s == len(res["rests"]) - 1 and marked != want:
                problems.append("misplaced marks on %r, the bug misplaces %r" % (marked, want))
            if s < len(res["rests"]) - 1 and marked:
                problems.append("misplaced marks before the end: %r" % marked)
        ok(not problems, "%s: step %d at rest as the lab draws it" % (what, s + 1),
           "\n".join(problems))
    ok(not res["overlaps"], "%s: no two boxes overlap at any frame of any glide" % what,
       json.dumps(res["overlaps"][:5]))


INJECT = """<pre id="out"></pre>
<script>
%s
window.addEventListener('load', function () {
  var page = window.headlabPage, svg = document.querySelector('#player svg.headlab-walk');
  var out = {steps: [], hidden: document.getElementById('player').hidden};
  var g = geo(svg), buttons = document.querySelectorAll('.stepbtn');
  function look() {
    var shown = [], pressed = [], p = probe(svg), strong = document.querySelector('#where strong');
    document.querySelectorAll('.cap').forEach(function (c) {
      if (!c.hidden) { shown.push(c.getAttribute('data-slot') + ':' + c.textContent); }
    });
    document.querySelectorAll('.stepbtn').forEach(function (b) {
      if (b.getAttribute('aria-pressed') === 'true') { pressed.push(+b.getAttribute('data-slot')); }
    });
    return {step: page.step(), cells: p.cells, heads: p.heads, caps: shown, pressed: pressed,
            where: strong ? strong.textContent : null,
            still_lit: document.querySelectorAll('#stills .cell.lit').length};
  }
  function finish() {
    out.geo = g;
    /* the arrow keys: Home, then Right glides to step 2 */
    function key(k) {
      document.dispatchEvent(new KeyboardEvent('keydown', {key: k, bubbles: true}));
      return page.step();
    }
    out.keys = [key('Home'), key('ArrowRight'), key('End'), key('ArrowLeft')];
    /* Enter on a cell that has the focus lights it */
    var focus = svg.querySelector('.cell[data-label="3"]');
    focus.focus();
    focus.dispatchEvent(new KeyboardEvent('keydown', {key: 'Enter', bubbles: true}));
    out.entered = Array.prototype.map.call(document.querySelectorAll('#player .cell.lit'),
      function (c) { return +c.getAttribute('data-label'); });
    out.focused = document.activeElement === focus;
    var zh = document.querySelector('[data-lang="zh"]');
    if (zh) {
      zh.click();
      out.zh = Array.prototype.map.call(document.querySelectorAll('.cap:not([hidden]) p'),
        function (p) { return [p.getAttribute('lang'), getComputedStyle(p).display]; });
    }
    /* Right glides from step 1 and comes to rest at step 2; play runs on */
    key('Home');
    setTimeout(function () {
      key('ArrowRight');
      out.gliding = svg.animationsPaused() ? 'paused' : 'running';
      setTimeout(function () {
        out.glided = [page.step(), svg.getCurrentTime(), page.rest(1), svg.animationsPaused()];
        document.getElementById('play').click();
        setTimeout(function () {
          out.played = [page.step(), svg.getCurrentTime(), svg.animationsPaused()];
          page.stop();
          document.getElementById('out').textContent = JSON.stringify(out);
        }, 4000);
      }, 2500);
    }, 20);
  }
  function step(s) {
    if (s === buttons.length) { finish(); return; }
    buttons[s].click();
    setTimeout(function () { out.steps.push(look()); step(s + 1); });
  }
  setTimeout(function () {
    out.playing = !svg.animationsPaused();
    page.go(0, false);
    setTimeout(begin, 20);
  }, 20);
  function begin() {
    out.first = look();
    var cell = svg.querySelector('.cell[data-label="%d"] rect:not(.ring)');
    cell.dispatchEvent(new MouseEvent('click', {bubbles: true}));
    step(0);
  }
});
</script>
</body>"""


def page_probes(tmp, selected, label):
    """index.html of --select selected, and three probe pages made of it:
    the page with the clicks on label injected, the page without its
    script, the page as it opens.  Their paths, or None."""
    d, r = webcheck.export(["--select", str(selected)], tmp)
    if not ok(r.returncode == 0, "index.html: headlab --export DIR --select %d" % selected, r.stderr):
        return None
    with open(os.path.join(d, "index.html"), encoding="utf-8") as f:
        page = f.read()
    paths = [os.path.join(d, name) for name in ("clicks.html", "bare.html", "opens.html")]
    with open(paths[0], "w", encoding="utf-8") as f:
        f.write(page.replace("</body>", INJECT % (PROBE, label), 1))
    # the page as a browser without scripts shows it: its script left
    # out, a probe in its place reads what is drawn
    bare = re.sub(r"<script>//<!\[CDATA\[.*?//\]\]></script>", "", page, flags=re.S)
    with open(paths[1], "w", encoding="utf-8") as f:
        f.write(bare.replace("</body>", """<pre id="out"></pre><script>
%s
window.addEventListener('load', function () {
  var player = document.getElementById('player'), out = {player: player.getBoundingClientRect().height,
                                                         stills: []};
  document.querySelectorAll('#stills figure svg').forEach(function (svg) {
    out.stills.push({geo: geo(svg), height: svg.getBoundingClientRect().height, cells: probe(svg).cells});
  });
  document.getElementById('out').textContent = JSON.stringify(out);
});
</script></body>""" % PROBE, 1))
    # the page as it opens for a reader who prefers reduced motion: the
    # media query answered so before the page's script asks it (one
    # browser run for every probe, --force-prefers-reduced-motion would
    # need a second)
    reduced = page.replace("<script>//<![CDATA[", """<script>
window.matchMedia = function (q) { return {matches: /prefers-reduced-motion: *reduce/.test(q), media: q}; };
</script><script>//<![CDATA[""", 1)
    with open(paths[2], "w", encoding="utf-8") as f:
        f.write(reduced.replace("</body>", """<pre id="out"></pre><script>
window.addEventListener('load', function () {
  setTimeout(function () {
    document.getElementById('out').textContent = JSON.stringify({paused:
      document.querySelector('#player svg').animationsPaused(), step: window.headlabPage.step()});
  }, 200);
});
</script></body>""", 1))
    return paths


def check_clicks(res, selected, label):
    """The page after the clicks on label (INJECT's result)."""
    if not ok(res is not None and "steps" in res, "index.html: chromium runs the clicks",
              json.dumps(res)[:2000] if res else "no result in the DOM"):
        return
    ok(res["hidden"] is False and res["playing"], "index.html: the script shows the player and it plays",
       "hidden %r, playing %r" % (res["hidden"], res["playing"]))
    grid = webcheck.print_grids([])
    first = [c["label"] for c in res["first"]["cells"] if c["lit"]]
    ok(first == [selected], "index.html: --select %d is lit when the page opens" % selected,
       "lit: %r" % first)
    trace = json.loads(webcheck.run(["--trace", str(label), "--json"]).stdout)["steps"]
    for s, st in enumerate(res["steps"]):
        problems = webcheck.compare_places(st["cells"], grid[s], res["geo"])
        lit = [c["label"] for c in st["cells"] if c["lit"]]
        if lit != [label]:
            problems.append("lit cells %r, want [%d]" % (lit, label))
        index = "[%s]" % ", ".join(str(i) for i in trace[s]["index"])
        if st["where"] != "%d %s" % (s + 1, index) and st["where"] != " \u00b7 %d %s" % (s + 1, index):
            problems.append("under the figure: %r, want step %d %s" % (st["where"], s + 1, index))
        if st["pressed"] != [s] or st["step"] != s:
            problems.append("step %r, buttons pressed %r" % (st["step"], st["pressed"]))
        if len(st["caps"]) != 1 or not st["caps"][0].startswith("%d:" % s):
            problems.append("captions shown %r" % st["caps"])
        if trace[s]["code"] not in "".join(st["heads"]):
            problems.append("header %r lacks %r" % (st["heads"], trace[s]["code"]))
        if st["still_lit"] != len(grid):
            problems.append("%d still figures light it, want %d" % (st["still_lit"], len(grid)))
        ok(not problems, "index.html: step %d, label %d lit at %s in its place" % (s + 1, label, index),
           "\n".join(problems))
    ok(res["keys"] == [0, 1, len(grid) - 1, len(grid) - 2],
       "index.html: Home, Right, End, Left go to steps 1, 2, %d, %d" % (len(grid), len(grid) - 1),
       repr(res["keys"]))
    ok(res.get("focused") and res.get("entered") == [3],
       "index.html: a cell takes the focus, and Enter on it lights it",
       "focused %r, lit %r" % (res.get("focused"), res.get("entered")))
    glided, played = res.get("glided"), res.get("played")
    ok(glided and glided[0] == 1 and abs(glided[1] - glided[2]) < 0.01 and glided[3],
       "index.html: Right glides to step 2 and rests there", repr(glided))
    ok(played and not played[2] and played[1] > glided[1] + 2 and played[0] != 1,
       "index.html: play runs the walk on", repr(played))
    ok(res.get("zh") and all(d == "none" for lang, d in res["zh"] if lang == "en")
       and any(lang == "zh" and d != "none" for lang, d in res["zh"]),
       "index.html: the language button shows the Chinese caption alone", repr(res.get("zh")))


def check_bare(res):
    """The page without its script: no player, the stills in place."""
    grid = webcheck.print_grids([])
    problems = []
    if not res or "stills" not in res:
        problems.append("no result: %r" % res)
    else:
        if res["player"] != 0:
            problems.append("the player is drawn (%r px high)" % res["player"])
        if len(res["stills"]) != len(grid):
            problems.append("%d still figures" % len(res["stills"]))
        for k, still in enumerate(res["stills"][:len(grid)]):
            if still["height"] < 100:
                problems.append("still %d is %r px high" % (k + 1, still["height"]))
            problems += ["still %d: %s" % (k + 1, p)
                         for p in webcheck.compare_places(still["cells"], grid[k], still["geo"])]
    ok(not problems, "index.html without its script: no player, every step still and as the lab "
       "draws it", "\n".join(problems))


def main():
    if CHROMIUM is None:
        print("1..0 # SKIP chromium is not installed")
        return 77
    tmp = tempfile.mkdtemp(prefix="headlab-browser-")
    try:
        lesson = list(range(6))
        walks, todo = walks_page(tmp, [
            ("walk.svg", ["--select", "4"], [([], lesson)], 4),
            ("walk.svg 3d", ["--view", "3d"], [(["--view", "3d"], lesson)], None),
            ("walk.svg wrong", ["--wrong"], [([], [0, 1, 2]), (["--wrong"], [0, 1, 1])], None)])
        probes = page_probes(tmp, 4, 7)
        # one browser run for all (its start is most of the time)
        if probes:
            walk, clicks, bare, opens = browse([walks] + probes, tmp=tmp)
            check_walks(todo, walk)
            check_clicks(clicks, 4, 7)
            check_bare(bare)
            ok(opens and opens.get("paused") is True and opens.get("step") == 0,
               "index.html for a reader who prefers reduced motion: still at step 1", repr(opens))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("1..%d" % count)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
