# SPDX-License-Identifier: GPL-2.0
"""strunner.kernels: the kernels resolved from apt-cache's answers,
without a network or a chroot (apt-cache's output is given)."""

import contextlib
import io
import os
import shutil
import tempfile
import unittest

from strunner import kernels

MIRROR = "http://mirror.invalid/debian"

# apt-cache madison linux-headers-amd64, as a Debian 12 chroot answers
MADISON = """\
linux-headers-amd64 | 6.12.95-1~bpo12+1 | %(m)s bookworm-backports/main amd64 Packages
linux-headers-amd64 | 6.12.9-1~bpo12+1 | %(m)s bookworm-backports/main amd64 Packages
linux-headers-amd64 | 6.1.158-1 | %(m)s bookworm-updates/main amd64 Packages
linux-headers-amd64 | 6.1.159-1 | %(m)s-security bookworm-security/main amd64 Packages
linux-headers-amd64 | 6.1.153-1 | %(m)s bookworm/main amd64 Packages
""" % {"m": MIRROR}

SHOW = {
    "6.12.95-1~bpo12+1": "Package: linux-headers-amd64\nDepends: linux-headers-6.12.95+deb12-amd64 (= 6.12.95-1~bpo12+1)\n",
    "6.1.159-1": "Package: linux-headers-amd64\nDepends: linux-headers-6.1.0-57-amd64 (= 6.1.159-1)\n",
}


def fake_apt(calls, madison=MADISON, show=None):
    """An apt-cache that answers from the texts above, recording its
    calls."""
    show = SHOW if show is None else show

    def run(env, args):
        calls.append((env, args))
        if args[0] == "madison":
            return madison
        if args[0] == "show":
            return show.get(args[1].split("=", 1)[1], "")
        return ""
    return run


class Resolve(unittest.TestCase):
    def test_names(self):
        self.assertEqual(kernels.suite("backports-cloud"),
                         ("bookworm", "linux-headers-cloud-amd64", "bookworm-backports/"))
        self.assertEqual(kernels.suite("security612")[1], "linux-headers-6.12-amd64")
        self.assertEqual(kernels.suite("security612-cloud")[1], "linux-headers-6.12-cloud-amd64")
        self.assertEqual(kernels.suite("trixie-backports")[0], "trixie")
        self.assertIsNone(kernels.suite("6.12.95+deb12-amd64"))
        self.assertIsNone(kernels.suite("bookworm"))
        self.assertEqual(len(kernels.known()), 10)

    def test_highest_of_its_suites(self):
        calls = []
        self.assertEqual(kernels.resolve("backports", fake_apt(calls)), "6.12.95+deb12-amd64")
        self.assertEqual(calls, [("bookworm", ["madison", "linux-headers-amd64"]),
                                 ("bookworm", ["show", "linux-headers-amd64=6.12.95-1~bpo12+1"])])

    def test_stable_not_backports(self):
        # 6.12 is the higher version, but not in stable's suites
        self.assertEqual(kernels.resolve("stable", fake_apt([])), "6.1.0-57-amd64")

    def test_versions_by_dpkg(self):
        # 6.1.159 > 6.1.158 > 6.1.153 whatever the order of the lines,
        # and ~ sorts before anything
        lines = MADISON.splitlines()
        for order in (lines, list(reversed(lines))):
            with self.subTest(first=order[0]):
                self.assertEqual(kernels.resolve("stable", fake_apt([], "\n".join(order))),
                                 "6.1.0-57-amd64")
        # where the strings sort the other way
        madison = ("linux-headers-amd64 | 6.1.100-1 | %s bookworm-security/main amd64 Packages\n"
                   "linux-headers-amd64 | 6.1.99-1 | %s bookworm/main amd64 Packages\n" % (MIRROR, MIRROR))
        show = {"6.1.100-1": "Depends: linux-headers-6.1.0-60-amd64\n",
                "6.1.99-1": "Depends: linux-headers-6.1.0-59-amd64\n"}
        self.assertEqual(kernels.resolve("stable", fake_apt([], madison, show)), "6.1.0-60-amd64")
        self.assertTrue(kernels.version_gt("6.12.95-1", "6.12.95-1~bpo12+1"))
        self.assertFalse(kernels.version_gt("6.12.9-1", "6.12.10-1"))

    def test_errors(self):
        for name, madison, show, why in (
                ("nosuch", MADISON, SHOW, "unknown kernel name 'nosuch'"),
                ("trixie", MADISON, SHOW, "no linux-headers-amd64 in the suites of 'trixie'"),
                ("backports", MADISON, {}, "cannot parse Depends of linux-headers-amd64=6.12.95")):
            with self.subTest(name=name, why=why):
                with self.assertRaises(kernels.Error) as cm:
                    kernels.resolve(name, fake_apt([], madison, show))
                self.assertIn(why, str(cm.exception))


GATE = """\
ST_GATE_RANGE(ratelimit, 6, 1, 112, 158)
ST_GATE_RANGE(ratelimit, 6, 12, 9, 118)
ST_GATE_RANGE(eevdf, 6, 12, 9, 117)
ST_GATE_RANGE(eevdf, 7, 3, 4, 10)
/* ST_GATE_RANGE(x, 6, 13, 0, 1) is not a line of the table */
"""

IMAGES = """\
linux-image-6.12.118+deb13-amd64 | 6.12.118-1 | %(m)s trixie/main amd64 Packages
linux-image-6.12.119+deb13-amd64 | 6.12.119-10 | %(m)s trixie-security/main amd64 Packages
linux-image-6.12.119+deb13-amd64 | 6.12.119-9 | %(m)s trixie-security/main amd64 Packages
linux-image-6.1.0-57-amd64 | 6.1.158-1 | %(m)s bookworm/main amd64 Packages
linux-image-7.3.11+deb13-amd64 | 7.3.11-1 | %(m)s sid/main amd64 Packages
linux-image-7.3.4+deb13-amd64 | 7.3.4-1~bpo13+1 | %(m)s trixie-backports/main amd64 Packages
""" % {"m": MIRROR}


class Newer(unittest.TestCase):
    def setUp(self):
        fd, self.table = tempfile.mkstemp()
        with os.fdopen(fd, "w") as f:
            f.write(GATE)

    def tearDown(self):
        os.unlink(self.table)

    def test_gate_table(self):
        self.assertEqual(kernels.gate_last(self.table), {"6.1": 158, "6.12": 117, "7.3": 10})
        self.assertEqual(kernels.gate_last(self.table + ".none"), {})

    def test_past_the_gate(self):
        calls = []

        def run(env, args):
            calls.append((env, args[0]))
            if args[0] == "pkgnames":
                return ("linux-image-6.12.118+deb13-amd64\nlinux-image-6.12.119+deb13-amd64\n"
                        "linux-image-6.1.0-57-amd64\nlinux-image-7.3.11+deb13-amd64\n"
                        "linux-image-7.3.4+deb13-amd64\nlinux-image-6.12.119+deb13-arm64\n"
                        "linux-image-amd64\n")
            return IMAGES
        lines = kernels.newer(kernels.gate_last(self.table), ["trixie"], run)
        # 6.12: the sublevel first, then dpkg between two uploads of one;
        # 6.1 within the gate; 7.3.11 only in sid, which is not looked at
        self.assertEqual(lines, ["# kernel newer than the gate knows: 6.12 6.12.119-10 (checked up to 117)"])
        self.assertEqual(calls, [("trixie", "pkgnames"), ("trixie", "madison")])

    def test_nothing_to_read(self):
        self.assertEqual(kernels.newer({}, ["trixie"], None), [])
        self.assertEqual(kernels.newer({"6.12": 117}, ["host"], lambda env, a: ""), [])


class Main(unittest.TestCase):
    """The command lines lib.sh's wrappers call: what they print where,
    and their status."""

    def setUp(self):
        self.cache = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.cache)

    def main(self, *args):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = kernels.main(["kernels"] + list(args))
        return rc, out.getvalue(), err.getvalue()

    def test_suite(self):
        self.assertEqual(self.main("suite", "trixie-cloud"),
                         (0, "trixie linux-headers-cloud-amd64 (trixie|trixie-security|trixie-updates)/\n", ""))
        # st_kernel_suite as a test: 1 and nothing for an exact release
        self.assertEqual(self.main("suite", "6.12.95+deb12-amd64"), (1, "", ""))

    def test_resolve_unknown(self):
        rc, out, err = self.main("resolve", self.cache, "sid")
        self.assertEqual((rc, out), (1, ""))
        self.assertRegex(err, "^error: unknown kernel name 'sid' \\(known: stable backports ")

    def test_newer_without_table(self):
        self.assertEqual(self.main("newer", self.cache, os.path.join(self.cache, "none.h"))[:2],
                         (0, "# newer kernels: no ST_GATE_RANGE line in %s/none.h\n" % self.cache))

    def test_fetch_and_headers_there(self):
        # what is there already: nothing run (no chroot exists here)
        os.makedirs(os.path.join(self.cache, "kernels", "6.1.0-57-amd64"))
        open(os.path.join(self.cache, "kernels", "6.1.0-57-amd64", "vmlinuz"), "w").close()
        self.assertEqual(self.main("fetch", self.cache, "6.1.0-57-amd64"), (0, "", ""))
        src = os.path.join(self.cache, "chroot", "trixie", "usr", "src", "linux-headers-7.3.4+deb13-amd64")
        os.makedirs(src)
        open(os.path.join(src, "Makefile"), "w").close()
        self.assertEqual(self.main("headers", self.cache, "7.3.4+deb13-amd64"), (0, "", ""))

    def test_usage(self):
        with self.assertRaises(SystemExit) as cm:
            self.main("resolve")
        self.assertIn("kernels suite NAME", str(cm.exception.code))


if __name__ == "__main__":
    unittest.main()
