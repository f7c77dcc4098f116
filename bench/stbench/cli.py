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
from . import plan as planmod
from . import machine, report, sysinfo
from .counters import Counters
from .module import BenchError, Module
from .util import Log, cpulist_parse, fmt_duration, fmt_num, read
from .workloads import (HELPERS, WORKLOAD_NAMES, CmdWorkload, Env, Interrupted, LoopWorkload, Proc, WorkloadError,
                        default_cache_dir, hackbench_groups, helper_binary,
                        make_workloads)

COMMANDS = ("run", "list", "report", "check", "compare", "build-helpers")
NUMA_DBG = "/sys/kernel/debug/sched/numa_balancing"
NUMA_FAST = (("scan_delay_ms", "100"), ("scan_period_min_ms", "100"), ("scan_period_max_ms", "400"))


def csv_ints(s):
    """A comma-separated list of positive integers."""
    try:
        v = [int(x) for x in s.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a comma-separated list of integers" % s)
    if not v or min(v) < 1:
        raise argparse.ArgumentTypeError("%r: every value must be a positive integer" % s)
    return v


def csv(s):
    return [x.strip() for x in s.split(",") if x.strip()]


def alpha_arg(s):
    """--alpha: a probability strictly between 0 and 1."""
    try:
        a = float(s)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a number" % s)
    if not 0.0 < a < 1.0:
        raise argparse.ArgumentTypeError("%s is outside (0, 1): a significance level such as 0.05" % s)
    return a


def nonneg_int(s):
    try:
        v = int(s)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not an integer" % s)
    if v < 0:
        raise argparse.ArgumentTypeError("%s is negative" % s)
    return v


def pos_float(s):
    try:
        v = float(s)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a number" % s)
    if not v > 0 or v != v or v == float("inf"):
        raise argparse.ArgumentTypeError("%s: must be a positive number" % s)
    return v


def pos_int(s):
    v = nonneg_int(s)
    if v < 1:
        raise argparse.ArgumentTypeError("%s: must be at least 1" % s)
    return v


def nonneg_float(s):
    try:
        v = float(s)
    except ValueError:
        raise argparse.ArgumentTypeError("%r is not a number" % s)
    if not v >= 0 or v == float("inf"):
        raise argparse.ArgumentTypeError("%s: must be a number >= 0" % s)
    return v


RUN_DESC = ("A/B benchmark of sched_tune's configurations on this machine: each workload "
            "under each configuration, in a seeded random order per round, with warm-up "
            "runs; each configuration compared with the baseline within the rounds (a model "
            "with the round as block and the run order as covariate), one estimator per "
            "figure, marks only on the headline family after a Benjamini-Hochberg "
            "correction, and the smallest change the run could have detected.")
RUN_EPILOG = ("other commands: sched-tune-bench list | report DIR [-o OUT] | check DIR | "
              "compare DIR DIR... [--csv|--json] | build-helpers  "
              "(sched-tune-bench COMMAND --help; man sched-tune-bench)")


def parser():
    p = argparse.ArgumentParser(
        prog="sched-tune-bench", description=RUN_DESC, epilog=RUN_EPILOG)
    p.add_argument("--version", action="version", version="sched-tune-bench " + __version__)
    sub = p.add_subparsers(dest="cmd")
    r = sub.add_parser("run", help="run the bench (default)", description=RUN_DESC, epilog=RUN_EPILOG,
                       usage="sched-tune-bench [run] [-c CONFIGS] [-w WORKLOADS] [-n REPS] [options]")
    r.add_argument("--version", action="version", version="sched-tune-bench " + __version__)
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
    r.add_argument("-n", "--reps", type=pos_int, default=5, help="repetitions (rounds) of each configuration (default 5)")
    r.add_argument("--seed", type=nonneg_int, default=None,
                   help="seed of the random order of configurations in each round (default: a new one, "
                   "recorded in results.json and the report; the same seed gives the same order)")
    r.add_argument("--warmup", type=nonneg_int, default=1,
                   help="discarded warm-up runs before each workload's first timed run and after every "
                   "load or unload of the module (default 1; 0: none)")
    r.add_argument("--dry-run", action="store_true",
                   help="print the plan (configurations, workloads, order, warm-ups, estimated time) and exit; "
                   "touches nothing, needs no root")
    r.add_argument("--cmd", dest="user_cmd", default=None, metavar="'COMMAND'",
                   help="your own workload: run COMMAND (through /bin/sh -c, in this directory) under every "
                   "configuration; only it runs unless -w names built-in workloads too")
    r.add_argument("--metric", default=None, metavar="REGEX",
                   help="with --cmd: the regular expression whose first group (or whole match) is the figure")
    r.add_argument("--direction", choices=("lower", "higher"), default="lower",
                   help="with --cmd: whether a lower or a higher figure is better (default lower)")
    r.add_argument("--metric-name", default="value", help="with --cmd: the figure's name (default value)")
    r.add_argument("--unit", default="", help="with --cmd: the figure's unit")
    r.add_argument("--cmd-name", default="cmd", help="with --cmd: the workload's name (default cmd)")
    r.add_argument("--cmd-timeout", type=pos_int, default=3600,
                   help="with --cmd: seconds after which a run is killed and counted failed (default 3600)")
    r.add_argument("--metric-scale", choices=("log", "linear"), default="log",
                   help="with --cmd: compare the figure as a ratio (log, for times and rates: positive) or as "
                   "a difference (linear, for counts that can be 0); default log")
    r.add_argument("--aa", action="store_true",
                   help="A/A: add a copy of the baseline under the name BASELINE-aa, run and compared like any "
                   "other configuration: the report checks the noise model against it")
    r.add_argument("--idle-window", type=nonneg_float, default=machine.IDLE_WINDOW_S, metavar="SECONDS",
                   help="the noise check: before every run the bench idles this long and measures the CPU time "
                   "other work takes, against the same window at the start (default %g; 0: no check)"
                   % machine.IDLE_WINDOW_S)
    r.add_argument("-s", "--run-seconds", type=pos_float, default=10.0,
                   help="target length of one run; fixed-work workloads are calibrated to it (default 10)")
    r.add_argument("--alpha", type=alpha_arg, default=0.05,
                   help="significance level in (0, 1): the false discovery rate of the headline family "
                   "(Benjamini-Hochberg) and 1 - the intervals' confidence (default 0.05)")
    r.add_argument("--baseline", default="stock", help="configuration the others are compared with (default stock)")
    r.add_argument("-o", "--out", default=None, help="output directory (default ./sched-tune-bench-DATE)")
    r.add_argument("--ko", default=None, help="load this .ko with insmod instead of modprobe sched_tune")
    r.add_argument("--hackbench-groups", type=csv_ints, default=None, help="hackbench -g sweep (default from the CPU count)")
    r.add_argument("--hackbench-loops", type=pos_int, default=None, help="hackbench -l (default: calibrated)")
    r.add_argument("--messaging-loops", type=pos_int, default=None, help="perf bench sched messaging -l (default: calibrated)")
    r.add_argument("--pipe-loops", type=pos_int, default=None, help="perf bench sched pipe -l (default: calibrated)")
    r.add_argument("--tbench-clients", type=pos_int, default=None, help="tbench clients (default: one per CPU)")
    r.add_argument("--wakelat-msg", type=pos_int, default=None, help="st_wakelat message threads (default max(2, CPUs/8))")
    r.add_argument("--wakelat-workers", type=pos_int, default=None, help="st_wakelat workers per message thread (default CPUs/message threads)")
    r.add_argument("--wakelat-work-us", type=pos_int, default=50, help="st_wakelat work per request, microseconds (default 50)")
    r.add_argument("--cpurate-copies", type=pos_int, default=None,
                   help="st_cpurate copies (default two per CPU, as SPECrate was run in seed 001)")
    r.add_argument("--cpurate-kb", type=pos_int, default=2048,
                   help="st_cpurate buffer per copy in KB, larger than a core's L2 (default 2048)")
    r.add_argument("--numa-threads", type=pos_int, default=None, help="st_numa_work threads (default 4 per CPU)")
    r.add_argument("--numa-mb", type=pos_int, default=None, help="st_numa_work MB per thread (default: a quarter of RAM, at most 3 GB, shared)")
    r.add_argument("--numa-fast-scan", action="store_true",
                   help="scan as often as NUMA balancing allows during the bench (debugfs scan_delay_ms/scan_period_*_ms, restored after); for short runs")
    r.add_argument("--performance-governor", action="store_true",
                   help="set the cpufreq governor performance on every CPU for the bench, and put each CPU's "
                   "previous governor back at the end (also after Ctrl-C or an error); fails if it cannot")
    r.add_argument("--until-width", type=pos_float, default=None, metavar="PCT",
                   help="after the -n rounds, add rounds until every headline comparison's interval is "
                   "narrower than PCT percentage points, or --budget runs out (the report says which)")
    r.add_argument("--budget", type=pos_float, default=None, metavar="SECONDS",
                   help="with --until-width: the bench's time budget; no round starts that would end after it")
    r.add_argument("--no-schedstats", action="store_true",
                   help="where the sched_wakeup tracepoint cannot be counted: leave kernel.sched_schedstats "
                   "alone (no wakeup count, no IPIs per wakeup); where it can, schedstats stay alone anyway")
    r.add_argument("--no-perf-events", action="store_true",
                   help="count no hardware events (cycles, instructions, cache-misses) and no sched "
                   "tracepoints (then wakeups come from schedstats)")
    r.add_argument("--cache-dir", default=None, help="where the C helpers are compiled (default %s)" % default_cache_dir())
    r.add_argument("--no-plots", action="store_true", help="no PNG plots")
    r.add_argument("--title", default=None, help="title of the report")
    r.add_argument("-q", "--quiet", action="store_true", help="no progress lines")
    rp = sub.add_parser("report", help="write report.md, summary.json and the plots from DIR/results.json "
                        "(which is never changed)")
    rp.add_argument("dir")
    rp.add_argument("-o", "--out", default=None,
                    help="where to write them (default DIR; results.json is only read)")
    rp.add_argument("--no-plots", action="store_true",
                    help="draw no plots (the PNGs already in the output's plots/ are linked)")
    ck = sub.add_parser("check", help="check a result directory's shape (TAP-like lines)")
    ck.add_argument("dir")
    ck.add_argument("--configs", type=csv, default=None, help="configurations that must be present")
    ck.add_argument("--workloads", type=csv, default=None, help="workloads that must be present")
    ck.add_argument("--no-plots", action="store_true")
    cp = sub.add_parser("compare", help="compare results directories (runs, kernels, machines), "
                        "compare-kernels style; the first is the baseline")
    cp.add_argument("dirs", nargs="+", metavar="DIR")
    fmt = cp.add_mutually_exclusive_group()
    fmt.add_argument("--csv", action="store_true", help="CSV on stdout instead of Markdown")
    fmt.add_argument("--json", action="store_true", help="JSON on stdout instead of Markdown")
    cp.add_argument("--alpha", type=alpha_arg, default=None,
                    help="significance level (default: the first directory's, else 0.05)")
    cp.add_argument("--configs", type=csv, default=None, help="only these configurations")
    cp.add_argument("--workloads", type=csv, default=None, help="only these workloads (hackbench: every -gG)")
    cp.add_argument("--labels", type=csv, default=None, help="column names, comma-separated (default: from each run)")
    sub.add_parser("list", help="configurations and workloads, and what this machine supports")
    bh = sub.add_parser("build-helpers", help="compile the C helpers into the cache")
    bh.add_argument("--cache-dir", default=None)
    return p


class Bench:
    root = "/"  # where the machine's state is read and its governors set (the tests: a fake tree)

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
        self.clock = time.monotonic  # --budget's clock (the tests: a fake one)
        self.sleep = time.sleep      # the quiet windows' (the tests: none)
        self.t0 = self.clock()
        self.warnings = []
        self.idle_limit = None
        self.dead = {}               # workloads whose calibration failed: why

    # --- side effects, each undone in restore() ---------------------------
    def set_file(self, path, value, must=False):
        old = read(path)
        if old is None and must:
            raise BenchError("cannot read %s: the bench needs to set it to %s" % (path, value))
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

    def warn(self, msg):
        """A warning: on stderr (also with -q) and in the report."""
        self.warnings.append(msg)
        if self.opts.quiet:
            sys.stderr.write("sched-tune-bench: warning: %s\n" % msg)
        else:
            self.log("warning: " + msg)

    def check_options(self):
        o = self.opts
        if getattr(o, "until_width", None) is not None and getattr(o, "budget", None) is None:
            raise BenchError("--until-width needs --budget SECONDS: the time after which no round starts")
        if getattr(o, "budget", None) is not None and getattr(o, "until_width", None) is None:
            raise BenchError("--budget only bounds --until-width PCT's extra rounds: give both")

    def require(self, facts):
        """What the options need and this machine cannot give: one clear
        error before anything is touched, never a silent skip."""
        o = self.opts
        if o.numa_fast_scan:
            dbg = facts.get("debugfs") or {}
            if not dbg.get("writable"):
                raise BenchError("--numa-fast-scan needs a writable debugfs, but %s; run without "
                                 "--numa-fast-scan (longer runs, -s, see scan sequences instead)" % dbg.get("why"))
            d = os.path.join(self.root, NUMA_DBG.lstrip("/"))
            if not os.path.isdir(d):
                raise BenchError("--numa-fast-scan needs %s, which this kernel does not have (no "
                                 "CONFIG_NUMA_BALANCING?)" % NUMA_DBG)
        if o.performance_governor:
            files = machine.governor_files(self.root)
            if not files:
                raise BenchError("--performance-governor: this machine has no cpufreq governor to set "
                                 "(no /sys/devices/system/cpu/cpu*/cpufreq: no driver, or a virtual machine)")
            cf = facts.get("cpufreq")
            lacking = []
            for cpu, f in sorted(files.items()):
                av = read(os.path.join(os.path.dirname(f), "scaling_available_governors"))
                if av is not None and "performance" not in av.split():
                    lacking.append(cpu)
            if lacking:
                raise BenchError("--performance-governor: CPUs %s do not offer the performance governor (%s)"
                                 % (machine.cpulist_format(lacking), machine._fmt(
                                     cf.get("available_governors") if isinstance(cf, dict) else cf)))

    def set_performance_governor(self):
        """performance on every CPU; restore() puts each one's back."""
        prev, now = {}, {}
        for cpu, f in sorted(machine.governor_files(self.root).items()):
            prev[cpu] = read(f)
            self.set_file(f, "performance", must=True)
            now[cpu] = read(f)
        bad = [c for c, g in now.items() if g != "performance"]
        if bad:
            raise BenchError("--performance-governor: CPUs %s still show governor %s after writing performance"
                             % (machine.cpulist_format(bad), ", ".join(sorted({now[c] or "?" for c in bad}))))
        self.log("cpufreq governor performance on CPUs %s (was %s; put back at the end)"
                 % (machine.cpulist_format(now), machine._fmt(machine._group(prev))))
        return {"set": "performance", "cpus": machine.cpulist_format(now), "previous": machine._group(prev)}

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
        if getattr(o, "aa", False):
            b = next(c for c in configs if c.name == base_name)
            aa = modmod.Config(base_name + "-aa", None if b.knobs is None else dict(b.knobs),
                               "A/A: a copy of %s under another name (--aa): the noise model's check" % base_name,
                               kind="aa")
            if any(c.name == aa.name for c in configs):
                raise BenchError("configuration name '%s' used twice (--aa adds it)" % aa.name)
            configs.append(aa)
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

    def one_run(self, w, cfg, rep, calibration=False, warmup=False):
        """Puts the module in cfg, checks it, runs w once, counts."""
        rec = {"workload": w.name, "config": cfg.name, "rep": rep, "ok": False,
               "calibration": calibration, "warmup": warmup,
               "start": datetime.datetime.now().isoformat(timespec="seconds")}
        t0 = time.monotonic()
        rec["loadavg_before"] = machine.loadavg(self.root)
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
            self.quiet_window(rec, w, cfg, rep, calibration)
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
            rec["loadavg_after"] = machine.loadavg(self.root)
        return rec

    def quiet_window(self, rec, w, cfg, rep, calibration):
        """The noise check: the bench idles --idle-window seconds before the
        run and measures the CPUs' busy time; above the machine's own idle
        baseline (at the start) by half a CPU, other work is running."""
        win = getattr(self.opts, "idle_window", 0) or 0
        if not win or calibration:
            return
        busy = machine.idle_busy(self.root, win, self.sleep)
        rec["idle_busy_pct"] = busy
        if busy is not None and self.idle_limit is not None and busy > self.idle_limit:
            rec["noise_warning"] = True
            self.log("  warning: %.1f%% of the CPUs busy while the bench idled before %s/%s round %d "
                     "(idle baseline %.1f%%, limit %.1f%%): other work is running"
                     % (busy, w.name, cfg.name, rep, self.idle_baseline, self.idle_limit))

    def measure_idle_baseline(self, ncpus):
        """Three quiet windows at the start: the machine's own idle busy
        percent, against which every run's window is judged."""
        win = getattr(self.opts, "idle_window", 0) or 0
        if not win:
            return {"window_s": 0, "note": "no noise check (--idle-window 0)"}
        samples = [machine.idle_busy(self.root, win, self.sleep) for _ in range(3)]
        vals = [x for x in samples if x is not None]
        if not vals:
            return {"window_s": win, "note": "no noise check: /proc/stat gave no reading"}
        from . import stats
        self.idle_baseline = stats.median(vals)
        self.idle_limit = machine.idle_threshold(self.idle_baseline, ncpus)
        return {"window_s": win, "samples_pct": samples, "busy_pct": self.idle_baseline,
                "limit_pct": self.idle_limit}

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
    def make_workloads(self, ncpus, mem_kb, build=True):
        """The workloads asked for, and those that cannot run here."""
        o = self.opts
        cache = o.cache_dir or default_cache_dir()
        self.env = Env(o, ncpus, mem_kb, cache, build=build)
        groups = o.hackbench_groups or hackbench_groups(ncpus)
        if o.workloads is not None:
            names = o.workloads
        else:
            names = [] if o.user_cmd else list(WORKLOAD_NAMES)
        wls = make_workloads(self.env, names, groups)
        if o.user_cmd:
            if not o.metric:
                raise BenchError("--cmd needs --metric REGEX: where its figure is in its output")
            if o.cmd_name in [w.name for w in wls]:
                raise BenchError("--cmd-name %s is a built-in workload's name" % o.cmd_name)
            wls.append(CmdWorkload(self.env, o.user_cmd, o.metric, o.direction, name=o.cmd_name,
                                   metric=o.metric_name, unit=o.unit, timeout=o.cmd_timeout,
                                   scale=getattr(o, "metric_scale", "log")))
        elif o.metric:
            raise BenchError("--metric needs --cmd")
        return wls

    def run(self):
        o = self.opts
        self.check_options()
        if os.geteuid() != 0:
            raise BenchError("run as root: the bench writes /sys/kernel/sched_tune and loads/unloads the module")
        facts = machine.facts(self.root)
        self.require(facts)
        self.out = o.out or "sched-tune-bench-%s" % datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        os.makedirs(self.out, exist_ok=True)
        self.module.take_snapshot()
        self.log("module %s at start%s" % (
            "loaded" if self.module.snapshot["loaded"] else "not loaded",
            "" if not self.module.snapshot["loaded"] else ": " + ", ".join(
                "%s=%s" % kv for kv in sorted(self.module.snapshot["knobs"].items()))))
        stamp = sysinfo.stamp()
        facts["tools"] = machine.tool_versions()
        stamp["machine"] = facts
        stamp["idle_baseline"] = self.measure_idle_baseline(stamp["cpus_online"])
        for w in machine.noisy(facts, o.performance_governor, stamp["idle_baseline"].get("busy_pct"),
                               stamp["cpus_online"]):
            self.warn(w)
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

        workloads, skipped_w = [], []
        for w in self.make_workloads(stamp["cpus_online"], stamp["memory_kb"]):
            why = w.unavailable()
            if why:
                skipped_w.append({"name": w.name, "why": why})
                self.log("skipping workload %s: %s" % (w.name, why))
            else:
                workloads.append(w)
        if not workloads:
            raise BenchError("no workload can run here")

        llc = [cpulist_parse(g) for g in stamp["topology"].get("llc_groups", [])]
        self.counters = Counters(sysinfo.online_cpus(), self.module, perf_events=not getattr(o, "no_perf_events", False),
                                 llc_groups=llc)
        # side effects, all undone by restore(); schedstats only where no
        # sched_wakeup tracepoint counts the wakeups
        if not o.no_schedstats and not self.counters.wakeups_from_tracepoint() and \
                os.path.exists("/proc/sys/kernel/sched_schedstats"):
            self.set_file("/proc/sys/kernel/sched_schedstats", "1")
        if o.numa_fast_scan and any(w.name == "numa" for w in workloads):
            for f, v in NUMA_FAST:
                self.set_file(os.path.join(NUMA_DBG, f), v, must=True)
        if o.performance_governor:
            stamp["performance_governor"] = self.set_performance_governor()
        stamp["numa_balancing_debugfs"] = {f: read(os.path.join(NUMA_DBG, f))
                                           for f in ("scan_delay_ms", "scan_period_min_ms",
                                                     "scan_period_max_ms", "scan_size_mb")
                                           if read(os.path.join(NUMA_DBG, f)) is not None}
        stamp["schedstats"] = read("/proc/sys/kernel/sched_schedstats")
        stamp["counter_methods"] = self.counters.methods()
        self.execute(stamp, configs, sweeps, workloads, skipped_w, base)

    def new_data(self, stamp, configs, sweeps, skipped_w, seed):
        o = self.opts
        return {
            "schema": 2, "tool": "sched-tune-bench", "tool_version": __version__,
            "command": " ".join([os.path.basename(sys.argv[0])] + sys.argv[1:]),
            "title": o.title, "started": datetime.datetime.now().isoformat(timespec="seconds"),
            "stamp": stamp, "alpha": o.alpha, "baseline": o.baseline, "reps": o.reps,
            "run_seconds": o.run_seconds, "configs": [c.to_json() for c in configs],
            "sweeps": sweeps, "workloads": [], "skipped_workloads": skipped_w,
            "order": {"seed": seed, "method": "random.Random('sched-tune-bench|SEED|WORKLOAD|ROUND')"
                      ".shuffle of the configurations, per workload and round", "rounds": {}},
            "warmup": o.warmup, "runs": self.runs, "state": "running",
            "warnings": self.warnings,
        }

    def execute(self, stamp, configs, sweeps, workloads, skipped_w, base):
        """Calibrates and runs every workload under every configuration in
        the seeded order, with the warm-ups; self.data holds it all.  With
        --until-width, more rounds follow until the headline intervals are
        narrow enough or the budget is spent."""
        o = self.opts
        seed = o.seed if o.seed is not None else planmod.new_seed()
        active = [c for c in configs if not c.skip]
        self.data = self.new_data(stamp, configs, sweeps, skipped_w, seed)
        plan = [(w.name, [(c.name, c.unloaded) for c in active if c.runs_on(w.name)]) for w in workloads]
        steps = planmod.schedule(plan, o.reps, seed, o.warmup, Module.loaded(), base.unloaded)
        runs_total = [st for st in steps if st["kind"] != "calibrate"]
        n_timed = len([st for st in runs_total if st["kind"] == "timed"])
        est = planmod.estimate_seconds(steps, workloads, self.overhead())
        self.data["plan"] = {"timed": n_timed, "warmups": len(runs_total) - n_timed, "estimate_s": est}
        self.log("%d workloads x up to %d configurations x %d rounds = %d timed runs + %d warm-ups "
                 "(+ calibration); order seed %d; estimated time about %s" % (
                     len(workloads), len(active), o.reps, n_timed, len(runs_total) - n_timed, seed,
                     fmt_duration(est)))
        self.byname = {c.name: c for c in active}
        self.base = base
        self.wl = {w.name: w for w in workloads}
        self.per_w = {}
        self.run_steps(steps)
        if getattr(o, "until_width", None) is not None:
            self.until(plan, seed)
        self.data["state"] = "finished"

    def overhead(self):
        """Seconds a run takes besides the workload's own: setting and
        checking the module, the quiet window."""
        return planmod.RUN_OVERHEAD_S + (getattr(self.opts, "idle_window", 0) or 0)

    def run_steps(self, steps):
        o = self.opts
        runs_total = [st for st in steps if st["kind"] != "calibrate"]
        for st in steps:
            if st["kind"] == "timed":
                self.data["order"]["rounds"].setdefault(st["workload"], {}).setdefault(
                    str(st["rep"]), []).append(st["config"])
        done = 0
        for k, st in enumerate(steps):
            w = self.wl[st["workload"]]
            if st["workload"] in self.dead:
                continue
            if st["kind"] == "calibrate":
                try:
                    self.calibrate(w, self.base)
                except WorkloadError as e:
                    # this workload is not measured; the others are
                    self.dead[w.name] = str(e)
                    self.data.setdefault("failed_workloads", []).append({"name": w.name, "why": str(e)})
                    self.log("workload %s not measured: %s" % (w.name, str(e).splitlines()[0]))
                    continue
                wj = w.to_json()
                self.log("workload %s: %s" % (w.name, wj["command"]))
                self.data["workloads"].append(wj)
                continue
            c = self.byname[st["config"]]
            left = 0.0
            for st2 in runs_total[done:]:
                ws = self.per_w.get(st2["workload"])
                left += sum(ws) / len(ws) if ws else self.wl[st2["workload"]].expected_seconds() + self.overhead()
            what = "%s | %s | %s %d/%d" % (w.name, c.name, "warm-up before round" if st["kind"] == "warmup"
                                          else "round", st["rep"], max(o.reps, st["rep"]))
            self.progress(done, len(runs_total), what, left)
            rec = self.one_run(w, c, st["rep"], warmup=st["kind"] == "warmup")
            if st["kind"] == "warmup":
                rec["why"] = st["why"]
            self.runs.append(rec)
            self.loaded_now = not c.unloaded
            self.per_w.setdefault(w.name, []).append(rec["wall_s"])
            done += 1
            if rec["ok"]:
                m = w.primary
                self.log("  %s/%s%s: %s %s %s" % (w.name, c.name, " (warm-up, discarded)" if rec.get("warmup") else "",
                                                  m.name, fmt_num(rec["figures"].get(m.name)), m.unit))
            nxt = steps[k + 1] if k + 1 < len(steps) else None
            if nxt is None or nxt["workload"] != st["workload"] or nxt["rep"] != st["rep"]:
                self.save()

    def headline_widths(self):
        """{headline comparison: width of its interval in percentage points}
        (inf: no interval yet; 0: no spread at all, nothing to narrow)."""
        summ = report.prepare(self.data)["summary"]
        out = {}
        for key, cmp in summ.get("family", {}).items():
            ci = cmp.get("ci_pct")
            if ci and all(x is not None for x in ci):
                out[key] = abs(ci[1] - ci[0])
            elif cmp.get("note") == "no spread":
                out[key] = 0.0
            else:
                out[key] = float("inf")
        return out

    def until(self, plan, seed):
        """--until-width PCT --budget S: one more round of every workload
        while a headline interval is PCT points wide or wider and the
        next round fits in what is left of the budget."""
        o = self.opts
        width, budget = o.until_width, o.budget
        rnd = o.reps
        loaded = getattr(self, "loaded_now", Module.loaded())
        info = {"width_pct": width, "budget_s": budget, "rounds_min": o.reps}
        self.data["until"] = info
        last_round_s = None
        while True:
            widths = self.headline_widths()
            elapsed = self.clock() - self.t0
            wide = {k: v for k, v in widths.items() if not v < width}
            info.update(rounds=rnd, elapsed_s=elapsed, widths=widths)
            if not widths:
                info["ended_by"] = "nothing to narrow: no headline comparison in this run"
                break
            if not wide:
                info["ended_by"] = "width: every headline interval narrower than %g points after %d rounds" % (width, rnd)
                break
            est = last_round_s
            if est is None:
                est = sum(sum(self.per_w[wn]) / len(self.per_w[wn]) * len(cfgs)
                          for wn, cfgs in plan if self.per_w.get(wn))
            if elapsed >= budget or elapsed + est > budget:
                info["ended_by"] = ("budget: %.0f s of %g s used, another round takes about %.0f s; "
                                    "%d headline interval%s still %g points wide or wider (widest %s)"
                                    % (elapsed, budget, est, len(wide), "" if len(wide) == 1 else "s", width,
                                       fmt_num(max(wide.values()))))
                break
            rnd += 1
            steps = []
            for wname, cfgs in plan:
                more, loaded = planmod.round_steps(wname, cfgs, rnd, seed, o.warmup, loaded)
                steps += more
            self.log("--until-width %g: %d headline interval%s %g points wide or wider (widest %s): round %d"
                     % (width, len(wide), "" if len(wide) == 1 else "s", width, fmt_num(max(wide.values())), rnd))
            t = self.clock()
            self.run_steps(steps)
            last_round_s = self.clock() - t
            self.data["reps"] = rnd
        self.log("--until-width: ended by %s" % info["ended_by"])

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


def dry_run(opts):
    """The plan, without root and without touching anything."""
    b = Bench(opts)
    b.check_options()
    configs, sweeps = b.build_configs()
    ncpus = len(sysinfo.online_cpus()) or os.cpu_count() or 1
    mem_kb = None
    for line in (read("/proc/meminfo") or "").splitlines():
        if line.startswith("MemTotal:"):
            mem_kb = int(line.split()[1])
    try:
        wls = b.make_workloads(ncpus, mem_kb, build=False)
        seed = opts.seed if opts.seed is not None else planmod.new_seed()
        base = next(c for c in configs if c.name == opts.baseline)
        print("sched-tune-bench %s: dry run, nothing is touched" % __version__)
        print("configurations (%d; whether this kernel supports each is checked at the start of a real run):"
              % len(configs))
        for c in configs:
            ov = ", ".join("%s=%s" % kv for kv in c.overrides().items()) if c.knobs else ""
            print("  %-14s %s" % (c.name, "(module not loaded)" if c.unloaded else ov or "(all stock)"))
        print("baseline: %s; alpha %g (Benjamini-Hochberg over the headline family)" % (opts.baseline, opts.alpha))
        print("workloads (%d):" % len(wls))
        runnable = []
        for w in wls:
            why = w.unavailable()
            if why == "not built yet":
                why = None  # compiled at the start of a real run
            cal = (isinstance(w, LoopWorkload) and not w.fixed_loops())
            print("  %-14s %s%s%s" % (w.name, w.describe(),
                                      "  (-l calibrated at the start to about %g s a run)" % opts.run_seconds
                                      if cal else "", "  [skipped: %s]" % why if why else ""))
            if not why:
                runnable.append(w)
        plan = [(w.name, [(c.name, c.unloaded) for c in configs if c.runs_on(w.name)]) for w in runnable]
        steps = planmod.schedule(plan, opts.reps, seed, opts.warmup, Module.loaded(), base.unloaded)
        timed = [s for s in steps if s["kind"] == "timed"]
        warm = [s for s in steps if s["kind"] == "warmup"]
        print("%d rounds; order seed %d (--seed %d repeats this order); %d timed runs, %d warm-ups"
              % (opts.reps, seed, seed, len(timed), len(warm)))
        est = planmod.estimate_seconds(steps, runnable, b.overhead())
        for w in runnable:
            print("order of %s:" % w.name)
            for r in range(1, opts.reps + 1):
                seq = [("(warm-up) " if s["kind"] == "warmup" else "") + s["config"]
                       for s in steps if s["workload"] == w.name and s["rep"] == r and s["kind"] != "calibrate"]
                print("  round %d: %s" % (r, ", ".join(seq)))
        print("counted around every run: task migrations, IPIs, context switches, wakeups, runqueue wait "
              "(schedstat run_delay), CPU idle time, the module's stats/ (eevdf-*: %s per second); %s"
              % (", ".join(report.EEVDF_COUNTERS),
                 "no hardware counters and no tracepoints (--no-perf-events)" if opts.no_perf_events else
                 "where available, hardware cycles, instructions, cache-misses (one group per CPU) and the "
                 "tracepoints sched:sched_migrate_task (also filtered: migrations that leave their LLC), "
                 "sched:sched_wakeup (perf_event_open, as perf stat -a)"))
        for c in configs:
            if c.slice_policy():
                print("  %s: the EEVDF slice policy; a kernel whose module answers EOPNOTSUPP (6.1) "
                      "skips it with the reason" % c.name)
        fixed = [w.name for w in runnable if isinstance(w, LoopWorkload) and w.fixed_loops()]
        print("estimated time: about %s (runs of about %g s, %g s each to set and check the module and "
              "for the quiet window of the noise check, calibration)%s" % (
                  fmt_duration(est), opts.run_seconds, b.overhead(),
                  "; %s run fixed loop counts, taken as %g s a run until timed" % (", ".join(fixed), opts.run_seconds)
                  if fixed else ""))
        if opts.until_width is not None:
            print("then more rounds until every headline interval is narrower than %g points, no round "
                  "ending after %s from the start (--until-width, --budget)" % (opts.until_width, fmt_duration(opts.budget)))
        facts = machine.facts(b.root)
        for w in machine.noisy(facts, opts.performance_governor):
            print("warning: " + w)
        print("the noise check: %s" % ("a quiet window of %g s before every run, against three at the start"
                                       % opts.idle_window if opts.idle_window else "none (--idle-window 0)"))
        try:
            b.require(facts)
        except BenchError as e:
            print("a real run would stop here: %s" % e)
    finally:
        if b.env:
            b.env.cleanup()
    return 0


def summary_lines(view):
    """The short summary a run ends with: the headline family's verdict,
    what it could have detected, the failures, the drift."""
    s = view.get("summary") or {}
    fam = s.get("family") or {}
    marked = [(k, c) for k, c in sorted(fam.items()) if c.get("significant")]
    d = s.get("detectable") or {}
    out = ["%d runs; %s; %d marked; smallest detectable change %s (median of the family)" % (
        len([r for r in view.get("runs", []) if not r.get("warmup") and not r.get("calibration")]),
        s.get("correction", "no headline comparison"), len(marked), report.fmt_pct_abs(d.get("median")))]
    for k, c in marked:
        w, m, a, b = k.split("|")
        out.append("  %s %s: %s vs %s %s" % (w, m, a, b, report.change(c)))
    f = s.get("failures") or {}
    if f.get("any") or f.get("failed_calibrations"):
        out.append("failures: %d runs failed, %d figures missing, %d invalid, %d calibrations failed" % (
            f.get("failed_runs", 0), f.get("missing_figures", 0), f.get("invalid_figures", 0),
            f.get("failed_calibrations", 0)))
    hot = sorted(w for w, x in (s.get("drift") or {}).items() if x.get("significant"))
    if hot:
        out.append("drift over the run order in %s (taken out by the paired model)" % ", ".join(hot))
    if s.get("aa"):
        out.append("A/A check: " + report.aa_verdict(s["aa"]).replace("**", ""))
    return out


def failed(view):
    """Whether any run failed or lacks a figure: the exit status says so."""
    f = (view.get("summary") or {}).get("failures") or {}
    return bool(f.get("any") or f.get("failed_calibrations"))


def cmd_run(opts):
    if opts.dry_run:
        return dry_run(opts)
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
        if opts.quiet or b.data is None:
            # loud also with -q: the one line that says why nothing ran
            sys.stderr.write("sched-tune-bench: error: %s\n" % e)
        else:
            b.log("error: %s" % e)
        rc = 1
    finally:
        ignore_signals()
        if b.module.snapshot is not None or b.sysctl_saved:
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
                view = report.write_all(b.out, b.data, draw_plots=not opts.no_plots, log=b.log, made_by_file=True)
                for line in summary_lines(view):
                    b.log(line)
                if failed(view) and not rc:
                    rc = 1
                    b.log("exit status 1: runs failed or lack a figure (the report counts them)")
                b.log("report: %s" % os.path.join(b.out, "report.md"))
            except Exception as e:  # a report bug must not hide the results
                b.log("writing the report failed: %r (results.json is complete)" % e)
                rc = rc or 1
            with open(os.path.join(b.out, "progress.json"), "w") as f:
                json.dump({"state": b.data["state"], "runs": len(b.runs)}, f)
        if problems:
            rc = rc or 1
    return rc


def load_results(d):
    """DIR/results.json, or a BenchError that says what is wrong with it."""
    path = os.path.join(d, "results.json")
    try:
        with open(path) as f:
            data = json.load(f)
    except OSError as e:
        raise BenchError("%s: %s" % (path, e.strerror or e))
    except ValueError as e:
        raise BenchError("%s is not valid JSON: %s" % (path, e))
    if not isinstance(data, dict):
        raise BenchError("%s holds no results (a JSON %s)" % (path, type(data).__name__))
    return data


def cmd_report(opts):
    """report.md, summary.json and the plots from DIR/results.json, in -o
    OUT (default DIR); results.json is only read.  Exit 1 when runs of it
    failed or lack a figure, as the run did."""
    data = load_results(opts.dir)
    out = opts.out or opts.dir
    try:
        view = report.write_all(out, data, draw_plots=not opts.no_plots, log=Log())
    except Exception as e:  # noqa: BLE001 - a report bug must not end in a traceback
        raise BenchError("cannot write the report from %s: %s: %s (a bug: please report it with "
                         "results.json)" % (os.path.join(opts.dir, "results.json"), type(e).__name__, e))
    for n in view.get("notes", []):
        sys.stderr.write("sched-tune-bench: note: %s\n" % n)
    for line in summary_lines(view):
        sys.stderr.write("sched-tune-bench: %s\n" % line)
    print(os.path.join(out, "report.md"))
    return 1 if failed(view) else 0


def cmd_compare(opts):
    from . import compare
    runs = []
    for d in opts.dirs:
        runs.append((d, load_results(d)))
    res = compare.compare(runs, alpha=opts.alpha, configs=opts.configs, workloads=opts.workloads,
                          labels=opts.labels)
    if opts.json:
        json.dump(report.finite(res), sys.stdout, indent=1, allow_nan=False)
        sys.stdout.write("\n")
    elif opts.csv:
        compare.write_csv(res, sys.stdout)
    else:
        sys.stdout.write(compare.markdown(res))
    return 0


def cmd_check(opts):
    from . import check
    return check.check_dir(opts.dir, opts.configs, opts.workloads, plots=not opts.no_plots)


def cmd_build_helpers(opts):
    cache = opts.cache_dir or default_cache_dir()
    rc = 0
    for name in HELPERS:
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


def _main(argv):
    if argv and argv[0] in ("-h", "--help"):
        # the run options are what a user looks for first
        argv = ["run", "--help"]
    elif argv[:1] == ["--version"]:
        pass
    elif not argv or argv[0] not in COMMANDS:
        argv.insert(0, "run")
    opts = parser().parse_args(argv)
    try:
        return {"run": cmd_run, "report": cmd_report, "check": cmd_check, "compare": cmd_compare,
                "list": cmd_list, "build-helpers": cmd_build_helpers}[opts.cmd](opts)
    except (BenchError, WorkloadError, OSError) as e:
        if isinstance(e, BrokenPipeError):
            raise
        sys.stderr.write("sched-tune-bench: %s\n" % e)
        return 1


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        rc = _main(argv)
        sys.stdout.flush()
        return rc
    except BrokenPipeError:
        # the reader went away (check DIR | head): end quietly, as a
        # program killed by SIGPIPE would; nothing more goes to stdout
        try:
            fd = os.open(os.devnull, os.O_WRONLY)
            os.dup2(fd, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 128 + signal.SIGPIPE
