# SPDX-License-Identifier: GPL-2.0
"""make lint's checks of every file and builds (lib.sh st_statics,
st_lint_kbuild, st_objgraph_control).

    python3 -m strunner.lint check ROOT CACHE CHECKPATCH_DIR
    python3 -m strunner.lint statics ROOT CACHE USER_CACHE
    python3 -m strunner.lint kbuild ROOT CACHE USER_CACHE NAME...
    python3 -m strunner.lint objgraph-control

"check": pyflakes on every Python file of ROOT, shellcheck on every shell
script and checkpatch --strict on every C and H file, a result each,
printed as records (strunner.records): "R pass|fail NAME", then "C" lines
with a failing file's findings.  A tool that is missing is installed as
root (strunner.host, CACHE's lock), else each of its files fails naming
the package.  checkpatch.pl is CHECKPATCH_DIR's, fetched first (below).

"statics": make lint's and make check's static checks of ROOT, as
records: "check" with checkpatch_dir()'s checkpatch.pl, then the ABI file
against the module's tables (strunner.abi) and the kerneldoc
(strunner.kdoc).

"kbuild": the module (the selftests' build, ST_TEST=1: every file of
module/) built with W=1 and checked with sparse against each kernel NAME
(strunner.kernels), in its Debian release's chroot, two results a kernel
(strunner.kbuild verdict).  Root makes what is missing (the chroot, the
headers, sparse in the chroot); a user who is not root builds in the
chroots make check made, through a user namespace, with the chroot's
sparse or Debian 12's fetched into USER_CACHE, and skips a kernel whose
chroot or headers are not there, saying so.  About 40 s a kernel on 2
cores.

fetch_checkpatch() brings scripts/checkpatch.pl, its two data files
and scripts/kernel-doc of Debian's linux-source-6.12 (apt-get download:
checked against the signed archive, no root needed) into a directory,
once: the first run downloads ~150 MB and reads the tarball, later runs
reuse the copy, so a new Debian revision does not change lint results
under our feet.  fetch_sparse() unpacks Debian 12's sparse package
(0.6.4, the same as Debian 13's less Debian's patches, a binary that
needs nothing but libc: it runs in the Debian 13 chroot too); both
raise Error if the files are not there after it.

"objgraph-control": the positive control of the loop check make check
runs on each kernel's objects (strunner.objgraph): of three objects,
two that call each other are a cycle, the third is not in it.
"""

import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

from strunner import Error, chroot, cli, host, kbuild, kernels, locked, log, read_lines, records, \
    stop_on_sigterm

# checkpatch --strict findings kept, by file: checkpatch's type names,
# each with its reason (docs/style.md says the same)
IGNORE = {
    # ST_PARAM's and ST_FEATURE_HOOKS' arguments are identifiers (a
    # parameter name, an array), so using them twice has no side effect
    "module/main.c": "MACRO_ARG_REUSE",
    "module/sched_tune.h": "MACRO_ARG_REUSE",
    # TRACE_EVENT()'s own layout, as include/trace/events/sched.h has it:
    # one argument of the macro per block, each opened on its own line
    "module/sched_tune_trace.h": "PARENTHESIS_ALIGNMENT,OPEN_ENDED_LINE",
    # st_kcall_bind's `name` is an identifier
    "module/kernel/ksym.h": "MACRO_ARG_REUSE",
    # an out-of-tree module must test LINUX_VERSION_CODE for the facts
    # BTF does not carry (wake flags, the 6.12-only task_numa_work copy);
    # KERNEL_VERSION() on the right reads as the constant on the left
    "module/kernel/layout.h": "LINUX_VERSION_CODE,CONSTANT_COMPARISON",
    # the same for the module's text bounds (6.4), the direct-call API
    # (6.6) and the BPF trampoline race that bars the ftrace_ops path
    # before 6.12, which no symbol or BTF type can tell apart
    "module/hook/fhook.c": "LINUX_VERSION_CODE,CONSTANT_COMPARISON",
    # a test module built for every kernel: 6.1's entity has no deadline
    "selftests/kmod/st_se.c": "LINUX_VERSION_CODE,CONSTANT_COMPARISON",
    # The test side's C is userspace (static guest helpers, unit tests,
    # the bench's helpers, a BPF program); besides stdint's types
    # everywhere there (TEST_SIDE): userspace has no __aligned and no
    # BIT(), and SUB is a signed count, not a mask
    "bench/stbench/st_wakelat.c": "PREFER_DEFINED_ATTRIBUTE_MACRO,BIT_MACRO",
    # SEC() defined as libbpf's bpf_helpers.h does, without kernel headers
    "selftests/scx/st_scx_min.bpf.c": "PREFER_DEFINED_ATTRIBUTE_MACRO",
    # the hog's counter is volatile so that its loop touches memory
    "selftests/helpers/st_slicehog.c": "VOLATILE",
    # an entry of the errno-to-name table; nothing returns ENOSYS
    "selftests/helpers/st_write.c": "ENOSYS",
    # PRIu64 is <inttypes.h>'s
    "selftests/helpers/st_fuzz.c": "CAMELCASE",
    # the model of fair.c's record_wakee() counts its own ticks in a
    # local named jiffies, which never wraps
    "selftests/unit/test_policy.c": "JIFFIES_COMPARISON",
}
TEST_SIDE = ("selftests/", "bench/")

# checkpatch findings kept wherever the line itself shows why: a type
# and a pattern its source line matches
LINE_OK = [
    # coding-style.rst: user-visible strings are never broken, so that
    # grep finds them; a reason returned whole may pass 100 columns
    ("LONG_LINE", r'^\s*return "[^"]*";\s*$'),
    # "typeof(&X)" takes an address; checkpatch reads a binary '&'
    ("SPACING", r"typeof\(&"),
    # an entry of knobs.h, as a file defines it, takes every column and
    # uses those the file needs (main.c: the name and help of a
    # parameter, declared with the ';' that an entry has not); the
    # columns are constants, so reading one twice (policy/knob.c: a stock
    # value, an array of choices) has no side effect
    ("MACRO_ARG_UNUSED", r"^#define ST_KNOB(_CHOICE)?\("),
    ("TRAILING_SEMICOLON", r"^#define ST_KNOB(_CHOICE)?\("),
    ("MACRO_ARG_REUSE", r"^#define ST_KNOB(_CHOICE|_STOCK)?\("),
    # the unit tests' diagnostics: a format whole on the line of the call
    ("LONG_LINE_STRING", r'^\s*ktap_diag\("[^"]*",\s*$'),
    # the unit tests' kernel headers (selftests/unit/include) define
    # __printf() as the kernel's compiler_attributes.h does
    ("PREFER_DEFINED_ATTRIBUTE_MACRO", r"^#define __printf\("),
]

CHECKPATCH_FILES = ("checkpatch.pl", "spelling.txt", "const_structs.checkpatch",
                    "kernel-doc")

_FINDING = re.compile(r"^[^:]+:([0-9]+): [A-Z]+:([A-Z_]+):")
_SHELL = re.compile(r"^#!.*\b(ba|da|a)?sh\b")


def ignored(path):
    """The checkpatch types ignored in PATH, comma-separated."""
    types = ([IGNORE[path]] if path in IGNORE else [])
    if path.startswith(TEST_SIDE):
        types.insert(0, "PREFER_KERNEL_TYPES")
    return ",".join(types)


def kept(findings, source):
    """(the --terse FINDINGS not kept, how many LINE_OK kept) for a file
    whose lines are SOURCE."""
    left, n = [], 0
    for line in findings:
        m = _FINDING.match(line)
        src = ""
        if m and 0 < int(m.group(1)) <= len(source):
            src = source[int(m.group(1)) - 1]
        if m and any(t == m.group(2) and re.search(p, src) for t, p in LINE_OK):
            n += 1
        else:
            left.append(line)
    return left, n


def _files(root, top, keep):
    out = []
    for t in top:
        for d, dirs, names in os.walk(os.path.join(root, t)):
            dirs[:] = sorted(x for x in dirs if x not in ("build", ".git", "__pycache__"))
            out += [os.path.relpath(os.path.join(d, n), root) for n in names
                    if keep(os.path.join(d, n), n)]
    return sorted(out)


def shell_files(root):
    """Every shell script of ROOT: *.sh, and files whose first line is a
    sh or bash shebang."""
    return _files(root, ["."], lambda p, n: n.endswith(".sh") or
                  bool(_SHELL.match((read_lines(p, 1) or [""])[0])))


def c_files(root):
    """The C and H files of the module, the selftests and the bench."""
    return _files(root, ["module", "selftests", "bench"],
                  lambda p, n: n.endswith((".c", ".h")))


def py_files(root):
    """The bench's package, its tests and entry point, the selftests'
    runner package."""
    return _files(root, ["bench", "selftests"],
                  lambda p, n: n.endswith(".py") or n == "sched-tune-bench")


# debugfs sched/debug: Debian's 6.12 writes each cfs_rq's avg_vruntime
# there without the rq lock, and concurrent reads crash it (docs/kernels.md)
SCHED_DEBUG = re.compile(r"(^|[^\w\s])sched/debug\b|proc/sched_debug")
# the files that name it to look for it
SCHED_DEBUG_OWN = ("selftests/strunner/lint.py", "selftests/strunner/tests/test_lint.py")


def sched_debug_readers(root):
    """The files of ROOT's module, selftests and bench that name debugfs
    sched/debug's path, whole or from a directory ("$D/sched/debug",
    "sys/kernel/debug/sched/debug"), and the lines that do; prose
    ("debugfs sched/debug") is not a path."""
    out = []
    for f in _files(root, ["module", "selftests", "bench"],
                    lambda p, n: not n.endswith((".md", ".pyc"))):
        if f in SCHED_DEBUG_OWN:
            continue
        lines = read_lines(os.path.join(root, f))
        out += ["%s:%d: %s" % (f, i + 1, x.strip()) for i, x in enumerate(lines or [])
                if SCHED_DEBUG.search(x)]
    return out


def _run(cmd, root, env=None):
    p = subprocess.run(cmd, cwd=root, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, errors="replace", check=False)
    return p.returncode, p.stdout


def _findings(text):
    return [("C", "  " + line) for line in text.splitlines() if line]


def each(root, cache, name, pkg, files, cmd, install=host.install):
    """A result for each of FILES: "NAME FILE", CMD FILE clean (run from
    ROOT); CMD's program installed from PKG when missing and run as
    root."""
    if not shutil.which(cmd[0]) and os.geteuid() == 0:
        install(cache, [pkg])
    for f in files:
        if not shutil.which(cmd[0]):
            yield "R", "fail", "%s %s (%s not installed: apt install %s)" % (name, f, cmd[0], pkg)
            continue
        rc, out = _run(cmd + [f], root)
        yield "R", "pass" if rc == 0 else "fail", "%s %s" % (name, f)
        if rc != 0:
            yield from _findings(out)


def checkpatch(root, script, f):
    """The result of checkpatch --strict on ROOT's file F, and its
    findings."""
    ignore = ignored(f)
    # checkpatch asks git about include/ (CAMELCASE's seed): a user who
    # lints a tree another user owns (root's checkout) would get git's
    # "dubious ownership" refusal among the findings
    env = dict(os.environ, GIT_CONFIG_COUNT="1", GIT_CONFIG_KEY_0="safe.directory",
               GIT_CONFIG_VALUE_0=root)
    rc, out = _run(["perl", script, "--strict", "--no-tree", "-f", "--terse", "--show-types",
                    "--no-summary"] + (["--ignore", ignore] if ignore else []) + [f], root, env)
    left, n = kept(out.splitlines(), read_lines(os.path.join(root, f)))
    left = [x for x in left if x.strip()]
    # clean, or every finding is one that LINE_OK keeps
    if not left and (rc == 0 or n > 0):
        why = [ignore + " everywhere"] if ignore else []
        why += ["%d on lines that show why" % n] if n else []
        yield "R", "pass", "checkpatch --strict %s%s" % (f, " (kept: %s)" % ", ".join(why)
                                                         if why else "")
    else:
        yield "R", "fail", "checkpatch --strict " + f
        yield from _findings("\n".join(left) or out)


def checkpatch_dir(cache, user_cache):
    """Where checkpatch.pl is: CACHE's copy, where there is one or it
    can be written (root); else a user's own, under USER_CACHE."""
    d = os.path.join(cache, "checkpatch-6.12")
    script = os.path.join(d, "checkpatch.pl")
    if os.path.isfile(script) and os.path.getsize(script) > 0:
        return d
    try:
        os.makedirs(cache, exist_ok=True)
        if os.access(cache, os.W_OK):
            return d
    except OSError:
        pass
    return os.path.join(user_cache, "checkpatch-6.12")


def statics(root, cache, user_cache):
    """The records of "statics" (above)."""
    # abi and kdoc import this module
    from strunner import abi, kdoc  # pylint: disable=import-outside-toplevel
    cp_dir = checkpatch_dir(cache, user_cache)
    yield from check(root, cache, cp_dir)
    yield from abi.check(root)
    yield from kdoc.tree(root, cp_dir, cache)


def check(root, cache, cp_dir, install=host.install):
    """Every file's result and findings, as records."""
    yield from each(root, cache, "pyflakes", "pyflakes3", py_files(root), ["pyflakes3"],
                    install)
    yield from each(root, cache, "shellcheck", "shellcheck", shell_files(root),
                    ["shellcheck", "-x", "-f", "gcc"], install)
    if not shutil.which("perl") and os.geteuid() == 0:
        install(cache, ["perl"])
    script = os.path.join(cp_dir, "checkpatch.pl")
    try:
        fetch_checkpatch(cp_dir, cache)
    except (Error, OSError) as e:
        yield "L", "could not fetch checkpatch.pl (linux-source-6.12): %s" % e
        # one fetched before, if its kernel-doc is what is missing
        if not os.path.isfile(script):
            script = None
    for f in c_files(root):
        if script:
            yield from checkpatch(root, script, f)
        else:
            yield "R", "fail", "checkpatch --strict %s (no checkpatch.pl)" % f
    found = sched_debug_readers(root)
    yield "R", "fail" if found else "pass", \
        "nothing reads debugfs sched/debug, whose reads crash 6.12 (docs/kernels.md)"
    yield from _findings("\n".join(found))


def download(pkg, into, run=subprocess.run):
    """The path of PKG's .deb, downloaded into the directory INTO with
    apt-get download (the signed archive's, no root), or ""."""
    run(["apt-get", "download", "-qq", pkg], cwd=into, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, check=False)
    found = sorted(glob.glob(os.path.join(into, pkg + "_*.deb")))
    return found[0] if found else ""


def _unpack_checkpatch(deb, x):
    # --occurrence stops the last tar at the fourth file; the writers
    # before it then die of SIGPIPE: judged by the files
    src = ["linux-source-6.12/scripts/" + n for n in CHECKPATCH_FILES]
    subprocess.run(["sh", "-c", 'dpkg-deb --fsys-tarfile "$1" | '
                    'tar -xOf - ./usr/src/linux-source-6.12.tar.xz | '
                    'tar -xJf - -C "$2" --occurrence=1 --strip-components=2 "$@"',
                    "sh", deb, x] + src, stderr=subprocess.DEVNULL, check=False)


def _fetched(d, names):
    return all(os.path.isfile(os.path.join(d, n)) and os.path.getsize(os.path.join(d, n))
               for n in names)


def fetch(d, pkg, names, unpack, refresh=None, get=download):
    """D with NAMES in it, from PKG's .deb unpacked by UNPACK(DEB, DIR)
    once, under PKG's lock in D's parent; if the download (GET(PKG,
    DIR)) fails, once more after REFRESH() (the package lists may be
    older than the archive); raises Error."""
    if _fetched(d, names):
        return
    parent = os.path.dirname(d)
    os.makedirs(parent, exist_ok=True)
    lock = "checkpatch" if pkg == "linux-source-6.12" else pkg
    with locked(os.path.join(parent, lock + ".lock")):
        if _fetched(d, names):
            return
        log("fetching %s into %s" % (pkg, d))
        dl = tempfile.mkdtemp(prefix=os.path.basename(d) + "-dl.", dir=parent)
        try:
            deb = get(pkg, dl)
            if not deb and refresh:
                refresh()
                deb = get(pkg, dl)
            if not deb:
                raise Error("apt-get download %s failed" % pkg)
            x = os.path.join(dl, "x")
            os.mkdir(x)
            unpack(deb, x)
            if not _fetched(x, names):
                raise Error("%s has no %s" % (os.path.basename(deb), " ".join(names)))
            with open(os.path.join(x, "FROM"), "w") as f:
                f.write(os.path.basename(deb) + "\n")
            shutil.rmtree(d, ignore_errors=True)
            os.rename(x, d)
        finally:
            shutil.rmtree(dl, ignore_errors=True)


def fetch_checkpatch(d, cache):
    """D's checkpatch.pl, fetched first if it is not there, root
    refreshing the package lists if need be (CACHE's stamp); raises
    Error."""
    refresh = None
    if os.geteuid() == 0:
        def refresh():
            host.update(cache, force=True)
    fetch(d, "linux-source-6.12", CHECKPATCH_FILES, _unpack_checkpatch, refresh)
    return os.path.join(d, "checkpatch.pl")


def fetch_sparse(d):
    """D's sparse binary, fetched first if it is not there; raises
    Error."""
    fetch(d, "sparse", ["usr/bin/sparse"],
          lambda deb, x: subprocess.run(["dpkg-deb", "-x", deb, x], check=False))
    return os.path.join(d, "usr", "bin", "sparse")


def _headers(cache, kver, as_root):
    """Why KVER's headers are not in its chroot, or ""."""
    env = kernels.env(kver)
    if os.path.isfile(os.path.join(kernels.headers_dir(cache, kver), "Makefile")):
        return ""
    why = "no linux-headers-%s in the %s chroot: make check installs it, as root" % (kver, env)
    if not as_root:
        return why
    try:
        kernels.headers(cache, env, kver)
    except Error as e:
        return "%s (%s)" % (why, e)
    return ""


def _sparse(cache, env, user_cache, tmp, as_root):
    """(the sparse to build with, why there is none): the chroot's
    (installed as root), else Debian 12's fetched."""
    if os.access(os.path.join(chroot.chroot_dir(cache, env), "usr", "bin", "sparse"), os.X_OK):
        return "sparse", ""
    if as_root and chroot.install(cache, env, ["sparse"]) == 0:
        return "sparse", ""
    keep = user_cache
    try:
        os.makedirs(keep, exist_ok=True)
    except OSError:
        pass
    if not os.access(keep, os.W_OK):
        keep = tmp
    try:
        return fetch_sparse(os.path.join(keep, "sparse")), ""
    except Error:
        return "", "no sparse: apt-get download sparse failed"


def kernel_builds(tree, cache, user_cache, names, as_root=None, resolve=None):
    """The records of make lint's builds of TREE against the kernels
    NAMES (see above).  RESOLVE(NAME) is the kernel release."""
    as_root = os.geteuid() == 0 if as_root is None else as_root
    resolve = resolve or (lambda name: kernels.resolve_in(cache, name))
    tmp = tempfile.mkdtemp(prefix="st-lint.")
    try:
        for name in names:
            w1 = "W=1 build against the kernel of '%s'" % name
            sp = "sparse (C=2) against the kernel of '%s'" % name
            spec = kernels.suite(name)
            if spec is None:
                why = "unknown kernel name (known: %s)" % " ".join(kernels.known())
                yield "R", "fail", "%s (%s)" % (w1, why)
                yield "R", "fail", "%s (%s)" % (sp, why)
                continue
            env, why, kver = spec[0], "", ""
            d = chroot.chroot_dir(cache, env)
            if not as_root and not os.path.isfile(os.path.join(d, ".st-ready")):
                why = "no %s chroot at %s: make check makes it, as root" % (env, d)
            elif not as_root and subprocess.run(["unshare", "--map-root-user", "true"],
                                             stderr=subprocess.DEVNULL,
                                             check=False).returncode != 0:
                why = ("this user may not make a user namespace (unshare -r), which "
                       "chroot needs without root")
            else:
                try:
                    kver = resolve(name)
                except Error as e:
                    why = ("cannot tell the kernel of '%s' from the %s chroot's package lists "
                           "(%s)" % (name, env, e))
            why = why or _headers(cache, kver, as_root)
            # root could have made it: what it could not is a failure
            if why and as_root:
                yield "R", "fail", "%s (%s)" % (w1, why)
                yield "R", "fail", "%s (%s)" % (sp, why)
                continue
            if why:
                yield "R", "skip", w1, why
                yield "R", "skip", sp, why
                continue
            sparse, nosparse = _sparse(cache, env, user_cache, tmp, as_root)
            out = os.path.join(tmp, kver)
            rc = kbuild.build(cache, kver, tree, out,
                              ["ST_TEST=1", "W=1", "-j%d" % len(os.sched_getaffinity(0))], sparse)
            yield from kbuild.verdict(kver, out, rc, nosparse)
            shutil.rmtree(out, ignore_errors=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def objgraph_control():
    """The result of strunner.objgraph on three objects, two of which
    call each other."""
    name = "strunner.objgraph finds the loop of two objects that call each other"
    sources = {"a": "void b(void);\nvoid a(void) { b(); }\n",
               "sub/b": "void a(void);\nvoid b(void) { a(); }\n",
               "c": "void a(void);\nvoid c(void) { a(); }\n"}
    with tempfile.TemporaryDirectory() as d:
        os.makedirs(os.path.join(d, "module", "sub"))
        for n, text in sources.items():
            c = os.path.join(d, "module", n + ".c")
            with open(c, "w") as f:
                f.write(text)
            try:
                subprocess.run(["cc", "-c", "-o", c[:-1] + "o", c], check=False)
            except OSError as e:
                yield "R", "fail", "%s (cc: %s)" % (name, e.strerror)
                return
        p = subprocess.run([sys.executable, "-P", "-m", "strunner.objgraph", d], cwd=d,
                           env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)),
                           stdout=subprocess.PIPE, text=True, check=False)
        rc, out = p.returncode, p.stdout
    ok = rc == 1 and out.endswith("\ncycle: module/a.o module/sub/b.o\n")
    yield "R", "pass" if ok else "fail", name
    if not ok:
        yield from _findings(out)


def _kbuild(root, cache, user_cache, *names):
    stop_on_sigterm()
    records(kernel_builds(root, cache, user_cache, list(names)))


def main(argv):
    return cli(argv[1:], __doc__, {
        "check": (3, lambda *args: records(check(*args))),
        "statics": (3, lambda *args: records(statics(*args))),
        "kbuild": (lambda n: n > 3, _kbuild),
        "objgraph-control": (0, lambda: records(objgraph_control())),
    })


if __name__ == "__main__":
    sys.exit(main(sys.argv))
