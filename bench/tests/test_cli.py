# SPDX-License-Identifier: GPL-2.0
"""The command line, the run order, the user's own workload and compare:
no module involved (a fake one records what the bench asks of it)."""

import argparse
import contextlib
import csv
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))

from stbench import check, cli, compare, markdown, plan, report, runner  # noqa: E402
from stbench.util import fmt_duration  # noqa: E402
from stbench.workloads import CmdWorkload, WorkloadError  # noqa: E402

from test_report import synthetic, write_dir  # noqa: E402

BENCH = os.path.join(HERE, "..", "sched-tune-bench")
FIX = os.path.join(HERE, "fixtures", "compare")
K612, K73 = os.path.join(FIX, "6.12.95+deb12-amd64"), os.path.join(FIX, "7.3.4+deb13-amd64")


def bench(*args, stdin=None):
    return subprocess.run([sys.executable, BENCH] + list(args), stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True, timeout=120)


class TestArgs(unittest.TestCase):
    def parse(self, *argv):
        return cli.parser().parse_args(["run"] + list(argv))

    def test_alpha_range(self):
        self.assertEqual(self.parse("--alpha", "0.01").alpha, 0.01)
        for bad in ("5", "0", "1", "-0.1", "x", "nan"):
            with self.assertRaises(SystemExit), contextlib.redirect_stderr(io.StringIO()):
                self.parse("--alpha", bad)
        with self.assertRaises(argparse.ArgumentTypeError):
            cli.alpha_arg("1.5")

    def test_alpha_5_exits_2_before_running(self):
        p = bench("--alpha", "5", "-o", "/nonexistent/never")
        self.assertEqual(p.returncode, 2)
        self.assertIn("outside (0, 1)", p.stderr)
        self.assertNotIn("Traceback", p.stderr)

    def test_help_shows_run_options(self):
        p = bench("--help")
        self.assertEqual(p.returncode, 0)
        for opt in ("-n REPS", "-w WORKLOADS", "-c CONFIGS", "--cmd", "--seed", "--dry-run", "compare"):
            self.assertIn(opt, p.stdout)

    def test_version(self):
        for argv in (["--version"], ["run", "--version"]):
            p = bench(*argv)
            self.assertEqual(p.returncode, 0)
            self.assertRegex(p.stdout, r"^sched-tune-bench \d+\.\d+")

    def test_run_options_defaults_are_the_parsers(self):
        """The runner's RunOptions() and `run` without options: one run."""
        got = cli.run_options(self.parse())
        got.command = ""
        self.assertEqual(got, runner.RunOptions())

    def test_runner_needs_no_cli(self):
        code = ("import sys; sys.path.insert(0, %r); from stbench import runner; "
                "print('stbench.cli' in sys.modules)" % os.path.join(HERE, ".."))
        out = subprocess.run([sys.executable, "-c", code], stdout=subprocess.PIPE, universal_newlines=True).stdout
        self.assertEqual(out.strip(), "False")


class TestOrder(unittest.TestCase):
    CFGS = [("unloaded", True), ("stock", False), ("passthrough", False), ("seed", False), ("ratelimit", False)]

    def test_reproducible_from_seed(self):
        names = [c for c, _ in self.CFGS]
        a = [plan.round_order(1234, "pipe", r, names) for r in range(1, 9)]
        b = [plan.round_order(1234, "pipe", r, names) for r in range(1, 9)]
        self.assertEqual(a, b)
        for o in a:
            self.assertEqual(sorted(o), sorted(names))
        # the rounds differ from one another, and another seed gives another order
        self.assertGreater(len({tuple(o) for o in a}), 1)
        self.assertNotEqual(a, [plan.round_order(1235, "pipe", r, names) for r in range(1, 9)])
        # reproducible in a fresh interpreter (no dependence on PYTHONHASHSEED)
        code = ("import sys; sys.path.insert(0, %r); from stbench import plan; "
                "print([plan.round_order(1234, 'pipe', r, %r) for r in range(1, 9)])"
                % (os.path.join(HERE, ".."), names))
        out = subprocess.run([sys.executable, "-c", code], stdout=subprocess.PIPE, universal_newlines=True,
                             env=dict(os.environ, PYTHONHASHSEED="99")).stdout
        self.assertEqual(out.strip(), repr(a))

    def test_first_position_not_fixed(self):
        # over many rounds, every configuration sometimes runs first
        names = [c for c, _ in self.CFGS]
        firsts = {plan.round_order(7, "hackbench-g1", r, names)[0] for r in range(1, 60)}
        self.assertEqual(firsts, set(names))

    def test_warmups(self):
        steps = plan.schedule([("pipe", self.CFGS), ("tbench", self.CFGS[1:])], 4, 42, warmup=1,
                              loaded_at_start=False)
        loaded = None
        first = {}
        for i, st in enumerate(steps):
            if st["kind"] == "calibrate":
                loaded = True  # the baseline, stock: loaded
                continue
            if st["kind"] == "timed":
                want = st["config"] != "unloaded"
                needs = st["workload"] not in first or want != loaded
                prev = steps[i - 1]
                self.assertEqual(prev["kind"] == "warmup" and prev["config"] == st["config"], needs,
                                 "step %d: %r after %r" % (i, st, prev))
                first.setdefault(st["workload"], i)
                loaded = want
        timed = [s for s in steps if s["kind"] == "timed"]
        self.assertEqual(len(timed), 4 * 5 + 4 * 4)
        # tbench has no unloaded: one warm-up, before its first timed run
        self.assertEqual(len([s for s in steps if s["kind"] == "warmup" and s["workload"] == "tbench"]), 1)
        self.assertEqual(plan.schedule([("pipe", self.CFGS)], 4, 42, warmup=0),
                         [s for s in plan.schedule([("pipe", self.CFGS)], 4, 42, warmup=0)
                          if s["kind"] != "warmup"])
        self.assertFalse([s for s in plan.schedule([("pipe", self.CFGS)], 4, 42, warmup=0) if s["kind"] == "warmup"])

    def test_dry_run(self):
        p = bench(*DRY)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("order seed 77", p.stdout)
        self.assertIn("estimated time", p.stdout)
        rounds = [line.split(": ", 1)[1] for line in p.stdout.splitlines() if line.strip().startswith("round ")]
        self.assertEqual(len(rounds), 3)
        want = [plan.round_order(77, "cmd", r, ["stock", "seed", "unloaded"]) for r in (1, 2, 3)]
        for got, w in zip(rounds, want):
            self.assertEqual([x for x in got.split(", ") if not x.startswith("(warm-up)")], w)
        # the same plan again; the load-average warning moves with the host
        def plan_lines(out):
            return [x for x in out.splitlines() if not x.startswith("warning: load average")]
        self.assertEqual(plan_lines(p.stdout), plan_lines(bench(*DRY).stdout))
        self.assertIn("echo t=1", p.stdout)


# a workload that needs nothing installed (the built-in ones may be skipped here)
DRY = ("--dry-run", "-c", "stock,seed,unloaded", "-n", "3", "--seed", "77",
       "--cmd", "echo t=1", "--metric", "t=([0-9]+)")


class FakeModule:
    """Records the configuration the bench asks for; verifies everything."""

    def __init__(self, state):
        self.state = state
        self.applied = []

    def apply(self, cfg):
        self.applied.append(cfg.name)
        with open(self.state, "w") as f:
            f.write(cfg.name)

    def verify(self, cfg):
        return True, [], {"loaded": not cfg.unloaded}

    snapshot = None

    def restore(self):
        return []

    def read_knobs(self):
        return {}


class FakeCounters:
    n = 0

    def sample(self):
        FakeCounters.n += 1000
        return {"migrations": FakeCounters.n, "ctxt": 2 * FakeCounters.n}

    def close(self):
        pass


class TestCmd(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def env(self):
        e = type("E", (), {})()
        e.run_seconds = 1.0
        return e

    def test_parse(self):
        w = CmdWorkload(self.env(), "printf 'warming\\nlatency: 12.5 ms\\n'", r"latency: ([0-9.]+)",
                        "lower", metric="latency_ms", unit="ms", cwd=self.dir)
        figs, wall, out = w.run()
        self.assertEqual(figs, {"latency_ms": 12.5})
        j = w.to_json()
        self.assertTrue(j["user"])
        self.assertEqual(j["headline"], "latency_ms")
        # a time: a ratio, the geometric mean, whichever way is better
        self.assertEqual(report.estimator_of(j["metrics"][0]), "gmean")
        # no group: the whole match
        w = CmdWorkload(self.env(), "echo 42", r"[0-9]+", "higher", cwd=self.dir)
        self.assertEqual(w.run()[0], {"value": 42.0})
        self.assertEqual(report.estimator_of(w.to_json()["metrics"][0]), "gmean")
        # --metric-scale linear: a count that can be 0, the mean
        w = CmdWorkload(self.env(), "echo 0", r"[0-9]+", "lower", cwd=self.dir, scale="linear")
        self.assertEqual(report.estimator_of(w.to_json()["metrics"][0]), "mean")

    def test_failures(self):
        for cmd, rx in (("echo nothing here", r"latency ([0-9.]+)"), ("echo latency 1; exit 3", r"latency ([0-9]+)"),
                        ("echo latency abc", r"latency (\w+)")):
            with self.assertRaises(WorkloadError):
                CmdWorkload(self.env(), cmd, rx, cwd=self.dir).run()
        with self.assertRaises(WorkloadError):
            CmdWorkload(self.env(), "true", "([", cwd=self.dir)
        with self.assertRaises(WorkloadError):
            CmdWorkload(self.env(), "true", "x", direction="sideways", cwd=self.dir)

    def test_whole_bench_with_a_fake_workload(self):
        """--cmd under every configuration: order from the seed, warm-ups
        discarded, the figure in the report and the headline family."""
        state = os.path.join(self.dir, "config")
        # the fake workload: 'seed' is 20 % slower, each run a little different
        script = os.path.join(self.dir, "work.sh")
        with open(script, "w") as f:
            f.write('c=$(cat %s); n=$(cat %s/n 2>/dev/null || echo 0); n=$((n + 1)); echo $n > %s/n\n'
                    'base=100; [ "$c" = seed ] && base=120\n'
                    'echo "ops done"; echo "time: $base.$((n %% 7))"\n' % (state, self.dir, self.dir))
        opts = cli.parser().parse_args(
            ["run", "-c", "unloaded,stock,seed", "-n", "4", "--seed", "5", "--cmd", "sh " + script,
             "--metric", r"time: ([0-9.]+)", "--metric-name", "time_s", "--unit", "s", "-q",
             "-o", os.path.join(self.dir, "out")])
        b = runner.Bench(cli.run_options(opts))
        b.module = FakeModule(state)
        b.counters = FakeCounters()
        b.sleep = lambda s: None
        b.out = opts.out
        os.makedirs(b.out)
        configs, sweeps = b.build_configs()
        for c in configs:
            c.skip = None
        wls = b.make_workloads(8, 1 << 20)
        self.assertEqual([w.name for w in wls], ["cmd"])
        base = next(c for c in configs if c.name == "stock")
        stamp = {"kernel": "test", "cpu_model": "test", "topology": {}, "hypervisor": {}, "module": {}}
        b.execute(stamp, configs, sweeps, wls, [], base)
        data = b.data
        self.assertEqual(data["order"]["seed"], 5)
        timed = [r for r in data["runs"] if not r.get("warmup") and not r.get("calibration")]
        self.assertEqual(len(timed), 12)
        self.assertTrue(all(r["ok"] for r in data["runs"]), [r.get("error") for r in data["runs"]])
        # the order the module saw is the seed's
        for rnd in range(1, 5):
            self.assertEqual([r["config"] for r in timed if r["rep"] == rnd],
                             plan.round_order(5, "cmd", rnd, ["unloaded", "stock", "seed"]))
        self.assertEqual(data["order"]["rounds"]["cmd"]["1"], plan.round_order(5, "cmd", 1, ["unloaded", "stock", "seed"]))
        warm = [r for r in data["runs"] if r.get("warmup")]
        self.assertGreaterEqual(len(warm), 1)
        # no calibration for --cmd: a warm-up in round 1's first configuration, then its timed run
        first = plan.round_order(5, "cmd", 1, ["unloaded", "stock", "seed"])[0]
        self.assertEqual(b.module.applied[:2], [first, first])
        self.assertEqual(data["runs"][0]["warmup"], True)
        self.assertEqual(len(b.module.applied), len(data["runs"]))
        with open(os.path.join(b.out, "results.json"), "rb") as f:
            raw = f.read()
        self.assertNotIn(b'"summary"', raw)
        view = markdown.write_all(b.out, data, draw_plots=False, log=lambda m: None)
        with open(os.path.join(b.out, "results.json"), "rb") as f:
            self.assertEqual(f.read(), raw)
        self.assertNotIn("summary", data)
        cell = view["summary"]["cells"]["cmd"]
        self.assertEqual(cell["seed"]["n"], 4)  # warm-ups not counted
        cmp = cell["seed"]["vs_baseline"]["time_s"]
        self.assertAlmostEqual(cmp["pct"], 20.0, delta=3.0)
        self.assertEqual(cmp["family"], "headline")
        self.assertTrue(cmp["significant"])
        self.assertEqual(cell["unloaded"]["vs_baseline"]["time_s"]["family"], "headline")
        with open(os.path.join(b.out, "report.md")) as f:
            md = f.read()
        self.assertIn("Your workload cmd", md)
        self.assertIn("seed 5", md)
        self.assertIn("sh " + script, md)
        hl = {h["key"]: h for h in view["summary"]["headline"]}
        self.assertEqual(len(hl["user_cmd"]["items"]), 2)


class TestReportRobust(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def write(self, data):
        with open(os.path.join(self.dir, "results.json"), "w") as f:
            json.dump(data, f)

    def test_alpha_5_in_results(self):
        # what an old bench wrote after --alpha 5: the report says so and uses 0.05
        data = synthetic()
        data["alpha"] = 5
        self.write(data)
        p = bench("report", self.dir, "--no-plots")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertNotIn("Traceback", p.stderr)
        with open(os.path.join(self.dir, "report.md")) as f:
            self.assertIn("outside (0, 1)", f.read())

    def test_partial_and_broken_results(self):
        cases = []
        d = synthetic()
        d["workloads"], d["runs"], d["state"] = [], [], "interrupted (signal 2)"
        cases.append(d)
        d = synthetic()
        for r in d["runs"][::3]:
            r["ok"] = False
            r.pop("figures")
            r["error"] = None
        d["runs"][1]["figures"] = {"time_s": None, "usecs_per_op": "x"}
        d["runs"].append("garbage")
        cases.append(d)
        d = synthetic()
        del d["stamp"], d["configs"]
        cases.append(d)
        cases.append({})
        # the failed runs of case 1 are counted and set the exit status
        for i, (data, rc) in enumerate(zip(cases, (0, 1, 0, 0))):
            self.write(data)
            p = bench("report", self.dir, "--no-plots")
            self.assertEqual(p.returncode, rc, "case %d: %s" % (i, p.stderr))
            self.assertNotIn("Traceback", p.stderr)
        self.write(cases[1])
        p = bench("report", self.dir, "--no-plots")
        self.assertRegex(p.stderr, r"failures: [1-9][0-9]* runs failed")
        with open(os.path.join(self.dir, "report.md")) as f:
            self.assertIn("(+1 failed)", f.read())
        for bad in ("[1, 2]", "{not json"):
            with open(os.path.join(self.dir, "results.json"), "w") as f:
                f.write(bad)
            p = bench("report", self.dir)
            self.assertEqual(p.returncode, 1)
            self.assertNotIn("Traceback", p.stderr)
            self.assertIn("results.json", p.stderr)
        p = bench("report", os.path.join(self.dir, "missing"))
        self.assertEqual(p.returncode, 1)
        self.assertNotIn("Traceback", p.stderr)

    def test_old_results(self):
        # results.json of the bench before issue 15 (docs/bench-vm, trimmed)
        for d in (K612, K73):
            tmp = os.path.join(self.dir, os.path.basename(d))
            shutil.copytree(d, tmp)
            p = bench("report", tmp, "--no-plots")
            self.assertEqual(p.returncode, 0, p.stderr)
            with open(os.path.join(tmp, "report.md")) as f:
                md = f.read()
            self.assertIn("Benjamini-Hochberg", md)
            self.assertIn("same order in every round", md)

    def test_check_broken_pipe(self):
        write_dir(self.dir, synthetic(), draw_plots=False)
        p = subprocess.run("%s %s check %s --no-plots | head -n 1" % (sys.executable, BENCH, self.dir),
                           shell=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, timeout=120)
        self.assertEqual(p.stdout.count("\n"), 1)
        self.assertEqual(p.stderr, "")
        # and the whole check passes on the new results format
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            self.assertEqual(check.check_dir(self.dir, None, None, plots=False), 0, out.getvalue())


class TestCompare(unittest.TestCase):
    def test_two_kernels(self):
        p = bench("compare", K612, K73)
        self.assertEqual(p.returncode, 0, p.stderr)
        md = p.stdout
        self.assertIn("| kernel | 6.12.95+deb12-amd64 | 7.3.4+deb13-amd64 |", md)
        self.assertIn("### tbench: mb_per_s (MB/s, higher is better), Gmean, headline", md)
        self.assertIn("### tbench: max_latency_ms (ms, lower is better), Gmean, exploratory", md)
        # each heading once (rows of the second column used to open it again)
        heads = [line for line in md.splitlines() if line.startswith("### ")]
        self.assertEqual(len(heads), len(set(heads)))

    def test_statistics(self):
        runs = []
        for d in (K612, K73):
            with open(os.path.join(d, "results.json")) as f:
                runs.append((d, json.load(f)))
        res = compare.compare(runs)
        rows = {(r["workload"], r["metric"], r["config"]): r for r in res["rows"]}
        row = rows[("tbench", "mb_per_s", "stock")]
        self.assertEqual(row["estimator"], "gmean")
        vals = [[r["figures"]["mb_per_s"] for r in data["runs"] if r["workload"] == "tbench"
                 and r["config"] == "stock" and r["ok"] and not r.get("calibration")] for _, data in runs]
        from stbench import stats
        self.assertAlmostEqual(row["cells"][0]["estimate"], stats.gmean(vals[0]))
        ch = row["cells"][1]["change"]
        want = stats.compare(vals[1], vals[0], "gmean", 0.05)
        self.assertAlmostEqual(ch["pct"], want["pct"])
        self.assertAlmostEqual(ch["p"], want["p"])
        # BH over the headline rows only; exploratory rows never marked
        fam = [c["change"] for r in res["rows"] if r["family"] == "headline" for c in r["cells"] if c["change"]]
        adj = stats.bh_adjust([c["p"] for c in fam])
        self.assertEqual([c["p_bh"] for c in fam], adj)
        self.assertTrue(all(not c["change"]["significant"] for r in res["rows"] if r["family"] == "exploratory"
                            for c in r["cells"] if c["change"]))
        self.assertIsNone(row["cells"][0]["change"])

    def test_csv_and_json(self):
        p = bench("compare", K612, K73, "--csv", "--workloads", "pipe,hackbench")
        self.assertEqual(p.returncode, 0, p.stderr)
        rows = list(csv.DictReader(io.StringIO(p.stdout)))
        self.assertEqual({r["workload"] for r in rows}, {"pipe", "hackbench-g1"})
        # 3 figures (pipe's usecs/op, hackbench's time and, the loop counts
        # differing, its time per loop) x 5 configs x 2 columns
        self.assertEqual(len(rows), 3 * 5 * 2)
        self.assertEqual({r["column"] for r in rows}, {"6.12.95+deb12-amd64", "7.3.4+deb13-amd64"})
        first = [r for r in rows if r["column"] == "6.12.95+deb12-amd64"]
        self.assertTrue(all(r["change_pct"] == "" for r in first))
        p = bench("compare", K612, K73, "--json", "--configs", "stock,seed", "--labels", "old,new")
        self.assertEqual(p.returncode, 0, p.stderr)
        res = json.loads(p.stdout)
        self.assertEqual([c["label"] for c in res["columns"]], ["old", "new"])
        self.assertEqual({r["config"] for r in res["rows"]}, {"stock", "seed"})

    def test_errors(self):
        p = bench("compare", K612, "/nonexistent/dir")
        self.assertEqual(p.returncode, 1)
        self.assertNotIn("Traceback", p.stderr)
        p = bench("compare", K612, K73, "--csv", "--json")
        self.assertEqual(p.returncode, 2)


class TestInput(unittest.TestCase):
    """One clear error (argparse's one line, exit 2) before anything runs."""

    def test_bad_values(self):
        for argv, what in ((["-s", "-3"], "--run-seconds"), (["-s", "nan"], "--run-seconds"),
                           (["--hackbench-loops", "-5"], "--hackbench-loops"),
                           (["--tbench-clients", "0"], "--tbench-clients"),
                           (["--hackbench-groups", "0,2"], "--hackbench-groups"),
                           (["--pipe-loops", "x"], "--pipe-loops"), (["--wakelat-msg", "0"], "--wakelat-msg"),
                           (["--numa-threads", "-1"], "--numa-threads"), (["--idle-window", "-1"], "--idle-window")):
            p = bench("--dry-run", *argv)
            self.assertEqual(p.returncode, 2, (argv, p.stderr))
            lines = p.stderr.strip().splitlines()
            self.assertIn("error: argument", lines[-1])
            self.assertIn(what, lines[-1])
            self.assertEqual(p.stdout, "")

    def test_dry_run_shows_the_real_commands(self):
        # the README's 480000-loop recipe: the dry run said -l 100
        p = bench("--dry-run", "-c", "stock,seed", "-w", "hackbench,pipe", "--hackbench-loops", "480000",
                  "--hackbench-groups", "2", "-n", "2", "--seed", "1")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("hackbench -g 2 -f 20 --threads --pipe -l 480000 -s 100", p.stdout)
        self.assertRegex(p.stdout, r"pipe +perf bench sched pipe -l 2000  \(-l calibrated at the start"
                         if "perf bench" in p.stdout else r"st_wakelat\S* -p 2000  \(-l calibrated at the start")
        self.assertIn("hackbench-g2 run fixed loop counts", p.stdout)


class TestRunFailures(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def script(self, body):
        """A workload script of BODY, its path."""
        path = os.path.join(self.dir, "w.sh")
        with open(path, "w") as f:
            f.write(body)
        return path

    def bench(self, script, *argv):
        state = os.path.join(self.dir, "config")
        opts = cli.parser().parse_args(
            ["run", "-c", "stock,seed", "-n", "3", "--seed", "5", "--cmd", "sh " + script,
             "--metric", r"time: ([0-9.]+)", "--metric-name", "time_s", "-q",
             "-o", os.path.join(self.dir, "out")] + list(argv))
        b = runner.Bench(cli.run_options(opts))
        b.module = FakeModule(state)
        b.counters = FakeCounters()
        b.sleep = lambda s: None
        b.out = opts.out
        os.makedirs(b.out, exist_ok=True)
        configs, sweeps = b.build_configs()
        for c in configs:
            c.skip = None
        return b, configs, sweeps, state

    def test_dry_run_time_is_the_real_runs(self):
        script = self.script('echo "time: 1.0"\n')
        b, configs, sweeps, _ = self.bench(script)
        wls = b.make_workloads(8, 1 << 20)
        b.execute({"topology": {}, "hypervisor": {}}, configs, sweeps, wls, [], configs[0])
        est = b.data["plan"]["estimate_s"]
        p = bench("--dry-run", "-c", "stock,seed", "-n", "3", "--seed", "5", "--cmd", "sh " + script,
                  "--metric", r"time: ([0-9.]+)")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn("estimated time: about %s " % fmt_duration(est), p.stdout)

    def test_failed_runs_counted_and_exit_1(self):
        # seed's runs fail, stock's do not: counted, shown, exit status 1
        state = os.path.join(self.dir, "config")
        script = self.script('[ "$(cat %s)" = seed ] && exit 3; echo "time: 1.$$"\n' % state)
        b, configs, sweeps, _ = self.bench(script)

        def run(self_):
            wls = self_.make_workloads(8, 1 << 20)
            self_.execute({"topology": {}, "hypervisor": {}}, configs, sweeps, wls, [], configs[0])
        orig_run, orig_init = runner.Bench.run, runner.Bench.__init__

        def init(self_, opts):
            orig_init(self_, opts)
            self_.module, self_.counters, self_.sleep, self_.out = b.module, b.counters, b.sleep, b.opts.out
        runner.Bench.run, runner.Bench.__init__ = run, init
        err = io.StringIO()
        try:
            with contextlib.redirect_stderr(err):
                rc = runner.run(b.opts)
        finally:
            runner.Bench.run, runner.Bench.__init__ = orig_run, orig_init
        self.assertEqual(rc, 1, err.getvalue())
        with open(os.path.join(b.opts.out, "summary.json")) as f:
            fl = json.load(f)["summary"]["failures"]
        self.assertEqual(fl["failed_runs"], 3)
        with open(os.path.join(b.opts.out, "report.md")) as f:
            md = f.read()
        self.assertIn("| `seed` | 0 (+3 failed) |", md)
        self.assertIn("**failures**: 3 timed runs failed", md)

    def test_one_failed_calibration_does_not_abort_the_others(self):
        script = self.script('echo "time: 1.$$"\n')
        b, configs, sweeps, _ = self.bench(script)
        wls = b.make_workloads(8, 1 << 20)
        bad = CmdWorkload(b.env, "sh " + script, r"time: ([0-9.]+)", name="broken")

        def calibrate(runner):
            runner(bad)
        bad.calibrate = calibrate
        bad.run = lambda: (_ for _ in ()).throw(WorkloadError("broken: no output"))
        b.execute({"topology": {}, "hypervisor": {}}, configs, sweeps, [bad] + wls, [], configs[0])
        self.assertEqual([w["name"] for w in b.data["failed_workloads"]], ["broken"])
        good = [r for r in b.data["runs"] if r["workload"] == "cmd" and not r.get("warmup")]
        self.assertEqual(len(good), 6)
        self.assertTrue(all(r["ok"] for r in good))
        view = report.prepare(b.data)
        self.assertEqual(view["summary"]["failures"]["failed_calibrations"], 1)
        self.assertTrue(report.failed(view))


if __name__ == "__main__":
    unittest.main()
