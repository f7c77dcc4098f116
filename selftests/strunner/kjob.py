# SPDX-License-Identifier: GPL-2.0
"""A kernel's builds and static checks in make check (job.sh run_kernel).

    python3 -m strunner.kjob builds CACHE ROOT SRC BUILD KVER [build-only]

Prints the records (strunner.records) of KVER's builds into BUILD/KVER:
SRC's module with the fault injection (ST_TEST=1), W=1 and then the
chroot's sparse, and their verdict (strunner.kbuild verdict); SRC's test
livepatch; the module's tail calls (strunner.tailcalls) and its object
graph (strunner.objgraph).  A kernel built only then has its row of the
support matrix checked (strunner.support row) and its "# matrix:" line;
a kernel that boots builds ROOT's sched_ext test scheduler where the
kernel has sched_ext, and ROOT's test modules.  A build that fails shows
its log's errors and warnings, or its tail, as comments.
"""

import contextlib
import os
import re
import subprocess
import sys

from strunner import Error, check, chroot, cli, image, kbuild, kernels, objgraph, read_lines, \
    records, stop_on_sigterm, support, tailcalls

_PROBLEM = re.compile(r"error|warning")


def _comments(lines):
    for line in lines:
        yield ("#   " + line,)


def _log_problems(path, n=30):
    return _comments([x for x in read_lines(path) if _PROBLEM.search(x)][:n])


def _tail(path, n=20):
    return _comments(read_lines(path)[-n:])


@contextlib.contextmanager
def _output_to(path):
    """This process's standard output and error, and its children's,
    into PATH."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = [os.dup(1), os.dup(2)]
    with open(path, "w") as f:
        os.dup2(f.fileno(), 1)
        os.dup2(f.fileno(), 2)
    try:
        yield
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        for fd, old in ((1, saved[0]), (2, saved[1])):
            os.dup2(old, fd)
            os.close(old)


def _step(desc, fn, log=None):
    """The records of a step whose result is DESC: FN() returns None for
    a pass, else the lines that say why it failed (LOG's tail too when
    given); an exception of FN fails it, named."""
    try:
        if log:
            with _output_to(log):
                why = fn()
        else:
            why = fn()
    except (Error, OSError, subprocess.SubprocessError) as e:
        why = ["%s: %s" % (type(e).__name__, e)]
    yield check(desc, why is None)
    if why is not None:
        yield from _tail(log) if log else ()
        yield from _comments(why)


def _kbuild(cache, kver, src, out, args, sparse="", want=None):
    """None when SRC built against KVER in OUT (and made WANT), else the
    build log's errors and warnings."""
    rc = kbuild.build(cache, kver, src, out, args, sparse)
    if rc == 0 and (want is None or os.path.isfile(os.path.join(out, want))):
        return None
    lines = [x for x in read_lines(os.path.join(out, "build.log")) if _PROBLEM.search(x)]
    return lines[:30] or read_lines(os.path.join(out, "build.log"))[-20:]


def _tailcalls(ko):
    dis = subprocess.run(["objdump", "-dr", ko], capture_output=True, text=True,
                         check=True).stdout
    bad, calls, tramps = tailcalls.check(dis.splitlines())
    said = ["%d static-call references checked; %d direct-hook trampolines return through"
            " the return thunk" % (calls, tramps)]
    if not calls:
        said.append("no static-call reference found: objdump output not understood?")
    return bad + said if bad or not calls else None


def builds(cache, root, src, build, kver, build_only=False):
    """The records of KVER's builds and checks (see above)."""
    out = os.path.join(build, kver)
    os.makedirs(build, exist_ok=True)
    apt_log = os.path.join(build, kver + ".sparse-install.log")
    with _output_to(apt_log):
        rc = chroot.install(cache, kernels.env(kver), ["sparse"])
    if rc != 0:
        yield "L", "%s: apt-get install sparse in the chroot failed" % kver
        yield from _tail(apt_log)
    rc = kbuild.build(cache, kver, src, out, ["ST_TEST=1", "W=1"], "sparse")
    rc = 128 - rc if rc < 0 else rc
    yield check("build sched_tune.ko against linux-headers-" + kver, rc == 0)
    if rc != 0:
        yield from _log_problems(os.path.join(out, "build.log"))
    # no warning of W=1's compiler or of sparse in the module's files
    yield from kbuild.verdict(kver, out, rc)
    # the guest's livepatch coexistence test needs it (guest/livepatch.sh)
    yield from _step("build the test livepatch (selftests/livepatch)", lambda: _kbuild(
        cache, kver, os.path.join(src, "selftests", "livepatch"), os.path.join(out, "livepatch"),
        [], want="st_livepatch.ko"))
    ko = os.path.join(out, "sched_tune.ko")
    if not os.path.isfile(ko):
        yield check("no tail call into a __SCT__ trampoline", False)
        yield check("guest tests: not run, sched_tune.ko was not built", False)
        return
    yield from _step("objdump: no jmp to a __SCT__ static-call trampoline (a tail call into"
                     " an original loops forever)", lambda: _tailcalls(ko))
    # each file a layer below the one that calls it (docs/layout.md)
    yield from _step("nm: no two object files of the module refer to each other, directly or"
                     " round a loop", lambda: objgraph.cycles_in(out) or None)
    if build_only:
        env = os.environ
        yield from support.row_check(
            env.get("ST_SUPPORT_FILE") or os.path.join(src, "selftests", "support-matrix"),
            env.get("ST_SUPPORT_GATE") or os.path.join(src, "module", "kernel", "gate_checked.h"),
            kver)
        yield ("# matrix: %s%s" % (kver, " built-only" * 4),)
        return
    if image.has_scx(cache, kver):
        yield from _step("sched_ext test scheduler and loader build (trixie chroot, clang,"
                         " libbpf)", lambda: image.scx(cache, root, build),
                         os.path.join(out, "scx-build.log"))
    yield from _step("build the test modules (selftests/kmod)", lambda: _kbuild(
        cache, kver, os.path.join(root, "selftests", "kmod"), os.path.join(out, "kmod"), []))


def _builds(cache, root, src, build, kver, *how):
    if how not in ((), ("build-only",)):
        raise Error("builds: '%s' is not build-only" % " ".join(how))
    stop_on_sigterm()
    records(builds(cache, root, src, build, kver, bool(how)))


def main(argv):
    return cli(argv[1:], __doc__, {"builds": (lambda n: n in (5, 6), _builds)})


if __name__ == "__main__":
    sys.exit(main(sys.argv))
