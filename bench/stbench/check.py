# SPDX-License-Identifier: GPL-2.0
"""Checks a result directory's shape: the smoke test of make check.

Prints one "ok - ..." or "not ok - ..." line per check (the guest turns
them into KTAP) and returns 1 if any failed.
"""

import json
import math
import os

from .results import runs_on

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def check_dir(d, want_configs=None, want_workloads=None, plots=True):
    results = []

    def res(ok, desc):
        results.append(ok)
        print("%s - %s" % ("ok" if ok else "not ok", desc))
        return ok

    path = os.path.join(d, "results.json")
    try:
        with open(path) as f:
            data = json.load(f, parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))
        res(True, "results.json is valid JSON")
    except (OSError, ValueError) as e:
        res(False, "results.json is valid JSON (%s)" % e)
        return 1
    for key in ("stamp", "configs", "workloads", "runs"):
        res(key in data, "results.json has %s" % key)
    res("summary" not in data, "results.json holds the raw record only (the summary is summary.json's)")
    try:
        with open(os.path.join(d, "summary.json")) as f:
            side = json.load(f, parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))
        res(isinstance(side.get("summary"), dict), "summary.json is valid JSON with the summary")
    except (OSError, ValueError) as e:
        res(False, "summary.json is valid JSON with the summary (%s)" % e)
        return 1
    summary = side["summary"]
    st = data["stamp"]
    for key in ("kernel", "cpu_model", "topology", "hypervisor", "module"):
        res(st.get(key) is not None, "stamp has %s" % key)
    res("l2_groups" in st.get("topology", {}) and "llc_groups" in st.get("topology", {}),
        "stamp has the L2 and LLC groups")
    res("sched_cache" in st and "sched_ext" in st, "stamp records SCHED_CACHE and sched_ext (null when absent)")
    mach = st.get("machine")
    keys = ("cpu_model", "cpufreq", "boost", "smt", "cpuidle", "cmdline", "mitigations", "numa_nodes",
            "loadavg", "debugfs")
    res(isinstance(mach, dict) and all(k in mach for k in keys),
        "stamp records the machine (%s)" % ", ".join(k for k in keys if not isinstance(mach, dict) or k not in mach)
        if not (isinstance(mach, dict) and all(k in mach for k in keys))
        else "stamp records the machine: %s" % ", ".join(keys))
    noload = [r for r in data.get("runs", []) if "loadavg_before" not in r or "loadavg_after" not in r]
    res(not noload, "every run records the load average before and after it (%d without)" % len(noload))
    res(data.get("state") == "finished", "run finished (state: %s)" % data.get("state"))
    res(not data.get("restore_problems"), "no restore problems %s" % (data.get("restore_problems") or ""))

    cfgs = {c["name"]: c for c in data["configs"]}
    ran = [n for n, c in cfgs.items() if not c.get("skip")]
    for n in want_configs or []:
        skip = cfgs.get(n, {}).get("skip")
        if skip and "unsupported on this kernel" in skip:
            # a kernel without the feature: skipped with its reason, as designed
            print("ok - configuration %s present # SKIP %s" % (n, skip))
            continue
        res(n in ran, "configuration %s present and run%s" % (
            n, " (skipped: %s)" % skip if skip else "" if n in cfgs else " (absent)"))
    wl = [w["name"] for w in data["workloads"]]
    for n in want_workloads or []:
        res(any(w == n or w.startswith(n + "-") for w in wl), "workload %s present" % n)

    scoped = data.get("scoped")
    if scoped:
        pairs = {}
        for r in data["runs"]:
            if not r.get("calibration"):
                pairs.setdefault(r.get("pair"), []).append(r)
        cg = sorted((scoped.get("cgroups") or {}).values())
        odd = [k for k, rs in pairs.items() if k is None or sorted(r.get("cgroup") for r in rs) != cg
               or data.get("baseline") not in [r["config"] for r in rs]]
        res(not odd and len(cg) == 2, "scoped: every pair ran in both cgroups (%s), one of them the baseline "
            "(%d pairs, %d odd)" % (", ".join(cg), len(pairs), len(odd)))
        where = {}
        for rs in pairs.values():
            for r in rs:
                if r["config"] != data.get("baseline") and not r.get("warmup"):
                    where.setdefault(r["config"], set()).add(r.get("cgroup"))
        one = sorted(c for c, gs in where.items() if len(gs) < 2)
        res(not one or data.get("reps", 0) < 2, "scoped: every configuration ran in both cgroups, by turns%s"
            % (" (in one only: %s)" % ", ".join(one) if one else ""))

    cells = summary["cells"]
    bad, count = [], 0
    for w in data["workloads"]:
        for cn in [n for n in ran if runs_on(cfgs[n], w["name"])]:
            cell = cells.get(w["name"], {}).get(cn)
            if not cell or not cell.get("n"):
                bad.append("%s/%s: no successful run" % (w["name"], cn))
                continue
            for m in w["metrics"]:
                ms = cell["metrics"].get(m["name"], {})
                for k in ("median", "min", "max", "stddev", "mean"):
                    count += 1
                    if not _is_num(ms.get(k)):
                        bad.append("%s/%s/%s.%s = %r" % (w["name"], cn, m["name"], k, ms.get(k)))
            # --scoped: the counters are both runs' at once, not compared
            for k in () if scoped else ("migrations_per_s", "ctxt_per_s"):
                count += 1
                if not _is_num(cell["rates"].get(k, {}).get("median")):
                    bad.append("%s/%s/%s missing" % (w["name"], cn, k))
            for m, cmp in cell.get("vs_baseline", {}).items():
                count += 1
                if cmp.get("pct") is not None and not _is_num(cmp["pct"]):
                    bad.append("%s/%s/%s pct %r" % (w["name"], cn, m, cmp["pct"]))
                # no test without spread or model (p None, said in the note), else a number
                if not cmp.get("note") and not _is_num(cmp.get("p")):
                    bad.append("%s/%s/%s p %r" % (w["name"], cn, m, cmp.get("p")))
                # a baseline of 0 has no change in percent, so no interval
                if cmp.get("p") is not None and cmp.get("pct") is not None and not (
                        cmp.get("ci_pct") and all(_is_num(x) or x is None for x in cmp["ci_pct"])):
                    bad.append("%s/%s/%s no interval" % (w["name"], cn, m))
                if cmp.get("family") not in ("headline", "exploratory"):
                    bad.append("%s/%s/%s family %r" % (w["name"], cn, m, cmp.get("family")))
    res(not bad and count > 0, "every figure is a number (%d checked)%s" % (
        count, "; " + "; ".join(bad[:8]) if bad else ""))
    fl = summary.get("failures") or {}
    res(not fl.get("any"), "no run failed, no figure missing or invalid (%d failed, %d missing, %d invalid)" % (
        fl.get("failed_runs", 0), fl.get("missing_figures", 0), fl.get("invalid_figures", 0)))
    res(bool(summary.get("drift")), "a drift test per workload (%d)" % len(summary.get("drift") or {}))
    failed = [r for r in data["runs"] if not r.get("ok")]
    res(not failed, "every run succeeded and was verified (%d runs)%s" % (
        len(data["runs"]), "; " + "; ".join("%s/%s: %s" % (r["workload"], r["config"], (r.get("error") or "")[:120])
                                             for r in failed[:4]) if failed else ""))
    hl = {h["key"]: h for h in summary.get("headline", [])}
    for key in ("hook_cost", "ratelimit", "cache_level", "numa", "ttwu_queue_default", "losses", "eevdf"):
        res(key in hl, "headline %s present (%s)" % (key, "measured" if hl.get(key, {}).get("items") else
                                                        "not measured: %s" % hl.get(key, {}).get("missing")))

    md = os.path.join(d, "report.md")
    try:
        with open(md) as f:
            text = f.read()
        res(True, "report.md written (%d bytes)" % len(text))
        res(all("`%s`" % n in text for n in ran), "report.md names every configuration")
        res(all("### %s" % w in text for w in wl), "report.md has a section per workload")
        if scoped:
            res("Scoped A/B" in text and "share the machine" in text,
                "report.md says the run was scoped and that both configurations shared the machine")
    except OSError as e:
        res(False, "report.md written (%s)" % e)
    if plots:
        files = list((side.get("plots") or {}).values())
        okp = [f for f in files if _png(os.path.join(d, f))]
        res(files and len(okp) == len(files), "plots written: %d PNGs%s" % (
            len(okp), "" if files else " (%s)" % side.get("plots_note")))
        want = sum(len(w["metrics"]) for w in data["workloads"])
        res(len(okp) >= want, "a distribution plot per workload figure (%d >= %d)" % (len(okp), want))
        if data.get("sweeps"):
            res(any("sweep_" in f for f in okp), "sweep plots written")
    return 0 if all(results) else 1


def _png(p):
    try:
        with open(p, "rb") as f:
            return f.read(8) == PNG_MAGIC and os.path.getsize(p) > 1000
    except OSError:
        return False
