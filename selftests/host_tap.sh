# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# What the host-side tests of the runner's own checks share (sourced after
# lib.sh by runner_test.sh and support_test.sh): a
# scratch directory (kept with KEEP_TMP=1), KTAP results numbered as they
# come, and a check of the passes and failures a st_result producer gives.
#   ok WHAT, not_ok WHAT          one result; n and failed count them
#   counts CMD...                 "PASSED FAILED" of CMD's st_results, in
#                                 a subshell; CMD's output in $tmp/out,
#                                 its results flat ("ok N - [GROUP] desc")
#   expect WHAT "P F" CMD...      one result: CMD gave P passes, F failures

tmp=$(mktemp -d)
trap '[[ -n ${KEEP_TMP:-} ]] || rm -rf "$tmp"' EXIT
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)) failed=$((failed + 1)); echo "not ok $n - $1"; }

counts() {
	(
		# shellcheck disable=SC2034 # lib.sh's counters, which st_result moves
		ST_PASS=0 ST_FAIL=0 ST_SKIP=0 ST_NUM=0 ST_FLAT=1
		"$@" >"$tmp/out" 2>&1
		echo "$ST_PASS $ST_FAIL"
	)
}

expect() {
	local what=$1 want=$2 got
	shift 2
	got=$(counts "$@")
	if [[ $got == "$want" ]]; then
		ok "$what: $want passed/failed"
	else
		not_ok "$what: got $got passed/failed, want $want"
		sed 's/^/# /' "$tmp/out"
	fi
}
