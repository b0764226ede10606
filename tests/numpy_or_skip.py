"""Import numpy for a test, or skip what needs it.

`python3` on PATH may be an interpreter without numpy (a pyenv build, say)
while Debian's /usr/bin/python3 has python3-numpy: then the test is run
again under that one.  Where no interpreter has numpy:

    from numpy_or_skip import np         # every check needs numpy: the
                                         # test reports one TAP skip, exits 0
    from numpy_or_skip import numpy as np, needs_numpy
                                         # np is None; a function decorated
                                         # @needs_numpy is one SKIP line

Import it before any other import of numpy.
"""
import functools
import os
import sys

try:
    import numpy  # noqa: F401  (re-exported)
except ImportError:
    _alt = "/usr/bin/python3"
    if (os.path.exists(_alt)
            and os.path.realpath(_alt) != os.path.realpath(sys.executable)
            and not os.environ.get("HEADLAB_NUMPY_REEXEC")):
        os.environ["HEADLAB_NUMPY_REEXEC"] = "1"
        os.execv(_alt, [_alt] + sys.argv)
    numpy = None

SKIP_REASON = "numpy not installed"


def __getattr__(name):
    """`np`: numpy itself, or the whole test skipped (PEP 562)."""
    if name == "np":
        if numpy is None:
            print("1..0 # SKIP " + SKIP_REASON)
            sys.exit(0)
        return numpy
    raise AttributeError(name)


def needs_numpy(fn):
    """Run fn, or without numpy report it as one skipped check named by the
    first line of its docstring."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if numpy is None:
            from taplib import skip
            skip((fn.__doc__ or fn.__name__).strip().splitlines()[0], SKIP_REASON)
            return None
        return fn(*args, **kwargs)
    return wrapper
