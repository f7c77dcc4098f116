// SPDX-License-Identifier: GPL-2.0
/*
 * The trampolines of the direct hooks (fhook.c), one per slot.  ftrace's
 * direct call reaches one from the traced function's fentry site; it
 * writes the replacement's address over its return address and returns
 * there, through the kernel's return-thunk macro, so the return stack
 * buffer stays balanced.  It touches r11 and that stack slot only, both
 * dead at a function's entry, and does no call-depth accounting (fhook.c
 * then uses the ftrace_ops path).  Why each of these: docs/hook-cost.md.
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
