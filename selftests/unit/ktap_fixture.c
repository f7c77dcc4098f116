// SPDX-License-Identifier: GPL-2.0
/*
 * For run_tests.sh --self-test: a binary built on ktap.h that keeps its
 * plan ("good"), runs fewer tests than planned ("short"), or returns
 * before ktap_finish() ("early").  Only "good" may exit 0.
 */
#include <string.h>

#include "ktap.h"

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "good";

	ktap_header(3);
	ktap_check(1, "one");
	ktap_check(1, "two");
	if (!strcmp(mode, "early"))
		return 0;
	if (strcmp(mode, "short"))
		ktap_check(1, "three");
	return ktap_finish();
}
