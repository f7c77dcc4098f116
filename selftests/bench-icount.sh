#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make bench-icount: what sched_tune's hooks cost, in instructions per
# round trip of a pipe ping-pong, on each supported kernel.
#
# Each kernel boots under qemu -accel tcg,thread=single -icount
# shift=0,sleep=off with 2 vCPUs on 2 sockets; guest/icount.sh runs the
# configurations interleaved (unloaded, stock, passthrough, ratelimit,
# cache_level; see there) and prints ns per round trip, which icount makes
# instructions per round trip.  These are instruction counts of an emulated
# CPU, not timings: nothing here says how long a wakeup takes on hardware.
#
# Environment: ST_KERNELS (names from lib.sh; default stable backports
# trixie trixie-backports), ST_IC_ROUNDS=20000, ST_IC_REPS=4,
# ST_IC_CONFIGS=unloaded,ratelimit (a subset), ST_IC_MODARGS=direct_hooks=0
# (module parameters for every load, comma-separated), ST_IC_SETTLE=2
# (guest seconds idle before each timed run), ST_IC_SHORT=1
# (make check's mode: 3000 rounds, 5 reps, the first kernel only),
# ST_IC_MAX_PCT=2 (each feature's allowed cost over unloaded), ST_BUILD,
# ST_SRC.  Prints a markdown table, then "N passed, N failed"; exits 1
# when a feature costs more than ST_IC_MAX_PCT, or all of them at once
# (all) as much as they do apart (one estimate, the paired median, over
# the runs of every boot made: a second is made when a feature is over in
# the first, or was never measured apart there: st_icount_measure) or a
# run failed.
set -uo pipefail
# shellcheck source=selftests/lib.sh source-path=SCRIPTDIR/..
. "$(dirname "$0")/lib.sh"
st_results_main "$0" "$@"

[[ $EUID == 0 ]] || st_die "run as root (installs packages, loads nothing on the host)"
ST_SRC=${ST_SRC:-$ST_ROOT}
KNAMES=${ST_KERNELS:-stable backports trixie trixie-backports}
if [[ ${ST_IC_SHORT:-0} == 1 ]]; then
	ROUNDS=${ST_IC_ROUNDS:-3000} REPS=${ST_IC_REPS:-5}
	KNAMES=${KNAMES%% *}
else
	ROUNDS=${ST_IC_ROUNDS:-20000} REPS=${ST_IC_REPS:-4}
fi

st_ensure_host
mkdir -p "$ST_BUILD"
if st_build_helpers; then st_result pass host "static guest helpers build (gcc -static)"
else st_result fail host "static guest helpers build (gcc -static)"; fi
st_log "source tree: $ST_SRC ($(git -C "$ST_SRC" describe --always --dirty 2>/dev/null || echo 'not git'))"

ROWS=()
for k in $KNAMES; do
	if st_kernel_suite "$k" >/dev/null; then kver=$(st_resolve_kver "$k") || exit 1
	else kver=$k; fi
	st_log "kernel '$k': $kver"
	out=$ST_BUILD/$kver
	st_prepare_kernel "$kver"
	if ! ST_ROOT=$ST_SRC st_build_module "$kver" || [[ ! -f $ST_KO ]]; then
		st_result fail "$kver icount" "build sched_tune.ko against linux-headers-$kver"
		grep -E 'error|warning' "$out/build.log" | head -n 30 | sed 's/^/#   /'
		continue
	fi
	st_build_initramfs "$kver" "$ST_KO" "$out/initramfs.cpio"
	st_log "$kver: icount boot, $ROUNDS round trips x $REPS repetitions per configuration"
	# A 6.1 boot whose pair mostly ends on one CPU (a sync wakeup's
	# wake_affine) lost every repetition of a configuration at 5 tries;
	# 10 take up to twice as long, so the guest gets twice the time.
	ST_GUEST_TIMEOUT=$((2 * ST_GUEST_TIMEOUT)) \
	st_icount_measure "$kver icount" "$out/icount" st_ic_rounds="$ROUNDS" st_ic_reps="$REPS" \
		st_ic_tries="${ST_IC_TRIES:-10}" \
		${ST_IC_CONFIGS:+st_ic_configs="$ST_IC_CONFIGS"} \
		${ST_IC_MODARGS:+st_ic_modargs="$ST_IC_MODARGS"} \
		${ST_IC_SETTLE:+st_ic_settle="$ST_IC_SETTLE"}
	grep -a 'sched_tune: .*hook' "$out/icount/console.log" | tr -d '\r' | sort -u | head -n 8 | sed 's/^/#   console: /'
	mapfile -t -O "${#ROWS[@]}" ROWS < <(st_icount_table "$kver" "$out/icount/tap.log")
	[[ ! -f $out/icount-2/tap.log ]] ||
		mapfile -t -O "${#ROWS[@]}" ROWS < <(st_icount_table "$kver (second boot)" "$out/icount-2/tap.log"
			st_icount_table "$kver (both boots: the estimate held)" "$out/icount/tap.log" "$out/icount-2/tap.log")
done

echo "#"
echo "# instructions per round trip (qemu icount: guest ns = instructions; not hardware timings)"
echo "# $ROUNDS round trips x $REPS interleaved repetitions, 2 vCPUs on 2 sockets"
echo "| kernel | configuration | median | min-max | spread | runs | vs unloaded (medians) | vs unloaded (paired: median ratio, repetitions, [interval] coverage) | migrations |"
echo "|---|---|---|---|---|---|---|---|---|"
printf '%s\n' "${ROWS[@]}"
st_summary
((ST_FAIL == 0))
