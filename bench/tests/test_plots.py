# SPDX-License-Identifier: GPL-2.0
"""The plots: what is drawn (sweep axis, run order), the PNGs matplotlib
(Agg, no display) or gnuplot write when installed, and the fallback when
matplotlib cannot be imported: gnuplot, else no plots and a report that
says so.  Tests needing a plotter that is not installed skip, saying so."""

import builtins
import os
import re
import shutil
import sys
import tempfile
import unittest
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, ".."))

from stbench import check, plots, report  # noqa: E402
from test_report import synthetic  # noqa: E402

HAVE_MPL = plots._pyplot() is not None
HAVE_GNUPLOT = shutil.which("gnuplot") is not None
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


class TestDraw(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.data = synthetic()
        report.normalize(self.data)
        report.summarize(self.data)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def _check_files(self, files):
        keys = {k[0] for k in files}
        self.assertEqual(keys, {"dist", "order", "sweep", "sweep_migrations"})
        want = sum(len(w["metrics"]) for w in self.data["workloads"])
        self.assertEqual(sum(k[0] == "dist" for k in files), want)
        self.assertEqual({k[1] for k in files if k[0] == "order"}, {w["name"] for w in self.data["workloads"]})
        for rel in files.values():
            self.assertTrue(_is_png(os.path.join(self.dir, rel)), rel)

    @unittest.skipUnless(HAVE_MPL, "python3-matplotlib not installed")
    def test_matplotlib(self):
        import matplotlib
        plt = plots._pyplot()
        real_close, seen = plt.close, []

        def close(fig=None):
            if hasattr(fig, "axes"):  # pyplot itself closes "all" at its first figure
                seen.append((fig.axes[0].get_title(), len(fig.axes), fig.axes[0].get_xscale()))
            real_close(fig)

        with mock.patch.object(plt, "close", close):
            files, note = plots.draw(self.dir, self.data, prefer="matplotlib")
        self.assertIsNone(note)
        self.assertEqual(self.data["plotter"], "matplotlib")
        self._check_files(files)
        self.assertEqual(matplotlib.get_backend().lower(), "agg")
        # one y axis per plot; the window sweep's plots on a log x axis
        self.assertEqual(len(seen), len(files))
        self.assertEqual({n for _, n, _ in seen}, {1})
        sweep = [sc for t, _, sc in seen if " over ratelimit_window_ns" in t]
        self.assertEqual(sweep, ["log", "log"])
        self.assertEqual({sc for t, _, sc in seen if " over " not in t}, {"linear"})

    @unittest.skipUnless(HAVE_GNUPLOT, "gnuplot not installed (gnuplot-nox)")
    def test_gnuplot(self):
        files, note = plots.draw(self.dir, self.data, prefer="gnuplot")
        self.assertIsNone(note)
        self.assertEqual(self.data["plotter"], "gnuplot")
        self._check_files(files)
        with open(os.path.join(self.dir, "plots", "plots.gnuplot")) as f:
            gp = f.read()
        # the window sweep on a log axis, and no second y axis anywhere;
        # quoted strings (titles, file names in a random temporary
        # directory such as /tmp/tmpy26vgnqv) are not gnuplot commands
        self.assertIn("set logscale x", gp)
        self.assertNotIn("y2", re.sub(r'"[^"]*"', '""', gp))

    def test_matplotlib_import_fails(self):
        with mock.patch.object(builtins, "__import__", _no_matplotlib):
            self.assertIsNone(plots._pyplot())
            self.assertEqual(plots.plotter(), "gnuplot" if HAVE_GNUPLOT else None)
            with mock.patch.object(shutil, "which", lambda name: None):
                self.assertIsNone(plots.plotter())
                files, note = plots.draw(self.dir, self.data)
        self.assertEqual(files, {})
        self.assertEqual(note, plots.NO_PLOTTER)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "plots")))

    @unittest.skipUnless(HAVE_GNUPLOT, "gnuplot not installed (gnuplot-nox)")
    def test_fallback_to_gnuplot(self):
        with mock.patch.object(builtins, "__import__", _no_matplotlib):
            files, note = plots.draw(self.dir, self.data)
        self.assertEqual(self.data["plotter"], "gnuplot")
        self._check_files(files)

    def test_report_without_plotter(self):
        data = synthetic()
        with mock.patch.object(builtins, "__import__", _no_matplotlib), \
                mock.patch.object(shutil, "which", lambda name: None):
            report.write_all(self.dir, data, draw_plots=True, log=lambda m: None)
        with open(os.path.join(self.dir, "report.md")) as f:
            md = f.read()
        self.assertIn("neither python3-matplotlib nor gnuplot", md)
        self.assertNotIn("](plots/", md)
        self.assertIn("### hackbench-g1", md)
        self.assertEqual(data["plots"], {})
        with open(os.devnull, "w") as null, mock.patch("sys.stdout", null):
            self.assertEqual(check.check_dir(self.dir, None, None, plots=False), 0)

    @unittest.skipUnless(HAVE_MPL or HAVE_GNUPLOT, "neither python3-matplotlib nor gnuplot installed")
    def test_report_links_every_plot(self):
        data = synthetic()
        report.write_all(self.dir, data, draw_plots=True, log=lambda m: None)
        with open(os.path.join(self.dir, "report.md")) as f:
            md = f.read()
        self.assertIn("plots drawn with " + data["plotter"], md)
        for rel in data["plots"].values():
            self.assertIn("](%s)" % rel, md)


if __name__ == "__main__":
    unittest.main()
