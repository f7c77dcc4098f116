# SPDX-License-Identifier: GPL-2.0
"""From results.json to the summary: what the report says, as data
(markdown.py writes it as text).

Everything here reads only the results dictionary, so a report can be
written again later (sched-tune-bench report DIR), e.g. on another machine.
"""

import copy
import math

from . import model, stats
from .results import runs_on

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


def _pair(r):
    v = r.get("pair")
    return v if isinstance(v, int) and not isinstance(v, bool) else 0


def _block(r, scoped):
    """The model's block of a run: its round, or with --scoped its pair."""
    return _pair(r) if scoped else _round(r)


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
    scoped = isinstance(data.get("scoped"), dict)
    if scoped:
        # --scoped: the two runs of a pair ran at once, so the pair is the
        # block and its number the order (a slope within a pair is none)
        timed = [(_pair(r), r) for _, r in timed]
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
                        (cn, _block(r, scoped), i, math.log(v) if sc == "log" else float(v)))
                ms = _metric_summary(vals, estimator_of(m))
                ms.update(scale=sc, missing=missing, invalid=invalid)
                cell["metrics"][m["name"]] = ms
            rate_vals = {}
            for i, r in good:
                for k, v in run_rates(r).items():
                    if _num(v):
                        rate_vals.setdefault(k, []).append(v)
                        obs.setdefault("rates." + k, []).append((cn, _block(r, scoped), i, float(v)))
            for k, vals in rate_vals.items():
                cell["rates"][k] = _metric_summary(vals, "mean")
                cell["rates"][k]["scale"] = "linear"
            wc[cn] = cell
        scales = {m["name"]: scale_of(m) for m in w.get("metrics", [])}
        for key, o in obs.items():
            if scoped:
                fit = model.Fit(o, slope=False)
                fit.terms = "config + pair"  # the block: the pair, not the round
            else:
                fit = model.fit(o)
            ctx.fits[(w["name"], key)] = (fit, scales.get(key, "linear"))
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
        "method": {"model": "figure = configuration + pair (the two runs at once, --scoped) (least squares; "
                            "log of the figure for times and rates): each pair's ratio to the baseline"
                   if scoped else "figure = configuration + round + slope x run order (least squares; "
                            "log of the figure for times and rates)",
                   "estimators": dict(stats.ESTIMATORS)},
        "scoped": data["scoped"] if scoped else None}
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


def load_range(data, key):
    """(min, max) of the runs' 1-minute load average before or after, or None."""
    vals = [r[key][0] for r in data.get("runs", []) if isinstance(r.get(key), list) and r[key]
            and isinstance(r[key][0], (int, float))]
    return (min(vals), max(vals)) if vals else None


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
