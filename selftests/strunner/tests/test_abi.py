# SPDX-License-Identifier: GPL-2.0
"""strunner.abi: the ABI file against the module's tables, on this tree
(it must pass) and on a made-up one where each check is made to fail."""

import os
import shutil
import tempfile
import unittest

from strunner import abi
from util import write

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

WHAT = "What:\t\t%s\nDate:\t\tDecember 2026\nDescription:\n\t\tx\n\n"
ABI = "".join(WHAT % p for p in ("/sys/kernel/sched_tune/alpha", "/sys/kernel/sched_tune/stats/hits",
                                 "/sys/kernel/sched_tune/stats/reset",
                                 "/sys/module/sched_tune/parameters/beta"))
TREE = {
    "module/knobs.h": "ST_KNOB(ALPHA, alpha, int, 0, 1, 0, \"help\")\n",
    "module/counters.h": "#define X 1\nST_STAT(HITS, hits)\n",
    "module/main.c": "module_param(alpha, int, 0);\nmodule_param_named(beta, st_beta, int, 0444);\n",
    "module/test_inject.c": "module_param_cb(gamma, &ops, NULL, 0644);\n",
    "Kbuild": "sched_tune-y += module/main.o\nifeq ($(ST_TEST),1)\n"
              "sched_tune-y += module/test_inject.o\nendif\n",
    abi.ABI_FILE: ABI,
}


class Abi(unittest.TestCase):
    def setUp(self):
        self.src = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.src)
        for path, text in TREE.items():
            write(self.src, path, text)

    def results(self, src=None):
        return [r[1:3] for r in abi.check(src or self.src) if r[0] == "R"]

    def failed(self):
        recs = list(abi.check(self.src))
        return [(r[2], next((c[1] for c in recs[i + 1:i + 2] if c[0] == "C"), ""))
                for i, r in enumerate(recs) if r[:2] == ("R", "fail")]

    def test_this_tree(self):
        res = self.results(ROOT)
        self.assertEqual(len(res), 7)
        self.assertEqual({v for v, _ in res}, {"pass"})

    def test_made_up_tree_passes(self):
        self.assertEqual([v for v, _ in self.results()], ["pass"] * 7)
        self.assertEqual(abi.test_files(self.src), ["module/test_inject.c"])
        self.assertEqual(abi.params(self.src, ["module/main.c"]), ["alpha", "beta"])

    def test_missing_and_extra(self):
        write(self.src, abi.ABI_FILE, ABI.replace("stats/hits", "stats/misses")
              + WHAT % "/sys/module/sched_tune/parameters/delta")
        self.assertEqual(self.failed(), [
            ("abi: each counter of module/counters.h has its What: /sys/kernel/sched_tune/stats/<name>",
             "  no What: for: hits"),
            ("abi: each What: /sys/kernel/sched_tune/stats/<name> is a counter of module/counters.h",
             "  not a counter of module/counters.h: misses"),
            ("abi: each What: /sys/module/sched_tune/parameters/<name> is a module parameter "
             "other than a knob", "  not a module parameter other than a knob: delta")])

    def test_test_build_parameter_named(self):
        write(self.src, abi.ABI_FILE, ABI + "\t\tsee also gamma\n")
        self.assertEqual(self.failed(), [("abi: %s names no parameter of the selftests' build"
                                          % abi.ABI_FILE, "  named: gamma")])
        write(self.src, abi.ABI_FILE, ABI)
        write(self.src, "Kbuild", TREE["Kbuild"].replace("test_inject", "none"))
        self.assertEqual(self.failed()[-1][0], "abi: %s names no parameter of the selftests' "
                         "build (none found in Kbuild's ST_TEST objects)" % abi.ABI_FILE)

    def test_unreadable(self):
        write(self.src, "module/counters.h", "#error broken\n")
        self.assertEqual(self.results(), [("fail", "abi: module/knobs.h and module/counters.h "
                                                   "read (an empty table)")])
        os.unlink(os.path.join(self.src, abi.ABI_FILE))
        self.assertEqual(self.results(), [("fail", "abi: %s exists" % abi.ABI_FILE)])


if __name__ == "__main__":
    unittest.main()
