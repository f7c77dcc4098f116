/* SPDX-License-Identifier: GPL-2.0 */
/* The trampolines of direct hooks: see fhook_direct.c. */
#ifndef SCHED_TUNE_HOOK_FHOOK_DIRECT_H
#define SCHED_TUNE_HOOK_FHOOK_DIRECT_H

#define ST_FHOOK_SLOTS 8

extern unsigned long st_fhook_targets[ST_FHOOK_SLOTS];

/* not C functions: reached only through ftrace's direct call */
void st_fhook_tramp0(void);
void st_fhook_tramp1(void);
void st_fhook_tramp2(void);
void st_fhook_tramp3(void);
void st_fhook_tramp4(void);
void st_fhook_tramp5(void);
void st_fhook_tramp6(void);
void st_fhook_tramp7(void);

unsigned long st_fhook_direct_tramp(int slot);
void st_fhook_direct_set(int slot, void *fn);

#endif /* SCHED_TUNE_HOOK_FHOOK_DIRECT_H */
