# SPDX-License-Identifier: GPL-2.0
"""What the guests boot from: their static helpers, the sched_ext test
scheduler and the initramfs tree (lib.sh st_build_helpers, strunner.kjob,
st_build_initramfs).

    python3 -m strunner.image helpers ROOT BUILD
    python3 -m strunner.image scx CACHE ROOT BUILD
    python3 -m strunner.image has-scx CACHE KVER
    python3 -m strunner.image tree CACHE ROOT SRC BUILD KVER KO DIR

"helpers": the selftests' C helpers (ROOT/selftests/helpers) and the
bench's NUMA workload built static into BUILD/helpers, again only where
the source is newer.  "scx": the smallest sched_ext scheduler and its
loader (ROOT/selftests/scx) built in the Debian 13 chroot (clang,
libbpf) into BUILD/scx, with the chroot's libraries the loader needs in
BUILD/scx/lib, once; "has-scx" exits 0 if KVER was built with
sched_ext.  "tree": the initramfs's files in DIR: busybox,
hackbench, kmod's tools, the helpers, the guest scripts, the module KO
(also where DKMS installs it, indexed by depmod, with the package's
example options file; none if KO is ""), the test modules, livepatch and
sched_ext scheduler built for KVER, /st/kver and /st/version (SRC's
debian/changelog).  copy() puts a binary and the libraries ldd names at
their paths under a tree (the bench's guest too).  Errors print
"error: ..." and exit 1.
"""

import glob
import os
import re
import shutil
import subprocess
import sys

from strunner import Error, apt, chroot, cli, kernels, log, read_lines

# what the sched_ext build needs in the Debian 13 chroot
SCX_PKGS = ["clang", "libbpf-dev"]

# kmod's tools, as links to kmod: busybox's insmod retries a failed
# finit_module with init_module, so a rejected load would run module
# init (and log) twice
KMOD_TOOLS = ("insmod", "rmmod", "lsmod", "modinfo", "modprobe", "depmod")


def _run(cmd, what):
    """CMD run; raises Error naming WHAT if it failed."""
    if subprocess.run(cmd, check=False).returncode != 0:
        raise Error("%s failed" % what)


def helpers(root, build):
    """BUILD/helpers made from their sources where missing or older."""
    out = os.path.join(build, "helpers")
    os.makedirs(out, exist_ok=True)
    tests = os.path.join(root, "selftests")
    header = os.path.join(tests, "helpers", "st_sched.h")
    for src in sorted(glob.glob(os.path.join(tests, "helpers", "*.c"))) + \
            [os.path.join(root, "bench", "stbench", "st_numa_work.c")]:
        binary = os.path.join(out, os.path.basename(src)[:-2])
        if os.access(binary, os.X_OK) and \
                os.path.getmtime(binary) >= max(os.path.getmtime(src), os.path.getmtime(header)):
            continue
        _run(["gcc", "-static", "-O2", "-Wall", "-Wextra", "-Werror", "-o", binary, src],
             "gcc -static " + src)


def _libs(ldd_output):
    """The paths ldd's output names."""
    return re.findall(r"(/[^ \t\n]*)", ldd_output)


def scx(cache, root, build):
    """BUILD/scx: st_scx_load, st_scx_min.bpf.o, lib/ (see above)."""
    out = os.path.join(build, "scx")
    if all(os.path.isfile(os.path.join(out, n)) for n in ("st_scx_load", "st_scx_min.bpf.o")):
        return
    chroot.make(cache, "trixie")
    top = chroot.chroot_dir(cache, "trixie")
    # A 7.x kernel's headers bring libelf1t64 from trixie-backports, and
    # libbpf-dev's libelf-dev from trixie wants its own: apt's solver
    # gives up.  libelf-dev of the libelf already there keeps the pair
    # matched.
    elf = apt.query("libelf1t64", "Version", top)
    if chroot.apt_get(cache, "trixie", ["install"] + SCX_PKGS +
                      (["libelf-dev=" + elf] if elf else [])) != 0:
        raise Error("installing %s in the trixie chroot failed" % " ".join(SCX_PKGS))
    d = os.path.join(top, "tmp", "st-scx")
    shutil.rmtree(d, ignore_errors=True)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(os.path.join(out, "lib"))
    shutil.copytree(os.path.join(root, "selftests", "scx"), d,
                    ignore=lambda _, names: [n for n in names if not n.endswith(".c")])
    try:
        _run(chroot.argv(cache, "trixie", [
            "sh", "-c", "cd /tmp/st-scx && "
            "clang -target bpf -O2 -g -Wall -Werror -c st_scx_min.bpf.c -o st_scx_min.bpf.o && "
            "gcc -O2 -Wall -Wextra -Werror -o st_scx_load st_scx_load.c -lbpf"]),
             "the sched_ext scheduler's build in the trixie chroot")
        for n in ("st_scx_load", "st_scx_min.bpf.o"):
            shutil.copy(os.path.join(d, n), out)
        ldd = subprocess.run(chroot.argv(cache, "trixie", ["ldd", "/tmp/st-scx/st_scx_load"]),
                             stdout=subprocess.PIPE, text=True, check=True).stdout
        for lib in _libs(ldd):
            shutil.copy(top + lib, os.path.join(out, "lib"))
    except (OSError, subprocess.CalledProcessError) as e:
        shutil.rmtree(out, ignore_errors=True)
        raise Error("the sched_ext build: %s" % e) from None
    finally:
        shutil.rmtree(d, ignore_errors=True)


def has_scx(cache, kver):
    """Whether KVER was built with sched_ext (its headers' .config)."""
    config = os.path.join(kernels.headers_dir(cache, kver), ".config")
    return "CONFIG_SCHED_CLASS_EXT=y" in read_lines(config)


def copy(binary, d):
    """BINARY and the libraries ldd names, at their paths under D."""
    for path in [binary] + _libs(subprocess.run(["ldd", binary], stdout=subprocess.PIPE,
                                               text=True, check=False).stdout):
        dst = d + path
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy(path, dst)


def _which(name, real=False):
    found = shutil.which(name)
    if not found:
        raise Error("no %s on this machine" % name)
    return os.path.realpath(found) if real else found


def version(changelog):
    """The version of a debian/changelog's first entry."""
    m = re.match(r"^\S+ \(([^)]*)\)", (read_lines(changelog, 1) or [""])[0])
    return m.group(1) if m else ""


def tree(cache, root, src, build, kver, ko, d):
    """The initramfs's files in D (see above)."""
    for sub in ("bin", "sbin", "usr/bin", "proc", "sys", "dev", "tmp", "st/bin"):
        os.makedirs(os.path.join(d, sub), exist_ok=True)
    tests = os.path.join(root, "selftests")
    shutil.copy("/bin/busybox", os.path.join(d, "bin", "busybox"))
    copy(_which("hackbench"), d)
    kmod = _which("kmod", real=True)
    copy(kmod, d)
    for t in KMOD_TOOLS:
        os.symlink(kmod, os.path.join(d, "sbin", t))
    for f in glob.glob(os.path.join(build, "helpers", "*")):
        shutil.copy(f, os.path.join(d, "st", "bin"))
    for f in glob.glob(os.path.join(tests, "guest", "*.sh")) + \
            [os.path.join(root, "Documentation", "ABI", "testing", "sysfs-kernel-sched_tune"),
             os.path.join(root, "README.md")]:
        shutil.copy(f, os.path.join(d, "st"))
    shutil.copy(os.path.join(tests, "guest", "init"), os.path.join(d, "init"))
    os.chmod(os.path.join(d, "init"), 0o755)
    if ko:
        shutil.copy(ko, os.path.join(d, "st", "sched_tune.ko"))
        # also where DKMS installs it, indexed by depmod, and the
        # package's example options file: modprobe as on a server
        updates = os.path.join(d, "lib", "modules", kver, "updates")
        os.makedirs(updates)
        os.makedirs(os.path.join(d, "etc", "modprobe.d"))
        shutil.copy(ko, os.path.join(updates, "sched_tune.ko"))
        if subprocess.run(["depmod", "-b", d, kver], stderr=subprocess.DEVNULL,
                          check=False).returncode != 0:
            log("depmod -b for %s failed: loading by name will fail in the guest" % kver)
        shutil.copy(os.path.join(src, "examples", "sched_tune.conf"),
                    os.path.join(d, "etc", "modprobe.d", "sched_tune.conf"))
        # the test livepatch, when one was built for this kernel
        lp = os.path.join(os.path.dirname(ko), "livepatch", "st_livepatch.ko")
        if os.path.isfile(lp):
            shutil.copy(lp, os.path.join(d, "st", "st_livepatch.ko"))
    # the test modules, when built for this kernel
    for f in glob.glob(os.path.join(build, kver, "kmod", "*.ko")):
        shutil.copy(f, os.path.join(d, "st"))
    if has_scx(cache, kver) and os.path.isfile(os.path.join(build, "scx", "st_scx_load")):
        shutil.copytree(os.path.join(build, "scx"), os.path.join(d, "st", "scx"))
    with open(os.path.join(d, "st", "kver"), "w") as f:
        f.write(kver + "\n")
    with open(os.path.join(d, "st", "version"), "w") as f:
        v = version(os.path.join(src, "debian", "changelog"))
        f.write(v + "\n" if v else "")


def main(argv):
    return cli(argv[1:], __doc__, {
        "helpers": (2, helpers),
        "scx": (3, scx),
        "tree": (7, tree),
        "has-scx": (2, lambda cache, kver: 0 if has_scx(cache, kver) else 1),
    }, (Error, OSError))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
