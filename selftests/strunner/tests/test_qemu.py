# SPDX-License-Identifier: GPL-2.0
"""strunner.qemu: a guest slower than the pace ST_GUEST_TIMEOUT is meant
for gets its timeout stretched as much, and one at that pace is ended
at ST_GUEST_TIMEOUT.  The guest is a stand-in qemu that prints its pace
on the KTAP port, then works for 2 s."""

import os
import shutil
import sys
import tempfile
import time
import unittest

from strunner import qemu
from util import write

FAKE = """import sys, time
tap = [a[len("file:"):] for a in sys.argv if a.startswith("file:")][1]
with open(tap, "w") as f:
    f.write("KTAP version 1\\n1..1\\n# pace: 400 hackbench loops in %s cs\\n" % sys.argv[-1])
    f.flush()
    time.sleep(2)
    f.write("ok 1 - worked\\n")
"""


class Stretch(unittest.TestCase):
    def setUp(self):
        self.d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.d)
        fake = write(self.d, "qemu.py", FAKE)
        self.qemu = write(self.d, "qemu", "#!/bin/sh\nexec %s %s \"$@\"\n" % (sys.executable, fake),
                          0o755)

    def boot(self, pace):
        os.makedirs(os.path.join(self.d, "run", "pace"), exist_ok=True)
        env = {"ST_QEMU": self.qemu, "ST_QEMU_ACCEL": "tcg", "ST_QEMU_CPU": "max",
               "ST_MEM": "1G", "ST_QEMU_SMP": "1", "ST_GUEST_TIMEOUT": "1",
               "ST_GUEST_SILENCE": "30", "ST_POLL": "0.1", "ST_NMI_WAIT": "0",
               "ST_DEADLINE": str(int(time.time()) + 60), "ST_RUN": os.path.join(self.d, "run"),
               "ST_PACE_HOST_CS": "100"}
        out = os.path.join(self.d, "out%d" % pace)
        return qemu.boot(env, out, "vmlinuz", "initrd", [str(pace)]), out

    def test_slow_guest_stretched(self):
        """Three times slower: 3 s, and the 2 s guest ends on its own."""
        rc, out = self.boot(300)
        self.assertEqual(rc, 0)
        self.assertFalse(os.path.exists(os.path.join(out, "hung")))

    def test_guest_at_pace_ended(self):
        rc, out = self.boot(100)
        self.assertEqual(rc, 124)
        with open(os.path.join(out, "hung")) as f:
            self.assertEqual(f.read(), "still running after 1 s\n")

    def test_stretch(self):
        self.assertEqual(qemu.stretch({"ST_PACE_HOST_CS": "600"}, 2400, 1257), 5028)
        self.assertEqual(qemu.stretch({"ST_PACE_HOST_CS": "600"}, 2400, 545), 2400)
        self.assertEqual(qemu.stretch({}, 2400, 1257), 2400)


if __name__ == "__main__":
    unittest.main()
