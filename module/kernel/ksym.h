/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel symbols this module needs but the kernel does not export, and
 * calls into them that stay valid under IBT.
 */
#ifndef SCHED_TUNE_KERNEL_KSYM_H
#define SCHED_TUNE_KERNEL_KSYM_H

#include <linux/jump_label.h>
#include <linux/static_call.h>

int st_ksym_init(void);
unsigned long st_ksym(const char *name);

/*
 * Many kernel functions have no ENDBR (never address-taken, or sealed at
 * boot), so an indirect call to them raises #CP on IBT hardware.  Every
 * call into a resolved function goes through a static call of ours
 * instead: the kernel patches it into a direct call or jmp.
 */
#define ST_KCALL_DEFINE(name, proto)	DEFINE_STATIC_CALL_NULL(name, proto)
#define ST_KCALL_DECLARE(name, proto)	DECLARE_STATIC_CALL(name, proto)
#define st_kcall(name)			static_call(name)
/* name is an identifier (checkpatch's "reuse" and "&" notes are moot) */
#define st_kcall_bind(name, addr, what)					\
	do {								\
		unsigned long __addr = (addr);				\
		typeof(&STATIC_CALL_TRAMP(name)) __fn = (void *)__addr;	\
									\
		st_ksym_report_entry(what, __addr);			\
		static_call_update(name, __fn);				\
	} while (0)

/* Resolves @sym and binds it; -ENOENT when the kernel has no such symbol. */
#define st_kcall_bind_sym(name, sym)					\
	({								\
		const char *__sym = (sym);				\
		unsigned long __sym_addr = st_ksym(__sym);		\
									\
		if (__sym_addr)						\
			st_kcall_bind(name, __sym_addr, __sym);		\
		__sym_addr ? 0 : -ENOENT;				\
	})

void st_ksym_report_entry(const char *what, unsigned long addr);

/**
 * st_key_on() - Whether a static key the kernel does not export is on.
 * @key: the key (st_ksym_key()), NULL when the kernel lacks it
 *
 * Read by its count: enough to report or follow a mode (EAS, NUMA
 * balancing, sched_ext, cpusets), not to branch on it the way the
 * kernel's own code does.
 *
 * Return: true if @key is on or being enabled; false for NULL.
 */
static inline bool st_key_on(const struct static_key *key)
{
	/* static_key_count(), inline: -1 while being enabled counts as on */
	return key && atomic_read(&key->enabled);
}

#define st_ksym_key(name)	((const struct static_key *)st_ksym(name))

/* What a key the kernel lacks reads as, where absent means off. */
extern const struct static_key st_key_never;

/* The kernel's key @name, or st_key_never where it has none */
static inline const struct static_key *st_ksym_key_or_never(const char *name)
{
	return st_ksym_key(name) ?: &st_key_never;
}

/**
 * st_key_on_found() - st_key_on() for a key that is never NULL.
 * @key: the kernel's key, or st_key_never
 *
 * The wakeup path spares the test.
 *
 * Return: true if @key is on or being enabled.
 */
static __always_inline bool st_key_on_found(const struct static_key *key)
{
	return atomic_read(&key->enabled);
}

#endif /* SCHED_TUNE_KERNEL_KSYM_H */
