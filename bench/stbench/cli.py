# SPDX-License-Identifier: GPL-2.0
"""sched-tune-bench: A/B of sched_tune's configurations on this machine.

The command line: arguments, subcommands and what they print; the run
itself is runner.py's."""

import argparse
import dataclasses
import json
import os
import signal
import sys

from . import __version__
from . import module as modmod
from . import plan as planmod
from . import machine, markdown, report, runner, sysinfo
from . import scoped as scopedmod
from .module import BenchError, Module
from .runner import Bench
from .util import Log, fmt_duration, read
from .workloads import (HELPERS, WORKLOAD_NAMES, LoopWorkload, WorkloadError, default_cache_dir,
                        helper_binary)

COMMANDS = ("run", "list", "report", "check", "compare", "build-helpers")


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
    r.add_argument("--scoped", action="store_true",
                   help="each configuration at the same time as stock, the same workload in two cgroups v2 "
                   "(st_bench_a, st_bench_b) on the same CPUs, its features' scopes on its own cgroup: the "
                   "two share the machine, which the report says (needs features/*/scope and cgroup v2; "
                   "no unloaded, tbench or numa; baseline stock)")
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



def run_options(ns):
    """The runner's RunOptions from the run subcommand's arguments."""
    fields = {f.name for f in dataclasses.fields(runner.RunOptions)} - {"command"}
    return runner.RunOptions(command=" ".join([os.path.basename(sys.argv[0])] + sys.argv[1:]),
                             **{k: getattr(ns, k) for k in fields})


def dry_run(opts):
    """The plan, without root and without touching anything."""
    b = Bench(opts)
    b.check_options()
    configs, sweeps = b.build_configs()
    b.check_scoped(configs)
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
        if opts.scoped:
            steps = planmod.scoped_schedule(plan, opts.reps, seed, opts.warmup, base.name)
        else:
            steps = planmod.schedule(plan, opts.reps, seed, opts.warmup, Module.loaded(), base.unloaded)
        timed = [s for s in steps if s["kind"] == "timed"]
        warm = [s for s in steps if s["kind"] == "warmup"]
        if opts.scoped:
            sc = scopedmod.Scoped(root=b.root)
            sc.mount = scopedmod.cgroup2_mount(b.root)
            print("scoped A/B (--scoped): each configuration at the same time as %s, two instances of the same "
                  "workload on the same CPUs, in cgroups %s and %s%s; the configuration's features have their "
                  "scope on its cgroup, %s gets stock's decisions; the configuration in st_bench_a in odd "
                  "rounds, in st_bench_b in even ones; st_bench_a's instance started first"
                  % (base.name, sc.path_of(scopedmod.CGROUPS[0]), sc.path_of(scopedmod.CGROUPS[1]),
                     "" if sc.mount else " (no cgroup v2 mounted here)", base.name))
            print("caveat: " + scopedmod.CAVEAT)
            if opts.workloads is None:
                print("left out (cannot run twice at once): %s" % "; ".join(
                    "%s: %s" % kv for kv in sorted(scopedmod.REFUSED.items())))
        print("%d rounds; order seed %d (--seed %d repeats this order); %d timed %s, %d warm-ups"
              % (opts.reps, seed, seed, len(timed), "pairs (two runs at once each)" if opts.scoped else "runs",
                 len(warm)))
        est = planmod.estimate_seconds(steps, runnable, b.overhead())
        for w in runnable:
            print("order of %s:" % w.name)
            for r in range(1, opts.reps + 1):
                seq = [("(warm-up) " if s["kind"] == "warmup" else "") + (
                    "%s in st_bench_%s | %s in st_bench_%s" % (s["config"], s["side"], base.name,
                                                               "b" if s["side"] == "a" else "a")
                    if "side" in s else s["config"])
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
            if b.scoped and Module.loaded():
                b.scoped.check_module()
        except BenchError as e:
            print("a real run would stop here: %s" % e)
    finally:
        if b.env:
            b.env.cleanup()
    return 0


def cmd_run(opts):
    if opts.dry_run:
        return dry_run(run_options(opts))
    return runner.run(run_options(opts))


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
        view = markdown.write_all(out, data, draw_plots=not opts.no_plots, log=Log())
    except Exception as e:  # noqa: BLE001 - a report bug must not end in a traceback
        raise BenchError("cannot write the report from %s: %s: %s (a bug: please report it with "
                         "results.json)" % (os.path.join(opts.dir, "results.json"), type(e).__name__, e))
    for n in view.get("notes", []):
        sys.stderr.write("sched-tune-bench: note: %s\n" % n)
    for line in markdown.summary_lines(view):
        sys.stderr.write("sched-tune-bench: %s\n" % line)
    print(os.path.join(out, "report.md"))
    return 1 if report.failed(view) else 0


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