#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The host runner tested on itself (make check runs it first): a kernel
# job that dies, one that exits non-zero, one that prints nothing, a
# guest that hangs, one that dies at once, a unit that runs no check.
# Each must come out of the runner's own code (replay, st_boot,
# st_guest_verdict, the guest's unit_run) as a failure in the summary
# line and a non-zero status.  A fake qemu stands in for the guest.
# KTAP on stdout, as selftests/unit prints it.
set -uo pipefail
# shellcheck source=selftests/lib.sh source-path=SCRIPTDIR/..
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
not_ok() { n=$((n + 1)) failed=$((failed + 1)); echo "not ok $n - $1"; }

# summary_of CMD...: CMD's counters run through st_summary, in a
# subshell: "LAST-LINE|STATUS", STATUS that of ((ST_FAIL == 0)) as run.sh
# ends.
summary_of() {
	(
		ST_PASS=0 ST_FAIL=0 ST_SKIP=0 ST_NUM=0
		"$@" >"$tmp/out" 2>&1
		st_summary >>"$tmp/out"
		local rc=0
		((ST_FAIL == 0)) || rc=1
		echo "$(tail -n1 "$tmp/out")|$rc"
	)
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
	st_guest_verdict fake-guest "$rc" "$tmp/guest"
}
FAKE_BOOTS=$tmp/boots FAKE_TAP2=
export FAKE_TAP FAKE_END FAKE_BOOTS FAKE_TAP2
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
if ((SECONDS - t0 < 60)); then ok "the silent guest was killed in $((SECONDS - t0)) s"
else not_ok "the silent guest was killed in $((SECONDS - t0)) s (over 60)"; fi
FAKE_TAP='' FAKE_END=1
expect_fail "a guest that died before its plan (qemu rc 1)" 1 guest

# --- the short hook cost: over the limit only in two independent boots --------------
# icount_tap UNLOADED RATELIMIT CACHE_LEVEL [LAST]: a guest's icount lines,
# 3 interleaved repetitions; a value may list one per repetition (a/b/c),
# and a repetition given as "-" was not counted.  LAST, the guest's last
# lines (its one result), by default a pass.
icount_tap() {
	local c r v t='KTAP version 1\n1..1\n'
	for r in 1 2 3; do
		for c in unloaded:$1 ratelimit:$2 cache_level:$3; do
			v=${c#*:}
			[[ $v != */* ]] || v=$(cut -d/ -f"$r" <<<"$v")
			[[ $v == - ]] || t+=$(printf '# icount %s %s\\n' "${c%:*}" "$v")
		done
	done
	printf '%s\n' "${t}${4:-ok 1 - measured\n}"
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
if [[ $(summary_of icount) == "3 passed, 0 failed|0" ]]; then
	ok "icount: +1.5% and +1.0% pass in one boot"
else
	not_ok "icount: +1.5% and +1.0% pass in one boot"; sed 's/^/# /' "$tmp/out"
fi
FAKE_TAP=$(icount_tap 10000 10250 10100) FAKE_TAP2=$(icount_tap 10000 10150 10100)
if [[ $(summary_of icount) == "4 passed, 0 failed|0" ]] && grep -q 'second boot' "$tmp/out"; then
	ok "icount: +2.5% once, +1.5% in a second boot: passes, the second boot said"
else
	not_ok "icount: +2.5% once, +1.5% in a second boot: passes"; sed 's/^/# /' "$tmp/out"
fi
FAKE_TAP=$(icount_tap 10000 10250 10100) FAKE_TAP2=$(icount_tap 10000 10210 10100)
expect_fail "icount: ratelimit +2.5% and +2.1% on two boots" 1 icount
# Drift in one boot: the third repetition 3% higher in every configuration,
# ratelimit counted there alone (+4.5% on medians, +1.5% paired).
FAKE_TAP=$(icount_tap 10000/10000/10300 -/-/10454 10100/10100/10403) FAKE_TAP2=
if [[ $(summary_of icount) == "3 passed, 0 failed|0" ]] && grep -q 'ratelimit costs +1.50% .*paired over 1 rep' "$tmp/out"; then
	ok "icount: a drift within the boot: the paired ratio holds ratelimit at +1.5%, not its median's +4.5%"
else
	not_ok "icount: a drift within the boot: the paired ratio holds ratelimit at +1.5%"; sed 's/^/# /' "$tmp/out"
fi
# Where a repetition's unloaded run was not counted, its runs pair with
# nothing: not with the repetition before.
FAKE_TAP=$(icount_tap 10000/10000/- 10150/10150/10900 10100/10100/10100) FAKE_TAP2=
if [[ $(summary_of icount) == "3 passed, 0 failed|0" ]] && grep -q 'ratelimit costs +1.50% .*paired over 2 rep' "$tmp/out"; then
	ok "icount: runs of a repetition without its unloaded run are not paired"
else
	not_ok "icount: runs of a repetition without its unloaded run are not paired"; sed 's/^/# /' "$tmp/out"
fi
# A configuration the first boot never measured apart: it reports it
# (asked to by st_ic_second=1) and skips; the second boot, asked nothing,
# measures it or fails.
LOST='# icount_lost ratelimit\nok 1 - icount: every configuration measured apart at least once # SKIP never apart\n'
FAKE_TAP=$(icount_tap 10000 - 10100 "$LOST") FAKE_TAP2=$(icount_tap 10000 10150 10100)
if [[ $(summary_of icount) == "3 passed, 0 failed, 1 skipped|0" ]] &&
	grep -q 'ratelimit costs +1.50% .* in a second boot .*not measured (never apart) in the first' "$tmp/out" &&
	grep -q 'st_ic_second=1' "$FAKE_BOOTS.cmdline1" && ! grep -q 'st_ic_second' "$FAKE_BOOTS.cmdline2"; then
	ok "icount: never apart in the first boot, +1.5% in a second: passes, the second boot said"
else
	not_ok "icount: never apart in the first boot, +1.5% in a second: passes"; sed 's/^/# /' "$tmp/out"
fi
FAKE_TAP=$(icount_tap 10000 - 10100 "$LOST") FAKE_TAP2=$(icount_tap 10000 - 10100 'not ok 1 - icount: every configuration measured apart at least once\n')
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

echo "1..$n"
((failed == 0))
