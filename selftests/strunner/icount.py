# SPDX-License-Identifier: GPL-2.0
"""The hook-cost figures of the icount boots (selftests/guest/icount.sh).

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

    python3 -m strunner.icount LOG...

prints "CONFIG N MIN MAX MEDIAN MIGRATIONS PAIRED PAIRS LO HI CONF" per
configuration in the order the guests ran them (lib.sh st_icount_stats).
"""

import sys

from stbench import stats


def _num(s):
    try:
        return float(s)
    except ValueError:
        return 0.0


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
            c.migrations.append(_num(f[4]) if len(f) > 4 else -1.0)
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


def main(argv):
    logs = []
    for path in argv:
        with open(path, encoding="utf-8", errors="replace") as f:
            logs.append(f.readlines())
    for row in rows(collect(logs)):
        print(row)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
