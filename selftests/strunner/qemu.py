# SPDX-License-Identifier: GPL-2.0
"""One guest under qemu, watched to its end (lib.sh st_boot).

    python3 -m strunner.qemu OUT VMLINUZ INITRD [CMDLINE-WORD...]

The console (the kernel's log) goes to OUT/console.log and the guest's
KTAP to OUT/tap.log, a second serial port, so printk never interleaves
with results.  The guest is ended as hung (OUT/hung says why) once it
printed no result for ST_GUEST_SILENCE s or ran ST_GUEST_TIMEOUT s: an
NMI through the monitor first, which with unknown_nmi_panic and
panic_print=0x40 logs every CPU's backtrace (a CPU looping with IRQs
off, a tail call into an original, shows where), then qemu is killed.
No boot outlives the run's deadline (ST_DEADLINE, epoch seconds), and a
run that stops ($ST_RUN/stop, its reason) stops its guest at once,
OUT/stopped saying why.  The guest's pace, its "# pace: 400 hackbench
loops in N cs" line, goes to $ST_RUN/pace/ (budget.factor), and a
guest slower than ST_PACE_HOST_CS gets its timeout stretched as much:
ST_GUEST_TIMEOUT is at that pace, and a slow machine's boot is not a
hung one.

The exit status is qemu's, 124 for a hung or stopped guest.  The qemu
words and their defaults are lib.sh's (ST_QEMU, ST_QEMU_ACCEL,
ST_QEMU_CPU, ST_MEM, ST_QEMU_SMP, ST_QEMU_EXTRA, ST_CMDLINE); ST_POLL
is the seconds between looks (the runner's test looks more often),
ST_NMI_WAIT those between the NMI and the kill.
"""

import os
import re
import signal
import subprocess
import sys
import time

from strunner import read_lines

_PACE = re.compile(r"^# pace: 400 hackbench loops in ([^ ]*) cs")


def deadline_why(budget, tail):
    """What the run's deadline is, from ST_BUDGET and ST_BUDGET_TAIL."""
    return ("the run's deadline, %d s after its start (ST_BUDGET=%d s less %d s"
            " to count and sum up)" % (budget - tail, budget, tail))


class Run:
    """The run's shared stop state: its deadline and $ST_RUN/stop."""

    def __init__(self, env):
        self.deadline = int(env["ST_DEADLINE"]) if env.get("ST_DEADLINE") else None
        self.dir = env.get("ST_RUN", "")
        self.why = env.get("ST_DEADLINE_WHY") or (
            deadline_why(int(env["ST_BUDGET"]), int(env["ST_BUDGET_TAIL"]))
            if env.get("ST_BUDGET") and env.get("ST_BUDGET_TAIL") else "the run's deadline")

    def stopped(self):
        return self.deadline is not None and os.path.exists(self.stop_file())

    def stop_file(self):
        return os.path.join(self.dir, "stop")

    def reason(self):
        lines = read_lines(self.stop_file())
        return lines[0] if lines else ""

    def stop(self, why):
        """The run stops for WHY; the first reason stays."""
        if os.path.exists(self.stop_file()):
            return
        with open(self.stop_file() + ".new", "w", encoding="utf-8") as f:
            f.write(why + "\n")
        os.replace(self.stop_file() + ".new", self.stop_file())
        print("# stopping: %s" % why, flush=True)

    def deadline_check(self):
        """Past the deadline the run stops."""
        if self.deadline is not None and time.time() >= self.deadline:
            self.stop(self.why)

    def record_pace(self, out, pace):
        try:
            write(os.path.join(self.dir, "pace", out.replace("/", "_")), pace)
        except OSError:
            pass


def qemu_argv(env, out, vmlinuz, initrd, words):
    """The command line lib.sh's settings make for this guest."""
    mon = os.path.join(out, "monitor")
    return ([env["ST_QEMU"], "-accel", env["ST_QEMU_ACCEL"],
             "-cpu", env["ST_QEMU_CPU"], "-m", env["ST_MEM"],
             "-smp", env["ST_QEMU_SMP"]] +
            env.get("ST_QEMU_EXTRA", "").split() +
            ["-nographic", "-no-reboot", "-nodefaults",
             "-monitor", "pipe:" + mon,
             "-serial", "file:" + os.path.join(out, "console.log"),
             "-serial", "file:" + os.path.join(out, "tap.log"),
             "-kernel", vmlinuz, "-initrd", initrd,
             "-append", " ".join(env.get("ST_CMDLINE", "").split() + words)])


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text + "\n")


class Guest:
    """qemu and its monitor, whose output is drained so qemu never
    blocks writing to it."""

    def __init__(self, argv, out):
        self.mon = os.path.join(out, "monitor")
        for end in (".in", ".out"):
            try:
                os.unlink(self.mon + end)
            except FileNotFoundError:
                pass
            os.mkfifo(self.mon + end)
        with open(os.devnull, "rb") as null, \
                open(os.path.join(out, "qemu.log"), "wb") as log:
            self.proc = subprocess.Popen(argv, stdin=null, stdout=log,
                                         stderr=subprocess.STDOUT)
        # read-write, as qemu opens it: no wait for the other end
        self.mon_out = os.open(self.mon + ".out", os.O_RDWR | os.O_NONBLOCK)
        self.mon_log = open(os.path.join(out, "monitor.log"), "ab")

    def drain(self):
        while True:
            try:
                data = os.read(self.mon_out, 65536)
            except BlockingIOError:
                return
            if not data:
                return
            self.mon_log.write(data)

    def sleep(self, secs):
        end = time.monotonic() + secs
        while True:
            self.drain()
            left = end - time.monotonic()
            if left <= 0 or self.proc.poll() is not None:
                return
            time.sleep(min(left, 0.5))

    def nmi(self):
        fd = os.open(self.mon + ".in", os.O_RDWR | os.O_NONBLOCK)
        try:
            os.write(fd, b"nmi\n")
        finally:
            os.close(fd)

    def kill(self):
        """SIGTERM, SIGKILL 2 s later; qemu's status."""
        if self.proc.poll() is None:
            self.proc.terminate()
            self.sleep(2)
            if self.proc.poll() is None:
                self.proc.kill()
        return self.wait()

    def wait(self):
        rc = self.proc.wait()
        self.drain()
        os.close(self.mon_out)
        self.mon_log.close()
        for end in (".in", ".out"):
            try:
                os.unlink(self.mon + end)
            except FileNotFoundError:
                pass
        # a signal's death as a shell reports it
        return 128 - rc if rc < 0 else rc


def stretch(env, timeout, pace):
    """TIMEOUT for a guest of PACE centiseconds, ST_PACE_HOST_CS being
    the pace it is meant for: never shorter."""
    host = int(env.get("ST_PACE_HOST_CS") or 0)
    if host <= 0 or pace <= host:
        return timeout
    longer = timeout * pace // host
    print("# pace %d cs, slower than %d cs: timeout %d s" % (pace, host, longer), flush=True)
    return longer


def initramfs_of(out):
    """The initramfs a boot into OUT takes: its kernel's, OUT/.."""
    return os.path.join(os.path.dirname(out), "initramfs.cpio")


def boot(env, out, vmlinuz, initrd, words):
    """Runs the guest to its end; its exit status."""
    run = Run(env)
    timeout = int(env.get("ST_GUEST_TIMEOUT", "2400"))
    silence = int(env.get("ST_GUEST_SILENCE", "600"))
    poll = float(env.get("ST_POLL") or 1)
    limit = timeout
    if run.deadline is not None and run.deadline - int(time.time()) < limit:
        limit = run.deadline - int(time.time())
    os.makedirs(out, exist_ok=True)
    tap = os.path.join(out, "tap.log")
    for name in ("console.log", "tap.log"):
        open(os.path.join(out, name), "w", encoding="utf-8").close()
    for name in ("hung", "stopped"):
        try:
            os.unlink(os.path.join(out, name))
        except FileNotFoundError:
            pass
    run.deadline_check()
    if run.stopped() or limit <= 0:
        write(os.path.join(out, "stopped"), "not started: " + run.reason())
        return 124
    guest = Guest(qemu_argv(env, out, vmlinuz, initrd, words), out)

    def on_term(signum, _frame):
        guest.kill()
        sys.exit(128 + signum)
    signal.signal(signal.SIGTERM, on_term)
    # a terminal's SIGINT reaches qemu too, which ends: the loop sees it
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    t0 = seen = time.monotonic()
    size = 0
    pace = None
    while guest.proc.poll() is None:
        now = time.monotonic()
        n = os.stat(tap).st_size
        if n != size:
            size, seen = n, now
        if pace is None and run.deadline is not None and n > 0:
            # the guest's third line; "?" in a boot with counts of its own
            for line in read_lines(tap, 20):
                m = _PACE.match(line)
                if m:
                    pace = m.group(1)
                    if pace.isdigit():
                        run.record_pace(out, pace)
                        timeout = stretch(env, timeout, int(pace))
                    break
        if now - t0 >= limit and limit < timeout:
            run.deadline_check()
        if run.stopped():
            write(os.path.join(out, "stopped"), run.reason())
            guest.kill()
            return 124
        if now - t0 >= timeout or now - seen >= silence:
            if now - seen >= silence:
                write(os.path.join(out, "hung"), "silent for %d s" % silence)
            else:
                write(os.path.join(out, "hung"),
                      "still running after %d s" % timeout)
            guest.nmi()
            guest.sleep(float(env.get("ST_NMI_WAIT") or 20))
            guest.kill()
            return 124
        guest.sleep(poll)
    rc = guest.wait()
    # qemu ended with the run (a terminal's SIGINT)
    if run.stopped():
        write(os.path.join(out, "stopped"), run.reason())
        return 124
    return rc


def main(argv):
    if len(argv) < 4:
        sys.exit("usage: python3 -m strunner.qemu OUT VMLINUZ INITRD [WORD...]")
    return boot(os.environ, argv[1], argv[2], argv[3], argv[4:])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
