#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Runs unit test binaries as one KTAP document, as tools/testing/selftests
# does: each binary is a subtest (its own KTAP, indented two spaces), then
# one result line for it.  A binary passes only if it exits 0, printed a
# plan, and ran exactly that many tests with none "not ok": a plan that
# does not match the count fails here whatever the binary's exit status.
#
#   run_tests.sh [--fixture ./ktap_fixture] ./test_a ./test_b ...
#
# The first subtest is the harness's own check (--self-test): fake
# binaries that break their plan must fail here, and ktap_fixture (built
# from ktap.h) must exit non-zero when it breaks its plan.
set -uo pipefail

# run_one NR NAME CMD...: prints the subtest and its result line; returns
# 0 if it passed.
run_one() {
	local nr=$1 name=$2 out rc plan='' count=0 failed=0 why='' line
	shift 2
	out=$("$@" 2>&1)
	rc=$?
	while IFS= read -r line; do
		case $line in
		'ok '*) count=$((count + 1)) ;;
		'not ok '*) count=$((count + 1)) failed=$((failed + 1)) ;;
		1..*) [[ -z $plan ]] && plan=${line#1..} ;;
		esac
	done <<<"$out"
	# KTAP nests a subtest two spaces in
	[[ -n $out ]] && printf '  %s\n' "${out//$'\n'/$'\n'  }"
	if [[ -z $plan ]]; then
		why="no plan"
	elif ! [[ $plan =~ ^[0-9]+$ ]] || ((count != plan)); then
		why="plan 1..$plan but $count results"
	elif ((failed)); then
		why="$failed of $count failed"
	elif ((rc != 0)); then
		why="exit status $rc"
	fi
	if [[ -n $why ]]; then
		echo "# $name: $why"
		echo "not ok $nr $name"
		return 1
	fi
	echo "ok $nr $name"
}

# Fake binaries that must fail, and one that must pass.
self_test() {
	local fixture=$1 nr=0 bad=0 out got mode
	check() {
		local want=$1 what=$2
		shift 2
		nr=$((nr + 1))
		if out=$(run_one 1 fake "$@"); then got=pass; else got=fail; fi
		if [[ $got == "$want" ]] && grep -q "^$([[ $want == pass ]] || echo 'not ')ok 1 fake$" <<<"$out"; then
			echo "ok $nr harness: $what"
		else
			echo "not ok $nr harness: $what"
			printf '# %s\n' "${out//$'\n'/$'\n'# }"
			bad=1
		fi
	}
	echo "KTAP version 1"
	echo "1..9"
	check pass "a plan met, exit 0: passes" \
		printf 'KTAP version 1\n1..2\nok 1 a\nok 2 b # SKIP why\n'
	check fail "fewer results than planned, exit 0: fails" \
		printf 'KTAP version 1\n1..3\nok 1 a\nok 2 b\n'
	check fail "more results than planned, exit 0: fails" \
		printf 'KTAP version 1\n1..1\nok 1 a\nok 2 b\n'
	check fail "no plan: fails" printf 'ok 1 a\n'
	check fail "a not ok with exit 0: fails" \
		printf 'KTAP version 1\n1..1\nnot ok 1 a\n'
	check fail "plan met but exit 1 (a crash after the last result): fails" \
		sh -c 'printf "KTAP version 1\n1..1\nok 1 a\n"; exit 1'
	# ktap.h itself: the exit status of a binary that breaks its plan
	for mode in good short early; do
		nr=$((nr + 1))
		if [[ -z $fixture ]]; then
			echo "ok $nr ktap.h: $mode # SKIP no fixture given"
			continue
		fi
		"$fixture" "$mode" >/dev/null 2>&1
		got=$?
		if [[ ($mode == good && $got == 0) || ($mode != good && $got != 0) ]]; then
			echo "ok $nr ktap.h: fixture '$mode' exits $got"
		else
			echo "not ok $nr ktap.h: fixture '$mode' exits $got"
			bad=1
		fi
	done
	return $bad
}

fixture=
if [[ ${1:-} == --fixture ]]; then
	fixture=$2
	shift 2
fi
if [[ ${1:-} == --self-test ]]; then
	self_test "$fixture"
	exit
fi

echo "KTAP version 1"
echo "1..$(($# + 1))"
rc=0
if [[ -n $fixture ]]; then
	run_one 1 harness "$0" --fixture "$fixture" --self-test || rc=1
else
	run_one 1 harness "$0" --self-test || rc=1
fi
nr=1
for t in "$@"; do
	nr=$((nr + 1))
	run_one "$nr" "${t##*/}" "$t" || rc=1
done
exit $rc
