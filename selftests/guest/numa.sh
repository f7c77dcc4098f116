# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=dash
# Guest runner of the NUMA boot (st_mode=numa): a guest with two NUMA
# nodes, where NUMA balancing turns itself on, for the numa_scan tests.
# shellcheck source=selftests/guest/lib.sh
. /st/lib.sh
# shellcheck source=selftests/guest/numa_scan.sh
. /st/numa_scan.sh

t_numa_nodes() {
	group "numa boot"
	check "2 NUMA nodes in the guest" test "$(ns_nodes)" -ge 2
}
t_whole_run() {
	group "whole run"
	ST_DMARK=$ST_BOOTMARK
	check_no_splat "numa boot: no splat in dmesg since the first test"
}

diag "vCPUs: $(nproc); NUMA nodes: $(ns_nodes); node0 CPUs $(cat /sys/devices/system/node/node0/cpulist 2>/dev/null), node1 CPUs $(cat /sys/devices/system/node/node1/cpulist 2>/dev/null)"
dmesg_mark
ST_BOOTMARK=$ST_DMARK
feat_probe
units_run numa_nodes numa_scan numa_renew numa_cpuset whole_run
