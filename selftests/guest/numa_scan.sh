# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash # busybox ash: dash is the nearest shell shellcheck checks
# Guest tests of the NUMA scan threshold, sourced by tests.sh
# after lib.sh.  The effect needs a guest with two NUMA nodes (qemu -numa)
# and NUMA balancing on; the workload is st_numa_work, threads on every
# CPU each touching only their own VMAs (numa01_THREAD_ALLOC-like).

NS_SECS=$(st_arg ns_secs 8)
NS_REPS=$(st_arg ns_reps 1)
NS_ROUNDS=$(st_arg ns_rounds 10)
NS_THREADS=$(st_arg ns_threads $(($(nproc) * 4)))
NS_MB=$(st_arg ns_mb 16)
NS_DBG=/sys/kernel/debug/sched/numa_balancing

# shellcheck disable=SC2012 # sysfs node names are plain words
ns_nodes() { ls -d /sys/devices/system/node/node[0-9]* 2>/dev/null | wc -l; }
ns_vmstat() { awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat; }
# More threads than CPUs: stock 6.12 forces a scan of an unaccessed VMA
# only after as many sequences as the process has threads.
# (a run that outlives its seconds by 2 minutes is killed and fails)
ns_work() {
	timeout $((${1:-$NS_SECS} + 120)) st_numa_work "${1:-$NS_SECS}" "$NS_THREADS" "$NS_MB" 2 >/tmp/ns.out 2>&1
}

# Scanning as often as the kernel allows, so a few seconds of TCG time
# see several scan sequences; ns_scan_restore puts the periods back.
ns_fast_scan() {
	[ -d "$NS_DBG" ] || mount -t debugfs debugfs /sys/kernel/debug 2>/dev/null
	NS_SCAN_OLD=
	for f in scan_delay_ms:100 scan_period_min_ms:100 scan_period_max_ms:400; do
		NS_SCAN_OLD="$NS_SCAN_OLD ${f%%:*}:$(cat "$NS_DBG/${f%%:*}" 2>/dev/null)"
		echo "${f#*:}" >"$NS_DBG/${f%%:*}" 2>/dev/null
	done
	diag "numa_balancing=$(cat /proc/sys/kernel/numa_balancing)" \
		"scan_delay_ms=$(cat $NS_DBG/scan_delay_ms 2>/dev/null)" \
		"scan_period_min_ms=$(cat $NS_DBG/scan_period_min_ms 2>/dev/null)" \
		"scan_size_mb=$(cat $NS_DBG/scan_size_mb 2>/dev/null)"
}

ns_scan_restore() {
	for f in $NS_SCAN_OLD; do echo "${f#*:}" >"$NS_DBG/${f%%:*}" 2>/dev/null; done
	NS_SCAN_OLD=
}

# The stock tracepoint of task_numa_work's VMA skips, which the module's
# copy cannot fire (not exported to modules).
NS_EV=$TR/events/sched/sched_skip_vma_numa

# ns_run THRESHOLD: one workload run; sets NS_PTE, NS_HINT (vmstat deltas)
# NS_CHK, NS_ALW, NS_SKP (stats) and NS_EVN (sched_skip_vma_numa events in
# the trace, where enabled).
ns_run() {
	wr numa_scan_threshold "$1" >/dev/null
	wr stats/reset 1 >/dev/null
	: >"$TR/trace" 2>/dev/null
	p0=$(ns_vmstat numa_pte_updates) h0=$(ns_vmstat numa_hint_faults)
	ns_work
	NS_RC=$?
	NS_EVN=$(grep -c 'sched_skip_vma_numa:' "$TR/trace" 2>/dev/null)
	NS_PTE=$(($(ns_vmstat numa_pte_updates) - p0))
	NS_HINT=$(($(ns_vmstat numa_hint_faults) - h0))
	NS_CHK=$(stat_get numa_vma_checked) NS_ALW=$(stat_get numa_vma_allowed_by_threshold)
	NS_SKP=$(stat_get numa_vma_skipped)
	diag "$(printf 'threshold %3s: numa_pte_updates %8s numa_hint_faults %6s | vma checked %5s allowed_by_threshold %5s skipped %5s | %s' \
		"$1" "$NS_PTE" "$NS_HINT" "$NS_CHK" "$NS_ALW" "$NS_SKP" "$(cat /tmp/ns.out)")"
}

t_numa_unsupported() {
	group "numa_scan: unsupported kernel"
	dmesg_mark
	st_load || { ktap_fail "insmod"; return; }
	check_eq "numa_scan: features says unsupported" "$(feature_state numa_scan)" unsupported
	diag "  numa_scan: $(feature_reason numa_scan)"
	check "numa_scan: features/numa_scan/reason names the kernel and the checked series" \
		sh -c "grep -q '$(uname -r).*6.12, 7.3' $ST/features/numa_scan/reason"
	check_eq "numa_scan_threshold reads its stock value 0" "$(knob numa_scan_threshold)" 0
	check_eq "numa_scan_threshold=50 fails with EOPNOTSUPP" "$(wr numa_scan_threshold 50)" EOPNOTSUPP
	check_eq "numa_scan_renew=8 fails with EOPNOTSUPP" "$(wr numa_scan_renew 8)" EOPNOTSUPP
	check_eq "ratelimit still works beside it" "$(feature_state ratelimit)" active
	# this load's line, not one of an earlier load (feat_probe's)
	check_eq "one dmesg line since this load says numa_scan is unsupported" \
		"$(dmesg_new | grep -c 'feature numa_scan unsupported')" 1
	st_unload
}

t_numa_effect() {
	group "numa_scan: threshold 0 vs 50 (${NS_REPS}x${NS_SECS}s)"
	dmesg_mark
	# numa_scan_renew=1: every VMA's count is 0 at each test of every
	# sequence but the first.  At the default 16 a run never reaches
	# sequence 16 (2-7 sequences in 8 s on 6.12.95 under TCG, counted in
	# /proc/PID/sched) and the threshold allowed 3-23 scans a run; with 1
	# it allowed 217-380 a run on 6.12.95 and 261-306 on 7.3.4, so
	# "grows" has a margin of over 100x (t_numa_renew compares them)
	st_load numa_scan_threshold=0 numa_scan_renew=1 || { ktap_fail "insmod"; return; }
	check_eq "threshold 0: numa_scan inactive" "$(feature_state numa_scan)" inactive
	check "threshold 0: task_numa_work not hooked" not hooked task_numa_work
	wr numa_scan_threshold 50 >/dev/null
	check_eq "threshold 50: numa_scan active" "$(feature_state numa_scan)" active
	check "threshold 50: task_numa_work hooked" hooked task_numa_work
	ns_fast_scan
	ns_work 3	# warm-up: the scan delay of a new mm
	alw0=0 alw50=0 chk50=0 rc=0 i=0 pte0='' pte50='' hint0='' hint50=''
	ev0=0 ev50=0
	check "the stock tracepoint sched_skip_vma_numa can be enabled" \
		sh -c "echo 1 >$NS_EV/enable"
	diag "figures under qemu TCG, not hardware; counts per run of ${NS_SECS}s, $NS_THREADS threads x ${NS_MB} MB in 2 VMAs each, numa_scan_renew=1"
	while [ "$i" -lt "$NS_REPS" ]; do
		for thr in 0 50; do
			ns_run $thr
			rc=$((rc | NS_RC))
			eval "pte$thr=\"\${pte$thr:-} $NS_PTE\" hint$thr=\"\${hint$thr:-} $NS_HINT\""
			if [ "$thr" = 0 ]; then alw0=$((alw0 + NS_ALW)) ev0=$((ev0 + ${NS_EVN:-0})); else
				alw50=$((alw50 + NS_ALW)) chk50=$((chk50 + NS_CHK)) ev50=$((ev50 + ${NS_EVN:-0})); fi
		done
		i=$((i + 1))
	done
	echo 0 >"$NS_EV/enable" 2>/dev/null
	diag "sched_skip_vma_numa events, threshold 0: $ev0 | threshold 50: $ev50"
	diag "numa_pte_updates, threshold 0:$pte0 | threshold 50:$pte50"
	diag "numa_hint_faults, threshold 0:$hint0 | threshold 50:$hint50"
	check_eq "workload runs completed" "$rc" 0
	check_eq "threshold 0: numa_vma_allowed_by_threshold stays 0" "$alw0" 0
	check "threshold 50: the hook made access tests ($chk50)" test "$chk50" -gt 0
	check "threshold 50: numa_vma_allowed_by_threshold grows ($alw50 in $NS_REPS runs)" test "$alw50" -gt 0
	check "threshold 0: stock task_numa_work fires sched_skip_vma_numa ($ev0)" test "$ev0" -gt 0
	check_eq "threshold 50: the copy fires no sched_skip_vma_numa (not exported to modules)" "$ev50" 0
	st_unload
	ns_scan_restore
}

t_numa_stress() {
	group "numa_scan: toggle, disable, unload x$NS_ROUNDS under the workload"
	dmesg_mark
	st_load || { ktap_fail "insmod"; return; }
	ns_fast_scan
	ns_work $((NS_ROUNDS * 3)) &
	w=$!
	i=0 bad=0
	while [ "$i" -lt "$NS_ROUNDS" ]; do
		[ "$(wr numa_scan_threshold 0)" = OK ] || bad=$((bad + 1))
		[ "$(wr numa_scan_threshold 50)" = OK ] || bad=$((bad + 1))
		i=$((i + 1))
	done
	check_eq "threshold toggled $NS_ROUNDS times: every write OK" "$bad" 0
	i=0 bad=0
	while [ "$i" -lt "$NS_ROUNDS" ]; do
		[ "$(wr enabled 0)" = OK ] || bad=$((bad + 1))
		hooked task_numa_work && bad=$((bad + 1))
		[ "$(wr enabled 1)" = OK ] || bad=$((bad + 1))
		i=$((i + 1))
	done
	check_eq "enabled 0/1 $NS_ROUNDS times: hook gone at 0, writes OK" "$bad" 0
	i=0 bad=0
	while [ "$i" -lt "$NS_ROUNDS" ]; do
		st_unload || bad=$((bad + 1))
		st_load || bad=$((bad + 1))
		i=$((i + 1))
	done
	check_eq "unload/load $NS_ROUNDS times with the hook live" "$bad" 0
	st_unload
	check "nothing of ours in enabled_functions" not ours_in_ftrace
	wait "$w"
	check_eq "workload ended normally" "$?" 0
	ns_scan_restore
}

# On one node NUMA balancing is off by default: the kernel never runs
# task_numa_work, and the feature says so; turned on by hand, it runs.
t_numa_idle() {
	group "numa_scan: idle while NUMA balancing is off"
	nb=$(cat /proc/sys/kernel/numa_balancing)
	echo 0 >/proc/sys/kernel/numa_balancing
	st_load || { ktap_fail "insmod"; echo "$nb" >/proc/sys/kernel/numa_balancing; return; }
	check_eq "balancing off: numa_scan idle, hook in" "$(feature_state numa_scan)" idle
	check "balancing off: task_numa_work hooked" hooked task_numa_work
	diag "  numa_scan: $(feature_reason numa_scan)"
	check "balancing off: the reason says NUMA balancing is off" \
		grep -q "NUMA balancing is off" "$ST/features/numa_scan/reason"
	echo 1 >/proc/sys/kernel/numa_balancing
	check_eq "balancing on by hand: numa_scan active" "$(feature_state numa_scan)" active
	echo "$nb" >/proc/sys/kernel/numa_balancing
	st_unload
}

t_numa_scan() {
	if ! supported numa_scan; then
		t_numa_unsupported
	elif [ "$(ns_nodes)" -lt 2 ]; then
		t_numa_idle
	else
		t_numa_effect
		t_numa_stress
	fi
}

# ns_two_nodes WHAT: the two-node boot's units run where numa_scan is
# supported (run.sh boots it nowhere else); one node there is a boot that
# went wrong, not a kernel without the feature.
ns_two_nodes() {
	if ! supported numa_scan; then
		ktap_skip "$1" "numa_scan unsupported on $(uname -r): $(feature_reason numa_scan)"
		return 1
	fi
	[ "$(ns_nodes)" -ge 2 ] && return 0
	ktap_fail "$1: two NUMA nodes in the two-node boot ($(ns_nodes))"
	return 1
}

# 7.3's task_numa_work returns early for a task whose cpuset allows one
# node (its memory cannot move); 6.12's has no such rule.  Each copy must
# do what its own series' stock code does: compared with the same
# workload outside the cpuset, in the same boot.
CG=/sys/fs/cgroup
ns_run_in_cgroup() {
	sh -c "$IN_CGROUP" sh "$CG/st_one_node" timeout $((NS_SECS + 120)) st_numa_work "$NS_SECS" "$NS_THREADS" "$NS_MB" 2 >/tmp/ns.out 2>&1
}
t_numa_cpuset() {
	group "numa_scan: a task confined to one node by its cpuset"
	ns_two_nodes "numa_scan cpuset rule" || return 0
	mountpoint -q $CG || mount -t cgroup2 none $CG
	echo +cpuset >$CG/cgroup.subtree_control 2>/dev/null
	mkdir -p $CG/st_one_node
	check "cpuset: a cgroup with cpuset.mems=0" sh -c "echo 0 >$CG/st_one_node/cpuset.mems"
	dmesg_mark
	st_load numa_scan_threshold=50 || { ktap_fail "insmod"; return; }
	ns_fast_scan
	ns_work 3
	# ns_cpuset_run WHERE: one run, free or confined; sets CS_RC, CS_CHK
	ns_cpuset_run() {
		wr stats/reset 1 >/dev/null
		p0=$(ns_vmstat numa_pte_updates)
		if [ "$1" = free ]; then ns_work; else ns_run_in_cgroup; fi
		CS_RC=$?
		CS_CHK=$(stat_get numa_vma_checked)
		diag "  $1: $(cat /tmp/ns.out); numa_pte_updates $(($(ns_vmstat numa_pte_updates) - p0)), numa_vma_checked $CS_CHK [qemu TCG]"
	}
	ns_cpuset_run free
	rc_free=$CS_RC chk_free=$CS_CHK
	ns_cpuset_run confined
	rc_confined=$CS_RC chk_confined=$CS_CHK
	check_eq "cpuset: both workload runs completed" "$rc_free$rc_confined" 00
	check "cpuset: the free run was scanned (numa_vma_checked $chk_free)" test "$chk_free" -gt 0
	case $(uname -r) in
	7.*)
		check "7.x copy: the confined run is not scanned, as in stock 7.3 ($chk_confined vs $chk_free checks)" \
			test $((chk_confined * 20)) -le "$chk_free" ;;
	*)
		check "6.12 copy: the confined run is scanned as in stock 6.12 ($chk_confined vs $chk_free checks)" \
			test $((chk_confined * 4)) -ge "$chk_free" ;;
	esac
	st_unload
	ns_scan_restore
	rmdir $CG/st_one_node
}

# numa_scan_renew: 0 never renews a VMA's count, so once its threshold is
# spent an unaccessed VMA stays refused; 1 renews it at every test of
# every sequence but the first.
t_numa_renew() {
	group "numa_scan: numa_scan_renew changes what the threshold allows"
	ns_two_nodes "numa_scan_renew" || return 0
	dmesg_mark
	st_load numa_scan_threshold=50 numa_scan_renew=0 || { ktap_fail "insmod"; return; }
	ns_fast_scan
	ns_work 3
	wr numa_scan_renew 0 >/dev/null
	ns_run 50
	alw_0=$NS_ALW rc_0=$NS_RC
	diag "  renew 0: allowed_by_threshold $NS_ALW of $NS_CHK checks [qemu TCG]"
	wr numa_scan_renew 1 >/dev/null
	ns_run 50
	alw_1=$NS_ALW rc_1=$NS_RC
	diag "  renew 1: allowed_by_threshold $NS_ALW of $NS_CHK checks [qemu TCG]"
	check_eq "renew: both workload runs completed" "$rc_0$rc_1" 00
	check "renew 1 allows more unaccessed scans than renew 0 ($alw_1 vs $alw_0)" \
		test "$alw_1" -gt $((alw_0 * 2))
	st_unload
	ns_scan_restore
}
