/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Trampolines of the direct hooks (fhook.c), one per slot.
 *
 * ftrace's direct call reaches one from the patched call at the traced
 * function's entry (or from ftrace_regs_caller, with the same stack), so
 * on entry [rsp] returns into the traced function and [rsp + 8] into its
 * caller.  A caller in our text is a replacement calling the original:
 * return, and the original runs.  Any other caller gets the replacement:
 * drop our return address, so that the stack is the one the caller made
 * for the traced function, and jump through the slot's static call (a
 * direct jmp the kernel patched to the replacement).
 *
 * Only r11 and the flags are clobbered: at a function's entry they hold
 * nothing (r11 is a scratch register, never an argument).  No IBT
 * concern: we are reached by a direct call and leave by a direct jmp or
 * a return.  RET is the kernel's return (thunk) macro, which objtool
 * records so the module loader can patch it.  No call-depth accounting:
 * fhook.c does not use these trampolines when X86_FEATURE_CALL_DEPTH is
 * set.
 */
#include <linux/linkage.h>
#include <asm/unwind_hints.h>

.macro ST_FHOOK_TRAMP n
SYM_FUNC_START(st_fhook_tramp\n)
	movq	8(%rsp), %r11
	subq	st_fhook_text_lo(%rip), %r11
	cmpq	st_fhook_text_len(%rip), %r11
	jae	.Lst_redirect\n
	RET
.Lst_redirect\n:
	addq	$8, %rsp
	UNWIND_HINT_FUNC
	jmp	__SCT__st_fhook_slot\n
SYM_FUNC_END(st_fhook_tramp\n)
.endm

	.text
ST_FHOOK_TRAMP 0
ST_FHOOK_TRAMP 1
ST_FHOOK_TRAMP 2
ST_FHOOK_TRAMP 3
ST_FHOOK_TRAMP 4
ST_FHOOK_TRAMP 5
ST_FHOOK_TRAMP 6
ST_FHOOK_TRAMP 7
