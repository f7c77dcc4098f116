# SPDX-License-Identifier: GPL-2.0
"""strunner.kdoc: the functions found at their definitions, documented
or not, and a result per file with a given kernel-doc."""

import os
import shutil
import tempfile
import unittest

from strunner import kdoc
from util import write

SOURCE = """\
#include "x.h"

/**
 * st_documented() - Documented.
 *
 * Return: 0.
 */
int st_documented(void)
{
	return 0;
}

/* only a comment */
static int __printf(1, 2)
st_static(const char *f, ...)
{
	return 0;
}

/* a plain comment */
unsigned long
st_plain(int a,
	 int b)
{
	return a + b;
}

int st_table[] = {
	1,
};

void __attribute__((cold)) st_attr(void)
{
}
"""

# a kernel-doc that warns about files whose name has "bad"
KERNEL_DOC = """#!/bin/sh
for f; do :; done
case $f in *bad*) echo "$f:3: warning: No description found"; exit 0;; esac
"""


class Kdoc(unittest.TestCase):
    def setUp(self):
        self.src = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.src)
        write(self.src, "module/a.c", SOURCE)
        write(self.src, "module/sub/x.h", "int st_documented(void);\n")

    def test_functions(self):
        self.assertEqual(kdoc.functions(self.src), [("module/a.c:8", "st_documented", True),
                                                    ("module/a.c:21", "st_plain", False),
                                                    ("module/a.c:32", "st_attr", False)])

    def test_check(self):
        script = write(self.src, "kd/kernel-doc", KERNEL_DOC, 0o755)
        write(self.src, "module/bad.h", "\n")
        recs = list(kdoc.check(self.src, script))
        self.assertEqual([r[1:3] for r in recs if r[0] == "R"], [
            ("pass", "kdoc: kernel-doc -none -Wall -v module/a.c"),
            ("fail", "kdoc: kernel-doc -none -Wall -v module/bad.h"),
            ("pass", "kdoc: kernel-doc -none -Wall -v module/sub/x.h"),
            ("fail", "kdoc: each non-static function of module/ has a /** comment at its "
                     "definition")])
        comments = [r[1] for r in recs if r[0] == "C"]
        self.assertEqual(comments, ["  module/bad.h:3: warning: No description found",
                                    "  no /** comment right above the definition of:",
                                    "  module/a.c:21 st_plain", "  module/a.c:32 st_attr"])

    def test_no_script_no_functions(self):
        os.unlink(os.path.join(self.src, "module/a.c"))
        self.assertEqual([r[1] for r in kdoc.check(self.src, None)], ["fail", "fail"])


if __name__ == "__main__":
    unittest.main()
