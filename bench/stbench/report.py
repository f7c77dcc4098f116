# SPDX-License-Identifier: GPL-2.0
"""From results.json to the summary, report.md and the plots.

Everything here reads only the results dictionary, so a report can be
written again later (sched-tune-bench report DIR), e.g. on another machine.
"""

import json
import math
import os

from . import machine, plots, stats
from .results import runs_on, sweep_workloads
from .util import fmt_num

RATES = [
    ("migrations_per_s", "migrations/s", "task migrations per second"),
    ("migrations_per_run", "migrations/run", "task migrations per run (fixed-work workloads: per unit of work)"),
    ("ipi_per_s", "IPIs/s", "function-call IPIs (CAL) per second"),
    ("ctxt_per_s", "ctxt/s", "context switches per second"),
    ("wakeups_per_s", "wakeups/s", "wakeups (sched_wakeup tracepoint, else schedstat ttwu_count) per second"),
    ("ipi_per_wakeup", "IPIs/wakeup", "function-call IPIs per wakeup"),
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


def estimator_of(m):
    """One estimator per figure: Hmean for throughputs (higher is better,
    per second), the mean for everything else (times, latencies, counts)."""
    return "hmean" if m.get("better") == "higher" else "mean"


def valid_alpha(a):
    return isinstance(a, (int, float)) and not isinstance(a, bool) and 0.0 < a < 1.0


def data_alpha(data):
    """The run's alpha; a stored value outside (0, 1) (an old bench took
    --alpha 5) is replaced by 0.05, and the report says so."""
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
    if estimator == "hmean":
        s["hmean"] = s["estimate"]
    s["coeffvar"] = stats.coeffvar(vals)
    return s


def _figures(r):
    f = r.get("figures")
    return f if isinstance(f, dict) else {}


def _num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def summarize(data):
    """Per workload x configuration: every figure's statistics (with its
    estimator and CoeffVar), the rates, the comparison with the baseline,
    and the headline family corrected with Benjamini-Hochberg."""
    alpha = data_alpha(data)
    base = data.get("baseline", "stock")
    cfgs = [c for c in data.get("configs", []) if not c.get("skip")]
    runs = [r for r in data.get("runs", []) if isinstance(r, dict)]
    cells = {}
    for w in data.get("workloads", []):
        wc = cells.setdefault(w["name"], {})
        for cn in [c["name"] for c in cfgs if runs_on(c, w["name"])]:
            mine = [r for r in runs if r.get("workload") == w["name"] and r.get("config") == cn
                    and not r.get("calibration") and not r.get("warmup")]
            good = [r for r in mine if r.get("ok")]
            cell = {"n": len(good), "failed": len(mine) - len(good), "metrics": {}, "rates": {}}
            for m in w.get("metrics", []):
                vals = [float(_figures(r)[m["name"]]) for r in good if _num(_figures(r).get(m["name"]))]
                cell["metrics"][m["name"]] = _metric_summary(vals, estimator_of(m))
            rate_vals = {}
            for r in good:
                for k, v in run_rates(r).items():
                    rate_vals.setdefault(k, []).append(v)
            for k, vals in rate_vals.items():
                cell["rates"][k] = _metric_summary(vals, "mean")
            wc[cn] = cell
        b = wc.get(base)
        for cn, cell in wc.items():
            cell["vs_baseline"] = {}
            if b is None or cn == base:
                continue
            for m in list(cell["metrics"]) + ["rates." + k for k in cell["rates"]]:
                cmp = _compare_cells(cell, b, m, alpha)
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
        cmp = _compare_cells(cells[hw][ha], cells[hw][hb], hmet, alpha)
        if cmp:
            family.append(((hw, hmet, ha, hb), cmp))
    adj = stats.bh_adjust([c["p"] for _, c in family])
    fam_index = {}
    for (key, cmp), pa in zip(family, adj):
        cmp["family"] = "headline"
        cmp["p_bh"] = pa
        cmp["significant"] = pa is not None and pa <= alpha
        fam_index["|".join(key)] = cmp
    for wc in cells.values():
        for cell in wc.values():
            for cmp in cell["vs_baseline"].values():
                if "family" not in cmp:
                    cmp["family"] = "exploratory"
                    cmp["p_bh"] = None
                    cmp["significant"] = False
    data["summary"] = {"cells": cells, "family": fam_index, "alpha": alpha,
                       "correction": "Benjamini-Hochberg, q = %g, over %d headline comparisons"
                       % (alpha, len(family)),
                       "stats_backend": stats.BACKEND, "power": stats.POWER}
    data["summary"]["headline"] = headline(data, cells)
    return data["summary"]


def _cell_vals(cell, metric):
    if metric.startswith("rates."):
        return cell["rates"].get(metric[6:], {})
    return cell["metrics"].get(metric, {})


def _compare_cells(cell, bcell, metric, alpha):
    a, b = _cell_vals(cell, metric), _cell_vals(bcell, metric)
    va, vb = a.get("values") or [], b.get("values") or []
    if not va or not vb:
        return None
    cmp = stats.compare(va, vb, a.get("estimator", "mean"), alpha)
    if cmp.get("welch"):
        cmp["welch"] = {k: v for k, v in cmp["welch"].items() if k != "significant"}
    return cmp


def _compare(data, cells, w, a, b, metric):
    """a vs b on one figure, for a headline section: the family's own
    comparison when it is one of the family, else an exploratory one."""
    fam = data["summary"]["family"].get("|".join((w, metric, a, b)))
    ca, cb = cells.get(w, {}).get(a), cells.get(w, {}).get(b)
    if not ca or not cb:
        return None
    cmp = fam
    if cmp is None:
        cmp = _compare_cells(ca, cb, metric, data["summary"]["alpha"])
        if cmp is None:
            return None
        cmp.update(family="exploratory", p_bh=None, significant=False)
    return {"workload": w, "metric": metric, "a": a, "b": b, "cmp": cmp,
            "n_a": cmp["n_a"], "n_b": cmp["n_b"]}


def headline(data, cells):
    """The headline figures every report prints."""
    wnames = [w["name"] for w in data.get("workloads", [])]
    hb = [w for w in wnames if w.startswith("hackbench")]
    support = (data.get("stamp") or {}).get("module_support") or {}
    out = []

    def c(w, a, b, metric):
        return _compare(data, cells, w, a, b, metric)

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
    return "%+.1f%%" % v


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
    if cmp is None or cmp.get("pct") is None:
        return "n/a"
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
    v = cmp.get("mde_pct") if cmp else None
    return "n/a" if v is None else "%.1f%%" % v


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
    lines += ["| workload | figure | A | B | change A vs B [%d%% CI] | p | family | smallest detectable |" % (
        int(round(100 * (1 - alpha)))), "|---|---|---|---|---|---|---|---|"]
    for it in h["items"]:
        c = it["cmp"]
        est = "Hmean" if c["estimator"] == "hmean" else "mean"
        lines.append("| %s | %s (%s) | %s: %s | %s: %s | %s | %s | %s | %s |" % (
            it["workload"], it["metric"].replace("rates.", ""), est,
            it["a"], fmt_num(c["est_a"]), it["b"], fmt_num(c["est_b"]),
            mark(c), fmt_p(c.get("p")), verdict(c), fmt_mde(c)))
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

    L += ["## Method", "",
          "- One estimator per figure: **Hmean** (harmonic mean) for throughputs (higher is "
          "better), with Welch's t-test and interval on the reciprocals (time per unit of "
          "work); the **mean** for times, latencies and counts, with Welch's t-test and "
          "interval. Every change is the estimator's, in percent of the baseline's, with "
          "its %d%% confidence interval." % int(round(100 * (1 - alpha))),
          "- CoeffVar: the sample standard deviation in percent of the mean, per configuration.",
          "- Smallest detectable: the change a two-sided test at alpha = %g would detect with "
          "%d%% power given this run's noise and repetitions; a change smaller than it "
          "was not measurable here, whatever the table says." % (alpha, int(round(100 * s.get("power", 0.8)))),
          "- Headline family, declared before the run: hackbench time, tbench throughput, "
          "wakeup-latency p99, pipe latency, NUMA passes/s, cpurate throughput (seed 001's SPECrate)%s, each configuration against `%s`, "
          "and the hook cost (passthrough against unloaded on pipe). Marks (`*`) only there, "
          "after the %s. Every other row is **exploratory**: its change and interval are "
          "shown, it is never marked, and its raw p is not a finding." % (
              " and your own workload's figure" if any(w.get("user") for w in data.get("workloads", [])) else "",
              base, s.get("correction")),
          "- Statistics: %s." % s.get("stats_backend"), ""]
    L += ["## Headline figures", ""]
    if hv.get("emulated"):
        L += ["(qemu TCG: timings are not hardware timings.)", ""]
    for h in s["headline"]:
        L += md_headline(h, alpha)

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
            est = "Hmean" if estimator_of(m) == "hmean" else "mean"
            L += ["**%s**: %s. Estimator: %s; %s." % (
                metric_label(m), m["desc"], est,
                "headline family" if m["name"] == hm else "exploratory"), "",
                  "| config | n | %s | CoeffVar | min | max | vs %s [%d%% CI] | p | family | smallest detectable |"
                  % (est, base, int(round(100 * (1 - alpha)))),
                  "|---|---|---|---|---|---|---|---|---|---|"]
            for cn in cfgs:
                cell = cells.get(cn)
                if not cell:
                    continue
                ms = cell["metrics"].get(m["name"], {"n": 0})
                if not ms.get("n"):
                    L.append("| `%s` | 0 | | | | | %s | | | |" % (cn, "%d failed" % cell["failed"] if cell["failed"] else ""))
                    continue
                cmp = cell["vs_baseline"].get(m["name"])
                cv = ms.get("coeffvar")
                L.append("| `%s` | %d%s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                    cn, ms["n"], " (+%d failed)" % cell["failed"] if cell["failed"] else "",
                    fmt_num(ms.get("estimate")), "n/a" if cv is None else "%.2f%%" % cv,
                    fmt_num(ms["min"]), fmt_num(ms["max"]),
                    "baseline" if cn == base else mark(cmp),
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
        L += ["Counts per second of work (means; change of the mean vs %s [%d%% CI], all exploratory):"
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
                est = "Hmean" if estimator_of(m) == "hmean" else "mean"
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

    failed = [r for r in data.get("runs", []) if not r.get("ok")]
    if failed:
        L += ["## Runs that failed or were not verified", "", "| workload | config | rep | error |", "|---|---|---|---|"]
        for r in failed:
            L.append("| %s | %s | %s | %s |" % (r.get("workload"), r.get("config"), r.get("rep"),
                                                esc((r.get("error") or "").splitlines()[0][:300] if r.get("error") else "")))
        L.append("")

    L += ["## How to read this", "",
          "- Every run was preceded by a check that the module really was in the configuration "
          "it claims: every knob read back, every feature's state (`features/<name>/state`) as "
          "the configuration implies (hooks installed: active or idle; at stock: inactive).",
          "- Configurations ran in rounds, one run of each per round, %d rounds, in a random "
          "order in each round (the seed above), so slow drift of the machine and the "
          "order a configuration runs in hit all alike." % data.get("reps", 0),
          "- `vs %s`: the change of the estimator against `%s` with its interval. A change "
          "followed by `*` (`-12.3%% [-15.0, -9.6]*`) is a headline comparison whose "
          "Benjamini-Hochberg adjusted p is at most %g: larger than the run-to-run noise, "
          "with the false discovery rate of the whole family held at %g. A change in "
          "parentheses is not marked: within the noise, or exploratory. `(n<2)`: too "
          "few runs for a test; `(no spread)`: neither configuration varied at all, no "
          "test is possible." % (base, base, alpha, alpha),
          "- Whether a change is good depends on the figure: times and latencies are better "
          "lower, throughputs higher (each table says which).",
          "- An interval that contains 0 means no change was measured; an interval narrower "
          "than the change you care about, or a smallest detectable effect below it, means "
          "the run could have seen it.",
          "- Counts per second are system-wide (all tasks) over the workload's own duration.",
          ""]
    return "\n".join(L)


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
    hot = [r for r in timed if r.get("load_warning")]
    if hot:
        out.append("**warning**: %d of %d runs started with a 1-minute load average above %g "
                   "(it includes the bench's own previous runs; per run in results.json, "
                   "loadavg_before/loadavg_after)" % (len(hot), len(timed), machine.LOAD_WARN))
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


def write_all(out, data, draw_plots=True, log=print, made_by_file=False):
    normalize(data)
    summarize(data)
    pfiles = {}
    data.pop("plots_note", None)
    data.pop("plotter", None)
    if draw_plots:
        try:
            pfiles, note = plots.draw(out, data)
        except Exception as e:  # noqa: BLE001 - a plot must not cost the report
            pfiles, note = {}, "plots failed: %r" % e
        if note:
            log(note)
            data["plots_note"] = note
    else:
        data["plots_note"] = "not drawn (--no-plots)"
    data["plots"] = {"|".join(k): v for k, v in pfiles.items()}
    with open(os.path.join(out, "report.md"), "w") as f:
        f.write(markdown(data, pfiles))
    if made_by_file:
        with open(os.path.join(out, "made-by.txt"), "w") as f:
            f.write(made_by(data))
    tmp = os.path.join(out, "results.json.tmp")
    with open(tmp, "w") as f:
        json.dump(finite(data), f, separators=(",", ":"), allow_nan=False)
    os.replace(tmp, os.path.join(out, "results.json"))


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
