#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2016 # dpkg-query formats and bash -c scripts are literal
# The Debian package, tested for real (one stage of make check; run.sh
# sources this file and calls run_pkg, or run it alone as root:
# selftests/pkg.sh):
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

pkg_log() { st_log "[pkg, $((SECONDS - PKG_T0)) s] $*"; }

# pkg_check GROUP DESC CMD...: one result from a command's status.
pkg_check() {
	local group=$1 desc=$2
	shift 2
	if "$@"; then st_result pass "$group" "$desc"; return 0; fi
	st_result fail "$group" "$desc"
	return 1
}

# What the package stage needs on the host (Debian 12): Debian's packaging
# tools (debian/control's Build-Depends), lintian, debootstrap for the
# chroots, openssl for DKMS's key.
pkg_host_tools() {
	st_apt_install build-essential debhelper dh-dkms dh-python pybuild-plugin-pyproject python3-setuptools \
		lintian debootstrap dpkg-dev openssl xz-utils zstd autopkgtest
}

# --- overlays on the cached chroots ----------------------------------------------

# pkg_overlay SUITE NAME: mounts a throwaway overlay of SUITE's chroot at
# PKG_ROOT.  What is written there lands in $ST_BUILD/pkg/NAME, and goes
# with it.
pkg_overlay() {
	local suite=$1 ov=$ST_BUILD/pkg/$2
	PKG_ROOT=$ov/root
	pkg_overlay_down "$PKG_ROOT"
	rm -rf "$ov"
	mkdir -p "$ov/upper" "$ov/work" "$PKG_ROOT"
	mount -t overlay st-pkg \
		-o "lowerdir=$(st_chroot_dir "$suite"),upperdir=$ov/upper,workdir=$ov/work" "$PKG_ROOT"
}

pkg_overlay_down() {
	if mountpoint -q "$1" 2>/dev/null; then umount -l "$1"; fi
	return 0
}

# Unmounts whatever is still mounted below $ST_BUILD/pkg, deepest first
# (run.sh calls it on exit).
pkg_umount_all() {
	local m
	awk -v p="$ST_BUILD/pkg/" 'index($2, p) == 1 { print $2 }' /proc/mounts | sort -r |
		while read -r m; do umount -l "$m"; done
	return 0
}

# pkg_in ROOT CMD...: CMD as root in the overlay, with a clean environment
# and a /proc of its own (as lib.sh's st_in_chroot).
pkg_in() {
	local root=$1
	shift
	unshare --mount-proc="$root/proc" chroot "$root" /usr/bin/env -i \
		PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
		DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 "$@"
}

# --- the .deb itself ----------------------------------------------------------------

# pkg_build_host OUT: make deb with this machine's (Debian 12) tools.
pkg_build_host() {
	local out=$1 log=$ST_BUILD/pkg/deb-bookworm.log
	rm -rf "$out"
	if make -C "$ST_SRC" deb DEB_OUT="$out" >"$log" 2>&1 && [[ -f $PKG_DEB && -f $PKG_BDEB ]]; then
		st_result pass pkg "make deb builds sched-tune-dkms_${PKG_VER}_all.deb and sched-tune-bench_${PKG_VER}_all.deb (Debian 12: debhelper $(pkg_ver_of debhelper), dh-dkms $(pkg_ver_of dh-dkms), dh-python $(pkg_ver_of dh-python))"
	else
		st_result fail pkg "make deb builds sched-tune-dkms_${PKG_VER}_all.deb and sched-tune-bench_${PKG_VER}_all.deb (Debian 12)"
		tail -n 30 "$log" | sed 's/^/#   /'
	fi
}

pkg_ver_of() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null; }

pkg_lintian() {
	local deb=$1 out rc
	out=$(lintian --fail-on error,warning -I -E --pedantic "$deb" 2>&1)
	rc=$?
	out=$(grep -v 'running with root privileges' <<<"$out")
	if [[ -n $out ]]; then printf '%s\n' "$out" | sed 's/^/#   lintian: /'; fi
	if ((rc == 0)) && ! grep -qE '^[EW]: ' <<<"$out"; then
		st_result pass pkg "lintian $(pkg_ver_of lintian) on $(basename "$deb"): no error, no warning ($(grep -cE '^[IPX]: ' <<<"$out") info/pedantic/experimental tags)"
	else
		st_result fail pkg "lintian $(pkg_ver_of lintian) on $(basename "$deb"): no error, no warning"
	fi
}

# The paths a .deb holds, one a line, sorted.
pkg_paths() { dpkg-deb -c "$1" | awk '{ print $6 }' | sed 's|/$||' | sort; }

# pkg_contents DEB, pkg_contents_bench BDEB, pkg_kernel_table: the two
# .debs' files, control fields and maintainer scripts, and which kernel
# releases their dkms.conf (copied to PKG_CONF) admits (strunner/debpkg.py).
pkg_contents() { st_records pkg st_py strunner.debpkg contents "$1" "$ST_SRC" "$PKG_VER" "$PKG_CONF"; }
pkg_contents_bench() { st_records pkg st_py strunner.debpkg contents-bench "$1" "$ST_SRC" "$PKG_VER"; }
pkg_kernel_table() { st_records pkg st_py strunner.debpkg kernels "$PKG_CONF"; }

not_grep() { ! grep -q "$@"; }

# pkg_none_installed "PACKAGE STATUS" lines: empty, or every status's
# second letter n (not installed)
pkg_none_installed() { [[ -z $1 ]] || not_grep -vE '^[^ ]+ .n' <<<"$1"; }

# pkg_snapshot ROOT: every path of ROOT but the package manager's own
# bookkeeping, logs and caches (AppStream's catalog too, which Debian 13's
# apt-get update fetches, as autopkgtest runs it), the kernel's file
# systems and /tmp.
pkg_snapshot() {
	(cd "$1" && find . -xdev \( -path ./proc -o -path ./sys -o -path ./dev -o -path ./run -o -path ./tmp \
		-o -path ./var/lib/dpkg -o -path ./var/lib/apt -o -path ./var/cache/apt -o -path ./var/log \
		-o -path ./var/cache/debconf -o -path ./var/cache/man -o -path ./var/cache/ldconfig \
		-o -path ./var/cache/swcatalog -o -path ./var/lib/swcatalog -o -path ./var/lib/app-info \) -prune -o -print |
		sort)
}

# --- chroots -----------------------------------------------------------------------

# The cached chroots, with DKMS, openssl (DKMS's signing key) and the
# headers of the supported kernels, in both flavours, plus one
# unsupported kernel: the rt flavour of one whose rt headers pull no
# kernel image (6.1's, 7.3's).  Sets PKG_KERNELS (supported) and
# PKG_UNSUP.
pkg_prepare_chroot() {
	local suite=$1 k
	st_chroot_ensure "$suite"
	PKG_KERNELS=() PKG_UNSUP=()
	case $suite in
	bookworm)
		PKG_KERNELS=("$(st_resolve_kver stable)" "$(st_resolve_kver backports)"
			"$(st_resolve_kver stable-cloud)" "$(st_resolve_kver backports-cloud)")
		# python3 (the bench), as on any Debian server: what purge leaves
		# behind is then the package's own doing
		st_chroot_install bookworm dkms openssl python3 apt-utils gcc libc6-dev kmod || return 1
		st_chroot_install bookworm "linux-headers-${PKG_KERNELS[0]}" "linux-headers-${PKG_KERNELS[2]}" || return 1
		st_chroot_install bookworm -t bookworm-backports "linux-headers-${PKG_KERNELS[1]}" \
			"linux-headers-${PKG_KERNELS[3]}" || return 1
		PKG_UNSUP=("${PKG_KERNELS[0]%-amd64}-rt-amd64")
		st_chroot_install bookworm "linux-headers-${PKG_UNSUP[0]}" || return 1
		;;
	trixie)
		PKG_KERNELS=("$(st_resolve_kver trixie)" "$(st_resolve_kver trixie-backports)"
			"$(st_resolve_kver trixie-cloud)" "$(st_resolve_kver trixie-backports-cloud)")
		st_chroot_install trixie dkms openssl python3 apt-utils kmod build-essential debhelper dh-dkms dh-python \
			pybuild-plugin-pyproject python3-setuptools lintian || return 1
		st_chroot_install trixie "linux-headers-${PKG_KERNELS[0]}" "linux-headers-${PKG_KERNELS[2]}" || return 1
		PKG_UNSUP=("${PKG_KERNELS[1]%-amd64}-rt-amd64")
		st_chroot_install trixie -t trixie-backports "linux-headers-${PKG_KERNELS[1]}" \
			"linux-headers-${PKG_KERNELS[3]}" "linux-headers-${PKG_UNSUP[0]}" || return 1
		;;
	esac
	for k in "${PKG_KERNELS[@]}" "${PKG_UNSUP[@]}"; do
		# the build links are absolute: resolve them in the chroot
		chroot "$(st_chroot_dir "$suite")" test -e "/lib/modules/$k/build/include" || return 1
	done
}

# --- module signatures -------------------------------------------------------------
# checked as the kernel checks them (mod_verify_sig), on the host, with
# openssl: pkg_sig_verify KO CERT against CERT only; pkg_sig_selftest
# GROUP KO CERT, that the check fails on KO with a byte flipped and on KO
# signed by a twin of CERT (strunner/modsig.py).
pkg_sig_verify() { st_py strunner.modsig verify "$1" "$2"; }
pkg_sig_selftest() { st_records "$1" st_py strunner.modsig selftest "$2" "$3"; }

# --- the modules DKMS built, for make check's guests -----------------------------
# Each supported kernel's module, as DKMS installed it and once its
# signature verified, in $ST_BUILD/pkg/ko/KVER/lib/<its path under
# /lib/modules/KVER>, with KVER/sha256 of that file and, written last,
# KVER/status: "verified", or why there is none.  run.sh waits for the
# status (pkg_ko_wait) and puts that very file in the guest's
# /lib/modules (pkg_initramfs_hook), where the modprobe unit loads it.

pkg_ko_status() {
	mkdir -p "$ST_BUILD/pkg/ko/$1"
	echo "$2" >"$ST_BUILD/pkg/ko/$1/status.new" && mv "$ST_BUILD/pkg/ko/$1/status.new" "$ST_BUILD/pkg/ko/$1/status"
}

# pkg_ko_keep GROUP ROOT KVER KO: KO (relative to ROOT) verified against
# ROOT's /var/lib/dkms/mok.pub and kept; the first of an install also
# shows that the check can fail (pkg_sig_selftest).
pkg_ko_keep() {
	local g=$1 root=$2 k=$3 ko=$4 dir=$ST_BUILD/pkg/ko/$3 f
	rm -rf "$dir"
	f=$dir/lib/${ko#"lib/modules/$k/"}
	mkdir -p "$(dirname "$f")"
	cp "$root/$ko" "$f"
	cp "$root/var/lib/dkms/mok.pub" "$dir/mok.pub"
	st_log "$k: /$ko: signer '$(modinfo -F signer "$f")', sig_key $(modinfo -F sig_key "$f"); mok.pub: $(openssl x509 -inform DER -in "$dir/mok.pub" -noout -subject -serial -nameopt compat | tr '\n' ' ')"
	if pkg_check "$g" "$k: its signature verifies against /var/lib/dkms/mok.pub (openssl cms, over the module's bytes)" \
		pkg_sig_verify "$f" "$dir/mok.pub"; then
		(cd "$dir/lib" && sha256sum "${f#"$dir/lib/"}") >"$dir/sha256"
		pkg_ko_status "$k" verified
		if [[ -z $PKG_SIG_TESTED ]]; then
			pkg_sig_selftest "$g" "$f" "$dir/mok.pub"
			PKG_SIG_TESTED=1
		fi
	else
		pkg_ko_status "$k" "its signature did not verify against DKMS's mok.pub (pkg results)"
	fi
}

# pkg_ko_close: a status for each of PKG_KERNELS that has none yet (a
# stage that stopped early).
pkg_ko_close() {
	local k
	for k in "${PKG_KERNELS[@]}"; do
		[[ -f $ST_BUILD/pkg/ko/$k/status ]] || pkg_ko_status "$k" "the package stage installed no module for it (pkg results)"
	done
}

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

# pkg_autopkgtest SUITE GROUP ROOT DEB BDEB: the package's own tests
# (debian/tests: bench, with sched-tune-bench alone, then dkms, with both
# packages), run by autopkgtest with ROOT as its testbed (virt-chroot,
# each command with a /proc of its own, as pkg_in).  autopkgtest installs
# each test's Depends, so that DKMS builds here, for every kernel whose
# headers ROOT holds.  Every result of their KTAP counts, with
# autopkgtest's verdict on each test.  The log is PKG_APT_LOG.
pkg_autopkgtest() {
	local suite=$1 g=$2 root=$3 deb=$4 bdeb=$5 out=$ST_BUILD/pkg/autopkgtest-$1 src=$ST_BUILD/pkg/src rc t v
	PKG_APT_LOG=$out.log
	rm -rf "$out"
	if [[ ! -d $src ]]; then
		mkdir -p "$src"
		tar -C "$ST_SRC" --exclude=./build --exclude=./.git -cf - . | tar -C "$src" -xf -
	fi
	env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 \
		autopkgtest -B --output-dir="$out" "$deb" "$bdeb" "$src/" -- \
		chroot -r "unshare --mount-proc=$root/proc" "$root" >"$PKG_APT_LOG" 2>&1
	rc=$?
	st_log "$g: autopkgtest exited $rc; its summary: $(tr '\n' ';' <"$out/summary" 2>/dev/null)"
	pkg_check "$g" "autopkgtest $(pkg_ver_of autopkgtest) ran debian/tests, every test passed" test "$rc" = 0 ||
		grep -E '^(autopkgtest \[[^]]*\]: (ERROR|WARNING)|E: )|badpkg|blame' "$PKG_APT_LOG" | head -n 10 | sed 's/^/#   /'
	for t in bench dkms; do
		v=$(awk -v t="$t" '$1 == t { print $2 }' "$out/summary" 2>/dev/null)
		pkg_check "$g" "autopkgtest: $t PASS" test "$v" = PASS
		if [[ -f $out/$t-stdout ]]; then
			st_ingest_tap "$g" "$out/$t-stdout"
		else
			ST_TAP_PLAN=''
		fi
		pkg_check "$g" "autopkgtest: $t printed its plan and every result" \
			test -n "$ST_TAP_PLAN" -a "$ST_TAP_PLAN" = "$ST_TAP_COUNT"
	done
}

# pkg_install_test SUITE LABEL ROOT DEB BDEB: README.md's install of both
# packages through autopkgtest (pkg_autopkgtest), then on the host: what
# apt would install with the Recommends, the modules' signatures (kept for
# make check's guests), the declined kernel named in the install's log,
# and apt purge leaves nothing behind.
pkg_install_test() {
	local suite=$1 g=$2 root=$3 deb=$4 bdeb=$5 log=$ST_BUILD/pkg/purge-$1.log k ko line out n
	local before after left
	PKG_SIG_TESTED=
	if [[ $suite == bookworm ]]; then
		# As on a running server: the running kernel is installed.  DKMS
		# 3.0 then builds only for it (no headers here) and the newest
		# kernel; the package's postinst builds for the others.
		mkdir -p "$root/lib/modules/$(uname -r)"
	fi
	before=$(pkg_snapshot "$root")
	# README.md's install line installs the Recommends: each resolves here
	# (apt-get -s: installed already, or would be)
	cp "$bdeb" "$root/tmp/"
	out=$(pkg_in "$root" apt-get install -s "./tmp/$(basename "$bdeb")" 2>&1)
	rm -f "$root/tmp/$(basename "$bdeb")"
	line=
	for n in rt-tests linux-perf dbench gcc python3-scipy python3-matplotlib; do
		[[ $(pkg_in "$root" dpkg-query -W -f='${db:Status-Abbrev}' "$n" 2>/dev/null) == ii* ]] ||
			grep -q "^Inst $n " <<<"$out" || line+=" $n"
	done
	pkg_check "$g" "with its Recommends (apt install without --no-install-recommends), apt would install rt-tests, linux-perf, dbench, gcc, python3-scipy and python3-matplotlib${line:+ (not:$line)}" \
		test -z "$line" || grep -E '^(E|W): ' <<<"$out" | head -n 5 | sed 's/^/#   /'
	pkg_log "$g: autopkgtest: bench (sched-tune-bench alone), dkms (both; DKMS builds for ${PKG_KERNELS[*]})"
	pkg_autopkgtest "$suite" "$g" "$root" "$deb" "$bdeb"
	pkg_log "$g: autopkgtest done"
	sed -n '/^Setting up sched-tune-dkms/,/^Setting up autopkgtest-satdep/p' "$PKG_APT_LOG" |
		grep -vE '^readelf: |^ *$' | head -n 60 | sed 's/^/#   apt: /'
	pkg_check "$g" "no DKMS deprecation warning about dkms.conf" not_grep -i deprecat "$PKG_APT_LOG"
	for k in "${PKG_KERNELS[@]}"; do
		ko=$(cd "$root" && find "lib/modules/$k/updates" -name 'sched_tune.ko*' 2>/dev/null | head -n1)
		if [[ -n $ko ]]; then
			pkg_ko_keep "$g" "$root" "$k" "$ko"
		else
			st_result fail "$g" "$k: a module to verify and keep (DKMS installed none)"
			pkg_ko_status "$k" "DKMS installed no module for it (pkg results)"
		fi
	done
	for k in "${PKG_UNSUP[@]}"; do
		line=$(grep -m1 "not built for $k" "$PKG_APT_LOG")
		pkg_check "$g" "$k (unsupported): the install says so: '$line'" test -n "$line"
	done

	pkg_log "$g: apt purge sched-tune-dkms sched-tune-bench"
	if pkg_in "$root" apt-get purge -y sched-tune-dkms sched-tune-bench >"$log" 2>&1; then
		st_result pass "$g" "apt purge sched-tune-dkms sched-tune-bench succeeds"
	else
		st_result fail "$g" "apt purge sched-tune-dkms sched-tune-bench succeeds"
		tail -n 20 "$log" | sed 's/^/#   /'
	fi
	line=$(pkg_in "$root" dpkg-query -W -f='${Package} ${db:Status-Abbrev}\n' sched-tune-dkms sched-tune-bench 2>/dev/null)
	pkg_check "$g" "after purge: dpkg knows neither package (status '${line//$'\n'/, }')" \
		pkg_none_installed "$line"
	left=$(cd "$root" && { ls -d usr/src/sched-tune* var/lib/dkms/sched-tune var/cache/sched-tune-bench \
		usr/lib/python3/dist-packages/stbench 2>/dev/null
		find lib/modules -name 'sched_tune.ko*' 2>/dev/null
		grep -l sched_tune lib/modules/*/modules.dep 2>/dev/null; })
	pkg_check "$g" "after purge: no /usr/src tree, no /var/lib/dkms entry, no bench cache or stbench, no .ko or modules.dep line under /lib/modules${left:+ (left: $(tr '\n' ' ' <<<"$left"))}" \
		test -z "$left"
	# new files allowed: DKMS's signing key, depmod's indexes of kernels
	# that had headers only (an installed kernel has them already)
	after=$(pkg_snapshot "$root")
	left=$(comm -13 <(echo "$before") <(echo "$after") |
		grep -vE '^\./var/lib/dkms/mok\.(key|pub)$|^\./(usr/)?lib/modules/[^/]*/modules\.[a-z.]*$' | head -n 20)
	pkg_check "$g" "after purge: no file or directory new anywhere but DKMS's signing key and depmod's indexes (no __pycache__, no /var/cache/sched-tune-bench)${left:+ (new: $(tr '\n' ' ' <<<"$left"))}" \
		test -z "$left"
}

# pkg_logged LOG CMD...: CMD with its output appended to LOG.
pkg_logged() {
	local log=$1
	shift
	"$@" >>"$log" 2>&1
}

# pkg_tree_test GROUP ROOT KVER: DKMS straight from the tree, as README.md
# says (dkms add ., dkms install sched-tune/<version>, dkms remove
# sched-tune/<version> --all, rm -r /usr/src/sched-tune-<version>), in
# ROOT after the package's purge: the version is debian/changelog's
# through dkms.conf, the module built for KVER has its vermagic, that
# version and a signature that verifies against DKMS's key, and the
# removal leaves nothing.
pkg_tree_test() {
	local g=$1 root=$2 k=$3 log=$ST_BUILD/pkg/tree-$3.log ko vm left dk
	dk=$(pkg_in "$root" dpkg-query -W -f='${Version}' dkms)
	: >"$log"
	if [[ ! -d $root/tmp/st-src ]]; then
		mkdir -p "$root/tmp/st-src"
		tar -C "$ST_SRC" --exclude=./build --exclude=./.git -cf - . | tar -C "$root/tmp/st-src" -xf -
	fi
	pkg_log "$g: DKMS from the tree, for $k"
	if pkg_logged "$log" pkg_in "$root" sh -c 'cd /tmp/st-src && dkms add .' &&
		grep -q "sched-tune/$PKG_VER: added" <<<"$(pkg_in "$root" dkms status -m sched-tune 2>/dev/null)" &&
		! grep -qi deprecat "$log"; then
		st_result pass "$g" "from the tree (dkms $dk): dkms add . registers sched-tune/$PKG_VER (debian/changelog's), no deprecation warning"
	else
		st_result fail "$g" "from the tree (dkms $dk): dkms add . registers sched-tune/$PKG_VER (debian/changelog's), no deprecation warning"
		sed 's/^/#   /' "$log"
	fi
	pkg_check "$g" "from the tree: dkms install sched-tune/$PKG_VER -k $k" \
		pkg_logged "$log" pkg_in "$root" dkms install "sched-tune/$PKG_VER" -k "$k"
	ko=$(cd "$root" && find "lib/modules/$k/updates" -name 'sched_tune.ko*' 2>/dev/null | head -n1)
	if pkg_check "$g" "from the tree: $k: DKMS installed sched_tune under /lib/modules/$k/updates" test -n "$ko"; then
		vm=$(pkg_in "$root" modinfo -F vermagic "/$ko")
		pkg_check "$g" "from the tree: $k: vermagic '${vm%% *}'" test "${vm%% *}" = "$k"
		pkg_check "$g" "from the tree: $k: modinfo -F version = $PKG_VER" \
			test "$(pkg_in "$root" modinfo -F version "/$ko")" = "$PKG_VER"
		pkg_check "$g" "from the tree: $k: its signature verifies against /var/lib/dkms/mok.pub (openssl cms)" \
			pkg_sig_verify "$root/$ko" "$root/var/lib/dkms/mok.pub"
	else
		tail -n 20 "$log" | sed 's/^/#   /'
		find "$root/var/lib/dkms/sched-tune" -name make.log -exec tail -n 20 {} \; 2>/dev/null | sed 's/^/#   make.log: /'
	fi
	pkg_check "$g" "from the tree: dkms remove sched-tune/$PKG_VER --all" \
		pkg_logged "$log" pkg_in "$root" dkms remove "sched-tune/$PKG_VER" --all
	rm -rf "$root/usr/src/sched-tune-$PKG_VER"
	left=$(cd "$root" && { ls -d var/lib/dkms/sched-tune usr/src/sched-tune* 2>/dev/null
		find lib/modules -name 'sched_tune.ko*' 2>/dev/null
		grep -l sched_tune lib/modules/*/modules.dep 2>/dev/null; })
	pkg_check "$g" "from the tree: after dkms remove and rm -r /usr/src/sched-tune-$PKG_VER, no /var/lib/dkms entry, no .ko or modules.dep line${left:+ (left: $(tr '\n' ' ' <<<"$left"))}" \
		test -z "$left"
}

# Debian 12: the host-built .deb in a bookworm overlay.
pkg_test_bookworm() {
	local g="pkg Debian 12" root
	pkg_log "Debian 12 chroot: DKMS and headers"
	if ! pkg_prepare_chroot bookworm; then
		st_result fail "$g" "Debian 12 chroot with dkms and the headers of 6.1, 6.12 (amd64, cloud-amd64) and an unsupported kernel"
		return
	fi
	st_log "$g: dkms $(chroot "$(st_chroot_dir bookworm)" dpkg-query -W -f='${Version}' dkms); supported ${PKG_KERNELS[*]}; unsupported ${PKG_UNSUP[*]}"
	pkg_overlay bookworm bookworm || { st_result fail "$g" "overlay on the Debian 12 chroot"; return; }
	root=$PKG_ROOT
	pkg_install_test bookworm "$g" "$root" "$PKG_DEB" "$PKG_BDEB"
	pkg_tree_test "$g" "$root" "${PKG_KERNELS[1]}"
	pkg_overlay_down "$root"
}

# Debian 13: build with its tools, compare with Debian 12's .deb, install.
pkg_test_trixie() {
	local g="pkg Debian 13" root deb13 bdeb13 log=$ST_BUILD/pkg/deb-trixie.log d12 d13 out rc pair
	pkg_log "Debian 13 chroot: DKMS, debhelper, dh-dkms, dh-python and headers"
	if ! pkg_prepare_chroot trixie; then
		st_result fail "$g" "Debian 13 chroot with dkms, debhelper, dh-dkms, dh-python, lintian and the headers of 6.12, 7.3 (amd64, cloud-amd64) and an unsupported kernel"
		return
	fi
	pkg_overlay trixie trixie || { st_result fail "$g" "overlay on the Debian 13 chroot"; return; }
	root=$PKG_ROOT
	st_log "$g: dkms $(pkg_in "$root" dpkg-query -W -f='${Version}' dkms), debhelper $(pkg_in "$root" dpkg-query -W -f='${Version}' debhelper), dh-dkms $(pkg_in "$root" dpkg-query -W -f='${Version}' dh-dkms), dh-python $(pkg_in "$root" dpkg-query -W -f='${Version}' dh-python); supported ${PKG_KERNELS[*]}; unsupported ${PKG_UNSUP[*]}"
	mkdir -p "$root/tmp/st-src"
	tar -C "$ST_SRC" --exclude=./build --exclude=./.git -cf - . | tar -C "$root/tmp/st-src" -xf -
	pkg_log "$g: make deb"
	deb13=$root/tmp/st-deb/sched-tune-dkms_${PKG_VER}_all.deb
	bdeb13=$root/tmp/st-deb/sched-tune-bench_${PKG_VER}_all.deb
	if pkg_in "$root" make -C /tmp/st-src deb DEB_OUT=/tmp/st-deb >"$log" 2>&1 && [[ -f $deb13 && -f $bdeb13 ]]; then
		st_result pass "$g" "make deb builds sched-tune-dkms_${PKG_VER}_all.deb and sched-tune-bench_${PKG_VER}_all.deb with Debian 13's debhelper, dh-dkms and dh-python"
	else
		st_result fail "$g" "make deb builds sched-tune-dkms_${PKG_VER}_all.deb and sched-tune-bench_${PKG_VER}_all.deb with Debian 13's debhelper, dh-dkms and dh-python"
		tail -n 30 "$log" | sed 's/^/#   /'
	fi
	if [[ -f $deb13 && -f $bdeb13 ]]; then
		cp "$deb13" "$ST_BUILD/pkg/sched-tune-dkms_${PKG_VER}_all.deb13"
		cp "$bdeb13" "$ST_BUILD/pkg/sched-tune-bench_${PKG_VER}_all.deb13"
		for pair in "$PKG_DEB:$deb13" "$PKG_BDEB:$bdeb13"; do
			d12=$(pkg_paths "${pair%%:*}") d13=$(pkg_paths "${pair#*:}")
			pkg_check "$g" "$(basename "${pair#*:}"): same files as the Debian 12 build" test "$d12" = "$d13" ||
				diff <(echo "$d12") <(echo "$d13") | sed 's/^/#   /'
			st_log "$g: $(basename "${pair#*:}"): Depends: $(dpkg-deb -f "${pair#*:}" Depends) (Debian 12's build: $(dpkg-deb -f "${pair%%:*}" Depends))"
			out=$(pkg_in "$root" lintian --fail-on error,warning -I -E --pedantic "/tmp/st-deb/$(basename "${pair#*:}")" 2>&1)
			rc=$?
			out=$(grep -v 'running with root privileges' <<<"$out")
			if [[ -n $out ]]; then printf '%s\n' "$out" | sed 's/^/#   lintian: /'; fi
			pkg_check "$g" "lintian $(pkg_in "$root" dpkg-query -W -f='${Version}' lintian) (Debian 13) on $(basename "${pair#*:}"): no error, no warning" \
				test "$rc" = 0 -a -z "$(grep -E '^[EW]: ' <<<"$out")"
		done
		pkg_check "$g" "same dkms.conf as the Debian 12 build" \
			cmp -s "$PKG_CONF" <(dpkg-deb --fsys-tarfile "$deb13" | tar -xO "./usr/src/sched-tune-$PKG_VER/dkms.conf")
		pkg_install_test trixie "$g" "$root" "$deb13" "$bdeb13"
	fi
	pkg_tree_test "$g" "$root" "${PKG_KERNELS[1]}"
	pkg_overlay_down "$root"
}

# Everything, as one stage.
run_pkg() {
	PKG_T0=$SECONDS
	rm -rf "$ST_BUILD/pkg/ko"
	mkdir -p "$ST_BUILD/pkg"
	if [[ ${ST_PKG:-1} == 0 ]]; then
		st_result skip pkg "Debian package" "ST_PKG=0"
		return
	fi
	pkg_host_tools
	PKG_VER=$(dpkg-parsechangelog -l "$ST_SRC/debian/changelog" -S Version)
	PKG_DEB=$ST_BUILD/pkg/deb/sched-tune-dkms_${PKG_VER}_all.deb
	PKG_BDEB=$ST_BUILD/pkg/deb/sched-tune-bench_${PKG_VER}_all.deb
	PKG_CONF=$ST_BUILD/pkg/dkms.conf
	pkg_log "make deb ($PKG_VER)"
	pkg_build_host "$ST_BUILD/pkg/deb"
	[[ -f $PKG_DEB && -f $PKG_BDEB ]] || return
	pkg_lintian "$PKG_DEB"
	pkg_lintian "$PKG_BDEB"
	pkg_contents "$PKG_DEB"
	pkg_contents_bench "$PKG_BDEB"
	pkg_kernel_table
	pkg_test_bookworm
	pkg_ko_close
	pkg_test_trixie
	pkg_ko_close
	pkg_log "done"
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
	trap pkg_umount_all EXIT
	run_pkg
	st_summary
	((ST_FAIL == 0))
fi
