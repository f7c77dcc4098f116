# SPDX-License-Identifier: GPL-2.0
"""strunner.bench: the results a guest sends back, the stdlib the guest
carries, and the smoke run's verdict, with a stand-in for
sched-tune-bench whose check passes or fails."""

import base64
import io
import os
import shutil
import tarfile
import tempfile
import unittest

from strunner import Error, bench
from util import write

# a stand-in for bench/sched-tune-bench: "report" exits REPORT_RC,
# "check" prints two lines and exits CHECK_RC (the environment's)
FAKE = """#!/usr/bin/python3
import os, sys
if sys.argv[1] == "report":
    print("report: drawn")
    sys.exit(int(os.environ.get("REPORT_RC", "0")))
print("ok 1 - shape")
print("not ok 2 - knobs restored")
sys.exit(int(os.environ.get("CHECK_RC", "0")))
"""


def results_block(files):
    """The marker block a guest prints for FILES (name: text), with a
    serial port's carriage returns."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as t:
        for name, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo("./" + name)
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    b64 = base64.encodebytes(buf.getvalue()).decode().splitlines()
    return "".join(x + "\r\n" for x in [bench.BEGIN] + b64 + [bench.END])


class Bench(unittest.TestCase):
    def setUp(self):
        self.d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.d)
        self.addCleanup(os.environ.pop, "CHECK_RC", None)
        self.addCleanup(os.environ.pop, "REPORT_RC", None)

    def write(self, path, text):
        return write(self.d, path, text)

    def smoke_out(self, tap):
        """A smoke run's OUT whose guest printed TAP, and a bench dir
        with the stand-in program."""
        self.write("out/guest/tap.log", tap)
        os.chmod(self.write("bench/sched-tune-bench", FAKE), 0o755)
        return os.path.join(self.d, "bench"), os.path.join(self.d, "out")

    def test_extract(self):
        tap = self.write("tap.log", "ok 1 - x\r\n" + results_block(
            {"results.json": "{}\n", "sub/report.md": "# r\n"}) + "1..1\r\n")
        bench.extract(tap, os.path.join(self.d, "r"))
        with open(os.path.join(self.d, "r", "sub", "report.md")) as f:
            self.assertEqual(f.read(), "# r\n")
        self.assertTrue(os.path.isfile(os.path.join(self.d, "r", "results.json")))

    def test_extract_fails(self):
        for name, text in (("none", "ok 1 - x\n"),
                           ("no end", bench.BEGIN + "\nAAAA\n"),
                           ("not base64", "%s\n@@@\n%s\n" % (bench.BEGIN, bench.END)),
                           ("not a tar", "%s\n%s\n%s\n" % (
                               bench.BEGIN, base64.b64encode(b"plain").decode(), bench.END))):
            with self.subTest(name):
                with self.assertRaises(Error):
                    bench.extract(self.write(name, text), os.path.join(self.d, "r"))

    def test_stdlib_ignore(self):
        ignore = bench.stdlib_ignore("/usr/lib/python3.11")
        top = ignore("/usr/lib/python3.11/", ["json", "test", "config-3.11", "os.py",
                                              "unittest", "a.opt-1.pyc", "lib-dynload"])
        self.assertEqual(top, {"test", "config-3.11", "unittest", "a.opt-1.pyc",
                               "lib-dynload"})
        self.assertEqual(ignore("/usr/lib/python3.11/json", ["test", "x.opt-2.pyc", "x.pyc"]),
                         {"x.opt-2.pyc"})

    def test_smoke_passes(self):
        b, out = self.smoke_out(results_block({"results.json": "{}\n"}))
        recs = list(bench.smoke(b, out))
        self.assertIn(("R", "pass", "sched-tune-bench check on the smoke run's results "
                       "exits 0", ""), recs)
        self.assertIn(("L", "sched-tune-bench check: 1 ok lines"), recs)
        self.assertEqual([r for r in recs if r[0] == "R" and r[1] != "pass"], [])

    def test_smoke_check_fails(self):
        b, out = self.smoke_out(results_block({"results.json": "{}\n"}))
        os.environ["CHECK_RC"] = "3"
        os.environ["REPORT_RC"] = "1"
        recs = list(bench.smoke(b, out))
        self.assertIn(("R", "fail", "sched-tune-bench check on the smoke run's results "
                       "exits 0 (exit 3)", ""), recs)
        self.assertIn(("#   not ok 2 - knobs restored",), recs)
        self.assertIn(("#   report: report: drawn",), recs)

    def test_smoke_no_results(self):
        whole = results_block({"results.json": "{}\n", "big": "x" * 100000}).splitlines()
        # a block whose archive stops short, results.json first in it
        cut = "\n".join(whole[:len(whole) // 2] + whole[-1:]) + "\n"
        for name, tap in (("no block", "ok 1 - x\n"),
                          ("no results.json", results_block({"other": "x\n"})),
                          ("cut short", cut)):
            with self.subTest(name):
                b, out = self.smoke_out(tap)
                recs = [r for r in bench.smoke(b, out) if r[0] == "R"]
                self.assertEqual(recs, [("R", "fail", "the smoke run's results came back "
                                         "from the guest", "")])


if __name__ == "__main__":
    unittest.main()
