#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The host runner tested on itself (make check runs it first): a kernel
# job that dies, one that exits non-zero, one that prints nothing, a
# guest that hangs, one that dies at once, one that panics on an oops
# mid-plan, a unit that runs no check, a misspelt unit name, a plan the
# guest did not keep, an oops after the last result, qemu failing after
# a full plan, a failed subTest, a run stopped by SIGTERM or by its
# deadline, a script that dies, outlives its budget or is killed with a
# job running.  Each must come out of the runner's own code (replay,
# st_boot, st_guest_verdict, the jobs and their stop, the guest's
# unit_run, strunner/results.py) as a failure in the summary line,
# naming the cause, and a non-zero status.  A fake qemu stands in for
# the guest.  KTAP on stdout, as selftests/unit prints it.
set -uo pipefail
# shellcheck source=selftests/lib.sh source-path=SCRIPTDIR/..
. "$(dirname "$0")/lib.sh"
# shellcheck source=selftests/bench_vm.sh
. "$(dirname "$0")/bench_vm.sh"

# a scratch directory (kept with KEEP_TMP=1), and KTAP results numbered
# as they come: ok WHAT, not_ok WHAT (n and failed count them)
tmp=$(mktemp -d)
trap '[[ -n ${KEEP_TMP:-} ]] || rm -rf "$tmp"' EXIT
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)) failed=$((failed + 1)); echo "not ok $n - $1"; }
# this test's files, never the run's own; the fake guests looked at often
ST_BUILD=$tmp/build ST_RUN=$tmp/build/run ST_POLL=0.2
export ST_POLL
mkdir -p "$ST_BUILD"

# summary_of CMD...: CMD's results and st_summary, in a subshell, through
# make check's results (strunner/results.py), its output in $tmp/out as
# run.sh prints it: "LAST-LINE|STATUS", STATUS the results' own.
summary_of() {
	local rc=0
	{ "$@"; st_summary; } 2>&1 | st_py strunner.results filter >"$tmp/out" || rc=1
	echo "$(tail -n1 "$tmp/out")|$rc"
}
# expect_fail WHAT FAILS CMD...: CMD's summary shows FAILS failures, status 1.
expect_fail() {
	local what=$1 want=$2 got
	shift 2
	got=$(summary_of "$@")
	if [[ $got == *", $want failed"*"|1" ]]; then
		ok "$what: '${got%|*}', status 1"
	else
		not_ok "$what: got '${got%|*}', status ${got##*|}"
		sed 's/^/# /' "$tmp/out"
	fi
}
# group_doc GROUP: GROUP's nested document in the last output, its
# indentation gone.
group_doc() {
	awk -v g="$1" '$0 == "    # Subtest: " g { on = 1; next }
		on && !/^    / { exit }
		on { print substr($0, 5) }' "$tmp/out"
}
# expect_named WHAT ERE [GROUP]: the last output names the cause, in a
# failed result or the diagnostics right after one; with GROUP, a line
# of GROUP's nested document does.
expect_named() {
	local text
	if (($# > 2)); then text=$(group_doc "$3"); else text=$(cat "$tmp/out"); fi
	if grep -qE "$2" <<<"$text"; then ok "$1: the output names it ('$2'${3:+ in $3})"
	else not_ok "$1: the output names it ('$2'${3:+ in $3})"; sed 's/^/# /' "$tmp/out"; fi
}
# ktap_nested WHAT: the last output is one KTAP document of nested groups,
# as CI and the kernel's KTAP readers take it: the version line first;
# each top-level result ends the nested document of the group it names,
# not ok if and only if a result in it failed; no group twice; the plan
# counts the groups; and the leaves, by verdict, as strunner/ktap.py
# reads them (a nested plan its results miss is one more failure there),
# are the summary line's counts.
ktap_nested() {
	local leaves top want=none
	leaves=$(st_py strunner.ktap "$tmp/out" | awk -F $'\x1f' '
		$1 == "R" { c[$2]++ }
		$1 == "P" { p = $2 " " $3 }
		END { printf "%d %d %d|%s", c["pass"], c["fail"], c["skip"], p }')
	top=$(awk '
		/^    # Subtest: / { name = substr($0, 16); fails = 0; inside = 1; if (seen[name]++) bad++; next }
		/^    not ok / { fails++ }
		/^(not )?ok [0-9]+ - / {
			v = /^not ok/; t = $0
			sub(/^(not )?ok [0-9]+ - /, "", t); sub(/ # SKIP .*$/, "", t)
			if (!inside || t != name || v != (fails > 0)) bad++
			inside = 0; groups++
		}
		END { printf "%d %d", groups, bad }' "$tmp/out")
	if [[ $(tail -n1 "$tmp/out") =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed(,\ ([0-9]+)\ skipped)?$ ]]; then
		want="${BASH_REMATCH[1]} ${BASH_REMATCH[2]} ${BASH_REMATCH[4]:-0}|${top% *} ${top% *}"
	fi
	if [[ $(head -n1 "$tmp/out") == "KTAP version 1" && $leaves == "$want" && ${top#* } == 0 ]]; then
		ok "$1: KTAP of ${top% *} nested groups, their ${want%|*} (passed failed skipped) leaves the summary's"
	else
		not_ok "$1: KTAP of nested groups: leaves and plan '$leaves', want '$want'; groups, misfits: $top"
		sed 's/^/# /' "$tmp/out"
	fi
}

# --- jobs (replay) --------------------------------------------------------------
job_file() { printf '%s\n' "$@" >"$tmp/job"; }
replay_job() { replay "$tmp/job" fake-kernel; }

job_file "ok 1 - [fake-kernel] built" "ok 2 - [fake-kernel] booted" "# job-end 0"
if [[ $(summary_of replay_job) == "2 passed, 0 failed|0" ]]; then
	ok "a job that ran to its end with 2 passes: '2 passed, 0 failed', status 0"
else
	not_ok "a job that ran to its end with 2 passes counts 2 passes"
fi
job_file "ok 1 - [fake-kernel] built" "error: headers for 6.12.999 missing"
expect_fail "a kernel job that died (st_die, no job-end line) after 1 pass" 1 replay_job
job_file "ok 1 - [fake-kernel] built" "# job-end 3"
expect_fail "a kernel job that exited 3" 1 replay_job
job_file "ok 1 - [fake-kernel] built" "not ok 2 - [fake-kernel] booted (3 of 400, at least 40)" "# job-end 0"
summary_of replay_job >/dev/null
# a CI that keeps only the log's last lines still shows which check failed
if tail -n 4 "$tmp/out" | grep -qxF '#   not ok 2 - [fake-kernel] booted (3 of 400, at least 40)'; then
	ok "the summary's last lines name the failed check"
else
	not_ok "the summary's last lines name the failed check"; sed 's/^/# /' "$tmp/out"
fi
job_file "# job-end 0"
expect_fail "a kernel job that printed no result" 1 replay_job
# a job's boots are groups of their own, each ended once with the job
job_file "ok 1 - [fake-kernel] built" "ok 2 - [fake-kernel numa] booted" \
	"not ok 3 - [fake-kernel] checked" "ok 4 - [fake-kernel numa] ran # SKIP no node" "# job-end 0"
summary_of replay_job >/dev/null
ktap_nested "a job of two groups"
if grep -qxF 'not ok 1 - fake-kernel' "$tmp/out" && grep -qxF 'ok 2 - fake-kernel numa' "$tmp/out" &&
	[[ $(group_doc fake-kernel | tr '\n' ';') == "1..2;ok 1 - built;not ok 2 - checked;" ]]; then
	ok "a job of two groups: each its own document and numbering, the failed one not ok"
else
	not_ok "a job of two groups: each its own document and numbering, the failed one not ok"
	sed 's/^/# /' "$tmp/out"
fi
# comments that look like the jobs' markers are comments
odd() { echo "# job of the week"; echo "# job-why soon"; st_result pass host "counted"; }
if [[ $(summary_of odd) == "1 passed, 0 failed|0" ]] && grep -qxF '# job of the week' "$tmp/out"; then
	ok "a comment that begins as a job marker is printed, not taken for one"
else
	not_ok "a comment that begins as a job marker is printed, not taken for one"; sed 's/^/# /' "$tmp/out"
fi
# the job wrapper itself, around a function that dies halfway
dying() { st_result pass fake-kernel "built"; st_die "image download failed"; }
(run_job dying) >"$tmp/job" 2>&1
expect_fail "run_job around a job that calls st_die" 1 replay_job

# --- guests (st_boot, st_guest_verdict) -------------------------------------------
# The fake qemu: opens the monitor pipes as qemu does, writes
# $FAKE_TAP to the second serial port, then behaves as $FAKE_END says.
cat >"$tmp/qemu" <<'EOF'
#!/bin/bash
mon= serial=() cmdline=
while (($#)); do
	case $1 in
	-monitor) mon=${2#pipe:}; shift ;;
	-serial) serial+=("${2#file:}"); shift ;;
	-append) cmdline=$2; shift ;;
	esac
	shift
done
# read-write, as qemu opens them: no wait for the other end
exec 3<>"$mon.in" 4<>"$mon.out"
# FAKE_TAP2, when set, is what every boot after the first prints
boots=$(($(cat "$FAKE_BOOTS" 2>/dev/null || echo 0) + 1))
echo "$boots" >"$FAKE_BOOTS"
echo "$cmdline" >"$FAKE_BOOTS.cmdline$boots"
if ((boots > 1)) && [[ -n ${FAKE_TAP2:-} ]]; then FAKE_TAP=$FAKE_TAP2; fi
printf '%b' "$FAKE_TAP" >>"${serial[1]}"
printf '%b' "${FAKE_CONSOLE:-}" >>"${serial[0]}"
case $FAKE_END in
hang) exec sleep 600 ;;
*) exit "$FAKE_END" ;;
esac
EOF
chmod +x "$tmp/qemu"
guest() {
	local rc
	: >"$tmp/vmlinuz"; : >"$tmp/initrd"
	ST_QEMU=$tmp/qemu ST_GUEST_SILENCE=3 ST_NMI_WAIT=1 \
		st_boot "$tmp/vmlinuz" "$tmp/initrd" "$tmp/guest"
	rc=$?
	st_guest_verdict fake-guest "$rc" "$tmp/guest" "$@"
}
FAKE_BOOTS=$tmp/boots FAKE_TAP2='' FAKE_CONSOLE=''
export FAKE_TAP FAKE_END FAKE_BOOTS FAKE_TAP2 FAKE_CONSOLE
FAKE_TAP='KTAP version 1\n1..1\nok 1 - unit\n' FAKE_END=0
if [[ $(summary_of guest) == "1 passed, 0 failed|0" ]]; then
	ok "a guest that printed its plan and one pass: '1 passed, 0 failed', status 0"
else
	not_ok "a guest that printed its plan and one pass counts one pass"
	sed 's/^/# /' "$tmp/out"
fi
t0=$SECONDS
FAKE_TAP='KTAP version 1\n1..2\n# RUNNING first (uptime 1 s)\nok 1 - first\n# RUNNING second\n' FAKE_END=hang
expect_fail "a guest that went silent in its second unit (killed after ST_GUEST_SILENCE=3 s)" 1 guest
echo "# the silent guest was killed after $((SECONDS - t0)) s"
if ((SECONDS - t0 < 60)); then ok "the silent guest was killed within 60 s"
else not_ok "the silent guest was killed within 60 s"; fi
FAKE_TAP='' FAKE_END=1
expect_fail "a guest that died before its plan (qemu rc 1)" 1 guest
# an oops panics the guest (oops=panic on its command line), which ends
# at once: the verdict names the console's first report
FAKE_TAP='KTAP version 1\n1..2\n# RUNNING first\nok 1 - first\n# RUNNING second\n' FAKE_END=0
FAKE_CONSOLE='[    0.0] Command line: console=ttyS0 rcupdate.rcu_cpu_stall_timeout=300\nst-guest: running tests on 6.12\n[    5.1] WARNING: CPU: 1 PID: 9 at kernel/x.c:1 f+0x1/0x2\n[    9.1] BUG: kernel NULL pointer dereference, address: 0000000000000051\n[    9.2] Kernel panic - not syncing: Fatal exception\n'
expect_fail "a guest that panicked on an oops in its second unit" 1 guest
expect_named "an oops mid-plan" "^not ok .*guest plan 1..2 but 1 results: the console's first fatal kernel report: .*BUG: kernel NULL pointer" fake-guest
if grep -qw "oops=panic" "$FAKE_BOOTS.cmdline$(cat "$FAKE_BOOTS")"; then
	ok "the guest's command line has oops=panic"
else
	not_ok "the guest's command line has oops=panic: $(cat "$FAKE_BOOTS.cmdline$(cat "$FAKE_BOOTS")")"
fi
FAKE_CONSOLE=''

# --- the short hook cost: one estimate over every boot's runs ----------------------
# icount_tap UNLOADED RATELIMIT CACHE_LEVEL [LAST]: a guest's icount lines,
# 3 interleaved repetitions; a value may list one per repetition (a/b/c),
# and a repetition given as "-" was not counted.  LAST, the guest's last
# lines (its one result), by default a pass.
icount_tap() {
	local c r v t='KTAP version 1\n1..3\n# plan: ic_topology ic_measure whole_run\nok 1 - topology\n'
	for r in 1 2 3; do
		for c in unloaded:$1 ratelimit:$2 cache_level:$3; do
			v=${c#*:}
			[[ $v != */* ]] || v=$(cut -d/ -f"$r" <<<"$v")
			[[ $v == - ]] || t+=$(printf '# icount %s %s\\n' "${c%:*}" "$v")
		done
	done
	printf '%s\n' "${t}${4:-ok 2 - measured\n}ok 3 - whole run\n"
}
icount() {
	rm -f "$FAKE_BOOTS"
	mkdir -p "$tmp/ic"
	: >"$tmp/ic/../initramfs.cpio"
	ST_VMLINUZ=$tmp/vmlinuz ST_QEMU=$tmp/qemu ST_GUEST_SILENCE=3 ST_NMI_WAIT=1 \
		st_icount_short fake-icount "$tmp/ic/icount"
}
FAKE_END=0
FAKE_TAP=$(icount_tap 10000 10150 10100) FAKE_TAP2=
if [[ $(summary_of icount) == "6 passed, 0 failed|0" ]]; then
	ok "icount: +1.5% and +1.0% pass in one boot"
else
	not_ok "icount: +1.5% and +1.0% pass in one boot"; sed 's/^/# /' "$tmp/out"
fi
# Over the limit in the first boot: one estimate over both boots' runs,
# never the better of the two.
FAKE_TAP=$(icount_tap 10000 10250 10100) FAKE_TAP2=$(icount_tap 10000 10120 10100)
if [[ $(summary_of icount) == "10 passed, 0 failed|0" ]] &&
	grep -q 'ratelimit costs +1.85% .*paired over 6 rep.*the runs of both boots' "$tmp/out"; then
	ok "icount: +2.5% once, +1.2% in a second boot: one estimate of both, +1.85%, passes"
else
	not_ok "icount: +2.5% once, +1.2% in a second boot: one estimate of both, +1.85%, passes"; sed 's/^/# /' "$tmp/out"
fi
FAKE_TAP=$(icount_tap 10000 10250 10100) FAKE_TAP2=$(icount_tap 10000 10160 10100)
expect_fail "icount: +2.5% once, +1.6% in a second boot: one estimate of both, +2.05%, fails" 1 icount
FAKE_TAP=$(icount_tap 10000 10250 10100) FAKE_TAP2=$(icount_tap 10000 10210 10100)
expect_fail "icount: ratelimit +2.5% and +2.1% on two boots" 1 icount
# Drift in one boot: the third repetition 3% higher in every configuration,
# ratelimit counted there alone (+4.5% on medians, +1.5% paired).
FAKE_TAP=$(icount_tap 10000/10000/10300 -/-/10454 10100/10100/10403) FAKE_TAP2=
if [[ $(summary_of icount) == "6 passed, 0 failed|0" ]] && grep -q 'ratelimit costs +1.50% .*paired over 1 rep' "$tmp/out"; then
	ok "icount: a drift within the boot: the paired ratio holds ratelimit at +1.5%, not its median's +4.5%"
else
	not_ok "icount: a drift within the boot: the paired ratio holds ratelimit at +1.5%"; sed 's/^/# /' "$tmp/out"
fi
# Where a repetition's unloaded run was not counted, its runs pair with
# nothing: not with the repetition before.
FAKE_TAP=$(icount_tap 10000/10000/- 10150/10150/10900 10100/10100/10100) FAKE_TAP2=
if [[ $(summary_of icount) == "6 passed, 0 failed|0" ]] && grep -q 'ratelimit costs +1.50% .*paired over 2 rep' "$tmp/out"; then
	ok "icount: runs of a repetition without its unloaded run are not paired"
else
	not_ok "icount: runs of a repetition without its unloaded run are not paired"; sed 's/^/# /' "$tmp/out"
fi
# A configuration the first boot never measured apart: it reports it
# (asked to by st_ic_second=1) and skips; the second boot, asked nothing,
# measures it or fails.
LOST='# icount_lost ratelimit\nok 2 - icount: every configuration measured apart at least once # SKIP never apart\n'
FAKE_TAP=$(icount_tap 10000 - 10100 "$LOST") FAKE_TAP2=$(icount_tap 10000 10150 10100)
if [[ $(summary_of icount) == "9 passed, 0 failed, 1 skipped|0" ]] &&
	grep -q 'ratelimit costs +1.50% .*paired over 3 rep.*the runs of both boots' "$tmp/out" &&
	grep -q 'st_ic_second=1' "$FAKE_BOOTS.cmdline1" && ! grep -q 'st_ic_second' "$FAKE_BOOTS.cmdline2"; then
	ok "icount: never apart in the first boot, +1.5% in a second: passes, the second boot said"
else
	not_ok "icount: never apart in the first boot, +1.5% in a second: passes"; sed 's/^/# /' "$tmp/out"
fi
FAKE_TAP=$(icount_tap 10000 - 10100 "$LOST") FAKE_TAP2=$(icount_tap 10000 - 10100 'not ok 2 - icount: every configuration measured apart at least once\n')
expect_fail "icount: never apart in either boot" 1 icount
FAKE_TAP=$(icount_tap 10000 - 10100 "$LOST") FAKE_TAP2=$(icount_tap 10000 10250 10100)
expect_fail "icount: never apart in the first boot, +2.5% in the second" 1 icount
FAKE_TAP2=

# --- a unit that runs no check (the guest's own unit_run) -------------------------
mkdir -p "$tmp/st"
echo 100 >"$tmp/st/st_pace"
# shellcheck disable=SC2016 # expanded by the guest shell
ST_TMP=$tmp/st sh -c '. "$1"; t_silent() { :; }; t_fine() { check "fine" true; }; units_run fine silent' \
	sh "$ST_TESTS/guest/lib.sh" >"$tmp/unit.tap" 2>&1
unit_tap() { st_ingest_tap fake-guest "$tmp/unit.tap"; }
expect_fail "a guest unit that ran no check, beside one that passed" 1 unit_tap

# a records producer (one of strunner's modules) that dies after one
# result: the result counts, and its exit fails by name
dying_records() {
	st_records host sh -c 'printf "R\037pass\037one\n# working\n"; echo boom >&2; exit 3'
}
expect_fail "a records producer that printed one pass, then exited 3" 1 dying_records
expect_named "a records producer that died" '^ +not ok .*sh -c .*: exited 3, its results may stop short'

# --- a result's name is the same in every run (guest/lib.sh ktap_name) -----------
# shellcheck disable=SC2016 # expanded by the guest shell
ST_TMP=$tmp/st sh -c '. "$1"; t_figs() { check "kept (45 of 200 (x) migrated)" false; check "plain" true; }; units_run figs' \
	sh "$ST_TESTS/guest/lib.sh" >"$tmp/names.tap" 2>&1
if grep -q '^    not ok 1 - kept$' "$tmp/names.tap" &&
	grep -q '^    # kept: 45 of 200 (x) migrated$' "$tmp/names.tap" &&
	grep -q '^    ok 2 - plain$' "$tmp/names.tap"; then
	ok "a guest result's figures go to a diagnostic, its name stays"
else
	not_ok "a guest result's figures go to a diagnostic, its name stays"; sed 's/^/# /' "$tmp/names.tap"
fi

# --- the rate limit's bound: the Wilson interval in the guest's integers ----------
sed -n '/^isqrt() {/,/^permille() /p' "$ST_TESTS/guest/tests.sh" >"$tmp/wilson.sh"
got=$(for kn in "0 200" "11 200" "12 200" "45 200" "0 0"; do
	# shellcheck disable=SC2016,SC2086 # expanded by the guest shell; K N
	sh -c '. "$1"; shift; wilson "$@"' sh "$tmp/wilson.sh" $kn
done | tr '\n' ';')
if [[ $got == "0 0 18;55 30 95;60 34 101;225 172 287;1000 0 1000;" ]]; then
	ok "the rate limit's 95% Wilson bounds, in the guest shell's integers"
else
	not_ok "the rate limit's 95% Wilson bounds, in the guest shell's integers: $got"
fi

# --- the plan: one list, unknown names fail, the guest's plan compared --------------
# the guest's own rule (guest/lib.sh plan_unknown) on a misspelt name
# shellcheck disable=SC2016 # expanded by the guest shell
got=$(ST_TMP=$tmp/st sh -c '. "$1"; plan_unknown "load_unload
	hang_guard enabled" "load_unload,hang_gaurd,enabled,"' sh "$ST_TESTS/guest/lib.sh" 2>&1)
if [[ $got == "hang_gaurd " ]]; then ok "guest: st_only=load_unload,hang_gaurd,enabled: hang_gaurd is no unit"
else not_ok "guest: st_only=load_unload,hang_gaurd,enabled: hang_gaurd is no unit (got '$got')"; fi
st_plan tests st_only=load_unload,hang_guard,enabled
if [[ $ST_PLAN == "load_unload hang_guard enabled whole_run" && $ST_PLAN_RUNS == 3 && -z $ST_PLAN_UNKNOWN ]]; then
	ok "host: the plan of st_only=load_unload,hang_guard,enabled comes from tests.sh's ALL_UNITS"
else
	not_ok "host: the plan of st_only=load_unload,hang_guard,enabled (got '$ST_PLAN', $ST_PLAN_RUNS, '$ST_PLAN_UNKNOWN')"
fi
# a guest that dropped the misspelt name and ran the other two, green
FAKE_TAP='KTAP version 1\n1..3\n# plan: load_unload enabled whole_run\nok 1 - load\nok 2 - enabled\nok 3 - whole run\n' FAKE_END=0
expect_fail "a misspelt unit name (st_only=load_unload,hang_gaurd,enabled), the guest green" 2 \
	guest tests st_only=load_unload,hang_gaurd,enabled
expect_named "a misspelt unit name" '^not ok .*unknown: hang_gaurd' fake-guest
ktap_nested "a misspelt unit name"
FAKE_TAP='KTAP version 1\n1..2\n# plan: load_unload whole_run\nok 1 - load\nok 2 - whole run\n'
expect_fail "a guest whose plan lost a unit the host expects" 1 guest tests st_only=load_unload,enabled
expect_named "a guest whose plan lost a unit" 'host: +load_unload enabled whole_run'
if [[ $(summary_of guest tests st_only=load_unload) == "3 passed, 0 failed|0" ]]; then
	ok "a guest whose plan is the host's: 3 passed"
else
	not_ok "a guest whose plan is the host's: 3 passed"; sed 's/^/# /' "$tmp/out"
fi

# --- after the last result: the console, qemu's status ---------------------------
FAKE_CONSOLE='st-guest: running tests on 6.12\nst-guest: done (rc 0)\n[   80.1] Oops: general protection fault, probably for non-canonical address\n[   80.2] Call Trace:\n'
expect_fail "an oops on the console after the guest's last result (at poweroff)" 1 guest tests st_only=load_unload
expect_named "an oops after the last result" "^not ok .*after the guest's last result: Oops" fake-guest
FAKE_CONSOLE='st-guest: done (rc 0)\n[   80.1] reboot: Power down\n'
if [[ $(summary_of guest tests st_only=load_unload) == "4 passed, 0 failed|0" ]]; then
	ok "a clean poweroff: the console check passes"
else
	not_ok "a clean poweroff: the console check passes"; sed 's/^/# /' "$tmp/out"
fi
FAKE_END=3
expect_fail "qemu exiting 3 after the guest's full plan" 1 guest tests st_only=load_unload
expect_named "qemu exiting 3 after the full plan" '^not ok .*qemu exited 0 .*\(it exited 3\)' fake-guest
FAKE_END=0 FAKE_CONSOLE=

# --- every producer's exit status: the bench's unit tests -----------------------------
mkdir -p "$tmp/py"
cat >"$tmp/py/test_fake.py" <<'PY'
import unittest


class Fake(unittest.TestCase):
    def test_cases(self):
        for case in ("one", "two"):
            with self.subTest(case=case):
                self.assertEqual(case, "one")

    def test_fine(self):
        pass
PY
bench_unit() { BENCH_UNIT_DIR=$tmp/py st_bench_unit; }
expect_fail "a failed subTest in the bench's unit tests" 1 bench_unit
expect_named "a failed subTest" "^not ok .*test_cases \(subTest failed: \(case='two'\)\)" bench-unit
cat >"$tmp/py/test_fake.py" <<'PY'
import atexit
import os
import unittest

atexit.register(lambda: os._exit(3))


class Fake(unittest.TestCase):
    def test_fine(self):
        pass
PY
expect_fail "the bench's unit tests exiting 3 with every test ok" 1 bench_unit
expect_named "the bench's unit tests exiting 3" '^not ok .*exited 3' bench-unit

# --- one deadline: the machine's factor, the budget's decision -------------------------
factor_of() {
	(
		# the reference pace these figures are for, whatever the caller's
		ST_RUN=$tmp/factor ST_DEADLINE=$((EPOCHSECONDS + 100)) ST_PACE=${1:-1} ST_PACE_HOST_CS=600
		set -- "$ST_RUN" "$ST_PACE_HOST_CS" "$ST_PACE"
		echo "$(st_py strunner.budget factor "$@") $(st_py strunner.budget estimate "$@" 30)" \
			"$(st_budget_ok fake "a boot" 30 >/dev/null && echo fits || echo dropped)"
	)
}
rm -rf "$tmp/factor"
mkdir -p "$tmp/factor/pace" "$tmp/factor/boots"
f1=$(factor_of)
echo 1200 >"$tmp/factor/pace/first"
f2=$(factor_of) f3=$(factor_of 0.5)
echo "tests 100 400" >"$tmp/factor/boots/one"
f4=$(factor_of)
if [[ $f1 == "1.000 30 fits" && $f2 == "2.000 60 fits" && $f3 == "4.000 120 dropped" && $f4 == "4.000 120 dropped" ]]; then
	ok "budget: factor 1 with nothing measured, 2 at a pace of 1200 cs, 4 at ST_PACE=0.5 or after a boot 4x its estimate (a 30 s boot then needs 120 s: dropped with 100 s left)"
else
	not_ok "budget: the machine's factor: got '$f1', '$f2', '$f3', '$f4'"
fi

# --- one deadline: a run stopped by SIGTERM or by its deadline -------------------------
# A make check in small: strunner/runner.py's own loop, stop and end, with
# two kernels of one job at a time, each a fake boot that hangs, then a
# second boot (run.sh call's job, here a script of its own).
cat >"$tmp/minijob.sh" <<'MINIJOB'
# shellcheck shell=bash
. "$1"
st_run_clock
fake_kernel() {
	st_result pass "$1" "built"
	: >"$ST_BUILD/vmlinuz"; : >"$ST_BUILD/initrd"
	st_boot "$ST_BUILD/vmlinuz" "$ST_BUILD/initrd" "$ST_BUILD/$1/guest"
	st_guest_verdict "$1" $? "$ST_BUILD/$1/guest"
	if st_budget_ok "$1" "a second boot" 5; then st_result pass "$1" "a second boot"; fi
}
run_job fake_kernel "$2"
MINIJOB
cat >"$tmp/minirun.py" <<'MINIRUN'
import os
import sys

from strunner import runner


class Mini(runner.Check):
    def host(self):
        self.todo, self.plan_jobs = [], ["k1", "k2"]

    def start(self, k):
        self.job(k, ["bash", sys.argv[1], sys.argv[2], k],
                 env=self.run_env())


sys.exit(Mini(os.environ).main())
MINIRUN
# minirun BUDGET [kill]: the small run, killed by SIGTERM once its first
# guest printed a result; its output in $tmp/out, "STATUS SECONDS".
minirun() {
	local pid t0=$SECONDS rc i
	rm -rf "${tmp:?}/mini"
	mkdir -p "$tmp/mini"
	FAKE_TAP='KTAP version 1\n1..2\n# RUNNING first (uptime 1 s)\nok 1 - first\n# RUNNING second\n' FAKE_END=hang \
		ST_QEMU=$tmp/qemu ST_GUEST_SILENCE=600 ST_NMI_WAIT=1 ST_BUDGET=$1 ST_BUDGET_TAIL=20 \
		ST_BUILD=$tmp/mini ST_RUN=$tmp/mini/run ST_STOP_GRACE=10 ST_CACHE=$tmp/cache ST_JOBS=1 \
		PYTHONPATH=$ST_PYTHONPATH "$ST_PYTHON" -P -m strunner.results run --budget \
		"$ST_PYTHON" -P "$tmp/minirun.py" "$tmp/minijob.sh" "$ST_TESTS/lib.sh" >"$tmp/out" 2>&1 &
	pid=$!
	if [[ ${2:-} == kill ]]; then
		for ((i = 0; i < 60; i++)); do
			grep -qs '^ok 1' "$tmp/mini/k1/guest/tap.log" && break
			sleep 0.5
		done
		kill -TERM "$pid"
	fi
	wait "$pid"
	rc=$?
	echo "$rc $((SECONDS - t0))"
}
read -r rc secs < <(minirun 300 kill)
last=$(tail -n1 "$tmp/out")
if ((rc == 1)) && [[ $last =~ ^[0-9]+\ passed,\ [1-9][0-9]*\ failed ]] && ((secs < 60)); then
	ok "a run killed by SIGTERM: its summary line, red, status 1, within a minute"
else
	not_ok "a run killed by SIGTERM: its summary line, red, status 1, within a minute"; sed 's/^/# /' "$tmp/out"
fi
echo "# killed: '$last', status $rc, in $secs s"
expect_named "a run killed by SIGTERM: the guest's result so far" '^ok [0-9]+ - first$' k1
expect_named "a run killed by SIGTERM: the guest stopped" '^not ok [0-9]+ - guest ran to its end \(stopped with the run\)' k1
expect_named "a run killed by SIGTERM: the cause" 'SIGTERM \(make check was killed\)'
expect_named "a run killed by SIGTERM: what did not run" '^not ok [0-9]+ - build and boots: not run$' k2
expect_named "a run killed by SIGTERM: k1's second boot did not run" '^not ok [0-9]+ - a second boot: not run$' k1
ktap_nested "a run killed by SIGTERM"
# the deadline: 30 s budget, 20 of them to sum up: the guest is stopped
# 10 s in, the run ends inside its 30 s
read -r rc secs < <(minirun 30)
last=$(tail -n1 "$tmp/out")
if ((rc == 1)) && [[ $last =~ ^[0-9]+\ passed,\ [1-9][0-9]*\ failed ]] && ((secs <= 30)); then
	ok "a run that meets its deadline (ST_BUDGET=30): its summary line, red, status 1, inside the budget"
else
	not_ok "a run that meets its deadline (ST_BUDGET=30): its summary line, red, status 1, inside the budget"; sed 's/^/# /' "$tmp/out"
fi
echo "# deadline: '$last', status $rc, in $secs s"
expect_named "a run that meets its deadline: the cause" "the run's deadline"
expect_named "a run that meets its deadline: what did not run" '^not ok [0-9]+ - build and boots: not run$' k2
ktap_nested "a run that meets its deadline"

# --- a script that dies, and one that outlives its budget ------------------------------
# Under make check's results (lib.sh st_results_main) a script that dies
# before its summary still gets one, red, naming its end; one that
# neither ends nor sums up is killed before its budget runs out.
cat >"$tmp/dies.sh" <<'DIES'
# shellcheck shell=bash
. "$1"
st_results_main --budget "$0" "$@"
st_result pass host "set up"
trap 'echo "# SIGTERM: taken no notice of"' TERM
[[ ${2:-} == hang ]] && while :; do sleep 1; done
st_die "apt-get update failed"
DIES
# script WHAT [hang]: dies.sh under its results, ST_BUDGET=30; its output
# in $tmp/out, "STATUS SECONDS"
script() {
	local t0=$SECONDS rc
	ST_BUDGET=30 ST_BUDGET_TAIL=15 bash "$tmp/dies.sh" "$ST_TESTS/lib.sh" "$@" >"$tmp/out" 2>&1
	rc=$?
	echo "$rc $((SECONDS - t0))"
}
read -r rc secs < <(script)
if ((rc == 1)) && [[ $(tail -n1 "$tmp/out") == "1 passed, 1 failed" && $(head -n1 "$tmp/out") == "KTAP version 1" ]]; then
	ok "a script that dies (st_die) after one result: its summary line, red, status 1"
else
	not_ok "a script that dies (st_die) after one result: its summary line, red, status 1"; sed 's/^/# /' "$tmp/out"
fi
expect_named "a script that dies: its end" '^not ok [0-9]+ - dies.sh summed up \(it exited 1 after 1 results' host
expect_named "a script that dies: its last words" '^error: apt-get update failed$'
ktap_nested "a script that dies"
read -r rc secs < <(script hang)
if ((rc == 1)) && [[ $(tail -n1 "$tmp/out") == "1 passed, 1 failed" ]] && ((secs <= 30)); then
	ok "a script that neither ends nor sums up: killed, its summary line, red, status 1, inside its 30 s budget"
else
	not_ok "a script that neither ends nor sums up: killed, its summary line, red, status 1, inside its 30 s budget"; sed 's/^/# /' "$tmp/out"
fi
echo "# hung script: status $rc in $secs s"
expect_named "a hung script: stopped before the budget" '^# stopping the script: 2[0-9] s of ST_BUDGET'
expect_named "a hung script: its end" '^not ok [0-9]+ - dies.sh summed up \(it was killed after 1 results' host
ktap_nested "a hung script"
# a script killed outright: its job, which would outlive it, is ended
cat >"$tmp/orphan.sh" <<'ORPHAN'
# shellcheck shell=bash
. "$1"
st_results_main "$0" "$@"
sleeper() { st_result pass k9 "built"; echo "$BASHPID" >"$1.pid"; sleep 600; }
run_job sleeper "$2" >"$2" 2>&1 &
echo "# job $! $2 k9"
while [[ ! -s $2.pid ]]; do sleep 0.2; done
kill -KILL $$
ORPHAN
bash "$tmp/orphan.sh" "$ST_TESTS/lib.sh" "$tmp/k9.results" >"$tmp/out" 2>&1
rc=$?
pid=$(cat "$tmp/k9.results.pid")
# killed, it is a zombie until init reaps it
for ((i = 0; i < 20; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
if ((rc == 1)) && [[ $(tail -n1 "$tmp/out") == "1 passed, 2 failed" ]] && ! kill -0 "$pid" 2>/dev/null; then
	ok "a script killed by SIGKILL with a job running: its summary line, red, status 1, the job ended"
else
	not_ok "a script killed by SIGKILL with a job running: its summary line, red, status 1, the job ended (status $rc)"
	sed 's/^/# /' "$tmp/out"
	kill "$pid" 2>/dev/null
fi
expect_named "a script killed by SIGKILL: its end" '^not ok [0-9]+ - orphan.sh summed up \(it was killed by SIGKILL after 1 results' host
expect_named "a script killed by SIGKILL: its job's end" '^not ok [0-9]+ - job ran to its end \(it died after 1 results' k9

# --- every workload's timeout inside the silence watchdog --------------------------------
# a workload that outlives ST_GUEST_SILENCE (600 s) makes the host call
# the guest hung instead of failing by name: 3/4 of it at most
long=$(grep -noE 'timeout +[0-9]+' "$ST_TESTS"/guest/*.sh |
	awk -F'timeout +' '$NF + 0 > 450')
if [[ -z $long ]]; then ok "every guest workload's timeout is at most 450 s (ST_GUEST_SILENCE 600 s)"
else not_ok "every guest workload's timeout is at most 450 s: $(tr '\n' ' ' <<<"$long")"; fi

echo "1..$n"
((failed == 0))
