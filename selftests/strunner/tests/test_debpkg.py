# SPDX-License-Identifier: GPL-2.0
"""strunner.debpkg: .debs made here with dpkg-deb, one as the package
must be and one with a fault for each check, and dkms.confs that admit
too much or too little."""

import os
import shutil
import subprocess
import tempfile
import unittest

from strunner import debpkg
from util import write

VER = "0.9.1"
GOOD_CONF = ('PACKAGE_NAME="sched-tune"\nPACKAGE_VERSION="%s"\n'
             'BUILD_EXCLUSIVE_KERNEL="^(6\\.1\\.0-[0-9]+|6\\.12\\.[0-9]+\\+(deb1[23]|bpo)|'
             '7\\.3\\.[0-9]+\\+deb13)-(cloud-)?amd64$"\nBUILD_EXCLUSIVE_ARCH="^x86_64$"\n' % VER)


class DebPkg(unittest.TestCase):
    def setUp(self):
        self.d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.d)
        self.src = os.path.join(self.d, "src")
        for f in ("module/main.c", "module/kernel/ksym.c", "module/kernel/ksym.h",
                  "bench/stbench/__init__.py", "bench/stbench/pipe.c"):
            self.write(os.path.join(self.src, f), "x\n")
        self.write(os.path.join(self.src, "dkms.conf"), GOOD_CONF)

    def write(self, path, text, mode=0o644):
        write("/", path, text, mode)

    def deb(self, name, files, control, scripts=None):
        """A .deb of FILES (path: text) with CONTROL's fields."""
        root = os.path.join(self.d, name)
        for path, text in files.items():
            self.write(os.path.join(root, path), text)
        for script, text in (scripts or {}).items():
            self.write(os.path.join(root, "DEBIAN", script), "#!/bin/sh\n" + text, 0o755)
        fields = {"Package": name, "Version": VER, "Maintainer": "t <t@example.org>",
                  "Description": "test"}
        fields.update(control)
        self.write(os.path.join(root, "DEBIAN", "control"),
                   "".join("%s: %s\n" % kv for kv in fields.items()))
        deb = root + ".deb"
        subprocess.run(["dpkg-deb", "--root-owner-group", "-b", root, deb],
                       stdout=subprocess.DEVNULL, check=True)
        return deb

    def dkms_deb(self, extra=None, conf=GOOD_CONF, **control):
        s = "usr/src/sched-tune-%s/" % VER
        doc = "usr/share/doc/sched-tune-dkms/"
        files = {s + f: "x\n" for f in ("Kbuild", "Makefile", "module/main.c",
                                        "module/kernel/ksym.c", "module/kernel/ksym.h")}
        files.update({s + "dkms.conf": conf, doc + "README.md.gz": "", doc + "copyright": "",
                      doc + "sysfs-kernel-sched_tune.gz": "",
                      doc + "examples/sched_tune.conf": ""})
        files.update(extra or {})
        fields = {"Architecture": "all", "Depends": "dkms"}
        fields.update(control)
        return self.deb("sched-tune-dkms", files, fields,
                        {"postinst": "dkms add sched-tune\n"})

    def results(self, recs):
        return [(r[1], r[2]) for r in recs if r[0] == "R"]

    def test_dkms_good(self):
        recs = self.results(debpkg.contents(self.dkms_deb(), self.src, VER,
                                            os.path.join(self.d, "conf")))
        self.assertEqual(len(recs), 10)
        self.assertEqual([r for r in recs if r[0] != "pass"], [])

    def test_dkms_faults(self):
        conf = GOOD_CONF.replace(VER, "0.9.0") + "CLEAN=\"make clean\"\n"
        deb = self.dkms_deb({"usr/src/sched-tune-%s/module/main.o" % VER: "",
                             "etc/modprobe.d/x.conf": "", "usr/bin/sched-tune-bench": ""},
                            conf=conf, Depends="dkms, python3", Architecture="amd64")
        os.remove(os.path.join(self.src, "module/kernel/ksym.h"))
        self.write(os.path.join(self.src, "module/extra.c"), "x\n")
        recs = self.results(debpkg.contents(deb, self.src, VER, os.path.join(self.d, "conf")))
        failed = [r[1] for r in recs if r[0] == "fail"]
        self.assertEqual(len(failed), 8, recs)
        self.assertIn("contents: every module/*.[ch] of the tree (missing: module/extra.c)",
                      failed)
        self.assertIn("contents: no build output, hidden file, selftests or debian/ in the "
                      "package (./usr/src/sched-tune-%s/module/main.o )" % VER, failed)
        self.assertIn("contents: nothing in /etc, /lib, /boot, /usr/lib (the package "
                      "configures and loads nothing) (./etc ./etc/modprobe.d "
                      "./etc/modprobe.d/x.conf )", failed)
        self.assertIn("sched-tune-dkms depends on dkms only (Depends: dkms, python3)", failed)
        self.assertTrue([x for x in failed if x.startswith("dkms.conf: no deprecated") and
                         'CLEAN )' in x], failed)

    def test_dkms_loads(self):
        root = self.dkms_deb()
        # a maintainer script that loads the module
        shutil.rmtree(os.path.join(self.d, "sched-tune-dkms"))
        os.remove(root)
        deb = self.deb("sched-tune-dkms", {"usr/src/sched-tune-%s/dkms.conf" % VER: GOOD_CONF},
                       {"Architecture": "all", "Depends": "dkms"},
                       {"postinst": "modprobe sched_tune\n", "prerm": "true\n"})
        failed = [r[1] for r in self.results(debpkg.contents(deb, self.src, VER,
                                                             os.path.join(self.d, "c")))
                  if r[0] == "fail"]
        self.assertIn("maintainer scripts never load the module (no modprobe/insmod) "
                      "(in postinst )", failed)

    def test_bench(self):
        dist = "usr/lib/python3/dist-packages/"
        info = dist + "sched_tune_bench-%s.dist-info/" % VER
        files = {"usr/bin/sched-tune-bench": "", info + "METADATA": "",
                 info + "entry_points.txt": "", dist + "stbench/__init__.py": "",
                 dist + "stbench/pipe.c": "",
                 "usr/share/doc/sched-tune-bench/README.bench.md.gz": "",
                 "usr/share/doc/sched-tune-bench/copyright": "",
                 "usr/share/man/man1/sched-tune-bench.1.gz": ""}
        scripts = {"postinst": "py3compile -p sched-tune-bench\n",
                   "prerm": "py3clean -p sched-tune-bench\n",
                   "postrm": "rm -rf /var/cache/sched-tune-bench\n"}
        rec = ", ".join(debpkg.BENCH_RECOMMENDS)
        deb = self.deb("sched-tune-bench", files, {"Architecture": "all",
                                                   "Depends": "python3:any",
                                                   "Recommends": rec}, scripts)
        recs = self.results(debpkg.contents_bench(deb, self.src, VER))
        self.assertEqual((len(recs), [r for r in recs if r[0] != "pass"]), (7, []))
        shutil.rmtree(os.path.join(self.d, "sched-tune-bench"))
        del files[dist + "stbench/pipe.c"]
        files[dist + "stbench/__pycache__/x.pyc"] = ""
        files["usr/lib/x"] = ""
        del scripts["prerm"]
        deb = self.deb("sched-tune-bench", files, {"Architecture": "all",
                                                   "Depends": "python3, gcc",
                                                   "Recommends": rec.replace("dbench, ", "")},
                       scripts)
        failed = [r[1] for r in self.results(debpkg.contents_bench(deb, self.src, VER))
                  if r[0] == "fail"]
        self.assertEqual(len(failed), 6, failed)
        self.assertTrue(failed[0].endswith("(missing: stbench/pipe.c)"), failed[0])
        self.assertIn("(missing: dbench)", failed[4])

    def test_kernels(self):
        conf = os.path.join(self.d, "dkms.conf")
        self.write(conf, GOOD_CONF)
        self.assertEqual([r[0] for r in self.results(debpkg.kernels(conf))], ["pass", "pass"])
        # the real dkms.conf admits what the table says
        self.write(conf, GOOD_CONF.replace("(cloud-)?", "").replace("^x86_64$", "86"))
        recs = self.results(debpkg.kernels(conf))
        self.assertEqual([r[0] for r in recs], ["fail", "fail"])
        self.assertIn(", wrong: 6.1.0-57-cloud-amd64(declined)", recs[0][1])
        self.write(conf, "exit 3\n")
        recs = self.results(debpkg.kernels(conf, [(True, "6.1.0-57-amd64")]))
        self.assertEqual(recs[0], ("fail", "dkms.conf admits Debian's 6.1, 6.12 and 7.3 amd64 "
                                   "and cloud-amd64 kernels only (1 releases), wrong: "
                                   "(bash read 0 of 1)"))


if __name__ == "__main__":
    unittest.main()
