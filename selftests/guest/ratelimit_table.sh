# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# The rate limit's table of stamps (module/ratelimit.c), sourced by
# tests.sh after lib.sh and claims.sh: a window change waits for the
# stamps of the old window before it forgets the table, and the stamps
# lost to a shared slot are counted (stats/ratelimit_stamps_lost).

RT_TABLE=/sys/kernel/debug/sched_tune/ratelimit_table
# how long a delayed stamp waits at most (test_stamp_delay: until 100 ms
# after the window's change), and rounds of it
RT_DELAY_US=$(st_arg rt_delay_us 1000000)
RT_ROUNDS=$(st_arg rt_rounds 3)

# rt_field NAME: a number of debugfs ratelimit_table ("slots N live L
# longest_ms M delaying D full F").
rt_field() { awk -v k="$1" '{ for (i = 1; i < NF; i++) if ($i == k) print $(i + 1) }' "$RT_TABLE" 2>/dev/null; }
# rt_hop [exec]: one hop of st_hopper, cpu0 -> cpu1, then 300 ms asleep
# on cpu1; "exec" in a background job, so that $! is st_hopper's
rt_hop() { ${1:-} taskset -c 0 st_hopper 0 1 200000000 0 0 1 "$ST/stats" >/tmp/rt.hop 2>&1; }
# rt_wait_delaying N SECS: until N stamps wait in test_stamp_delay, for
# SECS seconds of guest time.  Shell builtins only, so that the poll sees
# a stamp waiting in a guest slowed to a few percent (a 300 ms wait was
# missed twice: f67a463's direct_hooks=0 boot at a pace of 4%, fdb63b5's
# CI on 6.1); the table's read, 32768 slots, paces the loop.  Leaves the
# reads in rt_reads and the longest time between two, in centiseconds,
# in rt_gap.
rt_wait_delaying() {
	read -r rt_t0 _ </proc/uptime
	rt_reads=0 rt_gap=0 rt_prev=${rt_t0%.*}${rt_t0#*.}
	while :; do
		rt_d=
		read -r _ _ _ _ _ _ _ rt_d _ <"$RT_TABLE" 2>/dev/null
		rt_reads=$((rt_reads + 1))
		[ "$rt_d" = "$1" ] && return 0
		read -r rt_t _ </proc/uptime
		rt_now=${rt_t%.*}${rt_t#*.}
		[ $((rt_now - rt_prev)) -le "$rt_gap" ] || rt_gap=$((rt_now - rt_prev))
		rt_prev=$rt_now
		[ "${rt_t%.*}" -lt $((${rt_t0%.*} + $2)) ] || return 1
	done
}

# A migration of st_hopper waits between reading the configuration and
# stamping (test_stamp_delay, IRQs off, the rq lock held) until 100 ms
# after a new configuration is published, RT_DELAY_US at most; taskset
# starts it on cpu0 (as taskset, not delayed) and it hops once.  While
# that stamp waits with the 1 s window, the window goes to 1 ms: once the
# delayed stamp is done, no stamp may hold for more than the new window
# (2 jiffies, 8 ms at HZ=250: 100 ms allowed).  Without a grace period
# before the table is forgotten, the delayed stamp lands after it with
# the old window: about 1000 ms left.
#
# A CPU that waits for cpu0 while the stamp holds it (an IPI's answer,
# its runqueue lock) waits the whole delay; when it is the poll's, the
# delay runs its full RT_DELAY_US (debugfs "full"; a first hop with no
# write checks that it counts) before the window write lands.  Such a
# try tests nothing, and another hop is tried, RT_ROUNDS more at most;
# a hop whose stamp never waited at all is a failure.
t_ratelimit_reconfig() {
	group "rate limit: a window change waits for stamps of the old window"
	if ! supported ratelimit; then
		ktap_skip "ratelimit reconfigure" "ratelimit unsupported on this kernel"
		return 0
	fi
	dmesg_mark
	if ! check "reconfigure: insmod test_stamp_delay=st_hopper:$RT_DELAY_US" \
		st_load "test_stamp_delay=st_hopper:$RT_DELAY_US" ratelimit_window_ns=1000000000 \
		cache_share_level=llc numa_scan_threshold=0; then
		dmesg_new | tail -n 5 | sed 's/^/#   dmesg: /'
		return 1
	fi
	check_eq "reconfigure: debugfs ratelimit_table has the table's 32768 slots" "$(rt_field slots)" 32768
	# the poll away from cpu0 and cpu1: the delayed stamp spins there
	# with IRQs off and its runqueue locked, and a shell queued behind
	# it stays there until it is done (round 3 of a 6.1 boot saw none
	# in 20 s, 2026-12-05)
	taskset -p -c 2-$(($(nproc) - 1)) $$ >/dev/null
	# first a hop no write interrupts: its delay runs its full length
	full=$(rt_field full)
	rt_hop
	check_eq "reconfigure: a stamp no write interrupts waits its full delay (${RT_DELAY_US} us)" \
		"$(($(rt_field full) - full))" 1
	bad=0 waited=0 done=0 try=0 unseen=0 undelayed=0
	while [ "$done" -lt "$RT_ROUNDS" ] && [ "$try" -lt $((2 * RT_ROUNDS)) ]; do
		try=$((try + 1))
		wr ratelimit_window_ns 1000000000 >/dev/null
		full=$(rt_field full)
		# its stamp delayed; asleep on cpu1 after, no later stamp of
		# its own covers the delayed one
		rt_hop exec &
		hop=$!
		if ! rt_wait_delaying 1 20; then
			kill "$hop" 2>/dev/null
			wait "$hop"
			full=$(($(rt_field full) - full))
			diag "try $try: no delayed stamp seen in 20 s: $rt_reads reads, at most $(secs 0 "$rt_gap") s apart; delays that ran their full ${RT_DELAY_US} us: $full"
			if [ "$full" = 1 ]; then
				unseen=$((unseen + 1))
			else
				undelayed=$((undelayed + 1))
			fi
			continue
		fi
		t0=$(now_cs)
		w=$(wr ratelimit_window_ns 1000000)
		t1=$(now_cs)
		rt_wait_delaying 0 20
		longest=$(rt_field longest_ms)
		live=$(rt_field live)
		kill "$hop" 2>/dev/null
		wait "$hop"
		if [ "$(rt_field full)" != "$full" ]; then
			diag "try $try: the window write ($w) landed after the delay had run its full ${RT_DELAY_US} us"
			unseen=$((unseen + 1))
			continue
		fi
		diag "try $try: window 1 s -> 1 ms written ($w) in $(secs "$t0" "$t1") s while a stamp waited; after it, $live live stamps, the longest $longest ms ahead"
		[ "$w" = OK ] || bad=$((bad + 1))
		[ "${longest:-9999}" -le 100 ] || waited=$((waited + 1))
		done=$((done + 1))
	done
	taskset -p -c 0-$(($(nproc) - 1)) $$ >/dev/null
	diag "reconfigure: $try tries, $done caught, $unseen delays ran their full length before a write"
	check_eq "reconfigure: a delayed stamp was caught in every round ($RT_ROUNDS rounds, $((2 * RT_ROUNDS)) tries at most)" "$done" "$RT_ROUNDS"
	check_eq "reconfigure: every try's hop had its stamp delayed" "$undelayed" 0
	check_eq "reconfigure: every window write works" "$bad" 0
	check_eq "reconfigure: no stamp of the old 1 s window outlives the change to 1 ms (rounds with one)" "$waited" 0
	check "reconfigure: rmmod" st_unload
}

# Many tasks migrating inside a 1 s window: with 32768 slots indexed by
# task pointer, about THREADS^2 / 65536 pairs share a slot, and a stamp
# that replaces another task's live one (or finds the slot being written)
# is counted in ratelimit_stamps_lost.
RT_THREADS=$(st_arg rt_threads 4096)
t_ratelimit_slots() {
	group "rate limit: stamps lost to a shared slot"
	if ! supported ratelimit; then
		ktap_skip "ratelimit_stamps_lost" "ratelimit unsupported on this kernel"
		return 0
	fi
	st_load ratelimit_window_ns=1000000000 cache_share_level=llc numa_scan_threshold=0 ||
		{ ktap_fail "slots: insmod"; return 1; }
	check_eq "slots: ratelimit_stamps_lost starts at 0" "$(stat_get ratelimit_stamps_lost)" 0
	l0=$(stat_get ratelimit_stamps_lost) s0=$(stat_get ratelimit_migrations_stamped)
	t0=$(now_cs)
	out=$(timeout 420 st_crowd "$RT_THREADS" 4 2>&1)
	rc=$?
	t1=$(now_cs)
	l1=$(stat_get ratelimit_stamps_lost) s1=$(stat_get ratelimit_migrations_stamped)
	diag "st_crowd $RT_THREADS threads, 4 hops each: $out (exit $rc) in $(secs "$t0" "$t1") s; stamped +$((s1 - s0)), lost +$((l1 - l0)); about $((RT_THREADS * RT_THREADS / 65536)) pairs of tasks share a slot"
	check "slots: st_crowd's $RT_THREADS threads all hopped" test "$rc" = 0
	check "slots: the hops were stamped (+$((s1 - s0)) for $((RT_THREADS * 4)) hops)" \
		test $((s1 - s0)) -ge $((RT_THREADS * 4))
	check "slots: ratelimit_stamps_lost grew with $RT_THREADS tasks migrating (+$((l1 - l0)))" \
		test $((l1 - l0)) -gt 0
	check "slots: rmmod" st_unload
}
