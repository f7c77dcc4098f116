# SPDX-License-Identifier: GPL-2.0
"""The Debian packages tested for real: make check's package stage
(selftests/pkg.sh says what it covers, and runs these).

    python3 -m strunner.pkg stage BUILD SRC CACHE
    python3 -m strunner.pkg debs BUILD SRC
    python3 -m strunner.pkg install SUITE BUILD SRC CACHE
    python3 -m strunner.pkg umount DIR

"stage": the whole stage, as make check runs it: the host's packaging
tools (HOST_TOOLS), then "debs" and each release's "install" under the
groups "pkg", "pkg Debian 12" and "pkg Debian 13"; ST_PKG=0 skips it.
"debs": make deb with this machine's (Debian 12) tools from the tree
SRC into BUILD/deb, lintian on each .deb, their contents, control
fields and dkms.conf (strunner.debpkg; BUILD/dkms.conf is the packaged
one).  "install": in a throwaway overlay of SUITE's cached chroot
(bookworm or trixie) holding the headers of its supported kernels and
of one it declines: for trixie, the .debs built again with its tools
and compared with Debian 12's; README.md's install of both through
autopkgtest (debian/tests), what apt would add with the Recommends,
each DKMS-built module's signature (kept for make check's guests in
BUILD/ko), the declined kernel named, apt purge leaving nothing; then
DKMS straight from the tree.  Each prints records (lib.sh st_records);
errors print "error: ..." and exit 1.  "umount": whatever is still
mounted below DIR (BUILD/pkg at the stage's end, or make check's).

Every install happens in the overlay, on top of the cached chroots
(CACHE/chroot/SUITE): the package, DKMS's work and the purge reach
neither the cached chroots nor the machine.
"""

import glob
import os
import re
import shutil
import subprocess
import sys
import time

from strunner import Error, apt, check, chroot, cli, comments, copy_tree, debpkg, found, host, \
    image, kernels, ktap, missing, modsig, read_lines, read_text, records, run_logged, stop_on_sigterm

T0 = float(os.environ.get("PKG_T0", time.time()))
# autopkgtest's environment, as a user's shell would have it
AUTOPKGTEST_ENV = ["PATH=/usr/sbin:/usr/bin:/sbin:/bin", "HOME=/root", "LC_ALL=C.UTF-8"]
LINTIAN = ["lintian", "--fail-on", "error,warning", "-I", "-E", "--pedantic"]
NAMES = {"bookworm": "Debian 12", "trixie": "Debian 13"}
# what the bench's Recommends pull in (debian/control), each resolved
BENCH_RECOMMENDS = [p for p in debpkg.BENCH_RECOMMENDS if p != "sched-tune-dkms"]
# what a snapshot of a root leaves out: the package manager's own
# bookkeeping, logs and caches (AppStream's catalog too, which Debian
# 13's apt-get update fetches, as autopkgtest runs it), the kernel's
# file systems and /tmp
SNAPSHOT_PRUNE = frozenset((
    "./proc", "./sys", "./dev", "./run", "./tmp", "./var/lib/dpkg", "./var/lib/apt",
    "./var/cache/apt", "./var/log", "./var/cache/debconf", "./var/cache/man",
    "./var/cache/ldconfig", "./var/cache/swcatalog", "./var/lib/swcatalog",
    "./var/lib/app-info"))
# new after a purge, and allowed: DKMS's signing key, depmod's indexes
# of kernels that had headers only (an installed kernel has them already)
PURGE_ALLOWED = re.compile(r"^\./var/lib/dkms/mok\.(key|pub)$|"
                           r"^\./(usr/)?lib/modules/[^/]*/modules\.[a-z.]*$")


# what the stage needs on the host (Debian 12): Debian's packaging tools
# (debian/control's Build-Depends), lintian, autopkgtest, debootstrap for
# the chroots, openssl for DKMS's key
HOST_TOOLS = ["build-essential", "debhelper", "dh-dkms", "dh-python", "pybuild-plugin-pyproject",
              "python3-setuptools", "lintian", "debootstrap", "dpkg-dev", "openssl", "xz-utils",
              "zstd", "autopkgtest"]


def say(text):
    """A record of a line for the log, with the stage's clock."""
    return "L", "[pkg, %d s] %s" % (time.time() - T0, text)


def out_in(root, cmd):
    """CMD's standard output in ROOT, stripped."""
    return subprocess.run(chroot.in_root(root, cmd), stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, text=True, check=False).stdout.strip()


def logged_in(root, cmd, log, append=True):
    """CMD's status in ROOT, its output added to LOG."""
    return run_logged(chroot.in_root(root, cmd), log, append)


def version_in(root, pkg):
    return out_in(root, ["dpkg-query", "-W", "-f=${Version}", pkg])


# --- overlays on the cached chroots ------------------------------------------

def overlay(cache, suite, ov):
    """A throwaway overlay of SUITE's chroot mounted at OV/root; what is
    written there lands in OV, and goes with it."""
    root = os.path.join(ov, "root")
    overlay_down(root)
    shutil.rmtree(ov, ignore_errors=True)
    for d in ("upper", "work", "root"):
        os.makedirs(os.path.join(ov, d))
    opts = "lowerdir=%s,upperdir=%s/upper,workdir=%s/work" % (
        chroot.chroot_dir(cache, suite), ov, ov)
    if subprocess.run(["mount", "-t", "overlay", "st-pkg", "-o", opts, root],
                      check=False).returncode != 0:
        raise Error("overlay on the %s chroot" % NAMES[suite])
    return root


def umount_below(path):
    """Unmounts whatever is still mounted below PATH, deepest first."""
    below = path.rstrip("/") + "/"
    points = (line.split()[1] for line in read_lines("/proc/mounts") if len(line.split()) > 1)
    for m in sorted((p for p in points if p.startswith(below)), reverse=True):
        subprocess.run(["umount", "-l", m], check=False)


def overlay_down(root):
    if os.path.ismount(root):
        subprocess.run(["umount", "-l", root], check=False)


# --- snapshots ----------------------------------------------------------------

def snapshot(root):
    """Every path of ROOT ("./..."), on its file system, but those of
    SNAPSHOT_PRUNE and below."""
    seen = {"."}
    dev = os.lstat(root).st_dev

    def walk(d, rel):
        for e in os.scandir(d):
            r = rel + "/" + e.name
            if r in SNAPSHOT_PRUNE:
                continue
            seen.add(r)
            if e.is_dir(follow_symlinks=False) and e.stat(follow_symlinks=False).st_dev == dev:
                walk(e.path, r)
    walk(root, ".")
    return seen


def new_since(root, before):
    """The paths of ROOT's overlay (overlay()) that its snapshot BEFORE
    did not hold, of those written through it: its upper layer's.  What
    another job installs meanwhile into the cached chroot below (a
    kernel's headers, the sched_ext build's clang on a cold cache) is
    not this stage's."""
    return snapshot(os.path.join(os.path.dirname(root), "upper")) - before


def leftovers(root, bench=True):
    """What a purge or a dkms remove must not leave in ROOT: the source
    trees, DKMS's entry, the bench's cache and stbench (BENCH), a module
    or its modules.dep line."""
    paths = ["usr/src/sched-tune*", "var/lib/dkms/sched-tune"]
    if bench:
        paths += ["var/cache/sched-tune-bench", "usr/lib/python3/dist-packages/stbench"]
    left = [p for pattern in paths for p in _glob(root, pattern)]
    for d, _, files in os.walk(os.path.join(root, "lib", "modules")):
        left += [os.path.relpath(os.path.join(d, f), root) for f in files
                 if f.startswith("sched_tune.ko")]
    left += [p for p in _glob(root, "lib/modules/*/modules.dep")
             if "sched_tune" in read_text(os.path.join(root, p))]
    return left


def _glob(root, pattern):
    return sorted(os.path.relpath(p, root) for p in glob.glob(os.path.join(root, pattern)))


# --- the .debs ------------------------------------------------------------------

def debs(build, src):
    """Yields the records of make deb on the host, lintian and the .debs'
    contents."""
    ver = version(src)
    out = os.path.join(build, "deb")
    deb, bdeb = ("%s/sched-tune-%s_%s_all.deb" % (out, p, ver) for p in ("dkms", "bench"))
    yield say("make deb (%s)" % ver)
    shutil.rmtree(out, ignore_errors=True)
    # the tree autopkgtest takes debian/tests from, this stage's
    shutil.rmtree(os.path.join(build, "src"), ignore_errors=True)
    log = os.path.join(build, "deb-bookworm.log")
    name = ("make deb builds sched-tune-dkms_%s_all.deb and sched-tune-bench_%s_all.deb "
            "(Debian 12" % (ver, ver))
    # the caller's environment, less what make check's Python runs with
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PKG_T0")}
    if run_logged(["make", "-C", src, "deb", "DEB_OUT=" + out], log, env=env) == 0 and \
            os.path.isfile(deb) and os.path.isfile(bdeb):
        yield check(name + ": debhelper %s, dh-dkms %s, dh-python %s)" % tuple(
            apt.query(p, "Version") for p in ("debhelper", "dh-dkms", "dh-python")), True)
    else:
        yield check(name + ")", False)
        yield from comments(read_lines(log)[-30:])
        return
    for d in (deb, bdeb):
        yield from lintian(LINTIAN + [d], d, apt.query("lintian", "Version"))
    yield from debpkg.contents(deb, src, ver, os.path.join(build, "dkms.conf"))
    yield from debpkg.contents_bench(bdeb, src, ver)
    yield from debpkg.kernels(os.path.join(build, "dkms.conf"))


def version(src):
    """debian/changelog's version."""
    ver = image.version(os.path.join(src, "debian", "changelog"))
    if not ver:
        raise Error("no version in %s/debian/changelog" % src)
    return ver


def lintian(cmd, deb, ver, where=""):
    """Records of lintian CMD on DEB: no error, no warning; its tags as
    comments."""
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       check=False)
    lines = [x for x in p.stdout.splitlines() if "running with root privileges" not in x]
    yield from comments(lines, "#   lintian: ")
    yield "L", "lintian on %s: %d info/pedantic/experimental tags" % (
        os.path.basename(deb), len([x for x in lines if re.match(r"[IPX]: ", x)]))
    yield check("lintian %s%s on %s: no error, no warning" % (ver, where, os.path.basename(deb)),
                p.returncode == 0 and not [x for x in lines if re.match(r"[EW]: ", x)])


# --- chroots --------------------------------------------------------------------

def chroot_kernels(cache, suite):
    """The kernels SUITE's chroot holds the headers of: its supported
    kernels, in both flavours, and one it declines, the rt flavour of
    one whose rt headers pull no kernel image (6.1's, 7.3's).  Returns
    (supported, unsupported)."""
    names = {"bookworm": ("stable", "backports", "stable-cloud", "backports-cloud"),
             "trixie": ("trixie", "trixie-backports", "trixie-cloud",
                        "trixie-backports-cloud")}[suite]
    ks = [kernels.resolve_in(cache, n) for n in names]
    return ks, [re.sub("-amd64$", "", ks[0 if suite == "bookworm" else 1]) + "-rt-amd64"]


def prepare_chroot(cache, suite, ks, unsup):
    """SUITE's cached chroot with DKMS, openssl (DKMS's signing key) and
    the headers of the kernels KS and UNSUP (chroot_kernels)."""
    def install(*args):
        if chroot.install(cache, suite, list(args)) != 0:
            raise Error("apt-get install %s in the %s chroot" % (" ".join(args), suite))
    bpo = ["-t", suite + "-backports", "linux-headers-" + ks[1], "linux-headers-" + ks[3]]
    if suite == "bookworm":
        # python3 (the bench), as on any Debian server: what purge leaves
        # behind is then the package's own doing
        install("dkms", "openssl", "python3", "apt-utils", "gcc", "libc6-dev", "kmod")
        install("linux-headers-" + ks[0], "linux-headers-" + ks[2])
        install(*bpo)
        install("linux-headers-" + unsup[0])
    else:
        install("dkms", "openssl", "python3", "apt-utils", "kmod", "build-essential",
                "debhelper", "dh-dkms", "dh-python", "pybuild-plugin-pyproject",
                "python3-setuptools", "lintian")
        install("linux-headers-" + ks[0], "linux-headers-" + ks[2])
        install(*bpo, "linux-headers-" + unsup[0])
    for k in ks + unsup:
        # the build links are absolute: resolve them in the chroot
        if subprocess.run(["chroot", chroot.chroot_dir(cache, suite), "test", "-e",
                           "/lib/modules/%s/build/include" % k], check=False).returncode:
            raise Error("no headers of %s in the %s chroot" % (k, suite))


# --- the modules DKMS built, for make check's guests ------------------------------
# Each supported kernel's module, as DKMS installed it and once its
# signature verified, in BUILD/ko/KVER/lib/<its path under
# /lib/modules/KVER>, with KVER/sha256 of that file and, written last,
# KVER/status: "verified", or why there is none.  run.sh waits for the
# status (pkg.sh pkg_ko_wait) and puts that very file in the guest's
# /lib/modules (pkg_initramfs_hook), where the modprobe unit loads it.

def ko_status(build, k, text):
    d = os.path.join(build, "ko", k)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "status.new"), "w") as f:
        f.write(text + "\n")
    os.rename(os.path.join(d, "status.new"), os.path.join(d, "status"))


def ko_keep(build, root, k, ko):
    """Records of KO (relative to ROOT) verified against ROOT's
    /var/lib/dkms/mok.pub and kept, with its status; returns the module
    and certificate kept, or None."""
    d = os.path.join(build, "ko", k)
    shutil.rmtree(d, ignore_errors=True)
    rel = os.path.relpath(ko, "lib/modules/" + k)
    f = os.path.join(d, "lib", rel)
    os.makedirs(os.path.dirname(f))
    shutil.copy(os.path.join(root, ko), f)
    cert = os.path.join(d, "mok.pub")
    name = ("%s: its signature verifies against /var/lib/dkms/mok.pub (openssl cms, over the "
            "module's bytes)" % k)
    try:
        shutil.copy(os.path.join(root, "var/lib/dkms/mok.pub"), cert)
    except OSError as e:
        yield "L", str(e)
        yield check(name, False)
        ko_status(build, k, "DKMS left no mok.pub to verify its module against (pkg results)")
        return
    subj = subprocess.run(["openssl", "x509", "-inform", "DER", "-in", cert, "-noout",
                           "-subject", "-serial", "-nameopt", "compat"],
                          stdout=subprocess.PIPE, text=True, check=False).stdout
    yield "L", "%s: /%s: signer '%s', sig_key %s; mok.pub: %s" % (
        k, ko, modsig.modinfo(f, "signer").strip(), modsig.modinfo(f, "sig_key").strip(),
        " ".join(subj.split("\n")))
    good, why = modsig.verify(f, cert)
    yield check(name, good)
    if not good:
        yield from [(x,) for x in why]
        ko_status(build, k, "its signature did not verify against DKMS's mok.pub (pkg results)")
        return
    p = subprocess.run(["sha256sum", rel], cwd=os.path.join(d, "lib"), stdout=subprocess.PIPE,
                       text=True, check=True)
    with open(os.path.join(d, "sha256"), "w") as out:
        out.write(p.stdout)
    ko_status(build, k, "verified")
    return f, cert


def ko_close(build, ks):
    """A status for each of KS that has none yet (a stage that stopped
    early)."""
    for k in ks:
        if not os.path.isfile(os.path.join(build, "ko", k, "status")):
            ko_status(build, k, "the package stage installed no module for it (pkg results)")


def installed_module(root, k):
    """The sched_tune.ko* DKMS installed for K in ROOT, relative to it,
    or ""."""
    for d, _, files in os.walk(os.path.join(root, "lib", "modules", k, "updates")):
        for f in sorted(files):
            if f.startswith("sched_tune.ko"):
                return os.path.relpath(os.path.join(d, f), root)
    return ""


# --- installs ---------------------------------------------------------------------

def autopkgtest(build, src, suite, root, deb, bdeb):
    """Records of the package's own tests (debian/tests: bench, with
    sched-tune-bench alone, then dkms, with both packages), run by
    autopkgtest with ROOT as its testbed (virt-chroot, each command with
    a /proc of its own).  autopkgtest installs each test's Depends, so
    that DKMS builds here, for every kernel whose headers ROOT holds.
    Every result of their KTAP counts, with autopkgtest's verdict on
    each test.  Its log is BUILD/autopkgtest-SUITE.log."""
    out = os.path.join(build, "autopkgtest-" + suite)
    shutil.rmtree(out, ignore_errors=True)
    tree = os.path.join(build, "src")
    if not os.path.isdir(tree):
        copy_tree(src, tree)
    log = out + ".log"
    rc = run_logged(["env", "-i"] + AUTOPKGTEST_ENV +
                    ["autopkgtest", "-B", "--output-dir=" + out, deb, bdeb, tree + "/", "--",
                     "chroot", "-r", "unshare --mount-proc=%s/proc" % root, root], log)
    summary = read_lines(os.path.join(out, "summary"))
    yield "L", "pkg %s: autopkgtest exited %d; its summary: %s" % (
        NAMES[suite], rc, "".join(x + ";" for x in summary))
    yield check("autopkgtest %s ran debian/tests, every test passed" %
                apt.query("autopkgtest", "Version"), rc == 0)
    if rc != 0:
        yield from comments([x for x in read_lines(log) if re.search(
            r"^(autopkgtest \[[^]]*\]: (ERROR|WARNING)|E: )|badpkg|blame", x)][:10])
    verdicts = dict(x.split()[:2] for x in summary if len(x.split()) >= 2)
    for t in ("bench", "dkms"):
        yield check("autopkgtest: %s PASS" % t, verdicts.get(t) == "PASS")
        plan, count = "", 0
        stdout = os.path.join(out, t + "-stdout")
        if os.path.isfile(stdout):
            for rec in ktap.parse(read_lines(stdout)):
                if rec[0] == "P":
                    plan, count = rec[1], rec[2]
                else:
                    yield rec
        yield check("autopkgtest: %s printed its plan and every result" % t,
                    plan != "" and plan == str(count))


def install_test(build, src, suite, root, deb, bdeb, ks, unsup):
    """Records of README.md's install of both packages through
    autopkgtest, then on the host: what apt would install with the
    Recommends, the modules' signatures (kept for make check's guests),
    the declined kernel named in the install's log, and apt purge
    leaving nothing behind."""
    g = "pkg " + NAMES[suite]
    if suite == "bookworm":
        # As on a running server: the running kernel is installed.  DKMS
        # 3.0 then builds only for it (no headers here) and the newest
        # kernel; the package's postinst builds for the others.
        os.makedirs(os.path.join(root, "lib", "modules", os.uname().release), exist_ok=True)
    before = snapshot(root)
    # README.md's install line installs the Recommends: each resolves
    # here (apt-get -s: installed already, or would be)
    shutil.copy(bdeb, os.path.join(root, "tmp"))
    p = subprocess.run(chroot.in_root(root, ["apt-get", "install", "-s",
                                             "./tmp/" + os.path.basename(bdeb)]),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False)
    os.unlink(os.path.join(root, "tmp", os.path.basename(bdeb)))
    sim = p.stdout.splitlines()
    lost = [n for n in BENCH_RECOMMENDS
            if not out_in(root, ["dpkg-query", "-W", "-f=${db:Status-Abbrev}", n])
            .startswith("ii") and not [x for x in sim if x.startswith("Inst %s " % n)]]
    yield missing("with its Recommends (apt install without --no-install-recommends), apt would "
                  "install rt-tests, linux-perf, dbench, gcc, python3-scipy and "
                  "python3-matplotlib", lost, " (not:%s)")
    if lost:
        yield from comments([x for x in sim if re.match(r"(E|W): ", x)][:5])
    yield say("%s: autopkgtest: bench (sched-tune-bench alone), dkms (both; DKMS builds for %s)"
              % (g, " ".join(ks)))
    yield from autopkgtest(build, src, suite, root, deb, bdeb)
    yield say("%s: autopkgtest done" % g)
    apt_log = read_lines(os.path.join(build, "autopkgtest-%s.log" % suite))
    start = next((i for i, x in enumerate(apt_log) if x.startswith("Setting up sched-tune-dkms")),
                 None)
    if start is not None:
        end = next((i for i, x in enumerate(apt_log[start:], start)
                    if x.startswith("Setting up autopkgtest-satdep")), len(apt_log) - 1)
        yield from comments([x for x in apt_log[start:end + 1]
                             if not re.match(r"^readelf: |^ *$", x)][:60], "#   apt: ")
    yield check("no DKMS deprecation warning about dkms.conf",
                not [x for x in apt_log if "deprecat" in x.lower()])
    tested = False
    for k in ks:
        ko = installed_module(root, k)
        if ko:
            kept = yield from ko_keep(build, root, k, ko)
            # the first module verified: the check can fail, too
            if not tested and kept:
                yield from modsig.selftest(*kept)
                tested = True
        else:
            yield check("%s: a module to verify and keep (DKMS installed none)" % k, False)
            ko_status(build, k, "DKMS installed no module for it (pkg results)")
    for k in unsup:
        line = next((x for x in apt_log if "not built for " + k in x), "")
        yield check("%s (unsupported): the install says so: '%s'" % (k, line), bool(line))

    yield say("%s: apt purge sched-tune-dkms sched-tune-bench" % g)
    log = os.path.join(build, "purge-%s.log" % suite)
    good = logged_in(root, ["apt-get", "purge", "-y", "sched-tune-dkms", "sched-tune-bench"],
                     log, False) == 0
    yield check("apt purge sched-tune-dkms sched-tune-bench succeeds", good)
    if not good:
        yield from comments(read_lines(log)[-20:])
    status = out_in(root, ["dpkg-query", "-W", "-f=${Package} ${db:Status-Abbrev}\n",
                           "sched-tune-dkms", "sched-tune-bench"]).splitlines()
    yield check("after purge: dpkg knows neither package (status '%s')" % ", ".join(status),
                all(re.match(r"^\S+ .n", x) for x in status))
    yield found("after purge: no /usr/src tree, no /var/lib/dkms entry, no bench cache or "
                "stbench, no .ko or modules.dep line under /lib/modules", leftovers(root),
                " (left: %s)")
    new = sorted(p for p in new_since(root, before) if not PURGE_ALLOWED.search(p))[:20]
    yield found("after purge: no file or directory new anywhere but DKMS's signing key and "
                "depmod's indexes (no __pycache__, no /var/cache/sched-tune-bench)", new,
                " (new: %s)")


def tree_test(build, src, suite, root, k, ver):
    """Records of DKMS straight from the tree, as README.md says (dkms add
    ., dkms install sched-tune/<version>, dkms remove sched-tune/<version>
    --all, rm -r /usr/src/sched-tune-<version>), in ROOT after the
    package's purge: the version is debian/changelog's through
    dkms.conf, the module built for K has its vermagic, that version and
    a signature that verifies against DKMS's key, and the removal leaves
    nothing."""
    g = "pkg " + NAMES[suite]
    log = os.path.join(build, "tree-%s.log" % k)
    dk = version_in(root, "dkms")
    if not os.path.isdir(os.path.join(root, "tmp", "st-src")):
        copy_tree(src, os.path.join(root, "tmp", "st-src"))
    yield say("%s: DKMS from the tree, for %s" % (g, k))
    name = ("from the tree (dkms %s): dkms add . registers sched-tune/%s (debian/changelog's), "
            "no deprecation warning" % (dk, ver))
    good = logged_in(root, ["sh", "-c", "cd /tmp/st-src && dkms add ."], log, False) == 0 and \
        "sched-tune/%s: added" % ver in out_in(root, ["dkms", "status", "-m", "sched-tune"]) and \
        "deprecat" not in read_text(log).lower()
    yield check(name, good)
    if not good:
        yield from comments(read_lines(log))
    yield check("from the tree: dkms install sched-tune/%s -k %s" % (ver, k),
                logged_in(root, ["dkms", "install", "sched-tune/" + ver, "-k", k], log) == 0)
    ko = installed_module(root, k)
    yield check("from the tree: %s: DKMS installed sched_tune under /lib/modules/%s/updates" %
                (k, k), bool(ko))
    if ko:
        vm = out_in(root, ["modinfo", "-F", "vermagic", "/" + ko]).split(" ")[0]
        yield check("from the tree: %s: vermagic '%s'" % (k, vm), vm == k)
        yield check("from the tree: %s: modinfo -F version = %s" % (k, ver),
                    out_in(root, ["modinfo", "-F", "version", "/" + ko]) == ver)
        good, why = modsig.verify(os.path.join(root, ko),
                                  os.path.join(root, "var/lib/dkms/mok.pub"))
        yield check("from the tree: %s: its signature verifies against /var/lib/dkms/mok.pub "
                    "(openssl cms)" % k, good)
        if not good:
            yield from [(x,) for x in why]
    else:
        yield from comments(read_lines(log)[-20:])
        for d, _, files in os.walk(os.path.join(root, "var/lib/dkms/sched-tune")):
            if "make.log" in files:
                yield from comments(read_lines(os.path.join(d, "make.log"))[-20:],
                                    "#   make.log: ")
    yield check("from the tree: dkms remove sched-tune/%s --all" % ver,
                logged_in(root, ["dkms", "remove", "sched-tune/" + ver, "--all"], log) == 0)
    shutil.rmtree(os.path.join(root, "usr", "src", "sched-tune-" + ver), ignore_errors=True)
    yield found("from the tree: after dkms remove and rm -r /usr/src/sched-tune-%s, no "
                "/var/lib/dkms entry, no .ko or modules.dep line" % ver,
                leftovers(root, bench=False), " (left: %s)")


def rebuild_trixie(build, src, root, deb, bdeb, ver):
    """Yields the records of the .debs built with Debian 13's tools in
    ROOT, and compared with Debian 12's DEB and BDEB; returns their
    paths, or None."""
    copy_tree(src, os.path.join(root, "tmp", "st-src"))
    yield say("pkg Debian 13: make deb")
    d13 = [os.path.join(root, "tmp", "st-deb", os.path.basename(x)) for x in (deb, bdeb)]
    log = os.path.join(build, "deb-trixie.log")
    name = ("make deb builds sched-tune-dkms_%s_all.deb and sched-tune-bench_%s_all.deb with "
            "Debian 13's debhelper, dh-dkms and dh-python" % (ver, ver))
    good = run_logged(chroot.in_root(root, ["make", "-C", "/tmp/st-src", "deb",
                                            "DEB_OUT=/tmp/st-deb"]),
                      log) == 0 and all(os.path.isfile(x) for x in d13)
    yield check(name, good)
    if not good:
        yield from comments(read_lines(log)[-30:])
    if not all(os.path.isfile(x) for x in d13):
        return None
    lintian_ver = version_in(root, "lintian")
    for d12, d in zip((deb, bdeb), d13):
        shutil.copy(d, os.path.join(build, os.path.basename(d) + "13"))
        p12, p13 = debpkg.paths(d12), debpkg.paths(d)
        yield check("%s: same files as the Debian 12 build" % os.path.basename(d), p12 == p13)
        if p12 != p13:
            yield from comments(["< " + x for x in sorted(set(p12) - set(p13))] +
                                ["> " + x for x in sorted(set(p13) - set(p12))])
        yield "L", "pkg Debian 13: %s: Depends: %s (Debian 12's build: %s)" % (
            os.path.basename(d), debpkg.field(d, "Depends"), debpkg.field(d12, "Depends"))
        yield from lintian(chroot.in_root(root, LINTIAN + ["/tmp/st-deb/" +
                                                           os.path.basename(d)]),
                           d, lintian_ver, " (Debian 13)")
    conf = debpkg.member(d13[0], "./usr/src/sched-tune-%s/dkms.conf" % ver)
    with open(os.path.join(build, "dkms.conf"), "rb") as f:
        yield check("same dkms.conf as the Debian 12 build", f.read() == conf)
    return d13


def install(suite, build, src, cache):
    """Yields the records of SUITE's install tests."""
    if suite not in NAMES:
        raise Error("no install test for %s (%s)" % (suite, ", ".join(NAMES)))
    g = "pkg " + NAMES[suite]
    ver = version(src)
    deb, bdeb = ("%s/deb/sched-tune-%s_%s_all.deb" % (build, p, ver) for p in ("dkms", "bench"))
    if not (os.path.isfile(deb) and os.path.isfile(bdeb)):
        yield "L", "%s: no .debs to install (pkg results)" % g
        return
    yield say("%s chroot: DKMS and headers" % NAMES[suite])
    chroot.make(cache, suite)
    ks, unsup = chroot_kernels(cache, suite)
    # every kernel job that waits for a module is told, whatever happens
    try:
        try:
            prepare_chroot(cache, suite, ks, unsup)
        except Error as e:
            yield "L", str(e)
            yield check("%s chroot with dkms and the headers of %s (amd64, cloud-amd64) and an "
                        "unsupported kernel" % (NAMES[suite], ", ".join(ks)), False)
            return
        root = overlay(cache, suite, os.path.join(build, suite))
        try:
            yield "L", "%s: dkms %s; supported %s; unsupported %s" % (
                g, version_in(root, "dkms"), " ".join(ks), " ".join(unsup))
            if suite == "trixie":
                yield "L", "%s: debhelper %s, dh-dkms %s, dh-python %s" % (
                    g, version_in(root, "debhelper"), version_in(root, "dh-dkms"),
                    version_in(root, "dh-python"))
                deb, bdeb = (yield from rebuild_trixie(build, src, root, deb, bdeb, ver)) or \
                    (None, None)
            if deb:
                yield from install_test(build, src, suite, root, deb, bdeb, ks, unsup)
            yield from tree_test(build, src, suite, root, ks[1], ver)
        finally:
            overlay_down(root)
    finally:
        ko_close(build, ks)


def stage(build, src, cache, env=os.environ):
    """The records of "stage" (above), BUILD being the stage's
    directory; a step that raises fails by name, and the next runs."""
    shutil.rmtree(os.path.join(build, "ko"), ignore_errors=True)
    os.makedirs(build, exist_ok=True)
    if env.get("ST_PKG", "1") == "0":
        yield "R", "skip", "Debian package", "ST_PKG=0"
        return
    try:
        host.install(cache, HOST_TOOLS)
    except Error as e:
        yield check("the host's packaging tools installed (%s)" % e, False)
        return
    for group, step in (("pkg", lambda: debs(build, src)),
                        ("pkg " + NAMES["bookworm"], lambda: install("bookworm", build, src, cache)),
                        ("pkg " + NAMES["trixie"], lambda: install("trixie", build, src, cache))):
        yield "G", group
        try:
            yield from step()
        except (Error, OSError) as e:
            yield check("%s ran to its end (%s)" % (group, e), False)
    yield say("done")


def main(argv):
    stop_on_sigterm()
    return cli(argv[1:], __doc__, {
        "stage": (3, lambda *a: records(stage(*a))),
        "debs": (2, lambda *a: records(debs(*a))),
        "install": (4, lambda *a: records(install(*a))),
        "umount": (1, umount_below),
    }, (Error, OSError))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
