# SPDX-License-Identifier: GPL-2.0
"""Seed 001's experiment (cpurate, the eevdf-* configurations and their
counters in the report), the hardware and tracepoint counters, and
st_wakelat's percentiles: parse functions on fake outputs, the slice
probe on a fake module, the C helpers built and run where gcc is."""

import errno
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))

from stbench import check, counters, markdown, module, report  # noqa: E402
from stbench.workloads import (CpuRate, Wakelat, WorkloadError, helper_binary,  # noqa: E402
                               parse_cpurate, parse_wakelat)

from test_report import write_dir, FakeEnv, FakeOpts, synthetic  # noqa: E402

BENCH = os.path.join(HERE, "..", "sched-tune-bench")
CPURATE_OUT = ("copies 16 seconds 1.002365 units 24853 units_per_s 24794.36 copy_min_per_s 1161.53 "
               "copy_max_per_s 1717.88 copy_hmean_per_s 1534.90 copy_cv_pct 12.50 starved 0\n")
STARVED_OUT = ("copies 16 seconds 1.0001 units 400 units_per_s 399.96 copy_min_per_s 0.00 "
               "copy_max_per_s 50.00 copy_hmean_per_s 0.00 copy_cv_pct 95.10 starved 3\n")
WAKELAT_OUT = ("wakeups 63360 requests_per_s 63342.8 p50_us 2.80 p90_us 7.26 p99_us 19.07 "
               "p999_us 2244.61 max_us 8028.16\n")


class Opts(FakeOpts):
    cpurate_copies = None
    cpurate_kb = 2048


class Env(FakeEnv):
    opts = Opts()


class TestParse(unittest.TestCase):
    def test_cpurate(self):
        f = parse_cpurate(CPURATE_OUT)
        self.assertEqual(f, {"units_per_s": 24794.36, "copy_min_per_s": 1161.53,
                             "copy_cv_pct": 12.5, "starved": 0.0, "seconds": 1.002365})
        w = CpuRate(Env())
        self.assertEqual(w.parse(CPURATE_OUT), {"units_per_s": 24794.36, "copy_cv_pct": 12.5, "starved": 0.0})
        self.assertEqual([m.name for m in w.metrics], ["units_per_s", "copy_cv_pct", "starved"])
        # a copy the scheduler starved is a figure, not a failure
        self.assertEqual(w.parse(STARVED_OUT), {"units_per_s": 399.96, "copy_cv_pct": 95.1, "starved": 3.0})
        with self.assertRaises(WorkloadError):
            parse_cpurate("st_cpurate: a copy finished no unit\n")

    def test_cpurate_shape(self):
        w = CpuRate(Env())
        # two copies per CPU, as SPECrate was run in seed 001
        self.assertEqual(w.command(), ["/bin/st_cpurate", "-c", "16", "-t", "1", "-k", "2048"])
        e = Env()
        e.opts = Opts()
        e.opts.cpurate_copies, e.opts.cpurate_kb = 3, 64
        self.assertEqual(CpuRate(e).command()[1:], ["-c", "3", "-t", "1", "-k", "64"])
        self.assertEqual(report.headline_metric(w.to_json()), "units_per_s")
        self.assertEqual(report.estimator_of(w.to_json()["metrics"][0]), "gmean")
        # the spread and the starved copies can be 0: differences, the mean
        self.assertEqual([report.estimator_of(m) for m in w.to_json()["metrics"][1:]], ["mean", "mean"])

    def test_wakelat(self):
        f = parse_wakelat(WAKELAT_OUT)
        self.assertEqual(f, {"p50_us": 2.80, "p90_us": 7.26, "p99_us": 19.07, "p999_us": 2244.61,
                             "requests_per_s": 63342.8})
        # an older st_wakelat (no p999): the others still read
        old = WAKELAT_OUT.replace("p999_us 2244.61 ", "")
        self.assertNotIn("p999_us", parse_wakelat(old))
        self.assertEqual(parse_wakelat(old)["p99_us"], 19.07)
        with self.assertRaises(WorkloadError):
            parse_wakelat("wakeups 0\n")
        self.assertIn("p999_us", [m.name for m in Wakelat(Env()).metrics])


@unittest.skipUnless(shutil.which("gcc") or shutil.which("cc"), "no C compiler")
class TestHelpers(unittest.TestCase):
    """The C helpers as the bench builds them (helper_binary), run briefly."""

    @classmethod
    def setUpClass(cls):
        cls.cache = tempfile.mkdtemp()

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.cache)

    def run_helper(self, name, *args):
        path, why = helper_binary(name, self.cache)
        self.assertIsNotNone(path, why)
        p = subprocess.run([path] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, timeout=60)
        self.assertEqual(p.returncode, 0, p.stderr)
        return p.stdout

    def test_cpurate_runs_and_is_cache_hungry(self):
        small = parse_cpurate(self.run_helper("st_cpurate", "-c", "2", "-t", "1", "-k", "16"))
        big = parse_cpurate(self.run_helper("st_cpurate", "-c", "2", "-t", "1", "-k", "32768"))
        for f in (small, big):
            self.assertGreater(f["units_per_s"], 0)
            self.assertGreaterEqual(f["copy_cv_pct"], 0)
            self.assertEqual(f["starved"], 0)
        # a buffer far beyond the caches: every load misses, far fewer units
        self.assertGreater(small["units_per_s"], 1.5 * big["units_per_s"], (small, big))

    def test_cpurate_bad_args(self):
        path, why = helper_binary("st_cpurate", self.cache)
        for args in (["-c", "0"], ["-k", "x"], ["-z"]):
            p = subprocess.run([path] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            self.assertEqual(p.returncode, 1, args)

    def test_wakelat_prints_p999(self):
        f = parse_wakelat(self.run_helper("st_wakelat", "-m", "1", "-w", "2", "-t", "1", "-r", "5"))
        self.assertIn("p999_us", f)
        self.assertTrue(f["p50_us"] <= f["p90_us"] <= f["p99_us"] <= f["p999_us"], f)
        self.assertGreater(f["requests_per_s"], 0)


class FakeFds:
    """perf_event_open stand-in: each fd a pipe holding the counts to read."""

    def __init__(self, samples, fail_types=()):
        self.samples = samples          # {(type, config): [(value, enabled, running), ...]}
        self.fail_types = fail_types    # ("group",): [(enabled, running, [values]), ...]
        self.pipes = []
        self.grouped = []

    def open(self, typ, config, cpu, read_format, group_fd=-1):
        if typ in self.fail_types:
            raise OSError(errno.ENOENT, os.strerror(errno.ENOENT))
        r, w = os.pipe()
        if read_format & counters.PERF_FORMAT_GROUP:
            self.groupformat = read_format
            self.grouped.append((typ, config, cpu, group_fd))
            if group_fd == -1:
                # the leader reads the whole group: nr, enabled, running, values
                for s in self.samples[("group",)]:
                    os.write(w, struct.pack("QQQ%dQ" % len(s[2]), len(s[2]), s[0], s[1], *s[2]))
        else:
            self.assertformat = read_format
            for s in self.samples[(typ, config)]:
                os.write(w, struct.pack("QQQ", *s))
        os.close(w)
        self.pipes.append(r)
        return r


class TestPerfEvents(unittest.TestCase):
    def test_no_pmu_says_not_available(self):
        tp = {"sched/sched_migrate_task": 301, "sched/sched_wakeup": 302}
        fake = FakeFds({(2, 301): [(5, 10, 10), (25, 20, 20)], (2, 302): [(100, 10, 10), (160, 20, 20)]},
                       fail_types=(counters.PERF_TYPE_HARDWARE,))
        pe = counters.PerfEvents([0, 1], opener=fake.open, tp_id=tp.__getitem__)
        for k in ("hw_cycles", "hw_instructions", "hw_cache_misses"):
            self.assertFalse(pe.available(k))
            self.assertIn("not available", pe.status[k])
            self.assertIn("no hardware PMU", pe.status[k])
        self.assertTrue(pe.available("tp_sched_wakeup"))
        self.assertEqual(fake.assertformat, counters.PERF_FORMAT_TOTAL_TIME_ENABLED |
                         counters.PERF_FORMAT_TOTAL_TIME_RUNNING)
        a, b = pe.read(), pe.read()
        # two CPUs each: 5+5 then 25+25; 100+100 then 160+160
        self.assertEqual(a, {"tp_sched_migrate_task": 10, "tp_sched_wakeup": 200})
        self.assertEqual(b["tp_sched_wakeup"] - a["tp_sched_wakeup"], 120)
        pe.close()

    def test_tracefs_missing(self):
        def no_tp(name):
            raise OSError(errno.ENOENT, "no %s/id (tracefs not mounted?)" % name)
        fake = FakeFds({("group",): [(1, 1, [1, 1, 1])]})
        pe = counters.PerfEvents([0], opener=fake.open, tp_id=no_tp)
        self.assertIn("tracefs not mounted", pe.status["tp_sched_wakeup"])
        self.assertTrue(pe.available("hw_cycles"))
        self.assertEqual(pe.read()["hw_instructions"], 1)

    def test_multiplexed_scaled(self):
        self.assertEqual(counters.scaled((100, 10, 5)), 200)
        self.assertEqual(counters.scaled((100, 10, 10)), 100)
        self.assertIsNone(counters.scaled((0, 10, 0)))
        self.assertEqual(counters.scaled((0, 0, 0)), 0)
        # the group is scheduled as one: one enabled/running pair scales all
        fake = FakeFds({("group",): [(10, 5, [100, 50, 3])]})
        pe = counters.PerfEvents([0], events=counters.HW_EVENTS, opener=fake.open)
        got = pe.read()
        self.assertEqual((got["hw_cycles"], got["hw_instructions"], got["hw_cache_misses"]), (200, 100, 6))
        self.assertIn("hw_cycles", pe.multiplexed)

    def test_nofile_raised(self):
        code = ("import resource, sys; sys.path.insert(0, %r); from stbench import counters; "
                "s, h = resource.getrlimit(resource.RLIMIT_NOFILE); "
                "resource.setrlimit(resource.RLIMIT_NOFILE, (256, h)); counters.raise_nofile(1024); "
                "print(resource.getrlimit(resource.RLIMIT_NOFILE)[0], h)" % os.path.join(HERE, ".."))
        out = subprocess.run([sys.executable, "-c", code], stdout=subprocess.PIPE,
                             universal_newlines=True).stdout.split()
        soft, hard = int(out[0]), int(out[1])
        self.assertEqual(soft, 1024 if hard < 0 or hard >= 1024 else hard)

    def test_rates(self):
        run = {"elapsed_s": 2.0, "counters": {"hw_cycles": 4000, "hw_instructions": 2000,
                                              "hw_cache_misses": 10, "tp_sched_wakeup": 50,
                                              "tp_sched_migrate_task": 8}}
        r = report.run_rates(run)
        self.assertEqual(r["cycles_per_s"], 2000)
        self.assertEqual(r["ipc"], 0.5)
        self.assertEqual(r["cache_misses_per_kinstr"], 5.0)
        self.assertEqual(r["tp_wakeup_per_s"], 25)
        self.assertEqual(r["tp_migrate_task_per_s"], 4)
        self.assertNotIn("ipc", report.run_rates({"elapsed_s": 1, "counters": {"hw_instructions": 5}}))

    def test_grouped_hardware_counters(self):
        """cycles leads a group with instructions and cache-misses on every
        CPU: IPC from counters the PMU scheduled together."""
        fake = FakeFds({("group",): [(10, 10, [400, 200, 4])]})
        pe = counters.PerfEvents([0, 1], events=counters.HW_EVENTS, opener=fake.open)
        self.assertTrue(fake.groupformat & counters.PERF_FORMAT_GROUP)
        leaders = [g for g in fake.grouped if g[3] == -1]
        self.assertEqual([(t, c) for t, c, cpu, lead in leaders], [(0, 0), (0, 0)])
        members = [g for g in fake.grouped if g[3] != -1]
        self.assertEqual(len(members), 4)
        self.assertEqual({g[3] for g in members}, {fd for fd, _ in pe.groups})
        self.assertIn("in one group {cycles,instructions,cache-misses}", pe.status["hw_instructions"])
        got = pe.read()
        self.assertEqual((got["hw_cycles"], got["hw_instructions"]), (800, 400))

    def test_cross_llc_filter(self):
        """The sched_migrate_task filter keeps exactly the migrations whose
        two CPUs are in different LLC groups (contiguous or not)."""
        for groups in ([[0, 1, 2, 3], [4, 5, 6, 7]], [[0, 1, 4, 5], [2, 3, 6, 7]], [[0], [1], [2, 3]]):
            expr = counters.cross_llc_filter(groups)
            py = expr.replace("&&", " and ").replace("||", " or ")
            of = {c: i for i, g in enumerate(groups) for c in g}
            for o in of:
                for d in of:
                    self.assertEqual(eval(py, {"orig_cpu": o, "dest_cpu": d}), of[o] != of[d], (groups, o, d))

    def test_cross_llc_counter(self):
        tp = {"sched/sched_migrate_task": 301, "sched/sched_wakeup": 302}
        fake = FakeFds({(2, 301): [(10, 1, 1), (30, 1, 1)], (2, 302): [(1, 1, 1), (1, 1, 1)]},
                       fail_types=(counters.PERF_TYPE_HARDWARE,))
        filters = []
        pe = counters.PerfEvents([0, 1], opener=fake.open, tp_id=tp.__getitem__, llc_groups=[[0], [1]],
                                 filt=lambda fd, e: filters.append(e))
        self.assertEqual(len(filters), 2)
        self.assertTrue(pe.available(counters.CROSS_LLC))
        self.assertIn("LLC groups (0 1)", pe.status[counters.CROSS_LLC])
        # one LLC: nothing to tell apart
        one = counters.PerfEvents([0], opener=FakeFds({(2, 301): [(1, 1, 1)], (2, 302): [(1, 1, 1)]},
                                                      fail_types=(0,)).open,
                                  tp_id=tp.__getitem__, llc_groups=[[0]], filt=lambda fd, e: None)
        self.assertIn("one last-level cache", one.status[counters.CROSS_LLC])
        # a kernel that refuses the filter: not available, said why
        def refuse(fd, e):
            raise OSError(errno.EINVAL, "Invalid argument")
        pe = counters.PerfEvents([0, 1], opener=FakeFds({(2, 301): [(1, 1, 1)] * 4, (2, 302): [(1, 1, 1)] * 2},
                                                        fail_types=(0,)).open,
                                 tp_id=tp.__getitem__, llc_groups=[[0], [1]], filt=refuse)
        self.assertIn("not available (filter", pe.status[counters.CROSS_LLC])

    def test_schedstat_run_delay_and_idle(self):
        txt = ("version 15\ntimestamp 4295\n"
               "cpu0 0 0 100 50 30 10 5000000 2000000 40\ndomain0 3 1 2\n"
               "cpu1 0 0 100 50 30 10 7000000 3000000 40\n")
        self.assertEqual(counters.schedstat_cpu(txt), {"run_delay_ns": 5000000, "rq_cpu_time_ns": 12000000})
        self.assertEqual(counters.schedstat_cpu("version 15\n"), {})
        run = {"elapsed_s": 2.0, "counters": {"run_delay_ns": 4e6, "cpu_idle": 30, "cpu_total": 120,
                                              "tp_sched_migrate_task": 40, "tp_migrate_cross_llc": 10}}
        r = report.run_rates(run)
        self.assertEqual(r["run_delay_ms_per_s"], 2.0)
        self.assertEqual(r["idle_pct"], 25.0)
        self.assertEqual(r["migrations_cross_llc_per_s"], 5.0)
        self.assertEqual(r["migrations_llc_local_per_s"], 15.0)
        self.assertEqual(r["cross_llc_pct"], 25.0)
        # the real /proc: both read on this machine, as the bench reads them
        self.assertIn("cpu_total", counters.cpu_jiffies())
        if os.path.exists("/proc/schedstat"):
            self.assertIn("run_delay_ns", counters.schedstat_cpu())

    def test_new_figures_in_the_report(self):
        data = synthetic()
        for r in data["runs"]:
            r["counters"].update(run_delay_ns=3e6, cpu_idle=10, cpu_total=100, tp_sched_migrate_task=40,
                                 tp_migrate_cross_llc=8 if r["config"] == "cache_level" else 4)
        data["stamp"]["counter_methods"] = {"tp_migrate_cross_llc": "sched:sched_migrate_task filtered"}
        view = report.prepare(data)
        md = markdown.report_md(view, {})
        self.assertIn("runq wait ms/s | idle % |", md)
        self.assertIn("cross-LLC migrations/s", md)
        cmp = view["summary"]["cells"]["pipe"]["cache_level"]["vs_baseline"]["rates.cross_llc_pct"]
        self.assertAlmostEqual(cmp["pct"], 100.0)
        self.assertEqual(cmp["family"], "exploratory")


class SliceModule(module.Module):
    """The module's sysfs as a dictionary; slice knobs refused as the
    module refuses them where its slice code was not checked."""

    def __init__(self, slice_ok, eevdf_state="inactive"):
        super().__init__(log=lambda *a: None)
        self.slice_ok = slice_ok
        self.values = dict(module.STOCK)
        self.knob_names = list(module.STOCK)
        self.support = {f: "inactive" for f in ("ratelimit", "cache_level", "numa_scan")}
        self.support["eevdf"] = eevdf_state
        self.reasons = {}
        self.writes = []

    @staticmethod
    def loaded():
        return True

    def read_knob(self, k):
        return self.values[k]

    def read_knobs(self, names=None):
        return {k: self.values[k] for k in names or self.knob_names}

    def write_knob(self, k, v):
        self.writes.append((k, v))
        if k in module.SLICE_KNOBS and not self.slice_ok and v != self.values[k]:
            e = module.BenchError("writing %s=%s: EOPNOTSUPP" % (k, v))
            e.errno = errno.EOPNOTSUPP
            raise e
        self.values[k] = v

    def feature_states(self):
        st = "active" if self.values["eevdf_counters"] == "1" or self.values["eevdf_slice"] != "stock" \
            else "inactive"
        return {"ratelimit": ("inactive", ""), "cache_level": ("inactive", ""), "numa_scan": ("inactive", ""),
                "eevdf": (st, "" if self.slice_ok or st == "inactive" else
                          "kernel 7.3.4+deb13-amd64 (series 7.3) is not a series eevdf_slice was checked against")}


def builtin(name):
    return next(c for c in module.builtin_configs() if c.name == name)


class TestEevdfConfigs(unittest.TestCase):
    def test_configs(self):
        self.assertEqual(builtin("eevdf-stock").overrides(), {"eevdf_counters": "1"})
        self.assertEqual(builtin("eevdf-fixed12").knobs["eevdf_slice_ns"], "12000000")
        self.assertEqual(builtin("eevdf-fixed12").knobs["eevdf_slice"], "fixed")
        self.assertEqual(builtin("eevdf-scaled").knobs["eevdf_slice"], "scaled")
        for n in ("eevdf-stock", "eevdf-fixed12", "eevdf-scaled"):
            self.assertEqual(builtin(n).needs(), {"eevdf"})
            self.assertEqual(builtin(n).knobs["eevdf_counters"], "1")
        self.assertFalse(builtin("eevdf-stock").slice_policy())
        self.assertTrue(builtin("eevdf-fixed12").slice_policy())
        self.assertEqual(builtin("stock").needs(), set())
        self.assertIn("eevdf", builtin("passthrough").needs())

    def test_slice_unsupported_skips_loudly(self):
        m = SliceModule(slice_ok=False)
        m.slice_problem = m.probe_slice()
        self.assertIn("EOPNOTSUPP", m.slice_problem)
        self.assertIn("not a series eevdf_slice was checked against", m.slice_problem)
        # the probe left every knob as it found it
        self.assertEqual(m.values, module.STOCK)
        for n in ("eevdf-fixed12", "eevdf-scaled"):
            why = m.check_config(builtin(n))
            self.assertIn("unsupported on this kernel", why)  # what check.py reports as SKIP
            self.assertIn("eevdf slice policy", why)
        self.assertIsNone(m.check_config(builtin("eevdf-stock")))
        self.assertIsNone(m.check_config(builtin("stock")))

    def test_slice_supported(self):
        m = SliceModule(slice_ok=True)
        m.slice_problem = m.probe_slice()
        self.assertIsNone(m.slice_problem)
        self.assertEqual(m.values, module.STOCK)
        self.assertIn(("eevdf_slice_ns", "12000001"), m.writes)
        for n in ("eevdf-stock", "eevdf-fixed12", "eevdf-scaled"):
            cfg = builtin(n)
            self.assertIsNone(m.check_config(cfg))
            m.apply(cfg)
            ok, problems, _ = m.verify(cfg)
            self.assertTrue(ok, problems)
        # stock after them: eevdf must be inactive again
        m.apply(builtin("stock"))
        self.assertEqual(m.values["eevdf_slice"], "stock")
        self.assertTrue(m.verify(builtin("stock"))[0])

    def test_verify_eevdf_state(self):
        m = SliceModule(slice_ok=True)
        m.values["eevdf_counters"] = "1"   # left on: stock must not verify
        ok, problems, _ = m.verify(builtin("stock"))
        self.assertFalse(ok)
        self.assertIn("eevdf is active", " ".join(problems))

    def test_older_module_without_eevdf(self):
        m = SliceModule(slice_ok=True)
        m.knob_names = [k for k in module.STOCK if not k.startswith("eevdf")]
        del m.support["eevdf"]
        m.feature_states = lambda: {"ratelimit": ("inactive", ""), "cache_level": ("inactive", ""),
                                    "numa_scan": ("inactive", "")}
        self.assertTrue(m.verify(builtin("stock"))[0])
        self.assertIn("no knob", m.check_config(builtin("eevdf-stock")))
        self.assertIn("no eevdf_slice_ns knob", m.probe_slice())


def with_cpurate(data, preempt=None, skip_slices=False, counter="preempt_deadline"):
    """synthetic() plus cpurate runs whose module counters follow preempt:
    {config: preemptions per run}."""
    preempt = preempt or {"eevdf-stock": 750, "eevdf-fixed12": 250, "eevdf-scaled": 375}
    w = CpuRate(Env())
    data["workloads"].append(w.to_json())
    if skip_slices:
        for c in data["configs"]:
            if c["name"] in ("eevdf-fixed12", "eevdf-scaled"):
                c["skip"] = "eevdf slice policy unsupported on this kernel: EOPNOTSUPP"
    for rep in range(1, 5):
        for c in data["configs"]:
            if c.get("skip") or c.get("only_workloads"):
                continue
            n = preempt[c["name"]] + rep if c["name"] in preempt else 0
            mod = {} if c["knobs"] is None else {
                counter: n, "check_deadline": 2 * n if c["name"] in preempt else 0}
            data["runs"].append({
                "workload": "cpurate", "config": c["name"], "rep": rep, "ok": True,
                "figures": {"units_per_s": 1000.0 + 100 * (c["name"] == "eevdf-fixed12") + rep,
                            "copy_cv_pct": 5.0 + rep, "starved": 0.0},
                "elapsed_s": 2.5, "counters": {"migrations": 10 + rep, "ctxt": 100 + rep, "module": mod},
                "loadavg_before": [0.1, 0.1, 0.1], "loadavg_after": [0.1, 0.1, 0.1]})
    return data


class TestEevdfReport(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_headline_and_ratio(self):
        data = with_cpurate(synthetic())
        s = report.summarize(data)
        h = next(x for x in s["headline"] if x["key"] == "eevdf")
        self.assertEqual(h["preempt_counter"], "preempt_deadline")
        self.assertEqual({(i["a"], i["metric"]) for i in h["items"]},
                         {("eevdf-fixed12", "rates.module.preempt_deadline_per_s"),
                          ("eevdf-fixed12", "units_per_s"),
                          ("eevdf-scaled", "rates.module.preempt_deadline_per_s"),
                          ("eevdf-scaled", "units_per_s")})
        rows = {r["config"]: r for r in h["per_config"]}
        # 752.5 / 252.5 per 2.5 s: the seed's figure, about 3x
        self.assertAlmostEqual(rows["eevdf-fixed12"]["ratio_to_eevdf_stock"], 752.5 / 252.5, places=6)
        self.assertAlmostEqual(rows["eevdf-stock"]["mean"], 752.5 / 2.5, places=6)
        self.assertNotIn("stock", rows)  # its counters did not count
        # cpurate throughput is in the headline family, tested against stock
        self.assertIn("cpurate|units_per_s|eevdf-fixed12|stock", s["family"])
        md = markdown.report_md(data, {})
        self.assertIn("Seed 001: tick preemptions/s", md)
        self.assertIn("| `eevdf-fixed12` | 4 | 101.0 | ", md)
        self.assertIn("2.98x", md)
        # check_deadline 2x preempt: half the ticks preempt; 8 CPUs at 602 ticks/s
        self.assertAlmostEqual(rows["eevdf-stock"]["per_tick"], 0.5, places=6)
        self.assertAlmostEqual(h["tick_ms"], 8000.0 / 602.0, places=6)
        self.assertIn("ticks came 13.3 ms apart", md)
        self.assertIn("not measure the policy", md)

    @staticmethod
    def ticks_times(n):
        """The synthetic cpurate run with n times its ticks (602/s over
        8 CPUs: 13.3 ms apart)."""
        data = with_cpurate(synthetic())
        for r in data["runs"]:
            mod = r["counters"].get("module") or {}
            if mod.get("check_deadline"):
                mod["check_deadline"] *= n
        return data

    def test_ticks_on_time_no_warning(self):
        data = self.ticks_times(3)  # 1806 ticks/s over 8 CPUs: 4.4 ms apart
        s = report.summarize(data)
        h = next(x for x in s["headline"] if x["key"] == "eevdf")
        self.assertLess(h["tick_ms"], markdown.LATE_TICK_MS)
        md = markdown.report_md(data, {})
        self.assertIn("Ticks came 4.4 ms apart", md)
        self.assertNotIn("not measure the policy", md)

    def test_ticks_late_bound_the_cut(self):
        data = self.ticks_times(2)  # 1204 ticks/s over 8 CPUs: 6.6 ms apart
        report.summarize(data)
        md = markdown.report_md(data, {})
        self.assertIn("ticks came 6.6 ms apart", md)
        # 12 / 6.64: a 12 ms slice skips about one tick in two
        self.assertIn("at most about 1.8x here", md)
        self.assertNotIn("not measure the policy", md)

    def test_cfs_counter_on_61(self):
        data = with_cpurate(synthetic(), skip_slices=True, counter="tick_preempts")
        s = report.summarize(data)
        h = next(x for x in s["headline"] if x["key"] == "eevdf")
        self.assertEqual(h["preempt_counter"], "tick_preempts")
        self.assertEqual(h["items"], [])
        self.assertIn("eevdf slice policy unsupported on this kernel", h["missing"])
        self.assertEqual([r["config"] for r in h["per_config"]], ["eevdf-stock"])
        md = markdown.report_md(data, {})
        self.assertIn("tick_preempts per second of cpurate", md)

    def test_hardware_not_available_in_report(self):
        data = with_cpurate(synthetic())
        data["stamp"]["counter_methods"] = {
            "hw_cycles": "not available (cycles: No such file or directory (errno ENOENT): no hardware PMU here)",
            "hw_instructions": "not available (instructions: ...)",
            "hw_cache_misses": "not available (cache-misses: ...)",
            "tp_sched_migrate_task": "sched:sched_migrate_task: perf_event_open counting",
            "tp_sched_wakeup": "sched:sched_wakeup: perf_event_open counting"}
        for r in data["runs"]:
            r["counters"]["tp_sched_wakeup"] = 40
            r["counters"]["tp_sched_migrate_task"] = 4
        report.summarize(data)
        md = markdown.report_md(data, {})
        self.assertIn("Not available here: cache-misses not available", md)
        self.assertIn("no hardware PMU here", md)
        self.assertIn("| config | sched_migrate_task/s | sched_wakeup/s |", md)
        self.assertIn("Hardware counters and sched tracepoints, system-wide (perf_event_open as perf stat -a; "
                      "means; change vs stock [95% CI], all exploratory)", md)
        self.assertIn("Not available here: cache-misses not available", md)
        cmp = data["summary"]["cells"]["cpurate"]["seed"]["vs_baseline"]["rates.tp_wakeup_per_s"]
        self.assertEqual(cmp["family"], "exploratory")
        self.assertFalse(cmp["significant"])

    def test_check_accepts_it(self):
        data = with_cpurate(synthetic(), skip_slices=True)
        write_dir(self.dir, data, draw_plots=False)
        with open(os.devnull, "w") as null:
            old, sys.stdout = sys.stdout, null
            try:
                rc = check.check_dir(self.dir, ["stock", "eevdf-stock", "eevdf-fixed12"], ["cpurate"], plots=False)
            finally:
                sys.stdout = old
        self.assertEqual(rc, 0)


class TestDryRun(unittest.TestCase):
    def test_shows_them(self):
        p = subprocess.run([sys.executable, BENCH, "--dry-run", "-c", "stock,eevdf-stock,eevdf-fixed12,eevdf-scaled",
                            "-w", "cpurate,wakelat", "-n", "2", "--seed", "3", "--cpurate-kb", "512"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertRegex(p.stdout, r"cpurate +\S*st_cpurate -c \d+ -t \d+ -k 512")
        self.assertIn("eevdf-fixed12  eevdf_counters=1, eevdf_slice=fixed", p.stdout)
        self.assertIn("preempt_deadline", p.stdout)
        self.assertIn("cache-misses", p.stdout)
        self.assertIn("sched:sched_wakeup", p.stdout)
        self.assertIn("eevdf-scaled: the EEVDF slice policy", p.stdout)
        q = subprocess.run([sys.executable, BENCH, "--dry-run", "-c", "stock", "-w", "cpurate", "--no-perf-events"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True, timeout=120)
        self.assertIn("no hardware counters and no tracepoints", q.stdout)


if __name__ == "__main__":
    unittest.main()
