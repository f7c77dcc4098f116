/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The knobs of knobs.h: their ids, values and descriptions, parsed and
 * formatted.
 * Pure policy: no kernel state is touched, so the same file is compiled
 * into the module and into the userspace unit tests (selftests/unit).
 */
#ifndef SCHED_TUNE_POLICY_KNOB_H
#define SCHED_TUNE_POLICY_KNOB_H

#include <linux/types.h>
#include <linux/errno.h>

/* ST_KNOB_<id> of each entry of knobs.h, in its order */
enum st_knob_id {
#define ST_KNOB(id, ...)	ST_KNOB_##id,
#include "knobs.h"
	ST_NR_KNOBS
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

#endif /* SCHED_TUNE_POLICY_KNOB_H */
