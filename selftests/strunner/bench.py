# SPDX-License-Identifier: GPL-2.0
"""sched-tune-bench in a guest (selftests/bench_vm.sh): what its
initramfs adds, the results it sends back and make check's verdict on
the smoke run.

    python3 -m strunner.bench hook BENCH ROOT ARGS
    python3 -m strunner.bench extract TAPLOG DIR
    python3 -m strunner.bench smoke BENCH OUT
    python3 -m strunner.bench packages

"hook" (st_build_initramfs's ST_INITRAMFS_HOOK): into the initramfs tree
ROOT, python3 with the part of its stdlib a bench can use, perf, tbench
and dbench's client file where this machine has them, the bench (BENCH,
the tree's bench/) as its package lays it out, its workloads built on
the host into the guest's cache, and ARGS, the guest's bench options, in
/st/bench.args; it fails where dbench's client file, the byte-compiling
or the build of a workload fails.  "extract": the results the guest sent between the two
marker lines of its KTAP (base64 of a tar.gz) unpacked into DIR.
"smoke": records (lib.sh st_records) of the smoke run in OUT (its guest
in OUT/guest): the results came back, and sched-tune-bench check on
them exits 0; the report is written again on the host, with its plots.
"packages": what the bench's guests need on the host, one a line.
Errors print "error: ..." and exit 1.
"""

import base64
import binascii
import io
import os
import shutil
import subprocess
import sys
import tarfile

from strunner import Error, check, cli, comments, image, read_lines, records, run_logged

PYTHON = "/usr/bin/python3"
# the host's packages for the bench's guests: python3 and its plots,
# the workloads' (dbench's client file, hackbench), perf
PACKAGES = ("python3", "python3-matplotlib", "python3-scipy", "dbench", "linux-perf",
            "rt-tests")
# where the package installs stbench (pybuild, debian/rules); the guest
# mirrors it, and its python3 finds it there as Debian's does
GUEST_DIR = "/usr/lib/python3/dist-packages"
# the stdlib's top level a bench never imports: test suites, GUI
# toolkits, 2to3, packaging, network and XML; config-* too
STDLIB_LEFT = frozenset((
    "test", "idlelib", "tkinter", "turtledemo", "ensurepip", "lib2to3",
    "pydoc_data", "distutils", "site-packages", "dist-packages",
    "lib-dynload", "sqlite3", "tomllib", "xmlrpc", "email", "http", "urllib",
    "wsgiref", "multiprocessing", "asyncio", "concurrent", "curses", "dbm",
    "xml", "html", "venv", "unittest"))
# the extension modules it does import
DYNLOAD = ("_ctypes", "_json", "_contextvars", "_queue", "_typing",
           "resource", "termios", "mmap", "_bz2", "_lzma", "_decimal")
TOOLS = ("perf", "tbench", "tbench_srv")
BEGIN = "-----BEGIN STBENCH RESULTS-----"
END = "-----END STBENCH RESULTS-----"
# what the guest's check of the smoke run asks for (guest/benchsmoke.sh
# t_bench_loaded's configurations and workloads)
SMOKE_CHECK = ["--configs", "unloaded,stock,seed,cache_level", "--workloads",
               "hackbench,messaging,pipe,tbench,wakelat,numa,cpurate"]


def stdlib_ignore(lib):
    """shutil.copytree's ignore for the stdlib at LIB: STDLIB_LEFT and
    config-* at its top, optimized bytecode everywhere."""
    def ignore(d, names):
        left = {n for n in names if n.endswith((".opt-1.pyc", ".opt-2.pyc"))}
        if os.path.normpath(d) == os.path.normpath(lib):
            left |= {n for n in names if n in STDLIB_LEFT or n.startswith("config-")}
        return left
    return ignore


def copy_python(root, python=PYTHON):
    """PYTHON's interpreter, its libraries and the stdlib a bench uses,
    at their paths under ROOT."""
    py = os.path.realpath(python)
    lib = "/usr/lib/" + os.path.basename(py)
    image.copy(py, root)
    link = root + "/usr/bin/python3"
    if os.path.lexists(link):
        os.unlink(link)
    os.symlink(os.path.basename(py), link)
    shutil.copytree(lib, root + lib, symlinks=True, ignore=stdlib_ignore(lib),
                    dirs_exist_ok=True)
    os.makedirs(root + lib + "/lib-dynload", exist_ok=True)
    for f in sorted(os.listdir(lib + "/lib-dynload")):
        if f.split(".cpython-")[0] in DYNLOAD and f.endswith(".so"):
            image.copy(os.path.join(lib, "lib-dynload", f), root)


def hook(bench, root, args):
    """Everything the bench needs in the initramfs tree ROOT."""
    copy_python(root)
    for b in TOOLS:
        found = shutil.which(b)
        if not found:
            continue
        real = os.path.realpath(found)
        image.copy(real, root)
        if not os.path.exists(root + "/usr/bin/" + b):
            os.symlink(real, root + "/usr/bin/" + b)
    os.makedirs(root + "/usr/share/dbench", exist_ok=True)
    shutil.copy("/usr/share/dbench/client.txt", root + "/usr/share/dbench/")
    # the package's layout: the program in /usr/bin (the tree's, which
    # does what the package's console script does), stbench with the C
    # sources of its workloads in GUEST_DIR
    shutil.copy(os.path.join(bench, "sched-tune-bench"), root + "/usr/bin/")
    dst = root + GUEST_DIR + "/stbench"
    shutil.copytree(os.path.join(bench, "stbench"), dst,
                    ignore=shutil.ignore_patterns("__pycache__"))
    if subprocess.run([PYTHON, "-m", "compileall", "-q", dst],
                      stdout=subprocess.DEVNULL, check=False).returncode != 0:
        raise Error("python3 -m compileall %s failed" % dst)
    # built on the host into the guest's cache, so the guest needs no gcc
    if subprocess.run([PYTHON, os.path.join(bench, "sched-tune-bench"), "build-helpers",
                       "--cache-dir", root + "/var/cache/sched-tune-bench"],
                      stdout=subprocess.DEVNULL, check=False).returncode != 0:
        raise Error("sched-tune-bench build-helpers failed")
    with open(root + "/st/bench.args", "w") as f:
        f.write(args + "\n")


def extract(taplog, d):
    """The results the guest sent between the markers, unpacked in D."""
    lines = read_lines(taplog)
    try:
        i = lines.index(BEGIN)
        j = lines.index(END, i + 1)
    except ValueError:
        raise Error("no results between the markers in %s" % taplog) from None
    try:
        data = base64.b64decode("".join(lines[i + 1:j]), validate=True)
        os.makedirs(d, exist_ok=True)
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as t:
            if hasattr(tarfile, "data_filter"):
                t.extractall(d, filter="data")
            else:
                t.extractall(d)
    except (binascii.Error, tarfile.TarError, EOFError) as e:
        raise Error("the results in %s do not unpack: %s" % (taplog, e)) from None


def smoke(bench, out):
    """Yields the records of the smoke run in OUT."""
    result = os.path.join(out, "result")
    shutil.rmtree(result, ignore_errors=True)
    name = "the smoke run's results came back from the guest"
    try:
        extract(os.path.join(out, "guest", "tap.log"), result)
    except Error as e:
        yield "L", str(e)
        yield check(name, False)
        return
    if not os.path.isfile(os.path.join(result, "results.json")):
        yield check(name, False)
        return
    prog = os.path.join(bench, "sched-tune-bench")
    # the report again on the host, with its plots (results.json untouched)
    report_log = os.path.join(out, "report.log")
    if run_logged([PYTHON, prog, "report", result], report_log) != 0:
        yield from comments(read_lines(report_log), "#   report: ")
    check_log = os.path.join(out, "check.log")
    rc = run_logged([PYTHON, prog, "check", result] + SMOKE_CHECK, check_log)
    lines = read_lines(check_log)
    name = "sched-tune-bench check on the smoke run's results exits 0"
    if rc == 0:
        yield "R", "pass", name, ""
        yield "L", "sched-tune-bench check: %d ok lines" % sum(
            x.startswith("ok ") for x in lines)
    else:
        yield "R", "fail", "%s (exit %d)" % (name, rc), ""
        yield from comments([x for x in lines if not x.startswith("ok ")][:20])


def main(argv):
    return cli(argv[1:], __doc__, {
        "hook": (3, hook),
        "extract": (2, extract),
        "smoke": (2, lambda bench, out: records(smoke(bench, out))),
        "packages": (0, lambda: print("\n".join(PACKAGES))),
    }, (Error, OSError))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
