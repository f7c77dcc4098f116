# SPDX-License-Identifier: GPL-2.0
"""strunner.apt and strunner.chroot: the machine's apt sources read, the
chroots' command line, sources, freshness and installs, without root,
a network or a chroot (apt-get and dpkg-query are given)."""

import contextlib
import io
import os
import shutil
import tempfile
import time
import types
import unittest

from strunner import apt, chroot

MIRROR = "http://mirror.invalid/debian"


class AptSources(unittest.TestCase):
    def setUp(self):
        self.etc = tempfile.mkdtemp()
        os.mkdir(os.path.join(self.etc, "sources.list.d"))

    def tearDown(self):
        shutil.rmtree(self.etc)

    def write(self, name, text):
        with open(os.path.join(self.etc, name), "w") as f:
            f.write(text)

    def test_deb822(self):
        self.write("sources.list.d/debian.sources",
                   "Types: deb\nURIs: %s\nSuites: bookworm bookworm-updates\nComponents: main\n"
                   "Signed-By:\n /usr/share/keyrings/x.gpg\n\n"
                   "Types: deb\nURIs: %s-security\nSuites: bookworm-security\n" % (MIRROR, MIRROR))
        self.assertEqual(apt.uri("bookworm-updates", self.etc), MIRROR)
        self.assertEqual(apt.uri("bookworm-security", self.etc), MIRROR + "-security")
        self.assertEqual(apt.uri("trixie", self.etc), "")

    def test_one_line(self):
        self.write("sources.list", "# deb http://old.invalid/ bookworm main\n"
                   "deb [arch=amd64 signed-by=/k.gpg] %s bookworm main\n"
                   "deb-src %s-src bookworm-security main\n"
                   "deb %s-security bookworm-security main\n" % (MIRROR, MIRROR, MIRROR))
        self.assertEqual(apt.uri("bookworm", self.etc), MIRROR)
        self.assertEqual(apt.uri("bookworm-security", self.etc), MIRROR + "-security")

    def test_deb822_first(self):
        self.write("sources.list", "deb http://list.invalid/ bookworm main\n")
        self.write("sources.list.d/a.sources", "Types: deb\nURIs: %s\nSuites: bookworm\n" % MIRROR)
        self.assertEqual(apt.uri("bookworm", self.etc), MIRROR)


class Chroot(unittest.TestCase):
    def test_root(self):
        self.assertEqual(chroot.argv("/c", "trixie", ["apt-cache", "show", "x"]),
                         ["unshare", "--mount-proc=/c/chroot/trixie/proc", "chroot", "/c/chroot/trixie",
                          "/usr/bin/env", "-i"] + chroot.ENV + ["apt-cache", "show", "x"])

    def test_tmp_and_user(self):
        for root, user in ((True, []), (False, ["--map-root-user"])):
            with self.subTest(root=root):
                cmd = chroot.argv("/c", "bookworm", ["make"], tmp="/t", root=root)
                self.assertEqual(cmd[:len(user) + 5],
                                 ["unshare"] + user + ["--mount", "--pid", "--fork",
                                                       "--mount-proc=/c/chroot/bookworm/proc"])
                self.assertEqual(cmd[-len(chroot.ENV) - 3:], ["/c/chroot/bookworm", "/t"] + chroot.ENV + ["make"])

    def test_environment_is_clean(self):
        # env -i, then only what ENV names: nothing of the caller's
        self.assertEqual(sorted(e.split("=")[0] for e in chroot.ENV),
                         ["DEBIAN_FRONTEND", "HOME", "LC_ALL", "PATH"])


class Chroots(unittest.TestCase):
    def setUp(self):
        self.cache = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.cache)

    def test_sources(self):
        text = chroot.sources("trixie", MIRROR, MIRROR + "-security")
        stanzas = text.split("\n\n")
        self.assertEqual(len(stanzas), 2)
        self.assertIn("URIs: %s\nSuites: trixie trixie-updates trixie-backports\n" % MIRROR, stanzas[0])
        self.assertIn("URIs: %s-security\nSuites: trixie-security\n" % MIRROR, stanzas[1])
        # what apt.uri reads back from it, as the machine's own
        etc = os.path.join(self.cache, "etc")
        os.makedirs(os.path.join(etc, "sources.list.d"))
        with open(os.path.join(etc, "sources.list.d", "debian.sources"), "w") as f:
            f.write(text)
        self.assertEqual(apt.uri("trixie-backports", etc), MIRROR)
        self.assertEqual(apt.uri("trixie-security", etc), MIRROR + "-security")

    def test_lists_fresh(self):
        d = chroot.chroot_dir(self.cache, "bookworm")
        self.assertFalse(chroot.lists_fresh(d))
        lists = os.path.join(d, "var", "lib", "apt", "lists")
        os.makedirs(lists)
        path = os.path.join(lists, "mirror_dists_bookworm_main_binary-amd64_Packages")
        open(os.path.join(lists, "lock"), "w").close()
        self.assertFalse(chroot.lists_fresh(d))
        open(path, "w").close()
        now = time.time()
        self.assertTrue(chroot.lists_fresh(d, now))
        self.assertFalse(chroot.lists_fresh(d, now + chroot.LISTS_AGE + 1))

    def fake_apt(self, rc, calls):
        def run(cmd, stdout, stderr, check):
            calls.append(cmd)
            stdout.write("".join("line %d\n" % i for i in range(40)))
            return types.SimpleNamespace(returncode=rc)
        return run

    def test_install_missing_only(self):
        calls = []
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            rc = chroot.install(self.cache, "trixie", ["-t", "trixie-backports", "gcc", "sparse", "dkms"],
                                lambda d, p: p == "gcc", self.fake_apt(0, calls))
        self.assertEqual(rc, 0)
        self.assertEqual(out.getvalue(), "# installing sparse dkms in the trixie chroot\n")
        self.assertEqual(len(calls), 1)
        self.assertEqual(calls[0][-7:], ["-o", "DPkg::Lock::Timeout=300", "install",
                                         "-t", "trixie-backports", "sparse", "dkms"])
        self.assertEqual(calls[0][:2], ["unshare", "--mount-proc=%s/chroot/trixie/proc" % self.cache])
        # nothing missing: apt not run
        self.assertEqual(chroot.install(self.cache, "trixie", ["gcc"], lambda d, p: True,
                                        self.fake_apt(1, calls)), 0)
        self.assertEqual(len(calls), 1)

    def test_apt_failure_shows_its_log(self):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            rc = chroot.apt_get(self.cache, "bookworm", ["install", "x"], self.fake_apt(100, []))
        self.assertEqual(rc, 100)
        self.assertEqual(out.getvalue().splitlines(), ["line %d" % i for i in range(10, 40)])
        with contextlib.redirect_stdout(out):
            self.assertEqual(chroot.apt_get(self.cache, "bookworm", ["update"], self.fake_apt(0, [])), 0)
        self.assertEqual(len(out.getvalue().splitlines()), 30)

    def test_ensure_without_sources(self):
        # no apt source for bookworm: refused by name, nothing made
        etc = os.path.join(self.cache, "etc")
        os.makedirs(os.path.join(etc, "sources.list.d"))
        with self.assertRaises(chroot.Error) as cm:
            chroot.ensure(self.cache, "trixie", etc)
        self.assertIn("no apt source for bookworm", str(cm.exception))
        self.assertFalse(os.path.exists(chroot.chroot_dir(self.cache, "trixie")))


if __name__ == "__main__":
    unittest.main()
