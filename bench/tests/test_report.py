# SPDX-License-Identifier: GPL-2.0
"""The report pipeline on synthetic results: summary, marks, Markdown, the
shape check, and plots when matplotlib is installed.  No
module involved."""

import contextlib
import io
import json
import os
import random
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from stbench import check, markdown, module, plan, plots, report  # noqa: E402
from stbench.workloads import Hackbench, Numa, Pipe, Tbench, Wakelat  # noqa: E402

CONFIGS = ["unloaded", "stock", "passthrough", "seed", "ratelimit", "cache_level", "numa_scan",
           "ttwu-queue-default"]


class FakeOpts:
    hackbench_loops = 100
    pipe_loops = 1000
    tbench_clients = 2
    wakelat_msg = wakelat_workers = numa_threads = numa_mb = None
    wakelat_work_us = 50
    run_seconds = 1.0


class FakeEnv:
    opts = FakeOpts()
    ncpus = 8
    mem_kb = 2 << 20
    run_seconds = 1.0
    perf_problem = None
    workdir = "/tmp"

    def helper(self, name):
        return "/bin/" + name

    def helper_problem(self, name):
        return None


def write_dir(d, data, **kw):
    """A result directory as the run leaves it: results.json (raw), then
    the report beside it; returns the report's view (with its summary)."""
    with open(os.path.join(d, "results.json"), "w") as f:
        json.dump(data, f)
    kw.setdefault("log", lambda m: None)
    return markdown.write_all(d, data, **kw)


def synthetic(seed=1, reps=4, order_seed=7):
    """A bench's results: every configuration 30 % slower under seed and
    ratelimit, 1 % noise; the configurations in the seeded random order of
    each round (order_seed None: the same order in every round, as the
    benches before seeded orders ran)."""
    rnd = random.Random(seed)
    env = FakeEnv()
    wls = [Hackbench(env, 1), Pipe(env), Tbench(env), Wakelat(env), Numa(env)]
    for w in wls:
        w.loops = 100
    cfgs = [c for c in module.builtin_configs()]
    sweep_pt = module.Config("ratelimit_window_ns=100000000",
                             module.stock_plus({"ratelimit_window_ns": "100000000"}),
                             "sweep", kind="sweep", sweep=("ratelimit_window_ns", "100000000"))
    sweep_pt.only_workloads = {"hackbench"}
    cfgs.append(sweep_pt)
    runs = []
    for rep in range(reps):
        names = [c.name for c in cfgs]
        if order_seed is not None:
            names = plan.round_order(order_seed, "all", rep + 1, names)
        byname = {c.name: c for c in cfgs}
        for c in [byname[n] for n in names]:
            for w in wls:
                if not c.runs_on(w.name):
                    continue
                slow = 1.3 if c.name in ("seed", "ratelimit") else 1.0
                figs = {}
                for m in w.metrics:
                    figs[m.name] = (100.0 if m.name != "numa_pte_updates" else 1e5) * slow \
                        * (1 + rnd.gauss(0, 0.01))
                if w.name == "numa":
                    figs["numa_hint_faults"] = float(rnd.randint(100, 200))
                runs.append({
                    "workload": w.name, "config": c.name, "rep": rep + 1, "ok": True,
                    "figures": figs, "elapsed_s": 2.0,
                    "counters": {"migrations": rnd.randint(1000, 2000) / slow, "ipi_cal": 500,
                                 "ctxt": 10000, "wakeups": 4000,
                                 "module": {"ratelimit_checked": 10} if c.knobs else {}},
                    "observed": {"loaded": c.knobs is not None,
                                 "features": {f: {"state": "active" if f in c.needs() else "inactive", "reason": ""}
                                              for f in module.FEATURES} if c.knobs else {}},
                    "loadavg_before": [0.1, 0.2, 0.3], "loadavg_after": [0.9, 0.4, 0.3]})
    return {
        "schema": 1, "command": "sched-tune-bench synthetic", "title": "synthetic",
        "started": "2026-01-01T00:00:00", "duration_s": 10.0,
        "stamp": {"kernel": "6.12.0-test", "cpu_model": "Test CPU", "cpus_online": 8,
                  "topology": {"l2_groups": ["0-1"], "llc_groups": ["0-3"], "numa_nodes": {"node0": "0-3"}},
                  "hypervisor": {"verdict": "emulator (QEMU without KVM, i.e. TCG): timings are not hardware timings",
                                 "emulated": True},
                  "module": {"version": "0.1.0"}, "sched_cache": None, "sched_ext": None,
                  "machine": {k: "n/a (synthetic)" for k in (
                      "cpu_model", "cpufreq", "boost", "smt", "cpuidle", "cmdline", "mitigations", "numa_nodes",
                      "loadavg", "debugfs")}},
        "alpha": 0.05, "baseline": "stock", "reps": reps, "run_seconds": 1.0,
        "order": {"seed": order_seed} if order_seed is not None else {},
        "configs": [c.to_json() for c in cfgs],
        "sweeps": [{"knob": "ratelimit_window_ns", "base": "stock",
                    "points": [{"value": "0", "config": "stock"},
                               {"value": "2000000", "config": "ratelimit"},
                               {"value": "100000000", "config": "ratelimit_window_ns=100000000"}]}],
        "workloads": [w.to_json() for w in wls], "skipped_workloads": [],
        "runs": runs, "state": "finished", "restore_problems": []}


class TestReport(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_summary_and_marks(self):
        data = synthetic()
        report.summarize(data)
        cell = data["summary"]["cells"]["hackbench-g1"]["seed"]
        cmp = cell["vs_baseline"]["time_s"]
        self.assertAlmostEqual(cmp["pct"], 30.0, delta=3.0)
        self.assertEqual(cmp["family"], "headline")
        self.assertTrue(cmp["significant"])
        self.assertLessEqual(cmp["p_bh"], 0.05)
        self.assertTrue(cmp["ci_pct"][0] < cmp["pct"] < cmp["ci_pct"][1])
        self.assertIn("\\*", markdown.mark(cmp))
        noise = data["summary"]["cells"]["hackbench-g1"]["cache_level"]["vs_baseline"]["time_s"]
        self.assertFalse(noise["significant"])
        self.assertTrue(markdown.mark(noise).startswith("("))
        # the same 30 % on a figure outside the headline family: exploratory, no mark
        tb = data["summary"]["cells"]["tbench"]["seed"]["vs_baseline"]["max_latency_ms"]
        self.assertEqual(tb["family"], "exploratory")
        self.assertLess(tb["p"], 0.001)
        self.assertFalse(tb["significant"])
        self.assertNotIn("\\*", markdown.mark(tb))
        # throughput: the geometric mean, a ratio like every time and rate
        thr = data["summary"]["cells"]["tbench"]["seed"]["vs_baseline"]["mb_per_s"]
        self.assertEqual(thr["estimator"], "gmean")
        self.assertEqual(thr["family"], "headline")
        # the sweep point runs on hackbench only
        self.assertNotIn("ratelimit_window_ns=100000000", data["summary"]["cells"]["pipe"])
        hl = {h["key"]: h for h in data["summary"]["headline"]}
        hc = hl["hook_cost"]["items"][0]["cmp"]
        self.assertEqual(hc["family"], "headline")
        self.assertTrue(hc["ci_pct"])
        self.assertIn("pipe|usecs_per_op|passthrough|unloaded", data["summary"]["family"])
        for key in ("hook_cost", "ratelimit", "cache_level", "numa", "ttwu_queue_default", "losses"):
            self.assertTrue(hl[key]["items"], key)

    def test_write_and_check(self):
        data = synthetic()
        write_dir(self.dir, data, draw_plots=plots.plotter() is not None)
        with open(os.path.join(self.dir, "report.md")) as f:
            md = f.read()
        self.assertIn("not hardware timings", md)
        self.assertIn("Hook cost", md)
        with open(os.path.join(self.dir, "results.json")) as f:
            json.load(f)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            rc = check.check_dir(self.dir, CONFIGS, ["hackbench", "pipe", "tbench", "wakelat", "numa"],
                                 plots=plots.plotter() is not None)
        self.assertEqual(rc, 0, out.getvalue())

    def test_check_baseline_zero(self):
        # the guest's smoke run: stock's module counters all 0, seed's vary;
        # a test runs, and there is no change in percent to give an interval
        data = synthetic()
        for r in data["runs"]:
            if r["config"] == "stock":
                r["counters"]["module"] = {"ratelimit_checked": 0}
            elif r["config"] == "seed":
                r["counters"]["module"] = {"ratelimit_checked": 10 + 3 * r["rep"]}
        view = write_dir(self.dir, data, draw_plots=False)
        cell = view["summary"]["cells"]["pipe"]["seed"]["vs_baseline"]
        cmp = [v for k, v in cell.items() if "ratelimit_checked" in k]
        self.assertTrue(cmp, sorted(cell))
        self.assertIsNotNone(cmp[0]["p"])
        self.assertIsNone(cmp[0]["pct"])
        self.assertEqual(cmp[0]["note"], "baseline 0")
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            rc = check.check_dir(self.dir, CONFIGS, None, plots=False)
        self.assertEqual(rc, 0, out.getvalue())

    def test_check_catches_a_missing_figure(self):
        data = synthetic()
        for r in data["runs"]:
            if r["config"] == "seed" and r["workload"] == "pipe":
                r["ok"] = False
                r["error"] = "synthetic failure"
        write_dir(self.dir, data, draw_plots=False)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            rc = check.check_dir(self.dir, CONFIGS, None, plots=False)
        self.assertEqual(rc, 1)
        self.assertIn("not ok - every figure is a number", out.getvalue())

    def test_check_catches_missing_config(self):
        data = synthetic()
        data["configs"] = [c for c in data["configs"] if c["name"] != "numa_scan"]
        data["runs"] = [r for r in data["runs"] if r["config"] != "numa_scan"]
        write_dir(self.dir, data, draw_plots=False)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            rc = check.check_dir(self.dir, CONFIGS, None, plots=False)
        self.assertEqual(rc, 1)
        self.assertIn("not ok - configuration numa_scan", out.getvalue())


class TestConfigs(unittest.TestCase):
    def test_user_config(self):
        c = module.parse_user_config("big:ratelimit_window_ns=100000000,ratelimit_burst=4")
        self.assertEqual(c.knobs["ratelimit_window_ns"], "100000000")
        self.assertEqual(c.knobs["cache_share_level"], "llc")
        self.assertEqual(c.needs(), {"ratelimit"})
        for bad in ("noknobs", "x:", "x:knob"):
            with self.assertRaises(module.BenchError):
                module.parse_user_config(bad)

    def test_needs(self):
        cfgs = {c.name: c for c in module.builtin_configs()}
        self.assertEqual(cfgs["stock"].needs(), set())
        # the three upstream patches; seed 001's eevdf is a configuration of its own
        self.assertEqual(cfgs["seed"].needs(), {"ratelimit", "cache_level", "numa_scan"})
        self.assertEqual(cfgs["passthrough"].needs(), set(module.FEATURES))
        self.assertEqual(cfgs["cache_level"].needs(), {"cache_level"})
        self.assertEqual(cfgs["ttwu-queue-default"].needs(), {"cache_level"})
        self.assertEqual(cfgs["ttwu-queue-default"].overrides(), {"cache_share_level": "none"})
        self.assertTrue(cfgs["unloaded"].unloaded)

    def test_sweep(self):
        base = module.builtin_configs()[1]
        knob, vals, pts = module.parse_sweep("cache_share_level=llc,l2,smt", base)
        self.assertEqual(vals, ["llc", "l2", "smt"])
        self.assertEqual(pts[0].knobs, base.knobs)
        self.assertEqual(pts[2].knobs["cache_share_level"], "smt")

    def test_choice(self):
        self.assertEqual(module._choice("llc [l2] smt auto"), "l2")
        self.assertEqual(module._choice("2000000"), "2000000")


if __name__ == "__main__":
    unittest.main()
