#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# selftests/support.sh tested on crafted guest logs, matrices and pages:
# what a guest reports must match selftests/support-matrix, a kernel
# without a row fails, a row must agree with gate_checked.h, and
# docs/kernels.md's support matrix must agree with the file.  The guest's
# line comes from the guest's own feat_probe (guest/lib.sh).  KTAP on
# stdout, as runner_test.sh prints it.
set -uo pipefail
# shellcheck source=selftests/lib.sh source-path=SCRIPTDIR/..
. "$(dirname "$0")/lib.sh"
# shellcheck source=selftests/support.sh
. "$(dirname "$0")/support.sh"
# shellcheck source=selftests/host_tap.sh
. "$(dirname "$0")/host_tap.sh"

src=${ST_SRC:-$ST_ROOT}

# guest_log FILE RATELIMIT CACHE_LEVEL NUMA_SCAN [EEVDF]: a guest's log around the
# line the guest's feat_probe prints with those states; "fail" as the
# first state: the probe's load failed.
mkdir -p "$tmp/st"
echo 100 >"$tmp/st/st_pace"
guest_log() {
	local out=$1
	shift
	# shellcheck disable=SC2016 # expanded by the guest shell
	S_ratelimit=$1 S_cache_level=$2 S_numa_scan=$3 S_eevdf=${4:-inactive} ST_TMP=$tmp/st sh -c '. "$1"
		st_load() { [ "$S_ratelimit" != fail ]; }
		st_unload() { :; }
		feature_state() { eval "echo \"\$S_$1\""; }
		echo "KTAP version 1"
		echo "# kernel 6.x: Linux version 6.x (Debian 6.x-1)"
		feat_probe
		echo "1..1"
		echo "# RUNNING load/unload"
		echo "    ok 1 - insmod sched_tune.ko"
		echo "ok 1 - load/unload"' sh "$ST_TESTS/guest/lib.sh" >"$out"
}
M612=6.12.95+deb12-amd64 M61=6.1.0-57-amd64
guest_log "$tmp/one-node" active active idle
guest_log "$tmp/two-node" active active active
guest_log "$tmp/numa-gone" active active unsupported
guest_log "$tmp/61" active active unsupported
guest_log "$tmp/61-idle" active active idle
guest_log "$tmp/probe-failed" fail fail fail fail
guest_log "$tmp/ev-active" active active idle active
guest_log "$tmp/ev-gone" active active idle unsupported
if grep -q '^# features on this kernel: ratelimit active, cache_level active, numa_scan idle, eevdf inactive$' "$tmp/one-node"; then
	ok "the guest's feat_probe prints the features line"
else
	not_ok "the guest's feat_probe prints the features line"; sed 's/^/# /' "$tmp/one-node"
fi

# --- st_support_assert ---------------------------------------------------------
expect "6.12 main boot, one node: numa_scan idle" "4 0" st_support_assert k "$M612" main "$tmp/one-node"
expect "6.12 ops and short boots, one node" "4 0" st_support_assert k "$M612" ops "$tmp/one-node"
expect "6.12 two-node boot: numa_scan active" "4 0" st_support_assert k "$M612" numa "$tmp/two-node"
expect "6.12 two-node boot: numa_scan went unsupported" "3 1" st_support_assert k "$M612" numa "$tmp/numa-gone"
expect "6.12 main boot: numa_scan went unsupported" "3 1" st_support_assert k "$M612" main "$tmp/numa-gone"
expect "6.12 main boot: numa_scan active on one node" "3 1" st_support_assert k "$M612" main "$tmp/two-node"
expect "6.12 two-node boot: numa_scan idle" "3 1" st_support_assert k "$M612" numa "$tmp/one-node"
expect "6.1 main boot: numa_scan unsupported" "4 0" st_support_assert k "$M61" main "$tmp/61"
expect "6.1 main boot: numa_scan idle (supported)" "3 1" st_support_assert k "$M61" main "$tmp/61-idle"
expect "a cloud kernel takes its generic twin's row" "4 0" \
	st_support_assert k 6.12.95+deb12-cloud-amd64 short "$tmp/one-node"
expect "6.1 cloud, short boot" "4 0" st_support_assert k 6.1.0-57-cloud-amd64 short "$tmp/61"
expect "an unknown sublevel (6.12.119), whatever it reports" "0 4" \
	st_support_assert k 6.12.119+deb12-amd64 main "$tmp/one-node"
expect "an unknown sublevel's cloud kernel" "0 4" \
	st_support_assert k 6.12.119+deb12-cloud-amd64 short "$tmp/one-node"
expect "another flavour (rt) has no row" "0 4" st_support_assert k 6.12.95+deb12-rt-amd64 main "$tmp/one-node"
expect "a guest that printed no features line" "0 4" st_support_assert k "$M612" main /dev/null
expect "a guest whose probe load failed (no states)" "0 4" st_support_assert k "$M612" main "$tmp/probe-failed"
# the state as the module writes it under allow_unchecked=1 (feat_detect's
# eval cannot take it, so written here): never right for a load with defaults
sed 's/ratelimit active,/ratelimit active (unchecked),/' "$tmp/one-node" >"$tmp/unchecked"
expect "ratelimit 'active (unchecked)' at a load with defaults" "3 1" st_support_assert k "$M612" main "$tmp/unchecked"
sed 's/$/\r/' "$tmp/one-node" >"$tmp/crlf"
expect "a log with serial CRLF line ends" "4 0" st_support_assert k "$M612" main "$tmp/crlf"
expect "6.12: eevdf active at a load with defaults" "3 1" st_support_assert k "$M612" main "$tmp/ev-active"
expect "6.12: eevdf went unsupported" "3 1" st_support_assert k "$M612" main "$tmp/ev-gone"
expect "a kernel built, not booted, with a row" "1 0" st_support_row_check k 6.12.117+deb12-amd64
expect "a kernel built, not booted, without a row" "0 1" st_support_row_check k 6.12.117+deb12-cloud-rt-amd64

# --- st_support_expect -------------------------------------------------------------
# expect_state WHAT WANT KVER FEATURE BOOT: WANT, or "rc N" for an error
expect_state() {
	local what=$1 want=$2 got rc
	shift 2
	got=$(st_support_expect "$@" 2>"$tmp/err")
	rc=$?
	((rc == 0)) || got="rc $rc"
	if [[ $got == "$want" ]]; then
		ok "st_support_expect $*: $what ($want)"
	else
		not_ok "st_support_expect $*: $what: got '$got', want '$want'"; sed 's/^/# /' "$tmp/err"
	fi
}
expect_state "two nodes" active "$M612" numa_scan numa
expect_state "one node" idle "$M612" numa_scan short
expect_state "no series range" unsupported "$M61" numa_scan numa
expect_state "eevdf off by default" inactive "$M61" eevdf main
expect_state "eevdf off by default" inactive 7.3.4+deb13-amd64 eevdf short
expect_state "no row" "rc 1" 6.12.119+deb13-amd64 ratelimit main
expect_state "unknown boot" "rc 1" "$M612" ratelimit numa2
expect_state "unknown feature" "rc 1" "$M612" passthrough main

# --- the data against gate_checked.h -------------------------------------------------
rows=$(st_support_kernels | wc -l)
got=$(counts st_support_data_check)
if ((rows > 0)) && [[ $got == "$rows 0" ]]; then
	ok "selftests/support-matrix: each of its $rows rows agrees with gate_checked.h"
else
	not_ok "selftests/support-matrix: each of its $rows rows agrees with gate_checked.h: got $got"
	sed 's/^/# /' "$tmp/out"
fi
real=$(st_support_file)
# crafted SED WHAT: the real file edited by SED, checked; one row fails
crafted() {
	sed "$1" "$real" >"$tmp/matrix"
	ST_SUPPORT_FILE=$tmp/matrix expect "$2" "$((rows - 1)) 1" st_support_data_check
}
crafted "s/^\\($M61 .*\\)unsupported/\\1active      /" "numa_scan active on 6.1 (no range)"
crafted "s/^\\($M61 *\\)active/\\1unsupported/" "ratelimit unsupported on 6.1.192 (in its range)"
crafted "s/^\\($M612 .*\\) 6\\.12\\.95\$/\\1 6.12.96/" "a version that is not the kernel's"
crafted "s/^\\($M61 .*\\) 6\\.1\\.192\$/\\1 6.12.192/" "6.1's row with another series' version"
crafted "s/^\\($M612 *\\)active/\\1yes/" "a state that is no state"
crafted "s/^\\($M612 .*\\)\$/\\1 extra/" "a seventh column"
crafted "s/^\\($M612 .*\\)inactive /\\1/" "a row without its eevdf state"
crafted "s/^\\($M61 .*\\)inactive  /\\1unsupported/" "eevdf unsupported on 6.1.192 (in its range)"
sed "s/^6\\.12\\.118+deb13-amd64 /$M612 /" "$real" >"$tmp/matrix"
ST_SUPPORT_FILE=$tmp/matrix expect "one kernel in two rows" "$((rows - 2)) 2" st_support_data_check
{ cat "$real"; echo "6.12.119+deb12-amd64 active active active inactive 6.12.119"; } >"$tmp/matrix"
ST_SUPPORT_FILE=$tmp/matrix expect "a new sublevel past the range, supported" "$rows 1" st_support_data_check
{ cat "$real"; echo "6.12.119+deb12-amd64 unsupported unsupported unsupported unsupported 6.12.119"; } >"$tmp/matrix"
ST_SUPPORT_FILE=$tmp/matrix expect "a new sublevel past the range, unsupported" "$((rows + 1)) 0" st_support_data_check
guest_log "$tmp/119" unsupported unsupported unsupported unsupported
ST_SUPPORT_FILE=$tmp/matrix expect "the same, asserted in its boot" "4 0" st_support_assert k 6.12.119+deb12-amd64 main "$tmp/119"
sed 's/^kernel .*/kernel ratelimit numa_scan cache_level eevdf version/' "$real" >"$tmp/matrix"
ST_SUPPORT_FILE=$tmp/matrix expect "columns in another order" "0 $rows" st_support_data_check
sed 's/, *118)$/, 117)/' "$src/module/kernel/gate_checked.h" >"$tmp/gate.h"
# Debian 12's and 13's builds of 6.12.118 both have a row
n118=$(awk '$NF == "6.12.118"' "$real" | wc -l)
ST_SUPPORT_GATE=$tmp/gate.h expect "a gate that checked 6.12 up to 117 only" "$((rows - n118)) $n118" st_support_data_check
: >"$tmp/gate.h"
ST_SUPPORT_GATE=$tmp/gate.h expect "a gate file with no ST_GATE_RANGE line" "0 $rows" st_support_data_check
ST_SUPPORT_FILE=$tmp/none expect "no matrix file" "0 1" st_support_data_check

# --- docs/kernels.md's support matrix -------------------------------------------
doc=$src/docs/kernels.md
got=$(counts st_support_doc_check "$doc")
if [[ $got =~ ^([0-9]+)\ 0$ ]] && ((BASH_REMATCH[1] >= 2)); then
	ok "docs/kernels.md's support matrix agrees with selftests/support-matrix ($got passed/failed)"
else
	not_ok "docs/kernels.md's support matrix agrees with selftests/support-matrix: got $got"
	sed 's/^/# /' "$tmp/out"
fi
total=${got% *}
# doc_crafted SED WHAT: docs/kernels.md edited by SED; one result fails
doc_crafted() {
	sed "$1" "$doc" >"$tmp/kernels.md"
	expect "$2" "$((total - 1)) 1" st_support_doc_check "$tmp/kernels.md"
}
doc_crafted "/^| $M61,/s/| unsupported (/| active (/" "6.1's numa_scan said active"
doc_crafted "/^| $M612,/s/| active | active | active |/| active | active | idle |/" "6.12's numa_scan said idle (the one-node state)"
doc_crafted "/^| $M612,/s/| active | active | active |/| active | active | unsupported |/" "6.12's numa_scan said unsupported"
doc_crafted "/^| $M612,/s/| inactive (/| active (/" "6.12's eevdf said active (its state with a knob set)"
doc_crafted "/^| 7\\.3\\.4+deb13-amd64,/s/| inactive (/| unsupported (/" "7.3's eevdf said unsupported"
doc_crafted "/^| $M612,/s/^| $M612,/| 6.12.119+deb12-amd64, $M612,/" "a row naming a kernel without a row"
doc_crafted "/^| $M612,/s/| active | active | active |/| active |/" "a row with two state cells missing"
sed "/^| $M612,/s/^| [^|]* |/| |/" "$doc" >"$tmp/kernels.md"
expect "a row naming no kernel (and so one kernel left out)" "$((total - 2)) 2" st_support_doc_check "$tmp/kernels.md"
sed "/^| 7\\.3\\.4+deb13-amd64/d" "$doc" >"$tmp/kernels.md"
expect "a kernel of the file left out" "$((total - 2)) 1" st_support_doc_check "$tmp/kernels.md"
sed '/^## Support matrix/,/^## /{/^|/d}' "$doc" >"$tmp/kernels.md"
expect "no support matrix table" "0 1" st_support_doc_check "$tmp/kernels.md"
sed '/^## Support matrix/,/^## /s/| numa_scan |/| numa |/' "$doc" >"$tmp/kernels.md"
expect "a table without a numa_scan column" "0 1" st_support_doc_check "$tmp/kernels.md"
sed '/^## Support matrix/,/^## /s/| eevdf |$/| tick |/' "$doc" >"$tmp/kernels.md"
expect "a table without an eevdf column" "0 1" st_support_doc_check "$tmp/kernels.md"
sed 's/^## Support matrix$/## Kernels/' "$doc" >"$tmp/kernels.md"
expect "the table under another heading" "0 1" st_support_doc_check "$tmp/kernels.md"

echo "1..$n"
((failed == 0))
