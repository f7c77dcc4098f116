# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The ABI file, Documentation/ABI/testing/sysfs-kernel-sched_tune, held
# to the module's tables both ways (issue 30), sourced after lib.sh
# (st_result, st_lint_show):
#   st_abi_knobs            the knobs of module/knobs.h, a name a line
#   st_abi_counters         the counters of module/counters.h
#   st_abi_params FILE...   the module parameters that module_param*()
#                           declares in these files
#   st_abi_test_files       the C files only the selftests' build has
#                           (Kbuild's ST_TEST=1 objects)
#   st_abi_check [GROUP]    one st_result per check, under GROUP
#                           (default lint); what is wrong in comments
# The tables are read through the C preprocessor, as the compiler reads
# them.  Each knob is a module parameter too, but one without a file in
# /sys/module/sched_tune/parameters (main.c's ST_PARAM gives it
# permissions 0): the ABI file documents it with its knob, and a
# parameters/ entry for it would name a file that is not there.  The
# parameters of the selftests' build are not in the shipped module,
# and the ABI file does not name them.  The tree is ST_ABI_SRC, else
# ST_SRC or ST_ROOT.

ST_ABI_FILE=Documentation/ABI/testing/sysfs-kernel-sched_tune

st_abi_src() { echo "${ST_ABI_SRC:-${ST_SRC:-$ST_ROOT}}"; }

# st_abi_table HEADER DEFINES: the names of HEADER's entries, DEFINES
# defining its entry macros to "st_abi_name <name>".
st_abi_table() {
	printf '%s\n#include "%s"\n' "$2" "$1" |
		cpp -P -I "$(st_abi_src)/module" - |
		grep -oE 'st_abi_name [a-z0-9_]+' | sed 's/^st_abi_name //'
}

st_abi_knobs() {
	st_abi_table knobs.h '#define ST_KNOB(id, name, ...) st_abi_name name
#define ST_KNOB_CHOICE(id, name, ...) st_abi_name name'
}

st_abi_counters() {
	st_abi_table counters.h '#define ST_STAT(id, name) st_abi_name name'
}

st_abi_params() {
	(cd "$(st_abi_src)" && cat "$@") |
		sed -nE 's/.*\<module_param(_named|_cb|_string|_array|_array_named|_unsafe)?\([[:space:]]*([a-z][a-z0-9_]*).*/\2/p'
}

st_abi_test_files() {
	# shellcheck disable=SC2016 # make's $(ST_TEST), not the shell's
	sed -n '/^ifeq (\$(ST_TEST),1)/,/^endif/s|^sched_tune-y += \(.*\)\.o$|\1.c|p' \
		"$(st_abi_src)/Kbuild"
}

# st_abi_whats PREFIX: the What: entries of the ABI file right below
# PREFIX (a file name each: no deeper path, no directory).
st_abi_whats() {
	sed -nE "s|^What:[[:space:]]+$1([a-z0-9_]+)[[:space:]]*\$|\\1|p" \
		"$(st_abi_src)/$ST_ABI_FILE"
}

# st_abi_both GROUP WHAT PATH TABLE ABI: each name of TABLE (a WHAT) has
# a What: PATH<name> (ABI: the names the ABI file has there), and each
# of those is in TABLE; a result each, with what is missing.
st_abi_both() {
	local group=$1 what=$2 path=$3 table=$4 abi=$5 missing extra
	missing=$(comm -23 <(sort -u <<<"$table") <(sort -u <<<"$abi") | tr '\n' ' ')
	extra=$(comm -13 <(sort -u <<<"$table") <(sort -u <<<"$abi") | tr '\n' ' ')
	st_log "abi: each $what: $(paste -sd ' ' <<<"$table")"
	if [[ -z ${missing// /} ]]; then
		st_result pass "$group" "abi: each $what has its What: $path<name>"
	else
		st_result fail "$group" "abi: each $what has its What: $path<name>"
		st_lint_show "no What: for: $missing"
	fi
	if [[ -z ${extra// /} ]]; then
		st_result pass "$group" "abi: each What: $path<name> is a $what"
	else
		st_result fail "$group" "abi: each What: $path<name> is a $what"
		st_lint_show "not a $what: $extra"
	fi
}

st_abi_check() {
	local group=${1:-lint} src abi knobs counters shipped tests params f bad
	local desc="abi: $ST_ABI_FILE names no parameter of the selftests' build"
	src=$(st_abi_src)
	abi=$src/$ST_ABI_FILE
	if [[ ! -f $abi ]]; then
		st_result fail "$group" "abi: $ST_ABI_FILE exists"
		return
	fi
	if ! command -v cpp >/dev/null; then
		st_result fail "$group" "abi: module/knobs.h and module/counters.h read (no cpp)"
		return
	fi
	knobs=$(st_abi_knobs) counters=$(st_abi_counters)
	if [[ -z $knobs || -z $counters ]]; then
		st_result fail "$group" "abi: module/knobs.h and module/counters.h read (an empty table)"
		return
	fi
	st_abi_both "$group" "knob of module/knobs.h" /sys/kernel/sched_tune/ \
		"$knobs" "$(st_abi_whats /sys/kernel/sched_tune/)"
	st_abi_both "$group" "counter of module/counters.h" /sys/kernel/sched_tune/stats/ \
		"$counters" "$(st_abi_whats /sys/kernel/sched_tune/stats/ | grep -vx reset)"
	# the shipped module's parameters that have a file: all but the knobs'
	tests=$(st_abi_test_files)
	shipped=$(cd "$src" && find module -name '*.c' | sort | grep -vxF -f <(echo "$tests"))
	# shellcheck disable=SC2086 # file names, without blanks
	params=$(st_abi_params $shipped | grep -vxF -f <(echo "$knobs"))
	st_abi_both "$group" "module parameter other than a knob" \
		/sys/module/sched_tune/parameters/ \
		"$params" "$(st_abi_whats /sys/module/sched_tune/parameters/)"
	# shellcheck disable=SC2086 # file names, without blanks
	params=$(st_abi_params $tests | paste -sd ' ')
	st_log "abi: the selftests' build ($(paste -sd ' ' <<<"$tests")) adds the parameters: $params"
	bad=
	for f in $params; do
		if grep -qw -- "$f" "$abi"; then bad+=" $f"; fi
	done
	if [[ -z ${params// /} ]]; then
		st_result fail "$group" "$desc (none found in Kbuild's ST_TEST objects)"
	elif [[ -n $bad ]]; then
		st_result fail "$group" "$desc"
		st_lint_show "named:$bad"
	else
		st_result pass "$group" "$desc"
	fi
}
