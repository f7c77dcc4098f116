# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# The eevdf feature (seed 001), sourced by tests.sh after lib.sh: the tick
# counters count, the slice policy cuts tick preemptions and every slice
# it set is restored.  Counts, not timings: the reference for "ticks" is
# the guest's own local timer interrupts on the hogs' CPU (/proc/interrupts
# LOC), so the bounds hold at any HZ and any pace of the emulated CPU.

EV_CPU=1
EV_SECS=$(st_arg eevdf_secs 4)

# ev_loc CPU: local timer interrupts of CPU so far; ev_loc_all: of every CPU.
ev_loc() { awk -v c=$(($1 + 2)) '$1 == "LOC:" { print $c }' /proc/interrupts; }
ev_loc_all() { awk '$1 == "LOC:" { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i; print s }' /proc/interrupts; }

# EEVDF kernels (6.6+) count check_deadline & co., 6.1 counts CFS's tick.
ev_is_eevdf() {
	case $(uname -r) in 6.1.* | 6.[0-5].*) return 1 ;; esac
	return 0
}
# The slice policy runs where gate_checked.h checked it: 6.12 and 7.3.
ev_slice_checked() { case $(uname -r) in 6.12.* | 7.3.*) return 0 ;; esac; return 1; }
# 7.3 keeps tasks only in one tree per CPU: no group entity has a slice.
ev_group_slices() { case $(uname -r) in 7.*) return 1 ;; esac; return 0; }

# ev_hogs N: N CPU hogs pinned on EV_CPU; their pids in EV_PIDS.
ev_hogs() {
	EV_PIDS=
	for _ in $(seq "$1"); do
		taskset -c "$EV_CPU" sh -c 'while :; do :; done' &
		EV_PIDS="$EV_PIDS $!"
	done
}
# ev_hogs_stop: ends the hogs of EV_PIDS and of EV_BG (ev_cg_hog's and
# ev_sid_hog's, whether or not they wrote their pid yet)
ev_hogs_stop() {
	# shellcheck disable=SC2086 # a list of pids
	kill -CONT $EV_PIDS $EV_BG 2>/dev/null
	# shellcheck disable=SC2086
	kill $EV_PIDS $EV_BG 2>/dev/null
	for p in $EV_PIDS $EV_BG; do wait "$p" 2>/dev/null; done
	EV_PIDS='' EV_BG=''
}

# ev_window: resets the counters, lets the hogs run EV_SECS, then sets
# EV_LOC (ticks on EV_CPU), EV_LOC_ALL and EV_<counter> for every counter.
ev_window() {
	wr stats/reset 1 >/dev/null
	l0=$(ev_loc "$EV_CPU") a0=$(ev_loc_all)
	sleep "$EV_SECS"
	# the hogs still run: each counter is read after the ones it bounds
	# (a tick counts check, then update, then preempt), so that
	# preempt <= update <= check holds across the reads
	EV_PL=$(stat_get preempt_deadline_lazy) EV_PD=$(stat_get preempt_deadline)
	EV_UD=$(stat_get update_deadline) EV_CD=$(stat_get check_deadline)
	EV_TP=$(stat_get tick_preempts) EV_TC=$(stat_get tick_check_preempts)
	l1=$(ev_loc "$EV_CPU") a1=$(ev_loc_all)
	EV_LOC=$((l1 - l0)) EV_LOC_ALL=$((a1 - a0))
	diag "eevdf $1: ${EV_SECS}s, ticks cpu$EV_CPU $EV_LOC (all CPUs $EV_LOC_ALL): check_deadline $EV_CD update_deadline $EV_UD preempt_deadline $EV_PD (lazy $EV_PL) tick_check_preempts $EV_TC tick_preempts $EV_TP"
}

# ev_in_range DESC VALUE LO HI
ev_in_range() {
	if [ "$2" -ge "$3" ] && [ "$2" -le "$4" ]; then ktap_ok "$1"
	else ktap_fail "$1"; diag "  $2 not in [$3, $4]"; fi
}

t_eevdf_counters() {
	group "eevdf: tick counters with two CPU hogs on cpu$EV_CPU"
	if [ "$(nproc)" -lt 2 ]; then
		ktap_skip "eevdf counters" "needs 2 CPUs"
		return
	fi
	dmesg_mark
	st_load || { ktap_fail "eevdf: insmod"; return 1; }
	check_eq "eevdf: inactive with the defaults" "$(feature_state eevdf)" inactive
	check "eevdf: task_tick_fair not hooked with the defaults" not hooked task_tick_fair
	check_eq "eevdf: eevdf_counters=1 accepted" "$(wr eevdf_counters 1)" OK
	check_eq "eevdf: active once counting" "$(feature_state eevdf)" active
	check "eevdf: task_tick_fair hooked (enabled_functions)" hooked task_tick_fair
	check_eq "eevdf: features/eevdf/functions" "$(cat "$ST/features/eevdf/functions")" "task_tick_fair:ftrace-wrap"
	ev_hogs 2
	ev_window "stock, 2 hogs"
	# every tick of the busy CPU finds a hog running: a tick each, give
	# or take the 10% a tick that lands on the shell or a kworker takes;
	# other CPUs may add fair ticks (the shell), never more than theirs
	lo=$((EV_LOC * 9 / 10)) hi=$((EV_LOC_ALL + 10))
	if ev_is_eevdf; then
		ev_in_range "eevdf: check_deadline within [0.9 x cpu$EV_CPU ticks, all ticks]" "$EV_CD" "$lo" "$hi"
		ev_in_range "eevdf: update_deadline <= check_deadline" "$EV_UD" 1 "$EV_CD"
		ev_in_range "eevdf: preempt_deadline <= update_deadline" "$EV_PD" 1 "$EV_UD"
		# base_slice_ns (0.75 ms x (1 + log2 CPUs)) is below a 4 ms tick:
		# a request is used up at every tick, and each one preempts
		ev_in_range "eevdf: at the base slice, preempt_deadline >= half of cpu$EV_CPU ticks" \
			"$EV_PD" $((EV_LOC / 2)) "$hi"
		check_eq "eevdf: CFS counters stay 0 on EEVDF" "$EV_TC $EV_TP" "0 0"
		EV_STOCK_PD=$EV_PD EV_STOCK_LOC=$EV_LOC
	else
		ev_in_range "eevdf: tick_check_preempts within [0.9 x cpu$EV_CPU ticks, all ticks]" "$EV_TC" "$lo" "$hi"
		# CFS: a hog's ideal runtime is sched_latency / 2 (9 ms at 4
		# CPUs), two or three ticks (4 ms, up to 6 ms in a loaded TCG)
		ev_in_range "eevdf: tick_preempts in [1, tick_check_preempts x 2/3]" "$EV_TP" 1 $((EV_TC * 2 / 3))
		check_eq "eevdf: EEVDF counters stay 0 on CFS" "$EV_CD $EV_UD $EV_PD" "0 0 0"
	fi
	ev_hogs_stop
	if ev_is_eevdf && ev_slice_checked; then
		ev_hogs 2
		check_eq "eevdf: eevdf_slice=fixed (12 ms) accepted" "$(wr eevdf_slice fixed)" OK
		# shellcheck disable=SC2086 # two pids
		ev_switch_window "fixed 12 ms, 2 hogs" $EV_PIDS
		# a preemption once a whole 12 ms request is used up; per tick
		# that is 12 ms / the tick fewer than stock's one a tick, which
		# a TCG guest's 3-15 ms ticks bring down to 1.5x
		ev_in_range "eevdf: fixed 12 ms: preempt_deadline at most 1.25 per 12 ms of the hogs' run time" \
			$((EV_PD * 12000000)) 1 $((EV_RT * 125 / 100))
		ev_per_tick_check "eevdf: fixed 12 ms: preempt_deadline per tick at most 2/3 of stock's" \
			test $((EV_PD * 3 * EV_STOCK_LOC)) -le $((EV_STOCK_PD * EV_LOC * 2))
		ev_in_range "eevdf: fixed 12 ms: check_deadline still counts every tick" \
			"$EV_CD" $((EV_LOC * 9 / 10)) $((EV_LOC_ALL + 10))
		check "eevdf: eevdf_slices_set grew" test "$(stat_get eevdf_slices_set)" -gt 0
		diag "ratio stock/fixed preempt_deadline per tick: $(awk -v a="$EV_STOCK_PD" -v b="$EV_STOCK_LOC" -v c="$EV_PD" -v d="$EV_LOC" 'BEGIN { if (c && b) printf "%.2f", (a / b) / (c / d); else print "n/a" }')"
		check_eq "eevdf: eevdf_slice=scaled accepted" "$(wr eevdf_slice scaled)" OK
		ev_window "scaled (24 ms / 2 = 12 ms), 2 hogs"
		# 7.3 counts delayed-dequeue tasks in h_nr_queued: 8 ms as often
		ev_in_range "eevdf: scaled, 2 hogs: preempt_deadline per tick at most 3/4 of stock's" \
			$((EV_PD * 4 * EV_STOCK_LOC)) 1 $((EV_STOCK_PD * EV_LOC * 3))
		check_eq "eevdf: eevdf_slice=stock accepted" "$(wr eevdf_slice stock)" OK
		ev_window "stock again, 2 hogs"
		ev_in_range "eevdf: stock again: preempt_deadline >= half of cpu$EV_CPU ticks" \
			"$EV_PD" $((EV_LOC / 2)) $((EV_LOC_ALL + 10))
		ev_hogs_stop
	fi
	check_eq "eevdf: eevdf_counters=0 accepted" "$(wr eevdf_counters 0)" OK
	check "eevdf: task_tick_fair unhooked at eevdf_counters=0" not hooked task_tick_fair
	check "eevdf: rmmod" st_unload
	check "eevdf: nothing of ours left after rmmod" not ours_in_ftrace
}

# ev_slice PID: se.slice of PID in /proc/PID/sched (ns).
ev_slice() { awk '$1 == "se.slice" { print $3 }' "/proc/$1/sched" 2>/dev/null; }
ev_base() { cat /sys/kernel/debug/sched/base_slice_ns 2>/dev/null; }

# ev_stopped_slices: runs the hogs for a second, stops them (a stopped task
# is dequeued: it keeps the slice it had until it wakes), prints their
# slices.
ev_stopped_slices() {
	# shellcheck disable=SC2086 # a list of pids
	kill -CONT $EV_PIDS
	sleep 1
	# shellcheck disable=SC2086
	kill -STOP $EV_PIDS
	sleep 1
	for p in $EV_PIDS; do printf '%s ' "$(ev_slice "$p")"; done
}

# ev_stopped_slices_until PRED...: ev_stopped_slices, up to three times,
# until PRED (a command, given the slices) holds.  Only a tick gives a
# request of ours: a hog whose request ran out after the last tick gets
# base_slice_ns from the kernel's update_deadline() at its dequeue when it
# stops, so a single reading may show base_slice_ns on both hogs.
ev_stopped_slices_until() {
	for _ in 1 2 3; do
		evs=$(ev_stopped_slices)
		# shellcheck disable=SC2086 # a list of slices
		"$@" $evs && break
	done
	echo "$evs"
}
ev_any_above() { v=$1; shift; for s in "$@"; do [ "$s" -gt "$v" ] 2>/dev/null && return 0; done; return 1; }

# ev_dl PID: "VRUNTIME DEADLINE" (ns) of PID, read by the test module
# st_se (selftests/kmod), never from debugfs sched/debug: its reads crash
# 6.12 (docs/kernels.md, a bug of the stock kernels).
EV_SE=/sys/module/st_se/parameters/task
ev_dl() {
	echo "$1" 2>/dev/null >"$EV_SE" && awk '{ print $2, $3 }' "$EV_SE" 2>/dev/null
}
ev_se_load() { [ -w "$EV_SE" ] || /sbin/insmod /st/st_se.ko; }
ev_se_unload() { ! grep -q '^st_se ' /proc/modules || /sbin/rmmod st_se; }
ev_dls() { for p in $EV_PIDS; do printf '%s:%s ' "$p" "$(ev_dl "$p" | tr ' ' /)"; done; }
# ev_same_dls A B: two ev_dls readings, every hog read ("pid: " is one
# that was not), equal.
ev_same_dls() {
	case " $1" in *": "* | " ") return 1 ;; esac
	[ "$1" = "$2" ]
}
# ev_dl_within PID NS: PID's deadline at most NS past its vruntime (nice 0:
# virtual time is real time), i.e. its request is at most NS.
ev_dl_within() {
	ev_dl "$1" | awk -v ns="$2" '{ ok = NF == 2 && $2 - $1 <= ns } END { exit !ok }'
}

# ev_all_are VALUE SLICES...: every slice is VALUE; ev_any_is likewise.
ev_all_are() { v=$1; shift; for s in "$@"; do [ "$s" = "$v" ] || return 1; done; [ $# -gt 0 ]; }
ev_any_is() { v=$1; shift; for s in "$@"; do [ "$s" = "$v" ] && return 0; done; return 1; }

t_eevdf_slice() {
	group "eevdf: the slice policy and its restore"
	dmesg_mark
	if ! ev_is_eevdf || ! ev_slice_checked; then
		st_load || { ktap_fail "eevdf slice: insmod"; return 1; }
		check_eq "eevdf slice: eevdf_slice=fixed fails with EOPNOTSUPP here" "$(wr eevdf_slice fixed)" EOPNOTSUPP
		check_eq "eevdf slice: eevdf_slice reads stock" "$(knob_choice eevdf_slice)" stock
		check_eq "eevdf slice: eevdf_slice_ns=5000000 fails with EOPNOTSUPP" "$(wr eevdf_slice_ns 5000000)" EOPNOTSUPP
		check_eq "eevdf slice: the counters still switch on" "$(wr eevdf_counters 1)" OK
		check_eq "eevdf slice: active for its counters" "$(feature_state eevdf)" active
		diag "eevdf slice: features/eevdf/reason: $(feature_reason eevdf)"
		# the refusal's reason (docs/features/eevdf.md): CFS on 6.1
		case $(uname -r) in
		6.1.*) want="this kernel runs CFS" ;;
		*) want="" ;;
		esac
		check "eevdf slice: features/eevdf/reason says why there is no slice policy ('$want')" \
			grep -qF "$want" "$ST/features/eevdf/reason"
		st_unload
		dmesg_mark
		check "eevdf slice: eevdf_slice=fixed as a parameter fails the load" not st_load eevdf_slice=fixed
		check "eevdf slice: no module left" not is_loaded
		check_eq "eevdf slice: one dmesg line names the parameter" \
			"$(dmesg_new | grep -c 'parameter eevdf_slice: ')" 1
		return
	fi
	base=$(ev_base)
	if [ -z "$base" ] || [ ! -r /proc/self/sched ]; then
		ktap_skip "eevdf slice" "no debugfs sched/base_slice_ns or /proc/PID/sched here"
		return
	fi
	diag "eevdf slice: base_slice_ns $base"
	st_load eevdf_slice=fixed eevdf_slice_ns=12000000 || { ktap_fail "eevdf slice: insmod eevdf_slice=fixed"; return 1; }
	check_eq "eevdf slice: active with eevdf_slice=fixed as a parameter" "$(feature_state eevdf)" active
	# a third hog whose slice sched_setattr set (5 ms, se.custom_slice):
	# never the policy's to change, nor to restore
	st_slicehog "$EV_CPU" 5000000 >/tmp/ev.custom 2>&1 &
	EV_CPID=$!
	for _ in $(seq 50); do grep -q ready /tmp/ev.custom && break; usleep 100000; done
	check "eevdf slice: st_slicehog set a 5 ms custom slice (sched_setattr)" grep -q ready /tmp/ev.custom
	ev_hogs 2
	# shellcheck disable=SC2046 # a list of slices
	set -- $(ev_stopped_slices_until ev_any_is 12000000)
	diag "eevdf slice: fixed 12 ms, stopped hogs' se.slice: $*"
	check "eevdf slice: a hog stopped under fixed has se.slice 12000000" ev_any_is 12000000 "$@"
	check_eq "eevdf slice: the custom-slice hog kept its 5 ms under fixed" "$(ev_slice "$EV_CPID")" 5000000
	r0=$(stat_get eevdf_slices_restored)
	check "eevdf slice: the test module st_se loads (selftests/kmod)" ev_se_load
	dl0=$(ev_dls)
	check_eq "eevdf slice: eevdf_slice=stock accepted" "$(wr eevdf_slice stock)" OK
	# shellcheck disable=SC2046
	set -- $(for p in $EV_PIDS; do ev_slice "$p"; done)
	diag "eevdf slice: after eevdf_slice=stock, still stopped: $*"
	check "eevdf slice: switched to stock, every stopped hog's se.slice is base_slice_ns again" ev_all_are "$base" "$@"
	check_eq "eevdf slice: the custom-slice hog still has 5 ms after the restore" "$(ev_slice "$EV_CPID")" 5000000
	check "eevdf slice: eevdf_slices_restored grew" test "$(stat_get eevdf_slices_restored)" -gt "${r0:-0}"
	# sysfs-kernel-sched_tune: the restore shortens no deadline; the
	# next request is base_slice_ns (the hogs run a second unhooked,
	# stock)
	dl1=$(ev_dls)
	diag "eevdf slice: stopped hogs' pid:vruntime/deadline (ns) before the restore $dl0, after $dl1"
	check "eevdf slice: the restore left the stopped hogs' deadlines as they were" \
		ev_same_dls "$dl0" "$dl1"
	# shellcheck disable=SC2086 # a list of pids
	kill -CONT $EV_PIDS
	sleep 1
	# shellcheck disable=SC2086
	kill -STOP $EV_PIDS
	sleep 1
	diag "eevdf slice: after a second of stock: $(ev_dls)"
	for p in $EV_PIDS; do
		check "eevdf slice: after a second of stock, each hog's request is at most base_slice_ns (deadline - vruntime; hog $p)" \
			ev_dl_within "$p" "$base"
	done
	check "eevdf slice: the test module st_se unloads" ev_se_unload
	check_eq "eevdf slice: stock with eevdf_counters=0: inactive" "$(feature_state eevdf)" inactive
	check "eevdf slice: stock with eevdf_counters=0: task_tick_fair unhooked" not hooked task_tick_fair
	# again, through unload: scaled with two hogs is 12 ms too
	check_eq "eevdf slice: eevdf_slice=scaled accepted" "$(wr eevdf_slice scaled)" OK
	# shellcheck disable=SC2046
	set -- $(ev_stopped_slices_until ev_any_above "$base")
	diag "eevdf slice: scaled, stopped hogs' se.slice: $*"
	check "eevdf slice: a hog stopped under scaled has a slice above base_slice_ns" \
		ev_any_above "$base" "$@"
	check "eevdf slice: rmmod" st_unload
	# shellcheck disable=SC2046
	set -- $(for p in $EV_PIDS; do ev_slice "$p"; done)
	diag "eevdf slice: after rmmod, still stopped: $*"
	check "eevdf slice: after rmmod, every stopped hog's se.slice is base_slice_ns again" ev_all_are "$base" "$@"
	check_eq "eevdf slice: the custom-slice hog still has 5 ms after rmmod" "$(ev_slice "$EV_CPID")" 5000000
	kill "$EV_CPID" 2>/dev/null
	wait "$EV_CPID" 2>/dev/null
	ev_hogs_stop
	check "eevdf slice: nothing of ours left after rmmod" not ours_in_ftrace
	ev_group_slice_restore
}

# Group entities (sysfs-kernel-sched_tune, eevdf_slice): two hogs in a
# cgroup with the cpu controller, pinned on EV_CPU, under scaled (12 ms
# each); one is stopped, a dequeue in the group that gives the group
# entity the other's longer slice (the kernel's rule); eevdf_slice=stock
# while the other runs must give the queued group entity its queue's
# smallest slice again: eevdf_group_slices_restored grows.  On 7.3, whose
# tree holds tasks only, there is no group slice to restore: it stays, and
# the running hog in the group has base_slice_ns again all the same.
EV_CG=/sys/fs/cgroup
ev_group_slice_restore() {
	mountpoint -q $EV_CG || mount -t cgroup2 none $EV_CG 2>/dev/null
	echo +cpu >$EV_CG/cgroup.subtree_control 2>/dev/null
	mkdir -p $EV_CG/st_ev 2>/dev/null
	if [ ! -e $EV_CG/st_ev/cpu.weight ]; then
		ktap_skip "eevdf slice: group entities" "no cgroup2 cpu controller here"
		rmdir $EV_CG/st_ev 2>/dev/null
		return 0
	fi
	st_load eevdf_slice=scaled || { ktap_fail "eevdf slice, groups: insmod eevdf_slice=scaled"; return 1; }
	EV_PIDS=
	for _ in 1 2; do
		sh -c "$IN_CGROUP" sh "$EV_CG/st_ev" taskset -c $EV_CPU sh -c 'while :; do :; done' &
		EV_PIDS="$EV_PIDS $!"
	done
	sleep 1
	# shellcheck disable=SC2086 # two pids
	set -- $EV_PIDS
	kill -STOP "$1"
	sleep 1
	g0=$(stat_get eevdf_group_slices_restored)
	check_eq "eevdf slice, groups: eevdf_slice=stock with one hog of the group running" "$(wr eevdf_slice stock)" OK
	g1=$(stat_get eevdf_group_slices_restored)
	diag "eevdf slice, groups: eevdf_group_slices_restored $g0 -> $g1, eevdf_slices_set $(stat_get eevdf_slices_set); the running hog's se.slice $(ev_slice "$2")"
	if ev_group_slices; then
		check "eevdf slice, groups: the restore set the queued group entity's slice again (eevdf_group_slices_restored $g0 -> $g1)" \
			test "${g1:-0}" -gt "${g0:-0}"
	else
		check_eq "eevdf slice, groups: 7.3 has no group slice to restore (eevdf_group_slices_restored)" "$g1" "$g0"
	fi
	check_eq "eevdf slice, groups: the running hog in the group has base_slice_ns" "$(ev_slice "$2")" "$base"
	check "eevdf slice, groups: rmmod" st_unload
	ev_hogs_stop
	rmdir $EV_CG/st_ev 2>/dev/null
	true
}

# --- seed 001 where tasks compete in groups (issue 27) ---------------------
# Each hog writes its pid to /tmp/evp.N before it becomes the loop, so the
# pid is the hog's whatever setsid or the cgroup move did.

# ev_cg_hog GROUP CPU N: a hog pinned on CPU in cgroup GROUP (under EV_CG)
ev_cg_hog() {
	rm -f "/tmp/evp.$3"
	sh -c "$IN_CGROUP" sh "$EV_CG/$1" sh -c "echo \$\$ >/tmp/evp.$3 && exec taskset -c $2 sh -c 'while :; do :; done'" &
	EV_BG="$EV_BG $!"
}
# ev_sid_hog CPU N: a hog pinned on CPU in a session of its own (setsid:
# its own autogroup)
ev_sid_hog() {
	rm -f "/tmp/evp.$2"
	setsid sh -c "echo \$\$ >/tmp/evp.$2 && exec taskset -c $1 sh -c 'while :; do :; done'" &
	EV_BG="$EV_BG $!"
}
# ev_pids N...: EV_PIDS from /tmp/evp.N once every hog wrote its pid
ev_pids() {
	EV_PIDS=
	for n in "$@"; do
		# a minute: a guest its host starves takes seconds to fork
		for _ in $(seq 600); do [ -s "/tmp/evp.$n" ] && break; usleep 100000; done
		EV_PIDS="$EV_PIDS $(cat "/tmp/evp.$n" 2>/dev/null)"
	done
}
# ev_nvcsw PID...: the sum of their nonvoluntary context switches
ev_nvcsw() {
	for p in "$@"; do awk '$1 == "nonvoluntary_ctxt_switches:" { print $2 }' "/proc/$p/status" 2>/dev/null; done |
		awk '{ s += $1 } END { print s + 0 }'
}
# ev_runtime PID...: the sum of their se.sum_exec_runtime in ns
ev_runtime() {
	for p in "$@"; do awk '$1 == "se.sum_exec_runtime" { print $3 }' "/proc/$p/sched" 2>/dev/null; done |
		awk '{ s += $1 * 1000000 } END { printf "%.0f\n", s }'
}
# ev_preempts: the tick-preemption counter of this kernel
ev_preempts() { if ev_is_eevdf; then stat_get preempt_deadline; else stat_get tick_preempts; fi; }

# ev_switch_window LABEL PID...: EV_SECS of the hogs PID...; sets EV_NV
# (their nonvoluntary switches), EV_P (ev_preempts), EV_LOC (ticks on
# EV_CPU), EV_RT (their run time, ns) and the counters of ev_window.
ev_switch_window() {
	lbl=$1; shift
	n0=$(ev_nvcsw "$@") r0=$(ev_runtime "$@")
	ev_window "$lbl"
	n1=$(ev_nvcsw "$@") r1=$(ev_runtime "$@")
	EV_NV=$((n1 - n0)) EV_RT=$((r1 - r0))
	if ev_is_eevdf; then EV_P=$EV_PD; else EV_P=$EV_TP; fi
	diag "  $lbl: hogs' nonvoluntary switches $EV_NV, preemptions counted $EV_P, run time $((EV_RT / 1000000)) ms, reweight_deadline $(stat_get reweight_deadline)"
}

# ev_tracks DESC: the preemption counter tracks the hogs' own switches:
# each tick preemption is one switch of a hog, a switch from a wakeup
# (a kworker, the shell) is not counted.  A request may not switch: the
# pick can elect the same entity again, CFS's when its vruntime is still
# the smallest (6.1.192: 1.39x in two cgroups), EEVDF's when the other
# is not eligible, which a coarse tick makes frequent (6.12.95 with a
# tick every 25 ms of run time: 1.7x).  Within 0.75..2x: a level not
# counted reads near 0 (the issue's 15 against 257).  At least 0.75x
# always; at most 2x where the tick is fine (ev_fine_ticks): with a tick
# past CFS's ideal runtime every tick asks (6.1.192, a tick every 12 ms
# of run time: 323 requests, 158 switches)
ev_tracks() {
	check "$1 (the hogs switched: >= 40 nonvoluntary switches, got $EV_NV)" test "$EV_NV" -ge 40
	ev_in_range "$1" $((EV_P * 100)) $((EV_NV * 75)) $((EV_P * 100 + 1))
	ev_per_tick_check "$1: at most 2x ($EV_P against $EV_NV)" test "$EV_P" -le $((EV_NV * 2))
}

# ev_fine_ticks: the last window's tick on cpu1 came within 10 ms of the
# hogs' run time (EV_RT over EV_LOC): fine enough to tell a 12 ms
# request from base_slice_ns per tick.  A loaded TCG host delivers the
# guest's ticks 15-25 ms apart, where both renew at every tick.
ev_fine_ticks() {
	EV_TICK_US=$((EV_RT / (EV_LOC + 1) / 1000))
	[ "$EV_TICK_US" -le 10000 ]
}
# ev_per_tick_check DESC CMD...: check DESC CMD where ev_fine_ticks
ev_per_tick_check() {
	d=$1; shift
	if ev_fine_ticks; then
		check "$d" "$@"
	else
		ktap_skip "$d" "the guest's tick came every $EV_TICK_US us of run time: too coarse to tell 12 ms from base_slice_ns per tick"
	fi
}

# the entities a task in a first-level group has on an EEVDF kernel that
# runs update_deadline() at each level: 6.12 two (task, group), 7.3 one
ev_levels() { if ev_group_slices; then echo 2; else echo 1; fi; }

t_eevdf_groups() {
	group "eevdf: seed 001 with the hogs in two cgroups, two autogroup sessions, a spread group"
	mountpoint -q $EV_CG || mount -t cgroup2 none $EV_CG 2>/dev/null
	echo +cpu >$EV_CG/cgroup.subtree_control 2>/dev/null
	mkdir -p $EV_CG/st_eva $EV_CG/st_evb 2>/dev/null
	if [ ! -e $EV_CG/st_eva/cpu.weight ] || [ "$(nproc)" -lt 3 ]; then
		ktap_skip "eevdf groups" "needs the cgroup2 cpu controller and 3 CPUs"
		rmdir $EV_CG/st_eva $EV_CG/st_evb 2>/dev/null
		return 0
	fi
	dmesg_mark
	st_load eevdf_counters=1 || { ktap_fail "eevdf groups: insmod eevdf_counters=1"; return 1; }

	# 1. the seed's experiment, each hog in its own cgroup
	ev_cg_hog st_eva "$EV_CPU" 1
	ev_cg_hog st_evb "$EV_CPU" 2
	ev_pids 1 2
	sleep 1
	# shellcheck disable=SC2086 # two pids
	ev_switch_window "cgroups a and b, stock" $EV_PIDS
	ev_tracks "eevdf groups: two cgroups, stock: preemptions counted track the hogs' nonvoluntary switches, at least 0.75x"
	EV_CG_RATE=$((EV_NV * 1000 / (EV_LOC + 1)))
	if ev_is_eevdf; then
		# every tick of cpu1 runs update_deadline() at each level
		l=$(ev_levels)
		diag "  levels counted per tick: $l"
		ev_in_range "eevdf groups: two cgroups: check_deadline counts every level of the hogs' hierarchy at every tick of cpu1" \
			"$EV_CD" $((EV_LOC * l * 85 / 100)) $((EV_LOC_ALL * l + 10))
	else
		# the two group entities compete at the root at every tick
		ev_in_range "eevdf groups: two cgroups: tick_check_preempts counts the root level at every tick of cpu1" \
			"$EV_TC" $((EV_LOC * 85 / 100)) $((EV_LOC_ALL * 2 + 10))
	fi

	# 2. the knob switched while they run, then back
	if ev_slice_checked; then
		check_eq "eevdf groups: eevdf_slice=fixed (12 ms) while the hogs run" "$(wr eevdf_slice fixed)" OK
		sleep 1
		# shellcheck disable=SC2086
		ev_switch_window "two cgroups, fixed 12 ms set while running" $EV_PIDS
		ev_tracks "eevdf groups: two cgroups, fixed 12 ms set while running: preemptions counted track the hogs' nonvoluntary switches, at least 0.75x"
		rate=$((EV_NV * 1000 / (EV_LOC + 1)))
		diag "  switches per 1000 ticks of cpu$EV_CPU: stock $EV_CG_RATE, fixed $rate"
		ev_per_tick_check "eevdf groups: two cgroups, fixed 12 ms set while running: at least 1.33x fewer switches per tick than stock ($EV_CG_RATE -> $rate)" \
			test $((rate * 4)) -le $((EV_CG_RATE * 3))
		# a switch once a whole 12 ms request is used up, not at each tick
		ev_in_range "eevdf groups: two cgroups, fixed 12 ms set while running: at most 1.25 switches per 12 ms of the hogs' run time" \
			$((EV_NV * 12000000)) 0 $((EV_RT * 125 / 100))
		check_eq "eevdf groups: eevdf_slice=stock while the hogs run" "$(wr eevdf_slice stock)" OK
		sleep 1
		# shellcheck disable=SC2086
		ev_switch_window "two cgroups, stock again" $EV_PIDS
		rate=$((EV_NV * 1000 / (EV_LOC + 1)))
		check "eevdf groups: two cgroups, stock again: switches per tick back above half of stock's ($EV_CG_RATE -> $rate)" \
			test $((rate * 2)) -ge "$EV_CG_RATE"
	fi
	ev_hogs_stop

	# 3. two sessions (setsid) under autogroup
	ag=/proc/sys/kernel/sched_autogroup_enabled
	if [ ! -e $ag ] || grep -qw noautogroup /proc/cmdline; then
		ktap_skip "eevdf groups: autogroup" "no kernel.sched_autogroup_enabled here, or noautogroup"
	else
		ag0=$(cat $ag)
		echo 1 >$ag
		ev_sid_hog "$EV_CPU" 3
		ev_sid_hog "$EV_CPU" 4
		ev_pids 3 4
		# shellcheck disable=SC2086
		set -- $EV_PIDS
		diag "  autogroups: $(cat "/proc/$1/autogroup" 2>/dev/null) / $(cat "/proc/$2/autogroup" 2>/dev/null)"
		check "eevdf groups: each setsid hog is in an autogroup of its own" \
			test -n "$(cat "/proc/$1/autogroup" 2>/dev/null)" -a "$(cat "/proc/$1/autogroup" 2>/dev/null)" != "$(cat "/proc/$2/autogroup" 2>/dev/null)"
		sleep 1
		ev_switch_window "two autogroup sessions, stock" "$1" "$2"
		ev_tracks "eevdf groups: two autogroup sessions, stock: preemptions counted track the hogs' nonvoluntary switches, at least 0.75x"
		ev_hogs_stop
		echo "$ag0" >$ag
	fi
	st_unload

	# 4. fixed set before the hogs start (as a parameter), two cgroups
	if ev_slice_checked; then
		st_load eevdf_counters=1 eevdf_slice=fixed || { ktap_fail "eevdf groups: insmod eevdf_slice=fixed"; return 1; }
		ev_cg_hog st_eva "$EV_CPU" 1
		ev_cg_hog st_evb "$EV_CPU" 2
		ev_pids 1 2
		sleep 1
		# shellcheck disable=SC2086
		ev_switch_window "two cgroups, fixed 12 ms set before the start" $EV_PIDS
		ev_tracks "eevdf groups: two cgroups, fixed 12 ms set before the start: preemptions counted track the hogs' nonvoluntary switches, at least 0.75x"
		rate=$((EV_NV * 1000 / (EV_LOC + 1)))
		ev_per_tick_check "eevdf groups: two cgroups, fixed 12 ms set before the start: at least 1.33x fewer switches per tick than stock ($EV_CG_RATE -> $rate)" \
			test $((rate * 4)) -le $((EV_CG_RATE * 3))
		# a switch once a whole 12 ms request is used up, not at each tick
		ev_in_range "eevdf groups: two cgroups, fixed 12 ms set before the start: at most 1.25 switches per 12 ms of the hogs' run time" \
			$((EV_NV * 12000000)) 0 $((EV_RT * 125 / 100))
		ev_hogs_stop

		# 5. group a spread over two CPUs, b on cpu1, and a's weight
		# flipped every 50 ms: a's group entities change weight, and
		# 7.3 reweights the tasks of cpu1 (reweight_eevdf() of
		# task_tick_fair(), their hierarchical weight) at their next
		# tick, which moves their deadlines without a renewal
		ev_cg_hog st_eva "$EV_CPU" 1
		ev_cg_hog st_evb "$EV_CPU" 2
		ev_cg_hog st_eva $((EV_CPU + 1)) 3
		ev_pids 1 2 3
		sh -c "while :; do echo 50 >$EV_CG/st_eva/cpu.weight; usleep 50000; echo 200 >$EV_CG/st_eva/cpu.weight; usleep 50000; done" &
		EV_FLIP=$!
		sleep 1
		# shellcheck disable=SC2086 # three pids
		set -- $EV_PIDS
		wr stats/reset 1 >/dev/null
		c1=$(ev_loc "$EV_CPU") c2=$(ev_loc $((EV_CPU + 1)))
		r1=$(ev_runtime "$1" "$2") r2=$(ev_runtime "$3")
		sleep "$EV_SECS"
		ud=$(stat_get update_deadline) rw=$(stat_get reweight_deadline)
		r1=$(($(ev_runtime "$1" "$2") - r1)) r2=$(($(ev_runtime "$3") - r2))
		c1=$(($(ev_loc "$EV_CPU") - c1)) c2=$(($(ev_loc $((EV_CPU + 1))) - c2))
		kill "$EV_FLIP"
		wait "$EV_FLIP" 2>/dev/null
		l=$(ev_levels)
		# a renewal at each 12 ms of run time, at each level, but only
		# at a tick: up to a tick late (t1, t2: run time per tick, the
		# scheduler's clock); the shell and kworkers add a few
		t1=$((r1 / (c1 + 1))) t2=$((r2 / (c2 + 1)))
		lo=$((l * (r1 / (12000000 + t1) + r2 / (12000000 + t2)) * 85 / 100))
		hi=$((l * (r1 + r2) * 115 / 1200000000))
		diag "  spread group, fixed 12 ms, a's weight flipped: update_deadline $ud, reweight_deadline $rw; run time cpu1 $((r1 / 1000000)) ms in $c1 ticks, cpu2 $((r2 / 1000000)) ms in $c2 ticks; $l level(s): renewals expected in [$lo, $hi]; counting every deadline move would read $((ud + rw))"
		ev_in_range "eevdf groups: spread group, fixed 12 ms: update_deadline at one renewal per 12 ms of run time per level, up to a tick late" \
			"$ud" "$lo" "$hi"
		if ! ev_group_slices; then
			check "eevdf groups: 7.3, spread group: some deadlines moved by a reweight alone (reweight_deadline $rw)" test "${rw:-0}" -gt 0
		fi
		ev_hogs_stop
		st_unload
	else
		ktap_skip "eevdf groups: fixed slice" "eevdf_slice is not supported here (CFS)"
	fi
	check "eevdf groups: nothing of ours left after rmmod" not ours_in_ftrace
	rmdir $EV_CG/st_eva $EV_CG/st_evb 2>/dev/null
}

# The restore with many threads (issue 27): every thread is visited; a
# fix holds only that task's locks.  st_threads makes EV_THREADS blocked
# threads; two hogs run with the policy's slice; eevdf_slice=stock
# restores.  The module's pr_debug line (dynamic debug) gives the walk's
# time and the longest call under a task's locks, in the guest's clock:
# printed, not held to a bound, since TCG's times depend on the host's
# load (0.10 ms to 3.06 ms on 7.3.4).
EV_THREADS=$(st_arg eevdf_threads 20000)
t_eevdf_restore() {
	group "eevdf: the restore with $EV_THREADS threads"
	if ! ev_is_eevdf || ! ev_slice_checked; then
		ktap_skip "eevdf restore" "no slice policy here (CFS)"
		return 0
	fi
	dd=/sys/kernel/debug/dynamic_debug/control
	tm=/proc/sys/kernel/threads-max
	tm0=$(cat $tm)
	[ "$tm0" -ge $((EV_THREADS + 2000)) ] || echo $((EV_THREADS + 2000)) >$tm
	st_threads "$EV_THREADS" >/tmp/ev.threads 2>&1 &
	EV_TPID=$!
	for _ in $(seq 1200); do grep -q ready /tmp/ev.threads && break; usleep 250000; done
	nt=$(awk '{ split($4, a, "/"); print a[2] }' /proc/loadavg)
	diag "eevdf restore: $(cat /tmp/ev.threads) threads of st_threads, $nt threads in all"
	check "eevdf restore: $EV_THREADS threads made (st_threads: $(cat /tmp/ev.threads))" grep -q "ready $EV_THREADS\$" /tmp/ev.threads
	dmesg_mark
	st_load eevdf_slice=fixed || { ktap_fail "eevdf restore: insmod eevdf_slice=fixed"; kill "$EV_TPID"; return 1; }
	if [ -w $dd ]; then echo "module sched_tune +p" >$dd; fi
	ev_hogs 2
	sleep 2
	# shellcheck disable=SC2086 # two pids
	set -- $EV_PIDS
	diag "eevdf restore: running hogs' se.slice: $(ev_slice "$1") $(ev_slice "$2")"
	# A running hog whose 12 ms request ends before the walk (it waits
	# for RCU first) is renewed with base_slice_ns by the kernel, and
	# the walk has nothing left to do (0 of 2, 6.12.95, 2026-12-05): the
	# first hog is stopped, and only the walk can give it base_slice_ns.
	kill -STOP "$1"
	st_wait_for 100 sh -c "grep -q '^[0-9]* ([^)]*) T' /proc/$1/stat"
	r0=$(stat_get eevdf_slices_restored)
	check_eq "eevdf restore: eevdf_slice=stock with $EV_THREADS threads" "$(wr eevdf_slice stock)" OK
	line=$(dmesg_new | grep -o 'eevdf restore: .*' | tail -n1)
	diag "eevdf restore (TCG time): ${line:-no pr_debug line (no dynamic debug here)}"
	check "eevdf restore: restored the stopped hog (eevdf_slices_restored $r0 -> $(stat_get eevdf_slices_restored))" \
		test "$(stat_get eevdf_slices_restored)" -gt "${r0:-0}"
	kill -CONT "$1"
	base=$(ev_base)
	check_eq "eevdf restore: both hogs have base_slice_ns at once" "$(ev_slice "$1") $(ev_slice "$2")" "$base $base"
	[ -w $dd ] && echo "module sched_tune -p" >$dd
	ev_hogs_stop
	check "eevdf restore: rmmod" st_unload
	kill "$EV_TPID" 2>/dev/null
	wait "$EV_TPID" 2>/dev/null
	echo "$tm0" >$tm
}
