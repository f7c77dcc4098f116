// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the queued-wakeup cache level (module/policy/cache_level.c):
 * st_level_shares() and st_wake_queue(), against the cases the cache level
 * was specified with and, exhaustively, against stock ttwu_queue_cond(); then
 * st_wake_pair_classify() on the topologies the guests boot and a few
 * they cannot, every pair at every level against a written-out table.
 * Level "none" is checked against ttwu_queue_cond() as "sched: Add
 * ttwu_queue_controls" leaves it, with TTWU_QUEUE_DEFAULT on and off.
 */
#include <string.h>

#include "ktap.h"
#include "policy/cache_level.c"

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

/*
 * ttwu_queue_cond() of the TTWU_QUEUE_DEFAULT patch after its CPU-active
 * and affinity tests: @def is sched_feat(TTWU_QUEUE_DEFAULT), the answer
 * for a busy target that shares the LLC.
 */
static bool patched(const struct st_wake_pair *w, bool def)
{
	if (!w->share_llc && !w->same_cpu)
		return true;
	if (w->same_cpu)
		return false;
	if (w->target_idle)
		return true;
	return def;
}

static const char *const names[] = { "llc", "l2", "smt", "auto", "none" };

/*
 * A machine as the kernel sees it: per CPU its sd_llc_id, its L2
 * (cluster) group and its core (SMT group).  The masks are what the
 * kernel builds from those groups.
 */
struct topo {
	const char *name;
	int nr;
	int llc[8], l2[8], core[8];
	unsigned int llc_size;
	int no_l2_mask;		/* this CPU's L2 mask is not allocated, or -1 */
};

/*
 * Which wakeups to a busy target are queued (1) at @level with
 * cache_share_auto_llc_max @auto_max: one row per waking CPU, one column
 * per target, rows separated by '/'.
 */
struct expect {
	int topo;
	unsigned int level;
	u64 auto_max;
	bool idle;
	const char *queued;
};

static const struct topo topos[] = {
	/* qemu -smp 4,sockets=1,cores=2,threads=2: L2 per core, one L3 */
	{ "1 socket, 2 cores x 2 threads", 4, { 0, 0, 0, 0 },
	  { 0, 0, 1, 1 }, { 0, 0, 1, 1 }, 4, -1 },
	/* the default guest: 4 cores, no SMT, L2 per core */
	{ "1 socket, 4 cores", 4, { 0, 0, 0, 0 }, { 0, 1, 2, 3 },
	  { 0, 1, 2, 3 }, 4, -1 },
	/* two L2 clusters of 2 cores x 2 threads (hybrid E-core style) */
	{ "2 clusters x 2 cores x 2 threads", 8, { 0, 0, 0, 0, 0, 0, 0, 0 },
	  { 0, 0, 0, 0, 1, 1, 1, 1 }, { 0, 0, 1, 1, 2, 2, 3, 3 }, 8, -1 },
	/* the NUMA guest: -smp 4,sockets=2, one LLC per socket */
	{ "2 sockets x 2 cores", 4, { 0, 0, 2, 2 }, { 0, 1, 2, 3 },
	  { 0, 1, 2, 3 }, 2, -1 },
	/* isolcpus/cpuset partition splits SMT siblings into two LLC domains */
	{ "SMT siblings in two sched domains", 2, { 0, 1 }, { 0, 0 },
	  { 0, 0 }, 1, -1 },
	/* CPU 1's L2 mask unallocated (never onlined in the kernel's eyes) */
	{ "unallocated L2 mask", 2, { 0, 0 }, { 0, 0 }, { 0, 1 }, 2, 1 },
};

static const struct expect expects[] = {
	{ 0, ST_LEVEL_LLC, 8, false, "0000/0000/0000/0000" },
	{ 0, ST_LEVEL_L2, 8, false, "0011/0011/1100/1100" },
	{ 0, ST_LEVEL_SMT, 8, false, "0011/0011/1100/1100" },
	{ 0, ST_LEVEL_AUTO, 8, false, "0000/0000/0000/0000" },
	{ 0, ST_LEVEL_AUTO, 2, false, "0011/0011/1100/1100" },
	{ 0, ST_LEVEL_L2, 8, true, "0111/1011/1101/1110" },
	{ 0, ST_LEVEL_NONE, 8, false, "0111/1011/1101/1110" },
	{ 0, ST_LEVEL_NONE, 8, true, "0111/1011/1101/1110" },
	{ 1, ST_LEVEL_LLC, 8, false, "0000/0000/0000/0000" },
	{ 1, ST_LEVEL_L2, 8, false, "0111/1011/1101/1110" },
	{ 1, ST_LEVEL_SMT, 8, false, "0111/1011/1101/1110" },
	{ 2, ST_LEVEL_LLC, 8, false,
	  "00000000/00000000/00000000/00000000/00000000/00000000/00000000/00000000" },
	{ 2, ST_LEVEL_L2, 8, false,
	  "00001111/00001111/00001111/00001111/11110000/11110000/11110000/11110000" },
	{ 2, ST_LEVEL_SMT, 8, false,
	  "00111111/00111111/11001111/11001111/11110011/11110011/11111100/11111100" },
	{ 2, ST_LEVEL_AUTO, 8, false,
	  "00000000/00000000/00000000/00000000/00000000/00000000/00000000/00000000" },
	{ 2, ST_LEVEL_AUTO, 4, false,
	  "00001111/00001111/00001111/00001111/11110000/11110000/11110000/11110000" },
	{ 2, ST_LEVEL_NONE, 8, false,
	  "01111111/10111111/11011111/11101111/11110111/11111011/11111101/11111110" },
	{ 3, ST_LEVEL_LLC, 8, false, "0011/0011/1100/1100" },
	{ 3, ST_LEVEL_L2, 8, false, "0111/1011/1101/1110" },
	{ 3, ST_LEVEL_SMT, 8, false, "0111/1011/1101/1110" },
	{ 3, ST_LEVEL_NONE, 8, false, "0111/1011/1101/1110" },
	{ 4, ST_LEVEL_LLC, 8, false, "01/10" },
	{ 4, ST_LEVEL_SMT, 8, false, "01/10" },
	{ 5, ST_LEVEL_L2, 8, false, "00/10" },
	{ 5, ST_LEVEL_LLC, 8, false, "00/00" },
	{ 5, ST_LEVEL_NONE, 8, false, "01/10" },
};

#define NR_EXPECTS ((int)ARRAY_SIZE(expects))

static void classify(const struct topo *t, int this_cpu, int cpu, bool idle,
		     struct st_wake_pair *w)
{
	bool in_l2 = t->l2[this_cpu] == t->l2[cpu] &&
		     this_cpu != t->no_l2_mask;

	memset(w, 0xff, sizeof(*w));	/* every field must be set */
	st_wake_pair_classify(w, this_cpu, cpu, t->llc[this_cpu], t->llc[cpu],
			      in_l2, t->core[this_cpu] == t->core[cpu]);
	w->llc_size = t->llc_size;
	w->target_idle = idle;
}

static void test_topologies(void)
{
	struct st_wake_pair w;
	int i, a, b;

	classify(&topos[4], 1, 1, false, &w);
	ktap_check(w.same_cpu && w.share_llc && w.share_l2 && w.share_smt,
		   "classify: a CPU shares every level with itself");
	classify(&topos[3], 0, 2, false, &w);
	ktap_check(!w.same_cpu && !w.share_llc && !w.share_l2 && !w.share_smt,
		   "classify: other socket shares nothing");
	for (i = 0; i < NR_EXPECTS; i++) {
		const struct expect *e = &expects[i];
		const struct topo *t = &topos[e->topo];
		char got[80], *p = got;

		for (a = 0; a < t->nr; a++) {
			if (a)
				*p++ = '/';
			for (b = 0; b < t->nr; b++) {
				classify(t, a, b, e->idle, &w);
				*p++ = st_wake_queue(st_level_shares(e->level, &w,
								     e->auto_max),
						     &w) ? '1' : '0';
			}
		}
		*p = '\0';
		ktap_check(!strcmp(got, e->queued),
			   "%s, %s (auto max %llu), %s target: queued %s",
			   t->name, names[e->level],
			   (unsigned long long)e->auto_max,
			   e->idle ? "idle" : "busy", got);
		if (strcmp(got, e->queued))
			ktap_diag("want %s", e->queued);
	}
}

int main(void)
{
	/* same LLC, other L2, target busy: the seed's case */
	struct st_wake_pair far = { .share_llc = true, .llc_size = 16 };
	struct st_wake_pair cluster = far, smt = far, self = far, other_llc = far;
	unsigned int lvl, bits, sizes[] = { 4, 8, 16 };
	int only_where_expected = 1, narrows = 1, llc_is_stock = 1, s;
	int none_is_default = 1, llc_is_no_default = 1;

	ktap_header(17 + 3 + 5 + NR_EXPECTS);
	cluster.share_l2 = true;
	smt.share_l2 = true;
	smt.share_smt = true;
	self.same_cpu = true;
	self.share_l2 = true;
	self.share_smt = true;
	other_llc.share_llc = false;

	ktap_check(!queue(ST_LEVEL_LLC, &far), "llc, same LLC, busy target: direct (stock)");
	ktap_check(queue(ST_LEVEL_L2, &far), "l2, other L2, busy target: queued (the L2 patch)");
	ktap_check(!queue(ST_LEVEL_L2, &cluster), "l2, same L2, busy target: direct");
	ktap_check(queue(ST_LEVEL_SMT, &cluster), "smt, same L2 but not SMT siblings: queued");
	ktap_check(!queue(ST_LEVEL_SMT, &smt), "smt, SMT siblings: direct");
	ktap_check(queue(ST_LEVEL_NONE, &far),
		   "none, other L2, busy target: queued (TTWU_QUEUE_DEFAULT)");
	ktap_check(queue(ST_LEVEL_NONE, &cluster), "none, same L2, busy target: queued");
	ktap_check(queue(ST_LEVEL_NONE, &smt), "none, SMT siblings, busy target: queued");
	ktap_check(queue(ST_LEVEL_AUTO, &far), "auto, LLC 16 > max 8: queued like l2");
	far.llc_size = 8;
	ktap_check(!queue(ST_LEVEL_AUTO, &far), "auto, LLC 8 <= max 8: direct like llc");
	far.llc_size = 16;
	ktap_check(!queue(ST_LEVEL_AUTO, &cluster), "auto, LLC 16, same L2: direct");
	for (lvl = 0; lvl < ST_NR_LEVELS; lvl++)
		ktap_check(!queue(lvl, &self) && st_level_shares(lvl, &self, AUTO_MAX),
			   "%s: a CPU shares with itself, never queued to itself", names[lvl]);
	ktap_check(queue(ST_LEVEL_SMT, &other_llc) && queue(ST_LEVEL_LLC, &other_llc) &&
		   queue(ST_LEVEL_NONE, &other_llc),
		   "other LLC: queued at every level, as stock");
	far.target_idle = true;
	cluster.target_idle = true;
	ktap_check(queue(ST_LEVEL_LLC, &cluster) && queue(ST_LEVEL_L2, &cluster) &&
		   queue(ST_LEVEL_NONE, &cluster),
		   "idle target: queued at every level (the wakee-offload patch), as stock");

	/* every combination of inputs */
	for (bits = 0; bits < 32; bits++) {
		for (s = 0; s < 3; s++) {
			struct st_wake_pair w = {
				.same_cpu = bits & 1, .share_llc = bits & 2,
				.share_l2 = bits & 4, .share_smt = bits & 8,
				.target_idle = bits & 16, .llc_size = sizes[s],
			};

			llc_is_stock &= queue(ST_LEVEL_LLC, &w) == stock(&w);
			llc_is_no_default &= queue(ST_LEVEL_LLC, &w) == patched(&w, false);
			none_is_default &= queue(ST_LEVEL_NONE, &w) == patched(&w, true) &&
					   queue(ST_LEVEL_NONE, &w) == !w.same_cpu;
			for (lvl = 0; lvl < ST_NR_LEVELS; lvl++) {
				bool q = queue(lvl, &w), st = stock(&w);

				narrows &= !st || q;
				only_where_expected &= q == st ||
					(w.share_llc && !w.same_cpu && !w.target_idle);
			}
		}
	}
	ktap_check(llc_is_stock, "exhaustive: llc decides exactly as stock");
	ktap_check(llc_is_no_default,
		   "exhaustive: llc decides as the patched ttwu_queue_cond() with TTWU_QUEUE_DEFAULT off");
	ktap_check(none_is_default,
		   "exhaustive: none decides as TTWU_QUEUE_DEFAULT on: every other CPU queued, the same CPU never");
	ktap_check(narrows, "exhaustive: no level turns a stock queued wakeup into a direct one");
	ktap_check(only_where_expected,
		   "exhaustive: levels differ from stock only inside the LLC, other CPU, busy target");
	test_topologies();
	return ktap_finish();
}
