#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make demo: boot a Debian kernel with sched_tune (ST_DEMO_KERNEL, a name
# of lib.sh: backports by default, trixie-backports for 7.x and its
# cache-aware load balancing), list every knob and feature as sysfs has
# them, and for each feature the kernel supports run one short workload
# stock and with the feature on: the counts side by side (guest/demo.sh).
# ST_GUEST_ARGS="st_hb_loops=2000 st_demo_eevdf_secs=5" etc. as for
# run.sh.
set -uo pipefail
# shellcheck source=selftests/lib.sh source-path=SCRIPTDIR/..
. "$(dirname "$0")/lib.sh"

[[ $EUID == 0 ]] || st_die "run as root"
st_ensure_host
name=${ST_DEMO_KERNEL:-backports}
kver=$(st_resolve_kver "$name") || exit 1
st_log "kernel $kver ($name)"
st_prepare_kernel "$kver"
st_build_module "$kver" || { tail -n 30 "$ST_BUILD/$kver/build.log"; st_die "module build failed"; }
st_build_helpers || st_die "helpers build failed"
out=$ST_BUILD/$kver/demo
mkdir -p "$out"
st_build_initramfs "$kver" "$ST_KO" "$out/initramfs.cpio"
st_log "booting (qemu TCG, $ST_QEMU_SMP vCPUs)..."
# shellcheck disable=SC2086 # ST_GUEST_ARGS is a list of words on purpose
st_boot "$ST_VMLINUZ" "$out/initramfs.cpio" "$out" st_mode=demo ${ST_GUEST_ARGS:-}
rc=$?
tr -d '\r' <"$out/tap.log"
# the guest's last word, and its script's status on the console (init)
if ((rc != 0)) || ! grep -q '^demo: ok' "$out/tap.log" ||
	! tr -d '\r' <"$out/console.log" | grep -q '^st-guest: done (rc 0)'; then
	st_log "guest failed (qemu rc $rc); console:"
	tail -n 60 "$out/console.log" | tr -d '\r'
	exit 1
fi
