# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash # busybox ash: dash is the nearest shell shellcheck checks
# Guest tests of the queued-wakeup cache level, sourced by tests.sh after
# lib.sh.  The effect needs two CPUs in one LLC with different L2s, and a
# same-L2 (SMT) pair to show what stays direct (and what none queues).
# make check boots -cpu max,vendor=GenuineIntel
# -smp 4,sockets=1,cores=2,threads=2 (with qemu's default AMD flavour,
# threads=2 still gives each thread its own L2) and says so with
# st_topology=smt: then both pairs must be there.

CPUS=/sys/devices/system/cpu
# 500 round trips, 1000 wakeups a run: the checks are shares (90%
# queued, 2% stray), which 1000 wakeups hold as well as the 2000 of the
# boots up to 2026-12-02, in half the time under TCG
CL_ROUNDS=$(st_arg cl_rounds 500)

# Expands a cpulist ("0-1,4") into "0 1 4".
cl_expand() {
	echo "$1" | tr ',' '\n' | awk -F- 'NF { e = NF > 1 ? $2 : $1; for (i = $1; i <= e; i++) printf "%d ", i }'
}
cl_list() { cat "$CPUS/cpu$1/cache/index$2/shared_cpu_list" 2>/dev/null; }
cl_in() { case " $(cl_expand "$2") " in *" $1 "*) return 0 ;; esac; return 1; }
cl_calls() { awk '$1 == "CAL:" { for (i = 2; i <= NF; i++) if ($i ~ /^[0-9]+$/) s += $i } END { print s + 0 }' /proc/interrupts; }
cl_hooked() { hooked ttwu_queue_wakelist; }
# cl_few N WAKEUPS: the counters are global, so a pair that must stay
# direct may still see a few unrelated kernel wakeups: under 2%.
cl_few() { [ "${1:-0}" -le $(($2 / 50)) ]; }
# cl_most N WAKEUPS: a level that queues the pair's wakeups queued at least
# 90% of them.  The counter moves only where the level changes stock's
# decision; the few others took a path where both agree, or never reached
# ttwu_queue_wakelist.  Delayed dequeue (6.12 on) sends 1-10% of the
# ping-pong's wakeups past it (898 of 1000 once, 2026-12-06, 6.12.118);
# with DELAY_DEQUEUE off, 993-999 of 1000 (6.1, 6.12.118).  So the shares
# of the pair's wakeups are taken with it off (delay_dequeue_off), and
# with it on, of the calls that reached the function (cl_run_reached).
cl_most() { [ "${2:-0}" -gt 0 ] && [ "${1:-0}" -ge $(($2 * 9 / 10)) ]; }

# Sets CL_FAR (same LLC as CL_A, other L2) and CL_NEAR (same L2, or "").
cl_pick_pairs() {
	CL_A=0 CL_FAR="" CL_NEAR=""
	for c in $(cl_expand "$(cl_list 0 3)"); do
		[ "$c" = 0 ] && continue
		if cl_in "$c" "$(cl_list 0 2)"; then
			[ -z "$CL_NEAR" ] && CL_NEAR=$c
		elif [ -z "$CL_FAR" ]; then CL_FAR=$c; fi
	done
}

# cl_run LEVEL A B: one pinned ping-pong with busy targets; sets CL_WAKE,
# CL_CAL (function-call IPIs), CL_Q/CL_D/CL_C (stats deltas), and checks
# that the ping-pong ran to the end: a count from a run that never
# happened would prove nothing.
cl_run() {
	wr cache_share_level "$1" >/dev/null
	wr stats/reset 1 >/dev/null
	c0=$(cl_calls)
	out=$(timeout 300 st_pingpong "$2" "$3" "$CL_ROUNDS" 1)
	rc=$?
	c1=$(cl_calls)
	CL_WAKE=$(echo "$out" | awk '{ print $2 }')
	CL_CAL=$((c1 - c0))
	CL_Q=$(stat_get ttwu_queued_by_level) CL_D=$(stat_get ttwu_direct_by_level)
	CL_C=$(stat_get ttwu_checked)
	diag "level $1, CPUs $2->$3: ${out:-failed rc $rc}; CAL IPIs $CL_CAL ($(awk -v c="$CL_CAL" -v w="${CL_WAKE:-0}" 'BEGIN { printf "%.3f", w ? c / w : 0 }') per wakeup); queued_by_level $CL_Q direct_by_level $CL_D checked $CL_C"
	check_eq "ping-pong $2<->$3 at $1 ran: exit 0 ($((2 * CL_ROUNDS)) wakeups)" \
		"$rc ${CL_WAKE:-none}" "0 $((2 * CL_ROUNDS))"
}

# cl_run_reached LEVEL A B: cl_run, with a kprobe counting the
# ping-pong's calls of ttwu_queue_wakelist() for A or B (CL_REACHED):
# the wakeups any level decides.
cl_run_reached() {
	CL_REACHED=0
	cl_ev=$TR/events/kprobes/st_cl_reached
	echo "p:kprobes/st_cl_reached ttwu_queue_wakelist cpu=%si:s32" >>"$TR/kprobe_events" &&
		echo "comm == \"st_pingpong\" && (cpu == $2 || cpu == $3)" >"$cl_ev/filter" || return 1
	: >"$TR/trace"
	echo 1 >"$cl_ev/enable"
	cl_run "$@"
	echo 0 >"$cl_ev/enable"
	CL_REACHED=$(grep -c ' st_cl_reached:' "$TR/trace")
	echo "-:kprobes/st_cl_reached" >>"$TR/kprobe_events"
	diag "level $1, CPUs $2->$3: the ping-pong called ttwu_queue_wakelist $CL_REACHED times"
}

# The pairs this boot must have: both when the host booted SMT cores.
cl_need_near() { [ "$(st_arg topology "")" = smt ]; }

# --- topology -----------------------------------------------------------------
t_cache_topology() {
	group "cache level: guest topology"
	ok=1
	for d in "$CPUS"/cpu[0-9]*; do
		c=${d##*cpu}
		[ "$(cat "$d/online" 2>/dev/null || echo 1)" = 1 ] || continue
		l2=$(cl_list "$c" 2) l3=$(cl_list "$c" 3)
		n2=$(cl_expand "$l2" | wc -w) n3=$(cl_expand "$l3" | wc -w)
		diag "cpu$c: L2 {$l2} ($n2), LLC {$l3} ($n3), SMT {$(cat "$d/topology/thread_siblings_list")}"
		for x in $(cl_expand "$l2"); do cl_in "$x" "$l3" || ok=0; done
		[ "$n2" -lt "$n3" ] || ok=0
	done
	ls /sys/kernel/debug/sched/domains/cpu0 >/dev/null 2>&1 &&
		diag "cpu0 sched domains: $(cat /sys/kernel/debug/sched/domains/cpu0/domain*/name 2>/dev/null | tr '\n' ' ')"
	check_eq "topology: every L2 group lies in, and is strictly smaller than, its LLC group" "$ok" 1
	cl_pick_pairs
	diag "pairs: far (same LLC, other L2) $CL_A->${CL_FAR:-none}; near (same L2) $CL_A->${CL_NEAR:-none}"
}

# --- the effect: llc vs l2 (and smt, auto) in one boot ------------------------------
t_cache_effect() {
	group "cache level: queued wakeups by level"
	cl_pick_pairs
	if [ -z "$CL_FAR" ]; then
		if cl_need_near; then
			ktap_fail "cache: two CPUs of one LLC with different L2s in a guest booted with SMT cores"
		else
			ktap_skip "cache level effect" "no two CPUs share an LLC but not an L2"
		fi
		return 0
	fi
	dmesg_mark
	st_load ratelimit_window_ns=0 cache_share_level=llc || { ktap_fail "cache level: insmod"; return 1; }
	delay_dequeue_off
	check_eq "cache: features says cache_level inactive with llc" "$(feature_state cache_level)" inactive
	check "cache: llc installs no hook" sh -c ". /st/lib.sh; ! hooked ttwu_queue_wakelist"
	cl_run llc "$CL_A" "$CL_FAR"
	llc_cal=$CL_CAL llc_wake=$CL_WAKE
	cl_run l2 "$CL_A" "$CL_FAR"
	l2_cal=$CL_CAL l2_wake=$CL_WAKE
	check "cache: l2 hooks ttwu_queue_wakelist" cl_hooked
	check_eq "cache: features says cache_level active with l2" "$(feature_state cache_level)" active
	check "cache: l2: ttwu_queued_by_level at least 90% of the wakeups, no delayed dequeue ($CL_Q of $CL_WAKE, checked $CL_C)" \
		cl_most "$CL_Q" "$CL_WAKE"
	check_eq "cache: l2: ttwu_direct_by_level stays 0" "$CL_D" 0
	# l2 must queue nearly every cross-L2 wakeup that llc did directly
	if [ "${l2_wake:-0}" -gt 0 ] && [ "$l2_cal" -ge $((2 * llc_cal)) ] &&
		[ $((l2_cal - llc_cal)) -ge $((l2_wake / 4)) ]; then
		ktap_ok "cache: CAL IPIs per wakeup higher with l2 than llc ($l2_cal/$l2_wake vs $llc_cal/$llc_wake)"
	else
		ktap_fail "cache: CAL IPIs per wakeup higher with l2 than llc ($l2_cal/$l2_wake vs $llc_cal/$llc_wake)"
	fi
	cl_run smt "$CL_A" "$CL_FAR"
	check "cache: smt: ttwu_queued_by_level at least 90% of the wakeups ($CL_Q of $CL_WAKE)" \
		cl_most "$CL_Q" "$CL_WAKE"
	llc_n=$(cl_expand "$(cl_list "$CL_A" 3)" | wc -w)
	wr cache_share_auto_llc_max $((llc_n - 1)) >/dev/null
	cl_run auto "$CL_A" "$CL_FAR"
	check "cache: auto, LLC of $llc_n > auto_llc_max $((llc_n - 1)): queued_by_level at least 90% of the wakeups ($CL_Q of $CL_WAKE)" \
		cl_most "$CL_Q" "$CL_WAKE"
	wr cache_share_auto_llc_max "$llc_n" >/dev/null
	cl_run auto "$CL_A" "$CL_FAR"
	check_eq "cache: auto, LLC of $llc_n <= auto_llc_max $llc_n: queued_by_level stays 0" "$CL_Q" 0
	wr cache_share_auto_llc_max 8 >/dev/null
	# sched feature TTWU_QUEUE off: Debian's ttwu_queue_wakelist() tests
	# it for both of its callers, so no level queues a wakeup (the
	# TTWU_QUEUE_DEFAULT patch moves it out of the on_cpu path)
	cl_feat=/sys/kernel/debug/sched/features
	[ -f $cl_feat ] || mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
	if grep -qE '(^| )TTWU_QUEUE( |$)' $cl_feat 2>/dev/null; then
		echo NO_TTWU_QUEUE >$cl_feat
		cl_run l2 "$CL_A" "$CL_FAR"
		q_off=$CL_Q
		cl_run none "$CL_A" "$CL_FAR"
		q_off="$q_off $CL_Q"
		echo TTWU_QUEUE >$cl_feat
		check_eq "cache: TTWU_QUEUE off: neither l2 nor none queues a wakeup of its own" "$q_off" "0 0"
	else
		ktap_fail "cache: TTWU_QUEUE is on in debugfs sched/features ($(cat $cl_feat 2>&1 | head -c 200))"
	fi
	if [ -n "$CL_NEAR" ]; then
		cl_run l2 "$CL_A" "$CL_NEAR"
		check "cache: l2, same-L2 pair $CL_A->$CL_NEAR: queued_by_level ~0 ($CL_Q of $CL_WAKE)" cl_few "$CL_Q" "$CL_WAKE"
		cl_run smt "$CL_A" "$CL_NEAR"
		check "cache: smt, SMT pair $CL_A->$CL_NEAR: queued_by_level ~0 ($CL_Q of $CL_WAKE)" cl_few "$CL_Q" "$CL_WAKE"
	elif cl_need_near; then
		ktap_fail "cache: a same-L2 pair in a guest booted with SMT cores (st_topology=smt)"
	else
		ktap_skip "cache: same-L2 pair stays direct" "no two CPUs share an L2"
	fi
	# the kernel's own DELAY_DEQUEUE: what the level leaves never reached it
	if delay_dequeue_on; then
		if cl_run_reached l2 "$CL_A" "$CL_FAR"; then
			check "cache: l2 with delayed dequeue: ttwu_queued_by_level at least 90% of the pair's calls of ttwu_queue_wakelist ($CL_Q of $CL_REACHED, of $CL_WAKE wakeups)" \
				cl_most "$CL_Q" "$CL_REACHED"
		else
			ktap_fail "cache: l2 with delayed dequeue: a kprobe on ttwu_queue_wakelist"
		fi
	fi
	st_unload
	check "cache: nothing of ours in enabled_functions after rmmod" sh -c ". /st/lib.sh; ! hooked ttwu_queue_wakelist && ! ours_in_ftrace"
}

# --- none: TTWU_QUEUE_DEFAULT, every pair -------------------------------------------
# cl_ipis_up LLC_CAL CAL WAKEUPS: the level added a function-call IPI to
# at least a quarter of the wakeups.  Not "at least doubled": stock
# queues the wakeups of an idle target too, and on 7.3.4 a pair came out
# at 736 against stock's 369 of 500 (1.99x, 2026-12-02).
cl_ipis_up() { [ "${3:-0}" -gt 0 ] && [ $(($2 - $1)) -ge $(($3 / 4)) ]; }
t_cache_none() {
	group "cache level: none queues every remote wakeup (TTWU_QUEUE_DEFAULT)"
	cpus=$(cl_expand "$(cat "$CPUS/online")")
	if [ "$(echo "$cpus" | wc -w)" -lt 2 ]; then
		ktap_skip "cache none" "one CPU online"
		return 0
	fi
	dmesg_mark
	st_load ratelimit_window_ns=0 cache_share_level=llc || { ktap_fail "cache none: insmod"; return 1; }
	# every pair, so half cache_effect's rounds each: the share queued
	# is a ratio, and 500 wakeups hold it well above 90% (1856 of 2000
	# at the least, 6.12.95 on a loaded host)
	cn_rounds=$CL_ROUNDS CL_ROUNDS=$((CL_ROUNDS / 2))
	delay_dequeue_off
	n_l2=0 d_sum=0
	for a in $cpus; do
		for b in $cpus; do
			[ "$b" -gt "$a" ] || continue
			if cl_in "$b" "$(cl_list "$a" 2)"; then
				kind="same L2" n_l2=$((n_l2 + 1))
			elif cl_in "$b" "$(cl_list "$a" 3)"; then kind="same LLC, other L2"
			else kind="other LLC"; fi
			cl_run llc "$a" "$b"
			llc_cal=$CL_CAL
			cl_run none "$a" "$b"
			d_sum=$((d_sum + ${CL_D:-0}))
			if [ "$kind" = "other LLC" ]; then
				# stock queues these already (llc: $llc_cal), so the
				# level leaves them to the original, uncounted
				check "cache none, $kind pair $a<->$b: CAL IPIs for at least 3/4 of the wakeups ($CL_CAL of $CL_WAKE)" \
					test "${CL_WAKE:-0}" -gt 0 -a "$CL_CAL" -ge $((${CL_WAKE:-0} * 3 / 4))
				continue
			fi
			check "cache none, $kind pair $a<->$b: queued_by_level at least 90% of the wakeups ($CL_Q of $CL_WAKE)" \
				cl_most "$CL_Q" "$CL_WAKE"
			if cl_ipis_up "$llc_cal" "$CL_CAL" "$CL_WAKE"; then
				ktap_ok "cache none, $kind pair $a<->$b: CAL IPIs per wakeup higher than llc ($CL_CAL vs $llc_cal per $CL_WAKE)"
			else
				ktap_fail "cache none, $kind pair $a<->$b: CAL IPIs per wakeup higher than llc ($CL_CAL vs $llc_cal per $CL_WAKE)"
			fi
		done
	done
	if cl_need_near && [ "$n_l2" = 0 ]; then
		ktap_fail "cache none: a same-L2 pair in a guest booted with SMT cores (st_topology=smt)"
	fi
	CL_ROUNDS=$cn_rounds
	delay_dequeue_on
	check_eq "cache none: ttwu_direct_by_level stays 0 over every pair" "$d_sum" 0
	st_unload
	check "cache none: nothing of ours in enabled_functions after rmmod" sh -c ". /st/lib.sh; ! hooked ttwu_queue_wakelist && ! ours_in_ftrace"
}

# --- bad input while the hook is live ---------------------------------------------------
t_cache_bad_input() {
	group "cache level: bad input keeps the old level"
	st_load ratelimit_window_ns=0 cache_share_level=smt || { ktap_fail "cache bad input: insmod"; return 1; }
	for b in L2 'l2 ' ' l2' LLC Auto '\n' 'l2\n\n' 'l2\t' l1 l3 smt2 'llc,l2' '[l2]' 2; do
		knob_bad cache_share_level "$b" EINVAL
	done
	check_eq "cache bad input: level still smt" "$(knob_choice cache_share_level)" smt
	check "cache bad input: hook still installed" cl_hooked
	for b in '0:ERANGE' '4097:ERANGE' 'eight:EINVAL' ' 8:EINVAL'; do
		knob_bad cache_share_auto_llc_max "${b%:*}" "${b##*:}"
	done
	st_unload
}

# --- level switches and an unload, under load -----------------------------------------------
CL_SWITCHES=$(st_arg cl_switches "$(scaled 300 40)")
t_cache_stress() {
	group "cache level: $CL_SWITCHES switches and rmmod under load"
	scaled_note "cache stress: level switches" 300 "$CL_SWITCHES"
	cl_pick_pairs
	b=${CL_FAR:-${CL_NEAR:-0}}
	dmesg_mark
	st_load ratelimit_window_ns=0 || { ktap_fail "cache stress: insmod"; return 1; }
	bg_start 100
	# ping-pong runs back to back; a lost wakeup would leave one asleep
	# until its timeout, which counts as a failure
	rm -f /tmp/pp.stop /tmp/pp.fail /tmp/pp.runs
	(while [ ! -f /tmp/pp.stop ]; do
		if timeout 120 st_pingpong "$CL_A" "$b" 200 1 >/dev/null 2>&1; then
			echo . >>/tmp/pp.runs
		else echo "rc $?" >>/tmp/pp.fail; fi
	done) &
	pp=$!
	bad=0 t0=$(now_cs)
	# every 25th switch goes to llc and back: a hook removal and an
	# install (slow under TCG); the rest republish the configuration
	# and the last to llc, whatever the count
	for i in $(seq "$CL_SWITCHES"); do
		case $((i % 25 * (CL_SWITCHES - i))):$((i % 4)) in
		0:*) l=llc ;; *:0) l=l2 ;; *:1) l=smt ;; *:2) l=none ;; *) l=auto ;;
		esac
		[ "$(wr cache_share_level $l)" = OK ] || bad=$((bad + 1))
	done
	t1=$(now_cs)
	diag "$CL_SWITCHES level switches in $(((t1 - t0) / 100)) s, queued_by_level $(stat_get ttwu_queued_by_level), checked $(stat_get ttwu_checked)"
	check_eq "cache stress: level switches under load succeed ($CL_SWITCHES)" "$bad" 0
	check_eq "cache stress: last level llc, hook gone" "$(knob_choice cache_share_level)$(cl_hooked && echo ' hooked')" llc
	wr cache_share_level l2 >/dev/null
	usleep 500000
	check "cache stress: rmmod with the hook live under load" st_unload
	usleep 500000
	touch /tmp/pp.stop
	wait "$pp"
	bg_stop
	# shellcheck disable=SC2002 # cat makes a missing file 0 runs
	pruns=$(cat /tmp/pp.runs 2>/dev/null | wc -l)
	check "cache stress: hackbench completed every run ($(bg_runs) runs)" test ! -s /tmp/bg.fail
	check "cache stress: ping-pong completed every run, no lost wakeup ($pruns runs)" test ! -s /tmp/pp.fail -a "$pruns" -gt 0
	check "cache stress: nothing of ours left in enabled_functions" sh -c ". /st/lib.sh; ! hooked ttwu_queue_wakelist && ! ours_in_ftrace"
}

# --- CPU hotplug: groups follow the kernel's masks ----------------------------------------------
t_cache_hotplug() {
	group "cache level: CPU offline/online"
	cl_pick_pairs
	if [ -z "$CL_FAR" ] || [ ! -w "$CPUS/cpu$CL_FAR/online" ]; then
		ktap_skip "cache hotplug" "no hot-pluggable far CPU"
		return 0
	fi
	dmesg_mark
	st_load ratelimit_window_ns=0 cache_share_level=l2 || { ktap_fail "cache hotplug: insmod"; return 1; }
	l2_before=$(cl_list "$CL_FAR" 2)
	bg_start 100
	ok=1
	for i in 1 2 3; do
		for c in $(cl_expand "$(cl_list 0 3)"); do
			[ "$c" = 0 ] && continue
			echo 0 >"$CPUS/cpu$c/online" || ok=0
			usleep 100000
			echo 1 >"$CPUS/cpu$c/online" || ok=0
		done
	done
	bg_stop
	check_eq "cache hotplug: offline/online of every CPU but 0, 3 times, under load" "$ok" 1
	check "cache hotplug: hackbench completed every run ($(bg_runs) runs)" test ! -s /tmp/bg.fail
	check_eq "cache hotplug: cpu$CL_FAR's L2 group rebuilt as before" "$(cl_list "$CL_FAR" 2)" "$l2_before"
	echo 0 >"$CPUS/cpu$CL_FAR/online"
	diag "cpu$CL_FAR offline: cpu0 L2 {$(cl_list 0 2)} LLC {$(cl_list 0 3)} SMT {$(cat $CPUS/cpu0/topology/thread_siblings_list)}"
	echo 1 >"$CPUS/cpu$CL_FAR/online"
	usleep 200000
	diag "cpu$CL_FAR online: L2 {$(cl_list "$CL_FAR" 2)} LLC {$(cl_list "$CL_FAR" 3)}"
	cl_run l2 "$CL_A" "$CL_FAR"
	check "cache hotplug: after re-online, l2 still queues at least 90% of $CL_A->$CL_FAR's wakeups ($CL_Q of $CL_WAKE)" \
		cl_most "$CL_Q" "$CL_WAKE"
	if cl_need_near && { [ -z "$CL_NEAR" ] || [ ! -w "$CPUS/cpu$CL_NEAR/online" ]; }; then
		ktap_fail "cache hotplug: a hot-pluggable same-L2 CPU in a guest booted with SMT cores"
	elif [ -n "$CL_NEAR" ] && [ -w "$CPUS/cpu$CL_NEAR/online" ]; then
		echo 0 >"$CPUS/cpu$CL_NEAR/online"
		echo 1 >"$CPUS/cpu$CL_NEAR/online"
		usleep 200000
		cl_run l2 "$CL_A" "$CL_NEAR"
		check "cache hotplug: after re-online, same-L2 pair $CL_A->$CL_NEAR stays direct ($CL_Q of $CL_WAKE)" cl_few "$CL_Q" "$CL_WAKE"
	fi
	st_unload
}
