# SPDX-License-Identifier: GPL-2.0
"""strunner.apt and strunner.chroot: the machine's apt sources read, the
chroots' command line, sources, freshness and installs, without root,
a network or a chroot (apt-get and dpkg-query are given)."""

import contextlib
import io
import os
import shutil
import subprocess
import sys
import tempfile
import time
import types
import unittest

from strunner import apt, chroot
from util import write

MIRROR = "http://mirror.invalid/debian"


class AptSources(unittest.TestCase):
    def setUp(self):
        self.etc = tempfile.mkdtemp()
        os.mkdir(os.path.join(self.etc, "sources.list.d"))

    def tearDown(self):
        shutil.rmtree(self.etc)

    def test_deb822(self):
        write(self.etc, "sources.list.d/debian.sources",
              "Types: deb\nURIs: %s\nSuites: bookworm bookworm-updates\nComponents: main\n"
              "Signed-By:\n /usr/share/keyrings/x.gpg\n\n"
              "Types: deb\nURIs: %s-security\nSuites: bookworm-security\n" % (MIRROR, MIRROR))
        self.assertEqual(apt.uri("bookworm-updates", self.etc), MIRROR)
        self.assertEqual(apt.uri("bookworm-security", self.etc), MIRROR + "-security")
        self.assertEqual(apt.uri("trixie", self.etc), "")

    def test_one_line(self):
        write(self.etc, "sources.list", "# deb http://old.invalid/ bookworm main\n"
              "deb [arch=amd64 signed-by=/k.gpg] %s bookworm main\n"
              "deb-src %s-src bookworm-security main\n"
              "deb %s-security bookworm-security main\n" % (MIRROR, MIRROR, MIRROR))
        self.assertEqual(apt.uri("bookworm", self.etc), MIRROR)
        self.assertEqual(apt.uri("bookworm-security", self.etc), MIRROR + "-security")

    def test_deb822_first(self):
        write(self.etc, "sources.list", "deb http://list.invalid/ bookworm main\n")
        write(self.etc, "sources.list.d/a.sources",
              "Types: deb\nURIs: %s\nSuites: bookworm\n" % MIRROR)
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
        # the namespaced line run for real, with a chroot that only drops
        # its directory: env -i, then only what ENV names
        stub = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, stub)
        with open(os.path.join(stub, "chroot"), "w") as f:
            f.write('#!/bin/sh\nshift\nexec "$@"\n')
        os.chmod(os.path.join(stub, "chroot"), 0o755)
        cmd = chroot.argv(stub, "x", ["/usr/bin/env"], root=False)
        inner = cmd[cmd.index("-c") + 1:]
        env = dict(os.environ, PATH=stub + ":" + os.environ["PATH"], LEAK="1")
        out = subprocess.run(["sh", "-c"] + inner, env=env, stdout=subprocess.PIPE, text=True,
                             check=True).stdout
        self.assertEqual(sorted(out.split()), sorted(chroot.ENV))
        line = chroot.argv("/c", "x", ["true"])
        self.assertEqual(line[line.index("/usr/bin/env"):][:2 + len(chroot.ENV)],
                         ["/usr/bin/env", "-i"] + chroot.ENV)

    def test_signals_as_a_shell_gives_them(self):
        # SIGPIPE (13) and SIGXFSZ (25) not ignored in what it becomes
        code = ("from strunner import chroot; "
                "chroot.execute(['sh', '-c', 'grep ^SigIgn: /proc/self/status'])")
        out = subprocess.run([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                             env=dict(os.environ, PYTHONPATH=":".join(sys.path)),
                             check=True).stdout
        mask = int(out.split()[1], 16)
        self.assertEqual(mask & (1 << 12 | 1 << 24), 0, out)


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
                                lambda p, d: p == "gcc", self.fake_apt(0, calls))
        self.assertEqual(rc, 0)
        self.assertEqual(out.getvalue(), "# installing sparse dkms in the trixie chroot\n")
        self.assertEqual(len(calls), 1)
        self.assertEqual(calls[0][-7:], ["-o", "DPkg::Lock::Timeout=300", "install",
                                         "-t", "trixie-backports", "sparse", "dkms"])
        self.assertEqual(calls[0][:2], ["unshare", "--mount-proc=%s/chroot/trixie/proc" % self.cache])
        # nothing missing: apt not run
        self.assertEqual(chroot.install(self.cache, "trixie", ["gcc"], lambda p, d: True,
                                        self.fake_apt(1, calls)), 0)
        self.assertEqual(len(calls), 1)

    def test_apt_failure_shows_its_log(self):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            rc = chroot.apt_get(self.cache, "bookworm", ["install", "x"], self.fake_apt(100, []))
        self.assertEqual(rc, 100)
        self.assertEqual(out.getvalue().splitlines(), ["#   line %d" % i for i in range(10, 40)])
        with contextlib.redirect_stdout(out):
            self.assertEqual(chroot.apt_get(self.cache, "bookworm", ["update"], self.fake_apt(0, [])), 0)
        self.assertEqual(len(out.getvalue().splitlines()), 30)

    def test_ensure_without_sources(self):
        # no apt source for bookworm, then none for its security suite:
        # refused by name, nothing run, nothing made
        etc = os.path.join(self.cache, "etc")
        os.makedirs(os.path.join(etc, "sources.list.d"))
        path = os.path.join(etc, "sources.list.d", "debian.sources")

        def run(cmd, **kw):
            self.fail("ran %s" % cmd)
        for text, why in (("", "no apt source for bookworm in"),
                          ("Types: deb\nURIs: %s\nSuites: bookworm\n" % MIRROR,
                           "no apt source for bookworm-security in")):
            with self.subTest(why=why):
                with open(path, "w") as f:
                    f.write(text)
                with self.assertRaises(chroot.Error) as cm:
                    chroot.ensure(self.cache, "trixie", etc, run)
                self.assertIn(why, str(cm.exception))
                self.assertFalse(os.path.exists(chroot.chroot_dir(self.cache, "trixie")))

    def test_ensure_ready(self):
        # a chroot made, its lists fresh: nothing run
        d = chroot.chroot_dir(self.cache, "trixie")
        os.makedirs(os.path.join(d, "var", "lib", "apt", "lists"))
        open(os.path.join(d, "var", "lib", "apt", "lists", "x_Packages"), "w").close()
        open(os.path.join(d, ".st-ready"), "w").close()
        chroot.ensure(self.cache, "trixie", "/nonexistent", lambda cmd, **kw: self.fail("ran %s" % cmd))


if __name__ == "__main__":
    unittest.main()
