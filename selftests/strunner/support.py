# SPDX-License-Identifier: GPL-2.0
"""The support matrix as data (selftests/support-matrix), held to the
support gate (module/kernel/gate_checked.h), to what the guests report
and to docs/kernels.md (lib.sh st_support_assert, strunner.kjob and
strunner.runner).

    python3 -m strunner.support assert MATRIX GATE KVER BOOT TAPLOG
    python3 -m strunner.support row MATRIX GATE KVER
    python3 -m strunner.support data MATRIX GATE
    python3 -m strunner.support doc MATRIX GATE DOC NAME
    python3 -m strunner.support expect MATRIX GATE KVER FEATURE BOOT
    python3 -m strunner.support state TAPLOG FEATURE
    python3 -m strunner.support table BUILD KVER...

"assert": one result per feature, the state the guest reported at its
first load with the defaults (its "features on this kernel" line in
TAPLOG) against KVER's row; "row": a kernel built and not booted has a
row, in line with the gate; "data": each row of the file is well formed,
alone, and unsupported exactly outside the gate's ranges; "doc": each
row of the table under "## Support matrix" in DOC (called NAME) agrees
with the file, and every kernel of the file has one.  They print records
(strunner.records).  "expect" prints the state FEATURE must report when
loaded with its defaults in that BOOT of KVER, or "error: ..." and exits
1.  BOOT is main, short or ops (one NUMA node) or numa (two nodes).  A
cloud kernel takes its generic twin's row.  "state" prints the first
word of the state a guest reported for FEATURE in TAPLOG (lib.sh
st_guest_feature), or "-"; "table" prints, as comments, the states of
each KVER's "# matrix: KVER STATE..." line in BUILD/KVER.results (run.sh
run_kernel writes it) as a table of docs/kernels.md's columns, "-" and
a missing state as "not booted".
"""

import os
import re
import sys
import time

from strunner import Error, cli, read_lines, records

FEATURES = ("ratelimit", "cache_level", "numa_scan", "eevdf")
STATES = ("active", "idle", "inactive", "unsupported")
BOOTS = ("main", "numa", "short", "ops")

_RANGE = re.compile(r"^ST_GATE_RANGE\(([a-z_]*), *([0-9]*), *([0-9]*), *([0-9]*), *([0-9]*)\)$")


def ranges(gate):
    """(feature, series, first, last) of each ST_GATE_RANGE of GATE."""
    return [(m.group(1), "%s.%s" % (m.group(2), m.group(3)), int(m.group(4)), int(m.group(5)))
            for m in map(_RANGE.match, read_lines(gate)) if m]


def _rows(matrix):
    """(header, rows): the first line of words of MATRIX, then each
    other as its words; comments and blank lines left out."""
    lines = [line.split() for line in read_lines(matrix)]
    lines = [w for w in lines if w and not w[0].startswith("#")]
    return (" ".join(lines[0]) if lines else ""), lines[1:]


def kernels(matrix):
    """The kernels of MATRIX, in its order."""
    return [w[0] for w in _rows(matrix)[1]]


def _table(matrix, gate):
    """(header, rows, ranges): what lookup() reads of MATRIX (None and
    no rows if it cannot be read) and GATE."""
    head, rows = _rows(matrix) if os.access(matrix, os.R_OK) else (None, [])
    return head, rows, ranges(gate)


def lookup(matrix, gate, kver, table=None):
    """(the row's kernel, {feature: state}) of KVER, checked against
    GATE; raises Error saying why there is none.  TABLE is what
    _table() read of them, once for a check of many kernels."""
    # a cloud kernel is its generic twin built with fewer drivers
    key = kver[:-len("-cloud-amd64")] + "-amd64" if kver.endswith("-cloud-amd64") else kver
    head, rows, checked = table or _table(matrix, gate)
    if head is None:
        raise Error("no %s" % matrix)
    want = "kernel %s version" % " ".join(FEATURES)
    if head != want:
        raise Error("%s: header '%s', not '%s'" % (matrix, head, want))
    found = [w[1:] for w in rows if w[0] == key]
    if not found:
        twin = "" if key == kver else " (nor %s, its generic twin)" % key
        raise Error("kernel %s has no row%s in selftests/support-matrix: nobody looked at it yet "
                    "(compare the copied code as gate_checked.h says, then add its row)"
                    % (kver, twin))
    if len(found) > 1:
        raise Error("kernel %s has %d rows in selftests/support-matrix" % (key, len(found)))
    row = found[0]
    nf = len(FEATURES)
    v = row[nf] if len(row) > nf else ""
    if len(row) != nf + 1 or not re.match(r"^[0-9]+\.[0-9]+\.[0-9]+$", v):
        raise Error("row %s: not %d states and a version x.y.z" % (key, nf))
    # 6.12.95+deb12-amd64 names its sublevel; 6.1.0-57-amd64 its series only
    m = re.match(r"^([0-9]+\.[0-9]+)\.([0-9]+)\+", key)
    s = re.match(r"^([0-9]+\.[0-9]+)\.", key)
    if (m and v != "%s.%s" % m.groups()) or (s and v.rsplit(".", 1)[0] != s.group(1)):
        raise Error("row %s: version %s is not the kernel's" % (key, v))
    series, sub = v.rsplit(".", 1)
    states = {}
    for f, state in zip(FEATURES, row):
        if state not in STATES:
            raise Error("row %s: %s '%s' is not a state (%s)" % (key, f, state, ", ".join(STATES)))
        if not checked:
            raise Error("no ST_GATE_RANGE line in %s" % gate)
        inside = any(g == f and s_ == series and first <= int(sub) <= last
                     for g, s_, first, last in checked)
        # the gate refuses a sublevel outside the checked range
        if inside and state == "unsupported":
            raise Error("row %s: %s unsupported, but gate_checked.h checked %s on %s"
                        % (key, f, f, v))
        if not inside and state != "unsupported":
            raise Error("row %s: %s %s, but %s is outside every range gate_checked.h checked "
                        "for %s" % (key, f, state, v, f))
        states[f] = state
    return key, states


def boot_state(states, f, boot):
    """The looked-up state as BOOT sees it: one node leaves NUMA
    balancing off by default, where numa_scan idles."""
    s = states[f]
    return "idle" if f == "numa_scan" and boot != "numa" and s == "active" else s


def expect(matrix, gate, kver, f, boot):
    """The state F must report when loaded with its defaults in BOOT of
    KVER; raises Error."""
    if f not in FEATURES:
        raise Error("unknown feature '%s'" % f)
    if boot not in BOOTS:
        raise Error("unknown boot '%s' (main, numa, short, ops)" % boot)
    return boot_state(lookup(matrix, gate, kver)[1], f, boot)


def reported(taplog, f):
    """The whole state the guest's feature line gave F ("features on this
    kernel: ratelimit active, cache_level active (unchecked), ..."), ""
    if it names no F, None if the log has no such line."""
    line = next((x for x in read_lines(taplog) if "features on this kernel:" in x), None)
    if line is None:
        return None
    for item in line.split("features on this kernel: ", 1)[-1].split(", "):
        if item.split(" ", 1)[0] == f:
            return item[len(f):].removeprefix(" ").rstrip(" ")
    return ""


def state(taplog, f):
    """The first word of what TAPLOG's guest reported for F, or ""."""
    return (reported(taplog, f) or "").split(" ")[0]


def table(build, kvers, day):
    """The comment lines of the support matrix the run's guests reported
    on day DAY: a row per "# matrix: " line of each of KVERS' results in
    BUILD; "not booted" where a state is missing."""
    yield "#"
    yield "# support matrix, %s, from the guests of this run:" % day
    yield "# | kernel | %s |" % " | ".join(FEATURES)
    yield "# |---|%s" % ("---|" * len(FEATURES))
    for k in kvers:
        for line in read_lines(os.path.join(build, k + ".results")):
            if not line.startswith("# matrix: "):
                continue
            w = line.split()[2:] + [""] * (len(FEATURES) + 1)
            yield "# | %s | %s |" % (w[0], " | ".join(
                x if x not in ("", "-") else "not booted" for x in w[1:len(FEATURES) + 1]))


def states_text(states):
    """The looked-up row as "ratelimit active, cache_level ..."."""
    return ", ".join("%s %s" % (f, states[f]) for f in FEATURES)


def assert_row(matrix, gate, kver, boot, taplog):
    """The records of KVER's BOOT against what the guest reported."""
    what = "selftests/support-matrix, %s boot" % boot
    try:
        states = lookup(matrix, gate, kver)[1]
    except Error as e:
        for f in FEATURES:
            yield "R", "fail", "support matrix: %s on %s: %s" % (f, kver, e)
        return
    for f in FEATURES:
        want = boot_state(states, f, boot)
        got = reported(taplog, f)
        desc = "support matrix: %s %s on %s (%s)" % (f, want, kver, what)
        if got is None:
            yield "R", "fail", desc + ": the guest printed no 'features on this kernel' line"
        elif got == want:
            yield "R", "pass", desc
        else:
            yield "R", "fail", "%s: the guest reported '%s'" % (desc, got)


def row_check(matrix, gate, kver):
    """The record of a kernel built, not booted, having its row."""
    desc = ("support matrix: %s has a row in selftests/support-matrix, in line with "
            "gate_checked.h" % kver)
    try:
        lookup(matrix, gate, kver)
        yield "R", "pass", desc
    except Error as e:
        yield "R", "fail", "%s: %s" % (desc, e)


def data_check(matrix, gate):
    """One record per row of MATRIX: it agrees with GATE."""
    table = _table(matrix, gate)
    found = [w[0] for w in table[1]]
    for k in found:
        desc = "selftests/support-matrix: %s agrees with gate_checked.h" % k
        try:
            yield "R", "pass", "%s (%s)" % (desc, states_text(lookup(matrix, gate, k, table)[1]))
        except Error as e:
            yield "R", "fail", "%s: %s" % (desc, e)
    if not found:
        yield "R", "fail", "selftests/support-matrix has kernel rows (%s)" % matrix


def _cells(line):
    return [c.replace("`", "").strip(" ") for c in line[1:].split("|")]


def doc_check(matrix, gate, doc, name):
    """One record per row of DOC's support matrix (columns kernel, ...,
    each feature's; a kernel cell may name several kernels,
    comma-separated), each state cell's first word that of every kernel
    it names; then one that every kernel of MATRIX has a row."""
    section, col, rows, seen = "", None, 0, set()
    table = _table(matrix, gate)
    for line in read_lines(doc):
        if line.startswith("## "):
            section = line[3:]
            continue
        if section != "Support matrix":
            continue
        if not line.startswith("|"):
            # the table ends at its first non-table line
            if col is not None:
                break
            continue
        cells = _cells(line)
        if col is None:
            col = {c: i for i, c in enumerate(cells)}
            for k in ("kernel",) + FEATURES:
                if k not in col:
                    yield ("R", "fail", "%s: the support matrix has a '%s' column (%s)"
                           % (name, k, line))
                    return
            continue
        if re.match(r"^[-:| ]+$", line):
            continue
        rows += 1
        kcell = cells[col["kernel"]] if col["kernel"] < len(cells) else ""
        kvers = [k for k in kcell.replace(" ", "").split(",") if k]
        bad = [] if kvers else ["a row naming no kernel"]
        for k in kvers:
            try:
                key, states = lookup(matrix, gate, k, table)
            except Error as e:
                bad.append(str(e))
                continue
            seen.add(key)
            for f in FEATURES:
                cell = cells[col[f]] if col[f] < len(cells) else ""
                first = cell.split(" ", 1)[0]
                if first != states[f]:
                    bad.append("%s: %s '%s', the file says %s" % (k, f, first, states[f]))
        desc = "%s support matrix: %s agrees with selftests/support-matrix" % (name, kcell)
        yield ("R", "fail", "%s (%s)" % (desc, "; ".join(bad))) if bad else ("R", "pass", desc)
    if col is None or rows == 0:
        yield "R", "fail", "%s: a table under '## Support matrix' with kernel rows" % name
        return
    missing = [w[0] for w in table[1] if w[0] not in seen]
    desc = "%s support matrix has every kernel of selftests/support-matrix" % name
    if missing:
        yield "R", "fail", "%s (missing: %s)" % (desc, " ".join(missing))
    else:
        yield "R", "pass", desc


def main(argv):
    return cli(argv[1:], __doc__, {
        "assert": (5, lambda *args: records(assert_row(*args))),
        "row": (3, lambda *args: records(row_check(*args))),
        "data": (2, lambda *args: records(data_check(*args))),
        "doc": (4, lambda *args: records(doc_check(*args))),
        "expect": (5, lambda *args: print(expect(*args))),
        "state": (2, lambda *args: print(state(*args) or "-")),
        "table": (lambda n: n >= 1, lambda build, *k: print(
            "\n".join(table(build, k, time.strftime("%Y-%m-%d", time.gmtime()))))),
    })


if __name__ == "__main__":
    sys.exit(main(sys.argv))
