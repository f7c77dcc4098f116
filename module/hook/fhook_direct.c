// SPDX-License-Identifier: GPL-2.0
/*
 * Trampolines of the direct hooks (fhook.c), one per slot.
 *
 * ftrace's direct call reaches one from the call at the traced function's
 * fentry site (or from ftrace_regs_caller, with the same stack), so on
 * entry [rsp] returns into the traced function and [rsp + 8] into its
 * caller.  Every call that reaches us is foreign: the replacements call
 * the original past its fentry site (st_fhook_resolve()), where no ftrace
 * user sees them, as BPF trampolines do with BPF_TRAMP_F_CALL_ORIG.  That
 * is why we no longer look at [rsp + 8]: function_graph and rethook
 * (kretprobes, fprobe exits) rewrite that very slot before we run, and a
 * test on it took our own calls for foreign ones.
 *
 * The trampoline replaces its return address with the replacement and
 * returns there.  The return consumes the return-stack-buffer entry that
 * the fentry call pushed, so the replacement's own return, and every
 * return above it, is predicted right; dropping the entry instead (add
 * $8, %rsp; jmp) left the RSB one entry off and every return above the
 * hooked function mispredicted.  This return is the one mispredict per
 * hooked call (docs/hook-cost.md), the same one livepatch's IPMODIFY
 * return takes.
 *
 * Only r11 and the return slot are touched: at a function's entry r11
 * holds nothing (a scratch register, never an argument).  IBT: we are
 * reached by a direct call and leave by a return; the ENDBR is there
 * because fhook.c takes the trampolines' addresses.  The return is the
 * kernel's return-thunk macro, which objtool records so that the module
 * loader can patch it.  No call-depth accounting: fhook.c does not use
 * these trampolines when X86_FEATURE_CALL_DEPTH is set.
 */
#include <linux/kernel.h>
#include <linux/linkage.h>
#include <asm/ibt.h>

#include "fhook_direct.h"

/* Read by the trampolines: slot n returns into st_fhook_targets[n]. */
unsigned long st_fhook_targets[ST_FHOOK_SLOTS];

#define ST_FHOOK_TRAMP(n)						\
	asm(".pushsection .text, \"ax\"\n"				\
	    ".globl st_fhook_tramp" #n "\n"				\
	    ".type st_fhook_tramp" #n ", @function\n"			\
	    ".p2align 4\n"						\
	    "st_fhook_tramp" #n ":\n\t"					\
	    ASM_ENDBR							\
	    "movq st_fhook_targets + 8 * " #n "(%rip), %r11\n\t"	\
	    "movq %r11, (%rsp)\n\t"					\
	    ASM_RET							\
	    ".size st_fhook_tramp" #n ", . - st_fhook_tramp" #n "\n"	\
	    ".popsection\n")

ST_FHOOK_TRAMP(0);
ST_FHOOK_TRAMP(1);
ST_FHOOK_TRAMP(2);
ST_FHOOK_TRAMP(3);
ST_FHOOK_TRAMP(4);
ST_FHOOK_TRAMP(5);
ST_FHOOK_TRAMP(6);
ST_FHOOK_TRAMP(7);

static void (*const st_fhook_tramps[ST_FHOOK_SLOTS])(void) = {
	st_fhook_tramp0, st_fhook_tramp1, st_fhook_tramp2, st_fhook_tramp3,
	st_fhook_tramp4, st_fhook_tramp5, st_fhook_tramp6, st_fhook_tramp7,
};

/**
 * st_fhook_direct_tramp() - The trampoline of a slot.
 * @slot: the slot, below ST_FHOOK_SLOTS
 *
 * Return: its address, for ftrace's direct call.
 */
unsigned long st_fhook_direct_tramp(int slot)
{
	return (unsigned long)st_fhook_tramps[slot];
}

/**
 * st_fhook_direct_set() - Set the function a slot's trampoline returns into.
 * @slot: the slot, below ST_FHOOK_SLOTS
 * @fn: the replacement
 *
 * Before the slot's trampoline is registered: nothing runs it yet.
 */
void st_fhook_direct_set(int slot, void *fn)
{
	WRITE_ONCE(st_fhook_targets[slot], (unsigned long)fn);
}
