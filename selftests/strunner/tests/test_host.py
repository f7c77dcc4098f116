# SPDX-License-Identifier: GPL-2.0
"""strunner.host and strunner.apt's commands: the host's system checked,
bookworm-backports added from its own mirror, apt-get update and installs
of what is missing, without root or a network (apt-get is given)."""

import contextlib
import io
import os
import shutil
import subprocess
import sys
import tempfile
import types
import unittest

from strunner import Error, apt, host
from util import write

MIRROR = "http://mirror.invalid/debian"


class Apt:
    """apt-get as a recorder: each call's command line, RC its status,
    40 lines of output."""

    def __init__(self, rc=0):
        self.rc, self.calls = rc, []

    def __call__(self, cmd, stdout=None, stderr=None, check=False):
        self.calls.append(cmd)
        if stdout not in (None, subprocess.DEVNULL):
            stdout.write("".join("line %d\n" % i for i in range(40)))
        return types.SimpleNamespace(returncode=self.rc)


class Host(unittest.TestCase):
    def setUp(self):
        self.d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.d)
        self.cache = os.path.join(self.d, "cache")
        self.etc = os.path.join(self.d, "etc")
        os.makedirs(os.path.join(self.etc, "sources.list.d"))
        os.makedirs(self.cache)

    def quiet(self, fn, *args, **kw):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            fn(*args, **kw)
        return out.getvalue()

    def test_debian12_only(self):
        host.debian12(write(self.d, "os", 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\n'
                                          "ID=debian\nVERSION_CODENAME=bookworm\n"))
        for text, name in (('PRETTY_NAME="Debian GNU/Linux 13 (trixie)"\nID=debian\n'
                            "VERSION_CODENAME=trixie\n", "Debian GNU/Linux 13 (trixie)"),
                           ("ID=ubuntu\nVERSION_CODENAME=bookworm\n", "an unknown OS"),
                           ("", "an unknown OS")):
            with self.subTest(name=name):
                with self.assertRaises(Error) as cm:
                    host.debian12(write(self.d, "os", text))
                self.assertIn("and this is %s: refusing" % name, str(cm.exception))
        with self.assertRaises(Error):
            host.debian12(os.path.join(self.d, "none"))

    def test_backports_added_once(self):
        with self.assertRaises(Error) as cm:
            host.add_backports(self.etc)
        self.assertIn("no apt source for bookworm in", str(cm.exception))
        write(self.d, "etc/sources.list", "deb %s bookworm main\n" % MIRROR)
        self.assertEqual(self.quiet(host.add_backports, self.etc),
                         "# adding bookworm-backports from %s\n" % MIRROR)
        self.assertEqual(apt.uri("bookworm-backports", self.etc), MIRROR)
        self.assertFalse(host.add_backports(self.etc))

    def test_backports_disabled_is_none(self):
        write(self.d, "etc/sources.list", "deb %s bookworm main\n" % MIRROR)
        write(self.d, "etc/sources.list.d/b.sources", "Types: deb\nURIs: http://old.invalid/\n"
              "Suites: bookworm-backports\nEnabled: no\n")
        self.assertEqual(apt.uri("bookworm-backports", self.etc), "")
        self.assertTrue(self.quiet(host.add_backports, self.etc))
        self.assertEqual(apt.uri("bookworm-backports", self.etc), MIRROR)

    def test_update_once_an_hour(self):
        run = Apt()
        self.quiet(host.update, self.cache, run=run)
        self.quiet(host.update, self.cache, run=run)
        self.assertEqual(run.calls, [["apt-get", "update", "-qq"]])
        stamp = os.path.getmtime(os.path.join(self.cache, "apt-updated"))
        self.quiet(host.update, self.cache, run=run, now=stamp + host.UPDATE_AGE + 1)
        self.quiet(host.update, self.cache, force=True, run=run)
        self.assertEqual(len(run.calls), 3)

    def test_update_failure(self):
        with self.assertRaises(Error):
            self.quiet(host.update, self.cache, run=Apt(100))
        self.assertFalse(os.path.exists(os.path.join(self.cache, "apt-updated")))

    def test_install_missing_only(self):
        run = Apt()
        out = self.quiet(host.install, self.cache, ["-t", "bookworm-backports", "gcc", "qemu"],
                         lambda p: p == "gcc", run)
        self.assertEqual(out, "# apt-get update\n# installing qemu\n")
        self.assertEqual(run.calls[1], ["apt-get", "-y", "-qq", "--no-install-recommends",
                                        "install", "-t", "bookworm-backports", "qemu"])
        self.quiet(host.install, self.cache, ["gcc"], lambda p: True, Apt(1))

    def test_install_failure_shows_its_log(self):
        open(os.path.join(self.cache, "apt-updated"), "w").close()
        with self.assertRaises(Error) as cm:
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                host.install(self.cache, ["a", "b"], lambda p: False, Apt(100))
        self.assertEqual(str(cm.exception), "apt-get install a b failed")
        self.assertEqual(out.getvalue().splitlines()[-30:], ["#   line %d" % i for i in range(10, 40)])

    def test_qemu_from_backports(self):
        run = Apt()
        host.ensure_qemu(self.cache, lambda: "1:10.0.2+ds-2+deb13u1~bpo12+1", run)
        self.assertEqual(run.calls, [])
        for version in ("1:7.2+dfsg-7+deb12u7", ""):
            with self.subTest(version=version):
                self.quiet(host.ensure_qemu, self.cache, lambda: version, run)
                self.assertEqual(run.calls[-1][-4:], ["install", "-t", "bookworm-backports",
                                                      "qemu-system-x86"])

    def test_installed_in_a_root(self):
        # dpkg-query reads ROOT's status file, as any user
        dpkg = os.path.join(self.d, "root", "var", "lib", "dpkg")
        os.makedirs(os.path.join(dpkg, "info"))
        open(os.path.join(dpkg, "available"), "w").close()
        write(self.d, "root/var/lib/dpkg/status",
              "Package: gcc\nStatus: install ok installed\nArchitecture: amd64\n"
              "Version: 4:12.2.0-3\n\n"
              "Package: sparse\nStatus: deinstall ok config-files\nArchitecture: amd64\n"
              "Version: 0.6.4-3\n")
        root = os.path.join(self.d, "root")
        self.assertTrue(apt.installed("gcc", root))
        self.assertEqual(apt.query("gcc", "Version", root), "4:12.2.0-3")
        self.assertFalse(apt.installed("sparse", root))
        self.assertFalse(apt.installed("dkms", root))

    def test_state(self):
        root = os.path.join(self.d, "root")
        files = {"etc/modprobe.d/sched_tune.conf": "options sched_tune x=1\n",
                 "etc/modprobe.d/other.conf": "options other\n",
                 "etc/modules": "loop\nsched_tune\n",
                 "var/lib/dkms/mok.pub": "key",
                 "var/lib/dkms/other/x": "",
                 "usr/src/sched-tune-1.0/dkms.conf": "PACKAGE_NAME=sched-tune\n",
                 "lib/modules/6.1.0-57-amd64/updates/dkms/sched_tune.ko.xz": "ko",
                 "lib/modules/6.1.0-57-amd64/kernel/other.ko": "ko",
                 "lib/modules/6.1.0-57-amd64/modules.dep":
                     "updates/dkms/sched_tune.ko.xz:\nkernel/other.ko:\n"}
        for path, text in files.items():
            write(self.d, os.path.join("root", path), text)
        before = host.state(root)
        text = "\n".join(before)
        for path in ("etc/modprobe.d/sched_tune.conf ", "var/lib/dkms/mok.pub ",
                     "usr/src/sched-tune-1.0 d", "usr/src/sched-tune-1.0/dkms.conf ",
                     "updates/dkms/sched_tune.ko.xz f", "modules.dep: updates/dkms/sched_tune.ko.xz:",
                     "etc/modules: sched_tune"):
            with self.subTest(path=path):
                self.assertIn(path, text)
        self.assertNotIn("other", text)
        self.assertEqual(host.state(root), before)
        # what make check must not do: each change is seen
        for path, text in (("etc/modprobe.d/sched_tune.conf", "options sched_tune x=2\n"),
                           ("var/lib/dkms/mok.pub", "kez"),
                           ("etc/modprobe.d/sched-tune-new.conf", "")):
            with self.subTest(change=path):
                write(self.d, os.path.join("root", path), text)
                self.assertNotEqual(host.state(root), before)
                before = host.state(root)
        os.unlink(os.path.join(root, "lib/modules/6.1.0-57-amd64/updates/dkms/sched_tune.ko.xz"))
        self.assertNotEqual(host.state(root), before)

    def test_unchanged(self):
        before = ["sched-tune-dkms 1.0 ii", "", "/etc/modules: sched_tune"]
        self.assertEqual(list(host.unchanged(before, list(before))), [
            ("R", "pass", "the machine's own sched_tune state is unchanged (2 entries: DKMS, "
             "/usr/src, modules, key, package, config)")])
        recs = list(host.unchanged(before, before[:2]))
        self.assertEqual(recs[0], ("R", "fail", "the machine's own sched_tune state is unchanged"))
        self.assertIn(("C", "  -/etc/modules: sched_tune"), recs)
        # the command against the file "state" wrote at the start
        path = write(self.d, "before", "\n".join(host.state()) + "\n")
        p = subprocess.run([sys.executable, "-m", "strunner.host", "unchanged", path],
                           env=dict(os.environ, PYTHONPATH=":".join(sys.path)),
                           stdout=subprocess.PIPE, text=True, check=True)
        self.assertEqual(p.stdout.split("\x1f")[:2], ["R", "pass"])

    def test_cli(self):
        env = dict(os.environ, PYTHONPATH=":".join(sys.path))
        for args in ([], ["ensure"], ["install", self.cache], ["frob", self.cache]):
            with self.subTest(args=args):
                p = subprocess.run([sys.executable, "-m", "strunner.host"] + args, env=env,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                   check=False)
                self.assertEqual(p.returncode, 1)
                self.assertIn("python3 -m strunner.host ensure CACHE", p.stderr)


if __name__ == "__main__":
    unittest.main()
