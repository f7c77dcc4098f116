# SPDX-License-Identifier: GPL-2.0
"""strunner.icount measure: when a second, independent icount boot
runs, the group its records go to, what the results are held on, and a
second boot the deadline leaves no room for (a failure).  qemu.boot is a stand-in
that writes the guest's log; the runner's own test boots a fake qemu."""

import os
import shutil
import tempfile
import time
import unittest
from unittest import mock

from strunner import icount, qemu
from util import write

HEAD = "KTAP version 1\n1..2\n# plan: ic_measure whole_run\n"


def tap(ratelimit, lost=False):
    """An icount guest's log: three repetitions, ratelimit's runs at
    RATELIMIT against 10000 unloaded."""
    t = HEAD
    for _ in range(3):
        t += "# icount unloaded 10000\n"
        if not lost:
            t += "# icount ratelimit %d\n" % ratelimit
    if lost:
        t += "# icount_lost ratelimit\n"
    return t + "ok 1 - measured\nok 2 - whole run\n"


class Measure(unittest.TestCase):
    def setUp(self):
        self.d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.d)
        write(self.d, "k/initramfs.cpio", "")
        self.out = os.path.join(self.d, "k", "icount")
        self.boots = []

    def measure(self, taps, env=None):
        def boot(_env, out, _vmlinuz, initrd, words):
            self.assertEqual(initrd, os.path.join(self.d, "k", "initramfs.cpio"))
            self.boots.append((out, words))
            write(out, "tap.log", taps[len(self.boots) - 1])
            write(out, "console.log", "st-guest: done (rc 0)\n")
            return 0
        with mock.patch.object(qemu, "boot", boot):
            return list(icount.measure(env or {}, "k icount", self.out, "vmlinuz",
                                       ["st_mode=icount"], self.d, "Oops", "2",
                                       ["ratelimit"]))

    def verdicts(self, recs):
        return [(r[1], r[2]) for r in recs if r[0] == "R" and r[2].startswith("icount:")]

    def test_one_boot(self):
        recs = self.measure([tap(10150)])
        self.assertEqual(self.boots, [(self.out, ["st_mode=icount", "st_ic_second=1"])])
        self.assertEqual(self.verdicts(recs), [
            ("pass", "icount: ratelimit costs at most 2% instructions per round trip")])
        self.assertNotIn("G", [r[0] for r in recs])
        self.assertTrue(any(r[0] == "L" and "the runs of one boot" in r[1] for r in recs))

    def test_over_then_both(self):
        """Over the limit once: a second boot, its records in a group of
        their own, and one estimate over both (+2.5% and +1.2%: +1.85%)."""
        recs = self.measure([tap(10250), tap(10120)])
        self.assertEqual([b[0] for b in self.boots], [self.out, self.out + "-2"])
        self.assertEqual(self.boots[1][1], ["st_mode=icount"])
        groups = [r[1] for r in recs if r[0] == "G"]
        self.assertEqual(groups, ["k icount, second boot", "k icount"])
        self.assertEqual(self.verdicts(recs)[0][0], "pass")
        self.assertTrue(any(r[0] == "L" and "+1.85%" in r[1] and "both boots" in r[1]
                            for r in recs))

    def test_lost_then_measured(self):
        recs = self.measure([tap(0, lost=True), tap(10150)])
        self.assertEqual(len(self.boots), 2)
        self.assertTrue(any(r[0] == "L" and "never measured apart: ratelimit" in r[1]
                            for r in recs))
        self.assertEqual(self.verdicts(recs)[0][0], "pass")

    def test_no_room_for_the_second(self):
        """Past its deadline the second boot does not run: a failure, and
        the first boot's +2.5% is held as it is."""
        run = os.path.join(self.d, "run")
        os.makedirs(run)
        env = {"ST_DEADLINE": str(int(time.time()) - 1), "ST_RUN": run, "ST_BUDGET": "60"}
        recs = self.measure([tap(10250)], env)
        self.assertEqual(len(self.boots), 1)
        self.assertIn(("fail", "icount: a second, independent boot: not run"),
                      [(r[1], r[2]) for r in recs if r[0] == "R"])
        self.assertEqual(self.verdicts(recs)[-1][0], "fail")


class Shared(unittest.TestCase):
    """all: printed beside the limit, held to cost less than its
    features apart where each was measured."""
    LOG = ["# icount unloaded 10000", "# icount ratelimit 10100", "# icount sync_short 10120",
           "# icount all %d"]

    def results(self, all_, features=("ratelimit", "sync_short")):
        stats = [r.split() for r in icount.rows(icount.collect(
            [[x % all_ if "%" in x else x for x in self.LOG]]))]
        return list(icount.results(stats, list(features), "2", "one boot"))

    def verdicts(self, recs):
        return [(r[1], r[2]) for r in recs if r[0] == "R"]

    def test_over_the_limit_below_apart(self):
        recs = self.results(10210)
        self.assertEqual(self.verdicts(recs)[-1],
                         ("pass", "icount: all costs less than its features apart"))
        self.assertNotIn("icount: all costs at most 2% instructions per round trip",
                         [v[1] for v in self.verdicts(recs)])
        self.assertTrue(any(r[0] == "L" and "all costs +2.10%" in r[1] and "apart +2.20%" in r[1]
                            for r in recs))

    def test_as_much_as_apart(self):
        self.assertEqual(self.verdicts(self.results(10220))[-1],
                         ("fail", "icount: all costs less than its features apart"))

    def test_a_feature_not_measured(self):
        """Only printed: the sum would leave a feature out."""
        recs = self.results(10300, ("ratelimit", "sync_short", "eevdf"))
        self.assertNotIn("icount: all costs less than its features apart",
                         [v[1] for v in self.verdicts(recs)])
        self.assertTrue(any(r[0] == "L" and "all costs +3.00%" in r[1] for r in recs))


if __name__ == "__main__":
    unittest.main()
