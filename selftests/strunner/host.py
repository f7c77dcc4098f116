# SPDX-License-Identifier: GPL-2.0
"""The machine make check runs on: Debian 12 and the packages the bench
needs there (lib.sh st_ensure_host, st_apt_install, st_apt_update).

    python3 -m strunner.host ensure CACHE
    python3 -m strunner.host install CACHE [-t RELEASE] PKG...
    python3 -m strunner.host update CACHE

"ensure" refuses any system but Debian 12, where it would add foreign
apt suites; adds bookworm-backports from the machine's own bookworm
mirror when no source has it (never trixie: it would drag libc to Debian
13); installs what of PKGS is missing, and qemu from bookworm-backports.
"install" installs what of PKG is missing.  apt runs one at a time
(CACHE/apt-host.lock: kernel jobs run in parallel and apt refuses to wait
for its own lock), and the package lists are updated at most once in
UPDATE_AGE unless a source was added or they are missing.  Errors print
"error: ..." and exit 1.
"""

import glob
import os
import shlex
import subprocess
import sys
import time

from strunner import Error, apt, locked, read_lines

# what the bench needs on the host: the guests' userland and tools, the
# initramfs, the module's DKMS and signing tests
PKGS = ["busybox-static", "rt-tests", "dkms", "cpio", "zstd", "kmod", "gcc", "make",
        "libc6-dev", "binutils", "ca-certificates", "debian-archive-keyring", "dpkg-dev",
        "openssl", "python3"]

# seconds after an apt-get update in which no other is run
UPDATE_AGE = 3600

BACKPORTS = ("Types: deb\nURIs: %s\nSuites: bookworm-backports\nComponents: main\n"
             "Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg\n")


def log(text):
    print("# " + text, flush=True)


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
    opts = args[:2] if args[:1] == ["-t"] else []
    missing = [p for p in args[len(opts):] if not is_installed(p)]
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


def main(argv):
    cmd = argv[1] if len(argv) > 1 else ""
    try:
        if cmd == "ensure" and len(argv) == 3:
            ensure(argv[2])
        elif cmd == "install" and len(argv) > 3:
            install(argv[2], argv[3:])
        elif cmd == "update" and len(argv) == 3:
            update(argv[2])
        else:
            sys.exit(__doc__.split("\n\n")[1])
    except Error as e:
        print("error: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
