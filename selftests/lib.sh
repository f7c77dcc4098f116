# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # its globals (ST_KO, ST_TAP_*) are read by job.sh and demo.sh
# Shared host-side code of the sched_tune test bench, sourced by run.sh, job.sh and
# demo.sh.  Everything here runs as root on a Debian 12 host; the module is
# only ever loaded inside Debian kernels booted under qemu (TCG).

ST_ROOT=${ST_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
ST_TESTS=$ST_ROOT/selftests
# make check's Python (selftests/strunner) and the bench's statistics,
# the runner's own copy even for another tree (ST_SRC), run by Debian's
# python3 (0.03 s a start; a pyenv shim first on PATH took 0.3 s on
# 2026-12-06), with -P: nothing of the caller's directory imported
ST_PYTHONPATH=$ST_ROOT/selftests:$ST_ROOT/bench
ST_PYTHON=/usr/bin/python3
ST_BUILD=${ST_BUILD:-$ST_ROOT/build}
ST_CACHE=${ST_CACHE:-/var/cache/sched_tune}
# what a user who is not root fetches (make lint), where ST_CACHE is root's
ST_USER_CACHE=${ST_USER_CACHE:-${XDG_CACHE_HOME:-${HOME:-/nonexistent}/.cache}/sched_tune}
# Guest shape.  4 vCPUs keeps TCG on 2 host cores fast enough.  An Intel
# flavour of -cpu max, since qemu's default AMD one gives every SMT thread
# its own L2 (run.sh boots SMT cores for the cache-level pairs).
ST_SMP=${ST_SMP:-4}
ST_QEMU_SMP=${ST_QEMU_SMP:-$ST_SMP}
ST_QEMU_CPU=${ST_QEMU_CPU:-max,vendor=GenuineIntel}
ST_MEM=${ST_MEM:-2G}
# Single-threaded TCG: multi-threaded TCG showed int3 oopses and hangs
# inside text_poke_bp while ftrace patched a call site (selftests/README.md).
ST_QEMU_ACCEL=${ST_QEMU_ACCEL:-tcg,thread=single}
# Extra qemu words, e.g. the NUMA nodes of the NUMA boot.
ST_QEMU_EXTRA=${ST_QEMU_EXTRA:-}
ST_QEMU=${ST_QEMU:-qemu-system-x86_64}
ST_GUEST_SILENCE=${ST_GUEST_SILENCE:-600}
ST_GUEST_TIMEOUT=${ST_GUEST_TIMEOUT:-2400}
# Memory debugging that Debian's kernels have: SLUB consistency
# checks, red zones, poisoning and owner tracking on every cache, and a
# KFENCE sample every millisecond (6.12 and later; 6.1 has no KFENCE and
# passes the word on to init).  A SLUB or KFENCE report fails the run
# (guest/lib.sh SPLAT).  ST_MEMDEBUG= (empty) boots without them.
ST_MEMDEBUG=${ST_MEMDEBUG-slub_debug=FZPU kfence.sample_interval=1}

export DEBIAN_FRONTEND=noninteractive

st_log() { printf '# %s\n' "$*"; }
st_die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# --- results ---------------------------------------------------------------
# Every check, host or guest, goes through st_result so that the closing
# "N passed, N failed" line and the per-group summary count the same
# things.  st_result prints the result flat, "ok N - [GROUP] desc", and
# make check's results (strunner/results.py, which st_results_main puts
# the script under) make them one KTAP document: the groups (a host
# stage, a kernel, a boot) as nested documents, each printed when
# st_group_end ends it, and the summary st_summary asks for.  A job's
# results (ST_FLAT, run_job) go to its file, which the results follow;
# its groups end with it (strunner/runner.py job).
ST_PASS=0 ST_FAIL=0 ST_SKIP=0 ST_NUM=0
ST_FLAT=${ST_FLAT:-}
declare -A ST_KFAIL=()
# the results' start (epoch seconds) for the script they run, which
# scripts it runs do not inherit: each has results of its own
ST_RESULTS_T0=${ST_RESULTS_T0:-}
export -n ST_RESULTS_T0

# st_result pass|fail|skip GROUP DESC [SKIP-REASON]
st_result() {
	local res=$1 group=$2 desc=$3 why=${4:-} v=ok
	ST_NUM=$((ST_NUM + 1))
	case $res in
	pass) ST_PASS=$((ST_PASS + 1)) ;;
	skip) ST_SKIP=$((ST_SKIP + 1)); desc+=" # SKIP $why" ;;
	*)
		ST_FAIL=$((ST_FAIL + 1)) v='not ok'
		ST_KFAIL[$group]=$((${ST_KFAIL[$group]:-0} + 1)) ;;
	esac
	echo "$v $ST_NUM - [$group] $desc"
}
# st_group_end GROUP: GROUP's results so far as a nested document, then
# its own result.  Nothing in a job: its groups end with it.
st_group_end() { [[ -n $ST_FLAT ]] || echo "# group-end $1"; }
# st_summary: every group still open ended, the per-group table, the
# failed results, the top-level plan and the line CI reads.
st_summary() { echo "# summary"; }
# st_results_main [--budget] SCRIPT ARG...: unless it already is, the
# script again (bash SCRIPT ARG...) under make check's results, which
# sum up even if it dies; --budget (make check) also holds it to
# ST_BUDGET.
st_results_main() {
	local budget=()
	[[ -z $ST_RESULTS_T0 ]] || return 0
	[[ $1 == --budget ]] && { budget=(--budget); shift; }
	# Debian 12 without python3 (debootstrap's minbase) as root: installed
	if [[ ! -x $ST_PYTHON && $EUID == 0 ]]; then
		st_log "installing python3"
		mkdir -p "$ST_CACHE"
		flock "$ST_CACHE/apt-host.lock" sh -c 'apt-get update -qq &&
			apt-get install -y -qq --no-install-recommends python3' >"$ST_CACHE/apt-install.log" 2>&1 ||
			{ tail -n 30 "$ST_CACHE/apt-install.log"; st_die "apt-get install python3 failed"; }
	fi
	PYTHONPATH=$ST_PYTHONPATH exec "$ST_PYTHON" -P -m strunner.results run "${budget[@]}" bash "$@"
}

# st_records GROUP CMD...: the records CMD prints (one of make check's
# Python modules: fields split by 0x1f, so empty ones survive read) into
# st_result under GROUP: "R VERDICT NAME [SKIP-REASON]" a result, "C TEXT"
# a comment of GROUP's, "L TEXT" a line for the log, "# ..." one as it
# is (what a module logs while it works), "G GROUP" the group of the
# records after it, "P PLAN COUNT" the
# top-level plan and results of a KTAP stream, into ST_TAP_PLAN (empty
# when the stream had none, e.g. a hang) and ST_TAP_COUNT.  CMD exiting
# non-zero (a Python error) fails: its records may stop short.
# ST_RECORDS counts its results.
st_records() {
	local group=$1 kind a b c rc
	shift
	ST_TAP_PLAN='' ST_TAP_COUNT=0 ST_RECORDS=0
	while IFS=$'\x1f' read -r kind a b c; do
		case $kind in
		R) st_result "$a" "$group" "$b" "$c"; ((++ST_RECORDS)) ;;
		G) group=$a ;;
		C) echo "# [$group] $a" ;;
		L) st_log "$a" ;;
		P) ST_TAP_PLAN=$a ST_TAP_COUNT=$b ;;
		'#'*) echo "$kind" ;;
		esac
	done < <("$@")
	wait $! && return 0
	rc=$?
	st_result fail "$group" "${*:1:3}: exited $rc, its results may stop short"
	return "$rc"
}
# Feed a KTAP stream (file $2) into st_result under group $1, through
# make check's one KTAP reader (selftests/strunner/ktap.py: every leaf
# result counts, a subtest stopped short or with a plan its results miss
# fails; comments echoed in place).
st_ingest_tap() { st_records "$1" st_py strunner.ktap "$2"; }
# st_py MODULE ARGS...: one of make check's Python modules (selftests/
# strunner, with the bench's statistics)
st_py() { PYTHONPATH=$ST_PYTHONPATH "$ST_PYTHON" -P -m "$@"; }

# st_ktap_run GROUP NAME CMD...: the KTAP producer CMD, its output in
# $ST_BUILD/GROUP.log, counted under GROUP; one that printed no result,
# whose plan is not its count, or that exited non-zero with no failure
# fails, naming NAME (strunner/ktap.py run).
st_ktap_run() {
	local group=$1 name=$2
	shift 2
	st_records "$group" st_py strunner.ktap run "$name" "$ST_BUILD/$group.log" "$@"
}

# st_unittest GROUP DIR NAME: the Python unit tests DIR/test_*.py
# (Debian's python3, bench/tests/run.py's KTAP, each result "NAME: TEST")
# counted under GROUP.
st_unittest() { st_ktap_run "$1" "$2" "$ST_PYTHON" "$ST_ROOT/bench/tests/run.py" "$2" "$3"; }

# replay FILE GROUP: the results a job printed to FILE (run_job: flat,
# its own numbering), counted under GROUP as a job that ended, FILE's
# lines passed on now.
replay() {
	echo "# job-lines $2"
	cat "$1"
	echo "# job-lines-end"
}
# run_job CMD...: CMD, its results flat (st_result), then its exit status
# as the job's last line ("# job-end RC").
run_job() { ST_FLAT=1; "$@"; echo "# job-end $?"; }

# --- one deadline: budget, estimates, stop -----------------------------------
# make check has one time budget, ST_BUDGET seconds from its start (CI's
# 90 minutes less a margin for CI's own setup).  Its guests are stopped at
# ST_DEADLINE, ST_BUDGET_TAIL seconds before the budget ends, which leaves
# the time to count what they printed and print the summary.  Every boot's
# timeout is cut to what is left (st_boot); a kernel or boot whose estimate
# does not fit is not started, and fails by name (a skip in a run
# declared short, ST_SHORT=1); SIGTERM, SIGINT or the deadline write the
# reason to $ST_RUN/stop (strunner/runner.py), which every job's guest and
# the jobs themselves obey.  Estimates are reference seconds (strunner/plan.py
# EST, the timings of selftests/README.md) times the machine's factor
# (strunner/budget.py factor).
ST_BUDGET=${ST_BUDGET:-4800}
ST_BUDGET_TAIL=${ST_BUDGET_TAIL:-90}
# seconds a stopped job has to end on its own before it is killed
ST_STOP_GRACE=${ST_STOP_GRACE:-45}
ST_RUN=${ST_RUN:-$ST_BUILD/run}
ST_DEADLINE=${ST_DEADLINE:-}
# the guest pace (st_boot records it, "# pace: 400 hackbench loops in N cs")
# of a machine as fast as the one the plan's EST figures were taken on, or
# slower: beside other guests, 245 to 640 cs on 2026-12-04
ST_PACE_HOST_CS=${ST_PACE_HOST_CS:-600}

# st_run_clock: this run's clock and deadline.
st_run_clock() {
	ST_T0=${ST_RESULTS_T0:-$EPOCHSECONDS}
	ST_DEADLINE=$((ST_T0 + ST_BUDGET - ST_BUDGET_TAIL))
}
# st_stopped: the run was told to stop (deadline, signal: strunner/runner.py).
st_stopped() { [[ -n $ST_DEADLINE && -f $ST_RUN/stop ]]; }
# st_budget_ok GROUP DESC SECS: whether DESC, SECS reference seconds,
# fits before the deadline at this machine's pace; if not, it fails as
# not run, a skip in a run declared short (strunner/budget.py fits).
st_budget_ok() {
	[[ -n $ST_DEADLINE ]] || return 0
	st_qemu_env st_records "$1" st_py strunner.budget fits "$@" && ((ST_RECORDS == 0))
}

# st_kill_tree PID: PID and every process below it, all listed first;
# SIGKILL a second after SIGTERM for what is left (strunner/results.py).
st_kill_tree() { st_py strunner.results kill "$1"; }

# --- host dependencies -------------------------------------------------------
# Debian 12 checked, bookworm-backports, the packages and qemu
# (strunner/host.py says which and why); apt one at a time.

st_ensure_host() { st_py strunner.host ensure "$ST_CACHE" || exit 1; }

# st_apt_install [-t RELEASE] PKG...: installs only what is missing.
st_apt_install() { st_py strunner.host install "$ST_CACHE" "$@" || exit 1; }

# --- kernels ---------------------------------------------------------------------
# The kernels sched_tune supports, by the names ST_KERNELS takes, each
# resolved at run time from a meta package of its suites
# (strunner/kernels.py NAMES):
#   stable            Debian 12, 6.1    bookworm(-security)   linux-headers-amd64
#   backports         Debian 12, 6.12   bookworm-backports    linux-headers-amd64
#   security612       Debian 12, 6.12   bookworm-security     linux-headers-6.12-amd64
#   trixie            Debian 13, 6.12   trixie(-security)     linux-headers-amd64
#   trixie-backports  Debian 13, 7.x    trixie-backports      linux-headers-amd64
# and each one's cloud flavour (NAME-cloud: the same suites, the meta
# package's -cloud-amd64 twin, resolving to 6.12.N+deb12-cloud-amd64):
# built in the same chroot, its image fetched the same way.

# st_kernel_suite NAME -> "ENV META SUITE-PATTERN"; fails for a name that
# is not one.
st_kernel_suite() { st_py strunner.kernels suite "$1"; }

# st_kernel_env KVER: the Debian release whose chroot builds for KVER,
# never the host (strunner/kernels.py env says why).
st_kernel_env() { st_py strunner.kernels env "$1"; }

# st_resolve_kver NAME -> e.g. 6.12.95+deb12-amd64: the highest version of
# the meta package among the suites, never a hard-coded version, read in
# the chroot of its release (made first, as root; a user who is not
# root reads it as it is).
st_resolve_kver() { st_py strunner.kernels resolve "$ST_CACHE" "$1" || exit 1; }

# st_ensure_headers KVER: linux-headers-KVER in its release's chroot
# (made first), installed from backports when that is where it lives.
st_ensure_headers() { st_py strunner.kernels headers "$ST_CACHE" "$1" || exit 1; }

# st_fetch_vmlinuz KVER: the kernel image, from its package without
# installing it, cached across runs (7.x ships it in linux-binary-*,
# under usr/lib/modules/KVER/).  Sets ST_VMLINUZ (no stdout: apt may log).
st_fetch_vmlinuz() {
	ST_VMLINUZ=$ST_CACHE/kernels/$1/vmlinuz
	[[ -f $ST_VMLINUZ ]] || st_py strunner.kernels fetch "$ST_CACHE" "$1" || exit 1
}

# --- module build --------------------------------------------------------------

# st_kbuild KVER SRC OUT [MAKE-ARGS...]: the Kbuild tree SRC built
# against KVER's headers in its release's chroot, the copy with its
# objects and build.log left in OUT; make's status.  ST_KBUILD_SPARSE:
# sparse on it after (strunner/kbuild.py says how).
st_kbuild() { st_py strunner.kbuild build "$ST_CACHE" "$@"; }

# st_build_module KVER [test [MAKE-ARGS...]]: the working tree against one
# kernel: $ST_BUILD/<kver>/sched_tune.ko and build.log there; "test":
# the selftests' build, with the fault injection (Kbuild ST_TEST=1).
# Returns make's status.
st_build_module() {
	st_kbuild "$1" "$ST_ROOT" "$ST_BUILD/$1" ${2:+ST_TEST=1} "${@:3}"
}

# --- guest image ---------------------------------------------------------------

# The guests' static helpers and the initramfs's tree (strunner/image.py).
st_build_helpers() { st_py strunner.image helpers "$ST_ROOT" "$ST_BUILD"; }

# st_build_initramfs KVER KO OUT: the guest's initramfs, OUT: busybox,
# hackbench, the helpers, the guest scripts, the module KO, the test
# modules built for KVER (strunner/image.py tree), then what the
# caller's ST_INITRAMFS_HOOK ROOT adds (bench_vm.sh: python3, perf,
# tbench).
st_build_initramfs() {
	local root rc
	root=$(mktemp -d "$ST_BUILD/initramfs.XXXXXX") || return 1
	st_py strunner.image tree "$ST_CACHE" "$ST_ROOT" "${ST_SRC:-$ST_ROOT}" "$ST_BUILD" "$1" "$2" "$root" &&
		{ [[ -z ${ST_INITRAMFS_HOOK:-} ]] || "$ST_INITRAMFS_HOOK" "$root"; } &&
		(cd "$root" && find . -print0 | cpio --null -o -H newc --quiet) >"$3"
	rc=$?
	rm -rf "$root"
	return $rc
}

# The kernel's own stall detectors, at what TCG on a shared host allows:
# a guest whose host ran other guests for a while is starved, not stuck.
# RCU's CPU stall at its longest (300 s; 6.1 caps the expedited one at
# 21 s), the soft lockup at 120 s (twice watchdog_thresh, 60 at most by
# sysctl), the hung-task detector at 240 s: each still reports a real
# hang, with its backtraces, before ST_GUEST_SILENCE (600 s) ends the guest.
ST_GUEST_WATCHDOGS=${ST_GUEST_WATCHDOGS-rcupdate.rcu_cpu_stall_timeout=300 rcupdate.rcu_exp_cpu_stall_timeout=300000 watchdog_thresh=60 sysctl.kernel.hung_task_timeout_secs=240}

# st_boot VMLINUZ INITRAMFS OUTDIR CMDLINE-EXTRA...: the guest run to
# its end by selftests/strunner/qemu.py: its console (kernel log) in
# OUTDIR/console.log, its KTAP in OUTDIR/tap.log (a second serial port,
# so printk never interleaves with results); a guest silent for
# ST_GUEST_SILENCE s or running ST_GUEST_TIMEOUT s gets an NMI (every
# CPU's backtrace) before the kill, OUTDIR/hung saying which; none
# outlives the run's deadline, and a run that stops ($ST_RUN/stop) stops it
# at once, OUTDIR/stopped saying why.  The guest learns ST_GUEST_SILENCE
# (st_silence=), which its workloads' timeouts stay under, and its pace
# goes to $ST_RUN/pace (strunner/budget.py factor).  Returns qemu's
# status, 124 for a hung or stopped guest.
st_boot() { st_qemu_env st_py strunner.qemu "$3" "$1" "$2" "${@:4}"; }
# st_qemu_env CMD...: CMD with the guest's settings, the run's deadline,
# its budget and pace in its environment, where strunner/qemu.py (and
# budget.py) read them.  An oops panics the guest (oops=panic), which
# then ends at once (panic=-1, qemu -no-reboot): a task that oopsed with
# a lock held would hang its CPU until ST_GUEST_SILENCE.
st_qemu_env() {
	local cmdline="console=ttyS0 panic=-1 oops=panic log_buf_len=8M unknown_nmi_panic panic_print=0x40 softlockup_all_cpu_backtrace=1 $ST_GUEST_WATCHDOGS $ST_MEMDEBUG st_silence=$ST_GUEST_SILENCE"
	ST_QEMU=$ST_QEMU ST_QEMU_ACCEL=$ST_QEMU_ACCEL ST_QEMU_CPU=$ST_QEMU_CPU \
		ST_MEM=$ST_MEM ST_QEMU_SMP=$ST_QEMU_SMP ST_QEMU_EXTRA=$ST_QEMU_EXTRA ST_CMDLINE=$cmdline \
		ST_GUEST_TIMEOUT=$ST_GUEST_TIMEOUT ST_GUEST_SILENCE=$ST_GUEST_SILENCE \
		ST_DEADLINE=${ST_DEADLINE:-} ST_BUDGET_TAIL=$ST_BUDGET_TAIL ST_RUN=$ST_RUN \
		ST_BUDGET=$ST_BUDGET ST_SHORT=${ST_SHORT:-0} ST_PACE_HOST_CS=$ST_PACE_HOST_CS \
		ST_PACE=${ST_PACE:-1} "$@"
}

# Everything up to a bootable image for one kernel: headers, vmlinuz,
# module build.  Sets ST_VMLINUZ and ST_KO.
st_prepare_kernel() {
	local kver=$1
	st_ensure_headers "$kver"
	st_fetch_vmlinuz "$kver"
	ST_KO=$ST_BUILD/$kver/sched_tune.ko
}

# st_guest_feature TAPLOG FEATURE: the state a guest run reported for
# FEATURE ("features on this kernel: ratelimit active, ..."), its first
# word, or "-" (strunner/support.py state).
st_guest_feature() { st_py strunner.support state "$1" "$2"; }

# --- hook cost in instructions (qemu icount) ---------------------------------
# Under `-icount shift=0,sleep=off` (single-threaded TCG) one guest
# nanosecond is one executed instruction and idle time is skipped, so a
# ping-pong's ns per round trip counts the instructions on its path.  2 vCPUs
# on 2 sockets: no LLC shared, the cross-LLC pair of cache_share_level=l2.
# guest/icount.sh prints every run as "# icount CONFIG NS_PER_ROUND".
# Each feature is held to the limit; all (every feature in, each
# decision stock's) is printed, and held to cost less than its features
# apart (strunner/icount.py shared); passthrough (the seed values,
# whose 2 ms window sends a recently migrated task's wakeups to the
# clock) is printed with its ratios, not held.
ST_IC_FEATURES="ratelimit cache_level eevdf prev_bias sync_short"
ST_IC_MAX_PCT=${ST_IC_MAX_PCT:-2}

# --- what a guest must run, and what it did ------------------------------------
# The units a boot runs come from one list: guest/tests.sh's ALL_UNITS
# (st_only picks, st_skip keeps a unit in the plan as a skip), the
# units_run line of any other mode's script (numa, icount, benchsmoke).
# The guest prints its plan ("# plan: UNIT..."); the host computes its
# own from the same list and the boot's words, and the two must agree.
# st_plan MODE WORDS...: the boot's plan into ST_PLAN (its units in
# order), ST_PLAN_RUNS (how many run, skips and whole_run aside) and
# ST_PLAN_UNKNOWN (names in st_only or st_skip that are no unit), from
# guest/MODE.sh (strunner/guest.py plan); fails for a mode with none.
st_plan() {
	local out
	ST_PLAN='' ST_PLAN_RUNS=0 ST_PLAN_UNKNOWN=''
	out=$(st_py strunner.guest plan "$ST_TESTS" "$@") || return 1
	{ read -r ST_PLAN; read -r ST_PLAN_RUNS; read -r ST_PLAN_UNKNOWN; } <<<"$out"
}

# Kernel reports (guest/lib.sh's SPLAT, the one list of both sides).
ST_SPLAT=$(SPLAT='' && eval "$(grep -E '^SPLAT=' "$ST_TESTS/guest/lib.sh")" && printf '%s' "$SPLAT")

# st_guest_verdict LABEL RC DIR [MODE WORDS...]: a guest's KTAP
# (DIR/tap.log) into the results, then one failure where it was stopped
# with the run (DIR/stopped), hung (RC 124: the last "# RUNNING" names
# where), died before its plan, stopped short of it, or qemu exited
# non-zero after it; with MODE, its plan against the host's (st_plan
# MODE WORDS); the console after the guest's last result (an oops at
# poweroff, which no unit's dmesg check sees); and the console's tail
# (DIR/console.log) when anything failed (strunner/guest.py verdict).
st_guest_verdict() {
	local label=$1 rc=$2 dir=$3
	shift 3
	st_records "$label" st_py strunner.guest verdict "$ST_TESTS" "$ST_SPLAT" "$label" "$rc" "$dir" "$@"
}

# st_icount_measure LABEL OUTDIR [GUEST-WORDS...]: the icount boot of
# the kernel whose ST_VMLINUZ and OUTDIR/../initramfs.cpio (any initramfs
# of st_build_initramfs) are ready, with its table and one st_result
# per held configuration (ST_IC_FEATURES), and a second, independent
# boot (OUTDIR-2) where one is over ST_IC_MAX_PCT or was never measured
# apart, held then on one estimate over the runs of both: never the
# better of two (strunner/icount.py measure).  The figure is
# deterministic, so this is an assertion on a benchmark, not a timing
# test.
# tsc=reliable: under icount the kernel finds the TSCs of the two sockets
# unsynchronized and falls back to hpet and the unstable sched_clock_cpu()
# path, which no server with a stable TSC runs; the vCPUs' TSCs all derive
# from one virtual clock, so they are in fact synchronized.
# No ST_MEMDEBUG: the cost is the kernel's as users boot it.  With
# KFENCE's sample every millisecond and SLUB's checks, a configuration's
# runs on 6.12 and 7.3 varied by up to 2% and one module's medians went
# from +0.4% to +2.7% a boot; without them, runs within 0.5% and a module
# loaded without hooks at +0.03% or less (docs/hook-cost.md).
st_icount_measure() {
	local label=$1 out=$2
	shift 2
	ST_MEMDEBUG='' ST_QEMU_ACCEL=tcg,thread=single ST_QEMU_CPU=max ST_QEMU_SMP=2,sockets=2,cores=1,threads=1 \
		ST_QEMU_EXTRA="-icount shift=0,sleep=off" st_qemu_env \
		st_records "$label" st_py strunner.icount measure --max "$ST_IC_MAX_PCT" \
		--features "$ST_IC_FEATURES" "$ST_TESTS" "$ST_SPLAT" "$label" "$ST_VMLINUZ" "$out" \
		st_mode=icount tsc=reliable "$@"
}
# st_icount_table KVER TAPLOG...: markdown rows, one per configuration:
# instructions per round trip (median, min-max, spread), the ratio of
# medians to unloaded, the paired ratio and the migrations of the timed
# rounds (min-max).
st_icount_table() { st_py strunner.icount table "$@"; }

# st_icount_short LABEL OUTDIR: make check's short run of st_icount_measure,
# 3000 round trips x 5 repetitions (about a minute).
st_icount_short() {
	st_icount_measure "$1" "$2" st_ic_rounds="${ST_IC_ROUNDS:-3000}" st_ic_reps="${ST_IC_REPS:-5}"
}

# --- lint (make lint; make check runs the same statics as a job) ----------------------

# st_statics [GROUP]: pyflakes on every Python file, shellcheck on every
# shell script, checkpatch --strict on every C/H file (one result per
# file, a failing file's findings after it; the types and lines
# checkpatch keeps are strunner/lint.py's IGNORE and LINE_OK, with their
# reasons, docs/style.md), the ABI file against the module's knob,
# counter and parameter tables both ways (strunner/abi.py), and the
# module's kerneldoc held to kernel-doc -none -Wall -v with a /** comment
# at each non-static function (strunner/kdoc.py), under GROUP (default
# "lint"); checkpatch.pl and kernel-doc come from Debian's
# linux-source-6.12, fetched once (strunner/lint.py statics).
st_statics() { st_records "${1:-lint}" st_py strunner.lint statics "$ST_ROOT" "$ST_CACHE" "$ST_USER_CACHE"; }

# st_fidelity_check [GROUP]: the fidelity pages (docs/features/*.md)
# held to their shape and to the tests they name, a result per feature
# and per page (strunner/fidelity.py); the tree is ST_SRC or ST_ROOT.
st_fidelity_check() { st_records "${1:-fidelity}" st_py strunner.fidelity "${ST_SRC:-$ST_ROOT}"; }

# --- the support matrix (selftests/support-matrix, strunner/support.py) -------
# Which feature runs where, as data: asserted against what each guest
# reports (st_support_assert LABEL KVER BOOT TAPLOG, a result per
# feature; BOOT is main, short or ops (one NUMA node) or numa); the
# gate, the rows and docs/kernels.md are checked by strunner/kjob.py and
# runner.py.  Paths follow ST_SRC; ST_SUPPORT_FILE and ST_SUPPORT_GATE
# override them.
st_support_py() {
	st_py strunner.support "$1" "${ST_SUPPORT_FILE:-${ST_SRC:-$ST_ROOT}/selftests/support-matrix}" \
		"${ST_SUPPORT_GATE:-${ST_SRC:-$ST_ROOT}/module/kernel/gate_checked.h}" "${@:2}"
}
st_support_assert() { st_records "$1" st_support_py assert "$2" "$3" "$4"; }

# st_objgraph_control GROUP: the positive control of the loop check make
# check runs on each kernel's objects (strunner.objgraph).
st_objgraph_control() { st_records "$1" st_py strunner.lint objgraph-control; }

# --- sparse and W=1 builds (make lint; make check's kernel builds) -------------

# The kernels make lint builds the module for: those make check boots
# (strunner/plan.py's ST_KERNELS less the cloud flavour, the same source).
ST_LINT_KERNELS=${ST_LINT_KERNELS:-stable backports trixie trixie-backports}

# st_lint_kbuild [GROUP]: the module built with W=1 and checked with
# sparse against each of ST_LINT_KERNELS, two results a kernel
# (strunner/lint.py kbuild).
st_lint_kbuild() {
	# shellcheck disable=SC2086 # a list of names
	st_records "${1:-kbuild}" st_py strunner.lint kbuild "$ST_ROOT" "$ST_CACHE" "$ST_USER_CACHE" \
		$ST_LINT_KERNELS
}
