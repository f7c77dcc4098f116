# SPDX-License-Identifier: GPL-2.0
"""make check's plan: the kernels it builds and boots, the jobs they run
as, each boot's guest words and each job's reference seconds
(strunner.runner, job.sh).

    python3 -m strunner.plan init CACHE RUN TESTS
    python3 -m strunner.plan list RUN kernels|short|build-only|jobs
    python3 -m strunner.plan estimate RUN JOB
    python3 -m strunner.plan has RUN KVER BOOT
    python3 -m strunner.plan on BOOT
    python3 -m strunner.plan budget RUN WHY LANES [JOB ELAPSED]...
    python3 -m strunner.plan fits RUN JOB
    python3 -m strunner.plan not-run RUN [STARTED-JOB]...
    python3 -m strunner.plan not-run RUN --why WHY JOB...
    python3 -m strunner.plan boot RUN KVER BOOT VMLINUZ OUT

init resolves ST_KERNELS, ST_SHORT_BOOT and ST_BUILD_ONLY (names of
strunner.kernels, or exact kernel releases) and writes the plan to
RUN/plan.json, which every other command reads; TESTS is the selftests/
directory whose guest scripts list the units.  A job is a kernel (its
builds and the boots of its own job: main, numa, llc8) or "KVER BOOT", a
boot that runs as a job of its own (JOB_BOOTS).  list prints one a line.
estimate prints JOB's reference seconds: its builds, and each boot at
EST's seconds for a boot and for each unit its words run (strunner.guest
plan), the units the guest will run.  has exits 0 if KVER's job boots
BOOT (numa only where the main boot found numa_scan).  on prints the record of a skip
when BOOT's stage variable (ST_NUMA_BOOT...) turns it off.  budget is
strunner.budget plan with each started job's estimate, less the seconds
it ran.  fits is strunner.budget fits with JOB's estimate: nothing if
it fits before the deadline, else the records of its failure.  not-run
prints the records of each job not started, or of JOBs, not run for
WHY.  boot
boots KVER's BOOT (strunner.guest run: its mode, words, -smp, estimate
and description from here, the kernel reports to look for from
ST_SPLAT), its label KVER, or "KVER BOOT" but for the main boot.
"""

import contextlib
import json
import os
import sys

from strunner import Error, budget, cli, guest, kernels, number, qemu, records

# Reference seconds (the timings of selftests/README.md): a kernel's
# builds, a boot's start and end, a unit of the functional suite on
# average (about 1000 s for 38 units), the two-node, 8-CPU, icount (each
# of its two boots) and bench boots.
EST = {"build": 120, "build_only": 90, "boot": 40, "unit": 25, "numa": 200,
       "llc8": 150, "icount": 150, "bench": 450}

# Debian 13's 6.12 leaves to Debian 12's: knob and parameter parsing, its
# fuzz, and the refusals, decided before any hook is placed, by the
# wrapper's code for the whole 6.12 series (gate, kallsyms, BTF).
SHARED_612 = ("knobs", "knob_fuzz", "stats_reset", "params", "param_livepatch",
              "gate_refusal", "ksym_missing", "btf_refusal", "all_unsupported")
# Debian 13's 6.12 runs these in its direct_hooks=0 boot too (the leak
# check, the rate limit's slot table); Debian 12's leaves these to it:
# the tracers beside our hooks, the toggles under load, the scopes.
OPS_612_MAIN = ("soak", "ratelimit_slots")
K612_LEAVES = ("tracers", "toggle_stress", "cache_stress", "scope")
# The direct_hooks=0 boot is about the hooks: decisions that add no hook
# of their own (level none, the adaptive quota, prev_bias, sync_short,
# the trace events and scopes, which the policies test and emit), the
# refusals and what the module does before it hooks (modprobe, the
# topology it reads) run in the direct-call boots only.  The soak too:
# toggle_stress, unload_clean and tracers take the ops path on, off and
# out under load, unload_clean with the leak check.  And what the table,
# the gate and the eevdf policy decide whatever calls them: the rate
# limit's slots, the functions' sizes, the group levels counted and the
# slices restored.
OPS_SKIP = ("cache_none", "ratelimit_adaptive", "prev_bias", "sync_short", "trace_events",
            "scope", "gate_refusal", "ksym_missing", "btf_refusal", "all_unsupported",
            "modprobe", "cache_topology", "cache_bad_input", "soak", "ratelimit_slots",
            "gate_sizes", "eevdf_groups", "eevdf_restore")

# SMT cores: one LLC, two L2s of two threads each, so that the cache
# level has both kinds of pair (st_topology=smt makes their checks strict)
_SMT = "{smp},sockets=1,cores={half},threads=2"
# boot: (guest mode, qemu -smp, description, stage variable)
BOOTS = {
    "main": ("tests", _SMT, "the guest tests", None),
    # numa_scan needs two NUMA nodes, which would split the cache-level
    # guest's LLC: a boot of its own, on kernels where the feature exists
    "numa": ("numa", "{smp},sockets=2", "numa_scan in a two-node boot", "ST_NUMA_BOOT"),
    # SIS_SYNC's threshold, migration_cost * llc^2 / 65536 with an
    # unsigned int migration_cost, stays under an emulated CPU's pipe
    # round trip at the main boot's 4 CPUs per LLC: sync_short's short
    # pair in an LLC of 8 CPUs (no SMT), on one kernel of each series
    "llc8": ("tests", "8,sockets=1,cores=8,threads=1", "sync_short in an 8-CPU LLC",
             "ST_LLC8_BOOT"),
    # the ftrace_ops fallback, which the other boots never take: the
    # functional suite again, every load with direct_hooks=0, on one 6.12
    "direct_hooks=0": ("tests", _SMT, "the functional suite with direct_hooks=0",
                       "ST_OPS_BOOT"),
    # the hooks' cost in instructions (qemu icount, exact): each feature
    # with its hooks in and its decisions stock under 2% (docs/hook-cost.md)
    "icount": ("icount", None, "hook cost in instructions (qemu icount), short", "ST_ICOUNT"),
    # sched-tune-bench's smoke run (bench/README.md), 6.12 only
    "bench": ("benchsmoke", None, "sched-tune-bench smoke run", "ST_BENCH_SMOKE"),
}
# the boots that run as jobs of their own, beside their kernel's
JOB_BOOTS = ("direct_hooks=0", "bench", "icount")

SHORT_ARGS = ("st_only=load_unload,hang_guard,enabled,ratelimit_effect,cache_topology,"
              "cache_effect,numa_scan st_mig_reps=1")


def _words(text):
    return (text or "").split()


class Plan:
    """A run's plan: KERNELS booted (SHORT of them a short boot),
    BUILD_ONLY built only, K612 (Debian 12's 6.12) and K612_OPS (Debian
    13's, which has the direct_hooks=0 boot); TESTS the selftests/
    directory."""

    def __init__(self, kernels, short, build_only, k612, k612_ops, tests,
                 short_args=SHORT_ARGS):
        self.kernels, self.short, self.build_only = list(kernels), list(short), list(build_only)
        self.k612, self.k612_ops, self.tests = k612, k612_ops, tests
        self.short_args = short_args

    def save(self, path):
        with open(path + ".new", "w", encoding="utf-8") as f:
            json.dump(vars(self), f, indent=1)
        os.replace(path + ".new", path)

    @classmethod
    def load(cls, run):
        try:
            with open(os.path.join(run, "plan.json"), encoding="utf-8") as f:
                return cls(**json.load(f))
        except (OSError, ValueError, TypeError) as e:
            raise Error("no plan in %s (strunner.plan init): %s" % (run, e)) from e

    def jobs(self):
        """The jobs in the order they start: the kernels booted in full,
        longest first; the boots of their own, longest first, each to
        the first lane to end; the short boots; the kernels built only."""
        full = [k for k in self.kernels if k not in self.short]
        jobs = list(full)
        if self.k612_ops in full:
            jobs.append(self.k612_ops + " direct_hooks=0")
        if self.k612 in self.kernels:
            jobs += [self.k612 + " bench", self.k612 + " icount"]
        return jobs + [k for k in self.kernels if k in self.short] + self.build_only

    def _split_612(self):
        return self.k612_ops != self.k612

    def kernel_skip(self, kver):
        """The units KVER's boots leave to Debian 12's 6.12."""
        return list(SHARED_612) if self._split_612() and kver == self.k612_ops else []

    def words(self, kver, boot, env):
        """The guest's words of KVER's BOOT; the user's ST_GUEST_ARGS
        come last and win (the guest takes the last of a word)."""
        user = _words(env.get("ST_GUEST_ARGS"))
        if boot == "main":
            skip = self.kernel_skip(kver)
            if self._split_612() and kver == self.k612_ops:
                skip += OPS_612_MAIN
            if self._split_612() and kver == self.k612:
                skip = list(K612_LEAVES)
            words = ["st_topology=smt"] + (["st_skip=" + ",".join(skip)] if skip else [])
            if kver in self.short:
                words += _words(self.short_args)
            return words + user
        if boot == "direct_hooks=0":
            skip = list(dict.fromkeys(self.kernel_skip(kver) + list(OPS_SKIP)))
            return ["st_topology=smt", "st_load_args=direct_hooks=0",
                    "st_skip=" + ",".join(skip)] + user
        if boot == "llc8":
            return ["st_only=sync_short", "st_sync_short_strict=1"] + user
        if boot == "numa":
            return user
        raise Error("no guest words for boot '%s'" % boot)

    def has_boot(self, kver, boot):
        """Whether KVER's job boots BOOT, its stage variables aside (the
        two-node boot also needs numa_scan where the main boot ran)."""
        if kver not in self.kernels:
            return False
        if boot == "main":
            return True
        if kver in self.short:
            return False
        if boot == "numa":
            return not kver.startswith("6.1.")
        if boot == "llc8":
            return kver != self.k612_ops or kver == self.k612
        return False

    def boot_estimate(self, kver, boot, env):
        """BOOT's reference seconds: its EST, or a boot and its units."""
        if boot in ("numa", "llc8", "icount", "bench"):
            return EST[boot]
        p = guest.plan(self.tests, BOOTS[boot][0], self.words(kver, boot, env))
        return EST["boot"] + EST["unit"] * (p[1] if p else 0)

    def estimate(self, job, env):
        """JOB's reference seconds, the boots its stage variables turn
        off aside."""
        kver, _, boot = job.partition(" ")
        if boot:
            if boot not in JOB_BOOTS:
                raise Error("no job '%s' (boots of their own: %s)" % (job, " ".join(JOB_BOOTS)))
            return self.boot_estimate(kver, boot, env) if stage_on(env, boot) else 0
        if kver in self.build_only and kver not in self.kernels:
            return EST["build_only"]
        if kver not in self.kernels:
            raise Error("no job '%s' in the plan" % job)
        s = EST["build"]
        for b in ("main", "numa", "llc8"):
            if self.has_boot(kver, b) and stage_on(env, b):
                s += self.boot_estimate(kver, b, env)
        return s


def stage_on(env, boot):
    """Whether BOOT's stage variable leaves it on."""
    var = BOOTS[boot][3]
    return var is None or env.get(var, "1") in ("", "1")


def smp(boot, env):
    """qemu's -smp for BOOT, from ST_SMP (4)."""
    n = int(number(env.get("ST_SMP") or "4"))
    return BOOTS[boot][1].format(smp=n, half=n // 2)


def numa_qemu(env):
    """qemu's words for two nodes of half the guest's memory each, one
    socket each."""
    n = int(number(env.get("ST_SMP") or "4"))
    return ("-object memory-backend-ram,id=m0,size=1G -object memory-backend-ram,id=m1,size=1G"
            " -numa node,nodeid=0,cpus=0-%d,memdev=m0 -numa node,nodeid=1,cpus=%d-%d,memdev=m1"
            % (n // 2 - 1, n // 2, n - 1))


def on(env, boot):
    """The record of BOOT's skip when its stage variable is off."""
    if boot not in BOOTS:
        raise Error("no boot '%s' (known: %s)" % (boot, " ".join(BOOTS)))
    if not stage_on(env, boot):
        var = BOOTS[boot][3]
        yield "R", "skip", BOOTS[boot][2], "%s=%s" % (var, env.get(var))


def make(env, tests, resolve, log):
    """The plan of ENV's kernel names; RESOLVE(NAME) is a name's
    release, LOG(TEXT) says what each name became."""
    known = {}

    def kver(name):
        if name not in known:
            known[name] = resolve(name) if kernels.suite(name) else name
        return known[name]

    short_args = env.get("ST_SHORT_ARGS") or SHORT_ARGS
    short_names = _words(env.get("ST_SHORT_BOOT", "backports-cloud"))
    booted, short = [], []
    for name in _words(env.get("ST_KERNELS") or
                       "backports trixie trixie-backports stable backports-cloud"):
        k = kver(name)
        if k != name:
            log("kernel '%s': %s" % (name, k))
        booted.append(k)
        if name in short_names:
            log("kernel '%s': a short boot (%s)" % (name, short_args))
            short.append(k)
    built = []
    for name in _words(env.get("ST_BUILD_ONLY", "security612 stable-cloud trixie-cloud "
                                                "trixie-backports-cloud")):
        built.append(kver(name))
        log("kernel '%s': %s (build only)" % (name, built[-1]))
    # the direct_hooks=0 boot: the other 6.12, whose lane is shorter
    return Plan(booted, short, built, kver("backports"), kver("trixie"), tests, short_args)


def _init(cache, run, tests):
    def resolve(name):
        # what making the chroot says on stderr: stdout is the log
        with contextlib.redirect_stdout(sys.stderr):
            return kernels.resolve_in(cache, name)
    os.makedirs(run, exist_ok=True)
    make(os.environ, tests, resolve, lambda text: print("# " + text, flush=True)).save(
        os.path.join(run, "plan.json"))


def _list(run, what):
    p = Plan.load(run)
    items = {"kernels": p.kernels, "short": p.short, "build-only": p.build_only,
             "jobs": p.jobs()}
    if what not in items:
        raise Error("no list '%s' (%s)" % (what, " ".join(items)))
    for x in items[what]:
        print(x)


def _budget(run, why, lanes, *pairs):
    if len(pairs) % 2:
        raise Error("budget: a JOB without its ELAPSED seconds")
    p = Plan.load(run)
    jobs = [(p.estimate(j, os.environ), number(e)) for j, e in zip(pairs[::2], pairs[1::2])]
    records(budget.plan(qemu.Run(os.environ), os.environ, why, int(number(lanes)), jobs))


def desc(job):
    """What JOB does, as a result names it."""
    boot = job.partition(" ")[2]
    return BOOTS[boot][2] if boot else "build and boots"


def not_run(run, env, jobs, why=""):
    """The records of JOBS not run, each in its group."""
    for job in jobs:
        yield "G", job
        yield from budget.not_run(run, env, desc(job), why)


def _not_run(run_dir, *words):
    p = Plan.load(run_dir)
    if words[:1] == ("--why",) and len(words) > 2:
        why, jobs = words[1], words[2:]
    else:
        why, jobs = "", [j for j in p.jobs() if j not in words]
    records(not_run(qemu.Run(os.environ), os.environ, jobs, why))


def _fits(run_dir, job):
    records(budget.fits_at_pace(os.environ, job, desc(job),
                                Plan.load(run_dir).estimate(job, os.environ)))


def _boot(run, kver, boot, vmlinuz, out):
    p = Plan.load(run)
    if boot not in BOOTS or BOOTS[boot][1] is None:
        raise Error("no guest boot '%s'" % boot)
    env = dict(os.environ, ST_QEMU_SMP=smp(boot, os.environ))
    if boot == "numa":
        env["ST_QEMU_EXTRA"] = numa_qemu(os.environ)
    label = kver if boot == "main" else kver + " " + boot
    mode, _, desc, _ = BOOTS[boot]
    records(guest.run(env, p.boot_estimate(kver, boot, os.environ), desc, p.tests,
                      os.environ.get("ST_SPLAT", ""), label, out, vmlinuz, mode,
                      p.words(kver, boot, os.environ)))


def main(argv):
    env = os.environ
    return cli(argv[1:], __doc__, {
        "init": (3, _init),
        "list": (2, _list),
        "estimate": (2, lambda run, job: print(Plan.load(run).estimate(job, env))),
        "has": (3, lambda run, kver, boot: 0 if Plan.load(run).has_boot(kver, boot) else 1),
        "on": (1, lambda boot: records(on(env, boot))),
        "budget": (lambda n: n >= 3, _budget),
        "fits": (2, _fits),
        "not-run": (lambda n: n >= 1, _not_run),
        "boot": (5, _boot),
    })


if __name__ == "__main__":
    sys.exit(main(sys.argv))
