#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# shellcheck disable=SC2016 # the pages' backticks are Markdown, not commands
# selftests/fidelity.sh on the tree's own fidelity pages, then on a
# crafted tree: a good one passes whole, and each broken page, cell or
# missing page fails exactly where it should.  KTAP on stdout, as
# support_test.sh prints it.
set -uo pipefail
# shellcheck source=selftests/lib.sh source-path=SCRIPTDIR/..
. "$(dirname "$0")/lib.sh"
# shellcheck source=selftests/fidelity.sh
. "$(dirname "$0")/fidelity.sh"
# shellcheck source=selftests/host_tap.sh
. "$(dirname "$0")/host_tap.sh"

# --- the tree's own pages: each result of the check is one here -------------
ST_PASS=0 ST_FAIL=0 ST_SKIP=0 ST_NUM=0
real=$( (ST_PASS=0 ST_FAIL=0 ST_NUM=0 ST_FLAT=1; st_fidelity_check fidelity) 2>&1)
nreal=0
while IFS= read -r line; do
	case $line in
	'ok '*) nreal=$((nreal + 1)); ok "${line#ok * - \[fidelity\] }" ;;
	'not ok '*) nreal=$((nreal + 1)); not_ok "${line#not ok * - \[fidelity\] }" ;;
	'#'*) echo "$line" ;;
	esac
done <<<"$real"
((nreal > 0)) || not_ok "the tree's fidelity pages were checked (no result)"

# --- a crafted tree ------------------------------------------------------------
t=$tmp/tree
mkdir -p "$t/module" "$t/selftests/unit" "$t/docs/features"
cat >"$t/module/a.c" <<'EOF'
struct st_feature st_alpha_feature = {
	.name = "alpha",
	.probe = st_alpha_probe,
};

struct st_feature st_beta_feature = {
	.takes_over = "f:ftrace-wrap",
	.name = "beta",
};
EOF
cat >"$t/selftests/x.sh" <<'EOF'
check "alpha: the first check" true
check_eq "beta: a check ($n of $m)" "$n" "$m"
EOF
printf '%s\n' 'ktap_check(ok, "alpha: 50%% of the unit");' >"$t/selftests/unit/test_a.c"
# page NAME: a good page for NAME, in the shape the issue asks for
page() {
	cat <<EOF
# $1: what it reproduces

Patch: "a patch", Someone, 2023-01-01, https://lore.kernel.org/x/
Knobs:

- \`$1_knob\`: 1 reproduces the patch.

## Fidelity

| # | the patch | sched_tune | where | test |
|---|---|---|---|---|
| 1 | \`if (a) return b;\` | the same | \`module/a.c\` \`st_f()\` | \`selftests/x.sh\`: "alpha: the first check" |
| 2 | \`c = d;\` | the same | \`module/a.c\` \`st_g()\` | \`selftests/unit/test_a.c\`: "alpha: 50%% of the unit"; \`selftests/x.sh\`: "beta: a check (" |

## Differences

| # | difference | forced by | test |
|---|---|---|---|
| 1 | a copy | inlined | \`selftests/x.sh\`: "check_eq" |
EOF
}
page alpha >"$t/docs/features/alpha.md"
page beta >"$t/docs/features/beta.md"
good=$tmp/good
cp -a "$t" "$good"
chk() { ST_FIDELITY_SRC=$t st_fidelity_check fid; }

expect "a good tree: 2 features with a page, 2 pages of a feature, 2 pages whole" "6 0" chk
if grep -q '^ok .*alpha.md: both tables (2 and 1 rows), each of 3 test cells' "$tmp/out"; then
	ok "the good page's rows and cells are counted"
else
	not_ok "the good page's rows and cells are counted"; sed 's/^/# /' "$tmp/out"
fi
cp "$t/module/a.c" "$t/module/b.c"
expect "two definitions of one feature (#ifdef twins) count once" "6 0" chk
rm "$t/module/b.c"

# crafted SED WHAT: alpha.md edited by SED, checked; its tables fail
crafted() {
	rm -rf "$t" && cp -a "$good" "$t"
	sed -i "$1" "$t/docs/features/alpha.md"
	expect "$2" "5 1" chk
	if ! grep -q '^not ok .*alpha.md: both tables' "$tmp/out"; then
		not_ok "$2: the failure is alpha.md's tables"
		sed 's/^/# /' "$tmp/out"
	fi
}
crafted 's/"alpha: the first check"/"alpha: no such check"/' "a string the file does not hold"
crafted 's/"alpha: the first check"/"Alpha: the first check"/' "the string in another case"
crafted 's|`selftests/x.sh`: "alpha: the first|`selftests/y.sh`: "alpha: the first|' "a file that does not exist"
crafted 's|`selftests/x.sh`: "alpha: the first|`../tree/selftests/x.sh`: "alpha: the first|' "a path out of the tree"
crafted "s|\`selftests/x.sh\`: \"alpha: the first|\`$t/selftests/x.sh\`: \"alpha: the first|" "an absolute path"
crafted 's|`selftests/x.sh`: "alpha: the first check"|`selftests/x.sh`: alpha: the first check|' "a string without quotes"
crafted 's|`selftests/x.sh`: "alpha: the first check"|selftests/x.sh: "alpha: the first check"|' "a path without backticks"
crafted 's|`selftests/x.sh`: "alpha: the first check"|none, a claim without a test|' "prose for a test"
crafted 's|`selftests/x.sh`: "alpha: the first check" |  |' "an empty test cell"
crafted 's|`selftests/x.sh`: "alpha: the first check"|untested: |' "untested with no reason"
crafted 's|`selftests/x.sh`: "beta: a check ("|`selftests/x.sh`: "no such"|' "a second string of a cell missing"
crafted 's|"; `selftests/x.sh`: "beta|", `selftests/x.sh`: "beta|' "two tests joined by a comma"
crafted 's/^| 1 | `if (a) return b;` | the same |/| 1 | `if (a) return b;` |/' "a Fidelity row with a cell missing"
crafted 's/`if (a) return b;`/`if (a || b) return c;`/' "a pipe inside a cell (an extra cell)"
crafted 's/^| 1 | a copy | inlined |/| 1 | a copy |/' "a Differences row with a cell missing"
crafted '/^## Differences/d' "no Differences section"
crafted 's/^## Differences/## Differences from the patch/' "the Differences heading renamed"
crafted 's/^| # | difference | forced by | test |/| # | difference | test |/' "the Differences header without 'forced by'"
crafted '/^## Fidelity/,/^## Differences/{/^## Differences/!d}' "no Fidelity section"
crafted '/^| [12] | `/d' "a Fidelity table without rows"
crafted '/^|---|---|---|---|---|$/d' "the Fidelity table without its |---| line"

# a row no test can show, said so: the page passes, the row is a skip
rm -rf "$t" && cp -a "$good" "$t"
sed -i 's|`selftests/x.sh`: "check_eq"|untested: no guest has such a CPU|' "$t/docs/features/alpha.md"
expect "an untested row that says why" "6 0" chk
if grep -q '^ok .*alpha.md, Differences row 1 # SKIP untested: no guest has such a CPU' "$tmp/out"; then
	ok "the untested row is a skip that says why"
else
	not_ok "the untested row is a skip that says why"; sed 's/^/# /' "$tmp/out"
fi

# pages and features
rm -rf "$t" && cp -a "$good" "$t"
rm "$t/docs/features/beta.md"
expect "a feature without a page (beta)" "3 1" chk
grep -q '^not ok .*feature beta has its fidelity page' "$tmp/out" || not_ok "the missing page is beta's"
rm -rf "$t" && cp -a "$good" "$t"
cp "$t/docs/features/alpha.md" "$t/docs/features/gamma.md"
expect "a page of no feature (gamma)" "7 1" chk
grep -q '^not ok .*gamma.md names a feature of the module' "$tmp/out" || not_ok "the stray page is gamma's"
rm -rf "$t" && cp -a "$good" "$t"
rm "$t/module/a.c"
expect "a module without features (none found)" "0 1" chk
rm -rf "$t" && cp -a "$good" "$t"
rm -r "$t/docs"
expect "no docs/features at all: both features miss their page" "0 2" chk

echo "1..$n"
((failed == 0))
