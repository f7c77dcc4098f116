# SPDX-License-Identifier: GPL-2.0
"""sched-tune-bench: A/B of sched_tune's configurations on this machine."""

import argparse
import datetime
import json
import os
import signal
import sys
import time

from . import __version__
from . import module as modmod
from . import report, sysinfo
from .counters import Counters
from .module import BenchError, Module
from .util import Log, fmt_duration, read
from .workloads import (WORKLOAD_NAMES, Env, Interrupted, Proc, WorkloadError,
                        default_cache_dir, hackbench_groups, helper_binary,
                        make_workloads)

COMMANDS = ("run", "list", "report", "check", "build-helpers")
NUMA_DBG = "/sys/kernel/debug/sched/numa_balancing"
NUMA_FAST = (("scan_delay_ms", "100"), ("scan_period_min_ms", "100"), ("scan_period_max_ms", "400"))


def csv_ints(s):
    return [int(x) for x in s.split(",") if x.strip()]


def csv(s):
    return [x.strip() for x in s.split(",") if x.strip()]


def parser():
    p = argparse.ArgumentParser(
        prog="sched-tune-bench",
        description="A/B benchmark of sched_tune's configurations, interleaved, "
        "with Welch's t-test against stock.  Commands: run (default), list, "
        "report DIR, check DIR, build-helpers.")
    sub = p.add_subparsers(dest="cmd")
    r = sub.add_parser("run", help="run the bench (default)")
    r.add_argument("-c", "--configs", type=csv, default=None,
                   help="predefined configurations, comma-separated (default: all: %s)"
                   % ",".join(modmod.BUILTIN_NAMES))
    r.add_argument("--config", action="append", default=[], metavar="NAME:KNOB=V,...",
                   help="a configuration of your own on top of stock (repeatable)")
    r.add_argument("--sweep", action="append", default=[], metavar="KNOB=V1,V2,...",
                   help="one knob over values on top of --sweep-base (repeatable)")
    r.add_argument("--sweep-base", default="stock", help="configuration a sweep starts from (default stock)")
    r.add_argument("--sweep-workloads", type=csv, default=None,
                   help="run the sweep's own points only on these workloads (default: all)")
    r.add_argument("-w", "--workloads", type=csv, default=None,
                   help="workloads (default: all available: %s)" % ",".join(WORKLOAD_NAMES))
    r.add_argument("-n", "--reps", type=int, default=5, help="repetitions of each configuration (default 5)")
    r.add_argument("-s", "--run-seconds", type=float, default=10.0,
                   help="target length of one run; fixed-work workloads are calibrated to it (default 10)")
    r.add_argument("--alpha", type=float, default=0.05, help="significance level of Welch's t-test (default 0.05)")
    r.add_argument("--baseline", default="stock", help="configuration the others are compared with (default stock)")
    r.add_argument("-o", "--out", default=None, help="output directory (default ./sched-tune-bench-DATE)")
    r.add_argument("--ko", default=None, help="load this .ko with insmod instead of modprobe sched_tune")
    r.add_argument("--hackbench-groups", type=csv_ints, default=None, help="hackbench -g sweep (default from the CPU count)")
    r.add_argument("--hackbench-loops", type=int, default=None, help="hackbench -l (default: calibrated)")
    r.add_argument("--messaging-loops", type=int, default=None, help="perf bench sched messaging -l (default: calibrated)")
    r.add_argument("--pipe-loops", type=int, default=None, help="perf bench sched pipe -l (default: calibrated)")
    r.add_argument("--tbench-clients", type=int, default=None, help="tbench clients (default: one per CPU)")
    r.add_argument("--wakelat-msg", type=int, default=None, help="st_wakelat message threads (default max(2, CPUs/8))")
    r.add_argument("--wakelat-workers", type=int, default=None, help="st_wakelat workers per message thread (default CPUs/message threads)")
    r.add_argument("--wakelat-work-us", type=int, default=50, help="st_wakelat work per request, microseconds (default 50)")
    r.add_argument("--numa-threads", type=int, default=None, help="st_numa_work threads (default 4 per CPU)")
    r.add_argument("--numa-mb", type=int, default=None, help="st_numa_work MB per thread (default: a quarter of RAM, at most 3 GB, shared)")
    r.add_argument("--numa-fast-scan", action="store_true",
                   help="scan as often as NUMA balancing allows during the bench (debugfs scan_delay_ms/scan_period_*_ms, restored after); for short runs")
    r.add_argument("--no-schedstats", action="store_true",
                   help="leave kernel.sched_schedstats alone (no wakeup count, no IPIs per wakeup)")
    r.add_argument("--cache-dir", default=None, help="where the C helpers are compiled (default %s)" % default_cache_dir())
    r.add_argument("--no-plots", action="store_true", help="no gnuplot PNGs")
    r.add_argument("--title", default=None, help="title of the report")
    r.add_argument("-q", "--quiet", action="store_true", help="no progress lines")
    rp = sub.add_parser("report", help="write report.md and the plots again from DIR/results.json")
    rp.add_argument("dir")
    rp.add_argument("--no-plots", action="store_true")
    ck = sub.add_parser("check", help="check a result directory's shape (TAP-like lines)")
    ck.add_argument("dir")
    ck.add_argument("--configs", type=csv, default=None, help="configurations that must be present")
    ck.add_argument("--workloads", type=csv, default=None, help="workloads that must be present")
    ck.add_argument("--no-plots", action="store_true")
    sub.add_parser("list", help="configurations and workloads, and what this machine supports")
    bh = sub.add_parser("build-helpers", help="compile the C helpers into the cache")
    bh.add_argument("--cache-dir", default=None)
    return p


class Bench:
    def __init__(self, opts):
        self.opts = opts
        self.log = Log(opts.quiet)
        self.module = Module(opts.ko, self.log)
        self.counters = None
        self.env = None
        self.sysctl_saved = {}
        self.interrupted = None
        self.runs = []
        self.data = None
        self.t0 = time.monotonic()

    # --- side effects, each undone in restore() ---------------------------
    def set_file(self, path, value):
        old = read(path)
        if old is None or old == value:
            return
        with open(path, "w") as f:
            f.write(value)
        self.sysctl_saved.setdefault(path, old)

    def restore(self):
        problems = []
        Proc.kill_all()
        if self.counters:
            self.counters.close()
        for path, old in reversed(list(self.sysctl_saved.items())):
            try:
                with open(path, "w") as f:
                    f.write(old)
            except OSError as e:
                problems.append("restoring %s=%s: %s" % (path, old, e))
        problems += self.module.restore()
        if self.env:
            self.env.cleanup()
        return problems

    # --- plan --------------------------------------------------------------
    def build_configs(self):
        o = self.opts
        names = o.configs if o.configs is not None else list(modmod.BUILTIN_NAMES)
        builtin = {c.name: c for c in modmod.builtin_configs()}
        configs = []
        for n in names:
            if n not in builtin:
                raise BenchError("unknown configuration '%s' (predefined: %s; define your own with --config NAME:KNOB=V,...)"
                                 % (n, ", ".join(builtin)))
            configs.append(builtin[n])
        for spec in o.config:
            c = modmod.parse_user_config(spec)
            if any(x.name == c.name for x in configs):
                raise BenchError("configuration name '%s' used twice" % c.name)
            configs.append(c)
        base_name = o.baseline
        if not any(c.name == base_name for c in configs):
            if base_name in builtin:
                configs.insert(0, builtin[base_name])
            else:
                raise BenchError("baseline '%s' is not among the configurations" % base_name)
        sweeps = []
        for spec in o.sweep:
            base = next((c for c in configs if c.name == o.sweep_base), builtin.get(o.sweep_base))
            if base is None or base.unloaded:
                raise BenchError("sweep base '%s' is not a loaded configuration" % o.sweep_base)
            knob, values, points = modmod.parse_sweep(spec, base)
            sw = {"knob": knob, "base": base.name, "points": []}
            for pt in points:
                same = next((c for c in configs if c.knobs == pt.knobs), None)
                if same is None:
                    if o.sweep_workloads:
                        pt.only_workloads = set(o.sweep_workloads)
                    configs.append(pt)
                    same = pt
                sw["points"].append({"value": pt.sweep[1], "config": same.name})
            sweeps.append(sw)
        return configs, sweeps

    def progress(self, done, total, what, est_left):
        el = time.monotonic() - self.t0
        line = "[%d/%d] %s | %d runs left after this | elapsed %s | ETA ~%s" % (
            done + 1, total, what, total - done - 1, fmt_duration(el), fmt_duration(est_left))
        self.log(line)
        tmp = os.path.join(self.out, "progress.json.tmp")
        with open(tmp, "w") as f:
            json.dump({"run": done + 1, "total": total, "now": what, "elapsed_s": el,
                       "eta_s": est_left, "state": "running"}, f)
        os.replace(tmp, os.path.join(self.out, "progress.json"))

    def one_run(self, w, cfg, rep, calibration=False):
        """Puts the module in cfg, checks it, runs w once, counts."""
        rec = {"workload": w.name, "config": cfg.name, "rep": rep, "ok": False,
               "calibration": calibration, "start": datetime.datetime.now().isoformat(timespec="seconds")}
        t0 = time.monotonic()
        try:
            self.module.apply(cfg)
            ok, problems, observed = self.module.verify(cfg)
            if not ok:
                # one more try: a write may race a feature's own state change
                self.module.apply(cfg)
                ok, problems, observed = self.module.verify(cfg)
            rec["observed"] = observed
            rec["sched_ext"] = sysinfo.sched_ext_state()
            rec["sched_cache"] = sysinfo.sched_cache_state()
            if not ok:
                rec["error"] = "configuration not verified: " + "; ".join(problems)
                self.log("  %s/%s: %s" % (w.name, cfg.name, rec["error"]))
                return rec
            rec["command"] = w.describe()
            before = self.counters.sample()
            figs, elapsed, out = w.run()
            after = self.counters.sample()
            d = Counters.delta(before, after)
            for m in w.metrics:
                if m.source == "counter":
                    figs[m.name] = d.get(m.name)
            rec.update(ok=True, figures=figs, elapsed_s=elapsed, counters=d,
                       output_tail=out.strip().splitlines()[-3:])
        except (WorkloadError, BenchError) as e:
            rec["error"] = str(e)
            self.log("  %s/%s failed: %s" % (w.name, cfg.name, str(e).splitlines()[0]))
        finally:
            rec["wall_s"] = time.monotonic() - t0
        return rec

    def calibrate(self, w, base):
        def runner(wl):
            rec = self.one_run(wl, base, 0, calibration=True)
            self.runs.append(rec)
            if not rec["ok"]:
                raise WorkloadError("calibration of %s failed: %s" % (wl.name, rec.get("error")))
            return rec["figures"], rec["elapsed_s"], ""
        w.calibrate(runner)
        for n in w.notes:
            self.log("  %s: %s" % (w.name, n))

    # --- the bench ------------------------------------------------------------
    def run(self):
        o = self.opts
        if os.geteuid() != 0:
            raise BenchError("run as root: the bench writes /sys/kernel/sched_tune and loads/unloads the module")
        if o.reps < 1:
            raise BenchError("--reps must be at least 1")
        self.out = o.out or "sched-tune-bench-%s" % datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        os.makedirs(self.out, exist_ok=True)
        self.module.take_snapshot()
        self.log("module %s at start%s" % (
            "loaded" if self.module.snapshot["loaded"] else "not loaded",
            "" if not self.module.snapshot["loaded"] else ": " + ", ".join(
                "%s=%s" % kv for kv in sorted(self.module.snapshot["knobs"].items()))))
        stamp = sysinfo.stamp()
        configs, sweeps = self.build_configs()
        self.module.probe()
        stamp["module"] = self.module.version()
        stamp["module_support"] = {f: {"state": s, "reason": self.module.reasons.get(f, "")}
                                   for f, s in self.module.support.items()}
        stamp["module_knobs_at_start"] = self.module.snapshot["knobs"]
        stamp["module_loaded_at_start"] = self.module.snapshot["loaded"]
        for c in configs:
            c.skip = self.module.check_config(c)
            if c.skip:
                self.log("skipping configuration %s: %s" % (c.name, c.skip))
            for n in c.notes:
                self.log("configuration %s: %s" % (c.name, n))
        base = next(c for c in configs if c.name == o.baseline)
        if base.skip:
            raise BenchError("baseline %s cannot run: %s" % (base.name, base.skip))
        active = [c for c in configs if not c.skip]

        cache = o.cache_dir or default_cache_dir()
        self.env = Env(o, stamp["cpus_online"], stamp["memory_kb"], cache)
        groups = o.hackbench_groups or hackbench_groups(stamp["cpus_online"])
        names = o.workloads if o.workloads is not None else list(WORKLOAD_NAMES)
        workloads, skipped_w = [], []
        for w in make_workloads(self.env, names, groups):
            why = w.unavailable()
            if why:
                skipped_w.append({"name": w.name, "why": why})
                self.log("skipping workload %s: %s" % (w.name, why))
            else:
                workloads.append(w)
        if not workloads:
            raise BenchError("no workload can run here")

        # side effects, all undone by restore()
        if not o.no_schedstats and os.path.exists("/proc/sys/kernel/sched_schedstats"):
            self.set_file("/proc/sys/kernel/sched_schedstats", "1")
        if o.numa_fast_scan and any(w.name == "numa" for w in workloads):
            for f, v in NUMA_FAST:
                self.set_file(os.path.join(NUMA_DBG, f), v)
        stamp["numa_balancing_debugfs"] = {f: read(os.path.join(NUMA_DBG, f))
                                           for f in ("scan_delay_ms", "scan_period_min_ms",
                                                     "scan_period_max_ms", "scan_size_mb")
                                           if read(os.path.join(NUMA_DBG, f)) is not None}
        stamp["schedstats"] = read("/proc/sys/kernel/sched_schedstats")
        self.counters = Counters(sysinfo.online_cpus(), self.module)
        stamp["counter_methods"] = self.counters.methods()

        self.data = {
            "schema": 1, "tool": "sched-tune-bench", "tool_version": __version__,
            "command": " ".join([os.path.basename(sys.argv[0])] + sys.argv[1:]),
            "title": o.title, "started": datetime.datetime.now().isoformat(timespec="seconds"),
            "stamp": stamp, "alpha": o.alpha, "baseline": o.baseline, "reps": o.reps,
            "run_seconds": o.run_seconds, "configs": [c.to_json() for c in configs],
            "sweeps": sweeps, "workloads": [], "skipped_workloads": skipped_w,
            "runs": self.runs, "state": "running",
        }
        plan = {w.name: [c for c in active if c.runs_on(w.name)] for w in workloads}
        total = o.reps * sum(len(v) for v in plan.values())
        self.log("%d workloads x up to %d configurations x %d repetitions = %d runs (+ calibration)"
                 % (len(workloads), len(active), o.reps, total))
        done = 0
        per_w = {}
        for wi, w in enumerate(workloads):
            self.calibrate(w, base)
            wj = w.to_json()
            self.log("workload %s: %s" % (w.name, wj["command"]))
            self.data["workloads"].append(wj)
            cfgs = plan[w.name]
            for rep in range(1, o.reps + 1):
                for c in cfgs:
                    left = 0.0
                    for wj2, w2 in enumerate(workloads):
                        n_left = (o.reps * len(plan[w2.name]) if wj2 > wi else 0)
                        if w2 is w:
                            n_left = (o.reps - rep + 1) * len(cfgs) - cfgs.index(c)
                        ws = per_w.get(w2.name)
                        est = sum(ws) / len(ws) if ws else w2.expected_seconds() + 1.5
                        left += n_left * est
                    self.progress(done, total, "%s | %s | rep %d/%d" % (w.name, c.name, rep, o.reps), left)
                    rec = self.one_run(w, c, rep)
                    self.runs.append(rec)
                    per_w.setdefault(w.name, []).append(rec["wall_s"])
                    done += 1
                self.save()
        self.data["state"] = "finished"

    def save(self):
        if self.data is None:
            return
        tmp = os.path.join(self.out, "results.json.tmp")
        with open(tmp, "w") as f:
            json.dump(report.finite(self.data), f, separators=(",", ":"), allow_nan=False)
        os.replace(tmp, os.path.join(self.out, "results.json"))


def install_signals():
    def handler(signum, frame):
        raise Interrupted(signum)
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, handler)


def ignore_signals():
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, signal.SIG_IGN)


def cmd_run(opts):
    b = Bench(opts)
    install_signals()
    rc = 0
    try:
        b.run()
    except Interrupted as e:
        b.interrupted = e.signum
        rc = 128 + e.signum
        b.log("interrupted by signal %d: stopping" % e.signum)
    except (BenchError, WorkloadError) as e:
        b.log("error: %s" % e)
        rc = 1
    finally:
        ignore_signals()
        b.log("restoring the module and the settings changed for the bench")
        problems = b.restore()
        for p in problems:
            b.log("restore problem: %s" % p)
        if b.data is not None:
            b.data["finished"] = datetime.datetime.now().isoformat(timespec="seconds")
            b.data["duration_s"] = time.monotonic() - b.t0
            if b.interrupted:
                b.data["state"] = "interrupted (signal %d)" % b.interrupted
            elif rc:
                b.data["state"] = "failed"
            b.data["restore_problems"] = problems
            b.data["module_after"] = {"loaded": Module.loaded(),
                                      "knobs": b.module.read_knobs() if Module.loaded() else {}}
            b.save()
            try:
                report.write_all(b.out, b.data, draw_plots=not opts.no_plots, log=b.log)
                b.log("report: %s" % os.path.join(b.out, "report.md"))
            except Exception as e:  # a report bug must not hide the results
                b.log("writing the report failed: %r (results.json is complete)" % e)
                rc = rc or 1
            with open(os.path.join(b.out, "progress.json"), "w") as f:
                json.dump({"state": b.data["state"], "runs": len(b.runs)}, f)
        if problems:
            rc = rc or 1
    return rc


def cmd_report(opts):
    with open(os.path.join(opts.dir, "results.json")) as f:
        data = json.load(f)
    report.write_all(opts.dir, data, draw_plots=not opts.no_plots, log=Log())
    return 0


def cmd_check(opts):
    from . import check
    return check.check_dir(opts.dir, opts.configs, opts.workloads, plots=not opts.no_plots)


def cmd_build_helpers(opts):
    cache = opts.cache_dir or default_cache_dir()
    rc = 0
    for name in ("st_wakelat", "st_numa_work"):
        path, why = helper_binary(name, cache)
        print("%s: %s" % (name, path or why))
        rc |= path is None
    return rc


def cmd_list(opts):
    print("configurations (run with -c NAME,... or --config NAME:KNOB=V,...):")
    for c in modmod.builtin_configs():
        print("  %-12s %s" % (c.name, c.desc))
        if c.knobs:
            print("  %-12s %s" % ("", ", ".join("%s=%s" % kv for kv in c.overrides().items()) or "(all stock)"))
    m = Module()
    if m.loaded():
        print("\nmodule loaded: version %s; knobs %s" % (m.version()["version"], ", ".join(m.writable_knobs())))
        for f, (s, r) in m.feature_states().items():
            print("  feature %-12s %-12s %s" % (f, s, r))
    else:
        print("\nmodule not loaded (the bench loads it with modprobe, or --ko FILE)")
    print("\nworkloads: %s" % ", ".join(WORKLOAD_NAMES))
    return 0


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or (argv[0] not in COMMANDS and argv[0] not in ("-h", "--help")):
        argv.insert(0, "run")
    opts = parser().parse_args(argv)
    try:
        return {"run": cmd_run, "report": cmd_report, "check": cmd_check,
                "list": cmd_list, "build-helpers": cmd_build_helpers}[opts.cmd](opts)
    except (BenchError, WorkloadError, OSError) as e:
        sys.stderr.write("sched-tune-bench: %s\n" % e)
        return 1
