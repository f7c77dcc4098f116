# SPDX-License-Identifier: GPL-2.0
"""The machine make check runs on: Debian 12 and the packages the bench
needs there (lib.sh st_ensure_host, st_apt_install, strunner.runner).

    python3 -m strunner.host ensure CACHE
    python3 -m strunner.host install CACHE [-t RELEASE] PKG...
    python3 -m strunner.host state
    python3 -m strunner.host unchanged BEFORE

"ensure" refuses any system but Debian 12, where it would add foreign
apt suites; adds bookworm-backports from the machine's own bookworm
mirror when no source has it (never trixie: it would drag libc to Debian
13); installs what of PKGS is missing, and qemu from bookworm-backports.
"install" installs what of PKG is missing.  apt runs one at a time
(CACHE/apt-host.lock: kernel jobs run in parallel and apt refuses to wait
for its own lock), and the package lists are updated at most once in
UPDATE_AGE unless a source was added or they are missing.  "state"
prints what a user may have of sched_tune on this machine, which make
check must leave as it found it; "unchanged" prints the record of that
check (strunner.records) against BEFORE, what "state" printed at the
start (strunner.runner, at the end).  Errors print "error: ..." and exit 1.
"""

import difflib
import glob
import hashlib
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

from strunner import Error, apt, cli, locked, log, read_lines, records

# what the bench needs on the host: the guests' userland and tools, the
# initramfs, the module's DKMS and signing tests
PKGS = ["busybox-static", "rt-tests", "dkms", "cpio", "zstd", "kmod", "gcc", "make",
        "libc6-dev", "binutils", "ca-certificates", "debian-archive-keyring", "dpkg-dev",
        "openssl", "python3"]

# seconds after an apt-get update in which no other is run
UPDATE_AGE = 3600

BACKPORTS = ("Types: deb\nURIs: %s\nSuites: bookworm-backports\nComponents: main\n"
             "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n")


def debian12(path="/etc/os-release"):
    """Raises Error unless PATH says Debian 12."""
    fields = {}
    for line in read_lines(path):
        key, sep, value = line.partition("=")
        if sep:
            try:
                fields[key] = " ".join(shlex.split(value))
            except ValueError:
                fields[key] = value
    if fields.get("ID") != "debian" or fields.get("VERSION_CODENAME") != "bookworm":
        raise Error("the test bench is written for Debian 12 (bookworm) and this is %s: "
                    "refusing to add apt suites or install packages here"
                    % (fields.get("PRETTY_NAME") or "an unknown OS"))


def add_backports(etc="/etc/apt"):
    """Adds a source for bookworm-backports from ETC's bookworm mirror
    unless ETC has one; whether it added it."""
    if apt.uri("bookworm-backports", etc):
        return False
    mirror = apt.mirror("bookworm", etc)
    log("adding bookworm-backports from %s" % mirror)
    with open(os.path.join(etc, "sources.list.d", "bookworm-backports.sources"), "w") as f:
        f.write(BACKPORTS % mirror)
    return True


def _lock(cache):
    return os.path.join(cache, "apt-host.lock")


def update(cache, force=False, run=subprocess.run, now=None):
    """apt-get update, unless one ran less than UPDATE_AGE ago and
    FORCE is not given."""
    stamp = os.path.join(cache, "apt-updated")
    now = time.time() if now is None else now
    try:
        if not force and now - os.path.getmtime(stamp) < UPDATE_AGE:
            return
    except OSError:
        pass
    log("apt-get update")
    with locked(_lock(cache)):
        rc = run(["apt-get", "update", "-qq"], stdout=subprocess.DEVNULL,
                 check=False).returncode
    if rc != 0:
        raise Error("apt-get update failed")
    with open(stamp, "w"):
        pass


def install(cache, args, is_installed=apt.installed, run=subprocess.run):
    """Installs the packages of ARGS ([-t RELEASE] PKG...) that are
    missing."""
    opts, pkgs = apt.release(args)
    missing = [p for p in pkgs if not is_installed(p)]
    if not missing:
        return
    update(cache, run=run)
    log("installing %s" % " ".join(missing))
    if apt.get(["install"] + opts + missing, _lock(cache),
               os.path.join(cache, "apt-install.log"), run=run) != 0:
        raise Error("apt-get install %s failed" % " ".join(missing))


def ensure_qemu(cache, version=lambda: apt.query("qemu-system-x86", "Version"),
                run=subprocess.run):
    """qemu from bookworm-backports (10.x), not bookworm's 7.2: under
    7.2's multi-threaded TCG a vCPU can run stale code across ftrace's
    text_poke_bp (an "Oops: int3" at a patched call site while another
    vCPU loads or unloads an ftrace user under load, 3 runs out of 3
    with a minimal ftrace module); 10.0 passed the same stress."""
    if "bpo" in version():
        return
    update(cache, run=run)
    log("installing qemu-system-x86 from bookworm-backports")
    if apt.get(["install", "-t", "bookworm-backports", "qemu-system-x86"], _lock(cache),
               os.path.join(cache, "apt-qemu.log"), run=run) != 0:
        raise Error("installing qemu from bookworm-backports failed")


def ensure(cache, etc="/etc/apt", lists="/var/lib/apt/lists"):
    """The host checked and made ready for make check."""
    debian12()
    os.makedirs(cache, exist_ok=True)
    added = add_backports(etc)
    # apt-cache needs package lists; a fresh container may have none
    if added or not glob.glob(os.path.join(lists, "*bookworm-backports*Packages*")):
        update(cache, force=True)
    install(cache, PKGS)
    ensure_qemu(cache)


# where a user's sched_tune lives: DKMS's registration, source trees and
# signing key, modprobe's and the boot's configuration, installed modules
STATE_PATHS = ("var/lib/dkms/sched-tune", "usr/src/sched-tune-*", "var/lib/dkms/mok.key",
               "var/lib/dkms/mok.pub", "etc/modprobe.d", "etc/modules-load.d", "etc/modules",
               "lib/modules")
_OURS = re.compile(r"sched[-_]tune|/mok\.[^/]*$")


def _walk(path):
    """PATH and everything below it, on PATH's file system."""
    yield path
    if os.path.isdir(path) and not os.path.islink(path):
        dev = os.lstat(path).st_dev
        for d, dirs, names in os.walk(path):
            dirs[:] = sorted(x for x in dirs if os.lstat(os.path.join(d, x)).st_dev == dev)
            for n in sorted(dirs + names):
                yield os.path.join(d, n)


def _describe(path):
    st = os.lstat(path)
    kind = "l" if os.path.islink(path) else "d" if os.path.isdir(path) else "f"
    line = "%s %s %s %d %.0f" % (path, kind, os.readlink(path) if kind == "l" else "",
                                 st.st_size, st.st_mtime_ns / 1e9)
    if kind == "f":
        try:
            with open(path, "rb") as f:
                line += " sha256:" + hashlib.sha256(f.read()).hexdigest()
        except OSError as e:
            line += " unreadable: %s" % e.strerror
    return line


def state(root="/", run=subprocess.run):
    """What a user may have of sched_tune under ROOT: the packages'
    states, DKMS's status, and each file or directory of STATE_PATHS
    whose path names sched_tune or DKMS's key, with its size, time and
    checksum; and the lines of modules.dep and /etc/modules that name
    it."""
    out = []
    for pkg in ("sched-tune-dkms", "sched-tune-bench"):
        v = apt.query(pkg, "Version", root)
        if v:
            out.append("%s %s %s" % (pkg, v, apt.query(pkg, "db:Status-Abbrev", root)))
    if root == "/" and shutil.which("dkms"):
        p = run(["dkms", "status"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                check=False)
        out += [x for x in p.stdout.splitlines() if "sched" in x.lower()]
    for pattern in STATE_PATHS:
        for top in sorted(glob.glob(os.path.join(root, pattern))):
            out += [_describe(p) for p in _walk(top) if _OURS.search(p)]
    for path in sorted(glob.glob(os.path.join(root, "lib/modules/*/modules.dep"))) + \
            [os.path.join(root, "etc/modules")]:
        out += ["%s: %s" % (path, x) for x in read_lines(path) if "sched_tune" in x]
    return out


def _state():
    for line in state():
        print(line)


def unchanged(before, now):
    """The result of the machine's own sched_tune state: NOW (state())
    against BEFORE, and what differs."""
    desc = "the machine's own sched_tune state is unchanged"
    if now == before:
        yield "R", "pass", "%s (%d entries: DKMS, /usr/src, modules, key, package, config)" % (
            desc, len([x for x in before if x]))
        return
    yield "R", "fail", desc
    for line in difflib.unified_diff(before, now, "before", "after", lineterm="", n=0):
        yield "C", "  " + line


def main(argv):
    return cli(argv[1:], __doc__, {
        "ensure": (1, ensure),
        "install": (lambda n: n > 1, lambda cache, *args: install(cache, list(args))),
        "state": (0, _state),
        "unchanged": (1, lambda before: records(unchanged(read_lines(before), state()))),
    })


if __name__ == "__main__":
    sys.exit(main(sys.argv))
