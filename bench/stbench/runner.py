# SPDX-License-Identifier: GPL-2.0
"""The bench's run: configurations and workloads, the rounds in their
seeded order, the knobs and settings restored, Ctrl-C, results.json and
the report.  Takes plain RunOptions (cli.py builds them from its
arguments), so the run needs no command line."""

import dataclasses
import datetime
import json
import os
import signal
import sys
import threading
import time

from . import __version__
from . import module as modmod
from . import plan as planmod
from . import machine, markdown, report, sysinfo
from . import scoped as scopedmod
from .counters import Counters
from .module import BenchError, Module
from .util import Log, cpulist_parse, fmt_duration, fmt_num, read
from .workloads import (WORKLOAD_NAMES, CmdWorkload, Env, Interrupted, Proc, WorkloadError,
                        default_cache_dir, hackbench_groups, in_cgroup, make_workloads)

NUMA_DBG = "/sys/kernel/debug/sched/numa_balancing"
NUMA_FAST = (("scan_delay_ms", "100"), ("scan_period_min_ms", "100"), ("scan_period_max_ms", "400"))


@dataclasses.dataclass
class RunOptions:
    """What a run is asked to do: sched-tune-bench run's options, with
    their defaults (cli.py's parser has the same: a test checks it)."""
    configs: list = None
    config: list = dataclasses.field(default_factory=list)
    sweep: list = dataclasses.field(default_factory=list)
    sweep_base: str = "stock"
    sweep_workloads: list = None
    workloads: list = None
    reps: int = 5
    seed: int = None
    warmup: int = 1
    user_cmd: str = None
    metric: str = None
    direction: str = "lower"
    metric_name: str = "value"
    unit: str = ""
    cmd_name: str = "cmd"
    cmd_timeout: int = 3600
    metric_scale: str = "log"
    aa: bool = False
    idle_window: float = machine.IDLE_WINDOW_S
    run_seconds: float = 10.0
    alpha: float = 0.05
    baseline: str = "stock"
    out: str = None
    ko: str = None
    hackbench_groups: list = None
    hackbench_loops: int = None
    messaging_loops: int = None
    pipe_loops: int = None
    tbench_clients: int = None
    wakelat_msg: int = None
    wakelat_workers: int = None
    wakelat_work_us: int = 50
    cpurate_copies: int = None
    cpurate_kb: int = 2048
    numa_threads: int = None
    numa_mb: int = None
    numa_fast_scan: bool = False
    performance_governor: bool = False
    until_width: float = None
    budget: float = None
    no_schedstats: bool = False
    no_perf_events: bool = False
    cache_dir: str = None
    no_plots: bool = False
    title: str = None
    quiet: bool = False
    scoped: bool = False
    command: str = ""  # the command line, recorded in results.json


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
        self.scoped = None           # --scoped: the cgroups and the scopes (scoped.py)
        self.pair_no = 0             # --scoped: pairs run so far, warm-ups included
        self.threads = []            # --scoped: the threads of the pair running now

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
        if self.threads:
            # a thread of a pair may start its workload after the kill
            for t in self.threads:
                t.join(2)
            Proc.kill_all()
        if self.counters:
            self.counters.close()
        for path, old in reversed(list(self.sysctl_saved.items())):
            try:
                with open(path, "w") as f:
                    f.write(old)
            except OSError as e:
                problems.append("restoring %s=%s: %s" % (path, old, e))
        if self.scoped:
            # scopes to "/" and the cgroups gone before the module goes
            problems += self.scoped.restore()
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

    def check_scoped(self, configs):
        """--scoped: what cannot run beside stock, refused before anything
        is touched (the machine's side is require()'s)."""
        o = self.opts
        if not getattr(o, "scoped", False):
            return
        base = next(c for c in configs if c.name == o.baseline)
        if base.unloaded or base.overrides():
            raise BenchError("--scoped runs each configuration beside stock, the module loaded for both: "
                             "the baseline must be stock (every knob stock), not %s" % base.name)
        unl = [c.name for c in configs if c.unloaded]
        if unl:
            raise BenchError("--scoped cannot run configuration %s: the module is loaded for both cgroups "
                             "at once; run it without --scoped" % ", ".join(unl))
        if not [c for c in configs if c.name != base.name]:
            raise BenchError("--scoped needs a configuration besides %s to run beside it" % base.name)
        bad = ["%s (%s)" % (n, scopedmod.refused_workload(n)) for n in (o.workloads or [])
               if scopedmod.refused_workload(n)]
        if bad:
            raise BenchError("--scoped cannot run two instances of a workload at once here: %s"
                             % "; ".join(bad))

    def require(self, facts):
        """What the options need and this machine cannot give: one clear
        error before anything is touched, never a silent skip."""
        o = self.opts
        if getattr(o, "scoped", False):
            self.scoped = scopedmod.Scoped(root=self.root, log=self.log)
            self.scoped.find_mount()
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
        if o.configs is None and getattr(o, "scoped", False):
            names.remove("unloaded")  # --scoped: the module is loaded for both cgroups
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

    def one_pair(self, w, cfg, base, rep, side, warmup=False):
        """--scoped: cfg's knobs, its features' scopes on the cgroup of
        side, then two instances of w at once, cfg's in that cgroup and
        base's in the other (st_bench_a's started first).  Two records,
        st_bench_a's first, paired by their "pair" number.  The counters
        are the machine's, of both at once: kept as shared_counters, never
        compared."""
        self.pair_no += 1
        other = "b" if side == "a" else "a"
        who = {side: cfg, other: base}
        start = datetime.datetime.now().isoformat(timespec="seconds")
        recs = {}
        for sd in scopedmod.SIDES:
            recs[sd] = {"workload": w.name, "config": who[sd].name, "rep": rep, "ok": False,
                        "calibration": False, "warmup": warmup, "start": start, "pair": self.pair_no,
                        "cgroup": self.scoped.path_of(scopedmod.CGROUPS[scopedmod.SIDES.index(sd)]),
                        "beside": base.name if sd == side else cfg.name,
                        "started": "first" if sd == "a" else "second"}
        t0 = time.monotonic()
        load0 = machine.loadavg(self.root)
        shared = {}
        try:
            self.module.apply(cfg)
            scopes = self.scoped.apply(cfg, side, self.module.support)
            ok, problems, observed = self.module.verify(cfg)
            if not ok:
                # one more try: a write may race a feature's own state change
                self.module.apply(cfg)
                ok, problems, observed = self.module.verify(cfg)
            problems += self.scoped.verify(scopes)
            observed = dict(observed, scopes=scopes)
            for r in recs.values():
                r.update(observed=observed, sched_ext=sysinfo.sched_ext_state(),
                         sched_cache=sysinfo.sched_cache_state())
            if problems:
                raise BenchError("configuration not verified: " + "; ".join(problems))
            self.quiet_window(recs["a"], w, cfg, rep, False)
            before = self.counters.sample()
            out = self.run_both(w)
            shared = Counters.delta(before, self.counters.sample())
            for sd, r in recs.items():
                r["command"] = w.describe()
                if isinstance(out[sd], Exception):
                    r["error"] = str(out[sd])
                    self.log("  %s/%s in st_bench_%s failed: %s" % (w.name, r["config"], sd,
                                                                    str(out[sd]).splitlines()[0]))
                    continue
                figs, elapsed, text = out[sd]
                r.update(ok=True, figures=figs, elapsed_s=elapsed, output_tail=text.strip().splitlines()[-3:])
        except (WorkloadError, BenchError) as e:
            for r in recs.values():
                r.setdefault("error", str(e))
            self.log("  %s/%s beside %s failed: %s" % (w.name, cfg.name, base.name, str(e).splitlines()[0]))
        finally:
            wall = time.monotonic() - t0
            load1 = machine.loadavg(self.root)
            for r in recs.values():
                r.update(wall_s=wall, loadavg_before=load0, loadavg_after=load1, shared_counters=shared)
            if "idle_busy_pct" in recs["a"]:
                recs["b"]["idle_busy_pct"] = recs["a"]["idle_busy_pct"]
        return [recs["a"], recs["b"]]

    def run_both(self, w):
        """w twice at once, one instance in each cgroup, st_bench_a's thread
        started first: {side: (figures, elapsed, output) or the error}."""
        out = {}

        def job(sd):
            try:
                with in_cgroup(self.scoped.procs(sd)):
                    out[sd] = w.run()
            except Exception as e:  # noqa: BLE001 - the record says it; the other instance goes on
                out[sd] = e if isinstance(e, (WorkloadError, BenchError)) else WorkloadError(repr(e))
        self.threads = [threading.Thread(target=job, args=(sd,), daemon=True) for sd in scopedmod.SIDES]
        for t in self.threads:
            t.start()
        for t in self.threads:
            t.join()
        self.threads = []
        return out

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
            if getattr(o, "scoped", False):
                # those that cannot run twice at once (scoped.REFUSED)
                names = [n for n in names if not scopedmod.refused_workload(n)]
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
        self.check_scoped(self.build_configs()[0])
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
        if self.scoped:
            self.scoped.check_module()
            for c in configs:
                c.skip = c.skip or self.scoped.skip_reason(c, self.module.support)
                if c.skip and c.skip.startswith("--scoped"):
                    self.log("skipping configuration %s: %s" % (c.name, c.skip))
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
        if self.scoped:
            self.scoped.create()
        self.execute(stamp, configs, sweeps, workloads, skipped_w, base)

    def new_data(self, stamp, configs, sweeps, skipped_w, seed):
        o = self.opts
        return {
            "schema": 2, "tool": "sched-tune-bench", "tool_version": __version__,
            "command": o.command,
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
        if self.scoped:
            self.data["scoped"] = self.scoped.to_json(cpu_affinity())
        plan = [(w.name, [(c.name, c.unloaded) for c in active if c.runs_on(w.name)]) for w in workloads]
        if self.scoped:
            steps = planmod.scoped_schedule(plan, o.reps, seed, o.warmup, base.name)
        else:
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
            if "side" in st:
                what += " | beside %s, %s in st_bench_%s" % (self.base.name, c.name, st["side"])
            self.progress(done, len(runs_total), what, left)
            if "side" in st:
                recs = self.one_pair(w, c, self.base, st["rep"], st["side"], warmup=st["kind"] == "warmup")
            else:
                recs = [self.one_run(w, c, st["rep"], warmup=st["kind"] == "warmup")]
            for rec in recs:
                if st["kind"] == "warmup":
                    rec["why"] = st["why"]
                self.runs.append(rec)
            self.loaded_now = not c.unloaded
            self.per_w.setdefault(w.name, []).append(max(rec["wall_s"] for rec in recs))
            done += 1
            for rec in recs:
                if rec["ok"]:
                    m = w.primary
                    self.log("  %s/%s%s: %s %s %s" % (w.name, rec["config"],
                                                      " (warm-up, discarded)" if rec.get("warmup") else "",
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
                if self.scoped:
                    steps += planmod.scoped_round_steps(wname, [c for c, _ in cfgs if c != self.base.name],
                                                        rnd, seed, o.warmup)
                    continue
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


def cpu_affinity():
    """The bench's CPUs, which both --scoped instances inherit."""
    try:
        return machine.cpulist_format(sorted(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return None


def install_signals():
    def handler(signum, frame):
        raise Interrupted(signum)
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, handler)


def ignore_signals():
    for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, signal.SIG_IGN)


def run(opts):
    """The whole run with opts (RunOptions): whatever happens, the module
    and the settings are put back and the results written with their
    report.  Returns the exit status."""
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
                view = markdown.write_all(b.out, b.data, draw_plots=not opts.no_plots, log=b.log, made_by_file=True)
                for line in markdown.summary_lines(view):
                    b.log(line)
                if report.failed(view) and not rc:
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

