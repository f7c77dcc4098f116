# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# Coexistence with a livepatch, sourced by tests.sh after lib.sh
# and soak.sh.  selftests/livepatch/st_livepatch.ko takes over
# ttwu_queue_wakelist, the function cache_level hooks; both use ftrace
# with IPMODIFY, and ftrace lets one such user per function.
#  - livepatch first: sched_tune loads, cache_level says unsupported with
#    a reason naming the conflict, the other features load and work;
#  - sched_tune first: the livepatch is refused (EBUSY), sched_tune stays
#    as it was;
#  - everything unloads, nothing is left in ftrace, no splat.

LP_KO=/st/st_livepatch.ko
LP_SYS=/sys/kernel/livepatch/st_livepatch
LP_FUNC=ttwu_queue_wakelist

# The ftrace line of a function, and who owns it.
lp_line() { grep "^$1 " "$TR/enabled_functions" 2>/dev/null; }
lp_owns() { lp_line "$LP_FUNC" | grep -q klp_; }
st_owns() { ours_on "$1"; }
lp_loaded() { grep -q '^st_livepatch ' /proc/modules; }
# A reason that names the function and says another ftrace user holds it.
lp_reason_ok() {
	echo "$1" | grep -q "$LP_FUNC" &&
		echo "$1" | grep -qiE 'livepatch|ipmodify|busy|in use|another|taken|conflict|owned'
}

# lp_wait_transition: the patch's transition is over (60 s at most).
lp_wait_transition() {
	i=0
	while [ "$i" -lt 600 ]; do
		[ "$(cat "$LP_SYS/transition" 2>/dev/null || echo 0)" = 0 ] && return 0
		usleep 100000
		i=$((i + 1))
	done
	return 1
}

lp_load() {
	/sbin/insmod "$LP_KO" 2>/tmp/lp.err && lp_wait_transition
}
# Disables the patch, waits for its transition and sysfs directory to go,
# then removes the module.
lp_unload() {
	lp_loaded || return 0
	if [ -e "$LP_SYS/enabled" ]; then
		echo 0 >"$LP_SYS/enabled" || return 1
		lp_wait_transition || return 1
	fi
	i=0
	while [ -e "$LP_SYS" ] && [ "$i" -lt 100 ]; do usleep 100000; i=$((i + 1)); done
	/sbin/rmmod st_livepatch
}

t_livepatch() {
	group "livepatch coexistence: st_livepatch on $LP_FUNC"
	if [ ! -f "$LP_KO" ]; then
		ktap_fail "livepatch: $LP_KO is in the initramfs (strunner/kjob.py)"
		return 1
	fi
	if [ ! -d /sys/kernel/livepatch ]; then
		ktap_fail "livepatch: the kernel has livepatch (CONFIG_LIVEPATCH)"
		return 1
	fi
	# what this kernel supports, without the livepatch (feat_probe)
	# shellcheck disable=SC2154 # feat_detect sets F_* by eval
	cl0=$F_cache_level nu0=$F_numa_scan
	dmesg_mark

	lp_livepatch_first
	lp_cleanup
	lp_sched_tune_first
	lp_cleanup

	check "livepatch: st_livepatch gone" not lp_loaded
	check_eq "livepatch: /sys/kernel/livepatch empty" "$(ls /sys/kernel/livepatch)" ""
	check "livepatch: sched_tune gone" not is_loaded
	check "livepatch: nothing of either left in enabled_functions" not grep -qE "\[sched_tune\]|klp_" "$TR/enabled_functions"
}

lp_cleanup() { st_cleanup; lp_unload; true; }

# --- the livepatch holds the function first -------------------------------------------
lp_livepatch_first() {
	if ! check "livepatch first: insmod st_livepatch, transition done" lp_load; then
		sed 's/^/#   /' /tmp/lp.err
		return 1
	fi
	check_eq "livepatch first: patch enabled" "$(cat $LP_SYS/enabled 2>/dev/null)" 1
	check "livepatch first: $LP_FUNC is the livepatch's in enabled_functions" lp_owns
	lp_line "$LP_FUNC" | sed 's/^/#   enabled_functions: /'
	check "livepatch first: hackbench runs on the patched kernel" timeout 300 sh -c ". /st/lib.sh; hb 300"

	# defaults: cache_share_level=l2 asks for the taken function
	dmesg_mark
	if st_load 2>/tmp/st.err; then
		ktap_ok "livepatch first: sched_tune loads beside it (default knobs)"
	else
		ktap_fail "livepatch first: sched_tune loads beside it (default knobs)"
		diag "  insmod: $(cat /tmp/st.err)"
		dmesg_new | grep -v 'taints kernel\|verification failed' | sed 's/^/#   dmesg: /'
		# the failed load must have left nothing behind
		check "livepatch first: failed insmod left no module, sysfs or hook" \
			sh -c '! grep -q "^sched_tune " /proc/modules && [ ! -e /sys/kernel/sched_tune ] && ! grep -q "\[sched_tune\]" '"$TR/enabled_functions"
		check "livepatch first: the livepatch still owns $LP_FUNC" lp_owns
		# what the module does today with the feature asked off
		if st_load cache_share_level=llc 2>/tmp/st.err; then
			diag "  with cache_share_level=llc sched_tune loads: $(sk_features)"
		else
			diag "  with cache_share_level=llc the insmod fails too: $(cat /tmp/st.err)"
		fi
	fi
	if is_loaded; then lp_check_beside; fi
	st_cleanup
}

# sched_tune loaded while the livepatch holds LP_FUNC.
lp_check_beside() {
	for f in $FEATURES; do
		diag "  features/$f: $(feature_state "$f"), reason '$(feature_reason "$f")'"
	done
	if [ "$cl0" != unsupported ]; then
		check_eq "livepatch first: cache_level unsupported" "$(feature_state cache_level)" unsupported
		r=$(feature_reason cache_level)
		diag "  cache_level reason: '$r'"
		check "livepatch first: cache_level's reason names $LP_FUNC and the conflict" lp_reason_ok "$r"
	fi
	check "livepatch first: ratelimit has its hooks in ($(feature_state ratelimit))" feature_hooked ratelimit
	check "livepatch first: select_task_rq_fair hooked by sched_tune" st_owns select_task_rq_fair
	if [ "$nu0" != unsupported ]; then
		check "livepatch first: numa_scan has its hooks in ($(feature_state numa_scan))" feature_hooked numa_scan
	fi
	check "livepatch first: $LP_FUNC still the livepatch's alone" sh -c "! grep -q '^$LP_FUNC .*\[sched_tune\]' $TR/enabled_functions"
	lvl=$(knob_choice cache_share_level)
	r=$(wr cache_share_level smt)
	diag "  cache_share_level=smt beside the livepatch: $r"
	check_eq "livepatch first: cache_share_level=smt fails with EOPNOTSUPP" "$r" EOPNOTSUPP
	check_eq "livepatch first: cache_share_level kept ($lvl)" "$(knob_choice cache_share_level)" "$lvl"
	check "livepatch first: ratelimit still hooked after that write" feature_hooked ratelimit
	c0=$(stat_get ratelimit_checked)
	check "livepatch first: hackbench with both" timeout 300 sh -c ". /st/lib.sh; hb 300"
	check "livepatch first: ratelimit counted wakeups ($c0 -> $(stat_get ratelimit_checked))" \
		test "$(stat_get ratelimit_checked)" -gt "${c0:-0}"
	check "livepatch first: rmmod sched_tune" st_unload
	check "livepatch first: the livepatch still owns $LP_FUNC after rmmod" lp_owns
}

# --- sched_tune holds the function first ----------------------------------------------
lp_sched_tune_first() {
	if [ "$cl0" = unsupported ]; then
		ktap_skip "sched_tune first: livepatch refused" "cache_level unsupported on this kernel: nothing holds $LP_FUNC"
		return 0
	fi
	st_load || { ktap_fail "sched_tune first: insmod sched_tune"; return 1; }
	before=$(sk_features)
	check "sched_tune first: $LP_FUNC hooked by sched_tune" st_owns "$LP_FUNC"
	dmesg_mark
	if /sbin/insmod "$LP_KO" 2>/tmp/lp.err; then
		ktap_fail "sched_tune first: insmod st_livepatch is refused"
		lp_wait_transition
		diag "  the livepatch loaded: $(lp_line "$LP_FUNC")"
	else
		ktap_ok "sched_tune first: insmod st_livepatch is refused"
		diag "  insmod: $(cat /tmp/lp.err)"
		dmesg_new | grep -v 'taints kernel\|verification failed' | sed 's/^/#   dmesg: /'
		check "sched_tune first: refused with EBUSY (ftrace: one IPMODIFY user per function)" \
			grep -qi 'busy' /tmp/lp.err
		check "sched_tune first: the refusal names $LP_FUNC" sh -c "dmesg | tail -n +$((ST_DMARK + 1)) | grep -q '$LP_FUNC'"
		check "sched_tune first: no st_livepatch module or patch left" \
			sh -c '! grep -q "^st_livepatch " /proc/modules && [ ! -e '"$LP_SYS"' ]'
	fi
	check_eq "sched_tune first: features unchanged" "$(sk_features)" "$before"
	check "sched_tune first: $LP_FUNC still hooked by sched_tune" st_owns "$LP_FUNC"
	q0=$(stat_get ttwu_checked)
	check "sched_tune first: hackbench after the refusal" timeout 300 sh -c ". /st/lib.sh; hb 300"
	check "sched_tune first: cache_level hook still runs ($q0 -> $(stat_get ttwu_checked))" \
		test "$(stat_get ttwu_checked)" -gt "${q0:-0}"
	lp_unload

	# sched_tune loaded with the feature off: the livepatch takes the
	# function; turning the feature on then fails cleanly
	wr cache_share_level llc >/dev/null
	check "sched_tune first, cache_level off: $LP_FUNC not hooked" not st_owns "$LP_FUNC"
	if check "sched_tune first, cache_level off: the livepatch loads" lp_load; then
		before=$(sk_features)
		r=$(wr cache_share_level l2)
		diag "  cache_share_level=l2 with the livepatch holding $LP_FUNC: $r; features: $(sk_features)"
		check "sched_tune first, cache_level off: cache_share_level=l2 then fails (EBUSY or EOPNOTSUPP)" \
			sh -c "[ '$r' = EBUSY ] || [ '$r' = EOPNOTSUPP ]"
		check_eq "sched_tune first, cache_level off: cache_share_level stays llc" "$(knob_choice cache_share_level)" llc
		check "sched_tune first, cache_level off: ratelimit still hooked" feature_hooked ratelimit
		check "sched_tune first, cache_level off: the livepatch still owns $LP_FUNC" lp_owns
	else
		sed 's/^/#   /' /tmp/lp.err
	fi
	check "sched_tune first: rmmod sched_tune" st_unload
	check "sched_tune first: disable and remove the livepatch" lp_unload
}
