#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The bench's Python unit tests as KTAP (for make check's st_ingest_tap)."""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, ".."))


class KtapResult(unittest.TestResult):
    def __init__(self):
        super().__init__()
        self.n = 0

    def _line(self, ok, test, extra=""):
        self.n += 1
        print("%s %d - bench: %s%s" % ("ok" if ok else "not ok", self.n, test.id().split(".", 1)[-1], extra))

    def addSuccess(self, test):
        self._line(True, test)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._line(False, test)
        for line in self._exc_info_to_string(err, test).splitlines():
            print("# " + line)

    addError = addFailure

    def addSkip(self, test, reason):
        self._line(True, test, " # SKIP " + reason)


def main():
    suite = unittest.defaultTestLoader.discover(HERE, pattern="test_*.py")
    print("KTAP version 1")
    r = KtapResult()
    suite.run(r)
    print("1..%d" % r.n)
    return 0 if r.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
