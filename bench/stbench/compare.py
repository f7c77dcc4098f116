# SPDX-License-Identifier: GPL-2.0
"""sched-tune-bench compare DIR...: mmtests compare-kernels-style tables
across results directories (runs, kernels, machines).

The first directory is the baseline column.  A workload is compared only
where it did the same work: the same command with the same parameters
(the program's path in the bench's cache left out).  Where only a loop
count differs (hackbench -l 51 here, -l 94 there: the count is calibrated
per machine) the rows of that column give way to one figure per unit of
work, the time per loop, marked nowhere (startup costs do not scale with
the loops); any other difference (8 tbench clients against 192) is not
compared at all, and the table says why.

Each row is one figure of one workload under one configuration; each
column the estimator of that figure in one directory (the report's: the
geometric mean for times and rates, the mean for counts), its CoeffVar,
and, from the second column on, the change against the first: two
independent benches, so Welch's t-test and interval (on the logarithms
for a ratio, mapped back), and the smallest detectable change.  Marks
only on the headline family (report.HEADLINE_METRICS, hook cost excluded:
here every row compares columns, not configurations) where the work is
the same, corrected with Benjamini-Hochberg over every such row and
column, intervals at the matching FCR-adjusted level; the rest is
exploratory.  Reads only results.json, any version this bench wrote.
"""

import csv
import os
import re

from . import report, stats
from .markdown import esc, est_label, mark
from .util import fmt_num
from .workloads import work_of


def _label(d, data, used):
    lab = os.path.basename(os.path.normpath(d)) or d
    if lab in used:
        lab = "%s (%s)" % (lab, (data.get("stamp") or {}).get("kernel") or len(used))
    return lab


def _wanted(name, only):
    return not only or name in only or name.split("-")[0] in only


LOOPS = re.compile(r"(^|\s)-l\s+(\d+)(?=\s|$)")


def work(w):
    """The work a workload did: its recorded work, else its command."""
    return w.get("work") or work_of(w.get("command") or "")


def loops(w):
    """The loop count of a fixed-work workload (-l N), or None."""
    if isinstance(w.get("loops"), int) and w["loops"] > 0 and LOOPS.search(w.get("command") or ""):
        return w["loops"]
    m = LOOPS.search(w.get("command") or "")
    return int(m.group(2)) if m else None


def same_work(w0, w1):
    """'same', 'loops' (only the loop count differs) or 'different'."""
    a, b = work(w0), work(w1)
    if a == b:
        return "same"
    if loops(w0) and loops(w1) and LOOPS.sub(r"\1-l N", a) == LOOPS.sub(r"\1-l N", b):
        return "loops"
    return "different"


PER_LOOP = "per_loop"
# Figures that are already per unit of work (a loop count that differs
# leaves them comparable, as exploratory rows)
PER_UNIT_FIGURES = ("usecs_per_op",)


def compare(runs, alpha=None, configs=None, workloads=None, labels=None):
    """runs: [(dir, results dict)].  Returns the comparison as a dict
    (columns, rows, refused), the JSON of `compare --json`."""
    if len(runs) < 1:
        raise ValueError("compare needs at least one results directory")
    if alpha is None:
        a0 = runs[0][1].get("alpha") if isinstance(runs[0][1], dict) else None
        alpha = a0 if report.valid_alpha(a0) else report.DEFAULT_ALPHA
    datas = []
    for d, data in runs:
        view = report.prepare(dict(data, alpha=alpha))
        datas.append((d, view))
    cols = []
    used = []
    for i, (d, data) in enumerate(datas):
        st = data.get("stamp") or {}
        lab = labels[i] if labels and i < len(labels) else _label(d, data, used)
        used.append(lab)
        cols.append({"label": lab, "dir": d, "kernel": st.get("kernel"), "hostname": st.get("hostname"),
                     "cpu_model": st.get("cpu_model"), "cpus_online": st.get("cpus_online"),
                     "hypervisor": (st.get("hypervisor") or {}).get("verdict"),
                     "module": (st.get("module") or {}).get("version"),
                     "started": data.get("started"), "state": data.get("state"),
                     "reps": data.get("reps"), "baseline": data.get("baseline"),
                     "seed": (data.get("order") or {}).get("seed"),
                     "notes": data.get("notes", [])})
    wl = [{w["name"]: w for w in data["workloads"]} for _, data in datas]
    # each workload's work in each column against the first column's
    status, refused = {}, []
    for name in sorted({n for x in wl for n in x}):
        if not _wanted(name, workloads):
            continue
        st = []
        for j, x in enumerate(wl):
            w = x.get(name)
            if w is None:
                st.append(None)
                continue
            s = "same" if j == 0 or name not in wl[0] else same_work(wl[0][name], w)
            st.append(s)
            if s != "same":
                refused.append({"workload": name, "column": cols[j]["label"], "status": s,
                                "baseline_work": work(wl[0][name]), "work": work(w),
                                "what": "the time per loop compared, exploratory" if s == "loops"
                                else "not compared"})
        status[name] = st
    # rows: the union, grouped by workload and figure, in the order first seen
    groups, order = {}, []
    for _, data in datas:
        cfg_names = [c["name"] for c in data["configs"] if not c.get("skip")]
        for w in data["workloads"]:
            if w["name"] not in status:
                continue
            hm = report.headline_metric(w)
            loopy = "loops" in status[w["name"]]
            mets = [(m, "per unit of work" if loopy and m["name"] in PER_UNIT_FIGURES else
                     "headline" if m["name"] == hm else "exploratory") for m in w["metrics"]]
            if loopy:
                for m in w["metrics"]:
                    if m["unit"] == "s" and report.scale_of(m) == "log":
                        mets.append(({"name": m["name"] + "_" + PER_LOOP, "unit": "s/loop", "better": m.get("better"),
                                      "scale": "log", "of": m["name"]}, "per unit of work"))
            for m, fam in mets:
                gk = (w["name"], m["name"])
                if gk not in groups:
                    groups[gk] = {"metric": m, "family": fam, "configs": []}
                    order.append(gk)
                for cn in cfg_names:
                    if (configs and cn not in configs) or cn in groups[gk]["configs"]:
                        continue
                    groups[gk]["configs"].append(cn)
    rows = []
    for gk in order:
        g = groups[gk]
        m = g["metric"]
        for cn in g["configs"]:
            rows.append({"workload": gk[0], "metric": m["name"], "unit": m.get("unit", ""),
                         "better": m.get("better"), "estimator": report.estimator_of(m),
                         "config": cn, "family": g["family"], "cells": []})
    family = []
    for row in rows:
        base_vals = None
        per_unit = row["family"] == "per unit of work"
        per_loop = per_unit and row["metric"].endswith("_" + PER_LOOP)
        for j, (_, data) in enumerate(datas):
            st = status[row["workload"]][j]
            w = wl[j].get(row["workload"])
            cell = data["summary"]["cells"].get(row["workload"], {}).get(row["config"])
            src = row["metric"][:-len(PER_LOOP) - 1] if per_loop else row["metric"]
            ms = (cell or {}).get("metrics", {}).get(src) or {}
            vals = ms.get("values") or []
            if per_loop:
                vals = [v / loops(w) for v in vals] if w and loops(w) else []
            c = {"n": len(vals), "estimate": stats.estimate(vals, row["estimator"]) if vals else None,
                 "coeffvar": stats.coeffvar(vals), "min": min(vals) if vals else None,
                 "max": max(vals) if vals else None, "change": None, "work": st}
            if j == 0:
                base_vals = vals
            elif st == "different" or (st == "loops" and not per_unit):
                c["refused"] = "different work" if st == "different" else "other loop count: see the per-loop row"
            elif vals and base_vals:
                cmp = stats.compare(vals, base_vals, row["estimator"], alpha)
                cmp.pop("welch", None)
                cmp["family"] = row["family"] if row["family"] == "headline" else "exploratory"
                cmp["scale"] = "log" if row["estimator"] == "gmean" else "linear"
                cmp["base_mean"] = stats.mean(base_vals)
                cmp["p_bh"] = None
                cmp["significant"] = False
                c["change"] = cmp
                if row["family"] == "headline":
                    family.append(cmp)
            row["cells"].append(c)
    adj = stats.bh_adjust([c["p"] for c in family])
    marked = 0
    for cmp, pa in zip(family, adj):
        cmp["p_bh"] = pa
        cmp["significant"] = pa is not None and pa <= alpha
        marked += cmp["significant"]
    tested = len([p for p in adj if p is not None])
    a_ci = max(marked, 1) * alpha / tested if tested else alpha
    for cmp in family:
        if cmp.get("se"):
            report.reinterval(cmp, a_ci, alpha / tested)
    return {"tool": "sched-tune-bench compare", "alpha": alpha,
            "estimators": dict(stats.ESTIMATORS),
            "correction": "Benjamini-Hochberg, q = %g, over %d headline comparisons (rows of the "
                          "headline family whose work is the same, each column against the first); their "
                          "intervals at %.4g%% (1 - R x q / m)" % (alpha, tested, 100 * (1 - a_ci)),
            "stats_backend": stats.BACKEND, "columns": cols, "rows": rows, "refused": refused}


def _cell_md(c, first):
    if c.get("refused") and c.get("work") == "different":
        return "≠ work"
    if not c["n"]:
        return "-"
    est = fmt_num(c["estimate"])
    cv = " (CV %.1f%%)" % c["coeffvar"] if c["coeffvar"] is not None else ""
    if c.get("refused"):
        return "%s%s (other -l: per-loop row)" % (est, cv)
    if first or c["change"] is None:
        return est + cv
    return "%s%s %s" % (est, cv, mark(c["change"]))


def markdown(res):
    L = ["# sched-tune-bench compare", ""]
    L += ["| | " + " | ".join(esc(c["label"]) for c in res["columns"]) + " |",
          "|---|" + "---|" * len(res["columns"])]
    for key, name in (("dir", "results"), ("kernel", "kernel"), ("hostname", "host"),
                      ("cpu_model", "CPU"), ("cpus_online", "CPUs"), ("hypervisor", "hypervisor / emulator"),
                      ("module", "sched_tune"), ("started", "started"), ("state", "state"),
                      ("reps", "rounds"), ("seed", "order seed")):
        L.append("| %s | %s |" % (name, " | ".join(esc(c.get(key) if c.get(key) is not None else "n/a")
                                                    for c in res["columns"])))
    L += ["", "Each cell: the estimator (the geometric mean for times, latencies and rates; the mean for "
          "counts) and CoeffVar; from the second column on, the change against the first column (two "
          "independent benches: Welch's t-test, the interval of a ratio on the log scale) with its "
          "interval. `*`: a headline row (hackbench time, tbench throughput, wakeup p99, pipe latency, "
          "NUMA passes/s, cpurate units/s, your own --cmd figure) whose work is the same in both columns "
          "and whose change survives the %s; in parentheses: not marked (within the noise, or an "
          "exploratory row). No mark means \"not shown at this noise\", not \"no effect\". "
          "`≠ work`: this column ran the workload with other parameters, not compared. "
          "Statistics: %s." % (res["correction"], res["stats_backend"]), ""]
    for c in res["columns"]:
        for n in c.get("notes") or []:
            L.append("- %s: %s" % (c["label"], n))
    if res.get("refused"):
        L += ["", "## Work that differs", "",
              "| workload | column | its work | the first column's | compared |", "|---|---|---|---|---|"]
        for r in res["refused"]:
            L.append("| %s | %s | `%s` | `%s` | %s |" % (r["workload"], esc(r["column"]), esc(r["work"]),
                                                       esc(r["baseline_work"]), r["what"]))
    cur = None
    for row in res["rows"]:
        if (row["workload"], row["metric"]) != cur:
            cur = (row["workload"], row["metric"])
            d = {"lower": ", lower is better", "higher": ", higher is better"}.get(row["better"], "")
            L += ["", "### %s: %s (%s%s), %s, %s" % (
                row["workload"], row["metric"], row["unit"], d,
                est_label(row["estimator"]), row["family"]), "",
                "| config | " + " | ".join(esc(c["label"]) for c in res["columns"]) + " |",
                "|---|" + "---|" * len(res["columns"])]
        L.append("| `%s` | %s |" % (row["config"], " | ".join(
            _cell_md(c, j == 0) for j, c in enumerate(row["cells"]))))
    L.append("")
    return "\n".join(L)


CSV_FIELDS = ["workload", "metric", "unit", "better", "estimator", "family", "config", "column", "dir",
              "kernel", "work", "n", "estimate", "coeffvar", "min", "max", "change_pct", "ci_low_pct",
              "ci_high_pct", "ci_level", "p", "p_bh", "significant", "mde_pct"]


def write_csv(res, f):
    w = csv.writer(f, lineterminator="\n")
    w.writerow(CSV_FIELDS)
    for row in res["rows"]:
        for col, c in zip(res["columns"], row["cells"]):
            ch = c["change"] or {}
            ci = ch.get("ci_pct") or [None, None]
            vals = [row["workload"], row["metric"], row["unit"], row["better"], row["estimator"],
                    row["family"], row["config"], col["label"], col["dir"], col["kernel"], c.get("work"),
                    c["n"], c["estimate"], c["coeffvar"], c["min"], c["max"], ch.get("pct"), ci[0], ci[1],
                    ch.get("level", 1 - ch["alpha"]) if ch else None,
                    ch.get("p"), ch.get("p_bh"), ch.get("significant") if ch else None, ch.get("mde_pct")]
            w.writerow(["" if v is None else ("%.10g" % v if isinstance(v, float) else v) for v in vals])
