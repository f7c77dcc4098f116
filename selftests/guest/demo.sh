# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash # busybox ash: dash is the nearest shell shellcheck checks
# Guest side of `make demo` (st_mode=demo): load the module, run the same
# workload with the rate limit off and on, and print knobs, features,
# counters and task migrations side by side.
# shellcheck source=selftests/guest/lib.sh
. /st/lib.sh

echo "sched_tune demo on $(uname -r), $(nproc) vCPUs (qemu TCG: timings are emulated, not hardware)"
st_load || { echo "insmod failed:"; dmesg | tail -n 20; exit 1; }
echo
echo "== knobs =="
for k in enabled ratelimit_window_ns ratelimit_burst cache_share_level \
	cache_share_auto_llc_max numa_scan_threshold numa_scan_renew; do
	printf '  %-26s %s\n' "$k" "$(knob $k)"
done
echo
echo "== features =="
for f in $FEATURES; do printf '  %-12s %-11s %s\n' "$f" "$(feature_state "$f")" "$(feature_reason "$f")"; done
if [ -d /sys/kernel/debug/sched/llc_balancing ]; then
	echo
	echo "== cache-aware load balancing (SCHED_CACHE, debugfs sched/llc_balancing) =="
	for f in /sys/kernel/debug/sched/llc_balancing/*; do printf '  %-26s %s\n' "${f##*/}" "$(head -n1 "$f" 2>/dev/null)"; done
fi
echo
mig_setup
run() {	# run LABEL WINDOW
	wr ratelimit_window_ns "$2" >/dev/null
	wr stats/reset 1 >/dev/null
	mig_begin
	t0=$(now_cs)
	hb
	t1=$(now_cs)
	m=$(mig_end)
	printf '  %-22s %10s %10s %12s %14s %12s %8s\n' "$1" "$2" "$m" \
		"$(stat_get ratelimit_checked)" "$(stat_get ratelimit_kept_prev_cpu)" \
		"$(stat_get ratelimit_migrations_stamped)" "$(secs "$t0" "$t1")s"
}
echo "== hackbench -g $HB_GROUPS -f 10 --threads --pipe -l $HB_LOOPS -s 100 =="
printf '  %-22s %10s %10s %12s %14s %12s %8s\n' run window_ns migrations checked kept_prev_cpu stamped time
run "rate limit off" 0
run "seed default (2 ms)" 2000000
run "long window (1 s)" 1000000000
mig_teardown
echo
echo "(migrations: sched_migrate_task events of hackbench threads; counters: stats/ after a reset per run)"
st_unload
