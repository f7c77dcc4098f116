# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# Guest unit: sched_tune beside the tracers a scheduler engineer attaches
# to the very functions it hooks, in both orders (tracer first, module
# first): function_graph with set_graph_function (module first: with
# set_ftrace_filter on the hooked functions), the function tracer
# with a filter, a kretprobe, an fprobe exit event (kernels that have
# them), BPF fentry and fexit (selftests/helpers/st_bpf_count.c), on
# select_task_rq_fair and, where eevdf is supported, task_tick_fair;
# prev_bias and sync_short on in the wrapper of select_task_rq_fair.
#
# What each combination must show: the guest lives (no splat); each
# hook's decision runs once per call of its function, counted against
# what the scheduler itself counts (schedstats' wakeups, the
# sched_migrate_task event in a trace instance of its own); the tracer
# records the calls; after rmmod the tracer still records.  A replacement
# that took its own call of the original for a foreign one (the tracer
# had rewritten the return address it looked at) ran once per nesting
# level: 7 decisions per wakeup under a kretprobe, 45 under
# function_graph.  eevdf's wrapper of task_tick_fair runs once per tick
# (a tick calls task_tick_fair at most once): its count is held to the
# local timer interrupts of the same run, with its slice policy setting
# slices on 6.12 and 7.3 (a nested wrapper would also stretch a deadline
# twice).

TR_FUNCS="select_task_rq_fair migrate_task_rq_fair ttwu_queue_wakelist"
TR_INST=$TR/instances/st_count
# the hooks of ratelimit and cache_level in, both deciding; eevdf's
# added by t_tracers where it is supported (sk_ev_params)
TR_KNOBS="ratelimit_window_ns=2000000 cache_share_level=l2"
# 5 senders and 5 receivers, 100 messages each: thousands of wakeups
tr_load() { timeout 120 hackbench -g 1 -f 5 --threads --pipe -l 100 -s 100 >/tmp/tr_hb.out 2>&1; }

# Every CPU's ttwu_count of /proc/schedstat (schedstats on).
ttwu_total() { awk '/^cpu[0-9]/ { s += $6 } END { print s + 0 }' /proc/schedstat; }
# Migrations, counted by the scheduler's own event in an instance, so
# that the tracer's buffer is not touched.
migcount_on() {
	mkdir -p "$TR_INST"
	echo 0 >"$TR_INST/tracing_on"
	echo 4096 >"$TR_INST/buffer_size_kb"
	echo 1 >"$TR_INST/events/sched/sched_migrate_task/enable"
	echo >"$TR_INST/trace"
	echo 1 >"$TR_INST/tracing_on"
}
migcount() { ring_events "$TR_INST"; }
migcount_off() {
	echo 0 >"$TR_INST/events/sched/sched_migrate_task/enable"
	rmdir "$TR_INST" 2>/dev/null
	true
}

# per_call LABEL: one workload run; checks each hook's decisions against
# what the scheduler counted over the same run.  Untraced, decisions run
# once per wakeup of a task free to move (ratelimit_checked, 1.0-1.2 of
# schedstats' ttwu_count on 6.12.95 under TCG), stamps once per call of
# migrate_task_rq_fair (1.2-1.4 of the sched_migrate_task events, about
# 20 more: the same run's counts), level checks up to twice per wakeup
# (the on_cpu path and the queue path).  A replacement nested by a tracer
# multiplied each by 7 (kretprobe) to 45 (function_graph).  The bound,
# twice the natural rate plus 20, holds the first and fails the second.
per_call() {
	pc0=$(now_cs)
	wr stats/reset 1 >/dev/null
	w0=$(ttwu_total) m0=$(migcount) n=0 w=0 t0=$(ev_loc_all)
	# sized by count: one run woke 100 to 270 tasks in make check
	while [ "$w" -lt 200 ] && [ "$n" -lt 6 ]; do
		tr_load || diag "  hackbench: $(tail -n 2 /tmp/tr_hb.out)"
		n=$((n + 1)) w=$(($(ttwu_total) - w0))
	done
	m=$(($(migcount) - m0))
	k=$(sk_ev_ticks) es=$(stat_get eevdf_slices_set) t=$(($(ev_loc_all) - t0))
	c=$(stat_get ratelimit_checked) s=$(stat_get ratelimit_migrations_stamped) l=$(stat_get ttwu_checked)
	diag "  $1: $n hackbench runs in $(secs "$pc0" "$(now_cs)") s, $w wakeups, $m migrations; ratelimit_checked $c, ratelimit_migrations_stamped $s, ttwu_checked $l"
	check "$1: select_task_rq_fair decides once per wakeup ($c for $w wakeups: at most $((2 * w + 20)), at least $((w / 2)))" \
		test "$w" -gt 100 -a "$c" -le $((2 * w + 20)) -a "$c" -ge $((w / 2))
	check "$1: migrate_task_rq_fair stamps once per migration ($s for $m: at most $((2 * m + 20)), at least $((m / 2)))" \
		test "$m" -gt 0 -a "$s" -le $((2 * m + 20)) -a "$s" -ge $((m / 2))
	check "$1: ttwu_queue_wakelist decides once per call, at most twice per wakeup ($l for $w: at most $((4 * w + 20)))" \
		test "$l" -gt 0 -a "$l" -le $((4 * w + 20))
	tr_placement "$1"
	tr_per_tick "$1"
}

# tr_placement LABEL: prev_bias and sync_short, where on, judge each
# wakeup at most once, inside the one wrapper call that ratelimit_checked
# counts (per_call's c; the counters are read one after the other, so a
# wakeup in flight per CPU aside).
tr_placement() {
	for f in $FEATURES_HOSTED; do
		case " $TR_KNOBS " in *" $f=1 "*) ;; *) continue ;; esac
		j=$(stat_get "${f}_checked")
		check "$1: $f judges at most once per select_task_rq_fair call (${f}_checked $j, ratelimit_checked $c)" \
			test "$j" -le $((c + $(nproc)))
	done
}

# tr_per_tick LABEL: eevdf's counts of per_call's run (k, es, t): at most
# one per local timer interrupt; on EEVDF at least one (the hackbench
# threads run at ticks), and on 6.12 and 7.3 the slice policy set slices.  6.1
# counts only ticks with two entities queued, which hackbench may not
# give: there the upper bound alone.
tr_per_tick() {
	case " $TR_KNOBS " in *" eevdf_counters=1 "*) ;; *) return 0 ;; esac
	diag "  $1: $t local timer interrupts; eevdf ticks $k, eevdf_slices_set $es"
	lo=0
	ev_is_eevdf && lo=1
	check "$1: task_tick_fair counts once per tick ($k for $t local timer interrupts: at least $lo, at most $((t + 20)))" \
		test "$k" -ge "$lo" -a "$k" -le $((t + 20))
	if ev_slice_checked; then
		check "$1: the slice policy set slices at ticks ($es, at most $k)" test "$es" -gt 0 -a "$es" -le "$k"
	fi
}

# Tracer setups, each on every function of TR_FUNCS at once: tr_on_KIND
# and tr_off_KIND.
tr_on_graph() { echo "$TR_FUNCS" >"$TR/set_graph_function" && echo function_graph >"$TR/current_tracer"; }
tr_off_graph() { echo nop >"$TR/current_tracer"; echo >"$TR/set_graph_function"; }
# function_graph on TR_FUNCS alone (set_ftrace_filter): the same return
# hooking on each hooked function, without patching every other one
tr_on_graph_filtered() { echo "$TR_FUNCS" >"$TR/set_ftrace_filter" && echo function_graph >"$TR/current_tracer"; }
tr_off_graph_filtered() { echo nop >"$TR/current_tracer"; echo >"$TR/set_ftrace_filter"; }
tr_on_function() { echo "$TR_FUNCS" >"$TR/set_ftrace_filter" && echo function >"$TR/current_tracer"; }
tr_off_function() { echo nop >"$TR/current_tracer"; echo >"$TR/set_ftrace_filter"; }
# tr_on_probes FILE SPEC: one event st_tr/<fn> a function, SPEC with @ for it
tr_on_probes() {
	for f in $TR_FUNCS; do
		echo "$2" | sed "s/@/$f/g" >>"$TR/$1" || return 1
	done
	echo 1 >"$TR/events/st_tr/enable"
}
tr_off_probes() {
	echo 0 >"$TR/events/st_tr/enable" 2>/dev/null
	for f in $TR_FUNCS; do echo "-:st_tr/$f" >>"$TR/$1"; done
}
# no $retval: two of the functions return void, which fprobe events refuse
tr_on_kretprobe() { tr_on_probes kprobe_events "r:st_tr/@ @"; }
tr_off_kretprobe() { tr_off_probes kprobe_events; }
tr_on_fexit() { tr_on_probes dynamic_events "f:st_tr/@ @%return"; }
tr_off_fexit() { tr_off_probes dynamic_events; }
has_fprobe_events() { grep -q 'f\[:\[<group>/\]' "$TR/README" 2>/dev/null; }

# Every function of TR_FUNCS in the trace, or the ones missing.
traced_all() {
	miss=
	for f in $TR_FUNCS; do grep -q "$f" "$TR/trace" || miss="$miss $f"; done
	[ -z "$miss" ] || diag "  not in the trace:$miss ($(grep -m1 'entries-in-buffer' "$TR/trace" | tr -d '#'))"
	[ -z "$miss" ]
}

# tr_case KIND ORDER: ORDER "tracer" attaches the tracer first; "module"
# loads the module first.  Either way the module is unloaded under the
# tracer, which must go on recording.
# tr_lap WHAT: the time since the last lap (tc1) added to tcs.
tr_lap() {
	tcs="$tcs, $1 $(secs "$tc1" "$(now_cs)")"
	tc1=$(now_cs)
}

tr_case() {
	kind=$1 order=$2
	label="$kind, $order first"
	tc0=$(now_cs) tc1=$tc0 tcs=
	echo 0 >"$TR/tracing_on"
	echo >"$TR/trace"
	echo 1 >"$TR/tracing_on"
	tr_lap clear
	if [ "$order" = tracer ]; then
		check "$label: tracer attaches to $TR_FUNCS" "tr_on_$kind"
		tr_lap attach
		# shellcheck disable=SC2086 # a list of parameters
		check "$label: sched_tune loads" st_load $TR_KNOBS
		tr_lap load
	else
		# shellcheck disable=SC2086
		check "$label: sched_tune loads" st_load $TR_KNOBS
		tr_lap load
		check "$label: tracer attaches to $TR_FUNCS" "tr_on_$kind"
		tr_lap attach
	fi
	# function_graph lists every function of the kernel in
	# enabled_functions, a 12 s read under TCG (7.3.4): there the
	# module's own view stands for it, and per_call's counts show that
	# each hook ran
	if [ "$kind" = graph ]; then
		for f in $TR_FUNCS; do check "$label: $f hooked by sched_tune (features/)" feature_holds "$f"; done
	else
		for f in $TR_FUNCS; do check "$label: $f hooked by sched_tune" ours_on "$f"; done
	fi
	tr_lap hooked
	per_call "$label"
	tr_lap run
	check "$label: the tracer recorded calls of each function" traced_all
	tr_lap read
	check "$label: rmmod under the tracer" st_unload
	tr_lap rmmod
	echo >"$TR/trace"
	tr_load
	tr_lap clear+run
	check "$label: after rmmod the tracer still records each function" traced_all
	tr_lap read
	"tr_off_$kind"
	tr_lap detach
	st_cleanup
	diag "  $label: $(secs "$tc0" "$(now_cs)") s (${tcs#, }; qemu TCG)"
}

# BPF fentry and fexit: a BPF trampoline is an ftrace direct call too.
# First, it holds the function's direct slot and our hook shares it as an
# ftrace_ops callback; after our direct hook the kernel refuses it with
# EBUSY (docs/safety.md), unless direct_hooks=0.
bpf_start() {
	rm -f /tmp/bpf.out
	st_bpf_count "$1" >/tmp/bpf.out 2>&1 &
	BPF_PID=$!
	i=0
	while ! grep -qE '^(attached|refused)' /tmp/bpf.out 2>/dev/null && [ "$i" -lt 100 ]; do
		usleep 100000
		i=$((i + 1))
	done
	grep -q '^attached' /tmp/bpf.out
}
# Sets BPF_COUNTS to "fentry N fexit M".  Not in $(...): a subshell
# cannot wait for the job, and would read the output before it is there.
bpf_stop() {
	kill -TERM "$BPF_PID" 2>/dev/null
	wait "$BPF_PID"
	BPF_COUNTS=$(sed -n 's/^\(fentry [0-9]* fexit [0-9]*\)$/\1/p' /tmp/bpf.out)
}
bpf_counts_ok() {
	# shellcheck disable=SC2086 # "fentry N fexit M"
	set -- $1
	[ "${2:-0}" -gt 0 ] && [ "${4:-0}" -gt 0 ]
}

# Before 6.12 the module has no ftrace_ops path: a BPF trampoline
# attaching next to an ftrace_ops that changes the IP can kill ftrace
# there (module/hook/fhook.c, st_fhook_ops_unsafe).
ops_path() {
	# shellcheck disable=SC2046 # major and minor as $1 and $2
	set -- $(uname -r | tr '.-' '  ')
	[ "$1" -gt 6 ] || { [ "$1" -eq 6 ] && [ "$2" -ge 12 ]; }
}

# 6.1: BPF first holds the direct slot; the feature (bf_feat) cannot hook
bpf_first_no_ops() {
	# shellcheck disable=SC2086
	check "$label: sched_tune refuses $bf_feat at load (no ftrace_ops path before 6.12)" not st_load $TR_KNOBS
	check "$label: sched_tune loads with stock knobs" st_load
	check_eq "$label: $bf_knob=$bf_val refused with EOPNOTSUPP" "$(wr "$bf_knob" "$bf_val")" EOPNOTSUPP
	check_eq "$label: $bf_feat unsupported, saying why" "$(feature_state "$bf_feat")" unsupported
	diag "  $bf_feat: $(feature_reason "$bf_feat")"
	check "$label: nothing of ours on $fn" not ours_on "$fn"
	check "$label: rmmod" st_unload
}

# t_tracer_bpf FUNC FEATURE KNOB VALUE: BPF on FUNC, hooked by FEATURE
# (KNOB=VALUE is one of TR_KNOBS).
t_tracer_bpf() {
	fn=$1 bf_feat=$2 bf_knob=$3 bf_val=$4
	label="BPF fentry+fexit on $fn, BPF first"
	check "$label: st_bpf_count attaches" bpf_start "$fn"
	diag "  $(head -n 1 /tmp/bpf.out)"
	if ! ops_path; then
		bpf_first_no_ops
		tr_load
		bpf_stop
		check "$label: the BPF programs counted calls ($BPF_COUNTS)" bpf_counts_ok "$BPF_COUNTS"
		t_tracer_bpf_module_first
		return
	fi
	# shellcheck disable=SC2086
	check "$label: sched_tune loads" st_load $TR_KNOBS
	# enabled_functions names the BPF trampoline and ftrace's list
	# function, not our callback: the ops path shows in the state and the
	# decisions counted
	check "$label: $fn hooked, $bf_feat active" \
		test "$(hooked "$fn" && feature_state "$bf_feat")" = active
	diag "  $(grep -A1 "^$fn " "$TR/enabled_functions" | tr '\n\t' '  ')"
	per_call "$label"
	check "$label: rmmod" st_unload
	tr_load
	bpf_stop
	diag "  $label: $BPF_COUNTS"
	check "$label: the BPF programs counted calls, also after rmmod ($BPF_COUNTS)" bpf_counts_ok "$BPF_COUNTS"
	t_tracer_bpf_module_first
}

t_tracer_bpf_module_first() {
	label="BPF fentry+fexit on $fn, module first"
	# shellcheck disable=SC2086
	check "$label: sched_tune loads" st_load $TR_KNOBS
	if ours_direct "$fn"; then
		out=$(st_bpf_count -t "$fn")
		diag "  $out"
		# the direct slot is taken: 6.x says EBUSY, 7.3's shared
		# direct ops (one for every BPF trampoline) EINVAL
		case $(uname -r) in 6.*) want=EBUSY ;; *) want=EINVAL ;; esac
		case $out in
		"refused: "*" $want "*) ktap_ok "$label: refused cleanly with $want next to our direct hook (docs/safety.md)" ;;
		attached*) ktap_ok "$label: attached next to our direct hook" ;;
		*) ktap_fail "$label: refused with $want or attached" ;;
		esac
		check "$label: $fn still hooked by sched_tune" ours_on "$fn"
		per_call "$label, BPF refused"
		st_cleanup
		if ! ops_path; then
			dmesg_mark
			# shellcheck disable=SC2086
			check "$label: direct_hooks=0 refused at load before 6.12" not st_load direct_hooks=0 $TR_KNOBS
			check "$label: dmesg says why direct_hooks=0 was refused" \
				sh -c ". /st/lib.sh; ST_DMARK=$ST_DMARK; dmesg_new | grep -q 'direct_hooks=0 refused on this kernel'"
			return
		fi
		# shellcheck disable=SC2086
		check "$label: sched_tune loads with direct_hooks=0" st_load direct_hooks=0 $TR_KNOBS
	fi
	check "$label: st_bpf_count attaches" bpf_start "$fn"
	per_call "$label, BPF attached"
	check "$label: rmmod under BPF" st_unload
	tr_load
	bpf_stop
	diag "  $label: $BPF_COUNTS"
	check "$label: the BPF programs counted calls, also after rmmod ($BPF_COUNTS)" bpf_counts_ok "$BPF_COUNTS"
	st_cleanup
}

# Our direct trampoline is on FUNC (enabled_functions names it).
ours_direct() { grep -A1 "^$1 " "$TR/enabled_functions" 2>/dev/null | grep -q 'st_fhook_tramp'; }

t_tracers() {
	group "tracers on the hooked functions, both orders"
	dmesg_mark
	schedstats=$(cat /proc/sys/kernel/sched_schedstats)
	echo 1 >/proc/sys/kernel/sched_schedstats
	# the buffer's size per CPU, "N" or "7 (expanded: N)" before first use
	tr_kb=$(sed 's/.*expanded: \([0-9]*\).*/\1/' "$TR/buffer_size_kb")
	if supported eevdf; then
		TR_FUNCS="$TR_FUNCS task_tick_fair" TR_KNOBS="$TR_KNOBS $(sk_ev_params)"
		# function_graph under task_tick_fair records every callee at
		# every tick of a busy CPU: the default buffer (1.4 MB a CPU)
		# overwrote the other functions' records within one hackbench
		# run on 6.1 (migrate_task_rq_fair missing after rmmod)
		echo 16384 >"$TR/buffer_size_kb"
	fi
	# prev_bias and sync_short decide inside select_task_rq_fair's
	# wrapper: on as well, so that their decisions run beside each tracer
	for f in $FEATURES_HOSTED; do supported "$f" && TR_KNOBS="$TR_KNOBS $f=1"; done
	migcount_on
	# shellcheck disable=SC2086
	if check "no tracer: sched_tune loads" st_load $TR_KNOBS; then
		per_call "no tracer"
		st_unload
	fi
	kinds=$(st_arg tr_kinds "graph function kretprobe")
	if has_fprobe_events; then kinds="$kinds fexit"
	else ktap_skip "fprobe exit events" "this kernel has no fprobe events (tracing/README)"; fi
	for kind in $kinds; do
		for order in tracer module; do
			# function_graph over every kernel function takes 20 s to
			# attach and detach under TCG: that once, tracer first;
			# module first, on the hooked functions alone
			if [ "$kind$order" = graphmodule ]; then
				tr_case graph_filtered module
			else
				tr_case "$kind" "$order"
			fi
		done
	done
	if [ -d /sys/kernel/btf ]; then
		tc0=$(now_cs)
		t_tracer_bpf select_task_rq_fair ratelimit ratelimit_window_ns 2000000
		diag "  BPF on select_task_rq_fair: $(secs "$tc0" "$(now_cs)") s (qemu TCG)"
		tc0=$(now_cs)
		supported eevdf && t_tracer_bpf task_tick_fair eevdf eevdf_counters 1
		diag "  BPF on task_tick_fair: $(secs "$tc0" "$(now_cs)") s (qemu TCG)"
	else
		ktap_fail "BPF fentry/fexit: kernel BTF present"
	fi
	migcount_off
	echo "$tr_kb" >"$TR/buffer_size_kb"
	echo "$schedstats" >/proc/sys/kernel/sched_schedstats
	check "tracers: nothing of ours left in enabled_functions" not ours_in_ftrace
}
