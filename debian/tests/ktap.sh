# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# KTAP for the package's tests (sourced): the results wait in a file so
# that the plan comes first; kt_end prints the document and fails if a
# result failed.  Figures go in diagnostics, never in a result's name.
KT_BUF=$(mktemp)
KT_N=0
KT_FAILED=0

# kt_check DESC CMD...: one result from CMD's status.
kt_check() {
	kt_desc=$1
	shift
	KT_N=$((KT_N + 1))
	if "$@"; then
		echo "ok $KT_N - $kt_desc" >>"$KT_BUF"
		return 0
	fi
	KT_FAILED=$((KT_FAILED + 1))
	echo "not ok $KT_N - $kt_desc" >>"$KT_BUF"
	return 1
}

# kt_skip DESC WHY: a result that could not be checked here.
kt_skip() {
	KT_N=$((KT_N + 1))
	echo "ok $KT_N - $1 # SKIP $2" >>"$KT_BUF"
}

# kt_diag TEXT: a diagnostic line for each line of TEXT.
kt_diag() { printf '%s\n' "$*" | sed 's/^/# /' >>"$KT_BUF"; }

# has TEXT PATTERN: TEXT has a line matching the basic regex PATTERN.
has() { printf '%s\n' "$1" | grep -q -- "$2"; }

# not_installed PACKAGE: dpkg does not have PACKAGE installed.
not_installed() {
	case $(dpkg-query -W -f='${db:Status-Abbrev}' "$1" 2>/dev/null) in
	?i*) return 1 ;;
	esac
	return 0
}

kt_end() {
	echo "KTAP version 1"
	echo "1..$KT_N"
	cat "$KT_BUF"
	rm -f "$KT_BUF"
	[ "$KT_FAILED" = 0 ]
}
