# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# Knob fuzz, sourced by tests.sh after lib.sh and soak.sh.
# Every writable file under /sys/kernel/sched_tune (and writable module
# parameters, if any) gets FZ_N seeded inputs from helpers/st_fuzz, then
# FZ_N more from 4 writers at once (FZ_N / 4 each, other seeds) while a
# reader checks every file.
# Each write must fail cleanly (EINVAL, ERANGE, EOPNOTSUPP, as
# sysfs-kernel-sched_tune says for those bytes) or set the value it names;
# every read must parse; the kernel log must stay clean.

FZ_N=$(st_arg fuzz_n "$(scaled 200 50)")
FZ_SEED=$(st_arg fuzz_seed 1)
FZ_WRITERS=4
# the scope files' cgroups (st_fuzz's cgroup spec)
FZ_CG=/sys/fs/cgroup

# fz_spec FILE (relative to $ST): the st_fuzz spec of a writable file, as
# sysfs-kernel-sched_tune defines it; fails for a file it does not know.
fz_spec() {
	case $1 in
	enabled|passthrough) s=num:0:1 ;;
	ratelimit_window_ns) s=num:0:1000000000 ;;
	ratelimit_burst) s=num:1:1000 ;;
	ratelimit_mode) s=choice:fixed/adaptive ;;
	ratelimit_quota|ratelimit_quota_replenish) s=num:1:1000 ;;
	cache_share_level) s=choice:llc/l2/smt/auto/none ;;
	cache_share_auto_llc_max) s=num:1:4096 ;;
	numa_scan_threshold) s=num:0:100 ;;
	numa_scan_renew) s=num:0:1024 ;;
	eevdf_counters) s=num:0:1 ;;
	eevdf_slice) s=choice:stock/fixed/scaled ;;
	eevdf_slice_ns) s=num:100000:100000000 ;;
	eevdf_latency_ns) s=num:1000000:1000000000 ;;
	prev_bias|sync_short) s=num:0:1 ;;
	stats/reset) s=num:1:1:wo ;;
	features/*/scope) s=cgroup:$FZ_CG:/,/st_fz,/st_fz/sub ;;
	*) return 1 ;;
	esac
	f=$(knob_feature "$1")
	case $1 in features/*/scope) f=${1#features/} f=${f%/scope} ;; esac
	if [ "$f" != none ] && [ "$(feature_state "$f")" = unsupported ]; then s=$s:uns; fi
	# eevdf's slice knobs: only where its own gate checked the code (6.12)
	case $1 in eevdf_slice*|eevdf_latency_ns) ev_slice_checked || s=$s:uns ;; esac
	echo "$ST/$1=$s"
}

# Writable files below $ST, relative paths.
fz_writable() { (cd "$ST" && find . -type f -perm -200 | sed 's|^\./||' | sort); }

# fz_read_all: every readable file of the module parses; prints the bad
# ones.  Knobs by their spec (st_fuzz -r), counters as u64, feature
# states and reasons as one line.
fz_read_all() {
	bad=0
	# shellcheck disable=SC2086 # a list of specs
	st_fuzz -r $FZ_SPECS >/tmp/fz.read || { cat /tmp/fz.read; bad=1; }
	for f in "$ST"/stats/*; do
		[ "${f##*/}" = reset ] && continue
		v=$(cat "$f") || { echo "# $f: read failed"; bad=1; continue; }
		case $v in ''|*[!0-9]*) echo "# $f: '$v' is not a counter"; bad=1 ;; esac
		[ ${#v} -le 20 ] || { echo "# $f: '$v' too long for a u64"; bad=1; }
	done
	for f in $FEATURES $FEATURES_HOSTED; do
		d=$ST/features/$f
		st=$(cat "$d/state") || { echo "# $d/state: read failed"; bad=1; continue; }
		# "(unchecked)": a feature run by allow_unchecked=1 (sysfs-kernel-sched_tune)
		case $st in
		active | idle | inactive | unsupported) ;;
		"active (unchecked)" | "idle (unchecked)" | "inactive (unchecked)") ;;
		*) echo "# $d/state: '$st'"; bad=1 ;;
		esac
		for x in reason functions; do
			[ "$(wc -l <"$d/$x")" -le 1 ] || { echo "# $d/$x: more than one line"; bad=1; }
		done
	done
	return $bad
}

# New kernel log lines at level err or worse (dmesg -r: "<level>...").
fz_dmesg_err() { dmesg -r | tail -n +"$((ST_DMARK + 1))" | grep -E '^<[0-3]>'; }

t_knob_fuzz() {
	group "knob fuzz: $FZ_N inputs per writable file alone, $FZ_N more from $FZ_WRITERS writers at once"
	scaled_note "knob fuzz: inputs per file" 200 "$FZ_N"
	# eevdf is off by default: hooked once here, its hook's first
	# "hooked through" line comes before the mark, as the others' do
	mountpoint -q $FZ_CG || mount -t cgroup2 none $FZ_CG 2>/dev/null
	mkdir -p $FZ_CG/st_fz/sub
	st_load eevdf_counters=1 2>/dev/null || st_load || { ktap_fail "fuzz: insmod"; return 1; }
	diag "features: $(sk_features)"
	FZ_SPECS=
	for f in $(fz_writable); do
		if s=$(fz_spec "$f"); then FZ_SPECS="$FZ_SPECS $s"
		else ktap_fail "fuzz: writable file $f has a spec in fuzz.sh (sysfs-kernel-sched_tune grammar)"; fi
	done
	for p in /sys/module/sched_tune/parameters/*; do
		if [ ! -f "$p" ] || [ -z "$(find "$p" -perm -200)" ]; then continue; fi
		f=${p##*/}
		if s=$(fz_spec "$f"); then FZ_SPECS="$FZ_SPECS /sys/module/sched_tune/parameters/${s#"$ST"/}"
		else ktap_fail "fuzz: writable parameter $f has a spec in fuzz.sh"; fi
	done
	diag "specs:$FZ_SPECS"
	diag "seed $FZ_SEED (st_fuzz_seed=N reruns another one)"
	# the read-only files' contents are inputs too
	set --
	for f in $(cd "$ST" && find . -type f -perm -400 ! -perm -200); do
		set -- "$@" -v "$(cat "$ST/$f" 2>/dev/null)"
	done
	dmesg_mark
	t0=$(now_cs)

	# one writer: exact oracle, read-back included
	for s in $FZ_SPECS; do
		f=${s%%=*}
		f=${f#"$ST"/}
		if st_fuzz -s "$FZ_SEED" -n "$FZ_N" "$@" "$s" >/tmp/fz.out 2>&1; then
			ktap_ok "fuzz: $f: $FZ_N inputs, each failed cleanly or set its value"
		else
			ktap_fail "fuzz: $f: $FZ_N inputs, each failed cleanly or set its value"
		fi
		sed 's/^# */#   /' /tmp/fz.out
	done
	t1=$(now_cs)
	check "fuzz: every file reads and parses after the single-writer fuzz" fz_read_all

	# FZ_WRITERS writers on every file at once, and a reader
	pids=
	w=1
	while [ "$w" -le "$FZ_WRITERS" ]; do
		# shellcheck disable=SC2086 # a list of specs
		st_fuzz -c -s $((FZ_SEED * 100 + w)) -n $(((FZ_N + FZ_WRITERS - 1) / FZ_WRITERS)) \
			"$@" $FZ_SPECS >/tmp/fz.w$w 2>&1 &
		pids="$pids $!"
		w=$((w + 1))
	done
	reads=0 badreads=0
	while :; do
		running=0
		for p in $pids; do kill -0 "$p" 2>/dev/null && running=1; done
		[ "$running" = 1 ] || break
		fz_read_all >/tmp/fz.rd || { badreads=$((badreads + 1)); head -n 5 /tmp/fz.rd; }
		reads=$((reads + 1))
	done
	w=1
	for p in $pids; do
		wait "$p"
		rc=$?
		check_eq "fuzz: writer $w of $FZ_WRITERS at once: every write failed cleanly or applied, reads parsed" "$rc" 0
		grep -v '^# /' /tmp/fz.w$w | head -n 20 | sed 's/^# */#   /'
		w=$((w + 1))
	done
	t2=$(now_cs)
	sed 's/^# */#   /' /tmp/fz.w1
	check_eq "fuzz: a reader over every file during the writers: all parsed ($reads passes)" "$badreads" 0
	check "fuzz: every file reads and parses after the writers" fz_read_all
	diag "fuzz: single writer $(secs "$t0" "$t1") s, $FZ_WRITERS writers $(secs "$t1" "$t2") s (qemu TCG)"
	diag "features after the fuzz: $(sk_features)"
	check "fuzz: the module unloads after the fuzz" st_unload
	rmdir $FZ_CG/st_fz/sub $FZ_CG/st_fz
	check "fuzz: nothing of ours left in enabled_functions" not sk_ours_in_ftrace
	n=$(dmesg_new | grep -c 'sched_tune')
	check_eq "fuzz: the module logged nothing (sysfs-kernel-sched_tune: failed writes log nothing)" "$n" 0
	[ "$n" = 0 ] || dmesg_new | grep 'sched_tune' | head -n 10 | sed 's/^/#   /'
	n=$(fz_dmesg_err | wc -l)
	check_eq "fuzz: no kernel log line at level err or worse" "$n" 0
	[ "$n" = 0 ] || fz_dmesg_err | head -n 10 | sed 's/^/#   /'
}
