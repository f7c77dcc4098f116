/* SPDX-License-Identifier: GPL-2.0 */
/* Minimal KTAP output for the userspace unit tests. */
#ifndef ST_UNIT_KTAP_H
#define ST_UNIT_KTAP_H

#include <stdarg.h>
#include <stdio.h>

static int ktap_nr, ktap_failed;

static inline void ktap_header(int planned)
{
	printf("KTAP version 1\n1..%d\n", planned);
}

static inline int ktap_check(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", ok ? "" : "not ", ++ktap_nr);
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
	printf("ok %d - %s # SKIP %s\n", ++ktap_nr, what, why);
}

static inline int ktap_finish(void)
{
	return ktap_failed ? 1 : 0;
}

#endif
