#!/usr/bin/env python3
"""walk.svg and index.html as files (TAP): parsers, the lab's grids and
rsvg-convert, no browser (test_web_browser.py plays them in chromium).

  - xmllint: walk.svg is well-formed XML; index.html too (its script and
    style sit in CDATA sections) and libxml2's HTML parser finds nothing
    wrong but the HTML5 and SVG tags its HTML 4 vocabulary lacks;
  - self-contained: no URL but the namespaces, no external script, style,
    image or font; walk.svg holds no script at all and plays by SMIL;
  - text is text: every label, the steps' code and the head letters are
    <text>; every cell keeps its head letter and a border dash per head;
  - each still figure of index.html (the page without scripts) puts every
    label of its step at the line and column --print draws it in, and
    rsvg-convert paints each cell's box there in its fill; walk.svg as
    rsvg-convert draws it (no SMIL) is the first step at rest;
  - the options: --select (out of range and without --export refused),
    --play's seconds per step, --theme's colours, --lang zh's words,
    --view 3d and --wrong beside the right walk.

Environment (set by meson): HEADLAB, HEADLAB_DATADIR.  Standard library;
xmllint and rsvg-convert when installed (skipped otherwise).
"""
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import webcheck  # noqa: E402
from taplib import done, ok, skip  # noqa: E402

SVG = "{http://www.w3.org/2000/svg}"
XMLLINT = shutil.which("xmllint")
RSVG = shutil.which("rsvg-convert")


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def png_pixels(data):
    """(width, height, rows of RGBA bytes) of an 8-bit RGBA PNG."""
    w, h, depth, ctype = struct.unpack(">IIBB", data[16:26])
    assert depth == 8 and ctype in (2, 6), (depth, ctype)
    bpp = 4 if ctype == 6 else 3
    idat, pos = b"", 8
    while pos + 8 <= len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"IDAT":
            idat += data[pos + 8:pos + 8 + n]
        pos += 12 + n
    raw, rows, prev = zlib.decompress(idat), [], bytearray(w * bpp)
    stride = w * bpp
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def geo_of(svg):
    g = {}
    for k in ("cw", "lh", "grid-x", "grid-y", "x0", "y0", "slots", "step-seconds"):
        g[k.replace("-", "_")] = float(svg.get("data-" + k))
    return g


def cells_of(svg, lane=0, visible_only=True):
    """The cells a still (or walk.svg at time 0) draws: label, box in px,
    fill, text."""
    g = geo_of(svg)
    out = []
    for grp in svg.iter(SVG + "g"):
        if "cell" not in (grp.get("class") or "").split():
            continue
        if int(grp.get("data-lane")) != lane or (visible_only and grp.get("visibility") == "hidden"):
            continue
        tx, ty = (float(v) for v in re.match(r"translate\(([-\d.]+) ([-\d.]+)\)",
                                             grp.get("transform")).groups())
        box = [r for r in grp.findall(SVG + "rect") if r.get("class") != "ring"][0]
        x = g["grid_x"] + tx + float(box.get("x"))
        y = g["grid_y"] + ty + float(box.get("y"))
        out.append({"label": int(grp.get("data-label")), "x": x, "y": y,
                    "w": float(box.get("width")), "h": float(box.get("height")),
                    "fill": box.get("fill"), "dash": box.get("stroke-dasharray"),
                    "text": "".join(grp.find(SVG + "text").itertext())})
    return out


def check_xml(path, what, html=False):
    if XMLLINT is None:
        skip("%s: xmllint" % what, "xmllint (libxml2-utils) is not installed")
        return
    r = subprocess.run([XMLLINT, "--noout", path], capture_output=True, text=True)
    ok(r.returncode == 0 and r.stderr == "", "%s: xmllint reads it as well-formed XML" % what, r.stderr)
    if html:
        r = subprocess.run([XMLLINT, "--html", "--noout", path], capture_output=True, text=True)
        errors = [l for l in r.stderr.splitlines() if " error : " in l
                  and not re.search(r"error : Tag \w+ invalid$", l)]
        ok(not errors, "%s: xmllint --html finds nothing but tags HTML 4 lacks" % what,
           "\n".join(errors[:10]))


def check_pixels(svg_text, cells, what, tmp):
    """rsvg-convert paints each cell's box in its fill at its place."""
    if RSVG is None:
        skip("%s: rsvg-convert" % what, "rsvg-convert (librsvg2-bin) is not installed")
        return
    src = os.path.join(tmp, "still.svg")
    with open(src, "w", encoding="utf-8") as f:
        f.write(svg_text)
    r = subprocess.run([RSVG, src], capture_output=True)
    if not ok(r.returncode == 0, "%s: rsvg-convert renders it" % what, r.stderr.decode()[:500]):
        return
    w, h, bpp, rows = png_pixels(r.stdout)
    bad = []
    for c in cells:
        px, py = int(c["x"] + 6), int(c["y"] + c["h"] / 2)
        want = tuple(int(c["fill"][i:i + 2], 16) for i in (1, 3, 5))
        got = tuple(rows[py][px * bpp:px * bpp + 3]) if 0 <= py < h and 0 <= px < w else None
        if got is None or max(abs(a - b) for a, b in zip(got, want)) > 10:
            bad.append("%d at (%d, %d): %r, its fill %r" % (c["label"], px, py, got, want))
    ok(cells and not bad, "%s: rsvg-convert paints every cell's box in its place" % what,
       "\n".join(bad[:8]))


def stills(page):
    """The still figures of index.html, as SVG documents."""
    return [s for s in re.findall(r"<figure class='still'[^>]*>\s*(<svg .*?</svg>)", page, re.S)]


def test_lesson(tmp):
    d, r = webcheck.export(["--select", "4"], tmp)
    ok(r.returncode == 0 and r.stdout.startswith("wrote 27 files"), "--export --select 4: walk.svg and "
       "index.html with the steps' files", r.stdout + r.stderr)
    walk, page = os.path.join(d, "walk.svg"), os.path.join(d, "index.html")
    check_xml(walk, "walk.svg")
    check_xml(page, "index.html", html=True)
    for path in (walk, page):
        text = read(path)
        urls = [u for u in re.findall(r"(?:https?|ftp|file)://[^'\"\s<)]+", text)
                if u not in ("http://www.w3.org/2000/svg", "http://www.w3.org/1999/xhtml")]
        ext = re.findall(r"<script[^>]*\bsrc=|<link\b|<img\b|@import|url\(|\bhref=", text)
        ok(not urls and not ext, "%s: self-contained (no URL, no external file)" % os.path.basename(path),
           repr(urls[:5] + ext[:5]))
    svg_text = read(walk)
    root = ET.fromstring(svg_text)
    ok("<script" not in svg_text and root.find(".//" + SVG + "animateTransform") is not None
       and root.find(".//" + SVG + "animate") is not None and 'repeatCount=\'indefinite\'' in svg_text,
       "walk.svg: no script; SMIL animations that loop")
    texts = ["".join(t.itertext()) for t in root.iter(SVG + "text")]
    grids = webcheck.print_grids([])
    labels = sorted(grids[0])
    trace = webcheck.run(["--print", "--json"])
    import json
    codes = [s["code"] for s in json.loads(trace.stdout)["steps"]]
    missing = [l for l in labels if not any(re.fullmatch(r"%d[a-z]+" % l, t) for t in texts)]
    ok(not missing and all(c in texts for c in codes) and any(t == "a" for t in texts),
       "walk.svg: every label with its head letter, every step's code, the legend's letters as text",
       "missing %r" % missing)
    dashes = {c["dash"] for c in cells_of(root) if c["label"] != 4}
    ok(len(dashes) == 2, "walk.svg: the two heads' borders differ in dash, not only in colour",
       repr(dashes))
    geo = geo_of(root)
    ok(geo["slots"] == 6 and geo["step_seconds"] == 3 and "dur='18s'" in svg_text,
       "walk.svg: 6 steps, 3 s each by default, an 18 s loop")
    # rsvg-convert and any renderer without SMIL: step 1 at rest
    first = cells_of(root)
    problems = webcheck.compare_places(first, grids[0], geo)
    ok(not problems, "walk.svg without animation: step 1 as the lab draws it", "\n".join(problems))
    check_pixels(svg_text, first, "walk.svg at rest", tmp)
    # the page without scripts
    html = read(page)
    ok(re.search(r"<section id='player' hidden='hidden'>", html) and ".js #stills{display:none}" in html
       and "prefers-reduced-motion" in html,
       "index.html: the player waits hidden for the script; without it the stills show")
    figs = stills(html)
    ok(len(figs) == 6, "index.html: a still figure per step", "%d" % len(figs))
    for k, fig in enumerate(figs):
        svg = ET.fromstring(fig)
        cells = cells_of(svg)
        problems = webcheck.compare_places(cells, grids[k], geo_of(svg))
        sel = [c["label"] for c in cells if c["fill"] != cells_of(svg)[0]["fill"] and c["label"] == 4]
        if len(sel) != 1:
            problems.append("label 4 not drawn as selected")
        if codes[k] not in ["".join(t.itertext()) for t in svg.iter(SVG + "text")]:
            problems.append("no text %r" % codes[k])
        ok(not problems, "index.html: still step %d as the lab draws it, its code, 4 selected" % (k + 1),
           "\n".join(problems))
        check_pixels("<?xml version='1.0' encoding='UTF-8'?>\n" + fig, cells, "still step %d" % (k + 1),
                     tmp)
    caps = re.findall(r"<p class='l' lang='(en|zh)'>", html)
    ok(caps.count("en") == 12 and caps.count("zh") == 12,
       "index.html: every step's caption in English and in Chinese (player and stills)",
       "%d en, %d zh" % (caps.count("en"), caps.count("zh")))


def test_options(tmp):
    r = webcheck.run(["--export", os.path.join(tmp, "x"), "--select", "12"])
    ok(r.returncode == 2 and r.stdout == "" and r.stderr.count("\n") == 1
       and "out of range" in r.stderr and not os.path.exists(os.path.join(tmp, "x")),
       "--select 12 on x[1,3,4]: exit 2, one line, nothing written", r.stderr)
    r = webcheck.run(["--print", "--select", "4"])
    ok(r.returncode == 2 and "--select goes with --export" in r.stderr, "--select without --export: exit 2",
       r.stderr)
    r = webcheck.run(["--export", os.path.join(tmp, "y"), "--select", "-1"])
    ok(r.returncode == 2 and r.stderr.count("\n") == 1, "--select -1: exit 2", r.stderr)
    d, r = webcheck.export(["--play=1.5"], tmp)
    svg = read(os.path.join(d, "walk.svg"))
    ok("data-step-seconds='1.5'" in svg and "dur='9s'" in svg, "--play=1.5: 1.5 s a step, a 9 s loop")
    d, r = webcheck.export(["--theme", "projector"], tmp)
    svg = read(os.path.join(d, "walk.svg"))
    ok("<rect width='100%' height='100%' fill='#000000'/>" in svg and "fill='#0000af'" in svg and "fill='#00d7d7'" in svg,
       "--theme projector: a black page, the projector's head colours")
    d, r = webcheck.export(["--theme", "mono"], tmp)
    root = ET.fromstring(read(os.path.join(d, "walk.svg")))
    cells = cells_of(root)
    ok({c["fill"] for c in cells} == {"#ffffff"} and len({c["dash"] for c in cells}) == 2,
       "--theme mono: no colour, the heads told apart by dash and letter")
    d, r = webcheck.export(["--lang", "zh"], tmp)
    svg, html = read(os.path.join(d, "walk.svg")), read(os.path.join(d, "index.html"))
    ok("第 1 步，共 6 步" in svg and "头 0" in svg and "<html xmlns='http://www.w3.org/1999/xhtml' lang='zh'>" in html
       and "class='lang-zh'" in html, "--lang zh: the picture's words in Chinese, the page opens in Chinese")
    h1 = re.search(r"<h1>(.*)</h1>", html).group(1)
    title = re.search(r"<title>([^<]*)</title>", svg).group(1)
    ok("<span class='l' lang='en'>x = arange(12).reshape(1, 3, 4), 2 heads of width d = 2: split_heads, then "
       "merge_heads</span>" in h1 and "<span class='l' lang='zh'>x = arange(12).reshape(1, 3, 4)，2 个头，每头 d = "
       "2：先 split_heads 再 merge_heads，和课程一样</span>" in h1
       and title.endswith("和课程一样") and "整个过程共 6 步" in svg,
       "--lang zh: the page's heading in both languages, the picture's title and description in Chinese", h1)
    d, r = webcheck.export(["--lang", "zh", "--wrong=d-h"], tmp)
    html = read(os.path.join(d, "index.html"))
    ok("每头 d = 2：错误的拆分：按 (d h) 分组而不是 (h d)</span>" in html,
       "--lang zh --wrong d-h: the bug named in Chinese in the heading")
    d, r = webcheck.export(["--view", "3d"], tmp)
    root = ET.fromstring(read(os.path.join(d, "walk.svg")))
    ok(r.returncode == 0 and geo_of(root)["cw"] == 15 and len(cells_of(root)) == 12,
       "--view 3d: the walk as blocks, 12 cells", r.stderr)
    d, r = webcheck.export(["--wrong"], tmp)
    root = ET.fromstring(read(os.path.join(d, "walk.svg")))
    right, bug = cells_of(root, 0), cells_of(root, 1)
    ok(r.returncode == 0 and geo_of(root)["slots"] == 3 and len(right) == 12 and len(bug) == 12
       and min(c["x"] for c in bug) > max(c["x"] + c["w"] for c in right)
       and "wrong: no-transpose" in read(os.path.join(d, "walk.svg")),
       "--wrong: the right split beside the bug's, 3 steps", r.stderr)


def main():
    tmp = tempfile.mkdtemp(prefix="headlab-webfiles-")
    try:
        test_lesson(tmp)
        test_options(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return done()


if __name__ == "__main__":
    sys.exit(main())
