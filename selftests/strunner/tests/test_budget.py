# SPDX-License-Identifier: GPL-2.0
"""strunner.budget fits and not_run, and the commands lib.sh's
st_budget_ok and st_not_run call: what fits before the deadline, and
what did not run (a failure naming why, the run's stop first; a skip in
a run declared short)."""

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


if __name__ == "__main__":
    unittest.main()
