# SPDX-License-Identifier: GPL-2.0
"""report.md, made-by.txt and the run's closing lines: the text of what
report.py computes.  Every section of report.md is one md_* function of
the view (the results with their summary); write_all writes the files.
"""

import json
import math
import os

from . import __version__, machine, plots
from .report import (PERF_RATES, RATES, estimator_of, finite, headline_metric, load_range, prepare,
                     scale_of)
from .results import sweep_workloads
from .util import fmt_num



def rate_cell(cell, key, marked):
    """One rate's mean in a configuration's row, "n/a" where it has none,
    with its mark against the baseline when @marked."""
    rs = cell["rates"].get(key)
    if not rs:
        return "n/a"
    v = fmt_num(rs["mean"])
    if marked:
        v += " " + mark(cell["vs_baseline"].get("rates." + key))
    return v

def est_label(est):
    return {"gmean": "Gmean", "hmean": "Hmean", "mean": "mean"}.get(est, est)


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
            vals = [rate_cell(cell, k, cn != base) for k, _ in cols]
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


def report_md(data, plot_files):
    """report.md from the view data and its plots ({key: path})."""
    s = data["summary"]
    base = data.get("baseline", "stock")
    L = md_banner(data)
    L += md_verdict(data, s)
    L += md_run(data)
    L += md_machine(data)
    L += md_configs(data)
    L += md_method(data, s, base, s["alpha"])
    L += md_headlines(data, s, plot_files)
    L += md_drift(data, s)
    L += md_aa(s)
    L += md_workloads(data, s, plot_files)
    L += md_sweeps(data, s, plot_files)
    L += md_failures(data, s)
    L += md_how_to_read(data, s)
    return "\n".join(L)


def md_banner(data):
    """The title, and what makes every figure suspect: an emulator, a
    virtual machine, sched_ext, SCHED_CACHE changing."""
    st = data.get("stamp") or {}
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
    sc = data.get("scoped")
    if isinstance(sc, dict):
        cg = sc.get("cgroups") or {}
        L += ["> **Scoped A/B (`--scoped`)**: each configuration ran at the same time as `%s`, two instances "
              "of the same workload in cgroups `%s` and `%s`, the configuration's features scoped to its own. "
              "Caveat: %s." % (data.get("baseline", "stock"), cg.get("a"), cg.get("b"),
                               sc.get("caveat") or "both shared the machine"), ""]
    llc = sorted({json.dumps(r.get("sched_cache"), sort_keys=True) for r in data.get("runs", []) if r.get("sched_cache")})
    if len(llc) > 1:
        L += ["> SCHED_CACHE (debugfs sched/llc_balancing) changed during the bench: %s." % "; ".join(llc), ""]
    return L


def md_run(data):
    """What ran, how, and what the bench left behind."""
    st = data.get("stamp") or {}
    base = data.get("baseline", "stock")
    L = []
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
    sc = data.get("scoped")
    if isinstance(sc, dict):
        cg = sc.get("cgroups") or {}
        L.append("- scoped: every run one of a pair that ran at once, the configuration in cgroup `%s` or `%s` "
                 "and `%s` in the other (%s; CPUs %s for both); the counters (migrations, IPIs, ...) are the "
                 "machine's, of both at once: kept in results.json as shared_counters, not compared"
                 % (cg.get("a"), cg.get("b"), base, sc.get("alternation"), sc.get("cpus") or "n/a"))
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
    return L


def md_machine(data):
    st = data.get("stamp") or {}
    hv = st.get("hypervisor", {})
    L = []
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
    return L


def md_configs(data):
    L = []
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
    return L


def md_headlines(data, s, plot_files):
    """The headline figures: the forest plots, then one table per section."""
    hv = (data.get("stamp") or {}).get("hypervisor", {})
    alpha = s["alpha"]
    L = []
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
    return L


def md_workloads(data, s, plot_files):
    """Every figure of every workload under every configuration."""
    base = data.get("baseline", "stock")
    cfgs = [c["name"] for c in data.get("configs", []) if not c.get("skip")]
    L = ["## Workloads", ""]
    for w in data.get("workloads", []):
        L += md_workload(data, s, plot_files, w, cfgs, base)
    return L


def md_workload(data, s, plot_files, w, cfgs, base):
    alpha = s["alpha"]
    cells = s["cells"].get(w["name"], {})
    L = ["### %s" % w["name"], "", w["title"] + ":", "", "    " + w["command"], ""]
    for n in w.get("notes", []):
        L.append("- " + n)
    if w.get("notes"):
        L.append("")
    hm = headline_metric(w)
    for m in w.get("metrics", []):
        L += md_figure(m, cells, cfgs, base, hm, plot_files, w["name"])
    pf = plot_files.get(("order", w["name"]))
    if pf:
        L += ["Every run in the order it ran (drift of the machine shows as a slope shared "
              "by every configuration):", "", "![%s runs in order](%s)" % (w["name"], pf), ""]
    L += md_rates(cells, cfgs, base, alpha)
    L += md_perf_rates(data, cells, cfgs, base, alpha)
    return L


def md_figure(m, cells, cfgs, base, hm, plot_files, wname):
    """One figure's table: each configuration's estimate against the baseline."""
    L = []
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
    pf = plot_files.get(("dist", wname, m["name"]))
    if pf:
        L += ["![%s %s per configuration](%s)" % (wname, m["name"], pf), ""]
    return L


def md_rates(cells, cfgs, base, alpha):
    """The counts per second of work (exploratory)."""
    mod_keys = sorted({k for cn in cfgs for k in cells.get(cn, {}).get("rates", {})
                       if k.startswith("module.") and any(cells[c2]["rates"].get(k, {}).get("max", 0) > 0
                                                          for c2 in cfgs if c2 in cells)})
    L = ["Counts per second of work (means; change of the mean vs %s from the paired model "
          "[%d%% CI, unadjusted], all exploratory):"
          % (base, int(round(100 * (1 - alpha)))), "",
          "| config | " + " | ".join(r[1] for r in RATES) + " | module counters/s |",
          "|---|" + "---|" * (len(RATES) + 1)]
    for cn in cfgs:
        cell = cells.get(cn)
        if not cell or not cell["n"]:
            continue
        cols = [rate_cell(cell, key, cn != base) for key, _, _ in RATES]
        modc = ", ".join("%s %s" % (k[7:-6], fmt_num(cell["rates"][k]["mean"]))
                         for k in mod_keys if cell["rates"].get(k, {}).get("mean"))
        L.append("| `%s` | %s | %s |" % (cn, " | ".join(cols), modc or ""))
    L.append("")
    return L


def md_sweeps(data, s, plot_files):
    if not data.get("sweeps"):
        return []
    base = data.get("baseline", "stock")
    L = []
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

    return L


def md_how_to_read(data, s):
    base = data.get("baseline", "stock")
    alpha = s["alpha"]
    return ["## How to read this", "",
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
        ("- Paired by pair: the two runs of a pair ran at once, so each comparison comes from one "
         "least-squares model per workload and figure, %s: a drift of the machine moves both runs "
         "of a pair alike; the test and interval are Student's t with the model's residual degrees "
         "of freedom." if s.get("scoped") else
         "- Paired by round: each comparison comes from one least-squares model per workload and "
         "figure, %s, so a drift of the machine between rounds (the round's block) or within "
         "one (the slope over the run order) does not enter the change; the test and interval are "
         "Student's t with the model's residual degrees of freedom.") % s["method"]["model"],
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
    sc = data.get("scoped")
    if isinstance(sc, dict):
        L.append("scoped A/B: cgroups %s; %s" % (", ".join(str(v) for v in (sc.get("cgroups") or {}).values()),
                                                  sc.get("caveat")))
    for line in machine_notes(data):
        L.append(line.replace("**", "").replace("`", ""))
    return "\n".join(L) + "\n"



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
        f.write(report_md(view, pfiles))
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

