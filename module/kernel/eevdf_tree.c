// SPDX-License-Identifier: GPL-2.0
/*
 * The EEVDF tree as each compared series keeps it (gate_checked.h,
 * eevdf_slice), confirmed in each build's BTF:
 *  - 6.12: one tree per cfs_rq, holding that level's tasks and group
 *    entities, cfs_rq->curr out of it; the augment keeps min_vruntime
 *    and min_slice;
 *  - 7.3: one tree per CPU, rq->cfs.tasks_timeline, holding tasks only,
 *    rq->cfs.curr out of it; a task's weight is se->h_load; the augment
 *    keeps min_vruntime, min_slice and max_slice.
 * Offsets come from BTF, so one source serves both.  What the slice
 * policy relies on: docs/features/eevdf.md.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/rbtree.h>

#include "eevdf_tree.h"
#include "layout.h"

#ifdef ST_HAVE_EEVDF

static bool st_evt_flat;	/* 7.3: rq->cfs's tree holds every task */
static u32 st_evt_curr_off, st_evt_timeline_off, st_evt_nr_off;
static u32 st_evt_max_slice_off;	/* 7.3 */
/* the load_weight calc_delta_fair() divides by: se->load, 7.3 se->h_load */
static u32 st_evt_weight_off;

static bool st_evt_member(const char *type, const char *member, u32 *off,
			  u32 want)
{
	u32 size;

	return !st_layout_member(type, member, off, &size) && size == want;
}

/**
 * st_evt_probe() - Check the EEVDF tree's layout against a series'.
 * @series: the series the support gate matched
 *
 * Reads the offsets the other functions use from the kernel's BTF.
 *
 * Return: NULL when the layout is the one of @series, or why not.
 */
const char *st_evt_probe(enum st_series series)
{
	u32 off;

	if (!st_evt_member("cfs_rq", "curr", &st_evt_curr_off, sizeof(void *)))
		return "struct cfs_rq has no curr pointer in kernel BTF";
	if (!st_evt_member("cfs_rq", "tasks_timeline", &st_evt_timeline_off,
			   sizeof(struct rb_root_cached)))
		return "struct cfs_rq has no tasks_timeline tree in kernel BTF";
	if (series == ST_SERIES_6_12) {
		if (st_evt_member("sched_entity", "max_slice", &off, 8))
			return "sched_entity has max_slice, unlike 6.12's";
		if (!st_evt_member("cfs_rq", "nr_running", &st_evt_nr_off,
				   sizeof(unsigned int)))
			return "struct cfs_rq has no nr_running in kernel BTF";
		if (!st_evt_member("sched_entity", "load", &st_evt_weight_off,
				   sizeof(struct load_weight)))
			return "sched_entity has no load weight in kernel BTF";
		st_evt_flat = false;
		return NULL;
	}
	if (series != ST_SERIES_7_3)
		return "no EEVDF tree layout known for this series";
	if (!st_evt_member("sched_entity", "max_slice", &st_evt_max_slice_off, 8))
		return "sched_entity has no 64-bit max_slice in kernel BTF (7.3's tree augment)";
	if (!st_evt_member("sched_entity", "vprot", &off, 8))
		return "sched_entity has no 64-bit vprot in kernel BTF (7.3's protected slice)";
	if (!st_evt_member("cfs_rq", "h_curr", &off, sizeof(void *)))
		return "struct cfs_rq has no h_curr in kernel BTF (7.3's one tree per CPU)";
	if (!st_evt_member("cfs_rq", "h_nr_queued", &st_evt_nr_off,
			   sizeof(unsigned int)))
		return "struct cfs_rq has no h_nr_queued in kernel BTF";
	if (!st_evt_member("sched_entity", "h_load", &st_evt_weight_off,
			   sizeof(struct load_weight)))
		return "sched_entity has no h_load in kernel BTF (7.3's hierarchical weight)";
	st_evt_flat = true;
	return NULL;
}

/**
 * st_evt_group_slices() - Whether group entities carry slices of their own.
 *
 * Return: true on 6.12, false on 7.3.
 */
bool st_evt_group_slices(void)
{
	return !st_evt_flat;
}

/**
 * st_evt_cfs_rq() - The cfs_rq whose tree holds an entity.
 * @se: the entity, queued and not running
 *
 * Return: the cfs_rq, as bytes to read at BTF offsets; NULL without
 * CONFIG_FAIR_GROUP_SCHED.
 */
char *st_evt_cfs_rq(const struct sched_entity *se)
{
#ifdef CONFIG_FAIR_GROUP_SCHED
	/* 7.3: the top-level entity's cfs_rq is rq->cfs */
	if (st_evt_flat)
		while (se->parent)
			se = se->parent;
	return (char *)se->cfs_rq;
#else
	return NULL;
#endif
}

/**
 * st_evt_is_curr() - Whether an entity is its tree's running one.
 * @se: the entity
 *
 * Return: true if @se is the curr of its tree's cfs_rq, out of the tree.
 */
bool st_evt_is_curr(const struct sched_entity *se)
{
	return READ_ONCE(*(struct sched_entity **)(st_evt_cfs_rq(se) +
						   st_evt_curr_off)) == se;
}

static inline u64 *st_evt_max_slice(struct sched_entity *se)
{
	return (u64 *)((char *)se + st_evt_max_slice_off);
}

/**
 * st_evt_fix_augment() - Fix the tree's augmented slices after @se->slice.
 * @se: the entity whose slice changed, in its tree
 *
 * Every node from @se to the root gets its min_slice (and on 7.3 its
 * max_slice) again from its own slice and its children's, as the tree's
 * augment callback (min_vruntime_update) computes them.
 *
 * Context: Under the rq lock of @se's tree.
 */
void st_evt_fix_augment(struct sched_entity *se)
{
	struct rb_node *node;

	for (node = &se->run_node; node; node = rb_parent(node)) {
		struct sched_entity *e = rb_entry(node, struct sched_entity,
						  run_node);
		struct rb_node *kid[2] = { node->rb_left, node->rb_right };
		u64 min = e->slice, max = e->slice;
		int i;

		for (i = 0; i < 2; i++) {
			struct sched_entity *k;

			if (!kid[i])
				continue;
			k = rb_entry(kid[i], struct sched_entity, run_node);
			min = min(min, k->min_slice);
			if (st_evt_flat)
				max = max(max, *st_evt_max_slice(k));
		}
		e->min_slice = min;
		if (st_evt_flat)
			*st_evt_max_slice(e) = max;
	}
}

/**
 * st_evt_min_slice() - cfs_rq_min_slice(): the smallest slice queued.
 * @cfs_rq: the cfs_rq, as bytes
 *
 * Return: the smallest slice of its running entity and its tree, or ~0
 * when neither has one.
 */
u64 st_evt_min_slice(char *cfs_rq)
{
	struct rb_node *root = *(struct rb_node **)(cfs_rq + st_evt_timeline_off);
	struct sched_entity *curr = *(struct sched_entity **)(cfs_rq +
							      st_evt_curr_off);
	u64 min = ~0ULL;

	if (curr && curr->on_rq)
		min = curr->slice;
	if (root)
		min = min(min, rb_entry(root, struct sched_entity,
					run_node)->min_slice);
	return min;
}

/**
 * st_evt_weight() - The weight calc_delta_fair() gives an entity.
 * @se: the entity
 *
 * Return: se->load's weight on 6.12, se->h_load's on 7.3.
 */
u64 st_evt_weight(const struct sched_entity *se)
{
	const struct load_weight *lw = (const void *)((const char *)se +
						      st_evt_weight_off);

	return READ_ONCE(lw->weight);
}

/**
 * st_evt_nr() - The entities an entity competes with in its tree.
 * @se: the entity
 *
 * Return: their number, @se included.
 */
unsigned int st_evt_nr(const struct sched_entity *se)
{
	return READ_ONCE(*(unsigned int *)(st_evt_cfs_rq(se) + st_evt_nr_off));
}

#else /* 6.1: CFS, no EEVDF tree */

/**
 * st_evt_probe() - Refuse: this kernel has no EEVDF tree.
 * @series: the series the support gate matched
 *
 * Return: why not.
 */
const char *st_evt_probe(enum st_series series)
{
	return "this kernel runs CFS";
}

#endif /* ST_HAVE_EEVDF */
