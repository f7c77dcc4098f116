#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make lint: shellcheck on every shell script, checkpatch --strict on every
# module C/H file (checkpatch.pl from Debian's linux-source-6.12, fetched
# and cached on first use).  KTAP on stdout, one result per file; the last
# line is "N passed, N failed"; exit 1 if any failed.
set -uo pipefail
# shellcheck source=selftests/lib.sh
. "$(dirname "$0")/lib.sh"

st_lint
st_summary
((ST_FAIL == 0))
