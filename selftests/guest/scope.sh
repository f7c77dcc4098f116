# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# Feature scopes (module/scope.h), sourced by tests.sh after lib.sh,
# cache_level.sh and trace_events.sh: features/<name>/scope confines a
# feature's decisions to the tasks of one cgroup v2 and its descendants.
# A feature's workload (trace_events.sh's, which makes its decisions
# every run; prev_bias's hackbench) runs in cgroup st_a, then a copy of
# it under another name in st_b; the feature's trace events name the task each decision was
# for.  Scoped to "/", a feature must decide for both (else it is
# skipped here); scoped to /st_a, for st_a's tasks and none of st_b's.
# sync_short's is placement.sh's short pair (t_sync_short).

SC_CG=/sys/fs/cgroup
SC_LOOPS=$(st_arg sc_loops "$(scaled 400 100)")
SC_ROUNDS=$(st_arg sc_rounds 50)

# IN_CGROUP for a workload whose comm names its group: the shell that
# moves itself into the cgroup takes CMD's comm before the move, so a
# decision for it there (woken between the move and the exec) counts as
# the group's (7.3.4 made one for a "sh" of st_a once, 2026-12-07)
# shellcheck disable=SC2016 # the inner shell's parameters
SC_IN='printf %s "${2##*/}" >/proc/$$/comm || exit 1; '"$IN_CGROUP"

# sc_in GROUP CMD...: CMD in cgroup GROUP (under SC_CG), in the background
sc_in() {
	g=$1
	shift
	sh -c "$SC_IN" sh "$SC_CG/$g" "$@" &
}

# sc_hackbench: a hackbench in st_a (comm st_hackbench) and one in st_b
# (comm sb_hackbench) at once; both must complete
sc_hackbench() {
	sc_in st_a /tmp/st_hackbench -g 1 -f 2 --threads --pipe -l "$SC_LOOPS" >/tmp/sc.a 2>&1
	a=$!
	sc_in st_b /tmp/sb_hackbench -g 1 -f 2 --threads --pipe -l "$SC_LOOPS" >/tmp/sc.b 2>&1
	b=$!
	wait "$a"
	ra=$?
	wait "$b"
	rb=$?
	[ "$ra" = 0 ] && [ "$rb" = 0 ] && return 0
	SC_FAILS=$((SC_FAILS + 1))
	return 1
}

# sc_count EVENT WHAT: the events in the buffer whose task field matches
# WHAT ("comm=st_wakemig ", "pid=123 ")
sc_count() { grep -c " $1: .*$2" "$TR/trace"; }

# sc_bin FEATURE: the program whose tasks make FEATURE's decisions
sc_bin() {
	case $1 in
	cache_level) echo pingpong ;;
	prev_bias) echo hackbench ;;
	*) echo wakemig ;;
	esac
}

# sc_load FEATURE GROUP: FEATURE's workload in cgroup GROUP, in the
# foreground: st_a's is /st/bin's st_<bin> (hackbench's a copy), st_b's
# a copy, sb_<bin>, whose name its tasks' comm carries
sc_load() {
	b=st_$(sc_bin "$1")
	[ "$b" = st_hackbench ] && b=/tmp/st_hackbench
	[ "$2" = st_b ] && b=/tmp/sb_$(sc_bin "$1")
	set -- "$1" "$2" "$b"
	case $1 in
	ratelimit) set -- "$@" 0 2 3 "$SC_ROUNDS" 1000000000 ;;
	# twenty threads on every CPU: prev_bias keeps prev where the
	# target is busy too (kept_busy, placement.sh's hackbench: +3057),
	# whatever room TCG leaves (st_wakemig's target had room in 0 of
	# 200 rounds once on a loaded host, 6.1, 2026-12-06)
	prev_bias) set -- "$@" -g 1 -f 10 --threads --pipe -l "$SC_LOOPS" -s 100 ;;
	cache_level) set -- "$@" "$CL_A" "$CL_FAR" "$SC_ROUNDS" 1 ;;
	esac
	g=$2
	shift 2
	if ! timeout 300 sh -c "$SC_IN" sh "$SC_CG/$g" "$@" >/tmp/sc.load 2>&1; then
		SC_FAILS=$((SC_FAILS + 1))
		diag "$* in $g failed: $(tail -n 3 /tmp/sc.load | tr '\n' ' ')"
	fi
}

# sc_run FEATURE EVENT: one round of FEATURE's workload with EVENT on;
# SC_A and SC_B the events for st_a's and st_b's tasks, SC_ALL every
# task's
sc_run() {
	echo 0 >"$TR/tracing_on"
	echo >"$TR/trace"
	echo 1 >"$TR/events/sched_tune/$2/enable"
	echo 1 >"$TR/tracing_on"
	if [ "$1" = eevdf ]; then
		sleep 2
	else
		sc_load "$1" st_a
		sc_load "$1" st_b
	fi
	echo 0 >"$TR/tracing_on"
	echo 0 >"$TR/events/sched_tune/$2/enable"
	set -- "$2" "$1"
	if [ "$2" = eevdf ]; then
		SC_A=$(sc_count "$1" "pid=$SC_HOG_A ") SC_B=$(sc_count "$1" "pid=$SC_HOG_B ")
	else
		SC_A=$(sc_count "$1" "comm=st_$(sc_bin "$2") ") SC_B=$(sc_count "$1" "comm=sb_$(sc_bin "$2") ")
	fi
	# a group entity's eevdf event (pid=-1) is no task's
	SC_ALL=$(grep " $1: " "$TR/trace" | grep -vc " pid=-1 ")
	# the first events for neither group's workload, to say whose
	SC_OTHER=$(grep " $1: " "$TR/trace" | grep -v " pid=-1 " |
		grep -v "comm=s[tb]_$(sc_bin "$2") " | head -n 3)
	echo 1 >"$TR/tracing_on"
}

# sc_feature FEATURE KNOB ON OFF EVENT: with KNOB=ON, scoped to "/", then
# to /st_a, then to /st_b while hackbench runs in both; KNOB=OFF after.
# A run that shows nothing to judge is run again, 4 times at most, each
# judged; scoped to "/", the groups' events add up over the runs.
sc_feature() {
	if ! supported "$1"; then
		ktap_skip "scope: $1" "unsupported here: $(feature_reason "$1")"
		return 0
	fi
	wr "$2" "$3" >/dev/null
	n=0 a0=0 b0=0
	while [ "$n" -lt 4 ] && { [ "$a0" = 0 ] || [ "$b0" = 0 ]; }; do
		sc_run "$1" "$5"
		n=$((n + 1)) a0=$((a0 + SC_A)) b0=$((b0 + SC_B))
		diag "$1 scoped to /, run $n: $SC_A events for st_a's tasks, $SC_B for st_b's, $SC_ALL in all"
	done
	if [ "$a0" = 0 ] || [ "$b0" = 0 ]; then
		ktap_skip "scope: $1 scoped to /st_a decides for st_a's tasks alone" \
			"its workload made no $5 event in one of the groups with the scope /, in $n runs"
	else
		check_eq "scope: $1: features/$1/scope /st_a accepted" "$(wr "features/$1/scope" /st_a)" OK
		n=0 sa=0 other=0
		while [ "$n" -lt 4 ] && [ "$sa" = 0 ]; do
			sc_run "$1" "$5"
			n=$((n + 1)) sa=$SC_A other=$((other + SC_ALL - SC_A))
			diag "$1 scoped to /st_a, run $n: $SC_A events for st_a's tasks, $SC_B for st_b's, $SC_ALL in all"
			[ "$SC_ALL" = "$SC_A" ] || diag "  other events: $SC_OTHER"
		done
		check "scope: $1 scoped to /st_a decides for st_a's tasks ($sa events in run $n of 4 at most)" test "$sa" -gt 0
		check_eq "scope: $1 scoped to /st_a decides for no task outside st_a (st_b's or any other)" "$other" 0
	fi
	# switched while the workload runs
	sc_hackbench &
	w=$!
	bad=0
	for s in /st_b /st_a / /st_b; do
		sleep 0.2
		[ "$(wr "features/$1/scope" "$s")" = OK ] || bad=$((bad + 1))
	done
	wait "$w" || SC_FAILS=$((SC_FAILS + 1))
	check_eq "scope: $1: scope writes while the workload runs work" "$bad" 0
	check_eq "scope: $1: features/$1/scope reads the last one written" "$(cat "$ST/features/$1/scope")" /st_b
	wr "features/$1/scope" / >/dev/null
	wr "$2" "$4" >/dev/null
}

# nr_dying_descendants of the cgroup root: a removed cgroup that a
# reference holds
sc_dying() { awk '$1 == "nr_dying_descendants" { print $2 }' "$SC_CG/cgroup.stat"; }

# sc_dying_back N: until the root's dying cgroups are N again, 20 s at
# most (their release is an RCU callback, then a worker)
sc_dying_back() {
	i=0
	while [ "$(sc_dying)" -gt "$1" ] && [ "$i" -lt 40 ]; do
		sleep 0.5
		i=$((i + 1))
	done
	[ "$(sc_dying)" -le "$1" ]
}

# sc_readme: README.md's "One cgroup only" commands, as written, with
# the cgroups they name made first.  Each line must succeed: from the
# directory of the last cd, with the module loaded, and unloaded for a
# modprobe line; a cat line's comment is what it must print; a modprobe
# line's scope= must read back in each feature's scope.
sc_readme() {
	r=${SC_README:-/st/README.md}
	awk '/^## One cgroup only$/ { on = 1; next } on && /^## / { exit } on && /^    / { print substr($0, 5) }' \
		"$r" >/tmp/sc.readme 2>/dev/null
	if ! check "scope: README.md's \"One cgroup only\" has commands" test -s /tmp/sc.readme; then
		return 1
	fi
	mkdir -p $SC_CG/system.slice/nginx.service $SC_CG/test.slice
	st_cleanup
	st_load
	dir=/
	while IFS= read -r line; do
		cmd=$(echo "${line%%#*}" | sed 's/[[:space:]]*$//')
		case $cmd in
		cd\ *)
			dir=${cmd#cd }
			check "scope: README.md: $cmd" test -d "$dir"
			continue ;;
		modprobe\ sched_tune*) st_cleanup ;;
		esac
		# kmod's modprobe, as on a server: busybox's sh prefers its
		# applet.  A shell left in /sys/kernel/sched_tune by the
		# rmmod before a modprobe runs it all the same: from / here.
		out=$({ cd "$dir" 2>/dev/null || cd /; } && sh -c "modprobe() { /sbin/modprobe \"\$@\"; }; $cmd" 2>&1)
		rc=$?
		check_eq "scope: README.md: $cmd (from $dir)" "$rc" 0
		[ "$rc" = 0 ] || diag "  it printed: $out"
		case $cmd in
		cat\ *)
			want=$(echo "${line#*#}" | sed 's/^[[:space:]]*//; s/[[:space:]]*$//')
			[ "$want" != "$line" ] && check_eq "scope: README.md: $cmd prints what its comment says" "$out" "$want" ;;
		modprobe\ sched_tune*scope=*)
			for fp in $(echo "${cmd##*scope=}" | cut -d' ' -f1 | tr ',' ' '); do
				check_eq "scope: after README.md's modprobe, features/${fp%%:*}/scope" \
					"$(cat "$ST/features/${fp%%:*}/scope" 2>&1)" "${fp#*:}"
			done ;;
		esac
	done </tmp/sc.readme
	st_cleanup
	rmdir $SC_CG/system.slice/nginx.service $SC_CG/system.slice $SC_CG/test.slice 2>/dev/null
}

t_scope() {
	group "scope: a feature confined to one cgroup"
	mountpoint -q $SC_CG || mount -t cgroup2 none $SC_CG 2>/dev/null
	if [ ! -f $SC_CG/cgroup.procs ] || [ ! -d "$TR/events" ]; then
		ktap_skip "scope" "needs cgroup v2 and tracefs events"
		return 0
	fi
	mkdir -p $SC_CG/st_a/sub $SC_CG/st_b
	cp "$(command -v st_wakemig)" /tmp/sb_wakemig
	cp "$(command -v st_pingpong)" /tmp/sb_pingpong
	cp "$(command -v hackbench)" /tmp/st_hackbench
	cp "$(command -v hackbench)" /tmp/sb_hackbench
	SC_FAILS=0

	# the parameter, and what a load refuses
	if ! supported ratelimit || ! supported prev_bias; then
		ktap_skip "scope" "ratelimit or prev_bias unsupported here"
		return 0
	fi
	dmesg_mark
	check "scope: insmod scope=ratelimit:/st_a" \
		st_load scope=ratelimit:/st_a ratelimit_window_ns=0 cache_share_level=llc numa_scan_threshold=0
	check_eq "scope: features/ratelimit/scope reads the parameter's" \
		"$(cat "$ST/features/ratelimit/scope")" /st_a
	check_eq "scope: features/prev_bias/scope reads / by default" "$(cat "$ST/features/prev_bias/scope")" /
	st_unload
	for p in ratelimit:/st_none ratelimit st_none:/st_a ratelimit:st_a; do
		check "scope: insmod scope=$p fails" not st_load "scope=$p"
		is_loaded && st_unload
	done
	check_eq "scope: each refused parameter says why in one line, at warning level" \
		"$(dmesg_new | grep -c 'parameter scope')" 4

	st_load ratelimit_window_ns=0 cache_share_level=llc numa_scan_threshold=0 || {
		ktap_fail "scope: insmod"
		return 1
	}
	# bad writes: an error, the old value kept
	wr features/prev_bias/scope /st_a >/dev/null
	check_eq "scope: a path not from the root is EINVAL" "$(wr features/prev_bias/scope st_b)" EINVAL
	check_eq "scope: a path no cgroup has is ENOENT" "$(wr features/prev_bias/scope /st_none)" ENOENT
	check_eq "scope: a cgroup's file is ENOTDIR" "$(wr features/prev_bias/scope /st_a/cgroup.procs)" ENOTDIR
	check_eq "scope: the scope before the bad writes stays" "$(cat "$ST/features/prev_bias/scope")" /st_a
	check_eq "scope: a descendant's path is accepted" "$(wr features/prev_bias/scope /st_a/sub/)" OK
	check_eq "scope: its path reads without the trailing slash" "$(cat "$ST/features/prev_bias/scope")" /st_a/sub
	wr features/prev_bias/scope / >/dev/null

	sc_feature ratelimit ratelimit_window_ns 1000000000 0 sched_tune_ratelimit_keep
	sc_feature prev_bias prev_bias 1 0 sched_tune_prev_bias
	cl_pick_pairs
	if [ -n "$CL_FAR" ]; then
		sc_feature cache_level cache_share_level l2 llc sched_tune_cache_level
	else
		ktap_skip "scope: cache_level" "no two CPUs share an LLC but not an L2"
	fi
	check_eq "scope: every workload completed" "$SC_FAILS" 0
	if supported eevdf && [ "$(wr eevdf_slice fixed)" = OK ]; then
		wr eevdf_slice stock >/dev/null
		sc_in st_a taskset -c 1 sh -c 'while :; do :; done'
		SC_HOG_A=$!
		sc_in st_b taskset -c 1 sh -c 'while :; do :; done'
		SC_HOG_B=$!
		sleep 0.5
		sc_feature eevdf eevdf_slice fixed stock sched_tune_eevdf_slice
		kill "$SC_HOG_A" "$SC_HOG_B"
		wait "$SC_HOG_A" "$SC_HOG_B" 2>/dev/null
	else
		ktap_skip "scope: eevdf" "no slice policy here"
	fi

	# a removed cgroup: held until the scope moves on, then released.
	# The control: one removed with no scope is gone within the wait.
	d0=$(sc_dying)
	mkdir $SC_CG/st_gone
	rmdir $SC_CG/st_gone
	check "scope: a cgroup removed without a scope is released (control)" sc_dying_back "$d0"
	mkdir $SC_CG/st_gone
	check_eq "scope: a scope on a cgroup about to go" "$(wr features/prev_bias/scope /st_gone)" OK
	rmdir $SC_CG/st_gone
	check_eq "scope: a removed cgroup's scope says so" "$(cat "$ST/features/prev_bias/scope")" "/st_gone (removed)"
	sleep 3
	check "scope: the scope holds the removed cgroup ($(sc_dying) dying, $d0 before)" test "$(sc_dying)" -gt "$d0"
	check_eq "scope: the scope moves on from a removed cgroup" "$(wr features/prev_bias/scope /)" OK
	check "scope: the removed cgroup is released once the scope moved on" sc_dying_back "$d0"
	mkdir $SC_CG/st_gone
	wr features/prev_bias/scope /st_gone >/dev/null
	rmdir $SC_CG/st_gone
	check "scope: rmmod with a scope on a removed cgroup" st_unload
	check "scope: the removed cgroup is released by the rmmod" sc_dying_back "$d0"
	rmdir $SC_CG/st_a/sub $SC_CG/st_a $SC_CG/st_b
	rm -f /tmp/sb_wakemig /tmp/sb_pingpong /tmp/st_hackbench /tmp/sb_hackbench
	sc_readme
}
