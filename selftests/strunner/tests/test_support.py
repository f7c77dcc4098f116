# SPDX-License-Identifier: GPL-2.0
"""strunner.support on made-up guest logs, matrices and pages: what a
guest reports must match selftests/support-matrix, a kernel without a
row fails, a row must agree with gate_checked.h, and docs/kernels.md's
support matrix must agree with the file.  The guest's line comes from
the guest's own feat_probe (selftests/guest/lib.sh)."""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

from strunner import Error, support
from util import write

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
MATRIX = os.path.join(ROOT, "selftests", "support-matrix")
GATE = os.path.join(ROOT, "module", "kernel", "gate_checked.h")
DOC = os.path.join(ROOT, "docs", "kernels.md")
M612, M61 = "6.12.95+deb12-amd64", "6.1.0-57-amd64"

# a guest's log around the line its feat_probe prints with the states
# S_<feature>; "fail" for ratelimit: the probe's load failed
GUEST = r'''. "$1"
st_load() { [ "$S_ratelimit" != fail ]; }
st_unload() { :; }
feature_state() { eval "echo \"\$S_$1\""; }
echo "KTAP version 1"
echo "# kernel 6.x: Linux version 6.x (Debian 6.x-1)"
feat_probe
echo "1..1"
echo "# RUNNING load/unload"
echo "    ok 1 - insmod sched_tune.ko"
echo "ok 1 - load/unload"
'''


def counts(recs):
    res = [r[1] for r in recs if r[0] == "R"]
    return res.count("pass"), res.count("fail")


class Support(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.d = tempfile.mkdtemp()
        os.makedirs(os.path.join(cls.d, "st"))
        with open(os.path.join(cls.d, "st", "st_pace"), "w") as f:
            f.write("100\n")
        cls.logs = {}
        for name, states in (("one-node", "active active idle"), ("two-node", "active active active"),
                             ("numa-gone", "active active unsupported"),
                             ("61", "active active unsupported"), ("61-idle", "active active idle"),
                             ("probe-failed", "fail fail fail fail"),
                             ("ev-active", "active active idle active"),
                             ("ev-gone", "active active idle unsupported"),
                             ("119", "unsupported unsupported unsupported unsupported")):
            s = (states.split() + ["inactive"])[:4]
            env = dict(os.environ, ST_TMP=os.path.join(cls.d, "st"),
                       **{"S_" + f: v for f, v in zip(support.FEATURES, s)})
            out = subprocess.run(["sh", "-c", GUEST, "sh", os.path.join(ROOT, "selftests", "guest",
                                                                       "lib.sh")],
                                 env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                 text=True, check=False).stdout
            cls.logs[name] = write(cls.d, name, out)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.d)

    def check(self, want, recs):
        recs = list(recs)
        self.assertEqual(counts(recs), want, "\n".join(map(str, recs)))

    def test_guest_line(self):
        with open(self.logs["one-node"]) as f:
            self.assertIn("# features on this kernel: ratelimit active, cache_level active, "
                          "numa_scan idle, eevdf inactive\n", f.read())

    def test_state(self):
        # the guest's own line, as lib.sh st_guest_feature reads it
        self.assertEqual(support.state(self.logs["one-node"], "numa_scan"), "idle")
        self.assertEqual(support.state(self.logs["119"], "eevdf"), "unsupported")
        self.assertEqual(support.state(self.logs["one-node"], "prev_bias"), "")
        self.assertEqual(support.state(os.path.join(self.d, "none"), "eevdf"), "")
        log = write(self.d, "unchecked", "\r# features on this kernel: ratelimit active "
                    "(unchecked), cache_level idle\r\n")
        self.assertEqual(support.state(log, "ratelimit"), "active")
        self.assertEqual(support.state(log, "cache_level"), "idle")
        # the command, as run.sh writes the "# matrix:" line: "-" for none
        for f, want in (("ratelimit", "active\n"), ("eevdf", "-\n")):
            p = subprocess.run([sys.executable, "-m", "strunner.support", "state", log, f],
                               env=dict(os.environ, PYTHONPATH=":".join(sys.path)),
                               stdout=subprocess.PIPE, text=True, check=True)
            self.assertEqual(p.stdout, want)

    def test_table(self):
        b = os.path.join(self.d, "build")
        write(b, "k1.results", "# [k1] x\n# matrix: k1 active idle idle active\n")
        write(b, "k2.results", "# matrix: k2 built-only built-only built-only built-only\n")
        write(b, "k3.results", "# matrix: k3 active - idle\n")
        self.assertEqual(list(support.table(b, ["k1", "k3", "k2", "gone"], "2026-12-07")), [
            "#", "# support matrix, 2026-12-07, from the guests of this run:",
            "# | kernel | ratelimit | cache_level | numa_scan | eevdf |", "# |---|---|---|---|---|",
            "# | k1 | active | idle | idle | active |",
            "# | k3 | active | not booted | idle | not booted |",
            "# | k2 | built-only | built-only | built-only | built-only |"])

    def test_assert(self):
        crlf = write(self.d, "crlf", open(self.logs["one-node"]).read().replace("\n", "\r\n"))
        unchecked = write(self.d, "unchecked", open(self.logs["one-node"]).read().replace(
            "ratelimit active,", "ratelimit active (unchecked),"))
        for what, want, kver, boot, log in (
                ("6.12 main boot, one node", (4, 0), M612, "main", "one-node"),
                ("6.12 ops boot, one node", (4, 0), M612, "ops", "one-node"),
                ("6.12 two-node boot", (4, 0), M612, "numa", "two-node"),
                ("6.12 two-node boot: numa_scan gone", (3, 1), M612, "numa", "numa-gone"),
                ("6.12 main boot: numa_scan gone", (3, 1), M612, "main", "numa-gone"),
                ("6.12 main boot: numa_scan active on one node", (3, 1), M612, "main", "two-node"),
                ("6.12 two-node boot: numa_scan idle", (3, 1), M612, "numa", "one-node"),
                ("6.1 main boot: numa_scan unsupported", (4, 0), M61, "main", "61"),
                ("6.1 main boot: numa_scan idle", (3, 1), M61, "main", "61-idle"),
                ("a cloud kernel takes its twin's row", (4, 0), "6.12.95+deb12-cloud-amd64", "short",
                 "one-node"),
                ("6.1 cloud, short boot", (4, 0), "6.1.0-57-cloud-amd64", "short", "61"),
                ("an unknown sublevel", (0, 4), "6.12.119+deb12-amd64", "main", "one-node"),
                ("an unknown sublevel's cloud kernel", (0, 4), "6.12.119+deb12-cloud-amd64", "short",
                 "one-node"),
                ("another flavour (rt) has no row", (0, 4), "6.12.95+deb12-rt-amd64", "main",
                 "one-node"),
                ("no features line", (0, 4), M612, "main", "/dev/null"),
                ("the probe's load failed", (0, 4), M612, "main", "probe-failed"),
                ("'active (unchecked)' at a load with defaults", (3, 1), M612, "main", unchecked),
                ("serial CRLF line ends", (4, 0), M612, "main", crlf),
                ("6.12: eevdf active at a load with defaults", (3, 1), M612, "main", "ev-active"),
                ("6.12: eevdf went unsupported", (3, 1), M612, "main", "ev-gone")):
            with self.subTest(what=what):
                self.check(want, support.assert_row(MATRIX, GATE, kver, boot,
                                                    self.logs.get(log, log)))
        self.check((1, 0), support.row_check(MATRIX, GATE, "6.12.117+deb12-amd64"))
        self.check((0, 1), support.row_check(MATRIX, GATE, "6.12.117+deb12-cloud-rt-amd64"))

    def test_expect(self):
        for want, kver, f, boot in (("active", M612, "numa_scan", "numa"),
                                    ("idle", M612, "numa_scan", "short"),
                                    ("unsupported", M61, "numa_scan", "numa"),
                                    ("inactive", M61, "eevdf", "main"),
                                    ("inactive", "7.3.4+deb13-amd64", "eevdf", "short")):
            self.assertEqual(support.expect(MATRIX, GATE, kver, f, boot), want)
        for kver, f, boot in (("6.12.119+deb13-amd64", "ratelimit", "main"),
                              (M612, "ratelimit", "numa2"), (M612, "passthrough", "main")):
            with self.subTest(args=(kver, f, boot)), self.assertRaises(Error):
                support.expect(MATRIX, GATE, kver, f, boot)

    def matrix(self, text):
        return write(self.d, "matrix", text)

    def test_data(self):
        real = open(MATRIX).read()
        rows = len(support.kernels(MATRIX))
        self.assertGreater(rows, 0)
        self.check((rows, 0), support.data_check(MATRIX, GATE))
        for what, pattern, repl in (
                ("numa_scan active on 6.1 (no range)", r"^(%s .*)unsupported" % re.escape(M61),
                 r"\1active      "),
                ("ratelimit unsupported on 6.1.192", r"^(%s *)active" % re.escape(M61),
                 r"\1unsupported"),
                ("a version that is not the kernel's", r"^(%s .*) 6\.12\.95$" % re.escape(M612),
                 r"\1 6.12.96"),
                ("6.1's row with another series' version", r"^(%s .*) 6\.1\.192$" % re.escape(M61),
                 r"\1 6.12.192"),
                ("a state that is no state", r"^(%s *)active" % re.escape(M612), r"\1yes"),
                ("a seventh column", r"^(%s .*)$" % re.escape(M612), r"\1 extra"),
                ("a row without its eevdf state", r"^(%s .*)inactive " % re.escape(M612), r"\1"),
                ("eevdf unsupported on 6.1.192", r"^(%s .*)inactive  " % re.escape(M61),
                 r"\1unsupported")):
            with self.subTest(what=what):
                text = re.sub(pattern, repl, real, count=1, flags=re.M)
                self.assertNotEqual(text, real)
                self.check((rows - 1, 1), support.data_check(self.matrix(text), GATE))
        two = self.matrix(re.sub(r"^6\.12\.118\+deb13-amd64 ", M612 + " ", real, flags=re.M))
        self.check((rows - 2, 2), support.data_check(two, GATE))
        past = self.matrix(real + "6.12.119+deb12-amd64 active active active inactive 6.12.119\n")
        self.check((rows, 1), support.data_check(past, GATE))
        gone = self.matrix(real + "6.12.119+deb12-amd64 unsupported unsupported unsupported "
                           "unsupported 6.12.119\n")
        self.check((rows + 1, 0), support.data_check(gone, GATE))
        self.check((4, 0), support.assert_row(gone, GATE, "6.12.119+deb12-amd64", "main",
                                              self.logs["119"]))
        order = self.matrix(re.sub(r"^kernel .*", "kernel ratelimit numa_scan cache_level eevdf "
                                   "version", real, flags=re.M))
        self.check((0, rows), support.data_check(order, GATE))
        gate = write(self.d, "gate.h", re.sub(r", *118\)$", ", 117)", open(GATE).read(), flags=re.M))
        n118 = sum(1 for line in real.splitlines() if line.split()[-1:] == ["6.12.118"])
        self.check((rows - n118, n118), support.data_check(MATRIX, gate))
        self.check((0, rows), support.data_check(MATRIX, write(self.d, "empty.h", "")))
        self.check((0, 1), support.data_check(os.path.join(self.d, "none"), GATE))

    def test_doc(self):
        real = open(DOC).read()
        total = counts(support.doc_check(MATRIX, GATE, DOC, "docs/kernels.md"))
        self.assertEqual(total[1], 0)
        self.assertGreaterEqual(total[0], 2)
        total = total[0]

        def row_sub(start, old, new, text=real):
            return "\n".join(x.replace(old, new, 1) if x.startswith(start) else x
                             for x in text.split("\n"))
        for what, text, want in (
                ("6.1's numa_scan said active", row_sub("| %s," % M61, "| unsupported (", "| active ("),
                 (total - 1, 1)),
                ("6.12's numa_scan said idle", row_sub("| %s," % M612, "| active | active | active |",
                                                       "| active | active | idle |"), (total - 1, 1)),
                ("6.12's numa_scan said unsupported",
                 row_sub("| %s," % M612, "| active | active | active |",
                         "| active | active | unsupported |"), (total - 1, 1)),
                ("6.12's eevdf said active", row_sub("| %s," % M612, "| inactive (", "| active ("),
                 (total - 1, 1)),
                ("7.3's eevdf said unsupported", row_sub("| 7.3.4+deb13-amd64,", "| inactive (",
                                                         "| unsupported ("), (total - 1, 1)),
                ("a row naming a kernel without a row",
                 row_sub("| %s," % M612, "| %s," % M612, "| 6.12.119+deb12-amd64, %s," % M612),
                 (total - 1, 1)),
                ("a row with two state cells missing",
                 row_sub("| %s," % M612, "| active | active | active |", "| active |"),
                 (total - 1, 1)),
                ("a row naming no kernel", re.sub(r"^\| %s,[^|]*\|" % re.escape(M612), "| |", real,
                                                  flags=re.M), (total - 2, 2)),
                ("a kernel of the file left out", re.sub(r"^\| 7\.3\.4\+deb13-amd64.*\n", "", real,
                                                         flags=re.M), (total - 2, 1)),
                ("the table under another heading", real.replace("## Support matrix\n",
                                                                 "## Kernels\n"), (0, 1))):
            with self.subTest(what=what):
                self.assertNotEqual(text, real)
                doc = write(self.d, "kernels.md", text)
                self.check(want, support.doc_check(MATRIX, GATE, doc, "kernels.md"))
        section = real.split("## Support matrix\n", 1)
        rest = section[1].split("\n## ", 1)
        for what, table in (("no support matrix table",
                             "\n".join(x for x in rest[0].split("\n") if not x.startswith("|"))),
                            ("no numa_scan column", rest[0].replace("| numa_scan |", "| numa |")),
                            ("no eevdf column", re.sub(r"\| eevdf \|$", "| tick |", rest[0],
                                                       count=1, flags=re.M))):
            with self.subTest(what=what):
                text = section[0] + "## Support matrix\n" + table + "\n## " + rest[1]
                self.assertNotEqual(text, real)
                doc = write(self.d, "k.md", text)
                self.check((0, 1), support.doc_check(MATRIX, GATE, doc, "k.md"))


if __name__ == "__main__":
    unittest.main()
