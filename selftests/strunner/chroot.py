# SPDX-License-Identifier: GPL-2.0
"""make check's cached Debian chroots (strunner.kjob; the
kernels, builds and package stage of strunner).

    python3 -m strunner.chroot run CACHE SUITE CMD...
    python3 -m strunner.chroot install CACHE SUITE [-t RELEASE] PKG...

Modules are built in a chroot of each kernel's Debian release
(debootstrap, minbase) in CACHE/chroot/SUITE, fed from the mirrors of
the machine's own apt sources: Debian 13's kbuild tools need glibc 2.38
and gcc 14, which Debian 12 lacks, and Debian 12's headers pull their
kernel image, which has no business on the machine that runs the bench.

"run": CMD as root in the chroot with a clean environment and a /proc
of its own (7.x objtool reads the stack limit from /proc), in a private
mount namespace, so nothing stays mounted and runs never race.  This
process becomes it (exec): its status, its standard streams and the
signals sent to it are CMD's.  ST_CHROOT_TMP=DIR: the caller's DIR is
the chroot's /tmp there.  A user who is not root is root in a user
namespace of its own (with a PID namespace its /proc needs), where the
chroot's files, owned by the real root, are read-only: it reads the
package lists and builds in its ST_CHROOT_TMP (make lint).  "run" is
how a developer gets into the chroot a build took place in.

ensure() makes the chroot once (make() installs debootstrap first) and
refreshes its package lists twice a day; apt_get() is apt-get in it,
its log's end printed if it failed; "install" installs only what is
missing.  Two benches at once take turns on each chroot's locks.
"""

import os
import shutil
import signal
import subprocess
import sys
import time

from strunner import Error, apt, cli, host, locked, log, tail

ENV = ["PATH=/usr/sbin:/usr/bin:/sbin:/bin", "HOME=/root",
       "DEBIAN_FRONTEND=noninteractive", "LC_ALL=C.UTF-8"]

# the inner shell of the namespaced case: /tmp bound, then the chroot
BIND = ('dir=$1 tmp=$2; shift 2; '
        'if [ -n "$tmp" ]; then mount --bind "$tmp" "$dir/tmp" || exit 1; fi; '
        'exec chroot "$dir" /usr/bin/env -i "$@"')

# what every chroot has: the module's build, and what apt needs over https
PKGS = ["gcc", "make", "binutils", "libc6-dev", "kmod", "zstd", "ca-certificates"]

# package lists older than this are refreshed (seconds)
LISTS_AGE = 12 * 3600


def chroot_dir(cache, suite):
    """Where SUITE's chroot lives under CACHE."""
    return os.path.join(cache, "chroot", suite)


def in_root(d, cmd):
    """The command line that runs CMD (a list) as root in the tree D,
    with a clean environment and a /proc of its own."""
    return ["unshare", "--mount-proc=" + os.path.join(d, "proc"), "chroot", d,
            "/usr/bin/env", "-i"] + ENV + cmd


def argv(cache, suite, cmd, tmp="", root=True):
    """The command line that runs CMD (a list) in SUITE's chroot."""
    d = chroot_dir(cache, suite)
    proc = "--mount-proc=" + os.path.join(d, "proc")
    if root and not tmp:
        return in_root(d, cmd)
    user = [] if root else ["--map-root-user"]
    return (["unshare"] + user + ["--mount", "--pid", "--fork", proc,
                                  "sh", "-c", BIND, "sh", d, tmp]
            + ENV + cmd)


def sources(suite, mirror, security):
    """The chroot's deb822 apt sources: SUITE, its -updates and
    -backports from MIRROR, -security from SECURITY."""
    return ("Types: deb\nURIs: %s\nSuites: %s %s-updates %s-backports\nComponents: main\n"
            "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n\n"
            "Types: deb\nURIs: %s\nSuites: %s-security\nComponents: main\n"
            "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n"
            % (mirror, suite, suite, suite, security, suite))


def lists_fresh(d, now=None):
    """Whether a package list in chroot D is younger than LISTS_AGE."""
    lists = os.path.join(d, "var", "lib", "apt", "lists")
    now = time.time() if now is None else now
    try:
        names = os.listdir(lists)
    except OSError:
        return False
    return any("Packages" in n and now - os.path.getmtime(os.path.join(lists, n)) < LISTS_AGE
               for n in names)


def apt_get(cache, suite, args, run=subprocess.run):
    """apt-get -y -qq --no-install-recommends ARGS in SUITE's chroot, one
    at a time, its output in CACHE/chroot-SUITE-apt.log, whose last 30
    lines are printed if it failed; its status."""
    return apt.get(args, os.path.join(cache, "chroot", suite + ".apt.lock"),
                   os.path.join(cache, "chroot-%s-apt.log" % suite),
                   lambda cmd: argv(cache, suite, cmd), run)


def ensure(cache, suite, etc="/etc/apt", run=subprocess.run):
    """Makes SUITE's chroot if it is not ready, or refreshes its package
    lists if they are old; raises Error.  RUN runs every command."""
    def quiet(cmd):
        return run(cmd, stdout=subprocess.DEVNULL, check=False).returncode
    d = chroot_dir(cache, suite)
    with locked(os.path.join(cache, "chroot", suite + ".lock")):
        if os.path.isfile(os.path.join(d, ".st-ready")):
            if not lists_fresh(d):
                log("apt-get update in the %s chroot" % suite)
                if quiet(argv(cache, suite, ["apt-get", "update", "-qq"])) != 0:
                    raise Error("apt-get update in the %s chroot failed" % suite)
            return
        mirror = apt.mirror("bookworm", etc)
        security = apt.mirror("bookworm-security", etc, "security mirror")
        log("debootstrap %s into %s (from %s)" % (suite, d, mirror))
        if os.path.lexists(d):
            # --one-file-system: a mount left below it is not followed
            run(["rm", "-rf", "--one-file-system", d], check=False)
        lf = os.path.join(cache, "chroot-%s-debootstrap.log" % suite)
        with open(lf, "w") as out:
            rc = run(["debootstrap", "--variant=minbase", suite, d, mirror],
                     stdout=out, stderr=subprocess.STDOUT, check=False).returncode
        if rc != 0:
            tail(lf)
            raise Error("debootstrap %s failed" % suite)
        try:
            os.unlink(os.path.join(d, "etc", "apt", "sources.list"))
        except FileNotFoundError:
            pass
        with open(os.path.join(d, "etc", "apt", "sources.list.d", "debian.sources"), "w") as f:
            f.write(sources(suite, mirror, security))
        # package scripts start no daemons in the chroot
        rcd = os.path.join(d, "usr", "sbin", "policy-rc.d")
        with open(rcd, "w") as f:
            f.write("#!/bin/sh\nexit 101\n")
        os.chmod(rcd, 0o755)
        if quiet(argv(cache, suite, ["apt-get", "update", "-qq"])) != 0:
            raise Error("apt-get update in the %s chroot failed" % suite)
        if apt_get(cache, suite, ["install"] + PKGS, run) != 0:
            raise Error("installing build tools in the %s chroot failed" % suite)
        open(os.path.join(d, ".st-ready"), "w").close()


def make(cache, suite):
    """ensure(), debootstrap installed first on the host if the chroot
    is to be made."""
    if not os.path.isfile(os.path.join(chroot_dir(cache, suite), ".st-ready")) and \
            not shutil.which("debootstrap"):
        host.install(cache, ["debootstrap"])
    ensure(cache, suite)


def install(cache, suite, args, is_installed=apt.installed, run=subprocess.run):
    """Installs into SUITE's chroot the packages of ARGS ([-t RELEASE]
    PKG...) that are missing, taking the chroot's lock; its status."""
    opts, pkgs = apt.release(args)
    missing = [p for p in pkgs if not is_installed(p, chroot_dir(cache, suite))]
    if not missing:
        return 0
    with locked(os.path.join(cache, "chroot", suite + ".lock")):
        log("installing %s in the %s chroot" % (" ".join(missing), suite))
        return apt_get(cache, suite, ["-o", "DPkg::Lock::Timeout=300", "install"] + opts + missing,
                       run)


def execute(line):
    """Becomes LINE's program, with the signal dispositions a shell
    would give it: Python ignores SIGPIPE and SIGXFSZ, and exec would
    pass that on (a writer into "| head" would fail with EPIPE instead
    of ending)."""
    sys.stdout.flush()
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    signal.signal(signal.SIGXFSZ, signal.SIG_DFL)
    os.execvp(line[0], line)


def _run(cache, suite, *cmd):
    execute(argv(cache, suite, list(cmd), os.environ.get("ST_CHROOT_TMP", ""),
                  os.geteuid() == 0))


def main(args):
    return cli(args[1:], __doc__, {
        "run": (lambda n: n > 2, _run),
        "install": (lambda n: n > 2,
                    lambda cache, suite, *words: 1 if install(cache, suite, list(words)) else 0),
    })


if __name__ == "__main__":
    sys.exit(main(sys.argv))
