# SPDX-License-Identifier: GPL-2.0
"""The man page, the README and debian/control say what the code does:
the same configurations, every option, the plotter and the workloads."""

import os
import re
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))

from stbench import cli, module  # noqa: E402

TOP = os.path.join(HERE, "..", "..")


def text(rel):
    with open(os.path.join(TOP, rel)) as f:
        return f.read()


def man_section(man, name):
    m = re.search(r"^\.SH %s\n(.*?)(?=^\.SH )" % name, man, re.M | re.S)
    return m.group(1) if m else ""


class TestManPage(unittest.TestCase):
    def setUp(self):
        self.man = text("bench/sched-tune-bench.1")

    def test_configurations_are_the_codes(self):
        sec = man_section(self.man, "CONFIGURATIONS")
        names = [n.replace("\\-", "-") for n in re.findall(r"^\.TP\n\.B (\S+)$", sec, re.M)]
        self.assertEqual(names, module.BUILTIN_NAMES)

    def test_every_option(self):
        man = re.sub(r"\\f[RBIP]", " ", self.man.replace("\\-", "-"))
        p = cli.parser()
        sub = next(a for a in p._actions if a.__class__.__name__ == "_SubParsersAction")
        missing = []
        for name, sp in sub.choices.items():
            if name not in man:
                missing.append(name)
            for a in sp._actions:
                for o in a.option_strings:
                    if o not in ("-h", "--help") and not re.search(r"(^|[^\w-])%s(?![\w-])" % re.escape(o), man):
                        missing.append("%s %s" % (name, o))
        self.assertEqual(missing, [])

    def test_no_stale_claims(self):
        man = self.man.replace("\\-", "-")
        self.assertNotIn("ABAB", man)
        self.assertNotIn("such as 6.1 and 7.3", man)
        self.assertNotIn("gnuplot", man)
        self.assertNotIn("Hmean", man)
        self.assertIn("6.12 and 7.3.4 run them", man)


class TestReadmeAndPackage(unittest.TestCase):
    def test_readme_configurations(self):
        readme = text("bench/README.md")
        table = re.search(r"^## Configurations\n(.*?)^## ", readme, re.M | re.S).group(1)
        named = set(re.findall(r"`([a-z0-9_-]+)`", " ".join(
            line.split("|")[1] for line in table.splitlines() if line.startswith("| `"))))
        self.assertEqual(set(module.BUILTIN_NAMES) - named, set())

    def test_fleet_recipe_gives_every_host_the_same_work(self):
        """The README's compare recipe: hosts of 8 and 192 CPUs run the
        same commands (8 tbench clients against 192 was the issue's)."""
        from stbench.workloads import Env, make_workloads
        readme = text("bench/README.md")
        sec = readme[readme.index("## Many machines: compare"):]
        cmd = re.search(r"^    (sched-tune-bench -c .*?)\n    #", sec, re.M | re.S).group(1)
        argv = cmd.replace("\\\n", " ").replace("$(hostname)", "host").split()[1:]
        opts = cli.parser().parse_args(["run"] + argv)
        works = []
        for ncpus in (8, 192):
            env = Env(opts, ncpus, 64 << 20, "/nonexistent", build=False)
            try:
                wls = make_workloads(env, opts.workloads, opts.hackbench_groups)
                works.append([(w.name, w.work()) for w in wls])
            finally:
                env.cleanup()
        self.assertEqual(works[0], works[1])
        self.assertEqual(len(works[0]), 8)

    def test_plotter_and_workloads(self):
        control = text("debian/control")
        self.assertNotIn("gnuplot", control)
        self.assertIn("python3-matplotlib", control)
        self.assertIn("three C workloads", control)
        self.assertNotIn("two C workloads", control)
        vm = text("selftests/bench_vm.sh")
        pkgs = re.search(r"^BENCH_PKGS=\((.*)\)$", vm, re.M).group(1).split()
        self.assertNotIn("gnuplot-nox", pkgs)
        self.assertIn("python3-matplotlib", pkgs)
        for rel in ("bench/README.md", "bench/stbench/plots.py", "README.md", "selftests/README.md",
                    "selftests/lib.sh"):
            self.assertFalse("gnuplot" in text(rel), rel)


if __name__ == "__main__":
    unittest.main()
