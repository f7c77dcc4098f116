# SPDX-License-Identifier: GPL-2.0
"""The kernels make check tests, resolved from Debian's package lists
(lib.sh st_kernel_suite, st_kernel_env, st_resolve_kver,
st_ensure_headers, st_fetch_vmlinuz; strunner.plan and runner).

    python3 -m strunner.kernels suite NAME
    python3 -m strunner.kernels names
    python3 -m strunner.kernels env KVER
    python3 -m strunner.kernels resolve CACHE NAME
    python3 -m strunner.kernels newer CACHE GATE_TABLE
    python3 -m strunner.kernels fetch CACHE KVER
    python3 -m strunner.kernels headers CACHE KVER

A kernel is named by its suites and meta package (NAMES), never by a
version: "resolve" reads the meta package's highest version among those
suites with apt-cache, in the chroot of the kernel's Debian release
(CACHE/chroot/ENV, which root makes first; a user who is not root reads
it as it is), and prints the kernel release its Depends names, e.g.
6.12.95+deb12-amd64.  "env" prints the Debian release whose chroot
builds for KVER.  "newer" prints a line for each series the support
gate knows whose newest Debian image is past the sublevels it checked.
"fetch" downloads KVER's image package in its chroot and keeps its
kernel image as CACHE/kernels/KVER/vmlinuz.  "headers" makes KVER's
chroot if need be and installs linux-headers-KVER there if it is not,
from the release's backports when that is where the package lives.
Errors print "error: ..." and exit 1.
"""

import contextlib
import glob
import os
import re
import shutil
import subprocess
import sys

from strunner import Error, chroot, cli, log, read_text

# NAME: (Debian release whose chroot builds it, meta package, the suites
# its version is taken from, as "SUITE/" in apt-cache madison's third
# field); NAME-cloud is the same with the meta package's -cloud-amd64
# twin (linux-headers-cloud-amd64, linux-headers-6.12-cloud-amd64)
NAMES = {
    "stable": ("bookworm", "linux-headers-amd64",
               "(bookworm|bookworm-security|bookworm-updates)/"),
    "backports": ("bookworm", "linux-headers-amd64", "bookworm-backports/"),
    "security612": ("bookworm", "linux-headers-6.12-amd64",
                    "bookworm-security/"),
    "trixie": ("trixie", "linux-headers-amd64",
               "(trixie|trixie-security|trixie-updates)/"),
    "trixie-backports": ("trixie", "linux-headers-amd64",
                         "trixie-backports/"),
}


def suite(name):
    """(ENV, META, SUITE-PATTERN) of a kernel NAME, or None."""
    cloud = name.endswith("-cloud")
    spec = NAMES.get(name[:-len("-cloud")] if cloud else name)
    if spec is None:
        return None
    env, meta, pat = spec
    if cloud:
        meta = meta[:-len("amd64")] + "cloud-amd64"
    return env, meta, pat


def env(kver):
    """The Debian release whose chroot builds modules for KVER: never
    the host, so that no kernel headers (which pull the kernel image, a
    new boot entry) land on the machine that runs the bench."""
    return "trixie" if "+deb13" in kver else "bookworm"


def headers_dir(cache, kver):
    """Where KVER's headers are, as the host sees them: in its
    release's chroot under CACHE."""
    return os.path.join(chroot.chroot_dir(cache, env(kver)), "usr", "src", "linux-headers-" + kver)


def known():
    """Every name suite() takes, in the table's order."""
    return list(NAMES) + [n + "-cloud" for n in NAMES]


def madison(text):
    """apt-cache madison's lines as (VERSION, WHERE) pairs, WHERE the
    archive field ("http://... bookworm-backports/main amd64 Packages")."""
    out = []
    for line in text.splitlines():
        fields = line.split("|")
        if len(fields) >= 3:
            out.append((fields[1].strip(), fields[2].strip()))
    return out


def version_gt(a, b):
    """Whether Debian version A is greater than B (dpkg's own rule)."""
    return subprocess.run(["dpkg", "--compare-versions", a, "gt", b],
                          check=False).returncode == 0


def apt_cache(cache, env, args, quiet=False):
    """apt-cache ARGS in ENV's chroot (ENV "host": on the machine), its
    standard output ("" if it failed); its errors on ours unless
    QUIET."""
    cmd = ["apt-cache"] + args
    if env != "host":
        cmd = chroot.argv(cache, env, cmd, root=os.geteuid() == 0)
    return subprocess.run(cmd, stdout=subprocess.PIPE, text=True, check=False,
                          stderr=subprocess.DEVNULL if quiet else None).stdout


def resolve(name, run):
    """The kernel release NAME resolves to; RUN(ENV, ARGS) is apt-cache."""
    spec = suite(name)
    if spec is None:
        raise Error("unknown kernel name '%s' (known: %s)" % (name, " ".join(known())))
    env, meta, pat = spec
    best = ""
    for ver, where in madison(run(env, ["madison", meta])):
        if re.search(" " + pat, " " + where) and \
                (not best or version_gt(ver, best)):
            best = ver
    if not best:
        raise Error("no %s in the suites of '%s' (apt-get update?)" % (meta, name))
    m = re.search(r"^Depends:.*?linux-headers-([0-9][^\s,]*)",
                  run(env, ["show", "%s=%s" % (meta, best)]), re.M)
    if not m:
        raise Error("cannot parse Depends of %s=%s" % (meta, best))
    return m.group(1)


def resolve_in(cache, name):
    """resolve() NAME in the chroot of its release under CACHE, which
    root makes first; a user who is not root reads it as it is."""
    spec = suite(name)
    if spec and os.geteuid() == 0:
        chroot.make(cache, spec[0])
    return resolve(name, lambda env, a: apt_cache(cache, env, a))


# the packages that carry KVER's image, the unsigned one first
IMAGES = ("linux-image-%s-unsigned", "linux-binary-unsigned-%s",
          "linux-binary-%s", "linux-image-%s")


def fetch(cache, env, kver):
    """CACHE/kernels/KVER/vmlinuz, downloaded in ENV's chroot if it is
    not there yet; raises Error if no package of IMAGES had one."""
    d = os.path.join(cache, "kernels", kver)
    image = os.path.join(d, "vmlinuz")
    if os.path.isfile(image):
        return image
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(os.path.join(d, "x"))
    inside = "/tmp/st-dl-" + kver
    dl = chroot.chroot_dir(cache, env) + inside
    shutil.rmtree(dl, ignore_errors=True)
    os.makedirs(dl)

    def run(cmd):
        return subprocess.run(chroot.argv(cache, env, cmd), stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, check=False).returncode == 0
    # the package may be unknown until the lists are fresh: once more
    # after apt-get update
    for _ in range(2):
        if any(run(["sh", "-c", "cd %s && apt-get download -qq %s" % (inside, p % kver)])
               for p in IMAGES):
            break
        run(["apt-get", "update", "-qq"])
    for deb in sorted(glob.glob(os.path.join(dl, "*.deb"))):
        subprocess.run(["dpkg", "-x", deb, os.path.join(d, "x")], check=False)
    found = sorted(glob.glob(os.path.join(d, "x", "boot", "vmlinuz*")) +
                   glob.glob(os.path.join(d, "x", "usr", "lib", "modules", kver, "vmlinuz*")))
    if not found:
        raise Error("cannot download the image of %s" % kver)
    shutil.copyfile(found[0], image)
    shutil.rmtree(os.path.join(d, "x"))
    shutil.rmtree(dl)
    return image


def headers(cache, env, kver):
    """linux-headers-KVER in ENV's chroot, installed (the chroot made
    first) if it is not there; raises Error."""
    makefile = os.path.join(headers_dir(cache, kver), "Makefile")
    if os.path.isfile(makefile):
        return
    chroot.make(cache, env)
    pkg = "linux-headers-" + kver
    t = []
    if "-backports/" in apt_cache(cache, env, ["madison", pkg]):
        t = ["-t", env + "-backports"]
    log("installing %s in the %s chroot" % (pkg, env))
    if chroot.apt_get(cache, env, ["install"] + t + [pkg]) != 0:
        raise Error("installing %s in the %s chroot failed" % (pkg, env))
    if not os.path.isfile(makefile):
        raise Error("headers for %s missing" % kver)


GATE_RANGE = re.compile(r"^ST_GATE_RANGE\([a-z_]*, *([0-9]+), *([0-9]+), *[0-9]+, *([0-9]+)\)$")


def gate_last(table):
    """{SERIES: the lowest last sublevel over the features} of the gate's
    table (module/kernel/gate_checked.h)."""
    last = {}
    for line in read_text(table).splitlines():
        m = GATE_RANGE.match(line)
        if m:
            series, sub = "%s.%s" % (m.group(1), m.group(2)), int(m.group(3))
            last[series] = min(sub, last.get(series, sub))
    return last


def newer(last, envs, run, log=print):
    """Lines for each series of LAST whose newest Debian 12 or 13 image
    (in bookworm, trixie and their -backports and -security, read in the
    ENVS' package lists by RUN) is past the sublevel the gate checked:
      # kernel newer than the gate knows: 6.12 6.12.119-1 (checked up to 118)
    """
    if not last:
        return []
    image = re.compile(r"^linux-image-(%s)\.[0-9].*-amd64$"
                       % "|".join(re.escape(s) for s in last))
    best = {}
    for env in envs:
        # the versioned images (a name of 6.1 carries the ABI, not the
        # sublevel: the version does)
        pkgs = [p for p in run(env, ["pkgnames", "linux-image-"]).split() if image.match(p)]
        if not pkgs:
            continue
        for ver, where in madison(run(env, ["madison"] + pkgs)):
            if not re.search(r" (bookworm|trixie)(-backports|-security)?/", " " + where):
                continue
            m = re.match(r"([0-9]+\.[0-9]+)\.([0-9]+)", ver)
            if not m or m.group(1) not in last:
                continue
            series, sub = m.group(1), int(m.group(2))
            # by sublevel; dpkg only between two uploads of one
            old = best.get(series)
            if old is None or sub > old[1] or (sub == old[1] and version_gt(ver, old[0])):
                best[series] = (ver, sub)
    lines = ["# kernel newer than the gate knows: %s %s (checked up to %d)"
             % (s, best[s][0], last[s]) for s in best if best[s][1] > last[s]]
    return sorted(lines, key=lambda x: [int(n) for n in re.findall(r"[0-9]+", x)])


def _suite(name):
    spec = suite(name)
    if spec is None:
        return 1
    print(" ".join(spec))
    return 0


def _resolve(cache, name):
    # what making the chroot says on stderr: stdout is the answer
    with contextlib.redirect_stdout(sys.stderr):
        kver = resolve_in(cache, name)
    print(kver)


def _newer(cache, table):
    last = gate_last(table)
    if not last:
        print("# newer kernels: no ST_GATE_RANGE line in %s" % table)
        return
    # the machine's own lists for Debian 12 until its chroot is made
    envs = ["bookworm"]
    if not os.path.isfile(os.path.join(chroot.chroot_dir(cache, "bookworm"), ".st-ready")):
        envs = ["host"]
    if os.path.isfile(os.path.join(chroot.chroot_dir(cache, "trixie"), ".st-ready")):
        envs.append("trixie")
    else:
        print("# newer kernels: no trixie chroot, its kernels not looked at")
    for line in newer(last, envs, lambda env, a: apt_cache(cache, env, a, True)):
        print(line)


def _fetch(cache, kver):
    fetch(cache, env(kver), kver)


def main(argv):
    return cli(argv[1:], __doc__, {
        "suite": (1, _suite),
        "names": (0, lambda: print(" ".join(known()))),
        "env": (1, lambda kver: print(env(kver))),
        "fetch": (2, _fetch),
        "headers": (2, lambda cache, kver: headers(cache, env(kver), kver)),
        "resolve": (2, _resolve),
        "newer": (2, _newer),
    })


if __name__ == "__main__":
    sys.exit(main(sys.argv))
