# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# The support gate (module/wrapper/gate.c, gate_checked.h), sourced by
# tests.sh after lib.sh and claims.sh: numa_scan stays out of
# allow_unchecked.

# gate_others SIM FEATURE: every feature but FEATURE as without simulation.
gate_others() {
	local o want
	for o in $FEATURES; do
		[ "$o" = "$2" ] && continue
		eval "want=\$F_$o"
		check_eq "$1: $o beside it as without simulation ($want)" "$(feature_state "$o")" "$want"
	done
}

# --- numa_scan never runs unchecked --------------------------------------------
# Its copy of task_numa_work allocates vma->numab_state itself: with
# allow_unchecked=1, a kernel outside its checked range (a sublevel, a
# vendor) still refuses it, saying why, while the
# other features run unchecked as the parameter says.
t_gate_strict() {
	group "support gate: numa_scan stays out of allow_unchecked"
	if ! supported numa_scan; then
		ktap_skip "numa_scan strict" "numa_scan unsupported on this kernel anyway"
		return 0
	fi
	umark=$ST_DMARK
	for sim in numa_scan=sublevel:999 numa_scan=vendor ratelimit=sublevel:999,numa_scan=sublevel:999; do
		dmesg_mark
		if ! check "strict: insmod allow_unchecked=1 gate_simulate=$sim" \
			st_load allow_unchecked=1 "gate_simulate=$sim"; then
			dmesg_new | tail -n 5 | sed 's/^/#   dmesg: /'
			continue
		fi
		r=$(feature_reason numa_scan)
		diag "  numa_scan: $r"
		check_eq "strict: $sim: numa_scan unsupported with allow_unchecked=1" \
			"$(feature_state numa_scan)" unsupported
		check "strict: $sim: numa_scan's reason says allow_unchecked does not cover it, and why" \
			grep -q "(simulated by gate_simulate).*; allow_unchecked=1 does not cover this feature: it allocates vma->numab_state itself\$" \
			"$ST/features/numa_scan/reason"
		check_eq "strict: $sim: one dmesg line gives numa_scan's reason" \
			"$(dmesg_new | grep -cF "feature numa_scan unsupported on this kernel: $r")" 1
		check_eq "strict: $sim: numa_scan_threshold=20 fails with EOPNOTSUPP" \
			"$(wr numa_scan_threshold 20)" EOPNOTSUPP
		check "strict: $sim: task_numa_work not hooked" not hooked task_numa_work
		case $sim in
		ratelimit=*)
			eval "want=\$F_ratelimit"
			check_eq "strict: $sim: ratelimit runs unchecked beside it" \
				"$(feature_state ratelimit)" "$want (unchecked)"
			check_eq "strict: $sim: the warning names ratelimit, not numa_scan" \
				"$(dmesg_new | grep 'allow_unchecked=1: kernel .* is outside the range checked for' | grep -c 'for ratelimit: running')" 1
			;;
		*)
			gate_others "strict: $sim" numa_scan
			check_eq "strict: $sim: no feature runs unchecked, no warning" \
				"$(dmesg_new | grep -c 'allow_unchecked=1: kernel')" 0
			;;
		esac
		check "strict: $sim: enabled_functions matches features" hooks_match_features
		st_unload
	done
	ST_DMARK=$umark
	check_no_splat "strict: no splat"
}
