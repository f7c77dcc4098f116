/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The support gate: which kernels each feature's copy of stock logic was
 * checked against (gate_checked.h).  A feature runs only on those, or,
 * with allow_unchecked=1, on another sublevel or vendor of their series.
 */
#ifndef SCHED_TUNE_KERNEL_GATE_H
#define SCHED_TUNE_KERNEL_GATE_H

#include <linux/types.h>

/* Kernel series a feature may meet, as major.minor. */
enum st_series {
	ST_SERIES_UNCHECKED,
	ST_SERIES_6_1,
	ST_SERIES_6_12,
	ST_SERIES_7_3,
};

void st_gate_init(void);
enum st_series st_gate_check(const char *feature, const char **reason);
bool st_gate_unchecked(const char *feature);
const char *st_gate_reason(const char *feature, const char *reason);

/* A kernel function a feature hooks or calls, and its prototype. */
struct st_func_shape {
	const char *func;
	/* as st_btf_func_sig() spells it, e.g. "int (struct task_struct *, int)" */
	const char *sig;
};

const char *st_gate_shapes(const char *feature,
			   const struct st_func_shape *shapes, int nr);
/* debugfs sched_tune/gate_sizes */
int st_gate_sizes_show(char *buf, size_t size);

#endif /* SCHED_TUNE_KERNEL_GATE_H */
