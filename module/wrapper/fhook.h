/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftrace hooks that send every call of a kernel function to a function of
 * ours, which may call the original through a static call.
 */
#ifndef SCHED_TUNE_WRAPPER_FHOOK_H
#define SCHED_TUNE_WRAPPER_FHOOK_H

#include <linux/ftrace.h>

/* How a hook is installed: see fhook.c. */
enum st_fhook_mech {
	ST_FHOOK_NONE,
	ST_FHOOK_DIRECT,	/* ftrace direct call into fhook_direct.S */
	ST_FHOOK_OPS,		/* ftrace_ops callback that moves the IP */
};

struct st_fhook {
	const char *func;
	void *replacement;
	unsigned long addr;
	struct ftrace_ops ops;
	/* direct mode: which trampoline of fhook_direct.S, or -1 */
	int slot;
	enum st_fhook_mech mech;
	/* the mechanism dmesg last heard of */
	enum st_fhook_mech announced;
	bool installed;
};

#define ST_FHOOK(_func, _replacement)					\
	{ .func = #_func, .replacement = (_replacement), .slot = -1 }

int st_fhook_resolve(struct st_fhook *hook);
int st_fhook_install(struct st_fhook *hooks, int nr, const char **failed);
bool st_fhook_quiet(void);
void st_fhook_remove(struct st_fhook *hooks, int nr);
void st_fhook_release(struct st_fhook *hooks, int nr);

#endif /* SCHED_TUNE_WRAPPER_FHOOK_H */
