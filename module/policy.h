/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pure policy of sched_tune: knob descriptions, parsing and the decisions
 * the hooks make.  No kernel state is touched here, so the same file is
 * compiled into the module and into the userspace unit tests.
 */
#ifndef SCHED_TUNE_POLICY_H
#define SCHED_TUNE_POLICY_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/atomic.h>
#include <linux/compiler.h>
#include <linux/jiffies.h>
#include <asm/barrier.h>
#define st_read_once(x)			READ_ONCE(x)
#define st_write_once(x, val)		WRITE_ONCE(x, val)
/* readers of a struct st_rl_slot: pairs with the writers' st_smp_wmb() */
#define st_smp_rmb()			smp_rmb()
/* writers of a struct st_rl_slot: pairs with the readers' st_smp_rmb() */
#define st_smp_wmb()			smp_wmb()
#define st_cmpxchg_acquire(ptr, old, new) cmpxchg_acquire(ptr, old, new)
#define st_time_before_eq(a, b)		time_before_eq(a, b)
#else
/* the userspace unit tests build this file too */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
typedef uint64_t u64;
typedef int64_t s64;
typedef uint32_t u32;
typedef uint16_t u16;
/*
 * The kernel's primitives as C11 atomics: relaxed accesses, fences that
 * order loads (acquire) and stores (release) as smp_rmb()/smp_wmb() do.
 */
#define st_read_once(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define st_write_once(x, val)	__atomic_store_n(&(x), (val), __ATOMIC_RELAXED)
#define st_smp_rmb()		__atomic_thread_fence(__ATOMIC_ACQUIRE)
#define st_smp_wmb()		__atomic_thread_fence(__ATOMIC_RELEASE)
static inline u32 st_cmpxchg_acquire(u32 *ptr, u32 old, u32 new)
{
	__atomic_compare_exchange_n(ptr, &old, new, false, __ATOMIC_ACQUIRE,
				    __ATOMIC_RELAXED);
	return old;
}

#define st_time_before_eq(a, b)	((long)((b) - (a)) >= 0)
#endif

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
/*
 * Fixed: whether a task of this tat is limited at @now.  Adaptive: the
 * same for a task that has used up its quota (st_rl_slot_may_limit()
 * checked that); @tat is then the end of its window.
 */
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

/* The state of __sched_fork() in the patch: no window, a full quota. */
void st_rl_quota_init(struct st_rl_quota *q, const struct st_rl_params *rp);
/*
 * migrate_task_ratelimit_fair() of the patch: @now is sched_clock_cpu()
 * of the task's CPU, @now_new of the new CPU, read only with an unstable
 * sched clock (else the same reading): a window the migration stays in
 * then moves into the new CPU's clock, a new one starts from it.
 */
enum st_rl_stamped st_rl_quota_migrate(struct st_rl_quota *q,
				       const struct st_rl_params *rp, u64 now,
				       u64 now_new);
/* !should_migrate_task() of the patch: quota used up, window not over. */
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
	*seq = st_read_once(slot->seq);
	st_smp_rmb();
	return !(*seq & 1);
}

static inline u64 st_rl_read_owner(const struct st_rl_slot *slot)
{
	return st_read_once(slot->owner);
}

static inline u64 st_rl_read_tat(const struct st_rl_slot *slot)
{
	return st_read_once(slot->tat);
}

static inline unsigned long st_rl_read_expires(const struct st_rl_slot *slot)
{
	return st_read_once(slot->expires);
}

/* Adaptive: the quota is used up (always so for a fixed-mode stamp). */
static inline bool st_rl_read_used_up(const struct st_rl_slot *slot)
{
	return st_read_once(slot->used) >= st_read_once(slot->quota);
}

/* Whether a writer came between st_rl_read_begin() and now. */
static inline bool st_rl_read_retry(const struct st_rl_slot *slot, u32 seq)
{
	st_smp_rmb();
	return st_read_once(slot->seq) != seq;
}

/*
 * Whether @owner's stamp in @slot may still hold at jiffies @now (and, in
 * adaptive mode, the quota is used up: below it, as in the patch, no
 * clock is read).  Only a "yes" needs the retry check: a "no" from a
 * torn read is a lost stamp.  In two halves, so that a caller computes
 * the owner only for a live stamp: most wakeups find none.
 */
static inline bool st_rl_slot_live(const struct st_rl_slot *slot,
				   unsigned long now, u32 *seq)
{
	if (!st_rl_read_begin(slot, seq))
		return false;
	st_rl_read_step();
	if (!st_time_before_eq(now, st_rl_read_expires(slot)) ||
	    !st_rl_read_used_up(slot))
		return false;
	st_rl_read_step();
	return true;
}

static inline bool st_rl_slot_live_owned(const struct st_rl_slot *slot,
					 u64 owner, u32 seq)
{
	if (st_rl_read_owner(slot) != owner)
		return false;
	st_rl_read_step();
	return !st_rl_read_retry(slot, seq);
}

static inline bool st_rl_slot_may_limit(const struct st_rl_slot *slot,
					u64 owner, unsigned long now)
{
	u32 seq;

	return st_rl_slot_live(slot, now, &seq) &&
	       st_rl_slot_live_owned(slot, owner, seq);
}

/* @owner's tat in @slot, or 0 (never limits) if it has none. */
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

/*
 * The writer: claims the slot (false if another writer has it), fills
 * it, releases it.  The acquire lets the claimant read what the last
 * writer left; the barrier after it keeps the fields from showing
 * before the odd count, as write_seqcount_begin() does.
 */
static inline bool st_rl_write_begin(struct st_rl_slot *slot, u32 *seq)
{
	u32 old = st_read_once(slot->seq);

	if ((old & 1) || st_cmpxchg_acquire(&slot->seq, old, old + 1) != old)
		return false;
	st_smp_wmb();
	*seq = old + 1;
	return true;
}

static inline void st_rl_write_owner(struct st_rl_slot *slot, u64 owner)
{
	st_write_once(slot->owner, owner);
}

static inline void st_rl_write_tat(struct st_rl_slot *slot, u64 tat)
{
	st_write_once(slot->tat, tat);
}

static inline void st_rl_write_expires(struct st_rl_slot *slot,
				       unsigned long expires)
{
	st_write_once(slot->expires, expires);
}

static inline void st_rl_write_quota(struct st_rl_slot *slot, u32 used,
				     u32 quota)
{
	st_write_once(slot->used, (u16)used);
	st_write_once(slot->quota, (u16)quota);
}

static inline void st_rl_write_end(struct st_rl_slot *slot, u32 seq)
{
	st_smp_wmb();
	st_write_once(slot->seq, seq + 1);
}

/*
 * Stamps a migration of @owner; @now and @now_new are the clocks of
 * st_rl_quota_migrate() (fixed mode, patch 1/2, reads @now_new only),
 * @jnow the jiffies; @expires is the jiffies value by which a tat set
 * now has surely passed.  ST_RL_BUSY if another CPU is stamping the
 * slot: nothing is then written.  In adaptive mode a slot another task
 * held starts from st_rl_quota_init().  Returns an enum st_rl_stamped,
 * with ST_RL_EVICTED when the stamp replaced another task's that had not
 * expired at @jnow.  A task whose stamp is lost, either way, is not
 * limited until it migrates again.
 */
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

/* inline: a pointer to a local would give the wrapper a stack canary */
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
 * Whether select_task_rq_fair() reaches the rate limit's test with these
 * @wake_flags: a wakeup (@wf_ttwu) that neither its WF_CURRENT_CPU return
 * (@wf_current_cpu) nor energy-aware placement (@eas_on()) settles first.
 * The patch still tests a WF_CURRENT_CPU wakeup whose waker's CPU the
 * task may not use, but want_affine is then false: never limited either
 * way.  @eas_on is called last, only for a wakeup the flags let through
 * (inlined, it costs the other wakeups nothing).
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

/*
 * Fills the topology part of @w for a wakeup from @this_cpu to @cpu: the
 * sd_llc_id of both CPUs and whether @cpu is in @this_cpu's L2 (cluster)
 * and SMT sibling masks (false for a mask not allocated).
 */
void st_wake_pair_classify(struct st_wake_pair *w, int this_cpu, int cpu,
			   int this_llc_id, int cpu_llc_id, bool in_l2_mask,
			   bool in_smt_mask);
bool st_level_shares(unsigned int level, const struct st_wake_pair *w,
		     u64 auto_llc_max);
bool st_wake_queue(bool shares, const struct st_wake_pair *w);

/*
 * NUMA scan threshold (the disjoint-VMA patch, numa_scan.c): a task may
 * scan a VMA it never faulted in while the VMA's scan count stays at or
 * under this many scans: 1 + @percent of the scans needed to cover the
 * VMA once (50 is the patch's 1 + (vma_MB / scan_size_MB) / 2).
 */
u64 st_numa_threshold(u64 vma_bytes, unsigned int scan_size_mb,
		      unsigned int percent);
/*
 * Whether scan sequence @scan_seq renews every count: the patch's
 * "mm->numa_scan_seq && !(mm->numa_scan_seq % 16)", with @renew for its
 * 16 (DISJOINT_VMA_SCAN_RENEW_THRESH); 0 never renews.
 */
bool st_numa_renewing(int scan_seq, unsigned int renew);

/*
 * A VMA's scan count, the patch's vma->numab_state->scan_counter: @owner
 * names the VMA, a new owner starts the count again.
 */
struct st_numa_count {
	u64 owner;
	unsigned int scans;
};

/* A VMA whose NUMA state was just allocated: no scan yet. */
void st_numa_count_init(struct st_numa_count *c, u64 owner);

/*
 * The access test of one VMA in task_numa_work: @stock is the kernel's
 * verdict, @threshold the count up to which an unaccessed VMA is still
 * scanned; in a @renewing sequence the count is 0 at every test, as the
 * patch resets it before each.  Every scan allowed, by either rule,
 * counts.  Returns whether to scan; *by_threshold tells if only the
 * threshold allowed it.
 */
bool st_numa_allow(struct st_numa_count *c, u64 owner, bool renewing,
		   bool stock, u64 threshold, bool *by_threshold);

/*
 * A scan no access test judged (task_numa_work's forced scan of a VMA
 * when every other was skipped): counted, as the patch counts every scan.
 */
void st_numa_count_scan(struct st_numa_count *c, u64 owner, bool renewing);

/*
 * EEVDF slice policy (eevdf.c).  The bounds of a slice are those
 * sched_setattr() puts on a custom slice (sched_runtime, 6.12): the
 * kernel's own idea of a sane request.
 */
#define ST_EEVDF_SLICE_MIN_NS	100000ULL
#define ST_EEVDF_SLICE_MAX_NS	100000000ULL

/*
 * The request the running task gets under @mode, in ns: @base (the
 * kernel's base_slice_ns) for stock; @fixed; or for scaled @latency
 * shared by the @nr entities queued on the task's runqueue (the task
 * itself counted), CFS-style, never below @base and never above the
 * larger of @base and ST_EEVDF_SLICE_MAX_NS.
 */
u64 st_eevdf_slice(unsigned int mode, u64 base, u64 fixed, u64 latency,
		   unsigned int nr);

/*
 * The deadline of a request of @new_slice, for an entity whose deadline
 * @deadline was just set to @vruntime plus its request of @old_slice in
 * virtual time (vd = ve + r / w): the virtual length scales with the
 * request, so the entity's weight is not needed.  @deadline is returned
 * unchanged when it is not ahead of @vruntime or @old_slice is 0.
 */
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

/*
 * What is left of the request, in ns of the entity's own run time:
 * (deadline - vruntime) * weight / NICE_0_LOAD, negative once used up.
 * A reweight keeps it (d' - v' = (d - v) * w / w'), running takes the
 * time run from it, a renewal resets it to the slice.
 */
s64 st_eevdf_request_left(const struct st_ev_request *r);

/*
 * Whether the tick between @before and @after renewed the request
 * (update_deadline() found it used up and gave a new one of @slice ns),
 * rather than only running it down or moving its deadline by a reweight
 * (7.3's reweight_eevdf() after the tick, 6.12's reweight_entity() of a
 * group entity).  Without a renewal, what is left after the tick is
 * what was left before less the time run; a renewal leaves a whole
 * request, which is at least that plus the request since it happens only
 * once nothing is left.  Half a request tells the two apart.
 */
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

/* Whether the waker's CPU wins by load. */
bool st_wake_affine_weight(const struct st_affine_weight_in *in);

/*
 * The target select_task_rq_fair() passed select_idle_sibling(), told
 * from where stock's result S lies: T is the waker's CPU (@cpu) or @prev,
 * and S lies in T's LLC.  @cpu_llc, @prev_llc: whether each shares S's
 * LLC.  Returns T, or -1 when all three share one and only wake_affine()
 * can tell (st_place_target()).
 */
static inline int st_target_from_llc(int cpu, int prev, bool cpu_llc,
				     bool prev_llc)
{
	if (cpu == prev || !cpu_llc)
		return prev;
	return prev_llc ? -1 : cpu;
}

/*
 * fits_capacity() of kernel/sched/fair.c, 20% of @capacity kept free:
 * whether the runnable utilization on a CPU (@cpu_util_est, its cfs_rq's
 * util_est) plus the waking task's (@task_util) fits @capacity, the test
 * of UTIL_FITS_CAPACITY's task_fits_remaining_cpu_capacity().
 */
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

/* A verdict (>= 0), or -1 - the st_pb_fact it needs next. */
int st_prev_bias_decide(const struct st_prev_bias_in *in);

/*
 * Stock kept prev, and the task's recent_used_cpu is prev or outside
 * prev's LLC (@recent_llc): no step of the patch moves it
 * (st_prev_bias_decide()'s first test, without a call).  Inline, the
 * compiler reads @recent_llc only where it matters.
 */
static __always_inline bool st_prev_bias_stock_kept(int prev, int new,
						    int recent,
						    bool recent_llc)
{
	return new == prev && (recent == prev || !recent_llc);
}

/*
 * sync_short: SIS_SYNC as posted ("sched/fair: Enhance sync wakeup for
 * short duration tasks", Chen Yu, 2024-06-25).  A task's average
 * duration, the duration_avg of the series' "Record the average duration
 * of a task": update_avg() of kernel/sched/fair.c, 1/8 of the way to each
 * new @sample of the CPU time it ran between a wakeup and its next sleep.
 */
static inline u64 st_dur_avg_update(u64 avg, u64 sample)
{
	return avg + (u64)((s64)(sample - avg) / 8);
}

/*
 * short_task(): (duration_avg << 16) < sysctl_sched_migration_cost *
 * llc^2, @llc the target's sd_llc_size: 0.5 us at 8 CPUs per LLC, 31 us
 * at 64, 500 us at 256 (the patch's table, at the default 500 us).  A
 * task whose duration the module has not recorded (@dur_avg 0) is not
 * short.
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

static inline bool st_sync_short_decide(const struct st_sync_short_in *in)
{
	return in->sync && in->waker_short && in->wakee_short &&
	       in->mutual && in->waker_alone && !in->idle_core &&
	       in->target_is_waker && !in->new_is_target && !in->new_early;
}

#endif /* SCHED_TUNE_POLICY_H */
