# SPDX-License-Identifier: GPL-2.0
"""strunner.guest run: a boot that does not fit before the deadline is
not started and fails by name; one that ran says so, is judged, and
records what it took for the pace of the boots after it, unless it
ended short.  qemu.boot is a stand-in that writes the guest's logs."""

import os
import shutil
import tempfile
import time
import unittest
from unittest import mock

from strunner import guest, qemu
from util import write

TAP = "KTAP version 1\n1..2\n# plan: one whole_run\nok 1 - one\nok 2 - whole run\n"


class Run(unittest.TestCase):
    def setUp(self):
        self.d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.d)
        write(self.d, "tests/guest/demo.sh", "units_run one whole_run\n")
        write(self.d, "k/initramfs.cpio", "")
        self.run_dir = os.path.join(self.d, "run")
        os.makedirs(os.path.join(self.run_dir, "boots"))
        self.out = os.path.join(self.d, "k", "guest")
        self.boots = []
        self.timeouts = []

    def env(self, left):
        return {"ST_DEADLINE": str(int(time.time()) + left), "ST_RUN": self.run_dir,
                "ST_PACE_HOST_CS": "600", "ST_BUDGET": "4800", "ST_QEMU_SMP": "4"}

    def run_guest(self, env, rc=0, tap=TAP, ref=65):
        def boot(benv, out, _vmlinuz, initrd, words):
            self.assertEqual(initrd, os.path.join(self.d, "k", "initramfs.cpio"))
            self.boots.append(words)
            self.timeouts.append(benv["ST_GUEST_TIMEOUT"])
            write(out, "tap.log", tap)
            write(out, "console.log", "st-guest: done (rc 0)\n")
            return rc
        with mock.patch.object(qemu, "boot", boot):
            return list(guest.run(env, ref, "the demo", os.path.join(self.d, "tests"), "Oops",
                                  "k demo", self.out, "vmlinuz", "demo", ["st_x=1"]))

    def recorded(self):
        return os.listdir(os.path.join(self.run_dir, "boots"))

    def test_no_room(self):
        """65 s of estimate (one unit) with 30 s left: not started."""
        recs = self.run_guest(self.env(30))
        self.assertEqual(self.boots, [])
        self.assertEqual(recs[0], ("R", "fail", "the demo: not run", ""))
        self.assertRegex(recs[1][1], r"it needs about 65 s at this machine's pace \(factor "
                         r"1\.000\), [23]\d s are left")
        self.assertEqual(self.recorded(), [])

    def test_ran(self):
        recs = self.run_guest(self.env(1000))
        self.assertEqual(self.boots, [["st_mode=demo", "st_x=1"]])
        logs = [r[1] for r in recs if r[0] == "L"]
        self.assertRegex(logs[0], r"k demo: boot \(4 vCPUs, timeout 2400s, \d+ s left")
        self.assertRegex(logs[1], r"k demo: guest exited \(qemu rc 0\) after \d+ s, "
                         r"estimated 65 s \(factor 1\.000\)")
        results = [(r[1], r[2]) for r in recs if r[0] == "R"]
        self.assertIn(("pass", "the guest's plan is the host's"), results)
        self.assertNotIn("fail", [r[0] for r in results])
        (name,) = self.recorded()
        self.assertTrue(name.startswith("demo."))
        with open(os.path.join(self.run_dir, "boots", name)) as f:
            self.assertRegex(f.read(), r"^demo 65 \d+\n$")

    def test_timeout(self):
        """ST_GUEST_TIMEOUT, or twice the estimate where that is longer."""
        recs = self.run_guest(dict(self.env(10000), ST_GUEST_TIMEOUT="600"),
                              ref=1040)
        self.assertIn("timeout 2080s", [r[1] for r in recs if r[0] == "L"][0])
        # (the boot just recorded sets the pace: a stand-in takes 0 s)
        self.run_guest(dict(self.env(10000), ST_GUEST_TIMEOUT="600"))
        self.assertEqual(self.timeouts, ["2080", "600"])

    def test_short_not_recorded(self):
        """A boot that ended short of its plan, or with qemu failing, says
        nothing of the pace."""
        recs = self.run_guest(self.env(1000), tap=TAP.replace("ok 2 - whole run\n", ""))
        self.assertIn("fail", [r[1] for r in recs if r[0] == "R"])
        self.run_guest(self.env(1000), rc=1)
        self.assertEqual(self.recorded(), [])


if __name__ == "__main__":
    unittest.main()
