# SPDX-License-Identifier: GPL-2.0
"""strunner.runner's pieces under its loop (runner_test.sh runs the loop,
its stop and its end): records become flat results as lib.sh st_records
makes them, a producer's exit fails by name, a stage that runs when the
run stops is killed, and a script it runs sums up on its own while its
jobs share its results."""

import io
import os
import shutil
import sys
import tempfile
import time
import unittest

from strunner import runner


class Runner(unittest.TestCase):
    def setUp(self):
        self.d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.d)
        os.makedirs(os.path.join(self.d, "run"))
        self.out = io.StringIO()
        self.c = runner.Check({"ST_BUILD": self.d, "ST_RUN": os.path.join(self.d, "run"),
                               "ST_RESULTS_T0": str(int(time.time())), "ST_BUDGET": "100",
                               "ST_BUDGET_TAIL": "10"}, self.out)

    def test_take(self):
        """R, G, C, L and "#" records as st_records prints them."""
        n = self.c.take("k", [("R", "pass", "built", ""), ("C", "a note"), ("G", "k numa"),
                              ("R", "skip", "booted", "no node"), ("L", "said"), ("# as is",),
                              ("R", "fail", "checked")])
        self.assertEqual(n, 3)
        self.assertEqual(self.out.getvalue().splitlines(), [
            "ok 1 - [k] built", "# [k] a note", "ok 2 - [k numa] booted # SKIP no node",
            "# said", "# as is", "not ok 3 - [k numa] checked"])
        self.assertEqual(self.c.failed, 1)

    def test_exit(self):
        """A producer that exits non-zero fails, its results kept."""
        code = "print('R\\x1fpass\\x1fone\\x1f'); raise SystemExit(3)"
        self.c.records("host", [sys.executable, "-c", code])
        self.assertEqual(self.out.getvalue().splitlines()[0], "ok 1 - [host] one")
        self.assertRegex(self.out.getvalue().splitlines()[1],
                         r"^not ok 2 - \[host\] .*exited 3, its results may stop short$")

    def test_stopped(self):
        """A stage running when the run is told to stop is killed."""
        self.c.signal = "SIGTERM"
        t = time.time()
        with self.assertRaises(runner.Stopped):
            self.c.records("host", ["sleep", "30"])
        self.assertLess(time.time() - t, 10)
        with open(os.path.join(self.d, "run", "stop")) as f:
            self.assertIn("SIGTERM (make check was killed)", f.read())

    def test_boot_without_kernel(self):
        """A boot of its own whose kernel's job never started is not run,
        named so, and starts nothing."""
        self.c.start("9.9.9 bench")
        self.assertEqual(self.c.jobs, [])
        lines = self.out.getvalue().splitlines()
        self.assertEqual(lines[0], "not ok 1 - [9.9.9 bench] sched-tune-bench smoke run: not run")
        self.assertIn("its kernel's job, 9.9.9, did not run", lines[1])

    def test_env(self):
        """The results' start and the deadline go to the run's own jobs
        only: a script it runs has a run of its own."""
        for k in ("ST_RESULTS_T0", "ST_DEADLINE", "ST_T0"):
            self.assertNotIn(k, runner.Check(dict(self.c.run_env()), self.out).child_env())
        self.assertEqual(self.c.run_env()["ST_DEADLINE"], str(self.c.t0 + 90))
        self.assertEqual(self.c.run_env()["ST_RESULTS_T0"], str(self.c.t0))


if __name__ == "__main__":
    unittest.main()
