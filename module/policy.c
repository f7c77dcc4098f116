// SPDX-License-Identifier: GPL-2.0
/*
 * Pure policy of sched_tune, shared by the module and the unit tests.
 */
#ifdef __KERNEL__
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/string.h>
#define st_snprintf scnprintf
#define st_mul_div(a, b, c) mul_u64_u64_div_u64(a, b, c)
#define st_mul_shr(a, b, s) mul_u64_u64_shr(a, b, s)
#else
#include <stdio.h>
#include <string.h>
#define st_snprintf snprintf
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define U64_MAX UINT64_MAX
#define S64_MAX INT64_MAX
#endif

#include "policy.h"

#ifndef __KERNEL__
static u64 st_mul_div(u64 a, u64 b, u64 c)
{
	return (u64)((__uint128_t)a * b / c);
}

static u64 st_mul_shr(u64 a, u64 b, unsigned int shift)
{
	return (u64)(((__uint128_t)a * b) >> shift);
}
#endif

/* Indexed by enum st_cache_level. */
static const char *const st_level_names[ST_NR_LEVELS] = {
	"llc", "l2", "smt", "auto", "none",
};

/* Indexed by enum st_rl_mode. */
static const char *const st_rl_mode_names[ST_NR_RL_MODES] = {
	"fixed", "adaptive",
};

/* Indexed by enum st_eevdf_slice_mode. */
static const char *const st_slice_names[ST_NR_SLICE_MODES] = {
	"stock", "fixed", "scaled",
};

/* knobs.h's stock column: has_stock, and stock 0 for ST_NO_STOCK */
#define ST_KNOB_STOCK(_stock)						\
	.has_stock = (_stock) != ST_NO_STOCK,				\
	.stock = (_stock) != ST_NO_STOCK ? (_stock) : 0

const struct st_knob_desc st_knobs[ST_NR_KNOBS] = {
#define ST_KNOB(_id, _name, _feature, _min, _max, _def, _stock, ...)	\
	[ST_KNOB_##_id] = {						\
		.name = #_name, .min = (_min), .max = (_max),		\
		.def = (_def), ST_KNOB_STOCK(_stock),			\
		.feature = ST_FEAT_##_feature,				\
	},
#define ST_KNOB_CHOICE(_id, _name, _feature, _choices, _def, _stock, ...) \
	[ST_KNOB_##_id] = {						\
		.name = #_name, .min = 0,				\
		.max = ARRAY_SIZE(_choices) - 1, .def = (_def),		\
		ST_KNOB_STOCK(_stock), .feature = ST_FEAT_##_feature,	\
		.choices = (_choices),					\
		.nr_choices = ARRAY_SIZE(_choices),			\
	},
#include "knobs.h"
};

int st_knob_lookup(const char *name)
{
	int i;

	for (i = 0; i < ST_NR_KNOBS; i++)
		if (!strcmp(st_knobs[i].name, name))
			return i;
	return -EINVAL;
}

/*
 * Accepts exactly what Documentation/ABI/testing/sysfs-kernel-sched_tune
 * documents: a decimal number (or one of the knob's names), optionally
 * followed by a single newline.  Anything else, signs, blanks and hex
 * included, is -EINVAL; a number outside the knob's range, or one that
 * overflows u64, is -ERANGE.
 */
int st_knob_parse(const struct st_knob_desc *d, const char *buf, size_t len,
		  u64 *val)
{
	u64 v = 0;
	size_t i;

	if (len && buf[len - 1] == '\n')
		len--;
	if (!len)
		return -EINVAL;

	if (d->choices) {
		for (i = 0; i < d->nr_choices; i++) {
			if (strlen(d->choices[i]) == len &&
			    !memcmp(d->choices[i], buf, len)) {
				*val = i;
				return 0;
			}
		}
		return -EINVAL;
	}

	for (i = 0; i < len; i++) {
		unsigned int digit;

		if (buf[i] < '0' || buf[i] > '9')
			return -EINVAL;
		digit = buf[i] - '0';
		if (v > (U64_MAX - digit) / 10) {
			/* keep scanning: "99999999999999999999x" is -EINVAL */
			for (; i < len; i++)
				if (buf[i] < '0' || buf[i] > '9')
					return -EINVAL;
			return -ERANGE;
		}
		v = v * 10 + digit;
	}
	if (v < d->min || v > d->max)
		return -ERANGE;
	*val = v;
	return 0;
}

int st_knob_format(const struct st_knob_desc *d, u64 val, char *buf,
		   size_t size)
{
	size_t n = 0;
	unsigned int i;

	if (!d->choices)
		return st_snprintf(buf, size, "%llu\n", (unsigned long long)val);

	for (i = 0; i < d->nr_choices && n < size; i++)
		n += st_snprintf(buf + n, size - n, i == val ? "%s[%s]" : "%s%s",
				 i ? " " : "", d->choices[i]);
	if (n < size)
		n += st_snprintf(buf + n, size - n, "\n");
	return n;
}

void st_rl_params_init(struct st_rl_params *rp, u64 window, u32 burst)
{
	rp->window = window;
	rp->interval = burst ? window / burst : window;
	rp->tolerance = window - rp->interval;
}

void st_rl_params_adaptive(struct st_rl_params *rp, bool adaptive, u32 quota,
			   u32 replenish)
{
	rp->adaptive = adaptive;
	rp->quota = quota ? quota : 1;
	rp->replenish = replenish;
}

bool st_rl_limited(const struct st_rl_params *rp, u64 tat, u64 now)
{
	if (rp->adaptive)
		return rp->window && now <= tat;
	return rp->window && tat > now + rp->tolerance;
}

void st_rl_quota_init(struct st_rl_quota *q, const struct st_rl_params *rp)
{
	q->tat = 0;
	q->used = 0;
	q->quota = rp->quota;
}

/*
 * As the patch: a migration inside the window only counts; one after it
 * opens the next window, counted as its first migration, and sets the
 * quota from how the last window went.  A quota above rp->quota (the knob
 * was lowered) starts from rp->quota.
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

bool st_rl_quota_limited(const struct st_rl_params *rp,
			 const struct st_rl_quota *q, u64 now)
{
	return q->used >= q->quota && st_rl_limited(rp, q->tat, now);
}

/*
 * Every migration spends one interval.  The result is capped at one
 * window ahead so that migrations the limit cannot veto (load balancing)
 * never hold a task for longer than a window.
 */
u64 st_rl_stamp(const struct st_rl_params *rp, u64 tat, u64 now)
{
	u64 next = (tat > now ? tat : now) + rp->interval;

	return next < now + rp->window ? next : now + rp->window;
}

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
	    st_time_before_eq(jnow, st_rl_read_expires(slot)))
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
			q.used = st_read_once(slot->used);
			q.quota = st_read_once(slot->quota);
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

bool st_wake_wide(unsigned int waker_flips, unsigned int wakee_flips,
		  int llc_size)
{
	bool waker_more = waker_flips > wakee_flips;
	unsigned int master = waker_more ? waker_flips : wakee_flips;
	unsigned int slave = waker_more ? wakee_flips : waker_flips;

	return !(slave < (unsigned int)llc_size ||
		 master < slave * (unsigned int)llc_size);
}

/*
 * As cpus_share_cache(): a CPU shares its LLC with itself, and otherwise
 * the scheduler's LLC domain ids decide.  The L2 and SMT masks are taken
 * as the kernel keeps them (a CPU is in its own masks once online).
 */
void st_wake_pair_classify(struct st_wake_pair *w, int this_cpu, int cpu,
			   int this_llc_id, int cpu_llc_id, bool in_l2_mask,
			   bool in_smt_mask)
{
	w->same_cpu = this_cpu == cpu;
	w->share_llc = w->same_cpu || this_llc_id == cpu_llc_id;
	w->share_l2 = in_l2_mask;
	w->share_smt = in_smt_mask;
}

/*
 * Whether the pair counts as sharing cache at @level, i.e. may skip the
 * queued wakeup.  A CPU shares with itself, as in the L2 patch.  A level only
 * narrows the kernel's LLC group, never widens it: CPUs in different
 * scheduler LLC domains (isolcpus, cpuset partitions) stay queued as in
 * stock, whatever the hardware masks say.  "none" leaves each CPU alone in
 * its group: every wakeup to another CPU is queued, which is what
 * ttwu_queue_cond() answers with TTWU_QUEUE_DEFAULT set.
 */
bool st_level_shares(unsigned int level, const struct st_wake_pair *w,
		     u64 auto_llc_max)
{
	if (w->same_cpu)
		return true;
	if (!w->share_llc)
		return false;
	switch (level) {
	case ST_LEVEL_L2:
		return w->share_l2;
	case ST_LEVEL_SMT:
		return w->share_smt;
	case ST_LEVEL_AUTO:
		return w->llc_size <= auto_llc_max || w->share_l2;
	case ST_LEVEL_NONE:
		return false;
	case ST_LEVEL_LLC:
	default:
		return true;
	}
}

/* ttwu_queue_cond() from its cache test on: true = use the wakelist. */
bool st_wake_queue(bool shares, const struct st_wake_pair *w)
{
	if (!shares)
		return true;
	if (w->same_cpu)
		return false;
	return w->target_idle;
}

u64 st_numa_threshold(u64 vma_bytes, unsigned int scan_size_mb,
		      unsigned int percent)
{
	u64 scans = scan_size_mb ? (vma_bytes >> 20) / scan_size_mb : 0;

	return 1 + scans * percent / 100;
}

bool st_numa_renewing(int scan_seq, unsigned int renew)
{
	return renew && scan_seq && !((unsigned int)scan_seq % renew);
}

void st_numa_count_init(struct st_numa_count *c, u64 owner)
{
	c->owner = owner;
	c->scans = 0;
}

/* The count as the patch reads it at a test: its own, renewed or new. */
static void st_numa_count_at_test(struct st_numa_count *c, u64 owner,
				  bool renewing)
{
	if (c->owner != owner || renewing)
		st_numa_count_init(c, owner);
}

bool st_numa_allow(struct st_numa_count *c, u64 owner, bool renewing,
		   bool stock, u64 threshold, bool *by_threshold)
{
	bool allow = stock;

	st_numa_count_at_test(c, owner, renewing);
	*by_threshold = !stock && c->scans <= threshold;
	if (*by_threshold)
		allow = true;
	if (allow)
		c->scans++;
	return allow;
}

void st_numa_count_scan(struct st_numa_count *c, u64 owner, bool renewing)
{
	st_numa_count_at_test(c, owner, renewing);
	c->scans++;
}

u64 st_eevdf_slice(unsigned int mode, u64 base, u64 fixed, u64 latency,
		   unsigned int nr)
{
	u64 hi = base > ST_EEVDF_SLICE_MAX_NS ? base : ST_EEVDF_SLICE_MAX_NS;
	u64 slice;

	switch (mode) {
	case ST_SLICE_FIXED:
		return fixed;
	case ST_SLICE_SCALED:
		slice = latency / (nr ? nr : 1);
		if (slice < base)
			return base;
		return slice > hi ? hi : slice;
	case ST_SLICE_STOCK:
	default:
		return base;
	}
}

u64 st_eevdf_deadline(u64 vruntime, u64 deadline, u64 old_slice,
		      u64 new_slice)
{
	u64 vslice = deadline - vruntime;

	if ((long long)vslice <= 0 || !old_slice)
		return deadline;
	return vruntime + st_mul_div(vslice, new_slice, old_slice);
}

enum st_affine st_wake_affine_idle(const struct st_affine_idle_in *in)
{
	if (in->this_idle && in->share_cache)
		return in->prev_idle ? ST_AFFINE_PREV : ST_AFFINE_THIS;
	if (in->sync && in->this_nr == 1)
		return ST_AFFINE_THIS;
	if (in->prev_idle)
		return ST_AFFINE_PREV;
	return ST_AFFINE_NONE;
}

/* s64 and the comparisons as the kernel writes them */
bool st_wake_affine_weight(const struct st_affine_weight_in *in)
{
	s64 this_eff_load = in->this_load, prev_eff_load;

	if (in->sync) {
		if (in->current_load > (u64)this_eff_load)
			return true;
		this_eff_load -= in->current_load;
	}
	this_eff_load += in->task_load;
	if (in->bias)
		this_eff_load *= 100;
	this_eff_load *= in->prev_cap;

	prev_eff_load = in->prev_load;
	prev_eff_load -= in->task_load;
	if (in->bias)
		prev_eff_load *= 100 + (in->imbalance_pct - 100) / 2;
	prev_eff_load *= in->this_cap;
	if (in->sync)
		prev_eff_load += 1;
	return this_eff_load < prev_eff_load;
}

/* fits_capacity(): util * 1280 < capacity * 1024 */
bool st_util_fits_capacity(u64 cpu_util_est, u64 task_util, u64 capacity)
{
	return (cpu_util_est + task_util) * 1280 < capacity * 1024;
}

static bool st_pb_known(const struct st_prev_bias_in *in, enum st_pb_fact f)
{
	return in->known & (1U << f);
}

/*
 * The patch's steps (policy.h) against S.  Where stock kept P, only step
 * 4 can differ: were T the waker's CPU, stock returned P for being idle,
 * which step 1 keeps; so when P has no room, T is P.
 */
int st_prev_bias_decide(const struct st_prev_bias_in *in)
{
	if (in->new_is_prev) {
		if (!in->recent_ok)
			return ST_PB_STOCK;
		if (!st_pb_known(in, ST_PB_F_PREV_ROOM))
			return -1 - ST_PB_F_PREV_ROOM;
		if (in->prev_room || in->kthread_stack)
			return ST_PB_STOCK;
		if (!st_pb_known(in, ST_PB_F_RECENT_ROOM))
			return -1 - ST_PB_F_RECENT_ROOM;
		return in->recent_room ? ST_PB_RECENT_ROOM : ST_PB_STOCK;
	}
	if (in->share_prev) {
		if (!st_pb_known(in, ST_PB_F_PREV_ROOM))
			return -1 - ST_PB_F_PREV_ROOM;
		if (in->prev_room)
			return ST_PB_KEEP_ROOM;
	}
	if (!st_pb_known(in, ST_PB_F_TARGET))
		return -1 - ST_PB_F_TARGET;
	if (in->target_apart) {
		/* stock returned T: it stands, unless T has no room */
		if (in->new_is_target && !in->share_prev &&
		    (!in->recent_ok || in->recent_is_target))
			return ST_PB_STOCK;
		if (!st_pb_known(in, ST_PB_F_TARGET_ROOM))
			return -1 - ST_PB_F_TARGET_ROOM;
		if (in->target_room)
			return in->new_is_target ? ST_PB_STOCK :
						   ST_PB_TARGET_ROOM;
	}
	/* step 3 returns P, which stock returned too: S is not P here */
	if (in->kthread_stack)
		return ST_PB_STOCK;
	if (in->recent_ok && !in->recent_is_target) {
		if (!st_pb_known(in, ST_PB_F_RECENT_ROOM))
			return -1 - ST_PB_F_RECENT_ROOM;
		if (in->recent_room)
			return in->recent_is_new ? ST_PB_STOCK :
						   ST_PB_RECENT_ROOM;
	}
	if (!in->share_prev)
		return ST_PB_STOCK;
	/* a busy S is the target stock settled for: no idle CPU found */
	if (!st_pb_known(in, ST_PB_F_NEW_IDLE))
		return -1 - ST_PB_F_NEW_IDLE;
	return in->new_idle ? ST_PB_STOCK : ST_PB_KEEP_BUSY;
}

s64 st_eevdf_request_left(const struct st_ev_request *r)
{
	u64 v = r->deadline - r->vruntime;
	bool neg = (s64)v < 0;
	u64 left = st_mul_shr(neg ? -v : v, r->weight, ST_NICE_0_LOAD_SHIFT);

	if (left > S64_MAX)
		left = S64_MAX;
	return neg ? -(s64)left : (s64)left;
}

bool st_eevdf_renewed(const struct st_ev_request *before,
		      const struct st_ev_request *after, u64 slice)
{
	s64 ran = (s64)(after->sum_exec - before->sum_exec);
	s64 gained;

	/* update_curr() calls update_deadline() only for time run */
	if (ran <= 0 || after->deadline == before->deadline)
		return false;
	gained = st_eevdf_request_left(after) - st_eevdf_request_left(before) + ran;
	return gained > (s64)(slice / 2);
}
