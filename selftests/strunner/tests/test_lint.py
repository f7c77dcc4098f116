# SPDX-License-Identifier: GPL-2.0
"""strunner.lint: the files each check reads, checkpatch's kept findings,
a result per file, the fetch of a package's files and the loop check's
control, with the tools given (a checkpatch that prints what it is told)."""

import os
import shutil
import tempfile
import unittest
from unittest import mock

from strunner import Error, lint
from util import write

# a checkpatch.pl that prints the findings in the file named FINDINGS
# beside it, with the linted file's name, and fails if there are any
CHECKPATCH = r"""
use File::Basename;
my $f = $ARGV[-1];
open(my $h, '<', dirname($0) . '/FINDINGS') or exit 0;
my $n = 0;
while (<$h>) { print "$f:$_"; $n++; }
print "ARGS @ARGV\n" if $ENV{ST_ECHO};
exit($n ? 1 : 0);
"""


class Lint(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.root)

    def test_ignored(self):
        self.assertEqual(lint.ignored("module/kernel/ksym.h"), "MACRO_ARG_REUSE")
        self.assertEqual(lint.ignored("module/policy/knob.c"), "")
        self.assertEqual(lint.ignored("selftests/helpers/st_write.c"), "PREFER_KERNEL_TYPES,ENOSYS")
        self.assertEqual(lint.ignored("bench/stbench/x.c"), "PREFER_KERNEL_TYPES")
        for path in lint.IGNORE:
            with self.subTest(path=path):
                self.assertTrue(path.startswith(("module/",) + lint.TEST_SIDE))

    def test_kept_only_on_lines_that_show_why(self):
        source = ['int f(void)', '{', '\treturn "a reason that is long";',
                  '\treturn x;', '#define ST_KNOB(n, h) n;']
        findings = ["f.c:3: CHECK:LONG_LINE: line length of 120 exceeds 100 columns",
                    "f.c:4: CHECK:LONG_LINE: line length of 120 exceeds 100 columns",
                    "f.c:5: WARNING:TRAILING_SEMICOLON: macros should not use a trailing semicolon",
                    "f.c:3: CHECK:SPACING: spaces preferred around that '&'",
                    "f.c:99: CHECK:LONG_LINE: line length of 120 exceeds 100 columns",
                    "not a finding"]
        left, n = lint.kept(findings, source)
        self.assertEqual(n, 2)
        self.assertEqual(left, findings[1:2] + findings[3:])

    def test_sched_debug_readers(self):
        for path, text in (("selftests/guest/a.sh", "x\ncat /sys/kernel/debug/sched/debug\n"),
                           ("bench/b.c", 'fopen("/proc/sched_debug", "r");\n'),
                           ("module/c.c", "/* debugfs sched/debug */\n"),
                           ("bench/d.py", 'p = _p(root, "sys/kernel/debug/sched/debug")\n'),
                           ("bench/e.sh", 'cat "$DBG/sched/debug"\nls sched/debug_x\n'),
                           ("selftests/README.md", "/sys/kernel/debug/sched/debug\n"),
                           ("docs/d.sh", "cat /sys/kernel/debug/sched/debug\n"),
                           ("selftests/strunner/lint.py", "/proc/sched_debug\n")):
            write(self.root, path, text)
        self.assertEqual(lint.sched_debug_readers(self.root),
                         ['bench/b.c:1: fopen("/proc/sched_debug", "r");',
                          'bench/d.py:1: p = _p(root, "sys/kernel/debug/sched/debug")',
                          'bench/e.sh:1: cat "$DBG/sched/debug"',
                          "selftests/guest/a.sh:2: cat /sys/kernel/debug/sched/debug"])

    def test_files(self):
        for path, text in (("a.sh", "echo\n"), ("bin/tool", "#!/bin/bash\necho\n"),
                           ("bin/dash", "#!/usr/bin/env sh\n"), ("bin/perl", "#!/usr/bin/perl\n"),
                           ("build/x.sh", "echo\n"), ("module/a.c", ""), ("module/build/b.c", ""),
                           ("selftests/x.h", ""), ("docs/y.c", ""), ("bench/sched-tune-bench", ""),
                           ("selftests/strunner/__pycache__/z.py", ""),
                           ("selftests/strunner/z.py", "")):
            write(self.root, path, text)
        self.assertEqual(lint.shell_files(self.root), ["a.sh", "bin/dash", "bin/tool"])
        self.assertEqual(lint.c_files(self.root), ["module/a.c", "selftests/x.h"])
        self.assertEqual(lint.py_files(self.root), ["bench/sched-tune-bench",
                                                    "selftests/strunner/z.py"])

    def test_each(self):
        write(self.root, "good.sh", "ok\n")
        write(self.root, "bad.sh", "bad\n")
        cmd = ["sh", "-c", 'if grep -q bad "$1"; then echo "$1:1: bad"; exit 1; fi', "sh"]
        self.assertEqual(list(lint.each(self.root, "/c", "t", "pkg", ["bad.sh", "good.sh"], cmd)),
                         [("R", "fail", "t bad.sh"), ("C", "  bad.sh:1: bad"),
                          ("R", "pass", "t good.sh")])
        asked = []
        recs = list(lint.each(self.root, "/c", "t", "pkg", ["good.sh"], ["st-no-such-tool"],
                              lambda cache, pkgs: asked.append((cache, pkgs))))
        self.assertEqual(recs, [("R", "fail", "t good.sh (st-no-such-tool not installed: "
                                 "apt install pkg)")])
        self.assertEqual(asked, [("/c", ["pkg"])] if os.geteuid() == 0 else [])

    def test_checkpatch(self):
        script = write(self.root, "cp/checkpatch.pl", CHECKPATCH)
        write(self.root, "module/a.c", 'x\n\treturn "long";\n')
        write(self.root, "selftests/b.c", "x\n")
        self.assertEqual(list(lint.checkpatch(self.root, script, "module/a.c")),
                         [("R", "pass", "checkpatch --strict module/a.c")])
        write(self.root, "cp/FINDINGS", "2: CHECK:LONG_LINE: too long\n")
        self.assertEqual(list(lint.checkpatch(self.root, script, "module/a.c")),
                         [("R", "pass", "checkpatch --strict module/a.c "
                           "(kept: 1 on lines that show why)")])
        self.assertEqual(list(lint.checkpatch(self.root, script, "selftests/b.c")),
                         [("R", "fail", "checkpatch --strict selftests/b.c"),
                          ("C", "  selftests/b.c:2: CHECK:LONG_LINE: too long")])
        write(self.root, "cp/FINDINGS", "1: WARNING:VOLATILE: do not use volatile\n")
        recs = list(lint.checkpatch(self.root, script, "module/a.c"))
        self.assertEqual(recs[0], ("R", "fail", "checkpatch --strict module/a.c"))
        os.environ["ST_ECHO"] = "1"
        self.addCleanup(os.environ.pop, "ST_ECHO")
        out = [r[1] for r in lint.checkpatch(self.root, script, "selftests/helpers/st_slicehog.c")]
        self.assertIn("  ARGS --strict --no-tree -f --terse --show-types --no-summary --ignore "
                      "PREFER_KERNEL_TYPES,VOLATILE selftests/helpers/st_slicehog.c", out)

    def test_checkpatch_dir(self):
        """CACHE's copy where it is there or CACHE can be written, else
        the user's own."""
        cache = os.path.join(self.root, "cache")
        self.assertEqual(lint.checkpatch_dir(cache, "/u"), os.path.join(cache, "checkpatch-6.12"))
        write(cache, "checkpatch-6.12/checkpatch.pl", "x")
        ro = os.path.join(self.root, "ro")
        os.makedirs(ro)
        os.chmod(ro, 0o555)
        self.addCleanup(os.chmod, ro, 0o755)
        if os.access(ro, os.W_OK):
            self.skipTest("root writes anywhere")
        self.assertEqual(lint.checkpatch_dir(os.path.join(ro, "c"), "/u"), "/u/checkpatch-6.12")

    def test_statics(self):
        """check, then the ABI file's and the kerneldoc's records."""
        calls = []
        with mock.patch.object(lint, "check", lambda *a: iter([("R", "pass", "c")])), \
                mock.patch("strunner.abi.check", lambda src: iter([("R", "pass", "abi " + src)])), \
                mock.patch("strunner.kdoc.tree",
                           lambda src, cp, cache: calls.append(cp) or iter([("R", "pass", "kdoc")])):
            recs = list(lint.statics("/t", os.path.join(self.root, "cache"), "/u"))
        self.assertEqual([r[2] for r in recs], ["c", "abi /t", "kdoc"])
        self.assertEqual(calls, [os.path.join(self.root, "cache", "checkpatch-6.12")])

    def test_fetch(self):
        d = os.path.join(self.root, "cache", "thing-1.0")
        calls = []

        def get(pkg, into):
            calls.append(pkg)
            if len(calls) == 1:
                return ""
            return write(into, pkg + "_1.0_all.deb", "")

        def unpack(deb, x):
            for n in ("a", "b/c"):
                os.makedirs(os.path.dirname(os.path.join(x, n)), exist_ok=True)
                with open(os.path.join(x, n), "w") as f:
                    f.write(deb)
        refreshed = []
        lint.fetch(d, "thing", ["a", "b/c"], unpack, lambda: refreshed.append(1), get)
        self.assertEqual((calls, refreshed), (["thing", "thing"], [1]))
        with open(os.path.join(d, "FROM")) as f:
            self.assertEqual(f.read(), "thing_1.0_all.deb\n")
        # there: nothing downloaded again; nothing left beside it
        lint.fetch(d, "thing", ["a", "b/c"], unpack, None, get)
        self.assertEqual(len(calls), 2)
        self.assertEqual(sorted(os.listdir(os.path.dirname(d))), ["thing-1.0", "thing.lock"])

    def test_fetch_failures(self):
        d = os.path.join(self.root, "cache", "thing-1.0")
        with self.assertRaises(Error) as cm:
            lint.fetch(d, "thing", ["a"], None, None, lambda pkg, into: "")
        self.assertEqual(str(cm.exception), "apt-get download thing failed")
        with self.assertRaises(Error) as cm:
            lint.fetch(d, "thing", ["a"], lambda deb, x: None, None,
                       lambda pkg, into: write(into, "thing_1_all.deb", ""))
        self.assertEqual(str(cm.exception), "thing_1_all.deb has no a")
        self.assertEqual(os.listdir(os.path.dirname(d)), ["thing.lock"])

    def test_kernel_builds_without_chroots(self):
        # a user who is not root, no chroot: skips that say why; a
        # name that is no kernel's fails; root that cannot resolve fails
        cache = os.path.join(self.root, "cache")

        def resolve(name):
            raise Error("no lists")
        recs = list(lint.kernel_builds(self.root, cache, cache, ["stable", "sid"], False, resolve))
        why = "no bookworm chroot at %s/chroot/bookworm: make check makes it, as root" % cache
        self.assertEqual(recs[:2], [("R", "skip", "W=1 build against the kernel of 'stable'", why),
                                    ("R", "skip", "sparse (C=2) against the kernel of 'stable'", why)])
        self.assertEqual([r[:2] for r in recs[2:]], [("R", "fail")] * 2)
        self.assertIn("'sid' (unknown kernel name (known: stable backports", recs[2][2])
        recs = list(lint.kernel_builds(self.root, cache, cache, ["trixie"], True, resolve))
        self.assertEqual(recs, [("R", "fail", "%s against the kernel of 'trixie' (cannot tell the "
                                 "kernel of 'trixie' from the trixie chroot's package lists "
                                 "(no lists))" % t)
                                for t in ("W=1 build", "sparse (C=2)")])

    def test_objgraph_control(self):
        self.assertEqual(list(lint.objgraph_control()),
                         [("R", "pass", "strunner.objgraph finds the loop of two objects "
                           "that call each other")])


if __name__ == "__main__":
    unittest.main()
