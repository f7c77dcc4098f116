# SPDX-License-Identifier: GPL-2.0
"""From results.json to the summary, report.md and the plots.

Everything here reads only the results dictionary, so a report can be
written again later (sched-tune-bench report DIR), e.g. on another machine.
"""

import json
import math
import os

from . import plots, stats
from .results import runs_on, sweep_workloads
from .util import fmt_num

RATES = [
    ("migrations_per_s", "migrations/s", "task migrations per second"),
    ("migrations_per_run", "migrations/run", "task migrations per run (fixed-work workloads: per unit of work)"),
    ("ipi_per_s", "IPIs/s", "function-call IPIs (CAL) per second"),
    ("ctxt_per_s", "ctxt/s", "context switches per second"),
    ("wakeups_per_s", "wakeups/s", "wakeups (schedstat ttwu_count) per second"),
    ("ipi_per_wakeup", "IPIs/wakeup", "function-call IPIs per wakeup"),
]


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
    if c.get("migrations") is not None:
        # with a fixed amount of work, immune to how fast time runs
        r["migrations_per_run"] = float(c["migrations"])
    if c.get("ipi_cal") is not None and c.get("wakeups"):
        r["ipi_per_wakeup"] = c["ipi_cal"] / c["wakeups"]
    return r


def summarize(data):
    """Per workload x configuration: every figure's statistics, the rates,
    and the comparison with the baseline (Welch's t-test)."""
    alpha = data.get("alpha", 0.05)
    base = data.get("baseline", "stock")
    cfgs = [c for c in data["configs"] if not c.get("skip")]
    cells = {}
    for w in data["workloads"]:
        wc = cells.setdefault(w["name"], {})
        for cn in [c["name"] for c in cfgs if runs_on(c, w["name"])]:
            runs = [r for r in data["runs"] if r["workload"] == w["name"] and r["config"] == cn
                    and r.get("ok") and not r.get("calibration")]
            failed = [r for r in data["runs"] if r["workload"] == w["name"] and r["config"] == cn
                      and not r.get("ok") and not r.get("calibration")]
            cell = {"n": len(runs), "failed": len(failed), "metrics": {}, "rates": {}}
            for m in w["metrics"]:
                vals = [r["figures"][m["name"]] for r in runs
                        if r["figures"].get(m["name"]) is not None]
                s = stats.summary(vals)
                s["values"] = vals
                cell["metrics"][m["name"]] = s
            rate_vals = {}
            for r in runs:
                for k, v in run_rates(r).items():
                    rate_vals.setdefault(k, []).append(v)
            for k, vals in rate_vals.items():
                s = stats.summary(vals)
                s["values"] = vals
                cell["rates"][k] = s
            wc[cn] = cell
        # comparison with the baseline
        b = wc.get(base)
        for cn, cell in wc.items():
            cell["vs_baseline"] = {}
            if b is None or cn == base:
                continue
            for m in list(cell["metrics"]) + ["rates." + k for k in cell["rates"]]:
                if m.startswith("rates."):
                    a_vals = cell["rates"][m[6:]]["values"]
                    b_vals = b["rates"].get(m[6:], {}).get("values", [])
                else:
                    a_vals = cell["metrics"][m]["values"]
                    b_vals = b["metrics"].get(m, {}).get("values", [])
                if not a_vals or not b_vals:
                    continue
                cmp = {"pct": stats.pct_change(stats.mean(a_vals), stats.mean(b_vals)),
                       "welch": stats.welch(a_vals, b_vals, alpha)}
                cell["vs_baseline"][m] = cmp
    data["summary"] = {"cells": cells, "headline": headline(data, cells)}
    return data["summary"]


def _vals(cells, w, c, metric):
    cell = cells.get(w, {}).get(c)
    if not cell:
        return []
    if metric.startswith("rates."):
        return cell["rates"].get(metric[6:], {}).get("values", [])
    return cell["metrics"].get(metric, {}).get("values", [])


def _compare(cells, w, a, b, metric, alpha):
    """a vs b on one figure: medians, % change of means, Welch."""
    va, vb = _vals(cells, w, a, metric), _vals(cells, w, b, metric)
    if not va or not vb:
        return None
    return {"workload": w, "metric": metric, "a": a, "b": b,
            "median_a": stats.median(va), "median_b": stats.median(vb),
            "n_a": len(va), "n_b": len(vb),
            "pct": stats.pct_change(stats.mean(va), stats.mean(vb)),
            "welch": stats.welch(va, vb, alpha),
            "ratio": stats.ratio_ci(va, vb, alpha) if min(va) > 0 and min(vb) > 0 else None}


def headline(data, cells):
    """The headline figures every report prints."""
    alpha = data.get("alpha", 0.05)
    wnames = [w["name"] for w in data["workloads"]]
    hb = [w for w in wnames if w.startswith("hackbench")]
    support = data["stamp"].get("module_support") or {}
    out = []

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
        [_compare(cells, "pipe", "passthrough", "unloaded", "usecs_per_op", alpha)],
        "needs the pipe workload and the passthrough and unloaded configurations")
    items = []
    for w in hb:
        for cfg in ("seed", "ratelimit"):
            items.append(_compare(cells, w, cfg, "stock", "rates.migrations_per_s", alpha))
            items.append(_compare(cells, w, cfg, "stock", "rates.migrations_per_run", alpha))
            items.append(_compare(cells, w, cfg, "stock", "time_s", alpha))
    add("ratelimit", "Rate limit: migrations/s and hackbench time, seed (and ratelimit alone) vs stock", items,
        "needs hackbench and the seed/ratelimit and stock configurations", "ratelimit")
    items = []
    for w in hb:
        items.append(_compare(cells, w, "cache_level", "stock", "rates.ipi_per_wakeup", alpha))
        items.append(_compare(cells, w, "cache_level", "stock", "time_s", alpha))
    add("cache_level", "Cache level: IPIs per wakeup and hackbench time, l2 (cache_level) vs llc (stock)", items,
        "needs hackbench, the cache_level and stock configurations (and schedstats for wakeups)", "cache_level")
    add("numa", "NUMA: numa_pte_updates and numa_hint_faults per run, threshold 50 (numa_scan) vs 0 (stock)",
        [_compare(cells, "numa", "numa_scan", "stock", "numa_pte_updates", alpha),
         _compare(cells, "numa", "numa_scan", "stock", "numa_hint_faults", alpha),
         _compare(cells, "numa", "seed", "stock", "numa_pte_updates", alpha)],
        "needs the numa workload (2+ NUMA nodes, NUMA balancing on) and the numa_scan and stock configurations",
        "numa_scan")
    add("losses", "Where upstream lost: tbench throughput and wakeup-latency p99, seed vs stock",
        [_compare(cells, "tbench", "seed", "stock", "mb_per_s", alpha),
         _compare(cells, "wakelat", "seed", "stock", "p99_us", alpha),
         _compare(cells, "wakelat", "seed", "stock", "requests_per_s", alpha)],
        "needs tbench/wakelat and the seed and stock configurations")
    return out


# --- Markdown ------------------------------------------------------------------
def mark(cmp):
    """'-12.3%*' when Welch says the change exceeds the noise, '(-0.4%)'
    when it does not, '-0.4% (n<2)' when there is no test."""
    if cmp is None or cmp.get("pct") is None:
        return "n/a"
    p = "%+.1f%%" % cmp["pct"]
    w = cmp.get("welch")
    if w is None:
        return p + " (n<2)"
    return p + "\\*" if w["significant"] else "(" + p + ")"


def metric_label(m):
    d = {"lower": ", lower is better", "higher": ", higher is better"}.get(m.get("better"), "")
    return "%s (%s%s)" % (m["name"], m["unit"], d)


def esc(s):
    return str(s).replace("|", "\\|")


def md_headline(h, alpha):
    lines = ["### " + h["title"], ""]
    if h["missing"]:
        return lines + ["Not measured: %s." % h["missing"], ""]
    if h.get("note"):
        lines += ["Note: %s." % h["note"], ""]
    lines += ["| workload | figure | %s | %s | change | Welch p | ratio [%d%% interval] |" % (
        "A", "B", int(round(100 * (1 - alpha)))), "|---|---|---|---|---|---|---|"]
    for it in h["items"]:
        w = it["welch"]
        r = it["ratio"]
        ratio = "n/a"
        if r:
            ratio = "%.4f" % r["ratio"]
            if r.get("ci"):
                ratio += " [%.4f, %.4f]" % tuple(r["ci"])
        lines.append("| %s | %s | %s: %s | %s: %s | %s | %s | %s |" % (
            it["workload"], it["metric"].replace("rates.", ""),
            it["a"], fmt_num(it["median_a"]), it["b"], fmt_num(it["median_b"]),
            mark(it), "%.3g" % w["p"] if w else "n/a", ratio))
    lines += ["", "A and B are medians of %s runs; the change is that of the means, A vs B." % (
        "/".join(sorted({"%d" % i["n_a"] for i in h["items"]} | {"%d" % i["n_b"] for i in h["items"]}))), ""]
    return lines


def config_features(data, cname):
    for r in data["runs"]:
        if r["config"] == cname and r.get("ok") and r.get("observed", {}).get("features"):
            return ", ".join("%s %s" % (f, v["state"]) for f, v in sorted(r["observed"]["features"].items()))
        if r["config"] == cname and r.get("ok") and r.get("observed", {}).get("loaded") is False:
            return "module not loaded"
    return ""


def markdown(data, plot_files):
    s = data["summary"]
    st = data["stamp"]
    alpha = data.get("alpha", 0.05)
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
    scx = sorted({(r.get("sched_ext") or {}).get("state") for r in data["runs"]} - {None, "disabled"})
    if scx:
        L += ["> A sched_ext scheduler was in state %s during some runs: the fair-class hooks "
              "of sched_tune see none of the tasks it runs (per-run state in results.json)."
              % ", ".join(scx), ""]
    llc = sorted({json.dumps(r.get("sched_cache"), sort_keys=True) for r in data["runs"] if r.get("sched_cache")})
    if len(llc) > 1:
        L += ["> SCHED_CACHE (debugfs sched/llc_balancing) changed during the bench: %s." % "; ".join(llc), ""]
    L.append("- command: `%s`" % data.get("command"))
    L.append("- started %s, %s, state: **%s**" % (
        data.get("started"), "took %.0f s" % data["duration_s"] if data.get("duration_s") else "",
        data.get("state")))
    L.append("- %d repetitions per configuration, interleaved (ABAB...), about %g s per run; "
             "Welch's t-test at alpha = %g against `%s`" % (data.get("reps", 0), data.get("run_seconds", 0), alpha, base))
    if data.get("restore_problems"):
        L.append("- **restore problems**: %s" % "; ".join(data["restore_problems"]))
    else:
        L.append("- module left as found (%s), every knob restored" % (
            "loaded" if st.get("module_loaded_at_start") else "not loaded"))
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
    for k, v in (st.get("counter_methods") or {}).items():
        rows.append(("counter: " + k, v))
    for k, v in rows:
        L.append("| %s | %s |" % (esc(k), esc(v if v is not None else "n/a")))
    L.append("")

    L += ["## Configurations", "", "| name | knobs that differ from stock | features seen in its runs | notes |",
          "|---|---|---|---|"]
    for c in data["configs"]:
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

    L += ["## Headline figures", ""]
    if hv.get("emulated"):
        L += ["(qemu TCG: timings are not hardware timings.)", ""]
    for h in s["headline"]:
        L += md_headline(h, alpha)

    cfgs = [c["name"] for c in data["configs"] if not c.get("skip")]
    L += ["## Workloads", ""]
    for w in data["workloads"]:
        cells = s["cells"].get(w["name"], {})
        L += ["### %s" % w["name"], "", w["title"] + ":", "", "    " + w["command"], ""]
        for n in w.get("notes", []):
            L.append("- " + n)
        if w.get("notes"):
            L.append("")
        for m in w["metrics"]:
            L += ["**%s**: %s" % (metric_label(m), m["desc"]), "",
                  "| config | n | median | min | max | stddev | mean | vs %s |" % base,
                  "|---|---|---|---|---|---|---|---|"]
            for cn in cfgs:
                cell = cells.get(cn)
                if not cell:
                    continue
                ms = cell["metrics"].get(m["name"], {"n": 0})
                if not ms.get("n"):
                    L.append("| `%s` | 0 | | | | | | %s |" % (cn, "%d failed" % cell["failed"] if cell["failed"] else ""))
                    continue
                L.append("| `%s` | %d%s | %s | %s | %s | %s | %s | %s |" % (
                    cn, ms["n"], " (+%d failed)" % cell["failed"] if cell["failed"] else "",
                    fmt_num(ms["median"]), fmt_num(ms["min"]), fmt_num(ms["max"]),
                    fmt_num(ms["stddev"]), fmt_num(ms["mean"]),
                    "baseline" if cn == base else mark(cell["vs_baseline"].get(m["name"]))))
            L.append("")
            pf = plot_files.get(("dist", w["name"], m["name"]))
            if pf:
                L += ["![%s %s per configuration](%s)" % (w["name"], m["name"], pf), ""]
        # counts per second of work
        mod_keys = sorted({k for cn in cfgs for k in cells.get(cn, {}).get("rates", {})
                           if k.startswith("module.") and any(cells[c2]["rates"].get(k, {}).get("max", 0) > 0
                                                              for c2 in cfgs if c2 in cells)})
        L += ["Counts per second of work (medians; change of the means vs %s):" % base, "",
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
                v = fmt_num(rs["median"])
                if cn != base:
                    v += " " + mark(cell["vs_baseline"].get("rates." + key))
                cols.append(v)
            modc = ", ".join("%s %s" % (k[7:-6], fmt_num(cell["rates"][k]["median"]))
                             for k in mod_keys if cell["rates"].get(k, {}).get("median"))
            L.append("| `%s` | %s | %s |" % (cn, " | ".join(cols), modc or ""))
        L.append("")

    if data.get("sweeps"):
        L += ["## Sweeps", ""]
        for sw in data["sweeps"]:
            L += ["### %s (from `%s`)" % (sw["knob"], sw["base"]), ""]
            for w in sweep_workloads(data, sw):
                m = w["metrics"][0]
                L += ["%s, %s:" % (w["name"], metric_label(m)), "",
                      "| %s | config | n | median | min | max | stddev | vs %s |" % (sw["knob"], base),
                      "|---|---|---|---|---|---|---|---|"]
                for pt in sw["points"]:
                    cell = s["cells"].get(w["name"], {}).get(pt["config"])
                    ms = cell["metrics"].get(m["name"]) if cell else None
                    if not ms or not ms.get("n"):
                        L.append("| %s | `%s` | 0 | | | | | |" % (pt["value"], pt["config"]))
                        continue
                    L.append("| %s | `%s` | %d | %s | %s | %s | %s | %s |" % (
                        pt["value"], pt["config"], ms["n"], fmt_num(ms["median"]), fmt_num(ms["min"]),
                        fmt_num(ms["max"]), fmt_num(ms["stddev"]),
                        "baseline" if pt["config"] == base else mark(cell["vs_baseline"].get(m["name"]))))
                L.append("")
                pf = plot_files.get(("sweep", sw["knob"], w["name"]))
                if pf:
                    L += ["![%s over %s](%s)" % (w["name"], sw["knob"], pf), ""]

    failed = [r for r in data["runs"] if not r.get("ok")]
    if failed:
        L += ["## Runs that failed or were not verified", "", "| workload | config | rep | error |", "|---|---|---|---|"]
        for r in failed:
            L.append("| %s | %s | %s | %s |" % (r["workload"], r["config"], r["rep"],
                                                esc((r.get("error") or "").splitlines()[0][:300] if r.get("error") else "")))
        L.append("")

    L += ["## How to read this", "",
          "- Every run was preceded by a check that the module really was in the configuration "
          "it claims: every knob read back, every feature's state (`features/<name>/state`) as "
          "the configuration implies (hooks installed: active or idle; at stock: inactive).",
          "- Configurations ran interleaved, one run of each in turn, %d times, so slow drift "
          "of the machine hits all alike." % data.get("reps", 0),
          "- `vs %s`: the change of the mean against `%s`. A figure followed by `*` "
          "(`-12.3%%*`) is one where Welch's unequal-variance t-test gives p < %g: the "
          "difference is larger than the run-to-run noise. A change in parentheses "
          "(`(-0.4%%)`) is within the noise: do not read anything into it. `(n<2)`: too few "
          "runs for a test." % (base, base, alpha),
          "- Whether a change is good depends on the figure: times and latencies are better "
          "lower, throughputs higher (each table says which).",
          "- At alpha = %g, about one comparison in %d is marked by chance alone; a report has "
          "many, so trust a mark that repeats across workloads, G values and reruns." % (alpha, int(round(1 / alpha))),
          "- Counts per second are system-wide (all tasks) over the workload's own duration.",
          ""]
    return "\n".join(L)


def write_all(out, data, draw_plots=True, log=print):
    summarize(data)
    pfiles = {}
    if draw_plots:
        pfiles, note = plots.draw(out, data)
        if note:
            log(note)
            data["plots_note"] = note
    data["plots"] = {"|".join(k): v for k, v in pfiles.items()}
    with open(os.path.join(out, "report.md"), "w") as f:
        f.write(markdown(data, pfiles))
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
