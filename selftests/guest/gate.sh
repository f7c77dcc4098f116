# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# The support gate (module/kernel/gate.c, gate_checked.h), sourced by
# tests.sh after lib.sh and claims.sh: numa_scan stays out of
# allow_unchecked, and the functions of a recorded build keep the sizes
# gate_checked.h records (a Debian package rebuilt with local changes is
# not the build that was checked).

GATE_SIZES=/sys/kernel/debug/sched_tune/gate_sizes

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
# vendor, a size that differs) still refuses it, saying why, while the
# other features run unchecked as the parameter says.
t_gate_strict() {
	group "support gate: numa_scan stays out of allow_unchecked"
	if ! supported numa_scan; then
		ktap_skip "numa_scan strict" "numa_scan unsupported on this kernel anyway"
		return 0
	fi
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
}

# --- the sizes of the functions of a checked build ------------------------------
# gs_line FEATURE FUNC: "here recorded" from the copy of debugfs gate_sizes.
gs_line() { awk -v f="$1" -v fn="$2" '$1 == f && $2 == fn { print $3, $4 }' /tmp/gate_sizes; }

# On a build gate_checked.h records, every fingerprinted function has
# its recorded size; gate_simulate=FEATURE=size:FUNC makes FUNC 16 bytes
# larger: the feature refuses, its reason naming the function and both
# sizes, the others run; with allow_unchecked=1 it runs unchecked, but
# numa_scan never does.  The diag lines are what gate_checked.h records.
t_gate_sizes() {
	group "support gate: function sizes of a checked build"
	umark=$ST_DMARK
	if ! check "sizes: insmod" st_load; then
		return 1
	fi
	# kept: debugfs goes with the module
	check "sizes: debugfs gate_sizes readable" cp "$GATE_SIZES" /tmp/gate_sizes
	read -r _ rel pkg recorded <<-EOF
	$(head -n 1 /tmp/gate_sizes)
	EOF
	check_eq "sizes: gate_sizes names this build" "$rel" "$(uname -r)"
	diag "build $rel, Debian package $pkg: $recorded; for gate_checked.h:"
	awk -v r="$rel" -v p="$pkg" 'NR > 1 && $3 > 0 && !seen[$2]++ {
		printf "#   ST_GATE_SIZE(\"%s\", \"%s\", %s, %s)\n", r, p, $2, $3 }' /tmp/gate_sizes
	bad=$(awk 'NR > 1 && $4 != "-" && $3 != $4 { print $1 ":" $2 "=" $3 "/" $4 }' /tmp/gate_sizes | tr '\n' ' ')
	st_unload
	if [ "$recorded" != recorded ]; then
		ktap_skip "sizes: this build's functions as recorded" "$rel $pkg is not recorded in gate_checked.h (its lines above)"
		ktap_skip "sizes: a simulated size refuses" "no record to differ from"
		return 0
	fi
	check_eq "sizes: every fingerprinted function of $rel has its recorded size" "$bad" ""
	# features refused by a size say so at the first load: none here
	check "sizes: no feature refused for a size at load" \
		not sh -c "dmesg | tail -n +$((umark + 1)) | grep -q 'bytes here, .* in Debian'"

	for row in ratelimit:migrate_task_rq_fair cache_level:ttwu_queue_wakelist \
		numa_scan:task_numa_work eevdf:task_tick_fair; do
		f=${row%%:*} fn=${row#*:}
		supported "$f" || continue
		read -r here rec <<-EOF
		$(gs_line "$f" "$fn")
		EOF
		if [ "${rec:--}" = - ]; then
			ktap_skip "sizes: $f=size:$fn" "$fn has no record for this build"
			continue
		fi
		sim="$f=size:$fn"
		dmesg_mark
		if ! check "sizes: insmod gate_simulate=$sim" st_load "gate_simulate=$sim"; then
			continue
		fi
		r=$(feature_reason "$f")
		diag "  $f: $r"
		post=': load with allow_unchecked=1 to run it anyway'
		[ "$f" = numa_scan ] &&
			post='; allow_unchecked=1 does not cover this feature: it allocates vma->numab_state itself'
		check_eq "sizes: $sim: $f unsupported" "$(feature_state "$f")" unsupported
		check_eq "sizes: $sim: the reason names $fn, both sizes and the build" "$r" \
			"kernel $rel: $fn is $((here + 16)) bytes here (simulated by gate_simulate), $rec in Debian's $pkg build this feature's copy was compared with (a rebuilt or patched kernel?)$post"
		check_eq "sizes: $sim: one dmesg line says $f is unsupported" \
			"$(dmesg_new | grep -c "feature $f unsupported on this kernel")" 1
		gate_others "sizes: $sim" "$f"
		check "sizes: $sim: enabled_functions matches features" hooks_match_features
		st_unload
		dmesg_mark
		if check "sizes: insmod allow_unchecked=1 gate_simulate=$sim" \
			st_load allow_unchecked=1 "gate_simulate=$sim"; then
			if [ "$f" = numa_scan ]; then
				check_eq "sizes: allow_unchecked=1: numa_scan stays unsupported" \
					"$(feature_state numa_scan)" unsupported
			else
				eval "want=\$F_$f"
				check_eq "sizes: allow_unchecked=1: $f runs unchecked" "$(feature_state "$f")" "$want (unchecked)"
				check "sizes: allow_unchecked=1: $f's reason starts unchecked and names $fn" \
					grep -q "^unchecked: kernel $rel: $fn is [0-9]* bytes here (simulated by gate_simulate), [0-9]* in Debian's .*; running it anyway (allow_unchecked=1)" \
					"$ST/features/$f/reason"
			fi
			st_unload
		fi
	done
}
