# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# Guest test runner (busybox ash, run by /init as st_mode=tests).  KTAP on
# stdout, one subtest per unit; a guest that dies or hangs leaves fewer
# results than its plan, and its last "# RUNNING" line names where.
# shellcheck source=selftests/guest/lib.sh
. /st/lib.sh
# shellcheck source=selftests/guest/cache_level.sh
. /st/cache_level.sh
# shellcheck source=selftests/guest/numa_scan.sh
. /st/numa_scan.sh
. /st/scx.sh
# shellcheck source=selftests/guest/conflict.sh
. /st/conflict.sh
. /st/modprobe.sh
# shellcheck source=selftests/guest/modmem.sh
. /st/modmem.sh
# shellcheck source=selftests/guest/soak.sh
. /st/soak.sh
# shellcheck source=selftests/guest/fuzz.sh
. /st/fuzz.sh
# shellcheck source=selftests/guest/livepatch.sh
. /st/livepatch.sh
# shellcheck source=selftests/guest/tracers.sh
. /st/tracers.sh
# shellcheck source=selftests/guest/claims.sh
. /st/claims.sh
# shellcheck source=selftests/guest/eevdf.sh
. /st/eevdf.sh
# shellcheck source=selftests/guest/ratelimit_adaptive.sh
. /st/ratelimit_adaptive.sh
# shellcheck source=selftests/guest/placement.sh
. /st/placement.sh
# shellcheck source=selftests/guest/gate.sh
. /st/gate.sh
# shellcheck source=selftests/guest/ratelimit_table.sh
. /st/ratelimit_table.sh
# shellcheck source=selftests/guest/trace_events.sh
. /st/trace_events.sh
# shellcheck source=selftests/guest/scope.sh
. /st/scope.sh

# --- load / unload -------------------------------------------------------
t_load_unload() {
	group "load/unload"
	dmesg_mark
	if ! check "insmod sched_tune.ko" st_load; then
		dmesg_new | tail -n 20 | sed 's/^/#   /'
		return 1
	fi
	check "/sys/kernel/sched_tune exists" test -d "$ST"
	check "module listed in /proc/modules" is_loaded
	for f in enabled ratelimit_window_ns ratelimit_burst ratelimit_mode ratelimit_quota \
		ratelimit_quota_replenish cache_share_level \
		cache_share_auto_llc_max numa_scan_threshold numa_scan_renew passthrough \
		$(for g in $FEATURES; do printf 'features/%s/state features/%s/reason features/%s/functions ' "$g" "$g" "$g"; done) \
		$(stat_names_abi | sed 's|^|stats/|') stats/reset; do
		check "file $f exists" test -e "$ST/$f"
	done
	check_eq "stats/ holds exactly the counters of sysfs-kernel-sched_tune" \
		"$(stat_files | sort | tr '\n' ' ')" "$(stat_names_abi | sed 's|^|stats/|' | sort | tr '\n' ' ')"
	check "default: select_task_rq_fair hooked (enabled_functions)" hooked select_task_rq_fair
	check "default: migrate_task_rq_fair hooked (enabled_functions)" hooked migrate_task_rq_fair
	t_features_format
	check "default: enabled_functions matches features" hooks_match_features
	check "rmmod sched_tune" st_unload
	check "/sys/kernel/sched_tune gone after rmmod" test ! -e "$ST"
	check "/sys/module/sched_tune gone after rmmod" test ! -e /sys/module/sched_tune
	check "debugfs sched_tune gone after rmmod" test ! -e "$DBG_ST"
	check "module gone from /proc/modules" not is_loaded
	check "nothing of ours in enabled_functions after rmmod" not ours_in_ftrace
	check "no kprobe of ours after rmmod" not ours_in_kprobes
}

# features/<name>/: the grammar of sysfs-kernel-sched_tune, file by file.
t_features_format() {
	for f in $FEATURES; do
		s=$(feature_state "$f") r=$(feature_reason "$f") fn=$(cat "$ST/features/$f/functions" 2>/dev/null)
		diag "  features/$f: state '$s', functions '$fn', reason '$r'"
		case $s in
		active) ktap_ok "features/$f/state: '$s' is a state of sysfs-kernel-sched_tune" ;;
		idle|inactive|unsupported)
			if [ -n "$r" ]; then ktap_ok "features/$f: $s, with a reason"
			else ktap_fail "features/$f: $s, with a reason"; fi ;;
		# run by allow_unchecked=1, which its reason says first
		"active (unchecked)" | "idle (unchecked)" | "inactive (unchecked)")
			case $r in
			"unchecked: "?*) ktap_ok "features/$f: $s, its reason starting 'unchecked: '" ;;
			*) ktap_fail "features/$f: $s, its reason starting 'unchecked: '" ;;
			esac ;;
		*) ktap_fail "features/$f/state: '$s' is a state of sysfs-kernel-sched_tune" ;;
		esac
		check "features/$f/functions: function:ftrace-wrap|ftrace-replace[,...]" \
			sh -c "echo '$fn' | grep -qxE '[a-z_]+:ftrace-(wrap|replace)(,[a-z_]+:ftrace-(wrap|replace))*'"
		check_eq "features/$f/state: one line" "$(wc -l <"$ST/features/$f/state")" 1
		check_eq "features/$f/reason: one line" "$(wc -l <"$ST/features/$f/reason")" 1
	done
	check "debugfs sched_tune/features: one summary line per feature" \
		sh -c "[ \$(grep -cE '^(ratelimit|cache_level|numa_scan) (active|idle|inactive|unsupported) ' /sys/kernel/debug/sched_tune/features) = 3 ]"
	# a load with allow_unchecked=1 (st_load_args) may mark it unchecked
	s=$(feature_state ratelimit)
	[ "$(cat /sys/module/sched_tune/parameters/allow_unchecked 2>/dev/null)" = Y ] && s=${s% (unchecked)}
	check_eq "features: ratelimit active by default" "$s" active
}

# --- tail-call hang guard ------------------------------------------------------
# A tail call from a wrapper into the original makes ftrace loop forever with
# IRQs off: under TCG the guest then hangs silently.  Here the guest has to
# make progress with the hooks live; if it hangs, the host's timeout reports
# this group as the place it stopped.
t_hang_guard() {
	group "tail-call hang guard"
	st_load || { ktap_fail "tail-call hang guard: insmod"; return 1; }
	c0=$(stat_get ratelimit_checked)
	t0=$(now_cs)
	check "tail-call hang guard: workload completes with hooks active" timeout 300 sh -c ". /st/lib.sh; hb $(scaled 1000 200)"
	t1=$(now_cs)
	c1=$(stat_get ratelimit_checked)
	diag "hang guard: workload took $(secs "$t0" "$t1") s, ratelimit_checked $c0 -> $c1"
	check "tail-call hang guard: hook ran (ratelimit_checked grew)" test "${c1:-0}" -gt "${c0:-0}"
	st_unload
}

# --- knobs ----------------------------------------------------------------------
# knob_valid KNOB STRING EXPECT-READBACK: a valid write and its read-back.
# Where the knob's feature is unsupported, only its current value may be
# written again; anything else fails with EOPNOTSUPP and changes nothing.
knob_valid() {
	k=$1 s=$2 want=$3
	before=$(knob_value "$k")
	r=$(wr "$k" "$s")
	got=$(knob_value "$k")
	if ! supported "$(knob_feature "$k")" && [ "$want" != "$before" ]; then
		if [ "$r" = EOPNOTSUPP ] && [ "$got" = "$before" ]; then
			ktap_ok "$k: '$s' on unsupported $(knob_feature "$k") -> EOPNOTSUPP, value kept"
		else
			ktap_fail "$k: '$s' on unsupported $(knob_feature "$k") -> EOPNOTSUPP, value kept"
			diag "  write: $r, value '$before' -> '$got'"
		fi
		return
	fi
	if [ "$r" = OK ] && [ "$got" = "$want" ]; then
		ktap_ok "$k: write '$s' accepted, reads back $want"
	else
		ktap_fail "$k: write '$s' accepted, reads back $want"
		diag "  write: $r, read back: '$got'"
	fi
}

# knob_default KNOB DEFAULT: the default, or the stock value where the
# knob's feature is unsupported (sysfs-kernel-sched_tune: "its knobs read
# their stock value").
knob_default() {
	want=$2
	if ! supported "$(knob_feature "$1")" && [ -n "$(knob_stock "$1")" ]; then
		want=$(knob_stock "$1")
	fi
	check_eq "$1: default $want" "$(knob_value "$1")" "$want"
}


# Values: \n is a newline written by st_write -e.  "\n" alone is the empty
# value: a zero-length write(2) never reaches a sysfs store.
U64_OVER=18446744073709551616
t_knobs() {
	group "knobs"
	st_load || { ktap_fail "knobs: insmod"; return 1; }
	knob_default enabled 1
	knob_default ratelimit_window_ns 2000000
	knob_default ratelimit_burst 1
	knob_default ratelimit_mode fixed
	knob_default ratelimit_quota 10
	knob_default ratelimit_quota_replenish 1
	knob_default cache_share_level l2
	if supported cache_level; then
		check_eq "cache_share_level: default reads 'llc [l2] smt auto none'" "$(knob cache_share_level)" "llc [l2] smt auto none"
	else
		check_eq "cache_share_level: unsupported reads '[llc] l2 smt auto none'" "$(knob cache_share_level)" "[llc] l2 smt auto none"
	fi
	knob_default cache_share_auto_llc_max 8
	knob_default numa_scan_threshold 50
	knob_default numa_scan_renew 16

	knob_valid enabled 0 0
	knob_valid enabled '1\n' 1
	knob_valid enabled '0\n' 0
	knob_valid enabled 1 1
	for b in '\n:EINVAL' 'abc:EINVAL' '-1:EINVAL' '2:ERANGE' '1x:EINVAL' \
		"$U64_OVER:ERANGE" '1\n\n:EINVAL'; do
		knob_bad enabled "${b%:*}" "${b##*:}"
	done

	knob_valid ratelimit_window_ns 0 0
	knob_valid ratelimit_window_ns 1000000000 1000000000
	knob_valid ratelimit_window_ns '5000\n' 5000
	for b in '\n:EINVAL' 'abc:EINVAL' '-1:EINVAL' '1000000001:ERANGE' \
		"$U64_OVER:ERANGE" '12ms:EINVAL' '5\n\n:EINVAL'; do
		knob_bad ratelimit_window_ns "${b%:*}" "${b##*:}"
	done
	knob_valid ratelimit_window_ns 2000000 2000000

	knob_valid ratelimit_burst 1000 1000
	knob_valid ratelimit_burst '3\n' 3
	for b in '0:ERANGE' '1001:ERANGE' '\n:EINVAL' 'x:EINVAL' '-1:EINVAL' \
		"$U64_OVER:ERANGE" '1.5:EINVAL'; do
		knob_bad ratelimit_burst "${b%:*}" "${b##*:}"
	done
	knob_valid ratelimit_burst 1 1

	knob_valid ratelimit_mode adaptive adaptive
	knob_valid ratelimit_mode 'fixed\n' fixed
	for b in '\n' Adaptive adapt 1 '[fixed]' 'fixed ' 'adaptive\n\n'; do
		knob_bad ratelimit_mode "$b" EINVAL
	done
	for k in ratelimit_quota ratelimit_quota_replenish; do
		knob_valid "$k" 1000 1000
		knob_valid "$k" '1\n' 1
		for b in '0:ERANGE' '1001:ERANGE' '\n:EINVAL' 'x:EINVAL' '-1:EINVAL' \
			"$U64_OVER:ERANGE"; do
			knob_bad "$k" "${b%:*}" "${b##*:}"
		done
	done
	knob_valid ratelimit_quota 10 10

	knob_valid cache_share_level llc llc
	knob_valid cache_share_level 'smt\n' smt
	knob_valid cache_share_level auto auto
	if supported cache_level; then
		check_eq "cache_share_level: reads 'llc l2 smt [auto] none' after auto" "$(knob cache_share_level)" "llc l2 smt [auto] none"
	fi
	knob_valid cache_share_level 'none\n' none
	if supported cache_level; then
		check_eq "cache_share_level: reads 'llc l2 smt auto [none]' after none" "$(knob cache_share_level)" "llc l2 smt auto [none]"
	fi
	for b in '\n' foo l3 llc2 1 '[l2]' 'l2 ' 'smt\n\n' None 'none ' nonex; do
		knob_bad cache_share_level "$b" EINVAL
	done
	knob_valid cache_share_level l2 l2
	supported cache_level || knob_valid cache_share_level llc llc

	knob_valid cache_share_auto_llc_max 1 1
	knob_valid cache_share_auto_llc_max 4096 4096
	knob_valid cache_share_auto_llc_max '16\n' 16
	for b in '0:ERANGE' '4097:ERANGE' '\n:EINVAL' 'abc:EINVAL' '-8:EINVAL' \
		"$U64_OVER:ERANGE"; do
		knob_bad cache_share_auto_llc_max "${b%:*}" "${b##*:}"
	done
	knob_valid cache_share_auto_llc_max 8 8

	knob_valid numa_scan_threshold 0 0
	knob_valid numa_scan_threshold 100 100
	knob_valid numa_scan_threshold '75\n' 75
	for b in '101:ERANGE' '\n:EINVAL' 'abc:EINVAL' '-1:EINVAL' \
		"$U64_OVER:ERANGE" '50%:EINVAL'; do
		knob_bad numa_scan_threshold "${b%:*}" "${b##*:}"
	done
	knob_valid numa_scan_threshold 50 50
	supported numa_scan || knob_valid numa_scan_threshold 0 0

	knob_valid numa_scan_renew 0 0
	knob_valid numa_scan_renew 1024 1024
	knob_valid numa_scan_renew '32\n' 32
	for b in '1025:ERANGE' '\n:EINVAL' 'abc:EINVAL' '-1:EINVAL' \
		"$U64_OVER:ERANGE" '1e3:EINVAL'; do
		knob_bad numa_scan_renew "${b%:*}" "${b##*:}"
	done
	knob_valid numa_scan_renew 16 16

	# read-only files: root's write must still fail
	for f in $(for g in $FEATURES; do printf 'features/%s/state features/%s/reason features/%s/functions ' "$g" "$g" "$g"; done) $(stat_files); do
		check_read_only "$f"
	done
	st_unload
}

# --- stats/reset ------------------------------------------------------------------
t_stats_reset() {
	group "stats/reset"
	st_load || { ktap_fail "stats: insmod"; return 1; }
	hb 100
	c=$(stat_get ratelimit_checked)
	diag "after a short workload: checked=$c kept_prev_cpu=$(stat_get ratelimit_kept_prev_cpu) stamped=$(stat_get ratelimit_migrations_stamped)"
	check "stats: ratelimit_checked counted the workload" test "${c:-0}" -gt 0
	# enabled=0 removes the hooks, so the counters hold still and "zeroed"
	# can be checked exactly.
	wr enabled 0 >/dev/null
	check_eq "stats: write 1 to stats/reset" "$(wr stats/reset 1)" OK
	for f in $(stat_files); do
		check_eq "stats: $f is 0 after reset" "$(cat "$ST/$f")" 0
	done
	wr enabled 1 >/dev/null
	hb 50
	check "stats: counting resumes after reset" test "$(stat_get ratelimit_checked)" -gt 0
	wr enabled 0 >/dev/null
	check_eq "stats: reset accepts '1\\n'" "$(wr stats/reset '1\n')" OK
	check_eq "stats: ratelimit_checked 0 after '1\\n' reset" "$(stat_get ratelimit_checked)" 0
	for b in 0:ERANGE 2:ERANGE abc:EINVAL '\n:EINVAL'; do
		check_eq "stats: reset rejects '${b%:*}' with ${b##*:}" "$(wr stats/reset "${b%:*}")" "${b##*:}"
	done
	st_unload
}

# --- module parameters -----------------------------------------------------------
t_params() {
	group "module parameters"
	if check "params: insmod ratelimit_window_ns=0 ratelimit_burst=3 cache_share_level=smt" \
		st_load ratelimit_window_ns=0 ratelimit_burst=3 cache_share_level=smt; then
		check_eq "params: ratelimit_window_ns=0 read back" "$(knob ratelimit_window_ns)" 0
		check_eq "params: ratelimit_burst=3 read back" "$(knob ratelimit_burst)" 3
		check_eq "params: cache_share_level=smt read back" "$(knob_choice cache_share_level)" smt
		check "params: window 0 leaves select_task_rq_fair unhooked" not hooked select_task_rq_fair
		check "params: enabled_functions matches features" hooks_match_features
		st_unload
	fi
	# non-stock values only for features this kernel supports
	set -- enabled=0 numa_scan_threshold=0 ratelimit_window_ns=1000000000
	supported cache_level && set -- "$@" cache_share_auto_llc_max=64
	supported numa_scan && set -- "$@" numa_scan_renew=100
	if check "params: insmod $*" st_load "$@"; then
		for p in "$@"; do
			check_eq "params: $p read back" "$(knob "${p%%=*}")" "${p#*=}"
		done
		check "params: enabled=0 leaves nothing hooked" not ours_in_ftrace
		st_unload
	fi
	unsup=
	supported numa_scan || unsup="numa_scan_threshold=50 numa_scan_renew=100"
	supported cache_level || unsup="$unsup cache_share_level=smt cache_share_auto_llc_max=64"
	# Over the 31 bytes a parameter keeps: 5000 in full, 0 if cut short.
	long="ratelimit_window_ns=00000000000000000000000000000000005000 cache_share_level=l2$(printf '%040d' 0)"
	for p in $unsup ratelimit_burst=0 ratelimit_window_ns=abc cache_share_level=foo \
		ratelimit_window_ns=1000000001 numa_scan_threshold=101 enabled=2 \
		cache_share_auto_llc_max=0 numa_scan_renew=-1 ratelimit_burst=1001 \
		cache_share_auto_llc_max=4097 numa_scan_renew=1025 $long; do
		name=${p%%=*}
		dmesg_mark
		case " $unsup " in *" $p "*) p_why=" (feature unsupported here)" ;; *) p_why= ;; esac
		if st_load "$p" 2>/dev/null; then
			ktap_fail "params: insmod $p fails$p_why"
			st_unload
			continue
		fi
		ktap_ok "params: insmod $p fails$p_why"
		check "params: $p left no module and no sysfs dir" sh -c '! grep -q "^sched_tune " /proc/modules && [ ! -e /sys/kernel/sched_tune ]'
		n=$(dmesg_new | grep -c "$name")
		if [ "$n" = 1 ]; then
			ktap_ok "params: $p: one dmesg line names $name"
		else
			ktap_fail "params: $p: one dmesg line names $name (got $n)"
		fi
		dmesg_new | grep -v 'taints kernel\|verification failed' | sed 's/^/#   dmesg: /'
	done

	# sysfs-kernel-sched_tune: unknown names are the kernel's
	# business, which loads the module anyway and says so once
	dmesg_mark
	if check "params: insmod with an unknown parameter no_such_knob=1 loads" st_load no_such_knob=1; then
		check_eq "params: one dmesg line: unknown parameter 'no_such_knob' ignored" \
			"$(dmesg_new | grep -c "unknown parameter 'no_such_knob' ignored")" 1
		check_eq "params: no other line names it" "$(dmesg_new | grep -c no_such_knob)" 1
		check_eq "params: ratelimit as without it ($F_ratelimit)" "$(feature_state ratelimit)" "$F_ratelimit"
		st_unload
	fi
}

# --- enabled switch -------------------------------------------------------------
t_enabled() {
	group "enabled switch"
	st_load || { ktap_fail "enabled: insmod"; return 1; }
	wr ratelimit_window_ns 5000 >/dev/null
	wr ratelimit_burst 2 >/dev/null
	supported cache_level && wr cache_share_level smt >/dev/null
	lvl=$(knob_choice cache_share_level) thr=$(knob numa_scan_threshold)
	check "enabled=1: select_task_rq_fair hooked" hooked select_task_rq_fair
	check "enabled=1: migrate_task_rq_fair hooked" hooked migrate_task_rq_fair
	check_eq "enabled=1: features says ratelimit active" "$(feature_state ratelimit)" active
	check "enabled=1: enabled_functions matches features" hooks_match_features
	check_eq "enabled: write 0" "$(wr enabled 0)" OK
	check "enabled=0: select_task_rq_fair not hooked" not hooked select_task_rq_fair
	check "enabled=0: nothing of ours in enabled_functions" not ours_in_ftrace
	check_eq "enabled=0: features says ratelimit inactive" "$(feature_state ratelimit)" inactive
	check "enabled=0: no feature active or idle" not grep -qE '^(active|idle)$' "$ST"/features/*/state
	for f in $FEATURES; do diag "  enabled=0: $f $(feature_state "$f"): $(feature_reason "$f")"; done
	check_eq "enabled=0: window kept" "$(knob ratelimit_window_ns)" 5000
	check_eq "enabled=0: burst kept" "$(knob ratelimit_burst)" 2
	check_eq "enabled=0: cache_share_level kept" "$(knob_choice cache_share_level)" "$lvl"
	check_eq "enabled=0: numa_scan_threshold kept" "$(knob numa_scan_threshold)" "$thr"
	check_eq "enabled=0: knob writes still accepted" "$(wr ratelimit_window_ns 7000)" OK
	check "enabled=0: a knob write installs no hook" not ours_in_ftrace
	check_eq "enabled: write 1" "$(wr enabled 1)" OK
	check "enabled=1 again: select_task_rq_fair hooked" hooked select_task_rq_fair
	check "enabled=1 again: migrate_task_rq_fair hooked" hooked migrate_task_rq_fair
	check_eq "enabled=1 again: features says ratelimit active" "$(feature_state ratelimit)" active
	check "enabled=1 again: enabled_functions matches features" hooks_match_features
	check_eq "enabled=1 again: window kept" "$(knob ratelimit_window_ns)" 7000
	check_eq "enabled=1 again: burst kept" "$(knob ratelimit_burst)" 2
	check_eq "enabled=1 again: cache_share_level kept" "$(knob_choice cache_share_level)" "$lvl"
	wr ratelimit_window_ns 0 >/dev/null
	check "window=0: select_task_rq_fair not hooked" not hooked select_task_rq_fair
	check "window=0: migrate_task_rq_fair not hooked" not hooked migrate_task_rq_fair
	check "window=0: enabled_functions matches features" hooks_match_features
	diag "  window=0: ratelimit $(feature_state ratelimit): $(feature_reason ratelimit)"
	wr ratelimit_window_ns 2000000 >/dev/null
	check "window back to 2 ms: select_task_rq_fair hooked" hooked select_task_rq_fair
	# stock values of the other features take their hooks away too
	wr cache_share_level llc >/dev/null
	wr numa_scan_threshold 0 >/dev/null
	check "cache llc + numa 0: enabled_functions matches features" hooks_match_features
	check "cache llc + numa 0: ttwu_queue_wakelist and task_numa_work not hooked" \
		not grep -qE '^(ttwu_queue_wakelist|task_numa_work) ' "$TR/enabled_functions"
	st_unload
}

# --- sysctl kernel.ftrace_enabled=0 silences every hook -------------------------
t_ftrace_sysctl() {
	group "kernel.ftrace_enabled=0 while hooked"
	dmesg_mark
	st_load || { ktap_fail "ftrace sysctl: insmod"; return 1; }
	# every feature with its hooks in (active, or idle on its own account)
	fs_hooked=
	for f in $FEATURES; do
		s=$(feature_state "$f")
		case $s in active | idle) fs_hooked="$fs_hooked $f" ;; esac
		eval "fs_was_$f=\$s"
	done
	# 7.x refuses the sysctl while a permanent ftrace user is in; either
	# way, features/ must tell what the hooks see
	r=$(echo 0 2>&1 >/proc/sys/kernel/ftrace_enabled && echo OK)
	diag "  ftrace_enabled=0: ${r:-refused}, reads $(cat /proc/sys/kernel/ftrace_enabled)"
	wr stats/reset 1 >/dev/null
	hb 100
	c=$(stat_get ratelimit_checked) q=$(stat_get ttwu_checked)
	if [ "$(cat /proc/sys/kernel/ftrace_enabled)" = 0 ]; then
		for f in $fs_hooked; do
			check_eq "ftrace_enabled=0: $f says idle" "$(feature_state "$f")" idle
			diag "  $f: $(feature_reason "$f")"
			check "ftrace_enabled=0: $f's reason names the sysctl" grep -q ftrace_enabled "$ST/features/$f/reason"
		done
		check_eq "ftrace_enabled=0: no wakeup reaches the rate limit" "$c" 0
		case " $fs_hooked " in *" cache_level "*)
			check_eq "ftrace_enabled=0: no wakeup reaches the cache level (ttwu_checked)" "$q" 0 ;;
		esac
	else
		for f in $fs_hooked; do
			eval "was=\$fs_was_$f"
			check_eq "ftrace_enabled stays 1: $f as before ($was)" "$(feature_state "$f")" "$was"
		done
		check "ftrace_enabled stays 1: wakeups reach the rate limit ($c)" test "${c:-0}" -gt 0
	fi
	echo 1 >/proc/sys/kernel/ftrace_enabled
	for f in $fs_hooked; do
		eval "was=\$fs_was_$f"
		check_eq "ftrace_enabled=1: $f as before ($was)" "$(feature_state "$f")" "$was"
	done
	hb 100
	c=$(stat_get ratelimit_checked)
	check "ftrace_enabled=1: wakeups reach the rate limit ($c)" test "${c:-0}" -gt 0
	check "ftrace sysctl: rmmod" st_unload
}

# --- the support gate refusing a kernel it was not checked on ------------------
# gate_simulate=<feature>=<series> makes the gate see an unchecked series
# for one feature, <feature>=shape a kernel function with another
# prototype in BTF: that feature refuses with its reason, the others work.
t_gate_refusal() {
	group "support gate: refusal of an unchecked kernel"
	dmesg_mark
	gmark=$ST_DMARK
	for sim in 6.13 shape; do
	for gf in $FEATURES; do
		supported "$gf" || continue
		dmesg_mark
		if ! check "gate: insmod gate_simulate=$gf=$sim" st_load "gate_simulate=$gf=$sim"; then
			continue
		fi
		check_eq "gate: $gf unsupported on a simulated $sim" "$(feature_state "$gf")" unsupported
		diag "  $gf: $(feature_reason "$gf")"
		if [ "$sim" = shape ]; then
			check "gate: $gf's reason names the function and both prototypes" \
				grep -q '^[a-z_]* is ".*(simulated by gate_simulate)" here, the copy expects ".*"$' "$ST/features/$gf/reason"
		else
			check "gate: $gf's reason names the kernel and the series checked" \
				sh -c "grep -q '6.13.*$(uname -r).*checked against' $ST/features/$gf/reason"
		fi
		check_eq "gate: one dmesg line says $gf is unsupported" \
			"$(dmesg_new | grep -c "feature $gf unsupported on this kernel")" 1
		for o in $FEATURES; do
			[ "$o" = "$gf" ] && continue
			eval "want=\$F_$o"
			check_eq "gate: $o beside it as without simulation ($want)" "$(feature_state "$o")" "$want"
		done
		check "gate: enabled_functions matches features" hooks_match_features
		case $gf in
		ratelimit) k=ratelimit_window_ns v=1000 ;;
		cache_level) k=cache_share_level v=smt ;;
		numa_scan) k=numa_scan_threshold v=20 ;;
		eevdf) k=eevdf_counters v=1 ;;
		esac
		check_eq "gate: $k=$v on refused $gf fails with EOPNOTSUPP" "$(wr "$k" "$v")" EOPNOTSUPP
		st_unload
	done
	done
	gate_unchecked
	gate_config
	ST_DMARK=$gmark
}

# A config fact of gate_checked.h (ST_GATE_CONFIG) that does not hold:
# gate_simulate=<feature>=config:OPTION makes the gate see the other
# value.  cache_level's SCHED_CLASS_EXT is a fact on every series.
gate_config() {
	supported cache_level || return 0
	sim=cache_level=config:SCHED_CLASS_EXT
	if check "gate: insmod gate_simulate=$sim" st_load "gate_simulate=$sim"; then
		check_eq "gate: cache_level unsupported when built with the other CONFIG_SCHED_CLASS_EXT" \
			"$(feature_state cache_level)" unsupported
		diag "  cache_level: $(feature_reason cache_level)"
		check "gate: cache_level's reason names CONFIG_SCHED_CLASS_EXT, the series and allow_unchecked" \
			grep -q "^kernel $(uname -r) is built with CONFIG_SCHED_CLASS_EXT=[yn] (simulated by gate_simulate), and this feature's [0-9.]* copy was compared with Debian's =[yn] only: load with allow_unchecked=1 to run it anyway\$" \
			"$ST/features/cache_level/reason"
		check_eq "gate: ratelimit beside it as without simulation" "$(feature_state ratelimit)" "$F_ratelimit"
		st_unload
	fi
	if check "gate: insmod allow_unchecked=1 gate_simulate=$sim" st_load allow_unchecked=1 "gate_simulate=$sim"; then
		check_eq "gate: allow_unchecked=1: cache_level runs unchecked on the other config" \
			"$(feature_state cache_level)" "$F_cache_level (unchecked)"
		check "gate: cache_level's reason says unchecked and names the option" \
			grep -q "^unchecked: kernel $(uname -r) is built with CONFIG_SCHED_CLASS_EXT=" "$ST/features/cache_level/reason"
		st_unload
	fi
}

# A stable sublevel or a vendor of a checked series outside what the copy
# was compared with (module/kernel/gate_checked.h): gate_simulate=
# <feature>=sublevel:999 makes the gate see 999, <feature>=vendor a kernel
# not built by Debian.  The feature refuses, naming its checked range and
# allow_unchecked; with allow_unchecked=1 it runs, marked unchecked in its
# state and reason, with one dmesg warning.  An unchecked series stays
# refused, and on a checked kernel allow_unchecked=1 changes nothing.
gate_unchecked() {
	supported ratelimit || return 0
	# "6.12.95..6.12.118" or "7.3.4", for this kernel's series
	gs=$(uname -r | cut -d. -f1,2 | sed 's/\./\\./g')
	rng="$gs\.[0-9]*\(\.\.$gs\.[0-9]*\)\{0,1\}"
	dmesg_mark
	if check "gate: insmod gate_simulate=ratelimit=sublevel:999" \
		st_load gate_simulate=ratelimit=sublevel:999; then
		check_eq "gate: ratelimit unsupported on a simulated sublevel 999" \
			"$(feature_state ratelimit)" unsupported
		diag "  ratelimit: $(feature_reason ratelimit)"
		check "gate: ratelimit's reason names the range checked and allow_unchecked" \
			grep -q "^kernel $(uname -r) is $gs\.999 (simulated by gate_simulate), newer than the $rng this feature's copy was compared with: load with allow_unchecked=1 to run it anyway\$" \
			"$ST/features/ratelimit/reason"
		check_eq "gate: one dmesg line says ratelimit is unsupported" \
			"$(dmesg_new | grep -c 'feature ratelimit unsupported on this kernel')" 1
		check "gate: refused ratelimit: select_task_rq_fair not hooked" not hooked select_task_rq_fair
		check_eq "gate: ratelimit_window_ns=1000 on refused ratelimit fails with EOPNOTSUPP" \
			"$(wr ratelimit_window_ns 1000)" EOPNOTSUPP
		st_unload
	fi

	dmesg_mark
	sim=ratelimit=sublevel:999,cache_level=vendor,numa_scan=6.13
	if check "gate: insmod allow_unchecked=1 gate_simulate=$sim" \
		st_load allow_unchecked=1 "gate_simulate=$sim"; then
		check_eq "gate: allow_unchecked=1: ratelimit on sublevel 999 runs unchecked" \
			"$(feature_state ratelimit)" "$F_ratelimit (unchecked)"
		diag "  ratelimit: $(feature_reason ratelimit)"
		check "gate: ratelimit's reason says unchecked, the range and allow_unchecked=1" \
			grep -q "^unchecked: kernel $(uname -r) is $gs\.999 (simulated by gate_simulate), newer than the $rng this feature's copy was compared with; running it anyway (allow_unchecked=1)" \
			"$ST/features/ratelimit/reason"
		check "gate: unchecked ratelimit: select_task_rq_fair hooked" hooked select_task_rq_fair
		check "gate: unchecked ratelimit: migrate_task_rq_fair hooked" hooked migrate_task_rq_fair
		check_eq "gate: unchecked ratelimit: ratelimit_window_ns=1000 applies" \
			"$(wr ratelimit_window_ns 1000)" OK
		check "gate: debugfs summary: ratelimit $F_ratelimit (unchecked)" \
			grep -q "^ratelimit $F_ratelimit (unchecked) " /sys/kernel/debug/sched_tune/features
		if supported cache_level; then
			check_eq "gate: allow_unchecked=1: cache_level on another vendor runs unchecked" \
				"$(feature_state cache_level)" "$F_cache_level (unchecked)"
			diag "  cache_level: $(feature_reason cache_level)"
			check "gate: cache_level's reason says not a Debian build, the range, allow_unchecked=1" \
				grep -q "^unchecked: kernel $(uname -r) (simulated by gate_simulate) is not a Debian build, and this feature's copy was compared with Debian's $rng only; running it anyway (allow_unchecked=1)" \
				"$ST/features/cache_level/reason"
		fi
		check_eq "gate: allow_unchecked=1: numa_scan on an unchecked series stays unsupported" \
			"$(feature_state numa_scan)" unsupported
		check "gate: numa_scan's reason: allow_unchecked=1 covers only a checked series" \
			grep -q 'allow_unchecked=1 covers only a checked series$' "$ST/features/numa_scan/reason"
		check_eq "gate: one dmesg line says ratelimit runs unchecked" \
			"$(dmesg_new | grep -c 'allow_unchecked=1: kernel .* is outside the range checked for ratelimit\(, cache_level\)\{0,1\}: running unchecked')" 1
		check "gate: that line is a warning (level 4), not an error" \
			sh -c "dmesg -r | grep 'allow_unchecked=1: kernel' | tail -n 1 | grep -q '^<4>'"
		check_eq "gate: parameters/allow_unchecked reads Y" \
			"$(cat /sys/module/sched_tune/parameters/allow_unchecked 2>/dev/null)" Y
		st_unload
		check "gate: nothing of ours in enabled_functions after rmmod" not ours_in_ftrace
	fi

	dmesg_mark
	if check "gate: insmod allow_unchecked=1 on a checked kernel" st_load allow_unchecked=1; then
		for o in $FEATURES; do
			eval "want=\$F_$o"
			check_eq "gate: allow_unchecked=1, checked kernel: $o as without it ($want)" \
				"$(feature_state "$o")" "$want"
		done
		check "gate: allow_unchecked=1, checked kernel: no reason says unchecked" \
			not grep -q '^unchecked' "$ST"/features/ratelimit/reason "$ST"/features/cache_level/reason \
			"$ST"/features/numa_scan/reason
		check_eq "gate: allow_unchecked=1, checked kernel: no dmesg line about it" \
			"$(dmesg_new | grep -c 'allow_unchecked=1: kernel')" 0
		check "gate: allow_unchecked=1, checked kernel: enabled_functions matches features" \
			hooks_match_features
		st_unload
	fi
}

# --- the rate limit taking effect ----------------------------------------------
# median FILE: the median of the numbers in FILE, one per line.
median() { sort -n "$1" | awk '{ v[NR] = $1 } END { print NR ? (NR % 2 ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2)) : 0 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b) printf "%.2f", a / b; else print "n/a" }'; }

# migrations WINDOW: one hackbench run with that window; appends its task
# migrations to /tmp/mig.WINDOW.  A failed run is a failed test.
migrations() {
	wr ratelimit_window_ns "$1" >/dev/null
	mig_begin
	t0=$(now_cs)
	if ! timeout 300 sh -c '. /st/lib.sh; hb'; then
		MIG_ERR=$((MIG_ERR + 1))
		diag "hackbench failed: $(tail -n 3 /tmp/hb.out)"
	fi
	t1=$(now_cs)
	m=$(mig_end)
	diag "window $1 ns: $m migrations in $(secs "$t0" "$t1") s"
	echo "$m" >>"/tmp/mig.$1"
}

# wm_window WINDOW: lib.sh wakemig's counts of WM_ROUNDS with that
# window; its diagnostics, with the hook's counts, go to /tmp/wm.diag.
WM_ROUNDS=$(st_arg wakemig_rounds 200)
wm_window() {
	wr ratelimit_window_ns "$1" >/dev/null
	c0=$(stat_get ratelimit_checked) k0=$(stat_get ratelimit_kept_prev_cpu)
	s0=$(stat_get ratelimit_migrations_stamped)
	o0=$(stat_get ratelimit_window_over) a0=$(stat_get ratelimit_not_affine)
	if ! wakemig /tmp/wm.out "$WM_ROUNDS" "$1"; then
		diag "st_wakemig failed: $(cat /tmp/wm.out)" >>/tmp/wm.diag
		echo "$WM"
		return
	fi
	# to tell, when the count is off, the hook that kept no wakeup from
	# the wakeup that was kept and moved anyway
	diag "window $1 ns: $(tr '\n' ' ' </tmp/wm.out); the hook checked $(($(stat_get ratelimit_checked) - c0)) wakeups, kept $(($(stat_get ratelimit_kept_prev_cpu) - k0)) on prev, let $(($(stat_get ratelimit_window_over) - o0)) go past the window by the clock and $(($(stat_get ratelimit_not_affine) - a0)) not affine, stamped $(($(stat_get ratelimit_migrations_stamped) - s0)) migrations" >>/tmp/wm.diag
	echo "$WM"
}

# wm_window_1s: st_wakemig with a 1 s window, into w1 o1 (as wm_window),
# r1 (rounds woken inside the window, affine) and k1 (their migrations):
# a round woken 1 s or more after its move may have outlived its stamp,
# and the patch leaves a wakeup that is not affine to stock (wake_wide()
# counts the tasks an interrupt wakes while the pair runs): only the
# others are the window's to keep.
wm_window_1s() {
	read -r w1 o1 l1 lm1 a1 am1 <<-EOF
	$(wm_window 1000000000)
	EOF
	r1=$((WM_ROUNDS - l1 - a1)) k1=$((w1 - lm1 - am1))
	diag "window 1 s: $l1 rounds woken 1 s or more after their move ($lm1 of them migrated) and $a1 others not affine ($am1 migrated), not counted" >>/tmp/wm.diag
}
# isqrt N: the integer square root of N (Newton's method; busybox's awk
# has no sqrt)
isqrt() {
	x=$1 y=$((($1 + 1) / 2))
	while [ "$y" -lt "$x" ]; do x=$y y=$(((x + $1 / x) / 2)); done
	echo "$x"
}
# wilson K N: the rate K/N and its 95% Wilson score interval, each in
# tenths of a percent, as "RATE LOW HIGH": (2k + z^2 -+ z sqrt(z^2 +
# 4k(n - k)/n)) / 2(n + z^2), z = 1.96, in integers scaled by 10^6
wilson() {
	[ "$2" -gt 0 ] || { echo "1000 0 1000"; return; }
	s=$(isqrt $(((38416 + 40000 * $1 * ($2 - $1) / $2) * 10000)))
	den=$((2 * $2 * 1000000 + 38416 * 200))
	echo "$(($1 * 1000 / $2)) $(((2 * $1 * 1000000 + 3841600 - 196 * s) * 1000 / den))" \
		"$(((2 * $1 * 1000000 + 3841600 + 196 * s) * 1000 / den))"
}
# permille X: X tenths of a percent as "X.Y"
permille() { echo "$(($1 / 10)).$(($1 % 10))"; }
# The rate at which wakeups inside the window escape it, bounded with its
# interval: the upper end of the 95% interval under 10% (of 200 rounds, at
# most 11 escape), and at least half the rounds inside the window.  One
# run, no second chance: the hook's counts (/tmp/wm.diag) say whether an
# escaped wakeup was judged by the hook and left to stock.
wm_kept() {
	read -r rate lo hi <<-EOF
	$(wilson "$k1" "$r1")
	EOF
	diag "window 1 s: $k1 of $r1 affine wakeups inside the window migrated: $(permille "$rate")% [95% Wilson $(permille "$lo"), $(permille "$hi")%]"
	test "$w1" -ge 0 -a "$r1" -ge $((WM_ROUNDS / 2)) -a "${hi:-1000}" -lt 100
}

# The assertion counts what the window decides, and only that: wakeups
# that stock always turns into migrations (the previous CPU busy, others
# idle), counted by the scheduler's own nr_wakeups_migrate, so the load
# balancer's migrations, which no window touches and which vary a lot
# under TCG, are not in it.  hackbench, the seed's workload, alternates
# window 0 and 1 s and prints its migration figures beside it.
t_ratelimit_effect() {
	group "rate limit effect"
	scaled_note "ratelimit: hackbench loops per run" 8000 "$HB_LOOPS"
	MIG_REPS=$(st_arg mig_reps 3)
	MIG_ERR=0
	# the other features at stock, so only the rate limit differs
	st_load cache_share_level=llc numa_scan_threshold=0 || { ktap_fail "ratelimit: insmod"; return 1; }
	schedstats=$(cat /proc/sys/kernel/sched_schedstats)
	echo 1 >/proc/sys/kernel/sched_schedstats
	diag "st_wakemig: waker on cpu0, wakee stamped by a move cpu3 -> cpu2, a spinner on cpu2, $WM_ROUNDS sync wakeups per window"
	rm -f /tmp/wm.diag
	read -r w0 o0 _ _ _ _ <<-EOF
	$(wm_window 0)
	EOF
	wm_window_1s
	echo "$schedstats" >/proc/sys/kernel/sched_schedstats
	cat /tmp/wm.diag
	diag "window 0: $w0 wakeup migrations, $o0 wakeups off the busy cpu; window 1 s: $w1 and $o1 (of $WM_ROUNDS)"
	check "ratelimit: stock migrates most wakeups off a busy previous cpu (window 0)" \
		test "$w0" -ge $((WM_ROUNDS / 2))
	check "ratelimit: a task stamped less than 1 s ago stays at wakeup (95% upper bound of the escape rate under 10%)" \
		wm_kept

	diag "hackbench -g $HB_GROUPS -f 10 --threads --pipe -l $HB_LOOPS -s 100, $MIG_REPS runs per window, $(nproc) vCPUs, qemu TCG"
	mig_setup
	rm -f /tmp/mig.*
	kept=0 wide=0
	for _ in $(seq "$MIG_REPS"); do
		migrations 0
		k0=$(stat_get ratelimit_kept_prev_cpu) a0=$(stat_get ratelimit_not_affine)
		migrations 1000000000
		k1=$(stat_get ratelimit_kept_prev_cpu) a1=$(stat_get ratelimit_not_affine)
		kept=$((kept + k1 - k0)) wide=$((wide + a1 - a0))
	done
	o0=$(stat_get ratelimit_window_over)
	migrations 2000000
	over=$(($(stat_get ratelimit_window_over) - o0))
	migrations 100000000
	check_eq "ratelimit: every hackbench run completed" "$MIG_ERR" 0
	diag "under hackbench, window 1 s: ratelimit_kept_prev_cpu +$kept, ratelimit_not_affine +$wide; window 2 ms: ratelimit_window_over +$over"
	check "ratelimit: ratelimit_kept_prev_cpu grew under hackbench with window 1 s" test "$kept" -gt 0
	# ten senders each waking ten receivers: wake_wide() says fan-out
	check "ratelimit: ratelimit_not_affine grew under hackbench with window 1 s (wake_wide)" test "$wide" -gt 0
	# a stamp is live by the jiffies for one or two ticks past its
	# window: a 2 ms window lets the clock judge wakeups after it
	check "ratelimit: ratelimit_window_over grew under hackbench with window 2 ms" test "$over" -gt 0
	m0=$(median /tmp/mig.0) m1=$(median /tmp/mig.1000000000)
	diag "hackbench migrations per run (all, load balancer included), window 0: $(tr '\n' ' ' </tmp/mig.0)(median $m0); window 1 s: $(tr '\n' ' ' </tmp/mig.1000000000)(median $m1)"
	# Reported, never asserted: qemu TCG figures, not hardware ones.
	diag "ratio window 0 / window 1000000000 ns: $(ratio "$m0" "$m1") (medians) [qemu TCG, $(nproc) vCPUs, not hardware]"
	for w in 2000000 100000000; do
		diag "ratio window 0 / window $w ns: $(ratio "$m0" "$(cat "/tmp/mig.$w")") (median vs one run) [qemu TCG, $(nproc) vCPUs, not hardware]"
	done
	mig_teardown
	st_unload
}

# --- stress: knob toggling under load (load/unload cycles: soak.sh) ------------------

# Half the writes install or remove hooks (slow under TCG): 80 writes are
# 40 installs and removals, beside the soak's 100 load/unload cycles.
TG_N=$(st_arg toggle_n "$(($(scaled 80 20) / 4 * 4))")
t_toggle_stress() {
	group "knob toggling x$TG_N under load"
	scaled_note "toggle: knob writes" 80 "$TG_N"
	dmesg_mark
	st_load || { ktap_fail "toggle: insmod"; return 1; }
	bg_start 100
	bad=0
	for i in $(seq "$TG_N"); do
		case $((i % 4)) in
		0) r=$(wr enabled 0) ;; 1) r=$(wr enabled 1) ;;
		2) r=$(wr ratelimit_window_ns 0) ;; 3) r=$(wr ratelimit_window_ns $((i * 10000))) ;;
		esac
		[ "$r" = OK ] || bad=$((bad + 1))
	done
	wr enabled 1 >/dev/null
	wr ratelimit_window_ns 2000000 >/dev/null
	bg_stop
	check_eq "toggle: writes to enabled/ratelimit_window_ns under workload succeed ($TG_N)" "$bad" 0
	c=$(stat_get ratelimit_checked) k=$(stat_get ratelimit_kept_prev_cpu)
	s=$(stat_get ratelimit_migrations_stamped) l=$(stat_get ratelimit_stamps_lost)
	diag "toggle: checked $c, kept $k, stamped $s, lost $l"
	check "toggle: counters sane (kept <= checked, some stamped, lost <= stamped)" \
		test "${c:-0}" -gt 0 -a "${k:-1}" -le "${c:-0}" -a "${s:-0}" -gt 0 -a "${l:-1}" -le "${s:-0}"
	check "toggle: workload completed every run ($(bg_runs) runs)" test ! -s /tmp/bg.fail
	check "toggle: hooks back after toggling" hooked select_task_rq_fair
	st_unload
	check "toggle: nothing of ours left after rmmod" not ours_in_ftrace
}

# Every unit this boot runs, in order; st_only=a,b picks some.
ALL_UNITS="load_unload hang_guard knobs stats_reset params modprobe enabled ftrace_sysctl gate_refusal
	gate_strict gate_sizes ksym_missing btf_refusal all_unsupported param_livepatch unload_clean
	ratelimit_effect ratelimit_adaptive ratelimit_reconfig ratelimit_slots toggle_stress cache_topology cache_effect cache_none cache_bad_input
	cache_stress cache_hotplug numa_scan scx knob_fuzz hotplug_all tracers livepatch soak ipmodify_conflict
	eevdf_counters eevdf_slice eevdf_groups eevdf_restore prev_bias sync_short trace_events scope unhook_exit unhook_pinned"
t_whole_run() {
	group "whole run"
	ST_DMARK=$ST_BOOTMARK
	check_no_splat "whole run: no splat in dmesg since the first test"
}

only=$(st_arg only "")
# st_skip=UNIT,...: units another boot of this run covers on the same
# code (run.sh says which); each stays in the plan as a recorded skip
skip=$(st_arg skip "")
units=
# a name that is no unit fails first, by name
ST_UNKNOWN_UNITS=$(plan_unknown "$ALL_UNITS" "$only,$skip")
if [ -n "$ST_UNKNOWN_UNITS" ]; then
	t_unknown_units() {
		group "unit names"
		ktap_fail "st_only and st_skip name units of this boot (unknown: $ST_UNKNOWN_UNITS)"
	}
	units=unknown_units
fi
for t in $ALL_UNITS; do
	if [ -n "$only" ] && ! echo ",$only," | grep -q ",$t,"; then continue; fi
	if echo ",$skip," | grep -q ",$t,"; then
		eval "t_$t() { group $t; ktap_skip '$t' 'st_skip: another boot of this run covers it on the same code'; }"
	fi
	units="$units $t"
done
diag "vCPUs: $(nproc); L2 shared: $(cat /sys/devices/system/cpu/cpu0/cache/index2/shared_cpu_list 2>/dev/null); LLC shared: $(cat /sys/devices/system/cpu/cpu0/cache/index3/shared_cpu_list 2>/dev/null)"
dmesg_mark
ST_BOOTMARK=$ST_DMARK
feat_probe
# shellcheck disable=SC2086 # a list of unit names
units_run $units whole_run
