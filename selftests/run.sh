#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make check: the whole sched_tune test bench, as root on Debian 12.
#
#  host:   install what is missing, resolve the kernels from their suites'
#          meta packages (lib.sh), run selftests/unit; the lint beside it
#  pkg:    (beside the host's tests and the kernels, from the start) the
#          Debian package (selftests/pkg.sh): make deb, lintian, apt
#          install/purge in Debian 12 and 13 chroots, DKMS from the tree,
#          each module's signature verified against DKMS's key
#  kernel: (ST_JOBS at a time) build the module against its headers in
#          its Debian release's chroot, with W=1 and then sparse (no
#          warning in the module's files; strunner/kjob.py), check the .ko for
#          tail calls into static-call trampolines (a tail call into an
#          original loops forever), boot it under qemu TCG with our
#          initramfs (for Debian 12's kernels, the package stage's
#          DKMS-built module where modprobe finds it) and collect the
#          guest's KTAP; a two-node boot where numa_scan is supported
#  last:   what the user has of sched_tune on this machine (DKMS, /usr/src,
#          modules, package) is exactly as before; the support matrix
#          (kernel x feature) and the summary
#
# Knobs (environment): ST_KERNELS="backports trixie trixie-backports stable
# backports-cloud" (names from lib.sh, or exact kvers),
# ST_SHORT_BOOT="backports-cloud" (those of ST_KERNELS booted with a few
# units only, ST_SHORT_ARGS, and no two-node boot; empty: the full suite),
# ST_BUILD_ONLY="security612 stable-cloud trixie-cloud trixie-backports-cloud"
# (built, not booted), ST_JOBS=nproc+1 (kernels at once), ST_PKG=0 (skip the
# package stage), ST_ICOUNT=0 and ST_BENCH_SMOKE=0 (skip the hook-cost and bench
# boots of the 6.12 kernel), ST_OPS_BOOT=0 (skip the direct_hooks=0 boot
# of Debian 13's 6.12), ST_LLC8_BOOT=0 (skip sync_short's 8-CPU boot),
# ST_SMP=4, ST_GUEST_TIMEOUT=2400 (s per boot, or twice its estimate), ST_GUEST_SILENCE=600 (s
# without a new result: a hung guest), ST_BUDGET=4800 (s for the whole
# run, summary included: see "one deadline" below), ST_SHORT=1 (a run
# declared short: what the budget drops is a skip, not a failure),
# ST_PACE=0.5 (the machine taken as half as fast again: every estimate
# doubled), ST_FRESH=1 (chroots rebuilt from nothing),
# ST_GUEST_ARGS="st_only=knobs st_hb_loops=400 st_mig_reps=2", ST_SRC=tree
# to test (default: this repo).
# ST_PROGRESS=25 (every Nth result of a group streams as a comment).
#
# Output: one KTAP document whose results are the groups, each a nested
# document of its own checks: a host stage (host, runner, unit, lint,
# pkg...), a kernel, a boot ("KVER numa").  A group is printed when it
# ends (its stage or its kernel's job), the others on the way out, so
# every result is printed even in a stopped run; meanwhile failures,
# skips and every ST_PROGRESS-th result stream as "# [GROUP] ..."
# comments.  Then a summary per group, the failed checks, the plan 1..K
# (groups), and last "N passed, N failed[, N skipped]" (checks); exit 1
# if any failed: strunner/results.py prints them (lib.sh st_results_main),
# the summary too if this script dies, and stops it at ST_BUDGET if its
# own deadline did not.
set -uo pipefail
# shellcheck source=selftests/lib.sh source-path=SCRIPTDIR/..
. "$(dirname "$0")/lib.sh"
st_results_main --budget "$0" "$@"
# shellcheck source=selftests/pkg.sh
. "$(dirname "$0")/pkg.sh"
# the bench's unit tests and smoke run (st_bench_unit, st_bench_smoke)
# shellcheck source=selftests/bench_vm.sh
. "$(dirname "$0")/bench_vm.sh"

[[ $EUID == 0 ]] || st_die "run as root (installs packages, loads nothing on the host)"
ST_SRC=${ST_SRC:-$ST_ROOT}
START=$SECONDS START_EPOCH=$EPOCHSECONDS
stamp() { st_log "[$((SECONDS - START)) s] $*"; }
# One deadline (lib.sh st_run_init): ST_BUDGET s from here, summary
# included.  Kernels run as jobs whose results are counted as they come;
# a kernel or boot that does not fit is not started and fails by name;
# at the deadline, or on SIGTERM or SIGINT, the guests stop, what they
# printed is counted, what did not run fails by name, and the summary
# follows (finish).
st_run_init
trap 'st_on_signal SIGTERM' TERM
trap 'st_on_signal SIGINT' INT
# what is left to do, each named as not run if the run stops first
TODO=("host setup" "the runner's own test" "the support matrix"
	"the fidelity pages" "unit tests"
	"the bench's unit tests" "the runner's unit tests" lint "Debian package stage")
STARTED=()
HOST_STATE_TAKEN=
done_stage() {
	local t=() x
	for x in "${TODO[@]}"; do [[ $x == "$1" ]] || t+=("$x"); done
	TODO=("${t[@]}")
	st_deadline_check
	! st_stopped || st_finish
}
# stage_on GROUP BOOT: whether BOOT's stage variable (ST_ICOUNT...)
# leaves it on; off, a skip that names it (strunner/plan.py on).
# shellcheck disable=SC2317 # run in the kernel jobs
stage_on() { st_records "$1" st_py strunner.plan on "$2" && ((ST_RECORDS == 0)); }
# plan CMD ARGS...: the run's plan (strunner/plan.py), RUN given
plan() { st_py strunner.plan "$1" "$ST_RUN" "${@:2}"; }
# plan_fits JOB: whether JOB's estimate fits before the deadline; if not,
# it fails as not run (strunner/plan.py fits).
plan_fits() { st_qemu_env st_records "$1" st_py strunner.plan fits "$ST_RUN" "$1" && ((ST_RECORDS == 0)); }
# before anything is installed: what the user has of sched_tune
if st_host_state >"$ST_RUN/host-state"; then HOST_STATE_TAKEN=1
else st_result fail host "the machine's own sched_tune state, read before anything is installed"; fi

stamp "host setup"
# ST_FRESH=1: the chroots made anew (debootstrap, apt), as a new machine
# meets them; a chroot made months ago hides solver conflicts.
if [[ ${ST_FRESH:-0} == 1 ]]; then
	st_log "ST_FRESH=1: chroots rebuilt from nothing"
	rm -f "$ST_CACHE"/chroot/*/.st-ready
fi
st_ensure_host
if [[ ${ST_BENCH_SMOKE:-1} == 1 ]]; then st_apt_install "${BENCH_PKGS[@]}"; fi
done_stage "host setup"

# --- unit tests (selftests/unit, KTAP on stdout) -----------------------------
run_unit() {
	if [[ ! -f $ST_SRC/selftests/unit/Makefile ]]; then
		st_result skip unit "selftests/unit" "no selftests/unit/Makefile yet"
		return
	fi
	st_ktap_run unit "make -C selftests/unit" make -s -C "$ST_SRC/selftests/unit"
}

# --- one kernel: build, static checks, boot --------------------------------------
# run_kernel KVER [build-only]
# shellcheck disable=SC2317 # run through st_job_start
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
# shellcheck disable=SC2317 # run through st_job_start
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

# The support matrix: each kernel booted, the state each feature reported
# there at load with its defaults (numa_scan from the two-node boot where
# there was one: on one node it is idle by design).
print_matrix() {
	local k started=()
	for k in "${KERNELS[@]}"; do [[ " ${STARTED[*]} " != *" $k "* ]] || started+=("$k"); done
	st_py strunner.support table "$ST_BUILD" "${started[@]}"
}

# guest_run KVER BOOT OUTDIR: boots the kernel with the initramfs in
# OUTDIR/.. as the plan says (strunner/plan.py boot: the guest's mode
# and words, -smp, estimate), its KTAP counted as KVER, or "KVER BOOT",
# its plan against the host's; a boot whose estimate does not fit before
# the deadline is not started and fails as not run; one that ran its
# plan records how long it took, for the factor (strunner/guest.py run).
# Returns 1 if the guest never started.
# shellcheck disable=SC2317 # run by run_kernel
guest_run() {
	local label=$1
	[[ $2 == main ]] || label+=" $2"
	rm -f "$3/console.log"
	ST_T0=$START_EPOCH ST_SPLAT=$ST_SPLAT st_qemu_env st_records "$label" \
		st_py strunner.plan boot "$ST_RUN" "$1" "$2" "$ST_VMLINUZ" "$3"
	[[ -f $3/console.log ]]
}

# plan_check (st_jobs_pump's hook): once the first guest has said its
# pace, and again once a boot has run to its end, what the rest of the
# plan needs at this machine's pace against what is left: kernels
# running (less what they ran so far) and those to come, in ST_JOBS
# lanes (strunner/budget.py plan).  Said, not counted: a kernel or boot
# that does not fit fails by name when its turn comes.
PLAN_SAID=
# shellcheck disable=SC2317 # run through ST_PUMP_HOOK
plan_check() {
	local why k jobs=()
	if compgen -G "$ST_RUN/boots/*" >/dev/null; then why=boots
	elif compgen -G "$ST_RUN/pace/*" >/dev/null; then why=pace
	else return 0; fi
	[[ $PLAN_SAID != *"$why"* ]] || return 0
	PLAN_SAID+=" $why"
	for k in "${JOBS[@]}"; do
		[[ -n ${K_START[$k]:-} || " ${STARTED[*]} " != *" $k "* ]] || continue
		jobs+=("$k" "$((EPOCHSECONDS - ${K_START[$k]:-EPOCHSECONDS}))")
	done
	st_qemu_env st_records host st_py strunner.plan budget "$ST_RUN" "$why" "$ST_JOBS" "${jobs[@]}"
}

# st_finish (lib.sh st_on_signal calls it too): once the kernels ended,
# or the run stopped (its jobs then stop their guests, and are killed
# after ST_STOP_GRACE s), counts everything they printed, names what did
# not run, checks the machine's own state, and sums up (st_summary ends
# the groups still open: host, and those of kernels not run).
st_finish() {
	local t k
	ST_FINISHING=1
	st_stopped && st_jobs_stop
	for t in "${TODO[@]}"; do st_not_run host "$t" ""; done
	[[ ! -f $ST_RUN/plan.json ]] ||
		st_qemu_env st_records host st_py strunner.plan not-run "$ST_RUN" "${STARTED[@]}"
	# last: nothing the user had of sched_tune changed (DKMS registration and
	# trees, modules, key, package, configuration)
	[[ -z $HOST_STATE_TAKEN ]] || st_records host st_py strunner.host unchanged "$ST_RUN/host-state"
	stamp "done"
	echo "#"
	echo "# the ten slowest guest units:"
	st_slowest_units 10 | sed 's/^/#   /'
	print_matrix
	st_summary
	((ST_FAIL == 0)) && exit 0
	exit 1
}

mkdir -p "$ST_BUILD"
trap pkg_umount_all EXIT
# The plan (strunner/plan.py): the kernels booted (longest first, so
# that the lanes of ST_JOBS end together), those with a short boot, those
# built only, and the jobs in the order they start.  Names resolve
# through the suites' meta packages; an exact kver is taken as it is.
st_records host st_py strunner.plan init "$ST_CACHE" "$ST_RUN" "$ST_TESTS" ||
	st_die "the plan: a kernel name did not resolve"
mapfile -t KERNELS < <(plan list kernels)
mapfile -t SHORT < <(plan list short)
mapfile -t JOBS < <(plan list jobs)
# a heads-up, no result: Debian kernels past what the gate checked
st_newer_kernels
st_log "source tree: $ST_SRC ($(git -C "$ST_SRC" describe --always --dirty 2>/dev/null || echo 'not git'))"

if st_build_helpers; then st_result pass host "static guest helpers build (gcc -static)"
else st_result fail host "static guest helpers build (gcc -static)"; fi
# host_test GROUP SCRIPT: a host-side KTAP test of selftests/ counted under
# GROUP (st_ktap_run).
host_test() {
	st_ktap_run "$1" "selftests/$2" bash "$ST_SRC/selftests/$2"
	st_group_end "$1"
}
# The package stage (chroots, apt, DKMS builds) and the lint run beside
# the host's tests and the kernels, from the start: Debian 12's kernel
# jobs wait for the stage's DKMS-built modules (138 s of a lane on
# 2026-12-04 when it began after the lint), and the host's tests leave a
# core idle.
stamp "Debian package (selftests/pkg.sh), in the background"
# a kernel job waits for the stage's verified modules: none of an earlier run
rm -rf "$ST_BUILD/pkg/ko"
st_job_start pkg "$ST_BUILD/pkg.results" side -- run_pkg
PKG_PID=$(st_job_pid pkg)
done_stage "Debian package stage"
# shellcheck disable=SC2317 # run through st_job_start
# (make lint's W=1 and sparse builds, st_lint_kbuild, are the kernel
# jobs' own builds here, for every kernel)
run_lint() {
	ST_ROOT=$ST_SRC st_lint lint
	st_abi_check lint
	st_kdoc_check lint
}
stamp "lint: shellcheck, checkpatch --strict, the ABI file, in the background"
st_job_start lint "$ST_BUILD/lint.results" side -- run_lint
done_stage lint
stamp "the runner's own test (selftests/runner_test.sh)"
host_test runner runner_test.sh
done_stage "the runner's own test"
stamp "the support matrix (strunner/support.py, support-matrix, docs/kernels.md)"
st_support_data_check host
st_support_doc_check "$ST_SRC/docs/kernels.md" host
done_stage "the support matrix"
stamp "the fidelity pages (strunner/fidelity.py, docs/features)"
st_fidelity_check fidelity
st_group_end fidelity
done_stage "the fidelity pages"
stamp "unit tests"
run_unit
st_group_end unit
done_stage "unit tests"
st_bench_unit
st_group_end bench-unit
done_stage "the bench's unit tests"
# the runner's Python (selftests/strunner/tests, of the runner's tree as
# its code is): kernels, chroots
st_unittest strunner-unit "$ST_ROOT/selftests/strunner/tests" strunner
st_group_end strunner-unit
done_stage "the runner's unit tests"
# Kernels run as jobs, ST_JOBS at a time, each started only if its
# estimate fits before the deadline; their results are counted as they
# come (st_jobs_pump).  One single-threaded qemu per host core, and one
# more: a guest idles in its units' sleeps and timed windows (two guests
# on 2 cores left 21% of the CPU idle; a third cut it to 9% and ran
# 3 guests in 515 s where 2 took 414 s, 2026-12-05).
ST_JOBS=${ST_JOBS:-$(($(nproc) + 1))}
declare -A K_START=()
ST_PUMP_HOOK=plan_check
for k in "${JOBS[@]}"; do
	st_jobs_wait "$ST_JOBS" || st_finish
	STARTED+=("$k")
	if [[ $k == *" "* ]]; then
		K_START[$k]=$EPOCHSECONDS
		st_job_start "$k" "$ST_BUILD/${k% *}.${k#* }.results" -- \
			run_boot "${k% *}" "$(st_job_pid "${k% *}")" "${k#* }"
		continue
	fi
	plan_fits "$k" || continue
	mkdir -p "$ST_BUILD/$k"
	K_START[$k]=$EPOCHSECONDS
	if [[ " ${KERNELS[*]} " == *" $k "* ]]; then
		st_job_start "$k" "$ST_BUILD/$k.results" -- run_kernel "$k"
	else
		st_job_start "$k" "$ST_BUILD/$k.results" -- run_kernel "$k" build-only
	fi
done
st_jobs_wait 1 all
st_finish

