# SPDX-License-Identifier: GPL-2.0
"""--scoped (issue 31): a configuration and stock at once in two cgroups,
on a fake sysfs and a fake cgroupfs: the plan and its alternation, the
scopes written and put back, the refusals, the pairs in the paired
model, the caveat in the report, no workload left after a signal."""

import contextlib
import io
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, ".."))

from stbench import check, cli, markdown, plan, report, runner, scoped, stats  # noqa: E402
from stbench.module import BenchError, Config, stock_plus  # noqa: E402
from stbench.workloads import Interrupted, Proc, in_cgroup  # noqa: E402

from test_cli import FakeCounters, FakeModule, bench  # noqa: E402

FEATURES = ("ratelimit", "cache_level", "numa_scan", "eevdf", "prev_bias", "sync_short")
CG = "sys/fs/cgroup"


def put(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text + "\n")


def get(path):
    with open(path) as f:
        return f.read().strip()


def fake_tree(root, scopes=True, cgroup2=True):
    """A module's sysfs with a scope per feature (all "/"), and a machine
    with cgroup v2 at /sys/fs/cgroup (a plain directory)."""
    sysfs = os.path.join(root, "sys/kernel/sched_tune")
    for f in FEATURES:
        put(os.path.join(sysfs, "features", f, "state"), "inactive")
        if scopes:
            put(os.path.join(sysfs, "features", f, "scope"), "/")
    put(os.path.join(root, "proc/self/mounts"), "sysfs /sys sysfs rw 0 0\n" +
        ("cgroup2 /sys/fs/cgroup cgroup2 rw,nosuid 0 0" if cgroup2 else
         "tmpfs /sys/fs/cgroup tmpfs rw 0 0"))
    os.makedirs(os.path.join(root, CG), exist_ok=True)
    return sysfs


def run_opts(*argv):
    return cli.parser().parse_args(["run", "-q"] + list(argv))


def rl(name="rl"):
    return Config(name, stock_plus({"ratelimit_window_ns": "2000000"}), "rate limit", kind="user")


class Tree(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp()
        self.sysfs = fake_tree(self.root)

    def tearDown(self):
        shutil.rmtree(self.root)

    def scopes(self):
        return {f: get(os.path.join(self.sysfs, "features", f, "scope")) for f in FEATURES}

    def sc(self):
        s = scoped.Scoped(sysfs=self.sysfs, root=self.root, log=lambda m: None)
        s.rmdir = shutil.rmtree  # a plain directory holds the cgroup.procs written
        return s


class TestPlan(unittest.TestCase):
    CFGS = [("stock", False), ("seed", False), ("cache_level", False)]

    def test_pairs_and_alternation(self):
        steps = plan.scoped_schedule([("pipe", self.CFGS)], 4, 9, warmup=1)
        self.assertEqual(steps[0]["kind"], "calibrate")
        timed = [s for s in steps if s["kind"] == "timed"]
        # one pair per configuration and round; stock is in every pair, never a step of its own
        self.assertEqual(len(timed), 8)
        self.assertNotIn("stock", [s["config"] for s in steps])
        for r in range(1, 5):
            got = [s for s in timed if s["rep"] == r]
            self.assertEqual([s["config"] for s in got], plan.round_order(9, "pipe", r, ["seed", "cache_level"]))
            # A/B then B/A: the configuration's cgroup by turns
            self.assertEqual({s["side"] for s in got}, {"a" if r % 2 else "b"})
        warm = [s for s in steps if s["kind"] == "warmup"]
        self.assertEqual(len(warm), 1)  # the module stays loaded: before the first pair only
        self.assertEqual((warm[0]["config"], warm[0]["side"]), (timed[0]["config"], "a"))
        self.assertFalse([s for s in plan.scoped_schedule([("pipe", self.CFGS)], 2, 9, warmup=0)
                          if s["kind"] == "warmup"])

    def test_dry_run(self):
        p = bench("--dry-run", "--scoped", "-c", "seed,cache_level", "-n", "2", "--seed", "5",
                  "--cmd", "echo t=1", "--metric", "t=([0-9]+)")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("scoped A/B (--scoped)", p.stdout)
        self.assertIn("share the machine", p.stdout)
        self.assertIn("st_bench_a", p.stdout)
        rounds = [x.split(": ", 1)[1] for x in p.stdout.splitlines() if x.strip().startswith("round ")]
        self.assertEqual(len(rounds), 2)
        for r, got in enumerate(rounds, 1):
            side, other = ("a", "b") if r % 2 else ("b", "a")
            want = ["%s in st_bench_%s | stock in st_bench_%s" % (c, side, other)
                    for c in plan.round_order(5, "cmd", r, ["seed", "cache_level"])]
            self.assertEqual([x for x in got.split(", ") if not x.startswith("(warm-up)")], want)


class TestRefusals(Tree):
    def refused(self, *argv):
        b = runner.Bench(cli.run_options(run_opts("--scoped", *argv)))
        with self.assertRaises(BenchError) as e:
            b.check_scoped(b.build_configs()[0])
        msg = str(e.exception)
        self.assertIn("--scoped", msg)
        self.assertNotIn("\n", msg)
        return msg

    def test_options(self):
        self.assertIn("unloaded", self.refused("-c", "stock,unloaded,seed"))
        self.assertIn("baseline must be stock", self.refused("-c", "stock,seed", "--baseline", "seed"))
        self.assertIn("baseline must be stock", self.refused("-c", "seed,unloaded", "--baseline", "unloaded"))
        self.assertIn("besides stock", self.refused("-c", "stock"))
        self.assertIn("port 7003", self.refused("-c", "seed", "-w", "pipe,tbench"))
        self.assertIn("numa", self.refused("-c", "seed", "-w", "numa"))

    def test_defaults_leave_out_what_cannot_run(self):
        b = runner.Bench(cli.run_options(run_opts("--scoped")))
        configs = b.build_configs()[0]
        self.assertNotIn("unloaded", [c.name for c in configs])
        b.check_scoped(configs)
        try:
            names = [w.name.split("-")[0] for w in b.make_workloads(4, 1 << 20, build=False)]
        finally:
            b.env.cleanup()
        self.assertNotIn("tbench", names)
        self.assertNotIn("numa", names)
        self.assertIn("pipe", names)

    def test_exit_status(self):
        p = bench("--dry-run", "--scoped", "-c", "stock,unloaded", "--cmd", "true", "--metric", "x")
        self.assertEqual(p.returncode, 1)
        self.assertIn("--scoped cannot run configuration unloaded", p.stderr)
        self.assertNotIn("Traceback", p.stderr)

    def test_machine(self):
        s = self.sc()
        self.assertEqual(s.find_mount(), "/sys/fs/cgroup")
        self.assertEqual(s.check_module(), {f: "/" for f in FEATURES})
        # no cgroup v2
        fake_tree(self.root, cgroup2=False)
        with self.assertRaisesRegex(BenchError, "cgroup v2"):
            self.sc().find_mount()
        fake_tree(self.root)
        # a cgroup of the name exists: never taken over
        os.mkdir(os.path.join(self.root, CG, "st_bench_b"))
        with self.assertRaisesRegex(BenchError, "st_bench_b exists"):
            self.sc().find_mount()
        # a module without scopes
        shutil.rmtree(self.sysfs)
        fake_tree(self.root, scopes=False)
        with self.assertRaisesRegex(BenchError, "features/\\*/scope"):
            self.sc().check_module()
        # a scope someone set: the bench would not put it back
        fake_tree(self.root)
        put(os.path.join(self.sysfs, "features/prev_bias/scope"), "/system.slice")
        with self.assertRaisesRegex(BenchError, "prev_bias=/system.slice"):
            self.sc().check_module()

    def test_require(self):
        b = runner.Bench(cli.run_options(run_opts("--scoped", "-c", "seed")))
        b.root = self.root
        b.require({})
        self.assertEqual(b.scoped.mount, "/sys/fs/cgroup")
        fake_tree(self.root, cgroup2=False)
        with self.assertRaises(BenchError):
            b.require({})

    def test_feature_without_scope_skips_config(self):
        os.remove(os.path.join(self.sysfs, "features/sync_short/scope"))
        s = self.sc()
        self.assertIsNone(s.skip_reason(rl(), {}))
        why = s.skip_reason(Config("ss", stock_plus({"sync_short": "1"}), "x"), {})
        self.assertIn("sync_short", why)
        # an unsupported feature is left at stock: no scope needed
        self.assertIsNone(s.skip_reason(Config("ss", stock_plus({"sync_short": "1"}), "x"),
                                        {"sync_short": "unsupported"}))


class TestScopes(Tree):
    def test_write_verify_restore(self):
        s = self.sc()
        s.find_mount()
        s.create()
        for n in scoped.CGROUPS:
            self.assertTrue(os.path.isdir(os.path.join(self.root, CG, n)))
        want = s.apply(rl(), "a", {})
        self.assertEqual(self.scopes()["ratelimit"], "/st_bench_a")
        self.assertEqual([f for f, v in self.scopes().items() if v != "/"], ["ratelimit"])
        self.assertEqual(s.verify(want), [])
        # the next pair: another configuration in the other cgroup; the first's features back to /
        ss = Config("ss", stock_plus({"sync_short": "1"}), "x")
        want = s.apply(ss, "b", {})
        # sync_short decides in ratelimit's hook: both scoped
        self.assertEqual({f: v for f, v in self.scopes().items() if v != "/"},
                         {"sync_short": "/st_bench_b", "ratelimit": "/st_bench_b"})
        put(os.path.join(self.sysfs, "features/sync_short/scope"), "/")
        self.assertIn("sync_short", s.verify(want)[0])
        # stock's own copy (--aa) touches no feature: every scope /
        s.apply(Config("stock-aa", stock_plus({}), "x"), "a", {})
        self.assertEqual(set(self.scopes().values()), {"/"})
        s.apply(rl(), "b", {})
        self.assertEqual(s.restore(), [])
        self.assertEqual(set(self.scopes().values()), {"/"})
        self.assertEqual(os.listdir(os.path.join(self.root, CG)), [])

    def test_never_removes_a_cgroup_it_did_not_make(self):
        s = self.sc()
        s.find_mount()
        os.mkdir(os.path.join(self.root, CG, "user.slice"))
        s.create()
        self.assertEqual(s.restore(), [])
        self.assertEqual(os.listdir(os.path.join(self.root, CG)), ["user.slice"])
        # made nothing: removes nothing
        os.mkdir(os.path.join(self.root, CG, "st_bench_a"))
        self.assertEqual(self.sc().restore(), [])
        self.assertTrue(os.path.isdir(os.path.join(self.root, CG, "st_bench_a")))

    def test_proc_enters_its_cgroup(self):
        procs = os.path.join(self.root, "procs")
        with in_cgroup(procs):
            p = Proc(["/bin/sh", "-c", "echo $$"])
            rc, out = p.wait(30)
        self.assertEqual(rc, 0)
        self.assertEqual(get(procs), out.strip())  # the workload's own pid, before it ran
        p = Proc(["true"])  # outside the with: as before
        self.assertEqual(p.wait(30)[0], 0)
        self.assertEqual(p.p.args, ["true"])
        with in_cgroup(os.path.join(self.root, "no/such/dir/cgroup.procs")):
            rc, out = Proc(["echo", "ran"]).wait(30)
        self.assertNotEqual(rc, 0)  # never run outside its cgroup
        self.assertNotIn("ran", out.split())


WORK = r'''
# the wrapper's shell (the --cmd shell) wrote its pid: this one's or its parent's
cg=none
for s in a b; do grep -qxE "$$|$PPID" {root}/sys/fs/cgroup/st_bench_$s/cgroup.procs 2>/dev/null && cg=$s; done
n=$(cat {root}/n 2>/dev/null || echo 0); n=$((n + 1)); echo $n > {root}/n
base=100
[ "$(cat {sysfs}/features/ratelimit/scope)" = /st_bench_$cg ] && base=120
echo "in $cg"; echo "time: $base.$((n * 5 % 7))"
'''


class TestRun(Tree):
    """The run loop with a fake module, the fake trees and a workload that
    is 20 % slower where the rate limit's scope is its own cgroup."""

    def bench(self, *argv):
        script = os.path.join(self.root, "work.sh")
        with open(script, "w") as f:
            f.write(WORK.format(root=self.root, sysfs=self.sysfs))
        out = os.path.join(self.root, "out")
        opts = run_opts("--scoped", "-c", "stock", "--config", "rl:ratelimit_window_ns=2000000", "--seed", "4",
                        "--cmd", "sh " + script, "--metric", r"time: ([0-9.]+)", "--metric-name", "time_s",
                        "--idle-window", "0", "-o", out, *argv)
        b = runner.Bench(cli.run_options(opts))
        b.root = self.root
        b.module = FakeModule(os.path.join(self.root, "config"))
        b.module.support = {}
        b.counters = FakeCounters()
        b.out = out
        os.makedirs(out)
        configs, sweeps = b.build_configs()
        b.check_scoped(configs)
        b.require({})
        b.scoped = self.sc()
        b.scoped.find_mount()
        for c in configs:
            c.skip = b.scoped.skip_reason(c, {})
        b.scoped.create()
        wls = b.make_workloads(4, 1 << 20)
        base = next(c for c in configs if c.name == "stock")
        stamp = {"kernel": "test", "cpu_model": "test", "topology": {}, "hypervisor": {}, "module": {}}
        b.execute(stamp, configs, sweeps, wls, [], base)
        b.data["finished"] = "now"
        self.assertEqual(b.restore(), [])
        b.save()
        return b, out

    def test_pairs_report_and_restore(self):
        b, out = self.bench("-n", "4")
        data = b.data
        runs = [r for r in data["runs"] if not r.get("calibration")]
        self.assertTrue(all(r["ok"] for r in runs), [r.get("error") for r in runs])
        self.assertEqual(len(runs), 2 * 5)  # 4 pairs and a warm-up pair
        by_pair = {}
        for r in runs:
            by_pair.setdefault(r["pair"], []).append(r)
        for k, (ra, rb) in by_pair.items():
            self.assertEqual((ra["cgroup"], rb["cgroup"]), ("/sys/fs/cgroup/st_bench_a", "/sys/fs/cgroup/st_bench_b"))
            self.assertEqual(ra["started"], "first")
            self.assertEqual(sorted([ra["config"], rb["config"]]), ["rl", "stock"])
            self.assertEqual(ra["beside"], rb["config"])
            # the instance really ran in its cgroup, and only rl's got the feature
            for r in (ra, rb):
                self.assertIn("in " + r["cgroup"][-1], r["output_tail"][0])
                self.assertEqual(r["figures"]["time_s"] >= 120, r["config"] == "rl")
                self.assertEqual(r["observed"]["scopes"]["ratelimit"], "/st_bench_" + (
                    r["cgroup"][-1] if r["config"] == "rl" else ("b" if r["cgroup"][-1] == "a" else "a")))
                self.assertNotIn("counters", r)  # the machine's: both at once
                self.assertIn("migrations", r["shared_counters"])
        # A/B then B/A
        rl_cg = {r["rep"]: r["cgroup"][-1] for r in runs if r["config"] == "rl" and not r["warmup"]}
        self.assertEqual(rl_cg, {1: "a", 2: "b", 3: "a", 4: "b"})
        # put back: every scope /, the cgroups gone
        self.assertEqual(set(self.scopes().values()), {"/"})
        self.assertEqual(os.listdir(os.path.join(self.root, CG)), [])
        self.assertEqual(data["scoped"]["cgroups"], {"a": "/sys/fs/cgroup/st_bench_a",
                                                     "b": "/sys/fs/cgroup/st_bench_b"})
        # the report: the pairs' ratio, the caveat, the check
        view = markdown.write_all(out, data, draw_plots=False, log=lambda m: None)
        cmp = view["summary"]["cells"]["cmd"]["rl"]["vs_baseline"]["time_s"]
        self.assertAlmostEqual(cmp["pct"], 20.0, delta=3.0)
        self.assertTrue(cmp["significant"])
        self.assertIn("pair", cmp["model"])
        with open(os.path.join(out, "report.md")) as f:
            md = f.read()
        self.assertIn("Scoped A/B", md)
        self.assertIn("share the machine", md)
        self.assertIn("/sys/fs/cgroup/st_bench_a", md)
        self.assertIn("Paired by pair", md)
        with open(os.path.join(out, "summary.json")) as f:
            side = json.load(f)
        self.assertIn("share the machine", side["summary"]["scoped"]["caveat"])
        with open(os.path.join(out, "results.json")) as f:
            self.assertIn("share the machine", json.load(f)["scoped"]["caveat"])
        lines = io.StringIO()
        with contextlib.redirect_stdout(lines):
            rc = check.check_dir(out, ["stock", "rl"], ["cmd"], plots=False)
        text = lines.getvalue()
        self.assertIn("ok - scoped: every pair ran in both cgroups", text)
        self.assertIn("ok - scoped: every configuration ran in both cgroups, by turns", text)
        self.assertIn("ok - report.md says the run was scoped", text)
        # (the fake stamp lacks the machine: those lines only)
        bad = [x for x in text.splitlines() if x.startswith("not ok") and not x.startswith("not ok - stamp ")]
        self.assertEqual(bad, [])
        self.assertEqual(rc, 1)

    def test_until_width_pairs(self):
        b, out = self.bench("-n", "2", "--until-width", "0.0001", "--budget", "2")
        self.assertIn("until", b.data)
        reps = sorted({r["rep"] for r in b.data["runs"] if r.get("pair")})
        self.assertEqual(reps[:2], [1, 2])
        self.assertEqual(set(self.scopes().values()), {"/"})


class TestPairedModel(unittest.TestCase):
    def test_is_the_paired_t_test_of_the_ratios(self):
        """Two configurations beside stock: each one's change is the mean
        of its pairs' log ratios, its interval the paired t-test's (the
        variance pooled over both's pairs)."""
        import random
        rnd = random.Random(2)
        runs, k = [], 0
        effect = {"x": 1.10, "y": 0.95}
        for r in range(1, 6):
            for cn in ("x", "y"):
                k += 1
                level = math.exp(rnd.gauss(0, 0.2))  # the pair's machine
                for c in (cn, "stock"):
                    v = level * (effect[c] if c != "stock" else 1.0) * math.exp(rnd.gauss(0, 0.01))
                    runs.append({"workload": "w", "config": c, "rep": r, "ok": True, "pair": k,
                                 "figures": {"t": v}, "elapsed_s": v})
        data = {"alpha": 0.05, "baseline": "stock", "reps": 5, "scoped": {"cgroups": {}, "caveat": "c"},
                "configs": [{"name": c, "knobs": {}} for c in ("stock", "x", "y")],
                "workloads": [{"name": "w", "title": "w", "command": "w",
                               "metrics": [{"name": "t", "unit": "s", "better": "lower"}]}],
                "runs": runs, "stamp": {}, "state": "finished"}
        view = report.prepare(data)
        self.assertNotIn("summary", data)
        ds = {}
        for pr in range(1, k + 1):
            a, b = [x for x in runs if x["pair"] == pr]
            ds.setdefault(a["config"], []).append(math.log(a["figures"]["t"] / b["figures"]["t"]))
        for cn in ("x", "y"):
            cmp = view["summary"]["cells"]["w"][cn]["vs_baseline"]["t"]
            self.assertAlmostEqual(cmp["d"], stats.mean(ds[cn]), places=9)
            self.assertAlmostEqual(cmp["pct"], 100 * (math.exp(stats.mean(ds[cn])) - 1), places=6)
            # pooled: the residuals of both's pairs around their own means
            ss = sum((d - stats.mean(v)) ** 2 for v in ds.values() for d in v) / 2
            df = sum(len(v) - 1 for v in ds.values())
            self.assertEqual(cmp["df"], df)
            self.assertAlmostEqual(cmp["se"], math.sqrt(ss / df * 2 / len(ds[cn])), places=9)
        # the pair level (0.2) is gone from the change: 0.01 noise
        self.assertAlmostEqual(view["summary"]["cells"]["w"]["x"]["vs_baseline"]["t"]["pct"], 10.0, delta=1.5)
        self.assertEqual(view["summary"]["cells"]["w"]["x"]["vs_baseline"]["t"]["model"], "config + pair")


class TestSignals(Tree):
    def test_sigint_leaves_no_workload_no_scope_no_cgroup(self):
        """Through cmd_run's own finally, as test_machine's governor test:
        a pair's workload running, a scope written, then SIGINT."""
        pidfile = os.path.join(self.root, "pid")
        started = threading.Event()

        def run(self_):
            self_.scoped = scoped.Scoped(sysfs=self.sysfs, root=self.root, log=self_.log)
            self_.scoped.rmdir = shutil.rmtree
            self_.scoped.find_mount()
            self_.scoped.create()
            self_.scoped.apply(rl(), "a", {})

            def job():
                with in_cgroup(self_.scoped.procs("a")):
                    p = Proc(["/bin/sh", "-c", "echo $$ > %s; exec sleep 60" % pidfile])
                    started.set()
                    p.wait(120)
            self_.threads = [threading.Thread(target=job, daemon=True)]
            self_.threads[0].start()
            started.wait(10)
            for _ in range(100):
                if os.path.exists(pidfile) and get(pidfile):
                    break
                time.sleep(0.05)
            raise Interrupted(2)
        orig = runner.Bench.run
        runner.Bench.run = run
        try:
            with contextlib.redirect_stderr(io.StringIO()):
                rc = cli.cmd_run(run_opts("--scoped", "-c", "seed"))
        finally:
            runner.Bench.run = orig
        self.assertEqual(rc, 130)
        pid = int(get(pidfile))
        gone = False
        for _ in range(100):
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                gone = True
                break
            # a zombie until its parent reaps it
            st = subprocess.run(["ps", "-o", "stat=", "-p", str(pid)], stdout=subprocess.PIPE,
                                universal_newlines=True).stdout.strip()
            if not st or st.startswith("Z"):
                gone = True
                break
            time.sleep(0.05)
        self.assertTrue(gone, "the workload %d still runs" % pid)
        self.assertFalse(Proc.live)
        self.assertEqual(set(self.scopes().values()), {"/"})
        self.assertEqual(os.listdir(os.path.join(self.root, CG)), [])


if __name__ == "__main__":
    unittest.main()
