# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# Claims of README.md, docs/ and sysfs-kernel-sched_tune that no other
# unit asserts, sourced by tests.sh after lib.sh and livepatch.sh.  The
# failures are injected with the test build's gate_simulate
# (module/test_inject.c), which sends the module down its own refusal
# paths: nosym:SYM makes kallsyms find no SYM, nokprobe makes the kprobe
# that finds kallsyms fail, FEATURE=nobtf:FUNC takes FUNC's prototype out
# of BTF and FEATURE=shape:FUNC changes it.

DBG_ST=/sys/kernel/debug/sched_tune
KPROBES=/sys/kernel/debug/kprobes/list

# A kprobe of ours: the one on kallsyms_lookup_name that ksym.c takes off
# at once, or any in the module.
ours_in_kprobes() {
	grep -qE 'kallsyms_lookup_name|\[sched_tune\]' "$KPROBES" 2>/dev/null ||
		grep -q 'sched_tune' "$TR/kprobe_events" 2>/dev/null
}
# Whatever of the module is still there, one word each; nothing when gone.
# A livepatch holds one of our functions in enabled_functions: then only
# a line that names the module counts.
st_leftovers() {
	is_loaded && echo module
	[ -e "$ST" ] && echo "$ST"
	[ -e /sys/module/sched_tune ] && echo /sys/module/sched_tune
	[ -e "$DBG_ST" ] && echo "$DBG_ST"
	if lp_loaded; then
		grep -q '\[sched_tune\]' "$TR/enabled_functions" && echo enabled_functions
	else
		ours_in_ftrace && echo enabled_functions
	fi
	grep -q '^kallsyms_lookup_name ' "$TR/enabled_functions" 2>/dev/null &&
		echo "enabled_functions (kprobe)"
	ours_in_kprobes && echo kprobes
	true
}
# check_gone DESC: nothing of the module is left.
check_gone() {
	check_eq "$1" "$(st_leftovers | tr '\n' ' ')" ""
}

# --- memory the module's code allocated ---------------------------------------
# modmem.sh: every live slab object (SLUB's alloc_traces, slub_debug's U),
# KFENCE object and vmalloc area with a frame of the module's code in its
# allocation stack, of any load since mem_begin.  After rmmod, one that
# is the module's own (not ftrace's kept state, not a kernel index node,
# not the vma_numab_state the numa_scan copy hangs on a VMA as stock does,
# which the kernel frees with the VMA) is a leak.
mem_begin() { mm_begin; }
mem_track() { mm_text_note; }
# mem_live_ours: "where site" of each live object or area our loaded code
# allocated, for a positive control: the same records name them while the
# module is in.
mem_live_ours() {
	mm_objects | awk '$1 == "module" { print ($3 == "vmalloc" ? "vmalloc" : "slab"), $4 }' | sort -u
}
# mem_check DESC: no such object is left; frees the kernel defers get
# 30 s (mm_settled).
mem_check() {
	if ! mm_traces_on; then
		ktap_skip "$1" "no SLUB alloc_traces (booted without slub_debug=U)"
		return 0
	fi
	if [ ! -s "$MM_TEXT" ]; then
		ktap_fail "$1 (no load was tracked)"
		return 1
	fi
	mm_settled /tmp/mem.after
	n=$(mm_count /tmp/mem.after module)
	[ "$MM_FIRST" = 0 ] || diag "  mem: right after rmmod, $MM_FIRST objects of our code still live"
	if [ "$n" = 0 ]; then
		ktap_ok "$1"
		diag "  mem: $(wc -l <"$MM_SEEN") loads tracked; after $MM_WAITED s, outliving the module: $(mm_count /tmp/mem.after ftrace) objects of ftrace's own state, $(mm_count /tmp/mem.after numab) vma->numab_state, $(mm_count /tmp/mem.after index) kernel index nodes"
	else
		ktap_fail "$1"
		awk '$1 == "module"' /tmp/mem.after | head -n 20 | sed 's/^/#   still allocated (kind, objects, cache, site): /'
	fi
}

# --- kallsyms: a symbol missing, the kprobe failing ----------------------------
# refused SIM WHAT FEATURE... : loaded with gate_simulate=SIM, each FEATURE
# this kernel supports says unsupported with WHAT (fixed text) in its
# reason, in one dmesg line; the others are as without simulation.
refused() {
	local sim=$1 what=$2 want='' f r k v w
	shift 2
	for f in "$@"; do supported "$f" && want="$want $f"; done
	if [ -z "$want" ]; then
		ktap_skip "gate_simulate=$sim" "$* unsupported on this kernel anyway"
		return 0
	fi
	dmesg_mark
	if ! check "insmod gate_simulate=$sim" st_load "gate_simulate=$sim"; then
		dmesg_new | tail -n 5 | sed 's/^/#   dmesg: /'
		return 1
	fi
	mem_track
	for f in $FEATURES; do
		case " $want " in
		*" $f "*)
			r=$(feature_reason "$f")
			diag "  $f: $r"
			check_eq "$sim: $f unsupported" "$(feature_state "$f")" unsupported
			check "$sim: $f's reason says '$what'" grep -qF "$what" "$ST/features/$f/reason"
			check_eq "$sim: one dmesg line gives $f's reason" \
				"$(dmesg_new | grep -cF "feature $f unsupported on this kernel: $r")" 1
			case $f in
			ratelimit) k=ratelimit_window_ns v=1000 ;;
			cache_level) k=cache_share_level v=smt ;;
			numa_scan) k=numa_scan_threshold v=20 ;;
			eevdf) k=eevdf_counters v=1 ;;
			esac
			check_eq "$sim: $k=$v on refused $f fails with EOPNOTSUPP" "$(wr "$k" "$v")" EOPNOTSUPP
			;;
		*)
			eval "w=\$F_$f"
			check_eq "$sim: $f beside it as without simulation ($w)" "$(feature_state "$f")" "$w"
			;;
		esac
	done
	check "$sim: enabled_functions matches features" hooks_match_features
	check "$sim: rmmod" st_unload
	check_gone "$sim: nothing of the module left after rmmod"
}

t_ksym_missing() {
	group "kallsyms: a symbol missing, the kprobe failing"
	dmesg_mark
	mem_begin
	refused nosym:migrate_task_rq_fair \
		"select_task_rq_fair or migrate_task_rq_fair is missing" ratelimit
	# both features read it: both refuse, numa_scan goes on
	refused nosym:sd_llc_size "sd_llc_size is missing" ratelimit cache_level
	refused nosym:__smp_call_single_queue "__smp_call_single_queue is missing" cache_level
	refused nosym:task_numa_work "task_numa_work is missing or not traceable" numa_scan
	refused nosym:change_prot_numa "a helper of task_numa_work is missing" numa_scan

	# Without kallsyms nothing resolves: the load fails, saying why.
	dmesg_mark
	if st_load gate_simulate=nokprobe 2>/tmp/st.err; then
		ktap_fail "nokprobe: insmod fails"
		st_unload
	else
		ktap_ok "nokprobe: insmod fails"
		diag "  insmod: $(cat /tmp/st.err)"
		dmesg_new | grep -v 'taints kernel\|verification failed' | sed 's/^/#   dmesg: /'
		check_eq "nokprobe: one dmesg line: cannot find kallsyms_lookup_name, with the kprobe's error" \
			"$(dmesg_new | grep -c 'sched_tune: cannot find kallsyms_lookup_name: kprobe error -[0-9]')" 1
		check_eq "nokprobe: no other line from the module" \
			"$(dmesg_new | grep 'sched_tune' | grep -vc 'taints kernel\|verification failed\|cannot find kallsyms_lookup_name')" 0
		check_gone "nokprobe: nothing of the module left"
	fi
	mem_check "kallsyms: nothing our code allocated is left after these loads"
}

# --- BTF: a hooked function absent, a later function of another shape ----------
# shape_read FEATURE FUNC: the refusal's dmesg line shows FUNC's prototype
# from BTF as the copy expects it, the simulation's mark added: the check
# read a function past the feature's first.
shape_read() {
	dmesg_new | grep -q "feature $1 unsupported on this kernel: $2 is \"\(.*\) (simulated by gate_simulate)\" here, the copy expects \"\1\"\$"
}

t_btf_refusal() {
	group "BTF: a function absent, or of another prototype past the first"
	dmesg_mark
	mem_begin
	for row in ratelimit:migrate_task_rq_fair cache_level:ttwu_queue_wakelist \
		numa_scan:task_numa_work; do
		f=${row%%:*} fn=${row#*:}
		refused "$f=nobtf:$fn" \
			"no prototype of $fn in the kernel's BTF (error -2) (simulated by gate_simulate)" "$f"
	done
	# each feature's last or a middle function, never its first
	for row in ratelimit:migrate_task_rq_fair cache_level:__smp_call_single_queue \
		numa_scan:change_prot_numa; do
		f=${row%%:*} fn=${row#*:}
		refused "$f=shape:$fn" "$fn is \"" "$f" || continue
		supported "$f" || continue
		check "$f=shape:$fn: BTF's prototype of $fn was read, the copy's but for the mark" \
			shape_read "$f" "$fn"
	done
	mem_check "BTF: nothing our code allocated is left after these loads"
}

# --- every feature unsupported at once ---------------------------------------
# all_refused SIM WHAT: loaded with gate_simulate=SIM, every feature says
# unsupported with a reason, those this kernel supports with WHAT in it;
# the module still loads, hooks nothing, takes enabled and passthrough,
# and keeps each feature's knobs at stock.
all_refused() {
	local sim=$1 what=$2 f kv
	dmesg_mark
	if ! check "every feature: insmod gate_simulate=$sim loads" st_load "gate_simulate=$sim"; then
		dmesg_new | tail -n 5 | sed 's/^/#   dmesg: /'
		return 1
	fi
	mem_track
	for f in $FEATURES; do
		diag "  $f: $(feature_reason "$f")"
		check_eq "$sim: $f unsupported" "$(feature_state "$f")" unsupported
		if supported "$f"; then
			check "$sim: $f's reason says '$what'" grep -qF "$what" "$ST/features/$f/reason"
		else
			check "$sim: $f (unsupported here anyway) has a reason" test -n "$(feature_reason "$f")"
		fi
	done
	check_eq "$sim: one dmesg line per feature says why" \
		"$(dmesg_new | grep -cE 'feature (ratelimit|cache_level|numa_scan|eevdf) unsupported on this kernel: .')" 4
	check_eq "$sim: the debugfs summary says unsupported four times" \
		"$(grep -cE '^(ratelimit|cache_level|numa_scan|eevdf) unsupported ' "$DBG_ST/features")" 4
	check_eq "$sim: knobs at stock (window, level, threshold)" \
		"$(knob ratelimit_window_ns) $(knob_choice cache_share_level) $(knob numa_scan_threshold)" "0 llc 0"
	check "$sim: nothing hooked" not ours_in_ftrace
	for kv in ratelimit_window_ns=1000 cache_share_level=smt numa_scan_threshold=20 eevdf_counters=1; do
		check_eq "$sim: ${kv%%=*}=${kv#*=} fails with EOPNOTSUPP" "$(wr "${kv%%=*}" "${kv#*=}")" EOPNOTSUPP
	done
	check_eq "$sim: enabled=0 accepted" "$(wr enabled 0)" OK
	check_eq "$sim: enabled=1 accepted" "$(wr enabled 1)" OK
	check_eq "$sim: passthrough=1 accepted" "$(wr passthrough 1)" OK
	check "$sim: passthrough=1 hooks nothing" not ours_in_ftrace
	check "$sim: rmmod" st_unload
	check_gone "$sim: nothing of the module left after rmmod"
}

t_all_unsupported() {
	group "every feature unsupported at once"
	dmesg_mark
	mem_begin
	# no BTF at all: __start_BTF is what layout.c looks for
	all_refused nosym:__start_BTF "in the kernel's BTF (error -2)"
	check_eq "no BTF: one dmesg line says so" \
		"$(dmesg_new | grep -c 'sched_tune: no kernel BTF found')" 1
	all_refused ratelimit=6.13,cache_level=6.13,numa_scan=6.13,eevdf=6.13 "(simulated by gate_simulate"
	mem_check "every feature unsupported: nothing our code allocated is left"
}

# --- a non-stock parameter while a livepatch holds the function -------------
# sysfs-kernel-sched_tune: a non-stock parameter for a feature this kernel
# cannot support fails the load with one line naming it; a livepatch on
# the feature's function is such a case, found only when the hook is
# refused.
t_param_livepatch() {
	group "parameters: a non-stock value while a livepatch holds the function"
	if ! supported cache_level; then
		ktap_skip "param beside a livepatch" "cache_level unsupported on this kernel: no hook to refuse"
		return 0
	fi
	if [ ! -f "$LP_KO" ]; then
		ktap_fail "param beside a livepatch: $LP_KO is in the initramfs (strunner/kjob.py)"
		return 1
	fi
	dmesg_mark
	if ! check "param beside a livepatch: st_livepatch on $LP_FUNC, transition done" lp_load; then
		sed 's/^/#   /' /tmp/lp.err
		lp_unload
		return 1
	fi
	dmesg_mark
	if st_load cache_share_level=smt 2>/tmp/st.err; then
		ktap_fail "param beside a livepatch: insmod cache_share_level=smt fails"
		st_unload
	else
		ktap_ok "param beside a livepatch: insmod cache_share_level=smt fails"
		diag "  insmod: $(cat /tmp/st.err)"
		dmesg_new | grep -v 'taints kernel\|verification failed' | sed 's/^/#   dmesg: /'
		check_eq "param beside a livepatch: one dmesg line names cache_share_level" \
			"$(dmesg_new | grep -c cache_share_level)" 1
		check "param beside a livepatch: that line names $LP_FUNC's other user" \
			sh -c "dmesg | tail -n +$((ST_DMARK + 1)) | grep cache_share_level | grep -q '$LP_FUNC is already redirected by another ftrace user'"
		check_gone "param beside a livepatch: nothing of the module left"
		check "param beside a livepatch: the livepatch still owns $LP_FUNC" lp_owns
	fi
	# its stock value loads, the feature saying why it is off
	if check "param beside a livepatch: insmod cache_share_level=llc loads" st_load cache_share_level=llc; then
		wr cache_share_level l2 >/dev/null
		check_eq "param beside a livepatch: cache_level unsupported once asked for" \
			"$(feature_state cache_level)" unsupported
		check "param beside a livepatch: ratelimit has its hooks in" feature_hooked ratelimit
		st_unload
	fi
	check "param beside a livepatch: disable and remove the livepatch" lp_unload
}

# --- after rmmod: nothing left --------------------------------------------------
# README: rmmod removes everything the module installed.  Every feature is
# hooked and switched, the counters read, then each kind of trace is
# looked for: sysfs (ours and /sys/module), debugfs, ftrace's
# enabled_functions, kprobes, and memory our code allocated.
t_unload_clean() {
	group "after rmmod: nothing of the module left"
	check_eq "before insmod: nothing of the module" "$(st_leftovers | tr '\n' ' ')" ""
	mem_begin
	dmesg_mark
	if ! check "unload: insmod" st_load; then
		dmesg_new | tail -n 10 | sed 's/^/#   dmesg: /'
		return 1
	fi
	mem_track
	check "unload: debugfs sched_tune/features while loaded" test -f "$DBG_ST/features"
	check "unload: /sys/module/sched_tune while loaded" test -d /sys/module/sched_tune
	check "unload: no kprobe of ours while loaded (ksym.c's is taken off at once)" not ours_in_kprobes
	check "unload: select_task_rq_fair hooked while loaded" hooked select_task_rq_fair
	if mm_traces_on; then
		mem_live_ours >/tmp/mem.live
		diag "  mem: while loaded: $(tr '\n' ' ' </tmp/mem.live)"
		check "unload: while loaded, SLUB's or KFENCE's records name objects our code allocated" grep -q '^slab ' /tmp/mem.live
		check "unload: while loaded, vmallocinfo names the rate-limit table's site" grep -q '^vmalloc st_rl_probe' /tmp/mem.live
	fi
	# allocations and frees of every path: configs, tables, hooks in and out
	bad=0
	for kv in ratelimit_window_ns=1000 cache_share_level=smt numa_scan_threshold=20 \
		passthrough=1 passthrough=0 enabled=0 enabled=1 ratelimit_window_ns=0 \
		cache_share_level=llc numa_scan_threshold=0 ratelimit_window_ns=2000000 \
		cache_share_level=l2 numa_scan_threshold=50 stats/reset=1; do
		k=${kv%%=*} v=${kv#*=}
		case $(knob_feature "$k") in none) ;; *) supported "$(knob_feature "$k")" || continue ;; esac
		[ "$(wr "$k" "$v")" = OK ] || { bad=$((bad + 1)); diag "  $k=$v failed"; }
	done
	check_eq "unload: every knob write while loaded works" "$bad" 0
	check "unload: a workload with the hooks in" timeout 300 sh -c ". /st/lib.sh; hb 200"
	cat "$ST"/features/*/* "$DBG_ST/features" "$ST"/stats/* >/dev/null 2>&1
	check "unload: rmmod" st_unload
	check "unload: /sys/kernel/sched_tune gone" test ! -e "$ST"
	check "unload: /sys/module/sched_tune gone" test ! -e /sys/module/sched_tune
	check "unload: debugfs sched_tune gone" test ! -e "$DBG_ST"
	check "unload: module gone from /proc/modules" not is_loaded
	check "unload: nothing of ours in enabled_functions" not ours_in_ftrace
	check "unload: no kprobe of ours (kprobes/list, kprobe_events)" not ours_in_kprobes
	mem_check "unload: nothing our code allocated (slab, vmalloc) is left"
}
