# SPDX-License-Identifier: GPL-2.0
"""The two .debs as built, held to what they must hold (strunner.pkg's
checks of them).

contents(): sched-tune-dkms's .deb DEB holds the module's source (every
module/*.[ch] of the tree SRC) in /usr/src/sched-tune-VERSION with its
docs, nothing built, nothing in /etc, /lib, /boot or /usr/lib, no
bench; its maintainer scripts load nothing; it depends on dkms only;
its dkms.conf, copied to CONF, has VERSION and no deprecated directive.
contents_bench(): sched-tune-bench's .deb DEB holds the program, every
file of SRC/bench/stbench (its modules, the C sources of its workloads)
in dist-packages with the project's metadata, the docs, no compiled
Python (py3compile makes it at install), nothing else; it depends on
python3 only and recommends what a full report uses.  kernels(): which
kernel releases the dkms.conf CONF admits, read as DKMS reads it
(sourced by bash, matched with =~), against KERNELS.  Each yields
records (lib.sh st_records).
"""

import io
import os
import re
import subprocess
import tarfile
import tempfile

from strunner import Error, check, found, missing, read_lines

# The kernel releases dkms.conf must admit (True) or decline (False):
# Debian's 6.1, 6.12 and 7.3 kernels of the amd64 and cloud-amd64
# flavours, nothing else.
KERNELS = [(True, k) for k in (
    "6.1.0-57-amd64", "6.1.0-13-amd64", "6.12.95+deb12-amd64", "6.12.117+deb12-amd64",
    "6.12.9+bpo-amd64", "6.12.118+deb13-amd64", "7.3.4+deb13-amd64", "7.3.10+deb13-amd64",
    "6.1.0-57-cloud-amd64", "6.12.95+deb12-cloud-amd64", "6.12.117+deb12-cloud-amd64",
    "6.12.9+bpo-cloud-amd64", "6.12.118+deb13-cloud-amd64", "7.3.4+deb13-cloud-amd64")] + \
    [(False, k) for k in (
        "6.1.0-57-rt-amd64", "6.12.95+deb12-rt-amd64", "6.12.118+deb13-rt-amd64",
        "7.3.4+deb13-rt-amd64", "6.1.0-57-cloud-arm64", "6.12.95+deb12-arm64",
        "7.2.1+deb13-cloud-amd64", "6.1.0-57-cloud-cloud-amd64", "6.1.0-57-amd64-cloud-amd64",
        "5.10.0-30-amd64", "6.10.6+bpo-amd64", "6.11.10+bpo-amd64", "6.16.12+deb13-amd64",
        "7.2.1+deb13-amd64", "7.4.1+deb13-amd64", "6.13.0-amd64", "6.1.0-57-amd64-unsigned",
        "6.120.1+deb13-amd64", "16.1.0-1-amd64", "6.1.55-amd64")]

# what a full report of sched-tune-bench uses: the module, hackbench,
# perf, tbench, gcc, scipy, plots
BENCH_RECOMMENDS = ("sched-tune-dkms", "rt-tests", "linux-perf", "dbench", "gcc",
                    "python3-scipy", "python3-matplotlib")
DIST = "./usr/lib/python3/dist-packages"


def _out(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                       check=False)
    if p.returncode != 0:
        raise Error("%s failed" % " ".join(cmd))
    return p.stdout


def paths(deb):
    """The paths DEB holds ("./usr/..."), sorted."""
    return sorted(line.split()[5].rstrip("/") or "."
                  for line in _out(["dpkg-deb", "-c", deb]).splitlines() if line.strip())


def field(deb, name):
    """DEB's control field NAME, "" if it has none."""
    return _out(["dpkg-deb", "-f", deb, name]).strip()


def member(deb, path):
    """The bytes of the file PATH ("./usr/...") DEB holds."""
    p = subprocess.run(["dpkg-deb", "--fsys-tarfile", deb], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, check=False)
    try:
        with tarfile.open(fileobj=io.BytesIO(p.stdout)) as t:
            return t.extractfile(path).read()
    except (tarfile.TarError, KeyError, AttributeError):
        raise Error("no %s in %s" % (path, deb)) from None


def tree_files(top, sub, pattern):
    """The files under TOP/SUB whose names match PATTERN, as paths
    relative to TOP, sorted."""
    found = []
    for d, _, files in os.walk(os.path.join(top, sub)):
        found += [os.path.relpath(os.path.join(d, f), top) for f in files
                  if re.search(pattern, f)]
    return sorted(found)


def _grep(rx, lines):
    return [x for x in lines if re.search(rx, x)]


def contents(deb, src, ver, conf):
    """Yields the records of sched-tune-dkms's .deb DEB."""
    have = set(paths(deb))
    s = "./usr/src/sched-tune-" + ver
    doc = "./usr/share/doc/sched-tune-dkms/"
    want = [s + "/dkms.conf", s + "/Kbuild", s + "/Makefile", s + "/module/main.c",
            s + "/module/kernel/ksym.c", doc + "README.md.gz", doc + "sysfs-kernel-sched_tune.gz",
            doc + "copyright", doc + "examples/sched_tune.conf"]
    yield missing("contents: module source in /usr/src/sched-tune-%s, README.md, "
                  "sysfs-kernel-sched_tune, copyright, examples/sched_tune.conf" % ver,
                  [x for x in want if x not in have])
    yield missing("contents: every module/*.[ch] of the tree",
                  [f for f in tree_files(src, "module", r"\.[ch]$") if s + "/" + f not in have])
    listed = sorted(have)
    yield found("contents: no build output, hidden file, selftests or debian/ in the package",
                _grep(r"\.(o|ko|ko\.[a-z]+|mod|cmd|a)$|/\.|/(debian|selftests|build)(/|$)",
                      listed))
    yield found("contents: nothing in /etc, /lib, /boot, /usr/lib (the package configures "
                "and loads nothing)", _grep(r"^\./(etc|lib|boot|usr/lib)(/|$)", listed))
    yield found("contents: no bench in sched-tune-dkms (sched-tune-bench has it)",
                _grep(r"^\./usr/(bin|share/man|share/sched-tune|lib/python3)(/|$)|\.py$",
                      listed))
    with tempfile.TemporaryDirectory() as d:
        _out(["dpkg-deb", "-e", deb, d + "/control"])
        loads = [f for f in ("preinst", "postinst", "prerm", "postrm", "config", "triggers")
                 if _grep(r"\b(modprobe|insmod)\b", read_lines(os.path.join(d, "control", f)))]
        yield found("maintainer scripts never load the module (no modprobe/insmod)",
                    loads, " (in %s)")
        dep = field(deb, "Depends")
        yield "L", "Depends: %s; Recommends: %s" % (dep, field(deb, "Recommends"))
        yield check("sched-tune-dkms depends on dkms only (Depends: %s)" % dep,
                    re.fullmatch(r"dkms( \([^)]*\))?", dep))
        yield check("Architecture: all", field(deb, "Architecture") == "all")
    with open(conf, "wb") as f:
        f.write(member(deb, s + "/dkms.conf"))
    lines = read_lines(conf)
    yield check('packaged dkms.conf: PACKAGE_VERSION="%s", the changelog\'s' % ver,
                'PACKAGE_VERSION="%s"' % ver in lines)
    deprecated = r"^\s*(CLEAN|REMAKE_INITRD|MODULES_CONF[A-Z_]*|POST_BUILD_CLEAN)\b"
    bad = ["%s:%s" % (p, re.match(deprecated, x).group(0))
           for p in (conf, os.path.join(src, "dkms.conf"))
           for x in read_lines(p) if re.match(deprecated, x)]
    yield found("dkms.conf: no deprecated directive (CLEAN, REMAKE_INITRD, MODULES_CONF*)", bad)


def contents_bench(deb, src, ver):
    """Yields the records of sched-tune-bench's .deb DEB."""
    have = set(paths(deb))
    info = "%s/sched_tune_bench-%s.dist-info/" % (DIST, ver)
    doc = "./usr/share/doc/sched-tune-bench/"
    want = ["./usr/bin/sched-tune-bench", info + "METADATA", info + "entry_points.txt",
            doc + "README.bench.md.gz", doc + "copyright",
            "./usr/share/man/man1/sched-tune-bench.1.gz"]
    lost = [x for x in want if x not in have]
    lost += [f for f in tree_files(os.path.join(src, "bench"), "stbench", r"\.(py|c)$")
             if DIST + "/" + f not in have]
    yield missing("sched-tune-bench contents: /usr/bin/sched-tune-bench, every "
                  "bench/stbench/*.py and the workloads' C sources (stbench/*.c) in "
                  "/usr/lib/python3/dist-packages, sched_tune_bench-%s.dist-info, "
                  "README.bench.md, the man page" % ver, lost)
    listed = sorted(have)
    yield found("sched-tune-bench contents: no __pycache__, no .pyc",
                _grep(r"__pycache__|\.py[co]$", listed))
    allowed = (r"^\.$|^\./usr(/bin|/lib|/lib/python3|/share|/share/doc)?$|"
               r"^\./usr/bin/sched-tune-bench$|^\./usr/lib/python3/dist-packages$|"
               r"^\./usr/lib/python3/dist-packages/(stbench|sched_tune_bench-[^/]*\.dist-info)(/|$)|"
               r"^\./usr/share/(doc/sched-tune-bench|man)(/|$)")
    yield found("sched-tune-bench contents: nothing outside /usr/bin/sched-tune-bench, stbench "
                "and its dist-info in /usr/lib/python3/dist-packages, its docs and man page",
                [x for x in listed if not re.search(allowed, x)])
    dep, rec = field(deb, "Depends"), field(deb, "Recommends")
    yield "L", "sched-tune-bench: Depends: %s; Recommends: %s; Suggests: %s" % (
        dep, rec, field(deb, "Suggests"))
    yield check("sched-tune-bench depends on python3 only (Depends: %s)" % dep,
                re.fullmatch(r"python3(:any)?( \([^)]*\))?", dep))
    yield missing("sched-tune-bench recommends what a full report uses (module, hackbench, "
                  "perf, tbench, gcc, scipy, plots)",
                  [p for p in BENCH_RECOMMENDS
                    if not re.search(r"(^|[ ,|])%s([ ,|]|$)" % re.escape(p), rec)])
    yield check("sched-tune-bench: Architecture: all", field(deb, "Architecture") == "all")
    with tempfile.TemporaryDirectory() as d:
        _out(["dpkg-deb", "-e", deb, d])

        def has(f, text):
            return any(text in x for x in read_lines(os.path.join(d, f)))
        ok = (has("postinst", "py3compile -p sched-tune-bench") and
              has("prerm", "py3clean -p sched-tune-bench") and
              has("postrm", "rm -rf /var/cache/sched-tune-bench"))
    yield check("sched-tune-bench: postinst byte-compiles its modules (py3compile), prerm "
                "cleans them (py3clean), postrm purge removes /var/cache/sched-tune-bench", ok)


# read as DKMS reads it: sourced by bash, each release matched with =~
ADMITS = r'''. "$1" >/dev/null 2>&1
shift
for k; do if [[ $k =~ $BUILD_EXCLUSIVE_KERNEL ]]; then echo 1; else echo 0; fi; done
[[ x86_64 =~ $BUILD_EXCLUSIVE_ARCH && ! aarch64 =~ $BUILD_EXCLUSIVE_ARCH &&
	! i686 =~ $BUILD_EXCLUSIVE_ARCH ]] && echo arch'''


def kernels(conf, table=None):
    """Yields the records of the releases CONF admits, against TABLE
    (KERNELS), and of its architectures."""
    table = KERNELS if table is None else table
    out = subprocess.run(["bash", "-c", ADMITS, "_", conf] + [k for _, k in table],
                         stdout=subprocess.PIPE, text=True, check=False).stdout.split()
    got = out[:len(table)]
    wrong = ["%s(%s)" % (k, "declined" if want else "admitted")
             for (want, k), g in zip(table, got) if (g == "1") != want]
    if len(got) != len(table):
        wrong.append("(bash read %d of %d)" % (len(got), len(table)))
    yield missing("dkms.conf admits Debian's 6.1, 6.12 and 7.3 amd64 and cloud-amd64 kernels "
                  "only (%d releases)" % len(table), wrong, ", wrong:%s")
    yield check("dkms.conf: BUILD_EXCLUSIVE_ARCH admits x86_64 only",
                out[len(table):] == ["arch"])
