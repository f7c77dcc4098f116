#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# One job of make check (strunner/runner.py starts each):
#
#   job.sh run_kernel KVER [build-only]   a kernel's builds, checks, boots
#   job.sh run_boot KVER PID BOOT         a boot of its own (the plan's)
#
# Its results flat, then "# job-end RC" (lib.sh run_job); the run's
# clock, deadline and plan are the runner's (ST_RESULTS_T0, ST_RUN).
set -uo pipefail
# shellcheck source=selftests/lib.sh source-path=SCRIPTDIR/..
. "$(dirname "$0")/lib.sh"
# shellcheck source=selftests/pkg.sh
. "$(dirname "$0")/pkg.sh"
# the bench's smoke run (st_bench_smoke)
# shellcheck source=selftests/bench_vm.sh
. "$(dirname "$0")/bench_vm.sh"
[[ -n $ST_RESULTS_T0 ]] || st_die "a job of make check: strunner/runner.py starts it"
ST_SRC=${ST_SRC:-$ST_ROOT}
st_run_clock
START_EPOCH=$ST_T0
PKG_PID=${ST_PKG_PID:-}

stamp() { st_log "[$((EPOCHSECONDS - ST_T0)) s] $*"; }
# stage_on GROUP BOOT: whether BOOT's stage variable (ST_ICOUNT...)
# leaves it on; off, a skip that names it (strunner/plan.py on).
stage_on() { st_records "$1" st_py strunner.plan on "$2" && ((ST_RECORDS == 0)); }
# plan CMD ARGS...: the run's plan (strunner/plan.py), RUN given
plan() { st_py strunner.plan "$1" "$ST_RUN" "${@:2}"; }
# plan_fits JOB: whether JOB's estimate fits before the deadline; if not,
# it fails as not run (strunner/plan.py fits).
plan_fits() { st_qemu_env st_records "$1" st_py strunner.plan fits "$ST_RUN" "$1" && ((ST_RECORDS == 0)); }
# --- one kernel: build, static checks, boot --------------------------------------
# run_kernel KVER [build-only]
run_kernel() {
	local kver=$1 out=$ST_BUILD/$1
	rm -f "$out/ready"
	stamp "kernel $kver: build"
	st_prepare_kernel "$kver"
	# the module with W=1 and sparse, the test livepatch, the static
	# checks; a kernel that boots: the sched_ext scheduler, the test
	# modules (strunner/kjob.py)
	st_records "$kver" st_py strunner.kjob builds "$ST_CACHE" "$ST_ROOT" "$ST_SRC" "$ST_BUILD" \
		"$kver" ${2:+"$2"}
	[[ -f $ST_KO && ${2:-} != build-only ]] || return 0
	# Debian 12's kernels: the module the package stage's DKMS built and
	# signed, whose signature pkg.sh verified, is the one the modprobe
	# unit loads (Debian 13's stage ends too late for their boots)
	PKG_KO_READY='' PKG_KO_WHY="the package stage's DKMS-built modules go into the Debian 12 kernels' boots only"
	if [[ $(st_kernel_env "$kver") == bookworm ]]; then
		stamp "kernel $kver: the package stage's DKMS-built module"
		pkg_ko_wait "$kver" "$PKG_PID" || st_log "$kver: no DKMS-built module for the guest: $PKG_KO_WHY"
	fi
	ST_INITRAMFS_HOOK=pkg_initramfs_hook st_build_initramfs "$kver" "$ST_KO" "$out/initramfs.cpio" &&
		touch "$out/ready"
	guest_run "$kver" main "$out/guest" || return 0
	local boot=main
	[[ " ${SHORT[*]} " == *" $kver "* ]] && boot=short
	st_support_assert "$kver" "$kver" "$boot" "$out/guest/tap.log"
	local numa_log=$out/guest/tap.log
	if plan has "$kver" numa && [[ $(st_guest_feature "$out/guest/tap.log" numa_scan) != unsupported ]] &&
		stage_on "$kver numa" numa; then
		guest_run "$kver" numa "$out/guest-numa"
		st_support_assert "$kver numa" "$kver" numa "$out/guest-numa/tap.log"
		numa_log=$out/guest-numa/tap.log
	fi
	if plan has "$kver" llc8 && stage_on "$kver llc8" llc8; then
		guest_run "$kver" llc8 "$out/guest-llc8"
	fi
	echo "# matrix: $kver $(st_guest_feature "$out/guest/tap.log" ratelimit) $(st_guest_feature "$out/guest/tap.log" cache_level) $(st_guest_feature "$numa_log" numa_scan) $(st_guest_feature "$out/guest/tap.log" eevdf)"
}

# run_boot KVER PID BOOT: KVER's BOOT (strunner/plan.py) as a job of its own
# beside the kernel's (PID), which builds the module and the initramfs
# it boots first: the lanes then end closer together.  Each boot is held
# to the budget when its turn comes.
run_boot() {
	local kver=$1 pid=$2 boot=$3 out=$ST_BUILD/$1
	while [[ ! -f $out/ready ]] && kill -0 "$pid" 2>/dev/null && ! st_stopped; do sleep 2; done
	if [[ ! -f $out/ready ]]; then
		st_qemu_env st_records "$kver $boot" st_py strunner.plan not-run "$ST_RUN" --why \
			"the kernel's job ended before its initramfs was built" "$kver $boot"
		return
	fi
	st_prepare_kernel "$kver"
	stage_on "$kver $boot" "$boot" || return 0
	case $boot in
	direct_hooks=0)
		guest_run "$kver" "$boot" "$out/guest-ops"
		st_support_assert "$kver $boot" "$kver" ops "$out/guest-ops/tap.log"
		;;
	icount|bench)
		plan_fits "$kver $boot" || return 0
		stamp "$kver $boot"
		if [[ $boot == icount ]]; then st_icount_short "$kver icount" "$out/icount"; fi
		if [[ $boot == bench ]]; then BENCH_BUILD=0 st_bench_smoke "$kver"; fi
		;;
	esac
}

# guest_run KVER BOOT OUTDIR: boots the kernel with the initramfs in
# OUTDIR/.. as the plan says (strunner/plan.py boot: the guest's mode
# and words, -smp, estimate), its KTAP counted as KVER, or "KVER BOOT",
# its plan against the host's; a boot whose estimate does not fit before
# the deadline is not started and fails as not run; one that ran its
# plan records how long it took, for the factor (strunner/guest.py run).
# Returns 1 if the guest never started.
guest_run() {
	local label=$1
	[[ $2 == main ]] || label+=" $2"
	rm -f "$3/console.log"
	ST_T0=$START_EPOCH ST_SPLAT=$ST_SPLAT st_qemu_env st_records "$label" \
		st_py strunner.plan boot "$ST_RUN" "$1" "$2" "$ST_VMLINUZ" "$3"
	[[ -f $3/console.log ]]
}

mapfile -t SHORT < <(plan list short)
case ${1:-} in
run_kernel | run_boot) run_job "$@" ;;
*) st_die "usage: job.sh run_kernel KVER [build-only] | run_boot KVER PID BOOT" ;;
esac
