# SPDX-License-Identifier: GPL-2.0
"""The hook-cost figures of the icount boots (selftests/guest/icount.sh).

    python3 -m strunner.icount LOG...
    python3 -m strunner.icount table KVER LOG...
    python3 -m strunner.icount measure --max PCT --features "F..."
        TESTS SPLAT LABEL VMLINUZ OUT [GUEST-WORD...]

Every run is a line "# icount CONFIG NS_PER_ROUND [MIGRATIONS]" of a
boot's log.  Per configuration, over the runs of every log: the median,
min and max, the migrations' range, and the paired ratio: the median,
over repetitions, of a run's ratio to its own repetition's unloaded run,
with the distribution-free interval of that median from the ratios' order
statistics (stats.median_ci).  Within one boot the counts can drift by a
couple of percent from the early repetitions to the late ones, in every
configuration at once; the paired ratio does not take it.  A repetition
starts at its unloaded run; where that run was not counted, or in another
boot, the repetition's runs pair with nothing (a configuration met twice
since the last unloaded run).

With LOGs it prints "CONFIG N MIN MAX MEDIAN MIGRATIONS PAIRED PAIRS LO
HI CONF" per configuration in the order the guests ran them.

table: a markdown row per configuration (lib.sh st_icount_table:
instructions per round trip, min-max and spread, the ratio of medians to
unloaded, the paired ratio with its interval, the migrations).

measure (lib.sh st_icount_measure): an icount boot (strunner/qemu.py,
its settings from the environment) of VMLINUZ with OUT/../initramfs.cpio
into OUT, its verdict and table, and the held features' verdicts and
figures, as records for lib.sh's st_records.  A single boot varies
(beside another guest, runs of 3,000 round trips by about 1%): where a
feature is over PCT, or the boot never measured one apart (it says so,
"# icount_lost", when asked with st_ic_second=1), a second, independent
boot into OUT-2 if it fits before the deadline, its records in the group
"LABEL, second boot" ("G" record); the verdicts are then one estimate
over the runs of both, never the better of two.
"""

import os
import shutil
import sys
import time

from stbench import stats
from strunner import budget, cli, comments, guest, number, qemu, read_lines, records


def _fmt(x):
    return "%d" % x if x == int(x) else "%.6g" % x


class Config:
    def __init__(self, name):
        self.name = name
        self.runs = []
        self.migrations = []
        self.ratios = []


def collect(logs):
    """The configurations of @logs (each an iterable of lines), in the
    order they first ran."""
    configs = {}
    for lines in logs:
        base, seen = 0.0, set()
        for line in lines:
            f = line.rstrip("\r\n").split()
            if len(f) < 4 or f[0] != "#" or f[1] != "icount":
                continue
            if not f[3].replace(".", "", 1).isdigit():
                continue
            name, ns = f[2], float(f[3])
            c = configs.setdefault(name, Config(name))
            c.runs.append(ns)
            c.migrations.append(number(f[4]) if len(f) > 4 else -1.0)
            if name == "unloaded":
                base, seen = ns, set()
                continue
            if name in seen:
                base, seen = 0.0, set()
            seen.add(name)
            if base > 0:
                c.ratios.append(ns / base)
    return list(configs.values())


def rows(configs):
    for c in configs:
        mig = sorted(c.migrations)
        migs = _fmt(mig[0]) if mig[0] == mig[-1] else "%s-%s" % (_fmt(mig[0]), _fmt(mig[-1]))
        ci = "- - -"
        if c.name == "unloaded":
            paired, pairs = "1", len(c.runs)
        elif c.ratios:
            pairs = len(c.ratios)
            paired = "%.6f" % stats.median(c.ratios)
            lo, hi, cover = stats.median_ci(c.ratios)
            ci = "%.6f %.6f %.1f" % (lo, hi, cover * 100)
        else:
            paired, pairs = "-", 0
        yield "%s %d %.1f %.1f %.1f %s %s %d %s" % (
            c.name, len(c.runs), min(c.runs), max(c.runs), stats.median(c.runs),
            migs, paired, pairs, ci)


def _stats(paths):
    logs = []
    for path in paths:
        with open(path, encoding="utf-8", errors="replace") as f:
            logs.append(f.readlines())
    return [r.split() for r in rows(collect(logs))]


def _base(stats):
    for r in stats:
        if r[0] == "unloaded":
            return r[4]
    return None


def table(kver, stats):
    """st_icount_table's rows, from the fields of rows()."""
    b = float(_base(stats) or 0)
    for r in stats:
        name, n, lo, hi, med, migs, paired, pairs = r[:8]
        lo, hi, med = float(lo), float(hi), float(med)
        spread = (hi - lo) / lo * 100 if lo > 0 else 0
        ratio = "%.4f (%+.2f%%)" % (med / b, (med / b - 1) * 100) if b > 0 else "-"
        if paired == "-":
            pr = "-"
        else:
            pr = "%+.2f%% (%d)" % ((float(paired) - 1) * 100, int(pairs))
            if r[8] != "-" and name != "unloaded":
                pr += " [%+.2f, %+.2f%%] %s%%" % ((float(r[8]) - 1) * 100, (float(r[9]) - 1) * 100, r[10])
        yield "| %s | %s | %.0f | %.0f-%.0f | %.2f%% | %d | %s | %s | %s |" % (
            kver, name, med, lo, hi, spread, int(n), ratio, pr, migs)


def pcts(stats, features):
    """(feature, pct, details) per feature of @features measured."""
    base = _base(stats)
    if base is None:
        return
    for r in stats:
        name, n, lo, hi, med, _, paired, pairs = r[:8]
        if name not in features:
            continue
        if paired == "-":
            yield name, "%+.2f" % ((float(med) / float(base) - 1) * 100), (
                "ratio of medians, no repetition with its unloaded run; median %s vs %s unloaded, "
                "%s runs %s-%s" % (med, base, n, lo, hi))
        else:
            yield name, "%+.2f" % ((float(paired) - 1) * 100), (
                "paired over %d repetitions, [%+.2f, %+.2f%%] at %s%% (order statistics of the "
                "median); median %s vs %s unloaded, %s runs %s-%s" % (
                    int(pairs), (float(r[8]) - 1) * 100, (float(r[9]) - 1) * 100, r[10],
                    med, base, n, lo, hi))


def results(stats, features, limit, boots):
    """The verdict and the figures of each held feature, then of `all`
    (see shared())."""
    found = list(pcts(stats, features))
    if not found:
        yield ("R", "fail", "icount: no unloaded baseline or no feature measured")
        return
    for name in features:
        for c, pct, details in found:
            if c != name:
                continue
            # the names carry no figure, so they are the same every run
            verdict = "pass" if float(pct) <= float(limit) else "fail"
            yield ("R", verdict, "icount: %s costs at most %s%% instructions per round trip" % (c, limit))
            yield ("L", "icount: %s costs %s%% instructions per round trip (limit %s%%; %s; the runs "
                   "of %s)" % (c, pct, limit, details, boots))
    yield from shared(stats, found, features, limit, boots)


def shared(stats, found, features, limit, boots):
    """`all`, every held feature at once: its figure, printed beside the
    limit, not held to it (the limit is each feature's; five at once read
    +1.8% to +2.1% a boot, docs/hook-cost.md), and held to cost less
    than its FEATURES apart (FOUND, pcts()), where each was measured:
    they share the hooks."""
    for _, pct, details in pcts(stats, ["all"]):
        apart = sum(float(p) for _, p, _ in found)
        if len(found) == len(features):
            yield ("R", "pass" if float(pct) < apart else "fail",
                   "icount: all costs less than its features apart")
        yield ("L", "icount: all costs %s%% instructions per round trip, its features apart %+.2f%% "
               "(%s; printed beside the %s%% limit, not held to it; the runs of %s)" % (
                   pct, apart, details, limit, boots))


def _boot(env, label, out, vmlinuz, words, tests, splat):
    """One icount boot into OUT: its verdict's records and its table."""
    rc = qemu.boot(env, out, vmlinuz, qemu.initramfs_of(out), words)
    yield from guest.verdict(tests, splat, label, rc, out, ["icount"])
    tap = os.path.join(out, "tap.log")
    yield from comments(table(label, _stats([tap])), "# ")


def measure(env, label, out, vmlinuz, words, tests, splat, limit, features):
    """The records of one or two icount boots and of their results (see
    above); ENV holds strunner/qemu.py's settings and the run's."""
    t0 = time.monotonic()
    shutil.rmtree(out + "-2", ignore_errors=True)
    yield from _boot(env, label, out, vmlinuz, words + ["st_ic_second=1"], tests, splat)
    taps = [os.path.join(out, "tap.log")]
    lost = next((x[len("# icount_lost"):].strip() for x in read_lines(taps[0])
                 if x.startswith("# icount_lost")), "")
    over = [c for c, pct, _ in pcts(_stats(taps), features) if float(pct) > float(limit)]
    if lost or over:
        if lost:
            yield "L", "%s: never measured apart: %s; a second, independent boot" % (label, lost)
        else:
            yield "L", "%s: a configuration over %s%%, a second, independent boot" % (label, limit)
        # as long as the first, which this run just measured
        ok = yield from budget.fits(qemu.Run(env), env, "icount: a second, independent boot",
                                    int(time.monotonic() - t0), "as the first took", label)
        if ok:
            second = label + ", second boot"
            yield "G", second
            yield from _boot(env, second, out + "-2", vmlinuz, words, tests, splat)
            yield "G", label
            taps.append(os.path.join(out + "-2", "tap.log"))
    yield from results(_stats(taps), features, limit,
                       "both boots" if len(taps) > 1 else "one boot")


def _measure(*words):
    words = list(words)
    limit = _opt(words, "--max")
    features = _opt(words, "--features").split()
    tests, splat, label, vmlinuz, out = words[:5]
    records(measure(os.environ, label, out, vmlinuz, words[5:], tests, splat, limit, features))


def _print(lines):
    for line in lines:
        print(line)


def _opt(argv, name):
    i = argv.index(name)
    value = argv[i + 1]
    del argv[i:i + 2]
    return value


def main(argv):
    if argv and argv[0] not in ("table", "measure"):
        _print(" ".join(row) for row in _stats(argv))
        return 0
    return cli(argv, __doc__, {
        "table": (lambda n: n >= 1, lambda kver, *logs: _print(table(kver, _stats(logs)))),
        "measure": (lambda n: n >= 9, _measure),
    })


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
