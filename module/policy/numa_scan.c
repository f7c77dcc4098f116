// SPDX-License-Identifier: GPL-2.0
/*
 * The NUMA scan threshold's decisions (policy/numa_scan.h).
 * Pure policy: no kernel state is touched, so the same file is compiled
 * into the module and into the userspace unit tests (selftests/unit).
 */
#include <linux/kernel.h>
#include <linux/math64.h>

#include "policy/numa_scan.h"

/**
 * st_numa_threshold() - The NUMA scans an unaccessed VMA may have.
 * @vma_bytes: the VMA's size
 * @scan_size_mb: the size of one scan, in MB
 * @percent: the share of the scans needed to cover the VMA once
 *
 * The disjoint-VMA patch (numa_scan.c): a task may scan a VMA it never
 * faulted in while the VMA's scan count stays at or under this many
 * scans.  A @percent of 50 is the patch's 1 + (vma_MB / scan_size_MB) / 2.
 *
 * Return: 1 + @percent of the scans needed to cover the VMA once.
 */
u64 st_numa_threshold(u64 vma_bytes, unsigned int scan_size_mb,
		      unsigned int percent)
{
	u64 scans = scan_size_mb ? (vma_bytes >> 20) / scan_size_mb : 0;

	return 1 + scans * percent / 100;
}

/**
 * st_numa_renewing() - Whether a scan sequence renews every VMA's count.
 * @scan_seq: the mm's numa_scan_seq
 * @renew: the patch's 16 (DISJOINT_VMA_SCAN_RENEW_THRESH); 0 never renews
 *
 * Return: the patch's "mm->numa_scan_seq && !(mm->numa_scan_seq % 16)",
 * with @renew for its 16.
 */
bool st_numa_renewing(int scan_seq, unsigned int renew)
{
	return renew && scan_seq && !((unsigned int)scan_seq % renew);
}

/**
 * st_numa_count_init() - The count of a VMA whose NUMA state is new.
 * @c: the count
 * @owner: names the VMA
 *
 * The NUMA state was just allocated: no scan yet.
 */
void st_numa_count_init(struct st_numa_count *c, u64 owner)
{
	c->owner = owner;
	c->scans = 0;
}

/* The count as the patch reads it at a test: its own, renewed or new. */
static void st_numa_count_at_test(struct st_numa_count *c, u64 owner,
				  bool renewing)
{
	if (c->owner != owner || renewing)
		st_numa_count_init(c, owner);
}

/**
 * st_numa_allow() - The access test of one VMA in task_numa_work().
 * @c: the VMA's count
 * @owner: names the VMA; a new owner starts the count again
 * @renewing: a renewing sequence: the count is 0 at every test, as the
 *            patch resets it before each
 * @stock: the kernel's verdict
 * @threshold: the count up to which an unaccessed VMA is still scanned
 * @by_threshold: set to whether only the threshold allowed the scan
 *
 * Every scan allowed, by either rule, counts.
 *
 * Return: whether to scan the VMA.
 */
bool st_numa_allow(struct st_numa_count *c, u64 owner, bool renewing,
		   bool stock, u64 threshold, bool *by_threshold)
{
	bool allow = stock;

	st_numa_count_at_test(c, owner, renewing);
	*by_threshold = !stock && c->scans <= threshold;
	if (*by_threshold)
		allow = true;
	if (allow)
		c->scans++;
	return allow;
}

/**
 * st_numa_count_scan() - Count a scan that no access test judged.
 * @c: the VMA's count
 * @owner: names the VMA; a new owner starts the count again
 * @renewing: a renewing sequence, as for st_numa_allow()
 *
 * task_numa_work()'s forced scan of a VMA when every other was skipped:
 * counted, as the patch counts every scan.
 */
void st_numa_count_scan(struct st_numa_count *c, u64 owner, bool renewing)
{
	st_numa_count_at_test(c, owner, renewing);
	c->scans++;
}
