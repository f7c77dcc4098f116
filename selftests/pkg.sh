#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The Debian package, tested for real (one stage of make check: the
# runner's "job pkg", or run it alone as root: selftests/pkg.sh), by
# strunner/pkg.py stage:
#
#  - make deb with Debian 12's debhelper, dh-dkms and dh-python (pybuild,
#    setuptools): the two
#    packages sched-tune-dkms and sched-tune-bench; lintian on each .deb,
#    their contents, their dependencies, the dkms.conf;
#  - which kernel releases dkms.conf admits, against the supported list;
#  - the package's own tests, debian/tests, run by autopkgtest in a
#    throwaway overlay of a Debian 12 chroot holding the headers of the
#    6.1 and 6.12 kernels, and of the Debian 13 chroot holding those of
#    its 6.12 and 7.3, each in the amd64 and the cloud-amd64 flavour, with
#    an unsupported kernel's headers next to them (Debian's rt flavour):
#    bench with sched-tune-bench alone (no sched-tune-dkms, no
#    Recommends), then dkms with both packages, as README.md installs
#    them (DKMS built a module with the right vermagic and version for
#    each supported kernel, declined the other);
#  - on the host: the Recommends resolve, each module's signature
#    verifies against DKMS's mok.pub (openssl, over the module's bytes),
#    the install's log names the declined kernel, then apt purge leaves
#    nothing;
#  - the same packages built with Debian 13's debhelper, dh-dkms and
#    dh-python, in the Debian 13 chroot, are the ones installed there;
#  - after the purge, DKMS straight from the tree as README.md says (add,
#    install, remove) with each release's DKMS, for Debian 12's 6.12 and
#    Debian 13's 7.3;
#  - the verified module of each kernel is kept for make check's guests
#    (pkg_ko_wait, pkg_initramfs_hook): the modprobe unit loads it.
#
# Every install happens in a throwaway overlay on top of the cached
# chroots ($ST_CACHE/chroot/<suite>): the package, DKMS's work and the
# purge reach neither the cached chroots nor the machine.

# --- the modules DKMS built, for make check's guests -----------------------------
# Each supported kernel's module, as DKMS installed it and once its
# signature verified, in $ST_BUILD/pkg/ko/KVER/lib/<its path under
# /lib/modules/KVER>, with KVER/sha256 of that file and, written last,
# KVER/status: "verified", or why there is none.  job.sh waits for the
# status (pkg_ko_wait) and puts that very file in the guest's
# /lib/modules (pkg_initramfs_hook), where the modprobe unit loads it.

# pkg_ko_wait KVER PID: waits while the package stage (PID) runs for
# KVER's status.  Sets PKG_KO_READY=KVER when its module verified, else
# PKG_KO_WHY.
pkg_ko_wait() {
	local k=$1 pid=$2 f=$ST_BUILD/pkg/ko/$1/status
	PKG_KO_READY='' PKG_KO_WHY=''
	while [[ ! -f $f ]] && kill -0 "$pid" 2>/dev/null && ! st_stopped; do sleep 2; done
	if [[ $(cat "$f" 2>/dev/null) == verified ]]; then
		PKG_KO_READY=$k
		return 0
	fi
	if [[ ${ST_PKG:-1} == 0 ]]; then
		PKG_KO_WHY="ST_PKG=0: no package stage"
	else
		PKG_KO_WHY=$(cat "$f" 2>/dev/null || echo "the package stage ended without one")
	fi
	return 1
}

# pkg_initramfs_hook ROOT (st_build_initramfs's ST_INITRAMFS_HOOK): for
# the kernel of PKG_KO_READY, its DKMS-built module replaces make check's
# own build under /lib/modules (the guest's /st/sched_tune.ko stays
# make check's), with depmod's indexes, and /st/dkms.sha256 says which
# bytes were verified; otherwise /st/dkms.why says why there are none.
pkg_initramfs_hook() {
	local root=$1 k
	k=$(cat "$root/st/kver")
	if [[ -n $k && $k == "${PKG_KO_READY:-}" ]]; then
		rm -f "$root/lib/modules/$k/updates/sched_tune.ko"
		cp -a "$ST_BUILD/pkg/ko/$k/lib/." "$root/lib/modules/$k/"
		sed "s|  |  /lib/modules/$k/|" "$ST_BUILD/pkg/ko/$k/sha256" >"$root/st/dkms.sha256"
		depmod -b "$root" "$k" 2>/dev/null || st_log "depmod -b for $k failed: loading by name will fail in the guest"
	else
		echo "${PKG_KO_WHY:-no DKMS-built module of this kernel in this image}" >"$root/st/dkms.why"
	fi
	return 0
}

# --- run alone -----------------------------------------------------------------------
if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	set -uo pipefail
	# shellcheck source=selftests/lib.sh source-path=SCRIPTDIR/..
	. "$(dirname "$0")/lib.sh"
	st_results_main "$0" "$@"
	[[ $EUID == 0 ]] || st_die "run as root (chroots, apt)"
	ST_SRC=${ST_SRC:-$ST_ROOT}
	st_ensure_host
	mkdir -p "$ST_BUILD"
	trap 'st_py strunner.pkg umount "$ST_BUILD/pkg"' EXIT
	st_records pkg st_py strunner.pkg stage "$ST_BUILD/pkg" "$ST_SRC" "$ST_CACHE"
	st_summary
	((ST_FAIL == 0))
fi
