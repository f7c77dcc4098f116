/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the running kernel keeps an EEVDF task's entity, for the slice
 * policy of module/eevdf.c (the series facts: eevdf_tree.c).
 */
#ifndef SCHED_TUNE_WRAPPER_EEVDF_TREE_H
#define SCHED_TUNE_WRAPPER_EEVDF_TREE_H

#include <linux/sched.h>
#include <linux/types.h>

#include "gate.h"

/* NULL when the layout is the one of @series, or why not. */
const char *st_evt_probe(enum st_series series);
/* Whether group entities carry slices of their own (6.12, not 7.3). */
bool st_evt_group_slices(void);
/* The cfs_rq whose tree holds @se while it is queued and not running. */
char *st_evt_cfs_rq(const struct sched_entity *se);
/* @se is its tree's running entity (out of the tree). */
bool st_evt_is_curr(const struct sched_entity *se);
/* The tree's augmented slices from @se up to the root, after @se->slice. */
void st_evt_fix_augment(struct sched_entity *se);
/* cfs_rq_min_slice(): the smallest slice queued on @cfs_rq, or ~0. */
u64 st_evt_min_slice(char *cfs_rq);
/* The weight calc_delta_fair() gives @se (6.12 se->load, 7.3 se->h_load). */
u64 st_evt_weight(const struct sched_entity *se);
/* The entities @se competes with in its tree, itself included. */
unsigned int st_evt_nr(const struct sched_entity *se);

#endif
