# SPDX-License-Identifier: GPL-2.0
"""strunner.kjob builds: a kernel's builds and static checks as records.
A module that did not build fails with its log's errors and stops the
kernel's checks; a kernel built only gets its support row and matrix
line; one that boots builds the sched_ext scheduler where the kernel has
sched_ext, and the test modules.  The builds are stand-ins."""

import os
import shutil
import subprocess
import tempfile
import unittest
from unittest import mock

from strunner import Error, chroot, image, kbuild, kjob, objgraph, support
from util import write

KVER = "6.12.95+deb12-amd64"
OBJDUMP = ("0000000000000000 <st_f>:\n"
           "   0:\te8 00 00 00 00       \tcall   5 <st_f+0x5>\n"
           "\t\t\t1: R_X86_64_PLT32\t__SCT__pick_next_task-0x4\n")


class Builds(unittest.TestCase):
    def setUp(self):
        self.d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.d)
        self.built = []
        self.failing = set()
        self.scx = False
        self.dump = OBJDUMP
        for name, fn in (("install", lambda *_: 0),):
            p = mock.patch.object(chroot, name, fn)
            p.start()
            self.addCleanup(p.stop)
        for obj, name, fn in ((kbuild, "build", self.build), (kbuild, "verdict", self.verdict),
                              (objgraph, "cycles_in", lambda _: []),
                              (image, "has_scx", lambda *_: self.scx),
                              (image, "scx", self.build_scx),
                              (support, "row_check", lambda *_: iter([("R", "pass", "row")])),
                              (kjob.subprocess, "run", self.objdump)):
            p = mock.patch.object(obj, name, fn)
            p.start()
            self.addCleanup(p.stop)

    def build(self, _cache, kver, src, out, args, sparse=""):
        what = os.path.basename(src.rstrip("/")) if src != self.d else "module"
        self.built.append((what, args, sparse))
        os.makedirs(out, exist_ok=True)
        if what in self.failing:
            write(out, "build.log", "x.c:1:2: error: no\nmake: ok\n")
            return 2
        if what == "module":
            write(out, "sched_tune.ko", "")
        if what == "livepatch":
            write(out, "st_livepatch.ko", "")
        self.assertEqual(kver, KVER)
        return 0

    @staticmethod
    def verdict(_kver, _out, rc, _why=""):
        yield "R", "pass" if rc == 0 else "fail", "W=1"

    def build_scx(self, *_):
        if "scx" in self.failing:
            raise Error("clang failed")

    def objdump(self, cmd, **_kw):
        self.assertEqual(cmd[:2], ["objdump", "-dr"])
        return mock.Mock(stdout=self.dump)

    def records(self, build_only=False):
        return list(kjob.builds("cache", self.d, self.d, os.path.join(self.d, "b"), KVER,
                                build_only))

    def results(self, recs):
        return [(r[1], r[2]) for r in recs if r[0] == "R"]

    def test_boots(self):
        """Every build and check passes; sparse on the module only."""
        self.scx = True
        res = self.results(self.records())
        self.assertEqual([v for v, _ in res], ["pass"] * 7, res)
        self.assertEqual(self.built, [("module", ["ST_TEST=1", "W=1"], "sparse"),
                                      ("livepatch", [], ""), ("kmod", [], "")])
        self.assertIn("sched_ext", res[5][1])

    def test_no_module(self):
        """The module's build fails: its errors as comments, the checks
        after it fail, nothing boots."""
        self.failing.add("module")
        recs = self.records()
        self.assertIn(("#   x.c:1:2: error: no",), recs)
        self.assertNotIn(("#   make: ok",), recs)
        res = self.results(recs)
        self.assertEqual(res[0], ("fail", "build sched_tune.ko against linux-headers-" + KVER))
        self.assertEqual(res[-1], ("fail", "guest tests: not run, sched_tune.ko was not built"))
        self.assertNotIn("kmod", [b[0] for b in self.built])

    def test_build_only(self):
        recs = self.records(build_only=True)
        self.assertEqual(recs[-1], ("# matrix: %s built-only built-only built-only built-only"
                                    % KVER,))
        self.assertIn(("pass", "row"), self.results(recs))
        self.assertEqual([b[0] for b in self.built], ["module", "livepatch"])

    def test_fails_named(self):
        """The scheduler's and the test modules' builds fail by name."""
        self.scx = True
        self.failing |= {"scx", "kmod"}
        recs = self.records()
        res = self.results(recs)
        self.assertEqual([v for v, _ in res[-2:]], ["fail", "fail"])
        self.assertIn(("#   Error: clang failed",), recs)
        self.assertIn(("#   x.c:1:2: error: no",), recs)

    def test_step_raises(self):
        """A check that raises fails by name; the steps after it run."""
        def nm(_top):
            raise subprocess.CalledProcessError(1, ["nm", "x.o"])
        with mock.patch.object(objgraph, "cycles_in", nm):
            recs = self.records()
        res = self.results(recs)
        self.assertEqual(res[4][0], "fail", res)
        self.assertTrue(res[4][1].startswith("nm: "))
        self.assertIn("kmod", [b[0] for b in self.built])

    def test_tail_call(self):
        """A jmp into a static call's trampoline fails the check."""
        self.dump = OBJDUMP.replace("call   5", "jmp    5")
        res = self.results(self.records())
        self.assertEqual(res[3][0], "fail", res)
        self.assertTrue(res[3][1].startswith("objdump: no jmp"))


if __name__ == "__main__":
    unittest.main()
