# SPDX-License-Identifier: GPL-2.0
"""The module's kerneldoc (Documentation/doc-guide/kernel-doc.rst), held
to the kernel's own checker (strunner.lint statics).

    python3 -m strunner.kdoc SRC CHECKPATCH_DIR CACHE

prints, as records (strunner.records), a result for each C and H file
of SRC's module/: scripts/kernel-doc -none -Wall -v on it clean, with
the kernel-doc of Debian's linux-source-6.12 that strunner.lint fetches
with checkpatch.pl into CHECKPATCH_DIR (one version for every run); and
one result for every non-static function defined in module/**/*.c
having a /** comment right above its definition.  A function other
files call is documented where it is defined, as the kernel does; -v
makes kernel-doc ask every non-void one for "Return:".
"""

import os
import re
import subprocess
import sys

from strunner import Error, cli, lint, read_lines, records

_ATTRIBUTES = ("__attribute__", "__printf", "__aligned", "__section")
_CALL = re.compile(r"[A-Za-z_][A-Za-z0-9_]*[ \t]*\(")


def _files(src, suffixes):
    out = []
    for d, dirs, names in os.walk(os.path.join(src, "module")):
        dirs.sort()
        out += [os.path.relpath(os.path.join(d, n), src) for n in names if n.endswith(suffixes)]
    return sorted(out)


def _definition(lines, n):
    """(first line, name, documented) of the function whose body opens
    at line N of LINES (1-based, LINES[0] unused), or None.  Kernel style
    puts a definition's "{" alone on a line at column 0: from there,
    back over the indented parameter lines to the line at column 0 that
    names the function, and over the return type's lines above it."""
    i = n - 1
    while i > 0 and re.match(r"[ \t]", lines[i]):
        i -= 1
    start = i
    while start > 1 and re.match(r"[A-Za-z_]", lines[start - 1]) and \
            not re.search(r"[;{}\\][ \t]*$", lines[start - 1]):
        start -= 1
    decl = "".join(" " + x for x in lines[start:n])
    if "(" not in decl or re.search(r"=[ \t]*$", decl) or \
            re.match(r" (static|typedef|extern)[ \t]", decl):
        return None
    name = next((m.group(0).rstrip(" \t(") for m in _CALL.finditer(decl)
                 if m.group(0).rstrip(" \t(") not in _ATTRIBUTES), "")
    if not name:
        return None
    doc, i = False, start - 1
    if i > 0 and re.search(r"\*/[ \t]*$", lines[i]):
        while i > 1 and not re.match(r"[ \t]*/\*", lines[i]):
            i -= 1
        doc = bool(re.match(r"/\*\*[ \t]*$", lines[i]))
    return start, name, doc


def functions(src):
    """(FILE:LINE, name, documented) for each non-static function
    defined in SRC's module/**/*.c."""
    out = []
    for f in _files(src, (".c",)):
        lines = [""] + read_lines(os.path.join(src, f))
        for n, line in enumerate(lines):
            if n and re.match(r"\{[ \t]*$", line):
                found = _definition(lines, n)
                if found:
                    out.append(("%s:%d" % (f, found[0]), found[1], found[2]))
    return out


def check(src, script):
    """The records of every check of SRC's module/, kernel-doc being
    SCRIPT (None: it could not be fetched)."""
    desc = "kdoc: each non-static function of module/ has a /** comment at its definition"
    if not script:
        yield "R", "fail", "kdoc: kernel-doc found (linux-source-6.12 could not be fetched)"
    else:
        yield "L", "kdoc: " + script
        run = [script] if os.access(script, os.X_OK) else ["perl", script]
        for f in _files(src, (".c", ".h")):
            p = subprocess.run(run + ["-none", "-Wall", "-v", f], cwd=src, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, errors="replace",
                               check=False)
            warn = [x for x in p.stdout.splitlines() if "warning" in x]
            ok = p.returncode == 0 and not warn
            yield "R", "pass" if ok else "fail", "kdoc: kernel-doc -none -Wall -v " + f
            if not ok:
                yield from (("C", "  " + x) for x in (warn or p.stdout.splitlines()) if x)
    fns = functions(src)
    missing = ["%s %s" % (where, name) for where, name, doc in fns if not doc]
    if not fns:
        yield "R", "fail", desc + " (none found)"
    elif missing:
        yield "R", "fail", desc
        yield "C", "  no /** comment right above the definition of:"
        yield from (("C", "  " + x) for x in missing)
    else:
        yield "R", "pass", "%s (%d functions)" % (desc, len(fns))


def tree(src, cp_dir, cache):
    """check() with CP_DIR's kernel-doc, fetched first (strunner.lint)."""
    try:
        lint.fetch_checkpatch(cp_dir, cache)
        script = os.path.join(cp_dir, "kernel-doc")
    except Error as e:
        yield ("# %s" % e,)
        script = None
    yield from check(src, script)


def _check(src, cp_dir, cache):
    records(tree(src, cp_dir, cache))


def main(argv):
    return cli(argv[1:], __doc__, (3, _check))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
