# SPDX-License-Identifier: GPL-2.0
"""make check's results: one KTAP document and the line CI reads.

    python3 -m strunner.results run [--budget] SCRIPT [ARG...]
    python3 -m strunner.results filter
    python3 -m strunner.results kill PID

A script (run.sh, lint.sh, pkg.sh, bench_vm.sh, bench-icount.sh) runs
under "run" (lib.sh st_results_main): its lines and its stderr come
here.  lib.sh's st_result prints each result flat, "ok N - [GROUP] desc"
(" # SKIP why" for a skip); "# group-end GROUP" ends a group; "# summary"
asks for the summary.  A job (strunner.runner job, lib.sh run_job) prints its
results flat to a file and, last, "# job-end RC": "# job PID FILE NAME"
has that file followed here while PID lives, each line counted as it
comes, and the job judged under NAME once PID ended ("# job-why PID
WHY": why it was killed); "# job-lines NAME" ... "# job-lines-end" pass
on the lines of a job that ended (lib.sh replay).  A job that died
before its "# job-end", ended non-zero or printed no result fails, and
its groups end with it.  The results are groups (a host stage, a kernel,
a boot): a group's results wait here, numbered in the group, until it
ends, and are then printed as a nested document (indented, its own
version line and plan) followed by "ok K - GROUP", not ok if any of them
failed.  Meanwhile every failure and skip, and every ST_PROGRESS-th
result of a group, streams as a "# [GROUP] ..." comment; every other
line is printed as it comes.

The summary comes whatever happens to the script: one that ends without
asking for it (st_die, a signal, a crash) fails by name, with its exit
status; so does one that exits non-zero with no failed result.  A
SIGTERM, SIGINT or SIGHUP here is passed on to the script, which stops
its guests and sums up (strunner.runner); one that has not ended
ST_STOP_GRACE + 60 s later is killed with all its processes.  With
--budget (make check) the same happens ST_BUDGET_TAIL / 2 s before
ST_BUDGET runs out (the kill ST_BUDGET_TAIL / 3 s before), if the
script's own deadline did not end it: the summary line is printed
inside the budget.  "filter" reads such lines from standard input (the
runner's test).  The exit status is 1 if any result failed.  "kill"
ends PID and every process below it (lib.sh st_kill_tree).
"""

import os
import select
import signal
import subprocess
import sys
import time

_SUMMARY = "# summary"
_GROUP_END = "# group-end "
_JOB = "# job "
_JOB_WHY = "# job-why "
_JOB_LINES = "# job-lines "
_JOB_LINES_END = "# job-lines-end"
_JOB_END = "# job-end "


def _marker(line, mark, words):
    """Whether @line is @mark, a pid and @words - 1 more words."""
    w = line[len(mark):].split(" ", words - 1)
    return line.startswith(mark) and len(w) == words and w[0].isdigit()


def flat(line):
    """(verdict, group, desc, skip reason) of a flat result line, or
    None for any other line."""
    verdict = "pass"
    if line.startswith("not ok "):
        verdict, rest = "fail", line[len("not ok "):]
    elif line.startswith("ok "):
        rest = line[len("ok "):]
    else:
        return None
    num, sep, rest = rest.partition(" - [")
    if not sep or not num.isdigit() or "] " not in rest:
        return None
    group, desc = rest.split("] ", 1)
    why = ""
    if verdict == "pass" and " # SKIP " in desc:
        desc, why = desc.split(" # SKIP ", 1)
        verdict = "skip"
    return verdict, group, desc, why


class Group:
    """A group's counts over the run, and its results since it last
    ended."""

    def __init__(self):
        self.counts = {"pass": 0, "fail": 0, "skip": 0}
        self.lines, self.fails, self.skips, self.why = [], 0, 0, ""


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True


class Job:
    """A job (lib.sh run_job): its results flat in a file, its exit
    status its last line, "# job-end RC"."""

    def __init__(self, name, path=None, pid=0):
        self.name, self.path, self.pid = name, path, pid
        self.offset, self.buf = 0, b""
        self.end, self.n, self.groups, self.why = None, 0, [], ""

    def line(self, results, line):
        """One line of the job's output, into @results."""
        if line.startswith(_JOB_END) and line[len(_JOB_END):].isdigit():
            self.end = int(line[len(_JOB_END):])
            return
        r = flat(line)
        if not r:
            results.say(line)
            return
        results.result(*r)
        self.n += 1
        if r[1] not in self.groups:
            self.groups.append(r[1])

    def follow(self, results, ended=False, judge=True):
        """The job's new complete lines; once it ended (or @ended), the
        rest, and its verdict (unless not @judge).  True when it
        ended."""
        ended = ended or not _alive(self.pid)
        try:
            with open(self.path, "rb") as f:
                f.seek(self.offset)
                data = f.read()
        except OSError:
            data = b""
        self.offset += len(data)
        *lines, self.buf = (self.buf + data).split(b"\n")
        if ended and self.buf:
            lines.append(self.buf)
            self.buf = b""
        for line in lines:
            self.line(results, line.decode("utf-8", "replace"))
        if ended and judge:
            self.judge(results)
        return ended

    def judge(self, results):
        """The job's own verdict under its name, then its groups end: no
        other job or stage adds to them."""
        name, n = self.name, self.n
        if self.end is None:
            why = ", " + self.why if self.why else ""
            results.result("fail", name, "job ran to its end (it died after"
                           " %d results%s; its last lines are above)"
                           % (n, why))
        elif self.end != 0:
            results.result("fail", name, "job ran to its end (it exited %d"
                           " after %d results)" % (self.end, n))
        elif n == 0:
            results.result("fail", name, "job printed results (none)")
        for g in self.groups + [name]:
            results.group_end(g)


class Results:
    """The results of a run, printed to @out as they come."""

    def __init__(self, out, progress=25):
        self.out, self.progress = out, progress
        self.groups = {}
        self.open = []
        self.jobs = []
        self.replaying = None
        self.top = 0
        self.failed = []
        self.total = {"pass": 0, "fail": 0, "skip": 0}
        self.summed = False

    def say(self, text):
        self.out.write(text + "\n")
        self.out.flush()

    def result(self, verdict, group, desc, why=""):
        g = self.groups.setdefault(group, Group())
        self.total[verdict] += 1
        g.counts[verdict] += 1
        if group not in self.open:
            self.open.append(group)
            g.why = why
        n = len(g.lines) + 1
        v = "not ok" if verdict == "fail" else "ok"
        if verdict == "skip":
            desc += " # SKIP " + why
            g.skips += 1
        elif verdict == "fail":
            g.fails += 1
            self.failed.append("%d - [%s] %s" % (n, group, desc))
        g.lines.append("    %s %d - %s" % (v, n, desc))
        if verdict != "pass" or (self.progress > 0 and n % self.progress == 0):
            self.say("# [%s] %s %d - %s" % (group, v, n, desc))

    def group_end(self, group):
        """@group's results since it last ended as a nested document,
        then its own result; nothing if it has none."""
        if group not in self.open:
            return
        g = self.groups[group]
        self.top += 1
        v = "not ok" if g.fails else "ok"
        self.say("    KTAP version 1\n    # Subtest: %s\n    1..%d"
                 % (group, len(g.lines)))
        for line in g.lines:
            self.say(line)
        # a group of skips only did not run: the first one says why
        if g.skips == len(g.lines):
            self.say("%s %d - %s # SKIP %s" % (v, self.top, group, g.why))
        else:
            self.say("%s %d - %s" % (v, self.top, group))
        g.lines, g.fails, g.skips, g.why = [], 0, 0, ""
        self.open.remove(group)

    def line(self, line):
        """One line of the script's output; one this code cannot take
        is a failure, never the end of the results."""
        try:
            self._line(line)
        except Exception as e:
            self.result("fail", "host", "make check's results read each"
                        " line (%r: %s)" % (line[:80], e))

    def _line(self, line):
        if self.replaying:
            if line == _JOB_LINES_END:
                self.replaying.judge(self)
                self.replaying = None
            else:
                self.replaying.line(self, line)
            return
        r = flat(line)
        if r:
            self.result(*r)
        elif line.startswith(_GROUP_END):
            self.group_end(line[len(_GROUP_END):])
        elif _marker(line, _JOB, 3):
            pid, path, name = line[len(_JOB):].split(" ", 2)
            self.jobs.append(Job(name, path, int(pid)))
        elif _marker(line, _JOB_WHY, 2):
            pid, why = line[len(_JOB_WHY):].split(" ", 1)
            for job in self.jobs:
                if job.pid == int(pid):
                    job.why = why
        elif line.startswith(_JOB_LINES):
            self.replaying = Job(line[len(_JOB_LINES):])
        elif line == _SUMMARY:
            self.follow(ended=True)
            self.summed = True
        else:
            self.say(line)

    def follow(self, ended=False):
        """Every job's new lines; those that ended, judged (with
        @ended: all of them)."""
        self.jobs = [j for j in self.jobs if not j.follow(self, ended)]

    def summary(self):
        """Every job judged and every group still open ended, the table
        per group, the failed results, the top-level plan and the line
        CI reads."""
        self.follow(ended=True)
        if self.replaying:
            self.line(_JOB_LINES_END)
        while self.open:
            self.group_end(self.open[0])
        self.say("#\n# summary per kernel / stage:")
        for name, g in self.groups.items():
            c = g.counts
            self.say("#   %-40s %3d passed, %3d failed, %3d skipped"
                     % (name, c["pass"], c["fail"], c["skip"]))
        # again at the end, where a CI that keeps only the log's tail
        # shows them: which checks failed, not just how many
        if self.failed:
            self.say("# failed:")
            for f in self.failed[:20]:
                self.say(("#   not ok " + f)[:240])
            if len(self.failed) > 20:
                self.say("#   ... and %d more" % (len(self.failed) - 20))
        self.say("1..%d" % self.top)
        t = self.total
        line = "%d passed, %d failed" % (t["pass"], t["fail"])
        if t["skip"]:
            line += ", %d skipped" % t["skip"]
        self.say(line)
        return 1 if t["fail"] else 0


def _children(pid):
    kids = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % d, encoding="utf-8") as f:
                stat = f.read()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            kids.append(int(d))
    return kids


def kill_tree(pid):
    """@pid and every process below it, all listed first: SIGTERM, and
    SIGKILL a second later for what is left."""
    tree, i = [pid], 0
    while i < len(tree):
        tree += _children(tree[i])
        i += 1
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for p in tree:
            try:
                os.kill(p, sig)
            except OSError:
                pass
        if sig == signal.SIGTERM:
            time.sleep(1)


class Script:
    """The script run under the results, its lines read as they come."""

    def __init__(self, argv, results, env, budget):
        self.results = results
        self.start = time.time()
        budget = float(env.get("ST_BUDGET", "4800")) if budget else 1e12
        tail = float(env.get("ST_BUDGET_TAIL", "90"))
        self.grace = float(env.get("ST_STOP_GRACE", "45")) + 60
        self.term_at = self.start + budget - tail / 2
        self.kill_at = self.start + budget - tail / 3
        self.told = None
        self.why = ""
        child_env = dict(env, ST_RESULTS_T0=str(int(self.start)))
        self.proc = subprocess.Popen(argv, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, env=child_env)
        for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(sig, self.signalled)
        self.buf = b""

    def signalled(self, sig, _frame):
        self.tell(sig, "%s here" % signal.Signals(sig).name)

    def tell(self, sig, why):
        """Passes @sig on to the script; its end is awaited from now."""
        if self.told is None:
            self.told = time.time()
            self.why = why
        try:
            self.proc.send_signal(sig)
        except OSError:
            pass

    def feed(self, data):
        self.buf += data
        *lines, self.buf = self.buf.split(b"\n")
        for line in lines:
            self.results.line(line.decode("utf-8", "replace"))

    def run(self):
        """Reads the script to its end; its exit status, or None if it
        was killed here."""
        fd = self.proc.stdout.fileno()
        killed = False
        quiet_since = None
        while True:
            ready, _, _ = select.select([fd], [], [], 0.5)
            if ready:
                data = os.read(fd, 65536)
                if not data:
                    break
                self.feed(data)
                quiet_since = None
            self.results.follow()
            now = time.time()
            if self.proc.poll() is not None:
                # its own end: what is left in the pipe, unless a
                # process it left behind holds it open
                if killed:
                    break
                if quiet_since is None:
                    quiet_since = now
                elif now - quiet_since > 2:
                    break
                continue
            if self.told is None and now >= self.term_at:
                self.results.say("# stopping the script: %d s of ST_BUDGET"
                                 " gone and it has not summed up"
                                 % (now - self.start))
                self.tell(signal.SIGTERM, "the budget's end")
            limit = min(self.kill_at, (self.told or now) + self.grace)
            if self.told is not None and now >= limit:
                self.results.say("# killing the script and its processes"
                                 " (%s, %d s ago)"
                                 % (self.why, now - self.told))
                kill_tree(self.proc.pid)
                killed = True
                try:
                    self.proc.wait(timeout=2)
                except subprocess.TimeoutExpired:
                    pass
        if self.buf:
            self.feed(b"\n")
        rc = self.proc.wait()
        return None if killed else rc


def verdict(results, rc, what):
    """The script's end as a result of group host when it did not sum
    up or exited non-zero with no failure; then the summary."""
    if not results.summed:
        # the jobs of a script that died are orphans: they end with it
        for job in results.jobs:
            if job.pid and _alive(job.pid):
                kill_tree(job.pid)
            job.follow(results, ended=True, judge=False)
    n = sum(results.total.values())
    results.follow(ended=True)
    if rc is None:
        results.result("fail", "host", "%s summed up (it was killed after"
                       " %d results; its last lines are above)" % (what, n))
    elif not results.summed:
        end = ("was killed by %s" % signal.Signals(-rc).name if rc < 0
               else "exited %d" % rc)
        results.result("fail", "host", "%s summed up (it %s after %d"
                       " results; its last lines are above)" % (what, end, n))
    elif rc != 0 and not results.total["fail"]:
        results.result("fail", "host", "%s exited 0 with every result"
                       " passed (it exited %d)" % (what, rc))
    return results.summary()


def main(argv):
    if argv[1:2] == ["kill"] and len(argv) == 3:
        kill_tree(int(argv[2]))
        return 0
    budget = argv[2:3] == ["--budget"]
    if len(argv) < 2 or argv[1] not in ("run", "filter") or \
            (argv[1] == "run" and len(argv) < 3 + budget):
        sys.exit("usage: python3 -m strunner.results run [--budget] SCRIPT"
                 " [ARG...] | filter")
    results = Results(sys.stdout, int(os.environ.get("ST_PROGRESS", "25")))
    results.say("KTAP version 1")
    if argv[1] == "filter":
        for raw in sys.stdin.buffer:
            results.line(raw.decode("utf-8", "replace").rstrip("\n"))
        return verdict(results, 0, "the results")
    argv = argv[2 + budget:]
    rc = Script(argv, results, os.environ, budget).run()
    # bash SCRIPT...: the script's name
    what = argv[1] if os.path.basename(argv[0]) in ("bash", "sh") and \
        len(argv) > 1 else argv[0]
    return verdict(results, rc, os.path.basename(what))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
