// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the NUMA scan threshold's decision (module/policy.c): the
 * threshold by VMA size, the epochs of numa_scan_renew, and the per-VMA
 * count that st_numa_allow() keeps.
 */
#include "../../module/policy.c"
#include "ktap.h"

#define MB (1ULL << 20)

/*
 * Unaccessed tests of one VMA over @seqs scan sequences, @tests per
 * sequence, with the module's epoch rule: how many the threshold allowed.
 */
static unsigned int allowed_over(u64 vma_bytes, unsigned int percent,
				 unsigned int renew, int seqs, int tests)
{
	struct st_numa_count c = { 0 };
	u64 threshold = st_numa_threshold(vma_bytes, 256, percent);
	unsigned int allowed = 0;
	bool by;
	int seq, i;

	for (seq = 0; seq < seqs; seq++)
		for (i = 0; i < tests; i++)
			allowed += st_numa_allow(&c, 42, st_numa_epoch(seq, renew),
						 false, threshold, &by);
	return allowed;
}

int main(void)
{
	struct st_numa_count c = { 0 };
	bool by;
	int i;

	ktap_header(23);

	/* threshold: 1 + (vma_MB / scan_size_MB) * percent / 100 */
	ktap_check(st_numa_threshold(100 * MB, 256, 50) == 1,
		   "threshold: 100 MB VMA, 256 MB scans, 50%% -> 1");
	ktap_check(st_numa_threshold(512 * MB, 256, 50) == 2,
		   "threshold: 512 MB VMA, 50%% -> 2 (the patch's 1 + scans / 2)");
	ktap_check(st_numa_threshold(2560 * MB, 256, 100) == 11,
		   "threshold: 2560 MB VMA, 100%% -> 11");
	ktap_check(st_numa_threshold(2560 * MB, 256, 0) == 1,
		   "threshold: 0%% -> 1 (the module never asks: 0 is stock)");
	ktap_check(st_numa_threshold(2560 * MB, 0, 50) == 1,
		   "threshold: scan size 0 -> 1, no division by zero");
	ktap_check(st_numa_threshold(1ULL << 62, 1, 100) == 1 + (1ULL << 42),
		   "threshold: a huge VMA does not overflow");

	/* epochs of numa_scan_renew */
	ktap_check(st_numa_epoch(0, 16) == 0 && st_numa_epoch(15, 16) == 0 &&
		   st_numa_epoch(16, 16) == 1, "epoch: renew 16 groups sequences 0-15, 16-31");
	ktap_check(st_numa_epoch(123456, 0) == 0, "epoch: renew 0 never renews");
	ktap_check(st_numa_epoch(7, 1) == 7, "epoch: renew 1 renews every sequence");

	/* the count */
	ktap_check(st_numa_allow(&c, 1, 0, true, 1, &by) && !by && c.scans == 1,
		   "allow: a stock-accessed VMA is scanned and counted, not by the threshold");
	ktap_check(st_numa_allow(&c, 1, 0, false, 1, &by) && by && c.scans == 2,
		   "allow: unaccessed, count 1 <= threshold 1: scanned by the threshold");
	ktap_check(!st_numa_allow(&c, 1, 0, false, 1, &by) && !by && c.scans == 2,
		   "allow: unaccessed, count 2 > threshold 1: refused, count kept");
	ktap_check(st_numa_allow(&c, 1, 0, true, 1, &by) && !by && c.scans == 3,
		   "allow: the stock verdict still wins past the threshold");
	ktap_check(st_numa_allow(&c, 1, 1, false, 1, &by) && by && c.scans == 1,
		   "allow: a new epoch starts the count again");
	for (i = 0; i < 3; i++)
		st_numa_allow(&c, 1, 1, false, 1, &by);
	ktap_check(st_numa_allow(&c, 2, 1, false, 1, &by) && by && c.owner == 2 &&
		   c.scans == 1, "allow: another VMA in the slot starts its own count");
	c = (struct st_numa_count){ 0 };
	ktap_check(st_numa_allow(&c, 3, 0, false, 0, &by) &&
		   !st_numa_allow(&c, 3, 0, false, 0, &by),
		   "allow: threshold 0 allows the first unaccessed scan only");

	/* threshold by VMA size, over many sequences */
	ktap_check(allowed_over(100 * MB, 50, 0, 100, 3) == 2,
		   "size: 100 MB VMA, renew 0: 2 unaccessed scans in all (counts 0 and 1)");
	ktap_check(allowed_over(2560 * MB, 50, 0, 100, 3) == 7,
		   "size: 2560 MB VMA, renew 0: 7 unaccessed scans in all (threshold 6)");
	ktap_check(allowed_over(2560 * MB, 100, 0, 100, 3) == 12,
		   "size: 2560 MB VMA at 100%%: 12 in all (threshold 11)");

	/* renew */
	ktap_check(allowed_over(100 * MB, 50, 16, 64, 3) == 4 * 2,
		   "renew 16: 64 sequences are 4 epochs of 2 scans");
	ktap_check(allowed_over(100 * MB, 50, 1, 64, 3) == 64 * 2,
		   "renew 1: 2 scans in every sequence");
	ktap_check(allowed_over(100 * MB, 50, 0, 64, 3) == 2,
		   "renew 0: 2 scans, then never again");
	ktap_check(allowed_over(100 * MB, 50, 1, 64, 1) == 64,
		   "renew 1, one test per sequence: every one allowed");

	return ktap_finish();
}
