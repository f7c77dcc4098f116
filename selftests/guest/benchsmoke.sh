# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# Guest side of the bench's smoke test (st_mode=benchsmoke, make check),
# KTAP on stdout:
#  1. module loaded with non-default knobs: a short bench over every
#     configuration; the report's shape (sched-tune-bench check); the
#     module still loaded with exactly those knobs;
#  2. the same bench interrupted with SIGINT in its third run: exit 130,
#     knobs restored, no workload left running, results marked interrupted;
#  3. module not loaded: a short bench, then one stopped with SIGTERM;
#     the module is not loaded afterwards;
#  4. seed 001's experiment: cpurate and wakelat under stock and eevdf-*,
#     the preemptions per second in the report, fewer with a longer
#     slice; tracepoint counts without schedstats; no PMU said so;
#  5. --scoped: ratelimit beside stock in two cgroups, the report's
#     shape, then one stopped with SIGINT; every scope / afterwards, no
#     st_bench_* cgroup and no workload left.
# shellcheck source=/dev/null
. /st/lib.sh
# shellcheck source=/dev/null
. /st/benchlib.sh

# one of each kind: no module, the module at stock, every feature at its
# seed value, one feature (its sweep adds a second value); the bench's
# own tests cover each configuration's knobs
SMOKE_CONFIGS=unloaded,stock,seed,cache_level
ARGS=$(cat /st/bench.args)

# bench_bg OUT ARGS...: the bench in the background, its pid in BPID
bench_bg() {
	o=$1
	shift
	# shellcheck disable=SC2086
	"$BENCH" run --ko "$KO" -o "$o" "$@" >"$o.log" 2>&1 &
	BPID=$!
}

# wait_run OUT N: until the bench in OUT started its Nth run (or 600 s)
wait_run() {
	i=0
	while [ $i -lt 1200 ]; do
		r=$(sed -n 's/.*"run": *\([0-9]*\).*/\1/p' "$1/progress.json" 2>/dev/null)
		[ -n "$r" ] && [ "$r" -ge "$2" ] && return 0
		kill -0 "$BPID" 2>/dev/null || return 1
		sleep 0.5
		i=$((i + 1))
	done
	return 1
}

# check_report DIR ARGS...: the check command's lines as KTAP results
check_report() {
	d=$1
	shift
	"$BENCH" check "$d" "$@" >/tmp/check.out 2>&1
	tap_lines /tmp/check.out
}

# tap_lines FILE: "ok - ...", "not ok - ..." and "ok - ... # SKIP why"
# lines as KTAP results, anything else as a diagnostic
tap_lines() {
	while IFS= read -r line; do
		case $line in
		"ok - "*"# SKIP"*) d2=${line#ok - }; ktap_skip "bench: ${d2%% \# SKIP*}" "${d2#*\# SKIP }" ;;
		"ok - "*) ktap_ok "bench: ${line#ok - }" ;;
		"not ok - "*) ktap_fail "bench: ${line#not ok - }" ;;
		*) diag "  $line" ;;
		esac
	done <"$1"
}

# (busybox here has no pgrep)
no_workload_left() {
	# shellcheck disable=SC2009
	! ps | grep -v grep | grep -qE 'hackbench|tbench|st_wakelat|st_numa_work|st_cpurate|perf bench'
}

# The module as a user left it: loaded, knobs away from their defaults.
load_custom() {
	st_load ratelimit_window_ns=3000000 ratelimit_burst=2 cache_share_auto_llc_max=4 &&
		[ "$(wr cache_share_level smt)" = OK ]
}

t_bench_loaded() {
	group "bench: module loaded with non-default knobs"
	check "insmod with non-default knobs" load_custom || return
	before=$(knob_snapshot)
	diag "knobs before: $(echo "$before" | tr '\n' ' ')"
	t0=$(now_cs)
	# shellcheck disable=SC2086
	"$BENCH" run --ko "$KO" -o /tmp/smoke1 -c "$SMOKE_CONFIGS" $ARGS >/tmp/smoke1.log 2>&1
	rc=$?
	diag "bench took $(secs "$t0" "$(now_cs)") s (qemu TCG)"
	check_eq "bench run exits 0" "$rc" 0
	[ "$rc" = 0 ] || tail -n 30 /tmp/smoke1.log | sed 's/^/#   /'
	# no plotter in the guest: the host draws the plots and checks them
	check_report /tmp/smoke1 --configs "$SMOKE_CONFIGS" --workloads hackbench,messaging,pipe,tbench,wakelat,numa,cpurate \
		--no-plots
	check "module still loaded after the run" is_loaded
	check_eq "every knob restored after the run" "$(knob_snapshot)" "$before"
	grep -E '^\[' /tmp/smoke1.log | tail -n 3 | sed 's/^/#   progress: /'
	# the module was this unit's to load: the machine goes back as found
	st_cleanup
}

t_bench_sigint() {
	group "bench: interrupted with SIGINT"
	check "insmod with non-default knobs" load_custom || return
	before=$(knob_snapshot)
	bench_bg /tmp/smoke2 -c stock,seed,unloaded,cache_level -w hackbench,pipe --reps 20 --run-seconds 1 \
		--hackbench-groups 1 --hackbench-loops 20 --pipe-loops 2000
	check "bench reached its third run" wait_run /tmp/smoke2 3
	kill -INT "$BPID"
	wait "$BPID"
	check_eq "SIGINT: bench exits 130" "$?" 130
	check "SIGINT: module still loaded" is_loaded
	check_eq "SIGINT: every knob restored" "$(knob_snapshot)" "$before"
	check "SIGINT: no workload process left" no_workload_left
	check "SIGINT: results.json says interrupted" grep -qE '"state": ?"interrupted' /tmp/smoke2/results.json
	check "SIGINT: partial report written" test -s /tmp/smoke2/report.md
	grep -E 'interrupted|restor' /tmp/smoke2.log | sed 's/^/#   /'
	st_cleanup
}

t_bench_unloaded() {
	group "bench: module not loaded at start"
	st_cleanup
	# shellcheck disable=SC2086
	"$BENCH" run --ko "$KO" -o /tmp/smoke3 -c unloaded,stock,seed -w pipe --reps 2 --run-seconds 1 \
		--pipe-loops 2000 --no-plots >/tmp/smoke3.log 2>&1
	check_eq "bench run (module unloaded at start) exits 0" "$?" 0
	check "module not loaded after the run" not is_loaded
	bench_bg /tmp/smoke4 -c stock,unloaded,seed -w pipe --reps 20 --run-seconds 1 --pipe-loops 2000 --no-plots
	check "bench reached its fourth run" wait_run /tmp/smoke4 4
	kill -TERM "$BPID"
	wait "$BPID"
	check_eq "SIGTERM: bench exits 143" "$?" 143
	check "SIGTERM: module not loaded afterwards" not is_loaded
	check "SIGTERM: no workload process left" no_workload_left
}

# What seed 001's run must show, read from its results.json: the
# preemptions per second of every eevdf-* configuration, fewer with a
# longer slice (counts, not timings), the wakeups from the sched_wakeup
# tracepoint with schedstats left off, and the hardware counters said
# "not available" under qemu TCG.
EEVDF_PY='
import json, sys
from stbench.markdown import FIXED_SLICE_MS, LATE_TICK_MS
d = sys.argv[1]
j = json.load(open(d + "/results.json"))
summary = json.load(open(d + "/summary.json"))["summary"]
md = open(d + "/report.md").read()
st = j["stamp"]
m = st.get("counter_methods") or {}
def res(ok, desc):
    print(("ok - " if ok else "not ok - ") + desc)
h = {x["key"]: x for x in summary["headline"]}.get("eevdf") or {}
rows = {r["config"]: r for r in h.get("per_config") or []}
res("eevdf-stock" in rows and rows["eevdf-stock"]["mean"] > 0,
    "eevdf-stock: %s/s counted (%s)" % (h.get("preempt_counter"), rows.get("eevdf-stock")))
skips = {c["name"]: c.get("skip") for c in j["configs"]}
tm = h.get("tick_ms")
for c in ("eevdf-fixed12", "eevdf-scaled"):
    if skips.get(c):
        print("ok - %s: fewer preemptions than eevdf-stock # SKIP %s" % (c, skips[c]))
        res(skips[c] in md, "%s: skipped loudly, its reason in report.md" % c)
        continue
    row = rows.get(c) or {}
    res(row.get("per_tick") is not None and row["per_tick"] <= 1.0,
        "%s: at most one preemption per tick that found a fair task (%s)" % (c, row.get("per_tick")))
    r = row.get("ratio_to_eevdf_stock")
    desc = "%s: eevdf-stock has more than 1.5x its %s/s (%s)" % (c, h.get("preempt_counter"), r)
    if tm is None or tm > LATE_TICK_MS:
        print("ok - %s # SKIP ticks %s ms apart per CPU: later than the slice, the deadline moves at every tick" % (desc, tm))
        # the report says why as markdown.md_per_config decides: ticks a
        # fixed slice apart hide it, ticks closer cap its effect
        if tm is not None and tm < FIXED_SLICE_MS:
            res("can cut preemptions at most about" in md, "%s: report.md notes that late ticks cap what the slice can cut" % c)
        else:
            res("not measure the policy" in md, "%s: report.md warns that late ticks hide the slice" % c)
        continue
    res(r is not None and r > 1.5, desc)
res("per second of cpurate, per configuration" in md, "report.md shows the preemptions per second per configuration")
res(m.get("wakeups", "").startswith("sched:sched_wakeup"), "wakeups counted with the sched_wakeup tracepoint (%s)" % m.get("wakeups"))
res(st.get("schedstats") == "0", "kernel.sched_schedstats left off during the runs (%s)" % st.get("schedstats"))
cell = summary["cells"]["cpurate"]["stock"]["rates"]
res(cell.get("tp_wakeup_per_s", {}).get("n") == 2 and cell.get("tp_migrate_task_per_s", {}).get("n") == 2,
    "sched_wakeup and sched_migrate_task counted in every timed run")
if st.get("hypervisor", {}).get("emulated"):
    res(m.get("hw_cycles", "").startswith("not available"), "qemu TCG: hardware cycles not available (%s)" % m.get("hw_cycles"))
    res("Not available here: cache-misses not available" in md, "report.md says the hardware counters are not available")
'

t_bench_eevdf() {
	group "bench: seed 001 (cpurate under eevdf-*), perf events"
	st_cleanup
	t0=$(now_cs)
	"$BENCH" run --ko "$KO" -o /tmp/smoke5 -c stock,eevdf-stock,eevdf-fixed12,eevdf-scaled -w cpurate,wakelat \
		--reps 2 --run-seconds 2 --cpurate-kb 256 --no-plots >/tmp/smoke5.log 2>&1
	rc=$?
	diag "bench took $(secs "$t0" "$(now_cs)") s (qemu TCG)"
	check_eq "bench run (cpurate, wakelat; eevdf-*) exits 0" "$rc" 0
	[ "$rc" = 0 ] || tail -n 30 /tmp/smoke5.log | sed 's/^/#   /'
	check_report /tmp/smoke5 --configs stock,eevdf-stock,eevdf-fixed12,eevdf-scaled --workloads cpurate,wakelat --no-plots
	python3 -c "$EEVDF_PY" /tmp/smoke5 >/tmp/eevdf.out 2>&1 || echo "not ok - the results.json checks ran" >>/tmp/eevdf.out
	tap_lines /tmp/eevdf.out
	grep -A8 'per second of cpurate, per configuration' /tmp/smoke5/report.md | sed 's/^/#   /'
	check "module not loaded after the run" not is_loaded
}

# pe_record EVENT=COUNTER[+COUNTER] KNOB VALUE CMD...: perf record -a of
# sched_tune:* and sched:sched_migrate_task (as README.md says) while
# KNOB=VALUE and CMD runs, KNOB 0 from before the counters are read (the
# rate limit's default window, 2 ms, keeps a kworker's wakeup now and
# then, a count outside the record: 261 records for 262 keeps, 332 for
# 333, and 138 for 139 with ftrace's events beside perf's also 138,
# 6.12.95, 2026-12-05) and again a second before perf stops (a knob's
# write does not wait for the hooks under RCU: one that read the old
# configuration has decided by then, inside the record); then perf
# script: perf's own parser reads events/sched_tune/EVENT/format, and
# what it prints is counted against the counters' growth.
pe_record() {
	e=${1%%=*} c=${1#*=} k=$2 v=$3
	shift 3
	wr "$k" 0 >/dev/null
	c0=$(te_sum "$c")
	# shellcheck disable=SC2016 # the inner shell expands them
	perf record -q -a --no-buildid --no-buildid-cache -o /tmp/perf.data \
		-e 'sched_tune:*' -e sched:sched_migrate_task -- \
		sh -c 'k=$1; echo "$2" >"$k" && shift 2 && "$@"; r=$?; echo 0 >"$k"; sleep 1; exit $r' \
		sh "$ST/$k" "$v" "$@" >/tmp/pe.cmd 2>&1
	rc=$?
	grew=$(($(te_sum "$c") - c0))
	check_eq "perf: perf record -a -e 'sched_tune:*' over $e's decisions exits 0" "$rc" 0
	[ "$rc" = 0 ] || tail -n 5 /tmp/pe.cmd | sed 's/^/#   /'
	perf script -i /tmp/perf.data 2>/tmp/pe.err | sed 's/[[:space:]]*$//' >/tmp/perf.txt
	n=$(grep -c " sched_tune:$e: " /tmp/perf.txt)
	diag "perf: $n sched_tune:$e records, $c grew by $grew; the first: $(grep -m1 " sched_tune:$e: " /tmp/perf.txt | sed 's/^ *//')"
	[ -s /tmp/pe.err ] && diag "perf script: $(head -n 3 /tmp/pe.err | tr '\n' ' ')"
	lost=$(perf report -i /tmp/perf.data --stats 2>/dev/null | grep -E 'LOST|THROTTLE' | tr -s ' \n' '  ')
	diag "perf report --stats: ${lost:-no LOST or THROTTLE record}"
	check "perf: sched_tune:$e recorded" test "$n" -gt 0
	check "perf: sched:sched_migrate_task recorded beside it" grep -q " sched:sched_migrate_task: " /tmp/perf.txt
	check_eq "perf: one sched_tune:$e record per decision counted" "$n" "$grew"
	check "perf: perf script prints sched_tune:$e's fields as its format says" \
		grep -qE " sched_tune:$e: $(te_fields "$e")" /tmp/perf.txt
}

t_perf_events() {
	group "trace events through perf record and perf script"
	st_cleanup
	if ! command -v perf >/dev/null; then
		ktap_skip "perf: trace events" "no perf in this guest"
		return 0
	fi
	st_load || {
		ktap_fail "perf: insmod"
		return 1
	}
	if ! supported ratelimit || ! supported prev_bias; then
		ktap_skip "perf: trace events" "ratelimit or prev_bias unsupported here"
		st_unload
		return 0
	fi
	check "perf: perf list names sched_tune's events" \
		sh -c "perf list 'sched_tune:*' 2>/dev/null | grep -q sched_tune:sched_tune_prev_bias"
	pe_record sched_tune_ratelimit_keep=ratelimit_kept_prev_cpu ratelimit_window_ns 1000000000 \
		st_wakemig 0 2 3 100 1000000000
	pe_record sched_tune_prev_bias=prev_bias_kept+prev_bias_target_room+prev_bias_recent_room prev_bias 1 \
		st_wakemig 0 2 3 100
	check "perf: rmmod" st_unload
}

CG=/sys/fs/cgroup

# every feature's scope reads / (as the bench must leave them)
scopes_all_root() {
	for f in "$ST"/features/*/scope; do
		[ "$(cat "$f")" = / ] || return 1
	done
}

no_bench_cgroup() { ! ls -d "$CG"/st_bench_* >/dev/null 2>&1; }

t_bench_scoped() {
	group "bench: scoped A/B, ratelimit beside stock in two cgroups"
	st_cleanup
	mountpoint -q $CG || mount -t cgroup2 none $CG 2>/dev/null
	if [ ! -f $CG/cgroup.procs ]; then
		ktap_skip "bench: scoped" "needs cgroup v2"
		return
	fi
	check "insmod" st_load || return
	if ! ls "$ST"/features/*/scope >/dev/null 2>&1; then
		ktap_skip "bench: scoped" "this module has no features/*/scope"
		st_cleanup
		return
	fi
	"$BENCH" run --ko "$KO" -o /tmp/smoke6 --scoped -c stock,ratelimit -w pipe --reps 2 --run-seconds 1 \
		--pipe-loops 2000 --no-plots >/tmp/smoke6.log 2>&1
	rc=$?
	check_eq "scoped bench run exits 0" "$rc" 0
	[ "$rc" = 0 ] || tail -n 30 /tmp/smoke6.log | sed 's/^/#   /'
	check_report /tmp/smoke6 --configs stock,ratelimit --workloads pipe --no-plots
	check "scoped: results.json names the cgroups" grep -q '"cgroup": *"[^"]*/st_bench_b"' /tmp/smoke6/results.json
	check "scoped: module still loaded after the run" is_loaded
	check "scoped: every scope / after the run" scopes_all_root
	check "scoped: no st_bench_* cgroup left" no_bench_cgroup
	check "scoped: no workload process left" no_workload_left
	bench_bg /tmp/smoke7 --scoped -c stock,ratelimit -w pipe --reps 20 --run-seconds 1 --pipe-loops 2000 --no-plots
	check "scoped: bench reached its third pair" wait_run /tmp/smoke7 3
	kill -INT "$BPID"
	wait "$BPID"
	check_eq "scoped SIGINT: bench exits 130" "$?" 130
	check "scoped SIGINT: every scope /" scopes_all_root
	check "scoped SIGINT: no st_bench_* cgroup left" no_bench_cgroup
	check "scoped SIGINT: no workload process left" no_workload_left
	grep -E 'interrupted|restor' /tmp/smoke7.log | sed 's/^/#   /'
	st_cleanup
}

t_whole_run() {
	group "bench: whole run"
	ST_DMARK=$ST_BOOTMARK
	check_no_splat "bench smoke: no splat in dmesg"
}

bench_net
dmesg_mark
ST_BOOTMARK=$ST_DMARK
diag "smoke options: $ARGS"
units_run bench_loaded bench_sigint bench_unloaded bench_eevdf bench_scoped perf_events whole_run
bench_send /tmp/smoke1
