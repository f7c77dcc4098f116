# SPDX-License-Identifier: GPL-2.0
"""report.md byte for byte against the files in fixtures/report, made
from the results.json in fixtures/compare (and one of them with every
optional section added): any change of the text is a deliberate one.

After a deliberate change: python3 tests/test_golden.py --write
"""

import copy
import json
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))

from stbench import markdown, report, stats  # noqa: E402

SRC = os.path.join(HERE, "fixtures", "compare")
GOLD = os.path.join(HERE, "fixtures", "report")
KERNELS = ("6.12.95+deb12-amd64", "7.3.4+deb13-amd64")


def load(kernel):
    with open(os.path.join(SRC, kernel, "results.json")) as f:
        return json.load(f)


def enriched(data):
    """The fixture with what it lacks: an A/A copy, a sweep, failed runs,
    a missing figure, notes, warnings, warm-ups, --until-width, sched_ext,
    plots; deterministic (the A/A copy is stock's runs scaled by 1.01)."""
    d = copy.deepcopy(data)
    stock = next(c for c in d["configs"] if c["name"] == "stock")
    aa = dict(stock, name="stock-aa", kind="aa", desc="A/A: a copy of stock")
    d["configs"].append(aa)
    copies = []
    for r in d["runs"]:
        if r["config"] == "stock" and r.get("ok"):
            c = copy.deepcopy(r)
            c["config"] = "stock-aa"
            c["figures"] = {k: v * 1.01 for k, v in c["figures"].items()}
            copies.append(c)
    d["runs"] += copies
    d["runs"].append({"workload": "pipe", "config": "seed", "rep": 1, "ok": False,
                      "error": "configuration not verified: a | b\nsecond line"})
    d["runs"].append({"workload": "tbench", "config": "ratelimit", "rep": 0, "ok": False,
                      "calibration": True, "error": "calibration failed"})
    d["runs"].append({"workload": "tbench", "config": "seed", "rep": 1, "ok": True, "warmup": True,
                      "figures": {"mb_per_s": 1.0}, "elapsed_s": 1.0})
    nofig = copy.deepcopy(next(r for r in d["runs"] if r["workload"] == "tbench" and r["config"] == "seed"))
    nofig["figures"].pop("max_latency_ms", None)
    nofig["sched_ext"] = {"state": "enabled"}
    d["runs"].append(nofig)
    d["sweeps"] = [{"knob": "ratelimit_window_ns", "base": "stock",
                    "points": [{"value": "0", "config": "stock"}, {"value": "2000000", "config": "ratelimit"}]}]
    d["notes"] = ["a note | with a bar"]
    d["warnings"] = ["the machine is noisy"]
    d["warmup"] = 1
    d["order"] = {"seed": 42}
    d["until"] = {"width_pct": 5, "budget_s": 600, "rounds": 4, "rounds_min": 3, "ended_by": "width"}
    d["restore_problems"] = ["restoring /x=1: EPERM"]
    return d


def plot_files(view):
    files = {}
    for w in view["workloads"]:
        files[("forest", w["name"])] = "plots/forest-%s.png" % w["name"]
        files[("order", w["name"])] = "plots/order-%s.png" % w["name"]
        files[("dist", w["name"], w["metrics"][0]["name"])] = "plots/dist-%s.png" % w["name"]
        files[("sweep", "ratelimit_window_ns", w["name"])] = "plots/sweep-%s.png" % w["name"]
    return files


def cases():
    """{golden file name: (view, plot files)}"""
    out = {}
    for k in KERNELS:
        out[k + ".md"] = (report.prepare(load(k)), {})
    view = report.prepare(enriched(load(KERNELS[0])))
    view["plots_note"] = "not drawn (--no-plots)"
    out["enriched.md"] = (view, plot_files(view))
    return out


class StdlibStats:
    """The standard library's t everywhere, as without python3-scipy: the
    golden files were written so."""

    def __enter__(self):
        self.saved = stats._sps, stats.BACKEND
        stats._sps, stats.BACKEND = None, "standard library"

    def __exit__(self, *exc):
        stats._sps, stats.BACKEND = self.saved


def text(view, files):
    return markdown.report_md(view, files)


class TestGolden(unittest.TestCase):
    def test_report_md_byte_for_byte(self):
        with StdlibStats():
            got = {name: text(v, f) for name, (v, f) in cases().items()}
        for name, md in sorted(got.items()):
            with self.subTest(name=name):
                with open(os.path.join(GOLD, name), encoding="utf-8") as f:
                    self.assertEqual(md, f.read())

    def test_enriched_has_every_section(self):
        with StdlibStats():
            v, f = cases()["enriched.md"]
            md = text(v, f)
        for head in ("### A/A check", "## Sweeps", "## Runs that failed", "### Drift over the run order",
                     "![pipe: headline comparisons]", "**restore problems**", "(+1 missing)"):
            self.assertIn(head, md)


def write():
    os.makedirs(GOLD, exist_ok=True)
    with StdlibStats():
        for name, (v, f) in cases().items():
            with open(os.path.join(GOLD, name), "w", encoding="utf-8") as fh:
                fh.write(text(v, f))


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        write()
    else:
        unittest.main()
