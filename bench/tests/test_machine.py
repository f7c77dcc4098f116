# SPDX-License-Identifier: GPL-2.0
"""The machine's state (fake /proc and /sys trees), the noisy-machine
warnings, --performance-governor and its restore, --numa-fast-scan under
lockdown, and --until-width/--budget through the run loop."""

import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, ".."))

from stbench import cli, machine, markdown, plan, report, runner  # noqa: E402
from stbench.module import BenchError  # noqa: E402
from stbench.workloads import Interrupted  # noqa: E402

from test_cli import FakeCounters, FakeModule  # noqa: E402

BENCH = os.path.join(HERE, "..", "sched-tune-bench")
CPU = "sys/devices/system/cpu"


def put(root, rel, text):
    p = os.path.join(root, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as f:
        f.write(text + "\n")


def get(root, rel):
    with open(os.path.join(root, rel)) as f:
        return f.read().strip()


def fake_machine(root, governors=("powersave", "schedutil", "powersave", "powersave"), lockdown="none",
                 debugfs=True, load="0.12 0.30 0.40 1/200 999", boost=True):
    """A 4-CPU machine: two NUMA nodes, SMT on, two C-states (C6 disabled
    on CPU 1), Spectre mitigations, a lockdown level."""
    n = len(governors)
    put(root, "proc/cpuinfo", "processor\t: 0\nmodel name\t: Fake EPYC 9999 64-Core Processor\nflags\t: fpu\n")
    put(root, "proc/cmdline", "BOOT_IMAGE=/vmlinuz root=/dev/sda1 mitigations=auto nosmt=off")
    put(root, "proc/loadavg", load)
    put(root, "proc/mounts", "sysfs /sys sysfs rw 0 0\n" + ("debugfs /sys/kernel/debug debugfs rw 0 0" if debugfs else ""))
    os.makedirs(os.path.join(root, "sys/kernel/debug/sched/numa_balancing"), exist_ok=True)
    put(root, CPU + "/online", "0-%d" % (n - 1))
    for c, g in enumerate(governors):
        d = "%s/cpu%d/cpufreq/" % (CPU, c)
        put(root, d + "scaling_governor", g)
        put(root, d + "scaling_driver", "acpi-cpufreq")
        put(root, d + "scaling_available_governors", "conservative ondemand userspace powersave performance schedutil")
        put(root, d + "scaling_min_freq", "1500000")
        put(root, d + "scaling_max_freq", "3000000" if c else "2000000")
        put(root, d + "cpuinfo_max_freq", "3700000")
        for s, (name, lat) in enumerate((("POLL", "0"), ("C1", "1"), ("C6", "400"))):
            sd = "%s/cpu%d/cpuidle/state%d/" % (CPU, c, s)
            put(root, sd + "name", name)
            put(root, sd + "latency", lat)
            put(root, sd + "disable", "1" if (c == 1 and name == "C6") else "0")
    if boost:
        put(root, CPU + "/cpufreq/boost", "1")
    put(root, CPU + "/smt/active", "1")
    put(root, CPU + "/smt/control", "on")
    put(root, CPU + "/cpuidle/current_driver", "acpi_idle")
    put(root, CPU + "/cpuidle/current_governor", "menu")
    put(root, CPU + "/vulnerabilities/spectre_v2", "Mitigation: Retpolines; IBPB: conditional")
    put(root, CPU + "/vulnerabilities/meltdown", "Not affected")
    put(root, "sys/devices/system/node/node0/cpulist", "0-1")
    put(root, "sys/devices/system/node/node1/cpulist", "2-3")
    put(root, "proc/stat", "cpu  100 0 100 1000 10 0 0 0 0 0\nctxt 5\n")
    put(root, "proc/version", "Linux version 6.12.95 (gcc) #1 SMP PREEMPT_DYNAMIC Debian 6.12.95-1")
    put(root, "proc/sys/kernel/sched_autogroup_enabled", "1")
    put(root, "sys/kernel/debug/sched/preempt", "none voluntary (full) lazy")
    put(root, "sys/kernel/debug/sched/base_slice_ns", "3000000")
    put(root, "sys/kernel/debug/sched/migration_cost_ns", "500000")
    put(root, "sys/kernel/mm/transparent_hugepage/enabled", "always [madvise] never")
    put(root, "boot/config-%s" % os.uname().release, "CONFIG_HZ_250=y\nCONFIG_HZ=250\nCONFIG_NO_HZ_IDLE=y\n")
    for c in range(n):
        put(root, "%s/cpu%d/cpufreq/energy_performance_preference" % (CPU, c), "balance_performance")
    with open(os.path.join(root, "proc/cpuinfo"), "a") as f:
        f.write("microcode\t: 0xa0011d1\n")
    if lockdown is not None:
        levels = ["none", "integrity", "confidentiality"]
        put(root, "sys/kernel/security/lockdown", " ".join("[%s]" % x if x == lockdown else x for x in levels))


class Tree(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.root)


class TestFacts(Tree):
    def test_every_fact(self):
        fake_machine(self.root)
        f = machine.facts(self.root)
        self.assertEqual(f["cpu_model"], "Fake EPYC 9999 64-Core Processor")
        cf = f["cpufreq"]
        self.assertEqual(cf["governor"], {"powersave": "0,2-3", "schedutil": "1"})
        self.assertEqual(cf["scaling_max_freq"], {"2000000": "0", "3000000": "1-3"})
        self.assertEqual(cf["scaling_min_freq"], {"1500000": "0-3"})
        self.assertEqual(cf["cpuinfo_max_freq"], {"3700000": "0-3"})
        self.assertEqual(cf["driver"], {"acpi-cpufreq": "0-3"})
        self.assertEqual(machine.governors(cf), {"powersave", "schedutil"})
        self.assertEqual(f["boost"]["state"], "on")
        self.assertEqual(f["smt"], {"active": True, "control": "on"})
        ci = f["cpuidle"]
        self.assertEqual((ci["driver"], ci["governor"]), ("acpi_idle", "menu"))
        self.assertEqual([s["name"] for s in ci["states"]], ["POLL", "C1", "C6"])
        self.assertEqual(ci["states"][2]["disabled_on"], "1")
        self.assertEqual(ci["states"][2]["enabled_on"], "0,2-3")
        self.assertEqual(ci["states"][1]["disabled_on"], "")
        self.assertIn("mitigations=auto", f["cmdline"])
        self.assertEqual(f["mitigations"]["meltdown"], "Not affected")
        self.assertTrue(f["mitigations"]["spectre_v2"].startswith("Mitigation: Retpolines"))
        self.assertEqual(f["numa_nodes"], {"node0": "0-1", "node1": "2-3"})
        self.assertEqual(f["loadavg"], [0.12, 0.30, 0.40])
        self.assertEqual(f["debugfs"]["lockdown"], "none")
        self.assertTrue(f["debugfs"]["mounted"])
        self.assertTrue(f["debugfs"]["writable"])
        # the whole record is JSON and gives the report's rows
        json.dumps(f)
        rows = dict(machine.rows(f))
        self.assertEqual(rows["cpufreq governor"], "powersave: 0,2-3, schedutil: 1")
        self.assertEqual(rows["boost / turbo"], "on (cpufreq/boost)")
        self.assertIn("C6 (disabled on CPUs 1)", rows["C-states"])
        self.assertEqual(rows["load average at start (1, 5, 15 min)"], "0.12 0.30 0.40")

    def test_intel_no_turbo_and_lockdown(self):
        fake_machine(self.root, boost=False, lockdown="integrity")
        put(self.root, CPU + "/intel_pstate/no_turbo", "1")
        self.assertEqual(machine.boost(self.root)["state"], "off")
        self.assertEqual(machine.boost(self.root)["source"], "intel_pstate/no_turbo")
        d = machine.debugfs(self.root)
        self.assertEqual(d["lockdown"], "integrity")
        self.assertFalse(d["writable"])
        self.assertIn("[integrity]", d["why"])
        put(self.root, "sys/kernel/security/lockdown", "none integrity [confidentiality]")
        self.assertEqual(machine.lockdown(self.root), "confidentiality")
        self.assertFalse(machine.debugfs(self.root)["writable"])

    def test_debugfs_not_mounted(self):
        fake_machine(self.root, debugfs=False)
        d = machine.debugfs(self.root)
        self.assertFalse(d["mounted"])
        self.assertFalse(d["writable"])
        self.assertIn("not mounted", d["why"])

    def test_empty_tree_is_na_never_an_exception(self):
        f = machine.facts(self.root)
        for k in ("cpu_model", "cpufreq", "boost", "smt", "cpuidle", "cmdline", "mitigations", "numa_nodes",
                  "loadavg"):
            self.assertTrue(machine.is_na(f[k]), (k, f[k]))
            self.assertRegex(f[k], r"^n/a \(.+\)$")
        self.assertTrue(machine.is_na(f["debugfs"]["lockdown"]))
        self.assertFalse(f["debugfs"]["writable"])
        self.assertEqual(machine.governor_files(self.root), {})
        self.assertEqual(machine.noisy(f), [])
        for k, v in machine.rows(f):
            self.assertIsInstance(v, str, k)
        json.dumps(f)

    def test_partial_cpuidle_and_bad_loadavg(self):
        put(self.root, CPU + "/cpuidle/current_driver", "none")
        put(self.root, "proc/loadavg", "garbage")
        ci = machine.cpuidle(self.root)
        self.assertEqual(ci["driver"], "none")
        self.assertTrue(machine.is_na(ci["governor"]))
        self.assertTrue(machine.is_na(ci["states"]))
        self.assertTrue(machine.is_na(machine.loadavg(self.root)))

    def test_cpulist_format(self):
        self.assertEqual(machine.cpulist_format([8, 0, 1, 2, 3, 10, 11]), "0-3,8,10-11")
        self.assertEqual(machine.cpulist_format([]), "")


class TestNoisy(Tree):
    def test_warnings(self):
        fake_machine(self.root, load="0.90 0.5 0.4 1/1 1")
        # a busy idle baseline (other work), not the load average (which
        # counts the bench's own runs: 386 of 386 runs warned once)
        w = machine.noisy(machine.facts(self.root), idle=40.0, ncpus=4)
        self.assertEqual(len(w), 2, w)
        self.assertIn("40.0% of the CPUs' time was busy while the bench was idle", w[0])
        self.assertIn("not performance", w[1])
        self.assertIn("schedutil (CPUs 1)", w[1])
        # with --performance-governor the governor is set, not warned about
        self.assertEqual(len(machine.noisy(machine.facts(self.root), performance_governor=True,
                                           idle=40.0, ncpus=4)), 1)

    def test_quiet_machine(self):
        # a load average of 50 from the bench's own runs is no warning
        fake_machine(self.root, governors=("performance",) * 4, load="50.0 2 2 1/1 1")
        self.assertEqual(machine.noisy(machine.facts(self.root), idle=3.0, ncpus=4), [])

    def test_idle_window(self):
        fake_machine(self.root)

        def busy_sleep(share):
            def sleep(sec):
                # during the window the CPUs were busy `share` of 400 jiffies
                b, t = machine.cpu_times(self.root)
                put(self.root, "proc/stat", "cpu  %d 0 0 %d 0 0 0 0 0 0\n" % (b + 400 * share, t - b + 400 * (1 - share)))
            return sleep
        self.assertAlmostEqual(machine.idle_busy(self.root, 0.5, busy_sleep(0.25)), 25.0)
        self.assertAlmostEqual(machine.idle_busy(self.root, 0.5, busy_sleep(0.0)), 0.0)
        # the limit: the baseline plus half a CPU (12.5 points of 4 CPUs), at least 2
        self.assertEqual(machine.idle_threshold(1.0, 4), 13.5)
        self.assertEqual(machine.idle_threshold(1.0, 192), 3.0)
        put(self.root, "proc/stat", "garbage")
        self.assertIsNone(machine.idle_busy(self.root, 0.5, lambda s: None))

    def test_missing_facts_recorded(self):
        fake_machine(self.root)
        f = machine.facts(self.root)
        self.assertEqual(f["preemption"], "full (debugfs sched/preempt: none voluntary (full) lazy)")
        self.assertEqual(f["config_hz"], "250 (CONFIG_NO_HZ_IDLE)")
        self.assertEqual(f["sched_autogroup_enabled"], "1")
        self.assertEqual(f["sched_tunables"], {"base_slice_ns": "3000000", "migration_cost_ns": "500000"})
        self.assertEqual(f["thp"], {"enabled": "always [madvise] never"})
        self.assertEqual(f["epp"], {"balance_performance": "0-3"})
        self.assertEqual(f["microcode"], "0xa0011d1")
        rows = dict(machine.rows(f))
        self.assertEqual(rows["CONFIG_HZ"], "250 (CONFIG_NO_HZ_IDLE)")
        self.assertIn("base_slice_ns: 3000000", rows["scheduler tunables (debugfs sched/)"])
        # an empty tree: each one n/a with its reason
        empty = machine.facts(os.path.join(self.root, "nothing"))
        for k in ("preemption", "config_hz", "sched_autogroup_enabled", "sched_tunables", "thp", "epp", "microcode"):
            self.assertTrue(machine.is_na(empty[k]), (k, empty[k]))

    def test_tool_versions(self):
        v = machine.tool_versions()
        for k in ("python3", "hackbench", "perf", "tbench", "gcc", "numpy", "scipy", "matplotlib"):
            self.assertIn(k, v)
            self.assertTrue(v[k])


def run_opts(*argv):
    return cli.parser().parse_args(["run", "-q"] + list(argv))


@contextlib.contextmanager
def at_root(root):
    old = runner.Bench.root
    runner.Bench.root = root
    try:
        yield
    finally:
        runner.Bench.root = old


class TestRequire(Tree):
    def test_numa_fast_scan_under_lockdown(self):
        fake_machine(self.root, lockdown="integrity")
        b = runner.Bench(cli.run_options(run_opts("--numa-fast-scan")))
        with at_root(self.root), self.assertRaises(BenchError) as e:
            b.require(machine.facts(self.root))
        msg = str(e.exception)
        self.assertIn("--numa-fast-scan", msg)
        self.assertIn("[integrity]", msg)
        self.assertNotIn("\n", msg)
        # without the option, lockdown is no error; with debugfs writable neither
        with at_root(self.root):
            runner.Bench(cli.run_options(run_opts())).require(machine.facts(self.root))
        fake_machine(self.root, lockdown="none")
        with at_root(self.root):
            b.require(machine.facts(self.root))
        shutil.rmtree(os.path.join(self.root, "sys/kernel/debug/sched/numa_balancing"))
        with at_root(self.root), self.assertRaises(BenchError):
            b.require(machine.facts(self.root))

    def test_numa_fast_scan_exits_before_any_run(self):
        """cmd_run as root, lockdown on: one line on stderr, exit 1, no
        output directory, the module never touched."""
        fake_machine(self.root, lockdown="confidentiality")
        for quiet in (True, False):
            self.exits_before_any_run(quiet)

    def exits_before_any_run(self, quiet):
        out = os.path.join(self.root, "out")
        opts = run_opts("--numa-fast-scan", "-w", "numa", "-o", out)
        opts.quiet = quiet
        err = io.StringIO()
        real = os.geteuid
        runner.os.geteuid = lambda: 0
        applied = []
        orig = runner.Module.take_snapshot
        runner.Module.take_snapshot = lambda self: applied.append("snapshot")
        try:
            with at_root(self.root), contextlib.redirect_stderr(err):
                rc = cli.cmd_run(opts)
        finally:
            runner.os.geteuid = real
            runner.Module.take_snapshot = orig
        self.assertEqual(rc, 1)
        lines = [x for x in err.getvalue().splitlines() if x.strip()]
        self.assertEqual(len(lines), 1, lines)
        self.assertTrue(lines[0].startswith("sched-tune-bench: error: --numa-fast-scan needs a writable debugfs"), lines)
        self.assertIn("[confidentiality]", lines[0])
        self.assertFalse(os.path.exists(out))
        self.assertEqual(applied, [])

    def test_governor_needs_cpufreq(self):
        b = runner.Bench(cli.run_options(run_opts("--performance-governor")))
        with at_root(self.root), self.assertRaises(BenchError) as e:
            b.require(machine.facts(self.root))
        self.assertIn("no cpufreq", str(e.exception))
        fake_machine(self.root)
        put(self.root, CPU + "/cpu2/cpufreq/scaling_available_governors", "powersave")
        with at_root(self.root), self.assertRaises(BenchError) as e:
            b.require(machine.facts(self.root))
        self.assertIn("CPUs 2 do not offer the performance governor", str(e.exception))

    def test_until_width_needs_budget(self):
        for argv, what in ((["--until-width", "5"], "needs --budget"), (["--budget", "60"], "give both")):
            p = subprocess.run([sys.executable, BENCH] + argv + ["-o", "/nonexistent/never"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, universal_newlines=True, timeout=60)
            self.assertEqual(p.returncode, 1, p.stderr)
            self.assertIn(what, p.stderr)
            self.assertNotIn("Traceback", p.stderr)
        for bad in ("0", "-1", "x", "inf"):
            with self.assertRaises(SystemExit), contextlib.redirect_stderr(io.StringIO()):
                run_opts("--until-width", bad, "--budget", "10")


class TestGovernor(Tree):
    GOV = ("powersave", "schedutil", "powersave", "ondemand")

    def govs(self):
        return [get(self.root, CPU + "/cpu%d/cpufreq/scaling_governor" % c) for c in range(4)]

    def test_set_and_restore(self):
        fake_machine(self.root, governors=self.GOV)
        b = runner.Bench(cli.run_options(run_opts("--performance-governor")))
        with at_root(self.root):
            rec = b.set_performance_governor()
        self.assertEqual(self.govs(), ["performance"] * 4)
        self.assertEqual(rec["previous"], {"ondemand": "3", "powersave": "0,2", "schedutil": "1"})
        self.assertEqual(b.restore(), [])
        self.assertEqual(self.govs(), list(self.GOV))

    def test_restored_after_ctrl_c(self):
        """Through cmd_run's own finally: SIGINT (Interrupted) in the middle
        of the bench puts every CPU's governor back, exit 130."""
        fake_machine(self.root, governors=self.GOV)
        seen = []

        def run(self_):
            self_.set_performance_governor()
            seen.append([get(self_.root, CPU + "/cpu%d/cpufreq/scaling_governor" % c) for c in range(4)])
            raise Interrupted(2)
        orig = runner.Bench.run
        runner.Bench.run = run
        try:
            with at_root(self.root), contextlib.redirect_stderr(io.StringIO()):
                rc = cli.cmd_run(run_opts("--performance-governor"))
        finally:
            runner.Bench.run = orig
        self.assertEqual(rc, 130)
        self.assertEqual(seen, [["performance"] * 4])
        self.assertEqual(self.govs(), list(self.GOV))

    def test_restored_after_an_error(self):
        fake_machine(self.root, governors=self.GOV)

        def run(self_):
            self_.set_performance_governor()
            raise BenchError("a workload broke")
        orig = runner.Bench.run
        runner.Bench.run = run
        try:
            with at_root(self.root), contextlib.redirect_stderr(io.StringIO()):
                rc = cli.cmd_run(run_opts("--performance-governor"))
        finally:
            runner.Bench.run = orig
        self.assertEqual(rc, 1)
        self.assertEqual(self.govs(), list(self.GOV))


class TestUntilWidth(Tree):
    """The run loop with a fake module and a fake workload (as test_cli's):
    'seed' about 20 % slower than the others, a little noise."""

    def bench(self, *argv, load="0.9 0.1 0.1 1/1 1", clock=None, sleep=None, noisy_sleep=None):
        fake_machine(self.root, load=load)
        state = os.path.join(self.root, "config")
        script = os.path.join(self.root, "work.sh")
        with open(script, "w") as f:
            f.write('c=$(cat %s); n=$(cat %s/n 2>/dev/null || echo 0); n=$((n + 1)); echo $n > %s/n\n'
                    'base=100; [ "$c" = seed ] && base=120\n'
                    'echo "time: $base.$((n * 5 %% 7))"\n' % (state, self.root, self.root))
        out = os.path.join(self.root, "out")
        opts = cli.parser().parse_args(
            ["run", "-c", "unloaded,stock,seed", "--seed", "7", "--cmd", "sh " + script,
             "--metric", r"time: ([0-9.]+)", "--metric-name", "time_s", "-q", "-o", out] + list(argv))
        b = runner.Bench(cli.run_options(opts))
        b.root = self.root
        if clock:
            b.clock = clock
            b.t0 = 0.0
        b.module = FakeModule(state)
        b.counters = FakeCounters()
        b.sleep = sleep or (lambda s: None)
        b.out = out
        os.makedirs(out)
        configs, sweeps = b.build_configs()
        for c in configs:
            c.skip = None
        wls = b.make_workloads(8, 1 << 20)
        base = next(c for c in configs if c.name == "stock")
        stamp = {"kernel": "test", "cpu_model": "test", "topology": {}, "hypervisor": {}, "module": {},
                 "machine": machine.facts(self.root), "idle_baseline": b.measure_idle_baseline(4)}
        if sleep:
            b.sleep = noisy_sleep
        b.execute(stamp, configs, sweeps, wls, [], base)
        b.data["finished"] = "now"
        b.save()
        self.view = markdown.write_all(out, b.data, draw_plots=False, log=lambda m: None, made_by_file=True)
        with open(os.path.join(out, "report.md")) as f:
            md = f.read()
        with open(os.path.join(out, "made-by.txt")) as f:
            mb = f.read()
        return b, md, mb

    def timed(self, data):
        return [r for r in data["runs"] if not r.get("warmup") and not r.get("calibration")]

    def test_narrow_enough_after_more_rounds(self):
        b, md, mb = self.bench("-n", "2", "--until-width", "1", "--budget", "300")
        u = b.data["until"]
        self.assertTrue(u["ended_by"].startswith("width"), u)
        self.assertGreater(u["rounds"], 2)
        self.assertEqual(b.data["reps"], u["rounds"])
        self.assertEqual(len(u["widths"]), 2)
        self.assertTrue(all(w < 1 for w in u["widths"].values()), u["widths"])
        timed = self.timed(b.data)
        self.assertEqual(len(timed), 3 * u["rounds"])
        # the extra rounds keep the seeded order, and are in results.json's order record
        for rnd in range(1, u["rounds"] + 1):
            want = plan.round_order(7, "cmd", rnd, ["unloaded", "stock", "seed"])
            self.assertEqual([r["config"] for r in timed if r["rep"] == rnd], want)
            self.assertEqual(b.data["order"]["rounds"]["cmd"][str(rnd)], want)
        # the rounds before the last one were not narrow enough (else it would have stopped)
        s = report.prepare(dict(b.data, runs=[r for r in b.data["runs"] if r["rep"] < u["rounds"]]))["summary"]
        self.assertTrue(any(abs(c["ci_pct"][1] - c["ci_pct"][0]) >= 1 for c in s["family"].values()
                            if c.get("ci_pct")) or any(c.get("ci_pct") is None for c in s["family"].values()))
        self.assertIn("ended by **width", md)
        self.assertIn("--until-width 1 --budget 300", md)
        self.assertIn("ended by width", mb)

    def test_budget_ends_it(self):
        """A clock that moves 10 s each time it is read: 10 s elapsed after
        the -n rounds, each extra round 'takes' 10 s; rounds 3, 4 and 5
        start at 10, 40 and 70 s; at 100 s the budget is spent."""
        t = [0.0]

        def clock():
            t[0] += 10.0
            return t[0]
        b, md, mb = self.bench("-n", "2", "--until-width", "0.0001", "--budget", "100", clock=clock)
        u = b.data["until"]
        self.assertTrue(u["ended_by"].startswith("budget: 100 s of 100 s used"), u)
        self.assertEqual(u["rounds"], 5)
        self.assertIn("ended by **budget", md)
        self.assertEqual(len(self.timed(b.data)), 3 * 5)

    def test_no_round_that_would_overrun(self):
        """Budget spent already after the -n rounds: no extra round."""
        t = [1000.0]
        b, md, mb = self.bench("-n", "2", "--until-width", "0.0001", "--budget", "60", clock=lambda: t[0])
        u = b.data["until"]
        self.assertEqual(u["rounds"], 2)
        self.assertTrue(u["ended_by"].startswith("budget: 1000 s of 60 s used"), u)
        self.assertEqual(len(self.timed(b.data)), 6)

    def test_already_narrow(self):
        b, md, mb = self.bench("-n", "3", "--until-width", "1000", "--budget", "300")
        self.assertEqual(b.data["until"]["rounds"], 3)
        self.assertTrue(b.data["until"]["ended_by"].startswith("width"))
        self.assertEqual(len(self.timed(b.data)), 9)

    def test_load_per_run_and_machine_in_report(self):
        b, md, mb = self.bench("-n", "2", load="0.90 0.5 0.4 1/1 1")
        runs = b.data["runs"]
        self.assertTrue(all(r["loadavg_before"] == [0.9, 0.5, 0.4] for r in runs))
        self.assertTrue(all(r["loadavg_after"] == [0.9, 0.5, 0.4] for r in runs))
        # recorded, not judged: the bench's own runs raise it
        self.assertFalse(any(r.get("load_warning") or r.get("noise_warning") for r in runs))
        self.assertNotIn("until", b.data)
        self.assertNotIn("load average above", md)
        self.assertIn("| CONFIG_HZ | 250 (CONFIG_NO_HZ_IDLE) |", md)
        self.assertIn("| preemption model | full (debugfs sched/preempt: none voluntary (full) lazy) |", md)
        self.assertIn("| C-states | driver acpi_idle, governor menu; POLL, C1, C6 (disabled on CPUs 1) |", md)
        self.assertIn("| boost / turbo | on (cpufreq/boost) |", md)
        self.assertIn("spectre_v2: Mitigation: Retpolines", md)
        self.assertIn("| debugfs | writable (lockdown none) |", md)
        self.assertIn("kernel command line: BOOT_IMAGE=/vmlinuz", mb)
        self.assertIn("NUMA nodes (sysfs): node0: 0-1, node1: 2-3", mb)

    def test_noise_against_the_idle_baseline(self):
        """Quiet windows at the start find 0% busy; from the runs on another
        program takes half the CPUs: every run is flagged, and counted in
        the report against the baseline."""
        def sleeper(share):
            def sleep(sec):
                b, t = machine.cpu_times(self.root)
                put(self.root, "proc/stat", "cpu  %d 0 0 %d 0 0 0 0 0 0\n" % (b + 400 * share, t - b + 400 * (1 - share)))
            return sleep
        b, md, mb = self.bench("-n", "2", sleep=sleeper(0.0), noisy_sleep=sleeper(0.5))
        self.assertEqual(b.data["stamp"]["idle_baseline"]["busy_pct"], 0.0)
        timed = self.timed(b.data)
        self.assertTrue(all(r["idle_busy_pct"] == 50.0 and r["noise_warning"] for r in timed))
        windows = [r for r in b.data["runs"] if not r.get("calibration")]
        self.assertIn("%d of %d runs had more than 12.5%% of the CPUs busy" % (len(windows), len(windows)), md)
        # a quiet machine: no run flagged
        shutil.rmtree(os.path.join(self.root, "out"))
        b, md, mb = self.bench("-n", "2", sleep=sleeper(0.01), noisy_sleep=sleeper(0.02))
        self.assertFalse(any(r.get("noise_warning") for r in self.timed(b.data)))
        self.assertNotIn("runs had more than", md)

    def test_check_wants_the_machine_and_the_load(self):
        from stbench import check
        from test_report import synthetic, write_dir
        for drop in ("machine", "load", None):
            data = synthetic()
            if drop == "machine":
                del data["stamp"]["machine"]
            elif drop == "load":
                del data["runs"][3]["loadavg_after"]
            d = os.path.join(self.root, str(drop))
            os.makedirs(d)
            write_dir(d, data, draw_plots=False)
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                rc = check.check_dir(d, None, None, plots=False)
            self.assertEqual(rc, 0 if drop is None else 1, out.getvalue())
            if drop == "machine":
                self.assertIn("not ok - stamp records the machine (cpu_model, cpufreq", out.getvalue())
            elif drop == "load":
                self.assertIn("not ok - every run records the load average before and after it (1 without)",
                              out.getvalue())
            else:
                self.assertIn("ok - stamp records the machine: cpu_model", out.getvalue())

    def test_old_results_have_no_machine_rows(self):
        data = {"stamp": {"kernel": "x"}, "runs": [], "configs": [], "workloads": []}
        txt = markdown.made_by(data)
        self.assertIn("machine state: n/a (not recorded", txt)
        self.assertEqual(markdown.machine_notes(data), [])


if __name__ == "__main__":
    unittest.main()
