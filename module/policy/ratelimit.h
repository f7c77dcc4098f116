/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The migration rate limit (seed 000, ratelimit.c): its cell rate
 * algorithm, adaptive quota and table slot protocol.
 * Pure policy: no kernel state is touched, so the same file is compiled
 * into the module and into the userspace unit tests (selftests/unit).
 */
#ifndef SCHED_TUNE_POLICY_RATELIMIT_H
#define SCHED_TUNE_POLICY_RATELIMIT_H

#include <linux/types.h>
#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/jiffies.h>
#include <asm/barrier.h>

/* ratelimit_mode: the rate-limit patch (1/2) or its adaptive quota (2/2) */
enum st_rl_mode {
	ST_RL_MODE_FIXED,
	ST_RL_MODE_ADAPTIVE,
	ST_NR_RL_MODES
};

/*
 * Migration rate limit as a generic cell rate algorithm: a task may make
 * @burst migrations per @window; its state is one "theoretical arrival
 * time" (tat).  With burst 1 this is exactly the rate-limit patch: a task
 * is held on its previous CPU until @window after its last migration.
 */
struct st_rl_params {
	u64 interval;	/* window / burst */
	u64 tolerance;	/* window - interval */
	u64 window;
	/* ratelimit_mode=adaptive: the quota below instead of the burst */
	bool adaptive;
	u32 quota;	/* a task's quota per window, at most and at first */
	u32 replenish;	/* given back after a window not used up */
};

void st_rl_params_init(struct st_rl_params *rp, u64 window, u32 burst);
void st_rl_params_adaptive(struct st_rl_params *rp, bool adaptive, u32 quota,
			   u32 replenish);
bool st_rl_limited(const struct st_rl_params *rp, u64 tat, u64 now);
u64 st_rl_stamp(const struct st_rl_params *rp, u64 tat, u64 now);

/*
 * Adaptive quota, "sched: Implement adaptative rate limiting of task
 * migrations" (patch 2/2 of the rate-limit series): the fields the patch
 * adds to sched_entity.  A migration at or after @tat opens a window of
 * rp->window: the quota is halved (down to 1) if the window before used
 * it up, else rp->replenish is given back (up to rp->quota).
 */
struct st_rl_quota {
	u64 tat;	/* next_migration_time: the end of the window */
	u32 used;	/* nr_migrations_per_window */
	u32 quota;	/* quota_migrations_per_window */
};

/* What a stamp did; ST_RL_BUSY: another CPU had the slot, nothing done. */
enum st_rl_stamped {
	ST_RL_BUSY,
	ST_RL_STAMPED,
	ST_RL_HALVED,		/* opened a window with a smaller quota */
	ST_RL_REPLENISHED,	/* opened a window with a larger quota */
	ST_RL_STAMP_MASK = 0x7,
	/*
	 * or'd in by st_rl_slot_stamp(): the slot held another task's
	 * stamp whose window was still open, and that task lost it
	 */
	ST_RL_EVICTED = 0x8,
};

/* used counts saturate here: a u16 in the slot */
#define ST_RL_USED_MAX	0xffffU

void st_rl_quota_init(struct st_rl_quota *q, const struct st_rl_params *rp);
enum st_rl_stamped st_rl_quota_migrate(struct st_rl_quota *q,
				       const struct st_rl_params *rp, u64 now,
				       u64 now_new);
bool st_rl_quota_limited(const struct st_rl_params *rp,
			 const struct st_rl_quota *q, u64 now);

/*
 * One slot of the rate limit's lossy per-task table (ratelimit.c): the
 * stamp of the task named by @owner.  Two tasks that hash to one slot
 * may be stamped at once on two CPUs (each under its own rq lock) while
 * wakeups read it anywhere, so the three fields are published as one
 * under @seq, a sequence count whose writers exclude each other with a
 * cmpxchg: a writer that finds the slot busy skips its stamp, a reader
 * that finds it busy or changed sees no stamp.  Either way a task goes
 * unlimited once, which the lossy table allows; what it never does is
 * pair one task's owner with another task's tat.  32 bytes on 64-bit: a
 * slot never straddles a cache line.  The adaptive quota's two counts
 * fill the hole after @seq and are published with the rest.
 */
struct st_rl_slot {
	u32 seq;		/* odd while a writer fills the slot */
	/* adaptive: st_rl_quota's used and quota; fixed: both 0 */
	u16 used;
	u16 quota;
	/* jiffies after which tat has surely passed: no clock to read */
	unsigned long expires;
	u64 owner;
	u64 tat;
};

/*
 * Where the unit tests run a writer in the middle of a read; nothing in
 * the module.
 */
#ifndef st_rl_read_step
#define st_rl_read_step()	do { } while (0)
#endif

/* The reader, one load a step, seqcount style. */
static inline bool st_rl_read_begin(const struct st_rl_slot *slot, u32 *seq)
{
	*seq = READ_ONCE(slot->seq);
	/* the count before the fields: pairs with st_rl_write_end()'s */
	smp_rmb();
	return !(*seq & 1);
}

static inline u64 st_rl_read_owner(const struct st_rl_slot *slot)
{
	return READ_ONCE(slot->owner);
}

static inline u64 st_rl_read_tat(const struct st_rl_slot *slot)
{
	return READ_ONCE(slot->tat);
}

static inline unsigned long st_rl_read_expires(const struct st_rl_slot *slot)
{
	return READ_ONCE(slot->expires);
}

/* Adaptive: the quota is used up (always so for a fixed-mode stamp). */
static inline bool st_rl_read_used_up(const struct st_rl_slot *slot)
{
	return READ_ONCE(slot->used) >= READ_ONCE(slot->quota);
}

/* Whether a writer came between st_rl_read_begin() and now. */
static inline bool st_rl_read_retry(const struct st_rl_slot *slot, u32 seq)
{
	/* the fields before the count: pairs with st_rl_write_begin()'s */
	smp_rmb();
	return READ_ONCE(slot->seq) != seq;
}

/**
 * st_rl_slot_live() - The first half of st_rl_slot_may_limit().
 * @slot: the slot
 * @now: the jiffies
 * @seq: set to the sequence count, for st_rl_slot_live_owned()
 *
 * In two halves, so that a caller computes the owner only for a live
 * stamp: most wakeups find none.  Only a "yes" needs the retry check: a
 * "no" from a torn read is a lost stamp.
 *
 * Return: whether @slot holds a stamp that may still hold at @now and, in
 * adaptive mode, whose quota is used up (below it, as in the patch, no
 * clock is read).
 */
static inline bool st_rl_slot_live(const struct st_rl_slot *slot,
				   unsigned long now, u32 *seq)
{
	if (!st_rl_read_begin(slot, seq))
		return false;
	st_rl_read_step();
	if (!time_before_eq(now, st_rl_read_expires(slot)) ||
	    !st_rl_read_used_up(slot))
		return false;
	st_rl_read_step();
	return true;
}

/**
 * st_rl_slot_live_owned() - The second half of st_rl_slot_may_limit().
 * @slot: the slot st_rl_slot_live() found live
 * @owner: names the task
 * @seq: the sequence count st_rl_slot_live() read
 *
 * Return: whether the live stamp is @owner's, no writer having come
 * between.
 */
static inline bool st_rl_slot_live_owned(const struct st_rl_slot *slot,
					 u64 owner, u32 seq)
{
	if (st_rl_read_owner(slot) != owner)
		return false;
	st_rl_read_step();
	return !st_rl_read_retry(slot, seq);
}

/**
 * st_rl_slot_may_limit() - Whether a task's stamp may still hold.
 * @slot: the slot @owner hashes to
 * @owner: names the task
 * @now: the jiffies
 *
 * Return: whether @owner's stamp in @slot may still hold at @now (and, in
 * adaptive mode, the quota is used up).
 */
static inline bool st_rl_slot_may_limit(const struct st_rl_slot *slot,
					u64 owner, unsigned long now)
{
	u32 seq;

	return st_rl_slot_live(slot, now, &seq) &&
	       st_rl_slot_live_owned(slot, owner, seq);
}

/**
 * st_rl_slot_tat() - A task's tat, read from its slot.
 * @slot: the slot @owner hashes to
 * @owner: names the task
 *
 * Return: @owner's tat in @slot, or 0 (never limits) if it has none or a
 * writer came between.
 */
static inline u64 st_rl_slot_tat(const struct st_rl_slot *slot, u64 owner)
{
	u32 seq;
	u64 tat;

	if (!st_rl_read_begin(slot, &seq))
		return 0;
	st_rl_read_step();
	if (st_rl_read_owner(slot) != owner)
		return 0;
	st_rl_read_step();
	tat = st_rl_read_tat(slot);
	st_rl_read_step();
	return st_rl_read_retry(slot, seq) ? 0 : tat;
}

/**
 * st_rl_write_begin() - Claim a slot, to fill it.
 * @slot: the slot
 * @seq: set to the odd count, for st_rl_write_end()
 *
 * The writer claims the slot, fills it, releases it (st_rl_write_end()).
 * The acquire lets the claimant read what the last writer left; the
 * barrier after it keeps the fields from showing before the odd count, as
 * write_seqcount_begin() does.
 *
 * Return: true if claimed; false if another writer has it.
 */
static inline bool st_rl_write_begin(struct st_rl_slot *slot, u32 *seq)
{
	u32 old = READ_ONCE(slot->seq);

	if ((old & 1) || cmpxchg_acquire(&slot->seq, old, old + 1) != old)
		return false;
	/* the odd count before the fields: pairs with st_rl_read_retry()'s */
	smp_wmb();
	*seq = old + 1;
	return true;
}

/* The fields, between st_rl_write_begin() and st_rl_write_end() */
static inline void st_rl_write_owner(struct st_rl_slot *slot, u64 owner)
{
	WRITE_ONCE(slot->owner, owner);
}

static inline void st_rl_write_tat(struct st_rl_slot *slot, u64 tat)
{
	WRITE_ONCE(slot->tat, tat);
}

static inline void st_rl_write_expires(struct st_rl_slot *slot,
				       unsigned long expires)
{
	WRITE_ONCE(slot->expires, expires);
}

static inline void st_rl_write_quota(struct st_rl_slot *slot, u32 used,
				     u32 quota)
{
	WRITE_ONCE(slot->used, (u16)used);
	WRITE_ONCE(slot->quota, (u16)quota);
}

/**
 * st_rl_write_end() - Release a slot st_rl_write_begin() claimed.
 * @slot: the slot
 * @seq: st_rl_write_begin()'s count
 *
 * The barrier orders the fields before the even count, as
 * write_seqcount_end() does.
 */
static inline void st_rl_write_end(struct st_rl_slot *slot, u32 seq)
{
	/* the fields before the even count: pairs with st_rl_read_begin()'s */
	smp_wmb();
	WRITE_ONCE(slot->seq, seq + 1);
}

unsigned int st_rl_slot_stamp(struct st_rl_slot *slot,
			      const struct st_rl_params *rp, u64 owner,
			      u64 now, u64 now_new, unsigned long jnow,
			      unsigned long expires);

/**
 * st_rl_wakeup_judged() - Whether a wakeup reaches the rate limit's test.
 * @wake_flags: select_task_rq_fair()'s
 * @wf_ttwu: the kernel's WF_TTWU
 * @wf_current_cpu: its WF_CURRENT_CPU
 * @eas_on: whether energy-aware placement is on
 *
 * A wakeup (@wf_ttwu) reaches it when neither its WF_CURRENT_CPU return
 * (@wf_current_cpu) nor energy-aware placement (@eas_on()) settles it
 * first.  The patch still tests a WF_CURRENT_CPU wakeup whose waker's CPU
 * the task may not use, but want_affine is then false: never limited
 * either way.  @eas_on is called last, only for a wakeup the flags let
 * through (inlined, it costs the other wakeups nothing).
 *
 * Return: true if select_task_rq_fair() reaches the test.
 */
static __always_inline bool st_rl_wakeup_judged(unsigned int wake_flags,
						unsigned int wf_ttwu,
						unsigned int wf_current_cpu,
						bool (*eas_on)(void))
{
	return (wake_flags & wf_ttwu) && !(wake_flags & wf_current_cpu) &&
	       !eas_on();
}

#endif /* SCHED_TUNE_POLICY_RATELIMIT_H */
