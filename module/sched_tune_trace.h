/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The trace events of sched_tune (events/sched_tune/): one per decision
 * the module makes in place of stock's, fired where the decision's
 * counter in stats/ grows, so that over a run the events of one kind
 * number what their counter gained.  None fires for a decision equal to
 * stock's or under passthrough.  Created in config.c.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM sched_tune

#if !defined(SCHED_TUNE_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define SCHED_TUNE_TRACE_H

#include <linux/sched.h>
#include <linux/tracepoint.h>

#include "policy/prev_bias.h"

/* a wakee kept on its previous CPU: the task, and the CPUs it moves on */
DECLARE_EVENT_CLASS(sched_tune_place,

	TP_PROTO(struct task_struct *p, int prev_cpu, int stock_cpu,
		 int cpu),

	TP_ARGS(p, prev_cpu, stock_cpu, cpu),

	TP_STRUCT__entry(
		__array(char,	comm,	TASK_COMM_LEN)
		__field(pid_t,	pid)
		__field(int,	prev_cpu)
		__field(int,	stock_cpu)
		__field(int,	cpu)
	),

	TP_fast_assign(
		memcpy(__entry->comm, p->comm, TASK_COMM_LEN);
		__entry->pid = p->pid;
		__entry->prev_cpu = prev_cpu;
		__entry->stock_cpu = stock_cpu;
		__entry->cpu = cpu;
	),

	TP_printk("comm=%s pid=%d prev_cpu=%d stock_cpu=%d cpu=%d",
		  __entry->comm, __entry->pid, __entry->prev_cpu,
		  __entry->stock_cpu, __entry->cpu)
);

/*
 * ratelimit_kept_prev_cpu: the rate limit returned prev_cpu before stock
 * ran, so stock's choice is not known: stock_cpu is -1.
 */
DEFINE_EVENT(sched_tune_place, sched_tune_ratelimit_keep,
	TP_PROTO(struct task_struct *p, int prev_cpu, int stock_cpu, int cpu),
	TP_ARGS(p, prev_cpu, stock_cpu, cpu));

/* sync_short_placed: the waker's CPU instead of stock's choice */
DEFINE_EVENT(sched_tune_place, sched_tune_sync_short,
	TP_PROTO(struct task_struct *p, int prev_cpu, int stock_cpu, int cpu),
	TP_ARGS(p, prev_cpu, stock_cpu, cpu));

/*
 * prev_bias_kept, prev_bias_target_room, prev_bias_recent_room (and
 * prev_bias_kept_busy, a kept one with no idle CPU): the step of the
 * patch that decided, an enum st_prev_bias_verdict.
 */
TRACE_DEFINE_ENUM(ST_PB_KEEP_ROOM);
TRACE_DEFINE_ENUM(ST_PB_TARGET_ROOM);
TRACE_DEFINE_ENUM(ST_PB_RECENT_ROOM);
TRACE_DEFINE_ENUM(ST_PB_KEEP_BUSY);

TRACE_EVENT(sched_tune_prev_bias,

	TP_PROTO(struct task_struct *p, int prev_cpu, int stock_cpu, int cpu,
		 int step),

	TP_ARGS(p, prev_cpu, stock_cpu, cpu, step),

	TP_STRUCT__entry(
		__array(char,	comm,	TASK_COMM_LEN)
		__field(pid_t,	pid)
		__field(int,	prev_cpu)
		__field(int,	stock_cpu)
		__field(int,	cpu)
		__field(int,	step)
	),

	TP_fast_assign(
		memcpy(__entry->comm, p->comm, TASK_COMM_LEN);
		__entry->pid = p->pid;
		__entry->prev_cpu = prev_cpu;
		__entry->stock_cpu = stock_cpu;
		__entry->cpu = cpu;
		__entry->step = step;
	),

	TP_printk("comm=%s pid=%d prev_cpu=%d stock_cpu=%d cpu=%d step=%s",
		  __entry->comm, __entry->pid, __entry->prev_cpu,
		  __entry->stock_cpu, __entry->cpu,
		  __print_symbolic(__entry->step,
				   { ST_PB_KEEP_ROOM, "kept" },
				   { ST_PB_TARGET_ROOM, "target_room" },
				   { ST_PB_RECENT_ROOM, "recent_room" },
				   { ST_PB_KEEP_BUSY, "kept_busy" }))
);

/* ratelimit_quota_halved, ratelimit_quota_replenished: at a migration */
TRACE_EVENT(sched_tune_ratelimit_quota,

	TP_PROTO(struct task_struct *p, int cpu, int new_cpu, bool halved),

	TP_ARGS(p, cpu, new_cpu, halved),

	TP_STRUCT__entry(
		__array(char,	comm,	TASK_COMM_LEN)
		__field(pid_t,	pid)
		__field(int,	cpu)
		__field(int,	new_cpu)
		__field(bool,	halved)
	),

	TP_fast_assign(
		memcpy(__entry->comm, p->comm, TASK_COMM_LEN);
		__entry->pid = p->pid;
		__entry->cpu = cpu;
		__entry->new_cpu = new_cpu;
		__entry->halved = halved;
	),

	TP_printk("comm=%s pid=%d cpu=%d new_cpu=%d quota=%s",
		  __entry->comm, __entry->pid, __entry->cpu, __entry->new_cpu,
		  __entry->halved ? "halved" : "replenished")
);

/*
 * ttwu_queued_by_level, ttwu_direct_by_level: a wakeup of @p from this
 * CPU to @cpu queued on its wakelist, or done directly, against stock.
 */
TRACE_EVENT(sched_tune_cache_level,

	TP_PROTO(struct task_struct *p, int cpu, bool queued),

	TP_ARGS(p, cpu, queued),

	TP_STRUCT__entry(
		__array(char,	comm,	TASK_COMM_LEN)
		__field(pid_t,	pid)
		__field(int,	cpu)
		__field(bool,	queued)
	),

	TP_fast_assign(
		memcpy(__entry->comm, p->comm, TASK_COMM_LEN);
		__entry->pid = p->pid;
		__entry->cpu = cpu;
		__entry->queued = queued;
	),

	TP_printk("comm=%s pid=%d cpu=%d wakeup=%s stock=%s",
		  __entry->comm, __entry->pid, __entry->cpu,
		  __entry->queued ? "queued" : "direct",
		  __entry->queued ? "direct" : "queued")
);

/* numa_vma_allowed_by_threshold: a scan of a VMA stock would skip */
TRACE_EVENT(sched_tune_numa_scan,

	TP_PROTO(struct task_struct *p, unsigned long start,
		 unsigned long end),

	TP_ARGS(p, start, end),

	TP_STRUCT__entry(
		__array(char,		comm,	TASK_COMM_LEN)
		__field(pid_t,		pid)
		__field(unsigned long,	start)
		__field(unsigned long,	end)
	),

	TP_fast_assign(
		memcpy(__entry->comm, p->comm, TASK_COMM_LEN);
		__entry->pid = p->pid;
		__entry->start = start;
		__entry->end = end;
	),

	TP_printk("comm=%s pid=%d vma=%lx-%lx", __entry->comm, __entry->pid,
		  __entry->start, __entry->end)
);

/*
 * eevdf_slices_set and eevdf_slices_restored: an entity's request of
 * @slice instead of @old.  @p is its task, NULL for a group entity
 * (pid -1).
 */
DECLARE_EVENT_CLASS(sched_tune_slice,

	TP_PROTO(struct task_struct *p, u64 old, u64 slice),

	TP_ARGS(p, old, slice),

	TP_STRUCT__entry(
		__array(char,	comm,	TASK_COMM_LEN)
		__field(pid_t,	pid)
		__field(u64,	old)
		__field(u64,	slice)
	),

	TP_fast_assign(
		if (p)
			memcpy(__entry->comm, p->comm, TASK_COMM_LEN);
		else
			memset(__entry->comm, 0, TASK_COMM_LEN);
		__entry->pid = p ? p->pid : -1;
		__entry->old = old;
		__entry->slice = slice;
	),

	TP_printk("comm=%s pid=%d old_ns=%llu slice_ns=%llu", __entry->comm,
		  __entry->pid, __entry->old, __entry->slice)
);

DEFINE_EVENT(sched_tune_slice, sched_tune_eevdf_slice,
	TP_PROTO(struct task_struct *p, u64 old, u64 slice),
	TP_ARGS(p, old, slice));

DEFINE_EVENT(sched_tune_slice, sched_tune_eevdf_restore,
	TP_PROTO(struct task_struct *p, u64 old, u64 slice),
	TP_ARGS(p, old, slice));

#endif /* SCHED_TUNE_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE sched_tune_trace
#include <trace/define_trace.h>
