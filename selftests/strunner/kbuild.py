# SPDX-License-Identifier: GPL-2.0
"""A Kbuild tree built against one of the kernels, and the verdicts of
the build (lib.sh st_kbuild, strunner.kjob).

    python3 -m strunner.kbuild build CACHE KVER SRC OUT [MAKE-ARGS...]
    python3 -m strunner.kbuild verdict KVER OUT RC [WHY]

"build" builds the Kbuild tree SRC against KVER's headers in a copy of
its own, in the chroot of KVER's Debian release (strunner.kernels env,
under CACHE), and leaves the copy with its objects and build.log in OUT;
it exits with make's status.  ST_KBUILD_SPARSE set: once the build is
done, sparse on every source file (C=2 in the built tree with the same
MAKE-ARGS: nothing is compiled again) into OUT/sparse.log; "sparse" is
the chroot's, a path a sparse binary of the host's (strunner.lint
sparse); the sparse pass's status is written into its log when not 0.
A user who is not root builds in a directory of the host's that is the
chroot's /tmp (strunner.chroot).

"verdict" prints two results, as lib.sh's st_records reads them: the W=1
build (OUT/build.log) has no compiler warning in the module's files, and
sparse (OUT/sparse.log, C=2) no warning or error in them.  A warning in
the kernel's headers (/usr/src/linux-*) is listed, not held.  Sparse is
a skip where the kernel's Makefile turned it off, a failure where the
build failed (RC, or WHY) or the build could not run it.
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

from strunner import chroot, cli, copy_tree, kernels, read_lines, records, stop_on_sigterm

_GCC = re.compile(r"^[^ :]+:[0-9]+(:[0-9]+)?: (warning|error):")
_MODPOST = re.compile(r"^(WARNING|ERROR): modpost:")
_SPARSE_OFF = re.compile(r"specified, but .* is not available or not up to date")
# what build() writes into sparse.log
OWN = "st_kbuild: "


def findings(lines):
    """(where, line) for each warning or error of a Kbuild log: where is
    "headers" for the kernel's headers, "module" for ours."""
    for line in lines:
        if _GCC.match(line):
            yield ("headers" if line.startswith("/usr/src/linux-") else "module"), line
        elif _MODPOST.match(line):
            yield "module", line


def verdict(kver, out, rc, why=""):
    """Yields the records of the two checks."""
    for tool in ("W=1", "sparse"):
        if tool == "W=1":
            lines = read_lines(os.path.join(out, "build.log"))
            desc = ("W=1 build against linux-headers-%s: no compiler warning in "
                    "the module's files" % kver)
        else:
            lines = read_lines(os.path.join(out, "sparse.log"))
            desc = ("sparse (C=2) against linux-headers-%s: no warning or error "
                    "in the module's files" % kver)
            off = next((x for x in lines if _SPARSE_OFF.search(x)), None)
            if off is not None:
                yield ("R", "skip", desc, "the kernel's Makefile turned sparse "
                       "0.6.4 off (%s)" % off.split(": ", 1)[-1])
                continue
            own = [x for x in lines if x.startswith(OWN)]
            if why or rc != 0 or own:
                yield "R", "fail", "%s (%s)" % (desc, why or "not run: the build failed"), ""
                for x in own:
                    yield "L", "  " + x
                continue
        found = list(findings(lines))
        n = sum(w == "module" for w, _ in found)
        h = len(found) - n
        if h:
            desc += " (%d in the kernel's headers, listed)" % h
        if n == 0 and rc == 0:
            yield "R", "pass", desc, ""
        elif rc != 0:
            yield "R", "fail", "%s (make exited %d)" % (desc, rc), ""
        else:
            yield "R", "fail", "%s (%d found)" % (desc, n), ""
        for _, x in found[:40]:
            yield "L", "  " + x
        if rc != 0 and n == 0:
            for x in [x for x in lines if "error" in x or "Error" in x][:20]:
                yield "L", "  " + x


def build(cache, kver, src, out, args, sparse=""):
    """make's status of SRC built against KVER in OUT (see above)."""
    env = kernels.env(kver)
    as_root = os.geteuid() == 0
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    top = chroot.chroot_dir(cache, env)
    if as_root:
        # a directory of this build's own: two trees (two runs, a bench)
        # may build for the same kernel at once
        os.makedirs(os.path.join(top, "tmp"), exist_ok=True)
        hdir = tempfile.mkdtemp(prefix="st-kbuild-%s-%s." % (kver, os.path.basename(out)),
                                dir=os.path.join(top, "tmp"))
        cdir, bind = hdir[len(top):], ""
    else:
        hdir = tempfile.mkdtemp(prefix="st-kbuild-%s." % kver)
        cdir, bind = "/tmp", hdir
    try:
        copy_tree(src, hdir)
        check = sparse
        if sparse.startswith("/"):
            shutil.copy(sparse, os.path.join(hdir, ".st-sparse"))
            check = cdir + "/.st-sparse"
        make = ["make", "-C", cdir, "KDIR=/usr/src/linux-headers-" + kver] + args

        def make_in(cmd, log):
            with open(os.path.join(out, log), "a") as f:
                return subprocess.run(chroot.argv(cache, env, cmd, bind, as_root), stdout=f,
                                      stderr=subprocess.STDOUT, check=False).returncode
        rc = make_in(make, "build.log")
        if rc == 0 and sparse:
            checked = make_in(make + ["C=2", "CHECK=" + check], "sparse.log")
            if checked != 0:
                with open(os.path.join(out, "sparse.log"), "a") as f:
                    f.write("%sthe sparse pass's make exited %d\n" % (OWN, checked))
        copy_tree(hdir, out)
    finally:
        shutil.rmtree(hdir, ignore_errors=True)
    return rc


def _build(cache, kver, src, out, *args):
    stop_on_sigterm()
    rc = build(cache, kver, src, out, list(args), os.environ.get("ST_KBUILD_SPARSE", ""))
    # make killed by a signal: a shell's status for it
    return 128 - rc if rc < 0 else rc


def main(argv):
    return cli(argv[1:], __doc__, {
        "build": (lambda n: n > 3, _build),
        "verdict": (lambda n: n in (3, 4),
                    lambda kver, out, rc, why="": records(verdict(kver, out, int(rc), why))),
    })


if __name__ == "__main__":
    sys.exit(main(sys.argv))
