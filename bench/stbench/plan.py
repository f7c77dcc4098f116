# SPDX-License-Identifier: GPL-2.0
"""The order of the runs: a seeded random order of the configurations in
each round, and the discarded warm-up runs.

The order of round r of workload w depends only on (seed, w, r) and the
configurations' names: random.Random seeded with a string hashes it with
SHA-512, so the same --seed gives the same order on any machine, in any
Python 3, whatever PYTHONHASHSEED is.
"""

import random


def new_seed():
    return random.SystemRandom().randrange(1, 2 ** 31)


def round_order(seed, workload, rnd, names):
    """The configurations of round rnd (1-based) of workload, shuffled."""
    order = list(names)
    random.Random("sched-tune-bench|%s|%s|%d" % (seed, workload, rnd)).shuffle(order)
    return order


def schedule(plan, reps, seed, warmup=1, loaded_at_start=True, base_unloaded=False):
    """Every step of the bench, in order.

    plan: [(workload name, [(config name, unloaded?), ...]), ...].
    Each workload starts with its calibration (on the baseline: the module
    loaded unless the baseline is "unloaded"), then `reps` rounds in a
    seeded random order.  `warmup` discarded runs (0: none) go before the
    workload's first timed run and before every run that follows a load or
    an unload of the module.  Returns dicts: workload, config, rep, kind
    ("calibrate", "warmup", "timed") and, for a warm-up, why.
    """
    steps = []
    loaded = loaded_at_start
    for wname, cfgs in plan:
        steps.append({"workload": wname, "config": None, "rep": 0, "kind": "calibrate"})
        loaded = not base_unloaded
        for rnd in range(1, reps + 1):
            more, loaded = round_steps(wname, cfgs, rnd, seed, warmup, loaded, first=rnd == 1)
            steps += more
    return steps


def round_steps(wname, cfgs, rnd, seed, warmup=1, loaded=True, first=False):
    """Round rnd of one workload: its timed runs in the seeded order, with
    the warm-ups; `loaded`: whether the module is loaded before it;
    `first`: the workload's first timed run is in this round.  Returns
    (steps, loaded after the round).  The rounds --until-width adds after
    the -n first ones are made by this too."""
    names = [c for c, _ in cfgs]
    unl = dict(cfgs)
    steps = []
    for cn in round_order(seed, wname, rnd, names):
        want = not unl[cn]
        why = None
        if first:
            why = "first timed run of %s" % wname
        elif want != loaded:
            why = "after %s" % ("modprobe" if want else "rmmod")
        if why and warmup > 0:
            for _ in range(warmup):
                steps.append({"workload": wname, "config": cn, "rep": rnd,
                              "kind": "warmup", "why": why})
        steps.append({"workload": wname, "config": cn, "rep": rnd, "kind": "timed"})
        loaded = want
        first = False
    return steps, loaded


def scoped_schedule(plan, reps, seed, warmup=1, baseline="stock"):
    """--scoped: every step a pair, a configuration and the baseline at
    once.  plan as schedule()'s; the baseline's own entries give no step
    (it is in every pair).  The module stays loaded throughout, so the
    warm-ups go before each workload's first pair only."""
    steps = []
    for wname, cfgs in plan:
        steps.append({"workload": wname, "config": None, "rep": 0, "kind": "calibrate"})
        names = [c for c, _ in cfgs if c != baseline]
        for rnd in range(1, reps + 1):
            steps += scoped_round_steps(wname, names, rnd, seed, warmup, first=rnd == 1)
    return steps


def scoped_round_steps(wname, names, rnd, seed, warmup=1, first=False):
    """Round rnd of one workload in --scoped: the configurations (the
    baseline not among names) in the seeded order, each a pair with the
    baseline.  "side": the cgroup of the configuration, st_bench_a in odd
    rounds and st_bench_b in even ones (the baseline in the other), so a
    bias of the cgroup or of the instance started first cancels."""
    side = "a" if rnd % 2 else "b"
    steps = []
    for cn in round_order(seed, wname, rnd, names):
        if first and warmup > 0:
            for _ in range(warmup):
                steps.append({"workload": wname, "config": cn, "rep": rnd, "kind": "warmup",
                              "why": "first timed run of %s" % wname, "side": side})
        steps.append({"workload": wname, "config": cn, "rep": rnd, "kind": "timed", "side": side})
        first = False
    return steps


# Seconds a run takes besides the workload's own (setting the module,
# reading every knob back, the counters); the quiet window comes on top.
RUN_OVERHEAD_S = 1.5


def estimate_seconds(steps, workloads, overhead=RUN_OVERHEAD_S):
    """The time the steps take, as the dry run and the real run's first
    estimate both say: each run its workload's expected_seconds() plus the
    overhead, each calibration its expected runs.  A fixed loop count
    (--hackbench-loops ...) runs as long as it runs: assumed -s, until the
    real run has timed it."""
    wl = {w.name: w for w in workloads}
    est = 0.0
    for st in steps:
        w = wl[st["workload"]]
        if st["kind"] == "calibrate":
            est += getattr(w, "calibration_runs", lambda: 0)() * (w.expected_seconds() + overhead)
        else:
            est += w.expected_seconds() + overhead
    return est
