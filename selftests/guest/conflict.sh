# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# Guest unit: sched_tune next to an IPMODIFY ftrace user (livepatch is
# one) on the same function.  /st/st_ipmodify.ko (selftests/kmod) is such
# a user whose callback changes nothing.  Whichever registers second is
# refused (ftrace's EBUSY; sched_tune then calls the feature unsupported),
# and never may both be on the function.

ours_on_either() { ours_on "$1" || ours_on "$2"; }
theirs_on() {
	grep -A1 "^$1 " "$TR/enabled_functions" 2>/dev/null | grep -q '\[st_ipmodify\]'
}
ipm_load() { /sbin/insmod /st/st_ipmodify.ko func="$1"; }
ipm_unload() { grep -q '^st_ipmodify ' /proc/modules && /sbin/rmmod st_ipmodify; true; }

t_ipmodify_conflict() {
	group "IPMODIFY ftrace user on a hooked function"
	# make check builds it for every booted kernel (strunner/kjob.py): missing,
	# the build or the image failed, not the kernel
	if [ ! -f /st/st_ipmodify.ko ]; then
		ktap_fail "IPMODIFY conflict: /st/st_ipmodify.ko is in the image (selftests/kmod)"
		return 1
	fi
	dmesg_mark
	# it first: our hooks are refused, all or nothing
	check "st_ipmodify registers on select_task_rq_fair" ipm_load select_task_rq_fair
	check "sched_tune loads with ratelimit_window_ns=0 next to it" st_load ratelimit_window_ns=0
	check_eq "ratelimit_window_ns=2000000 refused with EOPNOTSUPP" "$(wr ratelimit_window_ns 2000000)" EOPNOTSUPP
	check_eq "ratelimit_window_ns still 0" "$(knob ratelimit_window_ns)" 0
	check_eq "ratelimit now unsupported" "$(feature_state ratelimit)" unsupported
	diag "  ratelimit: $(feature_reason ratelimit)"
	check "its reason names select_task_rq_fair and the other ftrace user" \
		grep -q 'select_task_rq_fair is already redirected by another ftrace user' "$ST/features/ratelimit/reason"
	check "sched_tune on neither select_task_rq_fair nor migrate_task_rq_fair" \
		not ours_on_either select_task_rq_fair migrate_task_rq_fair
	check "st_ipmodify still on select_task_rq_fair" theirs_on select_task_rq_fair
	diag "  $(dmesg_new | grep -E 'sched_tune: .*(hook|ratelimit_window_ns)' | tail -n 3 | tr '\n' ';')"
	st_cleanup
	ipm_unload
	# we first: it is refused.  The refusal above went through
	# register_ftrace_direct() (direct hooks) or register_ftrace_function();
	# a direct entry left behind by the refused call would make this
	# registration on the same function fail with EBUSY, as on 6.6+
	# before "ftrace: Fix BPF fexit with livepatch" (56b3c85e153b, Nov
	# 2025).  Debian's 6.12.95 and 7.3.4 sources carry it (reset_direct());
	# 6.1's register_ftrace_direct_multi() removes the entry itself.
	check "sched_tune loads with ratelimit_window_ns=2000000" st_load ratelimit_window_ns=2000000
	check "sched_tune on select_task_rq_fair again after the refused registration" ours_on select_task_rq_fair
	check "st_ipmodify refused on select_task_rq_fair" not ipm_load select_task_rq_fair
	check "st_ipmodify not loaded" not grep -q '^st_ipmodify ' /proc/modules
	check "sched_tune still on select_task_rq_fair" ours_on select_task_rq_fair
	check "workload runs with the hook" timeout 300 sh -c ". /st/lib.sh; hb 200"
	st_cleanup
	ipm_unload
	check "nothing of ours or of st_ipmodify left in enabled_functions" \
		not grep -qE '\[(sched_tune|st_ipmodify)\]' "$TR/enabled_functions"
}

pinned_logged() { dmesg_new | grep -q 'cannot unhook select_task_rq_fair (ftrace error -16): module pinned'; }

# ftrace refusing to take a hook off (test_unhook_fail: the module acts as
# if unregistering failed, and leaves that hook in as ftrace would).  The
# module pins itself, the feature stays unsupported, and no knob write
# prepares or registers that ftrace_ops again.  Last unit of a boot: the
# module can no longer be unloaded.
t_unhook_pinned() {
	group "ftrace refuses to unhook: pinned, never reused"
	dmesg_mark
	st_load test_unhook_fail=select_task_rq_fair ratelimit_window_ns=2000000 ||
		{ ktap_fail "pinned: insmod"; return 1; }
	unit_leaves modules "sched_tune pinned itself, as this unit asks"
	unit_leaves ours_in_ftrace "the hook ftrace kept on select_task_rq_fair"
	check "pinned: sched_tune on select_task_rq_fair" ours_on select_task_rq_fair
	check_eq "pinned: ratelimit_window_ns=0 applies" "$(wr ratelimit_window_ns 0)" OK
	check_eq "pinned: ratelimit unsupported" "$(feature_state ratelimit)" unsupported
	diag "  ratelimit: $(feature_reason ratelimit)"
	check "pinned: its reason names select_task_rq_fair and the pin" \
		grep -q 'ftrace would not unhook select_task_rq_fair (error -16): the module is pinned' "$ST/features/ratelimit/reason"
	check "pinned: dmesg says the module pinned itself" pinned_logged
	check "pinned: the hook ftrace kept is still in" ours_on select_task_rq_fair
	check "pinned: migrate_task_rq_fair, which ftrace let go, is out" not ours_on migrate_task_rq_fair
	knob_bad ratelimit_window_ns 2000000 EOPNOTSUPP
	check_eq "pinned: ratelimit still unsupported after the write" "$(feature_state ratelimit)" unsupported
	check "pinned: the workload runs past the kept hook" timeout 300 sh -c ". /st/lib.sh; hb 200"
	if supported cache_level; then
		check_eq "pinned: cache_share_level=l2 still applies" "$(wr cache_share_level l2)" OK
		check "pinned: ttwu_queue_wakelist hooked" ours_on ttwu_queue_wakelist
		check_eq "pinned: cache_share_level=llc applies" "$(wr cache_share_level llc)" OK
	fi
	check "pinned: rmmod refused, the module stays" sh -c '! /sbin/rmmod sched_tune 2>/dev/null && grep -q "^sched_tune " /proc/modules'
}

# A hook ftrace would not take off at unload (test_unhook_fail=FUNC:N:
# the first N unregisters fail): exit cannot fail, and freeing the module
# would leave ftrace calling freed code, so rmmod waits and tries again
# every second.  On 6.1 ftrace once killed itself under a BPF attach and
# rmmod then freed an ops still on ftrace's list: a page fault per call.
t_unhook_exit() {
	group "unhook refused at unload: rmmod waits, then goes"
	dmesg_mark
	st_load test_unhook_fail=select_task_rq_fair:3 ratelimit_window_ns=2000000 ||
		{ ktap_fail "unhook at exit: insmod"; return 1; }
	bg_start 100
	t0=$(now_cs)
	check "unhook at exit: rmmod returns once ftrace lets the hook go (3 refusals)" timeout 120 /sbin/rmmod sched_tune
	t1=$(now_cs)
	bg_stop
	diag "  rmmod took $(secs "$t0" "$t1") s"
	check "unhook at exit: rmmod waited for the retries (at least 1 s)" test $((t1 - t0)) -ge 100
	check "unhook at exit: dmesg says the unload waits" \
		sh -c ". /st/lib.sh; ST_DMARK=$ST_DMARK; dmesg_new | grep -q 'unload waits: ftrace would not take a hook off'"
	check "unhook at exit: dmesg says select_task_rq_fair was unhooked at last" \
		sh -c ". /st/lib.sh; ST_DMARK=$ST_DMARK; dmesg_new | grep -q 'select_task_rq_fair: unhooked at last'"
	check "unhook at exit: the module is gone" not is_loaded
	check "unhook at exit: nothing of ours in enabled_functions" not ours_in_ftrace
	check "unhook at exit: hackbench ran through the wait" test "$(bg_runs)" -gt 0
}
