# SPDX-License-Identifier: GPL-2.0
"""The ABI file, Documentation/ABI/testing/sysfs-kernel-sched_tune, held
to the module's tables both ways (strunner.lint statics).

    python3 -m strunner.abi SRC

prints, as records (strunner.records), a result for each check of the
tree SRC: each knob of module/knobs.h has its What:
/sys/kernel/sched_tune/<name> and each such What: is a knob; the same
for the counters of module/counters.h under stats/, and for the module
parameters under /sys/module/sched_tune/parameters/; and the ABI file
names no parameter of the selftests' build.  The tables are read
through the C preprocessor, as the compiler reads them.  Each knob is a
module parameter too, but one without a file in parameters/ (main.c's
ST_PARAM gives it permissions 0): the ABI file documents it with its
knob, and a parameters/ entry for it would name a file that is not
there.  The parameters of the selftests' build (Kbuild's ST_TEST=1
objects) are not in the shipped module, and the ABI file does not name
them.
"""

import glob
import os
import re
import shutil
import subprocess
import sys

from strunner import cli, read_lines, read_text, records

ABI_FILE = "Documentation/ABI/testing/sysfs-kernel-sched_tune"

# each table's entry macros, defined to "st_abi_name <name>"
KNOBS = ("#define ST_KNOB(id, name, ...) st_abi_name name\n"
         "#define ST_KNOB_CHOICE(id, name, ...) st_abi_name name\n")
COUNTERS = "#define ST_STAT(id, name) st_abi_name name\n"

_PARAM = re.compile(r"\bmodule_param(_named|_cb|_string|_array|_array_named|_unsafe)?"
                    r"\(\s*([a-z][a-z0-9_]*)")


def table(src, header, defines):
    """The names of the entries of SRC's module/HEADER, its entry macros
    defined by DEFINES; None if cpp failed."""
    p = subprocess.run(["cpp", "-P", "-I", os.path.join(src, "module"), "-"],
                       input='%s#include "%s"\n' % (defines, header), stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True, check=False)
    if p.returncode != 0:
        return None
    return re.findall(r"st_abi_name ([a-z0-9_]+)", p.stdout)


def params(src, files):
    """The module parameters that module_param*() declares in FILES."""
    out = []
    for f in files:
        for line in read_lines(os.path.join(src, f)):
            found = _PARAM.findall(line)
            if found:
                out.append(found[-1][1])
    return out


def test_files(src):
    """The C files only the selftests' build has (Kbuild's ST_TEST=1
    objects)."""
    out, inside = [], False
    for line in read_lines(os.path.join(src, "Kbuild")):
        if line.startswith("ifeq ($(ST_TEST),1)"):
            inside = True
        elif line.startswith("endif"):
            inside = False
        elif inside:
            m = re.match(r"^sched_tune-y \+= (.*)\.o$", line)
            if m:
                out.append(m.group(1) + ".c")
    return out


def whats(abi, prefix):
    """The What: entries of the ABI text right below PREFIX (a file name
    each: no deeper path, no directory)."""
    return re.findall(r"^What:[ \t]+%s([a-z0-9_]+)[ \t]*$" % re.escape(prefix), abi, re.M)


def both(what, path, names, abi):
    """The records of each of NAMES (a WHAT) having its What: PATH<name>
    (ABI: the names the ABI file has there), and each of those being in
    NAMES."""
    missing = sorted(set(names) - set(abi))
    extra = sorted(set(abi) - set(names))
    yield "L", "abi: each %s: %s" % (what, " ".join(names))
    yield "R", "fail" if missing else "pass", "abi: each %s has its What: %s<name>" % (what, path)
    if missing:
        yield "C", "  no What: for: " + " ".join(missing)
    yield "R", "fail" if extra else "pass", "abi: each What: %s<name> is a %s" % (path, what)
    if extra:
        yield "C", "  not a %s: %s" % (what, " ".join(extra))


def check(src):
    """The records of every check of the tree SRC."""
    abi = read_text(os.path.join(src, ABI_FILE))
    if not abi:
        yield "R", "fail", "abi: %s exists" % ABI_FILE
        return
    if not shutil.which("cpp"):
        yield "R", "fail", "abi: module/knobs.h and module/counters.h read (no cpp)"
        return
    knobs, counters = table(src, "knobs.h", KNOBS), table(src, "counters.h", COUNTERS)
    if not knobs or not counters:
        yield "R", "fail", "abi: module/knobs.h and module/counters.h read (an empty table)"
        return
    yield from both("knob of module/knobs.h", "/sys/kernel/sched_tune/", knobs,
                    whats(abi, "/sys/kernel/sched_tune/"))
    yield from both("counter of module/counters.h", "/sys/kernel/sched_tune/stats/", counters,
                    [x for x in whats(abi, "/sys/kernel/sched_tune/stats/") if x != "reset"])
    # the shipped module's parameters that have a file: all but the knobs'
    tests = test_files(src)
    shipped = sorted(os.path.relpath(f, src)
                     for f in glob.glob(os.path.join(src, "module", "**", "*.c"), recursive=True))
    shipped = [f for f in shipped if f not in tests]
    yield from both("module parameter other than a knob", "/sys/module/sched_tune/parameters/",
                    [p for p in params(src, shipped) if p not in knobs],
                    whats(abi, "/sys/module/sched_tune/parameters/"))
    extra = params(src, tests)
    yield "L", "abi: the selftests' build (%s) adds the parameters: %s" % (" ".join(tests),
                                                                          " ".join(extra))
    desc = "abi: %s names no parameter of the selftests' build" % ABI_FILE
    named = [p for p in extra if re.search(r"\b%s\b" % re.escape(p), abi)]
    if not extra:
        yield "R", "fail", "%s (none found in Kbuild's ST_TEST objects)" % desc
    elif named:
        yield "R", "fail", desc
        yield "C", "  named: " + " ".join(named)
    else:
        yield "R", "pass", desc


def main(argv):
    return cli(argv[1:], __doc__, (1, lambda src: records(check(src))))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
