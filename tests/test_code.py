#!/usr/bin/env python3
"""--code against numpy and against recorded PyTorch results.

Random chains of calls (tests/code_chains.py) run through headlab --code
--print --json; every step is held against the same chain run on numpy
with PyTorch's rules: shape, strides (of axes longer than 1: numpy and
PyTorch may give a size-1 axis any stride), storage offset, every label,
and whether the step copied (np.shares_memory).  Chains that PyTorch
refuses must be refused: exit 2, three lines, the caret under the last
call.  tests/code_torch.json holds chains run by PyTorch itself
(tests/code_torch_gen.py): there strides of every axis, contiguity and
the refusals are PyTorch's own.  Then the names and arithmetic of sizes,
and the view failures the lesson is about.
"""
import json
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from numpy_or_skip import numpy as np, needs_numpy  # noqa: E402
import code_chains  # noqa: E402
from taplib import ok, diag, done  # noqa: E402

HEADLAB = os.environ.get("HEADLAB", "build/headlab")
PRELUDE = {"x": 0, "heads": 2, "context": 3}


def run(*args):
    p = subprocess.run([HEADLAB] + list(args), capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def code_of(start, calls):
    return start + "".join(calls)


def walk_json(sizes, code):
    B, T, D, H = sizes
    rc, out, err = run("--code", code, "--shape", "%d,%d,%d" % (B, T, D), "--heads", str(H),
                       "--print", "--json")
    return rc, (json.loads(out) if rc == 0 else None), err


def flat(labels):
    if isinstance(labels, list):
        return [v for x in labels for v in flat(x)]
    return [labels]


def storage_offset(a):
    owner = a
    while owner.base is not None:
        owner = owner.base
    return (a.__array_interface__["data"][0] - owner.__array_interface__["data"][0]) // a.itemsize


def compare_step(step, a, prev):
    """Differences between a headlab step and a numpy array, as text."""
    why = []
    if step["shape"] != list(a.shape):
        return ["shape %s, numpy %s" % (step["shape"], list(a.shape))]
    st = [s // a.itemsize for s in a.strides]
    for i, n in enumerate(a.shape):
        if n > 1 and step["strides"][i] != st[i]:
            why.append("strides %s, numpy %s" % (step["strides"], st))
            break
    if step["storage_offset"] != storage_offset(a):
        why.append("offset %d, numpy %d" % (step["storage_offset"], storage_offset(a)))
    if not step["elided"] and flat(step["labels"]) != a.ravel().tolist():
        why.append("labels %s, numpy %s" % (flat(step["labels"])[:24], a.ravel().tolist()[:24]))
    copied = not np.shares_memory(a, prev)
    if step["copied"] != copied:
        why.append("copied %s, numpy %s" % (step["copied"], copied))
    return why


def refusal_ok(code, calls, rc, err):
    lines = err.rstrip("\n").split("\n")
    last = len(code) - len(calls[-1])
    caret = lines[2].index("^") - 2 if len(lines) == 3 and "^" in lines[2] else -1
    return rc == 2 and len(lines) == 3 and lines[0].startswith("headlab: ") and caret >= last - 1


@needs_numpy
def numpy_chains():
    """random chains of calls against numpy"""
    rng = random.Random(16)
    n_steps = n_refused = 0
    for case in range(300):
        sizes, start, calls = code_chains.chain(rng)
        code = code_of(start, calls)
        try:
            expect = code_chains.evaluate(np, sizes, start, calls)
            refused = False
        except code_chains.Refused:
            refused = True
        rc, w, err = walk_json(sizes, code)
        desc = "numpy: --shape %s --heads %d --code '%s'" % (",".join(map(str, sizes[:3])),
                                                            sizes[3], code)
        if refused:
            n_refused += 1
            ok(refusal_ok(code, calls, rc, err), desc + " refused at the last call",
               ["exit %d" % rc, err])
            continue
        if not ok(rc == 0, desc + " runs", err):
            continue
        steps = w["steps"][1 + PRELUDE[start]:]
        start_a, expect = expect[0], expect[1:]
        why = []
        if len(steps) != len(calls):
            why.append("%d steps for %d calls" % (len(steps), len(calls)))
        prev = start_a
        for i, (s, a) in enumerate(zip(steps, expect)):
            why += ["step %d %s: %s" % (i + 1, calls[i], d) for d in compare_step(s, a, prev)]
            if s["code"].replace(" ", "") != (code_of(start, calls[:1]) if i == 0
                                              else calls[i]).replace(" ", ""):
                why.append("step %d code %r" % (i + 1, s["code"]))
            prev = a
            n_steps += 1
        ok(not why, desc, why)
    diag("%d steps held against numpy, %d refusals" % (n_steps, n_refused))


def torch_chains():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "code_torch.json")
    with open(path) as f:
        cases = json.load(f)
    for c in cases:
        sizes, start, calls = c["sizes"], c["start"], c["calls"]
        code = code_of(start, calls)
        rc, w, err = walk_json(sizes, code)
        desc = "PyTorch %s: --shape %s --heads %d --code '%s'" % (
            c["torch"], ",".join(map(str, sizes[:3])), sizes[3], code)
        if c.get("error"):
            ok(refusal_ok(code, calls, rc, err), desc + " refused (PyTorch: %s)" % c["error"],
               ["exit %d" % rc, err])
            continue
        if not ok(rc == 0, desc + " runs", err):
            continue
        steps = w["steps"][1 + PRELUDE[start]:]
        why = []
        for i, (s, e) in enumerate(zip(steps, c["steps"])):
            got = {k: s[k] for k in ("shape", "strides", "storage_offset", "contiguous", "copied")}
            want = {k: e[k] for k in got}
            if got != want:
                why.append("step %d %s: %s, PyTorch %s" % (i + 1, calls[i], got, want))
            if "labels" in e and not s["elided"] and flat(s["labels"]) != e["labels"]:
                why.append("step %d labels %s, PyTorch %s" % (i + 1, flat(s["labels"]), e["labels"]))
        ok(len(steps) == len(c["steps"]) and not why, desc, why)


def names_and_arithmetic():
    """Every spelling of a size means the same; arithmetic as Python's."""
    forms = [
        "x.view(B, T, H, d)", "x.view(batch, seq_len, n_head, head_dim)",
        "x.view(B, T, self.n_head, C // self.n_head)", "x.view(B, T, nh, hs)",
        "x.view(bsz, T, num_heads, d_k)", "x.view(B, T, self.num_heads, self.head_dim)",
        "x.view(B, -1, H, d)", "x.view(B, T, H, -1)", "x.view(B, T, n_heads, n_embd // n_heads)",
        "x.view(B, T, H, d_model // H)", "x.view(B, (T + 0) * 1, H, (D - 0) // H)",
        "x.view(B, T, config.n_head, config.n_embd // config.n_head)",
        "x.view(B, T, H, int(D / H))", "x.view((B, T, H, d))", "x.view([B, T, H, d])",
        "x.reshape(x.size(0), x.size(1), H, -1)",
        "B, T, C = x.size(); x.view(B, T, H, C // H)", "x.view(x.shape[0], x.shape[-2], H, d)",
        "s = (B, T, H, d); x.view(*s)", "x.view(B, T, H, d % 7 + 0)",
    ]
    for sizes in [(2, 5, 12, 3), (1, 3, 4, 2), (3, 4, 10, 5)]:
        B, T, D, H = sizes
        want = [B, T, H, D // H]
        for f in forms:
            if "% 7" in f and (D // H) >= 7:
                continue
            rc, w, err = walk_json(sizes, f)
            got = w["steps"][-1]["shape"] if rc == 0 else err.strip()
            ok(got == want, "sizes %s: %s gives %s" % (sizes, f, want), ["got %s" % got])
    # -1 and // as Python has them; Python's floor division of negatives
    rc, w, err = walk_json((2, 3, 12, 2), "x.view(-(-B), T * 2, 12 // -(-2))")
    ok(rc == 0 and w["steps"][-1]["shape"] == [2, 6, 6], "unary minus and // ", err)
    rc, w, err = walk_json((2, 3, 12, 2), "x.view(B, T, H, D // -H * -1)")
    ok(rc == 0 and w["steps"][-1]["shape"] == [2, 3, 2, 6], "// rounds toward -inf as in Python",
       [err, w and w["steps"][-1]["shape"]])


def view_failures():
    """The lesson's point: a transposed view cannot be viewed flat."""
    cases = [
        ("context.transpose(1, 2).view(B, T, D)", ".view(B, T, D)"),
        ("x.view(B, T, H, d).transpose(1, 2).view(B, T, D)", ".view(B, T, D)"),
        ("context.transpose(1, 2).view(B, T, -1)", ".view(B, T, -1)"),
        ("x.transpose(0, 1).view(-1)", ".view(-1)"),
        ("x.mT.view(D, -1)", ".view(D, -1)"),
    ]
    for code, call in cases:
        rc, out, err = run("--code", code, "--shape", "2,3,4", "--print")
        lines = err.rstrip("\n").split("\n")
        good = (rc == 2 and out == "" and len(lines) == 3 and "non-adjacent runs of memory" in lines[0]
                and ".reshape" in lines[0] and ".contiguous()" in lines[0]
                and lines[1] == "  " + code
                and lines[2] == "  " + " " * code.index(call[1:]) + "^" * (len(call) - 1))
        ok(good, "%s refuses at %s with the reason" % (code, call), err)
        fixed = code.replace(".view(", ".reshape(", 1) if code.count(".view(") == 1 else \
            code[::-1].replace("(weiv.", "(epahser.", 1)[::-1]
        rc, w, err = walk_json((2, 3, 4, 2), fixed)
        ok(rc == 0 and w["steps"][-1]["copied"], "%s copies" % fixed, err)
    rc, w, err = walk_json((2, 3, 4, 2), "context.transpose(1, 2).contiguous().view(B, T, D)")
    copied = [s["copied"] for s in w["steps"]] if w else err
    ok(copied == [False, False, False, True, False, True, False],
       "context = heads.contiguous() copies, .contiguous() of its transpose copies again", [copied])
    rc, w, err = walk_json((2, 3, 4, 2), "heads.transpose(1, 2).contiguous()")
    ok(rc == 0 and w["steps"][-1]["copied"] is False and w["steps"][-1]["contiguous"],
       "heads.transpose(1, 2) is x's own memory again: .contiguous() copies nothing", err)


def check_corpus():
    """--check on split and merge lines as public code writes them."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "code_check_corpus.txt")
    verdicts = {0: "right", 3: "wrong", 2: "fails"}
    with open(path) as f:
        lines = [l.rstrip("\n") for l in f if l.strip() and not l.startswith("#")]
    for line in lines:
        rc_want, kind, extra, code = line.split("\t")
        rc_want = int(rc_want)
        code = code.replace("; ", "\n")
        extra = [] if extra == "-" else extra.split()
        rc, out, err = run("--code", code, "--check", "--json", *extra)
        try:
            j = json.loads(out)
        except ValueError:
            j = {}
        ok(rc == rc_want and j.get("verdict") == verdicts[rc_want]
           and (j.get("kind") or "-") == kind
           and (rc_want != 3 or (j.get("first_differences") and (kind == "-" or j.get("fix")))),
           "--check --json %s'%s': exit %d, %s%s" % (" ".join(extra) + " " if extra else "",
                                                   code.replace("\n", "; "), rc_want,
                                                   verdicts[rc_want], "" if kind == "-" else " " + kind),
           ["exit %d" % rc, out, err])
        rc, out, err = run("--code", code, "--check", *extra)
        para = out.startswith(verdicts[rc_want] + (" (" + kind + ")" if rc_want == 3 and kind != "-" else ""))
        caret = rc_want != 2 or (err.startswith("headlab: ") and "^" in err.split("\n")[2])
        ok(rc == rc_want and para and caret, "--check (text) '%s': %s" % (code.replace("\n", "; "),
                                                                          out.split(":")[0]),
           ["exit %d" % rc, out, err])
    # the lesson's own example: with T = 2 = H the bug still shows
    rc, out, err = run("--code", "x.view(B, H, T, d)", "--check", "--shape", "1,2,4", "--heads", "2")
    ok(rc == 3 and "heads[0, 0, 1] holds [2, 3], should hold [4, 5]" in out.replace("\n", " ")
       and "warning: T = H = 2" in err,
       "--shape 1,2,4 --heads 2: heads[0, 0, 1] holds [2, 3], should hold [4, 5], and a warning",
       [out, err])
    rc, out, err = run("--code", "x.view(B, T, d, H).permute(0, 3, 1, 2)", "--check", "--heads", "1")
    ok(rc == 0 and "one head" in err, "one head: the d-h bug passes, with a warning", [out, err])
    rc, out, err = run("--check")
    ok(rc == 2 and "--check goes with --code" in err, "--check without --code: exit 2", err)
    rc, out, err = run("--code", "x", "--check", "--print")
    ok(rc == 2 and "do not go together" in err, "--check with --print: exit 2", err)
    rc, out, err = run("--code", "x", "--rearrange", "b t d -> b d t")
    ok(rc == 2 and "--code does not go with --rearrange" in err, "--code with --rearrange: exit 2", err)
    # a view that leaves the label out reads none of its slots: no offset claimed
    rc, out, err = run("--code", "x.narrow(1, 0, 2)", "--trace", "10", "--json")
    steps = json.loads(out)["steps"] if rc == 0 else []
    ok(len(steps) == 2 and steps[1]["index"] is None and steps[1]["offset"] is None
       and steps[0]["offset"] == 10, "--trace 10 on x.narrow(1, 0, 2): index and offset null", out)
    rc, out, err = run("--code", "x.narrow(1, 0, 2)", "--trace", "10")
    row = [l for l in out.splitlines() if l.startswith("2 ")]
    ok(rc == 0 and row and row[0].split()[-4:-2] == ["view", "-"],
       "and the text row says 'not in view' with no offset", out)


def readme_session():
    """The README's --code session is what the binary prints."""
    import re
    import shlex
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "README.md")
    with open(path) as f:
        text = f.read()
    blocks, cur = [], None
    for line in text.split("\n"):
        if line.startswith("```"):
            if cur is None:
                cur = []
            else:
                blocks.append("\n".join(cur) + "\n")
                cur = None
        elif cur is not None:
            cur.append(line)
    for block in blocks:
        chunks = re.split(r"^\$ \./build/headlab ", block, flags=re.M)[1:]
        for chunk in chunks:
            cmd, _, shown = chunk.partition("\n")
            if "--code" not in cmd:
                continue
            m = re.search(r"\[exit (\d+)\]\n$", shown)
            want_rc = int(m.group(1)) if m else 0
            if m:
                shown = shown[:m.start()]
            rc, out, err = run(*shlex.split(cmd))
            ok(rc == want_rc and out + err == shown, "README: headlab %s" % cmd,
               ["exit %d" % rc, out + err])


def hostile_text():
    """Control characters in the code never reach the terminal."""
    code = "x.view(B, # \x1b[2J\x07\x7f\n T, H, d).transpose(1, 2)  # \x1b]0;title\x07"
    rc, out, err = run("--code", code, "--print", "--color=never")
    ok(rc == 0 and not any(c in out for c in "\x1b\x07\x7f"), "--print: no control characters "
       "from the code's comments", [repr(out[:300])])
    rc, out, err = run("--code", "x.view(\x1b[2J", "--print")
    ok(rc == 2 and not any(c in err for c in "\x1b\x07\x7f"), "an error echoes no control characters",
       [repr(err)])
    rc, out, err = run("--code", "context.transpose(1, 2).view(B, T, D)", "--check", "--json")
    try:
        j = json.loads(out)
    except ValueError:
        j = {}
    ok(rc == 2 and j.get("verdict") == "fails" and "non-adjacent" in (j.get("reason") or "")
       and j.get("position") == 24 and err.count("\n") == 3,
       "--check --json on a failing merge: the verdict on stdout, the caret on stderr", [out, err])


@needs_numpy
def rearrange_and_modes():
    """einops calls against numpy's equivalent"""
    sizes = (2, 3, 12, 3)
    B, T, D, H = sizes
    d = D // H
    x = np.arange(B * T * D).reshape(B, T, D)
    heads = x.reshape(B, T, H, d).transpose(0, 2, 1, 3)
    context = np.ascontiguousarray(heads)
    cases = [
        ("rearrange(x, 'b t (h d) -> b h t d', h=H)", heads, False),
        ("einops.rearrange(x, 'b t (h d) -> b h t d', h=self.n_head)", heads, False),
        ("rearrange(x, 'b t (d h) -> b h t d', h=H)",
         x.reshape(B, T, d, H).transpose(0, 3, 1, 2), False),
        ("rearrange(context, 'b h t d -> b t (h d)')", x, True),
        ("rearrange(heads, 'b h t d -> b t (h d)')", x, False),
        ("rearrange(context.transpose(1, 2), 'b t h d -> (b t) (h d)')", x.reshape(B * T, D), True),
        ("rearrange(x, 'b t c -> t b c')", x.transpose(1, 0, 2), False),
    ]
    for code, want, copied in cases:
        rc, w, err = walk_json(sizes, code)
        last = w["steps"][-1] if w else {}
        ok(rc == 0 and last["shape"] == list(want.shape) and flat(last["labels"]) == want.ravel().tolist()
           and last["copied"] == copied and last["code"].startswith(code.split("(")[0]),
           "%s: numpy's cells, %s" % (code, "a copy" if copied else "a view"), [err, last])


def index_and_export():
    """--index reads the code's last step; --export writes its walk."""
    rc, out, err = run("--code", "x.view(B, T, H, d).transpose(1, 2)", "--index", "[0, 0, 1]")
    ok(rc == 0 and out.startswith("tensor([4, 5])"), "--index reads the last step: [0, 0, 1] is [4, 5]",
       [out, err])
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        rc, out, err = run("--code", "context.transpose(1, 2).reshape(B, T, D)", "--export", tmp)
        files = sorted(f for f in os.listdir(tmp) if f != "headlab-manifest.txt")
        ok(rc == 0 and len(files) == 3 + 4 * 6 and "step-6-reshape.svg" in files and "walk.svg" in files,
           "--export writes every step of the code's walk", [out, err, files])


def main():
    rearrange_and_modes()
    index_and_export()
    hostile_text()
    readme_session()
    check_corpus()
    numpy_chains()
    torch_chains()
    names_and_arithmetic()
    view_failures()
    return done()


if __name__ == "__main__":
    sys.exit(main())
