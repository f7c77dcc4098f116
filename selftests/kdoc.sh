# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# The module's kerneldoc (Documentation/doc-guide/kernel-doc.rst), held
# to the kernel's own checker, sourced after lib.sh (st_result,
# st_lint_show):
#   st_kdoc_script          scripts/kernel-doc of Debian's linux-source-6.12,
#                           fetched and cached with checkpatch.pl
#                           (st_fetch_checkpatch), or nothing
#   st_kdoc_files           the module's C and H files
#   st_kdoc_functions       "<file>:<line> <name> <0|1>" for each non-static
#                           function defined in module/**/*.c: 1 when a
#                           /** comment ends right above its definition
#   st_kdoc_check [GROUP]   one st_result per file, kernel-doc -none -Wall -v on
#                           it clean, and one for the functions above
#                           (under GROUP, default lint); what is wrong in
#                           comments
# A function other files call is documented where it is defined, as the
# kernel does; -v makes kernel-doc ask every non-void one for "Return:".
# The tree is ST_KDOC_SRC, else ST_SRC or ST_ROOT; kernel-doc is
# ST_KERNEL_DOC (one version for every run, as for checkpatch.pl).

st_kdoc_src() { echo "${ST_KDOC_SRC:-${ST_SRC:-$ST_ROOT}}"; }

st_kdoc_script() {
	st_fetch_checkpatch >/dev/null 2>&1
	[[ -s $ST_KERNEL_DOC ]] && echo "$ST_KERNEL_DOC"
}

st_kdoc_files() {
	(cd "$(st_kdoc_src)" && find module -type f -name '*.[ch]' | sort)
}

# Kernel style puts a definition's "{" alone on a line at column 0: from
# there, back over the indented parameter lines to the line at column 0
# that names the function, and over the return type's lines above it.
st_kdoc_functions() {
	# shellcheck disable=SC2016 # awk's $0, not the shell's
	(cd "$(st_kdoc_src)" && find module -type f -name '*.c' | sort |
		xargs -r awk '
		FNR == 1 { split("", L) }
		{ L[FNR] = $0 }
		/^\{[ \t]*$/ { check(FILENAME, FNR) }
		function check(file, n,   i, start, decl, rest, name, doc) {
			for (i = n - 1; i > 0 && L[i] ~ /^[ \t]/; i--)
				;
			for (start = i; start > 1 && L[start - 1] ~ /^[A-Za-z_]/ &&
			     L[start - 1] !~ /[;{}\\][ \t]*$/; start--)
				;
			decl = ""
			for (i = start; i < n; i++)
				decl = decl " " L[i]
			if (decl !~ /\(/ || decl ~ /=[ \t]*$/ ||
			    decl ~ /^ (static|typedef|extern)[ \t]/)
				return
			name = ""
			rest = decl
			while (match(rest, /[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/)) {
				name = substr(rest, RSTART, RLENGTH)
				sub(/[ \t]*\($/, "", name)
				if (name !~ /^__(attribute__|printf|aligned|section)$/)
					break
				rest = substr(rest, RSTART + RLENGTH)
				name = ""
			}
			if (name == "")
				return
			doc = 0
			i = start - 1
			if (i > 0 && L[i] ~ /\*\/[ \t]*$/) {
				while (i > 1 && L[i] !~ /^[ \t]*\/\*/)
					i--
				doc = L[i] ~ /^\/\*\*[ \t]*$/
			}
			print file ":" start " " name " " doc
		}')
}

st_kdoc_check() {
	local group=${1:-lint} src script f out rc warn fns missing
	local desc="kdoc: each non-static function of module/ has a /** comment at its definition"
	src=$(st_kdoc_src)
	script=$(st_kdoc_script)
	if [[ -z $script ]]; then
		st_result fail "$group" "kdoc: kernel-doc found (not in $ST_CHECKPATCH_DIR: linux-source-6.12 could not be fetched)"
	else
		st_log "kdoc: $script"
		while IFS= read -r f; do
			if [[ -x $script ]]; then
				out=$(cd "$src" && "$script" -none -Wall -v "$f" 2>&1)
			else
				out=$(cd "$src" && perl "$script" -none -Wall -v "$f" 2>&1)
			fi
			rc=$?
			warn=$(grep warning <<<"$out")
			if ((rc == 0)) && [[ -z $warn ]]; then
				st_result pass "$group" "kdoc: kernel-doc -none -Wall -v $f"
			else
				st_result fail "$group" "kdoc: kernel-doc -none -Wall -v $f"
				st_lint_show "${warn:-$out}"
			fi
		done < <(st_kdoc_files)
	fi
	fns=$(st_kdoc_functions)
	missing=$(awk '$3 == 0 { print $1 " " $2 }' <<<"$fns")
	if [[ -z $fns ]]; then
		st_result fail "$group" "$desc (none found)"
	elif [[ -n $missing ]]; then
		st_result fail "$group" "$desc"
		st_lint_show "no /** comment right above the definition of:"$'\n'"$missing"
	else
		st_result pass "$group" "$desc ($(grep -c . <<<"$fns") functions)"
	fi
}
