// SPDX-License-Identifier: GPL-2.0
/*
 * Symbol resolution: kallsyms_lookup_name() is not exported since 5.7; a
 * kprobe registered on it tells its address.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/uaccess.h>
#include <asm/ibt.h>

#include "ksym.h"
#include "test_inject.h"

ST_KCALL_DEFINE(st_kallsyms_lookup_name, kallsyms_lookup_name);

const struct static_key st_key_never;

/**
 * st_ksym_init() - Find kallsyms_lookup_name(), for st_ksym().
 *
 * Description: Through a kprobe on it, and then its own answer for its
 * entry (IBT kernels put the kprobe past the ENDBR).
 *
 * Return: 0, or the error of registering the kprobe.
 */
int st_ksym_init(void)
{
	struct kprobe kp = { .symbol_name = "kallsyms_lookup_name" };
	unsigned long addr, entry;
	int ret;

	/* gate_simulate=nokprobe: a probe on a name no kernel has fails here */
	if (st_inject_entry("nokprobe", ""))
		kp.symbol_name = "kallsyms_lookup_name (absent)";
	ret = register_kprobe(&kp);
	if (ret) {
		pr_warn("cannot find kallsyms_lookup_name: kprobe error %d\n",
			ret);
		return ret;
	}
	addr = (unsigned long)kp.addr;
	unregister_kprobe(&kp);

	/*
	 * On IBT kernels a kprobe sits past the ENDBR, so kp.addr is entry
	 * + 4: callable, but not the entry (whose ENDBR we audit and where
	 * call-depth accounting starts).  Ask the function for its own entry.
	 */
	static_call_update(st_kallsyms_lookup_name,
			   (typeof(&STATIC_CALL_TRAMP(st_kallsyms_lookup_name)))addr);
	entry = st_ksym("kallsyms_lookup_name");
	if (entry && entry <= addr && addr - entry <= 16)
		addr = entry;
	st_kcall_bind(st_kallsyms_lookup_name, addr, "kallsyms_lookup_name");
	return 0;
}

/**
 * st_ksym() - The address of a kernel symbol, exported or not.
 * @name: the symbol
 *
 * Only once st_ksym_init() succeeded.
 *
 * Return: its address, or 0 when kallsyms has no such symbol.
 */
unsigned long st_ksym(const char *name)
{
	/* gate_simulate=nosym:NAME: what kallsyms answers for a name it lacks */
	if (st_inject_entry("nosym:", name))
		return 0;
	return st_kcall(st_kallsyms_lookup_name)(name);
}

/**
 * st_ksym_report_entry() - Tell dmesg what IBT will think of a call.
 * @what: the function called, for the message
 * @addr: a function's entry or, for a hooked function's original, just
 *        past its fentry site (%pS shows which)
 *
 * What IBT will think of a direct jump or call to @addr: an ENDBR, one
 * sealed at boot, or none.  Silent on kernels without
 * CONFIG_X86_KERNEL_IBT.
 */
void st_ksym_report_entry(const char *what, unsigned long addr)
{
#ifdef CONFIG_X86_KERNEL_IBT
	u32 insn;

	if (copy_from_kernel_nofault(&insn, (void *)addr, sizeof(insn)))
		insn = 0;
	if (insn == gen_endbr())
		pr_info("%s: called at %pS, an ENDBR, through a static call\n",
			what, (void *)addr);
	else if (insn == gen_endbr_poison())
		pr_info("%s: called at %pS, an ENDBR sealed at boot, through a static call (direct, IBT-safe)\n",
			what, (void *)addr);
	else
		pr_info("%s: called at %pS, no ENDBR, through a static call (direct, IBT-safe)\n",
			what, (void *)addr);
#endif
}
