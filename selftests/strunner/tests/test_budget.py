# SPDX-License-Identifier: GPL-2.0
"""strunner.budget fits, not_run and plan, and the commands lib.sh's
st_budget_ok and strunner.plan call: what fits
before the deadline, what did not run (a failure naming why, the run's
stop first; a skip in a run declared short), and what the rest of the
plan needs in the run's lanes."""

import os
import shutil
import subprocess
import sys
import tempfile
import time
import unittest

from strunner import budget, qemu
from util import write

SELFTESTS = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class Fits(unittest.TestCase):
    def setUp(self):
        self.d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.d)

    def fits(self, env, need):
        recs = []
        gen = budget.fits(qemu.Run(env), env, "a boot", need)
        while True:
            try:
                recs.append(next(gen))
            except StopIteration as e:
                return e.value, recs

    def env(self, left, **kw):
        return dict({"ST_DEADLINE": str(int(time.time()) + left), "ST_RUN": self.d,
                     "ST_BUDGET": "100"}, **kw)

    def test_no_deadline(self):
        self.assertEqual(self.fits({}, 10 ** 6), (True, []))

    def test_fits(self):
        self.assertEqual(self.fits(self.env(100), 10), (True, []))

    def test_too_long(self):
        ok, recs = self.fits(self.env(100), 500)
        self.assertFalse(ok)
        self.assertEqual(recs[0], ("R", "fail", "a boot: not run", ""))
        self.assertRegex(recs[1][1], r"^a boot: not run: it needs about 500 s, (9\d|100) s "
                         r"are left before the deadline \(ST_BUDGET=100 s\)$")

    def test_short_run_skips(self):
        ok, recs = self.fits(self.env(100, ST_SHORT="1"), 500)
        self.assertFalse(ok)
        self.assertEqual(recs[0][:3], ("R", "skip", "a boot"))
        self.assertIn("ST_SHORT=1", recs[0][3])

    def test_stopped(self):
        write(self.d, "stop", "SIGTERM\n")
        ok, recs = self.fits(self.env(100), 1)
        self.assertFalse(ok)
        self.assertEqual(recs, [("R", "fail", "a boot: not run", ""),
                                ("L", "a boot: not run: the run stopped: SIGTERM")])

    def test_stopped_short_run_fails(self):
        write(self.d, "stop", "the run's deadline\n")
        ok, recs = self.fits(self.env(100, ST_SHORT="1"), 1)
        self.assertFalse(ok)
        self.assertEqual(recs[0], ("R", "fail", "a boot: not run", ""))

    def test_group_begins_the_log_line(self):
        recs = list(budget.not_run(qemu.Run(self.env(100)), self.env(100), "a boot",
                                   "no initramfs", "6.1 ops"))
        self.assertEqual(recs, [("R", "fail", "a boot: not run", ""),
                                ("L", "6.1 ops: a boot: not run: no initramfs")])

    def cli(self, env, *args):
        env = dict(env, PYTHONPATH=SELFTESTS, ST_PACE_HOST_CS="600")
        p = subprocess.run([sys.executable, "-m", "strunner.budget"] + list(args), env=env,
                           capture_output=True, text=True, check=True)
        return [line.split("\x1f") for line in p.stdout.splitlines()]

    def test_cli_fits_prints_nothing(self):
        self.assertEqual(self.cli(self.env(100), "fits", "k", "a boot", "30"), [])

    def test_cli_too_long(self):
        write(self.d, "pace/k", "1200\n")
        recs = self.cli(self.env(100), "fits", "k", "a boot", "80")
        self.assertEqual(recs[0], ["R", "fail", "a boot: not run", ""])
        self.assertEqual(recs[1][0], "L")
        self.assertRegex(recs[1][1], r"^k: a boot: not run: it needs about 160 s at this "
                         r"machine's pace \(factor 2\.000\), ")

    def test_cli_not_run(self):
        recs = self.cli(self.env(100, ST_SHORT="1"), "not-run", "k", "a boot", "no time")
        self.assertEqual(recs, [["R", "skip", "a boot", "not run in a short run (ST_SHORT=1): no time"]])

    def test_lanes(self):
        self.assertEqual(budget.lanes([], 2), 0)
        # each in the lane that ends first, in order: 100 | 50+30+40
        self.assertEqual(budget.lanes([100, 50, 30, 40], 2), 120)
        self.assertEqual(budget.lanes([100, 50, 30, 40], 1), 220)
        # a job that ran past its estimate needs nothing more
        self.assertEqual(budget.lanes([-20, 10], 1), 10)

    def test_cli_plan_fits(self):
        write(self.d, "pace/k", "1200\n")
        recs = self.cli(dict(self.env(1000), ST_PACE_HOST_CS="600"),
                        "plan", "pace", "2", "100", "0", "50", "20", "30", "0")
        self.assertEqual(len(recs), 1)
        # at factor 2: 200 | 100-20 + 60
        self.assertRegex(recs[0][1], r"^budget: at this machine's pace \(factor 2\.000, from "
                         r"its pace\) the rest of the plan needs about 200 s; (99[0-9]|1000) s are left")

    def test_cli_plan_too_long(self):
        recs = self.cli(self.env(100), "plan", "boots", "1", "80", "0", "40", "0")
        self.assertRegex(recs[0][1], r"needs about 120 s, [0-9]+ s are left before the deadline "
                         r"\(ST_BUDGET=100 s\): what does not fit fails as not run$")


if __name__ == "__main__":
    unittest.main()
