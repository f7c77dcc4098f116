# SPDX-License-Identifier: GPL-2.0
# Guest runner of the hook-cost bench (st_mode=icount), booted by
# bench-icount.sh under qemu -icount shift=0,sleep=off: one guest
# nanosecond is one executed instruction, so the ping-pong's ns per round
# trip counts the instructions on its path, deterministically.
#
# Configurations, interleaved (every repetition runs each once, in order):
#   unloaded     module not loaded
#   stock        loaded, every feature at its stock value: no hooks
#   passthrough  seed values and passthrough=1: every hook, stock decisions
#   ratelimit    ratelimit_window_ns=1 (hooks in, a 1 ns window limits nothing)
#   cache_level  cache_share_level=l2 on a cross-LLC pair (l2 = llc here)
#   eevdf        eevdf_counters=1: task_tick_fair wrapped, every tick counted
#                (the ticks that land in the timed rounds carry the hook)
#   prev_bias    prev_bias=1: ratelimit's hooks in for it alone; the pair
#                shares no LLC, so every verdict is stock's
#   sync_short   sync_short=1: the same hooks, every wakeup's duration
#                recorded and every sync wakeup judged (a short pair, no
#                shared LLC: every verdict stock's)
#   all          the five above at once, each as above: every feature in,
#                every decision stock's
#   events       all, with every events/sched_tune/ event on: none fires
#                (each stands for a decision unlike stock's), so this is
#                what enabled events cost the hot path; printed, not bound
# numa_scan has no configuration: task_numa_work runs from NUMA balancing's
# task work on a multi-node machine, never in a two-process ping-pong.
#
# Output: KTAP; every run as "# icount CONFIG NS_PER_ROUND MIGRATIONS CPUS",
# read by the host (MIGRATIONS: of the two processes during the timed
# rounds; CPUS: where the parent and the child ended).
# shellcheck shell=dash
# shellcheck source=selftests/guest/lib.sh
. /st/lib.sh

IC_ROUNDS=$(st_arg ic_rounds 20000)
IC_WARMUP=$(st_arg ic_warmup 1000)
IC_REPS=$(st_arg ic_reps 4)
# tries of a run that did not stay apart (bench-icount.sh gives 10: on
# 6.1 the pair may end on one CPU, a sync wakeup's wake_affine, in most
# runs of a boot)
IC_TRIES=$(st_arg ic_tries 5)
# 1: the host boots again for a configuration this boot never measured
# apart (st_icount_measure), so here it is a skip, named for the host
IC_SECOND=$(st_arg ic_second 0)
# guest seconds of idle before each timed run: a load or unload leaves
# work behind (RCU callbacks, ftrace's and the module loader's kworkers)
# that would run on the other vCPU inside the timed rounds, and icount
# counts every vCPU's instructions.  Idle time costs the host nothing
# under sleep=off: the clock jumps to the next timer.
IC_SETTLE=$(st_arg ic_settle 2)
IC_CONFIGS=$(st_arg ic_configs unloaded,stock,passthrough,all,events,ratelimit,cache_level,eevdf,prev_bias,sync_short | tr ',' ' ')
# extra module parameters for every load (e.g. direct_hooks=0)
IC_MODARGS=$(st_arg ic_modargs "" | tr ',' ' ')
STOCK_ARGS="ratelimit_window_ns=0 cache_share_level=llc numa_scan_threshold=0 $IC_MODARGS"

# ic_args CONFIG: the module parameters of a configuration.
ic_args() {
	case $1 in
	stock) echo "$STOCK_ARGS" ;;
	passthrough) echo "passthrough=1 $IC_MODARGS" ;;
	ratelimit) echo "$STOCK_ARGS ratelimit_window_ns=1" ;;
	cache_level) echo "$STOCK_ARGS cache_share_level=l2" ;;
	eevdf) echo "$STOCK_ARGS eevdf_counters=1" ;;
	prev_bias) echo "$STOCK_ARGS prev_bias=1" ;;
	sync_short) echo "$STOCK_ARGS sync_short=1" ;;
	all | events) echo "$STOCK_ARGS ratelimit_window_ns=1 cache_share_level=l2 eevdf_counters=1 prev_bias=1 sync_short=1" ;;
	esac
}

# ic_funcs CONFIG: the kernel functions the configuration must hook.
ic_funcs() {
	case $1 in
	ratelimit|prev_bias|sync_short) echo "select_task_rq_fair migrate_task_rq_fair" ;;
	cache_level) echo "ttwu_queue_wakelist" ;;
	eevdf) echo "task_tick_fair" ;;
	passthrough|all|events)
		for f in ratelimit cache_level numa_scan eevdf; do
			[ "$(feature_state $f)" = unsupported ] && continue
			[ "$1" != passthrough ] && [ $f = numa_scan ] && continue
			feature_funcs $f
		done ;;
	esac
}

# Counters whose growth proves a hook ran, and those that must stay 0
# because every decision equals stock.
ic_ran_stat() {
	case $1 in ratelimit|prev_bias|sync_short|all|events) echo ratelimit_checked ;; cache_level) echo ttwu_checked ;; esac
}
IC_DECISIONS="ratelimit_kept_prev_cpu ttwu_queued_by_level ttwu_direct_by_level prev_bias_kept prev_bias_target_room prev_bias_recent_room sync_short_placed"

IC_BAD=0
IC_SKIP=""
# ic_setup CONFIG: 0 ready, 1 failed, 2 not available in this module.
ic_setup() {
	cfg=$1
	if [ "$cfg" = unloaded ]; then
		sleep "$IC_SETTLE"
		return 0
	fi
	# shellcheck disable=SC2046 # a list of parameters
	if ! st_load $(ic_args "$cfg") 2>/tmp/ic.err; then
		diag "  insmod $(ic_args "$cfg"): $(cat /tmp/ic.err)"
		return 1
	fi
	# an older module ignores the unknown parameter and loads the seed values
	if { [ "$cfg" = passthrough ] && [ ! -e "$ST/passthrough" ]; } ||
		{ [ "$cfg" = prev_bias ] && [ ! -e "$ST/prev_bias" ]; } ||
		{ { [ "$cfg" = sync_short ] || [ "$cfg" = all ] || [ "$cfg" = events ]; } && [ ! -e "$ST/sync_short" ]; } ||
		{ [ "$cfg" = events ] && [ ! -e "$TR/events/sched_tune/enable" ]; }; then
		st_unload
		return 2
	fi
	ok=0
	want=$(ic_funcs "$cfg" | tr '\n' ' ')
	for fn in $ST_FUNCS; do
		if echo " $want " | grep -q " $fn "; then
			hooked "$fn" || { diag "  $cfg: $fn not hooked"; ok=1; }
		else
			hooked "$fn" && { diag "  $cfg: $fn hooked"; ok=1; }
		fi
	done
	# how ftrace calls us: "direct-->st_fhook_trampN" for direct hooks
	[ "$rep" = 1 ] && grep -A1 -E "^($(echo "$ST_FUNCS" | tr ' ' '|')) " "$TR/enabled_functions" |
		grep -v '^--' | sed "s/^/#   $cfg: enabled_functions: /"
	# the events go with the module at rmmod
	[ "$cfg" = events ] && echo 1 >"$TR/events/sched_tune/enable"
	sleep "$IC_SETTLE"
	echo 1 >"$ST/stats/reset"
	return $ok
}

# ic_verify CONFIG: after the run, the hooks ran and decided as stock.
ic_verify() {
	cfg=$1
	[ "$cfg" = unloaded ] && return 0
	ok=0
	s=$(ic_ran_stat "$cfg")
	if [ -n "$s" ] && [ "$(stat_get "$s")" -le 0 ]; then
		diag "  $cfg: $s did not grow"; ok=1
	elif [ -n "$s" ] && [ "$rep" = 1 ]; then
		diag "  $cfg: $s $(stat_get "$s") (warm-up included) for $((IC_ROUNDS + IC_WARMUP)) round trips"
	fi
	# few ticks land in a ping-pong: shown, not required
	[ "$cfg" = sync_short ] && [ "$rep" = 1 ] &&
		diag "  sync_short: sync_short_checked $(stat_get sync_short_checked) (sync wakeups judged) for $((IC_ROUNDS + IC_WARMUP)) round trips"
	[ "$cfg" = eevdf ] && [ "$rep" = 1 ] &&
		diag "  eevdf: check_deadline $(stat_get check_deadline), tick_check_preempts $(stat_get tick_check_preempts) for $((IC_ROUNDS + IC_WARMUP)) round trips"
	for s in $IC_DECISIONS; do
		[ -e "$ST/stats/$s" ] || continue
		n=$(stat_get "$s")
		[ "$n" = 0 ] || { diag "  $cfg: $s = $n, a decision differed from stock"; ok=1; }
	done
	return $ok
}

t_ic_topology() {
	group "icount guest topology"
	check "2 CPUs that share no LLC" test "$(cat /sys/devices/system/cpu/cpu1/cache/index3/shared_cpu_list 2>/dev/null)" = 1
}

t_ic_measure() {
	group "icount ping-pong"
	diag "ping-pong: $IC_ROUNDS round trips after $IC_WARMUP untimed, $IC_REPS repetitions of: $IC_CONFIGS"
	# Repetition 0 is not counted: the first runs after boot came out
	# 3-40% higher (deferred boot work), the later ones within 0.1%.
	for rep in $(seq 0 "$IC_REPS"); do
		for cfg in $IC_CONFIGS; do
			ic_run "$rep" "$cfg"
		done
	done
	check_eq "icount: every run set up, hooked as configured, decided as stock" "$IC_BAD" 0
	[ -n "$IC_LOST" ] && diag "not counted, never apart in $IC_TRIES tries (config/repetition):$IC_LOST"
	never=
	for cfg in $IC_CONFIGS; do
		echo " $IC_SKIP " | grep -q " $cfg " && continue
		lost=$(echo "$IC_LOST" | tr ' ' '\n' | grep -c "^$cfg/")
		[ "$lost" -lt "$IC_REPS" ] || never="$never $cfg"
	done
	if [ -n "$never" ] && [ "$IC_SECOND" = 1 ]; then
		echo "# icount_lost$never"
		ktap_skip "icount: every configuration measured apart at least once" \
			"never apart in $IC_TRIES tries:$never; a second boot measures them"
	else
		check_eq "icount: every configuration measured apart at least once" "${never:-none}" none
	fi
	diag "numa_scan: not measured; task_numa_work runs from NUMA balancing on a multi-node machine, never in this ping-pong"
}

# ic_run REP CONFIG: one measured run, "# icount CONFIG NS_PER_ROUND
# MIGRATIONS CPUS".  The workload is two processes, each on its CPU: a run
# in which one moved, or that ended with both on one CPU (about 20%
# cheaper: no cross-CPU wakeup, a different path), is done again, up to
# IC_TRIES times, and is not counted if it never ran apart.
ic_run() {
	rep=$1 cfg=$2
	echo " $IC_SKIP " | grep -q " $cfg " && return
	case $cfg in
	ratelimit|cache_level|eevdf)
		if ! supported "$cfg"; then
			ktap_skip "icount $cfg" "feature unsupported on this kernel"
			IC_SKIP="$IC_SKIP $cfg"
			return
		fi ;;
	esac
	for try in $(seq "$IC_TRIES"); do
		ic_setup "$cfg"
		rc=$?
		if [ $rc = 2 ]; then
			ktap_skip "icount $cfg" "this module lacks what $cfg needs (its knob, or its events)"
			IC_SKIP="$IC_SKIP $cfg"
			return
		fi
		out=""
		[ $rc = 0 ] && out=$(timeout "$ST_WL_TIMEOUT" st_icount_pingpong "$IC_ROUNDS" "$IC_WARMUP")
		ns=$(echo "$out" | sed -n 's/.*ns_per_round \([0-9.]*\).*/\1/p')
		mig=$(echo "$out" | sed -n 's/.*migrations \(-*[0-9]*\).*/\1/p')
		cpus=$(echo "$out" | sed -n 's/.*cpus \([0-9,-]*\).*/\1/p')
		if [ $rc != 0 ] || [ -z "$ns" ] || ! ic_verify "$cfg"; then
			diag "  $cfg rep $rep failed: setup rc $rc, output '$out'"
			IC_BAD=$((IC_BAD + 1))
			st_cleanup
			return
		fi
		st_cleanup
		case $mig in 0|-1) [ "${cpus%,*}" != "${cpus#*,}" ] && break ;; esac
		diag "  $cfg rep $rep: $ns with $mig migrations on cpus $cpus, run again"
		if [ "$try" = "$IC_TRIES" ]; then
			[ "$rep" = 0 ] || IC_LOST="$IC_LOST $cfg/$rep"
			return
		fi
	done
	if [ "$rep" = 0 ]; then diag "warm-up $cfg $ns $mig $cpus"; else echo "# icount $cfg $ns $mig $cpus"; fi
}

t_whole_run() {
	group "whole run"
	ST_DMARK=$ST_BOOTMARK
	check_no_splat "icount: no splat in dmesg"
}

diag "vCPUs: $(nproc); LLC of cpu0: $(cat /sys/devices/system/cpu/cpu0/cache/index3/shared_cpu_list 2>/dev/null), of cpu1: $(cat /sys/devices/system/cpu/cpu1/cache/index3/shared_cpu_list 2>/dev/null); clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource)"
dmesg_mark
ST_BOOTMARK=$ST_DMARK
feat_probe
units_run ic_topology ic_measure whole_run
