# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# Guest side of make bench-vm (st_mode=bench, busybox ash): the whole bench
# with the options of /st/bench.args, then its result directory, tar.gz and
# base64, between two marker lines on this script's stdout (the TAP serial
# port), for selftests/bench_vm.sh to take back.
# shellcheck source=/dev/null
. /st/lib.sh
# shellcheck source=/dev/null
. /st/benchlib.sh

bench_net
diag "bench on $(uname -r), $(nproc) vCPUs; options: $(cat /st/bench.args)"
# shellcheck disable=SC2046 # the options are words
"$BENCH" run --ko "$KO" -o /tmp/out $(cat /st/bench.args)
diag "bench exited $?"
bench_send /tmp/out
