# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The fidelity pages (docs/features/<feature>.md, issue 27) held to their
# shape and to the tests they name, sourced after lib.sh (st_result):
#   st_fidelity_features          the module's features, one per line
#   st_fidelity_check [GROUP]     one st_result per feature (it has a
#                                 page) and per page (a known feature;
#                                 both tables; every test cell names a
#                                 file that holds its string verbatim)
# A test cell is one or more `path`: "string" joined by "; ", path from
# the tree's root, or "untested: WHY" for a row no test here can show
# (counted as a skip that says why).  The tree is ST_FIDELITY_SRC, else ST_SRC or ST_ROOT
# (the tests point it at a crafted one).

st_fidelity_src() { echo "${ST_FIDELITY_SRC:-${ST_SRC:-$ST_ROOT}}"; }

# The .name of every struct st_feature the module defines.
st_fidelity_features() {
	awk '/^struct st_feature st_[a-z0-9_]*_feature = \{/ { in_f = 1; next }
		in_f && /\.name = "/ { sub(/.*\.name = "/, ""); sub(/".*/, ""); print; in_f = 0 }
		in_f && /^\};/ { in_f = 0 }' "$(st_fidelity_src)"/module/*.c 2>/dev/null | sort -u
}

# st_fidelity_cells LINE: a table row's cells, one per line, trimmed.
st_fidelity_cells() {
	local row=${1#|} c
	row=${row%|}
	while IFS= read -r c; do
		c=${c#"${c%%[! ]*}"}
		echo "${c%"${c##*[! ]}"}"
	done < <(tr '|' '\n' <<<"$row")
}

# st_fidelity_test_cell CELL: 0 if CELL is `path`: "string"[; ...] and
# each path, inside the tree, is a file holding its string; else 1, with
# why on stdout.
st_fidelity_test_cell() {
	local cell=$1 src path str bad=0
	# shellcheck disable=SC2016 # Markdown's backticks, not a command
	local re='^`([^`]+)`: "([^"]+)"(; (.*))?$'
	src=$(st_fidelity_src)
	if [[ -z $cell ]]; then
		echo "an empty test cell"
		return 1
	fi
	if [[ $cell =~ ^untested:\ (.*[a-z].*)$ ]]; then
		echo "${BASH_REMATCH[1]}"
		return 2
	fi
	while [[ -n $cell ]]; do
		if ! [[ $cell =~ $re ]]; then
			echo "not \`path\`: \"string\": $cell"
			return 1
		fi
		path=${BASH_REMATCH[1]} str=${BASH_REMATCH[2]} cell=${BASH_REMATCH[4]}
		if [[ $path == /* || /$path/ == */../* ]]; then
			echo "$path: outside the tree"
			bad=1
		elif [[ ! -f $src/$path ]]; then
			echo "$path: no such file"
			bad=1
		elif ! grep -qF -- "$str" "$src/$path"; then
			echo "$path: no \"$str\""
			bad=1
		fi
	done
	return $bad
}

# st_fidelity_table PAGE HEADING HEADER MINROWS: checks the table under
# "## HEADING" of PAGE; adds why it fails to ST_FID_WHY, one line each;
# sets ST_FID_ROWS (rows) and ST_FID_CELLS (test cells checked); adds
# each untested row, with why, to ST_FID_UNTESTED.
ST_FID_WHY=()
ST_FID_UNTESTED=()
st_fidelity_table() {
	local page=$1 heading=$2 header=$3 min=$4 line state=before ncols n why l
	local -a cells
	ST_FID_ROWS=0 ST_FID_CELLS=0
	ncols=$(st_fidelity_cells "$header" | wc -l)
	while IFS= read -r line; do
		case $state in
		before)
			[[ $line == "## $heading" ]] && state=header ;;
		header)
			[[ -z $line ]] && continue
			if [[ $line != "$header" ]]; then
				ST_FID_WHY+=("## $heading: the table's header is not '$header'")
				return
			fi
			state=rule ;;
		rule)
			if ! [[ $line =~ ^\|(-+\|)+$ ]]; then
				ST_FID_WHY+=("## $heading: no |---| line under the header")
				return
			fi
			state=rows ;;
		rows)
			[[ $line == '|'* ]] || break
			ST_FID_ROWS=$((ST_FID_ROWS + 1))
			mapfile -t cells < <(st_fidelity_cells "$line")
			if ((${#cells[@]} != ncols)); then
				ST_FID_WHY+=("## $heading, row ${cells[0]}: ${#cells[@]} cells, not $ncols")
				continue
			fi
			n=$((ncols - 1))
			ST_FID_CELLS=$((ST_FID_CELLS + 1))
			why=$(st_fidelity_test_cell "${cells[n]}")
			case $? in
			0) ;;
			2) ST_FID_UNTESTED+=("$heading row ${cells[0]}|$why") ;;
			*)
				while IFS= read -r l; do
					ST_FID_WHY+=("## $heading, row ${cells[0]}: $l")
				done <<<"$why" ;;
			esac ;;
		esac
	done <"$page"
	case $state in
	before) ST_FID_WHY+=("no '## $heading' section") ;;
	header | rule) ST_FID_WHY+=("## $heading: no table") ;;
	esac
	if [[ $state == rows ]] && ((ST_FID_ROWS < min)); then
		ST_FID_WHY+=("## $heading: $ST_FID_ROWS rows, at least $min wanted")
	fi
}

st_fidelity_check() {
	local group=${1:-fidelity} src docs f page name rows cells
	local -A known=()
	src=$(st_fidelity_src)
	docs=$src/docs/features
	while IFS= read -r f; do
		[[ -n $f ]] || continue
		known[$f]=1
		if [[ -f $docs/$f.md ]]; then
			st_result pass "$group" "feature $f has its fidelity page docs/features/$f.md"
		else
			st_result fail "$group" "feature $f has its fidelity page docs/features/$f.md"
		fi
	done < <(st_fidelity_features)
	if ((${#known[@]} == 0)); then
		st_result fail "$group" "the module's features (struct st_feature .name in $src/module/*.c)"
		return
	fi
	for page in "$docs"/*.md; do
		[[ -f $page ]] || continue
		name=$(basename "$page" .md)
		if [[ -n ${known[$name]:-} ]]; then
			st_result pass "$group" "docs/features/$name.md names a feature of the module"
		else
			st_result fail "$group" "docs/features/$name.md names a feature of the module"
			echo "#   $name is none of: ${!known[*]}"
		fi
		ST_FID_WHY=() ST_FID_UNTESTED=()
		st_fidelity_table "$page" Fidelity '| # | the patch | sched_tune | where | test |' 1
		rows=$ST_FID_ROWS cells=$ST_FID_CELLS
		st_fidelity_table "$page" Differences '| # | difference | forced by | test |' 0
		rows="$rows and $ST_FID_ROWS" cells=$((cells + ST_FID_CELLS))
		if ((${#ST_FID_WHY[@]} == 0)); then
			st_result pass "$group" "docs/features/$name.md: both tables ($rows rows), each of $cells test cells names a file holding its string"
		else
			st_result fail "$group" "docs/features/$name.md: both tables, each test cell names a file holding its string"
			printf '#   %s\n' "${ST_FID_WHY[@]}"
		fi
		for f in "${ST_FID_UNTESTED[@]}"; do
			st_result skip "$group" "docs/features/$name.md, ${f%%|*}" "untested: ${f#*|}"
		done
	done
}
