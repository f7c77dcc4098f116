/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Fault injection for the selftests, in the test build only (Kbuild
 * ST_TEST=1, which selftests/lib.sh st_build_module sets): its module
 * parameters are test_unhook_fail, test_stamp_delay and gate_simulate
 * (selftests/README.md).  The shipped module has none of them, and every
 * function below is a constant "nothing injected".
 */
#ifndef SCHED_TUNE_TEST_INJECT_H
#define SCHED_TUNE_TEST_INJECT_H

#include <linux/jump_label.h>
#include <linux/types.h>

struct st_config;
struct task_struct;

#ifdef ST_TEST
bool st_inject_value(const char *feature, char *buf, size_t size);
bool st_inject_entry(const char *prefix, const char *name);
bool st_inject_unhook_fail(const char *func);
void st_inject_init(void);
int st_inject_delaying(int *full);
DECLARE_STATIC_KEY_FALSE(st_inject_delay_key);
void st_inject_delay(struct task_struct *p, const struct st_config *cfg);

/* test_stamp_delay: before the rate limit stamps @p */
static __always_inline void st_inject_stamp(struct task_struct *p,
					    const struct st_config *cfg)
{
	if (static_branch_unlikely(&st_inject_delay_key))
		st_inject_delay(p, cfg);
}
#else
/* gate_simulate's value for @feature, copied to @buf */
static inline bool st_inject_value(const char *feature, char *buf, size_t size)
{
	return false;
}

/* whether gate_simulate holds the entry @prefix@name */
static inline bool st_inject_entry(const char *prefix, const char *name)
{
	return false;
}

/* whether test_unhook_fail makes ftrace refuse to unhook @func */
static inline bool st_inject_unhook_fail(const char *func)
{
	return false;
}

static inline void st_inject_init(void) { }
static inline int st_inject_delaying(int *full)
{
	*full = 0;
	return 0;
}

static inline void st_inject_stamp(struct task_struct *p,
				   const struct st_config *cfg) { }
#endif

#endif /* SCHED_TUNE_TEST_INJECT_H */
