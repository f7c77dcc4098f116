// SPDX-License-Identifier: GPL-2.0
/*
 * The migration rate limit's decisions (policy/ratelimit.h).
 * Pure policy: no kernel state is touched, so the same file is compiled
 * into the module and into the userspace unit tests (selftests/unit).
 */
#include <linux/kernel.h>
#include <linux/math64.h>

#include "policy/ratelimit.h"

/**
 * st_rl_params_init() - The rate limit's parameters for a window and burst.
 * @rp: the parameters: window, interval and tolerance are set
 * @window: the window, in ns
 * @burst: the migrations a task may make per @window; 0 counts as 1
 */
void st_rl_params_init(struct st_rl_params *rp, u64 window, u32 burst)
{
	rp->window = window;
	rp->interval = burst ? window / burst : window;
	rp->tolerance = window - rp->interval;
}

/**
 * st_rl_params_adaptive() - The adaptive quota's parameters.
 * @rp: the parameters: adaptive, quota and replenish are set
 * @adaptive: ratelimit_mode=adaptive: the quota instead of the burst
 * @quota: a task's quota per window, at most and at first; 0 counts as 1
 * @replenish: what a window not used up gives back
 */
void st_rl_params_adaptive(struct st_rl_params *rp, bool adaptive, u32 quota,
			   u32 replenish)
{
	rp->adaptive = adaptive;
	rp->quota = quota ? quota : 1;
	rp->replenish = replenish;
}

/**
 * st_rl_limited() - Whether a task's stamp limits it now.
 * @rp: the parameters
 * @tat: the task's tat; adaptive, the end of its window
 * @now: the clock the tat is in
 *
 * Fixed: whether a task of this tat is limited at @now.  Adaptive: the
 * same for a task that has used up its quota (st_rl_slot_may_limit()
 * checked that).  A window of 0 limits nothing.
 *
 * Return: true if the task is limited.
 */
bool st_rl_limited(const struct st_rl_params *rp, u64 tat, u64 now)
{
	if (rp->adaptive)
		return rp->window && now <= tat;
	return rp->window && tat > now + rp->tolerance;
}

/**
 * st_rl_quota_init() - The quota state of __sched_fork() in the patch.
 * @q: the task's quota state
 * @rp: the parameters
 *
 * No window, a full quota.
 */
void st_rl_quota_init(struct st_rl_quota *q, const struct st_rl_params *rp)
{
	q->tat = 0;
	q->used = 0;
	q->quota = rp->quota;
}

/**
 * st_rl_quota_migrate() - migrate_task_ratelimit_fair() of the patch.
 * @q: the task's quota state
 * @rp: the parameters
 * @now: sched_clock_cpu() of the task's CPU
 * @now_new: that of the new CPU, read only with an unstable sched clock
 *           (else the same reading)
 *
 * As the patch: a migration inside the window only counts; one after it
 * opens the next window, counted as its first migration, and sets the
 * quota from how the last window went.  A window the migration stays in
 * moves into the new CPU's clock, a new one starts from it.  A quota
 * above rp->quota (the knob was lowered) starts from rp->quota.
 *
 * Return: ST_RL_HALVED or ST_RL_REPLENISHED for a new window with a
 * smaller or larger quota, else ST_RL_STAMPED.
 */
enum st_rl_stamped st_rl_quota_migrate(struct st_rl_quota *q,
				       const struct st_rl_params *rp, u64 now,
				       u64 now_new)
{
	u32 quota = q->quota && q->quota <= rp->quota ? q->quota : rp->quota;
	u32 next;

	if (now < q->tat) {
		if (q->used < ST_RL_USED_MAX)
			q->used++;
		q->tat += now_new - now;
		q->quota = quota;
		return ST_RL_STAMPED;
	}
	q->tat = now_new + rp->window;
	if (q->used >= quota)
		next = quota > 1 ? quota >> 1 : 1;
	else
		next = quota + rp->replenish < rp->quota ?
		       quota + rp->replenish : rp->quota;
	q->quota = next;
	q->used = 1;
	if (next < quota)
		return ST_RL_HALVED;
	return next > quota ? ST_RL_REPLENISHED : ST_RL_STAMPED;
}

/**
 * st_rl_quota_limited() - !should_migrate_task() of the patch.
 * @rp: the parameters
 * @q: the task's quota state
 * @now: the clock its window is in
 *
 * Return: true when the quota is used up and the window not over.
 */
bool st_rl_quota_limited(const struct st_rl_params *rp,
			 const struct st_rl_quota *q, u64 now)
{
	return q->used >= q->quota && st_rl_limited(rp, q->tat, now);
}

/**
 * st_rl_stamp() - A task's tat after one more migration, in fixed mode.
 * @rp: the parameters
 * @tat: the task's tat, 0 for none
 * @now: the clock
 *
 * Every migration spends one interval.  The result is capped at one
 * window ahead so that migrations the limit cannot veto (load balancing)
 * never hold a task for longer than a window.
 *
 * Return: the new tat.
 */
u64 st_rl_stamp(const struct st_rl_params *rp, u64 tat, u64 now)
{
	u64 next = (tat > now ? tat : now) + rp->interval;

	return next < now + rp->window ? next : now + rp->window;
}

/**
 * st_rl_slot_stamp() - Stamp a migration of a task in its slot.
 * @slot: the slot @owner hashes to
 * @rp: the parameters
 * @owner: names the task
 * @now: the clock of st_rl_quota_migrate()
 * @now_new: the new CPU's clock, as st_rl_quota_migrate() reads it; fixed
 *           mode (patch 1/2) reads this one only
 * @jnow: the jiffies
 * @expires: the jiffies value by which a tat set now has surely passed
 *
 * In adaptive mode a slot another task held starts from
 * st_rl_quota_init().  A task whose stamp is lost, either way, is not
 * limited until it migrates again.
 *
 * Return: an enum st_rl_stamped, with ST_RL_EVICTED when the stamp
 * replaced another task's that had not expired at @jnow; ST_RL_BUSY if
 * another CPU is stamping the slot: nothing is then written.
 */
unsigned int st_rl_slot_stamp(struct st_rl_slot *slot,
			      const struct st_rl_params *rp, u64 owner,
			      u64 now, u64 now_new, unsigned long jnow,
			      unsigned long expires)
{
	unsigned int ret = ST_RL_STAMPED, evicted = 0;
	struct st_rl_quota q;
	u64 tat, prev;
	bool mine;
	u32 seq;

	if (!st_rl_write_begin(slot, &seq))
		return ST_RL_BUSY;
	/* claimed: no other writer can change the fields under us */
	prev = st_rl_read_owner(slot);
	mine = prev == owner;
	tat = mine ? st_rl_read_tat(slot) : 0;
	/* owner 0: an empty or forgotten slot */
	if (!mine && prev &&
	    time_before_eq(jnow, st_rl_read_expires(slot)))
		evicted = ST_RL_EVICTED;
	st_rl_write_owner(slot, owner);
	if (!rp->adaptive) {
		st_rl_write_tat(slot, st_rl_stamp(rp, tat, now_new));
		st_rl_write_expires(slot, expires);
		st_rl_write_quota(slot, 0, 0);
	} else {
		st_rl_quota_init(&q, rp);
		if (mine) {
			q.tat = tat;
			q.used = READ_ONCE(slot->used);
			q.quota = READ_ONCE(slot->quota);
		}
		ret = st_rl_quota_migrate(&q, rp, now, now_new);
		/*
		 * a window kept keeps its expiry, so the fast path stays
		 * exact; one an unstable clock moved takes a later one
		 */
		if (q.tat != tat) {
			st_rl_write_tat(slot, q.tat);
			st_rl_write_expires(slot, expires);
		}
		st_rl_write_quota(slot, q.used, q.quota);
	}
	st_rl_write_end(slot, seq);
	return ret | evicted;
}
