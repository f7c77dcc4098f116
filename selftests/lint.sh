#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make lint: shellcheck on every shell script, pyflakes on every Python
# file, checkpatch --strict on every C/H file (checkpatch.pl and
# kernel-doc from Debian's linux-source-6.12, fetched and cached on first
# use), the ABI file against the knobs', counters' and parameters' tables
# (strunner/abi.py), the module's kerneldoc (strunner/kdoc.py), the
# module built with W=1 and checked with sparse against each kernel make
# check boots (st_lint_kbuild; root not needed) and the fidelity pages
# (strunner/fidelity.py).  KTAP on stdout, one result per file or check
# in a nested document per group (lint, kbuild, fidelity); the last line
# is "N passed, N failed"; exit 1 if any failed.
set -uo pipefail
# shellcheck source=selftests/lib.sh
. "$(dirname "$0")/lib.sh"
st_results_main "$0" "$@"

# the module built with W=1 and checked with sparse against each kernel
# make check boots, in its Debian release's chroot (st_lint_kbuild, about
# 40 s a kernel; a skip that says why where a user who is not root finds
# no chroot or headers), beside the checks of one core below: its results
# flat in a file, counted once those are done (replay)
KBUILD_LOG=$(mktemp "${TMPDIR:-/tmp}/st-lint-kbuild.XXXXXX") || exit 1
run_job st_lint_kbuild kbuild >"$KBUILD_LOG" 2>&1 &
KBUILD_PID=$!
KBUILD_DONE=
trap '[[ -n $KBUILD_DONE ]] || st_kill_tree "$KBUILD_PID"; rm -f "$KBUILD_LOG"' EXIT
# pyflakes, shellcheck, checkpatch; the ABI file both ways against
# module/knobs.h, counters.h and the parameters; the kerneldoc
st_statics lint
# the loop check make check runs on each kernel's build finds a loop
st_objgraph_control lint
st_group_end lint
wait "$KBUILD_PID"
KBUILD_DONE=1
replay "$KBUILD_LOG" kbuild
# the fidelity pages' shape and test cells: greps, about a second
st_fidelity_check fidelity
st_summary
((ST_FAIL == 0))
