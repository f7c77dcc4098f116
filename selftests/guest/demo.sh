# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash # busybox ash: dash is the nearest shell shellcheck checks
# Guest side of `make demo` (st_mode=demo): load the module, list every
# knob and feature as sysfs has them (no list of names here: a new knob
# or feature shows by itself), then, for each feature this kernel
# supports, one short workload with the feature stock and with it on,
# and the counts side by side.  Counts of events under qemu TCG, never
# hardware timings.  Ends with "demo: ok" or "demo: FAILED", which the
# host greps for, and exits non-zero when a step failed.
# shellcheck source=selftests/guest/lib.sh
. /st/lib.sh
# the tests' workloads and their helpers (functions and st_arg counts only)
# shellcheck source=selftests/guest/cache_level.sh
. /st/cache_level.sh
# shellcheck source=selftests/guest/eevdf.sh
. /st/eevdf.sh
# shellcheck source=selftests/guest/placement.sh
. /st/placement.sh

# the helpers' diagnostics go to the console log, not into the demo's table
# shellcheck disable=SC2317 # called by the helpers sourced above
diag() { echo "# $*" >&2; }

# Sizes, in counts (st_hb_loops= and st_demo_*= on the kernel command
# line, ST_GUEST_ARGS): hackbench loops at the machine's pace and runs of
# each setting, ping-pong round trips, seconds of the two hogs, sync
# pair rounds.
DM_HB_LOOPS=$(st_arg hb_loops "$(scaled 4000 200)")
DM_HB_REPS=$(st_arg demo_hb_reps 3)
DM_CL_ROUNDS=$(st_arg demo_cl_rounds 300)
EV_SECS=$(st_arg demo_eevdf_secs 3)
DM_SS_ROUNDS=$(st_arg demo_ss_rounds 150)

DM_ROWS=/tmp/demo.rows
DM_NOTES=/tmp/demo.notes
DM_STEPS=0
DM_FAILED=
: >"$DM_ROWS"
: >"$DM_NOTES"
# row FEATURE SETTING COUNTED STOCK ON: one line of the table
row() { printf '%s\t%s\t%s\t%s\t%s\n' "$@" >>"$DM_ROWS"; }
note() { echo "$*" >>"$DM_NOTES"; }
# step NAME CMD...: a step of the demo that must succeed; says so at once
step() {
	n=$1; shift
	DM_STEPS=$((DM_STEPS + 1))
	if "$@"; then return 0; fi
	DM_FAILED="$DM_FAILED $n"
	echo "  STEP FAILED: $n"
	return 1
}
# set_knob KNOB VALUE: a write that must take
set_knob() { step "write $1=$2" test "$(wr "$1" "$2")" = OK; }
# hb_migrations: sched_migrate_task events of one hackbench; "FAILED"
# when hackbench did not run to the end
hb_migrations() {
	mig_begin
	if hb "$DM_HB_LOOPS"; then mig_end; else mig_end >/dev/null; echo FAILED; fi
}
# shellcheck disable=SC2317 # run through step
is_count() { case $1 in '' | *[!0-9]*) return 1 ;; esac; }
# a count or the step's failure
counted() { step "$1" is_count "$2"; }

echo "sched_tune demo on $(uname -r), $(nproc) vCPUs"
echo "Every figure below is a count of events in a Debian kernel under qemu TCG"
echo "(an emulated CPU): what changed, not how fast; no hardware timing."
DM_T0=$(now_cs)
dmesg_mark
if ! st_load; then
	echo "insmod failed:"
	dmesg | tail -n 20
	echo "demo: FAILED (insmod)"
	exit 1
fi

# --- what the module has: read from sysfs, nothing listed here -------------------
nk=0
for f in "$ST"/*; do [ -f "$f" ] && nk=$((nk + 1)); done
echo
echo "== knobs: the $nk files of $ST/ at their load defaults =="
for f in "$ST"/*; do
	[ -f "$f" ] || continue
	printf '  %-28s %s\n' "${f##*/}" "$(cat "$f" 2>/dev/null || echo '(unreadable)')"
done
ns=0
for f in "$ST"/stats/*; do [ "${f##*/}" = reset ] || ns=$((ns + 1)); done
echo
echo "== features: state and reason of each of $ST/features/ ($ns counters in stats/) =="
for d in "$ST"/features/*/; do
	f=${d%/}
	f=${f##*/}
	printf '  %-12s %-12s %s\n' "$f" "$(feature_state "$f")" "$(feature_reason "$f")"
done
if [ -d /sys/kernel/debug/sched/llc_balancing ]; then
	echo
	echo "== cache-aware load balancing (SCHED_CACHE, debugfs sched/llc_balancing) =="
	for f in /sys/kernel/debug/sched/llc_balancing/*; do printf '  %-28s %s\n' "${f##*/}" "$(head -n1 "$f" 2>/dev/null)"; done
fi

# --- every feature stock, then one at a time on ----------------------------------
# The knobs whose load default is not stock (knobs.h); every feature must
# then say it is off, so "stock" below is stock.
echo
echo "== each feature: stock, then on, the same workload =="
set_knob ratelimit_window_ns 0
set_knob cache_share_level llc
set_knob numa_scan_threshold 0
for d in "$ST"/features/*/; do
	f=${d%/}
	f=${f##*/}
	case $(feature_state "$f") in
	active* | idle*) step "$f stock after the writes above ($(feature_state "$f"): $(feature_reason "$f"))" false ;;
	esac
done

# hackbench, for the rows that count its migrations: stock, the rate
# limit's window, prev_bias, DM_HB_REPS runs each, interleaved so that a
# host that slows down slows all alike; the median of each.  The
# features' own counters, over the same runs.
median() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print NR ? (NR % 2 ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2)) : 0 }'; }
# hb_run NAME KNOB VALUE: one hackbench with KNOB at VALUE (none: stock);
# appends its migrations to DM_MIG_<NAME>
hb_run() {
	[ "$2" = none ] || set_knob "$2" "$3"
	m=$(hb_migrations)
	counted "hackbench $1 run" "$m"
	[ "$2" = none ] || set_knob "$2" 0
	eval "DM_MIG_$1=\"\${DM_MIG_$1:-} \$m\""
}
mig_setup
DM_HB_RL='' DM_HB_PB=''
[ "$(feature_state ratelimit)" != unsupported ] && DM_HB_RL=1
[ "$(feature_state prev_bias)" != unsupported ] && DM_HB_PB=1
echo "  hackbench -g $HB_GROUPS -f 10 --threads --pipe -l $DM_HB_LOOPS -s 100, $DM_HB_REPS runs: stock${DM_HB_RL:+, ratelimit_window_ns=2000000}${DM_HB_PB:+, prev_bias=1}"
DM_T=$(now_cs)
wr stats/reset 1 >/dev/null
for _ in $(seq "$DM_HB_REPS"); do
	hb_run stock none
	[ -n "$DM_HB_RL" ] && hb_run ratelimit ratelimit_window_ns 2000000
	[ -n "$DM_HB_PB" ] && hb_run prev_bias prev_bias 1
done
DM_RL_KEPT=$(stat_get ratelimit_kept_prev_cpu)
# placements prev_bias made: kept, target_room and recent_room
# shellcheck disable=SC2046 # the counters, one word each
set -- $(pb_counts)
DM_PB_PLACED=$(($2 + $4 + $5))
mig_teardown
echo "    $(secs "$DM_T" "$(now_cs)") s"
# shellcheck disable=SC2154 # DM_MIG_stock: hb_run's eval
DM_HB_STOCK=$(echo "$DM_MIG_stock" | median)
note "hackbench migrations per run: stock$DM_MIG_stock${DM_HB_RL:+; ratelimit$DM_MIG_ratelimit}${DM_HB_PB:+; prev_bias$DM_MIG_prev_bias}"

demo_ratelimit() {
	# shellcheck disable=SC2154 # hb_run's eval
	row ratelimit "ratelimit_window_ns 0 -> 2000000" "hackbench migrations, median of $DM_HB_REPS" \
		"$DM_HB_STOCK" "$(echo "$DM_MIG_ratelimit" | median)"
	row "" "" "ratelimit_kept_prev_cpu, $DM_HB_REPS runs" - "$DM_RL_KEPT"
}

# cl_one LEVEL: the ping-pong of a far pair (same LLC, other L2), a hog
# beside each end, at LEVEL; sets CL1_IPI (function-call IPIs over the
# run, "FAILED" when it did not run to the end) and CL1_Q
cl_one() {
	set_knob cache_share_level "$1"
	wr stats/reset 1 >/dev/null
	c0=$(cl_calls)
	out=$(timeout 300 st_pingpong "$CL_A" "$CL_FAR" "$DM_CL_ROUNDS" 1)
	rc=$?
	CL1_IPI=$(($(cl_calls) - c0))
	CL1_Q=$(stat_get ttwu_queued_by_level)
	step "ping-pong cpu$CL_A<->cpu$CL_FAR at $1 ran its $((2 * DM_CL_ROUNDS)) wakeups (rc $rc: $out)" \
		test "$rc $(echo "$out" | awk '{ print $2 }')" = "0 $((2 * DM_CL_ROUNDS))" ||
		CL1_IPI=FAILED
}
demo_cache_level() {
	cl_pick_pairs
	if [ -z "$CL_FAR" ]; then
		note "cache_level: not run: no two CPUs of this guest share an LLC but not an L2 (L2 of cpu0 {$(cl_list 0 2)}, LLC {$(cl_list 0 3)})"
		return 0
	fi
	cl_one llc
	ipi0=$CL1_IPI q0=$CL1_Q
	cl_one l2
	set_knob cache_share_level llc
	row cache_level "cache_share_level llc -> l2" \
		"CAL IPIs, ping-pong cpu$CL_A<->cpu$CL_FAR, $((2 * DM_CL_ROUNDS)) wakeups" \
		"$ipi0" "$CL1_IPI"
	row "" "" "ttwu_queued_by_level" "$q0" "$CL1_Q"
}

demo_numa_scan() {
	note "numa_scan: not run: it needs NUMA balancing over two nodes, and this guest has $(find /sys/devices/system/node -maxdepth 1 -name 'node[0-9]*' | wc -l) (make check's two-node boot shows it): $(feature_reason numa_scan)"
}

# the tick preemptions of the last ev_window: EEVDF's, or 6.1 CFS's
ev_counted() { if ev_is_eevdf; then echo "$EV_PD"; else echo "$EV_TP"; fi; }
demo_eevdf() {
	if [ "$(nproc)" -lt 2 ]; then
		note "eevdf: not run: needs 2 CPUs"
		return 0
	fi
	if ev_is_eevdf; then ev_c=preempt_deadline; else ev_c=tick_preempts; fi
	set_knob eevdf_counters 1
	ev_hogs 2
	sleep 1
	ev_window "stock"
	p0=$(ev_counted) t0e=$EV_LOC
	slice=$(ev_base)
	r=$(wr eevdf_slice fixed)
	if [ "$r" = OK ]; then
		set_knob eevdf_slice_ns 12000000
		sleep 1
		ev_window "fixed 12 ms"
		p1=$(ev_counted) t1e=$EV_LOC
		set_knob eevdf_slice stock
		setting="eevdf_slice stock${slice:+ ($((slice / 1000)) us)} -> fixed 12 ms"
	else
		p1="n/a" t1e="n/a"
		setting="eevdf_slice stock (fixed refused here: $r)"
		note "eevdf: the slice policy is not supported here (eevdf_slice=fixed: $r): $(feature_reason eevdf); its counters are"
	fi
	ev_hogs_stop
	set_knob eevdf_counters 0
	counted "eevdf: preemptions counted" "$p0"
	row eevdf "$setting" "$ev_c, 2 hogs on cpu$EV_CPU, ${EV_SECS} s" "$p0" "$p1"
	row "" "" "timer ticks of cpu$EV_CPU (LOC), same ${EV_SECS} s" "$t0e" "$t1e"
	note "eevdf: eevdf_counters=1 in both runs: $ev_c counts the tick's preemptions"
}

demo_prev_bias() {
	# shellcheck disable=SC2154 # hb_run's eval
	row prev_bias "prev_bias 0 -> 1" "hackbench migrations, median of $DM_HB_REPS" \
		"$DM_HB_STOCK" "$(echo "$DM_MIG_prev_bias" | median)"
	row "" "" "prev_bias_kept + _target_room + _recent_room" - "$DM_PB_PLACED"
}

demo_sync_short() {
	# every wakeup through select_task_rq_fair (6.12+: DELAY_DEQUEUE off)
	delay_dequeue_off
	SS_CPUS=0-$(($(nproc) - 1))
	if [ "$(cat /sys/devices/system/cpu/cpu0/topology/thread_siblings_list 2>/dev/null)" != 0 ]; then
		SS_CPUS=0,3
		pb_spin 1 2
	fi
	cost=
	[ -w "$SS_COST_DBG" ] && cost=$(cat "$SS_COST_DBG")
	llc=$(ss_llc_size)
	# What short means, (duration << 16) < migration_cost_ns x llc^2,
	# calls no task of an emulated CPU short at the booted cost: the
	# threshold goes to eight times the pair's CPU time a wakeup (as the
	# sync_short test does), for both runs.
	SS_WARMUP=$((DM_SS_ROUNDS / 5))
	ss_run $((DM_SS_ROUNDS / 2)) 0 2
	if [ -z "$cost" ]; then
		note "sync_short: not run: $SS_COST_DBG is not writable, so what short means cannot be set for an emulated CPU"
	elif ! step "sync pair ran (st_syncpair: $(cat /tmp/ss.out))" test "$SS_WAKEUPS" -gt 0; then
		:
	else
		thr=$((SS_CPU_US * 8 * 1000))
		max=$((4294967295 * llc * llc / 65536))
		[ "$thr" -le "$max" ] || thr=$max
		echo $((thr * 65536 / (llc * llc))) >"$SS_COST_DBG"
		ss_run "$DM_SS_ROUNDS" 0 2
		l0=$SS_LOCAL w0=$SS_WAKEUPS
		counted "sync pair, sync_short=0" "$l0"
		set_knob sync_short 1
		ss_run "$DM_SS_ROUNDS" 0 2
		counted "sync pair, sync_short=1" "$SS_LOCAL"
		set_knob sync_short 0
		row sync_short "sync_short 0 -> 1" \
			"sync pair's wakeups on the waker's CPU, of $w0" "$l0" "$SS_LOCAL"
		row "" "" "sync_short_placed" - "$SS_PLACED"
		note "sync_short: debugfs migration_cost_ns $cost -> $(cat "$SS_COST_DBG") in both runs: a task under $((thr / 1000)) us a wakeup is short (at $cost the patch's bar, $((cost * llc * llc / 65536)) ns at $llc CPUs per LLC, is under any task of an emulated CPU)"
		echo "$cost" >"$SS_COST_DBG"
	fi
	delay_dequeue_on
	[ -n "$PB_SPIN" ] && pb_spin_stop
	true
}

for d in "$ST"/features/*/; do
	f=${d%/}
	f=${f##*/}
	s=$(feature_state "$f")
	if [ "$s" = unsupported ]; then
		note "$f: unsupported on $(uname -r): $(feature_reason "$f")"
	else
		echo "  $f..."
		DM_T=$(now_cs)
		case $f in
		cache_level) demo_cache_level ;;
		eevdf) demo_eevdf ;;
		numa_scan) demo_numa_scan ;;
		prev_bias) demo_prev_bias ;;
		ratelimit) demo_ratelimit ;;
		sync_short) demo_sync_short ;;
		*) note "$f: no demo workload for it yet ($s: $(feature_reason "$f"))" ;;
		esac
		echo "    $(secs "$DM_T" "$(now_cs)") s"
	fi
done
DM_T1=$(now_cs)

echo
echo "== side by side: counts under qemu TCG, not hardware timings =="
awk -F'\t' '
	{ for (i = 1; i <= NF; i++) { c[NR, i] = $i; if (length($i) > w[i]) w[i] = length($i) } }
	END {
		split("feature|knob setting (stock -> on)|what is counted|stock|on", h, "|")
		for (i = 1; i <= 5; i++) if (length(h[i]) > w[i]) w[i] = length(h[i])
		f = "  %-" w[1] "s  %-" w[2] "s  %-" w[3] "s  %" w[4] "s  %" w[5] "s\n"
		printf f, h[1], h[2], h[3], h[4], h[5]
		for (r = 1; r <= NR; r++) printf f, c[r, 1], c[r, 2], c[r, 3], c[r, 4], c[r, 5]
	}' "$DM_ROWS"
if [ -s "$DM_NOTES" ]; then
	echo
	sed 's/^/  /' "$DM_NOTES"
fi
echo
echo "  stock: the module loaded, every feature off (ratelimit_window_ns=0, cache_share_level=llc,"
echo "  numa_scan_threshold=0); on: that one feature's knob set, the rest stock.  The hackbench rows"
echo "  share their stock runs.  -: the feature is off at stock and counts nothing.  TCG counts vary"
echo "  from run to run; hackbench's migrations, the load balancer's included, most of all."

st_unload || DM_FAILED="$DM_FAILED rmmod"
n=$(splats_new)
step "no kernel report (oops, WARNING, BUG, ...) during the demo" test "$n" = 0 ||
	dmesg_new | grep -E -A3 "$SPLAT" | head -n 20
echo
echo "guest time: $(secs "$DM_T0" "$DM_T1") s of workloads and listing (uptime at the end $(cut -d' ' -f1 /proc/uptime) s)"
if [ -z "$DM_FAILED" ]; then
	echo "demo: ok ($DM_STEPS steps)"
	exit 0
fi
echo "demo: FAILED:$DM_FAILED"
exit 1
