#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2016 # dpkg-query formats and bash -c scripts are literal
# The Debian package, tested for real (one stage of make check; run.sh
# sources this file and calls run_pkg, or run it alone as root:
# selftests/pkg.sh):
#
#  - make deb with Debian 12's debhelper and dh-dkms, lintian on the .deb,
#    its contents, its dependencies, its dkms.conf;
#  - which kernel releases dkms.conf admits, against the supported list;
#  - apt install ./sched-tune-dkms_*.deb in a Debian 12 chroot holding the
#    headers of the 6.1 and 6.12 kernels, and in the Debian 13 chroot
#    holding those of its 6.12 and 7.3, each in the amd64 and the
#    cloud-amd64 flavour, with an unsupported kernel's headers next to
#    them (Debian's rt flavour): DKMS built and signed a module with the
#    right vermagic and version for each supported kernel, declined the
#    other without failing the install; then apt purge leaves nothing;
#  - the same package built with Debian 13's debhelper and dh-dkms, in the
#    Debian 13 chroot, is the one installed there.
#
# Every install happens in a throwaway overlay on top of the cached
# chroots ($ST_CACHE/chroot/<suite>): the package, DKMS's work and the
# purge reach neither the cached chroots nor the machine.

# The kernel releases dkms.conf must admit (1) or decline (0): Debian's
# 6.1, 6.12 and 7.3 kernels of the amd64 and cloud-amd64 flavours,
# nothing else.
PKG_KERNEL_TABLE=(
	1:6.1.0-57-amd64 1:6.1.0-13-amd64 1:6.12.95+deb12-amd64 1:6.12.117+deb12-amd64
	1:6.12.9+bpo-amd64 1:6.12.118+deb13-amd64 1:7.3.4+deb13-amd64 1:7.3.10+deb13-amd64
	1:6.1.0-57-cloud-amd64 1:6.12.95+deb12-cloud-amd64 1:6.12.117+deb12-cloud-amd64
	1:6.12.9+bpo-cloud-amd64 1:6.12.118+deb13-cloud-amd64 1:7.3.4+deb13-cloud-amd64
	0:6.1.0-57-rt-amd64 0:6.12.95+deb12-rt-amd64 0:6.12.118+deb13-rt-amd64
	0:7.3.4+deb13-rt-amd64 0:6.1.0-57-cloud-arm64 0:6.12.95+deb12-arm64
	0:7.2.1+deb13-cloud-amd64 0:6.1.0-57-cloud-cloud-amd64 0:6.1.0-57-amd64-cloud-amd64
	0:5.10.0-30-amd64 0:6.10.6+bpo-amd64 0:6.11.10+bpo-amd64 0:6.16.12+deb13-amd64
	0:7.2.1+deb13-amd64 0:7.4.1+deb13-amd64 0:6.13.0-amd64 0:6.1.0-57-amd64-unsigned
	0:6.120.1+deb13-amd64 0:16.1.0-1-amd64 0:6.1.55-amd64
)

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
# tools, lintian, debootstrap for the chroots, openssl for DKMS's key.
pkg_host_tools() {
	st_apt_install build-essential debhelper dh-dkms lintian debootstrap dpkg-dev openssl
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
	if make -C "$ST_SRC" deb DEB_OUT="$out" >"$log" 2>&1; then
		st_result pass pkg "make deb builds sched-tune-dkms_${PKG_VER}_all.deb (Debian 12: debhelper $(pkg_ver_of debhelper), dh-dkms $(pkg_ver_of dh-dkms))"
	else
		st_result fail pkg "make deb builds sched-tune-dkms_${PKG_VER}_all.deb (Debian 12)"
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
		st_result pass pkg "lintian $(pkg_ver_of lintian) on the .deb: no error, no warning ($(grep -cE '^[IPX]: ' <<<"$out") info/pedantic/experimental tags)"
	else
		st_result fail pkg "lintian $(pkg_ver_of lintian) on the .deb: no error, no warning"
	fi
}

# The paths a .deb holds, one a line, sorted.
pkg_paths() { dpkg-deb -c "$1" | awk '{ print $6 }' | sed 's|/$||' | sort; }

pkg_contents() {
	local deb=$1 paths f src=./usr/src/sched-tune-$PKG_VER bad dir
	paths=$(pkg_paths "$deb")
	bad=
	for f in "$src/dkms.conf" "$src/Kbuild" "$src/Makefile" "$src/module/main.c" \
		"$src/module/wrapper/ksym.c" ./usr/share/doc/sched-tune-dkms/README.md.gz \
		./usr/share/doc/sched-tune-dkms/sysfs-abi.gz ./usr/share/doc/sched-tune-dkms/copyright \
		./usr/share/doc/sched-tune-dkms/examples/sched_tune.conf; do
		grep -qxF "$f" <<<"$paths" || { bad+=" $f"; }
	done
	pkg_check pkg "contents: module source in /usr/src/sched-tune-$PKG_VER, README.md, sysfs-abi, copyright, examples/sched_tune.conf${bad:+ (missing:$bad)}" \
		test -z "$bad"
	# every module source file of the tree, and nothing built
	bad=
	while IFS= read -r f; do
		grep -qxF "$src/$f" <<<"$paths" || bad+=" $f"
	done < <(cd "$ST_SRC" && find module -name '*.[ch]' | sort)
	pkg_check pkg "contents: every module/*.[ch] of the tree${bad:+ (missing:$bad)}" test -z "$bad"
	bad=$(grep -E '\.(o|ko|ko\.[a-z]+|mod|cmd|a)$|/\.|/(debian|selftests|build)(/|$)' <<<"$paths" | tr '\n' ' ')
	pkg_check pkg "contents: no build output, hidden file, selftests or debian/ in the package${bad:+ ($bad)}" test -z "$bad"
	bad=$(grep -E '^\./(etc|lib|boot|usr/lib)(/|$)' <<<"$paths" | tr '\n' ' ')
	pkg_check pkg "contents: nothing in /etc, /lib, /boot, /usr/lib (the package configures and loads nothing)${bad:+ ($bad)}" test -z "$bad"
	# bench/ ships only when it is in the tree
	bad=
	for f in usr/bin/sched-tune-bench usr/share/sched-tune-dkms/bench/stbench/cli.py \
		usr/share/sched-tune-dkms/bench/st_wakelat.c usr/share/sched-tune-dkms/bench/st_numa_work.c \
		usr/share/doc/sched-tune-dkms/README.bench.md usr/share/man/man1/sched-tune-bench.1; do
		grep -qE "^\./$f(\.gz)?$" <<<"$paths" || bad+=" $f"
	done
	pkg_check pkg "contents: the bench, its modules, workloads and README${bad:+ (missing:$bad)}" test -z "$bad"
	pkg_check pkg "contents: no __pycache__" not_grep __pycache__ <<<"$paths"
	dir=$(mktemp -d "$ST_BUILD/pkg/ctrl.XXXXXX")
	dpkg-deb -e "$deb" "$dir"
	bad=$(cd "$dir" && grep -lE '\b(modprobe|insmod)\b' preinst postinst prerm postrm config triggers 2>/dev/null | tr '\n' ' ')
	pkg_check pkg "maintainer scripts never load the module (no modprobe/insmod)${bad:+ (in $bad)}" test -z "$bad"
	rm -rf "$dir"
	f=$(dpkg-deb -f "$deb" Depends)
	st_log "Depends: $f; Recommends: $(dpkg-deb -f "$deb" Recommends)"
	pkg_check pkg "depends on dkms and python3 only (Depends: $f)" \
		grep -qE '^dkms( \([^)]*\))?, python3$' <<<"$f"
	pkg_check pkg "Architecture: all" test "$(dpkg-deb -f "$deb" Architecture)" = all
	dir=$(mktemp -d "$ST_BUILD/pkg/x.XXXXXX")
	dpkg-deb -x "$deb" "$dir"
	PKG_CONF=$ST_BUILD/pkg/dkms.conf
	cp "$dir/usr/src/sched-tune-$PKG_VER/dkms.conf" "$PKG_CONF"
	rm -rf "$dir"
	pkg_check pkg "packaged dkms.conf: PACKAGE_VERSION=\"$PKG_VER\", the changelog's" \
		grep -qx "PACKAGE_VERSION=\"$PKG_VER\"" "$PKG_CONF"
	bad=$(grep -oE '^[[:space:]]*(CLEAN|REMAKE_INITRD|MODULES_CONF[A-Z_]*|POST_BUILD_CLEAN)\b' "$PKG_CONF" "$ST_SRC/dkms.conf" | tr '\n' ' ')
	pkg_check pkg "dkms.conf: no deprecated directive (CLEAN, REMAKE_INITRD, MODULES_CONF*)${bad:+ ($bad)}" test -z "$bad"
}

not_grep() { ! grep -q "$@"; }

# pkg_admits CONF KVER: whether dkms.conf's BUILD_EXCLUSIVE_KERNEL admits
# KVER, read as DKMS reads it (sourced by bash, matched with =~).
pkg_admits() {
	bash -c '. "$1" >/dev/null 2>&1; [[ $2 =~ $BUILD_EXCLUSIVE_KERNEL ]]' _ "$1" "$2"
}

pkg_kernel_table() {
	local e want k got bad=
	for e in "${PKG_KERNEL_TABLE[@]}"; do
		want=${e%%:*} k=${e#*:}
		if pkg_admits "$PKG_CONF" "$k"; then got=1; else got=0; fi
		[[ $got == "$want" ]] || bad+=" $k($( ((want)) && echo declined || echo admitted))"
	done
	pkg_check pkg "dkms.conf admits Debian's 6.1, 6.12 and 7.3 amd64 and cloud-amd64 kernels only (${#PKG_KERNEL_TABLE[@]} releases)${bad:+, wrong:$bad}" \
		test -z "$bad"
	pkg_check pkg "dkms.conf: BUILD_EXCLUSIVE_ARCH admits x86_64 only" \
		bash -c '. "$1" >/dev/null 2>&1; [[ x86_64 =~ $BUILD_EXCLUSIVE_ARCH && ! aarch64 =~ $BUILD_EXCLUSIVE_ARCH && ! i686 =~ $BUILD_EXCLUSIVE_ARCH ]]' _ "$PKG_CONF"
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
		st_chroot_install bookworm dkms openssl python3 || return 1
		st_chroot_install bookworm "linux-headers-${PKG_KERNELS[0]}" "linux-headers-${PKG_KERNELS[2]}" || return 1
		st_chroot_install bookworm -t bookworm-backports "linux-headers-${PKG_KERNELS[1]}" \
			"linux-headers-${PKG_KERNELS[3]}" || return 1
		PKG_UNSUP=("${PKG_KERNELS[0]%-amd64}-rt-amd64")
		st_chroot_install bookworm "linux-headers-${PKG_UNSUP[0]}" || return 1
		;;
	trixie)
		PKG_KERNELS=("$(st_resolve_kver trixie)" "$(st_resolve_kver trixie-backports)"
			"$(st_resolve_kver trixie-cloud)" "$(st_resolve_kver trixie-backports-cloud)")
		st_chroot_install trixie dkms openssl python3 build-essential debhelper dh-dkms lintian || return 1
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

# pkg_signer_ok ROOT KO: the module carries DKMS's signature: signer and
# key serial of ROOT's /var/lib/dkms/mok.pub.
pkg_signer_ok() {
	local root=$1 ko=$2 cn serial signer key
	cn=$(pkg_in "$root" openssl x509 -inform DER -in /var/lib/dkms/mok.pub -noout -subject -nameopt multiline |
		sed -n 's/^ *commonName *= *//p')
	serial=$(pkg_in "$root" openssl x509 -inform DER -in /var/lib/dkms/mok.pub -noout -serial | sed 's/^serial=//')
	signer=$(pkg_in "$root" modinfo -F signer "$ko")
	key=$(pkg_in "$root" modinfo -F sig_key "$ko" | tr -d ':')
	st_log "$ko: signer '$signer', sig_key $key; /var/lib/dkms/mok.pub: CN '$cn', serial $serial"
	key=${key^^} serial=${serial^^}
	while [[ $key == 0* ]]; do key=${key#0}; done
	while [[ $serial == 0* ]]; do serial=${serial#0}; done
	[[ -n $signer && $signer == "$cn" && -n $key && $key == "$serial" ]]
}

# pkg_install_test SUITE LABEL ROOT DEB: apt install, the modules, purge.
pkg_install_test() {
	local suite=$1 g=$2 root=$3 deb=$4 log=$ST_BUILD/pkg/install-$1.log k ko vm line
	local before after left
	cp "$deb" "$root/tmp/"
	if [[ $suite == bookworm ]]; then
		# As on a running server: the running kernel is installed.  DKMS
		# 3.0 then builds only for it (no headers here) and the newest
		# kernel; the package's postinst builds for the others.
		mkdir -p "$root/lib/modules/$(uname -r)"
	fi
	for k in "${PKG_KERNELS[@]}"; do
		if [[ -f $root/lib/modules/$k/modules.dep ]]; then touch "$root/lib/modules/$k/modules.dep.st-before"; fi
	done
	before=$(cd "$root" && find usr/src var/lib/dkms lib/modules etc -xdev 2>/dev/null | sort)
	pkg_log "$g: apt install ./$(basename "$deb") (DKMS builds for ${PKG_KERNELS[*]})"
	if pkg_in "$root" apt-get install -y --no-install-recommends "./tmp/$(basename "$deb")" >"$log" 2>&1; then
		st_result pass "$g" "apt install ./$(basename "$deb") succeeds (with an unsupported kernel's headers present)"
	else
		st_result fail "$g" "apt install ./$(basename "$deb") succeeds (with an unsupported kernel's headers present)"
	fi
	pkg_log "$g: installed"
	sed -n '/^Setting up sched-tune-dkms/,$p' "$log" | grep -vE '^readelf: |^ *$' | head -n 60 | sed 's/^/#   apt: /'
	pkg_check "$g" "no DKMS deprecation warning about dkms.conf" not_grep -i deprecat "$log"
	for k in "${PKG_KERNELS[@]}"; do
		ko=$(cd "$root" && find "lib/modules/$k/updates" -name 'sched_tune.ko*' 2>/dev/null | head -n1)
		if ! pkg_check "$g" "$k: DKMS installed sched_tune under /lib/modules/$k/updates" test -n "$ko"; then
			find "$root/var/lib/dkms/sched-tune" -name make.log -exec tail -n 20 {} \; 2>/dev/null | sed 's/^/#   make.log: /'
			continue
		fi
		vm=$(pkg_in "$root" modinfo -F vermagic "/$ko")
		pkg_check "$g" "$k: vermagic '${vm%% *}'" test "${vm%% *}" = "$k"
		pkg_check "$g" "$k: modinfo -F version = $PKG_VER" test "$(pkg_in "$root" modinfo -F version "/$ko")" = "$PKG_VER"
		pkg_check "$g" "$k: signed with DKMS's key (modinfo signer/sig_key = /var/lib/dkms/mok.pub)" pkg_signer_ok "$root" "/$ko"
		# DKMS 3.2 leaves depmod to the kernel image's own install when
		# only the headers are there
		if [[ -f $root/lib/modules/$k/modules.dep.st-before ]]; then
			pkg_check "$g" "$k: depmod done, modprobe finds it (modinfo -k $k sched_tune -> /$ko)" \
				test "$(pkg_in "$root" modinfo -k "$k" -F filename sched_tune 2>/dev/null)" = "/$ko"
		else
			st_result skip "$g" "$k: depmod done, modprobe finds it" "only the headers of $k are installed, not its image"
		fi
		pkg_check "$g" "$k: dkms status: installed" grep -q ': installed' \
			<<<"$(pkg_in "$root" dkms status -m sched-tune -v "$PKG_VER" -k "$k" 2>/dev/null)"
	done
	for k in "${PKG_UNSUP[@]}"; do
		pkg_check "$g" "$k (unsupported): nothing built or installed" \
			test -z "$(cd "$root" && find "lib/modules/$k" "var/lib/dkms/sched-tune/$PKG_VER/$k" -name 'sched_tune.ko*' 2>/dev/null)"
		line=$(grep -m1 "not built for $k" "$log")
		pkg_check "$g" "$k (unsupported): the install says so: '$line'" test -n "$line"
	done
	# the installed bench starts, and compiles its workloads into its cache
	pkg_check "$g" "sched-tune-bench list runs from /usr/bin" \
		pkg_in "$root" sh -c 'sched-tune-bench list >/dev/null'
	pkg_check "$g" "sched-tune-bench build-helpers compiles the workloads into /var/cache/sched-tune-bench" \
		pkg_in "$root" sh -c 'sched-tune-bench build-helpers >/dev/null 2>&1 && [ -n "$(ls /var/cache/sched-tune-bench)" ]'
	after=$(cd "$root" && find etc -xdev -newer "$root/tmp/$(basename "$deb")" 2>/dev/null | grep -E 'modprobe\.d|modules-load\.d|modules$' | grep -v '^etc/modprobe.d/dkms.conf$')
	pkg_check "$g" "no module configured to load (/etc/modules-load.d, /etc/modprobe.d, /etc/modules untouched)${after:+: $after}" test -z "$after"

	pkg_log "$g: apt purge sched-tune-dkms"
	if pkg_in "$root" apt-get purge -y sched-tune-dkms >>"$log" 2>&1; then
		st_result pass "$g" "apt purge sched-tune-dkms succeeds"
	else
		st_result fail "$g" "apt purge sched-tune-dkms succeeds"
		tail -n 20 "$log" | sed 's/^/#   /'
	fi
	line=$(pkg_in "$root" dpkg-query -W -f='${db:Status-Abbrev}' sched-tune-dkms 2>/dev/null)
	pkg_check "$g" "after purge: dpkg knows no sched-tune-dkms (status '${line:-none}')" \
		test "${line:1:1}" = n -o -z "$line"
	left=$(cd "$root" && { ls -d usr/src/sched-tune* var/lib/dkms/sched-tune var/cache/sched-tune-bench 2>/dev/null
		find lib/modules -name 'sched_tune.ko*' 2>/dev/null
		grep -l sched_tune lib/modules/*/modules.dep 2>/dev/null; })
	pkg_check "$g" "after purge: no /usr/src tree, no /var/lib/dkms entry, no bench cache, no .ko or modules.dep line under /lib/modules${left:+ (left: $(tr '\n' ' ' <<<"$left"))}" \
		test -z "$left"
	after=$(cd "$root" && find usr/src var/lib/dkms lib/modules etc -xdev 2>/dev/null | sort)
	# new files allowed: DKMS's signing key, depmod's indexes of kernels
	# that had headers only (an installed kernel has them already)
	left=$(comm -13 <(echo "$before") <(echo "$after") |
		grep -vE '^var/lib/dkms/mok\.(key|pub)$|^lib/modules/[^/]*/modules\.[a-z.]*$' | head -n 20)
	pkg_check "$g" "after purge: nothing new in /usr/src, /var/lib/dkms, /lib/modules, /etc but DKMS's signing key${left:+ (new: $(tr '\n' ' ' <<<"$left"))}" \
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
	pkg_install_test bookworm "$g" "$root" "$PKG_DEB"
	pkg_overlay_down "$root"
}

# Debian 13: build with its tools, compare with Debian 12's .deb, install.
pkg_test_trixie() {
	local g="pkg Debian 13" root deb13 log=$ST_BUILD/pkg/deb-trixie.log d12 d13 out rc
	pkg_log "Debian 13 chroot: DKMS, debhelper, dh-dkms and headers"
	if ! pkg_prepare_chroot trixie; then
		st_result fail "$g" "Debian 13 chroot with dkms, debhelper, dh-dkms, lintian and the headers of 6.12, 7.3 (amd64, cloud-amd64) and an unsupported kernel"
		return
	fi
	pkg_overlay trixie trixie || { st_result fail "$g" "overlay on the Debian 13 chroot"; return; }
	root=$PKG_ROOT
	st_log "$g: dkms $(pkg_in "$root" dpkg-query -W -f='${Version}' dkms), debhelper $(pkg_in "$root" dpkg-query -W -f='${Version}' debhelper), dh-dkms $(pkg_in "$root" dpkg-query -W -f='${Version}' dh-dkms); supported ${PKG_KERNELS[*]}; unsupported ${PKG_UNSUP[*]}"
	mkdir -p "$root/tmp/st-src"
	tar -C "$ST_SRC" --exclude=./build --exclude=./.git -cf - . | tar -C "$root/tmp/st-src" -xf -
	pkg_log "$g: make deb"
	if pkg_in "$root" make -C /tmp/st-src deb DEB_OUT=/tmp/st-deb >"$log" 2>&1; then
		st_result pass "$g" "make deb builds sched-tune-dkms_${PKG_VER}_all.deb with Debian 13's debhelper and dh-dkms"
	else
		st_result fail "$g" "make deb builds sched-tune-dkms_${PKG_VER}_all.deb with Debian 13's debhelper and dh-dkms"
		tail -n 30 "$log" | sed 's/^/#   /'
	fi
	# DKMS from the tree, as the README says, with Debian 13's DKMS: the
	# version comes from debian/changelog through dkms.conf
	if pkg_in "$root" dkms add /tmp/st-src >"$log.add" 2>&1 &&
		grep -q "sched-tune/$PKG_VER: added" <<<"$(pkg_in "$root" dkms status -m sched-tune 2>/dev/null)" &&
		! grep -qi deprecat "$log.add"; then
		st_result pass "$g" "dkms add <tree> (dkms $(pkg_in "$root" dpkg-query -W -f='${Version}' dkms)): sched-tune/$PKG_VER, no deprecation warning"
	else
		st_result fail "$g" "dkms add <tree>: sched-tune/$PKG_VER, no deprecation warning"
		sed 's/^/#   /' "$log.add"
	fi
	pkg_in "$root" dkms remove -m sched-tune -v "$PKG_VER" --all >>"$log.add" 2>&1
	rm -rf "$root/usr/src/sched-tune-$PKG_VER"
	deb13=$root/tmp/st-deb/sched-tune-dkms_${PKG_VER}_all.deb
	if [[ -f $deb13 ]]; then
		cp "$deb13" "$ST_BUILD/pkg/sched-tune-dkms_${PKG_VER}_all.deb13"
		d12=$(pkg_paths "$PKG_DEB") d13=$(pkg_paths "$deb13")
		pkg_check "$g" "same files as the Debian 12 build" test "$d12" = "$d13" ||
			diff <(echo "$d12") <(echo "$d13") | sed 's/^/#   /'
		pkg_check "$g" "same dkms.conf as the Debian 12 build" \
			cmp -s "$PKG_CONF" <(dpkg-deb --fsys-tarfile "$deb13" | tar -xO "./usr/src/sched-tune-$PKG_VER/dkms.conf")
		st_log "$g: Depends: $(dpkg-deb -f "$deb13" Depends) (Debian 12's build: $(dpkg-deb -f "$PKG_DEB" Depends))"
		out=$(pkg_in "$root" lintian --fail-on error,warning -I -E --pedantic "/tmp/st-deb/$(basename "$deb13")" 2>&1)
		rc=$?
		out=$(grep -v 'running with root privileges' <<<"$out")
		if [[ -n $out ]]; then printf '%s\n' "$out" | sed 's/^/#   lintian: /'; fi
		pkg_check "$g" "lintian $(pkg_in "$root" dpkg-query -W -f='${Version}' lintian) (Debian 13) on this .deb: no error, no warning" \
			test "$rc" = 0 -a -z "$(grep -E '^[EW]: ' <<<"$out")"
		pkg_install_test trixie "$g" "$root" "$deb13"
	fi
	pkg_overlay_down "$root"
}

# Everything, as one stage.
run_pkg() {
	PKG_T0=$SECONDS
	mkdir -p "$ST_BUILD/pkg"
	if [[ ${ST_PKG:-1} == 0 ]]; then
		st_result skip pkg "Debian package" "ST_PKG=0"
		return
	fi
	pkg_host_tools
	PKG_VER=$(dpkg-parsechangelog -l "$ST_SRC/debian/changelog" -S Version)
	PKG_DEB=$ST_BUILD/pkg/deb/sched-tune-dkms_${PKG_VER}_all.deb
	pkg_log "make deb ($PKG_VER)"
	pkg_build_host "$ST_BUILD/pkg/deb"
	[[ -f $PKG_DEB ]] || return
	pkg_lintian "$PKG_DEB"
	pkg_contents "$PKG_DEB"
	pkg_kernel_table
	pkg_test_bookworm
	pkg_test_trixie
	pkg_log "done"
}

# --- run alone -----------------------------------------------------------------------
if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	set -uo pipefail
	# shellcheck source=selftests/lib.sh source-path=SCRIPTDIR/..
	. "$(dirname "$0")/lib.sh"
	[[ $EUID == 0 ]] || st_die "run as root (chroots, apt)"
	ST_SRC=${ST_SRC:-$ST_ROOT}
	st_ensure_host
	mkdir -p "$ST_BUILD"
	trap pkg_umount_all EXIT
	run_pkg
	st_summary
	((ST_FAIL == 0))
fi
