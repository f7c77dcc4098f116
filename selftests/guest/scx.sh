# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# Guest tests of sched_tune beside a sched_ext scheduler (7.x kernels),
# sourced by tests.sh after lib.sh.  The scheduler is scx/st_scx_min, the
# smallest one there is: it takes every fair task (no SWITCH_PARTIAL).

SCX_PIN=/sys/fs/bpf/st_scx_min
scx_state() { cat /sys/kernel/sched_ext/state 2>/dev/null; }
scx_start() {
	mountpoint -q /sys/fs/bpf || mount -t bpf bpf /sys/fs/bpf
	/st/scx/lib/ld-linux-x86-64.so.2 --library-path /st/scx/lib \
		/st/scx/st_scx_load /st/scx/st_scx_min.bpf.o st_scx_min "$SCX_PIN"
}
# scx_wait STATE: sched_ext enables and disables from a worker thread.
scx_wait() {
	i=0
	while [ "$(scx_state)" != "$1" ] && [ "$i" -lt 300 ]; do
		usleep 100000
		i=$((i + 1))
	done
	[ "$(scx_state)" = "$1" ]
}
scx_stop() { rm -f "$SCX_PIN" && scx_wait disabled; }
# scx_off_check WHEN: with no BPF scheduler the rate limit is active and
# sees hackbench's wakeups.
scx_off_check() {
	check_eq "scx $1: ratelimit active" "$(feature_state ratelimit)" active
	wr stats/reset 1 >/dev/null
	hb 200
	c=$(stat_get ratelimit_checked)
	check "scx $1: hackbench wakeups reach the rate limit ($c)" test "${c:-0}" -gt 0
}

t_scx() {
	group "sched_ext: a BPF scheduler holding every task"
	# the only skip: a kernel without the scheduler class (Debian's 6.1
	# and 6.12); one that has it must show its sysfs directory
	if ! grep -q ' ext_sched_class$' /proc/kallsyms; then
		ktap_skip "sched_ext" "$(uname -r) is built without sched_ext (no ext_sched_class)"
		return 0
	fi
	if [ ! -d /sys/kernel/sched_ext ]; then
		ktap_fail "sched_ext: /sys/kernel/sched_ext exists on a kernel with ext_sched_class"
		return 1
	fi
	if [ ! -x /st/scx/st_scx_load ]; then
		ktap_fail "sched_ext: test scheduler built for this kernel (selftests/scx)"
		return 1
	fi
	dmesg_mark
	st_load ratelimit_window_ns=1000000000 cache_share_level=l2 ||
		{ ktap_fail "sched_ext: insmod"; return 1; }
	scx_off_check off

	check "scx: st_scx_min starts" scx_start
	check "scx: /sys/kernel/sched_ext/state says enabled" scx_wait enabled
	diag "  sched_ext: state $(scx_state), ops $(cat /sys/kernel/sched_ext/root/ops 2>/dev/null)"
	check_eq "scx on: ratelimit idle" "$(feature_state ratelimit)" idle
	diag "  ratelimit: $(feature_reason ratelimit)"
	check "scx on: ratelimit's reason names sched_ext" grep -q sched_ext "$ST/features/ratelimit/reason"
	check_eq "scx on: cache_level still active (real-time wakeups)" "$(feature_state cache_level)" active
	diag "  cache_level: $(feature_reason cache_level)"
	check "scx on: cache_level's reason says sched_ext tasks keep stock" grep -q sched_ext "$ST/features/cache_level/reason"
	wr stats/reset 1 >/dev/null
	hb 200
	check_eq "scx on: hackbench wakeups never reach select_task_rq_fair (ratelimit_checked)" \
		"$(stat_get ratelimit_checked)" 0
	check_eq "scx on: no migration stamped by migrate_task_rq_fair" \
		"$(stat_get ratelimit_migrations_stamped)" 0
	diag "  scx on: ttwu_checked $(stat_get ttwu_checked), ttwu_queued_by_level $(stat_get ttwu_queued_by_level)"
	check_eq "scx on: the level queues none of the sched_ext tasks' wakeups" \
		"$(stat_get ttwu_queued_by_level)" 0

	check "scx: st_scx_min stops" scx_stop
	scx_off_check "off again"
	check "scx: rmmod" st_unload
}
