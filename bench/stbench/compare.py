# SPDX-License-Identifier: GPL-2.0
"""sched-tune-bench compare DIR...: mmtests compare-kernels-style tables
across results directories (runs, kernels, machines).

The first directory is the baseline column.  Each row is one figure of one
workload under one configuration; each column the estimator of that
figure in one directory (mean, or Hmean for throughputs: the same as the
report), its CoeffVar, and, from the second column on, the change against
the first with its interval, p, and the smallest detectable effect.  Marks
only on the headline family (report.HEADLINE_METRICS, hook cost excluded:
here every row compares columns, not configurations), corrected with
Benjamini-Hochberg over every headline row and column; the rest is
exploratory.  Reads only results.json, any version this bench wrote.
"""

import copy
import csv
import os

from . import report, stats
from .util import fmt_num


def _label(d, data, used):
    lab = os.path.basename(os.path.normpath(d)) or d
    if lab in used:
        lab = "%s (%s)" % (lab, (data.get("stamp") or {}).get("kernel") or len(used))
    return lab


def _wanted(name, only):
    return not only or name in only or name.split("-")[0] in only


def compare(runs, alpha=None, configs=None, workloads=None, labels=None):
    """runs: [(dir, results dict)].  Returns the comparison as a dict
    (columns, rows), the JSON of `compare --json`."""
    if len(runs) < 1:
        raise ValueError("compare needs at least one results directory")
    datas = []
    for d, data in runs:
        data = copy.deepcopy(data)
        report.normalize(data)
        datas.append((d, data))
    if alpha is None:
        a0 = datas[0][1].get("alpha")
        alpha = a0 if report.valid_alpha(a0) else report.DEFAULT_ALPHA
    cols = []
    used = []
    for i, (d, data) in enumerate(datas):
        data["alpha"] = alpha
        report.summarize(data)
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
    # rows: the union, in the order first seen
    rows = []
    seen = set()
    for _, data in datas:
        cfg_names = [c["name"] for c in data["configs"] if not c.get("skip")]
        for w in data["workloads"]:
            if not _wanted(w["name"], workloads):
                continue
            hm = report.headline_metric(w)
            for m in w["metrics"]:
                for cn in cfg_names:
                    if configs and cn not in configs:
                        continue
                    key = (w["name"], m["name"], cn)
                    if key in seen:
                        continue
                    seen.add(key)
                    rows.append({"workload": w["name"], "metric": m["name"], "unit": m.get("unit", ""),
                                 "better": m.get("better"), "estimator": report.estimator_of(m),
                                 "config": cn, "family": "headline" if m["name"] == hm else "exploratory",
                                 "cells": []})
    family = []
    for row in rows:
        base_vals = None
        for j, (_, data) in enumerate(datas):
            cell = data["summary"]["cells"].get(row["workload"], {}).get(row["config"])
            ms = (cell or {}).get("metrics", {}).get(row["metric"]) or {}
            vals = ms.get("values") or []
            c = {"n": len(vals), "estimate": stats.estimate(vals, row["estimator"]) if vals else None,
                 "coeffvar": stats.coeffvar(vals), "min": min(vals) if vals else None,
                 "max": max(vals) if vals else None, "change": None}
            if j == 0:
                base_vals = vals
            elif vals and base_vals:
                cmp = stats.compare(vals, base_vals, row["estimator"], alpha)
                cmp.pop("welch", None)
                cmp["family"] = row["family"]
                cmp["p_bh"] = None
                cmp["significant"] = False
                c["change"] = cmp
                if row["family"] == "headline":
                    family.append(cmp)
            row["cells"].append(c)
    for cmp, pa in zip(family, stats.bh_adjust([c["p"] for c in family])):
        cmp["p_bh"] = pa
        cmp["significant"] = pa is not None and pa <= alpha
    return {"tool": "sched-tune-bench compare", "alpha": alpha,
            "estimators": dict(stats.ESTIMATORS),
            "correction": "Benjamini-Hochberg, q = %g, over %d headline comparisons (rows of the "
                          "headline family, each column against the first)" % (alpha, len(family)),
            "stats_backend": stats.BACKEND, "columns": cols, "rows": rows}


def _cell_md(c, first):
    if not c["n"]:
        return "-"
    est = fmt_num(c["estimate"])
    cv = " (CV %.1f%%)" % c["coeffvar"] if c["coeffvar"] is not None else ""
    if first or c["change"] is None:
        return est + cv
    return "%s%s %s" % (est, cv, report.mark(c["change"]))


def markdown(res):
    L = ["# sched-tune-bench compare", ""]
    L += ["| | " + " | ".join(report.esc(c["label"]) for c in res["columns"]) + " |",
          "|---|" + "---|" * len(res["columns"])]
    for key, name in (("dir", "results"), ("kernel", "kernel"), ("hostname", "host"),
                      ("cpu_model", "CPU"), ("cpus_online", "CPUs"), ("hypervisor", "hypervisor / emulator"),
                      ("module", "sched_tune"), ("started", "started"), ("state", "state"),
                      ("reps", "rounds"), ("seed", "order seed")):
        L.append("| %s | %s |" % (name, " | ".join(report.esc(c.get(key) if c.get(key) is not None else "n/a")
                                                    for c in res["columns"])))
    L += ["", "Each cell: the estimator (mean; Hmean for throughputs) and CoeffVar; from the second "
          "column on, the change against the first column with its %d%% interval. `*`: a headline "
          "row (hackbench time, tbench throughput, wakeup p99, pipe latency, NUMA passes/s, your "
          "own --cmd figure) whose change survives the %s; in parentheses: not marked (within the "
          "noise, or an exploratory row). Statistics: %s." % (
              int(round(100 * (1 - res["alpha"]))), res["correction"], res["stats_backend"]), ""]
    for c in res["columns"]:
        for n in c.get("notes") or []:
            L.append("- %s: %s" % (c["label"], n))
    cur = None
    for row in res["rows"]:
        if (row["workload"], row["metric"]) != cur:
            cur = (row["workload"], row["metric"])
            d = {"lower": ", lower is better", "higher": ", higher is better"}.get(row["better"], "")
            L += ["", "### %s: %s (%s%s), %s, %s" % (
                row["workload"], row["metric"], row["unit"], d,
                "Hmean" if row["estimator"] == "hmean" else "mean", row["family"]), "",
                "| config | " + " | ".join(report.esc(c["label"]) for c in res["columns"]) + " |",
                "|---|" + "---|" * len(res["columns"])]
        L.append("| `%s` | %s |" % (row["config"], " | ".join(
            _cell_md(c, j == 0) for j, c in enumerate(row["cells"]))))
    L.append("")
    return "\n".join(L)


CSV_FIELDS = ["workload", "metric", "unit", "better", "estimator", "family", "config", "column", "dir",
              "kernel", "n", "estimate", "coeffvar", "min", "max", "change_pct", "ci_low_pct",
              "ci_high_pct", "p", "p_bh", "significant", "mde_pct"]


def write_csv(res, f):
    w = csv.writer(f, lineterminator="\n")
    w.writerow(CSV_FIELDS)
    for row in res["rows"]:
        for col, c in zip(res["columns"], row["cells"]):
            ch = c["change"] or {}
            ci = ch.get("ci_pct") or [None, None]
            vals = [row["workload"], row["metric"], row["unit"], row["better"], row["estimator"],
                    row["family"], row["config"], col["label"], col["dir"], col["kernel"], c["n"],
                    c["estimate"], c["coeffvar"], c["min"], c["max"], ch.get("pct"), ci[0], ci[1],
                    ch.get("p"), ch.get("p_bh"), ch.get("significant") if ch else None, ch.get("mde_pct")]
            w.writerow(["" if v is None else ("%.10g" % v if isinstance(v, float) else v) for v in vals])
