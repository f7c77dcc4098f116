# SPDX-License-Identifier: GPL-2.0
"""A guest's plan, its boot and its verdict, for lib.sh and run.sh (st_plan,
st_guest_verdict, strunner.plan boot).

The units a boot runs come from one list: guest/tests.sh's ALL_UNITS, or
the last "units_run" line of another mode's script.

    python3 -m strunner.guest plan TESTS MODE [WORDS...]

prints three lines: the boot's plan (its units in order, st_only and
st_skip of WORDS applied, the last of each winning as in the guest, then
whole_run), how many of them run (skips and whole_run aside) and the
names in st_only or st_skip that are no unit (the guest then runs a
failing unit, unknown_units, first).  It exits 1 for a mode with no
script.

    python3 -m strunner.guest verdict TESTS SPLAT LABEL RC DIR [MODE [WORDS...]]

reads the guest's KTAP (DIR/tap.log, strunner.ktap's records), then adds
one failure where it was stopped with the run (DIR/stopped), hung (RC
124: the last "# RUNNING" names where), died before its plan, stopped
short of it, or qemu exited non-zero after it; with MODE, its plan
against the host's; the console after the guest's last result (an oops
at poweroff, which no unit's dmesg check sees, SPLAT the kernel reports'
regex); and the console's tail (DIR/console.log) when anything failed.
Records as strunner.ktap prints them, plus "L TEXT", a line for the log.

run() (strunner.plan boot, job.sh guest_run) boots VMLINUZ with
OUT/../initramfs.cpio into OUT (strunner/qemu.py, its settings and the
run's deadline from the environment, lib.sh st_qemu_env), running a
MODE's script with WORDS, and yields its verdict's records.  A boot
whose estimate, REF reference seconds at this machine's pace
(budget.scaled), does not fit before the deadline is not started, and
DESC fails as not run (budget.fits).  It may run ST_GUEST_TIMEOUT s, or
twice its estimate where that is longer (a slow machine's boot is not a
hung one; ST_GUEST_SILENCE still ends a silent guest), never past the
deadline.  One that ran its plan to the end records what it took in
$ST_RUN/boots, for the pace of the boots after it.

    python3 -m strunner.guest slowest BUILD N

the N longest guest units of the run whose build directory is BUILD,
each from its "# RUNNING UNIT (uptime T s)" line to the next one (or
"# units done"), in guest seconds.
"""

import glob
import os
import re
import sys
import time

from strunner import budget, ktap, number, qemu, read_lines, records


def units(tests, mode):
    """The units of MODE's script in TESTS/guest, and whether they are
    tests.sh's ALL_UNITS (which st_only and st_skip filter); None for a
    mode with no script."""
    try:
        with open(os.path.join(tests, "guest", mode + ".sh"),
                  encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        return None, False
    m = re.search(r'^ALL_UNITS="([^"]*)"', text, re.M)
    if m:
        return m.group(1).split(), True
    runs = re.findall(r"^units_run (.*)$", text, re.M)
    return (runs[-1].split() if runs else []), False


def plan(tests, mode, words):
    """(plan, runs, unknown) of a boot, or None for a mode with no
    script."""
    all_units, filtered = units(tests, mode)
    if all_units is None:
        return None
    if not filtered:
        return all_units, sum(u != "whole_run" for u in all_units), []
    only, skip = "", ""
    for w in words:
        if w.startswith("st_only="):
            only = w[len("st_only="):]
        elif w.startswith("st_skip="):
            skip = w[len("st_skip="):]
    only_l = [u for u in only.split(",") if u]
    skip_l = [u for u in skip.split(",") if u]
    unknown = [u for u in only_l + skip_l if u not in all_units]
    out = ["unknown_units"] if unknown else []
    runs = 0
    for u in all_units:
        if only_l and u not in only_l:
            continue
        out.append(u)
        runs += u not in skip_l
    return out + ["whole_run"], runs, unknown


def _read(path, default=""):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.read().strip()
    except FileNotFoundError:
        return default


# What ends a guest (lib.sh st_qemu_env: an oops panics it), as the
# kernel prints it
_FATAL = re.compile(r"Oops|BUG: |general protection fault|Kernel panic")


def _fatal_report(console):
    """The first fatal report on CONSOLE once the guest's init began (the
    boot's own lines, its command line among them, are not reports), or
    None."""
    start = next((i for i, x in enumerate(console) if x.startswith("st-guest: ")), None)
    if start is None:
        return None
    return next((x.strip() for x in console[start:] if _FATAL.search(x)), None)


def verdict(tests, splat, label, rc, d, mode_words):
    """Yields the records of a guest's verdict."""
    tap_lines = read_lines(os.path.join(d, "tap.log"))
    failed = False
    top_plan, count = "", 0
    for rec in ktap.parse(tap_lines):
        if rec[0] == "P":
            top_plan, count = rec[1], rec[2]
            continue
        failed |= rec[0] == "R" and rec[1] == "fail"
        yield rec
    running = [x for x in tap_lines if x.startswith("# RUNNING")]
    last = running[-1][len("# RUNNING "):] if running else ""
    stopped = os.path.exists(os.path.join(d, "stopped"))
    why = None
    console = read_lines(os.path.join(d, "console.log"))
    if stopped:
        yield "R", "fail", "guest ran to its end (stopped with the run)", ""
        yield "L", "%s: %s; last group: %s; %d of %s results" % (
            label, _read(os.path.join(d, "stopped")), last, count,
            top_plan or "?")
        failed = True
    elif rc == 124:
        hung = _read(os.path.join(d, "hung"), "no end within its timeout")
        yield "R", "fail", ("guest hung: %s, killed (last group: %s; NMI "
                            "backtraces in the console log)" % (hung, last)), ""
        yield "L", "last lines of %s's results:" % label
        for x in tap_lines[-15:]:
            yield "L", "  tap: " + x
        failed = True
    elif not top_plan or top_plan != str(count):
        if not top_plan:
            why = "guest died before printing its plan (panic or crash; qemu rc %d)" % rc
        else:
            why = "guest plan 1..%s but %d results" % (top_plan, count)
        # an oops panics the guest (lib.sh st_qemu_env): its report is why
        report = _fatal_report(console)
        if report is not None:
            why += ": the console's first fatal kernel report: " + report
    elif rc != 0:
        why = "qemu exited 0 after the guest's last result (it exited %d)" % rc
    rx = re.compile(splat)
    if why:
        yield "R", "fail", why, ""
        failed = True
    if mode_words and top_plan:
        want = plan(tests, mode_words[0], mode_words[1:])
        if want is not None:
            units_, _, unknown = want
            got = next((x[len("# plan: "):] for x in tap_lines
                        if x.startswith("# plan: ")), "")
            if unknown:
                failed = True
                yield "R", "fail", ("st_only and st_skip name units of this "
                                    "boot (unknown: %s)" % " ".join(unknown)), ""
            if got == " ".join(units_) and str(len(got.split())) == top_plan:
                yield "R", "pass", "the guest's plan is the host's", ""
            else:
                failed = True
                yield "R", "fail", "the guest's plan is the host's", ""
                yield "L", "  host:  " + " ".join(units_)
                yield "L", "  guest: %s, 1..%s" % (got or "(no plan line)",
                                                   top_plan)
    done = next((i for i, x in enumerate(console)
                 if x.startswith("st-guest: done")), None)
    if not stopped and rc != 124 and done is not None:
        after = [x for x in console[done:] if rx.search(x)][:10]
        name = "no kernel report on the console after the guest's last result"
        if not after:
            yield "R", "pass", name, ""
        else:
            failed = True
            yield "R", "fail", "%s: %s" % (name, rx.search(after[0]).group(0)), ""
            for x in after:
                yield "L", "  console after the last result: " + x
    if failed:
        yield "L", "console log of %s (last 150 lines, full: %s):" % (
            label, os.path.join(d, "console.log"))
        for x in console[-150:]:
            yield "L", "  console: " + x
    yield "P", top_plan, count


def run(env, ref, desc, tests, splat, label, out, vmlinuz, mode, words):
    """The records of one boot (see above), REF reference seconds
    (strunner.plan)."""
    need, f = budget.scaled(env, ref)
    r = qemu.Run(env)
    t0 = float(env.get("ST_T0") or time.time())
    ok = yield from budget.fits(r, env, desc, need, budget.pace_words(f), label)
    if not ok:
        return
    left = "no deadline"
    if r.deadline is not None:
        left = "%d s left before the deadline" % (r.deadline - time.time())
    # a slow machine's boot is not a hung one: at least twice its estimate
    timeout = max(int(number(env.get("ST_GUEST_TIMEOUT") or "2400")), 2 * need)
    yield "L", "[%d s] %s: boot (%s vCPUs, timeout %ds, %s)" % (
        time.time() - t0, label, env.get("ST_QEMU_SMP"), timeout, left)
    start = time.time()
    rc = qemu.boot(dict(env, ST_GUEST_TIMEOUT=str(timeout)), out, vmlinuz, qemu.initramfs_of(out),
                   ["st_mode=" + mode] + words)
    secs = int(time.time() - start)
    yield "L", "[%d s] %s: guest exited (qemu rc %d) after %d s, estimated %d s (factor %.3f)" % (
        time.time() - t0, label, rc, secs, need, f)
    top_plan, count = "", 0
    for rec in verdict(tests, splat, label, rc, out, [mode] + words):
        if rec[0] == "P":
            top_plan, count = rec[1], rec[2]
        yield rec
    if r.deadline is not None and not os.path.exists(os.path.join(out, "stopped")) and \
            rc == 0 and top_plan == str(count):
        qemu.write(os.path.join(r.dir, "boots", "%s.%d.%d" % (mode, os.getpid(), time.time())),
                   "%s %d %d" % (mode, ref, secs))


_UPTIME = re.compile(r"\(uptime ([0-9.]+) s\)$")


def slowest(build, n):
    """The lines of the N longest units of every boot under BUILD."""
    rows = []
    for tap in sorted(glob.glob(os.path.join(build, "*", "guest*", "tap.log"))):
        label = os.path.relpath(os.path.dirname(tap), build)
        label = label.replace("/guest-ops", " direct_hooks=0", 1)
        label = label.replace("/guest-numa", " numa", 1)
        if label.endswith("/guest"):
            label = label[:-len("/guest")]
        unit, t0 = "", 0.0
        for line in read_lines(tap):
            m = _UPTIME.search(line)
            if not m or not (re.match(r"^# RUNNING [^ ]+ \(uptime", line) or
                             line.startswith("# units done")):
                continue
            t = float(m.group(1))
            if unit:
                row = "%8.1f s  %s: %s" % (t - t0, label, unit)
                # as sort -rn: by the figure printed, then the line
                rows.append((float(row.split()[0]), row))
            unit = line.split()[2] if line.startswith("# RUNNING") else ""
            t0 = t
    return [line for _, line in sorted(rows, reverse=True)[:n]]


def main(argv):
    if argv[0] == "plan":
        p = plan(argv[1], argv[2], argv[3:])
        if p is None:
            return 1
        print(" ".join(p[0]))
        print(p[1])
        print(" ".join(p[2]))
        return 0
    if argv[0] == "slowest":
        for line in slowest(argv[1], int(argv[2])):
            print(line)
        return 0
    if argv[0] == "verdict":
        tests, splat, label, rc, d = argv[1:6]
        records(verdict(tests, splat, label, int(rc), d, argv[6:]))
        return 0
    print("usage: strunner.guest plan|verdict|slowest ...", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
