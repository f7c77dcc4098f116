// SPDX-License-Identifier: GPL-2.0
/*
 * numa_scan: "sched/numa: Fix disjoint set vma scan regression"
 * (Raghavendra K T, seed 003),
 * https://lore.kernel.org/all/b0a8f3490b491d4fd003c3e0493e940afaea5f2c.1684228065.git.raghavendra.kt@amd.com/
 * A VMA the task never faulted in is still scanned while its scan count
 * is at most a threshold.  task_numa_work() is replaced by
 * st_task_numa_work(), a copy of the running series' own (6.12, 7.3),
 * rule for rule, that calls the kernel's helpers through static calls.
 * Details, and the patch hunk by hunk: docs/features/numa_scan.md.
 *
 * Differs from the patch:
 *  - task_numa_work() is replaced whole: vma_is_accessed() is inlined;
 *  - the count lives in a lossy table indexed by VMA, a VMA whose slot
 *    another took counts from 0: vma_numab_state has no scan_counter;
 *  - every rule of Debian's vma_is_accessed() stands, the threshold adds
 *    a yes: its numa_scan_seq rule is per VMA, not the one the patch drops;
 *  - sched_skip_vma_numa and (7.3) sched_skip_cpuset_numa do not fire:
 *    those tracepoints are not exported to modules;
 *  - unsupported on 6.1: it has no vma->numab_state.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/hash.h>
#include <linux/hugetlb.h>
#include <linux/mempolicy.h>
#include <linux/mm.h>
#include <linux/mmap_lock.h>
#include <linux/rcupdate_wait.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/task_work.h>
#include <linux/vmalloc.h>

#include "sched_tune.h"
#include "scope.h"
#include "sched_tune_trace.h"
#include "policy/numa_scan.h"
#include "hook/fhook.h"
#include "kernel/ksym.h"
#include "kernel/layout.h"

#ifdef ST_HAVE_VMA_NUMAB_STATE

#define ST_NS_TABLE_BITS 14

static struct st_numa_count *st_ns_table;
static atomic_t st_ns_inflight = ATOMIC_INIT(0);
static unsigned int *st_scan_delay;	/* sysctl_numa_balancing_scan_delay */
static unsigned int *st_scan_size;	/* sysctl_numa_balancing_scan_size */
static const struct static_key *st_numa_balancing;	/* sched_numa_balancing */
static const struct static_key *st_cpusets_enabled;	/* cpusets_enabled_key */
static bool st_ns_cpuset_rule;	/* 7.3: skip tasks confined to one node */

static void st_task_numa_work(struct callback_head *work);
typedef unsigned int st_task_scan_fn(struct task_struct *p);

ST_KCALL_DEFINE(st_task_scan_max, st_task_scan_fn);
ST_KCALL_DEFINE(st_task_scan_start, st_task_scan_fn);
ST_KCALL_DEFINE(st_vma_migratable, vma_migratable);
ST_KCALL_DEFINE(st_vma_policy_mof, vma_policy_mof);
ST_KCALL_DEFINE(st_change_prot_numa, change_prot_numa);

static struct st_fhook st_ns_hooks[] = {
	ST_FHOOK(task_numa_work, st_task_numa_work),
};

#define VMA_PID_RESET_PERIOD (4 * READ_ONCE(*st_scan_delay))

static struct st_numa_count *st_ns_slot(struct vm_area_struct *vma,
					u64 *owner)
{
	*owner = (unsigned long)vma ^ vma->vm_start ^
		 (unsigned long)vma->vm_mm;
	return &st_ns_table[hash_ptr(vma, ST_NS_TABLE_BITS)];
}

/* vma_is_accessed() of 6.12.95 to 7.3.4, unchanged. */
static bool st_vma_is_accessed_stock(struct mm_struct *mm,
				     struct vm_area_struct *vma)
{
	unsigned long pids;

	if ((READ_ONCE(current->mm->numa_scan_seq) -
	     vma->numab_state->start_scan_seq) < 2)
		return true;

	pids = vma->numab_state->pids_active[0] |
	       vma->numab_state->pids_active[1];
	if (test_bit(hash_32(current->pid, ilog2(BITS_PER_LONG)), &pids))
		return true;

	if (mm->numa_scan_offset > vma->vm_start)
		return true;

	if (READ_ONCE(mm->numa_scan_seq) >
	    (vma->numab_state->prev_scan_seq + get_nr_threads(current)))
		return true;

	return false;
}

/*
 * The knobs now: the threshold's percent (0: stock, no count kept),
 * whether this scan sequence renews every count, and passthrough.
 */
static unsigned int st_ns_knobs(struct mm_struct *mm, bool *renewing,
				bool *passthrough)
{
	const struct st_config *cfg;
	unsigned int percent;

	rcu_read_lock();
	cfg = rcu_dereference(st_config);
	/* the scan runs in the context of the task whose memory it scans */
	percent = cfg && st_in_scope(cfg, ST_FEAT_NUMA_SCAN, current) ?
		  cfg->knob[ST_KNOB_NUMA_THRESHOLD] : 0;
	*renewing = cfg && st_numa_renewing(READ_ONCE(mm->numa_scan_seq),
					    cfg->knob[ST_KNOB_NUMA_RENEW]);
	*passthrough = cfg && st_passthrough(cfg);
	rcu_read_unlock();
	return percent;
}

/* A lossy, racy table: a torn slot only restarts one count. */
static void st_ns_read(const struct st_numa_count *slot, struct st_numa_count *c)
{
	c->owner = READ_ONCE(slot->owner);
	c->scans = READ_ONCE(slot->scans);
}

static void st_ns_write(struct st_numa_count *slot, const struct st_numa_count *c)
{
	WRITE_ONCE(slot->owner, c->owner);
	WRITE_ONCE(slot->scans, c->scans);
}

/*
 * The stock test, then the patch's (policy/numa_scan.c): a VMA not accessed by this
 * task is still scanned while its scan count is under the threshold.
 */
static bool st_vma_is_accessed(struct mm_struct *mm,
			       struct vm_area_struct *vma)
{
	bool stock = st_vma_is_accessed_stock(mm, vma);
	bool allow, by_threshold, passthrough, renewing;
	struct st_numa_count *slot, c;
	unsigned int percent;
	u64 owner, threshold;

	st_stat_inc(ST_STAT_NUMA_VMA_CHECKED);
	percent = st_ns_knobs(mm, &renewing, &passthrough);
	if (!percent)
		return stock;

	slot = st_ns_slot(vma, &owner);
	st_ns_read(slot, &c);
	threshold = st_numa_threshold(vma->vm_end - vma->vm_start,
				      READ_ONCE(*st_scan_size), percent);
	allow = st_numa_allow(&c, owner, renewing, stock, threshold,
			      &by_threshold);
	st_ns_write(slot, &c);
	if (passthrough)
		return stock;
	if (by_threshold) {
		st_stat_inc(ST_STAT_NUMA_VMA_ALLOWED_BY_THRESHOLD);
		trace_sched_tune_numa_scan(current, vma->vm_start,
					   vma->vm_end);
	} else if (!allow) {
		st_stat_inc(ST_STAT_NUMA_VMA_SKIPPED);
	}
	return allow;
}

/* A forced scan (no access test) is a scan of the VMA all the same. */
static void st_vma_forced_scan(struct mm_struct *mm, struct vm_area_struct *vma)
{
	struct st_numa_count *slot, c;
	bool renewing, passthrough;
	u64 owner;

	if (!st_ns_knobs(mm, &renewing, &passthrough))
		return;
	slot = st_ns_slot(vma, &owner);
	st_ns_read(slot, &c);
	st_numa_count_scan(&c, owner, renewing);
	st_ns_write(slot, &c);
}

/* The patch zeroes scan_counter where task_numa_work allocates the state. */
static void st_vma_state_new(struct vm_area_struct *vma)
{
	struct st_numa_count *slot, c;
	u64 owner;

	slot = st_ns_slot(vma, &owner);
	st_numa_count_init(&c, owner);
	st_ns_write(slot, &c);
}

/* 7.3: memory pinned to one node by cpuset.mems cannot migrate. */
static bool st_task_confined_to_one_node(struct task_struct *p)
{
#ifdef CONFIG_CPUSETS
	return st_key_on(st_cpusets_enabled) &&
	       nodes_weight(p->mems_allowed) == 1;
#else
	return false;
#endif
}

static void st_reset_ptenuma_scan(struct task_struct *p)
{
	WRITE_ONCE(p->mm->numa_scan_seq, READ_ONCE(p->mm->numa_scan_seq) + 1);
	p->mm->numa_scan_offset = 0;
}

/* task_numa_work() of the gate's series, but for the access test. */
static void st_task_numa_work_copy(struct callback_head *work)
{
	unsigned long migrate, next_scan, now = jiffies;
	struct task_struct *p = current;
	struct mm_struct *mm = p->mm;
	u64 runtime = p->se.sum_exec_runtime;
	struct vm_area_struct *vma;
	unsigned long start, end;
	unsigned long nr_pte_updates = 0;
	long pages, virtpages;
	struct vma_iterator vmi;
	bool vma_pids_skipped;
	bool vma_pids_forced = false;

	work->next = work;
	if (p->flags & PF_EXITING)
		return;

	if (st_ns_cpuset_rule && st_task_confined_to_one_node(p))
		return;

	if (!mm->numa_next_scan) {
		mm->numa_next_scan = now +
			msecs_to_jiffies(READ_ONCE(*st_scan_delay));
	}

	migrate = mm->numa_next_scan;
	if (time_before(now, migrate))
		return;

	if (p->numa_scan_period == 0) {
		p->numa_scan_period_max = st_kcall(st_task_scan_max)(p);
		p->numa_scan_period = st_kcall(st_task_scan_start)(p);
	}

	next_scan = now + msecs_to_jiffies(p->numa_scan_period);
	if (!try_cmpxchg(&mm->numa_next_scan, &migrate, next_scan))
		return;

	p->node_stamp += 2 * TICK_NSEC;

	pages = READ_ONCE(*st_scan_size);
	pages <<= 20 - PAGE_SHIFT;
	virtpages = pages * 8;
	if (!pages)
		return;

	if (!mmap_read_trylock(mm))
		return;

	vma_pids_skipped = false;

retry_pids:
	start = mm->numa_scan_offset;
	vma_iter_init(&vmi, mm, start);
	vma = vma_next(&vmi);
	if (!vma) {
		st_reset_ptenuma_scan(p);
		start = 0;
		vma_iter_set(&vmi, start);
		vma = vma_next(&vmi);
	}

	for (; vma; vma = vma_next(&vmi)) {
		if (!st_kcall(st_vma_migratable)(vma) ||
		    !st_kcall(st_vma_policy_mof)(vma) ||
		    is_vm_hugetlb_page(vma) || (vma->vm_flags & VM_MIXEDMAP))
			continue;

		if (!vma->vm_mm ||
		    (vma->vm_file &&
		     (vma->vm_flags & (VM_READ | VM_WRITE)) == (VM_READ)))
			continue;

		if (!vma_is_accessible(vma))
			continue;

		if (!vma->numab_state) {
			struct vma_numab_state *ptr;

			ptr = kzalloc(sizeof(*ptr), GFP_KERNEL);
			if (!ptr)
				continue;

			if (cmpxchg(&vma->numab_state, NULL, ptr)) {
				kfree(ptr);
				continue;
			}

			vma->numab_state->start_scan_seq = mm->numa_scan_seq;
			vma->numab_state->next_scan = now +
				msecs_to_jiffies(READ_ONCE(*st_scan_delay));
			vma->numab_state->pids_active_reset =
				vma->numab_state->next_scan +
				msecs_to_jiffies(VMA_PID_RESET_PERIOD);
			vma->numab_state->prev_scan_seq = mm->numa_scan_seq - 1;
			st_vma_state_new(vma);
		}

		if (mm->numa_scan_seq &&
		    time_before(jiffies, vma->numab_state->next_scan))
			continue;

		if (mm->numa_scan_seq &&
		    time_after(jiffies, vma->numab_state->pids_active_reset)) {
			vma->numab_state->pids_active_reset =
				vma->numab_state->pids_active_reset +
				msecs_to_jiffies(VMA_PID_RESET_PERIOD);
			vma->numab_state->pids_active[0] =
				READ_ONCE(vma->numab_state->pids_active[1]);
			vma->numab_state->pids_active[1] = 0;
		}

		if (vma->numab_state->prev_scan_seq == mm->numa_scan_seq) {
			mm->numa_scan_offset = vma->vm_end;
			continue;
		}

		if (!vma_pids_forced && !st_vma_is_accessed(mm, vma)) {
			vma_pids_skipped = true;
			continue;
		}
		if (vma_pids_forced)
			st_vma_forced_scan(mm, vma);

		do {
			start = max(start, vma->vm_start);
			end = ALIGN(start + (pages << PAGE_SHIFT), HPAGE_SIZE);
			end = min(end, vma->vm_end);
			nr_pte_updates = st_kcall(st_change_prot_numa)(vma,
								       start,
								       end);
			if (nr_pte_updates)
				pages -= (end - start) >> PAGE_SHIFT;
			virtpages -= (end - start) >> PAGE_SHIFT;

			start = end;
			if (pages <= 0 || virtpages <= 0)
				goto out;

			cond_resched();
		} while (end != vma->vm_end);

		vma->numab_state->prev_scan_seq = mm->numa_scan_seq;

		if (vma_pids_forced)
			break;
	}

	if (!vma && !vma_pids_forced && vma_pids_skipped) {
		vma_pids_forced = true;
		goto retry_pids;
	}

out:
	if (vma)
		mm->numa_scan_offset = start;
	else
		st_reset_ptenuma_scan(p);
	mmap_read_unlock(mm);

	if (unlikely(p->se.sum_exec_runtime != runtime)) {
		u64 diff = p->se.sum_exec_runtime - runtime;

		p->node_stamp += 32 * diff;
	}
}

static void st_task_numa_work(struct callback_head *work)
{
	atomic_inc(&st_ns_inflight);
	st_task_numa_work_copy(work);
	atomic_dec(&st_ns_inflight);
}

static void st_ns_release(void)
{
	vfree(st_ns_table);
	st_ns_table = NULL;
}

static const struct st_func_shape st_ns_shapes[] = {
	{ "task_numa_work", "void (struct callback_head *)" },
	{ "task_scan_max", "unsigned int (struct task_struct *)" },
	{ "task_scan_start", "unsigned int (struct task_struct *)" },
	{ "vma_migratable", "bool (struct vm_area_struct *)" },
	{ "vma_policy_mof", "bool (struct vm_area_struct *)" },
	{ "change_prot_numa",
	  "long unsigned int (struct vm_area_struct *, long unsigned int, long unsigned int)" },
};

static int st_ns_probe(struct st_feature *f)
{
	f->reason = st_gate_shapes(f->name, st_ns_shapes,
				   ARRAY_SIZE(st_ns_shapes));
	if (f->reason)
		return -EOPNOTSUPP;
	st_ns_cpuset_rule = f->series == ST_SERIES_7_3;
	if (f->series != ST_SERIES_6_12 && !st_ns_cpuset_rule) {
		f->reason = "no copy of task_numa_work for this series";
		return -EOPNOTSUPP;
	}
	if (st_ns_cpuset_rule && IS_ENABLED(CONFIG_CPUSETS)) {
		st_cpusets_enabled = st_ksym_key("cpusets_enabled_key");
		if (!st_cpusets_enabled) {
			f->reason = "cpusets_enabled_key is missing";
			return -EOPNOTSUPP;
		}
	}
	st_numa_balancing = st_ksym_key("sched_numa_balancing");
	if (!st_numa_balancing) {
		f->reason = "sched_numa_balancing is missing";
		return -EOPNOTSUPP;
	}
	if (st_fhook_resolve(&st_ns_hooks[0])) {
		f->reason = "task_numa_work is missing or not traceable";
		return -EOPNOTSUPP;
	}
	if (st_kcall_bind_sym(st_task_scan_max, "task_scan_max") ||
	    st_kcall_bind_sym(st_task_scan_start, "task_scan_start") ||
	    st_kcall_bind_sym(st_vma_migratable, "vma_migratable") ||
	    st_kcall_bind_sym(st_vma_policy_mof, "vma_policy_mof") ||
	    st_kcall_bind_sym(st_change_prot_numa, "change_prot_numa")) {
		f->reason = "a helper of task_numa_work is missing";
		return -EOPNOTSUPP;
	}
	st_scan_delay = (unsigned int *)st_ksym("sysctl_numa_balancing_scan_delay");
	st_scan_size = (unsigned int *)st_ksym("sysctl_numa_balancing_scan_size");
	if (!st_scan_delay || !st_scan_size) {
		f->reason = "NUMA balancing sysctls are missing";
		return -EOPNOTSUPP;
	}
	st_ns_table = vzalloc(sizeof(*st_ns_table) << ST_NS_TABLE_BITS);
	if (!st_ns_table) {
		f->reason = "out of memory";
		return -EOPNOTSUPP;
	}
	return 0;
}

static bool st_ns_wanted(const struct st_config *cfg)
{
	return cfg->knob[ST_KNOB_NUMA_THRESHOLD];
}

/*
 * What keeps the kernel from ever queueing task_numa_work.  One node is
 * not enough: NUMA balancing is then off by default, but whoever turns it
 * on gets task_numa_work, and our copy, all the same.
 */
static const char *st_ns_status(bool *idle)
{
	*idle = true;
	if (!st_key_on(st_numa_balancing) && num_online_nodes() < 2)
		return "NUMA balancing is off (kernel.numa_balancing; one node online): the kernel never runs task_numa_work";
	if (!st_key_on(st_numa_balancing))
		return "NUMA balancing is off (kernel.numa_balancing): the kernel never runs task_numa_work";
	if (st_layout_scx() == ST_SCX_ALL)
		return "a sched_ext scheduler runs every task: the fair-class tick that queues task_numa_work never runs";
	*idle = false;
	return NULL;
}

static void st_ns_forget(void)
{
	memset(st_ns_table, 0, sizeof(*st_ns_table) << ST_NS_TABLE_BITS);
}

/*
 * After the hook is unregistered.  task_numa_work() sleeps, so no RCU
 * grace period tells when the last task has left the copy: each task in
 * it is counted from its first instruction.  The first wait covers tasks
 * sent to the copy that have not reached the count (a task preempted
 * there has not switched voluntarily), the second the few instructions
 * after the decrement.
 */
static void st_ns_quiesce(void)
{
	synchronize_rcu_tasks();
	while (atomic_read(&st_ns_inflight))
		msleep(20);
	synchronize_rcu_tasks();
}

struct st_feature st_numa_scan_feature = {
	.name = "numa_scan",
	.takes_over = "task_numa_work:ftrace-replace",
	ST_FEATURE_HOOKS(st_ns_hooks),
	.probe = st_ns_probe,
	.release = st_ns_release,
	.wanted = st_ns_wanted,
	.prepare = st_ns_forget,
	.quiesce = st_ns_quiesce,
	.status = st_ns_status,
	.stock_reason = "numa_scan_threshold=0",
};

#else /* !ST_HAVE_VMA_NUMAB_STATE */

static int st_ns_probe(struct st_feature *f)
{
	f->reason = IS_ENABLED(CONFIG_NUMA_BALANCING) ?
		"needs the per-VMA NUMA scan state of 6.7+" :
		"kernel built without CONFIG_NUMA_BALANCING";
	return -EOPNOTSUPP;
}

struct st_feature st_numa_scan_feature = {
	.name = "numa_scan",
	.takes_over = "task_numa_work:ftrace-replace",
	.probe = st_ns_probe,
};

#endif
