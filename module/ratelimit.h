/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rate limit (ratelimit.c) as select_rq.c's hooks call it: the test
 * most wakeups end at is inline there, as a call it would cost about 20
 * instructions a wakeup (docs/hook-cost.md).
 */
#ifndef SCHED_TUNE_RATELIMIT_H
#define SCHED_TUNE_RATELIMIT_H

#include <linux/hash.h>
#include <linux/sched.h>

#include "sched_tune.h"
#include "kernel/ksym.h"

#define ST_RL_TABLE_BITS 15

/* set by ratelimit.c's probe, read here; struct st_rl_slot: policy.h */
extern struct st_rl_slot *st_rl_table;
extern const struct static_key *st_sched_energy_present;

static inline u64 st_rl_owner(struct task_struct *p)
{
	return ((u64)(unsigned long)p ^ p->start_time) | 1;
}

static inline struct st_rl_slot *st_rl_slot(struct task_struct *p)
{
	return &st_rl_table[hash_ptr(p, ST_RL_TABLE_BITS)];
}

/**
 * st_rl_may_be_limited() - Whether @p may be limited now.
 * @p: the waking task
 * @now: jiffies, as the whole decision reads it
 *
 * Its own stamp, not yet surely expired.  Most wakeups end here, without
 * reading a clock (sched_clock_cpu is most of what a check costs).
 *
 * Return: true if st_rl_keeps_prev() must judge the wakeup.
 */
static inline bool st_rl_may_be_limited(struct task_struct *p,
					unsigned long now)
{
	const struct st_rl_slot *slot = st_rl_slot(p);
	u32 seq;

	return st_rl_slot_live(slot, now, &seq) &&
	       st_rl_slot_live_owned(slot, st_rl_owner(p), seq);
}

/* Energy-aware placement settles wakeups before the patch's test. */
static inline bool st_rl_eas_enabled(void)
{
	return unlikely(st_key_on_found(st_sched_energy_present));
}

bool st_rl_keeps_prev(const struct st_config *cfg, struct task_struct *p,
		      int prev_cpu, unsigned long now);

/* The rate limit's own hook on migrate_task_rq_fair, and its original */
void st_migrate_task_rq_fair(struct task_struct *p, int new_cpu);
ST_KCALL_DECLARE(st_orig_migrate_task_rq_fair, st_migrate_task_rq_fair);

int st_rl_probe(struct st_feature *f);
void st_rl_release(void);
bool st_rl_wanted(const struct st_config *cfg);
void st_rl_forget(void);
void st_rl_reconfigure(const struct st_config *old,
		       const struct st_config *cfg);
const char *st_rl_status(bool *idle);

#endif /* SCHED_TUNE_RATELIMIT_H */
