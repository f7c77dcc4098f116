# SPDX-License-Identifier: GPL-2.0
"""How much slower than the reference this machine runs, and what fits
before the run's deadline (lib.sh st_budget_ok, strunner.plan and
runner).

    python3 -m strunner.budget factor RUN PACE_HOST_CS SCALE
    python3 -m strunner.budget estimate RUN PACE_HOST_CS SCALE SECS
    python3 -m strunner.budget fits GROUP DESC SECS
    python3 -m strunner.budget not-run GROUP DESC WHY
    python3 -m strunner.budget plan WHY LANES [SECS ELAPSED]...

The factor is the mean of measured/estimated seconds over the run's
boots that ended ($RUN/boots/*, "KIND ESTIMATED MEASURED"), else the
first guest's pace ($RUN/pace/*, centiseconds for 400 hackbench loops)
against PACE_HOST_CS, never below 1; divided by SCALE (ST_PACE: 0.5 takes
the machine as half as fast again).  An estimate is reference seconds
at that factor, rounded up.

fits and not-run print records (strunner.records) for lib.sh st_records,
the run's deadline, budget and pace from the environment (lib.sh
st_qemu_env): nothing when DESC, SECS reference seconds, fits.  plan
(strunner.plan budget, for the runner's plan_check) prints the log
line of what the rest of the plan needs: each job's SECS reference
seconds at the run's factor, less the ELAPSED seconds it ran, packed
in LANES lanes, each job in the lane that ends first; WHY names where
the factor came from.
"""

import os
import sys
import time

from strunner import number, qemu, read_lines, records


def _files(path):
    try:
        return [os.path.join(path, n) for n in os.listdir(path)]
    except FileNotFoundError:
        return []


def factor(run, pace_host_cs, scale):
    """The factor, to three decimals."""
    ratios = []
    for path in _files(os.path.join(run, "boots")):
        for line in read_lines(path):
            words = line.split() + ["", "", ""]
            est, secs = number(words[1]), number(words[2])
            if est > 0:
                ratios.append(secs / est)
    if ratios:
        f = sum(ratios) / len(ratios)
    else:
        paces = sorted(_files(os.path.join(run, "pace")), key=os.path.getmtime)
        lines = read_lines(paces[0]) if paces else []
        pace = number(lines[0] if lines else "0")
        f = max(1.0, pace / pace_host_cs) if pace_host_cs > 0 else 1.0
    f = _three(f)
    return _three(f / scale) if scale > 0 else f


def _three(f):
    return float("%.3f" % f)


def estimate(secs, f):
    """SECS reference seconds at factor F, whole seconds rounded up."""
    return int(secs * f + 0.999)


def scaled(env, secs):
    """SECS reference seconds at the factor of ENV's run (ST_RUN,
    ST_PACE_HOST_CS, ST_PACE), and the factor."""
    f = factor(env.get("ST_RUN", ""), number(env.get("ST_PACE_HOST_CS", "0")),
               number(env.get("ST_PACE") or "1"))
    return estimate(secs, f), f


def pace_words(f):
    return "at this machine's pace (factor %.3f)" % f


def not_run(run, env, desc, why, group=""):
    """The records of DESC not run: a failure naming WHY, or the run's stop
    reason; a skip in a run declared short (ST_SHORT=1) when the run goes
    on.  GROUP begins the log line."""
    if run.stopped():
        why = "the run stopped: " + run.reason()
    elif env.get("ST_SHORT") == "1":
        yield "R", "skip", desc, "not run in a short run (ST_SHORT=1): " + why
        return
    yield "R", "fail", "%s: not run" % desc, ""
    yield "L", "%s%s: not run: %s" % (group + ": " if group else "", desc, why)


def fits(run, env, desc, need, pace="", group=""):
    """Whether DESC, which needs NEED seconds (at PACE, said), fits before
    RUN's deadline (a qemu.Run); if not, yields the records of DESC not
    run (not_run) and returns False."""
    if run.deadline is None:
        return True
    why = ""
    if not run.stopped():
        left = run.deadline - int(time.time())
        if need <= left:
            return True
        why = "it needs about %d s%s, %d s are left before the deadline (ST_BUDGET=%s s)" % (
            need, " " + pace if pace else "", left, env.get("ST_BUDGET", "?"))
    yield from not_run(run, env, desc, why, group)
    return False


def lanes(needs, n):
    """The seconds the longest of N lanes takes, each of NEEDS in the
    lane that ends first, in order."""
    ends = [0] * max(1, n)
    for need in needs:
        i = ends.index(min(ends))
        ends[i] += max(0, need)
    return max(ends)


def plan(run, env, why, n, jobs):
    """The log record of what JOBS ((reference seconds, seconds run)
    each) need in N lanes at ENV's factor, against RUN's deadline."""
    f = scaled(env, 0)[1]
    end = lanes([estimate(secs, f) - ran for secs, ran in jobs], n)
    said = "budget: at this machine's pace (factor %.3f, from its %s) the rest of the plan" \
        " needs about %d s" % (f, why, end)
    if run.deadline is None:
        yield "L", said
        return
    left = run.deadline - int(time.time())
    if end <= left:
        yield "L", "%s; %d s are left before the deadline" % (said, left)
    else:
        yield "L", "%s, %d s are left before the deadline (ST_BUDGET=%s s): what does not fit" \
            " fails as not run" % (said, left, env.get("ST_BUDGET", "?"))


def fits_at_pace(env, group, desc, secs):
    """fits() of DESC, SECS reference seconds at the pace of ENV's run,
    its records under GROUP."""
    need, f = scaled(env, number(secs))
    yield from fits(qemu.Run(env), env, desc, need, pace_words(f), group)


def main(argv):
    if len(argv) == 5 and argv[1] == "fits":
        records(fits_at_pace(os.environ, *argv[2:]))
        return 0
    if len(argv) == 5 and argv[1] == "not-run":
        records(not_run(qemu.Run(os.environ), os.environ, argv[3], argv[4], argv[2]))
        return 0
    if len(argv) >= 4 and len(argv) % 2 == 0 and argv[1] == "plan":
        jobs = [(number(a), number(b)) for a, b in zip(argv[4::2], argv[5::2])]
        records(plan(qemu.Run(os.environ), os.environ, argv[2], int(number(argv[3])), jobs))
        return 0
    if len(argv) < 5 or argv[1] not in ("factor", "estimate"):
        sys.exit("usage: python3 -m strunner.budget factor|estimate RUN PACE_HOST_CS SCALE [SECS]"
                 " | fits GROUP DESC SECS | not-run GROUP DESC WHY"
                 " | plan WHY LANES [SECS ELAPSED]...")
    f = factor(argv[2], number(argv[3]), number(argv[4]))
    if argv[1] == "factor":
        print("%.3f" % f)
    else:
        print(estimate(number(argv[5]), f))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
