// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the NUMA scan threshold's decision
 * (module/policy/numa_scan.c): the threshold by VMA size, the renewing
 * sequences of numa_scan_renew, and the per-VMA count that st_numa_allow()
 * keeps, against the patch's vma_is_accessed() and scan_counter
 * (patch_allowed_over()).
 */
#include "policy/numa_scan.c"
#include "ktap.h"

#define MB BIT_ULL(20)

/*
 * Unaccessed tests of one VMA over @seqs scan sequences, @tests per
 * sequence, each allowed one a scan: how many the threshold allowed.
 */
static unsigned int allowed_over(u64 vma_bytes, unsigned int percent,
				 unsigned int renew, int seqs, int tests)
{
	struct st_numa_count c = { 0 };
	u64 threshold = st_numa_threshold(vma_bytes, 256, percent);
	unsigned int allowed = 0;
	bool by;
	int seq, i;

	st_numa_count_init(&c, 42);
	for (seq = 0; seq < seqs; seq++)
		for (i = 0; i < tests; i++)
			allowed += st_numa_allow(&c, 42, st_numa_renewing(seq, renew),
						 false, threshold, &by);
	return allowed;
}

/*
 * The same with the patch's own code, written out from its hunks: the
 * renewal before the test, vma_is_accessed()'s threshold, the count
 * after it (the task never faulted the VMA in).
 */
static unsigned int patch_allowed_over(u64 vma_bytes, int seqs, int tests)
{
	unsigned int scan_counter = 0, allowed = 0;
	unsigned int vma_size = vma_bytes >> 20, scan_size = 256;
	unsigned int scan_threshold;
	int numa_scan_seq, i;

	for (numa_scan_seq = 0; numa_scan_seq < seqs; numa_scan_seq++) {
		for (i = 0; i < tests; i++) {
			if (numa_scan_seq && !(numa_scan_seq % 16))
				scan_counter = 0;
			scan_threshold = vma_size / scan_size;
			scan_threshold = 1 + (scan_threshold >> 1);
			if (!(scan_counter <= scan_threshold))
				continue;
			scan_counter++;
			allowed++;
		}
	}
	return allowed;
}

int main(void)
{
	struct st_numa_count c = { 0 };
	bool by;
	int i;

	ktap_header(27);

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

	/* renewing sequences of numa_scan_renew */
	ktap_check(!st_numa_renewing(0, 16) && !st_numa_renewing(15, 16) &&
		   st_numa_renewing(16, 16) && !st_numa_renewing(17, 16) &&
		   st_numa_renewing(32, 16),
		   "renewing: renew 16 renews in sequences 16, 32, ..., never in 0 (the patch's numa_scan_seq && !(numa_scan_seq %% 16))");
	ktap_check(!st_numa_renewing(123456, 0) && !st_numa_renewing(0, 0),
		   "renewing: renew 0 never renews");
	ktap_check(st_numa_renewing(7, 1) && !st_numa_renewing(0, 1),
		   "renewing: renew 1 renews every sequence but 0");

	/* the count */
	st_numa_count_init(&c, 1);
	ktap_check(st_numa_allow(&c, 1, false, true, 1, &by) && !by && c.scans == 1,
		   "allow: a stock-accessed VMA is scanned and counted, not by the threshold");
	ktap_check(st_numa_allow(&c, 1, false, false, 1, &by) && by && c.scans == 2,
		   "allow: unaccessed, count 1 <= threshold 1: scanned by the threshold");
	ktap_check(!st_numa_allow(&c, 1, false, false, 1, &by) && !by && c.scans == 2,
		   "allow: unaccessed, count 2 > threshold 1: refused, count kept");
	ktap_check(st_numa_allow(&c, 1, false, true, 1, &by) && !by && c.scans == 3,
		   "allow: the stock verdict still wins past the threshold");
	ktap_check(st_numa_allow(&c, 1, true, false, 1, &by) && by && c.scans == 1,
		   "allow: a renewing sequence starts the count again at the test");
	for (i = 0; i < 3; i++)
		st_numa_allow(&c, 1, true, false, 1, &by);
	ktap_check(c.scans == 1, "allow: in a renewing sequence the count is 0 at every test");
	for (i = 0; i < 3; i++)
		st_numa_allow(&c, 1, false, false, 1, &by);
	ktap_check(st_numa_allow(&c, 2, false, false, 1, &by) && by && c.owner == 2 &&
		   c.scans == 1, "allow: another VMA in the slot starts its own count");
	c = (struct st_numa_count){ 0 };
	ktap_check(st_numa_allow(&c, 3, false, false, 0, &by) &&
		   !st_numa_allow(&c, 3, false, false, 0, &by),
		   "allow: threshold 0 allows the first unaccessed scan only");
	st_numa_count_scan(&c, 3, false);
	ktap_check(c.scans == 2 && !st_numa_allow(&c, 3, false, false, 1, &by),
		   "forced scan: counted as a scan (the patch counts every scan of the VMA)");
	st_numa_count_scan(&c, 3, true);
	ktap_check(c.scans == 1,
		   "forced scan: in a renewing sequence it is the first of the count");
	st_numa_count_init(&c, 3);
	ktap_check(c.owner == 3 && !c.scans && st_numa_allow(&c, 3, false, false, 0, &by) && by,
		   "new VMA state: its count starts at 0 though the slot was its own (the patch's scan_counter = 0)");

	/* threshold by VMA size, over many sequences */
	ktap_check(allowed_over(100 * MB, 50, 0, 100, 3) == 2,
		   "size: 100 MB VMA, renew 0: 2 unaccessed scans in all (counts 0 and 1)");
	ktap_check(allowed_over(2560 * MB, 50, 0, 100, 3) == 7,
		   "size: 2560 MB VMA, renew 0: 7 unaccessed scans in all (threshold 6)");
	ktap_check(allowed_over(2560 * MB, 100, 0, 100, 3) == 12,
		   "size: 2560 MB VMA at 100%%: 12 in all (threshold 11)");

	/* renew */
	ktap_check(allowed_over(100 * MB, 50, 16, 64, 3) == 2 + 3 * (3 + 1),
		   "renew 16: 2 scans in sequences 0-15, every test in 16, 32 and 48, then 1 more after each (their count ends at 1)");
	ktap_check(allowed_over(100 * MB, 50, 1, 64, 3) == 2 + 63 * 3,
		   "renew 1: every test of every sequence but 0 allowed");
	ktap_check(allowed_over(100 * MB, 50, 0, 64, 3) == 2,
		   "renew 0: 2 scans, then never again");
	for (i = 0; i < 6; i++) {
		static const u64 mb[] = { 1, 100, 512, 1000, 2560, 10000 };
		static const int tests[] = { 1, 3, 3, 5, 8, 20 };

		if (allowed_over(mb[i] * MB, 50, 16, 100, tests[i]) !=
		    patch_allowed_over(mb[i] * MB, 100, tests[i]))
			break;
	}
	ktap_check(i == 6,
		   "defaults (50%%, renew 16): as many scans as the patch's own code over 100 sequences, VMAs of 1 MB to 10 GB");

	return ktap_finish();
}
