/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The NUMA scan threshold (seed 003, numa_scan.c).
 * Pure policy: no kernel state is touched, so the same file is compiled
 * into the module and into the userspace unit tests (selftests/unit).
 */
#ifndef SCHED_TUNE_POLICY_NUMA_SCAN_H
#define SCHED_TUNE_POLICY_NUMA_SCAN_H

#include <linux/types.h>

/* NUMA scans of unaccessed VMAs (the disjoint-VMA patch, numa_scan.c) */
u64 st_numa_threshold(u64 vma_bytes, unsigned int scan_size_mb,
		      unsigned int percent);
bool st_numa_renewing(int scan_seq, unsigned int renew);

/*
 * A VMA's scan count, the patch's vma->numab_state->scan_counter: @owner
 * names the VMA, a new owner starts the count again.
 */
struct st_numa_count {
	u64 owner;
	unsigned int scans;
};

void st_numa_count_init(struct st_numa_count *c, u64 owner);
bool st_numa_allow(struct st_numa_count *c, u64 owner, bool renewing,
		   bool stock, u64 threshold, bool *by_threshold);
void st_numa_count_scan(struct st_numa_count *c, u64 owner, bool renewing);

#endif /* SCHED_TUNE_POLICY_NUMA_SCAN_H */
