# SPDX-License-Identifier: GPL-2.0
"""The workloads: each scaled to the machine, each printing its command.

A workload knows its command, how to scale it (calibration runs for the
fixed-work ones, a duration for the timed ones), how to read its own
figures from its output, and which of them is its headline.
"""

import contextlib
import hashlib
import math
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time

from .util import read


class Metric:
    def __init__(self, name, unit, better, desc, source="output", scale=None):
        self.name = name
        self.unit = unit
        self.better = better       # "lower", "higher" or None
        self.desc = desc
        self.source = source       # "output" or "counter" (from /proc/vmstat)
        # "log": positive by nature (a time, a latency, a rate), compared as
        # a ratio; "linear": a count that can be 0, compared as a difference
        self.scale = scale or ("log" if better and source == "output" else "linear")

    def to_json(self):
        return {"name": self.name, "unit": self.unit, "better": self.better,
                "desc": self.desc, "source": self.source, "scale": self.scale}


class WorkloadError(Exception):
    pass


class Interrupted(BaseException):
    """A signal asked the bench to stop (SIGINT, SIGTERM, SIGHUP)."""

    def __init__(self, signum):
        super().__init__(signum)
        self.signum = signum


# --- processes -----------------------------------------------------------
_cgroup = threading.local()


@contextlib.contextmanager
def in_cgroup(procs):
    """with in_cgroup(PROCS): every Proc this thread starts puts itself in
    the cgroup whose cgroup.procs is PROCS before it execs (--scoped: two
    threads, one workload instance each); a child that cannot fails."""
    _cgroup.procs = procs
    try:
        yield
    finally:
        _cgroup.procs = None


class Proc:
    """A child in its own process group, killed as a group on the way out."""

    live = set()

    def __init__(self, cmd, cwd=None):
        self.cmd = cmd
        argv = list(cmd)
        procs = getattr(_cgroup, "procs", None)
        if procs:
            # the shell moves itself, then execs the command: the workload
            # and all its children start in the cgroup (no preexec_fn:
            # unsafe with the other instance's thread)
            argv = ["/bin/sh", "-c", 'echo $$ > "$0" && exec "$@"', procs] + argv
        self.p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  stdin=subprocess.DEVNULL, cwd=cwd,
                                  start_new_session=True, universal_newlines=True)
        Proc.live.add(self)

    def wait(self, timeout):
        try:
            out, _ = self.p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            out, _ = self.p.communicate()
            Proc.live.discard(self)
            raise WorkloadError("%s: no end after %d s, killed\n%s" % (
                self.cmd[0], timeout, (out or "")[-2000:]))
        Proc.live.discard(self)
        return self.p.returncode, out

    def kill(self):
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(self.p.pid, sig)
            except (ProcessLookupError, PermissionError):
                break
            for _ in range(40):
                if self.p.poll() is not None:
                    break
                time.sleep(0.05)
            if self.p.poll() is not None:
                break
        Proc.live.discard(self)

    @classmethod
    def kill_all(cls):
        for p in list(cls.live):
            p.kill()


def run_cmd(cmd, timeout, cwd=None):
    """Runs cmd; returns (output, wall seconds); raises on failure."""
    t0 = time.monotonic()
    rc, out = Proc(cmd, cwd=cwd).wait(timeout)
    wall = time.monotonic() - t0
    if rc != 0:
        raise WorkloadError("%s exited %d: %s" % (" ".join(cmd), rc, out.strip()[-1500:]))
    return out, wall


# --- helpers compiled at first use -----------------------------------------
HELPER_CFLAGS = ["-O2", "-pthread"]


def helper_sources():
    """Where the C sources of the bench's own programs are: in the
    package, as its data (bench/stbench/ in the tree, stbench/ in
    dist-packages installed)."""
    return [os.path.dirname(os.path.abspath(__file__))]


def find_source(name):
    for d in helper_sources():
        p = os.path.join(d, name + ".c")
        if os.path.isfile(p):
            return os.path.normpath(p)
    return None


def default_cache_dir():
    if os.environ.get("SCHED_TUNE_BENCH_CACHE"):
        return os.environ["SCHED_TUNE_BENCH_CACHE"]
    if os.geteuid() == 0:
        return "/var/cache/sched-tune-bench"
    return os.path.join(os.environ.get("XDG_CACHE_HOME") or
                        os.path.expanduser("~/.cache"), "sched-tune-bench")


def helper_binary(name, cache_dir, build=True):
    """Path of the compiled helper, built with gcc into cache_dir when the
    cache holds none for this exact source; None + reason if impossible."""
    src = find_source(name)
    if not src:
        return None, "source %s.c not found in %s" % (name, ", ".join(helper_sources()))
    with open(src, "rb") as f:
        h = hashlib.sha256(f.read() + " ".join(HELPER_CFLAGS).encode() +
                           os.uname().machine.encode()).hexdigest()[:16]
    binpath = os.path.join(cache_dir, "%s-%s" % (name, h))
    if os.access(binpath, os.X_OK):
        return binpath, None
    if not build:
        return None, "not built yet"
    gcc = shutil.which("gcc") or shutil.which("cc")
    if not gcc:
        return None, "gcc is needed once to build %s (install gcc)" % name
    os.makedirs(cache_dir, exist_ok=True)
    tmp = binpath + ".tmp%d" % os.getpid()
    p = subprocess.run([gcc] + HELPER_CFLAGS + ["-o", tmp, src], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, universal_newlines=True)
    if p.returncode:
        return None, "gcc %s failed: %s" % (src, p.stdout.strip()[-800:])
    os.rename(tmp, binpath)
    return binpath, None


# --- workloads -------------------------------------------------------------
def sig2(x):
    """Rounded to two significant digits (loop counts read better)."""
    if x <= 0:
        return 1
    e = int(math.floor(math.log10(x))) - 1
    return max(1, int(round(x / 10 ** e) * 10 ** e))


class Workload:
    name = "?"
    title = "?"
    metrics = []
    calibrated = False

    def __init__(self, env):
        self.env = env
        self.notes = []

    @property
    def primary(self):
        return self.metrics[0]

    def unavailable(self):
        return None

    def calibrate(self, runner):
        pass

    def command(self):
        raise NotImplementedError

    def expected_seconds(self):
        return self.env.run_seconds

    def timeout(self):
        return max(120, 20 * self.expected_seconds())

    def run(self):
        """Runs once; returns (figures, elapsed seconds of the work)."""
        out, wall = run_cmd(self.command(), self.timeout(), cwd=self.env.workdir)
        figs = self.parse(out)
        return figs, wall, out

    def parse(self, out):
        raise NotImplementedError

    def describe(self):
        return " ".join(self.command())

    def work(self):
        """What this workload does, as compare matches it: the command with
        the bench's cache directory left out of its program's path (the
        program's content hash stays: another source is other work)."""
        return work_of(self.describe())

    def to_json(self):
        return {"name": self.name, "title": self.title, "command": self.describe(),
                "work": self.work(), "loops": getattr(self, "loops", None),
                "metrics": [m.to_json() for m in self.metrics], "notes": self.notes}


def work_of(command):
    """A command as the work it does: every word that is a path to one of
    the bench's compiled helpers (st_*-HASH) reduced to its file name."""
    return " ".join(os.path.basename(w) if re.search(r"/st_[a-z_]+-[0-9a-f]{8,}$", w) else w
                    for w in command.split())


def _num(pattern, out, what):
    m = re.search(pattern, out)
    if not m:
        raise WorkloadError("no %s in the output: %s" % (what, out.strip()[-600:]))
    return float(m.group(1))


class LoopWorkload(Workload):
    """Fixed work, timed by the workload itself; calibrated to last about
    run_seconds on this machine."""

    loops = None
    min_loops = 1

    def fixed_loops(self):
        return None

    def fix(self):
        """A loop count given on the command line is the count from the
        start: in the dry run's commands as in the real run's."""
        if self.fixed_loops():
            self.loops = self.fixed_loops()

    def calibrate(self, runner):
        fixed = self.fixed_loops()
        if fixed:
            self.loops = fixed
            return
        target = self.env.run_seconds
        loops = self.start_loops
        for _ in range(8):
            self.loops = loops
            figs, wall, _ = runner(self)
            took = figs.get(self.primary.name) if self.primary.unit == "s" else wall
            took = took or wall
            if took >= 0.2 * target or loops >= 10 ** 9:
                break
            loops = int(loops * min(20, max(2, 0.5 * target / max(took, 1e-3))))
        self.loops = max(self.min_loops, sig2(loops * target / max(took, 1e-3)))
        self.notes.append("calibrated: %d loops took %.2f s, %d for about %g s" % (
            loops, took, self.loops, target))

    def expected_seconds(self):
        return self.env.run_seconds if self.loops else 5

    def calibration_runs(self):
        """Runs the calibration is expected to take (estimates only)."""
        return 0 if self.fixed_loops() else 3


class Hackbench(LoopWorkload):
    title = "hackbench (rt-tests), threads over pipes"
    start_loops = 100
    metrics = [Metric("time_s", "s", "lower", "hackbench's Time: for the fixed work")]

    def __init__(self, env, groups):
        super().__init__(env)
        self.groups = groups
        self.name = "hackbench-g%d" % groups
        self.fix()

    def fixed_loops(self):
        return self.env.opts.hackbench_loops

    def unavailable(self):
        return None if shutil.which("hackbench") else "hackbench not installed (Debian: rt-tests)"

    def command(self):
        return ["hackbench", "-g", str(self.groups), "-f", "20", "--threads", "--pipe",
                "-l", str(self.loops or self.start_loops), "-s", "100"]

    def parse(self, out):
        return {"time_s": _num(r"Time:\s*([0-9.]+)", out, "Time:")}


def perf_works():
    if not shutil.which("perf"):
        return "perf not installed (Debian: linux-perf)"
    try:
        p = subprocess.run(["perf", "bench", "sched", "pipe", "-l", "10"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           universal_newlines=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        return "perf bench does not run: %s" % e
    if p.returncode:
        return "perf bench does not run: %s" % p.stdout.strip()[-300:]
    return None


class PerfMessaging(LoopWorkload):
    name = "messaging"
    title = "perf bench sched messaging, threads over pipes"
    start_loops = 100
    metrics = [Metric("time_s", "s", "lower", "perf's Total time for the fixed work")]

    def __init__(self, env, groups):
        super().__init__(env)
        self.groups = groups
        self.fix()

    def fixed_loops(self):
        return self.env.opts.messaging_loops

    def unavailable(self):
        return self.env.perf_problem

    def command(self):
        return ["perf", "bench", "sched", "messaging", "-g", str(self.groups), "-p", "-t",
                "-l", str(self.loops or self.start_loops)]

    def parse(self, out):
        return {"time_s": _num(r"Total time:\s*([0-9.]+)", out, "Total time")}


class Pipe(LoopWorkload):
    """Pipe ping-pong between two tasks: the cost of a wakeup round trip,
    where a hook's own cost shows most."""

    name = "pipe"
    start_loops = 2000
    metrics = [Metric("usecs_per_op", "us", "lower", "time per round trip (two wakeups)")]

    def __init__(self, env):
        super().__init__(env)
        self.use_perf = env.perf_problem is None
        self.title = ("perf bench sched pipe" if self.use_perf else
                      "pipe ping-pong (st_wakelat -p, perf is not installed)")
        self.fix()

    def fixed_loops(self):
        return self.env.opts.pipe_loops

    def unavailable(self):
        if self.use_perf:
            return None
        return self.env.helper_problem("st_wakelat")

    def command(self):
        loops = str(self.loops or self.start_loops)
        if self.use_perf:
            return ["perf", "bench", "sched", "pipe", "-l", loops]
        return [self.env.helper("st_wakelat"), "-p", loops]

    def calibrate(self, runner):
        super().calibrate(runner)

    def parse(self, out):
        if self.use_perf:
            return {"usecs_per_op": _num(r"([0-9.]+)\s+usecs/op", out, "usecs/op")}
        return {"usecs_per_op": _num(r"usecs_per_op\s+([0-9.]+)", out, "usecs_per_op")}

    def run(self):
        figs, wall, out = super().run()
        # perf's own total time, not the process's: startup excluded
        m = re.search(r"Total time:\s*([0-9.]+)", out) or re.search(r"seconds\s+([0-9.]+)", out)
        return figs, float(m.group(1)) if m else wall, out


class Tbench(Workload):
    name = "tbench"
    title = "tbench over loopback (dbench package: tbench_srv + tbench)"
    metrics = [Metric("mb_per_s", "MB/s", "higher", "tbench Throughput"),
               Metric("max_latency_ms", "ms", "lower", "tbench max_latency")]
    port = 7003

    def unavailable(self):
        for b in ("tbench", "tbench_srv"):
            if not shutil.which(b):
                return "%s not installed (Debian: dbench)" % b
        s = socket.socket()
        try:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            s.bind(("0.0.0.0", self.port))
        except OSError as e:
            return "port %d (tbench_srv's) is taken: %s" % (self.port, e)
        finally:
            s.close()
        return None

    def clients(self):
        return self.env.opts.tbench_clients or self.env.ncpus

    def seconds(self):
        # tbench measures from its second second on: -t 1 always says 0 MB/sec
        return max(3, int(round(self.env.run_seconds)))

    def expected_seconds(self):
        return self.seconds() + 1

    def command(self):
        return ["tbench", "-t", str(self.seconds()), str(self.clients()), "127.0.0.1"]

    def describe(self):
        return "tbench_srv & " + " ".join(self.command())

    def run(self):
        srv = Proc(["tbench_srv"], cwd=self.env.workdir)
        try:
            deadline = time.monotonic() + 10
            while True:
                try:
                    socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                    break
                except OSError:
                    if srv.p.poll() is not None or time.monotonic() > deadline:
                        raise WorkloadError("tbench_srv did not listen on port %d" % self.port)
                    time.sleep(0.05)
            # our probe connection made the server fork a child; let it go
            out, wall = run_cmd(self.command(), self.timeout(), cwd=self.env.workdir)
        finally:
            srv.kill()
        m = re.search(r"Throughput\s+([0-9.]+)\s+MB/sec.*?max_latency=([0-9.]+)", out)
        if not m:
            raise WorkloadError("no Throughput line in tbench's output: %s" % out.strip()[-600:])
        if float(m.group(1)) <= 0:
            raise WorkloadError("tbench measured nothing (%s): the run is too short for this machine"
                                % m.group(0))
        return {"mb_per_s": float(m.group(1)), "max_latency_ms": float(m.group(2))}, \
            float(self.seconds()), out

    def parse(self, out):
        raise NotImplementedError


class Wakelat(Workload):
    name = "wakelat"
    title = "wakeup latency (st_wakelat: message threads wake workers, schbench-like)"
    metrics = [Metric("p99_us", "us", "lower", "99th percentile wakeup latency"),
               Metric("p90_us", "us", "lower", "90th percentile wakeup latency"),
               Metric("p50_us", "us", "lower", "median wakeup latency"),
               Metric("p999_us", "us", "lower", "99.9th percentile wakeup latency (schbench's last row)"),
               Metric("requests_per_s", "req/s", "higher", "worker requests completed per second")]

    def unavailable(self):
        return self.env.helper_problem("st_wakelat")

    def shape(self):
        o = self.env.opts
        m = o.wakelat_msg or max(2, self.env.ncpus // 8)
        w = o.wakelat_workers or max(2, self.env.ncpus // m)
        return m, w

    def seconds(self):
        return max(1, int(round(self.env.run_seconds)))

    def expected_seconds(self):
        return self.seconds() + 0.5

    def command(self):
        m, w = self.shape()
        return [self.env.helper("st_wakelat"), "-m", str(m), "-w", str(w), "-t",
                str(self.seconds()), "-r", str(self.env.opts.wakelat_work_us)]

    def parse(self, out):
        return parse_wakelat(out)

    def run(self):
        out, wall = run_cmd(self.command(), self.timeout(), cwd=self.env.workdir)
        return self.parse(out), float(self.seconds()), out


def parse_wakelat(out):
    """st_wakelat's line: the percentiles and requests/s (p999_us only
    from a st_wakelat that prints it)."""
    figs = {}
    for k in ("p50_us", "p90_us", "p99_us", "requests_per_s"):
        figs[k] = _num(k + r"\s+([0-9.]+)", out, k)
    m = re.search(r"p999_us\s+([0-9.]+)", out)
    if m:
        figs["p999_us"] = float(m.group(1))
    return figs


def parse_cpurate(out):
    """st_cpurate's one line: {figure: value}."""
    figs = {}
    for k in ("units_per_s", "copy_min_per_s", "copy_cv_pct", "starved"):
        figs[k] = _num(k + r"\s+([0-9.]+)", out, k)
    figs["seconds"] = _num(r"seconds\s+([0-9.]+)", out, "seconds")
    return figs


class CpuRate(Workload):
    """Seed 001's experiment: CPU-bound, cache-hungry copies, two per CPU
    (as SPECrate was run), whose throughput falls as tick preemptions
    rise; the eevdf-* configurations count those (stats/)."""

    name = "cpurate"
    title = ("CPU-bound cache-hungry copies, two per CPU (st_cpurate, SPECrate-like: seed 001's "
             "EEVDF tick-preemption experiment)")
    metrics = [Metric("units_per_s", "units/s", "higher",
                      "work units (4096 dependent loads each) per second, all copies"),
               Metric("copy_cv_pct", "%", "lower",
                      "coefficient of variation of the copies' units: how evenly the CPUs were shared",
                      scale="linear"),
               Metric("starved", "copies", "lower", "copies that finished no unit in the run",
                      scale="linear")]

    def unavailable(self):
        return self.env.helper_problem("st_cpurate")

    def shape(self):
        o = self.env.opts
        return (o.cpurate_copies or 2 * self.env.ncpus), o.cpurate_kb

    def seconds(self):
        return max(1, int(round(self.env.run_seconds)))

    def expected_seconds(self):
        return self.seconds() + 0.5

    def command(self):
        c, kb = self.shape()
        return [self.env.helper("st_cpurate"), "-c", str(c), "-t", str(self.seconds()), "-k", str(kb)]

    def parse(self, out):
        figs = parse_cpurate(out)
        figs.pop("seconds")
        figs.pop("copy_min_per_s")  # in the output for people; 0 when a copy starved
        return figs

    def run(self):
        out, wall = run_cmd(self.command(), self.timeout(), cwd=self.env.workdir)
        secs = parse_cpurate(out)["seconds"]
        return self.parse(out), secs, out


class Numa(Workload):
    name = "numa"
    title = "NUMA: threads touching only their own VMAs (st_numa_work, numa01_THREAD_ALLOC-like)"
    metrics = [Metric("passes_per_s", "passes/s", "higher", "passes over the memory per second"),
               Metric("numa_pte_updates", "per run", None, "/proc/vmstat numa_pte_updates during the run", "counter"),
               Metric("numa_hint_faults", "per run", None, "/proc/vmstat numa_hint_faults during the run", "counter")]

    def unavailable(self):
        nodes = len([d for d in os.listdir("/sys/devices/system/node") if re.match(r"node\d+$", d)]) \
            if os.path.isdir("/sys/devices/system/node") else 1
        if nodes < 2:
            return "one NUMA node: NUMA balancing has nothing to do"
        nb = read("/proc/sys/kernel/numa_balancing")
        if nb in (None, "0"):
            return "NUMA balancing is off (kernel.numa_balancing=%s)" % nb
        return self.env.helper_problem("st_numa_work")

    def shape(self):
        o = self.env.opts
        threads = o.numa_threads or 4 * self.env.ncpus
        mem_mb = (self.env.mem_kb or 4 << 20) // 1024
        total = min(3072, mem_mb // 4)
        mb = o.numa_mb or max(4, total // threads)
        return threads, mb

    def seconds(self):
        return max(2, int(round(self.env.run_seconds)))

    def expected_seconds(self):
        return self.seconds() + 1

    def command(self):
        t, mb = self.shape()
        return [self.env.helper("st_numa_work"), str(self.seconds()), str(t), str(mb), "2"]

    def run(self):
        out, wall = run_cmd(self.command(), self.timeout(), cwd=self.env.workdir)
        passes = _num(r"passes\s+([0-9]+)", out, "passes")
        return {"passes_per_s": passes / self.seconds()}, float(self.seconds()), out


class CmdWorkload(Workload):
    """The user's own program (--cmd, --metric, --direction): run through
    /bin/sh -c in the directory the bench started in; its figure is the
    first group of the --metric regular expression in its output (stdout
    and stderr), or the whole match when the expression has no group."""

    user = True

    def __init__(self, env, cmd, regex, direction="lower", name="cmd", metric="value",
                 unit="", cwd=None, timeout=3600, scale="log"):
        super().__init__(env)
        if direction not in ("lower", "higher"):
            raise WorkloadError("--direction must be lower or higher, not %r" % direction)
        try:
            self.regex = re.compile(regex, re.M)
        except re.error as e:
            raise WorkloadError("--metric %r is not a regular expression: %s" % (regex, e))
        self.cmd = cmd
        self.name = name
        self.title = "your workload (--cmd)"
        self.cwd = cwd or os.getcwd()
        self._timeout = timeout
        self.metrics = [Metric(metric, unit, direction,
                               "the number --metric %s reads from the output, %s is better"
                               % (regex, direction), scale=scale)]

    def command(self):
        return ["/bin/sh", "-c", self.cmd]

    def describe(self):
        return self.cmd

    def timeout(self):
        return self._timeout

    def expected_seconds(self):
        return self.env.run_seconds

    def parse(self, out):
        m = self.regex.search(out)
        if not m:
            raise WorkloadError("--metric %s matches nothing in the output: %s"
                                % (self.regex.pattern, out.strip()[-600:]))
        txt = m.group(1) if self.regex.groups else m.group(0)
        try:
            v = float(txt)
        except (TypeError, ValueError):
            raise WorkloadError("--metric %s matched %r, not a number" % (self.regex.pattern, txt))
        if not math.isfinite(v):
            raise WorkloadError("--metric %s matched %r, not a finite number" % (self.regex.pattern, txt))
        return {self.primary.name: v}

    def run(self):
        out, wall = run_cmd(self.command(), self.timeout(), cwd=self.cwd)
        return self.parse(out), wall, out

    def to_json(self):
        j = super().to_json()
        j.update(user=True, headline=self.primary.name, cmd=self.cmd, regex=self.regex.pattern)
        return j


WORKLOAD_NAMES = ["hackbench", "messaging", "pipe", "tbench", "wakelat", "numa", "cpurate"]
HELPERS = ("st_wakelat", "st_numa_work", "st_cpurate")


def hackbench_groups(ncpus):
    """The seed ran 32 groups (1280 threads) on 192 CPUs: about 6.7 threads
    per CPU.  Sweep below and at that load, so runqueues contend but CPUs
    still go idle somewhere in the sweep."""
    gs = sorted({max(1, int(math.ceil(ncpus * f))) for f in (1 / 24, 1 / 12, 1 / 6)})
    if len(gs) == 1:
        gs.append(gs[0] * 2)
    return gs


class Env:
    """What the workloads need from the machine and the options."""

    def __init__(self, opts, ncpus, mem_kb, cache_dir, build=True):
        self.opts = opts
        self.ncpus = ncpus
        self.mem_kb = mem_kb
        self.run_seconds = opts.run_seconds
        self.cache_dir = cache_dir
        self.workdir = tempfile.mkdtemp(prefix="sched-tune-bench.")
        self._helpers = {}
        self.build = build
        self.perf_problem = perf_works()

    def _helper(self, name):
        if name not in self._helpers:
            self._helpers[name] = helper_binary(name, self.cache_dir, build=self.build)
        return self._helpers[name]

    def helper(self, name):
        # not built yet (--dry-run): the plan names the program
        return self._helper(name)[0] or name

    def helper_problem(self, name):
        return self._helper(name)[1]

    def cleanup(self):
        shutil.rmtree(self.workdir, ignore_errors=True)


def make_workloads(env, names, groups):
    out = []
    for n in names:
        if n == "hackbench":
            out.extend(Hackbench(env, g) for g in groups)
        elif n == "messaging":
            out.append(PerfMessaging(env, groups[len(groups) // 2]))
        elif n == "pipe":
            out.append(Pipe(env))
        elif n == "tbench":
            out.append(Tbench(env))
        elif n == "wakelat":
            out.append(Wakelat(env))
        elif n == "numa":
            out.append(Numa(env))
        elif n == "cpurate":
            out.append(CpuRate(env))
        else:
            raise WorkloadError("unknown workload '%s' (known: %s)" % (n, ", ".join(WORKLOAD_NAMES)))
    return out
