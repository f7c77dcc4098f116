#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make check: the whole sched_tune test bench, as root on Debian 12.
#
#  host:   install what is missing, resolve the 6.12 (bookworm-backports) and
#          6.1 (bookworm/-security) kernels, run selftests/unit
#  kernel: build the module against its headers (no warnings), check the .ko
#          for tail calls into static-call trampolines (pitfall 1), DKMS
#          add/build/install/remove (6.12 only), boot it under qemu TCG
#          with our initramfs and collect the guest's KTAP
#
# Knobs (environment): ST_KERNELS="stable backports trixie trixie-backports"
# (names from lib.sh, or exact kvers),
# ST_SMP=4, ST_GUEST_TIMEOUT=1200 (s per boot), ST_GUEST_ARGS="st_only=knobs
# st_hb_loops=400 st_mig_reps=2", ST_SRC=tree to test (default: this repo).
# The last line is "N passed, N failed[, N skipped]"; exit 1 if any failed.
set -uo pipefail
# shellcheck source=selftests/lib.sh source-path=SCRIPTDIR/..
. "$(dirname "$0")/lib.sh"

[[ $EUID == 0 ]] || st_die "run as root (installs packages, loads nothing on the host)"
ST_SRC=${ST_SRC:-$ST_ROOT}
START=$SECONDS
stamp() { st_log "[$((SECONDS - START)) s] $*"; }

stamp "host setup"
st_ensure_host

# --- unit tests (selftests/unit, KTAP on stdout) -----------------------------
run_unit() {
	local log=$ST_BUILD/unit.log rc
	if [[ ! -f $ST_SRC/selftests/unit/Makefile ]]; then
		st_result skip unit "selftests/unit" "no selftests/unit/Makefile yet"
		return
	fi
	make -s -C "$ST_SRC/selftests/unit" >"$log" 2>&1
	rc=$?
	local before=$ST_FAIL
	st_ingest_tap unit "$log"
	if ((rc != 0 && ST_FAIL == before)); then
		st_result fail unit "make -C selftests/unit exited $rc"
		tail -n 30 "$log" | sed 's/^/#   /'
	elif ((ST_TAP_COUNT == 0)); then
		st_result fail unit "make -C selftests/unit printed no test results"
	fi
}

# --- DKMS, for real, against one installed kernel's headers ---------------------
run_dkms() {
	local kver=$1 conf=$ST_SRC/dkms.conf ver src ko log=$ST_BUILD/dkms.log
	if [[ ! -f $conf ]]; then
		st_result skip "$kver" "dkms add/build/install/remove" "no dkms.conf yet"
		return
	fi
	ver=$(sed -n 's/^PACKAGE_VERSION=["]*\([^"]*\)["]*/\1/p' "$conf")
	src=/usr/src/sched-tune-$ver
	# idempotent: drop whatever an earlier (maybe aborted) run left
	dkms remove -m sched-tune -v "$ver" --all >/dev/null 2>&1
	rm -rf "$src"
	mkdir -p "$src"
	tar -C "$ST_SRC" --exclude=./build --exclude=./.git -cf - . | tar -C "$src" -xf -
	: >"$log"
	dkms_step() {
		local what=$1; shift
		if "$@" >>"$log" 2>&1; then st_result pass "$kver" "dkms: $what"; return 0; fi
		st_result fail "$kver" "dkms: $what"
		tail -n 30 "$log" | sed 's/^/#   /'
		find /var/lib/dkms/sched-tune -name make.log -exec tail -n 20 {} \; 2>/dev/null | sed 's/^/#   make.log: /'
		return 1
	}
	if dkms_step "add sched-tune/$ver" dkms add -m sched-tune -v "$ver" &&
		dkms_step "build -k $kver" dkms build -m sched-tune -v "$ver" -k "$kver" &&
		dkms_step "install -k $kver" dkms install -m sched-tune -v "$ver" -k "$kver"; then
		ko=$(find "/lib/modules/$kver/updates" -name 'sched_tune.ko*' 2>/dev/null | head -n1)
		if [[ -n $ko ]] && modinfo "$ko" | grep -q "^vermagic: *$kver "; then
			st_result pass "$kver" "dkms: modinfo $ko: vermagic $kver"
			modinfo "$ko" | grep -E '^(version|vermagic|srcversion|parm):' | sed 's/^/#   /'
		else
			st_result fail "$kver" "dkms: installed module under /lib/modules/$kver/updates with vermagic $kver"
			[[ -n $ko ]] && modinfo "$ko" | sed 's/^/#   /'
		fi
	fi
	dkms_step "remove --all" dkms remove -m sched-tune -v "$ver" --all
	rm -rf "$src"
	if [[ -z $(find "/lib/modules/$kver" -name 'sched_tune.ko*' 2>/dev/null) ]]; then
		st_result pass "$kver" "dkms: machine clean after remove"
	else
		st_result fail "$kver" "dkms: machine clean after remove"
	fi
}

# --- one kernel: build, static checks, boot --------------------------------------
run_kernel() {
	local kver=$1 out=$ST_BUILD/$1 warn last rc
	stamp "kernel $kver: build"
	st_prepare_kernel "$kver"
	if ST_ROOT=$ST_SRC st_build_module "$kver"; then
		st_result pass "$kver" "build sched_tune.ko against linux-headers-$kver"
	else
		st_result fail "$kver" "build sched_tune.ko against linux-headers-$kver"
		grep -E 'error|warning' "$out/build.log" | head -n 30 | sed 's/^/#   /'
	fi
	warn=$(grep -c 'warning:' "$out/build.log")
	if ((warn == 0)); then
		st_result pass "$kver" "build log has no warnings"
	else
		st_result fail "$kver" "build log has no warnings ($warn found)"
		grep -A3 'warning:' "$out/build.log" | head -n 40 | sed 's/^/#   /'
	fi
	# the guest's livepatch coexistence test needs it (guest/livepatch.sh)
	if st_build_livepatch "$kver" && [[ -f $out/livepatch/st_livepatch.ko ]]; then
		st_result pass "$kver" "build the test livepatch (selftests/livepatch)"
	else
		st_result fail "$kver" "build the test livepatch (selftests/livepatch)"
		grep -E 'error|warning' "$out/livepatch/build.log" | head -n 30 | sed 's/^/#   /'
	fi
	if [[ ! -f $ST_KO ]]; then
		st_result fail "$kver" "no tail call into a __SCT__ trampoline" 
		st_result fail "$kver" "guest tests: not run, sched_tune.ko was not built"
		return
	fi
	if st_check_tailcalls "$ST_KO" >"$out/tailcalls.log"; then
		st_result pass "$kver" "objdump: no jmp to a __SCT__ static-call trampoline (pitfall 1)"
	else
		st_result fail "$kver" "objdump: no jmp to a __SCT__ static-call trampoline (pitfall 1)"
	fi
	sed 's/^#* */#   /' "$out/tailcalls.log"

	if [[ $kver == "$K612" ]]; then
		stamp "kernel $kver: dkms"
		# DKMS state is machine-wide: two benches at once would remove each
		# other's registration, so they take turns
		exec {dkms_lock}>"$ST_CACHE/dkms.lock"
		flock "$dkms_lock"
		run_dkms "$kver"
		exec {dkms_lock}>&-
	fi

	st_build_initramfs "$kver" "$ST_KO" "$out/initramfs.cpio"
	# shellcheck disable=SC2086 # ST_GUEST_ARGS is a list of words on purpose
	guest_run "$kver" "$out/guest" tests ${ST_GUEST_ARGS:-}
	# numa_scan needs two NUMA nodes, which would split the cache-level
	# guest's LLC: a boot of its own, on kernels where the feature exists
	if [[ $(st_guest_feature "$out/guest/tap.log" numa_scan) != unsupported && ${ST_NUMA_BOOT:-1} == 1 ]]; then
		# shellcheck disable=SC2086
		ST_QEMU_SMP="$ST_SMP,sockets=2" ST_QEMU_EXTRA="$ST_NUMA_QEMU" \
			guest_run "$kver numa" "$out/guest-numa" numa ${ST_GUEST_ARGS:-}
	fi
}

# Two nodes of half the guest's memory each, one socket each.
ST_NUMA_QEMU="-object memory-backend-ram,id=m0,size=1G -object memory-backend-ram,id=m1,size=1G
	-numa node,nodeid=0,cpus=0-$((ST_SMP / 2 - 1)),memdev=m0
	-numa node,nodeid=1,cpus=$((ST_SMP / 2))-$((ST_SMP - 1)),memdev=m1"

# guest_run LABEL OUTDIR MODE [WORDS...]: boots the kernel with the
# initramfs in OUTDIR/.., runs /st/MODE.sh and counts its KTAP as LABEL.
guest_run() {
	local label=$1 gout=$2 mode=$3 rc last fails_before=$ST_FAIL
	shift 3
	stamp "$label: boot ($ST_QEMU_SMP vCPUs, timeout ${ST_GUEST_TIMEOUT}s)"
	st_boot "$ST_VMLINUZ" "$(dirname "$gout")/initramfs.cpio" "$gout" st_mode="$mode" "$@"
	rc=$?
	stamp "$label: guest exited (qemu rc $rc)"
	st_ingest_tap "$label" "$gout/tap.log"
	if ((rc == 124)); then
		last=$(grep -a '^# RUNNING' "$gout/tap.log" | tail -n1 | tr -d '\r')
		st_result fail "$label" "guest hung: no end after ${ST_GUEST_TIMEOUT}s (pitfall-1 hang guard; last group: ${last#\# RUNNING }; NMI backtraces in the console log)"
	elif [[ -z $ST_TAP_PLAN ]]; then
		st_result fail "$label" "guest died before printing its plan (panic or crash; qemu rc $rc)"
	elif ((ST_TAP_PLAN != ST_TAP_COUNT)); then
		st_result fail "$label" "guest plan 1..$ST_TAP_PLAN but $ST_TAP_COUNT results"
	fi
	if ((ST_FAIL > fails_before)); then
		st_log "console log of $label (last 150 lines, full: $gout/console.log):"
		tail -n 150 "$gout/console.log" | tr -d '\r' | sed 's/^/#   console: /'
	fi
}

mkdir -p "$ST_BUILD"
trap st_chroot_umount_all EXIT
# Names resolve through the suites' meta packages (lib.sh); an exact kver
# is taken as it is.
KERNELS=()
for k in ${ST_KERNELS:-stable backports trixie trixie-backports}; do
	if st_kernel_suite "$k" >/dev/null; then
		kv=$(st_resolve_kver "$k") || exit 1
		st_log "kernel '$k': $kv"
		KERNELS+=("$kv")
	else
		KERNELS+=("$k")
	fi
done
K612=$(st_resolve_kver backports) || exit 1
st_log "source tree: $ST_SRC ($(git -C "$ST_SRC" describe --always --dirty 2>/dev/null || echo 'not git'))"

if st_build_helpers; then st_result pass host "static guest helpers build (gcc -static)"
else st_result fail host "static guest helpers build (gcc -static)"; fi
stamp "unit tests"
run_unit
for k in "${KERNELS[@]}"; do run_kernel "$k"; done
stamp "done"
st_summary
((ST_FAIL == 0))
