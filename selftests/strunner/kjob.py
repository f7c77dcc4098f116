# SPDX-License-Identifier: GPL-2.0
"""A kernel's builds and static checks in make check (run.sh run_kernel).

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
    """This process's standard output and its children's into PATH."""
    sys.stdout.flush()
    saved = os.dup(1)
    with open(path, "w") as f:
        os.dup2(f.fileno(), 1)
    try:
        yield
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


def builds(cache, root, src, build, kver, build_only=False):
    """The records of KVER's builds and checks (see above)."""
    out = os.path.join(build, kver)
    env = kernels.env(kver)
    os.makedirs(build, exist_ok=True)
    apt_log = os.path.join(build, kver + ".sparse-install.log")
    with _output_to(apt_log):
        rc = chroot.install(cache, env, ["sparse"])
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
    lp = os.path.join(out, "livepatch")
    ok = kbuild.build(cache, kver, os.path.join(src, "selftests", "livepatch"), lp, []) == 0
    ok = ok and os.path.isfile(os.path.join(lp, "st_livepatch.ko"))
    yield check("build the test livepatch (selftests/livepatch)", ok)
    if not ok:
        yield from _log_problems(os.path.join(lp, "build.log"))
    ko = os.path.join(out, "sched_tune.ko")
    if not os.path.isfile(ko):
        yield check("no tail call into a __SCT__ trampoline", False)
        yield check("guest tests: not run, sched_tune.ko was not built", False)
        return
    dis = subprocess.run(["objdump", "-dr", ko], capture_output=True, text=True,
                         check=False).stdout
    bad, calls, tramps = tailcalls.check(dis.splitlines())
    yield check("objdump: no jmp to a __SCT__ static-call trampoline (a tail call into an"
                " original loops forever)", calls and not bad)
    yield from _comments(bad + ["%d static-call references checked; %d direct-hook trampolines"
                                " return through the return thunk" % (calls, tramps)])
    if not calls:
        yield from _comments(["no static-call reference found: objdump output not understood?"])
    # each file a layer below the one that calls it (docs/layout.md)
    loops = objgraph.cycles_in(out)
    yield check("nm: no two object files of the module refer to each other, directly or round"
                " a loop", not loops)
    yield from _comments(loops)
    if build_only:
        env = os.environ
        yield from support.row_check(
            env.get("ST_SUPPORT_FILE") or os.path.join(src, "selftests", "support-matrix"),
            env.get("ST_SUPPORT_GATE") or os.path.join(src, "module", "kernel", "gate_checked.h"),
            kver)
        yield ("# matrix: %s%s" % (kver, " built-only" * 4),)
        return
    if image.has_scx(cache, kver):
        desc = "sched_ext test scheduler and loader build (trixie chroot, clang, libbpf)"
        scx_log = os.path.join(out, "scx-build.log")
        try:
            with _output_to(scx_log):
                image.scx(cache, root, build)
            yield check(desc, True)
        except Error as e:
            yield check(desc, False)
            yield from _tail(scx_log)
            yield from _comments([str(e)])
    kmod = os.path.join(out, "kmod")
    ok = kbuild.build(cache, kver, os.path.join(root, "selftests", "kmod"), kmod, []) == 0
    yield check("build the test modules (selftests/kmod)", ok)
    if not ok:
        yield from _tail(os.path.join(kmod, "build.log"))


def _builds(cache, root, src, build, kver, *how):
    if how not in ((), ("build-only",)):
        raise Error("builds: '%s' is not build-only" % " ".join(how))
    stop_on_sigterm()
    records(builds(cache, root, src, build, kver, bool(how)))


def main(argv):
    return cli(argv[1:], __doc__, {"builds": (lambda n: n in (5, 6), _builds)})


if __name__ == "__main__":
    sys.exit(main(sys.argv))
