/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KTAP output for the userspace unit tests, as tools/testing/selftests
 * writes it: version line, plan first, one result line per test.  The
 * plan is enforced: ktap_finish() fails a binary whose results do not
 * match its plan, and a binary that exits without ktap_finish() (an
 * early return, exit()) exits 1 (run_tests.sh checks the count too).
 */
#ifndef ST_UNIT_KTAP_H
#define ST_UNIT_KTAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* the kernel's helpers: ARRAY_SIZE() from the unit tests' own kernel.h */
#include <linux/kernel.h>
#define BIT_ULL(nr) (1ULL << (nr))

static int ktap_nr, ktap_failed, ktap_planned = -1, ktap_done;

static inline void ktap_atexit(void)
{
	if (ktap_done)
		return;
	printf("# exited before ktap_finish(): %d of %d planned results\n",
	       ktap_nr, ktap_planned);
	fflush(stdout);
	_exit(1);
}

static inline void ktap_header(int planned)
{
	/* results must reach the log in order even when a test crashes */
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("KTAP version 1\n1..%d\n", planned);
	ktap_planned = planned;
	atexit(ktap_atexit);
}

static inline void ktap_diag(const char *fmt, ...)
{
	va_list ap;

	printf("# ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static inline int ktap_check(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d ", ok ? "" : "not ", ++ktap_nr);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!ok)
		ktap_failed++;
	return ok;
}

static inline void ktap_skip(const char *what, const char *why)
{
	printf("ok %d %s # SKIP %s\n", ++ktap_nr, what, why);
}

/* The exit status of main(): 0 only if every planned test ran and passed. */
static inline int ktap_finish(void)
{
	ktap_done = 1;
	if (ktap_nr != ktap_planned) {
		printf("# plan 1..%d but %d results\n", ktap_planned, ktap_nr);
		return 1;
	}
	if (ktap_failed)
		printf("# %d of %d failed\n", ktap_failed, ktap_nr);
	return ktap_failed ? 1 : 0;
}

#endif
