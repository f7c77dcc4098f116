#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The bench's Python unit tests as KTAP (for make check's st_ingest_tap).

The plan comes first, one result per test: a test with a failed subTest
is "not ok", naming the subTests in its diagnostics, an unexpected
success is "not ok" too.  Exit status 1 when anything failed.
Usage: run.py [DIR [NAME]] (default: this directory, "bench"), tests in
DIR/test_*.py, each result named "NAME: TEST".
"""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, ".."))


class KtapResult(unittest.TestResult):
    def __init__(self, name):
        super().__init__()
        self.name = name
        self.n = 0
        self.said = False
        self.sub_failed = []

    def _line(self, ok, test, extra=""):
        self.n += 1
        self.said = True
        print("%s %d - %s: %s%s" % ("ok" if ok else "not ok", self.n, self.name,
                                     test.id().split(".", 1)[-1], extra))

    def _diag(self, err, test):
        for line in self._exc_info_to_string(err, test).splitlines():
            print("# " + line)

    def startTest(self, test):
        super().startTest(test)
        self.said = False
        self.sub_failed = []

    def stopTest(self, test):
        # a test whose subTests failed gets no other call: its line is here
        if not self.said:
            self._line(not self.sub_failed, test, " (subTest failed: %s)" % "; ".join(self.sub_failed)
                       if self.sub_failed else " (no outcome)")
        super().stopTest(test)

    def addSuccess(self, test):
        super().addSuccess(test)
        self._line(True, test)

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._diag(err, test)
        self._line(False, test)

    def addError(self, test, err):
        super().addError(test, err)
        self._diag(err, test)
        self._line(False, test)

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:
            self.sub_failed.append(subtest._subDescription())
            self._diag(err, test)

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._line(True, test, " # SKIP " + reason)

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self._line(True, test, " (expected failure)")

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self._line(False, test, " (unexpected success)")


def main():
    start = sys.argv[1] if len(sys.argv) > 1 else HERE
    suite = unittest.defaultTestLoader.discover(start, pattern="test_*.py", top_level_dir=start)
    print("KTAP version 1")
    print("1..%d" % suite.countTestCases())
    r = KtapResult(sys.argv[2] if len(sys.argv) > 2 else "bench")
    suite.run(r)
    return 0 if r.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
