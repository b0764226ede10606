#!/usr/bin/env python3
"""--check on real attention code as its authors wrote it.

tests/data/real_code.json holds split and merge lines (and blocks) from
public repositories and bug reports, each with the verdict PyTorch's
semantics give it (right, wrong with the bug's name, or refused).  Every
line goes in as written; the share that gets the expected verdict must
stay at or above RATE.  Every line headlab accepts as right is held against
numpy: the final tensor's labels are the ones the layout it names holds
when x = arange(B*T*D).reshape(B, T, D) is split (or merged) as PyTorch does.
"""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from taplib import ok, diag, done  # noqa: E402

HEADLAB = os.environ.get("HEADLAB", "build/headlab")
HERE = os.path.dirname(os.path.abspath(__file__))
RATE = 0.99
EXIT = {"right": 0, "wrong": 3, "refused": 2}


def run(*args):
    p = subprocess.run([HEADLAB] + list(args), capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


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
    diag("%d of %d real lines go in as written and get the expected verdict (%.0f%%)"
         % (good, len(corpus), 100 * share))
    ok(share >= RATE, "at least %.0f%% of the real lines get the expected verdict" % (100 * RATE))
    done()


main()
