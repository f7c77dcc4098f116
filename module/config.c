// SPDX-License-Identifier: GPL-2.0
/*
 * What the hooks read and count: the published configuration and the
 * counters.  core.c publishes the configuration and calls the features;
 * the features read and count here, so that none calls back into core.c.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>

#include "sched_tune.h"

#define CREATE_TRACE_POINTS
#include "sched_tune_trace.h"

/* read by the hooks with st_config_get(), replaced by core.c */
struct st_config __rcu *st_config;

DEFINE_PER_CPU(struct st_stats, st_stats);

const char *const st_stat_names[ST_NR_STATS] = {
#define ST_STAT(_id, _name)						\
	[ST_STAT_##_id] = #_name,
#include "counters.h"
};

/**
 * st_stat_sum() - A counter's value: its per-CPU counts summed.
 * @id: the counter
 *
 * Return: the sum over every possible CPU.
 */
u64 st_stat_sum(enum st_stat_id id)
{
	u64 sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += per_cpu(st_stats.count[id], cpu);
	return sum;
}

/**
 * st_stats_reset() - Zero every counter on every possible CPU.
 *
 * Racy against concurrent increments, which is fine for counters.
 */
void st_stats_reset(void)
{
	int cpu, id;

	for_each_possible_cpu(cpu)
		for (id = 0; id < ST_NR_STATS; id++)
			per_cpu(st_stats.count[id], cpu) = 0;
}

/**
 * st_knob_value() - A knob's value in the published configuration.
 * @id: the knob
 *
 * Return: the value; a knob of an unsupported feature reads its stock
 * value.
 */
u64 st_knob_value(enum st_knob_id id)
{
	u64 val;

	rcu_read_lock();
	val = rcu_dereference(st_config)->knob[id];
	rcu_read_unlock();
	return val;
}
