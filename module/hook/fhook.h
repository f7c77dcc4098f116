/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftrace hooks that send every call of a kernel function to a function of
 * ours, which may call the original through a static call.
 */
#ifndef SCHED_TUNE_HOOK_FHOOK_H
#define SCHED_TUNE_HOOK_FHOOK_H

#include <linux/ftrace.h>

#include "kernel/ksym.h"

/* How a hook is installed: see fhook.c. */
enum st_fhook_mech {
	ST_FHOOK_NONE,
	ST_FHOOK_DIRECT,	/* ftrace direct call into fhook_direct.c */
	ST_FHOOK_OPS,		/* ftrace_ops callback that moves the IP */
};

struct st_fhook {
	const char *func;
	void *replacement;
	unsigned long addr;
	/*
	 * Where the replacement calls the original: past its fentry site,
	 * so that no ftrace user (ours included) sees that call; addr where
	 * the kernel tracks call depth (see st_fhook_resolve()).
	 */
	unsigned long orig;
	struct ftrace_ops ops;
	/* direct mode: which trampoline of fhook_direct.c, or -1 */
	int slot;
	enum st_fhook_mech mech;
	/* the mechanism dmesg last heard of */
	enum st_fhook_mech announced;
	bool installed;
	/* ftrace would not take it off: never registered again (fhook.c) */
	bool pinned;
	int pin_err;
};

#define ST_FHOOK(_func, _replacement)					\
	{ .func = #_func, .replacement = (_replacement), .slot = -1 }

int st_fhook_resolve(struct st_fhook *hook);

/*
 * Binds the static call @name, declared with ST_KCALL_DEFINE(), to the
 * original of @hook, resolved: where the replacement must call it (an
 * entry with a direct hook on it would send the call back to us).
 */
#define st_fhook_bind_orig(name, hook)					\
	do {								\
		const struct st_fhook *__hook = (hook);			\
									\
		st_kcall_bind(name, __hook->orig, __hook->func);	\
	} while (0)
int st_fhook_install(struct st_fhook *hooks, int nr, const char **failed);
bool st_fhook_quiet(void);
void st_fhook_remove(struct st_fhook *hooks, int nr);
void st_fhook_release(struct st_fhook *hooks, int nr);
const struct st_fhook *st_fhook_pinned(const struct st_fhook *hooks, int nr);
int st_fhook_check_params(void);
void st_fhook_exit_wait(struct st_fhook *const *sets, const int *nrs, int nr_sets);

#endif /* SCHED_TUNE_HOOK_FHOOK_H */
