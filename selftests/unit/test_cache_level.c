// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the queued-wakeup cache level (module/policy.c):
 * st_level_shares() and st_wake_queue(), against the cases of issue 3
 * and, exhaustively, against stock ttwu_queue_cond().
 */
#include "ktap.h"
#include "../../module/policy.c"

#define AUTO_MAX 8

static bool queue(unsigned int level, const struct st_wake_pair *w)
{
	return st_wake_queue(st_level_shares(level, w, AUTO_MAX), w);
}

/* stock ttwu_queue_cond() after its CPU-active and affinity tests */
static bool stock(const struct st_wake_pair *w)
{
	if (!w->share_llc && !w->same_cpu)
		return true;
	if (w->same_cpu)
		return false;
	return w->target_idle;
}

static const char *const names[] = { "llc", "l2", "smt", "auto" };

int main(void)
{
	/* same LLC, other L2, target busy: the seed's case */
	struct st_wake_pair far = { .share_llc = true, .llc_size = 16 };
	struct st_wake_pair cluster = far, smt = far, self = far, other_llc = far;
	unsigned int lvl, bits, sizes[] = { 4, 8, 16 };
	int only_where_expected = 1, narrows = 1, llc_is_stock = 1, s;

	ktap_header(17);
	cluster.share_l2 = true;
	smt.share_l2 = smt.share_smt = true;
	self.same_cpu = self.share_l2 = self.share_smt = true;
	other_llc.share_llc = false;

	ktap_check(!queue(ST_LEVEL_LLC, &far), "llc, same LLC, busy target: direct (stock)");
	ktap_check(queue(ST_LEVEL_L2, &far), "l2, other L2, busy target: queued (seed 002)");
	ktap_check(!queue(ST_LEVEL_L2, &cluster), "l2, same L2, busy target: direct");
	ktap_check(queue(ST_LEVEL_SMT, &cluster), "smt, same L2 but not SMT siblings: queued");
	ktap_check(!queue(ST_LEVEL_SMT, &smt), "smt, SMT siblings: direct");
	ktap_check(queue(ST_LEVEL_AUTO, &far), "auto, LLC 16 > max 8: queued like l2");
	far.llc_size = 8;
	ktap_check(!queue(ST_LEVEL_AUTO, &far), "auto, LLC 8 <= max 8: direct like llc");
	far.llc_size = 16;
	ktap_check(!queue(ST_LEVEL_AUTO, &cluster), "auto, LLC 16, same L2: direct");
	for (lvl = 0; lvl < ST_NR_LEVELS; lvl++)
		ktap_check(!queue(lvl, &self) && st_level_shares(lvl, &self, AUTO_MAX),
			   "%s: a CPU shares with itself, never queued to itself", names[lvl]);
	ktap_check(queue(ST_LEVEL_SMT, &other_llc) && queue(ST_LEVEL_LLC, &other_llc),
		   "other LLC: queued at every level, as stock");
	far.target_idle = cluster.target_idle = true;
	ktap_check(queue(ST_LEVEL_LLC, &cluster) && queue(ST_LEVEL_L2, &cluster),
		   "idle target: queued at every level (seed 004), as stock");

	/* every combination of inputs */
	for (bits = 0; bits < 32; bits++) {
		for (s = 0; s < 3; s++) {
			struct st_wake_pair w = {
				.same_cpu = bits & 1, .share_llc = bits & 2,
				.share_l2 = bits & 4, .share_smt = bits & 8,
				.target_idle = bits & 16, .llc_size = sizes[s],
			};

			llc_is_stock &= queue(ST_LEVEL_LLC, &w) == stock(&w);
			for (lvl = 0; lvl < ST_NR_LEVELS; lvl++) {
				bool q = queue(lvl, &w), st = stock(&w);

				narrows &= !st || q;
				only_where_expected &= q == st ||
					(w.share_llc && !w.same_cpu && !w.target_idle);
			}
		}
	}
	ktap_check(llc_is_stock, "exhaustive: llc decides exactly as stock");
	ktap_check(narrows, "exhaustive: no level turns a stock queued wakeup into a direct one");
	ktap_check(only_where_expected,
		   "exhaustive: levels differ from stock only inside the LLC, other CPU, busy target");
	return ktap_finish();
}
