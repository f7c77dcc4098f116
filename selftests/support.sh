# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The support matrix as data (selftests/support-matrix), sourced by run.sh
# after lib.sh (st_result):
#   st_support_expect KVER FEATURE BOOT       the state FEATURE must report
#   st_support_assert LABEL KVER BOOT TAPLOG  one st_result per feature: what
#                                             the guest reported against it
#   st_support_row_check LABEL KVER           a kernel built, not booted: it
#                                             has a row, in line with the gate
#   st_support_data_check [GROUP]             every row against gate_checked.h
#   st_support_doc_check DOC [GROUP]         docs/kernels.md's support matrix
# BOOT is main, short or ops (one NUMA node) or numa (two nodes).  Paths
# follow ST_SRC; ST_SUPPORT_FILE and ST_SUPPORT_GATE override them (tests).

ST_SUPPORT_FEATURES=(ratelimit cache_level numa_scan eevdf)

st_support_file() { echo "${ST_SUPPORT_FILE:-${ST_SRC:-$ST_ROOT}/selftests/support-matrix}"; }
st_support_gate() { echo "${ST_SUPPORT_GATE:-${ST_SRC:-$ST_ROOT}/module/kernel/gate_checked.h}"; }

# st_support_in_range FEATURE VERSION: whether gate_checked.h has a range
# of FEATURE holding VERSION (e.g. 6.12.117); 2 when it has no range at all.
st_support_in_range() {
	local f s first last ser=${2%.*} sub=${2##*.} any=
	while read -r f s first last; do
		any=1
		[[ $f == "$1" && $s == "$ser" ]] && ((first <= sub && sub <= last)) && return 0
	done < <(sed -n 's/^ST_GATE_RANGE(\([a-z_]*\), *\([0-9]*\), *\([0-9]*\), *\([0-9]*\), *\([0-9]*\))$/\1 \2.\3 \4 \5/p' \
		"$(st_support_gate)" 2>/dev/null)
	[[ -n $any ]] || return 2
	return 1
}

# st_support_lookup KVER: KVER's row, checked; sets ST_SUPPORT_STATE
# (feature -> state, as in the file) and ST_SUPPORT_KEY (the row's kernel),
# or returns 1 with ST_SUPPORT_ERR saying why.
declare -gA ST_SUPPORT_STATE=()
ST_SUPPORT_KEY='' ST_SUPPORT_ERR=''
st_support_lookup() {
	local file key v rows=0 head='' f s i rc twin='' nf=${#ST_SUPPORT_FEATURES[@]}
	local -a row=() w=()
	file=$(st_support_file)
	# a cloud kernel is its generic twin built with fewer drivers
	key=${1/%-cloud-amd64/-amd64}
	ST_SUPPORT_STATE=() ST_SUPPORT_KEY=$key ST_SUPPORT_ERR=
	if [[ ! -r $file ]]; then
		ST_SUPPORT_ERR="no $file"
		return 1
	fi
	while read -r -a w; do
		[[ ${#w[@]} == 0 || ${w[0]} == '#'* ]] && continue
		if [[ -z $head ]]; then
			head=${w[*]}
			continue
		fi
		if [[ ${w[0]} == "$key" ]]; then
			rows=$((rows + 1)) row=("${w[@]:1}")
		fi
	done <"$file"
	if [[ $head != "kernel ${ST_SUPPORT_FEATURES[*]} version" ]]; then
		ST_SUPPORT_ERR="$file: header '$head', not 'kernel ${ST_SUPPORT_FEATURES[*]} version'"
		return 1
	fi
	if ((rows == 0)); then
		[[ $key == "$1" ]] || twin=" (nor $key, its generic twin)"
		ST_SUPPORT_ERR="kernel $1 has no row$twin in selftests/support-matrix: nobody looked at it yet (compare the copied code as gate_checked.h says, then add its row)"
		return 1
	elif ((rows > 1)); then
		ST_SUPPORT_ERR="kernel $key has $rows rows in selftests/support-matrix"
		return 1
	fi
	v=${row[nf]:-}
	if ((${#row[@]} != nf + 1)) || [[ ! $v =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
		ST_SUPPORT_ERR="row $key: not $nf states and a version x.y.z"
		return 1
	fi
	# 6.12.95+deb12-amd64 names its sublevel; 6.1.0-57-amd64 its series only
	if [[ $key =~ ^([0-9]+\.[0-9]+)\.([0-9]+)\+ && $v != "${BASH_REMATCH[1]}.${BASH_REMATCH[2]}" ]] ||
		[[ $key =~ ^([0-9]+\.[0-9]+)\. && ${v%.*} != "${BASH_REMATCH[1]}" ]]; then
		ST_SUPPORT_ERR="row $key: version $v is not the kernel's"
		return 1
	fi
	for ((i = 0; i < nf; i++)); do
		f=${ST_SUPPORT_FEATURES[i]} s=${row[i]}
		case $s in
		active | idle | inactive | unsupported) ;;
		*)
			ST_SUPPORT_ERR="row $key: $f '$s' is not a state (active, idle, inactive, unsupported)"
			return 1 ;;
		esac
		st_support_in_range "$f" "$v"
		rc=$?
		if ((rc == 2)); then
			ST_SUPPORT_ERR="no ST_GATE_RANGE line in $(st_support_gate)"
			return 1
		fi
		# the gate refuses a sublevel outside the checked range
		if ((rc == 0)) && [[ $s == unsupported ]]; then
			ST_SUPPORT_ERR="row $key: $f unsupported, but gate_checked.h checked $f on $v"
			return 1
		elif ((rc == 1)) && [[ $s != unsupported ]]; then
			ST_SUPPORT_ERR="row $key: $f $s, but $v is outside every range gate_checked.h checked for $f"
			return 1
		fi
		ST_SUPPORT_STATE[$f]=$s
	done
	return 0
}

# st_support_boot_state FEATURE BOOT: the looked-up state as BOOT sees it.
# One node leaves NUMA balancing off by default: numa_scan idles there.
st_support_boot_state() {
	local s=${ST_SUPPORT_STATE[$1]}
	if [[ $1 == numa_scan && $2 != numa && $s == active ]]; then s=idle; fi
	echo "$s"
}

# st_support_expect KVER FEATURE BOOT: the state FEATURE must report when
# loaded with its defaults in that boot of KVER; 1 and why on stderr
# for a kernel without a row, or a row out of line with the gate.
st_support_expect() {
	if [[ " ${ST_SUPPORT_FEATURES[*]} " != *" $2 "* ]]; then
		echo "st_support_expect: unknown feature '$2'" >&2
		return 1
	fi
	case $3 in
	main | numa | short | ops) ;;
	*) echo "st_support_expect: unknown boot '$3' (main, numa, short, ops)" >&2; return 1 ;;
	esac
	if ! st_support_lookup "$1"; then
		echo "$ST_SUPPORT_ERR" >&2
		return 1
	fi
	st_support_boot_state "$2" "$3"
}

# st_support_reported TAPLOG FEATURE: the whole state the guest's
# feat_probe line gave FEATURE ("features on this kernel: ratelimit
# active, cache_level active (unchecked), ..."; st_guest_feature keeps the
# first word only); 1 when the log has no such line.
st_support_reported() {
	local line item
	# grep reads the file itself: under pipefail, a tr cut off by
	# grep -m1 (SIGPIPE, on a long log) would fail the line it found
	line=$(grep -a -m1 'features on this kernel:' "$1" 2>/dev/null) || return 1
	line=${line%$'\r'}
	line=${line#*features on this kernel: }
	while [[ -n $line ]]; do
		item=${line%%, *}
		if [[ $item == "$line" ]]; then line=''; else line=${line#*, }; fi
		if [[ ${item%% *} == "$2" ]]; then
			item=${item#"$2"}
			item=${item# }
			echo "${item%"${item##*[! ]}"}"
			return 0
		fi
	done
	echo ''
}

# st_support_assert LABEL KVER BOOT TAPLOG: one st_result under LABEL per
# feature, the state the guest reported at its first load with defaults
# against the matrix.
st_support_assert() {
	local label=$1 kver=$2 boot=$3 log=$4 f want got
	local what="selftests/support-matrix, $boot boot"
	if ! st_support_lookup "$kver"; then
		for f in "${ST_SUPPORT_FEATURES[@]}"; do
			st_result fail "$label" "support matrix: $f on $kver: $ST_SUPPORT_ERR"
		done
		return
	fi
	for f in "${ST_SUPPORT_FEATURES[@]}"; do
		want=$(st_support_boot_state "$f" "$boot")
		if ! got=$(st_support_reported "$log" "$f"); then
			st_result fail "$label" "support matrix: $f $want on $kver ($what): the guest printed no 'features on this kernel' line"
		elif [[ $got == "$want" ]]; then
			st_result pass "$label" "support matrix: $f $want on $kver ($what)"
		else
			st_result fail "$label" "support matrix: $f $want on $kver ($what): the guest reported '$got'"
		fi
	done
}

# st_support_row_check LABEL KVER: a kernel built and not booted has a row.
st_support_row_check() {
	local desc="support matrix: $2 has a row in selftests/support-matrix, in line with gate_checked.h"
	if st_support_lookup "$2"; then
		st_result pass "$1" "$desc"
	else
		st_result fail "$1" "$desc: $ST_SUPPORT_ERR"
	fi
}

# st_support_kernels: the file's kernels, one a line.
st_support_kernels() {
	awk '!/^[[:space:]]*(#|$)/ && !h++ { next } !/^[[:space:]]*(#|$)/ { print $1 }' "$(st_support_file)" 2>/dev/null
}

# st_support_data_check [GROUP]: one st_result per row of the file: well
# formed, alone, and unsupported exactly outside gate_checked.h's ranges.
st_support_data_check() {
	local group=${1:-host} k n=0
	while read -r k; do
		n=$((n + 1))
		if st_support_lookup "$k"; then
			st_result pass "$group" "selftests/support-matrix: $k agrees with gate_checked.h ($(st_support_states))"
		else
			st_result fail "$group" "selftests/support-matrix: $k agrees with gate_checked.h: $ST_SUPPORT_ERR"
		fi
	done < <(st_support_kernels)
	if ((n == 0)); then
		st_result fail "$group" "selftests/support-matrix has kernel rows ($(st_support_file))"
	fi
}

# the looked-up row as "ratelimit active, cache_level ..."
st_support_states() {
	local f out=''
	for f in "${ST_SUPPORT_FEATURES[@]}"; do out+="${out:+, }$f ${ST_SUPPORT_STATE[$f]}"; done
	echo "$out"
}

# st_support_doc_check DOC [GROUP]: the table under "## Support matrix"
# in DOC (docs/kernels.md; columns kernel, ..., ratelimit, cache_level,
# numa_scan, eevdf; a kernel cell may name several kernels,
# comma-separated): one st_result per row, each state cell's first word
# that of every kernel it names; then one that every kernel of the file
# has a row.
st_support_doc_check() {
	local doc=$1 group=${2:-host} line sect='' hdr='' i k kcell cell want bad rows=0
	local name=${1#"${ST_SRC:-$ST_ROOT}/"}
	local -a cells=() kvers=()
	local -A col=() seen=()
	while IFS= read -r line; do
		if [[ $line == '## '* ]]; then
			sect=${line#'## '}
			continue
		fi
		[[ $sect == 'Support matrix' ]] || continue
		if [[ $line != '|'* ]]; then
			# the table ends at its first non-table line
			[[ -n $hdr ]] && break
			continue
		fi
		IFS='|' read -r -a cells <<<"${line#|}"
		for i in "${!cells[@]}"; do
			cell=${cells[i]//\`/}
			cell=${cell#"${cell%%[! ]*}"}
			cells[i]=${cell%"${cell##*[! ]}"}
		done
		if [[ -z $hdr ]]; then
			hdr=$line
			for i in "${!cells[@]}"; do col[${cells[i]}]=$i; done
			for k in kernel "${ST_SUPPORT_FEATURES[@]}"; do
				if [[ -z ${col[$k]+x} ]]; then
					st_result fail "$group" "$name: the support matrix has a '$k' column ($hdr)"
					return
				fi
			done
			continue
		fi
		[[ $line =~ ^[-:|\ ]+$ ]] && continue
		rows=$((rows + 1)) bad=''
		kcell=${cells[col[kernel]]:-}
		IFS=',' read -r -a kvers <<<"${kcell// /}"
		((${#kvers[@]})) || bad="; a row naming no kernel"
		for k in "${kvers[@]}"; do
			if ! st_support_lookup "$k"; then
				bad+="; $ST_SUPPORT_ERR"
				continue
			fi
			seen[$ST_SUPPORT_KEY]=1
			for i in "${ST_SUPPORT_FEATURES[@]}"; do
				cell=${cells[col[$i]]:-}
				want=${ST_SUPPORT_STATE[$i]}
				[[ ${cell%% *} == "$want" ]] || bad+="; $k: $i '${cell%% *}', the file says $want"
			done
		done
		if [[ -z $bad ]]; then
			st_result pass "$group" "$name support matrix: $kcell agrees with selftests/support-matrix"
		else
			st_result fail "$group" "$name support matrix: $kcell agrees with selftests/support-matrix (${bad#; })"
		fi
	done <"$doc"
	if [[ -z $hdr ]] || ((rows == 0)); then
		st_result fail "$group" "$name: a table under '## Support matrix' with kernel rows"
		return
	fi
	bad=''
	while read -r k; do
		[[ -n ${seen[$k]:-} ]] || bad+=" $k"
	done < <(st_support_kernels)
	if [[ -z $bad ]]; then
		st_result pass "$group" "$name support matrix has every kernel of selftests/support-matrix"
	else
		st_result fail "$group" "$name support matrix has every kernel of selftests/support-matrix (missing:$bad)"
	fi
}
