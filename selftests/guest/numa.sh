# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash # busybox ash: dash is the nearest shell shellcheck checks
# Guest runner of the NUMA boot (st_mode=numa): a guest with two NUMA
# nodes, where NUMA balancing turns itself on, for the numa_scan tests.
# shellcheck source=selftests/guest/lib.sh
. /st/lib.sh
# shellcheck source=selftests/guest/numa_scan.sh
. /st/numa_scan.sh

ktap_start
diag "vCPUs: $(nproc); NUMA nodes: $(ns_nodes); node0 CPUs $(cat /sys/devices/system/node/node0/cpulist 2>/dev/null), node1 CPUs $(cat /sys/devices/system/node/node1/cpulist 2>/dev/null)"
dmesg_mark
ST_BOOTMARK=$ST_DMARK
check "2 NUMA nodes in the guest" test "$(ns_nodes)" -ge 2
if st_load; then
	feat_detect
	st_unload
	t_numa_scan
else
	ktap_fail "insmod sched_tune.ko"
fi
st_cleanup
ST_DMARK=$ST_BOOTMARK
check_no_splat "numa boot: no splat in dmesg since the first test"
ktap_end
