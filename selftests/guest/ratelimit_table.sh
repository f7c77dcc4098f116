# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# The rate limit's table of stamps (module/ratelimit.c), sourced by
# tests.sh after lib.sh: the stamps lost to a shared slot are counted
# (stats/ratelimit_stamps_lost).

# Many tasks migrating inside a 1 s window: with 32768 slots indexed by
# task pointer, about THREADS^2 / 65536 pairs share a slot, and a stamp
# that replaces another task's live one (or finds the slot being written)
# is counted in ratelimit_stamps_lost.
RT_THREADS=$(st_arg rt_threads 2048)
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
	out=$(timeout 900 st_crowd "$RT_THREADS" 4 2>&1)
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
	check_no_splat "slots: no splat"
}
