// SPDX-License-Identifier: GPL-2.0
/*
 * Pure policy of sched_tune, shared by the module and the unit tests.
 */
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/string.h>

#include "policy.h"

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

/**
 * st_knob_lookup() - The knob of a name.
 * @name: the knob's name, as knobs.h spells it
 *
 * Return: the knob's enum st_knob_id, or -EINVAL for no such knob.
 */
int st_knob_lookup(const char *name)
{
	int i;

	for (i = 0; i < ST_NR_KNOBS; i++)
		if (!strcmp(st_knobs[i].name, name))
			return i;
	return -EINVAL;
}

/**
 * st_knob_parse() - Parse what is written to a knob.
 * @d: the knob
 * @buf: the bytes written, not NUL-terminated
 * @len: their number
 * @val: set to the value (for a knob of names, the name's index)
 *
 * Accepts exactly what Documentation/ABI/testing/sysfs-kernel-sched_tune
 * documents: a decimal number (or one of the knob's names), optionally
 * followed by a single newline.
 *
 * Return: 0; -EINVAL for anything else, signs, blanks and hex included;
 * -ERANGE for a number outside the knob's range, or one that overflows
 * u64.
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

/**
 * st_knob_format() - A knob's value as its file shows it, a line.
 * @d: the knob
 * @val: its value
 * @buf: where the line goes
 * @size: the room in @buf
 *
 * A number in decimal; for a knob of names, every name, the one of @val
 * in brackets.
 *
 * Return: the number of bytes written to @buf.
 */
int st_knob_format(const struct st_knob_desc *d, u64 val, char *buf,
		   size_t size)
{
	size_t n = 0;
	unsigned int i;

	if (!d->choices)
		return scnprintf(buf, size, "%llu\n", (unsigned long long)val);

	for (i = 0; i < d->nr_choices && n < size; i++)
		n += scnprintf(buf + n, size - n, i == val ? "%s[%s]" : "%s%s",
			       i ? " " : "", d->choices[i]);
	if (n < size)
		n += scnprintf(buf + n, size - n, "\n");
	return n;
}

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

/**
 * st_wake_wide() - wake_wide() of kernel/sched/fair.c, on its inputs.
 * @waker_flips: the waker's wakee_flips
 * @wakee_flips: the wakee's
 * @llc_size: sd_llc_size of the waker's CPU
 *
 * Return: true when both flip counts reach @llc_size and the larger is at
 * least @llc_size times the smaller.
 */
bool st_wake_wide(unsigned int waker_flips, unsigned int wakee_flips,
		  int llc_size)
{
	bool waker_more = waker_flips > wakee_flips;
	unsigned int master = waker_more ? waker_flips : wakee_flips;
	unsigned int slave = waker_more ? wakee_flips : waker_flips;

	return !(slave < (unsigned int)llc_size ||
		 master < slave * (unsigned int)llc_size);
}

/**
 * st_wake_pair_classify() - Fill the topology part of a wake pair.
 * @w: the pair, a wakeup from @this_cpu to @cpu
 * @this_cpu: the waker's CPU
 * @cpu: the target CPU
 * @this_llc_id: sd_llc_id of @this_cpu
 * @cpu_llc_id: sd_llc_id of @cpu
 * @in_l2_mask: whether @cpu is in @this_cpu's L2 (cluster) mask; false for
 *              a mask not allocated
 * @in_smt_mask: whether @cpu is in @this_cpu's SMT sibling mask; false for
 *               a mask not allocated
 *
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

/**
 * st_level_shares() - Whether a wake pair counts as sharing cache at a level.
 * @level: an enum st_cache_level
 * @w: the pair
 * @auto_llc_max: for ST_LEVEL_AUTO, the largest LLC that shares whole; in
 *                a larger one only an L2 does
 *
 * A pair that shares may skip the queued wakeup.  A CPU shares with
 * itself, as in the L2 patch.  A level only
 * narrows the kernel's LLC group, never widens it: CPUs in different
 * scheduler LLC domains (isolcpus, cpuset partitions) stay queued as in
 * stock, whatever the hardware masks say.  "none" leaves each CPU alone in
 * its group: every wakeup to another CPU is queued, which is what
 * ttwu_queue_cond() answers with TTWU_QUEUE_DEFAULT set.
 *
 * Return: true if the pair shares cache at @level.
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

/**
 * st_wake_queue() - ttwu_queue_cond() from its cache test on.
 * @shares: whether the pair shares cache (st_level_shares())
 * @w: the pair
 *
 * Return: true to use the wakelist.
 */
bool st_wake_queue(bool shares, const struct st_wake_pair *w)
{
	if (!shares)
		return true;
	if (w->same_cpu)
		return false;
	return w->target_idle;
}

/**
 * st_numa_threshold() - The NUMA scans an unaccessed VMA may have.
 * @vma_bytes: the VMA's size
 * @scan_size_mb: the size of one scan, in MB
 * @percent: the share of the scans needed to cover the VMA once
 *
 * The disjoint-VMA patch (numa_scan.c): a task may scan a VMA it never
 * faulted in while the VMA's scan count stays at or under this many
 * scans.  A @percent of 50 is the patch's 1 + (vma_MB / scan_size_MB) / 2.
 *
 * Return: 1 + @percent of the scans needed to cover the VMA once.
 */
u64 st_numa_threshold(u64 vma_bytes, unsigned int scan_size_mb,
		      unsigned int percent)
{
	u64 scans = scan_size_mb ? (vma_bytes >> 20) / scan_size_mb : 0;

	return 1 + scans * percent / 100;
}

/**
 * st_numa_renewing() - Whether a scan sequence renews every VMA's count.
 * @scan_seq: the mm's numa_scan_seq
 * @renew: the patch's 16 (DISJOINT_VMA_SCAN_RENEW_THRESH); 0 never renews
 *
 * Return: the patch's "mm->numa_scan_seq && !(mm->numa_scan_seq % 16)",
 * with @renew for its 16.
 */
bool st_numa_renewing(int scan_seq, unsigned int renew)
{
	return renew && scan_seq && !((unsigned int)scan_seq % renew);
}

/**
 * st_numa_count_init() - The count of a VMA whose NUMA state is new.
 * @c: the count
 * @owner: names the VMA
 *
 * The NUMA state was just allocated: no scan yet.
 */
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

/**
 * st_numa_allow() - The access test of one VMA in task_numa_work().
 * @c: the VMA's count
 * @owner: names the VMA; a new owner starts the count again
 * @renewing: a renewing sequence: the count is 0 at every test, as the
 *            patch resets it before each
 * @stock: the kernel's verdict
 * @threshold: the count up to which an unaccessed VMA is still scanned
 * @by_threshold: set to whether only the threshold allowed the scan
 *
 * Every scan allowed, by either rule, counts.
 *
 * Return: whether to scan the VMA.
 */
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

/**
 * st_numa_count_scan() - Count a scan that no access test judged.
 * @c: the VMA's count
 * @owner: names the VMA; a new owner starts the count again
 * @renewing: a renewing sequence, as for st_numa_allow()
 *
 * task_numa_work()'s forced scan of a VMA when every other was skipped:
 * counted, as the patch counts every scan.
 */
void st_numa_count_scan(struct st_numa_count *c, u64 owner, bool renewing)
{
	st_numa_count_at_test(c, owner, renewing);
	c->scans++;
}

/**
 * st_eevdf_slice() - The request the running task gets under a slice mode.
 * @mode: an enum st_eevdf_slice_mode
 * @base: the kernel's base_slice_ns
 * @fixed: the request of ST_SLICE_FIXED
 * @latency: what ST_SLICE_SCALED shares
 * @nr: the entities queued on the task's runqueue, the task itself counted
 *
 * Return: the request in ns: @base for stock; @fixed; or for scaled
 * @latency shared by the @nr entities, CFS-style, never below @base and
 * never above the larger of @base and ST_EEVDF_SLICE_MAX_NS.
 */
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

/**
 * st_eevdf_deadline() - The deadline of a request of another length.
 * @vruntime: the entity's vruntime
 * @deadline: its deadline, just set to @vruntime plus its request of
 *            @old_slice in virtual time (vd = ve + r / w)
 * @old_slice: that request, in ns
 * @new_slice: the new request, in ns
 *
 * The virtual length scales with the request, so the entity's weight is
 * not needed.
 *
 * Return: the deadline of @new_slice; @deadline unchanged when it is not
 * ahead of @vruntime or @old_slice is 0.
 */
u64 st_eevdf_deadline(u64 vruntime, u64 deadline, u64 old_slice,
		      u64 new_slice)
{
	u64 vslice = deadline - vruntime;

	if ((long long)vslice <= 0 || !old_slice)
		return deadline;
	return vruntime + mul_u64_u64_div_u64(vslice, new_slice, old_slice);
}

/**
 * st_wake_affine_idle() - wake_affine_idle() of kernel/sched/fair.c.
 * @in: the facts of the waker's CPU (this) and the wakee's previous one
 *
 * Return: the CPU it chooses, or ST_AFFINE_NONE to let
 * st_wake_affine_weight() decide.
 */
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

/**
 * st_wake_affine_weight() - wake_affine_weight() of kernel/sched/fair.c.
 * @in: the loads and capacities of the waker's CPU and the wakee's previous
 *      one
 *
 * s64 and the comparisons as the kernel writes them.
 *
 * Return: true when the waker's CPU wins by load.
 */
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

/**
 * st_util_fits_capacity() - fits_capacity(), 20% of a CPU's capacity free.
 * @cpu_util_est: the runnable utilization on the CPU, its cfs_rq's util_est
 * @task_util: the waking task's
 * @capacity: the CPU's capacity
 *
 * The test of UTIL_FITS_CAPACITY's task_fits_remaining_cpu_capacity():
 * util * 1280 < capacity * 1024.
 *
 * Return: whether @cpu_util_est plus @task_util fits @capacity.
 */
bool st_util_fits_capacity(u64 cpu_util_est, u64 task_util, u64 capacity)
{
	return (cpu_util_est + task_util) * 1280 < capacity * 1024;
}

static bool st_pb_known(const struct st_prev_bias_in *in, enum st_pb_fact f)
{
	return in->known & (1U << f);
}

/**
 * st_prev_bias_decide() - prev_bias's verdict, or the fact it needs next.
 * @in: the wakeup's facts, those learnt so far marked in @in->known
 *
 * The patch's steps (policy.h) against S.  Where stock kept P, only step
 * 4 can differ: were T the waker's CPU, stock returned P for being idle,
 * which step 1 keeps; so when P has no room, T is P.
 *
 * Return: an enum st_prev_bias_verdict (>= 0), or -1 - the enum st_pb_fact
 * it needs next.
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

/**
 * st_eevdf_request_left() - What is left of an entity's request.
 * @r: the request
 *
 * A reweight keeps it (d' - v' = (d - v) * w / w'), running takes the
 * time run from it, a renewal resets it to the slice.
 *
 * Return: (deadline - vruntime) * weight / NICE_0_LOAD, in ns of the
 * entity's own run time, negative once used up.
 */
s64 st_eevdf_request_left(const struct st_ev_request *r)
{
	u64 v = r->deadline - r->vruntime;
	bool neg = (s64)v < 0;
	u64 left = mul_u64_u64_shr(neg ? -v : v, r->weight,
				   ST_NICE_0_LOAD_SHIFT);

	if (left > S64_MAX)
		left = S64_MAX;
	return neg ? -(s64)left : (s64)left;
}

/**
 * st_eevdf_renewed() - Whether a tick renewed an entity's request.
 * @before: the request before the tick
 * @after: the request the tick left
 * @slice: the request a renewal gives, in ns
 *
 * Renewed: update_deadline() found it used up and gave a new one of
 * @slice ns, rather than only running it down or moving its deadline by a
 * reweight (7.3's reweight_eevdf() after the tick, 6.12's reweight_entity()
 * of a group entity).  Without a renewal, what is left after the tick is
 * what was left before less the time run; a renewal leaves a whole
 * request, which is at least that plus the request since it happens only
 * once nothing is left.  Half a request tells the two apart.
 *
 * Return: true if the tick renewed the request.
 */
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
