# SPDX-License-Identifier: GPL-2.0
"""The plots: what is drawn (sweep axis, run order, human units, the
forest plot's rows), the PNGs matplotlib (Agg, no display) writes, and
the report without matplotlib: no plots, said so, and the PNGs of an
earlier report still linked.  Tests needing matplotlib skip without it."""

import builtins
import math
import os
import shutil
import sys
import tempfile
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, ".."))

from stbench import check, markdown, plots, report  # noqa: E402
from test_report import synthetic, write_dir  # noqa: E402

HAVE_MPL = plots._pyplot() is not None
PNG = b"\x89PNG\r\n\x1a\n"

_real_import = builtins.__import__


def _no_matplotlib(name, *args, **kw):
    if name == "matplotlib" or name.startswith("matplotlib."):
        raise ImportError("No module named %r (test)" % name)
    return _real_import(name, *args, **kw)


def _is_png(path):
    with open(path, "rb") as f:
        return f.read(8) == PNG and os.path.getsize(path) > 1000


class TestWhat(unittest.TestCase):
    def test_sweep_axis_log_for_windows(self):
        xs, logx = plots.sweep_axis(["0", "2000000", "20000000", "100000000", "1000000000"])
        self.assertTrue(logx)
        # 0 (off) a decade below the smallest window, the others where they are
        self.assertEqual(xs, [200000.0, 2e6, 2e7, 1e8, 1e9])

    def test_sweep_axis_linear_or_categorical(self):
        self.assertEqual(plots.sweep_axis(["llc", "l2", "smt"]), ([0.0, 1.0, 2.0], False))
        # numbers within a decade: evenly spaced, in the sweep's order
        self.assertEqual(plots.sweep_axis(["1", "2", "4"]), ([0.0, 1.0, 2.0], False))
        self.assertEqual(plots.sweep_axis(["-1", "100", "1000"]), ([0.0, 1.0, 2.0], False))
        self.assertEqual(plots.sweep_axis(["0", "5"]), ([0.0, 1.0], False))

    def test_human_units(self):
        # nanosecond knob values as people read them
        self.assertEqual([plots.tick_label("ratelimit_window_ns", v) for v in ("0", "2000000", "1000000000", "500")],
                         ["0", "2 ms", "1 s", "500 ns"])
        self.assertEqual(plots.tick_label("cache_share_level", "l2"), "l2")
        # times scaled to their range, large rates to k/M
        self.assertEqual(plots.human("s", [0.002, 0.004]), (1000.0, "ms"))
        self.assertEqual(plots.human("us", [1500.0, 9000.0]), (1e-3, "ms"))
        self.assertEqual(plots.human("us", [15.0]), (1.0, "us"))
        self.assertEqual(plots.human("units/s", [25000.0, 30000.0]), (1e-3, "k units/s"))
        self.assertEqual(plots.human("MB/s", [8.0]), (1.0, "MB/s"))

    def test_forest_ticks_spaced(self):
        t = plots.spaced_ticks(-60.0, 110.0)
        self.assertIn(0, t)
        self.assertEqual(t, sorted(t))
        pos = [math.log1p(x / 100.0) for x in t]
        span = math.log1p(1.1) - math.log1p(-0.6)
        self.assertTrue(all(b - a >= span / 8 for a, b in zip(pos, pos[1:])), t)
        self.assertIn(-50, t)
        self.assertIn(100, t)

    def test_order_series(self):
        data = {"runs": [
            {"workload": "w", "config": "a", "ok": True, "calibration": True, "figures": {"t": 9.0}},
            {"workload": "w", "config": "a", "ok": True, "warmup": True, "figures": {"t": 5.0}},
            {"workload": "x", "config": "a", "ok": True, "figures": {"t": 1.0}},
            {"workload": "w", "config": "b", "ok": True, "figures": {"t": 2.0}},
            {"workload": "w", "config": "a", "ok": False, "error": "boom"},
            {"workload": "w", "config": "a", "ok": True, "figures": {"t": 3.0}},
            {"workload": "w", "config": "b", "ok": True, "figures": {"t": None}},
        ]}
        s = plots.order_series(data, {"name": "w"}, {"name": "t"})
        # indices count every run of the bench but calibration
        self.assertEqual(s["a"], ([1, 5], [5.0, 3.0], [True, False]))
        self.assertEqual(s["b"], ([3], [2.0], [False]))

    def test_sweep_uses_the_tables_estimator(self):
        # the sweep plot once drew the median where the table gave the mean
        view = report.prepare(synthetic())
        sw = view["sweeps"][0]
        w = next(x for x in view["workloads"] if x["name"] == "hackbench-g1")
        rows = plots.sweep_series(view, sw, w)[0]
        cells = view["summary"]["cells"]["hackbench-g1"]
        for (x, est, lo, hi, mig), pt in zip(rows, sw["points"]):
            ms = cells[pt["config"]]["metrics"]["time_s"]
            self.assertEqual(est, ms["estimate"])
            self.assertTrue(lo < est < hi)

    def test_forest_rows_are_the_family(self):
        view = report.prepare(synthetic())
        w = next(x for x in view["workloads"] if x["name"] == "hackbench-g1")
        rows = plots.forest_series(view, w)
        fam = [k for k in view["summary"]["family"] if k.startswith("hackbench-g1|")]
        self.assertEqual(len(rows), len(fam))
        self.assertTrue(all(c.get("mde_pct") for _, c in rows))

    def test_distinct_styles_for_many_configurations(self):
        if not HAVE_MPL:
            self.skipTest("python3-matplotlib not installed")
        names = ["c%d" % i for i in range(24)]
        st = plots.styles(plots._pyplot(), names)
        self.assertEqual(len(set(st.values())), 24)
        # 16 configurations: 16 colours, none shared (tab10 shared them)
        self.assertEqual(len({st[n][0] for n in names[:16]}), 16)


class TestDraw(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.data = report.prepare(synthetic())

    def tearDown(self):
        shutil.rmtree(self.dir)

    @unittest.skipUnless(HAVE_MPL, "python3-matplotlib not installed")
    def test_matplotlib(self):
        import matplotlib
        plt = plots._pyplot()
        real_close, seen = plt.close, []

        def close(fig=None):
            if hasattr(fig, "axes"):  # pyplot itself closes "all" at its first figure
                ax = [a for a in fig.axes if a.get_visible()]
                seen.append((fig._suptitle.get_text() if fig._suptitle else ax[0].get_title(), len(ax),
                             ax[0].get_xscale(), [a.get_legend() is not None for a in ax]))
            real_close(fig)

        with mock.patch.object(plt, "close", close):
            files, note = plots.draw(self.dir, self.data)
        self.assertIsNone(note)
        self.assertEqual(self.data["plotter"], "matplotlib")
        keys = {k[0] for k in files}
        self.assertEqual(keys, {"forest", "dist", "order", "sweep", "sweep_migrations"})
        want = sum(len(w["metrics"]) for w in self.data["workloads"])
        self.assertEqual(sum(k[0] == "dist" for k in files), want)
        self.assertEqual({k[1] for k in files if k[0] == "order"}, {w["name"] for w in self.data["workloads"]})
        self.assertEqual(files, plots.existing(self.dir, self.data))
        for rel in files.values():
            self.assertTrue(_is_png(os.path.join(self.dir, rel)), rel)
        self.assertEqual(matplotlib.get_backend().lower(), "agg")
        self.assertEqual(len(seen), len(files))
        # the order plot: a small panel per configuration
        order = [n for t, n, _, _ in seen if "in the order run" in t]
        self.assertEqual(max(order), len(plots._configs(self.data)))
        self.assertTrue(all(n > 10 for n in order), order)
        # the window sweep's plots on a log x axis, the forest plots on a ratio scale
        self.assertEqual([sc for t, _, sc, _ in seen if " over ratelimit_window_ns" in t], ["log", "log"])
        self.assertEqual({sc for t, _, sc, _ in seen if "headline comparisons" in t}, {"function"})

    def test_no_matplotlib(self):
        with mock.patch.object(builtins, "__import__", _no_matplotlib):
            self.assertIsNone(plots._pyplot())
            self.assertIsNone(plots.plotter())
            files, note = plots.draw(self.dir, self.data)
        self.assertEqual(files, {})
        self.assertEqual(note, plots.NO_PLOTTER)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "plots")))

    def test_report_without_plotter(self):
        data = synthetic()
        with mock.patch.object(builtins, "__import__", _no_matplotlib):
            view = write_dir(self.dir, data, draw_plots=True)
        with open(os.path.join(self.dir, "report.md")) as f:
            md = f.read()
        self.assertIn("python3-matplotlib is not installed", md)
        self.assertNotIn("](plots/", md)
        self.assertIn("### hackbench-g1", md)
        self.assertEqual(view["plots"], {})
        with open(os.devnull, "w") as null, mock.patch("sys.stdout", null):
            self.assertEqual(check.check_dir(self.dir, None, None, plots=False), 0)

    @unittest.skipUnless(HAVE_MPL, "python3-matplotlib not installed")
    def test_report_links_every_plot_and_keeps_them(self):
        data = synthetic()
        view = write_dir(self.dir, data, draw_plots=True)
        with open(os.path.join(self.dir, "report.md")) as f:
            md = f.read()
        self.assertIn("plots drawn with matplotlib", md)
        for rel in view["plots"].values():
            self.assertIn("](%s)" % rel, md)
        # written again without a plotter (or with --no-plots): the PNGs on
        # disk stay linked (they were dropped before)
        for kw in ({"draw_plots": False}, {"draw_plots": True}):
            with mock.patch.object(builtins, "__import__", _no_matplotlib):
                again = markdown.write_all(self.dir, data, log=lambda m: None, **kw)
            self.assertEqual(again["plots"], view["plots"])
            with open(os.path.join(self.dir, "report.md")) as f:
                md = f.read()
            for rel in view["plots"].values():
                self.assertIn("](%s)" % rel, md)
            self.assertIn("are linked (drawn earlier)", md)


if __name__ == "__main__":
    unittest.main()
