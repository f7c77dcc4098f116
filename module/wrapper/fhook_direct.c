// SPDX-License-Identifier: GPL-2.0
/*
 * Trampolines of the direct hooks (fhook.c), one per slot.
 *
 * ftrace's direct call reaches one from the patched call at the traced
 * function's entry (or from ftrace_regs_caller, with the same stack), so
 * on entry [rsp] returns into the traced function and [rsp + 8] into its
 * caller.  A caller in our text is a replacement calling the original:
 * return, and the original runs.  Any other caller gets the replacement:
 * drop our return address, so that the stack is the one the caller made
 * for the traced function, and jump to the slot's static call, which the
 * kernel patches into a direct jmp to the replacement.
 *
 * Only r11 and the flags are clobbered: at a function's entry they hold
 * nothing (r11 is a scratch register, never an argument).  IBT: we are
 * reached by a direct call and leave by a direct jmp or a return; the
 * ENDBR is there because fhook.c takes the trampolines' addresses.  The
 * return is the kernel's return-thunk macro, which objtool records so the
 * module loader can patch it.  No call-depth accounting: fhook.c does not
 * use these trampolines when X86_FEATURE_CALL_DEPTH is set.
 *
 * The trampolines live in this C file, next to the static-call keys:
 * objtool then records each jmp as a static-call site of a key in this
 * object, which the module loader patches in place (an asm file of its
 * own would name a key it cannot see, and 6.1 refuses such a site with
 * "Failed to fixup __raw_static_call() usage").
 */
#include <linux/kernel.h>
#include <linux/linkage.h>
#include <linux/objtool.h>
#include <linux/static_call.h>
#include <asm/ibt.h>
#include <asm/unwind_hints.h>

#include "fhook_direct.h"

/* Read by the trampolines: our core text is [lo, lo + len). */
unsigned long st_fhook_text_lo;
unsigned long st_fhook_text_len;

static void st_fhook_unset(void)
{
	WARN_ONCE(1, "sched_tune: direct hook slot used before it was set\n");
}

DEFINE_STATIC_CALL(st_fhook_slot0, st_fhook_unset);
DEFINE_STATIC_CALL(st_fhook_slot1, st_fhook_unset);
DEFINE_STATIC_CALL(st_fhook_slot2, st_fhook_unset);
DEFINE_STATIC_CALL(st_fhook_slot3, st_fhook_unset);
DEFINE_STATIC_CALL(st_fhook_slot4, st_fhook_unset);
DEFINE_STATIC_CALL(st_fhook_slot5, st_fhook_unset);
DEFINE_STATIC_CALL(st_fhook_slot6, st_fhook_unset);
DEFINE_STATIC_CALL(st_fhook_slot7, st_fhook_unset);

#define ST_FHOOK_TRAMP(n)						\
	asm(".pushsection .text, \"ax\"\n"				\
	    ".globl st_fhook_tramp" #n "\n"				\
	    ".type st_fhook_tramp" #n ", @function\n"			\
	    ".p2align 4\n"						\
	    "st_fhook_tramp" #n ":\n\t"					\
	    ASM_ENDBR							\
	    "movq 8(%rsp), %r11\n\t"					\
	    "subq st_fhook_text_lo(%rip), %r11\n\t"			\
	    "cmpq st_fhook_text_len(%rip), %r11\n\t"			\
	    "jae 1f\n\t"						\
	    ASM_RET							\
	    "1: addq $8, %rsp\n\t"					\
	    UNWIND_HINT_FUNC						\
	    "jmp __SCT__st_fhook_slot" #n "\n"				\
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

unsigned long st_fhook_direct_tramp(int slot)
{
	return (unsigned long)st_fhook_tramps[slot];
}

#define ST_FHOOK_KEY(n)	(&STATIC_CALL_KEY(st_fhook_slot##n))
#define ST_FHOOK_TRAMP_ADDR(n)	STATIC_CALL_TRAMP_ADDR(st_fhook_slot##n)

static struct static_call_key *const st_fhook_keys[ST_FHOOK_SLOTS] = {
	ST_FHOOK_KEY(0), ST_FHOOK_KEY(1), ST_FHOOK_KEY(2), ST_FHOOK_KEY(3),
	ST_FHOOK_KEY(4), ST_FHOOK_KEY(5), ST_FHOOK_KEY(6), ST_FHOOK_KEY(7),
};

static void *const st_fhook_keys_tramp[ST_FHOOK_SLOTS] = {
	ST_FHOOK_TRAMP_ADDR(0), ST_FHOOK_TRAMP_ADDR(1),
	ST_FHOOK_TRAMP_ADDR(2), ST_FHOOK_TRAMP_ADDR(3),
	ST_FHOOK_TRAMP_ADDR(4), ST_FHOOK_TRAMP_ADDR(5),
	ST_FHOOK_TRAMP_ADDR(6), ST_FHOOK_TRAMP_ADDR(7),
};

/*
 * Before the slot's trampoline is registered: nothing runs it yet.  The
 * kernel patches the static call's trampoline and the jmp of ours.
 */
void st_fhook_direct_set(int slot, void *fn)
{
	__static_call_update(st_fhook_keys[slot], st_fhook_keys_tramp[slot], fn);
}
