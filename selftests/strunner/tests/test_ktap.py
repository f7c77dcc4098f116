# SPDX-License-Identifier: GPL-2.0
"""strunner.ktap: leaf results counted, a subtest's short plan and its
top-level failure, and a producer's verdict: its results, no result, a
plan it falls short of, a non-zero exit after results that all passed."""

import os
import shutil
import tempfile
import unittest

from strunner import ktap
from util import write

NESTED = """KTAP version 1
1..2
    KTAP version 1
    # Subtest: one
    1..2
    ok 1 - a
    ok 2 - b # SKIP no b here
ok 1 - one
    KTAP version 1
    1..3
    ok 1 - c
ok 2 - two
"""


class Ktap(unittest.TestCase):
    def setUp(self):
        self.d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.d)

    def test_parse(self):
        recs = list(ktap.parse(NESTED.splitlines()))
        self.assertEqual([r for r in recs if r[0] == "R"], [
            ("R", "pass", "a", ""), ("R", "skip", "b", "no b here"), ("R", "pass", "c", ""),
            ("R", "fail", "subtest 'ok 2 - two': plan 1..3 but 1 results", "")])
        self.assertIn(("C", "== one"), recs)
        self.assertEqual(recs[-1], ("P", "2", 2))

    def test_stopped_short(self):
        recs = list(ktap.parse(["1..1", "    ok 1 - a", "not ok 1 - t"]))
        self.assertEqual([r[1] for r in recs if r[0] == "R"], ["pass", "fail"])

    def run_producer(self, script):
        sh = write(self.d, "p.sh", script)
        return list(ktap.run("p.sh", os.path.join(self.d, "p.log"), ["sh", sh]))

    def verdicts(self, recs):
        return [(r[1], r[2]) for r in recs if r[0] == "R"]

    def test_run(self):
        for name, script, want in (
                ("passes", "echo 1..1; echo ok 1 - x", [("pass", "x")]),
                ("fails and exits 1", "echo 1..1; echo not ok 1 - x; exit 1", [("fail", "x")]),
                ("no result", "echo starting; exit 0",
                 [("fail", "p.sh printed no results (exit 0)")]),
                ("short of its plan", "echo 1..2; echo ok 1 - x",
                 [("pass", "x"), ("fail", "p.sh: plan 1..2 but 1 results")]),
                ("no plan", "echo ok 1 - x", [("pass", "x"), ("fail", "p.sh: plan 1.. but 1 results")]),
                ("exits 3 after its results", "echo 1..1; echo ok 1 - x; exit 3",
                 [("pass", "x"), ("fail", "p.sh exited 3 with no failure counted")])):
            with self.subTest(name):
                recs = self.run_producer(script + "\n")
                self.assertEqual(self.verdicts(recs), want)
                self.assertEqual(recs[-1][0], "P")
                tail = [r for r in recs if r[0].startswith("#   ")]
                self.assertEqual(bool(tail), want[-1][1].startswith("p.sh"))


if __name__ == "__main__":
    unittest.main()
