/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pure policy of sched_tune: knob descriptions, parsing and the decisions
 * the hooks make.  No kernel state is touched here, so the same file is
 * compiled into the module and into the userspace unit tests, which give
 * it the kernel headers below from selftests/unit/include.
 */
#ifndef SCHED_TUNE_POLICY_H
#define SCHED_TUNE_POLICY_H

#include <linux/types.h>
#include <linux/errno.h>
#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/jiffies.h>
#include <asm/barrier.h>

/* ST_KNOB_<id> of each entry of knobs.h, in its order */
enum st_knob_id {
#define ST_KNOB(id, ...)	ST_KNOB_##id,
#include "knobs.h"
	ST_NR_KNOBS
};

/* ratelimit_mode: the rate-limit patch (1/2) or its adaptive quota (2/2) */
enum st_rl_mode {
	ST_RL_MODE_FIXED,
	ST_RL_MODE_ADAPTIVE,
	ST_NR_RL_MODES
};

enum st_cache_level {
	ST_LEVEL_LLC,
	ST_LEVEL_L2,
	ST_LEVEL_SMT,
	ST_LEVEL_AUTO,
	/* no CPU shares with another: TTWU_QUEUE_DEFAULT (cache_level.c) */
	ST_LEVEL_NONE,
	ST_NR_LEVELS
};

/* eevdf_slice: whose request the running task's next deadline is */
enum st_eevdf_slice_mode {
	ST_SLICE_STOCK,
	ST_SLICE_FIXED,
	ST_SLICE_SCALED,
	ST_NR_SLICE_MODES
};

enum st_feature_id {
	ST_FEAT_RATELIMIT,
	ST_FEAT_CACHE_LEVEL,
	ST_FEAT_NUMA_SCAN,
	ST_FEAT_EEVDF,
	ST_FEAT_PREV_BIAS,
	ST_FEAT_SYNC_SHORT,
	ST_NR_FEATURES,
	ST_FEAT_NONE = ST_NR_FEATURES
};

/* knobs.h's stock for a knob that has none: its value stands */
#define ST_NO_STOCK	(~0ULL)

/* A knob, as knobs.h describes it. */
struct st_knob_desc {
	const char *name;
	u64 min;
	u64 max;
	u64 def;
	/* knobs with a stock value read it while their feature is unsupported */
	bool has_stock;
	u64 stock;
	enum st_feature_id feature;
	/* non-NULL for a knob that takes one of these names */
	const char *const *choices;
	unsigned int nr_choices;
};

extern const struct st_knob_desc st_knobs[ST_NR_KNOBS];

int st_knob_lookup(const char *name);
int st_knob_parse(const struct st_knob_desc *d, const char *buf, size_t len,
		  u64 *val);
int st_knob_format(const struct st_knob_desc *d, u64 val, char *buf,
		   size_t size);

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

/*
 * Queued-wakeup cache level (the L2 patch, cache_level.c): the part of
 * ttwu_queue_cond() that follows its other tests (TTWU_QUEUE, CPU active,
 * affinity, class), for a wakeup from the waker's CPU to the target CPU.
 */
struct st_wake_pair {
	bool same_cpu;
	bool share_llc;		/* the kernel's cpus_share_cache() */
	bool share_l2;		/* target in the waker's L2 (cluster) mask */
	bool share_smt;		/* target in the waker's SMT sibling mask */
	bool target_idle;	/* nothing running on the target runqueue */
	unsigned int llc_size;	/* sd_llc_size of the waker's CPU */
};

void st_wake_pair_classify(struct st_wake_pair *w, int this_cpu, int cpu,
			   int this_llc_id, int cpu_llc_id, bool in_l2_mask,
			   bool in_smt_mask);
bool st_level_shares(unsigned int level, const struct st_wake_pair *w,
		     u64 auto_llc_max);
bool st_wake_queue(bool shares, const struct st_wake_pair *w);

/* NUMA scans of unaccessed VMAs (the disjoint-VMA patch, numa_scan.c) */
u64 st_numa_threshold(u64 vma_bytes, unsigned int scan_size_mb,
		      unsigned int percent);
bool st_numa_renewing(int scan_seq, unsigned int renew);

/*
 * A VMA's scan count, the patch's vma->numab_state->scan_counter: @owner
 * names the VMA, a new owner starts the count again.
 */
struct st_numa_count {
	u64 owner;
	unsigned int scans;
};

void st_numa_count_init(struct st_numa_count *c, u64 owner);
bool st_numa_allow(struct st_numa_count *c, u64 owner, bool renewing,
		   bool stock, u64 threshold, bool *by_threshold);
void st_numa_count_scan(struct st_numa_count *c, u64 owner, bool renewing);

/*
 * EEVDF slice policy (eevdf.c).  The bounds of a slice are those
 * sched_setattr() puts on a custom slice (sched_runtime, 6.12): the
 * kernel's own idea of a sane request.
 */
#define ST_EEVDF_SLICE_MIN_NS	100000ULL
#define ST_EEVDF_SLICE_MAX_NS	100000000ULL

u64 st_eevdf_slice(unsigned int mode, u64 base, u64 fixed, u64 latency,
		   unsigned int nr);
u64 st_eevdf_deadline(u64 vruntime, u64 deadline, u64 old_slice,
		      u64 new_slice);

/* NICE_0_LOAD of a 64-bit kernel: se->load.weight of a nice-0 task */
#define ST_NICE_0_LOAD_SHIFT	20

/* An entity's request as a tick leaves it, for st_eevdf_renewed(). */
struct st_ev_request {
	u64 deadline;
	u64 vruntime;
	u64 weight;		/* what calc_delta_fair() divides by */
	u64 sum_exec;		/* se->sum_exec_runtime */
};

s64 st_eevdf_request_left(const struct st_ev_request *r);
bool st_eevdf_renewed(const struct st_ev_request *before,
		      const struct st_ev_request *after, u64 slice);

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

bool st_util_fits_capacity(u64 cpu_util_est, u64 task_util, u64 capacity);

/*
 * prev_bias: SELECT_BIAS_PREV with UTIL_FITS_CAPACITY (v2), judged on the
 * CPU S that stock's select_task_rq_fair() chose, since
 * select_idle_sibling(p, prev, target) is inlined.  P is prev, T the
 * target wake_affine() left, R p->recent_used_cpu as stock found it.
 * "Room": idle as select_idle_sibling() tests it, or the task fits what
 * the CPU's runnable tasks leave of its capacity.  The patch, in order:
 *  1. P sharing T's cache (or T itself) with room: P;
 *  2. T with room: T;
 *  3. a per-CPU kthread waking the task on P, its own CPU, alone: P;
 *  4. R (not P nor T, sharing T's cache, allowed) with room: R;
 *  5. stock's scan (an idle SMT sibling of P, or an idle CPU);
 *  6. nothing idle, P sharing T's cache and not T: P; else T.
 * Facts that cost a call are learnt on demand: st_prev_bias_decide()
 * returns the verdict, or asks for the next fact it needs.
 */
enum st_pb_fact {
	ST_PB_F_PREV_ROOM,	/* prev_room */
	ST_PB_F_TARGET,		/* target_apart, new_is_target, recent_is_target */
	ST_PB_F_TARGET_ROOM,	/* target_room */
	ST_PB_F_RECENT_ROOM,	/* recent_room */
	ST_PB_F_NEW_IDLE,	/* new_idle */
	ST_PB_NR_FACTS
};

struct st_prev_bias_in {
	/* known up front */
	bool new_is_prev;	/* S == P */
	bool share_prev;	/* P in S's LLC, which is T's */
	bool kthread_stack;	/* step 3's conditions */
	bool recent_ok;		/* R != P, in S's LLC, in p->cpus_ptr */
	bool recent_is_new;	/* R == S */
	/* learnt: BIT(fact) in known */
	unsigned int known;
	bool prev_room;
	bool target_apart;	/* T != P: wake_affine() chose the waker's CPU */
	bool new_is_target;	/* S == T */
	bool recent_is_target;	/* R == T */
	bool target_room;
	bool recent_room;
	bool new_idle;		/* S idle: stock's scan found it */
};

enum st_prev_bias_verdict {
	ST_PB_STOCK,		/* stock's choice stands */
	ST_PB_KEEP_ROOM,	/* 1: P */
	ST_PB_TARGET_ROOM,	/* 2: T */
	ST_PB_RECENT_ROOM,	/* 4: R */
	ST_PB_KEEP_BUSY,	/* 6: P */
	ST_PB_NR_VERDICTS
};

int st_prev_bias_decide(const struct st_prev_bias_in *in);

/**
 * st_prev_bias_stock_kept() - Whether prev_bias leaves stock's prev alone.
 * @prev: the wakee's previous CPU
 * @new: stock's choice
 * @recent: the task's recent_used_cpu
 * @recent_llc: whether @recent shares @new's LLC
 *
 * st_prev_bias_decide()'s first test, without a call.  Inline, the
 * compiler reads @recent_llc only where it matters.
 *
 * Return: true when stock kept prev, and the task's recent_used_cpu is
 * prev or outside prev's LLC: no step of the patch moves it.
 */
static __always_inline bool st_prev_bias_stock_kept(int prev, int new,
						    int recent,
						    bool recent_llc)
{
	return new == prev && (recent == prev || !recent_llc);
}

/*
 * sync_short: SIS_SYNC as posted ("sched/fair: Enhance sync wakeup for
 * short duration tasks", Chen Yu, 2024-06-25).
 */

/**
 * st_dur_avg_update() - A task's average duration, with one more sample.
 * @avg: the average so far
 * @sample: the CPU time the task ran between a wakeup and its next sleep
 *
 * The duration_avg of the series' "Record the average duration of a
 * task": update_avg() of kernel/sched/fair.c.
 *
 * Return: the average, moved 1/8 of the way to @sample.
 */
static inline u64 st_dur_avg_update(u64 avg, u64 sample)
{
	return avg + (u64)((s64)(sample - avg) / 8);
}

/**
 * st_sis_sync_short() - short_task() of the patch.
 * @dur_avg: the task's average duration; 0: not recorded
 * @migration_cost: sysctl_sched_migration_cost
 * @llc: the target's sd_llc_size
 *
 * (duration_avg << 16) < sysctl_sched_migration_cost * llc^2: 0.5 us at 8
 * CPUs per LLC, 31 us at 64, 500 us at 256 (the patch's table, at the
 * default 500 us).
 *
 * Return: whether the task is short; one whose duration the module has
 * not recorded is not.
 */
static inline bool st_sis_sync_short(u64 dur_avg, u64 migration_cost,
				     u64 llc)
{
	return dur_avg && (dur_avg << 16) < migration_cost * llc * llc;
}

/*
 * What SIS_SYNC knows of a wakeup.  Its test, in select_idle_cpu(),
 * returns the target before the idle scan:
 *   target == smp_processor_id() && !has_idle_core && sync &&
 *   this_rq()->nr_running <= 1 && short_task(p) && short_task(current) &&
 *   current->last_wakee == p && p->last_wakee == current
 * so it changes stock's choice only where that choice came from the scan:
 * not the target itself, and none of select_idle_sibling()'s earlier
 * returns (an idle prev, an idle recent_used_cpu, an idle SMT sibling of
 * prev).
 */
struct st_sync_short_in {
	bool sync;		/* WF_SYNC, and the waker not exiting */
	bool waker_short;	/* short_task(current) */
	bool wakee_short;	/* short_task(p) */
	bool mutual;		/* p->last_wakee == current */
	bool waker_alone;	/* this_rq()->nr_running <= 1 */
	bool idle_core;		/* test_idle_cores() of the waker's LLC */
	bool target_is_waker;	/* wake_affine() chose the waker's CPU */
	bool new_is_target;	/* stock returned the target */
	bool new_early;		/* stock's choice is an earlier return */
};

/**
 * st_sync_short_decide() - SIS_SYNC's test, on what it knows of a wakeup.
 * @in: the facts
 *
 * Return: true when SIS_SYNC returns the target, the waker's CPU, where
 * stock's choice came from the idle scan.
 */
static inline bool st_sync_short_decide(const struct st_sync_short_in *in)
{
	return in->sync && in->waker_short && in->wakee_short &&
	       in->mutual && in->waker_alone && !in->idle_core &&
	       in->target_is_waker && !in->new_is_target && !in->new_early;
}

#endif /* SCHED_TUNE_POLICY_H */
