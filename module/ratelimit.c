// SPDX-License-Identifier: GPL-2.0
/*
 * ratelimit: "sched: Rate limit migrations to 1 per 2ms per task"
 * (Mathieu Desnoyers, seed 000),
 * https://lore.kernel.org/lkml/20230905171105.1005672-2-mathieu.desnoyers@efficios.com/
 * and with ratelimit_mode=adaptive its patch 2/2, "sched: Implement
 * adaptative rate limiting of task migrations",
 * https://lore.kernel.org/lkml/20230905171105.1005672-3-mathieu.desnoyers@efficios.com/
 * A limited task stays on prev_cpu when its wakeup would be affine.  This
 * file is the rate limit's per-task state and its decisions; the hooks
 * are select_rq.c's.  Details, and the patches hunk by hunk:
 * docs/features/ratelimit.md.
 *
 * Differs from the patch:
 *  - the stamp and counts live in a lossy table indexed by task pointer,
 *    and a task whose slot another took is not limited until it migrates
 *    again: no field can be added to task_struct;
 *  - want_affine and record_wakee() are the module's copies, made before
 *    the original runs: both are inlined into select_task_rq_fair();
 *  - under energy-aware scheduling every wakeup is left to stock: the
 *    patch tests after find_energy_efficient_cpu(), whose answer a
 *    wrapper cannot see;
 *  - the in-window count saturates at 65535, a u16 of the 32-byte slot
 *    (the module's choice): no decision differs, the quota is at most 1000.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/hash.h>
#include <linux/jiffies.h>
#include <linux/jump_label.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/vmalloc.h>

#include "ratelimit.h"
#include "sched_tune.h"
#include "scope.h"
#include "test_inject.h"
#include "kernel/ksym.h"
#include "kernel/layout.h"

/* struct st_rl_slot and its protocol: policy/ratelimit.h */
struct st_rl_slot *st_rl_table;
/* the table's release against debugfs's reader (st_rl_table_show()) */
static DEFINE_MUTEX(st_rl_table_lock);
int __percpu *st_sd_llc_size;
const struct static_key *st_sched_energy_present = &st_key_never;
/* kernel/sched/clock.c's; absent, both clocks are read */
static const struct static_key *st_sched_clock_stable = &st_key_never;

ST_KCALL_DEFINE(st_orig_migrate_task_rq_fair, st_migrate_task_rq_fair);

/**
 * st_migrate_task_rq_fair() - The rate limit's migrate_task_rq_fair hook.
 * @p: the migrating task
 * @new_cpu: where it goes
 *
 * Stamps @p, as the patch's migrate_task_rq_fair() does, then runs the
 * original.
 *
 * Context: Under the runqueue lock, IRQs off (the original's).
 */
void st_migrate_task_rq_fair(struct task_struct *p, int new_cpu)
{
	const struct st_config *cfg = st_config_get();
	u64 now, now_new;

	/*
	 * Another task of the same slot being stamped on another CPU makes
	 * us skip ours: the table is lossy, and no lock spins here.  The
	 * tat is at most a window ahead of now (st_rl_stamp()).  Either
	 * that or taking the slot of a task whose stamp still held leaves
	 * a task unlimited: ratelimit_stamps_lost.
	 */
	if (cfg && cfg->rl.window && st_in_scope(cfg, ST_FEAT_RATELIMIT, p)) {
		unsigned long jnow;
		unsigned int ret;

		st_inject_stamp(p, cfg);
		/*
		 * Patch 1/2 reads the new CPU's clock; patch 2/2 the task's
		 * own CPU's (task_cpu() is still the old one here), and the
		 * new one's too only when per-CPU clocks may differ.
		 */
		if (!cfg->rl.adaptive) {
			now = sched_clock_cpu(new_cpu);
			now_new = now;
		} else {
			now = sched_clock_cpu(task_cpu(p));
			now_new = st_key_on_found(st_sched_clock_stable) ?
				  now : sched_clock_cpu(new_cpu);
		}
		jnow = jiffies;
		ret = st_rl_slot_stamp(st_rl_slot(p), &cfg->rl, st_rl_owner(p),
				       now, now_new, jnow,
				       jnow + cfg->rl_window_jiffies);
		if (ret & ST_RL_EVICTED)
			st_stat_inc(ST_STAT_RL_STAMPS_LOST);
		switch (ret & ST_RL_STAMP_MASK) {
		case ST_RL_HALVED:
			st_stat_inc(ST_STAT_RL_QUOTA_HALVED);
			trace_sched_tune_ratelimit_quota(p, task_cpu(p),
							 new_cpu, true);
			fallthrough;
		case ST_RL_STAMPED:
			st_stat_inc(ST_STAT_RL_MIGRATIONS_STAMPED);
			break;
		case ST_RL_REPLENISHED:
			st_stat_inc(ST_STAT_RL_QUOTA_REPLENISHED);
			trace_sched_tune_ratelimit_quota(p, task_cpu(p),
							 new_cpu, false);
			st_stat_inc(ST_STAT_RL_MIGRATIONS_STAMPED);
			break;
		case ST_RL_BUSY:
			st_stat_inc(ST_STAT_RL_STAMPS_LOST);
			break;
		}
	}
	st_kcall(st_orig_migrate_task_rq_fair)(p, new_cpu);
}

/**
 * st_rl_release() - Free the table st_rl_probe() allocated.
 *
 * Context: Process context; no hook of ours runs.
 */
void st_rl_release(void)
{
	mutex_lock(&st_rl_table_lock);
	vfree(st_rl_table);
	st_rl_table = NULL;
	mutex_unlock(&st_rl_table_lock);
}

/**
 * st_rl_table_show() - debugfs sched_tune/ratelimit_table, a line.
 * @buf: where the line goes
 * @size: the room in @buf
 *
 * "slots N live L longest_ms M delaying D full F": the stamps whose
 * expiry is still ahead, the furthest of them, the stamps test_stamp_delay
 * holds now and its delays that ran their whole length.  Read without
 * the slot protocol: a reader's snapshot.
 *
 * Context: Takes st_rl_table_lock.
 * Return: the number of bytes written to @buf.
 */
int st_rl_table_show(char *buf, size_t size)
{
	unsigned long now = jiffies, left, longest = 0;
	unsigned int live = 0;
	int i, n, delaying, full;

	mutex_lock(&st_rl_table_lock);
	if (!st_rl_table) {
		mutex_unlock(&st_rl_table_lock);
		return scnprintf(buf, size, "no table: ratelimit is unsupported\n");
	}
	for (i = 0; i < 1 << ST_RL_TABLE_BITS; i++) {
		const struct st_rl_slot *slot = &st_rl_table[i];

		if (!st_rl_read_owner(slot) ||
		    !time_before_eq(now, st_rl_read_expires(slot)))
			continue;
		live++;
		left = st_rl_read_expires(slot) - now;
		if (left > longest)
			longest = left;
	}
	mutex_unlock(&st_rl_table_lock);
	delaying = st_inject_delaying(&full);
	n = scnprintf(buf, size,
		      "slots %d live %u longest_ms %u delaying %d full %d\n",
		      1 << ST_RL_TABLE_BITS, live, jiffies_to_msecs(longest),
		      delaying, full);
	return n;
}

/**
 * st_rl_probe() - Resolve what the rate limit needs besides its hooks.
 * @f: the rate limit's feature, whose hooks select_rq.c resolved
 *
 * Return: 0, or -EOPNOTSUPP with @f->reason set.
 */
int st_rl_probe(struct st_feature *f)
{
	unsigned long addr;

	addr = st_ksym("sd_llc_size");
	if (!addr) {
		f->reason = "per-CPU sd_llc_size is missing";
		return -EOPNOTSUPP;
	}
	st_sd_llc_size = (int __percpu *)addr;
	/* absent without CONFIG_ENERGY_MODEL: EAS then never runs */
	st_sched_energy_present = st_ksym_key_or_never("sched_energy_present");
	st_sched_clock_stable = st_ksym_key_or_never("__sched_clock_stable");

	mutex_lock(&st_rl_table_lock);
	st_rl_table = vzalloc(sizeof(*st_rl_table) << ST_RL_TABLE_BITS);
	mutex_unlock(&st_rl_table_lock);
	if (!st_rl_table) {
		f->reason = "out of memory";
		return -EOPNOTSUPP;
	}
	return 0;
}

/**
 * st_rl_status() - Why the rate limit's hooks have nothing to do.
 * @idle: set when they have nothing to do at all
 *
 * The stock code places every wakeup these modes see.
 *
 * Return: the reason, a note on what the hooks skip, or NULL.
 */
const char *st_rl_status(bool *idle)
{
	*idle = true;
	if (st_rl_eas_enabled())
		return "energy-aware scheduling is on: the stock code places wakeups by energy and the rate limit stands aside";
	switch (st_layout_scx()) {
	case ST_SCX_ALL:
		return "a sched_ext scheduler runs every task: no wakeup reaches select_task_rq_fair";
	case ST_SCX_SOME:
		*idle = false;
		return "a sched_ext scheduler is loaded: its tasks bypass select_task_rq_fair and the rate limit";
	default:
		break;
	}
	/* hooked for the features it hosts, with no window of its own */
	if (!st_knob_value(ST_KNOB_RL_WINDOW_NS) &&
	    !st_knob_value(ST_KNOB_PASSTHROUGH))
		return "ratelimit_window_ns=0: select_task_rq_fair is wrapped for prev_bias or sync_short only";
	*idle = false;
	return NULL;
}

/**
 * st_rl_wanted() - Whether these knobs ask for the rate limit.
 * @cfg: the configuration
 *
 * Return: true for a window other than 0.
 */
bool st_rl_wanted(const struct st_config *cfg)
{
	return cfg->knob[ST_KNOB_RL_WINDOW_NS];
}

/**
 * st_rl_forget() - Clear every stamp, before the hooks go in.
 *
 * Stamps of an earlier window would hold tasks for its length.  Before
 * the hooks go in, nothing else touches the table; after, a stamp may be
 * under way in any slot, so each is cleared as a writer clears it
 * (st_rl_reconfigure()).
 */
void st_rl_forget(void)
{
	memset(st_rl_table, 0, sizeof(*st_rl_table) << ST_RL_TABLE_BITS);
}

static void st_rl_forget_live(void)
{
	u32 seq;
	int i;

	/*
	 * A migrate hook that read the old configuration may still be on
	 * its way to a stamp with the old window, which would land after
	 * the wipe.  The new one is published before ->reconfigure runs
	 * (st_publish()), and the hooks read it with rcu_dereference_sched()
	 * in migrate_task_rq_fair() (rq lock held) and select_task_rq_fair()
	 * (p->pi_lock held), both with IRQs off: an RCU read side, which
	 * synchronize_rcu() waits for (one RCU flavour since 5.0).  After
	 * it, every stamp uses the new configuration.
	 */
	synchronize_rcu();
	for (i = 0; i < 1 << ST_RL_TABLE_BITS; i++) {
		while (!st_rl_write_begin(&st_rl_table[i], &seq))
			cpu_relax();
		st_rl_write_owner(&st_rl_table[i], 0);
		st_rl_write_end(&st_rl_table[i], seq);
		if (!(i & 1023))
			cond_resched();
	}
}

/**
 * st_rl_reconfigure() - Forget every stamp when the limit's terms change.
 * @old: the configuration before
 * @cfg: the one published
 *
 * Context: Process context, hooks installed; sleeps.
 */
void st_rl_reconfigure(const struct st_config *old,
		       const struct st_config *cfg)
{
	if (old->rl.window != cfg->rl.window ||
	    old->rl.interval != cfg->rl.interval ||
	    old->rl.adaptive != cfg->rl.adaptive ||
	    old->rl.quota != cfg->rl.quota)
		st_rl_forget_live();
}
