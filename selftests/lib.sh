# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034 # its globals (ST_KO, ST_TAP_*) are read by run.sh and demo.sh
# Shared host-side code of the sched_tune test bench, sourced by run.sh and
# demo.sh.  Everything here runs as root on a Debian 12 host; the module is
# only ever loaded inside Debian kernels booted under qemu (TCG).

ST_ROOT=${ST_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
ST_TESTS=$ST_ROOT/selftests
ST_BUILD=${ST_BUILD:-$ST_ROOT/build}
ST_CACHE=${ST_CACHE:-/var/cache/sched_tune}
# Guest shape.  4 vCPUs keeps TCG on 2 host cores fast enough; tests that
# need the L2 < LLC topology pass ST_QEMU_CPU/ST_QEMU_SMP of their own.
ST_SMP=${ST_SMP:-4}
ST_QEMU_SMP=${ST_QEMU_SMP:-$ST_SMP}
ST_QEMU_CPU=${ST_QEMU_CPU:-max}
ST_MEM=${ST_MEM:-2G}
# Single-threaded TCG: multi-threaded TCG showed int3 oopses and hangs
# inside text_poke_bp while ftrace patched a call site (selftests/README.md).
ST_QEMU_ACCEL=${ST_QEMU_ACCEL:-tcg,thread=single}
# Extra qemu words, e.g. the NUMA nodes of the NUMA boot.
ST_QEMU_EXTRA=${ST_QEMU_EXTRA:-}
ST_QEMU=${ST_QEMU:-qemu-system-x86_64}
ST_GUEST_TIMEOUT=${ST_GUEST_TIMEOUT:-1200}

ST_APT_PKGS=(busybox-static rt-tests dkms cpio zstd kmod gcc make libc6-dev
	binutils ca-certificates debian-archive-keyring)

export DEBIAN_FRONTEND=noninteractive

st_log() { printf '# %s\n' "$*"; }
st_die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# --- results ---------------------------------------------------------------
# Every check, host or guest, goes through st_result so that the closing
# "N passed, N failed" line and the per-kernel summary count the same things.
ST_PASS=0 ST_FAIL=0 ST_SKIP=0 ST_NUM=0
declare -A ST_KPASS=() ST_KFAIL=() ST_KSKIP=()
ST_KORDER=()

# st_result pass|fail|skip GROUP DESC [SKIP-REASON]
st_result() {
	local res=$1 group=$2 desc=$3 why=${4:-}
	ST_NUM=$((ST_NUM + 1))
	if [[ -z ${ST_KPASS[$group]+x} ]]; then
		ST_KPASS[$group]=0 ST_KFAIL[$group]=0 ST_KSKIP[$group]=0
		ST_KORDER+=("$group")
	fi
	case $res in
	pass)
		ST_PASS=$((ST_PASS + 1)); ST_KPASS[$group]=$((ST_KPASS[$group] + 1))
		echo "ok $ST_NUM - [$group] $desc" ;;
	skip)
		ST_SKIP=$((ST_SKIP + 1)); ST_KSKIP[$group]=$((ST_KSKIP[$group] + 1))
		echo "ok $ST_NUM - [$group] $desc # SKIP $why" ;;
	*)
		ST_FAIL=$((ST_FAIL + 1)); ST_KFAIL[$group]=$((ST_KFAIL[$group] + 1))
		echo "not ok $ST_NUM - [$group] $desc" ;;
	esac
}

# Feed a KTAP/TAP stream (file $2) into st_result under group $1.  Only
# top-level result lines count (nested subtests are indented); comments are
# echoed so the log shows the guest's diagnostics in place.  Sets
# ST_TAP_PLAN to the plan count (empty if the stream had none, e.g. a hang).
st_ingest_tap() {
	local group=$1 file=$2 line desc n=0
	ST_TAP_PLAN=
	while IFS= read -r line || [[ -n $line ]]; do
		line=${line%$'\r'}
		case $line in
		'ok '*|'not ok '*)
			n=$((n + 1))
			desc=$(sed -E 's/^(not )?ok [0-9]* *-? *//' <<<"$line")
			if [[ $line == 'not ok '* ]]; then
				st_result fail "$group" "$desc"
			elif [[ $desc =~ \#\ *(SKIP|skip)\ *(.*)$ ]]; then
				desc=${desc%%#*}
				st_result skip "$group" "${desc%"${desc##*[! ]}"}" "${BASH_REMATCH[2]}"
			else
				st_result pass "$group" "$desc"
			fi ;;
		1..*) ST_TAP_PLAN=${line#1..} ;;
		'#'*) echo "# [$group] ${line#\# }" ;;
		esac
	done <"$file"
	ST_TAP_COUNT=$n
}

st_summary() {
	local g
	echo "#"
	echo "# summary per kernel / stage:"
	for g in "${ST_KORDER[@]}"; do
		printf '#   %-40s %3d passed, %3d failed, %3d skipped\n' "$g" \
			"${ST_KPASS[$g]}" "${ST_KFAIL[$g]}" "${ST_KSKIP[$g]}"
	done
	echo "1..$ST_NUM"
	if ((ST_SKIP)); then
		echo "$ST_PASS passed, $ST_FAIL failed, $ST_SKIP skipped"
	else
		echo "$ST_PASS passed, $ST_FAIL failed"
	fi
}

# --- host dependencies -------------------------------------------------------

# The mirror host of the existing bookworm sources (deb822 or one-line).
st_apt_mirror() {
	local uri
	uri=$(awk '/^URIs:/ {u=$2} /^Suites:/ && / bookworm( |$)/ && u {print u; exit}' \
		/etc/apt/sources.list.d/*.sources 2>/dev/null)
	[[ -n $uri ]] || uri=$(awk '$1=="deb" && $3=="bookworm" {print $2; exit}' \
		/etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null)
	echo "${uri:-http://deb.debian.org/debian}"
}

# Adds bookworm-backports (never trixie: it would drag libc to Debian 13).
# Returns 0 if it added the source, 1 if one was already there.
st_ensure_backports() {
	if grep -rqsE '^[^#]*bookworm-backports' /etc/apt/sources.list /etc/apt/sources.list.d/; then
		return 1
	fi
	local mirror
	mirror=$(st_apt_mirror)
	st_log "adding bookworm-backports from $mirror"
	cat >/etc/apt/sources.list.d/bookworm-backports.sources <<EOF
Types: deb
URIs: $mirror
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
	return 0
}

st_pkg_installed() {
	[[ $(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null) == installed ]]
}

ST_APT_UPDATED=
st_apt_update() {
	[[ -n $ST_APT_UPDATED ]] && return 0
	st_log "apt-get update"
	apt-get update -qq >/dev/null || st_die "apt-get update failed"
	ST_APT_UPDATED=1
}

# st_apt_install [-t RELEASE] PKG...: installs only what is missing.
st_apt_install() {
	local opts=() missing=() p
	if [[ $1 == -t ]]; then opts=(-t "$2"); shift 2; fi
	for p in "$@"; do st_pkg_installed "$p" || missing+=("$p"); done
	((${#missing[@]})) || return 0
	st_apt_update
	st_log "installing ${missing[*]}"
	apt-get install -y -qq --no-install-recommends "${opts[@]}" "${missing[@]}" \
		>"$ST_CACHE/apt-install.log" 2>&1 ||
		{ tail -n 30 "$ST_CACHE/apt-install.log"; st_die "apt-get install ${missing[*]} failed"; }
}

st_ensure_host() {
	mkdir -p "$ST_CACHE"
	if st_ensure_backports; then ST_APT_UPDATED=; st_apt_update; fi
	# apt-cache needs package lists; a fresh container may have none.
	if ! compgen -G '/var/lib/apt/lists/*bookworm-backports*Packages*' >/dev/null; then
		st_apt_update
	fi
	st_apt_install "${ST_APT_PKGS[@]}"
	st_ensure_qemu
}

# qemu from bookworm-backports (10.x), not bookworm's 7.2: under 7.2's
# multi-threaded TCG a vCPU can run stale code across ftrace's text_poke_bp
# (an "Oops: int3" at a patched call site while another vCPU loads or
# unloads an ftrace user under load, 3 runs out of 3 with a minimal ftrace
# module); 10.0 passed the same stress.
st_ensure_qemu() {
	case $(dpkg-query -W -f='${Version}' qemu-system-x86 2>/dev/null) in
	*bpo*) return 0 ;;
	esac
	st_apt_update
	st_log "installing qemu-system-x86 from bookworm-backports"
	apt-get install -y -qq --no-install-recommends -t bookworm-backports qemu-system-x86 \
		>"$ST_CACHE/apt-qemu.log" 2>&1 ||
		{ tail -n 30 "$ST_CACHE/apt-qemu.log"; st_die "installing qemu from bookworm-backports failed"; }
}

# st_resolve_kver backports|stable -> e.g. 6.12.95+deb12-amd64.  Reads the
# linux-headers-amd64 meta package of the suite at run time (highest version
# among the suite's candidates), never a hard-coded version.
st_resolve_kver() {
	local want=$1 best='' ver suite dep
	while IFS='|' read -r _ ver suite; do
		ver=${ver// /}
		case $suite in
		*bookworm-backports/*) [[ $want == backports ]] || continue ;;
		*' bookworm/'*|*bookworm-security/*|*bookworm-updates/*) [[ $want == stable ]] || continue ;;
		*) continue ;;
		esac
		if [[ -z $best ]] || dpkg --compare-versions "$ver" gt "$best"; then best=$ver; fi
	done < <(apt-cache madison linux-headers-amd64)
	[[ -n $best ]] || st_die "no linux-headers-amd64 in $want suites (apt-get update?)"
	dep=$(apt-cache show "linux-headers-amd64=$best" |
		sed -n 's/^Depends:.*linux-headers-\([^ ,]*\).*/\1/p' | head -n1)
	[[ -n $dep ]] || st_die "cannot parse Depends of linux-headers-amd64=$best"
	echo "$dep"
}

st_headers_dir() { echo "/usr/src/linux-headers-$1"; }

st_ensure_headers() {
	local kver=$1
	if [[ $kver == *+bpo* || $kver == *deb12* ]]; then
		st_apt_install -t bookworm-backports "linux-headers-$kver"
	else
		st_apt_install "linux-headers-$kver"
	fi
	[[ -f $(st_headers_dir "$kver")/Makefile ]] || st_die "headers for $kver missing"
}

# Extracts the kernel image from the package without installing it; cached
# across runs.  Sets ST_VMLINUZ (no stdout: st_apt_update may log).
st_fetch_vmlinuz() {
	local kver=$1 dir=$ST_CACHE/kernels/$1 p deb
	ST_VMLINUZ=$dir/vmlinuz
	[[ -f $ST_VMLINUZ ]] && return 0
	rm -rf "$dir"
	mkdir -p "$dir/dl"
	for _ in 1 2; do
		for p in "linux-image-$kver-unsigned" "linux-image-$kver"; do
			(cd "$dir/dl" && apt-get download -qq "$p" >/dev/null 2>&1) && break 2
		done
		st_apt_update	# the package may be unknown until the lists are fresh
	done
	deb=$(find "$dir/dl" -name 'linux-image-*.deb' | head -n1)
	[[ -n $deb ]] || st_die "cannot download linux-image-$kver"
	dpkg -x "$deb" "$dir/x"
	cp "$dir/x/boot/vmlinuz-$kver" "$ST_VMLINUZ"
	rm -rf "$dir/x" "$dir/dl"
}

# --- module build --------------------------------------------------------------

# Builds the working tree against one kernel in its own copy, so two
# kernels never share objects.  Output: $ST_BUILD/<kver>/sched_tune.ko and
# build.log there.  Returns make's status.
st_build_module() {
	local kver=$1 dir=$ST_BUILD/$1
	rm -rf "$dir"
	mkdir -p "$dir"
	tar -C "$ST_ROOT" --exclude=./build --exclude=./.git -cf - . | tar -C "$dir" -xf -
	make -C "$dir" KDIR="$(st_headers_dir "$kver")" >"$dir/build.log" 2>&1
}

# Pitfall 1: a wrapper ending in `return orig(...)` compiles to a jmp into the
# static-call trampoline; ftrace then loops forever.  Any jmp/jcc whose
# relocation names a __SCT__ symbol is a tail call into an original.
st_check_tailcalls() {
	objdump -dr "$1" | awk '
		/^[0-9a-f]+ <.*>:$/ { fn = $2; gsub(/[<>:]/, "", fn) }
		/^ *[0-9a-f]+:\t/ && !/R_X86_64/ {
			# address, bytes, mnemonic; a bytes-only continuation line has no mnemonic
			if (split($0, f, "\t") >= 3) { split(f[3], w, " "); insn = w[1] }
			next }
		/R_X86_64/ && /__SCT__/ {
			calls++
			if (insn ~ /^j/) { bad++; printf "tail call in %s: %s ->%s\n", fn, insn, $NF }
		}
		END { printf "# %d static-call references checked\n", calls; exit bad > 0 }'
}

# --- guest image ---------------------------------------------------------------

# Static helpers shared by every initramfs.
st_build_helpers() {
	local out=$ST_BUILD/helpers src bin
	mkdir -p "$out"
	for src in "$ST_TESTS"/helpers/*.c; do
		bin=$out/$(basename "${src%.c}")
		if [[ ! -x $bin || $src -nt $bin ]]; then
			gcc -static -O2 -Wall -Wextra -Werror -o "$bin" "$src" || return 1
		fi
	done
}

# Copies a dynamically linked binary and the libraries ldd names.
st_copy_with_libs() {
	local bin=$1 root=$2 lib
	mkdir -p "$root$(dirname "$bin")"
	cp -L "$bin" "$root$bin"
	for lib in $(ldd "$bin" | grep -o '/[^ ]*'); do
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
}

# st_build_initramfs KVER KO OUT: busybox, hackbench, helpers, guest scripts.
st_build_initramfs() {
	local kver=$1 ko=$2 out=$3 root
	root=$(mktemp -d "$ST_BUILD/initramfs.XXXXXX")
	mkdir -p "$root"/{bin,sbin,usr/bin,proc,sys,dev,tmp,st/bin}
	cp /bin/busybox "$root/bin/busybox"
	st_copy_with_libs "$(command -v hackbench)" "$root"
	# kmod's insmod, not busybox's: busybox retries a failed finit_module
	# with init_module, so a rejected load runs module init (and logs) twice.
	st_copy_with_libs "$(readlink -f "$(command -v kmod)")" "$root"
	local t
	for t in insmod rmmod lsmod modinfo; do ln -s "$(readlink -f "$(command -v kmod)")" "$root/sbin/$t"; done
	cp "$ST_BUILD"/helpers/* "$root/st/bin/"
	cp "$ST_TESTS"/guest/*.sh "$root/st/"
	cp "$ST_TESTS/guest/init" "$root/init"
	chmod 755 "$root/init"
	[[ -n $ko ]] && cp "$ko" "$root/st/sched_tune.ko"
	echo "$kver" >"$root/st/kver"
	(cd "$root" && find . -print0 | cpio --null -o -H newc --quiet) >"$out"
	rm -rf "$root"
}

# st_boot VMLINUZ INITRAMFS OUTDIR CMDLINE-EXTRA...
# Console (kernel log) -> OUTDIR/console.log, TAP -> OUTDIR/tap.log via a
# second serial port so printk never interleaves with results.  A guest
# that outlives ST_GUEST_TIMEOUT gets an NMI through the monitor first: with
# unknown_nmi_panic and panic_print=0x40 the kernel then logs every CPU's
# backtrace (a CPU looping with IRQs off, pitfall 1, shows where), and only
# then is qemu killed.  Returns qemu's status, 124 for a hung guest.
st_boot() {
	local vmlinuz=$1 initrd=$2 out=$3 pid mon rc t0=$SECONDS
	shift 3
	mkdir -p "$out"
	: >"$out/console.log"; : >"$out/tap.log"
	mon=$out/monitor
	rm -f "$mon.in" "$mon.out"
	mkfifo "$mon.in" "$mon.out"
	# shellcheck disable=SC2086 # ST_QEMU_EXTRA is a list of qemu words
	"$ST_QEMU" \
		-accel "$ST_QEMU_ACCEL" -cpu "$ST_QEMU_CPU" -m "$ST_MEM" -smp "$ST_QEMU_SMP" \
		$ST_QEMU_EXTRA \
		-nographic -no-reboot -nodefaults -monitor "pipe:$mon" \
		-serial "file:$out/console.log" -serial "file:$out/tap.log" \
		-kernel "$vmlinuz" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 log_buf_len=8M unknown_nmi_panic panic_print=0x40 softlockup_all_cpu_backtrace=1 $*" \
		</dev/null >"$out/qemu.log" 2>&1 &
	pid=$!
	# drain the monitor so qemu never blocks writing to it
	cat "$mon.out" >"$out/monitor.log" 2>/dev/null &
	while kill -0 "$pid" 2>/dev/null; do
		if ((SECONDS - t0 >= ST_GUEST_TIMEOUT)); then
			echo nmi >"$mon.in"
			sleep 20
			kill "$pid" 2>/dev/null; sleep 2; kill -9 "$pid" 2>/dev/null
			wait "$pid" 2>/dev/null
			rm -f "$mon.in" "$mon.out"
			return 124
		fi
		sleep 1
	done
	wait "$pid"
	rc=$?
	rm -f "$mon.in" "$mon.out"
	return "$rc"
}

# Everything up to a bootable image for one kernel: headers, vmlinuz,
# module build.  Sets ST_VMLINUZ and ST_KO.
st_prepare_kernel() {
	local kver=$1
	st_ensure_headers "$kver"
	st_fetch_vmlinuz "$kver"
	ST_KO=$ST_BUILD/$kver/sched_tune.ko
}
