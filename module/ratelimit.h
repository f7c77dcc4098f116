/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rate limit (ratelimit.c) as select_rq.c's hooks call it: its
 * wakeup path is inline there, as a call it would cost about 20
 * instructions a wakeup (docs/hook-cost.md).
 */
#ifndef SCHED_TUNE_RATELIMIT_H
#define SCHED_TUNE_RATELIMIT_H

#include <linux/hash.h>
#include <linux/jiffies.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>

#include "sched_tune.h"
#include "sched_tune_trace.h"
#include "policy/wake.h"
#include "kernel/ksym.h"

#define ST_RL_TABLE_BITS 15

/* set by ratelimit.c's probe, read here; struct st_rl_slot: policy/ratelimit.h */
extern struct st_rl_slot *st_rl_table;
extern const struct static_key *st_sched_energy_present;
extern int __percpu *st_sd_llc_size;

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

/* The owner and the tat come from one stamp (st_rl_slot_tat()). */
static inline u64 st_rl_tat(struct task_struct *p)
{
	return st_rl_slot_tat(st_rl_slot(p), st_rl_owner(p));
}

/*
 * want_affine as select_task_rq_fair() computes it, on the wakee flips
 * that its record_wakee() is about to leave; @now is the jiffies value
 * the whole decision uses.
 */
static inline bool st_want_affine(struct task_struct *p, int cpu, unsigned long now)
{
	struct st_wakee_flips w = {
		.flips = current->wakee_flips,
		.decay = time_after(now, current->wakee_flip_decay_ts + HZ),
		.new_wakee = current->last_wakee != p,
	};
	unsigned int waker = st_flips_after_record(&w);

	return cpumask_test_cpu(cpu, p->cpus_ptr) &&
	       !st_wake_wide(waker, p == current ? waker : p->wakee_flips,
			     *this_cpu_ptr(st_sd_llc_size));
}

/*
 * record_wakee() of kernel/sched/fair.c, which the stock code does before
 * the patch's early return and the wrapper's return skips: the flips as
 * st_want_affine() counted them.
 */
static inline void st_record_wakee(struct task_struct *p, unsigned long now)
{
	struct st_wakee_flips w = {
		.flips = current->wakee_flips,
		.decay = time_after(now, current->wakee_flip_decay_ts + HZ),
		.new_wakee = current->last_wakee != p,
	};

	current->wakee_flips = st_flips_after_record(&w);
	if (w.decay)
		current->wakee_flip_decay_ts = now;
	current->last_wakee = p;
}

/**
 * st_rl_keeps_prev() - The patch's test, for a task that may be limited.
 * @cfg: the configuration the wakeup read
 * @p: the waking task, which st_rl_may_be_limited()
 * @prev_cpu: its previous CPU
 * @now: jiffies, as the whole decision reads it
 *
 * The patch's early return: limited while prev_cpu's clock is before the
 * stamp, and want_affine.  Inline in select_rq.c's st_rl_select(), out
 * of line there: it reads a clock.  A wakeup either test leaves to stock
 * is counted by the test's name.
 *
 * Context: Under @p->pi_lock (select_task_rq_fair()'s).
 * Return: true if @p stays on @prev_cpu: record_wakee() is then done, as
 * before the patch's return; false where stock decides, and under
 * passthrough.
 */
static __always_inline bool st_rl_keeps_prev(const struct st_config *cfg,
					     struct task_struct *p,
					     int prev_cpu, unsigned long now)
{
	if (!st_rl_limited(&cfg->rl, st_rl_tat(p), sched_clock_cpu(prev_cpu))) {
		st_stat_inc(ST_STAT_RL_WINDOW_OVER);
		return false;
	}
	if (!st_want_affine(p, smp_processor_id(), now)) {
		st_stat_inc(ST_STAT_RL_NOT_AFFINE);
		return false;
	}
	if (st_passthrough(cfg))
		return false;
	st_record_wakee(p, now);
	st_stat_inc(ST_STAT_RL_KEPT_PREV_CPU);
	trace_sched_tune_ratelimit_keep(p, prev_cpu, -1, prev_cpu);
	return true;
}

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
