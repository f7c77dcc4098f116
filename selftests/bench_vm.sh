#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2034 # ST_* globals are read by lib.sh
# sched-tune-bench in Debian kernels under qemu (TCG), as root on Debian 12.
#
#   selftests/bench_vm.sh [full|smoke]   make bench-vm runs "full"
#
# full:  for each kernel of BENCH_KERNELS (default "backports
#        trixie-backports"), one guest of 8 vCPUs (2 sockets x 2 cores x 2
#        threads, so L2 < LLC) and 2 NUMA nodes runs the whole bench; its
#        report, JSON and plots land in $ST_BUILD/bench-vm/<kver>/.
# smoke: the short run of make check (st_bench_smoke KVER, also callable
#        from selftests/run.sh after sourcing this file): the report's
#        shape, knobs restored after a run and after SIGINT/SIGTERM.
#
# The harness is the selftests' (st_boot, st_build_initramfs, ...; its
# guest side is guest/bench*.sh); bench/ is the Python tool it runs.
#
# The guest's initramfs gets python3 (a pruned copy of the host's stdlib),
# perf, hackbench, tbench and the bench itself through st_build_initramfs's
# ST_INITRAMFS_HOOK; results come back base64 on the guest's TAP serial
# port between two marker lines, and the host writes the report again with
# its plots (Debian's python3-matplotlib, which the guest does not carry;
# results.json stays as the guest wrote it).
#
# Environment: BENCH_KERNELS, BENCH_ARGS (replace the full run's bench
# options), BENCH_SMOKE_ARGS, BENCH_TIMEOUT (s per guest, default 2700),
# ST_BUILD (default build/), ST_QEMU_ACCEL as for make check.

# run.sh sources lib.sh first: sourcing it again would reset its counters
if ! declare -F st_result >/dev/null; then
	# shellcheck source=selftests/lib.sh
	. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
fi
# the bench: its sched-tune-bench, stbench package and tests
BENCH_DIR=$ST_ROOT/bench

BENCH_SMP=8,sockets=2,cores=2,threads=2
BENCH_CPU=max,vendor=GenuineIntel
BENCH_MEM=3G
BENCH_NUMA="-object memory-backend-ram,id=m0,size=1536M -object memory-backend-ram,id=m1,size=1536M
	-numa node,nodeid=0,cpus=0-3,memdev=m0 -numa node,nodeid=1,cpus=4-7,memdev=m1"

# The full run: every configuration and workload and the A/A copy of
# stock, 4 repetitions, runs of about 3 s of guest time, the rate-limit
# window swept on hackbench up to 1 s: an emulated CPU makes few wakeups
# in the seed's 2 ms.
BENCH_ARGS=${BENCH_ARGS:---reps 4 --run-seconds 3 --aa --numa-fast-scan --numa-mb 16 --hackbench-groups 1,2
	--sweep ratelimit_window_ns=0,2000000,20000000,100000000,1000000000 --sweep-workloads hackbench
	--title bench-vm}
# The smoke run: all configurations, every workload once per configuration
# and repetition, 2 repetitions (Welch needs 2), 1 s runs.
BENCH_SMOKE_ARGS=${BENCH_SMOKE_ARGS:---reps 2 --run-seconds 1 --idle-window 0.2 --numa-fast-scan --hackbench-groups 1
	--hackbench-loops 20 --messaging-loops 5 --numa-threads 8 --numa-mb 8 --cpurate-kb 256 --sweep cache_share_level=llc,l2,smt --sweep-workloads pipe
	--title smoke}

bench_host_deps() {
	st_ensure_host
	mapfile -t pkgs < <(st_py strunner.bench packages)
	st_apt_install "${pkgs[@]}"
}

# ST_INITRAMFS_HOOK: everything the bench needs in the guest
# (strunner/bench.py hook).
bench_initramfs_hook() { st_py strunner.bench hook "$BENCH_DIR" "$1" "$BENCH_GUEST_ARGS"; }

# bench_guest KVER MODE OUTDIR: builds everything for KVER and boots it;
# BENCH_BUILD=0 takes the module make check built already.  Returns
# qemu's status (124: hung).
bench_guest() {
	local kver=$1 mode=$2 out=$3
	st_prepare_kernel "$kver"
	# (st_build_module starts $ST_BUILD/<kver> afresh)
	if [[ ${BENCH_BUILD:-1} == 0 && -f $ST_KO ]]; then
		:
	elif ! st_build_module "$kver"; then
		tail -n 30 "$ST_BUILD/$kver/build.log"
		return 1
	fi
	mkdir -p "$out"
	st_build_helpers || return 1
	ST_INITRAMFS_HOOK=bench_initramfs_hook st_build_initramfs "$kver" "$ST_KO" "$out/initramfs.cpio" || return 1
	st_log "$kver: booting the bench guest ($BENCH_SMP, 2 NUMA nodes, qemu $ST_QEMU_ACCEL), mode $mode"
	ST_QEMU_SMP=$BENCH_SMP ST_QEMU_CPU=$BENCH_CPU ST_MEM=$BENCH_MEM ST_QEMU_EXTRA=$BENCH_NUMA \
		ST_GUEST_TIMEOUT=${BENCH_TIMEOUT:-2700} ST_GUEST_SILENCE=${BENCH_TIMEOUT:-2700} st_boot "$ST_VMLINUZ" "$out/initramfs.cpio" "$out/guest" st_mode="$mode"
}

# st_bench_smoke KVER: the smoke run, counted through st_result (KTAP of
# the guest, group "<kver> bench").  The guest turns sched-tune-bench
# check's lines into results but not its exit status (a check that
# crashes prints no "not ok"), so the same check runs again here on the
# results the guest sent back, and its exit status counts
# (strunner/bench.py smoke).
st_bench_smoke() {
	local kver=$1 out=$ST_BUILD/$1/bench-smoke rc
	BENCH_GUEST_ARGS=$(tr -s ' \t\n' '   ' <<<"$BENCH_SMOKE_ARGS")
	bench_guest "$kver" benchsmoke "$out"
	rc=$?
	st_guest_verdict "$kver bench" "$rc" "$out/guest" benchsmoke
	st_records "$kver bench" st_py strunner.bench smoke "$BENCH_DIR" "$out"
}

# st_bench_unit: the bench's Python unit tests (statistics, report)
# under "bench-unit" (lib.sh st_unittest).  BENCH_UNIT_DIR: tests of
# another directory (runner_test.sh).
st_bench_unit() { st_unittest bench-unit "${BENCH_UNIT_DIR:-$BENCH_DIR/tests}" bench; }

bench_full() {
	local name kver out rc t0 load0
	for name in ${BENCH_KERNELS:-backports trixie-backports}; do
		if st_kernel_suite "$name" >/dev/null; then
			kver=$(st_resolve_kver "$name") || return 1
		else
			kver=$name
		fi
		out=$ST_BUILD/bench-vm/$kver
		rm -rf "$out"
		BENCH_GUEST_ARGS=$(tr -s ' \t\n' '   ' <<<"$BENCH_ARGS")
		t0=$SECONDS
		load0=$(cut -d' ' -f1-3 /proc/loadavg)
		st_log "kernel '$name': $kver; bench options: $BENCH_GUEST_ARGS"
		rm -f "$out/made-by.txt"
		bench_guest "$kver" bench "$out"
		rc=$?
		st_log "$kver: guest done after $((SECONDS - t0)) s (qemu rc $rc)"
		grep -a '^\[' "$out/guest/console.log" | tr -d '\r' | tail -n 5 | sed 's/^/#   /'
		if ! st_py strunner.bench extract "$out/guest/tap.log" "$out" || [[ ! -f $out/report.md ]]; then
			st_log "$kver: no results came back; TAP and console tails:"
			tail -n 20 "$out/guest/tap.log" | tr -d '\r'
			tail -n 40 "$out/guest/console.log" | tr -d '\r'
			return 1
		fi
		# the plots, drawn on the host from the guest's results.json
		/usr/bin/python3 "$BENCH_DIR/sched-tune-bench" report "$out" >"$out/report.log" 2>&1
		st_log "$kver: report written on the host (exit $?: 1 when runs failed)"
		rm -f "$out/report.log"
		printf '%s\n' "BENCH_KERNELS=$name selftests/bench_vm.sh full  # BENCH_ARGS: $BENCH_GUEST_ARGS" \
			"guest: qemu $ST_QEMU_ACCEL, -cpu $BENCH_CPU -smp $BENCH_SMP, 2 NUMA nodes, $BENCH_MEM; host: $(nproc) CPUs, $((SECONDS - t0)) s" \
			"host load average (1, 5, 15 min) at start: $load0, at end: $(cut -d' ' -f1-3 /proc/loadavg)" \
			>"$out/made-by.txt.host"
		# the guest's own made-by.txt (the bench's machine record) follows the host's lines
		if [[ -f $out/made-by.txt ]]; then
			sed 's/^/guest: /' "$out/made-by.txt" >>"$out/made-by.txt.host"
		fi
		mv "$out/made-by.txt.host" "$out/made-by.txt"
		st_log "$kver: report in $out/report.md"
	done
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	set -uo pipefail
	[[ ${1:-full} != smoke ]] || st_results_main "$0" "$@"
	[[ $EUID == 0 ]] || st_die "run as root (installs packages, boots qemu; loads nothing on the host)"
	mkdir -p "$ST_BUILD"
	bench_host_deps
	case ${1:-full} in
	full) bench_full ;;
	smoke)
		st_bench_unit
		for k in ${BENCH_KERNELS:-backports}; do
			if st_kernel_suite "$k" >/dev/null; then k=$(st_resolve_kver "$k") || exit 1; fi
			st_bench_smoke "$k"
		done
		st_summary
		((ST_FAIL == 0)) ;;
	*) st_die "usage: $0 [full|smoke]" ;;
	esac
fi
