#!/usr/bin/env python3
"""--check on real attention code as its authors wrote it.

tests/data/real_code.json holds split and merge lines (and blocks) from
public repositories and bug reports, each with the verdict PyTorch's
semantics give it (right, wrong with the bug's name, or refused).  Every
line goes in as written; the share that gets the expected verdict must
stay at or above RATE.  Then every line is held against PyTorch itself, as
tests/real_code_torch_gen.py recorded it in tests/data/real_code_torch.json
(run with torch, the names read as headlab read them): where PyTorch raised,
headlab refuses; elsewhere every tensor headlab judges has PyTorch's shape,
strides (of axes longer than 1), storage offset, contiguity and values.
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from taplib import ok, diag, done  # noqa: E402

HEADLAB = os.environ.get("HEADLAB", "build/headlab")
HERE = os.path.dirname(os.path.abspath(__file__))
RATE = 1.0
EXIT = {"right": 0, "wrong": 3, "refused": 2}


def run(*args):
    p = subprocess.run([HEADLAB] + list(args), capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def torch_check(corpus):
    recorded = json.load(open(os.path.join(HERE, "data", "real_code_torch.json")))
    by_code = {(r["code"], tuple(r["args"])): r for r in recorded}
    agree = 0
    for e in corpus:
        r = by_code.get((e["code"], tuple(e.get("args", []))))
        if r is None:
            ok(False, "%s %s: recorded by PyTorch" % (e["repo"], e["path"]))
            continue
        B, T, D, H = r["sizes"]
        lets = [a for a in r["args"] if "=" in a]
        rc, out, err = run("--code", e["code"], "--check", "--json", "--shape",
                           "%d,%d,%d" % (B, T, D), "--heads", str(H),
                           *sum((["--let", a] for a in lets), []))
        j = json.loads(out)
        why = []
        if "error" in r:
            if j["verdict"] != "fails":
                why.append("PyTorch raises (%s), headlab says %s" % (r["error"][:80], j["verdict"]))
        elif j["verdict"] == "fails":
            why.append("headlab refuses: %s" % j["reason"])
        else:
            for have, want in zip(j["tensors"], r["tensors"]):
                for key in ("shape", "storage_offset", "contiguous", "labels"):
                    if have[key] != want[key]:
                        why.append("%s %s: %s, PyTorch %s" % (want["name"] or "result", key,
                                                              have[key], want[key]))
                for i, n in enumerate(want["shape"]):
                    if n > 1 and have["strides"][i] != want["strides"][i]:
                        why.append("%s strides %s, PyTorch %s" % (want["name"] or "result",
                                                                  have["strides"], want["strides"]))
                        break
            if len(j["tensors"]) != len(r["tensors"]):
                why.append("%d tensors, PyTorch recorded %d" % (len(j["tensors"]), len(r["tensors"])))
        agree += not why
        if why:
            diag("%s %s: %s" % (e["repo"], e["path"], "; ".join(why)))
    ok(agree == len(corpus), "all %d lines agree with PyTorch (shape, strides, offset, contiguity, "
       "values, refusals): %d do" % (len(corpus), agree))


def main():
    corpus = json.load(open(os.path.join(HERE, "data", "real_code.json")))
    repos = {e["repo"] for e in corpus}
    ok(len(corpus) >= 100 and len(repos) >= 25,
       "the corpus holds %d lines from %d repositories" % (len(corpus), len(repos)))
    good = 0
    for e in corpus:
        args = ["--code", e["code"], "--check"] + e.get("args", [])
        rc, out, err = run(*args)
        rcj, outj, _ = run(*(args + ["--json"]))
        j = json.loads(outj) if outj.strip() else {}
        right = rc == EXIT[e["expect"]] and rcj == rc
        if right and e["expect"] == "wrong" and e.get("kind"):
            right = j.get("kind") == e["kind"]
        good += right
        if not right:
            diag("%s %s: expected %s%s, got exit %d: %s %s" % (
                e["repo"], e["path"], e["expect"],
                " (%s)" % e["kind"] if e.get("kind") else "", rc,
                out.strip().replace("\n", " ")[:300], err.strip().replace("\n", " ")[:200]))
    share = good / len(corpus)
    torch_check(corpus)
    diag("%d of %d real lines go in as written and get the expected verdict (%.0f%%)"
         % (good, len(corpus), 100 * share))
    ok(share >= RATE, "at least %.0f%% of the real lines get the expected verdict" % (100 * RATE))
    done()


main()
