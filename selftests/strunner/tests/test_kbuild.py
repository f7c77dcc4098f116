# SPDX-License-Identifier: GPL-2.0
"""strunner.kbuild's build: the tree copied as tar would, make run in
the kernel's chroot (given: a shell in the copy), its objects and logs
left in OUT, the copy removed; and strunner.kernels env."""

import os
import shutil
import tempfile
import unittest
from unittest import mock

from strunner import chroot, copy_tree, kbuild, kernels
from util import write

# the chroot's make as a shell: in the copy (where the chroot sees it:
# its /tmp, bound or under the chroot's directory), an object made, the
# command line echoed, status 2 if it has FAIL
MAKE = ('cd "$0" && echo "$@" && printf made > "obj$#.o" && '
        'case "$*" in *FAIL*) exit 2;; esac')


class Kbuild(unittest.TestCase):
    def setUp(self):
        self.d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.d)
        self.src = os.path.join(self.d, "src")
        for path in ("Kbuild", "module/a.c", "build/old.o", ".git/HEAD", "module/build/b.c"):
            write(self.src, path, path)
        os.symlink("Kbuild", os.path.join(self.src, "link"))
        self.calls = []

        def argv(cache, env, cmd, tmp="", root=True):
            self.calls.append((env, cmd, tmp, root))
            where = tmp or os.path.join(chroot.chroot_dir(cache, env), cmd[2].lstrip("/"))
            return ["sh", "-c", MAKE, where] + cmd
        patch = mock.patch.object(chroot, "argv", argv)
        patch.start()
        self.addCleanup(patch.stop)

    def test_env(self):
        self.assertEqual(kernels.env("7.3.4+deb13-amd64"), "trixie")
        self.assertEqual(kernels.env("6.12.118+deb13-cloud-amd64"), "trixie")
        self.assertEqual(kernels.env("6.12.95+deb12-amd64"), "bookworm")
        self.assertEqual(kernels.env("6.1.0-57-amd64"), "bookworm")

    def test_copy_as_tar(self):
        dst = os.path.join(self.d, "dst")
        copy_tree(self.src, dst)
        found = sorted(os.path.relpath(os.path.join(d, n), dst)
                       for d, _, names in os.walk(dst) for n in names)
        self.assertEqual(found, ["Kbuild", "link", "module/a.c", "module/build/b.c"])
        self.assertTrue(os.path.islink(os.path.join(dst, "link")))

    def build(self, args, sparse=""):
        cache = os.path.join(self.d, "cache")
        out = os.path.join(self.d, "out")
        os.makedirs(out)
        open(os.path.join(out, "stale"), "w").close()
        rc = kbuild.build(cache, "7.3.4+deb13-amd64", self.src, out, args, sparse)
        tmp = os.path.join(chroot.chroot_dir(cache, "trixie"), "tmp")
        return rc, out, sorted(os.listdir(out)), os.listdir(tmp) if os.path.isdir(tmp) else []

    def test_build(self):
        rc, out, names, left = self.build(["W=1"])
        self.assertEqual(rc, 0)
        self.assertEqual(names, ["Kbuild", "build.log", "link", "module", "obj5.o"])
        self.assertEqual(left, [])
        env, cmd, tmp, root = self.calls[0]
        self.assertEqual((env, cmd[0], cmd[3:]),
                         ("trixie", "make", ["KDIR=/usr/src/linux-headers-7.3.4+deb13-amd64", "W=1"]))
        self.assertEqual(root, os.geteuid() == 0)
        self.assertEqual(tmp == "", root)
        with open(os.path.join(out, "build.log")) as f:
            self.assertEqual(f.read(), " ".join(cmd) + "\n")
        self.assertEqual(len(self.calls), 1)

    def test_sparse_after_the_build(self):
        sparse = os.path.join(self.d, "sparse")
        open(sparse, "w").close()
        rc, out, names, _ = self.build(["FAIL"], "sparse")
        self.assertEqual((rc, len(self.calls)), (2, 1))
        self.calls.clear()
        shutil.rmtree(out)
        rc, out, names, _ = self.build(["W=1"], sparse)
        self.assertEqual(rc, 0)
        self.assertIn(".st-sparse", names)
        self.assertEqual(self.calls[1][1][-2:], ["C=2", "CHECK=%s/.st-sparse" % self.calls[1][1][2]])
        shutil.rmtree(out)
        self.calls.clear()
        rc, out, names, _ = self.build(["C=FAIL"], "")
        self.assertEqual(rc, 2)

    def test_sparse_pass_failure_logged(self):
        # the build passes, the sparse pass's make fails: written into
        # its log, which the verdict fails on
        rc, out, names, _ = self.build(["W=1"], "sparseFAIL")
        self.assertEqual(rc, 0)
        with open(os.path.join(out, "sparse.log")) as f:
            self.assertEqual(f.read().splitlines()[-1],
                             kbuild.OWN + "the sparse pass's make exited 2")
        recs = list(kbuild.verdict("7.3.4+deb13-amd64", out, rc))
        self.assertEqual([r[1] for r in recs if r[0] == "R"], ["pass", "fail"])

if __name__ == "__main__":
    unittest.main()
