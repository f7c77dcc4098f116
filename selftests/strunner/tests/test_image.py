# SPDX-License-Identifier: GPL-2.0
"""strunner.image: the helpers rebuilt only when stale, a binary copied
with its libraries, sched_ext told from the headers' .config, the
changelog's version and the initramfs tree (with this machine's busybox,
hackbench and kmod, which make check installs)."""

import os
import shutil
import tempfile
import time
import unittest

from strunner import Error, chroot, image
from util import write


class Image(unittest.TestCase):
    def setUp(self):
        self.d = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.d)

    def test_version(self):
        path = write(self.d, "changelog", "sched-tune (0.9.3-1) unstable; urgency=medium\n\n  * x\n")
        self.assertEqual(image.version(path), "0.9.3-1")
        self.assertEqual(image.version(write(self.d, "c2", "nonsense\n")), "")
        self.assertEqual(image.version(os.path.join(self.d, "none")), "")

    def test_libs(self):
        out = ("\tlinux-vdso.so.1 (0x00007ffd)\n"
               "\tlibc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x00007f)\n"
               "\t/lib64/ld-linux-x86-64.so.2 (0x00007f)\n")
        self.assertEqual(image._libs(out), ["/lib/x86_64-linux-gnu/libc.so.6",
                                            "/lib64/ld-linux-x86-64.so.2"])
        self.assertEqual(image._libs("\tnot a dynamic executable\n"), [])

    def test_has_scx(self):
        cache = os.path.join(self.d, "cache")
        for kver, env, line, want in (("7.3.4+deb13-amd64", "trixie", "CONFIG_SCHED_CLASS_EXT=y", True),
                                      ("6.12.95+deb12-amd64", "bookworm",
                                       "# CONFIG_SCHED_CLASS_EXT is not set", False)):
            write(chroot.chroot_dir(cache, env), "usr/src/linux-headers-%s/.config" % kver,
                  "X=y\n%s\n" % line)
            self.assertEqual(image.has_scx(cache, kver), want)
        self.assertFalse(image.has_scx(cache, "6.1.0-57-amd64"))

    def test_copy_with_libs(self):
        binary = shutil.which("true")
        image.copy(binary, os.path.join(self.d, "root"))
        self.assertTrue(os.access(os.path.join(self.d, "root") + binary, os.X_OK))
        found = [os.path.join(d, n) for d, _, names in os.walk(os.path.join(self.d, "root"))
                 for n in names if n.startswith("libc.so")]
        self.assertEqual(len(found), 1)

    def test_helpers_only_when_stale(self):
        root = os.path.join(self.d, "tree")
        write(self.d, "tree/selftests/helpers/st_sched.h", "#define X 1\n")
        write(self.d, "tree/selftests/helpers/st_a.c",
              '#include "st_sched.h"\nint main(void) { return X - 1; }\n')
        write(self.d, "tree/bench/stbench/st_numa_work.c", "int main(void) { return 0; }\n")
        build = os.path.join(self.d, "build")
        image.helpers(root, build)
        names = sorted(os.listdir(os.path.join(build, "helpers")))
        self.assertEqual(names, ["st_a", "st_numa_work"])
        made = os.path.getmtime(os.path.join(build, "helpers", "st_a"))
        image.helpers(root, build)
        self.assertEqual(os.path.getmtime(os.path.join(build, "helpers", "st_a")), made)
        later = time.time() + 5
        os.utime(os.path.join(root, "selftests", "helpers", "st_sched.h"), (later, later))
        image.helpers(root, build)
        self.assertGreater(os.path.getmtime(os.path.join(build, "helpers", "st_a")), made)
        write(self.d, "tree/selftests/helpers/st_b.c", "int main(void) { int x; return; }\n")
        with self.assertRaises(Error):
            image.helpers(root, build)

    @unittest.skipUnless(all(shutil.which(t) for t in ("busybox", "hackbench", "kmod")),
                         "busybox, hackbench and kmod are make check's: not installed here")
    def test_tree_without_module(self):
        root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(image.__file__))))
        d = os.path.join(self.d, "initramfs")
        build = os.path.join(self.d, "build")
        write(self.d, "build/helpers/st_x", "x")
        image.tree(os.path.join(self.d, "cache"), root, root, build, "6.1.0-57-amd64", "", d)
        for path in ("init", "bin/busybox", "st/bin/st_x", "st/lib.sh", "st/README.md",
                     "st/sysfs-kernel-sched_tune", "st/kver", "st/version"):
            with self.subTest(path=path):
                self.assertTrue(os.path.isfile(os.path.join(d, path)))
        self.assertTrue(os.access(os.path.join(d, "init"), os.X_OK))
        self.assertEqual(os.readlink(os.path.join(d, "sbin", "insmod")),
                         os.path.realpath(shutil.which("kmod")))
        self.assertFalse(os.path.exists(os.path.join(d, "st", "sched_tune.ko")))
        self.assertFalse(os.path.exists(os.path.join(d, "lib", "modules")))
        with open(os.path.join(d, "st", "version")) as f:
            self.assertRegex(f.read(), r"^[0-9][^ ]*\n$")


if __name__ == "__main__":
    unittest.main()
