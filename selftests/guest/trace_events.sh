# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# The module's trace events (module/sched_tune_trace.h), sourced by
# tests.sh after lib.sh and the units whose workloads it borrows: each
# event is on while a feature decides, and its count in the trace buffer
# (plus the buffer's overruns) must equal what the decision's counters
# gained.  Between the bracket's two reads only the feature's own knob
# makes such decisions: it is stock before and after.

TE_EV=$TR/events/sched_tune
TE_ROUNDS=$(st_arg te_rounds 50)

# te_begin EVENT=COUNTER[+COUNTER]...: an empty buffer, the events on,
# their counters read
te_begin() {
	TE_SPECS=$*
	echo 0 >"$TR/tracing_on"
	echo >"$TR/trace"
	for sp in $TE_SPECS; do
		echo 1 >"$TE_EV/${sp%%=*}/enable"
		eval "TE_C0_${sp%%=*}=\$(te_sum ${sp#*=})"
	done
	echo 1 >"$TR/tracing_on"
}

# te_end: the counters read, the events off; each event's count plus the
# buffer's overruns against its counters' growth, and its fields.  The
# knob that decides is stock again before: no decision falls between.
te_end() {
	for sp in $TE_SPECS; do
		eval "TE_C1_${sp%%=*}=\$(te_sum ${sp#*=})"
	done
	echo 0 >"$TR/tracing_on"
	for sp in $TE_SPECS; do echo 0 >"$TE_EV/${sp%%=*}/enable"; done
	lost=$(cat "$TR"/per_cpu/cpu*/stats 2>/dev/null | awk '$1 == "overrun:" { s += $2 } END { print s + 0 }')
	for sp in $TE_SPECS; do
		e=${sp%%=*}
		grew=0
		eval "grew=\$((TE_C1_$e - TE_C0_$e))"
		n=$(grep -c " $e: " "$TR/trace")
		diag "${e#sched_tune_}: $n events, $lost lost to overruns (all events); ${sp#*=} grew by $grew"
		diag "${e#sched_tune_}: first event: $(grep -m1 " $e: " "$TR/trace" | sed 's/^ *//')"
		check "${e#sched_tune_}: the counters grew" test "$grew" -gt 0
		check_eq "${e#sched_tune_}: one $e event per decision counted" "$((n + lost))" "$grew"
		check "${e#sched_tune_}: the event's fields as its format says" \
			grep -qE " $e: $(te_fields "$e")" "$TR/trace"
	done
	echo 1 >"$TR/tracing_on"
}

# te_format EVENT FIELD...: the format file names each field
te_format() {
	f=$TE_EV/$1/format
	miss=
	for fl in "$@"; do
		[ "$fl" = "$1" ] && continue
		grep -q "field:.*[ *]$fl\(\[[0-9]*\]\)\?;" "$f" 2>/dev/null || miss="$miss $fl"
	done
	check "events/sched_tune/$1/format has its fields" test -z "$miss"
	[ -z "$miss" ] || diag "$1: missing:$miss"
}

t_trace_events() {
	group "trace events: one per decision that differs from stock"
	if [ ! -d "$TR/events" ]; then
		ktap_skip "trace events" "no tracefs events here"
		return 0
	fi
	st_load ratelimit_window_ns=0 cache_share_level=llc numa_scan_threshold=0 ||
		{ ktap_fail "trace events: insmod"; return 1; }
	kb=$(cat "$TR/buffer_size_kb")
	echo 4096 >"$TR/buffer_size_kb"
	for e in ratelimit_keep ratelimit_quota prev_bias sync_short cache_level numa_scan eevdf_slice eevdf_restore; do
		check "events/sched_tune/sched_tune_$e exists" test -d "$TE_EV/sched_tune_$e"
	done
	te_format sched_tune_ratelimit_keep comm pid prev_cpu stock_cpu cpu
	te_format sched_tune_prev_bias comm pid prev_cpu stock_cpu cpu step
	te_format sched_tune_eevdf_slice comm pid old slice

	if supported ratelimit; then
		te_begin sched_tune_ratelimit_keep=ratelimit_kept_prev_cpu
		wr ratelimit_window_ns 1000000000 >/dev/null
		wakemig /tmp/te.wm "$TE_ROUNDS" 1000000000 || diag "st_wakemig failed: $(cat /tmp/te.wm)"
		wr ratelimit_window_ns 0 >/dev/null
		te_end

		te_begin sched_tune_ratelimit_quota=ratelimit_quota_halved+ratelimit_quota_replenished
		wr ratelimit_mode adaptive >/dev/null
		wr ratelimit_window_ns "$RA_WINDOW" >/dev/null
		out=$(timeout 120 st_hopper 0 1 "$RA_WINDOW" 2 "$RA_HOPS" "$RA_SINGLES" "$ST/stats") ||
			diag "st_hopper failed: $out"
		wr ratelimit_window_ns 0 >/dev/null
		wr ratelimit_mode fixed >/dev/null
		te_end

		te_begin sched_tune_prev_bias=prev_bias_kept+prev_bias_target_room+prev_bias_recent_room
		wr prev_bias 1 >/dev/null
		wakemig /tmp/te.wm "$TE_ROUNDS" || diag "st_wakemig failed: $(cat /tmp/te.wm)"
		wr prev_bias 0 >/dev/null
		te_end
	else
		ktap_skip "trace events of the rate limit and prev_bias" "ratelimit unsupported here"
	fi

	cl_pick_pairs
	if supported cache_level && [ -n "$CL_FAR" ]; then
		te_begin sched_tune_cache_level=ttwu_queued_by_level+ttwu_direct_by_level
		wr cache_share_level l2 >/dev/null
		out=$(timeout 300 st_pingpong "$CL_A" "$CL_FAR" "$TE_ROUNDS" 1) || diag "st_pingpong failed: $out"
		wr cache_share_level llc >/dev/null
		te_end
	else
		ktap_skip "trace events of the cache level" "no two CPUs share an LLC but not an L2"
	fi

	if ev_is_eevdf && ev_slice_checked && supported eevdf; then
		ev_hogs 2
		te_begin sched_tune_eevdf_slice=eevdf_slices_set sched_tune_eevdf_restore=eevdf_slices_restored
		wr eevdf_slice fixed >/dev/null
		sleep 2
		# stopped, the hogs keep their 12 ms slices for the restore
		# shellcheck disable=SC2086 # two pids
		kill -STOP $EV_PIDS
		wr eevdf_slice stock >/dev/null
		te_end
		ev_hogs_stop
	else
		ktap_skip "trace events of the eevdf slice" "no slice policy here (CFS)"
	fi
	echo "$kb" >"$TR/buffer_size_kb"
	echo >"$TR/trace"
	check "trace events: rmmod" st_unload
}
