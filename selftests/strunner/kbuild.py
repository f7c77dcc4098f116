# SPDX-License-Identifier: GPL-2.0
"""The verdicts of a kernel's module build (lib.sh st_kbuild's logs).

    python3 -m strunner.kbuild KVER OUT RC [WHY]

two results, as lib.sh's st_records reads them: the W=1 build
(OUT/build.log) has no compiler warning in the module's files, and
sparse (OUT/sparse.log, C=2) no warning or error in them.  A warning in
the kernel's headers (/usr/src/linux-*) is listed, not held.  Sparse is
a skip where the kernel's Makefile turned it off, a failure where the
build failed (RC, or WHY) or st_kbuild could not run it.
"""

import os
import re
import sys

from strunner import read_lines, records

_GCC = re.compile(r"^[^ :]+:[0-9]+(:[0-9]+)?: (warning|error):")
_MODPOST = re.compile(r"^(WARNING|ERROR): modpost:")
_SPARSE_OFF = re.compile(r"specified, but .* is not available or not up to date")


def findings(lines):
    """(where, line) for each warning or error of a Kbuild log: where is
    "headers" for the kernel's headers, "module" for ours."""
    for line in lines:
        if _GCC.match(line):
            yield ("headers" if line.startswith("/usr/src/linux-") else "module"), line
        elif _MODPOST.match(line):
            yield "module", line


def verdict(kver, out, rc, why=""):
    """Yields the records of the two checks."""
    for tool in ("W=1", "sparse"):
        if tool == "W=1":
            lines = read_lines(os.path.join(out, "build.log"))
            desc = ("W=1 build against linux-headers-%s: no compiler warning in "
                    "the module's files" % kver)
        else:
            lines = read_lines(os.path.join(out, "sparse.log"))
            desc = ("sparse (C=2) against linux-headers-%s: no warning or error "
                    "in the module's files" % kver)
            off = next((x for x in lines if _SPARSE_OFF.search(x)), None)
            if off is not None:
                yield ("R", "skip", desc, "the kernel's Makefile turned sparse "
                       "0.6.4 off (%s)" % off.split(": ", 1)[-1])
                continue
            own = [x for x in lines if x.startswith("st_kbuild: ")]
            if why or rc != 0 or own:
                yield "R", "fail", "%s (%s)" % (desc, why or "not run: the build failed"), ""
                for x in own:
                    yield "L", "  " + x
                continue
        found = list(findings(lines))
        n = sum(w == "module" for w, _ in found)
        h = len(found) - n
        if h:
            desc += " (%d in the kernel's headers, listed)" % h
        if n == 0 and rc == 0:
            yield "R", "pass", desc, ""
        elif rc != 0:
            yield "R", "fail", "%s (make exited %d)" % (desc, rc), ""
        else:
            yield "R", "fail", "%s (%d found)" % (desc, n), ""
        for _, x in found[:40]:
            yield "L", "  " + x
        if rc != 0 and n == 0:
            for x in [x for x in lines if "error" in x or "Error" in x][:20]:
                yield "L", "  " + x


def main(argv):
    kver, out, rc = argv[0], argv[1], int(argv[2])
    why = argv[3] if len(argv) > 3 else ""
    records(verdict(kver, out, rc, why))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
