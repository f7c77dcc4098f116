/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Stock's wake_wide() and wake_affine(), which the rate limit and the
 * placement features redo on what they read of a wakeup.
 * Pure policy: no kernel state is touched, so the same file is compiled
 * into the module and into the userspace unit tests (selftests/unit).
 */
#ifndef SCHED_TUNE_POLICY_WAKE_H
#define SCHED_TUNE_POLICY_WAKE_H

#include <linux/types.h>

/*
 * The stock wake_wide() heuristic applied to the waker's flip count as
 * record_wakee() is about to leave it.
 */
struct st_wakee_flips {
	unsigned int flips;
	bool decay;		/* a second has passed since the last decay */
	bool new_wakee;		/* the waker wakes a different task than last */
};

/**
 * st_flips_after_record() - The waker's flips as record_wakee() leaves them.
 * @w: the flips and what record_wakee() finds
 *
 * Inline: a pointer to a local would give the wrapper a stack canary.
 *
 * Return: the flips halved on a decay, then one more for a new wakee.
 */
static inline unsigned int st_flips_after_record(const struct st_wakee_flips *w)
{
	unsigned int flips = w->flips;

	if (w->decay)
		flips >>= 1;
	if (w->new_wakee)
		flips++;
	return flips;
}

bool st_wake_wide(unsigned int waker_flips, unsigned int wakee_flips,
		  int llc_size);

/*
 * wake_affine() of kernel/sched/fair.c (prev_bias and sync_short need the
 * target it leaves): wake_affine_idle() on the facts of the waker's CPU
 * (this) and the wakee's previous one.  @this_nr is this CPU's
 * nr_running less its delayed-dequeue tasks (6.12 on; 6.1 has none).
 */
enum st_affine {
	ST_AFFINE_NONE,		/* undecided: wake_affine_weight() decides */
	ST_AFFINE_THIS,
	ST_AFFINE_PREV,
};

struct st_affine_idle_in {
	bool this_idle;		/* available_idle_cpu(this_cpu) */
	bool prev_idle;		/* available_idle_cpu(prev_cpu) */
	bool share_cache;	/* cpus_share_cache(this_cpu, prev_cpu) */
	bool sync;
	unsigned int this_nr;
};

enum st_affine st_wake_affine_idle(const struct st_affine_idle_in *in);

/* wake_affine_weight(): cpu_load(), task_h_load(), capacity_of() */
struct st_affine_weight_in {
	u64 this_load, prev_load;
	u64 current_load, task_load;
	u64 this_cap, prev_cap;
	unsigned int imbalance_pct;	/* of the affine sched_domain */
	bool sync;
	bool bias;			/* sched_feat(WA_BIAS) */
};

bool st_wake_affine_weight(const struct st_affine_weight_in *in);

/**
 * st_target_from_llc() - The target wake_affine() left, told from S.
 * @cpu: the waker's CPU
 * @prev: the wakee's previous CPU
 * @cpu_llc: whether @cpu shares S's LLC
 * @prev_llc: whether @prev shares S's LLC
 *
 * The target T that select_task_rq_fair() passed select_idle_sibling(),
 * told from where stock's result S lies: T is @cpu or @prev, and S lies
 * in T's LLC.
 *
 * Return: T, or -1 when all three share one LLC and only wake_affine()
 * can tell (st_place_target()).
 */
static inline int st_target_from_llc(int cpu, int prev, bool cpu_llc,
				     bool prev_llc)
{
	if (cpu == prev || !cpu_llc)
		return prev;
	return prev_llc ? -1 : cpu;
}

#endif /* SCHED_TUNE_POLICY_WAKE_H */
