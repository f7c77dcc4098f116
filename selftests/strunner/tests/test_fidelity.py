# SPDX-License-Identifier: GPL-2.0
"""strunner.fidelity on this tree's own pages, then on a made-up tree: a
good one passes whole, and each broken page, cell or missing page fails
exactly where it should."""

import os
import re
import shutil
import tempfile
import unittest

from strunner import fidelity
from util import write

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

MODULE = """struct st_feature st_alpha_feature = {
\t.name = "alpha",
\t.probe = st_alpha_probe,
};

struct st_feature st_beta_feature = {
\t.takes_over = "f:ftrace-wrap",
\t.name = "beta",
};
"""

PAGE = """# %(n)s: what it reproduces

Patch: "a patch", Someone, 2023-01-01, https://lore.kernel.org/x/
Knobs:

- `%(n)s_knob`: 1 reproduces the patch.

## Fidelity

| # | the patch | sched_tune | where | test |
|---|---|---|---|---|
| 1 | `if (a) return b;` | the same | `module/a.c` `st_f()` | `selftests/x.sh`: "alpha: the first check" |
| 2 | `c = d;` | the same | `module/a.c` `st_g()` | `selftests/unit/test_a.c`: "alpha: 50%%%% of the unit"; `selftests/x.sh`: "beta: a check (" |

## Differences

| # | difference | forced by | test |
|---|---|---|---|
| 1 | a copy | inlined | `selftests/x.sh`: "check_eq" |
"""

# (what, the edit of alpha.md: a pattern and its replacement)
BROKEN = [
    ("a string the file does not hold", '"alpha: the first check"', '"alpha: no such check"'),
    ("the string in another case", '"alpha: the first check"', '"Alpha: the first check"'),
    ("a file that does not exist", '`selftests/x.sh`: "alpha: the first',
     '`selftests/y.sh`: "alpha: the first'),
    ("a path out of the tree", '`selftests/x.sh`: "alpha: the first',
     '`../tree/selftests/x.sh`: "alpha: the first'),
    ("an absolute path", '`selftests/x.sh`: "alpha: the first', '`/etc/x.sh`: "alpha: the first'),
    ("a string without quotes", '`selftests/x.sh`: "alpha: the first check"',
     "`selftests/x.sh`: alpha: the first check"),
    ("a path without backticks", '`selftests/x.sh`: "alpha: the first check"',
     'selftests/x.sh: "alpha: the first check"'),
    ("prose for a test", '`selftests/x.sh`: "alpha: the first check"',
     "none, a claim without a test"),
    ("an empty test cell", '`selftests/x.sh`: "alpha: the first check" ', "  "),
    ("untested with no reason", '`selftests/x.sh`: "alpha: the first check"', "untested: "),
    ("a second string of a cell missing", '`selftests/x.sh`: "beta: a check ("',
     '`selftests/x.sh`: "no such"'),
    ("two tests joined by a comma", '"; `selftests/x.sh`: "beta', '", `selftests/x.sh`: "beta'),
    ("a Fidelity row with a cell missing", "| 1 | `if (a) return b;` | the same |",
     "| 1 | `if (a) return b;` |"),
    ("a pipe inside a cell (an extra cell)", "`if (a) return b;`", "`if (a || b) return c;`"),
    ("a Differences row with a cell missing", "| 1 | a copy | inlined |", "| 1 | a copy |"),
    ("no Differences section", "## Differences\n", ""),
    ("the Differences heading renamed", "## Differences", "## Differences from the patch"),
    ("the Differences header without 'forced by'", "| # | difference | forced by | test |",
     "| # | difference | test |"),
    ("no Fidelity section", re.compile(r"## Fidelity\n.*?(?=## Differences)", re.S), ""),
    ("a Fidelity table without rows", re.compile(r"^\| [12] \| `.*\n", re.M), ""),
    ("the Fidelity table without its |---| line", "|---|---|---|---|---|\n", ""),
]


class Fidelity(unittest.TestCase):
    def setUp(self):
        self.t = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.t)
        write(self.t, "module/a.c", MODULE)
        write(self.t, "selftests/x.sh", 'check "alpha: the first check" true\n'
              'check_eq "beta: a check ($n of $m)" "$n" "$m"\n')
        write(self.t, "selftests/unit/test_a.c", 'ktap_check(ok, "alpha: 50%% of the unit");\n')
        for n in ("alpha", "beta"):
            write(self.t, "docs/features/%s.md" % n, PAGE % {"n": n})

    def edit(self, old, new):
        path = os.path.join(self.t, "docs/features/alpha.md")
        with open(path) as f:
            text = f.read()
        text = old.sub(new, text) if hasattr(old, "sub") else text.replace(old, new)
        with open(path, "w") as f:
            f.write(text)

    def results(self):
        return [r for r in fidelity.check(self.t) if r[0] == "R"]

    def counts(self):
        res = self.results()
        return (sum(r[1] == "pass" for r in res), sum(r[1] == "fail" for r in res))

    def test_this_tree(self):
        res = [r for r in fidelity.check(ROOT) if r[0] == "R"]
        self.assertGreater(len(res), 6)
        self.assertEqual([r for r in res if r[1] == "fail"], [])

    def test_good_tree(self):
        self.assertEqual(self.counts(), (6, 0))
        self.assertIn(("R", "pass", "docs/features/alpha.md: both tables (2 and 1 rows), each of 3 "
                       "test cells names a file holding its string"), self.results())
        # two definitions of one feature (#ifdef twins) count once
        shutil.copy(os.path.join(self.t, "module/a.c"), os.path.join(self.t, "module/b.c"))
        self.assertEqual(self.counts(), (6, 0))

    def test_broken(self):
        good = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, good)
        shutil.copytree(self.t, good, dirs_exist_ok=True)
        for what, old, new in BROKEN:
            with self.subTest(what=what):
                shutil.rmtree(self.t)
                shutil.copytree(good, self.t)
                self.edit(old, new)
                self.assertEqual(self.counts(), (5, 1))
                self.assertEqual([r[2] for r in self.results() if r[1] == "fail"],
                                 ["docs/features/alpha.md: both tables, each test cell names a "
                                  "file holding its string"])

    def test_untested_row(self):
        self.edit('`selftests/x.sh`: "check_eq"', "untested: no guest has such a CPU")
        self.assertEqual(self.counts(), (6, 0))
        self.assertIn(("R", "skip", "docs/features/alpha.md, Differences row 1",
                       "untested: no guest has such a CPU"), self.results())

    def test_pages_and_features(self):
        os.unlink(os.path.join(self.t, "docs/features/beta.md"))
        self.assertEqual(self.counts(), (3, 1))
        self.assertIn(("R", "fail", "feature beta has its fidelity page docs/features/beta.md"),
                      self.results())
        shutil.copy(os.path.join(self.t, "docs/features/alpha.md"),
                    os.path.join(self.t, "docs/features/gamma.md"))
        self.assertIn(("R", "fail", "docs/features/gamma.md names a feature of the module"),
                      self.results())
        shutil.rmtree(os.path.join(self.t, "docs"))
        self.assertEqual(self.counts(), (0, 2))
        os.unlink(os.path.join(self.t, "module/a.c"))
        self.assertEqual(self.counts(), (0, 1))


if __name__ == "__main__":
    unittest.main()
