# SPDX-License-Identifier: GPL-2.0
"""strunner.pkg: what a root holds before and after a purge, what a
purge or dkms remove must not leave, the module DKMS installed, the
statuses make check's kernel jobs wait for, and lintian's verdict (a
stand-in lintian that prints tags)."""

import os
import shutil
import tempfile
import unittest
from unittest import mock

from strunner import Error, pkg
from util import write


class Pkg(unittest.TestCase):
    def setUp(self):
        self.d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.d)

    def root(self, *paths):
        for p in paths:
            write(self.d, "root/" + p, "")
        return os.path.join(self.d, "root")

    def test_snapshot(self):
        root = self.root("usr/bin/x", "var/lib/dpkg/status", "var/log/apt/history.log",
                         "tmp/y", "var/lib/dkms/mok.pub")
        os.symlink("/usr/bin", os.path.join(root, "bin"))
        self.assertEqual(pkg.snapshot(root), {
            ".", "./usr", "./usr/bin", "./usr/bin/x", "./var", "./var/lib",
            "./var/lib/dkms", "./var/lib/dkms/mok.pub", "./bin"})

    def test_new_since(self):
        # an overlay's directories: what was written through ROOT is in
        # upper; lower changed beside it (another job's install)
        write(self.d, "upper/usr/bin/x", "")
        write(self.d, "upper/usr/bin/new", "")
        root = os.path.join(self.d, "root")
        os.makedirs(root)
        before = {".", "./usr", "./usr/bin", "./usr/bin/x"}
        self.assertEqual(pkg.new_since(root, before), {"./usr/bin/new"})

    def test_umount_below(self):
        """What is mounted below the directory, deepest first; not the
        directory itself, nor a sibling whose name starts the same."""
        mounts = ["st-pkg /b/pkg/trixie/root overlay rw 0 0",
                  "proc /b/pkg/trixie/root/proc proc rw 0 0",
                  "st-pkg /b/pkg overlay rw 0 0", "x /b/pkgs/y tmpfs rw 0 0"]
        run = mock.Mock()
        with mock.patch.object(pkg, "read_lines", lambda _: mounts), \
                mock.patch.object(pkg.subprocess, "run", run):
            pkg.umount_below("/b/pkg/")
        self.assertEqual([c.args[0] for c in run.call_args_list],
                         [["umount", "-l", "/b/pkg/trixie/root/proc"],
                          ["umount", "-l", "/b/pkg/trixie/root"]])

    def test_stage(self):
        """The host's tools, then the .debs and each release's installs
        in their groups; one that raises fails by name, the next runs."""
        installed = []

        def install(suite, build, src, cache):
            if suite == "bookworm":
                raise Error("overlay on the Debian 12 chroot")
            yield "R", "pass", suite + " " + cache
        build = os.path.join(self.d, "pkg")
        write(build, "ko/k/status", "verified")
        with mock.patch.object(pkg.host, "install", lambda c, p: installed.append(p)), \
                mock.patch.object(pkg, "debs", lambda b, s: iter([("R", "pass", "debs " + s)])), \
                mock.patch.object(pkg, "install", install):
            recs = list(pkg.stage(build, "/src", "/cache", {}))
        self.assertEqual(installed, [pkg.HOST_TOOLS])
        self.assertFalse(os.path.exists(os.path.join(build, "ko")))
        self.assertEqual([r[:3] for r in recs if r[0] in "GR"], [
            ("G", "pkg"), ("R", "pass", "debs /src"), ("G", "pkg Debian 12"),
            ("R", "fail", "pkg Debian 12 ran to its end (overlay on the Debian 12 chroot)"),
            ("G", "pkg Debian 13"), ("R", "pass", "trixie /cache")])

    def test_stage_off(self):
        with mock.patch.object(pkg.host, "install") as install:
            recs = list(pkg.stage(os.path.join(self.d, "pkg"), "/src", "/cache", {"ST_PKG": "0"}))
        self.assertEqual(recs, [("R", "skip", "Debian package", "ST_PKG=0")])
        install.assert_not_called()

    def test_purge_allowed(self):
        for p, allowed in (("./var/lib/dkms/mok.key", True), ("./var/lib/dkms/mok.pub", True),
                           ("./lib/modules/6.1.0-57-amd64/modules.dep.bin", True),
                           ("./usr/lib/modules/7.3.4+deb13-amd64/modules.alias", True),
                           ("./var/lib/dkms/sched-tune", False),
                           ("./lib/modules/6.1.0-57-amd64/updates/sched_tune.ko", False)):
            with self.subTest(p):
                self.assertEqual(bool(pkg.PURGE_ALLOWED.search(p)), allowed)

    def test_leftovers(self):
        root = self.root("usr/bin/x", "lib/modules/k/modules.dep")
        self.assertEqual(pkg.leftovers(root), [])
        write(root, "lib/modules/k/modules.dep", "updates/dkms/sched_tune.ko.xz:\n")
        root = self.root("usr/src/sched-tune-0.1.0/dkms.conf", "var/lib/dkms/sched-tune/x",
                         "var/cache/sched-tune-bench/x",
                         "lib/modules/k/updates/dkms/sched_tune.ko.xz")
        self.assertEqual(pkg.leftovers(root), [
            "usr/src/sched-tune-0.1.0", "var/lib/dkms/sched-tune",
            "var/cache/sched-tune-bench", "lib/modules/k/updates/dkms/sched_tune.ko.xz",
            "lib/modules/k/modules.dep"])
        self.assertNotIn("var/cache/sched-tune-bench", pkg.leftovers(root, bench=False))

    def test_installed_module(self):
        root = self.root("lib/modules/k/updates/dkms/sched_tune.ko.xz", "lib/modules/j/x.ko")
        self.assertEqual(pkg.installed_module(root, "k"),
                         "lib/modules/k/updates/dkms/sched_tune.ko.xz")
        self.assertEqual(pkg.installed_module(root, "j"), "")
        self.assertEqual(pkg.installed_module(root, "none"), "")

    def test_ko_status(self):
        pkg.ko_status(self.d, "a", "verified")
        pkg.ko_close(self.d, ["a", "b"])
        with open(os.path.join(self.d, "ko", "a", "status")) as f:
            self.assertEqual(f.read(), "verified\n")
        with open(os.path.join(self.d, "ko", "b", "status")) as f:
            self.assertEqual(f.read(), "the package stage installed no module for it "
                             "(pkg results)\n")
        self.assertFalse(os.path.exists(os.path.join(self.d, "ko", "a", "status.new")))

    def keep(self, good):
        """ko_keep's records and what it returned, its signature check
        GOOD."""
        ko = "lib/modules/k/updates/dkms/sched_tune.ko.xz"
        root = self.root(ko, "var/lib/dkms/mok.pub")
        gen = pkg.ko_keep(self.d, root, "k", ko)
        recs = []
        with mock.patch.object(pkg.modsig, "verify", return_value=(good, ["#   bad"])), \
                mock.patch.object(pkg.modsig, "modinfo", return_value="x"):
            while True:
                try:
                    recs.append(next(gen))
                except StopIteration as e:
                    return recs, e.value

    def test_ko_keep(self):
        """What ko_keep keeps is what it returns, and the sha256 the
        initramfs hook reads names it; a module that does not verify is
        neither returned nor verified."""
        recs, kept = self.keep(True)
        d = os.path.join(self.d, "ko", "k")
        self.assertEqual(kept, (os.path.join(d, "lib/updates/dkms/sched_tune.ko.xz"),
                                os.path.join(d, "mok.pub")))
        self.assertTrue(os.path.isfile(kept[0]))
        with open(os.path.join(d, "sha256")) as f:
            self.assertTrue(f.read().endswith("  updates/dkms/sched_tune.ko.xz\n"))
        with open(os.path.join(d, "status")) as f:
            self.assertEqual(f.read(), "verified\n")
        self.assertIn("pass", [r[1] for r in recs if r[0] == "R"])
        recs, kept = self.keep(False)
        self.assertIsNone(kept)
        self.assertIn("fail", [r[1] for r in recs if r[0] == "R"])
        self.assertIn(("#   bad",), recs)
        with open(os.path.join(d, "status")) as f:
            self.assertIn("did not verify", f.read())

    def test_chroot_fails(self):
        """A chroot that cannot be made ready fails by name, and each of its
        kernels gets a status: its kernel job waits no longer."""
        src = write(self.d, "src/debian/changelog", "sched-tune (0.1.0) unstable; urgency=low\n")
        src = os.path.dirname(os.path.dirname(src))
        for p in ("dkms", "bench"):
            write(self.d, "b/deb/sched-tune-%s_0.1.0_all.deb" % p, "")
        build = os.path.join(self.d, "b")
        with mock.patch.object(pkg.chroot, "make"), \
                mock.patch.object(pkg, "chroot_kernels", return_value=(["k1", "k2"], ["k3"])), \
                mock.patch.object(pkg, "prepare_chroot", side_effect=Error("apt-get failed")):
            recs = list(pkg.install("bookworm", build, src, self.d))
        self.assertIn(("R", "fail", "Debian 12 chroot with dkms and the headers of k1, k2 "
                       "(amd64, cloud-amd64) and an unsupported kernel", ""), recs)
        for k in ("k1", "k2"):
            with open(os.path.join(build, "ko", k, "status")) as f:
                self.assertIn("installed no module", f.read())

    def test_no_debs(self):
        src = write(self.d, "src/debian/changelog", "sched-tune (0.1.0) unstable; urgency=low\n")
        recs = list(pkg.install("trixie", self.d, os.path.dirname(os.path.dirname(src)), self.d))
        self.assertEqual([r[0] for r in recs], ["L"])

    def test_lintian(self):
        for out, rc, verdict in (("I: p: some-info [x]\n", 0, "pass"),
                                 ("W: p: a-warning\n", 0, "fail"),
                                 ("", 2, "fail")):
            with self.subTest(out=out, rc=rc):
                cmd = ["sh", "-c", "printf '%s'; echo 'running with root privileges' >&2; "
                       "exit %d" % (out, rc)]
                recs = list(pkg.lintian(cmd, "/x/p_1_all.deb", "2.116"))
                self.assertEqual([r for r in recs if r[0] == "R"],
                                 [("R", verdict, "lintian 2.116 on p_1_all.deb: no error, "
                                   "no warning", "")])
                self.assertEqual([r[0] for r in recs if r[0].startswith("#")],
                                 ["#   lintian: " + x for x in out.splitlines()])

    def test_install_refuses(self):
        with self.assertRaises(Error):
            list(pkg.install("sid", self.d, self.d, self.d))


if __name__ == "__main__":
    unittest.main()
