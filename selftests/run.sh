#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make check: the whole sched_tune test bench, as root on Debian 12.
# The runner is strunner/runner.py, which this script becomes (under make
# check's results, lib.sh st_results_main); its jobs are selftests/job.sh
# (a kernel's boots, the package stage).
#
#  host:   install what is missing, resolve the kernels from their suites'
#          meta packages (lib.sh), run selftests/unit; the lint beside it
#  pkg:    (beside the host's tests and the kernels, from the start) the
#          Debian package (selftests/pkg.sh): make deb, lintian, apt
#          install/purge in Debian 12 and 13 chroots, DKMS from the tree,
#          each module's signature verified against DKMS's key
#  kernel: (ST_JOBS at a time) build the module against its headers in
#          its Debian release's chroot, with W=1 and then sparse (no
#          warning in the module's files; strunner/kjob.py), check the .ko for
#          tail calls into static-call trampolines (a tail call into an
#          original loops forever), boot it under qemu TCG with our
#          initramfs (for Debian 12's kernels, the package stage's
#          DKMS-built module where modprobe finds it) and collect the
#          guest's KTAP; a two-node boot where numa_scan is supported
#  last:   what the user has of sched_tune on this machine (DKMS, /usr/src,
#          modules, package) is exactly as before; the support matrix
#          (kernel x feature) and the summary
#
# Knobs (environment): ST_KERNELS="backports trixie trixie-backports stable
# backports-cloud" (names from lib.sh, or exact kvers),
# ST_SHORT_BOOT="backports-cloud" (those of ST_KERNELS booted with a few
# units only, ST_SHORT_ARGS, and no two-node boot; empty: the full suite),
# ST_BUILD_ONLY="security612 stable-cloud trixie-cloud trixie-backports-cloud"
# (built, not booted), ST_JOBS=nproc+1 (kernels at once), ST_PKG=0 (skip the
# package stage), ST_ICOUNT=0 and ST_BENCH_SMOKE=0 (skip the hook-cost and bench
# boots of the 6.12 kernel), ST_OPS_BOOT=0 (skip the direct_hooks=0 boot
# of Debian 13's 6.12), ST_LLC8_BOOT=0 (skip sync_short's 8-CPU boot),
# ST_SMP=4, ST_GUEST_TIMEOUT=2400 (s per boot, or twice its estimate), ST_GUEST_SILENCE=600 (s
# without a new result: a hung guest), ST_BUDGET=4800 (s for the whole
# run, summary included: see "one deadline" below), ST_SHORT=1 (a run
# declared short: what the budget drops is a skip, not a failure),
# ST_PACE=0.5 (the machine taken as half as fast again: every estimate
# doubled), ST_FRESH=1 (chroots rebuilt from nothing),
# ST_GUEST_ARGS="st_only=knobs st_hb_loops=400 st_mig_reps=2", ST_SRC=tree
# to test (default: this repo).
# ST_PROGRESS=25 (every Nth result of a group streams as a comment).
#
# Output: one KTAP document whose results are the groups, each a nested
# document of its own checks: a host stage (host, runner, unit, lint,
# pkg...), a kernel, a boot ("KVER numa").  A group is printed when it
# ends (its stage or its kernel's job), the others on the way out, so
# every result is printed even in a stopped run; meanwhile failures,
# skips and every ST_PROGRESS-th result stream as "# [GROUP] ..."
# comments.  Then a summary per group, the failed checks, the plan 1..K
# (groups), and last "N passed, N failed[, N skipped]" (checks); exit 1
# if any failed: strunner/results.py prints them (lib.sh st_results_main),
# the summary too if the runner dies, and stops it at ST_BUDGET if its
# own deadline did not.
set -uo pipefail
# shellcheck source=selftests/lib.sh source-path=SCRIPTDIR/..
. "$(dirname "$0")/lib.sh"
st_results_main --budget "$0" "$@"
[[ $EUID == 0 ]] || st_die "run as root (installs packages, loads nothing on the host)"
ST_SRC=${ST_SRC:-$ST_ROOT}
export ST_SRC ST_BUILD ST_RUN ST_CACHE ST_BUDGET ST_BUDGET_TAIL ST_STOP_GRACE ST_PACE_HOST_CS \
	ST_USER_CACHE ST_RESULTS_T0
PYTHONPATH=$ST_PYTHONPATH exec "$ST_PYTHON" -P -m strunner.runner
