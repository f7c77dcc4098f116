# SPDX-License-Identifier: GPL-2.0
"""make check's host runner: the host's stages, then the kernels' jobs in
lanes against one deadline, then the end (run.sh execs it; make check's
results, strunner.results, count what it prints).

    python3 -m strunner.runner
    python3 -m strunner.runner job lint|pkg

The stages run in order: the machine's own sched_tune state, read before
anything is installed; the host's packages (strunner.host); the plan
(strunner.plan init); the guests' static helpers; then, as side jobs
beside everything after them, the Debian package stage ("job pkg":
strunner.pkg stage) and the lint ("job lint": strunner.lint statics);
the runner's own test, the support matrix's data and docs, the fidelity
pages, the unit
tests, the bench's and the runner's Python unit tests.  The plan's jobs
then start ST_JOBS at a time (job.sh run_kernel, run_boot), each kernel
only if its estimate fits before the deadline (strunner.plan fits).

Every result is printed flat, "ok N - [GROUP] desc", as lib.sh's
st_result prints it; a job's results go to its file, which "# job PID
FILE NAME" has strunner.results follow.  At the deadline (ST_BUDGET less
ST_BUDGET_TAIL s after the results' start), or on SIGTERM or SIGINT,
RUN/stop says why: the jobs stop their guests, and ST_STOP_GRACE s later
whatever still runs is killed with its processes.  The end: the stages
and jobs that did not run fail by name (a skip in a run declared short,
ST_SHORT=1), the machine's state is compared with the one read first,
the slowest guest units and the support matrix are printed, and "#
summary" asks for the summary.
"""

import os
import select
import signal
import subprocess
import sys
import time
import traceback

from strunner import bench, budget, pkg, plan, qemu, results

_STAGES = ("host setup", "the runner's own test", "the support matrix", "the fidelity pages",
           "unit tests", "the bench's unit tests", "the runner's unit tests", "lint",
           "Debian package stage")


class Stopped(Exception):
    """The run was told to stop while a stage ran."""


class Check:
    """One make check run, its settings from ENV (run.sh's)."""

    def __init__(self, env, out=sys.stdout):
        self.env, self.out = env, out
        self.tests = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        self.root = os.path.dirname(self.tests)
        self.src = env.get("ST_SRC") or self.root
        self.build = env.get("ST_BUILD") or os.path.join(self.root, "build")
        self.run = env.get("ST_RUN") or os.path.join(self.build, "run")
        self.cache = env.get("ST_CACHE") or "/var/cache/sched_tune"
        self.t0 = int(env.get("ST_RESULTS_T0") or time.time())
        budget, tail = int(env.get("ST_BUDGET") or 4800), int(env.get("ST_BUDGET_TAIL") or 90)
        self.deadline = self.t0 + budget - tail
        self.grace = int(env.get("ST_STOP_GRACE") or 45)
        self.why_deadline = qemu.deadline_why(budget, tail)
        self.state, self.signal = qemu.Run(self.run_env()), None
        self.n, self.failed = 0, 0
        self.todo = list(_STAGES)
        self.jobs = []          # [name, Popen, side, started]
        self.started = []
        self.plan_said = set()
        self.host_state = None
        self.finishing = False

    # --- output -------------------------------------------------------------
    def say(self, text):
        print("# " + text, file=self.out, flush=True)

    def stamp(self, text):
        self.say("[%d s] %s" % (time.time() - self.t0, text))

    def result(self, verdict, group, desc, why=""):
        self.n += 1
        if verdict == "skip":
            desc += " # SKIP " + why
        elif verdict != "pass":
            self.failed += 1
        print("%s %d - [%s] %s" % ("ok" if verdict in ("pass", "skip") else "not ok", self.n,
                                   group, desc), file=self.out, flush=True)

    def py(self, *args):
        """The command line of one of make check's Python modules."""
        return ["/usr/bin/python3", "-P", "-m"] + list(args)

    def child_env(self, **kw):
        """The environment of what the run starts: make check's Python;
        the run's deadline and the results' start only for its own jobs
        and decisions (run_env), since a script it runs has a run and
        results of its own."""
        env = dict(self.env, PYTHONPATH=self.tests + ":" + os.path.join(self.root, "bench"))
        for k in ("ST_RESULTS_T0", "ST_DEADLINE", "ST_DEADLINE_WHY", "ST_T0"):
            env.pop(k, None)
        env.update(kw)
        return env

    def run_env(self, **kw):
        """child_env with the run's clock, deadline and stop (RUN)."""
        return self.child_env(ST_RUN=self.run, ST_DEADLINE=str(self.deadline),
                              ST_DEADLINE_WHY=self.why_deadline, ST_T0=str(self.t0),
                              ST_RESULTS_T0=str(self.t0), **kw)

    def lines(self, argv, env=None):
        """ARGV's standard output, line by line, as it comes; the run
        stopping kills it (Stopped).  Its status is self.rc."""
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, env=env or self.child_env())
        buf = b""
        with proc.stdout:
            fd = proc.stdout.fileno()
            while True:
                if not self.finishing and self.stopped():
                    results.kill_tree(proc.pid)
                    proc.wait()
                    raise Stopped()
                ready, _, _ = select.select([fd], [], [], 0.5)
                if not ready:
                    continue
                data = os.read(fd, 65536)
                if not data:
                    break
                *done, buf = (buf + data).split(b"\n")
                for line in done:
                    yield line.decode("utf-8", "replace")
        if buf:
            yield buf.decode("utf-8", "replace")
        self.rc = proc.wait()

    def passed_on(self, argv):
        """ARGV's output, as it is (it prints no result)."""
        for line in self.lines(argv):
            print(line, file=self.out, flush=True)

    def take(self, group, recs):
        """RECS, records as strunner's modules yield them, as results
        under GROUP, as lib.sh st_records reads them.  Returns how many
        results they gave."""
        count = 0
        for rec in recs:
            f = [str(x) for x in rec] + ["", "", ""]
            if f[0] == "R":
                self.result(f[1], group, f[2], f[3])
                count += 1
            elif f[0] == "G":
                group = f[1]
            elif f[0] == "C":
                print("# [%s] %s" % (group, f[1]), file=self.out)
            elif f[0] == "L":
                self.say(f[1])
            elif f[0].startswith("#"):
                print(f[0], file=self.out)
        self.out.flush()
        return count

    def records(self, group, argv, env=None):
        """The records ARGV prints (strunner.records) as results under
        GROUP; ARGV exiting non-zero fails.  Returns how many results it
        gave."""
        count = self.take(group, (line.split("\x1f") for line in self.lines(argv, env)))
        if self.rc != 0:
            self.result("fail", group, "%s: exited %d, its results may stop short"
                        % (" ".join(argv[3:6]), self.rc))
        self.out.flush()
        return count

    def ktap(self, group, name, argv):
        """The KTAP producer ARGV counted under GROUP (strunner.ktap run),
        its output in BUILD/GROUP.log."""
        self.records(group, self.py("strunner.ktap", "run", name,
                                    os.path.join(self.build, group + ".log"), *argv))
        self.group_end(group)

    def group_end(self, group):
        print("# group-end " + group, file=self.out, flush=True)

    # --- stop and deadline --------------------------------------------------
    def stopped(self):
        self.deadline_check()
        return self.state.stopped()

    def deadline_check(self):
        """The deadline, or a signal taken: the run stops."""
        self.out.flush()
        if self.signal:
            self.state.stop("%s (make check was killed)" % self.signal)
        self.state.deadline_check()

    def signalled(self, sig, _frame):
        # no output here: the main flow may be in the middle of a write
        self.signal = self.signal or signal.Signals(sig).name

    # --- jobs ---------------------------------------------------------------
    def job(self, name, argv, side=False, env=None):
        """ARGV as a job whose results go to BUILD/NAME.results."""
        path = os.path.join(self.build, name.replace(" ", ".") + ".results")
        with open(path, "wb") as f:
            proc = subprocess.Popen(argv, stdout=f, stderr=subprocess.STDOUT,
                                    env=env or self.child_env())
        print("# job %d %s %s" % (proc.pid, path, name), file=self.out, flush=True)
        self.jobs.append([name, proc, side, time.time()])
        return proc

    def bash_job(self, name, *call, side=False, **env):
        """selftests/job.sh CALL... as job NAME."""
        return self.job(name, ["bash", os.path.join(self.tests, "job.sh")] + list(call),
                        side, self.run_env(**env))

    def alive(self, side=False):
        return [j for j in self.jobs if j[1].poll() is None and (side or not j[2])]

    def pid(self, name):
        return next((str(j[1].pid) for j in self.jobs if j[0] == name), "")

    def wait_lanes(self, lanes, side=False):
        """Waits until fewer than LANES jobs run; False once the run
        stopped."""
        while not self.stopped():
            self.plan_check()
            if len(self.alive(side)) < lanes:
                return True
            time.sleep(1)
        return False

    def plan_check(self):
        """Once the first guest said its pace, and again once a boot ran
        to its end: what the rest of the plan needs (strunner.plan
        budget)."""
        why = next((w for w in ("boots", "pace") if os.listdir(os.path.join(self.run, w))), None)
        if why is None or why in self.plan_said:
            return
        self.plan_said.add(why)
        running = {j[0]: j[3] for j in self.jobs if j[1].poll() is None}
        pairs = []
        for k in self.plan_jobs:
            if k in running:
                pairs += [k, str(int(time.time() - running[k]))]
            elif k not in self.started:
                pairs += [k, "0"]
        self.records("host", self.py("strunner.plan", "budget", self.run, why,
                                     str(self.lanes), *pairs), self.run_env())

    def stop_jobs(self):
        """The run stopped: the jobs end their guests; ST_STOP_GRACE s
        later what still runs is killed with its processes."""
        t = time.time()
        while self.alive(side=True) and time.time() - t < self.grace:
            time.sleep(1)
        for name, proc, _, _ in self.jobs:
            if proc.poll() is None:
                print("# job-why %d killed %d s after the run stopped: %s"
                      % (proc.pid, self.grace, self.state.reason()), file=self.out, flush=True)
                results.kill_tree(proc.pid)
                self.say("%s: killed" % name)
        for _, proc, _, _ in self.jobs:
            proc.wait()

    # --- the run ------------------------------------------------------------
    def stage_done(self, name):
        self.todo.remove(name)
        self.deadline_check()
        if self.stopped():
            raise Stopped()

    def host(self):
        """What runs before the jobs (see above)."""
        state = os.path.join(self.run, "host-state")
        with open(state, "w", encoding="utf-8") as f:
            ok = subprocess.run(self.py("strunner.host", "state"), stdout=f,
                                env=self.child_env(), check=False).returncode == 0
        if ok:
            self.host_state = state
        else:
            self.result("fail", "host", "the machine's own sched_tune state, read before"
                        " anything is installed")
        self.stamp("host setup")
        if self.env.get("ST_FRESH") == "1":
            self.say("ST_FRESH=1: chroots rebuilt from nothing")
            for d in os.listdir(os.path.join(self.cache, "chroot")) \
                    if os.path.isdir(os.path.join(self.cache, "chroot")) else []:
                try:
                    os.remove(os.path.join(self.cache, "chroot", d, ".st-ready"))
                except OSError:
                    pass
        for argv in ([self.py("strunner.host", "ensure", self.cache)] +
                     ([self.py("strunner.host", "install", self.cache, *bench.PACKAGES)]
                      if plan.stage_on(self.env, "bench") else [])):
            self.passed_on(argv)
            if self.rc:
                self.result("fail", "host", "%s: exited %d" % (" ".join(argv[3:5]), self.rc))
                raise Stopped()
        self.records("host", self.py("strunner.plan", "init", self.cache, self.run, self.tests))
        if self.rc:
            self.result("fail", "host", "the plan: every kernel name resolves")
            raise Stopped()
        self.plan = plan.Plan.load(self.run)
        self.plan_jobs = self.plan.jobs()
        self.stage_done("host setup")
        # a heads-up, no result: Debian kernels past what the gate checked
        self.passed_on(self.py("strunner.kernels", "newer", self.cache, os.path.join(
            self.src, "module", "kernel", "gate_checked.h")))
        self.say("source tree: %s (%s)" % (self.src, subprocess.run(
            ["git", "-C", self.src, "describe", "--always", "--dirty"], capture_output=True,
            text=True, check=False).stdout.strip() or "not git"))
        ok = subprocess.run(self.py("strunner.image", "helpers", self.root, self.build),
                            env=self.child_env(), check=False).returncode == 0
        self.result("pass" if ok else "fail", "host", "static guest helpers build (gcc -static)")
        # the package stage (chroots, apt, DKMS builds) and the lint run
        # beside the host's tests and the kernels, from the start: Debian
        # 12's kernel jobs wait for the stage's DKMS-built modules
        self.stamp("Debian package (strunner/pkg.py stage), in the background")
        self.pkg_pid = str(self.job("pkg", self.py("strunner.runner", "job", "pkg"), side=True,
                                    env=self.run_env()).pid)
        self.stage_done("Debian package stage")
        self.stamp("lint: shellcheck, checkpatch --strict, the ABI file, in the background")
        self.job("lint", self.py("strunner.runner", "job", "lint"), side=True,
                 env=self.run_env())
        self.stage_done("lint")
        self.stamp("the runner's own test (selftests/runner_test.sh)")
        self.ktap("runner", "selftests/runner_test.sh",
                  ["bash", os.path.join(self.src, "selftests", "runner_test.sh")])
        self.stage_done("the runner's own test")
        self.stamp("the support matrix (strunner/support.py, support-matrix, docs/kernels.md)")
        matrix = [self.env.get("ST_SUPPORT_FILE") or
                  os.path.join(self.src, "selftests", "support-matrix"),
                  self.env.get("ST_SUPPORT_GATE") or
                  os.path.join(self.src, "module", "kernel", "gate_checked.h")]
        self.records("host", self.py("strunner.support", "data", *matrix))
        self.records("host", self.py("strunner.support", "doc", *matrix, os.path.join(
            self.src, "docs", "kernels.md"), "docs/kernels.md"))
        self.stage_done("the support matrix")
        self.stamp("the fidelity pages (strunner/fidelity.py, docs/features)")
        self.records("fidelity", self.py("strunner.fidelity", self.src))
        self.group_end("fidelity")
        self.stage_done("the fidelity pages")
        self.stamp("unit tests")
        unit = os.path.join(self.src, "selftests", "unit")
        if os.path.isfile(os.path.join(unit, "Makefile")):
            self.ktap("unit", "make -C selftests/unit", ["make", "-s", "-C", unit])
        else:
            self.result("skip", "unit", "selftests/unit", "no selftests/unit/Makefile in " + self.src)
            self.group_end("unit")
        self.stage_done("unit tests")
        run_py = os.path.join(self.root, "bench", "tests", "run.py")
        self.ktap("bench-unit", os.path.join(self.root, "bench", "tests"),
                  ["/usr/bin/python3", run_py, os.path.join(self.root, "bench", "tests"),
                   "bench"])
        self.stage_done("the bench's unit tests")
        # the runner's Python, of the runner's tree as its code is
        unit = os.path.join(self.tests, "strunner", "tests")
        self.ktap("strunner-unit", unit, ["/usr/bin/python3", run_py, unit, "strunner"])
        self.stage_done("the runner's unit tests")

    def kernels(self):
        """The plan's jobs, ST_JOBS at a time (see above).  One
        single-threaded qemu per host core, and one more: a guest idles
        in its units' sleeps and timed windows (two guests on 2 cores
        left 21% of the CPU idle; a third cut it to 9% and ran 3 guests
        in 515 s where 2 took 414 s, 2026-12-05)."""
        self.lanes = int(self.env.get("ST_JOBS") or os.cpu_count() + 1)
        for k in self.plan_jobs:
            if not self.wait_lanes(self.lanes):
                return
            self.start(k)
            self.started.append(k)
        self.wait_lanes(1, side=True)

    def start(self, k):
        """Job K of the plan: a boot of its own (job.sh run_boot) once its
        kernel's job started, or a kernel (run_kernel) if its estimate
        fits before the deadline."""
        kver, _, boot = k.partition(" ")
        if boot:
            if self.pid(kver):
                self.bash_job(k, "run_boot", kver, self.pid(kver), boot, ST_PKG_PID=self.pkg_pid)
            else:
                self.take(k, plan.not_run(self.state, self.run_env(), [k],
                                          "its kernel's job, %s, did not run" % kver))
            return
        if self.records(k, self.py("strunner.plan", "fits", self.run, k), self.run_env()):
            return
        os.makedirs(os.path.join(self.build, k), exist_ok=True)
        self.bash_job(k, "run_kernel", kver, *([] if k in self.plan.kernels else ["build-only"]),
                      ST_PKG_PID=self.pkg_pid)

    def finish(self):
        """The end (see above); the exit status."""
        self.finishing = True
        if self.alive(side=True) and not self.stopped():
            self.state.stop("the runner ended before its jobs")
        if self.stopped():
            self.stop_jobs()
        env = self.run_env()
        for t in self.todo:
            self.take("host", budget.not_run(self.state, env, t, "", "host"))
        self.take("host", plan.not_run(self.state, env, [j for j in self.plan_jobs
                                                         if j not in self.started]))
        pkg.umount_below(os.path.join(self.build, "pkg"))
        if self.host_state:
            self.records("host", self.py("strunner.host", "unchanged", self.host_state))
        self.stamp("done")
        self.say("")
        self.say("the ten slowest guest units:")
        for line in self.lines(self.py("strunner.guest", "slowest", self.build, "10")):
            self.say("  " + line)
        booted = self.plan.kernels if self.plan else []
        for line in self.lines(self.py("strunner.support", "table", self.build,
                                       *[k for k in booted if k in self.started])):
            print(line, file=self.out)
        print("# summary", file=self.out, flush=True)
        return 1 if self.failed else 0

    def main(self):
        for sig in (signal.SIGTERM, signal.SIGINT):
            signal.signal(sig, self.signalled)
        subprocess.run(["rm", "-rf", self.run], check=False)
        for d in ("pace", "boots"):
            os.makedirs(os.path.join(self.run, d))
        os.makedirs(self.build, exist_ok=True)
        self.plan, self.plan_jobs, self.pkg_pid, self.lanes = None, [], "", 1
        try:
            self.host()
            self.kernels()
        except Stopped:
            pass
        except Exception as e:  # pylint: disable=broad-except
            # the runner's own failure: named, its jobs ended, summed up
            self.result("fail", "host", "make check's runner ran to its end (%s: %s)"
                        % (type(e).__name__, e))
            for line in traceback.format_exc().splitlines():
                self.say("  " + line)
        return self.finish()


def side_job(c, group, what, argv):
    """ARGV's records as the side job GROUP (see above); a run that
    stops first fails WHAT by name."""
    try:
        c.records(group, argv)
    except Stopped:
        c.result("fail", group, "%s ran to its end (stopped with the run: %s)"
                 % (what, c.state.reason()))


# The side jobs: the Debian package stage in BUILD/pkg, where Debian 12's
# kernel jobs wait for its DKMS-built modules (pkg.sh pkg_ko_wait); make
# lint's static checks (shellcheck, checkpatch --strict, pyflakes, the
# ABI file, the kernel-doc; make lint's W=1 and sparse builds are the
# kernel jobs' own here).
SIDE_JOBS = {
    "pkg": ("the package stage", lambda c: c.py("strunner.pkg", "stage",
                                                 os.path.join(c.build, "pkg"), c.src, c.cache)),
    "lint": ("lint", lambda c: c.py("strunner.lint", "statics", c.src, c.cache,
                                    c.env.get("ST_USER_CACHE", ""))),
}


def main(argv):
    c = Check(os.environ)
    if len(argv) == 3 and argv[1] == "job" and argv[2] in SIDE_JOBS:
        what, job = SIDE_JOBS[argv[2]]
        side_job(c, argv[2], what, job(c))
        print("# job-end 0", flush=True)
        return 0
    if argv[1:]:
        sys.exit(__doc__.split("\n\n")[1])
    return c.main()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
