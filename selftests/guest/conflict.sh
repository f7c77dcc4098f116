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
	if [ ! -f /st/st_ipmodify.ko ]; then
		ktap_skip "IPMODIFY conflict" "no st_ipmodify.ko in this image"
		return
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
	# we first: it is refused
	check "sched_tune loads with ratelimit_window_ns=2000000" st_load ratelimit_window_ns=2000000
	check "sched_tune on select_task_rq_fair" ours_on select_task_rq_fair
	check "st_ipmodify refused on select_task_rq_fair" not ipm_load select_task_rq_fair
	check "st_ipmodify not loaded" not grep -q '^st_ipmodify ' /proc/modules
	check "sched_tune still on select_task_rq_fair" ours_on select_task_rq_fair
	check "workload runs with the hook" timeout 300 sh -c ". /st/lib.sh; hb 200"
	st_cleanup
	ipm_unload
	check "nothing of ours or of st_ipmodify left in enabled_functions" \
		not grep -qE '\[(sched_tune|st_ipmodify)\]' "$TR/enabled_functions"
	check_no_splat "IPMODIFY conflict: no splat in dmesg"
}
