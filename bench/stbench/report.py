# SPDX-License-Identifier: GPL-2.0
"""From results.json to the summary, report.md and the plots.

Everything here reads only the results dictionary, so a report can be
written again later (sched-tune-bench report DIR), e.g. on another machine.
"""

import copy
import json
import math
import os

from . import __version__, machine, model, plots, stats
from .results import runs_on, sweep_workloads
from .util import fmt_num

RATES = [
    ("migrations_per_s", "migrations/s", "task migrations per second"),
    ("migrations_per_run", "migrations/run", "task migrations per run (fixed-work workloads: per unit of work)"),
    ("ipi_per_s", "IPIs/s", "function-call IPIs (CAL) per second"),
    ("ctxt_per_s", "ctxt/s", "context switches per second"),
    ("wakeups_per_s", "wakeups/s", "wakeups (sched_wakeup tracepoint, else schedstat ttwu_count) per second"),
    ("ipi_per_wakeup", "IPIs/wakeup", "function-call IPIs per wakeup"),
    ("run_delay_ms_per_s", "runq wait ms/s", "time tasks waited on a runqueue (schedstat run_delay), "
     "summed over tasks, per second"),
    ("idle_pct", "idle %", "CPU time idle (and iowait) during the run, percent of all CPUs"),
]
# Hardware counters and tracepoint counts (perf_event_open, as perf stat
# -a): exploratory rows; (rate, column, counter key(s) it needs)
PERF_RATES = [
    ("cycles_per_s", "cycles/s", ("hw_cycles",)),
    ("instructions_per_s", "instructions/s", ("hw_instructions",)),
    ("ipc", "IPC", ("hw_instructions", "hw_cycles")),
    ("cache_misses_per_s", "cache-misses/s", ("hw_cache_misses",)),
    ("cache_misses_per_kinstr", "cache-misses/1k instr", ("hw_cache_misses", "hw_instructions")),
    ("tp_migrate_task_per_s", "sched_migrate_task/s", ("tp_sched_migrate_task",)),
    ("tp_wakeup_per_s", "sched_wakeup/s", ("tp_sched_wakeup",)),
    ("migrations_llc_local_per_s", "LLC-local migrations/s", ("tp_migrate_cross_llc", "tp_sched_migrate_task")),
    ("migrations_cross_llc_per_s", "cross-LLC migrations/s", ("tp_migrate_cross_llc",)),
    ("cross_llc_pct", "cross-LLC % of migrations", ("tp_migrate_cross_llc", "tp_sched_migrate_task")),
]
# Seed 001's counters (module stats/): EEVDF (6.12, 7.3) and CFS (6.1)
EEVDF_COUNTERS = ("check_deadline", "update_deadline", "preempt_deadline", "preempt_deadline_lazy",
                  "tick_check_preempts", "tick_preempts")


def run_rates(run):
    c = run.get("counters") or {}
    el = run.get("elapsed_s") or 0
    r = {}
    if el > 0:
        for key, name in (("migrations", "migrations_per_s"), ("ipi_cal", "ipi_per_s"),
                          ("ctxt", "ctxt_per_s"), ("wakeups", "wakeups_per_s")):
            if c.get(key) is not None:
                r[name] = c[key] / el
        for k, v in (c.get("module") or {}).items():
            r["module." + k + "_per_s"] = v / el
        for key, name in (("hw_cycles", "cycles_per_s"), ("hw_instructions", "instructions_per_s"),
                          ("hw_cache_misses", "cache_misses_per_s"),
                          ("tp_sched_migrate_task", "tp_migrate_task_per_s"),
                          ("tp_sched_wakeup", "tp_wakeup_per_s")):
            if c.get(key) is not None:
                r[name] = c[key] / el
    if c.get("hw_instructions") is not None and c.get("hw_cycles"):
        r["ipc"] = c["hw_instructions"] / c["hw_cycles"]
    if c.get("hw_cache_misses") is not None and c.get("hw_instructions"):
        r["cache_misses_per_kinstr"] = 1000.0 * c["hw_cache_misses"] / c["hw_instructions"]
    if el > 0 and c.get("run_delay_ns") is not None:
        r["run_delay_ms_per_s"] = c["run_delay_ns"] / 1e6 / el
    if c.get("cpu_total"):
        r["idle_pct"] = 100.0 * (c.get("cpu_idle") or 0) / c["cpu_total"]
    cross, mig = c.get("tp_migrate_cross_llc"), c.get("tp_sched_migrate_task")
    if cross is not None and mig is not None:
        if el > 0:
            r["migrations_cross_llc_per_s"] = cross / el
            r["migrations_llc_local_per_s"] = max(0, mig - cross) / el
        if mig:
            r["cross_llc_pct"] = 100.0 * cross / mig
    if c.get("migrations") is not None:
        # with a fixed amount of work, immune to how fast time runs
        r["migrations_per_run"] = float(c["migrations"])
    if c.get("ipi_cal") is not None and c.get("wakeups"):
        r["ipi_per_wakeup"] = c["ipi_cal"] / c["wakeups"]
    return r


# The declared headline family: the figures the upstream patches were
# measured on.  Only comparisons in it (every configuration against the
# baseline, and the hook cost: passthrough against unloaded on pipe) are
# tested for a mark, with the Benjamini-Hochberg correction over the whole
# family; every other comparison is exploratory (shown, never marked).
# A workload of the user's own (--cmd) declares its figure a headline too.
HEADLINE_METRICS = {
    "hackbench": "time_s",         # hackbench time
    "tbench": "mb_per_s",          # tbench throughput
    "wakelat": "p99_us",           # wakeup latency p99
    "pipe": "usecs_per_op",        # pipe ping-pong latency
    "numa": "passes_per_s",        # NUMA workload's pace (its runtime per pass)
    "cpurate": "units_per_s",      # seed 001's SPECrate-like throughput
}
HOOK_COST = ("pipe", "usecs_per_op", "passthrough", "unloaded")
DEFAULT_ALPHA = 0.05


def headline_metric(w):
    """The workload's figure in the headline family, or None."""
    if w.get("headline"):
        return w["headline"]
    return HEADLINE_METRICS.get(w["name"].split("-")[0])


# Figures that can be 0 (counts, spreads) are compared as differences;
# every other figure of a workload (a time, a latency, a rate: positive
# by nature) as a ratio on the log scale.  Fixed by the figure, never by
# its values.
LINEAR_FIGURES = ("numa_pte_updates", "numa_hint_faults", "copy_cv_pct", "starved")


def scale_of(m):
    """'log' or 'linear': how a figure is compared (its own "scale", else
    from its name and direction, for results of older benches)."""
    if m.get("scale") in ("log", "linear"):
        return m["scale"]
    if m.get("name") in LINEAR_FIGURES:
        return "linear"
    return "log" if m.get("better") in ("lower", "higher") else "linear"


def estimator_of(m):
    """One estimator per figure: the geometric mean for log-scale figures
    (times, latencies, throughputs), the mean for linear ones (counts)."""
    return stats.SCALE_ESTIMATOR[scale_of(m)]


def est_label(est):
    return {"gmean": "Gmean", "hmean": "Hmean", "mean": "mean"}.get(est, est)


def valid_alpha(a):
    return isinstance(a, (int, float)) and not isinstance(a, bool) and 0.0 < a < 1.0


def data_alpha(data):
    """The run's alpha; a stored value outside (0, 1) (an old bench took
    --alpha 5) is replaced by 0.05, and the report says so (in the
    summary: results.json stays as it is)."""
    a = data.get("alpha", DEFAULT_ALPHA)
    if valid_alpha(a):
        return a
    data.setdefault("notes", []).append(
        "alpha %r in results.json is outside (0, 1): %g used instead" % (a, DEFAULT_ALPHA))
    data["alpha_recorded"] = a
    data["alpha"] = DEFAULT_ALPHA
    return DEFAULT_ALPHA


def _metric_summary(vals, estimator):
    s = stats.summary(vals)
    s["values"] = vals
    s["estimator"] = estimator
    s["estimate"] = stats.estimate(vals, estimator) if vals else None
    s["coeffvar"] = stats.coeffvar(vals)
    return s


def _figures(r):
    f = r.get("figures")
    return f if isinstance(f, dict) else {}


def _num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _round(r):
    v = r.get("rep")
    return v if isinstance(v, int) and not isinstance(v, bool) else 0


def timed_runs(data):
    """[(order index, run)]: every run but the calibrations, numbered in the
    order they ran (warm-ups count: they took their place in the order)."""
    out = []
    i = 0
    for r in data.get("runs", []):
        if r.get("calibration"):
            continue
        i += 1
        out.append((i, r))
    return out


class Ctx:
    """What the comparisons of one summary need: the fitted models per
    (workload, figure key) and alpha."""

    def __init__(self, alpha):
        self.alpha = alpha
        self.fits = {}

    def cmp(self, cells, w, metric, a, b):
        """a vs b on one figure of workload w (metric: a figure's name or
        rates.KEY), from the paired model; None where either has no value."""
        ca, cb = cells.get(w, {}).get(a), cells.get(w, {}).get(b)
        if not ca or not cb:
            return None
        msa, msb = _cell_vals(ca, metric), _cell_vals(cb, metric)
        if not msa.get("n") or not msb.get("n"):
            return None
        fit, scale = self.fits.get((w, metric), (None, "linear"))
        return make_cmp(fit, scale, a, b, msa, msb, self.alpha)


def make_cmp(fit, scale, a, b, msa, msb, alpha):
    """The comparison of configuration a with b from the model."""
    out = {"estimator": msa.get("estimator"), "scale": scale, "est_a": msa.get("estimate"),
           "est_b": msb.get("estimate"), "n_a": msa["n"], "n_b": msb["n"], "pct": None,
           "ci_pct": None, "p": None, "mde_pct": None, "mde_down_pct": None, "significant": False,
           "alpha": alpha, "level": 1.0 - alpha, "note": None,
           "model": fit.terms if fit is not None else None}
    c = fit.contrast(a, b) if fit is not None else None
    if c is None:
        if out["est_a"] is not None and out["est_b"] is not None:
            out["pct"] = stats.pct_change(out["est_a"], out["est_b"])
        out["note"] = "n<2" if min(msa["n"], msb["n"]) < 2 else "too few runs for the model"
        return out
    d, se, df = c
    out.update(d=d, se=se, df=df)
    if scale == "log":
        ch = stats.log_change(d, se, df, alpha)
    else:
        ch = stats.lin_change(d, se, df, msb.get("mean") or 0.0, alpha)
        out["base_mean"] = msb.get("mean")
    out.update(ch)
    out["significant"] = out.get("p") is not None and out["p"] < alpha
    return out


def reinterval(cmp, alpha_ci, alpha_mde):
    """cmp's interval at 1 - alpha_ci and its smallest detectable change at
    alpha_mde, from its stored estimate, standard error and df."""
    if cmp.get("se") in (None, 0.0):
        return
    if cmp["scale"] == "log":
        ci = stats.log_change(cmp["d"], cmp["se"], cmp["df"], alpha_ci)
        md = stats.log_change(cmp["d"], cmp["se"], cmp["df"], alpha_mde)
    else:
        ci = stats.lin_change(cmp["d"], cmp["se"], cmp["df"], cmp.get("base_mean") or 0.0, alpha_ci)
        md = stats.lin_change(cmp["d"], cmp["se"], cmp["df"], cmp.get("base_mean") or 0.0, alpha_mde)
    if ci.get("ci_pct"):
        cmp["ci_pct"] = ci["ci_pct"]
        cmp["level"] = 1.0 - alpha_ci
        cmp["mde_pct"], cmp["mde_down_pct"] = md["mde_pct"], md["mde_down_pct"]
        cmp["mde_alpha"] = alpha_mde


def aa_configs(data):
    """The A/A configurations (--aa): a copy of the baseline under another name."""
    return [c["name"] for c in data.get("configs", []) if c.get("kind") == "aa" and not c.get("skip")]


def summarize(data):
    """Per workload x configuration: every figure's statistics (with its
    estimator and CoeffVar), the rates, the comparison with the baseline
    from the paired model, the drift test, the headline family corrected
    with Benjamini-Hochberg (its intervals at the FCR-adjusted level),
    the A/A check.  Stores the summary in data["summary"] (callers pass
    a copy: results.json is never rewritten)."""
    alpha = data_alpha(data)
    ctx = Ctx(alpha)
    base = data.get("baseline", "stock")
    cfgs = [c for c in data.get("configs", []) if not c.get("skip")]
    timed = [(i, r) for i, r in timed_runs(data) if isinstance(r, dict) and not r.get("warmup")]
    cells, drifts = {}, {}
    for w in data.get("workloads", []):
        wc = cells.setdefault(w["name"], {})
        obs = {}
        for cn in [c["name"] for c in cfgs if runs_on(c, w["name"])]:
            mine = [(i, r) for i, r in timed if r.get("workload") == w["name"] and r.get("config") == cn]
            good = [(i, r) for i, r in mine if r.get("ok")]
            cell = {"n": len(good), "runs": len(mine), "failed": len(mine) - len(good),
                    "metrics": {}, "rates": {}}
            for m in w.get("metrics", []):
                sc = scale_of(m)
                vals, missing, invalid = [], 0, 0
                for i, r in good:
                    v = _figures(r).get(m["name"])
                    if not _num(v):
                        missing += 1
                        continue
                    if sc == "log" and v <= 0:
                        invalid += 1
                        continue
                    vals.append(float(v))
                    obs.setdefault(m["name"], []).append(
                        (cn, _round(r), i, math.log(v) if sc == "log" else float(v)))
                ms = _metric_summary(vals, estimator_of(m))
                ms.update(scale=sc, missing=missing, invalid=invalid)
                cell["metrics"][m["name"]] = ms
            rate_vals = {}
            for i, r in good:
                for k, v in run_rates(r).items():
                    if _num(v):
                        rate_vals.setdefault(k, []).append(v)
                        obs.setdefault("rates." + k, []).append((cn, _round(r), i, float(v)))
            for k, vals in rate_vals.items():
                cell["rates"][k] = _metric_summary(vals, "mean")
                cell["rates"][k]["scale"] = "linear"
            wc[cn] = cell
        scales = {m["name"]: scale_of(m) for m in w.get("metrics", [])}
        for key, o in obs.items():
            ctx.fits[(w["name"], key)] = (model.fit(o), scales.get(key, "linear"))
        dm = headline_metric(w) or (w["metrics"][0]["name"] if w.get("metrics") else None)
        if dm and obs.get(dm):
            dr = model.drift(obs[dm], scales.get(dm, "linear"), alpha)
            dr["metric"] = dm
            drifts[w["name"]] = dr
        for cn, cell in wc.items():
            cell["vs_baseline"] = {}
            if base not in wc or cn == base:
                continue
            for m in list(cell["metrics"]) + ["rates." + k for k in cell["rates"]]:
                cmp = ctx.cmp(cells, w["name"], m, cn, base)
                if cmp:
                    cell["vs_baseline"][m] = cmp
    family = []
    for w in data.get("workloads", []):
        hm = headline_metric(w)
        wc = cells.get(w["name"], {})
        if not hm:
            continue
        for cn, cell in wc.items():
            cmp = cell["vs_baseline"].get(hm)
            if cmp:
                family.append(((w["name"], hm, cn, base), cmp))
    hw, hmet, ha, hb = HOOK_COST
    if hb != base and ha in cells.get(hw, {}) and hb in cells.get(hw, {}):
        cmp = ctx.cmp(cells, hw, hmet, ha, hb)
        if cmp:
            family.append(((hw, hmet, ha, hb), cmp))
    adj = stats.bh_adjust([c["p"] for _, c in family])
    fam_index = {}
    tested = len([p for p in adj if p is not None])
    marked = 0
    for (key, cmp), pa in zip(family, adj):
        cmp["family"] = "headline"
        cmp["p_bh"] = pa
        cmp["significant"] = pa is not None and pa <= alpha
        marked += cmp["significant"]
        fam_index["|".join(key)] = cmp
    # intervals that match the marks: the FCR-adjusted level of Benjamini
    # and Yekutieli (1 - R alpha / m, R marked of m); the detectable
    # change at alpha / m, what one real effect among m must reach
    a_ci = max(marked, 1) * alpha / tested if tested else alpha
    a_mde = alpha / tested if tested else alpha
    for _, cmp in family:
        reinterval(cmp, a_ci, a_mde)
    for wc in cells.values():
        for cell in wc.values():
            for cmp in cell["vs_baseline"].values():
                if "family" not in cmp:
                    cmp["family"] = "exploratory"
                    cmp["p_bh"] = None
                    cmp["significant"] = False
    mdes = sorted(c["mde_pct"] for _, c in family if c.get("mde_pct") is not None)
    data["summary"] = {
        "cells": cells, "family": fam_index, "alpha": alpha,
        "correction": "Benjamini-Hochberg, q = %g, over %d headline comparisons" % (alpha, tested),
        "family_size": tested, "marked": marked, "level": 1.0 - a_ci, "mde_alpha": a_mde,
        "detectable": {"n": len(mdes), "median": stats.median(mdes) if mdes else None,
                       "min": mdes[0] if mdes else None, "max": mdes[-1] if mdes else None},
        "stats_backend": stats.BACKEND, "power": stats.POWER, "drift": drifts,
        "failures": failures(data, cells),
        "method": {"model": "figure = configuration + round + slope x run order (least squares; "
                            "log of the figure for times and rates)",
                   "estimators": dict(stats.ESTIMATORS)}}
    data["summary"]["aa"] = aa_check(data, cells, ctx)
    data["summary"]["headline"] = headline(data, cells, ctx)
    return data["summary"]


def failures(data, cells):
    """Runs that failed (or whose configuration did not verify) and figures
    missing or invalid in runs that did not: counted, for the report and
    the exit status."""
    out = {"failed_runs": 0, "missing_figures": 0, "invalid_figures": 0, "cells": []}
    for w, wc in cells.items():
        for cn, cell in wc.items():
            miss = sum(ms.get("missing", 0) for ms in cell["metrics"].values())
            inv = sum(ms.get("invalid", 0) for ms in cell["metrics"].values())
            out["failed_runs"] += cell["failed"]
            out["missing_figures"] += miss
            out["invalid_figures"] += inv
            if cell["failed"] or miss or inv:
                out["cells"].append({"workload": w, "config": cn, "failed": cell["failed"],
                                     "missing": miss, "invalid": inv})
    out["failed_calibrations"] = len([r for r in data.get("runs", []) if isinstance(r, dict)
                                      and r.get("calibration") and not r.get("ok")])
    out["any"] = bool(out["failed_runs"] or out["missing_figures"] or out["invalid_figures"])
    return out


def aa_check(data, cells, ctx):
    """--aa: the baseline against its own copy on every figure of every
    workload.  With a sound noise model about alpha of these intervals
    exclude 0 and no headline comparison of it is marked."""
    names = aa_configs(data)
    if not names:
        return None
    base = data.get("baseline", "stock")
    rows = []
    for w in data.get("workloads", []):
        for m in w.get("metrics", []):
            for a in names:
                cmp = ctx.cmp(cells, w["name"], m["name"], a, base)
                if cmp and cmp.get("ci_pct"):
                    rows.append({"workload": w["name"], "metric": m["name"], "config": a,
                                 "pct": cmp["pct"], "ci_pct": cmp["ci_pct"], "p": cmp["p"],
                                 "excludes_0": cmp["ci_pct"][0] > 0 or cmp["ci_pct"][1] < 0})
    k = len(rows)
    x = len([r for r in rows if r["excludes_0"]])
    fam = data["summary"]["family"]
    marks = [key for key, c in fam.items() if key.split("|")[2] in names and c.get("significant")]
    # P(X >= x) for X ~ Binomial(k, alpha): more A/A intervals off 0 than chance gives?
    tail = math.fsum(math.comb(k, j) * ctx.alpha ** j * (1 - ctx.alpha) ** (k - j) for j in range(x, k + 1)) if k else None
    ok = not marks and (tail is None or tail >= 0.01)
    return {"configs": names, "comparisons": k, "excluding_0": x, "expected": ctx.alpha * k,
            "binomial_tail_p": tail, "marked": marks, "ok": ok, "rows": rows}


def _cell_vals(cell, metric):
    if metric.startswith("rates."):
        return cell["rates"].get(metric[6:], {})
    return cell["metrics"].get(metric, {})


def _compare(data, cells, ctx, w, a, b, metric):
    """a vs b on one figure, for a headline section: the family's own
    comparison when it is one of the family, else an exploratory one."""
    fam = data["summary"]["family"].get("|".join((w, metric, a, b)))
    cmp = fam
    if cmp is None:
        cmp = ctx.cmp(cells, w, metric, a, b)
        if cmp is None:
            return None
        cmp.update(family="exploratory", p_bh=None, significant=False)
    return {"workload": w, "metric": metric, "a": a, "b": b, "cmp": cmp,
            "n_a": cmp["n_a"], "n_b": cmp["n_b"]}


def headline(data, cells, ctx):
    """The headline figures every report prints."""
    wnames = [w["name"] for w in data.get("workloads", [])]
    hb = [w for w in wnames if w.startswith("hackbench")]
    support = (data.get("stamp") or {}).get("module_support") or {}
    out = []

    def c(w, a, b, metric):
        return _compare(data, cells, ctx, w, a, b, metric)

    def unsupported(feature):
        s = support.get(feature) or {}
        if s.get("state") == "unsupported":
            return "%s is unsupported on this kernel (%s)" % (feature, s.get("reason") or "no reason given")
        return None

    def add(key, title, items, why=None, feature=None):
        items = [i for i in items if i]
        note = unsupported(feature) if feature else None
        if note:
            # seed vs stock would compare the other features: say so instead
            items = []
            why = note
        out.append({"key": key, "title": title, "items": items,
                    "missing": None if items else (why or "not measured")})
        # a seed that lacks some feature on this kernel: say which
        if key == "losses" and items:
            gone = [f for f in ("ratelimit", "cache_level", "numa_scan") if unsupported(f)]
            if gone:
                out[-1]["note"] = "seed here lacks %s (unsupported on this kernel)" % ", ".join(gone)

    add("hook_cost", "Hook cost: passthrough vs unloaded, pipe ping-pong (usecs/op)",
        [c("pipe", "passthrough", "unloaded", "usecs_per_op")],
        "needs the pipe workload and the passthrough and unloaded configurations")
    items = []
    for w in hb:
        for cfg in ("seed", "ratelimit"):
            items.append(c(w, cfg, "stock", "rates.migrations_per_s"))
            items.append(c(w, cfg, "stock", "rates.migrations_per_run"))
            items.append(c(w, cfg, "stock", "time_s"))
    add("ratelimit", "Rate limit: migrations/s and hackbench time, seed (and ratelimit alone) vs stock", items,
        "needs hackbench and the seed/ratelimit and stock configurations", "ratelimit")
    items = []
    for w in hb:
        items.append(c(w, "cache_level", "stock", "rates.ipi_per_wakeup"))
        items.append(c(w, "cache_level", "stock", "time_s"))
    add("cache_level", "Cache level: IPIs per wakeup and hackbench time, l2 (cache_level) vs llc (stock)", items,
        "needs hackbench, the cache_level and stock configurations (and schedstats for wakeups)", "cache_level")
    add("numa", "NUMA: passes/s, numa_pte_updates and numa_hint_faults per run, threshold 50 (numa_scan) vs 0 (stock)",
        [c("numa", "numa_scan", "stock", "passes_per_s"),
         c("numa", "numa_scan", "stock", "numa_pte_updates"),
         c("numa", "numa_scan", "stock", "numa_hint_faults"),
         c("numa", "seed", "stock", "numa_pte_updates")],
        "needs the numa workload (2+ NUMA nodes, NUMA balancing on) and the numa_scan and stock configurations",
        "numa_scan")
    items = [c("wakelat", "ttwu-queue-default", "stock", "requests_per_s"),
             c("wakelat", "ttwu-queue-default", "stock", "p99_us")]
    items += [c(w, "ttwu-queue-default", "stock", "rates.ipi_per_wakeup") for w in hb]
    add("ttwu_queue_default", "TTWU_QUEUE_DEFAULT: schbench-like requests/s and wakeup p99 (wakelat), IPIs per "
        "hackbench wakeup, none (ttwu-queue-default) vs llc (stock)", items,
        "needs wakelat or hackbench and the ttwu-queue-default and stock configurations", "cache_level")
    add("losses", "Where upstream lost: tbench throughput and wakeup-latency p99, seed vs stock",
        [c("tbench", "seed", "stock", "mb_per_s"),
         c("wakelat", "seed", "stock", "p99_us"),
         c("wakelat", "seed", "stock", "requests_per_s")],
        "needs tbench/wakelat and the seed and stock configurations")
    eevdf_headline(data, cells, add, c, out)
    for w in data.get("workloads", []):
        if w.get("user"):
            hm = headline_metric(w)
            add("user_" + w["name"], "Your workload %s: %s, every configuration vs %s" % (
                w["name"], hm, data.get("baseline", "stock")),
                [c(w["name"], cn, data.get("baseline", "stock"), hm)
                 for cn in cells.get(w["name"], {}) if cn != data.get("baseline", "stock")],
                "no configuration besides the baseline ran")
    return out


def eevdf_counter_names(cells, workload):
    """Seed 001's counters this kernel's module has (rates of the cpurate
    cells): the EEVDF ones on 6.12/7.3, the CFS ones on 6.1."""
    have = set()
    for cell in cells.get(workload, {}).values():
        have |= {k for k in cell.get("rates", {}) if k.startswith("module.")}
    return [n for n in EEVDF_COUNTERS if "module.%s_per_s" % n in have]


def preempt_counter(cells, workload):
    """The tick-preemption counter this kernel has: preempt_deadline
    (EEVDF), else tick_preempts (CFS, 6.1), whichever counted anything."""
    names = eevdf_counter_names(cells, workload)
    for n in ("preempt_deadline", "tick_preempts"):
        if n in names and any((cell.get("rates", {}).get("module.%s_per_s" % n) or {}).get("max")
                              for cell in cells.get(workload, {}).values()):
            return n
    return None


def eevdf_headline(data, cells, add, c, out):
    """Seed 001: tick preemptions per second and throughput under the
    fixed 12 ms and the scaled slice against the counters at stock."""
    w = "cpurate"
    pc = preempt_counter(cells, w)
    items = []
    if pc:
        for cfg in ("eevdf-fixed12", "eevdf-scaled"):
            items.append(c(w, cfg, "eevdf-stock", "rates.module.%s_per_s" % pc))
            items.append(c(w, cfg, "eevdf-stock", "units_per_s"))
    skipped = ["%s (%s)" % (cf["name"], cf["skip"]) for cf in data.get("configs", [])
               if cf["name"] in ("eevdf-fixed12", "eevdf-scaled") and cf.get("skip")]
    add("eevdf", "Seed 001: tick preemptions/s and cpurate throughput, fixed 12 ms and scaled slice vs "
        "the counters at stock (eevdf-stock)", items,
        ("needs the cpurate workload, eevdf-stock and eevdf-fixed12 or eevdf-scaled, and a module "
         "whose preemption counter counted" + ("; skipped: " + "; ".join(skipped) if skipped else "")))
    h = out[-1]
    h["preempt_counter"] = pc
    if skipped:
        h["note"] = "skipped on this kernel: " + "; ".join(skipped)
    # every configuration's preemptions per second: the seed's ratio;
    # per tick too, and how far apart the ticks came, since a tick that
    # comes later than the slice moves the deadline whatever the slice
    rows = []
    ck = {"preempt_deadline": "check_deadline", "tick_preempts": "tick_check_preempts"}.get(pc)
    base = cells.get(w, {}).get("eevdf-stock")
    bmean = (base or {}).get("rates", {}).get("module.%s_per_s" % pc, {}).get("mean") if pc else None
    cpus = (data.get("stamp") or {}).get("cpus_online")
    for cn, cell in cells.get(w, {}).items():
        rs = cell.get("rates", {}).get("module.%s_per_s" % pc) if pc else None
        if not rs or not rs.get("n") or not rs.get("max"):
            continue
        ticks = (cell.get("rates", {}).get("module.%s_per_s" % ck) or {}).get("mean") if ck else None
        rows.append({"config": cn, "n": rs["n"], "mean": rs["mean"], "coeffvar": rs.get("coeffvar"),
                     "ratio_to_eevdf_stock": (bmean / rs["mean"]) if bmean and rs["mean"] else None,
                     "ticks_per_s": ticks, "per_tick": rs["mean"] / ticks if ticks else None,
                     # cpurate keeps every CPU busy: every tick finds a fair task
                     "tick_ms": 1000.0 * cpus / ticks if ticks and isinstance(cpus, int) and pc == "preempt_deadline"
                     else None})
    h["per_config"] = rows
    st = next((r for r in rows if r["config"] == "eevdf-stock"), None)
    h["tick_ms"] = st["tick_ms"] if st else None


# --- Markdown ------------------------------------------------------------------
def fmt_pct(v):
    if v is None:
        return "n/a"
    if math.isinf(v):
        return "inf"
    if abs(v) >= 1e4:
        return "%+.3g%%" % v
    return "%+.1f%%" % v


def _pct1(v):
    """A percentage without sign: 12.3%, or 1.19e+09% when it is huge."""
    return "%.3g%%" % v if abs(v) >= 1e4 else "%.1f%%" % v


def change(cmp):
    """'-12.3% [-15.0, -9.6]': the change of the estimator and its interval."""
    if cmp is None or cmp.get("pct") is None:
        return "n/a"
    txt = fmt_pct(cmp["pct"])
    ci = cmp.get("ci_pct")
    if ci:
        txt += " [%s, %s]" % (fmt_pct(ci[0]).rstrip("%"), fmt_pct(ci[1]))
    return txt


def mark(cmp):
    """'-12.3% [-15.0, -9.6]\\*': a headline comparison that survives the
    Benjamini-Hochberg correction; '(-0.4% [...])' one that does not or
    that is exploratory; '(n<2)' / '(no spread)' where there is no test."""
    if cmp is None:
        return "n/a"
    if cmp.get("pct") is None:
        return "n/a (%s)" % cmp["note"] if cmp.get("note") else "n/a"
    txt = change(cmp)
    if cmp.get("note"):
        return "(%s) (%s)" % (txt, cmp["note"])
    return txt + "\\*" if cmp.get("significant") else "(" + txt + ")"


def fmt_p(p):
    return "n/a" if p is None else "%.3g" % p


def verdict(cmp):
    """The family column: the BH-adjusted p of a headline comparison, or
    'exploratory'."""
    if cmp is None:
        return ""
    if cmp.get("family") != "headline":
        return "exploratory"
    return "BH p %s" % fmt_p(cmp.get("p_bh"))


def fmt_mde(cmp):
    """The smallest detectable change on the figure's own scale: a ratio
    (-19%/+23%: a decrease or an increase) or a difference (+-12%)."""
    v = cmp.get("mde_pct") if cmp else None
    if v is None:
        return "n/a"
    dn = cmp.get("mde_down_pct")
    if cmp.get("scale") == "log" and dn is not None:
        return "-%s/+%s" % (_pct1(dn), _pct1(v))
    return "±" + _pct1(v)


def fmt_count(ms, cell=None):
    """n with what is not in it: '4 (+1 failed, +1 missing)'."""
    extra = []
    if cell and cell.get("failed"):
        extra.append("+%d failed" % cell["failed"])
    if ms.get("missing"):
        extra.append("+%d missing" % ms["missing"])
    if ms.get("invalid"):
        extra.append("+%d invalid (<= 0)" % ms["invalid"])
    return "%d%s" % (ms.get("n", 0), " (%s)" % ", ".join(extra) if extra else "")


def fmt_level(cmp):
    lv = cmp.get("level") if cmp else None
    if lv is None or not cmp.get("ci_pct"):
        return ""
    return "%.4g%%" % (100 * lv)


def metric_label(m):
    d = {"lower": ", lower is better", "higher": ", higher is better"}.get(m.get("better"), "")
    return "%s (%s%s)" % (m["name"], m["unit"], d)


def esc(s):
    return str(s).replace("|", "\\|")


def md_perf_rates(data, cells, cfgs, base, alpha):
    """The hardware counters and tracepoint counts of one workload
    (exploratory), or one line that says they were not available."""
    methods = (data.get("stamp") or {}).get("counter_methods") or {}
    cols = [(k, name) for k, name, keys in PERF_RATES
            if any(cells.get(cn, {}).get("rates", {}).get(k) for cn in cfgs)]
    gone = sorted({keys[0] for k, name, keys in PERF_RATES if k not in dict(cols)})
    L = []
    if cols:
        L += ["Hardware counters and sched tracepoints, system-wide (perf_event_open as perf stat -a; "
              "means; change vs %s [%d%% CI], all exploratory):" % (base, int(round(100 * (1 - alpha)))), "",
              "| config | " + " | ".join(n for _, n in cols) + " |", "|---|" + "---|" * len(cols)]
        for cn in cfgs:
            cell = cells.get(cn)
            if not cell or not cell["n"]:
                continue
            vals = []
            for k, _ in cols:
                rs = cell["rates"].get(k)
                if not rs:
                    vals.append("n/a")
                    continue
                v = fmt_num(rs["mean"])
                if cn != base:
                    v += " " + mark(cell["vs_baseline"].get("rates." + k))
                vals.append(v)
            L.append("| `%s` | %s |" % (cn, " | ".join(vals)))
        L.append("")
    if gone and not any(k in methods for k, _, _, _ in _perf_keys()):
        return L + ["Hardware counters and sched tracepoints: not recorded (results of a bench before them).", ""]
    notav = []
    for key in gone:
        m = methods.get(key) or "not recorded"
        notav.append("%s %s" % (key.split("_", 1)[1].replace("_", "-"), m if m.startswith("not") else "counted nothing"))
    if notav:
        L += ["Not available here: %s." % "; ".join(notav), ""]
    return L


def _perf_keys():
    from .counters import HW_EVENTS, TP_EVENTS
    return HW_EVENTS + TP_EVENTS


# Ticks further apart than LATE_TICK_MS (HZ=250 is 4 ms) let a 12 ms
# slice skip fewer of them: with ticks T ms apart the deadline of a slice
# S moves about once every S / T ticks, so S / T bounds the cut; at
# FIXED_SLICE_MS or more it moves at every tick whatever the slice.
LATE_TICK_MS = 6.0
FIXED_SLICE_MS = 12.0


def md_per_config(h):
    """Seed 001's figure: each configuration's tick preemptions per second
    and how many times fewer than under eevdf-stock."""
    rows = h.get("per_config") or []
    if not rows:
        return []
    pc = h.get("preempt_counter")
    L = ["%s per second of cpurate, per configuration (mean; eevdf-stock / this = how many times "
         "fewer preemptions; seed 001 saw 3x between EEVDF's 3 ms slice and CFS; per tick: of the ticks "
         "that found a fair task):" % pc, "",
         "| config | n | %s/s | CoeffVar | eevdf-stock / this | ticks/s | per tick |" % pc,
         "|---|---|---|---|---|---|---|"]
    for r in rows:
        L.append("| `%s` | %d | %s | %s | %s | %s | %s |" % (
            r["config"], r["n"], fmt_num(r["mean"]),
            "n/a" if r.get("coeffvar") is None else "%.2f%%" % r["coeffvar"],
            "n/a" if r.get("ratio_to_eevdf_stock") is None else "%.2fx" % r["ratio_to_eevdf_stock"],
            fmt_num(r.get("ticks_per_s")), "n/a" if r.get("per_tick") is None else "%.3f" % r["per_tick"]))
    L.append("")
    tm = h.get("tick_ms")
    if tm is not None and tm >= FIXED_SLICE_MS:
        L += ["**Warning**: under eevdf-stock the ticks came %.1f ms apart per CPU on average (HZ ticks "
              "delivered late: an emulator or an overloaded host). A tick later than the slice moves the "
              "deadline whatever the slice, so no slice policy can cut preemptions here: these rows do "
              "not measure the policy." % tm, ""]
    elif tm is not None and tm > LATE_TICK_MS:
        L += ["**Note**: under eevdf-stock the ticks came %.1f ms apart per CPU on average (HZ ticks "
              "delivered late: an emulator or an overloaded host). A 12 ms slice then moves its deadline "
              "about once every %.1f ticks, so it can cut preemptions at most about %.1fx here; the seed's "
              "3x needs ticks about 4 ms apart." % (tm, FIXED_SLICE_MS / tm, FIXED_SLICE_MS / tm), ""]
    elif tm is not None:
        L += ["Ticks came %.1f ms apart per CPU on average under eevdf-stock." % tm, ""]
    return L


def md_headline(h, alpha):
    lines = ["### " + h["title"], ""]
    if h["missing"]:
        return lines + ["Not measured: %s." % h["missing"], ""] + md_per_config(h)
    if h.get("note"):
        lines += ["Note: %s." % h["note"], ""]
    lines += ["| workload | figure | A | B | change A vs B [CI] | level | p | family | smallest detectable |",
              "|---|---|---|---|---|---|---|---|---|"]
    for it in h["items"]:
        c = it["cmp"]
        lines.append("| %s | %s (%s) | %s: %s | %s: %s | %s | %s | %s | %s | %s |" % (
            it["workload"], it["metric"].replace("rates.", ""), est_label(c["estimator"]),
            it["a"], fmt_num(c["est_a"]), it["b"], fmt_num(c["est_b"]),
            mark(c), fmt_level(c), fmt_p(c.get("p")), verdict(c), fmt_mde(c)))
    lines += ["", "A and B are the estimator's value over %s runs." % (
        "/".join(sorted({"%d" % i["n_a"] for i in h["items"]} | {"%d" % i["n_b"] for i in h["items"]}))), ""]
    return lines + md_per_config(h)


def config_features(data, cname):
    for r in data.get("runs", []):
        if r["config"] == cname and r.get("ok") and r.get("observed", {}).get("features"):
            return ", ".join("%s %s" % (f, v["state"]) for f, v in sorted(r["observed"]["features"].items()))
        if r["config"] == cname and r.get("ok") and r.get("observed", {}).get("loaded") is False:
            return "module not loaded"
    return ""


def markdown(data, plot_files):
    s = data["summary"]
    st = data.get("stamp") or {}
    alpha = s["alpha"]
    base = data.get("baseline", "stock")
    hv = st.get("hypervisor", {})
    L = []
    L.append("# sched_tune bench%s" % (": " + data["title"] if data.get("title") else ""))
    L.append("")
    if hv.get("emulated"):
        L += ["> **This ran under an emulator: qemu TCG timings are not hardware timings.** "
              "Every figure below says what the mechanisms do (counts, ratios of counts), "
              "not how fast real hardware would be. Run the bench on the real server to "
              "answer whether a configuration helps there.", ""]
    elif "virtual machine" in hv.get("verdict", ""):
        L += ["> Ran in a %s: a hypervisor's scheduling of vCPUs adds noise and hides "
              "the host's topology." % hv.get("verdict"), ""]
    scx = sorted({(r.get("sched_ext") or {}).get("state") for r in data.get("runs", [])} - {None, "disabled"})
    if scx:
        L += ["> A sched_ext scheduler was in state %s during some runs: the fair-class hooks "
              "of sched_tune see none of the tasks it runs (per-run state in results.json)."
              % ", ".join(scx), ""]
    llc = sorted({json.dumps(r.get("sched_cache"), sort_keys=True) for r in data.get("runs", []) if r.get("sched_cache")})
    if len(llc) > 1:
        L += ["> SCHED_CACHE (debugfs sched/llc_balancing) changed during the bench: %s." % "; ".join(llc), ""]
    L += md_verdict(data, s)
    L.append("- command: `%s`" % data.get("command"))
    L.append("- started %s, %s, state: **%s**" % (
        data.get("started"), "took %.0f s" % data["duration_s"] if data.get("duration_s") else "",
        data.get("state")))
    order = data.get("order") or {}
    if order.get("seed") is not None:
        how = ("in a random order in each round, seed %s (`--seed %s` repeats it)"
               % (order["seed"], order["seed"]))
    else:
        how = "in the same order in every round (made before the bench had seeded orders)"
    L.append("- %d repetitions per configuration, one round after another, configurations %s; "
             "about %g s per run; compared with `%s`" % (data.get("reps", 0), how, data.get("run_seconds", 0), base))
    wu = [r for r in data.get("runs", []) if r.get("warmup")]
    if "warmup" in data:
        L.append("- warm-up: %d discarded run%s before each workload's first timed run and after "
                 "every load or unload of the module (%d in all)" % (
                     data["warmup"], "" if data["warmup"] == 1 else "s", len(wu)))
    else:
        L.append("- no warm-up runs (made before the bench had them)")
    for n in data.get("notes", []):
        L.append("- **note**: %s" % n)
    for line in machine_notes(data):
        L.append("- " + line)
    if data.get("restore_problems"):
        L.append("- **restore problems**: %s" % "; ".join(data["restore_problems"]))
    else:
        L.append("- module left as found (%s), every knob restored" % (
            "loaded" if st.get("module_loaded_at_start") else "not loaded"))
    if data.get("plots_note"):
        L.append("- **plots**: %s" % esc(data["plots_note"]))
    elif data.get("plotter"):
        L.append("- plots drawn with %s" % data["plotter"])
    L.append("")
    L += ["## Machine", "", "| | |", "|---|---|"]
    topo = st.get("topology", {})
    mod = st.get("module") or {}
    rows = [
        ("kernel", st.get("kernel")), ("OS", st.get("os")),
        ("CPU", "%s, %s CPUs online" % (st.get("cpu_model"), st.get("cpus_online"))),
        ("memory", "%d MB" % ((st.get("memory_kb") or 0) // 1024)),
        ("SMT groups", " ".join(topo.get("smt_groups", []))),
        ("L2 groups", " ".join(topo.get("l2_groups", [])) or "none reported"),
        ("LLC groups (L%s)" % topo.get("llc_level"), " ".join(topo.get("llc_groups", []))),
        ("NUMA nodes", ", ".join("%s: %s" % kv for kv in topo.get("numa_nodes", {}).items())),
        ("scheduler domains (CPU 0)", " ".join(topo.get("sched_domains_cpu0", [])) or "not shown (debugfs sched/domains: mounted debugfs, 6.x needs sched_verbose)"),
        ("hypervisor / emulator", "%s (hypervisor flag %s%s)" % (
            hv.get("verdict"), "set" if hv.get("cpuinfo_hypervisor_flag") else "clear",
            ", DMI " + " / ".join(hv[k] for k in ("dmi_sys_vendor", "dmi_product_name") if hv.get(k))
            if hv.get("dmi_sys_vendor") else "")),
        ("sched_tune", "version %s (srcversion %s)" % (mod.get("version"), mod.get("srcversion"))),
        ("features on this kernel", ", ".join("%s %s%s" % (f, v["state"], " (%s)" % v["reason"] if v.get("reason") and v["state"] == "unsupported" else "")
                                              for f, v in sorted((st.get("module_support") or {}).items()))),
        ("knobs at start", ", ".join("%s=%s" % kv for kv in sorted((st.get("module_knobs_at_start") or {}).items())) or "module not loaded"),
        ("SCHED_CACHE (debugfs sched/llc_balancing)", json.dumps(st["sched_cache"]) if st.get("sched_cache") is not None else "not present"),
        ("sched_ext", json.dumps(st["sched_ext"]) if st.get("sched_ext") is not None else "not present"),
        ("kernel.numa_balancing", st.get("numa_balancing")),
        ("NUMA scan (debugfs)", ", ".join("%s=%s" % kv for kv in (st.get("numa_balancing_debugfs") or {}).items())),
        ("kernel.sched_schedstats during the bench", st.get("schedstats")),
    ]
    rows += machine.rows(st.get("machine"))
    pg = st.get("performance_governor")
    if isinstance(pg, dict):
        rows.append(("governor during the bench", "performance on CPUs %s (--performance-governor; before: %s, put back after)"
                     % (pg.get("cpus"), machine._fmt(pg.get("previous")))))
    for k, v in (st.get("counter_methods") or {}).items():
        rows.append(("counter: " + k, v))
    for k, v in rows:
        L.append("| %s | %s |" % (esc(k), esc(v if v is not None else "n/a")))
    L.append("")

    L += ["## Configurations", "", "| name | knobs that differ from stock | features seen in its runs | notes |",
          "|---|---|---|---|"]
    for c in data.get("configs", []):
        ov = ", ".join("%s=%s" % kv for kv in (c.get("overrides") or {}).items())
        if c["knobs"] is None:
            ov = "(module not loaded)"
        notes = "; ".join(([("**skipped**: " + c["skip"])] if c.get("skip") else []) + c.get("notes", []))
        L.append("| `%s` | %s | %s | %s |" % (c["name"], esc(ov or "(none)"),
                                              esc(config_features(data, c["name"])), esc(notes or c.get("desc", ""))))
    L.append("")
    for sw in data.get("skipped_workloads", []):
        L.append("- workload `%s` skipped: %s" % (sw["name"], sw["why"]))
    if data.get("skipped_workloads"):
        L.append("")

    L += md_method(data, s, base, alpha)
    L += ["## Headline figures", ""]
    if hv.get("emulated"):
        L += ["(qemu TCG: timings are not hardware timings.)", ""]
    forests = [(w["name"], plot_files[("forest", w["name"])]) for w in data.get("workloads", [])
               if ("forest", w["name"]) in plot_files]
    if forests:
        L += ["Every headline comparison, per workload: the change with its interval (at the level of "
              "the marks) and the smallest change this run could have detected (shaded):", ""]
        for wn, pf in forests:
            L += ["![%s: headline comparisons](%s)" % (wn, pf), ""]
    for h in s["headline"]:
        L += md_headline(h, alpha)
    L += md_drift(data, s)
    L += md_aa(s)

    cfgs = [c["name"] for c in data.get("configs", []) if not c.get("skip")]
    L += ["## Workloads", ""]
    for w in data.get("workloads", []):
        cells = s["cells"].get(w["name"], {})
        L += ["### %s" % w["name"], "", w["title"] + ":", "", "    " + w["command"], ""]
        for n in w.get("notes", []):
            L.append("- " + n)
        if w.get("notes"):
            L.append("")
        hm = headline_metric(w)
        for m in w.get("metrics", []):
            est = est_label(estimator_of(m))
            L += ["**%s**: %s. Estimator: %s (%s scale); %s." % (
                metric_label(m), m["desc"], est, scale_of(m),
                "headline family" if m["name"] == hm else "exploratory"), "",
                  "| config | n | %s | CoeffVar | min | max | vs %s [CI] | level | p | family | smallest detectable |"
                  % (est, base),
                  "|---|---|---|---|---|---|---|---|---|---|---|"]
            for cn in cfgs:
                cell = cells.get(cn)
                if not cell:
                    continue
                ms = cell["metrics"].get(m["name"], {"n": 0})
                if not ms.get("n"):
                    L.append("| `%s` | %s | | | | | all runs failed or lack it | | | | |" % (cn, fmt_count(ms, cell)))
                    continue
                cmp = cell["vs_baseline"].get(m["name"])
                cv = ms.get("coeffvar")
                L.append("| `%s` | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                    cn, fmt_count(ms, cell),
                    fmt_num(ms.get("estimate")), "n/a" if cv is None else "%.2f%%" % cv,
                    fmt_num(ms["min"]), fmt_num(ms["max"]),
                    "baseline" if cn == base else mark(cmp),
                    "" if cn == base else fmt_level(cmp),
                    "" if cn == base or not cmp else fmt_p(cmp.get("p")),
                    "" if cn == base else verdict(cmp),
                    "" if cn == base else fmt_mde(cmp)))
            L.append("")
            pf = plot_files.get(("dist", w["name"], m["name"]))
            if pf:
                L += ["![%s %s per configuration](%s)" % (w["name"], m["name"], pf), ""]
        pf = plot_files.get(("order", w["name"]))
        if pf:
            L += ["Every run in the order it ran (drift of the machine shows as a slope shared "
                  "by every configuration):", "", "![%s runs in order](%s)" % (w["name"], pf), ""]
        # counts per second of work
        mod_keys = sorted({k for cn in cfgs for k in cells.get(cn, {}).get("rates", {})
                           if k.startswith("module.") and any(cells[c2]["rates"].get(k, {}).get("max", 0) > 0
                                                              for c2 in cfgs if c2 in cells)})
        L += ["Counts per second of work (means; change of the mean vs %s from the paired model "
              "[%d%% CI, unadjusted], all exploratory):"
              % (base, int(round(100 * (1 - alpha)))), "",
              "| config | " + " | ".join(r[1] for r in RATES) + " | module counters/s |",
              "|---|" + "---|" * (len(RATES) + 1)]
        for cn in cfgs:
            cell = cells.get(cn)
            if not cell or not cell["n"]:
                continue
            cols = []
            for key, _, _ in RATES:
                rs = cell["rates"].get(key)
                if not rs:
                    cols.append("n/a")
                    continue
                v = fmt_num(rs["mean"])
                if cn != base:
                    v += " " + mark(cell["vs_baseline"].get("rates." + key))
                cols.append(v)
            modc = ", ".join("%s %s" % (k[7:-6], fmt_num(cell["rates"][k]["mean"]))
                             for k in mod_keys if cell["rates"].get(k, {}).get("mean"))
            L.append("| `%s` | %s | %s |" % (cn, " | ".join(cols), modc or ""))
        L.append("")
        L += md_perf_rates(data, cells, cfgs, base, alpha)

    if data.get("sweeps"):
        L += ["## Sweeps", ""]
        for sw in data["sweeps"]:
            L += ["### %s (from `%s`)" % (sw["knob"], sw["base"]), ""]
            for w in sweep_workloads(data, sw):
                m = w["metrics"][0]
                est = est_label(estimator_of(m))
                L += ["%s, %s:" % (w["name"], metric_label(m)), "",
                      "| %s | config | n | %s | CoeffVar | min | max | vs %s [CI] | family |" % (sw["knob"], est, base),
                      "|---|---|---|---|---|---|---|---|---|"]
                for pt in sw["points"]:
                    cell = s["cells"].get(w["name"], {}).get(pt["config"])
                    ms = cell["metrics"].get(m["name"]) if cell else None
                    if not ms or not ms.get("n"):
                        L.append("| %s | `%s` | 0 | | | | | | |" % (pt["value"], pt["config"]))
                        continue
                    cmp = cell["vs_baseline"].get(m["name"])
                    cv = ms.get("coeffvar")
                    L.append("| %s | `%s` | %d | %s | %s | %s | %s | %s | %s |" % (
                        pt["value"], pt["config"], ms["n"], fmt_num(ms.get("estimate")),
                        "n/a" if cv is None else "%.2f%%" % cv, fmt_num(ms["min"]), fmt_num(ms["max"]),
                        "baseline" if pt["config"] == base else mark(cmp),
                        "" if pt["config"] == base else verdict(cmp)))
                L.append("")
                for key, what in (("sweep", ""), ("sweep_migrations", ": task migrations")):
                    pf = plot_files.get((key, sw["knob"], w["name"]))
                    if pf:
                        L += ["![%s over %s%s](%s)" % (w["name"], sw["knob"], what, pf), ""]

    L += md_failures(data, s)

    L += ["## How to read this", "",
          "- Every run was preceded by a check that the module really was in the configuration "
          "it claims: every knob read back, every feature's state (`features/<name>/state`) as "
          "the configuration implies (hooks installed: active or idle; at stock: inactive).",
          "- Configurations ran in rounds, one run of each per round, %d rounds, in a random "
          "order in each round (the seed above), so slow drift of the machine and the "
          "order a configuration runs in hit all alike." % data.get("reps", 0),
          "- `vs %s`: the change against `%s` from the paired model, with its interval at "
          "the level in the next column. A change followed by `*` (`-12.3%% [-15.0, -9.6]*`) "
          "is a headline comparison whose Benjamini-Hochberg adjusted p is at most %g: "
          "larger than the run-to-run noise, with the false discovery rate of the whole "
          "family held at %g; its interval then excludes 0. A change in parentheses is not "
          "marked: within the noise, or exploratory. **No mark means \"not shown at this "
          "noise\", never \"no effect\"**: compare the smallest detectable change with the "
          "effect you care about. `(n<2)`: too few runs for a test; `(no spread)`: neither "
          "configuration varied at all, no test is possible." % (base, base, alpha, alpha),
          "- Whether a change is good depends on the figure: times and latencies are better "
          "lower, throughputs higher (each table says which).",
          "- An interval that contains 0 means no change was measured; an interval narrower "
          "than the change you care about, or a smallest detectable effect below it, means "
          "the run could have seen it.",
          "- Counts per second are system-wide (all tasks) over the workload's own duration.",
          ""]
    return "\n".join(L)


def md_verdict(data, s):
    """The lines at the top of the report: what was marked, what this run
    could have shown, what failed, whether the machine drifted."""
    L = []
    d = s.get("detectable") or {}
    n = s.get("family_size", 0)
    if n:
        L.append("- **verdict**: %d of %d headline comparisons marked (Benjamini-Hochberg, q = %g). "
                 "This run could have shown changes of about %s or more (smallest detectable change, "
                 "80%% power at alpha/%d: median of the family; from %s to %s); a smaller effect "
                 "would not have been marked." % (
                     s.get("marked", 0), n, s["alpha"], fmt_pct_abs(d.get("median")), n,
                     fmt_pct_abs(d.get("min")), fmt_pct_abs(d.get("max"))))
    else:
        L.append("- **verdict**: no headline comparison in this run")
    f = s.get("failures") or {}
    if f.get("any") or f.get("failed_calibrations"):
        L.append("- **failures**: %d timed runs failed or did not verify, %d figures missing, %d invalid "
                 "(<= 0 on a ratio scale), %d calibrations failed: counted in every table, listed below; "
                 "the bench exits 1" % (f.get("failed_runs", 0), f.get("missing_figures", 0),
                                         f.get("invalid_figures", 0), f.get("failed_calibrations", 0)))
    dr = s.get("drift") or {}
    hot = sorted(w for w, x in dr.items() if x.get("significant"))
    if dr:
        L.append("- **drift** over the run order (figure = configuration + slope x order, p < %g, one test "
                 "per workload, unadjusted): %s" % (s["alpha"], (
                     "found in %s: the comparisons are paired by round and adjusted for the order, "
                     "an unpaired comparison would not be" % ", ".join(hot)) if hot else
                     "none found in %d workloads" % len(dr)))
    aa = s.get("aa")
    if aa:
        L.append("- **A/A check** (%s against `%s`): %s" % (", ".join("`%s`" % c for c in aa["configs"]),
                                                           data.get("baseline", "stock"), aa_verdict(aa)))
    return L


def fmt_pct_abs(v):
    return "n/a" if v is None else _pct1(v)


def aa_verdict(aa):
    txt = "%d of %d intervals exclude 0 (%.1f expected at this alpha)" % (
        aa["excluding_0"], aa["comparisons"], aa["expected"])
    if aa["marked"]:
        return txt + "; **a headline mark on an A/A pair: the noise model does not hold on this machine** (%s)" % (
            ", ".join(aa["marked"]))
    if not aa["ok"]:
        return txt + "; **more than chance gives (binomial p %.3g): the noise model does not hold on this machine**" % (
            aa["binomial_tail_p"])
    return txt + "; consistent with the noise model"


def md_method(data, s, base, alpha):
    lvl = s.get("level")
    return [
        "## Method", "",
        "- One estimator per figure, fixed by the figure (never by its values): the **geometric "
        "mean** for times, latencies and rates (ratio scale: each change is a ratio, its interval "
        "computed on the logarithms and mapped back, so it never goes below -100%), the **mean** "
        "for counts that can be 0 (each change a difference in percent of the baseline's mean). "
        "A run whose figure is missing, or <= 0 on a ratio scale, is left out and counted "
        "(`+1 missing`, `+1 invalid`), as is a run that failed (`+1 failed`).",
        "- Paired by round: each comparison comes from one least-squares model per workload and "
        "figure, %s, so a drift of the machine between rounds (the round's block) or within "
        "one (the slope over the run order) does not enter the change; the test and interval are "
        "Student's t with the model's residual degrees of freedom." % s["method"]["model"],
        "- Headline family, declared before the run: hackbench time, tbench throughput, "
        "wakeup-latency p99, pipe latency, NUMA passes/s, cpurate throughput (seed 001's "
        "SPECrate)%s, each configuration against `%s`, and the hook cost (passthrough against "
        "unloaded on pipe). Marks (`*`) only there, after the %s. Their intervals are at the "
        "false-coverage-adjusted level of Benjamini and Yekutieli, 1 - R x %g / m (R marked of m; "
        "here %s), so an interval excludes 0 exactly where the row is marked. Every other row is "
        "**exploratory**: its change and its unadjusted %d%% interval are shown, it is never "
        "marked, and its raw p is not a finding." % (
            " and your own workload's figure" if any(w.get("user") for w in data.get("workloads", [])) else "",
            base, s.get("correction"), alpha, "n/a" if lvl is None else "%.4g%%" % (100 * lvl),
            int(round(100 * (1 - alpha)))),
        "- Smallest detectable: the change a two-sided test would detect with %d%% power given "
        "this run's noise and rounds, on the figure's own scale (a ratio: the decrease and the "
        "increase, -19%%/+23%%; a difference: +-); for headline rows at alpha / m = %.3g, what one "
        "real effect among the m must reach to be marked, for exploratory rows at alpha = %g." % (
            int(round(100 * s.get("power", 0.8))), s.get("mde_alpha") or alpha, alpha),
        "- CoeffVar: the sample standard deviation in percent of the mean, per configuration.",
        "- Statistics: %s." % s.get("stats_backend"), ""]


def md_drift(data, s):
    dr = s.get("drift") or {}
    if not dr:
        return []
    L = ["### Drift over the run order", "",
         "Each workload's headline figure (else its first) against the run's index, the "
         "configurations taken out (figure = configuration + slope x order, no blocks): the change "
         "the slope makes over the workload's runs, with its %d%% interval (unadjusted, one test per "
         "workload). A drift is taken out of every comparison by the paired model; an unpaired "
         "comparison would carry it." % int(round(100 * (1 - s["alpha"]))), "",
         "| workload | figure | runs | change over the run [CI] | p | verdict |", "|---|---|---|---|---|---|"]
    for w, x in dr.items():
        if x.get("change") is None:
            L.append("| %s | %s | %s | n/a | | %s |" % (w, x.get("metric"), x.get("runs", ""), x.get("note") or ""))
            continue
        unit = "%" if x.get("scale") == "log" else ""
        L.append("| %s | %s | %d | %s%s [%s, %s%s] | %s | %s |" % (
            w, x["metric"], x["runs"], ("%+.1f" % x["change"]), unit, "%+.1f" % x["ci"][0],
            "%+.1f" % x["ci"][1], unit, fmt_p(x.get("p")),
            "**drift**" if x.get("significant") else "none found"))
    return L + [""]


def md_aa(s):
    aa = s.get("aa")
    if not aa:
        return []
    L = ["### A/A check", "",
         "The baseline against its own copy (%s), every figure of every workload, paired model, "
         "unadjusted intervals: %s." % (", ".join("`%s`" % c for c in aa["configs"]), aa_verdict(aa)), "",
         "| workload | figure | config | change [CI] | p |", "|---|---|---|---|---|"]
    for r in aa["rows"]:
        L.append("| %s | %s | `%s` | %s%s | %s |" % (
            r["workload"], r["metric"], r["config"], change({"pct": r["pct"], "ci_pct": r["ci_pct"]}),
            " (excludes 0)" if r["excludes_0"] else "", fmt_p(r["p"])))
    return L + [""]


def md_failures(data, s):
    failed = [r for r in data.get("runs", []) if not r.get("ok")]
    f = s.get("failures") or {}
    L = []
    if failed or f.get("cells"):
        L += ["## Runs that failed, were not verified or lack a figure", ""]
    if f.get("cells"):
        L += ["| workload | config | failed runs | figures missing | figures invalid (<= 0) |", "|---|---|---|---|---|"]
        for c in f["cells"]:
            L.append("| %s | `%s` | %d | %d | %d |" % (c["workload"], c["config"], c["failed"], c["missing"], c["invalid"]))
        L.append("")
    if failed:
        L += ["| workload | config | rep | kind | error |", "|---|---|---|---|---|"]
        for r in failed:
            kind = "calibration" if r.get("calibration") else "warm-up" if r.get("warmup") else "timed"
            L.append("| %s | %s | %s | %s | %s |" % (r.get("workload"), r.get("config"), r.get("rep"), kind,
                                                     esc((r.get("error") or "").splitlines()[0][:300] if r.get("error") else "")))
        L.append("")
    return L


def load_range(data, key):
    """(min, max) of the runs' 1-minute load average before or after, or None."""
    vals = [r[key][0] for r in data.get("runs", []) if isinstance(r.get(key), list) and r[key]
            and isinstance(r[key][0], (int, float))]
    return (min(vals), max(vals)) if vals else None


def machine_notes(data):
    """The noisy-machine warnings, the load around the runs and how
    --until-width ended: lines for the report and made-by.txt."""
    out = []
    for w in data.get("warnings") or []:
        out.append("**warning**: %s" % w)
    timed = [r for r in data.get("runs", []) if not r.get("calibration")]
    ib = (data.get("stamp") or {}).get("idle_baseline") or {}
    hot = [r for r in timed if r.get("noise_warning")]
    if ib.get("busy_pct") is not None:
        out.append("noise check: with the bench idle %.1f%% of the CPUs were busy at the start (the machine's "
                   "own baseline, %g s windows); a run whose quiet window before it reads more than %.1f%% is "
                   "flagged" % (ib["busy_pct"], ib.get("window_s", 0), ib.get("limit_pct") or 0))
    elif ib.get("note"):
        out.append("noise check: %s" % ib["note"])
    if hot:
        out.append("**warning**: %d of %d runs had more than %.1f%% of the CPUs busy in the quiet window before "
                   "them (other work was running; per run in results.json, idle_busy_pct)" % (
                       len(hot), len(timed), ib.get("limit_pct") or 0))
    lb, la = load_range(data, "loadavg_before"), load_range(data, "loadavg_after")
    if lb or la:
        out.append("load average (1 min) before the runs %s, after them %s" % tuple(
            "%.2f to %.2f" % x if x else "n/a" for x in (lb, la)))
    u = data.get("until")
    if isinstance(u, dict):
        out.append("`--until-width %g --budget %g`: %d rounds (at least %s); ended by **%s**" % (
            u.get("width_pct") or 0, u.get("budget_s") or 0, u.get("rounds") or 0,
            u.get("rounds_min"), u.get("ended_by") or "the bench stopping before it decided (interrupted or failed)"))
    return out


def made_by(data):
    """made-by.txt: what made these figures, on what machine, in what state."""
    st = data.get("stamp") or {}
    L = ["%s %s: %s" % (data.get("tool", "sched-tune-bench"), data.get("tool_version", "?"), data.get("command")),
         "started %s, finished %s, state %s" % (data.get("started"), data.get("finished"), data.get("state")),
         "kernel: %s" % st.get("kernel"),
         "CPU: %s, %s CPUs online" % (st.get("cpu_model"), st.get("cpus_online")),
         "hypervisor / emulator: %s" % (st.get("hypervisor") or {}).get("verdict")]
    if "machine" not in st:
        L.append("machine state: n/a (not recorded by this version of the bench)")
    for k, v in machine.rows(st.get("machine")):
        L.append("%s: %s" % (k, v))
    pg = st.get("performance_governor")
    if isinstance(pg, dict):
        L.append("governor during the bench: performance on CPUs %s (before: %s)" % (
            pg.get("cpus"), machine._fmt(pg.get("previous"))))
    for line in machine_notes(data):
        L.append(line.replace("**", "").replace("`", ""))
    return "\n".join(L) + "\n"


def normalize(data):
    """What a report needs, from any results.json this bench ever wrote
    (or a partial one: interrupted before the first workload, a run that
    failed before its figures): missing lists become empty, malformed runs
    and workloads are dropped with a note, never a traceback."""
    if not isinstance(data, dict):
        raise ValueError("results.json holds %s, not an object" % type(data).__name__)
    notes = data.setdefault("notes", [])
    for key, default in (("configs", []), ("workloads", []), ("runs", []), ("sweeps", []),
                         ("skipped_workloads", []), ("stamp", {})):
        if not isinstance(data.get(key), type(default)):
            if key in data:
                notes.append("results.json's %s is malformed: ignored" % key)
            data[key] = default
    runs = [r for r in data.get("runs", []) if isinstance(r, dict) and r.get("workload") and r.get("config")]
    if len(runs) != len(data["runs"]):
        notes.append("%d malformed runs ignored" % (len(data["runs"]) - len(runs)))
    data["runs"] = runs
    data["configs"] = [c for c in data.get("configs", []) if isinstance(c, dict) and c.get("name")]
    for c in data.get("configs", []):
        c.setdefault("knobs", None)
    wls = []
    for w in data.get("workloads", []):
        if isinstance(w, dict) and w.get("name") and isinstance(w.get("metrics"), list):
            w.setdefault("title", w["name"])
            w.setdefault("command", "")
            w["metrics"] = [m for m in w["metrics"] if isinstance(m, dict) and m.get("name")]
            for m in w["metrics"]:
                m.setdefault("unit", "")
                m.setdefault("desc", "")
            wls.append(w)
    if len(wls) != len(data["workloads"]):
        notes.append("%d malformed workloads ignored" % (len(data["workloads"]) - len(wls)))
    data["workloads"] = wls
    data["sweeps"] = [sw for sw in data["sweeps"] if isinstance(sw, dict) and sw.get("knob")
                      and isinstance(sw.get("points"), list)]
    return data


# Keys older benches wrote into results.json that are derived from it:
# recomputed from the raw runs, never read back.
DERIVED = ("summary", "plots", "plotter", "plots_note")


def prepare(data):
    """The view a report is written from: a normalized copy of the raw
    results with its summary.  The raw dictionary is never changed."""
    view = copy.deepcopy(data)
    for k in DERIVED:
        if isinstance(view, dict):
            view.pop(k, None)
    normalize(view)
    summarize(view)
    return view


def write_all(out, data, draw_plots=True, log=print, made_by_file=False):
    """report.md, summary.json and the plots (and made-by.txt) in out, from
    the raw results data, which stays as it is: results.json is written
    by the run alone.  Without a plotter (or with draw_plots False) the
    PNGs already in out/plots are linked, never dropped.  Returns the
    view (the data with its summary)."""
    view = prepare(data)
    os.makedirs(out, exist_ok=True)
    pfiles, note = {}, None
    if draw_plots:
        try:
            pfiles, note = plots.draw(out, view)
        except Exception as e:  # noqa: BLE001 - a plot must not cost the report
            pfiles, note = {}, "plots failed: %r" % e
    else:
        note = "not drawn (--no-plots)"
    if not pfiles:
        pfiles = plots.existing(out, view)
        if pfiles:
            note = "%s; the %d PNGs already in %s are linked (drawn earlier)" % (
                note or "not drawn", len(pfiles), os.path.join(out, "plots"))
    if note:
        log(note)
        view["plots_note"] = note
    view["plots"] = {"|".join(k): v for k, v in pfiles.items()}
    with open(os.path.join(out, "report.md"), "w") as f:
        f.write(markdown(view, pfiles))
    if made_by_file:
        with open(os.path.join(out, "made-by.txt"), "w") as f:
            f.write(made_by(view))
    side = {"tool": "sched-tune-bench report", "tool_version": __version__,
            "results": "results.json", "summary": view["summary"], "plots": view["plots"],
            "plotter": view.get("plotter"), "plots_note": view.get("plots_note"),
            "notes": view.get("notes", [])}
    tmp = os.path.join(out, "summary.json.tmp")
    with open(tmp, "w") as f:
        json.dump(finite(side), f, separators=(",", ":"), allow_nan=False)
    os.replace(tmp, os.path.join(out, "summary.json"))
    return view


def summary_lines(view):
    """The short summary a run ends with: the headline family's verdict,
    what it could have detected, the failures, the drift."""
    s = view.get("summary") or {}
    fam = s.get("family") or {}
    marked = [(k, c) for k, c in sorted(fam.items()) if c.get("significant")]
    d = s.get("detectable") or {}
    out = ["%d runs; %s; %d marked; smallest detectable change %s (median of the family)" % (
        len([r for r in view.get("runs", []) if not r.get("warmup") and not r.get("calibration")]),
        s.get("correction", "no headline comparison"), len(marked), fmt_pct_abs(d.get("median")))]
    for k, c in marked:
        w, m, a, b = k.split("|")
        out.append("  %s %s: %s vs %s %s" % (w, m, a, b, change(c)))
    f = s.get("failures") or {}
    if f.get("any") or f.get("failed_calibrations"):
        out.append("failures: %d runs failed, %d figures missing, %d invalid, %d calibrations failed" % (
            f.get("failed_runs", 0), f.get("missing_figures", 0), f.get("invalid_figures", 0),
            f.get("failed_calibrations", 0)))
    hot = sorted(w for w, x in (s.get("drift") or {}).items() if x.get("significant"))
    if hot:
        out.append("drift over the run order in %s (taken out by the paired model)" % ", ".join(hot))
    if s.get("aa"):
        out.append("A/A check: " + aa_verdict(s["aa"]).replace("**", ""))
    return out


def failed(view):
    """Whether any run failed or lacks a figure: the exit status says so."""
    f = (view.get("summary") or {}).get("failures") or {}
    return bool(f.get("any") or f.get("failed_calibrations"))


def finite(o):
    """JSON has no infinity: a t statistic of a spread-less sample becomes
    null (its p-value says the rest)."""
    if isinstance(o, float):
        return o if math.isfinite(o) else None
    if isinstance(o, dict):
        return {k: finite(v) for k, v in o.items()}
    if isinstance(o, (list, tuple)):
        return [finite(v) for v in o]
    return o
