"""Import numpy for a test, or skip the test.

`python3` on PATH may be an interpreter without numpy (a pyenv build, say)
while Debian's /usr/bin/python3 has python3-numpy: then the test is run
again under that one.  Where no interpreter has numpy the test reports a
TAP skip and exits 0.  Usage, before any other import of numpy:

    from numpy_or_skip import np
"""
import os
import sys

try:
    import numpy as np  # noqa: F401  (re-exported)
except ImportError:
    _alt = "/usr/bin/python3"
    if (os.path.exists(_alt)
            and os.path.realpath(_alt) != os.path.realpath(sys.executable)
            and not os.environ.get("HEADLAB_NUMPY_REEXEC")):
        os.environ["HEADLAB_NUMPY_REEXEC"] = "1"
        os.execv(_alt, [_alt] + sys.argv)
    print("1..0 # SKIP numpy not installed")
    sys.exit(0)
