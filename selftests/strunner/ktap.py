# SPDX-License-Identifier: GPL-2.0
"""make check's one KTAP reader, for every producer: the guests, the unit
tests, the bench's tests and the host's own test scripts.

Every leaf result counts: a subtest's results, or a top-level result that
closes no subtest.  A top-level "not ok" of a subtest whose results all
passed (it stopped short), or a top-level skip of a subtest that ran no
result, counts once more.  A subtest whose plan and results disagree is a
failure.  Comments come back in place, so the log shows the producer's
diagnostics where they were printed.

    python3 -m strunner.ktap FILE

prints, one per line, fields split by the unit separator (0x1f: empty
fields survive bash's read), for lib.sh st_ingest_tap:
    R <pass|fail|skip> <name> <skip reason>   a result
    C <text>                                   a comment or a subtest title
    P <top-level plan or empty> <top-level results>   last

    python3 -m strunner.ktap run NAME LOG CMD...

runs the producer CMD, its output in LOG, and prints the records of its
KTAP, then one failure, naming NAME, where it printed no result, where
its plan is not its count of results, or where it exited non-zero with
no failure among them (a crash after its last result), with LOG's tail.
"""

import re
import subprocess
import sys

from strunner import comments, read_lines, records

_RESULT = re.compile(r"^(not )?ok [0-9]* *-? *")
_SKIP = re.compile(r"# *(SKIP|skip) *(.*)$")


def result(line):
    """(verdict, name, skip reason) of a result line (indentation gone)."""
    desc = _RESULT.sub("", line, count=1)
    if line.startswith("not ok "):
        return "fail", desc, ""
    m = _SKIP.search(desc)
    if m:
        return "skip", desc.split("#", 1)[0].rstrip(" "), m.group(2)
    return "pass", desc, ""


def parse(lines):
    """Yields ("R", verdict, name, why), ("C", text) and, last,
    ("P", plan, count) for the KTAP stream @lines."""
    plan, n = "", 0
    sub_n, sub_fail, sub_plan, title = 0, 0, "", ""
    for line in lines:
        line = line.rstrip("\n").rstrip("\r")
        inner = line.lstrip(" ")
        if inner != line:
            if inner.startswith(("ok ", "not ok ")):
                sub_n += 1
                sub_fail += inner.startswith("not ok ")
                yield ("R",) + result(inner)
            elif inner.startswith("1..") and not sub_plan:
                sub_plan = inner[3:]
            elif inner.startswith("# Subtest: "):
                title = inner[len("# Subtest: "):]
                yield "C", "== " + title
            elif inner.startswith("#"):
                yield "C", inner[2:] if inner.startswith("# ") else inner
            continue
        if line.startswith(("ok ", "not ok ")):
            n += 1
            if sub_n == 0 and not sub_plan:
                yield ("R",) + result(line)
            else:
                if (line.startswith("not ok ") and sub_fail == 0) or \
                        (sub_n == 0 and " # SKIP " in line):
                    yield ("R",) + result(line)
                if sub_plan and sub_plan != str(sub_n):
                    yield ("R", "fail", "subtest '%s': plan 1..%s but %d results"
                           % (title or line, sub_plan, sub_n), "")
            sub_n, sub_fail, sub_plan, title = 0, 0, "", ""
        elif line.startswith("1.."):
            plan = line[3:]
        elif line.startswith("#"):
            yield "C", line[2:] if line.startswith("# ") else line
    yield "P", plan, n


def run(name, log, cmd):
    """Yields the records of the producer CMD's KTAP (its output in LOG),
    then its verdict."""
    with open(log, "w") as f:
        rc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, check=False).returncode
    lines = read_lines(log)
    failed = False
    plan, count = "", 0
    for rec in parse(lines):
        if rec[0] == "P":
            plan, count = rec[1], rec[2]
            continue
        failed |= rec[0] == "R" and rec[1] == "fail"
        yield rec
    why = None
    if count == 0:
        why = "%s printed no results (exit %d)" % (name, rc)
    elif plan != str(count):
        why = "%s: plan 1..%s but %d results" % (name, plan, count)
    elif rc != 0 and not failed:
        why = "%s exited %d with no failure counted" % (name, rc)
    if why:
        yield "R", "fail", why, ""
        yield from comments(lines[-20:])
    yield "P", plan, count


def main(argv):
    if argv[:1] == ["run"] and len(argv) > 3:
        records(run(argv[1], argv[2], argv[3:]))
        return 0
    try:
        with open(argv[0], encoding="utf-8", errors="replace", newline="\n") as f:
            records(parse(f))
    except FileNotFoundError:
        # no stream at all: no result, no plan (a producer that died)
        records(parse([]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
