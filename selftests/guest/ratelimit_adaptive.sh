# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# ratelimit_mode=adaptive (patch 2/2 of the rate-limit series), sourced by
# tests.sh after lib.sh: the quota's halving and recovery seen in stats/,
# with one task that migrates by affinity (helpers/st_hopper.c).

# A window long enough that a burst of hops under TCG stays inside it.
RA_WINDOW=$(st_arg ra_window_ns 500000000)
RA_HOPS=20
RA_SINGLES=11

# ra_hop: runs st_hopper for 2 bursts and RA_SINGLES single hops and
# sets RA_H1 RA_R1 (bursts: halved, replenished), RA_H2 RA_R2 (single
# hops), RA_LONG (longest burst, ns) and RA_MIG (migrations); all empty
# when it failed or printed anything but numbers there.
ra_hop() {
	RA_H1='' RA_R1='' RA_H2='' RA_R2='' RA_LONG='' RA_MIG=''
	out=$(timeout 120 st_hopper 0 1 "$RA_WINDOW" 2 "$RA_HOPS" "$RA_SINGLES" "$ST/stats") ||
		{ diag "st_hopper failed: $out"; return; }
	diag "  st_hopper: $out"
	read -r h1 r1 h2 r2 long mig <<-EOF
	$(echo "$out" | awk '$1 == "bursts" { print $4, $6, $10, $12, $14, $16 }')
	EOF
	for v in "$h1" "$r1" "$h2" "$r2" "$long" "$mig"; do
		case $v in '' | *[!0-9]*) return ;; esac
	done
	RA_H1=$h1 RA_R1=$r1 RA_H2=$h2 RA_R2=$r2 RA_LONG=$long RA_MIG=$mig
}

# With the patch's quota 10: burst 1 opens a window at the full quota,
# burst 2's first hop finds it used up (10 -> 5), the first single hop
# finds burst 2's used up (5 -> 2), and each of the next 8 single hops
# finds its window below quota (2 -> 3 ... -> 10).  Other tasks can only
# add to the counters, so the checks are lower bounds; fixed mode keeps
# no quota and must count none.
t_ratelimit_adaptive() {
	group "rate limit: adaptive quota"
	st_load cache_share_level=llc numa_scan_threshold=0 ratelimit_window_ns="$RA_WINDOW" ||
		{ ktap_fail "adaptive: insmod"; return 1; }
	check_eq "adaptive: ratelimit_mode reads 'fixed' on load (today's limit)" "$(knob ratelimit_mode)" "[fixed] adaptive"
	if ! supported ratelimit; then
		check_eq "adaptive: unsupported ratelimit refuses adaptive" "$(wr ratelimit_mode adaptive)" EOPNOTSUPP
		st_unload
		return
	fi
	diag "st_hopper: cpu0 <-> cpu1, window $RA_WINDOW ns, 2 bursts of $RA_HOPS hops, then $RA_SINGLES single hops, 1.5 windows apart"
	ra_hop
	check_eq "adaptive: fixed mode counts no quota halving or replenishment" "${RA_H1:-x} ${RA_R1:-x} ${RA_H2:-x} ${RA_R2:-x}" "0 0 0 0"

	check_eq "adaptive: ratelimit_mode=adaptive accepted" "$(wr ratelimit_mode adaptive)" OK
	check_eq "adaptive: reads 'fixed [adaptive]'" "$(knob ratelimit_mode)" "fixed [adaptive]"
	check_eq "adaptive: quota 10 and replenish 1 by default (patch 2/2)" \
		"$(knob ratelimit_quota) $(knob ratelimit_quota_replenish)" "10 1"
	# patch 2/2 reads the new CPU's clock as well only when it is unstable
	check "adaptive: the sched clock's stability, __sched_clock_stable, is in kallsyms" \
		grep -q ' __sched_clock_stable$' /proc/kallsyms
	diag "sched clock: $(dmesg | grep -m1 'sched_clock: Marking' || echo 'no Marking line in dmesg')"
	ra_hop
	diag "adaptive: bursts halved ${RA_H1:-?} replenished ${RA_R1:-?}; single hops halved ${RA_H2:-?} replenished ${RA_R2:-?}; longest burst ${RA_LONG:-?} ns; ${RA_MIG:-?} migrations"
	# A burst that outlasted its window (the guest starved by its host)
	# leaves a last window below quota: the first single hop then gives
	# one back where it would have halved, and the walk from 2 to 10
	# is shorter.  The counts below hold for bursts inside their window:
	# such a run is done again, once.
	if [ "${RA_LONG:-0}" -ge "$RA_WINDOW" ]; then
		diag "adaptive: a burst outlasted the window (a starved guest): once more"
		ra_hop
		diag "adaptive, again: bursts halved ${RA_H1:-?} replenished ${RA_R1:-?}; single hops halved ${RA_H2:-?} replenished ${RA_R2:-?}; longest burst ${RA_LONG:-?} ns; ${RA_MIG:-?} migrations"
	fi
	h=$((${RA_H1:-0} + ${RA_H2:-0}))
	check "adaptive: used-up windows halve the quota (10 -> 5 -> 2: at least 2 halvings, got $h)" \
		test -n "$RA_H1" -a "$h" -ge 2
	check "adaptive: windows below quota give one back each (2 -> 10: at least 8 replenishments in the single hops, got ${RA_R2:-none})" \
		test "${RA_R2:-0}" -ge 8
	check "adaptive: every hop migrated (${RA_MIG:-none} migrations for $((2 * RA_HOPS + RA_SINGLES)) hops)" \
		test "${RA_MIG:-0}" -ge $((2 * RA_HOPS + RA_SINGLES))

	# the same task with quota 1: never halved, and never given back
	wr ratelimit_quota 1 >/dev/null
	ra_hop
	check_eq "adaptive: quota 1 is neither halved nor replenished (the opening migration uses it)" \
		"${RA_H1:-x} ${RA_R1:-x} ${RA_H2:-x} ${RA_R2:-x}" "0 0 0 0"
	wr ratelimit_quota 10 >/dev/null

	# the decision: a wakeup of a task over its quota stays on prev
	schedstats=$(cat /proc/sys/kernel/sched_schedstats)
	echo 1 >/proc/sys/kernel/sched_schedstats
	wr ratelimit_window_ns 1000000000 >/dev/null
	k0=$(stat_get ratelimit_kept_prev_cpu) k0=${k0:-0}
	wakemig /tmp/ra.wm 100 1000000000 || diag "st_wakemig failed: $(cat /tmp/ra.wm)"
	k1=$(stat_get ratelimit_kept_prev_cpu) k1=${k1:-0}
	echo "$schedstats" >/proc/sys/kernel/sched_schedstats
	diag "adaptive, window 1 s: st_wakemig $(cat /tmp/ra.wm); ratelimit_kept_prev_cpu +$((k1 - k0))"
	check "adaptive: wakeups over the quota kept on the previous cpu (ratelimit_kept_prev_cpu +$((k1 - k0)))" \
		test $((k1 - k0)) -gt 0
	check_eq "adaptive: back to fixed" "$(wr ratelimit_mode fixed)" OK
	st_unload
}
