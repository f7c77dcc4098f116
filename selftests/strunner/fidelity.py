# SPDX-License-Identifier: GPL-2.0
"""The fidelity pages (docs/features/<feature>.md) held to their shape
and to the tests they name (lib.sh st_fidelity_check).

    python3 -m strunner.fidelity SRC

prints, as records (strunner.records), a result for each feature of
SRC's module (it has a page) and for each page (it names a feature;
both its tables are whole, and every test cell names a file that holds
its string verbatim), and a skip that says why for each row no test here
can show.  A test cell is one or more `path`: "string" joined by "; ",
the path from the tree's root, or "untested: WHY".
"""

import glob
import os
import re
import sys

from strunner import cli, read_lines, read_text, records

# each table: its heading, its header row, the rows it needs at least
TABLES = (("Fidelity", "| # | the patch | sched_tune | where | test |", 1),
          ("Differences", "| # | difference | forced by | test |", 0))

_FEATURE = re.compile(r"^struct st_feature st_[a-z0-9_]*_feature = \{")
_TEST = re.compile(r'^`([^`]+)`: "([^"]+)"(; (.*))?$')


def features(src):
    """The .name of every struct st_feature SRC's module/*.c defines."""
    names = set()
    for path in glob.glob(os.path.join(src, "module", "*.c")):
        inside = False
        for line in read_lines(path):
            if _FEATURE.match(line):
                inside = True
            elif inside and '.name = "' in line:
                names.add(line.split('.name = "', 1)[1].split('"', 1)[0])
                inside = False
            elif inside and line.startswith("};"):
                inside = False
    return sorted(names)


def cells(row):
    """A table row's cells, trimmed."""
    row = row[1:] if row.startswith("|") else row
    row = row[:-1] if row.endswith("|") else row
    return [c.strip(" ") for c in row.split("|")]


def test_cell(src, cell):
    """(None, []) if CELL's every `path`: "string" is a file of SRC that
    holds it; ("untested", [WHY]) for a row said untested; else
    ("bad", [why...])."""
    if not cell:
        return "bad", ["an empty test cell"]
    m = re.match(r"^untested: (.*[a-z].*)$", cell)
    if m:
        return "untested", [m.group(1)]
    why = []
    while cell:
        m = _TEST.match(cell)
        if not m:
            return "bad", why + ['not `path`: "string": ' + cell]
        path, text, cell = m.group(1), m.group(2), m.group(4) or ""
        if path.startswith("/") or "/../" in "/%s/" % path:
            why.append("%s: outside the tree" % path)
        elif not os.path.isfile(os.path.join(src, path)):
            why.append("%s: no such file" % path)
        elif text not in read_text(os.path.join(src, path)):
            why.append('%s: no "%s"' % (path, text))
    return ("bad" if why else None), why


def table(src, lines, heading, header, least):
    """(rows, test cells, why it fails, untested rows as (ROW, WHY)) of
    the table under "## HEADING" of a page's LINES."""
    ncols = len(cells(header))
    rows, ncells, why, untested = 0, 0, [], []
    state = "before"
    for line in lines:
        if state == "before":
            if line == "## " + heading:
                state = "header"
        elif state == "header":
            if not line:
                continue
            if line != header:
                return rows, ncells, ["## %s: the table's header is not '%s'" % (heading, header)], []
            state = "rule"
        elif state == "rule":
            if not re.match(r"^\|(-+\|)+$", line):
                return rows, ncells, ["## %s: no |---| line under the header" % heading], []
            state = "rows"
        else:
            if not line.startswith("|"):
                break
            rows += 1
            row = cells(line)
            if len(row) != ncols:
                why.append("## %s, row %s: %d cells, not %d" % (heading, row[0], len(row), ncols))
                continue
            ncells += 1
            verdict, said = test_cell(src, row[-1])
            if verdict == "untested":
                untested.append(("%s row %s" % (heading, row[0]), said[0]))
            elif verdict:
                why += ["## %s, row %s: %s" % (heading, row[0], x) for x in said]
    if state == "before":
        why.append("no '## %s' section" % heading)
    elif state in ("header", "rule"):
        why.append("## %s: no table" % heading)
    elif rows < least:
        why.append("## %s: %d rows, at least %d wanted" % (heading, rows, least))
    return rows, ncells, why, untested


def check(src):
    """The records of every check of the tree SRC."""
    known = features(src)
    docs = os.path.join(src, "docs", "features")
    for f in known:
        yield ("R", "pass" if os.path.isfile(os.path.join(docs, f + ".md")) else "fail",
               "feature %s has its fidelity page docs/features/%s.md" % (f, f))
    if not known:
        yield ("R", "fail", "the module's features (struct st_feature .name in %s/module/*.c)"
               % src)
        return
    for page in sorted(glob.glob(os.path.join(docs, "*.md"))):
        name = os.path.basename(page)[:-3]
        desc = "docs/features/%s.md" % name
        yield "R", "pass" if name in known else "fail", desc + " names a feature of the module"
        if name not in known:
            yield "C", "  %s is none of: %s" % (name, " ".join(known))
        lines = read_lines(page)
        found = [table(src, lines, *t) for t in TABLES]
        why = [w for t in found for w in t[2]]
        if why:
            yield ("R", "fail", "%s: both tables, each test cell names a file holding its string"
                   % desc)
            yield from (("C", "  " + w) for w in why)
        else:
            yield ("R", "pass", "%s: both tables (%s rows), each of %d test cells names a file "
                   "holding its string" % (desc, " and ".join(str(t[0]) for t in found),
                                            sum(t[1] for t in found)))
        for row, said in (u for t in found for u in t[3]):
            yield "R", "skip", "%s, %s" % (desc, row), "untested: " + said


def main(argv):
    return cli(argv[1:], __doc__, (1, lambda src: records(check(src))))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
