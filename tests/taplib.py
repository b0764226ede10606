"""TAP output for the Python tests: numbered lines, diagnostics, a plan."""
import sys

_count = 0
_failed = 0


def diag(text):
    """'#' lines: shown by the TAP reader, never taken for results."""
    for line in str(text).splitlines() or [""]:
        print("# " + line)


def ok(cond, desc, why=None):
    """One TAP line; why (a string or a list) is shown when cond is false."""
    global _count, _failed
    _count += 1
    # one line whatever the case's arguments hold (a newline is one of them)
    desc = desc.replace("\n", "\\n").replace("\r", "\\r")
    print("%s %d - %s" % ("ok" if cond else "not ok", _count, desc))
    if not cond:
        _failed += 1
        if why:
            for w in (why if isinstance(why, list) else [why]):
                diag(w)
    sys.stdout.flush()
    return cond


def skip(desc, reason):
    global _count
    _count += 1
    print("ok %d - %s # SKIP %s" % (_count, desc, reason))


def done():
    """Print the plan; the exit status a runner can use (1 if any failed)."""
    print("1..%d" % _count)
    if _failed:
        print("# %d of %d failed" % (_failed, _count))
    return 1 if _failed else 0
