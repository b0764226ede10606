#!/usr/bin/env python3
"""Two headlab binaries refuse alike: each of some 200 refusing command
lines (every parser the lab shares: shapes, head counts, indices, patterns,
presets, --code, the attention pass, --export) run by both, under --lang en
and --lang zh, must give the same stdout, stderr and exit status, byte for
byte.  A check to run by hand when refusals move in the code:

    python3 tests/compare_refusals.py OLD/headlab build/headlab

(set HEADLAB_DATADIR=assets when a binary is not beside its assets).
"""
import os
import subprocess
import sys
import tempfile

old, new = sys.argv[1], sys.argv[2]
notempty = tempfile.mkdtemp(prefix="headlab-refusals-")
open(os.path.join(notempty, "a.txt"), "w").close()
C = [
 ["--heads", "0"], ["--heads", "-1"], ["--heads", ""], ["--heads", "99999999999999999999"], ["--heads", "abc"],
 ["--heads", "3", "--print"], ["--shape", "6,5,12", "--heads", "5", "--print"], ["--shape", "1,3"], ["--shape", "1"], ["--shape", "1,2,3,4"],
 ["--shape", "0,3,4"], ["--shape", ",3,4"], ["--shape", "99999999999999999999,3,4"], ["--shape", "1,3,x"],
 ["--shape", "4611686018427387904,4,4"], ["--shape", "1,2,3,4,5,6,7,8,9,10", "--rearrange", "a b -> b a"],
 ["--shape", "0,3", "--rearrange", "a b -> b a"], ["--shape", "4611686018427387904,4", "--rearrange", "a b -> b a"],
 ["--shape", "1,x", "--rearrange", "a b -> b a"],
]
for ix in ["[[0]]", "[0,0,0,0]", "[5]", "[0:1:0]", "[0:1:-1]", "[...,...]", "[a]", "[True]", "[1.5]", "[0]]", "[0",
           "[]", "[0][1]", "y[0]", "[0, 99]", "[0:1:2:3]", "[-]", "[99999999999999999999]", "[None,None,None,None,None,None,None,None,None]", "[0 1]", "[....]", "[1e3]"]:
    C.append(["--index", ix])
for pat in ["b t d", "b t d -> b t d -> b", "(b t d -> b t d", "b t d) -> b t d", "b t (h d) -> b h t d", "b t d -> b t",
            "b t 2 -> b t", "b ... ... d -> b d", "-> b", "b t d -> ", "b (t (d)) -> b", "b t d -> b t d b", "b t - d", "b t d -> b t (d e)",
            "b t d -> b t x", "b t (h d) -> b (h t) d", "b t $ -> b"]:
    C.append(["--rearrange", pat, "--print"])
C += [["--rearrange", "b t (h d) -> b h t d", "--axis", "h=0", "--print"], ["--rearrange", "b t (h d) -> b h t d", "--axis", "h=", "--print"],
      ["--rearrange", "b t (h d) -> b h t d", "--axis", "h", "--print"], ["--rearrange", "b t (h d) -> b h t d", "--axis", "h=3", "--print"],
      ["--rearrange", "b t (h d) -> b h t d", "--axis", "z=2", "--print"], ["--rearrange", "b t (h d) -> b h t d", "--axis", "h=2", "--axis", "h=2", "--print"]]
C += [["--preset", "gqa", "--shape", "1,2,3", "--print"], ["--preset", "gqa", "--heads", "3", "--shape", "1,2,3,4", "--print"],
      ["--preset", "gqa", "--heads", "3", "--shape", "1,1,3,4", "--print"],
      ["--preset", "qkv", "--shape", "1,3,4", "--print"], ["--preset", "qkv", "--shape", "1,3,6", "--heads", "4", "--print"],
      ["--preset", "qkv", "--shape", "1,3,6", "--heads", "1", "--print"], ["--preset", "vit", "--shape", "1,3,5,5", "--print"],
      ["--preset", "lesson", "--shape", "1,3,4", "--heads", "3", "--print"], ["--preset", "lesson", "--shape", "1,3", "--print"],
      ["--preset", "batch-heads", "--shape", "1,3", "--print"], ["--preset", "batch-heads", "--shape", "1,3,4", "--heads", "1", "--print"]]
for code in ["x.view(B, T", "x.view(B, T, H, d).transpose(1, 5)", "x.view(B).transpose(1, 5)", "x.foo()", "torch.bar(x)", "y", "x.view(B, T, 5)",
             "x.view(-1,-1)", "x.view(0)", "x[5]", "x.permute(0,1)", "x.chunk(2, dim=2)[3]", "x.chunk(1, dim=2)[3]", "(x", "x.view(1 / 0)",
             "x.unflatten(2, (3, 3))", "x.expand(2, 3, 4)", "x.split(3, dim=2)", "x.reshape(B, T, H, d, 1, 1, 1, 1, 1)", "", "x.mT.mT",
             "x.view(B, T, H, d).flatten(3, 1)", "x.movedim((0,1), 2)", "x ** 2", "x.view(B, T, 2.5)", "x.view('a')", "rearrange(x)",
             "x.view(B, T, H, d).transpose(1, 2", "x.view(B, T, H, d).transpose(1, 2)\n(", "x.view(B, T, H, d))", "x.transpose(1, 2, 3, 4)",
             "x.transpose(dim0=1, dim0=2)", "x.transpose(foo=1)", "x.view(B, T, H, d).contiguous(1)", "x.reshape()", "x[0, 0, 0, 0]",
             "x.view(5, 5)", "x.unbind(0)[3]", "x.unbind(1)", "x.split((1, 1), dim=1)", "x.narrow(2, 3, 5)", "x.view(B*T*D*99999999999*99999999999)",
             "x.view(B, T, H, d).transpose(1, 2).view(B, T, D)", "x.x", "x.", "x.T.T", "x.flip(0)", "'abc", "x.view(B, T, H, d)[", "(1, 2)[5]", "(1,)[5]",
             "--x", "x.view(+-+-+-1)", "a, b = x.shape", "x.view(B//3, T, D)", "x.view(B/3)", "rearrange(x, 'b t d -> b t')",
             "rearrange(x, '(b t d -> b t d')", "x.view(B,T,H,d)[[0]]", "x.view(B, T, H, d).permute(0, 0, 1, 2)", "x.view(B,T,H,d).movedim(0, 0).squeeze((0,1))"]:
    C.append(["--code", code, "--print"])
    C.append(["--code", code, "--check"])
C += [["--attention", "--shape", "1,2,4096"], ["--attention", "--heads", "3"], ["--export", "/etc/passwd"], ["--export", notempty],
      ["--explain", "q[0,0,0]", "--shape", "1,2,4096"]]
diff, refused = 0, set()
for args in C:
    for lang in ("en", "zh"):
        a = subprocess.run([old, "--lang", lang] + args, capture_output=True, timeout=60)
        b = subprocess.run([new, "--lang", lang] + args, capture_output=True, timeout=60)
        if b.returncode:
            refused.add(b.stderr.split(b"\n")[0])
        if (a.returncode, a.stderr, a.stdout) != (b.returncode, b.stderr, b.stdout):
            diff += 1
            print("DIFF", lang, args, a.returncode, b.returncode, a.stderr[:300], b.stderr[:300], sep="\n  ")
os.remove(os.path.join(notempty, "a.txt"))
os.rmdir(notempty)
print(f"{len(C)} command lines x 2 languages, {diff} differ; {len(refused)} different refusals")
sys.exit(1 if diff else 0)
